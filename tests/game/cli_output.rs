//! What a newcomer meets first: the README's opening (the title, one sentence, the two
//! commands that work on a fresh machine), and subcommands whose reader goes away
//! (`ox88 man | head -1`) ending quietly: no error message, no panic.

use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

#[test]
fn a_closed_pipe_ends_every_printing_subcommand_quietly() {
    for args in [
        &["man"][..],
        &["completions", "bash"],
        &["perft", "3", "--divide"],
        &["bench", "--depth", "2"],
        &["eval", "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ox88"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ox88 starts");
        // The reader goes away before the first line: every write finds the pipe closed.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("ox88 ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.is_empty(), "{args:?} said: {stderr}");
        assert!(
            out.status.success() || out.status.signal() == Some(13),
            "{args:?} ended with {:?}",
            out.status
        );
    }
}

#[test]
fn the_readme_opens_with_the_title_a_sentence_and_the_two_commands() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
        .expect("README.md");
    let lines: Vec<&str> = readme.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines[0], "# ox88");
    assert!(
        lines[1].ends_with('.') && !lines[1].starts_with(['#', '`', '|']),
        "one sentence: {}",
        lines[1]
    );
    assert!(lines[2].starts_with("```"), "{}", lines[2]);
    assert!(lines[3].starts_with("cargo run --release"), "{}", lines[3]);
    assert!(lines[4].starts_with("cargo test --release"), "{}", lines[4]);
    assert_eq!(lines[5], "```");
    // A name of the project's own ("the seed pages") is said what it is where it first
    // appears: its paragraph names them as the tutorial pages ox88 grew from.
    if let Some(at) = readme.find("seed pages") {
        let paragraph_end = readme[at..].find("\n\n").map_or(readme.len(), |e| at + e);
        let paragraph = &readme[at..paragraph_end];
        assert!(
            paragraph.contains("tutorial pages"),
            "the seed pages are not explained: {paragraph}"
        );
    }
}

/// `ox88 eval` on a position without a legal move says what it is, not a number: a mate
/// ends with `E: mate`, a stalemate with `E: 0`.
#[test]
fn eval_says_checkmate_and_stalemate_instead_of_a_number() {
    let eval = |fen: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_ox88"))
            .args(["eval", "--fen", fen])
            .output()
            .expect("ox88 runs");
        assert!(out.status.success(), "{fen}");
        String::from_utf8(out.stdout).expect("utf-8")
    };
    // Fool's mate: White is mated.
    let mated = eval("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_eq!(mated.trim(), "checkmate, Black wins\nE: mate");
    let stalemate = eval("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemate.trim(), "stalemate\nE: 0");
    let normal = eval("8/8/8/8/8/8/8/K1k5 w - - 0 1");
    let last = normal.lines().last().expect("a last line");
    assert!(
        last.starts_with("E: ") && last[3..].parse::<i32>().is_ok(),
        "{last}"
    );
}
