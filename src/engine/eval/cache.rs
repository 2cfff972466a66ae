//! An evaluation cache: Zobrist key → the value [`evaluate`] returned, for one searcher.
//!
//! The search meets the same positions again and again (transpositions, re-searches, the
//! next iteration) and the table often has no entry for them: quiescence nodes and nodes
//! whose entry was replaced. The `full` evaluation is the costliest thing a node does, and
//! it is a pure function of the position and the configuration, so a value computed once can
//! be served again exactly. The cache is small enough to stay in the L2 cache, and each
//! searcher owns one (no sharing between threads, no locks).
//!
//! A slot is one `u64`: the key with its low 16 bits replaced by the value (offset by
//! 0x8000, so an empty slot, 0, never matches). The slot's index is the key's low bits, and a
//! cache has at least 2^16 slots, so the index and the stored bits together hold the whole
//! key. Values that do not fit in 16 bits are computed every time, never stored.
//!
//! The cache remembers the configuration its values were computed under: asked about
//! another one, it forgets them all first, so it never serves a value of another mode or
//! preset.

use super::{EvalConfig, evaluate};
use crate::chess::board::Board;

/// 2^16 slots, 512 KiB: larger tables saved almost no evaluations in `ox88 bench` and cost
/// more cache misses (docs/search.md, "Speed with the same trees").
pub const DEFAULT_BITS: u32 = 16;

const VALUE_MASK: u64 = 0xFFFF;
const OFFSET: i32 = 0x8000;

pub struct EvalCache {
    slots: Box<[u64]>,
    mask: usize,
    /// The configuration the stored values belong to.
    cfg: EvalConfig,
    net: super::net::NetStack,
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::with_bits(DEFAULT_BITS)
    }
}

impl EvalCache {
    /// A cache of 2^`bits` slots (`bits` is clamped to 16..=24: fewer slots would leave
    /// key bits unchecked).
    pub fn with_bits(bits: u32) -> EvalCache {
        let n = 1usize << bits.clamp(16, 24);
        EvalCache {
            slots: vec![0; n].into_boxed_slice(),
            mask: n - 1,
            cfg: EvalConfig::default(),
            net: super::net::NetStack::default(),
        }
    }

    /// Forgets every stored value.
    pub fn clear(&mut self) {
        self.slots.fill(0);
        self.net.clear();
    }

    /// Exactly `eval::evaluate(board, cfg)`, from the cache when this position was evaluated
    /// before under the same configuration.
    #[inline]
    pub fn evaluate(&mut self, board: &Board, cfg: &EvalConfig) -> i32 {
        if *cfg != self.cfg {
            self.clear();
            self.cfg = *cfg;
        }
        if let Some(v) = super::evaluate_net_incremental(board, cfg, &mut self.net) {
            return v;
        }
        let key = board.hash();
        let i = key as usize & self.mask;
        let slot = self.slots[i];
        if slot & VALUE_MASK != 0 && (slot ^ key) & !VALUE_MASK == 0 {
            return (slot & VALUE_MASK) as i32 - OFFSET;
        }
        let v = evaluate(board, cfg);
        let stored = v + OFFSET;
        if (1..=VALUE_MASK as i32).contains(&stored) {
            self.slots[i] = (key & !VALUE_MASK) | stored as u64;
        }
        v
    }
}
