//! The UCI binary spawned as GUIs use it (`ox88 uci`, talked to through pipes). Every read
//! has a deadline (a reader thread feeds a channel), so a hang fails the test instead of
//! freezing it, and a failure shows the end of the conversation.

// Each test crate that includes `common` uses its own subset of the harness (most none).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A bound for "the engine answers at all" (`readyok`, `uciok`, `d`): generous because the
/// machine is shared; a hang check, not a speed assertion.
pub const ANSWER: Duration = Duration::from_secs(20);

pub struct Uci {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent and received so far, for failure messages.
    log: Vec<String>,
}

impl Uci {
    pub fn start() -> Uci {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ox88"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn ox88 uci");
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Uci {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("write to engine");
        stdin.flush().expect("flush to engine");
        self.log.push(format!(">> {}", shorten(line)));
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush to engine");
        self.log.push(format!(">> <{} raw bytes>", bytes.len()));
    }

    pub fn recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.log.push(format!("<< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The last lines of the conversation, for failure messages.
    pub fn transcript(&self) -> String {
        let start = self.log.len().saturating_sub(60);
        self.log[start..].join("\n")
    }

    /// Lines up to and including the first one matching `done`; fails the test naming
    /// `what` if none comes within `timeout`.
    pub fn until(
        &mut self,
        timeout: Duration,
        what: &str,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv(left) {
                Some(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                None => panic!(
                    "no {what} within {timeout:?}; transcript:\n{}",
                    self.transcript()
                ),
            }
        }
    }

    /// Sends `isready` and returns what came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(ANSWER, "readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// Waits for `bestmove`; returns the info lines before it and the move text.
    pub fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, String) {
        let mut lines = self.until(timeout, "bestmove", |l| l.starts_with("bestmove"));
        let last = lines.pop().unwrap_or_default();
        let mv = last
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        (lines, mv)
    }

    /// Waits for the search to report having run `ms` milliseconds or more (an `info` line
    /// whose `time` says so; `0`: any report at all): proof that it is still going. Fails if
    /// `bestmove` comes first.
    pub fn searching_past(&mut self, ms: u64) {
        let what = format!("an info line at {ms} ms or later");
        let lines = self.until(ANSWER, &what, |l| {
            l.starts_with("bestmove") || info_time(l).is_some_and(|t| t >= ms)
        });
        assert!(
            !lines.last().is_some_and(|l| l.starts_with("bestmove")),
            "bestmove before the search had run {ms} ms; transcript:\n{}",
            self.transcript()
        );
    }

    /// Asserts nothing starting with `prefix` arrives within `wait`.
    pub fn quiet_for(&mut self, wait: Duration, prefix: &str) {
        let deadline = Instant::now() + wait;
        while let Some(line) = self.recv(deadline.saturating_duration_since(Instant::now())) {
            assert!(
                !line.starts_with(prefix),
                "'{prefix}' came too early; transcript:\n{}",
                self.transcript()
            );
        }
    }

    /// `uci` … `uciok`; returns the lines up to `uciok`.
    pub fn handshake(&mut self) -> Vec<String> {
        self.send("uci");
        self.until(ANSWER, "uciok", |l| l == "uciok")
    }

    /// Sends a line that must be refused: an `info string error` line before the next
    /// `readyok`.
    pub fn expect_error(&mut self, line: &str) -> String {
        self.send(line);
        let before = self.sync();
        match before.iter().find(|l| l.starts_with("info string error")) {
            Some(e) => e.clone(),
            None => panic!(
                "no error for '{}'; transcript:\n{}",
                shorten(line),
                self.transcript()
            ),
        }
    }

    /// Sends a line that must be accepted without complaint.
    pub fn expect_ok(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        let before = self.sync();
        assert!(
            !before.iter().any(|l| l.starts_with("info string error")),
            "'{line}' was refused; transcript:\n{}",
            self.transcript()
        );
        before
    }

    /// The `Fen:` line of `d`.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(ANSWER, "Fen line", |l| l.starts_with("Fen: "));
        let fen = lines
            .last()
            .map(|l| l["Fen: ".len()..].to_string())
            .unwrap_or_default();
        self.sync();
        fen
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
        self.log.push(">> <end of input>".into());
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> ExitStatus {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for ox88") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "ox88 did not exit within {timeout:?}; transcript:\n{}",
                self.transcript()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `s`, cut to 120 characters for the transcript.
pub fn shorten(s: &str) -> String {
    if s.len() > 120 {
        format!(
            "{}… ({} bytes)",
            s.chars().take(120).collect::<String>(),
            s.len()
        )
    } else {
        s.to_string()
    }
}

/// The `time` (milliseconds) of an `info` line that has one.
fn info_time(line: &str) -> Option<u64> {
    let mut words = line.strip_prefix("info ")?.split_whitespace();
    words.find(|w| *w == "time")?;
    words.next()?.parse().ok()
}
