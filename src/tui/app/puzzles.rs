//! The puzzle part: the set served (the shipped one or `--puzzles FILE`), the player's
//! record (rating, streak, own mistakes) and where it is kept, the puzzle being solved, and
//! the game set aside while puzzles are on the board. The hub's side (`puzzles_hub.rs`) decides
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

/// Where the player's record is kept.
pub enum RecordHome {
    /// A file beside the autosaved games.
    File(PathBuf),
    /// The club's database, under a member's key.
    Store(std::sync::Arc<dyn crate::club::Store>, String),
}

/// Puzzles and the player's record.
#[derive(Default)]
pub struct Puzzles {
    /// The set, read on first use.
    set: Option<Vec<Puzzle>>,
    /// A puzzle file given with `--puzzles` (instead of the shipped set).
    file: Option<PathBuf>,
    progress: Progress,
    /// Where the record is kept (`None`: in memory only, as in tests).
    path: Option<PathBuf>,
    /// The record on disk could not be read: it is not written over.
    keep_file: bool,
    /// Under `ox88 serve`, a member with a key: the record is kept in the club's database
    /// under their key (instead of a file).
    store: Option<(std::sync::Arc<dyn crate::club::Store>, String)>,
    active: Option<Solving>,
    /// The last puzzle's result was counted (once per puzzle).
    counted: bool,
    /// How the last puzzle was chosen (Ctrl+O serves the next one the same way).
    choice: Option<Choice>,
    set_aside: Option<SetAside>,
    /// Varies the pick among puzzles of the same rating.
    serial: u64,
    refuter: Option<Searcher>,
    /// What the last review of a game of the player's gave their own puzzles, when it gave
    /// none: `:puzzle mine` says why it has nothing.
    own_note: Option<String>,
}

impl Puzzles {
    /// Puzzles from `file` (`None`: the shipped set).
    pub fn from_file(file: Option<PathBuf>) -> Puzzles {
        Puzzles {
            file,
            ..Puzzles::default()
        }
    }

    // ---- the puzzle on the board ---------------------------------------------------------

    /// The puzzle being solved (or just finished).
    pub fn active(&self) -> Option<&Solving> {
        self.active.as_ref()
    }

    /// The puzzle being solved, to answer it or show its solution.
    pub fn active_mut(&mut self) -> Option<&mut Solving> {
        self.active.as_mut()
    }

    /// `solving` is put on the board; it is not counted yet.
    pub fn begin(&mut self, solving: Solving) {
        self.active = Some(solving);
        self.counted = false;
    }

    /// True the first time a finished puzzle is counted, false after (once per puzzle).
    pub fn count_once(&mut self) -> bool {
        !std::mem::replace(&mut self.counted, true)
    }

    /// How the last puzzle was chosen (Ctrl+O serves the next one the same way).
    pub fn choice(&self) -> Option<&Choice> {
        self.choice.as_ref()
    }

    /// The next puzzle is chosen by `choice`; returns a seed that varies the pick among
    /// puzzles of one rating (`salt` varies it between sessions).
    pub fn choose(&mut self, choice: Choice, salt: u64) -> u64 {
        self.choice = Some(choice);
        self.serial += 1;
        self.serial ^ salt << 17
    }

    // ---- the game set aside --------------------------------------------------------------

    /// Keeps what was on the board before the first puzzle (only the first time).
    pub fn keep_aside(&mut self, make: impl FnOnce() -> SetAside) {
        if self.set_aside.is_none() {
            self.set_aside = Some(make());
        }
    }

    /// Puzzles end: what was set aside, to give back, and no puzzle is on.
    pub fn end(&mut self) -> Option<SetAside> {
        let back = self.set_aside.take()?;
        self.active = None;
        Some(back)
    }

    // ---- the player's record -------------------------------------------------------------

    /// The player's record: ratings, streak, own mistakes.
    /// Why the last review gave no puzzle of the player's own (`None` once one did).
    pub fn own_note(&self) -> Option<&str> {
        self.own_note.as_deref()
    }

    pub fn set_own_note(&mut self, note: Option<String>) {
        self.own_note = note;
    }

    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// The record, to count a result or add the player's own mistakes.
    pub fn progress_mut(&mut self) -> &mut Progress {
        &mut self.progress
    }

    /// Where the record lives: read from a file at `path` or from the club's `store`
    /// under `member` (`loaded`). A record that did not read is never written over, and
    /// the puzzles are counted for this session only.
    pub fn keep_record(
        &mut self,
        at: RecordHome,
        loaded: Result<Progress, String>,
    ) -> Result<(), String> {
        match at {
            RecordHome::File(path) => self.path = Some(path),
            RecordHome::Store(store, member) => self.store = Some((store, member)),
        }
        match loaded {
            Ok(p) => {
                self.progress = p;
                Ok(())
            }
            Err(e) => {
                self.keep_file = true;
                Err(e)
            }
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
    /// move): its score from White's view, as every score on screen, and the moves in SAN.
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
        Some((result.score.for_white(after.side_to_move()), line))
    }
}
