//! Carrying out the `:` commands `command.rs` parsed: what only the game can check (a FEN's
//! legality, a file) fails here with a message, the game left as it was.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::command::{self, Command, TcArg};
use super::{App, LogKind, e_text};
use crate::chess::Board;
use crate::engine::eval;
use crate::game::Game;
use crate::game::autosave;
use crate::tui::Mode;
use crate::tui::keys::Action;
use crate::tui::theme::{PieceStyle, Theme};

impl App {
    /// Runs a `:` command; false when it failed (the text stays for editing).
    pub(super) fn run_command(&mut self, text: &str) -> bool {
        let result = match command::parse(text) {
            Ok(cmd) => self.execute(cmd),
            Err(e) => Err(e.to_string()),
        };
        match result {
            Ok(()) => true,
            Err(e) => {
                self.error(e);
                false
            }
        }
    }

    /// Carries out a parsed command; what only the game can check (a FEN's legality, a
    /// file) fails here with a message, the game left as it was.
    pub fn execute(&mut self, cmd: Command) -> Result<(), String> {
        match cmd {
            Command::New => self.new_game(None),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Flip => self.act(Action::Flip),
            Command::Go => self.engine_move_now(),
            Command::Stop => self.stop_engine(),
            Command::Help => self.act(Action::Help),
            Command::Quit => self.quit = true,
            Command::Fen(fen) => return self.fen_command(fen.as_deref().unwrap_or("")),
            Command::Depth(d) => self.set_depth(d),
            Command::Eval(m) => {
                self.eval.mode = m;
                let e = eval::evaluate_white(self.game.board(), &self.eval);
                self.info(format!("eval {m}: E {} here", e_text(e)));
            }
            Command::Order(s) => {
                self.scheme = s;
                self.info(format!("move ordering: {s}"));
                self.reset_sort_view();
            }
            Command::Mode(m) => {
                self.mode = m;
                self.paused = false;
                if matches!(m, Mode::HumanWhite | Mode::HumanBlack) {
                    self.flipped = m == Mode::HumanBlack;
                }
                if m != Mode::EngineEngine {
                    self.games_to_play = 0;
                    self.next_game_start = None;
                }
                self.info(format!("mode: {}", m.describe()));
                self.log(LogKind::Info, format!("mode: {}", m.describe()));
                self.position_changed();
            }
            Command::Delay(d) => {
                self.delay = d;
                self.info(format!(
                    "engine vs engine: {} ms between moves",
                    d.as_millis()
                ));
            }
            Command::Games(n) => self.play_games(n),
            Command::Lab(depth) => return self.start_lab(depth.unwrap_or(self.depth)),
            Command::View(v) => self.set_view(v),
            Command::Theme(name) => {
                let t = Theme::load(&name, self.user_theme_dir.as_deref(), self.color_depth)
                    .map_err(|e| e.to_string())?;
                self.ascii = t.pieces == PieceStyle::Ascii;
                self.theme = t;
                self.info(format!(
                    "theme {name} ({} colours)",
                    self.color_depth.name()
                ));
            }
            Command::Ascii(on) => {
                self.ascii = on.unwrap_or(!self.ascii);
                self.info(if self.ascii {
                    "pieces as letters"
                } else {
                    "pieces as glyphs"
                });
            }
            Command::Resign | Command::Draw => {
                let declared = if cmd == Command::Draw {
                    self.game.agree_draw()
                } else {
                    let side = self.side_to_move();
                    self.game.resign(side)
                };
                let end = declared.map_err(|e| e.to_string())?;
                self.announce(end);
                self.save();
            }
            Command::Save(file) => return self.save_command(&file),
            Command::Load(file) => return self.load_command(&file),
            Command::Tc(arg) => self.tc_command(arg),
        }
        Ok(())
    }

    /// `:games N`: the engine plays both sides for N games, a new one starting when one
    /// ends (the current game counts when it is still going).
    fn play_games(&mut self, n: u32) {
        self.games_to_play = n;
        self.log(LogKind::Info, format!("a series of {n} engine games"));
        self.info(format!("the engine plays {n} games in a row (Esc pauses)"));
        if self.mode != Mode::EngineEngine {
            self.mode = Mode::EngineEngine;
            self.paused = false;
            self.position_changed();
        }
        if self.game.is_over() {
            self.next_game_start = Some(Instant::now());
        } else if self.paused {
            self.paused = false;
            self.position_changed();
        }
    }

    fn fen_command(&mut self, arg: &str) -> Result<(), String> {
        if arg.is_empty() {
            let fen = self.game.fen();
            self.log(LogKind::Info, format!("FEN {fen}"));
            self.info(fen);
            return Ok(());
        }
        let b = Board::from_fen(arg).map_err(|e| format!("FEN: {e}"))?;
        self.new_game(Some(b));
        Ok(())
    }

    /// The file a `:save`/`:load` argument names: under `file_root` only a cleaned base name
    /// inside that directory, otherwise the path as given (`~` expanded).
    fn pgn_path(&self, arg: &str) -> Result<PathBuf, String> {
        match &self.file_root {
            None => Ok(expand_home(arg)),
            Some(root) => {
                let path = confined_pgn_path(root, arg)
                    .ok_or_else(|| format!("{arg:?}: give a file name (letters, digits, - _ .)"))?;
                std::fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
                Ok(path)
            }
        }
    }

    fn save_command(&mut self, arg: &str) -> Result<(), String> {
        let path = self.pgn_path(arg)?;
        autosave::write_atomic(&path, self.game.to_pgn().as_bytes())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let n = self.game.len();
        self.log(
            LogKind::Info,
            format!("saved {n} moves to {}", path.display()),
        );
        self.info(format!("saved {n} moves to {}", path.display()));
        Ok(())
    }

    fn load_command(&mut self, arg: &str) -> Result<(), String> {
        let path = self.pgn_path(arg)?;
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let game = Game::from_pgn(&text)
            .map_err(|e| format!("{}: {e} (the current game is kept)", path.display()))?;
        self.set_game(game, &format!("loaded {}", path.display()));
        if let Some(end) = self.game.result() {
            self.log(
                LogKind::Result,
                format!("{} {}", end.result(), end.reason()),
            );
        }
        Ok(())
    }

    fn tc_command(&mut self, arg: TcArg) {
        match arg {
            TcArg::Show => {
                let now = match &self.game.time_control {
                    Some(tc) => format!("time control {tc}"),
                    None => "no time control (:tc 5+3 sets one)".to_string(),
                };
                self.info(now);
            }
            TcArg::Off => {
                self.set_time_control(None);
                self.info("no time control");
            }
            TcArg::Set(tc) => {
                self.set_time_control(Some(tc));
                self.info(format!(
                    "time control {tc}: both clocks at {}",
                    crate::game::clock::format_clock(tc.base)
                ));
                self.position_changed();
            }
        }
    }
}

/// `~/games/x.pgn` → the home directory's `games/x.pgn`.
/// A PGN file inside `dir` named after the last component of `name`, keeping only letters,
/// digits, `-`, `_` and `.` (no leading dot), `.pgn` added when missing; `None` when nothing
/// is left. No path the user types can leave `dir`.
pub fn confined_pgn_path(dir: &Path, name: &str) -> Option<PathBuf> {
    let base = name.trim().rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = base
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        .take(64)
        .collect();
    let clean = clean.trim_start_matches('.');
    if clean.is_empty() {
        return None;
    }
    let file = if clean.to_ascii_lowercase().ends_with(".pgn") {
        clean.to_string()
    } else {
        format!("{clean}.pgn")
    };
    Some(dir.join(file))
}

fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ => PathBuf::from(path),
    }
}
