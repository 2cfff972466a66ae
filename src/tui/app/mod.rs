//! The TUI's state and everything that changes it. No drawing here (that is `ui`), no
//! terminal and no threads: keys, pasted text, engine events and timer ticks come in as
//! method calls, so the whole application runs the same under a test, in a terminal or on
//! an SSH channel. A driver does: `handle_key`/`handle_paste`, `on_engine_event`, `on_tick`
//! (when `next_wakeup` says), and per frame `resize(area)` then `ui::draw(frame, &app)`,
//! which only reads. Nothing here waits for the engine.
//!
//! How a move travels (ARCHITECTURE.md): Enter parses the text against the position; an
//! error leaves the game and the text untouched and says why on the status line; a legal
//! move is played on the `Game`, logged with its static E and saved; if the engine is to
//! move it gets a copy of the position and answers later through `on_engine_event`, tagged
//! with the id `go` returned. Events of an id we no longer wait for are dropped.

mod board_keys;
mod browse;
pub mod club;
mod club_flow;
pub mod command;
mod cursor;
mod draws;
pub mod evalview;
mod execute;
pub mod explorer;
pub mod input;
pub mod lab;
pub mod log;
mod notice;
mod play;
mod prefs;
mod puzzle_flow;
mod puzzles;
pub mod review;
mod screen;
pub mod session;
pub mod sort;
pub mod text;
mod turns;
mod views;

pub use notice::{JobEvent, JobSink};
pub use play::Play;
pub use prefs::{Prefs, TableSet};
pub use screen::Screen;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;

use super::keys::{self, Action};
use super::layout;
use super::theme::{self, ColorDepth, PieceStyle, Theme};
use super::{Mode, Options};
use crate::chess::{Board, Color, Move, PieceKind, Square};
use crate::engine::eval;
use crate::engine::levels::Level;
use crate::engine::search::Profile;
use crate::engine::{IterationInfo, Limits, SearchEvent, SearchOptions};
use crate::game::autosave::Autosave;
use crate::game::{Clock, EngineNote, Game, GameEnd, GameError, TimeControl};
pub use command::{CommandError, MAX_DEPTH};
pub use execute::confined_pgn_path;
pub use input::InputLine;
pub use log::{LOG_CAP, LogBuffer, LogKind, LogLine};
pub use session::{Accepted, EngineControl, EngineState, OnBest, RunningSearch, Session};
pub use sort::SortView;
pub use text::{bounded_score, clock_time, e_text, iteration_line, search_time, thousands};

/// The panes that can have the keyboard focus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pane {
    Input,
    Log,
    Sort,
    /// The tree browser (it takes the log's and the sort pane's place while open).
    Tree,
}

impl Pane {
    fn next(self) -> Pane {
        match self {
            Pane::Input => Pane::Log,
            Pane::Log => Pane::Sort,
            Pane::Sort | Pane::Tree => Pane::Input,
        }
    }
    fn prev(self) -> Pane {
        match self {
            Pane::Input => Pane::Sort,
            Pane::Log => Pane::Input,
            Pane::Sort => Pane::Log,
            Pane::Tree => Pane::Input,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MessageKind {
    Info,
    Error,
    /// A question waiting for an answer (the resume prompt).
    Question,
}

/// The last message, shown on the status line until the next one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub kind: MessageKind,
    pub text: String,
}

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

/// Who played a move and why: the log line and the PGN comment say it.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveSource {
    /// Typed on the input line.
    Human,
    /// The engine's search chose it; its deepest finished iteration.
    Searched(Box<IterationInfo>),
    /// The engine played it from its opening book (the opening's name).
    Book(String),
    /// The engine's answer from a search stopped before its first iteration finished.
    EngineUnsearched,
}

impl MoveSource {
    fn by_engine(&self) -> bool {
        !matches!(self, MoveSource::Human)
    }
}

/// The whole application state: a hub of parts, each owning its state and methods — the
/// engine session, the game flow, the settings, the screen, the input line, the log, the
/// sort view, the tree browser, the lab and the review. The hub routes keys, events and
/// ticks between them. Drawing reads it through the accessors below and never writes.
pub struct App {
    session: Session,
    play: Play,
    prefs: Prefs,
    screen: Screen,
    input: InputLine,
    log: LogBuffer,
    sort: SortView,
    explorer: explorer::Explorer,
    lab: lab::LabView,
    review: review::ReviewView,
    puzzles: puzzles::Puzzles,
    /// An earlier position of the game on show (← / →), the game itself untouched.
    browse: browse::Browse,
    /// The board cursor: moves chosen with the arrows and Enter.
    cursor: cursor::BoardCursor,
    /// Where background jobs report (the driver's channel, or the app's own queue).
    jobs: notice::Jobs,
    /// The club, for a viewer under `ox88 serve`: the lobby, the room, the chat.
    club: club::ClubView,
}

pub use screen::FRAME;

/// Finishes an `App`: the look, where games are kept and files go, the log's clock. The
/// server and the tests configure an app only through these, never by its fields.
pub struct AppBuilder {
    app: App,
    fen: Option<String>,
    tc: Option<String>,
}

impl AppBuilder {
    /// The theme and the colours the terminal takes (a theme of ASCII pieces turns ASCII on).
    pub fn theme(mut self, theme: Theme, color_depth: ColorDepth) -> AppBuilder {
        let prefs = &mut self.app.prefs;
        prefs.settings.ascii |= theme.pieces == PieceStyle::Ascii;
        prefs.theme = theme;
        prefs.color_depth = color_depth;
        self
    }

    /// Keeps the game in `store` after every move.
    pub fn autosave(mut self, store: Option<Autosave>) -> AppBuilder {
        self.app.play.autosave = store;
        self
    }

    /// `:save` and `:load` take bare file names inside `dir` only.
    pub fn file_root(mut self, dir: PathBuf) -> AppBuilder {
        self.app.prefs.file_root = Some(dir);
        self
    }

    /// Where user themes are looked up (`None`: the built-in themes only).
    pub fn user_theme_dir(mut self, dir: Option<PathBuf>) -> AppBuilder {
        self.app.prefs.user_theme_dir = dir;
        self
    }

    /// The search profile of the engine's searches.
    pub fn profile(mut self, profile: Profile) -> AppBuilder {
        self.app.prefs.profile = profile;
        self
    }

    /// Background jobs report into `sink` (the driver's event channel), not the app's own
    /// queue.
    pub fn jobs(mut self, sink: JobSink) -> AppBuilder {
        self.app.jobs = notice::Jobs::into_sink(sink);
        self
    }

    /// A viewer of the club (under `ox88 serve`): the app starts in the lobby, or in room
    /// `room` when the ssh command named one (a bad name is said, and the lobby shown).
    pub fn club(mut self, viewer: crate::club::Viewer, room: Option<&str>) -> AppBuilder {
        let joined = room.map(|r| viewer.join(r));
        self.app.club = club::ClubView::new(viewer);
        if let Some(Err(e)) = joined {
            self.app.error(format!("{e}: the lobby instead"));
        }
        self
    }

    /// The log's time stamps (tests use a fixed clock so lines compare exactly).
    pub fn wall_clock(mut self, clock: fn() -> String) -> AppBuilder {
        self.app.screen.wall_clock = clock;
        self
    }

    /// The app, started: the greeting logged, the position and clock set, the engine asked
    /// to move if it is its turn.
    pub fn build(mut self) -> App {
        let (fen, tc) = (self.fen.take(), self.tc.take());
        self.app.start(fen, tc);
        // A viewer who came in with a room (or a seat to go back to) starts there.
        self.app.on_club_change();
        self.app
    }
}

impl App {
    pub fn new(
        opts: &Options,
        engine: Box<dyn EngineControl>,
        theme: Theme,
        color_depth: ColorDepth,
    ) -> App {
        App::builder(opts, engine).theme(theme, color_depth).build()
    }

    /// An app from the settings `opts` and an engine, to be finished with the builder's
    /// setters (theme, autosave, file root, ...) and `build`.
    pub fn builder(opts: &Options, engine: Box<dyn EngineControl>) -> AppBuilder {
        let mut settings = opts.settings.clone();
        settings.depth = settings.depth.clamp(1, MAX_DEPTH);
        let mut explorer = explorer::Explorer::default();
        explorer.recording = settings.explorer;
        let app = App {
            session: Session::new(engine),
            play: Play::new(opts.mode, Duration::from_millis(opts.delay_ms)),
            prefs: Prefs {
                keys: settings.key_table(keys::DEFAULT_KEYS),
                settings,
                multipv: 1,
                profile: Profile::default(),
                config: None,
                theme: Theme::default(),
                color_depth: ColorDepth::TrueColor,
                user_theme_dir: theme::user_theme_dir(),
                file_root: None,
                tables: prefs::TableSet::default(),
            },
            screen: Screen::new(
                opts.mode == Mode::HumanBlack,
                Rect::new(0, 0, layout::MIN_WIDTH, layout::MIN_HEIGHT),
            ),
            input: InputLine::default(),
            log: LogBuffer::default(),
            sort: SortView::default(),
            explorer,
            lab: lab::LabView::default(),
            review: review::ReviewView::default(),
            puzzles: puzzles::Puzzles::from_file(opts.puzzles.clone()),
            browse: browse::Browse::default(),
            cursor: cursor::BoardCursor::default(),
            jobs: notice::Jobs::own_queue(),
            club: club::ClubView::default(),
        };
        AppBuilder {
            app,
            fen: opts.fen.clone(),
            tc: opts.settings.tc.clone(),
        }
    }

    fn start(&mut self, fen: Option<String>, tc: Option<String>) {
        self.log_line(
            LogKind::Info,
            format!(
                "ox88 {} — F1: keys, :help: commands",
                env!("CARGO_PKG_VERSION")
            ),
        );
        if let Some(fen) = &fen {
            match Game::from_fen(fen) {
                Ok(g) => {
                    self.play.game = g;
                    self.log_line(LogKind::Info, format!("position {fen}"));
                }
                Err(e) => self.error(format!("--fen: {e}; starting from the initial position")),
            }
        }
        if let Some(tc) = &tc {
            match tc.parse::<TimeControl>() {
                Ok(tc) => self.set_time_control(Some(tc)),
                Err(e) => self.error(format!("--tc: {e}")),
            }
        }
        self.open_tables();
        self.load_puzzle_record();
        self.resize(self.screen.area);
        self.position_changed();
    }

    /// The terminal's size changed (or is about to be drawn): the log is re-wrapped for the
    /// new width (once per width) and page sizes follow. Call before drawing.
    pub fn resize(&mut self, area: Rect) {
        self.screen.area = area;
        let log_width = layout::log_text_width(layout::layout(area).log);
        self.log.set_wrap_width(log_width);
        // A narrower screen may cut the message on show: the log gets it whole.
        self.keep_message_whole();
    }

    /// Rows of the log pane on screen.
    fn log_rows(&self) -> usize {
        layout::log_rows(layout::layout(self.screen.area).log)
    }

    /// Rows of the sort pane's lists on screen.
    fn sort_rows(&self) -> usize {
        layout::sort_list_rows(
            layout::layout(self.screen.area).sort,
            self.sort.header_lines(),
        )
    }

    /// Rows of the tree browser's child list on screen.
    fn tree_rows(&self) -> usize {
        layout::tree_list_rows(layout::layout(self.screen.area).right)
    }

    // ---- messages and log --------------------------------------------------------------

    /// Adds a line to the log, stamped with the wall clock.
    pub fn log_line(&mut self, kind: LogKind, text: impl Into<String>) {
        let text = self.private_paths(text.into());
        self.log.push(LogLine {
            stamp: (self.screen.wall_clock)(),
            kind,
            text,
        });
    }

    /// A message for the status line (in the log too when the line cannot show it whole).
    pub fn info(&mut self, text: impl Into<String>) {
        self.say(MessageKind::Info, text.into());
    }

    /// A message saying what went wrong: on the status line, and always in the log.
    pub fn error(&mut self, text: impl Into<String>) {
        self.say(MessageKind::Error, text.into());
    }

    fn say(&mut self, kind: MessageKind, text: String) {
        let text = self.private_paths(text);
        self.screen.message = Some(Message { kind, text });
        self.keep_message_whole();
    }

    /// The status line shows what fits of a message and ends a cut one with `… (see log)`:
    /// such a message goes into the log whole, once, and so does every error (a refused
    /// command stays on record after the next message replaces it).
    fn keep_message_whole(&mut self) {
        let Some(m) = &self.screen.message else {
            return;
        };
        let cut = text::text_width(&m.text) > usize::from(self.screen.area.width);
        if !(cut || m.kind == MessageKind::Error)
            || self.screen.message_logged.as_deref() == Some(m.text.as_str())
        {
            return;
        }
        let kind = if m.kind == MessageKind::Error {
            LogKind::Error
        } else {
            LogKind::Info
        };
        let text = m.text.clone();
        self.screen.message_logged = Some(text.clone());
        // Said already (the caller logged it, as a failed autosave does).
        if self.log.lines().rev().take(3).any(|l| l.text == text) {
            return;
        }
        self.log_line(kind, text);
    }

    /// With a file root (a visitor over SSH) the server's own directories never reach the
    /// screen: a path under the visitor's directory (the file root's parent) is written
    /// relative to it.
    fn private_paths(&self, text: String) -> String {
        let Some(home) = self
            .prefs
            .file_root
            .as_deref()
            .and_then(std::path::Path::parent)
        else {
            return text;
        };
        let home = home.display().to_string();
        if home.is_empty() || !text.contains(&home) {
            return text;
        }
        text.replace(&format!("{home}{}", std::path::MAIN_SEPARATOR), "")
            .replace(&home, ".")
    }

    // ---- what drawing and the drivers read ------------------------------------------------

    pub fn game(&self) -> &Game {
        &self.play.game
    }

    /// The game flow: mode, clock, autosave, timers, the opening's name.
    pub fn play(&self) -> &Play {
        &self.play
    }

    /// The session's settings.
    pub fn prefs(&self) -> &Prefs {
        &self.prefs
    }

    /// Focus, views, the message, the board's orientation.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    pub fn theme(&self) -> &Theme {
        &self.prefs.theme
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn input(&self) -> &InputLine {
        &self.input
    }

    pub fn log_buffer(&self) -> &LogBuffer {
        &self.log
    }

    /// The sort pane's lists: the game's, or the earlier position's on show.
    pub fn sort(&self) -> &SortView {
        self.browse.sort().unwrap_or(&self.sort)
    }

    pub fn explorer(&self) -> &explorer::Explorer {
        &self.explorer
    }

    pub fn lab(&self) -> &lab::LabView {
        &self.lab
    }

    pub fn review(&self) -> &review::ReviewView {
        &self.review
    }

    /// The status line's message.
    pub fn message(&self) -> Option<&Message> {
        self.screen.message.as_ref()
    }

    /// The user asked to leave (a driver ends its loop).
    pub fn quit_requested(&self) -> bool {
        self.screen.quit
    }

    /// Ends the session at the next turn of the loop (a signal, a closed channel).
    pub fn request_quit(&mut self) {
        self.screen.quit = true;
    }

    // ---- the game ------------------------------------------------------------------------

    pub fn board(&self) -> &Board {
        self.play.game.board()
    }

    pub fn side_to_move(&self) -> Color {
        self.play.game.board().side_to_move()
    }

    /// Does the engine play `side` in the current mode?
    pub fn engine_plays(&self, side: Color) -> bool {
        self.play.engine_plays(side)
    }

    /// Writes the game to the data directory (after every change, so a dropped connection
    /// or a kill loses nothing already shown). Failures are reported once per cause.
    fn save(&mut self) {
        self.play
            .stamp_tags(&self.prefs.settings.name, self.prefs.settings.level);
        if let Some(text) = self.play.save() {
            self.log_line(LogKind::Error, text.clone());
            self.error(text);
        }
    }

    /// Sets (or with `None` removes) the time control; both clocks start full.
    pub fn set_time_control(&mut self, tc: Option<TimeControl>) {
        self.play.set_time_control(tc);
    }

    /// Makes `game` the current game (loaded, resumed): the engine forgets the old one, the
    /// clocks are set from the game's last `[%clk]` readings.
    pub fn set_game(&mut self, game: Game, how: &str) {
        self.session.new_game();
        self.play.next_engine_start = None;
        self.play.paused = false;
        self.play.game = game;
        self.play.clock = self.play.game.time_control.map(Clock::new);
        if let Some(clock) = &mut self.play.clock {
            // The last [%clk] reading of each side is its time left.
            for i in 0..self.play.game.ply() {
                if let Some(left) = self.play.game.moves()[i].clock {
                    clock.set_remaining(self.play.game.move_number(i).0, left);
                }
            }
        }
        let n = self.play.game.ply();
        self.log_line(
            LogKind::Info,
            format!("{how}: {n} moves, {}", self.play.game.fen()),
        );
        self.info(format!("{how} ({n} moves)"));
        self.session.state = EngineState::Idle;
        self.play.draws.reset();
        self.play.premove = None;
        // A game that names its players keeps them; one that does not gets the mode's.
        let known = |v: &str| !v.trim().is_empty() && v != "?";
        let tags = &self.play.game.tags;
        self.play.keep_players = known(&tags.white) || known(&tags.black);
        self.position_changed();
        self.save();
    }

    /// Offers an unfinished game for resuming: the next key answers (y/n).
    pub fn offer_resume(&mut self, game: Game) {
        let n = game.len();
        let date = game.tags.date.clone();
        self.screen.message = Some(Message {
            kind: MessageKind::Question,
            // The keys first: a narrow line still shows them.
            text: format!("Unfinished game: y resumes it, n sets it aside ({n} moves, {date})"),
        });
        self.play.prompt = Some(Prompt::Resume(Box::new(game)));
        // Nothing may move (and be saved over the unfinished game) before the answer.
        self.cancel_search();
    }

    fn answer_prompt(&mut self, key: KeyEvent) {
        let Some(Prompt::Resume(game)) = self.play.prompt.take() else {
            return;
        };
        match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                self.set_game(*game, "resumed");
                // A club viewer goes on with the engine game rather than the lobby.
                self.club.play_engine();
            }
            KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                self.screen.message = None;
                let aside = self.play.autosave.as_ref().map(Autosave::set_aside);
                match aside {
                    Some(Ok(Some(path))) => {
                        self.info(format!("the unfinished game is kept in {}", path.display()))
                    }
                    Some(Err(e)) => self.error(format!("autosave: {e}")),
                    _ => {}
                }
                self.position_changed();
            }
            _ => self.play.prompt = Some(Prompt::Resume(game)),
        }
    }

    /// Announces a result in the log and on the status line and stops everything.
    fn announce(&mut self, end: GameEnd) {
        self.log_line(
            LogKind::Result,
            format!("{} {}", end.result(), end.reason()),
        );
        self.info(format!("game over: {} {}", end.result(), end.reason()));
        self.cancel_search();
        if let Some(c) = &mut self.play.clock {
            c.stop(Instant::now());
        }
        if self.play.games_to_play > 0 {
            self.play.games_to_play -= 1;
            if self.play.games_to_play > 0 && self.play.mode == Mode::EngineEngine {
                self.play.next_game_start = Some(Instant::now() + self.play.delay);
            } else {
                self.log_line(LogKind::Info, "the series of games is over");
                self.play.games_to_play = 0;
            }
        }
    }

    // ---- the engine ----------------------------------------------------------------------

    fn search_options(&self, analysis: bool) -> SearchOptions {
        SearchOptions {
            eval: self.prefs.eval(),
            scheme: self.prefs.settings.order,
            report_root_moves: true,
            book_file: self.prefs.settings.book.clone(),
            // The book plays a game's first moves as over UCI, varied by weight; analysis
            // always searches.
            own_book: !analysis && self.prefs.settings.own_book,
            book_random: true,
            book_without_clock: true,
            hash_mb: self.prefs.settings.hash_mb,
            threads: self.prefs.settings.threads,
            multipv: self.prefs.multipv,
            // Analysis shows the real search; the level weakens only the moves played.
            level: if analysis {
                Level::Max
            } else {
                self.prefs.settings.level
            },
            profile: self.prefs.profile,
            // The tree browser's trees (levels below max search through the level
            // driver, which records none).
            record_tree: self.explorer.recording.then_some(self.explorer.limits),
            syzygy: self.prefs.tables.search_options(),
            ..SearchOptions::default()
        }
    }

    /// Opens the tables the `syzygy` setting names at start; a directory without tables is
    /// said and the session plays on without them.
    fn open_tables(&mut self) {
        match prefs::TableSet::open(self.prefs.settings.syzygy.as_deref()) {
            Ok(set) => {
                if let Some(text) = set.describe() {
                    self.log_line(LogKind::Info, text);
                }
                self.prefs.tables = set;
            }
            Err(e) => self.error(format!("{e}; playing on without tables")),
        }
    }

    /// Starts a search of the current position. `analysis`: think without end and play
    /// nothing; otherwise search to the depth setting (and within the clock) and play.
    fn start_search(&mut self, analysis: bool) {
        self.play.next_engine_start = None;
        let mut limits = if analysis {
            Limits::infinite()
        } else {
            Limits::depth(self.prefs.settings.depth)
        };
        if !analysis && let Some(clock) = &self.play.clock {
            // The engine manages its own time from the clocks, like a UCI engine.
            clock.fill_limits(&mut limits, self.side_to_move(), Instant::now());
        }
        let options = self.search_options(analysis);
        // The sort pane follows this search from its root.
        self.reset_sort_view();
        self.session
            .start(self.play.game.board(), limits, &options, analysis);
    }

    /// Forgets the running search (its events become stale) and asks the engine to stop.
    fn cancel_search(&mut self) {
        self.session.cancel();
        self.play.next_engine_start = None;
    }

    /// After any change of position: refresh the opening name and the sort pane, run the
    /// clock, and set the engine going if it is its turn.
    fn position_changed(&mut self) {
        if self.browse.follow(&self.play.game) {
            self.info("the game changed: back to its position");
        }
        self.cursor.drop_pick();
        self.play.opening = self.play.book.opening_name(self.play.game.board());
        self.reset_sort_view();
        if self.play.prompt.is_some() {
            return;
        }
        if self.play.game.is_over() {
            self.cancel_search();
            if let Some(c) = &mut self.play.clock {
                c.stop(Instant::now());
            }
            return;
        }
        let side = self.side_to_move();
        if let Some(c) = &mut self.play.clock
            && c.running() != Some(side)
            && c.flag(Instant::now()).is_none()
        {
            c.start(side, Instant::now());
        }
        if self.play.mode == Mode::Analysis {
            self.start_search(true);
        } else if self.engine_plays(side) && !self.play.paused {
            if self.play.mode == Mode::EngineEngine
                && !self.play.delay.is_zero()
                && self.play.game.ply() > 0
            {
                self.cancel_search();
                self.play.next_engine_start = Some(Instant::now() + self.play.delay);
            } else {
                self.start_search(false);
            }
        } else {
            self.cancel_search();
        }
    }

    /// Plays a legal move, charges the clock, logs the move with the static E of the new
    /// position and who chose it, saves, and announces a result.
    fn play_move(&mut self, m: Move, source: MoveSource) {
        let now = Instant::now();
        if let Some(loser) = self.play.clock.as_ref().and_then(|c| c.flag(now)) {
            self.flag_fell(loser);
            return;
        }
        let played = match &source {
            MoveSource::Searched(info) => self.play.game.play_engine(
                m,
                EngineNote {
                    score: info.score_white,
                    depth: info.depth,
                },
            ),
            _ => self.play.game.play(m),
        };
        if let Err(e) = played {
            self.error(e.to_string());
            return;
        }
        let mover = self.side_to_move().flip();
        if let Some(by) = self.play.draws.offer
            && by != mover
        {
            // Any move of the other side declines a standing offer.
            self.play.draws.offer = None;
            let who = if self.engine_plays(by) {
                "ox88".to_string()
            } else {
                by.name().to_string()
            };
            self.log_line(LogKind::Info, format!("{who}'s draw offer declined"));
        }
        self.note_hint(&source);
        if let Some(c) = &mut self.play.clock {
            if let Some(loser) = c.switch(now) {
                self.flag_fell(loser);
            } else {
                let left = c.remaining(mover, now);
                self.play.game.set_last_clock(left);
            }
        }
        let index = self.play.game.ply() - 1;
        let numbered = self
            .play
            .game
            .numbered_san(index)
            .unwrap_or_else(|| m.to_string());
        let e = eval::evaluate_white(self.play.game.board(), &self.prefs.eval());
        let mut text = format!("{numbered} ({m})  E {}", e_text(e));
        let engine_move = source.by_engine();
        match source {
            MoveSource::Book(book) => {
                text.push_str(&format!("  book: {book}"));
                self.session.state = EngineState::Book(book);
            }
            MoveSource::Searched(info) => {
                text.push_str(&format!(
                    "  engine d{}{}",
                    info.depth,
                    bounded_score(info.bound, info.score_white, mover)
                ));
                self.session.state = EngineState::Idle;
            }
            MoveSource::EngineUnsearched => self.session.state = EngineState::Idle,
            MoveSource::Human => {}
        }
        self.log_line(LogKind::Move, text);
        self.save();
        if let Some(end) = self.play.game.result() {
            self.announce(end);
        }
        // After an engine move the sort pane keeps showing how the engine ordered its
        // choices (until something newer): the reason to have the pane at all.
        let searched = if engine_move {
            let mut kept = std::mem::take(&mut self.sort);
            kept.mark_played(m);
            kept
        } else {
            SortView::default()
        };
        self.position_changed();
        if searched.depth.is_some() && !self.session.is_searching() && self.sort.depth.is_none() {
            self.sort = searched;
        }
    }

    fn flag_fell(&mut self, loser: Color) {
        match self.play.game.flag_fall(loser) {
            Ok(end) => {
                self.announce(end);
                self.save();
            }
            Err(GameError::Over(_)) => {}
            Err(e) => self.error(e.to_string()),
        }
    }

    /// An event from the search thread. The session drops the events of searches we no
    /// longer wait for, so a takeback or a new game never sees an old search's move.
    pub fn on_engine_event(&mut self, ev: SearchEvent) {
        match self.session.accept(ev) {
            // A newer tree never replaces the one being browsed (the browser says `r`).
            None | Some(Accepted::CurrentMove | Accepted::Tree(_)) => {}
            Some(Accepted::RootMoves { depth, rows }) => self.sort.on_root_rows(depth, rows),
            Some(Accepted::LevelReport(report)) => {
                for line in report.lines() {
                    self.log_line(LogKind::Info, line);
                }
            }
            Some(Accepted::Message(text)) => {
                self.log_line(LogKind::Error, text.clone());
                self.error(text);
            }
            Some(Accepted::SideLine(info)) => {
                let side = self.session.search().map_or(Color::White, |s| s.side);
                self.log_line(
                    LogKind::Iteration,
                    format!("#{} {}", info.multipv, iteration_line(&info, side)),
                );
                self.screen.pv_lines.push(info);
            }
            Some(Accepted::Iteration(info)) => {
                let side = self.session.search().map_or(Color::White, |s| s.side);
                let prefix = if self.prefs.multipv > 1 { "#1 " } else { "" };
                self.log_line(
                    LogKind::Iteration,
                    format!("{prefix}{}", iteration_line(&info, side)),
                );
                self.sort.from_iteration(&info, self.prefs.settings.order);
                self.screen
                    .evalview
                    .on_iteration(self.play.game.board(), &info);
                self.screen.pv_lines = vec![info];
            }
            Some(Accepted::Finished { search, best, book }) => {
                let fresh = search.hash == self.play.game.board().hash();
                match (search.on_best, best) {
                    (OnBest::Hint, Some(m)) if fresh => self.show_hint(m),
                    (OnBest::Hint, _) => {}
                    (OnBest::Play, Some(m))
                        if fresh && self.play.game.board().legal_moves().contains(m) =>
                    {
                        // A level may play another line than the best: the note is the
                        // score and depth of the line it played, or none rather than the
                        // best line's.
                        let last = search.last.and_then(|info| {
                            if info.pv.first() == Some(&m) {
                                Some(info)
                            } else {
                                self.screen
                                    .pv_lines
                                    .iter()
                                    .find(|l| l.pv.first() == Some(&m))
                                    .cloned()
                            }
                        });
                        let source = match (book, last) {
                            (Some(name), _) => MoveSource::Book(name),
                            (None, Some(info)) => MoveSource::Searched(Box::new(info)),
                            (None, None) => MoveSource::EngineUnsearched,
                        };
                        let verdict = match &source {
                            MoveSource::Searched(info) => self.judge_search(search.side, info),
                            _ => draws::Verdict::Play,
                        };
                        if verdict == draws::Verdict::Resign {
                            self.engine_resigns(search.side);
                        } else {
                            self.play_move(m, source);
                            if verdict == draws::Verdict::OfferDraw {
                                self.engine_offers_draw(search.side);
                            }
                        }
                        self.play_premove();
                    }
                    (OnBest::Play, None) => self.info("the engine has no legal move"),
                    _ => {}
                }
            }
        }
    }

    /// Timers: the engine-vs-engine delay and the clocks. Returns whether anything changed.
    pub fn on_tick(&mut self, now: Instant) -> bool {
        if self.club.in_room() {
            // The room's clocks move on the screen.
            self.club.refresh(now);
        }
        let waiting = self.jobs.waiting();
        let jobs_changed = !waiting.is_empty() || self.lab.is_running() || self.review.is_running();
        for ev in waiting {
            self.on_job_event(ev);
        }
        if let Some(loser) = self.play.clock.as_ref().and_then(|c| c.flag(now))
            && !self.play.game.is_over()
        {
            self.flag_fell(loser);
            return true;
        }
        if let Some(t) = self.play.next_game_start
            && now >= t
        {
            self.play.next_game_start = None;
            if self.play.games_to_play > 0 && self.play.mode == Mode::EngineEngine {
                self.new_game(None);
            }
            return true;
        }
        if let Some(t) = self.play.next_engine_start
            && now >= t
        {
            self.play.next_engine_start = None;
            if !self.play.game.is_over()
                && self.engine_plays(self.side_to_move())
                && !self.play.paused
            {
                self.start_search(false);
            }
            return true;
        }
        jobs_changed
            || self.session.is_searching()
            || self
                .play
                .clock
                .as_ref()
                .is_some_and(|c| c.running().is_some())
    }

    /// When the event loop should wake up even if nothing arrives: 50 ms ticks while the
    /// engine thinks (20 frames a second), 100 ms while a clock runs, the engine-vs-engine
    /// delay; else never (idle costs no CPU).
    pub fn next_wakeup(&self, now: Instant) -> Option<Instant> {
        let thinking =
            (self.session.is_searching() || self.review.is_running()).then_some(now + FRAME);
        let clock = self
            .play
            .clock
            .as_ref()
            .and_then(Clock::running)
            .map(|_| now + Duration::from_millis(100));
        let lab = self.lab.is_running().then_some(now + FRAME);
        [
            self.club_wakeup(now),
            thinking,
            lab,
            clock,
            self.play.next_engine_start,
            self.play.next_game_start,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    // ---- the sort pane -------------------------------------------------------------------

    fn reset_sort_view(&mut self) {
        self.sort = SortView::of(self.play.game.board(), self.prefs.settings.order);
    }

    fn step_pv(&mut self, forward: bool) {
        let root_moves = self
            .session
            .search()
            .and_then(|s| s.last.as_ref())
            .map(|i| i.root_moves.clone());
        if let Err(why) = self
            .sort
            .step_pv(forward, root_moves, self.prefs.settings.order)
        {
            self.info(why.message());
        }
    }

    /// The squares to highlight for a partly typed move: the piece(s) it could move and
    /// their legal targets. Coordinates: `e2` → e2 and e3, e4; `e2e4` → e2 and e4. SAN:
    /// a complete move marks its two squares (`Nf3`), a piece letter alone every piece of
    /// that kind that can move and where (`N` → both knights).
    pub fn typed_squares(&self) -> Option<(Vec<Square>, Vec<Square>)> {
        let text = self.input.value().trim();
        if self.explorer.is_open() {
            // The browser's board: the selected child's move.
            let m = self.explorer.selected_move()?;
            return Some((vec![m.from()], vec![m.to()]));
        }
        if text.is_empty()
            && let Some(h) = self.current_hint()
        {
            // The hint's two squares, while nothing is typed.
            return Some((vec![h.mv.from()], vec![h.mv.to()]));
        }
        if text.is_empty() || text.starts_with(':') {
            return None;
        }
        let board = self.play.game.board();
        if let Ok(m) = board.parse_move(text) {
            return Some((vec![m.from()], vec![m.to()]));
        }
        if let Some(from) = text
            .get(..2)
            .and_then(|t| t.to_ascii_lowercase().parse::<Square>().ok())
        {
            let piece = board.piece_at(from)?;
            if piece.color() != board.side_to_move() {
                return None;
            }
            return Some((vec![from], board.legal_targets(from)));
        }
        let first = text.chars().next()?;
        let kind = PieceKind::from_letter(first).filter(|_| first.is_ascii_uppercase())?;
        let moves: Vec<Move> = board
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| board.piece_at(m.from()).is_some_and(|p| p.kind() == kind))
            .collect();
        let mut froms: Vec<Square> = moves.iter().map(|m| m.from()).collect();
        froms.sort_by_key(|s| s.index64());
        froms.dedup();
        let targets = moves.iter().map(|m| m.to()).collect();
        (!froms.is_empty()).then_some((froms, targets))
    }

    // ---- keys ----------------------------------------------------------------------------

    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        if key.code == KeyCode::Char('c') && key.modifiers == KeyModifiers::CONTROL {
            self.screen.quit = true;
            return;
        }
        if layout::too_small(self.screen.area) {
            // Nothing on screen says what a key would do: only quitting acts.
            let focus = keys::Focus::Input;
            if keys::action_for(&self.prefs.keys, &key, self.input.is_empty(), focus)
                == Some(Action::Quit)
            {
                self.screen.quit = true;
            }
            return;
        }
        if self.play.prompt.is_some() {
            self.answer_prompt(key);
            return;
        }
        if self.screen.help_visible {
            self.help_key(key);
            return;
        }
        let input_empty = self.input.value().is_empty();
        if self.club_key(&key, input_empty) {
            return;
        }
        if input_empty && self.cursor_key(&key) {
            return;
        }
        if self.viewing_key(&key) {
            return;
        }
        if input_empty && key.kind != crossterm::event::KeyEventKind::Release {
            if key.code == KeyCode::Esc && self.cancel_review() {
                return;
            }
            if self.review.visible && self.screen.focus == Pane::Input && self.review_key(key.code)
            {
                return;
            }
        }
        let focus = match self.screen.focus {
            Pane::Input => keys::Focus::Input,
            Pane::Log => keys::Focus::Log,
            Pane::Sort => keys::Focus::Sort,
            Pane::Tree => keys::Focus::Tree,
        };
        match keys::action_for(&self.prefs.keys, &key, input_empty, focus) {
            Some(action) => self.act(action),
            // End on an empty input line: the log follows its newest line again.
            None if key.code == KeyCode::End && input_empty && self.screen.focus == Pane::Input => {
                let rows = self.log_rows();
                self.log.scroll_to(false, rows);
            }
            None => self.type_key(key),
        }
    }

    fn help_key(&mut self, key: KeyEvent) {
        let max = layout::help_max_scroll(self.screen.area, self.club.is_on());
        match key.code {
            KeyCode::Up => self.screen.help_scroll = self.screen.help_scroll.saturating_sub(1),
            KeyCode::Down => self.screen.help_scroll = (self.screen.help_scroll + 1).min(max),
            KeyCode::PageUp => self.screen.help_scroll = self.screen.help_scroll.saturating_sub(10),
            KeyCode::PageDown => self.screen.help_scroll = (self.screen.help_scroll + 10).min(max),
            _ => self.screen.help_visible = false,
        }
    }

    /// Keys the table does not claim edit the input line (and bring the focus back to it).
    fn type_key(&mut self, key: KeyEvent) {
        if self.screen.focus != Pane::Input {
            if !matches!(
                key.code,
                KeyCode::Char(_) | KeyCode::Backspace | KeyCode::Delete
            ) {
                return;
            }
            self.screen.focus = Pane::Input;
        }
        self.input.handle_key(key);
    }

    /// Pasted text goes into the input line as typed (only its first line: a paste never
    /// plays a move by itself).
    pub fn handle_paste(&mut self, text: &str) {
        if self.play.prompt.is_some() || layout::too_small(self.screen.area) {
            return;
        }
        let line = text.lines().next().unwrap_or("");
        // A move is typed against the game's position, on the board again.
        self.leave_viewing();
        for c in line.chars().filter(|c| !c.is_control()) {
            self.input.insert_char(c);
        }
        self.screen.focus = Pane::Input;
    }

    pub fn act(&mut self, action: Action) {
        if let Some(why) = self.room_refuses_action(action) {
            self.error(why);
            return;
        }
        match action {
            Action::Quit => self.screen.quit = true,
            Action::Help => {
                self.screen.help_visible = true;
                self.screen.help_scroll = 0;
            }
            Action::DepthUp => self.set_depth(self.prefs.settings.depth + 1),
            Action::DepthDown => self.set_depth(self.prefs.settings.depth.saturating_sub(1)),
            Action::EngineMove => self.engine_move_now(),
            Action::Stop => self.stop_engine(),
            Action::Hint if self.puzzles.active.is_some() => {
                if let Err(e) = self.show_solution() {
                    self.error(e);
                }
            }
            Action::Hint => self.hint_command(),
            Action::Puzzle => self.next_puzzle(),
            Action::Review => {
                if let Err(e) = self.start_review() {
                    self.error(e);
                }
            }
            Action::CycleMultiPv => self.set_multipv(self.prefs.multipv % 4 + 1),
            Action::NewGame => self.new_game(None),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Flip => {
                self.screen.flipped = !self.screen.flipped;
                self.info(if self.screen.flipped {
                    "board flipped: Black at the bottom"
                } else {
                    "White at the bottom"
                });
            }
            Action::Tab => {
                if self.input.value().starts_with(':') {
                    self.complete();
                } else if self.explorer.is_open() {
                    // The log and the sort pane are hidden behind the browser.
                    self.screen.focus = if self.screen.focus == Pane::Tree {
                        Pane::Input
                    } else {
                        Pane::Tree
                    };
                } else {
                    self.screen.focus = self.screen.focus.next();
                }
            }
            Action::FocusPrev if self.explorer.is_open() => {
                self.screen.focus = if self.screen.focus == Pane::Tree {
                    Pane::Input
                } else {
                    Pane::Tree
                };
            }
            Action::FocusPrev => self.screen.focus = self.screen.focus.prev(),
            Action::Up => match self.screen.focus {
                Pane::Input => self.input.recall(true),
                _ => self.scroll(1, true),
            },
            Action::Down => match self.screen.focus {
                Pane::Input => self.input.recall(false),
                _ => self.scroll(1, false),
            },
            Action::PageUp => self.scroll(self.page(), true),
            Action::PageDown => self.scroll(self.page(), false),
            Action::Top => self.scroll_to(true),
            Action::Bottom => self.scroll_to(false),
            Action::PvBack => self.step_pv(false),
            Action::PvForward => self.step_pv(true),
            Action::Submit => self.submit(),
            Action::View => {
                self.close_tree();
                self.set_view(self.screen.view.next());
            }
            Action::Tree => {
                if self.explorer.is_open() {
                    self.close_tree();
                } else {
                    self.open_tree();
                }
            }
            Action::TreeInto => {
                let r = self.explorer.enter();
                self.tree_result(r);
            }
            Action::TreeBack => {
                let r = self.explorer.back();
                self.tree_result(r);
            }
            Action::TreeReload => self.reload_tree(),
            Action::StepBack => self.step_game(false),
            Action::StepForward => self.step_game(true),
            Action::BoardCursor => self.toggle_cursor(),
            Action::EvalPvEnd => {
                self.screen.evalview.show_pv_end = !self.screen.evalview.show_pv_end;
                self.info(if self.screen.evalview.show_pv_end {
                    "evaluation: this position beside the end of the engine's PV"
                } else {
                    "evaluation: this position"
                });
            }
            Action::Cancel => {
                if !self.input.is_empty() {
                    self.input.clear();
                } else if let Some(text) = self.play.premove.take() {
                    self.info(format!("premove {text} cancelled"));
                } else if self.explorer.is_open() {
                    self.close_tree();
                } else if self.lab.cancel() {
                    self.info("lab: stopping");
                } else if self.screen.focus != Pane::Input {
                    self.screen.focus = Pane::Input;
                } else if self.session.is_searching()
                    || self.play.next_engine_start.is_some()
                    || self.play.next_game_start.is_some()
                {
                    self.stop_engine();
                } else {
                    self.screen.message = None;
                }
            }
        }
    }

    fn page(&self) -> usize {
        let rows = match self.screen.focus {
            Pane::Sort => self.sort_rows(),
            Pane::Tree => self.tree_rows(),
            _ => self.log_rows(),
        };
        rows.saturating_sub(1).max(1)
    }

    /// Scrolls the focused pane (the log when the input has the focus).
    fn scroll(&mut self, by: usize, up: bool) {
        match self.screen.focus {
            Pane::Tree => {
                let rows = self.tree_rows();
                let by = by as isize;
                self.explorer.select_by(if up { -by } else { by }, rows);
            }
            Pane::Sort => {
                let rows = self.sort_rows();
                self.sort.scroll_by(by, up, rows);
            }
            _ => {
                let rows = self.log_rows();
                self.log.scroll_by(by, up, rows);
            }
        }
    }

    fn scroll_to(&mut self, top: bool) {
        match self.screen.focus {
            Pane::Tree => {
                let rows = self.tree_rows();
                self.explorer.select_end(top, rows);
            }
            Pane::Sort => {
                let rows = self.sort_rows();
                self.sort.scroll_to(top, rows);
            }
            _ => {
                let rows = self.log_rows();
                self.log.scroll_to(top, rows);
            }
        }
    }

    fn complete(&mut self) {
        let themes = theme::available(self.prefs.user_theme_dir.as_deref());
        let candidates = self.input.complete(&themes);
        if !candidates.is_empty() {
            self.info(candidates.join("  "));
        }
    }

    fn set_depth(&mut self, d: u32) {
        let d = d.clamp(1, MAX_DEPTH);
        if d == self.prefs.settings.depth {
            self.info(format!(
                "depth {d} is the {}",
                if d == 1 { "least" } else { "most" }
            ));
            return;
        }
        self.prefs.settings.depth = d;
        self.info(if self.session.is_thinking_for_a_move() {
            format!("depth {d} (from the next search)")
        } else {
            format!("depth {d}")
        });
    }

    fn engine_move_now(&mut self) {
        if let Some(end) = self.play.game.result() {
            self.error(format!(
                "the game is over ({}): Ctrl+N for a new one, Ctrl+Z to take back",
                end.result()
            ));
            return;
        }
        self.play.paused = false;
        // Stop and play what the search has found so far.
        if self.session.stop(OnBest::Play) {
            self.info("the engine moves now");
            return;
        }
        let side = self.side_to_move();
        if matches!(self.play.mode, Mode::HumanWhite | Mode::HumanBlack) && !self.engine_plays(side)
        {
            // The engine takes over the side to move: the human plays the other colour.
            self.play.mode = if side == Color::White {
                Mode::HumanBlack
            } else {
                Mode::HumanWhite
            };
            self.screen.flipped = self.play.mode == Mode::HumanBlack;
            self.play.keep_players = false;
            self.info(format!("you now play {}", side.flip().name()));
        }
        self.start_search(false);
    }

    fn stop_engine(&mut self) {
        if self.play.mode == Mode::EngineEngine {
            self.play.paused = true;
        }
        if self.session.stop(OnBest::Discard) {
            self.info("engine stopped (Ctrl+G: let it move)");
        } else if self.play.next_engine_start.take().is_some()
            || self.play.next_game_start.take().is_some()
        {
            self.info("engine paused (Ctrl+G: go on)");
        } else {
            self.info("the engine is not thinking");
        }
    }

    fn new_game(&mut self, start: Option<Board>) {
        // A new game ends puzzles: the game set aside comes back first, to be kept as usual.
        self.leave_puzzles();
        let kept = self.keep_previous_game();
        self.session.new_game();
        // A new game's lines are what the reader wants: the log follows them again.
        let rows = self.log_rows();
        self.log.scroll_to(false, rows);
        self.play.next_engine_start = None;
        self.play.next_game_start = None;
        self.play.paused = false;
        let fen = start.as_ref().map(Board::to_fen);
        let tc = self.play.game.time_control;
        self.play.game = start.map_or_else(Game::new, Game::from_board);
        self.set_time_control(tc);
        self.session.state = EngineState::Idle;
        self.play.draws.reset();
        self.play.premove = None;
        self.play.keep_players = false;
        self.play.last_saved = None;
        match fen {
            Some(f) => self.log_line(LogKind::Info, format!("new game from {f}")),
            None => self.log_line(LogKind::Info, "new game"),
        }
        if let Some(kept) = &kept {
            self.log_line(LogKind::Info, kept.clone());
        }
        let kept = kept.map(|k| format!("; {k}")).unwrap_or_default();
        self.info(format!("new game: {}{kept}", self.play.mode.describe()));
        // Saving the empty game sets an unfinished earlier one aside (nothing is lost).
        self.save();
        self.position_changed();
    }

    fn undo(&mut self) {
        self.cancel_search();
        if self.play.game.ply() == 0 {
            self.error("nothing to take back");
            return;
        }
        let mut taken = vec![];
        taken.extend(self.play.game.undo());
        // Against the engine, take back its reply too, so it is the human's turn again.
        if matches!(self.play.mode, Mode::HumanWhite | Mode::HumanBlack)
            && self.engine_plays(self.side_to_move())
        {
            taken.extend(self.play.game.undo());
        }
        let list = taken
            .iter()
            .rev()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        self.log_line(LogKind::Info, format!("took back {list}"));
        self.info(format!("took back {list} (Ctrl+Y replays)"));
        self.play.draws.reset();
        self.play.premove = None;
        self.session.state = EngineState::Idle;
        if self.play.mode == Mode::EngineEngine {
            self.play.paused = true;
        }
        self.save();
        self.position_changed();
    }

    fn redo(&mut self) {
        self.cancel_search();
        let Some(m) = self.play.game.redo() else {
            self.error("nothing to replay");
            return;
        };
        let mut replayed = vec![m];
        if matches!(self.play.mode, Mode::HumanWhite | Mode::HumanBlack)
            && self.engine_plays(self.side_to_move())
        {
            replayed.extend(self.play.game.redo());
        }
        let list = replayed
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        self.log_line(LogKind::Info, format!("replayed {list}"));
        self.info(format!("replayed {list}"));
        self.save();
        if let Some(end) = self.play.game.result() {
            self.announce(end);
        }
        self.position_changed();
    }

    // ---- the input line --------------------------------------------------------------------

    fn submit(&mut self) {
        let text = self.input.value().trim().to_string();
        if text.is_empty() {
            return;
        }
        let ok = if let Some(ok) = self.club_line(&text) {
            ok
        } else if text.starts_with(':') {
            self.run_command(&text)
        } else {
            self.enter_move(&text)
        };
        self.input.remember(&text);
        if ok {
            self.input.clear();
        } else {
            self.input.mark_refused();
        }
    }

    /// A move typed by the user. Errors leave everything as it was (the text stays).
    fn enter_move(&mut self, text: &str) -> bool {
        if let Some(end) = self.play.game.result() {
            self.error(format!(
                "the game is over ({} {}): Ctrl+N for a new one",
                end.result(),
                end.reason()
            ));
            return false;
        }
        if self.session.is_thinking_for_a_move() {
            if matches!(self.play.mode, Mode::HumanWhite | Mode::HumanBlack) {
                return self.set_premove(text);
            }
            self.error("the engine is thinking: Ctrl+G makes it move now, Esc stops it");
            return false;
        }
        if self.puzzles.active.is_some() {
            return match self.play.game.board().parse_move(text) {
                Ok(m) => self.puzzle_answer(m),
                Err(e) => {
                    self.error(e.to_string());
                    false
                }
            };
        }
        match self.play.game.board().parse_move(text) {
            Ok(m) => {
                self.screen.message = None;
                // The player wants the game's board back (engine moves keep the browser).
                self.close_tree();
                self.play_move(m, MoveSource::Human);
                true
            }
            Err(e) => {
                self.error(e.to_string());
                false
            }
        }
    }
}
