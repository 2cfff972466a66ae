//! The keys and actions a person names in the `[keys]` table (`Ctrl+G`, `F6`, `quit`), read
//! from text and written back the same way.

use std::fmt;

use crossterm::event::{KeyCode, KeyModifiers};

use crate::tui::keys::{self, Action};

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

/// A `[keys]` entry's keys: `Ctrl+Q, F10` or one key.
pub(super) fn parse_key_list(text: &str) -> Result<Vec<KeyName>, String> {
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
