//! The engine session: the engine behind the `EngineControl` seam, the search we are
//! waiting for (its id, why it runs, what it has reported), and the filter that drops the
//! events of every other search. Nothing here waits for the engine: `go`, `stop` and
//! `new_game` are asked for and the answers come later as events.

use std::sync::Arc;
use std::time::Instant;

use crate::chess::{Board, Color, Move};
use crate::engine::{Engine, IterationInfo, Limits, SearchEvent, SearchOptions};

use super::explorer::SearchTree;

/// What the app needs from an engine. `Engine` is the real one; tests use a recorder (or a
/// deliberately slow double) and feed events by hand, so no test depends on a search's
/// timing. None of these may wait for a search to end.
pub trait EngineControl {
    /// Starts searching and returns the search's id (events carry it).
    fn go(&mut self, board: &Board, limits: Limits, options: &SearchOptions) -> u64;
    fn stop(&mut self);
    fn new_game(&mut self);
}

impl EngineControl for Engine {
    fn go(&mut self, board: &Board, limits: Limits, options: &SearchOptions) -> u64 {
        Engine::go(self, board, limits, options)
    }
    fn stop(&mut self) {
        Engine::stop(self)
    }
    fn new_game(&mut self) {
        Engine::new_game(self)
    }
}

/// What to do with a search's best move when it comes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnBest {
    /// Play it.
    Play,
    /// Throw it away (stopped, or analysis).
    Discard,
    /// Show it as a hint: marked on the board, not played.
    Hint,
}

/// The search we are waiting for.
#[derive(Clone, Debug)]
pub struct RunningSearch {
    pub id: u64,
    pub started: Instant,
    /// Analysis (infinite) rather than a search for a move.
    pub analysis: bool,
    pub on_best: OnBest,
    /// The searched position's hash: a best move for another position is never played.
    pub hash: u64,
    /// The side to move in the searched position (the engine's bounds are that side's).
    pub side: Color,
    /// The deepest finished iteration so far.
    pub last: Option<IterationInfo>,
    /// (depth, move, number) of the root move being searched.
    pub current: Option<(u32, Move, u32)>,
    /// The searched position (the root of its trees; boxed, it is large).
    pub root: Box<Board>,
    /// A search this screen follows but does not own: a club game's analysis shared by its
    /// watchers (its events arrive apart from the own engine's, whose ids may be the same).
    pub shared: bool,
}

/// The engine's state as the status bar names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineState {
    Idle,
    Thinking,
    /// The last engine move came from the book (named opening).
    Book(String),
}

/// An event of the search we wait for, after the session has taken what it keeps.
#[derive(Debug)]
pub enum Accepted {
    /// Something the user should read, whatever search it came from.
    Message(String),
    /// What a level weighed for its move (information), whatever search it came from.
    LevelReport(crate::engine::LevelReport),
    /// A finished iteration of the main line (MultiPV line 1).
    Iteration(IterationInfo),
    /// A finished MultiPV line after the first (the first is the `Iteration`).
    SideLine(IterationInfo),
    /// The root move being searched changed (kept in the running search).
    CurrentMove,
    /// A complete iteration's tree (kept as the session's newest tree): its depth.
    Tree(u32),
    /// The root moves so far of iteration `depth` (the sort pane).
    RootMoves {
        depth: u32,
        rows: Vec<crate::engine::RootMoveRow>,
    },
    /// The search ended: the search as it was, and its answer.
    Finished {
        search: RunningSearch,
        best: Option<Move>,
        book: Option<String>,
    },
}

pub struct Session {
    engine: Box<dyn EngineControl>,
    search: Option<RunningSearch>,
    /// What the engine is doing, for the status line.
    state: EngineState,
    /// Events dropped because their search was no longer the one we wait for.
    stale_dropped: u64,
    /// The newest iteration tree of the searches we waited for (kept after its search
    /// ends, until a later search sends one).
    last_tree: Option<Arc<SearchTree>>,
}

impl Session {
    pub fn new(engine: Box<dyn EngineControl>) -> Session {
        Session {
            engine,
            search: None,
            state: EngineState::Idle,
            stale_dropped: 0,
            last_tree: None,
        }
    }

    /// What the engine is doing, for the status line.
    pub fn state(&self) -> &EngineState {
        &self.state
    }

    /// The engine's state after a move: idle, or the book named.
    pub fn set_state(&mut self, state: EngineState) {
        self.state = state;
    }

    /// The newest complete iteration's tree (of this search or the last that sent one).
    pub fn last_tree(&self) -> Option<&Arc<SearchTree>> {
        self.last_tree.as_ref()
    }

    /// The search we wait for, if any.
    pub fn search(&self) -> Option<&RunningSearch> {
        self.search.as_ref()
    }

    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// A search for a move (not analysis) is running.
    pub fn is_thinking_for_a_move(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| !s.analysis && s.on_best != OnBest::Hint)
    }

    /// How many events of superseded searches were dropped.
    pub fn stale_dropped(&self) -> u64 {
        self.stale_dropped
    }

    /// Starts a search for a hint: its best move is shown, not played.
    pub fn start_hint(&mut self, board: &Board, limits: Limits, options: &SearchOptions) {
        self.start(board, limits, options, false);
        if let Some(s) = self.search.as_mut() {
            s.on_best = OnBest::Hint;
        }
    }

    /// A search for a hint is running.
    pub fn is_hinting(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|s| s.on_best == OnBest::Hint)
    }

    /// Starts a search of `board`; whatever ran before becomes stale.
    pub fn start(
        &mut self,
        board: &Board,
        limits: Limits,
        options: &SearchOptions,
        analysis: bool,
    ) {
        let id = self.engine.go(board, limits, options);
        self.search = Some(RunningSearch {
            id,
            started: Instant::now(),
            analysis,
            on_best: if analysis {
                OnBest::Discard
            } else {
                OnBest::Play
            },
            hash: board.hash(),
            side: board.side_to_move(),
            last: None,
            current: None,
            root: Box::new(board.clone()),
            shared: false,
        });
        self.state = EngineState::Thinking;
    }

    /// Follows shared analysis `id` of `board` (a club game's, searched by the club's
    /// engine): whatever ran before becomes stale, and only events taken by
    /// [`Session::accept_shared`] belong to it.
    pub fn follow(&mut self, id: u64, board: &Board) {
        self.cancel();
        self.search = Some(RunningSearch {
            id,
            started: Instant::now(),
            analysis: true,
            on_best: OnBest::Discard,
            hash: board.hash(),
            side: board.side_to_move(),
            last: None,
            current: None,
            root: Box::new(board.clone()),
            shared: true,
        });
        self.state = EngineState::Thinking;
    }

    /// The shared analysis followed, if any: its id.
    pub fn following(&self) -> Option<u64> {
        self.search.as_ref().filter(|s| s.shared).map(|s| s.id)
    }

    /// Asks the running search to stop and says what to do with its answer; false when
    /// nothing runs. The search stays the one we wait for until its best move comes.
    pub fn stop(&mut self, then: OnBest) -> bool {
        match self.search.as_mut() {
            Some(s) => {
                s.on_best = then;
                self.engine.stop();
                true
            }
            None => false,
        }
    }

    /// Forgets the running search (its events become stale) and asks the engine to stop
    /// (a shared analysis goes on for its other watchers).
    pub fn cancel(&mut self) {
        if self.search.take().is_some_and(|s| !s.shared) {
            self.engine.stop();
        }
        if self.state == EngineState::Thinking {
            self.state = EngineState::Idle;
        }
    }

    /// Forgets the running search and tells the engine a new game starts.
    pub fn new_game(&mut self) {
        self.cancel();
        self.engine.new_game();
    }

    /// Takes an event from the search thread: events of any search but the one we wait
    /// for are dropped here, so a takeback or a new game never sees an old search's move.
    pub fn accept(&mut self, ev: SearchEvent) -> Option<Accepted> {
        self.accept_from(ev, false)
    }

    /// Takes an event of a shared analysis (see [`Session::follow`]).
    pub fn accept_shared(&mut self, ev: SearchEvent) -> Option<Accepted> {
        self.accept_from(ev, true)
    }

    fn accept_from(&mut self, ev: SearchEvent, shared: bool) -> Option<Accepted> {
        if let SearchEvent::Message { text, .. } = ev {
            // Engine messages (a book file that failed) matter whatever search sent them.
            return Some(Accepted::Message(text));
        }
        if let SearchEvent::LevelReport { report, .. } = ev {
            return Some(Accepted::LevelReport(report));
        }
        let id = ev.id();
        let Some(search) = self
            .search
            .as_mut()
            .filter(|s| s.id == id && s.shared == shared)
        else {
            self.stale_dropped += 1;
            return None;
        };
        match ev {
            SearchEvent::Iteration { info, .. } => {
                if info.multipv > 1 {
                    return Some(Accepted::SideLine(info));
                }
                search.last = Some(info.clone());
                Some(Accepted::Iteration(info))
            }
            SearchEvent::CurrentMove {
                depth, mv, number, ..
            } => {
                search.current = Some((depth, mv, number));
                Some(Accepted::CurrentMove)
            }
            SearchEvent::BestMove { best, book, .. } => {
                let search = self.search.take()?;
                self.state = EngineState::Idle;
                Some(Accepted::Finished { search, best, book })
            }
            SearchEvent::Tree { depth, tree, .. } => {
                self.last_tree = Some(Arc::new(SearchTree {
                    search_id: id,
                    depth,
                    root: (*search.root).clone(),
                    tree,
                }));
                Some(Accepted::Tree(depth))
            }
            SearchEvent::RootMoves { depth, rows, .. } => Some(Accepted::RootMoves { depth, rows }),
            SearchEvent::Message { .. } | SearchEvent::LevelReport { .. } => None,
        }
    }
}
