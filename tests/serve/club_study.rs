//! Studies at the club's own API (`Club`, `Viewer`) with a clock moved by hand: one shared
//! cursor that everyone follows, a member stepping away without changing anything for the
//! others, the right to move given and taken, variations and notes kept in order, the lobby's
//! list, and a study open across a restart.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use common::TempDir;
use common::club::{ManualClock, member, unheard};
use ox88::club::lobby::Limits;
use ox88::club::study::{Behind, Follow, Step, StudyAction};
use ox88::club::{Club, SqliteStore, Store, Viewer};
use ox88::game::study::{Glyph, Mark, pgn};

/// How long a test waits for the club's writer to reach the database.
const FLUSH: Duration = Duration::from_secs(30);

fn club(clock: &ManualClock) -> Arc<Club> {
    let store = Arc::new(SqliteStore::in_memory().unwrap()) as Arc<dyn Store>;
    Club::with_clock(store, Limits::default(), clock.clock()).unwrap()
}

fn enter(club: &Arc<Club>, name: &str) -> Viewer {
    club.connect(member(name), unheard())
}

fn play(v: &Viewer, moves: &[&str]) {
    for m in moves {
        v.study_act(StudyAction::Play(m.to_string()))
            .unwrap_or_else(|e| panic!("{} plays {m}: {e}", v.name()));
    }
}

/// The moves to the shared cursor, as coordinates.
fn cursor_line(v: &Viewer) -> Vec<String> {
    let s = v.study().expect("in a study");
    let (_, ch) = s.current();
    ch.tree()
        .moves_to(ch.cursor())
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// The owner moves and every member's view shows the same cursor (each woken); a member
/// without the right is refused, told who may move, and nothing changes; one who steps
/// away browses on their own (the others' cursor stays), sees how far behind they are,
/// and comes back to where the room is.
#[test]
fn members_follow_the_owners_cursor_and_one_who_steps_away_changes_nothing() {
    let clock = ManualClock::new();
    let club = club(&clock);
    let alice = enter(&club, "alice");
    let woken = Arc::new(AtomicUsize::new(0));
    let bob = {
        let woken = Arc::clone(&woken);
        club.connect(
            member("bob"),
            Arc::new(move || {
                woken.fetch_add(1, Ordering::SeqCst);
            }),
        )
    };
    let carol = enter(&club, "carol");
    assert!(alice.study_open("ruy").unwrap().contains("yours"));
    assert!(bob.study_open("RUY").unwrap().contains("follow"));
    carol.study_open("ruy").unwrap();
    let before = woken.load(Ordering::SeqCst);
    play(&alice, &["e4", "e5", "Nf3"]);
    assert!(
        woken.load(Ordering::SeqCst) >= before + 3,
        "bob is woken at each move"
    );
    for v in [&alice, &bob, &carol] {
        assert_eq!(cursor_line(v), ["e2e4", "e7e5", "g1f3"], "{}", v.name());
    }
    let study = bob.study().unwrap();
    assert_eq!(study.present(), ["alice", "bob", "carol"]);

    let refused = bob
        .study_act(StudyAction::Play("Nc6".into()))
        .unwrap_err()
        .to_string();
    assert!(refused.contains("alice"), "{refused}");
    let refused = bob
        .study_act(StudyAction::Step(Step::Back))
        .unwrap_err()
        .to_string();
    assert!(refused.contains("browse on your own"), "{refused}");
    assert_eq!(cursor_line(&alice), ["e2e4", "e7e5", "g1f3"]);

    // Bob steps two moves back on his own screen; the room moves on without him.
    let mut follow = Follow::default();
    let study = bob.study().unwrap();
    follow.step(&study, Step::Back).unwrap();
    follow.step(&study, Step::Back).unwrap();
    assert_eq!(follow.behind(&study), Some(Behind::Moves(2)));
    play(&alice, &["Nc6"]);
    let study = bob.study().unwrap();
    assert_eq!(cursor_line(&carol), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    let (chapter, node) = follow.at(&study);
    assert_eq!(chapter, 0);
    assert_eq!(
        study.chapters()[0].tree().depth(node),
        1,
        "bob stays where he is"
    );
    assert_eq!(follow.behind(&study), Some(Behind::Moves(3)));
    // Browsing into a line of his own makes him elsewhere, still changing nothing.
    follow.step(&study, Step::Back).unwrap();
    assert_eq!(follow.behind(&study), Some(Behind::Moves(4)));
    follow.come_back();
    assert_eq!(follow.behind(&study), None);
    assert_eq!(follow.at(&study).1, study.current().1.cursor());
}

/// The owner gives the right to move and takes it back: the member is told each time, may
/// move while they hold it and is refused after; nobody but the owner gives or takes, and
/// the owner's own right cannot be taken.
#[test]
fn the_owner_gives_and_takes_the_right_to_move() {
    let clock = ManualClock::new();
    let club = club(&clock);
    let [alice, bob, carol] = ["alice", "bob", "carol"].map(|n| enter(&club, n));
    alice.study_open("lesson").unwrap();
    bob.study_open("lesson").unwrap();
    carol.study_open("lesson").unwrap();
    let _ = bob.take_notices();
    assert!(bob.study_act(StudyAction::Play("d4".into())).is_err());
    alice.study_right("bob", true).unwrap();
    assert!(
        bob.take_notices()
            .iter()
            .any(|n| n.contains("bob may move")),
        "bob is told"
    );
    play(&bob, &["d4"]);
    let refused = carol.study_right("carol", true).unwrap_err().to_string();
    assert!(refused.contains("only the study's owner"), "{refused}");
    let refused = bob.study_right("alice", false).unwrap_err().to_string();
    assert!(refused.contains("only the study's owner"), "{refused}");
    assert!(
        alice.study_right("alice", false).is_err(),
        "the owner keeps it"
    );
    alice.study_right("bob", false).unwrap();
    assert!(bob.study_act(StudyAction::Play("d5".into())).is_err());
    assert_eq!(cursor_line(&carol), ["d2d4"]);
    assert!(alice.study_right("nobody", true).is_err());
}

/// A variation, comments, glyphs and marks kept in order and written as PGN that our own
/// reader reads back to the same tree.
#[test]
fn variations_comments_and_glyphs_are_kept_in_order() {
    let clock = ManualClock::new();
    let club = club(&clock);
    let alice = enter(&club, "alice");
    alice.study_open("sicilian").unwrap();
    play(&alice, &["e4", "e5"]);
    alice
        .study_act(StudyAction::Comment("the open game".into()))
        .unwrap();
    alice.study_act(StudyAction::Step(Step::Back)).unwrap();
    play(&alice, &["c5"]);
    alice.study_act(StudyAction::Glyph(Glyph::Good)).unwrap();
    alice
        .study_act(StudyAction::Comment("the Sicilian".into()))
        .unwrap();
    let sq = "d4".parse().unwrap();
    alice
        .study_act(StudyAction::Square(sq, Mark::Green))
        .unwrap();
    play(&alice, &["Nf3"]);
    let s = alice.study().unwrap();
    let text = s.pgn();
    let open = text.find("the open game").expect("first comment");
    let sicilian = text.find("c5 $1").expect("the variation with its glyph");
    assert!(open < sicilian, "main line before the variation:\n{text}");
    assert!(text.contains("[%csl Gd4]"), "{text}");
    let (tree, _) = pgn::read(&text, 100).unwrap();
    assert_eq!(tree.len(), 4);
    assert_eq!(
        pgn::write(&tree, &[]),
        pgn::write(s.current().1.tree(), &[])
    );
    // The owner promotes the Sicilian and deletes the open game.
    alice.study_act(StudyAction::Promote).unwrap();
    alice.study_act(StudyAction::Step(Step::First)).unwrap();
    alice.study_act(StudyAction::Step(Step::Forward)).unwrap();
    alice.study_act(StudyAction::Step(Step::Forward)).unwrap();
    assert_eq!(cursor_line(&alice), ["e2e4", "c7c5"]);
}

/// A private study is listed for its owner and contributors only, and refuses others; a
/// public one is listed for everyone with its members counted.
#[test]
fn the_lobby_lists_public_studies_and_ones_own() {
    let clock = ManualClock::new();
    let club = club(&clock);
    let [alice, bob, carol] = ["alice", "bob", "carol"].map(|n| enter(&club, n));
    alice.study_open("secret").unwrap();
    alice.study_act(StudyAction::Private(true)).unwrap();
    alice.study_right("bob", true).unwrap();
    bob.study_open("public").unwrap();
    let now = clock.now();
    let names = |v: &Viewer| -> Vec<String> {
        v.lobby(now)
            .studies
            .iter()
            .map(|s| s.name.clone())
            .collect()
    };
    let mut alice_sees = names(&alice);
    alice_sees.sort();
    assert_eq!(alice_sees, ["public", "secret"]);
    assert_eq!(names(&carol), ["public"]);
    let refused = carol.study_open("secret").unwrap_err().to_string();
    assert!(refused.contains("private"), "{refused}");
    assert!(carol.study().is_none());
    let listed = alice.lobby(now).studies;
    let public = listed.iter().find(|s| s.name == "public").unwrap();
    assert_eq!((public.present, public.mine), (1, false));
}

/// A restart with a study open: the study comes back with its chapters, notes and rights,
/// and opens where its cursor was.
#[test]
fn a_study_opens_where_its_cursor_was_after_a_restart() {
    let clock = ManualClock::new();
    let dir = TempDir::new("study-restart");
    let db = dir.path().join("club.sqlite");
    let open = || {
        let store = Arc::new(SqliteStore::open(&db).unwrap()) as Arc<dyn Store>;
        Club::with_clock(store, Limits::default(), clock.clock()).unwrap()
    };
    {
        let club = open();
        let [alice, bob] = ["alice", "bob"].map(|n| enter(&club, n));
        alice.study_open("endgames").unwrap();
        bob.study_open("endgames").unwrap();
        alice.study_right("bob", true).unwrap();
        play(&alice, &["e4", "e5", "Nf3", "Nc6"]);
        alice
            .study_act(StudyAction::Glyph(Glyph::Interesting))
            .unwrap();
        alice.study_act(StudyAction::Step(Step::Back)).unwrap();
        alice
            .study_act(StudyAction::Chapter {
                name: "Lucena".into(),
                source: ox88::club::study::Source::Fen("1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1".into()),
            })
            .unwrap();
        play(&bob, &["Rd1+"]);
        alice.study_act(StudyAction::Switch(0)).unwrap();
        assert!(club.flush(FLUSH));
    }
    let club = open();
    let carol = enter(&club, "carol");
    carol.study_open("endgames").unwrap();
    let s = carol.study().unwrap();
    assert_eq!(s.chapters().len(), 2);
    assert_eq!(s.current().0, 0);
    assert_eq!(cursor_line(&carol), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(s.chapters()[1].name(), "Lucena");
    assert_eq!(s.chapters()[1].tree().len(), 1);
    assert!(s.may_move("id-bob"));
    assert!(!s.may_move("id-carol"));
    let line = s.chapters()[0].tree().main_line();
    let nc6 = s.chapters()[0].tree().notes(line[3]).unwrap();
    assert_eq!(nc6.glyph, Some(Glyph::Interesting));
}
