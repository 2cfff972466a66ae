//! Games without a room. A game is adjourned — stopped without a result, kept in the store
//! as unfinished — when the server restarts, when a claim meets a player who has not been
//! back since, and when both players have been away longer than the club's limit. It waits
//! here until a player of its own comes back (logging in, or `:join ROOM`): then its room is
//! made again, they are seated and told what happened while they were away, and the clocks
//! stay stopped until the other is back too.

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::owner::{Adjourned, Owner};
use crate::club::room::Room;
use crate::club::store::Store;
use crate::club::{ClubError, is_visitor_id};

/// The games the store kept going on when the server last stopped, adjourned: each player
/// is told of the restart when back. Open visitors' games end here, forgotten: a visitor
/// can never come back, and a new one must never be seated in them.
pub(super) fn at_start(
    store: &dyn Store,
    started: DateTime<Utc>,
) -> Result<Vec<Adjourned>, ClubError> {
    let unfinished = store
        .unfinished()
        .map_err(|e| ClubError::new(e.to_string()))?;
    let text = format!(
        "the server restarted at {}: the game waits for both players, clocks stopped \
         (neither loses it by absence before being back)",
        started.format("%H:%M UTC")
    );
    let mut kept = Vec::new();
    for record in unfinished {
        if is_visitor_id(&record.white) || is_visitor_id(&record.black) {
            if let Err(e) = store.forget_unplayed(&record.id) {
                eprintln!("ox88 serve: {e}");
            }
            continue;
        }
        if let Err(e) = Room::restore(&record) {
            eprintln!("ox88 serve: game {} cannot go on: {e}", record.id);
            continue;
        }
        let news = vec![
            (record.white.clone(), text.clone()),
            (record.black.clone(), text.clone()),
        ];
        kept.push(Adjourned { record, news });
    }
    Ok(kept)
}

/// `d` in words: `10 min`, `90 s`, `2 h`.
fn spoken(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 && s.is_multiple_of(3600) {
        format!("{} h", s / 3600)
    } else if s >= 60 && s.is_multiple_of(60) {
        format!("{} min", s / 60)
    } else {
        format!("{s} s")
    }
}

impl Owner {
    /// Adjourns room `name`'s game if both its players have been away for the club's
    /// limit (each is told when back). True when it did: the room is then to be closed.
    pub(super) fn adjourn_if_abandoned(&mut self, name: &str, now: Instant) -> bool {
        let after = self.limits.abandon_after;
        let Some(room) = self.rooms.get_mut(name) else {
            return false;
        };
        if !room.abandoned(now, after) {
            return false;
        }
        let text = format!(
            "the game was adjourned at {}: you were both away over {}; the clocks stay \
             stopped until you are both back",
            Utc::now().format("%H:%M UTC"),
            spoken(after)
        );
        room.adjourn_telling_players(now, &text)
    }

    /// The room of `member`'s adjourned game (the one of room `name`, if given) made
    /// again and listed under its name (a new one if a room of its name is open
    /// meanwhile); with the room's name and the opponent's id. `None` when there is none.
    pub(super) fn reopen(&mut self, member: &str, name: Option<&str>) -> Option<(String, String)> {
        let i = self
            .adjourned
            .iter()
            .position(|a| a.plays(member) && name.is_none_or(|n| a.record.room == n))?;
        let opponent = self.adjourned[i].opponent_of(member).to_string();
        let Adjourned { mut record, news } = self.adjourned.remove(i);
        if self.rooms.contains_key(&record.room) {
            record.room = self.new_room_name();
        }
        let mut room = match Room::restore(&record) {
            Ok(room) => room,
            Err(e) => {
                eprintln!("ox88 serve: game {} cannot go on: {e}", record.id);
                return None;
            }
        };
        for (to, text) in news {
            room.hold_news(&to, text);
        }
        self.open_room(room);
        Some((record.room, opponent))
    }

    /// Closes room `name`, whose game was just adjourned: the game is kept (in the store,
    /// unfinished, and here for its players' return), and whoever was in the room goes to
    /// the lobby, told why.
    pub(super) fn close_adjourned(&mut self, name: &str, now: Instant) {
        let Some(r) = self.rooms.get_mut(name) else {
            return;
        };
        let record = r.record(now);
        let news = r.take_held_news();
        if let Some(record) = &record {
            self.adjourned.push(Adjourned {
                record: record.clone(),
                news,
            });
        }
        let told =
            format!("the game in room {name} is adjourned: it goes on when both players are back");
        self.close_room(name, Some(&told));
        self.after_change(name, record, None);
    }

    /// At login, with no seat in a game going on: back to this member's adjourned game,
    /// its room made again (or told why not, when the server holds all the rooms it may).
    pub(super) fn resume_adjourned(&mut self, id: u64) {
        let Some(member) = self.viewers.get(&id).map(|e| e.member.id.clone()) else {
            return;
        };
        if !self.adjourned.iter().any(|a| a.plays(&member)) {
            return;
        }
        if let Err(e) = self.room_for_one_more() {
            self.notice(id, format!("your adjourned game waits for a room: {e}"));
            return;
        }
        if let Some((name, opponent)) = self.reopen(&member, None) {
            let now = self.now();
            self.enter(id, &name, Some(opponent), now);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Color;
    use crate::club::lobby::Limits;
    use crate::club::lobby::{Club, Viewer};
    use crate::club::room::{Action, Role};
    use crate::club::store::GameRecord;
    use crate::club::{Member, SqliteStore};
    use std::sync::Arc;

    fn member(id: &str, rated: bool) -> Member {
        Member {
            id: id.into(),
            name: id.into(),
            rated,
        }
    }

    fn connect(club: &Arc<Club>, id: &str) -> Viewer {
        club.connect(member(id, !id.starts_with("open:")), Arc::new(|| {}))
    }

    fn club_on(store: &Arc<SqliteStore>, limits: Limits) -> Arc<Club> {
        Club::with_limits(Arc::clone(store) as Arc<dyn Store>, limits).unwrap()
    }

    /// Alice (White) and Bob play 1. e4 e5 in room `den` of a club on `store`, and the
    /// server stops (the game saved as it stands).
    fn a_game_then_a_stop(store: &Arc<SqliteStore>, alice: &str, bob: &str) {
        let club = club_on(store, Limits::default());
        let (a, b) = (connect(&club, alice), connect(&club, bob));
        assert_eq!(a.join("den").unwrap(), Role::Player(Color::White));
        assert_eq!(b.join("den").unwrap(), Role::Player(Color::Black));
        a.act(Action::Move("e4".into())).unwrap();
        b.act(Action::Move("e5".into())).unwrap();
        assert!(club.save_all(Instant::now(), std::time::Duration::from_secs(10)));
    }

    #[test]
    fn after_a_restart_a_claim_adjourns_and_the_absent_player_finds_the_game() {
        let store = Arc::new(SqliteStore::in_memory().unwrap());
        a_game_then_a_stop(&store, "alice", "bob");
        let club = club_on(&store, Limits::default());
        assert!(
            club.lobby_view(0, Instant::now()).games.is_empty(),
            "no room yet"
        );
        let alice = connect(&club, "alice");
        assert_eq!(alice.room_name().as_deref(), Some("den"), "seated again");
        let told = alice.take_notices();
        assert!(told[0].contains("the server restarted at"), "{told:?}");
        let (view, _) = alice.room(Instant::now()).unwrap();
        assert!(view.waiting && view.running.is_none());
        assert!(!view.seats[1].as_ref().unwrap().resumed);
        let said = alice.act(Action::ClaimWin).unwrap();
        assert!(said.contains("adjourned"), "{said}");
        assert_eq!(
            alice.room_name(),
            None,
            "the room closed: alice is in the lobby"
        );
        assert!(alice.take_notices()[0].contains("adjourned"));
        // Nothing rated, nothing ended: the game is kept as going on.
        let id = alice.member().id.clone();
        assert!(store.rating_history(&id).unwrap().is_empty());
        assert_eq!(store.rating(&id).unwrap().rating, 1500.0);
        assert!(club.flush(Duration::from_secs(10)));
        let kept = store.unfinished().unwrap();
        assert_eq!(kept.len(), 1);
        assert!(kept[0].result.is_none() && kept[0].pgn.contains("e5"));
        // Bob comes back: the room is made again, and he is told what happened.
        let bob = connect(&club, "bob");
        assert_eq!(bob.room_name().as_deref(), Some("den"));
        let told = bob.take_notices();
        assert_eq!(told.len(), 2, "{told:?}");
        assert!(told[0].contains("the server restarted at"), "{told:?}");
        assert!(
            told[1].contains("alice adjourned your game in room den while you were away"),
            "{told:?}"
        );
        let told = alice.take_notices();
        assert!(
            told.iter().any(|t| t.contains("bob is back in room den")),
            "{told:?}"
        );
        // Alice comes to it: the clocks run again and the game goes on.
        alice.join("den").unwrap();
        assert!(
            bob.take_notices()
                .iter()
                .any(|t| t.contains("alice is back: the game goes on"))
        );
        alice.act(Action::Move("Nf3".into())).unwrap();
        let (view, _) = bob.room(Instant::now()).unwrap();
        assert_eq!(view.game.sans(), ["e4", "e5", "Nf3"]);
        assert!(!view.waiting && view.running == Some(Color::Black));
    }

    #[test]
    fn a_room_whose_players_are_both_away_too_long_closes_and_comes_back() {
        let store = Arc::new(SqliteStore::in_memory().unwrap());
        let limits = Limits {
            abandon_after: Duration::from_secs(60),
            ..Limits::default()
        };
        let club = club_on(&store, limits);
        let (alice, bob, carol) = (
            connect(&club, "alice"),
            connect(&club, "bob"),
            connect(&club, "carol"),
        );
        alice.join("den").unwrap();
        bob.join("den").unwrap();
        carol.join("den").unwrap();
        alice.act(Action::Move("e4".into())).unwrap();
        drop(alice);
        drop(bob);
        let t0 = Instant::now();
        club.tick(t0 + Duration::from_secs(30));
        assert_eq!(carol.room_name().as_deref(), Some("den"), "not yet");
        club.tick(t0 + Duration::from_secs(61));
        assert_eq!(carol.room_name(), None, "the watcher is sent to the lobby");
        assert!(carol.take_notices()[0].contains("the game in room den is adjourned"));
        assert!(!club.has_room("den"), "the room is gone");
        assert!(club.flush(Duration::from_secs(10)));
        assert_eq!(store.unfinished().unwrap().len(), 1, "the game is kept");
        // A player back: the room again, the game where it was, and the reason told.
        let alice = connect(&club, "alice");
        assert_eq!(alice.room_name().as_deref(), Some("den"));
        let told = alice.take_notices();
        assert!(
            told[0].contains("you were both away over 1 min"),
            "{told:?}"
        );
        let (view, role) = alice.room(Instant::now()).unwrap();
        assert_eq!(role, Role::Player(Color::White));
        assert_eq!(view.game.sans(), ["e4"]);
        assert!(view.waiting);
    }

    #[test]
    fn an_adjourned_game_whose_room_name_was_taken_meanwhile_gets_a_new_room() {
        let store = Arc::new(SqliteStore::in_memory().unwrap());
        a_game_then_a_stop(&store, "alice", "bob");
        let club = club_on(&store, Limits::default());
        let carol = connect(&club, "carol");
        assert_eq!(carol.join("den").unwrap(), Role::Player(Color::White));
        let alice = connect(&club, "alice");
        let room = alice.room_name().unwrap();
        assert_ne!(room, "den");
        let (view, role) = alice.room(Instant::now()).unwrap();
        assert_eq!(role, Role::Player(Color::White));
        assert_eq!(view.game.sans(), ["e4", "e5"]);
        let (den, _) = carol.room(Instant::now()).unwrap();
        assert!(
            den.game.is_empty() && den.seats[1].is_none(),
            "carol's room untouched"
        );
    }

    #[test]
    fn an_open_visitors_game_is_never_restored_and_ids_are_never_reused() {
        let store = Arc::new(SqliteStore::in_memory().unwrap());
        let first = club_on(&store, Limits::default());
        let (v1, v2) = (first.visitor_id(1), first.visitor_id(2));
        // A visitors' game kept as going on (as a server that stopped mid-game, or an
        // older ox88, left it).
        store
            .save_game(&GameRecord {
                id: "den-1".into(),
                room: "den".into(),
                white: v1.clone(),
                black: v2.clone(),
                white_name: "v1".into(),
                black_name: "v2".into(),
                pgn: "1. e4 e5 *".into(),
                result: None,
                termination: None,
                time_control: None,
                rated: false,
                clocks_ms: None,
            })
            .unwrap();
        assert_eq!(store.unfinished().unwrap().len(), 1);
        let club = club_on(&store, Limits::default());
        assert!(club.flush(Duration::from_secs(10)));
        assert!(
            store.unfinished().unwrap().is_empty(),
            "it ended at the start"
        );
        let id = club.visitor_id(1);
        assert_ne!(id, v1, "a new run gives new ids");
        assert!(crate::club::is_visitor_id(&id));
        let stranger = connect(&club, &id);
        assert_eq!(stranger.room_name(), None, "seated in nobody's game");
        assert_eq!(stranger.join("den").unwrap(), Role::Player(Color::White));
        let (view, _) = stranger.room(Instant::now()).unwrap();
        assert!(view.game.is_empty() && !view.began);
    }

    #[test]
    fn a_visitors_room_both_players_left_ends_and_is_not_kept() {
        let store = Arc::new(SqliteStore::in_memory().unwrap());
        let club = club_on(&store, Limits::default());
        let (a, b) = (
            connect(&club, &club.visitor_id(1)),
            connect(&club, &club.visitor_id(2)),
        );
        a.join("den").unwrap();
        b.join("den").unwrap();
        a.act(Action::Move("e4".into())).unwrap();
        assert!(club.flush(Duration::from_secs(10)));
        assert_eq!(store.unfinished().unwrap().len(), 1);
        drop(a);
        assert!(club.has_room("den"), "one player is still there");
        drop(b);
        assert!(!club.has_room("den"), "the room is gone");
        assert!(club.flush(Duration::from_secs(10)));
        assert!(
            store.unfinished().unwrap().is_empty(),
            "not kept as going on"
        );
        assert!(club.lobby_view(0, Instant::now()).games.is_empty());
    }

    #[test]
    fn spoken_durations() {
        assert_eq!(spoken(Duration::from_secs(600)), "10 min");
        assert_eq!(spoken(Duration::from_secs(90)), "90 s");
        assert_eq!(spoken(Duration::from_secs(7200)), "2 h");
    }
}
