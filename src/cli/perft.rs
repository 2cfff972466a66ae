//! `ox88 perft`: counts the leaf nodes of the legal move tree to a depth (the move
//! generator's exactness, checked against published counts, and its speed), optionally one
//! line per root move as `go perft` prints.

use std::time::Instant;

use anyhow::Result;
use ox88::chess::perft;

use super::args::PerftArgs;

pub fn run(args: PerftArgs) -> Result<()> {
    let PerftArgs { depth, fen, divide } = args;
    let mut board = super::board_from(fen.as_deref())?;
    let start = Instant::now();
    let nodes = if divide {
        let rows = perft::divide(&mut board, depth);
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        rows.iter().map(|(_, n)| n).sum()
    } else {
        perft::perft(&mut board, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {nodes}");
    println!("Time: {:.3} s", secs);
    println!("Speed: {:.1} Mnps", nodes as f64 / secs.max(1e-9) / 1e6);
    Ok(())
}
