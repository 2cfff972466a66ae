//! Polyglot `.bin` opening books: 16-byte big-endian entries (key u64, move u16, weight u16,
//! learn u32), sorted by key. The key is the Polyglot Zobrist hash, which `Board::hash`
//! computes with the published constants, so the file is probed with the board's own key.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use super::entry::{BookError, MoveKey, WeightedMove};
use crate::chess::board::Board;
use crate::chess::types::{Color, MoveList, PieceKind, Square};

const ENTRY_BYTES: u64 = 16;

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    mv: MoveKey,
    weight: u16,
}

/// A whole Polyglot file, read and checked once, kept in memory sorted by key.
#[derive(Debug)]
pub(super) struct Polyglot {
    path: PathBuf,
    entries: Vec<Entry>,
}

impl Polyglot {
    /// Reads and checks the whole file: its length, the key order and every move.
    pub(super) fn open(path: &Path) -> Result<Polyglot, BookError> {
        let io = |error| BookError::Io {
            path: path.to_path_buf(),
            error,
        };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len == 0 {
            return Err(BookError::Empty {
                path: path.to_path_buf(),
            });
        }
        if len % ENTRY_BYTES != 0 {
            return Err(BookError::Truncated {
                path: path.to_path_buf(),
                len,
            });
        }
        let count = len / ENTRY_BYTES;
        let mut reader = BufReader::with_capacity(1 << 16, file);
        // The length is only a hint for the allocation: the file could change under us.
        let mut entries = Vec::with_capacity(count.min(1 << 20) as usize);
        let mut buf = [0u8; ENTRY_BYTES as usize];
        let mut previous = 0u64;
        for index in 0..count {
            reader.read_exact(&mut buf).map_err(io)?;
            let [k0, k1, k2, k3, k4, k5, k6, k7, m0, m1, w0, w1, ..] = buf;
            let key = u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]);
            let raw = u16::from_be_bytes([m0, m1]);
            let weight = u16::from_be_bytes([w0, w1]);
            if key < previous {
                return Err(BookError::Unsorted {
                    path: path.to_path_buf(),
                    index,
                    key,
                });
            }
            previous = key;
            let mv = decode(raw).map_err(|reason| BookError::BadMove {
                path: path.to_path_buf(),
                index,
                raw,
                reason,
            })?;
            entries.push(Entry { key, mv, weight });
        }
        Ok(Polyglot {
            path: path.to_path_buf(),
            entries,
        })
    }

    pub(super) fn path(&self) -> &Path {
        &self.path
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The file's legal moves for this position, equal moves merged (weights added).
    pub(super) fn moves(&self, board: &Board, legal: &MoveList) -> Vec<WeightedMove> {
        let key = board.hash();
        let start = self.entries.partition_point(|e| e.key < key);
        let mut out: Vec<WeightedMove> = Vec::new();
        for e in self.entries[start..].iter().take_while(|e| e.key == key) {
            let Some(mv) = castling_as_king_move(board, e.mv).find(legal) else {
                continue;
            };
            let weight = u32::from(e.weight);
            match out.iter_mut().find(|w| w.mv == mv) {
                Some(w) => w.weight = w.weight.saturating_add(weight),
                None => out.push(WeightedMove { mv, weight }),
            }
        }
        out
    }
}

/// Polyglot's move word: to square in bits 0-5, from square in bits 6-11 (file in the low
/// three bits, rank in the next three, a1 = 0), promotion in bits 12-14 (0 none, 1 knight,
/// 2 bishop, 3 rook, 4 queen). Anything else cannot come from a real book.
fn decode(raw: u16) -> Result<MoveKey, &'static str> {
    if raw & 0x8000 != 0 {
        return Err("bit 15 is set");
    }
    let to = Square::from_index64(usize::from(raw & 0x3F));
    let from = Square::from_index64(usize::from((raw >> 6) & 0x3F));
    let promotion = match (raw >> 12) & 0x7 {
        0 => None,
        1 => Some(PieceKind::Knight),
        2 => Some(PieceKind::Bishop),
        3 => Some(PieceKind::Rook),
        4 => Some(PieceKind::Queen),
        _ => return Err("promotion code above 4"),
    };
    if from == to {
        return Err("from and to are the same square");
    }
    if promotion.is_some()
        && !((from.rank() == 6 && to.rank() == 7) || (from.rank() == 1 && to.rank() == 0))
    {
        return Err("a promotion that does not reach the last rank");
    }
    Ok(MoveKey {
        from,
        to,
        promotion,
    })
}

/// Polyglot writes castling as the king taking its own rook (e1h1, e1a1, e8h8, e8a8); our
/// move generator moves the king two squares (e1g1, e1c1...). Only a king of the side to move
/// standing on its start square is translated: a queen or rook may legally play e1h1.
fn castling_as_king_move(board: &Board, mv: MoveKey) -> MoveKey {
    let home_rank = match board.side_to_move() {
        Color::White => 0,
        Color::Black => 7,
    };
    let is_king = board
        .piece_at(mv.from)
        .is_some_and(|p| p.kind() == PieceKind::King && p.color() == board.side_to_move());
    if !is_king || mv.from != Square::new(4, home_rank) || mv.to.rank() != home_rank {
        return mv;
    }
    let to = match mv.to.file() {
        7 => Square::new(6, home_rank),
        0 => Square::new(2, home_rank),
        _ => return mv,
    };
    MoveKey { to, ..mv }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_move_word() {
        // e2e4: from e2 (index 12), to e4 (index 28).
        let m = decode(12 << 6 | 28).unwrap();
        assert_eq!(
            (m.from.to_string(), m.to.to_string(), m.promotion),
            ("e2".into(), "e4".into(), None)
        );
        // a7a8 promoting to a knight (1) and to a queen (4).
        let n = decode(1 << 12 | 48 << 6 | 56).unwrap();
        assert_eq!(n.promotion, Some(PieceKind::Knight));
        assert_eq!(
            decode(4 << 12 | 48 << 6 | 56).unwrap().promotion,
            Some(PieceKind::Queen)
        );
        assert_eq!(
            decode(5 << 12 | 48 << 6 | 56),
            Err("promotion code above 4")
        );
        assert_eq!(
            decode(4 << 12 | 12 << 6 | 28),
            Err("a promotion that does not reach the last rank")
        );
        assert_eq!(decode(12 << 6 | 12), Err("from and to are the same square"));
        assert_eq!(decode(0x8000 | 12 << 6 | 28), Err("bit 15 is set"));
    }

    #[test]
    fn castling_is_translated_only_for_the_king() {
        let b = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
        let e1h1 = decode(4 << 6 | 7).unwrap();
        assert_eq!(castling_as_king_move(&b, e1h1).to.to_string(), "g1");
        let e1a1 = decode(4 << 6).unwrap();
        assert_eq!(castling_as_king_move(&b, e1a1).to.to_string(), "c1");
        // A queen on e1 moving to h1 stays a queen move.
        let q = Board::from_fen("7k/8/8/8/8/8/8/K3Q3 w - - 0 1").unwrap();
        assert_eq!(castling_as_king_move(&q, e1h1).to.to_string(), "h1");
    }
}
