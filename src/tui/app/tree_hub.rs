//! The hub's side of the tree browser (the pane is `pane/tree`): opening it on the newest
//! tree, closing it, loading a newer one; and what the board shows (the browser's node, an
//! earlier position, the game's) with the tables' verdict and the engine's reading of it.

use super::App;
use super::explorer::ExplorerError;
use crate::chess::Board;
use crate::tui::keys::Focus;
use crate::tui::pane;

impl App {
    // ---- the tree browser ----------------------------------------------------------------

    /// Opens the browser on the newest tree (F10, `:tree`); says why when there is none.
    pub fn open_tree(&mut self) {
        let latest = self.session.last_tree().cloned();
        match self.panes.tree_mut().explorer_mut().open(latest) {
            Ok(()) => {
                self.screen.focus_on(pane::tree::FOCUS);
                let rows = self.tree_rows();
                self.panes.tree_mut().explorer_mut().keep_visible(rows);
                let depth = self.panes.tree().explorer().shown().map_or(0, |t| t.depth);
                self.info(if self.session.is_searching() {
                    format!("tree of depth {depth}, the last complete one (r loads a newer one)")
                } else {
                    format!("tree of depth {depth}: ↑/↓ select, Enter into, Backspace back, Esc closes")
                });
            }
            Err(ExplorerError::NoTree { recording: true })
                if self.prefs.settings().level != crate::engine::levels::Level::Max =>
            {
                self.error(format!(
                    "no search tree: at level {} the engine's moves come from the level driver, which records none (analysis and hints do)",
                    self.prefs.settings().level
                ))
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    pub fn close_tree(&mut self) {
        if self.panes.tree().explorer().is_open() {
            self.panes.tree_mut().explorer_mut().close();
            if self.screen.focus() == pane::tree::FOCUS {
                self.screen.focus_on(Focus::INPUT);
            }
        }
    }

    pub(super) fn reload_tree(&mut self) {
        let latest = self.session.last_tree().cloned();
        let r = self.panes.tree_mut().explorer_mut().reload(latest);
        if r.is_ok() {
            let depth = self.panes.tree().explorer().shown().map_or(0, |t| t.depth);
            self.info(format!("tree of depth {depth}"));
        }
        self.tree_result(r);
    }

    /// After a browser key: keeps the selection on screen, or says why nothing happened.
    pub(super) fn tree_result(&mut self, r: Result<(), ExplorerError>) {
        match r {
            Ok(()) => {
                let rows = self.tree_rows();
                self.panes.tree_mut().explorer_mut().keep_visible(rows);
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// The position the board pane shows: the browser's node while it is open, an earlier
    /// position of the game while one is viewed (← / →), else the game's.
    pub fn shown_board(&self) -> &Board {
        if self.panes.tree().explorer().is_open() {
            self.panes.tree().explorer().board()
        } else if let Some(b) = self.browse.board() {
            b
        } else {
            self.play.game().board()
        }
    }

    /// What the Syzygy tables say of the position on show ("tablebase: White wins, DTZ
    /// 23"), when tables are open and cover it (probed once per position).
    pub fn tablebase_text(&self) -> Option<String> {
        self.prefs.tables().verdict(self.shown_board())
    }

    /// The engine's newest score for the position on show: its last search of that
    /// position, else the note of the engine's move that led to it (`d10 -0.35`).
    pub fn engine_reading(&self) -> Option<String> {
        if self.panes.tree().explorer().is_open() {
            return None;
        }
        let board = self.shown_board();
        if let Some(r) = self.screen.evalview().reading(board) {
            return Some(r.to_string());
        }
        let ply = self.browse.ply().unwrap_or(self.play.game().ply());
        let note = self
            .play
            .game()
            .moves()
            .get(ply.checked_sub(1)?)?
            .engine
            .as_ref()?;
        Some(format!("d{} {}", note.depth, note.score))
    }
}
