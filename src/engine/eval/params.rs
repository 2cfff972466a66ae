//! The numbers of the `full` evaluation, each weight a middlegame/endgame pair (`S`). The
//! tunable ones (material, piece-square tables, mobility, pawn, piece, threat and king
//! terms, tempo, and the king danger's whole-number parameters) live in the generated
//! `weights.rs` and are re-exported here; `ox88 tune` fits them to self-play results (Texel
//! tuning). The ones below shape the danger's square (its divisors and cap) or need no
//! fitting (mating a bare king, scale factors) and stay as designed by chess reasoning;
//! seed 002 gives the idea (E = Σ Kᵢ·Fᵢ).

pub use super::pair::{S, s};
pub(crate) use super::weights::*;

// ---- material and phase ------------------------------------------------------------------

/// The middlegame column of `MATERIAL`: what taking a piece is worth in the opening and
/// middlegame, for callers that need one number per kind (delta pruning's margins).
pub const MATERIAL_MG: [i32; 6] = {
    let mut t = [0; 6];
    let mut i = 0;
    while i < 6 {
        t[i] = MATERIAL[i].mg;
        i += 1;
    }
    t
};

/// Phase weight per kind: the phase is 24 with all minor and major pieces on the board
/// (4 minors × 1 + 4 rooks × 2 + 2 queens × 4) and 0 with none; pawns and kings do not count.
pub(crate) const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_MAX: i32 = 24;

// ---- piece-square tables -------------------------------------------------------------------
//
// The tables (`weights.rs`) are board diagrams from White's side, rank 8 first; Black uses
// the same table with the ranks flipped.

const fn build_pst() -> [[[S; 128]; 6]; 2] {
    let tables: [&[S; 64]; 6] = [
        &PST_PAWN,
        &PST_KNIGHT,
        &PST_BISHOP,
        &PST_ROOK,
        &PST_QUEEN,
        &PST_KING,
    ];
    let mut t = [[[s(0, 0); 128]; 6]; 2];
    let mut kind = 0;
    while kind < 6 {
        let table = tables[kind];
        let mut sq = 0;
        while sq < 128 {
            if sq & 0x88 == 0 {
                let file = sq & 7;
                let rank = sq >> 4;
                let white = (7 - rank) * 8 + file;
                let black = rank * 8 + file;
                t[0][kind][sq] = table[white];
                t[1][kind][sq] = table[black];
            }
            sq += 1;
        }
        kind += 1;
    }
    t
}

/// Piece-square values by colour, dense kind index and 0x88 square.
pub(crate) static PST: [[[S; 128]; 6]; 2] = build_pst();

// ---- king safety ---------------------------------------------------------------------------

// The danger from attacking pieces (weights.rs, tuned; whole numbers, not pairs): per piece
// reaching the king zone, by kind (`KING_ATTACK_WEIGHT`: knight, bishop, rook, queen), of
// which only a share counts by the number of such pieces (`KING_ATTACKERS_PERCENT`: one
// piece alone rarely mates), plus `KING_ZONE_HIT` per attacked zone square and `SAFE_CHECK`
// per kind of check the defender cannot simply capture, less `NO_QUEEN_RELIEF` when the
// attacker has no queen. The sum is squared for the middlegame and taken as it is for the
// endgame (`danger_penalty`).

/// Quadratic danger → middlegame penalty divisor; linear endgame divisor; cap.
pub(crate) const DANGER_MG_DIV: i32 = 800;
pub(crate) const DANGER_EG_DIV: i32 = 10;
pub(crate) const DANGER_MG_CAP: i32 = 900;

/// What a king danger of `danger` costs the king's side (nothing unless it is above 0).
#[inline]
pub(crate) fn danger_penalty(danger: i32) -> S {
    if danger > 0 {
        s(
            -(danger * danger / DANGER_MG_DIV).min(DANGER_MG_CAP),
            -danger / DANGER_EG_DIV,
        )
    } else {
        S::default()
    }
}

// Shelter and storm (weights.rs, tuned): on each of the three files around the king, by the
// relative rank of our rearmost pawn in front of it (`SHELTER_MISSING`, index 0 = none, plus
// `SHELTER_OPEN_FILE` when the enemy has no pawn there either), and by the relative rank (our
// view) of the enemy pawn nearest our king (`STORM`, or `STORM_BLOCKED` when our own pawn
// stands just in front of it and it cannot open the file).

// ---- endgames ------------------------------------------------------------------------------

/// Mating a bare king: per step of the lone king away from the centre (0..6) and per step the
/// kings come closer (0..6). Same in both phases: the position has no phase to speak of.
pub(crate) const MATING_EDGE: i32 = 24;
pub(crate) const MATING_CLOSE: i32 = 12;
/// King and bishop and knight: per step of the lone king nearer a corner of the bishop's
/// colour (the only corners where mate can be forced).
pub(crate) const MATING_BN_CORNER: i32 = 20;

/// Scale factors in 64ths.
pub(crate) const SCALE_NORMAL: i32 = 64;
