//! Subcommands whose reader goes away (`ox88 man | head -1`) end quietly: no error message,
//! no panic, whatever they were writing.

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
