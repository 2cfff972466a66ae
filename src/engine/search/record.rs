//! Recording the tree an iteration searched, for the explorer (`ox88 tree`, the TUI's tree
//! browser). The search calls a [`Recorder`] at every node; the normal search passes
//! [`NoRecord`], whose calls are empty and inlined away (the search is monomorphised per
//! recorder), so recording costs nothing when off.
//!
//! What the recorded tree holds and how its nodes are counted: `engine/tree.rs` (re-exported
//! here).

use std::sync::Arc;

use crate::chess::types::Move;
use crate::engine::order::ScoredMove;
pub use crate::engine::tree::{
    Pass, Skip, TreeLimits, TreeNode, display_score, node_line, tree_json, tree_text,
};

/// The search's side of recording: one call per event at a node. Every method defaults to
/// doing nothing, which is [`NoRecord`].
pub(crate) trait Recorder {
    /// The move `mv` (`Move::NONE` for a null move) was made at the current node, giving a
    /// child at `ply`; `nodes` is the search's count before counting the child.
    #[inline(always)]
    fn enter(&mut self, _ply: usize, _mv: Move, _nodes: u64) {}
    /// The current node is searched (again) in the window `alpha..beta`, `reduction` plies
    /// less than its full depth: a new pass.
    #[inline(always)]
    fn pass(&mut self, _alpha: i32, _beta: i32, _reduction: i32) {}
    /// The current node narrowed its window (mate-distance pruning).
    #[inline(always)]
    fn window(&mut self, _alpha: i32, _beta: i32) {}
    /// The current node's pass returned `score` (side to move's view).
    #[inline(always)]
    fn result(&mut self, _score: i32) {}
    /// The current node's score (side to move's view) after its last pass; back to its parent.
    #[inline(always)]
    fn leave(&mut self, _score: i32, _nodes: u64) {}
    /// The child searched last at the current node reached β.
    #[inline(always)]
    fn cut(&mut self) {}
    /// The current node's move `mv` (of a child at `ply`) was not searched, for `why`.
    #[inline(always)]
    fn skip(&mut self, _ply: usize, _mv: Move, _why: Skip) {}
    /// The current node ended early, for `why`.
    #[inline(always)]
    fn end(&mut self, _why: Skip) {}
    /// A search of the current node's position that is none of its passes (the singular
    /// test) starts: its nodes count, nothing of it is recorded.
    #[inline(always)]
    fn begin_hidden(&mut self) {}
    /// The search begun by `begin_hidden` ended.
    #[inline(always)]
    fn end_hidden(&mut self) {}
    /// The current node's static evaluation (`None` in check).
    #[inline(always)]
    fn static_eval(&mut self, _eval: Option<i32>) {}
    /// The current node is searched by quiescence.
    #[inline(always)]
    fn quiescence(&mut self) {}
    /// The current node's moves with their ordering scores and reasons; `explain` is called
    /// only when the node is recorded.
    #[inline(always)]
    fn order(&mut self, _explain: impl FnOnce() -> Vec<ScoredMove>) {}
    /// A new iteration starts at the root; `nodes` is the search's count before it counts
    /// the root.
    #[inline(always)]
    fn begin_iteration(&mut self, _nodes: u64) {}
    /// The iteration ended with the search's count at `nodes`; a complete one is kept.
    #[inline(always)]
    fn end_iteration(&mut self, _nodes: u64, _complete: bool) {}
    /// The tree of the iteration that just completed, once (then `None` until the next).
    #[inline(always)]
    fn take_completed(&mut self) -> Option<Arc<TreeNode>> {
        None
    }
}

/// The normal search's recorder: records nothing.
pub(crate) struct NoRecord;

impl Recorder for NoRecord {}

/// A node while recording: children by index into the arena.
struct Rec {
    node: TreeNode,
    kids: Vec<u32>,
    /// The child made last was past the limits (not recorded, so it cannot be the cut).
    last_child_hidden: bool,
}

/// One node of the path from the root to the node being searched.
struct Frame {
    at: u32,
    enter_nodes: u64,
    ordering: Vec<ScoredMove>,
}

/// Records the tree of each iteration, keeping the last complete one.
pub(crate) struct TreeRecorder {
    limits: TreeLimits,
    arena: Vec<Rec>,
    path: Vec<Frame>,
    /// Depth inside an unrecorded subtree (0: recording).
    hidden: usize,
    last: Option<Arc<TreeNode>>,
    /// `last` is an iteration not yet handed out by `take_completed`.
    unsent: bool,
}

impl TreeRecorder {
    pub fn new(limits: TreeLimits) -> TreeRecorder {
        TreeRecorder {
            limits,
            arena: Vec::new(),
            path: Vec::new(),
            hidden: 0,
            last: None,
            unsent: false,
        }
    }

    pub fn into_last(self) -> Option<TreeNode> {
        self.last.map(Arc::unwrap_or_clone)
    }

    fn build(&mut self, at: u32, is_root: bool) -> TreeNode {
        let rec = &mut self.arena[at as usize];
        let mut node = std::mem::replace(&mut rec.node, TreeNode::empty());
        let kids = std::mem::take(&mut rec.kids);
        if !is_root && node.nodes < self.limits.min_nodes && !kids.is_empty() {
            node.children_complete = false;
            node.cut_index = None;
            return node;
        }
        node.children = kids.iter().map(|&k| self.build(k, false)).collect();
        node
    }

    fn current(&mut self) -> Option<&mut Rec> {
        if self.hidden > 0 {
            return None;
        }
        let at = self.path.last()?.at;
        Some(&mut self.arena[at as usize])
    }

    /// A new child of the current node for `mv`, made (or skipped) in its current pass.
    fn child(&mut self, ply: usize, mv: Move) -> Option<u32> {
        let frame = self.path.last()?;
        let parent = frame.at as usize;
        let ordered = frame.ordering.iter().find(|s| s.mv == mv).map(|s| {
            let reasons = s.reasons.iter().map(|r| (r.label(), r.points)).collect();
            (s.score, reasons)
        });
        let k = self.arena.len() as u32;
        let mut rec = Rec::new(Some(mv), ply);
        rec.node.pass = self.arena[parent].node.passes.len();
        if let Some((score, reasons)) = ordered {
            rec.node.order_score = Some(score);
            rec.node.reasons = reasons;
        }
        self.arena.push(rec);
        let parent = &mut self.arena[parent];
        parent.kids.push(k);
        parent.last_child_hidden = false;
        Some(k)
    }

    /// Whether a child at `ply` is past the limits; if so its parent is marked incomplete.
    fn beyond(&mut self, ply: usize) -> bool {
        if ply > self.limits.plies || self.arena.len() >= self.limits.cap {
            if let Some(rec) = self.current() {
                rec.node.children_complete = false;
                rec.last_child_hidden = true;
            }
            true
        } else {
            false
        }
    }
}

impl Rec {
    fn new(mv: Option<Move>, ply: usize) -> Rec {
        let mut node = TreeNode::empty();
        node.mv = mv;
        node.ply = ply;
        Rec {
            node,
            kids: Vec::new(),
            last_child_hidden: false,
        }
    }
}

impl Recorder for TreeRecorder {
    fn begin_iteration(&mut self, nodes: u64) {
        self.arena.clear();
        self.path.clear();
        self.hidden = 0;
        self.arena.push(Rec::new(None, 0));
        self.path.push(Frame {
            at: 0,
            enter_nodes: nodes,
            ordering: Vec::new(),
        });
    }

    fn end_iteration(&mut self, nodes: u64, complete: bool) {
        if !complete || self.arena.is_empty() || self.path.len() != 1 {
            return;
        }
        let enter = self.path[0].enter_nodes;
        self.arena[0].node.nodes = nodes - enter;
        let tree = self.build(0, true);
        self.last = Some(Arc::new(tree));
        self.unsent = true;
    }

    fn take_completed(&mut self) -> Option<Arc<TreeNode>> {
        if std::mem::take(&mut self.unsent) {
            self.last.clone()
        } else {
            None
        }
    }

    fn enter(&mut self, ply: usize, mv: Move, nodes: u64) {
        if self.hidden > 0 || self.beyond(ply) {
            self.hidden += 1;
            return;
        }
        if let Some(at) = self.child(ply, mv) {
            self.path.push(Frame {
                at,
                enter_nodes: nodes,
                ordering: Vec::new(),
            });
        }
    }

    fn pass(&mut self, alpha: i32, beta: i32, reduction: i32) {
        if let Some(rec) = self.current() {
            let node = &mut rec.node;
            if node.passes.is_empty() {
                node.reduction = reduction;
            }
            node.passes.push(Pass {
                alpha,
                beta,
                reduction,
                score: None,
            });
            node.window = Some((alpha, beta));
            node.score = None;
            node.cut_index = None;
            node.skipped = None;
        }
    }

    fn window(&mut self, alpha: i32, beta: i32) {
        if let Some(rec) = self.current() {
            rec.node.window = Some((alpha, beta));
            if let Some(p) = rec.node.passes.last_mut() {
                (p.alpha, p.beta) = (alpha, beta);
            }
        }
    }

    fn result(&mut self, score: i32) {
        if let Some(rec) = self.current() {
            rec.node.score = Some(score);
            if let Some(p) = rec.node.passes.last_mut() {
                p.score = Some(score);
            }
        }
    }

    fn begin_hidden(&mut self) {
        // The node's count includes nodes none of its recorded children holds.
        if let Some(rec) = self.current() {
            rec.node.children_complete = false;
        }
        self.hidden += 1;
    }

    fn end_hidden(&mut self) {
        self.hidden -= 1;
    }

    fn leave(&mut self, score: i32, nodes: u64) {
        if self.hidden > 0 {
            self.hidden -= 1;
            return;
        }
        if self.path.len() <= 1 {
            return; // the root leaves through `end_iteration`
        }
        if let Some(frame) = self.path.pop() {
            let rec = &mut self.arena[frame.at as usize];
            rec.node.score = Some(score);
            rec.node.nodes = nodes - frame.enter_nodes;
        }
    }

    fn cut(&mut self) {
        if let Some(rec) = self.current()
            && !rec.last_child_hidden
        {
            rec.node.cut_index = rec.kids.len().checked_sub(1);
        }
    }

    fn skip(&mut self, ply: usize, mv: Move, why: Skip) {
        if self.hidden > 0 || self.beyond(ply) {
            return;
        }
        if let Some(at) = self.child(ply, mv) {
            self.arena[at as usize].node.skipped = Some(why);
        }
    }

    fn end(&mut self, why: Skip) {
        if let Some(rec) = self.current() {
            rec.node.skipped = Some(why);
        }
    }

    fn static_eval(&mut self, eval: Option<i32>) {
        if let Some(rec) = self.current() {
            rec.node.static_eval = eval;
        }
    }

    fn quiescence(&mut self) {
        if let Some(rec) = self.current() {
            rec.node.quiescence = true;
        }
    }

    fn order(&mut self, explain: impl FnOnce() -> Vec<ScoredMove>) {
        // A node at the last recorded ply has no recorded children to label.
        if self.hidden == 0
            && let Some(frame) = self.path.last_mut()
            && self.arena[frame.at as usize].node.ply < self.limits.plies
        {
            frame.ordering = explain();
        }
    }
}
