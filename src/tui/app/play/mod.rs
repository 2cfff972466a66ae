//! The game flow: the game on the board, its clock and where it is kept, who plays which
//! side, the game's record (who played each side, its time control) that its headers are
//! written from, the question that holds the keyboard, and the game set aside while puzzles
//! or a club room use the board. Its sub-parts, each in its own
//! file: the engine-vs-engine timers and series (`series.rs`), the hint and the premove
//! (`assist.rs`), the draw offers (`../draws.rs`). The hub (`App`) decides when the engine
//! moves; this part keeps what those decisions read and changes it only through its
//! methods, so its fields stay consistent (a replaced game brings its own clock, a new one
//! drops the old game's offers, premove and timers).

mod assist;
mod series;

pub use assist::{Assist, Hint};
pub use series::Series;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::draws::Draws;
use crate::chess::{Board, ByColor, Color};
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

/// What was on the board before puzzles or a club room took it, given back as it was.
pub struct SetAside {
    game: Game,
    mode: Mode,
    autosave: Option<Autosave>,
    clock: Option<Clock>,
    movers: ByColor<Option<String>>,
    flipped: bool,
}

/// The game and its flow.
pub struct Play {
    game: Game,
    /// The game's chess clock, when it is played with a time control. It runs only while
    /// the game is in play: never once the game has a result, and never in analysis.
    clock: Option<Clock>,
    /// The time control games are played with (`:tc`, the `tc` setting). A game takes it
    /// while it has no moves; once it has, it keeps its own (`Game::time_control`) and a
    /// change waits for the next game.
    time_control: Option<TimeControl>,
    /// Who plays each side in the game's record: recorded at its first move (a loaded game:
    /// its headers), then the side's latest mover. `None` before the first move: the
    /// headers follow the mode. A move by someone else is noted in the move's comment.
    movers: ByColor<Option<String>>,
    /// Where the game is kept after every move (`None`: not kept, as in tests).
    autosave: Option<Autosave>,
    /// The last autosave error, so a full disk is reported once, not after every move.
    autosave_error: Option<String>,
    /// A question that takes the keyboard until answered.
    prompt: Option<Prompt>,
    mode: Mode,
    /// The built-in opening book (names the opening on the status line).
    book: Book,
    opening: Option<String>,
    /// Engine vs engine: the timers, the pause, the series of games.
    series: Series,
    /// The last hint and a premove.
    assist: Assist,
    /// The draw offer that stands and the engine's run of level or lost scores.
    draws: Draws,
    /// The game names its players itself (loaded from a PGN that names them): which side
    /// is the player's is read from the names, not from the mode.
    keep_players: bool,
    /// The file the last autosave wrote (the game's archive file once it is over).
    last_saved: Option<PathBuf>,
}

impl Play {
    pub fn new(mode: Mode, delay: Duration) -> Play {
        Play {
            game: Game::new(),
            clock: None,
            time_control: None,
            movers: ByColor::default(),
            autosave: None,
            autosave_error: None,
            prompt: None,
            mode,
            book: Book::builtin(),
            opening: None,
            series: Series::new(delay),
            assist: Assist::default(),
            draws: Draws::default(),
            keep_players: false,
            last_saved: None,
        }
    }

    // ---- what the screen and the hub read ----------------------------------------------

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game's chess clock, when it is played with a time control; `None` in analysis,
    /// which has no clock.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref().filter(|_| self.mode != Mode::Analysis)
    }

    /// The time control games are played with (the game on the board may keep another:
    /// `Game::time_control` is the one it is played with).
    pub fn time_control(&self) -> Option<TimeControl> {
        self.time_control
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The opening's name for the position on the board (from the built-in book).
    pub fn opening(&self) -> Option<&str> {
        self.opening.as_deref()
    }

    /// The question that takes the keyboard until answered.
    pub fn prompt(&self) -> Option<&Prompt> {
        self.prompt.as_ref()
    }

    /// The draw offer that stands and the engine's run of level or lost scores.
    pub fn draws(&self) -> &Draws {
        &self.draws
    }

    /// Engine vs engine: the timers, the pause, the series of games.
    pub fn series(&self) -> &Series {
        &self.series
    }

    pub fn series_mut(&mut self) -> &mut Series {
        &mut self.series
    }

    /// The last hint and a premove.
    pub fn assist(&self) -> &Assist {
        &self.assist
    }

    pub fn assist_mut(&mut self) -> &mut Assist {
        &mut self.assist
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

    /// The clock, to charge it for a move (`None` in analysis, which has no clock).
    pub fn clock_mut(&mut self) -> Option<&mut Clock> {
        self.clock.as_mut().filter(|_| self.mode != Mode::Analysis)
    }

    /// Runs the clock of the side to move while the game is in play, and stops it
    /// otherwise: once the game has a result (wherever the board's cursor is, so a review
    /// or a takeback looking back at a finished game leaves it stopped), in analysis, and
    /// once a flag has fallen.
    pub fn run_clock(&mut self, now: Instant) {
        let in_play = self.mode != Mode::Analysis
            && !self.game.is_over()
            && self.game.final_result().is_none();
        let side = self.game.board().side_to_move();
        let Some(clock) = &mut self.clock else {
            return;
        };
        if !in_play {
            clock.stop(now);
        } else if clock.running() != Some(side) && clock.flag(now).is_none() {
            clock.start(side, now);
        }
    }

    /// A move is about to be played at an earlier position of a finished game (a takeback
    /// or a review's position): the game goes on from there, and so does its clock, from
    /// each side's time left at that position (the moves' `[%clk]` readings), not from the
    /// times (or the fallen flag) of the end it replaces. The mover's clock runs from `now`,
    /// so the move is charged and earns its increment as any other.
    pub fn reopen_at_cursor(&mut self, now: Instant) {
        if self.game.at_end() || self.game.final_result().is_none() {
            return;
        }
        self.clock = self.clock_from_record();
        let side = self.game.board().side_to_move();
        if let Some(clock) = self.clock_mut() {
            clock.start(side, now);
        }
    }

    /// A clock for the game's time control with each side's last `[%clk]` reading up to the
    /// board's cursor as its time left; stopped.
    fn clock_from_record(&self) -> Option<Clock> {
        let mut clock = self.game.time_control.map(Clock::new)?;
        for i in 0..self.game.ply() {
            if let Some(left) = self.game.moves()[i].clock {
                clock.set_remaining(self.game.move_number(i).0, left);
            }
        }
        Some(clock)
    }

    /// `game` (loaded or resumed) replaces the one on the board: its clocks are set from
    /// its last `[%clk]` readings, nothing of the old game's flow (timers, offers, a
    /// premove) carries over, and its record stands: the players it names (or, when it
    /// has moves, those its headers give, `?` included) and its time control.
    pub fn replace_game(&mut self, game: Game) {
        self.series.game_replaced();
        self.game = game;
        self.clock = self.clock_from_record();
        self.draws.reset();
        self.assist.take_premove();
        let known = |v: &str| !v.trim().is_empty() && v != "?";
        let tags = &self.game.tags;
        self.keep_players = known(&tags.white) || known(&tags.black);
        self.movers = if self.keep_players || !self.game.is_empty() {
            ByColor::new(Some(tags.white.clone()), Some(tags.black.clone()))
        } else {
            ByColor::default()
        };
        if self.game.is_empty() && self.game.time_control.is_none() {
            self.take_time_control();
        }
    }

    /// A new game from `start` (the initial position when `None`) under the time control
    /// in force (none in analysis), in the same mode; the old game's timers, offers, record
    /// and file are forgotten.
    pub fn begin(&mut self, start: Option<Board>) {
        self.series.game_begun();
        self.game = start.map_or_else(Game::new, Game::from_board);
        self.take_time_control();
        self.draws.reset();
        self.assist.take_premove();
        self.keep_players = false;
        self.movers = ByColor::default();
        self.last_saved = None;
    }

    /// Moves were taken back: a standing offer and a premove lapse, and engine vs engine
    /// pauses so the player can look.
    pub fn took_back(&mut self) {
        self.draws.reset();
        self.assist.take_premove();
        if self.mode == Mode::EngineEngine {
            self.series.pause();
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
            movers: std::mem::take(&mut self.movers),
            flipped,
        }
    }

    /// Two people play on the board (a puzzle, a club room): no premove or offer of the
    /// engine game stands.
    pub fn between_people(&mut self) {
        self.mode = Mode::HumanHuman;
        self.assist.take_premove();
        self.draws.reset();
    }

    /// What `set_aside` took comes back as it was; returns the board's orientation then.
    pub fn restore(&mut self, back: SetAside) -> bool {
        self.game = back.game;
        self.mode = back.mode;
        self.autosave = back.autosave;
        self.clock = back.clock;
        self.movers = back.movers;
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

    /// `:mode` at `now`: who plays changed. The player's side follows the mode again, a
    /// standing offer lapses, and a series of engine games ends unless the engine still
    /// plays both sides. A game without moves takes the time control the mode gives (none
    /// in analysis); a game under way keeps its own, its clock stopped while analysing.
    pub fn choose_mode(&mut self, mode: Mode, now: Instant) {
        self.mode = mode;
        if self.game.is_empty() {
            self.take_time_control();
        } else if mode == Mode::Analysis
            && let Some(clock) = &mut self.clock
        {
            clock.stop(now);
        }
        self.series.resume();
        self.keep_players = false;
        self.draws.lapse();
        if mode != Mode::EngineEngine {
            self.series.end();
        }
    }

    /// The engine takes over the side to move (Ctrl+G against the engine on the player's
    /// turn): the player now has `mode`'s side.
    pub fn swap_sides(&mut self, mode: Mode) {
        self.mode = mode;
        self.keep_players = false;
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

    // ---- the prompt, the draw offer ---------------------------------------------------------

    /// `prompt` takes the keyboard until answered.
    pub fn ask(&mut self, prompt: Prompt) {
        self.prompt = Some(prompt);
    }

    /// The question being answered (put back with `ask` when the key was no answer).
    pub fn take_prompt(&mut self) -> Option<Prompt> {
        self.prompt.take()
    }

    /// The draw offers and the engine's runs of scores, to record an offer or a search.
    pub fn draws_mut(&mut self) -> &mut Draws {
        &mut self.draws
    }

    // ---- engine vs engine: the series ----------------------------------------------------

    /// `:games N`: the engine plays both sides for `n` games; the next starts at once when
    /// the current one is over. Returns whether the mode changed to engine vs engine.
    pub fn start_series(&mut self, n: u32, now: Instant) -> bool {
        let changed = self.mode != Mode::EngineEngine;
        if changed {
            self.mode = Mode::EngineEngine;
            self.series.resume();
        }
        self.series.start(n, self.game.is_over().then_some(now));
        changed
    }

    /// A game of the series ended at `now`: the next is scheduled after the delay. Returns
    /// `true` when the series is over with it (or cannot go on outside engine vs engine).
    pub fn series_game_over(&mut self, now: Instant) -> bool {
        let going_on = self.mode == Mode::EngineEngine;
        self.series.game_over(now, going_on)
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
    /// engine's name (with its level) for the engine's, `?` for both in analysis (moves
    /// entered to look at them are nobody's game).
    pub fn players(&self, name: &str, level: Level) -> (String, String) {
        let who = |side| {
            if self.engine_plays(side) {
                engine_player(level)
            } else {
                self.person(name)
            }
        };
        (who(Color::White), who(Color::Black))
    }

    /// Who a person's move is by in the headers: `name`, or `?` in analysis.
    fn person(&self, name: &str) -> String {
        if self.mode == Mode::Analysis {
            ANALYSIS_PLAYER.to_string()
        } else {
            name.to_string()
        }
    }

    /// The game's record after a move of `side`, made by the engine (at `level`) or by a
    /// person (`name`). The game's first move records both players in the headers: its
    /// mover, and the other side's as the mode gives it then (a first move made in
    /// analysis also names the event `Analysis`). A later move by someone other than the
    /// side's last mover (another mode, another level) is noted in that move's comment, so
    /// the headers keep who began the game and the moves say who went on with it.
    pub fn record_move(&mut self, side: Color, by_engine: bool, name: &str, level: Level) {
        let player = if by_engine {
            engine_player(level)
        } else {
            self.person(name)
        };
        if self.movers.get(Color::White).is_none() && self.movers.get(Color::Black).is_none() {
            // The game's first move: both sides' players are recorded, the other side's as
            // the mode has it now.
            let (white, black) = self.players(name, level);
            let other = if side == Color::White { black } else { white };
            self.game.tags.set(side.flip().name(), &other);
            *self.movers.get_mut(side.flip()) = Some(other);
            if self.mode == Mode::Analysis
                && self.game.tags.event == crate::game::Tags::default().event
            {
                self.game.tags.event = "Analysis".to_string();
            }
        }
        let note = match self.movers.get(side) {
            None => {
                self.game.tags.set(side.name(), &player);
                None
            }
            Some(last) if *last == player => None,
            Some(_) if player == ANALYSIS_PLAYER => {
                Some("entered in analysis from this move".to_string())
            }
            Some(_) => Some(format!("{player} plays {} from this move", side.name())),
        };
        *self.movers.get_mut(side) = Some(player);
        if let Some(note) = note
            && let Some(index) = self.game.ply().checked_sub(1)
        {
            let mut notes = self.game.moves()[index].annotations.clone();
            notes.comment = Some(match notes.comment.take() {
                Some(c) => format!("{c} {note}"),
                None => note,
            });
            // A comment alone: the move's variations were legal when set.
            let _ = self.game.set_annotations(index, notes);
        }
    }

    /// The game names its own players (a loaded or resumed game): they are not the mode's.
    pub fn names_its_players(&self) -> bool {
        self.keep_players
    }

    /// Fills the headers a saved game carries (PGN standard 9.6, 9.8.1) from the game's
    /// record: the players recorded at the game's first move (before it: those the mode
    /// gives, `name` and the engine at `level`), `TimeControl` (the one
    /// the game is played with; `-`: none) and `Termination` (`normal`, `time forfeit`,
    /// `unterminated` while it goes on), so none of them is `?` outside analysis. The
    /// settings in force when the file is written change nothing the game has recorded.
    pub fn stamp_tags(&mut self, name: &str, level: Level) {
        let (white, black) = self.players(name, level);
        if self.movers.get(Color::White).is_none() {
            self.game.tags.white = white;
        }
        if self.movers.get(Color::Black).is_none() {
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

    /// Sets (or with `None` removes) the time control games are played with. A game
    /// without moves takes it at once (none in analysis), both clocks full; returns whether
    /// it did. A game under way keeps its own: the change is for the next game.
    pub fn set_time_control(&mut self, tc: Option<TimeControl>) -> bool {
        self.time_control = tc;
        if !self.game.is_empty() {
            return false;
        }
        self.take_time_control();
        true
    }

    /// The game (without moves) takes the time control in force, or none in analysis.
    fn take_time_control(&mut self) {
        let tc = self.time_control.filter(|_| self.mode != Mode::Analysis);
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

/// The player the headers name for moves entered in analysis (PGN's unknown).
const ANALYSIS_PLAYER: &str = "?";

/// The engine's name in the PGN headers: `ox88` at full strength, `ox88 (level club)` below.
pub fn engine_player(level: Level) -> String {
    match level {
        Level::Max => "ox88".to_string(),
        _ => format!("ox88 (level {level})"),
    }
}
