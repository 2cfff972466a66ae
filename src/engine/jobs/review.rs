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

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::CancelHandle;
use crate::chess::{Board, Move};
use crate::engine::search::Searcher;
use crate::engine::{Limits, Score, SearchOptions};

/// The budget per position and how the engine searches.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewSettings {
    pub limits: Limits,
    pub options: SearchOptions,
}

impl ReviewSettings {
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

/// One position of the game, analysed.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionAnalysis {
    /// Which position: 0 is the start, `n` the one after the game's `n`th move.
    pub index: usize,
    pub verdict: Verdict,
    pub nodes: u64,
    pub time: Duration,
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
        let count = {
            let mut list = done.lock().unwrap_or_else(|e| e.into_inner());
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
    }
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
