//! The search's per-root-move rows and per-iteration statistics (the sort pane, UCI
//! refutations): the numbers are what the search did. Small depths keep it fast.

use crate::common;
use common::search::{Searched, no_book, search_to_depth};

use std::collections::BTreeMap;

use ox88::chess::Board;
use ox88::engine::search::SearchStats;
use ox88::engine::{Bound, Limits, SearchEvent, SearchOptions};

const POSITIONS: [&str; 5] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6",
];

/// A search to `depth` that keeps its root rows.
fn search(fen: &str, depth: u32) -> Searched {
    let options = SearchOptions {
        report_root_moves: true,
        ..no_book()
    };
    search_to_depth(fen, depth, &options, None)
}

#[test]
fn root_rows_account_for_every_node_and_name_legal_refutations() {
    for fen in POSITIONS {
        let run = search(fen, 7);
        let board = Board::from_fen(fen).unwrap();
        let legal = board.legal_moves().len();
        let mut totals: BTreeMap<String, u64> = BTreeMap::new();
        for (depth, info) in &run.finals {
            let rows = &info.root_rows;
            assert_eq!(rows.len(), legal, "d{depth}: one row per root move");
            let order: Vec<_> = info.root_moves.iter().map(|s| s.mv).collect();
            let searched: Vec<_> = rows.iter().map(|r| r.mv()).collect();
            assert_eq!(searched, order, "rows in the order searched");
            let iteration = run.iteration_nodes(*depth);
            let sum: u64 = rows.iter().map(|r| r.nodes).sum();
            assert_eq!(sum + 1, iteration, "d{depth} {fen}: root + its moves");
            assert_eq!(info.stats.nodes, iteration, "the iteration's own counters");
            for r in rows {
                *totals.entry(r.mv().to_string()).or_default() += r.nodes;
                assert_eq!(totals[&r.mv().to_string()], r.nodes_total, "all iterations");
            }
            let best: Vec<_> = rows.iter().filter(|r| r.best).collect();
            assert_eq!(best.len(), 1, "one best move");
            assert_eq!(Some(&best[0].mv()), info.pv.first());
            assert_eq!(best[0].score, Some(info.score), "the best move's score");
            assert_eq!(best[0].bound, Bound::Exact);
            assert!(!rows[0].new_best, "the first move searched takes nothing");
            for r in rows {
                let score = r
                    .score
                    .expect("every move searched in a complete iteration");
                if !r.best {
                    assert!(score.as_ordinal() <= info.score.as_ordinal());
                    assert_ne!(r.bound, Bound::Lower, "a fail high would be the best");
                }
                if let Some(reply) = r.refutation {
                    assert_eq!(
                        r.bound,
                        Bound::Upper,
                        "only a refuted move has a refutation"
                    );
                    let mut after = board.clone();
                    after.make(r.mv());
                    assert!(
                        after.legal_moves().contains(reply),
                        "{reply} legal after {}",
                        r.mv()
                    );
                    if let Some(index) = r.refutation_index {
                        assert!((index as usize) < after.legal_moves().len());
                    }
                }
            }
            if *depth >= 3 {
                assert!(
                    rows.iter().any(|r| r.refutation.is_some()),
                    "d{depth} {fen}: some move refuted by a reply"
                );
            }
        }
    }
}

#[test]
fn iteration_statistics_are_shares_and_add_up_to_the_search() {
    for fen in POSITIONS {
        let run = search(fen, 7);
        let mut sum = SearchStats::default();
        let mut through = 0;
        for info in run.finals.values() {
            let s = &info.stats;
            sum.add(s);
            for x in [
                s.first_move_cutoff(),
                s.tt_hit_rate(),
                s.null_cutoff_rate(),
                s.research_rate(),
                s.qnode_share(),
            ] {
                assert!((0.0..=1.0).contains(&x), "{x} in 0..1");
            }
            assert!(s.fail_high_first <= s.fail_high && s.null_cutoffs <= s.null_tries);
            assert!(s.researched <= s.reduced && s.qnodes < s.nodes);
            assert_eq!(info.first_move_cutoff, s.first_move_cutoff());
            // The effective branching factor: nodes through this depth over nodes through
            // the one before, never below 1.
            if through > 0 {
                let expect = (through + s.nodes) as f64 / through as f64;
                assert!(
                    (info.branching - expect).abs() < 1e-9,
                    "branching = the ratio of the nodes through each depth"
                );
                assert!(info.branching >= 1.0, "{}", info.branching);
            }
            through += s.nodes;
        }
        // The iterations' counters partition the search's (nothing counted between them).
        assert_eq!(sum, run.result.stats, "{fen}");
    }
}

/// While an iteration runs, the rows so far come out as `RootMoves` events (at most every
/// quarter second): moves searched have their score, the rest none yet.
#[test]
fn a_long_search_sends_its_root_rows_while_it_runs() {
    use std::sync::mpsc;
    let (tx, rx) = mpsc::channel();
    let engine = ox88::engine::Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    let board = Board::from_fen(POSITIONS[1]).unwrap();
    let options = SearchOptions {
        own_book: false,
        hash_mb: 16,
        report_root_moves: true,
        ..SearchOptions::default()
    };
    let id = engine.go(&board, Limits::infinite(), &options);
    let rows = loop {
        let ev = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("rows within a minute");
        if let SearchEvent::RootMoves { id: got, rows, .. } = ev
            && got == id
        {
            break rows;
        }
    };
    engine.stop();
    assert_eq!(rows.len(), board.legal_moves().len());
    assert!(rows.iter().any(|r| r.score.is_some()));
    for r in &rows {
        if r.score.is_none() {
            assert!(!r.best && r.refutation.is_none());
        }
        assert!(r.nodes <= r.nodes_total);
    }
}
