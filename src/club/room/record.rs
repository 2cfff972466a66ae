//! The room's game as the store keeps it: the record saved while it goes on and once over
//! (PGN with its tags, players, result, clocks), the finished game handed over for the
//! ratings, and a room rebuilt from an unfinished record after the server restarts.

use std::time::{Duration, Instant};

use super::Room;
use super::seats::Seats;
use crate::chess::Color;
use crate::club::store::GameRecord;
use crate::club::{ClubError, Member};
use crate::game::clock::TimeControl;
use crate::game::{Game, Outcome, Termination};

/// A game that has just ended, for the store and the ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    pub record: GameRecord,
    /// White's and Black's member ids.
    pub players: [String; 2],
    /// 1, 0.5 or 0 for White.
    pub white_score: f64,
    pub rated: bool,
}

impl Room {
    /// The game as the database keeps it while it goes on (after each move) and once over.
    /// `None` before the first move (unless it already ended, e.g. by a resignation).
    /// An aborted game's record has no result and the termination `aborted`.
    pub fn record(&self, now: Instant) -> Option<GameRecord> {
        let ended = self.result().is_some();
        if !self.began || self.game.is_empty() && !ended {
            return None;
        }
        let (Some(white), Some(black)) = (
            self.seats.member(Color::White),
            self.seats.member(Color::Black),
        ) else {
            return None;
        };
        let mut game = self.game.clone();
        self.stamp_tags(&mut game);
        let end = self.result();
        let ms = |d: Duration| d.as_millis().min(u64::MAX as u128) as u64;
        Some(GameRecord {
            id: self.game_id.clone(),
            room: self.name.clone(),
            white: white.id.clone(),
            black: black.id.clone(),
            white_name: white.name.clone(),
            black_name: black.name.clone(),
            pgn: game.to_pgn(),
            result: end.map(|e| e.result().to_string()),
            termination: if self.aborted {
                Some("aborted".to_string())
            } else {
                end.map(|e| e.reason())
            },
            time_control: self.tc.map(|tc| tc.to_string()),
            rated: self.is_rated(),
            clocks_ms: self.clock.remaining(now).map(|left| left.map(ms)),
        })
    }

    /// The game that ended since the last call, once. (The record is made when the game
    /// ends, its clocks stopped then; `now` is not needed.)
    pub fn take_finished(&mut self, _now: Instant) -> Option<Finished> {
        self.finished.pop_front()
    }

    /// The game just ended: its record, with the score, waits to be taken (nothing for an
    /// aborted game, which has no result).
    pub(super) fn keep_finished(&mut self, now: Instant) {
        if let (Some(record), Some(end)) = (self.record(now), self.result()) {
            let white_score = match end.outcome {
                Outcome::WhiteWins => 1.0,
                Outcome::Draw => 0.5,
                Outcome::BlackWins => 0.0,
            };
            self.finished.push_back(Finished {
                players: [record.white.clone(), record.black.clone()],
                white_score,
                rated: record.rated,
                record,
            });
        }
    }

    /// The tags a stored game carries (PGN standard 9.6, 9.8.1): who played, the event,
    /// the ratings of a rated game, the time control and how it ended.
    pub(super) fn stamp_tags(&self, game: &mut Game) {
        let rated = self.is_rated();
        let tags = &mut game.tags;
        tags.set("Event", if rated { "Rated game" } else { "Casual game" });
        tags.set("Site", "ox88 serve");
        for side in Color::BOTH {
            let Some(member) = self.seats.member(side) else {
                continue;
            };
            tags.set(side.name(), &member.name);
            if rated && let Some(elo) = self.seats.rating(side) {
                tags.set(&format!("{}Elo", side.name()), &elo.to_string());
            }
        }
        if self.tc.is_none() {
            tags.set("TimeControl", "-");
        }
        let termination = match self.result() {
            None => "unterminated",
            Some(end) => match end.termination {
                Termination::FlagFall { .. } => "time forfeit",
                Termination::Abandoned { .. } => "abandoned",
                _ => "normal",
            },
        };
        tags.set("Termination", termination);
    }

    /// A game the database kept unfinished (the server stopped, or the game was adjourned):
    /// the room waits, clocks stopped, until both players are back, then goes on where it
    /// was.
    ///
    /// Both seats are away: once one player is back, the other counts as away from then,
    /// but a claim against them adjourns the game again rather than winning it, until
    /// both have been back and the game has gone on.
    pub fn restore(record: &GameRecord) -> Result<Room, ClubError> {
        let bad = |why: String| ClubError::new(format!("game {}: {why}", record.id));
        if record.result.is_some() || record.termination.as_deref() == Some("aborted") {
            return Err(bad("it is not unfinished, so it cannot resume".to_string()));
        }
        let mut game =
            Game::from_pgn(&record.pgn).map_err(|e| bad(format!("its PGN cannot be read: {e}")))?;
        if let Some(end) = game.result() {
            return Err(bad(format!("its PGN says the game is over ({end})")));
        }
        let tc = match &record.time_control {
            Some(text) => Some(
                text.parse::<TimeControl>()
                    .map_err(|e| bad(format!("its time control: {e}")))?,
            ),
            None => None,
        };
        game.time_control = tc;
        let mut room = Room::new(&record.room, tc, record.rated);
        room.game = game;
        room.game_id = record.id.clone();
        room.began = true;
        room.waiting = true;
        let member = |id: &str, name: &str| Member {
            id: id.to_string(),
            name: name.to_string(),
            rated: record.rated,
        };
        room.seats = Seats::restored(
            member(&record.white, &record.white_name),
            member(&record.black, &record.black_name),
        );
        room.clock.restore(&room.game, record.clocks_ms);
        Ok(room)
    }

    /// The player at `side` is back: in a restored game, the opponent who is not counts as
    /// away from now; once both are here the one who waited is told, and the game goes on
    /// with the next move (see `play.rs`): a visit that makes no move starts no clock and
    /// resumes nothing.
    pub(super) fn player_returned(&mut self, side: Color, now: Instant) {
        if !self.waiting {
            return;
        }
        self.seats.start_waiting_for_the_absent(now);
        if self.seats.players_here()
            && let Some(waited) = self.seats.member(side.flip())
        {
            let text = format!(
                "{} is back: the game goes on with the next move, when the clocks run again",
                self.seats.name(side)
            );
            self.notes.push((waited.id.clone(), text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{member, ms, mv, refused, room_of_two, secs, tc};
    use super::*;
    use crate::club::room::{Action, Role};
    use crate::game::glicko::Rating;

    #[test]
    fn the_record_carries_clocks_tags_and_result() {
        let t0 = Instant::now();
        let mut room = Room::new("blitz", tc("5+3"), true);
        let rating = |r: f64| Rating {
            rating: r,
            ..Rating::default()
        };
        room.join(&member("alice", true), Some(rating(1612.4)), t0);
        room.join(&member("bob", true), Some(rating(1487.6)), t0);
        assert!(
            room.record(t0).is_none(),
            "nothing to keep before the first move"
        );
        mv(&mut room, "alice", "e4", t0 + secs(1));
        mv(&mut room, "bob", "e5", t0 + secs(11));
        let record = room.record(t0 + secs(21)).unwrap();
        assert_eq!(record.room, "blitz");
        assert!(record.id.starts_with("blitz-"));
        assert_eq!(
            (record.white.as_str(), record.black.as_str()),
            ("alice", "bob")
        );
        assert_eq!(record.white_name, "alice-name");
        assert_eq!(record.result, None);
        assert_eq!(record.termination, None);
        assert_eq!(record.time_control.as_deref(), Some("5+3"));
        assert!(record.rated);
        assert_eq!(record.clocks_ms, Some([290_000, 293_200]));
        for tag in [
            "[Event \"Rated game\"]",
            "[Site \"ox88 serve\"]",
            "[White \"alice-name\"]",
            "[Black \"bob-name\"]",
            "[WhiteElo \"1612\"]",
            "[BlackElo \"1488\"]",
            "[TimeControl \"300+3\"]",
            "[Result \"*\"]",
            "[Termination \"unterminated\"]",
            "{[%clk 0:05:00]}",
            "{[%clk 0:04:53]}",
        ] {
            assert!(record.pgn.contains(tag), "{tag} missing in\n{}", record.pgn);
        }
        room.act("alice", Action::Resign, t0 + secs(30)).unwrap();
        let record = room.record(t0 + secs(40)).unwrap();
        assert_eq!(record.result.as_deref(), Some("0-1"));
        assert_eq!(record.termination.as_deref(), Some("White resigns"));
        assert!(record.pgn.contains("[Result \"0-1\"]"));
        assert!(record.pgn.contains("[Termination \"normal\"]"));
        assert_eq!(
            record.clocks_ms,
            Some([281_000, 293_200]),
            "clocks stopped at the end"
        );
        let done = room.take_finished(t0 + secs(40)).unwrap();
        assert_eq!(done.record, record);
        assert!(done.rated);
        assert!(room.take_finished(t0 + secs(41)).is_none());
    }

    #[test]
    fn a_game_is_rated_only_in_a_rated_room_between_rated_members() {
        let t0 = Instant::now();
        let finish = |room_rated: bool, a: bool, b: bool| {
            let mut room = Room::new("r", None, room_rated);
            room.join(&member("alice", a), Some(Rating::default()), t0);
            room.join(&member("bob", b), Some(Rating::default()), t0);
            mv(&mut room, "alice", "e4", t0);
            room.act("bob", Action::Resign, t0).unwrap();
            room.take_finished(t0).unwrap()
        };
        assert!(finish(true, true, true).rated);
        let casual = finish(true, true, false);
        assert!(!casual.rated);
        assert!(casual.record.pgn.contains("[Event \"Casual game\"]"));
        assert!(!casual.record.pgn.contains("Elo"));
        assert!(!finish(false, true, true).rated);
    }

    #[test]
    fn a_restored_game_waits_for_both_players_then_goes_on() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "f3", t0);
        mv(&mut room, "bob", "e5", t0 + secs(20));
        mv(&mut room, "alice", "g4", t0 + secs(50));
        let record = room.record(t0 + secs(60)).unwrap();
        assert_eq!(record.clocks_ms, Some([270_200, 270_200]));

        let mut back = Room::restore(&record).unwrap();
        let t1 = t0 + secs(1000);
        let v = back.view(t1);
        assert!(v.waiting && v.began);
        assert_eq!(v.game.sans(), ["f3", "e5", "g4"]);
        assert_eq!(v.clocks, Some([ms(270_200), ms(270_200)]));
        assert_eq!(v.running, None);
        assert!(v.seats.iter().flatten().all(|s| !s.connected));
        assert_eq!(back.view(t1).game_id, record.id);
        assert!(!back.is_idle(), "an unfinished game keeps its room");

        assert_eq!(
            back.join(&member("bob", false), None, t1),
            Role::Player(Color::Black)
        );
        let err = refused(&mut back, "bob", Action::Move("Qh4#".into()), t1 + secs(5));
        assert!(err.contains("waits for alice-name"), "{err}");
        assert_eq!(
            back.view(t1 + secs(100)).clocks,
            Some([ms(270_200), ms(270_200)]),
            "no clock runs while one player is missing"
        );
        back.join(&member("alice", false), None, t1 + secs(100));
        let v = back.view(t1 + secs(110));
        assert!(v.waiting, "both here, and no move yet: nothing resumed");
        assert_eq!(v.running, None);
        assert_eq!(v.clocks, Some([ms(270_200), ms(270_200)]));
        mv(&mut back, "bob", "Qh4#", t1 + secs(110));
        let done = back.take_finished(t1 + secs(110)).unwrap();
        assert_eq!(done.record.id, record.id);
        assert_eq!(done.white_score, 0.0);
        assert!(done.record.pgn.contains("Qh4#"));
    }

    #[test]
    fn a_visit_without_a_move_resumes_nothing_and_opens_no_claim() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        mv(&mut room, "bob", "e5", t0 + secs(2));
        let mut back = Room::restore(&room.record(t0 + secs(3)).unwrap()).unwrap();
        let t1 = t0 + secs(100);
        back.join(&member("alice", false), None, t1);
        // Bob logs in for a second (`ssh … </dev/null`) and is gone.
        back.join(&member("bob", false), None, t1 + secs(1));
        back.leave("bob", t1 + secs(2));
        let v = back.view(t1 + secs(200));
        assert!(v.waiting && v.running.is_none(), "no clock started");
        let err = refused(
            &mut back,
            "alice",
            Action::Move("Nf3".into()),
            t1 + secs(200),
        );
        assert!(err.contains("waits for bob-name"), "{err}");
        // Alice's claim adjourns: bob never played on since the restart.
        let said = back.act("alice", Action::ClaimWin, t1 + secs(200)).unwrap();
        assert!(said.contains("adjourned"), "{said}");
        assert!(back.view(t1 + secs(200)).result.is_none());
    }

    #[test]
    fn both_back_and_a_move_resume_the_game_and_its_clocks() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        mv(&mut room, "bob", "e5", t0 + secs(2));
        let mut back = Room::restore(&room.record(t0 + secs(3)).unwrap()).unwrap();
        let t1 = t0 + secs(100);
        back.join(&member("alice", false), None, t1);
        back.join(&member("bob", false), None, t1 + secs(1));
        mv(&mut back, "alice", "Nf3", t1 + secs(30));
        let v = back.view(t1 + secs(40));
        assert!(!v.waiting);
        assert_eq!(v.running, Some(Color::Black));
        assert!(v.seats.iter().flatten().all(|s| s.resumed));
    }

    #[test]
    fn restoring_refuses_a_bad_or_finished_record() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        mv(&mut room, "alice", "e4", t0);
        let good = room.record(t0).unwrap();
        let garbled = GameRecord {
            pgn: "1. e4 Ke3 *".to_string(),
            ..good.clone()
        };
        let err = Room::restore(&garbled).unwrap_err().to_string();
        assert!(err.contains("PGN cannot be read"), "{err}");
        let bad_tc = GameRecord {
            time_control: Some("fast".to_string()),
            ..good.clone()
        };
        assert!(
            Room::restore(&bad_tc)
                .unwrap_err()
                .to_string()
                .contains("time control")
        );
        room.act("bob", Action::Resign, t0).unwrap();
        let over = room.record(t0).unwrap();
        assert!(Room::restore(&over).is_err());
    }
}
