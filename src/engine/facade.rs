//! The engine facade both front ends use: one long-lived search thread, `SearchEvent`s
//! delivered through a callback, and calls that never make the caller wait. No global
//! state: two `Engine`s in one process are independent (two engines can play each other).
//!
//! Every `go` gets a new id and asks older searches to stop; commands are handled in order,
//! so a superseded search still finishes promptly and still sends its `BestMove`, tagged
//! with its own id, before the newer search starts. Front ends drop events of ids they no
//! longer care about. The opening book is asked here, before the searcher, and only for
//! games: under a clock, or a search the options mark as a game's move (the TUI's); a
//! depth, node, mate or infinite search otherwise always searches.

use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::book::Book;
use super::levels::{self, Level, LevelMove, Rng};
use super::report::{LevelChoice, LevelReport, Limits, SearchEvent, SearchOptions, WeighedLine};
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
    /// Searches asked for and not yet answered, and a condvar for `wait_idle`.
    pending: Arc<(Mutex<u32>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the search thread. `on_event` is called on that thread for every event.
    pub fn new(on_event: impl FnMut(SearchEvent) + Send + 'static) -> Engine {
        let (tx, rx) = mpsc::channel();
        let shared = Arc::new(SearchShared::default());
        let pending = Arc::new((Mutex::new(0), Condvar::new()));
        let thread = {
            let shared = Arc::clone(&shared);
            let pending = Arc::clone(&pending);
            std::thread::Builder::new()
                .name("ox88-search".into())
                .spawn(move || {
                    crate::engine::priority::on_engine_thread();
                    search_thread(rx, shared, pending, Box::new(on_event))
                })
                .expect("spawn the search thread")
        };
        Engine {
            commands: tx,
            shared,
            pending,
            thread: Some(thread),
        }
    }

    /// Starts searching a copy of `board` and returns at once with the search's id. A search
    /// still running is asked to stop; its `BestMove` (with its own id) comes first.
    pub fn go(&self, board: &Board, limits: Limits, options: &SearchOptions) -> u64 {
        let id = self.shared.start(limits.ponder);
        *lock(&self.pending.0) += 1;
        let cmd = Command::Go {
            id,
            board: Box::new(board.clone()),
            limits,
            options: Box::new(options.clone()),
        };
        if self.commands.send(cmd).is_err() {
            self.finished();
        }
        id
    }

    /// Asks the running search (if any) to stop; it reports its best move promptly.
    pub fn stop(&self) {
        self.shared.stop_all();
    }

    /// The opponent played the pondered move: the search goes on under normal time control.
    pub fn ponderhit(&self) {
        self.shared.ponderhit();
    }

    /// Stops any search and forgets everything learnt (transposition table, history) before
    /// a new game; the search thread does it after the stopped search has answered.
    pub fn new_game(&self) {
        self.stop();
        let _ = self.commands.send(Command::NewGame);
    }

    /// Whether a search asked for has not answered yet.
    pub fn is_searching(&self) -> bool {
        *lock(&self.pending.0) > 0
    }

    /// Blocks until every search asked for has answered (for callers that want to, such
    /// as a UCI `go` after `go`; the engine's own calls never do).
    pub fn wait_idle(&self) {
        let (lock_, cvar) = &*self.pending;
        let mut pending = lock(lock_);
        while *pending > 0 {
            pending = cvar
                .wait(pending)
                .unwrap_or_else(|poisoned| poisoned.into_inner());
        }
    }

    fn finished(&self) {
        finished(&self.pending);
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

/// A poisoned lock only means a panic elsewhere; the counter is still right.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn finished(pending: &(Mutex<u32>, Condvar)) {
    let mut n = lock(&pending.0);
    *n = n.saturating_sub(1);
    pending.1.notify_all();
}

/// The opening book, reloaded when the options name another file.
struct BookSlot {
    book: Book,
    file: Option<PathBuf>,
}

impl BookSlot {
    fn configure(&mut self, file: &Option<PathBuf>, id: u64, emit: &mut dyn FnMut(SearchEvent)) {
        if *file == self.file {
            return;
        }
        self.file = file.clone();
        self.book = Book::builtin();
        if let Some(path) = file {
            match Book::with_polyglot(path) {
                Ok(b) => self.book = b,
                Err(e) => emit(SearchEvent::Message {
                    id,
                    text: format!("book: {e}; using the built-in book"),
                }),
            }
        }
    }

    /// A book move and its opening's name, when the book may answer: asked for, a game
    /// under a clock (or a fixed move time; a depth or node cap beside the clock, as the
    /// TUI's level sets, does not matter), nothing to analyse, no mate to find and no
    /// restriction of the root moves. Without a clock the engine searches, unless the
    /// options say the search is a game's move all the same (`book_without_clock`).
    fn answer(
        &self,
        board: &Board,
        limits: &Limits,
        options: &SearchOptions,
        id: u64,
    ) -> Option<(crate::chess::types::Move, String)> {
        let clock = limits.wtime.is_some()
            || limits.btime.is_some()
            || limits.movetime.is_some()
            || options.book_without_clock;
        let searching = limits.mate.is_some()
            || limits.infinite
            || limits.ponder
            || !limits.searchmoves.is_empty();
        if !options.own_book || !clock || searching {
            return None;
        }
        let seed = options.book_random.then(|| {
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            nanos ^ id.rotate_left(32)
        });
        let bm = self.book.probe(board, seed)?;
        board
            .legal_moves()
            .contains(bm.mv)
            .then_some((bm.mv, bm.name))
    }
}

/// A seed from the clock, so a level's games differ from one run to the next.
fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0x0088, |d| d.as_nanos() as u64)
}

/// One move at a level below `max`, on the search thread: the level's search (its
/// iterations reported as they come), a report of what it weighed, the rest of the level's
/// think time waited out here (a newer `go` or a stop cuts it short, so the front end never
/// waits), then the chosen move.
struct LevelTurn<'a> {
    shared: &'a SearchShared,
    id: u64,
    board: &'a Board,
    limits: &'a Limits,
    options: &'a SearchOptions,
}

impl LevelTurn<'_> {
    fn play(&self, searcher: &mut Searcher, rng: &mut Rng, emit: &mut dyn FnMut(SearchEvent)) {
        let level = self.options.level;
        // A level searches on one thread whatever `threads` says: its budgets are node
        // counts, calibrated on the single, reproducible search (docs/levels.md).
        let options = SearchOptions {
            threads: 1,
            ..self.options.clone()
        };
        let turn = levels::think_as(
            searcher,
            Some(self.id),
            self.board,
            level,
            self.limits,
            &options,
            rng,
            emit,
        );
        emit(SearchEvent::LevelReport {
            id: self.id,
            report: level_report(self.board, &turn),
        });
        let wait = turn.think.saturating_sub(turn.searched);
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until && !self.shared.should_stop(self.id) {
            std::thread::sleep(Duration::from_millis(5).min(until - std::time::Instant::now()));
        }
        let best = turn
            .best()
            .or_else(|| self.board.legal_moves().as_slice().first().copied());
        emit(SearchEvent::BestMove {
            id: self.id,
            best,
            ponder: None,
            book: None,
        });
    }
}

/// What a level's move weighed, for the front ends: the budget, the search, each candidate
/// (named in SAN on `board`, the position the level played in) with its score, the value
/// weighed (noise included) and its chance, and the one chosen.
fn level_report(board: &Board, turn: &LevelMove) -> LevelReport {
    LevelReport {
        level: turn.level,
        side: board.side_to_move(),
        budget_nodes: turn.limits.nodes,
        budget_depth: turn.limits.depth,
        depth: turn.depth,
        nodes: turn.nodes,
        lines: turn.candidates.len(),
        think: turn.think,
        choice: turn.choice.as_ref().map(|choice| LevelChoice {
            weighed: choice
                .weighed
                .iter()
                .map(|w| WeighedLine {
                    mv: w.candidate.mv,
                    san: board.san(w.candidate.mv),
                    score: w.candidate.score,
                    value_cp: w.value_cp,
                    probability: w.probability,
                })
                .collect(),
            index: choice.index,
            reason: choice.reason,
        }),
    }
}

/// The panic's message, for a report (the facade's guard and the background jobs).
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
pub(crate) mod test_seam {
    //! A deliberate panic for the tests of the panic guard: a search of the position with
    //! this key panics. Compiled into test builds only, so no user can trip it.
    use std::sync::atomic::{AtomicU64, Ordering};

    pub static PANIC_ON_KEY: AtomicU64 = AtomicU64::new(0);

    pub fn maybe_panic(key: u64) {
        if key != 0 && PANIC_ON_KEY.load(Ordering::SeqCst) == key {
            panic!("deliberate test panic");
        }
    }
}

fn search_thread(
    rx: Receiver<Command>,
    shared: Arc<SearchShared>,
    pending: Arc<(Mutex<u32>, Condvar)>,
    mut on_event: Box<dyn FnMut(SearchEvent) + Send>,
) {
    let mut searcher = Searcher::new(Arc::clone(&shared));
    let mut rng = Rng::new(clock_seed());
    let mut book = BookSlot {
        book: Book::builtin(),
        file: None,
    };
    while let Ok(cmd) = rx.recv() {
        match cmd {
            Command::Go {
                id,
                board,
                limits,
                options,
            } => {
                // A bug anywhere in answering must not leave the front end waiting: report
                // it, answer with a legal move if one can be had, and go on with a fresh
                // searcher.
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    #[cfg(test)]
                    test_seam::maybe_panic(board.hash());
                    book.configure(&options.book_file, id, &mut *on_event);
                    if let Some((mv, name)) = book.answer(&board, &limits, &options, id) {
                        on_event(SearchEvent::BestMove {
                            id,
                            best: Some(mv),
                            ponder: None,
                            book: Some(name),
                        });
                    } else if options.level != Level::Max && !limits.infinite && !limits.ponder {
                        let turn = LevelTurn {
                            shared: &shared,
                            id,
                            board: &board,
                            limits: &limits,
                            options: &options,
                        };
                        turn.play(&mut searcher, &mut rng, &mut *on_event);
                    } else {
                        searcher.run(id, (*board).clone(), &limits, &options, &mut *on_event);
                    }
                }));
                if let Err(payload) = run {
                    searcher = Searcher::new(Arc::clone(&shared));
                    let fallback = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        board.legal_moves().as_slice().first().copied()
                    }))
                    .unwrap_or(None);
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        on_event(SearchEvent::Message {
                            id,
                            text: format!(
                                "internal error in the search ({}); answering with a legal move",
                                panic_text(&*payload)
                            ),
                        });
                        on_event(SearchEvent::BestMove {
                            id,
                            best: fallback,
                            ponder: None,
                            book: None,
                        });
                    }));
                }
                finished(&pending);
            }
            Command::NewGame => {
                let cleared = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    searcher.new_game();
                }));
                if let Err(payload) = cleared {
                    searcher = Searcher::new(Arc::clone(&shared));
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        on_event(SearchEvent::Message {
                            id: 0,
                            text: format!(
                                "internal error clearing for a new game ({}); starting afresh",
                                panic_text(&*payload)
                            ),
                        });
                    }));
                }
            }
            Command::Quit => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn a_level_below_max_reports_what_it_weighed_and_plays_a_candidate() {
        let (tx, rx) = mpsc::channel();
        let engine = Engine::new(move |ev| {
            let _ = tx.send(ev);
        });
        let board = Board::startpos();
        let options = SearchOptions {
            hash_mb: 1,
            level: Level::Elo(1200),
            own_book: false,
            ..SearchOptions::default()
        };
        // A short movetime caps the think time, so the test does not wait long.
        let id = engine.go(
            &board,
            Limits::movetime(Duration::from_millis(50)),
            &options,
        );
        let mut messages = Vec::new();
        let best = loop {
            match rx.recv_timeout(Duration::from_secs(30)).expect("an answer") {
                SearchEvent::LevelReport { id: got, report } if got == id => {
                    messages.extend(report.lines());
                }
                SearchEvent::Message { id: got, text } if got == id => {
                    panic!("the level's report is not a message: {text}")
                }
                SearchEvent::BestMove { id: got, best, .. } if got == id => break best,
                _ => {}
            }
        };
        let best = best.expect("a move");
        assert!(board.legal_moves().contains(best));
        assert!(
            messages[0].starts_with("level casual: budget "),
            "{messages:?}"
        );
        let played = messages.last().unwrap();
        assert_eq!(
            played,
            &format!(
                "level casual plays {} (drawn by the weights)",
                board.san(best)
            )
        );
        assert!(messages.iter().any(|m| m.starts_with('→')), "{messages:?}");
    }

    #[test]
    fn a_panicking_search_is_reported_answered_and_the_engine_keeps_working() {
        // A position no other test searches, so the seam fires only here.
        let doomed = Board::from_fen("4k3/8/8/8/8/8/3P4/4K2R w K - 0 1").unwrap();
        test_seam::PANIC_ON_KEY.store(doomed.hash(), Ordering::SeqCst);
        let (tx, rx) = mpsc::channel();
        let engine = Engine::new(move |ev| {
            let _ = tx.send(ev);
        });
        let options = SearchOptions {
            own_book: false,
            hash_mb: 1,
            ..SearchOptions::default()
        };
        let id = engine.go(&doomed, Limits::depth(3), &options);
        let mut message = None;
        let best = loop {
            match rx.recv_timeout(Duration::from_secs(30)).expect("an answer") {
                SearchEvent::Message { id: got, text } if got == id => message = Some(text),
                SearchEvent::BestMove { id: got, best, .. } if got == id => break best,
                _ => {}
            }
        };
        let message = message.expect("the panic is reported");
        assert!(message.contains("deliberate test panic"), "{message}");
        assert!(
            doomed
                .legal_moves()
                .contains(best.expect("a fallback move"))
        );

        // The next search works and finds a real move.
        let board = Board::from_fen("4k3/8/8/8/8/8/3P4/R3K3 w Q - 0 1").unwrap();
        let id = engine.go(&board, Limits::depth(4), &options);
        let best = loop {
            match rx.recv_timeout(Duration::from_secs(30)).expect("an answer") {
                SearchEvent::Message { id: got, text } if got == id => {
                    panic!("unexpected message {text}")
                }
                SearchEvent::BestMove { id: got, best, .. } if got == id => break best,
                _ => {}
            }
        };
        assert!(board.legal_moves().contains(best.unwrap()));
        engine.wait_idle();
        assert!(!engine.is_searching());
    }
}
