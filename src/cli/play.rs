//! `ox88` with no subcommand: the TUI, with the settings file under the flags. Started
//! with standard input not a terminal and no flags (a GUI starting an engine over a pipe),
//! it speaks UCI instead; with TUI flags it says a terminal is needed. A bad `--fen` or
//! `--pgn` (or `--puzzles` file), or a terminal that cannot draw (`TERM=dumb`), stops it before the screen is
//! taken, with a message and exit status 2.

use std::io::IsTerminal;

use anyhow::Result;
use ox88::chess::Board;
use ox88::game::Game;
use ox88::tui;

use super::args::PlayArgs;

pub fn run(play: PlayArgs) -> Result<()> {
    let piped = !std::io::stdin().is_terminal();
    // GUIs start engines without arguments and speak first over a pipe.
    if piped && play.tui_flags().is_empty() {
        return ox88::uci::run();
    }
    if let Some(fen) = &play.fen
        && let Err(e) = Board::from_fen(fen)
    {
        refuse(&format!("--fen: {e}"));
    }
    if let Some(path) = &play.pgn {
        let game = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| Game::from_pgn(&text).map_err(|e| e.to_string()));
        if let Err(e) = game {
            refuse(&format!("--pgn {}: {e}", path.display()));
        }
    }
    if let Some(path) = &play.puzzles {
        let set = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| ox88::puzzle::file::read(&text).map_err(|e| e.to_string()));
        match set {
            Err(e) => refuse(&format!("--puzzles {}: {e}", path.display())),
            Ok(set) if set.is_empty() => refuse(&format!(
                "--puzzles {}: the file has no puzzles",
                path.display()
            )),
            Ok(_) => {}
        }
    }
    let config = play.load_config();
    // The TUI takes the screen: problems with the settings file stay readable above it
    // once the program ends.
    for p in config.problems() {
        eprintln!("ox88: {p}");
    }
    let settings = match play.settings(&config) {
        Ok(s) => s,
        Err(e) => refuse(&e.to_string()),
    };
    if piped {
        let given = play.tui_flags();
        refuse(&format!(
            "{} {} for the full-screen program, which needs a terminal (standard input is \
             not one); to play over UCI from a GUI or a script, run `ox88 uci`",
            given.join(", "),
            if given.len() == 1 { "is" } else { "are" }
        ));
    }
    if std::env::var("TERM").is_ok_and(|t| t == "dumb") {
        refuse(
            "this terminal (TERM=dumb) cannot show the full-screen program; use a terminal \
             that can (xterm, tmux, a terminal window over ssh), or play over UCI with `ox88 uci`",
        );
    }
    tui::run(tui::Options {
        settings,
        fen: play.fen,
        pgn: play.pgn,
        resume: play.resume,
        mode: play.mode.unwrap_or_default(),
        delay_ms: play.delay.unwrap_or(tui::DEFAULT_DELAY_MS),
        config_path: config.path().map(std::path::Path::to_path_buf),
        puzzles: play.puzzles,
    })
}

/// Says why the program does not start and exits with status 2 (a usage error).
fn refuse(why: &str) -> ! {
    eprintln!("ox88: {why}");
    std::process::exit(2)
}
