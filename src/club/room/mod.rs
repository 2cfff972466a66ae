//! One room of the club: two seats, the watchers, a game under the server's clock, the
//! offers that stand (draw, takeback, rematch), and the chat. Pure state: every call takes
//! the `Instant` it happens at (tests drive time without sleeping), the club's owner holds every
//! room, and nothing here blocks or does I/O.
//!
//! This file is the hub: what a room holds, what the club may ask of it, and which part
//! answers each [`Action`]. The parts, each in its own file:
//!
//! - `seats.rs` who sits where and who watches; a player's absence and the claim it opens
//! - `adjourn.rs` a game that stops without a result and goes on later: a claim against a
//!   player not back since a restart, both players away too long, visitors who left
//! - `clock.rs` the server's clock: the lag credit on each move, when a flag falls
//! - `play.rs` moves, and each way a game ends (flag, resignation, abort, claim)
//! - `offers.rs` draw, takeback and rematch offers, and when they lapse
//! - `chat.rs` the chat lines and the rate limit on them
//! - `record.rs` the game as the store keeps it, and a room restored from it
//! - `tournament.rs` a tournament's game: seats given to the paired players before they
//!   come, berserk, no abort, and the game called off when a player never came

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::{ClubError, Member};
use crate::chess::Color;
use crate::game::clock::TimeControl;
use crate::game::glicko::Rating;
use crate::game::{Game, GameEnd};

mod adjourn;
mod chat;
mod clock;
mod offers;
mod play;
mod record;
mod seats;
mod tournament;

use chat::Chat;
pub use chat::{Among, CHAT_BURST, CHAT_KEPT, CHAT_WINDOW, ChatLine};
pub use clock::LAG_ALLOWANCE;
use clock::ServerClock;
pub use offers::Offer;
pub use record::Finished;
pub use seats::{CLAIM_AFTER, SeatView};
use seats::{Joined, Seats};

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
    /// Win a game whose opponent has been away for [`CLAIM_AFTER`]; against an opponent
    /// who has not played on since the game was restored, adjourn it instead.
    ClaimWin,
    /// The room's opener picks a colour before the second player joins.
    Color(Color),
    Chat(String),
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
    /// The id the game is stored under (a rematch is another game).
    pub game_id: String,
    /// Both seats were taken and the game began.
    pub began: bool,
    /// A game restored after a restart whose clock waits for both players to be back.
    pub waiting: bool,
}

/// A room as the lobby lists it (read under the room's lock without copying its game).
#[derive(Clone, Debug, PartialEq)]
pub struct RoomSummary {
    pub name: String,
    /// White's and Black's names, with the rating shown beside each.
    pub players: [Option<(String, Option<u32>)>; 2],
    pub time_control: Option<TimeControl>,
    /// Rated if the game is (or, before it, would be with a rated opponent).
    pub rated: bool,
    /// Both seats were taken and the game began.
    pub began: bool,
    /// The game goes on: begun, not over, not aborted or adjourned.
    pub going: bool,
    /// Time left for White and Black.
    pub clocks: Option<[Duration; 2]>,
    /// Whose clock runs (the lobby ages it between its snapshots).
    pub running: Option<Color>,
    /// The move number being played.
    pub move_number: u32,
    pub watchers: usize,
}

/// One room.
#[derive(Debug)]
pub struct Room {
    name: String,
    tc: Option<TimeControl>,
    /// Created for rated play: the game is rated when both players are rated members too.
    rated: bool,
    /// Who plays which colour, and who watches.
    seats: Seats,
    game: Game,
    /// The id the store keeps the game under.
    game_id: String,
    /// Both seats were taken: the game is on (or over).
    began: bool,
    clock: ServerClock,
    /// A restored game whose clock waits for both players to be back.
    waiting: bool,
    /// The game stopped without a result, to go on later: the club closes the room and
    /// keeps the game (see `adjourn.rs`).
    adjourned: bool,
    offer: Option<Offer>,
    aborted: bool,
    /// Games that ended and were not yet taken (a rematch may end before the club takes
    /// the game before it).
    finished: VecDeque<Finished>,
    chat: Chat,
    /// What a member is to be told once, by id: an answer to their offer they did not give
    /// themselves (a declined draw). The club takes them and passes them on as notices.
    notes: Vec<(String, String)>,
    /// What a player who is away is to be told when they are back, by id (what happened
    /// while they were gone); it becomes a note when they come back.
    held: Vec<(String, String)>,
    version: u64,
    /// A tournament's game: its seats were given by the pairing, it cannot be aborted, and
    /// the room stays while the game goes on even when nobody is in it (the tournament
    /// decides what an absence costs).
    tournament: bool,
}

/// Whole seconds to wait, rounded up (a refusal never says "wait 0 s").
fn seconds_up(d: Duration) -> u128 {
    d.as_millis().div_ceil(1000).max(1)
}

impl Room {
    /// An empty room; `tc` None plays without clocks; `rated` only when both players
    /// turn out to be rated members.
    pub fn new(name: &str, tc: Option<TimeControl>, rated: bool) -> Room {
        let mut room = Room {
            name: name.to_string(),
            tc,
            rated,
            seats: Seats::default(),
            game: Game::new(),
            game_id: String::new(),
            began: false,
            clock: ServerClock::new(None),
            waiting: false,
            adjourned: false,
            offer: None,
            aborted: false,
            finished: VecDeque::new(),
            chat: Chat::default(),
            notes: Vec::new(),
            held: Vec::new(),
            version: 0,
            tournament: false,
        };
        room.fresh_game();
        room
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// A member comes in: a returning player takes their seat back; the first two take the
    /// seats (the first White unless they chose with [`Action::Color`]); the rest watch.
    /// `rating` is shown beside a player's name.
    ///
    /// Joining is idempotent: a member already seated or watching is not counted twice
    /// (one `leave` makes them away, however many joins came before).
    pub fn join(&mut self, member: &Member, rating: Option<Rating>, now: Instant) -> Role {
        self.version += 1;
        match self.seats.join(member, rating) {
            Joined::Back(side) => {
                self.give_held_news(&member.id);
                self.player_returned(side, now);
                Role::Player(side)
            }
            Joined::Seated(side) => {
                if self.seats.both_taken() {
                    self.began = true;
                }
                Role::Player(side)
            }
            Joined::Watching => Role::Watcher,
        }
    }

    /// A member's connection went: a player keeps the seat (their clock runs, and after
    /// [`CLAIM_AFTER`] the opponent may claim); a watcher leaves.
    ///
    /// Before the game has begun (no opponent yet) a player who leaves gives the seat up,
    /// so a stranger arriving later does not face an empty chair. A game of an open
    /// visitor, who can never come back, is aborted once neither player is here.
    pub fn leave(&mut self, id: &str, now: Instant) {
        if self.seats.leave(id, self.began, now) {
            self.version += 1;
            self.abort_if_strangers_left(now);
        }
    }

    pub fn role(&self, id: &str) -> Option<Role> {
        self.seats.role(id)
    }

    /// Does what a member asks, or says why not (the room unchanged). `Ok` holds a short
    /// message for the one who asked (empty for a chat line: the line itself shows).
    ///
    /// Time is settled first: a flag that fell before `now` ends the game even when no
    /// tick came in between, so a move after the flag is refused.
    pub fn act(&mut self, id: &str, action: Action, now: Instant) -> Result<String, ClubError> {
        if self.settle(now) {
            self.version += 1;
        }
        match action {
            Action::Chat(text) => self.chat(id, &text, now),
            Action::Color(want) => self.choose_color(id, want),
            Action::Move(text) => {
                let me = self.player(id)?;
                self.play(me, &text, now)
            }
            Action::Draw => {
                let me = self.player(id)?;
                self.draw(me, now)
            }
            Action::Resign => {
                let me = self.player(id)?;
                self.resign(me, now)
            }
            Action::Abort => {
                let me = self.player(id)?;
                self.refuse_abort_in_tournament()?;
                self.abort(me, now)
            }
            Action::Takeback => {
                let me = self.player(id)?;
                self.takeback(me, now)
            }
            Action::Decline => {
                let me = self.player(id)?;
                self.decline(me)
            }
            Action::Rematch => {
                let me = self.player(id)?;
                self.rematch(me)
            }
            Action::ClaimWin => {
                let me = self.player(id)?;
                self.claim(me, now)
            }
        }
    }

    /// Time passing: a flag falls. True when the room changed (also when the opponent of an
    /// away player may now claim the game, which viewers show).
    pub fn tick(&mut self, now: Instant) -> bool {
        let mut changed = self.settle(now);
        if self.in_progress() && self.seats.announce_claims(now) {
            changed = true;
        }
        if changed {
            self.version += 1;
        }
        changed
    }

    /// What members are to be told since the last call: `(member id, text)`.
    pub fn take_notes(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.notes)
    }

    /// The next moment [`Room::tick`] has something to do (a flag, a claim becoming open).
    pub fn next_due(&self, now: Instant) -> Option<Instant> {
        if !self.in_progress() {
            return None;
        }
        [self.clock.next_flag(now), self.seats.next_claim()]
            .into_iter()
            .flatten()
            .min()
    }

    pub fn view(&self, now: Instant) -> RoomView {
        let going = self.in_progress();
        let mut game = self.game.clone();
        self.stamp_tags(&mut game);
        RoomView {
            name: self.name.clone(),
            seats: self.seats.views(going, now),
            watchers: self.seats.watcher_names(),
            game,
            time_control: self.tc,
            clocks: self.clock.remaining(now),
            running: self.clock.running().filter(|_| going),
            rated: self.is_rated(),
            offer: self.offer,
            result: self.result(),
            aborted: self.aborted,
            chat: self.chat.lines(None),
            version: self.version,
            game_id: self.game_id.clone(),
            began: self.began,
            waiting: self.waiting,
        }
    }

    /// The room as member `id` sees it at `now`: during a game the chat of their side
    /// only (the players', or the watchers'), every line after it.
    pub fn view_for(&self, id: &str, now: Instant) -> RoomView {
        let mut view = self.view(now);
        if self.in_progress() {
            let side = match self.role(id) {
                Some(Role::Player(_)) => Among::Players,
                _ => Among::Watchers,
            };
            view.chat = self.chat.lines(Some(side));
        }
        view
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    /// Was the game aborted? Its [`Room::record`] then has no result and the termination
    /// `aborted`: the store drops it rather than resuming it.
    pub fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// The id the game is stored under.
    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// `id` plays in this room's game, which is not over (or has not begun).
    pub fn plays_here(&self, id: &str) -> bool {
        matches!(self.role(id), Some(Role::Player(_)))
            && !self.aborted
            && !self.adjourned
            && self.result().is_none()
    }

    /// Who is to move in a game that goes on (one restored goes on once both players are
    /// back): the one the room waits for.
    pub fn to_move(&self) -> Option<&Member> {
        if !self.in_progress() || (self.waiting && !self.seats.players_here()) {
            return None;
        }
        self.seats.member(self.game.board().side_to_move())
    }

    /// The offer or request standing in the room, if any.
    pub fn offer(&self) -> Option<Offer> {
        self.offer
    }

    /// Plies played in the room's game.
    pub fn plies(&self) -> usize {
        self.game.len()
    }

    /// Is the player `id` seated and in the room (not away)?
    pub fn is_present(&self, id: &str) -> bool {
        self.seats.is_connected(id)
    }

    /// Both seats were taken and the game began (it may be over since).
    pub fn has_begun(&self) -> bool {
        self.began
    }

    /// The room as the lobby lists it, at `now`: cheap (no copy of the game).
    pub fn summary(&self, now: Instant) -> RoomSummary {
        let seat = |side: Color| {
            self.seats
                .member(side)
                .map(|m| (m.name.clone(), self.seats.rating(side)))
        };
        RoomSummary {
            name: self.name.clone(),
            players: [seat(Color::White), seat(Color::Black)],
            time_control: self.tc,
            rated: self.rated && self.seats.seated_rated(),
            began: self.began,
            going: self.in_progress(),
            clocks: self.clock.remaining(now),
            running: self
                .clock
                .running()
                .filter(|_| self.in_progress() && !self.waiting),
            move_number: self.game.board().fullmove_number(),
            watchers: self.seats.watcher_count(),
        }
    }

    /// Nobody connected and no game going on: the club may forget the room. A game with
    /// moves that goes on, or an ended one not yet taken, keeps the room.
    pub fn is_idle(&self) -> bool {
        let anyone = self.seats.anyone_here();
        let going = self.in_progress() && (self.tournament || !self.game.is_empty());
        !anyone && !going && self.finished.is_empty()
    }

    // --- what every part reads ---

    /// A new game in the seats as they are: fresh clocks, no offer.
    fn fresh_game(&mut self) {
        self.game = Game::new();
        self.game.time_control = self.tc;
        self.game_id = format!("{}-{}", self.name, self.game.id());
        self.clock = ServerClock::new(self.tc);
        self.waiting = false;
        self.offer = None;
        self.aborted = false;
    }

    /// Rated: created so, and both players rated members.
    fn is_rated(&self) -> bool {
        self.rated && self.seats.both_rated()
    }

    /// The game's result (none for an aborted game).
    fn result(&self) -> Option<GameEnd> {
        if self.aborted {
            None
        } else {
            self.game.result()
        }
    }

    fn in_progress(&self) -> bool {
        self.began && !self.aborted && !self.adjourned && self.game.result().is_none()
    }

    fn player(&self, id: &str) -> Result<Color, ClubError> {
        match self.role(id) {
            Some(Role::Player(side)) => Ok(side),
            Some(Role::Watcher) => Err(ClubError::new(
                "you are watching: only the two players act on the game",
            )),
            None => Err(ClubError::new("you are not in this room")),
        }
    }
}

#[cfg(test)]
mod tests;
