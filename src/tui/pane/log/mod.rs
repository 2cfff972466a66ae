//! The log pane: the session's lines, time-stamped, newest at the bottom, wrapped to the
//! pane and scrollable (↑/↓, PgUp/PgDn, Home/End while focused; PgUp/PgDn from the input
//! line too). The lines are the log buffer's (`app::log`), which the hub writes every
//! message into; `draw.rs` styles the rows on screen.

pub mod draw;

use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Component, DrawCtx, Reply, Scroll, scroll_of};
use crate::tui::app::log::{LogBuffer, STAMP_WIDTH};
use crate::tui::keys::{Action, Binding, Focus};
use crate::tui::layout::Slot;
use crate::tui::legend::Legend;

/// The log's focus.
pub const FOCUS: Focus = Focus::named("log");

/// Its own keys while focused: none beyond the scrolling every pane has.
pub const KEYS: &[Binding] = &[];

/// What its numbers are.
const LEGEND: Legend = Legend::of(
    "Log",
    &[
        "E",
        "search",
        "d7/12 … E",
        "nodes, n/s",
        "level",
        "status line",
    ],
);

/// The columns a log line's text wraps at in a pane of `area` (the stamp takes the rest).
pub fn text_width(area: Rect) -> usize {
    (area.width.saturating_sub(2) as usize)
        .saturating_sub(STAMP_WIDTH)
        .max(8)
}

/// The rows of text a log pane of `area` shows.
pub fn rows(area: Rect) -> usize {
    area.height.saturating_sub(2) as usize
}

/// The log pane: its buffer of lines and where it is scrolled to.
#[derive(Clone, Debug, Default)]
pub struct LogPane {
    buffer: LogBuffer,
}

impl LogPane {
    pub fn buffer(&self) -> &LogBuffer {
        &self.buffer
    }

    pub fn buffer_mut(&mut self) -> &mut LogBuffer {
        &mut self.buffer
    }

    /// Scrolls within a pane showing `rows` rows.
    fn scroll(&mut self, scroll: Scroll, rows: usize) {
        match scroll {
            Scroll::By(by) => self.buffer.scroll_by(by.unsigned_abs(), by < 0, rows),
            Scroll::Top => self.buffer.scroll_to(true, rows),
            Scroll::Bottom => self.buffer.scroll_to(false, rows),
        }
    }
}

impl Component for LogPane {
    fn focus(&self) -> Focus {
        FOCUS
    }

    fn legend(&self) -> Legend {
        LEGEND
    }

    fn slot(&self) -> Slot {
        Slot::Upper
    }

    fn rows_in(&self, area: Rect) -> usize {
        rows(area)
    }

    fn act(&mut self, action: Action, rows: usize) -> Reply {
        match scroll_of(action, rows) {
            Some(scroll) => {
                self.scroll(scroll, rows);
                Reply::Done
            }
            None => Reply::Ignored,
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &DrawCtx) {
        draw::draw(frame, area, &self.buffer, ctx);
    }
}
