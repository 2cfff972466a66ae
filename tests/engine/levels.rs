//! Playing levels: parsing, the pure chooser and the driver on real positions.

use std::collections::HashSet;
use std::time::Duration;

use ox88::chess::{Board, Color, Move};
use ox88::engine::levels::{
    self, Candidate, Level, LevelError, Reason, Rng, choose, think, think_time,
};
use ox88::engine::search::Searcher;
use ox88::engine::{Limits, Score, SearchOptions};

use crate::common;
use common::uci::{ANSWER, Uci};

fn mv(board: &Board, text: &str) -> Move {
    board.parse_uci_move(text).expect("legal test move")
}

#[test]
fn names_and_elo_numbers_parse() {
    assert_eq!("beginner".parse::<Level>(), Ok(Level::Elo(800)));
    assert_eq!(" Club ".parse::<Level>(), Ok(Level::Elo(1600)));
    assert_eq!("max".parse::<Level>(), Ok(Level::Max));
    assert_eq!("1750".parse::<Level>(), Ok(Level::Elo(1750)));
    assert_eq!("2800".parse::<Level>(), Ok(Level::Elo(2800)));
    assert_eq!(Level::Elo(1600).to_string(), "club");
    assert_eq!(Level::Elo(1750).to_string(), "1750");
    assert_eq!(Level::Max.to_string(), "max");
}

#[test]
fn bad_levels_say_what_is_allowed() {
    assert_eq!("799".parse::<Level>(), Err(LevelError::OutOfRange(799)));
    assert_eq!("3000".parse::<Level>(), Err(LevelError::OutOfRange(3000)));
    assert_eq!("-5".parse::<Level>(), Err(LevelError::OutOfRange(-5)));
    assert!(matches!(
        "99999999999999999999999".parse::<Level>(),
        Err(LevelError::OutOfRange(_))
    ));
    assert_eq!("".parse::<Level>(), Err(LevelError::Empty));
    let err = "grandmaster".parse::<Level>().unwrap_err();
    assert_eq!(err, LevelError::Unknown("grandmaster".into()));
    let text = err.to_string();
    assert!(text.contains("beginner") && text.contains("800") && text.contains("2800"));
    assert!(
        LevelError::OutOfRange(3000)
            .to_string()
            .contains("800 to 2800")
    );
    assert_eq!(Level::elo(700), Err(LevelError::OutOfRange(700)));
}

fn start_candidates() -> Vec<Candidate> {
    let b = Board::startpos();
    [
        ("e2e4", 30),
        ("d2d4", 28),
        ("g1f3", 22),
        ("c2c4", 20),
        ("b1c3", 5),
        ("g2g4", -60),
    ]
    .iter()
    .map(|(m, cp)| Candidate {
        mv: mv(&b, m),
        score: Score::Cp(*cp),
    })
    .collect()
}

#[test]
fn the_chooser_is_deterministic_for_a_seed_and_stays_among_the_candidates() {
    let cands = start_candidates();
    let play = Level::Elo(800).play();
    for seed in 0..50 {
        let a = choose(&play, &cands, &mut Rng::new(seed)).unwrap();
        let b = choose(&play, &cands, &mut Rng::new(seed)).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.mv, cands[a.index].mv);
        let total: f64 = a.weighed.iter().map(|w| w.probability).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
    assert_eq!(choose(&play, &[], &mut Rng::new(1)), None);
}

#[test]
fn low_levels_vary_across_seeds_and_max_never_does() {
    let cands = start_candidates();
    let picks = |level: Level| -> HashSet<usize> {
        (0..40)
            .map(|s| {
                choose(&level.play(), &cands, &mut Rng::new(s))
                    .unwrap()
                    .index
            })
            .collect()
    };
    assert!(picks(Level::Elo(800)).len() >= 3);
    assert_eq!(picks(Level::Max), HashSet::from([0]));
}

#[test]
fn a_bad_move_is_rarer_than_a_good_one_and_rarer_still_at_a_higher_level() {
    let cands = start_candidates();
    let chance = |level: Level, i: usize| -> f64 {
        let mut rng = Rng::new(3);
        let play = level.play();
        (0..400)
            .map(|_| choose(&play, &cands, &mut rng).unwrap().weighed[i].probability)
            .sum::<f64>()
            / 400.0
    };
    // g2g4 (index 5) is 90 cp worse than e2e4.
    assert!(chance(Level::Elo(800), 5) < chance(Level::Elo(800), 0));
    assert!(chance(Level::Elo(2000), 5) < chance(Level::Elo(800), 5));
    assert!(chance(Level::Elo(2000), 0) > chance(Level::Elo(800), 0));
}

#[test]
fn a_mate_in_one_among_the_candidates_is_taken_above_the_lowest_level() {
    let b = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
    let cands = vec![
        Candidate {
            mv: mv(&b, "a1a7"),
            score: Score::Cp(40),
        },
        Candidate {
            mv: mv(&b, "g1f1"),
            score: Score::Cp(35),
        },
        Candidate {
            mv: mv(&b, "a1a8"),
            score: Score::Mate(1),
        },
    ];
    for seed in 0..30 {
        let c = choose(&Level::Elo(801).play(), &cands, &mut Rng::new(seed)).unwrap();
        assert_eq!((c.index, c.reason), (2, Reason::MateInOne));
    }
}

#[test]
fn the_driver_finds_and_plays_a_mate_in_one_at_a_fixed_seed() {
    let b = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
    let mut s = Searcher::standalone();
    let r = think(
        &mut s,
        &b,
        Level::Elo(1200),
        &Limits::default(),
        &SearchOptions::default(),
        &mut Rng::new(42),
    );
    assert!(r.candidates.iter().any(|c| c.score == Score::Mate(1)));
    assert_eq!(r.best(), Some(mv(&b, "a1a8")));
}

#[test]
fn the_driver_plays_a_legal_move_within_its_budget_and_repeats_itself_per_seed() {
    let b = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        .unwrap();
    let legal: Vec<Move> = b.legal_moves().iter().copied().collect();
    let run = |level: Level, seed: u64| {
        think(
            &mut Searcher::standalone(),
            &b,
            level,
            &Limits::default(),
            &SearchOptions::default(),
            &mut Rng::new(seed),
        )
    };
    for level in [Level::Elo(800), Level::Elo(1600)] {
        let a = run(level, 9);
        let again = run(level, 9);
        let m = a.best().unwrap();
        assert!(legal.contains(&m));
        assert!(a.candidates.iter().any(|c| c.mv == m));
        assert_eq!(a.candidates.len() as u32, level.play().multipv);
        assert_eq!(
            (a.best(), a.nodes, &a.candidates),
            (again.best(), again.nodes, &again.candidates)
        );
        // The node check runs between nodes, so a search may pass its budget by a little.
        assert!(a.nodes <= level.play().nodes.unwrap() + 2_000);
        assert!(a.think >= Duration::from_millis(level.play().think_ms / 2));
    }
}

#[test]
fn no_legal_move_means_no_choice() {
    let mated = Board::from_fen("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1").unwrap();
    let r = think(
        &mut Searcher::standalone(),
        &mated,
        Level::Elo(1200),
        &Limits::default(),
        &SearchOptions::default(),
        &mut Rng::new(1),
    );
    assert_eq!(r.best(), None);
    assert!(r.candidates.is_empty());
}

#[test]
fn think_time_respects_the_clock_and_is_never_instant_at_low_levels() {
    let play = Level::Elo(800).play();
    let mut rng = Rng::new(5);
    let free = think_time(&play, &Limits::default(), Color::White, &mut rng);
    assert!(free >= Duration::from_millis(play.think_ms / 2));
    let tight = Limits {
        wtime: Some(Duration::from_millis(2_000)),
        winc: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    for _ in 0..20 {
        let t = think_time(&play, &tight, Color::White, &mut rng);
        assert!(t <= Duration::from_millis(2_000 / 40 + 75));
    }
    assert_eq!(
        think_time(&Level::Max.play(), &tight, Color::White, &mut rng),
        Duration::ZERO
    );
}

#[test]
fn the_level_budget_stays_inside_the_callers_limits() {
    let play = Level::Elo(2000).play();
    let l = levels::level_limits(&play, &Limits::depth(3));
    assert_eq!(l.depth, Some(3));
    assert_eq!(l.nodes, play.nodes);
    let max = levels::level_limits(&Level::Max.play(), &Limits::infinite());
    assert!(!max.infinite);
    assert_eq!(max.depth, Some(10));
}

#[test]
fn the_driver_varies_its_move_across_seeds_at_a_low_level() {
    let b = Board::startpos();
    let moves: HashSet<Move> = (0..8)
        .map(|seed| {
            think(
                &mut Searcher::standalone(),
                &b,
                Level::Elo(800),
                &Limits::default(),
                &SearchOptions::default(),
                &mut Rng::new(seed),
            )
            .best()
            .unwrap()
        })
        .collect();
    assert!(moves.len() >= 2, "{moves:?}");
}

/// A calibration match's engine (scripts/levels_match.py): `ox88 uci` at a low
/// `UCI_Elo`, on a clock. An Elo below the range is refused with a message and the level in
/// force stays; the move answered is legal.
#[test]
fn uci_at_a_low_elo_answers_with_a_legal_move_and_keeps_a_bad_elo_out() {
    let mut uci = Uci::start();
    uci.handshake();
    // The level driver's own move, not the book's.
    uci.expect_ok("setoption name OwnBook value false");
    uci.expect_ok("setoption name UCI_LimitStrength value true");
    uci.expect_ok("setoption name UCI_Elo value 800");
    let error = uci.expect_error("setoption name UCI_Elo value 90");
    assert_eq!(
        error,
        "info string error: UCI_Elo: 90 is out of range (800 to 2800)"
    );
    uci.expect_ok("position startpos moves e2e4");
    uci.send("go wtime 1000 btime 1000");
    let (lines, best) = uci.bestmove(ANSWER);
    // The level still in force is 800 (beginner), not the refused 90.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string level beginner plays ")),
        "no level report: {lines:?}"
    );
    let mut b = Board::startpos();
    b.make(mv(&b, "e2e4"));
    assert!(b.parse_uci_move(&best).is_ok(), "{best}");
    uci.send("quit");
    assert!(uci.wait_exit(ANSWER).success());
}

/// A measurement, not a check: how much each level's moves lose against a fixed reference
/// search (depth 6, full strength), over the first 60 openings of tests/data/openings500.epd.
/// `cargo test --release --test engine levels:: -- --ignored --nocapture level_loss_table`
#[test]
#[ignore]
fn level_loss_table() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/openings500.epd"
    ))
    .unwrap();
    let boards: Vec<Board> = text
        .lines()
        .take(60)
        .map(|l| {
            let fen: Vec<&str> = l.split_whitespace().take(4).collect();
            Board::from_fen(&format!("{} 0 1", fen.join(" "))).unwrap()
        })
        .collect();
    let options = SearchOptions {
        own_book: false,
        ..SearchOptions::default()
    };
    let mut reference = Searcher::standalone();
    let score_of = |s: &mut Searcher, b: &Board, only: Vec<Move>| {
        let limits = Limits {
            depth: Some(6),
            searchmoves: only,
            ..Limits::default()
        };
        s.search_sync(b, &limits, &options, &mut |_| {})
            .score
            .as_ordinal()
    };
    let best: Vec<i32> = boards
        .iter()
        .map(|b| score_of(&mut reference, b, Vec::new()))
        .collect();
    println!("| level | mean loss cp | moves losing 100+ cp | mean nodes |");
    for level in ["beginner", "casual", "club", "expert", "master", "max"] {
        let lv: Level = level.parse().unwrap();
        let (mut loss, mut big, mut nodes) = (0i64, 0, 0u64);
        for (i, b) in boards.iter().enumerate() {
            let r = think(
                &mut Searcher::standalone(),
                b,
                lv,
                &Limits::depth(8),
                &options,
                &mut Rng::new(i as u64),
            );
            let m = r.best().unwrap();
            let l = (best[i] - score_of(&mut reference, b, vec![m])).clamp(0, 1000) as i64;
            loss += l;
            big += (l >= 100) as u32;
            nodes += r.nodes;
        }
        let n = boards.len() as i64;
        println!(
            "| {level} | {} | {big}/{n} | {} |",
            loss / n,
            nodes / n as u64
        );
    }
}
