//! The alpha-beta search (seeds 000, 003): negamax with principal variation search, the
//! transposition table, null move, futility and late-move pruning, late-move reductions and
//! check extension (in `modern`, not for a check that loses its piece) in the `full` profile,
//! and under `modern` also singular extension, razoring, ProbCut, history pruning and deeper
//! reductions at expected cut nodes; plain alpha-beta with PV-first ordering in `seed`.
//! The root is the same code as any node; what only the root does (its move list ordered
//! once per iteration with reasons, MultiPV exclusions, `searchmoves`, `currmove` reports)
//! is switched by `ply == 0`.

use std::time::Duration;

use super::record::{Recorder, Skip};
use super::{Cx, INF, MAX_PLY, Profile, Searcher};
use crate::chess::Board;
use crate::chess::types::{Color, Move, MoveList, PieceKind};
use crate::engine::order::{self, OrderContext, Picker, PieceTo, Scheme};
use crate::engine::report::SearchEvent;
use crate::engine::score::{Bound, MATE, MATE_BOUND};
use crate::engine::tt::TtData;

/// Late-move reduction table, indexed by depth and move number: 1 + ln(depth)·ln(move)/2
/// (was 0.75 + ln·ln/2.25: +13.3 Elo over 600 games at 20,000 nodes a move).
pub(super) fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = 1.0 + (d as f64).ln() * (m as f64).ln() / 2.0;
            *r = v.max(0.0) as u8;
        }
    }
    t
}

/// Static exchange pruning works up to this remaining depth.
const SEE_PRUNE_DEPTH: i32 = 6;
/// A capture whose SEE loses more than this many centipawns per ply of depth is pruned.
const SEE_CAPTURE_MARGIN: i32 = 100;
/// A quiet (non-checking) move whose SEE loses more than this per ply of depth is pruned.
const SEE_QUIET_MARGIN: i32 = 60;
/// Singular extension: from this remaining depth, a hash move that is a lower bound (or
/// exact) from at least `depth - 3` is tested for being the only good move.
const SINGULAR_DEPTH: i32 = 7;
/// A singular hash move whose alternatives all fall this far below the singular bound, at
/// a node off the principal variation, is extended two plies instead of one; at most
/// [`DOUBLE_EXTENSION_LIMIT`] times on one line.
const DOUBLE_EXTENSION_MARGIN: i32 = 20;
const DOUBLE_EXTENSION_LIMIT: u8 = 6;
/// Internal iterative reduction: from this remaining depth, a node without a hash move is
/// searched a ply shallower (its move order is a guess; the next iteration finds it again).
const IIR_DEPTH: i32 = 5;
/// Razoring: up to this remaining depth, a node whose static evaluation is this many
/// centipawns per ply below α is settled by quiescence when quiescence agrees.
const RAZOR_DEPTH: i32 = 2;
const RAZOR_MARGIN: i32 = 300;
/// Late-move reduction under `modern`: a ply less per this much history (butterfly and the
/// continuation entries one and two plies back, each within ±16,384), a ply more per this
/// much below zero, at most [`LMR_HISTORY_PLIES`] either way.
const LMR_HISTORY_DIVISOR: i32 = 8_000;
const LMR_HISTORY_PLIES: i32 = 2;

/// Late-move reduction: extra plies for a late quiet move at an expected cut node.
const CUT_NODE_REDUCTION: i32 = 2;
/// History pruning: up to this remaining depth, a late quiet non-checking move whose
/// butterfly history is below `-HISTORY_PRUNE_MARGIN · depth` is not searched.
const HISTORY_PRUNE_DEPTH: i32 = 3;
const HISTORY_PRUNE_MARGIN: i32 = 1000;
/// ProbCut: from this remaining depth, a capture that wins at least the gap to
/// `β + PROBCUT_MARGIN` by exchange is searched 4 plies shallower against that raised
/// bound; if it holds there, the node fails high.
const PROBCUT_DEPTH: i32 = 5;
const PROBCUT_MARGIN: i32 = 200;

impl Searcher {
    /// The score of `cx.board` at `ply` searched `depth` plies deep in the window
    /// `alpha..beta`, from the side to move's view; the line is left in the stack's PV.
    /// `pv_node`: the window is open (a PV node), not a null window.
    pub(super) fn alphabeta_node<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        ply: usize,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(cx, ply, alpha, beta);
        }
        let root = ply == 0;
        let cut_node = !root && self.stack[ply].cut_node;
        if root {
            self.stack[ply].doubles = 0;
        }
        self.stack[ply].pv_len = ply;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let board = &mut *cx.board;
        if ply >= MAX_PLY - 1 {
            return self.eval_cache.evaluate(board, &self.eval_cfg);
        }
        let full = self.profile == Profile::Full;
        // The newer pruning, reductions and extensions belong to the `modern` scheme of the
        // `full` profile; the other schemes search as they did.
        let modern = full && self.scheme == Scheme::Modern;
        let key = board.hash();
        self.stack[ply].key = key;
        // Set while this node only tests whether its hash move is singular: the result is
        // not the position's, so the table neither settles nor stores it.
        let excluded = self.stack[ply].excluded;
        let testing = !excluded.is_none();

        if !root {
            // Draws inside the tree: repetition, fifty moves, dead material.
            let fifty = board.halfmove_clock() >= 100;
            let clock = board.halfmove_clock() as usize;
            if fifty || self.repeated(ply, key, clock) || board.insufficient_material() {
                cx.rec.end(Skip::Draw);
                if fifty && board.in_check() && !board.has_legal_move() {
                    return -MATE + ply as i32;
                }
                return 0;
            }
            // Mate-distance pruning: no line from here can beat a mate already found nearer.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            cx.rec.window(alpha, beta);
            if alpha >= beta {
                cx.rec.end(Skip::MateDistance);
                return alpha;
            }
        }

        // The root's entry would only ever be probed through a repetition of the root.
        let use_tt = full && !root;
        let mut hash_move = Move::NONE;
        let mut tt_eval = None;
        let mut tt_hit = None;
        if use_tt {
            self.stats.tt_probes += 1;
        }
        if use_tt && let Some(hit) = self.tt.probe(key, ply) {
            self.stats.tt_hits += 1;
            hash_move = hit.mv;
            tt_eval = Some(hit.eval);
            tt_hit = Some(hit);
            if !pv_node
                && !testing
                && hit.depth >= depth
                && hit.bound.settles(hit.score, alpha, beta)
            {
                cx.rec.end(Skip::Tt);
                return hit.score;
            }
        }

        let in_check = board.in_check();
        let raw_eval = if in_check {
            -INF
        } else {
            tt_eval.unwrap_or_else(|| self.eval_cache.evaluate(board, &self.eval_cfg))
        };
        // Under `modern`, the static evaluation is corrected by what searches of this pawn
        // structure found (correction history); the table keeps the raw one.
        let pawn_key = board.pawn_hash();
        let static_eval = if in_check {
            raw_eval
        } else {
            self.corrected(board, raw_eval)
        };
        self.stack[ply].static_eval = static_eval;
        cx.rec.static_eval((!in_check).then_some(static_eval));
        // Improving: the static evaluation rose since our previous move (or we were in check
        // then). A node whose prospects fall is pruned and reduced harder.
        let improving = !in_check && ply >= 2 && {
            let before = self.stack[ply - 2].static_eval;
            before == -INF || static_eval > before
        };

        // The table's score, where its bound says it is nearer the truth than the static
        // evaluation, stands in for it in the pruning tests below.
        let eval = match tt_hit {
            Some(hit) if modern && !in_check => hit.nearer_than(static_eval),
            _ => static_eval,
        };

        if modern && !testing && depth >= IIR_DEPTH && hash_move.is_none() {
            depth -= 1;
        }

        if full && !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Razoring: far below α near the horizon, only captures can help; if quiescence
            // finds none that reaches α, the node fails low.
            if modern && !testing && depth <= RAZOR_DEPTH && eval + RAZOR_MARGIN * depth <= alpha {
                cx.rec.begin_hidden();
                let v = self.qsearch(cx, ply, alpha, alpha + 1);
                cx.rec.end_hidden();
                self.stack[ply].pv_len = ply;
                if self.stopped {
                    return 0;
                }
                if v <= alpha {
                    cx.rec.end(Skip::Razor);
                    return v;
                }
            }
            let board = &mut *cx.board;
            // Reverse futility: far above beta at low depth, the opponent will not catch up.
            if depth <= 6 && eval - 85 * (depth - i32::from(improving)) >= beta {
                cx.rec.end(Skip::ReverseFutility);
                return eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if depth >= 3
                && eval >= beta
                && board.has_non_pawn_material(board.side_to_move())
                && !self.stack[ply].null_move
                && !testing
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(2);
                board.make_null();
                self.stack[ply].moved = None;
                self.stats.null_tries += 1;
                self.stack[ply + 1].null_move = true;
                self.stack[ply + 1].doubles = self.stack[ply].doubles;
                self.stack[ply + 1].on_pv = false;
                self.stack[ply + 1].cut_node = !cut_node;
                cx.rec.enter(ply + 1, Move::NONE, self.stats.nodes);
                self.stats.nodes += 1;
                cx.rec.pass(-beta, -beta + 1, r);
                let s = -self.alphabeta(cx, ply + 1, depth - 1 - r, -beta, -beta + 1, false);
                cx.rec.leave(-s, self.stats.nodes);
                cx.board.unmake();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    self.stats.null_cutoffs += 1;
                    cx.rec.end(Skip::NullMove);
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
            // ProbCut: a capture that holds a bound well above β at reduced depth shows the
            // node would fail high; tried unless the table already says the node is below it.
            if modern && !testing && depth >= PROBCUT_DEPTH {
                let pc_beta = beta + PROBCUT_MARGIN;
                let below = tt_hit.is_some_and(|h| {
                    h.depth >= depth - 3
                        && h.score < pc_beta
                        && matches!(h.bound, Bound::Upper | Bound::Exact)
                });
                if !below
                    && let Some((m, s)) =
                        self.probcut(cx, ply, depth, pc_beta, static_eval, cut_node)
                {
                    self.tt.store(
                        key,
                        ply,
                        TtData {
                            mv: m,
                            score: s,
                            eval: raw_eval,
                            depth: depth - 3,
                            bound: Bound::Lower,
                        },
                    );
                    cx.rec.end(Skip::ProbCut);
                    return s;
                }
                if self.stopped {
                    return 0;
                }
            }
        }

        // The root's moves were ordered once for this iteration (with reasons, for the
        // report); keep that order. Elsewhere score them here and pick lazily.
        let board = &mut *cx.board;
        let on_pv = self.stack[ply].on_pv;
        // Counter-move and continuation history belong to the `full` profile; `seed` orders
        // as its pages do.
        let follow = if full {
            self.stack.follow(ply)
        } else {
            [None, None]
        };
        let ctx = OrderContext {
            pv_move: if on_pv {
                self.prev_pv.get(ply).copied().unwrap_or(Move::NONE)
            } else {
                Move::NONE
            },
            hash_move,
            killers: self.stack[ply].killers,
            counter: self.history.counter(follow[0]),
            follow,
        };
        // The `modern` scheme in profile `full` picks in stages (the hash move before any
        // generation); the root and everything else score a generated list and pick lazily.
        let mut picker =
            (full && !root && self.scheme == Scheme::Modern).then(|| Picker::staged(hash_move));
        let mut scores = order::Scores::new();
        let mut moves = if root {
            let mut list = MoveList::new();
            for (i, &m) in self.root_order.iter().enumerate() {
                list.push(m);
                scores.push(-(i as i32));
            }
            list
        } else if picker.is_some() {
            cx.rec
                .order(|| order::explain(board, self.scheme, &ctx, &self.history));
            MoveList::new()
        } else {
            let moves = board.legal_moves();
            if moves.is_empty() {
                return if in_check { -MATE + ply as i32 } else { 0 };
            }
            scores = order::zero_scores(moves.len());
            order::score_moves(board, &moves, self.scheme, &ctx, &self.history, &mut scores);
            cx.rec
                .order(|| order::explain_moves(board, &moves, self.scheme, &ctx, &self.history));
            moves
        };

        // The hash move may be singular: it held β deep enough before, and a search of the
        // other moves may show that none comes close.
        let singular = tt_hit.filter(|hit| {
            modern
                && !root
                && !testing
                && depth >= SINGULAR_DEPTH
                && hit.depth >= depth - 3
                && matches!(hit.bound, Bound::Lower | Bound::Exact)
                && hit.score.abs() < MATE_BOUND
        });

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let us = board.side_to_move();
        let mut quiets_tried: arrayvec::ArrayVec<(Move, Option<PieceTo>), 64> =
            arrayvec::ArrayVec::new();
        let mut next = 0;
        loop {
            let i = next;
            let m = match picker.as_mut() {
                Some(p) => {
                    let m = p.next(cx.board, self.scheme, &ctx, &self.history);
                    if p.take_rescored() {
                        // The quiet moves were scored just now, with the history as it
                        // stands: the recorded ordering shows those scores.
                        let board = &*cx.board;
                        cx.rec
                            .order(|| order::explain(board, self.scheme, &ctx, &self.history));
                    }
                    match m {
                        Some(m) => m,
                        None => break,
                    }
                }
                None if i < moves.len() => {
                    order::pick(&mut moves, &mut scores, i);
                    moves.as_slice()[i]
                }
                None => break,
            };
            next += 1;
            if m == excluded {
                continue;
            }
            if root {
                if self.excluded.contains(&m) {
                    continue;
                }
                self.root_move_start = self.stats.nodes;
                // The move now searched, for `currmove` and the status bar; not in the first
                // tenth of a second, when iterations fly by.
                if self.start.elapsed() >= Duration::from_millis(100) {
                    (cx.emit)(SearchEvent::CurrentMove {
                        id: cx.id,
                        depth: depth as u32,
                        mv: m,
                        number: i as u32 + 1,
                    });
                }
            }
            // Singular extension: search the other moves at half depth, just below the hash
            // move's score. If all fail low the hash move is the only good one and is
            // searched a ply deeper (two, off the PV, when they all fall well short); if
            // they reach β anyway, more than one move refutes the opponent's last move and
            // the node fails high (multi-cut). If they reach the singular bound but not β
            // while the hash move's own score holds β, the hash move is not alone and
            // likely holds anyway: it is searched a ply shallower.
            let mut singular_ext = 0i32;
            if let Some(hit) = singular
                && m == hit.mv
                && searched == 0
            {
                let singular_beta = hit.score - 2 * depth;
                self.stack[ply].excluded = m;
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
                    return 0;
                }
                if s < singular_beta {
                    singular_ext = if !pv_node
                        && s < singular_beta - DOUBLE_EXTENSION_MARGIN
                        && self.stack[ply].doubles < DOUBLE_EXTENSION_LIMIT
                    {
                        self.stats.doubled += 1;
                        2
                    } else {
                        1
                    };
                    self.stats.singular += 1;
                } else if singular_beta >= beta {
                    cx.rec.end(Skip::MultiCut);
                    return singular_beta;
                } else if hit.score >= beta {
                    self.stats.shortened += 1;
                    singular_ext = -1;
                }
            }
            let quiet = !m.is_tactical();
            let killers = self.stack[ply].killers;
            let is_killer = m == killers[0] || m == killers[1];

            let board = &mut *cx.board;
            let moved = PieceTo::of(board, m);
            // Late-move pruning, futility and history pruning: quiet, non-checking moves far
            // down the list, far below α or with a poor history rarely matter at low depth.
            // Never while a mate score is at stake. (Whether the move gives check is known
            // only once it is made: below.)
            let quiet_prunable = full
                && !pv_node
                && !in_check
                && quiet
                && searched > 0
                && best > -MATE_BOUND
                && alpha.abs() < MATE_BOUND;
            let (late, futile, unpromising) = if quiet_prunable {
                // `modern` keeps half as many: 3 + d² when improving, (3 + d²)/2 otherwise.
                let lmp_count = match (modern, improving) {
                    (true, true) => 3 + depth * depth,
                    (true, false) => (3 + depth * depth) / 2,
                    (false, true) => 3 + 2 * depth * depth,
                    (false, false) => 3 + depth * depth,
                };
                (
                    depth <= 4 && searched >= lmp_count as usize,
                    depth <= 3 && eval + 110 * depth + 60 <= alpha && !is_killer,
                    modern
                        && depth <= HISTORY_PRUNE_DEPTH
                        && !is_killer
                        && self.history.get(us, m) < -HISTORY_PRUNE_MARGIN * depth,
                )
            } else {
                (false, false, false)
            };
            // Static exchange pruning: at low depth, once a move has been searched, a capture
            // that loses more than a pawn a ply or a quiet move that loses material on its
            // square (checked below: not when it gives check). Never in check. A quiet move
            // that late-move pruning or futility already drops needs no exchange worked out.
            let see_prunable = full
                && !pv_node
                && !in_check
                && searched > 0
                && best > -MATE_BOUND
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
                if modern {
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
                cx.rec.skip(ply + 1, m, why);
                continue;
            }
            if see_fails && !quiet {
                board.unmake();
                cx.rec.skip(ply + 1, m, Skip::See);
                continue;
            }
            cx.rec.enter(ply + 1, m, self.stats.nodes);
            self.stats.nodes += 1;
            // Extensions stop halfway down the stack; a double singular extension outranks
            // a check's, a check's outranks the singular test's reduction.
            let ext = if !full || ply >= MAX_PLY / 2 {
                0
            } else if singular_ext == 2 {
                2
            } else if extend_check {
                1
            } else {
                singular_ext
            };
            let new_depth = depth - 1 + ext;
            self.stack[ply + 1].null_move = false;
            self.stack[ply + 1].doubles = self.stack[ply].doubles + u8::from(ext == 2);
            self.stack[ply].moved = moved;
            self.stack[ply + 1].on_pv = on_pv && m == ctx.pv_move;
            let score = if searched == 0 || !full {
                cx.rec.pass(-beta, -alpha, 0);
                self.stack[ply + 1].cut_node = !pv_node && !cut_node;
                -self.alphabeta(cx, ply + 1, new_depth, -beta, -alpha, pv_node)
            } else {
                let r = if root {
                    // The root reduces late quiet moves by one ply less, counted by their
                    // place in the root order.
                    if depth >= 3 && i >= 3 && quiet && !gives_check && !in_check {
                        (self.lmr[depth.min(63) as usize][i.min(63)] as i32 - 1)
                            .clamp(0, new_depth - 1)
                    } else {
                        0
                    }
                } else if depth >= 3
                    && searched >= 2
                    && quiet
                    && !gives_check
                    && !in_check
                    && !is_killer
                {
                    let mut r = self.lmr[depth.min(63) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if modern {
                        // Butterfly and both continuation entries: a move that has cut
                        // before here is reduced less, one that never does more.
                        let stat = self.history.get(us, m)
                            + moved.map_or(0, |k| {
                                self.history.cont(follow[0], k) + self.history.cont(follow[1], k)
                            });
                        r -= (stat / LMR_HISTORY_DIVISOR)
                            .clamp(-LMR_HISTORY_PLIES, LMR_HISTORY_PLIES);
                    } else if self.history.get(us, m) > 2000 {
                        r -= 1;
                    }
                    if cut_node && modern {
                        r += CUT_NODE_REDUCTION;
                    }
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                if r > 0 {
                    self.stats.reduced += 1;
                }
                cx.rec.pass(-alpha - 1, -alpha, r);
                // A reduced move is expected to fail low, so its reply to fail high.
                self.stack[ply + 1].cut_node = r > 0 || !cut_node;
                let mut s = -self.alphabeta(cx, ply + 1, new_depth - r, -alpha - 1, -alpha, false);
                if s > alpha && r > 0 {
                    self.stats.researched += 1;
                    cx.rec.pass(-alpha - 1, -alpha, 0);
                    self.stack[ply + 1].cut_node = !cut_node;
                    s = -self.alphabeta(cx, ply + 1, new_depth, -alpha - 1, -alpha, false);
                }
                if pv_node && s > alpha && s < beta {
                    cx.rec.pass(-beta, -alpha, 0);
                    self.stack[ply + 1].cut_node = false;
                    s = -self.alphabeta(cx, ply + 1, new_depth, -beta, -alpha, true);
                }
                s
            };
            cx.rec.leave(-score, self.stats.nodes);
            cx.board.unmake();
            if self.stopped {
                break;
            }
            if root {
                if let Some(n) = self.root_nodes.get_mut(i) {
                    *n += self.stats.nodes - self.root_move_start;
                }
                self.root_move_done(cx, i, score, alpha, beta, searched);
            }
            searched += 1;
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.stack.update_pv(ply, m);
                    if score >= beta {
                        cx.rec.cut();
                        if !root {
                            let cut = quiet.then_some((m, moved));
                            let before = &quiets_tried[..];
                            self.note_cutoff(ply, us, depth, searched - 1, cut, before);
                        }
                        break;
                    }
                } else if root && self.stack[0].pv_len == 0 {
                    // Fail low on every move so far: still name a move for the PV.
                    self.stack.update_pv(0, m);
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push((m, moved));
            }
        }
        if testing && searched == 0 {
            // No other move, or none worth searching: the hash move stands alone.
            return alpha;
        }
        if picker.as_ref().is_some_and(Picker::no_moves) {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if self.stopped {
            // The root keeps what it completed: it records a move only after searching it
            // through. Anywhere else the unfinished result is worthless.
            return if root { best } else { 0 };
        }
        if searched == 0 {
            // Every move was pruned: fall back to the static view.
            return static_eval.max(alpha);
        }

        if modern
            && pawn_key != 0
            && !root
            && !testing
            && !in_check
            && !best_move.is_tactical()
            && best.abs() < MATE_BOUND
        {
            // Learn the evaluation's error where the result says which way it lies: an
            // exact score, a fail high above it, a fail low below it.
            let telling = match Bound::of(best, original_alpha, beta) {
                Bound::Exact => true,
                Bound::Lower => best > static_eval,
                Bound::Upper => best < static_eval,
            };
            if telling {
                self.history
                    .learn_correction(us, pawn_key, best - raw_eval, depth);
            }
        }
        if use_tt && !testing {
            let bound = Bound::of(best, original_alpha, beta);
            let ev = if in_check { 0 } else { raw_eval };
            self.tt.store(
                key,
                ply,
                TtData {
                    mv: best_move,
                    score: best,
                    eval: ev,
                    depth,
                    bound,
                },
            );
        }
        best
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

    /// Whether the static evaluation is corrected by the pawn structure's history: the
    /// `modern` scheme in profile `full` (the other schemes and `seed` search as they did).
    #[inline]
    fn corrects(&self) -> bool {
        self.profile == Profile::Full && self.scheme == Scheme::Modern
    }

    /// `raw`, the static evaluation of `board` (side to move's view, not in check), with the
    /// correction its pawn structure has learnt. Positions without pawns share one key, so
    /// they are left as they are: one average over every pawnless ending would steer them
    /// all alike.
    #[inline]
    pub(super) fn corrected(&self, board: &Board, raw: i32) -> i32 {
        let key = board.pawn_hash();
        if self.corrects() && key != 0 {
            raw + self.history.correction(board.side_to_move(), key)
        } else {
            raw
        }
    }

    /// Is the position at `ply` (key `key`, `clock` plies since the last capture or pawn
    /// move) a draw by repetition? As strong engines count it: one earlier occurrence inside
    /// the tree (after the root) is enough, since the side that repeated can repeat again;
    /// a position that occurred only at or before the root (in the game) needs two earlier
    /// occurrences, a real threefold. Only positions with the same side to move, within the
    /// reversible stretch and not across a null move, can match.
    fn repeated(&self, ply: usize, key: u64, clock: usize) -> bool {
        let mut before_root = 0;
        let mut back = 2;
        while back <= clock {
            // The plies between the earlier position and this one: no null move among them.
            for p in [
                ply as isize - back as isize + 1,
                ply as isize - back as isize + 2,
            ] {
                if p >= 1 && self.stack[p as usize].null_move {
                    return false;
                }
            }
            let earlier = if back < ply {
                if self.stack[ply - back].key == key {
                    return true;
                }
                back += 2;
                continue;
            } else if back == ply {
                self.stack[0].key
            } else {
                match self.game_keys.get(back - ply - 1) {
                    Some(&k) => k,
                    None => break,
                }
            };
            if earlier == key {
                before_root += 1;
                if before_root == 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
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
