//! `ox88 config`: the settings in effect, one `key = value` line each (the file, then the
//! flags given before the subcommand), headed by the file's path; the file's problems go
//! to standard error.

use anyhow::Result;

use super::args::PlayArgs;

pub fn run(play: &PlayArgs) -> Result<()> {
    let config = play.load_config();
    let path = config
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "(none)".into());
    println!("# {path}");
    let settings = config.settings().with_overrides(&play.overrides());
    for key in &ox88::config::KEYS[..ox88::config::KEYS.len() - 1] {
        println!("{key} = {}", settings.get(key)?);
    }
    for (action, _) in &settings.keys {
        let name = ox88::config::action_name(*action);
        println!("keys.{name} = {}", settings.get(&format!("keys.{name}"))?);
    }
    for p in config.problems() {
        eprintln!("{p}");
    }
    Ok(())
}
