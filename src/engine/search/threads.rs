//! Lazy SMP: with `threads` above one, helper searchers run the same iterative deepening on
//! the same position beside the main one, each with its own history, killers and stack,
//! sharing only the transposition table. What they store steers the main search (and each
//! other) into cutoffs it would otherwise have to find itself; nothing else passes between
//! them. The main thread alone reports and decides the move; when it stops (time, `stop`,
//! depth or nodes reached) the helpers are told to stop and are waited for, and their
//! nodes join the reported totals.
//!
//! Helpers would search the same tree in step with the main thread, so they skip depths:
//! helper k skips runs of `size` consecutive depths every other run, shifted by `phase`
//! (the pattern Stockfish used for its Lazy SMP: sizes 1,1,2,2,2,2,3,…; phases 0,1,0,1,2,3,
//! 0,…), which spreads the helpers over the next few depths.
//!
//! One thread runs none of this: `threads` = 1 is the single search exactly as before.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::record::{NoRecord, Recorder};
use super::{SearchResult, SearchShared, Searcher};
use crate::chess::board::Board;
use crate::engine::report::{Limits, SearchEvent, SearchOptions};

/// The most search threads the engine runs (the UCI `Threads` maximum and the CLI's).
/// A fixed cap rather than the machine's core count: the `uci` declaration stays the same
/// on every machine, and more threads than cores still works (each runs slower).
pub const MAX_THREADS: u32 = 64;

const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// A searcher's part in Lazy SMP: the main thread's helpers, or a helper's place.
#[derive(Default)]
pub(super) struct Threads {
    /// 0 for a main searcher, k for the k-th helper.
    index: usize,
    /// A helper's node count as last published (every 2048 nodes), read by the main one.
    published: Option<Arc<AtomicU64>>,
    /// The main searcher's helpers, kept between searches (their history goes on learning
    /// within a game; `new_game` drops them) and the counts they publish.
    helpers: Vec<Searcher>,
    counts: Vec<Arc<AtomicU64>>,
    /// The helpers' own stop flag: they stop when the main search is over, whatever ended it.
    group: Arc<SearchShared>,
    /// The last search's nodes by thread, the main one first.
    last_nodes: Vec<u64>,
}

impl Threads {
    /// Whether this helper leaves `depth` to the others.
    #[inline]
    pub(super) fn skips(&self, depth: u32) -> bool {
        if self.index == 0 {
            return false;
        }
        let i = (self.index - 1) % SKIP_SIZE.len();
        (depth + SKIP_PHASE[i]) / SKIP_SIZE[i] % 2 == 1
    }

    /// Whether this searcher is a helper (helpers leave the table's age to the main one).
    #[inline]
    pub(super) fn is_helper(&self) -> bool {
        self.index > 0
    }

    /// A helper tells the main thread how far it got.
    #[inline]
    pub(super) fn publish(&self, nodes: u64) {
        if let Some(p) = &self.published {
            p.store(nodes, Relaxed);
        }
    }

    /// The helpers' nodes in the running search, as last published (0 with one thread).
    #[inline]
    pub(super) fn helper_nodes(&self) -> u64 {
        self.counts.iter().map(|c| c.load(Relaxed)).sum()
    }

    /// Forgets the helpers (a new game, another table): they are made afresh when needed.
    pub(super) fn release(&mut self) {
        self.helpers.clear();
        self.counts.clear();
    }
}

/// Tells the helpers to stop when dropped, so a panic in the main search cannot leave
/// them running while the scope waits for them.
struct StopHelpers<'a>(&'a SearchShared);

impl Drop for StopHelpers<'_> {
    fn drop(&mut self) {
        self.0.stop_all();
    }
}

impl Searcher {
    /// `think` on `options.threads` threads (capped at [`MAX_THREADS`]); one thread is
    /// `think` itself.
    pub(super) fn think_threads<R: Recorder>(
        &mut self,
        id: u64,
        board: Board,
        limits: &Limits,
        options: &SearchOptions,
        emit: &mut dyn FnMut(SearchEvent),
        rec: &mut R,
    ) -> SearchResult {
        let n = options.threads.clamp(1, MAX_THREADS) as usize;
        if n == 1 {
            let result = self.think(id, board, limits, options, emit, rec);
            self.threads.last_nodes = vec![result.stats.nodes];
            return result;
        }
        self.prepare_helpers(n - 1);
        let mut helpers = std::mem::take(&mut self.threads.helpers);
        let group = Arc::clone(&self.threads.group);
        let helper_id = group.start(false);
        // Helpers search until told to stop; the main thread keeps the limits, MultiPV and
        // the reports. They keep `searchmoves` so they explore the same root.
        let helper_limits = Limits {
            infinite: true,
            searchmoves: limits.searchmoves.clone(),
            ..Limits::default()
        };
        let helper_options = SearchOptions {
            multipv: 1,
            report_root_moves: false,
            record_tree: None,
            ..options.clone()
        };
        let result = std::thread::scope(|s| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    let board = board.clone();
                    let (limits, options) = (&helper_limits, &helper_options);
                    s.spawn(move || {
                        h.think(
                            helper_id,
                            board,
                            limits,
                            options,
                            &mut |_| {},
                            &mut NoRecord,
                        )
                    })
                })
                .collect();
            let stop = StopHelpers(&group);
            // Only the main thread records (the tree browser shows its tree).
            let mut result = self.think(id, board, limits, options, emit, rec);
            drop(stop);
            let mut per_thread = vec![result.stats.nodes];
            for h in handles {
                // A helper that panicked contributes nothing; the main result stands.
                let helper = h.join().map(|r| r.stats).unwrap_or_default();
                result.stats.add(&helper);
                per_thread.push(helper.nodes);
            }
            self.threads.last_nodes = per_thread;
            result
        });
        self.threads.helpers = helpers;
        for c in &self.threads.counts {
            c.store(0, Relaxed);
        }
        result
    }

    /// The last search's nodes by thread, the main thread's first (its total is the
    /// result's `stats.nodes`).
    pub fn nodes_per_thread(&self) -> &[u64] {
        &self.threads.last_nodes
    }

    /// Makes `n` helpers ready: as many as asked, on this searcher's table and settings.
    fn prepare_helpers(&mut self, n: usize) {
        self.threads.helpers.truncate(n);
        self.threads.counts.truncate(n);
        while self.threads.helpers.len() < n {
            let count = Arc::new(AtomicU64::new(0));
            let mut h = Searcher::with_table(Arc::clone(&self.threads.group), Arc::clone(&self.tt));
            h.threads.index = self.threads.helpers.len() + 1;
            h.threads.published = Some(Arc::clone(&count));
            self.threads.helpers.push(h);
            self.threads.counts.push(count);
        }
        for h in &mut self.threads.helpers {
            h.tt = Arc::clone(&self.tt);
            h.eval_cfg = self.eval_cfg;
            h.scheme = self.scheme;
            h.profile = self.profile;
        }
        for c in &self.threads.counts {
            c.store(0, Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper(index: usize) -> Threads {
        Threads {
            index,
            ..Threads::default()
        }
    }

    #[test]
    fn the_main_thread_skips_no_depth() {
        assert!((1..64).all(|d| !helper(0).skips(d)));
    }

    #[test]
    fn the_first_helpers_search_alternate_depths() {
        let searched =
            |k: usize| -> Vec<u32> { (1..=8).filter(|&d| !helper(k).skips(d)).collect() };
        assert_eq!(searched(1), vec![2, 4, 6, 8]);
        assert_eq!(searched(2), vec![1, 3, 5, 7]);
        assert_eq!(searched(3), vec![1, 4, 5, 8]);
    }

    #[test]
    fn every_helper_searches_some_depth_in_any_eight() {
        for k in 1..=MAX_THREADS as usize {
            for start in 1..40 {
                assert!(
                    (start..start + 8).any(|d| !helper(k).skips(d)),
                    "helper {k}"
                );
            }
        }
    }
}
