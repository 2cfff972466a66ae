//! The lobby as a viewer draws it: who is online and where, the seeks, the challenges to
//! and from the viewer, the games going on and the rooms waiting for an opponent. The
//! owner makes one [`Snapshot`] after each change (a short look at each room's summary:
//! no room's game is copied), and every lobby viewer reads that one.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::owner::Owner;
use super::shown;
use super::tournament_state::TournamentRow;
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

/// A study for the lobby's list (`:study NAME` joins it).
#[derive(Clone, Debug, PartialEq)]
pub struct StudyRow {
    pub name: String,
    pub owner: String,
    pub chapters: usize,
    /// Members in it now.
    pub present: usize,
    pub private: bool,
    /// The viewer may move in it (their own, or given the right).
    pub mine: bool,
}

/// The most studies the lobby lists for one viewer (those with people in them first).
const STUDIES_LISTED: usize = 12;

/// A study as the snapshot keeps it: its row and who may move in it.
#[derive(Clone, Debug)]
struct ListedStudy {
    row: StudyRow,
    movers: Vec<String>,
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
    /// The tournaments, newest first (starting, running, finished).
    pub tournaments: Vec<TournamentRow>,
    /// The studies open to the viewer: their own and public ones.
    pub studies: Vec<StudyRow>,
    /// The viewer's own name and rating.
    pub me: String,
    pub my_rating: Option<u32>,
}

/// A game of the lobby's list with its clocks as they stood when the lobby was published,
/// and whose was running: a reader ages them to its own instant.
#[derive(Clone, Debug)]
struct Listed {
    game: GameView,
    running: Option<Color>,
}

/// The lobby as the owner publishes it after a change: one for every viewer, who picks
/// what is theirs (challenges to and from them, their own name) and ages the clocks.
#[derive(Debug, Default)]
pub(super) struct Snapshot {
    at: Option<Instant>,
    online: Vec<OnlineView>,
    seeks: Vec<SeekView>,
    /// Each challenge with the viewers it is from and to.
    challenges: Vec<(u64, u64, ChallengeView)>,
    games: Vec<Listed>,
    waiting: Vec<WaitingView>,
    tournaments: Vec<TournamentRow>,
    studies: Vec<ListedStudy>,
    /// Each viewer's name and rating as shown.
    me: HashMap<u64, (String, Option<u32>)>,
    /// Each viewer's member id.
    members: HashMap<u64, String>,
}

impl Owner {
    /// The lobby made again from the owner's state at `now` and published: one snapshot
    /// every lobby viewer reads.
    /// Returns whether it changed in more than its games' moves and clocks (what the
    /// lobby's screens are woken for at once).
    pub(super) fn publish_lobby(&self, now: Instant) -> bool {
        let snapshot = std::sync::Arc::new(Snapshot::of(self, now));
        let mut published = self.published.lock().unwrap_or_else(|e| e.into_inner());
        let more_than_moves = !snapshot.same_but_moves(&published);
        *published = snapshot;
        more_than_moves
    }
}

impl Snapshot {
    /// The lobby as `owner` holds it at `now`: each room's summary once, each member once
    /// however many sessions they have (in the room of any of them).
    pub(super) fn of(owner: &Owner, now: Instant) -> Snapshot {
        let name_of = |v: u64| owner.name_of(v);
        let rating_of = |v: u64| {
            owner
                .viewers
                .get(&v)
                .filter(|e| e.member.rated)
                .map(|e| shown(&e.rating))
        };
        let mut members: HashMap<&str, OnlineView> = HashMap::new();
        let mut ids: Vec<&u64> = owner.viewers.keys().collect();
        ids.sort();
        for id in ids {
            let e = &owner.viewers[id];
            let seen = members.entry(&e.member.id).or_insert_with(|| OnlineView {
                name: e.member.name.clone(),
                rating: e.member.rated.then(|| shown(&e.rating)),
                room: None,
            });
            if seen.room.is_none() {
                seen.room = e.room.clone();
            }
        }
        let mut online: Vec<OnlineView> = members.into_values().collect();
        online.sort_by(|a, b| a.name.cmp(&b.name));
        let seeks = owner
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
        let challenges = owner
            .challenges
            .iter()
            .map(|c| {
                let view = ChallengeView {
                    number: c.number,
                    from: name_of(c.from),
                    to: name_of(c.to),
                    time_control: c.time_control,
                    rated: c.rated,
                };
                (c.from, c.to, view)
            })
            .collect();
        let me = owner
            .viewers
            .iter()
            .map(|(&id, e)| {
                let rating = e.member.rated.then(|| shown(&e.rating));
                (id, (e.member.name.clone(), rating))
            })
            .collect();
        // A summary of each room (names, clocks, counts): no room's game is copied.
        let mut games = Vec::new();
        let mut waiting = Vec::new();
        for room in owner.rooms.values() {
            let s = room.summary(now);
            let white_waits = s.players[0].is_some();
            match s.players {
                [Some((white, _)), Some((black, _))] if s.going => games.push(Listed {
                    running: s.running,
                    game: GameView {
                        number: 0,
                        room: s.name,
                        white,
                        black,
                        clocks: s.clocks,
                        move_number: s.move_number,
                        watchers: s.watchers,
                    },
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
        games.sort_by(|a, b| a.game.room.cmp(&b.game.room));
        for (i, g) in games.iter_mut().enumerate() {
            g.game.number = i as u32 + 1;
        }
        waiting.sort_by(|a, b| a.room.cmp(&b.room));
        let mut studies: Vec<ListedStudy> = owner
            .studies
            .iter()
            .map(|st| ListedStudy {
                row: StudyRow {
                    name: st.name().to_string(),
                    owner: st.owner_name().to_string(),
                    chapters: st.chapters().len(),
                    present: st.present().len(),
                    private: st.is_private(),
                    mine: false,
                },
                movers: std::iter::once(st.owner().to_string())
                    .chain(st.contributor_ids().map(str::to_string))
                    .collect(),
            })
            .collect();
        studies.sort_by(|a, b| {
            b.row
                .present
                .cmp(&a.row.present)
                .then_with(|| a.row.name.cmp(&b.row.name))
        });
        let members = owner
            .viewers
            .iter()
            .map(|(&id, e)| (id, e.member.id.clone()))
            .collect();
        Snapshot {
            at: Some(now),
            online,
            seeks,
            challenges,
            games,
            waiting,
            tournaments: owner.tournament_rows(now),
            studies,
            me,
            members,
        }
    }

    /// Is `other` this lobby but for its games' move numbers and clocks?
    fn same_but_moves(&self, other: &Snapshot) -> bool {
        let games = |s: &Snapshot| -> Vec<(String, String, String, usize)> {
            s.games
                .iter()
                .map(|l| {
                    let g = &l.game;
                    (g.room.clone(), g.white.clone(), g.black.clone(), g.watchers)
                })
                .collect()
        };
        let tournaments = |s: &Snapshot| -> Vec<TournamentRow> {
            s.tournaments
                .iter()
                .map(|t| TournamentRow {
                    until: None,
                    ..t.clone()
                })
                .collect()
        };
        let studies =
            |s: &Snapshot| -> Vec<StudyRow> { s.studies.iter().map(|l| l.row.clone()).collect() };
        self.online == other.online
            && self.seeks == other.seeks
            && self.challenges.len() == other.challenges.len()
            && self
                .challenges
                .iter()
                .zip(&other.challenges)
                .all(|(a, b)| a == b)
            && self.waiting == other.waiting
            && self.me == other.me
            && games(self) == games(other)
            && tournaments(self) == tournaments(other)
            && studies(self) == studies(other)
    }

    /// The lobby as viewer `me` draws it at `now`: the running clocks aged since the
    /// snapshot was made, so a lobby nobody changes still shows them going down.
    pub(super) fn for_viewer(&self, me: u64, now: Instant) -> LobbyView {
        let since = self
            .at
            .map_or(Duration::ZERO, |at| now.saturating_duration_since(at));
        let games = self
            .games
            .iter()
            .map(|l| {
                let mut g = l.game.clone();
                if let (Some(clocks), Some(side)) = (g.clocks.as_mut(), l.running) {
                    let i = usize::from(side == Color::Black);
                    clocks[i] = clocks[i].saturating_sub(since);
                }
                g
            })
            .collect();
        let (me_name, my_rating) = self.me.get(&me).cloned().unwrap_or_default();
        LobbyView {
            online: self.online.clone(),
            seeks: self.seeks.clone(),
            challenges: self
                .challenges
                .iter()
                .filter(|(from, to, _)| *from == me || *to == me)
                .map(|(_, _, c)| c.clone())
                .collect(),
            games,
            waiting: self.waiting.clone(),
            tournaments: self
                .tournaments
                .iter()
                .map(|t| {
                    let mut t = t.clone();
                    t.until = t.until.map(|u| u.saturating_sub(since));
                    t
                })
                .collect(),
            studies: {
                let member = self.members.get(&me).map_or("", String::as_str);
                self.studies
                    .iter()
                    .filter_map(|l| {
                        let mine = l.movers.iter().any(|m| m == member);
                        (mine || !l.row.private).then(|| StudyRow {
                            mine,
                            ..l.row.clone()
                        })
                    })
                    .take(STUDIES_LISTED)
                    .collect()
            },
            me: me_name,
            my_rating,
        }
    }
}
