//! Where the club keeps what outlives a connection: players (key fingerprint and name),
//! games (PGN, result, time control, rated, the clocks of an unfinished one), ratings and
//! their history, and each player's puzzle record. [`Store`] is what the club needs of a
//! database; [`SqliteStore`] is the one built in (an embedded SQLite file in WAL mode with
//! versioned migrations). A second backend shared by several hosts would implement the same
//! trait (docs/club.md).

use std::path::Path;

use crate::game::glicko::Rating;

/// A game as the database keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Unique per game (a rematch in the same room is another game).
    pub id: String,
    pub room: String,
    /// The players' member ids (key fingerprints, or `open:N`).
    pub white: String,
    pub black: String,
    pub white_name: String,
    pub black_name: String,
    /// The whole game: tags (names, ratings, time control, result, termination) and moves
    /// with `[%clk]` comments.
    pub pgn: String,
    /// `1-0`, `0-1`, `1/2-1/2`; `None` while the game goes on.
    pub result: Option<String>,
    /// How it ended, in words (`checkmate`, `White resigned`, …).
    pub termination: Option<String>,
    /// As `5+3`; `None` without clocks.
    pub time_control: Option<String>,
    pub rated: bool,
    /// Milliseconds left for White and Black when it was saved.
    pub clocks_ms: Option<[u64; 2]>,
}

/// What went wrong in the database, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("database: {0}")]
pub struct StoreError(pub String);

/// What the club keeps. Every method is one transaction; implementations are shared by
/// all sessions' threads.
pub trait Store: Send + Sync {
    /// Notes a member at login (their name may have changed) and returns their rating
    /// (a newcomer's default at first).
    fn player(&self, id: &str, name: &str) -> Result<Rating, StoreError>;
    fn rating(&self, id: &str) -> Result<Rating, StoreError>;
    /// Saves a game, new or again (by its id): after every move, and when it ends.
    fn save_game(&self, game: &GameRecord) -> Result<(), StoreError>;
    /// Rates a finished game (Glicko-2, the game its own rating period) and returns the
    /// new ratings of White and Black, written with their history in one transaction.
    fn rate_game(
        &self,
        game_id: &str,
        white: &str,
        black: &str,
        white_score: f64,
    ) -> Result<[Rating; 2], StoreError>;
    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;
    /// A member's games, newest first.
    fn games_of(&self, member: &str, limit: usize) -> Result<Vec<GameRecord>, StoreError>;
    /// Games that were going on when the server stopped.
    fn unfinished(&self) -> Result<Vec<GameRecord>, StoreError>;
    /// A member's ratings after each rated game, oldest first, with the game's id.
    fn rating_history(&self, member: &str) -> Result<Vec<(String, Rating)>, StoreError>;
    /// A member's puzzle record (the JSON `puzzle::progress` writes), if any.
    fn puzzle_record(&self, member: &str) -> Result<Option<String>, StoreError>;
    fn save_puzzle_record(&self, member: &str, json: &str) -> Result<(), StoreError>;
}

/// The built-in store: one SQLite file.
pub struct SqliteStore {}

impl SqliteStore {
    /// Opens (or makes) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let _ = path;
        todo!()
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        todo!()
    }
}

impl Store for SqliteStore {
    fn player(&self, id: &str, name: &str) -> Result<Rating, StoreError> {
        let _ = (id, name);
        todo!()
    }
    fn rating(&self, id: &str) -> Result<Rating, StoreError> {
        let _ = id;
        todo!()
    }
    fn save_game(&self, game: &GameRecord) -> Result<(), StoreError> {
        let _ = game;
        todo!()
    }
    fn rate_game(
        &self,
        game_id: &str,
        white: &str,
        black: &str,
        white_score: f64,
    ) -> Result<[Rating; 2], StoreError> {
        let _ = (game_id, white, black, white_score);
        todo!()
    }
    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        let _ = id;
        todo!()
    }
    fn games_of(&self, member: &str, limit: usize) -> Result<Vec<GameRecord>, StoreError> {
        let _ = (member, limit);
        todo!()
    }
    fn unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        todo!()
    }
    fn rating_history(&self, member: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        let _ = member;
        todo!()
    }
    fn puzzle_record(&self, member: &str) -> Result<Option<String>, StoreError> {
        let _ = member;
        todo!()
    }
    fn save_puzzle_record(&self, member: &str, json: &str) -> Result<(), StoreError> {
        let _ = (member, json);
        todo!()
    }
}
