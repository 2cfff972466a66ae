//! The Texel tuner (issue 15): its fit is reproducible, its trace is the evaluation, its
//! data parser refuses bad lines with the line's number.

use ox88::chess::{Board, PieceKind};
use ox88::engine::eval::trace::{self, N_DANGER, N_WEIGHTS};
use ox88::engine::eval::{EvalConfig, evaluate_white};
use ox88::tune::data;
use ox88::tune::fit::{self, Dataset, Settings};
use proptest::prelude::*;

const SAMPLE: &str = include_str!("../data/tune_sample.epd");
/// What `ox88 tune tests/data/tune_sample.epd --iterations 100 --lambda 1e-6 --out
/// tests/data/tune_sample_expected.rs.txt` writes (regenerate it when the committed weights
/// change: the fit starts from them).
const EXPECTED: &str = include_str!("../data/tune_sample_expected.rs.txt");

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
    let fitted = fit::fit(
        &ds,
        None,
        &trace::current(),
        &trace::current_danger(),
        &settings,
        |_, _| {},
    )
    .unwrap();
    assert!(
        fitted.error_after < fitted.error_before,
        "{} → {}",
        fitted.error_before,
        fitted.error_after
    );
    assert!(fitted.error_rounded < fitted.error_before);
    let header = fit::header(&fitted, "tune_sample.epd", ds.len(), &settings);
    let text = trace::write_weights(&fitted.weights, &fitted.danger, &header);
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
    let danger = trace::current_danger();
    let settings = Settings {
        iterations: 20,
        rate: 1.0,
        lambda: 0.0,
        frozen: vec![
            "MATERIAL".into(),
            "pst_king".into(),
            "KING_ATTACKERS_PERCENT".into(),
        ],
    };
    let fitted = fit::fit(&ds, None, &start, &danger, &settings, |_, _| {}).unwrap();
    let king = trace::offset(6);
    assert_eq!(fitted.weights[..6], start[..6]);
    assert_eq!(fitted.weights[king..king + 64], start[king..king + 64]);
    assert_ne!(fitted.weights, start, "the other weights moved");
    let percent = trace::KING_ATTACKERS_PERCENT_AT;
    assert_eq!(
        fitted.danger[percent..percent + 8],
        danger[percent..percent + 8]
    );
    assert_ne!(fitted.danger, danger, "the other danger parameters moved");
    // The pinned entries stay without being named: no pawn or king attacks, 4 attackers
    // count 100%.
    for (i, pinned) in trace::danger_pinned().into_iter().enumerate() {
        if pinned {
            assert_eq!(fitted.danger[i], danger[i], "pinned danger parameter {i}");
        }
    }
    let bad = Settings {
        frozen: vec!["MATERIALS".into()],
        ..settings
    };
    let err = fit::fit(&ds, None, &start, &danger, &bad, |_, _| {}).unwrap_err();
    assert!(err.contains("'MATERIALS'"), "{err}");
}

#[test]
fn k_fit_is_deterministic_and_lowers_the_error() {
    let positions = data::parse(SAMPLE).unwrap();
    let ds = Dataset::new(&positions[..500]);
    let w = fit::to_params(&trace::current(), &trace::current_danger());
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
        include_str!("../data/standard.epd"),
        include_str!("../data/tricky.epd"),
        include_str!("../data/openings500.epd"),
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

/// `b` after a legal move of a piece (not a pawn) that takes no pawn: the same pawns, so
/// the same pawn key, with everything else free to differ.
fn same_pawns_other_piece(b: &Board) -> Option<Board> {
    let m = b.legal_moves().iter().copied().find(|m| {
        let kind = |sq| b.piece_at(sq).map(|p| p.kind());
        kind(m.from()) != Some(PieceKind::Pawn) && kind(m.to()) != Some(PieceKind::Pawn)
    })?;
    let mut sibling = b.clone();
    sibling.make(m);
    assert_eq!(sibling.pawn_hash(), b.pawn_hash());
    Some(sibling)
}

#[test]
fn the_trace_rebuilds_the_evaluation_exactly() {
    let weights = trace::current();
    let danger = trace::current_danger();
    assert_eq!(weights.len(), N_WEIGHTS);
    let mut in_danger = 0;
    let full = EvalConfig {
        mode: ox88::engine::eval::EvalMode::Full,
        ..EvalConfig::default()
    };
    let mut scaled = 0;
    let mut siblings = 0;
    let boards = positions();
    assert!(boards.len() > 2500);
    for b in &boards {
        let t = trace::trace(b);
        let e = evaluate_white(b, &full);
        // The trace counts every feature afresh; the evaluation takes the pawns' terms from
        // its pawn table when it has seen the structure. A position with the same pawns and
        // another piece placed elsewhere gets the entry this one just left there.
        assert_eq!(t.eval, e, "{}", b.to_fen());
        if let Some(sibling) = same_pawns_other_piece(b) {
            let hit = evaluate_white(&sibling, &full);
            assert_eq!(trace::trace(&sibling).eval, hit, "{}", sibling.to_fen());
            siblings += 1;
        }
        assert_eq!(t.rebuild(&weights, &danger), e, "{}", b.to_fen());
        scaled += (t.scale != 64) as usize;
        in_danger += t.danger.iter().filter(|d| d.value(&danger) > 0).count();
    }
    assert!(siblings > 2000, "positions with a sibling: {siblings}");
    assert!(scaled > 0, "some positions are scaled");
    assert!(in_danger > 100, "kings in danger: {in_danger}");
}

#[test]
fn the_trace_follows_a_change_of_weights() {
    // Doubling the knight's value changes E by the knight difference times the value: the
    // trace is linear in the weights, so rebuilding with other weights predicts it.
    let b = Board::from_fen("4k3/pp6/8/8/8/8/PP6/1NN1K3 w - - 0 1").unwrap();
    let mut w = trace::current();
    let danger = trace::current_danger();
    let t = trace::trace(&b);
    let base = t.rebuild(&w, &danger);
    w[1].mg += 100; // MATERIAL[KNIGHT]
    w[1].eg += 100;
    // White has two knights and Black none: +200 in both phases (no scale factor here).
    assert_eq!(t.scale, 64);
    assert_eq!(t.rebuild(&w, &danger) - base, 200);
}

#[test]
fn the_committed_weights_file_is_what_the_writer_writes() {
    let file = include_str!("../../src/engine/eval/weights.rs");
    // The header's lines after the three fixed ones say where the numbers came from.
    let header: Vec<&str> = file
        .lines()
        .skip(3)
        .take_while(|l| l.starts_with("//! "))
        .map(|l| &l[4..])
        .collect();
    let text = trace::write_weights(
        &trace::current(),
        &trace::current_danger(),
        &header.join("\n"),
    );
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
    // an expected score in between is a label too; outside 0..1, or not a number, is not
    let scored = data::parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 [0.731]").unwrap();
    assert_eq!(scored[0].result, 0.731);
    for r in ["[-0.1]", "[1.01]", "[NaN]", "[inf]", "[0.5x]", "[]"] {
        let err = data::parse(&format!("4k3/8/8/8/8/8/8/4K2R w K - 0 1 {r}")).unwrap_err();
        assert!(err.to_string().contains(&format!("'{r}'")), "{err}");
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

#[test]
fn the_seventh_stops_terms_are_counted_for_their_side() {
    // Pins to the king: a knight by a rook on the file, a pawn by a bishop on the diagonal;
    // two pieces in the way, or a rook on a diagonal, pin nothing.
    assert_eq!(
        counts("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", "PINNED", 1),
        [1, 0]
    );
    assert_eq!(
        counts("4k3/4r3/8/8/8/4B3/4N3/4K3 w - - 0 1", "PINNED", 1),
        [0, 0]
    );
    assert_eq!(
        counts("4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1", "PINNED", 0),
        [1, 0]
    );
    assert_eq!(
        counts("4k3/8/8/r7/8/8/3P4/4K3 w - - 0 1", "PINNED", 0),
        [0, 0]
    );
    // The king attacks an undefended knight (counted for the attacker, White); a pawn
    // defending it takes the threat away.
    let fen = "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1";
    assert_eq!(counts(fen, "THREAT_BY_KING", 0), [1, 0]);
    assert_eq!(
        counts("4k3/8/8/8/8/4p3/3n4/4K3 w - - 0 1", "THREAT_BY_KING", 0),
        [0, 0]
    );
    // The same threat counts on the move only for the side to move.
    assert_eq!(counts(fen, "THREAT_ON_MOVE", 0), [1, 0]);
    assert_eq!(
        counts("4k3/8/8/8/8/8/3n4/4K3 b - - 0 1", "THREAT_ON_MOVE", 0),
        [0, 0]
    );
    // A passed pawn on the fifth (weight 2): the path d6–d8 is free of the kings' reach;
    // a king beside it defends its stop square.
    let fen = "7k/8/8/3P4/8/8/8/K7 w - - 0 1";
    assert_eq!(counts(fen, "PASSED_SAFE_PATH", 0), [2, 0]);
    assert_eq!(counts(fen, "PASSED_STOP_DEFENDED", 0), [0, 0]);
    let fen = "7k/8/8/3PK3/8/8/8/8 w - - 0 1";
    assert_eq!(counts(fen, "PASSED_STOP_DEFENDED", 0), [2, 0]);
    // The black king on e8 reaches d7 and d8: the path is not safe.
    assert_eq!(
        counts("4k3/8/8/3P4/8/8/8/K7 w - - 0 1", "PASSED_SAFE_PATH", 0),
        [0, 0]
    );
    // White's c3 is backward (b4 and d4 have gone on, Black's b5 guards c4); with no black
    // pawn on the c-file it is open to rooks.
    let open = "4k3/8/8/1p6/1P1P4/2P5/8/4K3 w - - 0 1";
    assert_eq!(counts(open, "BACKWARD", 0), [1, 0]);
    assert_eq!(counts(open, "BACKWARD_OPEN", 0), [1, 0]);
    let closed = "4k3/8/2p5/1p6/1P1P4/2P5/8/4K3 w - - 0 1";
    assert_eq!(counts(closed, "BACKWARD", 0), [1, 1]); // Black's c6 too: b5 has gone on, c5 is guarded
    assert_eq!(counts(closed, "BACKWARD_OPEN", 0), [0, 0]);
    // Kings on wings without pawns: White's on g1 (e–h), Black's on e8 (c–f); Black's king
    // on b8 has the a-pawn on its wing.
    assert_eq!(
        counts("4k3/8/8/8/8/8/P7/6K1 w - - 0 1", "PAWNLESS_FLANK", 0),
        [1, 1]
    );
    assert_eq!(
        counts("1k6/8/8/8/8/8/P7/6K1 w - - 0 1", "PAWNLESS_FLANK", 0),
        [1, 0]
    );
    // A rook shut in on h1 by its own king on f1; on a1 it is free.
    assert_eq!(
        counts("4k3/8/8/8/8/8/5PPP/5K1R w - - 0 1", "TRAPPED_ROOK", 0),
        [1, 0]
    );
    assert_eq!(
        counts("4k3/8/8/8/8/8/5PPP/R4K2 w - - 0 1", "TRAPPED_ROOK", 0),
        [0, 0]
    );
    // A bishop on the long diagonal that sees d4 and e5; a pawn on c3 blocks it.
    assert_eq!(
        counts("4k3/8/8/8/8/8/1B6/4K3 w - - 0 1", "BISHOP_LONG_DIAGONAL", 0),
        [1, 0]
    );
    assert_eq!(
        counts(
            "4k3/8/8/8/8/2P5/1B6/4K3 w - - 0 1",
            "BISHOP_LONG_DIAGONAL",
            0
        ),
        [0, 0]
    );
}

#[test]
fn the_eighth_stops_threat_terms_are_counted_for_the_attacker() {
    // e3–e4 would attack the knight on d5; a black pawn on f5 guards e4, so not safely.
    let push = |fen| counts(fen, "THREAT_PAWN_PUSH", 0);
    assert_eq!(push("4k3/8/8/3n4/8/4P3/8/4K3 w - - 0 1"), [1, 0]);
    assert_eq!(push("4k3/8/8/3n1p2/8/4P3/8/4K3 w - - 0 1"), [0, 0]);
    // From its second rank the pawn may go two squares, but not through a piece.
    assert_eq!(push("4k3/8/8/3n4/8/8/4P3/4K3 w - - 0 1"), [1, 0]);
    assert_eq!(push("4k3/8/8/3n4/8/4b3/4P3/4K3 w - - 0 1"), [0, 0]);
    // The kings both reach c4, d4 and e4; White's b3 pawn guards c4, so Black's reach
    // restricts White on two of them and White's restricts Black on all three.
    assert_eq!(
        counts("8/8/8/3k4/8/1P1K4/8/8 w - - 0 1", "RESTRICTED", 0),
        [3, 2]
    );
    // The knight on d4, attacked by the rook, is guarded by the queen alone; a pawn on e5
    // guards it too.
    let weak = |fen| counts(fen, "WEAK_QUEEN_DEFENCE", 0);
    assert_eq!(weak("3qk3/8/8/8/3n4/8/8/3RK3 w - - 0 1"), [1, 0]);
    assert_eq!(weak("3qk3/8/8/4p3/3n4/8/8/3RK3 w - - 0 1"), [0, 0]);
    // The knight on b1 reaches c3, a knight's move from the queen on d5, unless a black
    // pawn guards c3.
    let knight = |fen| counts(fen, "KNIGHT_ON_QUEEN", 0);
    assert_eq!(knight("4k3/8/8/3q4/8/8/8/1N2K3 w - - 0 1"), [1, 0]);
    assert_eq!(knight("4k3/8/8/3q4/3p4/8/8/1N2K3 w - - 0 1"), [0, 0]);
    // The bishop on e2 reaches f3 and c4 on the queen's diagonals; they count only where a
    // second piece (the knight on e5) reaches them too.
    let slider = |fen| counts(fen, "SLIDER_ON_QUEEN", 0);
    assert_eq!(slider("4k3/8/8/3qN3/8/8/4B3/4K3 w - - 0 1"), [2, 0]);
    assert_eq!(slider("4k3/8/8/3q4/8/8/4B3/4K3 w - - 0 1"), [0, 0]);
}

/// The danger features of side `side`'s king in `fen`.
fn danger(fen: &str, side: usize) -> trace::Danger {
    trace::trace(&Board::from_fen(fen).unwrap()).danger[side]
}

#[test]
fn the_new_danger_features_are_counted_for_the_king_they_threaten() {
    // Black's knight on b4 reaches the checking squares c2 and d3; White's queen on d1
    // guards both, so the knight's checks are unsafe; without the queen they are safe.
    let d = danger("4k3/8/8/8/1n6/8/8/3QK3 w - - 0 1", 0);
    assert_eq!((d.checks[1], d.unsafe_checks), (0, 1));
    let d = danger("4k3/8/8/8/1n6/8/8/4K3 w - - 0 1", 0);
    assert_eq!((d.checks[1], d.unsafe_checks), (1, 0));
    // White's queen reaches g7 next to Black's king, which alone defends it: an unsafe
    // check, unless a second kind of white piece (the knight on e6) covers g7 too, so that
    // the king cannot take back. Her other checks (d8, h8) stay unsafe either way.
    let d = danger("r5k1/5p1p/4N1p1/8/3Q4/8/8/1K6 w - - 0 1", 1);
    assert_eq!((d.checks[4], d.unsafe_checks), (1, 0));
    let d = danger("r5k1/5p1p/6p1/8/3Q4/8/8/1K6 w - - 0 1", 1);
    assert_eq!((d.checks[4], d.unsafe_checks), (0, 1));
    // A knight pinned to White's king by a rook is a blocker; Black's king has none.
    let fen = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
    assert_eq!((danger(fen, 0).blockers, danger(fen, 1).blockers), (1, 0));
    // A knight on f3 and a bishop on g2 defend the king on g1; a knight on a3 does not.
    let fen = "4k3/8/8/8/8/N4N2/6B1/6K1 w - - 0 1";
    assert_eq!((danger(fen, 0).defenders, danger(fen, 1).defenders), (2, 0));
}

#[test]
fn the_danger_gradient_matches_a_finite_difference() {
    // The king danger is squared and capped, so its parameters' gradient is not the linear
    // one: check the analytic gradient against the error's central difference.
    let positions = data::parse(SAMPLE).unwrap();
    let ds = Dataset::new(&positions[..400]);
    let mut w = fit::to_params(&trace::current(), &trace::current_danger());
    let from = 2 * N_WEIGHTS;
    assert_eq!(w.len(), from + N_DANGER);
    // Off the whole numbers, so that no position sits exactly on a kink (a danger of 0).
    for (i, x) in w[from..].iter_mut().enumerate() {
        *x += 0.31 + 0.07 * i as f64;
    }
    let k = 0.0068;
    let mut grad = vec![0.0; w.len()];
    ds.gradient(&w, k, &mut grad);
    let pinned = trace::danger_pinned();
    let h = 1e-3;
    let mut moving = 0;
    for j in (0..N_DANGER).filter(|&j| !pinned[j]) {
        let (mut up, mut down) = (w.clone(), w.clone());
        up[from + j] += h;
        down[from + j] -= h;
        let fd = (ds.error(&up, k) - ds.error(&down, k)) / (2.0 * h);
        let g = grad[from + j];
        assert!(
            (g - fd).abs() <= 1e-3 * fd.abs() + 1e-10,
            "danger parameter {j}: analytic {g:e}, finite difference {fd:e}"
        );
        moving += (g != 0.0) as usize;
    }
    // Most danger parameters are used by some position (5 to 7 attackers are rare).
    assert!(moving >= 12, "{moving} danger parameters have a gradient");
    for at in [
        trace::KING_ZONE_HIT_AT,
        trace::KING_ATTACK_WEIGHT_AT + 4,
        trace::SAFE_CHECK_AT + 1,
        trace::NO_QUEEN_RELIEF_AT,
    ] {
        assert_ne!(grad[from + at], 0.0, "danger parameter {at}");
    }
}

#[test]
fn the_danger_to_a_king_counts_against_its_side() {
    // Black's queen, knight and bishop bear on White's castled king; then the same position
    // with the colours swapped.
    let attacked = "6k1/5ppp/3b4/8/6nq/8/5PPP/R5K1 w - - 0 1";
    let mirrored = "r5k1/5ppp/8/6NQ/8/3B4/5PPP/6K1 b - - 0 1";
    let danger = trace::current_danger();
    let weights = trace::current();
    let mut more = danger.clone();
    more[trace::KING_ZONE_HIT_AT] += 5;
    more[trace::KING_ATTACK_WEIGHT_AT + 4] += 10;
    let labelled: Vec<data::Labelled> = [attacked, mirrored]
        .iter()
        .map(|fen| data::Labelled {
            board: Board::from_fen(fen).unwrap(),
            result: 0.5,
        })
        .collect();
    let ds = Dataset::new(&labelled);
    let (w, w_more) = (
        fit::to_params(&weights, &danger),
        fit::to_params(&weights, &more),
    );
    for (i, (p, white_attacked)) in labelled.iter().zip([true, false]).enumerate() {
        let t = trace::trace(&p.board);
        let (king, other) = if white_attacked { (0, 1) } else { (1, 0) };
        assert_eq!(t.danger[king].attackers[1..5], [0, 1, 1, 0, 1][1..5]);
        assert_eq!(t.danger[king].attacker_count(), 3);
        assert!(t.danger[king].value(&danger) > 0);
        assert_eq!(t.danger[other].attacker_count(), 0);
        // More danger: lower E for White when White's king is attacked, higher otherwise,
        // in the evaluation's integer arithmetic and in the fit's floating point.
        let sign = if white_attacked { -1 } else { 1 };
        let (e, e_more) = (t.rebuild(&weights, &danger), t.rebuild(&weights, &more));
        assert_eq!(e, t.eval);
        assert_eq!((e_more - e).signum(), sign, "{}", p.board.to_fen());
        let (f, f_more) = (ds.evaluation(i, &w), ds.evaluation(i, &w_more));
        assert_eq!((f_more - f).signum() as i32, sign, "{}", p.board.to_fen());
        // And the fit's E is the evaluation's up to its integer rounding.
        assert!((f - e as f64).abs() < 3.0, "{f} vs {e}");
    }
}

#[test]
fn tune_reports_the_error_on_another_file_given_by_validate() {
    let dir = std::env::temp_dir().join(format!("ox88-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Train on the sample's first half, validate on its second (other games).
    let lines: Vec<&str> = SAMPLE.lines().collect();
    let (train, other) = lines.split_at(lines.len() / 2);
    let train_path = dir.join("train.epd");
    let other_path = dir.join("other.epd");
    std::fs::write(&train_path, train.join("\n")).unwrap();
    std::fs::write(&other_path, other.join("\n")).unwrap();
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
            .arg("tune")
            .arg(&train_path)
            .args(["--iterations", "5"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--validate", other_path.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.starts_with("Held-out positions: error"))
        .unwrap_or_else(|| panic!("no held-out line in:\n{text}"));
    // Two errors, both of a win/draw/loss prediction: between 0 and 1.
    let errors: Vec<f64> = line
        .split([' ', ','])
        .filter_map(|w| w.trim_end_matches('.').parse().ok())
        .collect();
    assert_eq!(errors.len(), 2, "{line}");
    assert!(errors.iter().all(|e| (0.0..1.0).contains(e)), "{line}");
    // Without --validate there is no held-out report; with --hold-out as well, an error.
    let plain = run(&[]);
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("Held-out"));
    let both = run(&[
        "--validate",
        other_path.to_str().unwrap(),
        "--hold-out",
        "0.2",
    ]);
    assert!(!both.status.success());
    // A file that is not there: a clear message naming it, no panic.
    let missing = dir.join("missing.epd");
    let gone = run(&["--validate", missing.to_str().unwrap()]);
    assert!(!gone.status.success());
    let err = String::from_utf8_lossy(&gone.stderr);
    assert!(
        err.contains("missing.epd") && !err.contains("panicked"),
        "{err}"
    );
    // A file with a bad line, or with no positions: the same, naming the file.
    for (name, text) in [("bad.epd", "not a position [0.5]\n"), ("empty.epd", "")] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = run(&["--validate", path.to_str().unwrap()]);
        assert!(!out.status.success(), "{name} was accepted");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(name) && !err.contains("panicked"), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
