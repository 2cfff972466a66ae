//! The whole room at work, and the helpers its parts' tests share: two players seated,
//! moves and refusals.

use super::*;

pub(super) fn member(id: &str, rated: bool) -> Member {
    Member {
        id: id.to_string(),
        name: format!("{id}-name"),
        rated,
    }
}

pub(super) fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

pub(super) fn ms(m: u64) -> Duration {
    Duration::from_millis(m)
}

pub(super) fn tc(text: &str) -> Option<TimeControl> {
    Some(text.parse().unwrap())
}

/// A room where alice (White) and bob (Black) sit, both joined at `t0`.
pub(super) fn room_of_two(tc: Option<TimeControl>, t0: Instant) -> Room {
    let mut room = Room::new("r1", tc, false);
    assert_eq!(
        room.join(&member("alice", false), None, t0),
        Role::Player(Color::White)
    );
    assert_eq!(
        room.join(&member("bob", false), None, t0),
        Role::Player(Color::Black)
    );
    room
}

pub(super) fn mv(room: &mut Room, id: &str, text: &str, at: Instant) -> String {
    room.act(id, Action::Move(text.to_string()), at)
        .unwrap_or_else(|e| panic!("{id} {text}: {e}"))
}

pub(super) fn refused(room: &mut Room, id: &str, action: Action, at: Instant) -> String {
    let before = room.version();
    let err = room.act(id, action.clone(), at).unwrap_err().to_string();
    assert_eq!(
        room.version(),
        before,
        "{action:?} refused but the room changed"
    );
    err
}

pub(super) fn fools_mate(room: &mut Room, t0: Instant) {
    for (i, (who, m)) in [
        ("alice", "f3"),
        ("bob", "e5"),
        ("alice", "g4"),
        ("bob", "Qh4#"),
    ]
    .into_iter()
    .enumerate()
    {
        mv(room, who, m, t0 + secs(i as u64 + 1));
    }
}

#[test]
fn the_record_carries_clocks_tags_and_result() {
    let t0 = Instant::now();
    let mut room = Room::new("blitz", tc("5+3"), true);
    let rating = |r: f64| Rating {
        rating: r,
        ..Rating::default()
    };
    room.join(&member("alice", true), Some(rating(1612.4)), t0);
    room.join(&member("bob", true), Some(rating(1487.6)), t0);
    assert!(
        room.record(t0).is_none(),
        "nothing to keep before the first move"
    );
    mv(&mut room, "alice", "e4", t0 + secs(1));
    mv(&mut room, "bob", "e5", t0 + secs(11));
    let record = room.record(t0 + secs(21)).unwrap();
    assert_eq!(record.room, "blitz");
    assert!(record.id.starts_with("blitz-"));
    assert_eq!(
        (record.white.as_str(), record.black.as_str()),
        ("alice", "bob")
    );
    assert_eq!(record.white_name, "alice-name");
    assert_eq!(record.result, None);
    assert_eq!(record.termination, None);
    assert_eq!(record.time_control.as_deref(), Some("5+3"));
    assert!(record.rated);
    assert_eq!(record.clocks_ms, Some([290_000, 293_200]));
    for tag in [
        "[Event \"Rated game\"]",
        "[Site \"ox88 serve\"]",
        "[White \"alice-name\"]",
        "[Black \"bob-name\"]",
        "[WhiteElo \"1612\"]",
        "[BlackElo \"1488\"]",
        "[TimeControl \"300+3\"]",
        "[Result \"*\"]",
        "[Termination \"unterminated\"]",
        "{[%clk 0:05:00]}",
        "{[%clk 0:04:53]}",
    ] {
        assert!(record.pgn.contains(tag), "{tag} missing in\n{}", record.pgn);
    }
    room.act("alice", Action::Resign, t0 + secs(30)).unwrap();
    let record = room.record(t0 + secs(40)).unwrap();
    assert_eq!(record.result.as_deref(), Some("0-1"));
    assert_eq!(record.termination.as_deref(), Some("White resigns"));
    assert!(record.pgn.contains("[Result \"0-1\"]"));
    assert!(record.pgn.contains("[Termination \"normal\"]"));
    assert_eq!(
        record.clocks_ms,
        Some([281_000, 293_200]),
        "clocks stopped at the end"
    );
    let done = room.take_finished(t0 + secs(40)).unwrap();
    assert_eq!(done.record, record);
    assert!(done.rated);
    assert!(room.take_finished(t0 + secs(41)).is_none());
}

#[test]
fn a_game_is_rated_only_in_a_rated_room_between_rated_members() {
    let t0 = Instant::now();
    let finish = |room_rated: bool, a: bool, b: bool| {
        let mut room = Room::new("r", None, room_rated);
        room.join(&member("alice", a), Some(Rating::default()), t0);
        room.join(&member("bob", b), Some(Rating::default()), t0);
        mv(&mut room, "alice", "e4", t0);
        room.act("bob", Action::Resign, t0).unwrap();
        room.take_finished(t0).unwrap()
    };
    assert!(finish(true, true, true).rated);
    let casual = finish(true, true, false);
    assert!(!casual.rated);
    assert!(casual.record.pgn.contains("[Event \"Casual game\"]"));
    assert!(!casual.record.pgn.contains("Elo"));
    assert!(!finish(false, true, true).rated);
}

#[test]
fn a_restored_game_waits_for_both_players_then_goes_on() {
    let t0 = Instant::now();
    let mut room = room_of_two(tc("5+0"), t0);
    mv(&mut room, "alice", "f3", t0);
    mv(&mut room, "bob", "e5", t0 + secs(20));
    mv(&mut room, "alice", "g4", t0 + secs(50));
    let record = room.record(t0 + secs(60)).unwrap();
    assert_eq!(record.clocks_ms, Some([270_200, 270_200]));

    let mut back = Room::restore(&record).unwrap();
    let t1 = t0 + secs(1000);
    let v = back.view(t1);
    assert!(v.waiting && v.began);
    assert_eq!(v.game.sans(), ["f3", "e5", "g4"]);
    assert_eq!(v.clocks, Some([ms(270_200), ms(270_200)]));
    assert_eq!(v.running, None);
    assert!(v.seats.iter().flatten().all(|s| !s.connected));
    assert_eq!(back.view(t1).game_id, record.id);
    assert!(!back.is_idle(), "an unfinished game keeps its room");

    assert_eq!(
        back.join(&member("bob", false), None, t1),
        Role::Player(Color::Black)
    );
    let err = refused(&mut back, "bob", Action::Move("Qh4#".into()), t1 + secs(5));
    assert!(err.contains("waits for alice-name"), "{err}");
    assert_eq!(
        back.view(t1 + secs(100)).clocks,
        Some([ms(270_200), ms(270_200)]),
        "no clock runs while one player is missing"
    );
    back.join(&member("alice", false), None, t1 + secs(100));
    let v = back.view(t1 + secs(110));
    assert!(!v.waiting);
    assert_eq!(v.running, Some(Color::Black));
    assert_eq!(v.clocks, Some([ms(270_200), ms(260_200)]));
    mv(&mut back, "bob", "Qh4#", t1 + secs(110));
    let done = back.take_finished(t1 + secs(110)).unwrap();
    assert_eq!(done.record.id, record.id);
    assert_eq!(done.white_score, 0.0);
    assert!(done.record.pgn.contains("Qh4#"));
}

#[test]
fn a_restored_game_can_be_claimed_from_a_player_who_never_returns() {
    let t0 = Instant::now();
    let mut room = room_of_two(None, t0);
    mv(&mut room, "alice", "e4", t0);
    let mut back = Room::restore(&room.record(t0).unwrap()).unwrap();
    back.join(&member("bob", false), None, t0 + secs(10));
    let err = refused(&mut back, "bob", Action::ClaimWin, t0 + secs(20));
    assert!(err.contains("in 50 s"), "{err}");
    back.act("bob", Action::ClaimWin, t0 + secs(70)).unwrap();
    assert_eq!(back.view(t0).result.unwrap().result(), "0-1");
}

#[test]
fn restoring_refuses_a_bad_or_finished_record() {
    let t0 = Instant::now();
    let mut room = room_of_two(None, t0);
    mv(&mut room, "alice", "e4", t0);
    let good = room.record(t0).unwrap();
    let garbled = GameRecord {
        pgn: "1. e4 Ke3 *".to_string(),
        ..good.clone()
    };
    let err = Room::restore(&garbled).unwrap_err().to_string();
    assert!(err.contains("PGN cannot be read"), "{err}");
    let bad_tc = GameRecord {
        time_control: Some("fast".to_string()),
        ..good.clone()
    };
    assert!(
        Room::restore(&bad_tc)
            .unwrap_err()
            .to_string()
            .contains("time control")
    );
    room.act("bob", Action::Resign, t0).unwrap();
    let over = room.record(t0).unwrap();
    assert!(Room::restore(&over).is_err());
}

#[test]
fn a_room_is_idle_when_nobody_is_there_and_no_game_goes_on() {
    let t0 = Instant::now();
    let mut room = Room::new("r", None, false);
    assert!(room.is_idle());
    room.join(&member("alice", false), None, t0);
    assert!(!room.is_idle());
    room.join(&member("bob", false), None, t0);
    mv(&mut room, "alice", "e4", t0);
    room.leave("alice", t0);
    room.leave("bob", t0);
    assert!(!room.is_idle(), "a game with moves waits for its players");
    room.join(&member("bob", false), None, t0);
    room.act("bob", Action::Resign, t0).unwrap();
    room.leave("bob", t0);
    assert!(!room.is_idle(), "the ended game is not taken yet");
    room.take_finished(t0).unwrap();
    assert!(room.is_idle());
}

#[test]
fn every_change_bumps_the_version() {
    let t0 = Instant::now();
    let mut room = Room::new("r", None, false);
    let mut last = room.version();
    let mut bumped = |room: &Room| {
        let v = room.version();
        assert!(v > last, "version stayed at {v}");
        last = v;
    };
    room.join(&member("alice", false), None, t0);
    bumped(&room);
    room.join(&member("bob", false), None, t0);
    bumped(&room);
    mv(&mut room, "alice", "e4", t0);
    bumped(&room);
    room.act("bob", Action::Draw, t0).unwrap();
    bumped(&room);
    room.act("bob", Action::Chat("hi".into()), t0).unwrap();
    bumped(&room);
    room.leave("bob", t0);
    bumped(&room);
    assert_eq!(room.view(t0).version, room.version());
}
