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
