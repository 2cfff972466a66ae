//! Recording the tree an iteration searched, for the explorer (`ox88 tree`, the TUI's tree
//! browser). The search calls a [`Recorder`] at every node; the normal search passes
//! [`NoRecord`], whose calls are empty and inlined away (the search is monomorphised per
//! recorder), so recording costs nothing when off.
//!
//! How nodes are counted (as the search counts them): a node is counted once each time it
//! is made: the root once per iteration (not per aspiration pass), every move when it is
//! made, a null move ("0000", a child of its own) when the side passes. So every recorded
//! node whose children are all recorded has `nodes` = 1 + the sum of its children's, and the
//! root's `nodes` is what the iteration searched. A move that is made once and searched
//! several times (a re-search: reduced then full depth, zero window then full) is one child
//! with several *passes*; its children are listed per pass in the order searched (pass 1's,
//! then pass 2's, …), each child one make of its move, so a move can appear once per pass.
//! Each child says in which of its parent's passes it was made (`pass`, from 1); each node
//! lists its passes (window, reduction, score), and its own window and score are the last
//! pass's. `cut_index` is the index (into `children`) of the child that reached β in the
//! last pass; nothing is searched after it. A move the search decided not to search (pruned)
//! is a child with `skipped` set, no passes and 0 nodes.

use std::sync::Arc;

use serde::Serialize;

use crate::chess::types::Move;
use crate::engine::order::ScoredMove;
use crate::engine::score::{Bound, MATE, MATE_BOUND};

/// Why a move was not searched, or why a node ended without searching its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Skip {
    /// The transposition table's entry settled the node.
    Tt,
    /// Passing (the null move) still failed high.
    NullMove,
    /// Reverse futility: the static evaluation is far above β at low depth.
    ReverseFutility,
    /// A quiet move that cannot lift the static evaluation to α at low depth.
    Futility,
    /// Late-move pruning: a quiet move far down the list at low depth.
    Lmp,
    /// Static exchange pruning: at low depth, a move that loses too much material.
    See,
    /// Multi-cut: with the hash move left out, the other moves still reached β.
    MultiCut,
    /// Razoring: far below α near the horizon, and quiescence found nothing better.
    Razor,
    /// ProbCut: a capture held a bound well above β at reduced depth.
    ProbCut,
    /// History pruning: a quiet move at low depth whose history says it rarely works.
    History,
    /// Quiescence: the static evaluation already reaches β.
    StandPat,
    /// Quiescence: even winning the captured piece cannot lift α.
    Delta,
    /// Quiescence: a capture that loses material by static exchange.
    LosingCapture,
    /// Quiescence: an under-promotion (never better than the queen there).
    UnderPromotion,
    /// A draw by repetition, the fifty-move rule or dead material.
    Draw,
    /// Mate-distance pruning: no line from here can beat a mate already found nearer.
    MateDistance,
}

impl Skip {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

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

/// How much of an iteration's tree to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeLimits {
    /// Nodes deeper than this many plies from the root are counted but not recorded.
    pub plies: usize,
    /// A node with fewer nodes in its subtree keeps no children (decided after the
    /// iteration).
    pub min_nodes: u64,
    /// At most this many nodes are recorded per iteration.
    pub cap: usize,
}

impl Default for TreeLimits {
    fn default() -> TreeLimits {
        TreeLimits {
            plies: 4,
            min_nodes: 1,
            cap: 200_000,
        }
    }
}

/// One search of a node: its window, how many plies it was reduced by, and what it returned
/// (`None` if the search stopped inside it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    pub alpha: i32,
    pub beta: i32,
    pub reduction: i32,
    pub score: Option<i32>,
}

/// One node of a recorded tree. Scores are from the side to move at the node.
#[derive(Clone, Debug, PartialEq)]
pub struct TreeNode {
    /// The move that led here: `None` for the root, `Some(Move::NONE)` for a null move.
    pub mv: Option<Move>,
    pub ply: usize,
    /// In which of its parent's passes this move was made or skipped (from 1; 0 for the root).
    pub pass: usize,
    /// This node's searches in order (empty for a move that was not searched).
    pub passes: Vec<Pass>,
    /// The window of the last pass (`None` for a move that was not searched).
    pub window: Option<(i32, i32)>,
    pub static_eval: Option<i32>,
    /// Searched by quiescence (stand pat, captures; evasions in check).
    pub quiescence: bool,
    /// The result of the last pass (`None` for a move that was not searched).
    pub score: Option<i32>,
    /// This node (1 when its move was made, 0 for a skipped move) and its subtree.
    pub nodes: u64,
    /// The index of the child that reached β in the last pass.
    pub cut_index: Option<usize>,
    /// Why this move was not searched, or why this node's last pass ended early.
    pub skipped: Option<Skip>,
    /// Plies this move's first pass was reduced by (late-move reduction, null-move R).
    pub reduction: i32,
    /// The move's ordering score and its reasons (as the sort pane shows them) in the
    /// parent's pass that made it.
    pub order_score: Option<i32>,
    pub reasons: Vec<(&'static str, i32)>,
    /// Whether every child searched is recorded here (false beyond the ply limit, under the
    /// minimum subtree size, or past the cap).
    pub children_complete: bool,
    pub children: Vec<TreeNode>,
}

impl TreeNode {
    /// What the score says given the window: exact inside it, a bound outside.
    pub fn bound(&self) -> Option<Bound> {
        let (alpha, beta) = self.window?;
        Some(Bound::of(self.score?, alpha, beta))
    }

    /// The node `path` (child indices) below this one.
    pub fn at(&self, path: &[usize]) -> Option<&TreeNode> {
        path.iter().try_fold(self, |n, &i| n.children.get(i))
    }

    /// Total nodes recorded in this subtree (this one included).
    pub fn recorded(&self) -> usize {
        1 + self.children.iter().map(TreeNode::recorded).sum::<usize>()
    }
}

/// A score for people and scripts: centipawns, mates as ±(100000 − plies).
pub fn display_score(s: i32) -> i32 {
    if s >= MATE_BOUND {
        100_000 - (MATE - s)
    } else if s <= -MATE_BOUND {
        -100_000 + (MATE + s)
    } else {
        s
    }
}

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

impl TreeNode {
    fn empty() -> TreeNode {
        TreeNode {
            mv: None,
            ply: 0,
            pass: 0,
            passes: Vec::new(),
            window: None,
            static_eval: None,
            quiescence: false,
            score: None,
            nodes: 0,
            cut_index: None,
            skipped: None,
            reduction: 0,
            order_score: None,
            reasons: Vec::new(),
            children_complete: true,
            children: Vec::new(),
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

fn bound_name(b: Bound) -> &'static str {
    match b {
        Bound::Exact => "exact",
        Bound::Lower => "lower",
        Bound::Upper => "upper",
    }
}

/// One node and its subtree as JSON (`ox88 tree --json`): scores in centipawns from the side
/// to move at the node, mates as ±(100000 − plies).
pub fn tree_json(node: &TreeNode) -> serde_json::Value {
    use serde_json::json;
    let (alpha, beta) = match node.window {
        Some((a, b)) => (Some(display_score(a)), Some(display_score(b))),
        None => (None, None),
    };
    json!({
        "move": node.mv.map(|m| m.to_string()),
        "ply": node.ply,
        "alpha": alpha,
        "beta": beta,
        "static_eval": node.static_eval.map(display_score),
        "quiescence": node.quiescence,
        "score": node.score.map(display_score),
        "bound": node.bound().map(bound_name),
        "nodes": node.nodes,
        "pass": node.pass,
        "passes": node.passes.iter().map(|p| json!({
            "alpha": display_score(p.alpha),
            "beta": display_score(p.beta),
            "reduction": p.reduction,
            "score": p.score.map(display_score),
        })).collect::<Vec<_>>(),
        "cut_index": node.cut_index,
        "skipped": node.skipped.map(Skip::name),
        "reduction": node.reduction,
        "order_score": node.order_score,
        "reasons": node.reasons,
        "children_complete": node.children_complete,
        "children": node.children.iter().map(tree_json).collect::<Vec<_>>(),
    })
}

/// One line describing a node (without its children), as the text tree and the browser
/// show it: move, window, static E, score and bound, nodes, why skipped or reduced.
pub fn node_line(node: &TreeNode) -> String {
    let mut s = match node.mv {
        None => "root".to_string(),
        Some(m) if m.is_none() => "null".to_string(),
        Some(m) => m.to_string(),
    };
    if let Some(o) = node.order_score {
        s.push_str(&format!(" ord {o}"));
        if !node.reasons.is_empty() {
            let r: Vec<String> = node
                .reasons
                .iter()
                .map(|(k, p)| format!("{k} {p:+}"))
                .collect();
            s.push_str(&format!(" [{}]", r.join(", ")));
        }
    }
    if let Some((a, b)) = node.window {
        s.push_str(&format!(" ({}, {})", display_score(a), display_score(b)));
    }
    if let Some(e) = node.static_eval {
        s.push_str(&format!(" E {}", display_score(e)));
    }
    if node.quiescence {
        s.push_str(" q");
    }
    if let (Some(v), Some(b)) = (node.score, node.bound()) {
        let mark = match b {
            Bound::Exact => "=",
            Bound::Lower => ">=",
            Bound::Upper => "<=",
        };
        s.push_str(&format!(" {mark}{}", display_score(v)));
    }
    s.push_str(&format!(" n {}", node.nodes));
    if let Some(c) = node.cut_index {
        s.push_str(&format!(" cut@{c}"));
    }
    if node.reduction > 0 {
        s.push_str(&format!(" R{}", node.reduction));
    }
    if let Some(k) = node.skipped {
        s.push_str(&format!(" [{}]", k.name()));
    }
    if node.pass > 1 {
        s.push_str(&format!(" in pass {}", node.pass));
    }
    if node.passes.len() > 1 {
        s.push_str(&format!(" ({} passes)", node.passes.len()));
    }
    if !node.children_complete {
        s.push_str(" …");
    }
    s
}

/// The tree as text, one node a line, indented two spaces per ply.
pub fn tree_text(node: &TreeNode, out: &mut impl std::io::Write) -> std::io::Result<()> {
    writeln!(out, "{}{}", "  ".repeat(node.ply), node_line(node))?;
    for c in &node.children {
        tree_text(c, out)?;
    }
    Ok(())
}
