//! Moving without coordinates: a cursor on the board. The arrows move it, Enter or Space
//! picks the piece under it (its legal targets are marked) and then the square it goes to; a
//! pawn reaching the last rank asks for the piece (q, r, b or n; Enter takes a queen). This
//! part keeps where the cursor is and what is picked, and turns a choice into the move's
//! coordinates; the hub plays them as if typed, with the same checks and messages.

use crate::chess::{Board, Color, PieceKind, Square};

/// The cursor's state (off by default).
#[derive(Clone, Debug, Default)]
pub struct BoardCursor {
    /// Where the cursor is; `None` while it is off.
    at: Option<Square>,
    /// The square of the piece picked to move.
    picked: Option<Square>,
    /// A pawn's move to the last rank waiting for the piece it becomes.
    promoting: Option<(Square, Square)>,
}

/// What Enter or Space on the cursor's square did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A piece was picked: the sentence naming it and where it can go.
    Picked(String),
    /// The picked piece was put back.
    Dropped,
    /// A move to play, in coordinates (`e2e4`, `e7e8q`).
    Play(String),
    /// A pawn reaches the last rank: which piece?
    AskPromotion,
    /// Nothing to pick or nowhere to go: why.
    Refused(String),
}

impl BoardCursor {
    pub fn is_on(&self) -> bool {
        self.at.is_some()
    }

    pub fn square(&self) -> Option<Square> {
        self.at
    }

    pub fn is_promoting(&self) -> bool {
        self.promoting.is_some()
    }

    /// Turns the cursor on at `at`, nothing picked.
    pub fn start(&mut self, at: Square) {
        *self = BoardCursor {
            at: Some(at),
            ..BoardCursor::default()
        };
    }

    pub fn stop(&mut self) {
        *self = BoardCursor::default();
    }

    /// Puts the picked piece back (and forgets a promotion being asked); true when one was
    /// picked.
    pub fn drop_pick(&mut self) -> bool {
        self.promoting = None;
        self.picked.take().is_some()
    }

    /// Moves the cursor `files` right and `ranks` up as White sees the board, staying on it.
    pub fn shift(&mut self, files: i8, ranks: i8) {
        if let Some(at) = self.at {
            let file = (at.file() as i8 + files).clamp(0, 7) as u8;
            let rank = (at.rank() as i8 + ranks).clamp(0, 7) as u8;
            self.at = Some(Square::new(file, rank));
        }
    }

    /// Enter or Space on the cursor's square of `board`: picks the side to move's piece
    /// there, puts a picked piece back when it is chosen again, or plays the picked piece to
    /// the square.
    pub fn choose(&mut self, board: &Board) -> Choice {
        let Some(sq) = self.at else {
            return Choice::Refused("the board cursor is off".into());
        };
        if self.picked == Some(sq) {
            self.picked = None;
            return Choice::Dropped;
        }
        let side = board.side_to_move();
        let own = board.piece_at(sq).filter(|p| p.color() == side);
        if let Some(piece) = own {
            if board.legal_moves_from(sq).is_empty() {
                return Choice::Refused(board.move_hint(sq).unwrap_or_else(|| {
                    format!("the {} on {sq} cannot move", piece.kind().name())
                }));
            }
            self.picked = Some(sq);
            let hint = board
                .move_hint(sq)
                .unwrap_or_else(|| format!("the {} on {sq}", piece.kind().name()));
            return Choice::Picked(hint);
        }
        let Some(from) = self.picked else {
            return Choice::Refused(format!(
                "pick one of {}'s pieces: {}",
                side.name(),
                square_text(board, sq)
            ));
        };
        let moves: Vec<_> = board
            .legal_moves_from(from)
            .into_iter()
            .filter(|m| m.to() == sq)
            .collect();
        match moves.first() {
            None => Choice::Refused(format!(
                "not to {sq}: {}",
                board
                    .move_hint(from)
                    .unwrap_or_else(|| format!("nothing on {from} can move"))
            )),
            Some(m) if m.promotion().is_some() => {
                self.promoting = Some((from, sq));
                Choice::AskPromotion
            }
            Some(_) => Choice::Play(format!("{from}{sq}")),
        }
    }

    /// The piece for the waiting promotion: the move's coordinates (`e7e8n`), or `None`
    /// when none waits.
    pub fn promote(&mut self, kind: PieceKind) -> Option<String> {
        let (from, to) = self.promoting.take()?;
        Some(format!("{from}{to}{}", kind.letter().to_ascii_lowercase()))
    }

    /// The move was played: nothing is picked any more; the cursor stays where it is.
    pub fn played(&mut self) {
        self.picked = None;
        self.promoting = None;
    }

    /// The squares to mark: the picked piece's and its legal targets.
    pub fn marks(&self, board: &Board) -> Option<(Vec<Square>, Vec<Square>)> {
        let from = self.picked?;
        Some((vec![from], board.legal_targets(from)))
    }
}

/// `e4 is empty`, `e5 holds Black's pawn`.
fn square_text(board: &Board, sq: Square) -> String {
    match board.piece_at(sq) {
        None => format!("{sq} is empty"),
        Some(p) => {
            let owner = if p.color() == Color::White {
                "White"
            } else {
                "Black"
            };
            format!("{sq} holds {owner}'s {}", p.kind().name())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn a_piece_is_picked_then_played_to_a_legal_square() {
        let board = Board::startpos();
        let mut c = BoardCursor::default();
        c.start(sq("e2"));
        assert!(matches!(c.choose(&board), Choice::Picked(_)));
        assert_eq!(c.marks(&board).unwrap().1, vec![sq("e3"), sq("e4")]);
        c.shift(0, 3);
        assert_eq!(c.square(), Some(sq("e5")));
        assert!(matches!(c.choose(&board), Choice::Refused(_)));
        c.shift(0, -1);
        assert_eq!(c.choose(&board), Choice::Play("e2e4".into()));
        c.shift(-9, 9);
        assert_eq!(c.square(), Some(sq("a8")), "the cursor stays on the board");
    }

    #[test]
    fn the_other_sides_pieces_and_empty_squares_are_not_picked() {
        let board = Board::startpos();
        let mut c = BoardCursor::default();
        c.start(sq("e7"));
        assert_eq!(
            c.choose(&board),
            Choice::Refused("pick one of White's pieces: e7 holds Black's pawn".into())
        );
        c.start(sq("b1"));
        assert!(matches!(c.choose(&board), Choice::Picked(_)));
        assert_eq!(c.choose(&board), Choice::Dropped, "chosen again: put back");
    }

    #[test]
    fn a_pawn_on_the_seventh_asks_for_its_piece() {
        let board = Board::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut c = BoardCursor::default();
        c.start(sq("a7"));
        assert!(matches!(c.choose(&board), Choice::Picked(_)));
        c.shift(0, 1);
        assert_eq!(c.choose(&board), Choice::AskPromotion);
        assert_eq!(c.promote(PieceKind::Knight).as_deref(), Some("a7a8n"));
        assert_eq!(c.promote(PieceKind::Queen), None, "asked once");
    }
}
