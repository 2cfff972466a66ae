//! The hub's side of what helps the player move (`play/assist.rs`): a premove typed while
//! the engine thinks, kept and played when the engine has moved.

use super::{App, LogKind, MoveSource};

impl App {
    // ---- the premove ---------------------------------------------------------------------

    /// A move typed while the engine thinks: kept (and shown) to be played the moment the
    /// engine has moved. Refused at once when no reply of the engine would make it legal.
    pub(super) fn set_premove(&mut self, text: &str) -> bool {
        let board = self.play.game().board();
        let fits = board.legal_moves().iter().any(|&reply| {
            let mut after = board.clone();
            after.make(reply);
            after.parse_move(text).is_ok()
        });
        if !fits {
            self.error(format!(
                "{text}: not a legal move after any reply of the engine (it is thinking; Esc stops it)"
            ));
            return false;
        }
        let replaced = self.play.assist_mut().set_premove(text.to_string());
        self.log_line(LogKind::Info, format!("premove {text}"));
        self.info(format!(
            "premove {text}: played when the engine has moved{} (Esc cancels it)",
            if replaced.is_some() {
                ", in place of the earlier one"
            } else {
                ""
            }
        ));
        true
    }

    /// After the engine's move: the premove, if any, is played when it is legal now and
    /// dropped with a message when not.
    pub(super) fn play_premove(&mut self) {
        let Some(text) = self.play.assist_mut().take_premove() else {
            return;
        };
        if let Some(end) = self.play.game().result() {
            // The result stays on the status line; the log says what became of the premove.
            let why = format!(
                "premove {text} dropped: the game is over ({})",
                end.reason()
            );
            self.log_line(LogKind::Info, why);
            return;
        }
        if self.engine_plays(self.side_to_move()) {
            // Still the engine's turn (its search was stopped): the premove waits.
            self.play.assist_mut().set_premove(text);
            return;
        }
        match self.play.game().board().parse_move(&text) {
            Ok(m) => {
                self.screen.clear_message();
                self.play_move(m, MoveSource::Human);
                // A result or a fallen flag says more than this.
                if self.screen.message().is_none() {
                    self.info(format!("premove {text} played"));
                }
            }
            Err(e) => {
                let why = format!("premove {text} dropped: {e}");
                self.log_line(LogKind::Error, why.clone());
                self.error(why);
            }
        }
    }
}
