//! What both sources of book moves speak (the built-in lines in `book.rs`, a Polyglot file in
//! `polyglot.rs`): the move as a book stores it ([`MoveKey`]), a legal move with its weight
//! ([`WeightedMove`]), and why a book could not be built or loaded ([`BookError`]). A leaf
//! below both.

use std::path::PathBuf;

use crate::chess::types::{Move, MoveList, PieceKind, Square};

/// A legal book move and its weight (for the built-in lines: how many lines continue with it
/// here; for a Polyglot book: the file's weight).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightedMove {
    pub mv: Move,
    pub weight: u32,
}

/// Why a book could not be built or loaded. Each says which file or row, and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("opening book {}: cannot read it: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("opening book {}: the file is empty", path.display())]
    Empty { path: PathBuf },
    #[error(
        "opening book {}: {len} bytes is not a whole number of 16-byte Polyglot entries \
         (truncated, or not a Polyglot book)",
        path.display()
    )]
    Truncated { path: PathBuf, len: u64 },
    #[error(
        "opening book {}: entry {index} (key {key:#018x}) is smaller than the key before it; \
         a Polyglot book must be sorted by key",
        path.display()
    )]
    Unsorted { path: PathBuf, index: u64, key: u64 },
    #[error("opening book {}: entry {index} holds no possible move ({raw:#06x}: {reason})", path.display())]
    BadMove {
        path: PathBuf,
        index: u64,
        raw: u16,
        reason: &'static str,
    },
    #[error("opening line {row}: {reason}")]
    Row { row: usize, reason: String },
    #[error("opening line {row} ({name}), ply {ply}: {reason}")]
    Line {
        row: usize,
        name: String,
        ply: usize,
        reason: String,
    },
    #[error("opening line {row} ({name}) reaches the position line {other_row} names '{other}'")]
    NameConflict {
        row: usize,
        name: String,
        other_row: usize,
        other: String,
    },
}

/// What a book stores of a move: from, to and promotion. Turned into a `Move` only by finding
/// it among the legal moves of the position asked about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct MoveKey {
    pub(super) from: Square,
    pub(super) to: Square,
    pub(super) promotion: Option<PieceKind>,
}

impl MoveKey {
    pub(super) fn of(m: Move) -> MoveKey {
        MoveKey {
            from: m.from(),
            to: m.to(),
            promotion: m.promotion(),
        }
    }

    pub(super) fn find(self, legal: &MoveList) -> Option<Move> {
        legal.iter().copied().find(|&m| MoveKey::of(m) == self)
    }
}
