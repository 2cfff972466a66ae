//! One channel carries everything the event loop reacts to: key presses and pasted text
//! from the input thread, resizes, engine events from the search thread, background jobs'
//! reports (the lab, the review), and signals.
//! Background threads never touch the app's state; they only send.

use std::sync::mpsc::Sender;
use std::thread::JoinHandle;

use crossterm::event::{self as term, KeyEvent, KeyEventKind};
use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

use super::app::JobEvent;
use crate::engine::SearchEvent;

#[derive(Debug)]
pub enum Event {
    Key(KeyEvent),
    Paste(String),
    Resize,
    Engine(SearchEvent),
    /// A background job's report.
    Job(JobEvent),
    /// SIGTERM, SIGHUP (the SSH connection dropped), SIGINT or SIGQUIT from outside.
    Signal(i32),
    /// The terminal's input ended (`None`) or failed.
    InputClosed(Option<String>),
}

/// Reads terminal events (blocking, so no CPU while nothing happens) and forwards them.
pub fn spawn_input_thread(tx: Sender<Event>) -> JoinHandle<()> {
    std::thread::Builder::new()
        .name("ox88-input".into())
        .spawn(move || {
            loop {
                let ev = match term::read() {
                    // Only presses (and auto-repeat): terminals with the kitty protocol also
                    // report releases, which must not act twice.
                    Ok(term::Event::Key(k)) if k.kind != KeyEventKind::Release => Event::Key(k),
                    Ok(term::Event::Paste(s)) => Event::Paste(s),
                    Ok(term::Event::Resize(..)) => Event::Resize,
                    Ok(_) => continue,
                    Err(e) => {
                        let _ = tx.send(Event::InputClosed(Some(e.to_string())));
                        return;
                    }
                };
                if tx.send(ev).is_err() {
                    return;
                }
            }
        })
        .expect("spawn the input thread")
}

/// The signal watcher; closing the handle ends its thread.
pub struct SignalWatch {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Turns SIGTERM, SIGHUP, SIGINT and SIGQUIT into events, so the loop ends normally and the
/// terminal is restored (signal-hook runs no code in the handler itself).
pub fn spawn_signal_thread(tx: Sender<Event>) -> std::io::Result<SignalWatch> {
    let mut signals = Signals::new([SIGTERM, SIGHUP, SIGINT, SIGQUIT])?;
    let handle = signals.handle();
    let thread = std::thread::Builder::new()
        .name("ox88-signals".into())
        .spawn(move || {
            for sig in signals.forever() {
                if tx.send(Event::Signal(sig)).is_err() {
                    return;
                }
            }
        })?;
    Ok(SignalWatch {
        handle,
        thread: Some(thread),
    })
}
