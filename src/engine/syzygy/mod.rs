//! Syzygy endgame tablebases, read by our own prober: for positions with few men, the
//! exact result (WDL: win, cursed win, draw, blessed loss, loss) and the distance to the
//! next capture or pawn move that keeps it (DTZ), as the published `.rtbw` / `.rtbz` files
//! store them.
//!
//! `Tablebases::open` lists a directory's table files and opens none; each file is opened
//! and its header parsed the first time a probe needs it, and afterwards only the few bytes
//! a probe needs are read from it (positioned reads, nothing mapped, no whole file kept).
//! A damaged or short file gives a `TableError` naming it; nothing here panics on a file's
//! contents.
//!
//! The parts: `reader` (checked positioned reads through a bounded block cache), `huffman` (the compressed values),
//! `encode` (a position's entry number), `table` (one file parsed and looked up), `probe`
//! (the rules around the stored values: captures and en passant, which the files leave
//! out, and the side a DTZ file does not store), `options` (how the search uses the tables).

mod encode;
mod huffman;
mod options;
mod probe;
mod reader;
mod table;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub use options::{PROBE_DEPTH_MAX, PROBE_LIMIT_MAX, SyzygyOptions};
pub use probe::MoveResult;
use reader::BlockCache;
use table::{Kind, Table};

/// The memory a set of tables keeps of its files' blocks (index entries and compressed
/// data) for probes to come: the whole 3- and 4-man set (4.4 MB) fits, and of larger sets
/// the blocks a search keeps returning to.
pub const CACHE_BYTES: usize = 16 << 20;

/// A tablebase result from the side to move's view, the fifty-move rule counted from a
/// capture or pawn move just played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    Loss,
    /// Lost, but the fifty-move rule saves the game (the winner needs more than fifty moves
    /// without a capture or pawn move).
    BlessedLoss,
    Draw,
    /// Won, but only in more than fifty moves without a capture or pawn move: a draw under
    /// the fifty-move rule.
    CursedWin,
    Win,
}

impl Wdl {
    /// The number the tables and `ox88 tb` use: −2 loss, −1 blessed loss, 0 draw, 1 cursed
    /// win, 2 win.
    pub fn value(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// From the tables' number (−2..=2).
    pub fn from_value(v: i32) -> Option<Wdl> {
        Some(match v {
            -2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            2 => Wdl::Win,
            _ => return None,
        })
    }

    /// The same result from the other side's view.
    pub fn flip(self) -> Wdl {
        Wdl::from_value(-self.value()).unwrap_or(Wdl::Draw)
    }

    /// In words, for people: "win", "cursed win", "draw", "blessed loss", "loss".
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Loss => "loss",
            Wdl::BlessedLoss => "blessed loss",
            Wdl::Draw => "draw",
            Wdl::CursedWin => "cursed win",
            Wdl::Win => "win",
        }
    }
}

/// What the tables say about a position for people: the result from White's side and the
/// distance to the next capture or pawn move of the best line (DTZ, plies), as the TUI's
/// eval pane and status line show it: `tablebase: White wins, DTZ 23`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbVerdict {
    /// The result for White (the side to move's result turned round when Black is to move).
    pub white: Wdl,
    /// The DTZ's size (0 for a draw).
    pub dtz: u32,
}

impl fmt::Display for TbVerdict {
    /// `tablebase: White wins, DTZ 23`, `tablebase: draw`, `tablebase: cursed win for
    /// Black (blessed loss for White), DTZ 131`: every side named, never "the side to move".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dtz = self.dtz;
        match self.white {
            Wdl::Win => write!(f, "tablebase: White wins, DTZ {dtz}"),
            Wdl::Loss => write!(f, "tablebase: Black wins, DTZ {dtz}"),
            Wdl::Draw => f.write_str("tablebase: draw"),
            Wdl::CursedWin => write!(
                f,
                "tablebase: cursed win for White (blessed loss for Black), DTZ {dtz}"
            ),
            Wdl::BlessedLoss => write!(
                f,
                "tablebase: cursed win for Black (blessed loss for White), DTZ {dtz}"
            ),
        }
    }
}

/// A table file that cannot be used, or a directory that cannot be read: which, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    pub path: PathBuf,
    pub what: String,
}

impl TableError {
    fn new(path: &Path, what: String) -> TableError {
        TableError {
            path: path.to_path_buf(),
            what,
        }
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "syzygy table {}: {}", self.path.display(), self.what)
    }
}

impl std::error::Error for TableError {}

/// A table file found on disk, parsed on first use; its reads go through the set's cache
/// under the number `id`.
#[derive(Debug)]
struct Slot {
    path: PathBuf,
    name: String,
    kind: Kind,
    id: u32,
    cache: Arc<BlockCache>,
    table: OnceLock<Result<Table, TableError>>,
}

impl Slot {
    fn table(&self) -> Result<&Table, TableError> {
        self.table
            .get_or_init(|| {
                Table::open(
                    &self.path,
                    &self.name,
                    self.kind,
                    self.id,
                    Arc::clone(&self.cache),
                )
            })
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// The Syzygy tables of one or more directories, by name ("KQvKR"). Every method takes
/// `&self` and the type is `Sync`: the search's threads share one set behind an `Arc`
/// (each file is parsed once, by whichever thread needs it first; the block cache has its
/// own locks).
#[derive(Debug)]
pub struct Tablebases {
    wdl: HashMap<String, Slot>,
    dtz: HashMap<String, Slot>,
    max_men: usize,
    /// Every file found gets its own number for the cache (a file of a later directory
    /// that replaces one of the same name included).
    files_found: u32,
    cache: Arc<BlockCache>,
}

impl Default for Tablebases {
    fn default() -> Tablebases {
        Tablebases {
            wdl: HashMap::new(),
            dtz: HashMap::new(),
            max_men: 0,
            files_found: 0,
            cache: Arc::new(BlockCache::new(CACHE_BYTES)),
        }
    }
}

impl Tablebases {
    /// The tables in `dir` (files named like `KQvKR.rtbw` and `KQvKR.rtbz`; others are
    /// ignored). Opens no table yet.
    pub fn open(dir: &Path) -> Result<Tablebases, TableError> {
        let mut tb = Tablebases::default();
        tb.add_directory(dir)?;
        Ok(tb)
    }

    /// The tables of each directory in a list separated by `:` (as UCI's `SyzygyPath`
    /// gives them; `;` is taken too). Empty entries are skipped.
    pub fn open_paths(list: &str) -> Result<Tablebases, TableError> {
        let mut tb = Tablebases::default();
        for dir in list.split([':', ';']).filter(|d| !d.trim().is_empty()) {
            tb.add_directory(Path::new(dir.trim()))?;
        }
        Ok(tb)
    }

    fn add_directory(&mut self, dir: &Path) -> Result<(), TableError> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| TableError::new(dir, format!("cannot read the directory: {e}")))?;
        for entry in entries {
            let entry = entry
                .map_err(|e| TableError::new(dir, format!("cannot read the directory: {e}")))?;
            let path = entry.path();
            let Some(file_name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some((name, ext)) = file_name.rsplit_once('.') else {
                continue;
            };
            let kind = match ext {
                "rtbw" => Kind::Wdl,
                "rtbz" => Kind::Dtz,
                _ => continue,
            };
            if !is_table_name(name) {
                continue;
            }
            let men = name.len() - 1;
            let id = self.files_found;
            self.files_found = self.files_found.saturating_add(1);
            let slot = Slot {
                path: path.clone(),
                name: name.to_string(),
                kind,
                id,
                cache: Arc::clone(&self.cache),
                table: OnceLock::new(),
            };
            match kind {
                Kind::Wdl => {
                    self.max_men = self.max_men.max(men);
                    self.wdl.insert(name.to_string(), slot);
                }
                Kind::Dtz => {
                    self.dtz.insert(name.to_string(), slot);
                }
            }
        }
        Ok(())
    }

    /// The most men of any WDL table found (0 when there is none).
    pub fn max_men(&self) -> usize {
        self.max_men
    }

    /// The number of WDL and DTZ files found.
    pub fn file_counts(&self) -> (usize, usize) {
        (self.wdl.len(), self.dtz.len())
    }

    /// Reads of file blocks answered from the cache and blocks read from disk so far, and
    /// the most bytes the cache holds.
    pub fn cache_counts(&self) -> (u64, u64, usize) {
        let (hits, misses) = self.cache.counts();
        (hits, misses, self.cache.capacity())
    }

    /// The table of this kind for a position whose White and Black have the men named
    /// `white` and `black`: the file of that name, or of the colours swapped.
    fn table_for(&self, kind: Kind, white: &str, black: &str) -> Option<&Slot> {
        let map = match kind {
            Kind::Wdl => &self.wdl,
            Kind::Dtz => &self.dtz,
        };
        map.get(&format!("{white}v{black}"))
            .or_else(|| map.get(&format!("{black}v{white}")))
    }

    /// Opens and parses every table file now (as a probe would on first use), so that a
    /// damaged one is named before any probing. Returns the first error.
    pub fn check_all(&self) -> Result<(), TableError> {
        let mut slots: Vec<&Slot> = self.wdl.values().chain(self.dtz.values()).collect();
        slots.sort_by(|a, b| a.path.cmp(&b.path));
        for slot in slots {
            slot.table()?;
        }
        Ok(())
    }

    /// Every WDL value (−2..=2) the WDL table `name` can hold, read from its symbol table
    /// without decoding the entries: which results occur in an ending at all (for
    /// instance whether it has cursed wins). `None` when there is no such table.
    pub fn wdl_values_in(&self, name: &str) -> Result<Option<Vec<i32>>, TableError> {
        match self.wdl.get(name) {
            None => Ok(None),
            Some(slot) => Ok(Some(
                slot.table()?
                    .possible_wdl_values()
                    .into_iter()
                    .map(i32::from)
                    .collect(),
            )),
        }
    }
}

/// Whether a file stem names a chess table: `K…vK…` with at most seven men, pieces in
/// the letters Q R B N P.
fn is_table_name(name: &str) -> bool {
    let Some((w, b)) = name.split_once('v') else {
        return false;
    };
    let ok = |part: &str| part.starts_with('K') && part[1..].chars().all(|c| "QRBNP".contains(c));
    ok(w) && ok(b) && w.len() + b.len() <= encode::MAX_MEN
}
