//! The real `ox88 serve` binary as a child process on a free loopback port, for the load
//! tests (their figures include the server's own memory); killed when dropped.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A number from the environment, else `default` (the load tests' knobs).
pub fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Session caps that admit a load test's `cap` sessions, all from one address, and a small
/// table for each session's engine.
pub fn caps(cap: &str) -> [&str; 6] {
    ["--max-sessions", cap, "--max-per-ip", cap, "--hash", "16"]
}

/// Member `m{i}` of a keyed server, in with `key` and a terminal of `cols` × `rows`.
pub async fn member_in(
    addr: &str,
    i: usize,
    key: &russh::keys::PrivateKey,
    cols: u16,
    rows: u16,
) -> super::ssh::SshClient {
    let mut c = super::ssh::SshClient::connect(addr).await.expect("connect");
    assert!(
        c.auth(&format!("m{i}"), key).await.unwrap(),
        "member {i} in"
    );
    c.open_shell(cols, rows).await.unwrap();
    c
}

/// The median, 99th percentile and worst of `d`, in milliseconds (zeros when empty).
pub fn spread_ms(d: &mut [Duration]) -> (f64, f64, f64) {
    d.sort();
    let at = |i: usize| d.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    let n = d.len();
    (
        at(n / 2),
        at((n * 99 / 100).min(n.saturating_sub(1))),
        at(n.saturating_sub(1)),
    )
}

/// Prints what a load test's server took (`cpu` seconds of processor over `elapsed`, its
/// memory idle and at its peak, in KiB) and what the test's own clients took beside it on
/// the same cores (`who`: what those clients are).
pub fn print_processor(
    cpu: f64,
    elapsed: Duration,
    idle_kib: u64,
    peak_kib: u64,
    clients_cpu: f64,
    who: &str,
) {
    let secs = elapsed.as_secs_f64();
    println!(
        "server: {cpu:.1} s of processor in {secs:.0} s ({:.0}% of one core); RSS {} MiB idle, {} MiB peak",
        100.0 * cpu / secs,
        idle_kib / 1024,
        peak_kib / 1024
    );
    // The clients run on the same two cores: what they take is not the server's to give.
    println!(
        "the test's own clients (SSH and screens of every {who}): {clients_cpu:.1} s of \
         processor ({:.0}% of one core)",
        100.0 * clients_cpu / secs
    );
}

pub struct Served {
    child: Child,
    pub addr: String,
}

impl Served {
    /// Starts `ox88 serve --open` with `args` added and its data in `data_dir`; returns
    /// once it listens (the probe's slot given back).
    pub fn start(data_dir: &Path, args: &[&str]) -> Served {
        Served::start_as(data_dir, &["--open"], args)
    }

    /// The server for `members` members, each with a key of its own (listed for
    /// `--authorized-keys`), sessions and sessions per address capped above them, the
    /// club's database and the keys in `dir`, `args` added. The server and the keys.
    pub fn start_keyed(
        dir: &Path,
        members: usize,
        args: &[&str],
    ) -> (Served, Vec<russh::keys::PrivateKey>) {
        let keys: Vec<_> = (0..members).map(|_| super::ssh::new_key()).collect();
        let listed: String = keys
            .iter()
            .map(|k| format!("{}\n", k.public_key().to_openssh().unwrap()))
            .collect();
        let keys_file = dir.join("keys");
        std::fs::write(&keys_file, listed).unwrap();
        let db = dir.join("club.sqlite");
        let (keys_arg, db_arg) = (keys_file.display().to_string(), db.display().to_string());
        let cap = (members + 10).to_string();
        let all = [&caps(&cap)[..], &["--db", &db_arg], args].concat();
        let served = Served::start_as(dir, &["--authorized-keys", &keys_arg], &all);
        (served, keys)
    }

    /// [`Served::start`] with `access` (`--open`, or `--authorized-keys FILE`).
    pub fn start_as(data_dir: &Path, access: &[&str], args: &[&str]) -> Served {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let addr = format!("127.0.0.1:{port}");
        let child = Command::new(env!("CARGO_BIN_EXE_ox88"))
            .arg("serve")
            .args(access)
            .args(["--listen", &addr])
            .args(args)
            .env("OX88_DATA_DIR", data_dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start ox88 serve");
        let served = Served { child, addr };
        let ready = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(&served.addr).is_err() {
            assert!(Instant::now() < ready, "the server did not start listening");
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(200));
        served
    }

    /// The server's threads (Linux): each one's name, scheduling policy (field 41 of
    /// `/proc/PID/task/TID/stat`: 0 the normal one, 5 `SCHED_IDLE`) and nice value (field 19).
    pub fn threads(&self) -> Vec<(String, u32, i32)> {
        let dir = format!("/proc/{}/task", self.child.id());
        let Ok(tasks) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        tasks
            .flatten()
            .filter_map(|task| {
                let name = std::fs::read_to_string(task.path().join("comm")).ok()?;
                let stat = std::fs::read_to_string(task.path().join("stat")).ok()?;
                // The fields after the name (in parentheses, which may hold spaces) start
                // with the third, the state.
                let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
                let nice = fields.get(19 - 3)?.parse().ok()?;
                let policy = fields.get(41 - 3)?.parse().ok()?;
                Some((name.trim().to_string(), policy, nice))
            })
            .collect()
    }

    /// The processor time the server has used so far, user and system, in seconds (Linux;
    /// `/proc/PID/stat` counts it in clock ticks of 1/100 s).
    pub fn cpu_secs(&self) -> Option<f64> {
        cpu_secs_of(&self.child.id().to_string())
    }

    /// The server's resident memory in KiB (Linux).
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The processor time of a process so far, in seconds (Linux): `pid` a number, or `self`.
pub fn cpu_secs_of(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command's name may hold spaces: the fields are counted after its ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
