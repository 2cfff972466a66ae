//! Attacks the 0x88 way: because `to - from` is unique for every pair of squares that lie on
//! a common line (the 0x88 gap columns stop wrap-around), a table indexed by
//! `to - from + 119` can say which piece kinds attack along that difference and which unit
//! step to walk. A slider then only walks the squares between, and only when the table says
//! it is aligned at all.

/// Direction offsets on the 0x88 board.
pub const ORTHOGONAL: [i8; 4] = [1, -1, 16, -16];
pub const DIAGONAL: [i8; 4] = [15, 17, -15, -17];
pub const KING_STEPS: [i8; 8] = [1, -1, 16, -16, 15, 17, -15, -17];
pub const KNIGHT_STEPS: [i8; 8] = [14, 18, 31, 33, -14, -18, -31, -33];

/// Attack-kind bits used by `ATTACK_BY_DELTA` and `ATTACK_BITS_BY_CODE`.
pub const A_KNIGHT: u8 = 1;
pub const A_KING: u8 = 2;
pub const A_ORTH: u8 = 4;
pub const A_DIAG: u8 = 8;
pub const A_WPAWN: u8 = 16;
pub const A_BPAWN: u8 = 32;
pub const A_SLIDERS: u8 = A_ORTH | A_DIAG;

/// `to - from + 119` for two 0x88 indices (0..=238), kept below 256 by a mask so that the
/// 256-entry tables below are indexed without a bounds check.
#[inline]
pub const fn delta_index(from: u8, to: u8) -> usize {
    ((to as usize + 119).wrapping_sub(from as usize)) & 0xFF
}

const fn build_tables() -> ([u8; 256], [i8; 256]) {
    let mut kinds = [0u8; 256];
    let mut steps = [0i8; 256];
    // Walk from a central square in each direction; the differences are what matter.
    let mut d = 0;
    while d < 8 {
        let step = KING_STEPS[d];
        let bit = if d < 4 { A_ORTH } else { A_DIAG };
        let mut n = 1;
        while n < 8 {
            let idx = (119 + step as i32 * n) as usize;
            kinds[idx] |= bit;
            steps[idx] = step;
            if n == 1 {
                kinds[idx] |= A_KING;
                if step == 15 || step == 17 {
                    kinds[idx] |= A_WPAWN;
                }
                if step == -15 || step == -17 {
                    kinds[idx] |= A_BPAWN;
                }
            }
            n += 1;
        }
        d += 1;
    }
    let mut k = 0;
    while k < 8 {
        let idx = (119 + KNIGHT_STEPS[k] as i32) as usize;
        kinds[idx] |= A_KNIGHT;
        steps[idx] = KNIGHT_STEPS[k];
        k += 1;
    }
    (kinds, steps)
}

const TABLES: ([u8; 256], [i8; 256]) = build_tables();
/// Which attack kinds can reach along a square difference (entries 239.. are padding: 0).
pub const ATTACK_BY_DELTA: [u8; 256] = TABLES.0;
/// The unit step along a square difference (0 where no line exists).
pub const STEP_BY_DELTA: [i8; 256] = TABLES.1;

const fn build_code_bits() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let color = c & 0x30;
        let kind = c & 0x0F;
        if color == 0x10 || color == 0x20 {
            t[c] = match kind {
                0x1 => {
                    if color == 0x10 {
                        A_WPAWN
                    } else {
                        A_BPAWN
                    }
                }
                0x2 => A_KNIGHT,
                0x3 => A_KING,
                0x4 => A_ORTH,
                0x8 => A_DIAG,
                0xC => A_ORTH | A_DIAG,
                _ => 0,
            };
        }
        c += 1;
    }
    t
}

/// The attack-kind bits of a board cell's code (colour and N bit included in the index).
pub const ATTACK_BITS_BY_CODE: [u8; 256] = build_code_bits();

/// Does the piece with `code` on `from` attack `to` on `cells`, treating `ignore` as empty?
#[inline]
pub fn piece_attacks(cells: &[u8; 128], code: u8, from: u8, to: u8, ignore: u8) -> bool {
    let d = delta_index(from, to);
    let bits = ATTACK_BY_DELTA[d] & ATTACK_BITS_BY_CODE[code as usize];
    if bits == 0 {
        return false;
    }
    if bits & A_SLIDERS == 0 {
        return true;
    }
    let step = STEP_BY_DELTA[d];
    let mut s = from.wrapping_add(step as u8);
    while s != to {
        if cells[(s & 0x7F) as usize] != 0 && s != ignore {
            return false;
        }
        s = s.wrapping_add(step as u8);
    }
    true
}

/// Ray-scan from `sq` outward: is it attacked by a piece with colour bits `by` on `cells`?
/// Used where the board is virtual (en passant legality) and by tests as an oracle for the
/// piece-list version.
pub fn square_attacked_on(cells: &[u8; 128], sq: u8, by: u8) -> bool {
    for &d in &KNIGHT_STEPS {
        let s = sq.wrapping_add(d as u8);
        if s & 0x88 == 0 && cells[s as usize] & 0x3F == by | 0x2 {
            return true;
        }
    }
    for (i, &d) in KING_STEPS.iter().enumerate() {
        let slider_bit = if i < 4 { 0x4 } else { 0x8 };
        let mut s = sq.wrapping_add(d as u8);
        let mut dist = 1;
        while s & 0x88 == 0 {
            let c = cells[s as usize];
            if c != 0 {
                if c & by != 0 {
                    let kind = c & 0x0F;
                    if kind & slider_bit != 0 && kind & 0x3 == 0 {
                        return true;
                    }
                    if dist == 1 {
                        if kind == 0x3 {
                            return true;
                        }
                        // A pawn attacks diagonally forward: a white pawn sits below its target.
                        if kind == 0x1 && i >= 4 {
                            let pawn_below = d == -15 || d == -17;
                            if (by == 0x10) == pawn_below {
                                return true;
                            }
                        }
                    }
                }
                break;
            }
            s = s.wrapping_add(d as u8);
            dist += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_know_lines() {
        // e1 (0x04) to e8 (0x74): orthogonal, step 16.
        let d = delta_index(0x04, 0x74);
        assert_eq!(ATTACK_BY_DELTA[d] & A_ORTH, A_ORTH);
        assert_eq!(STEP_BY_DELTA[d], 16);
        // a1 to h8: diagonal, step 17.
        let d = delta_index(0x00, 0x77);
        assert_eq!(ATTACK_BY_DELTA[d] & A_DIAG, A_DIAG);
        assert_eq!(STEP_BY_DELTA[d], 17);
        // g1 to f3: knight.
        assert_eq!(ATTACK_BY_DELTA[delta_index(0x06, 0x25)], A_KNIGHT);
        // a1 to b3 is a knight jump too, a1 to c2 as well; a1 to c3 is diagonal, not knight.
        assert_eq!(ATTACK_BY_DELTA[delta_index(0x00, 0x22)] & A_KNIGHT, 0);
        // white pawn on e4 attacks d5 and f5.
        assert_ne!(ATTACK_BY_DELTA[delta_index(0x34, 0x43)] & A_WPAWN, 0);
        assert_ne!(ATTACK_BY_DELTA[delta_index(0x34, 0x45)] & A_WPAWN, 0);
        assert_eq!(ATTACK_BY_DELTA[delta_index(0x34, 0x45)] & A_BPAWN, 0);
        // No line from a1 to b4.
        assert_eq!(ATTACK_BY_DELTA[delta_index(0x00, 0x31)], 0);
    }
}
