//! How the operating system weighs the engine's threads against the rest of the program.
//!
//! In the terminal the engine is what the person is waiting for, and its threads run at the
//! program's own priority. On a server (`ox88 serve`) the same searches — games against the
//! engine, hints, analyses, the lab, reviews — share the processor with every session's
//! input and screens, and a move played between two people must reach the other's screen
//! without waiting behind a search. There the server asks, once at start-up, for searches in
//! the background: every engine thread started afterwards lowers its own scheduling
//! priority to the lowest (Linux's `SCHED_IDLE` policy, and nice 19 where the policy is
//! refused; per thread), so a search takes whatever processor time the sessions leave and
//! no more. `SCHED_IDLE` rather than nice alone because the scheduler counts a core that
//! runs only idle-policy threads as free when it wakes a session: the session runs at once
//! rather than queueing behind a search until the balancer moves it. How many searches run
//! at once is the server's engine budget (`club/budget.rs`); this is only who goes first on
//! a busy core.
//! Threads a search thread starts (Lazy SMP helpers) inherit its priority.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether engine threads run in the background (set once by a server).
static BACKGROUND: AtomicBool = AtomicBool::new(false);

/// The lowest scheduling priority (the highest nice value).
#[cfg(target_os = "linux")]
const LOWEST: i32 = 19;

/// Engine threads started from now on yield the processor to the rest of the program.
pub fn run_searches_in_background() {
    BACKGROUND.store(true, Ordering::Relaxed);
}

/// Do engine threads run in the background?
pub fn searches_in_background() -> bool {
    BACKGROUND.load(Ordering::Relaxed)
}

/// Called first thing on every thread that runs a search or an engine job: lowers this
/// thread's priority when searches run in the background. Where the system does not allow
/// it (or is not Linux) the thread keeps its priority; nothing else changes.
pub(crate) fn on_engine_thread() {
    if searches_in_background() {
        lower_this_thread();
    }
}

#[cfg(target_os = "linux")]
fn lower_this_thread() {
    use thread_priority::unix::{
        NormalThreadSchedulePolicy, ThreadSchedulePolicy, set_thread_priority_and_policy,
        thread_native_id,
    };
    // SCHED_IDLE first: the scheduler treats a core that runs only such threads as idle when
    // it places a waking thread, so a session woken by a move runs at once on the core a
    // search holds instead of waiting for the balancer. Nice 19 is kept for kernels (or
    // containers) that refuse the policy.
    let _ = set_thread_priority_and_policy(
        thread_native_id(),
        thread_priority::ThreadPriority::Min,
        ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle),
    );
    // On Linux a thread id names that thread alone for `setpriority`.
    let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), LOWEST);
}

#[cfg(not(target_os = "linux"))]
fn lower_this_thread() {}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use thread_priority::unix::{
        NormalThreadSchedulePolicy, ThreadSchedulePolicy, thread_schedule_policy,
    };

    #[test]
    fn a_thread_lowered_runs_at_the_lowest_priority_and_others_keep_theirs() {
        let before = rustix::process::getpriority_process(None).unwrap();
        let lowered = std::thread::spawn(|| {
            lower_this_thread();
            (
                rustix::process::getpriority_process(Some(rustix::thread::gettid())).unwrap(),
                thread_schedule_policy().unwrap(),
            )
        })
        .join()
        .unwrap();
        assert_eq!(lowered.0, LOWEST);
        assert_eq!(
            lowered.1,
            ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle)
        );
        // The process (its main thread) is untouched.
        assert_eq!(rustix::process::getpriority_process(None).unwrap(), before);
    }
}
