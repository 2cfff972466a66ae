//! From a position's piece squares to the number of its entry in a Syzygy table.
//!
//! A table lists positions in a fixed order: the board is first turned by the symmetries the
//! format allows (mirror the files, and for pawnless tables also the ranks and the a1–h8
//! diagonal), then a few "leading" pieces pick a slot, and each further group of like pieces
//! adds a combination number. The numbers below are facts of the published format; the
//! small square tables are computed here from the rules that define them rather than written
//! out. Squares are 0..64 (a1 = 0, h8 = 63) throughout this module.

/// The most men a Syzygy table holds.
pub(super) const MAX_MEN: usize = 7;

/// Binomial coefficients `C(n, k)` for `n ≤ 64`, `k < 8`.
const BINOMIAL: [[u64; 8]; 65] = {
    let mut t = [[0u64; 8]; 65];
    let mut n = 0;
    while n < 65 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, 0 outside the table (a negative or too large `n`, too large `k`).
pub(super) fn choose(n: i64, k: usize) -> u64 {
    if !(0..=64).contains(&n) || k >= 8 {
        0
    } else {
        BINOMIAL[n as usize][k]
    }
}

const fn file_of(s: u8) -> u8 {
    s & 7
}

const fn rank_of(s: u8) -> u8 {
    s >> 3
}

/// Rank minus file: 0 on the a1–h8 diagonal, positive above it.
const fn above_diagonal(s: u8) -> i8 {
    rank_of(s) as i8 - file_of(s) as i8
}

/// The square mirrored in the a1–h8 diagonal.
const fn mirror_diagonal(s: u8) -> u8 {
    ((s >> 3) | (s << 3)) & 63
}

/// Each square's slot in the a1–d1–d4 triangle it folds onto (0..10): the off-diagonal
/// squares b1 c1 d1 c2 d2 d3 are 0..6, the diagonal a1 b2 c3 d4 are 6..10.
const TRIANGLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 0;
    while s < 64 {
        let (mut f, mut r) = (file_of(s as u8), rank_of(s as u8));
        if f > 3 {
            f = 7 - f;
        }
        if r > 3 {
            r = 7 - r;
        }
        if r > f {
            let x = r;
            r = f;
            f = x;
        }
        t[s] = match (f, r) {
            (1, 0) => 0,
            (2, 0) => 1,
            (3, 0) => 2,
            (2, 1) => 3,
            (3, 1) => 4,
            (3, 2) => 5,
            (0, 0) => 6,
            (1, 1) => 7,
            (2, 2) => 8,
            _ => 9,
        };
        s += 1;
    }
    t
};

/// The square of each triangle slot (the inverse of `TRIANGLE` on a1–d1–d4).
const TRIANGLE_SQUARE: [u8; 10] = [1, 2, 3, 10, 11, 19, 0, 9, 18, 27];

/// Squares below the a1–h8 diagonal numbered 0..28 by rank then file (those above take their
/// mirror's number); the diagonal itself is 28..36.
const BELOW_DIAGONAL: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut next = 0u8;
    let mut s = 0;
    while s < 64 {
        if file_of(s as u8) > rank_of(s as u8) {
            t[s] = next;
            next += 1;
        }
        s += 1;
    }
    let mut s = 0;
    while s < 64 {
        let sq = s as u8;
        if rank_of(sq) > file_of(sq) {
            t[s] = t[mirror_diagonal(sq) as usize];
        } else if rank_of(sq) == file_of(sq) {
            t[s] = 28 + rank_of(sq);
        }
        s += 1;
    }
    t
};

/// How many ways two kings stand when the first is in the triangle: 462.
const KING_PAIRS: u64 = 462;
/// Three unlike leading pieces, the first in the triangle: 31332 slots.
const THREE_LEADERS: u64 = 31332;

/// The slot of two kings (`[triangle slot of the first][square of the second]`), or
/// `u16::MAX` where they touch or where the diagonal symmetry has already put the second
/// below the diagonal. Pairs with both on the diagonal come last.
const KING_PAIR_SLOT: [[u16; 64]; 10] = {
    let mut t = [[u16::MAX; 64]; 10];
    let mut code = 0u16;
    let mut pass = 0;
    while pass < 2 {
        let mut slot = 0;
        while slot < 10 {
            let k1 = TRIANGLE_SQUARE[slot];
            let mut k2 = 0u8;
            while k2 < 64 {
                let df = file_of(k1) as i8 - file_of(k2) as i8;
                let dr = rank_of(k1) as i8 - rank_of(k2) as i8;
                let touching = df >= -1 && df <= 1 && dr >= -1 && dr <= 1;
                let k1_on = above_diagonal(k1) == 0;
                let skip = touching || (k1_on && above_diagonal(k2) > 0);
                let both_on = k1_on && above_diagonal(k2) == 0;
                if !skip && both_on == (pass == 1) {
                    t[slot][k2 as usize] = code;
                    code += 1;
                }
                k2 += 1;
            }
            slot += 1;
        }
        pass += 1;
    }
    t
};

/// A pawn square's slot 0..24 on the queen side (files a–d, ranks 2–7), files e–h folded
/// onto it: six slots a file.
const PAWN_SLOT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 8;
    while s < 56 {
        let f = file_of(s as u8);
        let f = if f > 3 { 7 - f } else { f };
        t[s] = f * 6 + rank_of(s as u8) - 1;
        s += 1;
    }
    t
};

/// The order in which further leading pawns are counted: central files and advanced ranks
/// first (0 is e7, 47 a2).
const PAWN_ORDER: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut s = 8;
    while s < 56 {
        let f = file_of(s as u8);
        let ring = if f > 3 { f - 4 } else { 3 - f };
        let queen_side = if f <= 3 { 1 } else { 0 };
        t[s] = 12 * ring + 2 * (6 - rank_of(s as u8)) + queen_side;
        s += 1;
    }
    t
};

/// The square of each pawn slot (queen side).
const fn pawn_slot_square(slot: usize) -> u8 {
    ((slot % 6 + 1) * 8 + slot / 6) as u8
}

/// For `n` leading pawns (index `n - 1`): where each pawn slot's block of positions starts
/// within its file, and the number of positions per file.
const LEAD_PAWNS: ([[u64; 24]; 5], [[u64; 4]; 5]) = {
    let mut start = [[0u64; 24]; 5];
    let mut per_file = [[0u64; 4]; 5];
    let mut extra = 0;
    while extra < 5 {
        let mut file = 0;
        while file < 4 {
            let mut sum = 0u64;
            let mut j = file * 6;
            while j < file * 6 + 6 {
                start[extra][j] = sum;
                sum += if extra == 0 {
                    1
                } else {
                    BINOMIAL[PAWN_ORDER[pawn_slot_square(j) as usize] as usize][extra]
                };
                j += 1;
            }
            per_file[extra][file] = sum;
            file += 1;
        }
        extra += 1;
    }
    (start, per_file)
};

/// The board file (0..4) a pawnful table is split by: the file of the leading pawn nearest
/// the a-file's slot order, folded onto a–d. Puts that pawn first in `squares`.
pub(super) fn pawn_file(squares: &mut [u8], lead: usize) -> usize {
    for i in 1..lead {
        if PAWN_SLOT[squares[0] as usize] > PAWN_SLOT[squares[i] as usize] {
            squares.swap(0, i);
        }
    }
    let f = file_of(squares[0]);
    usize::from(if f > 3 { 7 - f } else { f })
}

/// How the first pieces of a table pick their slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leaders {
    /// Three pieces each unique on the board (two kings and one more).
    Three,
    /// The two kings alone (every other piece has a twin).
    Kings,
    /// `lead` pawns of one side, and `other` pawns of the other side counted next
    /// (0 when that side has none).
    Pawns { lead: usize, other: usize },
}

/// Where the men of one sub-table go and what each group is worth: the piece codes in the
/// table's order, the group sizes and each group's multiplier.
#[derive(Clone, Debug)]
pub(super) struct Layout {
    pub(super) pieces: Vec<u8>,
    leaders: Leaders,
    /// At the index where a group starts, its size (0 elsewhere).
    group: [usize; MAX_MEN],
    factor: [u64; MAX_MEN],
    /// The number of entries.
    pub(super) size: u64,
}

impl Layout {
    /// The layout from the piece codes and the group order(s) of a table's header, and the
    /// file (0..4) of a pawnful sub-table. `None` when the codes cannot be a layout.
    pub(super) fn new(
        pieces: Vec<u8>,
        leaders: Leaders,
        order: u8,
        order2: u8,
        file: usize,
    ) -> Option<Layout> {
        let n = pieces.len();
        if !(2..=MAX_MEN).contains(&n) {
            return None;
        }
        let mut group = [0usize; MAX_MEN];
        let first_free = match leaders {
            Leaders::Three => {
                group[0] = 3;
                3
            }
            Leaders::Kings => {
                group[0] = 2;
                2
            }
            Leaders::Pawns { lead, other } => {
                if lead == 0 || lead > 5 || lead + other > n {
                    return None;
                }
                group[0] = lead;
                if other > 0 {
                    group[lead] = other;
                }
                lead + other
            }
        };
        if first_free > n {
            return None;
        }
        let mut i = first_free;
        while i < n {
            let mut j = i;
            while j < n && pieces[j] == pieces[i] {
                j += 1;
            }
            group[i] = j - i;
            i = j;
        }
        let mut layout = Layout {
            pieces,
            leaders,
            group,
            factor: [0; MAX_MEN],
            size: 0,
        };
        layout.size = layout.set_factors(order, order2, file)?;
        Some(layout)
    }

    /// Fills the groups' multipliers in the order the header gives (`order` is the turn of
    /// the leading group, `order2` that of the second pawn group, 0xF when none) and
    /// returns the table size.
    fn set_factors(&mut self, order: u8, order2: u8, file: usize) -> Option<u64> {
        let n = self.pieces.len();
        let mut i = self.group[0];
        let mut free: i64 = 64 - i as i64;
        let has_second = order2 < 0x0F;
        if let Leaders::Pawns { lead, other } = self.leaders
            && has_second
        {
            if other == 0 {
                return None;
            }
            i = lead + other;
            free = 64 - i as i64;
        }
        let mut size: u64 = 1;
        let mut turn = 0u8;
        while i < n || turn == order || (has_second && turn == order2) {
            if turn > 8 {
                return None;
            }
            if turn == order {
                self.factor[0] = size;
                let slots = match self.leaders {
                    Leaders::Three => THREE_LEADERS,
                    Leaders::Kings => KING_PAIRS,
                    Leaders::Pawns { lead, .. } => LEAD_PAWNS.1[lead - 1][file],
                };
                size = size.checked_mul(slots)?;
            } else if has_second && turn == order2 {
                let lead = self.group[0];
                self.factor[lead] = size;
                size = size.checked_mul(choose(48 - lead as i64, self.group[lead]))?;
            } else {
                let g = self.group[i];
                if g == 0 {
                    return None;
                }
                self.factor[i] = size;
                size = size.checked_mul(choose(free, g))?;
                free -= g as i64;
                i += g;
            }
            turn += 1;
        }
        (size > 0).then_some(size)
    }

    /// The entry of the men on `squares` (in `pieces`' order; for pawnful layouts already
    /// turned so that the leading pawns are on the table's side and the first is on this
    /// layout's file). The squares are rearranged on the way.
    pub(super) fn index(&self, squares: &mut [u8]) -> u64 {
        match self.leaders {
            Leaders::Pawns { lead, other } => self.index_pawns(squares, lead, other),
            _ => self.index_pieces(squares),
        }
    }

    fn index_pieces(&self, sq: &mut [u8]) -> u64 {
        let n = self.pieces.len();
        if file_of(sq[0]) > 3 {
            sq.iter_mut().for_each(|s| *s ^= 7);
        }
        if rank_of(sq[0]) > 3 {
            sq.iter_mut().for_each(|s| *s ^= 0x38);
        }
        let leaders = self.group[0];
        if let Some(first_off) = sq.iter().position(|&s| above_diagonal(s) != 0)
            && first_off < leaders
            && above_diagonal(sq[first_off]) > 0
        {
            sq.iter_mut().for_each(|s| *s = mirror_diagonal(*s));
        }
        let slot = if self.leaders == Leaders::Kings {
            u64::from(KING_PAIR_SLOT[TRIANGLE[sq[0] as usize] as usize][sq[1] as usize])
        } else {
            three_leaders_slot(sq[0], sq[1], sq[2])
        };
        let mut idx = slot * self.factor[0];
        let mut i = leaders;
        while i < n {
            let g = self.group[i];
            idx += self.combination(sq, i, g, 0) * self.factor[i];
            i += g;
        }
        idx
    }

    fn index_pawns(&self, sq: &mut [u8], lead: usize, other: usize) -> u64 {
        let n = self.pieces.len();
        if file_of(sq[0]) > 3 {
            sq.iter_mut().for_each(|s| *s ^= 7);
        }
        sq[1..lead].sort_unstable_by(|a, b| PAWN_ORDER[*b as usize].cmp(&PAWN_ORDER[*a as usize]));
        let extra = lead - 1;
        let mut idx = LEAD_PAWNS.0[extra][PAWN_SLOT[sq[0] as usize] as usize];
        for (i, &s) in sq.iter().enumerate().take(lead).skip(1) {
            idx += choose(i64::from(PAWN_ORDER[s as usize]), lead - i);
        }
        idx *= self.factor[0];
        let mut i = lead;
        if other > 0 {
            idx += self.combination(sq, i, other, 8) * self.factor[i];
            i += other;
        }
        while i < n {
            let g = self.group[i];
            idx += self.combination(sq, i, g, 0) * self.factor[i];
            i += g;
        }
        idx
    }

    /// The combination number of the `len` like men from `start`, counted over the squares
    /// not taken by the men before them (less `skip`, the pawn ranks a second pawn group
    /// cannot use).
    fn combination(&self, sq: &mut [u8], start: usize, len: usize, skip: i64) -> u64 {
        sq[start..start + len].sort_unstable();
        let mut s = 0;
        for m in start..start + len {
            let p = sq[m];
            let below = sq[..start].iter().filter(|&&q| p > q).count() as i64;
            s += choose(i64::from(p) - below - skip, m - start + 1);
        }
        s
    }
}

/// The slot of three unique leading pieces (`a` in the triangle, the board already turned
/// so that the first of them off the diagonal is below it).
fn three_leaders_slot(a: u8, b: u8, c: u8) -> u64 {
    let i = u64::from(b > a);
    let j = u64::from(c > a) + u64::from(c > b);
    let (b64, c64) = (u64::from(b), u64::from(c));
    let on_diag = |s: u8| u64::from(rank_of(s));
    let lower = |s: u8| u64::from(BELOW_DIAGONAL[s as usize]);
    if above_diagonal(a) != 0 {
        u64::from(TRIANGLE[a as usize]) * 63 * 62 + (b64 - i) * 62 + (c64 - j)
    } else if above_diagonal(b) != 0 {
        6 * 63 * 62 + on_diag(a) * 28 * 62 + lower(b) * 62 + c64 - j
    } else if above_diagonal(c) != 0 {
        6 * 63 * 62 + 4 * 28 * 62 + on_diag(a) * 7 * 28 + (on_diag(b) - i) * 28 + lower(c)
    } else {
        6 * 63 * 62
            + 4 * 28 * 62
            + 4 * 7 * 28
            + on_diag(a) * 7 * 6
            + (on_diag(b) - i) * 6
            + (on_diag(c) - j)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_king_pairs_fill_462_slots_with_the_diagonal_pairs_last() {
        let used: Vec<u16> = KING_PAIR_SLOT
            .iter()
            .flatten()
            .copied()
            .filter(|&c| c != u16::MAX)
            .collect();
        assert_eq!(used.len() as u64, KING_PAIRS);
        assert_eq!(used.iter().max(), Some(&461));
        // b1 with d1 is the first pair; a1 with c3 is the first with both on the diagonal.
        assert_eq!(KING_PAIR_SLOT[0][3], 0);
        assert_eq!(KING_PAIR_SLOT[6][18], 441);
        assert_eq!(KING_PAIR_SLOT[9][63], 461);
    }

    #[test]
    fn the_triangle_and_pawn_orders_are_the_formats() {
        assert_eq!(TRIANGLE[0], 6);
        assert_eq!(TRIANGLE[8], 0);
        assert_eq!(TRIANGLE[28], 9);
        assert_eq!(PAWN_ORDER[8], 47);
        assert_eq!(PAWN_ORDER[52], 0);
        assert_eq!(PAWN_ORDER[34], 17);
        assert_eq!(PAWN_SLOT[9], 6);
        assert_eq!(BELOW_DIAGONAL[1], 0);
        assert_eq!(BELOW_DIAGONAL[8], 0);
        assert_eq!(BELOW_DIAGONAL[63], 35);
        // One leading pawn: six slots per file.
        assert_eq!(LEAD_PAWNS.1[0], [6, 6, 6, 6]);
    }
}
