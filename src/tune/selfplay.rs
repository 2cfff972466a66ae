//! Self-play games for tuning data: the engine against itself at a fixed node count per
//! move from the balanced openings, with the node count jittered by a seeded generator so
//! that no two games from one opening are alike. Each game's quiet positions are written
//! with its result (see [`super::data`]).
//!
//! A position is kept when the side to move is not in check, the search's best move is
//! quiet (no capture or promotion: the static evaluation is about a position where nothing
//! is hanging) and its score is no mate, and when at least `skip_plies` moves have been
//! played since the opening.

use std::io::Write;

use crate::chess::board::Board;
use crate::engine::levels::Rng;
use crate::engine::report::{Limits, SearchOptions};
use crate::engine::score::Score;
use crate::engine::search::Searcher;

/// How to play the games.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Number of games; game `i` starts from opening `i % openings.len()`.
    pub games: usize,
    /// Nodes per move: uniformly from `nodes` to `2 × nodes − 1`.
    pub nodes: u64,
    pub seed: u64,
    /// Plies after the opening whose positions are not kept.
    pub skip_plies: usize,
    /// A game still going after this many plies is a draw.
    pub max_plies: usize,
}

impl Default for SelfplayConfig {
    fn default() -> Self {
        SelfplayConfig {
            games: 100,
            nodes: 5000,
            seed: 1,
            skip_plies: 6,
            max_plies: 300,
        }
    }
}

/// The start positions of an EPD file (the first four fields of every line that has them).
pub fn openings(text: &str) -> Result<Vec<Board>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let fields: Vec<&str> = line
            .split(';')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .take(4)
            .collect();
        if fields.is_empty() {
            continue;
        }
        let fen = fields.join(" ");
        let b = Board::from_fen(&fen).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(b);
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// A score this big (centipawns, side to move) for four plies in a row ends the game.
const RESIGN_CP: i32 = 1000;
const RESIGN_PLIES: usize = 4;

/// One game from `start`; returns the kept positions (FEN) and the result for White.
pub fn play_game(
    start: &Board,
    cfg: &SelfplayConfig,
    rng: &mut Rng,
    searcher: &mut Searcher,
) -> (Vec<String>, f64) {
    let options = SearchOptions {
        own_book: false,
        hash_mb: 16,
        ..SearchOptions::default()
    };
    searcher.new_game();
    let mut board = start.clone();
    let mut kept = Vec::new();
    let mut winning_streak: [usize; 2] = [0, 0];
    for ply in 0..cfg.max_plies {
        let moves = board.legal_moves();
        if moves.is_empty() {
            let result = if board.in_check() {
                // The side to move is mated.
                if board.side_to_move().index() == 0 {
                    0.0
                } else {
                    1.0
                }
            } else {
                0.5
            };
            return (kept, result);
        }
        if board.halfmove_clock() >= 100
            || board.repetitions() >= 2
            || board.insufficient_material()
        {
            return (kept, 0.5);
        }
        let nodes = cfg.nodes + rng.next_u64() % cfg.nodes.max(1);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let r = searcher.search_sync(&board, &limits, &options, &mut |_| {});
        let Some(best) = r.best else {
            return (kept, 0.5);
        };
        let stm = board.side_to_move().index();
        if let Score::Cp(cp) = r.score {
            if ply >= cfg.skip_plies && !board.in_check() && !best.is_tactical() {
                kept.push(board.to_fen());
            }
            if cp >= RESIGN_CP {
                winning_streak[stm] += 1;
                winning_streak[1 - stm] = 0;
            } else {
                winning_streak[stm] = 0;
            }
        } else if let Score::Mate(n) = r.score {
            winning_streak[stm] = if n > 0 { winning_streak[stm] + 1 } else { 0 };
        }
        if let Some(c) = winning_streak.iter().position(|&n| n >= RESIGN_PLIES) {
            return (kept, if c == 0 { 1.0 } else { 0.0 });
        }
        board.make(best);
    }
    (kept, 0.5)
}

/// Plays `cfg.games` games and writes each one's positions to `out` as it ends. Returns
/// the number of positions written; `progress` hears about every game.
pub fn run(
    openings: &[Board],
    cfg: &SelfplayConfig,
    out: &mut dyn Write,
    mut progress: impl FnMut(usize, f64, usize),
) -> std::io::Result<usize> {
    let mut searcher = Searcher::standalone();
    let mut written = 0;
    for g in 0..cfg.games {
        let mut rng = Rng::new(cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g as u64);
        let start = &openings[g % openings.len()];
        let (fens, result) = play_game(start, cfg, &mut rng, &mut searcher);
        let token = super::data::result_token(result);
        for f in &fens {
            writeln!(out, "{f} {token}")?;
        }
        out.flush()?;
        written += fens.len();
        progress(g + 1, result, fens.len());
    }
    Ok(written)
}
