//! Pawn structure that depends on the pawns alone (doubled, isolated, backward, supported,
//! phalanx, space and the passed pawns' base bonuses), kept per thread by pawn key since it
//! is the same for every position with those pawns.

use super::Ctx;
use super::geometry::*;
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::{self as tr, Tracer};

/// Per side, per file: where the pawns are.
pub(super) struct PawnFiles {
    /// Lowest absolute rank of a pawn on the file, 8 when none.
    pub(super) min_rank: [[i8; 8]; 2],
    /// Highest absolute rank, -1 when none.
    pub(super) max_rank: [[i8; 8]; 2],
    /// Bit f set when the side has a pawn on file f.
    pub(super) files: [u8; 2],
    /// Pawns on light squares.
    pub(super) light: [i32; 2],
    /// Pawns still on their second rank (relative rank 1).
    pub(super) home: [i32; 2],
}

impl PawnFiles {
    /// The least advanced pawn of `c` on `file`, as a relative rank (0 when none).
    #[inline]
    pub(super) fn rearmost(&self, c: usize, file: usize) -> i32 {
        if c == 0 {
            let r = self.min_rank[0][file];
            if r == 8 { 0 } else { r as i32 }
        } else {
            let r = self.max_rank[1][file];
            if r < 0 { 0 } else { 7 - r as i32 }
        }
    }

    /// The pawn of `c`'s opponent on `file` closest to `c`'s back rank, as a relative rank
    /// seen from `c` (0 when none).
    #[inline]
    pub(super) fn nearest_enemy(&self, c: usize, file: usize) -> i32 {
        if c == 0 {
            let r = self.min_rank[1][file];
            if r == 8 { 0 } else { r as i32 }
        } else {
            let r = self.max_rank[0][file];
            if r < 0 { 0 } else { 7 - r as i32 }
        }
    }

    /// Does `side` have a pawn on `file` further up the board (from `ahead_of`'s view) than
    /// absolute rank `rank`? `ahead_of` says whose "forward" is meant.
    #[inline]
    pub(super) fn pawn_ahead(&self, side: usize, ahead_of: usize, file: usize, rank: i8) -> bool {
        if ahead_of == 0 {
            self.max_rank[side][file] > rank
        } else {
            self.min_rank[side][file] < rank
        }
    }

    /// Can an enemy pawn on an adjacent file (or, with `own_file`, this file too) still meet
    /// a pawn of `c` on `file`, `rank` as it advances?
    #[inline]
    pub(super) fn enemy_in_front(&self, c: usize, file: usize, rank: i8, own_file: bool) -> bool {
        let e = 1 - c;
        (file > 0 && self.pawn_ahead(e, c, file - 1, rank))
            || (file < 7 && self.pawn_ahead(e, c, file + 1, rank))
            || (own_file && self.pawn_ahead(e, c, file, rank))
    }
}

/// What the pawns alone are worth for each side (the [`PAWN_TABLE`]'s entries).
#[derive(Clone, Copy, Default)]
pub(super) struct PawnEntry {
    /// The pawn key these values belong to.
    pub(super) key: u64,
    /// Doubled, isolated, backward, supported, phalanx and space terms.
    pub(super) structure: [S; 2],
    /// The passed pawns' bonuses by rank and for being connected.
    pub(super) passed: [S; 2],
    /// The passed pawns, a bit per square (rank × 8 + file).
    pub(super) passers: [u64; 2],
}

/// Slots of the pawn table, per thread: 4,096 entries of 64 bytes (256 KiB).
const PAWN_SLOTS: usize = 1 << 12;

thread_local! {
    /// The pawn table: pawn key → [`PawnEntry`], one per thread (each search thread and
    /// each test has its own; nothing shared, no locks). The values are a pure function of
    /// the pawns, so a hit gives exactly what computing them would.
    static PAWN_TABLE: std::cell::RefCell<Vec<Option<PawnEntry>>> =
        std::cell::RefCell::new(vec![None; PAWN_SLOTS]);
}

impl<T: Tracer> Ctx<'_, T> {
    /// The part of both sides' pawn structure that depends on the pawns alone, from the
    /// pawn table when the search evaluates (the same values, computed once per pawn
    /// structure), computed afresh when the tuner traces the features.
    pub(super) fn pawn_entry(&mut self) -> PawnEntry {
        if T::ACTIVE {
            return self.compute_pawn_entry();
        }
        let key = self.b.pawn_hash();
        let slot = key as usize & (PAWN_SLOTS - 1);
        if let Some(e) = PAWN_TABLE.with_borrow(|t| t[slot].filter(|e| e.key == key)) {
            return e;
        }
        let e = self.compute_pawn_entry();
        PAWN_TABLE.with_borrow_mut(|t| t[slot] = Some(e));
        e
    }

    /// Doubled, isolated, backward, supported and phalanx pawns, the passed pawns with their
    /// base and connected bonuses, and space, for both sides.
    fn compute_pawn_entry(&mut self) -> PawnEntry {
        let mut entry = PawnEntry {
            key: self.b.pawn_hash(),
            ..PawnEntry::default()
        };
        for c in 0..2 {
            let (structure, passed, passers) = self.pawns_alone(c);
            entry.structure[c] = structure;
            entry.passed[c] = passed;
            entry.passers[c] = passers;
        }
        entry
    }

    /// Side `c`'s share of [`Ctx::compute_pawn_entry`]: the structure, the passed pawns'
    /// base bonuses, and the passed pawns (a bit per square, rank × 8 + file).
    fn pawns_alone(&mut self, c: usize) -> (S, S, u64) {
        let b = self.b;
        let e = 1 - c;
        let own_pawn = color_bits(c) | 0x1;
        let mut structure = S::default();
        let mut passed = S::default();
        let mut passers = 0u64;
        for &sq in &b.piece_squares(side(c))[1..] {
            if kind_of(b.code_at(sq)) != PAWN {
                continue;
            }
            let file = (sq & 7) as usize;
            let rank = (sq >> 4) as i8;
            let rr = rel_rank(c, sq);
            let stop = step(sq, FORWARD[c]);
            if !on_board(stop) {
                continue; // cannot happen: a pawn never stands on its last rank
            }
            let isolated = self.pawns.files[c] & adjacent_files(file) == 0;
            let doubled = self.pawns.pawn_ahead(c, c, file, rank);
            if doubled {
                structure += DOUBLED;
                self.tr.add(tr::DOUBLED_AT, c, 1);
            }
            if isolated {
                structure += ISOLATED;
                self.tr.add(tr::ISOLATED_AT, c, 1);
                if self.pawns.files[e] & (1 << file) == 0 {
                    structure += ISOLATED_OPEN;
                    self.tr.add(tr::ISOLATED_OPEN_AT, c, 1);
                }
            } else {
                // Backward: every neighbour has already advanced past it, so no pawn can
                // ever defend it, and an enemy pawn stops it from catching up.
                let neighbours_ahead = (file == 0
                    || self.pawns.rearmost(c, file - 1) == 0
                    || self.pawns.rearmost(c, file - 1) > rr)
                    && (file == 7
                        || self.pawns.rearmost(c, file + 1) == 0
                        || self.pawns.rearmost(c, file + 1) > rr);
                if neighbours_ahead && self.att[e][ix(stop)] & P_BIT != 0 {
                    structure += BACKWARD;
                    self.tr.add(tr::BACKWARD_AT, c, 1);
                    // No enemy pawn in front on its file: the weakness lies open to rooks.
                    if self.pawns.files[e] & (1 << file) == 0 {
                        structure += BACKWARD_OPEN;
                        self.tr.add(tr::BACKWARD_OPEN_AT, c, 1);
                    }
                }
            }
            let supported = self.att[c][ix(sq)] & P_BIT != 0;
            let phalanx = (file > 0 && b.code_at(sq - 1) & 0x3F == own_pawn)
                || (file < 7 && b.code_at(sq + 1) & 0x3F == own_pawn);
            if supported {
                structure += SUPPORTED[rr as usize];
                self.tr.add(tr::SUPPORTED_AT + rr as usize, c, 1);
            } else if phalanx {
                structure += PHALANX[rr as usize];
                self.tr.add(tr::PHALANX_AT + rr as usize, c, 1);
            }

            if doubled || self.pawns.enemy_in_front(c, file, rank, true) {
                continue;
            }
            passers |= 1 << (((sq >> 4) << 3) | (sq & 7));
            passed += PASSED[rr as usize];
            self.tr.add(tr::PASSED_AT + rr as usize, c, 1);
            // Connected: a pawn beside it or behind it on the next file carries it on.
            if supported || phalanx {
                passed += PASSED_CONNECTED[rr as usize];
                self.tr.add(tr::PASSED_CONNECTED_AT + rr as usize, c, 1);
            }
        }
        // Space: the centre files' squares on our 2nd to 4th ranks that no enemy pawn
        // guards and no pawn of ours stands on: room to bring the pieces behind the pawns.
        let mut space = 0;
        for rr in 1..=3 {
            let rank = if c == 0 { rr } else { 7 - rr };
            for file in 2..=5u8 {
                let sq = (rank << 4) | file;
                if b.code_at(sq) & 0x3F != own_pawn && self.att[e][ix(sq)] & P_BIT == 0 {
                    space += 1;
                }
            }
        }
        structure += SPACE * space;
        self.tr.add(tr::SPACE_AT, c, space);
        (structure, passed, passers)
    }
}
