//! Settings that stay: `~/.config/ox88/config.toml` (the XDG config directory via `dirs`).
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
use toml_edit::{DocumentMut, Item, Table, value};

use crate::engine::eval::EvalMode;
use crate::engine::levels::Level;
use crate::engine::order::Scheme;
use crate::game::clock::TimeControl;
use crate::tui::ColorMode;
use crate::tui::keys::{Action, Binding, When};

/// The largest transposition table one may ask for, in MB (as the UCI `Hash` option).
pub const HASH_MAX_MB: usize = 65_536;
/// The search depth range of the TUI's depth setting.
pub const DEPTH_RANGE: std::ops::RangeInclusive<u32> = 1..=64;

/// The settings keys, in the order `ox88 config` lists them.
pub const KEYS: [&str; 13] = [
    "theme", "level", "depth", "eval", "order", "color", "ascii", "book", "tc", "hash", "threads",
    "explorer", "keys",
];

/// Action names for the `[keys]` table, one per action of the TUI's key table.
pub const ACTIONS: [(&str, Action); 31] = [
    ("quit", Action::Quit),
    ("help", Action::Help),
    ("depth-up", Action::DepthUp),
    ("depth-down", Action::DepthDown),
    ("engine-move", Action::EngineMove),
    ("stop", Action::Stop),
    ("new-game", Action::NewGame),
    ("undo", Action::Undo),
    ("redo", Action::Redo),
    ("flip", Action::Flip),
    ("tab", Action::Tab),
    ("focus-prev", Action::FocusPrev),
    ("up", Action::Up),
    ("down", Action::Down),
    ("page-up", Action::PageUp),
    ("page-down", Action::PageDown),
    ("top", Action::Top),
    ("bottom", Action::Bottom),
    ("pv-back", Action::PvBack),
    ("pv-forward", Action::PvForward),
    ("submit", Action::Submit),
    ("cancel", Action::Cancel),
    ("hint", Action::Hint),
    ("multipv", Action::CycleMultiPv),
    ("review", Action::Review),
    ("view", Action::View),
    ("eval-pv-end", Action::EvalPvEnd),
    ("tree", Action::Tree),
    ("tree-into", Action::TreeInto),
    ("tree-back", Action::TreeBack),
    ("tree-reload", Action::TreeReload),
];

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
    /// The file is not TOML at all: every setting keeps its default.
    #[error("{}:{line}: not valid TOML: {message} (using the defaults)", path.display())]
    Syntax {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{}: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error("not saving over {}: it has a TOML syntax error; fix it by hand first", path.display())]
    WouldLoseFile { path: PathBuf },
    #[error("no configuration directory on this system; nowhere to save")]
    NoPath,
}

fn known_keys() -> String {
    let mut k: Vec<String> = KEYS[..KEYS.len() - 1]
        .iter()
        .map(|s| s.to_string())
        .collect();
    k.push("keys.ACTION".into());
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
        f.write_str(&crate::tui::keys::key_name(self.code, self.mods))
    }
}

/// The action named in a `[keys]` entry.
pub fn action_named(name: &str) -> Option<Action> {
    let n = name.trim().to_ascii_lowercase().replace('_', "-");
    ACTIONS.iter().find(|(a, _)| *a == n).map(|(_, a)| *a)
}

/// The name of an action in the `[keys]` table.
pub fn action_name(action: Action) -> &'static str {
    ACTIONS
        .iter()
        .find(|(_, a)| *a == action)
        .map(|(n, _)| *n)
        .unwrap_or("?")
}

/// The effective settings: defaults, patched by the file, patched by flags.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub theme: String,
    pub level: Level,
    pub depth: u32,
    pub eval: EvalMode,
    pub order: Scheme,
    pub color: ColorMode,
    pub ascii: bool,
    pub book: Option<PathBuf>,
    /// Time control text as `--tc` takes it (checked when set).
    pub tc: Option<String>,
    pub hash_mb: usize,
    /// Record each search's tree for the TUI's tree browser (`explorer = false` saves the
    /// time and memory).
    pub explorer: bool,
    /// Search threads (Lazy SMP), 1 to `engine::search::MAX_THREADS`.
    pub threads: u32,
    /// Key overrides: each action listed gets exactly these keys.
    pub keys: Vec<(Action, Vec<KeyName>)>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            theme: "default".into(),
            level: Level::Max,
            depth: crate::tui::DEFAULT_DEPTH,
            eval: EvalMode::default(),
            order: Scheme::default(),
            color: ColorMode::Auto,
            ascii: false,
            book: None,
            tc: None,
            hash_mb: 64,
            explorer: true,
            threads: 1,
            keys: Vec::new(),
        }
    }
}

/// Command-line values; `None` means "not given", so the file's value stands.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    pub theme: Option<String>,
    pub level: Option<Level>,
    pub depth: Option<u32>,
    pub eval: Option<EvalMode>,
    pub order: Option<Scheme>,
    pub color: Option<ColorMode>,
    pub ascii: Option<bool>,
    pub book: Option<PathBuf>,
    pub tc: Option<String>,
    pub hash_mb: Option<usize>,
    pub threads: Option<u32>,
}

impl Settings {
    /// These settings with every flag that was given put over them.
    pub fn with_overrides(&self, o: &Overrides) -> Settings {
        let mut s = self.clone();
        if let Some(v) = &o.theme {
            s.theme = v.clone();
        }
        if let Some(v) = o.level {
            s.level = v;
        }
        if let Some(v) = o.depth {
            s.depth = v;
        }
        if let Some(v) = o.eval {
            s.eval = v;
        }
        if let Some(v) = o.order {
            s.order = v;
        }
        if let Some(v) = o.color {
            s.color = v;
        }
        if let Some(v) = o.ascii {
            s.ascii = v;
        }
        if let Some(v) = &o.book {
            s.book = Some(v.clone());
        }
        if let Some(v) = &o.tc {
            s.tc = Some(v.clone());
        }
        if let Some(v) = o.hash_mb {
            s.hash_mb = v;
        }
        if let Some(v) = o.threads {
            s.threads = v;
        }
        s
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
        let k = key.trim();
        Ok(match k {
            "theme" => self.theme.clone(),
            "level" => self.level.to_string(),
            "depth" => self.depth.to_string(),
            "eval" => self.eval.to_string(),
            "order" => self.order.to_string(),
            "color" => color_name(self.color).to_string(),
            "ascii" => self.ascii.to_string(),
            "book" => self
                .book
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            "tc" => self.tc.clone().unwrap_or_default(),
            "hash" => self.hash_mb.to_string(),
            "explorer" => self.explorer.to_string(),
            "threads" => self.threads.to_string(),
            _ => {
                let action = k
                    .strip_prefix("keys.")
                    .and_then(action_named)
                    .ok_or_else(|| ConfigError::UnknownKey { key: k.into() })?;
                match self.keys.iter().find(|(a, _)| *a == action) {
                    Some((_, names)) => names
                        .iter()
                        .map(|n| n.to_string())
                        .collect::<Vec<_>>()
                        .join(", "),
                    // Not overridden: the default keys.
                    None => crate::tui::keys::DEFAULT_KEYS
                        .iter()
                        .filter(|b| b.action == action)
                        .map(|b| crate::tui::keys::key_name(b.code, b.mods))
                        .collect::<Vec<_>>()
                        .join(", "),
                }
            }
        })
    }

    /// Checks `text` for `key` and stores it; on error nothing changes. Returns the value as
    /// it goes into the file.
    fn set_value(&mut self, key: &str, text: &str) -> Result<Item, ConfigError> {
        let t = text.trim();
        let k = key.trim();
        let item = match k {
            "theme" => {
                if t.is_empty() || t.contains(['/', '\\']) {
                    return Err(bad(
                        k,
                        t,
                        format!(
                            "a theme name ({}, or a file name in the themes folder)",
                            crate::tui::theme::builtin_names()
                        ),
                    ));
                }
                self.theme = t.to_string();
                value(t)
            }
            "level" => {
                let level: Level = t
                    .parse()
                    .map_err(|e: crate::engine::levels::LevelError| bad(k, t, e.to_string()))?;
                self.level = level;
                match level {
                    Level::Elo(e) if level.name() == e.to_string() => value(e as i64),
                    _ => value(level.name()),
                }
            }
            "depth" => {
                let d = t
                    .parse::<u32>()
                    .ok()
                    .filter(|d| DEPTH_RANGE.contains(d))
                    .ok_or_else(|| bad(k, t, "a number of plies from 1 to 64"))?;
                self.depth = d;
                value(d as i64)
            }
            "eval" => {
                self.eval = t
                    .parse()
                    .map_err(|_| bad(k, t, "one of material, center, full, net"))?;
                value(self.eval.to_string())
            }
            "order" => {
                self.order = t.parse().map_err(|_| {
                    let all: Vec<String> = Scheme::ALL.iter().map(|s| s.to_string()).collect();
                    bad(k, t, format!("one of {}", all.join(", ")))
                })?;
                value(self.order.to_string())
            }
            "color" => {
                self.color = t
                    .parse()
                    .map_err(|_| bad(k, t, "one of auto, truecolor, 256, 16, none"))?;
                value(color_name(self.color))
            }
            "ascii" => {
                self.ascii = match t.to_ascii_lowercase().as_str() {
                    "true" | "yes" | "on" => true,
                    "false" | "no" | "off" => false,
                    _ => return Err(bad(k, t, "true or false")),
                };
                value(self.ascii)
            }
            "book" => {
                self.book = (!t.is_empty()).then(|| PathBuf::from(t));
                value(t)
            }
            "tc" => {
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
            "hash" => {
                let mb = t
                    .parse::<usize>()
                    .ok()
                    .filter(|m| (1..=HASH_MAX_MB).contains(m))
                    .ok_or_else(|| bad(k, t, format!("megabytes from 1 to {HASH_MAX_MB}")))?;
                self.hash_mb = mb;
                value(mb as i64)
            }
            "explorer" => {
                self.explorer = match t.to_ascii_lowercase().as_str() {
                    "true" | "yes" | "on" => true,
                    "false" | "no" | "off" => false,
                    _ => return Err(bad(k, t, "true or false (on or off)")),
                };
                value(self.explorer)
            }
            "threads" => {
                let max = crate::engine::search::MAX_THREADS;
                let n = t
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=max).contains(n))
                    .ok_or_else(|| bad(k, t, format!("a thread count from 1 to {max}")))?;
                self.threads = n;
                value(i64::from(n))
            }
            _ => {
                let Some(action) = k.strip_prefix("keys.").and_then(action_named) else {
                    if let Some(name) = k.strip_prefix("keys.") {
                        let all: Vec<&str> = ACTIONS.iter().map(|(n, _)| *n).collect();
                        return Err(bad(k, name, format!("an action: {}", all.join(", "))));
                    }
                    return Err(ConfigError::UnknownKey { key: k.into() });
                };
                let names = parse_key_list(t).map_err(|e| bad(k, t, e))?;
                let shown: Vec<String> = names.iter().map(|n| n.to_string()).collect();
                match self.keys.iter_mut().find(|(a, _)| *a == action) {
                    Some(entry) => entry.1 = names,
                    None => self.keys.push((action, names)),
                }
                if shown.len() == 1 {
                    value(shown[0].clone())
                } else {
                    let mut arr = toml_edit::Array::new();
                    for s in shown {
                        arr.push(s);
                    }
                    value(arr)
                }
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
        let parsed = match toml_edit::Document::parse(text) {
            Ok(d) => d,
            Err(e) => {
                self.doc = None;
                self.problems.push(ConfigError::Syntax {
                    path,
                    line: line_of(e.span()),
                    message: e.message().trim().to_string(),
                });
                return;
            }
        };
        let mut problems = Vec::new();
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
                        Some(t) => settings.set_value(&key, &t).map(|_| ()),
                        None => Err(bad(&key, "", "a key name or a list of key names")),
                    };
                    if let Err(e) = result {
                        in_file(key, span, e);
                    }
                }
                continue;
            }
            if !KEYS.contains(&name) {
                // Kept in the file (a newer version's setting, perhaps), but said, as it is
                // more often a typo.
                in_file(
                    name.into(),
                    span,
                    ConfigError::UnknownKey { key: name.into() },
                );
                continue;
            }
            let result = match item_text(item) {
                Some(t) => settings.set_value(name, &t).map(|_| ()),
                None => Err(bad(name, "", "a single value")),
            };
            if let Err(e) = result {
                in_file(name.into(), span, e);
            }
        }
        self.settings = settings;
        self.problems = problems;
        self.doc = Some(parsed.into_mut());
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
        let k = key.trim();
        let known = (KEYS.contains(&k) && k != "keys") || k.starts_with("keys.");
        if !known {
            return Err(ConfigError::UnknownKey { key: k.into() });
        }
        let mut next = self.settings.clone();
        let item = next.set_value(k, text)?;
        self.settings = next;
        if let Some(doc) = &mut self.doc {
            match k.strip_prefix("keys.") {
                Some(action) => {
                    let action = action_name(action_named(action).expect("checked by set_value"));
                    if !doc.contains_table("keys") {
                        doc.insert("keys", Item::Table(Table::new()));
                    }
                    if let Some(t) = doc["keys"].as_table_like_mut() {
                        set_keeping_decor(t, action, item);
                    }
                }
                None => set_keeping_decor(doc.as_table_mut(), k, item),
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
