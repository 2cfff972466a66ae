//! `ox88 serve`: the TUI over SSH, for players with nothing installed but `ssh`.
//!
//! One tokio task per connection speaks SSH (russh); each accepted shell runs the same `App`
//! as the local TUI on its own thread (`session`), fed by our key decoder (`input`), drawing
//! into a buffer that goes out as channel data. What a client may do is only that: no exec,
//! no subsystems (so no scp/sftp), no forwarding of ports, agents or X11, no paths of its
//! choosing. Limits: sessions in all and per address, engine hash per session, an idle
//! timeout; a client that reads slowly loses frames, never the server's memory or the
//! other players' time.
//!
//! The data directory (`$OX88_DATA_DIR`, else `~/.local/share/ox88`) holds `serve/`:
//! `host_key_ed25519` (made once, mode 0600) and `players/<id>/` per player: the autosave
//! and the PGN files `:save` writes. `<id>` is the player's account: the SHA-256
//! fingerprint of its first key (so a returning player, with any of the account's keys, is
//! offered their unfinished game), or in `--open` mode one per session.

mod admission;
mod config;
pub mod input;
mod keys;
pub mod session;

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use anyhow::Context;
use russh::keys::{HashAlg, PublicKey};
use russh::server::{Auth, Msg, PublicKeyOffer, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId};
use russh::{MethodKind, MethodSet};
use tokio::net::TcpListener;

use crate::club::analysis::Analyses;

use crate::club::{Club, Login, SignedIn, SqliteStore};
use crate::game::autosave::Autosave;
pub use admission::PreAuth;
use admission::{Admission, Slot, Stage, Standing, Ticket};
pub use config::{Access, ServeArgs, ServeConfig, parse_duration};
pub use keys::{
    AuthorizedKey, AuthorizedKeys, FromList, Verdict, load_or_make_host_key, parse_authorized_keys,
    player_id,
};
use session::{ClubSeat, SessionEvent, SessionSpec};

/// How often the rooms' clocks are looked at.
const CLUB_TICK: Duration = Duration::from_millis(100);

/// What every connection shares.
struct Shared {
    config: ServeConfig,
    /// Session slots for the authenticated, the waiting room for the rest.
    admission: Arc<Admission>,
    /// The running sessions, so a shutdown can end (and save) every one.
    sessions: Mutex<HashMap<u64, session::SessionHandle>>,
    next_session: AtomicU64,
    /// Connections being turned away with a word (bounded: past it they are dropped).
    turning_away: AtomicU64,
    /// Connections that lost their place in the waiting room (or found none), not yet said.
    dropped_waiting: AtomicU64,
    /// The keys let in now (the file is read again on SIGHUP).
    keys: RwLock<Arc<AuthorizedKeys>>,
    /// Where visitors meet: rooms, the lobby, the database.
    club: Arc<Club>,
    /// The engine's analyses of watched games, one per game.
    analyses: Arc<Analyses>,
}

impl Shared {
    fn keys(&self) -> Arc<AuthorizedKeys> {
        Arc::clone(&self.keys.read().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Reads the authorized keys file again, as SIGHUP asks: a member added or removed without
/// a restart, nobody's session touched. A file that no longer reads is said, and the keys
/// as they were are kept.
#[derive(Clone)]
pub struct KeysReload {
    shared: Arc<Shared>,
}

impl KeysReload {
    /// How many keys are let in now, or why the file was not taken.
    pub fn reload(&self) -> Result<usize, String> {
        let now = self.shared.keys();
        let Some(path) = now.file() else {
            return Ok(now.len());
        };
        match AuthorizedKeys::read(path) {
            Ok(keys) => {
                let n = keys.len();
                *self.shared.keys.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(keys);
                eprintln!("ox88 serve: read {} again: {n} keys", path.display());
                Ok(n)
            }
            Err(e) => {
                let why = format!("{e:#}; the {} keys read before are kept", now.len());
                eprintln!("ox88 serve: {why}");
                Err(why)
            }
        }
    }
}

/// A bound server, not yet accepting.
pub struct Server {
    listener: TcpListener,
    shared: Arc<Shared>,
    ssh: Arc<russh::server::Config>,
}

impl Server {
    pub async fn bind(config: ServeConfig) -> anyhow::Result<Server> {
        let listener = TcpListener::bind(config.listen)
            .await
            .with_context(|| format!("cannot listen on {}", config.listen))?;
        // Only what can let someone in is offered: with keys, a password prompt would ask
        // for something the server never checks (and the answer would reach it).
        let methods: &[MethodKind] = match config.access {
            Access::Keys(_) => &[MethodKind::PublicKey],
            Access::Open => &[MethodKind::None, MethodKind::PublicKey],
        };
        let ssh = russh::server::Config {
            methods: MethodSet::from(methods),
            keys: vec![config.host_key.clone()],
            auth_rejection_time: Duration::from_secs(1),
            auth_rejection_time_initial: Some(Duration::ZERO),
            // A connection that never gets as far as a session (or stalls in the handshake)
            // does not hold its slot for long; sessions have our own idle timeout.
            inactivity_timeout: Some(config.idle_timeout + Duration::from_secs(60)),
            nodelay: true,
            ..Default::default()
        };
        let store = SqliteStore::open(&config.db)
            .with_context(|| format!("cannot open the club's database {}", config.db.display()))?;
        let club =
            Club::with_limits(Arc::new(store), config.club).map_err(|e| anyhow::anyhow!("{e}"))?;
        if !config.bots.is_empty() {
            club.seat_bots(&config.bots, crate::club::lobby::Pace::Level)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        let hash_mb = config.hash_mb;
        let analyses = Analyses::new(
            config.analysis,
            Box::new(move |o| session::capped(o, hash_mb)),
        );
        Ok(Server {
            listener,
            shared: Arc::new(Shared {
                admission: Admission::new(config.max_sessions, config.max_per_ip, config.pre_auth),
                keys: RwLock::new(Arc::new(match &config.access {
                    Access::Keys(keys) => keys.clone(),
                    Access::Open => AuthorizedKeys::default(),
                })),
                config,
                sessions: Mutex::new(HashMap::new()),
                next_session: AtomicU64::new(1),
                turning_away: AtomicU64::new(0),
                dropped_waiting: AtomicU64::new(0),
                club,
                analyses,
            }),
            ssh: Arc::new(ssh),
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// What reads the authorized keys file again (SIGHUP's work).
    pub fn keys_reload(&self) -> KeysReload {
        KeysReload {
            shared: Arc::clone(&self.shared),
        }
    }

    /// The engine's analyses of watched games (how many run, who shares them).
    pub fn analyses(&self) -> Arc<Analyses> {
        Arc::clone(&self.shared.analyses)
    }

    /// Accepts connections until `shutdown` completes; then ends every session (each saves
    /// its game) and returns.
    pub async fn run(self, shutdown: impl Future<Output = ()>) -> anyhow::Result<()> {
        tokio::pin!(shutdown);
        // The rooms' clocks: flags fall and claims open whether or not anyone types.
        let ticker = {
            let club = Arc::clone(&self.shared.club);
            tokio::spawn(async move {
                let mut every = tokio::time::interval(CLUB_TICK);
                loop {
                    every.tick().await;
                    club.tick(std::time::Instant::now());
                }
            })
        };
        // The operator's bans and kicks (`ox88 club`, another process) read every second.
        let orders = tokio::spawn(follow_orders(Arc::clone(&self.shared)));
        let mut last_said = None;
        loop {
            tokio::select! {
                _ = &mut shutdown => break,
                accepted = self.listener.accept() => {
                    let (stream, peer) = match accepted {
                        Ok(x) => x,
                        Err(e) => {
                            eprintln!("ox88 serve: accept failed: {e}");
                            tokio::time::sleep(Duration::from_millis(100)).await;
                            continue;
                        }
                    };
                    // A stranger until authenticated: a place in the waiting room, not a slot.
                    let (stream, heard) = match with_ear(stream) {
                        Ok(x) => x,
                        Err(e) => {
                            eprintln!("ox88 serve: {peer}: lost at accept: {e}");
                            continue;
                        }
                    };
                    // A flood drops thousands: said once in a while, counted.
                    if let Some(ip) = arrive(&self.shared, &self.ssh, stream, peer, heard)
                        && last_said.is_none_or(|t: std::time::Instant| t.elapsed() >= DROPS_SAID_EVERY)
                    {
                        let n = self.shared.dropped_waiting.swap(0, Ordering::Relaxed);
                        eprintln!(
                            "ox88 serve: {n} connection(s) waiting to log in dropped for newer \
                             ones (the latest from {ip}, its share full)"
                        );
                        last_said = Some(std::time::Instant::now());
                    }
                }
            }
        }
        ticker.abort();
        orders.abort();
        // Games going on are kept with their clocks as they stand, to go on after a restart;
        // the writes still queued are waited for (a bounded time, off the async workers).
        let club = Arc::clone(&self.shared.club);
        let saved = tokio::task::spawn_blocking(move || {
            club.save_all(std::time::Instant::now(), SHUTDOWN_FLUSH)
        })
        .await
        .unwrap_or(false);
        self.end_all_sessions().await;
        // What the sessions' ending queued too (not waited for again if the store failed).
        let club = Arc::clone(&self.shared.club);
        let flushed = saved
            && tokio::task::spawn_blocking(move || club.flush(SHUTDOWN_FLUSH))
                .await
                .unwrap_or(false);
        if !flushed {
            eprintln!(
                "ox88 serve: {} write(s) to the database could not be done before stopping",
                self.shared.club.unsaved()
            );
        }
        Ok(())
    }

    /// Tells every session to end and waits (a bounded time) for their threads.
    async fn end_all_sessions(&self) {
        let handles: Vec<session::SessionHandle> = {
            let mut s = self
                .shared
                .sessions
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            s.drain().map(|(_, h)| h).collect()
        };
        for h in &handles {
            h.send(SessionEvent::Shutdown);
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        for h in handles {
            while !h.is_finished() && tokio::time::Instant::now() < deadline {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        // Let the output tasks pass the last bytes and close the channels.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// How often the server reads the operator's orders (`ox88 club ban|kick`) from the
/// database: a ban or a kick takes effect within this.
const ORDERS_EVERY: Duration = Duration::from_secs(1);

/// Reads the operator's orders every [`ORDERS_EVERY`] and closes the sessions they name:
/// every session of a banned account (a new login of one is refused at sign-in), and once
/// those of a kicked one. Each closes as a dropped connection does: a game keeps its seat
/// and clock, the game against the engine is saved.
async fn follow_orders(shared: Arc<Shared>) {
    let mut every = tokio::time::interval(ORDERS_EVERY);
    let mut failing = false;
    loop {
        every.tick().await;
        let club = Arc::clone(&shared.club);
        let orders = tokio::task::spawn_blocking(move || club.store().take_orders()).await;
        let orders = match orders {
            Ok(Ok(orders)) => {
                failing = false;
                orders
            }
            Ok(Err(e)) => {
                if !failing {
                    eprintln!("ox88 serve: cannot read the operator's orders: {e}");
                }
                failing = true;
                continue;
            }
            Err(_) => continue,
        };
        if orders.banned.is_empty() && orders.kicked.is_empty() {
            continue;
        }
        let sessions = shared.sessions.lock().unwrap_or_else(|e| e.into_inner());
        for (number, h) in sessions.iter().filter(|(_, h)| !h.is_finished()) {
            let Some(member) = h.member() else { continue };
            let banned = orders.banned.iter().any(|b| b == member);
            if banned || orders.kicked.iter().any(|k| k == member) {
                eprintln!(
                    "ox88 serve: session {number} of {member} closed: {} by the operator",
                    if banned { "banned" } else { "kicked" }
                );
                h.send(SessionEvent::Removed { banned });
            }
        }
    }
}

/// How long stopping waits for the database's queued writes.
const SHUTDOWN_FLUSH: Duration = Duration::from_secs(10);

/// How often the log counts the waiting connections dropped for newer ones.
const DROPS_SAID_EVERY: Duration = Duration::from_secs(10);

/// Why a waiting connection is closed when a newer one took its place (counted in the log,
/// not said one by one).
const DROPPED: &str = "too many connections from your address waiting to log in";

/// Connections being turned away at once, at most; past it they are dropped unheard.
const TURN_AWAY_MAX: u64 = 8;

/// What a connection holds: a place in the waiting room until it authenticated, then a
/// session's slot, or none and the reason to tell the person.
enum Seat {
    Waiting { ticket: Ticket },
    Slot { _held: Slot },
    Refused { _held: TurnAway, why: String },
}

/// One of the few connections being turned away with a word; gives its place back on drop.
struct TurnAway {
    shared: Arc<Shared>,
}

impl TurnAway {
    fn take(shared: &Arc<Shared>) -> Option<TurnAway> {
        let n = shared.turning_away.fetch_add(1, Ordering::Relaxed);
        if n >= TURN_AWAY_MAX {
            shared.turning_away.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        Some(TurnAway {
            shared: Arc::clone(shared),
        })
    }
}

impl Drop for TurnAway {
    fn drop(&mut self) {
        self.shared.turning_away.fetch_sub(1, Ordering::Relaxed);
    }
}

/// How far a connection got: authenticated (and when), its session started. The watchdog
/// reads it.
#[derive(Default)]
struct Progress {
    authenticated: Mutex<Option<tokio::time::Instant>>,
    started: AtomicBool,
    /// The session's number, once it started.
    session: Mutex<Option<u64>>,
}

impl Progress {
    fn authenticated_at(&self) -> Option<tokio::time::Instant> {
        *self.authenticated.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn authenticate(&self) {
        let mut at = self.authenticated.lock().unwrap_or_else(|e| e.into_inner());
        at.get_or_insert_with(tokio::time::Instant::now);
    }
}

/// What a connection is watched for: its progress against the grace, the word that its
/// place in the waiting room went to a newer connection, and its session's end.
struct Watch {
    shared: Arc<Shared>,
    progress: Arc<Progress>,
    /// Marks how far the connection got while it waits (a flood pushes out the least far).
    standing: Standing,
    dropped: Arc<tokio::sync::Notify>,
    grace: Duration,
}

impl Watch {
    /// Why the connection is to close, once it is: not authenticated within the grace (or
    /// its waiting place given away), no session started within the grace after that.
    async fn expired(&self, accepted: tokio::time::Instant) -> &'static str {
        let deadline = accepted + self.grace;
        loop {
            if self.progress.authenticated_at().is_some() {
                break;
            }
            tokio::select! {
                _ = self.dropped.notified() => {
                    if self.progress.authenticated_at().is_none() {
                        return DROPPED;
                    }
                }
                _ = tokio::time::sleep_until(deadline) => {
                    if self.progress.authenticated_at().is_none() {
                        return "not authenticated in time";
                    }
                }
            }
        }
        let at = self.progress.authenticated_at().unwrap_or(deadline);
        tokio::time::sleep_until(at + self.grace).await;
        if !self.progress.started.load(Ordering::Relaxed) {
            return "no game started in time";
        }
        // One session a connection: once it ended, a client that keeps the connection
        // open (OpenSSH closes it at once) would keep its slot. It has a grace to go.
        while self.session_runs() {
            tokio::time::sleep(self.grace).await;
        }
        tokio::time::sleep(self.grace).await;
        "the session ended"
    }

    fn session_runs(&self) -> bool {
        let id = *self
            .progress
            .session
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let sessions = self
            .shared
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        id.and_then(|id| sessions.get(&id))
            .is_some_and(|h| !h.is_finished())
    }
}

/// A new connection: a place in the waiting room and served, or, silent with its share
/// full, a wait for its first bytes that pushes nobody out (a member's client speaks at
/// once) before it asks for a place. Every connection dropped or closed on the way is
/// counted in `dropped_waiting`. Returns the address of a connection that lost its place to
/// this one at once, if one did.
fn arrive(
    shared: &Arc<Shared>,
    ssh: &Arc<russh::server::Config>,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    heard: Option<admission::Heard>,
) -> Option<std::net::IpAddr> {
    let silent = heard.as_ref().is_none_or(|h| !h());
    if !(silent && shared.admission.full_for(peer.ip())) {
        return admit(shared, ssh, stream, peer, heard);
    }
    let Some(knock) = shared.admission.knock() else {
        shared.dropped_waiting.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    let (shared, ssh) = (Arc::clone(shared), Arc::clone(ssh));
    tokio::spawn(async move {
        let _knock = knock;
        let hello = tokio::time::timeout(admission::HELLO_WAIT, stream.readable());
        if hello.await.is_ok() {
            admit(&shared, &ssh, stream, peer, heard);
        } else {
            shared.dropped_waiting.fetch_add(1, Ordering::Relaxed);
        }
    });
    None
}

/// Gives a connection its place in the waiting room and serves it; when every waiting
/// connection it would push out speaks SSH and is young, it is closed. Counts both in
/// `dropped_waiting` (the connection pushed out, or this one). Returns the address of the
/// connection that lost its place to it, if one did.
fn admit(
    shared: &Arc<Shared>,
    ssh: &Arc<russh::server::Config>,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    heard: Option<admission::Heard>,
) -> Option<std::net::IpAddr> {
    let (ticket, evicted) = shared.admission.arrive_heard(peer.ip(), heard);
    let Some(ticket) = ticket else {
        shared.dropped_waiting.fetch_add(1, Ordering::Relaxed);
        return evicted;
    };
    if evicted.is_some() {
        shared.dropped_waiting.fetch_add(1, Ordering::Relaxed);
    }
    let dropped = ticket.dropped();
    let standing = ticket.stage();
    let progress = Arc::new(Progress::default());
    let handler = Connection {
        shared: Arc::clone(shared),
        peer,
        seat: Seat::Waiting { ticket },
        progress: Arc::clone(&progress),
        player: None,
        login: None,
        number: None,
        channel: None,
    };
    let watch = Watch {
        shared: Arc::clone(shared),
        progress,
        dropped,
        standing,
        grace: shared.admission.grace(),
    };
    tokio::spawn(serve_connection(
        Arc::clone(ssh),
        stream,
        peer,
        handler,
        watch,
    ));
    evicted
}

/// The connection (small writes sent without delay), and a second handle on its socket
/// that tells whether the peer sent
/// bytes the server has not read yet (a peek that never waits). None when the system gives
/// no second handle: the connection then counts as silent until its task reads it.
fn with_ear(
    stream: tokio::net::TcpStream,
) -> std::io::Result<(tokio::net::TcpStream, Option<admission::Heard>)> {
    // A screen's few changed cells go out at once: without this, Nagle's algorithm holds a
    // small frame back until the client's delayed acknowledgement of the one before (tens
    // of milliseconds). russh sets it only on sockets it accepts itself.
    stream.set_nodelay(true)?;
    let std = stream.into_std()?;
    let ear = std.try_clone().ok();
    let stream = tokio::net::TcpStream::from_std(std)?;
    let heard = ear.map(|ear| -> admission::Heard {
        // tokio keeps the socket non-blocking (a flag the two handles share): the peek
        // answers at once, `WouldBlock` when nothing waits.
        Box::new(move || matches!(ear.peek(&mut [0u8; 1]), Ok(n) if n > 0))
    });
    Ok((stream, heard))
}

async fn serve_connection(
    ssh: Arc<russh::server::Config>,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    handler: Connection,
    watch: Watch,
) {
    let accepted = tokio::time::Instant::now();
    // The handshake up to the session's start: dropping it closes the socket.
    let running = tokio::select! {
        r = russh::server::run_stream(ssh, stream, handler) => match r {
            Ok(running) => running,
            Err(e) => return eprintln!("ox88 serve: {peer}: {e}"),
        },
        why = watch.expired(accepted) => {
            if why != DROPPED {
                eprintln!("ox88 serve: {peer}: {why}, closing");
            }
            return;
        }
    };
    // The client sent its version line: it speaks SSH.
    watch.standing.reached(Stage::Spoke);
    let handle = running.handle();
    let watchdog = tokio::spawn(async move {
        let why = watch.expired(accepted).await;
        if why != DROPPED {
            eprintln!("ox88 serve: {peer}: {why}, closing");
        }
        let _ = handle
            .disconnect(russh::Disconnect::ByApplication, why.into(), "en".into())
            .await;
    });
    if let Err(e) = running.await {
        eprintln!("ox88 serve: {peer}: {e}");
    }
    watchdog.abort();
}

/// `ox88 serve`: runs until SIGTERM or SIGINT.
pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let data_dir = Autosave::from_env()
        .map(|a| a.dir().join("serve"))
        .context("no data directory (set OX88_DATA_DIR or HOME)")?;
    let config = ServeConfig::from_args(&args, &data_dir)?;
    // Searches yield the processor to the sessions: a move between two people never waits
    // behind the engine on a busy core.
    crate::engine::priority::run_searches_in_background();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let access = match &config.access {
            Access::Keys(k) => format!("{} authorized keys", k.len()),
            Access::Open => "open to anyone".to_string(),
        };
        let db = config.db.display().to_string();
        let server = Server::bind(config).await?;
        eprintln!(
            "ox88 serve: listening on {} ({access}); games in {}; database {db}",
            server.local_addr()?,
            data_dir.display()
        );
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate()).context("cannot watch SIGTERM")?;
        let mut hangup = signal(SignalKind::hangup()).context("cannot watch SIGHUP")?;
        let reload = server.keys_reload();
        // SIGHUP reads the authorized keys again, as sshd does; nobody's session is touched.
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                let _ = reload.reload();
            }
        });
        server
            .run(async move {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
                eprintln!("ox88 serve: stopping, saving every game");
            })
            .await
    })
}

/// Who logged in on a connection.
#[derive(Clone, Debug)]
enum Player {
    Key(String),
    Open,
}

/// What the client asked for its one session channel before the shell starts.
struct ChannelSetup {
    id: ChannelId,
    term: Option<String>,
    env: Vec<(String, String)>,
    size: (u16, u16),
    /// The running session, once the shell started.
    session: Option<u64>,
}

/// One SSH connection.
struct Connection {
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// The connection's place: waiting, a session's slot, or why there is none.
    seat: Seat,
    /// Authenticated, started (the login watchdog reads it).
    progress: Arc<Progress>,
    player: Option<Player>,
    /// The SSH login name, as typed: the club makes the name shown of it (see `sign_in`).
    login: Option<String>,
    /// The session's number, once asked for (an open visitor's id is made of it).
    number: Option<u64>,
    channel: Option<ChannelSetup>,
}

/// Variables a client may send that mean something to us; others are ignored.
const ENV_KEPT: [&str; 3] = ["TERM", "COLORTERM", "NO_COLOR"];

impl Connection {
    fn send(&self, ev: SessionEvent) {
        self.with_session(|h| h.send(ev));
    }

    /// Calls `f` with this connection's running session, if there is one.
    fn with_session(&self, f: impl FnOnce(&session::SessionHandle)) {
        let Some(id) = self.channel.as_ref().and_then(|c| c.session) else {
            return;
        };
        let sessions = self
            .shared
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(h) = sessions.get(&id) {
            f(h);
        }
    }

    /// Whether `key` may log in from this connection's address (None: the server is open).
    fn key_verdict(&self, key: &PublicKey) -> Option<Verdict> {
        match &self.shared.config.access {
            Access::Open => None,
            Access::Keys(_) => Some(self.shared.keys().verdict(key, self.peer.ip())),
        }
    }

    fn log_refused(&self, key: &PublicKey, why: &Verdict) {
        let fp = key.fingerprint(HashAlg::Sha256);
        let keys = self.shared.keys();
        let file = keys.file().map_or("the authorized keys".to_string(), |f| {
            f.display().to_string()
        });
        let why = match why {
            Verdict::NotFrom(lines) => {
                let lines: Vec<String> = lines.iter().map(usize::to_string).collect();
                format!(
                    "listed in {file} (line {}), but not from {}",
                    lines.join(", "),
                    self.peer.ip()
                )
            }
            _ => format!("not in {file}"),
        };
        eprintln!(
            "ox88 serve: {} refused key {} {fp}: {why}",
            self.peer,
            key.algorithm()
        );
    }

    /// The connection asked to authenticate: the key exchange is done, it is dropped after
    /// the silent ones when its address's share of the waiting room is full.
    fn asked(&self) {
        if let Seat::Waiting { ticket } = &self.seat {
            ticket.stage().reached(Stage::Asked);
        }
    }

    /// The connection authenticated: it leaves the waiting room for a session's slot, or
    /// for the few places of those who are told why there is none. Past those it is let
    /// go (an error ends the connection).
    fn admit(&mut self) -> Result<Auth, russh::Error> {
        self.progress.authenticate();
        if !matches!(self.seat, Seat::Waiting { .. }) {
            return Ok(Auth::Accept);
        }
        self.seat = match self.shared.admission.take_slot(self.peer.ip()) {
            Ok(slot) => Seat::Slot { _held: slot },
            Err(why) => {
                eprintln!("ox88 serve: {} refused: {why}", self.peer);
                // The person is told why on their terminal, through a short SSH session
                // that only says so; a flood of them is dropped.
                match TurnAway::take(&self.shared) {
                    Some(t) => Seat::Refused { _held: t, why },
                    None => return Err(russh::Error::Disconnect),
                }
            }
        };
        Ok(Auth::Accept)
    }

    fn ours(&self, channel: ChannelId) -> bool {
        self.channel.as_ref().is_some_and(|c| c.id == channel)
    }

    /// This connection's session number (given out once).
    fn number(&mut self) -> u64 {
        let next = &self.shared.next_session;
        *self
            .number
            .get_or_insert_with(|| next.fetch_add(1, Ordering::Relaxed))
    }

    /// Who this login is in the club (a key's account, or an open visitor), or the line
    /// that tells the person why not. The club reads its database, so this runs off the
    /// connection's task.
    async fn sign_in(&mut self) -> Result<SignedIn, String> {
        let login = self.login.clone().unwrap_or_default();
        let player = self.player.clone();
        let number = self.number();
        let visitor = self.shared.club.visitor_id(number);
        let club = Arc::clone(&self.shared.club);
        let peer = self.peer;
        tokio::task::spawn_blocking(move || {
            let who = match &player {
                Some(Player::Key(key)) => Login::Key { key, login: &login },
                Some(Player::Open) | None => Login::Open {
                    visitor: &visitor,
                    login: &login,
                },
            };
            club.sign_in(who).map_err(|e| {
                eprintln!("ox88 serve: {peer} refused as {login:?}: {e}");
                e.to_string()
            })
        })
        .await
        .unwrap_or_else(|e| Err(format!("cannot sign in: {e}")))
    }

    /// Why the session cannot start when the client asked for no terminal (`ssh HOST ROOM`
    /// without `-t`, or `ssh -T`): the board would be drawn into a stream that echoes.
    fn without_terminal(&self) -> Option<&'static str> {
        let asked = self.channel.as_ref().is_some_and(|c| c.term.is_some());
        if asked {
            return None;
        }
        eprintln!("ox88 serve: {} asked for no terminal", self.peer);
        Some("the board needs a terminal: connect with ssh -t (ssh -t HOST, or ssh -t HOST ROOM)")
    }

    /// Starts the session of `who` signed in; `room`: the room the ssh command named.
    fn start_session(
        &mut self,
        session: &mut Session,
        room: Option<String>,
        who: SignedIn,
    ) -> Result<(), String> {
        let member = &who.member;
        let shared = Arc::clone(&self.shared);
        let number = self.number();
        let Some(setup) = self.channel.as_mut() else {
            return Err("no channel".into());
        };
        if setup.session.is_some() {
            return Err("the session is already running".into());
        }
        // A key's games live with its account, whichever of the account's keys logs in.
        // A visitor's folder is named by their id (never given out twice, across restarts
        // too) and goes with the session.
        let dir_name = if member.rated {
            member.id.clone()
        } else {
            member
                .id
                .replace(|c: char| !c.is_ascii_alphanumeric() && c != '-', "-")
        };
        let mut env = setup.env.clone();
        if let Some(term) = &setup.term {
            env.push(("TERM".into(), term.clone()));
        }
        let name = member.name.clone();
        let spec = SessionSpec {
            player_dir: shared.config.data_dir.join("players").join(&dir_name),
            size: setup.size,
            env,
            hash_mb: shared.config.hash_mb,
            depth: shared.config.depth,
            idle_timeout: shared.config.idle_timeout,
            login: member.name.clone(),
            open: !member.rated,
            label: format!("{} session {number}", self.peer),
            club: Some(ClubSeat {
                club: Arc::clone(&shared.club),
                who,
                room,
                analyses: Arc::clone(&shared.analyses),
            }),
        };
        let handle = session::spawn(spec, session.handle(), setup.id)
            .map_err(|e| format!("cannot start a session: {e}"))?;
        setup.session = Some(number);
        eprintln!(
            "ox88 serve: {} session {number} for {dir_name} ({})",
            self.peer, name
        );
        let mut sessions = shared.sessions.lock().unwrap_or_else(|e| e.into_inner());
        // Sessions that ended by themselves leave their handles here; drop them now.
        sessions.retain(|_, h| !h.is_finished());
        sessions.insert(number, handle);
        // Started, for the watchdog, once it can be found.
        *self
            .progress
            .session
            .lock()
            .unwrap_or_else(|e| e.into_inner()) = Some(number);
        self.progress.started.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Starts the session of `who` on `channel`, or says on it why it could not start.
    fn start(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
        room: Option<String>,
        who: SignedIn,
    ) -> Result<(), russh::Error> {
        match self.start_session(session, room, who) {
            Ok(()) => session.channel_success(channel),
            Err(e) => {
                eprintln!("ox88 serve: {}: {e}", self.peer);
                refuse_saying(channel, session, &e)
            }
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        // The connection is gone: its session ends (the game is saved after every move).
        self.send(SessionEvent::Closed);
    }
}

impl russh::server::Handler for Connection {
    type Error = russh::Error;

    async fn auth_none(&mut self, user: &str) -> Result<Auth, Self::Error> {
        self.asked();
        if matches!(self.shared.config.access, Access::Open) {
            eprintln!("ox88 serve: {} logged in as {user:?} (open)", self.peer);
            self.player = Some(Player::Open);
            self.login = Some(user.to_string());
            return self.admit();
        }
        Ok(Auth::reject())
    }

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        self.asked();
        // Said in the log here, where a key is first turned down: its fingerprint, so the
        // operator can add it.
        Ok(match self.key_verdict(offer.public_key) {
            None | Some(Verdict::Allowed) => Auth::Accept,
            Some(why) => {
                self.log_refused(offer.public_key, &why);
                Auth::reject()
            }
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let fp = key.public_key.fingerprint(HashAlg::Sha256);
        match self.key_verdict(key.public_key) {
            None => {
                eprintln!(
                    "ox88 serve: {} logged in as {user:?} ({fp}, open)",
                    self.peer
                );
                self.player = Some(Player::Open);
            }
            Some(Verdict::Allowed) => {
                eprintln!("ox88 serve: {} logged in as {user:?} ({fp})", self.peer);
                self.player = Some(Player::Key(player_id(key.public_key)));
            }
            Some(why) => {
                // The file was read again between the offer and the signature.
                self.log_refused(key.public_key, &why);
                return Ok(Auth::reject());
            }
        }
        self.login = Some(user.to_string());
        self.admit()
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // One game per connection; a second channel is refused (dropping the reply does).
        if self.channel.is_none() {
            self.channel = Some(ChannelSetup {
                id: channel.id(),
                term: None,
                env: Vec::new(),
                size: (80, 24),
                session: None,
            });
            reply.accept().await;
        }
        Ok(())
    }

    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(russh::Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match self.channel.as_mut().filter(|c| c.id == channel) {
            Some(setup) if setup.session.is_none() => {
                setup.term = Some(term.chars().take(64).collect());
                setup.size = window_size(col_width, row_height);
                session.channel_success(channel)
            }
            _ => session.channel_failure(channel),
        }
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        variable_name: &str,
        variable_value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match self.channel.as_mut().filter(|c| c.id == channel) {
            Some(setup) if ENV_KEPT.contains(&variable_name) && setup.env.len() < 8 => {
                setup.env.push((
                    variable_name.to_string(),
                    variable_value.chars().take(64).collect(),
                ));
                session.channel_success(channel)
            }
            _ => session.channel_failure(channel),
        }
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.ours(channel) {
            return session.channel_failure(channel);
        }
        if let Seat::Refused { why, .. } = &self.seat {
            return refuse_saying(channel, session, why);
        }
        if let Some(why) = self.without_terminal() {
            return refuse_saying(channel, session, why);
        }
        let who = match self.sign_in().await {
            Ok(who) => who,
            Err(why) => return refuse_saying(channel, session, &why),
        };
        self.start(channel, session, None, who)
    }

    /// `ssh -t HOST ROOM`: nothing is run; the command is the room to join. A name the
    /// club refuses is said on the screen, with the lobby instead.
    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        if !self.ours(channel) {
            return session.channel_failure(channel);
        }
        if let Seat::Refused { why, .. } = &self.seat {
            return refuse_saying(channel, session, why);
        }
        let asked = String::from_utf8_lossy(&data[..data.len().min(256)])
            .trim()
            .to_string();
        let room = match crate::club::text::room_name(&asked) {
            Ok(room) => room,
            Err(e) => {
                // Nothing is ever run: the command was meant as a room, and is not one.
                eprintln!(
                    "ox88 serve: {} asked for a room that is not one: {e}",
                    self.peer
                );
                let why = format!("no commands here; the command names a room to join ({e})");
                return refuse_saying(channel, session, &why);
            }
        };
        if let Some(why) = self.without_terminal() {
            return refuse_saying(channel, session, why);
        }
        let who = match self.sign_in().await {
            Ok(who) => who,
            Err(why) => return refuse_saying(channel, session, &why),
        };
        self.start(channel, session, Some(room), who)
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        eprintln!(
            "ox88 serve: {} asked for subsystem {:?}: refused",
            self.peer,
            name.chars().take(32).collect::<String>()
        );
        refuse(channel, session)
    }

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn agent_request(
        &mut self,
        _channel: ChannelId,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }

    async fn tcpip_forward(
        &mut self,
        _address: &str,
        _port: &mut u32,
        _session: &mut Session,
    ) -> Result<bool, Self::Error> {
        Ok(false)
    }

    async fn channel_open_direct_tcpip(
        &mut self,
        _channel: Channel<Msg>,
        _host_to_connect: &str,
        _port_to_connect: u32,
        _originator_address: &str,
        _originator_port: u32,
        reply: russh::server::ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        reply
            .reject(russh::ChannelOpenFailure::AdministrativelyProhibited)
            .await;
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.ours(channel) {
            self.send(SessionEvent::Bytes(data.to_vec()));
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if let Some(setup) = self.channel.as_mut().filter(|c| c.id == channel) {
            setup.size = window_size(col_width, row_height);
            let size = setup.size;
            self.with_session(|h| h.resize(size));
        }
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.ours(channel) {
            self.send(SessionEvent::Closed);
        }
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        if self.ours(channel) {
            self.send(SessionEvent::Closed);
        }
        Ok(())
    }
}

/// Turns the request down with a line on the person's terminal saying why, exit status 2,
/// and the channel closed. The request itself is accepted: OpenSSH answers a refused shell
/// or command with only "shell request failed on channel 0" and drops what follows, while
/// the line, the exit status and the close of an accepted one all reach the terminal.
fn refuse_saying(channel: ChannelId, session: &mut Session, why: &str) -> Result<(), russh::Error> {
    session.channel_success(channel)?;
    session.data(channel, format!("ox88: {why}\r\n").into_bytes())?;
    session.exit_status_request(channel, 2)?;
    session.eof(channel)?;
    session.close(channel)
}

fn refuse(channel: ChannelId, session: &mut Session) -> Result<(), russh::Error> {
    session.channel_failure(channel)?;
    session.close(channel)
}

/// The most columns and rows a session draws: more than a screen shows, and what a frame
/// costs the server is bounded by it (a client claiming 1000×1000 gets 400×200).
pub const MAX_WINDOW: (u16, u16) = (400, 200);

/// A window size as the client gave it, kept sane: 0 (a client that does not know) is
/// 80×24's part, and no more than [`MAX_WINDOW`].
fn window_size(cols: u32, rows: u32) -> (u16, u16) {
    let clamp = |n: u32, default: u16, max: u16| {
        if n == 0 {
            default
        } else {
            n.min(u32::from(max)) as u16
        }
    };
    (clamp(cols, 80, MAX_WINDOW.0), clamp(rows, 24, MAX_WINDOW.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::lobby::Limits;
    use russh::keys::{Algorithm, PrivateKey};

    #[derive(clap::Parser)]
    struct Cmd {
        #[command(flatten)]
        serve: ServeArgs,
    }

    #[test]
    fn the_ear_hears_bytes_sent_before_they_are_read_and_leaves_them_to_be_read() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let mut client = tokio::net::TcpStream::connect(addr).await.unwrap();
            let (stream, _) = listener.accept().await.unwrap();
            let (mut stream, heard) = with_ear(stream).unwrap();
            let heard = heard.expect("a second handle on the socket");
            assert!(!heard(), "nothing sent yet");
            client.write_all(b"SSH-2.0-x\r\n").await.unwrap();
            let until = std::time::Instant::now() + Duration::from_secs(5);
            while !heard() && std::time::Instant::now() < until {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            assert!(heard(), "the version line waits unread");
            let mut line = [0u8; 11];
            stream.read_exact(&mut line).await.unwrap();
            assert_eq!(&line, b"SSH-2.0-x\r\n", "the peek took nothing away");
            assert!(!heard(), "all read");
        });
    }

    #[test]
    fn port_listens_on_loopback_and_does_not_go_with_listen() {
        use clap::Parser;
        let dir = std::env::temp_dir().join(format!("ox88-serve-port-{}", std::process::id()));
        let args = Cmd::try_parse_from(["serve", "--open", "--port", "2300"])
            .unwrap()
            .serve;
        let config = ServeConfig::from_args(&args, &dir).unwrap();
        assert_eq!(config.listen, "127.0.0.1:2300".parse().unwrap());
        let args = Cmd::try_parse_from(["serve", "--open"]).unwrap().serve;
        let config = ServeConfig::from_args(&args, &dir).unwrap();
        assert_eq!(config.listen, "127.0.0.1:2222".parse().unwrap());
        let err = Cmd::try_parse_from(["serve", "--open", "--port", "1", "--listen", "0.0.0.0:1"])
            .err()
            .expect("--port and --listen together are refused");
        assert!(err.to_string().contains("--listen"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn one_analysis_for_watchers_by_default_and_a_bad_count_is_refused() {
        use clap::Parser;
        let dir = std::env::temp_dir().join(format!("ox88-serve-analysis-{}", std::process::id()));
        let args = Cmd::try_parse_from(["serve", "--open"]).unwrap().serve;
        assert_eq!(ServeConfig::from_args(&args, &dir).unwrap().analysis, 1);
        let args = Cmd::try_parse_from(["serve", "--open", "--analysis", "0"])
            .unwrap()
            .serve;
        assert_eq!(ServeConfig::from_args(&args, &dir).unwrap().analysis, 0);
        for bad in ["--analysis=-1", "--analysis=many", "--analysis=100000"] {
            let err = Cmd::try_parse_from(["serve", "--open", bad])
                .err()
                .expect("refused");
            assert!(err.to_string().contains("--analysis"), "{err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_club_limits_come_from_the_command_line() {
        use clap::Parser;
        let dir = std::env::temp_dir().join(format!("ox88-serve-limits-{}", std::process::id()));
        let limits = |extra: &[&str]| {
            let line = ["serve", "--open"].iter().chain(extra).copied();
            let args = Cmd::try_parse_from(line).map(|c| c.serve);
            args.map(|a| ServeConfig::from_args(&a, &dir).unwrap().club)
        };
        // The server always has an engine budget: the cores less one unless told.
        let default = limits(&[]).unwrap();
        assert_eq!(
            default,
            Limits {
                engine_threads: Some(crate::club::budget::Budget::default_shares()),
                ..Limits::default()
            }
        );
        assert!(default.engine_threads.is_some_and(|n| n >= 1));
        assert_eq!(
            limits(&["--engine-threads", "3"]).unwrap().engine_threads,
            Some(3)
        );
        let set = limits(&["--abandon-after", "90s", "--max-rooms", "3"]).unwrap();
        assert_eq!(set.abandon_after, Duration::from_secs(90));
        assert_eq!(set.max_rooms, 3);
        assert!(limits(&["--abandon-after", "0s"]).is_err());
        assert!(limits(&["--max-rooms", "0"]).is_err());
        let set = limits(&["--max-tournaments", "2", "--tournament-players", "16"]).unwrap();
        assert_eq!((set.max_tournaments, set.tournament_players), (2, 16));
        assert!(limits(&["--tournament-players", "1"]).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_bots_levels_come_from_the_command_line_and_bad_ones_are_refused() {
        use clap::Parser;
        let dir = std::env::temp_dir().join(format!("ox88-serve-bots-{}", std::process::id()));
        let bots = |extra: &[&str]| {
            let line = ["serve", "--open"].iter().chain(extra).copied();
            Cmd::try_parse_from(line)
                .map(|c| ServeConfig::from_args(&c.serve, &dir).unwrap().bots)
                .map_err(|e| e.to_string())
        };
        assert_eq!(bots(&[]).unwrap(), Vec::<u32>::new());
        assert_eq!(
            bots(&["--bots", "1200,1600,2000"]).unwrap(),
            [1200, 1600, 2000]
        );
        for (bad, says) in [
            ("2600", "calibrated from 800 to 2400"),
            ("1200,x", "unknown level"),
            ("1600,1600", "given twice"),
        ] {
            let err = bots(&["--bots", bad]).unwrap_err();
            assert!(err.contains("--bots") && err.contains(says), "{bad}: {err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn durations_take_seconds_minutes_and_hours() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("30m"), Ok(Duration::from_secs(1800)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("45"), Ok(Duration::from_secs(45)));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("10x").unwrap_err().contains("unknown unit"));
        assert!(parse_duration("m").is_err());
    }

    #[test]
    fn authorized_keys_skip_comments_and_name_the_bad_line() {
        let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
        let line = key.public_key().to_openssh().unwrap();
        let key_line = format!("{line} player@example");
        let text = format!("# players\n\n{key_line}\n");
        assert_eq!(parse_authorized_keys(&text).map(|k| k.len()), Ok(1));
        let with_options = format!("no-pty,from=\"10.0.0.1\" {key_line}\n");
        assert_eq!(parse_authorized_keys(&with_options).map(|k| k.len()), Ok(1));
        let bad = format!("{key_line}\nssh-ed25519 notbase64!\n");
        assert!(
            parse_authorized_keys(&bad)
                .unwrap_err()
                .starts_with("line 2:")
        );
        assert!(
            parse_authorized_keys("# nobody\n")
                .unwrap_err()
                .contains("no keys")
        );
    }

    fn key_line() -> (PrivateKey, String) {
        let key = PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap();
        let line = key.public_key().to_openssh().unwrap();
        (key, line)
    }

    #[test]
    fn options_that_cannot_be_honoured_stop_the_start_naming_file_and_line() {
        let (_, line) = key_line();
        let accepted = format!(
            "restrict,no-pty,pty,no-agent-forwarding,no-port-forwarding,no-X11-forwarding,\
             no-user-rc {line}\nfrom=\"10.1.2.3,192.168.0.0/16\" {line} a comment\n"
        );
        assert_eq!(parse_authorized_keys(&accepted).map(|k| k.len()), Ok(2));
        let cases = [
            (
                format!("{line}\ncommand=\"/bin/sh -c 'echo, hi'\" {line}\n"),
                "line 2: command=",
            ),
            (
                format!("environment=\"A=1\" {line}\n"),
                "line 1: option \"environment",
            ),
            (
                format!("permitopen=\"host:22\",restrict {line}\n"),
                "permitopen",
            ),
            (format!("port-forwarding {line}\n"), "port-forwarding"),
            (
                format!("from=\"10.0.0.1/8\" {line}\n"),
                "bits are set past the prefix",
            ),
            (
                format!("from=\"10.0.0.0/33\" {line}\n"),
                "prefix length is 0 to 32",
            ),
            (format!("from=\"10.0.0.1,\" {line}\n"), "an empty pattern"),
            (format!("from=\"10.0.0.1 {line}\n"), "never closed"),
            (format!("from=10.0.0.1 {line}\n"), "double quotes"),
        ];
        for (text, said) in cases {
            let why = parse_authorized_keys(&text).unwrap_err();
            assert!(why.contains(said), "{text:?}: {why}");
        }
        // Through the command line: the file is named too.
        use clap::Parser;
        let dir = std::env::temp_dir().join(format!("ox88-serve-cmd-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("players.keys");
        std::fs::write(&file, format!("{line}\ncommand=\"true\" {line}\n")).unwrap();
        let args = Cmd::try_parse_from(["serve", "--authorized-keys", file.to_str().unwrap()])
            .unwrap()
            .serve;
        let why = format!("{:#}", ServeConfig::from_args(&args, &dir).unwrap_err());
        assert!(
            why.contains(&*file.to_string_lossy()) && why.contains("line 2: command="),
            "{why}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn from_matches_addresses_as_sshd_does() {
        let allows = |list: &str, ip: &str| {
            FromList::parse(list)
                .unwrap()
                .allows(ip.parse::<std::net::IpAddr>().unwrap())
        };
        assert!(allows("127.0.0.1", "127.0.0.1"));
        assert!(!allows("127.0.0.1", "127.0.0.10"));
        assert!(allows("127.0.0.?", "127.0.0.9"));
        assert!(!allows("127.0.0.?", "127.0.0.10"));
        assert!(allows("192.168.*", "192.168.40.2"));
        assert!(allows("*", "8.8.8.8"));
        assert!(allows("10.0.0.0/8", "10.200.3.4"));
        assert!(!allows("10.0.0.0/8", "11.0.0.1"));
        assert!(allows("0.0.0.0/0", "203.0.113.9"));
        // A negated match refuses whatever else matches, in any order.
        assert!(!allows("10.0.0.0/8,!10.9.9.9", "10.9.9.9"));
        assert!(!allows("!10.9.9.*,10.0.0.0/8", "10.9.9.1"));
        assert!(allows("!10.9.9.*,10.0.0.0/8", "10.9.8.1"));
        // Only negations: nothing matches positively, so nobody is let in.
        assert!(!allows("!10.9.9.9", "10.1.1.1"));
        // IPv6, and an IPv4 peer seen through an IPv6 socket.
        assert!(allows("2001:db8::/32", "2001:db8:1::5"));
        assert!(!allows("2001:db8::/32", "2001:db9::5"));
        assert!(allows("192.0.2.0/24", "::ffff:192.0.2.7"));
        assert!(!allows("192.0.2.0/24", "2001:db8::1"));
        // Names are not looked up: a name pattern matches no address.
        assert!(!allows("*.example.com", "93.184.216.34"));
    }

    #[test]
    fn a_key_is_let_in_where_any_of_its_lines_allows_the_address() {
        let (key, line) = key_line();
        let (other, _) = key_line();
        let text = format!("from=\"10.0.0.0/8\" {line}\nfrom=\"192.168.1.*\" {line}\n");
        let keys = AuthorizedKeys::of(Vec::new());
        assert!(keys.is_empty());
        let entries = parse_authorized_keys(&text).unwrap();
        assert_eq!(entries.len(), 2);
        let dir = std::env::temp_dir().join(format!("ox88-serve-verdict-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("k"), &text).unwrap();
        let keys = AuthorizedKeys::read(&dir.join("k")).unwrap();
        let ip = |s: &str| s.parse::<std::net::IpAddr>().unwrap();
        assert_eq!(
            keys.verdict(key.public_key(), ip("10.1.1.1")),
            Verdict::Allowed
        );
        assert_eq!(
            keys.verdict(key.public_key(), ip("192.168.1.5")),
            Verdict::Allowed
        );
        assert_eq!(
            keys.verdict(key.public_key(), ip("127.0.0.1")),
            Verdict::NotFrom(vec![1, 2])
        );
        assert_eq!(
            keys.verdict(other.public_key(), ip("10.1.1.1")),
            Verdict::NotListed
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_window_is_clamped_to_what_a_screen_shows() {
        assert_eq!(window_size(1000, 1000), MAX_WINDOW);
        assert_eq!(window_size(0, 0), (80, 24));
        assert_eq!(window_size(u32::MAX, 30), (MAX_WINDOW.0, 30));
        assert_eq!(window_size(120, 40), (120, 40));
    }

    #[test]
    fn the_pre_authentication_budget_and_the_per_address_cap_come_from_the_command_line() {
        use clap::Parser;
        let dir = std::env::temp_dir().join(format!("ox88-serve-preauth-{}", std::process::id()));
        let args = Cmd::try_parse_from(["serve", "--open"]).unwrap().serve;
        let config = ServeConfig::from_args(&args, &dir).unwrap();
        assert_eq!(config.pre_auth, PreAuth::default());
        assert!(
            config.max_per_ip < config.max_sessions,
            "a meaningful default"
        );
        let args = Cmd::try_parse_from([
            "serve",
            "--open",
            "--max-unauthenticated",
            "5",
            "--max-unauthenticated-per-ip",
            "2",
            "--login-grace",
            "7s",
        ])
        .unwrap()
        .serve;
        let config = ServeConfig::from_args(&args, &dir).unwrap();
        assert_eq!(
            config.pre_auth,
            PreAuth {
                max: 5,
                per_ip: 2,
                grace: Duration::from_secs(7)
            }
        );
        assert!(Cmd::try_parse_from(["serve", "--open", "--max-unauthenticated", "0"]).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_host_key_is_made_once_private_and_reused() {
        let dir = std::env::temp_dir().join(format!("ox88-hostkey-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("sub").join("host_key");
        let first = load_or_make_host_key(&path).unwrap();
        let again = load_or_make_host_key(&path).unwrap();
        assert_eq!(first.public_key(), again.public_key());
        assert_eq!(first.algorithm(), Algorithm::Ed25519);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&path, "garbage").unwrap();
        assert!(load_or_make_host_key(&path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
