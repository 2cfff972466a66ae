//! "Nothing lost": the game in progress is kept on disk after every move, so a dropped SSH
//! connection, a kill or a crash loses none of the moves already shown.
//!
//! Layout of the data directory (`$OX88_DATA_DIR`, else `dirs::data_local_dir()/ox88`,
//! i.e. `~/.local/share/ox88` on Linux):
//! - `current.pgn`: the unfinished game. Its existence is the "unfinished" marker; its first
//!   line is a PGN escape line (`% ox88 autosave <id>`, ignored by PGN readers) naming the
//!   game, so a different game never silently overwrites it.
//! - `games/`: finished games, and unfinished ones set aside, one PGN file each.
//! - `current.lock`: locked (an OS file lock, `File::try_lock`) by the process that keeps its
//!   game here, so two ox88 processes never write the same `current.pgn`. The lock goes
//!   with the process, however it ends: a lock left by a crash cannot outlive it. The file
//!   holds the owner's process id, to name it in the second process's message.
//!
//! Every file is written atomically: a temporary file in the same directory, `fsync`, then
//! `rename` over the target (and an `fsync` of the directory), so a reader sees the old
//! file or the new one, never half of one.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{Game, PgnError};

/// Environment variable that overrides the data directory (tests, portable setups).
pub const DATA_DIR_ENV: &str = "OX88_DATA_DIR";
const CURRENT: &str = "current.pgn";
const ARCHIVE: &str = "games";
const MARKER: &str = "% ox88 autosave ";
const LOCK: &str = "current.lock";

#[derive(Debug, thiserror::Error)]
pub enum AutosaveError {
    #[error("no data directory for the autosave (set {DATA_DIR_ENV} or HOME)")]
    NoDataDir,
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}: {source}", path.display())]
    Pgn { path: PathBuf, source: PgnError },
    /// Another process holds the directory's lock (its process id, when it wrote one).
    #[error("another ox88{} keeps its game in {}: this one cannot autosave there", holder.map(|p| format!(" (process {p})")).unwrap_or_default(), dir.display())]
    Locked { dir: PathBuf, holder: Option<u32> },
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> AutosaveError + '_ {
    move |source| AutosaveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `contents` to `path` atomically: temporary file beside it, flush to disk, rename.
/// Also what `:save FILE` should use, so a crash mid-save never leaves a truncated file.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let written = (|| {
        let mut f = File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
        return written;
    }
    // The rename itself must reach the disk too; directories cannot be opened for this on
    // every platform, so a failure here is not an error.
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The autosave of one data directory.
#[derive(Clone, Debug)]
pub struct Autosave {
    dir: PathBuf,
    /// The directory's lock, once taken (`lock`); shared by clones, released when the last
    /// one is dropped.
    lock: Option<std::sync::Arc<File>>,
}

impl Autosave {
    /// The data directory from `$OX88_DATA_DIR`, else the platform's local data directory.
    pub fn from_env() -> Option<Autosave> {
        if let Some(d) = std::env::var_os(DATA_DIR_ENV).filter(|d| !d.is_empty()) {
            return Some(Autosave::in_dir(PathBuf::from(d)));
        }
        dirs::data_local_dir().map(|d| Autosave::in_dir(d.join("ox88")))
    }

    pub fn in_dir(dir: impl Into<PathBuf>) -> Autosave {
        Autosave {
            dir: dir.into(),
            lock: None,
        }
    }

    /// Claims the directory for this process: the first ox88 to lock it keeps its game
    /// there; another gets `Locked` (and should play on without autosave). Taking it again
    /// is a no-op.
    pub fn lock(&mut self) -> Result<(), AutosaveError> {
        if self.lock.is_some() {
            return Ok(());
        }
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        let path = self.dir.join(LOCK);
        let mut file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io_err(&path))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                let holder = fs::read_to_string(&path)
                    .ok()
                    .and_then(|t| t.trim().parse().ok());
                return Err(AutosaveError::Locked {
                    dir: self.dir.clone(),
                    holder,
                });
            }
            Err(fs::TryLockError::Error(e)) => return Err(io_err(&path)(e)),
        }
        // Who holds it, for the message of a second process (information only: the lock
        // itself is the OS's).
        let _ = file
            .set_len(0)
            .and_then(|_| file.write_all(format!("{}\n", std::process::id()).as_bytes()));
        self.lock = Some(std::sync::Arc::new(file));
        Ok(())
    }

    /// Whether this autosave holds its directory's lock.
    pub fn is_locked(&self) -> bool {
        self.lock.is_some()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the unfinished game lives.
    pub fn current_path(&self) -> PathBuf {
        self.dir.join(CURRENT)
    }

    /// Where finished (and set-aside) games go.
    pub fn archive_dir(&self) -> PathBuf {
        self.dir.join(ARCHIVE)
    }

    /// Keeps `game` safe; call it after every move and after a result is declared.
    /// An unfinished game with moves is written to `current.pgn` (an unfinished game of
    /// another id there is set aside first). A finished game is archived under `games/`
    /// (one file per game, replaced on a later save) and `current.pgn` removed. Returns the
    /// file written, if any. What is written is the game as the board shows it: moves taken
    /// back (kept in memory for `redo`) are not written as played.
    pub fn save(&self, game: &Game) -> Result<Option<PathBuf>, AutosaveError> {
        let shown = game.as_shown();
        let game = &shown;
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        let current = self.current_path();
        if let Some(other) = self.current_id()?
            && other != game.id()
        {
            self.set_aside()?;
        }
        if game.final_result().is_some() {
            let path = self.archive_path(game)?;
            write_atomic(&path, game.to_pgn().as_bytes()).map_err(io_err(&path))?;
            if current.exists() {
                fs::remove_file(&current).map_err(io_err(&current))?;
            }
            return Ok(Some(path));
        }
        if game.is_empty() {
            // Nothing to lose yet; an earlier save of this game (all moves taken back) goes.
            if current.exists() {
                fs::remove_file(&current).map_err(io_err(&current))?;
            }
            return Ok(None);
        }
        let text = format!("{MARKER}{}\n{}", game.id(), game.to_pgn());
        write_atomic(&current, text.as_bytes()).map_err(io_err(&current))?;
        Ok(Some(current))
    }

    /// The unfinished game, if there is one, to offer for resuming. The cursor stands after
    /// the last move. A file that cannot be read is an error (and stays where it is).
    pub fn load_unfinished(&self) -> Result<Option<Game>, AutosaveError> {
        let path = self.current_path();
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(&path)(e)),
        };
        let mut game = Game::from_pgn(&text).map_err(|source| AutosaveError::Pgn {
            path: path.clone(),
            source,
        })?;
        if let Some(id) = marker_id(&text) {
            game.id = id.to_string();
        }
        Ok(Some(game))
    }

    /// Moves the unfinished game (if any) into `games/` so a new game can start without
    /// losing it (the user declined to resume). Returns where it went.
    pub fn set_aside(&self) -> Result<Option<PathBuf>, AutosaveError> {
        let current = self.current_path();
        if !current.exists() {
            return Ok(None);
        }
        let archive = self.archive_dir();
        fs::create_dir_all(&archive).map_err(io_err(&archive))?;
        let stamp = chrono::Local::now().format("%Y-%m-%d_%H%M%S");
        let target = unique_path(&archive, &format!("{stamp}_unfinished"))?;
        fs::rename(&current, &target).map_err(io_err(&current))?;
        Ok(Some(target))
    }

    /// The id in `current.pgn`'s marker line; `Some("")` for a file without one (written by
    /// something else, or damaged), which no game matches.
    fn current_id(&self) -> Result<Option<String>, AutosaveError> {
        let path = self.current_path();
        match fs::read_to_string(&path) {
            Ok(t) => Ok(Some(marker_id(&t).unwrap_or("").to_string())),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            // Unreadable as text (binary garbage): set it aside like any foreign file.
            Err(e) if e.kind() == io::ErrorKind::InvalidData => Ok(Some(String::new())),
            Err(e) => Err(io_err(&path)(e)),
        }
    }

    /// A finished game's archive file: named by its date and id, so saving the same game
    /// again replaces its file rather than adding another.
    fn archive_path(&self, game: &Game) -> Result<PathBuf, AutosaveError> {
        let archive = self.archive_dir();
        fs::create_dir_all(&archive).map_err(io_err(&archive))?;
        let clean = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '-'
                    }
                })
                .collect()
        };
        Ok(archive.join(format!(
            "{}_{}.pgn",
            file_date(&game.tags.date),
            clean(game.id())
        )))
    }
}

/// A game's date for a file name: `2026-11-27` from the PGN date `2026.11.27`, today's when
/// the game's date is missing or partly unknown (`????.??.??`), so a name always starts
/// with a digit (never with `-`, which programs would take for an option).
fn file_date(pgn_date: &str) -> String {
    let parts: Vec<&str> = pgn_date.trim().split('.').collect();
    let known = parts.len() == 3
        && parts
            .iter()
            .zip([4, 2, 2])
            .all(|(p, n)| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()));
    if known {
        parts.join("-")
    } else {
        chrono::Local::now().format("%Y-%m-%d").to_string()
    }
}

fn marker_id(text: &str) -> Option<&str> {
    let first = text.lines().next()?;
    let id = first.strip_prefix(MARKER)?.trim();
    (!id.is_empty()).then_some(id)
}

/// `dir/stem.pgn`, or `dir/stem-2.pgn`, `-3`... if taken.
fn unique_path(dir: &Path, stem: &str) -> Result<PathBuf, AutosaveError> {
    for n in 1..10_000 {
        let name = if n == 1 {
            format!("{stem}.pgn")
        } else {
            format!("{stem}-{n}.pgn")
        };
        let p = dir.join(name);
        if !p.exists() {
            return Ok(p);
        }
    }
    Err(AutosaveError::Io {
        path: dir.join(stem),
        source: io::Error::new(
            io::ErrorKind::AlreadyExists,
            "too many games saved this second",
        ),
    })
}

/// `Autosave::from_env().save(game)`.
pub fn save(game: &Game) -> Result<Option<PathBuf>, AutosaveError> {
    Autosave::from_env()
        .ok_or(AutosaveError::NoDataDir)?
        .save(game)
}

/// `Autosave::from_env().load_unfinished()`: the game to offer for resuming at start.
pub fn load_unfinished() -> Result<Option<Game>, AutosaveError> {
    Autosave::from_env()
        .ok_or(AutosaveError::NoDataDir)?
        .load_unfinished()
}

/// `Autosave::from_env().set_aside()`: the user declined to resume.
pub fn set_aside() -> Result<Option<PathBuf>, AutosaveError> {
    Autosave::from_env()
        .ok_or(AutosaveError::NoDataDir)?
        .set_aside()
}
