//! `ox88` with no subcommand: the TUI, with the settings file under the flags. Started
//! with standard input not a terminal (a GUI starting an engine over a pipe), it speaks
//! UCI instead.

use std::io::IsTerminal;

use anyhow::Result;
use ox88::tui;

use super::args::PlayArgs;

pub fn run(play: PlayArgs) -> Result<()> {
    // GUIs start engines without arguments and speak first over a pipe.
    if !std::io::stdin().is_terminal() {
        return ox88::uci::run();
    }
    let config = play.load_config();
    // The TUI takes the screen: problems with the settings file stay readable above it
    // once the program ends.
    for p in config.problems() {
        eprintln!("ox88: {p}");
    }
    let settings = play.settings(&config)?;
    tui::run(tui::Options {
        settings,
        fen: play.fen,
        pgn: play.pgn,
        resume: play.resume,
        mode: play.mode,
        delay_ms: play.delay,
        config_path: config.path().map(std::path::Path::to_path_buf),
    })
}
