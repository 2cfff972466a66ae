//! Syzygy tablebases in the search. Inside the tree, a node just after a capture or pawn
//! move (the fifty-move counter at zero, which the WDL tables assume), with few enough men
//! and enough depth left, asks the WDL tables for its result: a draw settles the node, a
//! win is a lower bound of `TB_WIN - ply` and a loss an upper bound (the search may still
//! find a mate, which scores higher). At the root, when the tables cover the position, DTZ
//! ranks the moves: only those that keep the best result by the best distance are searched,
//! so a won position is won within the fifty-move rule and a drawn one held, and the
//! reported score is the tables' (unless the search proves a mate).

use std::sync::Arc;

use super::{MATE_BOUND, Searcher};
use crate::chess::board::Board;
use crate::chess::types::Color;
use crate::engine::report::{Limits, SearchEvent};
use crate::engine::score::{Bound, TB_WIN};
use crate::engine::syzygy::{SyzygyOptions, TableError, Tablebases, Wdl};

/// What one searcher knows of the tables during a search.
#[derive(Default)]
pub(super) struct TbState {
    tables: Option<Arc<Tablebases>>,
    /// The most men a node may have to be probed; 0 when nothing is probed (no tables, or
    /// a limit of 0), which is all the hot path looks at.
    pub(super) men: usize,
    depth: i32,
    fifty_move_rule: bool,
    /// The root's result when the tables ranked its moves (the main searcher), and the
    /// probes that took.
    root: Option<Wdl>,
    root_hits: u64,
    /// A damaged table was reported this search (once is enough).
    error_told: bool,
}

impl TbState {
    /// Takes on the options for a new search (the root's result is set apart, by
    /// [`Searcher::rank_root_by_tables`]).
    pub(super) fn configure(&mut self, options: &SyzygyOptions) {
        self.men = options.probe_men();
        self.tables = options.tables.clone().filter(|_| self.men > 0);
        self.depth = options.probe_depth as i32;
        self.fifty_move_rule = options.fifty_move_rule;
        self.error_told = false;
    }

    /// Probes counted before the tree (the root's moves).
    pub(super) fn root_hits(&self) -> u64 {
        self.root_hits
    }
}

/// The internal score and bound of a WDL result found `ply` plies from the root. Wins and
/// losses are bounds: the tables say who wins, not how fast, so a mate the search finds
/// beyond them still counts. Under the fifty-move rule a cursed win or blessed loss is a
/// draw, nudged by one centipawn towards the side the position favours.
pub(super) fn wdl_score(wdl: Wdl, ply: usize, fifty_move_rule: bool) -> (i32, Bound) {
    let win = TB_WIN - ply as i32;
    match wdl {
        Wdl::Win => (win, Bound::Lower),
        Wdl::Loss => (-win, Bound::Upper),
        Wdl::CursedWin if !fifty_move_rule => (win, Bound::Lower),
        Wdl::BlessedLoss if !fifty_move_rule => (-win, Bound::Upper),
        Wdl::CursedWin => (1, Bound::Exact),
        Wdl::BlessedLoss => (-1, Bound::Exact),
        Wdl::Draw => (0, Bound::Exact),
    }
}

impl Searcher {
    /// The tables' score and bound for the node at `ply` with `depth` plies left, when it
    /// is one to probe (just after a capture or pawn move, few enough men, deep enough, no
    /// castling rights) and the tables answer. A table that fails is reported once.
    pub(super) fn probe_tablebase_wdl(
        &mut self,
        board: &Board,
        ply: usize,
        depth: i32,
        emit: &mut dyn FnMut(SearchEvent),
    ) -> Option<(i32, Bound)> {
        if board.halfmove_clock() != 0 || depth < self.tb.depth {
            return None;
        }
        let men = board.piece_count(Color::White) + board.piece_count(Color::Black);
        if men > self.tb.men {
            return None;
        }
        match self.tb.tables.as_ref()?.probe_wdl(board) {
            Ok(Some(wdl)) => {
                self.stats.tb_hits += 1;
                Some(wdl_score(wdl, ply, self.tb.fifty_move_rule))
            }
            Ok(None) => None,
            Err(e) => {
                self.tell_table_error(&e, emit);
                None
            }
        }
    }

    fn tell_table_error(&mut self, e: &TableError, emit: &mut dyn FnMut(SearchEvent)) {
        if !self.tb.error_told {
            self.tb.error_told = true;
            emit(SearchEvent::Message {
                id: self.id,
                text: format!("{e}; searching on without it"),
            });
        }
    }

    /// Before a search: when the tables cover the root (within `SyzygyProbeLimit`), the
    /// limits with `searchmoves` narrowed to the moves that keep the best result, and of a
    /// win or a loss to those with the best DTZ (the shortest win, the longest defence);
    /// `searchmoves` already given are kept to. `None` leaves the limits as they are. Says
    /// what it found in a message.
    pub(super) fn rank_root_by_tables(
        &mut self,
        id: u64,
        board: &Board,
        limits: &Limits,
        options: &SyzygyOptions,
        emit: &mut dyn FnMut(SearchEvent),
    ) -> Option<Limits> {
        self.tb.root = None;
        self.tb.root_hits = 0;
        let tables = options.tables.as_ref()?;
        let men = board.piece_count(Color::White) + board.piece_count(Color::Black);
        if men > options.probe_men() {
            return None;
        }
        let rows = match tables.probe_root(board) {
            Ok(Some(rows)) => rows,
            Ok(None) => return None,
            Err(e) => {
                emit(SearchEvent::Message {
                    id,
                    text: format!("{e}; searching without the tables"),
                });
                return None;
            }
        };
        let allowed: Vec<_> = rows
            .iter()
            .filter(|r| limits.searchmoves.is_empty() || limits.searchmoves.contains(&r.mv))
            .collect();
        let best = *allowed.first()?;
        // The tables count from a fifty-move counter of zero; the root's own counter comes
        // on top: a win (or loss) whose distance to the next zeroing move takes the counter
        // past a hundred plies is a draw under the rule.
        let counter = board.halfmove_clock() as i32;
        let result = match best.wdl {
            Wdl::Win if best.dtz.abs() + counter > 100 => Wdl::CursedWin,
            Wdl::Loss if best.dtz.abs() + counter > 100 => Wdl::BlessedLoss,
            w => w,
        };
        let searchmoves: Vec<_> = allowed
            .iter()
            .filter(|r| r.wdl == best.wdl && (best.wdl == Wdl::Draw || r.dtz == best.dtz))
            .map(|r| r.mv)
            .collect();
        emit(SearchEvent::Message {
            id,
            text: format!(
                "tablebase: {} for the side to move, DTZ {}; searching {} of {} moves",
                result.name(),
                best.dtz,
                searchmoves.len(),
                rows.len()
            ),
        });
        self.tb.root = Some(result);
        self.tb.root_hits = rows.len() as u64;
        Some(Limits {
            searchmoves,
            ..limits.clone()
        })
    }

    /// The score to report for the root's search score `s`: the tables' result when they
    /// ranked the root, unless the search proved a mate.
    pub(super) fn reported_score(&self, s: i32) -> i32 {
        match self.tb.root {
            Some(wdl) if s.abs() < MATE_BOUND => wdl_score(wdl, 0, self.tb.fifty_move_rule).0,
            _ => s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::score::{Score, TB_BOUND};

    #[test]
    fn wins_lie_in_their_band_nearer_wins_higher_and_the_fifty_move_rule_draws_cursed_ones() {
        let (w3, b) = wdl_score(Wdl::Win, 3, true);
        assert_eq!(b, Bound::Lower);
        assert!(w3 > wdl_score(Wdl::Win, 9, true).0);
        assert!((TB_BOUND..MATE_BOUND).contains(&w3));
        assert_eq!(Score::from_internal(w3).tablebase(), Some(true));
        assert_eq!(wdl_score(Wdl::Loss, 3, true), (-w3, Bound::Upper));
        assert_eq!(wdl_score(Wdl::Draw, 3, true), (0, Bound::Exact));
        assert_eq!(wdl_score(Wdl::CursedWin, 3, true), (1, Bound::Exact));
        assert_eq!(wdl_score(Wdl::BlessedLoss, 3, true), (-1, Bound::Exact));
        assert_eq!(wdl_score(Wdl::CursedWin, 3, false), (w3, Bound::Lower));
        assert_eq!(wdl_score(Wdl::BlessedLoss, 3, false), (-w3, Bound::Upper));
    }
}
