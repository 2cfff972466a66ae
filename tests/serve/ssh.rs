//! `ox88 serve` with the real OpenSSH client in a pseudo-terminal: what a player does and
//! what a player turned away reads. The tests are skipped (with a note) where `ssh` is not
//! installed, unless `OX88_REQUIRE_SSH=1` (CI sets it) makes that a failure.

use crate::common;

use std::path::PathBuf;

use common::TempDir;
use common::pty::Pty;
use common::ssh::{TestServer, config, new_key};
use ox88::serve::{Access, ServeConfig};
use portable_pty::CommandBuilder;
use russh::keys::ssh_key::LineEnding;

fn ssh_path() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        path.to_str()?
            .split(':')
            .map(|d| PathBuf::from(d).join("ssh"))
            .find(|p| p.is_file())
    });
    if found.is_none() && std::env::var_os("OX88_REQUIRE_SSH").is_some_and(|v| v == "1") {
        panic!("no `ssh` on PATH, and OX88_REQUIRE_SSH=1 requires the OpenSSH client");
    }
    found
}

/// `key` written where `ssh -i` takes it (mode 0600, or OpenSSH refuses it).
fn key_file(dir: &std::path::Path, name: &str, key: &russh::keys::PrivateKey) -> PathBuf {
    let file = dir.join(name);
    std::fs::write(&file, key.to_openssh(LineEnding::LF).unwrap().as_bytes()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    file
}

#[test]
fn the_openssh_client_plays_a_move_and_ctrl_c_ends_only_its_session() {
    let Some(ssh) = ssh_path() else {
        eprintln!("note: no `ssh` on PATH; skipping the OpenSSH client test");
        return;
    };
    let dir = TempDir::new("serve-ssh");
    let key = new_key();
    let key_file = key_file(dir.path(), "id_ed25519", &key);

    let runtime = common::client_runtime();
    let config = ServeConfig {
        max_sessions: 4,
        max_per_ip: 4,
        ..config(
            &dir.path().join("data"),
            Access::keys(vec![key.public_key().clone()]),
        )
    };
    let server = runtime.block_on(TestServer::start(config));

    let cmd = ssh_command(
        &ssh,
        server.addr().port(),
        &key_file,
        dir.path(),
        "player",
        None,
    );
    let mut term = Pty::spawn(cmd, 24, 80);

    term.wait_for("the start screen", |s| s.text().contains("White to move"));
    term.send("e2e4\r");
    term.wait_for("the engine's reply", |s| {
        let text = s.text();
        text.contains("1.e4 ")
            && text
                .lines()
                .last()
                .is_some_and(|l| l.starts_with("White to move"))
    });
    term.send("\x03");
    let status = term.wait_exit();
    assert!(status.success(), "the session ended normally: {status:?}");
    assert!(server.is_running(), "the server keeps running");

    runtime.block_on(server.stop());
}

/// The OpenSSH command line of a player: `user` with the key in `key_file`, `-t ROOM` when
/// a room is asked for (`ssh -t -p PORT user@127.0.0.1 ROOM`), else the shell.
fn ssh_command(
    ssh: &PathBuf,
    port: u16,
    key_file: &std::path::Path,
    home: &std::path::Path,
    user: &str,
    room: Option<&str>,
) -> CommandBuilder {
    let mut cmd = CommandBuilder::new(ssh);
    if room.is_some() {
        cmd.arg("-t");
    }
    let port = port.to_string();
    let key_arg = key_file.display().to_string();
    let login = format!("{user}@127.0.0.1");
    cmd.args([
        "-p",
        &port,
        "-i",
        &key_arg,
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-F",
        "/dev/null",
        &login,
    ]);
    if let Some(room) = room {
        cmd.arg(room);
    }
    cmd.env("TERM", "xterm-256color");
    cmd.env("HOME", home);
    cmd
}

/// A player in room `room` on a 120×40 terminal.
fn ssh_into_room(
    ssh: &PathBuf,
    port: u16,
    key_file: &std::path::Path,
    home: &std::path::Path,
    user: &str,
    room: &str,
) -> Pty {
    Pty::spawn(
        ssh_command(ssh, port, key_file, home, user, Some(room)),
        40,
        120,
    )
}

#[test]
fn two_openssh_clients_play_fools_mate_in_a_room_while_a_third_watches() {
    let Some(ssh) = ssh_path() else {
        eprintln!("note: no `ssh` on PATH; skipping the OpenSSH client test");
        return;
    };
    let dir = TempDir::new("serve-ssh-room");
    let keys: Vec<_> = (0..3).map(|_| new_key()).collect();
    let files: Vec<PathBuf> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| key_file(dir.path(), &format!("id_{i}"), key))
        .collect();
    let runtime = common::client_runtime();
    let config = config(
        &dir.path().join("data"),
        Access::keys(keys.iter().map(|k| k.public_key().clone()).collect()),
    );
    let server = runtime.block_on(TestServer::start(config));
    let port = server.addr().port();
    let mut white = ssh_into_room(&ssh, port, &files[0], dir.path(), "alice", "den");
    white.wait_for("alice in the room", |s| s.text().contains("Room den"));
    let mut black = ssh_into_room(&ssh, port, &files[1], dir.path(), "bob", "den");
    black.wait_for("bob seated", |s| s.status().contains("you: Black"));
    let mut watcher = ssh_into_room(&ssh, port, &files[2], dir.path(), "carol", "den");
    watcher.wait_for("carol watching", |s| s.status().contains("watching"));
    for (i, (mv, shown)) in [
        ("f2f3", "1. f3"),
        ("e7e5", "e5"),
        ("g2g4", "2. g4"),
        ("d8h4", "Qh4#"),
    ]
    .into_iter()
    .enumerate()
    {
        let mover = if i % 2 == 0 { &mut white } else { &mut black };
        mover.send(&format!("{mv}\r"));
        watcher.wait_for(&format!("the watcher sees {shown}"), |s| {
            s.text().contains(shown)
        });
    }
    watcher.send("e2e4\r");
    watcher.wait_for("the watcher's move refused", |s| {
        s.message().contains("watch")
    });
    for t in [&mut white, &mut black, &mut watcher] {
        t.wait_for("0-1", |s| s.text().contains("0-1"));
    }
    for mut t in [white, black, watcher] {
        t.send("\x03");
        assert!(t.wait_exit().success(), "the session ended normally");
    }
    runtime.block_on(server.stop());
}

/// What the OpenSSH client shows a person turned away (`room`: `ssh -t HOST ROOM`): the
/// terminal's text once `ssh` has exited, and its exit code.
fn turned_away(
    ssh: &PathBuf,
    port: u16,
    key_file: &std::path::Path,
    home: &std::path::Path,
    user: &str,
    room: Option<&str>,
) -> (String, u32) {
    let mut term = Pty::spawn(ssh_command(ssh, port, key_file, home, user, room), 24, 80);
    let status = term.wait_exit();
    (term.screen().text(), status.exit_code())
}

#[test]
fn the_openssh_client_shows_why_each_refusal_turns_it_away() {
    let Some(ssh) = ssh_path() else {
        eprintln!("note: no `ssh` on PATH; skipping the OpenSSH client test");
        return;
    };
    let dir = TempDir::new("serve-ssh-refusals");
    let (alice, mallory) = (new_key(), new_key());
    let alice_file = key_file(dir.path(), "id_alice", &alice);
    let mallory_file = key_file(dir.path(), "id_mallory", &mallory);
    let runtime = common::client_runtime();
    let listed = Access::keys(vec![
        alice.public_key().clone(),
        mallory.public_key().clone(),
    ]);
    let server = runtime.block_on(TestServer::start(ServeConfig {
        max_per_ip: 1,
        ..config(&dir.path().join("one"), listed.clone())
    }));
    let port = server.addr().port();
    let home = dir.path();
    let says = |(text, code): (String, u32), why: &str| {
        assert!(text.contains(&format!("ox88: {why}")), "{why}:\n{text}");
        assert_eq!(code, 2, "{why}: exit status 2");
    };
    // A room name that is not one.
    says(
        turned_away(&ssh, port, &alice_file, home, "alice", Some("bad room!")),
        "no commands here; the command names a room",
    );
    // A name that is not one.
    says(
        turned_away(&ssh, port, &alice_file, home, "al ice", None),
        "a name holds only ASCII letters",
    );
    // Alice's name, once hers, under another key.
    let mut first = Pty::spawn(
        ssh_command(&ssh, port, &alice_file, home, "alice", None),
        24,
        80,
    );
    first.wait_for("alice's session", |s| s.text().contains("Lobby — alice"));
    first.send("\x03");
    assert!(first.wait_exit().success());
    says(
        turned_away(&ssh, port, &mallory_file, home, "alice", None),
        "the name alice is another player's here",
    );
    // A second session from the one address that may have one.
    let mut held = Pty::spawn(
        ssh_command(&ssh, port, &alice_file, home, "alice", None),
        24,
        80,
    );
    held.wait_for("alice's session", |s| s.text().contains("Lobby — alice"));
    says(
        turned_away(&ssh, port, &mallory_file, home, "mallory", Some("den")),
        "your address (127.0.0.1) already has the most sessions it may here (1)",
    );
    held.send("\x03");
    assert!(held.wait_exit().success());
    runtime.block_on(server.stop());

    // A full server.
    let server = runtime.block_on(TestServer::start(ServeConfig {
        max_sessions: 1,
        ..config(&dir.path().join("two"), listed)
    }));
    let port = server.addr().port();
    let mut held = Pty::spawn(
        ssh_command(&ssh, port, &alice_file, home, "alice", None),
        24,
        80,
    );
    held.wait_for("alice's session", |s| s.text().contains("Lobby — alice"));
    says(
        turned_away(&ssh, port, &mallory_file, home, "mallory", None),
        "the server is full (1 sessions at once)",
    );
    held.send("\x03");
    assert!(held.wait_exit().success());
    runtime.block_on(server.stop());
}
