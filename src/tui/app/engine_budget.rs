//! The hub's side of the server's engine budget (club/budget.rs): a search asked for in
//! the club waits for a share of the server's engine, saying so on the status line, starts
//! when its turn comes, gives its share back when it is over, and (an analysis) waits again
//! when a search that ends needs its share. Outside the club every search runs at once.

use super::App;
use super::club::EngineJob;
use crate::club::budget::Turn;

impl App {
    /// Asks for a share of the engine for `job`: `Ok(true)`, search now; `Ok(false)`, it
    /// waits its turn (said on the status line, started when it comes); `Err`, refused
    /// (the member's own game goes on).
    pub(super) fn engine_go(&mut self, job: EngineJob) -> Result<bool, String> {
        match self.club.engine_ask(job)? {
            Turn::Running | Turn::Idle => Ok(true),
            turn @ Turn::Queued { .. } => {
                if let Some(text) = turn.describe() {
                    self.info(text);
                }
                Ok(false)
            }
        }
    }

    /// The club woke this viewer: a waiting search whose turn came starts, one still
    /// waiting says how many are ahead, and a running analysis asked to yield to a search
    /// that ends stops and waits again (it resumes when a share is free).
    pub(super) fn engine_budget_changed(&mut self) {
        if !self.club.engine_holding() && self.club.engine_waiting().is_none() {
            return;
        }
        let turn = self.club.engine_turn();
        match (self.club.engine_waiting(), turn) {
            (Some(job), Turn::Running) => self.run_engine_job(job),
            (Some(_), Turn::Queued { .. }) => {
                if let Some(text) = turn.describe() {
                    self.info(text);
                }
            }
            (Some(_), Turn::Idle) => self.club.engine_done(),
            (None, Turn::Queued { .. }) => {
                // Paused: only an analysis yields its share.
                if self.session.search().is_some_and(|s| s.analysis) {
                    self.session.cancel();
                }
                self.club
                    .engine_paused(EngineJob::Search { analysis: true });
                if let Some(text) = turn.describe() {
                    self.info(format!("analysis paused for a search that ends; {text}"));
                }
            }
            (None, _) => {}
        }
    }

    /// Every tick: a share held by a search that is over (played, stopped, the lab or the
    /// review done or cancelled) is given back for the next in the queue.
    pub(super) fn engine_budget_tick(&mut self) {
        if self.club.engine_holding()
            && !self.session.is_searching()
            && !self.lab.is_running()
            && !self.review.is_running()
        {
            self.club.engine_done();
        }
    }

    fn run_engine_job(&mut self, job: EngineJob) {
        match job {
            EngineJob::Search { analysis } => self.start_search(analysis),
            EngineJob::Hint => self.hint_command(),
            EngineJob::Lab(depth) => {
                if let Err(e) = self.start_lab(depth) {
                    self.error(e);
                }
            }
            EngineJob::Review(depth) => {
                if let Err(e) = self.start_review(depth) {
                    self.error(e);
                }
            }
        }
    }
}
