//! A study's chapter as data: a tree of moves from one position, each move with what people
//! wrote on it (a comment, a glyph, marked squares and arrows, an evaluation).
//!
//! Moving where a move already exists follows it; a new move from a position that has one
//! starts a variation beside it. The first child of a node is its main line. Nodes are
//! numbered once and never renumbered ([`NodeId`]), so a cursor kept by someone else stays
//! valid until its node is deleted ([`StudyTree::contains`] says whether it still is).
//! Everything here is plain data with no clock, no rights and no server: the club decides
//! who may change a chapter, and `study/pgn.rs` writes and reads it as PGN with variations.

pub mod pgn;

use std::fmt;

use crate::chess::{Board, Move, Square};
use crate::engine::Score;

/// A node of the tree: the position after a move (the root is the start position).
pub type NodeId = usize;

/// The root: the chapter's start position.
pub const ROOT: NodeId = 0;

/// A move's glyph, as people write it after the move (PGN's NAGs 1 to 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Glyph {
    /// `!`
    Good,
    /// `?`
    Mistake,
    /// `!!`
    Brilliant,
    /// `??`
    Blunder,
    /// `!?`
    Interesting,
    /// `?!`
    Dubious,
}

impl Glyph {
    pub const ALL: [Glyph; 6] = [
        Glyph::Good,
        Glyph::Mistake,
        Glyph::Brilliant,
        Glyph::Blunder,
        Glyph::Interesting,
        Glyph::Dubious,
    ];

    /// How it is written: `!`, `?`, `!!`, `??`, `!?`, `?!`.
    pub const fn text(self) -> &'static str {
        match self {
            Glyph::Good => "!",
            Glyph::Mistake => "?",
            Glyph::Brilliant => "!!",
            Glyph::Blunder => "??",
            Glyph::Interesting => "!?",
            Glyph::Dubious => "?!",
        }
    }

    /// Its numeric annotation glyph (`$1` to `$6`).
    pub const fn nag(self) -> u8 {
        match self {
            Glyph::Good => 1,
            Glyph::Mistake => 2,
            Glyph::Brilliant => 3,
            Glyph::Blunder => 4,
            Glyph::Interesting => 5,
            Glyph::Dubious => 6,
        }
    }

    pub fn from_nag(nag: u8) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|g| g.nag() == nag)
    }

    pub fn from_text(text: &str) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|g| g.text() == text)
    }
}

impl fmt::Display for Glyph {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// The colour of a marked square or an arrow, by the letter lichess writes in `[%csl]` and
/// `[%cal]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    Green,
    Red,
    Yellow,
    Blue,
}

impl Mark {
    pub const ALL: [Mark; 4] = [Mark::Green, Mark::Red, Mark::Yellow, Mark::Blue];

    pub const fn letter(self) -> char {
        match self {
            Mark::Green => 'G',
            Mark::Red => 'R',
            Mark::Yellow => 'Y',
            Mark::Blue => 'B',
        }
    }

    pub fn from_letter(c: char) -> Option<Mark> {
        Mark::ALL.into_iter().find(|m| m.letter() == c)
    }
}

/// An arrow drawn on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    pub from: Square,
    pub to: Square,
    pub mark: Mark,
}

/// What people wrote on one node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Notes {
    pub comment: Option<String>,
    pub glyph: Option<Glyph>,
    /// Marked squares, in the order they were marked.
    pub squares: Vec<(Square, Mark)>,
    /// Arrows, in the order they were drawn.
    pub arrows: Vec<Arrow>,
    /// An evaluation of the position, White's view (`[%eval]`).
    pub eval: Option<Score>,
}

impl Notes {
    pub fn is_empty(&self) -> bool {
        *self == Notes::default()
    }
}

/// Why a change to the tree was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StudyError {
    #[error("that move is not legal here")]
    Illegal,
    #[error("the chapter has {0} moves, the most it may hold")]
    Full(usize),
    #[error("that move is no longer in the chapter (someone deleted it)")]
    Gone,
    #[error("the start position cannot be deleted")]
    Root,
    #[error("this move is already on the main line")]
    MainLine,
}

#[derive(Clone)]
struct Node {
    /// The move that led here (none at the root).
    mv: Option<Move>,
    parent: Option<NodeId>,
    /// The first is the main line.
    children: Vec<NodeId>,
    notes: Notes,
}

/// A chapter's moves and notes. Slots of deleted nodes stay empty: ids are never reused.
#[derive(Clone)]
pub struct StudyTree {
    start: Board,
    nodes: Vec<Option<Node>>,
    /// Moves in the tree now (the root not counted).
    moves: usize,
    /// The most moves it may hold.
    cap: usize,
}

impl StudyTree {
    /// A tree holding at most `cap` moves, from `start`.
    pub fn new(start: Board, cap: usize) -> StudyTree {
        StudyTree {
            start,
            nodes: vec![Some(Node {
                mv: None,
                parent: None,
                children: Vec::new(),
                notes: Notes::default(),
            })],
            moves: 0,
            cap,
        }
    }

    pub fn start(&self) -> &Board {
        &self.start
    }

    /// Moves in the tree.
    pub fn len(&self) -> usize {
        self.moves
    }

    pub fn is_empty(&self) -> bool {
        self.moves == 0
    }

    pub fn cap(&self) -> usize {
        self.cap
    }

    fn node(&self, id: NodeId) -> Result<&Node, StudyError> {
        self.nodes
            .get(id)
            .and_then(Option::as_ref)
            .ok_or(StudyError::Gone)
    }

    fn node_mut(&mut self, id: NodeId) -> Result<&mut Node, StudyError> {
        self.nodes
            .get_mut(id)
            .and_then(Option::as_mut)
            .ok_or(StudyError::Gone)
    }

    /// Is `id` a node of the tree (not deleted)?
    pub fn contains(&self, id: NodeId) -> bool {
        self.node(id).is_ok()
    }

    /// The move that led to `id` (none at the root or for a deleted node).
    pub fn mv(&self, id: NodeId) -> Option<Move> {
        self.node(id).ok()?.mv
    }

    pub fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.node(id).ok()?.parent
    }

    /// The moves from `id`, the main line first.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        self.node(id).map_or(&[], |n| n.children.as_slice())
    }

    /// The main line's next move from `id`.
    pub fn next(&self, id: NodeId) -> Option<NodeId> {
        self.children(id).first().copied()
    }

    pub fn notes(&self, id: NodeId) -> Option<&Notes> {
        self.node(id).ok().map(|n| &n.notes)
    }

    /// The nodes from the root's first move to `id`, in order (empty for the root).
    pub fn path(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = Some(id);
        while let Some(n) = at.filter(|&n| n != ROOT) {
            path.push(n);
            at = self.parent(n);
        }
        path.reverse();
        path
    }

    /// The moves from the start position to `id`.
    pub fn moves_to(&self, id: NodeId) -> Vec<Move> {
        self.path(id).iter().filter_map(|&n| self.mv(n)).collect()
    }

    /// The position at `id`.
    pub fn board_at(&self, id: NodeId) -> Result<Board, StudyError> {
        self.node(id)?;
        let mut board = self.start.clone();
        for mv in self.moves_to(id) {
            board.make(mv);
        }
        Ok(board)
    }

    /// How many moves deep `id` is (0 at the root).
    pub fn depth(&self, id: NodeId) -> usize {
        self.path(id).len()
    }

    /// The main line from the root: its nodes in order.
    pub fn main_line(&self) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = ROOT;
        while let Some(n) = self.next(at) {
            line.push(n);
            at = n;
        }
        line
    }

    /// Plays `mv` at `at`: follows the move if it is there, or adds it (the main line when
    /// `at` had no move yet, else a variation after the others). Returns the node reached.
    pub fn play(&mut self, at: NodeId, mv: Move) -> Result<NodeId, StudyError> {
        let mut board = self.board_at(at)?;
        if let Some(&child) = self.children(at).iter().find(|&&c| self.mv(c) == Some(mv)) {
            return Ok(child);
        }
        board.play(mv).map_err(|_| StudyError::Illegal)?;
        if self.moves >= self.cap {
            return Err(StudyError::Full(self.cap));
        }
        let id = self.nodes.len();
        self.nodes.push(Some(Node {
            mv: Some(mv),
            parent: Some(at),
            children: Vec::new(),
            notes: Notes::default(),
        }));
        self.node_mut(at)?.children.push(id);
        self.moves += 1;
        Ok(id)
    }

    /// Makes the variation `id` is on the main line where it branches: the nearest move on
    /// the way to `id` that is not its parent's first becomes the first.
    pub fn promote(&mut self, id: NodeId) -> Result<(), StudyError> {
        self.node(id)?;
        let mut at = id;
        loop {
            let Some(parent) = self.parent(at) else {
                return Err(StudyError::MainLine);
            };
            let siblings = &mut self.node_mut(parent)?.children;
            if let Some(i) = siblings.iter().position(|&c| c == at)
                && i > 0
            {
                let moved = siblings.remove(i);
                siblings.insert(0, moved);
                return Ok(());
            }
            at = parent;
        }
    }

    /// Deletes `id` and every move after it. Returns its parent (where a cursor on it goes).
    pub fn delete(&mut self, id: NodeId) -> Result<NodeId, StudyError> {
        if id == ROOT {
            return Err(StudyError::Root);
        }
        let parent = self.node(id)?.parent.ok_or(StudyError::Root)?;
        self.node_mut(parent)?.children.retain(|&c| c != id);
        let mut gone = vec![id];
        while let Some(n) = gone.pop() {
            if let Some(node) = self.nodes.get_mut(n).and_then(Option::take) {
                self.moves -= 1;
                gone.extend(node.children);
            }
        }
        Ok(parent)
    }

    /// Changes what is written on `id`.
    pub fn edit(&mut self, id: NodeId, f: impl FnOnce(&mut Notes)) -> Result<(), StudyError> {
        f(&mut self.node_mut(id)?.notes);
        Ok(())
    }

    /// Sets the comment (`None` or blank removes it).
    pub fn set_comment(&mut self, id: NodeId, text: Option<String>) -> Result<(), StudyError> {
        let text = text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        self.edit(id, |n| n.comment = text)
    }

    /// Sets the glyph, or takes it off when it is the one there already (a key toggles it).
    pub fn toggle_glyph(&mut self, id: NodeId, glyph: Glyph) -> Result<(), StudyError> {
        if id == ROOT {
            return Err(StudyError::Root);
        }
        self.edit(id, |n| {
            n.glyph = if n.glyph == Some(glyph) {
                None
            } else {
                Some(glyph)
            }
        })
    }

    /// Marks a square, or takes the mark off when the same mark is there (another colour
    /// replaces it).
    pub fn toggle_square(&mut self, id: NodeId, sq: Square, mark: Mark) -> Result<(), StudyError> {
        self.edit(id, |n| match n.squares.iter().position(|&(s, _)| s == sq) {
            Some(i) if n.squares[i].1 == mark => {
                n.squares.remove(i);
            }
            Some(i) => n.squares[i].1 = mark,
            None => n.squares.push((sq, mark)),
        })
    }

    /// Draws an arrow, or takes it off when the same arrow is there (another colour
    /// replaces it).
    pub fn toggle_arrow(&mut self, id: NodeId, arrow: Arrow) -> Result<(), StudyError> {
        self.edit(id, |n| {
            match n
                .arrows
                .iter()
                .position(|a| a.from == arrow.from && a.to == arrow.to)
            {
                Some(i) if n.arrows[i].mark == arrow.mark => {
                    n.arrows.remove(i);
                }
                Some(i) => n.arrows[i].mark = arrow.mark,
                None => n.arrows.push(arrow),
            }
        })
    }

    /// The tree of a played game: its moves as the main line, and from a review the
    /// marks (`?!` `?` `??`, `!` for the only move that held), the evaluation after each
    /// move and the engine's better line as a variation beside the move played. `comment`
    /// goes on the start (a room's chat, for instance). Moves past `cap` are left out.
    pub fn of_game(
        game: &crate::game::Game,
        review: Option<&crate::game::annotate::Review>,
        comment: Option<String>,
        cap: usize,
    ) -> StudyTree {
        use crate::game::annotate::Judgement;
        let mut tree = StudyTree::new(game.start().clone(), cap);
        let _ = tree.set_comment(ROOT, comment);
        let mut at = ROOT;
        for (i, pm) in game.moves().iter().enumerate() {
            let Ok(node) = tree.play(at, pm.mv) else {
                break;
            };
            if let Some(r) = review.and_then(|r| r.moves.iter().find(|m| m.index == i)) {
                let glyph = match r.judgement {
                    Some(Judgement::Inaccuracy) => Some(Glyph::Dubious),
                    Some(Judgement::Mistake) => Some(Glyph::Mistake),
                    Some(Judgement::Blunder) => Some(Glyph::Blunder),
                    None if r.only_move => Some(Glyph::Good),
                    None => None,
                };
                let _ = tree.edit(node, |n| {
                    n.glyph = glyph;
                    n.eval = r.eval_after;
                });
                // The better line, beside the move played (the main line stays the game).
                if r.best.is_some_and(|b| b != pm.mv) && r.judgement.is_some() {
                    let mut v = at;
                    for &mv in &r.best_line {
                        match tree.play(v, mv) {
                            Ok(n) => v = n,
                            Err(_) => break,
                        }
                    }
                }
            }
            at = node;
        }
        tree
    }

    /// Every node in the tree, in the order PGN writes them (depth first, main line first).
    pub fn nodes(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![ROOT];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.children(n).iter().rev());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game's tree: its moves on the main line; a reviewed mistake marked `?` with its
    /// evaluation and the better line beside it; the only move marked `!`; the chat on
    /// the start.
    #[test]
    fn a_reviewed_game_becomes_a_chapter_with_marks_and_better_lines() {
        use crate::game::Game;
        use crate::game::annotate::{Judgement, Review, ReviewedMove, SideSummary};
        let mut game = Game::new();
        for m in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
            game.play_text(m).unwrap();
        }
        let b5 = game.position_at(5).unwrap();
        let reviewed = |index: usize, played: &str, judgement, only_move, best: &[&str]| {
            let board = game.position_at(index).unwrap();
            let mut b = board.clone();
            let best_line: Vec<Move> = best
                .iter()
                .map(|t| {
                    let m = b.parse_move(t).unwrap();
                    b.play(m).unwrap();
                    m
                })
                .collect();
            ReviewedMove {
                index,
                mover: board.side_to_move(),
                played: board.parse_move(played).unwrap(),
                before: Score::Cp(0),
                after: Score::Cp(0),
                chances_lost: 0.0,
                cp_loss: 0,
                accuracy: 0.0,
                judgement,
                only_move,
                best: best_line.first().copied(),
                best_line,
                eval_after: Some(Score::Cp(-300)),
            }
        };
        let review = Review {
            moves: vec![
                reviewed(4, "Bc4", None, true, &[]),
                reviewed(5, "Nf6", Some(Judgement::Blunder), false, &["g6", "Qf3"]),
            ],
            white: SideSummary::default(),
            black: SideSummary::default(),
            game_moves: 7,
        };
        let tree = StudyTree::of_game(&game, Some(&review), Some("chat: gg".into()), 100);
        let main = tree.main_line();
        assert_eq!(main.len(), 7, "the game is the main line");
        assert_eq!(
            tree.notes(ROOT).unwrap().comment.as_deref(),
            Some("chat: gg")
        );
        assert_eq!(tree.notes(main[4]).unwrap().glyph, Some(Glyph::Good));
        let nf6 = tree.notes(main[5]).unwrap();
        assert_eq!(nf6.glyph, Some(Glyph::Blunder));
        assert_eq!(nf6.eval, Some(Score::Cp(-300)));
        let alternatives = tree.children(main[4]);
        assert_eq!(alternatives.len(), 2, "the better line beside Nf6");
        assert_eq!(tree.mv(alternatives[1]), Some(b5.parse_move("g6").unwrap()));
        assert_eq!(tree.len(), 9);
    }

    fn uci(board: &Board, text: &str) -> Move {
        board.parse_uci_move(text).unwrap()
    }

    /// Plays `line` (coordinates) from `at`; returns the last node.
    pub(super) fn line(tree: &mut StudyTree, at: NodeId, moves: &str) -> NodeId {
        let mut at = at;
        for m in moves.split_whitespace() {
            let board = tree.board_at(at).unwrap();
            at = tree.play(at, uci(&board, m)).unwrap();
        }
        at
    }

    #[test]
    fn a_move_already_there_is_followed_and_a_new_one_starts_a_variation() {
        let mut tree = StudyTree::new(Board::startpos(), 100);
        let e5 = line(&mut tree, ROOT, "e2e4 e7e5");
        assert_eq!(tree.len(), 2);
        let e4 = tree.parent(e5).unwrap();
        // The same move again: followed, nothing added.
        assert_eq!(line(&mut tree, ROOT, "e2e4"), e4);
        assert_eq!(tree.len(), 2);
        // Another answer to 1. e4: a variation after the main line's.
        let c5 = line(&mut tree, e4, "c7c5");
        assert_eq!(tree.children(e4), &[e5, c5]);
        assert_eq!(tree.main_line(), vec![e4, e5]);
        assert_eq!(tree.depth(c5), 2);
        assert_eq!(
            tree.board_at(c5).unwrap().to_fen(),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        // An illegal move is refused and changes nothing.
        let board = tree.board_at(c5).unwrap();
        let bad = uci(&Board::startpos(), "e2e4");
        assert_eq!(tree.play(c5, bad), Err(StudyError::Illegal), "{board:?}");
        assert_eq!(tree.len(), 3);
    }

    #[test]
    fn promoting_a_variation_makes_it_the_main_line_where_it_branches() {
        let mut tree = StudyTree::new(Board::startpos(), 100);
        let e5 = line(&mut tree, ROOT, "e2e4 e7e5 g1f3");
        let e4 = tree.path(e5)[0];
        let sicilian = line(&mut tree, e4, "c7c5 g1f3 d7d6");
        let c5 = tree.path(sicilian)[1];
        assert_eq!(tree.promote(ROOT), Err(StudyError::MainLine));
        assert_eq!(tree.promote(e5), Err(StudyError::MainLine));
        // Promoting from deep in the variation moves its first move up.
        tree.promote(sicilian).unwrap();
        assert_eq!(tree.children(e4)[0], c5);
        assert_eq!(tree.main_line().last(), Some(&sicilian));
    }

    #[test]
    fn deleting_a_move_removes_what_follows_and_ids_are_not_reused() {
        let mut tree = StudyTree::new(Board::startpos(), 4);
        let nf3 = line(&mut tree, ROOT, "e2e4 e7e5 g1f3");
        let e5 = tree.parent(nf3).unwrap();
        let e4 = tree.parent(e5).unwrap();
        let c5 = line(&mut tree, e4, "c7c5");
        assert_eq!(
            tree.play(c5, uci(&tree.board_at(c5).unwrap(), "g1f3")),
            Err(StudyError::Full(4)),
            "the cap holds"
        );
        assert_eq!(tree.delete(e5), Ok(e4));
        assert!(!tree.contains(e5) && !tree.contains(nf3));
        assert_eq!(tree.len(), 2);
        assert_eq!(
            tree.children(e4),
            &[c5],
            "the variation is the main line now"
        );
        assert_eq!(tree.delete(ROOT), Err(StudyError::Root));
        assert_eq!(tree.delete(e5), Err(StudyError::Gone));
        assert_eq!(
            tree.set_comment(nf3, Some("x".into())),
            Err(StudyError::Gone)
        );
        let again = line(&mut tree, e4, "e7e5");
        assert!(again > c5, "a new node, a new id");
    }

    #[test]
    fn notes_toggle_and_keep_their_order() {
        let mut tree = StudyTree::new(Board::startpos(), 10);
        let e4 = line(&mut tree, ROOT, "e2e4");
        let sq = |s: &str| s.parse::<Square>().unwrap();
        tree.toggle_glyph(e4, Glyph::Good).unwrap();
        tree.toggle_glyph(e4, Glyph::Interesting).unwrap();
        assert_eq!(tree.notes(e4).unwrap().glyph, Some(Glyph::Interesting));
        tree.toggle_glyph(e4, Glyph::Interesting).unwrap();
        assert_eq!(tree.notes(e4).unwrap().glyph, None);
        assert_eq!(tree.toggle_glyph(ROOT, Glyph::Good), Err(StudyError::Root));
        tree.toggle_square(e4, sq("d5"), Mark::Red).unwrap();
        tree.toggle_square(e4, sq("e4"), Mark::Green).unwrap();
        tree.toggle_square(e4, sq("d5"), Mark::Blue).unwrap();
        assert_eq!(
            tree.notes(e4).unwrap().squares,
            vec![(sq("d5"), Mark::Blue), (sq("e4"), Mark::Green)]
        );
        tree.toggle_square(e4, sq("d5"), Mark::Blue).unwrap();
        assert_eq!(
            tree.notes(e4).unwrap().squares,
            vec![(sq("e4"), Mark::Green)]
        );
        let arrow = Arrow {
            from: sq("g1"),
            to: sq("f3"),
            mark: Mark::Green,
        };
        tree.toggle_arrow(e4, arrow).unwrap();
        tree.toggle_arrow(
            e4,
            Arrow {
                mark: Mark::Red,
                ..arrow
            },
        )
        .unwrap();
        assert_eq!(
            tree.notes(e4).unwrap().arrows,
            vec![Arrow {
                mark: Mark::Red,
                ..arrow
            }]
        );
        tree.set_comment(e4, Some("  the king's pawn  ".into()))
            .unwrap();
        assert_eq!(
            tree.notes(e4).unwrap().comment.as_deref(),
            Some("the king's pawn")
        );
        tree.set_comment(e4, Some("   ".into())).unwrap();
        assert_eq!(tree.notes(e4).unwrap().comment, None);
    }
}
