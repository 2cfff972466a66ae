//! How an `App` is made: its parts from the settings and an engine, then the look, where
//! games are kept and files go, and the log's clock set by the builder, never by its fields.
//! Starting logs the greeting, applies `--fen` and `--tc`, and opens the tables and the
//! puzzle record.

use std::path::PathBuf;
use std::time::Duration;

use ratatui::layout::Rect;

use super::command::MAX_DEPTH;
use super::input::InputLine;
use super::log::LogKind;
use super::notice::JobSink;
use super::session::{EngineControl, Session};
use super::{App, Play, Prefs, Screen, browse, club, cursor, lab, notice, puzzles, review};
use crate::engine::search::Profile;
use crate::game::autosave::Autosave;
use crate::game::{Game, TimeControl};
use crate::tui::pane::Panes;
use crate::tui::theme::{ColorDepth, Theme};
use crate::tui::{Mode, Options, layout};

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
        self.app.prefs.use_look(theme, color_depth);
        self
    }

    /// Keeps the game in `store` after every move.
    pub fn autosave(mut self, store: Option<Autosave>) -> AppBuilder {
        self.app.play.set_autosave(store);
        self
    }

    /// `:save` and `:load` take bare file names inside `dir` only.
    pub fn file_root(mut self, dir: PathBuf) -> AppBuilder {
        self.app.prefs.confine_files_to(dir);
        self
    }

    /// Where user themes are looked up (`None`: the built-in themes only).
    pub fn user_theme_dir(mut self, dir: Option<PathBuf>) -> AppBuilder {
        self.app.prefs.set_user_theme_dir(dir);
        self
    }

    /// The search profile of the engine's searches.
    pub fn profile(mut self, profile: Profile) -> AppBuilder {
        self.app.prefs.set_profile(profile);
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

    /// A club viewer's engine panes, while watching, show the server's analysis of the
    /// game shared by all its watchers; its events come through `sink` (to
    /// [`App::on_shared_analysis`]). Given after [`AppBuilder::club`].
    pub fn club_analyses(
        mut self,
        analyses: std::sync::Arc<crate::club::analysis::Analyses>,
        sink: crate::club::analysis::Sink,
    ) -> AppBuilder {
        self.app.club.share_analyses(analyses, sink);
        self
    }

    /// The log's time stamps (tests use a fixed clock so lines compare exactly).
    pub fn wall_clock(mut self, clock: fn() -> String) -> AppBuilder {
        self.app.screen.set_wall_clock(clock);
        self
    }

    /// The app, started: the greeting logged, the position and clock set, the engine asked
    /// to move if it is its turn.
    pub fn build(mut self) -> App {
        let (fen, tc) = (self.fen.take(), self.tc.take());
        self.app.start(fen, tc);
        // A viewer who came in with a room (or a seat to go back to) starts there. What the
        // club has to tell them (who they are here, a challenge) waits until the front end
        // has written its own opening lines and calls `on_club_change`, so they do not
        // cover it.
        self.app.club_changed(false);
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
        let mut panes = Panes::default();
        panes
            .tree_mut()
            .explorer_mut()
            .set_recording(settings.explorer);
        let view = settings.view;
        let mut app = App {
            session: Session::new(engine),
            play: Play::new(opts.mode, Duration::from_millis(opts.delay_ms)),
            prefs: Prefs::new(settings),
            screen: Screen::new(
                opts.mode == Mode::HumanBlack,
                Rect::new(0, 0, layout::MIN_WIDTH, layout::MIN_HEIGHT),
            ),
            input: InputLine::default(),
            panes,
            lab: lab::LabView::default(),
            review: review::ReviewView::default(),
            puzzles: puzzles::Puzzles::from_file(opts.puzzles.clone()),
            browse: browse::Browse::default(),
            cursor: cursor::BoardCursor::default(),
            jobs: notice::Jobs::own_queue(),
            club: club::ClubView::default(),
        };
        app.screen.set_view(view);
        AppBuilder {
            app,
            fen: opts.fen.clone(),
            tc: opts.settings.tc.clone(),
        }
    }

    pub(super) fn start(&mut self, fen: Option<String>, tc: Option<String>) {
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
                    self.play.replace_game(g);
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
        // A depth from the settings file that no clock bounds is said at once.
        if let Some(w) = self.depth_warning() {
            self.log_line(LogKind::Info, w.clone());
            self.info(w);
        }
        self.load_puzzle_record();
        self.resize(self.screen.area());
        self.position_changed();
    }
}
