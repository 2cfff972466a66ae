//! The opening book (seed 004, "Öppningsspel"): the seed's named lines and the main lines of
//! the common openings, found by position so that transpositions hit, and optionally a
//! Polyglot `.bin` book.
//!
//! The seed keeps its library as strings of concatenated coordinate moves with a name
//! (`"e2e4e7e5g1f3b8c6f1b5", "Ruy Lopez"`) and looks a game up by comparing the moves played so
//! far with the start of each string. That misses transpositions: 1.c4 e6 2.Nc3 Nf6 3.d4 Bb4
//! is the Nimzo-Indian, whatever the string says. We keep the seed's text format, which is
//! what makes the library "easy for anyone to extend" (seed 004), but replay every line once
//! on a real board and index the positions it passes by their Zobrist key (Polyglot layout):
//! position → the moves the lines continue with, weighted by how many lines do; position → the
//! name of the opening, for every position a line ends in. Book moves are stored as
//! from/to/promotion and matched against the legal moves of the position asked about, so
//! neither a hash collision nor a damaged Polyglot file can ever produce an illegal move.

mod entry;
mod polyglot;

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use self::entry::MoveKey;
pub use self::entry::{BookError, WeightedMove};
use self::polyglot::Polyglot;
use crate::chess::board::Board;
use crate::chess::types::{Move, MoveList, PieceKind, Square};

/// The built-in lines, in the seed's format: one line per row, the moves concatenated in
/// coordinate notation, then the name of the opening they reach. A move followed by `?` is
/// known to the book (the position after it is named, and the book answers it) but never
/// chosen by the book itself. `#` starts a comment row. `scripts/check_book.py` proof-reads it.
pub const BUILTIN_LINES: &str = include_str!("book/lines.txt");

/// A move the book offers, with the name of the opening it leads into (empty only when no
/// named line reaches or precedes the position, which can happen with a Polyglot book).
#[derive(Clone, Debug, PartialEq)]
pub struct BookMove {
    pub mv: Move,
    pub name: String,
}

/// The built-in lines, indexed by position.
#[derive(Default)]
struct Lines {
    /// Position key → the moves lines continue with, in the order the rows first give them,
    /// and how many lines do.
    moves: HashMap<u64, Vec<(MoveKey, u32)>>,
    /// Position key → the name of the opening, for every position some line ends in.
    names: HashMap<u64, String>,
    lines: usize,
}

/// One line replayed on a board: for each ply the position key before it, the move and
/// whether the book may choose it.
struct Replayed<'a> {
    name: &'a str,
    steps: Vec<(u64, MoveKey, bool)>,
    end: u64,
}

impl Lines {
    /// Builds the index from rows in the seed's format. Rows that fail are left out and
    /// reported; a name conflict keeps the first name (and is reported).
    fn build(text: &str) -> (Lines, Vec<BookError>) {
        let mut lines = Lines::default();
        let mut errors = Vec::new();
        let mut named_by: HashMap<u64, usize> = HashMap::new();
        for (i, raw) in text.lines().enumerate() {
            let row = i + 1;
            let t = raw.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let line = match replay(row, t) {
                Ok(line) => line,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            lines.lines += 1;
            for &(key, mv, played) in &line.steps {
                if !played {
                    continue;
                }
                let list = lines.moves.entry(key).or_default();
                match list.iter_mut().find(|(k, _)| *k == mv) {
                    Some((_, weight)) => *weight += 1,
                    None => list.push((mv, 1)),
                }
            }
            match lines.names.get(&line.end) {
                Some(other) if other != line.name => errors.push(BookError::NameConflict {
                    row,
                    name: line.name.to_string(),
                    other_row: named_by.get(&line.end).copied().unwrap_or(0),
                    other: other.clone(),
                }),
                Some(_) => {}
                None => {
                    lines.names.insert(line.end, line.name.to_string());
                    named_by.insert(line.end, row);
                }
            }
        }
        (lines, errors)
    }

    fn moves(&self, key: u64, legal: &MoveList) -> Vec<WeightedMove> {
        let Some(list) = self.moves.get(&key) else {
            return Vec::new();
        };
        list.iter()
            .filter_map(|&(k, weight)| k.find(legal).map(|mv| WeightedMove { mv, weight }))
            .collect()
    }

    fn position_count(&self) -> usize {
        self.moves.len()
    }
}

/// Replays one row (`moves name`) from the start position, checking every move against the
/// legal moves of the position it is played in.
fn replay(row: usize, text: &str) -> Result<Replayed<'_>, BookError> {
    let (token, name) = text
        .split_once(char::is_whitespace)
        .map(|(t, n)| (t, n.trim()))
        .filter(|(_, n)| !n.is_empty())
        .ok_or_else(|| BookError::Row {
            row,
            reason: format!("'{text}': expected the moves, then the opening's name"),
        })?;
    let mut board = Board::startpos();
    let mut steps = Vec::new();
    let mut rest = token;
    while !rest.is_empty() {
        let ply = steps.len() + 1;
        let fail = |reason: String| BookError::Line {
            row,
            name: name.to_string(),
            ply,
            reason,
        };
        let squares = rest
            .get(0..2)
            .zip(rest.get(2..4))
            .and_then(|(f, t)| Some((f.parse::<Square>().ok()?, t.parse::<Square>().ok()?)));
        let Some((from, to)) = squares else {
            let shown: String = rest.chars().take(4).collect();
            return Err(fail(format!(
                "'{shown}' is not a coordinate move such as e2e4"
            )));
        };
        rest = &rest[4..];
        let legal = board.legal_moves();
        // A pawn reaching the last rank needs its promotion letter (`e7e8q`); nothing else
        // may carry one, so the concatenated format stays unambiguous.
        let promotes = legal
            .iter()
            .any(|m| m.from() == from && m.to() == to && m.promotion().is_some());
        let promotion = if promotes {
            let kind = rest.chars().next().and_then(PieceKind::from_letter);
            match kind {
                Some(k) if PieceKind::PROMOTIONS.contains(&k) => {
                    rest = &rest[1..];
                    Some(k)
                }
                _ => return Err(fail(format!("{from}{to} promotes: add q, r, b or n"))),
            }
        } else {
            None
        };
        let key = MoveKey {
            from,
            to,
            promotion,
        };
        let Some(mv) = key.find(&legal) else {
            return Err(fail(format!(
                "{from}{to} is not a legal move in {}",
                board.to_fen()
            )));
        };
        let played = match rest.strip_prefix('?') {
            Some(r) => {
                rest = r;
                false
            }
            None => true,
        };
        steps.push((board.hash(), key, played));
        board.make(mv);
    }
    if steps.is_empty() {
        return Err(BookError::Row {
            row,
            reason: format!("'{text}': the line has no moves"),
        });
    }
    Ok(Replayed {
        name,
        steps,
        end: board.hash(),
    })
}

/// The built-in lines (seed 004 and the common openings), optionally backed by a Polyglot
/// `.bin` book. Cloning is cheap: the tables are shared. `Book::default()` is an empty book.
#[derive(Clone, Default)]
pub struct Book {
    lines: Arc<Lines>,
    polyglot: Option<Arc<Polyglot>>,
}

impl Book {
    /// The seed's named lines and the common openings' main lines. Built once per process
    /// (about a thousand lines replayed on a board), then shared.
    pub fn builtin() -> Book {
        static BUILTIN: OnceLock<Arc<Lines>> = OnceLock::new();
        // The rows are checked by `tests/engine/book.rs`; a row that failed would only be left out.
        let lines = BUILTIN.get_or_init(|| Arc::new(Lines::build(BUILTIN_LINES).0));
        Book {
            lines: Arc::clone(lines),
            polyglot: None,
        }
    }

    /// A book from rows in the built-in format (see [`BUILTIN_LINES`]); the first bad row,
    /// illegal move or name conflict is an error.
    pub fn from_lines(text: &str) -> Result<Book, BookError> {
        let (lines, errors) = Lines::build(text);
        match errors.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(Book {
                lines: Arc::new(lines),
                polyglot: None,
            }),
        }
    }

    /// The built-in book backed by a Polyglot `.bin` file: the file's moves come first, the
    /// built-in lines answer where the file has none, and names come from the built-in lines.
    pub fn with_polyglot(path: impl AsRef<Path>) -> Result<Book, BookError> {
        Book::builtin().and_polyglot(path)
    }

    /// This book backed by a Polyglot `.bin` file (see [`Book::with_polyglot`]); on
    /// `Book::default()` it gives a Polyglot-only book. The whole file is read and checked
    /// now: a missing, truncated, unsorted or damaged file is an error.
    pub fn and_polyglot(self, path: impl AsRef<Path>) -> Result<Book, BookError> {
        let polyglot = Polyglot::open(path.as_ref())?;
        Ok(Book {
            polyglot: Some(Arc::new(polyglot)),
            ..self
        })
    }

    /// The legal book moves for this position with their weights, best first (ties keep the
    /// book's order). From the Polyglot file if it has any here, else from the built-in lines.
    /// Moves of weight 0 are never offered (the Polyglot convention).
    pub fn moves(&self, board: &Board) -> Vec<WeightedMove> {
        let legal = board.legal_moves();
        let mut moves = self
            .polyglot
            .as_ref()
            .map(|p| p.moves(board, &legal))
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| self.lines.moves(board.hash(), &legal));
        moves.retain(|m| m.weight > 0);
        moves.sort_by_key(|m| std::cmp::Reverse(m.weight));
        moves
    }

    /// A book move for this position, if any. `random`: a seed for weighted-random choice
    /// (the same seed in the same position always gives the same move); `None` picks the
    /// best-weighted move.
    pub fn probe(&self, board: &Board, random: Option<u64>) -> Option<BookMove> {
        let moves = self.moves(board);
        let mv = choose(&moves, random.map(|seed| seed ^ board.hash()))?;
        let mut after = board.clone();
        after.make(mv);
        Some(BookMove {
            mv,
            name: self.opening_name(&after).unwrap_or_default(),
        })
    }

    /// The name of the opening the game is in: the latest named position along the board's
    /// history (so it stays known after leaving book, and after transpositions).
    pub fn opening_name(&self, board: &Board) -> Option<String> {
        std::iter::once(board.hash())
            .chain(board.history_hashes())
            .find_map(|key| self.lines.names.get(&key))
            .cloned()
    }

    /// Number of built-in (or `from_lines`) lines.
    pub fn line_count(&self) -> usize {
        self.lines.lines
    }

    /// Number of distinct positions the lines give a move for.
    pub fn position_count(&self) -> usize {
        self.lines.position_count()
    }

    /// The Polyglot file backing this book, if any.
    pub fn polyglot_path(&self) -> Option<&Path> {
        self.polyglot.as_ref().map(|p| p.path())
    }
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book")
            .field("lines", &self.lines.lines)
            .field("positions", &self.lines.position_count())
            .field("names", &self.lines.names.len())
            .field(
                "polyglot",
                &self.polyglot.as_ref().map(|p| (p.path(), p.len())),
            )
            .finish()
    }
}

impl fmt::Display for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} named lines", self.lines.lines)?;
        if let Some(p) = &self.polyglot {
            write!(f, " + {} ({} entries)", p.path().display(), p.len())?;
        }
        Ok(())
    }
}

/// Picks a move: the first (best) one, or with a seed one drawn with probability
/// proportional to its weight.
fn choose(moves: &[WeightedMove], seed: Option<u64>) -> Option<Move> {
    let Some(seed) = seed else {
        return moves.first().map(|m| m.mv);
    };
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    if total == 0 {
        return None;
    }
    // Scale a 64-bit draw onto 0..total with a multiply (no modulo bias worth the name).
    let mut pick = ((u128::from(splitmix64(seed)) * u128::from(total)) >> 64) as u64;
    for m in moves {
        let w = u64::from(m.weight);
        if pick < w {
            return Some(m.mv);
        }
        pick -= w;
    }
    moves.last().map(|m| m.mv)
}

/// SplitMix64 (Steele, Lea and Flood's published finaliser): a tiny, well-mixed, fully
/// deterministic generator, so a seed means the same choice on every run and machine.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wm(b: &Board, uci: &str, weight: u32) -> WeightedMove {
        let mv = b
            .legal_moves()
            .iter()
            .copied()
            .find(|m| m.to_string() == uci)
            .unwrap();
        WeightedMove { mv, weight }
    }

    #[test]
    fn choose_follows_the_weights() {
        let b = Board::startpos();
        let moves = [wm(&b, "e2e4", 3), wm(&b, "d2d4", 1)];
        assert_eq!(choose(&moves, None), Some(moves[0].mv));
        let mut counts = [0u32; 2];
        for seed in 0..4000 {
            let m = choose(&moves, Some(seed)).unwrap();
            counts[usize::from(m != moves[0].mv)] += 1;
        }
        // 3:1 by weight; SplitMix64 over 4000 consecutive seeds lands well inside ±5%.
        assert!((2800..3200).contains(&counts[0]), "{counts:?}");
        assert_eq!(choose(&[], Some(7)), None);
        assert_eq!(choose(&[], None), None);
    }

    #[test]
    fn rows_are_parsed_with_marks_and_promotions() {
        let (lines, errors) = Lines::build("# comment\n\n  e2e4?e7e5  Open Game \n");
        assert!(errors.is_empty(), "{errors:?}");
        let start = Board::startpos();
        assert!(
            !lines.moves.contains_key(&start.hash()),
            "e2e4? must not be playable"
        );
        assert_eq!(lines.lines, 1);
        assert_eq!(
            lines.names.values().next().map(String::as_str),
            Some("Open Game")
        );

        // A promotion needs its letter; a letter where there is no promotion is an error.
        let promo = "a2a4b7b5a4b5a7a6b5a6c8b7a6b7b8c6b7a8q Promotion Test";
        let (lines, errors) = Lines::build(promo);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(lines.lines, 1);
        let (_, errors) = Lines::build("a2a4b7b5a4b5a7a6b5a6c8b7a6b7b8c6b7a8 No Letter");
        assert!(
            matches!(&errors[..], [BookError::Line { ply: 9, .. }]),
            "{errors:?}"
        );
    }
}
