//! Engine against engine: the pause between moves and games, the engine's next start, the
//! pause Stop puts it in, and a series of games (`:games N`) with its next game's start.

use std::time::{Duration, Instant};

/// The engine-vs-engine timers and the series of games.
#[derive(Clone, Debug)]
pub struct Series {
    /// The pause between moves and between games.
    delay: Duration,
    /// The engine waits for this moment before its next search.
    next_engine_start: Option<Instant>,
    /// Paused by Stop (or while a review looks at the game).
    paused: bool,
    /// Games still to finish in this series (0: no series).
    games_to_play: u32,
    /// When the series' next game starts (after the delay).
    next_game_start: Option<Instant>,
}

impl Series {
    pub fn new(delay: Duration) -> Series {
        Series {
            delay,
            next_engine_start: None,
            paused: false,
            games_to_play: 0,
            next_game_start: None,
        }
    }

    /// The pause between moves and between games.
    pub fn delay(&self) -> Duration {
        self.delay
    }

    pub fn set_delay(&mut self, delay: Duration) {
        self.delay = delay;
    }

    /// When the engine starts its next search (after the delay).
    pub fn next_engine_start(&self) -> Option<Instant> {
        self.next_engine_start
    }

    /// When the series' next game starts (after the delay).
    pub fn next_game_start(&self) -> Option<Instant> {
        self.next_game_start
    }

    /// Paused by Stop (or while a review looks at the game).
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// Games still to finish in this series (0: no series).
    pub fn games_to_play(&self) -> u32 {
        self.games_to_play
    }

    /// The engine's next search starts after the delay.
    pub fn schedule_engine_start(&mut self, now: Instant) {
        self.next_engine_start = Some(now + self.delay);
    }

    /// A search starts now: no pending start stands.
    pub fn engine_started(&mut self) {
        self.next_engine_start = None;
    }

    /// Whether the pending engine start is due at `now` (then it is cleared).
    pub fn engine_start_due(&mut self, now: Instant) -> bool {
        due(&mut self.next_engine_start, now)
    }

    /// Whether the series' next game is due at `now` (then it is cleared).
    pub fn next_game_due(&mut self, now: Instant) -> bool {
        due(&mut self.next_game_start, now)
    }

    /// Drops a pending engine start, else a pending next game; whether one was pending.
    pub fn cancel_pending(&mut self) -> bool {
        self.next_engine_start.take().is_some() || self.next_game_start.take().is_some()
    }

    pub fn pause(&mut self) {
        self.paused = true;
    }

    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Another game replaced the one on the board: no start is pending, nothing paused.
    pub(super) fn game_replaced(&mut self) {
        self.next_engine_start = None;
        self.paused = false;
    }

    /// A new game begins: no start or next game is pending, nothing paused.
    pub(super) fn game_begun(&mut self) {
        self.game_replaced();
        self.next_game_start = None;
    }

    /// The series ends (the engine no longer plays both sides).
    pub(super) fn end(&mut self) {
        self.games_to_play = 0;
        self.next_game_start = None;
    }

    /// `n` games to play; the first starts at `now` when `start_now` (the game on the board
    /// is over).
    pub(super) fn start(&mut self, n: u32, start_now: Option<Instant>) {
        self.games_to_play = n;
        if start_now.is_some() {
            self.next_game_start = start_now;
        }
    }

    /// A game of the series ended at `now`: the next is scheduled after the delay when
    /// `going_on` (the engine still plays both sides). Returns `true` when the series is
    /// over with it.
    pub(super) fn game_over(&mut self, now: Instant, going_on: bool) -> bool {
        if self.games_to_play == 0 {
            return false;
        }
        self.games_to_play -= 1;
        if self.games_to_play > 0 && going_on {
            self.next_game_start = Some(now + self.delay);
            false
        } else {
            self.games_to_play = 0;
            true
        }
    }
}

/// Whether the moment `at` holds has come by `now`; then it is cleared.
fn due(at: &mut Option<Instant>, now: Instant) -> bool {
    let come = at.is_some_and(|t| now >= t);
    if come {
        *at = None;
    }
    come
}
