//! The sort pane (seed 000), the pane the program is named for: the moves of one position
//! in generator order and in the order the search tried them (or sorted by score), the PV
//! to step along (← / → while focused), and the list's scroll. It follows the game and the
//! search through [`PaneEvent`]s; `draw.rs` draws it.

pub mod draw;

use crossterm::event::KeyCode;
use ratatui::Frame;
use ratatui::layout::Rect;

use super::{Component, DrawCtx, PaneEvent, Reply, Scroll, scroll_of};
use crate::chess::{Board, Color, Move};
use crate::engine::order::{self, History, OrderContext, Scheme, ScoredMove};
use crate::engine::search::SearchStats;
use crate::engine::{IterationInfo, RootMoveRow};
use crate::tui::keys::{Action, Binding, Focus, NONE, When, bind};
use crate::tui::layout::Slot;
use crate::tui::legend::Legend;

/// The sort pane's focus.
pub const FOCUS: Focus = Focus::named("sort pane");

/// Its own keys while focused (Alt+← and Alt+→ step the PV from anywhere).
pub const KEYS: &[Binding] = &[
    bind(KeyCode::Left, NONE, When::Focused(FOCUS), Action::PvBack),
    bind(
        KeyCode::Right,
        NONE,
        When::Focused(FOCUS),
        Action::PvForward,
    ),
];

/// What its numbers are.
const LEGEND: Legend = Legend::of(
    "Sort",
    &[
        "sort columns",
        "order",
        "root table",
        "1st, 1st-cut, 1stcut",
        "ebf, branch, EBF",
        "cut@, cut index, idx",
        "tt, TT hits",
        "null, null cuts",
        "re, re-search",
        "q, qsearch",
    ],
);

/// The sort pane: the lists of the game's position (or of the search's root), and those
/// of an earlier position while the board shows one.
#[derive(Clone, Debug, Default)]
pub struct SortPane {
    live: SortView,
    /// The lists of an earlier position on show (generator order: no search ran there).
    viewing: Option<SortView>,
    /// The engine's lists for the move it just played, kept on show (with the move marked)
    /// until something newer: how the engine ordered its choices is the pane's reason to be.
    played: Option<SortView>,
}

impl SortPane {
    /// The lists on show.
    pub fn shown(&self) -> &SortView {
        self.viewing.as_ref().unwrap_or(&self.live)
    }
}

impl Component for SortPane {
    fn focus(&self) -> Focus {
        FOCUS
    }

    fn legend(&self) -> Legend {
        LEGEND
    }

    fn slot(&self) -> Slot {
        Slot::Lower
    }

    fn rows_in(&self, area: Rect) -> usize {
        (area.height.saturating_sub(2) as usize).saturating_sub(self.shown().header_lines())
    }

    fn act(&mut self, action: Action, rows: usize) -> Reply {
        if let Some(scroll) = scroll_of(action, rows) {
            self.live.scroll_by(scroll, rows);
            return Reply::Done;
        }
        let forward = match action {
            Action::PvForward => true,
            Action::PvBack => false,
            _ => return Reply::Ignored,
        };
        match self.live.step_pv(forward) {
            Ok(()) => Reply::Done,
            Err(why) => Reply::Say(why.message().to_string()),
        }
    }

    fn on_event(&mut self, event: PaneEvent) {
        match event {
            PaneEvent::Position { board, scheme } => {
                self.live = SortView::of(board, scheme);
                if let Some(kept) = self.played.take() {
                    self.live = kept;
                }
            }
            PaneEvent::SearchStarted { board, scheme } => {
                self.played = None;
                self.live = SortView::of(board, scheme);
            }
            PaneEvent::EnginePlayed(m) => {
                let mut kept = std::mem::take(&mut self.live);
                kept.mark_played(m);
                self.played = kept.depth().is_some().then_some(kept);
            }
            PaneEvent::Iteration { info, scheme } => self.live.from_iteration(info, scheme),
            PaneEvent::RootRows { depth, rows } => self.live.on_root_rows(depth, rows.to_vec()),
            PaneEvent::Viewing { board, scheme } => {
                self.viewing = board.map(|b| SortView::of(b, scheme));
            }
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &DrawCtx) {
        draw::draw(frame, area, self.shown(), ctx);
    }
}

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
    /// The shown position's side to move: the root table's scores are from its view (White
    /// before any position is shown).
    black_to_move: bool,
    /// The first list row shown.
    scroll: usize,
    /// The search's own order and scores at the root (its last iteration's), for the lists
    /// when the PV is stepped back to the root.
    root_moves: Vec<ScoredMove>,
    /// The ordering scheme the lists are scored with.
    scheme: Scheme,
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

    /// The shown position's side to move, whose view the root table's scores take.
    pub fn side(&self) -> Color {
        if self.black_to_move {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The first list row shown.
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// The iteration's counters worth a line (a real search's, not an empty placeholder).
    pub fn shown_stats(&self) -> Option<&SearchStats> {
        self.stats.as_ref().filter(|s| s.nodes > 0)
    }

    /// The lines above the list: one, the column heads (the summary, the PV and the
    /// counters go in the frame).
    pub fn header_lines(&self) -> usize {
        1
    }

    /// The generator's view of `root`, before any search.
    pub fn of(root: &Board, scheme: Scheme) -> SortView {
        let mut v = SortView {
            root: root.clone(),
            scheme,
            ..SortView::default()
        };
        v.fill();
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
        self.root_moves = info.root_moves.clone();
        self.scheme = scheme;
        self.fill();
    }

    /// Steps along the PV.
    pub fn step_pv(&mut self, forward: bool) -> Result<(), StepRefused> {
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
        self.fill();
        Ok(())
    }

    /// Scrolls the lists within a pane showing `visible` of them.
    fn scroll_by(&mut self, scroll: Scroll, visible: usize) {
        let max = self.rows().saturating_sub(visible);
        self.scroll = match scroll {
            Scroll::By(by) => self.scroll.saturating_add_signed(by).min(max),
            Scroll::Top => 0,
            Scroll::Bottom => max,
        };
    }

    /// Fills both lists for the position `step` PV moves from the root: at the root during
    /// a search, the search's own order and scores; elsewhere what `order::explain` gives
    /// (the same scoring the search applies, with the PV move as the PV bonus).
    fn fill(&mut self) {
        let scheme = self.scheme;
        let root_moves = Some(self.root_moves.clone()).filter(|r| !r.is_empty());
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
        self.black_to_move = side == Color::Black;
        self.ply_label = format!(
            "{}{} {}",
            pos.fullmove_number(),
            if side == Color::White { "." } else { "..." },
            side.name()
        );
    }
}
