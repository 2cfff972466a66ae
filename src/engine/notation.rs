//! Coordinate (`e2e4`, `e7e8q`) and SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) moves ⇄ `Move`.
//! STUB: interface agreed with the front ends.

use super::board::Board;
use super::types::Move;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The text is not a move at all (`z9: not a square`).
    #[error("{0}")]
    Syntax(String),
    /// The text is a move, but not legal here (`e2e5: not a legal move for the pawn on e2`).
    #[error("{0}")]
    Illegal(String),
}

impl Board {
    /// Parses coordinate notation and checks it against this position.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == t)
            .ok_or_else(|| MoveParseError::Illegal(format!("{t}: not a legal move")))
    }
}
