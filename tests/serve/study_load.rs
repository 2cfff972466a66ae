//! A study under load, against the real `ox88 serve` binary on loopback: one owner and the
//! members with keys in one study, the owner playing a 60-move game into it at one move a
//! second while everyone follows the shared cursor, every screen with the engine's panes
//! open on the study's one shared analysis (as a study opens them). For each move, the time
//! from the owner sending it to its showing on a member's screen: over the moves, the
//! median and p99 of the slowest member's time, and over every (member, move) pair. Prints
//! the server's processor time and peak memory. A benchmark, not a test: ignored.
//! `cargo test --release --test serve study_load -- --ignored --nocapture`;
//! `OX88_STUDY_MEMBERS` (30, the owner one of them), `OX88_STUDY_PLIES` (120) and
//! `OX88_STUDY_SECS_PER_MOVE` (in milliseconds: 1000) change it.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::TempDir;
use common::screen::Screen;
use common::served::{Served, cpu_secs_of, env_or, member_in, print_processor, spread_ms};
use common::ssh::SshClient;
use ox88::chess::Board;
use tokio::time::Instant;

/// The game the owner plays: ox88 against itself at depth 8 from the start (`ox88 uci`,
/// `go depth 8` each move), 130 plies with no end on the board, in coordinates.
const GAME: &str = "d2d4 g8f6 c1f4 e7e6 e2e3 d7d5 g1f3 f8d6 f4g3 h7h5 g3h4 d8d7 b1d2 e8f8 \
    f1d3 c7c5 d4c5 d6c5 e1g1 c5e7 c2c4 b8c6 d1e2 f6g4 c4d5 e6d5 h4e7 d7e7 e3e4 d5e4 d2e4 g4e5 \
    f3e5 c6e5 a1d1 e5c6 d3b1 c8f5 f1e1 f8g8 e2b5 f5e4 b1e4 e7c7 h2h3 h8h6 e4b1 a8b8 b2b4 b8f8 \
    b5f5 c6b4 d1d7 c7c4 f5e4 c4e4 b1e4 h6e6 a2a3 b4a6 f2f3 a6c5 d7c7 c5e4 f3e4 e6a6 c7b7 a6a3 \
    e1d1 a7a5 g1h2 a5a4 b7a7 a3a2 e4e5 a4a3 h2g3 f8c8 d1d3 c8c5 a7a3 a2a3 d3a3 c5e5 a3a7 e5c5 \
    g3h4 g7g6 g2g4 h5g4 h4g4 g8g7 g4g3 c5g5 g3h2 g5b5 h2g2 b5b2 g2g3 b2b3 g3g2 b3c3 a7a2 g7h6 \
    a2a8 h6g5 a8d8 c3c5 g2g3 c5c3 g3g2 f7f5 d8d6 g5h5 d6d8 c3a3 d8d2 h5h4 d2d4 h4h5 d4d8 a3c3 \
    g2h2 h5g5 d8g8 c3c4 h2g2 c4c2 g2f3 c2c3";

/// The first `plies` moves of [`GAME`] in SAN, as the owner types them and the board's
/// move list shows them.
fn game_sans(plies: usize) -> Vec<String> {
    let mut board = Board::startpos();
    let moves: Vec<&str> = GAME.split_whitespace().collect();
    assert!(plies <= moves.len(), "the game has {} plies", moves.len());
    moves[..plies]
        .iter()
        .map(|uci| {
            let mv = board.parse_uci_move(uci).expect("a legal move");
            let san = board.san(mv);
            board.play(mv).unwrap();
            san
        })
        .collect()
}

/// How many plies of `sans` the board pane's move list shows: read from its last tokens
/// (`31.Kg2`, or `31.Kg2 Rf8`), whose move number makes them the game's only such tail;
/// `Some(0)` before the first move, `None` where the list is not the game's.
fn shown_plies(s: &Screen, sans: &[String]) -> Option<usize> {
    let rows = s.rows();
    // The board pane is the first: its inside lies between its rows' first two `│`, down
    // to its bottom border; the moves follow its `Opening` row.
    let inside: Vec<&str> = rows
        .iter()
        .skip(1)
        .map_while(|r| r.strip_prefix('│')?.split('│').next())
        .collect();
    let opening = inside.iter().position(|r| r.starts_with("Opening "))?;
    let tokens: Vec<&str> = inside[opening + 1..]
        .iter()
        .flat_map(|r| r.split_whitespace())
        .collect();
    let Some((last, before)) = tokens.split_last() else {
        return Some(0);
    };
    let white = |t: &str| -> Option<(usize, String)> {
        let (n, san) = t.split_once('.')?;
        Some((n.parse().ok()?, san.to_string()))
    };
    let ply = match white(last) {
        Some((n, san)) => (2 * n - 1, vec![san]),
        None => {
            let (n, wsan) = white(before.last()?)?;
            (2 * n, vec![wsan, last.to_string()])
        }
    };
    let (ply, tail) = ply;
    (ply <= sans.len() && sans[ply - tail.len()..ply] == tail[..]).then_some(ply)
}

/// When each ply was sent (ply 1 first), set by the owner before it types the move.
type Sent = Arc<Mutex<Vec<Option<Instant>>>>;

/// What one member saw: for each ply, how long after its sending it showed; whether its
/// engine's panes were on the study's analysis at the end (the status bar's `analysing`).
struct Seen {
    shown: Vec<Option<Duration>>,
    analysing: bool,
    error: Option<String>,
}

impl Seen {
    fn new(plies: usize) -> Seen {
        Seen {
            shown: vec![None; plies],
            analysing: false,
            error: None,
        }
    }
}

/// Reads `c`'s screen until it shows `want` plies or `deadline` passes, timing each ply
/// it shows on the way (a ply drawn in the same frame as the next is timed with it).
/// Whether it got there.
async fn follow(
    c: &mut SshClient,
    sans: &[String],
    sent: &Sent,
    seen: &mut Seen,
    at: &mut usize,
    want: usize,
    deadline: Instant,
) -> bool {
    while *at < want {
        let now_at = *at;
        let ok = c
            .read_until(deadline, |s| {
                shown_plies(s, sans).is_some_and(|p| p > now_at)
            })
            .await;
        if !ok {
            return false;
        }
        let now = Instant::now();
        let p = shown_plies(c.screen(), sans).expect("checked above");
        let sent = sent.lock().unwrap();
        for ply in *at + 1..=p {
            seen.shown[ply - 1] = sent[ply - 1].map(|t| now - t);
        }
        *at = p;
    }
    true
}

/// A member other than the owner: follows the study's cursor to the last ply.
async fn member(mut c: SshClient, sans: Arc<Vec<String>>, sent: Sent, until: Instant) -> Seen {
    let mut seen = Seen::new(sans.len());
    let mut at = 0;
    if !follow(&mut c, &sans, &sent, &mut seen, &mut at, sans.len(), until).await {
        seen.error = Some(format!(
            "at ply {at} of {} when the run ended (closed: {}):\n{}",
            sans.len(),
            c.closed(),
            c.screen().text()
        ));
    }
    seen.analysing = analysing(&mut c).await;
    seen
}

/// Whether `c`'s status bar says its engine's panes analyse (read for a moment first: the
/// search of the last position starts just after it shows).
async fn analysing(c: &mut SshClient) -> bool {
    c.read_until(Instant::now() + Duration::from_secs(2), |s| {
        s.status().contains("analysing")
    })
    .await
}

/// The owner: types ply `i` at `start + i × period`, reading its own screen in between.
async fn owner(
    mut c: SshClient,
    sans: Arc<Vec<String>>,
    sent: Sent,
    start: Instant,
    period: Duration,
    until: Instant,
) -> Seen {
    let mut seen = Seen::new(sans.len());
    let mut at = 0;
    for (i, san) in sans.iter().enumerate() {
        tokio::time::sleep_until(start + period * i as u32).await;
        sent.lock().unwrap()[i] = Some(Instant::now());
        if !matches!(
            tokio::time::timeout(Duration::from_secs(5), c.try_send(&format!("{san}\r"))).await,
            Ok(Ok(()))
        ) {
            seen.error = Some(format!("the owner could not send ply {}", i + 1));
            return seen;
        }
        let next = start + period * (i as u32 + 1);
        follow(&mut c, &sans, &sent, &mut seen, &mut at, i + 1, next).await;
    }
    if !follow(&mut c, &sans, &sent, &mut seen, &mut at, sans.len(), until).await {
        seen.error = Some(format!(
            "the owner's screen at ply {at} of {}:\n{}",
            sans.len(),
            c.screen().text()
        ));
    }
    seen.analysing = analysing(&mut c).await;
    seen
}

#[test]
#[ignore = "two minutes of a study; run with --ignored --nocapture"]
fn a_study_of_thirty_members_follows_a_sixty_move_game() {
    let members = env_or("OX88_STUDY_MEMBERS", 30).max(1) as usize;
    let plies = env_or("OX88_STUDY_PLIES", 120) as usize;
    let period = Duration::from_millis(env_or("OX88_STUDY_SECS_PER_MOVE", 1000));
    let sans = Arc::new(game_sans(plies));
    let dir = TempDir::new("study-load");
    let (server, keys) = Served::start_keyed(dir.path(), members, &[]);
    let addr = server.addr.clone();
    let idle_rss = server.rss_kib().unwrap_or(0);
    let runtime = common::client_runtime();
    let sent: Sent = Arc::new(Mutex::new(vec![None; plies]));
    let outcome = runtime.block_on(async {
        // Everyone comes into the study first (the owner opens it); the run starts when
        // the owner's panel counts them all.
        let mut clients = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let mut c = member_in(&addr, i, key, 120, 40).await;
            let lobby = c
                .read_until(Instant::now() + Duration::from_secs(30), |s| {
                    s.text().contains("Lobby")
                })
                .await;
            assert!(lobby, "member {i}'s lobby:\n{}", c.screen().text());
            c.send(":study bench\r").await;
            let role = if i == 0 { "you move" } else { "following" };
            let joined = c
                .read_until(Instant::now() + Duration::from_secs(30), |s| {
                    s.status().contains(&format!("study bench: {role}"))
                })
                .await;
            assert!(joined, "member {i} in the study:\n{}", c.screen().text());
            clients.push(c);
        }
        let all_in = format!("In it ({members}): ");
        let counted = clients[0]
            .read_until(Instant::now() + Duration::from_secs(30), |s| {
                s.text().contains(&all_in)
            })
            .await;
        assert!(counted, "all in:\n{}", clients[0].screen().text());

        let cpu_before = server.cpu_secs().unwrap_or(0.0);
        let clients_before = cpu_secs_of("self").unwrap_or(0.0);
        let start = Instant::now() + Duration::from_millis(500);
        // The last move's time, then time for the slowest screen to catch up.
        let until = start + period * plies as u32 + Duration::from_secs(30);
        let mut clients = clients.into_iter();
        let first = clients.next().unwrap();
        let mut tasks = vec![tokio::spawn(owner(
            first,
            Arc::clone(&sans),
            Arc::clone(&sent),
            start,
            period,
            until,
        ))];
        for c in clients {
            tasks.push(tokio::spawn(member(
                c,
                Arc::clone(&sans),
                Arc::clone(&sent),
                until,
            )));
        }
        let mut peak = idle_rss;
        while tasks.iter().any(|t| !t.is_finished()) {
            peak = peak.max(server.rss_kib().unwrap_or(0));
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        let elapsed = start.elapsed();
        let cpu = server.cpu_secs().unwrap_or(0.0) - cpu_before;
        let clients_cpu = cpu_secs_of("self").unwrap_or(0.0) - clients_before;
        let mut seen = Vec::new();
        for t in tasks {
            seen.push(t.await.unwrap());
        }
        (seen, peak, elapsed, cpu, clients_cpu)
    });
    let (seen, peak_rss, elapsed, cpu, clients_cpu) = outcome;
    let panes = seen.iter().filter(|s| s.analysing).count();
    let mut problems: Vec<String> = seen
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.error.as_ref().map(|e| format!("member m{i}: {e}")))
        .collect();
    let mut slowest = Vec::new();
    let mut pairs = Vec::new();
    for ply in 0..plies {
        let times: Vec<Option<Duration>> = seen.iter().map(|s| s.shown[ply]).collect();
        pairs.extend(times.iter().flatten().copied());
        match times.iter().copied().collect::<Option<Vec<Duration>>>() {
            Some(all) => slowest.push(all.into_iter().max().unwrap()),
            None => problems.push(format!(
                "ply {} ({}) not seen on {} screens",
                ply + 1,
                sans[ply],
                times.iter().filter(|t| t.is_none()).count()
            )),
        }
    }
    let (slow_median, slow_p99, slow_worst) = spread_ms(&mut slowest);
    let (median, p99, worst) = spread_ms(&mut pairs);
    println!(
        "a study of {members} members (the owner one of them; {panes} with the engine's panes \
         on its shared analysis), {plies} plies at one every {} ms, {:.0} s:",
        period.as_millis(),
        elapsed.as_secs_f64()
    );
    println!(
        "from the owner's sending to the move on every member's screen (the slowest of the \
         {members}, {} moves): median {slow_median:.0} ms, p99 {slow_p99:.0} ms, worst \
         {slow_worst:.0} ms",
        slowest.len()
    );
    println!(
        "over every (member, move), {} pairs: median {median:.0} ms, p99 {p99:.0} ms, worst \
         {worst:.0} ms",
        pairs.len()
    );
    print_processor(cpu, elapsed, idle_rss, peak_rss, clients_cpu, "member");
    assert!(problems.is_empty(), "{problems:#?}");
}
