//! Iterative-deepening alpha-beta. Placeholder body until the real search lands: it answers
//! with the first legal move so the front ends can be built against the facade.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::board::Board;
use super::report::{Limits, SearchEvent, SearchOptions};

/// Which search features are on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Only what the seed pages describe: alpha-beta, PV-first ordering, the chosen capture
    /// ordering and quiescence; no transposition table, no pruning.
    Seed,
    /// Everything.
    #[default]
    Full,
}

/// Flags shared between the facade and the search thread.
#[derive(Default)]
pub struct SearchShared {
    pub stop: AtomicBool,
    pub ponder: AtomicBool,
}

impl SearchShared {
    pub fn ponderhit(&self) {
        self.ponder.store(false, Ordering::SeqCst);
    }
}

pub struct Searcher {
    shared: Arc<SearchShared>,
}

impl Searcher {
    pub fn new(shared: Arc<SearchShared>) -> Searcher {
        Searcher { shared }
    }

    pub fn new_game(&mut self) {}

    pub fn run(
        &mut self,
        id: u64,
        board: Board,
        _limits: &Limits,
        _options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
    ) {
        let _ = &self.shared;
        let best = board.legal_moves().as_slice().first().copied();
        emit(SearchEvent::BestMove {
            id,
            best,
            ponder: None,
            book: None,
        });
    }
}
