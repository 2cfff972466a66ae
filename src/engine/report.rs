//! The vocabulary the engine reports in, shared by both front ends (TUI and UCI): scores,
//! search limits and options, and the events a running search emits.

use std::fmt;
use std::time::Duration;

use super::eval::EvalConfig;
use super::order::{Scheme, ScoredMove};
use super::search::Profile;
use crate::chess::types::{Color, Move};

/// Internal score bound for mates: a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// A score from one side's point of view: centipawns, or mate in N moves (N > 0: this side
/// mates; N < 0: this side is mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// From the search's internal integer (side-to-move view).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// The same score seen by the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// The seed's E: from White's point of view, given who the score was for.
    pub fn for_white(self, side: Color) -> Score {
        match side {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }

    /// A number for comparisons and plots: mates map to ±(100000 - N).
    pub fn as_ordinal(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

impl fmt::Display for Score {
    /// Pawn units with a sign (`+0.29`, `-1.50`), or `#3` / `-#2` for mates.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                write!(f, "{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
            }
            Score::Mate(n) if n >= 0 => write!(f, "#{n}"),
            Score::Mate(n) => write!(f, "-#{}", -n),
        }
    }
}

/// Whether a reported score is exact or only a bound (an aspiration window failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

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

/// How the engine plays: evaluation, ordering, search profile and resources.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOptions {
    pub eval: EvalConfig,
    pub scheme: Scheme,
    pub profile: Profile,
    pub hash_mb: usize,
    pub multipv: u32,
    /// Use the opening book (built-in, plus `book_file` if given) before searching.
    pub own_book: bool,
    pub book_file: Option<std::path::PathBuf>,
    /// Weighted-random choice among book moves (otherwise the best-weighted move).
    pub book_random: bool,
    /// Subtracted from every time budget for GUI and pipe latency.
    pub move_overhead: Duration,
    /// Attach the root move list with ordering reasons to each iteration (the sort pane).
    pub report_root_moves: bool,
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
    fn mate_scores_convert() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(29), Score::Cp(29));
        assert_eq!(Score::Cp(29).to_string(), "+0.29");
        assert_eq!(Score::Cp(-150).to_string(), "-1.50");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Mate(3).to_string(), "#3");
        assert_eq!(Score::Mate(-2).for_white(Color::Black), Score::Mate(2));
    }
}
