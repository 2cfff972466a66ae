//! The one settings model: [`Settings`] and its typed keys ([`Setting`], [`Key`]), read
//! from `~/.config/ox88/config.toml` (the XDG config directory via `dirs`), laid over by
//! the command line's flags, changed by `:set`, listed by `ox88 config` and the help — all
//! through the same names, checks and ranges.
//!
//! The file is read at start and command-line flags override it ([`Overrides`]). A bad value
//! is reported with the file, line and key, and that key keeps its default; the program still
//! starts. [`Config::set`] checks a value as `:set KEY VALUE` would, and [`Config::save`]
//! writes the file atomically (a temporary file renamed over it) through `toml_edit`, so the
//! comments, order and unknown keys of a hand-written file survive.

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyModifiers};
use strum::VariantArray;
use toml_edit::{DocumentMut, Item, Table, value};

use super::keys::{self, Action, Binding, When};
use super::theme::{self, ColorMode};
use crate::engine::eval::EvalMode;
use crate::engine::levels::Level;
use crate::engine::order::Scheme;
use crate::game::clock::TimeControl;

pub use crate::engine::HASH_MAX_MB;
/// The search depth one may set, in plies: what the engine searches to (`go depth` too).
pub const DEPTH_RANGE: std::ops::RangeInclusive<u32> = 1..=crate::engine::MAX_DEPTH;
/// The depth setting a new session starts with.
pub const DEFAULT_DEPTH: u32 = 10;

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
    Eval,
    Order,
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

fn bad(key: &str, value: &str, allowed: impl Into<String>) -> ConfigError {
    ConfigError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        allowed: allowed.into(),
    }
}

/// A key a person may name in the `[keys]` table: `Ctrl+G`, `F6`, `Esc`, `Alt+Left`, `q`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyName {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

const KEY_HELP: &str = "a key such as Ctrl+G, F6, Esc, Enter, Tab, Shift+Tab, Alt+Left, PgUp, Home, Space or a single character";

impl std::str::FromStr for KeyName {
    type Err = String;
    fn from_str(s: &str) -> Result<KeyName, String> {
        let text = s.trim();
        let mut mods = KeyModifiers::NONE;
        let mut rest = text;
        // Modifiers are `Ctrl+`, `Alt+`, `Shift+` (or with `-`); a lone `+` or `-` is a key.
        loop {
            let lower = rest.to_ascii_lowercase();
            let m = ["ctrl", "control", "alt", "shift"].iter().find_map(|p| {
                lower
                    .strip_prefix(p)
                    .filter(|r| r.len() > 1 && (r.starts_with('+') || r.starts_with('-')))
                    .map(|_| *p)
            });
            let Some(m) = m else { break };
            mods |= match m {
                "alt" => KeyModifiers::ALT,
                "shift" => KeyModifiers::SHIFT,
                _ => KeyModifiers::CONTROL,
            };
            rest = &rest[m.len() + 1..];
        }
        let lower = rest.to_ascii_lowercase();
        let code = match lower.as_str() {
            "esc" | "escape" => KeyCode::Esc,
            "enter" | "return" => KeyCode::Enter,
            "tab" if mods.contains(KeyModifiers::SHIFT) => KeyCode::BackTab,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "up" | "↑" => KeyCode::Up,
            "down" | "↓" => KeyCode::Down,
            "left" | "←" => KeyCode::Left,
            "right" | "→" => KeyCode::Right,
            "pgup" | "pageup" => KeyCode::PageUp,
            "pgdn" | "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "backspace" => KeyCode::Backspace,
            "delete" | "del" => KeyCode::Delete,
            "insert" | "ins" => KeyCode::Insert,
            f if f.len() > 1
                && f.starts_with('f')
                && f[1..].bytes().all(|b| b.is_ascii_digit()) =>
            {
                match f[1..].parse::<u8>() {
                    Ok(n @ 1..=12) => KeyCode::F(n),
                    _ => return Err(format!("'{text}': function keys go from F1 to F12")),
                }
            }
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if !c.is_control() => {
                        // Terminals report Ctrl and Alt letters in lower case.
                        if mods.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
                            KeyCode::Char(c.to_ascii_lowercase())
                        } else {
                            KeyCode::Char(c)
                        }
                    }
                    _ => return Err(format!("'{text}' is not a key: use {KEY_HELP}")),
                }
            }
        };
        if code == KeyCode::BackTab {
            mods -= KeyModifiers::SHIFT;
        } else if mods.contains(KeyModifiers::SHIFT) {
            return Err(format!(
                "'{text}': Shift goes only with Tab; write the shifted character itself"
            ));
        }
        Ok(KeyName { code, mods })
    }
}

impl fmt::Display for KeyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&keys::key_name(self.code, self.mods))
    }
}

/// The action named in a `[keys]` entry (any case, `_` for `-`).
pub fn action_named(name: &str) -> Option<Action> {
    name.trim()
        .to_ascii_lowercase()
        .replace('_', "-")
        .parse()
        .ok()
}

/// The name of an action in the `[keys]` table.
pub fn action_name(action: Action) -> &'static str {
    action.into()
}

/// The longest player name the `name` setting takes, in characters.
pub const NAME_MAX: usize = 40;

/// The login name from the environment (`USER`, then `LOGNAME`), else "Player": the
/// `name` setting's default. `var` reads a variable (the process's environment in use).
pub fn login_name(var: impl Fn(&str) -> Option<String>) -> String {
    ["USER", "LOGNAME"]
        .iter()
        .filter_map(|k| var(k))
        .map(|v| clean_name(&v))
        .find(|v| !v.is_empty())
        .unwrap_or_else(|| "Player".to_string())
}

/// A name as PGN headers may carry it: no control characters, at most `NAME_MAX`
/// characters, trimmed.
pub fn clean_name(text: &str) -> String {
    let kept: String = text.chars().filter(|c| !c.is_control()).collect();
    kept.trim()
        .chars()
        .take(NAME_MAX)
        .collect::<String>()
        .trim()
        .to_string()
}

/// The effective settings: defaults, patched by the file, patched by flags.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub theme: String,
    /// The player's name in the PGN headers.
    pub name: String,
    pub level: Level,
    /// The engine offers draws (dead level after move 40) and accepts none it should not.
    pub offer_draws: bool,
    /// The engine resigns when its searches say it is lost, several moves in a row.
    pub resigns: bool,
    pub depth: u32,
    pub eval: EvalMode,
    pub order: Scheme,
    pub color: ColorMode,
    pub ascii: bool,
    pub book: Option<PathBuf>,
    /// The opening book answers the engine's moves in games (varied by weight).
    pub own_book: bool,
    /// Time control text as `--tc` takes it (checked when set).
    pub tc: Option<String>,
    pub hash_mb: usize,
    /// Record each search's tree for the TUI's tree browser (`explorer = false` saves the
    /// time and memory).
    pub explorer: bool,
    /// Search threads (Lazy SMP), 1 to `engine::search::MAX_THREADS`.
    pub threads: u32,
    /// The Syzygy tables' directory (`None`: no tables). Whether it holds tables is
    /// checked where they are opened, not here.
    pub syzygy: Option<PathBuf>,
    /// Key overrides: each action listed gets exactly these keys.
    pub keys: Vec<(Action, Vec<KeyName>)>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            theme: "default".into(),
            name: login_name(|k| std::env::var(k).ok()),
            level: Level::Max,
            offer_draws: true,
            resigns: true,
            depth: DEFAULT_DEPTH,
            eval: EvalMode::default(),
            order: Scheme::default(),
            color: ColorMode::Auto,
            ascii: false,
            book: None,
            own_book: true,
            tc: None,
            hash_mb: 64,
            explorer: true,
            threads: 1,
            syzygy: None,
            keys: Vec::new(),
        }
    }
}

impl Settings {
    /// These settings with the command line's `flags` laid over them, each checked as the
    /// file and `:set` check it.
    pub fn with_flags(&self, flags: &[(Setting, String)]) -> Result<Settings, ConfigError> {
        let mut s = self.clone();
        for (setting, text) in flags {
            s.set_value(Key::Setting(*setting), text)?;
        }
        Ok(s)
    }

    /// `table` with the key overrides applied: an overridden action loses its default keys
    /// and gets the listed ones (before the rest, so they win); another action's binding of
    /// the same key is dropped. A key keeps the condition it has in `table` (Left steps the
    /// PV only in the sort pane); a key that types or edits text acts only on an empty input
    /// line, and Left/Right/Home/End only in a pane, so the input line keeps them.
    pub fn key_table(&self, table: &[Binding]) -> Vec<Binding> {
        let mut out: Vec<Binding> = Vec::new();
        for (action, names) in &self.keys {
            for k in names {
                let when = key_condition(table, k);
                out.push(Binding {
                    code: k.code,
                    mods: k.mods,
                    when,
                    action: *action,
                });
                // Terminals disagree on whether Shift comes with a shifted character.
                if let KeyCode::Char(c) = k.code
                    && k.mods.is_empty()
                    && !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == ' ')
                {
                    out.push(Binding {
                        code: k.code,
                        mods: KeyModifiers::SHIFT,
                        when,
                        action: *action,
                    });
                }
            }
        }
        let overridden = |b: &Binding| {
            self.keys.iter().any(|(a, names)| {
                *a == b.action || names.iter().any(|k| k.code == b.code && k.mods == b.mods)
            })
        };
        out.extend(table.iter().filter(|b| !overridden(b)).copied());
        out
    }

    /// One setting as text (`keys.quit` gives that action's keys, comma-separated).
    pub fn get(&self, key: &str) -> Result<String, ConfigError> {
        Ok(self.value(key.parse()?))
    }

    /// One setting as text.
    pub fn value(&self, key: Key) -> String {
        let setting = match key {
            Key::Setting(s) => s,
            Key::Keys(action) => {
                return match self.keys.iter().find(|(a, _)| *a == action) {
                    Some((_, names)) => names
                        .iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    // Not overridden: the default keys.
                    None => keys::DEFAULT_KEYS
                        .iter()
                        .filter(|b| b.action == action)
                        .map(|b| keys::key_name(b.code, b.mods))
                        .collect::<Vec<_>>()
                        .join(", "),
                };
            }
        };
        match setting {
            Setting::Theme => self.theme.clone(),
            Setting::Name => self.name.clone(),
            Setting::Level => self.level.to_string(),
            Setting::OfferDraws => self.offer_draws.to_string(),
            Setting::Resigns => self.resigns.to_string(),
            Setting::OwnBook => self.own_book.to_string(),
            Setting::Depth => self.depth.to_string(),
            Setting::Eval => self.eval.to_string(),
            Setting::Order => self.order.to_string(),
            Setting::Color => color_name(self.color).to_string(),
            Setting::Ascii => self.ascii.to_string(),
            Setting::Book => self
                .book
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            Setting::Tc => self.tc.clone().unwrap_or_default(),
            Setting::Hash => self.hash_mb.to_string(),
            Setting::Explorer => self.explorer.to_string(),
            Setting::Threads => self.threads.to_string(),
            Setting::Syzygy => self
                .syzygy
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        }
    }

    /// Checks `text` for `key` and stores it; on error nothing changes. Returns the value as
    /// it goes into the file.
    pub fn set_value(&mut self, key: Key, text: &str) -> Result<Item, ConfigError> {
        let t = text.trim();
        let name = key.to_string();
        let k = name.as_str();
        let setting = match key {
            Key::Setting(s) => s,
            Key::Keys(action) => {
                let names = parse_key_list(t).map_err(|e| bad(k, t, e))?;
                let shown: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                match self.keys.iter_mut().find(|(a, _)| *a == action) {
                    Some(entry) => entry.1 = names,
                    None => self.keys.push((action, names)),
                }
                return Ok(if shown.len() == 1 {
                    value(shown[0].clone())
                } else {
                    let mut arr = toml_edit::Array::new();
                    for s in shown {
                        arr.push(s);
                    }
                    value(arr)
                });
            }
        };
        let refuse = || bad(k, t, setting.allowed());
        let on_off = |t: &str| match t.to_ascii_lowercase().as_str() {
            "true" | "yes" | "on" => Some(true),
            "false" | "no" | "off" => Some(false),
            _ => None,
        };
        let item = match setting {
            Setting::Theme => {
                if t.is_empty() || t.contains(['/', '\\']) {
                    return Err(refuse());
                }
                self.theme = t.to_string();
                value(t)
            }
            Setting::Name => {
                let name = clean_name(t);
                if name.is_empty()
                    || t.chars().count() > NAME_MAX
                    || t.chars().any(char::is_control)
                {
                    return Err(refuse());
                }
                self.name = name.clone();
                value(name)
            }
            Setting::OfferDraws => {
                self.offer_draws = on_off(t).ok_or_else(refuse)?;
                value(self.offer_draws)
            }
            Setting::Resigns => {
                self.resigns = on_off(t).ok_or_else(refuse)?;
                value(self.resigns)
            }
            Setting::OwnBook => {
                self.own_book = on_off(t).ok_or_else(refuse)?;
                value(self.own_book)
            }
            Setting::Level => {
                let level: Level = t
                    .parse()
                    .map_err(|e: crate::engine::levels::LevelError| bad(k, t, e.to_string()))?;
                self.level = level;
                match level {
                    Level::Elo(e) if level.name() == e.to_string() => value(e as i64),
                    _ => value(level.name()),
                }
            }
            Setting::Depth => {
                let d = t
                    .parse::<u32>()
                    .ok()
                    .filter(|d| DEPTH_RANGE.contains(d))
                    .ok_or_else(refuse)?;
                self.depth = d;
                value(d as i64)
            }
            Setting::Eval => {
                self.eval = t.parse().map_err(|_| refuse())?;
                value(self.eval.to_string())
            }
            Setting::Order => {
                self.order = t.parse().map_err(|_| refuse())?;
                value(self.order.to_string())
            }
            Setting::Color => {
                self.color = t.parse().map_err(|_| refuse())?;
                value(color_name(self.color))
            }
            Setting::Ascii => {
                self.ascii = on_off(t).ok_or_else(refuse)?;
                value(self.ascii)
            }
            Setting::Book => {
                self.book = (!t.is_empty()).then(|| PathBuf::from(t));
                value(t)
            }
            Setting::Tc => {
                if !t.is_empty() {
                    t.parse::<TimeControl>().map_err(|e| {
                        bad(
                            k,
                            t,
                            format!("{e}; write minutes+increment like 5+3 or 40/90+30"),
                        )
                    })?;
                }
                self.tc = (!t.is_empty()).then(|| t.to_string());
                value(t)
            }
            Setting::Hash => {
                let mb = t
                    .parse::<usize>()
                    .ok()
                    .filter(|m| (1..=HASH_MAX_MB).contains(m))
                    .ok_or_else(refuse)?;
                self.hash_mb = mb;
                value(mb as i64)
            }
            Setting::Explorer => {
                self.explorer = on_off(t).ok_or_else(refuse)?;
                value(self.explorer)
            }
            Setting::Threads => {
                let max = crate::engine::search::MAX_THREADS;
                let n = t
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(refuse)?;
                self.threads = n;
                value(i64::from(n))
            }
            Setting::Syzygy => {
                self.syzygy = (!t.is_empty()).then(|| PathBuf::from(t));
                value(t)
            }
        };
        Ok(item)
    }
}

/// When a bound key acts: as in the table if the table has it, else by what the key does on
/// the input line.
fn key_condition(table: &[Binding], k: &KeyName) -> When {
    // The tree browser's own uses of Enter, Backspace or `r` say nothing about the key.
    if let Some(b) = table
        .iter()
        .find(|b| b.code == k.code && b.mods == k.mods && b.when != When::TreeFocused)
    {
        return b.when;
    }
    if k.mods.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) {
        return When::Always;
    }
    match k.code {
        KeyCode::Char(_) | KeyCode::Backspace | KeyCode::Delete | KeyCode::Insert => {
            When::InputEmpty
        }
        KeyCode::Left | KeyCode::Right | KeyCode::Home | KeyCode::End => When::PaneFocused,
        _ => When::Always,
    }
}

fn parse_key_list(text: &str) -> Result<Vec<KeyName>, String> {
    // `Ctrl+Q, F10` or one key; a lone "," is a key, not a separator.
    let parts: Vec<&str> = if text.trim() == "," {
        vec![","]
    } else {
        text.split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect()
    };
    if parts.is_empty() {
        return Err(format!("at least one key: {KEY_HELP}"));
    }
    parts.iter().map(|p| p.parse()).collect()
}

fn color_name(c: ColorMode) -> &'static str {
    match c {
        ColorMode::Auto => "auto",
        ColorMode::TrueColor => "truecolor",
        ColorMode::Ansi256 => "256",
        ColorMode::Ansi16 => "16",
        ColorMode::None => "none",
    }
}

/// An item's text as `set` takes it (strings without quotes, arrays comma-separated).
fn item_text(item: &Item) -> Option<String> {
    let v = item.as_value()?;
    Some(match v {
        toml_edit::Value::String(s) => s.value().clone(),
        toml_edit::Value::Integer(i) => i.value().to_string(),
        toml_edit::Value::Boolean(b) => b.value().to_string(),
        toml_edit::Value::Float(f) => f.value().to_string(),
        toml_edit::Value::Array(a) => {
            let mut parts = Vec::new();
            for x in a.iter() {
                parts.push(x.as_str()?.to_string());
            }
            parts.join(",")
        }
        _ => return None,
    })
}

/// The settings file and the settings it gave.
#[derive(Clone, Debug)]
pub struct Config {
    path: Option<PathBuf>,
    /// The file as written, for saving with its comments (`None`: it did not parse).
    doc: Option<DocumentMut>,
    settings: Settings,
    problems: Vec<ConfigError>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            path: None,
            doc: Some(DocumentMut::new()),
            settings: Settings::default(),
            problems: Vec::new(),
        }
    }
}

impl Config {
    /// `$XDG_CONFIG_HOME/ox88/config.toml` (or the platform's config directory).
    pub fn default_path() -> Option<PathBuf> {
        dirs::config_dir().map(|d| d.join("ox88").join("config.toml"))
    }

    /// Reads `path`. A missing file gives the defaults and no problem; a bad file gives the
    /// defaults for what is wrong and the problems to show; it never fails.
    pub fn load(path: &Path) -> Config {
        let mut config = Config {
            path: Some(path.to_path_buf()),
            ..Config::default()
        };
        match fs::read_to_string(path) {
            Ok(text) => config.read_text(&text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                config.doc = None;
                config.problems.push(ConfigError::Io {
                    path: path.to_path_buf(),
                    message: format!("cannot read: {e} (using the defaults)"),
                });
            }
        }
        config
    }

    /// The defaults, saved to `path` on `save`.
    pub fn new_at(path: &Path) -> Config {
        Config {
            path: Some(path.to_path_buf()),
            ..Config::default()
        }
    }

    fn read_text(&mut self, text: &str) {
        let path = self.path.clone().unwrap_or_default();
        let line_of = |span: Option<std::ops::Range<usize>>| {
            span.map_or(0, |s| {
                text[..s.start.min(text.len())].matches('\n').count() + 1
            })
        };
        // A syntax error costs only its own lines: those are blanked (so every other line
        // keeps its number) and the rest is read as usual.
        let readable;
        let (parsed, bad_lines) = match toml_edit::Document::parse(text) {
            Ok(d) => (d, Vec::new()),
            Err(_) => {
                let bad;
                (readable, bad) = skip_bad_lines(text);
                // `skip_bad_lines` leaves only readable text (at worst none).
                let doc = toml_edit::Document::parse(readable.as_str())
                    .or_else(|_| toml_edit::Document::parse(""))
                    .expect("an empty file is TOML");
                (doc, bad)
            }
        };
        let mut problems: Vec<ConfigError> = bad_lines
            .iter()
            .map(|b| ConfigError::Syntax {
                path: path.clone(),
                line: b.line,
                key: b.key.clone(),
                message: b.message.clone(),
            })
            .collect();
        let mut settings = Settings::default();
        let root = parsed.as_table();
        let mut in_file = |key: String, span, error: ConfigError| {
            problems.push(ConfigError::InFile {
                path: path.clone(),
                line: line_of(span),
                key,
                error: Box::new(error),
            })
        };
        for (name, item) in root.iter() {
            let span = root.get_key_value(name).and_then(|(k, _)| k.span());
            if name == "keys" {
                let Some(table) = item.as_table_like() else {
                    in_file(
                        name.into(),
                        span,
                        bad(
                            "keys",
                            "",
                            "a table: [keys] with lines like quit = \"Ctrl+Q\"",
                        ),
                    );
                    continue;
                };
                for (action, entry) in table.iter() {
                    let span = table.get_key_value(action).and_then(|(k, _)| k.span());
                    let key = format!("keys.{action}");
                    let result = match item_text(entry) {
                        Some(t) => key
                            .parse::<Key>()
                            .and_then(|k| settings.set_value(k, &t))
                            .map(|_| ()),
                        None => Err(bad(&key, "", "a key name or a list of key names")),
                    };
                    if let Err(e) = result {
                        in_file(key, span, e);
                    }
                }
                continue;
            }
            let Ok(setting) = name.parse::<Setting>() else {
                // Kept in the file (a newer version's setting, perhaps), but said, as it is
                // more often a typo.
                in_file(
                    name.into(),
                    span,
                    ConfigError::UnknownKey { key: name.into() },
                );
                continue;
            };
            let result = match item_text(item) {
                Some(t) => settings.set_value(Key::Setting(setting), &t).map(|_| ()),
                None => Err(bad(name, "", "a single value")),
            };
            if let Err(e) = result {
                in_file(name.into(), span, e);
            }
        }
        problems.sort_by_key(|p| match p {
            ConfigError::InFile { line, .. } | ConfigError::Syntax { line, .. } => *line,
            _ => 0,
        });
        self.settings = settings;
        self.problems = problems;
        // A file with a syntax error is never written over: saving would drop its bad lines.
        self.doc = bad_lines.is_empty().then(|| parsed.into_mut());
    }

    /// Reads the text of a settings file (tests, and a file given some other way).
    pub fn from_text(path: &Path, text: &str) -> Config {
        let mut config = Config::new_at(path);
        config.read_text(text);
        config
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// What was wrong with the file when it was read (each names the file, line and key).
    pub fn problems(&self) -> &[ConfigError] {
        &self.problems
    }

    /// One setting as text.
    pub fn get(&self, key: &str) -> Result<String, ConfigError> {
        self.settings.get(key)
    }

    /// Checks and stores one setting, for `:set KEY VALUE`; the file changes on `save`.
    /// On error the settings are as they were.
    pub fn set(&mut self, key: &str, text: &str) -> Result<(), ConfigError> {
        let key: Key = key.parse()?;
        let mut next = self.settings.clone();
        let item = next.set_value(key, text)?;
        self.settings = next;
        if let Some(doc) = &mut self.doc {
            match key {
                Key::Keys(action) => {
                    if !doc.contains_table("keys") {
                        doc.insert("keys", Item::Table(Table::new()));
                    }
                    if let Some(t) = doc["keys"].as_table_like_mut() {
                        set_keeping_decor(t, action_name(action), item);
                    }
                }
                Key::Setting(s) => set_keeping_decor(doc.as_table_mut(), s.name(), item),
            }
        }
        Ok(())
    }

    /// The file's text as `save` would write it.
    pub fn to_text(&self) -> Option<String> {
        self.doc.as_ref().map(|d| d.to_string())
    }

    /// Writes the file: a temporary file beside it, then a rename, so a crash leaves either
    /// the old file or the new one. Refuses to overwrite a file that did not parse.
    pub fn save(&self) -> Result<(), ConfigError> {
        let path = self.path.as_ref().ok_or(ConfigError::NoPath)?;
        let doc = self
            .doc
            .as_ref()
            .ok_or_else(|| ConfigError::WouldLoseFile { path: path.clone() })?;
        let io = |e: std::io::Error| ConfigError::Io {
            path: path.clone(),
            message: format!("cannot save: {e}"),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = path.with_file_name(tmp_name);
        let written = fs::File::create(&tmp).and_then(|mut f| {
            f.write_all(doc.to_string().as_bytes())?;
            f.sync_all()
        });
        if let Err(e) = written.and_then(|_| fs::rename(&tmp, path)) {
            let _ = fs::remove_file(&tmp);
            return Err(io(e));
        }
        Ok(())
    }
}

/// A line of the settings file that TOML cannot read.
#[derive(Debug)]
struct BadLine {
    line: usize,
    key: Option<String>,
    message: String,
}

/// `text` with the lines TOML cannot read blanked (the others keep their numbers), and what
/// was wrong with each. Each line is read on its own under its table header; what still
/// breaks the whole (a key given twice) is then blanked line by line, as the parser names it.
fn skip_bad_lines(text: &str) -> (String, Vec<BadLine>) {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let mut bad = Vec::new();
    // The table header the lines below belong to; `Err(line)` under a header that was bad.
    let mut header: Result<String, usize> = Ok(String::new());
    let one_line = |m: &str| m.split_whitespace().collect::<Vec<_>>().join(" ");
    for (i, line) in lines.iter_mut().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let is_header = t.starts_with('[');
        let section = match &header {
            Ok(h) => h.clone(),
            Err(_) if is_header => String::new(),
            Err(at) => {
                bad.push(BadLine {
                    line: i + 1,
                    key: None,
                    message: format!("under the table header of line {at}, which is not valid"),
                });
                line.clear();
                continue;
            }
        };
        let alone = if is_header {
            t.to_string()
        } else {
            format!("{section}\n{t}")
        };
        match toml_edit::Document::parse(alone) {
            Ok(_) if is_header => header = Ok(t.to_string()),
            Ok(_) => {}
            Err(e) => {
                if is_header {
                    header = Err(i + 1);
                }
                let key = (!is_header).then(|| key_named(t, &section)).flatten();
                bad.push(BadLine {
                    line: i + 1,
                    key,
                    message: one_line(e.message()),
                });
                line.clear();
            }
        }
    }
    loop {
        let joined = lines.join("\n");
        let Err(e) = toml_edit::Document::parse(joined.as_str()) else {
            bad.sort_by_key(|b| b.line);
            return (joined, bad);
        };
        let at = e.span().map_or(0, |s| {
            joined[..s.start.min(joined.len())].matches('\n').count()
        });
        match lines.get_mut(at).filter(|l| !l.trim().is_empty()) {
            Some(line) => {
                line.clear();
                bad.push(BadLine {
                    line: at + 1,
                    key: None,
                    message: one_line(e.message()),
                });
            }
            // Nothing left to blank there: the file as a whole cannot be read.
            None => {
                bad.push(BadLine {
                    line: at + 1,
                    key: None,
                    message: format!("{} (no setting read)", one_line(e.message())),
                });
                bad.sort_by_key(|b| b.line);
                return (String::new(), bad);
            }
        }
    }
}

/// The key a broken `key = value` line names, when its key part is a plain name
/// (`keys.quit` under `[keys]`).
fn key_named(line: &str, section: &str) -> Option<String> {
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    let table = section
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim();
    plain.then(|| {
        if table.is_empty() {
            key.to_string()
        } else {
            format!("{table}.{key}")
        }
    })
}

/// Replaces a value and keeps the comment and spacing around it.
fn set_keeping_decor(table: &mut dyn toml_edit::TableLike, key: &str, mut item: Item) {
    if let (Some(old), Some(new)) = (
        table.get(key).and_then(|i| i.as_value()),
        item.as_value_mut(),
    ) {
        *new.decor_mut() = old.decor().clone();
    }
    // Replacing the item in place keeps the key, and with it the comment lines above it
    // (they belong to the key's decor, which `insert` would drop).
    match table.get_mut(key) {
        Some(slot) => *slot = item,
        None => {
            table.insert(key, item);
        }
    }
}
