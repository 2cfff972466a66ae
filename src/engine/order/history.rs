//! Butterfly history: by side, from-square and to-square, how often a quiet move refuted the
//! position it was tried in. Not in the seed pages; the `modern` scheme orders quiet moves by
//! it.

use crate::chess::types::{Color, Move};

/// Entries stay within ±`HISTORY_MAX`: every update moves an entry towards the bound by a
/// fraction of the distance left ("gravity"), so old knowledge fades instead of saturating and
/// no periodic halving pass is needed.
pub const HISTORY_MAX: i32 = 16_384;

/// The largest single update (reached at depth 10).
const BONUS_CAP: i32 = 1_600;

/// Bonus for a cutoff at `depth`: grows with the square of the depth, since a refutation
/// found by a deep search says more than one found at the horizon.
#[inline]
fn bonus(depth: u32) -> i32 {
    let d = depth.min(64) as i32;
    (16 * d * d).min(BONUS_CAP)
}

#[derive(Clone)]
pub struct History {
    table: Box<[[i32; 64 * 64]; 2]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[0; 64 * 64]; 2]),
        }
    }
}

impl std::fmt::Debug for History {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let used = self.table.iter().flatten().filter(|&&v| v != 0).count();
        write!(f, "History({used} entries set)")
    }
}

impl History {
    #[inline]
    fn idx(m: Move) -> usize {
        m.from().index64() * 64 + m.to().index64()
    }

    /// The entry of a move for a side, in ±`HISTORY_MAX`.
    #[inline]
    pub fn get(&self, side: Color, m: Move) -> i32 {
        self.table[side.index()][Self::idx(m)]
    }

    #[inline]
    fn update(&mut self, side: Color, m: Move, delta: i32) {
        let e = &mut self.table[side.index()][Self::idx(m)];
        // Gravity: the step shrinks as the entry nears the bound on that side.
        *e += delta - *e * delta.abs() / HISTORY_MAX;
        *e = (*e).clamp(-HISTORY_MAX, HISTORY_MAX);
    }

    /// Rewards a quiet move that caused a beta cutoff at remaining `depth`.
    pub fn reward(&mut self, side: Color, m: Move, depth: u32) {
        self.update(side, m, bonus(depth));
    }

    /// Penalizes a quiet move that was searched before the cutoff move at the same node and
    /// failed to cut (it was ordered too early).
    pub fn penalize(&mut self, side: Color, m: Move, depth: u32) {
        self.update(side, m, -bonus(depth));
    }

    /// Halves every entry: between searches, so the last game phase counts less.
    pub fn age(&mut self) {
        for t in self.table.iter_mut() {
            for v in t.iter_mut() {
                *v /= 2;
            }
        }
    }

    pub fn clear(&mut self) {
        for t in self.table.iter_mut() {
            t.fill(0);
        }
    }
}
