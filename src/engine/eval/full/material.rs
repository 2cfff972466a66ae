//! Material for the `full` evaluation: the piece values with their pawn-count adjustments,
//! the bishop pair, and the game phase that tapers every term between middlegame and endgame.

use super::Ctx;
use super::geometry::*;
use crate::chess::board::Board;
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::{self as tr, Tracer};
use crate::engine::eval::{Acc, Term};

/// The game phase from the incremental piece counts: 24 with every piece on, 0 without any.
pub(super) fn phase(b: &Board) -> i32 {
    let p: i32 = (0..2)
        .map(|c| {
            (0..6)
                .map(|k| b.kind_counts(side(c))[k] as i32 * PHASE_WEIGHT[k])
                .sum::<i32>()
        })
        .sum();
    p.min(PHASE_MAX)
}

/// Non-pawn material of a side in middlegame values.
pub(super) fn piece_material(b: &Board, c: usize) -> i32 {
    (KNIGHT..=QUEEN)
        .map(|k| b.kind_counts(side(c))[k] as i32 * MATERIAL[k].mg)
        .sum()
}

impl<T: Tracer> Ctx<'_, T> {
    /// Material from the board's incremental piece counts (never a recount).
    pub(super) fn material(&mut self, acc: &mut Acc, c: usize) {
        let mut m = S::default();
        for (k, value) in MATERIAL.iter().enumerate().take(QUEEN + 1) {
            let n = self.b.kind_counts(side(c))[k] as i32;
            m += *value * n;
            self.tr.add(tr::MATERIAL_AT + k, c, n);
        }
        // A knight gains with pawns on the board (outposts, closed lines), a rook loses
        // (fewer open files): per piece, per own pawn above or below five.
        let counts = self.b.kind_counts(side(c));
        let pawns_over_five = counts[PAWN] as i32 - 5;
        let knights = counts[KNIGHT] as i32 * pawns_over_five;
        let rooks = counts[ROOK] as i32 * pawns_over_five;
        m += KNIGHT_PAWNS * knights + ROOK_PAWNS * rooks;
        self.tr.add(tr::KNIGHT_PAWNS_AT, c, knights);
        self.tr.add(tr::ROOK_PAWNS_AT, c, rooks);
        acc.add(Term::Material, c, m);
        if self.b.kind_counts(side(c))[BISHOP] >= 2 {
            acc.add(Term::BishopPair, c, BISHOP_PAIR);
            self.tr.add(tr::BISHOP_PAIR_AT, c, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_runs_from_all_pieces_to_none() {
        assert_eq!(phase(&Board::startpos()), PHASE_MAX);
        let kings_and_pawns =
            Board::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
        assert_eq!(phase(&kings_and_pawns), 0);
        let rooks = Board::from_fen("r3k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
        assert_eq!(phase(&rooks), 4);
    }
}
