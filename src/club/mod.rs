//! The club: people who meet over `ox88 serve` — rooms where two play and the rest watch,
//! a lobby of seeks, challenges and games, chat, ratings, and the database that keeps them.
//!
//! The club is shared state below the screens: each SSH channel's `App` (one per viewer, as
//! in the terminal) holds a [`Viewer`] and reads what it draws from the club, and every
//! change to a room or the lobby wakes the viewers concerned, who then read again. The club
//! knows nothing of terminals; the server (`serve/`) makes one and gives each session its
//! viewer.
//!
//! - `room/` one room: its seats, watchers, game under the server's clock, offers and chat
//! - `text.rs` what a peer may type that the club keeps or shows: room names, chat lines
//! - `identity.rs` who is who: a key's account and its name, an open visitor's name, the
//!   one-time code that adds a key to an account
//! - `store.rs` the storage trait and its SQLite implementation (accounts, games, ratings)
//! - `writer.rs` the thread that writes to the store, so that play never waits for a disk
//! - `lobby.rs` the club itself: viewers, rooms by name, seeks and challenges
//! - `analysis.rs` the engine's analysis of a watched game, one search shared by its watchers
//! - `tournament/` Swiss tournaments as pure data: FIDE Dutch pairing, standings, TRF files
//! - `study.rs` a study: chapters of move trees, one shared cursor, who may move
//! - `bots.rs` the engine seated as members (`ox88-1600`): names, levels, one move's search
//! - `budget.rs` the server's engine budget: searches at once, and who waits for a share

pub mod analysis;
pub mod bots;
pub mod budget;
pub mod identity;
pub mod lobby;
pub mod room;
pub mod store;
pub mod study;
pub mod text;
pub mod tournament;
pub mod writer;

pub use identity::{Login, SignedIn};
pub use lobby::{Club, LobbyView, Viewer};
pub use room::{Action, Role, Room, RoomView};
pub use store::{
    Account, CodeRefused, GameRecord, MemberRating, Orders, SqliteStore, Store, StoreError,
    TournamentRecord, game_date,
};

use std::sync::Arc;

/// Who a viewer is: a key's player (rated games, a seat kept across connections) or an open
/// visitor (casual games only, a new player each time).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Member {
    /// The account's id (its first key's SHA-256 fingerprint), or `open:<run>-<n>` for an
    /// open visitor.
    pub id: String,
    /// The name shown: an account's own, or an open visitor's (cleaned, unique among those
    /// online, never an account's).
    pub name: String,
    /// May play rated games (has a key).
    pub rated: bool,
}

/// Wakes a viewer's loop when something it shows has changed (the viewer then reads the
/// club again). Called with the club's locks held: it must only send, never block.
pub type Notify = Arc<dyn Fn() + Send + Sync>;

/// What the club refuses, said to the one who asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ClubError(pub String);

impl ClubError {
    pub fn new(text: impl Into<String>) -> ClubError {
        ClubError(text.into())
    }
}

/// How an open visitor's member id begins (`open:<run>-<n>`).
const VISITOR: &str = "open:";

/// How the member id of the engine seated as a member begins (`bot:<level>`).
const BOT: &str = "bot:";

impl Member {
    /// An open visitor (no key): a player of this session only, who can never come back to
    /// a seat, and whose games are never kept as going on.
    pub fn is_visitor(&self) -> bool {
        is_visitor_id(&self.id)
    }

    /// The engine seated as a member at one of its levels (`ox88-1600`).
    pub fn is_bot(&self) -> bool {
        is_bot_id(&self.id)
    }
}

/// The member id of the engine playing at `elo` (one member per level on a server).
pub fn bot_id(elo: u32) -> String {
    format!("{BOT}{elo}")
}

/// Is `id` the engine's member id at some level?
pub fn is_bot_id(id: &str) -> bool {
    id.starts_with(BOT)
}

/// The member id of the `n`th open visitor of the server run `run` (a token of the run's
/// own, so that no id is ever given out twice, across restarts too).
pub fn visitor_id(run: &str, n: u64) -> String {
    format!("{VISITOR}{run}-{n}")
}

/// Is `id` an open visitor's member id?
pub fn is_visitor_id(id: &str) -> bool {
    id.starts_with(VISITOR)
}
