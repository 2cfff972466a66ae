//! The hub's side of the club: what a viewer under `ox88 serve` does in the lobby and in a
//! room. The room's game is the club's: the app shows a copy of it (read again whenever the
//! club wakes this viewer), sends typed moves and `:draw`, `:resign`, … to the room, and
//! refuses what would change the copy by itself (undo, a new game, the engine moving). A
//! player never sees the engine while the game goes on; a watcher may open its panes on the
//! game's position. The game against the engine is set aside while the viewer is in a room
//! and comes back when they leave it.

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::club::{LobbyRow, Place};
use super::{App, LogKind};
use crate::chess::Color;
use crate::club::{Action as RoomAction, Role};
use crate::game::TimeControl;
use crate::tui::Mode;
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
    }

    /// The club read again; its notices told when `tell` (else they wait for the next
    /// change: a session's first lines, written after the app is built, would cover them).
    pub(super) fn club_changed(&mut self, tell: bool) {
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
            (Place::Lobby | Place::Engine, true) => self.room_entered(),
            _ => {}
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
    pub fn club(&self) -> &super::club::ClubView {
        &self.club
    }

    /// The next moment a room's screen changes by itself (its clocks).
    pub(super) fn club_wakeup(&self, now: Instant) -> Option<Instant> {
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
    fn room_left(&mut self) {
        self.cancel_search();
        if let Some(back) = self.club.leave_room() {
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
        let mode = if self.club.engine_open() && !self.club.playing() {
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
    pub(super) fn club_line(&mut self, text: &str) -> Option<bool> {
        if !self.club.is_on() {
            return None;
        }
        if let Some(chat) = text.strip_prefix('\'') {
            return Some(self.club_result(self.room_act(RoomAction::Chat(chat.to_string()))));
        }
        if text.starts_with(':') {
            return self.club_command(text);
        }
        match self.club.place() {
            Place::Room => {
                Some(self.club_result(self.room_act(RoomAction::Move(text.to_string()))))
            }
            // A move typed in the lobby plays the engine, as without the club.
            Place::Lobby => {
                self.club.play_engine();
                None
            }
            Place::Engine => None,
        }
    }

    fn club_result(&mut self, r: Result<String, String>) -> bool {
        match r {
            Ok(said) => {
                if !said.is_empty() {
                    self.info(said);
                }
                self.on_club_change();
                true
            }
            Err(e) => {
                self.error(e);
                false
            }
        }
    }

    fn room_act(&self, action: RoomAction) -> Result<String, String> {
        let Some(v) = self.club.viewer() else {
            return Err("not in the club".into());
        };
        if !self.club.in_room() {
            return Err("you are not in a room: :join ROOM, or :watch N from the lobby".into());
        }
        v.act(action).map_err(|e| e.to_string())
    }

    /// A `:` command of the club's; `None` for the app's own commands.
    fn club_command(&mut self, text: &str) -> Option<bool> {
        let body = text.trim_start_matches(':').trim();
        let (word, arg) = match body.split_once(char::is_whitespace) {
            Some((w, a)) => (w.to_ascii_lowercase(), a.trim()),
            None => (body.to_ascii_lowercase(), ""),
        };
        let in_room = self.club.in_room();
        let r: Result<String, String> = match word.as_str() {
            "lobby" => {
                if let Some(v) = self.club.viewer() {
                    v.leave_room();
                }
                self.club.refresh(Instant::now());
                if self.club.place() == Place::Room {
                    self.room_left();
                }
                self.club.go_to_lobby();
                Ok("the lobby: :seek, :challenge NAME, :watch N, :join ROOM, :play".into())
            }
            "play" => {
                if in_room {
                    Err("you are in a room: :lobby first".into())
                } else {
                    self.club.go_to_engine();
                    Ok("you play the engine: :lobby goes back to the lobby".into())
                }
            }
            "join" if arg.is_empty() => Err(":join ROOM (letters, digits, - and _)".into()),
            "join" => self.with_viewer(|v| v.join(arg).map(|_| String::new())),
            "watch" => match arg.parse::<u32>() {
                Ok(n) => self.with_viewer(|v| v.watch(n).map(|_| String::new())),
                Err(_) => Err(":watch N (the game's number in the lobby)".into()),
            },
            "seek" if arg.eq_ignore_ascii_case("off") => self.with_viewer(|v| {
                v.unseek()
                    .map(|n| format!("seek {n} is taken out of the lobby"))
            }),
            "seek" => match seek_args(arg) {
                Ok((tc, color, rated)) => {
                    let rated = rated
                        .unwrap_or_else(|| self.club.viewer().is_some_and(|v| v.member().rated));
                    self.with_viewer(|v| {
                        v.seek(tc, color, rated).map(|n| {
                            format!(
                                "seek {n} is in the lobby: {} {}; waiting for an opponent",
                                tc.map_or("no clock".into(), |t| t.to_string()),
                                if rated { "rated" } else { "casual" }
                            )
                        })
                    })
                }
                Err(e) => Err(e),
            },
            "challenge" => {
                let mut parts = arg.split_whitespace();
                match parts.next() {
                    None => Err(":challenge NAME [10+0] [rated|casual]".into()),
                    Some(off) if off.eq_ignore_ascii_case("off") => match parts.next() {
                        None => Err(":challenge off NAME withdraws your challenge".into()),
                        Some(name) => {
                            let name = name.to_string();
                            self.with_viewer(|v| {
                                v.withdraw(&name)
                                    .map(|n| format!("challenge {n} to {name} withdrawn"))
                            })
                        }
                    },
                    Some(name) => match seek_args(&parts.collect::<Vec<_>>().join(" ")) {
                        Ok((tc, _, rated)) => {
                            let name = name.to_string();
                            self.with_viewer(|v| {
                                v.challenge(&name, tc, rated.unwrap_or(true))
                                    .map(|n| format!("challenge {n} sent to {name}"))
                            })
                        }
                        Err(e) => Err(e),
                    },
                }
            }
            "accept" => match arg.parse::<u32>() {
                Ok(n) => self.with_viewer(|v| v.accept(n).map(|room| format!("room {room}"))),
                Err(_) => Err(":accept N (the seek's or challenge's number)".into()),
            },
            "decline" => match arg.parse::<u32>() {
                Ok(n) => self.with_viewer(|v| v.decline(n).map(|()| "declined".to_string())),
                Err(_) => Err(":decline N".into()),
            },
            "say" => self.room_act(RoomAction::Chat(arg.to_string())),
            "mute" => Ok(if self.club.toggle_mute() {
                "chat hidden"
            } else {
                "chat shown"
            }
            .into()),
            "engine" => self.toggle_room_engine(),
            "games" if arg.is_empty() => self.list_games(),
            "key" if arg.eq_ignore_ascii_case("code") => self.with_viewer(|v| {
                v.key_code().map(|code| {
                    format!(
                        "with the new key, within {} minutes: ssh {}{}{code}@HOST (once)",
                        crate::club::identity::CODE_MINUTES,
                        v.name(),
                        crate::club::identity::CODE_MARK
                    )
                })
            }),
            "key" => Err(":key code: a one-time code that adds another key to your account".into()),
            "draw" if in_room => self.room_act(RoomAction::Draw),
            "resign" if in_room => self.room_act(RoomAction::Resign),
            "abort" => self.room_act(RoomAction::Abort),
            "takeback" => self.room_act(RoomAction::Takeback),
            "no" => self.room_act(RoomAction::Decline),
            "rematch" => self.room_act(RoomAction::Rematch),
            "claim" => self.room_act(RoomAction::ClaimWin),
            "color" | "colour" => match arg.to_ascii_lowercase().as_str() {
                "white" | "w" => self.room_act(RoomAction::Color(Color::White)),
                "black" | "b" => self.room_act(RoomAction::Color(Color::Black)),
                _ => Err(":color white|black".into()),
            },
            _ => {
                if in_room && let Some(why) = self.room_refuses_command(&word, arg) {
                    Err(why)
                } else {
                    return None;
                }
            }
        };
        Some(self.club_result(r))
    }

    fn with_viewer(
        &self,
        f: impl FnOnce(&crate::club::Viewer) -> Result<String, crate::club::ClubError>,
    ) -> Result<String, String> {
        match self.club.viewer() {
            Some(v) => f(v).map_err(|e| e.to_string()),
            None => Err("not in the club".into()),
        }
    }

    fn list_games(&mut self) -> Result<String, String> {
        let games = self.with_viewer(|v| {
            v.games(10).map(|gs| {
                gs.iter()
                    .map(|g| {
                        format!(
                            "{} {} – {} {} {}",
                            g.room,
                            g.white_name,
                            g.black_name,
                            g.result.as_deref().unwrap_or("*"),
                            g.time_control.as_deref().unwrap_or("")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            })
        })?;
        if games.is_empty() {
            return Ok("no stored games yet".into());
        }
        for line in games.lines() {
            self.log_line(LogKind::Info, line.to_string());
        }
        // The lobby and a room (but for a watcher's engine panes) take the log's place.
        let log_shown = match self.club.place() {
            Place::Lobby => false,
            Place::Room if self.club.in_room() => self.club.engine_open() && !self.club.playing(),
            _ => true,
        };
        let n = games.lines().count();
        Ok(if log_shown {
            format!("{n} games in the log; :save NAME keeps the one on the board as PGN")
        } else if self.club.in_room() {
            format!(
                "{n} games listed in the log, shown beside the engine's board: :lobby, then :play"
            )
        } else {
            format!("{n} games listed in the log, shown beside the engine's board: :play")
        })
    }

    fn toggle_room_engine(&mut self) -> Result<String, String> {
        if !self.club.in_room() {
            return Err("the engine's panes are for watching a room's game".into());
        }
        if self.club.playing() {
            return Err(
                "you are playing: the engine stays out of sight until the game ends".into(),
            );
        }
        if self.club.engine_open() {
            self.club.close_engine();
            self.cancel_search();
            self.play.set_mode(Mode::HumanHuman);
            return Ok("engine's panes closed".into());
        }
        self.club.open_engine().map_err(|e| e.to_string())?;
        self.play.set_mode(Mode::Analysis);
        self.position_changed();
        Ok("the engine's panes: it analyses the game's position".into())
    }

    /// Why a command of the app's own may not run in a room (it would change the room's
    /// game on this screen only, or show a player the engine).
    fn room_refuses_command(&self, word: &str, arg: &str) -> Option<String> {
        const GAME: [&str; 9] = [
            "new", "undo", "redo", "mode", "go", "load", "tc", "puzzle", "games",
        ];
        const ENGINE: [&str; 5] = ["hint", "tree", "lab", "review", "multipv"];
        let resolves = |names: &[&str]| {
            names
                .iter()
                .any(|n| n.starts_with(word) && !word.is_empty())
        };
        if resolves(&GAME) || (word == "fen" && !arg.is_empty()) {
            return Some(format!(
                ":{word} is not for a room's game: moves, :draw, :resign, :takeback… (:lobby leaves)"
            ));
        }
        if self.club.playing() && resolves(&ENGINE) {
            return Some(
                "you are playing: the engine stays out of sight until the game ends".into(),
            );
        }
        None
    }

    /// Keys of the app's own refused in a room, like their commands.
    pub(super) fn room_refuses_action(&self, action: Action) -> Option<String> {
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

    /// The club's own keys: Ctrl+R hides the chat, Ctrl+V opens the engine's panes for a
    /// watcher, and in the lobby ↑ / ↓ pick a row that Enter accepts, joins or watches.
    pub(super) fn club_key(&mut self, key: &KeyEvent, input_empty: bool) -> bool {
        if !self.club.is_on() {
            return false;
        }
        let ctrl = key.modifiers == KeyModifiers::CONTROL;
        let plain = key.modifiers.is_empty();
        match key.code {
            KeyCode::Char('r') if ctrl => {
                self.club_command(":mute");
                true
            }
            KeyCode::Char('v') if ctrl && self.club.in_room() => {
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
                    Some(LobbyRow::Seek(n) | LobbyRow::Challenge(n)) => {
                        self.with_viewer(|v| v.accept(n).map(|room| format!("room {room}")))
                    }
                    Some(LobbyRow::Game(n)) => {
                        self.with_viewer(|v| v.watch(n).map(|_| String::new()))
                    }
                    Some(LobbyRow::Waiting(room)) => {
                        self.with_viewer(|v| v.join(&room).map(|_| String::new()))
                    }
                    None => Err("nothing to pick: :seek 5+3 waits for an opponent".into()),
                };
                self.club_result(r);
                true
            }
            _ => false,
        }
    }
}

/// A seek's time control (`None`: no clock), colour and rated choice, as typed.
type SeekWords = (Option<TimeControl>, Option<Color>, Option<bool>);

/// `:seek`'s and `:challenge`'s words after the name: a time control (`5+3`, or `none`),
/// a colour, `rated` or `casual`, in any order.
fn seek_args(arg: &str) -> Result<SeekWords, String> {
    let mut tc = Some("10+5".parse::<TimeControl>().expect("a valid default"));
    let (mut color, mut rated) = (None, None);
    for word in arg.split_whitespace() {
        match word.to_ascii_lowercase().as_str() {
            "white" | "w" => color = Some(Color::White),
            "black" | "b" => color = Some(Color::Black),
            "rated" => rated = Some(true),
            "casual" | "unrated" => rated = Some(false),
            "none" | "untimed" => tc = None,
            w => tc = Some(w.parse::<TimeControl>().map_err(|e| e.to_string())?),
        }
    }
    Ok((tc, color, rated))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seek_words_come_in_any_order_and_a_bad_one_says_why() {
        let (tc, color, rated) = seek_args("black 5+3 casual").unwrap();
        assert_eq!(tc, "5+3".parse().ok());
        assert_eq!(color, Some(Color::Black));
        assert_eq!(rated, Some(false));
        assert_eq!(seek_args("").unwrap().0, "10+5".parse().ok());
        assert_eq!(seek_args("none").unwrap().0, None);
        assert!(seek_args("soon").unwrap_err().contains("soon"));
    }
}
