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
use crate::game::annotate::{Review, ReviewedMove};

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
    /// The budget the review runs at, named in the annotated game.
    pub(super) budget: String,
}

/// The review view's state.
#[derive(Default)]
pub struct ReviewView {
    running: Option<RunningReview>,
    /// The last finished review.
    review: Option<Review>,
    /// The view is on screen (in place of the log pane).
    visible: bool,
    /// The chosen row of `review.moves`.
    selected: usize,
    /// A position of the review is on the board (the engine is held).
    browsing: bool,
    /// The id of the game the review is of (a new or loaded game closes the view).
    game_id: String,
}

impl ReviewView {
    /// The review, when it is of `game` (whose id is given).
    pub fn of_game(&self, game_id: &str) -> Option<&Review> {
        self.review.as_ref().filter(|_| self.game_id == game_id)
    }

    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The review under way, if one runs.
    pub fn running(&self) -> Option<&RunningReview> {
        self.running.as_ref()
    }

    /// A review job starts: its reports are awaited.
    pub fn begin(&mut self, running: RunningReview) {
        self.running = Some(running);
    }

    /// The latest report of job `id` (a report of any other job is stale and dropped).
    pub fn on_progress(&mut self, id: u64, progress: ReviewProgress) {
        if let Some(r) = self.running.as_mut().filter(|r| r.id == id) {
            r.progress = Some(progress);
        }
    }

    /// Whether `id` is the running review's job.
    pub fn is_job(&self, id: u64) -> bool {
        self.running.as_ref().is_some_and(|r| r.id == id)
    }

    /// The review that ended, to finish (it no longer runs).
    pub fn take_running(&mut self) -> Option<RunningReview> {
        self.running.take()
    }

    /// Asks the running review to stop after its current position; whether one runs.
    pub fn cancel(&self) -> bool {
        match &self.running {
            Some(r) => {
                r.cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// The finished `review` of the game `game_id` is shown, row `selected` chosen.
    pub fn show(&mut self, review: Review, game_id: String, selected: usize) {
        self.review = Some(review);
        self.game_id = game_id;
        self.selected = selected;
        self.visible = true;
    }

    /// The view is on screen (in place of the log pane).
    pub fn visible(&self) -> bool {
        self.visible
    }

    pub fn hide(&mut self) {
        self.visible = false;
    }

    /// The chosen row of the review's moves.
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// ↑ / ↓ among `rows` rows.
    pub fn select_next(&mut self, up: bool, rows: usize) {
        self.selected = if up {
            self.selected.saturating_sub(1)
        } else {
            (self.selected + 1).min(rows.max(1) - 1)
        };
    }

    /// The chosen reviewed move.
    pub fn chosen(&self) -> Option<&ReviewedMove> {
        self.review.as_ref()?.moves.get(self.selected)
    }

    /// A position of the review is on the board (the engine is held).
    pub fn browsing(&self) -> bool {
        self.browsing
    }

    pub fn browse(&mut self) {
        self.browsing = true;
    }

    /// Back from a reviewed position; whether one was on the board.
    pub fn stop_browsing(&mut self) -> bool {
        std::mem::take(&mut self.browsing)
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
