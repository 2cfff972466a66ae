//! The ordering lab: one position searched to the same depth under several ordering schemes
//! and search profiles, side by side (seed 004's experiment, repeatable for any position).
//!
//! Every run gets a fresh `Searcher` with the options `ox88 search` uses (the book off, the
//! default table), so a run's nodes, best move and score are exactly those of
//! `ox88 search --depth N --order S --profile P` on the same position. A run stops at
//! `max_nodes` (then it is `capped`), so the weakest ordering at a large depth cannot keep
//! the lab busy for an hour.
//!
//! ```no_run
//! use ox88::chess::Board;
//! use ox88::engine::jobs::{LabJob, LabSettings};
//!
//! let settings = LabSettings::new(6);
//! let job = LabJob::start(Board::startpos(), settings, |p| eprintln!("{}", p.fraction())).unwrap();
//! let outcome = job.wait();
//! println!("{}", outcome.table().join("\n"));
//! ```

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::CancelHandle;
use crate::chess::{Board, Move};
use crate::engine::eval::EvalConfig;
use crate::engine::order::Scheme;
use crate::engine::score::MATE;
use crate::engine::search::{Profile, SearchShared, Searcher};
use crate::engine::{Bound, Limits, Score, SearchEvent, SearchOptions};

/// The node cap of a run when none is given: 50 million.
pub const DEFAULT_MAX_NODES: u64 = 50_000_000;

/// What the lab runs: every scheme under every profile, to one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct LabSettings {
    pub depth: u32,
    pub schemes: Vec<Scheme>,
    pub profiles: Vec<Profile>,
    pub max_nodes: u64,
    pub eval: EvalConfig,
}

impl LabSettings {
    /// Every scheme under both profiles to `depth`, capped at 50 million nodes a run.
    pub fn new(depth: u32) -> LabSettings {
        LabSettings {
            depth,
            schemes: Scheme::ALL.to_vec(),
            profiles: vec![Profile::Seed, Profile::Full],
            max_nodes: DEFAULT_MAX_NODES,
            eval: EvalConfig::default(),
        }
    }

    /// The runs in order: profile by profile, scheme by scheme.
    pub fn runs(&self) -> Vec<(Scheme, Profile)> {
        self.profiles
            .iter()
            .flat_map(|&p| self.schemes.iter().map(move |&s| (s, p)))
            .collect()
    }

    /// The options of one run: those of `ox88 search` (book off, default table).
    pub fn options(&self, scheme: Scheme, profile: Profile) -> SearchOptions {
        SearchOptions {
            scheme,
            profile,
            eval: self.eval,
            own_book: false,
            ..SearchOptions::default()
        }
    }

    pub fn limits(&self) -> Limits {
        Limits {
            depth: Some(self.depth),
            nodes: Some(self.max_nodes),
            ..Limits::default()
        }
    }
}

/// A comma-separated list of names (`none,mvvlva`), each parsed by `parse`; empty items and
/// repeats are refused with a message naming them.
pub fn parse_list<T: PartialEq>(
    text: &str,
    what: &str,
    parse: impl Fn(&str) -> Result<T, String>,
) -> Result<Vec<T>, String> {
    let mut out = Vec::new();
    for item in text.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(format!("an empty {what} in '{text}'"));
        }
        let v = parse(item)?;
        if out.contains(&v) {
            return Err(format!("{item}: named twice in '{text}'"));
        }
        out.push(v);
    }
    Ok(out)
}

/// One run of the lab.
#[derive(Clone, Debug, PartialEq)]
pub struct LabRun {
    pub scheme: Scheme,
    pub profile: Profile,
    /// The deepest iteration that finished (the requested depth unless capped).
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// Of the nodes that failed high, the fraction that did on their first move (0..1).
    pub first_cut: f64,
    /// The average 0-based index of the move that cut.
    pub avg_cut_index: f64,
    /// The effective branching factor: nodes through the last finished depth over nodes
    /// through the one before (0: unknown).
    pub ebf: f64,
    pub best: Option<Move>,
    /// For the side to move.
    pub score: Score,
    /// Stopped at the node cap before the requested depth finished.
    pub capped: bool,
}

impl LabRun {
    pub fn nps(&self) -> u64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }

    /// The score as a number of centipawns; a mate in `n` plies is `±(32000 − n)`, as the
    /// search counts it internally.
    pub fn score_cp(&self) -> i32 {
        score_cp(self.score)
    }

    /// The run as one JSON object with the keys `ox88 lab --json` promises.
    pub fn to_json(&self, requested_depth: u32) -> serde_json::Value {
        serde_json::json!({
            "scheme": self.scheme.to_string(),
            "profile": self.profile.to_string(),
            "depth": requested_depth,
            "nodes": self.nodes,
            "time_ms": self.time.as_millis() as u64,
            "first_cut": self.first_cut,
            "avg_cut_index": self.avg_cut_index,
            "ebf": self.ebf,
            "best": self.best.map(|m| m.to_string()),
            "score": self.score_cp(),
            "capped": self.capped,
        })
    }
}

/// Centipawns for a `Score`; mates as the search's internal `±(MATE − plies)`.
pub fn score_cp(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -(MATE + 2 * n),
    }
}

/// Sent after every finished iteration of a run and after every run.
#[derive(Clone, Debug, PartialEq)]
pub struct LabProgress {
    /// Runs finished.
    pub done: usize,
    pub total: usize,
    /// The run under way and its deepest finished iteration (`None` between runs).
    pub current: Option<(Scheme, Profile, u32)>,
    pub depth: u32,
    /// The run that just finished, if this report is about one.
    pub finished: Option<LabRun>,
    pub elapsed: Duration,
}

impl LabProgress {
    /// How far the lab is, 0..1: finished runs plus the part of the current one its depth
    /// says (a rough share: deeper iterations cost more).
    pub fn fraction(&self) -> f64 {
        if self.total == 0 {
            return 1.0;
        }
        let part = match self.current {
            Some((_, _, d)) if self.depth > 0 => d as f64 / self.depth as f64,
            _ => 0.0,
        };
        ((self.done as f64 + part) / self.total as f64).min(1.0)
    }
}

/// What the lab did: the runs finished, in order (all, or a prefix when cancelled).
#[derive(Clone, Debug, PartialEq)]
pub struct LabOutcome {
    pub runs: Vec<LabRun>,
    pub total: usize,
    pub depth: u32,
    pub max_nodes: u64,
    pub cancelled: bool,
    pub error: Option<String>,
    pub elapsed: Duration,
}

impl LabOutcome {
    /// The run that needed the fewest nodes to reach the depth (capped runs do not count).
    pub fn best_index(&self) -> Option<usize> {
        self.runs
            .iter()
            .enumerate()
            .filter(|(_, r)| !r.capped)
            .min_by_key(|(_, r)| r.nodes)
            .map(|(i, _)| i)
    }

    /// The runs as one JSON array (`ox88 lab --json`).
    pub fn to_json(&self) -> String {
        let runs: Vec<serde_json::Value> =
            self.runs.iter().map(|r| r.to_json(self.depth)).collect();
        serde_json::Value::Array(runs).to_string()
    }

    /// A text table, a header line and one line per run; the best run is marked `*`.
    pub fn table(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{:<10} {:<7} {:>12} {:>8} {:>10} {:>7} {:>7} {:>5} {:<6} {:>7}",
            "scheme",
            "profile",
            "nodes",
            "time",
            "n/s",
            "1st cut",
            "cut idx",
            "EBF",
            "best",
            "score"
        )];
        let best = self.best_index();
        for (i, r) in self.runs.iter().enumerate() {
            let row = table_row(r, self.max_nodes);
            let mark = if Some(i) == best { " *" } else { "" };
            lines.push(format!(
                "{:<10} {:<7} {:>12} {:>8} {:>10} {:>7} {:>7} {:>5} {:<6} {:>7}{mark}",
                row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]
            ));
        }
        lines
    }
}

/// The cells of a run's row: scheme, profile, nodes (`> N` when capped), time, n/s, first-cut
/// rate, average cut index, EBF, best move, score.
pub fn table_row(r: &LabRun, max_nodes: u64) -> [String; 10] {
    let nodes = if r.capped {
        format!("> {max_nodes}")
    } else {
        r.nodes.to_string()
    };
    [
        r.scheme.to_string(),
        r.profile.to_string(),
        nodes,
        format!("{:.2}s", r.time.as_secs_f64()),
        r.nps().to_string(),
        format!("{:.1}%", r.first_cut * 100.0),
        format!("{:.2}", r.avg_cut_index),
        if r.ebf > 0.0 {
            format!("{:.2}", r.ebf)
        } else {
            "-".to_string()
        },
        r.best.map(|m| m.to_string()).unwrap_or_else(|| "-".into()),
        r.score.to_string(),
    ]
}

/// Why the lab cannot run on a position or with settings.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabError {
    #[error("the position has no legal move: nothing to search")]
    NoLegalMove,
    #[error("depth {0}: the lab searches to a depth from 1 to {max}", max = crate::engine::MAX_DEPTH)]
    Depth(u32),
    #[error("nothing to run: name at least one scheme and one profile")]
    NoRuns,
    #[error("--max-nodes must be at least 1")]
    MaxNodes,
}

/// Checks what `start` would refuse, so a front end can say it before starting.
pub fn check(board: &Board, settings: &LabSettings) -> Result<(), LabError> {
    if !(1..=crate::engine::MAX_DEPTH).contains(&settings.depth) {
        return Err(LabError::Depth(settings.depth));
    }
    if settings.schemes.is_empty() || settings.profiles.is_empty() {
        return Err(LabError::NoRuns);
    }
    if settings.max_nodes == 0 {
        return Err(LabError::MaxNodes);
    }
    if !board.has_legal_move() {
        return Err(LabError::NoLegalMove);
    }
    Ok(())
}

/// One run on a fresh searcher sharing `shared` (whose `stop_all` cancels it). `None` when
/// cancelled before it finished. `on_iteration` gets the depth of each finished iteration.
pub fn run_one(
    board: &Board,
    settings: &LabSettings,
    scheme: Scheme,
    profile: Profile,
    shared: &Arc<SearchShared>,
    cancel: &CancelHandle,
    on_iteration: &mut dyn FnMut(u32),
) -> Option<LabRun> {
    let mut searcher = Searcher::new(Arc::clone(shared));
    // Cumulative nodes at the end of each finished iteration, by depth.
    let mut finished: Vec<(u32, u64)> = Vec::new();
    let options = settings.options(scheme, profile);
    let result = searcher.search_sync(board, &settings.limits(), &options, &mut |ev| {
        if cancel.is_cancelled() {
            shared.stop_all();
        }
        if let SearchEvent::Iteration { info, .. } = ev
            && info.multipv == 1
            && info.bound == Bound::Exact
        {
            match finished.last_mut() {
                Some(last) if last.0 == info.depth => last.1 = info.nodes,
                _ => finished.push((info.depth, info.nodes)),
            }
            on_iteration(info.depth);
        }
    });
    if cancel.is_cancelled() {
        return None;
    }
    let reached = finished.last().map_or(0, |f| f.0);
    // Nodes through the last depth over nodes through the one before (as the search's own
    // iterations report it): what the last ply cost, never below 1.
    let ebf = match finished.as_slice() {
        [.., (_, b), (_, c)] if *b > 0 => *c as f64 / *b as f64,
        _ => 0.0,
    };
    Some(LabRun {
        scheme,
        profile,
        depth: reached,
        nodes: result.stats.nodes,
        time: result.time,
        first_cut: result.stats.first_move_cutoff(),
        avg_cut_index: result.stats.avg_cut_index(),
        ebf,
        best: result.best,
        score: result.score,
        capped: reached < settings.depth,
    })
}

/// Runs the whole lab on the calling thread (the job's thread runs this).
pub fn run_all(
    board: &Board,
    settings: &LabSettings,
    shared: &Arc<SearchShared>,
    cancel: &CancelHandle,
    on_progress: &mut dyn FnMut(&LabProgress),
    done: &Mutex<Vec<LabRun>>,
) -> LabOutcome {
    let start = Instant::now();
    let plan = settings.runs();
    let total = plan.len();
    let mut cancelled = false;
    for (i, &(scheme, profile)) in plan.iter().enumerate() {
        if cancel.is_cancelled() {
            cancelled = true;
            break;
        }
        let report = |d: u32| LabProgress {
            done: i,
            total,
            current: Some((scheme, profile, d)),
            depth: settings.depth,
            finished: None,
            elapsed: start.elapsed(),
        };
        on_progress(&report(0));
        let run = run_one(board, settings, scheme, profile, shared, cancel, &mut |d| {
            on_progress(&report(d))
        });
        let Some(run) = run else {
            cancelled = true;
            break;
        };
        done.lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(run.clone());
        on_progress(&LabProgress {
            done: i + 1,
            total,
            current: None,
            depth: settings.depth,
            finished: Some(run),
            elapsed: start.elapsed(),
        });
    }
    let runs = std::mem::take(&mut *done.lock().unwrap_or_else(|e| e.into_inner()));
    LabOutcome {
        runs,
        total,
        depth: settings.depth,
        max_nodes: settings.max_nodes,
        cancelled,
        error: None,
        elapsed: start.elapsed(),
    }
}

/// The lab running on its own thread.
pub struct LabJob {
    thread: JoinHandle<LabOutcome>,
    cancel: CancelHandle,
    shared: Arc<SearchShared>,
    done: Arc<Mutex<Vec<LabRun>>>,
    settings: LabSettings,
    total: usize,
    started: Instant,
}

impl LabJob {
    /// Checks the position and settings, then starts the runs and returns at once.
    /// `on_progress` runs on the job's thread.
    pub fn start(
        board: Board,
        settings: LabSettings,
        mut on_progress: impl FnMut(&LabProgress) + Send + 'static,
    ) -> Result<LabJob, LabStartError> {
        check(&board, &settings)?;
        let cancel = CancelHandle::new();
        let shared = Arc::new(SearchShared::default());
        let done = Arc::new(Mutex::new(Vec::new()));
        let total = settings.runs().len();
        let thread = {
            let (cancel, shared, done, settings) = (
                cancel.clone(),
                Arc::clone(&shared),
                Arc::clone(&done),
                settings.clone(),
            );
            std::thread::Builder::new()
                .name("ox88-lab".to_string())
                .spawn(move || {
                    crate::engine::priority::on_engine_thread();
                    run_all(&board, &settings, &shared, &cancel, &mut on_progress, &done)
                })?
        };
        Ok(LabJob {
            thread,
            cancel,
            shared,
            done,
            settings,
            total,
            started: Instant::now(),
        })
    }

    pub fn settings(&self) -> &LabSettings {
        &self.settings
    }

    /// Stops the run under way at once (its search is told to stop) and skips the rest.
    pub fn cancel(&self) {
        self.cancel.cancel();
        self.shared.stop_all();
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// The runs finished so far (a copy), while the job runs.
    pub fn runs_so_far(&self) -> Vec<LabRun> {
        self.done.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Waits for the job to end and returns what it ran.
    pub fn wait(self) -> LabOutcome {
        match self.thread.join() {
            Ok(outcome) => outcome,
            Err(panic) => {
                let why = crate::engine::facade::panic_text(&*panic);
                let runs =
                    std::mem::take(&mut *self.done.lock().unwrap_or_else(|e| e.into_inner()));
                LabOutcome {
                    runs,
                    total: self.total,
                    depth: self.settings.depth,
                    max_nodes: self.settings.max_nodes,
                    cancelled: self.cancel.is_cancelled(),
                    error: Some(format!("the lab stopped: {why}")),
                    elapsed: self.started.elapsed(),
                }
            }
        }
    }
}

/// Why the lab did not start.
#[derive(Debug, thiserror::Error)]
pub enum LabStartError {
    #[error(transparent)]
    Refused(#[from] LabError),
    #[error("cannot start the lab's thread: {0}")]
    Thread(#[from] std::io::Error),
}
