//! Seeks and challenges: put in the lobby, withdrawn, declined, and accepted into a new room
//! with both players seated.

use super::owner::{Challenge, Owner, Seek};
use crate::chess::Color;
use crate::club::room::Room;
use crate::club::{ClubError, text};
use crate::game::clock::TimeControl;

impl Owner {
    /// Viewer `id` puts a seek in the lobby (replacing their earlier one); its number.
    pub(super) fn seek(
        &mut self,
        id: u64,
        time_control: Option<TimeControl>,
        color: Option<Color>,
        rated: bool,
    ) -> Result<u32, ClubError> {
        let member_rated = self.viewers.get(&id).is_some_and(|e| e.member.rated);
        if rated && !member_rated {
            return Err(ClubError::new(
                "rated games need a key: an open visitor plays casual games",
            ));
        }
        self.seeks.retain(|s| s.viewer != id);
        let number = self.number() as u32;
        self.seeks.push(Seek {
            number,
            viewer: id,
            time_control,
            color,
            rated,
        });
        self.lobby_changed();
        Ok(number)
    }

    /// Takes viewer `id`'s seek out of the lobby; its number.
    pub(super) fn unseek(&mut self, id: u64) -> Result<u32, ClubError> {
        let Some(i) = self.seeks.iter().position(|s| s.viewer == id) else {
            return Err(ClubError::new("you have no seek in the lobby"));
        };
        self.lobby_changed();
        Ok(self.seeks.remove(i).number)
    }

    /// The sessions online as `name` (in any case).
    fn named(&self, name: &str) -> Vec<u64> {
        self.viewers
            .iter()
            .filter(|(_, e)| text::same_name(&e.member.name, name.trim()))
            .map(|(&id, _)| id)
            .collect()
    }

    /// Withdraws viewer `id`'s challenge to the member online as `name` (who is told);
    /// its number.
    pub(super) fn withdraw(&mut self, id: u64, name: &str) -> Result<u32, ClubError> {
        let to = self.named(name);
        let Some(i) = self
            .challenges
            .iter()
            .position(|c| c.from == id && to.contains(&c.to))
        else {
            return Err(ClubError::new(format!(
                "you have no challenge to {:?}",
                name.chars().take(text::MEMBER_NAME_MAX).collect::<String>()
            )));
        };
        let c = self.challenges.remove(i);
        let text = format!("{} withdrew challenge {}", self.name_of(id), c.number);
        self.notice(c.to, text);
        self.lobby_changed();
        Ok(c.number)
    }

    /// Viewer `id` challenges the member online as `name`, in place of an earlier
    /// challenge to them (one standing challenge per opponent).
    pub(super) fn challenge(
        &mut self,
        id: u64,
        name: &str,
        time_control: Option<TimeControl>,
        rated: bool,
    ) -> Result<u32, ClubError> {
        let rated = rated && self.viewers.get(&id).is_some_and(|e| e.member.rated);
        let Some(to) = self.named(name).into_iter().min() else {
            return Err(ClubError::new(format!(
                "nobody called {:?} is online",
                name.chars().take(text::MEMBER_NAME_MAX).collect::<String>()
            )));
        };
        if to == id {
            return Err(ClubError::new("you cannot challenge yourself"));
        }
        let rated = rated && self.viewers[&to].member.rated;
        self.challenges.retain(|c| !(c.from == id && c.to == to));
        let out = self.challenges.iter().filter(|c| c.from == id).count();
        if out >= self.limits.challenges {
            return Err(ClubError::new(format!(
                "you have {out} challenges out, the most one may: \
                 :challenge off NAME withdraws one"
            )));
        }
        let number = self.number() as u32;
        self.challenges.push(Challenge {
            number,
            from: id,
            to,
            time_control,
            rated,
        });
        let text = format!(
            "{} challenges you: {} {} (:accept {number} or :decline {number})",
            self.name_of(id),
            time_control.map_or("no clock".to_string(), |t| t.to_string()),
            if rated { "rated" } else { "casual" }
        );
        self.notice(to, text);
        self.lobby_changed();
        Ok(number)
    }

    /// Viewer `id` turns down challenge `number` (or withdraws their own).
    pub(super) fn decline(&mut self, id: u64, number: u32) -> Result<(), ClubError> {
        let Some(i) = self
            .challenges
            .iter()
            .position(|c| c.number == number && (c.to == id || c.from == id))
        else {
            return Err(ClubError::new(format!("no challenge {number} of yours")));
        };
        let c = self.challenges.remove(i);
        let other = if c.to == id { c.from } else { c.to };
        let text = format!("{} declined challenge {number}", self.name_of(id));
        self.notice(other, text);
        self.lobby_changed();
        Ok(())
    }

    /// A game of `viewer`'s own that goes on (or is adjourned) refuses a new one: one
    /// seat, one clock at a time. `who` says whose it is.
    fn free_to_play(&self, viewer: u64, who: &str) -> Result<(), ClubError> {
        let Some(e) = self.viewers.get(&viewer) else {
            return Err(ClubError::new("your opponent has left"));
        };
        // A bot plays many games at once.
        if e.member.is_bot() {
            return Ok(());
        }
        match self.game_of(&e.member.id) {
            None => Ok(()),
            Some(room) => Err(ClubError::new(format!(
                "{who} a game going on in room {room}: finish it first (nothing was accepted)"
            ))),
        }
    }

    /// Viewer `id` accepts seek or challenge `number`: a new room, both players in it.
    /// Returns the room's name. Refused, the seek or challenge standing, while either
    /// plays a game of their own or the server holds all the rooms it may.
    pub(super) fn accept(&mut self, id: u64, number: u32) -> Result<String, ClubError> {
        let member_rated = self.viewers.get(&id).is_some_and(|e| e.member.rated);
        let seek = self.seeks.iter().position(|s| s.number == number);
        let challenge = self
            .challenges
            .iter()
            .position(|c| c.number == number && c.to == id);
        let other = match (seek, challenge) {
            (Some(i), _) => {
                let s = &self.seeks[i];
                if s.viewer == id {
                    return Err(ClubError::new("that is your own seek"));
                }
                if s.rated && !member_rated {
                    return Err(ClubError::new(
                        "that seek is rated, and rated games need a key",
                    ));
                }
                s.viewer
            }
            (None, Some(i)) => self.challenges[i].from,
            (None, None) => {
                return Err(ClubError::new(format!(
                    "no seek or challenge {number} to accept (the lobby lists them)"
                )));
            }
        };
        // Refused before the seek or challenge is taken: it stands for later.
        self.free_to_play(id, "you have")?;
        let other_name = self.name_of(other);
        self.free_to_play(other, &format!("{other_name} has"))?;
        self.room_for_one_more()?;
        let (tc, rated, my_color) = if let Some(i) = seek {
            let s = self.seeks.remove(i);
            (s.time_control, s.rated, s.color.map(Color::flip))
        } else if let Some(i) = challenge {
            let c = self.challenges.remove(i);
            (c.time_control, c.rated, None)
        } else {
            return Err(ClubError::new(format!("no seek or challenge {number}")));
        };
        Ok(self.start_game(id, other, tc, rated, my_color))
    }

    /// A room for viewer `id` and `other`: the other takes the seat they asked for (White
    /// when they did not say), `id` the other one. Each leaves the room they were in.
    fn start_game(
        &mut self,
        id: u64,
        other: u64,
        tc: Option<TimeControl>,
        rated: bool,
        my_color: Option<Color>,
    ) -> String {
        let now = self.now();
        let name = self.new_room_name();
        // A bot's seek stands: it plays any number of games at once.
        let is_bot = |v: u64| self.viewers.get(&v).is_some_and(|e| e.member.is_bot());
        let gone: Vec<u64> = [other, id].into_iter().filter(|&v| !is_bot(v)).collect();
        self.seeks.retain(|s| !gone.contains(&s.viewer));
        for v in [other, id] {
            if let Some(old) = self.room_name(v) {
                self.leave_seat(v, &old);
            }
        }
        self.open_room(Room::new(&name, tc, rated));
        let (first, second) = if my_color == Some(Color::White) {
            (id, other)
        } else {
            (other, id)
        };
        self.enter(first, &name, None, now);
        self.enter(second, &name, None, now);
        let text = format!("{} accepted: the game is in room {name}", self.name_of(id));
        self.notice(other, text);
        name
    }
}
