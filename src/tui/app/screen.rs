//! What the screen shows besides the game: which pane has the keyboard, the help overlay,
//! the right-hand view, the status line's message, the board's orientation, the latest
//! search lines, the terminal's size and the log's wall clock.

use std::time::Duration;

use ratatui::layout::Rect;

use super::evalview::EvalView;
use super::lab::View;
use super::{Message, Pane};
use crate::engine::IterationInfo;

/// The view's state.
pub struct Screen {
    pub focus: Pane,
    pub help_visible: bool,
    pub help_scroll: usize,
    /// What the right-hand side shows (the log, or the evaluation, chart or lab view).
    pub view: View,
    pub evalview: EvalView,
    /// The last message, shown on the status line until the next one.
    pub message: Option<Message>,
    /// The last message put into the log whole (so a redraw does not log it again).
    pub message_logged: Option<String>,
    pub quit: bool,
    /// Black at the bottom.
    pub flipped: bool,
    /// The lines of the search's latest iteration, line 1 first (MultiPV).
    pub pv_lines: Vec<IterationInfo>,
    /// The terminal's area at the last `resize`: page sizes and scroll limits follow it.
    pub area: Rect,
    /// The log's time stamps (tests use a fixed one so lines compare exactly).
    pub wall_clock: fn() -> String,
}

impl Screen {
    pub fn new(flipped: bool, area: Rect) -> Screen {
        Screen {
            focus: Pane::Input,
            help_visible: false,
            help_scroll: 0,
            view: View::default(),
            evalview: EvalView::default(),
            message: None,
            message_logged: None,
            quit: false,
            flipped,
            pv_lines: Vec::new(),
            area,
            wall_clock: local_time,
        }
    }
}

fn local_time() -> String {
    chrono::Local::now().format("%H:%M:%S").to_string()
}

/// The redraw period while the engine thinks (20 frames per second).
pub const FRAME: Duration = Duration::from_millis(50);
