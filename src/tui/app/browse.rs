//! Looking back through the game without taking moves back: which earlier position the
//! board shows (← and → on an empty input line), kept apart from the game so that the
//! engine, the clocks and the autosave go on with the position actually reached. Drawing
//! reads the viewed position through the hub (`App::shown_board`); the sort pane is told
//! of it and shows its moves.

use crate::chess::Board;
use crate::game::Game;

/// An earlier position on show: how many moves of the game lead to it, and the position.
#[derive(Clone, Debug)]
struct Viewed {
    ply: usize,
    board: Board,
}

/// The position being looked at, if not the game's own.
#[derive(Clone, Debug, Default)]
pub struct Browse {
    viewed: Option<Viewed>,
}

/// Why a step went nowhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepEnd {
    /// Already at the game's first position.
    AtStart,
    /// Already at the game's position (nothing is ahead of it).
    AtLive,
}

impl Browse {
    /// The number of moves leading to the position on show, while it is not the game's own.
    pub fn ply(&self) -> Option<usize> {
        self.viewed.as_ref().map(|v| v.ply)
    }

    pub fn board(&self) -> Option<&Board> {
        self.viewed.as_ref().map(|v| &v.board)
    }

    pub fn is_viewing(&self) -> bool {
        self.viewed.is_some()
    }

    /// One move back (or forward) from the position on show, within the moves played so far
    /// (the game's cursor). A step forward onto the game's own position ends the viewing.
    pub fn step(&mut self, game: &Game, forward: bool) -> Result<(), StepEnd> {
        let live = game.ply();
        let now = self.ply().unwrap_or(live).min(live);
        let to = if forward {
            if now >= live {
                return Err(StepEnd::AtLive);
            }
            now + 1
        } else {
            if now == 0 {
                return Err(StepEnd::AtStart);
            }
            now - 1
        };
        if to == live {
            self.viewed = None;
            return Ok(());
        }
        let board = game.position_at(to).ok_or(StepEnd::AtLive)?;
        self.viewed = Some(Viewed { ply: to, board });
        Ok(())
    }

    /// Back to the game's own position; true when an earlier one was on show.
    pub fn leave(&mut self) -> bool {
        self.viewed.take().is_some()
    }

    /// After the game changed (a move, a takeback, another game): the viewing ends unless
    /// the position on show is still the game's position after as many moves, and before
    /// its current one.
    pub fn follow(&mut self, game: &Game) -> bool {
        let Some(v) = &self.viewed else {
            return false;
        };
        let same = v.ply < game.ply()
            && game
                .position_at(v.ply)
                .is_some_and(|b| b.hash() == v.board.hash());
        if !same {
            self.viewed = None;
        }
        !same
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_of(moves: &[&str]) -> Game {
        let mut g = Game::new();
        for m in moves {
            g.play_text(m).unwrap();
        }
        g
    }

    #[test]
    fn steps_stay_within_the_moves_played_and_end_at_the_game() {
        let game = game_of(&["e4", "e5", "Nf3"]);
        let mut b = Browse::default();
        assert_eq!(b.step(&game, true), Err(StepEnd::AtLive));
        b.step(&game, false).unwrap();
        assert_eq!(b.ply(), Some(2));
        b.step(&game, false).unwrap();
        b.step(&game, false).unwrap();
        assert_eq!(b.ply(), Some(0));
        assert_eq!(b.board(), Some(&Board::startpos()));
        assert_eq!(b.step(&game, false), Err(StepEnd::AtStart));
        for _ in 0..3 {
            b.step(&game, true).unwrap();
        }
        assert!(!b.is_viewing(), "the last step forward is the game itself");
    }

    #[test]
    fn a_takeback_below_the_position_on_show_ends_the_viewing() {
        let mut game = game_of(&["e4", "e5", "Nf3"]);
        let mut b = Browse::default();
        b.step(&game, false).unwrap();
        game.play_text("Nc6").ok();
        assert!(!b.follow(&game), "a move after it keeps the view");
        assert_eq!(b.ply(), Some(2));
        game.undo();
        game.undo();
        assert!(b.follow(&game), "the game is back at the viewed position");
        assert!(!b.is_viewing());
    }
}
