//! Who is in a room: the two seats (who plays which colour, whether they are here, how long
//! an absent player has been away, which opens the opponent's claim, and whether a player
//! of a restored game has played on since) and the watchers.

use std::time::{Duration, Instant};

use super::{Role, Room};
use crate::chess::Color;
use crate::club::{ClubError, Member};
use crate::game::glicko::Rating;

/// How long a player may be away before the opponent may claim the game (lichess's rule).
pub const CLAIM_AFTER: Duration = Duration::from_secs(60);

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
    /// Has played on since the game was restored, both players here (always, in a game
    /// that was never adjourned). A player who has not cannot lose by absence.
    pub resumed: bool,
}

/// What a member who joins becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Joined {
    /// A player back in the seat they had.
    Back(Color),
    /// A newcomer in a seat that was free.
    Seated(Color),
    Watching,
}

/// Whether a seated player is here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Presence {
    Here,
    /// Gone this long (zero for a player of a restored game nobody waits for yet).
    Away(Duration),
}

/// A taken seat: who sits there, and whether they are here.
#[derive(Clone, Debug)]
struct Seat {
    member: Member,
    rating: Option<Rating>,
    connected: bool,
    /// When the connection went. `None` while connected, and for a player of a restored
    /// game until the opponent is back and starts waiting for them.
    away_since: Option<Instant>,
    /// The viewers were told that the opponent may now claim (they are told once).
    claim_announced: bool,
    /// Has played on in this room's game: true from the start of a new game; for a
    /// restored (adjourned) one, once both players are back and its clocks run again.
    /// Until then a claim against the player adjourns the game again instead of winning
    /// it: leaving a game that waits for the opponent abandons nothing.
    resumed: bool,
}

impl Seat {
    fn new(member: &Member, rating: Option<Rating>) -> Seat {
        Seat {
            member: member.clone(),
            rating,
            connected: true,
            away_since: None,
            claim_announced: false,
            resumed: true,
        }
    }

    /// The rating shown beside the name.
    fn shown_rating(&self) -> Option<u32> {
        self.rating.map(|r| r.rating.round().max(0.0) as u32)
    }

    /// Away long enough, by `now`, for the opponent to claim the game (a player who has
    /// not played on since the game was restored never is: that claim only adjourns).
    fn claimable(&self, now: Instant) -> bool {
        !self.connected
            && self.resumed
            && self
                .away_since
                .is_some_and(|t| now.saturating_duration_since(t) >= CLAIM_AFTER)
    }
}

/// The room's two seats, White's and Black's, and its watchers. A member is in one place at
/// most: a seat or the watchers.
#[derive(Clone, Debug, Default)]
pub(super) struct Seats {
    seats: [Option<Seat>; 2],
    watchers: Vec<Member>,
}

impl Seats {
    /// The seats of a stored game that resumes: both taken, both players away, and neither
    /// counted away until the other is back.
    pub(super) fn restored(white: Member, black: Member) -> Seats {
        let seat = |member: Member| Seat {
            connected: false,
            resumed: false,
            ..Seat::new(&member, None)
        };
        Seats {
            seats: [Some(seat(white)), Some(seat(black))],
            watchers: Vec::new(),
        }
    }

    /// The seats of a tournament's game, given by its pairing: both taken, both players
    /// away until they come in (not yet counted away: the tournament judges a no-show).
    pub(super) fn reserved(white: Member, black: Member) -> Seats {
        let seat = |member: Member| Seat {
            connected: false,
            ..Seat::new(&member, None)
        };
        Seats {
            seats: [Some(seat(white)), Some(seat(black))],
            watchers: Vec::new(),
        }
    }

    /// A member comes in: a returning player takes their seat back (shown with `rating`
    /// when given, else the one they had); a newcomer takes a free seat, else watches; a
    /// watcher who comes again is not counted twice. `rating` is kept for rated members only.
    pub(super) fn join(&mut self, member: &Member, rating: Option<Rating>) -> Joined {
        let rating = rating.filter(|_| member.rated);
        if let Some(side) = self.side_of(&member.id) {
            if let Some(seat) = self.seats[side.index()].as_mut() {
                seat.member = member.clone();
                seat.rating = rating.or(seat.rating);
                seat.connected = true;
                seat.away_since = None;
                seat.claim_announced = false;
            }
            return Joined::Back(side);
        }
        if let Some(w) = self.watchers.iter_mut().find(|w| w.id == member.id) {
            *w = member.clone();
            return Joined::Watching;
        }
        if let Some(i) = self.seats.iter().position(Option::is_none) {
            self.seats[i] = Some(Seat::new(member, rating));
            return Joined::Seated(Color::from_index(i));
        }
        self.watchers.push(member.clone());
        Joined::Watching
    }

    /// A member's connection went: a player keeps the seat and is away from `now` (unless
    /// `keep_seat` is false: then the seat is given up); a watcher leaves. True when
    /// anything changed.
    pub(super) fn leave(&mut self, id: &str, keep_seat: bool, now: Instant) -> bool {
        if let Some(side) = self.side_of(id) {
            if !keep_seat {
                self.seats[side.index()] = None;
                return true;
            }
            if let Some(seat) = self.seats[side.index()].as_mut()
                && seat.connected
            {
                seat.connected = false;
                seat.away_since = Some(now);
                seat.claim_announced = false;
                return true;
            }
            false
        } else if let Some(i) = self.watchers.iter().position(|w| w.id == id) {
            self.watchers.remove(i);
            true
        } else {
            false
        }
    }

    /// The colour `id` plays, if seated.
    pub(super) fn side_of(&self, id: &str) -> Option<Color> {
        Color::BOTH.into_iter().find(|c| {
            self.seats[c.index()]
                .as_ref()
                .is_some_and(|s| s.member.id == id)
        })
    }

    pub(super) fn role(&self, id: &str) -> Option<Role> {
        if let Some(side) = self.side_of(id) {
            return Some(Role::Player(side));
        }
        self.watchers
            .iter()
            .any(|w| w.id == id)
            .then_some(Role::Watcher)
    }

    /// Is the player `id` in the room (not away)?
    pub(super) fn is_connected(&self, id: &str) -> bool {
        self.side_of(id)
            .and_then(|side| self.seats[side.index()].as_ref())
            .is_some_and(|s| s.connected)
    }

    /// The player at `side` is in the room.
    pub(super) fn is_here(&self, side: Color) -> bool {
        self.seats[side.index()]
            .as_ref()
            .is_some_and(|s| s.connected)
    }

    /// Both seats are taken.
    pub(super) fn both_taken(&self) -> bool {
        self.seats.iter().all(Option::is_some)
    }

    /// Who sits at `side`.
    pub(super) fn member(&self, side: Color) -> Option<&Member> {
        self.seats[side.index()].as_ref().map(|s| &s.member)
    }

    /// The name of who sits at `side`, or the colour's name for an empty seat.
    pub(super) fn name(&self, side: Color) -> String {
        self.member(side)
            .map_or_else(|| side.name().to_string(), |m| m.name.clone())
    }

    /// The name `id` is shown by in the room, player or watcher.
    pub(super) fn name_of(&self, id: &str) -> Option<String> {
        match self.side_of(id) {
            Some(side) => Some(self.name(side)),
            None => self
                .watchers
                .iter()
                .find(|w| w.id == id)
                .map(|w| w.name.clone()),
        }
    }

    /// The rating shown beside `side`'s name.
    pub(super) fn rating(&self, side: Color) -> Option<u32> {
        self.seats[side.index()]
            .as_ref()
            .and_then(Seat::shown_rating)
    }

    /// Both seats are taken by rated members.
    pub(super) fn both_rated(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.as_ref().is_some_and(|s| s.member.rated))
    }

    /// Every seated player is a rated member (true with no one seated).
    pub(super) fn seated_rated(&self) -> bool {
        self.seats.iter().flatten().all(|s| s.member.rated)
    }

    /// How many watch.
    pub(super) fn watcher_count(&self) -> usize {
        self.watchers.len()
    }

    /// Anyone is connected: a seated player or a watcher.
    pub(super) fn anyone_here(&self) -> bool {
        self.seats.iter().flatten().any(|s| s.connected) || !self.watchers.is_empty()
    }

    /// The player at `side` has played on in this room's game (a player of a restored game
    /// has not until both were back).
    pub(super) fn resumed(&self, side: Color) -> bool {
        self.seats[side.index()].as_ref().is_some_and(|s| s.resumed)
    }

    /// Both players are back in a restored game: it goes on, and from now on either may
    /// lose it by leaving.
    pub(super) fn resume(&mut self) {
        for seat in self.seats.iter_mut().flatten() {
            seat.resumed = true;
        }
    }

    /// Both seats are taken and both players away: since the later of their leavings.
    /// `None` while either is here, or away uncounted (a restored seat nobody waits for).
    pub(super) fn both_away_since(&self) -> Option<Instant> {
        let [Some(white), Some(black)] = &self.seats else {
            return None;
        };
        if white.connected || black.connected {
            return None;
        }
        Some(white.away_since?.max(black.away_since?))
    }

    /// A seat is held by an open visitor, who can never come back to it.
    pub(super) fn holds_a_visitor(&self) -> bool {
        self.seats.iter().flatten().any(|s| s.member.is_visitor())
    }

    /// No seated player is connected.
    pub(super) fn nobody_seated_here(&self) -> bool {
        self.seats.iter().flatten().all(|s| !s.connected)
    }

    /// Every seated player is connected.
    pub(super) fn players_here(&self) -> bool {
        self.seats.iter().flatten().all(|s| s.connected)
    }

    /// Whether the player at `side` is here; `None` for an empty seat.
    pub(super) fn presence(&self, side: Color, now: Instant) -> Option<Presence> {
        let seat = self.seats[side.index()].as_ref()?;
        Some(if seat.connected {
            Presence::Here
        } else {
            Presence::Away(
                seat.away_since
                    .map_or(Duration::ZERO, |t| now.saturating_duration_since(t)),
            )
        })
    }

    /// A player of a restored game is back: an absent one nobody waited for yet counts as
    /// away from `now`.
    pub(super) fn start_waiting_for_the_absent(&mut self, now: Instant) {
        for seat in self.seats.iter_mut().flatten() {
            if !seat.connected && seat.away_since.is_none() {
                seat.away_since = Some(now);
            }
        }
    }

    /// The players change colours (the opener's pick, or a rematch); a claim announced in
    /// the game before does not carry over.
    pub(super) fn swap_colours(&mut self) {
        self.seats.swap(0, 1);
        for seat in self.seats.iter_mut().flatten() {
            seat.claim_announced = false;
        }
    }

    /// Marks each player away for [`CLAIM_AFTER`] by `now` as announced; true when one was
    /// not before (the viewers then show that the opponent may claim).
    pub(super) fn announce_claims(&mut self, now: Instant) -> bool {
        let mut changed = false;
        for seat in self.seats.iter_mut().flatten() {
            if seat.claimable(now) && !seat.claim_announced {
                seat.claim_announced = true;
                changed = true;
            }
        }
        changed
    }

    /// The next moment a claim against an away player opens (and is to be announced).
    pub(super) fn next_claim(&self) -> Option<Instant> {
        self.seats
            .iter()
            .flatten()
            .filter(|s| !s.connected && s.resumed && !s.claim_announced)
            .filter_map(|s| s.away_since.map(|t| t + CLAIM_AFTER))
            .min()
    }

    /// White's seat and Black's as a viewer draws them; how long a player has been away is
    /// shown only while the game `going` on.
    pub(super) fn views(&self, going: bool, now: Instant) -> [Option<SeatView>; 2] {
        let view = |seat: &Seat| SeatView {
            id: seat.member.id.clone(),
            name: seat.member.name.clone(),
            rating: seat.shown_rating(),
            connected: seat.connected,
            away: seat
                .away_since
                .filter(|_| going && !seat.connected)
                .map(|t| now.saturating_duration_since(t)),
            resumed: seat.resumed,
        };
        [
            self.seats[0].as_ref().map(view),
            self.seats[1].as_ref().map(view),
        ]
    }

    /// `id`'s new rating, shown beside their name from now on (after a rated game); false
    /// when `id` has no seat here.
    pub(super) fn set_rating(&mut self, id: &str, rating: Rating) -> bool {
        let Some(side) = self.side_of(id) else {
            return false;
        };
        match self.seats[side.index()].as_mut() {
            Some(seat) if seat.member.rated => {
                seat.rating = Some(rating);
                true
            }
            _ => false,
        }
    }

    /// The watchers' names, in the order they came.
    pub(super) fn watcher_names(&self) -> Vec<String> {
        self.watchers.iter().map(|w| w.name.clone()).collect()
    }
}

impl Room {
    /// A player's rating after a rated game: the seats show it (the rating read when they
    /// sat down is out of date once the game is rated).
    pub fn rating_changed(&mut self, id: &str, rating: Rating) {
        if self.seats.set_rating(id, rating) {
            self.version += 1;
        }
    }

    /// The room's opener picks a colour before the second player joins.
    pub(super) fn choose_color(&mut self, id: &str, want: Color) -> Result<String, ClubError> {
        let me = match self.seats.role(id) {
            Some(Role::Player(side)) => side,
            Some(Role::Watcher) => {
                return Err(ClubError::new(
                    "you are watching: only a player picks a colour",
                ));
            }
            None => return Err(ClubError::new("you are not in this room")),
        };
        if self.began {
            return Err(ClubError::new("the game has begun: the colours are set"));
        }
        if me != want {
            // Before the game begins the other seat is empty.
            self.seats.swap_colours();
            self.version += 1;
        }
        Ok(format!("you play {}", want.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{member, mv, refused, room_of_two, secs, tc};
    use crate::chess::Color;
    use crate::club::room::{Action, Role, Room};
    use std::time::Instant;

    #[test]
    fn a_player_who_leaves_keeps_the_seat_and_gets_it_back() {
        let t0 = Instant::now();
        let mut room = room_of_two(tc("5+0"), t0);
        mv(&mut room, "alice", "e4", t0);
        room.leave("bob", t0 + secs(10));
        let v = room.view(t0 + secs(52));
        let bob = v.seats[1].as_ref().unwrap();
        assert!(!bob.connected);
        assert_eq!(bob.away, Some(secs(42)));
        assert_eq!(v.running, Some(Color::Black), "the clock keeps running");
        assert_eq!(v.clocks.unwrap()[1], secs(248));
        // Someone else arriving only watches.
        assert_eq!(room.join(&member("carol", false), None, t0), Role::Watcher);
        assert_eq!(
            room.join(&member("bob", false), None, t0 + secs(53)),
            Role::Player(Color::Black)
        );
        let v = room.view(t0 + secs(54));
        let bob = v.seats[1].as_ref().unwrap();
        assert!(bob.connected);
        assert_eq!(bob.away, None);
        mv(&mut room, "bob", "e5", t0 + secs(55));
    }

    #[test]
    fn watchers_come_and_go_once() {
        let t0 = Instant::now();
        let mut room = room_of_two(None, t0);
        room.join(&member("carol", false), None, t0);
        room.join(&member("carol", false), None, t0);
        assert_eq!(room.view(t0).watchers, ["carol-name"]);
        room.leave("carol", t0);
        assert!(room.view(t0).watchers.is_empty());
        assert_eq!(room.role("carol"), None);
    }

    #[test]
    fn the_opener_picks_a_colour_before_the_opponent_comes() {
        let t0 = Instant::now();
        let mut room = Room::new("r1", None, false);
        room.join(&member("alice", false), None, t0);
        room.act("alice", Action::Color(Color::Black), t0).unwrap();
        assert_eq!(room.role("alice"), Some(Role::Player(Color::Black)));
        assert_eq!(
            room.join(&member("bob", false), None, t0),
            Role::Player(Color::White)
        );
        let err = refused(&mut room, "alice", Action::Color(Color::White), t0);
        assert!(err.contains("colours are set"), "{err}");
        room.join(&member("carol", false), None, t0);
        let err = refused(&mut room, "carol", Action::Color(Color::White), t0);
        assert!(err.contains("watching"), "{err}");
    }

    #[test]
    fn the_opener_who_leaves_before_anyone_came_gives_the_seat_up() {
        let t0 = Instant::now();
        let mut room = Room::new("r1", None, false);
        room.join(&member("alice", false), None, t0);
        room.leave("alice", t0);
        assert!(room.is_idle());
        assert_eq!(
            room.join(&member("bob", false), None, t0),
            Role::Player(Color::White)
        );
        assert!(!room.view(t0).began);
    }
}
