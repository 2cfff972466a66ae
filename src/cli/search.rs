//! `ox88 search`: one position searched on a fresh engine to a depth, printing the seed's
//! engine log line per iteration, then the best move and the first-move cutoff rate.

use anyhow::Result;
use ox88::engine::search::Searcher;
use ox88::engine::{IterationInfo, Limits, SearchEvent};

use super::args::SearchArgs;

pub fn run(args: SearchArgs) -> Result<()> {
    let SearchArgs { fen, depth, engine } = args;
    let board = super::board_from(fen.as_deref())?;
    let options = engine.options();
    let mut searcher = Searcher::standalone();
    let result = searcher.search_sync(&board, &Limits::depth(depth), &options, &mut |ev| {
        if let SearchEvent::Iteration { info, .. } = ev {
            println!("{}", log_line(&info));
        }
    });
    println!(
        "bestmove {} first-move cutoff {:.1}%",
        result
            .best
            .map(|m| m.to_string())
            .unwrap_or_else(|| "0000".into()),
        result.stats.first_move_cutoff() * 100.0
    );
    Ok(())
}

/// The seed's engine log line: depth/seldepth, time, nodes, nodes per second, E, PV.
fn log_line(info: &IterationInfo) -> String {
    let t = info.time.as_millis();
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "{:>2}/{:<2} {:>3}:{:02}.{:03} {:>11} {:>9} n/s  E {:>7}  {}",
        info.depth,
        info.seldepth,
        t / 60_000,
        (t / 1000) % 60,
        t % 1000,
        info.nodes,
        info.nps,
        info.score_white.to_string(),
        pv.join(" ")
    )
}
