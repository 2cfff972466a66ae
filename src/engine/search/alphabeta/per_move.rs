//! What the move loop decides for each move: the singular test of the hash move, per-move
//! pruning (late moves, futility, history, static exchange), the child's extension, its
//! late-move reduction and the re-searches of principal variation search.

use std::ops::ControlFlow::{self, Break, Continue};

use super::{MoveFacts, Moves, Node};
use crate::chess::types::Move;
use crate::engine::order;
use crate::engine::score::TB_BOUND;
use crate::engine::search::record::{Recorder, Skip};
use crate::engine::search::{Cx, MAX_PLY, Searcher};
use crate::engine::tt::TtData;

/// Late-move reduction table, indexed by depth and move number: 1 + ln(depth)·ln(move)/2
/// (was 0.75 + ln·ln/2.25: +13.3 Elo over 600 games at 20,000 nodes a move).
pub(in crate::engine::search) fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = 1.0 + (d as f64).ln() * (m as f64).ln() / 2.0;
            *r = v.max(0.0) as u8;
        }
    }
    t
}

/// Singular extension: from this remaining depth, a hash move that is a lower bound (or
/// exact) from at least `depth - 3` is tested for being the only good move.
pub(super) const SINGULAR_DEPTH: i32 = 7;
/// A singular hash move whose alternatives all fall this far below the singular bound, at
/// a node off the principal variation, is extended two plies instead of one; at most
/// [`DOUBLE_EXTENSION_LIMIT`] times on one line.
const DOUBLE_EXTENSION_MARGIN: i32 = 20;
const DOUBLE_EXTENSION_LIMIT: u8 = 6;

/// Static exchange pruning works up to this remaining depth.
const SEE_PRUNE_DEPTH: i32 = 6;
/// A capture whose SEE loses more than this many centipawns per ply of depth is pruned.
const SEE_CAPTURE_MARGIN: i32 = 100;
/// A quiet (non-checking) move whose SEE loses more than this per ply of depth is pruned.
const SEE_QUIET_MARGIN: i32 = 60;
/// History pruning: up to this remaining depth, a late quiet non-checking move whose
/// butterfly history is below `-HISTORY_PRUNE_MARGIN · depth` is not searched.
const HISTORY_PRUNE_DEPTH: i32 = 3;
const HISTORY_PRUNE_MARGIN: i32 = 1000;

/// Late-move reduction under `modern`: a ply less per this much history (butterfly and the
/// continuation entries one and two plies back, each within ±16,384), a ply more per this
/// much below zero, at most [`LMR_HISTORY_PLIES`] either way.
const LMR_HISTORY_DIVISOR: i32 = 8_000;
const LMR_HISTORY_PLIES: i32 = 2;
/// Late-move reduction: extra plies for a late quiet move at an expected cut node.
const CUT_NODE_REDUCTION: i32 = 2;

impl Searcher {
    /// Singular extension: search the other moves at half depth, just below the hash
    /// move's score. If all fail low the hash move is the only good one and is searched a
    /// ply deeper (two, off the PV, when they all fall well short); if they reach β anyway,
    /// more than one move refutes the opponent's last move and the node fails high
    /// (multi-cut). If they reach the singular bound but not β while the hash move's own
    /// score holds β, the hash move is not alone and likely holds anyway: it is searched a
    /// ply shallower. The extension in plies (-1 to 2), or the node's score.
    #[inline(always)]
    pub(super) fn singular_extension<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        node: &Node,
        hit: TtData,
    ) -> ControlFlow<i32, i32> {
        let (ply, depth) = (node.ply, node.depth);
        let singular_beta = hit.score - 2 * depth;
        self.stack[ply].excluded = hit.mv;
        cx.rec.begin_hidden();
        let s = self.alphabeta(
            cx,
            ply,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            false,
        );
        cx.rec.end_hidden();
        self.stack[ply].excluded = Move::NONE;
        self.stack[ply].pv_len = ply;
        if self.stopped {
            return Break(0);
        }
        if s < singular_beta {
            let ext = if !node.pv_node
                && s < singular_beta - DOUBLE_EXTENSION_MARGIN
                && self.stack[ply].doubles < DOUBLE_EXTENSION_LIMIT
            {
                self.stats.doubled += 1;
                2
            } else {
                1
            };
            self.stats.singular += 1;
            Continue(ext)
        } else if singular_beta >= node.beta {
            cx.rec.end(Skip::MultiCut);
            Break(singular_beta)
        } else if hit.score >= node.beta {
            self.stats.shortened += 1;
            Continue(-1)
        } else {
            Continue(0)
        }
    }

    /// Per-move pruning, with the move made to learn whether it gives check: late-move
    /// pruning, futility and history pruning of quiet moves, static exchange pruning. A
    /// check extends the line unless the checking piece is simply lost on its square (under
    /// `modern`). The move stays made, with what was learnt, unless it is pruned: then it is
    /// unmade and recorded as skipped (`None`).
    #[inline(always)]
    pub(super) fn make_unless_pruned<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        node: &Node,
        mut facts: MoveFacts,
        searched: usize,
        best: i32,
    ) -> Option<MoveFacts> {
        let board = &mut *cx.board;
        let (depth, alpha, m, quiet) = (node.depth, node.alpha, facts.m, facts.quiet);
        // Late-move pruning, futility and history pruning: quiet, non-checking moves far
        // down the list, far below α or with a poor history rarely matter at low depth.
        // Never while a mate or tablebase score is at stake. (Whether the move gives check is known
        // only once it is made: below.)
        let quiet_prunable = node.full
            && !node.pv_node
            && !node.in_check
            && quiet
            && searched > 0
            && best > -TB_BOUND
            && alpha.abs() < TB_BOUND;
        let (late, futile, unpromising) = if quiet_prunable {
            // `modern` keeps half as many: 3 + d² when improving, (3 + d²)/2 otherwise.
            let lmp_count = match (node.modern, node.improving) {
                (true, true) => 3 + depth * depth,
                (true, false) => (3 + depth * depth) / 2,
                (false, true) => 3 + 2 * depth * depth,
                (false, false) => 3 + depth * depth,
            };
            (
                depth <= 4 && searched >= lmp_count as usize,
                depth <= 3 && node.eval + 110 * depth + 60 <= alpha && !facts.is_killer,
                node.modern
                    && depth <= HISTORY_PRUNE_DEPTH
                    && !facts.is_killer
                    && self.history.get(node.us, m) < -HISTORY_PRUNE_MARGIN * depth,
            )
        } else {
            (false, false, false)
        };
        // Static exchange pruning: at low depth, once a move has been searched, a capture
        // that loses more than a pawn a ply or a quiet move that loses material on its
        // square (checked below: not when it gives check). Never in check. A quiet move
        // that late-move pruning or futility already drops needs no exchange worked out.
        let see_prunable = node.full
            && !node.pv_node
            && !node.in_check
            && searched > 0
            && best > -TB_BOUND
            && depth <= SEE_PRUNE_DEPTH
            && (!quiet || (quiet_prunable && !late && !futile && !unpromising));
        let see_fails = see_prunable && {
            let threshold = if quiet {
                -SEE_QUIET_MARGIN * depth
            } else {
                -SEE_CAPTURE_MARGIN * depth
            };
            !order::see_at_least(board, m, threshold)
        };
        board.make(m);
        let gives_check = board.in_check();
        // A check extends the line, unless the checking piece is simply lost on its square.
        let extend_check = gives_check && {
            if node.modern {
                board.unmake();
                let safe = order::see_at_least(board, m, 0);
                board.make(m);
                safe
            } else {
                true
            }
        };
        if quiet_prunable && !gives_check && (late || futile || unpromising || see_fails) {
            board.unmake();
            let why = if late {
                Skip::Lmp
            } else if futile {
                Skip::Futility
            } else if unpromising {
                Skip::History
            } else {
                Skip::See
            };
            cx.rec.skip(node.ply + 1, m, why);
            return None;
        }
        if see_fails && !quiet {
            board.unmake();
            cx.rec.skip(node.ply + 1, m, Skip::See);
            return None;
        }
        facts.gives_check = gives_check;
        facts.extend_check = extend_check;
        Some(facts)
    }

    /// The child after the move (made), counted and entered, extended (not past half the
    /// stack: a double singular extension outranks a check's, a check's outranks the
    /// singular test's reduction) and searched: the first move (and every move in `seed`)
    /// in the full window; later ones in a null window, reduced when late and quiet, then
    /// at full depth and in the full window as long as they beat α. Its score from this
    /// node's side.
    #[inline(always)]
    pub(super) fn search_child<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        node: &Node,
        moves: &Moves,
        facts: &MoveFacts,
        searched: usize,
        singular_ext: i32,
    ) -> i32 {
        let (ply, alpha, beta, m) = (node.ply, node.alpha, node.beta, facts.m);
        cx.rec.enter(ply + 1, m, self.stats.nodes);
        self.stats.nodes += 1;
        let ext = if !node.full || ply >= MAX_PLY / 2 {
            0
        } else if singular_ext == 2 {
            2
        } else if facts.extend_check {
            1
        } else {
            singular_ext
        };
        let new_depth = node.depth - 1 + ext;
        self.stack[ply + 1].null_move = false;
        self.stack[ply + 1].doubles = self.stack[ply].doubles + u8::from(ext == 2);
        self.stack[ply].moved = facts.moved;
        self.stack[ply + 1].on_pv = moves.on_pv && m == moves.ctx.pv_move;
        if searched == 0 || !node.full {
            cx.rec.pass(-beta, -alpha, 0);
            self.stack[ply + 1].cut_node = !node.pv_node && !node.cut_node;
            return -self.alphabeta(cx, ply + 1, new_depth, -beta, -alpha, node.pv_node);
        }
        let r = self.late_move_reduction(node, moves, facts, searched, new_depth);
        if r > 0 {
            self.stats.reduced += 1;
        }
        cx.rec.pass(-alpha - 1, -alpha, r);
        // A reduced move is expected to fail low, so its reply to fail high.
        self.stack[ply + 1].cut_node = r > 0 || !node.cut_node;
        let mut s = -self.alphabeta(cx, ply + 1, new_depth - r, -alpha - 1, -alpha, false);
        if s > alpha && r > 0 {
            self.stats.researched += 1;
            cx.rec.pass(-alpha - 1, -alpha, 0);
            self.stack[ply + 1].cut_node = !node.cut_node;
            s = -self.alphabeta(cx, ply + 1, new_depth, -alpha - 1, -alpha, false);
        }
        if node.pv_node && s > alpha && s < beta {
            cx.rec.pass(-beta, -alpha, 0);
            self.stack[ply + 1].cut_node = false;
            s = -self.alphabeta(cx, ply + 1, new_depth, -beta, -alpha, true);
        }
        s
    }

    /// Late-move reduction, in plies, of a move after the first (searched in a null window).
    /// The root reduces late quiet moves by one ply less than the table, counted by their
    /// place in the root order. Elsewhere a quiet move from the third searched on, out of
    /// check and no killer, is reduced by the table, a ply less on the PV, a ply more when
    /// not improving; by its history (under `modern`: butterfly and both continuation
    /// entries, a move that has cut before here less, one that never does more); and more
    /// at an expected cut node under `modern`.
    #[inline(always)]
    fn late_move_reduction(
        &self,
        node: &Node,
        moves: &Moves,
        facts: &MoveFacts,
        searched: usize,
        new_depth: i32,
    ) -> i32 {
        let (depth, i, m) = (node.depth, facts.index, facts.m);
        if node.root {
            return if depth >= 3 && i >= 3 && facts.quiet && !facts.gives_check && !node.in_check {
                (self.lmr[depth.min(63) as usize][i.min(63)] as i32 - 1).clamp(0, new_depth - 1)
            } else {
                0
            };
        }
        let late_quiet = depth >= 3
            && searched >= 2
            && facts.quiet
            && !facts.gives_check
            && !node.in_check
            && !facts.is_killer;
        if !late_quiet {
            return 0;
        }
        let mut r = self.lmr[depth.min(63) as usize][searched.min(63)] as i32;
        if node.pv_node {
            r -= 1;
        }
        if !node.improving {
            r += 1;
        }
        if node.modern {
            let follow = moves.ctx.follow;
            let stat = self.history.get(node.us, m)
                + facts.moved.map_or(0, |k| {
                    self.history.cont(follow[0], k) + self.history.cont(follow[1], k)
                });
            r -= (stat / LMR_HISTORY_DIVISOR).clamp(-LMR_HISTORY_PLIES, LMR_HISTORY_PLIES);
        } else if self.history.get(node.us, m) > 2000 {
            r -= 1;
        }
        if node.cut_node && node.modern {
            r += CUT_NODE_REDUCTION;
        }
        r.clamp(0, new_depth - 1)
    }
}
