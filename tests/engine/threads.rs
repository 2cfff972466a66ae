//! Lazy SMP (`Threads`, `--threads`): several threads answer promptly with legal moves,
//! through the facade and through the spawned UCI binary; their nodes add up in the
//! reports; one thread stays exactly reproducible; the option's bounds are checked.
//! Every wait has a bound, generous because the machine is shared: a hang check, never a
//! speed claim.

use crate::common;
use common::uci::Uci;

use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use ox88::chess::board::Board;
use ox88::chess::types::Move;
use ox88::engine::search::{MAX_THREADS, Searcher};
use ox88::engine::{Engine, Limits, SearchEvent, SearchOptions, bench};

/// How long `stop` may take: a liveness bound.
const STOP_ANSWER: Duration = Duration::from_secs(2);
/// How long a bounded search may take on a busy machine before we call it a hang.
const ANSWER: Duration = Duration::from_secs(60);

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn options(threads: u32) -> SearchOptions {
    SearchOptions {
        own_book: false,
        hash_mb: 16,
        threads,
        ..SearchOptions::default()
    }
}

fn engine() -> (Engine, Receiver<SearchEvent>) {
    let (tx, rx) = mpsc::channel();
    let e = Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    (e, rx)
}

/// The events of search `id` up to its best move, which must come within `timeout`.
fn until_best(rx: &Receiver<SearchEvent>, id: u64, timeout: Duration) -> (Vec<SearchEvent>, Move) {
    let deadline = Instant::now() + timeout;
    let mut events = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ev = rx
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no best move within {timeout:?}"));
        if let SearchEvent::BestMove { id: got, best, .. } = &ev
            && *got == id
        {
            return (events, best.expect("a position with moves gets a move"));
        }
        events.push(ev);
    }
}

fn iterations(events: &[SearchEvent]) -> Vec<(u32, u64)> {
    events
        .iter()
        .filter_map(|ev| match ev {
            SearchEvent::Iteration { info, .. } => Some((info.depth, info.nodes)),
            _ => None,
        })
        .collect()
}

fn assert_legal(board: &Board, mv: Move) {
    assert!(
        board.legal_moves().contains(mv),
        "{mv} is not legal in {}",
        board.to_fen()
    );
}

#[test]
fn two_threads_stop_an_infinite_search_promptly_with_a_legal_move() {
    let (e, rx) = engine();
    let board = Board::from_fen(KIWIPETE).unwrap();
    let id = e.go(&board, Limits::infinite(), &options(2));
    crate::common::search::until_depth(&rx, id, 6);
    e.stop();
    let (_, best) = until_best(&rx, id, STOP_ANSWER);
    assert_legal(&board, best);
}

#[test]
fn two_threads_reach_the_depth_asked_with_growing_node_counts() {
    let (e, rx) = engine();
    let board = Board::from_fen(KIWIPETE).unwrap();
    let id = e.go(&board, Limits::depth(8), &options(2));
    let (events, best) = until_best(&rx, id, ANSWER);
    assert_legal(&board, best);
    let its = iterations(&events);
    assert_eq!(its.last().map(|i| i.0), Some(8), "{its:?}");
    assert!(
        its.windows(2).all(|w| w[1].1 >= w[0].1),
        "nodes never shrink: {its:?}"
    );
    assert!(its.last().unwrap().1 > its[0].1, "nodes grow: {its:?}");
}

#[test]
fn two_threads_answer_a_move_time() {
    let (e, rx) = engine();
    let board = Board::startpos();
    let id = e.go(
        &board,
        Limits::movetime(Duration::from_millis(200)),
        &options(2),
    );
    let (_, best) = until_best(&rx, id, ANSWER);
    assert_legal(&board, best);
}

#[test]
fn the_helpers_nodes_join_the_reported_total() {
    let board = Board::from_fen(KIWIPETE).unwrap();
    let mut two = Searcher::standalone();
    let mut reported = Vec::new();
    let r = two.search_sync(&board, &Limits::depth(7), &options(2), &mut |ev| {
        if let SearchEvent::Iteration { info, .. } = ev {
            reported.push(info.nodes);
        }
    });
    assert_legal(&board, r.best.unwrap());
    let per_thread = two.nodes_per_thread().to_vec();
    assert_eq!(per_thread.len(), 2);
    assert!(
        per_thread.iter().all(|&n| n > 0),
        "both threads searched: {per_thread:?}"
    );
    assert_eq!(r.stats.nodes, per_thread.iter().sum::<u64>());
    // The reports counted the helper as it went (published every 2048 nodes), so the last
    // one is above the main thread's own count once the helper passed 2048 nodes.
    let last = *reported.last().unwrap();
    assert!(last <= r.stats.nodes, "{last} > {}", r.stats.nodes);
    if per_thread[1] >= 4096 {
        assert!(last > per_thread[0], "{reported:?} vs {per_thread:?}");
    }
}

#[test]
fn one_thread_searches_the_same_way_every_time() {
    for fen in [KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"] {
        let board = Board::from_fen(fen).unwrap();
        let run = || {
            let mut s = Searcher::standalone();
            s.search_sync(&board, &Limits::depth(7), &options(1), &mut |_| {})
        };
        let (a, b) = (run(), run());
        assert_eq!(
            (a.stats.nodes, a.best, a.score, a.pv.clone()),
            (b.stats.nodes, b.best, b.score, b.pv.clone()),
            "{fen}"
        );
    }
}

#[test]
fn a_new_game_after_a_threaded_search_leaves_nothing_behind() {
    // The helpers wrote into the shared table; a new game must clear it (and drop their
    // history), so a one-thread search then matches a fresh engine's exactly.
    let board = Board::from_fen(KIWIPETE).unwrap();
    let mut used = Searcher::standalone();
    used.search_sync(&board, &Limits::depth(6), &options(2), &mut |_| {});
    used.new_game();
    let after = used.search_sync(&board, &Limits::depth(6), &options(1), &mut |_| {});
    let fresh =
        Searcher::standalone().search_sync(&board, &Limits::depth(6), &options(1), &mut |_| {});
    assert_eq!(
        (after.stats.nodes, after.best, after.score),
        (fresh.stats.nodes, fresh.best, fresh.score)
    );
}

#[test]
fn threads_survive_a_hash_resize_and_a_new_game() {
    let (e, rx) = engine();
    let board = Board::from_fen(KIWIPETE).unwrap();
    for (hash_mb, new_game) in [(16, false), (32, false), (32, true), (8, false)] {
        if new_game {
            e.new_game();
        }
        let opts = SearchOptions {
            hash_mb,
            ..options(2)
        };
        let id = e.go(&board, Limits::depth(6), &opts);
        let (events, best) = until_best(&rx, id, ANSWER);
        assert_legal(&board, best);
        assert_eq!(iterations(&events).last().map(|i| i.0), Some(6));
    }
}

#[test]
fn bench_on_two_threads_reaches_the_depth_on_every_position() {
    let rows = bench::run_threads(
        4,
        Default::default(),
        Default::default(),
        2,
        Default::default(),
        |_| {},
    );
    assert_eq!(rows.len(), bench::POSITIONS.len());
    for (row, (_, fen)) in rows.iter().zip(bench::POSITIONS) {
        assert_legal(&Board::from_fen(fen).unwrap(), row.best.unwrap());
        assert!(row.stats.nodes > 0);
    }
}

/// The `bestmove` of the spawned engine, legal in `board`, and the info lines before it.
fn best(uci: &mut Uci, board: &Board, timeout: Duration) -> Vec<String> {
    let (lines, mv) = uci.bestmove(timeout);
    let legal = board
        .parse_uci_move(&mv)
        .is_ok_and(|m| board.legal_moves().contains(m));
    assert!(
        legal,
        "bestmove {mv} is not legal; transcript:\n{}",
        uci.transcript()
    );
    lines
}

fn info_nodes(lines: &[String]) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l.starts_with("info") && l.contains(" pv "))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            words.find(|w| *w == "nodes")?;
            words.next()?.parse().ok()
        })
        .collect()
}

#[test]
fn uci_declares_threads_up_to_the_cap_and_refuses_counts_outside_it() {
    let mut uci = Uci::start();
    let lines = uci.handshake();
    let declared = format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}");
    assert!(lines.contains(&declared), "{lines:?}");
    for bad in ["0", &(MAX_THREADS + 1).to_string(), "many"] {
        uci.send(&format!("setoption name Threads value {bad}"));
        let said = uci.sync();
        assert!(
            said.iter()
                .any(|l| l.starts_with("info string") && l.contains("Threads")),
            "Threads {bad}: {said:?}"
        );
    }
    uci.send("setoption name Threads value 2");
    assert!(uci.sync().is_empty(), "a count in range is taken quietly");
}

#[test]
fn uci_with_two_threads_stops_promptly_searches_depths_and_keeps_time() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.send("setoption name Threads value 2");
    uci.send("setoption name OwnBook value false");
    uci.send(&format!("position fen {KIWIPETE}"));
    uci.sync();
    let board = Board::from_fen(KIWIPETE).unwrap();

    uci.send("go infinite");
    uci.searching_past(0);
    uci.send("stop");
    best(&mut uci, &board, STOP_ANSWER);

    uci.send("go depth 8");
    let lines = best(&mut uci, &board, ANSWER);
    let nodes = info_nodes(&lines);
    assert!(nodes.len() >= 2, "{lines:?}");
    assert!(nodes.windows(2).all(|w| w[1] >= w[0]), "{nodes:?}");
    assert!(nodes.last() > nodes.first(), "{nodes:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 8 ")),
        "{lines:?}"
    );

    uci.send("ucinewgame");
    uci.send("position startpos");
    uci.send("go movetime 200");
    best(&mut uci, &Board::startpos(), ANSWER);
}
