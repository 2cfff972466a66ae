//! The alpha-beta search (seeds 000, 003): negamax with principal variation search, the
//! transposition table, null move, futility and late-move pruning, late-move reductions and
//! check extension (in `modern`, not for a check that loses its piece) in the `full` profile,
//! and under `modern` also singular extension, razoring, ProbCut, history pruning and deeper
//! reductions at expected cut nodes; plain alpha-beta with PV-first ordering in `seed`.
//! The root is the same code as any node; what only the root does (its move list ordered
//! once per iteration with reasons, MultiPV exclusions, `searchmoves`, `currmove` reports)
//! is switched by `ply == 0`.
//!
//! A node reads as its stages, each a function of its own. This file holds the node itself
//! and the stages around its moves: entering it (limits, draws, mate distance), the table,
//! the Syzygy tables (`../tablebase.rs`), the static evaluation, and finishing (correction
//! history, the table's entry). Pruning before any move (razoring, reverse futility, null
//! move, ProbCut) is in `prune.rs`; ordering the moves and the move loop (a new best or a
//! cutoff, and what a cutoff teaches) in `moves.rs`; what the loop decides for each move
//! (the singular test, per-move pruning, the child's extension, reduction and re-searches)
//! in `per_move.rs`. A stage that settles the node returns `Break(score)`.

mod moves;
mod per_move;
mod prune;

use std::ops::ControlFlow::{self, Break, Continue};

use super::record::{Recorder, Skip};
use super::{Cx, INF, MAX_PLY, Profile, Searcher};
use crate::chess::Board;
use crate::chess::types::{Color, Move, MoveList};
use crate::engine::order::{self, OrderContext, Picker, PieceTo, Scheme};
use crate::engine::score::{Bound, MATE, TB_BOUND};
use crate::engine::tt::TtData;

pub(super) use per_move::lmr_table;

/// Internal iterative reduction: from this remaining depth, a node without a hash move is
/// searched a ply shallower (its move order is a guess; the next iteration finds it again).
const IIR_DEPTH: i32 = 5;

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
        // A known ending's value is exact: the pawn structure's history does not move it.
        if self.corrects() && key != 0 && !crate::engine::eval::known::is_exact(board) {
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
}
