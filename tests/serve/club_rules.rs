//! The club's rules at its own API (`Club`, `Viewer`) with a clock moved by hand: what
//! takes minutes on a server (a flag falling, a room abandoned) is checked without waiting,
//! and without a terminal between the test and the rule. What only SSH shows stays in
//! `club.rs` and `ssh.rs`.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::club::{ManualClock, member, unheard};
use ox88::chess::Color;
use ox88::club::budget::{JobKind, Turn};
use ox88::club::lobby::Limits;
use ox88::club::{Action, Club, Role, SqliteStore, Store, Viewer};

/// How long a test waits for the club's writer to reach the database.
const FLUSH: Duration = Duration::from_secs(30);

fn club_with(limits: Limits, clock: &ManualClock) -> Arc<Club> {
    let store = Arc::new(SqliteStore::in_memory().unwrap()) as Arc<dyn Store>;
    Club::with_clock(store, limits, clock.clock()).unwrap()
}

fn enter(club: &Arc<Club>, name: &str) -> Viewer {
    club.connect(member(name), unheard())
}

fn play(viewer: &Viewer, san: &str) {
    viewer
        .act(Action::Move(san.into()))
        .unwrap_or_else(|e| panic!("{} plays {san}: {e}", viewer.name()));
}

/// With one room allowed and two minutes before an abandoned room closes: a second room
/// is refused, saying why, while the first holds a game; once both its players have been
/// away for the limit (not a second before) the room closes, its watcher is sent to the
/// lobby and told, the game is kept unfinished, and the cap lets the next room in.
#[test]
fn an_abandoned_room_closes_at_the_limit_and_the_room_cap_holds() {
    let clock = ManualClock::new();
    let limits = Limits {
        max_rooms: 1,
        abandon_after: Duration::from_secs(120),
        ..Limits::default()
    };
    let club = club_with(limits, &clock);
    let [alice, bob, carol, dave] = ["alice", "bob", "carol", "dave"].map(|n| enter(&club, n));
    assert_eq!(alice.join("den").unwrap(), Role::Player(Color::White));
    assert_eq!(bob.join("den").unwrap(), Role::Player(Color::Black));
    assert_eq!(carol.join("den").unwrap(), Role::Watcher);
    play(&alice, "e4");
    play(&bob, "e5");
    let refused = dave.join("hall").unwrap_err().to_string();
    assert!(refused.contains("as many rooms as it may (1)"), "{refused}");
    assert_eq!(dave.room_name(), None);
    // Both players go (their sessions end) while carol watches.
    drop(alice);
    drop(bob);
    clock.advance(limits.abandon_after - Duration::from_secs(1));
    club.tick(clock.now());
    assert_eq!(
        carol.room_name().as_deref(),
        Some("den"),
        "not before the limit"
    );
    clock.advance(Duration::from_secs(1));
    club.tick(clock.now());
    assert_eq!(carol.room_name(), None, "the watcher is sent to the lobby");
    let told = carol.take_notices();
    assert!(told.iter().any(|t| t.contains("adjourned")), "{told:?}");
    assert_eq!(dave.join("hall").unwrap(), Role::Player(Color::White));
    assert!(club.flush(FLUSH));
    let kept = club.store().unfinished().unwrap();
    assert!(
        kept.iter()
            .any(|g| g.room == "den" && g.pgn.contains("e4") && g.pgn.contains("e5")),
        "the abandoned game is kept, unfinished: {kept:?}"
    );
}

/// A challenge at three seconds a side, accepted: the challenger has White, the game is in
/// a room of its own for both, and when White's three seconds have run out the flag ends
/// it for Black, as both players' views say.
#[test]
fn a_challenge_accepted_starts_a_game_and_a_flag_ends_it() {
    let clock = ManualClock::new();
    let club = club_with(Limits::default(), &clock);
    let (alice, bob) = (enter(&club, "alice"), enter(&club, "bob"));
    let number = alice
        .challenge("bob", Some("0.05+0".parse().unwrap()), false)
        .unwrap();
    let told = bob.take_notices();
    assert!(
        told.iter().any(|t| t.contains("alice challenges you")),
        "{told:?}"
    );
    let room = bob.accept(number).unwrap();
    assert_eq!(alice.room_name(), Some(room.clone()));
    assert_eq!(bob.room_name(), Some(room));
    let (_, role) = alice.room(clock.now()).unwrap();
    assert_eq!(role, Role::Player(Color::White));
    let (_, role) = bob.room(clock.now()).unwrap();
    assert_eq!(role, Role::Player(Color::Black));
    play(&alice, "e4");
    play(&bob, "e5");
    clock.advance(Duration::from_secs(2));
    club.tick(clock.now());
    let (view, _) = alice.room(clock.now()).unwrap();
    assert!(view.result.is_none(), "two seconds in: {:?}", view.result);
    assert_eq!(view.running, Some(Color::White));
    clock.advance(Duration::from_secs(2));
    club.tick(clock.now());
    for v in [&alice, &bob] {
        let (view, _) = v.room(clock.now()).unwrap();
        let end = view.result.expect("the flag fell");
        assert_eq!(end.result(), "0-1");
        assert!(end.reason().contains("flag fell"), "{}", end.reason());
    }
}

/// One member may have only so many challenges out (the club's limit): one more is
/// refused saying how to make room, and withdrawing one lets the next through.
#[test]
fn challenges_beyond_the_limit_are_refused_until_one_is_withdrawn() {
    let clock = ManualClock::new();
    let limits = Limits {
        challenges: 2,
        ..Limits::default()
    };
    let club = club_with(limits, &clock);
    let [alice, bob, carol, dave] = ["alice", "bob", "carol", "dave"].map(|n| enter(&club, n));
    alice.challenge("bob", None, false).unwrap();
    alice.challenge("carol", None, false).unwrap();
    // A second challenge to the same opponent replaces the first: still two out.
    alice.challenge("carol", None, true).unwrap();
    let refused = alice
        .challenge("dave", None, false)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("2 challenges out"), "{refused}");
    assert!(dave.take_notices().is_empty(), "dave was never challenged");
    alice.withdraw("bob").unwrap();
    assert!(
        bob.take_notices()
            .iter()
            .any(|t| t.contains("alice withdrew")),
        "bob is told"
    );
    alice.challenge("dave", None, false).unwrap();
    let told = dave.take_notices();
    assert!(
        told.iter().any(|t| t.contains("alice challenges you")),
        "{told:?}"
    );
    assert_eq!(carol.lobby(clock.now()).challenges.len(), 1, "carol's one");
}

/// A seek for Black at 5+3 in alice's lobby is in bob's with her name and clock; bob taking
/// it seats him White and her Black in a room of their own; carol finds the game in the
/// lobby's list (White – Black), watches it by its number and sees the moves as they come.
#[test]
fn a_seek_is_listed_taken_and_its_game_watched_from_the_lobby() {
    let clock = ManualClock::new();
    let club = club_with(Limits::default(), &clock);
    let [alice, bob, carol] = ["alice", "bob", "carol"].map(|n| enter(&club, n));
    let tc: ox88::game::TimeControl = "5+3".parse().unwrap();
    alice.seek(Some(tc), Some(Color::Black), false).unwrap();
    let lobby = bob.lobby(clock.now());
    let seek = lobby
        .seeks
        .iter()
        .find(|s| s.name == "alice")
        .expect("alice's seek in bob's lobby");
    assert_eq!(seek.time_control, Some(tc));
    assert_eq!(seek.color, Some(Color::Black));
    let room = bob.accept(seek.number).unwrap();
    assert_eq!(alice.room_name(), Some(room.clone()));
    assert_eq!(
        alice.room(clock.now()).unwrap().1,
        Role::Player(Color::Black)
    );
    assert_eq!(bob.room(clock.now()).unwrap().1, Role::Player(Color::White));
    assert!(
        bob.lobby(clock.now()).seeks.is_empty(),
        "a seek taken leaves the lobby"
    );
    let game = carol
        .lobby(clock.now())
        .games
        .into_iter()
        .find(|g| g.room == room)
        .expect("the game in carol's lobby");
    assert_eq!((game.white.as_str(), game.black.as_str()), ("bob", "alice"));
    assert_eq!(carol.watch(game.number).unwrap(), Role::Watcher);
    play(&bob, "e4");
    let (view, _) = carol.room(clock.now()).unwrap();
    assert_eq!(view.game.sans(), ["e4"]);
}

/// Between two players in a room: a takeback asked and granted goes back before both
/// moves; a draw offered is declined with `:no`, then offered again and accepted; a
/// rematch swaps the colours and is resigned; another rematch is aborted before White's
/// first move. The store keeps the drawn and the resigned game, not the aborted one.
#[test]
fn offers_between_two_draw_take_back_resign_rematch_and_abort() {
    let clock = ManualClock::new();
    let club = club_with(Limits::default(), &clock);
    let (alice, bob) = (enter(&club, "alice"), enter(&club, "bob"));
    assert_eq!(alice.join("duel").unwrap(), Role::Player(Color::White));
    assert_eq!(bob.join("duel").unwrap(), Role::Player(Color::Black));
    let view = |v: &Viewer| v.room(clock.now()).unwrap().0;
    play(&alice, "e4");
    play(&bob, "e5");
    // Takeback: alice asks, bob grants; both moves go.
    alice.act(Action::Takeback).unwrap();
    assert!(view(&bob).offer.is_some(), "bob sees the request");
    bob.act(Action::Takeback).unwrap();
    assert_eq!(view(&alice).game.ply(), 0);
    // A draw offered and declined, then offered and accepted.
    play(&alice, "d4");
    alice.act(Action::Draw).unwrap();
    assert!(view(&bob).offer.is_some(), "bob sees the offer");
    bob.act(Action::Decline).unwrap();
    assert!(view(&alice).offer.is_none(), "declined");
    assert!(view(&alice).result.is_none());
    alice.act(Action::Draw).unwrap();
    bob.act(Action::Draw).unwrap();
    assert_eq!(view(&alice).result.expect("drawn").result(), "1/2-1/2");
    // A rematch: colours swapped; bob, White now, moves and resigns.
    alice.act(Action::Rematch).unwrap();
    bob.act(Action::Rematch).unwrap();
    assert_eq!(bob.room(clock.now()).unwrap().1, Role::Player(Color::White));
    assert_eq!(
        alice.room(clock.now()).unwrap().1,
        Role::Player(Color::Black)
    );
    play(&bob, "e4");
    bob.act(Action::Resign).unwrap();
    assert_eq!(view(&alice).result.expect("resigned").result(), "0-1");
    // Another rematch, aborted before alice (White again) moves.
    bob.act(Action::Rematch).unwrap();
    alice.act(Action::Rematch).unwrap();
    assert_eq!(
        alice.room(clock.now()).unwrap().1,
        Role::Player(Color::White)
    );
    alice.act(Action::Abort).unwrap();
    assert!(view(&bob).aborted, "bob sees the game aborted");
    assert!(club.flush(FLUSH));
    let games = club.store().games_of("id-alice", 10).unwrap();
    let results: Vec<_> = games.iter().map(|g| g.result.clone()).collect();
    assert!(results.contains(&Some("1/2-1/2".into())), "{results:?}");
    assert!(results.contains(&Some("0-1".into())), "{results:?}");
    assert_eq!(games.len(), 2, "the aborted game is not kept: {results:?}");
}

/// A viewer whose wake-ups are counted.
fn counted(club: &Arc<Club>, name: &str) -> (Viewer, Arc<std::sync::atomic::AtomicUsize>) {
    let woken = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let w = Arc::clone(&woken);
    let notify: ox88::club::Notify = Arc::new(move || {
        w.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    });
    (club.connect(member(name), notify), woken)
}

fn wakes(n: &std::sync::atomic::AtomicUsize) -> usize {
    n.load(std::sync::atomic::Ordering::SeqCst)
}

/// With one search at a time: searches start in the order asked, a session holds one job
/// however often it asks, the one waiting is woken when its turn comes, a session that
/// leaves gives its share back, and the fair-play gate answers before the budget does.
#[test]
fn the_engine_budget_runs_searches_in_turn_one_per_session() {
    let clock = ManualClock::new();
    let limits = Limits {
        engine_threads: Some(1),
        ..Limits::default()
    };
    let club = club_with(limits, &clock);
    let (alice, _) = counted(&club, "alice");
    let (bob, bob_woken) = counted(&club, "bob");
    let (carol, carol_woken) = counted(&club, "carol");
    assert_eq!(alice.engine_ask(JobKind::Ends).unwrap(), Turn::Running);
    // Asking again (the next move's search) keeps the share: one job per session.
    assert_eq!(alice.engine_ask(JobKind::Ends).unwrap(), Turn::Running);
    assert_eq!(
        bob.engine_ask(JobKind::Ends).unwrap(),
        Turn::Queued { ahead: 0 }
    );
    assert_eq!(
        carol.engine_ask(JobKind::Ends).unwrap(),
        Turn::Queued { ahead: 1 }
    );
    let text = carol.engine_turn().describe().unwrap();
    assert!(text.starts_with("queued: 1 ahead"), "{text}");
    let (b, c) = (wakes(&bob_woken), wakes(&carol_woken));
    alice.engine_done();
    assert_eq!(bob.engine_turn(), Turn::Running);
    assert_eq!(carol.engine_turn(), Turn::Queued { ahead: 0 });
    assert!(wakes(&bob_woken) > b, "bob is woken: his search may start");
    assert!(wakes(&carol_woken) > c, "carol is woken: one fewer ahead");
    // Bob leaving gives his share to carol.
    drop(bob);
    assert_eq!(carol.engine_turn(), Turn::Running);
    assert_eq!(
        alice.engine_ask(JobKind::Ends).unwrap(),
        Turn::Queued { ahead: 0 }
    );
    carol.engine_done();
    assert_eq!(alice.engine_turn(), Turn::Running);
    assert_eq!(carol.engine_turn(), Turn::Idle);

    // Fair play first: a member whose game goes on is refused, not queued.
    let (dave, _) = counted(&club, "dave");
    let (erin, _) = counted(&club, "erin");
    dave.join("den").unwrap();
    erin.join("den").unwrap();
    play(&dave, "e4");
    let why = dave.engine_ask(JobKind::Ends).unwrap_err().to_string();
    assert!(why.contains("not while your game"), "{why}");
    assert_eq!(dave.engine_turn(), Turn::Idle, "a refusal holds no place");
}

/// An analysis, which runs on, yields its share to a search that ends (a move, the lab, a
/// review) and resumes when that one is done; an analysis never pauses another.
#[test]
fn a_search_that_ends_pauses_a_running_analysis_which_resumes_after() {
    let clock = ManualClock::new();
    let limits = Limits {
        engine_threads: Some(1),
        ..Limits::default()
    };
    let club = club_with(limits, &clock);
    let (watcher, watcher_woken) = counted(&club, "wendy");
    let (player, _) = counted(&club, "pat");
    let (other, _) = counted(&club, "oscar");
    assert_eq!(watcher.engine_ask(JobKind::RunsOn).unwrap(), Turn::Running);
    assert_eq!(
        other.engine_ask(JobKind::RunsOn).unwrap(),
        Turn::Queued { ahead: 0 }
    );
    let before = wakes(&watcher_woken);
    assert_eq!(
        player.engine_ask(JobKind::Ends).unwrap(),
        Turn::Running,
        "the move does not wait behind an analysis"
    );
    assert!(
        wakes(&watcher_woken) > before,
        "the analysis is told to yield"
    );
    assert_eq!(watcher.engine_turn(), Turn::Queued { ahead: 0 });
    assert_eq!(other.engine_turn(), Turn::Queued { ahead: 1 });
    player.engine_done();
    assert_eq!(
        watcher.engine_turn(),
        Turn::Running,
        "the analysis resumes first"
    );
    assert_eq!(other.engine_turn(), Turn::Queued { ahead: 0 });
}

/// Without a budget (the club outside `ox88 serve --engine-threads`, as in tests and the
/// terminal) every search runs at once.
#[test]
fn without_a_budget_every_search_runs() {
    let clock = ManualClock::new();
    let club = club_with(Limits::default(), &clock);
    let viewers: Vec<Viewer> = ["a1", "a2", "a3"].iter().map(|n| enter(&club, n)).collect();
    for v in &viewers {
        assert_eq!(v.engine_ask(JobKind::Ends).unwrap(), Turn::Running);
    }
}

/// The lobby's screens are woken at once for what they act on (a seek), but for a game's
/// move alone at most twice a second: the list is current for whoever reads it, and the
/// hundred screens of a busy evening are not all drawn again at every move.
#[test]
fn a_lobby_is_woken_at_once_for_a_seek_and_at_most_twice_a_second_for_moves() {
    let clock = ManualClock::new();
    let club = club_with(Limits::default(), &clock);
    let [alice, bob, dave] = ["alice", "bob", "dave"].map(|n| enter(&club, n));
    let (carol, woken) = counted(&club, "carol");
    alice.join("den").unwrap();
    bob.join("den").unwrap();
    // The first moves list the game (a change of the lobby's own): woken at once.
    play(&alice, "e4");
    play(&bob, "e5");
    clock.advance(Duration::from_secs(1));
    club.tick(clock.now());
    // The tick is queued: a question to the club after it waits for it.
    assert_eq!(carol.room_name(), None);
    let before = wakes(&woken);
    play(&alice, "Nf3");
    play(&bob, "Nc6");
    assert_eq!(
        wakes(&woken),
        before,
        "moves alone wait for the next redraw"
    );
    let games = carol.lobby(clock.now()).games;
    assert_eq!(games[0].move_number, 3, "yet the list read is current");
    clock.advance(Duration::from_millis(500));
    club.tick(clock.now());
    assert_eq!(carol.room_name(), None);
    assert_eq!(wakes(&woken), before + 1, "one wake for both moves");
    dave.seek(None, None, false).unwrap();
    assert_eq!(wakes(&woken), before + 2, "a seek wakes the lobby at once");
}
