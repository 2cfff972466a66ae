//! Differential test against shakmaty, an independent rules implementation (dev-dependency
//! only). Positions come from random play biased towards castling, en passant, promotions
//! and checks; at every one, legal move sets, check/mate/stalemate verdicts, FEN, and the
//! incremental hash and material (versus recomputation) must agree, across make and unmake.

use crate::common;
use common::Rng;

use std::collections::BTreeSet;

use ox88::chess::{Board, IllegalMove, Move};
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

fn oracle(fen: &str) -> Chess {
    let f: Fen = fen.parse().expect("shakmaty parses our FEN");
    f.into_position(CastlingMode::Standard)
        .expect("shakmaty accepts our position")
}

fn our_moves(b: &Board) -> BTreeSet<String> {
    b.legal_moves().iter().map(|m| m.to_string()).collect()
}

fn their_moves(p: &Chess) -> BTreeSet<String> {
    p.legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect()
}

/// Picks a move, preferring the interesting kinds so they occur often.
fn biased_pick(b: &Board, rng: &mut Rng) -> Move {
    let moves = b.legal_moves();
    let castles: Vec<Move> = moves.iter().copied().filter(|m| m.is_castle()).collect();
    if !castles.is_empty() && rng.below(2) == 0 {
        return castles[rng.below(castles.len())];
    }
    let eps: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| m.is_en_passant())
        .collect();
    if !eps.is_empty() && rng.below(4) != 0 {
        return eps[rng.below(eps.len())];
    }
    let special: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| {
            m.is_castle() || m.is_en_passant() || m.promotion().is_some() || m.is_double_push()
        })
        .collect();
    if !special.is_empty() && rng.below(3) == 0 {
        return special[rng.below(special.len())];
    }
    if rng.below(4) == 0 {
        // A checking move, if any.
        let mut probe = b.clone();
        let checks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| {
                probe.make(m);
                let c = probe.in_check();
                probe.unmake();
                c
            })
            .collect();
        if !checks.is_empty() {
            return checks[rng.below(checks.len())];
        }
    }
    moves.as_slice()[rng.below(moves.len())]
}

fn compare(b: &Board, ctx: &str) -> Chess {
    let fen = b.to_fen();
    let p = oracle(&fen);
    assert_eq!(our_moves(b), their_moves(&p), "{ctx}: legal moves of {fen}");
    assert_eq!(b.in_check(), p.is_check(), "{ctx}: check in {fen}");
    let no_moves = b.legal_moves().is_empty();
    assert_eq!(
        no_moves && b.in_check(),
        p.is_checkmate(),
        "{ctx}: mate in {fen}"
    );
    assert_eq!(
        no_moves && !b.in_check(),
        p.is_stalemate(),
        "{ctx}: stalemate in {fen}"
    );
    assert_eq!(
        b.insufficient_material(),
        p.is_insufficient_material(),
        "{ctx}: insufficient in {fen}"
    );
    let theirs = Fen::from_position(&p, EnPassantMode::PseudoLegal).to_string();
    assert_eq!(fen, theirs, "{ctx}: FEN");
    assert_eq!(
        Board::from_fen(&fen).unwrap().to_fen(),
        fen,
        "{ctx}: FEN round trip"
    );
    assert_eq!(
        b.hash(),
        b.compute_hash(),
        "{ctx}: incremental hash of {fen}"
    );
    assert_eq!(
        b.hash(),
        Board::from_fen(&fen).unwrap().hash(),
        "{ctx}: hash equals fresh hash"
    );
    let m = b.recount_material();
    assert_eq!(
        [
            b.material(ox88::chess::Color::White),
            b.material(ox88::chess::Color::Black)
        ],
        m,
        "{ctx}: material"
    );
    p
}

#[test]
fn ten_thousand_positions_agree_with_shakmaty() {
    let starts = [
        Board::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 0 1",
        "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/P1P1P1P1/8/8/1P1P1P1P/RNBQKBNR b KQkq - 0 1",
        "rnbqkbnr/p1p1p1p1/8/8/1p1p1p1p/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ];
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let mut positions = 0;
    let (mut castles, mut eps, mut promos, mut checks, mut mates) = (0, 0, 0, 0, 0);
    let mut game = 0;
    while positions < 10_000 {
        let mut b = Board::from_fen(starts[game % starts.len()]).unwrap();
        game += 1;
        let mut trail = Vec::new();
        for ply in 0..120 {
            let p = compare(&b, &format!("game {game} ply {ply}"));
            positions += 1;
            if p.is_checkmate() {
                mates += 1;
            }
            if b.legal_moves().is_empty() || b.halfmove_clock() >= 100 {
                break;
            }
            let m = biased_pick(&b, &mut rng);
            castles += usize::from(m.is_castle());
            eps += usize::from(m.is_en_passant());
            promos += usize::from(m.promotion().is_some());
            let before = (b.to_fen(), b.hash());
            b.make(m);
            // The pawn key follows captures of pawns, pushes, en passant and promotions.
            assert_eq!(b.pawn_hash(), b.compute_pawn_hash(), "pawn key after {m}");
            checks += usize::from(b.in_check());
            trail.push((m, before));
        }
        // Unmake all the way back: every position restored exactly.
        while let Some((m, (fen, hash))) = trail.pop() {
            b.unmake();
            assert_eq!(b.to_fen(), fen, "unmake of {m}");
            assert_eq!(b.hash(), hash, "hash after unmake of {m}");
            assert_eq!(b.hash(), b.compute_hash());
            assert_eq!(
                b.pawn_hash(),
                b.compute_pawn_hash(),
                "pawn key after unmake of {m}"
            );
        }
    }
    println!(
        "{positions} positions: {castles} castles, {eps} en passant, {promos} promotions, {checks} checks, {mates} mates"
    );
    // The bias did its job: every special rule was exercised many times.
    assert!(castles > 50, "castles {castles}");
    assert!(eps > 50, "en passant {eps}");
    assert!(promos > 100, "promotions {promos}");
    assert!(checks > 500, "checks {checks}");
    assert!(mates > 5, "mates {mates}");
}

#[test]
fn repetition_and_fifty_move_rules() {
    let mut b = Board::startpos();
    for _ in 0..2 {
        for mv in ["g1f3", "g8f6", "f3g1", "f6g8"] {
            let m = b
                .legal_moves()
                .iter()
                .copied()
                .find(|m| m.to_string() == mv)
                .unwrap();
            b.make(m);
        }
    }
    assert_eq!(
        b.repetitions(),
        2,
        "start position seen twice before: threefold"
    );
    let b = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    assert_eq!(b.halfmove_clock(), 99);
}

const PLAY_STARTS: [&str; 5] = [
    Board::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/pppppppp/8/P1P1P1P1/8/8/1P1P1P1P/RNBQKBNR b KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Random games where, at every ply, moves generated for *other* positions (the other
    /// starts, earlier plies) are offered to `play` first: each is refused with a reason and
    /// the board keeps its FEN, hash and history; then a random legal move plays exactly as
    /// the unchecked `make` would.
    #[test]
    fn play_takes_legal_moves_and_refuses_the_rest_untouched(
        seed in any::<u64>(),
        start in 0usize..PLAY_STARTS.len(),
    ) {
        let mut rng = Rng(seed | 1);
        let mut foreign: Vec<Move> = PLAY_STARTS
            .iter()
            .flat_map(|f| Board::from_fen(f).unwrap().legal_moves().as_slice().to_vec())
            .collect();
        let mut b = Board::from_fen(PLAY_STARTS[start]).unwrap();
        let mut refused = 0;
        for _ in 0..50 {
            let legal = b.legal_moves();
            if legal.is_empty() {
                break;
            }
            let theirs = their_moves(&oracle(&b.to_fen()));
            for _ in 0..6 {
                let m = rng.pick(&foreign);
                if legal.contains(m) {
                    continue;
                }
                let before = (b.to_fen(), b.hash(), b.ply_count(), b.last_move());
                let err = b.play(m).unwrap_err();
                refused += 1;
                prop_assert_eq!(&(b.to_fen(), b.hash(), b.ply_count(), b.last_move()), &before);
                prop_assert_eq!(b.hash(), b.compute_hash());
                match &err {
                    IllegalMove::NotLegal { mv, reason } => {
                        prop_assert_eq!(*mv, m);
                        prop_assert!(!reason.is_empty());
                        prop_assert!(!theirs.contains(&m.to_string()), "{} refused: {}", m, err);
                        let prefix = format!("{m}: ");
                        prop_assert!(err.to_string().starts_with(&prefix));
                    }
                    IllegalMove::OtherPosition { mv, legal: here } => {
                        prop_assert_eq!(*mv, m);
                        prop_assert!(legal.contains(*here) && *here != m);
                    }
                    IllegalMove::Null => prop_assert!(false, "no null move was offered"),
                }
            }
            let m = rng.pick(legal.as_slice());
            let mut made = b.clone();
            made.make(m);
            prop_assert_eq!(b.play(m), Ok(()));
            prop_assert_eq!(b.to_fen(), made.to_fen());
            prop_assert_eq!(b.hash(), made.hash());
            prop_assert_eq!(b.last_move(), Some(m));
            foreign.extend(legal.iter().copied());
        }
        prop_assert!(refused > 0);
    }
}

#[test]
fn play_explains_what_is_wrong_and_changes_nothing() {
    let start = Board::startpos();
    let e4 = start.parse_move("e4").unwrap();
    let mut b = start.clone();
    assert_eq!(b.play(e4), Ok(()));
    let after_e4 = b.to_fen();

    // The same move again: the pawn has gone.
    let err = b.play(e4).unwrap_err();
    assert_eq!(err.to_string(), "e2e4: there is no piece on e2");
    // White's move offered when Black is to play.
    let d4 = start.parse_move("d4").unwrap();
    assert_eq!(
        b.play(d4).unwrap_err().to_string(),
        "d2d4: the pawn on d2 is White's, and it is Black's move"
    );
    assert_eq!(
        b.play(Move::NONE),
        Err(IllegalMove::Null),
        "passing is not a move"
    );
    assert_eq!(b.to_fen(), after_e4);
    assert_eq!(b.ply_count(), 1);

    // Same squares, different move: a capture from a position where a8 held a rook.
    let capture = Board::from_fen("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1")
        .unwrap()
        .parse_move("Rxa8+")
        .unwrap();
    let mut quiet = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    let here = quiet.parse_move("Ra8+").unwrap();
    assert_eq!(
        quiet.play(capture),
        Err(IllegalMove::OtherPosition {
            mv: capture,
            legal: here
        })
    );
    assert_eq!(quiet.to_fen(), "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
}
