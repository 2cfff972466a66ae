//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::time::Duration;

pub mod app;
pub mod club;
pub mod pty;
pub mod screen;
pub mod search;
pub mod served;
pub mod ssh;
pub mod uci;

/// The runtime the SSH test clients run on outside `#[tokio::test]`: two worker threads, as
/// many as the machine the figures are taken on has cores.
pub fn client_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The 3- and 4-man Syzygy tables of `scripts/get-syzygy.sh`: `OX88_SYZYGY`, else
/// `target/syzygy`. Every test that needs them asks here. Without them the calling test
/// says so on standard error (written past the test harness's capture, so that the note
/// shows even for a test that passes) and passes; with `OX88_REQUIRE_SYZYGY=1` (CI sets it
/// once it has fetched them) it fails instead.
pub fn syzygy_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("OX88_SYZYGY")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/syzygy"));
    if dir.join("KQvK.rtbw").is_file() && dir.join("KRRvK.rtbw").is_file() {
        return Some(dir);
    }
    let missing = format!(
        "no Syzygy tables in {} (run scripts/get-syzygy.sh)",
        dir.display()
    );
    if std::env::var_os("OX88_REQUIRE_SYZYGY").is_some_and(|v| v == "1") {
        panic!("{missing}, and OX88_REQUIRE_SYZYGY=1 requires them");
    }
    // `eprintln!` would go to the harness's capture, shown only for a failing test; one
    // write keeps the line whole among the other tests' output.
    use std::io::Write;
    let test = std::thread::current()
        .name()
        .unwrap_or("a test")
        .to_string();
    let line = format!("note: {test}: {missing}; test skipped\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
    None
}

/// How long a test waits for what it expects before it fails: generous, as the machine is
/// shared and a debug build searches slowly.
pub const WAIT: Duration = Duration::from_secs(60);

/// A fresh directory `ox88-NAME-PID-N` in the system's temporary directory, removed when
/// dropped. `N` counts the directories of this process: the tests of one binary share it,
/// and two of them may ask for the same name.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("ox88-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A small deterministic generator (xorshift64*): reproducible randomness without a crate,
/// so a failing random test replays exactly.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Draws `app` on a `w`×`h` test terminal as a driver would (resize, then draw) and returns
/// the screen's lines and its buffer (for styles).
pub fn render(app: &mut ox88::tui::App, w: u16, h: u16) -> (Vec<String>, ratatui::buffer::Buffer) {
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        app.resize(f.area());
        ox88::tui::ui::draw(f, app)
    })
    .unwrap();
    let buf = term.backend().buffer().clone();
    let lines = (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    (lines, buf)
}

/// A search report as the engine sends one, for tests that feed a pane by hand: one exact
/// line at `depth` scoring `score_white` (White's view; the mover's the same) with `pv`,
/// its other numbers plausible. A test that needs others says so with `..iteration(…)`.
pub fn iteration(
    depth: u32,
    score_white: ox88::engine::Score,
    pv: Vec<ox88::chess::Move>,
) -> ox88::engine::IterationInfo {
    ox88::engine::IterationInfo {
        depth,
        seldepth: depth,
        multipv: 1,
        score: score_white,
        score_white,
        bound: ox88::engine::Bound::Exact,
        nodes: 1000,
        nps: 100_000,
        time: Duration::from_millis(10),
        pv,
        hashfull: 0,
        root_moves: Vec::new(),
        first_move_cutoff: 0.9,
        branching: 2.0,
        stats: Default::default(),
        root_rows: Vec::new(),
    }
}

/// A bordered pane found on a screen's lines by the start of its top line (`┌ Sort `):
/// its top and bottom frame lines and the lines between, each cut to the pane's width.
pub struct ScreenPane {
    pub top: String,
    pub inner: Vec<String>,
    pub bottom: String,
}

pub fn screen_pane(lines: &[String], title: &str) -> Option<ScreenPane> {
    let (row, left) = lines.iter().enumerate().find_map(|(i, l)| {
        let at = l.find(title)?;
        Some((i, l[..at].chars().count()))
    })?;
    let chars = |l: &String| l.chars().collect::<Vec<char>>();
    let top = chars(&lines[row]);
    let right = (left + 1..top.len()).find(|&x| top[x] == '┐')?;
    let cut = |l: &String| l.chars().skip(left + 1).take(right - left - 1).collect();
    let end = (row + 1..lines.len()).find(|&r| lines[r].chars().nth(left) == Some('└'))?;
    Some(ScreenPane {
        top: cut(&lines[row]),
        inner: lines[row + 1..end].iter().map(cut).collect(),
        bottom: cut(&lines[end]),
    })
}
