//! `ox88 config`: the settings in effect, one `key = value` line each (the file, then the
//! flags given before the subcommand), headed by the file's path, and a last comment line
//! naming the opening book in effect; the file's problems go to standard error.

use anyhow::Result;

use ox88::engine::book::Book;
use ox88::tui::settings::{Key, Setting, Settings};
use strum::VariantArray;

use super::args::PlayArgs;

pub fn run(play: &PlayArgs) -> Result<()> {
    let config = play.load_config();
    let path = config
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "(none)".into());
    println!("# {path}");
    let settings = play.settings(&config)?;
    for setting in Setting::VARIANTS {
        println!("{setting} = {}", settings.value(Key::Setting(*setting)));
    }
    for (action, _) in &settings.keys {
        let key = Key::Keys(*action);
        println!("{key} = {}", settings.value(key));
    }
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
