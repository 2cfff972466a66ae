//! Iterative-deepening alpha-beta (seeds 000, 003). Negamax with principal variation
//! search, a triangular PV, quiescence over captures and promotions (all evasions in check),
//! a transposition table, null-move pruning, late-move reductions, check extension,
//! aspiration windows, killers and history, mate-distance scores, and repetition and
//! fifty-move draws inside the tree. The `seed` profile switches all of that off except what
//! the seed pages describe, so their experiment can be repeated.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::book::Book;
use super::eval::{self, EvalConfig};
use super::order::{self, History, OrderContext, Scheme, ScoredMove};
use super::report::{
    Bound, IterationInfo, Limits, MATE, MATE_BOUND, Score, SearchEvent, SearchOptions,
};
use super::tt::{TranspositionTable, TtBound};
use crate::chess::board::Board;
use crate::chess::types::{Color, Move, MoveList};

pub const MAX_PLY: usize = 128;
const INF: i32 = MATE + 1;
/// Rough piece values for delta pruning in quiescence (pawn, knight, bishop, rook, queen).
const DELTA_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 0];

/// Which search features are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Only what the seed pages describe: alpha-beta, PV-first ordering, the chosen capture
    /// ordering and quiescence; no transposition table, no pruning, no reductions.
    Seed,
    /// Everything.
    #[default]
    Full,
}

impl Profile {
    pub const ALL: [Profile; 2] = [Profile::Seed, Profile::Full];
    pub fn name(self) -> &'static str {
        match self {
            Profile::Seed => "seed",
            Profile::Full => "full",
        }
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Profile {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("{s}: not a search profile (seed, full)"))
    }
}

/// Flags shared between the facade and the search thread.
#[derive(Default)]
pub struct SearchShared {
    pub stop: AtomicBool,
    pub ponder: AtomicBool,
}

impl SearchShared {
    pub fn ponderhit(&self) {
        self.ponder.store(false, Ordering::SeqCst);
    }
}

/// Counters of one search (or one bench position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub nodes: u64,
    /// Nodes (main search) that failed high, and those that did so on their first move.
    pub fail_high: u64,
    pub fail_high_first: u64,
}

impl SearchStats {
    pub fn first_move_cutoff(&self) -> f64 {
        if self.fail_high == 0 {
            0.0
        } else {
            self.fail_high_first as f64 / self.fail_high as f64
        }
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
    pub book: Option<String>,
}

/// Late-move reduction table, indexed by depth and move number.
fn lmr_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            let v = 0.75 + (d as f64).ln() * (m as f64).ln() / 2.25;
            *r = v.max(0.0) as u8;
        }
    }
    t
}

/// Time budget for one move.
#[derive(Clone, Copy, Debug)]
struct Budget {
    /// Don't start a new iteration after this much time.
    soft: Option<Duration>,
    /// Abort the search at this much time.
    hard: Option<Duration>,
}

fn budget(limits: &Limits, side: Color, overhead: Duration) -> Budget {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        return Budget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let (time, inc) = match side {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let Some(time) = time else {
        return Budget {
            soft: None,
            hard: None,
        };
    };
    let inc = inc.unwrap_or_default();
    let usable = time.saturating_sub(overhead).max(Duration::from_millis(1));
    let moves_left = limits.movestogo.unwrap_or(30).clamp(1, 60);
    let base = usable / moves_left + inc * 3 / 4;
    // Never plan to use more than a fraction of what is left, so one move cannot flag.
    let cap = if limits.movestogo == Some(1) {
        usable * 9 / 10
    } else {
        usable / 3
    };
    let soft = base.min(cap);
    let hard = (soft * 4).min(cap).max(soft);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

/// The search state that lives as long as the engine: TT, history, and the per-search
/// scratch arrays.
pub struct Searcher {
    shared: Arc<SearchShared>,
    tt: TranspositionTable,
    history: History,
    killers: [[Move; 2]; MAX_PLY + 1],
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
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
    scheme: Scheme,
    profile: Profile,
    book: Book,
    book_file: Option<std::path::PathBuf>,
    /// Root moves excluded from the current MultiPV line.
    excluded: Vec<Move>,
}

impl Searcher {
    pub fn new(shared: Arc<SearchShared>) -> Searcher {
        Searcher {
            shared,
            tt: TranspositionTable::new(SearchOptions::default().hash_mb),
            history: History::default(),
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            pv: Box::new([[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            prev_pv: Vec::new(),
            lmr: lmr_table(),
            stats: SearchStats::default(),
            seldepth: 0,
            start: Instant::now(),
            budget: Budget {
                soft: None,
                hard: None,
            },
            node_limit: None,
            stopped: false,
            pondering: false,
            eval_cfg: EvalConfig::default(),
            scheme: Scheme::default(),
            profile: Profile::Full,
            book: Book::builtin(),
            book_file: None,
            excluded: Vec::new(),
        }
    }

    /// A searcher not attached to any facade (bench, tests, tools).
    pub fn standalone() -> Searcher {
        Searcher::new(Arc::new(SearchShared::default()))
    }

    /// Forgets what earlier searches learnt.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.killers = [[Move::NONE; 2]; MAX_PLY + 1];
        self.prev_pv.clear();
    }

    fn configure(&mut self, options: &SearchOptions, emit: &mut dyn FnMut(SearchEvent), id: u64) {
        if self.tt.size_mb() != options.hash_mb.max(1) {
            match TranspositionTable::try_new(options.hash_mb) {
                Ok(tt) => self.tt = tt,
                Err(e) => emit(SearchEvent::Message {
                    id,
                    text: format!("{e}; keeping the {} MB table", self.tt.size_mb()),
                }),
            }
        }
        self.eval_cfg = options.eval;
        self.scheme = options.scheme;
        self.profile = options.profile;
        if options.book_file != self.book_file {
            self.book_file = options.book_file.clone();
            self.book = Book::builtin();
            if let Some(path) = &options.book_file {
                match Book::with_polyglot(path) {
                    Ok(b) => self.book = b,
                    Err(e) => emit(SearchEvent::Message {
                        id,
                        text: format!("book: {e}; using the built-in book"),
                    }),
                }
            }
        }
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
        self.configure(options, emit, id);
        let result = self.think(id, board, limits, options, emit);
        emit(SearchEvent::BestMove {
            id,
            best: result.best,
            ponder: result.ponder,
            book: result.book.clone(),
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
        self.shared.stop.store(false, Ordering::SeqCst);
        self.shared.ponder.store(limits.ponder, Ordering::SeqCst);
        self.configure(options, emit, 0);
        self.think(0, board.clone(), limits, options, emit)
    }

    fn think(
        &mut self,
        id: u64,
        mut board: Board,
        limits: &Limits,
        options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
    ) -> SearchResult {
        self.start = Instant::now();
        self.stats = SearchStats::default();
        self.stopped = false;
        self.pondering = limits.ponder;
        self.budget = budget(limits, board.side_to_move(), options.move_overhead);
        self.node_limit = limits.nodes;
        self.prev_pv.clear();
        self.tt.new_search();
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
            book: None,
        };
        if root_moves.is_empty() {
            let score = if board.in_check() { -MATE } else { 0 };
            result.score = Score::from_internal(score);
            return result;
        }

        let analysing = limits.infinite || limits.ponder;
        if options.own_book && !analysing && limits.searchmoves.is_empty() {
            let seed = options
                .book_random
                .then(|| self.start.elapsed().as_nanos() as u64 ^ id.rotate_left(32));
            if let Some(bm) = self.book.probe(&board, seed)
                && root_moves.contains(&bm.mv)
            {
                result.best = Some(bm.mv);
                result.book = Some(bm.name);
                return result;
            }
        }

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = (options.multipv.max(1) as usize).min(root_moves.len());
        let mut prev_nodes = 0u64;
        let mut score: i32 = 0;
        let mut best_move = root_moves[0];
        for depth in 1..=max_depth {
            let iteration_start_nodes = self.stats.nodes;
            self.seldepth = 0;
            // Root order: the scheme's scores with the previous best move as PV move.
            let ctx = OrderContext {
                pv_move: if depth > 1 { best_move } else { Move::NONE },
                hash_move: if depth > 1 { best_move } else { Move::NONE },
                killers: self.killers[0],
            };
            let mut scored: Vec<ScoredMove> =
                order::explain(&board, self.scheme, &ctx, &self.history)
                    .into_iter()
                    .filter(|s| root_moves.contains(&s.mv))
                    .collect();
            scored.sort_by_key(|s| std::cmp::Reverse(s.score));
            let ordered: Vec<Move> = scored.iter().map(|s| s.mv).collect();

            self.excluded.clear();
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
            let mut report = |depth: u32, mv: Move, number: u32| {
                emit(SearchEvent::CurrentMove {
                    id,
                    depth,
                    mv,
                    number,
                })
            };
            for line in 0..multipv {
                let s = if line == 0
                    && depth >= 5
                    && self.profile == Profile::Full
                    && score.abs() < MATE_BOUND
                {
                    self.aspiration(&mut board, &ordered, depth as i32, score, &mut report)
                } else {
                    self.root(&mut board, &ordered, depth as i32, -INF, INF, &mut report)
                };
                if self.stopped && self.pv_len[0] == 0 {
                    break;
                }
                let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
                if pv.is_empty() {
                    break;
                }
                self.excluded.push(pv[0]);
                lines.push((s, pv));
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
            let complete = !self.stopped;
            {
                // Even a stopped iteration's line is usable: the root records a move only
                // after searching it completely.
                score = lines[0].0;
                best_move = lines[0].1[0];
                self.prev_pv = lines[0].1.clone();
                result.best = Some(best_move);
                result.ponder = lines[0].1.get(1).copied();
                result.score = Score::from_internal(score);
                result.depth = depth;
                result.pv = lines[0].1.clone();
            }
            if !complete {
                break;
            }
            let elapsed = self.start.elapsed();
            let iter_nodes = self.stats.nodes - iteration_start_nodes;
            let branching = if prev_nodes > 0 {
                iter_nodes as f64 / prev_nodes as f64
            } else {
                0.0
            };
            prev_nodes = iter_nodes;
            let nps = (self.stats.nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64;
            let side = board.side_to_move();
            for (i, (s, pv)) in lines.iter().enumerate() {
                let sc = Score::from_internal(*s);
                emit(SearchEvent::Iteration {
                    id,
                    info: IterationInfo {
                        depth,
                        seldepth: self.seldepth.max(depth as usize) as u32,
                        multipv: i as u32 + 1,
                        score: sc,
                        score_white: sc.for_white(side),
                        bound: Bound::Exact,
                        nodes: self.stats.nodes,
                        nps,
                        time: elapsed,
                        pv: pv.clone(),
                        hashfull: if self.profile == Profile::Full {
                            self.tt.hashfull()
                        } else {
                            0
                        },
                        root_moves: if options.report_root_moves && i == 0 {
                            scored.clone()
                        } else {
                            Vec::new()
                        },
                        first_move_cutoff: self.stats.first_move_cutoff(),
                        branching,
                    },
                });
            }

            // Stop conditions between iterations.
            if let Some(m) = limits.mate
                && let Score::Mate(n) = result.score
                && n > 0
                && n as u32 <= m
            {
                break;
            }
            if !analysing && !self.pondering_now() {
                if root_moves.len() == 1 && self.budget.soft.is_some() {
                    break; // one legal move: no need to think on the clock
                }
                if score.abs() >= MATE_BOUND
                    && depth as i32 > (MATE - score.abs()) + 2
                    && self.budget.soft.is_some()
                {
                    break; // a proven mate does not get shorter with more depth
                }
                if let Some(soft) = self.budget.soft
                    && elapsed > soft / 2
                {
                    break;
                }
            }
        }
        // In infinite or ponder mode the caller decides when to stop; wait for it.
        if analysing {
            while !self.shared.stop.load(Ordering::Relaxed)
                && (limits.infinite || self.pondering_now())
            {
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

    fn aspiration(
        &mut self,
        board: &mut Board,
        ordered: &[Move],
        depth: i32,
        prev: i32,
        report: &mut dyn FnMut(u32, Move, u32),
    ) -> i32 {
        let mut delta = 20;
        let mut alpha = (prev - delta).max(-INF);
        let mut beta = (prev + delta).min(INF);
        loop {
            let s = self.root(board, ordered, depth, alpha, beta, report);
            if self.stopped {
                return s;
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

    fn root(
        &mut self,
        board: &mut Board,
        ordered: &[Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        report: &mut dyn FnMut(u32, Move, u32),
    ) -> i32 {
        let full = self.profile == Profile::Full;
        self.pv_len[0] = 0;
        let mut best = -INF;
        let mut searched = 0;
        let in_check = board.in_check();
        for (i, &m) in ordered.iter().enumerate() {
            if self.excluded.contains(&m) {
                continue;
            }
            // The move now searched, for `currmove` and the status bar; not in the first
            // tenth of a second, when iterations fly by.
            if self.start.elapsed() >= Duration::from_millis(100) {
                report(depth as u32, m, i as u32 + 1);
            }
            // Only the previous iteration's best move continues along its PV.
            let on_pv = self.prev_pv.first() == Some(&m);
            board.make(m);
            self.stats.nodes += 1;
            let gives_check = board.in_check();
            let new_depth = depth - 1 + i32::from(full && gives_check);
            let score = if searched == 0 || !full {
                -self.search(board, new_depth, -beta, -alpha, 1, true, on_pv)
            } else {
                let r = if depth >= 3 && i >= 3 && !m.is_tactical() && !gives_check && !in_check {
                    (self.lmr[depth.min(63) as usize][i.min(63)] as i32 - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = -self.search(board, new_depth - r, -alpha - 1, -alpha, 1, false, on_pv);
                if s > alpha && r > 0 {
                    s = -self.search(board, new_depth, -alpha - 1, -alpha, 1, false, on_pv);
                }
                if s > alpha && s < beta {
                    s = -self.search(board, new_depth, -beta, -alpha, 1, true, on_pv);
                }
                s
            };
            board.unmake();
            if self.stopped {
                break;
            }
            searched += 1;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, m);
                    if score >= beta {
                        break;
                    }
                } else if self.pv_len[0] == 0 {
                    // Fail low on every move so far: still name a move for the PV.
                    self.update_pv(0, m);
                }
            }
        }
        best
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let next = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..next {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next;
    }

    #[inline]
    fn check_limits(&mut self) {
        if self.stats.nodes & 2047 != 0 {
            return;
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(n) = self.node_limit
            && self.stats.nodes >= n
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

    fn pv_move_at(&self, ply: usize, on_pv: bool) -> Move {
        if on_pv {
            self.prev_pv.get(ply).copied().unwrap_or(Move::NONE)
        } else {
            Move::NONE
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        board: &mut Board,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        on_pv: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(board, alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate(board, &self.eval_cfg);
        }
        let full = self.profile == Profile::Full;

        // Draws inside the tree: repetition (one earlier occurrence is enough: the side that
        // can repeat can repeat again), fifty moves, dead material.
        if board.halfmove_clock() >= 100 || board.repetitions() > 0 || board.insufficient_material()
        {
            if board.halfmove_clock() >= 100 && board.in_check() && !board.has_legal_move() {
                return -MATE + ply as i32;
            }
            return 0;
        }
        // Mate-distance pruning: no line from here can beat a mate already found nearer.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let key = board.hash();
        let mut hash_move = Move::NONE;
        let mut tt_eval = None;
        if full && let Some(hit) = self.tt.probe(key, ply) {
            hash_move = hit.mv;
            tt_eval = Some(hit.eval);
            if !pv_node && hit.depth >= depth && hit.bound.settles(hit.score, alpha, beta) {
                return hit.score;
            }
        }

        let in_check = board.in_check();
        let static_eval = if in_check {
            -INF
        } else {
            tt_eval.unwrap_or_else(|| eval::evaluate(board, &self.eval_cfg))
        };

        if full && !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at low depth, the opponent will not catch up.
            if depth <= 6 && static_eval - 85 * depth >= beta {
                return static_eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if depth >= 3
                && static_eval >= beta
                && board.has_non_pawn_material(board.side_to_move())
            {
                let last_was_null = board.last_was_null();
                if !last_was_null {
                    let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(2);
                    board.make_null();
                    let s = -self.search(
                        board,
                        depth - 1 - r,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        false,
                        false,
                    );
                    board.unmake();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                }
            }
        }

        let mut moves = board.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scores = [0i32; 256];
        let ctx = OrderContext {
            pv_move: self.pv_move_at(ply, on_pv),
            hash_move,
            killers: self.killers[ply],
        };
        order::score_moves(board, &moves, self.scheme, &ctx, &self.history, &mut scores);

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let us = board.side_to_move();
        let mut quiets_tried = [Move::NONE; 64];
        let mut nquiets = 0;
        for i in 0..moves.len() {
            order::pick(&mut moves, &mut scores, i);
            let m = moves.as_slice()[i];
            let quiet = !m.is_tactical();
            let is_killer = m == self.killers[ply][0] || m == self.killers[ply][1];

            board.make(m);
            let gives_check = board.in_check();
            if full
                && !pv_node
                && !in_check
                && !gives_check
                && quiet
                && searched > 0
                && best > -MATE_BOUND
                && alpha.abs() < MATE_BOUND
            {
                // Late-move pruning and futility: quiet, non-checking moves far down the list
                // at low depth rarely matter. Never while a mate score is at stake.
                let late = depth <= 4 && searched >= (3 + depth * depth * 2) as usize;
                let futile = depth <= 3 && static_eval + 110 * depth + 60 <= alpha && !is_killer;
                if late || futile {
                    board.unmake();
                    continue;
                }
            }
            self.stats.nodes += 1;
            let ext = i32::from(full && gives_check && ply < MAX_PLY / 2);
            let new_depth = depth - 1 + ext;
            let child_on_pv = on_pv && m == ctx.pv_move;
            let score = if searched == 0 || !full {
                -self.search(
                    board,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    pv_node,
                    child_on_pv,
                )
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 && quiet && !gives_check && !in_check && !is_killer {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if self.history.get(us, m) > 2000 {
                        r -= 1;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.search(
                    board,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    false,
                );
                if s > alpha && r > 0 {
                    s = -self.search(board, new_depth, -alpha - 1, -alpha, ply + 1, false, false);
                }
                if pv_node && s > alpha && s < beta {
                    s = -self.search(board, new_depth, -beta, -alpha, ply + 1, true, false);
                }
                s
            };
            board.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if quiet && nquiets < quiets_tried.len() {
                quiets_tried[nquiets] = m;
                nquiets += 1;
            }
            if score > best {
                best = score;
                best_move = m;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        self.stats.fail_high += 1;
                        if searched == 1 {
                            self.stats.fail_high_first += 1;
                        }
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            self.history.reward(us, m, depth as u32);
                            // The quiet moves tried before it did not cut: less credit.
                            for &q in &quiets_tried[..nquiets - 1] {
                                self.history.penalize(us, q, depth as u32);
                            }
                        }
                        break;
                    }
                }
            }
        }
        if searched == 0 {
            // Every move was pruned: fall back to the static view.
            return static_eval.max(alpha);
        }

        if full {
            let bound = TtBound::of(best, original_alpha, beta);
            let ev = if in_check { 0 } else { static_eval };
            self.tt.store(key, best_move, best, ev, depth, bound, ply);
        }
        best
    }

    fn qsearch(&mut self, board: &mut Board, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.check_limits();
        if self.stopped {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate(board, &self.eval_cfg);
        }
        let full = self.profile == Profile::Full;
        let key = board.hash();
        let mut hash_move = Move::NONE;
        if full && let Some(hit) = self.tt.probe(key, ply) {
            hash_move = hit.mv;
            if hit.bound.settles(hit.score, alpha, beta) {
                return hit.score;
            }
        }

        let in_check = board.in_check();
        let mut best;
        let stand_pat;
        let mut moves: MoveList;
        if in_check {
            moves = board.legal_moves();
            if moves.is_empty() {
                return -MATE + ply as i32;
            }
            best = -INF;
            stand_pat = -INF;
        } else {
            stand_pat = eval::evaluate(board, &self.eval_cfg);
            if stand_pat >= beta {
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
            moves = board.tactical_moves();
        }
        let original_alpha = alpha;
        let mut scores = [0i32; 256];
        let ctx = OrderContext {
            pv_move: Move::NONE,
            hash_move,
            killers: self.killers[ply],
        };
        order::score_moves(board, &moves, self.scheme, &ctx, &self.history, &mut scores);
        let mut best_move = Move::NONE;
        for i in 0..moves.len() {
            order::pick(&mut moves, &mut scores, i);
            let m = moves.as_slice()[i];
            if !in_check {
                // Under-promotions are never better than the queen in quiescence.
                if let Some(p) = m.promotion()
                    && p != crate::chess::types::PieceKind::Queen
                {
                    continue;
                }
                if full {
                    // Delta pruning: even winning the piece cannot lift alpha.
                    let gain = board
                        .piece_at(m.to())
                        .map_or(100, |p| DELTA_VALUES[p.kind().index()]);
                    if m.promotion().is_none() && stand_pat + gain + 200 <= alpha {
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
                        continue;
                    }
                }
            }
            board.make(m);
            self.stats.nodes += 1;
            let score = -self.qsearch(board, -beta, -alpha, ply + 1);
            board.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if full {
            let bound = TtBound::of(best, original_alpha, beta);
            let ev = if in_check { 0 } else { stand_pat };
            self.tt.store(key, best_move, best, ev, 0, bound, ply);
        }
        best
    }
}
