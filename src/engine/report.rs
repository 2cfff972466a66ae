//! The vocabulary the engine reports in, shared by both front ends (TUI and UCI): search
//! limits and options, and the events a running search emits. Scores and bounds live in
//! `score` (re-exported here).

use std::time::Duration;

use super::eval::EvalConfig;
use super::order::{Scheme, ScoredMove};
pub use super::score::{Bound, MATE, MATE_BOUND, Score};
use super::stats::SearchStats;
use super::strength::Level;
use super::tree::{TreeLimits, TreeNode};
use crate::chess::types::Move;

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
            move_overhead: Duration::from_millis(30),
            report_root_moves: false,
            level: Level::Max,
            record_tree: None,
            threads: 1,
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
