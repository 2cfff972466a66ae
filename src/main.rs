//! ox88: play chess in the terminal (the TUI), or speak UCI to a GUI, or measure the engine.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use ox88::chess::{Board, perft};
use ox88::config::{Config, Overrides};
use ox88::engine::eval::{EvalConfig, EvalMode, ValuePreset};
use ox88::engine::levels::Level;
use ox88::engine::order::Scheme;
use ox88::engine::search::Profile;
use ox88::engine::search::Searcher;
use ox88::engine::{IterationInfo, Limits, SearchEvent, SearchOptions, bench};
use ox88::tui::{self, ColorMode, Mode};

mod tune_cli;

/// The version with the git commit when built from a checkout (see build.rs).
const VERSION: &str = env!("OX88_VERSION");

/// Where the settings file is, for `--help` and the man page.
const CONFIG_HELP: &str = "Settings are read from $XDG_CONFIG_HOME/ox88/config.toml \
(~/.config/ox88/config.toml by default); flags given on the command line override them. \
`ox88 config` shows the settings in effect.";

#[derive(Parser, Debug)]
#[command(
    name = "ox88",
    version = VERSION,
    about = "A chess program for the terminal that shows its thinking"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    play: PlayArgs,
}

/// Options of the TUI (`ox88` with no subcommand). Those that are `Option`s fall back to
/// the settings file when not given.
#[derive(clap::Args, Debug)]
struct PlayArgs {
    /// The settings file to read instead of the usual one.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Pieces as letters instead of chess glyphs (--ascii=false turns a saved setting off).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    ascii: Option<bool>,
    /// Colours: auto, truecolor, 256, 16 or none (NO_COLOR is respected under auto).
    #[arg(long, value_parser = parse_color)]
    color: Option<ColorMode>,
    /// Colour theme: default, light, high-contrast, mono, or one in ~/.config/ox88/themes/.
    #[arg(long)]
    theme: Option<String>,
    /// How strongly the engine plays: beginner, casual, club, expert, master, max, or an
    /// Elo from 800 to 2800.
    #[arg(long, value_parser = parse_level)]
    level: Option<Level>,
    /// The engine's search depth in plies (change it in the program with + and -).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
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
    /// Transposition table size in MB.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=ox88::config::HASH_MAX_MB as u64))]
    hash: Option<u64>,
    /// Search threads (Lazy SMP): 1 searches reproducibly; more search faster on more cores.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(ox88::engine::search::MAX_THREADS)))]
    threads: Option<u32>,
    /// Who plays: white, black, human, engine or analysis.
    #[arg(long, default_value = "white", value_parser = parse_mode)]
    mode: Mode,
    /// Pause between moves in engine-vs-engine mode, in milliseconds.
    #[arg(long, default_value_t = 500)]
    delay: u64,
    /// Evaluation: material, center, full or net.
    #[arg(long)]
    eval: Option<EvalMode>,
    /// Move ordering scheme: none, mvvlva, mvvlva100, seed, modern.
    #[arg(long)]
    order: Option<Scheme>,
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

/// How `search` and `tree` search and evaluate: a fresh engine, no book.
#[derive(clap::Args, Debug)]
struct SearchArgs {
    #[command(flatten)]
    how: HowArgs,
    /// Evaluation: material, center, full or net.
    #[arg(long, default_value_t = EvalMode::default())]
    eval: EvalMode,
}

impl SearchArgs {
    fn options(&self) -> SearchOptions {
        SearchOptions {
            scheme: self.how.order,
            profile: self.how.profile,
            eval: EvalConfig {
                mode: self.eval,
                ..EvalConfig::default()
            },
            own_book: false,
            ..SearchOptions::default()
        }
    }
}

/// The position `lab` and `tree` look at: `--fen` (or the start), then `--moves`.
#[derive(clap::Args, Debug)]
struct PositionArgs {
    /// The position (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves played from the position first (UCI or SAN), e.g. --moves e2e4 e7e5.
    #[arg(long, num_args = 1..)]
    moves: Vec<String>,
}

impl PositionArgs {
    /// The position after the moves, each checked.
    fn board(&self) -> Result<Board> {
        board_after(self.fen.as_deref(), &self.moves)
    }
}

fn parse_color(s: &str) -> Result<ColorMode, String> {
    tui::parse_choice(s, "colour mode")
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    tui::parse_choice(s, "mode")
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse()
        .map_err(|e: ox88::engine::levels::LevelError| e.to_string())
}

impl PlayArgs {
    /// The flags that were given, to lay over the settings file.
    fn overrides(&self) -> Overrides {
        Overrides {
            theme: self.theme.clone(),
            level: self.level,
            depth: self.depth,
            eval: self.eval,
            order: self.order,
            color: self.color,
            ascii: self.ascii,
            book: self.book.clone(),
            tc: self.tc.clone(),
            hash_mb: self.hash.map(|h| h as usize),
            threads: self.threads,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the TUI over SSH: players connect with `ssh -p 2222 HOST`, nothing installed.
    Serve(ox88::serve::ServeArgs),
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
        /// Search threads (Lazy SMP); above 1 the nodes vary from run to run, and the time
        /// is the time to `--depth`.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(ox88::engine::search::MAX_THREADS)))]
        threads: u32,
        /// Evaluation: material, center, full or net.
        #[arg(long, default_value_t = EvalMode::default())]
        eval: EvalMode,
        #[command(flatten)]
        how: HowArgs,
    },
    /// Search one position and print the seed's engine log line per iteration (depth, time,
    /// nodes, nodes per second, E, PV).
    Search {
        /// The position (default: the start position).
        #[arg(long)]
        fen: Option<String>,
        #[arg(long, default_value_t = 10)]
        depth: u32,
        #[command(flatten)]
        search: SearchArgs,
    },
    /// The ordering lab: one position searched to the same depth under each ordering scheme
    /// and search profile, each on a fresh engine (the numbers of `ox88 search`); a table of
    /// nodes, time, cutoff rates, branching factor, best move and score.
    Lab {
        #[command(flatten)]
        position: PositionArgs,
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
        /// Comma-separated: none, mvvlva, mvvlva100, seed, modern (default: all).
        #[arg(long)]
        schemes: Option<String>,
        /// Comma-separated: seed, full (default: both).
        #[arg(long)]
        profiles: Option<String>,
        /// A run stops after this many nodes and shows `> N`.
        #[arg(long, default_value_t = ox88::engine::jobs::lab::DEFAULT_MAX_NODES,
              value_parser = clap::value_parser!(u64).range(1..))]
        max_nodes: u64,
        /// One JSON array on standard output, one object per run.
        #[arg(long)]
        json: bool,
    },
    /// Search one position on a fresh engine and print the tree its last iteration searched,
    /// one node a line, indented (or one JSON object with --json). Scores are centipawns
    /// from the side to move at each node; mates are ±(100000 − plies). Every node made
    /// counts once: the root once per iteration, each move when made, a null move ("0000",
    /// a child of its own) when the side passes; so a node whose children are all recorded
    /// has nodes = 1 + the sum of its children's, and the root's nodes are the iteration's.
    /// A move searched again (reduced then full depth, zero window then full) is one node
    /// with several passes (window, reduction, score each); its children are listed per
    /// pass in the order searched, each with the pass it belongs to. cut_index is the child
    /// that reached beta in the last pass. A pruned move is a child with "skipped" and 0
    /// nodes.
    Tree {
        #[command(flatten)]
        position: PositionArgs,
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: u32,
        /// Record nodes up to this many plies from the root.
        #[arg(long, default_value_t = 3)]
        plies: usize,
        /// Keep the children only of nodes with at least this many nodes in their subtree.
        #[arg(long, default_value_t = 1)]
        min_nodes: u64,
        #[command(flatten)]
        search: SearchArgs,
        /// One JSON object on standard output.
        #[arg(long)]
        json: bool,
    },
    /// Print the evaluation breakdown of a position; the last line is `E: N`.
    Eval {
        #[arg(long)]
        fen: Option<String>,
        /// material, center, full or net.
        #[arg(long, default_value_t = EvalMode::default())]
        mode: EvalMode,
        /// Piece values for material and center: seed, standard, fischer, kaufman,
        /// euwe-kramer, evans, staunton, bilguer, gik.
        #[arg(long, default_value_t = ValuePreset::default())]
        preset: ValuePreset,
    },
    /// Review a game: every position searched with a fixed budget, each move judged by the
    /// winning chances it gave away; writes the annotated PGN (NAGs, [%eval], better
    /// lines, accuracy tags). Progress goes to standard error; Ctrl-C keeps what was done.
    Review {
        /// The PGN file.
        file: PathBuf,
        /// Which game of the file (1-based).
        #[arg(long, default_value_t = 1)]
        game: usize,
        /// Milliseconds per position (the default: 100).
        #[arg(long, conflicts_with = "depth")]
        movetime: Option<u64>,
        /// A fixed depth per position instead of a time (reproducible).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Write the annotated PGN here instead of standard output.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Self-play games for tuning data: quiet positions labelled with the game's result.
    Selfplay(tune_cli::SelfplayArgs),
    /// Fit the evaluation's weights to labelled positions (Texel); writes Rust source.
    Tune(tune_cli::TuneArgs),
    /// Train the network evaluation on positions scored by a stronger engine.
    NnTrain(tune_cli::NnTrainArgs),
    /// Print a shell completion script: `ox88 completions bash > ~/.local/share/bash-completion/completions/ox88`.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff): `ox88 man > ox88.1; man ./ox88.1`.
    Man,
    /// Show the settings in effect (file, then flags) and the file's problems, if any.
    Config,
}

/// The clap definition with the settings file's whereabouts in the help.
fn cli_command() -> clap::Command {
    Cli::command().after_help(CONFIG_HELP)
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

/// `ox88 lab`: the runs in the background, a progress line on standard error (Ctrl-C
/// stops and prints what finished), then the table or the JSON array.
fn lab(
    position: &PositionArgs,
    depth: u32,
    schemes: Option<&str>,
    profiles: Option<&str>,
    max_nodes: u64,
    json: bool,
) -> Result<()> {
    use ox88::engine::jobs::lab::{LabJob, LabSettings, parse_list};
    let board = position.board()?;
    let mut settings = LabSettings::new(depth);
    settings.max_nodes = max_nodes;
    if let Some(s) = schemes {
        settings.schemes =
            parse_list(s, "scheme", |t| t.parse::<Scheme>()).map_err(anyhow::Error::msg)?;
    }
    if let Some(p) = profiles {
        settings.profiles = parse_list(p, "profile", Profile::parse).map_err(anyhow::Error::msg)?;
    }
    let tty = std::io::stderr().is_terminal();
    let job = LabJob::start(board, settings, move |p| {
        if let Some(run) = &p.finished {
            let line = format!(
                "lab: {}/{} {} {} {} nodes",
                p.done, p.total, run.scheme, run.profile, run.nodes
            );
            if tty {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
        }
    })?;
    wait_cancelling_on_ctrl_c(|| job.is_finished(), || job.cancel())?;
    let outcome = job.wait();
    if tty {
        eprintln!();
    }
    if let Some(e) = &outcome.error {
        eprintln!("lab: {e}");
    }
    if json {
        println!("{}", outcome.to_json());
    } else {
        for line in outcome.table() {
            println!("{line}");
        }
    }
    if outcome.cancelled {
        eprintln!(
            "lab: stopped after {} of {} runs",
            outcome.runs.len(),
            outcome.total
        );
        std::process::exit(130);
    }
    Ok(())
}

/// `ox88 review`: runs the review job on a game of a PGN file and writes the annotated
/// game; a progress line on standard error, and a summary per side at the end.
fn review(
    file: &std::path::Path,
    number: usize,
    movetime: Option<u64>,
    depth: Option<u32>,
    out: Option<&std::path::Path>,
) -> Result<()> {
    use ox88::engine::jobs::{CancelHandle, ReviewJob, ReviewSettings};
    use ox88::game::Game;
    use ox88::game::annotate::{Review, review_positions};
    use std::io::Write;

    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let game = Game::from_pgn_nth(&text, number)
        .with_context(|| format!("{}: cannot read game {number}", file.display()))?;
    let (settings, budget) = match depth {
        Some(d) => (ReviewSettings::depth(d), format!("depth {d}")),
        None => {
            let ms = movetime.unwrap_or(100).max(1);
            let per = std::time::Duration::from_millis(ms);
            (ReviewSettings::movetime(per), format!("movetime {ms} ms"))
        }
    };
    let tty = std::io::stderr().is_terminal();
    let job = ReviewJob::start(review_positions(&game), settings, move |p| {
        let line = format!("review: {p}");
        if tty {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    })
    .context("cannot start the review")?;
    // Ctrl-C stops the review after the current position and keeps what was done; a
    // second Ctrl-C ends the program at once.
    let cancel: CancelHandle = job.cancel_handle();
    let interrupted = wait_cancelling_on_ctrl_c(|| job.is_finished(), || cancel.cancel())?;
    let outcome = job.wait();
    if tty {
        eprintln!();
    }
    if let Some(e) = &outcome.error {
        eprintln!("review: {e}");
    }
    let review = Review::from_analysis(&game, &outcome.positions);
    if !review.is_complete() {
        eprintln!(
            "review: stopped after {} of {} moves; writing what was reviewed",
            review.moves.len(),
            review.game_moves
        );
    }
    for side in [ox88::chess::Color::White, ox88::chess::Color::Black] {
        eprintln!("{:<5}  {}", side.name(), review.side(side));
    }
    eprintln!("review: {:.1} s", outcome.elapsed.as_secs_f64());
    let annotator = format!("ox88 {} ({budget})", env!("CARGO_PKG_VERSION"));
    let pgn = review.annotate(&game, &annotator).to_pgn();
    match out {
        Some(path) => {
            std::fs::write(path, pgn).with_context(|| format!("cannot write {}", path.display()))?
        }
        None => std::io::stdout().write_all(pgn.as_bytes())?,
    }
    if interrupted {
        // Interrupted: what was reviewed is written, but the exit status says it is partial.
        std::process::exit(130);
    }
    Ok(())
}

/// `ox88 tree`: the last iteration's tree of a fresh search.
fn tree(
    position: &PositionArgs,
    depth: u32,
    plies: usize,
    min_nodes: u64,
    search: &SearchArgs,
    json: bool,
) -> Result<()> {
    use ox88::engine::search::record::{TreeLimits, tree_json, tree_text};
    use std::io::Write;
    let board = position.board()?;
    let options = search.options();
    let limits = TreeLimits {
        plies,
        min_nodes,
        ..TreeLimits::default()
    };
    let mut searcher = Searcher::standalone();
    let (_, tree) =
        searcher.search_tree(&board, &Limits::depth(depth), &options, limits, &mut |_| {});
    let tree = tree.context("no iteration completed (no legal move?)")?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if json {
        writeln!(out, "{}", tree_json(&tree))
    } else {
        tree_text(&tree, &mut out)
    }
    .and_then(|_| out.flush());
    match written {
        // A reader that stops early (`| head`) is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

fn main() -> Result<()> {
    let shown_path = Config::default_path()
        .map(|p| format!("Settings file: {}", p.display()))
        .unwrap_or_else(|| "Settings file: none (no config directory)".into());
    let matches = cli_command()
        .after_help(format!("{CONFIG_HELP}\n{shown_path}"))
        .get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let config = match cli.play.config.as_deref() {
        Some(path) => Config::load(path),
        None => Config::default_path()
            .map(|p| Config::load(&p))
            .unwrap_or_default(),
    };
    match cli.command {
        Some(Command::Completions { shell }) => {
            clap_complete::generate(shell, &mut cli_command(), "ox88", &mut std::io::stdout());
        }
        Some(Command::Man) => {
            clap_mangen::Man::new(cli_command()).render(&mut std::io::stdout())?;
        }
        Some(Command::Config) => {
            let path = config
                .path()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "(none)".into());
            println!("# {path}");
            let settings = config.settings().with_overrides(&cli.play.overrides());
            for key in &ox88::config::KEYS[..ox88::config::KEYS.len() - 1] {
                println!("{key} = {}", settings.get(key)?);
            }
            for (action, _) in &settings.keys {
                let name = ox88::config::action_name(*action);
                println!("keys.{name} = {}", settings.get(&format!("keys.{name}"))?);
            }
            for p in config.problems() {
                eprintln!("{p}");
            }
        }
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
        Some(Command::Bench {
            depth,
            threads,
            eval,
            how,
        }) => {
            bench::report_threads(depth, how.order, how.profile, threads, eval, |line| {
                println!("{line}")
            });
        }
        Some(Command::Search { fen, depth, search }) => {
            let board = board_from(fen.as_deref())?;
            let options = search.options();
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
        Some(Command::Lab {
            position,
            depth,
            schemes,
            profiles,
            max_nodes,
            json,
        }) => {
            return lab(
                &position,
                depth,
                schemes.as_deref(),
                profiles.as_deref(),
                max_nodes,
                json,
            );
        }
        Some(Command::Tree {
            position,
            depth,
            plies,
            min_nodes,
            search,
            json,
        }) => {
            return tree(&position, depth, plies, min_nodes, &search, json);
        }
        Some(Command::Eval { fen, mode, preset }) => {
            let board = board_from(fen.as_deref())?;
            let cfg = EvalConfig { mode, preset };
            println!("{}", ox88::engine::eval::explain(&board, &cfg));
        }
        Some(Command::Review {
            file,
            game,
            movetime,
            depth,
            out,
        }) => return review(&file, game, movetime, depth, out.as_deref()),
        Some(Command::Uci) => return ox88::uci::run(),
        Some(Command::Selfplay(args)) => return tune_cli::selfplay(args),
        Some(Command::Tune(args)) => return tune_cli::tune(args),
        Some(Command::NnTrain(args)) => return tune_cli::nn_train(args),
        Some(Command::Serve(args)) => return ox88::serve::run(args),
        None => {
            // GUIs start engines without arguments and speak first over a pipe.
            if !std::io::stdin().is_terminal() {
                return ox88::uci::run();
            }
            // The TUI takes the screen: problems with the settings file stay readable
            // above it once the program ends.
            for p in config.problems() {
                eprintln!("ox88: {p}");
            }
            let s = config.settings().with_overrides(&cli.play.overrides());
            let p = cli.play;
            let keys = s.key_table(tui::keys::DEFAULT_KEYS);
            return tui::run(tui::Options {
                ascii: s.ascii,
                color: s.color,
                theme: s.theme,
                depth: s.depth,
                fen: p.fen,
                pgn: p.pgn,
                resume: p.resume,
                tc: s.tc.clone(),
                mode: p.mode,
                delay_ms: p.delay,
                eval: s.eval,
                order: s.order,
                book: s.book.clone(),
                level: s.level,
                hash_mb: s.hash_mb,
                threads: s.threads,
                keys,
                config_path: config.path().map(std::path::Path::to_path_buf),
            });
        }
    }
    Ok(())
}

/// Waits for a background job; the first Ctrl-C asks it to stop (it keeps what it has done),
/// a second one ends the program at once with status 130. Says whether Ctrl-C was pressed.
fn wait_cancelling_on_ctrl_c(finished: impl Fn() -> bool, cancel: impl Fn()) -> Result<bool> {
    use signal_hook::consts::SIGINT;
    let interrupted = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, interrupted.clone())?;
    signal_hook::flag::register(SIGINT, interrupted.clone())?;
    while !finished() {
        if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
            cancel();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Ok(interrupted.load(std::sync::atomic::Ordering::Relaxed))
}

/// The position `fen` (or the start) after `--moves` (coordinates or SAN), each checked.
fn board_after(fen: Option<&str>, moves: &[String]) -> Result<Board> {
    let mut board = board_from(fen)?;
    for text in moves {
        let mv = board
            .parse_move(text)
            .map_err(|e| anyhow::anyhow!("bad move '{text}' in --moves: {e}"))?;
        board
            .play(mv)
            .map_err(|e| anyhow::anyhow!("bad move '{text}' in --moves: {e}"))?;
    }
    Ok(board)
}
