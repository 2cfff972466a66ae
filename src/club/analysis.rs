//! One analysis per watched game: the watchers of a room who open the engine's panes share
//! one search of its game, on one engine, instead of one engine each.
//!
//! The server holds one [`Analyses`]; a watcher who opens the panes takes a [`Watch`] on
//! the room's game (refused with a sentence when the server already runs as many analyses
//! as it allows and this game has none). The first watch of a game makes its engine; every
//! watcher's screen asks it to [`Watch::follow`] the position it shows, and the search
//! starts again only when the position differs from the one searched, so all who watch
//! one game see one search. The engine's events (iterations, trees, root moves) go to every
//! watch's sink; a watcher who comes in during a search is sent what the search has found
//! so far. When one screen moves the search to another position, the others are told
//! ([`Shared::Searching`]): a screen that shows that position follows the new search, so
//! a watcher whose screen was a move behind for a moment never leaves the others on a
//! search that no longer runs. When the last watch of a game is dropped (panes closed, room left, session
//! ended) its engine stops and goes.
//!
//! Locks: the service's map, then one analysis's fan-out, in that order; the engine's
//! thread takes only the fan-out. An engine is dropped (its thread joined) with no lock
//! held. Sinks only send, never block.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use super::ClubError;
use crate::chess::Board;
use crate::engine::{Engine, IterationInfo, Limits, SearchEvent, SearchOptions};

/// What a watcher's screen receives of the game's analysis.
#[derive(Clone, Debug)]
pub enum Shared {
    /// The analysis now searches this position (FEN), as search `id`: a screen showing it
    /// follows that search (see [`Watch::follow`]).
    Searching { id: u64, fen: String },
    /// An event of the search.
    Event(SearchEvent),
}

/// Where a watcher's screen receives the shared analysis. Called with the analysis's lock
/// held: it must only send, never block.
pub type Sink = Arc<dyn Fn(Shared) + Send + Sync>;

/// The server's caps on a search's options (table size, threads, no book file, small
/// recorded trees), applied to whatever a watcher's screen asks for.
pub type Caps = Box<dyn Fn(&SearchOptions) -> SearchOptions + Send + Sync>;

/// What a search has found so far, sent to a watcher who comes in during it.
#[derive(Default)]
struct Replay {
    /// The deepest complete iteration's tree.
    tree: Option<SearchEvent>,
    /// The deepest finished iteration's lines (MultiPV 1 first).
    lines: Vec<SearchEvent>,
    /// The root moves of the iteration under way.
    root_moves: Option<SearchEvent>,
    /// The root move being searched.
    current: Option<SearchEvent>,
    /// The search's answer, once it stopped.
    best: Option<SearchEvent>,
}

impl Replay {
    fn keep(&mut self, ev: &SearchEvent) {
        match ev {
            SearchEvent::Tree { .. } => self.tree = Some(ev.clone()),
            SearchEvent::Iteration { info, .. } => {
                if info.multipv <= 1 {
                    self.lines.clear();
                    self.root_moves = None;
                }
                self.lines.retain(|l| line_of(l) != info.multipv);
                self.lines.push(ev.clone());
            }
            SearchEvent::RootMoves { .. } => self.root_moves = Some(ev.clone()),
            SearchEvent::CurrentMove { .. } => self.current = Some(ev.clone()),
            SearchEvent::BestMove { .. } => self.best = Some(ev.clone()),
            SearchEvent::Message { .. } | SearchEvent::LevelReport { .. } => {}
        }
    }

    /// In the order the engine sends them: a tree before its iteration's lines.
    fn events(&self) -> impl Iterator<Item = &SearchEvent> {
        self.tree
            .iter()
            .chain(&self.lines)
            .chain(&self.root_moves)
            .chain(&self.current)
            .chain(&self.best)
    }
}

fn line_of(ev: &SearchEvent) -> u32 {
    match ev {
        SearchEvent::Iteration {
            info: IterationInfo { multipv, .. },
            ..
        } => *multipv,
        _ => 0,
    }
}

/// One analysis's watchers and what its current search has sent.
#[derive(Default)]
struct Fanout {
    watchers: Vec<(u64, Sink)>,
    /// The current search's id (0: none started yet).
    search: u64,
    replay: Replay,
}

impl Fanout {
    fn send(&mut self, ev: SearchEvent) {
        // A superseded search's last events matter to nobody: every screen follows the
        // newest one.
        if ev.id() != self.search {
            return;
        }
        self.replay.keep(&ev);
        for (_, sink) in &self.watchers {
            sink(Shared::Event(ev.clone()));
        }
    }
}

/// One watched game's engine.
struct Analysis {
    engine: Engine,
    fanout: Arc<Mutex<Fanout>>,
    /// The position searched, as FEN (`None`: resting, the game is over).
    fen: Option<String>,
}

#[derive(Default)]
struct State {
    games: HashMap<String, Analysis>,
    next_watch: u64,
}

/// The server's analyses for watchers: at most `max` games at once, one engine each.
pub struct Analyses {
    state: Mutex<State>,
    max: usize,
    caps: Caps,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Analyses {
    /// A service running at most `max` analyses at once, each search within `caps`.
    pub fn new(max: usize, caps: Caps) -> Arc<Analyses> {
        Arc::new(Analyses {
            state: Mutex::new(State::default()),
            max,
            caps,
        })
    }

    /// The most analyses at once (`--analysis`).
    pub fn max(&self) -> usize {
        self.max
    }

    /// How many games have an analysis now (each one engine, watched by one or more).
    pub fn running(&self) -> usize {
        lock(&self.state).games.len()
    }

    /// How many watchers share the analysis of `game` (0: it has none).
    pub fn watchers(&self, game: &str) -> usize {
        lock(&self.state)
            .games
            .get(game)
            .map_or(0, |a| lock(&a.fanout).watchers.len())
    }

    /// A watcher of `game` opens the engine's panes: the game's analysis is shared, or
    /// made when the cap allows; `sink` receives its events from now on.
    pub fn watch(self: &Arc<Self>, game: &str, sink: Sink) -> Result<Watch, ClubError> {
        let mut st = lock(&self.state);
        st.next_watch += 1;
        let id = st.next_watch;
        if let Some(a) = st.games.get(game) {
            lock(&a.fanout).watchers.push((id, sink));
        } else {
            if st.games.len() >= self.max {
                return Err(ClubError::new(busy(st.games.len(), self.max)));
            }
            let fanout = Arc::new(Mutex::new(Fanout {
                watchers: vec![(id, sink)],
                ..Fanout::default()
            }));
            let engine = {
                let fanout = Arc::clone(&fanout);
                Engine::new(move |ev| lock(&fanout).send(ev))
            };
            st.games.insert(
                game.to_string(),
                Analysis {
                    engine,
                    fanout,
                    fen: None,
                },
            );
        }
        Ok(Watch {
            service: Arc::clone(self),
            game: game.to_string(),
            id,
        })
    }

    fn leave(&self, game: &str, id: u64) {
        let gone = {
            let mut st = lock(&self.state);
            let empty = st.games.get(game).is_some_and(|a| {
                let mut f = lock(&a.fanout);
                f.watchers.retain(|(w, _)| *w != id);
                f.watchers.is_empty()
            });
            if empty { st.games.remove(game) } else { None }
        };
        // The engine stops and its thread ends here, with no lock held (its thread may be
        // waiting for the fan-out's).
        drop(gone);
    }
}

/// What a watcher beyond the cap is told.
fn busy(running: usize, max: usize) -> String {
    match max {
        0 => "this server runs no analysis for watchers (--analysis 0)".into(),
        _ => format!(
            "the engine is busy on {running} other game{} (the server runs at most {max} \
             analys{}); try later",
            if running == 1 { "" } else { "s" },
            if max == 1 { "is" } else { "es" },
        ),
    }
}

/// One watcher's share of a game's analysis; dropping it leaves (the last one out stops
/// the engine).
pub struct Watch {
    service: Arc<Analyses>,
    game: String,
    id: u64,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("game", &self.game)
            .field("id", &self.id)
            .finish()
    }
}

impl Watch {
    /// The game watched (its room's name).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The analysis searches `board` (started again only if it searched another position,
    /// with `options` within the server's caps); returns the search's id. Unless the
    /// watcher already follows that search (`following`), what it has found so far is sent
    /// to this watcher's sink, in order, before any later event.
    pub fn follow(&self, board: &Board, options: &SearchOptions, following: Option<u64>) -> u64 {
        let mut st = lock(&self.service.state);
        let Some(a) = st.games.get_mut(&self.game) else {
            return 0;
        };
        let fen = board.to_fen();
        let mut f = lock(&a.fanout);
        if a.fen.as_deref() != Some(fen.as_str()) {
            // Asked under the fan-out's lock: the new search's first event waits for it,
            // so the fan-out knows the search before the search says anything.
            f.search = a
                .engine
                .go(board, Limits::infinite(), &(self.service.caps)(options));
            f.replay = Replay::default();
            for (_, sink) in f.watchers.iter().filter(|(w, _)| *w != self.id) {
                sink(Shared::Searching {
                    id: f.search,
                    fen: fen.clone(),
                });
            }
            a.fen = Some(fen);
        }
        let search = f.search;
        if following != Some(search)
            && let Some((_, sink)) = f.watchers.iter().find(|(w, _)| *w == self.id)
        {
            for ev in f.replay.events() {
                sink(Shared::Event(ev.clone()));
            }
        }
        search
    }

    /// How many others share this analysis: a screen that follows a search someone else's
    /// share of the engine budget already pays for takes no share of its own.
    pub fn others(&self) -> usize {
        self.service.watchers(&self.game).saturating_sub(1)
    }

    /// The game is over: the search stops (the engine stays for its watchers until they
    /// close their panes, and searches again if the position changes, as after a takeback).
    pub fn rest(&self) {
        let mut st = lock(&self.service.state);
        if let Some(a) = st.games.get_mut(&self.game)
            && a.fen.take().is_some()
        {
            a.engine.stop();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.service.leave(&self.game, self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    fn service(max: usize) -> Arc<Analyses> {
        Analyses::new(
            max,
            Box::new(|o| SearchOptions {
                hash_mb: 1,
                threads: 1,
                ..o.clone()
            }),
        )
    }

    /// A sink whose search events arrive on the receiver, and the positions it is told
    /// the analysis moved to in the list.
    fn sink() -> (Sink, mpsc::Receiver<SearchEvent>) {
        let (tx, rx) = mpsc::channel();
        (
            Arc::new(move |shared| {
                let ev = match shared {
                    Shared::Event(ev) => ev,
                    // Told as a message, so the tests read one stream in order.
                    Shared::Searching { id, fen } => SearchEvent::Message { id, text: fen },
                };
                let _ = tx.send(ev);
            }),
            rx,
        )
    }

    /// Waits (bounded) for an iteration of search `id`.
    fn iteration_of(rx: &mpsc::Receiver<SearchEvent>, id: u64) -> IterationInfo {
        let until = Instant::now() + Duration::from_secs(30);
        while let Ok(ev) = rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
            if let SearchEvent::Iteration { id: got, info } = ev
                && got == id
            {
                return info;
            }
        }
        panic!("no iteration of search {id}");
    }

    /// Waits (bounded) for the answer of search `id`: its best move.
    fn best_of(rx: &mpsc::Receiver<SearchEvent>, id: u64) -> Option<crate::chess::Move> {
        let until = Instant::now() + Duration::from_secs(30);
        while let Ok(ev) = rx.recv_timeout(until.saturating_duration_since(Instant::now())) {
            if let SearchEvent::BestMove { id: got, best, .. } = ev
                && got == id
            {
                return best;
            }
        }
        panic!("no answer from search {id}");
    }

    #[test]
    fn watchers_of_one_game_share_one_search_and_the_last_out_stops_it() {
        let s = service(1);
        let board = Board::startpos();
        let options = SearchOptions::default();
        let (sink_a, rx_a) = sink();
        let (sink_b, rx_b) = sink();
        let a = s.watch("den", sink_a).unwrap();
        let id = a.follow(&board, &options, None);
        let b = s.watch("den", sink_b).unwrap();
        assert_eq!(s.running(), 1, "one engine for the game");
        assert_eq!(s.watchers("den"), 2);
        assert_eq!(
            b.follow(&board, &options, None),
            id,
            "the same position: the same search, not a new one"
        );
        let first = iteration_of(&rx_a, id);
        let seen_by_b = iteration_of(&rx_b, id);
        assert!(first.depth >= 1 && seen_by_b.depth >= 1);

        // The position changes: one new search, followed by both.
        let moved =
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        let next = b.follow(&moved, &options, Some(id));
        assert_ne!(next, id);
        // a is told, and follows.
        let until = Instant::now() + Duration::from_secs(30);
        let told = std::iter::from_fn(|| {
            rx_a.recv_timeout(until.saturating_duration_since(Instant::now()))
                .ok()
        })
        .find_map(|ev| match ev {
            SearchEvent::Message { id, text } => Some((id, text)),
            _ => None,
        });
        assert_eq!(told, Some((next, moved.to_fen())));
        assert_eq!(a.follow(&moved, &options, Some(id)), next);
        iteration_of(&rx_a, next);
        iteration_of(&rx_b, next);

        drop(a);
        assert_eq!(s.running(), 1, "b still watches");
        drop(b);
        assert_eq!(s.running(), 0, "the last one out stops the analysis");
    }

    #[test]
    fn a_watcher_beyond_the_cap_is_told_and_a_freed_slot_is_taken() {
        let s = service(1);
        let (sink_a, _rx_a) = sink();
        let (sink_c, _rx_c) = sink();
        let a = s.watch("den", sink_a).unwrap();
        let refused = s
            .watch("hall", Arc::clone(&sink_c))
            .unwrap_err()
            .to_string();
        assert_eq!(
            refused,
            "the engine is busy on 1 other game (the server runs at most 1 analysis); try later"
        );
        assert_eq!(s.running(), 1);
        drop(a);
        let c = s.watch("hall", sink_c).expect("the slot is free again");
        assert_eq!(c.game(), "hall");
        let (sink_z, _rx_z) = sink();
        let off = service(0).watch("den", sink_z).unwrap_err().to_string();
        assert!(off.contains("--analysis 0"), "{off}");
    }

    #[test]
    fn a_watcher_who_comes_in_late_is_sent_what_the_search_found() {
        let s = service(1);
        let board = Board::startpos();
        let options = SearchOptions::default();
        let (sink_a, rx_a) = sink();
        let a = s.watch("den", sink_a).unwrap();
        let id = a.follow(&board, &options, None);
        let found = iteration_of(&rx_a, id);
        let (sink_b, rx_b) = sink();
        let b = s.watch("den", sink_b).unwrap();
        assert_eq!(b.follow(&board, &options, None), id);
        let replayed = iteration_of(&rx_b, id);
        assert!(
            replayed.depth >= found.depth,
            "b sees the search a sees, not one from scratch"
        );

        // The game ends: the search stops and answers; a later position starts a new one.
        a.rest();
        assert!(best_of(&rx_a, id).is_some(), "the resting search answered");
        let mated =
            Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        let over = a.follow(&mated, &options, Some(id));
        assert_ne!(over, id);
        assert_eq!(
            best_of(&rx_a, over),
            None,
            "no move: the search is over at once"
        );

        // What a watcher already follows is not sent again; one who asks afresh gets it.
        assert_eq!(best_of(&rx_b, over), None, "b is sent the answer too");
        while rx_b.try_recv().is_ok() {}
        assert_eq!(b.follow(&mated, &options, Some(over)), over);
        assert_eq!(rx_b.try_iter().count(), 0, "nothing twice");
        assert_eq!(b.follow(&mated, &options, None), over);
        let again: Vec<_> = rx_b.try_iter().collect();
        assert!(
            again
                .iter()
                .any(|ev| matches!(ev, SearchEvent::BestMove { id, .. } if *id == over)),
            "{again:?}"
        );
    }
}
