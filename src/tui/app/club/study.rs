//! The hub's side of a club viewer's study (under `ox88 serve`): into a study and out of it,
//! the position at the cursor (or where this screen browses on its own) copied into the
//! app's game, the study's commands and keys sent to the club, and the room's analysis
//! followed on the shared cursor. Those with the right move the cursor for everyone; the
//! others follow it, and may step away (Ctrl+B) to browse without changing anything for
//! anyone else. The engine game is set aside while the viewer is in a study.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::view::Place;
use crate::club::study::{Behind, Source, Step, StudyAction};
use crate::engine::IterationInfo;
use crate::game::Game;
use crate::game::study::Arrow;
use crate::tui::Mode;
use crate::tui::app::command::{ChapterArg, ChapterFrom, Command};
use crate::tui::app::{App, LogKind};

/// An evaluation from the room's analysis is kept on the move from this depth on.
const EVAL_KEPT_FROM: u32 = 12;

impl App {
    /// `:study NAME`: opens or joins it, out of any room first.
    pub(in crate::tui::app) fn open_study(&mut self, name: &str) -> Result<String, String> {
        let said = self.with_viewer(|v| v.study_open(name))?;
        if self.club.place() == Place::Room {
            self.room_left();
        }
        self.cancel_search();
        let flipped = self.screen.flipped();
        self.club.enter_study(|| self.play.set_aside(flipped));
        self.play.between_people();
        self.club.refresh(std::time::Instant::now());
        // The engine's panes open on the room's analysis where the engine is allowed; why
        // not, when they stay shut, goes to the log.
        let engine = self
            .club
            .engine_allowed()
            .and_then(|()| self.club.open_engine().map_err(|e| e.to_string()));
        match engine {
            Ok(()) => self.play.set_mode(Mode::Analysis),
            Err(why) => self.log_line(
                LogKind::Info,
                format!("the engine's panes stay shut: {why}"),
            ),
        }
        self.sync_study();
        self.log_line(LogKind::Info, said.clone());
        Ok(said)
    }

    /// `:study NAME` after a room's game: a study with the game as its chapter, the
    /// review's marks, evaluations and better lines (when this screen has reviewed it) and
    /// the room's chat on the start, for everyone who was in the room to join.
    pub(in crate::tui::app) fn study_of_room_game(&mut self, name: &str) -> Result<String, String> {
        let Some((view, _)) = self.club.room().cloned() else {
            return Err("not in a room".into());
        };
        let game = view.game.clone();
        let review = self.review.of_game(self.play.game().id()).cloned();
        let chat: Vec<String> = view
            .chat
            .iter()
            .map(|l| format!("{}: {}", l.from, l.text))
            .collect();
        let comment = (!chat.is_empty()).then(|| format!("chat: {}", chat.join(" · ")));
        let tree = crate::game::study::StudyTree::of_game(
            &game,
            review.as_ref(),
            comment,
            crate::club::study::StudyLimits::default().moves,
        );
        let white = game.tags.white.clone();
        let black = game.tags.black.clone();
        let tags = vec![
            ("White".to_string(), white.clone()),
            ("Black".to_string(), black.clone()),
            (
                "Result".to_string(),
                game.final_result()
                    .map_or("*".to_string(), |e| e.result().to_string()),
            ),
        ];
        let pgn = crate::game::study::pgn::write(&tree, &tags);
        let opened = self.open_study(name)?;
        if !self.club.may_move() {
            // Someone else's study: joined, as it is.
            return Ok(opened);
        }
        let said = self.study_act(StudyAction::Chapter {
            name: format!("{white} - {black}"),
            source: Source::Pgn(pgn),
        })?;
        self.on_club_change();
        Ok(format!(
            "{said}{}: everyone from the room may :study {name}",
            if review.is_some() {
                ", with the review's marks and better lines"
            } else {
                " (:review first to have its marks in it)"
            }
        ))
    }

    /// Out of the study (`:lobby`, or the club took the viewer elsewhere): the engine game
    /// comes back.
    pub(in crate::tui::app) fn study_left(&mut self) {
        self.cancel_search();
        let back = self.club.leave_study();
        self.give_back_engine_game(back);
    }

    /// The study read again: the position this screen shows copied into the app's game
    /// when it moved (the notes and the panel are read from the study when drawn).
    pub(in crate::tui::app) fn sync_study(&mut self) {
        let Some((chapter, node)) = self.club.study_moved() else {
            return;
        };
        let Some(study) = self.club.study().cloned() else {
            return;
        };
        let tree = study.chapters()[chapter].tree();
        let mut game = Game::from_board(tree.start().clone());
        for mv in tree.moves_to(node) {
            if game.play(mv).is_err() {
                break;
            }
        }
        let shown = self.play.game();
        if shown.sans() == game.sans() && shown.start() == game.start() {
            return;
        }
        self.show_club_game(game, self.club.engine_open());
    }

    /// A line typed in a study: a move for the cursor, or the PGN `:chapter NAME paste`
    /// waits for.
    pub(in crate::tui::app) fn study_line(&mut self, text: &str) -> bool {
        let action = match self.club.take_paste() {
            Some(name) => StudyAction::Chapter {
                name,
                source: Source::Pgn(text.to_string()),
            },
            None => StudyAction::Play(text.to_string()),
        };
        let r = self.study_act(action);
        self.club_result(r)
    }

    /// A paste while `:chapter NAME paste` waits: the whole text, lines and all, is the
    /// chapter's PGN (up to the study's own cap, not the input line's). False when no
    /// chapter waits for one.
    pub(in crate::tui::app) fn study_paste(&mut self, text: &str) -> bool {
        if !self.club.in_study() {
            return false;
        }
        let Some(name) = self.club.take_paste() else {
            return false;
        };
        let r = self.study_act(StudyAction::Chapter {
            name,
            source: Source::Pgn(text.to_string()),
        });
        self.club_result(r);
        true
    }

    pub(in crate::tui::app) fn study_act(&mut self, action: StudyAction) -> Result<String, String> {
        if !self.club.in_study() {
            return Err("you are in no study: :study NAME opens one".into());
        }
        if self.club.is_away() && action.needs_right() && self.club.may_move() {
            // One who moves the room's cursor does it from where the room is.
            self.club.come_back();
        }
        self.with_viewer(|v| v.study_act(action))
    }

    /// The study's commands.
    pub(in crate::tui::app) fn study_command(&mut self, cmd: Command) -> Result<String, String> {
        match cmd {
            Command::Study(name) if self.club.in_room() && !self.club.game_going_on() => {
                self.study_of_room_game(&name)
            }
            Command::Study(name) => self.open_study(&name),
            Command::Right { name, give } => self.with_viewer(|v| v.study_right(&name, give)),
            Command::Comment(text) => self.study_act(StudyAction::Comment(text)),
            Command::Glyph(g) => self.study_act(StudyAction::Glyph(g)),
            Command::Mark { from, to, mark } => self.study_act(match to {
                Some(to) => StudyAction::Arrow(Arrow { from, to, mark }),
                None => StudyAction::Square(from, mark),
            }),
            Command::Promote => self.study_act(StudyAction::Promote),
            Command::Delete => self.study_act(StudyAction::Delete),
            Command::Chapter(ChapterArg::Go(n)) => self.study_act(StudyAction::Switch(n - 1)),
            Command::Chapter(ChapterArg::New { name, from }) => {
                let source = match from {
                    ChapterFrom::Start => Source::Start,
                    ChapterFrom::Fen(fen) => Source::Fen(fen),
                    ChapterFrom::Pgn(text) => Source::Pgn(text),
                    ChapterFrom::File(file) => {
                        let path = self.pgn_path(&file)?;
                        let shown = self.shown_path(&path);
                        let text = read_capped(&path).map_err(|e| format!("{shown}: {e}"))?;
                        Source::Pgn(text)
                    }
                    ChapterFrom::Game(n) => Source::Pgn(self.stored_pgn(n)?),
                    ChapterFrom::Paste => {
                        if !self.club.may_move() {
                            return self.study_act(StudyAction::Chapter {
                                name,
                                source: Source::Start,
                            });
                        }
                        self.club.wait_for_paste(name.clone());
                        return Ok(format!(
                            "paste the PGN of chapter {name} (64 KB at most; or type it on one line and \
                             press Enter)"
                        ));
                    }
                };
                self.study_act(StudyAction::Chapter { name, source })
            }
            Command::Chapters => {
                let Some(s) = self.club.study().cloned() else {
                    return Err("you are in no study".into());
                };
                let (current, _) = s.current();
                for (i, ch) in s.chapters().iter().enumerate() {
                    let mark = if i == current { "▶" } else { " " };
                    self.log_line(
                        LogKind::Info,
                        format!(
                            "{mark}{:>3}. {} ({} moves)",
                            i + 1,
                            ch.name(),
                            ch.tree().len()
                        ),
                    );
                }
                Ok(format!(
                    "{} chapters in the log: :chapter N goes to one",
                    s.chapters().len()
                ))
            }
            Command::Follow => self.toggle_follow(),
            Command::Private(on) => self.study_act(StudyAction::Private(on)),
            _ => Err("that is not a study's command".into()),
        }
    }

    /// Ctrl+B / `:follow`: away from the room's cursor to browse alone, or back to it.
    fn toggle_follow(&mut self) -> Result<String, String> {
        if !self.club.in_study() {
            return Err("you are in no study".into());
        }
        if self.club.may_move() && !self.club.is_away() {
            return Err(
                "you move the room's cursor: ← → step it for everyone (:take on yourself \
                 is the owner's to say)"
                    .into(),
            );
        }
        let away = self.club.toggle_follow();
        self.sync_study();
        Ok(if away {
            "browsing on your own: ← → step, Ctrl+B comes back to the room".into()
        } else {
            "back with the room".into()
        })
    }

    /// The study's keys: ← → Home End step (the room's cursor for those with the right,
    /// this screen's own for the others), PgUp / PgDn change chapter, Ctrl+B steps away
    /// or comes back.
    pub(in crate::tui::app) fn study_key(&mut self, key: &KeyEvent, input_empty: bool) -> bool {
        if !self.club.in_study() {
            return false;
        }
        if key.modifiers == KeyModifiers::CONTROL && key.code == KeyCode::Char('b') {
            let r = self.toggle_follow();
            self.club_result(r);
            return true;
        }
        if !key.modifiers.is_empty() || !input_empty {
            return false;
        }
        let step = match key.code {
            KeyCode::Left => Step::Back,
            KeyCode::Right => Step::Forward,
            KeyCode::Home => Step::First,
            KeyCode::End => Step::Last,
            KeyCode::PageUp | KeyCode::PageDown => {
                let Some(s) = self.club.study() else {
                    return false;
                };
                let (n, _) = s.current();
                let to = if key.code == KeyCode::PageUp {
                    n.checked_sub(1)
                } else {
                    Some(n + 1).filter(|&m| m < s.chapters().len())
                };
                let r = match to {
                    Some(to) => self.study_act(StudyAction::Switch(to)),
                    None => Err("no chapter further that way".into()),
                };
                self.club_result(r);
                return true;
            }
            _ => return false,
        };
        let r = if self.club.may_move() && !self.club.is_away() {
            self.study_act(StudyAction::Step(step))
        } else {
            let r = self.club.step_away(step).map(|()| String::new());
            if r.is_ok() {
                self.sync_study();
            }
            r
        };
        if let Err(e) = r {
            self.error(e);
        } else {
            self.on_club_change();
        }
        true
    }

    /// The squares the study's notes mark on the position shown: marked squares, and each
    /// arrow's two ends, in their colours.
    pub fn study_marks(&self) -> Vec<(crate::chess::Square, crate::game::study::Mark)> {
        let (Some(s), Some((chapter, node))) = (self.club.study(), self.club.study_at()) else {
            return Vec::new();
        };
        let Some(notes) = s.chapters()[chapter].tree().notes(node) else {
            return Vec::new();
        };
        let mut marks = notes.squares.clone();
        for a in &notes.arrows {
            marks.push((a.from, a.mark));
            marks.push((a.to, a.mark));
        }
        marks
    }

    /// What the status line says of this screen in a study: how far behind the room's
    /// cursor while away.
    pub fn study_status(&self) -> Option<String> {
        let s = self.club.study()?;
        Some(match self.club.behind() {
            None if self.club.may_move() => format!("study {}: you move", s.name()),
            None => format!("study {}: following", s.name()),
            Some(Behind::Moves(0)) => "away, on the room's move (Ctrl+B follows)".into(),
            Some(Behind::Moves(n)) => format!(
                "away: {n} move{} behind the room (Ctrl+B follows)",
                if n == 1 { "" } else { "s" }
            ),
            Some(Behind::Elsewhere) => "away, on another line (Ctrl+B follows)".into(),
        })
    }

    /// An event of the room's analysis: a deep enough iteration's score is kept on the move
    /// it searched, for those who come to it later (a screen on the room's cursor only).
    pub(in crate::tui::app) fn study_heard(&mut self, info: &IterationInfo) {
        if !self.club.in_study() || info.bound != crate::engine::Bound::Exact {
            return;
        }
        if info.multipv > 1 || info.depth < EVAL_KEPT_FROM || self.club.is_away() {
            return;
        }
        let Some((chapter, node)) = self.club.study_at() else {
            return;
        };
        let Some(study) = self.club.study() else {
            return;
        };
        let (current, ch) = study.current();
        if chapter != current || node != ch.cursor() {
            return;
        }
        let Ok(board) = ch.tree().board_at(node) else {
            return;
        };
        if board != *self.play.game().board() || !self.club.eval_is_new(chapter, node, info.depth) {
            return;
        }
        // A study keeps White's view, as PGN's [%eval] does.
        let score = info.score_white;
        let _ = self.with_viewer(|v| {
            v.study_act(StudyAction::Eval {
                chapter,
                node,
                score,
                depth: info.depth,
            })
        });
    }
}

/// A PGN file read whole, refused above the study's cap.
fn read_capped(path: &std::path::Path) -> Result<String, String> {
    let len = std::fs::metadata(path).map_err(|e| e.to_string())?.len();
    if len > crate::club::study::PGN_MAX as u64 {
        return Err(format!(
            "{} KB: a chapter's PGN is at most {} KB",
            len.div_ceil(1024),
            crate::club::study::PGN_MAX / 1024
        ));
    }
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}
