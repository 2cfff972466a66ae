//! The server's engine budget: how many searches run at once over the whole server
//! (`ox88 serve --engine-threads N`), and who waits for a share of it.
//!
//! A plain value, kept by the club's owner beside the fair-play gate, so one place answers
//! "may this member search now, and when". Every search a session asks for is one job:
//! a session holds one at a time (asking again replaces its job, running or queued, as a
//! new search replaces the old one on the screen). A job either ends by itself
//! ([`JobKind::Ends`]: a move, a hint, the lab, a review) or runs on until stopped
//! ([`JobKind::RunsOn`]: analysis, a watched game's analysis). Jobs start in the order they
//! asked (first come, first served); a job that ends takes the share of one that runs on
//! when none is free: the running-on job is paused (back at the head of the queue) and
//! resumes when a share is free again. So a long analysis never keeps a member's move, the
//! lab or a review waiting, and a move never waits behind an analysis. The club's bots
//! ([`JobKind::Bot`]: the engine seated as a member, playing a game under a clock) come
//! before everyone: a bot's move takes the share of an analysis when none is free, and
//! otherwise waits at the head of the queue, behind other bots' moves only, so a game
//! against a bot never stalls behind a lab run. Nothing here knows
//! the time: every outcome follows from the order of the calls, so the rules are tested
//! without threads or clocks.

use std::collections::VecDeque;

/// How a job ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// It ends by itself: a move to play, a hint, the lab, a review.
    Ends,
    /// It runs until stopped: analysis. It yields its share to a job that ends.
    RunsOn,
    /// A bot's move in a game under a clock: ends by itself, and goes before every other
    /// job (see the module's notes).
    Bot,
}

impl JobKind {
    /// Jobs that end take the share of one that runs on when none is free.
    fn ends(self) -> bool {
        matches!(self, JobKind::Ends | JobKind::Bot)
    }
}

/// Where a session's job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// It has a share: it may search.
    Running,
    /// It waits, with this many jobs before it.
    Queued { ahead: usize },
    /// The session has no job.
    Idle,
}

impl Turn {
    /// What the status line says of a waiting job.
    pub fn describe(self) -> Option<String> {
        match self {
            Turn::Queued { ahead } => Some(format!(
                "queued: {ahead} ahead (the server runs a few searches at once; yours starts \
                 when a share is free)"
            )),
            Turn::Running | Turn::Idle => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Job {
    session: u64,
    kind: JobKind,
}

/// The server's shares of the engine and the jobs holding or waiting for them.
#[derive(Debug)]
pub struct Budget {
    shares: usize,
    running: Vec<Job>,
    queue: VecDeque<Job>,
}

impl Budget {
    /// A budget of `shares` searches at once (at least one).
    pub fn new(shares: usize) -> Budget {
        Budget {
            shares: shares.max(1),
            running: Vec::new(),
            queue: VecDeque::new(),
        }
    }

    /// The default share count: the machine's cores less one (left to the players' moves
    /// and the server's own work), at least one.
    pub fn default_shares() -> usize {
        std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .saturating_sub(1)
            .max(1)
    }

    pub fn shares(&self) -> usize {
        self.shares
    }

    /// Session `session` asks for a job of `kind`, replacing any job it had. Returns where
    /// its job stands and the sessions whose turn changed (started, paused, moved up).
    pub fn ask(&mut self, session: u64, kind: JobKind) -> (Turn, Vec<u64>) {
        // A running session's new search keeps its share (a move after a move, a new
        // position to analyse): it is the same session's one job, replaced.
        if let Some(job) = self.running.iter_mut().find(|j| j.session == session) {
            job.kind = kind;
            return (Turn::Running, Vec::new());
        }
        let mut changed = self.drop_job(session);
        let job = Job { session, kind };
        if self.running.len() < self.shares && self.queue.is_empty() {
            self.running.push(job);
        } else if kind.ends()
            && let Some(at) = self.running.iter().position(|j| j.kind == JobKind::RunsOn)
        {
            // The analysis yields: it waits at the head of the queue for the next share
            // (behind the bots' moves only).
            let paused = self.running.remove(at);
            let head = self.bots_queued();
            self.queue.insert(head, paused);
            self.running.push(job);
            changed.push(paused.session);
        } else if kind == JobKind::Bot {
            // Ahead of every job but the bots' moves that asked before it.
            let head = self.bots_queued();
            self.queue.insert(head, job);
            changed.extend(self.queue.iter().skip(head + 1).map(|j| j.session));
        } else {
            self.queue.push_back(job);
        }
        changed.extend(self.fill());
        changed.retain(|&s| s != session);
        changed.sort_unstable();
        changed.dedup();
        (self.turn(session), changed)
    }

    /// Session `session`'s job is over (ended, stopped, or the session left): its share
    /// goes to the next. The sessions whose turn changed.
    pub fn done(&mut self, session: u64) -> Vec<u64> {
        let mut changed = self.drop_job(session);
        changed.extend(self.fill());
        changed.retain(|&s| s != session);
        changed.sort_unstable();
        changed.dedup();
        changed
    }

    /// Where session `session`'s job stands.
    pub fn turn(&self, session: u64) -> Turn {
        if self.running.iter().any(|j| j.session == session) {
            return Turn::Running;
        }
        match self.queue.iter().position(|j| j.session == session) {
            // A freed share goes to the head of the queue: those before it are all it
            // waits for.
            Some(at) => Turn::Queued { ahead: at },
            None => Turn::Idle,
        }
    }

    /// How many bots' moves wait at the head of the queue.
    fn bots_queued(&self) -> usize {
        self.queue
            .iter()
            .take_while(|j| j.kind == JobKind::Bot)
            .count()
    }

    /// Removes `session`'s job; the queued sessions behind it move up (they are changed).
    fn drop_job(&mut self, session: u64) -> Vec<u64> {
        if let Some(at) = self.running.iter().position(|j| j.session == session) {
            self.running.remove(at);
            return Vec::new();
        }
        match self.queue.iter().position(|j| j.session == session) {
            Some(at) => {
                self.queue.remove(at);
                self.queue.iter().skip(at).map(|j| j.session).collect()
            }
            None => Vec::new(),
        }
    }

    /// Free shares go to the queue's head, in order; every queued session is changed when
    /// any starts (its count moves).
    fn fill(&mut self) -> Vec<u64> {
        let mut started = false;
        while self.running.len() < self.shares
            && let Some(job) = self.queue.pop_front()
        {
            self.running.push(job);
            started = true;
        }
        if !started {
            return Vec::new();
        }
        self.running
            .iter()
            .chain(self.queue.iter())
            .map(|j| j.session)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_start_in_the_order_they_asked() {
        let mut b = Budget::new(1);
        assert_eq!(b.ask(1, JobKind::Ends).0, Turn::Running);
        assert_eq!(b.ask(2, JobKind::Ends).0, Turn::Queued { ahead: 0 });
        assert_eq!(b.ask(3, JobKind::Ends).0, Turn::Queued { ahead: 1 });
        assert_eq!(b.ask(4, JobKind::RunsOn).0, Turn::Queued { ahead: 2 });
        let changed = b.done(1);
        assert_eq!(changed, vec![2, 3, 4], "the one started and those moved up");
        assert_eq!(b.turn(2), Turn::Running);
        assert_eq!(b.turn(3), Turn::Queued { ahead: 0 });
        b.done(2);
        assert_eq!(b.turn(3), Turn::Running);
        assert_eq!(b.turn(4), Turn::Queued { ahead: 0 });
        b.done(3);
        assert_eq!(b.turn(4), Turn::Running);
        assert_eq!(b.turn(1), Turn::Idle);
    }

    #[test]
    fn a_session_holds_one_job_and_asking_again_replaces_it() {
        let mut b = Budget::new(2);
        b.ask(1, JobKind::RunsOn);
        b.ask(1, JobKind::Ends);
        b.ask(1, JobKind::Ends);
        assert_eq!(b.turn(1), Turn::Running);
        // One share is still free: session 1 holds one job, not three.
        assert_eq!(b.ask(2, JobKind::Ends).0, Turn::Running);
        assert_eq!(b.ask(3, JobKind::Ends).0, Turn::Queued { ahead: 0 });
        // Asking again while queued goes to the back, behind those who came since.
        assert_eq!(b.ask(4, JobKind::Ends).0, Turn::Queued { ahead: 1 });
        let (turn, changed) = b.ask(3, JobKind::Ends);
        assert_eq!(turn, Turn::Queued { ahead: 1 });
        assert_eq!(b.turn(4), Turn::Queued { ahead: 0 });
        assert!(
            changed.contains(&4),
            "the one moved up is told: {changed:?}"
        );
    }

    #[test]
    fn a_job_that_ends_pauses_an_analysis_which_resumes_after() {
        let mut b = Budget::new(1);
        assert_eq!(b.ask(1, JobKind::RunsOn).0, Turn::Running);
        let (turn, changed) = b.ask(2, JobKind::Ends);
        assert_eq!(
            turn,
            Turn::Running,
            "the move does not wait for the analysis"
        );
        assert_eq!(changed, vec![1], "the analysis is told it yields");
        assert_eq!(b.turn(1), Turn::Queued { ahead: 0 });
        // A third job that ends waits behind the paused analysis: first come, first served.
        assert_eq!(b.ask(3, JobKind::Ends).0, Turn::Queued { ahead: 1 });
        assert_eq!(b.done(2), vec![1, 3]);
        assert_eq!(b.turn(1), Turn::Running, "the analysis resumes");
        // ... and yields again to the waiting job only when one asks anew.
        assert_eq!(b.turn(3), Turn::Queued { ahead: 0 });
    }

    #[test]
    fn an_analysis_never_pauses_another_analysis() {
        let mut b = Budget::new(1);
        b.ask(1, JobKind::RunsOn);
        let (turn, changed) = b.ask(2, JobKind::RunsOn);
        assert_eq!(turn, Turn::Queued { ahead: 0 });
        assert!(changed.is_empty());
        assert_eq!(b.turn(1), Turn::Running);
    }

    #[test]
    fn a_session_that_leaves_gives_its_share_to_the_next() {
        let mut b = Budget::new(1);
        b.ask(1, JobKind::Ends);
        b.ask(2, JobKind::Ends);
        b.ask(3, JobKind::Ends);
        // The queued one leaving moves the one behind it up.
        assert_eq!(b.done(2), vec![3]);
        assert_eq!(b.turn(3), Turn::Queued { ahead: 0 });
        assert_eq!(b.done(1), vec![3]);
        assert_eq!(b.turn(3), Turn::Running);
        assert!(b.done(99).is_empty(), "an unknown session changes nothing");
    }

    #[test]
    fn a_bots_move_takes_an_analysis_share_and_otherwise_goes_first_in_the_queue() {
        let mut b = Budget::new(2);
        assert_eq!(b.ask(1, JobKind::RunsOn).0, Turn::Running);
        assert_eq!(b.ask(2, JobKind::Ends).0, Turn::Running);
        assert_eq!(b.ask(3, JobKind::RunsOn).0, Turn::Queued { ahead: 0 });
        // A bot's move: the analysis yields its share to it, and waits behind it (ahead of
        // the analysis that was waiting already, as when any job that ends pauses one).
        let (turn, changed) = b.ask(10, JobKind::Bot);
        assert_eq!(turn, Turn::Running);
        assert!(changed.contains(&1), "the analysis is told: {changed:?}");
        assert_eq!(b.turn(1), Turn::Queued { ahead: 0 });
        assert_eq!(b.turn(3), Turn::Queued { ahead: 1 });
        // All shares held by jobs that end: the next bot's move goes to the head of the
        // queue, ahead of the paused analysis and the one that asked first.
        let (turn, changed) = b.ask(11, JobKind::Bot);
        assert_eq!(turn, Turn::Queued { ahead: 0 });
        assert_eq!(changed, vec![1, 3], "those moved back are told");
        // A third bot waits behind the second only.
        assert_eq!(b.ask(12, JobKind::Bot).0, Turn::Queued { ahead: 1 });
        assert_eq!(b.turn(1), Turn::Queued { ahead: 2 });
        assert_eq!(b.turn(3), Turn::Queued { ahead: 3 });
        // A job that ends asking now waits behind them all; a bot's move never pauses
        // another job that ends.
        assert_eq!(b.ask(4, JobKind::Ends).0, Turn::Queued { ahead: 4 });
        assert_eq!(b.turn(2), Turn::Running);
        // Shares freed go to the bots first, then in order.
        b.done(2);
        assert_eq!(b.turn(11), Turn::Running);
        b.done(10);
        assert_eq!(b.turn(12), Turn::Running);
        b.done(11);
        assert_eq!(b.turn(1), Turn::Running, "the analysis resumes next");
        assert_eq!(b.turn(3), Turn::Queued { ahead: 0 });
    }

    #[test]
    fn the_queued_message_counts_those_ahead() {
        assert_eq!(Turn::Running.describe(), None);
        assert_eq!(Turn::Idle.describe(), None);
        let text = Turn::Queued { ahead: 2 }.describe().unwrap();
        assert!(text.starts_with("queued: 2 ahead"), "{text}");
        assert_eq!(Budget::new(0).shares(), 1, "at least one share");
        assert!(Budget::default_shares() >= 1);
    }
}
