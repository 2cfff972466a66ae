//! Transposition table: Zobrist key → score, bound, depth and best move. Buckets of two
//! entries: one kept by depth (deep results are expensive), one always replaced (recent
//! results are likely to be needed again). Mate scores are stored relative to the node, not
//! the root, so a mate found through a transposition keeps its true distance.
//!
//! One table is shared by every search thread (Lazy SMP, `search/threads.rs`) without locks
//! or `unsafe`: an entry is three `AtomicU64` words, the two data words and a check word
//! holding the key mixed with both (`key ^ seal(data, meta)`). Loads and stores are `Relaxed`; two threads writing one
//! entry at once can leave words from both, and then the check word no longer matches the
//! key, so a probe reads a torn entry as a miss. What a probe returns was therefore stored
//! whole for that key. (Its move is used only to order the moves generated at the node,
//! never played unchecked.) The entry keeps the 24 bytes of the plain layout before it, so
//! a table of a given size has as many buckets as before and one thread searches as before.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

use super::score::{Bound, TB_BOUND};
use crate::chess::types::Move;

/// One entry as the search sees it: the key it belongs to and the packed fields.
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

impl Entry {
    /// The two data words: move, score and eval; depth and meta.
    #[inline]
    fn words(self) -> (u64, u64) {
        let data = u64::from(self.mv)
            | u64::from(self.score as u16) << 32
            | u64::from(self.eval as u16) << 48;
        let meta = u64::from(self.depth as u8) | u64::from(self.meta) << 8;
        (data, meta)
    }

    #[inline]
    fn from_words(check: u64, data: u64, meta: u64) -> Entry {
        Entry {
            key: check ^ seal(data, meta),
            mv: data as u32,
            score: (data >> 32) as u16 as i16,
            eval: (data >> 48) as u16 as i16,
            depth: meta as u8 as i8,
            meta: (meta >> 8) as u8,
        }
    }
}

/// What the check word adds to the key: the data words mixed (odd multipliers, a rotation),
/// so words of two writes cannot cancel out as a plain `data ^ meta` can (keys that differ in
/// a few low bits, like their depths and scores, once made a torn entry pass).
#[inline]
fn seal(data: u64, meta: u64) -> u64 {
    data.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ meta.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)
}

/// An entry's storage: `check` is `key ^ seal(data, meta)`, so a torn entry fails the key test.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
    meta: AtomicU64,
}

impl Slot {
    #[inline]
    fn load(&self) -> Entry {
        Entry::from_words(
            self.check.load(Relaxed),
            self.data.load(Relaxed),
            self.meta.load(Relaxed),
        )
    }

    #[inline]
    fn save(&self, e: Entry) {
        let (data, meta) = e.words();
        self.save_raw([e.key ^ seal(data, meta), data, meta]);
    }

    /// The three words as stored (check, data, meta), for moving an entry unchanged.
    #[inline]
    fn load_raw(&self) -> [u64; 3] {
        [
            self.check.load(Relaxed),
            self.data.load(Relaxed),
            self.meta.load(Relaxed),
        ]
    }

    #[inline]
    fn save_raw(&self, w: [u64; 3]) {
        self.check.store(w[0], Relaxed);
        self.data.store(w[1], Relaxed);
        self.meta.store(w[2], Relaxed);
    }
}

type Bucket = [Slot; 2];

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

impl TtData {
    /// The stored score where its bound says it is nearer the truth than `eval` (an exact
    /// score, a lower bound above `eval`, an upper bound below it); `eval` otherwise, and
    /// for mate scores. The search's pruning and quiescence's stand-pat use it.
    pub fn nearer_than(&self, eval: i32) -> i32 {
        let nearer = self.score.abs() < TB_BOUND
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.score > eval,
                Bound::Upper => self.score < eval,
            };
        if nearer { self.score } else { eval }
    }
}

/// The table. Every method takes `&self`, so threads share it behind an `Arc`.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

/// Mate and tablebase scores count plies from the root; the table keeps them counted from
/// the position itself, so that a transposition at another ply reads them right.
fn to_tt(score: i32, ply: usize) -> i16 {
    let s = if score >= TB_BOUND {
        score + ply as i32
    } else if score <= -TB_BOUND {
        score - ply as i32
    } else {
        score
    };
    s.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn from_tt(score: i16, ply: usize) -> i32 {
    let s = score as i32;
    if s >= TB_BOUND {
        s - ply as i32
    } else if s <= -TB_BOUND {
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
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(n)
            .map_err(|_| format!("cannot allocate a {mb} MB hash table"))?;
        buckets.resize_with(n, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            age: AtomicU8::new(0),
        })
    }

    pub fn size_mb(&self) -> usize {
        // Rounded up: `new` fills whole buckets, so a 64 MB table holds a few bytes under 64
        // MB; rounding down would read as 63 and make every search reallocate the table.
        (self.buckets.len() * std::mem::size_of::<Bucket>()).div_ceil(1024 * 1024)
    }

    /// Empties the table. Call it while no search is running (a store racing with it
    /// would survive).
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in b {
                s.save(Entry::default());
            }
        }
        self.age.store(0, Relaxed);
    }

    /// A new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.store((self.age.load(Relaxed) + 1) & 0x3F, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto the table without a division.
        &self.buckets[((key as u128 * self.buckets.len() as u128) >> 64) as usize]
    }

    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtData> {
        for slot in self.bucket(key) {
            let e = slot.load();
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
    pub fn store(&self, key: u64, ply: usize, data: TtData) {
        let TtData {
            mv,
            score,
            eval,
            depth,
            bound,
        } = data;
        let age = self.age.load(Relaxed);
        let b = self.bucket(key);
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
        let first = b[0].load_raw();
        for (slot, w) in [(&b[0], first), (&b[1], b[1].load_raw())] {
            if w[0] ^ seal(w[1], w[2]) == key {
                slot.save(new(w[1] as u32));
                return;
            }
        }
        // Slot 0 is depth-preferred: replace it if the new result is at least as deep or
        // the old one is from an earlier search; otherwise use the always-replace slot.
        let slot0 = Entry::from_words(first[0], first[1], first[2]);
        if slot0.meta & 3 == 0 || depth >= slot0.depth as i32 || (slot0.meta >> 2) != age {
            b[1].save_raw(first);
            b[0].save(new(0));
        } else {
            b[1].save(new(0));
        }
    }

    /// Permille of the first thousand entries used by the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Relaxed);
        let n = self.buckets.len().min(500);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for s in b {
                let e = s.load();
                if e.meta & 3 != 0 && (e.meta >> 2) == age {
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

    #[test]
    fn the_stored_score_replaces_the_evaluation_only_where_its_bound_points_nearer() {
        let at = |score, bound| data(Move::NONE, score, 0, 5, bound).nearer_than(40);
        assert_eq!(at(10, Bound::Exact), 10);
        assert_eq!(at(90, Bound::Lower), 90); // at least 90: above the evaluation
        assert_eq!(at(10, Bound::Lower), 40); // at least 10 says nothing against 40
        assert_eq!(at(10, Bound::Upper), 10); // at most 10: below the evaluation
        assert_eq!(at(90, Bound::Upper), 40);
        // Mate and tablebase scores never stand in for an evaluation.
        assert_eq!(at(MATE_BOUND + 5, Bound::Lower), 40);
        assert_eq!(at(-MATE_BOUND - 5, Bound::Exact), 40);
        assert_eq!(at(TB_WIN - 5, Bound::Lower), 40);
        assert_eq!(at(-TB_WIN + 5, Bound::Exact), 40);
    }
    use crate::engine::score::{MATE, MATE_BOUND, TB_WIN};

    #[test]
    fn stores_and_finds() {
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 4 is mate in 7 from the root.
        tt.store(7, 4, data(Move::NONE, MATE - 7, 0, 5, Bound::Exact));
        // Probed from ply 2 (a transposition nearer the root) it is mate in 5 from the root.
        assert_eq!(tt.probe(7, 2).unwrap().score, MATE - 5);
        // A tablebase win found 3 plies below the root's ply-4 node: the same.
        tt.store(8, 4, data(Move::NONE, TB_WIN - 7, 0, 5, Bound::Lower));
        assert_eq!(tt.probe(8, 2).unwrap().score, TB_WIN - 5);
        tt.store(9, 4, data(Move::NONE, -TB_WIN + 7, 0, 5, Bound::Upper));
        assert_eq!(tt.probe(9, 6).unwrap().score, -TB_WIN + 9);
    }

    #[test]
    fn depth_preferred_slot_survives_shallow_stores() {
        let tt = TranspositionTable::new(1);
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

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::new(1);
        tt.store(42, 0, data(Move::NONE, 17, 5, 3, Bound::Lower));
        tt.store(43, 0, data(Move::NONE, -90, 1, 9, Bound::Exact));
        // Another thread's write landed halfway: 42's check word, 43's data word.
        let b42 = tt.bucket(42);
        let other = tt.bucket(43).iter().map(Slot::load).find(|e| e.key == 43);
        let slot = b42.iter().find(|s| s.load().key == 42).unwrap();
        slot.data.store(other.unwrap().words().0, Relaxed);
        assert!(tt.probe(42, 0).is_none());
    }

    #[test]
    fn threads_sharing_the_table_never_read_another_positions_data() {
        // Every key's data is a function of the key; four threads store and probe keys
        // that collide in a tiny table. A hit must carry its own key's data.
        let tt = std::sync::Arc::new(TranspositionTable::new(1));
        let expected = |k: u64| ((k % 1000) as i32, (k % 97) as i32, (k % 50) as i32);
        let handles: Vec<_> = (0..4u64)
            .map(|t| {
                let tt = std::sync::Arc::clone(&tt);
                std::thread::spawn(move || {
                    let mut hits = 0u32;
                    for i in 0..200_000u64 {
                        // Keys spread over a few buckets so writers collide often.
                        let k = (i * 7 + t) % 64 * 0x0400_0000_0000_0000 + (i % 5) + 1;
                        let (s, e, d) = expected(k);
                        if i % 2 == 0 {
                            tt.store(k, 0, data(Move::NONE, s, e, d, Bound::Exact));
                        } else if let Some(h) = tt.probe(k, 0) {
                            hits += 1;
                            assert_eq!((h.score, h.eval, h.depth), (s, e, d), "key {k}");
                        }
                    }
                    hits
                })
            })
            .collect();
        let hits: u32 = handles.into_iter().map(|h| h.join().unwrap()).sum();
        assert!(hits > 0, "the probes found something");
    }
}
