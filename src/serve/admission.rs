//! Who holds a place on the server, and for how long.
//!
//! A connection that has not authenticated is a stranger: it waits in a small budget of its
//! own ([`PreAuth`]: so many in all, so many per address, a short deadline) and never holds
//! a session slot. When an address's share is full, one of its waiting connections is
//! dropped to make room for the newest: a silent one (no SSH version line yet), else one
//! stalled (a quarter of the grace without authenticating), the oldest among those; when
//! there is none, every waiting connection of the address is young and speaks SSH, and it
//! is the newcomer that is closed. A newcomer that has not spoken yet pushes nobody out of
//! a full share: it knocks ([`Knock`], outside the budget, a bounded number at once) until
//! its first bytes come, [`HELLO_WAIT`] at most, and only then asks for a place. So a
//! member logging in from an address that also holds a hundred silent connections,
//! reopened as they are closed, still gets in: silent connections never push anyone out,
//! and the member's client speaks first thing. When the whole budget is full, the same
//! choice is made among every address's. A slot (so many sessions in all, so many per
//! address) is taken only once the connection authenticated. No address is exempt,
//! loopback included.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// The budget of connections not yet authenticated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreAuth {
    /// Connections waiting to authenticate, in all.
    pub max: usize,
    /// The same from one address.
    pub per_ip: usize,
    /// How long a connection may take to authenticate, and then to start its session.
    pub grace: Duration,
}

/// Defaults of [`PreAuth`] (the command line's too).
pub const MAX_UNAUTHENTICATED: usize = 64;
pub const MAX_UNAUTHENTICATED_PER_IP: usize = 8;
pub const LOGIN_GRACE: Duration = Duration::from_secs(20);

impl Default for PreAuth {
    fn default() -> PreAuth {
        PreAuth {
            max: MAX_UNAUTHENTICATED,
            per_ip: MAX_UNAUTHENTICATED_PER_IP,
            grace: LOGIN_GRACE,
        }
    }
}

/// How long a newcomer that finds its share full may take to say its first bytes.
pub const HELLO_WAIT: Duration = Duration::from_secs(1);

/// The server's places: session slots for the authenticated, the waiting room for the rest.
pub struct Admission {
    max_sessions: usize,
    max_per_ip: usize,
    pre_auth: PreAuth,
    sessions: Mutex<Counts>,
    waiting: Mutex<Waiting>,
    /// Newcomers waiting for their first bytes before they ask for a place.
    knocking: AtomicUsize,
}

/// A silent newcomer's wait for its first bytes, counted while it lasts (at most four
/// times the waiting room at once).
pub struct Knock {
    admission: Arc<Admission>,
}

impl Drop for Knock {
    fn drop(&mut self) {
        self.admission.knocking.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Sessions now: in all and per address.
#[derive(Default)]
struct Counts {
    total: usize,
    per_ip: HashMap<IpAddr, usize>,
}

/// How far a waiting connection got: the less far, the sooner it is dropped for a newer one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// Nothing yet (not even the SSH version line).
    Silent,
    /// Sent its SSH version.
    Spoke,
    /// Asked to authenticate (the key exchange done).
    Asked,
}

/// A waiting connection: where from, since when, how far it got, how it is told to go.
struct Waiter {
    ip: IpAddr,
    since: Instant,
    stage: Stage,
    dropped: Arc<Notify>,
    /// Has the peer sent bytes the server has not read yet? A client speaks first thing,
    /// but on a busy server its connection's task may not have read them when a flood
    /// arrives: asked before such a connection is called silent and dropped.
    heard: Option<Heard>,
}

/// Asks a waiting connection's socket whether bytes wait on it, without reading them.
pub type Heard = Box<dyn Fn() -> bool + Send>;

impl Waiter {
    /// How far it got, counting bytes sent and not yet read as having spoken.
    fn stage_now(&self) -> Stage {
        match (&self.stage, &self.heard) {
            (Stage::Silent, Some(heard)) if heard() => Stage::Spoke,
            (stage, _) => *stage,
        }
    }
}

/// Connections waiting to authenticate, by the order they came in.
#[derive(Default)]
struct Waiting {
    next: u64,
    conns: BTreeMap<u64, Waiter>,
    per_ip: HashMap<IpAddr, usize>,
}

impl Waiting {
    fn remove(&mut self, id: u64) -> Option<Waiter> {
        let w = self.conns.remove(&id)?;
        decrement(&mut self.per_ip, w.ip);
        Some(w)
    }

    /// The waiting connection to drop for a newer one (of `ip` only when given): a silent
    /// one, else one waiting since before `stalled`; the least far, the oldest among those.
    /// None: every one speaks SSH and is young.
    fn to_drop(&self, ip: Option<IpAddr>, stalled: Instant) -> Option<u64> {
        self.conns
            .iter()
            .filter(|(_, w)| ip.is_none_or(|ip| w.ip == ip))
            .map(|(id, w)| (*id, w, w.stage_now()))
            .filter(|(_, w, stage)| *stage == Stage::Silent || w.since <= stalled)
            .min_by_key(|(id, _, stage)| (*stage, *id))
            .map(|(id, _, _)| id)
    }
}

fn decrement(per_ip: &mut HashMap<IpAddr, usize>, ip: IpAddr) {
    if let Some(n) = per_ip.get_mut(&ip) {
        *n = n.saturating_sub(1);
        if *n == 0 {
            per_ip.remove(&ip);
        }
    }
}

/// A connection's place in the waiting room, given back on drop. `dropped` is told when the
/// place was given to a newer connection: the connection is to close.
pub struct Ticket {
    admission: Arc<Admission>,
    id: u64,
    dropped: Arc<Notify>,
}

impl Ticket {
    /// Told (once, and remembered if nobody waits yet) when this connection lost its place.
    pub fn dropped(&self) -> Arc<Notify> {
        Arc::clone(&self.dropped)
    }

    /// What marks how far this connection got (it may be kept apart from the ticket).
    pub fn stage(&self) -> Standing {
        Standing {
            admission: Arc::clone(&self.admission),
            id: self.id,
        }
    }
}

/// Marks how far a waiting connection got.
#[derive(Clone)]
pub struct Standing {
    admission: Arc<Admission>,
    id: u64,
}

impl Standing {
    /// The connection got as far as `stage` (never back).
    pub fn reached(&self, stage: Stage) {
        let mut w = self.admission.lock_waiting();
        if let Some(waiter) = w.conns.get_mut(&self.id) {
            waiter.stage = waiter.stage.max(stage);
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut w = self.admission.lock_waiting();
        w.remove(self.id);
    }
}

/// One session's slot, given back on drop.
pub struct Slot {
    admission: Arc<Admission>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.admission.lock_sessions();
        c.total = c.total.saturating_sub(1);
        decrement(&mut c.per_ip, self.ip);
    }
}

impl Admission {
    pub fn new(max_sessions: usize, max_per_ip: usize, pre_auth: PreAuth) -> Arc<Admission> {
        Arc::new(Admission {
            max_sessions: max_sessions.max(1),
            max_per_ip: max_per_ip.max(1),
            pre_auth: PreAuth {
                max: pre_auth.max.max(1),
                per_ip: pre_auth.per_ip.max(1),
                ..pre_auth
            },
            sessions: Mutex::default(),
            waiting: Mutex::default(),
            knocking: AtomicUsize::new(0),
        })
    }

    /// Whether a newcomer from `ip` would have to push a waiting connection out (its
    /// address's share, or the whole waiting room, is full).
    pub fn full_for(&self, ip: IpAddr) -> bool {
        let w = self.lock_waiting();
        w.per_ip.get(&ip).copied().unwrap_or(0) >= self.pre_auth.per_ip
            || w.conns.len() >= self.pre_auth.max
    }

    /// Leave for a silent newcomer to wait for its first bytes; none when too many wait
    /// already (the newcomer is then closed).
    pub fn knock(self: &Arc<Self>) -> Option<Knock> {
        let cap = 4 * self.pre_auth.max;
        self.knocking
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                (n < cap).then_some(n + 1)
            })
            .ok()?;
        Some(Knock {
            admission: Arc::clone(self),
        })
    }

    pub fn grace(&self) -> Duration {
        self.pre_auth.grace
    }

    fn lock_sessions(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock_waiting(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place in the waiting room for a connection from `ip`: when `ip`'s share (or the
    /// whole room) is full, a waiting connection of `ip` (or of anyone) loses its place (a
    /// silent or stalled one, the least far and then the oldest) and is told so through its
    /// ticket. Returns the ticket, or none when none could be made room for (every waiting
    /// connection speaks SSH and is young: the newcomer is to be closed); and the address
    /// of the connection that lost its place, if one did.
    #[cfg(test)]
    pub fn arrive(self: &Arc<Self>, ip: IpAddr) -> (Option<Ticket>, Option<IpAddr>) {
        self.arrive_heard(ip, None)
    }

    /// [`Admission::arrive`], with a way to ask the connection's socket whether its peer
    /// already spoke (bytes waiting, not yet read).
    pub fn arrive_heard(
        self: &Arc<Self>,
        ip: IpAddr,
        heard: Option<Heard>,
    ) -> (Option<Ticket>, Option<IpAddr>) {
        let mut w = self.lock_waiting();
        let mine = w.per_ip.get(&ip).copied().unwrap_or(0);
        let now = Instant::now();
        let stalled = now.checked_sub(self.pre_auth.grace / 4).unwrap_or(now);
        let full = if mine >= self.pre_auth.per_ip {
            Some(Some(ip))
        } else if w.conns.len() >= self.pre_auth.max {
            Some(None)
        } else {
            None
        };
        let evict = match full {
            None => None,
            Some(of) => match w.to_drop(of, stalled) {
                Some(id) => Some(id),
                None => return (None, None),
            },
        };
        let evicted = evict.and_then(|id| w.remove(id)).map(|gone| {
            gone.dropped.notify_one();
            gone.ip
        });
        let id = w.next;
        w.next += 1;
        let dropped = Arc::new(Notify::new());
        let waiter = Waiter {
            ip,
            since: now,
            stage: Stage::Silent,
            dropped: Arc::clone(&dropped),
            heard,
        };
        w.conns.insert(id, waiter);
        *w.per_ip.entry(ip).or_insert(0) += 1;
        let ticket = Ticket {
            admission: Arc::clone(self),
            id,
            dropped,
        };
        (Some(ticket), evicted)
    }

    /// A session slot for an authenticated connection from `ip`, or why there is none, in
    /// words for the person.
    pub fn take_slot(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, String> {
        let mut c = self.lock_sessions();
        if c.total >= self.max_sessions {
            return Err(format!(
                "the server is full ({} sessions at once); try again later",
                c.total
            ));
        }
        let n = c.per_ip.entry(ip).or_insert(0);
        if *n >= self.max_per_ip {
            return Err(format!(
                "your address ({ip}) already has the most sessions it may here ({n}); \
                 close one and try again"
            ));
        }
        *n += 1;
        c.total += 1;
        Ok(Slot {
            admission: Arc::clone(self),
            ip,
        })
    }

    /// Connections waiting to authenticate now: in all, and from `ip`.
    #[cfg(test)]
    pub fn waiting(&self, ip: IpAddr) -> (usize, usize) {
        let w = self.lock_waiting();
        (w.conns.len(), w.per_ip.get(&ip).copied().unwrap_or(0))
    }

    /// Sessions holding a slot now.
    #[cfg(test)]
    pub fn sessions(&self) -> usize {
        self.lock_sessions().total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn admission(max: usize, per_ip: usize) -> Arc<Admission> {
        let pre_auth = PreAuth {
            max,
            per_ip,
            grace: LOGIN_GRACE,
        };
        Admission::new(4, 2, pre_auth)
    }

    /// Whether the ticket was told it lost its place (without waiting).
    fn was_dropped(t: &Ticket) -> bool {
        let notified = t.dropped.notified();
        tokio::pin!(notified);
        let waker = std::task::Waker::noop();
        let mut cx = std::task::Context::from_waker(waker);
        notified.as_mut().poll(&mut cx).is_ready()
    }

    use std::future::Future;

    #[test]
    fn a_full_share_drops_the_addresss_oldest_waiting_connection() {
        let a = admission(10, 3);
        let local = ip("127.0.0.1");
        let silent: Vec<Ticket> = (0..3).map(|_| a.arrive(local).0.unwrap()).collect();
        assert_eq!(a.waiting(local), (3, 3));
        let (member, evicted) = a.arrive(local);
        let member = member.unwrap();
        assert_eq!(evicted, Some(local));
        assert!(was_dropped(&silent[0]), "the oldest goes");
        assert!(!was_dropped(&silent[1]) && !was_dropped(&silent[2]));
        assert!(!was_dropped(&member), "the newest stays");
        assert_eq!(a.waiting(local), (3, 3), "the share still holds");
        // Another address is not touched by this one's crowd.
        let (other, evicted) = a.arrive(ip("10.0.0.7"));
        let other = other.unwrap();
        assert_eq!(evicted, None);
        assert!(!was_dropped(&other));
        drop(silent);
        assert_eq!(
            a.waiting(local),
            (2, 1),
            "dropped tickets give their place back"
        );
    }

    #[test]
    fn silent_connections_push_out_only_silent_or_stalled_ones() {
        let a = admission(10, 3);
        let local = ip("127.0.0.1");
        let member = a.arrive(local).0.unwrap();
        member.stage().reached(Stage::Spoke);
        // A flood of silent connections, each reopened as soon as it is dropped.
        let mut silent: Vec<Ticket> = Vec::new();
        for _ in 0..100 {
            silent.push(a.arrive(local).0.unwrap());
        }
        assert!(
            !was_dropped(&member),
            "the member spoke: silent ones push out silent ones"
        );
        let dropped = silent.iter().filter(|t| was_dropped(t)).count();
        assert_eq!(dropped, 98, "all but the two newest silent ones");
        // All three speak now, and are young: a newcomer is not made room for.
        member.stage().reached(Stage::Asked);
        let speaking: Vec<&Ticket> = silent.iter().filter(|t| !was_dropped(t)).collect();
        for t in &speaking {
            t.stage().reached(Stage::Spoke);
        }
        member.stage().reached(Stage::Silent);
        let (newcomer, evicted) = a.arrive(local);
        assert!(
            newcomer.is_none() && evicted.is_none(),
            "closed, nobody pushed out"
        );
        assert!(!was_dropped(&member), "a stage is never lowered");
        assert_eq!(a.waiting(local), (3, 3));
    }

    #[test]
    fn a_connection_whose_bytes_wait_unread_is_not_taken_for_silent() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let a = admission(10, 3);
        let local = ip("127.0.0.1");
        // The member's client spoke at once, but its task has not read the line yet.
        let spoke = Arc::new(AtomicBool::new(false));
        let ear = Arc::clone(&spoke);
        let member = a
            .arrive_heard(local, Some(Box::new(move || ear.load(Ordering::Relaxed))))
            .0
            .unwrap();
        let early: Vec<Ticket> = (0..2).map(|_| a.arrive(local).0.unwrap()).collect();
        spoke.store(true, Ordering::Relaxed);
        // A flood: the member is the oldest waiting, yet only the silent ones go.
        let flood: Vec<Ticket> = (0..20).map(|_| a.arrive(local).0.unwrap()).collect();
        assert!(!was_dropped(&member), "its bytes wait: it spoke");
        assert!(early.iter().all(was_dropped));
        assert_eq!(flood.iter().filter(|t| was_dropped(t)).count(), 18);
        // Had it said nothing, it would have gone first, as the oldest silent one.
        spoke.store(false, Ordering::Relaxed);
        let _next = a.arrive(local).0.unwrap();
        assert!(was_dropped(&member));
    }

    #[test]
    fn a_full_share_is_seen_and_knocking_is_bounded() {
        let a = Admission::new(
            4,
            4,
            PreAuth {
                max: 3,
                per_ip: 2,
                grace: Duration::from_secs(20),
            },
        );
        let (local, other) = (ip("127.0.0.1"), ip("10.0.0.2"));
        let first = a.arrive(local).0.unwrap();
        assert!(!a.full_for(local));
        let second = a.arrive(local).0.unwrap();
        assert!(a.full_for(local), "the address's share of two is full");
        assert!(!a.full_for(other), "another address still has room");
        let third = a.arrive(other).0.unwrap();
        assert!(a.full_for(other), "the whole room of three is full");
        // Four times the room may knock at once; a knock that ends gives its place back.
        let knocks: Vec<Knock> = (0..12).map(|_| a.knock().unwrap()).collect();
        assert!(a.knock().is_none(), "a thirteenth waits for none");
        drop(knocks);
        assert!(a.knock().is_some());
        drop((first, second, third));
        assert!(!a.full_for(local));
    }

    #[test]
    fn a_stalled_connection_is_pushed_out_even_if_it_spoke() {
        let pre_auth = PreAuth {
            max: 10,
            per_ip: 1,
            grace: Duration::ZERO,
        };
        let a = Admission::new(4, 2, pre_auth);
        let local = ip("127.0.0.1");
        let stalled = a.arrive(local).0.unwrap();
        stalled.stage().reached(Stage::Asked);
        let (next, evicted) = a.arrive(local);
        assert!(next.is_some() && evicted == Some(local));
        assert!(was_dropped(&stalled));
    }

    #[test]
    fn a_full_room_drops_the_oldest_of_anyone() {
        let a = admission(3, 3);
        let first = a.arrive(ip("10.0.0.1")).0.unwrap();
        let _second = a.arrive(ip("10.0.0.2")).0.unwrap();
        let _third = a.arrive(ip("10.0.0.3")).0.unwrap();
        let (_fourth, evicted) = a.arrive(ip("10.0.0.4"));
        assert_eq!(evicted, Some(ip("10.0.0.1")));
        assert!(was_dropped(&first));
        assert_eq!(a.waiting(ip("10.0.0.1")), (3, 0));
    }

    #[test]
    fn slots_are_counted_in_all_and_per_address_and_given_back() {
        let a = admission(10, 3);
        let local = ip("127.0.0.1");
        let one = a.take_slot(local).unwrap();
        let _two = a.take_slot(local).unwrap();
        let why = a.take_slot(local).err().unwrap();
        assert!(why.contains("most sessions it may here (2)"), "{why}");
        let _three = a.take_slot(ip("10.0.0.1")).unwrap();
        let _four = a.take_slot(ip("10.0.0.2")).unwrap();
        let why = a.take_slot(ip("10.0.0.3")).err().unwrap();
        assert!(why.contains("the server is full (4"), "{why}");
        drop(one);
        assert_eq!(a.sessions(), 3);
        assert!(a.take_slot(local).is_ok());
    }
}
