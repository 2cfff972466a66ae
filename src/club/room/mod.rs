//! One room of the club: two seats, the watchers, a game under the server's clock, the
//! offers that stand (draw, takeback, rematch), and the chat. Pure state: every call takes
//! the `Instant` it happens at (tests drive time without sleeping), the club holds each room
//! behind its own lock, and nothing here blocks or does I/O.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::store::GameRecord;
use super::{ClubError, Member};
use crate::chess::Color;
use crate::game::clock::TimeControl;
use crate::game::glicko::Rating;
use crate::game::{Game, GameEnd, Outcome, Termination};

mod chat;
mod clock;
mod offers;
mod play;
mod seats;

use chat::Chat;
pub use chat::{CHAT_BURST, CHAT_KEPT, CHAT_WINDOW, ChatLine};
pub use clock::LAG_ALLOWANCE;
use clock::ServerClock;
pub use offers::Offer;
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
    /// Win a game whose opponent has been away for [`CLAIM_AFTER`].
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
    offer: Option<Offer>,
    aborted: bool,
    /// Games that ended and were not yet taken (a rematch may end before the club takes
    /// the game before it).
    finished: VecDeque<Finished>,
    chat: Chat,
    version: u64,
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
            offer: None,
            aborted: false,
            finished: VecDeque::new(),
            chat: Chat::default(),
            version: 0,
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
                self.player_returned(now);
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
    /// so a stranger arriving later does not face an empty chair.
    pub fn leave(&mut self, id: &str, now: Instant) {
        if self.seats.leave(id, self.began, now) {
            self.version += 1;
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
            chat: self.chat.lines(),
            version: self.version,
            game_id: self.game_id.clone(),
            began: self.began,
            waiting: self.waiting,
        }
    }

    pub fn version(&self) -> u64 {
        self.version
    }

    /// Was the game aborted? Its [`Room::record`] then has no result and the termination
    /// `aborted`: the store drops it rather than resuming it.
    pub fn is_aborted(&self) -> bool {
        self.aborted
    }

    /// The game as the database keeps it while it goes on (after each move) and once over.
    /// `None` before the first move (unless it already ended, e.g. by a resignation).
    /// An aborted game's record has no result and the termination `aborted`.
    pub fn record(&self, now: Instant) -> Option<GameRecord> {
        let ended = self.result().is_some();
        if !self.began || self.game.is_empty() && !ended {
            return None;
        }
        let (Some(white), Some(black)) = (
            self.seats.member(Color::White),
            self.seats.member(Color::Black),
        ) else {
            return None;
        };
        let mut game = self.game.clone();
        self.stamp_tags(&mut game);
        let end = self.result();
        let ms = |d: Duration| d.as_millis().min(u64::MAX as u128) as u64;
        Some(GameRecord {
            id: self.game_id.clone(),
            room: self.name.clone(),
            white: white.id.clone(),
            black: black.id.clone(),
            white_name: white.name.clone(),
            black_name: black.name.clone(),
            pgn: game.to_pgn(),
            result: end.map(|e| e.result().to_string()),
            termination: if self.aborted {
                Some("aborted".to_string())
            } else {
                end.map(|e| e.reason())
            },
            time_control: self.tc.map(|tc| tc.to_string()),
            rated: self.is_rated(),
            clocks_ms: self.clock.remaining(now).map(|left| left.map(ms)),
        })
    }

    /// The game that ended since the last call, once. (The record is made when the game
    /// ends, its clocks stopped then; `now` is not needed.)
    pub fn take_finished(&mut self, _now: Instant) -> Option<Finished> {
        self.finished.pop_front()
    }

    /// Nobody connected and no game going on: the club may forget the room. A game with
    /// moves that goes on, or an ended one not yet taken, keeps the room.
    pub fn is_idle(&self) -> bool {
        let anyone = self.seats.anyone_here();
        let going = self.in_progress() && !self.game.is_empty();
        !anyone && !going && self.finished.is_empty()
    }

    /// A game the database kept unfinished (the server stopped): the room waits, clocks
    /// stopped, until both players are back, then goes on where it was.
    ///
    /// Both seats are away; once one player is back, the other counts as away from then
    /// (so a player who never returns can be claimed against).
    pub fn restore(record: &GameRecord) -> Result<Room, ClubError> {
        let bad = |why: String| ClubError::new(format!("game {}: {why}", record.id));
        if record.result.is_some() || record.termination.as_deref() == Some("aborted") {
            return Err(bad("it is not unfinished, so it cannot resume".to_string()));
        }
        let mut game =
            Game::from_pgn(&record.pgn).map_err(|e| bad(format!("its PGN cannot be read: {e}")))?;
        if let Some(end) = game.result() {
            return Err(bad(format!("its PGN says the game is over ({end})")));
        }
        let tc = match &record.time_control {
            Some(text) => Some(
                text.parse::<TimeControl>()
                    .map_err(|e| bad(format!("its time control: {e}")))?,
            ),
            None => None,
        };
        game.time_control = tc;
        let mut room = Room::new(&record.room, tc, record.rated);
        room.game = game;
        room.game_id = record.id.clone();
        room.began = true;
        room.waiting = true;
        let member = |id: &str, name: &str| Member {
            id: id.to_string(),
            name: name.to_string(),
            rated: record.rated,
        };
        room.seats = Seats::restored(
            member(&record.white, &record.white_name),
            member(&record.black, &record.black_name),
        );
        room.clock.restore(&room.game, record.clocks_ms);
        Ok(room)
    }

    // --- the parts of the room ---

    /// A new game in the seats as they are: fresh clocks, no offer.
    pub(super) fn fresh_game(&mut self) {
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

    pub(super) fn in_progress(&self) -> bool {
        self.began && !self.aborted && self.game.result().is_none()
    }

    /// The game just ended: its record, with the score, waits to be taken (nothing for an
    /// aborted game, which has no result).
    pub(super) fn keep_finished(&mut self, now: Instant) {
        if let (Some(record), Some(end)) = (self.record(now), self.result()) {
            let white_score = match end.outcome {
                Outcome::WhiteWins => 1.0,
                Outcome::Draw => 0.5,
                Outcome::BlackWins => 0.0,
            };
            self.finished.push_back(Finished {
                players: [record.white.clone(), record.black.clone()],
                white_score,
                rated: record.rated,
                record,
            });
        }
    }

    /// The tags a stored game carries (PGN standard 9.6, 9.8.1): who played, the event,
    /// the ratings of a rated game, the time control and how it ended.
    fn stamp_tags(&self, game: &mut Game) {
        let rated = self.is_rated();
        let tags = &mut game.tags;
        tags.set("Event", if rated { "Rated game" } else { "Casual game" });
        tags.set("Site", "ox88 serve");
        for side in Color::BOTH {
            let Some(member) = self.seats.member(side) else {
                continue;
            };
            tags.set(side.name(), &member.name);
            if rated && let Some(elo) = self.seats.rating(side) {
                tags.set(&format!("{}Elo", side.name()), &elo.to_string());
            }
        }
        if self.tc.is_none() {
            tags.set("TimeControl", "-");
        }
        let termination = match self.result() {
            None => "unterminated",
            Some(end) => match end.termination {
                Termination::FlagFall { .. } => "time forfeit",
                Termination::Abandoned { .. } => "abandoned",
                _ => "normal",
            },
        };
        tags.set("Termination", termination);
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

    /// A player is back: in a restored game, the opponent who is not counts as away from
    /// now, and once both are here the clock runs for the side to move.
    fn player_returned(&mut self, now: Instant) {
        if !self.waiting {
            return;
        }
        self.seats.start_waiting_for_the_absent(now);
        if self.seats.players_here() {
            self.waiting = false;
            if self.in_progress() && !self.game.is_empty() {
                self.clock.start(self.game.board().side_to_move(), now);
            }
        }
    }

    // --- the actions ---
}

#[cfg(test)]
mod tests;
