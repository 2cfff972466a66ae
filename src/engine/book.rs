//! The opening book (seed 004). STUB: interface agreed with the search and the front ends.

use super::board::Board;
use super::types::Move;

/// A move the book offers, with the name of the opening it leads into.
#[derive(Clone, Debug, PartialEq)]
pub struct BookMove {
    pub mv: Move,
    pub name: String,
}

/// The built-in named lines, optionally backed by a Polyglot `.bin` file.
#[derive(Clone, Debug, Default)]
pub struct Book {}

impl Book {
    /// The seed's named lines and the common openings' main lines.
    pub fn builtin() -> Book {
        Book {}
    }

    /// A book move for this position, if any. `random`: a seed for weighted-random choice;
    /// `None` picks the best-weighted move.
    pub fn probe(&self, board: &Board, random: Option<u64>) -> Option<BookMove> {
        let _ = (board, random);
        None
    }

    /// The name of the opening the game is in: the latest named position along the board's
    /// history (so it stays known after leaving book).
    pub fn opening_name(&self, board: &Board) -> Option<String> {
        let _ = board;
        None
    }
}
