//! The club itself: who is online, the rooms by name, the seeks and challenges, and the
//! store behind them.
//!
//! Games without a room (adjourned: the server restarted, or both players were away too
//! long) wait in `adjourned.rs` until a player of theirs comes back.
//!
//! Locks: the club's own state (viewers, room names, seeks) sits behind one mutex held for
//! a few lookups at a time; each room has a mutex of its own, so a move in one room never
//! waits for another room. The club's lock is never taken while a room's is held. After a
//! change the viewers concerned are woken through their [`Notify`]; they read again.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use super::room::{Action, Finished, Role, Room, RoomView};
use super::store::{GameRecord, Store};
use super::text::OPEN_MARK;
use super::writer::{Report, Write, Writer};
use super::{ClubError, Member, Notify, SignedIn, text};
use crate::chess::Color;
use crate::game::clock::TimeControl;
use crate::game::glicko::Rating;

mod adjourned;
mod offers;
mod view;
use adjourned::Adjourned;
pub use view::{ChallengeView, GameView, LobbyView, OnlineView, SeekView, WaitingView};

/// The time control of a room opened by name (its opener may not have said).
pub const ROOM_TIME_CONTROL: &str = "10+5";
/// Rooms at once by default (`--max-rooms`); beyond this a new room is refused.
pub const MAX_ROOMS: usize = 1000;
/// How long both players of a game may be away before its room closes, by default
/// (`--abandon-after`): the game is adjourned, kept, and goes on when they are back.
pub const ABANDON_AFTER: Duration = Duration::from_secs(600);
/// Challenges one member may have out at once (one per opponent).
pub const CHALLENGES_OUT: usize = 5;
/// Notices waiting for one viewer (older ones go).
const NOTICES_KEPT: usize = 20;
/// How long `:games` waits for the viewer's last games to be written before reading.
const GAMES_WAIT: Duration = Duration::from_secs(1);

struct Entry {
    member: Member,
    notify: Notify,
    room: Option<String>,
    rating: Rating,
    notices: Vec<String>,
}

struct Seek {
    number: u32,
    viewer: u64,
    time_control: Option<TimeControl>,
    color: Option<Color>,
    rated: bool,
}

struct Challenge {
    number: u32,
    from: u64,
    to: u64,
    time_control: Option<TimeControl>,
    rated: bool,
}

#[derive(Default)]
struct State {
    viewers: HashMap<u64, Entry>,
    rooms: HashMap<String, Arc<Mutex<Room>>>,
    seeks: Vec<Seek>,
    challenges: Vec<Challenge>,
    /// Games kept without a room until a player of theirs comes back.
    adjourned: Vec<Adjourned>,
    /// Numbers for viewers, seeks, challenges and the rooms games are given.
    next: u64,
}

impl State {
    fn number(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// The viewers in `room`, to wake.
    fn in_room(&self, room: &str) -> Vec<Notify> {
        self.viewers
            .values()
            .filter(|e| e.room.as_deref() == Some(room))
            .map(|e| Arc::clone(&e.notify))
            .collect()
    }

    /// The viewers in the lobby, to wake.
    fn in_lobby(&self) -> Vec<Notify> {
        self.viewers
            .values()
            .filter(|e| e.room.is_none())
            .map(|e| Arc::clone(&e.notify))
            .collect()
    }

    fn notice(&mut self, viewer: u64, text: String) -> Option<Notify> {
        let e = self.viewers.get_mut(&viewer)?;
        if e.notices.len() >= NOTICES_KEPT {
            e.notices.remove(0);
        }
        e.notices.push(text);
        Some(Arc::clone(&e.notify))
    }
}

/// What the club holds at most, and how long it waits (the server's flags set them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Rooms at once, however they are made (by name, a seek or challenge accepted, an
    /// adjourned game resumed).
    pub max_rooms: usize,
    /// Both players away this long: the game is adjourned and its room closes.
    pub abandon_after: Duration,
    /// Challenges one member may have out at once.
    pub challenges: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_rooms: MAX_ROOMS,
            abandon_after: ABANDON_AFTER,
            challenges: CHALLENGES_OUT,
        }
    }
}

/// Where the club reads the time: the system's clock in the server; in tests a clock moved
/// by hand, so that a rule about minutes is checked in microseconds.
pub type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The club.
pub struct Club {
    state: Mutex<State>,
    /// Read here; written only through `writer`, on its own thread.
    store: Arc<dyn Store>,
    writer: Writer,
    limits: Limits,
    /// What the club's own actions (a join, a move, a leave) take as the time.
    clock: Clock,
    /// This run of the server, as a token of its own: open visitors' ids carry it, so no
    /// id is ever given out twice.
    run: String,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn wake(all: Vec<Notify>) {
    for n in all {
        n();
    }
}

fn shown(r: &Rating) -> u32 {
    r.rating.round().max(0.0) as u32
}

impl Club {
    /// A club on `store` with the default [`Limits`].
    pub fn new(store: Arc<dyn Store>) -> Result<Arc<Club>, ClubError> {
        Club::with_limits(store, Limits::default())
    }

    /// A club on `store`: the games that were going on when the server last stopped are
    /// adjourned, each waiting for a player of its own to come back (its room is made
    /// then); open visitors' games end there, as they can never come back.
    pub fn with_limits(store: Arc<dyn Store>, limits: Limits) -> Result<Arc<Club>, ClubError> {
        Club::with_clock(store, limits, Arc::new(Instant::now))
    }

    /// [`Club::with_limits`] reading the time from `clock` (tests pass one they move by
    /// hand, with the same times to [`Club::tick`] and the views).
    pub fn with_clock(
        store: Arc<dyn Store>,
        limits: Limits,
        clock: Clock,
    ) -> Result<Arc<Club>, ClubError> {
        let started = chrono::Utc::now();
        let state = State {
            adjourned: adjourned::at_start(store.as_ref(), started)?,
            ..State::default()
        };
        // The writer tells the club of ratings and failures; it starts before the club
        // exists, so it finds it through a slot filled just below.
        let club_slot: Arc<OnceLock<Weak<Club>>> = Arc::new(OnceLock::new());
        let slot = Arc::clone(&club_slot);
        let writer = Writer::start(Arc::clone(&store), move |report| {
            if let Some(club) = slot.get().and_then(Weak::upgrade) {
                club.reported(report);
            }
        })
        .map_err(|e| ClubError::new(format!("cannot start the database's writer: {e}")))?;
        let club = Arc::new(Club {
            state: Mutex::new(state),
            store,
            writer,
            limits,
            clock,
            run: format!("{:x}{:04x}", started.timestamp(), rand::random::<u16>()),
        });
        let _ = club_slot.set(Arc::downgrade(&club));
        Ok(club)
    }

    /// The time by the club's clock.
    pub fn now(&self) -> Instant {
        (self.clock)()
    }

    /// The member id of this run's `n`th open visitor (never one of an earlier run's).
    pub fn visitor_id(&self, n: u64) -> String {
        super::visitor_id(&self.run, n)
    }

    /// One more room may be made, or why not.
    fn room_for_one_more(&self, st: &State) -> Result<(), ClubError> {
        if st.rooms.len() >= self.limits.max_rooms {
            return Err(ClubError::new(format!(
                "the server holds as many rooms as it may ({}): join one that is open, or \
                 try again when a game ends",
                self.limits.max_rooms
            )));
        }
        Ok(())
    }

    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Waits until every write queued so far is in the store, or `within` has passed;
    /// whether they all are.
    pub fn flush(&self, within: Duration) -> bool {
        self.writer.flush(within)
    }

    /// Writes queued and not yet in the store.
    pub fn unsaved(&self) -> usize {
        self.writer.pending()
    }

    /// Passes a room's notes on as notices to the members they are for (each of their
    /// sessions), and wakes those screens.
    fn tell(&self, notes: Vec<(String, String)>) {
        if notes.is_empty() {
            return;
        }
        let wake: Vec<Notify> = {
            let mut st = lock(&self.state);
            let mut wake = Vec::new();
            for (member, text) in notes {
                let to: Vec<u64> = st
                    .viewers
                    .iter()
                    .filter(|(_, e)| e.member.id == member)
                    .map(|(&id, _)| id)
                    .collect();
                wake.extend(to.into_iter().filter_map(|id| st.notice(id, text.clone())));
            }
            wake
        };
        for n in wake {
            n();
        }
    }

    /// A member comes online; `notify` wakes their screen. A player with a seat in a game
    /// that goes on is put back in its room. The member is who [`Club::sign_in`] said
    /// (an account's name, or an open visitor's own); what sign-in had to tell them comes
    /// as their first notices.
    pub fn connect(self: &Arc<Self>, who: impl Into<SignedIn>, notify: Notify) -> Viewer {
        let SignedIn {
            mut member,
            told: greetings,
        } = who.into();
        // Cleaned before anything keeps it: the database and every screen see one name.
        member.name = text::clean_name(&member);
        let rating = if member.rated {
            self.store
                .player(&member.id, &member.name)
                .unwrap_or_else(|e| {
                    eprintln!("ox88 serve: {e}");
                    Rating::default()
                })
        } else {
            Rating::default()
        };
        let mut st = lock(&self.state);
        member.name = unique_name(&st, &member);
        let id = st.number();
        let seated = st
            .rooms
            .iter()
            .map(|(name, room)| (name.clone(), Arc::clone(room)))
            .collect::<Vec<_>>();
        st.viewers.insert(
            id,
            Entry {
                member: member.clone(),
                notify,
                room: None,
                rating,
                notices: greetings,
            },
        );
        drop(st);
        let viewer = Viewer {
            club: Arc::clone(self),
            id,
            member: member.clone(),
        };
        // Back to a seat the member holds (a dropped connection, a restarted server).
        viewer.seat_back(seated);
        self.wake_lobby();
        viewer
    }

    fn wake_lobby(&self) {
        let all = lock(&self.state).in_lobby();
        wake(all);
    }

    fn room(&self, name: &str) -> Option<Arc<Mutex<Room>>> {
        lock(&self.state).rooms.get(name).cloned()
    }

    /// Time passes in every room: flags fall, and a room whose players have both been
    /// away for [`Limits::abandon_after`] closes (its game adjourned). Call it often (the
    /// server does, ten times a second); a room with nothing due costs a lock.
    pub fn tick(&self, now: Instant) {
        let rooms: Vec<_> = lock(&self.state)
            .rooms
            .iter()
            .map(|(n, r)| (n.clone(), Arc::clone(r)))
            .collect();
        for (name, room) in rooms {
            let (finished, record, abandoned) = {
                let mut r = lock(&room);
                let changed = r.tick(now);
                let abandoned = self.adjourn_if_abandoned(&mut r, now);
                if !changed && !abandoned {
                    continue;
                }
                (r.take_finished(now), r.record(now), abandoned)
            };
            if abandoned {
                self.close_adjourned(&name, &room, now);
            } else {
                self.after_change(&name, record, finished);
            }
        }
    }

    /// Saves every game going on with its clocks as they stand (the server is stopping:
    /// they go on after a restart when both players are back), then waits up to `within`
    /// for everything queued to be written; whether it all was.
    pub fn save_all(&self, now: Instant, within: Duration) -> bool {
        let rooms: Vec<_> = lock(&self.state).rooms.values().cloned().collect();
        for room in rooms {
            let record = {
                let r = lock(&room);
                let v = r.view(now);
                if v.result.is_some() || v.aborted {
                    None
                } else {
                    r.record(now)
                }
            };
            if let Some(record) = record {
                self.writer.send(Write::Save(record));
            }
        }
        self.writer.flush(within)
    }

    /// What follows a change in `room`: the room's viewers and the lobby woken, then the
    /// game's save (and a finished game's rating) queued for the writer's thread.
    fn after_change(&self, room: &str, record: Option<GameRecord>, finished: Option<Finished>) {
        let (in_room, in_lobby) = {
            let st = lock(&self.state);
            (st.in_room(room), st.in_lobby())
        };
        wake(in_room);
        wake(in_lobby);
        if let Some(record) = record {
            self.writer.send(Write::Save(record));
        }
        if let Some(f) = finished {
            let game = f.record.id.clone();
            self.writer.send(Write::Save(f.record));
            if f.rated {
                self.writer.send(Write::Rate {
                    game,
                    room: room.to_string(),
                    players: f.players,
                    white_score: f.white_score,
                });
            }
        }
    }

    /// What the writer's thread reports: new ratings shown (a notice to each player and
    /// the room's header), a game that cannot be saved told to its players, and told again
    /// once it is.
    fn reported(&self, report: Report) {
        match report {
            Report::Rated {
                room,
                players,
                ratings,
            } => {
                let notes = {
                    let mut st = lock(&self.state);
                    let mut notes = Vec::new();
                    for (id, new) in players.iter().zip(ratings) {
                        let mut before = None;
                        for e in st.viewers.values_mut().filter(|e| &e.member.id == id) {
                            before = Some(shown(&e.rating));
                            e.rating = new;
                        }
                        if let Some(before) = before {
                            let after = shown(&new);
                            let change = after as i64 - before as i64;
                            let text = format!("your rating: {before} → {after} ({change:+})");
                            notes.push((id.clone(), text));
                        }
                    }
                    notes
                };
                // The room's header shows the new ratings too (the club's lock is let go
                // first: it is never taken under a room's).
                if let Some(r) = self.room(&room) {
                    let mut r = lock(&r);
                    for (id, rating) in players.iter().zip(ratings) {
                        r.rating_changed(id, rating);
                    }
                }
                self.tell(notes);
                self.after_change(&room, None, None);
            }
            Report::Failing { room, players, .. } => {
                let text = format!(
                    "room {room}: the server cannot save the game just now; it keeps the \
                     moves and tries again"
                );
                self.tell(players.into_iter().map(|p| (p, text.clone())).collect());
            }
            Report::Saved { room, players } => {
                let text = format!("room {room}: the game is saved again");
                self.tell(players.into_iter().map(|p| (p, text.clone())).collect());
            }
        }
    }

    /// A fresh room name for a game made in the lobby.
    fn new_room_name(st: &mut State) -> String {
        loop {
            let n = st.number();
            let name = format!("game-{n}");
            if !st.rooms.contains_key(&name) {
                return name;
            }
        }
    }
}

/// The member's (clean) name, or another when a different member online already shows it
/// (in any case). An account's name is its own in the whole club, so only an open visitor
/// ever needs another: `name~2`, `name~3`… (`~` is in no account's name, so an open
/// visitor can never pass for a member). A member with a key who still meets their name
/// online (a club made by hand, in tests) is `name-2`.
fn unique_name(st: &State, member: &Member) -> String {
    let base = member.name.clone();
    let taken = |n: &str| {
        st.viewers
            .values()
            .any(|e| text::same_name(&e.member.name, n) && e.member.id != member.id)
    };
    if !taken(&base) {
        return base;
    }
    let (stem, mark) = if member.rated {
        (base.as_str(), '-')
    } else {
        (base.trim_end_matches(OPEN_MARK), OPEN_MARK)
    };
    (2..)
        .map(|i| format!("{stem}{mark}{i}"))
        .find(|n| !taken(n))
        .expect("some suffix is free")
}

/// One viewer's hold on the club, kept by their screen. Dropping it is leaving: a seat in a
/// game stays (the clock runs), everything else of the viewer's goes.
pub struct Viewer {
    club: Arc<Club>,
    id: u64,
    member: Member,
}

impl std::fmt::Debug for Viewer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Viewer")
            .field("id", &self.id)
            .field("member", &self.member)
            .finish()
    }
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let room = {
            let mut st = lock(&self.club.state);
            let e = st.viewers.remove(&self.id);
            st.seeks.retain(|s| s.viewer != self.id);
            st.challenges
                .retain(|c| c.from != self.id && c.to != self.id);
            e.and_then(|e| e.room)
        };
        if let Some(name) = room {
            self.leave_room_named(&name);
        }
        self.club.wake_lobby();
    }
}

impl Viewer {
    pub fn member(&self) -> &Member {
        &self.member
    }

    /// The club's database (a member's puzzle record is kept there).
    pub fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.club.store)
    }

    /// The name the club shows for this viewer (made unique among those online).
    pub fn name(&self) -> String {
        lock(&self.club.state)
            .viewers
            .get(&self.id)
            .map(|e| e.member.name.clone())
            .unwrap_or_else(|| self.member.name.clone())
    }

    pub fn lobby(&self, now: Instant) -> LobbyView {
        self.club.lobby_view(self.id, now)
    }

    /// The room this viewer is in, by name.
    pub fn room_name(&self) -> Option<String> {
        lock(&self.club.state)
            .viewers
            .get(&self.id)
            .and_then(|e| e.room.clone())
    }

    /// The room this viewer is in, as it stands now.
    pub fn room(&self, now: Instant) -> Option<(RoomView, Role)> {
        let name = self.room_name()?;
        let room = self.club.room(&name)?;
        let r = lock(&room);
        Some((
            r.view(now),
            r.role(&self.member.id).unwrap_or(Role::Watcher),
        ))
    }

    /// The next moment the room's screen changes by itself (a clock's second, a flag).
    pub fn next_due(&self, now: Instant) -> Option<Instant> {
        let room = self.club.room(&self.room_name()?)?;
        lock(&room).next_due(now)
    }

    /// Messages for this viewer since the last call (a challenge, a rating change).
    pub fn take_notices(&self) -> Vec<String> {
        lock(&self.club.state)
            .viewers
            .get_mut(&self.id)
            .map(|e| std::mem::take(&mut e.notices))
            .unwrap_or_default()
    }

    /// Joins (or opens) the room `name`: a seat while one is free, else watching.
    pub fn join(&self, name: &str) -> Result<Role, ClubError> {
        let name = text::room_name(name)?;
        let now = self.club.now();
        if let Some(current) = self.room_name() {
            if current == name {
                return self
                    .room(now)
                    .map(|(_, role)| role)
                    .ok_or_else(|| ClubError::new("the room is gone"));
            }
            self.leave_room();
        }
        let (room, remade) = {
            let mut st = lock(&self.club.state);
            match st.rooms.get(&name) {
                Some(room) => (Arc::clone(room), None),
                None => {
                    self.club.room_for_one_more(&st)?;
                    // This member's own adjourned game of that room, else a new room.
                    match adjourned::reopen(&mut st, &self.member.id, Some(&name)) {
                        Some((_, room, opponent)) => (room, Some(opponent)),
                        None => {
                            let tc = ROOM_TIME_CONTROL.parse().ok();
                            let room = Arc::new(Mutex::new(Room::new(&name, tc, true)));
                            st.rooms.insert(name.clone(), Arc::clone(&room));
                            (room, None)
                        }
                    }
                }
            }
        };
        Ok(self.enter(&name, &room, remade, now))
    }

    /// Into room `name`: seated or watching. `remade`: the room of an adjourned game was
    /// just made again, and this is the opponent of the one coming back.
    fn enter(
        &self,
        name: &str,
        room: &Arc<Mutex<Room>>,
        remade: Option<String>,
        now: Instant,
    ) -> Role {
        let rating = {
            let mut st = lock(&self.club.state);
            let e = st.viewers.get_mut(&self.id).expect("a viewer is listed");
            e.room = Some(name.to_string());
            e.member.rated.then_some(e.rating)
        };
        let (role, notes) = {
            let mut r = lock(room);
            (r.join(&self.member, rating, now), r.take_notes())
        };
        // What happened while they were away, and the opponent told they are back.
        self.club.tell(notes);
        if let Some(opponent) = remade {
            self.club
                .tell(adjourned::back_note(&opponent, &self.name(), name));
        }
        self.club.after_change(name, None, None);
        role
    }

    /// At login: back to the seat this member holds in a game going on, or to their
    /// adjourned game (its room made again).
    fn seat_back(&self, rooms: Vec<(String, Arc<Mutex<Room>>)>) {
        for (name, room) in rooms {
            if lock(&room).plays_here(&self.member.id) {
                let _ = self.join(&name);
                return;
            }
        }
        self.resume_adjourned();
    }

    /// Back to the lobby: a player keeps the seat of a game that goes on.
    pub fn leave_room(&self) {
        let name = {
            let mut st = lock(&self.club.state);
            st.viewers.get_mut(&self.id).and_then(|e| e.room.take())
        };
        if let Some(name) = name {
            self.leave_room_named(&name);
        }
    }

    fn leave_room_named(&self, name: &str) {
        let Some(room) = self.club.room(name) else {
            return;
        };
        // Another session of the same member still in the room keeps their seat there.
        let still_here = lock(&self.club.state)
            .viewers
            .values()
            .any(|e| e.member.id == self.member.id && e.room.as_deref() == Some(name));
        if still_here {
            self.club.after_change(name, None, None);
            return;
        }
        let (idle, ended) = {
            let mut r = lock(&room);
            let was_aborted = r.is_aborted();
            let now = self.club.now();
            r.leave(&self.member.id, now);
            // A visitors' game that no player is left in ends, and nothing of it is kept:
            // forgotten through the writer, after the saves queued before it.
            let ended = (!was_aborted && r.is_aborted())
                .then(|| r.record(now))
                .flatten()
                .map(|g| Write::Forget {
                    game: g.id,
                    room: g.room,
                    players: [g.white, g.black],
                });
            (r.is_idle(), ended)
        };
        if let Some(forget) = ended {
            self.club.writer.send(forget);
        }
        if idle {
            let mut st = lock(&self.club.state);
            // Still idle and nobody joined it since.
            if st.in_room(name).is_empty() && lock(&room).is_idle() {
                st.rooms.remove(name);
            }
        }
        self.club.after_change(name, None, None);
    }

    /// Does what the viewer asks in their room.
    pub fn act(&self, action: Action) -> Result<String, ClubError> {
        let name = self
            .room_name()
            .ok_or_else(|| ClubError::new("you are in the lobby: join a room first"))?;
        let room = self
            .club
            .room(&name)
            .ok_or_else(|| ClubError::new("the room is gone"))?;
        let now = self.club.now();
        let moved = matches!(action, Action::Move(_) | Action::Takeback);
        let (said, record, finished, aborted, notes, adjourned) = {
            let mut r = lock(&room);
            let was_adjourned = r.is_adjourned();
            let said = r.act(&self.member.id, action, now)?;
            let record = if moved { r.record(now) } else { None };
            // An aborted game that was saved is forgotten (one never saved has no record).
            let aborted = r
                .is_aborted()
                .then(|| r.record(now))
                .flatten()
                .map(|g| Write::Forget {
                    game: g.id,
                    room: g.room,
                    players: [g.white, g.black],
                });
            let adjourned = !was_adjourned && r.is_adjourned();
            (
                said,
                record,
                r.take_finished(now),
                aborted,
                r.take_notes(),
                adjourned,
            )
        };
        if adjourned {
            // A claim against a player not back since the game was restored.
            self.club.tell(notes);
            self.club.close_adjourned(&name, &room, now);
            return Ok(said);
        }
        // The room's lock is let go first: the club's is never taken under it.
        self.club.tell(notes);
        self.club.after_change(&name, record, finished);
        if let Some(forget) = aborted {
            self.club.writer.send(forget);
        }
        Ok(said)
    }

    /// Watches game `number` of the lobby's list.
    pub fn watch(&self, number: u32) -> Result<Role, ClubError> {
        let games = self.lobby(self.club.now()).games;
        let game = games
            .iter()
            .find(|g| g.number == number)
            .ok_or_else(|| ClubError::new(format!("no game {number} is being played")))?;
        self.join(&game.room)
    }

    /// This viewer's finished games, newest first (a game just ended is read once its
    /// write is done, waiting a moment for it).
    pub fn games(&self, limit: usize) -> Result<Vec<GameRecord>, ClubError> {
        self.club.writer.flush(GAMES_WAIT);
        self.club
            .store
            .games_of(&self.member.id, limit)
            .map_err(|e| ClubError::new(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::store::SqliteStore;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn member(id: &str, name: &str, rated: bool) -> Member {
        Member {
            id: id.into(),
            name: name.into(),
            rated,
        }
    }

    fn counter() -> (Notify, Arc<AtomicUsize>) {
        let n = Arc::new(AtomicUsize::new(0));
        let c = Arc::clone(&n);
        (
            Arc::new(move || {
                c.fetch_add(1, Ordering::Relaxed);
            }),
            n,
        )
    }

    fn club() -> Arc<Club> {
        Club::new(Arc::new(SqliteStore::in_memory().expect("a database"))).expect("a club")
    }

    #[test]
    fn two_members_play_a_room_by_name_and_the_third_watches() {
        let club = club();
        let (n, _) = counter();
        let alice = club.connect(member("a", "alice", true), Arc::clone(&n));
        let bob = club.connect(member("b", "bob", true), Arc::clone(&n));
        let carol = club.connect(member("c", "carol", false), n);
        assert_eq!(alice.join("den").unwrap(), Role::Player(Color::White));
        assert_eq!(bob.join("den").unwrap(), Role::Player(Color::Black));
        assert_eq!(carol.join("den").unwrap(), Role::Watcher);
        for (who, mv) in [(&alice, "f3"), (&bob, "e5"), (&alice, "g4"), (&bob, "Qh4#")] {
            who.act(Action::Move(mv.into())).unwrap();
        }
        assert!(carol.act(Action::Move("e4".into())).is_err());
        let (view, _) = carol.room(Instant::now()).unwrap();
        assert_eq!(view.result.map(|r| r.result()), Some("0-1"));
        let stored = alice.games(10).unwrap();
        assert_eq!(stored.len(), 1);
        assert_eq!(stored[0].result.as_deref(), Some("0-1"));
        assert!(stored[0].pgn.contains("Qh4#"));
        // A rated game between two keys moved both ratings.
        assert!(club.flush(Duration::from_secs(10)));
        let rating = club.store().rating("b").unwrap();
        assert!(rating.rating > 1500.0, "{rating:?}");
        // The room shows them, to the players and the watcher alike.
        let (view, _) = carol.room(Instant::now()).unwrap();
        let shown: Vec<_> = view
            .seats
            .iter()
            .map(|s| s.as_ref().unwrap().rating)
            .collect();
        let stored = |id| Some(club.store().rating(id).unwrap().rating.round() as u32);
        assert_eq!(shown, vec![stored("a"), stored("b")]);
        assert!(shown[1] > shown[0], "{shown:?}");
    }

    #[test]
    fn a_seek_accepted_seats_both_and_the_lobby_lists_the_game() {
        let club = club();
        let (n, woken) = counter();
        let alice = club.connect(member("a", "alice", true), Arc::clone(&n));
        let bob = club.connect(member("b", "bob", true), n);
        let seek = alice
            .seek("5+3".parse().ok(), Some(Color::Black), true)
            .unwrap();
        let lobby = bob.lobby(Instant::now());
        assert_eq!(lobby.seeks.len(), 1);
        assert_eq!(lobby.seeks[0].name, "alice");
        let before = woken.load(Ordering::Relaxed);
        let room = bob.accept(seek).unwrap();
        assert!(woken.load(Ordering::Relaxed) > before);
        assert_eq!(alice.room_name().as_deref(), Some(room.as_str()));
        let (_, role) = alice.room(Instant::now()).unwrap();
        assert_eq!(role, Role::Player(Color::Black));
        let lobby = club
            .connect(member("c", "carol", false), Arc::new(|| {}))
            .lobby(Instant::now());
        assert!(lobby.seeks.is_empty());
        assert_eq!(lobby.games.len(), 1);
        assert_eq!(
            (lobby.games[0].white.as_str(), lobby.games[0].black.as_str()),
            ("bob", "alice")
        );
    }

    #[test]
    fn a_challenge_reaches_its_member_and_accepted_starts_a_game() {
        let club = club();
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        assert!(alice.challenge("nobody", None, true).is_err());
        let n = alice.challenge("BOB", "10+0".parse().ok(), true).unwrap();
        let notices = bob.take_notices();
        assert!(notices[0].contains("alice challenges you"), "{notices:?}");
        assert!(
            alice.accept(n).is_err(),
            "a challenge is accepted by its member"
        );
        let room = bob.accept(n).unwrap();
        assert_eq!(alice.room_name(), Some(room));
    }

    #[test]
    fn a_player_keeps_the_seat_while_another_session_of_theirs_is_in_the_room() {
        let club = club();
        let laptop = club.connect(member("a", "alice", true), Arc::new(|| {}));
        assert_eq!(laptop.join("den").unwrap(), Role::Player(Color::White));
        // Her phone comes in too (a login is put back in the room of its seat), then goes.
        let phone = club.connect(member("a", "alice", true), Arc::new(|| {}));
        assert_eq!(phone.room_name().as_deref(), Some("den"));
        drop(phone);
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        assert_eq!(bob.join("den").unwrap(), Role::Player(Color::Black));
        assert_eq!(laptop.room_name().as_deref(), Some("den"));
    }

    #[test]
    fn a_seek_is_taken_back_and_a_challenge_withdrawn_one_per_opponent() {
        let club = club();
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        assert!(alice.unseek().is_err(), "no seek to take back");
        let seek = alice.seek(None, None, true).unwrap();
        assert_eq!(alice.unseek().unwrap(), seek);
        assert!(bob.lobby(Instant::now()).seeks.is_empty());
        assert!(bob.accept(seek).is_err());

        let first = alice.challenge("bob", None, true).unwrap();
        let second = alice.challenge("bob", "5+0".parse().ok(), true).unwrap();
        assert_eq!(
            bob.lobby(Instant::now()).challenges.len(),
            1,
            "a new challenge replaces the earlier one to the same opponent"
        );
        assert!(bob.accept(first).is_err());
        bob.take_notices();
        assert!(bob.withdraw("alice").is_err(), "bob challenged nobody");
        assert_eq!(alice.withdraw("BOB").unwrap(), second);
        assert!(bob.lobby(Instant::now()).challenges.is_empty());
        let notices = bob.take_notices();
        assert!(
            notices
                .iter()
                .any(|n| n.contains("alice withdrew challenge")),
            "{notices:?}"
        );
        assert!(bob.accept(second).is_err());
    }

    #[test]
    fn names_are_unique_online_and_a_dropped_player_comes_back_to_the_seat() {
        let club = club();
        let a = club.connect(member("a", "sam", true), Arc::new(|| {}));
        let b = club.connect(member("b", "Sam", true), Arc::new(|| {}));
        assert_eq!(a.name(), "sam");
        assert_eq!(
            b.name(),
            "Sam-2",
            "names differing only in case are one name"
        );
        // Open visitors who meet a name online are marked as visitors.
        let c = club.connect(member("open:1", "SAM", false), Arc::new(|| {}));
        assert_eq!(c.name(), "SAM~2");
        let d = club.connect(member("open:2", "sam", false), Arc::new(|| {}));
        assert_eq!(d.name(), "sam~3");
        drop((c, d));
        a.join("den").unwrap();
        b.join("den").unwrap();
        a.act(Action::Move("e4".into())).unwrap();
        drop(a);
        let (view, _) = b.room(Instant::now()).unwrap();
        assert!(!view.seats[0].as_ref().unwrap().connected);
        let again = club.connect(member("a", "sam", true), Arc::new(|| {}));
        assert_eq!(again.room_name().as_deref(), Some("den"));
        let (view, role) = again.room(Instant::now()).unwrap();
        assert_eq!(role, Role::Player(Color::White));
        assert!(view.seats[0].as_ref().unwrap().connected);
    }

    #[test]
    fn a_declined_draw_is_told_to_the_one_who_offered_it() {
        let club = club();
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        alice.join("den").unwrap();
        bob.join("den").unwrap();
        alice.take_notices();
        bob.take_notices();
        bob.act(Action::Draw).unwrap();
        alice.act(Action::Decline).unwrap();
        assert_eq!(bob.take_notices(), vec!["alice declined your draw offer"]);
        assert!(
            alice.take_notices().is_empty(),
            "the decliner is told by the answer"
        );
    }

    #[test]
    fn a_login_name_is_cleaned_before_the_database_and_the_screens_see_it() {
        let store = Arc::new(SqliteStore::in_memory().expect("a database"));
        let club = Club::new(Arc::clone(&store) as Arc<dyn Store>).expect("a club");
        let v = club.connect(member("k", "\u{202E}eve\u{200B}", true), Arc::new(|| {}));
        assert_eq!(v.name(), "eve");
        assert_eq!(store.player_name("k").as_deref(), Some("eve"));
        let lobby = v.lobby(Instant::now());
        assert_eq!(lobby.me, "eve");
        // What is not a name at all is never kept or shown.
        let w = club.connect(member("j", "\x1b[2J", false), Arc::new(|| {}));
        assert_eq!(w.name(), "guest");
    }

    #[test]
    fn bad_room_names_are_refused_and_open_visitors_cannot_seek_rated() {
        let club = club();
        let v = club.connect(member("open:1", "x", false), Arc::new(|| {}));
        assert!(v.join("a b").is_err());
        assert!(v.join("\u{1b}[2J").is_err());
        assert!(v.seek(None, None, true).is_err());
        assert!(v.seek(None, None, false).is_ok());
    }

    #[test]
    fn the_room_cap_holds_on_every_path_that_makes_a_room() {
        let limits = Limits {
            max_rooms: 1,
            ..Limits::default()
        };
        let club = Club::with_limits(
            Arc::new(SqliteStore::in_memory().expect("a database")),
            limits,
        )
        .expect("a club");
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        let carol = club.connect(member("c", "carol", true), Arc::new(|| {}));
        alice.join("den").unwrap();
        let full = |e: ClubError| {
            assert!(e.0.contains("as many rooms as it may (1)"), "{e}");
        };
        // A room by name.
        full(carol.join("other").unwrap_err());
        assert_eq!(carol.room_name(), None);
        // A seek accepted: refused, and the seek stands.
        let seek = bob.seek(None, None, true).unwrap();
        full(carol.accept(seek).unwrap_err());
        assert_eq!(carol.lobby(Instant::now()).seeks.len(), 1);
        // A challenge accepted: refused, and the challenge stands.
        let challenge = bob.challenge("carol", None, true).unwrap();
        full(carol.accept(challenge).unwrap_err());
        assert_eq!(carol.lobby(Instant::now()).challenges.len(), 1);
        assert_eq!(club.lobby_view(carol.id, Instant::now()).waiting.len(), 1);
        // The room already open is joined as ever; once it closes there is room again.
        assert_eq!(carol.join("den").unwrap(), Role::Player(Color::Black));
        carol.leave_room();
        alice.leave_room();
        assert!(club.room("den").is_none());
        let room = carol.accept(challenge).unwrap();
        assert_eq!(bob.room_name(), Some(room));
    }

    #[test]
    fn a_room_waiting_for_an_opponent_is_in_the_lobby_until_one_comes() {
        let club = club();
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        alice.join("den").unwrap();
        alice.act(Action::Color(Color::Black)).unwrap();
        let lobby = bob.lobby(Instant::now());
        assert!(lobby.games.is_empty());
        assert_eq!(
            lobby.waiting,
            [WaitingView {
                room: "den".into(),
                name: "alice".into(),
                rating: Some(1500),
                time_control: ROOM_TIME_CONTROL.parse().ok(),
                color: Color::Black,
                rated: true,
            }]
        );
        bob.join("den").unwrap();
        let lobby = club
            .connect(member("c", "carol", false), Arc::new(|| {}))
            .lobby(Instant::now());
        assert!(lobby.waiting.is_empty());
        assert_eq!(lobby.games.len(), 1);
        assert_eq!(lobby.games[0].white, "bob");
    }

    #[test]
    fn a_member_has_a_few_challenges_out_at_most() {
        let club = club();
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let names: Vec<String> = (0..=CHALLENGES_OUT).map(|i| format!("m{i}")).collect();
        let _others: Vec<Viewer> = names
            .iter()
            .map(|n| club.connect(member(n, n, true), Arc::new(|| {})))
            .collect();
        for n in &names[..CHALLENGES_OUT] {
            alice.challenge(n, None, true).unwrap();
        }
        let last = &names[CHALLENGES_OUT];
        let err = alice.challenge(last, None, true).unwrap_err().to_string();
        assert!(err.contains("5 challenges out"), "{err}");
        assert!(err.contains(":challenge off NAME"), "{err}");
        // A new challenge to one already challenged replaces it, within the cap.
        alice
            .challenge(&names[0], "5+0".parse().ok(), true)
            .unwrap();
        let out = |v: &Viewer| {
            v.lobby(Instant::now())
                .challenges
                .iter()
                .filter(|c| c.from == "alice")
                .count()
        };
        assert_eq!(out(&alice), CHALLENGES_OUT);
        alice.withdraw(&names[1]).unwrap();
        alice.challenge(last, None, true).unwrap();
        assert_eq!(out(&alice), CHALLENGES_OUT);
    }
}
