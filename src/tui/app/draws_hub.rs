//! The hub's side of draw offers and resignation: `:draw`, the engine's answer to an offer,
//! its own offers, and its resignation. The rules are `draws.rs`' (the part); this file
//! applies them to the game and the screen.

use super::draws::{Answer, Draws, Verdict, standing};
use super::{App, LogKind};
use crate::chess::Color;
use crate::engine::{IterationInfo, Score};
use crate::game::GameError;
use crate::tui::Mode;

impl App {
    // ---- draws and resignation -----------------------------------------------------------

    /// `:draw`. Against the engine an offer it decides at once (its latest score, its
    /// view); its own standing offer is accepted. Between two people the side to move
    /// offers and the other side accepts with its own `:draw` (a move declines). With no
    /// opponent to ask (analysis, engine against engine) the draw is declared.
    pub(super) fn draw_command(&mut self) -> Result<(), String> {
        if let Some(end) = self.play.game().result() {
            return Err(GameError::Over(end).to_string());
        }
        let side = self.side_to_move();
        match self.play.mode() {
            Mode::Analysis | Mode::EngineEngine => {}
            Mode::HumanHuman => match self.play.draws().offer() {
                Some(by) if by != side => {}
                Some(_) => {
                    return Err(format!(
                        "{} has offered a draw already: after this move {} accepts with :draw or declines by moving",
                        side.name(),
                        side.flip().name()
                    ));
                }
                None => {
                    self.play.draws_mut().offered_by(side);
                    let text = format!(
                        "{} offers a draw: after {}'s move {} accepts with :draw or declines by moving",
                        side.name(),
                        side.name(),
                        side.flip().name()
                    );
                    self.log_line(LogKind::Info, text.clone());
                    self.info(text);
                    return Ok(());
                }
            },
            Mode::HumanWhite | Mode::HumanBlack => {
                let engine = if self.play.mode() == Mode::HumanWhite {
                    Color::Black
                } else {
                    Color::White
                };
                if self.play.draws().offer() == Some(engine) {
                    self.log_line(LogKind::Info, "you accept ox88's draw offer");
                } else {
                    let number = self.play.game().board().fullmove_number();
                    match Draws::answer(self.engine_score(engine), engine, number) {
                        Answer::Accept(score) => {
                            self.log_line(
                                LogKind::Info,
                                format!("ox88 accepts the draw ({})", standing(score, engine)),
                            );
                        }
                        Answer::Decline(why) => {
                            let text = format!("ox88 declines: {why}");
                            self.log_line(LogKind::Info, text.clone());
                            self.info(text);
                            return Ok(());
                        }
                    }
                }
            }
        }
        let end = self
            .play
            .game_mut()
            .agree_draw()
            .map_err(|e| e.to_string())?;
        self.announce(end);
        self.save();
        Ok(())
    }

    /// The engine's latest search score for `side`, its own view: the search running for
    /// its move, else its last searched move's.
    fn engine_score(&self, side: Color) -> Option<Score> {
        let running = self
            .session
            .search()
            .filter(|s| !s.analysis && s.side == side)
            .and_then(|s| s.last.as_ref())
            .map(|info| info.score_white.for_white(side));
        running.or_else(|| self.play.draws().last_score(side))
    }

    /// What the engine does with a finished search for `side`'s move besides playing it:
    /// the draw and resignation rules of `draws`, with their settings (nothing in analysis).
    pub(super) fn judge_search(&mut self, side: Color, info: &IterationInfo) -> Verdict {
        let on = self.play.mode() != Mode::Analysis;
        let settings = &self.prefs.settings();
        let (offers, resigns) = (on && settings.offer_draws, on && settings.resigns);
        let number = self.play.game().board().fullmove_number();
        let own = info.score_white.for_white(side);
        self.play
            .draws_mut()
            .after_search(side, own, number, offers, resigns)
    }

    /// The engine resigns for `side` in place of its move.
    pub(super) fn engine_resigns(&mut self, side: Color) {
        let score = self
            .play
            .draws()
            .last_score(side)
            .map(|s| format!(" ({})", standing(s, side)))
            .unwrap_or_default();
        self.log_line(LogKind::Info, format!("ox88 resigns{score}"));
        match self.play.game_mut().resign(side) {
            Ok(end) => {
                self.announce(end);
                self.save();
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// The engine (playing `side`) offers a draw after its move. Another engine on the
    /// other side answers at once; a person answers with `:draw` or declines by moving.
    pub(super) fn engine_offers_draw(&mut self, side: Color) {
        if self.play.game().is_over() {
            return;
        }
        let score = self
            .play
            .draws()
            .last_score(side)
            .map_or(String::new(), |s| format!(" ({})", standing(s, side)));
        if self.engine_plays(side.flip()) {
            let number = self.play.game().board().fullmove_number();
            let answer = Draws::answer(self.engine_score(side.flip()), side.flip(), number);
            self.log_line(
                LogKind::Info,
                format!("ox88 ({}) offers a draw{score}", side.name()),
            );
            match answer {
                Answer::Accept(_) => {
                    if let Ok(end) = self.play.game_mut().agree_draw() {
                        self.announce(end);
                        self.save();
                    }
                }
                Answer::Decline(why) => self.log_line(
                    LogKind::Info,
                    format!("ox88 ({}) declines: {why}", side.flip().name()),
                ),
            }
            return;
        }
        self.play.draws_mut().offered_by(side);
        let text = format!("ox88 offers a draw{score}: :draw accepts, your next move declines");
        self.log_line(LogKind::Info, text.clone());
        self.info(text);
    }
}
