//! What the screen shows besides the game: which pane has the keyboard, the help overlay,
//! the right-hand view, the status line's message, the board's orientation, the latest
//! search lines, the terminal's size and the log's wall clock.

use std::time::Duration;

use ratatui::layout::Rect;

use super::evalview::EvalView;
use super::{Message, MessageKind, text};
use crate::chess::Color;
use crate::engine::IterationInfo;
use crate::tui::keys::Focus;
use crate::tui::view::View;

/// The view's state.
pub struct Screen {
    focus: Focus,
    help_visible: bool,
    help_scroll: usize,
    /// The focused pane's legend is open, scrolled this many rows.
    legend: Option<usize>,
    /// What the right-hand side shows (the log, or the evaluation, chart or lab view).
    view: View,
    evalview: EvalView,
    /// The last message, shown on the status line until the next one.
    message: Option<Message>,
    /// The last message put into the log whole (so a redraw does not log it again).
    message_logged: Option<String>,
    /// A frame has shown the message since it was set.
    message_seen: bool,
    quit: bool,
    /// Black at the bottom.
    flipped: bool,
    /// The lines of the search's latest iteration, line 1 first (MultiPV).
    pv_lines: Vec<IterationInfo>,
    /// The terminal's area at the last `resize`: page sizes and scroll limits follow it.
    area: Rect,
    /// The log's time stamps (tests use a fixed one so lines compare exactly).
    wall_clock: fn() -> String,
}

impl Screen {
    pub fn new(flipped: bool, area: Rect) -> Screen {
        Screen {
            focus: Focus::INPUT,
            help_visible: false,
            help_scroll: 0,
            legend: None,
            view: View::default(),
            evalview: EvalView::default(),
            message: None,
            message_logged: None,
            message_seen: false,
            quit: false,
            flipped,
            pv_lines: Vec::new(),
            area,
            wall_clock: local_time,
        }
    }

    // ---- the keyboard's focus ----------------------------------------------------------

    pub fn focus(&self) -> Focus {
        self.focus
    }

    pub fn focus_on(&mut self, focus: Focus) {
        self.focus = focus;
    }

    // ---- the help overlay ----------------------------------------------------------------

    pub fn help_visible(&self) -> bool {
        self.help_visible
    }

    /// The first help line shown.
    pub fn help_scroll(&self) -> usize {
        self.help_scroll
    }

    /// Shows the help from its top.
    pub fn open_help(&mut self) {
        self.help_visible = true;
        self.help_scroll = 0;
    }

    pub fn close_help(&mut self) {
        self.help_visible = false;
    }

    /// Scrolls the help by `by` lines, down unless `up`, never past `max`.
    pub fn scroll_help(&mut self, by: usize, up: bool, max: usize) {
        self.help_scroll = if up {
            self.help_scroll.saturating_sub(by)
        } else {
            (self.help_scroll + by).min(max)
        };
    }

    // ---- the focused pane's legend ------------------------------------------------------

    /// The first legend row shown, while a legend is open.
    pub fn legend_scroll(&self) -> Option<usize> {
        self.legend
    }

    pub fn open_legend(&mut self) {
        self.legend = Some(0);
    }

    pub fn close_legend(&mut self) {
        self.legend = None;
    }

    /// Scrolls the open legend by `by` rows, down unless `up`, never past `max`.
    pub fn scroll_legend(&mut self, by: usize, up: bool, max: usize) {
        if let Some(at) = self.legend.as_mut() {
            *at = if up {
                at.saturating_sub(by)
            } else {
                (*at + by).min(max)
            };
        }
    }

    // ---- the right-hand view -----------------------------------------------------------

    /// What the right-hand side shows (the log, or the evaluation, chart or lab view).
    pub fn view(&self) -> View {
        self.view
    }

    pub fn set_view(&mut self, view: View) {
        self.view = view;
    }

    /// The evaluation view's state (its last search, whether it shows the PV's end).
    pub fn evalview(&self) -> &EvalView {
        &self.evalview
    }

    /// The evaluation view shows the end of the engine's PV beside the position, or not;
    /// returns whether it now does.
    pub fn toggle_pv_end(&mut self) -> bool {
        self.evalview.show_pv_end = !self.evalview.show_pv_end;
        self.evalview.show_pv_end
    }

    // ---- the search's lines --------------------------------------------------------------

    /// The lines of the search's latest iteration, line 1 first (MultiPV).
    pub fn pv_lines(&self) -> &[IterationInfo] {
        &self.pv_lines
    }

    /// A new iteration of line 1 on `root`: it replaces the lines, and the evaluation view
    /// follows it.
    pub fn on_iteration(&mut self, root: &crate::chess::Board, info: IterationInfo) {
        self.evalview.on_iteration(root, &info);
        self.pv_lines = vec![info];
    }

    /// Another line of the same iteration (MultiPV).
    pub fn on_side_line(&mut self, info: IterationInfo) {
        self.pv_lines.push(info);
    }

    // ---- the status line's message -------------------------------------------------------

    /// The last message, shown on the status line until the next one.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    pub fn set_message(&mut self, message: Message) {
        self.message = Some(message);
        self.message_seen = false;
    }

    /// A frame was drawn: the message on the status line has been shown.
    pub fn frame_drawn(&mut self) {
        self.message_seen = true;
    }

    /// An error is on the status line that no frame has shown yet.
    pub fn unseen_error(&self) -> bool {
        !self.message_seen
            && self
                .message
                .as_ref()
                .is_some_and(|m| m.kind == MessageKind::Error)
    }

    pub fn clear_message(&mut self) {
        self.message = None;
    }

    /// The message, when it must go into the log whole — cut on the status line or an
    /// error — and has not gone there yet; it then counts as logged.
    pub fn message_to_log(&mut self) -> Option<&Message> {
        let m = self.message.as_ref()?;
        let cut = text::text_width(&m.text) > usize::from(self.area.width);
        if !(cut || m.kind == MessageKind::Error)
            || self.message_logged.as_deref() == Some(m.text.as_str())
        {
            return None;
        }
        self.message_logged = Some(m.text.clone());
        self.message.as_ref()
    }

    // ---- the board's orientation -----------------------------------------------------------

    /// Black at the bottom.
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// The board as `side` sees it: that side at the bottom.
    pub fn turn_for(&mut self, side: Color) {
        self.flipped = side == Color::Black;
    }

    /// Black at the bottom when `flipped` (an orientation given back).
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
    }

    /// Turns the board round; returns whether Black is now at the bottom.
    pub fn flip(&mut self) -> bool {
        self.flipped = !self.flipped;
        self.flipped
    }

    // ---- the terminal, the clock, leaving -------------------------------------------------

    /// The terminal's area at the last `resize`: page sizes and scroll limits follow it.
    pub fn area(&self) -> Rect {
        self.area
    }

    pub fn set_area(&mut self, area: Rect) {
        self.area = area;
    }

    /// The wall clock's time, for a log line's stamp.
    pub fn stamp(&self) -> String {
        (self.wall_clock)()
    }

    /// The log's time stamps come from `clock` (tests use a fixed one).
    pub fn set_wall_clock(&mut self, clock: fn() -> String) {
        self.wall_clock = clock;
    }

    /// The user asked to leave (a driver ends its loop).
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    pub fn request_quit(&mut self) {
        self.quit = true;
    }
}

fn local_time() -> String {
    chrono::Local::now().format("%H:%M:%S").to_string()
}

/// The redraw period while the engine thinks (20 frames per second).
pub const FRAME: Duration = Duration::from_millis(50);
