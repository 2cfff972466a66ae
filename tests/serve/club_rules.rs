//! The club's rules at its own API (`Club`, `Viewer`) with a clock moved by hand: what
//! takes minutes on a server (a flag falling, a room abandoned) is checked without waiting,
//! and without a terminal between the test and the rule. What only SSH shows stays in
//! `club.rs` and `serve_ssh.rs`.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::club::{ManualClock, member, unheard};
use ox88::chess::Color;
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
