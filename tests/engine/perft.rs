//! Perft of the published suites (copies kept in tests/data): every
//! position to the shallowest depth whose count reaches a million nodes (or its deepest
//! listed depth), so each position is proven on a large tree.

use ox88::chess::{Board, perft};

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
    id: String,
}

fn parse_epd(text: &str) -> Vec<Case> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let mut counts = Vec::new();
            let mut id = fen.clone();
            for p in parts {
                let p = p.trim();
                if let Some(rest) = p.strip_prefix('D') {
                    let mut it = rest.split_whitespace();
                    let d: u32 = it.next().unwrap().parse().unwrap();
                    let n: u64 = it.next().unwrap().parse().unwrap();
                    counts.push((d, n));
                } else if let Some(rest) = p.strip_prefix("id ") {
                    id = rest.to_string();
                }
            }
            Case { fen, counts, id }
        })
        .collect()
}

/// The depth to test: the first with at least `min_nodes` nodes, else the deepest given,
/// skipping depths above `max_nodes` (those belong in `ox88 perft`, not in the test suite).
fn pick(counts: &[(u32, u64)], min_nodes: u64, max_nodes: u64) -> (u32, u64) {
    let usable: Vec<_> = counts
        .iter()
        .copied()
        .filter(|&(_, n)| n <= max_nodes)
        .collect();
    usable
        .iter()
        .copied()
        .find(|&(_, n)| n >= min_nodes)
        .or_else(|| usable.last().copied())
        .expect("every case lists a depth")
}

fn run_suite(text: &str, min_nodes: u64, max_nodes: u64) -> usize {
    let mut checked = 0;
    for case in parse_epd(text) {
        let mut board = Board::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let (depth, want) = pick(&case.counts, min_nodes, max_nodes);
        let got = perft::perft(&mut board, depth);
        assert_eq!(got, want, "{} perft {depth}", case.id);
        assert_eq!(
            board.to_fen(),
            Board::from_fen(&case.fen).unwrap().to_fen(),
            "{}: restored",
            case.id
        );
        checked += 1;
    }
    checked
}

#[test]
fn cpw_positions_start_kiwipete_and_friends() {
    // Start pos D5 (4.9M), Kiwipete D4 (4.1M), positions 3-6 at a million nodes or more.
    let n = run_suite(include_str!("../data/cpw6.epd"), 1_000_000, 20_000_000);
    assert_eq!(n, 7);
}

#[test]
fn standard_suite() {
    let n = run_suite(include_str!("../data/standard.epd"), 1_000_000, 20_000_000);
    assert_eq!(n, 128);
}

#[test]
fn tricky_positions() {
    let n = run_suite(include_str!("../data/tricky.epd"), 0, u64::MAX);
    assert_eq!(n, 7);
}

#[test]
fn divide_sums_to_perft_and_matches_known_root_split() {
    let mut b = Board::startpos();
    let rows = perft::divide(&mut b, 3);
    assert_eq!(rows.len(), 20);
    assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), 8902);
    let e2e4 = rows.iter().find(|(m, _)| m.to_string() == "e2e4").unwrap();
    assert_eq!(e2e4.1, 600);
    let g1f3 = rows.iter().find(|(m, _)| m.to_string() == "g1f3").unwrap();
    assert_eq!(g1f3.1, 440);
}

#[test]
fn impossible_check_configurations_load_or_are_refused_cleanly() {
    // Engines may disagree on these; ours must either refuse them with a reason or count
    // them exactly.
    for case in parse_epd(include_str!("../data/tricky_impossible.epd")) {
        match Board::from_fen(&case.fen) {
            Err(e) => assert!(!e.to_string().is_empty()),
            Ok(mut b) => {
                let (depth, want) = pick(&case.counts, 0, u64::MAX);
                assert_eq!(perft::perft(&mut b, depth), want, "{}", case.id);
            }
        }
    }
}
