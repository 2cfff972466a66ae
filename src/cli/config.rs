//! `ox88 config`: the settings in effect, one `key = value` line each (the file, then the
//! flags given before the subcommand), headed by the file's path; the file's problems go
//! to standard error.

use anyhow::Result;

use ox88::tui::settings::{Key, Setting};
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
    for p in config.problems() {
        eprintln!("{p}");
    }
    Ok(())
}
