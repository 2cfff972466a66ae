//! The ordering lab: every run's numbers are those of a single search with the same settings
//! on a fresh searcher (and of `ox88 search`), a run stops at its node cap and says so, a
//! cancel ends the job, and bad settings are refused with a reason.

use std::process::Command;

use ox88::chess::Board;
use ox88::engine::jobs::lab::{self, LabError, LabJob, LabSettings, LabStartError, parse_list};
use ox88::engine::order::Scheme;
use ox88::engine::search::{Profile, Searcher};
use ox88::engine::{Limits, SearchOptions};

const POSITIONS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
];
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn single_search(
    board: &Board,
    depth: u32,
    scheme: Scheme,
    profile: Profile,
) -> (u64, String, i32) {
    let options = SearchOptions {
        scheme,
        profile,
        own_book: false,
        ..SearchOptions::default()
    };
    let r = Searcher::standalone().search_sync(board, &Limits::depth(depth), &options, &mut |_| {});
    (
        r.stats.nodes,
        r.best.map(|m| m.to_string()).unwrap_or_default(),
        lab::score_cp(r.score),
    )
}

#[test]
fn every_lab_run_equals_a_single_search_with_the_same_settings() {
    // Depths that keep the weakest run (no ordering, no table) to a fraction of a second.
    for (fen, depth) in POSITIONS.into_iter().zip([4, 3, 4]) {
        let board = Board::from_fen(fen).unwrap();
        let settings = LabSettings::new(depth);
        let outcome = LabJob::start(board.clone(), settings.clone(), |_| {})
            .unwrap()
            .wait();
        assert_eq!(outcome.runs.len(), 10, "{fen}");
        assert!(!outcome.cancelled);
        for run in &outcome.runs {
            let (nodes, best, score) = single_search(&board, depth, run.scheme, run.profile);
            let what = format!("{fen} {} {}", run.scheme, run.profile);
            assert_eq!(run.nodes, nodes, "{what}");
            assert_eq!(run.best.map(|m| m.to_string()).unwrap(), best, "{what}");
            assert_eq!(run.score_cp(), score, "{what}");
            assert!(!run.capped, "{what}");
            assert_eq!(run.depth, depth);
            assert!((0.0..=1.0).contains(&run.first_cut), "{what}");
            assert!(run.ebf > 0.0, "{what}");
        }
        // The best run is the one with the fewest nodes.
        let best = outcome.best_index().unwrap();
        let fewest = outcome.runs.iter().map(|r| r.nodes).min().unwrap();
        assert_eq!(outcome.runs[best].nodes, fewest);
    }
}

#[test]
fn lab_json_matches_ox88_search_output() {
    let exe = env!("CARGO_BIN_EXE_ox88");
    let fen = KIWIPETE;
    let out = Command::new(exe)
        .args([
            "lab",
            "--fen",
            fen,
            "--depth",
            "4",
            "--schemes",
            "mvvlva100,modern",
        ])
        .args(["--profiles", "seed,full", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 4);
    let keys = [
        "scheme",
        "profile",
        "depth",
        "nodes",
        "time_ms",
        "first_cut",
        "avg_cut_index",
        "ebf",
        "best",
        "score",
        "capped",
    ];
    for run in runs {
        let obj = run.as_object().unwrap();
        let mut have: Vec<&str> = obj.keys().map(String::as_str).collect();
        let mut want = keys.to_vec();
        have.sort();
        want.sort();
        assert_eq!(have, want);
        let (scheme, profile) = (
            run["scheme"].as_str().unwrap(),
            run["profile"].as_str().unwrap(),
        );
        // `ox88 search` prints the nodes on its last iteration line and the best move after.
        let search = Command::new(exe)
            .args(["search", "--fen", fen, "--depth", "4", "--order", scheme])
            .args(["--profile", profile])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&search.stdout);
        let lines: Vec<&str> = text.lines().collect();
        let last_iteration: Vec<&str> = lines[lines.len() - 2].split_whitespace().collect();
        assert!(last_iteration[0].starts_with("4/"), "{text}");
        let nodes: u64 = last_iteration[2].parse().unwrap();
        assert_eq!(run["nodes"].as_u64().unwrap(), nodes, "{scheme} {profile}");
        let bestmove = lines[lines.len() - 1].split_whitespace().nth(1).unwrap();
        assert_eq!(
            run["best"].as_str().unwrap(),
            bestmove,
            "{scheme} {profile}"
        );
        assert_eq!(run["depth"].as_u64(), Some(4));
        assert_eq!(run["capped"].as_bool(), Some(false));
        let first_cut = run["first_cut"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&first_cut));
    }
}

#[test]
fn a_run_that_reaches_the_node_cap_stops_and_says_so() {
    let mut settings = LabSettings::new(12);
    settings.schemes = vec![Scheme::None];
    settings.profiles = vec![Profile::Seed];
    settings.max_nodes = 20_000;
    let outcome = LabJob::start(Board::startpos(), settings, |_| {})
        .unwrap()
        .wait();
    let run = &outcome.runs[0];
    assert!(run.capped);
    assert!(run.depth < 12);
    assert!(run.nodes >= 20_000 && run.nodes < 30_000, "{}", run.nodes);
    assert_eq!(outcome.best_index(), None);
    assert!(
        outcome.table()[1].contains("> 20000"),
        "{:?}",
        outcome.table()
    );
}

#[test]
fn cancel_stops_the_lab_and_keeps_what_finished() {
    let mut settings = LabSettings::new(30);
    settings.schemes = vec![Scheme::None, Scheme::Modern];
    settings.profiles = vec![Profile::Seed];
    let job = LabJob::start(Board::startpos(), settings, |_| {}).unwrap();
    job.cancel();
    let outcome = job.wait();
    assert!(outcome.cancelled);
    assert!(outcome.runs.is_empty());
}

#[test]
fn bad_settings_and_positions_are_refused_with_a_reason() {
    let mated = Board::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    let refused = |board: Board, s: LabSettings| match LabJob::start(board, s, |_| {}) {
        Err(LabStartError::Refused(e)) => e,
        _ => panic!("started"),
    };
    assert_eq!(refused(mated, LabSettings::new(3)), LabError::NoLegalMove);
    assert_eq!(
        refused(Board::startpos(), LabSettings::new(0)),
        LabError::Depth(0)
    );
    let mut none = LabSettings::new(3);
    none.schemes.clear();
    assert_eq!(refused(Board::startpos(), none), LabError::NoRuns);
    let parse = |t: &str| parse_list(t, "scheme", |s| s.parse::<Scheme>());
    assert_eq!(
        parse("none, modern").unwrap(),
        vec![Scheme::None, Scheme::Modern]
    );
    assert!(parse("none,,modern").unwrap_err().contains("empty"));
    assert!(parse("none,none").unwrap_err().contains("twice"));
    assert!(parse("fast").unwrap_err().contains("fast"));
}
