//! The sort view's state: the moves of one position in generator order and in the order
//! the search tried them (or sorted by score), the PV to step along, and the list's scroll.

use crate::chess::{Board, Color, Move};
use crate::engine::order::{self, History, OrderContext, Scheme, ScoredMove};
use crate::engine::search::SearchStats;
use crate::engine::{IterationInfo, RootMoveRow};

/// What the sort pane shows: the moves of one position in generator order and sorted.
#[derive(Clone, Debug, Default)]
pub struct SortView {
    /// The search's root position (or the game's position when idle).
    root: Board,
    /// The principal variation to step along.
    pv: Vec<Move>,
    /// How many PV moves deep the shown position is (0: the root).
    step: usize,
    /// Depth of the iteration the lists come from (`None`: generator scores, no search).
    depth: Option<u32>,
    first_move_cutoff: Option<f64>,
    branching: Option<f64>,
    /// The last iteration's own counters (cutoffs, table hits, null moves, re-searches).
    stats: Option<SearchStats>,
    /// The search's root moves in the order searched: the iteration in progress (sent while
    /// it runs) or the last one; what cost, scored and refuted each.
    root_rows: Vec<RootMoveRow>,
    /// The iteration `root_rows` belong to.
    rows_depth: Option<u32>,
    /// In generator order.
    generated: Vec<ScoredMove>,
    /// In the order the search tried them (or sorted by score).
    sorted: Vec<ScoredMove>,
    /// The move the search chose here (the PV move at this step).
    best: Option<Move>,
    /// The shown position's move number and side to move: `12... Black`.
    ply_label: String,
    /// The first list row shown.
    scroll: usize,
}

/// Why the PV cannot be stepped further.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepRefused {
    NoPv,
    AtEnd,
    AtRoot,
}

impl StepRefused {
    pub fn message(self) -> &'static str {
        match self {
            StepRefused::NoPv => {
                "no principal variation yet (the engine has not finished an iteration)"
            }
            StepRefused::AtEnd => "at the end of the principal variation",
            StepRefused::AtRoot => "at the root",
        }
    }
}

impl SortView {
    // ---- what the pane reads --------------------------------------------------------------

    /// The search's root position (or the game's position when idle).
    pub fn root(&self) -> &Board {
        &self.root
    }

    /// The principal variation to step along.
    pub fn pv(&self) -> &[Move] {
        &self.pv
    }

    /// How many PV moves deep the shown position is (0: the root).
    pub fn step(&self) -> usize {
        self.step
    }

    /// Depth of the iteration the lists come from (`None`: generator scores, no search).
    pub fn depth(&self) -> Option<u32> {
        self.depth
    }

    /// The iteration's share of cutoffs on the first move tried.
    pub fn first_move_cutoff(&self) -> Option<f64> {
        self.first_move_cutoff
    }

    /// The iteration's effective branching factor.
    pub fn branching(&self) -> Option<f64> {
        self.branching
    }

    /// The last iteration's own counters (cutoffs, table hits, null moves, re-searches).
    pub fn stats(&self) -> Option<&SearchStats> {
        self.stats.as_ref()
    }

    /// The search's root moves in the order searched, with what each cost and scored.
    pub fn root_rows(&self) -> &[RootMoveRow] {
        &self.root_rows
    }

    /// The iteration `root_rows` belong to.
    pub fn rows_depth(&self) -> Option<u32> {
        self.rows_depth
    }

    /// The moves in generator order.
    pub fn generated(&self) -> &[ScoredMove] {
        &self.generated
    }

    /// The moves in the order the search tried them (or sorted by score).
    pub fn sorted(&self) -> &[ScoredMove] {
        &self.sorted
    }

    /// The move the search chose here (the PV move at this step).
    pub fn best(&self) -> Option<Move> {
        self.best
    }

    /// The shown position's move number and side to move: `12... Black`.
    pub fn ply_label(&self) -> &str {
        &self.ply_label
    }

    /// The first list row shown.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// The iteration's counters worth a line (a real search's, not an empty placeholder).
    pub fn shown_stats(&self) -> Option<&SearchStats> {
        self.stats.as_ref().filter(|s| s.nodes > 0)
    }

    /// The lines above the list: the two heads, the PV line and the statistics line.
    pub fn header_lines(&self) -> usize {
        2 + usize::from(!self.pv.is_empty()) + usize::from(self.shown_stats().is_some())
    }

    /// The generator's view of `root`, before any search.
    pub fn of(root: &Board, scheme: Scheme) -> SortView {
        let mut v = SortView {
            root: root.clone(),
            ..SortView::default()
        };
        v.fill(None, scheme);
        v
    }

    /// How many list rows there are (the root moves' table, or the longer column).
    pub fn rows(&self) -> usize {
        if self.shows_root_rows() {
            self.root_rows.len()
        } else {
            self.generated.len().max(self.sorted.len())
        }
    }

    /// Whether the pane shows the search's root-move table (at the root, once the search
    /// reported it) rather than the two ordering columns.
    pub fn shows_root_rows(&self) -> bool {
        self.step == 0 && !self.root_rows.is_empty()
    }

    /// The engine played `m` from the root: the root table's `*` marks it (a level may
    /// play another line than the first, and lines may tie).
    pub fn mark_played(&mut self, m: Move) {
        if self.root_rows.iter().any(|r| r.mv() == m) {
            for r in &mut self.root_rows {
                r.best = r.mv() == m;
            }
        }
    }

    /// The root moves so far of the iteration `depth` still running.
    pub fn on_root_rows(&mut self, depth: u32, rows: Vec<RootMoveRow>) {
        self.rows_depth = Some(depth);
        self.root_rows = rows;
    }

    pub fn from_iteration(&mut self, info: &IterationInfo, scheme: Scheme) {
        self.pv = info.pv.clone();
        self.depth = Some(info.depth);
        self.first_move_cutoff = Some(info.first_move_cutoff);
        self.branching = Some(info.branching);
        self.stats = Some(*info.stats);
        if !info.root_rows.is_empty() {
            self.root_rows = info.root_rows.clone();
            self.rows_depth = Some(info.depth);
        }
        self.step = self.step.min(self.pv.len());
        let root_moves = Some(info.root_moves.clone()).filter(|r| !r.is_empty());
        self.fill(root_moves, scheme);
    }

    /// Steps along the PV; `root_moves` are the search's at the root (if it reported them).
    pub fn step_pv(
        &mut self,
        forward: bool,
        root_moves: Option<Vec<ScoredMove>>,
        scheme: Scheme,
    ) -> Result<(), StepRefused> {
        let max = self.pv.len();
        if forward && self.step < max {
            self.step += 1;
        } else if !forward && self.step > 0 {
            self.step -= 1;
        } else if max == 0 {
            return Err(StepRefused::NoPv);
        } else if forward {
            return Err(StepRefused::AtEnd);
        } else {
            return Err(StepRefused::AtRoot);
        }
        self.scroll = 0;
        self.fill(root_moves.filter(|r| !r.is_empty()), scheme);
        Ok(())
    }

    /// Scrolls the lists by `by` rows within a pane showing `visible` of them.
    pub fn scroll_by(&mut self, by: usize, up: bool, visible: usize) {
        let max = self.rows().saturating_sub(visible);
        self.scroll = if up {
            self.scroll.saturating_sub(by)
        } else {
            (self.scroll + by).min(max)
        };
    }

    pub fn scroll_to(&mut self, top: bool, visible: usize) {
        self.scroll = if top {
            0
        } else {
            self.rows().saturating_sub(visible)
        };
    }

    /// Fills both lists for the position `step` PV moves from the root: at the root during
    /// a search, the search's own order and scores; elsewhere what `order::explain` gives
    /// (the same scoring the search applies, with the PV move as the PV bonus).
    fn fill(&mut self, root_moves: Option<Vec<ScoredMove>>, scheme: Scheme) {
        let mut pos = self.root.clone();
        for &m in self.pv.iter().take(self.step) {
            if !pos.legal_moves().contains(m) {
                break;
            }
            pos.make(m);
        }
        let best = self.pv.get(self.step).copied();
        let ctx = OrderContext {
            pv_move: best.unwrap_or(Move::NONE),
            ..OrderContext::default()
        };
        let explained = order::explain(&pos, scheme, &ctx, &History::default());
        let (generated, sorted) = match root_moves.filter(|_| self.step == 0) {
            Some(searched) => {
                // Generator order, with the scores the search gave.
                let generated = explained
                    .iter()
                    .map(|g| {
                        searched
                            .iter()
                            .find(|s| s.mv == g.mv)
                            .cloned()
                            .unwrap_or_else(|| g.clone())
                    })
                    .collect();
                (generated, searched)
            }
            None => {
                let mut sorted = explained.clone();
                sorted.sort_by_key(|s| std::cmp::Reverse(s.score));
                (explained, sorted)
            }
        };
        self.generated = generated;
        self.sorted = sorted;
        self.best = best;
        let side = pos.side_to_move();
        self.ply_label = format!(
            "{}{} {}",
            pos.fullmove_number(),
            if side == Color::White { "." } else { "..." },
            side.name()
        );
    }
}
