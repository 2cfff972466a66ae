//! Evaluation E (issue 3, seed 002): the breakdown adds up, E is colour-symmetric in every
//! mode, the material term stays equal to a recount, and the evaluation says sensible things
//! about positions whose verdict every chess player knows.

use crate::common;
use common::Rng;

use std::path::Path;

use ox88::chess::{Board, Color, PieceKind};
use ox88::engine::eval::{
    self, Breakdown, EvalConfig, EvalMode, ScaleReason, Term, ValuePreset, evaluate,
    evaluate_white, explain,
};

// ---- helpers -------------------------------------------------------------------------------

/// The colour-mirrored position: ranks flipped, colours and castling rights swapped, the
/// en-passant square mirrored, the other side to move. Its E must be the negation.
fn mirror_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let swap_case = |ch: char| {
        if ch.is_ascii_uppercase() {
            ch.to_ascii_lowercase()
        } else {
            ch.to_ascii_uppercase()
        }
    };
    let placement: Vec<String> = fields[0]
        .split('/')
        .rev()
        .map(|rank| rank.chars().map(swap_case).collect())
        .collect();
    let side = if fields[1] == "w" { "b" } else { "w" };
    let mut castling: Vec<char> = fields[2].chars().map(swap_case).collect();
    castling.sort_by_key(|c| "KQkq-".find(*c));
    let castling: String = castling.into_iter().collect();
    let ep = match fields[3].as_bytes() {
        [f, r] => format!("{}{}", *f as char, (b'1' + b'8' - r) as char),
        _ => "-".to_string(),
    };
    let mut out = vec![placement.join("/"), side.to_string(), castling, ep];
    out.extend(fields[4..].iter().map(|s| s.to_string()));
    out.join(" ")
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn full() -> EvalConfig {
    EvalConfig {
        mode: EvalMode::Full,
        preset: ValuePreset::Seed,
    }
}

fn cfg(mode: EvalMode, preset: ValuePreset) -> EvalConfig {
    EvalConfig { mode, preset }
}

/// Every configuration: every mode, and every preset for the two that use presets.
fn all_configs() -> Vec<EvalConfig> {
    let mut v = vec![full(), cfg(EvalMode::Net, ValuePreset::Seed)];
    for mode in [EvalMode::Material, EvalMode::Center] {
        for preset in ValuePreset::ALL {
            v.push(cfg(mode, preset));
        }
    }
    v
}

/// Starting points: the start position, a few hand-picked FENs, every perft-suite position
/// and the 500 opening positions (copies kept in tests/data).
fn start_fens() -> Vec<String> {
    let mut fens: Vec<String> = [
        Board::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        "8/5bk1/8/2Pp4/8/1K6/8/8 w - d6 0 1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for file in ["standard.epd", "cpw6.epd", "tricky.epd", "openings500.epd"] {
        let text = std::fs::read_to_string(data.join(file)).expect("test data is in the repo");
        for line in text.lines() {
            let fen = line.split(';').next().unwrap_or("").trim();
            // EPD lines may carry opcodes after the four fields.
            let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
            if fields.len() == 4 && Board::from_fen(&fields.join(" ")).is_ok() {
                fens.push(fields.join(" "));
            }
        }
    }
    fens
}

/// Visits positions of random legal games from every starting point: `plies` moves each,
/// plus `long_games` games from the start position played out (up to 400 plies) so that
/// endings with few pieces appear too.
fn for_random_positions(
    seed: u64,
    plies: usize,
    long_games: usize,
    mut visit: impl FnMut(&Board),
) -> usize {
    let mut rng = Rng(seed);
    let mut n = 0;
    let mut walk = |mut b: Board, len: usize, rng: &mut Rng| {
        visit(&b);
        n += 1;
        for _ in 0..len {
            let moves = b.legal_moves();
            if moves.is_empty() || b.halfmove_clock() >= 100 {
                break;
            }
            // Prefer captures now and then so that games reach endings.
            let captures: Vec<_> = moves.iter().copied().filter(|m| m.is_capture()).collect();
            let m = if !captures.is_empty() && rng.below(3) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves.as_slice()[rng.below(moves.len())]
            };
            b.make(m);
            visit(&b);
            n += 1;
        }
    };
    for fen in start_fens() {
        walk(board(&fen), plies, &mut rng);
    }
    for _ in 0..long_games {
        walk(Board::startpos(), 400, &mut rng);
    }
    n
}

fn sum_of_rows(bd: &Breakdown) -> i32 {
    bd.rows.iter().map(|r| r.net).sum()
}

// ---- the invariants issue 3 asks for -------------------------------------------------------

#[test]
fn mirror_fen_is_an_involution_and_flips_the_position() {
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w Kq f6 0 3";
    let m = mirror_fen(fen);
    assert_eq!(
        m,
        "rnbqkbnr/pppp1ppp/8/8/3PpP2/8/PPP1P1PP/RNBQKBNR b Qk f3 0 3"
    );
    assert_eq!(mirror_fen(&m), fen);
    assert!(Board::from_fen(&m).is_ok());
}

#[test]
fn evaluation_is_colour_symmetric_in_every_mode() {
    let configs = all_configs();
    let mut checked = 0;
    let positions = for_random_positions(0x5EED_0002, 40, 60, |b| {
        let fen = b.to_fen();
        let mirrored = board(&mirror_fen(&fen));
        for c in &configs {
            let e = evaluate_white(b, c);
            let m = evaluate_white(&mirrored, c);
            assert_eq!(
                e, -m,
                "mode {} preset {}: E({fen}) = {e}, mirrored gives {m}",
                c.mode, c.preset
            );
            // The side-to-move view agrees too (the mirror has the other side to move).
            assert_eq!(evaluate(b, c), evaluate(&mirrored, c));
            checked += 1;
        }
    });
    assert!(positions > 5_000, "only {positions} positions visited");
    assert_eq!(checked, positions * configs.len());
}

#[test]
fn breakdown_adds_up_to_evaluate_white_exactly() {
    let configs = all_configs();
    let mut scaled = 0;
    for_random_positions(0x000B_1EA3, 30, 40, |b| {
        for c in &configs {
            let bd = explain(b, c);
            let e = evaluate_white(b, c);
            assert_eq!(bd.total, e, "{} {}: {}", c.mode, c.preset, b.to_fen());
            assert_eq!(
                sum_of_rows(&bd),
                bd.total,
                "{} {}: rows do not add up\n{bd}",
                c.mode,
                c.preset
            );
            for r in &bd.rows {
                assert_eq!(r.white - r.black, r.net, "{}: {bd}", r.term);
            }
            let rows: Vec<Term> = bd.rows.iter().map(|r| r.term).collect();
            assert_eq!(rows, c.mode.terms());
            let text = bd.to_string();
            // The last line is the E shown everywhere: the captures in flight settled.
            let shown = eval::settled_white(b, c);
            assert_eq!(bd.shown.white, shown);
            assert_eq!(text.lines().last(), Some(format!("E: {shown}").as_str()));
            if c.mode == EvalMode::Full {
                let phase = bd.phase.expect("full mode is tapered");
                assert!((0..=eval::PHASE_MAX).contains(&phase));
                assert!(
                    e.abs() < 20_000,
                    "{e} is not a static evaluation: {}",
                    b.to_fen()
                );
                scaled += bd.scale.is_some() as usize;
            } else {
                assert_eq!(bd.phase, None);
            }
        }
    });
    // The random endings must have exercised the drawish-ending code at least sometimes.
    assert!(scaled > 0);
}

#[test]
fn incremental_material_equals_a_recount_after_every_move() {
    let mut rng = Rng(0x3A7E_41A1);
    let mut checked = 0;
    let check = |b: &Board| {
        let recount = b.recount_material();
        assert_eq!(
            [b.material(Color::White), b.material(Color::Black)],
            recount,
            "{}",
            b.to_fen()
        );
        let counts = b.recount_counts();
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                assert_eq!(
                    b.count(c, k),
                    counts[c.index()][k.index()] as u32,
                    "{}",
                    b.to_fen()
                );
            }
        }
        // The material row of every preset equals the recounted pieces times its values.
        for preset in ValuePreset::ALL {
            let values = preset.values();
            let row = *explain(b, &cfg(EvalMode::Material, preset))
                .row(Term::Material)
                .unwrap();
            let by_hand =
                |c: usize| -> i32 { (0..5).map(|k| counts[c][k] as i32 * values[k]).sum() };
            assert_eq!(
                (row.white, row.black),
                (by_hand(0), by_hand(1)),
                "{preset}: {}",
                b.to_fen()
            );
        }
    };
    for fen in start_fens().into_iter().take(60) {
        for _game in 0..4 {
            let mut b = board(&fen);
            let mut depth = 0;
            for _ in 0..120 {
                let moves = b.legal_moves();
                if moves.is_empty() {
                    break;
                }
                b.make(moves.as_slice()[rng.below(moves.len())]);
                depth += 1;
                check(&b);
                checked += 1;
            }
            // Unwinding must restore the record exactly too.
            for _ in 0..depth {
                b.unmake();
                check(&b);
            }
            assert_eq!(b, board(&fen));
        }
    }
    assert!(checked > 10_000);
}

// ---- names ---------------------------------------------------------------------------------

#[test]
fn modes_and_presets_parse_and_print_their_names() {
    for m in EvalMode::ALL {
        assert_eq!(m.to_string().parse::<EvalMode>(), Ok(m));
    }
    for p in ValuePreset::ALL {
        assert_eq!(p.to_string().parse::<ValuePreset>(), Ok(p));
        assert_eq!(p.to_string().to_uppercase().parse::<ValuePreset>(), Ok(p));
    }
    assert_eq!(ValuePreset::EuweKramer.to_string(), "euwe-kramer");
    for alias in [
        "Euwe&Kramer",
        "euwe_kramer",
        "EUWEKRAMER",
        "euwe kramer",
        "Euwe-Kramer",
    ] {
        assert_eq!(
            alias.parse::<ValuePreset>(),
            Ok(ValuePreset::EuweKramer),
            "{alias}"
        );
    }
    assert_eq!(
        "complex".parse::<EvalMode>(),
        Err("complex: not an evaluation mode (material, center, full, net)".to_string())
    );
    let err = "complex".parse::<EvalMode>().unwrap_err();
    assert!(
        err.contains("material") && err.contains("center") && err.contains("full"),
        "{err}"
    );
    let err = "capablanca".parse::<ValuePreset>().unwrap_err();
    for p in ValuePreset::ALL {
        assert!(err.contains(p.name()), "{err} does not list {p}");
    }
}

#[test]
fn presets_hold_the_seed_tables_values() {
    // Seed 002's table in pawns, times 100 (Bilguer's pawn is 1.5, so his values / 1.5).
    assert_eq!(ValuePreset::Seed.values()[..5], [100, 300, 450, 500, 1000]);
    assert_eq!(ValuePreset::Fischer.value(PieceKind::Bishop), 325);
    assert_eq!(ValuePreset::Kaufman.value(PieceKind::Queen), 975);
    assert_eq!(ValuePreset::Bilguer.value(PieceKind::Rook), 573);
    assert_eq!(ValuePreset::Gik.value(PieceKind::Knight), 240);
    for p in ValuePreset::ALL {
        assert_eq!(p.value(PieceKind::Pawn), 100, "{p}");
    }
}

// ---- sanity: verdicts every player knows ---------------------------------------------------

#[test]
fn a_queen_up_is_clearly_winning_in_every_mode() {
    let no_black_queen = board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for c in all_configs() {
        let e = evaluate_white(&no_black_queen, &c);
        assert!(e > 700, "{} {}: E = {e}", c.mode, c.preset);
        // and from the side to move's view when Black is to move
        let black_to_move = board("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        // The network gives the side to move about a pawn in the opening (Stockfish's
        // scores, which it learned, do the same at low depth): a queen less still costs six.
        let bound = if c.mode == EvalMode::Net { -600 } else { -700 };
        let e = evaluate(&black_to_move, &c);
        assert!(
            e < bound,
            "{} {}: E = {e} for Black to move",
            c.mode,
            c.preset
        );
    }
}

#[test]
fn the_start_position_is_about_equal() {
    let e = evaluate_white(&Board::startpos(), &full());
    assert!(e.abs() <= 30, "E = {e}");
    assert_eq!(
        evaluate_white(
            &Board::startpos(),
            &cfg(EvalMode::Center, ValuePreset::Seed)
        ),
        0
    );
}

#[test]
fn presets_change_the_verdict_on_a_knight_for_three_pawns() {
    // White has a knight, Black three pawns: Gik's knight (2.4) loses to them, Euwe & Kramer's
    // (3.5) beats them.
    let b = board("4k3/ppp5/8/8/8/8/8/1N2K3 w - - 0 1");
    let e = |p| evaluate_white(&b, &cfg(EvalMode::Material, p));
    assert_eq!(e(ValuePreset::Gik), 240 - 300);
    assert_eq!(e(ValuePreset::EuweKramer), 350 - 300);
    assert_eq!(e(ValuePreset::Standard), 0);
}

#[test]
fn center_mode_adds_the_area_ctrl_table() {
    let start = Board::startpos();
    let mut b = Board::startpos();
    let play = |b: &mut Board, uci: &str| {
        let m = *b
            .legal_moves()
            .iter()
            .find(|m| m.to_string() == uci)
            .expect(uci);
        b.make(m);
    };
    let centre = |b: &Board| {
        evaluate_white(b, &cfg(EvalMode::Center, ValuePreset::Seed))
            - evaluate_white(b, &cfg(EvalMode::Material, ValuePreset::Seed))
    };
    assert_eq!(centre(&start), 0);
    play(&mut b, "e2e4"); // e4 is one of the four 2-squares
    assert_eq!(centre(&b), 2);
    play(&mut b, "g8f6"); // f6 is on the ring
    assert_eq!(centre(&b), 1);
    play(&mut b, "b1c3"); // so is c3
    assert_eq!(centre(&b), 2);
    play(&mut b, "f6e4"); // the knight takes on e4: Black now holds the 2-square
    assert_eq!(centre(&b), 1 - 2);
}

#[test]
fn kqk_lone_king_in_the_corner_scores_higher_than_in_the_centre() {
    // Same white pieces, same distance between the kings (3); only the lone king's square
    // differs: corner h8 vs centre e5.
    let corner = board("7k/8/8/4K3/8/8/2Q5/8 w - - 0 1");
    let centre = board("8/8/8/4k3/8/8/1KQ5/8 w - - 0 1");
    let (a, b) = (
        evaluate_white(&corner, &full()),
        evaluate_white(&centre, &full()),
    );
    assert!(a > b + 100, "corner {a} vs centre {b}");
    // The mating term itself says so, and the other side mirrors it.
    let bd = explain(&corner, &full());
    assert!(bd.row(Term::Mating).unwrap().white > 0);
    assert_eq!(
        evaluate_white(&board(&mirror_fen(&corner.to_fen())), &full()),
        -a
    );
}

#[test]
fn krk_closer_kings_score_higher() {
    let far = board("k7/8/8/8/8/8/8/1R4K1 w - - 0 1");
    let near = board("k7/8/2K5/8/8/8/8/1R6 w - - 0 1");
    assert!(evaluate_white(&near, &full()) > evaluate_white(&far, &full()));
}

#[test]
fn kbnk_drives_to_the_bishops_corner() {
    // A dark-squared bishop (e3): a1 and h8 are the corners where mate can be forced.
    let right = board("7k/8/5K2/8/8/4B3/8/6N1 w - - 0 1");
    let wrong = board("k7/8/2K5/8/8/4B3/8/6N1 w - - 0 1");
    let (r, w) = (
        evaluate_white(&right, &full()),
        evaluate_white(&wrong, &full()),
    );
    assert!(r > w + 50, "right corner {r}, wrong corner {w}");
}

#[test]
fn opposite_coloured_bishops_are_scaled_towards_a_draw() {
    // White is a pawn up in both; light vs dark bishops in the first, both dark in the second.
    let opposite = board("4k3/5b2/8/2p1p3/2P1P3/3P4/5B2/4K3 w - - 0 1");
    let same = board("4k3/8/3b4/2p1p3/2P1P3/3P4/5B2/4K3 w - - 0 1");
    let bo = explain(&opposite, &full());
    let bs = explain(&same, &full());
    assert_eq!(
        bo.scale.map(|s| s.reason),
        Some(ScaleReason::OppositeBishops),
        "{bo}"
    );
    assert!(
        bo.total > 0 && bo.total < bs.total / 2,
        "opposite {} vs same {}",
        bo.total,
        bs.total
    );
    assert!(bo.row(Term::Scaling).unwrap().net < 0);
}

#[test]
fn dead_draws_evaluate_to_zero() {
    for fen in [
        "8/8/4k3/8/8/3K4/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
        "8/8/4k3/8/8/3KN3/8/8 b - - 0 1",
        "8/8/4kb2/8/8/3KB3/8/8 w - - 0 1", // bishops on the same colour
        "8/8/4k3/8/8/3KNN2/8/8 w - - 0 1", // two knights cannot force mate
        "8/8/4k3/8/3p4/3KN3/8/8 w - - 0 1", // a knight alone cannot win even against a pawn
    ] {
        assert_eq!(evaluate_white(&board(fen), &full()), 0, "{fen}");
    }
    // A rook against a bishop is drawish, a rook against a bare king is not.
    let rb = evaluate_white(&board("8/8/4kb2/8/8/3K4/8/1R6 w - - 0 1"), &full());
    let rk = evaluate_white(&board("8/8/4k3/8/8/3K4/8/1R6 w - - 0 1"), &full());
    assert!(rb > 0 && rb < 150 && rk > 400, "KRKB {rb}, KRK {rk}");
}

#[test]
fn a_runaway_passed_pawn_beats_the_material_count() {
    // Black's king on g5 is outside the square of the a-pawn (which may step twice): it
    // queens. A king on c4 catches it.
    let runs = board("8/8/8/6k1/8/8/P7/7K w - - 0 1");
    let caught = board("8/8/8/8/2k5/8/P7/7K w - - 0 1");
    let r = explain(&runs, &full());
    let c = explain(&caught, &full());
    assert!(
        r.row(Term::PassedPawns).unwrap().net > c.row(Term::PassedPawns).unwrap().net + 200,
        "{r}\n{c}"
    );
}

#[test]
fn advanced_passed_pawns_are_worth_more() {
    let far = board("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
    let near = board("4k3/8/8/8/8/1P6/8/4K3 w - - 0 1");
    assert!(evaluate_white(&far, &full()) > evaluate_white(&near, &full()) + 50);
}

#[test]
fn broken_pawns_score_worse_than_a_healthy_chain() {
    let healthy = board("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1");
    let broken = board("4k3/pppp4/8/8/8/2P5/P1P5/4K3 w - - 0 1"); // doubled and isolated
    let h = explain(&healthy, &full());
    let b = explain(&broken, &full());
    assert!(
        b.row(Term::PawnStructure).unwrap().white < h.row(Term::PawnStructure).unwrap().white,
        "{h}\n{b}"
    );
}

#[test]
fn a_bare_king_shelter_costs_more_than_a_castled_one() {
    let castled = board("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1");
    let open = board("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP4/R1BQ1RK1 w - - 0 1");
    let c = explain(&castled, &full());
    let o = explain(&open, &full());
    assert!(
        o.row(Term::KingSafety).unwrap().white < c.row(Term::KingSafety).unwrap().white - 50,
        "{c}\n{o}"
    );
}

#[test]
fn a_piece_attacked_by_a_pawn_or_hanging_is_a_threat() {
    // Black's knight on d5 attacked by the e4 pawn; then the same knight on a5, unattacked.
    let attacked = board("4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1");
    let safe = board("4k3/8/8/n7/4P3/8/8/4K3 b - - 0 1");
    let a = explain(&attacked, &full());
    let s = explain(&safe, &full());
    assert!(a.row(Term::Threats).unwrap().white >= 45, "{a}");
    assert_eq!(s.row(Term::Threats).unwrap().white, 0, "{s}");
}

#[test]
fn rooks_like_open_files_and_the_seventh() {
    let open = board("6k1/ppp2ppp/8/8/8/8/PPP2PPP/3R2K1 w - - 0 1");
    let closed = board("6k1/ppp2ppp/8/8/8/8/PPP2PPP/1R4K1 w - - 0 1");
    let seventh = board("6k1/pRp2ppp/8/8/8/8/PPP2PPP/6K1 w - - 0 1");
    let row = |b: &Board| explain(b, &full()).row(Term::Rooks).unwrap().white;
    assert!(row(&open) > row(&closed));
    assert!(row(&seventh) > row(&open));
}

// ---- the E people are shown does not swing with the side to move ----------------------------

/// `fen` with `side` to move and no en passant square; `None` when that is not a legal
/// position (the side not to move in check).
fn with_side_to_move(fen: &str, side: &str) -> Option<Board> {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    fields[1] = side;
    fields[3] = "-";
    let b = Board::from_fen(&fields.join(" ")).ok()?;
    let not_to_move = b.side_to_move().flip();
    (!b.is_attacked(b.king_square(not_to_move), b.side_to_move())).then_some(b)
}

/// tests/data/quiet_positions.epd: 100 quiet positions from balanced openings (how they were
/// chosen is in the file's header and in scripts/e_swing.py).
fn quiet_positions() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/quiet_positions.epd");
    std::fs::read_to_string(path)
        .expect("test data is in the repo")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// E from White's view with White to move and with Black to move agree on quiet positions,
/// in every mode. The bound is Stockfish 15.1's own: its static evaluation of these positions
/// swings by 54 cp on average and 83 cp at the 95th percentile when only the side to move
/// changes (`scripts/e_swing.py measure`), always towards the side to move; we allow 1.5× its
/// p95 for any one position (125 cp) and 1.25× its mean over the set (68 cp). The `net` mode
/// shows the mean of the network's two views, so it should meet this with room to spare,
/// while the network's own view (what the search uses) swings by 111 cp on average here.
#[test]
fn the_shown_e_of_a_quiet_position_does_not_depend_on_the_side_to_move() {
    let fens = quiet_positions();
    assert!(fens.len() >= 100, "only {} positions", fens.len());
    for c in all_configs() {
        let mut swings = Vec::new();
        for fen in &fens {
            let (Some(w), Some(b)) = (with_side_to_move(fen, "w"), with_side_to_move(fen, "b"))
            else {
                continue;
            };
            let (ew, eb) = (evaluate_white(&w, &c), evaluate_white(&b, &c));
            let swing = (ew - eb).abs();
            assert!(
                swing <= 125,
                "{} {}: E {ew} with White to move, {eb} with Black to move: {fen}",
                c.mode,
                c.preset
            );
            swings.push(swing);
        }
        assert!(
            swings.len() >= 95,
            "only {} positions both ways",
            swings.len()
        );
        let mean = swings.iter().sum::<i32>() as f64 / swings.len() as f64;
        assert!(
            mean <= 68.0,
            "{} {}: mean swing {mean:.1}",
            c.mode,
            c.preset
        );
    }
}

/// The shown E of a quiet position and of its colour-mirror are exact negatives in every
/// mode, with either side to move (the random walks above check the same more widely).
#[test]
fn the_shown_e_of_a_quiet_position_and_its_mirror_are_negatives() {
    for fen in quiet_positions() {
        for side in ["w", "b"] {
            let Some(b) = with_side_to_move(&fen, side) else {
                continue;
            };
            let m = board(&mirror_fen(&b.to_fen()));
            for c in all_configs() {
                let (e, em) = (evaluate_white(&b, &c), evaluate_white(&m, &c));
                assert_eq!(e, -em, "{} {}: {}", c.mode, c.preset, b.to_fen());
            }
        }
    }
}

/// E moves with the position, not with the exchange under way: after a capture whose
/// recapture is pending, E already counts the recapture, so it stays close to E after it,
/// where the terms' sum (the static value) jumps by the piece.
#[test]
fn an_exchange_in_flight_does_not_move_e_by_a_piece() {
    let line = [
        // 4.Bxc6 (dxc6 to come), 4...dxc6
        ("e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6", "d7c6"),
        // 3.exd5 (Qxd5 to come), 3...Qxd5
        ("e2e4 d7d5 e4d5", "d8d5"),
        // 3...Nxd4 (Nxd4 to come), 4.Nxd4
        ("e2e4 e7e5 g1f3 b8c6 d2d4 c6d4", "f3d4"),
    ];
    for mode in [EvalMode::Net, EvalMode::Full] {
        let cfg = EvalConfig {
            mode,
            ..EvalConfig::default()
        };
        for (moves, recapture) in line {
            let mut b = Board::startpos();
            for m in moves.split_whitespace() {
                b.make(b.parse_uci_move(m).unwrap());
            }
            let before = b.clone();
            b.make(b.parse_uci_move(recapture).unwrap());
            let (e0, e1) = (
                eval::settled_white(&before, &cfg),
                eval::settled_white(&b, &cfg),
            );
            let (s0, s1) = (evaluate_white(&before, &cfg), evaluate_white(&b, &cfg));
            assert!(
                (e1 - e0).abs() < 120,
                "{mode} {moves} {recapture}: E {e0} then {e1}"
            );
            if mode == EvalMode::Full {
                assert!(
                    (s1 - s0).abs() > 2 * (e1 - e0).abs().max(60),
                    "{moves}: the static sum jumps by the piece ({s0} then {s1}), E by far less ({e0} then {e1})"
                );
            }
            // The settling takes back on the same square (with the pawn or piece it likes).
            let settled = eval::settled(&before, &cfg);
            assert_eq!(
                settled.line.first().map(|m| m.uci()[2..4].to_string()),
                Some(recapture[2..4].to_string()),
                "{mode} {moves}: {settled:?}"
            );
        }
    }
}

/// A quiet position settles nothing: E there is the static value itself.
#[test]
fn a_quiet_position_settles_nothing_and_e_is_the_static_value_there() {
    let cfg = EvalConfig {
        mode: EvalMode::Full,
        ..EvalConfig::default()
    };
    let b = Board::startpos();
    let s = eval::settled(&b, &cfg);
    assert!(s.line.is_empty());
    assert_eq!(s.white, evaluate_white(&b, &cfg));
    assert_eq!(s.static_white, evaluate_white(&b, &cfg));
}
