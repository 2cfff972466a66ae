use std::time::Instant;

use ox88::engine::{Board, perft};

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let fen = args.get(2).cloned().unwrap_or(Board::START_FEN.to_string());
    let mut b = Board::from_fen(&fen)?;
    let t = Instant::now();
    let n = perft::perft(&mut b, depth);
    let s = t.elapsed().as_secs_f64();
    println!("Nodes searched: {n}\n{s:.3}s {:.1} Mnps", n as f64 / s / 1e6);
    Ok(())
}
