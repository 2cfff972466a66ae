//! Perft: count the leaf nodes of the legal move tree to a fixed depth. The one test that
//! proves a move generator exact; the counts for well-known positions are published facts.

use super::board::Board;
use super::types::Move;

/// Leaf count at `depth`, counting the last ply in bulk (the length of the legal move list),
/// as the common engines' `go perft` does.
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        board.make(m);
        nodes += perft(board, depth - 1);
        board.unmake();
    }
    nodes
}

/// Perft split by root move ("divide"), in generator order.
pub fn divide(board: &mut Board, depth: u32) -> Vec<(Move, u64)> {
    let moves = board.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves.iter() {
        board.make(m);
        let n = if depth <= 1 {
            1
        } else {
            perft(board, depth - 1)
        };
        board.unmake();
        out.push((m, n));
    }
    out
}
