//! The game flow: the game on the board, its clock and where it is kept, who plays which
//! side, the engine-vs-engine timers and the last hint. The hub (`App`) decides when the
//! engine moves; this part holds what those decisions read and change.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::draws::Draws;
use super::{Hint, Prompt};
use crate::chess::Color;
use crate::engine::book::Book;
use crate::engine::levels::Level;
use crate::game::autosave::Autosave;
use crate::game::{Clock, Game, Termination, TimeControl};
use crate::tui::Mode;

/// The game and its flow.
pub struct Play {
    pub game: Game,
    /// The chess clock, when a time control is set.
    pub clock: Option<Clock>,
    /// Where the game is kept after every move (`None`: not kept, as in tests).
    pub autosave: Option<Autosave>,
    /// The last autosave error, so a full disk is reported once, not after every move.
    pub autosave_error: Option<String>,
    /// A question that takes the keyboard until answered.
    pub prompt: Option<Prompt>,
    pub mode: Mode,
    /// Engine vs engine: the pause between moves and between games.
    pub delay: Duration,
    /// The built-in opening book (names the opening on the status line).
    pub book: Book,
    pub opening: Option<String>,
    /// Engine vs engine waits for this moment before the next search.
    pub next_engine_start: Option<Instant>,
    /// Engine vs engine paused by Stop.
    pub paused: bool,
    /// `:games N`: games still to finish in this series (0: no series).
    pub games_to_play: u32,
    /// When the series' next game starts (after the delay).
    pub next_game_start: Option<Instant>,
    /// The last hint: shown while its position is on the board.
    pub hint: Option<Hint>,
    /// The draw offer that stands and the engine's run of level or lost scores.
    pub draws: Draws,
    /// A move typed while the engine thinks: played when the engine has moved, if legal.
    pub premove: Option<String>,
    /// The game names its players itself (loaded from a PGN that names them): the
    /// `White`/`Black` headers are not filled from the mode.
    pub keep_players: bool,
    /// The file the last autosave wrote (the game's archive file once it is over).
    pub last_saved: Option<PathBuf>,
}

impl Play {
    pub fn new(mode: Mode, delay: Duration) -> Play {
        Play {
            game: Game::new(),
            clock: None,
            autosave: None,
            autosave_error: None,
            prompt: None,
            mode,
            delay,
            book: Book::builtin(),
            opening: None,
            next_engine_start: None,
            paused: false,
            games_to_play: 0,
            next_game_start: None,
            hint: None,
            draws: Draws::default(),
            premove: None,
            keep_players: false,
            last_saved: None,
        }
    }

    /// Does the engine play `side` in the current mode?
    pub fn engine_plays(&self, side: Color) -> bool {
        match self.mode {
            Mode::HumanWhite => side == Color::Black,
            Mode::HumanBlack => side == Color::White,
            Mode::HumanHuman | Mode::Analysis => false,
            Mode::EngineEngine => true,
        }
    }

    /// The `White` and `Black` headers the mode gives: `name` for a person's side, the
    /// engine's name (with its level) for the engine's. Analysis is one person playing both.
    pub fn players(&self, name: &str, level: Level) -> (String, String) {
        let who = |side| {
            if self.engine_plays(side) {
                engine_player(level)
            } else {
                name.to_string()
            }
        };
        (who(Color::White), who(Color::Black))
    }

    /// Fills the headers a saved game carries (PGN standard 9.6, 9.8.1): the players from
    /// the mode (unless the game names its own), `TimeControl` (`-`: none) and
    /// `Termination` (`normal`, `time forfeit`, `unterminated` while it goes on), so none
    /// of them is ever `?`.
    pub fn stamp_tags(&mut self, name: &str, level: Level) {
        if !self.keep_players {
            let (white, black) = self.players(name, level);
            self.game.tags.white = white;
            self.game.tags.black = black;
        }
        if self.game.time_control.is_none() {
            self.game.tags.set("TimeControl", "-");
        }
        let termination = match self.game.result() {
            None => "unterminated",
            Some(end) if matches!(end.termination, Termination::FlagFall { .. }) => "time forfeit",
            Some(_) => "normal",
        };
        self.game.tags.set("Termination", termination);
    }

    /// Sets (or with `None` removes) the time control; both clocks start full.
    pub fn set_time_control(&mut self, tc: Option<TimeControl>) {
        self.game.time_control = tc;
        self.clock = tc.map(Clock::new);
    }

    /// Writes the game to the data directory. `Some(text)`: a failure not reported before
    /// (a full disk is reported once per cause, not after every move).
    pub fn save(&mut self) -> Option<String> {
        let store = self.autosave.as_ref()?;
        match store.save(&self.game) {
            Ok(path) => {
                self.last_saved = path;
                self.autosave_error = None;
                None
            }
            Err(e) => {
                let text = format!("autosave: {e}");
                if self.autosave_error.as_deref() == Some(text.as_str()) {
                    return None;
                }
                self.autosave_error = Some(text.clone());
                Some(text)
            }
        }
    }
}

/// The engine's name in the PGN headers: `ox88` at full strength, `ox88 (level club)` below.
pub fn engine_player(level: Level) -> String {
    match level {
        Level::Max => "ox88".to_string(),
        _ => format!("ox88 (level {level})"),
    }
}
