//! The hub's side of the engine: what a search is asked with, when the engine is to move
//! or analyse, what its events do to the panes and the game, the timers of a tick, and the
//! sort pane's stepping along the principal variation.

use std::time::{Duration, Instant};

use super::club::EngineJob;
use super::command::MAX_DEPTH;
use super::log::LogKind;
use super::moves::SearchScore;
use super::session::{Accepted, OnBest};
use super::text::iteration_line;
use super::{App, FRAME, MoveSource, draws, prefs};
use crate::chess::{Color, Move};
use crate::club::analysis::Shared;
use crate::engine::levels::Level;
use crate::engine::{Limits, SearchEvent, SearchOptions};
use crate::game::Clock;
use crate::tui::Mode;
use crate::tui::pane::PaneEvent;

/// The depth above which a search without a clock is likely to take minutes a move.
const SLOW_DEPTH: u32 = 20;

impl App {
    pub(super) fn search_options(&self, analysis: bool) -> SearchOptions {
        SearchOptions {
            eval: self.prefs.eval(),
            scheme: self.prefs.settings().order,
            report_root_moves: true,
            book_file: self.prefs.settings().book.clone(),
            // The book plays a game's first moves as over UCI, varied by weight; analysis
            // always searches.
            own_book: !analysis && self.prefs.settings().own_book,
            book_random: true,
            book_without_clock: true,
            hash_mb: self.prefs.settings().hash_mb,
            threads: self.prefs.settings().threads,
            multipv: self.prefs.multipv(),
            // Analysis shows the real search; the level weakens only the moves played.
            level: if analysis {
                Level::Max
            } else {
                self.prefs.settings().level
            },
            profile: self.prefs.profile(),
            // The tree browser's trees (levels below max search through the level
            // driver, which records none).
            record_tree: self.panes.tree().explorer().record_limits(),
            syzygy: self.prefs.tables().search_options(),
            ..SearchOptions::default()
        }
    }

    /// Opens the tables the `syzygy` setting names at start; a directory without tables is
    /// said and the session plays on without them.
    pub(super) fn open_tables(&mut self) {
        match prefs::TableSet::open(self.prefs.settings().syzygy.as_deref()) {
            Ok(set) => {
                if let Some(text) = set.describe() {
                    self.log_line(LogKind::Info, text);
                }
                self.prefs.set_tables(set);
            }
            Err(e) => self.error(format!("{e}; playing on without tables")),
        }
    }

    /// Starts a search of the current position. `analysis`: think without end and play
    /// nothing; otherwise search to the depth setting (and within the clock) and play.
    pub(super) fn start_search(&mut self, analysis: bool) {
        if self.club.in_study() && self.club.is_away() {
            // Away from a study's cursor: the room's one search stays on the cursor, and
            // this screen shows what the study kept of the position it browses.
            self.cancel_search();
            return;
        }
        // Fair play, then the server's engine budget: no search of any kind for a member
        // whose own game goes on, and none beyond the server's share (it waits, saying so).
        match self.engine_go(EngineJob::Search { analysis }) {
            Ok(true) => {}
            Ok(false) => {
                self.session.cancel();
                return;
            }
            Err(why) => {
                self.cancel_search();
                self.error(why);
                return;
            }
        }
        self.play.series_mut().engine_started();
        let mut limits = if analysis {
            Limits::infinite()
        } else {
            Limits::depth(self.prefs.settings().depth)
        };
        if !analysis && let Some(clock) = self.play.clock() {
            // The engine manages its own time from the clocks, like a UCI engine.
            clock.fill_limits(&mut limits, self.side_to_move(), Instant::now());
        }
        let options = self.search_options(analysis);
        // The sort pane follows this search from its root.
        let scheme = self.prefs.settings().order;
        self.panes.tell(PaneEvent::SearchStarted {
            board: self.play.game().board(),
            scheme,
        });
        if analysis
            && let Some(id) = self.club.follow_analysis(
                self.play.game().board(),
                &options,
                self.session.following(),
            )
        {
            // A club game's analysis, shared with its other watchers.
            if self.session.following() != Some(id) {
                self.session.follow(id, self.play.game().board());
            }
            return;
        }
        self.session
            .start(self.play.game().board(), limits, &options, analysis);
    }

    /// Forgets the running search (its events become stale) and asks the engine to stop.
    pub(super) fn cancel_search(&mut self) {
        self.session.cancel();
        // Its share of the server's engine (or its place in the queue) goes to the next.
        self.club.engine_done();
        self.play.series_mut().engine_started();
    }

    /// After any change of position: refresh the opening name and the sort pane, run the
    /// clock, and set the engine going if it is its turn.
    pub(super) fn position_changed(&mut self) {
        if self.browse.follow(self.play.game()) {
            self.tell_viewing();
            self.info("the game changed: back to its position");
        }
        self.cursor.drop_pick();
        self.play.refresh_opening();
        self.tell_position();
        if self.play.prompt().is_some() {
            return;
        }
        self.play.run_clock(Instant::now());
        if self.play.game().is_over() {
            self.cancel_search();
            self.club.rest_analysis();
            return;
        }
        let side = self.side_to_move();
        if self.play.mode() == Mode::Analysis {
            self.start_search(true);
        } else if self.engine_plays(side) && !self.play.series().is_paused() {
            if self.play.mode() == Mode::EngineEngine
                && !self.play.series().delay().is_zero()
                && self.play.game().ply() > 0
            {
                self.cancel_search();
                self.play.series_mut().schedule_engine_start(Instant::now());
            } else {
                self.start_search(false);
            }
        } else {
            self.cancel_search();
        }
    }

    /// An event from the search thread. The session drops the events of searches we no
    /// longer wait for, so a takeback or a new game never sees an old search's move.
    pub fn on_engine_event(&mut self, ev: SearchEvent) {
        let accepted = self.session.accept(ev);
        self.on_accepted(accepted);
    }

    /// What comes of the analysis this watcher shares with the other watchers of a club
    /// game (the club's engine, not this screen's own): its events, or word that it moved
    /// to another position (followed when this screen shows that position).
    pub fn on_shared_analysis(&mut self, shared: Shared) {
        match shared {
            Shared::Event(ev) => {
                let accepted = self.session.accept_shared(ev);
                self.on_accepted(accepted);
            }
            Shared::Searching { id, fen } => {
                if self.club.engine_open()
                    && !self.club.playing()
                    && self.session.following() != Some(id)
                    && self.play.game().board().to_fen() == fen
                {
                    self.start_search(true);
                }
            }
        }
    }

    fn on_accepted(&mut self, accepted: Option<Accepted>) {
        match accepted {
            // A newer tree never replaces the one being browsed (the browser says `r`).
            None | Some(Accepted::CurrentMove | Accepted::Tree(_)) => {}
            Some(Accepted::RootMoves { depth, rows }) => {
                self.panes.tell(PaneEvent::RootRows { depth, rows: &rows })
            }
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
                    format!("pv{} {}", info.multipv, iteration_line(&info, side)),
                );
                self.screen.on_side_line(info);
            }
            Some(Accepted::Iteration(info)) => {
                self.study_heard(&info);
                let side = self.session.search().map_or(Color::White, |s| s.side);
                let prefix = if self.prefs.multipv() > 1 { "pv1 " } else { "" };
                self.log_line(
                    LogKind::Iteration,
                    format!("{prefix}{}", iteration_line(&info, side)),
                );
                let scheme = self.prefs.settings().order;
                self.panes.tell(PaneEvent::Iteration {
                    info: &info,
                    scheme,
                });
                self.screen.on_iteration(self.play.game().board(), info);
            }
            Some(Accepted::Finished { search, best, book }) => {
                let fresh = search.hash == self.play.game().board().hash();
                match (search.on_best, best) {
                    (OnBest::Hint, Some(m)) if fresh => self.show_hint(m),
                    (OnBest::Hint, _) => {}
                    (OnBest::Play, Some(m))
                        if fresh && self.play.game().board().legal_moves().contains(m) =>
                    {
                        // A level may play another line than the best: the note is the
                        // score and depth of the line it played, or none rather than the
                        // best line's.
                        let last = search.last.and_then(|info| {
                            if info.pv.first() == Some(&m) {
                                Some(info)
                            } else {
                                self.screen
                                    .pv_lines()
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
        self.engine_budget_tick();
        if self.club.in_room() && self.club.clock_due(now) {
            // The room's clocks move on the screen (read again at most once a redraw:
            // the engine's events wake this loop far more often).
            self.club.refresh(now);
        }
        let waiting = self.jobs.waiting();
        let jobs_changed = !waiting.is_empty() || self.lab.is_running() || self.review.is_running();
        for ev in waiting {
            self.on_job_event(ev);
        }
        if let Some(loser) = self.play.clock().and_then(|c| c.flag(now))
            && self.play.game().final_result().is_none()
        {
            self.flag_fell(loser);
            return true;
        }
        if self.play.series_mut().next_game_due(now) {
            if self.play.series().games_to_play() > 0 && self.play.mode() == Mode::EngineEngine {
                self.new_game(None);
            }
            return true;
        }
        if self.play.series_mut().engine_start_due(now) {
            if !self.play.game().is_over()
                && self.engine_plays(self.side_to_move())
                && !self.play.series().is_paused()
            {
                self.start_search(false);
            }
            return true;
        }
        jobs_changed
            || self.session.is_searching()
            || self.play.clock().is_some_and(|c| c.running().is_some())
    }

    /// When the event loop should wake up even if nothing arrives: 50 ms ticks while the
    /// engine thinks (20 frames a second), 100 ms while a clock runs, the engine-vs-engine
    /// delay; else never (idle costs no CPU).
    pub fn next_wakeup(&self, now: Instant) -> Option<Instant> {
        let thinking =
            (self.session.is_searching() || self.review.is_running()).then_some(now + FRAME);
        let clock = self
            .play
            .clock()
            .and_then(Clock::running)
            .map(|_| now + Duration::from_millis(100));
        let lab = self.lab.is_running().then_some(now + FRAME);
        [
            self.club_wakeup(now),
            thinking,
            lab,
            clock,
            self.play.series().next_engine_start(),
            self.play.series().next_game_start(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// What the search of the position on the board said of `m`, when a search of this
    /// position (analysis, or one still thinking) has finished an iteration: the main line's
    /// score when `m` begins it, else another line's (MultiPV), else `m`'s own row at the
    /// root, often only a bound. `None` when no search here has scored it.
    pub(super) fn searched_score_of(&self, m: Move) -> Option<SearchScore> {
        let s = self
            .session
            .search()
            .filter(|s| s.hash == self.play.game().board().hash())?;
        let info = s.last.as_ref()?;
        let line = std::iter::once(info)
            .chain(self.screen.pv_lines().iter().skip(1))
            .find(|l| l.depth == info.depth && l.pv.first() == Some(&m));
        if let Some(l) = line {
            return Some(SearchScore {
                score_white: l.score_white,
                bound: l.bound,
                depth: l.depth,
            });
        }
        let row = info.root_rows.iter().find(|r| r.mv() == m)?;
        Some(SearchScore {
            score_white: row.score?.for_white(s.side),
            bound: row.bound,
            depth: info.depth,
        })
    }

    /// The panes follow the game's position (after a move, a new position, a new scheme).
    pub(super) fn tell_position(&mut self) {
        let scheme = self.prefs.settings().order;
        self.panes.tell(PaneEvent::Position {
            board: self.play.game().board(),
            scheme,
        });
    }

    pub(super) fn set_depth(&mut self, d: u32) {
        let d = d.clamp(1, MAX_DEPTH);
        if d == self.prefs.settings().depth {
            self.info(format!(
                "depth {d} is the {}",
                if d == 1 { "least" } else { "most" }
            ));
            return;
        }
        self.prefs.set_depth(d);
        let level = self.prefs.settings().level;
        if level != Level::Max {
            // The level's own budget decides how deep its moves look: say so, rather than
            // let the key seem to do nothing.
            self.info(format!(
                "depth {d}: at level {level} the level decides how deep the engine's moves \
                 look; the depth is for level max (:level max) and bounds hints"
            ));
            return;
        }
        let text = if self.session.is_thinking_for_a_move() {
            format!("depth {d} (from the next search)")
        } else {
            format!("depth {d}")
        };
        match self.depth_warning() {
            Some(w) => self.info(format!("{text}: {w}")),
            None => self.info(text),
        }
    }

    /// A depth the engine cannot reach in reasonable time, with no clock to stop it: what
    /// to do about it (`None` when a clock bounds the search or the depth is modest).
    pub(super) fn depth_warning(&self) -> Option<String> {
        let d = self.prefs.settings().depth;
        (d > SLOW_DEPTH && self.play.game().time_control.is_none()).then(|| {
            format!(
                "with no clock a move may take minutes or more at depth {d}; Ctrl+G makes \
                 the engine move now, :tc 5+3 sets a clock"
            )
        })
    }

    pub(super) fn engine_move_now(&mut self) {
        if let Some(end) = self.play.game().result() {
            self.error(format!(
                "the game is over ({}): Ctrl+N for a new one, Ctrl+Z to take back",
                end.result()
            ));
            return;
        }
        self.play.series_mut().resume();
        // Stop and play what the search has found so far.
        if self.session.stop(OnBest::Play) {
            self.info("the engine moves now");
            return;
        }
        let side = self.side_to_move();
        if matches!(self.play.mode(), Mode::HumanWhite | Mode::HumanBlack)
            && !self.engine_plays(side)
        {
            // The engine takes over the side to move: the human plays the other colour.
            let mode = if side == Color::White {
                Mode::HumanBlack
            } else {
                Mode::HumanWhite
            };
            self.play.swap_sides(mode);
            self.screen.set_flipped(mode == Mode::HumanBlack);
            self.info(format!("you now play {}", side.flip().name()));
        }
        self.start_search(false);
    }

    pub(super) fn stop_engine(&mut self) {
        if self.play.mode() == Mode::EngineEngine {
            self.play.series_mut().pause();
        }
        if self.session.stop(OnBest::Discard) {
            self.info("engine stopped (Ctrl+G: let it move)");
        } else if self.play.series_mut().cancel_pending() {
            self.info("engine paused (Ctrl+G: go on)");
        } else {
            self.info("the engine is not thinking");
        }
    }
}
