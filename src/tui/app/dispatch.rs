//! Keys and pasted text routed to what they mean: the help overlay, the prompt, the board
//! cursor, the focused pane's scrolling, the input line, and the actions of the key table.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::App;
use crate::chess::{Move, PieceKind, Square};
use crate::tui::keys::{Action, Focus};
use crate::tui::pane;
use crate::tui::pane::Reply;
use crate::tui::{keys, layout, theme};

impl App {
    /// The squares to highlight for a partly typed move: the piece(s) it could move and
    /// their legal targets. Coordinates: `e2` → e2 and e3, e4; `e2e4` → e2 and e4. SAN:
    /// a complete move marks its two squares (`Nf3`), a piece letter alone every piece of
    /// that kind that can move and where (`N` → both knights).
    pub fn typed_squares(&self) -> Option<(Vec<Square>, Vec<Square>)> {
        let text = self.input.value().trim();
        if self.panes.tree().explorer().is_open() {
            // The browser's board: the selected child's move.
            let m = self.panes.tree().explorer().selected_move()?;
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
        let board = self.play.game().board();
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

    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        // A key is pressed at what the screen showed: its message has been seen.
        self.screen.frame_drawn();
        if key.code == KeyCode::Char('c') && key.modifiers == KeyModifiers::CONTROL {
            self.screen.request_quit();
            return;
        }
        if layout::too_small(self.screen.area()) {
            // Nothing on screen says what a key would do: only quitting acts.
            let focus = Focus::INPUT;
            if keys::action_for(self.prefs.keys(), &key, self.input.is_empty(), focus)
                == Some(Action::Quit)
            {
                self.screen.request_quit();
            }
            return;
        }
        // A prompt of the game against the engine waits while the viewer is in a room:
        // a key there is the room's.
        if self.play.prompt().is_some() && !self.club.in_room() {
            self.answer_prompt(key);
            return;
        }
        if self.screen.help_visible() {
            self.help_key(key);
            return;
        }
        if self.screen.legend_scroll().is_some() {
            self.legend_key(key);
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
            if self.review.visible()
                && self.screen.focus() == Focus::INPUT
                && self.review_key(key.code)
            {
                return;
            }
        }
        let focus = self.screen.focus();
        match keys::action_for(self.prefs.keys(), &key, input_empty, focus) {
            Some(action) => self.act(action),
            // End on an empty input line: the log follows its newest line again.
            None if key.code == KeyCode::End
                && input_empty
                && self.screen.focus() == Focus::INPUT =>
            {
                self.pane_act(pane::log::FOCUS, Action::Bottom);
            }
            None => self.type_key(key),
        }
    }

    pub(super) fn help_key(&mut self, key: KeyEvent) {
        let max = crate::tui::help::help_max_scroll(self.screen.area(), self.club.is_on());
        match key.code {
            KeyCode::Up => self.screen.scroll_help(1, true, max),
            KeyCode::Down => self.screen.scroll_help(1, false, max),
            KeyCode::PageUp => self.screen.scroll_help(10, true, max),
            KeyCode::PageDown => self.screen.scroll_help(10, false, max),
            _ => self.screen.close_help(),
        }
    }

    /// Keys the table does not claim edit the input line (and bring the focus back to it).
    pub(super) fn type_key(&mut self, key: KeyEvent) {
        if self.screen.focus() != Focus::INPUT {
            if !matches!(
                key.code,
                KeyCode::Char(_) | KeyCode::Backspace | KeyCode::Delete
            ) {
                return;
            }
            self.screen.focus_on(Focus::INPUT);
        }
        self.input.handle_key(key);
    }

    /// Pasted text goes into the input line at once (only its first line: a paste never
    /// plays a move by itself; as much as the line holds).
    pub fn handle_paste(&mut self, text: &str) {
        if (self.play.prompt().is_some() && !self.club.in_room())
            || layout::too_small(self.screen.area())
        {
            return;
        }
        if self.study_paste(text) {
            // A chapter's PGN, whole (lines and all), went to the study.
            return;
        }
        let line = text.lines().next().unwrap_or("");
        // A move is typed against the game's position, on the board again.
        self.leave_viewing();
        let text: String = line.chars().filter(|c| !c.is_control()).collect();
        let left = self.input.insert_text(&text);
        if left > 0 {
            self.error(format!(
                "the paste was cut: {left} characters did not fit on the line (it holds {} bytes)",
                super::input::LINE_MAX
            ));
        }
        self.screen.focus_on(Focus::INPUT);
    }

    pub fn act(&mut self, action: Action) {
        if let Some(why) = self.room_refuses_action(action) {
            self.error(why);
            return;
        }
        match action {
            Action::Quit => self.screen.request_quit(),
            Action::Help => {
                self.screen.open_help();
            }
            Action::Legend => self.open_legend(),
            Action::DepthUp => self.set_depth(self.prefs.settings().depth + 1),
            Action::DepthDown => self.set_depth(self.prefs.settings().depth.saturating_sub(1)),
            Action::EngineMove => self.engine_move_now(),
            Action::Stop => self.stop_engine(),
            Action::Hint if self.puzzles.active().is_some() => {
                if let Err(e) = self.show_solution() {
                    self.error(e);
                }
            }
            Action::Hint => self.hint_command(),
            Action::Puzzle => self.next_puzzle(),
            Action::Review => {
                if let Err(e) = self.start_review(crate::engine::jobs::ReviewDepth::Quick) {
                    self.error(e);
                }
            }
            Action::CycleMultiPv => self.set_multipv(self.prefs.multipv() % 4 + 1),
            Action::NewGame => self.new_game(None),
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Flip => {
                let flipped = self.screen.flip();
                self.info(if flipped {
                    "board flipped: Black at the bottom"
                } else {
                    "White at the bottom"
                });
            }
            Action::Tab => {
                if self.input.value().starts_with(':') {
                    self.complete();
                } else {
                    self.cycle_focus(true);
                }
            }
            Action::FocusPrev => self.cycle_focus(false),
            Action::Up | Action::Down if self.screen.focus() == Focus::INPUT => {
                self.input.recall(action == Action::Up)
            }
            // The scrolling keys go to the focused pane (the log's from the input line).
            Action::Up
            | Action::Down
            | Action::PageUp
            | Action::PageDown
            | Action::Top
            | Action::Bottom => {
                let focus = match self.screen.focus() {
                    Focus::INPUT => pane::log::FOCUS,
                    f => f,
                };
                self.pane_act(focus, action);
            }
            // A pane's own actions from anywhere (Alt+← / Alt+→ step the sort pane's PV).
            Action::PvBack | Action::PvForward | Action::TreeInto | Action::TreeBack => {
                self.any_pane_act(action)
            }
            Action::Submit => self.submit(),
            Action::View => {
                self.close_tree();
                self.set_view(self.screen.view().next());
            }
            Action::Tree => {
                if self.panes.tree().explorer().is_open() {
                    self.close_tree();
                } else {
                    self.open_tree();
                }
            }
            Action::TreeReload => self.reload_tree(),
            Action::StepBack => self.step_game(false),
            Action::StepForward => self.step_game(true),
            Action::BoardCursor => self.toggle_cursor(),
            Action::EvalPvEnd => {
                let pv_end = self.screen.toggle_pv_end();
                self.info(if pv_end {
                    "evaluation: this position beside the end of the engine's PV"
                } else {
                    "evaluation: this position"
                });
            }
            Action::Cancel => {
                if !self.input.is_empty() {
                    self.input.clear();
                } else if let Some(text) = self.play.assist_mut().take_premove() {
                    self.info(format!("premove {text} cancelled"));
                } else if self.panes.tree().explorer().is_open() {
                    self.close_tree();
                } else if self.lab.cancel() {
                    self.info("lab: stopping");
                } else if self.screen.focus() != Focus::INPUT {
                    self.screen.focus_on(Focus::INPUT);
                } else if self.session.is_searching()
                    || self.play.series().next_engine_start().is_some()
                    || self.play.series().next_game_start().is_some()
                {
                    self.stop_engine();
                } else {
                    self.screen.clear_message();
                }
            }
        }
    }

    /// A key's action for the pane with this focus, with the rows it has on screen; what
    /// it says goes to the status line. Whether the pane took it.
    pub(super) fn pane_act(&mut self, focus: Focus, action: Action) -> bool {
        let rows = self.rows_of(focus);
        let Some(pane) = self.panes.get_mut(focus) else {
            return false;
        };
        match pane.act(action, rows) {
            Reply::Ignored => return false,
            Reply::Done => {}
            Reply::Say(text) => self.info(text),
            Reply::Error(text) => self.error(text),
        }
        true
    }

    /// A pane's own action, whichever pane has the focus: the focused pane first, then the
    /// first pane that takes it.
    fn any_pane_act(&mut self, action: Action) {
        let mut order = vec![self.screen.focus()];
        order.extend(self.panes.all().iter().map(|p| p.focus()));
        for focus in order {
            if self.pane_act(focus, action) {
                return;
            }
        }
    }

    /// Tab (or Shift+Tab): the next (previous) pane on screen has the keyboard, the input
    /// line between the last and the first.
    fn cycle_focus(&mut self, forward: bool) {
        let areas = self.areas();
        let mut order = vec![Focus::INPUT];
        order.extend(
            self.panes
                .all()
                .iter()
                .map(|p| p.focus())
                .filter(|&f| self.panes.rect(f, &areas).is_some()),
        );
        let at = order
            .iter()
            .position(|&f| f == self.screen.focus())
            .unwrap_or(0);
        let n = order.len();
        let next = if forward { at + 1 } else { at + n - 1 } % n;
        self.screen.focus_on(order[next]);
    }

    /// Tab on the input line, among the commands usable where the viewer is. The colour
    /// themes are read from their folder, the puzzle set (for `:puzzle`'s themes) and the
    /// club's lobby only for the word being completed.
    pub(super) fn complete(&mut self) {
        use super::command::Words;
        let scope = self.club.scope();
        let user_themes = self.prefs.user_theme_dir();
        let puzzles = &mut self.puzzles;
        let club = &self.club;
        let mut lists = |kind: Words| match kind {
            Words::Theme => theme::available(user_themes),
            Words::Puzzle => match puzzles.set() {
                Ok(set) => set
                    .iter()
                    .flat_map(|p| p.themes.iter().cloned())
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect(),
                Err(_) => Vec::new(),
            },
            kind => club.lobby_words(kind, std::time::Instant::now()),
        };
        let candidates = self.input.complete(scope, &mut lists);
        if !candidates.is_empty() {
            self.info(candidates.join("  "));
        }
    }
}
