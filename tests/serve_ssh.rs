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

    let mut cmd = CommandBuilder::new(ssh);
    let port = server.addr().port().to_string();
    let key_arg = key_file.display().to_string();
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
        "player@127.0.0.1",
    ]);
    cmd.env("TERM", "xterm-256color");
    cmd.env("HOME", dir.path());
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
