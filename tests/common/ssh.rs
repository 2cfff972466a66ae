//! `ox88 serve` from a client's side: the server started in this process on a loopback port,
//! and a russh client that logs in with a key, opens a pty and a shell, types, and reads the
//! TUI back through a VT100 screen. Every wait is bounded; a failure prints the screen.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use ox88::club::analysis::Analyses;
use ox88::serve::{Access, KeysReload, ServeConfig, Server};
use russh::keys::{Algorithm, PrivateKey, PrivateKeyWithHashAlg};
use russh::{ChannelMsg, Disconnect, client};
use tokio::net::ToSocketAddrs;
use tokio::time::{Instant, timeout, timeout_at};

use super::WAIT;
use super::screen::Screen;

/// A fresh Ed25519 key (a player's, or a host key).
pub fn new_key() -> PrivateKey {
    PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).unwrap()
}

/// A server on a free loopback port with a new host key, room for 8 sessions (8 from one
/// address), a 10-minute idle timeout, a 4 MB hash and depth 3, one analysis for watchers,
/// keeping its data in `data_dir`.
pub fn config(data_dir: &Path, access: Access) -> ServeConfig {
    ServeConfig {
        listen: "127.0.0.1:0".parse().unwrap(),
        host_key: new_key(),
        access,
        max_sessions: 8,
        max_per_ip: 8,
        pre_auth: Default::default(),
        idle_timeout: Duration::from_secs(600),
        hash_mb: 4,
        depth: 3,
        data_dir: data_dir.to_path_buf(),
        db: data_dir.join("club.sqlite"),
        analysis: 1,
        club: Default::default(),
        bots: Vec::new(),
    }
}

/// `ox88 serve` running as a task of the current tokio runtime.
pub struct TestServer {
    addr: SocketAddr,
    analyses: Arc<Analyses>,
    reload: KeysReload,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl TestServer {
    /// Binds and starts serving (call within a tokio runtime).
    pub async fn start(config: ServeConfig) -> TestServer {
        let server = Server::bind(config).await.unwrap();
        let addr = server.local_addr().unwrap();
        let analyses = server.analyses();
        let reload = server.keys_reload();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(server.run(async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            analyses,
            reload,
            stop: Some(stop),
            task,
        }
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The server's analyses for watchers (how many run).
    pub fn analyses(&self) -> &Analyses {
        &self.analyses
    }

    /// Reads the authorized keys file again, as SIGHUP does.
    pub fn reload_keys(&self) -> Result<usize, String> {
        self.reload.reload()
    }

    pub fn is_running(&self) -> bool {
        !self.task.is_finished()
    }

    /// Asks the server to stop and checks that it ends in time, without an error.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        timeout(WAIT, &mut self.task)
            .await
            .expect("the server stops")
            .unwrap()
            .unwrap();
    }
}

/// Trusts any host key (the test made it).
pub struct Trust;

impl client::Handler for Trust {
    type Error = russh::Error;
    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// One SSH connection; after [`SshClient::open_shell`], a session with a pty whose output
/// lands on a VT100 screen. The fallible steps say which step failed.
pub struct SshClient {
    handle: client::Handle<Trust>,
    channel: Option<russh::Channel<client::Msg>>,
    screen: Screen,
    closed: bool,
}

impl SshClient {
    pub async fn connect(addr: impl ToSocketAddrs) -> Result<SshClient, String> {
        // As OpenSSH does for an interactive session: keys go out at once, not batched.
        let config = Arc::new(client::Config {
            nodelay: true,
            ..client::Config::default()
        });
        let handle = client::connect(config, addr, Trust)
            .await
            .map_err(|e| format!("connect: {e}"))?;
        Ok(SshClient {
            handle,
            channel: None,
            screen: Screen::new(24, 80),
            closed: false,
        })
    }

    /// Offers `key` as `user`: whether the server let us in.
    pub async fn auth(&mut self, user: &str, key: &PrivateKey) -> Result<bool, String> {
        let auth = self
            .handle
            .authenticate_publickey(
                user,
                PrivateKeyWithHashAlg::new(Arc::new(key.clone()), None),
            )
            .await
            .map_err(|e| format!("auth: {e}"))?;
        Ok(auth.success())
    }

    /// Connects (in time) and offers `key` as `player`: the client and whether it got in.
    /// Panics where the server does not answer.
    pub async fn login(addr: SocketAddr, key: &PrivateKey) -> (SshClient, bool) {
        let mut client = timeout(WAIT, SshClient::connect(addr))
            .await
            .expect("connect in time")
            .expect("connect");
        let ok = client
            .auth("player", key)
            .await
            .expect("the server answers the key");
        (client, ok)
    }

    /// As [`SshClient::login`], logging in as `user`.
    pub async fn login_as(addr: SocketAddr, user: &str, key: &PrivateKey) -> (SshClient, bool) {
        let mut client = timeout(WAIT, SshClient::connect(addr))
            .await
            .expect("connect in time")
            .expect("connect");
        let ok = client
            .auth(user, key)
            .await
            .expect("the server answers the key");
        (client, ok)
    }

    /// The connection, for what this client does not wrap (other channels, requests).
    pub fn handle(&self) -> &client::Handle<Trust> {
        &self.handle
    }

    /// Opens a session with an `xterm-256color` pty of `cols`×`rows` and starts the shell.
    pub async fn open_shell(&mut self, cols: u16, rows: u16) -> Result<(), String> {
        self.open_pty(cols, rows, None).await
    }

    /// Opens a session with a pty as `ssh -t HOST ROOM` does: the command (an exec
    /// request) names the room.
    pub async fn open_room(&mut self, cols: u16, rows: u16, room: &[u8]) -> Result<(), String> {
        self.open_pty(cols, rows, Some(room)).await
    }

    /// A session with a pty, then the shell (`None`) or a command.
    async fn open_pty(
        &mut self,
        cols: u16,
        rows: u16,
        command: Option<&[u8]>,
    ) -> Result<(), String> {
        let channel = self
            .handle
            .channel_open_session()
            .await
            .map_err(|e| format!("channel: {e}"))?;
        channel
            .request_pty(true, "xterm-256color", cols.into(), rows.into(), 0, 0, &[])
            .await
            .map_err(|e| format!("pty: {e}"))?;
        match command {
            None => channel
                .request_shell(true)
                .await
                .map_err(|e| format!("shell: {e}"))?,
            Some(c) => channel
                .exec(true, c.to_vec())
                .await
                .map_err(|e| format!("exec: {e}"))?,
        }
        self.channel = Some(channel);
        self.screen = Screen::new(rows, cols);
        Ok(())
    }

    fn channel(&mut self) -> &mut russh::Channel<client::Msg> {
        self.channel.as_mut().expect("a shell is open")
    }

    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// Whether the server closed the session.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// Types `text` (keys as a terminal sends them).
    pub async fn try_send(&mut self, text: &str) -> Result<(), String> {
        self.channel()
            .data(text.as_bytes())
            .await
            .map_err(|e| format!("send: {e}"))
    }

    pub async fn send(&mut self, text: &str) {
        self.try_send(text).await.unwrap();
    }

    /// Tells the server the terminal is now `cols`×`rows`, and resizes the screen to match.
    pub async fn resize(&mut self, cols: u16, rows: u16) {
        self.channel()
            .window_change(cols.into(), rows.into(), 0, 0)
            .await
            .unwrap();
        self.screen.resize(rows, cols);
    }

    /// Reads output into the screen until `done` holds for it (true), or the deadline passes
    /// or the session closes first (false; [`SshClient::closed`] tells which).
    pub async fn read_until(&mut self, deadline: Instant, done: impl Fn(&Screen) -> bool) -> bool {
        loop {
            if done(&self.screen) {
                return true;
            }
            if self.closed {
                return false;
            }
            let Ok(msg) = timeout_at(deadline, self.channel().wait()).await else {
                return false;
            };
            match msg {
                Some(ChannelMsg::Data { data }) => self.screen.feed(&data),
                Some(ChannelMsg::Close) | None => self.closed = true,
                Some(_) => {}
            }
        }
    }

    /// Waits until `done` holds for the screen, or fails with the screen shown (also where the
    /// session closes first).
    pub async fn wait_for(&mut self, what: &str, done: impl Fn(&Screen) -> bool) {
        let ok = self.read_until(Instant::now() + WAIT, done).await;
        assert!(
            ok,
            "waiting for {what} (closed: {}); screen:\n{}",
            self.closed,
            self.screen.text()
        );
    }

    /// Waits for the server to close the session, or fails with the screen shown.
    pub async fn wait_closed(&mut self, what: &str) {
        self.read_until(Instant::now() + WAIT, |_| false).await;
        assert!(
            self.closed,
            "waiting for {what}; screen:\n{}",
            self.screen.text()
        );
    }

    /// Says goodbye and disconnects.
    pub async fn disconnect(self) {
        let _ = self
            .handle
            .disconnect(Disconnect::ByApplication, "bye", "en")
            .await;
    }
}
