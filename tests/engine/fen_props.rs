//! Property tests: any string as FEN gives a clear error or a valid position, never a panic;
//! mutations of valid FENs likewise, and whatever is accepted round-trips and generates
//! moves that shakmaty (independent oracle) agrees with.

use ox88::chess::Board;
use proptest::prelude::*;

const VALID: [&str; 6] = [
    Board::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
];

fn check_accepted(fen: &str) {
    if let Ok(b) = Board::from_fen(fen) {
        let out = b.to_fen();
        let again = Board::from_fen(&out).expect("our own FEN parses");
        assert_eq!(again.to_fen(), out);
        assert_eq!(again.hash(), b.hash());
        // Whatever we accept, shakmaty must find the same moves (it may refuse some
        // positions we accept, e.g. with impossible check configurations).
        if let Ok(f) = out.parse::<shakmaty::fen::Fen>()
            && let Ok(p) = f.into_position::<shakmaty::Chess>(shakmaty::CastlingMode::Standard)
        {
            use shakmaty::Position;
            assert_eq!(b.legal_moves().len(), p.legal_moves().len(), "{out}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_strings_never_panic(s in "\\PC{0,100}") {
        check_accepted(&s);
    }

    #[test]
    fn fen_alphabet_strings_never_panic(s in "[pnbrqkPNBRQK1-9/ wb\\-KQkqa-h0-9]{0,90}") {
        check_accepted(&s);
    }

    #[test]
    fn mutated_valid_fens_never_panic(which in 0usize..VALID.len(), pos in 0usize..90, ch in proptest::char::any(), op in 0u8..3) {
        let mut chars: Vec<char> = VALID[which].chars().collect();
        let i = pos % (chars.len() + 1);
        match op {
            0 if i < chars.len() => { chars[i] = ch; }
            1 => chars.insert(i, ch),
            _ if i < chars.len() => { chars.remove(i); }
            _ => {}
        }
        let s: String = chars.into_iter().collect();
        check_accepted(&s);
    }
}
