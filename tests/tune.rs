//! The Texel tuner (issue 15): its fit is reproducible, its trace is the evaluation, its
//! data parser refuses bad lines with the line's number.

use ox88::chess::Board;
use ox88::engine::eval::trace::{self, N_WEIGHTS};
use ox88::engine::eval::{EvalConfig, evaluate_white};
use ox88::tune::data;
use ox88::tune::fit::{self, Dataset, Settings};
use proptest::prelude::*;

const SAMPLE: &str = include_str!("data/tune_sample.epd");
/// What `ox88 tune tests/data/tune_sample.epd --iterations 100 --lambda 1e-6 --out
/// tests/data/tune_sample_expected.rs.txt` writes (regenerate it when the committed weights
/// change: the fit starts from them).
const EXPECTED: &str = include_str!("data/tune_sample_expected.rs.txt");

fn sample_settings() -> Settings {
    Settings {
        iterations: 100,
        rate: 1.0,
        lambda: 1e-6,
        frozen: Vec::new(),
    }
}

#[test]
fn the_sample_fit_reproduces_the_committed_result() {
    let positions = data::parse(SAMPLE).expect("the sample parses");
    assert_eq!(positions.len(), 2000);
    let ds = Dataset::new(&positions);
    let settings = sample_settings();
    let fitted = fit::fit(&ds, None, &trace::current(), &settings, |_, _| {}).unwrap();
    assert!(
        fitted.error_after < fitted.error_before,
        "{} → {}",
        fitted.error_before,
        fitted.error_after
    );
    assert!(fitted.error_rounded < fitted.error_before);
    let header = fit::header(&fitted, "tune_sample.epd", ds.len(), &settings);
    let text = trace::write_weights(&fitted.weights, &header);
    assert!(
        text == EXPECTED,
        "the fit of the sample differs from tests/data/tune_sample_expected.rs.txt:\n{header}"
    );
}

#[test]
fn frozen_groups_stay_and_unknown_names_are_refused() {
    let positions = data::parse(SAMPLE).unwrap();
    let ds = Dataset::new(&positions[..400]);
    let start = trace::current();
    let settings = Settings {
        iterations: 20,
        rate: 1.0,
        lambda: 0.0,
        frozen: vec!["MATERIAL".into(), "pst_king".into()],
    };
    let fitted = fit::fit(&ds, None, &start, &settings, |_, _| {}).unwrap();
    let king = trace::offset(6);
    assert_eq!(fitted.weights[..6], start[..6]);
    assert_eq!(fitted.weights[king..king + 64], start[king..king + 64]);
    assert_ne!(fitted.weights, start, "the other weights moved");
    let bad = Settings {
        frozen: vec!["MATERIALS".into()],
        ..settings
    };
    let err = fit::fit(&ds, None, &start, &bad, |_, _| {}).unwrap_err();
    assert!(err.contains("'MATERIALS'"), "{err}");
}

#[test]
fn k_fit_is_deterministic_and_lowers_the_error() {
    let positions = data::parse(SAMPLE).unwrap();
    let ds = Dataset::new(&positions[..500]);
    let w = fit::to_floats(&trace::current());
    let k1 = fit::fit_k(&ds, &w);
    let k2 = fit::fit_k(&ds, &w);
    assert_eq!(k1.to_bits(), k2.to_bits());
    assert!(k1 > 0.0001 && k1 < 0.05, "K = {k1}");
    // K is a minimum: a little either way is no better.
    let e = ds.error(&w, k1);
    assert!(e <= ds.error(&w, k1 * 1.1) && e <= ds.error(&w, k1 * 0.9));
    // And a K of (nearly) zero predicts 0.5 everywhere, which is worse.
    assert!(e < ds.error(&w, 1e-9));
}

/// Positions for the trace check: the sample, the test suites and the openings.
fn positions() -> Vec<Board> {
    let mut out: Vec<Board> = data::parse(SAMPLE)
        .unwrap()
        .into_iter()
        .map(|p| p.board)
        .collect();
    for text in [
        include_str!("data/standard.epd"),
        include_str!("data/tricky.epd"),
        include_str!("data/openings500.epd"),
    ] {
        for line in text.lines() {
            let fen = line.split(';').next().unwrap_or("");
            let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
            if let Ok(b) = Board::from_fen(&fields.join(" ")) {
                out.push(b);
            }
        }
    }
    // Endings where the scale factors and the mating terms apply.
    for fen in [
        "8/8/8/4k3/8/8/8/4KQ2 w - - 0 1",
        "8/8/8/4k3/8/8/8/2B1KN2 b - - 0 1",
        "8/5b2/4k3/3p4/3P4/4K3/3B4/8 w - - 0 1",
        "8/8/4k3/8/8/3K4/8/3R1b2 w - - 0 1",
        "8/8/8/1P6/8/8/6k1/K7 w - - 0 1",
        "8/6k1/8/8/2P5/8/8/K2r4 w - - 0 1",
    ] {
        out.push(Board::from_fen(fen).unwrap());
    }
    out
}

#[test]
fn the_trace_rebuilds_the_evaluation_exactly() {
    let weights = trace::current();
    assert_eq!(weights.len(), N_WEIGHTS);
    let full = EvalConfig::default();
    let mut scaled = 0;
    let boards = positions();
    assert!(boards.len() > 2500);
    for b in &boards {
        let t = trace::trace(b);
        let e = evaluate_white(b, &full);
        assert_eq!(t.eval, e, "{}", b.to_fen());
        assert_eq!(t.rebuild(&weights), e, "{}", b.to_fen());
        scaled += (t.scale != 64) as usize;
    }
    assert!(scaled > 0, "some positions are scaled");
}

#[test]
fn the_trace_follows_a_change_of_weights() {
    // Doubling the knight's value changes E by the knight difference times the value: the
    // trace is linear in the weights, so rebuilding with other weights predicts it.
    let b = Board::from_fen("4k3/pp6/8/8/8/8/PP6/1NN1K3 w - - 0 1").unwrap();
    let mut w = trace::current();
    let t = trace::trace(&b);
    let base = t.rebuild(&w);
    w[1].mg += 100; // MATERIAL[KNIGHT]
    w[1].eg += 100;
    // White has two knights and Black none: +200 in both phases (no scale factor here).
    assert_eq!(t.scale, 64);
    assert_eq!(t.rebuild(&w) - base, 200);
}

#[test]
fn the_committed_weights_file_is_what_the_writer_writes() {
    let file = include_str!("../src/engine/eval/weights.rs");
    // The header's lines after the three fixed ones say where the numbers came from.
    let header: Vec<&str> = file
        .lines()
        .skip(3)
        .take_while(|l| l.starts_with("//! "))
        .map(|l| &l[4..])
        .collect();
    let text = trace::write_weights(&trace::current(), &header.join("\n"));
    assert!(
        text == file,
        "src/engine/eval/weights.rs is not in the writer's form"
    );
}

#[test]
fn bad_lines_are_refused_with_their_number() {
    let good = "4k3/8/8/8/8/8/8/4K2R w K - 0 1 [1.0]";
    assert_eq!(data::parse(good).unwrap()[0].result, 1.0);
    let text = format!("# comment\n{good}\n\n{good}\n4k3/8/8 w - - [0.5]\n");
    let err = data::parse(&text).unwrap_err();
    assert_eq!(err.line, 5);
    assert!(err.to_string().starts_with("line 5: bad FEN"), "{err}");
    let err = data::parse(&format!("{good}\n4k3/8/8/8/8/8/8/4K2R w K - 0 1")).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.to_string().contains("no result"), "{err}");
    let err = data::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 [2.0]").unwrap_err();
    assert_eq!(err.line, 1);
    assert!(err.to_string().contains("'[2.0]'"), "{err}");
    for r in ["[0.5]", "[0.0]", "[1/2-1/2]", "[0-1]"] {
        let line = format!("4k3/8/8/8/8/8/8/4K2R w K - 0 1 {r}");
        assert!(data::parse(&line).is_ok(), "{line}");
    }
}

proptest! {
    #[test]
    fn random_lines_never_panic(line in "\\PC{0,80}") {
        match data::parse_line(&line, 7) {
            Ok(_) => {}
            Err(e) => prop_assert_eq!(e.line, 7),
        }
    }

    #[test]
    fn mangled_good_lines_never_panic(cut in 0usize..40, junk in "[ a-z0-9/\\[\\].-]{0,12}") {
        let good = "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R b KQkq - 3 12 [0.5]";
        let mut line: String = good.chars().take(cut).collect();
        line.push_str(&junk);
        line.push_str(&good[cut.min(good.len())..]);
        let _ = data::parse_line(&line, 1);
    }
}

/// The counts (White, Black) of the weight at `at` within the group `name`, in `fen`.
fn counts(fen: &str, name: &str, at: usize) -> [i32; 2] {
    let g = trace::GROUPS.iter().position(|g| g.name == name).unwrap();
    let index = trace::offset(g) + at;
    let t = trace::trace(&Board::from_fen(fen).unwrap());
    t.coefs
        .iter()
        .find(|&&(i, _)| i == index)
        .map_or([0, 0], |&(_, c)| c)
}

#[test]
fn a_rook_behind_a_passed_pawn_and_a_minor_behind_a_pawn_are_counted_for_their_side() {
    // White's passed d-pawn with White's rook behind it (own, index 0); Black's passed
    // a-pawn with White's rook behind it, on a8 (the enemy's, index 1).
    let fen = "R7/7k/8/3P4/p7/8/8/3RK3 w - - 0 1";
    assert_eq!(counts(fen, "ROOK_BEHIND_PASSER", 0), [1, 0]);
    assert_eq!(counts(fen, "ROOK_BEHIND_PASSER", 1), [0, 1]);
    // A rook in front of a passed pawn is neither: Black's rook on a8 stops White's a-pawn.
    let fen = "r6k/8/8/8/P7/8/8/4K3 w - - 0 1";
    assert_eq!(counts(fen, "ROOK_BEHIND_PASSER", 0), [0, 0]);
    assert_eq!(counts(fen, "ROOK_BEHIND_PASSER", 1), [0, 0]);
    // A knight with a pawn just in front of it (either colour's); a bishop without one.
    let fen = "4k3/8/8/4p3/4N3/8/3P4/2B1K3 w - - 0 1";
    assert_eq!(counts(fen, "MINOR_BEHIND_PAWN", 0), [1, 0]);
}

#[test]
fn the_fourth_fits_terms_are_counted_for_their_side() {
    // Knights and rooks by own pawns above or below five: White's knight with eight pawns
    // (+3), Black's rook with two pawns (−3), White's rook with eight (+3).
    let fen = "r3k3/pp6/8/8/8/8/PPPPPPPP/RN2K3 w - - 0 1";
    assert_eq!(counts(fen, "KNIGHT_PAWNS", 0), [3, 0]);
    assert_eq!(counts(fen, "ROOK_PAWNS", 0), [3, -3]);
    // Two passed pawns side by side on the fifth rank (relative rank 4); a lone passed pawn
    // is not connected.
    let fen = "4k3/8/8/3PP3/8/8/p7/4K3 w - - 0 1";
    assert_eq!(counts(fen, "PASSED_CONNECTED", 4), [2, 0]);
    assert_eq!(counts(fen, "PASSED_CONNECTED", 6), [0, 0]);
    // The kings' distances to the nearest pawn (either side's): h1–a2 is 7, e8–a2 is 6.
    let fen = "4k3/8/8/8/8/8/P7/7K w - - 0 1";
    assert_eq!(counts(fen, "KING_PAWN_DISTANCE", 0), [7, 6]);
    // Black's rook on a1 attacks f1 beside White's king, which only the king defends; h1
    // lies behind the king and is not attacked.
    let fen = "6k1/8/8/8/8/8/8/r5K1 w - - 0 1";
    assert_eq!(counts(fen, "WEAK_KING_RING", 0), [1, 0]);
    // A rook on the enemy king's file with no pawn of its own on it (an enemy pawn may
    // stand there); a pawn of its own on the file takes it away.
    assert_eq!(
        counts("4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1", "ROOK_ON_KING_FILE", 0),
        [1, 0]
    );
    assert_eq!(
        counts("4k3/4p3/8/8/8/8/4P3/4RK2 w - - 0 1", "ROOK_ON_KING_FILE", 0),
        [0, 0]
    );
    // Space: on the centre files' 2nd–4th ranks, squares without a pawn of ours that no
    // enemy pawn guards. Twelve for each side with no pawns at all; White's pawns on c2 and
    // d2 take two, Black's pawn on e5 guards d4 and f4 from White.
    assert_eq!(
        counts("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "SPACE", 0),
        [12, 12]
    );
    assert_eq!(
        counts("4k3/8/8/4p3/8/8/2PP4/4K3 w - - 0 1", "SPACE", 0),
        [8, 11]
    );
}
