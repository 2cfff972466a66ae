//! The ratatui front end: `run` sets up the terminal, starts the engine and the input and
//! signal threads (all feeding one channel), and runs the event loop until the user quits.
//! The terminal is put back however the program ends: quit, error, panic (a hook), SIGTERM
//! or SIGHUP (a dropped SSH connection).

pub mod app;
pub mod driver;
pub mod event;
pub mod help;
pub mod keys;
pub mod layout;
pub mod legend;
pub mod pane;
pub mod settings;
pub mod sgr16;
pub mod theme;
pub mod ui;
pub mod view;

use std::fmt;
use std::io::{self, Stdout};
use std::path::PathBuf;
use std::sync::Once;
use std::sync::mpsc;
use std::time::Instant;

use anyhow::Context;
use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use crate::engine::Engine;
use crate::game::Game;
use crate::game::autosave::Autosave;
pub use app::App;
pub use event::Event;
pub use sgr16::Sgr16;
pub use theme::{ColorDepth, ColorMode, Theme};

/// Who plays which side. The names are what `--mode` and `:mode` take (any case, with the
/// short aliases); `Display` writes the first.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum Mode {
    /// The human plays White, the engine Black.
    #[default]
    #[strum(to_string = "white", serialize = "w")]
    HumanWhite,
    /// The human plays Black, the engine White.
    #[strum(to_string = "black", serialize = "b")]
    HumanBlack,
    /// Two humans; the engine stays idle (E is still shown).
    #[strum(
        to_string = "human",
        serialize = "humans",
        serialize = "hh",
        serialize = "two"
    )]
    HumanHuman,
    /// The engine plays both sides, with a delay between moves.
    #[strum(
        to_string = "engine",
        serialize = "engines",
        serialize = "ee",
        serialize = "auto"
    )]
    EngineEngine,
    /// The engine thinks without end on whatever position is shown and moves nothing.
    #[strum(to_string = "analysis", serialize = "analyse", serialize = "analyze")]
    Analysis,
}

impl Mode {
    /// The command-line and `:mode` name.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// A few words for the status bar.
    pub fn short(self) -> &'static str {
        match self {
            Mode::HumanWhite => "you: White",
            Mode::HumanBlack => "you: Black",
            Mode::HumanHuman => "human–human",
            Mode::EngineEngine => "engine–engine",
            Mode::Analysis => "analysis",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Mode::HumanWhite => "you play White against the engine",
            Mode::HumanBlack => "you play Black against the engine",
            Mode::HumanHuman => "two players, the engine watches",
            Mode::EngineEngine => "the engine plays both sides",
            Mode::Analysis => "analysis: the engine thinks, you move",
        }
    }
}

/// Parses one of an option enum's names (any case, surrounding blanks ignored) with a
/// message that lists the names: `16x: not a colour mode (auto, truecolor, 256, 16, none)`.
pub fn parse_choice<T>(s: &str, what: &str) -> Result<T, String>
where
    T: std::str::FromStr + strum::VariantArray + fmt::Display,
{
    s.trim().parse().map_err(|_| {
        let names: Vec<String> = T::VARIANTS.iter().map(T::to_string).collect();
        format!("{s}: not a {what} ({})", names.join(", "))
    })
}

/// How a TUI session starts: the settings (the file's, with the flags over them) and what
/// only the command line says (where to start, who plays, the settings file's path).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub settings: settings::Settings,
    /// Start from this position (`--fen`).
    pub fen: Option<String>,
    /// Start from this game (`--pgn FILE`).
    pub pgn: Option<PathBuf>,
    /// Resume the autosaved unfinished game without asking (`--resume`).
    pub resume: bool,
    pub mode: Mode,
    /// Pause between moves in engine vs engine mode.
    pub delay_ms: u64,
    /// The settings file `:set save` writes (read again at start for its comments).
    pub config_path: Option<PathBuf>,
    /// A puzzle file (lichess's CSV columns) served instead of the shipped set.
    pub puzzles: Option<PathBuf>,
}

impl Options {
    /// A session of `settings`, the rest as the command line's defaults.
    pub fn of(settings: settings::Settings) -> Options {
        Options {
            settings,
            fen: None,
            pgn: None,
            resume: false,
            mode: Mode::HumanWhite,
            delay_ms: DEFAULT_DELAY_MS,
            config_path: None,
            puzzles: None,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options::of(settings::Settings::default())
    }
}

/// The engine-vs-engine pause between moves unless `--delay` says otherwise.
pub const DEFAULT_DELAY_MS: u64 = 500;

pub use settings::DEFAULT_DEPTH;

type Term = Terminal<CrosstermBackend<Sgr16<Stdout>>>;

/// The backend the TUI draws through, on any writer (a terminal, an SSH channel, a test's
/// buffer): at 16-colour depth only the basic SGR colour codes reach the writer.
pub fn backend<W: io::Write>(writer: W, depth: ColorDepth) -> CrosstermBackend<Sgr16<W>> {
    CrosstermBackend::new(Sgr16::new(writer, depth == ColorDepth::Ansi16))
}

/// Puts the terminal back: raw mode off, main screen, bracketed paste off, cursor shown.
/// Safe to call more than once and when the terminal is gone (errors are ignored: there is
/// nobody left to tell).
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableBracketedPaste,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
}

/// Restores the terminal before the default panic message, so the message is readable and
/// the shell usable.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_terminal();
            previous(info);
        }));
    });
}

/// Restores the terminal when dropped, so `?` and early returns restore it too.
struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

fn setup_terminal(depth: ColorDepth) -> anyhow::Result<(Term, TerminalGuard)> {
    install_panic_hook();
    enable_raw_mode().context("cannot switch the terminal to raw mode (is this a terminal?)")?;
    let guard = TerminalGuard;
    // No mouse capture: people must be able to select and copy text over SSH.
    execute!(io::stdout(), EnterAlternateScreen, EnableBracketedPaste)
        .context("cannot set up the terminal")?;
    let terminal =
        Terminal::new(backend(io::stdout(), depth)).context("cannot set up the terminal")?;
    Ok((terminal, guard))
}

/// Runs the TUI until the user quits.
pub fn run(opts: Options) -> anyhow::Result<()> {
    let depth = ColorDepth::detect(opts.settings.color, |k| std::env::var(k).ok());
    let user_dir = theme::user_theme_dir();
    let (theme, theme_error) =
        Theme::load_or_default(&opts.settings.theme, user_dir.as_deref(), depth);

    // Files named on the command line are read before the terminal is taken over, so their
    // errors print plainly.
    let pgn_game = match &opts.pgn {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let game =
                Game::from_pgn(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Some((game, path.display().to_string()))
        }
        None => None,
    };
    let mut store = Autosave::from_env();
    // Two ox88 processes never write the same `current.pgn`: the second plays on without
    // autosave (and does not offer the first one's game for resuming).
    let mut locked_out = None;
    if let Some(s) = store.as_mut()
        && let Err(e @ crate::game::autosave::AutosaveError::Locked { .. }) = s.lock()
    {
        locked_out = Some(e);
        store = None;
    }
    let unfinished = match &store {
        Some(s) if pgn_game.is_none() && opts.fen.is_none() => s.load_unfinished(),
        _ => Ok(None),
    };

    let (tx, rx) = mpsc::channel::<Event>();
    let jobs: app::JobSink = {
        let tx = tx.clone();
        std::sync::Arc::new(move |ev| {
            let _ = tx.send(Event::Job(ev));
        })
    };
    let engine = {
        let tx = tx.clone();
        Engine::new(move |ev| {
            let _ = tx.send(Event::Engine(ev));
        })
    };
    let _signals = event::spawn_signal_thread(tx.clone()).context("cannot watch for signals")?;

    let (mut terminal, guard) = setup_terminal(depth)?;
    event::spawn_input_thread(tx);

    let mut app = App::builder(&opts, Box::new(engine))
        .theme(theme, depth)
        .autosave(store)
        .jobs(jobs)
        .build();
    if let Some(path) = &opts.config_path {
        app.use_config(crate::tui::settings::Config::load(path));
    }
    if let Some(e) = theme_error {
        app.log_line(app::LogKind::Error, e.to_string());
        app.error(format!("{e} (using the default theme)"));
    }
    if let Some(e) = locked_out {
        let text = format!("autosave: {e}; this game is not kept (:save FILE keeps it)");
        app.log_line(app::LogKind::Error, text.clone());
        app.error(text);
    }
    match (pgn_game, unfinished) {
        (Some((game, path)), _) => app.set_game(game, &format!("loaded {path}")),
        (None, Ok(Some(game))) if opts.resume => app.set_game(game, "resumed"),
        (None, Ok(Some(game))) => app.offer_resume(game),
        (None, Ok(None)) if opts.resume => app.error("--resume: no unfinished game was saved"),
        (None, Ok(None)) => {}
        (None, Err(e)) => {
            // The damaged file stays where it is; the first move sets it aside.
            app.log_line(app::LogKind::Error, format!("autosave: {e}"));
            app.error(format!("autosave: {e}"));
        }
    }
    let result = driver::run(
        &mut app,
        &rx,
        &mut TerminalFront {
            terminal: &mut terminal,
        },
    );
    drop(app); // stops the engine thread
    drop(guard);
    result
}

/// The terminal as a front end of the shared loop (`driver`).
struct TerminalFront<'a> {
    terminal: &'a mut Term,
}

impl driver::Front for TerminalFront<'_> {
    type Event = Event;
    type End = anyhow::Result<()>;

    fn draw(&mut self, app: &mut App) -> Result<Option<Instant>, Self::End> {
        match self.terminal.draw(|f| {
            app.resize(f.area());
            ui::draw(f, app)
        }) {
            Ok(_) => Ok(None),
            Err(e) => Err(Err(e.into())),
        }
    }

    fn handle(&mut self, app: &mut App, ev: Event) -> Option<Self::End> {
        match ev {
            Event::Key(k) => app.handle_key(k),
            Event::Paste(s) => app.handle_paste(&s),
            Event::Resize => {}
            Event::Engine(e) => app.on_engine_event(e),
            Event::Job(j) => app.on_job_event(j),
            Event::Signal(_) => app.request_quit(),
            Event::InputClosed(why) => {
                app.request_quit();
                if let Some(why) = why {
                    return Some(Err(anyhow::anyhow!("terminal input failed: {why}")));
                }
            }
        }
        None
    }

    fn quit(&mut self) -> Self::End {
        Ok(())
    }

    fn disconnected(&mut self) -> Self::End {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray;

    #[test]
    fn option_names_are_the_ones_the_cli_took_and_round_trip() {
        let modes: Vec<String> = Mode::VARIANTS.iter().map(Mode::to_string).collect();
        assert_eq!(modes, ["white", "black", "human", "engine", "analysis"]);
        for m in Mode::VARIANTS {
            assert_eq!(parse_choice::<Mode>(m.name(), "mode"), Ok(*m));
        }
        assert_eq!(parse_choice::<Mode>(" W ", "mode"), Ok(Mode::HumanWhite));
        assert_eq!(parse_choice::<Mode>("ANALYZE", "mode"), Ok(Mode::Analysis));
        assert_eq!(parse_choice::<Mode>("auto", "mode"), Ok(Mode::EngineEngine));
        let colours: Vec<String> = ColorMode::VARIANTS
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(colours, ["auto", "truecolor", "256", "16", "none"]);
        assert_eq!(
            parse_choice::<ColorMode>("24bit", "colour mode"),
            Ok(ColorMode::TrueColor)
        );
        assert_eq!(
            parse_choice::<ColorMode>("Never", "colour mode"),
            Ok(ColorMode::None)
        );
        assert_eq!(
            parse_choice::<ColorMode>("16x", "colour mode"),
            Err("16x: not a colour mode (auto, truecolor, 256, 16, none)".to_string())
        );
        assert_eq!(ColorDepth::Ansi16.name(), "16");
        assert_eq!(ColorDepth::TrueColor.to_string(), "truecolor");
    }
}
