//! `ox88 serve` end to end on loopback: a russh client logs in, gets a pty, types moves and
//! reads the screen back through a VT100 emulator. Every wait is bounded; a failure prints
//! the screen.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use common::served::{Served, member_in};
use common::ssh::{SshClient, TestServer, config, new_key};
use common::{TempDir, WAIT};
use ox88::serve::Access;
use russh::ChannelMsg;
use russh::keys::PrivateKey;
use tokio::time::Instant;

/// Logs in with `key` (which must be let in) and starts the TUI on an 80×24 pty.
async fn join(addr: SocketAddr, key: &PrivateKey) -> SshClient {
    join_as(addr, "player", key).await
}

/// As [`join`], logging in as `user` (a key's first login name is its name for good).
async fn join_as(addr: SocketAddr, user: &str, key: &PrivateKey) -> SshClient {
    let (mut p, ok) = SshClient::login_as(addr, user, key).await;
    assert!(ok, "the key is let in");
    p.open_shell(80, 24).await.unwrap();
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_resize_disconnect_and_resume_then_the_server_stops_cleanly() {
    let dir = TempDir::new("serve-resume");
    let key = new_key();
    let server = TestServer::start(config(
        dir.path(),
        Access::keys(vec![key.public_key().clone()]),
    ))
    .await;

    let mut p = join(server.addr(), &key).await;
    p.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    })
    .await;
    assert!(
        p.screen().alternate_screen(),
        "the TUI runs on the alternate screen"
    );
    assert!(
        p.screen().status().contains("depth 3"),
        "the server's depth: {}",
        p.screen().status()
    );

    p.send("e2e4\r").await;
    p.wait_for("the engine's reply", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.e4 ")
    })
    .await;
    // The board's rank-4 row (after 1.e4 and any reply, only White's e-pawn stands there).
    let rank4 = p
        .screen()
        .rows()
        .into_iter()
        .find(|row| row.starts_with("│4 "))
        .unwrap_or_default();
    assert!(
        rank4.contains('♟'),
        "e4 has White's pawn:\n{}",
        p.screen().text()
    );

    // A file name from the player lands in their own directory, whatever path they give.
    p.send(":save ../../escape\r").await;
    p.wait_for("the save", |s| s.message().contains("saved 1 move to"))
        .await;
    let players = dir.path().join("players");
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
    assert!(!dir.path().join("escape.pgn").exists() && !players.join("escape.pgn").exists());

    // A bigger window: the layout follows, the status bar moves to the new last row.
    p.resize(100, 30).await;
    p.wait_for("the redraw at 100×30", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.e4 ")
    })
    .await;
    p.disconnect().await;

    // The same key again: the unfinished game is offered and resumed.
    let mut p = join(server.addr(), &key).await;
    p.wait_for("the resume question", |s| {
        s.message()
            .contains("Unfinished game: y resumes it, n sets it aside (1 move,")
    })
    .await;
    p.send("y").await;
    p.wait_for("the resumed game", |s| s.text().contains("1.e4 "))
        .await;

    // The server stops: the session ends with a note and the client's screen restored.
    server.stop().await;
    p.wait_for("the goodbye", |s| {
        s.text().contains("the server is stopping")
    })
    .await;
    assert!(!p.screen().alternate_screen(), "the main screen is back");
    let players = std::fs::read_dir(dir.path().join("players"))
        .unwrap()
        .count();
    assert_eq!(players, 1, "one key, one player directory");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_not_in_the_list_is_refused() {
    let dir = TempDir::new("serve-refused");
    let listed = new_key();
    let stranger = new_key();
    let server = TestServer::start(config(
        dir.path(),
        Access::keys(vec![listed.public_key().clone()]),
    ))
    .await;
    let (_stranger, ok) = SshClient::login(server.addr(), &stranger).await;
    assert!(!ok, "an unlisted key must not get in");
    let (client, ok) = SshClient::login(server.addr(), &listed).await;
    assert!(ok, "the listed key gets in");
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_at_once_play_their_own_games() {
    let dir = TempDir::new("serve-two");
    let (a, b) = (new_key(), new_key());
    let keys = vec![a.public_key().clone(), b.public_key().clone()];
    let server = TestServer::start(config(dir.path(), Access::keys(keys))).await;
    let mut pa = join_as(server.addr(), "anna", &a).await;
    let mut pb = join_as(server.addr(), "bert", &b).await;
    pa.wait_for("A's start", |s| s.status().starts_with("White to move"))
        .await;
    pb.wait_for("B's start", |s| s.status().starts_with("White to move"))
        .await;
    pa.send("e2e4\r").await;
    pb.send("d2d4\r").await;
    pa.wait_for("A's reply", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.e4 ")
    })
    .await;
    pb.wait_for("B's reply", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.d4 ")
    })
    .await;
    assert!(
        !pa.screen().text().contains("1.d4"),
        "A sees only A's game:\n{}",
        pa.screen().text()
    );
    assert!(
        !pb.screen().text().contains("1.e4"),
        "B sees only B's game:\n{}",
        pb.screen().text()
    );
    // Ctrl-C ends the player's session, not the server: B plays on.
    pa.send("\x03").await;
    pa.wait_closed("A's session to close").await;
    pb.send("g1f3\r").await;
    pb.wait_for("B's second reply", |s| s.text().contains("2.Nf3 "))
        .await;
    pb.disconnect().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_subsystems_and_forwarding_are_refused() {
    let dir = TempDir::new("serve-exec");
    let server = TestServer::start(config(dir.path(), Access::Open)).await;
    let (client, ok) = SshClient::login(server.addr(), &new_key()).await;
    assert!(ok, "open mode lets anyone in");

    let mut channel = client.handle().channel_open_session().await.unwrap();
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
    // The request is taken, so that the client shows what follows: a line saying why,
    // exit status 2, the channel closed. Nothing runs.
    assert!(
        !answers.iter().any(|m| matches!(m, ChannelMsg::Failure)),
        "a failed request would hide the reason from OpenSSH: {answers:?}"
    );
    assert!(
        answers
            .iter()
            .any(|m| matches!(m, ChannelMsg::ExitStatus { exit_status: 2 })),
        "exit status 2: {answers:?}"
    );
    assert!(
        matches!(answers.last(), Some(ChannelMsg::Close)),
        "{answers:?}"
    );
    // The command would name a room: the answer says it is not one, and runs nothing.
    let said: Vec<u8> = answers
        .iter()
        .filter_map(|m| match m {
            ChannelMsg::Data { data } => Some(data.to_vec()),
            _ => None,
        })
        .flatten()
        .collect();
    let said = String::from_utf8_lossy(&said);
    assert!(said.contains("names a room"), "{said:?}");
    assert!(!said.contains("root:"), "nothing was run: {said:?}");

    let forward = client
        .handle()
        .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5555)
        .await;
    assert!(forward.is_err(), "port forwarding is refused");
    drop(client);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_without_a_terminal_is_told_to_use_ssh_t() {
    let dir = TempDir::new("serve-no-pty");
    let server = TestServer::start(config(dir.path(), Access::Open)).await;
    for room in [None, Some("den")] {
        let (client, ok) = SshClient::login(server.addr(), &new_key()).await;
        assert!(ok);
        // No pty request, as `ssh HOST den` (no -t) or `ssh -T HOST` send.
        let mut channel = client.handle().channel_open_session().await.unwrap();
        match room {
            None => channel.request_shell(true).await.unwrap(),
            Some(r) => channel.exec(true, r).await.unwrap(),
        }
        let mut said = Vec::new();
        let mut status = None;
        let mut closed = false;
        let deadline = Instant::now() + WAIT;
        while let Ok(Some(msg)) = tokio::time::timeout_at(deadline, channel.wait()).await {
            match msg {
                ChannelMsg::Data { data } => said.extend_from_slice(&data),
                ChannelMsg::ExitStatus { exit_status } => status = Some(exit_status),
                ChannelMsg::Close => {
                    closed = true;
                    break;
                }
                _ => {}
            }
        }
        let said = String::from_utf8_lossy(&said);
        assert!(said.contains("connect with ssh -t"), "{room:?}: {said}");
        assert_eq!(status, Some(2), "{room:?}");
        assert!(closed, "{room:?}: the channel closes");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_beyond_the_per_address_cap_are_turned_away() {
    let dir = TempDir::new("serve-cap");
    let mut cfg = config(dir.path(), Access::Open);
    cfg.max_per_ip = 1;
    let server = TestServer::start(cfg).await;
    let (first, ok) = SshClient::login(server.addr(), &new_key()).await;
    assert!(ok);
    // The second connection from the same address gets no game, and is told why.
    let (mut second, ok) = SshClient::login(server.addr(), &new_key()).await;
    assert!(ok, "the key is let in, to hear the reason");
    second.open_shell(80, 24).await.unwrap();
    second
        .wait_for("the reason", |s| {
            s.text()
                .contains("already has the most sessions it may here (1)")
        })
        .await;
    second.wait_closed("the channel to close").await;
    drop(first);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_says_so_to_the_next_one() {
    let dir = TempDir::new("serve-full");
    let mut cfg = config(dir.path(), Access::Open);
    cfg.max_sessions = 1;
    let server = TestServer::start(cfg).await;
    let first = join(server.addr(), &new_key()).await;
    let (mut second, ok) = SshClient::login(server.addr(), &new_key()).await;
    assert!(ok);
    second.open_room(80, 24, b"den").await.unwrap();
    second
        .wait_for("the reason", |s| {
            s.text().contains("the server is full (1 sessions at once)")
        })
        .await;
    second.wait_closed("the channel to close").await;
    assert!(!first.closed(), "the first session goes on");
    first.disconnect().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_session_is_closed_with_a_note() {
    let dir = TempDir::new("serve-idle");
    let mut cfg = config(dir.path(), Access::Open);
    cfg.idle_timeout = Duration::from_millis(300);
    let server = TestServer::start(cfg).await;
    let mut p = join(server.addr(), &new_key()).await;
    p.wait_for("the note", |s| {
        s.text().contains("closed for lack of input")
    })
    .await;
    p.wait_closed("the channel to close").await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_going_on_keeps_its_players_and_watchers_from_the_idle_timeout() {
    let dir = TempDir::new("serve-idle-game");
    let mut cfg = config(dir.path(), Access::Open);
    cfg.idle_timeout = Duration::from_millis(400);
    let server = TestServer::start(cfg).await;
    let mut room = Vec::new();
    for (name, role) in [
        ("white", "you: White"),
        ("black", "you: Black"),
        ("fan", "watching"),
    ] {
        let (mut c, ok) = SshClient::login_as(server.addr(), name, &new_key()).await;
        assert!(ok);
        c.open_room(80, 24, b"den").await.unwrap();
        c.wait_for(role, |s| s.status().contains(role)).await;
        room.push(c);
    }
    room[0].send("e4\r").await;
    room[1]
        .wait_for("the move", |s| s.text().contains("1.e4"))
        .await;
    // Several idle timeouts with no key from Black or the watcher, nor from White since.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for c in &mut room {
        assert!(
            !c.closed(),
            "closed while a game goes on: {}",
            c.screen().text()
        );
    }
    // Over: the timeout counts again.
    room[1].send(":resign\r").await;
    for c in &mut room {
        c.wait_for("the note", |s| {
            s.text().contains("closed for lack of input")
        })
        .await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_name_with_nothing_visible_is_refused_saying_why() {
    let dir = TempDir::new("serve-invisible-name");
    let server = TestServer::start(config(dir.path(), Access::Open)).await;
    // A right-to-left override and zero-width characters: nothing a screen could show.
    for room in [None, Some(&b"den"[..])] {
        let (mut p, ok) =
            SshClient::login_as(server.addr(), "\u{202E}\u{200B}\u{2066}", &new_key()).await;
        assert!(ok, "open mode lets the key in");
        match room {
            None => p.open_shell(80, 24).await.unwrap(),
            Some(room) => p.open_room(80, 24, room).await.unwrap(),
        }
        p.wait_for("the reason", |s| s.text().contains("no visible character"))
            .await;
        p.wait_closed("the channel to close").await;
    }
    // A name that keeps something visible is let in, without the invisible characters.
    let (mut p, ok) = SshClient::login_as(server.addr(), "zq\u{202E}xw\u{200B}", &new_key()).await;
    assert!(ok);
    p.open_shell(80, 24).await.unwrap();
    p.wait_for("the lobby", |s| s.text().contains("zqxw")).await;
    assert!(!p.screen().text().contains('\u{202E}'));
    p.disconnect().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terminal_keys_sent_as_bytes_reach_the_app() {
    let dir = TempDir::new("serve-keys");
    let server = TestServer::start(config(dir.path(), Access::Open)).await;
    let mut p = join(server.addr(), &new_key()).await;
    p.wait_for("the start screen", |s| s.status().contains("depth 3"))
        .await;
    // Ctrl-Up as xterm sends it: the depth key.
    p.send("\x1b[1;5A").await;
    p.wait_for("depth 4", |s| s.status().contains("depth 4"))
        .await;
    // Typed text, then a lone Esc (after the quiet time) clears the input line.
    p.send("e2e5").await;
    p.wait_for("the typed text", |s| s.row(21).contains("e2e5"))
        .await;
    p.send("\x1b").await;
    p.wait_for("the line cleared", |s| !s.row(21).contains("e2e5"))
        .await;
    // A bracketed paste fills the line without playing anything.
    p.send("\x1b[200~d2d4\x1b[201~").await;
    p.wait_for("the pasted text", |s| s.row(21).contains("d2d4"))
        .await;
    assert!(
        p.screen().status().starts_with("White to move"),
        "{}",
        p.screen().status()
    );
    p.disconnect().await;
    server.stop().await;
}

/// Whether the server closed `socket` (EOF or a reset) within `within`.
async fn closed_within(socket: &mut tokio::net::TcpStream, within: Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buf = [0u8; 256];
    let deadline = Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, socket.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            // The server's SSH banner: keep reading.
            Ok(Ok(_)) => continue,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_gets_into_the_lobby_past_a_hundred_silent_connections_from_the_same_address() {
    let dir = TempDir::new("serve-silent");
    let key = new_key();
    let cfg = config(dir.path(), Access::keys(vec![key.public_key().clone()]));
    let pre_auth = cfg.pre_auth;
    let server = TestServer::start(cfg).await;
    // A hundred connections from the member's own address that never say a word.
    let mut silent = Vec::new();
    for _ in 0..100 {
        silent.push(tokio::net::TcpStream::connect(server.addr()).await.unwrap());
    }
    let mut alice = join_as(server.addr(), "alice", &key).await;
    alice
        .wait_for("the lobby", |s| {
            s.text().contains("Lobby") && s.text().contains("alice")
        })
        .await;
    // Each silent connection past the address's share pushed nobody out: it waited a
    // second for its first bytes and was closed. The share's first ones still wait (until
    // the grace is over), but for the one alice's arrival pushed out.
    let until = Instant::now() + Duration::from_secs(2);
    let mut closed = 0;
    for s in &mut silent {
        let left = until.saturating_duration_since(Instant::now());
        if closed_within(s, left.max(Duration::from_millis(10))).await {
            closed += 1;
        }
    }
    assert!(
        closed >= 100 - pre_auth.per_ip,
        "{closed} of 100 silent connections closed (share {})",
        pre_auth.per_ip
    );
    alice.send("e2e4\r").await;
    alice
        .wait_for("the move", |s| s.text().contains("1.e4 "))
        .await;
    alice.disconnect().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_does_not_authenticate_or_start_in_time_is_closed() {
    let dir = TempDir::new("serve-grace");
    let mut cfg = config(dir.path(), Access::Open);
    cfg.pre_auth.grace = Duration::from_secs(2);
    cfg.max_sessions = 1;
    let server = TestServer::start(cfg).await;
    // Silent from the first byte.
    let mut silent = tokio::net::TcpStream::connect(server.addr()).await.unwrap();
    assert!(
        closed_within(&mut silent, WAIT).await,
        "a silent connection is closed"
    );
    // Logged in (open: anyone is), but no shell asked for, as `ssh -N` does.
    let (idle, ok) = SshClient::login(server.addr(), &new_key()).await;
    assert!(ok);
    let deadline = Instant::now() + WAIT;
    while !idle.handle().is_closed() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(idle.handle().is_closed(), "no session started: closed");
    // Its slot was given back: a single-slot server still takes the next one.
    let mut p = join(server.addr(), &new_key()).await;
    p.wait_for("the start screen", |s| s.status().contains("depth 3"))
        .await;
    p.disconnect().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_keys_only_publickey_is_offered_and_a_password_gets_nowhere() {
    use russh::{MethodKind, client};
    let dir = TempDir::new("serve-methods");
    let key = new_key();
    let cfg = config(dir.path(), Access::keys(vec![key.public_key().clone()]));
    let server = TestServer::start(cfg).await;
    let config = std::sync::Arc::new(client::Config::default());
    let mut handle = client::connect(config, server.addr(), common::ssh::Trust)
        .await
        .unwrap();
    match handle.authenticate_none("mallory").await.unwrap() {
        client::AuthResult::Failure {
            remaining_methods, ..
        } => {
            let offered: Vec<MethodKind> = remaining_methods.iter().copied().collect();
            assert_eq!(offered, vec![MethodKind::PublicKey]);
        }
        client::AuthResult::Success => panic!("let in with no key"),
    }
    let typed = handle
        .authenticate_password("mallory", "hunter2")
        .await
        .unwrap();
    assert!(!typed.success(), "no password lets anyone in");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn from_restricts_a_key_and_a_reload_lets_a_new_member_in_without_touching_others() {
    let dir = TempDir::new("serve-from");
    let (far, near, late) = (new_key(), new_key(), new_key());
    let line = |k: &PrivateKey| k.public_key().to_openssh().unwrap();
    let file = dir.path().join("players.keys");
    let first = format!(
        "from=\"10.0.0.0/8,!10.9.9.9\" {}\nrestrict,from=\"127.0.0.?\" {}\n",
        line(&far),
        line(&near)
    );
    std::fs::write(&file, &first).unwrap();
    let keys = ox88::serve::AuthorizedKeys::read(&file).unwrap();
    let server = TestServer::start(config(dir.path(), Access::Keys(keys))).await;
    let (_, ok) = SshClient::login(server.addr(), &far).await;
    assert!(!ok, "from= leaves loopback out for this key");
    let mut bob = join_as(server.addr(), "bob", &near).await;
    bob.wait_for("the lobby", |s| s.text().contains("bob"))
        .await;
    bob.send("e2e4\r").await;
    bob.wait_for("the engine's reply", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.e4 ")
    })
    .await;
    let (_, ok) = SshClient::login(server.addr(), &late).await;
    assert!(!ok, "not listed yet");

    // A member added to the file, and the file read again: in, and bob plays on.
    std::fs::write(&file, format!("{first}{}\n", line(&late))).unwrap();
    assert_eq!(server.reload_keys(), Ok(3));
    let mut carol = join_as(server.addr(), "carol", &late).await;
    carol
        .wait_for("the lobby", |s| s.text().contains("carol"))
        .await;
    // A file that no longer reads is said, and the keys read before are kept.
    std::fs::write(
        &file,
        format!("{}\ncommand=\"true\" {}\n", line(&near), line(&late)),
    )
    .unwrap();
    let why = server.reload_keys().unwrap_err();
    assert!(
        why.contains("line 2: command=") && why.contains("kept"),
        "{why}"
    );
    let (again, ok) = SshClient::login(server.addr(), &late).await;
    assert!(ok, "the keys read before still let carol in");
    drop(again);
    assert!(!bob.closed(), "bob's session is untouched");
    bob.send("d2d4\r").await;
    bob.wait_for("bob's game goes on", |s| s.text().contains("2.d4"))
        .await;
    carol.disconnect().await;
    bob.disconnect().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_kept_open_after_its_session_ended_is_closed() {
    let dir = TempDir::new("serve-after");
    let mut cfg = config(dir.path(), Access::Open);
    cfg.pre_auth.grace = Duration::from_secs(1);
    cfg.max_sessions = 1;
    let server = TestServer::start(cfg).await;
    let mut p = join(server.addr(), &new_key()).await;
    p.wait_for("the start screen", |s| s.status().contains("depth 3"))
        .await;
    p.send(":quit\r").await;
    p.wait_closed("the session's channel to close").await;
    // The client keeps the connection; the server does not keep the slot for it.
    let deadline = Instant::now() + WAIT;
    while !p.handle().is_closed() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(p.handle().is_closed(), "the connection is closed");
    let mut q = join(server.addr(), &new_key()).await;
    q.wait_for("the next one's start screen", |s| {
        s.status().contains("depth 3")
    })
    .await;
    q.disconnect().await;
    server.stop().await;
}

/// On a server the engine's threads yield to the sessions: a member's game against the
/// engine is answered, the server's search thread runs under `SCHED_IDLE` at nice 19, and
/// the sessions' threads keep the normal policy (Linux, read from `/proc`).
#[test]
fn the_servers_search_threads_run_at_the_idle_policy_and_its_sessions_do_not() {
    let dir = TempDir::new("serve-idle-policy");
    let (server, keys) = Served::start_keyed(dir.path(), 1, &[]);
    let runtime = common::client_runtime();
    runtime.block_on(async {
        let mut c = member_in(&server.addr, 0, &keys[0], 120, 40).await;
        c.wait_for("the lobby", |s| s.text().contains("Lobby"))
            .await;
        c.send(":play\r").await;
        c.send("e2e4\r").await;
        c.wait_for("the engine's reply", |s| s.text().contains("1..."))
            .await;
        let threads = server.threads();
        let of = |name: &str| -> Vec<(u32, i32)> {
            threads
                .iter()
                .filter(|(n, _, _)| n == name)
                .map(|&(_, policy, nice)| (policy, nice))
                .collect()
        };
        let (search, sessions) = (of("ox88-search"), of("ox88-session"));
        assert!(!search.is_empty(), "a search thread: {threads:?}");
        assert!(search.iter().all(|&t| t == (5, 19)), "{threads:?}");
        assert!(!sessions.is_empty(), "a session thread: {threads:?}");
        assert!(sessions.iter().all(|&t| t == (0, 0)), "{threads:?}");
        c.disconnect().await;
    });
}
