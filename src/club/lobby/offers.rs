//! Seeks and challenges: put in the lobby, withdrawn, declined, and accepted into a new room
//! with both players seated.

use std::sync::{Arc, Mutex};

use super::{Challenge, Club, Seek, Viewer, lock};
use crate::chess::Color;
use crate::club::room::Room;
use crate::club::{ClubError, text};
use crate::game::clock::TimeControl;

impl Viewer {
    /// Puts a seek in the lobby (replacing this viewer's earlier one); its number.
    pub fn seek(
        &self,
        time_control: Option<TimeControl>,
        color: Option<Color>,
        rated: bool,
    ) -> Result<u32, ClubError> {
        if rated && !self.member.rated {
            return Err(ClubError::new(
                "rated games need a key: an open visitor plays casual games",
            ));
        }
        let number = {
            let mut st = lock(&self.club.state);
            st.seeks.retain(|s| s.viewer != self.id);
            let number = st.number() as u32;
            st.seeks.push(Seek {
                number,
                viewer: self.id,
                time_control,
                color,
                rated,
            });
            number
        };
        self.club.wake_lobby();
        Ok(number)
    }

    /// Takes this viewer's seek out of the lobby; its number.
    pub fn unseek(&self) -> Result<u32, ClubError> {
        let number = {
            let mut st = lock(&self.club.state);
            let Some(i) = st.seeks.iter().position(|s| s.viewer == self.id) else {
                return Err(ClubError::new("you have no seek in the lobby"));
            };
            st.seeks.remove(i).number
        };
        self.club.wake_lobby();
        Ok(number)
    }

    /// Withdraws this viewer's challenge to the member online as `name` (who is told);
    /// its number.
    pub fn withdraw(&self, name: &str) -> Result<u32, ClubError> {
        let me = self.name();
        let (number, notify) = {
            let mut st = lock(&self.club.state);
            let to: Vec<u64> = st
                .viewers
                .iter()
                .filter(|(_, e)| text::same_name(&e.member.name, name.trim()))
                .map(|(&id, _)| id)
                .collect();
            let Some(i) = st
                .challenges
                .iter()
                .position(|c| c.from == self.id && to.contains(&c.to))
            else {
                return Err(ClubError::new(format!(
                    "you have no challenge to {:?}",
                    name.chars().take(text::MEMBER_NAME_MAX).collect::<String>()
                )));
            };
            let c = st.challenges.remove(i);
            let text = format!("{me} withdrew challenge {}", c.number);
            (c.number, st.notice(c.to, text))
        };
        if let Some(n) = notify {
            n();
        }
        self.club.wake_lobby();
        Ok(number)
    }

    /// Challenges the member online as `name`, in place of an earlier challenge to them
    /// (one standing challenge per opponent).
    pub fn challenge(
        &self,
        name: &str,
        time_control: Option<TimeControl>,
        rated: bool,
    ) -> Result<u32, ClubError> {
        let rated = rated && self.member.rated;
        let me = self.name();
        let (number, notify) = {
            let mut st = lock(&self.club.state);
            let Some((&to, target)) = st
                .viewers
                .iter()
                .find(|(_, e)| text::same_name(&e.member.name, name.trim()))
            else {
                return Err(ClubError::new(format!(
                    "nobody called {:?} is online",
                    name.chars().take(text::MEMBER_NAME_MAX).collect::<String>()
                )));
            };
            if to == self.id {
                return Err(ClubError::new("you cannot challenge yourself"));
            }
            let rated = rated && target.member.rated;
            st.challenges.retain(|c| !(c.from == self.id && c.to == to));
            let out = st.challenges.iter().filter(|c| c.from == self.id).count();
            if out >= self.club.limits.challenges {
                return Err(ClubError::new(format!(
                    "you have {out} challenges out, the most one may: \
                     :challenge off NAME withdraws one"
                )));
            }
            let number = st.number() as u32;
            st.challenges.push(Challenge {
                number,
                from: self.id,
                to,
                time_control,
                rated,
            });
            let text = format!(
                "{me} challenges you: {} {} (:accept {number} or :decline {number})",
                time_control.map_or("no clock".to_string(), |t| t.to_string()),
                if rated { "rated" } else { "casual" }
            );
            (number, st.notice(to, text))
        };
        if let Some(n) = notify {
            n();
        }
        self.club.wake_lobby();
        Ok(number)
    }

    /// Turns down challenge `number` (or withdraws one's own).
    pub fn decline(&self, number: u32) -> Result<(), ClubError> {
        let me = self.name();
        let notify = {
            let mut st = lock(&self.club.state);
            let Some(i) = st
                .challenges
                .iter()
                .position(|c| c.number == number && (c.to == self.id || c.from == self.id))
            else {
                return Err(ClubError::new(format!("no challenge {number} of yours")));
            };
            let c = st.challenges.remove(i);
            let other = if c.to == self.id { c.from } else { c.to };
            st.notice(other, format!("{me} declined challenge {number}"))
        };
        if let Some(n) = notify {
            n();
        }
        self.club.wake_lobby();
        Ok(())
    }

    /// Accepts seek or challenge `number`: a new room, both players in it. Returns the
    /// room's name.
    pub fn accept(&self, number: u32) -> Result<String, ClubError> {
        let (other, tc, rated, my_color) = {
            let mut st = lock(&self.club.state);
            let listed = st.seeks.iter().any(|s| s.number == number)
                || st
                    .challenges
                    .iter()
                    .any(|c| c.number == number && c.to == self.id);
            // Refused before the seek or challenge is taken: it stands for later.
            if listed {
                self.club.room_for_one_more(&st)?;
            }
            if let Some(i) = st.seeks.iter().position(|s| s.number == number) {
                let s = &st.seeks[i];
                if s.viewer == self.id {
                    return Err(ClubError::new("that is your own seek"));
                }
                if s.rated && !self.member.rated {
                    return Err(ClubError::new(
                        "that seek is rated, and rated games need a key",
                    ));
                }
                let s = st.seeks.remove(i);
                (s.viewer, s.time_control, s.rated, s.color.map(Color::flip))
            } else if let Some(i) = st
                .challenges
                .iter()
                .position(|c| c.number == number && c.to == self.id)
            {
                let c = st.challenges.remove(i);
                (c.from, c.time_control, c.rated, None)
            } else {
                return Err(ClubError::new(format!(
                    "no seek or challenge {number} to accept (the lobby lists them)"
                )));
            }
        };
        self.start_game(other, tc, rated, my_color)
    }

    /// A room for this viewer and `other`: the other takes the seat they asked for (White
    /// when they did not say), this viewer the other one.
    fn start_game(
        &self,
        other: u64,
        tc: Option<TimeControl>,
        rated: bool,
        my_color: Option<Color>,
    ) -> Result<String, ClubError> {
        let now = self.club.now();
        let (name, room, other_member, ratings) = {
            let mut st = lock(&self.club.state);
            if !st.viewers.contains_key(&other) {
                return Err(ClubError::new("your opponent has left"));
            }
            self.club.room_for_one_more(&st)?;
            let name = Club::new_room_name(&mut st);
            let room = Arc::new(Mutex::new(Room::new(&name, tc, rated)));
            st.rooms.insert(name.clone(), Arc::clone(&room));
            st.seeks
                .retain(|s| s.viewer != other && s.viewer != self.id);
            let mut previous = Vec::new();
            let mut ratings = [None, None];
            for (i, v) in [other, self.id].into_iter().enumerate() {
                let e = st.viewers.get_mut(&v).expect("checked above");
                if let Some(old) = e.room.replace(name.clone()) {
                    previous.push(old);
                }
                ratings[i] = e.member.rated.then_some(e.rating);
            }
            let other_member = st.viewers[&other].member.clone();
            drop(st);
            for old in previous {
                if let Some(r) = self.club.room(&old) {
                    lock(&r).leave(&other_member.id, now);
                    lock(&r).leave(&self.member.id, now);
                }
            }
            (name, room, other_member, ratings)
        };
        {
            let mut r = lock(&room);
            let first = if my_color == Some(Color::White) {
                (&self.member, ratings[1], &other_member, ratings[0])
            } else {
                (&other_member, ratings[0], &self.member, ratings[1])
            };
            r.join(first.0, first.1, now);
            r.join(first.2, first.3, now);
        }
        let text = format!("{} accepted: the game is in room {name}", self.name());
        let notify = lock(&self.club.state).notice(other, text);
        if let Some(n) = notify {
            n();
        }
        self.club.after_change(&name, None, None);
        Ok(name)
    }
}
