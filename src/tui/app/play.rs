//! The game flow: the game on the board, its clock and where it is kept, who plays which
//! side, the engine-vs-engine timers and the last hint. The hub (`App`) decides when the
//! engine moves; this part holds what those decisions read and change.

use std::time::{Duration, Instant};

use super::{Hint, Prompt};
use crate::chess::Color;
use crate::engine::book::Book;
use crate::game::autosave::Autosave;
use crate::game::{Clock, Game, TimeControl};
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
            Ok(_) => {
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
