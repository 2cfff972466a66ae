//! The evaluation pane's state and what it shows: every term of the full (hand-made)
//! evaluation for the position on the board, the E shown everywhere else (the mode in force,
//! captures in flight settled), E in each mode, and, toggled, the same for the position at
//! the end of the engine's principal variation with the difference ("why does the engine
//! think +0.8?").
//! Everything is computed from the game at drawing time, so it follows every move, undo
//! and step through the game by itself.

use super::text::bounded_score;
use crate::chess::{Board, Move};
use crate::engine::IterationInfo;
use crate::engine::eval::{Breakdown, EvalConfig, EvalMode, explain, settled_white};

/// The pane's state: the toggle, and the engine's last line with the position it started
/// from (kept after the search ends, used while the board shows that position).
#[derive(Clone, Debug, Default)]
pub struct EvalView {
    pub show_pv_end: bool,
    line: Option<(Board, Vec<Move>)>,
    /// The engine's newest score and the position it is for (its hash): `d7 +0.29`, White's
    /// view with its bound, shown beside E while that position is on the board.
    reading: Option<(u64, String)>,
}

/// What the pane draws.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalReport {
    /// The full evaluation's terms: the one evaluation whose parts have names.
    pub now: Breakdown,
    /// The evaluation mode in force, whose E the board, the log and the chart show.
    pub mode: EvalMode,
    /// That E for the board (White's view): the same number as the board pane's.
    pub e: i32,
    /// E of the board in each mode (material, center, full, net), White's view.
    pub modes: Vec<(EvalMode, i32)>,
    /// The position at the end of the PV: its breakdown, its E in the mode in force and the
    /// PV's length in plies.
    pub pv_end: Option<(Breakdown, i32, usize)>,
}

impl EvalView {
    /// The engine's newest iteration of a search from `root`.
    pub fn on_iteration(&mut self, root: &Board, info: &IterationInfo) {
        if info.multipv == 1 && !info.pv.is_empty() {
            self.line = Some((root.clone(), info.pv.clone()));
        }
        if info.multipv == 1 {
            let score = bounded_score(info.bound, info.score_white, root.side_to_move());
            self.reading = Some((root.hash(), format!("d{}{score}", info.depth)));
        }
    }

    /// The engine's newest score for `board`, if its last search was of that position.
    pub fn reading(&self, board: &Board) -> Option<&str> {
        self.reading
            .as_ref()
            .filter(|(hash, _)| *hash == board.hash())
            .map(|(_, text)| text.as_str())
    }

    /// The position at the end of the engine's last line, when that line starts from
    /// `board`; its moves are played only while legal.
    pub fn pv_end(&self, board: &Board) -> Option<(Board, usize)> {
        let (root, pv) = self.line.as_ref()?;
        if root.hash() != board.hash() {
            return None;
        }
        let mut b = board.clone();
        let mut played = 0;
        for &m in pv {
            if b.play(m).is_err() {
                break;
            }
            played += 1;
        }
        Some((b, played))
    }

    /// The pane's numbers for `board` with the engine's evaluation `cfg` (full mode when the
    /// engine plays a seed mode, so the positional terms are always there to read).
    pub fn report(&self, board: &Board, cfg: &EvalConfig) -> EvalReport {
        let full = EvalConfig {
            mode: EvalMode::Full,
            ..*cfg
        };
        let modes = EvalMode::ALL
            .iter()
            .map(|&mode| (mode, settled_white(board, &EvalConfig { mode, ..*cfg })))
            .collect();
        let pv_end = if self.show_pv_end {
            self.pv_end(board)
                .map(|(b, n)| (explain(&b, &full), settled_white(&b, cfg), n))
        } else {
            None
        };
        EvalReport {
            now: explain(board, &full),
            mode: cfg.mode,
            e: settled_white(board, cfg),
            modes,
            pv_end,
        }
    }
}
