//! The engine's speed: search (nodes per second to a fixed depth), perft, the evaluation
//! in its `net` and `full` modes, and move ordering. `cargo bench --bench engine`; criterion keeps
//! each run's figures under target/criterion and says how a run differs from the last.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ox88::chess::{Board, perft};
use ox88::engine::eval::{EvalConfig, EvalMode, ValuePreset, evaluate};
use ox88::engine::order::{self, History, OrderContext, Scheme};
use ox88::engine::search::Searcher;
use ox88::engine::{Limits, SearchOptions};

/// The start, a middlegame with every kind of move (Kiwipete) and an endgame.
const POSITIONS: [(&str, &str); 3] = [
    ("start", Board::START_FEN),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    ("endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
];

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A fresh search to depth 7 each time (a new table, no book), so each run counts the same
/// nodes; the throughput is in nodes, so criterion reports nodes per second.
fn search(c: &mut Criterion) {
    let options = SearchOptions {
        own_book: false,
        hash_mb: 16,
        ..SearchOptions::default()
    };
    let mut group = c.benchmark_group("search_depth_7");
    group.sample_size(10);
    for (name, fen) in POSITIONS {
        let b = board(fen);
        let nodes = Searcher::standalone()
            .search_sync(&b, &Limits::depth(7), &options, &mut |_| {})
            .stats
            .nodes;
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::from_parameter(name), &b, |bench, b| {
            bench.iter(|| {
                Searcher::standalone().search_sync(b, &Limits::depth(7), &options, &mut |_| {})
            })
        });
    }
    group.finish();
}

/// Leaf nodes per second of the move generator (make, unmake, legality).
fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, fen, depth) in [
        ("start", POSITIONS[0].1, 4),
        ("kiwipete", POSITIONS[1].1, 3),
    ] {
        let mut b = board(fen);
        group.throughput(Throughput::Elements(perft::perft(&mut b, depth)));
        group.bench_function(BenchmarkId::new(name, depth), |bench| {
            bench.iter(|| perft::perft(black_box(&mut b), depth))
        });
    }
    group.finish();
}

/// Each position of [`POSITIONS`] and every one a legal move from it, evaluated once per
/// iteration in each of the two modes the engine plays with.
fn eval(c: &mut Criterion) {
    let mut positions = Vec::new();
    for (_, fen) in POSITIONS {
        let b = board(fen);
        for &m in b.legal_moves().iter() {
            let mut child = b.clone();
            child.make(m);
            positions.push(child);
        }
        positions.push(b);
    }
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.measurement_time(Duration::from_secs(3));
    for mode in [EvalMode::Net, EvalMode::Full] {
        let config = EvalConfig {
            mode,
            preset: ValuePreset::Seed,
        };
        group.bench_function(format!("{mode}"), |bench| {
            bench.iter(|| {
                positions
                    .iter()
                    .map(|b| evaluate(black_box(b), &config) as i64)
                    .sum::<i64>()
            })
        });
    }
    group.finish();
}

/// The 500 balanced openings of tests/data, the positions move ordering sees most.
fn openings() -> Vec<Board> {
    include_str!("../tests/data/openings500.epd")
        .lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            (fields.len() == 4).then(|| board(&format!("{} 0 1", fields.join(" "))))
        })
        .collect()
}

/// Move ordering over the openings: generating the moves (for scale), scoring them (all
/// moves and captures only) with each scheme, and the static exchange of every capture.
fn ordering(c: &mut Criterion) {
    let boards = openings();
    let lists: Vec<_> = boards.iter().map(|b| b.legal_moves()).collect();
    let tactical: Vec<_> = boards.iter().map(|b| b.tactical_moves()).collect();
    let (history, ctx) = (History::default(), OrderContext::default());
    let mut group = c.benchmark_group("order");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("legal_moves", |bench| {
        bench.iter(|| {
            boards
                .iter()
                .map(|b| black_box(b).legal_moves().len())
                .sum::<usize>()
        })
    });
    for scheme in Scheme::ALL {
        for (label, sets) in [("all", &lists), ("tactical", &tactical)] {
            let mut scores = [0i32; 256];
            group.bench_function(format!("score_moves/{scheme}/{label}"), |bench| {
                bench.iter(|| {
                    for (b, l) in boards.iter().zip(sets.iter()) {
                        order::score_moves(b, l, scheme, &ctx, &history, &mut scores);
                        black_box(scores[0]);
                    }
                })
            });
        }
    }
    let captures: Vec<_> = tactical
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |&m| (i, m)))
        .collect();
    group.throughput(Throughput::Elements(captures.len() as u64));
    group.bench_function("see", |bench| {
        bench.iter(|| {
            captures
                .iter()
                .map(|&(i, m)| order::see(&boards[i], m) as i64)
                .sum::<i64>()
        })
    });
    group.finish();
}

criterion_group!(benches, search, perft_bench, eval, ordering);
criterion_main!(benches);
