//! `ox88 bench`: a fixed list of varied positions searched to a fixed depth with a fresh
//! table each, so the node total is a signature of search behaviour (it changes only when
//! the search changes) and nodes per second a speed figure.

use std::time::Duration;

use super::eval::{EvalConfig, EvalMode};
use super::order::Scheme;
use super::report::{Limits, SearchOptions};
use super::search::{Profile, SearchStats, Searcher};
use crate::chess::board::Board;
use crate::chess::types::Move;

/// Opening, middlegame, endgame and tactical positions (FEN). Public test positions.
pub const POSITIONS: [(&str, &str); 16] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "sicilian",
        "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6",
    ),
    (
        "qgd",
        "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    ),
    (
        "italian",
        "r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQK2R w KQ - 1 6",
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        "cpw-pos4",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ),
    (
        "cpw-pos5",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    ),
    (
        "cpw-pos6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    ),
    (
        "middlegame",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9",
    ),
    (
        "wac-001",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    ),
    ("wac-002", "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1"),
    (
        "wac-004",
        "r1b2rk1/p1pp1ppp/1pn5/4P3/2B1n3/2N5/PPP2PPP/R2QR1K1 w - - 0 1",
    ),
    ("cpw-pos3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("kpk", "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"),
    ("rook-ending", "8/5pk1/6p1/8/5P2/6P1/r4PK1/1R6 w - - 0 1"),
    ("queen-ending", "6k1/5pp1/7p/8/3Q4/6P1/5PKP/2q5 w - - 0 1"),
];

/// One position's figures.
#[derive(Clone, Debug)]
pub struct BenchRow {
    pub name: &'static str,
    pub best: Option<Move>,
    pub stats: SearchStats,
    pub time: Duration,
}

impl BenchRow {
    pub fn nps(&self) -> u64 {
        (self.stats.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh searcher state each, book off.
pub fn run(
    depth: u32,
    scheme: Scheme,
    profile: Profile,
    each: impl FnMut(&BenchRow),
) -> Vec<BenchRow> {
    run_threads(depth, scheme, profile, 1, EvalMode::Full, each)
}

/// As [`run`] on `threads` search threads (Lazy SMP): the main thread's depth decides when
/// a position is done, so a row's time is the time to that depth; its nodes are every
/// thread's (they vary from run to run above one thread).
pub fn run_threads(
    depth: u32,
    scheme: Scheme,
    profile: Profile,
    threads: u32,
    eval: EvalMode,
    mut each: impl FnMut(&BenchRow),
) -> Vec<BenchRow> {
    let options = SearchOptions {
        scheme,
        profile,
        eval: EvalConfig {
            mode: eval,
            ..EvalConfig::default()
        },
        own_book: false,
        hash_mb: 16,
        threads,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::standalone();
    let mut rows = Vec::new();
    for (name, fen) in POSITIONS {
        let board = Board::from_fen(fen).expect("bench FENs are valid");
        searcher.new_game();
        let r = searcher.search_sync(&board, &Limits::depth(depth), &options, &mut |_| {});
        let row = BenchRow {
            name,
            best: r.best,
            stats: r.stats,
            time: r.time,
        };
        each(&row);
        rows.push(row);
    }
    rows
}

/// Totals over rows: nodes, time, and the first-move cutoff rate over all fail-highs.
pub fn totals(rows: &[BenchRow]) -> (SearchStats, Duration) {
    let mut s = SearchStats::default();
    let mut t = Duration::ZERO;
    for r in rows {
        s.add(&r.stats);
        t += r.time;
    }
    (s, t)
}

/// The bench as text, as `ox88 bench` and the UCI `bench` command print it.
pub fn report(depth: u32, scheme: Scheme, profile: Profile, out: impl FnMut(&str)) -> SearchStats {
    report_threads(depth, scheme, profile, 1, EvalMode::Full, out)
}

/// As [`report`] on `threads` search threads with the evaluation `eval` (`ox88 bench
/// --threads N --eval M`).
pub fn report_threads(
    depth: u32,
    scheme: Scheme,
    profile: Profile,
    threads: u32,
    eval: EvalMode,
    mut out: impl FnMut(&str),
) -> SearchStats {
    let mut on_threads = if threads > 1 {
        format!(", {threads} threads")
    } else {
        String::new()
    };
    if eval != EvalMode::Full {
        on_threads.push_str(&format!(", eval {eval}"));
    }
    out(&format!(
        "bench: depth {depth}, ordering {scheme}, profile {profile}, {} positions{on_threads}",
        POSITIONS.len()
    ));
    out(&format!(
        "{:<14} {:>6} {:>12} {:>9} {:>11} {:>8}",
        "position", "best", "nodes", "ms", "nps", "cut1st"
    ));
    let rows = run_threads(depth, scheme, profile, threads, eval, |r| {
        out(&format!(
            "{:<14} {:>6} {:>12} {:>9} {:>11} {:>7.1}%",
            r.name,
            r.best.map(|m| m.to_string()).unwrap_or_else(|| "-".into()),
            r.stats.nodes,
            r.time.as_millis(),
            r.nps(),
            r.stats.first_move_cutoff() * 100.0
        ))
    });
    let (s, t) = totals(&rows);
    out(&format!(
        "First-move cutoff: {:.1}%",
        s.first_move_cutoff() * 100.0
    ));
    out(&format!(
        "Average cut index: {:.2}; TT hits: {:.1}%; null-move cutoffs: {:.1}% of tries; \
         re-searched: {:.1}% of reduced; quiescence: {:.1}% of nodes",
        s.avg_cut_index(),
        s.tt_hit_rate() * 100.0,
        s.null_cutoff_rate() * 100.0,
        s.research_rate() * 100.0,
        s.qnode_share() * 100.0
    ));
    out(&format!("Time (ms): {}", t.as_millis()));
    out(&format!("Nodes searched: {}", s.nodes));
    out(&format!(
        "Nodes/second: {}",
        (s.nodes as f64 / t.as_secs_f64().max(1e-6)) as u64
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid() {
        for (name, fen) in POSITIONS {
            let b = Board::from_fen(fen).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!b.legal_moves().is_empty(), "{name} has moves");
        }
    }
}
