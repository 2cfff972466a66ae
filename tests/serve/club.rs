//! The club over SSH with the russh client: rooms by name, the lobby, seeks and challenges,
//! clocks, offers, leaving and coming back, chat, and what the database keeps.

use crate::common;

use std::net::SocketAddr;

use common::TempDir;
use common::ssh::{SshClient, TestServer, config, new_key};
use ox88::club::{SqliteStore, Store};
use ox88::serve::{Access, player_id};
use russh::keys::PrivateKey;

const COLS: u16 = 120;
const ROWS: u16 = 40;

/// `name` logs in with `key` and joins `room` (`ssh -t HOST ROOM`), or the lobby.
async fn enter(addr: SocketAddr, name: &str, key: &PrivateKey, room: Option<&str>) -> SshClient {
    let (mut c, ok) = SshClient::login_as(addr, name, key).await;
    assert!(ok, "{name}'s key is let in");
    match room {
        Some(r) => c.open_room(COLS, ROWS, r.as_bytes()).await.unwrap(),
        None => c.open_shell(COLS, ROWS).await.unwrap(),
    }
    c
}

struct Club {
    dir: TempDir,
    keys: Vec<PrivateKey>,
    server: TestServer,
}

impl Club {
    async fn start(tag: &str, players: usize) -> Club {
        let dir = TempDir::new(tag);
        let keys: Vec<PrivateKey> = (0..players).map(|_| new_key()).collect();
        let server = Club::serve(&dir, &keys).await;
        Club { dir, keys, server }
    }

    async fn serve(dir: &TempDir, keys: &[PrivateKey]) -> TestServer {
        let listed = keys.iter().map(|k| k.public_key().clone()).collect();
        TestServer::start(config(dir.path(), Access::keys(listed))).await
    }

    fn addr(&self) -> SocketAddr {
        self.server.addr()
    }

    fn store(&self) -> SqliteStore {
        SqliteStore::open(&self.dir.path().join("club.sqlite")).unwrap()
    }

    fn id(&self, n: usize) -> String {
        player_id(self.keys[n].public_key())
    }
}

async fn play(c: &mut SshClient, mv: &str) {
    c.send(&format!("{mv}\r")).await;
}

/// Waits until `c`'s status bar says this of its room (`you: White`, `ply 2 `, `watching`).
async fn shows(c: &mut SshClient, what: &str) {
    c.wait_for(what, |s| s.status().contains(what)).await;
}

/// `name` enters `room` and is seated (or watches) before anyone else comes: the seats go
/// in the order the server sees the joins.
async fn seated(
    addr: SocketAddr,
    name: &str,
    key: &PrivateKey,
    room: &str,
    role: &str,
) -> SshClient {
    let mut c = enter(addr, name, key, Some(room)).await;
    shows(&mut c, role).await;
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_play_a_room_to_mate_a_third_watches_and_the_database_keeps_it() {
    let club = Club::start("club-room", 3).await;
    let mut alice = enter(club.addr(), "alice", &club.keys[0], Some("den")).await;
    alice
        .wait_for("alice waiting in the room", |s| {
            s.text().contains("waiting for an opponent")
        })
        .await;
    let mut bob = seated(club.addr(), "bob", &club.keys[1], "den", "you: Black").await;
    let mut carol = seated(club.addr(), "carol", &club.keys[2], "den", "watching").await;
    for c in [&mut alice, &mut bob] {
        c.wait_for("both seated", |s| {
            s.text().contains("alice")
                && s.text().contains("bob")
                && !s.text().contains("waiting for an opponent")
        })
        .await;
    }
    let moves = [
        ("f2f3", "1. f3"),
        ("e7e5", "e5"),
        ("g2g4", "2. g4"),
        ("d8h4", "Qh4#"),
    ];
    for (i, (mv, shown)) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut alice } else { &mut bob };
        play(mover, mv).await;
        carol
            .wait_for(&format!("the watcher sees {shown}"), |s| {
                s.text().contains(shown)
            })
            .await;
        if i == 1 {
            // A watcher's move is refused, and nothing changes.
            play(&mut carol, "g2g4").await;
            carol
                .wait_for("the watcher's move refused", |s| {
                    s.message().contains("watch")
                })
                .await;
            // The wrong side's move too.
            play(&mut bob, "d7d5").await;
            bob.wait_for("out of turn refused", |s| s.message().contains("turn"))
                .await;
        }
    }
    for c in [&mut alice, &mut bob, &mut carol] {
        c.wait_for("0-1 on every screen", |s| s.text().contains("0-1"))
            .await;
    }
    // The server restarts: the game and the ratings are still there.
    let Club { dir, keys, server } = club;
    server.stop().await;
    let server = Club::serve(&dir, &keys).await;
    let club = Club { dir, keys, server };
    let store = club.store();
    let games = store.games_of(&club.id(0), 10).unwrap();
    assert_eq!(games.len(), 1, "{games:?}");
    let g = &games[0];
    assert_eq!(g.result.as_deref(), Some("0-1"));
    assert_eq!(
        (g.white_name.as_str(), g.black_name.as_str()),
        ("alice", "bob")
    );
    assert!(
        g.pgn.contains("Qh4#") && g.pgn.contains("[%clk"),
        "{}",
        g.pgn
    );
    assert!(g.pgn.contains("[Result \"0-1\"]"), "{}", g.pgn);
    let (a, b) = (
        store.rating(&club.id(0)).unwrap(),
        store.rating(&club.id(1)).unwrap(),
    );
    assert!(a.rating < 1500.0 && b.rating > 1500.0, "{a:?} {b:?}");
    assert_eq!(store.rating_history(&club.id(1)).unwrap().len(), 1);
    club.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_player_keeps_the_seat_and_chat_is_cleaned() {
    let club = Club::start("club-away", 3).await;
    let mut a = seated(club.addr(), "alice", &club.keys[0], "den", "you: White").await;
    let mut b = seated(club.addr(), "bob", &club.keys[1], "den", "you: Black").await;
    let mut w = seated(club.addr(), "carol", &club.keys[2], "den", "watching").await;
    play(&mut a, "e2e4").await;
    shows(&mut b, "ply 1 ").await;
    shows(&mut w, "ply 1 ").await;
    // Chat pasted with an escape sequence and a bidi override arrives cleaned: the
    // opponent's screen is not cleared, the text reads in order.
    a.send("'hi \x1b[200~\x1b[2J there \u{202e}rev\x1b[201~\r")
        .await;
    b.wait_for("the chat line", |s| {
        s.text().contains("alice: hi")
            && s.text().contains("there rev")
            && s.text().contains("Board")
    })
    .await;
    assert!(!b.screen().text().contains('\u{202e}'));
    // Nor does a player see the evaluation under the board (`E +0.20` at a line's start).
    let shows_e = |t: &str| t.contains("│E +") || t.contains("│E -");
    assert!(!shows_e(&b.screen().text()), "{}", b.screen().text());
    assert!(shows_e(&w.screen().text()), "a watcher does");
    // 10 kB of text is cut to a line. The watchers chat apart from the players during the
    // game: what the watcher (who sees the engine) says never reaches a player, nor the
    // players' lines the watcher.
    let long = "x".repeat(10_000);
    w.send(&format!("'{long}\r")).await;
    w.wait_for("the long line cut", |s| s.text().contains("carol: xxxx"))
        .await;
    assert!(!w.screen().text().contains(&"x".repeat(250)));
    assert!(
        !w.screen().text().contains("alice: hi"),
        "{}",
        w.screen().text()
    );
    b.send("'and you\r").await;
    a.wait_for("bob's line", |s| s.text().contains("bob: and you"))
        .await;
    assert!(
        !a.screen().text().contains("carol: x"),
        "{}",
        a.screen().text()
    );
    // Alice drops; bob sees it; alice comes back to the lobby address and is seated again.
    a.disconnect().await;
    b.wait_for("alice away", |s| s.text().contains("disconnected"))
        .await;
    let mut a = enter(club.addr(), "alice", &club.keys[0], None).await;
    a.wait_for("alice back in the room", |s| {
        s.status().contains("room den · ply 1 · you: White")
    })
    .await;
    b.wait_for("alice connected again", |s| {
        !s.text().contains("disconnected")
    })
    .await;
    play(&mut b, "e7e5").await;
    a.wait_for("the game goes on", |s| s.text().contains("e5"))
        .await;
    club.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_room_names_are_refused_with_a_message() {
    let club = Club::start("club-hostile", 1).await;
    for bad in [
        b"\x1b[2Jroom".as_slice(),
        b"a b".as_slice(),
        &[0xff, 0xfe, b'r'],
        "x".repeat(10_000).as_bytes(),
    ] {
        let (mut c, ok) = SshClient::login_as(club.addr(), "mallory", &club.keys[0]).await;
        assert!(ok);
        let _ = c.open_room(COLS, ROWS, bad).await;
        c.wait_for("the refusal", |s| s.text().contains("names a room"))
            .await;
        c.wait_closed("the channel closed").await;
    }
    // The server is still there for a good name.
    let mut c = enter(club.addr(), "mallory", &club.keys[0], Some("fine-room_1")).await;
    c.wait_for("the room", |s| s.text().contains("Room fine-room_1"))
        .await;
    club.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keys_puzzle_record_is_kept_in_the_database() {
    let club = Club::start("club-puzzle", 1).await;
    let mut a = enter(club.addr(), "alice", &club.keys[0], None).await;
    a.wait_for("the lobby", |s| s.text().contains("Lobby"))
        .await;
    a.send(":puzzle\r").await;
    a.wait_for("a puzzle", |s| s.message().contains("to play and win"))
        .await;
    // F2 plays the solution out: the puzzle counts as not solved, and is recorded.
    a.send("\x1bOQ").await;
    a.wait_for("the solution shown", |s| {
        s.message().contains("solution shown")
    })
    .await;
    // The puzzle took the lobby's place beside the board.
    assert!(
        !a.screen().text().contains("Lobby"),
        "{}",
        a.screen().text()
    );
    let store = club.store();
    let json = store
        .puzzle_record(&club.id(0))
        .unwrap()
        .expect("the record is in the database");
    let record: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        record["history"].as_array().map(Vec::len),
        Some(1),
        "{json}"
    );
    let player_dir = club.dir.path().join("players").join(club.id(0));
    assert!(
        !player_dir.join("puzzles.json").exists(),
        "no file beside it"
    );
    club.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_going_on_when_the_server_stops_goes_on_after_the_restart() {
    let club = Club::start("club-restart", 2).await;
    let mut a = seated(club.addr(), "alice", &club.keys[0], "den", "you: White").await;
    let mut b = seated(club.addr(), "bob", &club.keys[1], "den", "you: Black").await;
    play(&mut a, "e2e4").await;
    b.wait_for("the move", |s| s.status().contains("ply 1 "))
        .await;
    play(&mut b, "e7e5").await;
    a.wait_for("the reply", |s| s.status().contains("ply 2 "))
        .await;
    let Club { dir, keys, server } = club;
    server.stop().await;
    let stored = SqliteStore::open(&dir.path().join("club.sqlite"))
        .unwrap()
        .unfinished()
        .unwrap();
    assert_eq!(stored.len(), 1, "kept as unfinished: {stored:?}");
    assert!(stored[0].clocks_ms.is_some(), "with its clocks");
    let server = Club::serve(&dir, &keys).await;
    let club = Club { dir, keys, server };
    // Both come back to the lobby's address and are seated again; the game goes on.
    let mut a = enter(club.addr(), "alice", &club.keys[0], None).await;
    a.wait_for("alice seated again", |s| {
        s.status().contains("room den · ply 2 · you: White")
    })
    .await;
    let mut b = enter(club.addr(), "bob", &club.keys[1], None).await;
    b.wait_for("bob seated again", |s| {
        s.status().contains("room den · ply 2 · you: Black")
    })
    .await;
    play(&mut a, "g1f3").await;
    b.wait_for("the game goes on", |s| {
        s.status().contains("ply 3 ") && s.text().contains("Nf3")
    })
    .await;
    club.server.stop().await;
}

/// Waits (bounded) until `done` holds of the server: what its analyses count is set by the
/// sessions' threads a moment after their screens change.
async fn until(what: &str, done: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + common::WAIT;
    while !done() {
        assert!(tokio::time::Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// An iteration of the engine's search on a screen (the log pane's line: `d3/5 … pv e2e4`).
fn shows_iterations(s: &common::screen::Screen) -> bool {
    s.text().contains(" n/s E") && s.text().contains(" pv ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watchers_of_one_game_share_one_analysis_within_the_servers_cap() {
    let club = Club::start("club-analysis", 7).await;
    let addr = club.addr();
    let mut alice = seated(addr, "alice", &club.keys[0], "den", "you: White").await;
    let mut bob = seated(addr, "bob", &club.keys[1], "den", "you: Black").await;
    let mut carol = seated(addr, "carol", &club.keys[2], "den", "watching").await;
    let mut dave = seated(addr, "dave", &club.keys[3], "den", "watching").await;
    play(&mut alice, "f2f3").await;
    shows(&mut bob, "ply 1 ").await;
    play(&mut bob, "e7e5").await;
    for w in [&mut alice, &mut carol, &mut dave] {
        shows(w, "ply 2 ").await;
    }

    // Two watchers open the engine's panes: one analysis, both screens show its iterations.
    carol.send("\x16").await;
    carol
        .wait_for("carol's panes", |s| s.message().contains("engine's panes"))
        .await;
    dave.send("\x16").await;
    until("dave shares carol's analysis", || {
        club.server.analyses().watchers("den") == 2
    })
    .await;
    assert_eq!(club.server.analyses().running(), 1, "one engine for den");
    for w in [&mut carol, &mut dave] {
        w.wait_for("the shared search's iterations", shows_iterations)
            .await;
    }

    // A player never sees it, nor opens it.
    alice.send("\x16").await;
    alice
        .wait_for("alice refused", |s| s.message().contains("you are playing"))
        .await;
    for p in [&alice, &bob] {
        assert!(!shows_iterations(p.screen()), "{}", p.screen().text());
    }
    assert_eq!(club.server.analyses().running(), 1);

    // The position changes: the one search starts again on it, and both watchers see that
    // search (Black mates in one: only a search of the new position says `pv d8h4` first).
    play(&mut alice, "g2g4").await;
    for w in [&mut carol, &mut dave] {
        w.wait_for("the new position's search", |s| {
            s.text().contains(" pv d8h4")
        })
        .await;
    }
    assert_eq!(club.server.analyses().running(), 1);
    for p in [&alice, &bob] {
        assert!(!shows_iterations(p.screen()), "{}", p.screen().text());
    }

    // A watcher of another game, beyond `--analysis 1`, is told why.
    let _eve = seated(addr, "eve", &club.keys[4], "hall", "you: White").await;
    let _frank = seated(addr, "frank", &club.keys[5], "hall", "you: Black").await;
    let mut gus = seated(addr, "gus", &club.keys[6], "hall", "watching").await;
    gus.send("\x16").await;
    gus.wait_for("the cap's line", |s| {
        s.message().contains(
            "the engine is busy on 1 other game (the server runs at most 1 analysis); try later",
        )
    })
    .await;
    assert_eq!(club.server.analyses().running(), 1);
    assert_eq!(club.server.analyses().watchers("hall"), 0);

    // Closing the panes and leaving the room: the last one out stops the analysis, and the
    // slot is free for the other game.
    carol.send("\x16").await;
    until("carol gone from the analysis", || {
        club.server.analyses().watchers("den") == 1
    })
    .await;
    dave.send(":lobby\r").await;
    until("den's analysis stopped", || {
        club.server.analyses().running() == 0
    })
    .await;
    gus.send("\x16").await;
    until("hall analysed now", || {
        club.server.analyses().watchers("hall") == 1
    })
    .await;
    gus.wait_for("hall's iterations", shows_iterations).await;
    assert_eq!(club.server.analyses().running(), 1);
    club.server.stop().await;
}

/// The text of the study panel's `Line:` row on a screen (`1. f3 e5 2. g4`), if shown.
fn study_line(s: &common::screen::Screen) -> Option<String> {
    s.rows().iter().find_map(|r| {
        let (_, line) = r.split_once("│Line: ")?;
        Some(line.trim_end_matches(['│', ' ']).trim().to_string())
    })
}

/// The pieces on the board pane, rank 8 to rank 1: each rank's row with every cell that is
/// not a piece (a square, a typed move's mark) blanked, so that two screens compare.
fn board_pieces(s: &common::screen::Screen) -> Vec<String> {
    let pieces: Vec<String> = s
        .rows()
        .iter()
        .filter_map(|r| {
            // The board pane is the first one: its inside lies between its first two `│`.
            let inside = r.split('│').nth(1)?;
            let mut head = inside.chars();
            let rank = head.next().filter(|c| ('1'..='8').contains(c))?;
            head.next().filter(|&c| c == ' ')?;
            let cells: String = inside
                .chars()
                .skip(1)
                .map(|c| {
                    if "♔♕♖♗♘♙♚♛♜♝♞♟".contains(c) {
                        c
                    } else {
                        ' '
                    }
                })
                .collect();
            Some(format!("{rank}{}", cells.trim_end()))
        })
        .collect();
    assert_eq!(pieces.len(), 8, "a board on the screen:\n{}", s.text());
    pieces
}

/// The log pane's newest iteration of a search as a screen shows it, from its depth to its
/// speed (`d5/5 0.002s 155 n 76,260 n/s`; the time of day before it is each screen's own),
/// and the PV's first move: only the one search that made it reports the same speed on two
/// screens.
fn last_iteration(s: &common::screen::Screen) -> Option<(String, String)> {
    s.rows().iter().rev().find_map(|r| {
        let log = r.split('│').nth(3)?;
        let (head, rest) = log.split_once(" n/s E")?;
        let pv = rest.split_once(" pv ")?.1.split_whitespace().next()?;
        let (_, search) = head.trim().split_once(' ')?;
        Some((format!("{search} n/s"), pv.to_string()))
    })
}

/// A study over SSH: the owner moves and a member who joins later sees the same line and
/// board; their engine's panes show one analysis of the study (one search, two watchers),
/// the same iterations on both screens, of the position the owner moved to; the member's
/// move is refused with the owner's name, and nothing changes on either screen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_in_a_study_see_the_owners_move_and_one_shared_search() {
    let club = Club::start("club-study", 2).await;
    let addr = club.addr();
    let mut alice = enter(addr, "alice", &club.keys[0], None).await;
    alice
        .wait_for("alice's lobby", |s| s.text().contains("Lobby"))
        .await;
    alice.send(":study ruy\r").await;
    shows(&mut alice, "study ruy: you move").await;
    play(&mut alice, "f3").await;
    play(&mut alice, "e5").await;
    alice
        .wait_for("alice's line", |s| {
            study_line(s).as_deref() == Some("1. f3 e5")
        })
        .await;

    let mut bob = enter(addr, "bob", &club.keys[1], None).await;
    bob.wait_for("bob's lobby", |s| s.text().contains("Lobby"))
        .await;
    bob.send(":study ruy\r").await;
    shows(&mut bob, "study ruy: following").await;
    bob.wait_for("bob on the room's line", |s| {
        study_line(s).as_deref() == Some("1. f3 e5")
    })
    .await;
    let key = "study:ruy";
    until("bob shares alice's analysis", || {
        club.server.analyses().watchers(key) == 2
    })
    .await;
    assert_eq!(club.server.analyses().running(), 1, "one engine for ruy");

    // The owner's move: the same line and board on both screens, and both engines' panes
    // on one search of the new position (Black mates in one: only a search of it says
    // `pv d8h4` first).
    play(&mut alice, "g4").await;
    for c in [&mut alice, &mut bob] {
        c.wait_for("2. g4 and its search", |s| {
            study_line(s).as_deref() == Some("1. f3 e5 2. g4")
                && s.text().contains("1.f3 e5 2.g4")
                && s.text().contains("Black to move")
                && s.text().contains(" pv d8h4")
        })
        .await;
    }
    let after_g4 = board_pieces(alice.screen());
    assert_eq!(board_pieces(bob.screen()), after_g4);
    let pawns = |rank: &str| rank.chars().filter(|&c| c == '♟').count();
    assert_eq!(
        [5, 4, 3].map(|r| pawns(&after_g4[8 - r])),
        [1, 1, 1],
        "e5, g4 and f3: {after_g4:?}"
    );
    assert_eq!(club.server.analyses().watchers(key), 2);
    assert_eq!(club.server.analyses().running(), 1, "still one engine");
    // Both screens show the same iterations of that search: the same depth, nodes and
    // speed (two engines of their own would not agree on the speed).
    let deadline = tokio::time::Instant::now() + common::WAIT;
    loop {
        let (a, b) = (last_iteration(alice.screen()), last_iteration(bob.screen()));
        if let Some((_, pv)) = a.as_ref().filter(|_| a == b) {
            assert_eq!(pv, "d8h4");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the same iteration on both screens: {a:?} and {b:?}"
        );
        for c in [&mut alice, &mut bob] {
            let soon = tokio::time::Instant::now() + std::time::Duration::from_millis(100);
            c.read_until(soon, |_| false).await;
        }
    }

    // Bob has no right to move: refused, told who may, and nothing moves.
    bob.send("Qh4\r").await;
    bob.wait_for("bob refused", |s| {
        s.message()
            .contains("only alice and those given the right may move here")
    })
    .await;
    // A moment for a move that should not come to reach either screen.
    for c in [&mut alice, &mut bob] {
        let soon = tokio::time::Instant::now() + std::time::Duration::from_millis(300);
        c.read_until(soon, |_| false).await;
        assert_eq!(board_pieces(c.screen()), after_g4, "{}", c.screen().text());
        assert_eq!(study_line(c.screen()).as_deref(), Some("1. f3 e5 2. g4"));
        assert!(c.screen().text().contains("Black to move"));
        assert!(
            !c.screen().text().contains("g4 Qh4"),
            "{}",
            c.screen().text()
        );
    }
    assert_eq!(club.server.analyses().running(), 1);
    club.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_restart_seats_no_new_visitor_in_an_old_game() {
    let dir = TempDir::new("club-open-restart");
    let open = || config(dir.path(), Access::Open);
    let server = TestServer::start(open()).await;
    let mut v1 = enter(server.addr(), "v1", &new_key(), Some("den")).await;
    shows(&mut v1, "you: White").await;
    let mut v2 = enter(server.addr(), "v2", &new_key(), Some("den")).await;
    shows(&mut v2, "you: Black").await;
    play(&mut v1, "e2e4").await;
    shows(&mut v2, "ply 1 ").await;
    server.stop().await;
    let db = dir.path().join("club.sqlite");
    let store = SqliteStore::open(&db).unwrap();
    assert!(
        store.unfinished().unwrap().is_empty(),
        "the visitors' game ended with them"
    );
    // A visitors' game left going on, under the ids every run used to start again from.
    let old = ox88::club::GameRecord {
        id: "den-old".into(),
        room: "den".into(),
        white: "open:1".into(),
        black: "open:2".into(),
        white_name: "v1".into(),
        black_name: "v2".into(),
        pgn: "1. e4 e5 *".into(),
        result: None,
        termination: None,
        time_control: None,
        rated: false,
        clocks_ms: None,
    };
    store.save_game(&old).unwrap();
    drop(store);
    let server = TestServer::start(open()).await;
    let mut fresh = enter(server.addr(), "v3", &new_key(), None).await;
    fresh
        .wait_for("the lobby", |s| s.text().contains("Lobby — v3"))
        .await;
    assert!(
        !fresh.screen().status().contains("room den"),
        "{}",
        fresh.screen().status()
    );
    assert!(
        SqliteStore::open(&db)
            .unwrap()
            .unfinished()
            .unwrap()
            .is_empty()
    );
    // Room den is a new one: nobody's game in it.
    fresh.send(":join den\r").await;
    fresh
        .wait_for("a room of its own", |s| {
            s.status().contains("room den · ply 0 · you: White")
                && s.text().contains("waiting for an opponent")
        })
        .await;
    server.stop().await;
}

/// A club viewer's app (as `ox88 serve` builds one for a session), in room `room` or the
/// lobby.
fn viewer_app(
    club: &std::sync::Arc<ox88::club::Club>,
    id: &str,
    room: Option<&str>,
) -> ox88::tui::app::App {
    use common::app::{builder_with, test_settings};
    let member = ox88::club::Member {
        id: id.into(),
        name: id.into(),
        rated: false,
    };
    let viewer = club.connect(member, std::sync::Arc::new(|| {}));
    let opts = ox88::tui::Options::of(test_settings());
    let (builder, _) = builder_with(&opts, "default", ox88::tui::theme::ColorDepth::TrueColor);
    builder.club(viewer, room).build()
}

/// Alice's app in room `den` of `club` and Bob seated across from her (Alice White).
fn alice_and_bob_in_den(
    club: &std::sync::Arc<ox88::club::Club>,
) -> (ox88::tui::App, ox88::club::Viewer) {
    let mut alice = viewer_app(club, "alice", Some("den"));
    alice.on_club_change();
    let bob = club.connect(
        ox88::club::Member {
            id: "bob".into(),
            name: "bob".into(),
            rated: false,
        },
        std::sync::Arc::new(|| {}),
    );
    bob.join("den").unwrap();
    alice.on_club_change();
    (alice, bob)
}

#[test]
fn a_rematch_turns_the_board_for_the_new_colours() {
    use common::app::enter;
    use ox88::club::Action;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (mut alice, bob) = alice_and_bob_in_den(&club);
    assert!(
        !alice.screen().flipped(),
        "White sees the board from White's side"
    );
    enter(&mut alice, "e4");
    bob.act(Action::Resign).unwrap();
    bob.act(Action::Rematch).unwrap();
    alice.on_club_change();
    enter(&mut alice, ":rematch");
    alice.on_club_change();
    let (_, role) = alice.club().room().unwrap();
    assert_eq!(*role, ox88::club::Role::Player(ox88::chess::Color::Black));
    assert!(
        alice.screen().flipped(),
        "Black in the rematch: the board turns"
    );
    // And back for the next one.
    enter(&mut alice, ":resign");
    enter(&mut alice, ":rematch");
    bob.act(Action::Rematch).unwrap();
    alice.on_club_change();
    assert!(
        !alice.screen().flipped(),
        "White again: the board turns back"
    );
}

#[test]
fn ctrl_g_and_games_in_a_room_say_what_they_do_there() {
    use common::app::{ctrl, enter, message_text};
    use ox88::club::Action;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (mut alice, bob) = alice_and_bob_in_den(&club);
    ctrl(&mut alice, 'g');
    let said = message_text(&alice);
    assert!(said.contains("you play your own moves"), "{said}");
    assert!(!said.contains("not in a room"), "{said}");
    let mut carol = viewer_app(&club, "carol", Some("den"));
    carol.on_club_change();
    ctrl(&mut carol, 'g');
    let said = message_text(&carol);
    assert!(said.contains("Ctrl+V"), "{said}");
    // A finished game is stored; :games lists it and says where the list is shown.
    enter(&mut alice, "e4");
    bob.act(Action::Resign).unwrap();
    alice.on_club_change();
    enter(&mut alice, ":games");
    let said = message_text(&alice);
    assert!(
        said.contains("1 games listed in the log, shown beside the engine's board: :lobby"),
        "{said}"
    );
}

#[test]
fn a_watchers_panes_show_the_shared_analysis_not_their_own_engines() {
    use common::app::{builder_with, ctrl, log_texts, message_text, test_settings};
    use ox88::club::analysis::{Analyses, Sink};
    use std::sync::{Arc, mpsc};
    use std::time::{Duration, Instant};
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (_alice, _bob) = alice_and_bob_in_den(&club);
    let analyses = Analyses::new(1, Box::new(|o| o.clone()));
    let (tx, rx) = mpsc::channel();
    let sink: Sink = Arc::new(move |ev| {
        let _ = tx.send(ev);
    });
    let carol = club.connect(
        ox88::club::Member {
            id: "carol".into(),
            name: "carol".into(),
            rated: false,
        },
        Arc::new(|| {}),
    );
    let opts = ox88::tui::Options::of(test_settings());
    let (builder, calls) = builder_with(&opts, "default", ox88::tui::theme::ColorDepth::TrueColor);
    let mut carol = builder
        .club(carol, Some("den"))
        .club_analyses(Arc::clone(&analyses), sink)
        .build();
    carol.on_club_change();
    ctrl(&mut carol, 'v');
    assert!(
        message_text(&carol).contains("engine's panes"),
        "{}",
        message_text(&carol)
    );
    assert_eq!(analyses.watchers("den"), 1);
    let until = Instant::now() + Duration::from_secs(60);
    while !log_texts(&carol).iter().any(|l| l.contains(" pv ")) {
        let ev = rx
            .recv_timeout(until.saturating_duration_since(Instant::now()))
            .expect("the shared analysis reports");
        carol.on_shared_analysis(ev);
    }
    assert!(calls.searches().is_empty(), "{:?}", calls.searches());
    ctrl(&mut carol, 'v');
    assert_eq!(analyses.running(), 0, "closed: the analysis stops");
}

#[test]
fn a_room_waiting_in_the_lobby_is_joined_and_a_failed_accept_stays_on_the_line() {
    use common::app::{enter, message_text, press, screen};
    use crossterm::event::KeyCode;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let mut alice = viewer_app(&club, "alice", Some("den"));
    alice.on_club_change();
    let mut bob = viewer_app(&club, "bob", None);
    bob.on_club_change();
    let shown = screen(&mut bob, 120, 40).join("\n");
    assert!(shown.contains("Waiting for an opponent"), "{shown}");
    assert!(shown.contains("den: alice (White)"), "{shown}");
    // A refused :accept stays on the input line, to be corrected.
    enter(&mut bob, ":accept 99");
    assert!(message_text(&bob).contains("no seek or challenge 99"));
    assert_eq!(bob.input().value(), ":accept 99");
    assert!(bob.input().is_refused());
    press(&mut bob, KeyCode::Esc);
    assert!(bob.input().is_empty());
    // Enter on the waiting room's row takes the free seat.
    press(&mut bob, KeyCode::Enter);
    bob.on_club_change();
    let (view, role) = bob.club().room().unwrap();
    assert_eq!(view.name, "den");
    assert_eq!(*role, ox88::club::Role::Player(ox88::chess::Color::Black));
}

#[test]
fn a_room_reads_commands_by_prefix_completes_them_and_says_where_the_rest_are_for() {
    use common::app::{enter, message_text, press, type_text};
    use crossterm::event::KeyCode;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (mut alice, _bob) = alice_and_bob_in_den(&club);
    enter(&mut alice, ":hint");
    assert_eq!(
        message_text(&alice),
        "you are playing: the engine stays out of sight until the game ends"
    );
    enter(&mut alice, ":new");
    assert!(
        message_text(&alice).starts_with(":new is not for a room's game"),
        "{}",
        message_text(&alice)
    );
    // The refused text is replaced by what is typed next; Tab offers the room's commands.
    type_text(&mut alice, ":tak");
    press(&mut alice, KeyCode::Tab);
    assert_eq!(alice.input().value(), ":takeback");
    let mut carol = viewer_app(&club, "carol", None);
    carol.on_club_change();
    type_text(&mut carol, ":chal a");
    press(&mut carol, KeyCode::Tab);
    assert_eq!(carol.input().value(), ":challenge alice");
}

#[test]
fn a_player_whose_game_goes_on_gets_no_engine_anywhere_in_the_club() {
    use common::app::{ctrl, enter, message_text};
    use ox88::club::Action;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (mut alice, bob) = alice_and_bob_in_den(&club);
    enter(&mut alice, "e4");
    bob.act(Action::Move("e5".into())).unwrap();
    alice.on_club_change();
    // Out to the lobby with her seat and clock kept: neither the engine game nor any
    // search of the position.
    enter(&mut alice, ":lobby");
    enter(&mut alice, ":play");
    let said = message_text(&alice);
    assert!(
        said.contains("not while your game in room den goes on"),
        "{said}"
    );
    enter(&mut alice, ":review");
    let said = message_text(&alice);
    assert!(
        said.contains("not while your game in room den goes on"),
        "{said}"
    );
    ctrl(&mut alice, 'g');
    assert!(
        alice.club().engine_allowed().is_err(),
        "the club refuses the engine to her"
    );
    // Once the game is over the engine is hers again.
    bob.act(Action::Resign).unwrap();
    alice.on_club_change();
    assert!(alice.club().engine_allowed().is_ok());
    enter(&mut alice, ":play");
    let said = message_text(&alice);
    assert!(said.contains("you play the engine"), "{said}");
}

#[test]
fn a_resume_prompt_waits_in_a_room_and_takes_no_key_of_its_game() {
    use common::app::{enter, message_text};
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (mut alice, bob) = alice_and_bob_in_den(&club);
    // An unfinished game against the engine, found when the session started.
    let mut old = ox88::game::Game::new();
    let d4 = old.board().parse_move("d4").unwrap();
    old.play(d4).unwrap();
    alice.offer_resume(old);
    enter(&mut alice, "e4");
    let (view, _) = bob.room(std::time::Instant::now()).unwrap();
    assert_eq!(view.game.sans(), ["e4"], "the key went to the room's game");
    assert!(alice.play().prompt().is_some(), "the question still waits");
    // Back in the lobby, the question is asked again, and answered there.
    enter(&mut alice, ":lobby");
    let said = message_text(&alice);
    assert!(said.contains("Unfinished game: y resumes it"), "{said}");
}

#[test]
fn a_long_lobby_scrolls_to_the_row_picked() {
    use common::app::{press, screen};
    use crossterm::event::KeyCode;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let seekers: Vec<ox88::club::Viewer> = (0..30)
        .map(|i| {
            let v = club.connect(
                ox88::club::Member {
                    id: format!("s{i}"),
                    name: format!("seeker{i:02}"),
                    rated: false,
                },
                Arc::new(|| {}),
            );
            v.seek(None, None, false).unwrap();
            v
        })
        .collect();
    let mut carol = viewer_app(&club, "carol", None);
    carol.on_club_change();
    // A seek's row (the online line names everyone too).
    let seek_row = |app: &mut ox88::tui::App, name: &str| {
        screen(app, 120, 30)
            .iter()
            .any(|l| l.contains(name) && l.contains("casual"))
    };
    assert!(seek_row(&mut carol, "seeker00"));
    assert!(
        !seek_row(&mut carol, "seeker29"),
        "too many to show at once"
    );
    for _ in 0..29 {
        press(&mut carol, KeyCode::Down);
    }
    let text = screen(&mut carol, 120, 30).join("\n");
    assert!(
        text.contains("▶"),
        "the picked row is on the screen:\n{text}"
    );
    assert!(seek_row(&mut carol, "seeker29"), "{text}");
    drop(seekers);
}

#[test]
fn stored_games_are_numbered_with_dates_and_one_is_shown_as_pgn() {
    use common::app::{enter, log_texts, message_text};
    use ox88::club::Action;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (mut alice, bob) = alice_and_bob_in_den(&club);
    enter(&mut alice, "e4");
    bob.act(Action::Resign).unwrap();
    alice.on_club_change();
    enter(&mut alice, ":games");
    let date = chrono::Utc::now().format("%Y.%m.%d").to_string();
    let log = log_texts(&alice);
    assert!(
        log.iter()
            .any(|l| l.starts_with(" 1. ") && l.contains(&date) && l.contains("alice – bob 1-0")),
        "{log:?}"
    );
    enter(&mut alice, ":pgn 1");
    assert!(message_text(&alice).contains("game 1's PGN is in the log"));
    let log = log_texts(&alice);
    assert!(log.iter().any(|l| l == "[White \"alice\"]"), "{log:?}");
    assert!(log.iter().any(|l| l.starts_with("1. e4")), "{log:?}");
    enter(&mut alice, ":pgn 2");
    assert!(message_text(&alice).contains("no stored game 2"));
    // :open puts the stored game on her own board, to step through and review.
    enter(&mut alice, ":open 1");
    assert!(
        message_text(&alice).contains("stored game 1 on your board"),
        "{}",
        message_text(&alice)
    );
    assert_eq!(alice.game().len(), 1);
    assert_eq!(alice.game().tags.white, "alice");
    enter(&mut alice, ":open 2");
    assert!(message_text(&alice).contains("no stored game 2"));
    assert_eq!(
        alice.game().len(),
        1,
        "a refused :open keeps the board as it was"
    );
}

#[test]
fn the_members_list_shows_ratings_and_a_members_history() {
    use common::app::{enter, log_texts, message_text};
    use ox88::club::{Action, Member};
    use std::sync::Arc;
    use std::time::Duration;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let rated = |id: &str| Member {
        id: id.into(),
        name: id.into(),
        rated: true,
    };
    let alice = club.connect(rated("alice"), Arc::new(|| {}));
    let bob = club.connect(rated("bob"), Arc::new(|| {}));
    alice.join("den").unwrap();
    bob.join("den").unwrap();
    alice.act(Action::Move("e4".into())).unwrap();
    bob.act(Action::Resign).unwrap();
    assert!(club.flush(Duration::from_secs(10)));
    let mut carol = viewer_app(&club, "carol", None);
    enter(&mut carol, ":members");
    assert!(
        message_text(&carol).contains("2 members in the log"),
        "{}",
        message_text(&carol)
    );
    let log = log_texts(&carol);
    let first = log
        .iter()
        .position(|l| l.starts_with("  1. alice "))
        .expect("alice first");
    assert!(log[first].ends_with("(1 rated games)"), "{log:?}");
    assert!(log[first + 1].starts_with("  2. bob "), "{log:?}");
    enter(&mut carol, ":members ALICE");
    assert!(message_text(&carol).contains("alice's rating:"));
    let after = club.store().rating("alice").unwrap().rating.round();
    let log = log_texts(&carol);
    assert!(
        log.iter()
            .any(|l| l.starts_with(&format!("{after:.0} after den-"))),
        "{log:?}"
    );
}

#[test]
fn a_finished_games_panes_give_the_analysis_slot_back() {
    use common::app::{builder_with, ctrl, test_settings};
    use ox88::club::Action;
    use ox88::club::analysis::{Analyses, Sink};
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let (mut alice, bob) = alice_and_bob_in_den(&club);
    let analyses = Analyses::new(1, Box::new(|o| o.clone()));
    let sink: Sink = Arc::new(|_| {});
    let carol = club.connect(
        ox88::club::Member {
            id: "carol".into(),
            name: "carol".into(),
            rated: false,
        },
        Arc::new(|| {}),
    );
    let opts = ox88::tui::Options::of(test_settings());
    let (builder, _) = builder_with(&opts, "default", ox88::tui::theme::ColorDepth::TrueColor);
    let mut carol = builder
        .club(carol, Some("den"))
        .club_analyses(Arc::clone(&analyses), sink)
        .build();
    carol.on_club_change();
    common::app::enter(&mut alice, "e4");
    carol.on_club_change();
    ctrl(&mut carol, 'v');
    assert_eq!(
        analyses.running(),
        1,
        "the game is analysed for its watcher"
    );
    bob.act(Action::Resign).unwrap();
    carol.on_club_change();
    assert!(
        carol.club().engine_open(),
        "the panes stay open on the finished game"
    );
    assert_eq!(
        analyses.running(),
        0,
        "and the server's analysis slot is free"
    );
}

/// With one search at a time on the server: a second session's search waits, its status
/// line says so, and it starts once the first session's search is stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_sessions_search_waits_for_the_engine_budget_and_says_queued() {
    let dir = TempDir::new("club-budget");
    let keys = [new_key(), new_key()];
    let listed = keys.iter().map(|k| k.public_key().clone()).collect();
    let mut cfg = config(dir.path(), Access::keys(listed));
    cfg.club.engine_threads = Some(1);
    let server = TestServer::start(cfg).await;
    let mut alice = enter(server.addr(), "alice", &keys[0], None).await;
    let mut bob = enter(server.addr(), "bob", &keys[1], None).await;
    alice.send(":lab 40\r").await;
    alice
        .wait_for("alice's lab running", |s| {
            s.text().contains("lab: depth 40")
        })
        .await;
    bob.send(":lab 30\r").await;
    bob.wait_for("bob's lab queued", |s| {
        s.message().contains("queued: 0 ahead")
    })
    .await;
    assert!(
        !bob.screen().text().contains("lab: depth 30"),
        "bob's lab waits"
    );
    // Alice stops her lab (Esc): her share goes to bob, whose lab starts.
    alice.send("\x1b").await;
    bob.wait_for("bob's lab started", |s| s.text().contains("lab: depth 30"))
        .await;
    bob.send("\x1b").await;
    server.stop().await;
}

/// `ox88 club ORDER NAME --db DB`, as the operator types it beside the running server:
/// what it printed.
async fn operator(db: std::path::PathBuf, order: &'static str, name: &'static str) -> String {
    tokio::task::spawn_blocking(move || {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
            .args(["club", "--db"])
            .arg(&db)
            .args([order, name])
            .output()
            .expect("ox88 runs");
        let said = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "ox88 club {order} {name}: {said}");
        said
    })
    .await
    .unwrap()
}

/// The operator's tools on a running server: a kick closes the member's session, saying
/// so, and the member comes back; a ban closes it and refuses the next login with a
/// message, until `unban`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_kicks_and_bans_a_member_on_the_running_server() {
    let club = Club::start("club-operator", 2).await;
    let db = club.dir.path().join("club.sqlite");
    let mut alice = enter(club.addr(), "alice", &club.keys[0], None).await;
    let mut bob = enter(club.addr(), "bob", &club.keys[1], None).await;
    alice
        .wait_for("alice in the lobby", |s| s.text().contains("Lobby —"))
        .await;

    let said = operator(db.clone(), "kick", "bob").await;
    assert!(said.contains("bob's sessions close"), "{said}");
    bob.wait_for("bob told he was kicked", |s| {
        s.text().contains("operator closed this session")
    })
    .await;
    bob.wait_closed("bob's session closed").await;
    // A kick is once: bob comes back.
    let mut bob = enter(club.addr(), "bob", &club.keys[1], None).await;
    bob.wait_for("bob back in the lobby", |s| s.text().contains("Lobby —"))
        .await;

    let said = operator(db.clone(), "ban", "alice").await;
    assert!(said.contains("alice is banned"), "{said}");
    alice
        .wait_for("alice told she is banned", |s| s.text().contains("banned"))
        .await;
    alice.wait_closed("alice's session closed").await;
    // Her key is refused with the reason, on her own terminal.
    let (mut again, ok) = SshClient::login_as(club.addr(), "alice", &club.keys[0]).await;
    assert!(ok, "the key is let in only to hear why");
    let _ = again.open_shell(COLS, ROWS).await;
    again
        .wait_for("the ban said at login", |s| {
            s.text().contains("banned from the club")
        })
        .await;
    again.wait_closed("the refused session closed").await;
    // Bob, not banned, stays.
    assert!(!bob.closed(), "bob's session goes on");

    let said = operator(db.clone(), "unban", "alice").await;
    assert!(said.contains("alice may log in again"), "{said}");
    let mut alice = enter(club.addr(), "alice", &club.keys[0], None).await;
    alice
        .wait_for("alice back", |s| s.text().contains("Lobby —"))
        .await;
    club.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_challenges_a_bot_and_sees_its_reply_on_the_screen() {
    let dir = TempDir::new("club-bot");
    let key = new_key();
    let listed = Access::keys(vec![key.public_key().clone()]);
    let server = TestServer::start(ox88::serve::ServeConfig {
        bots: vec![1200],
        ..config(dir.path(), listed)
    })
    .await;
    let mut alice = enter(server.addr(), "alice", &key, None).await;
    alice
        .wait_for("the bot online and its seek, marked as a bot", |s| {
            s.text().contains("ox88-1200 [bot]") && s.text().contains("5+3")
        })
        .await;
    alice.send(":challenge ox88-1200 5+0\r").await;
    shows(&mut alice, "you: White").await;
    alice
        .wait_for("the bot seated, marked", |s| {
            s.text().contains("ox88-1200 [bot] (1500)")
        })
        .await;
    play(&mut alice, "e2e4").await;
    alice
        .wait_for("the bot's reply", |s| s.status().contains("ply 2 "))
        .await;
    alice.send(":resign\r").await;
    alice
        .wait_for("the game over", |s| s.text().contains("0-1"))
        .await;
    // The operator's tools read the bot's games as anyone's, and refuse to ban it.
    let db = dir.path().join("club.sqlite");
    let club = move |args: &'static [&'static str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
            .args(["club", "--db"])
            .arg(&db)
            .args(args)
            .output()
            .expect("ox88 runs");
        let said = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), said)
    };
    let listed = tokio::task::spawn_blocking(move || {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let (ok, said) = club(&["games", "ox88-1200"]);
            if (ok && said.contains("alice – ox88-1200  0-1"))
                || std::time::Instant::now() > deadline
            {
                return (said, club(&["ban", "ox88-1200"]));
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    })
    .await
    .unwrap();
    let (games, (banned, why)) = listed;
    assert!(games.contains("alice – ox88-1200  0-1"), "{games}");
    assert!(!banned, "{why}");
    assert!(
        why.contains("ox88-1200 is the engine seated as a member"),
        "{why}"
    );
}

#[test]
fn the_lobby_lists_a_tournament_enter_joins_it_and_standings_go_to_the_log() {
    use common::app::{enter, log_texts, press, screen};
    use crossterm::event::KeyCode;
    use std::sync::Arc;
    let club = ox88::club::Club::new(Arc::new(SqliteStore::in_memory().unwrap())).unwrap();
    let organiser = club.connect(
        ox88::club::Member {
            id: "olga".into(),
            name: "olga".into(),
            rated: true,
        },
        Arc::new(|| {}),
    );
    let id = organiser.tournament_create("arena 3+0 30m in 10m").unwrap();
    let mut alice = viewer_app(&club, "alice", None);
    alice.on_club_change();
    let shown = screen(&mut alice, 120, 40).join("\n");
    assert!(shown.contains("Tournaments"), "{shown}");
    assert!(
        shown.contains(&format!(
            "{id}  arena 3+0 30m rated in 10m by olga  0 players  starts in"
        )),
        "{shown}"
    );
    // The tournament is the only row: Enter joins it.
    press(&mut alice, KeyCode::Enter);
    alice.on_club_change();
    assert!(
        log_texts(&alice)
            .iter()
            .any(|t| t.contains(&format!("you joined tournament {id}"))),
        "{:?}",
        log_texts(&alice)
    );
    let shown = screen(&mut alice, 120, 40).join("\n");
    assert!(shown.contains("1 players"), "{shown}");
    enter(&mut alice, ":standings");
    let log = log_texts(&alice).join("\n");
    assert!(
        log.contains(&format!("tournament {id}: arena 3+0 30m")),
        "{log}"
    );
    assert!(log.contains("alice"), "{log}");
    // A tournament that cannot be made says why.
    enter(&mut alice, ":tournament swiss 3+0 0 rounds");
    let (_, said) = common::app::message(&alice);
    assert!(said.contains("1 to 15"), "{said}");
}
