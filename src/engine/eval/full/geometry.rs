//! Square and piece helpers every part of the `full` evaluation uses: dense kind indices,
//! attack-map bits, 0x88 steps, relative ranks and distances.

use crate::chess::types::{Color, KIND_INDEX_BY_CODE, PieceKind};

// Dense kind indices (the board's `counts` layout).
pub(super) const PAWN: usize = PieceKind::Pawn.index();
pub(super) const KNIGHT: usize = PieceKind::Knight.index();
pub(super) const BISHOP: usize = PieceKind::Bishop.index();
pub(super) const ROOK: usize = PieceKind::Rook.index();
pub(super) const QUEEN: usize = PieceKind::Queen.index();
pub(super) const KING: usize = PieceKind::King.index();

// Attack-map bits: which kinds of a side attack a square (the seed's "positional attack
// values", seed 000, with one bit per kind).
pub(super) const P_BIT: u8 = 1;
pub(super) const N_BIT: u8 = 2;
pub(super) const B_BIT: u8 = 4;
pub(super) const R_BIT: u8 = 8;
pub(super) const Q_BIT: u8 = 16;
pub(super) const K_BIT: u8 = 32;
pub(super) const KIND_BIT: [u8; 6] = [P_BIT, N_BIT, B_BIT, R_BIT, Q_BIT, K_BIT];

/// Dense kind index of a piece-list square's code (the one code → kind table; the passes
/// only ask about squares that hold a piece).
#[inline]
pub(super) fn kind_of(code: u8) -> usize {
    KIND_INDEX_BY_CODE[(code & 0x0F) as usize] as usize
}

/// The side with index `c` (0 White, 1 Black): the passes loop over side indices.
#[inline]
pub(super) fn side(c: usize) -> Color {
    Color::from_index(c)
}

/// Colour bits of side index `c` (White 0x10, Black 0x20), as in the cells.
#[inline]
pub(super) fn color_bits(c: usize) -> u8 {
    0x10 << c
}

/// A board index the compiler can see is below 128 (no bounds check in the hot loops).
#[inline]
pub(super) fn ix(sq: u8) -> usize {
    (sq & 0x7F) as usize
}

#[inline]
pub(super) fn on_board(sq: u8) -> bool {
    sq & 0x88 == 0
}

#[inline]
pub(super) fn step(sq: u8, d: i8) -> u8 {
    sq.wrapping_add(d as u8)
}

/// Rank as seen from side `c` (0 = its back rank).
#[inline]
pub(super) fn rel_rank(c: usize, sq: u8) -> i32 {
    let r = (sq >> 4) as i32;
    if c == 0 { r } else { 7 - r }
}

/// Where 0x88 square `sq` of side `c` is in a piece-square diagram (rank 8 first, from
/// White's side; Black's ranks flipped).
#[inline]
pub(super) fn diagram_index(c: usize, sq: u8) -> usize {
    let (file, rank) = ((sq & 7) as usize, (sq >> 4) as usize);
    if c == 0 {
        (7 - rank) * 8 + file
    } else {
        rank * 8 + file
    }
}

/// King-move distance between two squares.
#[inline]
pub(super) fn distance(a: u8, b: u8) -> i32 {
    let df = ((a & 7) as i32 - (b & 7) as i32).abs();
    let dr = ((a >> 4) as i32 - (b >> 4) as i32).abs();
    df.max(dr)
}

/// 0 on the four centre squares, 6 in a corner.
#[inline]
pub(super) fn centre_distance(sq: u8) -> i32 {
    let f = (sq & 7) as i32;
    let r = (sq >> 4) as i32;
    ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2 - 1
}

#[inline]
pub(super) fn is_light(sq: u8) -> bool {
    ((sq >> 4) + (sq & 7)) & 1 == 1
}

pub(super) const PAWN_CAPTURES: [[i8; 2]; 2] = [[15, 17], [-15, -17]];
pub(super) const FORWARD: [i8; 2] = [16, -16];

#[inline]
pub(super) fn adjacent_files(file: usize) -> u8 {
    let f = 1u8 << file;
    (f << 1) | (f >> 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_distance_and_square_colours() {
        assert_eq!(centre_distance(0x00), 6); // a1
        assert_eq!(centre_distance(0x77), 6); // h8
        assert_eq!(centre_distance(0x33), 0); // d4
        assert_eq!(centre_distance(0x44), 0); // e5
        assert!(!is_light(0x00)); // a1 is dark
        assert!(is_light(0x07)); // h1 is light
        assert_eq!(distance(0x00, 0x77), 7);
    }
}
