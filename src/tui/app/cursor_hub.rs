//! The hub's side of the board cursor (`cursor.rs` the part): while it is on (Ctrl+P) and
//! the input line is empty, the arrows, Enter, Space and Esc are the cursor's, and a move
//! chosen on the board is played as if typed, with the same checks and messages.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::App;
use super::cursor::Choice;
use crate::chess::{PieceKind, Square};
use crate::tui::keys::Focus;

impl App {
    // ---- the board cursor ----------------------------------------------------------------

    /// Ctrl+P: the cursor on (on the side to move's king), or off.
    pub(super) fn toggle_cursor(&mut self) {
        if self.cursor.is_on() {
            self.cursor.stop();
            self.info("board cursor off");
            return;
        }
        self.browse.leave();
        self.tell_viewing();
        self.close_tree();
        self.screen.focus_on(Focus::INPUT);
        self.input.clear();
        let board = self.play.game().board();
        self.cursor.start(board.king_square(board.side_to_move()));
        self.info(
            "board cursor: arrows move, Enter/Space picks a piece then its square, Esc leaves",
        );
    }

    /// The squares the board marks for the cursor: the picked piece and its targets.
    pub fn cursor_squares(&self) -> Option<(Vec<Square>, Vec<Square>)> {
        self.cursor.marks(self.play.game().board())
    }

    /// Where the board cursor is, while it is on.
    pub fn cursor_square(&self) -> Option<Square> {
        self.cursor.square()
    }

    /// Keys while the board cursor is on and the input line is empty; false when the key is
    /// not the cursor's.
    pub(super) fn cursor_key(&mut self, key: &KeyEvent) -> bool {
        if !self.cursor.is_on() || self.screen.focus() != Focus::INPUT {
            return false;
        }
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return false;
        }
        if self.cursor.is_promoting() {
            return self.promotion_key(key.code);
        }
        // Up is away from the player at the bottom.
        let toward = if self.screen.flipped() { -1 } else { 1 };
        match key.code {
            KeyCode::Up => self.cursor.shift(0, toward),
            KeyCode::Down => self.cursor.shift(0, -toward),
            KeyCode::Left => self.cursor.shift(-toward, 0),
            KeyCode::Right => self.cursor.shift(toward, 0),
            KeyCode::Enter | KeyCode::Char(' ') => self.cursor_choose(),
            KeyCode::Esc => {
                if self.cursor.drop_pick() {
                    self.info("put back (Esc again leaves the board cursor)");
                } else {
                    self.cursor.stop();
                    self.info("board cursor off");
                }
            }
            _ => return false,
        }
        true
    }

    fn cursor_choose(&mut self) {
        match self.cursor.choose(self.play.game().board()) {
            Choice::Picked(what) => self.info(format!("{what} (Enter on a square moves it)")),
            Choice::Dropped => self.info("put back"),
            Choice::Refused(why) => self.error(why),
            Choice::AskPromotion => self.info(
                "promote to? q queen, r rook, b bishop, n knight (Enter: queen, Esc: put back)",
            ),
            Choice::Play(text) => self.play_chosen(&text),
        }
    }

    /// A promotion waits for its piece: q, r, b, n (Enter or Space: a queen), Esc puts the
    /// pawn back. Any other key asks again.
    fn promotion_key(&mut self, code: KeyCode) -> bool {
        let kind = match code {
            KeyCode::Enter | KeyCode::Char(' ') => Some(PieceKind::Queen),
            KeyCode::Char(c) => match c.to_ascii_lowercase() {
                'q' => Some(PieceKind::Queen),
                'r' => Some(PieceKind::Rook),
                'b' => Some(PieceKind::Bishop),
                'n' => Some(PieceKind::Knight),
                _ => None,
            },
            KeyCode::Esc => {
                self.cursor.drop_pick();
                self.info("put back");
                return true;
            }
            _ => None,
        };
        match kind.and_then(|k| self.cursor.promote(k)) {
            Some(text) => self.play_chosen(&text),
            None => self.error("promote to? q, r, b or n (Enter: queen, Esc: put back)"),
        }
        true
    }

    /// Plays a move chosen on the board as if it were typed (the same refusals).
    fn play_chosen(&mut self, text: &str) {
        // Refused (the engine thinks, the game is over): the piece stays picked.
        if self.enter_move(text) {
            self.cursor.played();
        }
    }
}
