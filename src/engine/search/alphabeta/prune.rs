//! Pruning before a node's moves are searched: razoring, reverse futility, the null move
//! and ProbCut, each of which can settle a node off the PV without trying its moves.

use std::ops::ControlFlow::{self, Break, Continue};

use super::Node;
use crate::chess::types::{Move, PieceKind};
use crate::engine::order::{self, PieceTo};
use crate::engine::score::{Bound, TB_BOUND};
use crate::engine::search::record::{Recorder, Skip};
use crate::engine::search::{Cx, Searcher};
use crate::engine::tt::TtData;

/// Razoring: up to this remaining depth, a node whose static evaluation is this many
/// centipawns per ply below α is settled by quiescence when quiescence agrees.
const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: i32 = 300;
/// ProbCut: from this remaining depth, a capture that wins at least the gap to
/// `β + PROBCUT_MARGIN` by exchange is searched 4 plies shallower against that raised
/// bound; if it holds there, the node fails high.
const PROBCUT_DEPTH: i32 = 5;
const PROBCUT_MARGIN: i32 = 200;

impl Searcher {
    /// Pruning before any move is searched (a node off the PV, not in check, no mate or
    /// tablebase result at stake in β): razoring, reverse futility, the null move and
    /// ProbCut.
    #[inline(always)]
    pub(super) fn prune_before_moves<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        node: &Node,
    ) -> ControlFlow<i32> {
        let (depth, alpha, beta, eval) = (node.depth, node.alpha, node.beta, node.eval);
        if node.modern
            && !node.testing
            && depth <= RAZOR_DEPTH
            && eval + RAZOR_MARGIN * depth <= alpha
        {
            self.razor(cx, node)?;
        }
        // Reverse futility: far above beta at low depth, the opponent will not catch up.
        if depth <= 6 && eval - 85 * (depth - i32::from(node.improving)) >= beta {
            cx.rec.end(Skip::ReverseFutility);
            return Break(eval);
        }
        let board = &*cx.board;
        if depth >= 3
            && eval >= beta
            && board.has_non_pawn_material(board.side_to_move())
            && !self.stack[node.ply].null_move
            && !node.testing
        {
            self.null_move(cx, node)?;
        }
        // ProbCut: a capture that holds a bound well above β at reduced depth shows the
        // node would fail high; tried unless the table already says the node is below it.
        if node.modern && !node.testing && depth >= PROBCUT_DEPTH {
            let pc_beta = beta + PROBCUT_MARGIN;
            let below = node.tt_hit.is_some_and(|h| {
                h.depth >= depth - 3
                    && h.score < pc_beta
                    && matches!(h.bound, Bound::Upper | Bound::Exact)
            });
            if !below
                && let Some((m, s)) = self.probcut(
                    cx,
                    node.ply,
                    depth,
                    pc_beta,
                    node.static_eval,
                    node.cut_node,
                )
            {
                self.tt.store(
                    node.key,
                    node.ply,
                    TtData {
                        mv: m,
                        score: s,
                        eval: node.raw_eval,
                        depth: depth - 3,
                        bound: Bound::Lower,
                    },
                );
                cx.rec.end(Skip::ProbCut);
                return Break(s);
            }
            if self.stopped {
                return Break(0);
            }
        }
        Continue(())
    }

    /// Razoring: far below α near the horizon, only captures can help; if quiescence finds
    /// none that reaches α, the node fails low.
    #[inline(always)]
    fn razor<R: Recorder>(&mut self, cx: &mut Cx<R>, node: &Node) -> ControlFlow<i32> {
        let (ply, alpha) = (node.ply, node.alpha);
        cx.rec.begin_hidden();
        let v = self.qsearch(cx, ply, alpha, alpha + 1);
        cx.rec.end_hidden();
        self.stack[ply].pv_len = ply;
        if self.stopped {
            return Break(0);
        }
        if v <= alpha {
            cx.rec.end(Skip::Razor);
            return Break(v);
        }
        Continue(())
    }

    /// The null move: if passing (searched `r` plies shallower) still fails high, a real
    /// move will too.
    #[inline(always)]
    fn null_move<R: Recorder>(&mut self, cx: &mut Cx<R>, node: &Node) -> ControlFlow<i32> {
        let (ply, depth, beta) = (node.ply, node.depth, node.beta);
        let r = 3 + depth / 4 + ((node.eval - beta) / 200).min(2);
        cx.board.make_null();
        self.stack[ply].moved = None;
        self.stats.null_tries += 1;
        self.stack[ply + 1].null_move = true;
        self.stack[ply + 1].doubles = self.stack[ply].doubles;
        self.stack[ply + 1].on_pv = false;
        self.stack[ply + 1].cut_node = !node.cut_node;
        cx.rec.enter(ply + 1, Move::NONE, self.stats.nodes);
        self.stats.nodes += 1;
        cx.rec.pass(-beta, -beta + 1, r);
        let s = -self.alphabeta(cx, ply + 1, depth - 1 - r, -beta, -beta + 1, false);
        cx.rec.leave(-s, self.stats.nodes);
        cx.board.unmake();
        if self.stopped {
            return Break(0);
        }
        if s >= beta {
            self.stats.null_cutoffs += 1;
            cx.rec.end(Skip::NullMove);
            return Break(if s >= TB_BOUND { beta } else { s });
        }
        Continue(())
    }

    /// ProbCut's trial at `ply` (`depth` plies left, a non-PV node not in check): each
    /// capture or queen promotion that wins at least `pc_beta - static_eval` by exchange is
    /// made, checked by quiescence against `pc_beta`, and if that holds, searched
    /// `depth - 4` plies deep in the null window at `pc_beta`. The first that reaches it,
    /// with its score; the tree records none of these searches (as with razoring).
    fn probcut<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        ply: usize,
        depth: i32,
        pc_beta: i32,
        static_eval: i32,
        cut_node: bool,
    ) -> Option<(Move, i32)> {
        let captures = cx.board.tactical_moves();
        cx.rec.begin_hidden();
        let mut found = None;
        for &m in captures.as_slice() {
            if m.promotion().is_some_and(|p| p != PieceKind::Queen)
                || !order::see_at_least(cx.board, m, pc_beta - static_eval)
            {
                continue;
            }
            let moved = PieceTo::of(cx.board, m);
            cx.board.make(m);
            self.stack[ply].moved = moved;
            self.stack[ply + 1].null_move = false;
            self.stack[ply + 1].doubles = self.stack[ply].doubles;
            self.stack[ply + 1].on_pv = false;
            self.stack[ply + 1].cut_node = !cut_node;
            cx.rec.enter(ply + 1, m, self.stats.nodes);
            self.stats.nodes += 1;
            cx.rec.pass(-pc_beta, -pc_beta + 1, 0);
            let mut s = -self.qsearch(cx, ply + 1, -pc_beta, -pc_beta + 1);
            if s >= pc_beta && !self.stopped {
                // 3 plies below the child's full depth (`depth - 1`).
                cx.rec.pass(-pc_beta, -pc_beta + 1, 3);
                s = -self.alphabeta(cx, ply + 1, depth - 4, -pc_beta, -pc_beta + 1, false);
            }
            cx.rec.leave(-s, self.stats.nodes);
            cx.board.unmake();
            if self.stopped {
                break;
            }
            if s >= pc_beta {
                found = Some((m, s));
                break;
            }
        }
        cx.rec.end_hidden();
        self.stack[ply].pv_len = ply;
        found
    }
}
