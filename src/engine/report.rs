//! The vocabulary the engine reports in, shared by both front ends (TUI and UCI): search
//! limits and options, and the events a running search emits. Scores and bounds live in
//! `score` (re-exported here).

use std::time::Duration;

use super::eval::EvalConfig;
use super::order::{Scheme, ScoredMove};
pub use super::score::{Bound, MATE, MATE_BOUND, Score};
use super::stats::SearchStats;
use super::strength::{Level, Reason};
use super::syzygy::SyzygyOptions;
use super::tree::{TreeLimits, TreeNode};
use crate::chess::types::{Color, Move};

/// When to stop searching. Everything `None`/false means "until told to stop".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    /// Search for a mate in this many moves (stops when found).
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Pondering: think on the opponent's time; the clock starts at `ponderhit`.
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}

impl Limits {
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }
}

/// Which search features are on.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Profile {
    /// Only what the seed pages describe: alpha-beta, PV-first ordering, the chosen capture
    /// ordering and quiescence; no transposition table, no pruning, no reductions.
    Seed,
    /// Everything.
    #[default]
    Full,
}

impl Profile {
    /// Parses a profile name (any case, blanks around ignored) with a message that lists
    /// the names: `fast: not a search profile (seed, full)`.
    pub fn parse(s: &str) -> Result<Profile, String> {
        use strum::VariantArray;
        s.trim().parse().map_err(|_| {
            let names: Vec<String> = Profile::VARIANTS.iter().map(Profile::to_string).collect();
            format!("{s}: not a search profile ({})", names.join(", "))
        })
    }
}

/// How the engine plays: evaluation, ordering, search profile and resources.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    pub eval: EvalConfig,
    pub scheme: Scheme,
    pub profile: Profile,
    pub hash_mb: usize,
    pub multipv: u32,
    /// Answer from the opening book (built-in, plus `book_file` if given) in games under a
    /// clock; searches without a clock (depth, nodes, mate, infinite) always search.
    pub own_book: bool,
    pub book_file: Option<std::path::PathBuf>,
    /// Weighted-random choice among book moves (otherwise the best-weighted move).
    pub book_random: bool,
    /// The book may answer a search without a clock too: the TUI's game moves, searched to
    /// a depth, are moves of a game (UCI's `go depth` is not, and always searches).
    pub book_without_clock: bool,
    /// Subtracted from every time budget for GUI and pipe latency.
    pub move_overhead: Duration,
    /// Attach the root move list with ordering reasons to each iteration (the sort pane).
    pub report_root_moves: bool,
    /// How strongly to play: below `Max` the facade answers a search for a move (not an
    /// infinite or ponder search) through the level driver (`levels::think_as`).
    pub level: Level,
    /// Record the tree each iteration searched within these limits and send it as
    /// [`SearchEvent::Tree`] (the TUI's tree browser); `None` records nothing and costs
    /// nothing.
    pub record_tree: Option<TreeLimits>,
    /// Search threads (Lazy SMP, `search/threads.rs`): 1 is the single, reproducible search;
    /// more share the transposition table and report summed nodes. Capped at
    /// [`super::search::MAX_THREADS`].
    pub threads: u32,
    /// Syzygy tablebases: WDL probes inside the tree, DTZ ranking of the root's moves
    /// (`search/tablebase.rs`); no tables by default.
    pub syzygy: SyzygyOptions,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            eval: EvalConfig::default(),
            scheme: Scheme::default(),
            profile: Profile::Full,
            hash_mb: 64,
            multipv: 1,
            own_book: true,
            book_file: None,
            book_random: false,
            book_without_clock: false,
            move_overhead: Duration::from_millis(30),
            report_root_moves: false,
            level: Level::Max,
            record_tree: None,
            threads: 1,
            syzygy: SyzygyOptions::default(),
        }
    }
}

/// One finished iteration of iterative deepening (or one MultiPV line of it).
#[derive(Clone, Debug, PartialEq)]
pub struct IterationInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based MultiPV line number.
    pub multipv: u32,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// The same score from White's point of view (the seed's E).
    pub score_white: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// Transposition-table fill in permille.
    pub hashfull: u32,
    /// The root moves in the order the search tried them, with scores and reasons (empty
    /// unless `SearchOptions::report_root_moves`).
    pub root_moves: Vec<ScoredMove>,
    /// Of the nodes that failed high, the fraction that did so on the first move (0..1).
    pub first_move_cutoff: f64,
    /// Effective branching factor: nodes of this iteration / nodes of the previous one.
    pub branching: f64,
    /// This iteration's own counters (so far, for a failed aspiration window): cutoffs,
    /// table hits, null moves, re-searches, quiescence nodes.
    pub stats: Box<SearchStats>,
    /// Each root move as this iteration left it, in the order searched (empty unless
    /// `SearchOptions::report_root_moves`; only on MultiPV line 1).
    pub root_rows: Vec<RootMoveRow>,
}

/// One root move of an iteration as the search found it: what it cost, what it scored and
/// what refuted it (the sort pane, UCI `info refutation`).
#[derive(Clone, Debug, PartialEq)]
pub struct RootMoveRow {
    /// The move with its ordering score and reasons at the root this iteration.
    pub order: ScoredMove,
    /// Nodes spent on it in this iteration (all its passes) and in the whole search.
    pub nodes: u64,
    pub nodes_total: u64,
    /// Its score from the root's side to move, `None` until searched this iteration; the
    /// bound says how it compares with the window it was searched in (`Upper`: refuted,
    /// at most this; `Lower`: failed high, at least this).
    pub score: Option<Score>,
    pub bound: Bound,
    /// The opponent's reply that refuted it (when it failed low): the move that cut there,
    /// with the 0-based index among the moves searched at which it was tried; or, when the
    /// table or a null move settled that node, the table's move there (index `None`).
    pub refutation: Option<Move>,
    pub refutation_index: Option<u32>,
    /// The best move so far.
    pub best: bool,
    /// It took the best move from an earlier one this iteration (a fail high at the root).
    pub new_best: bool,
}

impl RootMoveRow {
    pub fn mv(&self) -> Move {
        self.order.mv
    }
}

/// What a running search reports. Every event carries the id `Engine::go` returned, so a
/// front end can drop events of a search it no longer cares about.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchEvent {
    Iteration {
        id: u64,
        info: IterationInfo,
    },
    /// The root move now being searched (1-based number), for `currmove` reports.
    CurrentMove {
        id: u64,
        depth: u32,
        mv: Move,
        number: u32,
    },
    /// The search ended. `best` is `None` only when the position has no legal move.
    /// `book` names the opening when the move came from the book.
    BestMove {
        id: u64,
        best: Option<Move>,
        ponder: Option<Move>,
        book: Option<String>,
    },
    /// The tree the iteration `depth` searched (complete iterations only, sent just before
    /// that iteration's `Iteration` events), when `SearchOptions::record_tree` asks for it.
    Tree {
        id: u64,
        depth: u32,
        tree: std::sync::Arc<TreeNode>,
    },
    /// The root moves so far during a long iteration (at most every quarter second, when
    /// `SearchOptions::report_root_moves`); the iteration's `Iteration` event has them final.
    RootMoves {
        id: u64,
        depth: u32,
        rows: Vec<RootMoveRow>,
    },
    /// Something the user should read (a book file that failed to load, say).
    Message {
        id: u64,
        text: String,
    },
    /// What a level below `max` weighed for its move, sent just before that move's
    /// `BestMove`: information, not an error.
    LevelReport {
        id: u64,
        report: LevelReport,
    },
}

impl SearchEvent {
    /// The search this event belongs to (searches are numbered by the engine that runs them).
    pub fn id(&self) -> u64 {
        match self {
            SearchEvent::Iteration { id, .. }
            | SearchEvent::CurrentMove { id, .. }
            | SearchEvent::BestMove { id, .. }
            | SearchEvent::Tree { id, .. }
            | SearchEvent::RootMoves { id, .. }
            | SearchEvent::Message { id, .. }
            | SearchEvent::LevelReport { id, .. } => *id,
        }
    }
}

/// What a level's move weighed: the budget it searched with, what the search found, each
/// candidate with the value weighed (noise included) and its chance, and the one played.
/// [`LevelReport::lines`] gives it as the log shows it (and UCI as `info string` lines).
#[derive(Clone, Debug, PartialEq)]
pub struct LevelReport {
    pub level: Level,
    /// The side the level moved for: the candidates' scores and values are its own view.
    pub side: Color,
    /// The level's node and depth budget within the caller's limits (neither: the clock).
    pub budget_nodes: Option<u64>,
    pub budget_depth: Option<u32>,
    /// Depth of the iteration the candidates come from, and the nodes searched in all.
    pub depth: u32,
    pub nodes: u64,
    /// How many candidate lines the choice was among.
    pub lines: usize,
    /// How long the move should seem to take in all.
    pub think: Duration,
    /// The candidates as weighed and the one played; `None` when the side to move had no
    /// legal move.
    pub choice: Option<LevelChoice>,
}

/// A level's choice among its candidates.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelChoice {
    /// Every candidate in the search's order.
    pub weighed: Vec<WeighedLine>,
    /// Index into `weighed` of the move played.
    pub index: usize,
    pub reason: Reason,
}

/// One candidate as a level weighed it.
#[derive(Clone, Debug, PartialEq)]
pub struct WeighedLine {
    pub mv: Move,
    /// The move in SAN, in the position the level played in.
    pub san: String,
    /// The search's score for the side to move.
    pub score: Score,
    /// The value weighed, in centipawns (mates as the level sees them), noise included.
    pub value_cp: i32,
    /// Its chance of being picked (0..1).
    pub probability: f64,
}

impl LevelChoice {
    /// The candidate played.
    pub fn played(&self) -> &WeighedLine {
        &self.weighed[self.index]
    }
}

impl LevelReport {
    /// The report as lines for a log: the budget and the search, each candidate (the one
    /// played marked `→`) with its score and weighed value from White's view, as every
    /// other number a player reads, and the move played with why.
    pub fn lines(&self) -> Vec<String> {
        let budget = match (self.budget_nodes, self.budget_depth) {
            (Some(n), Some(d)) => format!("{n} nodes, depth {d}"),
            (Some(n), None) => format!("{n} nodes"),
            (None, Some(d)) => format!("depth {d}"),
            (None, None) => "the clock".to_string(),
        };
        let mut lines = vec![format!(
            "level {}: budget {budget}; searched depth {}, {} nodes, {} lines; think {:.1} s; scores White's view",
            self.level,
            self.depth,
            self.nodes,
            self.lines,
            self.think.as_secs_f64()
        )];
        if let Some(choice) = &self.choice {
            let white = |cp: i32| match self.side {
                Color::White => cp,
                Color::Black => -cp,
            };
            for (i, w) in choice.weighed.iter().enumerate() {
                lines.push(format!(
                    "{} {:<7} {:>7}  weighed {:>+5}  p {:>4.1}%",
                    if i == choice.index { "→" } else { " " },
                    w.san,
                    w.score.for_white(self.side).to_string(),
                    white(w.value_cp),
                    w.probability * 100.0
                ));
            }
            lines.push(format!(
                "level {} plays {} ({})",
                self.level,
                choice.played().san,
                match choice.reason {
                    Reason::Best => "the best line",
                    Reason::MateInOne => "a mate in one",
                    Reason::Weighted => "drawn by the weights",
                }
            ));
        }
        lines
    }
}

/// The report's lines, one per line of text.
impl std::fmt::Display for LevelReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.lines().join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_report_reads_as_the_log_shows_it() {
        let board = crate::chess::Board::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )
        .unwrap();
        let e5 = board.parse_uci_move("e7e5").unwrap();
        let d5 = board.parse_uci_move("d7d5").unwrap();
        let line = |mv, san: &str, score, value_cp, probability| WeighedLine {
            mv,
            san: san.to_string(),
            score,
            value_cp,
            probability,
        };
        let mut report = LevelReport {
            level: Level::Elo(1600),
            side: Color::Black,
            budget_nodes: Some(30_000),
            budget_depth: None,
            depth: 7,
            nodes: 29_500,
            lines: 2,
            think: Duration::from_millis(1460),
            choice: Some(LevelChoice {
                weighed: vec![
                    line(e5, "e5", Score::Cp(-20), -15, 0.6),
                    line(d5, "d5", Score::Mate(3), 4997, 0.04),
                ],
                index: 1,
                reason: Reason::MateInOne,
            }),
        };
        assert_eq!(
            report.lines(),
            [
                "level club: budget 30000 nodes; searched depth 7, 29500 nodes, 2 lines; think 1.5 s; scores White's view",
                "  e5        +0.20  weighed   +15  p 60.0%",
                "→ d5          #-3  weighed -4997  p  4.0%",
                "level club plays d5 (a mate in one)",
            ]
        );
        assert_eq!(report.to_string(), report.lines().join("\n"));
        report.budget_nodes = None;
        report.choice = None;
        assert_eq!(
            report.lines(),
            [
                "level club: budget the clock; searched depth 7, 29500 nodes, 2 lines; think 1.5 s; scores White's view"
            ]
        );
    }

    #[test]
    fn profile_names_round_trip_and_a_bad_name_lists_the_good_ones() {
        use strum::VariantArray;
        for &p in Profile::VARIANTS {
            assert_eq!(Profile::parse(&p.to_string()), Ok(p));
            assert_eq!(Profile::parse(&p.to_string().to_uppercase()), Ok(p));
        }
        assert_eq!(Profile::parse(" Seed "), Ok(Profile::Seed));
        assert_eq!(
            Profile::parse("fast"),
            Err("fast: not a search profile (seed, full)".to_string())
        );
        let name: &'static str = Profile::Full.into();
        assert_eq!(name, "full");
    }
}
