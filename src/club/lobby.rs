//! The club itself: who is online, the rooms by name, the seeks and challenges, the games
//! adjourned — and the one thread that owns them.
//!
//! One owner: the club's state lives in an [`owner::Owner`] on a thread of its own, the
//! only code that reads or changes it. Sessions hold a [`Viewer`] and ask through a
//! bounded channel (a command, answered on a channel of its own); the ticker, the
//! writer's reports and sign-in do the same. Nothing of the club's is behind a lock a
//! session could hold, so there is no order of locks to keep, and a rule of the club is
//! one method of the owner's, tested with the time passed in.
//!
//! What the owner publishes: after each command that changed what the lobby lists, one
//! snapshot of the lobby (shared by every lobby viewer, who reads it without asking) and a
//! wake-up to each viewer whose screen changed; a room's view is copied for the viewer
//! who asks. Writes go to the writer's thread, in order, and never wait for a disk.

use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::budget::{JobKind, Turn};
use super::room::{Action, Role, RoomView};
use super::store::{GameRecord, Store};
use super::study::{Study, StudyAction};
use super::tournament::spec::{Spec, SpecError};
use super::writer::Writer;
use super::{ClubError, Member, Notify, SignedIn, text};
use crate::chess::Color;
use crate::game::clock::TimeControl;
use crate::game::glicko::Rating;

mod adjourned;
mod bot_state;
mod bots;
mod offers;
mod owner;
mod studies;
mod study_state;
mod tournament_state;
#[cfg(test)]
mod tournament_tests;
mod tournaments;
mod view;
pub use bot_state::Pace;
use owner::Owner;
pub use tournament_state::{
    FIRST_ROUND_WAIT, FORFEIT_AFTER, FORFEITS_WITHDRAWN, MAX_TOURNAMENTS, PairingRow, Phase,
    PodiumRow, StandingRow, TOURNAMENT_PLAYERS, TournamentRow, TournamentView,
};
pub use view::{ChallengeView, GameView, LobbyView, OnlineView, SeekView, StudyRow, WaitingView};

/// The time control of a room opened by name (its opener may not have said).
pub const ROOM_TIME_CONTROL: &str = "10+5";
/// Rooms at once by default (`--max-rooms`); beyond this a new room is refused.
pub const MAX_ROOMS: usize = 1000;
/// How long both players of a game may be away before its room closes, by default
/// (`--abandon-after`): the game is adjourned, kept, and goes on when they are back.
pub const ABANDON_AFTER: Duration = Duration::from_secs(600);
/// Challenges one member may have out at once (one per opponent).
pub const CHALLENGES_OUT: usize = 5;
/// How long a room nobody is in, with no game going on, is kept before it is swept.
pub const EMPTY_ROOM_KEPT: Duration = Duration::from_secs(60);
/// How long `:games` waits for the viewer's last games to be written before reading.
const GAMES_WAIT: Duration = Duration::from_secs(1);
/// Commands waiting for the owner at most; a sender past it waits its turn.
const COMMANDS_QUEUED: usize = 1024;

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
    /// Searches at once over the whole club (`--engine-threads`); `None`: no budget.
    pub engine_threads: Option<usize>,
    /// Tournaments starting or running at once (`--max-tournaments`).
    pub max_tournaments: usize,
    /// Players in one tournament at most (`--tournament-players`).
    pub tournament_players: usize,
    /// Studies' caps (`--studies-per-member`, `--study-chapters`, …).
    pub studies: crate::club::study::StudyLimits,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_rooms: MAX_ROOMS,
            abandon_after: ABANDON_AFTER,
            challenges: CHALLENGES_OUT,
            engine_threads: None,
            max_tournaments: MAX_TOURNAMENTS,
            tournament_players: TOURNAMENT_PLAYERS,
            studies: Default::default(),
        }
    }
}

/// Where the club reads the time: the system's clock in the server; in tests a clock moved
/// by hand, so that a rule about minutes is checked in microseconds.
pub type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

/// A command to the owner: run on its thread, with the club's state in hand.
type Command = Box<dyn FnOnce(&mut Owner) + Send>;

/// The lobby as the owner last published it, shared by every viewer.
type Published = Arc<Mutex<Arc<view::Snapshot>>>;

/// The club: a handle on its owner's thread, and the store and writer beside it.
pub struct Club {
    commands: SyncSender<Command>,
    lobby: Published,
    /// Reads go to the database; every write it is asked goes through `writer`'s thread.
    store: Arc<dyn Store>,
    writer: Arc<Writer>,
    /// What the club's own actions (a join, a move, a leave) take as the time.
    clock: Clock,
    /// This run of the server, as a token of its own: open visitors' ids carry it, so no
    /// id is ever given out twice.
    run: String,
}

impl Drop for Club {
    fn drop(&mut self) {
        // The owner's thread ends; the writer finishes its queue once the owner is gone.
        let _ = self.commands.send(Box::new(Owner::stop));
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
        let adjourned = adjourned::at_start(store.as_ref(), started)?;
        let news = store.news().map_err(|e| ClubError::new(e.to_string()))?;
        // Tournaments a stopped server left open go on from their kept state, the time it
        // was down given back; one that cannot (no state kept, or one this version cannot
        // read) is finished, its games and results so far kept. Ids go on after theirs.
        let failed = |e: super::StoreError| ClubError::new(e.to_string());
        let kept = store.tournaments().map_err(failed)?;
        let now = clock();
        let going_on: Vec<tournament_state::Tournament> = kept
            .iter()
            .filter(|t| t.state != "finished")
            .filter_map(|t| {
                let restored = t
                    .runner
                    .as_deref()
                    .and_then(|text| tournament_state::Tournament::restore(text, now));
                if restored.is_none() {
                    eprintln!(
                        "ox88 serve: tournament {} cannot go on after the restart: finished",
                        t.id
                    );
                }
                restored
            })
            .collect();
        let keep: Vec<u32> = going_on.iter().map(|t| t.id).collect();
        store.close_open_tournaments(&keep).map_err(failed)?;
        let last_tournament = kept.iter().map(|t| t.id).max().unwrap_or(0);
        let (commands, inbox) = mpsc::sync_channel::<Command>(COMMANDS_QUEUED);
        // The writer tells the owner of ratings and failures, as a command like any other.
        let reports = commands.clone();
        let writer = Writer::start(Arc::clone(&store), move |report| {
            let _ = reports.send(Box::new(move |o: &mut Owner| o.reported(report)));
        })
        .map_err(|e| ClubError::new(format!("cannot start the database's writer: {e}")))?;
        let writer = Arc::new(writer);
        let lobby: Published = Arc::default();
        let mut owner = Owner::new(
            Arc::clone(&writer),
            limits,
            Arc::clone(&clock),
            Arc::clone(&lobby),
            adjourned,
            news,
        );
        let studies = store.studies().map_err(failed)?;
        owner.studies = study_state::Studies::restored(&studies, limits.studies);
        owner.tournaments_after(last_tournament);
        owner.tournaments_restored(going_on);
        std::thread::Builder::new()
            .name("club".into())
            .spawn(move || owner.run(&inbox))
            .map_err(|e| ClubError::new(format!("cannot start the club's thread: {e}")))?;
        let store = super::writer::through(Arc::clone(&writer), store);
        Ok(Arc::new(Club {
            commands,
            lobby,
            store,
            writer,
            clock,
            run: format!("{:x}{:04x}", started.timestamp(), rand::random::<u16>()),
        }))
    }

    /// Runs `f` on the owner's thread and brings back what it says; `None` when the owner
    /// is gone (the server is stopping).
    fn ask<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Owner) -> R + Send + 'static,
    ) -> Option<R> {
        let (answer, answered) = mpsc::sync_channel(1);
        let command: Command = Box::new(move |o: &mut Owner| {
            let r = f(o);
            // Published before the answer: what the asker reads next includes it.
            o.publish();
            let _ = answer.send(r);
        });
        self.commands.send(command).ok()?;
        answered.recv().ok()
    }

    /// [`Club::ask`] for what may be refused: the owner gone is one more refusal.
    fn ask_or_refuse<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Owner) -> Result<R, ClubError> + Send + 'static,
    ) -> Result<R, ClubError> {
        self.ask(f)
            .unwrap_or_else(|| Err(ClubError::new("the club is closing")))
    }

    /// Seats the engine as members at each of `levels` (Elo, checked by
    /// [`crate::club::bots::parse_levels`]): `ox88-1600` and so on, each with its rating
    /// row in the store, a standing seek, and a game with anyone who challenges it, played
    /// at `pace`. Their members.
    pub fn seat_bots(&self, levels: &[u32], pace: Pace) -> Result<Vec<Member>, ClubError> {
        let mut rated = Vec::new();
        for &elo in levels {
            let member = super::bots::member(elo);
            let rating = self
                .store
                .player(&member.id, &member.name)
                .map_err(|e| ClubError::new(format!("cannot seat {}: {e}", member.name)))?;
            rated.push((elo, rating));
        }
        let inbox = self.commands.clone();
        self.ask(move |o| o.seat_bots(rated, pace, inbox))
            .ok_or_else(|| ClubError::new("the club is closing"))
    }

    /// The bots seated on this server, as members, lowest level first: every one a
    /// tournament created with bots enters.
    pub fn bots(&self) -> Vec<Member> {
        self.ask(|o| o.bot_members()).unwrap_or_default()
    }

    /// The time by the club's clock.
    pub fn now(&self) -> Instant {
        (self.clock)()
    }

    /// The member id of this run's `n`th open visitor (never one of an earlier run's).
    pub fn visitor_id(&self, n: u64) -> String {
        super::visitor_id(&self.run, n)
    }

    /// The club's database: reads go to it, writes through the writer's thread.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Waits until every command sent so far is done and every write they queued is in
    /// the store, or `within` has passed; whether they all are.
    pub fn flush(&self, within: Duration) -> bool {
        self.ask(|_| ());
        self.writer.flush(within)
    }

    /// Writes queued and not yet in the store.
    pub fn unsaved(&self) -> usize {
        self.writer.pending()
    }

    /// A member comes online; `notify` wakes their screen. A player with a seat in a game
    /// that goes on is put back in its room. The member is who [`Club::sign_in`] said
    /// (an account's name, or an open visitor's own); what sign-in had to tell them comes
    /// as their first notices.
    pub fn connect(self: &Arc<Self>, who: impl Into<SignedIn>, notify: Notify) -> Viewer {
        let SignedIn { mut member, told } = who.into();
        // Cleaned before anything keeps it: the database and every screen see one name.
        member.name = text::clean_name(&member);
        // Noted in the store (a write, through the writer) before the owner seats them.
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
        let asked = member.clone();
        let (id, name) = self
            .ask(move |o| o.connect(asked, rating, told, notify))
            .unwrap_or((0, member.name.clone()));
        member.name = name;
        Viewer {
            club: Arc::clone(self),
            id,
            member,
        }
    }

    /// Time passes in every room: flags fall, a room whose players have both been away
    /// for [`Limits::abandon_after`] closes (its game adjourned), and rooms nobody has
    /// been in for [`EMPTY_ROOM_KEPT`] are swept. Call it often (the server does, ten
    /// times a second, from an async task: so it never waits, neither for the owner nor
    /// for room in its queue, where a tick that finds none is skipped for the next).
    /// What is asked of the club after it sees its outcome: commands are taken in order.
    pub fn tick(&self, now: Instant) {
        let _ = self
            .commands
            .try_send(Box::new(move |o: &mut Owner| o.tick(now)));
    }

    /// Saves every game going on with its clocks as they stand (the server is stopping:
    /// they go on after a restart when both players are back), then waits up to `within`
    /// for everything queued to be written; whether it all was.
    pub fn save_all(&self, now: Instant, within: Duration) -> bool {
        self.ask(move |o| o.save_all(now));
        self.writer.flush(within)
    }

    /// May `member` have the engine search for them now? Refused, with the reason, while
    /// they hold a seat in a game that goes on or is adjourned (a player's seat and clock
    /// are theirs until the game ends). The one place this is decided.
    pub fn engine_allowed(&self, member: &str) -> Result<(), ClubError> {
        let member = member.to_string();
        self.ask_or_refuse(move |o| o.engine_allowed(&member))
    }

    /// The lobby as viewer `me` reads it, at `now`.
    /// Viewer `viewer` (of `member`) asks for a search of `kind`: refused while the
    /// member's own game goes on (fair play), else where the search stands in the
    /// server's engine budget (always running when the club has none).
    fn engine_ask(&self, viewer: u64, member: &str, kind: JobKind) -> Result<Turn, ClubError> {
        let member = member.to_string();
        self.ask_or_refuse(move |o| o.engine_ask(viewer, &member, kind))
    }

    fn lobby_view(&self, me: u64, now: Instant) -> LobbyView {
        let snapshot = Arc::clone(&self.lobby.lock().unwrap_or_else(|e| e.into_inner()));
        snapshot.for_viewer(me, now)
    }

    /// Is room `name` open? (For tests of the rooms' lifecycle.)
    #[cfg(test)]
    fn has_room(&self, name: &str) -> bool {
        let name = name.to_string();
        self.ask(move |o| o.has_room(&name)).unwrap_or(false)
    }
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
        let id = self.id;
        self.club.ask(move |o| o.disconnect(id));
    }
}

impl Viewer {
    pub fn member(&self) -> &Member {
        &self.member
    }

    /// The club's database (a member's puzzle record is kept there; writes go through the
    /// writer's thread).
    pub fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.club.store)
    }

    /// The name the club shows for this viewer (made unique among those online).
    pub fn name(&self) -> String {
        self.member.name.clone()
    }

    pub fn lobby(&self, now: Instant) -> LobbyView {
        self.club.lobby_view(self.id, now)
    }

    /// The room this viewer is in, by name.
    pub fn room_name(&self) -> Option<String> {
        let id = self.id;
        self.club.ask(move |o| o.room_name(id)).flatten()
    }

    /// The room this viewer is in, as it stands at `now`, and their role there.
    pub fn room(&self, now: Instant) -> Option<(RoomView, Role)> {
        let id = self.id;
        self.club.ask(move |o| o.room_view(id, now)).flatten()
    }

    /// The next moment the room's screen changes by itself (a clock's second, a flag).
    pub fn next_due(&self, now: Instant) -> Option<Instant> {
        let id = self.id;
        self.club.ask(move |o| o.next_due(id, now)).flatten()
    }

    /// Messages for this viewer since the last call (a challenge, a rating change).
    pub fn take_notices(&self) -> Vec<String> {
        let id = self.id;
        self.club
            .ask(move |o| o.take_notices(id))
            .unwrap_or_default()
    }

    /// Joins (or opens) the room `name`: a seat while one is free, else watching.
    pub fn join(&self, name: &str) -> Result<Role, ClubError> {
        let name = text::room_name(name)?;
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.join(id, &name))
    }

    /// Back to the lobby: a player keeps the seat of a game that goes on.
    pub fn leave_room(&self) {
        let id = self.id;
        self.club.ask(move |o| o.leave_room(id));
    }

    /// Does what the viewer asks in their room.
    pub fn act(&self, action: Action) -> Result<String, ClubError> {
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.act(id, action))
    }

    /// Opens study `name` (made this member's when there is none by that name) or joins
    /// it; out of any room first. What to tell the member.
    pub fn study_open(&self, name: &str) -> Result<String, ClubError> {
        let name = crate::club::study::study_name(name)?;
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.study_open(id, &name))
    }

    /// Out of the study, to the lobby.
    pub fn study_leave(&self) {
        let id = self.id;
        self.club.ask(move |o| o.study_leave(id));
    }

    /// The study this viewer is in, as it stands (shared: a copy is made only when it
    /// changes).
    pub fn study(&self) -> Option<Arc<Study>> {
        let id = self.id;
        self.club.ask(move |o| o.study_view(id)).flatten()
    }

    /// Does what the viewer asks of their study (refused, with why, without the right).
    pub fn study_act(&self, action: StudyAction) -> Result<String, ClubError> {
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.study_act(id, action))
    }

    /// The study's owner gives member `name` the right to move (`give`), or takes it.
    pub fn study_right(&self, name: &str, give: bool) -> Result<String, ClubError> {
        let id = self.id;
        let asked = name.trim().to_string();
        let online = {
            let asked = asked.clone();
            self.club.ask(move |o| o.member_named(&asked)).flatten()
        };
        let who = match online {
            Some(who) => who,
            None => match self.club.store.account_named(&asked) {
                Ok(Some(a)) => (a.id, a.name),
                Ok(None) => {
                    return Err(ClubError::new(format!("no member is named {asked}")));
                }
                Err(e) => return Err(ClubError::new(e.to_string())),
            },
        };
        self.club
            .ask_or_refuse(move |o| o.study_right(id, who, give))
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

    /// May the engine search for this viewer now? See [`Club::engine_allowed`].
    pub fn engine_allowed(&self) -> Result<(), ClubError> {
        self.club.engine_allowed(&self.member.id)
    }

    /// This viewer asks for a search of `kind` (replacing any it had): refused while the
    /// member's own game goes on, else running or queued in the server's engine budget.
    /// A queued search is woken (the viewer's screen told) when its turn changes.
    pub fn engine_ask(&self, kind: JobKind) -> Result<Turn, ClubError> {
        self.club.engine_ask(self.id, &self.member.id, kind)
    }

    /// Where this viewer's search stands in the engine budget (a running-on analysis may
    /// have been paused for a job that ends: it reads `Queued`).
    pub fn engine_turn(&self) -> Turn {
        let id = self.id;
        self.club
            .ask(move |o| o.engine_turn(id))
            .unwrap_or(Turn::Idle)
    }

    /// This viewer's search is over: its share goes to the next.
    pub fn engine_done(&self) {
        let id = self.id;
        self.club.ask(move |o| o.engine_done(id));
    }

    /// This viewer's finished games, newest first (a game just ended is read once its
    /// write is done, waiting a moment for it).
    pub fn games(&self, limit: usize) -> Result<Vec<GameRecord>, ClubError> {
        self.club.flush(GAMES_WAIT);
        self.club
            .store
            .games_of(&self.member.id, limit)
            .map_err(|e| ClubError::new(e.to_string()))
    }

    /// Puts a seek in the lobby (replacing this viewer's earlier one); its number.
    pub fn seek(
        &self,
        time_control: Option<TimeControl>,
        color: Option<Color>,
        rated: bool,
    ) -> Result<u32, ClubError> {
        let id = self.id;
        self.club
            .ask_or_refuse(move |o| o.seek(id, time_control, color, rated))
    }

    /// Takes this viewer's seek out of the lobby; its number.
    pub fn unseek(&self) -> Result<u32, ClubError> {
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.unseek(id))
    }

    /// Withdraws this viewer's challenge to the member online as `name` (who is told);
    /// its number.
    pub fn withdraw(&self, name: &str) -> Result<u32, ClubError> {
        let (id, name) = (self.id, name.to_string());
        self.club.ask_or_refuse(move |o| o.withdraw(id, &name))
    }

    /// Challenges the member online as `name`, in place of an earlier challenge to them
    /// (one standing challenge per opponent).
    pub fn challenge(
        &self,
        name: &str,
        time_control: Option<TimeControl>,
        rated: bool,
    ) -> Result<u32, ClubError> {
        let (id, name) = (self.id, name.to_string());
        self.club
            .ask_or_refuse(move |o| o.challenge(id, &name, time_control, rated))
    }

    /// Turns down challenge `number` (or withdraws one's own).
    pub fn decline(&self, number: u32) -> Result<(), ClubError> {
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.decline(id, number))
    }

    /// Accepts seek or challenge `number`: a new room, both players in it. Returns the
    /// room's name. Refused while this viewer plays a game of their own.
    pub fn accept(&self, number: u32) -> Result<String, ClubError> {
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.accept(id, number))
    }

    /// Creates a tournament (`:tournament arena 3+0 30m`, `:tournament swiss 5+3 5
    /// rounds`): its id. The organiser plays only after joining.
    pub fn tournament_create(&self, spec: &str) -> Result<u32, ClubError> {
        let spec: Spec = spec.parse().map_err(|e: SpecError| ClubError::new(e.0))?;
        let id = self.id;
        self.club
            .ask_or_refuse(move |o| o.tournament_create(id, spec))
    }

    /// Joins tournament `tournament` (the only one open when `None`), or comes back to an
    /// arena after a pause.
    pub fn tournament_join(&self, tournament: Option<u32>) -> Result<u32, ClubError> {
        let id = self.id;
        self.club
            .ask_or_refuse(move |o| o.tournament_join(id, tournament))
    }

    /// Leaves the pairing pool of one's arena until `:tournament join`.
    pub fn tournament_pause(&self) -> Result<u32, ClubError> {
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.tournament_pause(id))
    }

    /// Withdraws from a tournament (games played stay counted).
    pub fn tournament_leave(&self, tournament: Option<u32>) -> Result<u32, ClubError> {
        let id = self.id;
        self.club
            .ask_or_refuse(move |o| o.tournament_leave(id, tournament))
    }

    /// Ends a tournament now (its organiser only).
    pub fn tournament_end(&self, tournament: Option<u32>) -> Result<u32, ClubError> {
        let id = self.id;
        self.club
            .ask_or_refuse(move |o| o.tournament_end(id, tournament))
    }

    /// Goes berserk in one's arena game, before one's first move.
    pub fn berserk(&self) -> Result<String, ClubError> {
        let id = self.id;
        self.club.ask_or_refuse(move |o| o.tournament_berserk(id))
    }

    /// A tournament's standings, pairings and podium (one's own, or the only one open,
    /// when `None`).
    pub fn tournament(&self, tournament: Option<u32>) -> Result<TournamentView, ClubError> {
        let (id, now) = (self.id, self.club.now());
        self.club
            .ask_or_refuse(move |o| o.tournament_view(id, tournament, now))
    }

    /// Is this viewer's member in a tournament that is open (their session waits for a
    /// pairing, and no idle timeout ends it)?
    pub fn in_tournament(&self) -> bool {
        let member = self.member.id.clone();
        self.club
            .ask(move |o| o.tournament_waits_for(&member))
            .unwrap_or(false)
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
        assert!(!club.has_room("den"));
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

    /// A club whose clock is moved by hand: `(club, advance)`.
    fn club_at(t0: Instant, limits: Limits) -> (Arc<Club>, impl Fn(Duration)) {
        let store = Arc::new(SqliteStore::in_memory().expect("a database"));
        club_on(store, t0, limits)
    }

    /// [`club_at`] on a store of the test's own (to start a club on it again).
    fn club_on(
        store: Arc<dyn Store>,
        t0: Instant,
        limits: Limits,
    ) -> (Arc<Club>, impl Fn(Duration)) {
        let now = Arc::new(Mutex::new(t0));
        let read = Arc::clone(&now);
        let clock: Clock = Arc::new(move || *read.lock().unwrap());
        let club = Club::with_clock(store, limits, clock).expect("a club");
        (club, move |d: Duration| *now.lock().unwrap() += d)
    }

    /// alice and bob begin a game in room den; bob leaves and alice claims the win when his
    /// minute is up, so bob has two lines of news (the result, his rating). Returns alice.
    fn bob_loses_while_away(club: &Arc<Club>, advance: impl Fn(Duration)) -> Viewer {
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        alice.join("den").unwrap();
        bob.join("den").unwrap();
        alice.act(Action::Move("e4".into())).unwrap();
        bob.act(Action::Move("e5".into())).unwrap();
        drop(bob);
        advance(Duration::from_secs(61));
        club.tick(club.now());
        let said = alice.act(Action::ClaimWin).unwrap();
        assert!(said.contains("you won"), "{said}");
        assert!(club.flush(Duration::from_secs(10)));
        alice
    }

    /// What bob is told of the game `bob_loses_while_away` played, at his next login.
    fn assert_told_of_the_lost_game(told: &[String]) {
        assert!(
            told.iter().any(|t| t.contains("while you were away (2)")),
            "{told:?}"
        );
        assert!(
            told.iter()
                .any(|t| t.contains("your game in room den, alice – bob, ended 1-0")),
            "{told:?}"
        );
    }

    #[test]
    fn accepting_during_ones_own_game_says_so_and_does_nothing() {
        let club = club();
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        let carol = club.connect(member("c", "carol", true), Arc::new(|| {}));
        alice.join("den").unwrap();
        bob.join("den").unwrap();
        alice.act(Action::Move("e4".into())).unwrap();
        let n = carol.challenge("alice", None, true).unwrap();
        let err = alice.accept(n).unwrap_err().to_string();
        assert!(
            err.contains("you have a game going on in room den"),
            "{err}"
        );
        assert_eq!(
            alice.room_name().as_deref(),
            Some("den"),
            "still in her game"
        );
        assert_eq!(
            alice.lobby(club.now()).challenges.len(),
            1,
            "the challenge stands"
        );
        // Nor may another member take a seek of someone whose game goes on.
        let seek = bob.seek(None, None, true).unwrap();
        let err = carol.accept(seek).unwrap_err().to_string();
        assert!(err.contains("bob has a game going on in room den"), "{err}");
        assert_eq!(carol.room_name(), None);
    }

    #[test]
    fn a_room_left_for_a_new_game_is_removed_and_empty_rooms_are_swept() {
        let t0 = Instant::now();
        let limits = Limits {
            max_rooms: 3,
            ..Limits::default()
        };
        let (club, advance) = club_at(t0, limits);
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        for _ in 0..2 {
            alice.join("x1").unwrap();
            let n = bob.challenge("alice", None, true).unwrap();
            let room = alice.accept(n).unwrap();
            assert!(!club.has_room("x1"), "the room alice left is gone");
            alice.act(Action::Resign).ok();
            alice.leave_room();
            bob.leave_room();
            assert!(
                !club.has_room(&room),
                "a room nobody is in and no game goes on"
            );
        }
        // A room whose game ended by itself while its players were away is swept.
        let n = bob.challenge("alice", "1+0".parse().ok(), true).unwrap();
        let room = alice.accept(n).unwrap();
        // (The challenger plays White.)
        bob.act(Action::Move("e4".into())).unwrap();
        alice.act(Action::Move("e5".into())).unwrap();
        alice.leave_room();
        bob.leave_room();
        assert!(club.has_room(&room), "a game goes on");
        advance(Duration::from_secs(30));
        club.tick(club.now());
        assert!(club.has_room(&room), "it still goes on");
        advance(Duration::from_secs(31));
        club.tick(club.now());
        assert!(
            !club.has_room(&room),
            "the flag fell in an empty room: swept"
        );
        assert!(alice.join("game-4").is_ok(), "within --max-rooms");
    }

    #[test]
    fn the_engine_is_refused_to_a_player_while_their_game_goes_on_or_is_adjourned() {
        let t0 = Instant::now();
        let limits = Limits {
            abandon_after: Duration::from_secs(60),
            ..Limits::default()
        };
        let (club, advance) = club_at(t0, limits);
        let alice = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        let carol = club.connect(member("c", "carol", true), Arc::new(|| {}));
        alice.join("den").unwrap();
        assert!(
            alice.engine_allowed().is_ok(),
            "no game yet: nobody to play"
        );
        bob.join("den").unwrap();
        carol.join("den").unwrap();
        alice.act(Action::Move("e4".into())).unwrap();
        let err = alice.engine_allowed().unwrap_err().to_string();
        assert!(err.contains("your game in room den"), "{err}");
        // In the lobby, or playing the engine: the seat and clock are still hers.
        alice.leave_room();
        assert!(alice.engine_allowed().is_err());
        assert!(carol.engine_allowed().is_ok(), "a watcher may");
        // Both away too long: adjourned, and still refused.
        drop(bob);
        advance(Duration::from_secs(61));
        club.tick(club.now());
        assert!(!club.has_room("den"));
        assert!(alice.engine_allowed().is_err(), "an adjourned game is hers");
    }

    #[test]
    fn one_member_is_listed_once_and_lobby_clocks_run_between_snapshots() {
        let t0 = Instant::now();
        let (club, advance) = club_at(t0, Limits::default());
        let laptop = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let _phone = club.connect(member("a", "alice", true), Arc::new(|| {}));
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        let n = bob.challenge("alice", "5+0".parse().ok(), true).unwrap();
        laptop.accept(n).unwrap();
        let lobby = club.lobby_view(0, club.now());
        let names: Vec<_> = lobby.online.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, ["alice", "bob"], "alice once, with her two sessions");
        bob.act(Action::Move("e4".into())).unwrap();
        let before = club.lobby_view(0, club.now()).games[0].clocks.unwrap();
        advance(Duration::from_secs(7));
        let after = club.lobby_view(0, club.now()).games[0].clocks.unwrap();
        assert_eq!(after[0], before[0], "white's clock stands");
        assert_eq!(before[1] - after[1], Duration::from_secs(7), "black's runs");
    }

    #[test]
    fn what_happened_while_a_member_was_away_is_told_at_the_next_login() {
        let (club, advance) = club_at(Instant::now(), Limits::default());
        let _alice = bob_loses_while_away(&club, advance);
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        let told = bob.take_notices();
        assert_told_of_the_lost_game(&told);
        let rating = shown(&club.store().rating("b").unwrap());
        assert!(
            told.iter().any(|t| t.contains(&format!(
                "your rating is {rating} after the game in room den"
            ))),
            "{told:?}"
        );
        assert!(rating < 1500);
        // Told once.
        drop(bob);
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        assert!(bob.take_notices().is_empty());
    }

    /// Waits (a few seconds at most) until the store's news satisfy `done`.
    fn news_until(store: &dyn Store, done: impl Fn(&[(String, String)]) -> bool) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if store.news().is_ok_and(|n| done(&n)) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    #[test]
    fn news_kept_for_a_member_away_survive_a_restart_and_are_told_once() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().expect("a database"));
        let (club, advance) = club_on(Arc::clone(&store), Instant::now(), Limits::default());
        let alice = bob_loses_while_away(&club, advance);
        let bobs = |n: &[(String, String)]| n.iter().filter(|(m, _)| m == "b").count();
        assert!(news_until(store.as_ref(), |n| bobs(n) == 2));
        drop(alice);
        drop(club);
        // The server starts again on the same database: bob is told at his next login.
        let club = Club::new(Arc::clone(&store)).unwrap();
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        assert_told_of_the_lost_game(&bob.take_notices());
        assert!(news_until(store.as_ref(), |n| n.is_empty()));
        drop(bob);
        drop(club);
        let club = Club::new(store).unwrap();
        let bob = club.connect(member("b", "bob", true), Arc::new(|| {}));
        assert!(
            bob.take_notices().is_empty(),
            "told once, across restarts too"
        );
    }
}
