//! `ox88 serve` with the real OpenSSH client in a pseudo-terminal: what a player does. The
//! test is skipped (with a note) where `ssh` is not installed.

use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use ox88::serve::{Access, ServeConfig, Server};
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use russh::keys::ssh_key::LineEnding;
use russh::keys::{Algorithm, PrivateKey};

const WAIT: Duration = Duration::from_secs(60);
const ROWS: u16 = 24;
const COLS: u16 = 80;

fn ssh_path() -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| PathBuf::from(d).join("ssh"))
        .find(|p| p.is_file())
}

struct Screen {
    output: Receiver<Vec<u8>>,
    parser: vt100::Parser,
}

impl Screen {
    fn wait_for(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + WAIT;
        loop {
            let text = self.parser.screen().contents();
            if done(&text) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "waiting for {what}; screen:\n{text}"
            );
            if let Ok(bytes) = self.output.recv_timeout(Duration::from_millis(50)) {
                self.parser.process(&bytes);
            }
        }
    }
}

#[test]
fn the_openssh_client_plays_a_move_and_ctrl_c_ends_only_its_session() {
    let Some(ssh) = ssh_path() else {
        eprintln!("note: no `ssh` on PATH; skipping the OpenSSH client test");
        return;
    };
    let dir = std::env::temp_dir().join(format!("ox88-serve-ssh-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
    let key_file = dir.join("id_ed25519");
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
        listen: "127.0.0.1:0".parse().unwrap(),
        host_key: PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap(),
        access: Access::Keys(vec![key.public_key().clone()]),
        max_sessions: 4,
        max_per_ip: 4,
        idle_timeout: Duration::from_secs(600),
        hash_mb: 4,
        depth: 3,
        data_dir: dir.join("data"),
    };
    let server = runtime.block_on(Server::bind(config)).unwrap();
    let port = server.local_addr().unwrap().port();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server_task = runtime.spawn(server.run(async move {
        let _ = stopped.await;
    }));

    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: ROWS,
            cols: COLS,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(ssh);
    let port = port.to_string();
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
    cmd.env("HOME", &dir);
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                return;
            }
        }
    });
    let mut screen = Screen {
        output: rx,
        parser: vt100::Parser::new(
            NonZeroU16::new(ROWS).unwrap(),
            NonZeroU16::new(COLS).unwrap(),
            0,
        ),
    };

    screen.wait_for("the start screen", |s| s.contains("White to move"));
    writer.write_all(b"e2e4\r").unwrap();
    writer.flush().unwrap();
    screen.wait_for("the engine's reply", |s| {
        s.contains("1.e4 ")
            && s.lines()
                .last()
                .is_some_and(|l| l.starts_with("White to move"))
    });
    writer.write_all(b"\x03").unwrap();
    writer.flush().unwrap();
    let deadline = Instant::now() + WAIT;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "ssh did not exit after Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "the session ended normally: {status:?}");
    assert!(!server_task.is_finished(), "the server keeps running");

    let _ = stop.send(());
    runtime
        .block_on(async { tokio::time::timeout(WAIT, server_task).await })
        .expect("the server stops")
        .unwrap()
        .unwrap();
    std::mem::forget(pair.master);
    let _ = std::fs::remove_dir_all(&dir);
}
