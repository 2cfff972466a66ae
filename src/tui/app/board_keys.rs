//! The hub's side of looking back through the game (`browse`) and of the board cursor
//! (`cursor`): which keys they take, what the rest of the screen does meanwhile, and how a
//! move chosen on the board is played (as if typed, with the same checks and messages).
//!
//! Rules, as the help and docs/commands.md say them: ← and → step through the game while
//! the input line has the focus and is empty (a focused pane keeps its own arrows); End or
//! Esc returns to the game, and so does typing: a move is always typed against the position
//! on the board. While the board cursor is on (Ctrl+P) and the input line is empty, the
//! arrows, Enter, Space and Esc are the cursor's.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::browse::StepEnd;
use super::cursor::Choice;
use super::text::position_text;
use super::{App, Pane};
use crate::chess::{PieceKind, Square};

impl App {
    // ---- looking back through the game -------------------------------------------------

    /// The number of moves leading to the position on show, while it is an earlier one.
    pub fn viewing(&self) -> Option<usize> {
        self.browse.ply()
    }

    /// ← / → on an empty input line: the board shows the position a move earlier or later.
    pub(super) fn step_game(&mut self, forward: bool) {
        if self.explorer.is_open() {
            self.info("the tree browser shows its own position (Esc closes it)");
            return;
        }
        self.cursor.stop();
        match self
            .browse
            .step(self.play.game(), forward, self.prefs.settings().order)
        {
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
        if !self.browse.is_viewing() || self.screen.focus() != Pane::Input {
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

    // ---- the board cursor ----------------------------------------------------------------

    /// Ctrl+P: the cursor on (on the side to move's king), or off.
    pub(super) fn toggle_cursor(&mut self) {
        if self.cursor.is_on() {
            self.cursor.stop();
            self.info("board cursor off");
            return;
        }
        self.browse.leave();
        self.close_tree();
        self.screen.focus_on(Pane::Input);
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
        if !self.cursor.is_on() || self.screen.focus() != Pane::Input {
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
