//! What the search learns about quiet moves, for the `modern` scheme: butterfly history (by
//! side, from-square and to-square, how often a quiet move refuted the position it was tried
//! in), continuation history (the same, keyed by the piece and destination of the move one or
//! two plies earlier and of this move) and the counter-move table (the quiet move that last
//! refuted a given previous move). Not in the seed pages.

use crate::chess::board::Board;
use crate::chess::types::{Color, Move, PieceKind};

/// A moved piece (colour and kind) with its destination: what continuation history and the
/// counter-move table are keyed by ("the knight that went to f3", wherever it came from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

/// Piece-to keys: 12 pieces × 64 squares.
const PIECE_TO: usize = 12 * 64;

impl PieceTo {
    /// The key of `m` in `board`, before it is made; `None` if no piece stands on its
    /// from-square (a null or foreign move).
    #[inline]
    pub fn of(board: &Board, m: Move) -> Option<PieceTo> {
        if m.is_none() {
            return None;
        }
        let code = board.code_at(m.from().x88());
        let kind = PieceKind::index_of_code(code)?;
        let color = usize::from(code & Color::Black.bits() != 0);
        Some(PieceTo::new(color, kind, m))
    }

    /// From the mover's colour index and kind index.
    #[inline]
    pub(super) fn new(color: usize, kind: usize, m: Move) -> PieceTo {
        PieceTo(((color * 6 + kind) * 64 + m.to().index64()) as u16)
    }

    #[inline]
    fn index(self) -> usize {
        self.0 as usize
    }
}

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

/// Correction history: slots per side, indexed by the low bits of the pawn key.
const CORR_SLOTS: usize = 16_384;
/// Corrections are kept in 1/`CORR_GRAIN` centipawns, so small errors still move them.
const CORR_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORR_LIMIT: i32 = 64;

#[derive(Clone)]
pub struct History {
    table: Box<[[i32; 64 * 64]; 2]>,
    /// Continuation history: `[previous piece-to][this piece-to]`, one table for the moves one
    /// and two plies back (the side to move is implied by the keys' colours).
    cont: Vec<i32>,
    /// By the previous move's piece-to: the quiet move that last refuted it.
    counter: Vec<Move>,
    /// Correction history: by side to move and pawn structure, a running average of how far
    /// the searched score lay from the static evaluation (in 1/`CORR_GRAIN` cp). Where the
    /// evaluation misjudges a pawn structure, the search's pruning learns to see past it.
    corr: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        History {
            table: Box::new([[0; 64 * 64]; 2]),
            cont: vec![0; PIECE_TO * PIECE_TO],
            counter: vec![Move::NONE; PIECE_TO],
            corr: vec![0; 2 * CORR_SLOTS],
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
        gravity(&mut self.table[side.index()][Self::idx(m)], delta);
    }

    /// The continuation entry of a move keyed `cur` after a move keyed `prev` (0 without a
    /// previous move), in ±`HISTORY_MAX`.
    #[inline]
    pub fn cont(&self, prev: Option<PieceTo>, cur: PieceTo) -> i32 {
        prev.map_or(0, |p| self.cont[p.index() * PIECE_TO + cur.index()])
    }

    /// The quiet move that last refuted the move keyed `prev` (`Move::NONE` if none).
    #[inline]
    pub fn counter(&self, prev: Option<PieceTo>) -> Move {
        prev.map_or(Move::NONE, |p| self.counter[p.index()])
    }

    /// A quiet move keyed `cur` caused a cutoff at `depth` after the moves `follow` (one and
    /// two plies back): credit it in the continuation tables and remember it as the
    /// counter-move of the previous move.
    pub fn reward_follow(
        &mut self,
        follow: [Option<PieceTo>; 2],
        cur: PieceTo,
        m: Move,
        depth: u32,
    ) {
        if let Some(p) = follow[0] {
            self.counter[p.index()] = m;
        }
        self.update_follow(follow, cur, bonus(depth));
    }

    /// A quiet move keyed `cur` was searched before the cutoff move and did not cut.
    pub fn penalize_follow(&mut self, follow: [Option<PieceTo>; 2], cur: PieceTo, depth: u32) {
        self.update_follow(follow, cur, -bonus(depth));
    }

    fn update_follow(&mut self, follow: [Option<PieceTo>; 2], cur: PieceTo, delta: i32) {
        for p in follow.into_iter().flatten() {
            gravity(&mut self.cont[p.index() * PIECE_TO + cur.index()], delta);
        }
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

    #[inline]
    fn corr_index(side: Color, pawn_key: u64) -> usize {
        side.index() * CORR_SLOTS + (pawn_key as usize & (CORR_SLOTS - 1))
    }

    /// What to add to the static evaluation (side to move's view) of a position with this
    /// side to move and pawn key, in centipawns (within ±`CORR_LIMIT`).
    #[inline]
    pub fn correction(&self, side: Color, pawn_key: u64) -> i32 {
        self.corr[Self::corr_index(side, pawn_key)] / CORR_GRAIN
    }

    /// A search `depth` plies deep found the position `error` centipawns better (for the side
    /// to move) than its static evaluation said: move the average towards it, deeper
    /// searches counting more.
    pub fn learn_correction(&mut self, side: Color, pawn_key: u64, error: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16);
        let target = error.clamp(-4 * CORR_LIMIT, 4 * CORR_LIMIT) * CORR_GRAIN;
        let e = &mut self.corr[Self::corr_index(side, pawn_key)];
        *e = ((*e * (256 - w) + target * w) / 256)
            .clamp(-CORR_LIMIT * CORR_GRAIN, CORR_LIMIT * CORR_GRAIN);
    }

    /// Halves every entry: between searches, so the last game phase counts less.
    pub fn age(&mut self) {
        for t in self.table.iter_mut() {
            for v in t.iter_mut() {
                *v /= 2;
            }
        }
        for v in self.cont.iter_mut() {
            *v /= 2;
        }
    }

    pub fn clear(&mut self) {
        for t in self.table.iter_mut() {
            t.fill(0);
        }
        self.cont.fill(0);
        self.counter.fill(Move::NONE);
        self.corr.fill(0);
    }
}

/// Moves an entry by `delta`, the step shrinking as the entry nears the bound on that side
/// ("gravity"), so it stays within ±`HISTORY_MAX`.
#[inline]
fn gravity(e: &mut i32, delta: i32) {
    *e += delta - *e * delta.abs() / HISTORY_MAX;
    *e = (*e).clamp(-HISTORY_MAX, HISTORY_MAX);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_settle_within_their_limit_per_side_and_clear() {
        let mut h = History::default();
        let key = 0x1234_5678_9ABC_DEF0;
        // Repeated large errors settle at the limit, not past it, whatever the depth.
        for depth in [1, 8, 40] {
            for _ in 0..2000 {
                h.learn_correction(Color::White, key, 10_000, depth);
                h.learn_correction(Color::Black, key, -10_000, depth);
            }
            assert_eq!(h.correction(Color::White, key), CORR_LIMIT);
            assert_eq!(h.correction(Color::Black, key), -CORR_LIMIT);
        }
        // A steady small error is learnt as it is; the other side's entry keeps its own.
        for _ in 0..2000 {
            h.learn_correction(Color::White, key, 20, 10);
        }
        assert_eq!(h.correction(Color::White, key), 20);
        assert_eq!(h.correction(Color::Black, key), -CORR_LIMIT);
        // A deeper search moves the average further in one step than a shallow one.
        let (mut a, mut b) = (History::default(), History::default());
        a.learn_correction(Color::White, key, 64, 1);
        b.learn_correction(Color::White, key, 64, 12);
        assert!(b.correction(Color::White, key) > a.correction(Color::White, key));
        h.clear();
        assert_eq!(h.correction(Color::White, key), 0);
        assert_eq!(h.correction(Color::Black, key), 0);
    }
}
