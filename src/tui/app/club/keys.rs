//! The club's own keys (under `ox88 serve`): Ctrl+R hides the chat, Ctrl+V opens a
//! watcher's engine panes, and in the lobby ↑ / ↓ pick a row that Enter accepts, joins or
//! watches.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::view::{LobbyRow, Place};
use crate::tui::app::App;
use crate::tui::app::command::Command;

impl App {
    /// The club's own keys: Ctrl+R hides the chat, Ctrl+V opens the engine's panes for a
    /// watcher, and in the lobby ↑ / ↓ pick a row that Enter accepts, joins or watches.
    pub(in crate::tui::app) fn club_key(&mut self, key: &KeyEvent, input_empty: bool) -> bool {
        if !self.club.is_on() {
            return false;
        }
        if self.study_key(key, input_empty) {
            return true;
        }
        let ctrl = key.modifiers == KeyModifiers::CONTROL;
        let plain = key.modifiers.is_empty();
        match key.code {
            KeyCode::Char('r') if ctrl => {
                if let Err(e) = self.run_club(Command::Mute) {
                    self.error(e);
                }
                true
            }
            KeyCode::Char('v') if ctrl && (self.club.in_room() || self.club.in_study()) => {
                let r = self.toggle_room_engine();
                self.club_result(r);
                true
            }
            KeyCode::Up | KeyCode::Down
                if plain && self.club.place() == Place::Lobby && input_empty =>
            {
                self.club.pick_next(key.code == KeyCode::Up);
                true
            }
            KeyCode::Enter if plain && self.club.place() == Place::Lobby && input_empty => {
                let row = self.club.picked_row();
                let r = match row {
                    Some(LobbyRow::Seek(n) | LobbyRow::Challenge(n)) => self.accept(n),
                    Some(LobbyRow::Game(n)) => {
                        self.with_viewer(|v| v.watch(n).map(|_| String::new()))
                    }
                    Some(LobbyRow::Waiting(room)) => {
                        self.with_viewer(|v| v.join(&room).map(|_| String::new()))
                    }
                    Some(LobbyRow::Tournament(id)) => {
                        self.with_viewer(|v| v.tournament_join(Some(id)).map(|_| String::new()))
                    }
                    Some(LobbyRow::Study(name)) => self.open_study(&name),
                    None => Err("nothing to pick: :seek 5+3 waits for an opponent".into()),
                };
                self.club_result(r);
                true
            }
            _ => false,
        }
    }
}
