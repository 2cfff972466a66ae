//! Iterative deepening (seeds 000, 003) over one alpha-beta (`alphabeta/`, the root a node
//! kind of it) with quiescence (`qsearch.rs`), a per-ply stack (`stack.rs`), the time
//! budget (`time.rs`), aspiration windows and MultiPV. The `seed` profile switches off all
//! that the seed pages do not describe, so their experiment can be repeated.

mod alphabeta;
mod qsearch;
pub mod record;
mod stack;
mod tablebase;
mod threads;
mod time;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::eval::{EvalCache, EvalConfig};
use super::order::{self, History, OrderContext, Scheme, ScoredMove};
pub use super::report::Profile;
use super::report::{IterationInfo, Limits, RootMoveRow, SearchEvent, SearchOptions};
use super::score::{Bound, MATE, MATE_BOUND, Score, TB_BOUND, TB_WIN};
pub use super::stats::SearchStats;
use super::tt::TranspositionTable;
use crate::chess::board::Board;
use crate::chess::types::{Color, Move};
use record::{NoRecord, Recorder, TreeLimits, TreeNode, TreeRecorder};
use stack::Stack;
pub use threads::MAX_THREADS;
use time::{Budget, Stability, another_iteration, budget};

pub const MAX_PLY: usize = 128;
const INF: i32 = MATE + 1;
// A tablebase win at any ply stays in its band.
const _: () = assert!(TB_WIN - MAX_PLY as i32 >= TB_BOUND);

/// What the recursive search needs of the search it belongs to besides the searcher: the
/// board it moves on and where root reports (`currmove`) go.
/// `rec` records the tree for the explorer ([`record::NoRecord`] in the normal search).
struct Cx<'a, R: Recorder> {
    board: &'a mut Board,
    id: u64,
    emit: &'a mut dyn FnMut(SearchEvent),
    rec: &'a mut R,
}

/// Flags shared between the facade and the search thread. Searches are numbered; a search
/// stops when told to (`stop` reaches its id) or when a newer one was started, so starting
/// a search never has to wait for the previous one to notice a flag.
#[derive(Default)]
pub struct SearchShared {
    /// The id of the newest search started.
    latest: AtomicU64,
    /// Searches with an id up to this one are asked to stop.
    stop_upto: AtomicU64,
    pub ponder: AtomicBool,
}

impl SearchShared {
    pub fn ponderhit(&self) {
        self.ponder.store(false, Ordering::SeqCst);
    }

    /// A new search's id; every older search is asked to stop.
    pub fn start(&self, ponder: bool) -> u64 {
        let id = self.latest.fetch_add(1, Ordering::SeqCst) + 1;
        self.ponder.store(ponder, Ordering::SeqCst);
        id
    }

    /// Asks every search started so far to stop.
    pub fn stop_all(&self) {
        self.stop_upto
            .store(self.latest.load(Ordering::SeqCst), Ordering::SeqCst);
        self.ponder.store(false, Ordering::SeqCst);
    }

    /// Should search `id` stop?
    #[inline]
    pub fn should_stop(&self, id: u64) -> bool {
        self.stop_upto.load(Ordering::Relaxed) >= id || self.latest.load(Ordering::Relaxed) > id
    }
}

/// The outcome of `Searcher::search_sync`, for bench, tests and tools.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub pv: Vec<Move>,
    pub stats: SearchStats,
    pub time: Duration,
}

/// The search state that lives as long as the engine: TT, history, and the per-search
/// scratch arrays.
pub struct Searcher {
    shared: Arc<SearchShared>,
    /// Shared with the helper threads' searchers (Lazy SMP, `threads.rs`).
    tt: Arc<TranspositionTable>,
    history: History,
    stack: Stack,
    /// The previous iteration's PV, for the seed's PV-first ordering.
    prev_pv: Vec<Move>,
    lmr: Box<[[u8; 64]; 64]>,
    stats: SearchStats,
    seldepth: usize,
    start: Instant,
    budget: Budget,
    node_limit: Option<u64>,
    stopped: bool,
    pondering: bool,
    eval_cfg: EvalConfig,
    /// This searcher's own evaluation cache (never shared between threads).
    eval_cache: EvalCache,
    scheme: Scheme,
    profile: Profile,
    /// The id of the search running (its stop is asked for by id).
    id: u64,
    /// The root's moves in this iteration's order.
    root_order: Vec<Move>,
    /// Root moves excluded from the current MultiPV line.
    excluded: Vec<Move>,
    /// Keys of the game's positions before the root, newest first (the position before the
    /// root's last move comes first), as far back as the fifty-move clock reaches.
    game_keys: Vec<u64>,
    /// The lower edge of the root's current window.
    root_alpha: i32,
    /// Whether a search ran since the last clean slate (so `new_game` has work to do).
    learnt: bool,
    /// Lazy SMP: a main searcher's helpers, or a helper's place among them.
    threads: threads::Threads,
    /// The root moves of this iteration in `root_order`, updated as each one finishes.
    root_rows: Vec<RootMoveRow>,
    /// The node count when the root move being searched was made.
    root_move_start: u64,
    /// Nodes spent this iteration under each root move, in `root_order` (for the clock).
    root_nodes: Vec<u64>,
    /// Keep the root rows (`report_root_moves`): sent with each iteration and, during long
    /// ones, as `SearchEvent::RootMoves`.
    report_root: bool,
    /// The iteration being searched, and when root moves were last sent.
    root_depth: u32,
    rows_sent: Duration,
    /// The counters when this iteration started (its own are `stats.since` these).
    iteration_start: SearchStats,
    /// Syzygy tables: what to probe and what the root's ranking found (`tablebase.rs`).
    tb: tablebase::TbState,
}

impl Searcher {
    pub fn new(shared: Arc<SearchShared>) -> Searcher {
        // The first search sizes the table (`configure`).
        Searcher::with_table(shared, Arc::new(TranspositionTable::new(1)))
    }

    /// A searcher on the table `tt` (a helper thread's shares the main one's).
    fn with_table(shared: Arc<SearchShared>, tt: Arc<TranspositionTable>) -> Searcher {
        Searcher {
            shared,
            tt,
            history: History::default(),
            stack: Stack::new(),
            prev_pv: Vec::new(),
            lmr: alphabeta::lmr_table(),
            stats: SearchStats::default(),
            seldepth: 0,
            start: Instant::now(),
            budget: Budget::default(),
            node_limit: None,
            stopped: false,
            pondering: false,
            eval_cfg: EvalConfig::default(),
            eval_cache: EvalCache::default(),
            scheme: Scheme::default(),
            profile: Profile::Full,
            id: 0,
            root_order: Vec::new(),
            excluded: Vec::new(),
            root_alpha: -INF,
            game_keys: Vec::new(),
            learnt: false,
            threads: threads::Threads::default(),
            root_rows: Vec::new(),
            root_move_start: 0,
            root_nodes: Vec::new(),
            report_root: false,
            root_depth: 0,
            rows_sent: Duration::ZERO,
            iteration_start: SearchStats::default(),
            tb: tablebase::TbState::default(),
        }
    }

    /// A searcher not attached to any facade (bench, tests, tools).
    pub fn standalone() -> Searcher {
        Searcher::new(Arc::new(SearchShared::default()))
    }

    /// Forgets what earlier searches learnt.
    pub fn new_game(&mut self) {
        if self.learnt {
            self.tt.clear();
            self.history.clear();
            self.stack.clear();
            self.prev_pv.clear();
            self.threads.release();
            self.learnt = false;
        }
    }

    /// Takes on `options`. A change of evaluation, ordering scheme, profile or table size
    /// starts from a clean slate as a new game does: what the table, history and killers
    /// learnt under other settings would steer this search differently from a fresh one,
    /// and numbers must be reproducible.
    fn configure(&mut self, options: &SearchOptions, emit: &mut dyn FnMut(SearchEvent), id: u64) {
        let changed = self.eval_cfg != options.eval
            || self.scheme != options.scheme
            || self.profile != options.profile;
        if changed {
            self.new_game();
        }
        if self.tt.size_mb() != options.hash_mb.max(1) {
            // The helpers let go of the old table first, so it is freed as it is replaced.
            self.threads.release();
            match TranspositionTable::try_new(options.hash_mb) {
                Ok(tt) => {
                    self.tt = Arc::new(tt);
                    self.new_game();
                }
                Err(e) => emit(SearchEvent::Message {
                    id,
                    text: format!("{e}; keeping the {} MB table", self.tt.size_mb()),
                }),
            }
        }
        self.eval_cfg = options.eval;
        self.scheme = options.scheme;
        self.profile = options.profile;
    }

    /// Runs one search to completion (the facade's thread calls this), emitting events.
    pub fn run(
        &mut self,
        id: u64,
        board: Board,
        limits: &Limits,
        options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
    ) -> SearchResult {
        let result = match options.record_tree {
            None => self.configure_and_think(id, board, limits, options, emit, &mut NoRecord),
            Some(tree) => {
                let mut rec = TreeRecorder::new(tree);
                self.configure_and_think(id, board, limits, options, emit, &mut rec)
            }
        };
        emit(SearchEvent::BestMove {
            id,
            best: result.best,
            ponder: result.ponder,
            book: None,
        });
        result
    }

    /// Searches without a facade; events go to `emit` (pass `&mut |_| {}` to ignore them).
    pub fn search_sync(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
    ) -> SearchResult {
        self.search_unattached(board, limits, options, emit, &mut NoRecord)
    }

    /// As [`Searcher::search_sync`], recording the tree each iteration searched within
    /// `tree`'s limits; returns the last complete iteration's tree with the result.
    pub fn search_tree(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        tree: TreeLimits,
        emit: &mut dyn FnMut(SearchEvent),
    ) -> (SearchResult, Option<TreeNode>) {
        let mut rec = TreeRecorder::new(tree);
        let result = self.search_unattached(board, limits, options, emit, &mut rec);
        (result, rec.into_last())
    }

    /// A search of its own (no facade numbered it): `search_sync` and `search_tree`.
    fn search_unattached<R: Recorder>(
        &mut self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
        rec: &mut R,
    ) -> SearchResult {
        let id = self.shared.start(limits.ponder);
        self.configure_and_think(id, board.clone(), limits, options, emit, rec)
    }

    /// Takes on `options`, then searches on as many threads as they ask (only the main
    /// thread records): every way into the search comes through here.
    fn configure_and_think<R: Recorder>(
        &mut self,
        id: u64,
        board: Board,
        limits: &Limits,
        options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
        rec: &mut R,
    ) -> SearchResult {
        self.configure(options, emit, id);
        match self.rank_root_by_tables(id, &board, limits, &options.syzygy, emit) {
            Some(ranked) => self.think_threads(id, board, &ranked, options, emit, rec),
            None => self.think_threads(id, board, limits, options, emit, rec),
        }
    }

    fn think<R: Recorder>(
        &mut self,
        id: u64,
        mut board: Board,
        limits: &Limits,
        options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
        rec: &mut R,
    ) -> SearchResult {
        self.id = id;
        self.start = Instant::now();
        self.stats = SearchStats::default();
        self.tb.configure(&options.syzygy);
        self.stats.tb_hits = self.tb.root_hits();
        self.stopped = false;
        self.pondering = limits.ponder;
        self.budget = budget(limits, board.side_to_move(), options.move_overhead);
        self.node_limit = limits.nodes;
        self.report_root = options.report_root_moves;
        self.rows_sent = Duration::ZERO;
        self.root_rows.clear();
        self.prev_pv.clear();
        self.learnt = true;
        self.game_keys.clear();
        let reversible = board.halfmove_clock() as usize;
        self.game_keys
            .extend(board.history_hashes().take(reversible));
        self.stack[0].key = board.hash();
        if !self.threads.is_helper() {
            self.tt.new_search();
        }
        self.history.age();

        let mut root_moves: Vec<Move> = board.legal_moves().iter().copied().collect();
        if !limits.searchmoves.is_empty() {
            root_moves.retain(|m| limits.searchmoves.contains(m));
        }
        let mut result = SearchResult {
            best: None,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            pv: Vec::new(),
            stats: self.stats,
            time: Duration::ZERO,
        };
        if root_moves.is_empty() {
            let score = if board.in_check() { -MATE } else { 0 };
            result.score = Score::from_internal(score);
            return result;
        }

        let analysing = limits.infinite || limits.ponder;
        let mut cx = Cx {
            board: &mut board,
            id,
            emit,
            rec,
        };
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = (options.multipv.max(1) as usize).min(root_moves.len());
        let mut score: i32 = 0;
        let mut best_move = root_moves[0];
        let mut stability = Stability::default();
        for depth in 1..=max_depth {
            if self.threads.skips(depth) {
                continue;
            }
            let iteration_start_nodes = self.stats.nodes;
            self.iteration_start = self.stats;
            self.root_depth = depth;
            self.seldepth = 0;
            // Root order: the scheme's scores with the previous best move as PV move.
            let ctx = OrderContext {
                pv_move: if depth > 1 { best_move } else { Move::NONE },
                hash_move: if depth > 1 { best_move } else { Move::NONE },
                killers: self.stack[0].killers,
                ..OrderContext::default()
            };
            let mut scored: Vec<ScoredMove> =
                order::explain(cx.board, self.scheme, &ctx, &self.history)
                    .into_iter()
                    .filter(|s| root_moves.contains(&s.mv))
                    .collect();
            scored.sort_by_key(|s| std::cmp::Reverse(s.score));
            self.root_order = scored.iter().map(|s| s.mv).collect();
            self.root_nodes.clear();
            self.root_nodes.resize(self.root_order.len(), 0);
            self.new_root_rows(&scored);
            cx.rec.begin_iteration(iteration_start_nodes);
            // The root is a node of this iteration: counted once, however many passes.
            self.stats.nodes += 1;
            cx.rec.order(|| scored.clone());

            self.excluded.clear();
            // (score, PV, bound): a line cut short by a stop is only a lower bound.
            let mut lines: Vec<(i32, Vec<Move>, Bound)> = Vec::new();
            for line in 0..multipv {
                let s = if line == 0
                    && depth >= 5
                    && self.profile == Profile::Full
                    && score.abs() < TB_BOUND
                {
                    self.aspiration(&mut cx, depth as i32, score)
                } else {
                    self.root(&mut cx, depth as i32, -INF, INF)
                };
                let pv: Vec<Move> = self.stack.root_pv().to_vec();
                // A stopped root is usable only if a move it searched through beat the
                // window: then its score is a lower bound of the iteration's.
                if pv.is_empty() || (self.stopped && s <= self.root_alpha) {
                    break;
                }
                self.excluded.push(pv[0]);
                let bound = if self.stopped {
                    Bound::Lower
                } else {
                    Bound::Exact
                };
                lines.push((s, pv, bound));
                if self.stopped {
                    break;
                }
            }
            if lines.is_empty() {
                break;
            }
            // MultiPV: later lines were searched with earlier best moves excluded; an
            // unstable search can still score one above an earlier line, so list by score.
            lines[1..].sort_by_key(|l| std::cmp::Reverse(l.0));
            if multipv > 1 {
                // Each later line's pass marked its own first move: the row marked is the
                // move the iteration chose (line 1's), even where a later line ties it.
                let chosen = lines[0].1[0];
                for r in &mut self.root_rows {
                    r.best = r.mv() == chosen;
                }
            }
            let complete = !self.stopped;
            cx.rec.end_iteration(self.stats.nodes, complete);
            if let Some(tree) = cx.rec.take_completed() {
                (cx.emit)(SearchEvent::Tree { id, depth, tree });
            }
            {
                // Even a stopped iteration's line is usable (see above): the root records a
                // move only after searching it completely.
                stability.same_best = if depth > 1 && lines[0].1[0] == best_move {
                    stability.same_best + 1
                } else {
                    0
                };
                stability.drop = if depth > 1 { score - lines[0].0 } else { 0 };
                score = lines[0].0;
                best_move = lines[0].1[0];
                self.prev_pv = lines[0].1.clone();
                result.best = Some(best_move);
                result.ponder = lines[0].1.get(1).copied();
                result.score = Score::from_internal(self.reported_score(score));
                result.depth = depth;
                result.pv = lines[0].1.clone();
            }
            let elapsed = self.start.elapsed();
            // The effective branching factor: what one more ply cost, as the nodes searched
            // through this depth over those through the one before. Never below 1, unlike the
            // ratio of two iterations alone, which the table can make cheaper than the last.
            let branching = if iteration_start_nodes > 0 {
                self.stats.nodes as f64 / iteration_start_nodes as f64
            } else {
                0.0
            };
            let side = cx.board.side_to_move();
            for (i, (s, pv, bound)) in lines.iter().enumerate() {
                let mut info = self.line_info(depth, i as u32 + 1, *s, *bound, pv.clone(), side);
                if options.report_root_moves && i == 0 {
                    info.root_moves = scored.clone();
                    info.root_rows = self.root_rows.clone();
                }
                info.branching = branching;
                (cx.emit)(SearchEvent::Iteration { id, info });
            }
            if !complete {
                break;
            }

            // Stop conditions between iterations.
            if let Some(m) = limits.mate
                && let Score::Mate(n) = result.score
                && n > 0
                && n as u32 <= m
            {
                break;
            }
            if analysing && score.abs() >= MATE_BOUND && depth as i32 > 2 * (MATE - score.abs()) + 2
            {
                // Analysis: a mate proven this deep (twice its length and more) is final;
                // more iterations would only repeat it, a line each, up to the greatest
                // depth within a second. The search waits for its stop as before.
                break;
            }
            if !analysing && !self.pondering_now() {
                // A time limit (a clock or a fixed move time) is not worth using up with
                // one legal move or a proven mate; only a clock stops early otherwise.
                let timed = self.budget.hard.is_some();
                if root_moves.len() == 1 && timed {
                    break; // one legal move: no need to think on the clock
                }
                if score.abs() >= MATE_BOUND && depth as i32 > (MATE - score.abs()) + 2 && timed {
                    break; // a proven mate does not get shorter with more depth
                }
                if let Some(soft) = self.budget.soft {
                    let all: u64 = self.root_nodes.iter().sum();
                    stability.best_share = self
                        .root_order
                        .iter()
                        .position(|&m| m == best_move)
                        .filter(|_| depth >= 6 && all > 0)
                        .map(|i| self.root_nodes[i] as f64 / all as f64);
                    if !another_iteration(elapsed, soft, &stability) {
                        break;
                    }
                }
            }
        }
        // In infinite or ponder mode the caller decides when to stop; wait for it.
        if analysing {
            while !self.shared.should_stop(self.id) && (limits.infinite || self.pondering_now()) {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        result.stats = self.stats;
        result.time = self.start.elapsed();
        if result.best.is_none() {
            result.best = Some(best_move);
        }
        result
    }

    fn pondering_now(&mut self) -> bool {
        if self.pondering && !self.shared.ponder.load(Ordering::Relaxed) {
            // ponderhit: the clock starts now.
            self.pondering = false;
            self.start = Instant::now();
        }
        self.pondering
    }

    /// One line of an iteration as reported (root moves and branching left empty).
    fn line_info(
        &mut self,
        depth: u32,
        multipv: u32,
        s: i32,
        bound: Bound,
        pv: Vec<Move>,
        side: Color,
    ) -> IterationInfo {
        let elapsed = self.start.elapsed();
        let score = Score::from_internal(self.reported_score(s));
        // Every thread's nodes (the helpers' as last published).
        let nodes = self.stats.nodes + self.threads.helper_nodes();
        let stats = self.stats.since(&self.iteration_start);
        IterationInfo {
            depth,
            seldepth: self.seldepth.max(depth as usize) as u32,
            multipv,
            score,
            score_white: score.for_white(side),
            bound,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
            time: elapsed,
            pv,
            hashfull: if self.profile == Profile::Full {
                self.tt.hashfull()
            } else {
                0
            },
            root_moves: Vec::new(),
            first_move_cutoff: stats.first_move_cutoff(),
            branching: 0.0,
            stats: Box::new(stats),
            root_rows: Vec::new(),
        }
    }

    /// The root searched `depth` plies deep in the window `alpha..beta`.
    fn root<R: Recorder>(&mut self, cx: &mut Cx<R>, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.root_alpha = alpha;
        self.stack[0].on_pv = true;
        self.stack[0].null_move = false;
        cx.rec.pass(alpha, beta, 0);
        self.alphabeta(cx, 0, depth, alpha, beta, true)
    }

    /// One pass of alpha-beta at `ply` (`alphabeta/`); the recorder hears what it returned.
    #[inline(always)]
    fn alphabeta<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        let s = self.alphabeta_node(cx, ply, depth, alpha, beta, pv_node);
        cx.rec.result(s);
        s
    }

    /// The table's move in the position after the root move `m`, if it is legal there.
    fn table_reply(&self, board: &mut Board, m: Move) -> Option<Move> {
        if self.profile != Profile::Full {
            return None;
        }
        board.make(m);
        let reply = self
            .tt
            .probe(board.hash(), 1)
            .map(|hit| hit.mv)
            .filter(|&r| !r.is_none() && board.legal_moves().contains(r));
        board.unmake();
        reply
    }

    /// Fresh root rows for an iteration searching `scored` in that order; nodes spent in
    /// earlier iterations carry over.
    fn new_root_rows(&mut self, scored: &[ScoredMove]) {
        if !self.report_root {
            return;
        }
        let rows = scored
            .iter()
            .map(|s| RootMoveRow {
                order: s.clone(),
                nodes: 0,
                nodes_total: self
                    .root_rows
                    .iter()
                    .find(|r| r.mv() == s.mv)
                    .map_or(0, |r| r.nodes_total),
                score: None,
                bound: Bound::Exact,
                refutation: None,
                refutation_index: None,
                best: false,
                new_best: false,
            })
            .collect();
        self.root_rows = rows;
    }

    /// The root move `i` (of `root_order`) came back with `score` from a search in the
    /// root's window `alpha..beta`, after `searched` other moves in this pass: its row
    /// takes the nodes, score, bound and refutation; during a long iteration the rows go
    /// out at most every quarter second. Only kept when reported (the table lookup for a
    /// refutation costs a move generation per refuted move).
    fn root_move_done<R: Recorder>(
        &mut self,
        cx: &mut Cx<R>,
        i: usize,
        score: i32,
        alpha: i32,
        beta: i32,
        searched: usize,
    ) {
        if !self.report_root {
            return;
        }
        let spent = self.stats.nodes - self.root_move_start;
        let refuted = score <= alpha;
        // After a fail high at ply 1 its PV starts with the move that cut there; a node
        // the table or a null move settled names no move, so the table's move there
        // stands for the reply (its index unknown).
        let (reply, index) = if !refuted {
            (None, None)
        } else if self.stack[1].pv_len > 1 {
            (Some(self.stack[1].pv[1]), Some(self.stack[1].cut_at))
        } else {
            (self.table_reply(cx.board, self.root_order[i]), None)
        };
        let Some(row) = self.root_rows.get_mut(i) else {
            return;
        };
        row.nodes += spent;
        row.nodes_total += spent;
        row.score = Some(Score::from_internal(score));
        row.bound = Bound::of(score, alpha, beta);
        row.refutation = reply;
        row.refutation_index = index;
        if score > alpha {
            row.new_best |= searched > 0;
            for (k, r) in self.root_rows.iter_mut().enumerate() {
                r.best = k == i;
            }
        }
        let now = self.start.elapsed();
        if now >= self.rows_sent + Duration::from_millis(250) {
            self.rows_sent = now;
            (cx.emit)(SearchEvent::RootMoves {
                id: cx.id,
                depth: self.root_depth,
                rows: self.root_rows.clone(),
            });
        }
    }

    /// The root searched in a window around the previous iteration's score, widened until
    /// the score falls inside it.
    /// A window that fails is reported (a bound event, score = what the failed search
    /// proved) before the re-search, so a front end never shows a bound as a score.
    fn aspiration<R: Recorder>(&mut self, cx: &mut Cx<R>, depth: i32, prev: i32) -> i32 {
        let mut delta = 20;
        let mut alpha = (prev - delta).max(-INF);
        let mut beta = (prev + delta).min(INF);
        loop {
            let s = self.root(cx, depth, alpha, beta);
            if self.stopped {
                return s;
            }
            let bound = if s <= alpha {
                Bound::Upper
            } else if s >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if bound != Bound::Exact {
                let side = cx.board.side_to_move();
                let pv = self.stack.root_pv().to_vec();
                let info = self.line_info(depth as u32, 1, s, bound, pv, side);
                (cx.emit)(SearchEvent::Iteration { id: cx.id, info });
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta;
            if delta > 600 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.stats.nodes & 2047 != 0 {
            return;
        }
        self.threads.publish(self.stats.nodes);
        if self.shared.should_stop(self.id) {
            self.stopped = true;
            return;
        }
        if let Some(n) = self.node_limit
            && self.stats.nodes + self.threads.helper_nodes() >= n
        {
            self.stopped = true;
            return;
        }
        if self.pondering_now() {
            return;
        }
        if let Some(hard) = self.budget.hard
            && self.start.elapsed() >= hard
        {
            self.stopped = true;
        }
    }
}
