//! The panes that take the keyboard, as components. Each pane is one folder: `mod.rs` its
//! state, what it does with the keys it is given while focused, its legend and the events
//! it follows; `draw.rs` its drawing. The hub (`app`) keeps them in one [`Panes`] list and
//! never matches on which pane it is talking to: focus moves along the list, the scrolling
//! keys go to the focused pane with the rows the layout gives it, engine and game events
//! are handed to every pane, and drawing asks each pane to draw itself in the rectangle
//! the layout computed for it (`layout::Areas::pane`), the same rectangle its page size
//! comes from.
//!
//! A pane names everything about itself in its folder: its focus (`FOCUS`), its own keys
//! (`KEYS`, which act only while it is focused and which the help lists under its name),
//! its legend and its place on the right-hand side (a [`Slot`] of the layout). Adding a
//! pane is its folder and a line in [`Panes`].

pub mod log;
pub mod sort;
pub mod tree;

use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::widgets::Block;

use crate::chess::{Board, Move};
use crate::engine::order::Scheme;
use crate::engine::{IterationInfo, RootMoveRow};
use crate::tui::app::explorer::SearchTree;
use crate::tui::keys::{Action, Binding, DEFAULT_KEYS, Focus};
use crate::tui::layout::{Areas, Slot};
use crate::tui::legend::Legend;
use crate::tui::theme::Theme;

/// What a pane reads of the rest of the screen to draw itself.
pub struct DrawCtx<'a> {
    pub theme: &'a Theme,
    /// The pane has the keyboard (its border and title say so).
    pub focused: bool,
    /// The ordering scheme in force (the sort pane's header names it).
    pub order: Scheme,
    /// A search is running (the tree browser says a newer tree is coming).
    pub searching: bool,
    /// The newest complete iteration's tree (the browser says when it is not the one shown).
    pub latest_tree: Option<&'a Arc<SearchTree>>,
    /// The move ordering would give away a puzzle's solution (the sort pane hides it).
    pub hide_order: bool,
}

/// What a pane did with a key, for the hub to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// Done; nothing to say.
    Done,
    /// Not a key of this pane's: the hub decides.
    Ignored,
    /// Done or refused, with a line for the status line.
    Say(String),
    /// Refused with an error for the status line.
    Error(String),
}

/// What happened in the game or the search, handed to every pane: each follows what it
/// shows and ignores the rest.
#[derive(Clone, Copy, Debug)]
pub enum PaneEvent<'a> {
    /// The game's position is new (a move, a position set up, a move taken back) or the
    /// ordering scheme changed.
    Position { board: &'a Board, scheme: Scheme },
    /// A search starts on `board`.
    SearchStarted { board: &'a Board, scheme: Scheme },
    /// The engine played `mv` from the searched root (before the new position's event).
    EnginePlayed(Move),
    /// An iteration of the search finished.
    Iteration {
        info: &'a IterationInfo,
        scheme: Scheme,
    },
    /// The root moves so far of the iteration `depth`, still running.
    RootRows { depth: u32, rows: &'a [RootMoveRow] },
    /// The board shows an earlier position of the game (`None`: the game's own again).
    Viewing {
        board: Option<&'a Board>,
        scheme: Scheme,
    },
}

/// A pane that can take the keyboard.
pub trait Component {
    /// Which pane it is, for the focus and the key table.
    fn focus(&self) -> Focus;

    /// The legend `?` shows while it is focused.
    fn legend(&self) -> Legend;

    /// Its place on the right-hand side.
    fn slot(&self) -> Slot;

    /// Whether it is on screen at all (a pane that takes the whole engine area is shown only
    /// while open).
    fn is_open(&self) -> bool {
        true
    }

    /// The list rows on screen when the pane is drawn in `area` (its page).
    fn rows_in(&self, area: Rect) -> usize;

    /// A key's action while the pane is focused, `rows` of it on screen.
    fn act(&mut self, action: Action, rows: usize) -> Reply;

    /// What happened in the game or the search.
    fn on_event(&mut self, _event: PaneEvent) {}

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &DrawCtx);
}

/// The scrolling every list pane shares: Up/Down a row, PgUp/PgDn a page (a row kept),
/// Home/End to the ends. `None` when `action` is not a scrolling key.
pub fn scroll_of(action: Action, rows: usize) -> Option<Scroll> {
    let page = rows.saturating_sub(1).max(1);
    Some(match action {
        Action::Up => Scroll::By(-1),
        Action::Down => Scroll::By(1),
        Action::PageUp => Scroll::By(-(page as isize)),
        Action::PageDown => Scroll::By(page as isize),
        Action::Top => Scroll::Top,
        Action::Bottom => Scroll::Bottom,
        _ => return None,
    })
}

/// A scrolling key's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scroll {
    /// Rows down (negative: up).
    By(isize),
    Top,
    Bottom,
}

/// A pane's frame: its title and border in the theme's style for its focus.
pub fn block<'a>(theme: &Theme, title: &'a str, focused: bool) -> Block<'a> {
    Block::bordered()
        .title(ratatui::text::Span::styled(title, theme.title(focused)))
        .border_style(theme.border(focused))
}

/// A focusable pane's title: `title` as given, and while the pane has the focus, the key
/// that explains its numbers (` Sort · ? legend `).
pub fn titled(title: &str, focused: bool) -> String {
    if focused {
        format!("{} · ? legend ", title.trim_end())
    } else {
        title.to_string()
    }
}

/// The panes, in the order Tab visits them after the input line.
#[derive(Default)]
pub struct Panes {
    log: log::LogPane,
    sort: sort::SortPane,
    tree: tree::TreePane,
}

/// The key table: the panes' own keys first (they act only while their pane is focused,
/// and there they win over a key's usual meaning), then the screen's.
pub fn key_table() -> Vec<Binding> {
    [log::KEYS, sort::KEYS, tree::KEYS, DEFAULT_KEYS].concat()
}

impl Panes {
    /// Every pane, in Tab's order.
    pub fn all(&self) -> [&dyn Component; 3] {
        [&self.log, &self.sort, &self.tree]
    }

    fn all_mut(&mut self) -> [&mut dyn Component; 3] {
        [&mut self.log, &mut self.sort, &mut self.tree]
    }

    /// The pane with this focus, if it is a pane (not the input line).
    pub fn get(&self, focus: Focus) -> Option<&dyn Component> {
        self.all().into_iter().find(|p| p.focus() == focus)
    }

    pub fn get_mut(&mut self, focus: Focus) -> Option<&mut dyn Component> {
        self.all_mut().into_iter().find(|p| p.focus() == focus)
    }

    /// The open pane that takes the whole engine area (the others step aside), if any.
    pub fn whole(&self) -> Option<&dyn Component> {
        self.all()
            .into_iter()
            .find(|p| p.slot() == Slot::Whole && p.is_open())
    }

    /// Where the pane with this focus is on screen, if it is.
    pub fn rect(&self, focus: Focus, areas: &Areas) -> Option<Rect> {
        let pane = self.get(focus)?;
        if !pane.is_open() {
            return None;
        }
        areas.slot(pane.slot())
    }

    /// Hands `event` to every pane.
    pub fn tell(&mut self, event: PaneEvent) {
        for p in self.all_mut() {
            p.on_event(event);
        }
    }

    /// The log: the session's lines (the hub writes every message there).
    pub fn log(&self) -> &log::LogPane {
        &self.log
    }

    pub fn log_mut(&mut self) -> &mut log::LogPane {
        &mut self.log
    }

    /// The sort pane's lists as shown.
    pub fn sort(&self) -> &sort::SortView {
        self.sort.shown()
    }

    /// The tree browser.
    pub fn tree(&self) -> &tree::TreePane {
        &self.tree
    }

    pub fn tree_mut(&mut self) -> &mut tree::TreePane {
        &mut self.tree
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keys::{CTRL, NONE, action_for, help_rows};
    use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

    const INPUT: Focus = Focus::INPUT;
    const LOG: Focus = log::FOCUS;
    const SORT: Focus = sort::FOCUS;
    const TREE: Focus = tree::FOCUS;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn character_keys_act_only_on_an_empty_input() {
        let plus = key(KeyCode::Char('+'), NONE);
        assert_eq!(
            action_for(&key_table(), &plus, true, INPUT),
            Some(Action::DepthUp)
        );
        assert_eq!(action_for(&key_table(), &plus, false, INPUT), None);
        let f6 = key(KeyCode::F(6), NONE);
        assert_eq!(
            action_for(&key_table(), &f6, false, INPUT),
            Some(Action::DepthUp)
        );
        let ctrl_down = key(KeyCode::Down, CTRL);
        assert_eq!(
            action_for(&key_table(), &ctrl_down, false, INPUT),
            Some(Action::DepthDown)
        );
        assert_eq!(
            action_for(&key_table(), &key(KeyCode::Char('e'), NONE), true, INPUT),
            None
        );
    }

    #[test]
    fn ctrl_c_always_quits_and_releases_do_nothing() {
        let c = key(KeyCode::Char('c'), CTRL);
        assert_eq!(
            action_for(&key_table(), &c, false, SORT),
            Some(Action::Quit)
        );
        let mut release = c;
        release.kind = KeyEventKind::Release;
        assert_eq!(action_for(&key_table(), &release, false, SORT), None);
    }

    #[test]
    fn arrows_step_the_pv_only_in_the_sort_pane() {
        let left = key(KeyCode::Left, NONE);
        assert_eq!(
            action_for(&key_table(), &left, true, SORT),
            Some(Action::PvBack)
        );
        assert_eq!(action_for(&key_table(), &left, true, LOG), None);
    }

    #[test]
    fn arrows_step_through_the_game_only_from_an_empty_input_line() {
        let left = key(KeyCode::Left, NONE);
        assert_eq!(
            action_for(&key_table(), &left, true, INPUT),
            Some(Action::StepBack)
        );
        assert_eq!(
            action_for(&key_table(), &left, false, INPUT),
            None,
            "a text being typed keeps ← for its cursor"
        );
        assert_eq!(
            action_for(&key_table(), &left, true, SORT),
            Some(Action::PvBack),
            "the focused sort pane keeps ← for its PV"
        );
        assert_eq!(
            action_for(&key_table(), &left, true, TREE),
            Some(Action::TreeBack)
        );
        assert_eq!(action_for(&key_table(), &left, true, LOG), None);
        let ctrl_p = key(KeyCode::Char('p'), CTRL);
        assert_eq!(
            action_for(&key_table(), &ctrl_p, false, SORT),
            Some(Action::BoardCursor)
        );
        // No other binding shares a key with the new ones.
        for b in key_table().iter().filter(|b| {
            matches!(
                b.action,
                Action::StepBack | Action::StepForward | Action::BoardCursor
            )
        }) {
            let same = key_table()
                .iter()
                .filter(|o| o.code == b.code && o.mods == b.mods && o.when == b.when)
                .count();
            assert_eq!(same, 1, "{:?}", b.code);
        }
    }

    #[test]
    fn the_tree_browsers_keys_act_only_while_it_has_the_focus() {
        for (code, action) in [
            (KeyCode::Enter, Action::TreeInto),
            (KeyCode::Backspace, Action::TreeBack),
            (KeyCode::Char('r'), Action::TreeReload),
            (KeyCode::Left, Action::TreeBack),
        ] {
            let k = key(code, NONE);
            assert_eq!(action_for(&key_table(), &k, true, TREE), Some(action));
            for focus in [INPUT, LOG, SORT] {
                assert_ne!(action_for(&key_table(), &k, true, focus), Some(action));
            }
        }
        assert_eq!(
            action_for(&key_table(), &key(KeyCode::Enter, NONE), false, INPUT),
            Some(Action::Submit)
        );
        assert_eq!(
            action_for(&key_table(), &key(KeyCode::Backspace, NONE), true, INPUT),
            None,
            "Backspace edits the input line"
        );
        let rows = help_rows(&key_table());
        assert_eq!(rows[0].1, Action::Submit.describe(), "tree keys last");
        assert_eq!(rows.last().unwrap().1, Action::TreeReload.describe());
    }

    #[test]
    fn help_lists_every_action_once_with_all_its_keys() {
        let rows = help_rows(&key_table());
        let depth = rows
            .iter()
            .find(|(_, d)| *d == Action::DepthUp.describe())
            .unwrap();
        assert_eq!(depth.0, "F6, Ctrl+↑, + (empty input)");
        let quit = rows
            .iter()
            .find(|(_, d)| *d == Action::Quit.describe())
            .unwrap();
        assert_eq!(quit.0, "Ctrl+C, Ctrl+D (empty input)");
        let mut seen = std::collections::HashSet::new();
        for b in key_table() {
            seen.insert(b.action);
        }
        assert_eq!(rows.len(), seen.len());
    }

    #[test]
    fn every_pane_has_its_own_focus_and_the_help_names_its_keys_by_it() {
        let panes = Panes::default();
        let mut names: Vec<&str> = panes.all().iter().map(|p| p.focus().name()).collect();
        names.push(Focus::INPUT.name());
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "two panes share a focus: {names:?}");
        let rows = help_rows(&key_table());
        let pv = rows
            .iter()
            .find(|(_, d)| *d == Action::PvBack.describe())
            .unwrap();
        assert_eq!(pv.0, "← (sort pane), Alt+←");
    }

    #[test]
    fn every_number_on_screen_is_in_some_panes_or_views_legend() {
        let panes = Panes::default();
        let legends: Vec<Legend> = panes
            .all()
            .iter()
            .map(|p| p.legend())
            .chain(Legend::VIEWS)
            .collect();
        for legend in &legends {
            assert!(
                legend.entries().len() >= legend.names().len(),
                "{}: names an entry that does not exist",
                legend.name()
            );
        }
        for (name, _) in crate::tui::legend::NUMBERS {
            assert!(
                legends.iter().any(|l| l.names().contains(name)),
                "{name} is in no pane's legend"
            );
        }
    }
}
