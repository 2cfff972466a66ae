//! The club's state and the one thread that changes it. Every method here runs on the
//! owner's thread, one command at a time, with the time passed in or read from the club's
//! clock: who is online, the rooms (plain values: no room has a lock of its own), seeks,
//! challenges and adjourned games. A room is made in [`Owner::open_room`] and removed in
//! [`Owner::close_room`], the only two places, and every way of leaving a room goes
//! through [`Owner::leave_seat`].

use std::collections::{BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::Receiver;
use std::time::Instant;

use super::{Clock, Command, EMPTY_ROOM_KEPT, Limits, Published, ROOM_TIME_CONTROL, shown};
use crate::chess::Color;
use crate::club::budget::{Budget, JobKind, Turn};
use crate::club::room::{Action, Finished, Role, Room, RoomView};
use crate::club::store::GameRecord;
use crate::club::text::{self, OPEN_MARK};
use crate::club::writer::{Report, Write, Writer};
use crate::club::{ClubError, Member, Notify};
use crate::game::clock::TimeControl;
use crate::game::glicko::Rating;

/// A game kept without a room, and what each of its players is to be told when back.
pub(super) struct Adjourned {
    pub(super) record: GameRecord,
    /// `(member id, text)`, given when that member is back in the game's room.
    pub(super) news: Vec<(String, String)>,
}

impl Adjourned {
    pub(super) fn plays(&self, id: &str) -> bool {
        self.record.white == id || self.record.black == id
    }

    pub(super) fn opponent_of(&self, id: &str) -> &str {
        if self.record.white == id {
            &self.record.black
        } else {
            &self.record.white
        }
    }
}

/// The lobby's screens are woken at most this often for a game's move alone (its move
/// number and clocks in the list); anything else a lobby shows wakes them at once.
const LOBBY_REDRAW: std::time::Duration = std::time::Duration::from_millis(500);

/// Notices waiting for one viewer (older ones go).
const NOTICES_KEPT: usize = 20;

/// One session online.
pub(super) struct Entry {
    pub(super) member: Member,
    notify: Notify,
    pub(super) room: Option<String>,
    /// The study they are in (by name in lower case): never with a room.
    pub(super) study: Option<String>,
    pub(super) rating: Rating,
    notices: Vec<String>,
}

pub(super) struct Seek {
    pub(super) number: u32,
    pub(super) viewer: u64,
    pub(super) time_control: Option<TimeControl>,
    pub(super) color: Option<Color>,
    pub(super) rated: bool,
}

pub(super) struct Challenge {
    pub(super) number: u32,
    pub(super) from: u64,
    pub(super) to: u64,
    pub(super) time_control: Option<TimeControl>,
    pub(super) rated: bool,
}

/// The club's state, owned by its thread.
pub(in crate::club) struct Owner {
    pub(super) viewers: HashMap<u64, Entry>,
    pub(super) rooms: HashMap<String, Room>,
    /// When each room was last left empty (swept after [`EMPTY_ROOM_KEPT`]).
    empty_since: HashMap<String, Instant>,
    pub(super) seeks: Vec<Seek>,
    pub(super) challenges: Vec<Challenge>,
    /// Games kept without a room until a player of theirs comes back.
    pub(super) adjourned: Vec<Adjourned>,
    /// What happened to members while no session of theirs was online (a result, a
    /// rating change), by member id: told at their next login. Kept in the store as well
    /// (through the writer), so a restart forgets none of it.
    news: HashMap<String, Vec<String>>,
    /// Numbers for viewers, seeks, challenges and the rooms games are given.
    next: u64,
    pub(super) writer: Arc<Writer>,
    pub(super) limits: Limits,
    clock: Clock,
    /// Where the lobby is published for its viewers.
    pub(super) published: Published,
    /// What the lobby lists changed since it was last published.
    lobby_changed: bool,
    /// When the lobby's screens are to be woken for a change not yet shown (a game's move).
    lobby_wake_due: Option<Instant>,
    /// When the lobby's screens were last woken.
    lobby_woken: Instant,
    /// Viewers to wake once the command is done (each once however many changes).
    to_wake: BTreeSet<u64>,
    /// Writes the command made, handed to the writer once the viewers are woken: a move
    /// reaches the screens before the disk hears of it.
    outbox: Vec<Write>,
    stopped: bool,
    /// The server's engine budget (`None`: searches never wait).
    pub(super) budget: Option<Budget>,
    /// The engine seated as members, and their searches under way.
    pub(super) bots: super::bot_state::Bots,
    /// The tournaments of this run (see `tournaments.rs`).
    pub(super) tournaments: super::tournament_state::Tournaments,
    /// The club's studies (see `studies.rs`).
    pub(super) studies: super::study_state::Studies,
}

impl Owner {
    pub(super) fn new(
        writer: Arc<Writer>,
        limits: Limits,
        clock: Clock,
        published: Published,
        adjourned: Vec<Adjourned>,
        news: Vec<(String, String)>,
    ) -> Owner {
        let mut kept: HashMap<String, Vec<String>> = HashMap::new();
        for (member, text) in news {
            kept.entry(member).or_default().push(text);
        }
        let started = clock();
        let mut owner = Owner {
            viewers: HashMap::new(),
            rooms: HashMap::new(),
            empty_since: HashMap::new(),
            seeks: Vec::new(),
            challenges: Vec::new(),
            adjourned,
            news: kept,
            next: 0,
            writer,
            limits,
            clock,
            published,
            lobby_changed: true,
            lobby_wake_due: None,
            lobby_woken: started,
            to_wake: BTreeSet::new(),
            outbox: Vec::new(),
            stopped: false,
            budget: limits.engine_threads.map(Budget::new),
            bots: super::bot_state::Bots::default(),
            tournaments: Default::default(),
            studies: Default::default(),
        };
        owner.publish();
        owner
    }

    /// The owner's thread: commands in the order they come, until the club is dropped. A
    /// command that panics is written down and the club goes on.
    pub(super) fn run(&mut self, inbox: &Receiver<Command>) {
        while let Ok(command) = inbox.recv() {
            if catch_unwind(AssertUnwindSafe(|| command(self))).is_err() {
                eprintln!("ox88 serve: a club command failed; the club goes on");
            }
            self.publish();
            if self.stopped {
                return;
            }
        }
    }

    /// The club is dropped: the thread ends after this command.
    pub(super) fn stop(&mut self) {
        self.stopped = true;
    }

    pub(super) fn now(&self) -> Instant {
        (self.clock)()
    }

    /// The lobby published again if it changed (one snapshot for every viewer), and the
    /// viewers whose screens changed woken.
    pub(super) fn publish(&mut self) {
        // The bots answer what the command left them (a challenge, a move, an offer).
        self.bots_answer();
        let now = self.now();
        if self.lobby_changed {
            self.lobby_changed = false;
            // Published at once (what anyone reads is current); the lobby's screens are
            // woken at once for what they act on (a seek, a challenge, someone in or out),
            // and at most once per LOBBY_REDRAW for a game's move alone.
            if self.publish_lobby(now) {
                self.lobby_wake_due = Some(now);
            } else {
                self.lobby_wake_due
                    .get_or_insert(self.lobby_woken + LOBBY_REDRAW);
            }
        }
        if self.lobby_wake_due.is_some_and(|due| now >= due) {
            self.lobby_wake_due = None;
            self.lobby_woken = now;
            let in_lobby: Vec<u64> = self
                .viewers
                .iter()
                .filter(|(_, e)| e.room.is_none() && e.study.is_none())
                .map(|(&id, _)| id)
                .collect();
            self.to_wake.extend(in_lobby);
        }
        for id in std::mem::take(&mut self.to_wake) {
            if let Some(e) = self.viewers.get(&id) {
                (e.notify)();
            }
        }
        for write in std::mem::take(&mut self.outbox) {
            self.writer.send(write);
        }
    }

    /// A write for the writer's thread, sent once this command's viewers are woken.
    pub(super) fn write(&mut self, write: Write) {
        self.outbox.push(write);
    }

    pub(super) fn number(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    /// The lobby lists something new.
    pub(super) fn lobby_changed(&mut self) {
        self.lobby_changed = true;
    }

    /// The viewers in `room` are woken, and the lobby is published again.
    pub(super) fn room_changed(&mut self, room: &str) {
        let inside: Vec<u64> = self.in_room(room);
        self.to_wake.extend(inside);
        self.lobby_changed = true;
    }

    fn in_room(&self, room: &str) -> Vec<u64> {
        self.viewers
            .iter()
            .filter(|(_, e)| e.room.as_deref() == Some(room))
            .map(|(&id, _)| id)
            .collect()
    }

    /// These viewers are woken once the command is done.
    pub(super) fn wake_all(&mut self, ids: Vec<u64>) {
        self.to_wake.extend(ids);
    }

    /// A notice for one viewer, who is woken.
    pub(super) fn notice(&mut self, viewer: u64, text: String) {
        if let Some(e) = self.viewers.get_mut(&viewer) {
            if e.notices.len() >= NOTICES_KEPT {
                e.notices.remove(0);
            }
            e.notices.push(text);
            self.to_wake.insert(viewer);
        }
    }

    /// Notes `(member id, text)` passed on as notices to each session of their member.
    pub(super) fn tell(&mut self, notes: Vec<(String, String)>) {
        for (member, text) in notes {
            let to: Vec<u64> = self
                .viewers
                .iter()
                .filter(|(_, e)| e.member.id == member)
                .map(|(&id, _)| id)
                .collect();
            for id in to {
                self.notice(id, text.clone());
            }
        }
    }

    /// Notes for members, kept for those not online until they log in (open visitors,
    /// who never come back, are only told while here).
    fn tell_or_keep(&mut self, notes: Vec<(String, String)>) {
        for (member, text) in notes {
            let online = self.viewers.values().any(|e| e.member.id == member);
            if online {
                self.tell(vec![(member, text)]);
            } else if !crate::club::is_visitor_id(&member) {
                let kept = self.news.entry(member.clone()).or_default();
                if kept.len() >= NOTICES_KEPT {
                    kept.remove(0);
                }
                kept.push(text.clone());
                self.writer.post(move |store| {
                    if let Err(e) = store.keep_news(&member, &text, NOTICES_KEPT) {
                        eprintln!("ox88 serve: {e}");
                    }
                });
            }
        }
    }

    pub(super) fn name_of(&self, viewer: u64) -> String {
        self.viewers
            .get(&viewer)
            .map(|e| e.member.name.clone())
            .unwrap_or_default()
    }

    // ---- rooms: made, left, closed ------------------------------------------------------

    /// One more room may be made, or why not.
    pub(super) fn room_for_one_more(&self) -> Result<(), ClubError> {
        if self.rooms.len() >= self.limits.max_rooms {
            return Err(ClubError::new(format!(
                "the server holds as many rooms as it may ({}): join one that is open, or \
                 try again when a game ends",
                self.limits.max_rooms
            )));
        }
        Ok(())
    }

    /// A fresh room name for a game made in the lobby.
    pub(super) fn new_room_name(&mut self) -> String {
        loop {
            let name = format!("game-{}", self.number());
            if !self.rooms.contains_key(&name) {
                return name;
            }
        }
    }

    /// Lists `room` under its name (the caller checked the cap and the name).
    pub(super) fn open_room(&mut self, room: Room) {
        let name = room.name().to_string();
        self.empty_since.insert(name.clone(), self.now());
        self.rooms.insert(name, room);
        self.lobby_changed = true;
    }

    /// Removes room `name`: whoever is still in it goes to the lobby, told `why` if said.
    pub(super) fn close_room(&mut self, name: &str, why: Option<&str>) {
        self.rooms.remove(name);
        self.empty_since.remove(name);
        for id in self.in_room(name) {
            if let Some(e) = self.viewers.get_mut(&id) {
                e.room = None;
            }
            match why {
                Some(why) => self.notice(id, why.to_string()),
                None => {
                    self.to_wake.insert(id);
                }
            }
        }
        self.lobby_changed = true;
    }

    /// Is room `name` open?
    #[cfg(test)]
    pub(super) fn has_room(&self, name: &str) -> bool {
        self.rooms.contains_key(name)
    }

    /// Viewer `id` leaves room `name` (to the lobby, another room, or offline): their
    /// member's seat is left once no session of theirs is in the room; a visitors' game
    /// no player is left in ends, forgotten; a room left idle is closed.
    pub(super) fn leave_seat(&mut self, id: u64, name: &str) {
        let Some(e) = self.viewers.get_mut(&id) else {
            return;
        };
        if e.room.as_deref() == Some(name) {
            e.room = None;
        }
        let member = e.member.id.clone();
        let now = self.now();
        // Another session of the same member still in the room keeps their seat there.
        let still_here = self
            .viewers
            .values()
            .any(|e| e.member.id == member && e.room.as_deref() == Some(name));
        if !still_here && let Some(r) = self.rooms.get_mut(name) {
            let was_aborted = r.is_aborted();
            r.leave(&member, now);
            // A visitors' game that no player is left in ends, and nothing of it is kept:
            // forgotten through the writer, after the saves queued before it.
            let forget = (!was_aborted && r.is_aborted())
                .then(|| r.record(now))
                .flatten();
            if let Some(g) = forget {
                self.write(Write::Forget {
                    game: g.id,
                    room: g.room,
                    players: [g.white, g.black],
                });
            }
        }
        self.room_changed(name);
        self.close_if_idle(name, now);
    }

    /// Closes room `name` if nobody is in it and no game goes on there; notes when a room
    /// still kept became empty, for the sweep.
    pub(super) fn close_if_idle(&mut self, name: &str, now: Instant) {
        let Some(r) = self.rooms.get(name) else {
            return;
        };
        if !self.in_room(name).is_empty() {
            self.empty_since.remove(name);
            return;
        }
        if r.is_idle() {
            self.close_room(name, None);
        } else {
            self.empty_since.entry(name.to_string()).or_insert(now);
        }
    }

    /// Rooms nobody has been in for [`EMPTY_ROOM_KEPT`] with no game going on in them
    /// (a game over that nobody came back to, a room opened and left) are closed.
    fn sweep(&mut self, now: Instant) {
        let stale: Vec<String> = self
            .empty_since
            .iter()
            .filter(|(_, since)| now.saturating_duration_since(**since) >= EMPTY_ROOM_KEPT)
            .map(|(name, _)| name.clone())
            .filter(|name| self.in_room(name).is_empty())
            .filter(|name| self.rooms.get(name).is_none_or(Room::is_idle))
            .collect();
        for name in stale {
            self.close_room(&name, None);
        }
    }

    // ---- sessions -----------------------------------------------------------------------

    /// A session comes online: listed under a name unique among those online, and put
    /// back in the room of a seat its member holds (or their adjourned game's). Its
    /// viewer number and the name it shows.
    pub(super) fn connect(
        &mut self,
        mut member: Member,
        rating: Rating,
        told: Vec<String>,
        notify: Notify,
    ) -> (u64, String) {
        member.name = self.unique_name(&member);
        let id = self.number();
        let name = member.name.clone();
        let member_id = member.id.clone();
        let mut told = told;
        if let Some(news) = self.news.remove(&member_id) {
            told.push(format!("while you were away ({}):", news.len()));
            told.extend(news);
            let member = member_id.clone();
            self.writer.post(move |store| {
                if let Err(e) = store.clear_news(&member) {
                    eprintln!("ox88 serve: {e}");
                }
            });
        }
        self.viewers.insert(
            id,
            Entry {
                member,
                notify,
                room: None,
                study: None,
                rating,
                notices: told,
            },
        );
        self.lobby_changed = true;
        // Back to a seat the member holds (a dropped connection, a restarted server).
        let seated = self
            .rooms
            .iter()
            .find(|(_, r)| r.plays_here(&member_id))
            .map(|(name, _)| name.clone());
        match seated {
            Some(room) => {
                let _ = self.join(id, &room);
            }
            None => self.resume_adjourned(id),
        }
        (id, name)
    }

    /// A member seated without a session (a bot): listed online under its name, with no
    /// room of its own and nobody to wake. Its viewer number.
    pub(super) fn seat_member(&mut self, member: Member, rating: Rating) -> u64 {
        let id = self.number();
        self.viewers.insert(
            id,
            Entry {
                member,
                notify: Arc::new(|| {}),
                room: None,
                study: None,
                rating,
                notices: Vec::new(),
            },
        );
        self.lobby_changed = true;
        id
    }

    /// A session goes: its seeks and challenges with it, and it leaves its room (a seat in
    /// a game going on is kept: the clock runs).
    pub(super) fn disconnect(&mut self, id: u64) {
        self.engine_done(id);
        self.seeks.retain(|s| s.viewer != id);
        self.challenges.retain(|c| c.from != id && c.to != id);
        if let Some(room) = self.viewers.get(&id).and_then(|e| e.room.clone()) {
            self.leave_seat(id, &room);
        }
        self.study_leave(id);
        if let Some(e) = self.viewers.remove(&id) {
            // A player whose last session went is paused in their arenas.
            self.tournament_member_gone(&e.member.id);
        }
        self.lobby_changed = true;
    }

    /// The member's (clean) name, or another when a different member online already
    /// shows it (in any case). An account's name is its own in the whole club, so only an
    /// open visitor ever needs another: `name~2`, `name~3`… (`~` is in no account's
    /// name, so an open visitor can never pass for a member). A member with a key who
    /// still meets their name online (a club made by hand, in tests) is `name-2`.
    fn unique_name(&self, member: &Member) -> String {
        let base = member.name.clone();
        let taken = |n: &str| {
            self.viewers
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

    pub(super) fn room_name(&self, id: u64) -> Option<String> {
        self.viewers.get(&id).and_then(|e| e.room.clone())
    }

    /// The viewer's room as it stands at `now`, and their role in it.
    pub(super) fn room_view(&self, id: u64, now: Instant) -> Option<(RoomView, Role)> {
        let e = self.viewers.get(&id)?;
        let r = self.rooms.get(e.room.as_deref()?)?;
        Some((
            r.view_for(&e.member.id, now),
            r.role(&e.member.id).unwrap_or(Role::Watcher),
        ))
    }

    /// The next moment the viewer's room changes by itself (a clock's second, a flag).
    pub(super) fn next_due(&self, id: u64, now: Instant) -> Option<Instant> {
        let e = self.viewers.get(&id)?;
        self.rooms.get(e.room.as_deref()?)?.next_due(now)
    }

    pub(super) fn take_notices(&mut self, id: u64) -> Vec<String> {
        self.viewers
            .get_mut(&id)
            .map(|e| std::mem::take(&mut e.notices))
            .unwrap_or_default()
    }

    /// Does `member` hold a seat in a game that goes on, or is adjourned? The room's name
    /// (or the adjourned game's).
    pub(super) fn game_of(&self, member: &str) -> Option<String> {
        self.rooms
            .iter()
            .find(|(_, r)| r.plays_here(member) && r.has_begun())
            .map(|(name, _)| name.clone())
            .or_else(|| {
                self.adjourned
                    .iter()
                    .find(|a| a.plays(member))
                    .map(|a| a.record.room.clone())
            })
    }

    /// May the engine search for `member` now? Not while they play (or have adjourned) a
    /// game of their own: the engine would be help the opponent does not have.
    pub(super) fn engine_allowed(&self, member: &str) -> Result<(), ClubError> {
        match self.game_of(member) {
            None => Ok(()),
            Some(room) => Err(ClubError::new(format!(
                "not while your game in room {room} goes on: the engine helps nobody \
                 during their own game (it is yours again when the game ends)"
            ))),
        }
    }

    /// Viewer `id` (of `member`) asks for a search of `kind`: the fair-play gate first,
    /// then the budget. The viewers whose turn changed are woken.
    pub(super) fn engine_ask(
        &mut self,
        id: u64,
        member: &str,
        kind: JobKind,
    ) -> Result<Turn, ClubError> {
        if let Err(why) = self.engine_allowed(member) {
            self.engine_done(id);
            return Err(why);
        }
        let Some(budget) = &mut self.budget else {
            return Ok(Turn::Running);
        };
        let (turn, changed) = budget.ask(id, kind);
        self.to_wake.extend(changed);
        Ok(turn)
    }

    /// Where viewer `id`'s search stands (always running without a budget).
    pub(super) fn engine_turn(&self, id: u64) -> Turn {
        self.budget.as_ref().map_or(Turn::Running, |b| b.turn(id))
    }

    /// Viewer `id`'s search is over (or the viewer left): the next in the queue starts.
    pub(super) fn engine_done(&mut self, id: u64) {
        if let Some(budget) = &mut self.budget {
            let changed = budget.done(id);
            self.to_wake.extend(changed);
        }
    }

    // ---- joining, acting, leaving -------------------------------------------------------

    /// Viewer `id` joins (or opens) the room `name`: a seat while one is free, else
    /// watching.
    pub(super) fn join(&mut self, id: u64, name: &str) -> Result<Role, ClubError> {
        let Some(e) = self.viewers.get(&id) else {
            return Err(ClubError::new("you have left the club"));
        };
        let member = e.member.id.clone();
        let now = self.now();
        self.study_leave(id);
        let e = &self.viewers[&id];
        if let Some(current) = e.room.clone() {
            if current == name {
                return self
                    .room_view(id, now)
                    .map(|(_, role)| role)
                    .ok_or_else(|| ClubError::new("the room is gone"));
            }
            self.leave_seat(id, &current);
        }
        if !self.rooms.contains_key(name) {
            self.room_for_one_more()?;
            // This member's own adjourned game of that room, else a new room.
            if let Some((room, opponent)) = self.reopen(&member, Some(name)) {
                return Ok(self.enter(id, &room, Some(opponent), now));
            }
            let tc = ROOM_TIME_CONTROL.parse().ok();
            self.open_room(Room::new(name, tc, true));
        }
        Ok(self.enter(id, name, None, now))
    }

    /// Into room `name`: seated or watching. `remade`: the room of an adjourned game was
    /// just made again, and this is the opponent of the one coming back.
    pub(super) fn enter(
        &mut self,
        id: u64,
        name: &str,
        remade: Option<String>,
        now: Instant,
    ) -> Role {
        // Into a room is out of any study.
        self.study_leave(id);
        let Some(e) = self.viewers.get_mut(&id) else {
            return Role::Watcher;
        };
        // A bot plays in many rooms at once and is in none of them as a viewer: its seats
        // hold it there, and it never leaves them.
        if !e.member.is_bot() {
            e.room = Some(name.to_string());
        }
        let rating = e.member.rated.then_some(e.rating);
        let member = e.member.clone();
        self.empty_since.remove(name);
        let Some(r) = self.rooms.get_mut(name) else {
            return Role::Watcher;
        };
        let role = r.join(&member, rating, now);
        let notes = r.take_notes();
        // What happened while they were away, and the opponent told they are back.
        self.tell(notes);
        if let Some(opponent) = remade {
            let text = format!(
                "{} is back in room {name}: your adjourned game waits for you (:join {name})",
                member.name
            );
            self.tell(vec![(opponent, text)]);
        }
        self.room_changed(name);
        role
    }

    /// Back to the lobby: a player keeps the seat of a game that goes on.
    pub(super) fn leave_room(&mut self, id: u64) {
        if let Some(name) = self.room_name(id) {
            self.leave_seat(id, &name);
        }
    }

    /// Does what viewer `id` asks in their room.
    pub(super) fn act(&mut self, id: u64, action: Action) -> Result<String, ClubError> {
        let name = self
            .room_name(id)
            .ok_or_else(|| ClubError::new("you are in the lobby: join a room first"))?;
        let member = self.viewers[&id].member.id.clone();
        self.act_in(&name, &member, action)
    }

    /// Does what `member` asks in room `name` (a viewer's action, or a bot's move).
    pub(super) fn act_in(
        &mut self,
        name: &str,
        member: &str,
        action: Action,
    ) -> Result<String, ClubError> {
        let name = name.to_string();
        let now = self.now();
        let r = self
            .rooms
            .get_mut(&name)
            .ok_or_else(|| ClubError::new("the room is gone"))?;
        let moved = matches!(action, Action::Move(_) | Action::Takeback);
        let was_adjourned = r.is_adjourned();
        let said = r.act(member, action, now)?;
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
        let finished = r.take_finished(now);
        let notes = r.take_notes();
        self.tell(notes);
        if adjourned {
            // A claim against a player not back since the game was restored.
            self.close_adjourned(&name, now);
            return Ok(said);
        }
        self.after_change(&name, record, finished);
        if let Some(forget) = aborted {
            self.write(forget);
        }
        Ok(said)
    }

    /// Time passes in every room: flags fall, rooms whose players have both been away
    /// too long close (their games adjourned), empty rooms are swept.
    pub(super) fn tick(&mut self, now: Instant) {
        let names: Vec<String> = self.rooms.keys().cloned().collect();
        for name in names {
            let Some(r) = self.rooms.get_mut(&name) else {
                continue;
            };
            let changed = r.tick(now);
            if self.adjourn_if_abandoned(&name, now) {
                self.close_adjourned(&name, now);
                continue;
            }
            let Some(r) = self.rooms.get_mut(&name) else {
                continue;
            };
            if changed {
                let finished = r.take_finished(now);
                let record = r.record(now);
                self.after_change(&name, record, finished);
            }
        }
        self.sweep(now);
        self.tournaments_tick(now);
    }

    /// Every game going on queued to be saved with its clocks as they stand.
    pub(super) fn save_all(&mut self, now: Instant) {
        let going: Vec<GameRecord> = self
            .rooms
            .values()
            .filter(|r| {
                let v = r.view(now);
                v.result.is_none() && !v.aborted
            })
            .filter_map(|r| r.record(now))
            .collect();
        for record in going {
            self.write(Write::Save(record));
        }
        self.save_open_tournaments(now);
    }

    /// What follows a change in `room`: its viewers and the lobby woken (once the command
    /// is done), then the game's save (and a finished game's rating) queued for the
    /// writer's thread.
    pub(super) fn after_change(
        &mut self,
        room: &str,
        record: Option<GameRecord>,
        finished: Option<Finished>,
    ) {
        self.room_changed(room);
        if let Some(record) = record {
            self.write(Write::Save(record));
        }
        if let Some(f) = finished {
            // A tournament's game is scored where every game's end is taken.
            self.tournament_game_over(&f);
            // A player away when the game ended hears of it at the next login.
            let how = format!(
                "your game in room {room}, {} – {}, ended {}{}",
                f.record.white_name,
                f.record.black_name,
                f.record.result.as_deref().unwrap_or("*"),
                f.record
                    .termination
                    .as_deref()
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default()
            );
            let away: Vec<(String, String)> = f
                .players
                .iter()
                .filter(|p| !self.viewers.values().any(|e| &e.member.id == *p))
                .map(|p| (p.clone(), how.clone()))
                .collect();
            self.tell_or_keep(away);
            let game = f.record.id.clone();
            self.write(Write::Save(f.record));
            if f.rated {
                self.write(Write::Rate {
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
    pub(super) fn reported(&mut self, report: Report) {
        match report {
            Report::Rated {
                room,
                players,
                ratings,
            } => {
                let mut notes = Vec::new();
                for (id, new) in players.iter().zip(ratings) {
                    let mut before = None;
                    for e in self.viewers.values_mut().filter(|e| &e.member.id == id) {
                        before = Some(shown(&e.rating));
                        e.rating = new;
                    }
                    let after = shown(&new);
                    let text = match before {
                        Some(before) => {
                            let change = after as i64 - before as i64;
                            format!("your rating: {before} → {after} ({change:+})")
                        }
                        None => format!("your rating is {after} after the game in room {room}"),
                    };
                    notes.push((id.clone(), text));
                }
                // The room's header shows the new ratings too.
                if let Some(r) = self.rooms.get_mut(&room) {
                    for (id, rating) in players.iter().zip(ratings) {
                        r.rating_changed(id, rating);
                    }
                }
                self.tell_or_keep(notes);
                self.room_changed(&room);
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
}
