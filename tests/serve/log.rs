//! The real `ox88 serve --open` binary, as its operator and an open visitor see it: the log
//! on standard error has a line for every session's end (how long, how many moves, why:
//! quit, disconnect, idle timeout, server shutdown), and a visitor, who can never come back
//! to a game, is told it ends with the session, never that it is saved.

use crate::common;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Instant;

use common::ssh::{SshClient, new_key};
use common::{TempDir, WAIT};

/// `ox88 serve --open` on a loopback port of its choosing, its log read line by line.
struct Server {
    child: Child,
    log: Receiver<String>,
    /// Every log line read so far, for failure messages.
    seen: Vec<String>,
    addr: String,
}

impl Server {
    fn start(dir: &TempDir, extra: &[&str]) -> Server {
        Server::start_with(dir, &["--open"], extra)
    }

    /// As [`Server::start`], let in as `access` says (`--open`, `--authorized-keys FILE`).
    fn start_with(dir: &TempDir, access: &[&str], extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ox88"))
            .arg("serve")
            .args(access)
            .args(["--listen", "127.0.0.1:0", "--depth", "2"])
            .args(extra)
            .env("OX88_DATA_DIR", dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start ox88 serve");
        let stderr = child.stderr.take().unwrap();
        let (tx, log) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            log,
            seen: Vec::new(),
            addr: String::new(),
        };
        let line = server.wait_log("the listening line", |l| l.contains("listening on "));
        let after = &line[line.find("listening on ").unwrap() + "listening on ".len()..];
        server.addr = after.split_whitespace().next().unwrap().to_string();
        // The line names the database, which only the server's user may read.
        let db = line
            .split("; database ")
            .nth(1)
            .expect("the database named");
        let mode = std::fs::metadata(db)
            .expect("the database")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{line}");
        server
    }

    /// The first log line from now on that `done` accepts, or a failure showing the log.
    fn wait_log(&mut self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.log.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if done(&line) {
                        return line;
                    }
                }
                Err(_) => panic!("no {what} in the log:\n{}", self.seen.join("\n")),
            }
        }
    }

    /// SIGTERM, as a service manager stops it.
    fn terminate(&self) {
        self.signal("TERM");
    }

    /// Sends the server `SIG<name>`.
    fn signal(&self, name: &str) {
        let ok = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("run kill")
            .success();
        assert!(ok, "kill -{name}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An open visitor on an 80×24 pty, at the start screen (which says the game is not kept).
async fn visit(addr: &str) -> SshClient {
    let mut p = SshClient::connect(addr).await.expect("connect");
    assert!(p.auth("visitor", &new_key()).await.unwrap(), "let in");
    p.open_shell(80, 24).await.unwrap();
    p.wait_for("the start screen and its note", |s| {
        s.status().starts_with("White to move")
            && s.message().contains("the game ends when you leave")
    })
    .await;
    p
}

/// The session number of a `... session N for open-...` start line.
fn session_of(line: &str) -> String {
    let after = &line[line.find(" session ").unwrap() + " session ".len()..];
    after.split_whitespace().next().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_sessions_say_the_game_ends_with_them_and_the_log_says_how_each_ended() {
    let dir = TempDir::new("serve-log");
    let mut server = Server::start(&dir, &[]);

    // Quit after a move and the engine's reply: two moves on the board.
    let mut p = visit(&server.addr).await;
    let first = session_of(&server.wait_log("the first start", |l| l.contains(" for open-")));
    p.send("e2e4\r").await;
    p.wait_for("the engine's reply", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.e4 ")
    })
    .await;
    p.send(":quit\r").await;
    p.wait_for("the goodbye", |s| {
        s.text().contains("the game ended with the session")
    })
    .await;
    assert!(
        !p.screen().text().contains("saved"),
        "{}",
        p.screen().text()
    );
    let end = server.wait_log("the quit", |l| {
        l.contains(&format!("session {first} ended"))
    });
    assert!(end.contains("ended: quit after "), "{end}");
    assert!(end.ends_with(", 2 moves on the board"), "{end}");

    // Gone without a word.
    let p = visit(&server.addr).await;
    let second = session_of(&server.wait_log("the second start", |l| l.contains(" for open-")));
    p.disconnect().await;
    let end = server.wait_log("the disconnect", |l| {
        l.contains(&format!("session {second} ended"))
    });
    assert!(end.contains("ended: disconnect after "), "{end}");
    assert!(end.ends_with(", 0 moves on the board"), "{end}");

    // Still playing when the server stops.
    let mut p = visit(&server.addr).await;
    let third = session_of(&server.wait_log("the third start", |l| l.contains(" for open-")));
    server.terminate();
    p.wait_for("the goodbye", |s| {
        s.text()
            .contains("the server is stopping; the game ended with the session")
    })
    .await;
    let end = server.wait_log("the shutdown", |l| {
        l.contains(&format!("session {third} ended"))
    });
    assert!(end.contains("ended: server shutdown after "), "{end}");
    // Nothing of the visitors is kept: their folders went with their sessions.
    let players = dir.path().join("serve").join("players");
    let deadline = Instant::now() + WAIT;
    while !visitor_folders(&players).is_empty() && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(visitor_folders(&players), Vec::<String>::new());
}

/// The visitors' folders under `players`.
fn visitor_folders(players: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(players)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("open-"))
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_has_a_folder_of_its_own_while_the_session_lasts() {
    let dir = TempDir::new("serve-log-folder");
    let mut server = Server::start(&dir, &[]);
    let players = dir.path().join("serve").join("players");
    let p = visit(&server.addr).await;
    let start = server.wait_log("the start", |l| l.contains(" for open-"));
    let folders = visitor_folders(&players);
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert!(
        start.contains(&format!(" for {} ", folders[0])),
        "{start}: {folders:?}"
    );
    p.disconnect().await;
    server.wait_log("the end", |l| l.contains(" ended: disconnect"));
    let deadline = Instant::now() + WAIT;
    while !visitor_folders(&players).is_empty() && Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(visitor_folders(&players), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sighup_reads_the_keys_again_and_sigint_saves_and_stops() {
    use russh::keys::HashAlg;
    let dir = TempDir::new("serve-log-hup");
    let (alice, bob) = (new_key(), new_key());
    let file = dir.path().join("players.keys");
    let line = |k: &russh::keys::PrivateKey| k.public_key().to_openssh().unwrap();
    std::fs::write(&file, format!("restrict {}\n", line(&alice))).unwrap();
    let keys = file.to_str().unwrap();
    let mut server = Server::start_with(&dir, &["--authorized-keys", keys], &[]);

    let mut a = SshClient::connect(server.addr.as_str()).await.unwrap();
    assert!(a.auth("alice", &alice).await.unwrap(), "alice is listed");
    a.open_shell(80, 24).await.unwrap();
    a.send("e2e4\r").await;
    a.wait_for("the engine's reply", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.e4 ")
    })
    .await;

    // Bob is not listed yet: refused, and the log names his key for the operator.
    let mut b = SshClient::connect(server.addr.as_str()).await.unwrap();
    assert!(!b.auth("bob", &bob).await.unwrap());
    let fp = bob.public_key().fingerprint(HashAlg::Sha256).to_string();
    let refused = server.wait_log("bob's key refused", |l| l.contains(&fp));
    assert!(
        refused.contains("not in ") && refused.contains(keys),
        "{refused}"
    );

    // Added to the file and SIGHUP: bob is in, alice's game goes on.
    std::fs::write(&file, format!("{}\n{}\n", line(&alice), line(&bob))).unwrap();
    server.signal("HUP");
    server.wait_log("the file read again", |l| l.contains("again: 2 keys"));
    let mut b = SshClient::connect(server.addr.as_str()).await.unwrap();
    assert!(b.auth("bob", &bob).await.unwrap(), "bob is listed now");
    b.open_shell(80, 24).await.unwrap();
    b.wait_for("bob's lobby", |s| s.text().contains("bob"))
        .await;
    assert!(!a.closed(), "alice's session was not touched");

    // SIGINT stops the server as SIGTERM does: every game saved, every session told.
    server.signal("INT");
    a.wait_for("the goodbye", |s| {
        s.text()
            .contains("the server is stopping; your game is saved")
    })
    .await;
    server.wait_log("alice's session ended", |l| {
        l.contains("ended: server shutdown") && l.contains("2 moves")
    });
    let status = server.child.wait().unwrap();
    assert!(status.success(), "{status}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_open_session_is_logged_as_timed_out() {
    let dir = TempDir::new("serve-log-idle");
    let mut server = Server::start(&dir, &["--idle-timeout", "1s"]);
    let mut p = SshClient::connect(server.addr.as_str())
        .await
        .expect("connect");
    assert!(p.auth("visitor", &new_key()).await.unwrap(), "let in");
    p.open_shell(80, 24).await.unwrap();
    p.wait_for("the note", |s| {
        s.text()
            .contains("closed for lack of input; the game ended with the session")
    })
    .await;
    let end = server.wait_log("the idle end", |l| l.contains(" ended: "));
    assert!(end.contains("ended: idle timeout after "), "{end}");
    assert!(end.ends_with(", 0 moves on the board"), "{end}");
}
