//! Games without a room. A game is adjourned — stopped without a result, kept in the store
//! as unfinished — when the server restarts, when a claim meets a player who has not been
//! back since, and when both players have been away longer than the club's limit. It waits
//! here until a player of its own comes back (logging in, or `:join ROOM`): then its room is
//! made again, they are seated and told what happened while they were away, and the clocks
//! stay stopped until the other is back too.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

use super::{Club, State, Viewer, lock, wake};
use crate::club::room::Room;
use crate::club::store::{GameRecord, Store};
use crate::club::{ClubError, Notify, is_visitor_id};

/// A game kept without a room, and what each of its players is to be told when back.
pub(super) struct Adjourned {
    record: GameRecord,
    /// `(member id, text)`, given when that member is back in the game's room.
    news: Vec<(String, String)>,
}

impl Adjourned {
    fn plays(&self, id: &str) -> bool {
        self.record.white == id || self.record.black == id
    }

    fn opponent_of(&self, id: &str) -> &str {
        if self.record.white == id {
            &self.record.black
        } else {
            &self.record.white
        }
    }
}

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

/// The room of `member`'s adjourned game (the one of room `name`, if given) made again and
/// listed under its name (a new one if a room of its name is open meanwhile); with the
/// room's name and the opponent's id. `None` when there is none.
pub(super) fn reopen(
    st: &mut State,
    member: &str,
    name: Option<&str>,
) -> Option<(String, Arc<Mutex<Room>>, String)> {
    let i = st
        .adjourned
        .iter()
        .position(|a| a.plays(member) && name.is_none_or(|n| a.record.room == n))?;
    let opponent = st.adjourned[i].opponent_of(member).to_string();
    let Adjourned { mut record, news } = st.adjourned.remove(i);
    if st.rooms.contains_key(&record.room) {
        record.room = Club::new_room_name(st);
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
    let room = Arc::new(Mutex::new(room));
    st.rooms.insert(record.room.clone(), Arc::clone(&room));
    Some((record.room, room, opponent))
}

/// What `opponent` is told when `me` is back in the room of their adjourned game.
pub(super) fn back_note(opponent: &str, me: &str, room: &str) -> Vec<(String, String)> {
    vec![(
        opponent.to_string(),
        format!("{me} is back in room {room}: your adjourned game waits for you (:join {room})"),
    )]
}

/// `d` in words: `10 min`, `90 s`, `2 h`.
fn spoken(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 && s % 3600 == 0 {
        format!("{} h", s / 3600)
    } else if s >= 60 && s % 60 == 0 {
        format!("{} min", s / 60)
    } else {
        format!("{s} s")
    }
}

impl Club {
    /// Adjourns `room`'s game if both its players have been away for the club's limit
    /// (each is told when back). True when it did: the room is then to be closed.
    pub(super) fn adjourn_if_abandoned(&self, room: &mut Room, now: Instant) -> bool {
        let after = self.limits.abandon_after;
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

    /// Closes room `name`, whose game was just adjourned: the game is kept (in the store,
    /// unfinished, and here for its players' return), and whoever was in the room goes to
    /// the lobby, told why.
    pub(super) fn close_adjourned(&self, name: &str, room: &Arc<Mutex<Room>>, now: Instant) {
        let (record, news) = {
            let mut r = lock(room);
            (r.record(now), r.take_held_news())
        };
        let told =
            format!("the game in room {name} is adjourned: it goes on when both players are back");
        let woken: Vec<Notify> = {
            let mut st = lock(&self.state);
            if !st.rooms.get(name).is_some_and(|r| Arc::ptr_eq(r, room)) {
                return;
            }
            st.rooms.remove(name);
            if let Some(record) = &record {
                st.adjourned.push(Adjourned {
                    record: record.clone(),
                    news,
                });
            }
            let inside: Vec<u64> = st
                .viewers
                .iter()
                .filter(|(_, e)| e.room.as_deref() == Some(name))
                .map(|(&id, _)| id)
                .collect();
            inside
                .into_iter()
                .filter_map(|id| {
                    st.viewers.get_mut(&id)?.room = None;
                    st.notice(id, told.clone())
                })
                .collect()
        };
        wake(woken);
        self.after_change(name, record, None);
    }
}

impl Viewer {
    /// At login, with no seat in a game going on: back to this member's adjourned game,
    /// its room made again (or told why not, when the server holds all the rooms it may).
    pub(super) fn resume_adjourned(&self) {
        let reopened = {
            let mut st = lock(&self.club.state);
            if !st.adjourned.iter().any(|a| a.plays(&self.member.id)) {
                return;
            }
            if let Err(e) = self.club.room_for_one_more(&st) {
                let text = format!("your adjourned game waits for a room: {e}");
                let notify = st.notice(self.id, text);
                drop(st);
                if let Some(n) = notify {
                    n();
                }
                return;
            }
            reopen(&mut st, &self.member.id, None)
        };
        if let Some((name, room, opponent)) = reopened {
            self.enter(&name, &room, Some(opponent), Instant::now());
        }
    }
}
