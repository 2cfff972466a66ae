//! The per-ply search stack: what each ply of the current line needs (its PV, killers,
//! static evaluation, position key and how it was reached), so the recursive search passes a
//! ply number instead of a long list of arguments.

use super::MAX_PLY;
use crate::chess::types::Move;
use crate::engine::order::PieceTo;

/// One ply of the line being searched.
#[derive(Clone)]
pub(crate) struct Ply {
    /// The principal variation found below this ply: `pv[ply..pv_len]` (triangular layout:
    /// entries before `ply` are unused, so a child's line copies over without shifting).
    pub pv: [Move; MAX_PLY + 1],
    pub pv_len: usize,
    /// Quiet moves that caused a cutoff at this ply (most recent first).
    pub killers: [Move; 2],
    /// The static evaluation of this ply's position (`-INF` when in check).
    pub static_eval: i32,
    /// The Zobrist key of this ply's position (repetition detection).
    pub key: u64,
    /// Whether this ply's position was reached by a null move (no repetition across it,
    /// and no second null move in a row).
    pub null_move: bool,
    /// Whether this ply lies on the previous iteration's principal variation (PV-first
    /// ordering, the seed's rule).
    pub on_pv: bool,
    /// The 0-based index (among the moves searched) of the move that last cut off at this
    /// ply (the root's refutation report reads it at ply 1).
    pub cut_at: u32,
    /// The piece and destination of the move being searched from this ply (`None` for a
    /// null move): continuation history and counter-moves of the plies below key on it.
    pub moved: Option<PieceTo>,
    /// The move left out while this ply's position is searched to test whether its hash
    /// move is singular (`Move::NONE` otherwise).
    pub excluded: Move,
    /// Whether this ply's node is expected to fail high (a cut node): the child of a
    /// reduced null-window search, or a full-depth null-window child of an expected all
    /// node. Late quiet moves are reduced harder there.
    pub cut_node: bool,
    /// Double extensions on the line from the root to this ply (they are capped per line,
    /// so a run of singular moves cannot deepen a line without end).
    pub doubles: u8,
}

impl Ply {
    fn new() -> Ply {
        Ply {
            pv: [Move::NONE; MAX_PLY + 1],
            pv_len: 0,
            killers: [Move::NONE; 2],
            static_eval: 0,
            key: 0,
            null_move: false,
            on_pv: false,
            cut_at: 0,
            moved: None,
            excluded: Move::NONE,
            cut_node: false,
            doubles: 0,
        }
    }
}

/// `MAX_PLY + 2` plies, so ply `MAX_PLY` can still look at its child's slot.
pub(crate) struct Stack {
    plies: Vec<Ply>,
}

impl Stack {
    pub fn new() -> Stack {
        Stack {
            plies: vec![Ply::new(); MAX_PLY + 2],
        }
    }

    /// Forgets the killers (a new game or new settings); the rest is rewritten per node.
    pub fn clear(&mut self) {
        for p in &mut self.plies {
            *p = Ply::new();
        }
    }

    /// `m` is the best move at `ply`: its line is `m` followed by the child's line.
    #[inline]
    pub fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.plies.split_at_mut(ply + 1);
        let here = &mut head[ply];
        let child = &tail[0];
        here.pv[ply] = m;
        let next = child.pv_len.max(ply + 1);
        here.pv[ply + 1..next].copy_from_slice(&child.pv[ply + 1..next]);
        here.pv_len = next;
    }

    /// The piece-to keys of the moves one and two plies before `ply` (the moves that led to
    /// it), `None` where there is none (the root, a null move).
    #[inline]
    pub fn follow(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.plies[p].moved);
        [back(1), back(2)]
    }

    /// The root's principal variation.
    pub fn root_pv(&self) -> &[Move] {
        &self.plies[0].pv[..self.plies[0].pv_len]
    }
}

impl std::ops::Index<usize> for Stack {
    type Output = Ply;
    #[inline]
    fn index(&self, ply: usize) -> &Ply {
        &self.plies[ply]
    }
}

impl std::ops::IndexMut<usize> for Stack {
    #[inline]
    fn index_mut(&mut self, ply: usize) -> &mut Ply {
        &mut self.plies[ply]
    }
}
