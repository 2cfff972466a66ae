//! Puzzles: positions where one move wins, made by ox88 from games and solved by people.
//!
//! A puzzle is kept as a row of the lichess puzzle database (`file`): the position before
//! the opponent's move, then the moves in UCI, the opponent's first; the solver answers every
//! second move. `mine` finds them in games with a multi-PV search and checks each again on a
//! fresh engine with a larger budget; `themes` names what the solution does, read from its
//! own geometry; `difficulty` rates it from how ox88's levels fare with it, calibrated to
//! lichess players' ratings.

pub mod difficulty;
pub mod file;
pub mod games;
pub mod mine;
pub mod progress;
pub mod solve;
pub mod themes;

use crate::chess::{Board, Move};

/// The puzzle set built into the program (lichess's CSV columns), mined from ox88's own
/// games by `scripts/make-puzzles.sh`.
pub const SHIPPED_CSV: &str = include_str!("puzzles.csv");

/// The shipped puzzles.
pub fn shipped() -> Vec<Puzzle> {
    file::read(SHIPPED_CSV).expect("the shipped puzzle file is checked by the tests")
}

/// One puzzle, as a row of the lichess puzzle file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Puzzle {
    /// A short id, stable for the same position and moves.
    pub id: String,
    /// The position before the opponent's move that allows the solution.
    pub fen: String,
    /// The moves in UCI: the opponent's, then the solver's, the opponent's reply, and so on,
    /// ending with the solver's last move.
    pub moves: Vec<String>,
    pub rating: u32,
    pub rating_deviation: u32,
    /// Players' votes (lichess: −100..100); 0 for a puzzle nobody has rated.
    pub popularity: i32,
    pub plays: u32,
    /// Theme names as lichess spells them (`mateIn2`, `fork`, `endgame` …).
    pub themes: Vec<String>,
    /// Where the puzzle came from (a game's address, or `FILE#N` for the Nth game of a file).
    pub game_url: String,
    /// The opening family and variation, lichess style (`Sicilian_Defense …`).
    pub opening_tags: Vec<String>,
}

/// A puzzle checked against the rules: the start position and the moves as moves.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The position before the opponent's move.
    pub board: Board,
    pub moves: Vec<Move>,
}

impl Checked {
    /// The position the solver first sees (after the opponent's move).
    pub fn solver_start(&self) -> Board {
        let mut b = self.board.clone();
        b.make(self.moves[0]);
        b
    }

    /// The solver's moves, in order.
    pub fn solution(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves.iter().skip(1).step_by(2).copied()
    }
}

/// Why a puzzle cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    #[error("puzzle {id}: bad FEN: {why}")]
    Fen { id: String, why: String },
    #[error("puzzle {id}: move {number} ({text}) is not legal: {why}")]
    Move {
        id: String,
        number: usize,
        text: String,
        why: String,
    },
    #[error(
        "puzzle {id}: {count} moves; a puzzle has the opponent's move and at least one \
         answer, and ends on an answer (an even number)"
    )]
    Length { id: String, count: usize },
}

impl Puzzle {
    /// Checks the position and that every move is legal in turn.
    pub fn check(&self) -> Result<Checked, PuzzleError> {
        let board = Board::from_fen(&self.fen).map_err(|e| PuzzleError::Fen {
            id: self.id.clone(),
            why: e.to_string(),
        })?;
        if self.moves.len() < 2 || !self.moves.len().is_multiple_of(2) {
            return Err(PuzzleError::Length {
                id: self.id.clone(),
                count: self.moves.len(),
            });
        }
        let mut b = board.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let m = b.parse_uci_move(text).map_err(|e| PuzzleError::Move {
                id: self.id.clone(),
                number: i + 1,
                text: text.clone(),
                why: e.to_string(),
            })?;
            b.make(m);
            moves.push(m);
        }
        Ok(Checked { board, moves })
    }

    /// The number of moves the solver plays.
    pub fn solver_moves(&self) -> usize {
        self.moves.len() / 2
    }

    pub fn has_theme(&self, theme: &str) -> bool {
        self.themes.iter().any(|t| t.eq_ignore_ascii_case(theme))
    }
}

/// A five-letter id from the position and moves (FNV-1a, in base 62), the same every time
/// the same puzzle is found, so a puzzle mined twice is recognised.
pub fn puzzle_id(fen: &str, moves: &[String]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in fen.bytes().chain(moves.iter().flat_map(|m| m.bytes())) {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    const DIGITS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    (0..5)
        .map(|i| DIGITS[((h >> (i * 12)) % 62) as usize] as char)
        .collect()
}

/// A puzzle for the unit tests: `fen` and the space-separated UCI `moves`, its id made from
/// them, rated 1500 ± 350 with no votes, plays, themes, source or opening.
#[cfg(test)]
pub(crate) fn test_puzzle(fen: &str, moves: &str) -> Puzzle {
    let moves: Vec<String> = moves.split(' ').map(str::to_string).collect();
    Puzzle {
        id: puzzle_id(fen, &moves),
        fen: fen.into(),
        moves,
        rating: 1500,
        rating_deviation: 350,
        popularity: 0,
        plays: 0,
        themes: vec![],
        game_url: String::new(),
        opening_tags: vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_checks_its_moves_in_turn() {
        let p = test_puzzle(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "d8h4 f3h4",
        );
        let c = p.check().unwrap();
        assert_eq!(c.solution().map(|m| m.uci()).collect::<Vec<_>>(), ["f3h4"]);
        assert_eq!(c.solver_start().side_to_move(), crate::chess::Color::White);
        let bad = test_puzzle(&p.fen, "d8h4 f3h5");
        let e = bad.check().unwrap_err().to_string();
        assert!(e.contains("move 2 (f3h5)"), "{e}");
        let odd = test_puzzle(&p.fen, "d8h4");
        assert!(matches!(odd.check(), Err(PuzzleError::Length { .. })));
        let fen = test_puzzle("not a fen", "e2e4 e7e5");
        assert!(matches!(fen.check(), Err(PuzzleError::Fen { .. })));
    }

    #[test]
    fn ids_are_stable_and_tell_puzzles_apart() {
        let a = puzzle_id("x", &["e2e4".into()]);
        assert_eq!(a, puzzle_id("x", &["e2e4".into()]));
        assert_ne!(a, puzzle_id("x", &["e2e3".into()]));
        assert_eq!(a.len(), 5);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
    }
}
