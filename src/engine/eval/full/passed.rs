//! Passed pawns with the pieces and kings where they stand (rooks behind them, the kings'
//! distances, a blocked, free or safe path, the rule of the square), and the king's distance
//! to the pawns.

use super::Ctx;
use super::NO_PAWN;
use super::geometry::*;
use super::material::piece_material;
use super::pawns::PawnEntry;
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::{self as tr, Tracer};
use crate::engine::eval::{Acc, Term};

impl<T: Tracer> Ctx<'_, T> {
    /// Pass 3: side `c`'s pawn structure (`pawns`, the pawns-only part) and what its passed
    /// pawns are worth with the pieces and kings where they stand.
    pub(super) fn pawn_structure(&mut self, acc: &mut Acc, c: usize, pawns: &PawnEntry) {
        let b = self.b;
        let e = 1 - c;
        let enemy_has_pieces = piece_material(b, e) > 0;
        let mut structure = pawns.structure[c];
        let mut passed = pawns.passed[c];
        let mut unstoppable = false;
        let mut passers = pawns.passers[c];
        while passers != 0 {
            let i = passers.trailing_zeros() as u8;
            passers &= passers - 1;
            let sq = ((i >> 3) << 4) | (i & 7);
            let rr = rel_rank(c, sq);
            let stop = step(sq, FORWARD[c]);
            let mut bonus = S::default();
            // A rook behind a passed pawn: ours pushes it on, theirs holds it back from
            // behind (it gains scope as the pawn advances).
            let mut t = step(sq, -FORWARD[c]);
            while on_board(t) && b.code_at(t) == 0 {
                t = step(t, -FORWARD[c]);
            }
            if on_board(t) && kind_of(b.code_at(t)) == ROOK {
                let theirs = usize::from(b.code_at(t) & 0x30 != color_bits(c));
                bonus += ROOK_BEHIND_PASSER[theirs];
                self.tr.add(tr::ROOK_BEHIND_PASSER_AT + theirs, c, 1);
            }
            if rr >= 3 {
                // The further it has come, the more the kings' distances to its path matter.
                let w = rr - 2;
                let theirs = distance(self.king[e], stop).min(5);
                let ours = distance(self.king[c], stop).min(5);
                bonus += PASSED_ENEMY_KING_DIST * (w * theirs) + PASSED_OWN_KING_DIST * (w * ours);
                self.tr.add(tr::PASSED_ENEMY_KING_DIST_AT, c, w * theirs);
                self.tr.add(tr::PASSED_OWN_KING_DIST_AT, c, w * ours);
                if b.code_at(stop) != 0 {
                    bonus += PASSED_BLOCKED * w;
                    self.tr.add(tr::PASSED_BLOCKED_AT, c, w);
                } else if self.att[e][ix(stop)] == 0 {
                    bonus += PASSED_FREE * w;
                    self.tr.add(tr::PASSED_FREE_AT, c, w);
                }
                // The whole way to the last rank empty and out of the enemy's reach.
                if self.path_is_safe(c, stop) {
                    bonus += PASSED_SAFE_PATH * w;
                    self.tr.add(tr::PASSED_SAFE_PATH_AT, c, w);
                }
                // Our own pieces or pawns cover the next square.
                if self.att[c][ix(stop)] != 0 {
                    bonus += PASSED_STOP_DEFENDED * w;
                    self.tr.add(tr::PASSED_STOP_DEFENDED_AT, c, w);
                }
            }
            passed += bonus;
            if !enemy_has_pieces && !unstoppable {
                unstoppable = self.outruns_king(c, sq);
            }
        }
        if unstoppable {
            passed += UNSTOPPABLE;
            self.tr.add(tr::UNSTOPPABLE_AT, c, 1);
        }
        // The king's distance to the nearest pawn (either side's): in the ending it must
        // go where the pawns are.
        let near = match self.nearest_pawn[c] {
            NO_PAWN => 0,
            n => n,
        };
        structure += KING_PAWN_DISTANCE * near;
        self.tr.add(tr::KING_PAWN_DISTANCE_AT, c, near);
        acc.add(Term::PawnStructure, c, structure);
        acc.add(Term::PassedPawns, c, passed);
    }

    /// The rule of the square: against a bare king (pawns aside), does the pawn on `sq`
    /// promote before the king can reach its promotion square, with its path empty?
    fn outruns_king(&self, c: usize, sq: u8) -> bool {
        let b = self.b;
        let rr = rel_rank(c, sq);
        let mut t = step(sq, FORWARD[c]);
        let mut last = t;
        while on_board(t) {
            if b.code_at(t) != 0 {
                return false;
            }
            last = t;
            t = step(t, FORWARD[c]);
        }
        // From its second rank a pawn may step twice at once.
        let moves = if rr == 1 { 5 } else { 7 - rr };
        let tempo = (b.side_to_move().index() == 1 - c) as i32;
        distance(self.king[1 - c], last) - tempo > moves
    }

    /// Is every square from `stop` to the last rank empty and unattacked by the enemy of
    /// `c` (whose passed pawn stands behind `stop`)?
    fn path_is_safe(&self, c: usize, stop: u8) -> bool {
        let mut t = stop;
        while on_board(t) {
            if self.b.code_at(t) != 0 || self.att[1 - c][ix(t)] != 0 {
                return false;
            }
            t = step(t, FORWARD[c]);
        }
        true
    }
}
