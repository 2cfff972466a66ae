//! Endgame knowledge: driving a bare king to the edge (or the bishop's corner) to mate it,
//! and the scale by which drawish endings shrink the side ahead's score.

use super::Ctx;
use super::geometry::*;
use super::material::piece_material;
use crate::chess::board::Board;
use crate::chess::types::Color;
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::Tracer;
use crate::engine::eval::{Acc, Scale, ScaleReason, Term};

impl<T: Tracer> Ctx<'_, T> {
    /// Against a bare king, mating material is not enough: the lone king must be driven to
    /// the edge (to a corner of the bishop's colour with bishop and knight) and our king must
    /// come close to help.
    pub(super) fn mating(&mut self, acc: &mut Acc, c: usize) {
        let b = self.b;
        let e = 1 - c;
        if b.piece_count(side(e)) != 1 {
            return;
        }
        let n = b.kind_counts(side(c));
        let can_mate =
            n[QUEEN] > 0 || n[ROOK] > 0 || (n[BISHOP] > 0 && n[KNIGHT] > 0) || n[BISHOP] >= 2;
        if !can_mate {
            return;
        }
        let lone = self.king[e];
        let mut bonus = MATING_CLOSE * (7 - distance(lone, self.king[c]));
        let bishop_and_knight =
            n[QUEEN] == 0 && n[ROOK] == 0 && n[BISHOP] == 1 && n[KNIGHT] == 1 && n[PAWN] == 0;
        let bishop = b.piece_squares(side(c))[1..]
            .iter()
            .copied()
            .find(|&sq| kind_of(b.code_at(sq)) == BISHOP);
        match bishop {
            Some(bsq) if bishop_and_knight => {
                // a1/h8 are dark, a8/h1 light.
                let corners: [u8; 2] = if is_light(bsq) {
                    [0x70, 0x07]
                } else {
                    [0x00, 0x77]
                };
                let near = distance(lone, corners[0]).min(distance(lone, corners[1]));
                bonus += MATING_BN_CORNER * (7 - near) + MATING_EDGE * centre_distance(lone) / 2;
            }
            _ => bonus += MATING_EDGE * centre_distance(lone),
        }
        acc.add(Term::Mating, c, s(bonus, bonus));
        self.tr.fixed(Term::Mating, c, s(bonus, bonus));
    }
}

/// The square colour of side `c`'s only bishop.
fn bishop_colour(b: &Board, c: usize) -> Option<bool> {
    b.piece_squares(side(c))[1..]
        .iter()
        .copied()
        .find(|&sq| kind_of(b.code_at(sq)) == BISHOP)
        .map(is_light)
}

/// Drawish endings: how much of `unscaled` the side ahead can hope to keep (x/64), or `None`
/// for a normal position.
pub(in crate::engine::eval) fn scale(b: &Board, unscaled: i32) -> Option<Scale> {
    if unscaled == 0 {
        return None;
    }
    let strong = if unscaled > 0 { 0 } else { 1 };
    let weak = 1 - strong;
    let sc = |factor, reason| Some(Scale { factor, reason });
    if b.insufficient_material() {
        return sc(0, ScaleReason::InsufficientMaterial);
    }
    let strong_pieces = piece_material(b, strong);
    let weak_pieces = piece_material(b, weak);
    let n = [b.kind_counts(Color::White), b.kind_counts(Color::Black)];
    if n[strong][PAWN] == 0 {
        if strong_pieces < MATERIAL[ROOK].mg {
            return sc(0, ScaleReason::CannotWin);
        }
        if strong_pieces == 2 * MATERIAL[KNIGHT].mg && n[strong][KNIGHT] == 2 {
            return sc(
                if n[weak][PAWN] == 0 { 0 } else { 8 },
                ScaleReason::TwoKnights,
            );
        }
        if strong_pieces - weak_pieces <= MATERIAL[BISHOP].mg {
            return sc(16, ScaleReason::NoPawnsSmallEdge);
        }
    }
    if n[0][BISHOP] == 1 && n[1][BISHOP] == 1 && bishop_colour(b, 0) != bishop_colour(b, 1) {
        let only_bishops =
            strong_pieces == MATERIAL[BISHOP].mg && weak_pieces == MATERIAL[BISHOP].mg;
        if only_bishops {
            // Even two extra pawns are often not enough; each further pawn helps.
            let extra = (n[strong][PAWN] as i32 - n[weak][PAWN] as i32 - 1).max(0);
            return sc((16 + 8 * extra).min(48), ScaleReason::OppositeBishops);
        }
        return sc(48, ScaleReason::OppositeBishopsWithPieces);
    }
    if n[strong][PAWN] == 1 && weak_pieces > 0 && strong_pieces - weak_pieces <= MATERIAL[BISHOP].mg
    {
        return sc(40, ScaleReason::LastPawn);
    }
    None
}
