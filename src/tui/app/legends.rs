//! The focused pane's legend (`?` with a log, sort or tree pane focused): what each of its
//! numbers is, over the right-hand side where the pane is, from the same entries as the
//! help; ↑/↓ and PgUp/PgDn scroll it, any other key closes it.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;

use super::lab::View;
use super::{App, Pane};
use crate::tui::layout;
use crate::tui::legend::{self, Legend};

impl App {
    /// The legend the focused pane would show and where it goes, if it has one (the
    /// club's lobby and room have none).
    pub fn legend(&self) -> Option<(Legend, Rect)> {
        use super::club::Place;
        if self.club.is_on() && matches!(self.club.place(), Place::Lobby | Place::Room) {
            return None;
        }
        let a = layout::layout(self.screen.area());
        if self.explorer.is_open() {
            return Some((Legend::Tree, a.right));
        }
        let log = if self.review.visible() {
            Legend::Review
        } else {
            Legend::Log
        };
        let pane = match self.screen.focus() {
            Pane::Input => return None,
            Pane::Tree => Legend::Tree,
            Pane::Sort => Legend::Sort,
            Pane::Log => log,
        };
        if a.eval.is_some() {
            // The large layout: the log and the sort pane are always there.
            return Some((pane, a.right));
        }
        Some(match self.screen.view() {
            View::Log => (pane, a.right),
            View::Eval => (Legend::Eval, a.right),
            View::Chart => (Legend::Chart, a.right),
            View::Lab => (Legend::Lab, a.board.union(a.right)),
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
