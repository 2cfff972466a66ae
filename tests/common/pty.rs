//! A program run in a pseudo-terminal: keys sent as bytes, its output read on a thread into a
//! VT100 screen, and every wait bounded, failing with the screen shown.

use std::io::{Read, Write};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, ExitStatus, PtySize, native_pty_system};

use super::WAIT;
use super::screen::Screen;

pub struct Pty {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    output: Receiver<Vec<u8>>,
    screen: Screen,
    /// Everything the program wrote, to look for escape sequences.
    raw: Vec<u8>,
}

impl Pty {
    /// Starts `cmd` in a new `rows`×`cols` pseudo-terminal.
    pub fn spawn(cmd: CommandBuilder, rows: u16, cols: u16) -> Pty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pty");
        let child = pair.slave.spawn_command(cmd).expect("start the program");
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match reader.read(&mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if tx.send(buf[..n].to_vec()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        // The master must outlive the child's use of the terminal.
        std::mem::forget(pair.master);
        Pty {
            child,
            writer,
            output: rx,
            screen: Screen::new(rows, cols),
            raw: Vec::new(),
        }
    }

    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// Everything the program has written so far.
    pub fn raw(&self) -> &[u8] {
        &self.raw
    }

    /// Reads what arrives within `timeout` (and whatever follows it at once) into the screen.
    fn pump(&mut self, timeout: Duration) {
        if let Ok(bytes) = self.output.recv_timeout(timeout) {
            self.screen.feed(&bytes);
            self.raw.extend_from_slice(&bytes);
            while let Ok(more) = self.output.try_recv() {
                self.screen.feed(&more);
                self.raw.extend_from_slice(&more);
            }
        }
    }

    /// Waits until `done` holds for the screen, or fails with the screen shown.
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&Screen) -> bool) {
        let deadline = Instant::now() + WAIT;
        while !done(&self.screen) {
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; screen:\n{}",
                self.screen.text()
            );
            self.pump(Duration::from_millis(50));
        }
    }

    /// Types `text` (keys as the terminal sends them).
    pub fn send(&mut self, text: &str) {
        self.writer.write_all(text.as_bytes()).unwrap();
        self.writer.flush().unwrap();
    }

    /// Sends the program a signal by name (`TERM`, `KILL`, …).
    pub fn signal(&self, name: &str) {
        let pid = self.child.process_id().expect("a pid");
        let sent = std::process::Command::new("kill")
            .args([format!("-{name}"), pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{name} {pid}");
    }

    /// Waits for the program to exit, reading its last output, or fails with the screen shown.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + WAIT;
        loop {
            self.pump(Duration::from_millis(20));
            if let Some(status) = self.child.try_wait().unwrap() {
                // Whatever was still in the pipe.
                self.pump(Duration::from_millis(200));
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the program did not exit; screen:\n{}",
                self.screen.text()
            );
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}
