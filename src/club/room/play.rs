//! The game's course in a room: a move under the clock, and each way the game ends (mate
//! or draw on the board, a fallen flag, a resignation, an abort, a claim against an absent
//! opponent).

use std::time::Instant;

use super::seats::{CLAIM_AFTER, Presence};
use super::{Room, seconds_up};
use crate::chess::Color;
use crate::club::ClubError;
use crate::game::{GameEnd, Outcome, Termination};

impl Room {
    /// The game must be going on (begun, not aborted, not over) to act on it.
    pub(super) fn require_going(&self) -> Result<(), ClubError> {
        if !self.began {
            return Err(ClubError::new(
                "the game has not begun: waiting for an opponent",
            ));
        }
        if self.aborted {
            return Err(ClubError::new("the game was aborted"));
        }
        if self.adjourned {
            return Err(ClubError::new(
                "the game is adjourned: it goes on when both players are back",
            ));
        }
        if let Some(end) = self.game.result() {
            return Err(ClubError::new(format!("the game is over: {end}")));
        }
        Ok(())
    }

    /// A flag that fell by `now` ends the game. True when it did.
    pub(super) fn settle(&mut self, now: Instant) -> bool {
        if !self.in_progress() {
            return false;
        }
        let Some(loser) = self.clock.flag(now) else {
            return false;
        };
        if self.game.flag_fall(loser).is_err() {
            return false;
        }
        self.ended(now);
        true
    }

    /// The game just ended: the clocks stop, offers go, and the game waits to be taken.
    pub(super) fn ended(&mut self, now: Instant) {
        self.clock.stop(now);
        self.offer = None;
        self.waiting = false;
        self.keep_finished(now);
    }

    pub(super) fn has_moved(&self, side: Color) -> bool {
        (0..self.game.ply()).any(|i| self.game.move_number(i).0 == side)
    }

    /// A move in coordinates or SAN, charged to the mover's clock.
    pub(super) fn play(
        &mut self,
        me: Color,
        text: &str,
        now: Instant,
    ) -> Result<String, ClubError> {
        self.require_going()?;
        // A restored game goes on with a move made while both players are here.
        let resuming = self.waiting;
        if self.waiting && !self.seats.players_here() {
            let away = self.seats.name(me.flip());
            return Err(ClubError::new(format!(
                "the game waits for {away} to come back: the clock runs again when both are here"
            )));
        }
        let to_move = self.game.board().side_to_move();
        if to_move != me {
            return Err(ClubError::new(format!(
                "it is not your turn: {} to move",
                to_move.name()
            )));
        }
        let typed = text.trim();
        if typed.len() > 12 || !typed.chars().all(|c| c.is_ascii_graphic()) {
            let shown: String = typed
                .chars()
                .take(12)
                .flat_map(char::escape_default)
                .collect();
            return Err(ClubError::new(format!(
                "'{shown}' is not a move: type one like e2e4 or Nf3"
            )));
        }
        let mv = self
            .game
            .board()
            .parse_move(typed)
            .map_err(|e| ClubError::new(e.to_string()))?;
        let san = self
            .game
            .play(mv)
            .map_err(|e| ClubError::new(e.to_string()))?
            .san
            .clone();
        if resuming {
            // The clocks run again from this move (its thinking time is not charged), and
            // from now on either player may lose the game by leaving.
            self.waiting = false;
            self.seats.resume();
        }
        if let Some(left) = self.clock.charge(me, now) {
            self.game.set_last_clock(left);
        }
        self.offer = self.offer.filter(|o| o.survives_move_by(me));
        self.version += 1;
        match self.game.result() {
            Some(end) => {
                self.ended(now);
                Ok(format!("{san}: {end}"))
            }
            None => Ok(san),
        }
    }

    pub(super) fn resign(&mut self, me: Color, now: Instant) -> Result<String, ClubError> {
        self.require_going()?;
        let end = self
            .game
            .resign(me)
            .map_err(|e| ClubError::new(e.to_string()))?;
        self.ended(now);
        self.version += 1;
        Ok(format!("you resigned: {end}"))
    }

    /// End the game unplayed: allowed until the asking side has made its first move.
    pub(super) fn abort(&mut self, me: Color, now: Instant) -> Result<String, ClubError> {
        self.require_going()?;
        if self.has_moved(me) {
            return Err(ClubError::new(
                "too late to abort: you have made your first move (resign, or offer a draw)",
            ));
        }
        self.aborted = true;
        self.clock.stop(now);
        self.offer = None;
        self.waiting = false;
        self.version += 1;
        Ok("the game is aborted: no result, nothing rated".to_string())
    }

    /// Win a game whose opponent has been away for [`CLAIM_AFTER`]; against an opponent who
    /// has not played on since the game was restored, adjourn it instead.
    pub(super) fn claim(&mut self, me: Color, now: Instant) -> Result<String, ClubError> {
        self.require_going()?;
        let them = me.flip();
        let name = self.seats.name(them);
        let away = match self.seats.presence(them, now) {
            None => return Err(ClubError::new("there is no opponent to claim against")),
            Some(Presence::Here) => {
                return Err(ClubError::new(format!(
                    "{name} is here: there is nothing to claim"
                )));
            }
            Some(Presence::Away(away)) => away,
        };
        if !self.seats.resumed(them) {
            return self.adjourn_by_claim(me, now);
        }
        if away < CLAIM_AFTER {
            return Err(ClubError::new(format!(
                "{name} has been away {} s: you may claim the win in {} s",
                away.as_secs(),
                seconds_up(CLAIM_AFTER - away)
            )));
        }
        let end = self
            .game
            .declare(GameEnd {
                outcome: Outcome::win_for(me),
                termination: Termination::Abandoned { loser: them },
            })
            .map_err(|e| ClubError::new(e.to_string()))?;
        self.ended(now);
        self.version += 1;
        Ok(format!("you won: {end}"))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{fools_mate, member, ms, mv, refused, room_of_two, secs, tc};
    use super::*;
    use crate::club::room::{Action, CLAIM_AFTER, Role, Room};
    use crate::game::Game;
    use std::time::Instant;

    #[test]
    fn fools_mate_ends_the_game_0_1_for_everyone_in_the_room() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        assert_eq!(room.join(&member("carol", false), None, t0), Role::Watcher);
        fools_mate(&mut room, t0);
        let view = room.view(t0 + secs(10));
        let end = view.result.expect("the game is over");
        assert_eq!(end.result(), "0-1");
        assert_eq!(end.termination, Termination::Checkmate);
        assert_eq!(view.game.sans(), ["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(view.seats[0].as_ref().unwrap().id, "alice");
        assert_eq!(view.seats[1].as_ref().unwrap().id, "bob");
        assert_eq!(view.watchers, ["carol-name"]);
        let err = refused(&mut room, "alice", Action::Move("e4".into()), t0 + secs(11));
        assert!(err.contains("over"), "{err}");
        let done = room.take_finished(t0 + secs(12)).expect("finished once");
        assert_eq!(done.white_score, 0.0);
        assert_eq!(done.players, ["alice".to_string(), "bob".to_string()]);
        assert_eq!(done.record.result.as_deref(), Some("0-1"));
        assert!(room.take_finished(t0 + secs(13)).is_none());
    }

    #[test]
    fn a_watcher_cannot_act_on_the_game() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        room.join(&member("carol", false), None, t0);
        for action in [
            Action::Move("e4".into()),
            Action::Draw,
            Action::Resign,
            Action::Abort,
            Action::ClaimWin,
        ] {
            let err = refused(&mut room, "carol", action, t0);
            assert!(err.contains("watching"), "{err}");
        }
        let err = refused(&mut room, "mallory", Action::Move("e4".into()), t0);
        assert!(err.contains("not in this room"), "{err}");
        assert!(room.view(t0).game.is_empty());
    }

    #[test]
    fn only_the_side_to_move_moves() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        let err = refused(&mut room, "bob", Action::Move("e5".into()), t0);
        assert!(err.contains("not your turn: White to move"), "{err}");
        mv(&mut room, "alice", "e4", t0);
        let err = refused(&mut room, "alice", Action::Move("d4".into()), t0);
        assert!(err.contains("not your turn: Black to move"), "{err}");
        assert_eq!(room.view(t0).game.sans(), ["e4"]);
    }

    #[test]
    fn no_move_before_the_opponent_arrives() {
        let t0 = Instant::now();
        let mut room = Room::new("r1", None, false);
        room.join(&member("alice", false), None, t0);
        let err = refused(&mut room, "alice", Action::Move("e4".into()), t0);
        assert!(err.contains("not begun"), "{err}");
        assert!(!room.view(t0).began);
    }

    #[test]
    fn an_illegal_or_garbled_move_changes_nothing() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        let before = room.view(t0 + secs(1));
        for text in [
            "e4",
            "Ke2x",
            "e7e4",
            "\x1b[2J",
            "e5\u{202E}",
            &"x".repeat(10_000),
        ] {
            let err = refused(&mut room, "bob", Action::Move(text.into()), t0 + secs(1));
            assert!(!err.contains('\x1b') && err.len() < 200, "{err:?}");
        }
        let after = room.view(t0 + secs(1));
        assert_eq!(after.game.sans(), before.game.sans());
        assert_eq!(after.clocks, before.clocks);
    }

    #[test]
    fn resigning_loses() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        mv(&mut room, "alice", "e4", t0);
        room.act("bob", Action::Resign, t0).unwrap();
        let end = room.view(t0).result.unwrap();
        assert_eq!(end.result(), "1-0");
        assert_eq!(
            end.termination,
            Termination::Resignation {
                loser: Color::Black
            }
        );
        let err = refused(&mut room, "alice", Action::Resign, t0);
        assert!(err.contains("over"), "{err}");
    }

    #[test]
    fn abort_is_allowed_only_before_the_own_first_move() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        room.act("alice", Action::Abort, t0).unwrap();
        let v = room.view(t0);
        assert!(v.aborted);
        assert_eq!(v.result, None);
        assert!(room.take_finished(t0).is_none());
        assert!(
            room.record(t0).is_none(),
            "nothing to keep of an unplayed game"
        );

        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "e4", t0 + secs(1));
        let err = refused(&mut room, "alice", Action::Abort, t0 + secs(2));
        assert!(err.contains("too late"), "{err}");
        room.act("bob", Action::Abort, t0 + secs(3)).unwrap();
        let v = room.view(t0 + secs(30));
        assert!(v.aborted);
        assert_eq!(v.running, None);
        assert_eq!(v.clocks, Some([secs(300), secs(298)]), "the clocks stopped");
        assert_eq!(room.next_due(t0 + secs(30)), None);
        assert!(room.take_finished(t0).is_none());
        let record = room.record(t0).unwrap();
        assert_eq!(record.result, None);
        assert_eq!(record.termination.as_deref(), Some("aborted"));
        assert!(
            Room::restore(&record).is_err(),
            "an aborted game never resumes"
        );
        let err = refused(&mut room, "bob", Action::Move("e5".into()), t0 + secs(4));
        assert!(err.contains("aborted"), "{err}");
    }

    #[test]
    fn a_win_is_claimed_only_after_the_opponent_was_away_a_minute() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        mv(&mut room, "alice", "e4", t0);
        mv(&mut room, "bob", "e5", t0);
        let err = refused(&mut room, "alice", Action::ClaimWin, t0);
        assert!(err.contains("is here"), "{err}");
        let t1 = t0 + secs(5);
        room.leave("bob", t1);
        assert_eq!(room.next_due(t1), Some(t1 + CLAIM_AFTER));
        let err = refused(&mut room, "alice", Action::ClaimWin, t1 + secs(30));
        assert!(err.contains("in 30 s"), "{err}");
        let err = refused(&mut room, "alice", Action::ClaimWin, t1 + ms(59_500));
        assert!(err.contains("in 1 s"), "{err}");
        assert!(!room.tick(t1 + secs(59)));
        assert!(
            room.tick(t1 + CLAIM_AFTER),
            "viewers learn the claim is open"
        );
        assert_eq!(room.next_due(t1 + CLAIM_AFTER), None);
        room.act("alice", Action::ClaimWin, t1 + CLAIM_AFTER)
            .unwrap();
        let end = room.view(t1 + CLAIM_AFTER).result.unwrap();
        assert_eq!(end.result(), "1-0");
        assert_eq!(
            end.termination,
            Termination::Abandoned {
                loser: Color::Black
            }
        );
        let record = room.take_finished(t1 + CLAIM_AFTER).unwrap().record;
        assert!(
            record.pgn.contains("[Termination \"abandoned\"]"),
            "{}",
            record.pgn
        );
        assert_eq!(record.termination.as_deref(), Some("Black left the game"));
        // The PGN reads back as the same ending.
        let back = Game::from_pgn(&record.pgn).unwrap();
        assert_eq!(back.result(), Some(end));
    }
}
