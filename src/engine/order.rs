//! Move ordering with reasons (seeds 000 and 003). STUB: interface agreed with the search.

use std::fmt;
use std::str::FromStr;

use super::board::Board;
use super::types::{Move, MoveList};

/// Ordering schemes, selectable by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// Generator order.
    None,
    /// victim − attacker (Ifrit's first formula).
    MvvLva,
    /// 100·victim − attacker (Ifrit's second formula).
    MvvLva100,
    /// What the seed page builds: PV, last-capture, MVV/LVA corrected by attack tables and vfm.
    Seed,
    /// Hash move, SEE-ranked good captures, killers, history, losing captures last.
    #[default]
    Modern,
}

impl Scheme {
    pub const ALL: [Scheme; 5] = [Scheme::None, Scheme::MvvLva, Scheme::MvvLva100, Scheme::Seed, Scheme::Modern];
    pub fn name(self) -> &'static str {
        match self {
            Scheme::None => "none",
            Scheme::MvvLva => "mvvlva",
            Scheme::MvvLva100 => "mvvlva100",
            Scheme::Seed => "seed",
            Scheme::Modern => "modern",
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scheme {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Scheme::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("{s}: not an ordering scheme (none, mvvlva, mvvlva100, seed, modern)"))
    }
}

/// Why a move got (part of) its ordering score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReasonKind {
    Pv,
    Hash,
    Recapture,
    MvvLva,
    Attack,
    Vfm,
    See,
    Killer,
    History,
    Promotion,
    LosingCapture,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    pub kind: ReasonKind,
    pub points: i32,
}

/// A move with its ordering score and the reasons that make up the score.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredMove {
    pub mv: Move,
    pub score: i32,
    pub reasons: Vec<Reason>,
}

/// Butterfly history: how often a quiet move caused a cutoff, by side, from and to.
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

impl History {
    #[inline]
    fn idx(m: Move) -> usize {
        m.from().index64() * 64 + m.to().index64()
    }
    #[inline]
    pub fn get(&self, side: super::types::Color, m: Move) -> i32 {
        self.table[side.index()][Self::idx(m)]
    }
    /// Rewards a quiet move that caused a cutoff at `depth` (and ages all entries when large).
    pub fn reward(&mut self, side: super::types::Color, m: Move, depth: u32) {
        let e = &mut self.table[side.index()][Self::idx(m)];
        *e += (depth * depth) as i32;
        if *e > 1 << 20 {
            for t in self.table.iter_mut() {
                for v in t.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }
    pub fn clear(&mut self) {
        for t in self.table.iter_mut() {
            t.fill(0);
        }
    }
}

/// What the search knows at a node that ordering can use.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderContext {
    /// The previous iteration's PV move at this ply (the seed's 10000 points).
    pub pv_move: Move,
    pub hash_move: Move,
    pub killers: [Move; 2],
}

/// Scores every move of `moves` into `scores` (same indices) for the search's lazy picker.
pub fn score_moves(
    board: &Board,
    moves: &MoveList,
    scheme: Scheme,
    ctx: &OrderContext,
    history: &History,
    scores: &mut [i32],
) {
    let _ = (board, scheme, ctx, history);
    for (i, _) in moves.iter().enumerate() {
        scores[i] = 0;
    }
}

/// Lazy selection: swaps the best-scored move among `i..` into slot `i`.
#[inline]
pub fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) {
    let n = moves.len();
    let mut best = i;
    for j in i + 1..n {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    if best != i {
        moves.as_mut_slice().swap(i, best);
        scores.swap(i, best);
    }
}

/// Every move of the position with score and reasons, in generator order (sort it by
/// `score` for the sorted view; ties keep generator order).
pub fn explain(board: &Board, scheme: Scheme, ctx: &OrderContext, history: &History) -> Vec<ScoredMove> {
    let moves = board.legal_moves();
    let mut scores = [0i32; 256];
    score_moves(board, &moves, scheme, ctx, history, &mut scores);
    moves
        .iter()
        .zip(scores.iter())
        .map(|(&mv, &score)| ScoredMove { mv, score, reasons: Vec::new() })
        .collect()
}

/// Static exchange evaluation of a capture, in centipawns for the mover. STUB.
pub fn see(board: &Board, mv: Move) -> i32 {
    let _ = (board, mv);
    0
}
