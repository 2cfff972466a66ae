//! The review job: every position of a game searched with the same budget, in order, on a
//! thread of its own. What it returns is raw analysis (score, best move and line per
//! position); `crate::game::annotate` turns it into judgements, accuracy and an annotated
//! PGN.
//!
//! ```no_run
//! use ox88::chess::Board;
//! use ox88::engine::jobs::{ReviewJob, ReviewSettings};
//!
//! let mut b = Board::startpos();
//! let mut positions = vec![b.clone()];
//! for m in ["e2e4", "e7e5"] {
//!     b.make(b.parse_uci_move(m).unwrap());
//!     positions.push(b.clone());
//! }
//! let job = ReviewJob::start(positions, ReviewSettings::depth(8), |p| {
//!     eprintln!("{}/{} positions", p.done, p.total);
//! })
//! .unwrap();
//! // job.cancel_handle().cancel() from anywhere stops it after the current position.
//! let outcome = job.wait();
//! assert_eq!(outcome.positions.len(), 3);
//! ```
//!
//! One searcher serves the whole job, so its transposition table carries what it learnt
//! from one position to the next (the positions of a game are close relatives). The
//! searcher is the plain `Searcher::standalone()` + `search_sync` entry point, with the
//! opening book off: a review judges moves by search, not by what the book plays.
//!
//! A second look (when the settings ask for one): a move that the first look would mark is
//! searched again from the position before it, deeper, as two root searches of the same
//! depth: every other move (the best of them and its line), then the move played alone. The
//! first look infers the move's value from the next position's search, one ply further on
//! and with the other side to move; the second compares the move with the others from the
//! same root, so a mark stands only where the loss holds up. A move the built-in opening
//! book plays gets no second look (the review never marks it).

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::CancelHandle;
use crate::chess::{Board, Move};
use crate::engine::book::Book;
use crate::engine::search::Searcher;
use crate::engine::{Limits, Score, SearchOptions};

/// The nodes per position of a quick review, the standard budget (a 40-move game, 81
/// positions, in a few seconds on one core; the second looks take the rest).
pub const STANDARD_NODES: u64 = 40_000;

/// The nodes per position of a deep review: six times the quick budget, enough that the
/// first look rarely misjudges a move by a search horizon (a 40-move game in under a
/// minute on one core, the second looks included).
pub const DEEP_NODES: u64 = 250_000;

/// How much deeper a second look searches than the first: this many times the nodes or
/// the time, or this many plies more.
pub const SECOND_LOOK_FACTOR: u64 = 4;
pub const SECOND_LOOK_PLIES: u32 = 3;

/// The nodes a deep review spends on the other moves of a position where the move played
/// was the engine's own choice, to tell whether it was the only move that held (`!`).
pub const ONLY_MOVE_NODES: u64 = 100_000;

/// Whether the first look would mark a move, from the mover's scores before the move (the
/// engine's best play) and after it. The review's judge (`game::annotate`) supplies it.
pub type WouldMark = fn(before: Score, after: Score) -> bool;

/// The second look: its budget (for the search of the other moves; the move played is
/// searched to the same depth) and which moves get one.
#[derive(Clone, Debug)]
pub struct SecondLook {
    pub limits: Limits,
    pub would_mark: WouldMark,
}

/// The two budgets a person picks between: quick (the default: a game in seconds, some
/// marks a stronger search would not give and some misses) and deep (six times the nodes:
/// a 40-move game in under a minute on one core, marks that mostly agree with a strong
/// engine's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReviewDepth {
    #[default]
    Quick,
    Deep,
}

impl ReviewDepth {
    pub const fn name(self) -> &'static str {
        match self {
            ReviewDepth::Quick => "quick",
            ReviewDepth::Deep => "deep",
        }
    }
}

/// The budget per position and how the engine searches.
#[derive(Clone, Debug)]
pub struct ReviewSettings {
    pub limits: Limits,
    pub options: SearchOptions,
    /// A deeper look at the moves the first look would mark; `None`: the first look stands.
    pub second_look: Option<SecondLook>,
    /// The budget for the other moves where the move played was the engine's choice (see
    /// [`only_move_candidate`]); `None`: no such look, and no move is called the only one.
    pub only_move: Option<Limits>,
}

impl ReviewSettings {
    /// A fixed number of nodes per position: reproducible, and the same on a busy machine as
    /// on an idle one (only slower).
    pub fn nodes(per_position: u64) -> ReviewSettings {
        ReviewSettings::with_limits(Limits {
            nodes: Some(per_position.max(1)),
            ..Limits::default()
        })
    }

    /// The standard budget: [`STANDARD_NODES`] a position.
    pub fn standard() -> ReviewSettings {
        ReviewSettings::nodes(STANDARD_NODES)
    }

    /// The budget a depth of review names: [`STANDARD_NODES`] for quick, [`DEEP_NODES`] for
    /// deep, a position.
    pub fn of_depth(depth: ReviewDepth) -> ReviewSettings {
        match depth {
            ReviewDepth::Quick => ReviewSettings::nodes(STANDARD_NODES),
            ReviewDepth::Deep => ReviewSettings {
                only_move: Some(Limits {
                    nodes: Some(ONLY_MOVE_NODES),
                    ..Limits::default()
                }),
                ..ReviewSettings::nodes(DEEP_NODES)
            },
        }
    }

    /// A time for the whole game of `positions` positions, spread evenly over them with a
    /// share kept back for the second looks (about one move in eight gets one, at
    /// [`SECOND_LOOK_FACTOR`] times the time).
    pub fn game_time(total: Duration, positions: usize) -> ReviewSettings {
        let shares = positions.max(1) as f64 * (1.0 + SECOND_LOOK_FACTOR as f64 / 8.0);
        let per = total.div_f64(shares).max(Duration::from_millis(1));
        ReviewSettings::movetime(per)
    }

    /// These settings with a second look at the moves `would_mark` picks, deeper than the
    /// first by [`SECOND_LOOK_FACTOR`] (nodes, time) or [`SECOND_LOOK_PLIES`] (depth).
    pub fn with_second_look(mut self, would_mark: WouldMark) -> ReviewSettings {
        let first = &self.limits;
        let limits = Limits {
            depth: first.depth.map(|d| d + SECOND_LOOK_PLIES),
            nodes: first.nodes.map(|n| n.saturating_mul(SECOND_LOOK_FACTOR)),
            movetime: first.movetime.map(|t| t * SECOND_LOOK_FACTOR as u32),
            ..Limits::default()
        };
        self.second_look = Some(SecondLook { limits, would_mark });
        self
    }

    /// The budget in words: `40000 nodes`, `depth 8`, `movetime 100 ms`.
    pub fn budget(&self) -> String {
        let l = &self.limits;
        match (l.nodes, l.depth, l.movetime) {
            (Some(n), _, _) => format!("{n} nodes"),
            (None, Some(d), _) => format!("depth {d}"),
            (None, None, Some(t)) => format!("movetime {} ms", t.as_millis()),
            _ => "no limit".to_string(),
        }
    }

    /// A fixed time per position.
    pub fn movetime(per_position: Duration) -> ReviewSettings {
        ReviewSettings::with_limits(Limits::movetime(per_position))
    }

    /// A fixed depth per position (reproducible: the same game gives the same review).
    pub fn depth(depth: u32) -> ReviewSettings {
        ReviewSettings::with_limits(Limits::depth(depth))
    }

    fn with_limits(limits: Limits) -> ReviewSettings {
        ReviewSettings {
            limits,
            options: SearchOptions {
                own_book: false,
                hash_mb: 32,
                // A fixed movetime is the budget itself: no GUI latency to allow for.
                move_overhead: Duration::ZERO,
                ..SearchOptions::default()
            },
            second_look: None,
            only_move: None,
        }
    }
}

/// What the search made of one position.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Searched: the score for the side to move, the depth reached, the best move and the
    /// line that follows it (starting with the best move).
    Searched {
        score: Score,
        depth: u32,
        best: Move,
        pv: Vec<Move>,
    },
    /// No legal move and in check: the side to move is mated.
    Checkmated,
    /// No legal move, not in check.
    Stalemate,
}

/// The second look at the move played from a position: the move and the best other move,
/// each searched from that position to the same depth (scores for the side to move).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveCheck {
    pub played: Move,
    pub played_score: Score,
    /// The best of the other moves and its line (starting with it, never with `played`).
    pub other: Move,
    pub other_score: Score,
    pub other_line: Vec<Move>,
    pub depth: u32,
    pub nodes: u64,
}

impl MoveCheck {
    /// Whether another move scored better than the one played.
    pub fn other_is_better(&self) -> bool {
        self.other_score.as_ordinal() > self.played_score.as_ordinal()
    }
}

/// One position of the game, analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionAnalysis {
    /// Which position: 0 is the start, `n` the one after the game's `n`th move.
    pub index: usize,
    pub verdict: Verdict,
    pub nodes: u64,
    pub time: Duration,
    /// The second look at the move played from here, when it got one.
    pub check: Option<MoveCheck>,
}

impl PositionAnalysis {
    /// The score for the side to move. A side already mated scores `Mate(-1)` (as lost as
    /// a score can say; `Mate(0)` has no sign), stalemate is a draw.
    pub fn score(&self) -> Score {
        match &self.verdict {
            Verdict::Searched { score, .. } => *score,
            Verdict::Checkmated => Score::Mate(-1),
            Verdict::Stalemate => Score::Cp(0),
        }
    }

    pub fn best(&self) -> Option<Move> {
        match &self.verdict {
            Verdict::Searched { best, .. } => Some(*best),
            _ => None,
        }
    }

    pub fn pv(&self) -> &[Move] {
        match &self.verdict {
            Verdict::Searched { pv, .. } => pv,
            _ => &[],
        }
    }
}

/// Sent after each position: how far the job is and what it just found.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewProgress {
    pub done: usize,
    pub total: usize,
    pub elapsed: Duration,
    /// The time left at the average pace so far.
    pub remaining: Duration,
    pub latest: PositionAnalysis,
}

impl std::fmt::Display for ReviewProgress {
    /// `12/81 positions, 1.2 s, about 6.9 s left`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{} positions, {:.1} s, about {:.1} s left",
            self.done,
            self.total,
            self.elapsed.as_secs_f64(),
            self.remaining.as_secs_f64()
        )
    }
}

/// What a review job did: the positions analysed, in order from the first (all of them,
/// or a prefix when it was cancelled or failed).
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewOutcome {
    pub positions: Vec<PositionAnalysis>,
    pub total: usize,
    pub cancelled: bool,
    /// Set when the search failed (a panic): what was analysed before is still there.
    pub error: Option<String>,
    pub elapsed: Duration,
}

impl ReviewOutcome {
    pub fn is_complete(&self) -> bool {
        self.positions.len() == self.total
    }
}

/// Analyses `positions` in order on the calling thread; the job's thread runs this.
/// Looks at `cancel` before each position; a cancel keeps what was done.
pub fn analyse(
    positions: &[Board],
    settings: &ReviewSettings,
    cancel: &CancelHandle,
    on_progress: &mut dyn FnMut(&ReviewProgress),
) -> ReviewOutcome {
    let done = Arc::new(Mutex::new(Vec::new()));
    analyse_into(positions, settings, cancel, on_progress, &done)
}

fn analyse_into(
    positions: &[Board],
    settings: &ReviewSettings,
    cancel: &CancelHandle,
    on_progress: &mut dyn FnMut(&ReviewProgress),
    done: &Mutex<Vec<PositionAnalysis>>,
) -> ReviewOutcome {
    let start = Instant::now();
    let mut searcher = Searcher::standalone();
    let total = positions.len();
    let mut cancelled = false;
    for (index, board) in positions.iter().enumerate() {
        if cancel.is_cancelled() {
            cancelled = true;
            break;
        }
        let analysis = analyse_one(&mut searcher, index, board, settings);
        let previous = index.checked_sub(1).and_then(|i| {
            let list = done.lock().unwrap_or_else(|e| e.into_inner());
            list.get(i).cloned()
        });
        let check = match (&settings.second_look, previous) {
            (Some(look), Some(first)) => second_look(
                &mut searcher,
                &positions[index - 1],
                board,
                &first,
                &analysis,
                settings,
                look,
            ),
            _ => None,
        };
        let count = {
            let mut list = done.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(c) = check
                && let Some(p) = list.last_mut()
            {
                p.check = Some(c);
            }
            list.push(analysis.clone());
            list.len()
        };
        let elapsed = start.elapsed();
        let remaining = elapsed.mul_f64((total - count) as f64 / count as f64);
        on_progress(&ReviewProgress {
            done: count,
            total,
            elapsed,
            remaining,
            latest: analysis,
        });
    }
    let positions = std::mem::take(&mut *done.lock().unwrap_or_else(|e| e.into_inner()));
    ReviewOutcome {
        cancelled: cancelled || (positions.len() < total && cancel.is_cancelled()),
        positions,
        total,
        error: None,
        elapsed: start.elapsed(),
    }
}

fn analyse_one(
    searcher: &mut Searcher,
    index: usize,
    board: &Board,
    settings: &ReviewSettings,
) -> PositionAnalysis {
    if !board.has_legal_move() {
        let verdict = if board.in_check() {
            Verdict::Checkmated
        } else {
            Verdict::Stalemate
        };
        return PositionAnalysis {
            index,
            verdict,
            nodes: 0,
            time: Duration::ZERO,
            check: None,
        };
    }
    let result = searcher.search_sync(board, &settings.limits, &settings.options, &mut |_| {});
    // A position with a legal move always gets a best move; the first legal move stands
    // in should a search ever come back without one.
    let best = result
        .best
        .filter(|m| board.legal_moves().contains(*m))
        .or_else(|| board.legal_moves().iter().next().copied())
        .unwrap_or(Move::NONE);
    let mut pv = result.pv;
    if pv.first() != Some(&best) {
        pv = vec![best];
    }
    PositionAnalysis {
        index,
        verdict: Verdict::Searched {
            score: result.score,
            depth: result.depth,
            best,
            pv,
        },
        nodes: result.stats.nodes,
        time: result.time,
        check: None,
    }
}

/// The move that leads from `before` to `after` (the game's move between two of its
/// positions), found among the legal moves by the position it makes.
fn move_between(before: &Board, after: &Board) -> Option<Move> {
    before.legal_moves().iter().copied().find(|&m| {
        let mut b = before.clone();
        b.make(m);
        b.hash() == after.hash()
    })
}

/// The second look at the move from `before` to `after` (see the module comment), when the
/// first look (`first`, `next`: the two positions' analyses) would mark it: not for the
/// engine's own choice, a move the built-in book plays, or a forced move.
fn second_look(
    searcher: &mut Searcher,
    before: &Board,
    after: &Board,
    first: &PositionAnalysis,
    next: &PositionAnalysis,
    settings: &ReviewSettings,
    look: &SecondLook,
) -> Option<MoveCheck> {
    let played = move_between(before, after)?;
    if Book::builtin().moves(before).iter().any(|w| w.mv == played) {
        return None;
    }
    if first.best() == Some(played) {
        return match &settings.only_move {
            Some(limits) if only_move_candidate(before, played) => {
                compare(searcher, before, played, limits, &settings.options)
            }
            _ => None,
        };
    }
    if !(look.would_mark)(first.score(), next.score().negate()) {
        return None;
    }
    compare(searcher, before, played, &look.limits, &settings.options)
}

/// Whether the move played from `before`, the engine's own choice, is worth asking whether
/// it was the only move that held: a real choice (three legal moves or more) and not a
/// capture that wins material or breaks even by the exchange (taking what was offered, or
/// taking back, is what anyone plays). A sacrifice is a candidate.
pub fn only_move_candidate(before: &Board, played: Move) -> bool {
    let legal = before.legal_moves();
    legal.len() >= 3
        && !(before.piece_at(played.to()).is_some()
            && crate::engine::order::see(before, played) >= 0)
}

/// The move played and the best of the others, searched from `before` to the same depth:
/// the others within `limits`, then the move played alone to the depth they reached.
fn compare(
    searcher: &mut Searcher,
    before: &Board,
    played: Move,
    limits: &Limits,
    options: &SearchOptions,
) -> Option<MoveCheck> {
    let others: Vec<Move> = before
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| m != played)
        .collect();
    if others.is_empty() {
        return None;
    }
    let other = searcher.search_sync(
        before,
        &Limits {
            searchmoves: others.clone(),
            ..limits.clone()
        },
        options,
        &mut |_| {},
    );
    let best_other = other.best.filter(|m| others.contains(m))?;
    let mut other_line = other.pv;
    if other_line.first() != Some(&best_other) {
        other_line = vec![best_other];
    }
    let depth = other.depth.max(1);
    let own = searcher.search_sync(
        before,
        &Limits {
            searchmoves: vec![played],
            depth: Some(depth),
            ..limits.clone()
        },
        options,
        &mut |_| {},
    );
    Some(MoveCheck {
        played,
        played_score: own.score,
        other: best_other,
        other_score: other.score,
        other_line,
        depth,
        nodes: other.stats.nodes + own.stats.nodes,
    })
}

/// A review running on its own thread.
pub struct ReviewJob {
    thread: JoinHandle<ReviewOutcome>,
    cancel: CancelHandle,
    /// The positions done so far, shared so a failed thread still leaves them.
    done: Arc<Mutex<Vec<PositionAnalysis>>>,
    total: usize,
    started: Instant,
}

impl ReviewJob {
    /// Starts analysing `positions` (each with its history, for repetitions) and returns
    /// at once (an error only when the system cannot start a thread). `on_progress` runs
    /// on the job's thread after each position.
    pub fn start(
        positions: Vec<Board>,
        settings: ReviewSettings,
        on_progress: impl FnMut(&ReviewProgress) + Send + 'static,
    ) -> std::io::Result<ReviewJob> {
        ReviewJob::start_with_cancel(positions, settings, CancelHandle::new(), on_progress)
    }

    /// `start` with a cancel handle made beforehand, so that the progress callback (or
    /// anything else set up before the job) can hold a clone of it.
    pub fn start_with_cancel(
        positions: Vec<Board>,
        settings: ReviewSettings,
        cancel: CancelHandle,
        mut on_progress: impl FnMut(&ReviewProgress) + Send + 'static,
    ) -> std::io::Result<ReviewJob> {
        let done = Arc::new(Mutex::new(Vec::new()));
        let total = positions.len();
        let thread = {
            let cancel = cancel.clone();
            let done = Arc::clone(&done);
            std::thread::Builder::new()
                .name("ox88-review".to_string())
                .spawn(move || {
                    crate::engine::priority::on_engine_thread();
                    analyse_into(&positions, &settings, &cancel, &mut on_progress, &done)
                })?
        };
        Ok(ReviewJob {
            thread,
            cancel,
            done,
            total,
            started: Instant::now(),
        })
    }

    /// A handle that cancels this job from any thread.
    pub fn cancel_handle(&self) -> CancelHandle {
        self.cancel.clone()
    }

    /// Asks the job to stop after the current position.
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Waits for the job to end and returns what it analysed.
    pub fn wait(self) -> ReviewOutcome {
        match self.thread.join() {
            Ok(outcome) => outcome,
            Err(panic) => {
                let why = crate::engine::facade::panic_text(&*panic);
                let positions =
                    std::mem::take(&mut *self.done.lock().unwrap_or_else(|e| e.into_inner()));
                ReviewOutcome {
                    positions,
                    total: self.total,
                    cancelled: self.cancel.is_cancelled(),
                    error: Some(format!("the analysis stopped: {why}")),
                    elapsed: self.started.elapsed(),
                }
            }
        }
    }
}
