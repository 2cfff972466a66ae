//! `ox88 eval`: the evaluation's breakdown of one position, term by term, under a chosen
//! evaluation and piece values; the last line is `E: N`. A position without a legal move
//! has no evaluation worth a number: a mate says `checkmate, White wins` and ends with
//! `E: mate`, a stalemate says `stalemate` and ends with `E: 0` (the draw it is).

use anyhow::Result;
use ox88::engine::eval::{self, EvalConfig};

use super::args::EvalArgs;

pub fn run(args: EvalArgs) -> Result<()> {
    let EvalArgs { fen, mode, preset } = args;
    let board = super::board_from(fen.as_deref())?;
    if let Some(end) = board.no_move_text() {
        let last = if board.in_check() { "mate" } else { "0" };
        println!("{end}\nE: {last}");
        return Ok(());
    }
    let cfg = EvalConfig { mode, preset };
    println!("{}", eval::explain(&board, &cfg));
    Ok(())
}
