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

mod config;
pub mod input;
mod keys;
pub mod session;

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use russh::keys::{HashAlg, PublicKey};
use russh::server::{Auth, Msg, PublicKeyOffer, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId};
use tokio::net::TcpListener;

use crate::club::analysis::Analyses;

use crate::club::{Club, Login, SignedIn, SqliteStore};
use crate::game::autosave::Autosave;
pub use config::{Access, ServeArgs, ServeConfig, parse_duration};
pub use keys::{load_or_make_host_key, parse_authorized_keys, player_id};
use session::{ClubSeat, SessionEvent, SessionSpec};

/// How often the rooms' clocks are looked at.
const CLUB_TICK: Duration = Duration::from_millis(100);

/// Connections now: in all and per address. A `Slot` holds one and gives it back on drop.
#[derive(Default)]
struct Counts {
    total: usize,
    per_ip: HashMap<IpAddr, usize>,
}

struct Slot {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.shared.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.per_ip.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.per_ip.remove(&self.ip);
            }
        }
    }
}

/// What every connection shares.
struct Shared {
    config: ServeConfig,
    counts: Mutex<Counts>,
    /// The running sessions, so a shutdown can end (and save) every one.
    sessions: Mutex<HashMap<u64, session::SessionHandle>>,
    next_session: AtomicU64,
    /// Connections being turned away with a word (bounded: past it they are dropped).
    turning_away: AtomicU64,
    /// Where visitors meet: rooms, the lobby, the database.
    club: Arc<Club>,
    /// The engine's analyses of watched games, one per game.
    analyses: Arc<Analyses>,
}

impl Shared {
    /// A seat for a connection from `ip`, or why there is none, in words for the person.
    fn take_slot(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, String> {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if c.total >= self.config.max_sessions {
            return Err(format!(
                "the server is full ({} sessions at once); try again later",
                c.total
            ));
        }
        let n = c.per_ip.entry(ip).or_insert(0);
        if *n >= self.config.max_per_ip {
            return Err(format!(
                "your address ({ip}) already has the most sessions it may here ({n}); \
                 close one and try again"
            ));
        }
        *n += 1;
        c.total += 1;
        Ok(Slot {
            shared: Arc::clone(self),
            ip,
        })
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
        let ssh = russh::server::Config {
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
        let hash_mb = config.hash_mb;
        let analyses = Analyses::new(
            config.analysis,
            Box::new(move |o| session::capped(o, hash_mb)),
        );
        Ok(Server {
            listener,
            shared: Arc::new(Shared {
                config,
                counts: Mutex::new(Counts::default()),
                sessions: Mutex::new(HashMap::new()),
                next_session: AtomicU64::new(1),
                turning_away: AtomicU64::new(0),
                club,
                analyses,
            }),
            ssh: Arc::new(ssh),
        })
    }

    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
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
                    let (seat, grace) = match self.shared.take_slot(peer.ip()) {
                        Ok(s) => (Seat::Slot { _held: s }, LOGIN_GRACE),
                        Err(why) => {
                            eprintln!("ox88 serve: {peer} refused: {why}");
                            // The person is told why on their terminal, through a short
                            // SSH session that only says so; a flood of them is dropped.
                            match TurnAway::take(&self.shared) {
                                Some(t) => (Seat::Refused { _held: t, why }, TURN_AWAY_GRACE),
                                None => {
                                    drop(stream);
                                    continue;
                                }
                            }
                        }
                    };
                    let started = Arc::new(AtomicBool::new(false));
                    let handler = Connection {
                        shared: Arc::clone(&self.shared),
                        peer,
                        seat,
                        started: Arc::clone(&started),
                        player: None,
                        login: None,
                        number: None,
                        channel: None,
                    };
                    let ssh = Arc::clone(&self.ssh);
                    tokio::spawn(serve_connection(ssh, stream, peer, handler, started, grace));
                }
            }
        }
        ticker.abort();
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

/// How long stopping waits for the database's queued writes.
const SHUTDOWN_FLUSH: Duration = Duration::from_secs(10);

/// How long a connection may take from its first byte to a running game. A slot is taken
/// at connect, so a client that stalls in the handshake or never asks for a shell must not
/// keep it for the whole idle timeout.
const LOGIN_GRACE: Duration = Duration::from_secs(60);

/// How long a connection that is being turned away may take to hear why.
const TURN_AWAY_GRACE: Duration = Duration::from_secs(10);

/// Connections being turned away at once, at most; past it they are dropped unheard.
const TURN_AWAY_MAX: u64 = 8;

/// What a connection holds: a session's seat, or none and the reason to tell the person.
enum Seat {
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

async fn serve_connection(
    ssh: Arc<russh::server::Config>,
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    handler: Connection,
    started: Arc<AtomicBool>,
    grace: Duration,
) {
    let running =
        match tokio::time::timeout(grace, russh::server::run_stream(ssh, stream, handler)).await {
            Ok(Ok(running)) => running,
            Ok(Err(e)) => return eprintln!("ox88 serve: {peer}: {e}"),
            Err(_) => return eprintln!("ox88 serve: {peer}: no SSH handshake in time"),
        };
    let handle = running.handle();
    let watchdog = tokio::spawn(async move {
        tokio::time::sleep(grace).await;
        if !started.load(Ordering::Relaxed) {
            eprintln!("ox88 serve: {peer}: no game started in time, closing");
            let _ = handle
                .disconnect(
                    russh::Disconnect::ByApplication,
                    "no game started in time".into(),
                    "en".into(),
                )
                .await;
        }
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
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .context("cannot watch SIGTERM")?;
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
    /// The session's seat, held while the connection lasts; or why there is none.
    seat: Seat,
    /// Set once the shell runs (the login watchdog reads it).
    started: Arc<AtomicBool>,
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
        let Some(id) = self.channel.as_ref().and_then(|c| c.session) else {
            return;
        };
        let sessions = self
            .shared
            .sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(h) = sessions.get(&id) {
            h.send(ev);
        }
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
        let dir_name = if member.rated {
            member.id.clone()
        } else {
            format!(
                "open-{}-{number}",
                chrono::Local::now().format("%Y%m%d-%H%M%S")
            )
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
        self.started.store(true, Ordering::Relaxed);
        eprintln!(
            "ox88 serve: {} session {number} for {dir_name} ({})",
            self.peer, name
        );
        let mut sessions = shared.sessions.lock().unwrap_or_else(|e| e.into_inner());
        // Sessions that ended by themselves leave their handles here; drop them now.
        sessions.retain(|_, h| !h.is_finished());
        sessions.insert(number, handle);
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
        if matches!(self.shared.config.access, Access::Open) {
            eprintln!("ox88 serve: {} logged in as {user:?} (open)", self.peer);
            self.player = Some(Player::Open);
            self.login = Some(user.to_string());
            return Ok(Auth::Accept);
        }
        Ok(Auth::reject())
    }

    async fn auth_publickey_offered(
        &mut self,
        _user: &str,
        offer: PublicKeyOffer<'_>,
    ) -> Result<Auth, Self::Error> {
        Ok(match &self.shared.config.access {
            Access::Open => Auth::Accept,
            Access::Keys(keys) if listed(keys, offer.public_key) => Auth::Accept,
            Access::Keys(_) => Auth::reject(),
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        let fp = key.public_key.fingerprint(HashAlg::Sha256);
        match &self.shared.config.access {
            Access::Open => {
                eprintln!(
                    "ox88 serve: {} logged in as {user:?} ({fp}, open)",
                    self.peer
                );
                self.player = Some(Player::Open);
                self.login = Some(user.to_string());
                Ok(Auth::Accept)
            }
            Access::Keys(keys) if listed(keys, key.public_key) => {
                eprintln!("ox88 serve: {} logged in as {user:?} ({fp})", self.peer);
                self.player = Some(Player::Key(player_id(key.public_key)));
                self.login = Some(user.to_string());
                Ok(Auth::Accept)
            }
            Access::Keys(_) => {
                eprintln!("ox88 serve: {} refused key {fp}", self.peer);
                Ok(Auth::reject())
            }
        }
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
                setup.size = (clamp_size(col_width, 80), clamp_size(row_height, 24));
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
            setup.size = (clamp_size(col_width, 80), clamp_size(row_height, 24));
            let (w, h) = setup.size;
            self.send(SessionEvent::Resize(w, h));
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

fn listed(keys: &[PublicKey], key: &PublicKey) -> bool {
    keys.iter().any(|k| k.key_data() == key.key_data())
}

/// A window size as the client gave it, kept sane: 0 (a client that does not know) is
/// `default`, and no more than 1000 cells.
fn clamp_size(n: u32, default: u16) -> u16 {
    if n == 0 { default } else { n.min(1000) as u16 }
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
        assert_eq!(limits(&[]).unwrap(), Limits::default());
        let set = limits(&["--abandon-after", "90s", "--max-rooms", "3"]).unwrap();
        assert_eq!(set.abandon_after, Duration::from_secs(90));
        assert_eq!(set.max_rooms, 3);
        assert!(limits(&["--abandon-after", "0s"]).is_err());
        assert!(limits(&["--max-rooms", "0"]).is_err());
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
