//! The club's move path: a move made through `Viewer::act` until the opponent's view shows
//! it (the room's state machine, the club's locks, the wake-up; the database's write goes to
//! the writer's thread, off this path). `cargo bench --bench club`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use ox88::chess::Color;
use ox88::club::{Action, Club, Member, Role, SqliteStore, Store};

fn member(name: &str) -> Member {
    Member {
        id: format!("id-{name}"),
        name: name.into(),
        rated: false,
    }
}

/// The knights out and back, four moves a game (no position comes a third time); then
/// White resigns and the two start a rematch, outside the time measured. Each move is
/// checked in the opponent's view.
fn move_to_the_opponent(c: &mut Criterion) {
    const SANS: [&str; 4] = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let store = Arc::new(SqliteStore::in_memory().unwrap()) as Arc<dyn Store>;
    let club = Club::new(store).unwrap();
    let woken = Arc::new(AtomicU64::new(0));
    let count = Arc::clone(&woken);
    let alice = club.connect(member("alice"), Arc::new(|| {}));
    let bob = club.connect(
        member("bob"),
        Arc::new(move || {
            count.fetch_add(1, Ordering::Relaxed);
        }),
    );
    alice.join("den").unwrap();
    bob.join("den").unwrap();
    let (mut white, mut black) = (&alice, &bob);
    let mut ply = 0;
    c.bench_function("club_move_to_the_opponents_view", |bench| {
        bench.iter_custom(|iters| {
            let mut spent = Duration::ZERO;
            for _ in 0..iters {
                if ply == SANS.len() {
                    white.act(Action::Resign).unwrap();
                    white.act(Action::Rematch).unwrap();
                    black.act(Action::Rematch).unwrap();
                    (white, black) = (black, white);
                    assert_eq!(
                        white.room(Instant::now()).unwrap().1,
                        Role::Player(Color::White),
                        "the rematch turns the colours"
                    );
                    ply = 0;
                }
                let san = SANS[ply];
                let (mover, other) = if ply % 2 == 0 {
                    (white, black)
                } else {
                    (black, white)
                };
                let start = Instant::now();
                mover.act(Action::Move(san.into())).unwrap();
                let (view, _) = other.room(Instant::now()).unwrap();
                spent += start.elapsed();
                assert_eq!(view.game.sans().last().copied(), Some(san));
                ply += 1;
            }
            spent
        })
    });
    assert!(
        woken.load(Ordering::Relaxed) > 0,
        "bob was woken by the moves"
    );
}

criterion_group!(benches, move_to_the_opponent);
criterion_main!(benches);
