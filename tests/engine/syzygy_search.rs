//! The Syzygy tables inside the search: WDL probes in the tree change what the search
//! finds where it cannot see the result itself, the root's score is the tables' when they
//! cover it, the options turn probing off, threads share one set of tables, and a
//! tablebase win is never a mate.
//!
//! The tables come from `scripts/get-syzygy.sh`: the directory in `OX88_SYZYGY`, else
//! `target/syzygy`. Without them each test prints a note and passes.

use crate::common;

use std::sync::Arc;

use ox88::chess::Board;
use ox88::engine::score::TB_BOUND;
use ox88::engine::search::{SearchResult, Searcher};
use ox88::engine::syzygy::{SyzygyOptions, Tablebases, Wdl};
use ox88::engine::{Limits, Score, SearchEvent, SearchOptions};

fn tables() -> Option<Arc<Tablebases>> {
    let dir = common::syzygy_dir()?;
    Some(Arc::new(Tablebases::open(&dir).expect("the tables open")))
}

fn options(tables: Option<Arc<Tablebases>>) -> SearchOptions {
    SearchOptions {
        own_book: false,
        syzygy: SyzygyOptions {
            tables,
            ..SyzygyOptions::default()
        },
        ..SearchOptions::default()
    }
}

fn search(fen: &str, limits: &Limits, options: &SearchOptions) -> (SearchResult, Vec<String>) {
    let board = Board::from_fen(fen).expect("test FEN");
    let mut messages = Vec::new();
    let r = Searcher::standalone().search_sync(&board, limits, options, &mut |e| {
        if let SearchEvent::Message { text, .. } = e {
            messages.push(text);
        }
    });
    (r, messages)
}

fn moves(fen: &str, uci: &[&str]) -> Vec<ox88::chess::Move> {
    let b = Board::from_fen(fen).unwrap();
    uci.iter().map(|m| b.parse_uci_move(m).unwrap()).collect()
}

/// Five men, beyond the 3- and 4-man tables: the root is not probed, only the tree. Rd1xd4
/// leaves king and two rooks against a king, which the tables know is won; three plies of
/// search see only the material.
const KRR_V_KN: &str = "7k/8/8/8/3n4/8/8/3RR1K1 w - - 0 1";

#[test]
fn a_capture_into_a_won_ending_scores_as_a_tablebase_win_only_with_the_tables() {
    let Some(tb) = tables() else { return };
    let limits = Limits::depth(3);
    let (with, _) = search(KRR_V_KN, &limits, &options(Some(tb)));
    assert_eq!(with.score.tablebase(), Some(true), "{:?}", with.score);
    assert_eq!(with.best.unwrap().to_string(), "d1d4");
    assert!(with.stats.tb_hits > 0);
    assert_eq!(with.score.to_string(), "+TB");
    let (without, _) = search(KRR_V_KN, &limits, &options(None));
    assert_eq!(without.score.tablebase(), None, "{:?}", without.score);
    assert!(matches!(without.score, Score::Cp(c) if c < TB_BOUND));
    assert_eq!(without.stats.tb_hits, 0);
}

/// Five men: Qd8xd4+ leaves queen against a bishop's pawn on its second rank with its
/// king beside it and White's king far away, a draw the evaluation does not see (it counts
/// a queen against a pawn).
const QUEEN_V_C_PAWN: &str = "3Q4/7K/8/8/3n4/8/1kp5/8 w - - 0 1";

#[test]
fn a_capture_into_a_drawn_ending_scores_as_a_draw_only_with_the_tables() {
    let Some(tb) = tables() else { return };
    let mut after = Board::from_fen(QUEEN_V_C_PAWN).unwrap();
    after.make(moves(QUEEN_V_C_PAWN, &["d8d4"])[0]);
    assert_eq!(tb.probe_wdl(&after).unwrap(), Some(Wdl::Draw));
    let limits = Limits {
        searchmoves: moves(QUEEN_V_C_PAWN, &["d8d4"]),
        ..Limits::depth(4)
    };
    let (with, _) = search(QUEEN_V_C_PAWN, &limits, &options(Some(tb)));
    assert_eq!(with.score, Score::Cp(0));
    let (without, _) = search(QUEEN_V_C_PAWN, &limits, &options(None));
    assert!(without.score.as_ordinal() > 100, "{:?}", without.score);
}

#[test]
fn a_probe_limit_of_zero_or_a_probe_depth_beyond_the_search_probes_nothing() {
    let Some(tb) = tables() else { return };
    let limits = Limits::depth(3);
    for (limit, depth) in [(0, 1), (7, 100), (3, 1)] {
        let mut o = options(Some(Arc::clone(&tb)));
        o.syzygy.probe_limit = limit;
        o.syzygy.probe_depth = depth;
        let (r, _) = search(KRR_V_KN, &limits, &o);
        assert_eq!(r.stats.tb_hits, 0, "limit {limit} depth {depth}");
        assert_eq!(r.score.tablebase(), None, "limit {limit} depth {depth}");
    }
}

#[test]
fn a_root_the_tables_cover_reports_their_result_and_is_never_a_mate() {
    let Some(tb) = tables() else { return };
    // K+R v K far from any mate the search could see: a tablebase win, not a mate and not
    // a plain material score. The fifty-move counter is not zero: the tree probes nothing.
    let krk = "8/8/8/4k3/8/8/8/R3K3 w - - 7 40";
    for threads in [1, 2] {
        let mut o = options(Some(Arc::clone(&tb)));
        o.threads = threads;
        let (r, messages) = search(krk, &Limits::depth(6), &o);
        assert_eq!(r.score.tablebase(), Some(true), "{:?}", r.score);
        assert!(!matches!(r.score, Score::Mate(_)));
        assert!(
            messages.iter().any(|m| m.starts_with("tablebase: win")),
            "{messages:?}"
        );
        assert!(r.stats.tb_hits > 0);
    }
    // The same position without tables: a material score.
    let (r, _) = search(krk, &Limits::depth(6), &options(None));
    assert_eq!(r.score.tablebase(), None, "{:?}", r.score);
    // A drawn rook ending: a draw whatever the search's material count says, and the
    // move played keeps it drawn.
    let krvkr = "8/8/3k4/8/8/3K4/7r/R7 w - - 0 1";
    let board = Board::from_fen(krvkr).unwrap();
    assert_eq!(tb.probe_wdl(&board).unwrap(), Some(Wdl::Draw));
    let (r, _) = search(krvkr, &Limits::depth(6), &options(Some(Arc::clone(&tb))));
    assert_eq!(r.score, Score::Cp(0));
    let mut after = board.clone();
    after.make(r.best.unwrap());
    assert_eq!(tb.probe_wdl(&after).unwrap(), Some(Wdl::Draw));
}

#[test]
fn a_root_win_that_the_fifty_move_counter_cannot_reach_is_reported_as_a_draw() {
    let Some(tb) = tables() else { return };
    let fresh = "8/8/8/4k3/8/8/8/R3K3 w - - 0 40";
    let late = "8/8/8/4k3/8/8/8/R3K3 w - - 95 40";
    let (r, _) = search(fresh, &Limits::depth(6), &options(Some(Arc::clone(&tb))));
    assert_eq!(r.score.tablebase(), Some(true), "{:?}", r.score);
    // Ninety-five plies without a capture or pawn move already: no mate in time.
    let (r, messages) = search(late, &Limits::depth(6), &options(Some(Arc::clone(&tb))));
    assert_eq!(r.score.tablebase(), None, "{:?}", r.score);
    assert!(r.score.as_ordinal().abs() <= 1, "{:?}", r.score);
    assert!(
        messages
            .iter()
            .any(|m| m.starts_with("tablebase: cursed win")),
        "{messages:?}"
    );
}

#[test]
fn the_search_threads_share_one_set_of_tables_and_agree_with_one_thread() {
    let Some(tb) = tables() else { return };
    let limits = Limits::depth(5);
    let mut o = options(Some(Arc::clone(&tb)));
    o.threads = 4;
    let (r, _) = search(KRR_V_KN, &limits, &o);
    assert_eq!(r.score.tablebase(), Some(true), "{:?}", r.score);
    // Probes from several threads at once give what one thread gets.
    let fens = [
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/3k4/8/8/3K4/r7/R7 w - - 0 1",
        "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1",
        "8/8/8/8/8/2k5/6P1/4K3 w - - 0 1",
        "8/8/8/3k4/8/8/2K5/Q6q w - - 0 1",
    ];
    let boards: Vec<Board> = fens.iter().map(|f| Board::from_fen(f).unwrap()).collect();
    let alone: Vec<_> = boards.iter().map(|b| tb.probe_dtz(b).unwrap()).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (tb, boards) = (Arc::clone(&tb), &boards);
                s.spawn(move || {
                    (0..50)
                        .map(|_| boards.iter().map(|b| tb.probe_dtz(b).unwrap()).collect())
                        .collect::<Vec<Vec<_>>>()
                })
            })
            .collect();
        for h in handles {
            for round in h.join().unwrap() {
                assert_eq!(round, alone);
            }
        }
    });
    let (hits, _, capacity) = tb.cache_counts();
    assert!(hits > 0, "repeated probes read from the block cache");
    assert!(capacity <= 64 << 20);
}
