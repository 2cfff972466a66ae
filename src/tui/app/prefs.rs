//! The settings this screen plays and searches with: the depth, the evaluation and the
//! ordering, the level, the engine's table and threads, the look (theme, ASCII pieces),
//! the key table, and the settings file `:set save` writes to.

use std::path::PathBuf;

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
