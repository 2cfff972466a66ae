//! The `full` evaluation: tapered material and piece-square tables, mobility, king safety,
//! pawn structure, passed pawns, piece terms, threats, tempo and endgame knowledge.
//!
//! Seed 002 names the features (material, mobility, king safety, centre control, pawn
//! structure, threatened pieces) and leaves the rest to us. Everything is computed from the
//! piece lists: one pass for pawns and kings (pawn files and pawn attacks), one for the
//! pieces (their attacks, mobility and pressure on the enemy king), and a last one that
//! reads the finished attack maps (pawn structure, threats, king danger). No heap, no scan of
//! the 128 cells.
//!
//! This file holds what the passes share ([`Ctx`]) and the order they run in
//! ([`evaluate`]); each group of terms has a file of its own: `material.rs` (material and
//! the game phase), `pieces.rs` (the first two passes: piece-square values, attacks,
//! mobility, rooks and minor pieces), `pawns.rs` (the pawn files and the pawns-only
//! structure with its per-thread table), `passed.rs` (passed pawns with the pieces and kings
//! where they stand), `threats.rs`, `king.rs` (shelter, storm and king danger),
//! `endgame.rs` (mating a bare king and the drawish endings' scale), and `geometry.rs` (the
//! 0x88 square helpers all of them use).

mod endgame;
mod geometry;
mod king;
mod material;
mod passed;
mod pawns;
mod pieces;
mod threats;

use crate::chess::board::Board;
use crate::chess::types::Color;
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::{self as tr, Tracer};
use crate::engine::eval::{Acc, Term};
use material::phase;
use pawns::PawnFiles;

pub(super) use endgame::scale;

/// What the passes share: the board, the tracer, the attack maps, the pawn files and the
/// pressure on each king.
struct Ctx<'a, T> {
    b: &'a Board,
    /// Hears every weight added (the tuner's trace; nothing for the search).
    tr: &'a mut T,
    /// Attack maps: for each side and square, the kinds that attack it.
    att: [[u8; 128]; 2],
    pawns: PawnFiles,
    king: [u8; 2],
    /// Pressure on the enemy king, by attacking side: pieces reaching the zone, their summed
    /// weights, and attacked zone squares.
    king_attackers: [i32; 2],
    king_attack_weight: [i32; 2],
    king_zone_hits: [i32; 2],
    /// Each king's distance to the nearest pawn of either side (`NO_PAWN` when none).
    nearest_pawn: [i32; 2],
}

/// `Ctx::nearest_pawn` before any pawn is seen.
const NO_PAWN: i32 = i32::MAX;

/// Writes every `full` term into `acc`; returns the game phase (0..=PHASE_MAX).
pub(super) fn evaluate<T: Tracer>(b: &Board, acc: &mut Acc, tracer: &mut T) -> i32 {
    let mut cx = Ctx {
        b,
        tr: tracer,
        att: [[0; 128]; 2],
        pawns: PawnFiles {
            min_rank: [[8; 8]; 2],
            max_rank: [[-1; 8]; 2],
            files: [0; 2],
            light: [0; 2],
            home: [0; 2],
        },
        king: [b.king_x88(Color::White), b.king_x88(Color::Black)],
        king_attackers: [0; 2],
        king_attack_weight: [0; 2],
        king_zone_hits: [0; 2],
        nearest_pawn: [NO_PAWN; 2],
    };
    for c in 0..2 {
        cx.material(acc, c);
        cx.pawns_and_kings(acc, c);
    }
    for c in 0..2 {
        cx.pieces(acc, c);
    }
    let pawns = cx.pawn_entry();
    for c in 0..2 {
        cx.pawn_structure(acc, c, &pawns);
        cx.threats(acc, c);
        cx.king_safety(acc, c);
        cx.mating(acc, c);
    }
    acc.add(Term::Tempo, b.side_to_move().index(), TEMPO);
    cx.tr.add(tr::TEMPO_AT, b.side_to_move().index(), 1);
    phase(b)
}
