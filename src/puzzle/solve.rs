//! Solving one puzzle: the opponent's move is played, then each answer is judged. A right
//! answer brings the opponent's reply; a wrong one is not played (the front end shows why
//! it fails) and the solver may retry or ask for the solution. Any move that mates counts
//! as right, as on lichess. Only a first try without a mistake or a look at the solution
//! counts as solved for the rating.

use super::{Checked, Puzzle, PuzzleError};
use crate::chess::{Board, Color, Move};

/// What an answer did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Right, and the opponent replied with this move; the puzzle goes on.
    Right { reply: Move },
    /// Right, and the puzzle is solved.
    Solved,
    /// Not the solution: the position is as before; `expected` is what would have won.
    Wrong { played: Move, expected: Move },
    /// The puzzle is already over (solved or shown).
    Over,
}

/// A puzzle being solved.
#[derive(Clone, Debug)]
pub struct Solving {
    puzzle: Puzzle,
    checked: Checked,
    /// The index in `checked.moves` of the solver's next move.
    next: usize,
    board: Board,
    mistakes: u32,
    shown: bool,
}

impl Solving {
    /// Starts a puzzle: the opponent's move is played on its position.
    pub fn new(puzzle: Puzzle) -> Result<Solving, PuzzleError> {
        let checked = puzzle.check()?;
        let board = checked.solver_start();
        Ok(Solving {
            puzzle,
            checked,
            next: 1,
            board,
            mistakes: 0,
            shown: false,
        })
    }

    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The position the solver now faces (or the final one).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side the solver plays.
    pub fn solver(&self) -> Color {
        self.checked.board.side_to_move().flip()
    }

    /// The opponent's move that set the puzzle.
    pub fn opening_move(&self) -> Move {
        self.checked.moves[0]
    }

    pub fn is_over(&self) -> bool {
        self.next >= self.checked.moves.len()
    }

    /// Wrong answers so far.
    pub fn mistakes(&self) -> u32 {
        self.mistakes
    }

    /// Whether the solution was shown.
    pub fn was_shown(&self) -> bool {
        self.shown
    }

    /// Solved at the first try: no wrong answer, no look at the solution (what the
    /// rating counts). `None` while the puzzle goes on.
    pub fn clean_solve(&self) -> Option<bool> {
        self.is_over().then_some(self.mistakes == 0 && !self.shown)
    }

    /// Solver moves played right, and how many the solution has.
    pub fn progress(&self) -> (usize, usize) {
        (self.next / 2, self.checked.moves.len() / 2)
    }

    /// Judges an answer (which must be legal here; the front end parses it).
    pub fn answer(&mut self, mv: Move) -> Answer {
        if self.is_over() {
            return Answer::Over;
        }
        let expected = self.checked.moves[self.next];
        let mut after = self.board.clone();
        after.make(mv);
        let mates = after.in_check() && !after.has_legal_move();
        if mv != expected && !mates {
            self.mistakes += 1;
            return Answer::Wrong {
                played: mv,
                expected,
            };
        }
        self.board = after;
        if mates {
            self.next = self.checked.moves.len();
            return Answer::Solved;
        }
        self.next += 1;
        match self.checked.moves.get(self.next).copied() {
            None => Answer::Solved,
            Some(reply) => {
                self.board.make(reply);
                self.next += 1;
                Answer::Right { reply }
            }
        }
    }

    /// The rest of the solution from here (the solver's moves and the replies), and the
    /// puzzle ends: the board shows the final position.
    pub fn show(&mut self) -> Vec<Move> {
        let rest: Vec<Move> =
            self.checked.moves[self.next.min(self.checked.moves.len())..].to_vec();
        if !rest.is_empty() {
            self.shown = true;
        }
        for &m in &rest {
            self.board.make(m);
        }
        self.next = self.checked.moves.len();
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::test_puzzle;

    fn solving(fen: &str, moves: &str) -> Solving {
        Solving::new(test_puzzle(fen, moves)).unwrap()
    }

    fn mv(s: &Solving, text: &str) -> Move {
        s.board().parse_move(text).unwrap()
    }

    /// A fork in two moves: Nc7+ Kd7 Nxa8.
    const FORK: (&str, &str) = (
        "r3k3/pp3ppp/8/1N6/8/8/PPP2PPP/4K3 b - - 0 20",
        "h7h6 b5c7 e8d7 c7a8",
    );

    #[test]
    fn right_answers_bring_the_reply_until_solved() {
        let mut s = solving(FORK.0, FORK.1);
        assert_eq!(s.solver(), Color::White);
        assert_eq!(s.progress(), (0, 2));
        let a = s.answer(mv(&s, "Nc7+"));
        assert_eq!(
            a,
            Answer::Right {
                reply: s.board().last_move().unwrap()
            }
        );
        assert_eq!(s.progress(), (1, 2));
        assert_eq!(s.answer(mv(&s, "Nxa8")), Answer::Solved);
        assert!(s.is_over());
        assert_eq!(s.clean_solve(), Some(true));
        assert_eq!(s.answer(Move::NONE), Answer::Over);
    }

    #[test]
    fn a_wrong_answer_is_not_played_and_may_be_retried() {
        let mut s = solving(FORK.0, FORK.1);
        let before = s.board().to_fen();
        let wrong = mv(&s, "a3");
        assert!(matches!(s.answer(wrong), Answer::Wrong { played, .. } if played == wrong));
        assert_eq!(s.board().to_fen(), before);
        assert!(matches!(s.answer(mv(&s, "Nc7+")), Answer::Right { .. }));
        assert_eq!(s.answer(mv(&s, "Nxa8")), Answer::Solved);
        assert_eq!(
            s.clean_solve(),
            Some(false),
            "a mistake on the way is not a clean solve"
        );
    }

    #[test]
    fn showing_the_solution_plays_it_out_and_counts_as_not_solved() {
        let mut s = solving(FORK.0, FORK.1);
        let rest = s.show();
        assert_eq!(
            rest.iter().map(|m| m.uci()).collect::<Vec<_>>(),
            ["b5c7", "e8d7", "c7a8"]
        );
        assert!(s.is_over() && s.was_shown());
        assert_eq!(s.clean_solve(), Some(false));
    }

    #[test]
    fn any_mate_is_right() {
        // Two rooks: the puzzle lists Ra8#, but Rb8# mates as well.
        let mut s = solving("6k1/8/6K1/8/8/8/RR6/8 b - - 0 1", "g8h8 a2a8");
        assert_eq!(s.answer(mv(&s, "Rb8#")), Answer::Solved);
        assert_eq!(s.clean_solve(), Some(true));
    }
}
