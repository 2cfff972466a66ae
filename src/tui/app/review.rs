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

use std::sync::{Arc, Mutex};

use super::{App, LogKind};
use crate::engine::jobs::{CancelHandle, ReviewJob, ReviewProgress, ReviewSettings};
use crate::game::annotate::{Review, review_positions};

/// The deepest search a TUI review runs per position (a game reviews in seconds).
pub const REVIEW_DEPTH: u32 = 10;

/// A review under way.
pub struct RunningReview {
    job: Option<ReviewJob>,
    cancel: CancelHandle,
    /// The job's latest report (written on its thread, read on ticks).
    progress: Arc<Mutex<Option<ReviewProgress>>>,
    /// The game's id and length when the review started: marks go only into that game.
    game_id: String,
    game_len: usize,
    total: usize,
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
        let p = r.progress.lock().ok()?.clone();
        Some(match p {
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

impl App {
    /// `:review` (F4): reviews the game in the background; Esc cancels, keeping what was done.
    pub fn start_review(&mut self) -> Result<(), String> {
        if self.review.is_running() {
            return Err("a review is already running (Esc cancels it)".into());
        }
        if self.game.is_empty() {
            return Err("no moves to review yet".into());
        }
        let mut settings = ReviewSettings::depth(self.depth.min(REVIEW_DEPTH));
        settings.options.eval = self.eval;
        settings.options.scheme = self.scheme;
        settings.options.hash_mb = self.hash_mb.min(settings.options.hash_mb);
        let positions = review_positions(&self.game);
        let total = positions.len();
        let progress = Arc::new(Mutex::new(None));
        let cancel = CancelHandle::new();
        let job = {
            let progress = Arc::clone(&progress);
            ReviewJob::start_with_cancel(positions, settings, cancel.clone(), move |p| {
                if let Ok(mut slot) = progress.lock() {
                    *slot = Some(p.clone());
                }
            })
            .map_err(|e| format!("cannot start the review: {e}"))?
        };
        self.review.running = Some(RunningReview {
            job: Some(job),
            cancel,
            progress,
            game_id: self.game.id().to_string(),
            game_len: self.game.len(),
            total,
        });
        let depth = self.depth.min(REVIEW_DEPTH);
        self.log(
            LogKind::Info,
            format!("review: {total} positions at depth {depth}"),
        );
        self.info(format!(
            "reviewing {} moves at depth {depth} (Esc cancels, keeping what is done)",
            self.game.len()
        ));
        Ok(())
    }

    /// Esc during a review: stop after the current position, keep what was analysed.
    pub fn cancel_review(&mut self) -> bool {
        match &self.review.running {
            Some(r) => {
                r.cancel.cancel();
                self.info("review: stopping after this position");
                true
            }
            None => false,
        }
    }

    /// On a tick: a finished job becomes the review (marks into the game, the view opened).
    pub(super) fn poll_review(&mut self) -> bool {
        let finished = self
            .review
            .running
            .as_ref()
            .and_then(|r| r.job.as_ref())
            .is_some_and(ReviewJob::is_finished);
        if !finished {
            return self.review.is_running();
        }
        let Some(mut running) = self.review.running.take() else {
            return false;
        };
        let Some(job) = running.job.take() else {
            return false;
        };
        let outcome = job.wait();
        if let Some(e) = &outcome.error {
            self.log(LogKind::Error, format!("review: {e}"));
        }
        if self.game.id() != running.game_id || self.game.len() < running.game_len {
            self.error("review: the game changed while it ran; its result is dropped");
            return true;
        }
        let review = Review::from_analysis(&self.game, &outcome.positions);
        let annotator = format!("ox88 {} (depth {})", env!("CARGO_PKG_VERSION"), {
            self.depth.min(REVIEW_DEPTH)
        });
        let annotated = review.annotate(&self.game, &annotator);
        for (i, pm) in annotated
            .moves()
            .iter()
            .enumerate()
            .take(review.moves.len())
        {
            if let Err(e) = self.game.set_annotations(i, pm.annotations.clone()) {
                self.log(LogKind::Error, format!("review: move {}: {e}", i + 1));
            }
        }
        self.save();
        let done = review.moves.len();
        let how = if review.is_complete() {
            format!("review of {done} moves done")
        } else {
            format!(
                "review stopped after {done} of {} moves (kept)",
                review.game_moves
            )
        };
        self.log(LogKind::Info, how.clone());
        for side in [crate::chess::Color::White, crate::chess::Color::Black] {
            let line = format!("{:<5} {}", side.name(), review.side(side));
            self.log(LogKind::Info, line);
        }
        self.info(format!(
            "{how}: ↑/↓ choose, Enter shows the position, Esc goes back"
        ));
        self.review.selected = review
            .moves
            .iter()
            .position(|m| m.judgement.is_some())
            .unwrap_or(0);
        self.review.review = Some(review);
        self.review.game_id = running.game_id;
        self.review.visible = true;
        true
    }

    /// Keys while the review view is on screen and the input line is empty; false when the
    /// key is not the view's.
    pub(super) fn review_key(&mut self, code: crossterm::event::KeyCode) -> bool {
        use crossterm::event::KeyCode;
        let Some(n) = self.review.of_game(self.game.id()).map(|r| r.moves.len()) else {
            // Another game is on the board now: the view closes.
            self.review.visible = false;
            return false;
        };
        match code {
            KeyCode::Up => self.review.selected = self.review.selected.saturating_sub(1),
            KeyCode::Down => self.review.selected = (self.review.selected + 1).min(n.max(1) - 1),
            KeyCode::Enter if n > 0 => self.show_reviewed_position(),
            KeyCode::Esc | KeyCode::Backspace => self.leave_review(),
            _ => return false,
        }
        true
    }

    /// Shows the position before the chosen move, the engine held.
    fn show_reviewed_position(&mut self) {
        let Some(m) = self
            .review
            .review
            .as_ref()
            .and_then(|r| r.moves.get(self.review.selected))
        else {
            return;
        };
        let index = m.index;
        let better = m
            .best
            .and_then(|b| self.game.position_at(index).map(|board| board.san(b)));
        self.cancel_search();
        self.paused = true;
        self.review.browsing = true;
        self.game.goto(index);
        self.position_changed();
        let numbered = self.game.numbered_san(index).unwrap_or_default();
        self.info(format!(
            "before {numbered}{}: a move typed here replaces the game's later moves; Esc goes back",
            better
                .map(|b| format!(" (better: {b})"))
                .unwrap_or_default()
        ));
    }

    /// Esc/Backspace in the view: back to the end of the game, the view closed.
    pub(super) fn leave_review(&mut self) {
        self.review.visible = false;
        if self.review.browsing {
            self.review.browsing = false;
            self.paused = false;
            self.game.goto(self.game.len());
            self.position_changed();
        }
        self.message = None;
    }
}
