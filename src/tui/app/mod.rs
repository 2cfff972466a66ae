//! The TUI's state and everything that changes it. No drawing here (that is `ui`), no
//! terminal and no threads: keys, pasted text, engine events and timer ticks come in as
//! method calls, so the whole application runs the same under a test, in a terminal or on
//! an SSH channel. A driver does: `handle_key`/`handle_paste`, `on_engine_event`, `on_tick`
//! (when `next_wakeup` says), and per frame `resize(area)` then `ui::draw(frame, &app)`,
//! which only reads. Nothing here waits for the engine.
//!
//! How a move travels (ARCHITECTURE.md): Enter parses the text against the position; an
//! error leaves the game and the text untouched and says why on the status line; a legal
//! move is played on the `Game`, logged with its E and saved; if the engine is to
//! move it gets a copy of the position and answers later through `on_engine_event`, tagged
//! with the id `go` returned. Events of an id we no longer wait for are dropped.

mod assist_hub;
mod browse;
mod browse_hub;
mod builder;
pub mod club;
pub mod command;
mod cursor;
mod cursor_hub;
mod dispatch;
mod draws;
mod draws_hub;
mod engine_budget;
mod engine_flow;
pub mod evalview;
pub mod explorer;
pub mod input;
pub mod lab;
mod lab_hub;
mod legends;
pub mod log;
mod moves;
mod notice;
mod play;
mod prefs;
mod puzzles;
mod puzzles_hub;
pub mod review;
mod review_hub;
mod screen;
pub mod session;
pub mod text;
mod tree_hub;

pub use notice::{JobEvent, JobSink};
pub use play::{Hint, Play, Prompt};
pub use prefs::{Prefs, TableSet};
pub use screen::Screen;

use ratatui::layout::Rect;

pub use super::keys::Focus;
use super::layout::{self, Areas, ClubShape, Shape};
use super::pane;
use super::pane::Panes;
use super::theme::Theme;
use crate::chess::{Board, Color};
use crate::engine::IterationInfo;
use crate::game::Game;
pub use command::run::confined_pgn_path;
pub use command::{CommandError, MAX_DEPTH};
pub use input::InputLine;
pub use log::{LOG_CAP, LogBuffer, LogKind, LogLine};
pub use session::{Accepted, EngineControl, EngineState, OnBest, RunningSearch, Session};
pub use text::{
    bounded_score, clock_time, e_text, iteration_line, moves_text, position_text, search_time,
    shown_e_text, thousands,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    Info,
    Error,
    /// A question waiting for an answer (the resume prompt).
    Question,
}

/// The last message, shown on the status line until the next one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub kind: MessageKind,
    pub text: String,
}

/// Who played a move and why: the log line and the PGN comment say it.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveSource {
    /// Typed on the input line.
    Human,
    /// The engine's search chose it; its deepest finished iteration.
    Searched(Box<IterationInfo>),
    /// The engine played it from its opening book (the opening's name).
    Book(String),
    /// The engine's answer from a search stopped before its first iteration finished.
    EngineUnsearched,
}

impl MoveSource {
    fn by_engine(&self) -> bool {
        !matches!(self, MoveSource::Human)
    }
}

/// The whole application state: a hub of parts, each owning its state and methods — the
/// engine session, the game flow, the settings, the screen, the input line, the log, the
/// sort view, the tree browser, the lab and the review. The hub routes keys, events and
/// ticks between them. Drawing reads it through the accessors below and never writes.
pub struct App {
    session: Session,
    play: Play,
    prefs: Prefs,
    screen: Screen,
    input: InputLine,
    /// The panes that take the keyboard: the log, the sort pane, the tree browser.
    panes: Panes,
    lab: lab::LabView,
    review: review::ReviewView,
    puzzles: puzzles::Puzzles,
    /// An earlier position of the game on show (← / →), the game itself untouched.
    browse: browse::Browse,
    /// The board cursor: moves chosen with the arrows and Enter.
    cursor: cursor::BoardCursor,
    /// Where background jobs report (the driver's channel, or the app's own queue).
    jobs: notice::Jobs,
    /// The club, for a viewer under `ox88 serve`: the lobby, the room, the chat.
    club: club::ClubView,
}

pub use builder::AppBuilder;
pub use screen::FRAME;

impl App {
    /// The terminal's size changed (or is about to be drawn): the log is re-wrapped for the
    /// new width (once per width) and page sizes follow. Call before drawing.
    pub fn resize(&mut self, area: Rect) {
        self.screen.set_area(area);
        let log = self.rect_of(pane::log::FOCUS);
        let log_width = log.map_or(8, pane::log::text_width);
        self.panes.log_mut().buffer_mut().set_wrap_width(log_width);
        // A narrower screen may cut the message on show: the log gets it whole.
        self.keep_message_whole();
    }

    /// What shares the right-hand side now: the tree browser, the view, the club.
    fn shape(&self) -> Shape {
        use club::Place;
        let club = if !self.club.is_on() {
            ClubShape::Off
        } else {
            match self.club.place() {
                Place::Lobby => ClubShape::Lobby,
                Place::Room if self.club.in_room() => {
                    if self.club.engine_open() && !self.club.playing() {
                        ClubShape::RoomWithEngine
                    } else {
                        ClubShape::Room
                    }
                }
                Place::Study if self.club.in_study() => {
                    if self.club.engine_open() {
                        ClubShape::RoomWithEngine
                    } else {
                        ClubShape::Room
                    }
                }
                _ => ClubShape::Off,
            }
        };
        Shape {
            whole: self.panes.whole().is_some(),
            view: self.screen.view(),
            club,
        }
    }

    /// Where everything is on screen: the one layout drawing and scrolling both read.
    pub fn areas(&self) -> Areas {
        self.areas_in(self.screen.area())
    }

    /// Where everything goes on a screen of `area` (drawing's frame, which `resize` makes
    /// the app's own before each draw).
    pub fn areas_in(&self, area: Rect) -> Areas {
        layout::layout_for(area, self.shape())
    }

    /// Where the pane with this focus is on screen, or would be in the usual layout when
    /// a view or the club has its place (PgUp/PgDn from the input line scroll the log
    /// wherever it is).
    pub fn rect_of(&self, focus: Focus) -> Option<Rect> {
        let usual = || {
            let areas = layout::layout(self.screen.area());
            self.panes.rect(focus, &areas)
        };
        self.panes.rect(focus, &self.areas()).or_else(usual)
    }

    /// The list rows on screen of the pane with this focus.
    fn rows_of(&self, focus: Focus) -> usize {
        let Some(pane) = self.panes.get(focus) else {
            return 0;
        };
        pane.rows_in(self.rect_of(focus).unwrap_or_default())
    }

    /// Rows of the tree browser's child list on screen.
    fn tree_rows(&self) -> usize {
        self.rows_of(pane::tree::FOCUS)
    }

    // ---- messages and log --------------------------------------------------------------

    /// Adds a line to the log, stamped with the wall clock.
    pub fn log_line(&mut self, kind: LogKind, text: impl Into<String>) {
        let text = self.private_paths(text.into());
        self.panes.log_mut().buffer_mut().push(LogLine {
            stamp: self.screen.stamp(),
            kind,
            text,
        });
    }

    /// A message for the status line (in the log too when the line cannot show it whole).
    pub fn info(&mut self, text: impl Into<String>) {
        self.say(MessageKind::Info, text.into());
    }

    /// A message saying what went wrong: on the status line, and always in the log.
    pub fn error(&mut self, text: impl Into<String>) {
        self.say(MessageKind::Error, text.into());
    }

    fn say(&mut self, kind: MessageKind, text: String) {
        let text = self.private_paths(text);
        // An error no frame has shown yet keeps the status line: what is only information,
        // coming at the same moment (a session's opening lines, a notice in the same tick),
        // goes to the log instead of covering it.
        if kind == MessageKind::Info && self.screen.unseen_error() {
            self.log_line(LogKind::Info, text);
            return;
        }
        self.screen.set_message(Message { kind, text });
        self.keep_message_whole();
    }

    /// The status line shows what fits of a message and ends a cut one with `… (see log)`:
    /// such a message goes into the log whole, once, and so does every error (a refused
    /// command stays on record after the next message replaces it).
    fn keep_message_whole(&mut self) {
        let Some(m) = self.screen.message_to_log() else {
            return;
        };
        let kind = if m.kind == MessageKind::Error {
            LogKind::Error
        } else {
            LogKind::Info
        };
        let text = m.text.clone();
        // Said already (the caller logged it, as a failed autosave does).
        if self
            .panes
            .log()
            .buffer()
            .lines()
            .rev()
            .take(3)
            .any(|l| l.text == text)
        {
            return;
        }
        self.log_line(kind, text);
    }

    /// With a file root (a visitor over SSH) the server's own directories never reach the
    /// screen: a path under the visitor's directory (the file root's parent) is written
    /// relative to it.
    fn private_paths(&self, text: String) -> String {
        let Some(home) = self.prefs.file_root().and_then(std::path::Path::parent) else {
            return text;
        };
        let home = home.display().to_string();
        if home.is_empty() || !text.contains(&home) {
            return text;
        }
        text.replace(&format!("{home}{}", std::path::MAIN_SEPARATOR), "")
            .replace(&home, ".")
    }

    // ---- what drawing and the drivers read ------------------------------------------------

    pub fn game(&self) -> &Game {
        self.play.game()
    }

    /// The game flow: mode, clock, autosave, timers, the opening's name.
    pub fn play(&self) -> &Play {
        &self.play
    }

    /// The session's settings.
    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// Focus, views, the message, the board's orientation.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    pub fn theme(&self) -> &Theme {
        self.prefs.theme()
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn input(&self) -> &InputLine {
        &self.input
    }

    pub fn log_buffer(&self) -> &LogBuffer {
        self.panes.log().buffer()
    }

    /// The panes that take the keyboard.
    pub fn panes(&self) -> &Panes {
        &self.panes
    }

    pub fn explorer(&self) -> &explorer::Explorer {
        self.panes.tree().explorer()
    }

    pub fn lab(&self) -> &lab::LabView {
        &self.lab
    }

    pub fn review(&self) -> &review::ReviewView {
        &self.review
    }

    /// The status line's message.
    pub fn message(&self) -> Option<&Message> {
        self.screen.message()
    }

    /// A driver drew a frame: the status line's message has been shown (so it may now be
    /// covered by any other).
    pub fn frame_drawn(&mut self) {
        self.screen.frame_drawn();
    }

    /// The user asked to leave (a driver ends its loop).
    pub fn quit_requested(&self) -> bool {
        self.screen.quit_requested()
    }

    /// Ends the session at the next turn of the loop (a signal, a closed channel).
    pub fn request_quit(&mut self) {
        self.screen.request_quit();
    }

    pub fn board(&self) -> &Board {
        self.play.game().board()
    }

    pub fn side_to_move(&self) -> Color {
        self.play.game().board().side_to_move()
    }

    /// Does the engine play `side` in the current mode?
    pub fn engine_plays(&self, side: Color) -> bool {
        self.play.engine_plays(side)
    }
}
