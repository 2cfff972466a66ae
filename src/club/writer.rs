//! The club's writes to its store, on a thread of their own: a move is shown to the room
//! first and its save is queued right after, so a slow or failing disk never holds up play
//! (nor the server's async workers, nor the broadcast to viewers).
//!
//! One thread takes the queue in order, so the writes of one game reach the store in the
//! order they were made. A save of a game replaces a save of the same game still waiting
//! in the queue (each save holds the whole game), so the queue holds at most one save per
//! game however slow the store is.
//!
//! A write that fails is kept and tried again after 0.1 s, then after twice as long each
//! time up to [`RETRY_MAX`], for as long as the server runs; the game's later writes wait
//! behind it (other games go on being saved). The club is told once when a game's writes
//! begin to fail and once when they are saved again ([`Report`]), and tells the players.
//! At shutdown [`Writer::flush`] waits, a bounded time, for the queue to empty.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::store::{Account, CodeRefused, GameRecord, Store, StoreError};
use super::study::StudyRecord;
use crate::game::glicko::Rating;

/// The first wait before a failed write is tried again; it doubles up to [`RETRY_MAX`].
pub const RETRY_FIRST: Duration = Duration::from_millis(100);
/// The longest wait between two tries of a failed write.
pub const RETRY_MAX: Duration = Duration::from_secs(5);

/// One write the club asks of its store.
#[derive(Clone, Debug, PartialEq)]
pub enum Write {
    /// Saves a game, new or again (after a move, when it ends, at shutdown).
    Save(GameRecord),
    /// Rates a finished game (its final save queued before).
    Rate {
        game: String,
        room: String,
        /// White's and Black's member ids.
        players: [String; 2],
        white_score: f64,
    },
    /// Forgets a game that was never played out.
    Forget {
        game: String,
        room: String,
        players: [String; 2],
    },
}

impl Write {
    /// The game the write is about: writes of one game keep their order.
    pub fn game(&self) -> &str {
        match self {
            Write::Save(r) => &r.id,
            Write::Rate { game, .. } | Write::Forget { game, .. } => game,
        }
    }

    fn room(&self) -> &str {
        match self {
            Write::Save(r) => &r.room,
            Write::Rate { room, .. } | Write::Forget { room, .. } => room,
        }
    }

    fn players(&self) -> [String; 2] {
        match self {
            Write::Save(r) => [r.white.clone(), r.black.clone()],
            Write::Rate { players, .. } | Write::Forget { players, .. } => players.clone(),
        }
    }

    /// Does it; the new ratings when it rated a game.
    fn apply(&self, store: &dyn Store) -> Result<Option<[Rating; 2]>, StoreError> {
        match self {
            Write::Save(record) => store.save_game(record).map(|()| None),
            Write::Rate {
                game,
                players: [white, black],
                white_score,
                ..
            } => store.rate_game(game, white, black, *white_score).map(Some),
            Write::Forget { game, .. } => store.forget_unplayed(game).map(|()| None),
        }
    }
}

/// What the writer tells the club (called on the writer's thread, with no lock held).
#[derive(Clone, Debug, PartialEq)]
pub enum Report {
    /// A game was rated: White's and Black's new ratings.
    Rated {
        room: String,
        players: [String; 2],
        ratings: [Rating; 2],
    },
    /// A game's writes have begun to fail (told once until they succeed again).
    Failing {
        room: String,
        players: [String; 2],
        error: String,
    },
    /// A game whose writes failed is saved again.
    Saved { room: String, players: [String; 2] },
}

/// A write waiting its turn, with its place in the queue.
struct Queued {
    seq: u64,
    write: Write,
}

/// A game whose write failed: its writes, oldest first, and when to try again.
struct Held {
    writes: VecDeque<Queued>,
    tries: u32,
    next: Instant,
    room: String,
    players: [String; 2],
}

/// A write asked by a session that waits for its answer (an account at sign-in, a key
/// code, a puzzle record): run on the writer's thread like every other write.
type Call = Box<dyn FnOnce(&dyn Store) + Send>;

#[derive(Default)]
struct Queue {
    /// Writes whose askers wait for the answer: taken before the games' writes.
    calls: VecDeque<Call>,
    ready: VecDeque<Queued>,
    held: HashMap<String, Held>,
    /// Writes queued and not yet done, by place: a flush waits for those before it.
    open: BTreeSet<u64>,
    last_seq: u64,
    /// The club is gone: finish what is queued and stop.
    closed: bool,
}

impl Queue {
    /// Queues `write`, or lets it replace a save of the same game still waiting. (Writes
    /// in `ready` are newer than the game's held ones: they are looked at first.)
    fn push(&mut self, write: Write) {
        if let Write::Save(record) = &write {
            let in_ready = self
                .ready
                .iter_mut()
                .rev()
                .find(|q| q.write.game() == record.id);
            let waiting = match in_ready {
                Some(q) => Some(q),
                None => self
                    .held
                    .get_mut(&record.id)
                    .and_then(|h| h.writes.back_mut()),
            };
            if let Some(q) = waiting
                && matches!(q.write, Write::Save(_))
            {
                q.write = write;
                return;
            }
        }
        self.last_seq += 1;
        self.open.insert(self.last_seq);
        // Into `ready` even for a held game: the thread moves it behind the held ones.
        self.ready.push_back(Queued {
            seq: self.last_seq,
            write,
        });
    }

    /// The held game due soonest, and when.
    fn next_retry(&self) -> Option<(String, Instant)> {
        self.held
            .iter()
            .filter(|(_, h)| !h.writes.is_empty())
            .min_by_key(|(_, h)| h.next)
            .map(|(game, h)| (game.clone(), h.next))
    }
}

/// What the writer's thread does next.
enum Step {
    /// A write whose asker waits for it.
    Call(Call),
    /// A write from the queue.
    Write(Queued),
    /// The front write of a held game, tried again.
    Retry(Queued),
    Stop,
}

struct Shared {
    queue: Mutex<Queue>,
    /// Something was queued, or the club is gone.
    queued: Condvar,
    /// A write was done.
    done: Condvar,
}

fn lock(m: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The club's handle on its writing thread. Dropping it lets the thread finish the queue
/// and stop (it is not waited for: [`Writer::flush`] is).
pub struct Writer {
    shared: Arc<Shared>,
}

impl Writer {
    /// Starts the thread that writes to `store`; `report` hears of ratings and failures.
    pub fn start(
        store: Arc<dyn Store>,
        report: impl Fn(Report) + Send + 'static,
    ) -> std::io::Result<Writer> {
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue::default()),
            queued: Condvar::new(),
            done: Condvar::new(),
        });
        let thread = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("club-writer".into())
            .spawn(move || run(&thread, store.as_ref(), &report))?;
        Ok(Writer { shared })
    }

    /// Queues a write; never waits for the store.
    pub fn send(&self, write: Write) {
        lock(&self.shared.queue).push(write);
        self.shared.queued.notify_one();
    }

    /// Runs `f` on the writer's thread without waiting for it (the club's own small writes,
    /// such as the news kept for a member, whose failure the writer logs).
    pub fn post(&self, f: impl FnOnce(&dyn Store) + Send + 'static) {
        let mut q = lock(&self.shared.queue);
        if !q.closed {
            q.calls.push_back(Box::new(f));
            self.shared.queued.notify_one();
        }
    }

    /// Runs `f` on the writer's thread and waits for its answer: a write a session needs
    /// the outcome of. `None` when the writer has stopped.
    pub fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> R + Send + 'static,
    ) -> Option<R> {
        let (answer, answered) = std::sync::mpsc::sync_channel(1);
        {
            let mut q = lock(&self.shared.queue);
            if q.closed {
                return None;
            }
            q.calls.push_back(Box::new(move |store: &dyn Store| {
                let _ = answer.send(f(store));
            }));
        }
        self.shared.queued.notify_one();
        answered.recv().ok()
    }

    /// Waits until every write queued before the call is done (the games' writes and the
    /// club's own posted ones: a study, news), or `within` has passed; whether they all
    /// were.
    pub fn flush(&self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        // Posted calls run in order: once this one has run, so have all before it.
        let (ran, has_run) = std::sync::mpsc::sync_channel::<()>(1);
        let posted = {
            let mut q = lock(&self.shared.queue);
            if q.closed {
                false
            } else {
                q.calls.push_back(Box::new(move |_: &dyn Store| {
                    let _ = ran.send(());
                }));
                true
            }
        };
        self.shared.queued.notify_one();
        if posted
            && has_run
                .recv_timeout(deadline.saturating_duration_since(Instant::now()))
                .is_err()
        {
            return false;
        }
        let mut q = lock(&self.shared.queue);
        let upto = q.last_seq;
        loop {
            if q.open.first().is_none_or(|&first| first > upto) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            q = self
                .shared
                .done
                .wait_timeout(q, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Writes queued and not yet done (a save that replaced another counts once).
    pub fn pending(&self) -> usize {
        lock(&self.shared.queue).open.len()
    }
}

impl Drop for Writer {
    fn drop(&mut self) {
        lock(&self.shared.queue).closed = true;
        self.shared.queued.notify_all();
    }
}

/// How long to wait after the `tries`-th failure in a row.
fn backoff(tries: u32) -> Duration {
    RETRY_FIRST
        .saturating_mul(1u32 << tries.saturating_sub(1).min(16))
        .min(RETRY_MAX)
}

/// The writer's thread: takes writes in order until the club is gone and the queue empty.
fn run(shared: &Shared, store: &dyn Store, report: &dyn Fn(Report)) {
    loop {
        let step = next_step(shared);
        let (queued, retry) = match step {
            Step::Call(call) => {
                call(store);
                continue;
            }
            Step::Write(q) => (q, false),
            Step::Retry(q) => (q, true),
            Step::Stop => return,
        };
        let outcome = queued.write.apply(store);
        let mut q = lock(&shared.queue);
        let game = queued.write.game().to_string();
        match outcome {
            Ok(rated) => {
                let mut saved_again = None;
                if retry && let Some(h) = q.held.get_mut(&game) {
                    h.tries = 0;
                    h.next = Instant::now();
                    if h.writes.is_empty() {
                        let h = q.held.remove(&game).expect("just seen");
                        saved_again = Some(Report::Saved {
                            room: h.room,
                            players: h.players,
                        });
                        eprintln!("ox88 serve: game {game} is saved again");
                    }
                }
                drop(q);
                if let Some(ratings) = rated {
                    report(Report::Rated {
                        room: queued.write.room().to_string(),
                        players: queued.write.players(),
                        ratings,
                    });
                }
                if let Some(r) = saved_again {
                    report(r);
                }
                // Done only once the club has heard: a flush covers what it shows.
                lock(&shared.queue).open.remove(&queued.seq);
                shared.done.notify_all();
            }
            Err(e) => {
                let first = !q.held.contains_key(&game);
                let h = q.held.entry(game.clone()).or_insert_with(|| Held {
                    writes: VecDeque::new(),
                    tries: 0,
                    next: Instant::now(),
                    room: queued.write.room().to_string(),
                    players: queued.write.players(),
                });
                h.tries += 1;
                h.next = Instant::now() + backoff(h.tries);
                let failing = Report::Failing {
                    room: h.room.clone(),
                    players: h.players.clone(),
                    error: e.to_string(),
                };
                h.writes.push_front(queued);
                let closed = q.closed;
                drop(q);
                if first {
                    eprintln!("ox88 serve: {e} (kept, and tried again until it is saved)");
                    if !closed {
                        report(failing);
                    }
                }
            }
        }
    }
}

/// Waits for the next thing to do: a held game's retry that is due, else the next write
/// queued (moved behind its game's held writes if the game is held), else sleeps until one
/// of those comes. Once the club is gone and nothing new is queued, a held game whose next
/// try is not due is given up (it has been tried), said on standard error.
fn next_step(shared: &Shared) -> Step {
    let mut q = lock(&shared.queue);
    loop {
        if let Some(call) = q.calls.pop_front() {
            return Step::Call(call);
        }
        let now = Instant::now();
        let retry = q.next_retry();
        if let Some((game, at)) = &retry
            && *at <= now
        {
            let h = q.held.get_mut(game).expect("listed");
            return Step::Retry(h.writes.pop_front().expect("not empty"));
        }
        if let Some(queued) = q.ready.pop_front() {
            match q.held.get_mut(queued.write.game()) {
                Some(h) => h.writes.push_back(queued),
                None => return Step::Write(queued),
            }
            continue;
        }
        q = match retry {
            None if q.closed => return Step::Stop,
            Some((game, _)) if q.closed => {
                let h = q.held.remove(&game).expect("listed");
                eprintln!(
                    "ox88 serve: game {game}: {} write(s) could not be saved",
                    h.writes.len()
                );
                for w in h.writes {
                    q.open.remove(&w.seq);
                }
                shared.done.notify_all();
                q
            }
            Some((_, at)) => {
                let wait = at.saturating_duration_since(now);
                shared
                    .queued
                    .wait_timeout(q, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0
            }
            None => shared.queued.wait(q).unwrap_or_else(|e| e.into_inner()),
        };
    }
}

/// `store` as the club hands it out: reads go to it directly (SQLite's readers never wait
/// for its writer), and every write is done on `writer`'s thread, so the writer is the one
/// code that writes to the database.
pub fn through(writer: Arc<Writer>, store: Arc<dyn Store>) -> Arc<dyn Store> {
    Arc::new(Through { writer, store })
}

struct Through {
    writer: Arc<Writer>,
    store: Arc<dyn Store>,
}

impl Through {
    fn write<R: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn Store) -> Result<R, StoreError> + Send + 'static,
    ) -> Result<R, StoreError> {
        self.writer
            .call(f)
            .unwrap_or_else(|| Err(StoreError("the club's writer has stopped".into())))
    }
}

impl Store for Through {
    fn is_banned(&self, account: &str) -> Result<bool, StoreError> {
        self.store.is_banned(account)
    }
    fn save_tournament(&self, t: &super::store::TournamentRecord) -> Result<(), StoreError> {
        let t = t.clone();
        self.write(move |s| s.save_tournament(&t))
    }
    fn tournaments(&self) -> Result<Vec<super::store::TournamentRecord>, StoreError> {
        self.store.tournaments()
    }
    fn tournament(&self, id: u32) -> Result<Option<super::store::TournamentRecord>, StoreError> {
        self.store.tournament(id)
    }
    fn close_open_tournaments(&self, keep: &[u32]) -> Result<usize, StoreError> {
        let keep = keep.to_vec();
        self.write(move |s| s.close_open_tournaments(&keep))
    }
    fn save_study(&self, record: &StudyRecord) -> Result<(), StoreError> {
        let record = record.clone();
        self.write(move |s| s.save_study(&record))
    }
    fn studies(&self) -> Result<Vec<StudyRecord>, StoreError> {
        self.store.studies()
    }
    fn study(&self, name: &str) -> Result<Option<StudyRecord>, StoreError> {
        self.store.study(name)
    }
    fn delete_study(&self, name: &str) -> Result<bool, StoreError> {
        let name = name.to_string();
        self.write(move |s| s.delete_study(&name))
    }
    fn take_orders(&self) -> Result<super::store::Orders, StoreError> {
        self.write(|s| s.take_orders())
    }
    fn player(&self, id: &str, name: &str) -> Result<Rating, StoreError> {
        let (id, name) = (id.to_string(), name.to_string());
        self.write(move |s| s.player(&id, &name))
    }
    fn key_login(&self, key: &str) -> Result<Option<Account>, StoreError> {
        let key = key.to_string();
        self.write(move |s| s.key_login(&key))
    }
    fn new_account(&self, key: &str, name: &str) -> Result<Option<Account>, StoreError> {
        let (key, name) = (key.to_string(), name.to_string());
        self.write(move |s| s.new_account(&key, &name))
    }
    fn account_named(&self, name: &str) -> Result<Option<Account>, StoreError> {
        self.store.account_named(name)
    }
    fn keys_of(&self, account: &str) -> Result<usize, StoreError> {
        self.store.keys_of(account)
    }
    fn put_key_code(
        &self,
        account: &str,
        code: &str,
        expires: chrono::DateTime<chrono::Utc>,
    ) -> Result<(), StoreError> {
        let (account, code) = (account.to_string(), code.to_string());
        self.write(move |s| s.put_key_code(&account, &code, expires))
    }
    fn add_key_by_code(
        &self,
        name: &str,
        code: &str,
        key: &str,
    ) -> Result<Result<Account, CodeRefused>, StoreError> {
        let (name, code, key) = (name.to_string(), code.to_string(), key.to_string());
        self.write(move |s| s.add_key_by_code(&name, &code, &key))
    }
    fn rating(&self, id: &str) -> Result<Rating, StoreError> {
        self.store.rating(id)
    }
    fn save_game(&self, game: &GameRecord) -> Result<(), StoreError> {
        let game = game.clone();
        self.write(move |s| s.save_game(&game))
    }
    fn rate_game(
        &self,
        game_id: &str,
        white: &str,
        black: &str,
        white_score: f64,
    ) -> Result<[Rating; 2], StoreError> {
        let (g, w, b) = (game_id.to_string(), white.to_string(), black.to_string());
        self.write(move |s| s.rate_game(&g, &w, &b, white_score))
    }
    fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.store.game(id)
    }
    fn games_of(&self, member: &str, limit: usize) -> Result<Vec<GameRecord>, StoreError> {
        self.store.games_of(member, limit)
    }
    fn unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.store.unfinished()
    }
    fn rating_history(&self, member: &str) -> Result<Vec<(String, Rating)>, StoreError> {
        self.store.rating_history(member)
    }
    fn members(&self, limit: usize) -> Result<Vec<super::store::MemberRating>, StoreError> {
        self.store.members(limit)
    }
    fn puzzle_record(&self, member: &str) -> Result<Option<String>, StoreError> {
        self.store.puzzle_record(member)
    }
    fn save_puzzle_record(&self, member: &str, json: &str) -> Result<(), StoreError> {
        let (member, json) = (member.to_string(), json.to_string());
        self.write(move |s| s.save_puzzle_record(&member, &json))
    }
    fn forget_unplayed(&self, id: &str) -> Result<(), StoreError> {
        let id = id.to_string();
        self.write(move |s| s.forget_unplayed(&id))
    }
    fn news(&self) -> Result<Vec<(String, String)>, StoreError> {
        self.store.news()
    }
    fn keep_news(&self, member: &str, text: &str, kept: usize) -> Result<(), StoreError> {
        let (member, text) = (member.to_string(), text.to_string());
        self.write(move |s| s.keep_news(&member, &text, kept))
    }
    fn clear_news(&self, member: &str) -> Result<(), StoreError> {
        let member = member.to_string();
        self.write(move |s| s.clear_news(&member))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::store::SqliteStore;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// A store that records the saves it is asked for and fails while told to.
    struct Flaky {
        inner: SqliteStore,
        failing: AtomicBool,
        tries: AtomicUsize,
        saves: Mutex<Vec<(String, usize)>>,
        /// The thread each study write was done on.
        study_writes: Mutex<Vec<Option<String>>>,
    }

    impl Flaky {
        fn new() -> Arc<Flaky> {
            Arc::new(Flaky {
                inner: SqliteStore::in_memory().unwrap(),
                failing: AtomicBool::new(false),
                tries: AtomicUsize::new(0),
                saves: Mutex::new(Vec::new()),
                study_writes: Mutex::new(Vec::new()),
            })
        }

        fn fail(&self) -> Result<(), StoreError> {
            self.tries.fetch_add(1, Ordering::SeqCst);
            if self.failing.load(Ordering::SeqCst) {
                return Err(StoreError("disk on fire".into()));
            }
            Ok(())
        }
    }

    impl Store for Flaky {
        fn key_login(&self, key: &str) -> Result<Option<Account>, StoreError> {
            self.inner.key_login(key)
        }
        fn new_account(&self, key: &str, name: &str) -> Result<Option<Account>, StoreError> {
            self.inner.new_account(key, name)
        }
        fn account_named(&self, name: &str) -> Result<Option<Account>, StoreError> {
            self.inner.account_named(name)
        }
        fn keys_of(&self, account: &str) -> Result<usize, StoreError> {
            self.inner.keys_of(account)
        }
        fn put_key_code(
            &self,
            account: &str,
            code: &str,
            expires: chrono::DateTime<chrono::Utc>,
        ) -> Result<(), StoreError> {
            self.inner.put_key_code(account, code, expires)
        }
        fn add_key_by_code(
            &self,
            name: &str,
            code: &str,
            key: &str,
        ) -> Result<Result<Account, CodeRefused>, StoreError> {
            self.inner.add_key_by_code(name, code, key)
        }
        fn player(&self, id: &str, name: &str) -> Result<Rating, StoreError> {
            self.inner.player(id, name)
        }
        fn members(
            &self,
            limit: usize,
        ) -> Result<Vec<crate::club::store::MemberRating>, StoreError> {
            self.inner.members(limit)
        }
        fn rating(&self, id: &str) -> Result<Rating, StoreError> {
            self.inner.rating(id)
        }
        fn save_game(&self, game: &GameRecord) -> Result<(), StoreError> {
            self.fail()?;
            self.saves
                .lock()
                .unwrap()
                .push((game.id.clone(), game.pgn.len()));
            self.inner.save_game(game)
        }
        fn rate_game(
            &self,
            game_id: &str,
            white: &str,
            black: &str,
            white_score: f64,
        ) -> Result<[Rating; 2], StoreError> {
            self.fail()?;
            self.inner.rate_game(game_id, white, black, white_score)
        }
        fn game(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
            self.inner.game(id)
        }
        fn games_of(&self, member: &str, limit: usize) -> Result<Vec<GameRecord>, StoreError> {
            self.inner.games_of(member, limit)
        }
        fn unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
            self.inner.unfinished()
        }
        fn rating_history(&self, member: &str) -> Result<Vec<(String, Rating)>, StoreError> {
            self.inner.rating_history(member)
        }
        fn puzzle_record(&self, member: &str) -> Result<Option<String>, StoreError> {
            self.inner.puzzle_record(member)
        }
        fn save_puzzle_record(&self, member: &str, json: &str) -> Result<(), StoreError> {
            self.inner.save_puzzle_record(member, json)
        }
        fn forget_unplayed(&self, id: &str) -> Result<(), StoreError> {
            self.fail()?;
            self.inner.forget_unplayed(id)
        }
        fn news(&self) -> Result<Vec<(String, String)>, StoreError> {
            self.inner.news()
        }
        fn keep_news(&self, member: &str, text: &str, kept: usize) -> Result<(), StoreError> {
            self.fail()?;
            self.inner.keep_news(member, text, kept)
        }
        fn clear_news(&self, member: &str) -> Result<(), StoreError> {
            self.fail()?;
            self.inner.clear_news(member)
        }
        fn save_study(&self, record: &StudyRecord) -> Result<(), StoreError> {
            self.note_study_write();
            self.inner.save_study(record)
        }
        fn studies(&self) -> Result<Vec<StudyRecord>, StoreError> {
            self.inner.studies()
        }
        fn study(&self, name: &str) -> Result<Option<StudyRecord>, StoreError> {
            self.inner.study(name)
        }
        fn delete_study(&self, name: &str) -> Result<bool, StoreError> {
            self.note_study_write();
            self.inner.delete_study(name)
        }
    }

    impl Flaky {
        fn note_study_write(&self) {
            let thread = std::thread::current().name().map(String::from);
            self.study_writes.lock().unwrap().push(thread);
        }
    }

    fn record(id: &str, pgn: &str, result: Option<&str>) -> GameRecord {
        GameRecord {
            id: id.into(),
            room: format!("room-{id}"),
            white: "w".into(),
            black: "b".into(),
            white_name: "white".into(),
            black_name: "black".into(),
            pgn: pgn.into(),
            result: result.map(String::from),
            termination: None,
            time_control: None,
            rated: true,
            clocks_ms: None,
        }
    }

    fn writer(store: &Arc<Flaky>) -> (Writer, Arc<Mutex<Vec<Report>>>) {
        let heard = Arc::new(Mutex::new(Vec::new()));
        let h = Arc::clone(&heard);
        let w = Writer::start(Arc::clone(store) as Arc<dyn Store>, move |r| {
            h.lock().unwrap().push(r)
        })
        .unwrap();
        (w, heard)
    }

    const FLUSH: Duration = Duration::from_secs(10);

    #[test]
    fn writes_of_a_game_arrive_in_order_and_a_game_is_rated_once() {
        let store = Flaky::new();
        let (w, heard) = writer(&store);
        let mut pgn = String::new();
        for i in 0..50 {
            pgn.push_str(&format!("{i}. "));
            w.send(Write::Save(record("g", &pgn, None)));
        }
        w.send(Write::Save(record("g", &pgn, Some("1-0"))));
        let rate = Write::Rate {
            game: "g".into(),
            room: "room-g".into(),
            players: ["w".into(), "b".into()],
            white_score: 1.0,
        };
        w.send(rate.clone());
        assert!(w.flush(FLUSH));
        let saves = store.saves.lock().unwrap().clone();
        let lengths: Vec<usize> = saves.iter().map(|(_, n)| *n).collect();
        assert!(
            lengths.windows(2).all(|p| p[0] < p[1]),
            "each save is newer than the one before, none twice: {lengths:?}"
        );
        assert_eq!(lengths.last(), Some(&pgn.len()));
        let kept = store.inner.game("g").unwrap().unwrap();
        assert_eq!((kept.pgn, kept.result.as_deref()), (pgn, Some("1-0")));
        let rated: Vec<_> = heard
            .lock()
            .unwrap()
            .iter()
            .filter(|r| matches!(r, Report::Rated { .. }))
            .cloned()
            .collect();
        assert_eq!(rated.len(), 1, "{rated:?}");
        assert_eq!(store.inner.rating_history("w").unwrap().len(), 1);
    }

    #[test]
    fn a_failing_write_is_told_once_retried_and_kept_until_it_is_saved() {
        let store = Flaky::new();
        let (w, heard) = writer(&store);
        store.failing.store(true, Ordering::SeqCst);
        w.send(Write::Save(record("g", "1. e4", None)));
        // Several tries fail (each retried after a backoff) while more moves come.
        let until = Instant::now() + FLUSH;
        while store.tries.load(Ordering::SeqCst) < 4 {
            assert!(Instant::now() < until, "the write is tried again");
            std::thread::sleep(Duration::from_millis(10));
        }
        w.send(Write::Save(record("g", "1. e4 e5", None)));
        w.send(Write::Save(record("other", "1. d4", None)));
        assert!(!w.flush(Duration::from_millis(50)), "nothing is saved yet");
        assert!(w.pending() >= 1);
        store.failing.store(false, Ordering::SeqCst);
        assert!(w.flush(FLUSH), "saved once the store works again");
        assert_eq!(
            store.inner.game("g").unwrap().unwrap().pgn,
            "1. e4 e5",
            "the latest save of the game won"
        );
        assert!(store.inner.game("other").unwrap().is_some());
        let heard = heard.lock().unwrap().clone();
        let failing = heard
            .iter()
            .filter(|r| matches!(r, Report::Failing { room, .. } if room == "room-g"))
            .count();
        let saved = heard
            .iter()
            .filter(|r| matches!(r, Report::Saved { room, .. } if room == "room-g"))
            .count();
        assert_eq!((failing, saved), (1, 1), "{heard:?}");
        assert_eq!(w.pending(), 0);
    }

    #[test]
    fn a_game_whose_write_fails_holds_up_no_other_game() {
        let store = Flaky::new();
        let (w, _) = writer(&store);
        // A save that can never succeed: its clock is out of SQLite's range.
        let mut bad = record("bad", "1. e4", None);
        bad.clocks_ms = Some([u64::MAX, 0]);
        w.send(Write::Save(bad));
        w.send(Write::Save(record("good", "1. d4", None)));
        let until = Instant::now() + FLUSH;
        while store.inner.game("good").unwrap().is_none() {
            assert!(Instant::now() < until, "the other game is saved");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(store.inner.game("bad").unwrap().is_none());
        assert_eq!(w.pending(), 1, "the failing save is kept");
    }

    #[test]
    fn a_study_is_written_on_the_writers_thread_and_read_directly() {
        let store = Flaky::new();
        let (w, _) = writer(&store);
        let shared = through(Arc::new(w), Arc::clone(&store) as Arc<dyn Store>);
        let study = crate::club::study::Study::new(
            "opening",
            "key:olga",
            "olga",
            crate::club::study::StudyLimits::default(),
        );
        shared.save_study(&study.record()).unwrap();
        assert_eq!(shared.study("OPENING").unwrap(), Some(study.record()));
        assert_eq!(shared.studies().unwrap().len(), 1);
        assert!(shared.delete_study("opening").unwrap());
        assert_eq!(store.inner.study("opening").unwrap(), None);
        let threads = store.study_writes.lock().unwrap().clone();
        let writer = Some("club-writer".to_string());
        assert_eq!(threads, [writer.clone(), writer]);
    }

    #[test]
    fn backoff_doubles_up_to_its_cap() {
        let waits: Vec<Duration> = (1..=10).map(backoff).collect();
        assert_eq!(waits[0], RETRY_FIRST);
        assert_eq!(waits[1], RETRY_FIRST * 2);
        assert!(waits.windows(2).all(|p| p[0] <= p[1]));
        assert_eq!(*waits.last().unwrap(), RETRY_MAX);
        assert_eq!(backoff(u32::MAX), RETRY_MAX);
    }
}
