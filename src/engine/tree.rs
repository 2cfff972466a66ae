//! The tree an iteration searched, as recorded for the explorer (`ox88 tree`, the TUI's tree
//! browser): how much of it to keep ([`TreeLimits`]), its nodes ([`TreeNode`], each with its
//! passes and why a move was skipped), and the tree as text and JSON. The recorder that
//! builds it during the search is `search/record.rs`; this vocabulary sits below both the
//! search and the events (`report.rs`) that carry a tree to a front end.
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

use serde::Serialize;

use crate::chess::types::Move;
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
    /// The Syzygy tablebases' result decided the node.
    Tablebase,
}

impl Skip {
    pub fn name(self) -> &'static str {
        self.into()
    }
}

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

impl TreeNode {
    /// A node with nothing recorded yet (the recorder fills it in).
    pub(crate) fn empty() -> TreeNode {
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
