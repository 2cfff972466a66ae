//! The lab view's state: the ordering lab (`crate::engine::jobs::lab`) running in the
//! background for the position on the board, its progress, and its table once done. The
//! job never touches the app: its progress callback writes into a shared slot the app reads
//! on its ticks (`poll`), as gitui's jobs notify and the UI pulls.

use std::sync::Arc;

use super::notice::{JobEvent, JobSink, OnEnd};
use crate::chess::Board;
use crate::engine::jobs::lab::{LabJob, LabOutcome, LabProgress, LabRun, LabSettings};

/// The lab as the TUI runs it.
#[derive(Default)]
pub struct LabView {
    job: Option<LabJob>,
    /// The running job's id: reports of any other are stale.
    id: u64,
    /// The settings of the lab shown (running or done).
    settings: Option<LabSettings>,
    /// The position's FEN, for the title.
    fen: String,
    /// The runs finished so far (all of them once done).
    runs: Vec<LabRun>,
    /// 0..1 while running.
    fraction: f64,
    /// What is running now: `none/seed d5`.
    current: Option<String>,
    /// The last finished lab.
    outcome: Option<LabOutcome>,
}

/// A lab left running when its app goes (quit, a dropped SSH session) is stopped, so its
/// thread does not go on searching for nobody.
impl Drop for LabView {
    fn drop(&mut self) {
        self.cancel();
    }
}

impl LabView {
    /// The settings of the lab shown (running or done).
    pub fn settings(&self) -> Option<&LabSettings> {
        self.settings.as_ref()
    }

    /// The position's FEN, for the title.
    pub fn fen(&self) -> &str {
        &self.fen
    }

    /// The runs finished so far (all of them once done).
    pub fn runs(&self) -> &[LabRun] {
        &self.runs
    }

    /// 0..1 while running.
    pub fn fraction(&self) -> f64 {
        self.fraction
    }

    /// What is running now: `none/seed d5`.
    pub fn current(&self) -> Option<&str> {
        self.current.as_deref()
    }

    /// The last finished lab.
    pub fn outcome(&self) -> Option<&LabOutcome> {
        self.outcome.as_ref()
    }

    pub fn is_running(&self) -> bool {
        self.job.is_some()
    }

    /// Starts the lab on `board` as job `id`, reporting into `sink`; a running one is
    /// cancelled first. An error says why nothing started (the view is left as it was).
    pub fn start(
        &mut self,
        board: &Board,
        settings: LabSettings,
        id: u64,
        sink: JobSink,
    ) -> Result<(), String> {
        let end = OnEnd::new(Arc::clone(&sink), JobEvent::LabEnded { id });
        let job = LabJob::start(board.clone(), settings.clone(), move |p| {
            let _keep_until_the_job_ends = &end;
            sink(JobEvent::Lab {
                id,
                progress: Box::new(p.clone()),
            });
        })
        .map_err(|e| e.to_string())?;
        self.cancel();
        self.job = Some(job);
        self.id = id;
        self.settings = Some(settings);
        self.fen = board.to_fen();
        self.runs.clear();
        self.fraction = 0.0;
        self.current = None;
        self.outcome = None;
        Ok(())
    }

    /// Asks the running lab to stop; true if one was running. Its outcome (the runs that
    /// finished) arrives through `poll` or `wait`.
    pub fn cancel(&mut self) -> bool {
        match &self.job {
            Some(job) => {
                job.cancel();
                true
            }
            None => false,
        }
    }

    /// A report of job `id`: how far it got, the run it finished.
    pub fn on_progress(&mut self, id: u64, p: &LabProgress) {
        if id != self.id || self.job.is_none() {
            return;
        }
        self.fraction = p.fraction();
        self.current = p.current.map(|(s, pr, d)| format!("{s}/{pr} d{d}"));
        if let Some(run) = &p.finished {
            self.runs.push(run.clone());
        }
    }

    /// Job `id` ended: its outcome taken, a line to tell the user returned.
    pub fn on_end(&mut self, id: u64) -> Option<String> {
        if id != self.id {
            return None;
        }
        self.job.take().map(|job| self.finish(job.wait()))
    }

    /// Waits for the running lab to end (tests and quitting).
    pub fn wait(&mut self) -> Option<String> {
        self.job.take().map(|job| self.finish(job.wait()))
    }

    fn finish(&mut self, outcome: LabOutcome) -> String {
        self.runs = outcome.runs.clone();
        self.fraction = 1.0;
        self.current = None;
        let text = match (&outcome.error, outcome.cancelled) {
            (Some(e), _) => format!("lab: {e}"),
            (None, true) => format!(
                "lab cancelled after {} of {} runs",
                outcome.runs.len(),
                outcome.total
            ),
            (None, false) => format!(
                "lab done: {} runs in {:.1} s",
                outcome.runs.len(),
                outcome.elapsed.as_secs_f64()
            ),
        };
        self.outcome = Some(outcome);
        text
    }

    /// The run with the fewest nodes that reached the depth.
    pub fn best_index(&self) -> Option<usize> {
        self.runs
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.capped)
            .min_by_key(|(_, r)| r.nodes)
            .map(|(i, _)| i)
    }
}
