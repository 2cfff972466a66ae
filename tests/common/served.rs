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
