//! The SSH key parser under random input: it never panics, and a stream split anywhere
//! (as TCP and SSH packets split it) decodes to the same events as the whole stream.

use ox88::serve::input::{Input, Parser};
use proptest::prelude::*;

fn decode_whole(bytes: &[u8]) -> Vec<Input> {
    let mut p = Parser::new();
    let mut out = p.feed(bytes);
    out.extend(p.flush());
    out
}

fn decode_in_pieces(bytes: &[u8], cuts: &[usize]) -> Vec<Input> {
    let mut p = Parser::new();
    let mut out = Vec::new();
    let mut from = 0;
    for &cut in cuts {
        let cut = cut.clamp(from, bytes.len());
        out.extend(p.feed(&bytes[from..cut]));
        from = cut;
    }
    out.extend(p.feed(&bytes[from..]));
    out.extend(p.flush());
    out
}

/// Bytes a terminal sends: pieces of real sequences mixed with noise, so random streams hit
/// the interesting cases (cut sequences, pastes, UTF-8) far more often than uniform bytes.
fn terminal_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"\x1b".to_vec()),
        Just(b"\x1b[".to_vec()),
        Just(b"\x1b[1;5A".to_vec()),
        Just(b"\x1bOP".to_vec()),
        Just(b"\x1b[15~".to_vec()),
        Just(b"\x1b[[A".to_vec()),
        Just(b"\x1b[200~".to_vec()),
        Just(b"\x1b[201~".to_vec()),
        Just(b"\r\n".to_vec()),
        Just("é♞€".as_bytes().to_vec()),
        Just(b"e2e4".to_vec()),
        proptest::collection::vec(any::<u8>(), 1..8),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = decode_whole(&bytes);
    }

    #[test]
    fn a_stream_split_at_random_points_decodes_the_same(
        bytes in terminal_bytes(),
        mut cuts in proptest::collection::vec(0usize..256, 0..6),
    ) {
        cuts.sort_unstable();
        prop_assert_eq!(decode_in_pieces(&bytes, &cuts), decode_whole(&bytes));
    }

    #[test]
    fn a_stream_split_at_every_single_point_decodes_the_same(bytes in terminal_bytes()) {
        let whole = decode_whole(&bytes);
        for cut in 0..=bytes.len() {
            prop_assert_eq!(decode_in_pieces(&bytes, &[cut]), whole.clone(), "cut at {}", cut);
        }
    }

    #[test]
    fn a_stream_fed_one_byte_at_a_time_decodes_the_same(bytes in terminal_bytes()) {
        let cuts: Vec<usize> = (0..bytes.len()).collect();
        prop_assert_eq!(decode_in_pieces(&bytes, &cuts), decode_whole(&bytes));
    }
}
