//! A tournament's game in a room: the pairing gives the seats (each player finds their own
//! colour waiting, whether they are online yet or not), a player may go berserk before
//! their first move, nobody aborts, and the tournament calls the game off when a player
//! never came (a forfeit is scored by the tournament, not played over the board).

use std::time::Instant;

use super::Room;
use super::seats::Seats;
use crate::chess::Color;
use crate::club::{ClubError, Member};
use crate::game::clock::TimeControl;

impl Room {
    /// A room for a game the tournament paired: `white` and `black` hold their seats from
    /// the start, both away until they come in. The clock starts with White's first move,
    /// as in any game.
    pub fn for_pairing(
        name: &str,
        tc: Option<TimeControl>,
        rated: bool,
        white: &Member,
        black: &Member,
    ) -> Room {
        let mut room = Room::new(name, tc, rated);
        room.seats = Seats::reserved(white.clone(), black.clone());
        room.began = true;
        room.tournament = true;
        room
    }

    /// Is this a tournament's game?
    pub fn is_tournament(&self) -> bool {
        self.tournament
    }

    /// Makes this a tournament's game again: a game resumed from the database after a
    /// restart comes back as a plain room, and is still the tournament's.
    pub fn mark_tournament(&mut self) {
        self.tournament = true;
    }

    /// Is the player at `side` in the room (connected)?
    pub fn is_here(&self, side: Color) -> bool {
        self.seats.is_here(side)
    }

    /// Has the game ended (with a result, or called off)?
    pub fn is_over(&self) -> bool {
        !self.in_progress()
    }

    /// The member `id` goes berserk: half their base time, no increment. Allowed before
    /// their own first move, in a game with a clock that goes on.
    pub fn berserk(&mut self, id: &str) -> Result<Color, ClubError> {
        let me = self.player(id)?;
        if !self.in_progress() {
            return Err(ClubError::new("the game is over"));
        }
        if self.has_moved(me) {
            return Err(ClubError::new(
                "too late to go berserk: only before your first move",
            ));
        }
        if !self.clock.halve(me) {
            return Err(ClubError::new("a game without a clock has no berserk"));
        }
        self.version += 1;
        Ok(me)
    }

    /// The tournament calls the game off (a player never came): no result, nothing stored
    /// or rated. False when it was already over.
    pub fn call_off(&mut self, now: Instant) -> bool {
        if !self.in_progress() {
            return false;
        }
        self.aborted = true;
        self.clock.stop(now);
        self.offer = None;
        self.version += 1;
        true
    }

    /// A tournament's game is never aborted by a player: a no-show is the tournament's to
    /// judge.
    pub(super) fn refuse_abort_in_tournament(&self) -> Result<(), ClubError> {
        if self.tournament {
            return Err(ClubError::new(
                "a tournament game cannot be aborted: resign, or offer a draw",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{member, mv, secs, tc};
    use super::*;
    use crate::club::room::{Action, Role};

    fn paired(t0: Instant) -> Room {
        let mut room = Room::for_pairing(
            "t1",
            tc("1+2"),
            false,
            &member("alice", false),
            &member("bob", false),
        );
        // Black comes first and still plays Black.
        assert_eq!(
            room.join(&member("bob", false), None, t0),
            Role::Player(Color::Black)
        );
        assert_eq!(
            room.join(&member("carol", false), None, t0),
            Role::Watcher,
            "a seat given by the pairing is nobody else's"
        );
        assert_eq!(
            room.join(&member("alice", false), None, t0),
            Role::Player(Color::White)
        );
        room
    }

    #[test]
    fn the_paired_players_find_their_seats_and_nobody_aborts() {
        let t0 = Instant::now();
        let mut room = paired(t0);
        let err = room.act("alice", Action::Abort, t0).unwrap_err().0;
        assert!(err.contains("cannot be aborted"), "{err}");
        assert!(!room.is_over());
        assert!(!room.is_idle(), "kept while the game goes on, moves or not");
        mv(&mut room, "alice", "e4", t0);
        assert_eq!(room.plies(), 1);
    }

    #[test]
    fn berserk_halves_the_clock_and_drops_the_increment_before_the_first_move_only() {
        let t0 = Instant::now();
        let mut room = paired(t0);
        assert_eq!(room.berserk("bob").unwrap(), Color::Black);
        assert_eq!(room.view(t0).clocks, Some([secs(60), secs(30)]));
        mv(&mut room, "alice", "e4", t0);
        // Black thinks 10 s: 30 - 10 + 0.2 (lag), and no increment.
        mv(&mut room, "bob", "e5", t0 + secs(10));
        let left = room.view(t0 + secs(10)).clocks.unwrap()[1];
        assert_eq!(left.as_millis(), 20_200);
        let err = room.berserk("alice").unwrap_err().0;
        assert!(err.contains("too late"), "{err}");
        assert!(room.berserk("carol").is_err(), "a watcher has no clock");
    }

    #[test]
    fn a_game_called_off_is_over_without_a_result() {
        let t0 = Instant::now();
        let mut room = paired(t0);
        assert!(room.call_off(t0 + secs(60)));
        assert!(room.is_over());
        assert!(room.take_finished(t0).is_none(), "nothing to score or rate");
        assert!(!room.call_off(t0 + secs(61)));
    }
}
