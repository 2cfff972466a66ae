//! A node's move loop: its moves ordered and handed out one by one, the root's reports for
//! each, a new best or a cutoff, and the killers and history a cutoff teaches.

use std::ops::ControlFlow::{self, Break, Continue};
use std::time::Duration;

use super::per_move::SINGULAR_DEPTH;
use super::{MoveFacts, Moves, Node, Searched};
use crate::chess::types::{Color, Move};
use crate::engine::order::{self, OrderContext, Picker, PieceTo, Scheme};
use crate::engine::report::SearchEvent;
use crate::engine::score::{Bound, MATE, TB_BOUND};
use crate::engine::search::record::Recorder;
use crate::engine::search::{Cx, INF, Profile, Searcher};

impl Searcher {
    /// The node's moves in order (into `moves`, fresh): the root's as ordered once for this
    /// iteration (with reasons, for the report); elsewhere in stages under `modern` (the
    /// hash move before any generation), or generated, scored here and picked lazily. A
    /// node without a legal move found here is mate or stalemate.
    #[inline(always)]
    pub(super) fn order_moves<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        node: &Node,
        moves: &mut Moves,
    ) -> ControlFlow<i32> {
        let board = &mut *cx.board;
        let ply = node.ply;
        moves.on_pv = self.stack[ply].on_pv;
        // Counter-move and continuation history belong to the `full` profile; `seed` orders
        // as its pages do.
        let follow = if node.full {
            self.stack.follow(ply)
        } else {
            [None, None]
        };
        moves.ctx = OrderContext {
            pv_move: if moves.on_pv {
                self.prev_pv.get(ply).copied().unwrap_or(Move::NONE)
            } else {
                Move::NONE
            },
            hash_move: node.hash_move,
            killers: self.stack[ply].killers,
            counter: self.history.counter(follow[0]),
            follow,
        };
        let ctx = &moves.ctx;
        moves.picker = (node.full && !node.root && self.scheme == Scheme::Modern)
            .then(|| Picker::staged(node.hash_move));
        if node.root {
            for (i, &m) in self.root_order.iter().enumerate() {
                moves.list.push(m);
                moves.scores.push(-(i as i32));
            }
        } else if moves.picker.is_some() {
            cx.rec
                .order(|| order::explain(board, self.scheme, ctx, &self.history));
        } else {
            moves.list = board.legal_moves();
            if moves.list.is_empty() {
                return Break(if node.in_check { -MATE + ply as i32 } else { 0 });
            }
            moves.scores = order::zero_scores(moves.list.len());
            order::score_moves(
                board,
                &moves.list,
                self.scheme,
                ctx,
                &self.history,
                &mut moves.scores,
            );
            let list = &moves.list;
            cx.rec
                .order(|| order::explain_moves(board, list, self.scheme, ctx, &self.history));
        }
        Continue(())
    }

    /// The move loop: each move in order, the singular test for the hash move, per-move
    /// pruning, the child searched, then a new best or a cutoff. The singular test settles
    /// the node by a multi-cut (or a stop inside it).
    #[inline(always)]
    pub(super) fn search_moves<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        node: &mut Node,
        moves: &mut Moves,
    ) -> ControlFlow<i32, Searched> {
        // The hash move may be singular: it held β deep enough before, and a search of the
        // other moves may show that none comes close.
        let singular = node.tt_hit.filter(|hit| {
            node.modern
                && !node.root
                && !node.testing
                && node.depth >= SINGULAR_DEPTH
                && hit.depth >= node.depth - 3
                && matches!(hit.bound, Bound::Lower | Bound::Exact)
                && hit.score.abs() < TB_BOUND
        });
        let original_alpha = node.alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets_tried: arrayvec::ArrayVec<(Move, Option<PieceTo>), 64> =
            arrayvec::ArrayVec::new();
        while let Some((i, m)) = self.next_move(cx, moves) {
            if m == node.excluded {
                continue;
            }
            if node.root && !self.begin_root_move(cx, node.depth, i, m) {
                continue;
            }
            let singular_ext = match singular {
                Some(hit) if m == hit.mv && searched == 0 => {
                    self.singular_extension(cx, node, hit)?
                }
                _ => 0,
            };
            let quiet = !m.is_tactical();
            let killers = self.stack[node.ply].killers;
            let facts = MoveFacts {
                m,
                index: i,
                quiet,
                is_killer: m == killers[0] || m == killers[1],
                moved: PieceTo::of(cx.board, m),
                gives_check: false,
                extend_check: false,
            };
            let Some(facts) = self.make_unless_pruned(cx, node, facts, searched, best) else {
                continue;
            };
            let score = self.search_child(cx, node, moves, &facts, searched, singular_ext);
            cx.rec.leave(-score, self.stats.nodes);
            cx.board.unmake();
            if self.stopped {
                break;
            }
            if node.root {
                if let Some(n) = self.root_nodes.get_mut(i) {
                    *n += self.stats.nodes - self.root_move_start;
                }
                self.root_move_done(cx, i, score, node.alpha, node.beta, searched);
            }
            searched += 1;
            if score > best {
                best = score;
                best_move = m;
                if score > node.alpha {
                    node.alpha = score;
                    self.stack.update_pv(node.ply, m);
                    if score >= node.beta {
                        cx.rec.cut();
                        if !node.root {
                            let cut = quiet.then_some((m, facts.moved));
                            let before = &quiets_tried[..];
                            self.note_cutoff(
                                node.ply,
                                node.us,
                                node.depth,
                                searched - 1,
                                cut,
                                before,
                            );
                        }
                        break;
                    }
                } else if node.root && self.stack[0].pv_len == 0 {
                    // Fail low on every move so far: still name a move for the PV.
                    self.stack.update_pv(0, m);
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push((m, facts.moved));
            }
        }
        Continue(Searched {
            best,
            best_move,
            count: searched,
            original_alpha,
        })
    }

    /// The next move to try and its place in the order (0-based); `None` when every move
    /// was handed out.
    #[inline(always)]
    fn next_move<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        moves: &mut Moves,
    ) -> Option<(usize, Move)> {
        let i = moves.next;
        let m = match moves.picker.as_mut() {
            Some(p) => {
                let m = p.next(cx.board, self.scheme, &moves.ctx, &self.history);
                if p.take_rescored() {
                    // The quiet moves were scored just now, with the history as it stands:
                    // the recorded ordering shows those scores.
                    let board = &*cx.board;
                    cx.rec
                        .order(|| order::explain(board, self.scheme, &moves.ctx, &self.history));
                }
                m?
            }
            None if i < moves.list.len() => {
                order::pick(&mut moves.list, &mut moves.scores, i);
                moves.list.as_slice()[i]
            }
            None => return None,
        };
        moves.next += 1;
        Some((i, m))
    }

    /// At the root, before move `m` (number `i` in the order) is searched: `false` for a
    /// move an earlier MultiPV line took; otherwise its node count starts and, once the
    /// first tenth of a second is over (iterations fly by then), `currmove` reports it.
    #[inline(always)]
    fn begin_root_move<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        depth: i32,
        i: usize,
        m: Move,
    ) -> bool {
        if self.excluded.contains(&m) {
            return false;
        }
        self.root_move_start = self.stats.nodes;
        if self.start.elapsed() >= Duration::from_millis(100) {
            (cx.emit)(SearchEvent::CurrentMove {
                id: cx.id,
                depth: depth as u32,
                mv: m,
                number: i as u32 + 1,
            });
        }
        true
    }

    /// A fail high on the move searched `index`-th (0-based): statistics, and the killers and history for the quiet move that cut
    /// (the quiet moves tried before it did not: less credit for them).
    /// `cut`: the move that cut with its piece-to key, when it is quiet; `before`: the quiet
    /// moves tried here before it. Continuation history and counter-moves learn only in
    /// profile `full` (the `seed` profile does not use them).
    fn note_cutoff(
        &mut self,
        ply: usize,
        us: Color,
        depth: i32,
        index: usize,
        cut: Option<(Move, Option<PieceTo>)>,
        before: &[(Move, Option<PieceTo>)],
    ) {
        self.stats.fail_high += 1;
        self.stats.cut_index_sum += index as u64;
        self.stack[ply].cut_at = index as u32;
        if index == 0 {
            self.stats.fail_high_first += 1;
        }
        if let Some((m, key)) = cut {
            let killers = &mut self.stack[ply].killers;
            if killers[0] != m {
                killers[1] = killers[0];
                killers[0] = m;
            }
            let depth = depth as u32;
            let follow = if self.profile == Profile::Full {
                self.stack.follow(ply)
            } else {
                [None, None]
            };
            self.history.reward(us, m, depth);
            if let Some(key) = key {
                self.history.reward_follow(follow, key, m, depth);
            }
            for &(q, qkey) in before {
                self.history.penalize(us, q, depth);
                if let Some(qkey) = qkey {
                    self.history.penalize_follow(follow, qkey, depth);
                }
            }
        }
    }
}
