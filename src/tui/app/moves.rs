//! The hub's side of the game itself: a move played (typed, searched or from the book) and
//! what follows it — the log line, the clock, the save, the end of the game — and the game
//! replaced, undone, redone or begun anew.

use std::time::Instant;

use crossterm::event::{KeyCode, KeyEvent};

use super::log::LogKind;
use super::session::EngineState;
use super::text::{moves_text, plies_text, score_after_move, search_note, shown_e_text};
use super::{App, Message, MessageKind, MoveSource, Prompt};
use crate::chess::{Board, Color, Move};
use crate::engine::{Bound, Score};
use crate::game::autosave::Autosave;
use crate::game::{EngineNote, Game, GameEnd, GameError, TimeControl};
use crate::tui::Mode;
use crate::tui::keys::Action;
use crate::tui::pane;
use crate::tui::pane::PaneEvent;

/// What a search said of a move before it was played: its score at the root from White's
/// view, the bound (the mover's, as the engine reports it) and the iteration's depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SearchScore {
    pub score_white: Score,
    pub bound: Bound,
    pub depth: u32,
}

impl App {
    /// Writes the game to the data directory (after every change, so a dropped connection
    /// or a kill loses nothing already shown). Failures are reported once per cause.
    pub(super) fn save(&mut self) {
        self.play
            .stamp_tags(&self.prefs.settings().name, self.prefs.settings().level);
        if let Some(text) = self.play.save() {
            self.log_line(LogKind::Error, text.clone());
            self.error(text);
        }
    }

    /// Sets (or with `None` removes) the time control games are played with; a game
    /// without moves takes it at once (both clocks full), one under way keeps its own.
    pub fn set_time_control(&mut self, tc: Option<TimeControl>) {
        self.play.set_time_control(tc);
    }

    /// Makes `game` the current game (loaded, resumed): the engine forgets the old one, the
    /// clocks are set from the game's last `[%clk]` readings.
    pub fn set_game(&mut self, game: Game, how: &str) {
        self.session.new_game();
        self.play.replace_game(game);
        let n = moves_text(self.play.game().ply());
        self.log_line(
            LogKind::Info,
            format!("{how}: {n}, {}", self.play.game().fen()),
        );
        self.info(format!("{how} ({n})"));
        self.session.set_state(EngineState::Idle);
        self.position_changed();
        self.save();
    }

    /// Offers an unfinished game for resuming: the next key answers (y/n).
    pub fn offer_resume(&mut self, game: Game) {
        self.play.ask(Prompt::Resume(Box::new(game)));
        self.ask_prompt();
        // Nothing may move (and be saved over the unfinished game) before the answer.
        self.cancel_search();
    }

    /// The question of the prompt waiting, on the status line (again, after a room: in a
    /// room it waits unasked, and no key of the room's game answers it).
    pub(super) fn ask_prompt(&mut self) {
        let Some(Prompt::Resume(game)) = self.play.prompt() else {
            return;
        };
        if self.club.in_room() {
            return;
        }
        let n = moves_text(game.len());
        let date = game.tags.date.clone();
        self.screen.set_message(Message {
            kind: MessageKind::Question,
            // The keys first: a narrow line still shows them.
            text: format!("Unfinished game: y resumes it, n sets it aside ({n}, {date})"),
        });
    }

    pub(super) fn answer_prompt(&mut self, key: KeyEvent) {
        let Some(Prompt::Resume(game)) = self.play.take_prompt() else {
            return;
        };
        match key.code {
            KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                self.set_game(*game, "resumed");
                // A club viewer goes on with the engine game rather than the lobby.
                self.club.play_engine();
            }
            KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                self.screen.clear_message();
                let aside = self.play.autosave().map(Autosave::set_aside);
                match aside {
                    Some(Ok(Some(path))) => {
                        self.info(format!("the unfinished game is kept in {}", path.display()))
                    }
                    Some(Err(e)) => self.error(format!("autosave: {e}")),
                    _ => {}
                }
                self.position_changed();
            }
            _ => self.play.ask(Prompt::Resume(game)),
        }
    }

    /// The search's score of move `index` (just played) for its log line, ` · search +0.35
    /// d12`, and as the move's `[%eval]` in the saved PGN: always for the engine's own move,
    /// for another only when the search gave it an exact score (a bound is no evaluation).
    /// Empty after a mating move: the position says checkmate, and no score is left.
    fn note_search_score(&mut self, index: usize, s: SearchScore, by_engine: bool) -> String {
        let mover = self.side_to_move().flip();
        if self.play.game().board().no_move_text().is_some() {
            return String::new();
        }
        let Some(after) = score_after_move(s.score_white, mover) else {
            return String::new();
        };
        if (by_engine || s.bound == Bound::Exact)
            && let Some(pm) = self.play.game().moves().get(index)
        {
            let mut notes = pm.annotations.clone();
            notes.eval = Some(after);
            // The move's own variations were legal when set; nothing else is checked.
            let _ = self.play.game_mut().set_annotations(index, notes);
        }
        search_note(after, s.bound, s.depth, mover)
    }

    /// Announces a result in the log and on the status line and stops everything.
    pub(super) fn announce(&mut self, end: GameEnd) {
        self.log_line(
            LogKind::Result,
            format!("{} {}", end.result(), end.reason()),
        );
        self.info(format!("game over: {} {}", end.result(), end.reason()));
        self.cancel_search();
        let now = Instant::now();
        self.play.run_clock(now);
        if self.play.series_game_over(now) {
            self.log_line(LogKind::Info, "the series of games is over");
        }
    }

    /// Plays a legal move, charges the clock, logs the move with the E of the new
    /// position, the search's score of it when a search scored it (the engine's own, or an
    /// analysis of the position it was played in) and who chose it, saves, and announces a
    /// result.
    pub(super) fn play_move(&mut self, m: Move, source: MoveSource) {
        let now = Instant::now();
        self.play.reopen_at_cursor(now);
        if let Some(loser) = self.play.clock().and_then(|c| c.flag(now)) {
            self.flag_fell(loser);
            return;
        }
        let searched = match &source {
            MoveSource::Searched(info) => Some(SearchScore {
                score_white: info.score_white,
                bound: info.bound,
                depth: info.depth,
            }),
            MoveSource::Human => self.searched_score_of(m),
            MoveSource::Book(_) | MoveSource::EngineUnsearched => None,
        };
        let played = match &source {
            MoveSource::Searched(info) => self.play.game_mut().play_engine(
                m,
                EngineNote {
                    score: info.score_white,
                    depth: info.depth,
                },
            ),
            _ => self.play.game_mut().play(m),
        };
        if let Err(e) = played {
            self.error(e.to_string());
            return;
        }
        let mover = self.side_to_move().flip();
        let settings = self.prefs.settings();
        self.play
            .record_move(mover, source.by_engine(), &settings.name, settings.level);
        if let Some(by) = self.play.draws().offer()
            && by != mover
        {
            // Any move of the other side declines a standing offer.
            self.play.draws_mut().lapse();
            let who = if self.engine_plays(by) {
                "ox88".to_string()
            } else {
                by.name().to_string()
            };
            self.log_line(LogKind::Info, format!("{who}'s draw offer declined"));
        }
        self.note_hint(&source);
        if let Some(c) = self.play.clock_mut() {
            match c.switch(now) {
                Some(loser) => self.flag_fell(loser),
                None => {
                    let left = c.remaining(mover, now);
                    self.play.game_mut().set_last_clock(left);
                }
            }
        }
        let index = self.play.game().ply() - 1;
        let numbered = self
            .play
            .game()
            .numbered_san(index)
            .unwrap_or_else(|| m.to_string());
        let mut text = format!(
            "{numbered} ({m})  {}",
            shown_e_text(self.play.game().board(), &self.prefs.eval())
        );
        if let Some(s) = searched {
            text.push_str(&self.note_search_score(index, s, source.by_engine()));
        }
        let engine_move = source.by_engine();
        match source {
            MoveSource::Book(book) => {
                text.push_str(&format!("  book: {book}"));
                self.session.set_state(EngineState::Book(book));
            }
            MoveSource::Searched(_) | MoveSource::EngineUnsearched => {
                self.session.set_state(EngineState::Idle)
            }
            MoveSource::Human => {}
        }
        self.log_line(LogKind::Move, text);
        self.save();
        if let Some(end) = self.play.game().result() {
            self.announce(end);
        }
        // After an engine move the sort pane keeps showing how the engine ordered its
        // choices (until something newer): the reason to have the pane at all.
        if engine_move {
            self.panes.tell(PaneEvent::EnginePlayed(m));
        }
        self.position_changed();
    }

    pub(super) fn flag_fell(&mut self, loser: Color) {
        // The game ends on time where the board is: moves taken back and kept for Ctrl+Y
        // are no longer to be replayed.
        self.play.game_mut().truncate();
        match self.play.game_mut().flag_fall(loser) {
            Ok(end) => {
                self.announce(end);
                self.save();
            }
            Err(GameError::Over(_)) => {}
            Err(e) => self.error(e.to_string()),
        }
    }

    pub(super) fn new_game(&mut self, start: Option<Board>) {
        // A new game ends puzzles: the game set aside comes back first, to be kept as usual.
        self.leave_puzzles();
        let kept = self.keep_previous_game();
        self.session.new_game();
        // A new game's lines are what the reader wants: the log follows them again.
        self.pane_act(pane::log::FOCUS, Action::Bottom);
        let fen = start.as_ref().map(Board::to_fen);
        self.play.begin(start);
        self.session.set_state(EngineState::Idle);
        match fen {
            Some(f) => self.log_line(LogKind::Info, format!("new game from {f}")),
            None => self.log_line(LogKind::Info, "new game"),
        }
        if let Some(kept) = &kept {
            self.log_line(LogKind::Info, kept.clone());
        }
        let kept = kept.map(|k| format!("; {k}")).unwrap_or_default();
        self.info(format!("new game: {}{kept}", self.play.mode().describe()));
        // Saving the empty game sets an unfinished earlier one aside (nothing is lost).
        self.save();
        self.position_changed();
    }

    pub(super) fn undo(&mut self) {
        self.cancel_search();
        if self.play.game().ply() == 0 {
            self.error("nothing to take back");
            return;
        }
        let before = self.play.game().ply();
        self.play.game_mut().undo();
        // Against the engine, take back its reply too, so it is the human's turn again.
        if matches!(self.play.mode(), Mode::HumanWhite | Mode::HumanBlack)
            && self.engine_plays(self.side_to_move())
        {
            self.play.game_mut().undo();
        }
        let list = plies_text(self.play.game(), self.play.game().ply(), before);
        self.log_line(LogKind::Info, format!("took back {list}"));
        self.info(format!("took back {list} (Ctrl+Y replays)"));
        self.play.took_back();
        self.session.set_state(EngineState::Idle);
        self.save();
        self.position_changed();
    }

    pub(super) fn redo(&mut self) {
        self.cancel_search();
        let before = self.play.game().ply();
        if self.play.game_mut().redo().is_none() {
            self.error("nothing to replay");
            return;
        }
        if matches!(self.play.mode(), Mode::HumanWhite | Mode::HumanBlack)
            && self.engine_plays(self.side_to_move())
        {
            self.play.game_mut().redo();
        }
        let list = plies_text(self.play.game(), before, self.play.game().ply());
        self.log_line(LogKind::Info, format!("replayed {list}"));
        self.info(format!("replayed {list}"));
        self.save();
        if let Some(end) = self.play.game().result() {
            self.announce(end);
        }
        self.position_changed();
    }

    pub(super) fn submit(&mut self) {
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
    pub(super) fn enter_move(&mut self, text: &str) -> bool {
        if let Some(end) = self.play.game().result() {
            self.error(format!(
                "the game is over ({} {}): Ctrl+N for a new one",
                end.result(),
                end.reason()
            ));
            return false;
        }
        if self.session.is_thinking_for_a_move() {
            if matches!(self.play.mode(), Mode::HumanWhite | Mode::HumanBlack) {
                return self.set_premove(text);
            }
            self.error("the engine is thinking: Ctrl+G makes it move now, Esc stops it");
            return false;
        }
        if self.puzzles.active().is_some() {
            return match self.play.game().board().parse_move(text) {
                Ok(m) => self.puzzle_answer(m),
                Err(e) => {
                    self.error(e.to_string());
                    false
                }
            };
        }
        match self.play.game().board().parse_move(text) {
            Ok(m) => {
                self.screen.clear_message();
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

    /// Before a new game replaces the one on the board: an unfinished game is kept as
    /// abandoned in the archive, and the message says where the game went (relative to the
    /// data directory, never a server's absolute path). `None`: no moves to keep.
    pub(super) fn keep_previous_game(&mut self) -> Option<String> {
        if self.play.game().ply() == 0 {
            return None;
        }
        let Some(store) = self.play.autosave().cloned() else {
            return Some(
                "the previous game is not kept (no autosave here; :save FILE keeps a game)"
                    .to_string(),
            );
        };
        if self.play.game().result().is_none() {
            self.play
                .stamp_tags(&self.prefs.settings().name, self.prefs.settings().level);
            self.play.game_mut().tags.set("Termination", "abandoned");
            if let Some(e) = self.play.save() {
                self.log_line(LogKind::Error, e.clone());
                return Some(format!("the previous game could not be kept: {e}"));
            }
            match store.set_aside() {
                Ok(path) => self.play.set_last_saved(path),
                Err(e) => return Some(format!("the previous game could not be set aside: {e}")),
            }
        }
        let path = self.play.last_saved()?.to_path_buf();
        let shown = path.strip_prefix(store.dir()).unwrap_or(&path);
        Some(format!("previous game kept in {}", shown.display()))
    }
}
