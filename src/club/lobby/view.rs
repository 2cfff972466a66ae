//! The lobby as a viewer draws it: who is online and where, the seeks, the challenges to
//! and from the viewer, the games going on and the rooms waiting for an opponent. Read
//! under the club's lock for the club's own table, then a short look at each room's
//! summary (no room's game is copied).

use std::time::{Duration, Instant};

use super::{Club, lock, shown};
use crate::chess::Color;
use crate::game::clock::TimeControl;

/// A seek in the lobby: someone waiting for an opponent.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekView {
    pub number: u32,
    pub name: String,
    pub rating: Option<u32>,
    pub time_control: Option<TimeControl>,
    /// The colour the seeker wants, if any.
    pub color: Option<Color>,
    pub rated: bool,
}

/// A challenge from one member to another.
#[derive(Clone, Debug, PartialEq)]
pub struct ChallengeView {
    pub number: u32,
    pub from: String,
    pub to: String,
    pub time_control: Option<TimeControl>,
    pub rated: bool,
}

/// A game being played, for the lobby's list.
#[derive(Clone, Debug, PartialEq)]
pub struct GameView {
    pub number: u32,
    pub room: String,
    pub white: String,
    pub black: String,
    /// Time left for White and Black.
    pub clocks: Option<[Duration; 2]>,
    /// The move number being played.
    pub move_number: u32,
    pub watchers: usize,
}

/// A room with one player waiting for an opponent, for the lobby's list (`:join ROOM`).
#[derive(Clone, Debug, PartialEq)]
pub struct WaitingView {
    pub room: String,
    pub name: String,
    pub rating: Option<u32>,
    pub time_control: Option<TimeControl>,
    /// The colour the waiting player holds (the newcomer gets the other).
    pub color: Color,
    pub rated: bool,
}

/// Someone online, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineView {
    pub name: String,
    pub rating: Option<u32>,
    /// The room they are in, if any.
    pub room: Option<String>,
}

/// The lobby as a viewer draws it.
#[derive(Clone, Debug, Default)]
pub struct LobbyView {
    pub online: Vec<OnlineView>,
    pub seeks: Vec<SeekView>,
    /// Challenges to or from the viewer.
    pub challenges: Vec<ChallengeView>,
    pub games: Vec<GameView>,
    /// Rooms where one player waits for an opponent.
    pub waiting: Vec<WaitingView>,
    /// The viewer's own name and rating.
    pub me: String,
    pub my_rating: Option<u32>,
}

impl Club {
    pub(super) fn lobby_view(&self, me: u64, now: Instant) -> LobbyView {
        let st = lock(&self.state);
        let name_of = |v: u64| {
            st.viewers
                .get(&v)
                .map(|e| e.member.name.clone())
                .unwrap_or_default()
        };
        let rating_of = |v: u64| {
            st.viewers
                .get(&v)
                .filter(|e| e.member.rated)
                .map(|e| shown(&e.rating))
        };
        let mut online: Vec<OnlineView> = st
            .viewers
            .values()
            .map(|e| OnlineView {
                name: e.member.name.clone(),
                rating: e.member.rated.then(|| shown(&e.rating)),
                room: e.room.clone(),
            })
            .collect();
        online.sort_by(|a, b| a.name.cmp(&b.name));
        let seeks = st
            .seeks
            .iter()
            .map(|s| SeekView {
                number: s.number,
                name: name_of(s.viewer),
                rating: rating_of(s.viewer),
                time_control: s.time_control,
                color: s.color,
                rated: s.rated,
            })
            .collect();
        let challenges = st
            .challenges
            .iter()
            .filter(|c| c.from == me || c.to == me)
            .map(|c| ChallengeView {
                number: c.number,
                from: name_of(c.from),
                to: name_of(c.to),
                time_control: c.time_control,
                rated: c.rated,
            })
            .collect();
        let rooms: Vec<_> = st.rooms.values().cloned().collect();
        let (me_name, my_rating) = st
            .viewers
            .get(&me)
            .map(|e| {
                (
                    e.member.name.clone(),
                    e.member.rated.then(|| shown(&e.rating)),
                )
            })
            .unwrap_or_default();
        drop(st);
        // A summary of each room (names, clocks, counts): no room's game is copied.
        let mut games = Vec::new();
        let mut waiting = Vec::new();
        for room in rooms {
            let s = lock(&room).summary(now);
            let white_waits = s.players[0].is_some();
            match s.players {
                [Some((white, _)), Some((black, _))] if s.going => games.push(GameView {
                    number: 0,
                    room: s.name,
                    white,
                    black,
                    clocks: s.clocks,
                    move_number: s.move_number,
                    watchers: s.watchers,
                }),
                [Some((name, rating)), None] | [None, Some((name, rating))] if !s.began => {
                    waiting.push(WaitingView {
                        color: if white_waits {
                            Color::White
                        } else {
                            Color::Black
                        },
                        room: s.name,
                        name,
                        rating,
                        time_control: s.time_control,
                        rated: s.rated,
                    });
                }
                _ => {}
            }
        }
        games.sort_by(|a, b| a.room.cmp(&b.room));
        for (i, g) in games.iter_mut().enumerate() {
            g.number = i as u32 + 1;
        }
        waiting.sort_by(|a, b| a.room.cmp(&b.room));
        LobbyView {
            online,
            seeks,
            challenges,
            games,
            waiting,
            me: me_name,
            my_rating,
        }
    }
}
