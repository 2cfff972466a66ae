//! The settings this screen plays and searches with: the depth, the evaluation and the
//! ordering, the level, the engine's table and threads, the look (theme, ASCII pieces),
//! the key table, and the settings file `:set save` writes to.

use std::path::PathBuf;

use crate::config::Config;
use crate::engine::eval::EvalConfig;
use crate::engine::levels::Level;
use crate::engine::order::Scheme;
use crate::engine::search::Profile;
use crate::tui::keys::Binding;
use crate::tui::theme::{ColorDepth, Theme};

/// The session's settings (the file's and the flags', changed by `:set` and keys).
pub struct Prefs {
    pub depth: u32,
    pub eval: EvalConfig,
    pub scheme: Scheme,
    /// A Polyglot book backing the built-in one (`--book FILE`).
    pub book_file: Option<PathBuf>,
    /// How strongly the engine plays its moves (analysis and hints are always `max`).
    pub level: Level,
    pub hash_mb: usize,
    /// Search threads for the engine's searches (Lazy SMP).
    pub threads: u32,
    /// How many lines a search shows (MultiPV).
    pub multipv: u32,
    /// The search profile of the engine's searches (`Seed`: the textbook search only).
    pub profile: Profile,
    /// The settings file, for `:set` and `:set save` (`None`: none read; `:set` then
    /// changes the session only).
    pub config: Option<Config>,
    /// The key table (the settings file's `[keys]` over the defaults).
    pub keys: Vec<Binding>,
    pub theme: Theme,
    pub color_depth: ColorDepth,
    /// Where user themes are looked up (`None`: the built-in ones only).
    pub user_theme_dir: Option<PathBuf>,
    /// When set, `:save`/`:load` take a bare file name inside this directory and never a
    /// path the user names (the SSH server gives each player one).
    pub file_root: Option<PathBuf>,
    pub ascii: bool,
}
