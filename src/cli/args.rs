//! The command line as clap sees it: `Cli` (the TUI's flags at the top level), the
//! `Command` enum of subcommands and each subcommand's arguments. Everything `--help`,
//! `ox88 man` and `ox88 completions` print comes from here.

use std::path::PathBuf;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use ox88::chess::Board;
use ox88::engine::SearchOptions;
use ox88::engine::eval::{EvalConfig, EvalMode, ValuePreset};
use ox88::engine::levels::Level;
use ox88::engine::order::Scheme;
use ox88::engine::search::Profile;
use ox88::tui::settings::{Config, DEPTH_RANGE, Setting};
use ox88::tui::{self, ColorMode, Mode};
use ox88::tune::fit::Settings;
use ox88::tune::nn;

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
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The clap definition with the settings file's whereabouts in the help.
pub fn command() -> clap::Command {
    Cli::command().after_help(CONFIG_HELP)
}

/// The command line of this process; `--help` also names the settings file in use. Bad
/// arguments, `--help` and `--version` end the process here, as clap does.
pub fn parse() -> Cli {
    let shown_path = Config::default_path()
        .map(|p| format!("Settings file: {}", p.display()))
        .unwrap_or_else(|| "Settings file: none (no config directory)".into());
    let matches = command()
        .after_help(format!("{CONFIG_HELP}\n{shown_path}"))
        .get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Options of the TUI (`ox88` with no subcommand). Those that are `Option`s fall back to
/// the settings file when not given.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The settings file to read instead of the usual one.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Pieces as letters instead of chess glyphs (--ascii=false turns a saved setting off).
    #[arg(long, num_args = 0..=1, require_equals = true, default_missing_value = "true", value_name = "BOOL")]
    pub ascii: Option<bool>,
    /// Colours: auto, truecolor, 256, 16 or none (NO_COLOR is respected under auto).
    #[arg(long, value_parser = Choice::<ColorMode>::new("colour mode"))]
    pub color: Option<ColorMode>,
    /// Colour theme: default, light, high-contrast, mono, or one in ~/.config/ox88/themes/.
    #[arg(long)]
    pub theme: Option<String>,
    /// How strongly the engine plays: beginner, casual, club, expert, master, max, or an
    /// Elo from 800 to 2800.
    #[arg(long, value_parser = parse_level)]
    pub level: Option<Level>,
    /// The engine's search depth in plies (change it in the program with + and -).
    #[arg(long, value_parser = clap::value_parser!(u32).range(i64::from(*DEPTH_RANGE.start())..=i64::from(*DEPTH_RANGE.end())))]
    pub depth: Option<u32>,
    /// Start from this position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Start from the main line of this PGN game.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Resume the unfinished game saved at the last exit without asking.
    #[arg(long)]
    pub resume: bool,
    /// Time control in minutes+increment seconds, e.g. 5+3 or 40/90+30.
    #[arg(long)]
    pub tc: Option<String>,
    /// Transposition table size in MB.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=ox88::tui::settings::HASH_MAX_MB as u64))]
    pub hash: Option<u64>,
    /// Search threads (Lazy SMP): 1 searches reproducibly; more search faster on more cores.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=i64::from(ox88::engine::search::MAX_THREADS)))]
    pub threads: Option<u32>,
    /// Who plays: white, black, human, engine or analysis (default: white).
    #[arg(long, value_parser = Choice::<Mode>::new("mode"))]
    pub mode: Option<Mode>,
    /// Pause between moves in engine-vs-engine mode, in milliseconds (default: 500).
    #[arg(long)]
    pub delay: Option<u64>,
    /// Evaluation: material, center, full or net.
    #[arg(long)]
    pub eval: Option<EvalMode>,
    /// Move ordering scheme: none, mvvlva, mvvlva100, seed, modern.
    #[arg(long)]
    pub order: Option<Scheme>,
    /// A Polyglot .bin opening book, consulted before the built-in lines. The book plays
    /// the engine's first moves in games, varied by weight (`ownbook = false` in the
    /// settings turns it off).
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// A directory of Syzygy endgame tables (`scripts/get-syzygy.sh` fetches the 3- and
    /// 4-man set): the engine's searches use them, and the eval pane and status line show
    /// their verdict ("tablebase: White wins, DTZ 23") when the position is covered.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<PathBuf>,
    /// Puzzles to serve with :puzzle (a CSV with the lichess puzzle database's columns)
    /// instead of the set built into ox88.
    #[arg(long, value_name = "FILE.csv")]
    pub puzzles: Option<PathBuf>,
}

impl PlayArgs {
    /// The settings file: `--config`, else the usual one (the defaults when there is no
    /// config directory). Reading it never fails; its problems are kept in the `Config`.
    pub fn load_config(&self) -> Config {
        match self.config.as_deref() {
            Some(path) => Config::load(path),
            None => Config::default_path()
                .map(|p| Config::load(&p))
                .unwrap_or_default(),
        }
    }

    /// The settings flags that were given, as text for the settings' own checks.
    pub fn flags(&self) -> Vec<(Setting, String)> {
        let given = [
            (Setting::Theme, self.theme.clone()),
            (Setting::Level, self.level.map(|l| l.to_string())),
            (Setting::Depth, self.depth.map(|d| d.to_string())),
            (Setting::Eval, self.eval.map(|e| e.to_string())),
            (Setting::Order, self.order.map(|o| o.to_string())),
            (Setting::Color, self.color.map(|c| c.to_string())),
            (Setting::Ascii, self.ascii.map(|a| a.to_string())),
            (
                Setting::Book,
                self.book.as_ref().map(|b| b.display().to_string()),
            ),
            (Setting::Tc, self.tc.clone()),
            (Setting::Hash, self.hash.map(|h| h.to_string())),
            (Setting::Threads, self.threads.map(|t| t.to_string())),
            (
                Setting::Syzygy,
                self.syzygy.as_ref().map(|d| d.display().to_string()),
            ),
        ];
        given
            .into_iter()
            .filter_map(|(setting, text)| text.map(|t| (setting, t)))
            .collect()
    }

    /// The flags that only the TUI takes, by name, when any was given.
    pub fn tui_flags(&self) -> Vec<&'static str> {
        let mut given: Vec<&'static str> = self
            .flags()
            .iter()
            .map(|(setting, _)| setting.flag())
            .collect();
        for (name, on) in [
            ("--fen", self.fen.is_some()),
            ("--pgn", self.pgn.is_some()),
            ("--resume", self.resume),
            ("--mode", self.mode.is_some()),
            ("--delay", self.delay.is_some()),
            ("--config", self.config.is_some()),
            ("--puzzles", self.puzzles.is_some()),
        ] {
            if on {
                given.push(name);
            }
        }
        given
    }

    /// The settings in effect: the file's with the flags over them.
    pub fn settings(&self, config: &Config) -> anyhow::Result<ox88::tui::settings::Settings> {
        Ok(config.settings().with_flags(&self.flags())?)
    }
}

/// A flag that takes one of an enum's names: parsed as the program parses them everywhere
/// (any case, the short aliases), and its names offered to shell completion and the help.
#[derive(Clone)]
struct Choice<T> {
    what: &'static str,
    kind: std::marker::PhantomData<T>,
}

impl<T> Choice<T> {
    fn new(what: &'static str) -> Choice<T> {
        Choice {
            what,
            kind: std::marker::PhantomData,
        }
    }
}

impl<T> clap::builder::TypedValueParser for Choice<T>
where
    &'static str: From<T>,
    T: std::str::FromStr
        + strum::VariantArray
        + std::fmt::Display
        + Copy
        + Clone
        + Send
        + Sync
        + 'static,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        tui::parse_choice(&text, self.what).map_err(|e| {
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("{e}\n")).with_cmd(cmd)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(T::VARIANTS.iter().map(|v| {
            clap::builder::PossibleValue::new(<&'static str>::from(*v))
        })))
    }
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse()
        .map_err(|e: ox88::engine::levels::LevelError| e.to_string())
}

/// How the engine searches, for `bench` and `search`.
#[derive(clap::Args, Debug)]
pub struct HowArgs {
    /// Move ordering scheme: none, mvvlva, mvvlva100, seed, modern.
    #[arg(long, default_value_t = Scheme::default())]
    pub order: Scheme,
    /// Search profile: seed or full.
    #[arg(long, default_value_t = Profile::default(), value_parser = Profile::parse)]
    pub profile: Profile,
}

/// How `search` and `tree` search and evaluate: a fresh engine, no book.
#[derive(clap::Args, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    pub how: HowArgs,
    /// Evaluation: material, center, full or net.
    #[arg(long, default_value_t = EvalMode::default())]
    pub eval: EvalMode,
}

impl EngineArgs {
    pub fn options(&self) -> SearchOptions {
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
pub struct PositionArgs {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from the position first (UCI or SAN), e.g. --moves e2e4 e7e5.
    #[arg(long, num_args = 1..)]
    pub moves: Vec<String>,
}

impl PositionArgs {
    /// The position after the moves, each checked.
    pub fn board(&self) -> Result<Board> {
        super::board_after(self.fen.as_deref(), &self.moves)
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Serve the TUI over SSH: players connect with `ssh -p 2222 HOST`, nothing installed.
    Serve(ox88::serve::ServeArgs),
    /// The club's database, for its operator: `ox88 club games NAME [--pgn]`.
    Club(super::club::ClubArgs),
    /// Speak the UCI protocol on standard input and output (for chess GUIs).
    Uci,
    /// Count leaf nodes of the legal move tree (move generator exactness and speed).
    Perft(PerftArgs),
    /// Search a fixed list of positions to a fixed depth; prints nodes and speed.
    Bench(BenchArgs),
    /// Search one position and print the seed's engine log line per iteration (depth, time,
    /// nodes, nodes per second, E, PV).
    Search(SearchArgs),
    /// The ordering lab: one position searched to the same depth under each ordering scheme
    /// and search profile, each on a fresh engine (the numbers of `ox88 search`); a table of
    /// nodes, time, cutoff rates, branching factor, best move and score.
    Lab(LabArgs),
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
    Tree(TreeArgs),
    /// Print the evaluation breakdown of a position; the last line is `E: N` (`E: mate` when
    /// the side to move is checkmated, `E: 0` after `stalemate`).
    Eval(EvalArgs),
    /// Review a game: every position searched with a fixed budget, each move judged by the
    /// winning chances it gave away (a move about to be marked searched again, deeper, beside
    /// the best other move); writes the annotated PGN (NAGs, [%eval], better lines, accuracy
    /// tags). Progress goes to standard error; Ctrl-C keeps what was done.
    Review(ReviewArgs),
    /// Self-play games for tuning data: quiet positions labelled with the game's result.
    Selfplay(SelfplayArgs),
    /// Puzzles: mine them from games, print the shipped set, check a puzzle file. Files use
    /// the lichess puzzle database's CSV columns.
    Puzzles(PuzzlesArgs),
    /// Fit the evaluation's weights to labelled positions (Texel); writes Rust source.
    Tune(TuneArgs),
    /// Train the network evaluation on positions scored by a stronger engine.
    NnTrain(NnTrainArgs),
    /// Look a position up in Syzygy endgame tablebases: prints `wdl W dtz D` for the side
    /// to move (W: 2 win, 1 cursed win, 0 draw, -1 blessed loss, -2 loss, as if the
    /// fifty-move counter were zero; D: plies to the next capture or pawn move of the best
    /// line, above 100 in size when the fifty-move rule turns the result). With --moves,
    /// one line per legal move, best first: UCI, SAN, and the mover's `wdl` and `dtz` if it
    /// is played (dtz 1 for a mate).
    Tb(TbArgs),
    /// Print a shell completion script: `ox88 completions bash > ~/.local/share/bash-completion/completions/ox88`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff): `ox88 man > ox88.1; man ./ox88.1`.
    Man,
    /// Show the settings in effect (file, then flags) and the file's problems, if any.
    Config(ConfigArgs),
    /// Plumbing for checking the Swiss pairing (scripts/swiss_oracle.py): read a FIDE TRF-16
    /// file and print the next round's pairing by the FIDE Dutch system, one board a line
    /// (`WHITE BLACK` pairing numbers, in table order) then `bye N` if there is one.
    #[command(hide = true)]
    SwissPair(SwissPairArgs),
}

/// `ox88 swiss-pair`: the TRF file to read (`-` for standard input).
#[derive(clap::Args, Debug)]
pub struct SwissPairArgs {
    pub trf: String,
}

/// `ox88 config`: which settings file to show (the flags of the TUI go before `config`).
#[derive(clap::Args, Debug)]
pub struct ConfigArgs {
    /// The settings file to read instead of the usual one (as `ox88 --config FILE config`).
    #[arg(long = "config", value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// `ox88 tb`: the tables, the position, and whether to list the moves.
#[derive(clap::Args, Debug)]
pub struct TbArgs {
    /// The directory of Syzygy files (`KQvKR.rtbw`, `KQvKR.rtbz`, ...); several separated by
    /// `:`. `scripts/get-syzygy.sh` fetches the 3- and 4-man set.
    #[arg(long, value_name = "DIR")]
    pub syzygy: String,
    /// The position.
    #[arg(long)]
    pub fen: String,
    /// Also each legal move's result, best first.
    #[arg(long)]
    pub moves: bool,
}

/// `ox88 perft`: the depth, the position and whether to divide by root move.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    pub depth: u32,
    /// Position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// One line per root move, as `go perft` prints.
    #[arg(long)]
    pub divide: bool,
}

/// `ox88 bench`: the depth, threads, evaluation and how the engine searches.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Search threads (Lazy SMP); above 1 the nodes vary from run to run, and the time
    /// is the time to `--depth`.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=i64::from(ox88::engine::search::MAX_THREADS)))]
    pub threads: u32,
    /// Evaluation: material, center, full or net.
    #[arg(long, default_value_t = EvalMode::default())]
    pub eval: EvalMode,
    #[command(flatten)]
    pub how: HowArgs,
}

/// `ox88 search`: the position, the depth and the engine searching it.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// The position (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// `ox88 lab`: the position, the depth, which schemes and profiles, and the output.
#[derive(clap::Args, Debug)]
pub struct LabArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[arg(long, value_parser = clap::value_parser!(u32).range(i64::from(*DEPTH_RANGE.start())..=i64::from(*DEPTH_RANGE.end())))]
    pub depth: u32,
    /// Comma-separated: none, mvvlva, mvvlva100, seed, modern (default: all).
    #[arg(long)]
    pub schemes: Option<String>,
    /// Comma-separated: seed, full (default: both).
    #[arg(long)]
    pub profiles: Option<String>,
    /// A run stops after this many nodes and shows `> N`.
    #[arg(long, default_value_t = ox88::engine::jobs::lab::DEFAULT_MAX_NODES,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// One JSON array on standard output, one object per run.
    #[arg(long)]
    pub json: bool,
}

/// `ox88 tree`: the position, the depth, how much of the tree to keep, and the output.
#[derive(clap::Args, Debug)]
pub struct TreeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    #[arg(long, value_parser = clap::value_parser!(u32).range(i64::from(*DEPTH_RANGE.start())..=i64::from(*DEPTH_RANGE.end())))]
    pub depth: u32,
    /// Record nodes up to this many plies from the root.
    #[arg(long, default_value_t = 3)]
    pub plies: usize,
    /// Keep the children only of nodes with at least this many nodes in their subtree.
    #[arg(long, default_value_t = 1)]
    pub min_nodes: u64,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// One JSON object on standard output.
    #[arg(long)]
    pub json: bool,
}

/// `ox88 eval`: the position, the evaluation and its piece values.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    #[arg(long)]
    pub fen: Option<String>,
    /// material, center, full or net.
    #[arg(long, default_value_t = EvalMode::default())]
    pub mode: EvalMode,
    /// Piece values for material and center: seed, standard, fischer, kaufman,
    /// euwe-kramer, evans, staunton, bilguer, gik.
    #[arg(long, default_value_t = ValuePreset::default())]
    pub preset: ValuePreset,
}

/// `ox88 puzzles`: what to do with puzzles.
#[derive(clap::Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    pub command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Find puzzles in the games of PGN files: positions where, after the opponent's move,
    /// exactly one move wins (a mate, or at least +2.00 while every other move stays at
    /// +0.50 or below), the solution going on while the answer stays the only winning one.
    /// Each is verified on a fresh engine with --verify-factor times the nodes; those not
    /// unique there are dropped. Writes CSV (lichess's columns) as they are found; progress
    /// and a summary go to standard error.
    Mine(PuzzlesMineArgs),
    /// Play ox88 against itself at levels below full strength from the balanced openings,
    /// appending the games as PGN: the games `mine` makes the shipped set from.
    Games(PuzzlesGamesArgs),
    /// Print the puzzle set built into ox88 as CSV on standard output.
    Export,
    /// Check a puzzle file (default: the shipped set): every row parses and its moves are
    /// legal; with --verify NODES, a sample is searched again on a fresh engine and every
    /// answer must still be unique: the best move, with no other within 1.50 pawns (with
    /// --strict, the only winning move by the miner's test).
    Check(PuzzlesCheckArgs),
    /// Rate every puzzle of a file (default: the shipped set) again, as the miner rates
    /// them: ox88's levels try each solution, and what they measure is calibrated to lichess
    /// players' ratings. Writes the file, with the new ratings, as CSV.
    Rate(PuzzlesRateArgs),
}

#[derive(clap::Args, Debug)]
pub struct PuzzlesRateArgs {
    /// The puzzle file (default: the shipped set).
    pub file: Option<PathBuf>,
    /// Rate on this many threads, each with its own engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// Write the ladder alone as the rating: the Elo at which ox88's levels play the whole
    /// solution half the time, before the calibration (what scripts/puzzle_calibrate.py
    /// fits the calibration from).
    #[arg(long)]
    pub ladder: bool,
    /// Write the CSV here instead of standard output.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct PuzzlesMineArgs {
    /// PGN files with the games to mine.
    #[arg(required = true, value_name = "GAMES.pgn")]
    pub files: Vec<PathBuf>,
    /// Nodes for each search that looks for a solution.
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1_000..))]
    pub nodes: u64,
    /// The verifying search gets this many times --nodes.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub verify_factor: u64,
    /// The most moves a solver plays in one puzzle.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u64).range(1..=20))]
    pub max_moves: u64,
    /// Keep only puzzles with at least this many of the solver's moves (shorter ones are
    /// dropped before the costly verification and rating).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=20))]
    pub min_moves: u64,
    /// Nodes for the first look at every position, which finds the swings worth a
    /// multi-PV search (default: a quarter of --nodes).
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(100..))]
    pub look: Option<u64>,
    /// Write the CSV here instead of standard output.
    #[arg(long, value_name = "FILE.csv")]
    pub out: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct PuzzlesGamesArgs {
    /// The PGN file the games are appended to.
    #[arg(long, value_name = "FILE.pgn")]
    pub out: PathBuf,
    /// How many games.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// The first game's number: game N starts from opening N (modulo their count) and its
    /// levels and choices follow from N and --seed, so a run can go on in pieces.
    #[arg(long, default_value_t = 0)]
    pub first: u64,
    /// The strengths (Elo) paired at random.
    #[arg(long, num_args = 1.., value_delimiter = ',', default_values_t = [800, 1000, 1200, 1500, 1800, 2100])]
    pub elos: Vec<u32>,
    /// A game still going after this many plies is cut off.
    #[arg(long, default_value_t = 200)]
    pub max_plies: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at once, each on its own thread.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// The openings: a PGN file whose games' moves each game starts after.
    #[arg(
        long,
        value_name = "FILE.pgn",
        default_value = "tests/data/openings500.pgn"
    )]
    pub openings: PathBuf,
}

#[derive(clap::Args, Debug)]
pub struct PuzzlesCheckArgs {
    /// The puzzle file (default: the shipped set).
    pub file: Option<PathBuf>,
    /// Search each sampled puzzle again with this many nodes per position.
    #[arg(long, value_name = "NODES")]
    pub verify: Option<u64>,
    /// How many puzzles to verify (0: all).
    #[arg(long, default_value_t = 200)]
    pub sample: usize,
    /// The seed that picks the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hold each verified puzzle to the miner's own test (the solution the only winning
    /// move, every other move at +0.50 or below) instead of uniqueness alone (no other move
    /// within 1.50 pawns of the solution).
    #[arg(long, requires = "verify")]
    pub strict: bool,
    /// Verify on this many threads, each with its own engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub jobs: u64,
    /// With --verify, write the verified puzzles that stayed unique to this CSV (in the
    /// file's order), and succeed however many were dropped: how the shipped set is held
    /// to a deeper search than the miner's.
    #[arg(long, value_name = "FILE.csv", requires = "verify")]
    pub keep: Option<PathBuf>,
}

/// `ox88 review`: the game, the budget per position and where the annotated PGN goes.
#[derive(clap::Args, Debug)]
pub struct ReviewArgs {
    /// The PGN file.
    pub file: PathBuf,
    /// Which game of the file (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// The quick review (the default): 40000 nodes a position, a 40-move game in about 5 s
    /// of CPU. What it trades away, against Stockfish 15.1 at depth 16 on the games of
    /// docs/strength.md: it finds fewer of Stockfish's mistakes and blunders (63% of them
    /// in games of weaker play, where --deep finds 79%), and gives no ! for the only move.
    #[arg(long, conflicts_with_all = ["deep", "nodes", "depth", "movetime", "game_time"])]
    pub quick: bool,
    /// The deep review: 250000 nodes a position, a second look from the same position at
    /// the near misses as well as the marks, and the only moves (!) found; a 40-move game in
    /// about 45 s of CPU on one core. On the same games 85% of its marks are moves
    /// Stockfish marks too (quick: 82%).
    #[arg(long, conflicts_with_all = ["nodes", "depth", "movetime", "game_time"])]
    pub deep: bool,
    /// Seconds for the whole game, spread over its positions (the second looks included);
    /// not reproducible: a busy machine searches less in the same time.
    #[arg(long, value_name = "SECS", conflicts_with_all = ["nodes", "depth", "movetime"], value_parser = clap::value_parser!(u64).range(1..))]
    pub game_time: Option<u64>,
    /// Nodes searched per position (reproducible, and the same review on a busy machine as
    /// on an idle one).
    #[arg(long, conflicts_with_all = ["depth", "movetime"], value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Milliseconds per position instead of nodes.
    #[arg(long, conflicts_with = "depth")]
    pub movetime: Option<u64>,
    /// A fixed depth per position instead of nodes (reproducible).
    #[arg(long, value_parser = clap::value_parser!(u32).range(i64::from(*DEPTH_RANGE.start())..=i64::from(*DEPTH_RANGE.end())))]
    pub depth: Option<u32>,
    /// Write the annotated PGN here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Every move as a table on standard output instead of the PGN: its evaluation, the
    /// winning chances it gave away, its mark and the better move (the PGN still goes to
    /// --out when given).
    #[arg(long)]
    pub table: bool,
    /// A directory of Syzygy endgame tables: moves in positions they cover are judged by
    /// them (a win thrown into a draw or loss, or a draw into a loss, is a blunder,
    /// whatever the search says), and the searches probe them.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<PathBuf>,
}

/// `ox88 completions`: the shell.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Self-play games for tuning data: quiet positions labelled with the game's result.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Where to write the positions (appends; one `FEN [result]` a line).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes per move (each move draws from N to 2N-1).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The first game's number (to continue a run in pieces: games are numbered and
    /// seeded by this index).
    #[arg(long, default_value_t = 0)]
    pub first: usize,
    /// Start positions (EPD).
    #[arg(long, default_value = "tests/data/openings500.epd")]
    pub openings: PathBuf,
}

/// Fit the `full` evaluation's weights to labelled positions (the Texel method).
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Labelled positions (`FEN [result]` a line, as `ox88 selfplay` writes; or an expected
    /// score from 0 to 1, `FEN [0.73]`, as `scripts/sf_labels.py mix` writes).
    pub data: PathBuf,
    /// Adam steps over the whole data set.
    #[arg(long, default_value_t = Settings::default().iterations)]
    pub iterations: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = Settings::default().rate)]
    pub rate: f64,
    /// Pull towards the starting weights (lambda · Σ (w − w₀)², w in centipawns).
    #[arg(long, default_value_t = Settings::default().lambda)]
    pub lambda: f64,
    /// Weight groups to leave as they are, by name in weights.rs (MATERIAL,PST_KING,...;
    /// the king-danger groups too, e.g. KING_ATTACKERS_PERCENT).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
    /// Hold out this share of the positions (the file's tail: other games) and report the
    /// error on them before and after.
    #[arg(long, default_value_t = 0.0)]
    pub hold_out: f64,
    /// Report the error before and after on the positions of this file instead (other
    /// games that the fit never sees, e.g. a later self-play run); excludes --hold-out.
    #[arg(long, conflicts_with = "hold_out")]
    pub validate: Option<PathBuf>,
    /// Write the fitted weights here as Rust source (src/engine/eval/weights.rs to adopt
    /// them); without it, only the errors are printed.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Train the network evaluation on positions scored by a stronger engine.
#[derive(clap::Args, Debug)]
pub struct NnTrainArgs {
    /// Scored positions, `FEN;cp` a line (the score from the side to move's view), as
    /// `scripts/nn_data.py` writes them.
    pub data: PathBuf,
    /// Report the error on these positions after every epoch (other games).
    #[arg(long)]
    pub validate: Option<PathBuf>,
    /// Hidden units per side (128 if not given). With `--init`, more than the starting
    /// network has widens it: its units are kept and the new ones start with no say.
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Output buckets, by the number of pieces on the board (1 if not given). With `--init`
    /// from a network of one output, each bucket starts as a copy of it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub buckets: Option<u32>,
    /// Input buckets by where each side's own king stands (1, 2, 4 or 8), with the board
    /// seen mirrored by a king on the e- to h-files: the pieces' inputs differ with the
    /// king's place. Not with `--init` (the starting network's are kept).
    #[arg(long, default_value_t = 1, value_parser = king_buckets, conflicts_with = "init")]
    pub king_buckets: usize,
    /// The hidden units' activation: clamp(x, 0, 1), or its square.
    #[arg(long, value_enum, default_value_t = Act::Crelu)]
    pub activation: Act,
    #[arg(long, default_value_t = nn::TrainSettings::default().epochs)]
    pub epochs: usize,
    #[arg(long, default_value_t = nn::TrainSettings::default().batch)]
    pub batch: usize,
    /// Adam's step size (a tenth of it for the last 30% of the epochs).
    #[arg(long, default_value_t = nn::TrainSettings::default().lr)]
    pub lr: f32,
    #[arg(long, default_value_t = nn::TrainSettings::default().seed)]
    pub seed: u64,
    /// Threads to split each batch over (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Also report how well the `full` evaluation predicts the validation scores.
    #[arg(long)]
    pub compare_full: bool,
    /// Learn what the `full` evaluation, times this factor, misses (the network's output
    /// is added to it) instead of the whole score.
    #[arg(long)]
    pub residual: Option<f32>,
    /// Start from this network file's weights instead of random ones (its activation, and
    /// its hidden units unless `--hidden` asks for more): a network trained on earlier data
    /// learns from new positions without those data being kept.
    #[arg(long, conflicts_with_all = ["activation", "residual"])]
    pub init: Option<PathBuf>,
    /// Where to write the integer network (after every epoch).
    #[arg(long)]
    pub out: PathBuf,
}

fn king_buckets(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ (1 | 2 | 4 | 8)) => Ok(n),
        _ => Err(format!("`{s}` is not 1, 2, 4 or 8")),
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Act {
    Crelu,
    Screlu,
}

#[cfg(test)]
mod tests {
    /// clap's own checks of the definitions (names, groups, conflicts, defaults), which
    /// otherwise run only when a command line is parsed in a debug build.
    #[test]
    fn the_command_line_is_consistent() {
        super::command().debug_assert();
    }
}
