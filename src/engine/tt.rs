//! Transposition table: Zobrist key → score, bound, depth and best move. Buckets of two
//! entries: one kept by depth (deep results are expensive), one always replaced (recent
//! results are likely to be needed again). Mate scores are stored relative to the node, not
//! the root, so a mate found through a transposition keeps its true distance.

use super::score::{Bound, MATE_BOUND};
use crate::chess::types::Move;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    mv: u32,
    score: i16,
    eval: i16,
    depth: i8,
    /// bits 0-1: bound (0 empty, 1 exact, 2 lower, 3 upper); bits 2-7: age.
    meta: u8,
}

/// What the table holds for a position: what a probe finds and what a store writes
/// (`score` relative to the root, as the search uses it).
#[derive(Clone, Copy, Debug)]
pub struct TtData {
    pub mv: Move,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct TranspositionTable {
    buckets: Vec<[Entry; 2]>,
    age: u8,
}

fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb)
            .unwrap_or_else(|_| TranspositionTable::try_new(1).expect("a 1 MB table"))
    }

    /// As `new`, but says so instead of aborting when the memory cannot be had (a GUI may
    /// ask for far more hash than the machine has).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let n = (bytes / std::mem::size_of::<[Entry; 2]>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mb} MB hash table"))?;
        buckets.resize(n, [Entry::default(); 2]);
        Ok(TranspositionTable { buckets, age: 0 })
    }

    pub fn size_mb(&self) -> usize {
        // Rounded up: `new` fills whole buckets, so a 64 MB table holds a few bytes under 64
        // MB; rounding down would read as 63 and make every search reallocate the table.
        (self.buckets.len() * std::mem::size_of::<[Entry; 2]>()).div_ceil(1024 * 1024)
    }

    pub fn clear(&mut self) {
        self.buckets.fill([Entry::default(); 2]);
        self.age = 0;
    }

    /// A new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3F;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a division.
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtData> {
        let b = &self.buckets[self.bucket(key)];
        for e in b {
            if e.key == key && e.meta & 3 != 0 {
                let bound = match e.meta & 3 {
                    1 => Bound::Exact,
                    2 => Bound::Lower,
                    _ => Bound::Upper,
                };
                return Some(TtData {
                    mv: Move::from_raw(e.mv),
                    score: from_tt(e.score, ply),
                    eval: e.eval as i32,
                    depth: e.depth as i32,
                    bound,
                });
            }
        }
        None
    }

    /// Stores `data` for the position `key`, found at `ply` from the root (mate scores are
    /// kept relative to the node). A move of `Move::NONE` keeps the move already stored.
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, data: TtData) {
        let TtData {
            mv,
            score,
            eval,
            depth,
            bound,
        } = data;
        let age = self.age;
        let idx = self.bucket(key);
        let b = &mut self.buckets[idx];
        let bound_bits = match bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let new = |old_mv: u32| Entry {
            key,
            mv: if mv.is_none() { old_mv } else { mv.raw() },
            score: to_tt(score, ply),
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, 127) as i8,
            meta: bound_bits | age << 2,
        };
        // Same position: refresh whichever slot holds it.
        for e in b.iter_mut() {
            if e.key == key {
                *e = new(e.mv);
                return;
            }
        }
        // Slot 0 is depth-preferred: replace it if the new result is at least as deep or
        // the old one is from an earlier search; otherwise use the always-replace slot.
        let slot0 = &b[0];
        if slot0.meta & 3 == 0 || depth >= slot0.depth as i32 || (slot0.meta >> 2) != age {
            b[1] = b[0];
            b[0] = new(0);
        } else {
            b[1] = new(0);
        }
    }

    /// Permille of the first thousand entries used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(500);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in b {
                if e.meta & 3 != 0 && (e.meta >> 2) == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * 2).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) -> TtData {
        TtData {
            mv,
            score,
            eval,
            depth,
            bound,
        }
    }
    use crate::engine::score::MATE;

    #[test]
    fn stores_and_finds() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.probe(42, 0).is_none());
        tt.store(42, 0, data(Move::NONE, 17, 5, 3, Bound::Lower));
        let h = tt.probe(42, 0).unwrap();
        assert_eq!(
            (h.score, h.eval, h.depth, h.bound),
            (17, 5, 3, Bound::Lower)
        );
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 4 is mate in 7 from the root.
        tt.store(7, 4, data(Move::NONE, MATE - 7, 0, 5, Bound::Exact));
        // Probed from ply 2 (a transposition nearer the root) it is mate in 5 from the root.
        assert_eq!(tt.probe(7, 2).unwrap().score, MATE - 5);
    }

    #[test]
    fn depth_preferred_slot_survives_shallow_stores() {
        let mut tt = TranspositionTable::new(1);
        let n = tt.buckets.len() as u128;
        // Find three keys in the same bucket.
        let keys: Vec<u64> = (1u64..)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .filter(|&k| ((k as u128 * n) >> 64) == 0)
            .take(3)
            .collect();
        tt.store(keys[0], 0, data(Move::NONE, 1, 0, 10, Bound::Exact));
        tt.store(keys[1], 0, data(Move::NONE, 2, 0, 1, Bound::Exact));
        tt.store(keys[2], 0, data(Move::NONE, 3, 0, 1, Bound::Exact));
        assert_eq!(tt.probe(keys[0], 0).unwrap().depth, 10);
        assert!(tt.probe(keys[1], 0).is_none());
        assert_eq!(tt.probe(keys[2], 0).unwrap().score, 3);
    }
}
