//! Carrying out the app's own `:` commands once `parse.rs` has read them: what only the
//! game can check (a FEN's legality, a file) fails here with a message, the game left as it
//! was. The club's commands go on to `run_club.rs`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use super::parse::{Command, MAX_MULTIPV, SetArg, TcArg, parse_in};
use crate::chess::Board;
use crate::chess::Move;
use crate::engine::levels::Level;
use crate::engine::{Limits, SearchOptions};
use crate::game::Game;
use crate::game::autosave;
use crate::tui::Mode;
use crate::tui::app::club::EngineJob;
use crate::tui::app::{App, Hint, LogKind, MoveSource, moves_text, shown_e_text};
use crate::tui::keys::Action;
use crate::tui::settings::{self, Config, Setting, Settings};
use crate::tui::theme::ColorDepth;
use crate::tui::theme::Theme;

impl App {
    /// Runs a `:` command; false when it failed (the text stays for editing).
    pub(in crate::tui::app) fn run_command(&mut self, text: &str) -> bool {
        let result = match parse_in(text, self.club.scope()) {
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
            Command::Quit => self.screen.request_quit(),
            Command::Fen(fen) => return self.fen_command(fen.as_deref().unwrap_or("")),
            Command::Depth(d) => self.set_depth(d),
            Command::Eval(m) => {
                self.prefs.set_eval(m);
                let here = shown_e_text(self.play.game().board(), &self.prefs.eval());
                self.info(format!("eval {m}: {here} here"));
            }
            Command::Order(s) => {
                self.prefs.set_order(s);
                self.info(format!("move ordering: {s}"));
                self.tell_position();
            }
            Command::Mode(m) => {
                self.play.choose_mode(m, Instant::now());
                // Who plays changed: the headers follow the mode again.
                if matches!(m, Mode::HumanWhite | Mode::HumanBlack) {
                    self.screen.set_flipped(m == Mode::HumanBlack);
                }
                self.info(format!("mode: {}", m.describe()));
                self.log_line(LogKind::Info, format!("mode: {}", m.describe()));
                self.position_changed();
            }
            Command::Delay(d) => {
                self.play.series_mut().set_delay(d);
                self.info(format!(
                    "engine vs engine: {} ms between moves",
                    d.as_millis()
                ));
            }
            Command::Games(n) => self.play_games(n),
            Command::Lab(depth) => {
                return self.start_lab(depth.unwrap_or(self.prefs.settings().depth));
            }
            Command::View(v) => self.set_view(v),
            Command::Tree => self.open_tree(),
            Command::Theme(name) => {
                let t = Theme::load(&name, self.prefs.user_theme_dir(), self.prefs.color_depth())
                    .map_err(|e| e.to_string())?;
                self.prefs.set_theme(&name, t);
                self.info(format!(
                    "theme {name} ({} colours)",
                    self.prefs.color_depth().name()
                ));
            }
            Command::Ascii(on) => {
                let ascii = self.prefs.set_ascii(on);
                self.info(if ascii {
                    "pieces as letters"
                } else {
                    "pieces as glyphs"
                });
            }
            Command::Draw | Command::Resign if self.club.in_room() => {
                return self.run_club(cmd);
            }
            Command::Draw => return self.draw_command(),
            Command::Resign => {
                let side = self.side_to_move();
                let end = self
                    .play
                    .game_mut()
                    .resign(side)
                    .map_err(|e| e.to_string())?;
                self.announce(end);
                self.save();
            }
            Command::Save(file) => return self.save_command(&file),
            Command::Load(file) => return self.load_command(&file),
            Command::Tc(arg) => self.tc_command(arg),
            Command::Level(level) => self.set_level(level),
            Command::MultiPv(n) => self.set_multipv(n),
            Command::Hint => self.hint_command(),
            Command::Review(depth) => return self.start_review(depth),
            Command::Puzzle(arg) => return self.puzzle_command(&arg),
            Command::Set(arg) => return self.set_command(arg),
            Command::Lobby
            | Command::Play
            | Command::Join(_)
            | Command::Watch(_)
            | Command::Seek(_)
            | Command::SeekOff
            | Command::Challenge { .. }
            | Command::ChallengeOff(_)
            | Command::Accept(_)
            | Command::Decline(_)
            | Command::Say(_)
            | Command::Mute
            | Command::Engine
            | Command::StoredGames
            | Command::Pgn(_)
            | Command::Open(_)
            | Command::Members(_)
            | Command::KeyCode
            | Command::Abort
            | Command::Takeback
            | Command::No
            | Command::Rematch
            | Command::Claim
            | Command::Color(_)
            | Command::TournamentCreate(_)
            | Command::TournamentJoin(_)
            | Command::TournamentLeave(_)
            | Command::TournamentEnd(_)
            | Command::Standings(_)
            | Command::Pause
            | Command::Berserk
            | Command::Study(_)
            | Command::Right { .. }
            | Command::Comment(_)
            | Command::Glyph(_)
            | Command::Mark { .. }
            | Command::Promote
            | Command::Delete
            | Command::Chapter(_)
            | Command::Chapters
            | Command::Follow
            | Command::Private(_) => return self.run_club(cmd),
        }
        Ok(())
    }

    // ---- levels, lines and hints -----------------------------------------------------------

    fn set_level(&mut self, level: Level) {
        self.prefs.set_level(level);
        let how = match level {
            Level::Max => "full strength".to_string(),
            Level::Elo(elo) => format!("about {elo} Elo"),
        };
        let when = if self.session.is_thinking_for_a_move() {
            " (from the next move)"
        } else {
            ""
        };
        self.log_line(LogKind::Info, format!("level {level}: {how}"));
        self.info(format!("level {level}: {how}{when}"));
    }

    /// Shows `n` lines from the next search on; analysis starts again at once.
    pub(in crate::tui::app) fn set_multipv(&mut self, n: u32) {
        self.prefs.set_multipv(n, MAX_MULTIPV);
        self.info(format!(
            "{} best line{} shown",
            self.prefs.multipv(),
            if self.prefs.multipv() == 1 { "" } else { "s" }
        ));
        if self.play.mode() == Mode::Analysis && self.session.is_searching() {
            self.position_changed();
        }
    }

    /// A short full-strength search of the current position; its move is shown, not played.
    pub(in crate::tui::app) fn hint_command(&mut self) {
        if let Some(end) = self.play.game().result() {
            self.error(format!("the game is over ({})", end.result()));
            return;
        }
        if self.session.is_thinking_for_a_move() {
            self.error("the engine is thinking about its own move: a hint is for yours");
            return;
        }
        if let Some(h) = self.current_hint() {
            let text = format!("hint: {}", h.san);
            self.info(text);
            return;
        }
        match self.engine_go(EngineJob::Hint) {
            Ok(true) => {}
            Ok(false) => return,
            Err(why) => {
                self.error(why);
                return;
            }
        }
        let options = SearchOptions {
            level: Level::Max,
            multipv: 1,
            own_book: false,
            report_root_moves: true,
            eval: self.prefs.eval(),
            scheme: self.prefs.settings().order,
            hash_mb: self.prefs.settings().hash_mb,
            record_tree: self.panes.tree().explorer().record_limits(),
            threads: self.prefs.settings().threads,
            syzygy: self.prefs.tables().search_options(),
            ..SearchOptions::default()
        };
        let limits = Limits {
            movetime: Some(HINT_TIME),
            ..Limits::depth(self.prefs.settings().depth.min(HINT_DEPTH))
        };
        // The pane follows the hint's search from this position (it may still show the
        // engine's search of the position before its move).
        self.tell_position();
        self.session
            .start_hint(self.play.game().board(), limits, &options);
        self.info("hint: thinking…");
    }

    /// The hint search answered `m` for the position on the board.
    pub(in crate::tui::app) fn show_hint(&mut self, m: Move) {
        let board = self.play.game().board();
        let hint = Hint {
            hash: board.hash(),
            mv: m,
            san: board.san(m),
        };
        self.log_line(LogKind::Info, format!("hint: {}", hint.san));
        self.info(format!(
            "hint: {} (marked on the board; not played)",
            hint.san
        ));
        self.play.assist_mut().set_hint(hint);
        // Analysis goes on where the hint interrupted it.
        if self.play.mode() == Mode::Analysis {
            self.position_changed();
        }
    }

    /// The hint for the position on the board, if one was asked for here.
    pub fn current_hint(&self) -> Option<&Hint> {
        self.play
            .assist()
            .hint()
            .filter(|h| h.hash == self.play.game().board().hash())
    }

    /// After a human move: when a hint was shown for the position it was played in, the
    /// move's PGN comment says so (`{hint: Nf3}`).
    pub(in crate::tui::app) fn note_hint(&mut self, source: &MoveSource) {
        let Some(hint) = self.play.assist_mut().take_hint() else {
            return;
        };
        let Some(index) = self.play.game().ply().checked_sub(1) else {
            return;
        };
        let before = self.play.game().position_at(index).map(|b| b.hash());
        if *source != MoveSource::Human || before != Some(hint.hash) {
            return;
        }
        let mut notes = self.play.game().moves()[index].annotations.clone();
        let text = format!("hint: {}", hint.san);
        notes.comment = Some(match notes.comment.take() {
            Some(c) => format!("{c} {text}"),
            None => text,
        });
        if let Err(e) = self.play.game_mut().set_annotations(index, notes) {
            self.log_line(LogKind::Error, format!("hint note: {e}"));
        }
    }

    // ---- settings ------------------------------------------------------------------------

    /// Takes the settings file read at start: its problems go to the log.
    pub fn use_config(&mut self, config: Config) {
        for p in config.problems() {
            self.log_line(LogKind::Error, format!("settings: {p}"));
        }
        if let Some(p) = config.problems().first() {
            self.error(format!("settings: {p} (:set lists the settings)"));
        }
        self.panes
            .tree_mut()
            .explorer_mut()
            .set_recording(config.settings().explorer);
        self.prefs.set_config(config);
    }

    /// The settings as they are in this session (the file's, the flags', and `:set`s), with
    /// the clock of the game on the board, whether searches record trees and the view the
    /// right-hand side shows.
    pub fn live_settings(&self) -> Settings {
        let mut s = self.prefs.settings().clone();
        s.tc = self.play.time_control().map(|tc| tc.to_string());
        s.explorer = self.panes.tree().explorer().recording();
        s.view = self.screen.view();
        s
    }

    fn set_command(&mut self, arg: SetArg) -> Result<(), String> {
        match arg {
            SetArg::List => {
                let s = self.live_settings();
                let file = self
                    .prefs
                    .config()
                    .and_then(|c| c.path())
                    .map_or("no settings file".to_string(), |p| p.display().to_string());
                self.log_line(LogKind::Info, format!("settings ({file}):"));
                for setting in <settings::Setting as strum::VariantArray>::VARIANTS {
                    let v = s.value(settings::Key::Setting(*setting));
                    self.log_line(LogKind::Info, format!("  {setting} = {v}"));
                }
                self.info("settings listed in the log (:set KEY VALUE changes one)");
            }
            SetArg::Save => {
                let mut config = self
                    .prefs
                    .config()
                    .cloned()
                    .ok_or("no settings file to save to (none was read at start)")?;
                // Every setting in force goes into the file, whichever command changed it
                // (`:level`, the depth keys, `:theme`, `:set`); what the file already says
                // is left as it is, comments and all.
                let live = self.live_settings();
                let keys = <Setting as strum::VariantArray>::VARIANTS
                    .iter()
                    .map(|s| settings::Key::Setting(*s))
                    .chain(
                        <crate::tui::keys::Action as strum::VariantArray>::VARIANTS
                            .iter()
                            .map(|a| settings::Key::Keys(*a)),
                    );
                for key in keys {
                    let now = live.value(key);
                    if config.settings().value(key) != now {
                        config
                            .set(&key.to_string(), &now)
                            .map_err(|e| format!("settings not saved: {e}"))?;
                    }
                }
                config.save().map_err(|e| e.to_string())?;
                let path = config.path().map(|p| p.display().to_string());
                self.prefs.set_config(config);
                let text = format!("settings saved to {}", path.unwrap_or_default());
                self.log_line(LogKind::Info, text.clone());
                self.info(text);
            }
            SetArg::Value { key, value } => self.set_value(key.trim(), value.trim())?,
        }
        Ok(())
    }

    /// `:set KEY VALUE`: checked by the settings file's own rules, then applied at once.
    /// On any error nothing changes (file, session, screen).
    fn set_value(&mut self, key: &str, value: &str) -> Result<(), String> {
        let parsed: settings::Key = key
            .parse()
            .map_err(|e: settings::ConfigError| e.to_string())?;
        let mut config = self.prefs.config().cloned().unwrap_or_default();
        config.set(key, value).map_err(|e| e.to_string())?;
        let mut s = self.prefs.settings().clone();
        s.set_value(parsed, value).map_err(|e| e.to_string())?;
        // What can still fail (a theme file, a time control) is tried before anything moves.
        let theme = match parsed {
            settings::Key::Setting(Setting::Theme | Setting::Color) => {
                let depth = ColorDepth::detect(s.color, |k| std::env::var(k).ok());
                let t = Theme::load(&s.theme, self.prefs.user_theme_dir(), depth)
                    .map_err(|e| e.to_string())?;
                Some((t, depth))
            }
            _ => None,
        };
        let tc = match (parsed, &s.tc) {
            (settings::Key::Setting(Setting::Tc), Some(text)) => Some(Some(
                text.parse::<crate::game::TimeControl>()
                    .map_err(|e| format!("tc: {e}"))?,
            )),
            (settings::Key::Setting(Setting::Tc), None) => Some(None),
            _ => None,
        };
        let tables = match parsed {
            // A player of the SSH server names no directory of the server's.
            settings::Key::Setting(Setting::Syzygy) if self.prefs.file_root().is_some() => {
                return Err("syzygy: the server sets the tables; a player cannot".into());
            }
            settings::Key::Setting(Setting::Syzygy) => {
                Some(crate::tui::app::TableSet::open(s.syzygy.as_deref())?)
            }
            _ => None,
        };
        let order_changed = s.order != self.prefs.settings().order;
        let multipv_changed = s.multipv != self.prefs.multipv();
        self.prefs.replace_settings(s, theme);
        if let Some(tables) = tables {
            if let Some(text) = tables.describe() {
                self.log_line(LogKind::Info, text);
            }
            self.prefs.set_tables(tables);
        }
        match parsed {
            settings::Key::Setting(Setting::Order) if order_changed => self.tell_position(),
            settings::Key::Setting(Setting::View) => {
                self.screen.set_view(self.prefs.settings().view)
            }
            settings::Key::Setting(Setting::MultiPv)
                if multipv_changed
                    && self.play.mode() == Mode::Analysis
                    && self.session.is_searching() =>
            {
                self.position_changed()
            }
            settings::Key::Setting(Setting::Explorer) => self
                .panes
                .tree_mut()
                .explorer_mut()
                .set_recording(self.prefs.settings().explorer),
            settings::Key::Setting(Setting::Tc) => {
                if let Some(tc) = tc {
                    self.set_time_control(tc);
                    self.position_changed();
                }
            }
            _ => {}
        }
        let shown = config.get(key).unwrap_or_else(|_| value.to_string());
        self.prefs.set_config(config);
        self.log_line(LogKind::Info, format!("set {key} = {shown}"));
        let warning = matches!(parsed, settings::Key::Setting(Setting::Depth | Setting::Tc))
            .then(|| self.depth_warning())
            .flatten();
        match warning {
            Some(w) => {
                self.log_line(LogKind::Info, w.clone());
                self.info(format!("{key} = {shown}: {w}"));
            }
            None => self.info(format!(
                "{key} = {shown} for this session (:set save keeps it)"
            )),
        }
        Ok(())
    }

    /// `:games N`: the engine plays both sides for N games, a new one starting when one
    /// ends (the current game counts when it is still going).
    fn play_games(&mut self, n: u32) {
        self.log_line(LogKind::Info, format!("a series of {n} engine games"));
        self.info(format!("the engine plays {n} games in a row (Esc pauses)"));
        if self.play.start_series(n, Instant::now()) {
            self.position_changed();
        } else if !self.play.game().is_over() && self.play.series().is_paused() {
            self.play.series_mut().resume();
            self.position_changed();
        }
    }

    fn fen_command(&mut self, arg: &str) -> Result<(), String> {
        if arg.is_empty() {
            let fen = self.play.game().fen();
            self.log_line(LogKind::Info, format!("FEN {fen}"));
            self.info(fen);
            return Ok(());
        }
        let b = Board::from_fen(arg).map_err(|e| format!("FEN: {e}"))?;
        self.new_game(Some(b));
        Ok(())
    }

    /// The file a `:save`/`:load` argument names: under `file_root` only a cleaned base name
    /// inside that directory, otherwise the path as given (`~` expanded).
    pub(in crate::tui::app) fn pgn_path(&self, arg: &str) -> Result<PathBuf, String> {
        match &self.prefs.file_root() {
            None => Ok(expand_home(arg)),
            Some(root) => {
                let path = confined_pgn_path(root, arg)
                    .ok_or_else(|| format!("{arg:?}: give a file name (letters, digits, - _ .)"))?;
                std::fs::create_dir_all(root).map_err(|e| format!("{}: {e}", root.display()))?;
                Ok(path)
            }
        }
    }

    /// A `:save`/`:load` file as messages name it: under a file root only its name there
    /// (the server's directories are not the visitor's business), else the whole path.
    pub(in crate::tui::app) fn shown_path(&self, path: &Path) -> String {
        self.prefs
            .file_root()
            .and_then(|root| path.strip_prefix(root).ok())
            .map_or_else(|| path.display().to_string(), |p| p.display().to_string())
    }

    /// `:save FILE`: the game as the board shows it (moves taken back and kept for Ctrl+Y
    /// are not written as played), with its players, time control and termination.
    fn save_command(&mut self, arg: &str) -> Result<(), String> {
        let path = self.pgn_path(arg)?;
        let shown_path = self.shown_path(&path);
        self.play
            .stamp_tags(&self.prefs.settings().name, self.prefs.settings().level);
        let shown = self.play.game().as_shown();
        let pgn = shown.to_pgn();
        if let Some(root) = self.prefs.file_root() {
            saves_budget(root, &path, pgn.len())?;
        }
        autosave::write_atomic(&path, pgn.as_bytes()).map_err(|e| format!("{shown_path}: {e}"))?;
        let text = format!("saved {} to {shown_path}", moves_text(shown.len()));
        self.log_line(LogKind::Info, text.clone());
        self.info(text);
        Ok(())
    }

    fn load_command(&mut self, arg: &str) -> Result<(), String> {
        let path = self.pgn_path(arg)?;
        let shown = self.shown_path(&path);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{shown}: {e}"))?;
        let game = Game::from_pgn(&text)
            .map_err(|e| format!("{shown}: {e} (the current game is kept)"))?;
        self.set_game(game, &format!("loaded {shown}"));
        if let Some(end) = self.play.game().result() {
            self.log_line(
                LogKind::Result,
                format!("{} {}", end.result(), end.reason()),
            );
        }
        Ok(())
    }

    /// `:tc`: the time control games are played with. A game without moves takes it at
    /// once; a game under way keeps the one it is played with (its record and its clock),
    /// so the change is for the next game; analysis has no clock, so it is kept for play.
    fn tc_command(&mut self, arg: TcArg) {
        let named = |tc: Option<crate::game::TimeControl>| {
            tc.map_or("no time control".to_string(), |tc| {
                format!("time control {tc}")
            })
        };
        let this_game = named(self.play.game().time_control);
        let setting = named(self.play.time_control());
        if let TcArg::Show = arg {
            let text = if self.play.mode() == Mode::Analysis {
                format!("analysis has no clock; games are played with {setting}")
            } else if this_game == setting {
                match self.play.time_control() {
                    Some(_) => setting,
                    None => "no time control (:tc 5+3 sets one)".to_string(),
                }
            } else {
                format!("this game: {this_game}; the next: {setting}")
            };
            self.info(text);
            return;
        }
        let tc = match arg {
            TcArg::Set(tc) => Some(tc),
            _ => None,
        };
        let taken = self.play.set_time_control(tc);
        let setting = named(tc);
        let text = if self.play.mode() == Mode::Analysis {
            format!(
                "analysis has no clock: {setting} for games played (:mode white, black or human)"
            )
        } else if !taken {
            let keeps = match self.play.game().time_control {
                Some(t) => format!("keeps {t}"),
                None => "has no clock".to_string(),
            };
            format!("{setting} from the next game (this game {keeps})")
        } else {
            match tc {
                Some(tc) => format!(
                    "{setting}: both clocks at {}",
                    crate::game::clock::format_clock(tc.start_time())
                ),
                None => setting,
            }
        };
        self.log_line(LogKind::Info, text.clone());
        self.info(text);
        self.position_changed();
    }
}

/// A hint searches at most this deep and this long: a suggestion, not an analysis.
const HINT_DEPTH: u32 = 12;
const HINT_TIME: std::time::Duration = std::time::Duration::from_millis(800);

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

/// Files a player's `:save` may keep in their folder (a server's visitor), at most.
pub const SAVES_MAX_FILES: usize = 100;

/// Bytes of those files, at most.
pub const SAVES_MAX_BYTES: u64 = 4 * 1024 * 1024;

/// Whether `path` may be written with `len` bytes inside `root` and the folder stay within
/// [`SAVES_MAX_FILES`] and [`SAVES_MAX_BYTES`] (a file written again counts once, at its
/// new size); why not, in words for the player.
fn saves_budget(root: &Path, path: &Path, len: usize) -> Result<(), String> {
    let (mut files, mut bytes) = (0usize, 0u64);
    if let Ok(entries) = std::fs::read_dir(root) {
        for e in entries.flatten() {
            if e.path() == path {
                continue;
            }
            if let Ok(meta) = e.metadata()
                && meta.is_file()
            {
                files += 1;
                bytes += meta.len();
            }
        }
    }
    if files + 1 > SAVES_MAX_FILES || bytes + len as u64 > SAVES_MAX_BYTES {
        return Err(format!(
            "your saved games are at the limit ({files} files, {} KB; at most \
             {SAVES_MAX_FILES} files and {} KB): save over an old name instead",
            bytes / 1024,
            SAVES_MAX_BYTES / 1024
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_stay_within_their_files_and_bytes_and_an_old_name_may_be_saved_over() {
        let root = std::env::temp_dir().join(format!("ox88-saves-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let name = |i: usize| root.join(format!("g{i}.pgn"));
        for i in 0..SAVES_MAX_FILES {
            assert_eq!(saves_budget(&root, &name(i), 10), Ok(()), "file {i}");
            std::fs::write(name(i), [b'x'; 10]).unwrap();
        }
        let why = saves_budget(&root, &name(SAVES_MAX_FILES), 10).unwrap_err();
        assert!(why.contains("at the limit (100 files"), "{why}");
        assert_eq!(
            saves_budget(&root, &name(3), 10),
            Ok(()),
            "over an old name"
        );
        let big = SAVES_MAX_BYTES as usize;
        let why = saves_budget(&root, &name(3), big).unwrap_err();
        assert!(why.contains("KB"), "{why}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}
