//! The E a player reads: the evaluation once the captures in flight are settled.
//!
//! A static evaluation taken in the middle of an exchange counts the piece just taken and
//! not the one about to be taken back, so shown move after move it jumps by a piece and back
//! (after 1.e4 d5 2.exd5 White "wins a pawn" until 2...Qxd5). The shown E therefore plays
//! out the captures first: a small quiescence search (captures that do not lose material by
//! exchange, queen promotions, and the replies to a check) where either side may stop when
//! standing pat is better, scored at the quiet end by the evaluation itself. The result is a
//! property of the position alone, the same whichever move led to it.
//!
//! At the quiet end the `net` mode weighs the network's even value (the mean of both sides'
//! views) three parts to one with the side to move's own output less [`super::NET_TEMPO`]
//! (what the search takes). The even value alone leans to the side that just moved (it has
//! just improved its position, the other side has not yet had its turn); the side to move's
//! output leans the other way. Along the first 40 plies of 200 games the quarter share moved
//! E least from ply to ply and left the least lean either way (`scripts/e_zigzag.py`, with
//! docs/engine.md's figures).

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use crate::chess::board::Board;
use crate::chess::types::{Move, PieceKind};
use crate::engine::order::see;

use super::{EvalConfig, EvalMode};

/// The side to move's own output's share of the `net` mode's quiet E, in quarters.
const TURN_SHARE: i32 = 1;

/// How deep the settling goes, in plies: exchanges longer than this are rare, and E stays
/// cheap enough to be worked out for every position of a game's chart.
const MAX_PLY: usize = 10;

/// Replies to a check are followed this deep (every legal move, not just captures).
const CHECK_PLY: usize = 3;

/// What a checkmate inside the settling line scores, from the mated side's view: far beyond
/// any material count, inside the range E is shown in.
const MATED: i32 = -9_000;

/// The settled E of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    /// Centipawns, White's point of view: the number shown as E.
    pub white: i32,
    /// The evaluation before anything is settled (White's view), as the breakdown sums it.
    pub static_white: i32,
    /// The captures played out to reach the quiet position E scores (empty when the
    /// position is quiet already).
    pub line: Vec<Move>,
    /// The same in standard notation.
    pub line_san: Vec<String>,
}

/// The settled E of `board` under `cfg` (see the module's text).
pub fn settled(board: &Board, cfg: &EvalConfig) -> Settled {
    let mut b = board.clone();
    let mut line = Vec::new();
    let stm = quiesce(&mut b, cfg, 0, -i32::MAX, i32::MAX, &mut line);
    Settled {
        white: stm * board.side_to_move().sign(),
        static_white: super::evaluate_white(board, cfg),
        line_san: board.san_line(&line),
        line,
    }
}

/// Just the number: [`settled`]'s E, White's view, remembered by position so that a chart
/// of a whole game costs a look-up per move once drawn.
pub fn settled_white(board: &Board, cfg: &EvalConfig) -> i32 {
    type Memo = HashMap<(u64, EvalConfig), i32>;
    static MEMO: LazyLock<Mutex<Memo>> = LazyLock::new(|| Mutex::new(HashMap::new()));
    let key = (board.hash(), *cfg);
    // A poisoned lock only means another thread panicked mid-insert: the map is still sound.
    if let Some(&e) = MEMO.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
        return e;
    }
    let e = settled(board, cfg).white;
    let mut memo = MEMO.lock().unwrap_or_else(|p| p.into_inner());
    if memo.len() >= MEMO_CAP {
        memo.clear();
    }
    memo.insert(key, e);
    e
}

/// Positions remembered by [`settled_white`] before it starts afresh (a few megabytes).
const MEMO_CAP: usize = 100_000;

/// The quiet end's value from the side to move's view.
fn leaf(board: &Board, cfg: &EvalConfig) -> i32 {
    let stm = board.side_to_move().sign();
    match cfg.mode {
        EvalMode::Net => {
            let net = super::net::network();
            let even = net.evaluate_even(board) * stm;
            let own = net.evaluate(board) - super::NET_TEMPO;
            // What is known about the ending (a drawn king and pawn, no mating material)
            // stands in for the network's view, as it does in the search.
            super::net_known(board, (even * (4 - TURN_SHARE) + own * TURN_SHARE) / 4)
        }
        _ => super::evaluate_white(board, cfg) * stm,
    }
}

fn quiesce(
    board: &mut Board,
    cfg: &EvalConfig,
    ply: usize,
    mut alpha: i32,
    beta: i32,
    line: &mut Vec<Move>,
) -> i32 {
    line.clear();
    let in_check = board.in_check();
    if ply >= MAX_PLY || (in_check && ply >= CHECK_PLY) {
        return leaf(board, cfg);
    }
    let mut moves: Vec<(i32, Move)>;
    if in_check {
        let legal = board.legal_moves();
        if legal.is_empty() {
            return MATED + ply as i32;
        }
        moves = legal
            .as_slice()
            .iter()
            .map(|&m| (see(board, m), m))
            .collect();
    } else {
        let stand = leaf(board, cfg);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        moves = board
            .tactical_moves()
            .as_slice()
            .iter()
            .filter(|m| m.promotion().is_none_or(|p| p == PieceKind::Queen))
            .map(|&m| (see(board, m), m))
            .filter(|&(gain, _)| gain >= 0)
            .collect();
    }
    moves.sort_by_key(|&(gain, _)| std::cmp::Reverse(gain));
    let mut best = if in_check { -i32::MAX } else { alpha };
    let mut below = Vec::new();
    for (_, m) in moves {
        board.make(m);
        let score = -quiesce(board, cfg, ply + 1, -beta, -alpha, &mut below);
        board.unmake();
        if score > best {
            best = score;
            if score > alpha {
                alpha = score;
                line.clear();
                line.push(m);
                line.extend_from_slice(&below);
            }
            if score >= beta {
                break;
            }
        }
    }
    best
}
