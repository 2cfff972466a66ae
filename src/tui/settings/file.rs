//! The settings file ([`Config`]): read with a problem per bad key or line and the rest kept,
//! changed by `:set`, and saved atomically with its comments, order and unknown keys; and
//! the command line's flags laid over what it gave.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, Table};

use super::bad_lines::skip_bad_lines;
use super::key_names::action_name;
use super::setting::{ConfigError, bad};
use super::setting::{Key, Setting};
use super::values::Settings;

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
        // A key's span is in the text that was parsed: the blanked lines are shorter, so the
        // line is counted there (blanking keeps every line's number).
        let parsed_text = parsed.raw();
        let line_of = |span: Option<std::ops::Range<usize>>| {
            span.map_or(0, |s| {
                parsed_text[..s.start.min(parsed_text.len())]
                    .matches('\n')
                    .count()
                    + 1
            })
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
