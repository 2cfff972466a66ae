//! `ox88 eval`: the evaluation's breakdown of one position, term by term, under a chosen
//! evaluation and piece values; the last line is `E: N`.

use anyhow::Result;
use ox88::engine::eval::{self, EvalConfig};

use super::args::EvalArgs;

pub fn run(args: EvalArgs) -> Result<()> {
    let EvalArgs { fen, mode, preset } = args;
    let board = super::board_from(fen.as_deref())?;
    let cfg = EvalConfig { mode, preset };
    println!("{}", eval::explain(&board, &cfg));
    Ok(())
}
