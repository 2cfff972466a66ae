//! The club at its own API: a clock moved by hand, members, and viewers nobody wakes.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ox88::club::lobby::Clock;
use ox88::club::{Member, Notify};

/// A clock that stands still until a test moves it, shared with the club it is given to.
#[derive(Clone)]
pub struct ManualClock {
    start: Instant,
    passed: Arc<Mutex<Duration>>,
}

impl ManualClock {
    pub fn new() -> ManualClock {
        ManualClock {
            start: Instant::now(),
            passed: Arc::default(),
        }
    }

    /// The time it shows.
    pub fn now(&self) -> Instant {
        self.start + *self.passed.lock().unwrap()
    }

    /// Moves it on by `by`.
    pub fn advance(&self, by: Duration) {
        *self.passed.lock().unwrap() += by;
    }

    /// The clock for [`ox88::club::Club::with_clock`].
    pub fn clock(&self) -> Clock {
        let me = self.clone();
        Arc::new(move || me.now())
    }
}

/// A member with a key (rated games allowed), id and name alike.
pub fn member(name: &str) -> Member {
    Member {
        id: format!("id-{name}"),
        name: name.into(),
        rated: true,
    }
}

/// A viewer's wake-up that does nothing: the tests read the views when they choose.
pub fn unheard() -> Notify {
    Arc::new(|| {})
}
