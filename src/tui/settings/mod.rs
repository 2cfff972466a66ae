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

mod bad_lines;
mod file;
mod key_names;
mod player_name;
mod setting;
mod values;

pub use file::Config;
pub use key_names::{KeyName, action_name, action_named};
pub use player_name::{NAME_MAX, clean_name, login_name};
pub use setting::{
    ConfigError, DEFAULT_DEPTH, DEPTH_RANGE, HASH_MAX_MB, Key, MULTIPV_RANGE, Setting,
};
pub use values::Settings;
