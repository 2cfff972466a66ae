//! `:review` in the TUI: the review job (`engine::jobs::review`) runs the game's positions
//! on a thread of its own; the app polls it on its ticks (it never waits), shows the
//! progress and the time left on the status line, and when it ends (or Esc cancels it,
//! keeping what was analysed) turns the analysis into a `Review` (`game::annotate`), writes
//! the marks into the game (so `:save` and the autosave carry them) and opens the review
//! view: the moves with their marks, the better move and its line, each side's accuracy.
//!
//! In the view ↑/↓ choose a move, Enter shows the position before it on the board (the sort
//! pane follows) with the engine held, and Esc or Backspace go back to the end of the game.
//! The game model keeps one line: a move typed at a shown position replaces the game's
//! later moves (the status line says so when a position is shown).

use crate::engine::jobs::{CancelHandle, ReviewJob, ReviewProgress};
use crate::game::annotate::Review;

/// The deepest search a TUI review runs per position (a game reviews in seconds).
pub const REVIEW_DEPTH: u32 = 10;

/// A review under way.
pub struct RunningReview {
    pub(super) job: Option<ReviewJob>,
    pub(super) cancel: CancelHandle,
    /// The job's id: reports of any other are stale.
    pub(super) id: u64,
    /// The job's latest report.
    pub(super) progress: Option<ReviewProgress>,
    /// The game's id and length when the review started: marks go only into that game.
    pub(super) game_id: String,
    pub(super) game_len: usize,
    pub(super) total: usize,
}

/// The review view's state.
#[derive(Default)]
pub struct ReviewView {
    pub running: Option<RunningReview>,
    /// The last finished review.
    pub review: Option<Review>,
    /// The view is on screen (in place of the log pane).
    pub visible: bool,
    /// The chosen row of `review.moves`.
    pub selected: usize,
    /// A position of the review is on the board (the engine is held).
    pub browsing: bool,
    /// The id of the game the review is of (a new or loaded game closes the view).
    pub game_id: String,
}

impl ReviewView {
    /// The review, when it is of `game` (whose id is given).
    pub fn of_game(&self, game_id: &str) -> Option<&Review> {
        self.review.as_ref().filter(|_| self.game_id == game_id)
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// `positions done / total` and the time left, for the status line.
    pub fn progress_text(&self) -> Option<String> {
        let r = self.running.as_ref()?;
        Some(match &r.progress {
            Some(p) => {
                let filled = (p.done * 10).checked_div(p.total).unwrap_or(0);
                format!(
                    "review [{}{}] {}/{} ~{:.0}s left",
                    "█".repeat(filled),
                    "░".repeat(10 - filled.min(10)),
                    p.done,
                    p.total,
                    p.remaining.as_secs_f64().ceil()
                )
            }
            None => format!("review [{}] 0/{}", "░".repeat(10), r.total),
        })
    }
}
