//! Background analysis jobs: work that runs off the caller's thread, tells how far it has
//! got, can be cancelled, and hands back what it did, even when cancelled.
//!
//! Every job has the same shape, so a front end drives them alike:
//! - `start(input, settings, on_progress)` spawns the job's thread and returns at once;
//! - `on_progress` is called on that thread after each step, with the step's result and
//!   the counts (done / total, elapsed, an estimate of the time left). A TUI passes a
//!   closure that sends the event into its one event channel; a command line prints it;
//! - the job's `CancelHandle` (cloneable, `Send`) asks it to stop: the job looks at it
//!   between steps, so it ends within one step's budget;
//! - `wait()` joins the thread and returns the outcome: the results of the steps done, in
//!   order, and whether it was cancelled.
//!
//! Jobs here: `review` (every position of a game searched with a fixed budget) and `lab`
//! (one position searched under several orderings and profiles, side by side).

pub mod lab;
pub mod review;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub use lab::{LabJob, LabOutcome, LabProgress, LabRun, LabSettings};
pub use review::{
    MoveCheck, PositionAnalysis, ReviewDepth, ReviewJob, ReviewOutcome, ReviewProgress,
    ReviewSettings, SecondLook, Verdict, WouldMark, only_move_candidate,
};

/// Asks a job to stop after the step it is on. Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct CancelHandle(Arc<AtomicBool>);

impl CancelHandle {
    pub fn new() -> CancelHandle {
        CancelHandle::default()
    }

    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}
