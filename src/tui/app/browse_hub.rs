//! The hub's side of looking back through the game (`browse.rs` the part): which keys it
//! takes and what the rest of the screen does meanwhile. ← and → step through the game
//! while the input line has the focus and is empty (a focused pane keeps its own arrows);
//! End or Esc returns to the game, and so does typing: a move is always typed against the
//! position on the board.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::App;
use super::browse::StepEnd;
use super::text::position_text;
use crate::tui::keys::Focus;
use crate::tui::pane::PaneEvent;

impl App {
    // ---- looking back through the game -------------------------------------------------

    /// The number of moves leading to the position on show, while it is an earlier one.
    pub fn viewing(&self) -> Option<usize> {
        self.browse.ply()
    }

    /// The sort pane shows the moves of the position on show (the game's, or an earlier one).
    pub(super) fn tell_viewing(&mut self) {
        let scheme = self.prefs.settings().order;
        self.panes.tell(PaneEvent::Viewing {
            board: self.browse.board(),
            scheme,
        });
    }

    /// ← / → on an empty input line: the board shows the position a move earlier or later.
    pub(super) fn step_game(&mut self, forward: bool) {
        if self.panes.tree().explorer().is_open() {
            self.info("the tree browser shows its own position (Esc closes it)");
            return;
        }
        self.cursor.stop();
        let stepped = self.browse.step(self.play.game(), forward);
        self.tell_viewing();
        match stepped {
            Ok(()) => match self.browse.ply() {
                Some(ply) => self.info(format!(
                    "viewing {}: ←/→ step, End or Esc returns to the game",
                    position_text(self.play.game(), ply)
                )),
                None => self.back_to_game_message(),
            },
            Err(StepEnd::AtStart) => self.info("at the game's first position (End returns)"),
            Err(StepEnd::AtLive) if self.play.game().ply() == 0 => {
                self.info("no moves yet to look back on")
            }
            Err(StepEnd::AtLive) => {
                self.info("this is the game's position (← looks back; Ctrl+Y replays)")
            }
        }
    }

    /// End, Esc or typing while an earlier position is on show: back to the game's own.
    pub(super) fn leave_viewing(&mut self) -> bool {
        let left = self.browse.leave();
        self.tell_viewing();
        if left {
            self.back_to_game_message();
        }
        left
    }

    fn back_to_game_message(&mut self) {
        self.info(format!(
            "back to the game (move {})",
            self.play.game().ply()
        ));
    }

    /// Keys while an earlier position is on show and the input line has the focus: End and
    /// Esc return to the game; a character typed, or an earlier entry recalled (↑/↓),
    /// returns and then goes to the input line (a move is always typed against the position
    /// on the board). False when the key still has its usual meaning to run.
    pub(super) fn viewing_key(&mut self, key: &KeyEvent) -> bool {
        if !self.browse.is_viewing() || self.screen.focus() != Focus::INPUT {
            return false;
        }
        match key.code {
            KeyCode::End | KeyCode::Esc if key.modifiers == KeyModifiers::NONE => {
                self.leave_viewing();
                true
            }
            KeyCode::Char(_) | KeyCode::Up | KeyCode::Down
                if !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                self.leave_viewing();
                false
            }
            _ => false,
        }
    }
}
