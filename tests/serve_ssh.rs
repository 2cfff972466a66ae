//! `ox88 serve` with the real OpenSSH client in a pseudo-terminal: what a player does. The
//! test is skipped (with a note) where `ssh` is not installed.

mod common;

use std::path::PathBuf;

use common::TempDir;
use common::pty::Pty;
use common::ssh::{TestServer, config, new_key};
use ox88::serve::{Access, ServeConfig};
use portable_pty::CommandBuilder;
use russh::keys::ssh_key::LineEnding;

fn ssh_path() -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| PathBuf::from(d).join("ssh"))
        .find(|p| p.is_file())
}

#[test]
fn the_openssh_client_plays_a_move_and_ctrl_c_ends_only_its_session() {
    let Some(ssh) = ssh_path() else {
        eprintln!("note: no `ssh` on PATH; skipping the OpenSSH client test");
        return;
    };
    let dir = TempDir::new("serve-ssh");
    let key = new_key();
    let key_file = dir.path().join("id_ed25519");
    std::fs::write(
        &key_file,
        key.to_openssh(LineEnding::LF).unwrap().as_bytes(),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let config = ServeConfig {
        max_sessions: 4,
        max_per_ip: 4,
        ..config(
            &dir.path().join("data"),
            Access::Keys(vec![key.public_key().clone()]),
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
    let mut files = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let file = dir.path().join(format!("id_{i}"));
        std::fs::write(&file, key.to_openssh(LineEnding::LF).unwrap().as_bytes()).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        files.push(file);
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let config = config(
        &dir.path().join("data"),
        Access::Keys(keys.iter().map(|k| k.public_key().clone()).collect()),
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
