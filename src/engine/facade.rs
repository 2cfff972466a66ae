//! The engine facade both front ends use: non-blocking `go` and `stop`, one long-lived
//! search thread, and `SearchEvent`s delivered through a callback. No global state: two
//! `Engine`s in one process are independent (two engines can play each other).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use super::report::{Limits, SearchEvent, SearchOptions};
use super::search::{SearchShared, Searcher};
use crate::chess::board::Board;

enum Command {
    Go {
        id: u64,
        board: Box<Board>,
        limits: Limits,
        options: Box<SearchOptions>,
    },
    NewGame,
    Quit,
}

/// A chess engine running on its own thread.
pub struct Engine {
    commands: Sender<Command>,
    shared: Arc<SearchShared>,
    next_id: AtomicU64,
    /// (searching, condvar) so callers can wait for the search to finish.
    busy: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the search thread. `on_event` is called on that thread for every event.
    pub fn new(on_event: impl FnMut(SearchEvent) + Send + 'static) -> Engine {
        let (tx, rx) = mpsc::channel();
        let shared = Arc::new(SearchShared::default());
        let busy = Arc::new((Mutex::new(false), Condvar::new()));
        let thread = {
            let shared = Arc::clone(&shared);
            let busy = Arc::clone(&busy);
            std::thread::Builder::new()
                .name("ox88-search".into())
                .spawn(move || search_thread(rx, shared, busy, Box::new(on_event)))
                .expect("spawn the search thread")
        };
        Engine {
            commands: tx,
            shared,
            next_id: AtomicU64::new(1),
            busy,
            thread: Some(thread),
        }
    }

    /// Starts searching a copy of `board` and returns at once with the search's id. A search
    /// still running is stopped first (its `BestMove` still arrives, with its own id).
    pub fn go(&self, board: &Board, limits: Limits, options: &SearchOptions) -> u64 {
        self.stop();
        self.wait_idle();
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        self.shared.stop.store(false, Ordering::SeqCst);
        self.shared.ponder.store(limits.ponder, Ordering::SeqCst);
        *self.busy.0.lock().expect("busy lock") = true;
        let cmd = Command::Go {
            id,
            board: Box::new(board.clone()),
            limits,
            options: Box::new(options.clone()),
        };
        if self.commands.send(cmd).is_err() {
            *self.busy.0.lock().expect("busy lock") = false;
        }
        id
    }

    /// Asks the running search (if any) to stop; it reports its best move promptly.
    pub fn stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.ponder.store(false, Ordering::SeqCst);
    }

    /// The opponent played the pondered move: the search goes on under normal time control.
    pub fn ponderhit(&self) {
        self.shared.ponderhit();
    }

    /// Forgets everything learnt (transposition table, history) before a new game.
    pub fn new_game(&self) {
        self.stop();
        self.wait_idle();
        let _ = self.commands.send(Command::NewGame);
    }

    pub fn is_searching(&self) -> bool {
        *self.busy.0.lock().expect("busy lock")
    }

    /// Blocks until no search is running.
    pub fn wait_idle(&self) {
        let (lock, cvar) = &*self.busy;
        let mut busy = lock.lock().expect("busy lock");
        while *busy {
            busy = cvar.wait(busy).expect("busy lock");
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        let _ = self.commands.send(Command::Quit);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn search_thread(
    rx: Receiver<Command>,
    shared: Arc<SearchShared>,
    busy: Arc<(Mutex<bool>, Condvar)>,
    mut on_event: Box<dyn FnMut(SearchEvent) + Send>,
) {
    let mut searcher = Searcher::new(Arc::clone(&shared));
    while let Ok(cmd) = rx.recv() {
        match cmd {
            Command::Go {
                id,
                board,
                limits,
                options,
            } => {
                // A bug in the search must not leave the front end waiting forever: answer
                // with a legal move and start over with a fresh searcher.
                let fallback = board.legal_moves().as_slice().first().copied();
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    searcher.run(id, *board, &limits, &options, &mut *on_event);
                }));
                if run.is_err() {
                    searcher = Searcher::new(Arc::clone(&shared));
                    on_event(SearchEvent::Message {
                        id,
                        text: "internal error in the search; answering with a legal move".into(),
                    });
                    on_event(SearchEvent::BestMove {
                        id,
                        best: fallback,
                        ponder: None,
                        book: None,
                    });
                }
                let (lock, cvar) = &*busy;
                *lock.lock().expect("busy lock") = false;
                cvar.notify_all();
            }
            Command::NewGame => searcher.new_game(),
            Command::Quit => break,
        }
    }
}
