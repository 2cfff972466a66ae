//! Tournaments at the club's API, with the club's clock moved by hand: members create, join,
//! play (moves and resignations through their viewers), pause and leave; the tick pairs.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::*;
use crate::club::store::SqliteStore;

fn member(id: &str, name: &str) -> Member {
    Member {
        id: id.into(),
        name: name.into(),
        rated: true,
    }
}

/// A club whose clock is moved by hand: `(club, advance)`.
fn club_at(limits: Limits) -> (Arc<Club>, impl Fn(Duration)) {
    let store = Arc::new(SqliteStore::in_memory().expect("a database"));
    let now = Arc::new(Mutex::new(Instant::now()));
    let read = Arc::clone(&now);
    let clock: Clock = Arc::new(move || *read.lock().unwrap());
    let club = Club::with_clock(store, limits, clock).expect("a club");
    (club, move |d: Duration| *now.lock().unwrap() += d)
}

fn online(club: &Arc<Club>, names: &[&str]) -> Vec<Viewer> {
    names
        .iter()
        .map(|n| club.connect(member(n, n), Arc::new(|| {})))
        .collect()
}

/// The colour `v` plays in their room.
fn colour(club: &Club, v: &Viewer) -> Color {
    match v.room(club.now()) {
        Some((_, Role::Player(c))) => c,
        other => panic!("{} is not playing: {other:?}", v.name()),
    }
}

/// `a` and `b` as White and Black of the game they play.
fn sides<'v>(club: &Club, a: &'v Viewer, b: &'v Viewer) -> (&'v Viewer, &'v Viewer) {
    if colour(club, a) == Color::White {
        (a, b)
    } else {
        (b, a)
    }
}

/// `a` and `b` play `plies` of a quiet opening (no repetition), then `loser` resigns.
fn play_and_resign(club: &Club, a: &Viewer, b: &Viewer, plies: usize, loser: &Viewer) {
    const LINE: [&str; 16] = [
        "e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "c3", "Nf6", "d3", "d6", "O-O", "O-O", "a4", "a5",
        "h3", "h6",
    ];
    let (white, black) = sides(club, a, b);
    for (i, mv) in LINE.iter().take(plies).enumerate() {
        let who = if i % 2 == 0 { white } else { black };
        who.act(Action::Move(mv.to_string()))
            .unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    loser.act(Action::Resign).unwrap();
}

fn row<'a>(view: &'a TournamentView, name: &str) -> &'a StandingRow {
    view.standings
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{name} is not in {view:?}"))
}

#[test]
fn an_arena_scores_wins_fire_and_berserk_and_pairs_again_at_once() {
    let (club, _advance) = club_at(Limits::default());
    let v = online(&club, &["alice", "bob"]);
    let (alice, bob) = (&v[0], &v[1]);
    let tid = alice.tournament_create("arena 1+0 30m").unwrap();
    // The organiser is not entered until joining.
    assert_eq!(alice.tournament(Some(tid)).unwrap().standings.len(), 0);
    alice.tournament_join(None).unwrap();
    bob.tournament_join(Some(tid)).unwrap();
    club.tick(club.now());
    let first = alice.room_name().expect("paired on the tick after joining");
    assert_eq!(bob.room_name().as_deref(), Some(first.as_str()));
    let mut colours = vec![colour(&club, alice)];
    // A win: 2.
    play_and_resign(&club, alice, bob, 2, bob);
    club.tick(club.now());
    let second = alice.room_name().unwrap();
    assert_ne!(
        second, first,
        "paired again on the next tick, in a room of its own"
    );
    colours.push(colour(&club, alice));
    // Berserk before her first move, and a win of seven moves of hers: 2 + 1.
    let said = alice.berserk().unwrap();
    assert!(said.contains("half your clock"), "{said}");
    let (view, _) = alice.room(club.now()).unwrap();
    let mine = colour(&club, alice).index();
    assert_eq!(view.clocks.unwrap()[mine], Duration::from_secs(30));
    play_and_resign(&club, alice, bob, 14, bob);
    club.tick(club.now());
    colours.push(colour(&club, alice));
    // Two wins in a row: on fire, and the third scores double.
    let standings = alice.tournament(None).unwrap();
    assert!(row(&standings, "alice").fire);
    play_and_resign(&club, alice, bob, 2, bob);
    let standings = alice.tournament(None).unwrap();
    let a = row(&standings, "alice");
    assert_eq!(
        (a.rank, a.score.as_str(), a.sheet.as_str()),
        (1, "9", "432")
    );
    assert_eq!(row(&standings, "bob").sheet, "000");
    // Colours balanced: never the same three games running.
    assert!(
        colours.windows(3).all(|w| w[0] != w[1] || w[1] != w[2]),
        "{colours:?}"
    );
    // Berserk after one's first move is refused.
    club.tick(club.now());
    let (white, black) = if colour(&club, alice) == Color::White {
        (alice, bob)
    } else {
        (bob, alice)
    };
    white.act(Action::Move("e4".into())).unwrap();
    let err = white.berserk().unwrap_err().0;
    assert!(err.contains("too late"), "{err}");
    assert!(black.berserk().is_ok());
    assert!(
        white.act(Action::Abort).is_err(),
        "a tournament game is not aborted"
    );
}

#[test]
fn an_arena_player_who_does_not_move_loses_and_is_paused() {
    let (club, advance) = club_at(Limits::default());
    let v = online(&club, &["alice", "bob"]);
    let tid = v[0].tournament_create("arena 3+0 1h").unwrap();
    v[0].tournament_join(Some(tid)).unwrap();
    v[1].tournament_join(Some(tid)).unwrap();
    club.tick(club.now());
    let (white, black) = sides(&club, &v[0], &v[1]);
    advance(FORFEIT_AFTER - Duration::from_secs(1));
    club.tick(club.now());
    assert!(white.room_name().is_some(), "not yet");
    advance(Duration::from_secs(1));
    club.tick(club.now());
    assert_eq!(black.room_name(), None, "the room is closed");
    let view = black.tournament(Some(tid)).unwrap();
    assert_eq!(row(&view, &black.name()).score, "2", "{view:?}");
    assert!(
        row(&view, &white.name()).out,
        "the one who did not move is paused"
    );
    let told = white.take_notices().join("\n");
    assert!(told.contains("paused for not moving"), "{told}");
}

#[test]
fn two_who_just_played_wait_for_someone_else() {
    let (club, _advance) = club_at(Limits::default());
    let v = online(&club, &["alice", "bob", "carol"]);
    let tid = v[0].tournament_create("arena 3+0 1h").unwrap();
    v[0].tournament_join(Some(tid)).unwrap();
    v[1].tournament_join(Some(tid)).unwrap();
    club.tick(club.now());
    assert!(v[0].room_name().is_some() && v[1].room_name().is_some());
    v[2].tournament_join(Some(tid)).unwrap();
    club.tick(club.now());
    assert_eq!(v[2].room_name(), None, "carol waits: nobody else is free");
    play_and_resign(&club, &v[0], &v[1], 4, &v[1]);
    club.tick(club.now());
    let carols = v[2].room_name().expect("carol is paired once two are free");
    let with_carol = [&v[0], &v[1]]
        .iter()
        .filter(|p| p.room_name().as_deref() == Some(carols.as_str()))
        .count();
    assert_eq!(
        with_carol, 1,
        "carol plays one of them, not alice bob again"
    );
    // The pairings show who plays whom and where.
    let view = v[2].tournament(Some(tid)).unwrap();
    assert_eq!(view.pairings.len(), 1);
    assert_eq!(view.pairings[0].room, carols);
}

#[test]
fn a_paused_or_disconnected_player_is_not_paired_and_join_brings_them_back() {
    let (club, _advance) = club_at(Limits::default());
    let mut v = online(&club, &["alice", "bob", "carol"]);
    let tid = v[0].tournament_create("arena 3+0 1h").unwrap();
    for p in &v {
        p.tournament_join(Some(tid)).unwrap();
    }
    v[0].tournament_pause().unwrap();
    let carol = v.pop().unwrap();
    drop(carol);
    club.tick(club.now());
    assert_eq!(
        v[1].room_name(),
        None,
        "alice paused, carol gone: bob waits"
    );
    let view = v[1].tournament(Some(tid)).unwrap();
    assert!(row(&view, "alice").out && row(&view, "carol").out);
    assert!(v[1].in_tournament(), "a session waiting for a pairing");
    v[0].tournament_join(Some(tid)).unwrap();
    club.tick(club.now());
    assert!(v[0].room_name().is_some() && v[0].room_name() == v[1].room_name());
}

#[test]
fn an_arena_ends_at_its_time_and_a_game_running_then_does_not_count() {
    let (club, advance) = club_at(Limits::default());
    let v = online(&club, &["alice", "bob"]);
    let tid = v[0].tournament_create("arena 5+0 2m").unwrap();
    v[0].tournament_join(Some(tid)).unwrap();
    v[1].tournament_join(Some(tid)).unwrap();
    club.tick(club.now());
    play_and_resign(&club, &v[0], &v[1], 2, &v[1]);
    // Pairings close 30 s before the end: paired at once, the game outlasts the arena.
    club.tick(club.now());
    assert!(v[0].room_name().is_some());
    advance(Duration::from_secs(121));
    club.tick(club.now());
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(view.row.phase, Phase::Finished);
    v[0].act(Action::Move("e4".into())).ok();
    v[1].act(Action::Resign).ok();
    v[0].act(Action::Resign).ok();
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(
        row(&view, "alice").score,
        "2",
        "the late game does not count"
    );
    assert_eq!(view.podium[0].name, "alice");
    assert_eq!((view.podium[0].games, view.podium[0].wins), (1, 1));
    let told = v[1].take_notices().join("\n");
    assert!(
        told.contains(&format!("tournament {tid} is over")),
        "{told}"
    );
}

#[test]
fn a_swiss_runs_from_start_to_end_with_a_forfeit_and_a_withdrawal() {
    let (club, advance) = club_at(Limits::default());
    let mut v = online(&club, &["alice", "bob", "carol", "dave"]);
    let tid = v[0].tournament_create("swiss 5+3 3 rounds in 5m").unwrap();
    for p in &v {
        p.tournament_join(Some(tid)).unwrap();
    }
    let lobby = v[0].lobby(club.now());
    assert_eq!(lobby.tournaments[0].phase, Phase::Starting);
    assert_eq!(lobby.tournaments[0].players, 4);
    club.tick(club.now());
    assert_eq!(v[0].room_name(), None, "not before its start");
    advance(Duration::from_secs(300));
    club.tick(club.now());
    // Round 1: every game played; White wins each (Black resigns).
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(view.round, Some((1, 3)));
    assert_eq!(view.pairings.len(), 2);
    let by_room = |room: &str| -> Vec<usize> {
        (0..v.len())
            .filter(|&i| v[i].room_name().as_deref() == Some(room))
            .collect()
    };
    for p in &view.pairings {
        let two = by_room(&p.room);
        assert_eq!(two.len(), 2, "{p:?}");
        let black = two
            .iter()
            .copied()
            .find(|&i| colour(&club, &v[i]) == Color::Black)
            .unwrap();
        play_and_resign(&club, &v[two[0]], &v[two[1]], 2, &v[black]);
    }
    club.tick(club.now());
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(
        view.round,
        Some((2, 3)),
        "round 2 paired once round 1 ended"
    );
    let leaders: Vec<&str> = view
        .standings
        .iter()
        .filter(|r| r.score == "1")
        .map(|r| r.name.as_str())
        .collect();
    assert_eq!(leaders.len(), 2, "{view:?}");
    assert!(view.standings[0].tiebreaks.is_some());
    // Round 2: dave is gone and loses by forfeit; the other game is played.
    let dave = v.pop().unwrap();
    drop(dave);
    let dave_game = |view: &TournamentView| {
        view.pairings
            .iter()
            .find(|p| p.white == "dave" || p.black == "dave")
            .cloned()
            .unwrap()
    };
    let forfeit_round = |v: &Vec<Viewer>| {
        let view = v[0].tournament(Some(tid)).unwrap();
        let g = dave_game(&view);
        // The other game: its Black resigns.
        for p in view.pairings.iter().filter(|p| p.room != g.room) {
            let two = by_room_of(v, &p.room);
            let black = two
                .iter()
                .copied()
                .find(|&i| colour(&club, &v[i]) == Color::Black)
                .unwrap();
            play_and_resign(&club, &v[two[0]], &v[two[1]], 2, &v[black]);
        }
        // Dave's opponent moves first if White; dave never does.
        if g.black == "dave" {
            let w = by_room_of(v, &g.room)[0];
            v[w].act(Action::Move("e4".into())).unwrap();
            club.tick(club.now());
        }
        advance(FORFEIT_AFTER);
        club.tick(club.now());
        g
    };
    let g = forfeit_round(&v);
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(view.round, Some((3, 3)), "{view:?}");
    let opponent = if g.white == "dave" {
        &g.black
    } else {
        &g.white
    };
    assert!(row(&view, opponent).sheet.ends_with('+'), "{view:?}");
    assert!(row(&view, "dave").sheet.ends_with('-'));
    assert!(!row(&view, "dave").out, "one forfeit: still in");
    // Round 3: a second forfeit withdraws dave, and the last round ends the Swiss.
    forfeit_round(&v);
    let view = v[0].tournament(Some(tid)).unwrap();
    assert!(row(&view, "dave").out, "two forfeits: withdrawn");
    assert_eq!(view.row.phase, Phase::Finished, "{view:?}");
    assert_eq!(view.podium.len(), 3);
    assert_eq!(view.standings[0].name, view.podium[0].name);
    assert!(view.podium[0].performance.is_some());
}

/// Every game of `view`'s pairings: two plies, then Black resigns.
fn black_resigns_every_game(club: &Club, v: &[Viewer], view: &TournamentView) {
    for p in view.pairings.iter().filter(|p| p.result.is_none()) {
        let two = by_room_of(v, &p.room);
        let black = two
            .iter()
            .copied()
            .find(|&i| colour(club, &v[i]) == Color::Black)
            .unwrap();
        play_and_resign(club, &v[two[0]], &v[two[1]], 2, &v[black]);
    }
}

fn by_room_of(v: &[Viewer], room: &str) -> Vec<usize> {
    (0..v.len())
        .filter(|&i| v[i].room_name().as_deref() == Some(room))
        .collect()
}

#[test]
fn a_late_entrant_has_half_points_for_missed_rounds_until_half_are_played() {
    let (club, advance) = club_at(Limits::default());
    let v = online(&club, &["alice", "bob", "carol", "dave", "erin"]);
    let tid = v[0].tournament_create("swiss 3+0 4 rounds").unwrap();
    // Made to start at once with nobody in it: the first round waits for two players.
    let told = v[0].take_notices().join("\n");
    assert!(told.contains("waiting for players"), "{told}");
    v[0].tournament_join(Some(tid)).unwrap();
    v[1].tournament_join(Some(tid)).unwrap();
    advance(FIRST_ROUND_WAIT);
    club.tick(club.now());
    // Round 1 of 4 goes on: carol joins, sits it out with half a point.
    v[2].tournament_join(Some(tid)).unwrap();
    play_and_resign(&club, &v[0], &v[1], 2, &v[1]);
    club.tick(club.now());
    let view = v[2].tournament(Some(tid)).unwrap();
    assert_eq!(row(&view, "carol").score, "0.5", "{view:?}");
    assert_eq!(view.round, Some((2, 4)));
    // Round 2 started: half of four rounds; dave may still join, erin after it may not.
    v[3].tournament_join(Some(tid)).unwrap();
    let view = v[0].tournament(Some(tid)).unwrap();
    black_resigns_every_game(&club, &v, &view);
    club.tick(club.now());
    let err = v[4].tournament_join(Some(tid)).unwrap_err().0;
    assert!(err.contains("too late"), "{err}");
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(
        row(&view, "dave").score,
        "1",
        "two rounds missed: two halves"
    );
}

/// `every 10m`: round 2 is not paired when round 1 ends early, the lobby counts down to
/// it, and it is paired once its time comes.
#[test]
fn a_scheduled_swiss_round_waits_for_its_time() {
    let (club, advance) = club_at(Limits::default());
    let v = online(&club, &["alice", "bob", "carol", "dave"]);
    let tid = v[0]
        .tournament_create("swiss 3+0 3 rounds every 10m")
        .unwrap();
    for p in &v {
        p.tournament_join(Some(tid)).unwrap();
    }
    advance(FIRST_ROUND_WAIT);
    club.tick(club.now());
    let in_play =
        |view: &TournamentView| view.pairings.iter().filter(|p| p.result.is_none()).count();
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(in_play(&view), 2, "round 1");
    advance(Duration::from_secs(60));
    black_resigns_every_game(&club, &v, &view);
    club.tick(club.now());
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(in_play(&view), 0, "round 2 waits: {view}");
    assert_eq!(view.row.until, Some(Duration::from_secs(9 * 60)));
    assert!(view.to_string().contains("next round in 9:00"), "{view}");
    advance(Duration::from_secs(9 * 60 - 1));
    club.tick(club.now());
    assert_eq!(
        in_play(&v[0].tournament(Some(tid)).unwrap()),
        0,
        "not a second early"
    );
    advance(Duration::from_secs(1));
    club.tick(club.now());
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(in_play(&view), 2, "round 2 at its time: {view}");
}

#[test]
fn the_organiser_ends_it_and_the_limits_say_when_they_are_reached() {
    let limits = Limits {
        max_tournaments: 1,
        tournament_players: 2,
        ..Limits::default()
    };
    let (club, _advance) = club_at(limits);
    let v = online(&club, &["alice", "bob", "carol"]);
    let visitor = club.connect(
        Member {
            id: "open:x1".into(),
            name: "guest".into(),
            rated: false,
        },
        Arc::new(|| {}),
    );
    let err = visitor.tournament_create("arena 3+0 30m").unwrap_err().0;
    assert!(err.contains("members with a key"), "{err}");
    let err = v[0].tournament_create("arena 3+0").unwrap_err().0;
    assert!(err.contains("how long"), "{err}");
    let tid = v[0].tournament_create("arena 3+0 30m").unwrap();
    let err = v[1].tournament_create("swiss 3+0 3 rounds").unwrap_err().0;
    assert!(err.contains("as many tournaments as it may (1)"), "{err}");
    v[0].tournament_join(None).unwrap();
    v[1].tournament_join(None).unwrap();
    let err = v[2].tournament_join(None).unwrap_err().0;
    assert!(err.contains("as many players as it may (2)"), "{err}");
    let err = v[1].tournament_end(None).unwrap_err().0;
    assert!(err.contains("only its organiser, alice"), "{err}");
    v[0].tournament_end(Some(tid)).unwrap();
    let lobby = v[2].lobby(club.now());
    assert_eq!(lobby.tournaments[0].phase, Phase::Finished);
    // Finished, it no longer counts against the limit.
    assert!(v[1].tournament_create("swiss 3+0 3 rounds").is_ok());
}

/// A club on `store` whose clock reads `now` (moved by hand), as a server started on that
/// database would be.
fn club_on(store: &Arc<SqliteStore>, now: &Arc<Mutex<Instant>>) -> Arc<Club> {
    let read = Arc::clone(now);
    let clock: Clock = Arc::new(move || *read.lock().unwrap());
    let store: Arc<dyn Store> = Arc::clone(store) as Arc<dyn Store>;
    Club::with_clock(store, Limits::default(), clock).expect("a club")
}

/// The server stops as on SIGTERM (games and tournaments saved), and is down `down`.
fn stop(club: Arc<Club>, viewers: Vec<Viewer>, now: &Arc<Mutex<Instant>>, down: Duration) {
    assert!(club.save_all(club.now(), Duration::from_secs(10)));
    drop(viewers);
    drop(club);
    *now.lock().unwrap() += down;
}

#[test]
fn an_arena_goes_on_after_a_restart_with_the_time_it_was_down_given_back() {
    let store = Arc::new(SqliteStore::in_memory().expect("a database"));
    let now = Arc::new(Mutex::new(Instant::now()));
    let club = club_on(&store, &now);
    let v = online(&club, &["alice", "bob"]);
    let (alice, bob) = (&v[0], &v[1]);
    let tid = alice.tournament_create("arena 1+0 30m").unwrap();
    alice.tournament_join(None).unwrap();
    bob.tournament_join(Some(tid)).unwrap();
    club.tick(club.now());
    play_and_resign(&club, alice, bob, 4, bob);
    *now.lock().unwrap() += Duration::from_secs(60);
    club.tick(club.now());
    // A second game under way when the server stops: two moves played.
    let room = alice.room_name().expect("paired again");
    let (white, black) = sides(&club, alice, bob);
    white.act(Action::Move("d4".into())).unwrap();
    black.act(Action::Move("d5".into())).unwrap();
    let before = alice.tournament(Some(tid)).unwrap();
    let left = before.row.until.expect("an arena counts down");
    assert_eq!(row(&before, "alice").score, "2");
    stop(club, v, &now, Duration::from_secs(600));

    let club = club_on(&store, &now);
    let v = online(&club, &["alice", "bob"]);
    let (alice, bob) = (&v[0], &v[1]);
    let after = alice.tournament(Some(tid)).expect("the arena goes on");
    assert_eq!(after.row.phase, Phase::Running, "{after}");
    assert_eq!(
        after.row.until,
        Some(left),
        "the ten minutes it was down are given back"
    );
    assert_eq!(
        row(&after, "alice").score,
        "2",
        "nothing scored twice or lost"
    );
    assert_eq!(row(&after, "bob").score, "0");
    // Back in the game as it stood: it finishes and counts, once.
    club.tick(club.now());
    assert_eq!(alice.room_name().as_deref(), Some(room.as_str()));
    let (view, _) = alice.room(club.now()).expect("the game resumed");
    assert_eq!(view.game.len(), 2);
    let refused = alice.act(Action::Abort).unwrap_err().to_string();
    assert!(
        refused.contains("a tournament game cannot be aborted"),
        "still the tournament's game: {refused}"
    );
    let (white, black) = sides(&club, alice, bob);
    black.act(Action::Resign).unwrap();
    club.tick(club.now());
    let view = alice.tournament(Some(tid)).unwrap();
    let winner = if std::ptr::eq(white, alice) {
        "alice"
    } else {
        "bob"
    };
    let expected = if winner == "alice" { "6" } else { "2" };
    assert_eq!(row(&view, "alice").score, expected, "{view}");
    assert_eq!(view.row.phase, Phase::Running);
}

#[test]
fn a_swiss_goes_on_after_a_restart_in_the_middle_of_a_round() {
    let store = Arc::new(SqliteStore::in_memory().expect("a database"));
    let now = Arc::new(Mutex::new(Instant::now()));
    let club = club_on(&store, &now);
    let names = ["alice", "bob", "carol", "dan"];
    let v = online(&club, &names);
    let tid = v[0].tournament_create("swiss 5+0 3 rounds in 1m").unwrap();
    for p in &v {
        p.tournament_join(Some(tid)).unwrap();
    }
    *now.lock().unwrap() += Duration::from_secs(60);
    club.tick(club.now());
    // The boards of the round being played, as the two seated in each room.
    let pairs = |v: &[Viewer]| -> Vec<(usize, usize)> {
        let view = v[0].tournament(Some(tid)).unwrap();
        view.pairings
            .iter()
            .filter(|p| p.result.is_none())
            .map(|p| {
                let two = by_room_of(v, &p.room);
                assert_eq!(two.len(), 2, "{p:?}");
                (two[0], two[1])
            })
            .collect()
    };
    // Round 1 played to its end; round 2 paired.
    for (a, b) in pairs(&v) {
        play_and_resign(&club, &v[a], &v[b], 2, &v[b]);
    }
    club.tick(club.now());
    let round2 = pairs(&v);
    assert_eq!(round2.len(), 2);
    assert_eq!(v[0].tournament(Some(tid)).unwrap().round, Some((2, 3)));
    // One board of round 2 finished, the other under way when the server stops.
    let (a, b) = round2[0];
    play_and_resign(&club, &v[a], &v[b], 2, &v[b]);
    let (c, d) = round2[1];
    let white = if colour(&club, &v[c]) == Color::White {
        c
    } else {
        d
    };
    v[white].act(Action::Move("e4".into())).unwrap();
    club.tick(club.now());
    let before = v[0].tournament(Some(tid)).unwrap();
    let scores: Vec<String> = names
        .iter()
        .map(|n| row(&before, n).score.clone())
        .collect();
    stop(club, v, &now, Duration::from_secs(300));

    let club = club_on(&store, &now);
    let v = online(&club, &names);
    let after = v[0].tournament(Some(tid)).expect("the Swiss goes on");
    assert_eq!(after.round, Some((2, 3)), "{after}");
    let again: Vec<String> = names.iter().map(|n| row(&after, n).score.clone()).collect();
    assert_eq!(again, scores, "nothing scored twice or lost");
    // The board under way resumes (nobody forfeits for the time the server was down),
    // and when it ends round 3 is paired.
    club.tick(club.now());
    *now.lock().unwrap() += Duration::from_secs(30);
    club.tick(club.now());
    let black = if white == c { d } else { c };
    let (view, _) = v[black].room(club.now()).expect("back in the game");
    assert_eq!(view.game.len(), 1, "the move before the stop is there");
    v[black].act(Action::Resign).unwrap();
    club.tick(club.now());
    let view = v[0].tournament(Some(tid)).unwrap();
    assert_eq!(view.round, Some((3, 3)), "{view}");
    let total: f64 = names
        .iter()
        .map(|n| row(&view, n).score.parse::<f64>().unwrap())
        .sum();
    assert_eq!(total, 4.0, "two rounds of two games: {view}");
}
