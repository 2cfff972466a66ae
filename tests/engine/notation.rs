//! Coordinate and SAN notation over many positions reached by random play, with shakmaty as an
//! independent oracle for SAN (issue 2, point 5), and property tests that no text panics.

use crate::common;
use common::Rng;

use ox88::chess::notation::MoveParseError;
use ox88::chess::{Board, Move};
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// Start points chosen so random play meets castling both ways, en passant, promotions and
/// under-promotions, and several pieces of one kind aiming at one square (disambiguation).
const SEEDS: &[&str] = &[
    Board::START_FEN,
    // Kiwipete and the other chessprogramming-wiki perft positions.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // Rows of pawns about to promote: queens and rooks pile up, disambiguation follows.
    "7k/PPPP4/8/8/8/8/4pppp/K7 w - - 0 1",
    // Knights and rooks doubled on files and ranks.
    "r3k2r/8/2N1N3/8/8/2N1N3/8/R3K2R w KQkq - 0 1",
];

fn shakmaty_position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .expect("our FEN is valid FEN")
        .into_position(CastlingMode::Standard)
        .expect("our position is legal for shakmaty")
}

/// Visits positions reached by random play from the seeds, preferring (most of the time)
/// captures, promotions, castling, en passant and checks so they occur often.
fn random_positions(games: usize, plies: usize, mut visit: impl FnMut(&Board, &[(Move, String)])) {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for game in 0..games {
        let mut board = Board::from_fen(SEEDS[game % SEEDS.len()]).unwrap();
        for _ in 0..plies {
            let moves: Vec<(Move, String)> = board
                .legal_moves()
                .iter()
                .map(|&m| (m, board.san(m)))
                .collect();
            visit(&board, &moves);
            if moves.is_empty() || board.halfmove_clock() >= 100 {
                break;
            }
            let spicy: Vec<&(Move, String)> = moves
                .iter()
                .filter(|(m, san)| m.is_tactical() || m.is_castle() || san.ends_with(['+', '#']))
                .collect();
            let (m, _) = if !spicy.is_empty() && rng.below(10) < 6 {
                spicy[rng.below(spicy.len())]
            } else {
                &moves[rng.below(moves.len())]
            };
            board.make(*m);
        }
    }
}

#[test]
fn every_legal_move_round_trips_and_san_agrees_with_shakmaty() {
    let mut positions = 0usize;
    let mut moves_checked = 0usize;
    let (mut castles, mut eps, mut promos, mut underpromos, mut mates, mut disambiguated) =
        (0, 0, 0, 0, 0, 0);
    random_positions(400, 60, |board, moves| {
        positions += 1;
        let fen = board.to_fen();
        let pos = shakmaty_position(&fen);
        assert_eq!(
            pos.legal_moves().len(),
            moves.len(),
            "move count differs in {fen}"
        );
        for (m, san) in moves {
            moves_checked += 1;
            let uci = m.to_string();
            assert_eq!(board.parse_uci_move(&uci), Ok(*m), "{uci} in {fen}");
            assert_eq!(
                board.parse_uci_move(&uci.to_uppercase()),
                Ok(*m),
                "{uci} upper case in {fen}"
            );
            assert_eq!(board.parse_san(san), Ok(*m), "SAN {san} in {fen}");
            assert_eq!(board.parse_move(san), Ok(*m), "parse_move {san} in {fen}");
            assert_eq!(board.parse_move(&uci), Ok(*m), "parse_move {uci} in {fen}");
            // The same SAN without its check mark, and with an annotation, still reads.
            let bare = san.trim_end_matches(['+', '#']);
            assert_eq!(board.parse_san(bare), Ok(*m), "SAN {bare} in {fen}");
            assert_eq!(
                board.parse_san(&format!("{san}!?")),
                Ok(*m),
                "SAN {san}!? in {fen}"
            );

            let sm = UciMove::from_ascii(uci.as_bytes())
                .unwrap()
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("shakmaty rejects {uci} in {fen}: {e}"));
            let oracle = SanPlus::from_move(pos.clone(), sm).to_string();
            assert_eq!(san, &oracle, "SAN of {uci} in {fen}");

            castles += m.is_castle() as usize;
            eps += m.is_en_passant() as usize;
            promos += m.promotion().is_some() as usize;
            underpromos +=
                (m.promotion()
                    .is_some_and(|p| p != ox88::chess::PieceKind::Queen)) as usize;
            mates += san.ends_with('#') as usize;
            // A piece move whose text, without letter, capture mark and suffix, is longer
            // than its target square names a from file or rank.
            if san.starts_with(['Q', 'R', 'B', 'N']) {
                let core: String = san[1..]
                    .chars()
                    .filter(|c| !matches!(c, 'x' | '+' | '#'))
                    .collect();
                disambiguated += (core.len() > 2) as usize;
            }
        }
    });
    eprintln!(
        "{positions} positions, {moves_checked} moves: {castles} castles, {eps} en passant, {promos} promotions ({underpromos} under), {mates} mates, {disambiguated} disambiguated"
    );
    assert!(positions >= 10_000, "only {positions} positions");
    for (what, n) in [
        ("castles", castles),
        ("en passant", eps),
        ("promotions", promos),
        ("mates", mates),
        ("disambiguations", disambiguated),
    ] {
        assert!(n >= 20, "random play met too few {what}: {n}");
    }
}

#[test]
fn illegal_coordinate_moves_are_rejected_with_a_reason() {
    // Every from/to pair that is not a legal move must be refused as Illegal (never Syntax,
    // never accepted), and the text must name the squares involved.
    random_positions(16, 30, |board, moves| {
        for from in ox88::chess::Square::all() {
            for to in ox88::chess::Square::all() {
                if from == to {
                    continue;
                }
                let text = format!("{from}{to}");
                let legal = moves.iter().find(|(m, _)| m.from() == from && m.to() == to);
                match board.parse_uci_move(&text) {
                    Ok(m) => {
                        // Also accepted: a king onto its own rook, read as castling.
                        let is_castle_alias = m.is_castle() && m.from() == from;
                        assert!(
                            legal.is_some() && legal.unwrap().0 == m || is_castle_alias,
                            "{text} accepted in {}",
                            board.to_fen()
                        );
                        assert!(m.promotion().is_none(), "{text} promoted without asking");
                    }
                    Err(MoveParseError::Illegal(why)) => {
                        assert!(why.starts_with(&format!("{text}: ")), "{why}");
                        let promotes = legal.is_some_and(|(m, _)| m.promotion().is_some());
                        assert_eq!(promotes, why.contains("a promotion needs a piece"), "{why}");
                        assert!(
                            legal.is_none() || promotes,
                            "{text} is legal but refused: {why}"
                        );
                    }
                    Err(MoveParseError::Syntax(why)) => panic!("{text} is good syntax: {why}"),
                }
            }
        }
    });
}

#[test]
fn ambiguous_san_lists_the_candidates() {
    let board = Board::from_fen("r3k2r/8/2N1N3/8/8/2N1N3/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(
        board.parse_san("Nd4").unwrap_err().to_string(),
        "Nd4: ambiguous: could be Ncd4 or Ned4"
    );
    assert_eq!(
        board.parse_san("N3d5").unwrap_err().to_string(),
        "N3d5: ambiguous: could be Ncd5 or Ned5"
    );
    assert_eq!(
        board.parse_san("Nc3d5").map(|m| m.from().to_string()),
        Ok("c3".to_string())
    );
    assert!(matches!(board.parse_san("Rd1"), Ok(m) if m.from().to_string() == "a1"));
}

#[test]
fn hints_name_the_targets() {
    let board = Board::startpos();
    let e2: ox88::chess::Square = "e2".parse().unwrap();
    let targets: Vec<String> = board
        .legal_targets(e2)
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(targets, ["e3", "e4"]);
    assert_eq!(
        board.move_hint(e2).as_deref(),
        Some("the pawn on e2 can go to e3 or e4")
    );
    assert_eq!(board.move_hint("e7".parse().unwrap()), None);
    assert_eq!(board.move_hint("e4".parse().unwrap()), None);
    assert_eq!(
        board.move_hint("d1".parse().unwrap()).as_deref(),
        Some("the queen on d1 cannot move")
    );
}

/// Positions for the property tests: the start, a middlegame, a promotion race and an
/// en-passant position.
fn some_board(i: usize) -> Board {
    let fens = [
        Board::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
    ];
    Board::from_fen(fens[i % fens.len()]).unwrap()
}

fn accepted_move_is_legal(
    board: &Board,
    r: Result<Move, MoveParseError>,
) -> Result<(), TestCaseError> {
    match r {
        Ok(m) => prop_assert!(board.legal_moves().contains(m), "{m} is not legal"),
        Err(e) => prop_assert!(!e.to_string().is_empty()),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_string_gives_an_error_or_a_legal_move(i in 0usize..4, text in any::<String>()) {
        let board = some_board(i);
        accepted_move_is_legal(&board, board.parse_move(&text))?;
        accepted_move_is_legal(&board, board.parse_san(&text))?;
        accepted_move_is_legal(&board, board.parse_uci_move(&text))?;
    }

    #[test]
    fn move_like_strings_give_an_error_or_a_legal_move(i in 0usize..4, text in "[a-hKQRBNPkqrbnOo0-9x=+#!?()/:. -]{0,9}") {
        let board = some_board(i);
        accepted_move_is_legal(&board, board.parse_move(&text))?;
        accepted_move_is_legal(&board, board.parse_san(&text))?;
        accepted_move_is_legal(&board, board.parse_uci_move(&text))?;
    }
}
