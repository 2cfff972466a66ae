//! What one player offers or asks the other (a draw, a takeback, a rematch) and how the
//! other answers: at most one offer stands at a time, and the game moving on makes it lapse.

use std::time::Instant;

use super::Room;
use crate::chess::Color;
use crate::club::ClubError;

/// An offer or request standing in the room, and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Draw(Color),
    Takeback(Color),
    Rematch(Color),
}

impl Offer {
    /// Does it still stand after `mover` moved? An offer to the side that moved lapses (it
    /// moved instead of answering); a takeback request lapses on any move, as the move it
    /// was about is no longer last.
    pub(super) fn survives_move_by(self, mover: Color) -> bool {
        matches!(self, Offer::Draw(by) if by == mover)
    }
}

impl Room {
    /// Offer a draw, or accept the opponent's standing offer.
    pub(super) fn draw(&mut self, me: Color, now: Instant) -> Result<String, ClubError> {
        self.require_going()?;
        match self.offer {
            Some(Offer::Draw(by)) if by == me => Err(ClubError::new(format!(
                "you have offered a draw already: it stands until {} answers or moves",
                self.seats.name(me.flip())
            ))),
            Some(Offer::Draw(_)) => {
                let end = self
                    .game
                    .agree_draw()
                    .map_err(|e| ClubError::new(e.to_string()))?;
                self.ended(now);
                self.version += 1;
                Ok(format!("{end}"))
            }
            _ => {
                self.offer = Some(Offer::Draw(me));
                self.version += 1;
                Ok(format!("you offered {} a draw", self.seats.name(me.flip())))
            }
        }
    }

    /// Ask to take back, or accept the opponent's request.
    pub(super) fn takeback(&mut self, me: Color, now: Instant) -> Result<String, ClubError> {
        self.require_going()?;
        match self.offer {
            Some(Offer::Takeback(by)) if by == me => Err(ClubError::new(format!(
                "you have asked already: {} has not answered",
                self.seats.name(me.flip())
            ))),
            Some(Offer::Takeback(by)) => {
                let plies = self
                    .takeback_plies(by)
                    .ok_or_else(|| ClubError::new("there is no move to take back"))?;
                for _ in 0..plies {
                    self.game.undo();
                }
                self.game.truncate();
                // The clocks keep their times; the one that runs is the side to move's.
                if self.clock.running().is_some() {
                    self.clock.start(self.game.board().side_to_move(), now);
                }
                self.offer = None;
                self.version += 1;
                Ok(format!(
                    "you let {} take back ({plies} {})",
                    self.seats.name(by),
                    if plies == 1 { "move" } else { "moves" }
                ))
            }
            _ => {
                if self.takeback_plies(me).is_none() {
                    return Err(ClubError::new("you have no move to take back"));
                }
                self.offer = Some(Offer::Takeback(me));
                self.version += 1;
                Ok(format!(
                    "you asked {} to take back your last move",
                    self.seats.name(me.flip())
                ))
            }
        }
    }

    /// How many plies `by`'s takeback undoes: their last move, and the opponent's reply
    /// after it if there is one. `None` when `by` has no move to take back.
    fn takeback_plies(&self, by: Color) -> Option<usize> {
        let ply = self.game.ply();
        let last = self.game.move_number(ply.checked_sub(1)?).0;
        if last == by {
            Some(1)
        } else {
            (ply >= 2).then_some(2)
        }
    }

    /// Turn down the opponent's standing offer or request.
    /// The one who made it is told.
    pub(super) fn decline(&mut self, me: Color) -> Result<String, ClubError> {
        let what = match self.offer {
            Some(Offer::Draw(by)) if by != me => "draw offer",
            Some(Offer::Takeback(by)) if by != me => "takeback request",
            Some(Offer::Rematch(by)) if by != me => "rematch offer",
            Some(_) => return Err(ClubError::new("the offer standing is your own")),
            None => return Err(ClubError::new("there is no offer to decline")),
        };
        self.offer = None;
        self.version += 1;
        // Otherwise the offer just vanishes from the offerer's screen, answered by no one.
        if let Some(offerer) = self.seats.member(me.flip()) {
            let text = format!("{} declined your {what}", self.seats.name(me));
            self.notes.push((offerer.id.clone(), text));
        }
        Ok(format!("you declined the {what}"))
    }

    /// After the game: offer a rematch, or accept one (the players change colours in a new
    /// game).
    pub(super) fn rematch(&mut self, me: Color) -> Result<String, ClubError> {
        if !self.began {
            return Err(ClubError::new("there is no game yet to have a rematch of"));
        }
        if self.in_progress() {
            return Err(ClubError::new("the game goes on: a rematch comes after it"));
        }
        match self.offer {
            Some(Offer::Rematch(by)) if by == me => Err(ClubError::new(format!(
                "you have offered a rematch already: {} has not answered",
                self.seats.name(me.flip())
            ))),
            Some(Offer::Rematch(_)) => {
                self.seats.swap_colours();
                self.fresh_game();
                self.version += 1;
                Ok(format!("rematch: you play {}", me.flip().name()))
            }
            _ => {
                self.offer = Some(Offer::Rematch(me));
                self.version += 1;
                Ok(format!(
                    "you offered {} a rematch",
                    self.seats.name(me.flip())
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{mv, refused, room_of_two, secs, tc};
    use super::*;
    use crate::club::room::{Action, Role};
    use crate::game::Termination;
    use std::time::Instant;

    #[test]
    fn a_draw_offer_is_accepted_by_the_opponent() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        mv(&mut room, "alice", "e4", t0);
        room.act("alice", Action::Draw, t0).unwrap();
        assert_eq!(room.view(t0).offer, Some(Offer::Draw(Color::White)));
        let err = refused(&mut room, "alice", Action::Draw, t0);
        assert!(err.contains("already"), "{err}");
        room.act("bob", Action::Draw, t0).unwrap();
        let v = room.view(t0);
        assert_eq!(v.result.unwrap().termination, Termination::DrawAgreed);
        assert_eq!(v.offer, None);
        assert_eq!(room.take_finished(t0).unwrap().white_score, 0.5);
    }

    #[test]
    fn a_draw_offer_can_be_declined_and_lapses_when_its_receiver_moves() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        room.act("alice", Action::Draw, t0).unwrap();
        let err = refused(&mut room, "alice", Action::Decline, t0);
        assert!(err.contains("your own"), "{err}");
        assert!(room.take_notes().is_empty(), "an offer tells no one yet");
        room.act("bob", Action::Decline, t0).unwrap();
        assert_eq!(room.view(t0).offer, None);
        // The offerer, and only they, is told.
        assert_eq!(
            room.take_notes(),
            vec![(
                "alice".to_string(),
                "bob-name declined your draw offer".to_string()
            )]
        );
        assert!(room.take_notes().is_empty(), "told once");
        let err = refused(&mut room, "bob", Action::Decline, t0);
        assert!(err.contains("no offer"), "{err}");
        // Offered on White's own turn: White's move leaves it standing.
        room.act("alice", Action::Draw, t0).unwrap();
        mv(&mut room, "alice", "e4", t0);
        assert_eq!(room.view(t0).offer, Some(Offer::Draw(Color::White)));
        // Black moves instead of answering: it lapses.
        mv(&mut room, "bob", "e5", t0);
        assert_eq!(room.view(t0).offer, None);
        assert_eq!(room.view(t0).result, None);
    }

    #[test]
    fn a_takeback_of_the_own_last_move_undoes_one_ply() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        mv(&mut room, "bob", "e5", t0 + secs(1));
        room.act("bob", Action::Takeback, t0 + secs(2)).unwrap();
        assert_eq!(room.view(t0).offer, Some(Offer::Takeback(Color::Black)));
        let err = refused(&mut room, "bob", Action::Takeback, t0 + secs(2));
        assert!(err.contains("already"), "{err}");
        room.act("alice", Action::Takeback, t0 + secs(3)).unwrap();
        let v = room.view(t0 + secs(3));
        assert_eq!(v.game.sans(), ["e4"]);
        assert_eq!(v.game.board().side_to_move(), Color::Black);
        assert_eq!(v.running, Some(Color::Black));
        assert_eq!(v.offer, None);
        mv(&mut room, "bob", "c5", t0 + secs(4));
        assert_eq!(room.view(t0).game.sans(), ["e4", "c5"]);
    }

    #[test]
    fn a_takeback_after_the_opponent_replied_undoes_two_plies() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        let err = refused(&mut room, "alice", Action::Takeback, t0);
        assert!(err.contains("no move to take back"), "{err}");
        mv(&mut room, "alice", "e4", t0);
        let err = refused(&mut room, "bob", Action::Takeback, t0);
        assert!(err.contains("no move to take back"), "{err}");
        mv(&mut room, "bob", "e5", t0 + secs(1));
        room.act("alice", Action::Takeback, t0 + secs(2)).unwrap();
        room.act("bob", Action::Takeback, t0 + secs(3)).unwrap();
        let v = room.view(t0 + secs(3));
        assert!(v.game.is_empty());
        assert_eq!(v.game.board().side_to_move(), Color::White);
        assert_eq!(v.running, Some(Color::White));
        mv(&mut room, "alice", "d4", t0 + secs(4));
        assert_eq!(room.view(t0).game.sans(), ["d4"]);
    }

    #[test]
    fn a_takeback_request_lapses_on_the_next_move() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        mv(&mut room, "alice", "e4", t0);
        room.act("alice", Action::Takeback, t0).unwrap();
        mv(&mut room, "bob", "e5", t0);
        assert_eq!(room.view(t0).offer, None);
    }

    #[test]
    fn a_rematch_swaps_colours_in_a_new_game() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("3+2"), t0);
        let err = refused(&mut room, "alice", Action::Rematch, t0);
        assert!(err.contains("goes on"), "{err}");
        mv(&mut room, "alice", "e4", t0);
        mv(&mut room, "bob", "e5", t0 + secs(20));
        room.act("alice", Action::Resign, t0 + secs(30)).unwrap();
        let first_id = room.view(t0).game_id;
        room.act("bob", Action::Rematch, t0 + secs(31)).unwrap();
        assert_eq!(room.view(t0).offer, Some(Offer::Rematch(Color::Black)));
        room.act("alice", Action::Rematch, t0 + secs(32)).unwrap();
        let v = room.view(t0 + secs(40));
        assert_eq!(v.seats[0].as_ref().unwrap().id, "bob");
        assert_eq!(v.seats[1].as_ref().unwrap().id, "alice");
        assert_eq!(room.role("bob"), Some(Role::Player(Color::White)));
        assert!(v.game.is_empty());
        assert_eq!(v.result, None);
        assert_eq!(v.offer, None);
        assert_eq!(v.clocks, Some([secs(180), secs(180)]));
        assert_ne!(v.game_id, first_id);
        // The first game is still there to be taken, once.
        assert_eq!(room.take_finished(t0).unwrap().record.id, first_id);
        assert!(room.take_finished(t0).is_none());
        mv(&mut room, "bob", "d4", t0 + secs(41));
    }
}
