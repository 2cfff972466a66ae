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
    let s = config.settings().with_overrides(&play.overrides());
    let keys = s.key_table(tui::keys::DEFAULT_KEYS);
    tui::run(tui::Options {
        ascii: s.ascii,
        color: s.color,
        theme: s.theme,
        depth: s.depth,
        fen: play.fen,
        pgn: play.pgn,
        resume: play.resume,
        tc: s.tc.clone(),
        mode: play.mode,
        delay_ms: play.delay,
        eval: s.eval,
        order: s.order,
        book: s.book.clone(),
        level: s.level,
        hash_mb: s.hash_mb,
        threads: s.threads,
        keys,
        config_path: config.path().map(std::path::Path::to_path_buf),
    })
}
