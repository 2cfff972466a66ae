//! The SSH key parser under random input: it never panics, and a stream split anywhere
//! (as TCP and SSH packets split it) decodes to the same events as the whole stream. And
//! what a remote peer sends, through the decoder to the app's command line: whatever it is,
//! what the session holds stays within its budgets.

use crate::common;

use common::app::builder_with;
use ox88::serve::input::{Input, PASTE_LIMIT, Parser};
use ox88::tui::app::input::{HISTORY_MAX, LINE_MAX};
use ox88::tui::app::log::{LOG_BYTES, LOG_LINE_MAX};
use ox88::tui::{App, ColorDepth, Options};
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

/// What a peer may send on the channel: keys, lines that are submitted (moves refused, so
/// they stay in the history), arrows through the history, yanks, and pastes past the caps.
fn peer_bytes() -> impl Strategy<Value = Vec<u8>> {
    let big_paste = [
        b"\x1b[200~".to_vec(),
        "é♞x".repeat(PASTE_LIMIT / 4).into_bytes(),
        b"\x1b[201~".to_vec(),
    ]
    .concat();
    let many_lines: Vec<u8> = (0..HISTORY_MAX + 40)
        .flat_map(|i| format!("z{i}\r").into_bytes())
        .collect();
    let long_line: Vec<u8> = "e2e4 ".repeat(LINE_MAX / 3).into_bytes();
    let piece = prop_oneof![
        terminal_bytes(),
        Just(big_paste),
        Just(many_lines),
        Just(long_line),
        // Up, Down, Ctrl+U / Ctrl+K / Ctrl+Y (cut and yank), Backspace, Enter.
        Just(b"\x1b[A\x1b[A\x1b[B".to_vec()),
        Just(b"\x15\x19\x19\x19\x0b\x19".to_vec()),
        Just(b"\x7f\r".to_vec()),
        proptest::collection::vec(any::<u8>(), 1..64),
    ];
    proptest::collection::vec(piece, 1..12).prop_map(|v| v.concat())
}

/// A session's app as the server builds one: `:save` confined to a folder of its own.
fn session_app(dir: &std::path::Path) -> App {
    let opts = Options::of(common::app::test_settings());
    let (builder, _) = builder_with(&opts, "default", ColorDepth::TrueColor);
    let mut app = builder.file_root(dir.join("saved")).build();
    // Drawn once, as a session is before any key: a screen has a size.
    let _ = common::app::screen(&mut app, 120, 40);
    app
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn whatever_a_peer_sends_the_line_its_history_and_the_log_stay_bounded(
        chunks in proptest::collection::vec(peer_bytes(), 1..6),
        cuts in proptest::collection::vec(1usize..4096, 1..8),
    ) {
        let dir = common::TempDir::new("serve-peer-budgets");
        let mut app = session_app(dir.path());
        let mut parser = Parser::new();
        let bytes = chunks.concat();
        let mut from = 0;
        for cut in cuts.iter().cycle().take(4096) {
            if from >= bytes.len() {
                break;
            }
            let to = (from + cut).min(bytes.len());
            for input in parser.feed(&bytes[from..to]) {
                match input {
                    Input::Key(k) => app.handle_key(k),
                    Input::Paste(t) => app.handle_paste(&t),
                }
            }
            from = to;
            // What a peer can make the session hold, after every packet.
            prop_assert!(parser.buffered() <= PASTE_LIMIT + 64, "{}", parser.buffered());
            prop_assert!(app.input().value().len() <= LINE_MAX);
            prop_assert!(app.input().history_len() <= HISTORY_MAX);
            prop_assert!(app.log_buffer().bytes() <= LOG_BYTES);
            prop_assert!(app.log_buffer().lines().all(|l| l.text.len() <= LOG_LINE_MAX));
        }
        for input in parser.flush() {
            if let Input::Key(k) = input {
                app.handle_key(k);
            }
        }
        prop_assert!(app.input().value().len() <= LINE_MAX);
        // A paste never ended waits for its end marker, within its cap.
        prop_assert!(parser.buffered() <= PASTE_LIMIT + 64, "{}", parser.buffered());
    }
}

#[test]
fn a_large_paste_goes_in_at_once_up_to_the_line_cap() {
    let dir = common::TempDir::new("serve-paste");
    let mut app = session_app(dir.path());
    let mut parser = Parser::new();
    let text = "a".repeat(60 * 1024);
    let bytes = [b"\x1b[200~", text.as_bytes(), b"\x1b[201~"].concat();
    let inputs = parser.feed(&bytes);
    assert_eq!(inputs.len(), 1, "one paste, not sixty thousand keys");
    for input in inputs {
        if let Input::Paste(t) = input {
            app.handle_paste(&t);
        }
    }
    assert_eq!(app.input().value().len(), LINE_MAX);
    let said = common::app::message_text(&app);
    assert!(said.contains("the paste was cut"), "{said}");
}
