//! One player's session: the TUI's `App` on its own thread, driven by the SSH channel.
//!
//! This file is the one adapter between the server and `tui::App` (its public surface only:
//! `new`, `handle_key`, `handle_paste`, `on_engine_event`, `on_shared_analysis`, `on_tick`,
//! `next_wakeup`, `quit`, `ui::draw`, `info`, `game`, plus the autosave, resume offer, theme
//! directory and input line). When a session ends, the server's log gets a line saying how, after how long and
//! with how many moves on the board. The loop is
//! the local one's (tui/mod.rs): draw, wait for an event or the next tick, handle, repeat;
//! the differences are where bytes come from and go to.
//!
//! Output goes through a small bounded queue to the task that writes to the channel. When
//! the client reads too slowly the queue fills: the frame is dropped and the next one is
//! drawn whole, so a slow client sees fewer frames and the server holds a few at most.

use std::cell::RefCell;
use std::io;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossterm::event::{DisableBracketedPaste, EnableBracketedPaste};
use crossterm::terminal::{Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, queue};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Rect;
use ratatui::{Terminal, TerminalOptions, Viewport};
use russh::ChannelId;
use russh::server::Handle;

use super::input::{ESC_TIMEOUT, Input, Parser};
use crate::chess::Board;
use crate::club::analysis::{Analyses, Shared, Sink};
use crate::club::{Club, Notify, SignedIn};
use crate::engine::search::record::TreeLimits;
use crate::engine::{Engine, Limits, SearchEvent, SearchOptions};
use crate::game::autosave::Autosave;
#[cfg(test)]
use crate::tui::app::confined_pgn_path;
use crate::tui::app::explorer::SERVE_TREE_CAP;
use crate::tui::app::{EngineControl, JobEvent, JobSink};
use crate::tui::settings::Settings;
use crate::tui::{App, ColorDepth, ColorMode, Options, Theme, driver, ui};

/// Frames waiting for a slow client; beyond this they are dropped.
const OUTPUT_FRAMES: usize = 4;

/// After a dropped frame, how soon to try again with a whole one.
const REDRAW_RETRY: Duration = Duration::from_millis(100);

/// Input bytes waiting for the session thread; beyond this a flood is dropped.
const INPUT_BACKLOG: usize = 256 * 1024;

/// The least time between two reads of the club by a session in the lobby: a burst of
/// changes (seeks, games starting, moves in the listed games) is read, and drawn, once.
const LOBBY_READ_GAP: Duration = Duration::from_millis(200);

/// The same in a room, short: a move should reach the opponent's screen at once.
const ROOM_READ_GAP: Duration = Duration::from_millis(20);

/// What a session reacts to.
#[derive(Debug)]
pub enum SessionEvent {
    /// Channel data: the client's keyboard.
    Bytes(Vec<u8>),
    /// The client's window changed: its latest size is in the session's [`Resizes`] (one
    /// event waits at a time, however many resizes it stands for).
    Resize,
    Engine(SearchEvent),
    /// The club's analysis of the game this viewer watches (shared with the game's other
    /// watchers; the session's own engine sends `Engine`).
    Analysis(Shared),
    /// A background job's report (the lab, the review).
    Job(JobEvent),
    /// Something this viewer shows in the club changed: read it again (one such event is
    /// queued at a time, however many changes it stands for).
    Club,
    /// The client went away (EOF, close, dropped connection).
    Closed,
    /// The server is stopping.
    Shutdown,
    /// The club's operator closed the session (`ox88 club kick`, or `ban`: `true`).
    Removed {
        banned: bool,
    },
}

/// What a session starts from.
#[derive(Clone, Debug)]
pub struct SessionSpec {
    /// The player's directory: autosave and saved games.
    pub player_dir: PathBuf,
    /// Columns and rows from the pty request.
    pub size: (u16, u16),
    /// What the client told us: TERM (from the pty request), COLORTERM, NO_COLOR.
    pub env: Vec<(String, String)>,
    pub hash_mb: usize,
    pub depth: u32,
    pub idle_timeout: Duration,
    /// The SSH login name: the player's name in the PGN headers ("Player" when empty).
    pub login: String,
    /// An open server's visitor: a new player every time, who can never come back to this
    /// game (so is never told it is saved).
    pub open: bool,
    /// How the server's log names the session (`127.0.0.1:50122 session 3`).
    pub label: String,
    /// The club this session's player meets others in, who they are there, and the room
    /// the ssh command named (`ssh -t HOST ROOM`).
    pub club: Option<ClubSeat>,
}

/// A session's way into the club.
#[derive(Clone)]
pub struct ClubSeat {
    pub club: Arc<Club>,
    /// Who signed in, with what their screen tells them first.
    pub who: SignedIn,
    pub room: Option<String>,
    /// The server's analyses of watched games, shared by each game's watchers.
    pub analyses: Arc<Analyses>,
}

impl std::fmt::Debug for ClubSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClubSeat")
            .field("member", &self.who.member)
            .field("room", &self.room)
            .finish()
    }
}

/// The client's window sizes not yet taken by the session: only the latest is kept, so a
/// client resizing without pause queues one event and one redraw, never a backlog.
#[derive(Clone, Default)]
pub struct Resizes(Arc<std::sync::Mutex<Option<(u16, u16)>>>);

impl Resizes {
    /// Keeps `size` as the latest; true when no event is waiting for an earlier one.
    pub fn put(&self, size: (u16, u16)) -> bool {
        let mut latest = self.0.lock().unwrap_or_else(|e| e.into_inner());
        latest.replace(size).is_none()
    }

    /// The latest size, if one came since the last take.
    pub fn take(&self) -> Option<(u16, u16)> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// The server's hold on a running session.
pub struct SessionHandle {
    /// The club member the session is (an account's id, or a visitor's).
    member: Option<String>,
    tx: mpsc::Sender<SessionEvent>,
    queued_input: Arc<AtomicUsize>,
    resizes: Resizes,
    thread: JoinHandle<()>,
}

impl SessionHandle {
    /// The club member the session is.
    pub fn member(&self) -> Option<&str> {
        self.member.as_deref()
    }

    pub fn send(&self, ev: SessionEvent) {
        if let SessionEvent::Bytes(b) = &ev {
            let queued = self.queued_input.fetch_add(b.len(), Ordering::Relaxed);
            if queued > INPUT_BACKLOG {
                self.queued_input.fetch_sub(b.len(), Ordering::Relaxed);
                return;
            }
        }
        let _ = self.tx.send(ev);
    }

    /// The client's window is now `size`: the session draws at the latest size it was given.
    pub fn resize(&self, size: (u16, u16)) {
        if self.resizes.put(size) {
            let _ = self.tx.send(SessionEvent::Resize);
        }
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }
}

/// Starts a session on `channel`: its thread, and the task that writes its frames.
/// Must be called inside the tokio runtime.
pub fn spawn(spec: SessionSpec, handle: Handle, channel: ChannelId) -> io::Result<SessionHandle> {
    let (out_tx, mut out_rx) = tokio::sync::mpsc::channel::<Vec<u8>>(OUTPUT_FRAMES);
    tokio::spawn(async move {
        while let Some(bytes) = out_rx.recv().await {
            if handle.data(channel, bytes).await.is_err() {
                break;
            }
        }
        let _ = handle.exit_status_request(channel, 0).await;
        let _ = handle.eof(channel).await;
        let _ = handle.close(channel).await;
    });
    let member = spec.club.as_ref().map(|c| c.who.member.id.clone());
    let (tx, rx) = mpsc::channel();
    let queued_input = Arc::new(AtomicUsize::new(0));
    let resizes = Resizes::default();
    let thread = {
        let tx = tx.clone();
        let queued_input = Arc::clone(&queued_input);
        let resizes = resizes.clone();
        std::thread::Builder::new()
            .name("ox88-session".into())
            .spawn(move || run(spec, tx, rx, queued_input, resizes, out_tx))?
    };
    Ok(SessionHandle {
        member,
        tx,
        queued_input,
        resizes,
        thread,
    })
}

/// The client's colour depth: COLORTERM and TERM as the local TUI reads them, NO_COLOR
/// honoured, and 256 colours when the client said nothing.
pub fn color_depth(env: &[(String, String)]) -> ColorDepth {
    let get = |k: &str| {
        env.iter()
            .rev()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
    };
    if get("NO_COLOR").is_some_and(|v| !v.is_empty()) {
        return ColorDepth::None;
    }
    if get("TERM").is_none() && get("COLORTERM").is_none() {
        return ColorDepth::Ansi256;
    }
    ColorDepth::detect(ColorMode::Auto, get)
}

/// The engine with the server's caps applied to every search: the hash size, one search
/// thread (the server's cores are shared by all its sessions), no book file (a path) of
/// anyone's choosing, and small recorded trees (memory per player).
struct CappedEngine {
    engine: Engine,
    hash_mb: usize,
}

/// `options` within the server's caps (at most `hash_mb` of table, one thread).
pub(super) fn capped(options: &SearchOptions, hash_mb: usize) -> SearchOptions {
    SearchOptions {
        hash_mb: options.hash_mb.min(hash_mb),
        threads: 1,
        book_file: None,
        record_tree: options.record_tree.map(|l| TreeLimits {
            cap: l.cap.min(SERVE_TREE_CAP),
            ..l
        }),
        ..options.clone()
    }
}

impl EngineControl for CappedEngine {
    fn go(&mut self, board: &Board, limits: Limits, options: &SearchOptions) -> u64 {
        self.engine
            .go(board, limits, &capped(options, self.hash_mb))
    }
    fn stop(&mut self) {
        self.engine.stop()
    }
    fn new_game(&mut self) {
        self.engine.new_game()
    }
}

/// A session's wake-ups from the club, merged: however many changes come before the
/// session reads the club again, one `SessionEvent::Club` is queued for them.
#[derive(Clone, Default)]
struct ClubWake {
    queued: Arc<AtomicBool>,
}

impl ClubWake {
    /// What the club calls on a change: queues an event unless one is waiting.
    fn notify(&self, tx: mpsc::Sender<SessionEvent>) -> Notify {
        let queued = Arc::clone(&self.queued);
        Arc::new(move || {
            if !queued.swap(true, Ordering::AcqRel) {
                let _ = tx.send(SessionEvent::Club);
            }
        })
    }

    /// The session reads the club now: a change from here on wakes it again.
    fn reading(&self) {
        self.queued.store(false, Ordering::Release);
    }
}

/// Where the terminal writes: a buffer the session takes after each frame.
#[derive(Clone, Default)]
struct FrameBuffer(Rc<RefCell<Vec<u8>>>);

impl io::Write for FrameBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The client's screen: a ratatui terminal drawing into a buffer of its size.
struct Screen {
    terminal: Terminal<CrosstermBackend<FrameBuffer>>,
    buffer: FrameBuffer,
    size: (u16, u16),
    /// The client may have missed bytes (or the size changed): draw everything next time.
    whole: bool,
}

impl Screen {
    fn new(size: (u16, u16)) -> io::Result<Screen> {
        let buffer = FrameBuffer::default();
        Ok(Screen {
            terminal: terminal(size, &buffer)?,
            buffer,
            size,
            whole: true,
        })
    }

    /// The bytes that bring the client's screen up to date with `app`.
    fn frame(&mut self, app: &App) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        if self.whole {
            // A fresh terminal has no previous frame to diff against: it draws every cell.
            self.terminal = terminal(self.size, &self.buffer)?;
            queue!(bytes, Clear(ClearType::All))?;
            self.whole = false;
        }
        self.terminal.draw(|f| ui::draw(f, app))?;
        bytes.append(&mut self.buffer.0.borrow_mut());
        Ok(bytes)
    }
}

/// What became of a frame.
#[derive(Debug, PartialEq, Eq)]
enum Offered {
    Sent,
    /// The client is behind: this frame is dropped and the next is drawn whole.
    Dropped,
    /// The channel is gone.
    Closed,
}

/// Queues a frame for the client without ever waiting for it.
fn offer(out: &tokio::sync::mpsc::Sender<Vec<u8>>, bytes: Vec<u8>, screen: &mut Screen) -> Offered {
    use tokio::sync::mpsc::error::TrySendError;
    if bytes.is_empty() {
        return Offered::Sent;
    }
    match out.try_send(bytes) {
        Ok(()) => Offered::Sent,
        Err(TrySendError::Full(_)) => {
            screen.whole = true;
            Offered::Dropped
        }
        Err(TrySendError::Closed(_)) => Offered::Closed,
    }
}

fn terminal(
    size: (u16, u16),
    buffer: &FrameBuffer,
) -> io::Result<Terminal<CrosstermBackend<FrameBuffer>>> {
    Terminal::with_options(
        CrosstermBackend::new(buffer.clone()),
        TerminalOptions {
            viewport: Viewport::Fixed(Rect::new(0, 0, size.0, size.1)),
        },
    )
}

/// Why a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Quit,
    Closed,
    Shutdown,
    Idle,
    Kicked,
    Banned,
}

impl End {
    /// The reason as the server's log gives it.
    fn reason(self) -> &'static str {
        match self {
            End::Quit => "quit",
            End::Closed => "disconnect",
            End::Shutdown => "server shutdown",
            End::Idle => "idle timeout",
            End::Kicked => "kicked by the operator",
            End::Banned => "banned by the operator",
        }
    }

    /// What the player reads on the way out (nothing once the connection is gone). A
    /// player with a key finds the game again at the next login; an open visitor never does.
    fn note(self, open: bool) -> &'static str {
        match (self, open) {
            (End::Closed, _) => "",
            (End::Quit, false) => "",
            (End::Quit, true) => "ox88: the game ended with the session.\r\n",
            (End::Shutdown, false) => "ox88: the server is stopping; your game is saved.\r\n",
            (End::Shutdown, true) => {
                "ox88: the server is stopping; the game ended with the session.\r\n"
            }
            (End::Idle, false) => "ox88: closed for lack of input; your game is saved.\r\n",
            (End::Kicked, _) => {
                "ox88: the club's operator closed this session (a game of yours waits, as \
                 after a dropped connection); you may log in again.\r\n"
            }
            (End::Banned, _) => {
                "ox88: this account is banned from the club by its operator; the session is \
                 closed.\r\n"
            }
            (End::Idle, true) => {
                "ox88: closed for lack of input; the game ended with the session.\r\n"
            }
        }
    }
}

/// `45s`, `12m 05s`, `2h 03m`: a session's length for the log.
fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

fn run(
    spec: SessionSpec,
    tx: mpsc::Sender<SessionEvent>,
    rx: mpsc::Receiver<SessionEvent>,
    queued_input: Arc<AtomicUsize>,
    resizes: Resizes,
    out: tokio::sync::mpsc::Sender<Vec<u8>>,
) {
    let started = Instant::now();
    let depth = color_depth(&spec.env);
    let (theme, _) = Theme::load_or_default("default", None, depth);
    // The login name as the club shows it (the server has refused one with nothing visible).
    let name = crate::club::text::member_name(&spec.login).unwrap_or_else(|_| "Player".into());
    let opts = Options::of(Settings {
        depth: spec.depth,
        name,
        ..Settings::default()
    });
    let jobs: JobSink = {
        let tx = tx.clone();
        Arc::new(move |ev| {
            let _ = tx.send(SessionEvent::Job(ev));
        })
    };
    let tx_club = tx.clone();
    let engine = Engine::new(move |ev| {
        let _ = tx.send(SessionEvent::Engine(ev));
    });
    let engine = CappedEngine {
        engine,
        hash_mb: spec.hash_mb,
    };
    let mut store = Autosave::in_dir(&spec.player_dir);
    // A second session of the same player plays on without autosave: one session writes
    // the player's `current.pgn`.
    let locked_out = matches!(
        store.lock(),
        Err(crate::game::autosave::AutosaveError::Locked { .. })
    );
    let unfinished = if locked_out {
        Ok(None)
    } else {
        store.load_unfinished()
    };
    let mut builder = App::builder(&opts, Box::new(engine));
    let club_wake = ClubWake::default();
    if let Some(seat) = &spec.club {
        let notify = club_wake.notify(tx_club.clone());
        let viewer = seat.club.connect(seat.who.clone(), notify);
        let sink: Sink = {
            let tx = tx_club.clone();
            Arc::new(move |ev| {
                let _ = tx.send(SessionEvent::Analysis(ev));
            })
        };
        builder = builder
            .club(viewer, seat.room.as_deref())
            .club_analyses(Arc::clone(&seat.analyses), sink);
    }
    let mut app = builder
        .theme(theme, depth)
        // Only the built-in themes: a theme name must not name a file on the server.
        .user_theme_dir(None)
        // `:save`/`:load` take a bare name inside the player's own directory.
        .file_root(spec.player_dir.join("saved"))
        .autosave((!locked_out).then_some(store))
        .jobs(jobs)
        .build();
    if locked_out {
        // Two sessions of one player are nothing wrong (a laptop and a phone): said, and
        // logged, but not as an error, so what the club tells on arrival is seen after it.
        let line = "another session of yours is keeping its game: this one is not saved (:save NAME keeps it)";
        app.log_line(crate::tui::app::LogKind::Info, line);
        app.info(line);
    }
    match unfinished {
        Ok(Some(game)) => app.offer_resume(game),
        Ok(None) => {}
        Err(e) => app.error(format!("autosave: {e}")),
    }
    if spec.open {
        app.info("open server: the game ends when you leave (nothing is kept)");
    }
    // What the club has to tell this person (who they are here, a game adjourned) comes
    // last, so it is the line they see; nothing else is sure to wake the session for it.
    app.on_club_change();

    let mut start = Vec::new();
    let _ = queue!(
        start,
        EnterAlternateScreen,
        EnableBracketedPaste,
        cursor::Hide
    );
    let _ = out.try_send(start);

    let Ok(screen) = Screen::new(spec.size) else {
        return;
    };
    let mut channel = Channel {
        screen,
        out: out.clone(),
        parser: Parser::new(),
        last_input: Instant::now(),
        esc_deadline: None,
        idle_timeout: spec.idle_timeout,
        queued_input,
        resizes,
        club: ClubReads::new(club_wake),
    };
    let end = driver::run(&mut app, &rx, &mut channel);
    eprintln!(
        "ox88 serve: {} ended: {} after {}, {} moves on the board",
        spec.label,
        end.reason(),
        duration_text(started.elapsed()),
        app.game().ply()
    );
    // Stops the engine; the game was saved after its last move.
    drop(app);
    if spec.open {
        // A visitor never comes back to this folder: nothing of theirs is kept.
        if let Err(e) = std::fs::remove_dir_all(&spec.player_dir)
            && e.kind() != io::ErrorKind::NotFound
        {
            eprintln!(
                "ox88 serve: {}: cannot remove {}: {e}",
                spec.label,
                spec.player_dir.display()
            );
        }
    }
    if end == End::Closed {
        return;
    }
    let mut bye = Vec::new();
    let _ = queue!(
        bye,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    bye.extend_from_slice(end.note(spec.open).as_bytes());
    // A client that reads nothing gets nothing more; the channel closes all the same.
    let _ = out.try_send(bye);
}

/// One decoded key or paste into the app.
/// One SSH channel as a front end of the shared loop: frames go out as bytes the client
/// may not take yet (then the next frame is drawn whole), keys come in as bytes.
struct Channel {
    screen: Screen,
    out: tokio::sync::mpsc::Sender<Vec<u8>>,
    parser: Parser,
    last_input: Instant,
    /// A lone Esc is a key only once no escape sequence follows it in time.
    esc_deadline: Option<Instant>,
    idle_timeout: Duration,
    /// Bytes received and not yet handled (the server refuses more past a cap).
    queued_input: Arc<AtomicUsize>,
    /// The client's latest window size, when it changed.
    resizes: Resizes,
    club: ClubReads,
}

/// When the session reads the club: after the events already queued (a burst is read
/// once), and at most once a [`LOBBY_READ_GAP`] in the lobby, a [`ROOM_READ_GAP`] in a room.
struct ClubReads {
    wake: ClubWake,
    /// The club woke the session and has not been read since.
    due: bool,
    /// The last read, and the gap before the next (by where the viewer was then).
    last: Option<(Instant, Duration)>,
}

impl ClubReads {
    fn new(wake: ClubWake) -> ClubReads {
        ClubReads {
            wake,
            due: false,
            last: None,
        }
    }

    /// The moment the club is to be read, if it woke the session.
    fn due_at(&self) -> Option<Instant> {
        self.due
            .then(|| self.last.map_or_else(Instant::now, |(t, gap)| t + gap))
    }

    /// Reads the club into `app` when due at `now`.
    fn read(&mut self, app: &mut App, now: Instant) {
        if self.due && self.last.is_none_or(|(t, gap)| now >= t + gap) {
            self.read_now(app, now);
        }
    }

    /// Reads the club into `app` now if it woke the session: before a key is handled, so
    /// the key acts on what was there when it was pressed (a lobby row, the room's turn).
    fn read_now(&mut self, app: &mut App, now: Instant) {
        if self.due {
            self.due = false;
            self.wake.reading();
            app.on_club_change();
            let gap = if app.club().in_room() {
                ROOM_READ_GAP
            } else {
                LOBBY_READ_GAP
            };
            self.last = Some((now, gap));
        }
    }
}

impl driver::Front for Channel {
    type Event = SessionEvent;
    type End = End;

    fn draw(&mut self, app: &mut App) -> Result<Option<Instant>, End> {
        let bytes = self.screen.frame(app).map_err(|_| End::Closed)?;
        match offer(&self.out, bytes, &mut self.screen) {
            Offered::Sent => Ok(None),
            // Nothing else may happen for a while: the client must still get the last
            // state once it catches up.
            Offered::Dropped => Ok(Some(Instant::now() + REDRAW_RETRY)),
            Offered::Closed => Err(End::Closed),
        }
    }

    fn wake_at(&self) -> Option<Instant> {
        let idle_at = self.last_input + self.idle_timeout;
        [Some(idle_at), self.esc_deadline, self.club.due_at()]
            .into_iter()
            .flatten()
            .min()
    }

    fn handle(&mut self, app: &mut App, ev: SessionEvent) -> Option<End> {
        match ev {
            SessionEvent::Bytes(bytes) => {
                self.queued_input.fetch_sub(bytes.len(), Ordering::Relaxed);
                self.last_input = Instant::now();
                self.club.read_now(app, self.last_input);
                for input in self.parser.feed(&bytes) {
                    apply(app, input);
                }
                self.esc_deadline = self
                    .parser
                    .has_pending()
                    .then(|| Instant::now() + ESC_TIMEOUT);
            }
            SessionEvent::Resize => {
                if let Some(size) = self.resizes.take() {
                    self.screen.size = size;
                    self.screen.whole = true;
                }
            }
            SessionEvent::Engine(e) => app.on_engine_event(e),
            SessionEvent::Analysis(e) => app.on_shared_analysis(e),
            SessionEvent::Job(j) => app.on_job_event(j),
            // Read after the events already queued (in `tick`), not once per change.
            SessionEvent::Club => self.club.due = true,
            SessionEvent::Closed => return Some(End::Closed),
            SessionEvent::Shutdown => return Some(End::Shutdown),
            SessionEvent::Removed { banned: false } => return Some(End::Kicked),
            SessionEvent::Removed { banned: true } => return Some(End::Banned),
        }
        None
    }

    fn tick(&mut self, app: &mut App, now: Instant) -> Option<End> {
        self.club.read(app, now);
        if self.esc_deadline.is_some_and(|t| now >= t) {
            self.esc_deadline = None;
            for input in self.parser.flush() {
                apply(app, input);
            }
        }
        if now >= self.last_input + self.idle_timeout {
            // A game going on in the viewer's room is activity: a player waiting for the
            // opponent's move, a watcher of a long game; so is waiting for a tournament's
            // next pairing.
            if app.club().game_going_on() || app.club().in_tournament() {
                self.last_input = now;
                return None;
            }
            return Some(End::Idle);
        }
        None
    }

    fn quit(&mut self) -> End {
        End::Quit
    }

    fn disconnected(&mut self) -> End {
        End::Closed
    }
}

fn apply(app: &mut App, input: Input) {
    match input {
        Input::Key(key) => {
            app.handle_key(key);
        }
        Input::Paste(text) => app.handle_paste(&text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// An engine that never answers: these tests look at the screen only.
    struct Idle;

    impl EngineControl for Idle {
        fn go(&mut self, _: &Board, _: Limits, _: &SearchOptions) -> u64 {
            1
        }
        fn stop(&mut self) {}
        fn new_game(&mut self) {}
    }

    #[test]
    fn the_server_caps_the_table_the_book_and_the_recorded_trees() {
        let asked = SearchOptions {
            hash_mb: 4096,
            book_file: Some(PathBuf::from("/etc/passwd")),
            record_tree: Some(crate::tui::app::explorer::TUI_LIMITS),
            ..SearchOptions::default()
        };
        let got = capped(&asked, 16);
        assert_eq!(got.hash_mb, 16);
        assert_eq!(got.book_file, None);
        let tree = got.record_tree.expect("trees are still recorded");
        assert_eq!(tree.cap, SERVE_TREE_CAP);
        assert_eq!(tree.plies, crate::tui::app::explorer::TUI_LIMITS.plies);
        let off = SearchOptions {
            record_tree: None,
            ..asked
        };
        assert_eq!(capped(&off, 16).record_tree, None, "off stays off");
    }

    fn app() -> App {
        let depth = ColorDepth::Ansi256;
        let (theme, _) = Theme::load_or_default("default", None, depth);
        App::new(&Options::default(), Box::new(Idle), theme, depth)
    }

    const CLEAR: &[u8] = b"\x1b[2J";

    fn starts_with_clear(bytes: &[u8]) -> bool {
        bytes.starts_with(CLEAR)
    }

    #[test]
    fn a_slow_client_loses_frames_and_then_gets_a_whole_one() {
        let app = app();
        let mut screen = Screen::new((80, 24)).unwrap();
        let (out, mut client) = tokio::sync::mpsc::channel::<Vec<u8>>(1);
        let first = screen.frame(&app).unwrap();
        assert!(starts_with_clear(&first), "the first frame is whole");
        assert_eq!(offer(&out, first, &mut screen), Offered::Sent);

        // The queue is full (the client reads nothing): the frame is dropped at once.
        let mut moved = app;
        moved.handle_paste("e2e4");
        let second = screen.frame(&moved).unwrap();
        assert!(
            !starts_with_clear(&second),
            "an update draws only what changed"
        );
        assert_eq!(offer(&out, second, &mut screen), Offered::Dropped);

        // Once the client catches up it gets the whole screen, not a diff against a frame
        // it never saw.
        assert!(client.try_recv().is_ok());
        let third = screen.frame(&moved).unwrap();
        assert!(
            starts_with_clear(&third),
            "after a drop the next frame is whole"
        );
        assert_eq!(offer(&out, third, &mut screen), Offered::Sent);

        drop(client);
        let fourth = screen.frame(&moved).unwrap();
        assert_eq!(offer(&out, fourth, &mut screen), Offered::Closed);
    }

    #[test]
    fn resizes_without_pause_wait_as_one_and_the_latest_size_wins() {
        let resizes = Resizes::default();
        assert!(resizes.put((100, 30)), "the first asks for an event");
        for w in 101..1000 {
            assert!(!resizes.put((w, 30)), "later ones ride on it");
        }
        assert_eq!(resizes.take(), Some((999, 30)));
        assert_eq!(resizes.take(), None);
        assert!(resizes.put((80, 24)), "taken: the next asks again");
    }

    #[test]
    fn a_resize_redraws_the_whole_screen_at_the_new_size() {
        let app = app();
        let mut screen = Screen::new((80, 24)).unwrap();
        let _ = screen.frame(&app).unwrap();
        screen.size = (120, 40);
        screen.whole = true;
        let bytes = screen.frame(&app).unwrap();
        let mut vt = vt100::Parser::new(
            std::num::NonZeroU16::new(40).unwrap(),
            std::num::NonZeroU16::new(120).unwrap(),
            0,
        );
        vt.process(&bytes);
        let last = vt.screen().rows(0, 120).nth(39).unwrap();
        assert!(
            last.starts_with("White to move"),
            "status on row 40: {last:?}"
        );
    }

    #[test]
    fn a_burst_of_club_changes_queues_one_wake_and_is_read_once_a_frame() {
        let wake = ClubWake::default();
        let (tx, rx) = mpsc::channel();
        let notify = wake.notify(tx);
        for _ in 0..100 {
            notify();
        }
        assert_eq!(rx.try_iter().count(), 1, "a hundred changes, one wake-up");

        let mut app = app();
        let mut reads = ClubReads::new(wake);
        reads.due = true;
        let t0 = Instant::now();
        reads.read(&mut app, t0);
        assert!(!reads.due, "the first read is at once");
        notify();
        assert_eq!(
            rx.try_iter().count(),
            1,
            "read: the next change wakes again"
        );

        // More changes within the frame: one wake, read when the frame is over.
        notify();
        notify();
        assert_eq!(
            rx.try_iter().count(),
            0,
            "still queued from the last change"
        );
        reads.due = true;
        reads.read(&mut app, t0 + LOBBY_READ_GAP / 2);
        assert!(reads.due, "not twice in one frame");
        assert_eq!(reads.due_at(), Some(t0 + LOBBY_READ_GAP));
        reads.read(&mut app, t0 + LOBBY_READ_GAP);
        assert!(!reads.due);
        assert_eq!(reads.due_at(), None);
    }

    #[test]
    fn colour_depth_follows_the_client_and_defaults_to_256() {
        assert_eq!(color_depth(&[]), ColorDepth::Ansi256);
        assert_eq!(
            color_depth(&env(&[("TERM", "xterm-256color")])),
            ColorDepth::Ansi256
        );
        assert_eq!(
            color_depth(&env(&[("TERM", "xterm"), ("COLORTERM", "truecolor")])),
            ColorDepth::TrueColor
        );
        assert_eq!(color_depth(&env(&[("TERM", "linux")])), ColorDepth::Ansi16);
        assert_eq!(
            color_depth(&env(&[("TERM", "xterm-256color"), ("NO_COLOR", "1")])),
            ColorDepth::None
        );
    }

    #[test]
    fn file_names_from_a_player_stay_in_their_directory() {
        let dir = Path::new("/srv/ox88/players/p/saved");
        assert_eq!(confined_pgn_path(dir, "game"), Some(dir.join("game.pgn")));
        assert_eq!(
            confined_pgn_path(dir, "../../../etc/passwd"),
            Some(dir.join("passwd.pgn"))
        );
        assert_eq!(
            confined_pgn_path(dir, "/tmp/x.PGN"),
            Some(dir.join("x.PGN"))
        );
        assert_eq!(
            confined_pgn_path(dir, "~/.ssh/authorized_keys"),
            Some(dir.join("authorized_keys.pgn"))
        );
        assert_eq!(confined_pgn_path(dir, ".."), None);
        assert_eq!(confined_pgn_path(dir, "dir/"), None);
    }
}
