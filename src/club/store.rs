//! Where the club keeps what outlives a connection: players (accounts: their keys and their
//! names, unique without case; `store/accounts.rs`), games (PGN, result, time control,
//! rated, the clocks of an unfinished one), ratings and their history, and each player's
//! puzzle record. [`Store`] is what the club needs of a
//! database; [`SqliteStore`] is the one built in (an embedded SQLite file in WAL mode with
//! versioned migrations). A second backend shared by several hosts would implement the same
//! trait (docs/club.md).

use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, SubsecRound, Utc};
use rusqlite::{
    Connection, Error, OptionalExtension, Row, Transaction, TransactionBehavior, params,
};

use crate::club::study::StudyRecord;
use crate::game::glicko::{Outcome, Rating};

mod accounts;
mod studies;
mod tournaments;
pub use accounts::{Account, CODE_TRIES, CodeRefused};
pub use tournaments::TournamentRecord;

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

/// A member as the members list shows them.
#[derive(Clone, Debug, PartialEq)]
pub struct MemberRating {
    pub id: String,
    pub name: String,
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
}

/// The date a stored game was played, as its PGN's `Date` tag gives it (`2026.11.29`).
pub fn game_date(game: &GameRecord) -> Option<&str> {
    let start = game.pgn.find("[Date \"")? + "[Date \"".len();
    let len = game.pgn[start..].find('"')?;
    Some(&game.pgn[start..start + len])
}

/// What went wrong in the database, with what was being done.
#[derive(Debug, thiserror::Error)]
#[error("database: {0}")]
pub struct StoreError(pub String);

/// What the operator has ordered (`ox88 club ban|kick`), by account id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Orders {
    /// Accounts banned: none of their sessions may run.
    pub banned: Vec<String>,
    /// Accounts whose sessions are to be closed once (they may come back).
    pub kicked: Vec<String>,
}

/// What the club keeps. Every method is one transaction; implementations are shared by
/// all sessions' threads.
pub trait Store: Send + Sync {
    /// Notes a member at login and returns their rating (a newcomer's default at first).
    /// A member not kept yet is added under `name`; a kept one keeps the name it has.
    fn player(&self, id: &str, name: &str) -> Result<Rating, StoreError>;
    /// Notes a login with `key` (its id, see `serve::player_id`): the account the key
    /// reaches, if any. A rename the store made that the account was not told of yet comes
    /// in `renamed_from` this once.
    fn key_login(&self, key: &str) -> Result<Option<Account>, StoreError>;
    /// A new account for `key` named `name`, whose id is the key's; `None` when the name
    /// (without case) is another account's. A key that has an account already gets it.
    fn new_account(&self, key: &str, name: &str) -> Result<Option<Account>, StoreError>;
    /// The account named `name`, compared without case.
    fn account_named(&self, name: &str) -> Result<Option<Account>, StoreError>;
    /// How many keys reach `account`.
    fn keys_of(&self, account: &str) -> Result<usize, StoreError>;
    /// Keeps `code` as the one code that adds a key to `account` until `expires`, in
    /// place of any code it had.
    fn put_key_code(
        &self,
        account: &str,
        code: &str,
        expires: DateTime<Utc>,
    ) -> Result<(), StoreError>;
    /// Adds `key` to the account named `name` when `code` is its live code; the code is
    /// then used up. A wrong code counts against the live one, which goes after
    /// [`CODE_TRIES`] wrong tries.
    fn add_key_by_code(
        &self,
        name: &str,
        code: &str,
        key: &str,
    ) -> Result<Result<Account, CodeRefused>, StoreError>;
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
    /// The members with a key, strongest first: name, rating and rated games played.
    fn members(&self, limit: usize) -> Result<Vec<MemberRating>, StoreError>;
    /// A member's puzzle record (the JSON `puzzle::progress` writes), if any.
    fn puzzle_record(&self, member: &str) -> Result<Option<String>, StoreError>;
    fn save_puzzle_record(&self, member: &str, json: &str) -> Result<(), StoreError>;
    /// Forgets a game that was never played out (aborted): an unrated game with no
    /// result; a finished or rated game is never deleted.
    fn forget_unplayed(&self, id: &str) -> Result<(), StoreError>;
    /// What members are to be told at their next login, `(member id, text)`, oldest first.
    fn news(&self) -> Result<Vec<(String, String)>, StoreError>;
    /// Keeps a line for `member`'s next login, the oldest dropped past `kept` lines.
    fn keep_news(&self, member: &str, text: &str, kept: usize) -> Result<(), StoreError>;
    /// Forgets what `member` was to be told (told now).
    fn clear_news(&self, member: &str) -> Result<(), StoreError>;
    /// Whether `account` is banned from the club (`ox88 club ban`). A store that keeps no
    /// bans (a test's) bans nobody.
    fn is_banned(&self, _account: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
    /// The operator's orders as they stand: every banned account, and the accounts asked
    /// to be kicked since the last call (each kick is taken once). A store that keeps no
    /// orders has none.
    fn take_orders(&self) -> Result<Orders, StoreError> {
        Ok(Orders::default())
    }
    /// Keeps a tournament as it stands (its games added in order). A store that keeps no
    /// tournaments (a test's) forgets it.
    fn save_tournament(&self, _t: &TournamentRecord) -> Result<(), StoreError> {
        Ok(())
    }
    /// Every tournament kept, by id, without their games.
    fn tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        Ok(Vec::new())
    }
    /// Tournament `id`, with its games' ids in the order they were paired.
    fn tournament(&self, _id: u32) -> Result<Option<TournamentRecord>, StoreError> {
        Ok(None)
    }
    /// Tournaments left starting or running by a server that stopped, other than `keep`
    /// (those it goes on with), are finished; how many.
    fn close_open_tournaments(&self, _keep: &[u32]) -> Result<usize, StoreError> {
        Ok(0)
    }
    /// Keeps a study as it stands, in place of the one of its name (without case). A store
    /// that keeps no studies (a test's) forgets it.
    fn save_study(&self, _record: &StudyRecord) -> Result<(), StoreError> {
        Ok(())
    }
    /// Every study kept, by name (without case). One whose record cannot be read is left
    /// out, and named on standard error.
    fn studies(&self) -> Result<Vec<StudyRecord>, StoreError> {
        Ok(Vec::new())
    }
    /// The study named `name`, compared without case.
    fn study(&self, _name: &str) -> Result<Option<StudyRecord>, StoreError> {
        Ok(None)
    }
    /// Forgets the study named `name` (without case): whether there was one.
    fn delete_study(&self, _name: &str) -> Result<bool, StoreError> {
        Ok(false)
    }
}

/// The built-in store: one SQLite file (or a database in memory, for tests).
///
/// One connection behind a mutex: SQLite writes one transaction at a time anyway, and every
/// call is a short transaction, so sessions' threads simply take turns.
pub struct SqliteStore {
    inner: Mutex<Inner>,
}

/// What the mutex guards: the connection and the last timestamp given out.
struct Inner {
    conn: Connection,
    /// The last stamp written, so that stamps never repeat or go back within a process and
    /// "newest first" orders saves made in the same microsecond too.
    last_stamp: Option<DateTime<Utc>>,
}

/// One step of the schema: SQL, or code where the step must look at what the rows hold.
enum Step {
    Sql(&'static str),
    Code(fn(&Transaction<'_>) -> rusqlite::Result<()>),
}

/// The schema, one step per version: step `i` takes a database from version `i` to `i + 1`
/// (`PRAGMA user_version` holds the version). Steps are only ever appended: a database made
/// by an older ox88 is brought up to date by the steps it has not had yet.
const MIGRATIONS: &[Step] = &[
    // Version 1: players, their ratings and rating history, games, puzzle records.
    Step::Sql(SCHEMA_1),
    // Version 2: accounts reached by keys, names unique without case (accounts.rs).
    Step::Code(accounts::names_and_keys),
    // Version 3: what a member is to be told at their next login.
    Step::Sql(
        "CREATE TABLE news (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            member TEXT NOT NULL,
            text TEXT NOT NULL,
            at TEXT NOT NULL
        );
        CREATE INDEX news_by_member ON news (member, id);",
    ),
    // Version 4: the operator's bans and kicks (`ox88 club ban|kick`).
    Step::Sql(OPERATOR),
    // Version 5: tournaments and their games (tournaments.rs).
    Step::Sql(tournaments::SCHEMA),
    // Version 6: a tournament's runner state, so that a restart goes on with it.
    Step::Sql(tournaments::RUNNER),
    // Version 7: studies, each record as JSON (studies.rs).
    Step::Sql(studies::SCHEMA),
];

/// The operator's orders, written by `ox88 club` (another process) and read by the server
/// every second: an account banned stays so until unbanned; a kick is a request the server
/// takes (deletes) when it acts on it.
const OPERATOR: &str = "CREATE TABLE banned (
        player TEXT PRIMARY KEY NOT NULL REFERENCES players(id),
        since TEXT NOT NULL
    );
    CREATE TABLE kicks (
        player TEXT NOT NULL REFERENCES players(id),
        asked_at TEXT NOT NULL
    );";

/// The first schema.
const SCHEMA_1: &str = "CREATE TABLE players (
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL
    );
    CREATE TABLE ratings (
        player TEXT PRIMARY KEY NOT NULL REFERENCES players(id),
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE games (
        id TEXT PRIMARY KEY NOT NULL,
        room TEXT NOT NULL,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        white_name TEXT NOT NULL,
        black_name TEXT NOT NULL,
        pgn TEXT NOT NULL,
        result TEXT,
        termination TEXT,
        time_control TEXT,
        rated INTEGER NOT NULL CHECK (rated IN (0, 1)),
        clocks_ms_white INTEGER,
        clocks_ms_black INTEGER,
        started_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX games_by_white ON games (white, updated_at);
    CREATE INDEX games_by_black ON games (black, updated_at);
    CREATE INDEX games_unfinished ON games (updated_at) WHERE result IS NULL;
    CREATE TABLE rating_history (
        player TEXT NOT NULL REFERENCES players(id),
        game_id TEXT NOT NULL REFERENCES games(id),
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        at TEXT NOT NULL,
        UNIQUE (player, game_id)
    );
    CREATE INDEX rating_history_by_game ON rating_history (game_id);
    CREATE TABLE puzzle_records (
        player TEXT PRIMARY KEY NOT NULL,
        json TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );";

/// How long a call waits for another process's write to finish before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The columns a [`GameRecord`] is read from, in [`game_of_row`]'s order.
macro_rules! select_games {
    ($rest:literal) => {
        concat!(
            "SELECT id, room, white, black, white_name, black_name, pgn, result, termination, \
             time_control, rated, clocks_ms_white, clocks_ms_black FROM games ",
            $rest
        )
    };
}

/// Says what was being done when SQLite failed.
trait Doing<T> {
    fn doing(self, what: impl FnOnce() -> String) -> Result<T, StoreError>;
}

impl<T> Doing<T> for rusqlite::Result<T> {
    fn doing(self, what: impl FnOnce() -> String) -> Result<T, StoreError> {
        self.map_err(|e| StoreError(format!("{}: {e}", what())))
    }
}

impl SqliteStore {
    /// Opens (or makes) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let shown = path.display().to_string();
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError(format!("making {}: {e}", dir.display())))?;
        }
        // Made readable by the server's user alone before SQLite opens it: it holds who
        // has which key and every game.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| StoreError(format!("opening {shown}: {e}")))?;
        let conn = Connection::open(path).doing(|| format!("opening {shown}"))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .doing(|| format!("opening {shown}"))?;
        // Before anything writes to the file: a newer program's database is left as it is.
        check_version(&conn, &shown)?;
        // WAL: readers never wait for the writer (a look at `:games` never stalls a move being
        // saved), and a commit is one append to the log.
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))
            .doing(|| format!("opening {shown}"))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError(format!(
                "opening {shown}: SQLite would not use WAL mode there (journal mode {mode})"
            )));
        }
        keep_private(path)?;
        SqliteStore::prepared(conn, &shown)
    }

    /// A database in memory, for tests.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        let conn = Connection::open_in_memory().doing(|| "opening a database in memory".into())?;
        SqliteStore::prepared(conn, "the database in memory")
    }

    /// Turns on foreign keys and migrates: what every connection needs before use.
    fn prepared(mut conn: Connection, shown: &str) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "foreign_keys", true)
            .doing(|| format!("opening {shown}"))?;
        migrate(&mut conn, shown)?;
        Ok(SqliteStore {
            inner: Mutex::new(Inner {
                conn,
                last_stamp: None,
            }),
        })
    }

    /// Bans `account` (`ox88 club ban`): whether it was not banned already.
    pub fn ban(&self, account: &str) -> Result<bool, StoreError> {
        let mut inner = self.lock();
        let since = inner.stamp();
        inner
            .conn
            .execute(
                "INSERT OR IGNORE INTO banned (player, since) VALUES (?1, ?2)",
                params![account, since],
            )
            .map(|n| n > 0)
            .doing(|| "banning".into())
    }

    /// Lifts `account`'s ban (`ox88 club unban`): whether it was banned.
    pub fn unban(&self, account: &str) -> Result<bool, StoreError> {
        self.lock()
            .conn
            .execute("DELETE FROM banned WHERE player = ?1", params![account])
            .map(|n| n > 0)
            .doing(|| "lifting a ban".into())
    }

    /// Asks the running server to close `account`'s sessions (`ox88 club kick`); it takes
    /// the request within a second.
    pub fn kick(&self, account: &str) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let at = inner.stamp();
        inner
            .conn
            .execute(
                "INSERT INTO kicks (player, asked_at) VALUES (?1, ?2)",
                params![account, at],
            )
            .map(|_| ())
            .doing(|| "asking for a kick".into())
    }

    /// The connection and the stamp, for one call. A panic in another call cannot have left
    /// a transaction open (a dropped transaction rolls back), so a poisoned lock is taken.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The name a player is kept under (for tests elsewhere in the club).
    #[cfg(test)]
    pub(crate) fn player_name(&self, id: &str) -> Option<String> {
        let sql = "SELECT name FROM players WHERE id = ?1";
        self.lock().conn.query_row(sql, [id], |row| row.get(0)).ok()
    }
}

/// Makes the database and its WAL files (SQLite gives those the database's mode, but a
/// file from an older ox88 may be more open) readable and writable by their owner alone.
fn keep_private(path: &Path) -> Result<(), StoreError> {
    let mut files = vec![path.to_path_buf()];
    for tail in ["-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(tail);
        files.push(name.into());
    }
    for file in files.iter().filter(|f| f.exists()) {
        std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| StoreError(format!("making {} private: {e}", file.display())))?;
    }
    Ok(())
}

/// The schema version this database has.
fn user_version(conn: &Connection) -> rusqlite::Result<usize> {
    let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    usize::try_from(version).map_err(|_| Error::IntegralValueOutOfRange(0, version))
}

/// Sets the schema version (after the steps that make it true).
fn set_user_version(conn: &Connection, version: usize) -> rusqlite::Result<()> {
    let version = i64::try_from(version).map_err(|e| Error::ToSqlConversionFailure(e.into()))?;
    conn.pragma_update(None, "user_version", version)
}

/// The schema version of the database `shown`, refused if a newer ox88 made it (its
/// tables may mean what this one cannot know).
fn check_version(conn: &Connection, shown: &str) -> Result<usize, StoreError> {
    let version = user_version(conn).doing(|| format!("opening {shown}"))?;
    if version > MIGRATIONS.len() {
        return Err(StoreError(format!(
            "opening {shown}: made by a newer ox88: schema {version}, this one knows {}",
            MIGRATIONS.len()
        )));
    }
    Ok(version)
}

/// Applies the steps this database has not had, in one transaction (all or none). The
/// transaction takes the write lock first, so two processes opening the same new file do
/// not both migrate it.
fn migrate(conn: &mut Connection, shown: &str) -> Result<(), StoreError> {
    let doing = || format!("bringing {shown} up to date");
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .doing(doing)?;
    let version = check_version(&tx, shown)?;
    for (done, step) in MIGRATIONS.iter().enumerate().skip(version) {
        match step {
            Step::Sql(sql) => tx.execute_batch(sql),
            Step::Code(code) => code(&tx),
        }
        .doing(|| format!("{} (schema {})", doing(), done + 1))?;
    }
    if version < MIGRATIONS.len() {
        set_user_version(&tx, MIGRATIONS.len()).doing(doing)?;
        tx.commit().doing(doing)?;
    }
    Ok(())
}

impl Inner {
    /// Now, as ISO-8601 UTC text, later than every stamp before it in this process.
    fn stamp(&mut self) -> String {
        let mut now = Utc::now().trunc_subsecs(6);
        if let Some(last) = self.last_stamp.filter(|last| now <= *last) {
            now = last + chrono::TimeDelta::microseconds(1);
        }
        self.last_stamp = Some(now);
        now.to_rfc3339_opts(SecondsFormat::Micros, true)
    }
}

/// A member's rating, or a newcomer's.
fn rating_in(conn: &Connection, id: &str) -> rusqlite::Result<Rating> {
    conn.query_row(
        "SELECT rating, deviation, volatility FROM ratings WHERE player = ?1",
        [id],
        |row| Ok(Rating::new(row.get(0)?, row.get(1)?, row.get(2)?)),
    )
    .optional()
    .map(Option::unwrap_or_default)
}

/// A game read from a row of [`select_games`].
fn game_of_row(row: &Row<'_>) -> rusqlite::Result<GameRecord> {
    let clock = |idx: usize| -> rusqlite::Result<Option<u64>> {
        let ms: Option<i64> = row.get(idx)?;
        ms.map(|ms| u64::try_from(ms).map_err(|_| Error::IntegralValueOutOfRange(idx, ms)))
            .transpose()
    };
    let (clock_white, clock_black) = (clock(11)?, clock(12)?);
    Ok(GameRecord {
        id: row.get(0)?,
        room: row.get(1)?,
        white: row.get(2)?,
        black: row.get(3)?,
        white_name: row.get(4)?,
        black_name: row.get(5)?,
        pgn: row.get(6)?,
        result: row.get(7)?,
        termination: row.get(8)?,
        time_control: row.get(9)?,
        rated: row.get(10)?,
        clocks_ms: clock_white.zip(clock_black).map(|(w, b)| [w, b]),
    })
}

/// The score the stored result gives White, if it is a result.
fn white_score_of(result: &str) -> Option<f64> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// A game as `rate_game` checks it before rating.
struct Rateable {
    white: String,
    black: String,
    white_name: String,
    black_name: String,
    rated: bool,
    result: Option<String>,
}

impl Rateable {
    /// Why this game cannot be rated with these players and score, if it cannot.
    fn refusal(&self, white: &str, black: &str, white_score: f64) -> Option<String> {
        if !self.rated {
            return Some("it is not a rated game".into());
        }
        if (self.white.as_str(), self.black.as_str()) != (white, black) {
            return Some(format!(
                "its players are {} and {}, not {white} and {black}",
                self.white, self.black
            ));
        }
        let Some(result) = &self.result else {
            return Some("it has no result yet".into());
        };
        match white_score_of(result) {
            Some(score) if score == white_score => None,
            Some(_) => Some(format!(
                "its result is {result}, not a score of {white_score} for White"
            )),
            None => Some(format!("its result {result:?} is not 1-0, 0-1 or 1/2-1/2")),
        }
    }
}

/// Rates the game in `tx`: what [`Store::rate_game`] does once the game is known rateable.
fn write_ratings(
    tx: &Transaction<'_>,
    game_id: &str,
    game: &Rateable,
    white_score: f64,
    at: &str,
) -> rusqlite::Result<[Rating; 2]> {
    let sides = [
        (&game.white, &game.white_name),
        (&game.black, &game.black_name),
    ];
    // A player who never logged in through `player` (a test, an import) is added by the
    // name the game gives them.
    for (id, name) in sides {
        tx.execute(
            "INSERT OR IGNORE INTO players (id, name, first_seen, last_seen)
             VALUES (?1, ?2, ?3, ?3)",
            params![id, name, at],
        )?;
    }
    let before = [rating_in(tx, &game.white)?, rating_in(tx, &game.black)?];
    // Both from the ratings before the game: the game is its own rating period.
    let after = [
        before[0].update(&[Outcome {
            opponent: before[1],
            score: white_score,
        }]),
        before[1].update(&[Outcome {
            opponent: before[0],
            score: 1.0 - white_score,
        }]),
    ];
    for ((id, _), rating) in sides.into_iter().zip(after) {
        tx.execute(
            "INSERT INTO ratings (player, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, 1)
             ON CONFLICT (player) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = games + 1",
            params![id, rating.rating, rating.deviation, rating.volatility],
        )?;
        tx.execute(
            "INSERT INTO rating_history (player, game_id, rating, deviation, volatility, at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                id,
                game_id,
                rating.rating,
                rating.deviation,
                rating.volatility,
                at
            ],
        )?;
    }
    Ok(after)
}

impl Store for SqliteStore {
    fn player(&self, id: &str, name: &str) -> Result<Rating, StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        let doing = || format!("noting player {id}");
        let tx = inner.conn.transaction().doing(doing)?;
        tx.execute(
            "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen",
            params![id, name, now],
        )
        .doing(doing)?;
        let rating = rating_in(&tx, id).doing(doing)?;
        tx.commit().doing(doing)?;
        Ok(rating)
    }

    fn key_login(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        let doing = || format!("noting a login with key {key}");
        let tx = inner.conn.transaction().doing(doing)?;
        let account = accounts::key_login(&tx, key, &now).doing(doing)?;
        tx.commit().doing(doing)?;
        Ok(account)
    }

    fn new_account(&self, key: &str, name: &str) -> Result<Option<Account>, StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        let doing = || format!("making the account {name} for key {key}");
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .doing(doing)?;
        let account = accounts::new_account(&tx, key, name, &now).doing(doing)?;
        tx.commit().doing(doing)?;
        Ok(account)
    }

    fn account_named(&self, name: &str) -> Result<Option<Account>, StoreError> {
        accounts::account_named(&self.lock().conn, name)
            .doing(|| format!("looking up the account {name}"))
    }

    fn keys_of(&self, account: &str) -> Result<usize, StoreError> {
        accounts::keys_of(&self.lock().conn, account)
            .doing(|| format!("counting the keys of {account}"))
    }

    fn put_key_code(
        &self,
        account: &str,
        code: &str,
        expires: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        accounts::put_key_code(&self.lock().conn, account, code, expires)
            .doing(|| format!("keeping a key code for {account}"))
    }

    fn add_key_by_code(
        &self,
        name: &str,
        code: &str,
        key: &str,
    ) -> Result<Result<Account, CodeRefused>, StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        let doing = || format!("adding key {key} to the account {name}");
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .doing(doing)?;
        let added = accounts::add_key_by_code(&tx, name, code, key, &now).doing(doing)?;
        // A wrong try is counted too, so the transaction is kept whatever the answer.
        tx.commit().doing(doing)?;
        Ok(added)
    }

    fn rating(&self, id: &str) -> Result<Rating, StoreError> {
        rating_in(&self.lock().conn, id).doing(|| format!("reading the rating of {id}"))
    }

    fn save_game(&self, game: &GameRecord) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        let doing = || format!("saving game {}", game.id);
        let [clock_white, clock_black] = match game.clocks_ms.map(|c| c.map(i64::try_from)) {
            None => [None, None],
            Some([Ok(white), Ok(black)]) => [Some(white), Some(black)],
            Some(_) => return Err(StoreError(format!("{}: a clock is out of range", doing()))),
        };
        inner
            .conn
            .execute(
                "INSERT INTO games (id, room, white, black, white_name, black_name, pgn, result,
                     termination, time_control, rated, clocks_ms_white, clocks_ms_black,
                     started_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?14)
                 ON CONFLICT (id) DO UPDATE SET room = excluded.room, white = excluded.white,
                     black = excluded.black, white_name = excluded.white_name,
                     black_name = excluded.black_name, pgn = excluded.pgn,
                     result = excluded.result, termination = excluded.termination,
                     time_control = excluded.time_control, rated = excluded.rated,
                     clocks_ms_white = excluded.clocks_ms_white,
                     clocks_ms_black = excluded.clocks_ms_black,
                     updated_at = excluded.updated_at",
                params![
                    game.id,
                    game.room,
                    game.white,
                    game.black,
                    game.white_name,
                    game.black_name,
                    game.pgn,
                    game.result,
                    game.termination,
                    game.time_control,
                    game.rated,
                    clock_white,
                    clock_black,
                    now
                ],
            )
            .doing(doing)?;
        Ok(())
    }

    fn rate_game(
        &self,
        game_id: &str,
        white: &str,
        black: &str,
        white_score: f64,
    ) -> Result<[Rating; 2], StoreError> {
        let refuse = |why: &str| Err(StoreError(format!("rating game {game_id}: {why}")));
        if !(0.0..=1.0).contains(&white_score) {
            return refuse(&format!("a score of {white_score} is not 0, 1/2 or 1"));
        }
        if white == black {
            return refuse(&format!("{white} cannot play themselves"));
        }
        let mut inner = self.lock();
        let at = inner.stamp();
        let doing = || format!("rating game {game_id}");
        // Immediate: the ratings read are the ones written over, whoever else writes.
        let tx = inner
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .doing(doing)?;
        let game = tx
            .query_row(
                "SELECT white, black, white_name, black_name, rated, result
                 FROM games WHERE id = ?1",
                [game_id],
                |row| {
                    Ok(Rateable {
                        white: row.get(0)?,
                        black: row.get(1)?,
                        white_name: row.get(2)?,
                        black_name: row.get(3)?,
                        rated: row.get(4)?,
                        result: row.get(5)?,
                    })
                },
            )
            .optional()
            .doing(doing)?;
        let Some(game) = game else {
            return refuse("there is no such game");
        };
        if let Some(why) = game.refusal(white, black, white_score) {
            return refuse(&why);
        }
        let already: bool = tx
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM rating_history WHERE game_id = ?1)",
                [game_id],
                |row| row.get(0),
            )
            .doing(doing)?;
        if already {
            return refuse("it is rated already");
        }
        let after = write_ratings(&tx, game_id, &game, white_score, &at).doing(doing)?;
        tx.commit().doing(doing)?;
        Ok(after)
    }

    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.lock()
            .conn
            .query_row(select_games!("WHERE id = ?1"), [id], game_of_row)
            .optional()
            .doing(|| format!("reading game {id}"))
    }

    fn games_of(&self, member: &str, limit: usize) -> Result<Vec<GameRecord>, StoreError> {
        let doing = || format!("reading the games of {member}");
        let inner = self.lock();
        let mut query = inner
            .conn
            .prepare(select_games!(
                "WHERE white = ?1 OR black = ?1 ORDER BY updated_at DESC, rowid DESC LIMIT ?2"
            ))
            .doing(doing)?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        query
            .query_map(params![member, limit], game_of_row)
            .and_then(Iterator::collect)
            .doing(doing)
    }

    fn unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        let doing = || "reading the unfinished games".to_string();
        let inner = self.lock();
        let mut query = inner
            .conn
            .prepare(select_games!(
                "WHERE result IS NULL ORDER BY updated_at, rowid"
            ))
            .doing(doing)?;
        query
            .query_map([], game_of_row)
            .and_then(Iterator::collect)
            .doing(doing)
    }

    fn rating_history(&self, member: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        let doing = || format!("reading the rating history of {member}");
        let inner = self.lock();
        let mut query = inner
            .conn
            .prepare(
                "SELECT game_id, rating, deviation, volatility FROM rating_history
                 WHERE player = ?1 ORDER BY at, rowid",
            )
            .doing(doing)?;
        query
            .query_map([member], |row| {
                Ok((
                    row.get(0)?,
                    Rating::new(row.get(1)?, row.get(2)?, row.get(3)?),
                ))
            })
            .and_then(Iterator::collect)
            .doing(doing)
    }

    fn members(&self, limit: usize) -> Result<Vec<MemberRating>, StoreError> {
        let doing = || "reading the members list".to_string();
        let inner = self.lock();
        let mut query = inner
            .conn
            .prepare(
                "SELECT p.id, p.name, r.rating, r.deviation, r.volatility, r.games
                 FROM players p LEFT JOIN ratings r ON r.player = p.id
                 WHERE p.id NOT LIKE 'open:%'
                 ORDER BY COALESCE(r.rating, ?2) DESC, p.name LIMIT ?1",
            )
            .doing(doing)?;
        let newcomer = Rating::default();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        query
            .query_map(rusqlite::params![limit, newcomer.rating], |row| {
                let rating = match row.get::<_, Option<f64>>(2)? {
                    Some(r) => Rating::new(r, row.get(3)?, row.get(4)?),
                    None => newcomer,
                };
                Ok(MemberRating {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    rating,
                    games: row.get::<_, Option<u32>>(5)?.unwrap_or(0),
                })
            })
            .and_then(Iterator::collect)
            .doing(doing)
    }

    fn puzzle_record(&self, member: &str) -> Result<Option<String>, StoreError> {
        self.lock()
            .conn
            .query_row(
                "SELECT json FROM puzzle_records WHERE player = ?1",
                [member],
                |row| row.get(0),
            )
            .optional()
            .doing(|| format!("reading the puzzle record of {member}"))
    }

    fn save_puzzle_record(&self, member: &str, json: &str) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        inner
            .conn
            .execute(
                "INSERT INTO puzzle_records (player, json, updated_at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (player) DO UPDATE SET json = excluded.json,
                     updated_at = excluded.updated_at",
                params![member, json, now],
            )
            .doing(|| format!("saving the puzzle record of {member}"))?;
        Ok(())
    }

    fn is_banned(&self, account: &str) -> Result<bool, StoreError> {
        let inner = self.lock();
        inner
            .conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM banned WHERE player = ?1)",
                params![account],
                |row| row.get(0),
            )
            .doing(|| "reading the bans".into())
    }

    fn take_orders(&self) -> Result<Orders, StoreError> {
        let mut inner = self.lock();
        let tx = inner
            .conn
            .transaction()
            .doing(|| "reading the operator's orders".into())?;
        let column = |sql: &str| -> rusqlite::Result<Vec<String>> {
            let mut query = tx.prepare(sql)?;
            query.query_map([], |row| row.get(0))?.collect()
        };
        let orders = Orders {
            banned: column("SELECT player FROM banned ORDER BY since")
                .doing(|| "reading the bans".into())?,
            kicked: column("SELECT DISTINCT player FROM kicks")
                .doing(|| "reading the kicks".into())?,
        };
        if !orders.kicked.is_empty() {
            tx.execute("DELETE FROM kicks", [])
                .doing(|| "taking the kicks".into())?;
        }
        tx.commit().doing(|| "taking the kicks".into())?;
        Ok(orders)
    }

    fn forget_unplayed(&self, id: &str) -> Result<(), StoreError> {
        self.lock()
            .conn
            .execute(
                "DELETE FROM games WHERE id = ?1 AND result IS NULL
                     AND NOT EXISTS (SELECT 1 FROM rating_history WHERE game_id = ?1)",
                [id],
            )
            .doing(|| format!("forgetting the aborted game {id}"))?;
        Ok(())
    }

    fn news(&self) -> Result<Vec<(String, String)>, StoreError> {
        let inner = self.lock();
        let doing = || "reading the news kept for members".to_string();
        let mut stmt = inner
            .conn
            .prepare("SELECT member, text FROM news ORDER BY id")
            .doing(doing)?;
        stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .and_then(Iterator::collect)
            .doing(doing)
    }

    fn keep_news(&self, member: &str, text: &str, kept: usize) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        let doing = || format!("keeping news for {member}");
        let tx = inner.conn.transaction().doing(doing)?;
        tx.execute(
            "INSERT INTO news (member, text, at) VALUES (?1, ?2, ?3)",
            params![member, text, now],
        )
        .doing(doing)?;
        tx.execute(
            "DELETE FROM news WHERE member = ?1 AND id NOT IN
                 (SELECT id FROM news WHERE member = ?1 ORDER BY id DESC LIMIT ?2)",
            params![member, kept as i64],
        )
        .doing(doing)?;
        tx.commit().doing(doing)
    }

    fn clear_news(&self, member: &str) -> Result<(), StoreError> {
        self.lock()
            .conn
            .execute("DELETE FROM news WHERE member = ?1", [member])
            .doing(|| format!("forgetting the news told to {member}"))?;
        Ok(())
    }

    fn save_tournament(&self, t: &TournamentRecord) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        tournaments::save(&mut inner.conn, t, &now).doing(|| format!("saving tournament {}", t.id))
    }

    fn tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        tournaments::all(&self.lock().conn).doing(|| "reading the tournaments".to_string())
    }

    fn tournament(&self, id: u32) -> Result<Option<TournamentRecord>, StoreError> {
        tournaments::one(&self.lock().conn, id).doing(|| format!("reading tournament {id}"))
    }

    fn close_open_tournaments(&self, keep: &[u32]) -> Result<usize, StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        tournaments::close_open(&inner.conn, &now, keep)
            .doing(|| "finishing the tournaments a stopped server left".to_string())
    }

    fn save_study(&self, record: &StudyRecord) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let now = inner.stamp();
        studies::save(&inner.conn, record, &now)
            .map_err(|e| StoreError(format!("saving study {:?}: {e}", record.name)))
    }

    fn studies(&self) -> Result<Vec<StudyRecord>, StoreError> {
        studies::all(&self.lock().conn).doing(|| "reading the studies".to_string())
    }

    fn study(&self, name: &str) -> Result<Option<StudyRecord>, StoreError> {
        studies::one(&self.lock().conn, name)
            .map_err(|e| StoreError(format!("reading study {name:?}: {e}")))
    }

    fn delete_study(&self, name: &str) -> Result<bool, StoreError> {
        studies::delete(&self.lock().conn, name).doing(|| format!("deleting study {name:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn an_unplayed_game_is_forgotten_and_a_finished_one_is_not() {
        let store = SqliteStore::in_memory().unwrap();
        let game = |id: &str, result: Option<&str>| GameRecord {
            id: id.into(),
            room: "den".into(),
            white: "a".into(),
            black: "b".into(),
            white_name: "alice".into(),
            black_name: "bob".into(),
            pgn: "1. e4 *".into(),
            result: result.map(String::from),
            termination: None,
            time_control: None,
            rated: false,
            clocks_ms: None,
        };
        store.save_game(&game("g1", None)).unwrap();
        store.save_game(&game("g2", Some("1-0"))).unwrap();
        store.forget_unplayed("g1").unwrap();
        store.forget_unplayed("g2").unwrap();
        assert!(store.game("g1").unwrap().is_none());
        assert!(store.game("g2").unwrap().is_some());
        assert!(store.unfinished().unwrap().is_empty());
    }
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A game between alice and bob, going on, with clocks.
    fn game(id: &str, white: &str, black: &str) -> GameRecord {
        GameRecord {
            id: id.into(),
            room: "hall".into(),
            white: white.into(),
            black: black.into(),
            white_name: format!("{white} the white"),
            black_name: format!("{black} the black"),
            pgn: "[Event \"club\"]\n\n1. e4 { [%clk 0:05:00] } *".into(),
            result: None,
            termination: None,
            time_control: Some("5+3".into()),
            rated: true,
            clocks_ms: Some([300_000, 297_500]),
        }
    }

    /// The same game, ended with `result`.
    fn finished(mut game: GameRecord, result: &str) -> GameRecord {
        game.result = Some(result.into());
        game.termination = Some("checkmate".into());
        game.clocks_ms = Some([120_000, 1]);
        game
    }

    fn ids(games: &[GameRecord]) -> Vec<&str> {
        games.iter().map(|g| g.id.as_str()).collect()
    }

    /// A new folder of its own under the system's temporary folder, removed when dropped.
    struct TempDir(PathBuf);

    impl TempDir {
        fn new(name: &str) -> TempDir {
            static COUNT: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "ox88-store-{name}-{}-{}",
                std::process::id(),
                COUNT.fetch_add(1, Ordering::Relaxed)
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempDir(dir)
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// One text value read with SQL, to see what the trait does not show.
    fn text(store: &SqliteStore, sql: &str, param: &str) -> String {
        store
            .lock()
            .conn
            .query_row(sql, [param], |row| row.get(0))
            .unwrap()
    }

    #[test]
    fn a_game_is_saved_updated_and_read_back_as_it_was() {
        let store = SqliteStore::in_memory().unwrap();
        assert_eq!(store.game("g1").unwrap(), None);
        let going = game("g1", "alice", "bob");
        store.save_game(&going).unwrap();
        assert_eq!(store.game("g1").unwrap(), Some(going.clone()));
        let mut ended = finished(going, "1-0");
        ended.pgn.push_str(" 1-0");
        ended.time_control = None;
        store.save_game(&ended).unwrap();
        assert_eq!(store.game("g1").unwrap(), Some(ended.clone()));
        // Without clocks, casual.
        let casual = GameRecord {
            id: "g2".into(),
            rated: false,
            clocks_ms: None,
            ..ended
        };
        store.save_game(&casual).unwrap();
        assert_eq!(store.game("g2").unwrap(), Some(casual));
        let started = "SELECT started_at FROM games WHERE id = ?1";
        let updated = "SELECT updated_at FROM games WHERE id = ?1";
        assert!(text(&store, started, "g1") < text(&store, updated, "g1"));
    }

    #[test]
    fn unfinished_lists_only_games_without_a_result() {
        let store = SqliteStore::in_memory().unwrap();
        store.save_game(&game("a", "alice", "bob")).unwrap();
        store
            .save_game(&finished(game("b", "alice", "bob"), "0-1"))
            .unwrap();
        store.save_game(&game("c", "carol", "dave")).unwrap();
        assert_eq!(ids(&store.unfinished().unwrap()), ["a", "c"]);
        store
            .save_game(&finished(game("a", "alice", "bob"), "1/2-1/2"))
            .unwrap();
        assert_eq!(ids(&store.unfinished().unwrap()), ["c"]);
    }

    #[test]
    fn games_of_are_newest_first_and_limited() {
        let store = SqliteStore::in_memory().unwrap();
        store.save_game(&game("1", "alice", "bob")).unwrap();
        store.save_game(&game("2", "carol", "alice")).unwrap();
        store.save_game(&game("3", "bob", "carol")).unwrap();
        store.save_game(&game("4", "bob", "alice")).unwrap();
        assert_eq!(ids(&store.games_of("alice", 10).unwrap()), ["4", "2", "1"]);
        assert_eq!(ids(&store.games_of("alice", 2).unwrap()), ["4", "2"]);
        assert_eq!(ids(&store.games_of("carol", 10).unwrap()), ["3", "2"]);
        assert!(store.games_of("alice", 0).unwrap().is_empty());
        assert!(store.games_of("nobody", usize::MAX).unwrap().is_empty());
        // Saved again (a move played), the oldest game is the newest.
        store.save_game(&game("1", "alice", "bob")).unwrap();
        assert_eq!(
            ids(&store.games_of("alice", usize::MAX).unwrap()),
            ["1", "4", "2"]
        );
    }

    #[test]
    fn rating_a_game_moves_both_ratings_by_glicko2_from_the_ratings_before() {
        let store = SqliteStore::in_memory().unwrap();
        assert_eq!(store.player("alice", "Alice").unwrap(), Rating::default());
        assert_eq!(store.rating("bob").unwrap(), Rating::default());
        store
            .save_game(&finished(game("g1", "alice", "bob"), "1-0"))
            .unwrap();
        let [white, black] = store.rate_game("g1", "alice", "bob", 1.0).unwrap();
        let start = Rating::default();
        assert!(white.rating > start.rating && black.rating < start.rating);
        let beat =
            |me: Rating, opponent: Rating, score: f64| me.update(&[Outcome { opponent, score }]);
        assert_eq!(white, beat(start, start, 1.0));
        assert_eq!(black, beat(start, start, 0.0));
        assert_eq!(store.rating("alice").unwrap(), white);
        assert_eq!(store.player("bob", "Bob").unwrap(), black);
        // A draw with colours swapped: the weaker player gains, each from the ratings before.
        store
            .save_game(&finished(game("g2", "bob", "alice"), "1/2-1/2"))
            .unwrap();
        let [bob, alice] = store.rate_game("g2", "bob", "alice", 0.5).unwrap();
        assert!(bob.rating > black.rating && alice.rating < white.rating);
        assert_eq!(bob, beat(black, white, 0.5));
        assert_eq!(alice, beat(white, black, 0.5));
        assert_eq!(store.rating("alice").unwrap(), alice);
        assert_eq!(store.rating("bob").unwrap(), bob);
        let games = "SELECT games FROM ratings WHERE player = ?1";
        let count: i64 = store
            .lock()
            .conn
            .query_row(games, ["alice"], |row| row.get(0))
            .unwrap();
        assert_eq!(count, 2);
        // A player never noted by `player` is added under the game's name, and noting
        // them later renames no one: a name is kept, whatever the login says.
        let name = "SELECT name FROM players WHERE id = ?1";
        assert_eq!(text(&store, name, "bob"), "bob the black");
        assert_eq!(text(&store, name, "alice"), "Alice");
    }

    #[test]
    fn the_history_holds_each_rated_games_ratings_oldest_first() {
        let store = SqliteStore::in_memory().unwrap();
        assert!(store.rating_history("alice").unwrap().is_empty());
        store
            .save_game(&finished(game("g1", "alice", "bob"), "0-1"))
            .unwrap();
        store
            .save_game(&finished(game("g2", "carol", "alice"), "0-1"))
            .unwrap();
        let [a1, b1] = store.rate_game("g1", "alice", "bob", 0.0).unwrap();
        let [c2, a2] = store.rate_game("g2", "carol", "alice", 0.0).unwrap();
        assert_eq!(
            store.rating_history("alice").unwrap(),
            [("g1".to_string(), a1), ("g2".to_string(), a2)]
        );
        assert_eq!(store.rating_history("bob").unwrap(), [("g1".into(), b1)]);
        assert_eq!(store.rating_history("carol").unwrap(), [("g2".into(), c2)]);
        // The player row the game made carries the game's name.
        let name = "SELECT name FROM players WHERE id = ?1";
        assert_eq!(text(&store, name, "carol"), "carol the white");
    }

    #[test]
    fn news_are_kept_in_order_up_to_their_cap_and_cleared_per_member() {
        let store = SqliteStore::in_memory().unwrap();
        for text in ["one", "two", "three"] {
            store.keep_news("b", text, 2).unwrap();
        }
        store.keep_news("c", "other", 2).unwrap();
        let news = store.news().unwrap();
        let texts = |m: &str| -> Vec<String> {
            news.iter()
                .filter(|(x, _)| x == m)
                .map(|(_, t)| t.clone())
                .collect()
        };
        assert_eq!(texts("b"), ["two", "three"]);
        assert_eq!(texts("c"), ["other"]);
        store.clear_news("b").unwrap();
        assert_eq!(
            store.news().unwrap(),
            [("c".to_string(), "other".to_string())]
        );
    }

    #[test]
    fn a_ban_holds_until_lifted_and_a_kick_is_taken_once() {
        let store = SqliteStore::in_memory().unwrap();
        for name in ["alice", "bob"] {
            store.player(name, name).unwrap();
        }
        assert!(!store.is_banned("alice").unwrap());
        assert!(store.ban("alice").unwrap());
        assert!(!store.ban("alice").unwrap(), "banned once");
        assert!(store.is_banned("alice").unwrap());
        store.kick("bob").unwrap();
        store.kick("bob").unwrap();
        let orders = store.take_orders().unwrap();
        assert_eq!(orders.banned, ["alice"]);
        assert_eq!(orders.kicked, ["bob"], "two kicks of one member are one");
        let orders = store.take_orders().unwrap();
        assert_eq!(orders.banned, ["alice"], "a ban stays");
        assert!(orders.kicked.is_empty(), "a kick is taken once");
        assert!(store.unban("alice").unwrap());
        assert!(!store.unban("alice").unwrap());
        assert!(!store.is_banned("alice").unwrap());
        assert_eq!(store.take_orders().unwrap(), Orders::default());
        // Only an account the club knows can be banned.
        assert!(store.ban("nobody").is_err());
    }

    #[test]
    fn the_members_list_is_strongest_first_with_their_rated_games() {
        let store = SqliteStore::in_memory().unwrap();
        for name in ["alice", "bob", "carol"] {
            store.player(name, name).unwrap();
        }
        store
            .save_game(&finished(game("g", "alice", "bob"), "1-0"))
            .unwrap();
        store.rate_game("g", "alice", "bob", 1.0).unwrap();
        let members = store.members(10).unwrap();
        let names: Vec<&str> = members.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["alice", "carol", "bob"]);
        assert_eq!(
            members.iter().map(|m| m.games).collect::<Vec<_>>(),
            [1, 0, 1]
        );
        assert_eq!(members[0].rating, store.rating("alice").unwrap());
        assert_eq!(store.members(1).unwrap().len(), 1);
    }

    #[test]
    fn a_game_is_rated_once_and_only_as_it_ended() {
        let store = SqliteStore::in_memory().unwrap();
        let refused = |game_id: &str, white: &str, black: &str, score: f64| {
            let before = (store.rating("alice").unwrap(), store.rating("bob").unwrap());
            let err = store
                .rate_game(game_id, white, black, score)
                .unwrap_err()
                .to_string();
            let after = (store.rating("alice").unwrap(), store.rating("bob").unwrap());
            assert_eq!(before, after, "{err}");
            err
        };
        assert!(refused("none", "alice", "bob", 1.0).contains("no such game"));
        store.save_game(&game("going", "alice", "bob")).unwrap();
        assert!(refused("going", "alice", "bob", 1.0).contains("no result yet"));
        let casual = GameRecord {
            rated: false,
            ..finished(game("casual", "alice", "bob"), "1-0")
        };
        store.save_game(&casual).unwrap();
        assert!(refused("casual", "alice", "bob", 1.0).contains("not a rated game"));
        store
            .save_game(&finished(game("g", "alice", "bob"), "1-0"))
            .unwrap();
        assert!(refused("g", "bob", "alice", 1.0).contains("players are alice and bob"));
        assert!(refused("g", "alice", "alice", 1.0).contains("cannot play themselves"));
        assert!(refused("g", "alice", "bob", 0.5).contains("result is 1-0"));
        assert!(refused("g", "alice", "bob", f64::NAN).contains("not 0, 1/2 or 1"));
        assert!(refused("g", "alice", "bob", 2.0).contains("not 0, 1/2 or 1"));
        let rated = store.rate_game("g", "alice", "bob", 1.0).unwrap();
        let again = refused("g", "alice", "bob", 1.0);
        assert_eq!(again, "database: rating game g: it is rated already");
        assert_eq!(store.rating("alice").unwrap(), rated[0]);
        assert_eq!(store.rating_history("alice").unwrap().len(), 1);
    }

    #[test]
    fn a_puzzle_record_is_kept_and_replaced() {
        let store = SqliteStore::in_memory().unwrap();
        assert_eq!(store.puzzle_record("alice").unwrap(), None);
        store
            .save_puzzle_record("alice", r#"{"solved":1}"#)
            .unwrap();
        store.save_puzzle_record("bob", r#"{"solved":7}"#).unwrap();
        assert_eq!(
            store.puzzle_record("alice").unwrap().as_deref(),
            Some(r#"{"solved":1}"#)
        );
        store
            .save_puzzle_record("alice", r#"{"solved":2}"#)
            .unwrap();
        assert_eq!(
            store.puzzle_record("alice").unwrap().as_deref(),
            Some(r#"{"solved":2}"#)
        );
        assert_eq!(
            store.puzzle_record("bob").unwrap().as_deref(),
            Some(r#"{"solved":7}"#)
        );
    }

    #[test]
    fn names_and_texts_are_stored_verbatim() {
        let store = SqliteStore::in_memory().unwrap();
        let odd = "O'Brien \"the\" 🐴\n'); DROP TABLE players; --\t\u{0}é";
        store.player(odd, odd).unwrap();
        let name = "SELECT name FROM players WHERE id = ?1";
        assert_eq!(text(&store, name, odd), odd);
        let mut tricky = finished(game(odd, odd, "bob"), "1-0");
        tricky.room = odd.into();
        tricky.white_name = odd.into();
        tricky.pgn = format!("[White \"{odd}\"]\n\n1. e4 1-0");
        tricky.termination = Some(odd.into());
        store.save_game(&tricky).unwrap();
        assert_eq!(store.game(odd).unwrap(), Some(tricky.clone()));
        assert_eq!(store.games_of(odd, 5).unwrap(), [tricky]);
        store.rate_game(odd, odd, "bob", 1.0).unwrap();
        assert_eq!(store.rating_history(odd).unwrap()[0].0, odd);
        store.save_puzzle_record(odd, odd).unwrap();
        assert_eq!(store.puzzle_record(odd).unwrap().as_deref(), Some(odd));
        assert_eq!(text(&store, name, odd), odd);
    }

    #[test]
    fn a_file_database_keeps_everything_when_opened_again() {
        let dir = TempDir::new("reopen");
        let path = dir.0.join("made").join("club.db");
        let ended = finished(game("g1", "alice", "bob"), "1-0");
        let going = game("g2", "bob", "alice");
        let ratings = {
            let store = SqliteStore::open(&path).unwrap();
            store.player("alice", "Alice").unwrap();
            store.save_game(&ended).unwrap();
            store.save_game(&going).unwrap();
            store.save_puzzle_record("alice", "{}").unwrap();
            store.rate_game("g1", "alice", "bob", 1.0).unwrap()
        };
        let store = SqliteStore::open(&path).unwrap();
        assert_eq!(store.game("g1").unwrap(), Some(ended));
        assert_eq!(store.unfinished().unwrap(), [going]);
        assert_eq!(store.rating("alice").unwrap(), ratings[0]);
        assert_eq!(store.rating("bob").unwrap(), ratings[1]);
        assert_eq!(
            store.rating_history("bob").unwrap(),
            [("g1".into(), ratings[1])]
        );
        assert_eq!(store.puzzle_record("alice").unwrap().as_deref(), Some("{}"));
        let inner = store.lock();
        let mode: String = inner
            .conn
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        assert_eq!(user_version(&inner.conn).unwrap(), MIGRATIONS.len());
    }

    #[test]
    fn opening_again_migrates_nothing_twice() {
        let dir = TempDir::new("twice");
        let path = dir.0.join("club.db");
        SqliteStore::open(&path)
            .unwrap()
            .save_game(&game("g", "alice", "bob"))
            .unwrap();
        // A step run twice would fail (its tables exist) or lose the game.
        let store = SqliteStore::open(&path).unwrap();
        let store_again = SqliteStore::open(&path).unwrap();
        assert_eq!(store.game("g").unwrap(), Some(game("g", "alice", "bob")));
        assert_eq!(ids(&store_again.unfinished().unwrap()), ["g"]);
        assert_eq!(user_version(&store.lock().conn).unwrap(), MIGRATIONS.len());
    }

    #[test]
    fn a_database_from_a_newer_ox88_is_refused_and_left_alone() {
        let dir = TempDir::new("newer");
        let path = dir.0.join("club.db");
        let newer = MIGRATIONS.len() + 1;
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch("CREATE TABLE future (x)").unwrap();
            set_user_version(&conn, newer).unwrap();
        }
        let err = SqliteStore::open(&path).err().unwrap().to_string();
        assert!(
            err.contains(&format!(
                "made by a newer ox88: schema {newer}, this one knows {}",
                MIGRATIONS.len()
            )),
            "{err}"
        );
        assert!(err.contains("club.db"), "{err}");
        let conn = Connection::open(&path).unwrap();
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |row| row.get(0))
            .unwrap();
        assert_eq!(mode, "delete");
        assert_eq!(user_version(&conn).unwrap(), newer);
        let tables: i64 = conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
            .unwrap();
        assert_eq!(tables, 1);
    }

    #[test]
    fn a_file_that_is_not_a_database_is_refused_with_its_name() {
        let dir = TempDir::new("garbage");
        let path = dir.0.join("club.db");
        let garbage = "this is not SQLite, just text that is long enough to be a header\n";
        std::fs::write(&path, garbage.repeat(20)).unwrap();
        let err = SqliteStore::open(&path).err().unwrap().to_string();
        assert!(err.contains("opening") && err.contains("club.db"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), garbage.repeat(20));
    }
}
