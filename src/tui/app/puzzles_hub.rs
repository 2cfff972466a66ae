//! The hub's side of puzzles: `:puzzle` and Ctrl+O serve one, a typed move answers it, F2
//! (or `:puzzle show`) plays out the solution, and `:puzzle off` (or a new game) gives the
//! game that was set aside back. While puzzles are on, the engine plays no side and the
//! autosave is set aside, so the game in progress is never touched by a puzzle.

use super::puzzles::RecordHome;
use super::{App, LogKind, MoveSource};
use crate::chess::{Color, Move};
use crate::club::Role;
use crate::game::Game;
use crate::game::annotate::Judgement;
use crate::puzzle::Puzzle;
use crate::puzzle::mine::{MineSettings, Miner};
use crate::puzzle::progress::{self, Choice};
use crate::puzzle::solve::{Answer, Solving};
use crate::tui::Mode;

/// Nodes per position when the player's reviewed mistakes are checked for a clear answer.
const OWN_PUZZLE_NODES: u64 = 60_000;

fn today() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}

impl App {
    /// `:puzzle [THEME|RATING|mine|stats|show|off]`.
    pub(super) fn puzzle_command(&mut self, arg: &str) -> Result<(), String> {
        match arg.trim().to_ascii_lowercase().as_str() {
            "stats" => {
                let lines = self.puzzles.progress().summary();
                for line in &lines {
                    self.log_line(LogKind::Info, line.clone());
                }
                self.info(format!("{} (more in the log)", lines[0]));
                Ok(())
            }
            "show" => self.show_solution(),
            "off" | "end" | "stop" => {
                if !self.puzzles.is_on() {
                    return Err("no puzzle is on the board".into());
                }
                self.leave_puzzles();
                Ok(())
            }
            _ => {
                let set = self.puzzles.set().map_err(|e| {
                    format!("{e}: puzzles come from the shipped set until the file reads")
                });
                let set = match set {
                    Ok(s) => s.to_vec(),
                    Err(e) => {
                        self.puzzles.use_shipped();
                        self.error(e);
                        self.puzzles.set()?.to_vec()
                    }
                };
                let choice = progress::parse_choice(arg, &set)?;
                self.next_puzzle_from(&set, choice)
            }
        }
    }

    /// Ctrl+O: the next puzzle, chosen as the last one was.
    pub(super) fn next_puzzle(&mut self) {
        let choice = self.puzzles.choice().cloned().unwrap_or(Choice::Any);
        let result = match self.puzzles.set() {
            Ok(set) => {
                let set = set.to_vec();
                self.next_puzzle_from(&set, choice)
            }
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            self.error(e);
        }
    }

    fn next_puzzle_from(&mut self, set: &[Puzzle], choice: Choice) -> Result<(), String> {
        let salt = self.play.game().id().len() as u64;
        let seed = self.puzzles.choose(choice.clone(), salt);
        let Some(p) = self.puzzles.progress().pick(set, &choice, seed) else {
            return Err(match (choice, self.puzzles.own_note()) {
                (Choice::Own, Some(why)) => format!("no mistakes of yours to solve: {why}"),
                (Choice::Own, None) => "no mistakes of yours to solve: a :review of a game \
                                        you played turns them into puzzles"
                    .into(),
                _ => "no puzzle matches".into(),
            });
        };
        self.start_puzzle(p)
    }

    /// Sets the game aside (the first time) and puts the puzzle on the board: its position,
    /// the opponent's move played, the board turned to the solver.
    fn start_puzzle(&mut self, p: Puzzle) -> Result<(), String> {
        let solving = Solving::new(p).map_err(|e| e.to_string())?;
        if self.club.in_room() {
            return Err("puzzles are not played in a room: :lobby first, then :puzzle".into());
        }
        // A club viewer's puzzle takes the lobby's place beside the board.
        self.club.play_engine();
        self.cancel_search();
        self.close_tree();
        let flipped = self.screen.flipped();
        self.puzzles.keep_aside(|| self.play.set_aside(flipped));
        self.play.between_people();
        let puzzle = solving.puzzle().clone();
        let mut game = match Game::from_fen(&puzzle.fen) {
            Ok(g) => g,
            Err(e) => return Err(format!("puzzle {}: {e}", puzzle.id)),
        };
        game.tags.event = format!("ox88 puzzle {}", puzzle.id);
        if let Err(e) = game.play(solving.opening_move()) {
            return Err(format!("puzzle {}: {e}", puzzle.id));
        }
        self.play.show(game, Mode::HumanHuman);
        let solver = solving.solver();
        self.screen.turn_for(solver);
        self.puzzles.begin(solving);
        let (_, total) = self.puzzles.active().map_or((0, 0), Solving::progress);
        let rating = self.puzzles.progress().puzzle_rating(&puzzle).rating;
        let last = self
            .play
            .game()
            .numbered_san(0)
            .unwrap_or_else(|| solving_move_text(self.puzzles.active()));
        let text = format!(
            "puzzle {} (rated {rating:.0}): after {last}, {} to play and win ({} move{}); \
             F2 shows the solution, :puzzle off goes back to your game",
            puzzle.id,
            solver.name(),
            total,
            if total == 1 { "" } else { "s" }
        );
        self.log_line(LogKind::Info, text.clone());
        self.info(text);
        self.position_changed();
        Ok(())
    }

    /// A move typed while a puzzle is on. True when the move was right (the input clears).
    pub(super) fn puzzle_answer(&mut self, m: Move) -> bool {
        let Some(solving) = self.puzzles.active_mut() else {
            return false;
        };
        let board = self.play.game().board().clone();
        let san = board.san(m);
        match solving.answer(m) {
            Answer::Over => {
                self.error("this puzzle is over: Ctrl+O for the next, :puzzle off for your game");
                false
            }
            Answer::Wrong { played, .. } => {
                let mut after = board.clone();
                after.make(played);
                let why = match self.puzzles.refutation(&after) {
                    Some((score, line)) if !line.is_empty() => {
                        format!(
                            "{} answers {} (search {score}, White's view)",
                            board.side_to_move().flip().name(),
                            line.join(" ")
                        )
                    }
                    _ => "it does not win".to_string(),
                };
                let text = format!("✗ {san} is not it: {why}; try again, or F2 for the solution");
                self.log_line(LogKind::Info, text.clone());
                self.error(text);
                false
            }
            Answer::Right { reply } => {
                self.play_move(m, MoveSource::Human);
                let reply_san = self.play.game().board().san(reply);
                self.play_move(reply, MoveSource::Human);
                let (done, total) = self.puzzles.active().map_or((0, 0), Solving::progress);
                self.info(format!(
                    "✓ {san} — {reply_san} was the reply; {} more to find ({done} of {total})",
                    total - done
                ));
                true
            }
            Answer::Solved => {
                self.play_move(m, MoveSource::Human);
                self.puzzle_over();
                true
            }
        }
    }

    /// F2 or `:puzzle show`: the rest of the solution is played out; the puzzle counts as
    /// not solved.
    pub(super) fn show_solution(&mut self) -> Result<(), String> {
        let Some(solving) = self.puzzles.active_mut() else {
            return Err("no puzzle is on the board: :puzzle serves one".into());
        };
        if solving.is_over() {
            return Err("this puzzle is over: Ctrl+O for the next".into());
        }
        let rest = solving.show();
        let sans = self.play.game().board().san_line(&rest);
        for m in rest {
            self.play_move(m, MoveSource::Human);
        }
        self.log_line(LogKind::Info, format!("solution: {}", sans.join(" ")));
        self.puzzle_over();
        Ok(())
    }

    /// Counts the finished puzzle once: the ratings move and the record is saved.
    fn puzzle_over(&mut self) {
        if self.puzzles.active().is_none() || !self.puzzles.count_once() {
            return;
        }
        let Some(solving) = self.puzzles.active() else {
            return;
        };
        let clean = solving.clean_solve().unwrap_or(false);
        let puzzle = solving.puzzle().clone();
        let shown = solving.was_shown();
        let change = self.puzzles.progress_mut().record(&puzzle, clean, &today());
        let delta = change.after - change.before;
        let head = if clean {
            "✓ solved".to_string()
        } else if shown {
            "solution shown".to_string()
        } else {
            "solved after a miss".to_string()
        };
        let text = format!(
            "{head}: puzzle rating {:.0} ({delta:+.0}) · {} · Ctrl+O next, :puzzle off back to your game",
            change.after,
            if puzzle.themes.is_empty() {
                "no themes".to_string()
            } else {
                puzzle.themes.join(" ")
            }
        );
        self.log_line(LogKind::Info, text.clone());
        self.info(text);
        if let Some(e) = self.puzzles.save() {
            self.log_line(LogKind::Error, format!("puzzle record: {e}"));
            self.error(format!("puzzle record not saved: {e}"));
        }
    }

    /// Puzzles end: the game set aside comes back as it was.
    pub(super) fn leave_puzzles(&mut self) {
        let Some(back) = self.puzzles.end() else {
            return;
        };
        self.cancel_search();
        let flipped = self.play.restore(back);
        self.screen.set_flipped(flipped);
        self.log_line(LogKind::Info, "puzzles off: back to the game");
        self.info("back to your game");
        self.position_changed();
    }

    /// The side the player had in the game on the board: their seat in a club room, the
    /// side they play against the engine, or the side a game that names its players (a
    /// loaded or resumed one) gives their name (the settings' `name`, or their club name).
    fn players_side(&self) -> Option<Color> {
        if self.club.in_room() {
            return match self.club.role() {
                Some(Role::Player(side)) => Some(side),
                _ => None,
            };
        }
        if !self.play.names_its_players() {
            match self.play.mode() {
                Mode::HumanWhite => return Some(Color::White),
                Mode::HumanBlack => return Some(Color::Black),
                _ => {}
            }
        }
        let mut names = vec![self.prefs.settings().name.clone()];
        if let Some(v) = self.club.viewer() {
            names.push(v.member().name.clone());
        }
        let is_me = |tag: &str| {
            let tag = tag.trim();
            !tag.is_empty()
                && tag != "?"
                && names.iter().any(|n| n.trim().eq_ignore_ascii_case(tag))
        };
        let tags = &self.play.game().tags;
        match (is_me(&tags.white), is_me(&tags.black)) {
            (true, false) => Some(Color::White),
            (false, true) => Some(Color::Black),
            _ => None,
        }
    }

    /// After a review of a game the player played (against the engine, from a `:fen` too,
    /// in the club, or a loaded game that names them): their mistakes (`?`, `??`) whose
    /// better move is the only winning one become their own puzzles (`:puzzle mine`). When
    /// none does, the reason is kept for `:puzzle mine` to give.
    pub(super) fn keep_own_mistakes(&mut self, review: &crate::game::annotate::Review) {
        let Some(player) = self.players_side() else {
            self.puzzles.set_own_note(Some(
                "the game reviewed is not one you played (against ox88, in the club, or a \
                 loaded game naming you as in the settings' name)"
                    .into(),
            ));
            return;
        };
        let mistakes = review
            .moves
            .iter()
            .filter(|m| m.mover == player && m.judgement >= Some(Judgement::Mistake))
            .count();
        let mut miner = Miner::new(MineSettings {
            nodes: OWN_PUZZLE_NODES,
            hash_mb: 8,
            rate_by_levels: false,
            ..MineSettings::default()
        });
        let source = format!("game {}", self.play.game().id());
        let own = miner.own_puzzles(self.play.game(), review, player, &source);
        let found = own.len();
        let date = today();
        let added = own
            .into_iter()
            .filter(|p| self.puzzles.progress_mut().add_own(p.clone(), &date))
            .count();
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        let note = match (mistakes, found) {
            (0, _) => Some("the game reviewed has no mistake (? or ??) of yours".to_string()),
            (n, 0) => Some(format!(
                "the game reviewed has {n} mistake{} of yours, none with a single winning \
                 answer",
                plural(n)
            )),
            _ => None,
        };
        self.puzzles.set_own_note(note.clone());
        if let Some(why) = note {
            self.log_line(LogKind::Info, format!("own puzzles: {why}"));
        }
        if added == 0 {
            return;
        }
        let text = format!(
            "{added} of your mistakes became puzzles: :puzzle mine serves them ({} to solve)",
            self.puzzles.progress().own_pending()
        );
        self.log_line(LogKind::Info, text);
        if let Some(e) = self.puzzles.save() {
            self.log_line(LogKind::Error, format!("puzzle record: {e}"));
        }
    }

    /// The player's puzzle record and where it is kept: beside the autosave's games.
    pub(super) fn load_puzzle_record(&mut self) {
        if let Some(v) = self.club.viewer()
            && v.member().rated
        {
            // A member of the club with a key: the record is kept under the key.
            let (store, member) = (v.store(), v.member().id.clone());
            let loaded = match store.puzzle_record(&member) {
                Ok(json) => json
                    .map_or(Ok(progress::Progress::default()), |j| {
                        serde_json::from_str(&j)
                    })
                    .map_err(|e| format!("puzzle record: {e}")),
                Err(e) => Err(e.to_string()),
            };
            if let Err(e) = self
                .puzzles
                .keep_record(RecordHome::Store(store, member), loaded)
            {
                self.error(format!("{e}; puzzles are counted for this session only"));
            }
            return;
        }
        let Some(dir) = self.play.autosave().map(|a| a.dir().to_path_buf()) else {
            return;
        };
        let path = dir.join(progress::FILE_NAME);
        let loaded = progress::Progress::load(&path).map_err(|e| e.to_string());
        if let Err(e) = self.puzzles.keep_record(RecordHome::File(path), loaded) {
            self.error(format!("{e}; puzzles are counted for this session only"));
        }
    }

    /// A puzzle is on the board and not over: what would give its solution away (the sort
    /// pane's ordering) stays hidden.
    pub fn puzzle_unsolved(&self) -> bool {
        self.puzzles.active().is_some_and(|s| !s.is_over())
    }

    /// The score and side of a puzzle's solver, for the status line.
    pub fn puzzle_status(&self) -> Option<String> {
        let s = self.puzzles.active()?;
        let (done, total) = s.progress();
        Some(if s.is_over() {
            format!("puzzle {} over", s.puzzle().id)
        } else {
            format!(
                "puzzle {}: {} to play ({done}/{total})",
                s.puzzle().id,
                s.solver().name()
            )
        })
    }
}

fn solving_move_text(s: Option<&Solving>) -> String {
    s.map(|s| s.opening_move().uci()).unwrap_or_default()
}
