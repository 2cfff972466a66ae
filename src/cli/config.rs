//! `ox88 config`: the settings in effect (the file, then the flags given before the
//! subcommand) as a settings file — valid TOML, so the output can be saved and read back as
//! it is — headed by the file's path and ending with a comment naming the opening book in
//! effect; the file's problems go to standard error.

use anyhow::Result;

use ox88::engine::book::Book;
use ox88::tui::settings::{Key, Setting, Settings};
use strum::VariantArray;
use toml_edit::{DocumentMut, Item, Table};

use super::args::{ConfigArgs, PlayArgs};
use ox88::tui::settings::Config;

pub fn run(play: &PlayArgs, args: &ConfigArgs) -> Result<()> {
    // `ox88 config --config FILE` reads FILE, as `ox88 --config FILE config` does.
    let config = match &args.file {
        Some(path) => Config::load(path),
        None => play.load_config(),
    };
    let path = config
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "(none)".into());
    println!("# {path}");
    let settings = play.settings(&config)?;
    print!("{}", as_toml(&settings)?);
    println!("# {}", book_in_effect(&settings));
    for p in config.problems() {
        eprintln!("{p}");
    }
    Ok(())
}

/// The opening book the TUI's games play with, in words: the built-in lines and the
/// Polyglot file (read now, so a file that cannot be read says so), or none.
fn book_in_effect(settings: &Settings) -> String {
    if !settings.own_book {
        return "book in effect: none (ownbook = false: the engine searches every move)".into();
    }
    let book = match &settings.book {
        None => Book::builtin().to_string(),
        Some(path) => match Book::with_polyglot(path) {
            Ok(b) => b.to_string(),
            Err(e) => format!("{} ({e}: the built-in lines only)", Book::builtin()),
        },
    };
    format!("book in effect: {book}; it plays the engine's first moves in games, varied by weight")
}

/// The settings as the file would hold them: every setting at the top (an unset one as an
/// empty string, which reads back as unset), then the `[keys]` table. Each value is written
/// by the settings' own rules, the ones `:set` and the file use.
fn as_toml(settings: &Settings) -> Result<String> {
    let mut doc = DocumentMut::new();
    let mut check = settings.clone();
    for setting in Setting::VARIANTS {
        let key = Key::Setting(*setting);
        doc[setting.name()] = check.set_value(key, &settings.value(key))?;
    }
    let mut keys = Table::new();
    for (action, _) in &settings.keys {
        let key = Key::Keys(*action);
        keys[ox88::tui::settings::action_name(*action)] =
            check.set_value(key, &settings.value(key))?;
    }
    if !keys.is_empty() {
        doc["keys"] = Item::Table(keys);
    }
    Ok(doc.to_string())
}
