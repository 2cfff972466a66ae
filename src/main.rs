//! ox88: play chess in the terminal (the TUI), or speak UCI to a GUI, or measure the engine.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use ox88::chess::{Board, perft};
use ox88::engine::eval::{EvalConfig, EvalMode, ValuePreset};
use ox88::engine::order::Scheme;
use ox88::engine::search::Profile;
use ox88::engine::search::Searcher;
use ox88::engine::{IterationInfo, Limits, SearchEvent, SearchOptions, bench};
use ox88::tui::{self, ColorMode, Mode};

#[derive(Parser, Debug)]
#[command(
    name = "ox88",
    version,
    about = "A chess program for the terminal that shows its thinking"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

/// Options of the TUI (`ox88` with no subcommand).
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// Pieces as letters instead of chess glyphs.
    #[arg(long)]
    ascii: bool,
    /// Colours: auto, truecolor, 256, 16 or none (NO_COLOR is respected under auto).
    #[arg(long, default_value = "auto", value_parser = parse_color)]
    color: ColorMode,
    /// Colour theme: default, light, high-contrast, mono, or one in ~/.config/ox88/themes/.
    #[arg(long, default_value = "default")]
    theme: String,
    /// The engine's search depth in plies (change it in the program with + and -).
    #[arg(long, default_value_t = tui::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    /// Start from this position.
    #[arg(long)]
    fen: Option<String>,
    /// Start from the main line of this PGN game.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Resume the unfinished game saved at the last exit without asking.
    #[arg(long)]
    resume: bool,
    /// Time control in minutes+increment seconds, e.g. 5+3 or 40/90+30.
    #[arg(long)]
    tc: Option<String>,
    /// Who plays: white, black, human, engine or analysis.
    #[arg(long, default_value = "white", value_parser = parse_mode)]
    mode: Mode,
    /// Pause between moves in engine-vs-engine mode, in milliseconds.
    #[arg(long, default_value_t = 500)]
    delay: u64,
    /// Evaluation: material, center or full.
    #[arg(long, default_value_t = EvalMode::default())]
    eval: EvalMode,
    /// Move ordering scheme: none, mvvlva, mvvlva100, seed, modern.
    #[arg(long, default_value_t = Scheme::default())]
    order: Scheme,
    /// A Polyglot .bin opening book, consulted before the built-in lines.
    #[arg(long)]
    book: Option<PathBuf>,
}

/// How the engine searches, for `bench` and `search`.
#[derive(clap::Args, Debug)]
struct HowArgs {
    /// Move ordering scheme: none, mvvlva, mvvlva100, seed, modern.
    #[arg(long, default_value_t = Scheme::default())]
    order: Scheme,
    /// Search profile: seed or full.
    #[arg(long, default_value_t = Profile::default(), value_parser = Profile::parse)]
    profile: Profile,
}

fn parse_color(s: &str) -> Result<ColorMode, String> {
    s.parse()
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Speak the UCI protocol on standard input and output (for chess GUIs).
    Uci,
    /// Count leaf nodes of the legal move tree (move generator exactness and speed).
    Perft {
        depth: u32,
        /// Position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        /// One line per root move, as `go perft` prints.
        #[arg(long)]
        divide: bool,
    },
    /// Search a fixed list of positions to a fixed depth; prints nodes and speed.
    Bench {
        #[arg(long, default_value_t = 10)]
        depth: u32,
        #[command(flatten)]
        how: HowArgs,
    },
    /// Search one position and print the seed's engine log line per iteration (depth, time,
    /// nodes, nodes per second, E, PV).
    Search {
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, default_value_t = 10)]
        depth: u32,
        #[command(flatten)]
        how: HowArgs,
        /// material, center or full.
        #[arg(long, default_value_t = EvalMode::default())]
        eval: EvalMode,
    },
    /// Print the evaluation breakdown of a position; the last line is `E: N`.
    Eval {
        #[arg(long)]
        fen: Option<String>,
        /// material, center or full.
        #[arg(long, default_value_t = EvalMode::default())]
        mode: EvalMode,
        /// Piece values for material and center: seed, standard, fischer, kaufman,
        /// euwe-kramer, evans, staunton, bilguer, gik.
        #[arg(long, default_value_t = ValuePreset::default())]
        preset: ValuePreset,
    },
}

/// The seed's engine log line: depth/seldepth, time, nodes, nodes per second, E, PV.
fn log_line(info: &IterationInfo) -> String {
    let t = info.time.as_millis();
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{:>2}/{:<2} {:>3}:{:02}.{:03} {:>11} {:>9} n/s  E {:>7}  {}",
        info.depth,
        info.seldepth,
        t / 60_000,
        (t / 1000) % 60,
        t % 1000,
        info.nodes,
        info.nps,
        info.score_white.to_string(),
        pv.join(" ")
    )
}

fn board_from(fen: Option<&str>) -> Result<Board> {
    match fen {
        Some(f) => Board::from_fen(f).with_context(|| format!("bad --fen '{f}'")),
        None => Ok(Board::startpos()),
    }
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, fen, divide }) => {
            let mut board = board_from(fen.as_deref())?;
            let start = Instant::now();
            let nodes = if divide {
                let rows = perft::divide(&mut board, depth);
                for (m, n) in &rows {
                    println!("{m}: {n}");
                }
                rows.iter().map(|(_, n)| n).sum()
            } else {
                perft::perft(&mut board, depth)
            };
            let secs = start.elapsed().as_secs_f64();
            println!();
            println!("Nodes searched: {nodes}");
            println!("Time: {:.3} s", secs);
            println!("Speed: {:.1} Mnps", nodes as f64 / secs.max(1e-9) / 1e6);
        }
        Some(Command::Bench { depth, how }) => {
            bench::report(depth, how.order, how.profile, |line| println!("{line}"));
        }
        Some(Command::Search {
            fen,
            depth,
            how,
            eval,
        }) => {
            let board = board_from(fen.as_deref())?;
            let options = SearchOptions {
                scheme: how.order,
                profile: how.profile,
                eval: EvalConfig {
                    mode: eval,
                    ..EvalConfig::default()
                },
                own_book: false,
                ..SearchOptions::default()
            };
            let mut searcher = Searcher::standalone();
            let result = searcher.search_sync(&board, &Limits::depth(depth), &options, &mut |ev| {
                if let SearchEvent::Iteration { info, .. } = ev {
                    println!("{}", log_line(&info));
                }
            });
            println!(
                "bestmove {} first-move cutoff {:.1}%",
                result
                    .best
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| "0000".into()),
                result.stats.first_move_cutoff() * 100.0
            );
        }
        Some(Command::Eval { fen, mode, preset }) => {
            let board = board_from(fen.as_deref())?;
            let cfg = EvalConfig { mode, preset };
            println!("{}", ox88::engine::eval::explain(&board, &cfg));
        }
        Some(Command::Uci) => return ox88::uci::run(),
        None => {
            // GUIs start engines without arguments and speak first over a pipe.
            if !std::io::stdin().is_terminal() {
                return ox88::uci::run();
            }
            let p = cli.play;
            return tui::run(tui::Options {
                ascii: p.ascii,
                color: p.color,
                theme: p.theme,
                depth: p.depth,
                fen: p.fen,
                pgn: p.pgn,
                resume: p.resume,
                tc: p.tc,
                mode: p.mode,
                delay_ms: p.delay,
                eval: p.eval,
                order: p.order,
                book: p.book,
            });
        }
    }
    Ok(())
}
