//! The settings this screen plays and searches with: the depth, the evaluation and the
//! ordering, the level, the engine's table and threads, the look (theme, ASCII pieces),
//! the key table, and the settings file `:set save` writes to.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::chess::Board;
use crate::engine::syzygy::{SyzygyOptions, Tablebases};

use crate::engine::eval::{EvalConfig, EvalMode};
use crate::engine::levels::Level;
use crate::engine::order::Scheme;
use crate::engine::search::Profile;
use crate::tui::keys::Binding;
use crate::tui::pane::key_table;
use crate::tui::settings::{Config, Settings};
use crate::tui::theme::{self, ColorDepth, PieceStyle, Theme};

/// The session's settings: the one `Settings` (the file's, the flags', changed by `:set`
/// and keys) and what is made from it (the loaded theme, the key table), beside what only
/// a session has (the search profile, the settings file, where files may go).
pub struct Prefs {
    settings: Settings,
    /// The search profile of the engine's searches (`Seed`: the textbook search only).
    profile: Profile,
    /// The settings file, for `:set` and `:set save` (`None`: none read; `:set` then
    /// changes the session only).
    config: Option<Config>,
    /// The key table: `settings.keys` over the defaults.
    keys: Vec<Binding>,
    /// The theme `settings.theme` names, loaded.
    theme: Theme,
    color_depth: ColorDepth,
    /// Where user themes are looked up (`None`: the built-in ones only).
    user_theme_dir: Option<PathBuf>,
    /// When set, `:save`/`:load` take a bare file name inside this directory and never a
    /// path the user names (the SSH server gives each player one).
    file_root: Option<PathBuf>,
    /// The Syzygy tables `settings.syzygy` names, opened (none when it names none, or
    /// names a directory without tables).
    tables: TableSet,
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
    /// After mate or stalemate the game is over, and the board says which: no verdict.
    pub fn verdict(&self, board: &Board) -> Option<String> {
        let tables = self.tables.as_ref()?;
        if !board.has_legal_move() {
            return None;
        }
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
    /// The session's settings from `settings` (the depth clamped by the caller), with the
    /// key table they make, one line, the default profile and look, and no tables yet.
    pub fn new(settings: Settings) -> Prefs {
        Prefs {
            keys: settings.key_table(&key_table()),
            settings,
            profile: Profile::default(),
            config: None,
            theme: Theme::default(),
            color_depth: ColorDepth::TrueColor,
            user_theme_dir: theme::user_theme_dir(),
            file_root: None,
            tables: TableSet::default(),
        }
    }

    /// The evaluation the settings name, for E and the searches.
    pub fn eval(&self) -> EvalConfig {
        EvalConfig {
            mode: self.settings.eval,
            ..EvalConfig::default()
        }
    }

    // ---- what the screen and the searches read ------------------------------------------

    /// The one `Settings`: the file's, the flags', changed by `:set` and keys.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// How many lines a search shows (MultiPV).
    pub fn multipv(&self) -> u32 {
        self.settings.multipv
    }

    /// The search profile of the engine's searches (`Seed`: the textbook search only).
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The settings file, for `:set` and `:set save` (`None`: none read).
    pub fn config(&self) -> Option<&Config> {
        self.config.as_ref()
    }

    /// The key table: the settings' keys over the defaults.
    pub fn keys(&self) -> &[Binding] {
        &self.keys
    }

    /// The theme the settings name, loaded.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    pub fn color_depth(&self) -> ColorDepth {
        self.color_depth
    }

    /// Where user themes are looked up (`None`: the built-in ones only).
    pub fn user_theme_dir(&self) -> Option<&Path> {
        self.user_theme_dir.as_deref()
    }

    /// When set, `:save`/`:load` take a bare file name inside this directory only.
    pub fn file_root(&self) -> Option<&Path> {
        self.file_root.as_deref()
    }

    /// The Syzygy tables the settings name, opened.
    pub fn tables(&self) -> &TableSet {
        &self.tables
    }

    // ---- what the builder, the commands and the keys change ------------------------------

    /// The look the terminal takes: `theme` in `color_depth` colours (a theme of ASCII
    /// pieces turns ASCII on).
    pub fn use_look(&mut self, theme: Theme, color_depth: ColorDepth) {
        self.settings.ascii |= theme.pieces == PieceStyle::Ascii;
        self.theme = theme;
        self.color_depth = color_depth;
    }

    /// `:theme NAME`: the theme in force is `name`'s (kept as the setting, so that saving
    /// keeps it), and the pieces follow it (letters for an ASCII theme, else glyphs).
    pub fn set_theme(&mut self, name: &str, theme: Theme) {
        self.settings.ascii = theme.pieces == PieceStyle::Ascii;
        self.settings.theme = name.to_string();
        self.theme = theme;
    }

    /// `:ascii [on|off]` (no argument: the other way); returns whether pieces are letters.
    pub fn set_ascii(&mut self, on: Option<bool>) -> bool {
        self.settings.ascii = on.unwrap_or(!self.settings.ascii);
        self.settings.ascii
    }

    pub fn set_depth(&mut self, depth: u32) {
        self.settings.depth = depth;
    }

    pub fn set_eval(&mut self, mode: EvalMode) {
        self.settings.eval = mode;
    }

    pub fn set_order(&mut self, scheme: Scheme) {
        self.settings.order = scheme;
    }

    pub fn set_level(&mut self, level: Level) {
        self.settings.level = level;
    }

    /// Shows `n` lines (within 1 and `max`); returns the number set.
    pub fn set_multipv(&mut self, n: u32, max: u32) -> u32 {
        self.settings.multipv = n.clamp(1, max);
        self.settings.multipv
    }

    pub fn set_profile(&mut self, profile: Profile) {
        self.profile = profile;
    }

    pub fn set_user_theme_dir(&mut self, dir: Option<PathBuf>) {
        self.user_theme_dir = dir;
    }

    /// `:save`/`:load` take bare file names inside `dir` only (a visitor over SSH).
    pub fn confine_files_to(&mut self, dir: PathBuf) {
        self.file_root = Some(dir);
    }

    pub fn set_tables(&mut self, tables: TableSet) {
        self.tables = tables;
    }

    /// The settings file `:set` writes into and `:set save` keeps.
    pub fn set_config(&mut self, config: Config) {
        self.config = Some(config);
    }

    /// `:set` checked them whole: `settings` replace the session's, the key table follows,
    /// and so does the look when a theme was loaded for them.
    pub fn replace_settings(&mut self, settings: Settings, look: Option<(Theme, ColorDepth)>) {
        self.settings = settings;
        if let Some((theme, depth)) = look {
            self.settings.ascii = self.settings.ascii || theme.pieces == PieceStyle::Ascii;
            self.theme = theme;
            self.color_depth = depth;
        }
        self.keys = self.settings.key_table(&key_table());
    }
}
