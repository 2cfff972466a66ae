//! The server's clock of a room's game: it starts with White's first move, charges each move
//! its thinking time less an allowance for the network's lag, and tells when a flag falls.

use std::time::{Duration, Instant};

use crate::chess::Color;
use crate::game::Game;
use crate::game::clock::{Clock, TimeControl};

/// Time credited on each move for the trip over the network: a move costs its thinking
/// time less at most this much.
pub const LAG_ALLOWANCE: Duration = Duration::from_millis(200);

/// A game's clock as the server keeps it; without a time control nothing runs and every
/// question has no answer.
#[derive(Debug)]
pub(super) struct ServerClock {
    clock: Option<Clock>,
    /// When the running clock last started: a move's thinking time, for the lag credit.
    turn_started: Option<Instant>,
    /// White's and Black's moves earn no increment (a berserk player in an arena).
    no_increment: [bool; 2],
}

impl ServerClock {
    /// Fresh clocks for `tc` (none for a game without clocks), not running.
    pub(super) fn new(tc: Option<TimeControl>) -> ServerClock {
        ServerClock {
            clock: tc.map(Clock::new),
            turn_started: None,
            no_increment: [false; 2],
        }
    }

    /// The side whose flag has fallen by `now`.
    pub(super) fn flag(&self, now: Instant) -> Option<Color> {
        self.clock.as_ref().and_then(|c| c.flag(now))
    }

    /// Whose clock runs.
    pub(super) fn running(&self) -> Option<Color> {
        self.clock.as_ref().and_then(Clock::running)
    }

    /// Time left for White and Black at `now`.
    pub(super) fn remaining(&self, now: Instant) -> Option<[Duration; 2]> {
        self.clock.as_ref().map(|c| {
            [
                c.remaining(Color::White, now),
                c.remaining(Color::Black, now),
            ]
        })
    }

    /// When the running clock's flag falls, if nothing happens before.
    pub(super) fn next_flag(&self, now: Instant) -> Option<Instant> {
        self.clock.as_ref().and_then(|clock| {
            let side = clock.running()?;
            Some(now + clock.remaining(side, now))
        })
    }

    /// The mover is charged their thinking time less at most [`LAG_ALLOWANCE`], plus the
    /// increment; the opponent's clock starts. White's first move costs nothing (the
    /// clock starts with it). Returns the mover's time left, which goes into the game
    /// (`[%clk]`).
    pub(super) fn charge(&mut self, mover: Color, now: Instant) -> Option<Duration> {
        let clock = self.clock.as_mut()?;
        let left = if clock.running() == Some(mover) {
            let thought = self
                .turn_started
                .map_or(Duration::ZERO, |t| now.saturating_duration_since(t));
            // The flag cannot fall here: the room settled its time at this same instant.
            clock.switch(now);
            let earned = clock.remaining(mover, now) + thought.min(LAG_ALLOWANCE);
            if self.no_increment[mover.index()] {
                earned.saturating_sub(clock.time_control().increment)
            } else {
                earned
            }
        } else {
            // The first move: free, and it counts for the period of a `40/90` control.
            let before = clock.remaining(mover, now);
            clock.start(mover, now);
            clock.switch(now);
            before
        };
        clock.set_remaining(mover, left);
        self.turn_started = Some(now);
        Some(left)
    }

    /// `side`'s clock runs from `now` (after a takeback, or when a restored game goes on).
    pub(super) fn start(&mut self, side: Color, now: Instant) {
        if let Some(clock) = self.clock.as_mut() {
            clock.start(side, now);
            self.turn_started = Some(now);
        }
    }

    /// `side` plays on half its base time and earns no increment (berserk, taken before
    /// its first move). False when the game has no clock.
    pub(super) fn halve(&mut self, side: Color) -> bool {
        let Some(clock) = self.clock.as_mut() else {
            return false;
        };
        let half = clock.time_control().base / 2;
        clock.set_remaining(side, half);
        self.no_increment[side.index()] = true;
        true
    }

    /// No clock runs any more (the game ended or was aborted).
    pub(super) fn stop(&mut self, now: Instant) {
        if let Some(clock) = self.clock.as_mut() {
            clock.stop(now);
        }
        self.turn_started = None;
    }

    /// The clocks of a stored `game` that resumes, stopped: the times saved with it
    /// (`saved_ms`, White's and Black's), else each side's last `[%clk]`, else its full time.
    pub(super) fn restore(&mut self, game: &Game, saved_ms: Option<[u64; 2]>) {
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        // Count the moves made (a `40/90` period depends on them) by playing them on the
        // clock at one instant: no time passes, and the times are set right after.
        let at = Instant::now();
        for i in 0..game.len() {
            clock.start(game.move_number(i).0, at);
            clock.switch(at);
        }
        clock.stop(at);
        let left = |side: Color| match saved_ms {
            Some(ms) => Duration::from_millis(ms[side.index()]),
            None => (0..game.len())
                .rev()
                .filter(|&i| game.move_number(i).0 == side)
                .find_map(|i| game.moves()[i].clock)
                .unwrap_or(clock.time_control().start_time()),
        };
        let (white, black) = (left(Color::White), left(Color::Black));
        clock.set_remaining(Color::White, white);
        clock.set_remaining(Color::Black, black);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ms, mv, room_of_two, secs, tc};
    use crate::chess::Color;
    use crate::club::room::Action;
    use crate::game::{Game, Termination};
    use std::time::Instant;

    #[test]
    fn a_move_costs_its_time_less_the_lag_allowance_plus_the_increment() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("1+2"), t0);
        assert_eq!(
            room.view(t0).running,
            None,
            "no clock before White's first move"
        );
        // White's first move is free and starts Black's clock.
        mv(&mut room, "alice", "e4", t0 + secs(5));
        let v = room.view(t0 + secs(5));
        assert_eq!(v.clocks, Some([secs(60), secs(60)]));
        assert_eq!(v.running, Some(Color::Black));
        // Black thinks 10 s: 60 - 10 + 0.2 (lag) + 2 (increment).
        mv(&mut room, "bob", "e5", t0 + secs(15));
        let v = room.view(t0 + secs(15));
        assert_eq!(v.clocks, Some([secs(60), ms(52_200)]));
        assert_eq!(v.running, Some(Color::White));
        assert_eq!(v.game.moves()[1].clock, Some(ms(52_200)));
        assert_eq!(v.game.moves()[0].clock, Some(secs(60)));
        // A move faster than the allowance costs nothing: 60 + 2.
        mv(&mut room, "alice", "Nf3", t0 + secs(15) + ms(100));
        let v = room.view(t0 + secs(20));
        assert_eq!(v.clocks, Some([secs(62), ms(52_200) - ms(4_900)]));
    }

    #[test]
    fn a_game_with_no_base_time_gives_each_move_its_increment() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("0+2"), t0);
        assert_eq!(room.view(t0).clocks, Some([secs(2), secs(2)]));
        // White's first move (free) does not flag White, and Black's clock starts at 2 s.
        mv(&mut room, "alice", "e4", t0 + secs(5));
        assert!(!room.tick(t0 + secs(5)));
        let v = room.view(t0 + secs(5));
        assert!(v.result.is_none(), "{:?}", v.result);
        assert_eq!(v.clocks, Some([secs(2), secs(2)]));
        assert_eq!(v.running, Some(Color::Black));
        // Black thinks 1 s: 2 - 1 + 0.2 (lag) + 2 (increment).
        mv(&mut room, "bob", "e5", t0 + secs(6));
        let v = room.view(t0 + secs(6));
        assert!(v.result.is_none());
        assert_eq!(v.clocks, Some([secs(2), ms(3_200)]));
        // Past its increment White's flag falls, as any flag does.
        assert!(room.tick(t0 + secs(8)));
        let end = room.view(t0 + secs(8)).result.unwrap();
        assert_eq!(
            end.termination,
            Termination::FlagFall {
                loser: Color::White
            }
        );
    }

    #[test]
    fn a_flag_falls_in_tick_and_loses() {
        let t0 = Instant::now();
        // Black's flag: White wins.
        let mut room = room_of_two(tc("1+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        assert_eq!(room.next_due(t0 + secs(1)), Some(t0 + secs(60)));
        assert!(!room.tick(t0 + secs(59)));
        let before = room.version();
        assert!(room.tick(t0 + secs(60)));
        assert!(room.version() > before);
        let end = room.view(t0 + secs(61)).result.unwrap();
        assert_eq!(end.result(), "1-0");
        assert_eq!(
            end.termination,
            Termination::FlagFall {
                loser: Color::Black
            }
        );
        assert_eq!(room.next_due(t0 + secs(61)), None);
        assert!(!room.tick(t0 + secs(62)));
        // White's flag: Black wins.
        let mut room = room_of_two(tc("1+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        mv(&mut room, "bob", "e5", t0 + secs(1));
        assert!(room.tick(t0 + secs(62)));
        assert_eq!(room.view(t0 + secs(62)).result.unwrap().result(), "0-1");
        assert_eq!(room.take_finished(t0).unwrap().white_score, 0.0);
    }

    #[test]
    fn a_move_after_the_flag_fell_is_refused_even_without_a_tick() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("1+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        let err = room
            .act("bob", Action::Move("e5".into()), t0 + secs(61))
            .unwrap_err()
            .to_string();
        assert!(err.contains("flag fell"), "{err}");
        assert_eq!(room.view(t0 + secs(61)).result.unwrap().result(), "1-0");
    }

    #[test]
    fn a_flag_against_a_bare_king_is_a_draw() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("1+0"), t0);
        room.game = Game::from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
        mv(&mut room, "alice", "Rh2", t0);
        mv(&mut room, "bob", "Kd7", t0 + secs(1));
        // White's flag falls, but Black has only a king.
        assert!(room.tick(t0 + secs(70)));
        let end = room.view(t0 + secs(70)).result.unwrap();
        assert_eq!(end.result(), "1/2-1/2");
        assert_eq!(
            end.termination,
            Termination::FlagFall {
                loser: Color::White
            }
        );
        assert_eq!(room.take_finished(t0).unwrap().white_score, 0.5);
    }
}
