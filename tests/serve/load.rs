//! Load: many SSH sessions at once against the real `ox88 serve` binary, each playing moves
//! for a while at a low engine depth. Prints how every session fared and the server's memory.
//! Ignored by default (it runs for a minute); run it with
//! `cargo test --release --test serve load:: -- --ignored --nocapture`.
//! `OX88_LOAD_SESSIONS` (20), `OX88_LOAD_SECS` (60) and `OX88_LOAD_DEPTH` (4) change it.

use crate::common;

use std::time::Duration;

use common::TempDir;
use common::served::{Served, caps, env_or};
use common::ssh::{SshClient, new_key};
use tokio::time::Instant;

#[derive(Debug, Default)]
struct Outcome {
    answered: u32,
    timeouts: u32,
    worst: Duration,
    total: Duration,
    error: Option<String>,
}

/// Openings out of the built-in book, so the engine searches; consecutive rounds differ, so
/// the move list of the last round never looks like this one's answer.
const OPENINGS: [(&str, &str); 4] = [
    ("h2h4", "1.h4 "),
    ("a2a4", "1.a4 "),
    ("b2b3", "1.b3 "),
    ("g2g3", "1.g3 "),
];

async fn play(addr: String, until: Instant) -> Outcome {
    let mut out = Outcome::default();
    if let Err(e) = play_rounds(&addr, until, &mut out).await {
        out.error = Some(e);
    }
    out
}

async fn play_rounds(addr: &str, until: Instant, out: &mut Outcome) -> Result<(), String> {
    let mut client = SshClient::connect(addr).await?;
    if !client.auth("load", &new_key()).await? {
        return Err("refused".into());
    }
    client.open_shell(80, 24).await?;
    let mut round = 0usize;
    while Instant::now() < until {
        let (mv, shown) = OPENINGS[round % OPENINGS.len()];
        round += 1;
        let sent = Instant::now();
        client.try_send(&format!(":new\r{mv}\r")).await?;
        let answered = client
            .read_until(sent + Duration::from_secs(30), |s| {
                s.status().starts_with("White to move") && s.text().contains(shown)
            })
            .await;
        if answered {
            let took = sent.elapsed();
            out.answered += 1;
            out.total += took;
            out.worst = out.worst.max(took);
        } else if client.closed() {
            return Err("closed".into());
        } else {
            out.timeouts += 1;
        }
    }
    let _ = client.try_send("\x03").await;
    Ok(())
}

#[test]
#[ignore = "a minute of load; run with --ignored --nocapture"]
fn twenty_sessions_play_for_a_minute_and_every_one_is_answered() {
    let sessions = env_or("OX88_LOAD_SESSIONS", 20);
    let secs = env_or("OX88_LOAD_SECS", 60);
    let depth = env_or("OX88_LOAD_DEPTH", 4);
    let dir = TempDir::new("serve-load");
    let cap = (sessions + 4).to_string();
    let depth_arg = depth.to_string();
    let server = Served::start(
        dir.path(),
        &[&caps(&cap)[..], &["--depth", &depth_arg]].concat(),
    );
    let addr = server.addr.clone();
    let idle_rss = server.rss_kib().unwrap_or(0);

    let runtime = common::client_runtime();
    let (outcomes, peak_rss, busy_rss) = runtime.block_on(async {
        let until = Instant::now() + Duration::from_secs(secs);
        let tasks: Vec<_> = (0..sessions)
            .map(|_| tokio::spawn(play(addr.clone(), until)))
            .collect();
        let mut peak = idle_rss;
        // Sampled before the players leave: every session open and warmed up.
        let mut busy = idle_rss;
        while tasks.iter().any(|t| !t.is_finished()) {
            let rss = server.rss_kib().unwrap_or(0);
            peak = peak.max(rss);
            if Instant::now() + Duration::from_secs(2) < until {
                busy = rss;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let mut outcomes = Vec::new();
        for t in tasks {
            outcomes.push(t.await.unwrap());
        }
        (outcomes, peak, busy)
    });

    let answered: u32 = outcomes.iter().map(|o| o.answered).sum();
    let timeouts: u32 = outcomes.iter().map(|o| o.timeouts).sum();
    let total: Duration = outcomes.iter().map(|o| o.total).sum();
    let worst = outcomes.iter().map(|o| o.worst).max().unwrap_or_default();
    println!(
        "{sessions} sessions, {secs} s, depth {depth}: {answered} moves answered, {timeouts} timeouts, \
         mean answer {:.0} ms, worst {:.0} ms",
        total.as_secs_f64() * 1000.0 / f64::from(answered.max(1)),
        worst.as_secs_f64() * 1000.0
    );
    println!(
        "server RSS: {} MiB idle, {} MiB near the end, {} MiB peak",
        idle_rss / 1024,
        busy_rss / 1024,
        peak_rss / 1024
    );
    for (i, o) in outcomes.iter().enumerate() {
        println!(
            "session {i:2}: {} answered, {} timeouts{}",
            o.answered,
            o.timeouts,
            o.error
                .as_deref()
                .map(|e| format!(", error: {e}"))
                .unwrap_or_default()
        );
    }
    drop(server);
    drop(dir);
    assert!(
        outcomes.iter().all(|o| o.error.is_none() && o.answered > 0),
        "every session answered"
    );
}
