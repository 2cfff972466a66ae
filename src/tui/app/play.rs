//! The game flow: the game on the board, its clock and where it is kept, who plays which
//! side, the engine-vs-engine timers and series, the last hint, a premove, the question that
//! holds the keyboard, and the game set aside while puzzles or a club room use the board.
//! The hub (`App`) decides when the engine moves; this part keeps what those decisions read
//! and changes it only through its methods, so its fields stay consistent (a replaced game
//! brings its own clock, a new one drops the old game's offers and timers).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::draws::Draws;
use crate::chess::{Board, Color, Move};
use crate::engine::book::Book;
use crate::engine::levels::Level;
use crate::game::autosave::Autosave;
use crate::game::{Clock, Game, Termination, TimeControl};
use crate::tui::Mode;

/// A question that takes the keyboard until answered.
#[derive(Clone, Debug)]
pub enum Prompt {
    /// An unfinished game was found in the data directory: resume it (y) or set it aside (n).
    Resume(Box<Game>),
}

/// The engine's suggestion for the position `hash`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub hash: u64,
    pub mv: Move,
    pub san: String,
}

/// What was on the board before puzzles or a club room took it, given back as it was.
pub struct SetAside {
    game: Game,
    mode: Mode,
    autosave: Option<Autosave>,
    clock: Option<Clock>,
    flipped: bool,
}

/// The game and its flow.
pub struct Play {
    game: Game,
    /// The chess clock, when a time control is set.
    clock: Option<Clock>,
    /// Where the game is kept after every move (`None`: not kept, as in tests).
    autosave: Option<Autosave>,
    /// The last autosave error, so a full disk is reported once, not after every move.
    autosave_error: Option<String>,
    /// A question that takes the keyboard until answered.
    prompt: Option<Prompt>,
    mode: Mode,
    /// Engine vs engine: the pause between moves and between games.
    delay: Duration,
    /// The built-in opening book (names the opening on the status line).
    book: Book,
    opening: Option<String>,
    /// Engine vs engine waits for this moment before the next search.
    next_engine_start: Option<Instant>,
    /// Engine vs engine paused by Stop.
    paused: bool,
    /// `:games N`: games still to finish in this series (0: no series).
    games_to_play: u32,
    /// When the series' next game starts (after the delay).
    next_game_start: Option<Instant>,
    /// The last hint: shown while its position is on the board.
    hint: Option<Hint>,
    /// The draw offer that stands and the engine's run of level or lost scores.
    draws: Draws,
    /// A move typed while the engine thinks: played when the engine has moved, if legal.
    premove: Option<String>,
    /// The game names its players itself (loaded from a PGN that names them): the
    /// `White`/`Black` headers are not filled from the mode.
    keep_players: bool,
    /// The file the last autosave wrote (the game's archive file once it is over).
    last_saved: Option<PathBuf>,
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

    // ---- what the screen and the hub read ----------------------------------------------

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The chess clock, when a time control is set.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Engine vs engine: the pause between moves and between games.
    pub fn delay(&self) -> Duration {
        self.delay
    }

    /// The opening's name for the position on the board (from the built-in book).
    pub fn opening(&self) -> Option<&str> {
        self.opening.as_deref()
    }

    /// The question that takes the keyboard until answered.
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }

    /// When engine vs engine starts its next search (after the delay).
    pub fn next_engine_start(&self) -> Option<Instant> {
        self.next_engine_start
    }

    /// When the series' next game starts (after the delay).
    pub fn next_game_start(&self) -> Option<Instant> {
        self.next_game_start
    }

    /// Engine vs engine paused by Stop (or while a review looks at the game).
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// `:games N`: games still to finish in this series (0: no series).
    pub fn games_to_play(&self) -> u32 {
        self.games_to_play
    }

    /// The last hint (shown while its position is on the board).
    pub fn hint(&self) -> Option<&Hint> {
        self.hint.as_ref()
    }

    /// The draw offer that stands and the engine's run of level or lost scores.
    pub fn draws(&self) -> &Draws {
        &self.draws
    }

    /// A move typed while the engine thinks.
    pub fn premove(&self) -> Option<&str> {
        self.premove.as_deref()
    }

    /// The file the last autosave wrote (the game's archive file once it is over).
    pub fn last_saved(&self) -> Option<&Path> {
        self.last_saved.as_deref()
    }

    /// Where the game is kept after every move (`None`: not kept, as in tests).
    pub fn autosave(&self) -> Option<&Autosave> {
        self.autosave.as_ref()
    }

    // ---- the game ------------------------------------------------------------------------

    /// The game, for its own operations (moves, take-backs, results, annotations), which
    /// keep the game's invariants; replacing it goes through `replace_game` or `begin`.
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The clock, to start, stop or charge it.
    pub fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.clock.as_mut()
    }

    /// `game` (loaded or resumed) replaces the one on the board: its clocks are set from
    /// its last `[%clk]` readings, nothing of the old game's flow (timers, offers, a
    /// premove) carries over, and a game that names its players keeps them.
    pub fn replace_game(&mut self, game: Game) {
        self.next_engine_start = None;
        self.paused = false;
        self.game = game;
        self.clock = self.game.time_control.map(Clock::new);
        if let Some(clock) = &mut self.clock {
            // The last [%clk] reading of each side is its time left.
            for i in 0..self.game.ply() {
                if let Some(left) = self.game.moves()[i].clock {
                    clock.set_remaining(self.game.move_number(i).0, left);
                }
            }
        }
        self.draws.reset();
        self.premove = None;
        let known = |v: &str| !v.trim().is_empty() && v != "?";
        let tags = &self.game.tags;
        self.keep_players = known(&tags.white) || known(&tags.black);
    }

    /// A new game from `start` (the initial position when `None`) under the same time
    /// control, in the same mode; the old game's timers, offers and file are forgotten.
    pub fn begin(&mut self, start: Option<Board>) {
        self.next_engine_start = None;
        self.next_game_start = None;
        self.paused = false;
        let tc = self.game.time_control;
        self.game = start.map_or_else(Game::new, Game::from_board);
        self.set_time_control(tc);
        self.draws.reset();
        self.premove = None;
        self.keep_players = false;
        self.last_saved = None;
    }

    /// Moves were taken back: a standing offer and a premove lapse, and engine vs engine
    /// pauses so the player can look.
    pub fn took_back(&mut self) {
        self.draws.reset();
        self.premove = None;
        if self.mode == Mode::EngineEngine {
            self.paused = true;
        }
    }

    /// The game, its mode, autosave and clock leave the board for a while (puzzles, a club
    /// room), with `flipped`, the board's orientation to give back with them. The board is
    /// left with an empty game and no clock.
    pub fn set_aside(&mut self, flipped: bool) -> SetAside {
        SetAside {
            game: std::mem::take(&mut self.game),
            mode: self.mode,
            autosave: self.autosave.take(),
            clock: self.clock.take(),
            flipped,
        }
    }

    /// Two people play on the board (a puzzle, a club room): no premove or offer of the
    /// engine game stands.
    pub fn between_people(&mut self) {
        self.mode = Mode::HumanHuman;
        self.premove = None;
        self.draws.reset();
    }

    /// What `set_aside` took comes back as it was; returns the board's orientation then.
    pub fn restore(&mut self, back: SetAside) -> bool {
        self.game = back.game;
        self.mode = back.mode;
        self.autosave = back.autosave;
        self.clock = back.clock;
        back.flipped
    }

    /// A game from elsewhere (a puzzle's, a club room's) takes the board, played in `mode`.
    pub fn show(&mut self, game: Game, mode: Mode) {
        self.game = game;
        self.mode = mode;
    }

    /// Who plays which side now (a club room's engine pane, a seat taken).
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    /// `:mode`: who plays changed, so the headers follow the mode again, a standing offer
    /// lapses, and a series of engine games ends unless the engine still plays both sides.
    pub fn choose_mode(&mut self, mode: Mode) {
        self.mode = mode;
        self.paused = false;
        self.keep_players = false;
        self.draws.lapse();
        if mode != Mode::EngineEngine {
            self.games_to_play = 0;
            self.next_game_start = None;
        }
    }

    /// The engine takes over the side to move (Ctrl+G against the engine on the player's
    /// turn): the player now has `mode`'s side, and the headers follow the mode again.
    pub fn swap_sides(&mut self, mode: Mode) {
        self.mode = mode;
        self.keep_players = false;
    }

    pub fn set_delay(&mut self, delay: Duration) {
        self.delay = delay;
    }

    /// Keeps the game in `store` after every move (`None`: not kept).
    pub fn set_autosave(&mut self, store: Option<Autosave>) {
        self.autosave = store;
    }

    /// The game was archived to `path` by hand (the series' or a new game's keeping).
    pub fn set_last_saved(&mut self, path: Option<PathBuf>) {
        self.last_saved = path;
    }

    /// The opening's name follows the position on the board.
    pub fn refresh_opening(&mut self) {
        self.opening = self.book.opening_name(self.game.board());
    }

    // ---- the prompt, the hint, the premove, the draw offer --------------------------------

    /// `prompt` takes the keyboard until answered.
    pub fn ask(&mut self, prompt: Prompt) {
        self.prompt = Some(prompt);
    }

    /// The question being answered (put back with `ask` when the key was no answer).
    pub fn take_prompt(&mut self) -> Option<Prompt> {
        self.prompt.take()
    }

    pub fn set_hint(&mut self, hint: Hint) {
        self.hint = Some(hint);
    }

    /// The last hint, once: the next human move's comment names it.
    pub fn take_hint(&mut self) -> Option<Hint> {
        self.hint.take()
    }

    /// Keeps `text` to play when the engine has moved; returns the premove it replaced.
    pub fn set_premove(&mut self, text: String) -> Option<String> {
        self.premove.replace(text)
    }

    pub fn take_premove(&mut self) -> Option<String> {
        self.premove.take()
    }

    /// The draw offers and the engine's runs of scores, to record an offer or a search.
    pub fn draws_mut(&mut self) -> &mut Draws {
        &mut self.draws
    }

    // ---- engine vs engine: timers, pauses and series ---------------------------------------

    /// The engine's next search starts after the delay (engine vs engine).
    pub fn schedule_engine_start(&mut self, now: Instant) {
        self.next_engine_start = Some(now + self.delay);
    }

    /// A search starts now: no pending start stands.
    pub fn engine_started(&mut self) {
        self.next_engine_start = None;
    }

    /// Whether the pending engine start is due at `now` (then it is cleared).
    pub fn engine_start_due(&mut self, now: Instant) -> bool {
        match self.next_engine_start {
            Some(t) if now >= t => {
                self.next_engine_start = None;
                true
            }
            _ => false,
        }
    }

    /// Whether the series' next game is due at `now` (then it is cleared).
    pub fn next_game_due(&mut self, now: Instant) -> bool {
        match self.next_game_start {
            Some(t) if now >= t => {
                self.next_game_start = None;
                true
            }
            _ => false,
        }
    }

    /// Drops a pending engine start, else a pending next game; whether one was pending.
    pub fn cancel_pending(&mut self) -> bool {
        self.next_engine_start.take().is_some() || self.next_game_start.take().is_some()
    }

    pub fn pause(&mut self) {
        self.paused = true;
    }

    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// `:games N`: the engine plays both sides for `n` games; the next starts at once when
    /// the current one is over. Returns whether the mode changed to engine vs engine.
    pub fn start_series(&mut self, n: u32, now: Instant) -> bool {
        self.games_to_play = n;
        let changed = self.mode != Mode::EngineEngine;
        if changed {
            self.mode = Mode::EngineEngine;
            self.paused = false;
        }
        if self.game.is_over() {
            self.next_game_start = Some(now);
        }
        changed
    }

    /// A game of the series ended at `now`: the next is scheduled after the delay. Returns
    /// `true` when the series is over with it (or cannot go on outside engine vs engine).
    pub fn series_game_over(&mut self, now: Instant) -> bool {
        if self.games_to_play == 0 {
            return false;
        }
        self.games_to_play -= 1;
        if self.games_to_play > 0 && self.mode == Mode::EngineEngine {
            self.next_game_start = Some(now + self.delay);
            false
        } else {
            self.games_to_play = 0;
            true
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

    /// The game names its own players (a loaded or resumed game): they are not the mode's.
    pub fn names_its_players(&self) -> bool {
        self.keep_players
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
