//! Running a search in a test and keeping what it reported: each depth's final report and,
//! when asked, the tree of the last iteration.

// Each test crate that includes `common` uses its own subset (most none).

use std::collections::BTreeMap;

use ox88::chess::Board;
use ox88::engine::search::record::{TreeLimits, TreeNode};
use ox88::engine::search::{SearchResult, Searcher};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use ox88::engine::{Bound, IterationInfo, Limits, SearchEvent, SearchOptions};

/// A test search's settings: no book (the search itself is under test), a small table.
pub fn no_book() -> SearchOptions {
    SearchOptions {
        own_book: false,
        hash_mb: 4,
        ..SearchOptions::default()
    }
}

/// What one search did.
pub struct Searched {
    pub result: SearchResult,
    /// Each depth's final report: its first line, exact (a failed aspiration window's
    /// bounds come before it).
    pub finals: BTreeMap<u32, IterationInfo>,
    /// The last complete iteration's tree, when the search recorded one.
    pub tree: Option<TreeNode>,
}

impl Searched {
    /// The nodes iteration `depth` searched by itself (the reports count from the start).
    pub fn iteration_nodes(&self, depth: u32) -> u64 {
        let before = depth
            .checked_sub(1)
            .and_then(|d| self.finals.get(&d))
            .map_or(0, |i| i.nodes);
        self.finals[&depth].nodes - before
    }
}

/// Searches `fen` to `depth` on a fresh searcher, recording the tree within `tree` if given
/// (recording changes nothing the search does).
pub fn search_to_depth(
    fen: &str,
    depth: u32,
    options: &SearchOptions,
    tree: Option<TreeLimits>,
) -> Searched {
    let board = Board::from_fen(fen).unwrap();
    let limits = Limits::depth(depth);
    let mut finals = BTreeMap::new();
    let mut keep = |ev: SearchEvent| {
        if let SearchEvent::Iteration { info, .. } = ev
            && info.multipv == 1
            && info.bound == Bound::Exact
        {
            finals.insert(info.depth, info);
        }
    };
    let mut searcher = Searcher::standalone();
    let (result, tree) = match tree {
        None => (
            searcher.search_sync(&board, &limits, options, &mut keep),
            None,
        ),
        Some(within) => searcher.search_tree(&board, &limits, options, within, &mut keep),
    };
    Searched {
        result,
        finals,
        tree,
    }
}

/// Waits (up to a minute) until search `id` reports a finished iteration of `depth` or
/// deeper: proof that it is under way. Fails if its best move comes first.
pub fn until_depth(rx: &Receiver<SearchEvent>, id: u64, depth: u32) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(SearchEvent::Iteration { id: got, info }) if got == id && info.depth >= depth => {
                return;
            }
            Ok(SearchEvent::BestMove { id: got, .. }) if got == id => {
                panic!("search {id} answered before reaching depth {depth}")
            }
            Ok(_) => {}
            Err(_) => panic!("search {id} did not reach depth {depth} within a minute"),
        }
    }
}
