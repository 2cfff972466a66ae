//! The club part of a viewer's app (under `ox88 serve`): the viewer's hold on the club,
//! where they are (the lobby, a room, or a game against the engine), what the club looked
//! like when last read (drawing reads only this copy), and the viewer's own choices: chat
//! muted, the engine's panes open while watching (and the share of the game's analysis
//! they show), the lobby row picked.

use std::sync::Arc;
use std::time::Instant;

use crate::chess::Board;
use crate::club::analysis::{Analyses, Sink, Watch};
use crate::club::budget::{JobKind, Turn};
use crate::club::lobby::{LobbyView, TournamentView};
use crate::club::study::{Behind, Follow, Step, Study};
use crate::club::{ClubError, Role, RoomView, Viewer};
use crate::engine::SearchOptions;
use crate::engine::jobs::ReviewDepth;
use crate::game::study::NodeId;
use crate::tui::app::command::{Scope, Words, lobby_words};
use crate::tui::app::play::SetAside;

/// How often a room's screen reads its clocks again while nothing else changes.
const CLOCK_READ: std::time::Duration = std::time::Duration::from_millis(200);

/// Where a club viewer is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Place {
    /// The lobby's list beside the board.
    #[default]
    Lobby,
    /// In a room, playing or watching.
    Room,
    /// Playing the engine, as without the club.
    Engine,
    /// In a study: its board shared, its cursor followed.
    Study,
}

/// A row of the lobby a viewer can act on with Enter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyRow {
    Seek(u32),
    Challenge(u32),
    Game(u32),
    /// A room where a player waits for an opponent, by name.
    Waiting(String),
    /// A tournament starting or running, by id (Enter joins it).
    Tournament(u32),
    /// A study, by name (Enter joins it).
    Study(String),
}

/// The club as one viewer sees it.
#[derive(Default)]
pub struct ClubView {
    viewer: Option<Viewer>,
    place: Place,
    /// The room as last read, and this viewer's role in it.
    room: Option<(RoomView, Role)>,
    lobby: LobbyView,
    /// The game against the engine while the viewer is in a room.
    set_aside: Option<SetAside>,
    /// Chat lines are not shown (the viewer's own choice).
    muted: bool,
    /// A watcher has opened the engine's panes on the game.
    engine_open: bool,
    /// The server's analyses for watchers, and where this screen receives their events
    /// (without it a watcher's own engine analyses, as in the terminal).
    analyses: Option<(Arc<Analyses>, Sink)>,
    /// This watcher's share of the room's analysis while the panes are open.
    watch: Option<Watch>,
    /// The newest chat line already told on the status line.
    chat_seen: u64,
    /// The room's version last copied into the app's game.
    synced_version: Option<u64>,
    /// The lobby row picked with ↑ / ↓.
    picked: usize,
    /// The role the board was last turned for in this room (a rematch swaps colours).
    board_turned_for: Option<Role>,
    /// A search asked for and waiting its turn in the server's engine budget.
    engine_waiting: Option<EngineJob>,
    /// This viewer holds a share of the engine budget (given back when its search ends).
    engine_holding: bool,
    /// The study as last read, while in one.
    study: Option<Arc<Study>>,
    /// Where this screen is in the study: following its cursor, or away.
    follow: Follow,
    /// The study's version, chapter and node last copied into the app's game.
    study_shown: Option<(u64, usize, NodeId)>,
    /// `:chapter NAME paste` waits for the PGN on the next line: the chapter's name.
    paste_for: Option<String>,
    /// The deepest evaluation this screen has handed to the study, by chapter and node.
    eval_given: Option<(usize, NodeId, u32)>,
    /// The viewer's own tournament as last read (while in the lobby), and when: its
    /// standings are shown live, its time left counted down from then.
    tournament: Option<(TournamentView, Instant)>,
    /// When the club was last read (a room's clocks are read again once a redraw).
    read_at: Option<Instant>,
}

/// A search that waits for a share of the server's engine budget, started when its turn
/// comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineJob {
    /// A search of the position: `analysis` runs on, else it plays a move.
    Search { analysis: bool },
    /// A hint.
    Hint,
    /// The lab at this depth.
    Lab(u32),
    /// A review of the game.
    Review(ReviewDepth),
}

impl EngineJob {
    pub fn kind(self) -> JobKind {
        match self {
            EngineJob::Search { analysis: true } => JobKind::RunsOn,
            _ => JobKind::Ends,
        }
    }
}

impl ClubView {
    pub fn new(viewer: Viewer) -> ClubView {
        ClubView {
            viewer: Some(viewer),
            ..ClubView::default()
        }
    }

    /// Watchers' panes show the server's shared analysis of the game, received by `sink`.
    pub fn share_analyses(&mut self, analyses: Arc<Analyses>, sink: Sink) {
        self.analyses = Some((analyses, sink));
    }

    pub fn viewer(&self) -> Option<&Viewer> {
        self.viewer.as_ref()
    }

    /// True for a viewer of the club (an app under `ox88 serve` with a club).
    pub fn is_on(&self) -> bool {
        self.viewer.is_some()
    }

    // ---- where the viewer is -------------------------------------------------------------

    pub fn place(&self) -> Place {
        self.place
    }

    /// The room as last read, and this viewer's role in it.
    pub fn room(&self) -> Option<&(RoomView, Role)> {
        self.room.as_ref()
    }

    /// The lobby as last read.
    pub fn lobby(&self) -> &LobbyView {
        &self.lobby
    }

    /// The viewer's own tournament as last read, with its time left counted down to `now`.
    pub fn my_tournament(&self, now: Instant) -> Option<TournamentView> {
        let (t, at) = self.tournament.as_ref()?;
        let mut t = t.clone();
        let since = now.saturating_duration_since(*at);
        t.row.until = t.row.until.map(|u| u.saturating_sub(since));
        Some(t)
    }

    /// The lobby row picked with ↑ / ↓.
    pub fn picked(&self) -> usize {
        self.picked
    }

    /// Moves the pick one row up or down the lobby's rows.
    pub fn pick_next(&mut self, up: bool) {
        let rows = self.lobby_rows().len();
        if rows > 0 {
            self.picked = if up {
                self.picked.saturating_sub(1)
            } else {
                (self.picked + 1).min(rows - 1)
            };
        }
    }

    /// The row picked in the lobby, if any.
    pub fn picked_row(&self) -> Option<LobbyRow> {
        self.lobby_rows().get(self.picked).cloned()
    }

    /// Into the room: the engine game is kept aside (once, by `set_aside`), the room's
    /// game and chat are read afresh, and the engine's panes start closed.
    pub fn enter_room(&mut self, set_aside: impl FnOnce() -> SetAside) {
        if self.set_aside.is_none() {
            self.set_aside = Some(set_aside());
        }
        self.place = Place::Room;
        self.synced_version = None;
        self.board_turned_for = None;
        self.close_engine();
        self.chat_seen = 0;
    }

    /// Out of the room, into the lobby: the engine game to give back, if one was kept.
    pub fn leave_room(&mut self) -> Option<SetAside> {
        self.place = Place::Lobby;
        self.close_engine();
        self.set_aside.take()
    }

    /// To the lobby (from the engine game, or after leaving a room).
    pub fn go_to_lobby(&mut self) {
        self.place = Place::Lobby;
    }

    /// `:play`: the game against the engine, whatever the viewer was looking at.
    pub fn go_to_engine(&mut self) {
        self.place = Place::Engine;
    }

    // ---- the room's game and chat, once each -------------------------------------------

    /// The room's version, when it differs from the one last copied into the app's game
    /// (then it counts as copied).
    pub fn room_changed(&mut self) -> Option<&RoomView> {
        let (view, _) = self.room.as_ref()?;
        if self.synced_version == Some(view.version) {
            return None;
        }
        self.synced_version = Some(view.version);
        Some(view)
    }

    /// The chat lines not yet told, as `from: text` (they count as told).
    pub fn untold_chat(&mut self) -> Vec<String> {
        let Some((view, _)) = &self.room else {
            return Vec::new();
        };
        let new = view
            .chat
            .iter()
            .filter(|l| l.seq > self.chat_seen)
            .map(|l| format!("{}: {}", l.from, l.text))
            .collect();
        if let Some(last) = view.chat.last() {
            self.chat_seen = last.seq;
        }
        new
    }

    /// Chat lines are not shown (the viewer's own choice).
    pub fn muted(&self) -> bool {
        self.muted
    }

    /// `:mute`: chat hidden or shown again; returns whether it is now muted.
    pub fn toggle_mute(&mut self) -> bool {
        self.muted = !self.muted;
        self.muted
    }

    /// A watcher has opened the engine's panes on the game.
    pub fn engine_open(&self) -> bool {
        self.engine_open
    }

    /// The engine's panes open on the room's game: a share of its analysis, refused with
    /// a sentence when the server runs as many analyses as it may.
    pub fn open_engine(&mut self) -> Result<(), ClubError> {
        if let Some((analyses, sink)) = &self.analyses {
            // A study's analysis is kept apart from any room's of the same name.
            let key = match (&self.study, &self.room) {
                (Some(s), _) if self.place == Place::Study => format!("study:{}", s.name()),
                (_, Some((view, _))) => view.name.clone(),
                _ => return Err(ClubError::new("not in a room or a study")),
            };
            self.watch = Some(analyses.watch(&key, Arc::clone(sink))?);
        }
        self.engine_open = true;
        Ok(())
    }

    /// The engine's panes closed: this watcher's share of the analysis is given back (the
    /// last one out stops it).
    pub fn close_engine(&mut self) {
        self.engine_open = false;
        self.watch = None;
    }

    /// The shared analysis searches `board` (see [`Watch::follow`]); `None` when this
    /// watcher has no share of one (its own engine analyses).
    pub fn follow_analysis(
        &self,
        board: &Board,
        options: &SearchOptions,
        following: Option<u64>,
    ) -> Option<u64> {
        self.watch
            .as_ref()
            .map(|w| w.follow(board, options, following))
    }

    /// The game is over: the shared analysis, if any, stops searching and its share is
    /// given back, so the server's analysis slot goes to a game that goes on (the panes
    /// stay open on the finished game with this screen's own engine).
    pub fn rest_analysis(&mut self) {
        if let Some(w) = self.watch.take() {
            w.rest();
        }
    }

    /// Asks the server's engine budget for `job` (the fair-play gate first): running,
    /// queued (kept, started when its turn comes), or refused with the club's reason.
    /// Always running outside the club.
    pub fn engine_ask(&mut self, job: EngineJob) -> Result<Turn, String> {
        let Some(v) = &self.viewer else {
            return Ok(Turn::Running);
        };
        if job == (EngineJob::Search { analysis: true })
            && self.watch.as_ref().is_some_and(|w| w.others() > 0)
        {
            // One search for all who share it, paid for once: the fair-play gate only.
            v.engine_allowed().map_err(|e| e.to_string())?;
            return Ok(Turn::Running);
        }
        let turn = v.engine_ask(job.kind()).map_err(|e| e.to_string());
        match turn {
            Ok(Turn::Running) => {
                self.engine_holding = true;
                self.engine_waiting = None;
            }
            Ok(_) => {
                self.engine_holding = false;
                self.engine_waiting = Some(job);
            }
            Err(_) => {
                self.engine_holding = false;
                self.engine_waiting = None;
            }
        }
        turn
    }

    /// Where this viewer's search stands in the budget (`Idle` outside the club).
    pub fn engine_turn(&self) -> Turn {
        self.viewer.as_ref().map_or(Turn::Idle, Viewer::engine_turn)
    }

    /// The search waiting its turn, if any.
    pub fn engine_waiting(&self) -> Option<EngineJob> {
        self.engine_waiting
    }

    /// A running search was paused for a job that ends: it waits again.
    pub fn engine_paused(&mut self, job: EngineJob) {
        self.engine_holding = false;
        self.engine_waiting = Some(job);
    }

    /// Whether this viewer holds a share of the budget.
    pub fn engine_holding(&self) -> bool {
        self.engine_holding
    }

    /// The search is over, or no longer wanted: the share (or the place in the queue) is
    /// given back.
    pub fn engine_done(&mut self) {
        if self.engine_holding || self.engine_waiting.is_some() {
            self.engine_holding = false;
            self.engine_waiting = None;
            if let Some(v) = &self.viewer {
                v.engine_done();
            }
        }
    }

    /// May the engine search for this viewer now? Refused, with the club's reason, while
    /// they have a game of their own going on or adjourned. Always outside the club.
    pub fn engine_allowed(&self) -> Result<(), String> {
        match &self.viewer {
            Some(v) => v.engine_allowed().map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// From the lobby to the game against the engine (a move typed there, a game resumed).
    pub fn play_engine(&mut self) {
        if self.place == Place::Lobby {
            self.place = Place::Engine;
        }
    }

    /// Where a `:` command is typed, as the command table knows it.
    pub fn scope(&self) -> Scope {
        match self.place {
            _ if !self.is_on() => Scope::Solo,
            Place::Room if self.in_room() && self.playing() => Scope::Playing,
            Place::Room if self.in_room() => Scope::Watching,
            Place::Room | Place::Lobby => Scope::Lobby,
            Place::Engine => Scope::Engine,
            Place::Study if self.study.is_some() => Scope::Studying,
            Place::Study => Scope::Lobby,
        }
    }

    /// What Tab offers of the lobby's (members online, rooms, numbers), read afresh: the
    /// copy kept is read only while the lobby is on the screen.
    pub fn lobby_words(&self, kind: Words, now: Instant) -> Vec<String> {
        match &self.viewer {
            Some(v) => lobby_words(kind, &v.lobby(now)),
            None => Vec::new(),
        }
    }

    pub fn in_room(&self) -> bool {
        self.place == Place::Room && self.room.is_some()
    }

    /// This viewer's role in the room.
    pub fn role(&self) -> Option<Role> {
        self.room
            .as_ref()
            .map(|(_, r)| *r)
            .filter(|_| self.in_room())
    }

    /// This viewer's role in the room when the board has not been turned for it yet: on
    /// entering, and when a rematch swapped the colours (then it counts as turned).
    pub fn role_to_turn_for(&mut self) -> Option<Role> {
        let role = self.role()?;
        if self.board_turned_for == Some(role) {
            return None;
        }
        self.board_turned_for = Some(role);
        Some(role)
    }

    /// In a room whose game goes on (playing, waiting for a move, or watching): the
    /// session is not idle, whatever the keys.
    pub fn game_going_on(&self) -> bool {
        match &self.room {
            Some((v, _)) if self.in_room() => v.began && v.result.is_none() && !v.aborted,
            _ => false,
        }
    }

    /// In a tournament that is open: the session waits for a pairing, however quiet.
    pub fn in_tournament(&self) -> bool {
        self.viewer.as_ref().is_some_and(Viewer::in_tournament)
    }

    /// A player of a game still going on: the engine stays out of sight.
    pub fn playing(&self) -> bool {
        match &self.room {
            Some((v, Role::Player(_))) if self.place == Place::Room => {
                v.result.is_none() && !v.aborted && v.seats.iter().all(Option::is_some)
            }
            _ => false,
        }
    }

    /// Is a room's screen due to read its clocks again (one redraw since the last read)?
    pub fn clock_due(&self, now: Instant) -> bool {
        self.read_at
            .is_none_or(|at| now.saturating_duration_since(at) >= CLOCK_READ)
    }

    /// Reads the club again: the room and the lobby as they stand.
    pub fn refresh(&mut self, now: Instant) {
        let Some(v) = &self.viewer else {
            return;
        };
        self.read_at = Some(now);
        // Only the viewer takes themselves into a study (`:study`, which sets the place
        // first): anywhere else there is none to ask the club's thread about. In a study
        // the viewer is in no room (the club keeps them apart) unless the club seated them
        // in one (a tournament's pairing), which ends the study.
        self.study = if self.place == Place::Study {
            v.study()
        } else {
            None
        };
        self.room = if self.place == Place::Study && self.study.is_some() {
            None
        } else {
            v.room(now)
        };
        // The lobby's list costs a look at every room: only while it is on the screen.
        if self.place == Place::Lobby && self.room.is_none() {
            self.lobby = v.lobby(now);
            // One's own tournament, live: its standings, pairings and time left.
            let open = self
                .lobby
                .tournaments
                .iter()
                .any(|t| t.phase != crate::club::lobby::Phase::Finished);
            self.tournament = if open && v.in_tournament() {
                v.tournament(None).ok().map(|t| (t, now))
            } else {
                None
            };
        }
        let rows = self.lobby_rows().len();
        if self.picked >= rows {
            self.picked = rows.saturating_sub(1);
        }
    }

    /// The lobby's rows one can act on, in the order they are drawn.
    pub fn lobby_rows(&self) -> Vec<LobbyRow> {
        let l = &self.lobby;
        l.challenges
            .iter()
            .filter(|c| c.to == l.me)
            .map(|c| LobbyRow::Challenge(c.number))
            .chain(l.seeks.iter().map(|s| LobbyRow::Seek(s.number)))
            .chain(l.waiting.iter().map(|w| LobbyRow::Waiting(w.room.clone())))
            .chain(
                l.tournaments
                    .iter()
                    .filter(|t| t.phase != crate::club::lobby::Phase::Finished)
                    .map(|t| LobbyRow::Tournament(t.id)),
            )
            .chain(l.games.iter().map(|g| LobbyRow::Game(g.number)))
            .chain(l.studies.iter().map(|s| LobbyRow::Study(s.name.clone())))
            .collect()
    }

    // ---- the study ----------------------------------------------------------------------

    /// The study as last read, while the viewer is in one.
    pub fn study(&self) -> Option<&Arc<Study>> {
        self.study.as_ref().filter(|_| self.place == Place::Study)
    }

    pub fn in_study(&self) -> bool {
        self.study().is_some()
    }

    /// Into a study: the engine game is kept aside (once), the study is shown afresh, on
    /// its cursor.
    pub fn enter_study(&mut self, set_aside: impl FnOnce() -> SetAside) {
        if self.set_aside.is_none() {
            self.set_aside = Some(set_aside());
        }
        self.place = Place::Study;
        self.follow = Follow::default();
        self.study_shown = None;
        self.eval_given = None;
        self.paste_for = None;
        self.close_engine();
    }

    /// Out of the study: the engine game to give back, if one was kept.
    pub fn leave_study(&mut self) -> Option<SetAside> {
        self.place = Place::Lobby;
        self.study = None;
        self.close_engine();
        self.set_aside.take()
    }

    /// May this viewer move in the study (its owner, or given the right)?
    pub fn may_move(&self) -> bool {
        match (self.study(), &self.viewer) {
            (Some(s), Some(v)) => s.may_move(&v.member().id),
            _ => false,
        }
    }

    /// The chapter and node this screen shows.
    pub fn study_at(&self) -> Option<(usize, NodeId)> {
        self.study().map(|s| self.follow.at(s))
    }

    /// The chapter and node to show when they changed since last copied (then they count
    /// as copied), with the study's version.
    pub fn study_moved(&mut self) -> Option<(usize, NodeId)> {
        let s = self.study()?;
        let (chapter, node) = self.follow.at(s);
        let now = (s.version(), chapter, node);
        if self.study_shown == Some(now) {
            return None;
        }
        self.study_shown = Some(now);
        Some((chapter, node))
    }

    /// Is this screen away from the study's cursor?
    pub fn is_away(&self) -> bool {
        self.follow.is_away()
    }

    /// How far behind the cursor this screen is, when away.
    pub fn behind(&self) -> Option<Behind> {
        self.study().and_then(|s| self.follow.behind(s))
    }

    /// Steps this screen on its own (away from the cursor from now on).
    pub fn step_away(&mut self, step: Step) -> Result<(), String> {
        let Some(s) = self.study.clone() else {
            return Err("not in a study".into());
        };
        self.follow.step(&s, step).map_err(|e| e.to_string())
    }

    /// Away from the cursor, where the screen is; or back to it. Returns whether away now.
    pub fn toggle_follow(&mut self) -> bool {
        if self.follow.is_away() {
            self.follow.come_back();
            false
        } else {
            if let Some(s) = self.study.clone() {
                self.follow.stay(&s);
            }
            true
        }
    }

    /// Back to the study's cursor.
    pub fn come_back(&mut self) {
        self.follow.come_back();
    }

    /// `:chapter NAME paste`: the next line is the chapter's PGN.
    pub fn wait_for_paste(&mut self, name: String) {
        self.paste_for = Some(name);
    }

    /// The chapter waiting for its pasted PGN, if any (it no longer waits).
    pub fn take_paste(&mut self) -> Option<String> {
        self.paste_for.take()
    }

    /// Whether an evaluation at `depth` of this node is new to hand to the study (then it
    /// counts as handed).
    pub fn eval_is_new(&mut self, chapter: usize, node: NodeId, depth: u32) -> bool {
        match self.eval_given {
            Some((c, n, d)) if c == chapter && n == node && d >= depth => false,
            _ => {
                self.eval_given = Some((chapter, node, depth));
                true
            }
        }
    }
}
