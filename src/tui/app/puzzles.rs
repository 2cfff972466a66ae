//! The puzzle part: the set served (the shipped one or `--puzzles FILE`), the player's
//! record (rating, streak, own mistakes) and where it is kept, the puzzle being solved, and
//! the game set aside while puzzles are on the board. The hub (`puzzle_flow.rs`) decides
//! what a typed move does while a puzzle is on.

use std::path::PathBuf;

use super::play::SetAside;
use crate::chess::Board;
use crate::engine::search::Searcher;
use crate::engine::{Limits, Score, SearchOptions};
use crate::puzzle::progress::{Choice, Progress};
use crate::puzzle::solve::Solving;
use crate::puzzle::{self, Puzzle};

/// Nodes for the line that shows why a wrong answer fails.
const REFUTATION_NODES: u64 = 40_000;

/// Puzzles and the player's record.
#[derive(Default)]
pub struct Puzzles {
    /// The set, read on first use.
    set: Option<Vec<Puzzle>>,
    /// A puzzle file given with `--puzzles` (instead of the shipped set).
    pub file: Option<PathBuf>,
    pub progress: Progress,
    /// Where the record is kept (`None`: in memory only, as in tests).
    pub path: Option<PathBuf>,
    /// The record on disk could not be read: it is not written over.
    pub keep_file: bool,
    /// Under `ox88 serve`, a member with a key: the record is kept in the club's database
    /// under their key (instead of a file).
    pub store: Option<(std::sync::Arc<dyn crate::club::Store>, String)>,
    pub active: Option<Solving>,
    /// The last puzzle's result was counted (once per puzzle).
    pub counted: bool,
    /// How the last puzzle was chosen (Ctrl+O serves the next one the same way).
    pub choice: Option<Choice>,
    pub set_aside: Option<SetAside>,
    /// Varies the pick among puzzles of the same rating.
    pub serial: u64,
    refuter: Option<Searcher>,
}

impl Puzzles {
    /// Puzzles from `file` (`None`: the shipped set).
    pub fn from_file(file: Option<PathBuf>) -> Puzzles {
        Puzzles {
            file,
            ..Puzzles::default()
        }
    }

    /// Puzzles are on the board (one being solved or just finished).
    pub fn is_on(&self) -> bool {
        self.set_aside.is_some()
    }

    /// The puzzles served: the file's, else the shipped set. A file that does not read is
    /// an error (the shipped set serves meanwhile).
    pub fn set(&mut self) -> Result<&[Puzzle], String> {
        if self.set.is_none() {
            let set = match &self.file {
                Some(path) => {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    puzzle::file::read(&text).map_err(|e| format!("{}: {e}", path.display()))?
                }
                None => puzzle::shipped(),
            };
            self.set = Some(set);
        }
        Ok(self.set.as_deref().unwrap_or_default())
    }

    /// Drops a `--puzzles` file that did not read, so the shipped set serves.
    pub fn use_shipped(&mut self) {
        self.file = None;
        self.set = None;
    }

    /// Writes the record, unless it came from a file that did not read. `Some(error)`.
    pub fn save(&self) -> Option<String> {
        if self.keep_file {
            return None;
        }
        if let Some((store, member)) = &self.store {
            let json = serde_json::to_string(&self.progress).expect("a record always serialises");
            return store
                .save_puzzle_record(member, &json)
                .err()
                .map(|e| e.to_string());
        }
        let path = self.path.as_ref()?;
        self.progress.save(path).err().map(|e| e.to_string())
    }

    /// The engine's line after a wrong answer (the position after it, the opponent to
    /// move): its score from the solver's side and the moves in SAN.
    pub fn refutation(&mut self, after: &Board) -> Option<(Score, Vec<String>)> {
        if !after.has_legal_move() {
            return None;
        }
        let searcher = self.refuter.get_or_insert_with(Searcher::standalone);
        let limits = Limits {
            nodes: Some(REFUTATION_NODES),
            ..Limits::default()
        };
        let options = SearchOptions {
            own_book: false,
            hash_mb: 4,
            move_overhead: std::time::Duration::ZERO,
            ..SearchOptions::default()
        };
        let result = searcher.search_sync(after, &limits, &options, &mut |_| {});
        let line = after.san_line(&result.pv.iter().take(5).copied().collect::<Vec<_>>());
        Some((result.score.negate(), line))
    }
}
