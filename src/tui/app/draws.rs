//! Draw offers and resignations: when the engine accepts a draw, when it offers one, when it
//! resigns, and the offer that stands until the other side answers. The rules are the
//! engine's own judgement of its searches, so a player can read why it decided as it did:
//!
//! - An offer to the engine is accepted only from move [`ACCEPT_FROM_MOVE`] on, and only
//!   when the engine's latest search score, from its own side, says it stands no better than
//!   level ([`ACCEPT_MARGIN_CP`] or less). Otherwise it declines and says why.
//! - The engine offers a draw when its searches said dead level (within
//!   [`OFFER_MARGIN_CP`]) for [`OFFER_AFTER`] of its moves in a row from move
//!   [`OFFER_FROM_MOVE`] on (setting `offerdraws`); after an offer it waits as long again.
//! - It resigns when its searches said lost (at or below [`RESIGN_AT_CP`], or mated) for
//!   [`RESIGN_AFTER`] of its moves in a row (setting `resigns`), in place of its next move.
//!
//! Between two people an offer stands until the other side answers: `:draw` accepts, a move
//! declines. Analysis has no opponent and the engine plays no moves there: nothing of this
//! happens in it.

use crate::chess::Color;
use crate::engine::Score;

/// The engine accepts a draw only when it stands no better than this (centipawns, its view).
pub const ACCEPT_MARGIN_CP: i32 = 30;
/// Before this move number the engine declines every draw: a game is played, not agreed.
pub const ACCEPT_FROM_MOVE: u32 = 20;
/// The engine offers a draw only from this move number on.
pub const OFFER_FROM_MOVE: u32 = 40;
/// What counts as dead level for an offer (centipawns either way).
pub const OFFER_MARGIN_CP: i32 = 10;
/// How many of its moves in a row must be dead level before the engine offers.
pub const OFFER_AFTER: u32 = 5;
/// What counts as lost for resigning (centipawns, its view): ten pawns down.
pub const RESIGN_AT_CP: i32 = -1000;
/// How many of its moves in a row must be lost before the engine resigns.
pub const RESIGN_AFTER: u32 = 3;

/// The engine's answer to a draw offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Accepted: the engine's score (its view) that allowed it.
    Accept(Score),
    /// Declined, and why (said to the player as "ox88 declines: …").
    Decline(String),
}

/// What the engine does after a search, besides its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Play on.
    Play,
    /// Play the move, then offer a draw.
    OfferDraw,
    /// Resign instead of moving.
    Resign,
}

/// The offer that stands and the engine's run of level or lost scores, per side.
#[derive(Clone, Debug, Default)]
pub struct Draws {
    /// The side whose draw offer stands (until the other side moves or accepts).
    offer: Option<Color>,
    /// Engine moves in a row that were dead level, per side (White, Black).
    level: [u32; 2],
    /// Engine moves in a row that were lost, per side.
    lost: [u32; 2],
    /// The score of the engine's last searched move, its own view, per side.
    last: [Option<Score>; 2],
}

fn index(side: Color) -> usize {
    match side {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// How the engine playing `side` stands by its own score `own`, as a player reads it: the
/// number from White's view, as everywhere else on screen, and labelled so
/// (`search -5.73, White's view`).
pub fn standing(own: Score, side: Color) -> String {
    format!("search {}, White's view", own.for_white(side))
}

/// Centipawns of a score for the thresholds: a mate counts as far beyond any of them.
fn cp(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c,
        Score::Mate(n) if n > 0 => 100_000,
        Score::Mate(_) => -100_000,
    }
}

impl Draws {
    /// The side whose draw offer stands (until the other side moves or accepts).
    pub fn offer(&self) -> Option<Color> {
        self.offer
    }

    /// `side` offers a draw: it stands until the other side moves or accepts.
    pub fn offered_by(&mut self, side: Color) {
        self.offer = Some(side);
    }

    /// The standing offer lapses (declined by a move, or who plays changed).
    pub fn lapse(&mut self) {
        self.offer = None;
    }

    /// Everything forgotten: a new, loaded or taken-back game.
    pub fn reset(&mut self) {
        *self = Draws::default();
    }

    /// The score of `side`'s last searched move (its view), if any.
    pub fn last_score(&self, side: Color) -> Option<Score> {
        self.last[index(side)]
    }

    /// The engine's answer to a draw offer at move `move_number`, given its latest search
    /// score from its own side, `side` (`None`: it has not searched in this game yet).
    pub fn answer(score: Option<Score>, side: Color, move_number: u32) -> Answer {
        let Some(score) = score else {
            return Answer::Decline(
                "it has no search of this game to judge by yet (its moves came from the book, or none was searched)".to_string(),
            );
        };
        if cp(score) > ACCEPT_MARGIN_CP {
            return Answer::Decline(format!(
                "as {} it stands better ({})",
                side.name(),
                standing(score, side)
            ));
        }
        if move_number < ACCEPT_FROM_MOVE {
            return Answer::Decline(format!(
                "too early (move {move_number}; it considers a draw from move {ACCEPT_FROM_MOVE} on)"
            ));
        }
        Answer::Accept(score)
    }

    /// Records the engine's search for `side`'s move at move `move_number` (its score, its
    /// own view) and says what the engine does: resign in place of the move when lost long
    /// enough (`resigns`), or offer a draw after it when dead level long enough
    /// (`offers`).
    pub fn after_search(
        &mut self,
        side: Color,
        score: Score,
        move_number: u32,
        offers: bool,
        resigns: bool,
    ) -> Verdict {
        let i = index(side);
        self.last[i] = Some(score);
        let value = cp(score);
        self.lost[i] = if value <= RESIGN_AT_CP {
            self.lost[i] + 1
        } else {
            0
        };
        if resigns && self.lost[i] >= RESIGN_AFTER {
            return Verdict::Resign;
        }
        self.level[i] = if value.abs() <= OFFER_MARGIN_CP && move_number >= OFFER_FROM_MOVE {
            self.level[i] + 1
        } else {
            0
        };
        if offers && self.level[i] >= OFFER_AFTER && self.offer.is_none() {
            // Another offer only after as many level moves again.
            self.level[i] = 0;
            return Verdict::OfferDraw;
        }
        Verdict::Play
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offer_is_accepted_only_level_or_worse_and_not_early() {
        // The reason's number is White's view, as on the board: Black 6.53 up reads -6.53.
        assert_eq!(
            Draws::answer(Some(Score::Cp(653)), Color::Black, 30),
            Answer::Decline("as Black it stands better (search -6.53, White's view)".to_string())
        );
        assert_eq!(
            Draws::answer(Some(Score::Cp(653)), Color::White, 30),
            Answer::Decline("as White it stands better (search +6.53, White's view)".to_string())
        );
        assert!(matches!(
            Draws::answer(Some(Score::Cp(20)), Color::White, 5),
            Answer::Decline(t) if t.starts_with("too early")
        ));
        assert_eq!(
            Draws::answer(Some(Score::Cp(-250)), Color::Black, 25),
            Answer::Accept(Score::Cp(-250))
        );
        assert_eq!(
            Draws::answer(Some(Score::Cp(30)), Color::White, 20),
            Answer::Accept(Score::Cp(30))
        );
        assert!(matches!(
            Draws::answer(Some(Score::Mate(3)), Color::Black, 60),
            Answer::Decline(t) if t == "as Black it stands better (search #-3, White's view)"
        ));
        assert!(matches!(
            Draws::answer(None, Color::White, 60),
            Answer::Decline(_)
        ));
    }

    #[test]
    fn the_engine_resigns_after_several_lost_searches_and_offers_after_several_level_ones() {
        let mut d = Draws::default();
        let lost = Score::Cp(-1200);
        assert_eq!(
            d.after_search(Color::Black, lost, 30, true, true),
            Verdict::Play
        );
        assert_eq!(
            d.after_search(Color::Black, Score::Mate(-4), 31, true, true),
            Verdict::Play
        );
        assert_eq!(
            d.after_search(Color::Black, lost, 32, true, true),
            Verdict::Resign
        );
        // Off: never.
        let mut off = Draws::default();
        for n in 0..10 {
            assert_eq!(
                off.after_search(Color::White, lost, 30 + n, true, false),
                Verdict::Play
            );
        }
        // A better score breaks the run.
        let mut d = Draws::default();
        d.after_search(Color::White, lost, 30, true, true);
        d.after_search(Color::White, lost, 31, true, true);
        d.after_search(Color::White, Score::Cp(-900), 32, true, true);
        assert_eq!(
            d.after_search(Color::White, lost, 33, true, true),
            Verdict::Play
        );

        let mut d = Draws::default();
        let level = Score::Cp(4);
        for n in 0..OFFER_AFTER - 1 {
            assert_eq!(
                d.after_search(Color::White, level, 40 + n, true, true),
                Verdict::Play
            );
        }
        assert_eq!(
            d.after_search(Color::White, level, 45, true, true),
            Verdict::OfferDraw
        );
        // Not again at once.
        assert_eq!(
            d.after_search(Color::White, level, 46, true, true),
            Verdict::Play
        );
        // Before move 40, or with the setting off, no offer.
        let mut early = Draws::default();
        let mut off = Draws::default();
        for n in 0..10 {
            assert_eq!(
                early.after_search(Color::White, level, 20 + n, true, true),
                Verdict::Play
            );
            assert_eq!(
                off.after_search(Color::White, level, 50 + n, false, true),
                Verdict::Play
            );
        }
    }
}
