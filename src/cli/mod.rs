//! The `ox88` program's command line: the clap definitions (`args`) and one module per
//! subcommand, each with a `run` that does what the subcommand says. `main` parses and
//! hands over; the `serve` and `uci` subcommands are the library's `serve::run` and
//! `uci::run` and have no module here.
//!
//! What more than one subcommand needs lives here: the position from `--fen` and
//! `--moves`, and waiting on a background job that Ctrl-C can stop.

pub mod args;
pub mod bench;
pub mod club;
pub mod config;
pub mod docs;
pub mod eval;
pub mod lab;
pub mod nn_train;
pub mod perft;
pub mod play;
pub mod puzzles;
pub mod review;
pub mod search;
pub mod selfplay;
pub mod swiss;
pub mod tb;
pub mod tree;
pub mod tune;

use anyhow::{Context, Result};
use ox88::chess::Board;

/// The position `--fen` gives, or the start position.
pub fn board_from(fen: Option<&str>) -> Result<Board> {
    match fen {
        Some(f) => Board::from_fen(f).with_context(|| format!("bad --fen '{f}'")),
        None => Ok(Board::startpos()),
    }
}

/// The position `fen` (or the start) after `--moves` (coordinates or SAN), each checked.
pub fn board_after(fen: Option<&str>, moves: &[String]) -> Result<Board> {
    let mut board = board_from(fen)?;
    for text in moves {
        let mv = board
            .parse_move(text)
            .map_err(|e| anyhow::anyhow!("bad move '{text}' in --moves: {e}"))?;
        board
            .play(mv)
            .map_err(|e| anyhow::anyhow!("bad move '{text}' in --moves: {e}"))?;
    }
    Ok(board)
}

/// Waits for a background job; the first Ctrl-C asks it to stop (it keeps what it has done),
/// a second one ends the program at once with status 130. Says whether Ctrl-C was pressed.
pub fn wait_cancelling_on_ctrl_c(finished: impl Fn() -> bool, cancel: impl Fn()) -> Result<bool> {
    use signal_hook::consts::SIGINT;
    let interrupted = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    signal_hook::flag::register_conditional_shutdown(SIGINT, 130, interrupted.clone())?;
    signal_hook::flag::register(SIGINT, interrupted.clone())?;
    while !finished() {
        if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
            cancel();
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    Ok(interrupted.load(std::sync::atomic::Ordering::Relaxed))
}
