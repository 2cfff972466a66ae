//! The settings themselves ([`Settings`]): their defaults, each as text, each checked and
//! stored from text, and the key table the key overrides make.

use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyModifiers};
use toml_edit::{Item, value};

use super::key_names::{KeyName, parse_key_list};
use super::player_name::{NAME_MAX, clean_name, login_name};
use super::setting::{ConfigError, bad};
use super::setting::{DEFAULT_DEPTH, DEPTH_RANGE, HASH_MAX_MB, Key, MULTIPV_RANGE, Setting};
use crate::engine::eval::{EvalMode, ValuePreset};
use crate::engine::levels::Level;
use crate::engine::order::Scheme;
use crate::game::clock::TimeControl;
use crate::tui::keys::{self, Action, Binding, When};
use crate::tui::theme::ColorMode;
use crate::tui::view::View;

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
    /// How many best lines a search shows (MultiPV).
    pub multipv: u32,
    pub eval: EvalMode,
    pub order: Scheme,
    /// What the right-hand side shows.
    pub view: View,
    /// The piece values the material line under the board counts with (standard by
    /// default; the seed page's values when chosen).
    pub values: ValuePreset,
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
            multipv: 1,
            eval: EvalMode::default(),
            order: Scheme::default(),
            view: View::default(),
            values: ValuePreset::Standard,
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
                    None => crate::tui::pane::key_table()
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
            Setting::MultiPv => self.multipv.to_string(),
            Setting::View => self.view.name().to_string(),
            Setting::Values => self.values.name().to_string(),
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
                // One key does one thing: a key another action's own list has already
                // would act for whichever came first, so it is refused naming both.
                for (other, theirs) in self.keys.iter().filter(|(a, _)| *a != action) {
                    if let Some(n) = names.iter().find(|n| theirs.contains(n)) {
                        return Err(bad(
                            k,
                            t,
                            format!(
                                "{n} is already keys.{} (one key, one action: take it \
                                 from there first)",
                                super::key_names::action_name(*other)
                            ),
                        ));
                    }
                }
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
            Setting::MultiPv => {
                let n = t
                    .parse::<u32>()
                    .ok()
                    .filter(|n| MULTIPV_RANGE.contains(n))
                    .ok_or_else(refuse)?;
                self.multipv = n;
                value(i64::from(n))
            }
            Setting::View => {
                self.view = View::parse(t).map_err(|_| refuse())?;
                value(self.view.name())
            }
            Setting::Values => {
                self.values = t.parse().map_err(|_| refuse())?;
                value(self.values.name())
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
                        // Say how to write one, unless the parser's message already does.
                        let e = e.to_string();
                        let how = if e.contains("e.g. 5+3") {
                            e
                        } else {
                            format!("{e}; write minutes+increment like 5+3 or 40/90+30")
                        };
                        bad(k, t, how)
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
    // A pane's own use of a key (the tree browser's Enter, the sort pane's ←) says nothing
    // about what the key does elsewhere.
    if let Some(b) = table
        .iter()
        .find(|b| b.code == k.code && b.mods == k.mods && !matches!(b.when, When::Focused(_)))
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

fn color_name(c: ColorMode) -> &'static str {
    match c {
        ColorMode::Auto => "auto",
        ColorMode::TrueColor => "truecolor",
        ColorMode::Ansi256 => "256",
        ColorMode::Ansi16 => "16",
        ColorMode::None => "none",
    }
}
