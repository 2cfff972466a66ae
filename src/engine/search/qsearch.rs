//! Quiescence (seed 003): captures and queen promotions until the position is quiet, all
//! evasions when in check (so mates are seen here too).

use super::record::{Recorder, Skip};
use super::{Cx, INF, Profile, Searcher};
use crate::chess::types::{MoveList, PieceKind};
use crate::engine::order::{self, OrderContext, Scheme};
use crate::engine::score::{Bound, MATE};
use crate::engine::tt::TtData;

/// Rough piece values for delta pruning (pawn, knight, bishop, rook, queen).
const DELTA_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];

impl Searcher {
    /// One pass of quiescence at `ply`; the recorder hears what it returned.
    #[inline(always)]
    pub(super) fn qsearch<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let s = self.qsearch_node(cx, ply, alpha, beta);
        cx.rec.result(s);
        s
    }

    fn qsearch_node<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        ply: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.stack[ply].pv_len = ply;
        cx.rec.quiescence();
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        let board = &mut *cx.board;
        if ply >= super::MAX_PLY - 1 {
            return self.eval_cache.evaluate(board, &self.eval_cfg);
        }
        let full = self.profile == Profile::Full;
        let key = board.hash();
        let mut hash_move = crate::chess::types::Move::NONE;
        // The table keeps each position's static evaluation: a hit spares computing it again.
        let mut tt_eval = None;
        let mut tt_hit = None;
        if full {
            self.stats.tt_probes += 1;
        }
        if full && let Some(hit) = self.tt.probe(key, ply) {
            self.stats.tt_hits += 1;
            hash_move = hit.mv;
            tt_eval = Some(hit.eval);
            tt_hit = Some(hit);
            if hit.bound.settles(hit.score, alpha, beta) {
                cx.rec.end(Skip::Tt);
                return hit.score;
            }
        }

        let in_check = board.in_check();
        let mut best;
        let stand_pat;
        let mut raw_eval = 0;
        let mut moves: MoveList;
        if in_check {
            moves = board.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INF;
            stand_pat = -INF;
        } else {
            raw_eval = tt_eval.unwrap_or_else(|| self.eval_cache.evaluate(board, &self.eval_cfg));
            // Corrected by the pawn structure's history, as in the main search.
            let corrected = self.corrected(board, raw_eval);
            // Under `modern`, the table's score stands in for the static evaluation where its
            // bound says it is nearer the truth (as in the main search's pruning).
            stand_pat = match tt_hit {
                Some(hit) if self.scheme == Scheme::Modern => hit.nearer_than(corrected),
                _ => corrected,
            };
            cx.rec.static_eval(Some(stand_pat));
            if stand_pat >= beta {
                cx.rec.end(Skip::StandPat);
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
            moves = board.tactical_moves();
        }
        let original_alpha = alpha;
        let mut scores = order::zero_scores(moves.len());
        let ctx = OrderContext {
            pv_move: crate::chess::types::Move::NONE,
            hash_move,
            killers: self.stack[ply].killers,
            ..OrderContext::default()
        };
        order::score_moves(board, &moves, self.scheme, &ctx, &self.history, &mut scores);
        cx.rec
            .order(|| order::explain_moves(board, &moves, self.scheme, &ctx, &self.history));
        let mut best_move = crate::chess::types::Move::NONE;
        let mut searched = 0u32;
        for i in 0..moves.len() {
            order::pick(&mut moves, &mut scores, i);
            let m = moves.as_slice()[i];
            let board = &mut *cx.board;
            if !in_check {
                // Under-promotions are never better than the queen in quiescence.
                if let Some(p) = m.promotion()
                    && p != PieceKind::Queen
                {
                    cx.rec.skip(ply + 1, m, Skip::UnderPromotion);
                    continue;
                }
                if full {
                    // Delta pruning: even winning the piece cannot lift alpha.
                    let gain = board
                        .piece_at(m.to())
                        .map_or(100, |p| DELTA_VALUES[p.kind().index()]);
                    if m.promotion().is_none() && stand_pat + gain + 200 <= alpha {
                        cx.rec.skip(ply + 1, m, Skip::Delta);
                        continue;
                    }
                    // Losing captures cannot help here. Under `modern` the ordering score
                    // already says so (negative exactly when SEE < 0); otherwise run SEE
                    // only where the capturer is worth more than its victim.
                    let losing = if self.scheme == Scheme::Modern {
                        scores[i] < 0
                    } else {
                        let attacker = board
                            .piece_at(m.from())
                            .map_or(0, |p| DELTA_VALUES[p.kind().index()]);
                        attacker > gain && m.promotion().is_none() && order::see(board, m) < 0
                    };
                    if losing {
                        cx.rec.skip(ply + 1, m, Skip::LosingCapture);
                        continue;
                    }
                }
            }
            board.make(m);
            cx.rec.enter(ply + 1, m, self.stats.nodes);
            self.stats.nodes += 1;
            self.stats.qnodes += 1;
            cx.rec.pass(-beta, -alpha, 0);
            let score = -self.qsearch(cx, ply + 1, -beta, -alpha);
            cx.rec.leave(-score, self.stats.nodes);
            cx.board.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.stack.update_pv(ply, m);
                    if score >= beta {
                        cx.rec.cut();
                        self.stack[ply].cut_at = searched - 1;
                        break;
                    }
                }
            }
        }
        if full {
            let bound = Bound::of(best, original_alpha, beta);
            let ev = if in_check { 0 } else { raw_eval };
            self.tt.store(
                key,
                ply,
                TtData {
                    mv: best_move,
                    score: best,
                    eval: ev,
                    depth: 0,
                    bound,
                },
            );
        }
        best
    }
}
