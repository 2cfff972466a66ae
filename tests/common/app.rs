//! The TUI tests' app and engine double: an `App` built as the program builds one, with an
//! engine that records what it was asked and answers nothing by itself (each test feeds the
//! events it needs), a fixed wall clock so log lines compare exactly, and no user files;
//! the settings most tests start from, keys as a person types them, and what the screen says.

use std::cell::RefCell;
use std::rc::Rc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ox88::chess::Board;
use ox88::engine::{Limits, SearchOptions};
use ox88::tui::app::{App, AppBuilder, EngineControl, MessageKind};
use ox88::tui::settings::Settings;
use ox88::tui::theme::{ColorDepth, Theme};
use ox88::tui::{Mode, Options};

/// One search the app asked for.
#[derive(Clone, Debug, PartialEq)]
pub struct Go {
    /// The id `go` returned (1, 2, 3, … in order).
    pub id: u64,
    pub fen: String,
    pub limits: Limits,
    pub options: SearchOptions,
}

/// One call the app made on its engine (a test double: size does not matter).
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Call {
    Go(Go),
    Stop,
    NewGame,
}

/// The calls an app made on its engine, shared between the test and the engine double.
#[derive(Clone, Debug, Default)]
pub struct Calls(Rc<RefCell<Vec<Call>>>);

impl Calls {
    pub fn all(&self) -> Vec<Call> {
        self.0.borrow().clone()
    }

    /// The searches asked for, in order.
    pub fn searches(&self) -> Vec<Go> {
        self.0
            .borrow()
            .iter()
            .filter_map(|c| match c {
                Call::Go(go) => Some(go.clone()),
                _ => None,
            })
            .collect()
    }

    pub fn last_go(&self) -> Option<Go> {
        self.searches().pop()
    }

    /// How many times the app asked the engine to stop.
    pub fn stops(&self) -> usize {
        self.0.borrow().iter().filter(|c| **c == Call::Stop).count()
    }

    pub fn contains(&self, call: &Call) -> bool {
        self.0.borrow().contains(call)
    }
}

/// An engine that records every call and answers nothing by itself.
pub struct RecordingEngine {
    calls: Calls,
    next_id: u64,
}

impl RecordingEngine {
    pub fn new() -> (RecordingEngine, Calls) {
        let calls = Calls::default();
        let engine = RecordingEngine {
            calls: calls.clone(),
            next_id: 0,
        };
        (engine, calls)
    }
}

impl EngineControl for RecordingEngine {
    fn go(&mut self, board: &Board, limits: Limits, options: &SearchOptions) -> u64 {
        self.next_id += 1;
        self.calls.0.borrow_mut().push(Call::Go(Go {
            id: self.next_id,
            fen: board.to_fen(),
            limits,
            options: options.clone(),
        }));
        self.next_id
    }
    fn stop(&mut self) {
        self.calls.0.borrow_mut().push(Call::Stop);
    }
    fn new_game(&mut self) {
        self.calls.0.borrow_mut().push(Call::NewGame);
    }
}

/// The log's clock in tests: every line is stamped 12:00:00.
pub fn fixed_clock() -> String {
    "12:00:00".to_string()
}

/// A builder for an app of `opts` on a recording engine, in `theme` at `depth`, with the
/// fixed clock and no user themes; the test adds what else it needs and builds.
pub fn builder_with(opts: &Options, theme: &str, depth: ColorDepth) -> (AppBuilder, Calls) {
    let (engine, calls) = RecordingEngine::new();
    let theme = Theme::builtin(theme, depth).expect("a built-in theme");
    let builder = App::builder(opts, Box::new(engine))
        .theme(theme, depth)
        .wall_clock(fixed_clock)
        .user_theme_dir(None);
    (builder, calls)
}

/// An app of `opts` on a recording engine (the default theme in true colour).
pub fn app_of(opts: &Options) -> (App, Calls) {
    let (builder, calls) = builder_with(opts, "default", ColorDepth::TrueColor);
    (builder.build(), calls)
}

// ---- the settings most tests start from ----------------------------------------------------

/// The settings most TUI tests play with: pieces as letters, so screens compare as text,
/// and a shallow depth.
pub fn test_settings() -> Settings {
    Settings {
        ascii: true,
        depth: 5,
        ..Settings::default()
    }
}

/// Options of `test_settings` in `mode`, the rest as the command line's defaults.
pub fn options_in(mode: Mode) -> Options {
    Options {
        mode,
        ..Options::of(test_settings())
    }
}

// ---- keys, as a person types them ------------------------------------------------------------

pub fn press(app: &mut App, code: KeyCode) {
    press_with(app, code, KeyModifiers::NONE);
}

pub fn press_with(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    app.handle_key(KeyEvent::new(code, mods));
}

/// Ctrl and a letter.
pub fn ctrl(app: &mut App, c: char) {
    press_with(app, KeyCode::Char(c), KeyModifiers::CONTROL);
}

/// Types `text` on the input line without submitting it.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// Types `text` and presses Enter.
pub fn enter(app: &mut App, text: &str) {
    type_text(app, text);
    press(app, KeyCode::Enter);
}

// ---- what the screen says ----------------------------------------------------------------------

/// The status line's message and its kind; there must be one.
pub fn message(app: &App) -> (MessageKind, String) {
    let m = app.message().expect("a message");
    (m.kind, m.text.clone())
}

/// The status line's text (empty when there is no message).
pub fn message_text(app: &App) -> String {
    app.message().map(|m| m.text.clone()).unwrap_or_default()
}

/// Every line of the log, oldest first.
pub fn log_texts(app: &App) -> Vec<String> {
    app.log_buffer().lines().map(|l| l.text.clone()).collect()
}

/// The screen's lines at `w`×`h`.
pub fn screen(app: &mut App, w: u16, h: u16) -> Vec<String> {
    super::render(app, w, h).0
}
