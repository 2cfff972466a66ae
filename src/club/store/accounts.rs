//! The accounts in the built-in store: a player is an account, reached by one or more keys,
//! with a name that is theirs alone (unique without case, in the whole database). The
//! tables: `players` (the account: id, name, and the name before a rename not yet told),
//! `keys` (key → account) and `key_codes` (the one-time code that adds a key, one live per
//! account). An account's id is the id of its first key, so the games and ratings kept
//! under that key before accounts existed are the account's.

use std::collections::HashSet;

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::{Connection, OptionalExtension, Transaction, params};

use crate::club::text::{self, MEMBER_NAME_MAX, NAME_MARKS};

/// An account as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// The id its games, rating and puzzle record are kept under.
    pub id: String,
    /// Its name: unique in the database without case.
    pub name: String,
    /// The name it had before the store gave it another (two accounts shared a name, or
    /// the name was not one a name may be), until the account is told at its next login.
    pub renamed_from: Option<String>,
}

/// Why a one-time code added no key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeRefused {
    /// No account has that name.
    NoSuchAccount,
    /// The account has no code now: none was made, it expired, it was used, or too many
    /// wrong codes were tried.
    NoCode,
    /// Not the account's code (the code counts the try).
    WrongCode,
    /// The key is already another account's (named).
    KeyTaken(String),
}

/// Wrong codes tried against one account's code before the code is thrown away.
pub const CODE_TRIES: i64 = 5;

/// The schema step that brings in accounts: the tables of keys and codes, every player so
/// far an account with its own key, and names made unique. Where two players shared a name
/// (a login name used to rename its key's player), the one seen first keeps it and the
/// others get a free one (`bob-2`), as does a name that is not one a name may be now; each
/// renamed account keeps the name it had, to be told at its next login.
pub(super) fn names_and_keys(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "ALTER TABLE players ADD COLUMN renamed_from TEXT;
        CREATE TABLE keys (
            key TEXT PRIMARY KEY NOT NULL,
            player TEXT NOT NULL REFERENCES players(id),
            added_at TEXT NOT NULL
        );
        CREATE INDEX keys_by_player ON keys (player);
        INSERT INTO keys (key, player, added_at) SELECT id, id, first_seen FROM players;
        CREATE TABLE key_codes (
            player TEXT PRIMARY KEY NOT NULL REFERENCES players(id),
            code TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            tries INTEGER NOT NULL DEFAULT 0
        );",
    )?;
    let players: Vec<(String, String)> = {
        let mut query = tx.prepare("SELECT id, name FROM players ORDER BY first_seen, rowid")?;
        query
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    // First the names that may stay, the earliest player of each; then the rest, each
    // given a name no one holds (nor will: the names that stay are taken first).
    let mut taken = HashSet::new();
    let mut renamed = Vec::new();
    for (id, name) in players {
        match text::member_name(&name) {
            Ok(clean) if clean == name && taken.insert(name.to_ascii_lowercase()) => {}
            _ => renamed.push((id, name)),
        }
    }
    for (id, old) in renamed {
        let new = free_name(&fitting_name(&old), &taken);
        taken.insert(new.to_ascii_lowercase());
        tx.execute(
            "UPDATE players SET name = ?2, renamed_from = ?3 WHERE id = ?1",
            params![id, new, old],
        )?;
    }
    tx.execute_batch("CREATE UNIQUE INDEX players_by_name ON players (name COLLATE NOCASE);")
}

/// The nearest name a name may be to `old`: its visible ASCII letters, digits and marks,
/// spaces made `-`, starting with a letter or digit; `player` when nothing is left.
fn fitting_name(old: &str) -> String {
    let kept: String = old
        .chars()
        .filter(|&c| !text::is_hidden(c) || c.is_whitespace())
        .filter_map(|c| match c {
            c if c.is_ascii_alphanumeric() || NAME_MARKS.contains(&c) => Some(c),
            c if c.is_whitespace() => Some('-'),
            _ => None,
        })
        .skip_while(|c| !c.is_ascii_alphanumeric())
        .take(MEMBER_NAME_MAX)
        .collect();
    if kept.is_empty() {
        "player".into()
    } else {
        kept
    }
}

/// `base`, or `base-2`, `base-3`… (cut to leave room for the number), the first that is
/// not in `taken` (names in lower case).
fn free_name(base: &str, taken: &HashSet<String>) -> String {
    let free = |n: &String| !taken.contains(&n.to_ascii_lowercase());
    let first = base.to_string();
    if free(&first) {
        return first;
    }
    (2u64..)
        .map(|i| {
            let suffix = format!("-{i}");
            let stem: String = base.chars().take(MEMBER_NAME_MAX - suffix.len()).collect();
            format!("{stem}{suffix}")
        })
        .find(free)
        .expect("some number is free")
}

/// The account `key` reaches, if any.
fn account_of_key(conn: &Connection, key: &str) -> rusqlite::Result<Option<Account>> {
    conn.query_row(
        "SELECT p.id, p.name, p.renamed_from FROM keys k JOIN players p ON p.id = k.player
         WHERE k.key = ?1",
        [key],
        account_of_row,
    )
    .optional()
}

fn account_of_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<Account> {
    Ok(Account {
        id: row.get(0)?,
        name: row.get(1)?,
        renamed_from: row.get(2)?,
    })
}

/// What [`Store::key_login`](super::Store::key_login) does: the key's account, seen now,
/// with a rename it has not been told of (told now: the note is cleared).
pub(super) fn key_login(
    tx: &Transaction<'_>,
    key: &str,
    now: &str,
) -> rusqlite::Result<Option<Account>> {
    let account = account_of_key(tx, key)?;
    if let Some(a) = &account {
        tx.execute(
            "UPDATE players SET last_seen = ?2, renamed_from = NULL WHERE id = ?1",
            params![a.id, now],
        )?;
    }
    Ok(account)
}

/// The account named `name` (without case), if any.
pub(super) fn account_named(conn: &Connection, name: &str) -> rusqlite::Result<Option<Account>> {
    conn.query_row(
        "SELECT id, name, renamed_from FROM players WHERE name = ?1 COLLATE NOCASE",
        [name],
        account_of_row,
    )
    .optional()
}

/// A new account for `key` named `name` (its id the key's); `None` when the name is
/// another account's. A key that already has an account gets that one.
pub(super) fn new_account(
    tx: &Transaction<'_>,
    key: &str,
    name: &str,
    now: &str,
) -> rusqlite::Result<Option<Account>> {
    if let Some(account) = account_of_key(tx, key)? {
        return Ok(Some(account));
    }
    if account_named(tx, name)?.is_some() {
        return Ok(None);
    }
    tx.execute(
        "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)
         ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen",
        params![key, name, now],
    )?;
    tx.execute(
        "INSERT INTO keys (key, player, added_at) VALUES (?1, ?1, ?2)",
        params![key, now],
    )?;
    account_of_key(tx, key)
}

/// A one-time code for `account`, in place of any it had.
pub(super) fn put_key_code(
    conn: &Connection,
    account: &str,
    code: &str,
    expires: DateTime<Utc>,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO key_codes (player, code, expires_at, tries) VALUES (?1, ?2, ?3, 0)
         ON CONFLICT (player) DO UPDATE SET code = excluded.code,
             expires_at = excluded.expires_at, tries = 0",
        params![account, code, stamp_of(expires)],
    )?;
    Ok(())
}

/// Adds `key` to the account named `name` if `code` is its live code (compared without
/// case; used up when it adds the key).
pub(super) fn add_key_by_code(
    tx: &Transaction<'_>,
    name: &str,
    code: &str,
    key: &str,
    now: &str,
) -> rusqlite::Result<Result<Account, CodeRefused>> {
    let Some(account) = account_named(tx, name)? else {
        return Ok(Err(CodeRefused::NoSuchAccount));
    };
    if let Some(owner) = account_of_key(tx, key)? {
        return Ok(Err(CodeRefused::KeyTaken(owner.name)));
    }
    tx.execute(
        "DELETE FROM key_codes WHERE player = ?1 AND (expires_at <= ?2 OR tries >= ?3)",
        params![account.id, now, CODE_TRIES],
    )?;
    let live: Option<String> = tx
        .query_row(
            "SELECT code FROM key_codes WHERE player = ?1",
            [&account.id],
            |row| row.get(0),
        )
        .optional()?;
    let Some(live) = live else {
        return Ok(Err(CodeRefused::NoCode));
    };
    if !live.eq_ignore_ascii_case(code.trim()) {
        tx.execute(
            "UPDATE key_codes SET tries = tries + 1 WHERE player = ?1",
            [&account.id],
        )?;
        return Ok(Err(CodeRefused::WrongCode));
    }
    tx.execute("DELETE FROM key_codes WHERE player = ?1", [&account.id])?;
    tx.execute(
        "INSERT INTO keys (key, player, added_at) VALUES (?1, ?2, ?3)",
        params![key, account.id, now],
    )?;
    tx.execute(
        "UPDATE players SET last_seen = ?2 WHERE id = ?1",
        params![account.id, now],
    )?;
    Ok(Ok(account))
}

/// How many keys reach `account`.
pub(super) fn keys_of(conn: &Connection, account: &str) -> rusqlite::Result<usize> {
    let n: i64 = conn.query_row(
        "SELECT count(*) FROM keys WHERE player = ?1",
        [account],
        |row| row.get(0),
    )?;
    Ok(usize::try_from(n).unwrap_or(0))
}

/// A moment as the store writes it (ISO-8601 UTC, microseconds), so stamps compare as text.
fn stamp_of(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Micros, true)
}

#[cfg(test)]
mod tests {
    use super::super::{SCHEMA_1, SqliteStore, Store, set_user_version, user_version};
    use super::*;

    /// A database as the first schema made it, with these players (id, name, first seen).
    fn old_database(players: &[(&str, &str, &str)]) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(SCHEMA_1).unwrap();
        set_user_version(&conn, 1).unwrap();
        for (id, name, seen) in players {
            conn.execute(
                "INSERT INTO players (id, name, first_seen, last_seen) VALUES (?1, ?2, ?3, ?3)",
                params![id, name, seen],
            )
            .unwrap();
        }
        conn
    }

    fn name_of(store: &SqliteStore, id: &str) -> String {
        store.player_name(id).unwrap()
    }

    #[test]
    fn an_old_database_with_two_of_one_name_keeps_it_for_the_first() {
        let conn = old_database(&[
            // Seen second, but inserted first: the first seen keeps the name.
            ("key-b2", "bob", "2024-02-01T00:00:00.000000Z"),
            ("key-b1", "bob", "2024-01-01T00:00:00.000000Z"),
            ("key-b3", "BOB", "2024-03-01T00:00:00.000000Z"),
            // Already named as a renamed bob would be: kept, so the renames go past it.
            ("key-x", "bob-2", "2024-04-01T00:00:00.000000Z"),
            ("key-j", "José Ruiz", "2024-05-01T00:00:00.000000Z"),
            ("key-z", "\u{202E}\u{200B}", "2024-06-01T00:00:00.000000Z"),
        ]);
        let store = SqliteStore::prepared(conn, "the old database").unwrap();
        assert_eq!(
            user_version(&store.lock().conn).unwrap(),
            super::super::MIGRATIONS.len()
        );
        assert_eq!(name_of(&store, "key-b1"), "bob");
        assert_eq!(name_of(&store, "key-x"), "bob-2");
        assert_eq!(name_of(&store, "key-b2"), "bob-3");
        assert_eq!(name_of(&store, "key-b3"), "BOB-4");
        assert_eq!(name_of(&store, "key-j"), "Jos-Ruiz");
        assert_eq!(name_of(&store, "key-z"), "player");
        // Every player's key reaches its account; the renamed are told once, at login.
        let first = store.key_login("key-b1").unwrap().unwrap();
        assert_eq!((first.name.as_str(), first.renamed_from), ("bob", None));
        let renamed = store.key_login("key-b2").unwrap().unwrap();
        assert_eq!(renamed.name, "bob-3");
        assert_eq!(renamed.renamed_from.as_deref(), Some("bob"));
        let again = store.key_login("key-b2").unwrap().unwrap();
        assert_eq!(again.renamed_from, None, "told once");
        assert_eq!(
            store
                .key_login("key-j")
                .unwrap()
                .unwrap()
                .renamed_from
                .as_deref(),
            Some("José Ruiz")
        );
        // From now on a name is one account's: no second bob, in any case.
        assert_eq!(store.new_account("key-new", "Bob").unwrap(), None);
        assert!(store.new_account("key-new", "bobby").unwrap().is_some());
        let dup = store
            .lock()
            .conn
            .execute("UPDATE players SET name = 'BOBBY' WHERE id = 'key-b1'", [])
            .unwrap_err();
        assert!(dup.to_string().contains("UNIQUE"), "{dup}");
    }

    #[test]
    fn an_old_database_keeps_its_games_and_ratings_under_the_same_ids() {
        let conn = old_database(&[("key-a", "alice", "2024-01-01T00:00:00.000000Z")]);
        conn.execute(
            "INSERT INTO ratings (player, rating, deviation, volatility, games)
             VALUES ('key-a', 1712.5, 80.0, 0.06, 9)",
            [],
        )
        .unwrap();
        let store = SqliteStore::prepared(conn, "the old database").unwrap();
        let account = store.key_login("key-a").unwrap().unwrap();
        assert_eq!(account.id, "key-a");
        assert_eq!(store.rating(&account.id).unwrap().rating, 1712.5);
        assert_eq!(store.keys_of("key-a").unwrap(), 1);
    }

    #[test]
    fn fitting_names_are_names() {
        for old in [
            "José Ruiz",
            "  ",
            "-x",
            "\u{430}lice",
            "a b\tc",
            &"n".repeat(40),
            "é",
        ] {
            let fit = fitting_name(old);
            assert_eq!(
                text::member_name(&fit).as_deref(),
                Ok(fit.as_str()),
                "{old:?}"
            );
        }
        let taken: HashSet<String> = ["nnnnnnnnnnnnnnnnnnnn".to_string()].into();
        let free = free_name(&"n".repeat(20), &taken);
        assert_eq!(free, format!("{}-2", "n".repeat(18)));
    }

    #[test]
    fn an_expired_code_adds_no_key() {
        let store = SqliteStore::in_memory().unwrap();
        store.new_account("key-a", "alice").unwrap().unwrap();
        let past = Utc::now() - chrono::TimeDelta::seconds(1);
        store.put_key_code("key-a", "ABCDEFGH", past).unwrap();
        assert_eq!(
            store.add_key_by_code("alice", "ABCDEFGH", "key-2").unwrap(),
            Err(CodeRefused::NoCode)
        );
        let later = Utc::now() + chrono::TimeDelta::minutes(1);
        store.put_key_code("key-a", "ABCDEFGH", later).unwrap();
        let added = store.add_key_by_code("ALICE", "abcdefgh", "key-2").unwrap();
        assert_eq!(added.map(|a| a.id), Ok("key-a".to_string()));
        assert_eq!(store.keys_of("key-a").unwrap(), 2);
        store.new_account("key-b", "bob").unwrap().unwrap();
        store.put_key_code("key-b", "ZZZZZZZZ", later).unwrap();
        assert_eq!(
            store.add_key_by_code("bob", "ZZZZZZZZ", "key-2").unwrap(),
            Err(CodeRefused::KeyTaken("alice".into()))
        );
    }
}
