//! The alpha-beta search (seeds 000, 003): negamax with principal variation search, the
//! transposition table, null move, futility and late-move pruning, late-move reductions and
//! check extension (in `modern`, not for a check that loses its piece) in the `full` profile,
//! and under `modern` also singular extension, razoring, ProbCut, history pruning and deeper
//! reductions at expected cut nodes; plain alpha-beta with PV-first ordering in `seed`.
//! The root is the same code as any node; what only the root does (its move list ordered
//! once per iteration with reasons, MultiPV exclusions, `searchmoves`, `currmove` reports)
//! is switched by `ply == 0`.
//!
//! A node reads as its stages, each a function of its own: entering it (limits, draws,
//! mate distance), the table, the Syzygy tables (`tablebase.rs`), the static evaluation, pruning before any move (razoring,
//! reverse futility, null move, ProbCut), ordering its moves, the move loop (the singular
//! test, per-move pruning, the child's extension, reduction and re-searches, a new best or
//! a cutoff), and finishing (correction history, the table's entry). A stage that settles
//! the node returns `Break(score)`.

use std::ops::ControlFlow::{self, Break, Continue};
use std::time::Duration;

use super::record::{Recorder, Skip};
use super::{Cx, INF, MAX_PLY, Profile, Searcher};
use crate::chess::Board;
use crate::chess::types::{Color, Move, MoveList, PieceKind};
use crate::engine::order::{self, OrderContext, Picker, PieceTo, Scheme};
use crate::engine::report::SearchEvent;
use crate::engine::score::{Bound, MATE, TB_BOUND};
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

/// A node as its stages see it: where it is and what kind of node, its window and depth
/// (which the stages narrow), and what the table and the static evaluation said of it.
struct Node {
    ply: usize,
    depth: i32,
    alpha: i32,
    beta: i32,
    /// The window is open (a PV node), not a null window.
    pv_node: bool,
    root: bool,
    /// Expected to fail high (see `stack::Ply::cut_node`).
    cut_node: bool,
    /// Profile `full`; and its `modern` scheme, to which the newer pruning, reductions and
    /// extensions belong (the other schemes search as they did).
    full: bool,
    modern: bool,
    us: Color,
    key: u64,
    /// The move left out while this node only tests whether its hash move is singular, and
    /// whether that is so (`testing`): the result is not the position's then, so the table
    /// neither settles nor stores it.
    excluded: Move,
    testing: bool,
    /// Whether the table is used here (profile `full`, below the root), its move and what
    /// it held.
    use_tt: bool,
    hash_move: Move,
    tt_hit: Option<TtData>,
    in_check: bool,
    /// The static evaluation as the table or the evaluator gave it (`-INF` in check), and
    /// as corrected by what searches of this pawn structure found (`modern`).
    raw_eval: i32,
    static_eval: i32,
    pawn_key: u64,
    /// The static evaluation rose since our previous move (or we were in check then).
    improving: bool,
    /// What the pruning tests take for the evaluation: the table's score where its bound
    /// says it is nearer the truth than the static evaluation.
    eval: i32,
    /// At a PV node the Syzygy tables did not settle: the least and the most its score can
    /// be by their result (a won position scores at least the win, a lost one at most the
    /// loss); `-INF` and `INF` otherwise.
    tb_floor: i32,
    tb_cap: i32,
}

/// A node's moves in the order they are tried.
struct Moves {
    /// This ply lies on the previous iteration's PV.
    on_pv: bool,
    ctx: OrderContext,
    /// The staged picker (the `modern` scheme below the root: the hash move before any
    /// generation), or else `list`, scored once and picked lazily.
    picker: Option<Picker>,
    list: MoveList,
    scores: order::Scores,
    /// How many moves were handed out.
    next: usize,
}

/// One move of the loop and what is known of it.
struct MoveFacts {
    m: Move,
    /// Its place in the order (0-based).
    index: usize,
    quiet: bool,
    is_killer: bool,
    /// Its piece and destination (continuation history).
    moved: Option<PieceTo>,
    /// Whether it gives check (known once it is made), and whether that check extends the
    /// line.
    gives_check: bool,
    extend_check: bool,
}

/// What the move loop leaves.
struct Searched {
    best: i32,
    best_move: Move,
    /// How many moves were searched (not pruned, not left out).
    count: usize,
    /// α when the loop began.
    original_alpha: i32,
}

impl Searcher {
    /// The score of `cx.board` at `ply` searched `depth` plies deep in the window
    /// `alpha..beta`, from the side to move's view; the line is left in the stack's PV.
    /// `pv_node`: the window is open (a PV node), not a null window.
    pub(super) fn alphabeta_node<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(cx, ply, alpha, beta);
        }
        let mut node = match self.enter_node(cx, ply, depth, alpha, beta, pv_node) {
            Continue(node) => node,
            Break(score) => return score,
        };
        if let Break(score) = self.probe_table(cx, &mut node) {
            return score;
        }
        if self.tb.men != 0
            && !node.root
            && !node.testing
            && let Break(score) = self.probe_tablebases(cx, &mut node)
        {
            return score;
        }
        self.evaluate_node(cx, &mut node);
        // Internal iterative reduction: a node without a hash move is searched a ply
        // shallower (its move order is a guess).
        if node.modern && !node.testing && node.depth >= IIR_DEPTH && node.hash_move.is_none() {
            node.depth -= 1;
        }
        if node.full
            && !node.pv_node
            && !node.in_check
            && node.beta.abs() < TB_BOUND
            && let Break(score) = self.prune_before_moves(cx, &node)
        {
            return score;
        }
        let mut moves = Moves {
            on_pv: false,
            ctx: OrderContext::default(),
            picker: None,
            list: MoveList::new(),
            scores: order::Scores::new(),
            next: 0,
        };
        if let Break(score) = self.order_moves(cx, &node, &mut moves) {
            return score;
        }
        let mut searched = match self.search_moves(cx, &mut node, &mut moves) {
            Continue(searched) => searched,
            Break(score) => return score,
        };
        if node.pv_node {
            searched.best = searched.best.clamp(node.tb_floor, node.tb_cap);
        }
        self.finish_node(&node, &moves, searched)
    }

    /// Entering a node: its stack slot, the limits, the deepest ply, and below the root a
    /// draw inside the tree (repetition, fifty moves, dead material) and mate-distance
    /// pruning (no line from here can beat a mate already found nearer).
    #[inline(always)]
    fn enter_node<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> ControlFlow<i32, Node> {
        let root = ply == 0;
        let cut_node = !root && self.stack[ply].cut_node;
        if root {
            self.stack[ply].doubles = 0;
        }
        self.stack[ply].pv_len = ply;
        self.check_limits();
        if self.stopped {
            return Break(0);
        }
        let board = &mut *cx.board;
        if ply >= MAX_PLY - 1 {
            return Break(self.eval_cache.evaluate(board, &self.eval_cfg));
        }
        let full = self.profile == Profile::Full;
        let key = board.hash();
        self.stack[ply].key = key;
        let excluded = self.stack[ply].excluded;
        let mut node = Node {
            ply,
            depth,
            alpha,
            beta,
            pv_node,
            root,
            cut_node,
            full,
            modern: full && self.scheme == Scheme::Modern,
            us: board.side_to_move(),
            key,
            excluded,
            testing: !excluded.is_none(),
            // The root's entry would only ever be probed through a repetition of the root.
            use_tt: full && !root,
            hash_move: Move::NONE,
            tt_hit: None,
            in_check: false,
            raw_eval: 0,
            static_eval: 0,
            pawn_key: 0,
            improving: false,
            eval: 0,
            tb_floor: -INF,
            tb_cap: INF,
        };
        if root {
            return Continue(node);
        }
        let fifty = board.halfmove_clock() >= 100;
        let clock = board.halfmove_clock() as usize;
        if fifty || self.repeated(ply, key, clock) || board.insufficient_material() {
            cx.rec.end(Skip::Draw);
            if fifty && board.in_check() && !board.has_legal_move() {
                return Break(-MATE + ply as i32);
            }
            return Break(0);
        }
        node.alpha = node.alpha.max(-MATE + ply as i32);
        node.beta = node.beta.min(MATE - ply as i32 - 1);
        cx.rec.window(node.alpha, node.beta);
        if node.alpha >= node.beta {
            cx.rec.end(Skip::MateDistance);
            return Break(node.alpha);
        }
        Continue(node)
    }

    /// The transposition table: its move and entry for this node, and its score when the
    /// entry settles the node (off the PV, deep enough, its bound conclusive, not in a
    /// singular test).
    #[inline(always)]
    fn probe_table<R: Recorder>(&mut self, cx: &mut Cx<R>, node: &mut Node) -> ControlFlow<i32> {
        if !node.use_tt {
            return Continue(());
        }
        self.stats.tt_probes += 1;
        if let Some(hit) = self.tt.probe(node.key, node.ply) {
            self.stats.tt_hits += 1;
            node.hash_move = hit.mv;
            node.tt_hit = Some(hit);
            if !node.pv_node
                && !node.testing
                && hit.depth >= node.depth
                && hit.bound.settles(hit.score, node.alpha, node.beta)
            {
                cx.rec.end(Skip::Tt);
                return Break(hit.score);
            }
        }
        Continue(())
    }

    /// The Syzygy tables (a node off the root, not in a singular test, with tables set):
    /// their result settles the node when its bound decides the window (and goes into the
    /// transposition table, deeper than this search would reach); at a PV node it
    /// otherwise bounds what the node's search may return.
    #[inline(never)]
    fn probe_tablebases<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        node: &mut Node,
    ) -> ControlFlow<i32> {
        let Some((score, bound)) =
            self.probe_tablebase_wdl(cx.board, node.ply, node.depth, &mut *cx.emit)
        else {
            return Continue(());
        };
        if bound.settles(score, node.alpha, node.beta) {
            if node.use_tt {
                let board = &mut *cx.board;
                let eval = if board.in_check() {
                    0
                } else {
                    self.eval_cache.evaluate(board, &self.eval_cfg)
                };
                self.tt.store(
                    node.key,
                    node.ply,
                    TtData {
                        mv: node.hash_move,
                        score,
                        eval,
                        depth: (node.depth + 6).min(MAX_PLY as i32 - 1),
                        bound,
                    },
                );
            }
            cx.rec.end(Skip::Tablebase);
            return Break(score);
        }
        if node.pv_node {
            match bound {
                Bound::Lower => node.tb_floor = score,
                Bound::Upper => node.tb_cap = score,
                Bound::Exact => {}
            }
        }
        Continue(())
    }

    /// The static evaluation (the table's if it holds one, else the evaluator's; none in
    /// check), corrected under `modern` by what searches of this pawn structure found (the
    /// table keeps the raw one); whether it is improving; and what the pruning tests take
    /// for it.
    #[inline(always)]
    fn evaluate_node<R: Recorder>(&mut self, cx: &mut Cx<R>, node: &mut Node) {
        let board = &mut *cx.board;
        let ply = node.ply;
        node.in_check = board.in_check();
        node.raw_eval = if node.in_check {
            -INF
        } else {
            match node.tt_hit {
                Some(hit) => hit.eval,
                None => self.eval_cache.evaluate(board, &self.eval_cfg),
            }
        };
        node.pawn_key = board.pawn_hash();
        node.static_eval = if node.in_check {
            node.raw_eval
        } else {
            self.corrected(board, node.raw_eval)
        };
        self.stack[ply].static_eval = node.static_eval;
        cx.rec
            .static_eval((!node.in_check).then_some(node.static_eval));
        // A node whose prospects fall is pruned and reduced harder.
        node.improving = !node.in_check && ply >= 2 && {
            let before = self.stack[ply - 2].static_eval;
            before == -INF || node.static_eval > before
        };
        node.eval = match node.tt_hit {
            Some(hit) if node.modern && !node.in_check => hit.nearer_than(node.static_eval),
            _ => node.static_eval,
        };
    }

    /// Pruning before any move is searched (a node off the PV, not in check, no mate or
    /// tablebase result at stake in β): razoring, reverse futility, the null move and
    /// ProbCut.
    #[inline(always)]
    fn prune_before_moves<R: Recorder>(&mut self, cx: &mut Cx<R>, node: &Node) -> ControlFlow<i32> {
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

    /// The node's moves in order (into `moves`, fresh): the root's as ordered once for this
    /// iteration (with reasons, for the report); elsewhere in stages under `modern` (the
    /// hash move before any generation), or generated, scored here and picked lazily. A
    /// node without a legal move found here is mate or stalemate.
    #[inline(always)]
    fn order_moves<R: Recorder>(
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
    fn search_moves<R: Recorder>(
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

    /// Singular extension: search the other moves at half depth, just below the hash
    /// move's score. If all fail low the hash move is the only good one and is searched a
    /// ply deeper (two, off the PV, when they all fall well short); if they reach β anyway,
    /// more than one move refutes the opponent's last move and the node fails high
    /// (multi-cut). If they reach the singular bound but not β while the hash move's own
    /// score holds β, the hash move is not alone and likely holds anyway: it is searched a
    /// ply shallower. The extension in plies (-1 to 2), or the node's score.
    #[inline(always)]
    fn singular_extension<R: Recorder>(
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
    fn make_unless_pruned<R: Recorder>(
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
    fn search_child<R: Recorder>(
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

    /// After the move loop: a singular test with nothing searched, no legal move, a stop,
    /// every move pruned; otherwise what the result teaches the correction history, and the
    /// result stored in the table.
    #[inline(always)]
    fn finish_node(&mut self, node: &Node, moves: &Moves, searched: Searched) -> i32 {
        let Searched {
            best,
            best_move,
            count,
            original_alpha,
        } = searched;
        if node.testing && count == 0 {
            // No other move, or none worth searching: the hash move stands alone.
            return node.alpha;
        }
        if moves.picker.as_ref().is_some_and(Picker::no_moves) {
            return if node.in_check {
                -MATE + node.ply as i32
            } else {
                0
            };
        }
        if self.stopped {
            // The root keeps what it completed: it records a move only after searching it
            // through. Anywhere else the unfinished result is worthless.
            return if node.root { best } else { 0 };
        }
        if count == 0 {
            // Every move was pruned: fall back to the static view.
            return node.static_eval.max(node.alpha);
        }
        if node.modern
            && node.pawn_key != 0
            && !node.root
            && !node.testing
            && !node.in_check
            && !best_move.is_tactical()
            && best.abs() < TB_BOUND
        {
            // Learn the evaluation's error where the result says which way it lies: an
            // exact score, a fail high above it, a fail low below it.
            let telling = match Bound::of(best, original_alpha, node.beta) {
                Bound::Exact => true,
                Bound::Lower => best > node.static_eval,
                Bound::Upper => best < node.static_eval,
            };
            if telling {
                self.history.learn_correction(
                    node.us,
                    node.pawn_key,
                    best - node.raw_eval,
                    node.depth,
                );
            }
        }
        if node.use_tt && !node.testing {
            let bound = Bound::of(best, original_alpha, node.beta);
            let ev = if node.in_check { 0 } else { node.raw_eval };
            self.tt.store(
                node.key,
                node.ply,
                TtData {
                    mv: best_move,
                    score: best,
                    eval: ev,
                    depth: node.depth,
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
