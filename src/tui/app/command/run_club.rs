//! Carrying out the club's `:` commands (under `ox88 serve`): the lobby's (seeks,
//! challenges, rooms joined or watched) through the viewer's hold on the club, a room's
//! (`:draw`, `:takeback`, …) sent to the room. `parse.rs` has already said where each may
//! be used; the club still refuses what its state does not allow, in its own words.

use std::time::Instant;

use super::parse::Command;
use crate::club::{Action as RoomAction, ClubError, Viewer};
use crate::tui::Mode;
use crate::tui::app::club::Place;
use crate::tui::app::{App, LogKind};

/// The stored games `:games` lists (and `:pgn N` numbers), newest first.
const STORED_LISTED: usize = 20;
/// The members `:members` lists, strongest first.
const MEMBERS_LISTED: usize = 50;

impl App {
    /// Carries out one of the club's commands (and `:draw` / `:resign` in a room): what
    /// the club answers goes to the status line, and the screen reads the club again.
    pub(in crate::tui::app) fn run_club(&mut self, cmd: Command) -> Result<(), String> {
        if !self.club.is_on() {
            return Err("that is for the club (ox88 serve)".into());
        }
        let said = self.club_said(cmd)?;
        if !said.is_empty() {
            self.info(said);
        }
        self.on_club_change();
        // A question of the engine game that waited while in a room is asked again.
        self.ask_prompt();
        Ok(())
    }

    /// A club's answer (or refusal) on the screen; false when refused.
    pub(in crate::tui::app) fn club_result(&mut self, r: Result<String, String>) -> bool {
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

    fn club_said(&mut self, cmd: Command) -> Result<String, String> {
        match cmd {
            Command::Lobby => {
                if let Some(v) = self.club.viewer() {
                    v.leave_room();
                    v.study_leave();
                }
                if self.club.place() == Place::Study {
                    self.study_left();
                }
                self.club.refresh(Instant::now());
                if self.club.place() == Place::Room {
                    self.room_left();
                }
                self.club.go_to_lobby();
                Ok("the lobby: :seek, :challenge NAME, :watch N, :join ROOM, :play".into())
            }
            Command::Play => {
                self.club.engine_allowed()?;
                self.club.go_to_engine();
                Ok("you play the engine: :lobby goes back to the lobby".into())
            }
            Command::Join(room) => self.with_viewer(|v| v.join(&room).map(|_| String::new())),
            Command::Watch(n) => self.with_viewer(|v| v.watch(n).map(|_| String::new())),
            Command::SeekOff => self.with_viewer(|v| {
                v.unseek()
                    .map(|n| format!("seek {n} is taken out of the lobby"))
            }),
            Command::Seek(seek) => {
                let rated = seek
                    .rated
                    .unwrap_or_else(|| self.club.viewer().is_some_and(|v| v.member().rated));
                let tc = seek.time_control;
                self.with_viewer(|v| {
                    v.seek(tc, seek.color, rated).map(|n| {
                        format!(
                            "seek {n} is in the lobby: {} {}; waiting for an opponent",
                            tc.map_or("no clock".into(), |t| t.to_string()),
                            if rated { "rated" } else { "casual" }
                        )
                    })
                })
            }
            Command::ChallengeOff(name) => self.with_viewer(|v| {
                v.withdraw(&name)
                    .map(|n| format!("challenge {n} to {name} withdrawn"))
            }),
            Command::Challenge {
                name,
                time_control,
                rated,
            } => self.with_viewer(|v| {
                v.challenge(&name, time_control, rated.unwrap_or(true))
                    .map(|n| format!("challenge {n} sent to {name}"))
            }),
            Command::Accept(n) => self.accept(n),
            Command::Decline(n) => {
                self.with_viewer(|v| v.decline(n).map(|()| "declined".to_string()))
            }
            Command::Say(text) => self.room_act(RoomAction::Chat(text)),
            Command::Mute => Ok(if self.club.toggle_mute() {
                "chat hidden"
            } else {
                "chat shown"
            }
            .into()),
            Command::Engine => self.toggle_room_engine(),
            Command::Study(_)
            | Command::Right { .. }
            | Command::Comment(_)
            | Command::Glyph(_)
            | Command::Mark { .. }
            | Command::Promote
            | Command::Delete
            | Command::Chapter(_)
            | Command::Chapters
            | Command::Follow
            | Command::Private(_) => self.study_command(cmd),
            Command::StoredGames => self.list_games(),
            Command::Pgn(n) => self.show_pgn(n),
            Command::Open(n) => self.open_stored(n),
            Command::Members(name) => self.list_members(name.as_deref()),
            Command::KeyCode => self.with_viewer(|v| {
                v.key_code().map(|code| {
                    format!(
                        "with the new key, within {} minutes: ssh {}{}{code}@HOST (once)",
                        crate::club::identity::CODE_MINUTES,
                        v.name(),
                        crate::club::identity::CODE_MARK
                    )
                })
            }),
            Command::Draw => self.room_act(RoomAction::Draw),
            Command::Resign => self.room_act(RoomAction::Resign),
            Command::Abort => self.room_act(RoomAction::Abort),
            Command::Takeback => self.room_act(RoomAction::Takeback),
            Command::No => self.room_act(RoomAction::Decline),
            Command::Rematch => self.room_act(RoomAction::Rematch),
            Command::Claim => self.room_act(RoomAction::ClaimWin),
            Command::Color(c) => self.room_act(RoomAction::Color(c)),
            Command::TournamentCreate(words) => self.with_viewer(|v| {
                v.tournament_create(&words).map(|id| {
                    format!(
                        "tournament {id} is made: :tournament join {id} to play, \
                         :standings {id} to follow it"
                    )
                })
            }),
            Command::TournamentJoin(id) => {
                self.with_viewer(|v| v.tournament_join(id).map(|_| String::new()))
            }
            Command::TournamentLeave(id) => self.with_viewer(|v| {
                v.tournament_leave(id)
                    .map(|id| format!("you withdrew from tournament {id}"))
            }),
            Command::TournamentEnd(id) => self.with_viewer(|v| {
                v.tournament_end(id)
                    .map(|id| format!("tournament {id} is ended"))
            }),
            Command::Pause => self.with_viewer(|v| {
                v.tournament_pause().map(|id| {
                    format!("paused in tournament {id}: :tournament join {id} comes back")
                })
            }),
            Command::Berserk => self.with_viewer(Viewer::berserk),
            Command::Standings(id) => self.show_standings(id),
            other => Err(format!("{other:?} is not one of the club's commands")),
        }
    }

    /// Accepts the lobby's seek or challenge `n` (`:accept N`, or Enter on its row).
    pub(in crate::tui::app) fn accept(&self, n: u32) -> Result<String, String> {
        self.with_viewer(|v| v.accept(n).map(|room| format!("room {room}")))
    }

    /// One of the room's actions (a move, chat, an offer) sent to the room.
    pub(in crate::tui::app) fn room_act(&self, action: RoomAction) -> Result<String, String> {
        let Some(v) = self.club.viewer() else {
            return Err("not in the club".into());
        };
        if !self.club.in_room() {
            return Err("you are not in a room: :join ROOM, or :watch N from the lobby".into());
        }
        v.act(action).map_err(|e| e.to_string())
    }

    pub(in crate::tui::app) fn with_viewer(
        &self,
        f: impl FnOnce(&Viewer) -> Result<String, ClubError>,
    ) -> Result<String, String> {
        match self.club.viewer() {
            Some(v) => f(v).map_err(|e| e.to_string()),
            None => Err("not in the club".into()),
        }
    }

    /// `:members`: the club's members by rating, into the log; `:members NAME`: that
    /// member's rating after each rated game.
    fn list_members(&mut self, name: Option<&str>) -> Result<String, String> {
        let lines = self.with_viewer(|v| {
            let store = v.store();
            let failed = |e: crate::club::StoreError| ClubError::new(e.to_string());
            let Some(name) = name else {
                let members = store.members(MEMBERS_LISTED).map_err(failed)?;
                return Ok(members
                    .iter()
                    .enumerate()
                    .map(|(i, m)| {
                        format!(
                            "{:>3}. {} {:.0} ({} rated games)",
                            i + 1,
                            crate::club::bots::shown_name(&m.name),
                            m.rating.rating,
                            m.games
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n"));
            };
            let account = store
                .account_named(name.trim())
                .map_err(failed)?
                .ok_or_else(|| ClubError::new(format!("no member is named {:?}", name.trim())))?;
            let history = store.rating_history(&account.id).map_err(failed)?;
            let shown: Vec<String> = history
                .iter()
                .map(|(game, r)| format!("{:.0} after {game}", r.rating))
                .collect();
            Ok(if shown.is_empty() {
                format!("{}: no rated games yet", account.name)
            } else {
                format!("{}'s rating:\n{}", account.name, shown.join("\n"))
            })
        })?;
        let n = lines.lines().count();
        for line in lines.lines() {
            self.log_line(LogKind::Info, line.to_string());
        }
        Ok(match name {
            None => format!("{n} members in the log, strongest first"),
            Some(_) => lines.lines().next().unwrap_or_default().to_string(),
        })
    }

    /// `:standings [ID]`: a tournament's standings, pairings and podium into the log.
    fn show_standings(&mut self, id: Option<u32>) -> Result<String, String> {
        let view = self.with_viewer(|v| v.tournament(id).map(|t| t.to_string()))?;
        let mut lines = view.lines();
        let head = lines.next().unwrap_or_default().to_string();
        self.log_line(LogKind::Info, head.clone());
        for line in lines {
            self.log_line(LogKind::Info, line.to_string());
        }
        Ok(head)
    }

    /// `:pgn N`: the PGN of stored game N (as `:games` numbers them) into the log, a line
    /// at a time, to copy.
    fn show_pgn(&mut self, n: u32) -> Result<String, String> {
        let pgn = self.stored_pgn(n)?;
        for line in pgn.lines() {
            self.log_line(LogKind::Info, line.to_string());
        }
        Ok(format!("game {n}'s PGN is in the log, to copy"))
    }

    /// `:open N`: stored game N on the member's own board (the one `:play` shows), to step
    /// through and review. Refused, as `:play` is, while the member's own game goes on.
    fn open_stored(&mut self, n: u32) -> Result<String, String> {
        self.club.engine_allowed()?;
        let pgn = self.stored_pgn(n)?;
        let game = crate::game::Game::from_pgn(&pgn)
            .map_err(|e| format!("stored game {n} cannot be read: {e}"))?;
        let moves = game.len();
        // Out of a room first (its game is over: the engine is allowed), as :lobby leaves.
        if self.club.place() == Place::Room {
            if let Some(v) = self.club.viewer() {
                v.leave_room();
            }
            self.club.refresh(Instant::now());
            self.room_left();
        }
        self.set_game(game, &format!("stored game {n} opened"));
        self.club.go_to_engine();
        Ok(format!(
            "stored game {n} on your board ({moves} plies): ← → step through it, :review \
             reviews it, :lobby goes back"
        ))
    }

    /// The PGN of stored game N, as `:games` numbers them.
    pub(in crate::tui::app) fn stored_pgn(&mut self, n: u32) -> Result<String, String> {
        let wanted = usize::try_from(n).unwrap_or(usize::MAX);
        self.with_viewer(|v| {
            let games = v.games(STORED_LISTED)?;
            match games.get(wanted.wrapping_sub(1)) {
                Some(g) => Ok(g.pgn.clone()),
                None => Err(ClubError::new(format!(
                    "no stored game {n}: :games lists {} of yours",
                    games.len()
                ))),
            }
        })
    }

    fn list_games(&mut self) -> Result<String, String> {
        let games = self.with_viewer(|v| {
            v.games(STORED_LISTED).map(|gs| {
                gs.iter()
                    .enumerate()
                    .map(|(i, g)| {
                        format!(
                            "{:>2}. {} {} {} – {} {} {}",
                            i + 1,
                            crate::club::game_date(g).unwrap_or("????.??.??"),
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
            format!("{n} games in the log; :pgn N shows one's PGN, :open N opens it")
        } else if self.club.in_room() {
            format!(
                "{n} games listed in the log, shown beside the engine's board: :lobby, then :play"
            )
        } else {
            format!("{n} games listed in the log, shown beside the engine's board: :play")
        })
    }

    /// A watcher's engine panes opened or closed (`:engine`, Ctrl+V).
    pub(in crate::tui::app) fn toggle_room_engine(&mut self) -> Result<String, String> {
        if self.club.in_study() {
            if self.club.engine_open() {
                self.club.close_engine();
                self.cancel_search();
                self.play.set_mode(Mode::HumanHuman);
                return Ok("engine's panes closed".into());
            }
            self.club.engine_allowed()?;
            self.club.open_engine().map_err(|e| e.to_string())?;
            self.play.set_mode(Mode::Analysis);
            self.position_changed();
            return Ok("the engine's panes: the room's analysis of the study's cursor".into());
        }
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
}
