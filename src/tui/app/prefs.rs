//! The settings this screen plays and searches with: the depth, the evaluation and the
//! ordering, the level, the engine's table and threads, the look (theme, ASCII pieces),
//! the key table, and the settings file `:set save` writes to.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::chess::Board;
use crate::engine::syzygy::{SyzygyOptions, Tablebases};

use crate::engine::eval::EvalConfig;
use crate::engine::search::Profile;
use crate::tui::keys::Binding;
use crate::tui::settings::{Config, Settings};
use crate::tui::theme::{ColorDepth, Theme};

/// The session's settings: the one `Settings` (the file's, the flags', changed by `:set`
/// and keys) and what is made from it (the loaded theme, the key table), beside what only
/// a session has (MultiPV, the search profile, the settings file, where files may go).
pub struct Prefs {
    pub settings: Settings,
    /// How many lines a search shows (MultiPV).
    pub multipv: u32,
    /// The search profile of the engine's searches (`Seed`: the textbook search only).
    pub profile: Profile,
    /// The settings file, for `:set` and `:set save` (`None`: none read; `:set` then
    /// changes the session only).
    pub config: Option<Config>,
    /// The key table: `settings.keys` over the defaults.
    pub keys: Vec<Binding>,
    /// The theme `settings.theme` names, loaded.
    pub theme: Theme,
    pub color_depth: ColorDepth,
    /// Where user themes are looked up (`None`: the built-in ones only).
    pub user_theme_dir: Option<PathBuf>,
    /// When set, `:save`/`:load` take a bare file name inside this directory and never a
    /// path the user names (the SSH server gives each player one).
    pub file_root: Option<PathBuf>,
    /// The Syzygy tables `settings.syzygy` names, opened (none when it names none, or
    /// names a directory without tables).
    pub tables: TableSet,
}

/// An opened set of Syzygy tables for the searches, and the verdict on the last position
/// asked about: the panes ask every frame, the tables are probed once per position.
#[derive(Debug, Default)]
pub struct TableSet {
    tables: Option<Arc<Tablebases>>,
    /// The last position asked about (its hash) and what the tables said of it.
    last: Mutex<Option<(u64, Option<String>)>>,
}

impl TableSet {
    /// The tables in `dir` (`None`: no tables). A directory that cannot be read or holds no
    /// WDL table is refused with a message saying so.
    pub fn open(dir: Option<&Path>) -> Result<TableSet, String> {
        let Some(dir) = dir else {
            return Ok(TableSet::default());
        };
        let shown = dir.display();
        let tables = Tablebases::open_paths(&dir.to_string_lossy())
            .map_err(|e| format!("syzygy: cannot read the directory {shown}: {}", e.what))?;
        if tables.max_men() == 0 {
            return Err(format!(
                "syzygy: no Syzygy tables (*.rtbw) in {shown}; `scripts/get-syzygy.sh DIR` fetches the 3- and 4-man set"
            ));
        }
        Ok(TableSet {
            tables: Some(Arc::new(tables)),
            last: Mutex::new(None),
        })
    }

    /// How the searches use the tables (none: no probing).
    pub fn search_options(&self) -> SyzygyOptions {
        SyzygyOptions {
            tables: self.tables.clone(),
            ..SyzygyOptions::default()
        }
    }

    /// The tables, when a set is open.
    pub fn tables(&self) -> Option<&Tablebases> {
        self.tables.as_deref()
    }

    /// In words, for the log: how many files, up to how many men.
    pub fn describe(&self) -> Option<String> {
        let t = self.tables.as_ref()?;
        let (wdl, dtz) = t.file_counts();
        Some(format!(
            "Syzygy tables: {wdl} WDL and {dtz} DTZ files, up to {} men",
            t.max_men()
        ))
    }

    /// What the tables say of `board` ("tablebase: White wins, DTZ 23"; a damaged file's
    /// error), `None` when no tables are open or they do not cover it. Probed only when
    /// the position differs from the last one asked about.
    pub fn verdict(&self, board: &Board) -> Option<String> {
        let tables = self.tables.as_ref()?;
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((hash, text)) = last.as_ref()
            && *hash == board.hash()
        {
            return text.clone();
        }
        let text = match tables.verdict(board) {
            Ok(v) => v.map(|v| v.to_string()),
            Err(e) => Some(format!("tablebase: {e}")),
        };
        *last = Some((board.hash(), text.clone()));
        text
    }
}

impl Prefs {
    /// The evaluation the settings name, for E and the searches.
    pub fn eval(&self) -> EvalConfig {
        EvalConfig {
            mode: self.settings.eval,
            ..EvalConfig::default()
        }
    }
}
