//! The settings' names, flags and the values each takes: what the file, `:set`, `ox88 config`
//! and the help all list, so that they agree; and what can go wrong with a setting or the
//! file, worded as the user sees it (the message of an unknown key lists the names).

use std::fmt;
use std::path::PathBuf;

use strum::VariantArray;

use super::key_names::{action_name, action_named};
use super::player_name::NAME_MAX;
use crate::engine::eval::ValuePreset;
use crate::engine::order::Scheme;
use crate::tui::keys::Action;
use crate::tui::theme;

pub use crate::engine::HASH_MAX_MB;
/// The search depth one may set, in plies: what the engine searches to (`go depth` too).
pub const DEPTH_RANGE: std::ops::RangeInclusive<u32> = 1..=crate::engine::MAX_DEPTH;
/// The depth setting a new session starts with.
pub const DEFAULT_DEPTH: u32 = 10;
/// How many best lines a search may show (MultiPV).
pub const MULTIPV_RANGE: std::ops::RangeInclusive<u32> = 1..=8;

/// A setting, by the name the file, `:set`, `ox88 config` and the help all use; in the
/// order they list them.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase")]
pub enum Setting {
    Theme,
    /// The player's name in the PGN headers (`White`/`Black`).
    Name,
    Level,
    /// The engine offers a draw in a dead-level position late in a game.
    OfferDraws,
    /// The engine resigns a hopeless position.
    Resigns,
    Depth,
    /// How many best lines a search shows (MultiPV).
    MultiPv,
    Eval,
    Order,
    /// What the right-hand side shows (the log, the evaluation, the E chart, the lab).
    View,
    /// The piece values the material line under the board counts with.
    Values,
    Color,
    Ascii,
    Book,
    /// The opening book plays the engine's first moves in games.
    OwnBook,
    Tc,
    Hash,
    Threads,
    Explorer,
    /// The directory of Syzygy endgame tables the TUI's searches probe and whose verdict
    /// the eval pane and status line show.
    Syzygy,
}

impl Setting {
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The command-line flag that sets it.
    pub fn flag(self) -> &'static str {
        match self {
            Setting::Theme => "--theme",
            Setting::Name | Setting::OfferDraws | Setting::Resigns | Setting::OwnBook => {
                "(the settings file)"
            }
            Setting::Level => "--level",
            Setting::Depth => "--depth",
            Setting::MultiPv | Setting::View | Setting::Values => "(the settings file)",
            Setting::Eval => "--eval",
            Setting::Order => "--order",
            Setting::Color => "--color",
            Setting::Ascii => "--ascii",
            Setting::Book => "--book",
            Setting::Tc => "--tc",
            Setting::Hash => "--hash",
            Setting::Threads => "--threads",
            Setting::Syzygy => "--syzygy",
            Setting::Explorer => "(the settings file)",
        }
    }

    /// What the setting takes, as its error messages and the help say it.
    pub fn allowed(self) -> String {
        match self {
            Setting::Theme => format!(
                "a theme name ({}, or a file name in the themes folder)",
                theme::builtin_names()
            ),
            Setting::Name => format!(
                "your name in the games' PGN headers, 1 to {NAME_MAX} characters (default: the login name)"
            ),
            Setting::Level => {
                "beginner, casual, club, expert, master, max, or an Elo from 800 to 2800".into()
            }
            Setting::OfferDraws => {
                "true or false: the engine offers a draw in a dead-level position late in a game"
                    .into()
            }
            Setting::Resigns => "true or false: the engine resigns a hopeless position".into(),
            Setting::OwnBook => {
                "true or false: the opening book plays the engine's first moves in games".into()
            }
            Setting::Depth => format!(
                "a number of plies from {} to {}",
                DEPTH_RANGE.start(),
                DEPTH_RANGE.end()
            ),
            Setting::MultiPv => format!(
                "a number of lines from {} to {}",
                MULTIPV_RANGE.start(),
                MULTIPV_RANGE.end()
            ),
            Setting::View => "one of log, eval, chart, lab".into(),
            Setting::Values => {
                let all: Vec<&str> = ValuePreset::ALL.iter().map(|p| p.name()).collect();
                format!(
                    "the piece values the material line counts: {} (standard: P1 N3 B3 R5 Q9; seed: the seed page's B4.5 Q10)",
                    all.join(", ")
                )
            }
            Setting::Eval => "one of material, center, full, net".into(),
            Setting::Order => {
                let all: Vec<String> = Scheme::ALL.iter().map(|s| s.to_string()).collect();
                format!("one of {}", all.join(", "))
            }
            Setting::Color => "one of auto, truecolor, 256, 16, none".into(),
            Setting::Ascii => "true or false".into(),
            Setting::Book => "a Polyglot .bin file (empty: the built-in lines only)".into(),
            Setting::Tc => "minutes+increment like 5+3 or 40/90+30 (empty: no clock)".into(),
            Setting::Hash => format!("megabytes from 1 to {HASH_MAX_MB}"),
            Setting::Threads => format!(
                "a thread count from 1 to {}",
                crate::engine::search::MAX_THREADS
            ),
            Setting::Explorer => "true or false (on or off)".into(),
            Setting::Syzygy => {
                "a directory of Syzygy tables, *.rtbw and *.rtbz (empty: none)".into()
            }
        }
    }
}

/// A key of the settings: a setting, or one action's keys in the `[keys]` table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Setting(Setting),
    /// `keys.ACTION`: the keys bound to that action.
    Keys(Action),
}

impl std::str::FromStr for Key {
    type Err = ConfigError;
    fn from_str(text: &str) -> Result<Key, ConfigError> {
        let k = text.trim();
        if let Some(name) = k.strip_prefix("keys.") {
            return action_named(name).map(Key::Keys).ok_or_else(|| {
                let all: Vec<&str> = Action::VARIANTS.iter().map(|a| action_name(*a)).collect();
                bad(k, name, format!("an action: {}", all.join(", ")))
            });
        }
        k.parse::<Setting>()
            .map(Key::Setting)
            .map_err(|_| ConfigError::UnknownKey { key: k.into() })
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Setting(s) => f.write_str(s.name()),
            Key::Keys(a) => write!(f, "keys.{}", action_name(*a)),
        }
    }
}

// ---- what can go wrong with a setting or the settings file, worded as the user sees it ----

/// What went wrong with a setting or the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("unknown setting '{key}' (settings: {})", known_keys())]
    UnknownKey { key: String },
    #[error("bad value '{value}' for {key}: {allowed}")]
    BadValue {
        key: String,
        value: String,
        allowed: String,
    },
    /// A problem with one key of the file; that key keeps its default.
    #[error("{}:{line}: {error} (using the default for {key})", path.display())]
    InFile {
        path: PathBuf,
        line: usize,
        key: String,
        error: Box<ConfigError>,
    },
    /// A line TOML cannot read: it is skipped and the rest of the file still counts; the
    /// key it tried to set (when it names one) keeps its default.
    #[error("{}:{line}: not valid TOML: {message} ({})", path.display(), skipped(key.as_deref()))]
    Syntax {
        path: PathBuf,
        line: usize,
        /// The key the line names, when it gets as far as one (`keys.quit` in `[keys]`).
        key: Option<String>,
        message: String,
    },
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error("not saving over {}: it has a TOML syntax error; fix it by hand first", path.display())]
    WouldLoseFile { path: PathBuf },
    #[error("no configuration directory on this system; nowhere to save")]
    NoPath,
}

/// What a line with a syntax error cost.
fn skipped(key: Option<&str>) -> String {
    match key {
        Some(k) => format!("line skipped; using the default for {k}"),
        None => "line skipped".to_string(),
    }
}

fn known_keys() -> String {
    let mut k: Vec<&str> = Setting::VARIANTS.iter().map(|s| s.name()).collect();
    k.push("keys.ACTION");
    k.join(", ")
}

pub(super) fn bad(key: &str, value: &str, allowed: impl Into<String>) -> ConfigError {
    ConfigError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        allowed: allowed.into(),
    }
}
