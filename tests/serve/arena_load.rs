//! An arena under load, against the real `ox88 serve` binary on loopback: members with keys
//! and the server's bots in one arena at 1+0, each member playing random legal moves (it
//! asks the server for the position with `:fen`, thinks a moment, and moves). Prints the
//! games played, the time from a game's end on a player's screen to their next game on it
//! (median, p99), the move path between two members (sent to shown on the opponent's
//! screen), and the server's processor time and memory. A benchmark, not a test: ignored.
//! `cargo test --release --test serve arena_load -- --ignored --nocapture`;
//! `OX88_ARENA_SECS` (600) and `OX88_ARENA_MEMBERS` (36; the bots are four more) change it.

use crate::common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::served::{Served, env_or, member_in, spread_ms};
use common::ssh::SshClient;
use common::{Rng, TempDir};
use ox88::chess::Board;
use tokio::time::Instant;

/// What every member's task adds to.
#[derive(Default)]
struct Tally {
    /// (room, ply) → when the move leading to that ply was sent by a member.
    sent: HashMap<(String, usize), Instant>,
    moves: Vec<Duration>,
    gaps: Vec<Duration>,
    games_seen: usize,
    errors: Vec<String>,
}

/// What the status bar says of the room the session is in.
struct Seen {
    room: String,
    ply: usize,
    mine: bool,
    over: bool,
}

fn seen(status: &str) -> Option<Seen> {
    let at = status.find("room ")?;
    let rest = &status[at + 5..];
    let room = rest.split(' ').next()?.to_string();
    let ply = rest.split("ply ").nth(1)?.split(' ').next()?.parse().ok()?;
    let me = if rest.contains("you: White") {
        "White"
    } else if rest.contains("you: Black") {
        "Black"
    } else {
        return None;
    };
    let first = status.trim_start();
    let running = first.starts_with("White to move") || first.starts_with("Black to move");
    Some(Seen {
        room,
        ply,
        mine: first.starts_with(&format!("{me} to move")),
        over: !running,
    })
}

/// One member in the arena until `until`.
async fn member(mut c: SshClient, seed: u64, tally: Arc<Mutex<Tally>>, until: Instant) {
    // The shared generator; a seed of zero would stay zero.
    let mut rng = Rng(seed | 1);
    let (mut room, mut over_at): (Option<String>, Option<Instant>) = (None, None);
    let mut acted: Option<(String, usize)> = None;
    let mut finished: Option<String> = None;
    while Instant::now() < until {
        let ok = c
            .read_until(until, |s| {
                seen(&s.status()).is_some_and(|v| {
                    finished.as_deref() != Some(v.room.as_str())
                        && (v.over || (v.mine && acted.as_ref() != Some(&(v.room.clone(), v.ply))))
                })
            })
            .await;
        if !ok {
            break;
        }
        let v = seen(&c.screen().status()).expect("checked above");
        if room.as_deref() != Some(v.room.as_str()) {
            let mut t = tally.lock().unwrap();
            t.games_seen += 1;
            if let Some(at) = over_at.take() {
                t.gaps.push(at.elapsed());
            }
            room = Some(v.room.clone());
        }
        if v.over {
            finished = Some(v.room.clone());
            over_at = Some(Instant::now());
            continue;
        }
        {
            let mut t = tally.lock().unwrap();
            if let Some(at) = t.sent.remove(&(v.room.clone(), v.ply)) {
                t.moves.push(at.elapsed());
            }
        }
        acted = Some((v.room.clone(), v.ply));
        // The position, from the server.
        if !sent(&mut c, ":fen\r").await {
            break;
        }
        let got = c
            .read_until(Instant::now() + Duration::from_secs(10), |s| {
                Board::from_fen(s.message().trim()).is_ok()
            })
            .await;
        let board = match Board::from_fen(c.screen().message().trim()) {
            Ok(b) if got => b,
            _ => {
                tally
                    .lock()
                    .unwrap()
                    .errors
                    .push(format!("no FEN shown: {}", c.screen().message()));
                continue;
            }
        };
        let moves = board.legal_moves();
        if moves.is_empty() {
            continue;
        }
        tokio::time::sleep(Duration::from_millis(200 + rng.next() % 500)).await;
        let mv = moves.as_slice()[(rng.next() as usize) % moves.len()];
        tally
            .lock()
            .unwrap()
            .sent
            .insert((v.room.clone(), v.ply + 1), Instant::now());
        if !sent(&mut c, &format!("{}\r", mv.uci())).await {
            break;
        }
    }
}

/// Sends `text`, within a few seconds (a session the server stopped reading ends the task).
async fn sent(c: &mut SshClient, text: &str) -> bool {
    matches!(
        tokio::time::timeout(Duration::from_secs(5), c.try_send(text)).await,
        Ok(Ok(()))
    )
}

#[test]
#[ignore = "ten minutes of an arena; run with --ignored --nocapture"]
fn an_arena_of_forty_members_and_bots_on_two_cores() {
    let secs = env_or("OX88_ARENA_SECS", 600);
    let members = env_or("OX88_ARENA_MEMBERS", 36) as usize;
    let dir = TempDir::new("arena-load");
    let (server, keys) =
        Served::start_keyed(dir.path(), members, &["--bots", "1200,1600,2000,2400"]);
    let db_arg = dir.path().join("club.sqlite").display().to_string();
    let addr = server.addr.clone();
    let cpu_before = server.cpu_secs().unwrap_or(0.0);
    let runtime = common::client_runtime();
    let tally = Arc::new(Mutex::new(Tally::default()));
    let (peak, elapsed) = runtime.block_on(async {
        let mut clients = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let c = member_in(&addr, i, key, 140, 40).await;
            clients.push(c);
        }
        // An arena lasts two minutes at least; the run may stop before its end.
        let minutes = secs.div_ceil(60).max(2);
        let _ = clients[0]
            .try_send(&format!(":tournament arena 1+0 {minutes}m bots\r"))
            .await;
        let made = clients[0]
            .read_until(Instant::now() + Duration::from_secs(10), |s| {
                s.text().contains("Tournaments")
            })
            .await;
        assert!(made, "the arena made:\n{}", clients[0].screen().text());
        for c in &mut clients {
            let _ = c.try_send(":tournament join 1\r").await;
        }
        let start = Instant::now();
        let until = start + Duration::from_secs(secs);
        let tasks: Vec<_> = clients
            .into_iter()
            .enumerate()
            .map(|(i, c)| tokio::spawn(member(c, 7 * i as u64 + 1, Arc::clone(&tally), until)))
            .collect();
        let mut peak = 0;
        let mut said = Instant::now();
        while Instant::now() < until {
            peak = peak.max(server.rss_kib().unwrap_or(0));
            if said.elapsed() >= Duration::from_secs(30) {
                let t = tally.lock().unwrap();
                eprintln!(
                    "{:.0} s: {} games seen, {} moves timed",
                    start.elapsed().as_secs_f64(),
                    t.games_seen,
                    t.moves.len()
                );
                said = Instant::now();
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        for t in tasks {
            if tokio::time::timeout(Duration::from_secs(20), &mut *Box::pin(t))
                .await
                .is_err()
            {
                tally
                    .lock()
                    .unwrap()
                    .errors
                    .push("a member's task did not end".into());
            }
        }
        (peak, start.elapsed())
    });
    let cpu = server.cpu_secs().unwrap_or(0.0) - cpu_before;
    let standings = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(["club", "tournament", "1", "--db", &db_arg])
        .output()
        .expect("ox88 club runs");
    let standings = String::from_utf8_lossy(&standings.stdout).into_owned();
    let games = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(["club", "tournament", "1", "--pgn", "--db", &db_arg])
        .output()
        .expect("ox88 club runs");
    let pgn = String::from_utf8_lossy(&games.stdout).into_owned();
    let mut t = tally.lock().unwrap();
    let (gap_median, gap_p99, _) = spread_ms(&mut t.gaps);
    let (move_median, move_p99, _) = spread_ms(&mut t.moves);
    println!("{standings}");
    println!(
        "an arena of {members} members and 4 bots at 1+0 for {:.0} s: {} games stored \
         ({} finished), {} games seen by the members",
        elapsed.as_secs_f64(),
        pgn.matches("[Event ").count(),
        pgn.matches("[Result \"").count() - pgn.matches("[Result \"*\"]").count(),
        t.games_seen
    );
    println!(
        "from a game's end to the next game on the player's screen: median {gap_median:.0} ms, \
         p99 {gap_p99:.0} ms ({} pairings)",
        t.gaps.len()
    );
    println!(
        "the move path between members: median {move_median:.0} ms, p99 {move_p99:.0} ms \
         ({} moves)",
        t.moves.len()
    );
    println!(
        "server: {cpu:.1} s of processor ({:.0}% of one core), {} MiB peak",
        100.0 * cpu / elapsed.as_secs_f64(),
        peak / 1024
    );
    assert!(t.errors.len() < 10, "{:?}", t.errors);
    assert!(t.games_seen > members, "the arena paired");
}
