//! A game that stops without a result and goes on later, and a game that cannot.
//!
//! A game the server kept when it stopped (a restart) is restored adjourned: its clocks
//! stay stopped until both players are back, and until the game has gone on with both
//! here neither can lose it by absence — the opponent's `:claim` adjourns the game again
//! instead of winning it (leaving a game that waits abandons nothing). A game whose players have both been away too long is adjourned as well (the
//! club closes the room and keeps the game; it is restored when a player comes back). What
//! happened while a player was away is held for them and told when they are back.
//!
//! An open visitor can never come back to a seat, so a visitor's game is never adjourned:
//! once neither of its players is here it is aborted.

use std::time::{Duration, Instant};

use super::Room;
use crate::chess::Color;
use crate::club::ClubError;

impl Room {
    /// The game stopped without a result, to go on later: the club closes the room.
    pub fn is_adjourned(&self) -> bool {
        self.adjourned
    }

    /// Stops the game here without a result: the clocks stop as they stand and offers go;
    /// the game is kept unfinished (its [`Room::record`] has no result) and goes on when
    /// both players are back. False when no game was going on.
    pub fn adjourn(&mut self, now: Instant) -> bool {
        if !self.in_progress() {
            return false;
        }
        self.clock.stop(now);
        self.offer = None;
        self.waiting = false;
        self.adjourned = true;
        self.version += 1;
        true
    }

    /// [`Room::adjourn`], and each player is told `text` when back.
    pub fn adjourn_telling_players(&mut self, now: Instant, text: &str) -> bool {
        if !self.adjourn(now) {
            return false;
        }
        for side in Color::BOTH {
            if let Some(member) = self.seats.member(side) {
                self.held.push((member.id.clone(), text.to_string()));
            }
        }
        true
    }

    /// Both players have been away `after` by `now`, while the game goes on.
    pub fn abandoned(&self, now: Instant, after: Duration) -> bool {
        self.in_progress()
            && self
                .seats
                .both_away_since()
                .is_some_and(|t| now.saturating_duration_since(t) >= after)
    }

    /// Tells `id`, when they are next back in this room, `text`.
    pub fn hold_news(&mut self, id: &str, text: String) {
        self.held.push((id.to_string(), text));
    }

    /// What is held for players not back yet, `(member id, text)` (the club keeps it with
    /// an adjourned game, for the room made again from it).
    pub fn take_held_news(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.held)
    }

    /// `id` is back: what was held for them becomes notes.
    pub(super) fn give_held_news(&mut self, id: &str) {
        let (theirs, others) = std::mem::take(&mut self.held)
            .into_iter()
            .partition(|(to, _)| to == id);
        self.held = others;
        self.notes.extend::<Vec<_>>(theirs);
    }

    /// A claim against `them`, who has not played on since the game was restored: nobody
    /// wins by the absence of someone who never saw the game go on again. The game is
    /// adjourned (no result, nothing rated) and `them` is told when they are back.
    pub(super) fn adjourn_by_claim(
        &mut self,
        me: Color,
        now: Instant,
    ) -> Result<String, ClubError> {
        let them = me.flip();
        let (mine, theirs) = (self.seats.name(me), self.seats.name(them));
        if !self.adjourn(now) {
            return Err(ClubError::new("there is no game going on to adjourn"));
        }
        if let Some(absent) = self.seats.member(them) {
            let text = format!(
                "{mine} adjourned your game in room {} while you were away: no result, \
                 nothing rated; it goes on when you are both here",
                self.name
            );
            self.held.push((absent.id.clone(), text));
        }
        Ok(format!(
            "the game has not gone on since it stopped, so {theirs}'s absence wins nothing: \
             it is adjourned (kept, nothing rated) and goes on when you are both here"
        ))
    }

    /// A game of an open visitor with neither player here ends: aborted, nothing kept.
    pub(super) fn abort_if_strangers_left(&mut self, now: Instant) {
        if self.in_progress() && self.seats.holds_a_visitor() && self.seats.nobody_seated_here() {
            self.aborted = true;
            self.clock.stop(now);
            self.offer = None;
            self.waiting = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{member, mv, refused, room_of_two, secs, tc};
    use super::*;
    use crate::club::Member;
    use crate::club::room::{Action, CLAIM_AFTER, Role};

    /// Alice (White) and Bob (Black) played 1. e4 e5; the server restarted: the game back
    /// in a room of its own, nobody in it yet.
    fn restored(t0: Instant) -> Room {
        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        mv(&mut room, "bob", "e5", t0 + secs(1));
        Room::restore(&room.record(t0 + secs(2)).unwrap()).unwrap()
    }

    #[test]
    fn a_claim_against_a_player_not_back_since_the_restart_adjourns_unrated() {
        let t0 = Instant::now();
        let mut room = restored(t0);
        room.hold_news("alice", "the server restarted".into());
        let t1 = t0 + secs(100);
        assert_eq!(
            room.join(&member("bob", true), None, t1),
            Role::Player(Color::Black)
        );
        assert!(room.take_notes().is_empty(), "nothing was held for bob");
        // However long alice stays away, her absence wins nothing.
        let later = t1 + CLAIM_AFTER * 10;
        assert!(!room.tick(later), "no claim opens against her");
        let said = room.act("bob", Action::ClaimWin, later).unwrap();
        assert!(said.contains("alice-name's absence wins nothing"), "{said}");
        assert!(said.contains("adjourned"), "{said}");
        assert!(room.is_adjourned());
        let v = room.view(later);
        assert_eq!(v.result, None);
        assert!(!v.aborted);
        assert_eq!(v.running, None);
        assert!(room.take_finished(later).is_none(), "nothing to rate");
        let record = room.record(later).unwrap();
        assert_eq!((&record.result, &record.termination), (&None, &None));
        assert_eq!(
            record.clocks_ms,
            Some([299_000, 299_200]),
            "the clocks as they stood"
        );
        assert!(Room::restore(&record).is_ok(), "it goes on later");
        let err = refused(&mut room, "bob", Action::Move("Nf3".into()), later);
        assert!(err.contains("adjourned"), "{err}");
        // Alice is told, when she is back, what happened while she was away.
        let news = room.take_held_news();
        let texts: Vec<&str> = news
            .iter()
            .filter(|(to, _)| to == "alice")
            .map(|(_, t)| t.as_str())
            .collect();
        assert_eq!(texts.len(), 2, "{news:?}");
        assert_eq!(texts[0], "the server restarted");
        assert!(
            texts[1].contains("bob-name adjourned your game"),
            "{news:?}"
        );
    }

    #[test]
    fn a_player_who_played_on_since_the_restart_and_leaves_again_can_lose_by_absence() {
        let t0 = Instant::now();
        let mut room = restored(t0);
        room.hold_news("alice", "the server restarted".into());
        room.join(&member("bob", true), None, t0 + secs(10));
        room.join(&member("alice", true), None, t0 + secs(20));
        let notes = room.take_notes();
        assert!(
            notes.contains(&("alice".into(), "the server restarted".into())),
            "{notes:?}"
        );
        assert!(
            notes.contains(&(
                "bob".into(),
                "alice-name is back: the game goes on with the next move, when the clocks \
                 run again"
                    .into()
            )),
            "{notes:?}"
        );
        mv(&mut room, "alice", "Nf3", t0 + secs(25));
        room.leave("alice", t0 + secs(30));
        let err = refused(&mut room, "bob", Action::ClaimWin, t0 + secs(40));
        assert!(err.contains("in 50 s"), "{err}");
        room.act("bob", Action::ClaimWin, t0 + secs(90)).unwrap();
        assert_eq!(room.view(t0).result.unwrap().result(), "0-1");
        assert!(!room.is_adjourned());
    }

    #[test]
    fn leaving_a_restored_game_that_waits_for_the_opponent_abandons_nothing() {
        let t0 = Instant::now();
        let mut room = restored(t0);
        room.join(&member("alice", true), None, t0 + secs(10));
        room.leave("alice", t0 + secs(20));
        room.join(&member("bob", true), None, t0 + secs(30));
        assert!(!room.tick(t0 + secs(300)), "no claim opens against alice");
        let said = room.act("bob", Action::ClaimWin, t0 + secs(300)).unwrap();
        assert!(said.contains("adjourned"), "{said}");
        assert_eq!(room.view(t0).result, None);
        assert!(room.take_finished(t0).is_none());
    }

    #[test]
    fn a_game_whose_players_are_both_away_long_enough_is_adjourned() {
        let t0 = Instant::now();
        let after = secs(600);
        let mut room = room_of_two(None, t0);
        mv(&mut room, "alice", "e4", t0);
        room.leave("alice", t0 + secs(10));
        assert!(!room.abandoned(t0 + secs(1000), after), "bob is here");
        room.leave("bob", t0 + secs(20));
        assert!(!room.abandoned(t0 + secs(619), after));
        assert!(
            room.abandoned(t0 + secs(620), after),
            "from the later leaving"
        );
        assert!(room.adjourn_telling_players(t0 + secs(620), "both away"));
        assert!(!room.abandoned(t0 + secs(700), after), "adjourned once");
        assert!(!room.adjourn(t0 + secs(700)));
        assert_eq!(room.record(t0).unwrap().result, None);
        let news = room.take_held_news();
        assert_eq!(
            news,
            [
                ("alice".to_string(), "both away".to_string()),
                ("bob".to_string(), "both away".to_string())
            ]
        );
    }

    #[test]
    fn a_visitors_game_ends_when_neither_player_is_left() {
        let t0 = Instant::now();
        let visitor = |n: u64| Member {
            id: crate::club::visitor_id("run", n),
            name: format!("v{n}"),
            rated: false,
        };
        let mut room = Room::new("r", None, false);
        room.join(&visitor(1), None, t0);
        room.join(&visitor(2), None, t0);
        mv(&mut room, &visitor(1).id, "e4", t0);
        room.leave(&visitor(1).id, t0 + secs(1));
        assert!(!room.view(t0).aborted, "one is still here");
        room.leave(&visitor(2).id, t0 + secs(2));
        let v = room.view(t0 + secs(2));
        assert!(v.aborted && v.result.is_none());
        assert!(room.is_idle(), "the club forgets the room");
        assert_eq!(
            room.record(t0).unwrap().termination.as_deref(),
            Some("aborted")
        );
        // Members with keys keep a game going when both are away.
        let mut room = room_of_two(None, t0);
        mv(&mut room, "alice", "e4", t0);
        room.leave("alice", t0);
        room.leave("bob", t0);
        assert!(!room.view(t0).aborted && !room.is_idle());
    }
}
