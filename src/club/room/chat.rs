//! The room's chat: lines cleaned and numbered as they come, the last [`CHAT_KEPT`] kept, and
//! each member held to [`CHAT_BURST`] lines in any [`CHAT_WINDOW`] so nobody floods the room.

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use super::{Role, Room, seconds_up};
use crate::club::{ClubError, text};

/// The chat lines a room keeps (older ones go).
pub const CHAT_KEPT: usize = 100;
/// The chat lines one member may send within [`CHAT_WINDOW`].
pub const CHAT_BURST: usize = 5;
/// The window of the chat rate limit.
pub const CHAT_WINDOW: Duration = Duration::from_secs(10);

/// Who reads a chat line. During a game the players and the watchers chat apart (the
/// watchers, who may see the engine, cannot pass it on to a player); after the game every
/// line is everyone's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Among {
    Everyone,
    /// Said by a player while the game went on.
    Players,
    /// Said by a watcher while the game went on.
    Watchers,
}

/// One chat line, already cleaned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// Numbered in the room, so a viewer can tell new lines from seen ones.
    pub seq: u64,
    pub from: String,
    pub text: String,
    pub among: Among,
}

/// A room's chat: its last lines, numbered, and who may send another now.
#[derive(Debug, Default)]
pub(super) struct Chat {
    /// At most [`CHAT_KEPT`], oldest first.
    lines: VecDeque<ChatLine>,
    /// The number of the last line sent (lines that went keep theirs).
    seq: u64,
    limit: RateLimit,
}

impl Chat {
    /// `from` (the name shown; `id` the member, for the rate limit) says `text`: the line is
    /// cleaned, or refused when nothing is left of it or its sender is typing too fast.
    pub(super) fn say(
        &mut self,
        id: &str,
        from: String,
        text: &str,
        among: Among,
        now: Instant,
    ) -> Result<(), ClubError> {
        let line = text::chat_line(text)?;
        self.limit.admit(id, now)?;
        self.seq += 1;
        self.lines.push_back(ChatLine {
            seq: self.seq,
            from,
            text: line,
            among,
        });
        while self.lines.len() > CHAT_KEPT {
            self.lines.pop_front();
        }
        Ok(())
    }

    /// The lines kept, oldest first: all of them, or (`apart`) those of one side of a
    /// game going on and those said to everyone.
    pub(super) fn lines(&self, apart: Option<Among>) -> Vec<ChatLine> {
        self.lines
            .iter()
            .filter(|l| apart.is_none_or(|side| l.among == side || l.among == Among::Everyone))
            .cloned()
            .collect()
    }
}

/// Each member's recent lines: at most [`CHAT_BURST`] in any [`CHAT_WINDOW`].
#[derive(Debug, Default)]
struct RateLimit {
    /// The times of each member's lines within the window, oldest first (members with
    /// none are forgotten).
    times: HashMap<String, VecDeque<Instant>>,
}

impl RateLimit {
    /// Counts a line from `id` at `now`, or says how long to wait before the next.
    fn admit(&mut self, id: &str, now: Instant) -> Result<(), ClubError> {
        self.times.retain(|_, times| {
            times
                .back()
                .is_some_and(|&t| now.saturating_duration_since(t) < CHAT_WINDOW)
        });
        let times = self.times.entry(id.to_string()).or_default();
        while times
            .front()
            .is_some_and(|&t| now.saturating_duration_since(t) >= CHAT_WINDOW)
        {
            times.pop_front();
        }
        if times.len() >= CHAT_BURST
            && let Some(&oldest) = times.front()
        {
            let wait = CHAT_WINDOW.saturating_sub(now.saturating_duration_since(oldest));
            return Err(ClubError::new(format!(
                "you are typing too fast: wait {} s",
                seconds_up(wait)
            )));
        }
        times.push_back(now);
        Ok(())
    }
}

impl Room {
    /// A line from anyone in the room, player or watcher, under the name they are shown by.
    pub(super) fn chat(&mut self, id: &str, text: &str, now: Instant) -> Result<String, ClubError> {
        let from = self
            .seats
            .name_of(id)
            .ok_or_else(|| ClubError::new("you are not in this room"))?;
        let among = match self.role(id) {
            _ if !self.in_progress() => Among::Everyone,
            Some(Role::Player(_)) => Among::Players,
            _ => Among::Watchers,
        };
        self.chat.say(id, from, text, among, now)?;
        self.version += 1;
        Ok(String::new())
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{member, refused, room_of_two, secs};
    use super::*;
    use crate::club::room::Action;
    use crate::club::text::CHAT_MAX;

    #[test]
    fn chat_lines_are_cleaned_numbered_and_kept() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        room.join(&member("carol", false), None, t0);
        let say = |room: &mut Room, who: &str, text: &str, s: u64| {
            room.act(who, Action::Chat(text.to_string()), t0 + secs(s))
                .unwrap();
            room.view(t0).chat.last().unwrap().clone()
        };
        let line = say(&mut room, "alice", "\x1b[2Jhello\x1b", 0);
        assert_eq!(line.text, "[2Jhello");
        assert_eq!(line.from, "alice-name");
        let line = say(&mut room, "carol", "nice \u{202E}move\u{2066}", 0);
        assert_eq!(
            (line.from.as_str(), line.text.as_str()),
            ("carol-name", "nice move")
        );
        let line = say(&mut room, "bob", &"z".repeat(10_000), 0);
        assert_eq!(line.text.chars().count(), CHAT_MAX);
        let seqs: Vec<u64> = room.view(t0).chat.iter().map(|l| l.seq).collect();
        assert_eq!(seqs, [1, 2, 3]);
        let err = refused(&mut room, "bob", Action::Chat("\x1b\x07 ".into()), t0);
        assert!(err.contains("empty"), "{err}");
        let err = refused(&mut room, "mallory", Action::Chat("hi".into()), t0);
        assert!(err.contains("not in this room"), "{err}");
        for i in 0..(CHAT_KEPT as u64 + 20) {
            say(&mut room, "carol", &format!("line {i}"), 20 * (i + 1));
        }
        let chat = room.view(t0).chat;
        assert_eq!(chat.len(), CHAT_KEPT);
        assert_eq!(
            chat.last().unwrap().text,
            format!("line {}", CHAT_KEPT + 19)
        );
        assert_eq!(chat[0].seq, 24);
    }

    #[test]
    fn watchers_and_players_chat_apart_during_the_game_and_together_after() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        room.join(&member("carol", false), None, t0);
        let say = |room: &mut Room, who: &str, text: &str| {
            room.act(who, Action::Chat(text.to_string()), t0).unwrap();
        };
        let texts = |room: &Room, who: &str| -> Vec<String> {
            room.view_for(who, t0)
                .chat
                .iter()
                .map(|l| l.text.clone())
                .collect()
        };
        say(&mut room, "alice", "good luck");
        say(&mut room, "carol", "engine says d2d4 is best");
        say(&mut room, "bob", "thanks");
        assert_eq!(texts(&room, "alice"), ["good luck", "thanks"]);
        assert_eq!(texts(&room, "bob"), ["good luck", "thanks"]);
        assert_eq!(texts(&room, "carol"), ["engine says d2d4 is best"]);
        room.act("bob", Action::Resign, t0).unwrap();
        say(&mut room, "carol", "well played");
        let all = [
            "good luck",
            "engine says d2d4 is best",
            "thanks",
            "well played",
        ];
        assert_eq!(texts(&room, "alice"), all);
        assert_eq!(texts(&room, "carol"), all);
    }

    #[test]
    fn chat_is_rate_limited_per_member() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        for i in 0..CHAT_BURST as u64 {
            room.act("alice", Action::Chat(format!("m{i}")), t0 + secs(i))
                .unwrap();
        }
        let err = refused(
            &mut room,
            "alice",
            Action::Chat("again".into()),
            t0 + secs(6),
        );
        assert_eq!(err, "you are typing too fast: wait 4 s");
        // Another member is not held back.
        room.act("bob", Action::Chat("hi".into()), t0 + secs(6))
            .unwrap();
        // The first line is out of the window ten seconds on.
        room.act("alice", Action::Chat("again".into()), t0 + secs(10))
            .unwrap();
    }
}
