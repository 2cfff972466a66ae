//! Load on the club, against the real `ox88 serve` binary on loopback: human games of random
//! legal moves (one move a second per side), games against the engine, and watchers, all
//! at once. At the end every game stored must hold exactly the moves sent, in order, and
//! every player's and watcher's screen must agree with it. Prints moves per second, the
//! 99th percentile from a move sent to the move shown on the opponent's screen, and the
//! server's resident memory. Ignored by default (it runs for a minute):
//! `cargo test --release --test club_load -- --ignored --nocapture`.
//! `OX88_LOAD_GAMES` (16 human games), `OX88_LOAD_ENGINE` (4), `OX88_LOAD_WATCHERS` (4),
//! `OX88_LOAD_SECS` (60) change it.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::TempDir;
use common::served::{Served, env_or};
use common::ssh::{SshClient, new_key};
use ox88::chess::Board;
use ox88::club::{SqliteStore, Store};
use ox88::game::Game;
use tokio::time::Instant;

/// One human game as the test sees it: the moves sent (UCI), in order, and when the last
/// one was sent.
#[derive(Default)]
struct Shared {
    moves: Vec<String>,
    sent_at: Option<Instant>,
    latencies: Vec<Duration>,
    error: Option<String>,
}

/// A small deterministic generator for the random moves.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
}

async fn seat(addr: &str, user: &str, room: &str) -> Result<SshClient, String> {
    let mut c = SshClient::connect(addr).await?;
    if !c.auth(user, &new_key()).await? {
        return Err("refused".into());
    }
    c.open_room(120, 40, room.as_bytes()).await?;
    Ok(c)
}

/// One side of a human game: waits for its turn on its own screen, then plays a random
/// legal move a second after the opponent's.
async fn player(
    mut c: SshClient,
    white: bool,
    game: Arc<Mutex<Shared>>,
    seed: u64,
    until: Instant,
) -> Result<SshClient, String> {
    let mut rng = Lcg(seed);
    let me = if white { "White" } else { "Black" };
    let mut board = Board::startpos();
    let mut known = 0usize;
    let mut ply = usize::from(!white);
    loop {
        // My turn at `ply`: my screen says so.
        let want = format!("ply {ply} ");
        let ok = c
            .read_until(until + Duration::from_secs(10), |s| {
                let st = s.status();
                // The opponent seated (a move before that is refused, and rightly).
                st.starts_with(&format!("{me} to move"))
                    && st.contains(&want)
                    && !s.text().contains("waiting for an opponent")
            })
            .await;
        if !ok {
            return if Instant::now() >= until {
                Ok(c)
            } else {
                Err(format!("{me}: turn at ply {ply} never shown"))
            };
        }
        {
            let mut g = game.lock().unwrap();
            if let Some(t) = g.sent_at.take() {
                g.latencies.push(t.elapsed());
            }
            for m in &g.moves[known..] {
                let mv = board.parse_uci_move(m).map_err(|e| e.to_string())?;
                board.make(mv);
            }
            known = g.moves.len();
        }
        if Instant::now() >= until {
            return Ok(c);
        }
        let moves = board.legal_moves();
        if moves.is_empty() {
            return Ok(c);
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let mv = moves.as_slice()[(rng.next() as usize) % moves.len()];
        {
            let mut g = game.lock().unwrap();
            g.moves.push(mv.uci());
            g.sent_at = Some(Instant::now());
        }
        board.make(mv);
        known += 1;
        c.try_send(&format!("{}\r", mv.uci())).await?;
        ply += 2;
        if Game::from_board(board.clone()).is_over() {
            return Ok(c);
        }
    }
}

/// A game against the engine from the lobby: a move, the engine's answer, again.
async fn engine_player(addr: String, until: Instant) -> Result<u32, String> {
    let mut c = SshClient::connect(&addr).await?;
    if !c.auth("solo", &new_key()).await? {
        return Err("refused".into());
    }
    c.open_shell(120, 40).await?;
    let mut answered = 0;
    for (mv, shown) in [
        ("h2h4", "1.h4 "),
        ("a2a4", "1.a4 "),
        ("b2b3", "1.b3 "),
        ("g2g3", "1.g3 "),
    ]
    .iter()
    .cycle()
    {
        if Instant::now() >= until {
            break;
        }
        c.try_send(&format!(":new\r{mv}\r")).await?;
        if c.read_until(Instant::now() + Duration::from_secs(30), |s| {
            s.status().starts_with("White to move") && s.text().contains(shown)
        })
        .await
        {
            answered += 1;
        }
    }
    Ok(answered)
}

#[test]
#[ignore = "a minute of load; run with --ignored --nocapture"]
fn forty_sessions_keep_every_move_in_order() {
    let games = env_or("OX88_LOAD_GAMES", 16) as usize;
    let engines = env_or("OX88_LOAD_ENGINE", 4) as usize;
    let watchers = env_or("OX88_LOAD_WATCHERS", 4) as usize;
    let secs = env_or("OX88_LOAD_SECS", 60);
    let sessions = 2 * games + engines + watchers;
    let dir = TempDir::new("club-load");
    let cap = (sessions + 4).to_string();
    let db = dir.path().join("club.sqlite");
    let db_arg = db.display().to_string();
    let server = Served::start(
        dir.path(),
        &[
            "--max-sessions",
            &cap,
            "--max-per-ip",
            &cap,
            "--depth",
            "4",
            "--hash",
            "16",
            "--db",
            &db_arg,
        ],
    );
    let addr = server.addr.clone();
    let idle_rss = server.rss_kib().unwrap_or(0);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let shared: Vec<Arc<Mutex<Shared>>> = (0..games)
        .map(|_| Arc::new(Mutex::new(Shared::default())))
        .collect();
    let (screens, engine_answers, peak_rss, elapsed) = runtime.block_on(async {
        let start = Instant::now();
        let until = start + Duration::from_secs(secs);
        let mut tasks = Vec::new();
        for (g, game) in shared.iter().enumerate() {
            let room = format!("load-{g}");
            // One after the other: the first seated plays White.
            let mut w = seat(&addr, &format!("w{g}"), &room)
                .await
                .expect("white seated");
            w.read_until(Instant::now() + Duration::from_secs(30), |s| {
                s.status().contains("you: White")
            })
            .await;
            let b = seat(&addr, &format!("b{g}"), &room)
                .await
                .expect("black seated");
            tasks.push(tokio::spawn(player(
                w,
                true,
                Arc::clone(game),
                2 * g as u64 + 1,
                until,
            )));
            tasks.push(tokio::spawn(player(
                b,
                false,
                Arc::clone(game),
                2 * g as u64 + 2,
                until,
            )));
        }
        let mut watching = Vec::new();
        for i in 0..watchers {
            watching.push(
                seat(&addr, &format!("v{i}"), &format!("load-{}", i % games))
                    .await
                    .expect("watching"),
            );
        }
        let engine_tasks: Vec<_> = (0..engines)
            .map(|_| tokio::spawn(engine_player(addr.clone(), until)))
            .collect();
        let mut peak = idle_rss;
        while tasks.iter().any(|t| !t.is_finished()) {
            peak = peak.max(server.rss_kib().unwrap_or(0));
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let elapsed = start.elapsed();
        let mut screens = Vec::new();
        for (i, t) in tasks.into_iter().enumerate() {
            match t.await.unwrap() {
                Ok(c) => screens.push((i / 2, c)),
                Err(e) => shared[i / 2].lock().unwrap().error = Some(e),
            }
        }
        for (i, w) in watching.into_iter().enumerate() {
            screens.push((i % games, w));
        }
        let mut answers = 0;
        for t in engine_tasks {
            answers += t.await.unwrap().unwrap_or(0);
        }
        // Every screen catches up with its game's last move.
        for (g, c) in screens.iter_mut() {
            let n = shared[*g].lock().unwrap().moves.len();
            let want = format!("ply {n} ");
            c.read_until(Instant::now() + Duration::from_secs(10), |s| {
                s.status().contains(&want)
            })
            .await;
        }
        (screens, answers, peak, elapsed)
    });
    let store = SqliteStore::open(&db).unwrap();
    let mut moves_total = 0;
    let mut latencies = Vec::new();
    let mut problems = Vec::new();
    for (g, game) in shared.iter().enumerate() {
        let s = game.lock().unwrap();
        moves_total += s.moves.len();
        latencies.extend(s.latencies.iter().copied());
        if let Some(e) = &s.error {
            problems.push(format!("game {g}: {e}"));
        }
        let room = format!("load-{g}");
        // Games still going are listed as unfinished; one that ended has a result.
        let pgn = store
            .unfinished()
            .unwrap()
            .into_iter()
            .find(|r| r.room == room)
            .map(|r| r.pgn)
            .or_else(|| {
                let db = rusqlite::Connection::open(&db).ok()?;
                db.query_row("SELECT pgn FROM games WHERE room = ?1", [&room], |r| {
                    r.get(0)
                })
                .ok()
            });
        let Some(pgn) = pgn else {
            problems.push(format!("game {g}: not in the database"));
            continue;
        };
        let played = Game::from_pgn(&pgn).expect("the stored PGN reads");
        let uci: Vec<String> = played.moves().iter().map(|m| m.mv.uci()).collect();
        if uci != s.moves {
            problems.push(format!("game {g}: stored {uci:?}, sent {:?}", s.moves));
        }
    }
    for (g, c) in &screens {
        let n = shared[*g].lock().unwrap().moves.len();
        if !c.screen().status().contains(&format!("ply {n} ")) {
            problems.push(format!(
                "a screen of game {g} is not at ply {n} (sent {:?}): {} / {}",
                shared[*g].lock().unwrap().moves,
                c.screen().status(),
                c.screen().message()
            ));
        }
    }
    latencies.sort();
    let p99 = latencies
        .get((latencies.len() * 99 / 100).min(latencies.len().saturating_sub(1)))
        .copied()
        .unwrap_or_default();
    println!(
        "{sessions} sessions ({games} human games, {engines} against the engine, {watchers} watching), {:.0} s:",
        elapsed.as_secs_f64()
    );
    println!(
        "{moves_total} human moves ({:.1} a second), p99 from sent to shown to the opponent {:.0} ms \
         (median {:.0} ms, worst {:.0} ms); {engine_answers} engine answers",
        moves_total as f64 / elapsed.as_secs_f64(),
        p99.as_secs_f64() * 1000.0,
        latencies
            .get(latencies.len() / 2)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0),
        latencies.last().map_or(0.0, |d| d.as_secs_f64() * 1000.0),
    );
    println!(
        "server RSS: {} MiB idle, {} MiB peak",
        idle_rss / 1024,
        peak_rss / 1024
    );
    drop(server);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(moves_total > games, "the games moved");
}
