//! The tree browser: the tree a complete iteration searched, walked one node at a
//! time. The engine records it (`SearchOptions::record_tree`) and sends it after each
//! complete iteration; the session keeps the newest per search with the searched position.
//! The browser holds its own tree until the user asks for a newer one (`r`), so a new
//! iteration, a new search or a move never moves what the user is looking at: the node's
//! position comes from the tree's own root position and the path's moves.

use std::fmt;
use std::sync::Arc;

use crate::chess::{Board, Color, Move};
use crate::engine::score::{Bound, MATE, MATE_BOUND, Score};
use crate::engine::search::record::{TreeLimits, TreeNode};

/// What the TUI records per iteration: four plies below the root, every node's children,
/// at most 200,000 nodes. Measured at depth 10 to 12 on three middlegame positions, four
/// plies keep 2,000 to 7,000 nodes and cost the search within the noise of a shared machine
/// (0 to 10%); five plies keep up to 42,000 and cost 10 to 25% in some runs.
pub const TUI_LIMITS: TreeLimits = TreeLimits {
    plies: 4,
    min_nodes: 1,
    cap: 200_000,
};

/// `ox88 serve` keeps each player's trees small: memory stays bounded per session.
pub const SERVE_TREE_CAP: usize = 20_000;

/// One iteration's tree with the position it was searched from.
#[derive(Clone, Debug)]
pub struct SearchTree {
    /// The search that sent it.
    pub search_id: u64,
    /// The iteration's depth.
    pub depth: u32,
    /// The searched position: the tree's root.
    pub root: Board,
    pub tree: Arc<TreeNode>,
}

/// Why a browser key did nothing (said on the status line; nothing changes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExplorerError {
    /// No iteration has been recorded yet; `recording` says whether one will be.
    NoTree { recording: bool },
    /// The browser is closed.
    Closed,
    /// Enter at a node without recorded children.
    NoChildren(String),
    /// Backspace at the root.
    AtRoot,
    /// A move of the tree that is not legal where it stands (cannot happen with the
    /// engine's own trees; said rather than trusted).
    Unplayable(String),
    /// `r` with nothing newer than the tree shown.
    NothingNewer,
}

impl fmt::Display for ExplorerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExplorerError::NoTree { recording: true } => f.write_str(
                "no search tree yet: each complete iteration of the engine's next search records one",
            ),
            ExplorerError::NoTree { recording: false } => {
                f.write_str("no search tree: recording is off (:set explorer on)")
            }
            ExplorerError::Closed => f.write_str("the tree browser is closed (F10 opens it)"),
            ExplorerError::NoChildren(why) => write!(f, "nothing below this node: {why}"),
            ExplorerError::AtRoot => f.write_str("at the root already (Esc closes the browser)"),
            ExplorerError::Unplayable(m) => write!(f, "{m}: not a legal move here"),
            ExplorerError::NothingNewer => f.write_str("this is the newest tree"),
        }
    }
}

impl std::error::Error for ExplorerError {}

/// The browser's state: the tree shown, where in it, and the selected child.
#[derive(Clone, Debug)]
pub struct Explorer {
    open: bool,
    /// Record trees in the engine's searches (`:set explorer`, config `explorer`).
    recording: bool,
    limits: TreeLimits,
    shown: Option<Arc<SearchTree>>,
    /// Child indices from the root to the node shown.
    path: Vec<usize>,
    /// The selected child of the node shown, and the first list row on screen.
    selected: usize,
    scroll: usize,
    /// The node's position (the root position and the path's moves).
    board: Board,
    /// The path's moves in SAN, and the node's children's.
    path_san: Vec<String>,
    child_san: Vec<String>,
}

impl Default for Explorer {
    fn default() -> Explorer {
        Explorer {
            open: false,
            recording: true,
            limits: TUI_LIMITS,
            shown: None,
            path: Vec::new(),
            selected: 0,
            scroll: 0,
            board: Board::startpos(),
            path_san: Vec::new(),
            child_san: Vec::new(),
        }
    }
}

impl Explorer {
    /// Whether the engine's searches record trees (`:set explorer`, config `explorer`).
    pub fn recording(&self) -> bool {
        self.recording
    }

    pub fn set_recording(&mut self, on: bool) {
        self.recording = on;
    }

    /// The limits a search records its tree within, when trees are recorded.
    pub fn record_limits(&self) -> Option<TreeLimits> {
        self.recording.then_some(self.limits)
    }

    pub fn is_open(&self) -> bool {
        self.open
    }

    /// The tree shown (kept after closing, so reopening returns to the same place).
    pub fn shown(&self) -> Option<&SearchTree> {
        self.shown.as_deref()
    }

    /// The node shown, when open.
    pub fn node(&self) -> Option<&TreeNode> {
        let t = self.shown.as_ref().filter(|_| self.open)?;
        t.tree.at(&self.path)
    }

    pub fn path(&self) -> &[usize] {
        &self.path
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// The node's position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn path_san(&self) -> &[String] {
        &self.path_san
    }

    /// The SAN of the node's children, in the order they were tried.
    pub fn child_san(&self) -> &[String] {
        &self.child_san
    }

    /// The selected child's move (not a null move), to mark on the board.
    pub fn selected_move(&self) -> Option<Move> {
        let m = self.node()?.children.get(self.selected)?.mv?;
        (!m.is_none()).then_some(m)
    }

    /// Opens on `latest` (the session's newest tree): a tree not shown before starts at
    /// its root, or where the old path's moves lead in it; the same tree keeps the place.
    pub fn open(&mut self, latest: Option<Arc<SearchTree>>) -> Result<(), ExplorerError> {
        let latest = latest.ok_or(ExplorerError::NoTree {
            recording: self.recording,
        })?;
        let same = self.shown.as_ref().is_some_and(|s| Arc::ptr_eq(s, &latest));
        if !same {
            self.load(latest);
        }
        self.open = true;
        Ok(())
    }

    pub fn close(&mut self) {
        self.open = false;
    }

    /// Shows `latest` instead of the tree shown, following the same moves as far as the new
    /// tree has them.
    pub fn reload(&mut self, latest: Option<Arc<SearchTree>>) -> Result<(), ExplorerError> {
        if !self.open {
            return Err(ExplorerError::Closed);
        }
        let latest = latest.ok_or(ExplorerError::NoTree {
            recording: self.recording,
        })?;
        if self.shown.as_ref().is_some_and(|s| Arc::ptr_eq(s, &latest)) {
            return Err(ExplorerError::NothingNewer);
        }
        self.load(latest);
        Ok(())
    }

    /// Whether `latest` is a tree other than the one shown.
    pub fn is_newer(&self, latest: Option<&Arc<SearchTree>>) -> bool {
        match (latest, &self.shown) {
            (Some(l), Some(s)) => !Arc::ptr_eq(l, s),
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    fn load(&mut self, tree: Arc<SearchTree>) {
        // The moves to the old node and the old selection, to find again in the new tree.
        let old_moves: Vec<Option<Move>> = match &self.shown {
            Some(old) => {
                let mut moves = Vec::new();
                let mut n: &TreeNode = &old.tree;
                for &i in self.path.iter().chain(std::iter::once(&self.selected)) {
                    match n.children.get(i) {
                        Some(c) => {
                            moves.push(c.mv);
                            n = c;
                        }
                        None => break,
                    }
                }
                moves
            }
            None => Vec::new(),
        };
        let same_root = self
            .shown
            .as_ref()
            .is_some_and(|old| old.root.hash() == tree.root.hash());
        self.shown = Some(tree);
        self.path.clear();
        self.selected = 0;
        self.scroll = 0;
        self.rebuild();
        if !same_root {
            return;
        }
        let mut rest = old_moves.as_slice();
        while let Some((mv, tail)) = rest.split_first() {
            let Some(i) = self
                .peek()
                .and_then(|n| n.children.iter().position(|c| c.mv == *mv))
            else {
                break;
            };
            self.selected = i;
            if tail.is_empty() || self.descend().is_err() {
                break;
            }
            rest = tail;
        }
    }

    /// The node shown, open or not (loading happens before opening).
    fn peek(&self) -> Option<&TreeNode> {
        self.shown.as_ref()?.tree.at(&self.path)
    }

    /// Recomputes the node's position and the SAN lists from the root and the path.
    fn rebuild(&mut self) {
        let Some(t) = self.shown.clone() else {
            return;
        };
        let mut board = t.root.clone();
        let mut path_san = Vec::with_capacity(self.path.len());
        let mut node: &TreeNode = &t.tree;
        for &i in &self.path {
            let Some(child) = node.children.get(i) else {
                break;
            };
            let Some(m) = child.mv else { break };
            path_san.push(san(&board, m));
            if play(&mut board, m).is_err() {
                break;
            }
            node = child;
        }
        self.child_san = node
            .children
            .iter()
            .map(|c| c.mv.map_or_else(|| "?".to_string(), |m| san(&board, m)))
            .collect();
        self.board = board;
        self.path_san = path_san;
    }

    /// Into the selected child.
    pub fn enter(&mut self) -> Result<(), ExplorerError> {
        if !self.open {
            return Err(ExplorerError::Closed);
        }
        self.descend()
    }

    fn descend(&mut self) -> Result<(), ExplorerError> {
        let node = self.peek().ok_or(ExplorerError::Closed)?;
        let Some(child) = node.children.get(self.selected) else {
            return Err(ExplorerError::NoChildren(empty_reason(node)));
        };
        if let Some(m) = child.mv {
            let mut b = self.board.clone();
            play(&mut b, m).map_err(|_| ExplorerError::Unplayable(m.to_string()))?;
        }
        self.path.push(self.selected);
        self.selected = 0;
        self.scroll = 0;
        self.rebuild();
        Ok(())
    }

    /// Back up to the parent, with the child we came from selected.
    pub fn back(&mut self) -> Result<(), ExplorerError> {
        if self.node().is_none() {
            return Err(ExplorerError::Closed);
        }
        let i = self.path.pop().ok_or(ExplorerError::AtRoot)?;
        self.selected = i;
        self.scroll = 0;
        self.rebuild();
        Ok(())
    }

    /// Moves the selection by `delta` children; `rows` list rows are on screen.
    pub fn select_by(&mut self, delta: isize, rows: usize) {
        let n = self.node().map_or(0, |n| n.children.len());
        if n == 0 {
            return;
        }
        let to = self.selected as isize + delta;
        self.selected = to.clamp(0, n as isize - 1) as usize;
        self.keep_visible(rows);
    }

    /// The first (`top`) or the last child.
    pub fn select_end(&mut self, top: bool, rows: usize) {
        let n = self.node().map_or(0, |n| n.children.len());
        self.selected = if top { 0 } else { n.saturating_sub(1) };
        self.keep_visible(rows);
    }

    /// Scrolls so the selected row is among the `rows` shown.
    pub fn keep_visible(&mut self, rows: usize) {
        let rows = rows.max(1);
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + rows {
            self.scroll = self.selected + 1 - rows;
        }
    }
}

/// Plays a move of the tree (a null move too) after checking it is legal where it stands.
fn play(board: &mut Board, m: Move) -> Result<(), ()> {
    if m.is_none() {
        if board.in_check() {
            return Err(());
        }
        board.make_null();
        return Ok(());
    }
    board.play(m).map_err(|_| ())
}

fn san(board: &Board, m: Move) -> String {
    if m.is_none() {
        "null".to_string()
    } else if board.legal_moves().contains(m) {
        board.san(m)
    } else {
        m.to_string()
    }
}

/// Why a node lists no children.
pub fn empty_reason(node: &TreeNode) -> String {
    if let Some(why) = node.skipped {
        if node.window.is_none() {
            return format!("not searched ({})", why.name());
        }
        return format!("it ended early ({})", why.name());
    }
    if node.window.is_none() {
        return "not searched".to_string();
    }
    if !node.children_complete {
        return "its children were not recorded (past the recording's plies, a subtree under the minimum size, or the cap)".to_string();
    }
    if node.quiescence {
        return "a quiescence leaf (no capture searched)".to_string();
    }
    "a leaf (evaluated, no moves searched)".to_string()
}

/// A score of the search at a node `ply` plies from the root, as the TUI writes scores:
/// pawns, or `#3`/`#-3` counted in moves from this node (the search counts mates from
/// the root).
pub fn score_at(v: i32, ply: usize) -> Score {
    let p = ply as i32;
    if v >= MATE_BOUND {
        Score::from_internal((v + p).min(MATE))
    } else if v <= -MATE_BOUND {
        Score::from_internal((v - p).max(-MATE))
    } else {
        Score::Cp(v)
    }
}

/// A window bound: a score, or ±∞ for the search's open window.
pub fn bound_text(v: i32, ply: usize) -> String {
    if v > MATE {
        "+∞".to_string()
    } else if v < -MATE {
        "-∞".to_string()
    } else {
        score_at(v, ply).to_string()
    }
}

/// A child's result as its parent's side to move sees it: the negated score, and the bound
/// turned round (a child that failed high is at most this much for the parent).
pub fn child_value(child: &TreeNode) -> Option<(i32, Bound)> {
    let v = child.score?;
    let b = match child.bound()? {
        Bound::Lower => Bound::Upper,
        Bound::Upper => Bound::Lower,
        Bound::Exact => Bound::Exact,
    };
    Some((-v, b))
}

/// `+0.35`, `≥ +0.35`, `≤ #-2`.
pub fn bounded(v: i32, bound: Bound, ply: usize) -> String {
    let s = score_at(v, ply);
    match bound {
        Bound::Exact => s.to_string(),
        Bound::Lower => format!("≥{s}"),
        Bound::Upper => format!("≤{s}"),
    }
}

/// The same bound from White's view when `side` is to move.
pub fn white_bound(bound: Bound, side: Color) -> Bound {
    match (bound, side) {
        (Bound::Lower, Color::Black) => Bound::Upper,
        (Bound::Upper, Color::Black) => Bound::Lower,
        (b, _) => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_count_from_the_node_and_open_windows_read_as_infinity() {
        // Mate at ply 5 from the root, seen from a node at ply 2: mate in 3 plies, 2 moves.
        assert_eq!(score_at(MATE - 5, 2), Score::Mate(2));
        assert_eq!(score_at(-(MATE - 5), 2), Score::Mate(-2));
        assert_eq!(score_at(35, 4), Score::Cp(35));
        assert_eq!(bound_text(MATE + 1, 0), "+∞");
        assert_eq!(bound_text(-MATE - 1, 3), "-∞");
        assert_eq!(bounded(-120, Bound::Upper, 0), "≤-1.20");
    }
}
