//! Search behaviour: mates found with the right distance, draws scored as draws, the book
//! answering with its line and name, `stop` ending an infinite search with a legal move,
//! and fixed-depth determinism.

use std::sync::{Arc, mpsc};
use std::time::Duration;

use crate::common::search::until_depth;
use ox88::chess::Board;
use ox88::engine::search::{Profile, SearchShared, Searcher};
use ox88::engine::{Engine, IterationInfo, Limits, Score, SearchEvent, SearchOptions};

fn no_book() -> SearchOptions {
    SearchOptions {
        own_book: false,
        hash_mb: 16,
        ..SearchOptions::default()
    }
}

fn search(fen: &str, depth: u32, options: &SearchOptions) -> ox88::engine::search::SearchResult {
    let board = Board::from_fen(fen).unwrap();
    let mut s = Searcher::standalone();
    s.search_sync(&board, &Limits::depth(depth), options, &mut |_| {})
}

#[test]
fn finds_mates_with_the_right_distance() {
    // Distances confirmed with Stockfish 15.1 (`go mate N` finds none shorter).
    let cases = [
        ("k7/8/1K6/8/8/8/8/7R w - - 0 1", 1, "h1h8"),
        (
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
            1,
            "h5f7",
        ),
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"),
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2, ""),
        ("7k/8/8/8/8/8/R7/1R5K w - - 0 1", 2, ""),
        ("8/8/8/8/8/k7/8/KQ6 w - - 0 1", 4, ""),
        ("8/8/8/8/8/2k5/8/K6Q w - - 0 1", 6, ""),
    ];
    for profile in [Profile::Full, Profile::Seed] {
        for (fen, n, mv) in cases {
            if profile == Profile::Seed && n > 2 {
                continue; // the seed profile has no TT: deep mates take long
            }
            let opts = SearchOptions {
                profile,
                ..no_book()
            };
            // Plain alpha-beta proves the shortest mate at 2n-1 plies; with reductions and
            // pruning the full profile needs some nominal depth in hand (KQ v K's mate in 4
            // shows from depth 17 with the fourth stop's late-move reductions, 16 before, and
            // from depth 18 with the sixth stop's fourth fit of the evaluation).
            let depth = if profile == Profile::Seed {
                2 * n
            } else {
                2 * n + 12
            };
            let r = search(fen, depth as u32, &opts);
            assert_eq!(r.score, Score::Mate(n), "{fen} ({profile})");
            if !mv.is_empty() {
                assert_eq!(r.best.unwrap().to_string(), mv, "{fen}");
            }
            // The mating line really mates.
            let mut b = Board::from_fen(fen).unwrap();
            for m in r.pv.iter().take(2 * n as usize - 1) {
                assert!(b.legal_moves().contains(*m), "{fen}: PV move {m} legal");
                b.make(*m);
            }
            assert!(
                b.in_check() && b.legal_moves().is_empty(),
                "{fen}: PV ends in mate"
            );
        }
    }
}

#[test]
fn getting_mated_is_reported_as_negative_mate() {
    // Black to move, mated in two whatever it does: Kb8 is forced, and after a waiting
    // move the rook mates on the back rank. Deep enough for the pruning to let the quiet
    // waiting move through (the default evaluation finds it at depth 9).
    let r = search("k7/8/1K6/8/8/8/8/R7 b - - 0 1", 10, &no_book());
    assert!(matches!(r.score, Score::Mate(n) if n < 0), "{:?}", r.score);
}

#[test]
fn stalemate_is_a_draw() {
    // Black to move has no legal move and is not in check.
    let r = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 4, &no_book());
    assert_eq!(r.best, None);
    assert_eq!(r.score, Score::Cp(0));
    // White, a queen up, must not stalemate: it mates instead.
    let r = search("7k/8/5K2/8/8/8/8/6Q1 w - - 0 1", 6, &no_book());
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
}

#[test]
fn repetition_is_a_draw_the_losing_side_takes() {
    // White is a queen down; repeating the position is its best result. The cycle has been
    // played twice, so g1f3 brings a position back for the third time: a threefold.
    let mut b = Board::from_fen("3q3k/8/8/8/8/8/8/K5N1 w - - 0 1").unwrap();
    let cycle = ["g1f3", "h8g8", "f3g1", "g8h8"];
    for mv in cycle.iter().chain(&cycle) {
        let m = b.parse_uci_move(mv).unwrap();
        b.make(m);
    }
    let mut s = Searcher::standalone();
    let r = s.search_sync(&b, &Limits::depth(6), &no_book(), &mut |_| {});
    assert_eq!(r.best.unwrap().to_string(), "g1f3");
    assert_eq!(r.score, Score::Cp(0));
    // Without the history, the same position is simply lost: a knight against a queen is
    // worth far less than the draw (how much less is the evaluation's business: the
    // network xb8 said -613 at this depth, xs -496).
    let fresh = Board::from_fen("3q3k/8/8/8/8/8/8/K5N1 w - - 0 1").unwrap();
    let r = s.search_sync(&fresh, &Limits::depth(6), &no_book(), &mut |_| {});
    assert!(r.score.as_ordinal() < -300, "{:?}", r.score);
}

#[test]
fn fifty_move_rule_is_a_draw_in_the_tree() {
    // White is up a rook, but the clock is at 99 half-moves: any non-capture, non-pawn
    // move ends the game in a draw. Black can capture nothing; so the score is a draw.
    let r = search("7k/8/8/8/8/8/8/R5K1 b - - 99 120", 4, &no_book());
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn same_depth_twice_gives_the_same_nodes_and_move() {
    let board = Board::from_fen("r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6")
        .unwrap();
    let mut s = Searcher::standalone();
    let a = s.search_sync(&board, &Limits::depth(8), &no_book(), &mut |_| {});
    s.new_game();
    let b = s.search_sync(&board, &Limits::depth(8), &no_book(), &mut |_| {});
    let mut t = Searcher::standalone();
    let c = t.search_sync(&board, &Limits::depth(8), &no_book(), &mut |_| {});
    assert_eq!(a.stats.nodes, b.stats.nodes);
    assert_eq!(a.stats.nodes, c.stats.nodes);
    assert_eq!(a.best, b.best);
    assert_eq!(a.best, c.best);
    assert!(a.stats.nodes > 1000);
}

fn engine() -> (Engine, mpsc::Receiver<SearchEvent>) {
    let (tx, rx) = mpsc::channel();
    let e = Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    (e, rx)
}

fn wait_best(rx: &mpsc::Receiver<SearchEvent>, id: u64) -> SearchEvent {
    loop {
        let ev = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("search answers");
        if let SearchEvent::BestMove { id: got, .. } = &ev
            && *got == id
        {
            return ev;
        }
    }
}

#[test]
fn book_hit_returns_the_lines_move_and_name() {
    let (e, rx) = engine();
    let mut b = Board::startpos();
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        let m = b.parse_uci_move(mv).unwrap();
        b.make(m);
    }
    // Under a clock the book answers (a depth cap beside the clock, as the TUI's level
    // sets, does not matter); at a fixed depth alone the engine searches instead.
    let clock = Limits {
        depth: Some(20),
        wtime: Some(Duration::from_secs(60)),
        btime: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let id = e.go(&b, clock, &SearchOptions::default());
    let SearchEvent::BestMove { best, book, .. } = wait_best(&rx, id) else {
        unreachable!()
    };
    let best = best.unwrap();
    assert!(b.legal_moves().contains(best));
    let name = book.expect("a book move");
    assert!(!name.is_empty());
    // The book's move leads to a named opening position.
    let mut after = b.clone();
    after.make(best);
    let book = ox88::engine::book::Book::builtin();
    assert_eq!(book.opening_name(&after).as_deref(), Some(name.as_str()));
}

#[test]
fn stop_during_infinite_search_yields_a_legal_move() {
    let (e, rx) = engine();
    let b = Board::from_fen("r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6")
        .unwrap();
    let id = e.go(&b, Limits::infinite(), &no_book());
    until_depth(&rx, id, 6);
    assert!(
        e.is_searching(),
        "an infinite search keeps going until stopped"
    );
    e.stop();
    let SearchEvent::BestMove { best, .. } = wait_best(&rx, id) else {
        unreachable!()
    };
    assert!(b.legal_moves().contains(best.unwrap()));
    e.wait_idle();
    assert!(!e.is_searching());
}

/// Analysis of a back-rank mate: once the mate is proven well past its length the search
/// stops deepening (no flood of identical iterations up to the greatest depth), keeps its
/// answer until told to stop, and then gives the mating move.
#[test]
fn an_infinite_search_stops_deepening_once_a_mate_is_proven() {
    let (e, rx) = engine();
    // Rd8 mates at once.
    let b = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1").unwrap();
    let id = e.go(&b, Limits::infinite(), &no_book());
    let mut deepest = 0;
    let mut mate = None;
    let quiet_after = Duration::from_millis(1500);
    while let Ok(ev) = rx.recv_timeout(quiet_after) {
        if let SearchEvent::Iteration { id: i, info } = ev
            && i == id
        {
            deepest = deepest.max(info.depth);
            if let Score::Mate(n) = info.score {
                mate = Some(n);
            }
        }
    }
    let n = mate.expect("the mate is found");
    assert!(n > 0, "White mates: {n}");
    assert!(
        deepest <= 2 * (2 * n as u32 - 1) + 4,
        "mate in {n} searched on to depth {deepest}"
    );
    assert!(e.is_searching(), "an infinite search waits for its stop");
    e.stop();
    let SearchEvent::BestMove { best, .. } = wait_best(&rx, id) else {
        unreachable!()
    };
    assert_eq!(best, Some(b.parse_uci_move("d1d8").unwrap()));
}

#[test]
fn two_engines_in_one_process_play_each_other() {
    let (white, wrx) = engine();
    let (black, brx) = engine();
    let mut b = Board::startpos();
    let opts = SearchOptions {
        own_book: false,
        hash_mb: 8,
        ..SearchOptions::default()
    };
    for ply in 0..12 {
        let (e, rx) = if ply % 2 == 0 {
            (&white, &wrx)
        } else {
            (&black, &brx)
        };
        let id = e.go(&b, Limits::depth(4), &opts);
        let SearchEvent::BestMove { best, .. } = wait_best(rx, id) else {
            unreachable!()
        };
        let m = best.unwrap();
        assert!(b.legal_moves().contains(m));
        b.make(m);
    }
    assert_eq!(b.ply_count(), 12);
}

#[test]
fn iterations_report_consistent_numbers() {
    let (e, rx) = engine();
    let b = Board::startpos();
    let opts = SearchOptions {
        report_root_moves: true,
        ..no_book()
    };
    let id = e.go(&b, Limits::depth(6), &opts);
    let mut last_depth = 0;
    let mut last_nodes = 0;
    loop {
        match rx.recv_timeout(Duration::from_secs(30)).unwrap() {
            SearchEvent::Iteration { id: got, info }
                if got == id && info.bound == ox88::engine::Bound::Exact =>
            {
                assert_eq!(info.depth, last_depth + 1);
                assert!(info.nodes >= last_nodes);
                assert!(!info.pv.is_empty());
                assert_eq!(info.score_white, info.score, "White to move: same view");
                assert_eq!(info.root_moves.len(), 20);
                // Every root move is listed once, sorted by ordering score.
                assert!(info.root_moves.windows(2).all(|w| w[0].score >= w[1].score));
                assert!((0.0..=1.0).contains(&info.first_move_cutoff));
                last_depth = info.depth;
                last_nodes = info.nodes;
            }
            SearchEvent::BestMove { id: got, best, .. } if got == id => {
                assert!(b.legal_moves().contains(best.unwrap()));
                break;
            }
            _ => {}
        }
    }
    assert_eq!(last_depth, 6);
}

/// (nodes, score, PV) of a fixed-depth search: what "the same search" means.
fn fingerprint(r: &ox88::engine::search::SearchResult) -> (u64, Score, Vec<String>) {
    (
        r.stats.nodes,
        r.score,
        r.pv.iter().map(|m| m.to_string()).collect(),
    )
}

#[test]
fn changing_a_setting_searches_exactly_as_a_fresh_engine_would() {
    use ox88::engine::eval::{EvalConfig, EvalMode};
    use ox88::engine::order::Scheme;
    let board = Board::from_fen("r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6")
        .unwrap();
    let base = SearchOptions {
        hash_mb: 4,
        ..no_book()
    };
    let mut settings = Vec::new();
    for scheme in [
        Scheme::None,
        Scheme::MvvLva,
        Scheme::MvvLva100,
        Scheme::Seed,
        Scheme::Modern,
    ] {
        settings.push(SearchOptions {
            scheme,
            ..base.clone()
        });
    }
    for profile in [Profile::Seed, Profile::Full] {
        settings.push(SearchOptions {
            profile,
            ..base.clone()
        });
    }
    for mode in [EvalMode::Material, EvalMode::Center, EvalMode::Full] {
        settings.push(SearchOptions {
            eval: EvalConfig {
                mode,
                ..EvalConfig::default()
            },
            ..base.clone()
        });
    }
    settings.push(SearchOptions {
        hash_mb: 8,
        ..base.clone()
    });
    for b in &settings {
        // Setting A: anything else that leaves a table, history and killers behind.
        let a = if b == &base {
            SearchOptions {
                profile: Profile::Seed,
                scheme: Scheme::MvvLva,
                ..base.clone()
            }
        } else {
            base.clone()
        };
        let depth = if b.profile == Profile::Seed { 4 } else { 6 };
        let limits = Limits::depth(depth);
        let mut used = Searcher::standalone();
        used.search_sync(&board, &Limits::depth(5), &a, &mut |_| {});
        let after_switch = used.search_sync(&board, &limits, b, &mut |_| {});
        let fresh = Searcher::standalone().search_sync(&board, &limits, b, &mut |_| {});
        assert_eq!(
            fingerprint(&after_switch),
            fingerprint(&fresh),
            "{:?}/{}/{:?}/{} MB after another setting",
            b.scheme,
            b.profile,
            b.eval.mode,
            b.hash_mb
        );
    }
}

/// How deep a probe searches at most: far past where the events probed for happen, and
/// still only seconds when none does, so the test fails instead of seeming to hang.
const PROBE_DEPTH: u32 = 16;

/// Searches `board` no deeper than `cap`, showing `look` each iteration report in turn,
/// and stops at the first one `look` finds something in. Tests find where the event they
/// need happens this way, from the search's own reports, so no search change needs a
/// number retuned.
fn probe<T>(
    board: &Board,
    options: &SearchOptions,
    cap: u32,
    mut look: impl FnMut(&IterationInfo) -> Option<T>,
) -> Option<T> {
    let shared = Arc::new(SearchShared::default());
    let mut found = None;
    Searcher::new(Arc::clone(&shared)).search_sync(board, &Limits::depth(cap), options, &mut |e| {
        if let SearchEvent::Iteration { info, .. } = e
            && found.is_none()
        {
            found = look(&info);
            if found.is_some() {
                shared.stop_all();
            }
        }
    });
    found
}

#[test]
fn a_failed_aspiration_window_is_reported_as_a_bound_before_the_exact_score() {
    use ox88::engine::Bound;
    // The first position (of a few sharp ones) and depth whose window around the previous
    // depth's score fails: which one does depends on the evaluation's weights.
    let (board, failed) = [
        "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1b1k2r/ppppnppp/2n2q2/2b5/3NP3/2P1B3/PP3PPP/RN1QKB1R w KQkq - 0 1",
    ]
    .iter()
    .find_map(|fen| {
        let board = Board::from_fen(fen).unwrap();
        let failed = probe(&board, &no_book(), PROBE_DEPTH, |i| {
            (i.bound != Bound::Exact).then_some(i.depth)
        })?;
        Some((board, failed))
    })
    .expect("some aspiration window fails within the probe's depth");
    let mut events = Vec::new();
    let mut s = Searcher::standalone();
    let r = s.search_sync(&board, &Limits::depth(failed), &no_book(), &mut |e| {
        if let SearchEvent::Iteration { info, .. } = e {
            events.push((info.depth, info.bound, info.score));
        }
    });
    let bounds: Vec<_> = events.iter().filter(|e| e.1 != Bound::Exact).collect();
    assert!(!bounds.is_empty(), "no window failed: {events:?}");
    for depth in 1..=failed {
        let at: Vec<_> = events.iter().filter(|e| e.0 == depth).collect();
        let exact: Vec<_> = at.iter().filter(|e| e.1 == Bound::Exact).collect();
        assert_eq!(exact.len(), 1, "depth {depth}: one exact score: {at:?}");
        assert_eq!(
            at.last().unwrap().1,
            Bound::Exact,
            "depth {depth}: bounds come first"
        );
    }
    // The search's answer is the last exact score, never a bound.
    assert_eq!(events.last().unwrap().2, r.score);
}

#[test]
fn a_stopped_iteration_is_reported_only_as_a_lower_bound() {
    use ox88::engine::Bound;
    let board = Board::from_fen("r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6")
        .unwrap();
    // The root rows say when an iteration's first root move finished.
    let options = SearchOptions {
        report_root_moves: true,
        ..no_book()
    };
    let (depth, limit) = stop_after_the_first_root_move(&board, &options);
    let limits = Limits {
        nodes: Some(limit),
        ..Limits::default()
    };
    let mut events = Vec::new();
    let mut s = Searcher::standalone();
    let r = s.search_sync(&board, &limits, &options, &mut |e| {
        if let SearchEvent::Iteration { info, .. } = e {
            events.push((info.depth, info.bound, info.nodes, info.score));
        }
    });
    // Completed iterations were reported before the search went on; what the stopped one
    // reports carries the final node count.
    let stopped: Vec<_> = events.iter().filter(|e| e.2 == r.stats.nodes).collect();
    assert!(
        !stopped.is_empty(),
        "the stopped iteration said nothing: {events:?}"
    );
    assert!(stopped.iter().all(|e| e.1 == Bound::Lower), "{stopped:?}");
    let last_exact = events.iter().rev().find(|e| e.1 == Bound::Exact).unwrap();
    assert!(
        stopped
            .iter()
            .all(|e| e.0 == last_exact.0 + 1 && e.0 == depth),
        "stopped in depth {depth}: {events:?}"
    );
}

/// A node limit that stops an iteration of `board`'s search after its first root move
/// finished and before the iteration ends, and that iteration's depth; found from the
/// search's own reports (`options` must report root moves). The limit is checked every
/// 2048 nodes (and counts each iteration's root and every null move), so the limit is such
/// a check point. Only an iteration searched in one pass will do: its rows count that
/// pass's nodes.
fn stop_after_the_first_root_move(board: &Board, options: &SearchOptions) -> (u32, u64) {
    use ox88::engine::Bound;
    let mut started = 0; // the nodes searched when the iteration started
    let mut depth = 0;
    let mut passes = 0;
    probe(board, options, PROBE_DEPTH, |i| {
        if i.depth != depth {
            (depth, passes) = (i.depth, 0);
        }
        passes += 1;
        if i.bound != Bound::Exact {
            return None; // a failed window: this iteration takes another pass
        }
        let start = std::mem::replace(&mut started, i.nodes);
        let first_done = start + 1 + i.root_rows[0].nodes;
        let check = (first_done / 2048 + 1) * 2048;
        // The first root move must have beaten the window (not been refuted): only then is
        // the stopped iteration's line usable, and reported.
        let first_held = i.root_rows[0].bound != Bound::Upper;
        (passes == 1 && first_held && check < i.nodes).then_some((i.depth, check))
    })
    .expect("an iteration within the probe's depth with a check point after its first root move")
}

#[test]
fn a_position_seen_once_before_the_root_is_not_yet_a_draw() {
    // Black to move in the start position A; after h8g8 g1f3 g8h8 White, a queen down, can
    // play f3g1 and bring A back. A occurred once, before the root: a second occurrence is
    // no threefold, so the game goes on and White is still lost at every depth.
    let mut b = Board::from_fen("3q3k/8/8/8/8/8/8/K5N1 b - - 0 1").unwrap();
    for mv in ["h8g8", "g1f3", "g8h8"] {
        let m = b.parse_uci_move(mv).unwrap();
        b.make(m);
    }
    for depth in 1..=5 {
        let mut s = Searcher::standalone();
        let r = s.search_sync(&b, &Limits::depth(depth), &no_book(), &mut |_| {});
        assert!(
            r.score.as_ordinal() < -300,
            "depth {depth}: {:?} {:?}",
            r.score,
            r.pv
        );
    }
}

#[test]
fn a_repetition_inside_the_tree_is_a_draw() {
    // Two queens down, White has a perpetual: Qh5+ Kg8 Qe8+ Kh7 Qh5+ Kg8 brings a position
    // of the tree back once. No game history: the draw is found in the tree alone.
    let r = search("7k/6p1/8/6Q1/8/8/qq6/7K w - - 0 1", 8, &no_book());
    assert_eq!(r.score, Score::Cp(0), "{:?}", r.pv);
    assert_eq!(r.best.unwrap().to_string(), "g5h5");
}

#[test]
fn a_fixed_depth_search_searches_even_in_book_positions() {
    let (e, rx) = engine();
    let id = e.go(
        &Board::startpos(),
        Limits::depth(3),
        &SearchOptions::default(),
    );
    let mut iterations = 0;
    loop {
        match rx.recv_timeout(Duration::from_secs(30)).unwrap() {
            SearchEvent::Iteration { id: got, .. } if got == id => iterations += 1,
            SearchEvent::BestMove { id: got, book, .. } if got == id => {
                assert_eq!(book, None);
                break;
            }
            _ => {}
        }
    }
    assert!(iterations >= 3);
}

#[test]
fn go_stop_and_new_game_return_while_a_search_is_running() {
    // The event callback blocks until the test opens the gate, so the search thread cannot
    // finish: a facade call that waited for it would hang (caught by the timeout below).
    let (gate_tx, gate_rx) = mpsc::channel::<()>();
    let (tx, rx) = mpsc::channel();
    let e = Engine::new(move |ev| {
        let first_iteration =
            matches!(&ev, SearchEvent::Iteration { id: 1, info } if info.depth == 1);
        let _ = tx.send(ev);
        if first_iteration {
            let _ = gate_rx.recv();
        }
    });
    let board = Board::startpos();
    let old = e.go(&board, Limits::infinite(), &no_book());
    // Wait until the search is stuck in the callback.
    loop {
        if let SearchEvent::Iteration { .. } = rx.recv_timeout(Duration::from_secs(30)).unwrap() {
            break;
        }
    }
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let new = e.go(&board, Limits::depth(2), &no_book());
            e.stop();
            e.new_game();
            let newest = e.go(&board, Limits::depth(2), &no_book());
            done_tx.send((new, newest)).unwrap();
        });
        let (new, newest) = done_rx
            .recv_timeout(Duration::from_secs(20))
            .expect("go, stop and new_game returned while the search was busy");
        assert!(e.is_searching());
        gate_tx.send(()).unwrap();
        // Every search answers, in order, each with its own id.
        let mut answered = Vec::new();
        while answered.len() < 3 {
            if let SearchEvent::BestMove { id, best, .. } =
                rx.recv_timeout(Duration::from_secs(30)).unwrap()
            {
                assert!(board.legal_moves().contains(best.unwrap()));
                answered.push(id);
            }
        }
        assert_eq!(answered, vec![old, new, newest]);
    });
}

/// Singular extensions in `modern`: over the bench positions some hash moves are found
/// singular (some of them by far, extended twice) and some are searched a ply shallower
/// because another move came close; no other scheme extends or shortens a hash move.
#[test]
fn singular_hash_moves_are_extended_once_or_twice_and_shared_ones_shortened_only_in_modern() {
    use ox88::engine::bench;
    use ox88::engine::order::Scheme;
    let modern = bench::report_threads(
        10,
        Scheme::Modern,
        Profile::Full,
        1,
        Default::default(),
        |_| {},
    );
    assert!(modern.singular > 0, "{modern:?}");
    assert!(modern.doubled > 0, "{modern:?}");
    assert!(modern.shortened > 0, "{modern:?}");
    assert!(modern.doubled < modern.singular, "{modern:?}");
    let seed = bench::report_threads(
        8,
        Scheme::Seed,
        Profile::Full,
        1,
        Default::default(),
        |_| {},
    );
    assert!(seed.nodes > 0);
    assert_eq!(
        (seed.singular, seed.doubled, seed.shortened),
        (0, 0, 0),
        "{seed:?}"
    );
}
