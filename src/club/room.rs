//! One room of the club: two seats, the watchers, a game under the server's clock, the
//! offers that stand (draw, takeback, rematch), and the chat. Pure state: every call takes
//! the `Instant` it happens at (tests drive time without sleeping), the club holds each room
//! behind its own lock, and nothing here blocks or does I/O.

use std::time::{Duration, Instant};

use super::store::GameRecord;
use super::{ClubError, Member};
use crate::chess::Color;
use crate::game::clock::TimeControl;
use crate::game::glicko::Rating;
use crate::game::{Game, GameEnd};

/// How long a player may be away before the opponent may claim the game (lichess's rule).
pub const CLAIM_AFTER: Duration = Duration::from_secs(60);
/// Time credited on each move for the trip over the network: a move costs its thinking
/// time less at most this much.
pub const LAG_ALLOWANCE: Duration = Duration::from_millis(200);
/// The chat lines a room keeps (older ones go).
pub const CHAT_KEPT: usize = 100;

/// What a member is in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Player(Color),
    Watcher,
}

/// What a member asks of the room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move in coordinates or SAN.
    Move(String),
    /// Offer a draw, or accept the opponent's standing offer.
    Draw,
    Resign,
    /// End the game unplayed: allowed until the asking side has made its first move.
    Abort,
    /// Ask to take back, or accept the opponent's request.
    Takeback,
    /// Turn down the opponent's standing offer or request.
    Decline,
    /// After the game: offer a rematch (colours swapped), or accept one.
    Rematch,
    /// Win a game whose opponent has been away for [`CLAIM_AFTER`].
    ClaimWin,
    /// The room's opener picks a colour before the second player joins.
    Color(Color),
    Chat(String),
}

/// An offer or request standing in the room, and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Draw(Color),
    Takeback(Color),
    Rematch(Color),
}

/// A seat as a viewer draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    pub id: String,
    pub name: String,
    /// The rating shown beside the name (rated members only).
    pub rating: Option<u32>,
    pub connected: bool,
    /// Away for this long (a dropped connection), while the game goes on.
    pub away: Option<Duration>,
}

/// One chat line, already cleaned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatLine {
    /// Numbered in the room, so a viewer can tell new lines from seen ones.
    pub seq: u64,
    pub from: String,
    pub text: String,
}

/// What a viewer draws, copied out of the room at one instant.
#[derive(Clone, Debug)]
pub struct RoomView {
    pub name: String,
    /// White's seat, Black's seat.
    pub seats: [Option<SeatView>; 2],
    pub watchers: Vec<String>,
    /// The game, its moves carrying the clocks after each (`[%clk]` in the PGN).
    pub game: Game,
    pub time_control: Option<TimeControl>,
    /// Time left for White and Black at this instant.
    pub clocks: Option<[Duration; 2]>,
    /// Whose clock runs.
    pub running: Option<Color>,
    pub rated: bool,
    pub offer: Option<Offer>,
    pub result: Option<GameEnd>,
    /// A game that was aborted (no result, nothing stored).
    pub aborted: bool,
    pub chat: Vec<ChatLine>,
    /// Bumped by every change.
    pub version: u64,
}

/// A game that has just ended, for the store and the ratings.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    pub record: GameRecord,
    /// White's and Black's member ids.
    pub players: [String; 2],
    /// 1, 0.5 or 0 for White.
    pub white_score: f64,
    pub rated: bool,
}

/// One room.
#[derive(Debug)]
pub struct Room {
    name: String,
}

impl Room {
    /// An empty room; `tc` None plays without clocks; `rated` only when both players
    /// turn out to be rated members.
    pub fn new(name: &str, tc: Option<TimeControl>, rated: bool) -> Room {
        let _ = (tc, rated);
        Room {
            name: name.to_string(),
        }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// A member comes in: a returning player takes their seat back; the first two take the
    /// seats (the first White unless they chose with [`Action::Color`]); the rest watch.
    /// `rating` is shown beside a player's name.
    pub fn join(&mut self, member: &Member, rating: Option<Rating>, now: Instant) -> Role {
        let _ = (member, rating, now);
        todo!()
    }

    /// A member's connection went: a player keeps the seat (their clock runs, and after
    /// [`CLAIM_AFTER`] the opponent may claim); a watcher leaves.
    pub fn leave(&mut self, id: &str, now: Instant) {
        let _ = (id, now);
        todo!()
    }

    pub fn role(&self, id: &str) -> Option<Role> {
        let _ = id;
        todo!()
    }

    /// Does what a member asks, or says why not (the room unchanged). `Ok` holds a short
    /// message for the one who asked.
    pub fn act(&mut self, id: &str, action: Action, now: Instant) -> Result<String, ClubError> {
        let _ = (id, action, now);
        todo!()
    }

    /// Time passing: a flag falls. True when the room changed.
    pub fn tick(&mut self, now: Instant) -> bool {
        let _ = now;
        todo!()
    }

    /// The next moment [`Room::tick`] has something to do (a flag, a claim becoming open).
    pub fn next_due(&self, now: Instant) -> Option<Instant> {
        let _ = now;
        todo!()
    }

    pub fn view(&self, now: Instant) -> RoomView {
        let _ = now;
        todo!()
    }

    pub fn version(&self) -> u64 {
        todo!()
    }

    /// The game as the database keeps it while it goes on (after each move) and once over.
    /// `None` before the first move.
    pub fn record(&self, now: Instant) -> Option<GameRecord> {
        let _ = now;
        todo!()
    }

    /// The game that ended since the last call, once.
    pub fn take_finished(&mut self, now: Instant) -> Option<Finished> {
        let _ = now;
        todo!()
    }

    /// Nobody connected and no game going on: the club may forget the room.
    pub fn is_idle(&self) -> bool {
        todo!()
    }

    /// A game the database kept unfinished (the server stopped): the room waits, clocks
    /// stopped, until both players are back, then goes on where it was.
    pub fn restore(record: &GameRecord) -> Result<Room, ClubError> {
        let _ = record;
        todo!()
    }
}
