//! The hub's side of the review (`review.rs` the part): starting it in the background,
//! cancelling it, what its end does to the game and the screen, and its keys while shown.

use std::sync::Arc;

use super::club::EngineJob;
use super::notice::{JobEvent, OnEnd};
use super::review::RunningReview;
use super::text::moves_text;
use super::{App, LogKind};
use crate::engine::jobs::{CancelHandle, ReviewDepth, ReviewJob, ReviewSettings};
use crate::game::annotate::{Review, review_positions, second_look_for};
use crate::tui::view::View;

impl App {
    // ---- the review ----------------------------------------------------------------------

    /// `:review [quick|deep]` (F4: quick): reviews the game in the background; Esc cancels,
    /// keeping what was done.
    pub fn start_review(&mut self, depth: ReviewDepth) -> Result<(), String> {
        if self.review.is_running() {
            return Err("a review is already running (Esc cancels it)".into());
        }
        // Fair play first: a member whose game goes on hears that, whatever is on the board.
        self.club.engine_allowed()?;
        if self.play.game().is_empty() {
            return Err("no moves to review yet".into());
        }
        if !self.engine_go(EngineJob::Review(depth))? {
            return Ok(());
        }
        // The review's own budget whatever the playing depth: a review at a beginner's depth
        // would mark good moves. A move about to be marked gets a second, deeper look.
        let mut settings = ReviewSettings::of_depth(depth).with_second_look(second_look_for(depth));
        let budget = format!("{}, {}", depth.name(), settings.budget());
        settings.options.eval = self.prefs.eval();
        settings.options.scheme = self.prefs.settings().order;
        settings.options.hash_mb = self.prefs.settings().hash_mb.min(settings.options.hash_mb);
        settings.options.syzygy = self.prefs.tables().search_options();
        let positions = review_positions(self.play.game());
        let total = positions.len();
        let cancel = CancelHandle::new();
        let id = self.jobs.next_id();
        let sink = self.jobs.sink();
        let end = OnEnd::new(Arc::clone(&sink), JobEvent::ReviewEnded { id });
        let job = ReviewJob::start_with_cancel(positions, settings, cancel.clone(), move |p| {
            let _keep_until_the_job_ends = &end;
            sink(JobEvent::Review {
                id,
                progress: Box::new(p.clone()),
            });
        })
        .map_err(|e| format!("cannot start the review: {e}"))?;
        self.review.begin(RunningReview {
            job: Some(job),
            cancel,
            id,
            progress: None,
            game_id: self.play.game().id().to_string(),
            game_len: self.play.game().len(),
            total,
            budget: budget.clone(),
        });
        self.log_line(
            LogKind::Info,
            format!("review: {total} positions, {budget} each"),
        );
        self.info(format!(
            "reviewing {} moves, {budget} a position (Esc cancels, keeping what is done)",
            self.play.game().len()
        ));
        Ok(())
    }

    /// Esc during a review: stop after the current position, keep what was analysed.
    pub fn cancel_review(&mut self) -> bool {
        let running = self.review.cancel();
        if running {
            self.info("review: stopping after this position");
        }
        running
    }

    /// The review job ended: its analysis becomes the review (marks into the game, the
    /// view opened).
    pub(super) fn finish_review(&mut self) {
        let Some(mut running) = self.review.take_running() else {
            return;
        };
        let Some(job) = running.job.take() else {
            return;
        };
        let outcome = job.wait();
        if let Some(e) = &outcome.error {
            self.log_line(LogKind::Error, format!("review: {e}"));
        }
        if self.play.game().id() != running.game_id || self.play.game().len() < running.game_len {
            self.error("review: the game changed while it ran; its result is dropped");
            return;
        }
        let review = Review::from_analysis_with_tables(
            self.play.game(),
            &outcome.positions,
            self.prefs.tables().tables(),
        );
        let annotator = format!("ox88 {} ({})", env!("CARGO_PKG_VERSION"), running.budget);
        let annotated = review.annotate(self.play.game(), &annotator);
        for (i, pm) in annotated
            .moves()
            .iter()
            .enumerate()
            .take(review.moves.len())
        {
            if let Err(e) = self
                .play
                .game_mut()
                .set_annotations(i, pm.annotations.clone())
            {
                self.log_line(LogKind::Error, format!("review: move {}: {e}", i + 1));
            }
        }
        self.save();
        let done = review.moves.len();
        let how = if review.is_complete() {
            format!("review of {} done", moves_text(done))
        } else {
            format!(
                "review stopped after {} of the game's {} (kept)",
                moves_text(done),
                moves_text(review.game_moves)
            )
        };
        self.log_line(LogKind::Info, how.clone());
        for side in [crate::chess::Color::White, crate::chess::Color::Black] {
            let line = format!("{:<5} {}", side.name(), review.side(side));
            self.log_line(LogKind::Info, line);
        }
        self.info(format!(
            "{how}: ↑/↓ choose, Enter shows the position, Esc goes back"
        ));
        let selected = review
            .moves
            .iter()
            .position(|m| m.judgement.is_some())
            .unwrap_or(0);
        self.keep_own_mistakes(&review);
        self.review.show(review, running.game_id, selected);
        // The review takes the log pane's place: a view that covers the log (the
        // evaluation, the chart, the lab on a small screen) gives way so it is seen.
        if self.screen.view() != View::Log {
            self.screen.set_view(View::Log);
        }
    }

    /// Keys while the review view is on screen and the input line is empty; false when the
    /// key is not the view's.
    pub(super) fn review_key(&mut self, code: crossterm::event::KeyCode) -> bool {
        use crossterm::event::KeyCode;
        let Some(n) = self
            .review
            .of_game(self.play.game().id())
            .map(|r| r.moves.len())
        else {
            // Another game is on the board now: the view closes.
            self.review.hide();
            return false;
        };
        match code {
            KeyCode::Up => self.review.select_next(true, n),
            KeyCode::Down => self.review.select_next(false, n),
            KeyCode::Enter if n > 0 => self.show_reviewed_position(),
            KeyCode::Esc | KeyCode::Backspace => self.leave_review(),
            _ => return false,
        }
        true
    }

    /// Shows the position before the chosen move, the engine held.
    fn show_reviewed_position(&mut self) {
        let Some(m) = self.review.chosen() else {
            return;
        };
        let index = m.index;
        let better = m.best.and_then(|b| {
            self.play
                .game()
                .position_at(index)
                .map(|board| board.san(b))
        });
        self.cancel_search();
        self.play.series_mut().pause();
        self.review.browse();
        self.play.game_mut().goto(index);
        self.position_changed();
        let numbered = self.play.game().numbered_san(index).unwrap_or_default();
        self.info(format!(
            "before {numbered}{}: a move typed here replaces the game's later moves; Esc goes back",
            better
                .map(|b| format!(" (better: {b})"))
                .unwrap_or_default()
        ));
    }

    /// Esc/Backspace in the view: back to the end of the game, the view closed.
    pub(super) fn leave_review(&mut self) {
        self.review.hide();
        if self.review.stop_browsing() {
            self.play.series_mut().resume();
            let end = self.play.game().len();
            self.play.game_mut().goto(end);
            self.position_changed();
        }
        self.screen.clear_message();
    }
}
