//! `ox88 serve` end to end on loopback: a russh client logs in, gets a pty, types moves and
//! reads the screen back through a VT100 emulator. Every wait is bounded; a failure prints
//! the screen.

use std::net::SocketAddr;
use std::num::NonZeroU16;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use ox88::serve::{Access, ServeConfig, Server};
use russh::keys::{Algorithm, PrivateKey, PrivateKeyWithHashAlg};
use russh::{ChannelMsg, Disconnect, client};
use tokio::time::{Instant, timeout};

/// Generous: the machine is shared.
const WAIT: Duration = Duration::from_secs(60);

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ox88-serve-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn new_key() -> PrivateKey {
    PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap()
}

fn config(dir: &TempDir, access: Access) -> ServeConfig {
    ServeConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        host_key: new_key(),
        access,
        max_sessions: 8,
        max_per_ip: 8,
        idle_timeout: Duration::from_secs(600),
        hash_mb: 4,
        depth: 3,
        data_dir: dir.0.clone(),
    }
}

struct TestServer {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl TestServer {
    async fn start(config: ServeConfig) -> TestServer {
        let server = Server::bind(config).await.unwrap();
        let addr = server.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            stop: Some(stop),
            task,
        }
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        timeout(WAIT, &mut self.task)
            .await
            .expect("the server stops")
            .unwrap()
            .unwrap();
    }
}

/// Trusts any host key (the test made it).
struct Client;

impl client::Handler for Client {
    type Error = russh::Error;
    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// Connects and tries `key`; the handle and whether the server let us in.
async fn login(addr: SocketAddr, key: &PrivateKey) -> (client::Handle<Client>, bool) {
    let config = Arc::new(client::Config::default());
    let mut handle = timeout(WAIT, client::connect(config, addr, Client))
        .await
        .expect("connect in time")
        .expect("connect");
    let auth = handle
        .authenticate_publickey(
            "player",
            PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None),
        )
        .await
        .expect("the server answers the key");
    (handle, auth.success())
}

/// A logged-in player with a pty and the TUI on it.
struct Player {
    handle: client::Handle<Client>,
    channel: russh::Channel<client::Msg>,
    parser: vt100::Parser,
    rows: u16,
    cols: u16,
    closed: bool,
}

impl Player {
    async fn join(addr: SocketAddr, key: &PrivateKey) -> Player {
        let (handle, ok) = login(addr, key).await;
        assert!(ok, "the key is let in");
        let channel = handle.channel_open_session().await.unwrap();
        channel
            .request_pty(true, "xterm-256color", 80, 24, 0, 0, &[])
            .await
            .unwrap();
        channel.request_shell(true).await.unwrap();
        Player {
            handle,
            channel,
            parser: vt100::Parser::new(
                NonZeroU16::new(24).unwrap(),
                NonZeroU16::new(80).unwrap(),
                0,
            ),
            rows: 24,
            cols: 80,
            closed: false,
        }
    }

    /// Reads what arrives within `dur` into the screen.
    async fn pump(&mut self, dur: Duration) {
        let deadline = Instant::now() + dur;
        while !self.closed {
            let Ok(msg) = tokio::time::timeout_at(deadline, self.channel.wait()).await else {
                return;
            };
            match msg {
                Some(ChannelMsg::Data { data }) => self.parser.process(&data),
                Some(ChannelMsg::Close) | None => self.closed = true,
                Some(_) => {}
            }
        }
    }

    async fn wait_for(&mut self, what: &str, done: impl Fn(&Player) -> bool) {
        let deadline = Instant::now() + WAIT;
        while !done(self) {
            assert!(
                Instant::now() < deadline && !self.closed,
                "waiting for {what} (closed: {}); screen:\n{}",
                self.closed,
                self.screen()
            );
            self.pump(Duration::from_millis(50)).await;
        }
    }

    async fn send(&mut self, text: &str) {
        self.channel.data(text.as_bytes()).await.unwrap();
    }

    async fn resize(&mut self, cols: u16, rows: u16) {
        self.channel
            .window_change(cols.into(), rows.into(), 0, 0)
            .await
            .unwrap();
        self.parser.screen_mut().set_size(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
        );
        self.rows = rows;
        self.cols = cols;
    }

    fn screen(&self) -> String {
        self.parser.screen().contents()
    }

    fn row(&self, n: u16) -> String {
        self.parser
            .screen()
            .rows(0, self.cols)
            .nth(n.into())
            .unwrap_or_default()
    }

    fn status(&self) -> String {
        self.row(self.rows - 1)
    }

    fn message(&self) -> String {
        self.row(self.rows - 2)
    }

    async fn leave(self) {
        let _ = self
            .handle
            .disconnect(Disconnect::ByApplication, "bye", "en")
            .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_resize_disconnect_and_resume_then_the_server_stops_cleanly() {
    let dir = TempDir::new("resume");
    let key = new_key();
    let server =
        TestServer::start(config(&dir, Access::Keys(vec![key.public_key().clone()]))).await;

    let mut p = Player::join(server.addr, &key).await;
    p.wait_for("the start screen", |p| {
        p.status().starts_with("White to move")
    })
    .await;
    assert!(
        p.parser.screen().alternate_screen(),
        "the TUI runs on the alternate screen"
    );
    assert!(
        p.status().contains("depth 3"),
        "the server's depth: {}",
        p.status()
    );

    p.send("e2e4\r").await;
    p.wait_for("the engine's reply", |p| {
        p.status().starts_with("White to move") && p.screen().contains("1.e4 ")
    })
    .await;
    // The board's rank-4 row (after 1.e4 and any reply, only White's e-pawn stands there).
    let rank4 = (0..p.rows)
        .map(|r| p.row(r))
        .find(|row| row.starts_with("│4 "))
        .unwrap_or_default();
    assert!(rank4.contains('♟'), "e4 has White's pawn:\n{}", p.screen());

    // A file name from the player lands in their own directory, whatever path they give.
    p.send(":save ../../escape\r").await;
    p.wait_for("the save", |p| p.message().contains("saved 2 moves"))
        .await;
    let players = dir.0.join("players");
    let player_dir = std::fs::read_dir(&players)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert!(
        player_dir.join("saved").join("escape.pgn").is_file(),
        "saved in the player's directory"
    );
    assert!(!dir.0.join("escape.pgn").exists() && !players.join("escape.pgn").exists());

    // A bigger window: the layout follows, the status bar moves to the new last row.
    p.resize(100, 30).await;
    p.wait_for("the redraw at 100×30", |p| {
        p.status().starts_with("White to move") && p.screen().contains("1.e4 ")
    })
    .await;
    p.leave().await;

    // The same key again: the unfinished game is offered and resumed.
    let mut p = Player::join(server.addr, &key).await;
    p.wait_for("the resume question", |p| {
        p.message().contains("An unfinished game (2 moves")
    })
    .await;
    p.send("y").await;
    p.wait_for("the resumed game", |p| p.screen().contains("1.e4 "))
        .await;

    // The server stops: the session ends with a note and the client's screen restored.
    server.stop().await;
    p.wait_for("the goodbye", |p| {
        p.screen().contains("the server is stopping")
    })
    .await;
    assert!(
        !p.parser.screen().alternate_screen(),
        "the main screen is back"
    );
    let players = std::fs::read_dir(dir.0.join("players")).unwrap().count();
    assert_eq!(players, 1, "one key, one player directory");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_not_in_the_list_is_refused() {
    let dir = TempDir::new("refused");
    let listed = new_key();
    let stranger = new_key();
    let server = TestServer::start(config(
        &dir,
        Access::Keys(vec![listed.public_key().clone()]),
    ))
    .await;
    let (_handle, ok) = login(server.addr, &stranger).await;
    assert!(!ok, "an unlisted key must not get in");
    let (handle, ok) = login(server.addr, &listed).await;
    assert!(ok, "the listed key gets in");
    drop(handle);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_at_once_play_their_own_games() {
    let dir = TempDir::new("two");
    let (a, b) = (new_key(), new_key());
    let keys = vec![a.public_key().clone(), b.public_key().clone()];
    let server = TestServer::start(config(&dir, Access::Keys(keys))).await;
    let mut pa = Player::join(server.addr, &a).await;
    let mut pb = Player::join(server.addr, &b).await;
    pa.wait_for("A's start", |p| p.status().starts_with("White to move"))
        .await;
    pb.wait_for("B's start", |p| p.status().starts_with("White to move"))
        .await;
    pa.send("e2e4\r").await;
    pb.send("d2d4\r").await;
    pa.wait_for("A's reply", |p| {
        p.status().starts_with("White to move") && p.screen().contains("1.e4 ")
    })
    .await;
    pb.wait_for("B's reply", |p| {
        p.status().starts_with("White to move") && p.screen().contains("1.d4 ")
    })
    .await;
    assert!(
        !pa.screen().contains("1.d4"),
        "A sees only A's game:\n{}",
        pa.screen()
    );
    assert!(
        !pb.screen().contains("1.e4"),
        "B sees only B's game:\n{}",
        pb.screen()
    );
    // Ctrl-C ends the player's session, not the server: B plays on.
    pa.send("\x03").await;
    pa.wait_for("A's session to close", |p| p.closed).await;
    pb.send("g1f3\r").await;
    pb.wait_for("B's second reply", |p| p.screen().contains("2.Nf3 "))
        .await;
    pb.leave().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_subsystems_and_forwarding_are_refused() {
    let dir = TempDir::new("exec");
    let server = TestServer::start(config(&dir, Access::Open)).await;
    let (handle, ok) = login(server.addr, &new_key()).await;
    assert!(ok, "open mode lets anyone in");

    let mut channel = handle.channel_open_session().await.unwrap();
    channel.exec(true, "cat /etc/passwd").await.unwrap();
    let mut answers = Vec::new();
    let deadline = Instant::now() + WAIT;
    while let Ok(Some(msg)) = tokio::time::timeout_at(deadline, channel.wait()).await {
        let done = matches!(msg, ChannelMsg::Close);
        answers.push(msg);
        if done {
            break;
        }
    }
    assert!(
        answers.iter().any(|m| matches!(m, ChannelMsg::Failure)),
        "exec is refused: {answers:?}"
    );
    assert!(
        !answers.iter().any(|m| matches!(m, ChannelMsg::Data { .. })),
        "and runs nothing: {answers:?}"
    );

    let forward = handle
        .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5555)
        .await;
    assert!(forward.is_err(), "port forwarding is refused");
    drop(handle);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_beyond_the_per_address_cap_are_turned_away() {
    let dir = TempDir::new("cap");
    let mut cfg = config(&dir, Access::Open);
    cfg.max_per_ip = 1;
    let server = TestServer::start(cfg).await;
    let (first, ok) = login(server.addr, &new_key()).await;
    assert!(ok);
    let config = Arc::new(client::Config::default());
    let second = timeout(WAIT, client::connect(config, server.addr, Client))
        .await
        .expect("an answer in time");
    assert!(
        second.is_err(),
        "a second connection from the same address is refused"
    );
    drop(first);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_is_closed_with_a_note() {
    let dir = TempDir::new("idle");
    let mut cfg = config(&dir, Access::Open);
    cfg.idle_timeout = Duration::from_millis(300);
    let server = TestServer::start(cfg).await;
    let mut p = Player::join(server.addr, &new_key()).await;
    p.wait_for("the note", |p| {
        p.screen().contains("closed for lack of input")
    })
    .await;
    p.wait_for("the channel to close", |p| p.closed).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminal_keys_sent_as_bytes_reach_the_app() {
    let dir = TempDir::new("keys");
    let server = TestServer::start(config(&dir, Access::Open)).await;
    let mut p = Player::join(server.addr, &new_key()).await;
    p.wait_for("the start screen", |p| p.status().contains("depth 3"))
        .await;
    // Ctrl-Up as xterm sends it: the depth key.
    p.send("\x1b[1;5A").await;
    p.wait_for("depth 4", |p| p.status().contains("depth 4"))
        .await;
    // Typed text, then a lone Esc (after the quiet time) clears the input line.
    p.send("e2e5").await;
    p.wait_for("the typed text", |p| p.row(21).contains("e2e5"))
        .await;
    p.send("\x1b").await;
    p.wait_for("the line cleared", |p| !p.row(21).contains("e2e5"))
        .await;
    // A bracketed paste fills the line without playing anything.
    p.send("\x1b[200~d2d4\x1b[201~").await;
    p.wait_for("the pasted text", |p| p.row(21).contains("d2d4"))
        .await;
    assert!(p.status().starts_with("White to move"), "{}", p.status());
    p.leave().await;
    server.stop().await;
}
