//! The evaluation cache serves exactly what a fresh evaluation computes: on every position of
//! the perft suite and its children, through positions that share a slot, and across a change of
//! evaluation mode or piece values, where a value of the old configuration must never come
//! back.

use crate::common;
use common::search::no_book;

use ox88::chess::Board;
use ox88::engine::eval::{EvalCache, EvalConfig, EvalMode, ValuePreset, evaluate};
use ox88::engine::search::Searcher;
use ox88::engine::{Limits, SearchOptions};

/// The perft suite's positions, a few hundred openings, and every position one legal move
/// away from them (some twenty thousand).
fn positions() -> Vec<Board> {
    let mut out = Vec::new();
    let suites = [
        include_str!("../data/standard.epd"),
        include_str!("../data/openings500.epd"),
    ];
    for line in suites.iter().flat_map(|s| s.lines()) {
        // EPD lines carry opcodes after the four fields.
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        let mut board = Board::from_fen(&fields.join(" ")).unwrap();
        out.push(board.clone());
        for mv in &board.legal_moves() {
            board.make(*mv);
            out.push(board.clone());
            board.unmake();
        }
    }
    out
}

fn every_config() -> Vec<EvalConfig> {
    let mut out = vec![EvalConfig::default()];
    for mode in [EvalMode::Material, EvalMode::Center] {
        for preset in ValuePreset::ALL {
            out.push(EvalConfig { mode, preset });
        }
    }
    out
}

#[test]
fn cached_values_equal_fresh_evaluations_on_thousands_of_positions() {
    let boards = positions();
    assert!(boards.len() > 10_000, "{} positions", boards.len());
    // Positions whose keys share a slot (the keys' low 16 bits) but differ: the stored key
    // must tell them apart, or one would be served the other's value.
    let mut keys: Vec<u64> = boards.iter().map(Board::hash).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut slots: Vec<u64> = keys.iter().map(|k| k & 0xFFFF).collect();
    slots.sort_unstable();
    slots.dedup();
    assert!(keys.len() > slots.len(), "no two positions share a slot");
    let cfg = EvalConfig::default();
    let mut cache = EvalCache::default();
    for pass in 0..2 {
        for b in &boards {
            assert_eq!(
                cache.evaluate(b, &cfg),
                evaluate(b, &cfg),
                "pass {pass}: {}",
                b.to_fen()
            );
        }
    }
}

#[test]
fn a_change_of_mode_or_values_never_serves_a_stale_value() {
    let boards = positions();
    let configs = every_config();
    let mut cache = EvalCache::default();
    let mut differed = 0;
    // Each configuration fills the cache, the next one must not read it.
    for round in 0..2 {
        for (i, cfg) in configs.iter().enumerate() {
            let before = &configs[(i + configs.len() - 1) % configs.len()];
            for b in &boards {
                let fresh = evaluate(b, cfg);
                differed += usize::from(fresh != evaluate(b, before));
                assert_eq!(
                    cache.evaluate(b, cfg),
                    fresh,
                    "round {round}, {cfg:?} after {before:?}: {}",
                    b.to_fen()
                );
            }
        }
    }
    // The configurations do give different values, so a stale one would have been caught.
    assert!(differed > boards.len(), "only {differed} values differed");
}

#[test]
fn a_searcher_that_changes_evaluation_searches_like_a_fresh_one() {
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let board = Board::from_fen(fen).unwrap();
    let limits = Limits::depth(6);
    let with = |eval: EvalConfig| SearchOptions { eval, ..no_book() };
    let center = EvalConfig {
        mode: EvalMode::Center,
        preset: ValuePreset::Kaufman,
    };
    let mut used = Searcher::standalone();
    used.search_sync(&board, &limits, &with(EvalConfig::default()), &mut |_| {});
    let after = used.search_sync(&board, &limits, &with(center), &mut |_| {});
    let fresh = Searcher::standalone().search_sync(&board, &limits, &with(center), &mut |_| {});
    assert_eq!(after.stats.nodes, fresh.stats.nodes);
    assert_eq!(after.score, fresh.score);
    assert_eq!(after.pv, fresh.pv);
    // And back: the `full` search is the one a fresh searcher does too.
    let back = used.search_sync(&board, &limits, &with(EvalConfig::default()), &mut |_| {});
    let fresh_full = Searcher::standalone().search_sync(
        &board,
        &limits,
        &with(EvalConfig::default()),
        &mut |_| {},
    );
    assert_eq!(back.stats.nodes, fresh_full.stats.nodes);
    assert_eq!(back.score, fresh_full.score);
}
