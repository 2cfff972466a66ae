//! How background jobs (the lab, the review) report to the app: as `JobEvent`s through the
//! same channel as keys and the engine, so the one loop (`tui::driver`) hands them to
//! `App::on_job_event` like any other event and nothing polls a shared slot. A job's
//! progress closure sends each report; a guard it carries sends the job's end when the
//! job's thread lets go of it, however the job ends (done, cancelled or failed).
//!
//! An app built without a sink (a test driving it by hand) keeps its own queue, which it
//! empties on each tick.

use std::sync::Arc;
use std::sync::mpsc;

use crate::engine::jobs::{LabProgress, ReviewProgress};

/// A report from a background job, tagged with the id the app gave the job (a newer job
/// makes an older one's reports stale).
#[derive(Clone, Debug)]
pub enum JobEvent {
    Lab {
        id: u64,
        progress: Box<LabProgress>,
    },
    LabEnded {
        id: u64,
    },
    Review {
        id: u64,
        progress: Box<ReviewProgress>,
    },
    ReviewEnded {
        id: u64,
    },
}

/// Where jobs send their reports (the driver's channel).
pub type JobSink = Arc<dyn Fn(JobEvent) + Send + Sync>;

/// Sends its event when dropped: a job's progress closure carries one, so the job's end is
/// told when its thread ends.
pub(super) struct OnEnd {
    sink: JobSink,
    end: Option<JobEvent>,
}

impl OnEnd {
    pub(super) fn new(sink: JobSink, end: JobEvent) -> OnEnd {
        OnEnd {
            sink,
            end: Some(end),
        }
    }
}

impl Drop for OnEnd {
    fn drop(&mut self) {
        if let Some(end) = self.end.take() {
            (self.sink)(end);
        }
    }
}

/// The app's link to its jobs: the sink they report into, the ids handed out, and (without
/// a driver) the queue the reports wait in.
pub(super) struct Jobs {
    sink: JobSink,
    inbox: Option<mpsc::Receiver<JobEvent>>,
    last_id: u64,
}

impl Jobs {
    /// Reports go into the app's own queue, emptied on ticks.
    pub(super) fn own_queue() -> Jobs {
        let (tx, rx) = mpsc::channel();
        Jobs {
            sink: Arc::new(move |ev| {
                let _ = tx.send(ev);
            }),
            inbox: Some(rx),
            last_id: 0,
        }
    }

    /// Reports go to `sink` (the driver's channel).
    pub(super) fn into_sink(sink: JobSink) -> Jobs {
        Jobs {
            sink,
            inbox: None,
            last_id: 0,
        }
    }

    pub(super) fn sink(&self) -> JobSink {
        Arc::clone(&self.sink)
    }

    /// A fresh id for a job about to start.
    pub(super) fn next_id(&mut self) -> u64 {
        self.last_id += 1;
        self.last_id
    }

    /// The reports waiting in the app's own queue (none when a driver gets them).
    pub(super) fn waiting(&self) -> Vec<JobEvent> {
        self.inbox
            .as_ref()
            .map(|rx| rx.try_iter().collect())
            .unwrap_or_default()
    }
}
