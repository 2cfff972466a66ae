//! The tree browser as a pane: the recorded search tree of the last complete iteration,
//! a node at a time (↑/↓ select a child, Enter or → into it, Backspace or ← back up). It
//! takes the right-hand side while open. The browsing state is the explorer's
//! (`app::explorer`); `draw.rs` draws it. `r` (a newer tree) is the hub's: only the engine
//! session knows the newest tree.

pub mod draw;

use ratatui::Frame;
use ratatui::layout::Rect;

use crossterm::event::KeyCode;

use super::{Component, DrawCtx, Reply, Scroll, scroll_of};
use crate::tui::app::explorer::{Explorer, ExplorerError};
use crate::tui::keys::{Action, Binding, Focus, NONE, When, bind};
use crate::tui::layout::Slot;
use crate::tui::legend::{Legend, TREE_NOTES};

/// The tree browser's focus.
pub const FOCUS: Focus = Focus::named("tree");

/// Its own keys while focused.
pub const KEYS: &[Binding] = &[
    bind(KeyCode::Enter, NONE, When::Focused(FOCUS), Action::TreeInto),
    bind(KeyCode::Right, NONE, When::Focused(FOCUS), Action::TreeInto),
    bind(
        KeyCode::Backspace,
        NONE,
        When::Focused(FOCUS),
        Action::TreeBack,
    ),
    bind(KeyCode::Left, NONE, When::Focused(FOCUS), Action::TreeBack),
    bind(
        KeyCode::Char('r'),
        NONE,
        When::Focused(FOCUS),
        Action::TreeReload,
    ),
];

/// What its numbers are, after the help's first notes on reading it.
const LEGEND: Legend = Legend::of("Tree", &["order"]).with_notes(TREE_NOTES.split_at(2).0);

/// Lines above the child list (path, node, result, column heads) and below it (the
/// selected child's details, the newer-tree notice).
pub const HEAD: u16 = 4;
pub const FOOT: u16 = 2;

/// Rows of the child list in a pane of `area`.
pub fn list_rows(area: Rect) -> usize {
    area.height.saturating_sub(2 + HEAD + FOOT).max(1) as usize
}

/// The tree browser pane.
#[derive(Clone, Debug, Default)]
pub struct TreePane {
    explorer: Explorer,
}

impl TreePane {
    pub fn explorer(&self) -> &Explorer {
        &self.explorer
    }

    pub fn explorer_mut(&mut self) -> &mut Explorer {
        &mut self.explorer
    }

    /// After a move in the tree: the selection kept on screen, or why nothing happened.
    fn after(&mut self, r: Result<(), ExplorerError>, rows: usize) -> Reply {
        match r {
            Ok(()) => {
                self.explorer.keep_visible(rows);
                Reply::Done
            }
            Err(e) => Reply::Error(e.to_string()),
        }
    }
}

impl Component for TreePane {
    fn focus(&self) -> Focus {
        FOCUS
    }

    fn legend(&self) -> Legend {
        LEGEND
    }

    fn slot(&self) -> Slot {
        Slot::Whole
    }

    fn is_open(&self) -> bool {
        self.explorer.is_open()
    }

    fn rows_in(&self, area: Rect) -> usize {
        list_rows(area)
    }

    fn act(&mut self, action: Action, rows: usize) -> Reply {
        if let Some(scroll) = scroll_of(action, rows) {
            match scroll {
                Scroll::By(by) => self.explorer.select_by(by, rows),
                Scroll::Top => self.explorer.select_end(true, rows),
                Scroll::Bottom => self.explorer.select_end(false, rows),
            }
            return Reply::Done;
        }
        match action {
            Action::TreeInto => {
                let r = self.explorer.enter();
                self.after(r, rows)
            }
            Action::TreeBack => {
                let r = self.explorer.back();
                self.after(r, rows)
            }
            _ => Reply::Ignored,
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &DrawCtx) {
        draw::draw(frame, area, &self.explorer, ctx);
    }
}
