//! The TUI tests' app and engine double: an `App` built as the program builds one, with an
//! engine that records what it was asked and answers nothing by itself (each test feeds the
//! events it needs), a fixed wall clock so log lines compare exactly, and no user files.

#![allow(dead_code)] // each test crate uses its own subset

use std::cell::RefCell;
use std::rc::Rc;

use ox88::chess::Board;
use ox88::engine::{Limits, SearchOptions};
use ox88::tui::Options;
use ox88::tui::app::{App, AppBuilder, EngineControl};
use ox88::tui::theme::{ColorDepth, Theme};

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
