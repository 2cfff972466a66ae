//! Puzzles: the miner finds the puzzle a blunder leaves and none in a quiet game, the
//! puzzle file reads what it writes (and never panics on what it is given), and the
//! `ox88 puzzles` commands say what is wrong with a bad file.

use crate::common;

use std::process::Command;

use common::TempDir;
use ox88::game::Game;
use ox88::puzzle::file;
use ox88::puzzle::mine::{MineSettings, Miner};
use ox88::puzzle::{Puzzle, puzzle_id};
use proptest::prelude::*;

/// After 1. e4 e5 2. Nf3, Black to move: 2...Qh4?? leaves the queen to the knight.
const BEFORE_QH4: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";

/// A puzzle file with the lichess header and one row per `(id, moves)` from [`BEFORE_QH4`].
fn puzzle_file(rows: &[(&str, &str)]) -> String {
    let mut text = String::from("PuzzleId,FEN,Moves\n");
    for (id, moves) in rows {
        text += &format!("{id},{BEFORE_QH4},{moves}\n");
    }
    text
}

fn miner() -> Miner {
    Miner::new(MineSettings {
        nodes: 50_000,
        ..MineSettings::default()
    })
}

fn mine(pgn: &str) -> Vec<Puzzle> {
    miner().mine_game(&Game::from_pgn(pgn).expect("a game"), "test#1")
}

#[test]
fn a_hung_queen_becomes_a_one_move_puzzle() {
    // 2...Qh4?? leaves the queen to the knight on f3.
    let found = mine("1. e4 e5 2. Nf3 Qh4 3. Nc3 Nc6 *");
    assert_eq!(found.len(), 1, "{found:?}");
    let p = &found[0];
    assert_eq!(p.moves, ["d8h4", "f3h4"]);
    assert_eq!(p.fen, BEFORE_QH4);
    assert!(
        p.has_theme("hangingPiece") && p.has_theme("crushing"),
        "{p:?}"
    );
    assert!(
        !p.opening_tags.is_empty(),
        "a game from the start names its opening"
    );
    assert_eq!(p.game_url, "test#1");
    p.check().expect("legal");
}

#[test]
fn a_missed_mate_in_one_is_found_though_the_game_went_on() {
    // After 3...Nf6?? Qxf7 mates; White played 4.d3 instead.
    let found = mine("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. d3 Be7 5. Nf3 O-O *");
    let mate = found
        .iter()
        .find(|p| p.moves == ["g8f6", "h5f7"])
        .unwrap_or_else(|| panic!("the mate after 3...Nf6 is missing: {found:?}"));
    assert!(
        mate.has_theme("mateIn1") && mate.has_theme("oneMove"),
        "{mate:?}"
    );
    assert!(found.iter().all(|p| p.has_theme("mate")), "{found:?}");
}

#[test]
fn a_quiet_well_played_game_has_no_puzzle() {
    let found = mine(
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O \
         9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 1/2-1/2",
    );
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn the_stats_count_what_the_miner_did() {
    let mut m = miner();
    let g = Game::from_pgn("1. e4 e5 2. Nf3 Qh4 3. Nc3 *").unwrap();
    let found = m.mine_game(&g, "x");
    let s = m.stats();
    assert_eq!(s.games, 1);
    assert_eq!(s.positions, 6);
    assert!(s.candidates >= 1 && s.found >= found.len() as u64);
}

#[test]
fn a_mistake_of_the_player_becomes_their_own_puzzle() {
    use ox88::engine::jobs::{ReviewJob, ReviewSettings};
    use ox88::game::annotate::{Review, review_positions};
    // White's 4.d3? missed Qxf7 mate.
    let game = Game::from_pgn("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. d3 Be7 5. Nf3 O-O *").unwrap();
    let job = ReviewJob::start(review_positions(&game), ReviewSettings::depth(8), |_| {}).unwrap();
    let review = Review::from_analysis(&game, &job.wait().positions);
    let own = miner().own_puzzles(&game, &review, ox88::chess::Color::White, "own#1");
    let p = own
        .iter()
        .find(|p| p.moves == ["g8f6", "h5f7"])
        .unwrap_or_else(|| panic!("the missed mate is not among {own:?}"));
    assert_eq!(
        p.fen,
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3"
    );
    assert!(p.has_theme("mateIn1"), "{p:?}");
    // Only White's own moves become White's puzzles.
    for p in &own {
        let c = p.check().unwrap();
        assert_eq!(c.solver_start().side_to_move(), ox88::chess::Color::White);
    }
}

fn arb_puzzle() -> impl Strategy<Value = Puzzle> {
    (
        prop::collection::vec("[a-h][1-8][a-h][1-8]", 2..8),
        0u32..4000,
        0u32..1000,
        -100i32..=100,
        prop::collection::vec("[a-zA-Z0-9]{1,12}", 0..5),
        "[ -~]{0,40}",
    )
        .prop_map(|(moves, rating, rd, pop, themes, url)| {
            let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1".to_string();
            Puzzle {
                id: puzzle_id(&fen, &moves),
                fen,
                moves,
                rating,
                rating_deviation: rd,
                popularity: pop,
                plays: rating,
                themes,
                game_url: url.trim().to_string(),
                opening_tags: vec![],
            }
        })
}

proptest! {
    #[test]
    fn the_file_reads_back_what_it_writes(puzzles in prop::collection::vec(arb_puzzle(), 0..6)) {
        let mut out = Vec::new();
        file::write(&mut out, &puzzles).unwrap();
        let back = file::read(&String::from_utf8(out).unwrap()).unwrap();
        prop_assert_eq!(back, puzzles);
    }

    #[test]
    fn any_text_is_read_or_refused_without_a_panic(text in "\\PC{0,300}") {
        let _ = file::read(&text);
        let with_header = format!("{}\n{text}", file::HEADER.join(","));
        if let Ok(puzzles) = file::read(&with_header) {
            for p in puzzles {
                let _ = p.check();
            }
        }
    }
}

fn ox88(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(args)
        .output()
        .expect("ox88 runs")
}

/// The command failed, naming the output it cannot write (a file in `no-such-dir`).
fn refused_for_its_output(out: &std::process::Output) {
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot write") && stderr.contains("no-such-dir"),
        "{stderr}"
    );
}

#[test]
fn checking_a_file_names_the_puzzle_with_an_illegal_move() {
    let dir = TempDir::new("puzzle-check");
    let path = dir.path().join("p.csv");
    std::fs::write(
        &path,
        puzzle_file(&[("Good1", "d8h4 f3h4"), ("Bad22", "d8h4 f3h5")]),
    )
    .unwrap();
    let out = ox88(&["puzzles", "check", path.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success());
    assert!(
        stderr.contains("puzzle Bad22: move 2 (f3h5) is not legal"),
        "{stderr}"
    );
    assert!(
        stdout.contains("2 puzzles, 1 with illegal moves"),
        "{stdout}"
    );
    let out = ox88(&[
        "puzzles",
        "mine",
        dir.path().join("none.pgn").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn verifying_a_file_keeps_the_unique_puzzles_and_drops_the_rest() {
    let dir = TempDir::new("puzzle-verify");
    let path = dir.path().join("p.csv");
    let kept = dir.path().join("kept.csv");
    // After 2...Qh4?? Nxh4 wins the queen; Nc3 instead leaves a pawn up at best.
    std::fs::write(
        &path,
        puzzle_file(&[("Queen", "d8h4 f3h4"), ("Quiet", "d8h4 b1c3")]),
    )
    .unwrap();
    let file_arg = path.to_str().unwrap();
    let out = ox88(&[
        "puzzles", "check", file_arg, "--verify", "40000", "--sample", "0",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stdout.contains("Quiet: another move comes within 1.5 pawns"),
        "{stdout}"
    );
    assert!(!stdout.contains("Queen:"), "{stdout}");
    assert!(stdout.contains("1 still unique (50.0%)"), "{stdout}");
    for strict in [false, true] {
        let mut args = vec![
            "puzzles",
            "check",
            file_arg,
            "--verify",
            "40000",
            "--sample",
            "0",
            "--jobs",
            "2",
            "--keep",
            kept.to_str().unwrap(),
        ];
        if strict {
            args.push("--strict");
        }
        let out = ox88(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let kept = file::read(&std::fs::read_to_string(&kept).unwrap()).unwrap();
        let ids: Vec<&str> = kept.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["Queen"], "strict: {strict}");
    }
    // A file it cannot write is named, and nothing is half-written elsewhere.
    let nowhere = dir.path().join("no-such-dir").join("kept.csv");
    let out = ox88(&[
        "puzzles",
        "check",
        file_arg,
        "--verify",
        "2000",
        "--sample",
        "0",
        "--keep",
        nowhere.to_str().unwrap(),
    ]);
    refused_for_its_output(&out);
}

/// The must-hold for the shipped set: a random sample, searched again on a fresh engine at
/// 32 times the budget that found it (twice the deepest search the set was built with),
/// keeps its solutions unique: at least 198 of 200 (99%), since a deeper search now and
/// then brings a second move just within the 1.5 pawns. Minutes of search:
/// `cargo test --release --test game puzzles:: -- --ignored`.
#[test]
#[ignore]
fn a_sample_of_the_shipped_set_stays_unique_on_a_deeper_search() {
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let out = ox88(&[
        "puzzles",
        "check",
        "--verify",
        "2560000",
        "--sample",
        "200",
        "--seed",
        "7",
        "--jobs",
        &jobs.to_string(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    println!("{stdout}");
    let unique: usize = stdout
        .split("verified 200 at 2560000 nodes on a fresh engine: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no verdict: {stdout}"));
    assert!(unique >= 198, "{unique} of 200 still unique: {stdout}");
}

#[test]
fn mining_writes_the_csv_with_lichess_columns() {
    let dir = TempDir::new("puzzle-mine");
    let pgn = dir.path().join("g.pgn");
    let csv = dir.path().join("p.csv");
    std::fs::write(&pgn, "1. e4 e5 2. Nf3 Qh4 3. Nc3 Nc6 *\n").unwrap();
    let out = ox88(&[
        "puzzles",
        "mine",
        pgn.to_str().unwrap(),
        "--nodes",
        "50000",
        "--out",
        csv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with(&file::HEADER.join(",")), "{text}");
    let puzzles = file::read(&text).unwrap();
    assert_eq!(puzzles.len(), 1);
    assert_eq!(puzzles[0].moves, ["d8h4", "f3h4"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mined 1 puzzles from 1 games"), "{stderr}");
}

#[test]
fn every_shipped_puzzle_is_legal_ends_on_the_solvers_move_and_has_themes() {
    let set = ox88::puzzle::shipped();
    assert!(
        set.len() >= 1000,
        "the shipped set has {} puzzles",
        set.len()
    );
    // Spread over ratings (every band 200 wide from 600 to 2400 holds some) and themes.
    for band in (600..2400).step_by(200) {
        let n = set
            .iter()
            .filter(|p| (band..band + 200).contains(&p.rating))
            .count();
        assert!(n >= 10, "{n} puzzles rated {band}-{}", band + 199);
    }
    for theme in [
        "fork",
        "mate",
        "hangingPiece",
        "sacrifice",
        "endgame",
        "opening",
    ] {
        assert!(set.iter().any(|p| p.has_theme(theme)), "no {theme} puzzle");
    }
    let mut ids = std::collections::HashSet::new();
    for p in &set {
        let c = p.check().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(c.moves.len() % 2, 0, "{}", p.id);
        assert!(!p.themes.is_empty(), "{}", p.id);
        assert!((400..=2600).contains(&p.rating), "{}: {}", p.id, p.rating);
        assert!(ids.insert(p.id.clone()), "{} twice", p.id);
    }
    // `ox88 puzzles export` prints exactly the shipped set.
    let out = ox88(&["puzzles", "export"]);
    assert!(out.status.success());
    assert_eq!(
        file::read(&String::from_utf8(out.stdout).unwrap()).unwrap(),
        set
    );
}

#[test]
fn rating_a_file_again_gives_the_shipped_ratings() {
    let set = ox88::puzzle::shipped();
    // Thirty puzzles from the easiest to the hardest, and one that cannot be played.
    let mut sample: Vec<Puzzle> = set.iter().step_by(set.len() / 30).cloned().collect();
    let mut bad = sample[0].clone();
    bad.id = "Bad22".into();
    bad.moves = vec!["a1a1".into(), "e2e4".into()];
    bad.rating = 1234;
    sample.push(bad);
    let dir = TempDir::new("puzzle-rate");
    let (path, out_path) = (dir.path().join("p.csv"), dir.path().join("rated.csv"));
    let mut text = Vec::new();
    file::write(&mut text, &sample).unwrap();
    std::fs::write(&path, text).unwrap();
    let rate = |extra: &[&str]| {
        let mut args = vec![
            "puzzles",
            "rate",
            path.to_str().unwrap(),
            "--jobs",
            "2",
            "--out",
            out_path.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let out = ox88(&args);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{stderr}");
        assert!(
            stderr.contains("rated 30 puzzles (1 with illegal moves kept as they were)"),
            "{stderr}"
        );
        file::read(&std::fs::read_to_string(&out_path).unwrap()).unwrap()
    };
    let rated = rate(&[]);
    assert_eq!(rated.len(), sample.len());
    for (before, after) in sample.iter().zip(&rated) {
        assert_eq!(before.id, after.id);
        assert_eq!(before.rating, after.rating, "{}", before.id);
    }
    // The ladder alone runs below and narrower than the ratings calibrated to players'.
    let ladder = rate(&["--ladder"]);
    let spread = |ps: &[Puzzle]| {
        let r: Vec<u32> = ps[..30].iter().map(|p| p.rating).collect();
        r.iter().max().unwrap() - r.iter().min().unwrap()
    };
    assert!(
        ladder[..30]
            .iter()
            .all(|p| (600..=2400).contains(&p.rating))
    );
    assert!(spread(&ladder) < spread(&rated));
    assert_eq!(ladder[30].rating, 1234);
    // An output it cannot write is named before any rating is done.
    let nowhere = dir.path().join("no-such-dir").join("rated.csv");
    let out = ox88(&[
        "puzzles",
        "rate",
        path.to_str().unwrap(),
        "--out",
        nowhere.to_str().unwrap(),
    ]);
    refused_for_its_output(&out);
}

/// A player's record written against the set shipped before this one still holds: a puzzle
/// id names the puzzle's position and moves, so a puzzle kept keeps its id and the rating
/// the player's results gave it; a puzzle no longer shipped stays in the history without
/// being served; and the record goes on saving, loading and serving.
#[test]
fn a_record_made_on_the_previous_set_stays_valid() {
    use ox88::puzzle::progress::{Choice, Progress};
    let set = ox88::puzzle::shipped();
    // Every id is the one its position and moves give: a record's ids keep their puzzles.
    for p in &set {
        assert_eq!(p.id, puzzle_id(&p.fen, &p.moves), "{}", p.id);
    }
    // One puzzle the previous set had and this one keeps, and two it left out.
    let kept = set
        .iter()
        .find(|p| p.id == "olDrd")
        .expect("olDrd is still shipped");
    let gone = ["HjtQD", "lihx8"];
    assert!(set.iter().all(|p| !gone.contains(&p.id.as_str())));
    let mut me = Progress::default();
    me.record(kept, true, "2026-11-01");
    let stale = Puzzle {
        id: gone[0].to_string(),
        ..kept.clone()
    };
    me.record(&stale, false, "2026-11-02");
    let moved = me.puzzle_rating(kept);
    let dir = TempDir::new("puzzle-record");
    let path = dir.path().join("puzzles.json");
    me.save(&path).unwrap();
    let mut back = Progress::load(&path).unwrap();
    assert_eq!(back, me);
    assert_eq!(back.puzzle_rating(kept), moved);
    // Served from the new set only, and not the puzzle just played.
    for seed in 0..50 {
        let p = back
            .pick(&set, &Choice::Any, seed)
            .expect("a puzzle to serve");
        assert!(set.iter().any(|q| q.id == p.id));
        assert_ne!(p.id, kept.id);
    }
    let next = back
        .pick(&set, &Choice::Theme("mateIn2".into()), 1)
        .unwrap();
    back.record(&next, true, "2026-11-03");
    assert_eq!(back.history.len(), 3);
    assert!(
        back.summary()[1].starts_with("3 played, 2 solved"),
        "{:?}",
        back.summary()
    );
}

/// What the set holds beyond taking a free piece: at least 40% ask two or more of the
/// solver's moves, at least 100 are mates in two or more, and the tactical themes are spread.
#[test]
fn the_shipped_set_asks_for_more_than_one_move_and_holds_longer_mates() {
    let set = ox88::puzzle::shipped();
    let long = set.iter().filter(|p| p.moves.len() >= 4).count();
    assert!(
        long * 10 >= set.len() * 4,
        "{long} of {} ask two moves or more",
        set.len()
    );
    let mates = set
        .iter()
        .filter(|p| {
            ["mateIn2", "mateIn3", "mateIn4", "mateIn5"]
                .iter()
                .any(|t| p.has_theme(t))
        })
        .count();
    assert!(mates >= 100, "{mates} mates in two or more");
    for theme in [
        "fork",
        "pin",
        "skewer",
        "discoveredAttack",
        "sacrifice",
        "endgame",
    ] {
        let n = set.iter().filter(|p| p.has_theme(theme)).count();
        assert!(n >= 10, "{n} puzzles with {theme}");
    }
}
