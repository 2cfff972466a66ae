//! The club's tournaments in the built-in store: one row each in `tournaments` (what it is,
//! who made it, how many entered, where it stands, and for a Swiss its FIDE TRF-16 as the
//! rounds so far make it) and its games in `tournament_games`, in the order they were
//! paired, each by the id the `games` table keeps it under. `ox88 club tournaments` and
//! `ox88 club tournament ID` read them, beside a running server (WAL).

use rusqlite::{Connection, OptionalExtension, Row, params};

/// A tournament as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    pub id: u32,
    /// `arena` or `swiss`.
    pub kind: String,
    /// What its organiser asked for (`arena 3+0 30m rated`).
    pub spec: String,
    /// Its clock (`3+0`).
    pub clock: String,
    /// The organiser's name.
    pub organiser: String,
    pub players: u32,
    /// `starting`, `running` or `finished`.
    pub state: String,
    /// A Swiss's TRF-16 text as its recorded rounds make it.
    pub trf: Option<String>,
    /// The standings as text, as `:standings` shows them.
    pub standings: String,
    /// The ids of its games, in the order they were paired (read by
    /// [`tournament`], empty from [`tournaments`]).
    pub games: Vec<String>,
    /// While it is open, the runner's state (JSON) from which a restart goes on with it.
    pub runner: Option<String>,
}

/// The schema step that brings in tournaments.
pub(super) const SCHEMA: &str = "CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY NOT NULL,
        kind TEXT NOT NULL,
        spec TEXT NOT NULL,
        clock TEXT NOT NULL,
        organiser TEXT NOT NULL,
        players INTEGER NOT NULL,
        state TEXT NOT NULL,
        trf TEXT,
        standings TEXT NOT NULL,
        updated TEXT NOT NULL
    );
    CREATE TABLE tournament_games (
        tournament INTEGER NOT NULL REFERENCES tournaments(id),
        seq INTEGER NOT NULL,
        game TEXT NOT NULL,
        PRIMARY KEY (tournament, seq)
    );";

const COLUMNS: &str = "id, kind, spec, clock, organiser, players, state, trf, standings, runner";

fn of_row(row: &Row<'_>) -> rusqlite::Result<TournamentRecord> {
    Ok(TournamentRecord {
        id: row.get(0)?,
        kind: row.get(1)?,
        spec: row.get(2)?,
        clock: row.get(3)?,
        organiser: row.get(4)?,
        players: row.get(5)?,
        state: row.get(6)?,
        trf: row.get(7)?,
        standings: row.get(8)?,
        games: Vec::new(),
        runner: row.get(9)?,
    })
}

/// Writes `t` over what was kept of it; its games are added after those kept (a game's
/// place in the order never changes).
pub(super) fn save(conn: &mut Connection, t: &TournamentRecord, now: &str) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute(
        "INSERT INTO tournaments (id, kind, spec, clock, organiser, players, state, trf,
             standings, updated, runner)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT(id) DO UPDATE SET players = ?6, state = ?7, trf = ?8, standings = ?9,
             updated = ?10, runner = ?11",
        params![
            t.id,
            t.kind,
            t.spec,
            t.clock,
            t.organiser,
            t.players,
            t.state,
            t.trf,
            t.standings,
            now,
            t.runner
        ],
    )?;
    for (seq, game) in t.games.iter().enumerate() {
        tx.execute(
            "INSERT OR IGNORE INTO tournament_games (tournament, seq, game) VALUES (?1, ?2, ?3)",
            params![t.id, seq as i64, game],
        )?;
    }
    tx.commit()
}

/// Every tournament kept, by id (their games not read).
pub(super) fn all(conn: &Connection) -> rusqlite::Result<Vec<TournamentRecord>> {
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM tournaments ORDER BY id"))?;
    stmt.query_map([], of_row)?.collect()
}

/// Tournament `id` with its games in the order they were paired.
pub(super) fn one(conn: &Connection, id: u32) -> rusqlite::Result<Option<TournamentRecord>> {
    let Some(mut t) = conn
        .query_row(
            &format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?1"),
            [id],
            of_row,
        )
        .optional()?
    else {
        return Ok(None);
    };
    let mut stmt =
        conn.prepare("SELECT game FROM tournament_games WHERE tournament = ?1 ORDER BY seq")?;
    t.games = stmt
        .query_map([id], |row| row.get(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    Ok(Some(t))
}

/// The runner's state kept for a restart (schema version 6).
pub(super) const RUNNER: &str = "ALTER TABLE tournaments ADD COLUMN runner TEXT;";

/// Tournaments a server left starting or running when it stopped, and that it cannot go on
/// with (no runner's state kept, or one it cannot read: `keep` lists those it goes on
/// with), are finished. Their games stay. How many were finished.
pub(super) fn close_open(conn: &Connection, now: &str, keep: &[u32]) -> rusqlite::Result<usize> {
    let mut closed = 0;
    let open: Vec<u32> = conn
        .prepare("SELECT id FROM tournaments WHERE state != 'finished'")?
        .query_map([], |row| row.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for id in open.into_iter().filter(|id| !keep.contains(id)) {
        closed += conn.execute(
            "UPDATE tournaments SET state = 'finished', runner = NULL, updated = ?1 WHERE id = ?2",
            params![now, id],
        )?;
    }
    Ok(closed)
}
