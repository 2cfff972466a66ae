//! The hub's side of a club viewer's room (under `ox88 serve`): into a room and out of it,
//! the room's game copied in, its chat told, moves and chat sent to it, and the keys of the
//! app's own a room refuses. The room's game is the club's: the app shows a copy of it (read
//! again whenever the club wakes this viewer) and refuses what would change the copy by
//! itself (undo, a new game, the engine moving). A player never sees the engine while the
//! game goes on; a watcher may open its panes on the game's position. The game against the
//! engine is set aside while the viewer is in a room and comes back when they leave it.

use std::time::{Duration, Instant};

use super::view::{ClubView, Place};
use crate::chess::Color;
use crate::club::{Action as RoomAction, Role};
use crate::game::Game;
use crate::tui::Mode;
use crate::tui::app::{App, LogKind};
use crate::tui::keys::Action;

/// How often a room's screen is drawn again while its clock runs.
const CLOCK_REDRAW: Duration = Duration::from_millis(200);

impl App {
    /// The club woke this viewer: something it shows changed. Reads the club again and
    /// brings the screen up to date: into a room or out of it, the room's game copied, new
    /// chat lines and notices told (last, so that the newest notice stays on the status
    /// line rather than the room's greeting).
    pub fn on_club_change(&mut self) {
        self.club_changed(true);
        self.engine_budget_changed();
    }

    /// The club read again; its notices told when `tell` (else they wait for the next
    /// change: a session's first lines, written after the app is built, would cover them).
    pub(in crate::tui::app) fn club_changed(&mut self, tell: bool) {
        if !self.club.is_on() {
            return;
        }
        let now = Instant::now();
        self.club.refresh(now);
        let notices = match self.club.viewer() {
            Some(v) if tell => v.take_notices(),
            _ => Vec::new(),
        };
        let in_room = self.club.room().is_some();
        match (self.club.place(), in_room) {
            (Place::Room, false) => {
                self.room_left();
                self.club.refresh(now);
            }
            (Place::Lobby | Place::Engine | Place::Study, true) => self.room_entered(),
            (Place::Study, false) if !self.club.in_study() => self.study_left(),
            _ => {}
        }
        if self.club.in_study() {
            self.sync_study();
        }
        if self.club.in_room() {
            if self.club.playing() && self.club.engine_open() {
                // A rematch seats this viewer again: the engine goes out of sight.
                self.club.close_engine();
                self.cancel_search();
            }
            self.turn_board_for_role();
            self.sync_room_game();
            self.tell_chat();
        }
        for n in notices {
            self.log_line(LogKind::Info, n.clone());
            self.info(n);
        }
    }

    /// A player sees the board from their own side: on entering the room, and again when
    /// a rematch in the same room gives them the other colour.
    fn turn_board_for_role(&mut self) {
        if let Some(role) = self.club.role_to_turn_for() {
            self.screen.set_flipped(role == Role::Player(Color::Black));
        }
    }

    /// The club part, for drawing.
    pub fn club(&self) -> &ClubView {
        &self.club
    }

    /// The next moment a room's screen changes by itself (its clocks).
    pub(in crate::tui::app) fn club_wakeup(&self, now: Instant) -> Option<Instant> {
        if self.club.place() == Place::Lobby {
            // One's tournament's time left counts down on the lobby's screen.
            let ticking = self
                .club
                .my_tournament(now)
                .is_some_and(|t| t.row.until.is_some());
            return ticking.then_some(now + Duration::from_secs(1));
        }
        let (view, _) = self.club.room().filter(|_| self.club.in_room())?;
        let away = view.seats.iter().flatten().any(|s| !s.connected);
        (view.running.is_some() || away).then_some(now + CLOCK_REDRAW)
    }

    fn room_entered(&mut self) {
        self.cancel_search();
        self.close_tree();
        if self.puzzles.active().is_some() {
            self.leave_puzzles();
        }
        let flipped = self.screen.flipped();
        self.club.enter_room(|| self.play.set_aside(flipped));
        self.play.between_people();
        self.turn_board_for_role();
        if let Some((view, role)) = self.club.room() {
            let text = match role {
                Role::Player(c) => format!(
                    "room {}: you play {} — the engine is out of sight until the game ends",
                    view.name,
                    c.name()
                ),
                Role::Watcher => format!(
                    "room {}: you are watching (Ctrl+V opens the engine's panes, 'TEXT chats)",
                    view.name
                ),
            };
            self.log_line(LogKind::Info, text.clone());
            self.info(text);
        }
    }

    /// Out of the room (by `:lobby`, or the room is gone): the engine game comes back.
    pub(in crate::tui::app) fn room_left(&mut self) {
        self.cancel_search();
        let back = self.club.leave_room();
        self.give_back_engine_game(back);
        self.ask_prompt();
    }

    /// The engine game set aside while in a room or a study comes back on the board, as
    /// it was turned.
    pub(in crate::tui::app) fn give_back_engine_game(
        &mut self,
        back: Option<crate::tui::app::play::SetAside>,
    ) {
        if let Some(back) = back {
            let flipped = self.play.restore(back);
            self.screen.set_flipped(flipped);
        }
        self.position_changed();
    }

    /// Copies the room's game into the app when the room changed.
    fn sync_room_game(&mut self) {
        let Some(view) = self.club.room_changed() else {
            return;
        };
        let game = self.play.game();
        let game_changed = game.sans() != view.game.sans()
            || game.final_result() != view.game.final_result()
            || game.start() != view.game.start();
        if !game_changed {
            return;
        }
        let game = view.game.clone();
        let analyse = self.club.engine_open() && !self.club.playing();
        self.show_club_game(game, analyse);
    }

    /// Shows a game the club holds (a room's, a study's line) in place of the board's: the
    /// engine's panes analyse it when `analyse`, the search on the old position stops.
    pub(super) fn show_club_game(&mut self, game: Game, analyse: bool) {
        let mode = if analyse {
            Mode::Analysis
        } else {
            Mode::HumanHuman
        };
        self.play.show(game, mode);
        self.cancel_search();
        self.position_changed();
    }

    /// New chat lines go to the status line (unless muted).
    fn tell_chat(&mut self) {
        let new = self.club.untold_chat();
        if !self.club.muted()
            && let Some(line) = new.last()
        {
            self.info(line.clone());
        }
    }

    /// A line typed while in the club: a move for the room, chat, or nothing of the club's
    /// (`None`: the app goes on as usual).
    pub(in crate::tui::app) fn club_line(&mut self, text: &str) -> Option<bool> {
        if !self.club.is_on() {
            return None;
        }
        if let Some(chat) = text.strip_prefix('\'') {
            return Some(self.club_result(self.room_act(RoomAction::Chat(chat.to_string()))));
        }
        if text.starts_with(':') {
            // A command: the one table's, read where the viewer is (`command/`).
            return None;
        }
        match self.club.place() {
            Place::Room => {
                Some(self.club_result(self.room_act(RoomAction::Move(text.to_string()))))
            }
            Place::Study => Some(self.study_line(text)),
            // A move typed in the lobby plays the engine, as without the club.
            Place::Lobby => {
                self.club.play_engine();
                None
            }
            Place::Engine => None,
        }
    }

    /// Keys of the app's own refused in a room, like their commands.
    pub(in crate::tui::app) fn room_refuses_action(&self, action: Action) -> Option<String> {
        if !self.club.in_room() {
            return None;
        }
        match action {
            // Ctrl+G would have the engine move: in a room the players move themselves.
            Action::EngineMove if self.club.playing() => Some(
                "in a room you play your own moves: the engine stays out of sight until the game ends"
                    .into(),
            ),
            Action::EngineMove => Some(
                "the engine does not move in a room's game: Ctrl+V shows its panes while you watch"
                    .into(),
            ),
            Action::NewGame | Action::Undo | Action::Redo | Action::Puzzle => {
                Some("a room's game is played with moves, :draw, :resign, :takeback… (:lobby leaves)".into())
            }
            Action::Hint | Action::Tree | Action::Review | Action::CycleMultiPv
                if self.club.playing() =>
            {
                Some("you are playing: the engine stays out of sight until the game ends".into())
            }
            _ => None,
        }
    }
}
