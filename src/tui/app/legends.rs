//! The focused pane's legend (`?` with a log, sort or tree pane focused): what each of its
//! numbers is, over the right-hand side where the pane is, from the same entries as the
//! help; ↑/↓ and PgUp/PgDn scroll it, any other key closes it.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use super::App;
use crate::tui::legend::{self, Legend};
use crate::tui::pane;
use crate::tui::view::View;

impl App {
    /// The legend the focused pane would show and where it goes, if it has one (the
    /// club's lobby and room have none). The focused pane's own, over the right-hand side
    /// where it is; at small sizes a view that took the panes' place explains itself.
    pub fn legend(&self) -> Option<(Legend, Rect)> {
        let a = self.areas();
        if a.club.is_some() {
            return None;
        }
        if let Some(whole) = self.panes.whole() {
            return Some((whole.legend(), a.right));
        }
        let focused = self.screen.focus();
        let pane = match self.panes.get(focused) {
            Some(_) if focused == pane::log::FOCUS && self.review.visible() => Legend::REVIEW,
            Some(p) => p.legend(),
            None => return None,
        };
        if a.large || a.upper.is_some() {
            // The log and the sort pane are on screen.
            return Some((pane, a.right));
        }
        Some(match self.screen.view() {
            View::Log => (pane, a.right),
            View::Eval => (Legend::EVAL, a.right),
            View::Chart => (Legend::CHART, a.right),
            View::Lab => (Legend::LAB, a.board.union(a.right)),
        })
    }

    /// `?` on a focused pane: its legend, or why there is none.
    pub(super) fn open_legend(&mut self) {
        if self.legend().is_some() {
            self.screen.open_legend();
        } else {
            self.info("no legend here: F1 lists what every number is");
        }
    }

    /// The rows of the legend on screen at its width (inside its border).
    fn legend_rows(&self) -> (usize, usize) {
        match self.legend() {
            Some((which, rect)) => {
                let inner = rect.height.saturating_sub(2) as usize;
                let rows = legend::rows(which, rect.width.saturating_sub(2) as usize).len();
                (rows, inner)
            }
            None => (0, 0),
        }
    }

    /// A key while a legend is open: scrolling keys scroll it, any other closes it.
    pub(super) fn legend_key(&mut self, key: KeyEvent) {
        let (rows, shown) = self.legend_rows();
        let max = rows.saturating_sub(shown);
        let page = shown.saturating_sub(1).max(1);
        match key.code {
            KeyCode::Up => self.screen.scroll_legend(1, true, max),
            KeyCode::Down => self.screen.scroll_legend(1, false, max),
            KeyCode::PageUp => self.screen.scroll_legend(page, true, max),
            KeyCode::PageDown => self.screen.scroll_legend(page, false, max),
            _ => self.screen.close_legend(),
        }
    }
}
