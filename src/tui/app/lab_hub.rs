//! The hub's side of the lab (`lab.rs` the part): starting it on the position, the view it is
//! shown in, and the background jobs' reports (the lab's and the review's) as they arrive.

use super::club::EngineJob;
use super::notice::JobEvent;
use super::{App, LogKind};
use crate::engine::jobs::lab::LabSettings;
use crate::tui::view::View;

impl App {
    // ---- the lab -------------------------------------------------------------------------

    /// `:lab [DEPTH]`: the lab on the position on the board, shown in the lab view.
    pub(super) fn start_lab(&mut self, depth: u32) -> Result<(), String> {
        if !self.engine_go(EngineJob::Lab(depth))? {
            return Ok(());
        }
        let mut settings = LabSettings::new(depth);
        settings.eval = self.prefs.eval();
        let board = self.play.game().board().clone();
        let id = self.jobs.next_id();
        self.lab.start(&board, settings, id, self.jobs.sink())?;
        self.screen.set_view(View::Lab);
        self.info(format!(
            "lab: depth {depth}, {} runs in the background (Esc stops)",
            self.lab.settings().map_or(0, |s| s.runs().len())
        ));
        Ok(())
    }

    pub(super) fn set_view(&mut self, view: View) {
        self.screen.set_view(view);
        self.info(format!("view: {} (F8 cycles)", view.name()));
    }

    /// A report from a background job (through the event channel, or the app's own queue).
    pub fn on_job_event(&mut self, ev: JobEvent) {
        match ev {
            JobEvent::Lab { id, progress } => self.lab.on_progress(id, &progress),
            JobEvent::LabEnded { id } => {
                if let Some(text) = self.lab.on_end(id) {
                    self.log_line(LogKind::Info, text.clone());
                    self.info(text);
                }
            }
            JobEvent::Review { id, progress } => {
                self.review.on_progress(id, *progress);
            }
            JobEvent::ReviewEnded { id } => {
                if self.review.is_job(id) {
                    self.finish_review();
                }
            }
        }
    }

    /// Waits for a running lab and takes its outcome (tests).
    pub fn wait_for_lab(&mut self) {
        if let Some(text) = self.lab.wait() {
            self.info(text);
        }
    }
}
