//! What can go wrong with a setting or the settings file, worded as the user sees it.

use std::path::PathBuf;

use strum::VariantArray;

use super::setting::Setting;

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
