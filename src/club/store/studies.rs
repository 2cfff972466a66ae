//! The club's studies in the built-in store: one row each in `studies`, under the study's
//! name (unique without case), with its owner's member id and the whole [`StudyRecord`] as
//! JSON (every chapter as PGN, the shared cursor as the moves that reach it). `ox88 club
//! studies` and `ox88 club study NAME` read them, beside a running server (WAL).

use rusqlite::{Connection, OptionalExtension, params};

use crate::club::study::StudyRecord;

/// The schema step that brings in studies.
pub(super) const SCHEMA: &str = "CREATE TABLE studies (
        name TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
        owner TEXT NOT NULL,
        record TEXT NOT NULL,
        updated TEXT NOT NULL
    );
    CREATE INDEX studies_by_owner ON studies (owner);";

/// What can go wrong keeping or reading a study: the database, or a record that is not a
/// study's JSON.
pub(super) enum Failed {
    Sql(rusqlite::Error),
    Json(serde_json::Error),
}

impl From<rusqlite::Error> for Failed {
    fn from(e: rusqlite::Error) -> Failed {
        Failed::Sql(e)
    }
}

impl std::fmt::Display for Failed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failed::Sql(e) => write!(f, "{e}"),
            Failed::Json(e) => write!(f, "its record cannot be read: {e}"),
        }
    }
}

/// Writes `record` over the study of its name (compared without case), or adds it.
pub(super) fn save(conn: &Connection, record: &StudyRecord, now: &str) -> Result<(), Failed> {
    let json = serde_json::to_string(record).map_err(Failed::Json)?;
    conn.execute(
        "INSERT INTO studies (name, owner, record, updated) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (name) DO UPDATE SET name = excluded.name, owner = excluded.owner,
             record = excluded.record, updated = excluded.updated",
        params![record.name, record.owner, json, now],
    )?;
    Ok(())
}

/// Every study whose record can be read, by name (without case). One that cannot is left
/// out and named on standard error: the others are still the club's.
pub(super) fn all(conn: &Connection) -> rusqlite::Result<Vec<StudyRecord>> {
    let mut stmt = conn.prepare("SELECT name, record FROM studies ORDER BY name")?;
    let rows = stmt
        .query_map([], |row| {
            Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows
        .into_iter()
        .filter_map(|(name, json)| match serde_json::from_str(&json) {
            Ok(record) => Some(record),
            Err(e) => {
                eprintln!("ox88: study {name:?} in the database cannot be read ({e}); left out");
                None
            }
        })
        .collect())
}

/// The study named `name` (without case).
pub(super) fn one(conn: &Connection, name: &str) -> Result<Option<StudyRecord>, Failed> {
    let json: Option<String> = conn
        .query_row(
            "SELECT record FROM studies WHERE name = ?1",
            [name],
            |row| row.get(0),
        )
        .optional()?;
    json.map(|j| serde_json::from_str(&j).map_err(Failed::Json))
        .transpose()
}

/// Forgets the study named `name` (without case): whether there was one.
pub(super) fn delete(conn: &Connection, name: &str) -> rusqlite::Result<bool> {
    conn.execute("DELETE FROM studies WHERE name = ?1", [name])
        .map(|n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::super::{
        GameRecord, MIGRATIONS, SqliteStore, Step, Store, TournamentRecord, set_user_version,
        user_version,
    };
    use super::*;
    use crate::chess::Square;
    use crate::club::study::{Source, Study, StudyAction, StudyLimits};
    use crate::engine::score::Score;
    use crate::game::study::{Arrow, Glyph, Mark};

    const OWNER: &str = "key:olga";

    /// A study with a bit of everything: variations, a comment, a glyph, a marked square,
    /// an arrow, an evaluation, a contributor and a second chapter from a position.
    fn rich(name: &str) -> StudyRecord {
        let mut s = Study::new(name, OWNER, "olga", StudyLimits::default());
        let mut act = |a: StudyAction| {
            s.act(OWNER, a).unwrap();
        };
        for m in ["e4", "e5", "Nf3"] {
            act(StudyAction::Play(m.into()));
        }
        act(StudyAction::Comment("the king's knight".into()));
        act(StudyAction::Glyph(Glyph::Good));
        act(StudyAction::Square(Square::new(4, 4), Mark::Green));
        act(StudyAction::Arrow(Arrow {
            from: Square::new(6, 0),
            to: Square::new(5, 2),
            mark: Mark::Red,
        }));
        act(StudyAction::Step(crate::club::study::Step::Back));
        act(StudyAction::Play("Bc4".into()));
        let node = s.current().1.cursor();
        s.act(
            OWNER,
            StudyAction::Eval {
                chapter: 0,
                node,
                score: Score::Cp(35),
                depth: 12,
            },
        )
        .unwrap();
        s.give(OWNER, "key:gus", "gus").unwrap();
        s.act(
            OWNER,
            StudyAction::Chapter {
                name: "endgame".into(),
                source: Source::Fen("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1".into()),
            },
        )
        .unwrap();
        s.record()
    }

    #[test]
    fn a_study_is_saved_and_read_back_as_it_was() {
        let store = SqliteStore::in_memory().unwrap();
        assert_eq!(store.study("opening").unwrap(), None);
        assert!(store.studies().unwrap().is_empty());
        let record = rich("opening");
        store.save_study(&record).unwrap();
        assert_eq!(store.study("opening").unwrap(), Some(record.clone()));
        assert_eq!(store.studies().unwrap(), std::slice::from_ref(&record));
        // The whole study comes back: its PGN is the same, variations and notes too.
        let back = store.study("opening").unwrap().unwrap();
        assert_eq!(back.pgn().unwrap(), record.pgn().unwrap());
        let updated: String = store
            .lock()
            .conn
            .query_row("SELECT updated FROM studies", [], |row| row.get(0))
            .unwrap();
        assert!(
            chrono::DateTime::parse_from_rfc3339(&updated).is_ok(),
            "{updated}"
        );
        assert!(updated.ends_with('Z'), "UTC: {updated}");
    }

    #[test]
    fn saving_again_replaces_the_study_of_that_name_in_any_case() {
        let store = SqliteStore::in_memory().unwrap();
        store.save_study(&rich("Opening")).unwrap();
        let mut renamed = rich("opening");
        renamed.private = true;
        renamed.owner = "key:other".into();
        store.save_study(&renamed).unwrap();
        assert_eq!(store.studies().unwrap(), [renamed]);
        let owner: String = store
            .lock()
            .conn
            .query_row("SELECT owner FROM studies", [], |row| row.get(0))
            .unwrap();
        assert_eq!(owner, "key:other");
    }

    #[test]
    fn a_study_is_found_without_case_and_listed_by_name() {
        let store = SqliteStore::in_memory().unwrap();
        for name in ["zugzwang", "Caro-Kann", "benoni"] {
            store.save_study(&rich(name)).unwrap();
        }
        let names: Vec<String> = store
            .studies()
            .unwrap()
            .into_iter()
            .map(|r| r.name)
            .collect();
        assert_eq!(names, ["benoni", "Caro-Kann", "zugzwang"]);
        assert_eq!(store.study("CARO-kann").unwrap().unwrap().name, "Caro-Kann");
        assert_eq!(store.study("caro").unwrap(), None);
    }

    #[test]
    fn a_deleted_study_is_gone_and_deleting_it_again_says_so() {
        let store = SqliteStore::in_memory().unwrap();
        store.save_study(&rich("opening")).unwrap();
        store.save_study(&rich("endgame")).unwrap();
        assert!(store.delete_study("OPENING").unwrap());
        assert!(!store.delete_study("opening").unwrap());
        assert_eq!(store.study("opening").unwrap(), None);
        assert_eq!(store.studies().unwrap(), [rich("endgame")]);
    }

    #[test]
    fn a_row_that_cannot_be_read_is_left_out_of_the_list_and_refused_by_name() {
        let store = SqliteStore::in_memory().unwrap();
        store.save_study(&rich("good")).unwrap();
        store
            .lock()
            .conn
            .execute(
                "INSERT INTO studies (name, owner, record, updated)
                 VALUES ('broken', 'key:x', '{\"name\": 7', '2026-01-01T00:00:00Z')",
                [],
            )
            .unwrap();
        assert_eq!(store.studies().unwrap(), [rich("good")]);
        let err = store.study("broken").unwrap_err().to_string();
        assert!(err.contains("study \"broken\""), "{err}");
        assert!(err.contains("cannot be read"), "{err}");
        // It can still be deleted, and the rest is as it was.
        assert!(store.delete_study("broken").unwrap());
        assert_eq!(store.studies().unwrap(), [rich("good")]);
    }

    #[test]
    fn a_database_of_the_version_before_keeps_its_data_and_gains_studies() {
        // Version 6, the last before studies, as the older program left it.
        let before = 6;
        let conn = Connection::open_in_memory().unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for step in &MIGRATIONS[..before] {
            match step {
                Step::Sql(sql) => tx.execute_batch(sql),
                Step::Code(code) => code(&tx),
            }
            .unwrap();
        }
        set_user_version(&tx, before).unwrap();
        tx.commit().unwrap();
        let game = GameRecord {
            id: "g1".into(),
            room: "den".into(),
            white: "key:a".into(),
            black: "key:b".into(),
            white_name: "alice".into(),
            black_name: "bob".into(),
            pgn: "1. e4 e5 1/2-1/2".into(),
            result: Some("1/2-1/2".into()),
            termination: Some("agreed".into()),
            time_control: Some("5+3".into()),
            rated: false,
            clocks_ms: None,
        };
        let tournament = TournamentRecord {
            id: 3,
            kind: "arena".into(),
            spec: "arena 3+0 30m".into(),
            clock: "3+0".into(),
            organiser: "olga".into(),
            players: 4,
            state: "finished".into(),
            trf: None,
            standings: "1. alice 2\n".into(),
            games: vec!["g1".into()],
            runner: None,
        };
        // Written as the older program did: through the same store, before the new step.
        let old = SqliteStore {
            inner: std::sync::Mutex::new(super::super::Inner {
                conn,
                last_stamp: None,
            }),
        };
        old.new_account("key:a", "alice").unwrap().unwrap();
        old.save_game(&game).unwrap();
        old.save_tournament(&tournament).unwrap();
        let conn = old.inner.into_inner().unwrap().conn;
        assert!(
            conn.prepare("SELECT * FROM studies").is_err(),
            "no studies before"
        );
        let store = SqliteStore::prepared(conn, "the old database").unwrap();
        assert_eq!(user_version(&store.lock().conn).unwrap(), MIGRATIONS.len());
        assert_eq!(store.game("g1").unwrap(), Some(game));
        assert_eq!(store.tournament(3).unwrap(), Some(tournament));
        assert_eq!(store.account_named("ALICE").unwrap().unwrap().id, "key:a");
        assert!(store.studies().unwrap().is_empty());
        store.save_study(&rich("opening")).unwrap();
        assert_eq!(store.study("opening").unwrap(), Some(rich("opening")));
    }
}
