//! What `ox88 serve` is told: its command line, and the configuration resolved from it
//! (files read, defaults applied).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::bail;
use russh::keys::{PrivateKey, PublicKey};

use super::admission::{self, PreAuth};
use super::keys::{AuthorizedKeys, load_or_make_host_key};
use crate::club::budget::Budget;
use crate::club::lobby::Limits;
use crate::club::study::StudyLimits;

/// The command line of `ox88 serve`.
#[derive(clap::Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("access").required(true).args(["authorized_keys", "open"])))]
pub struct ServeArgs {
    /// Address and port to listen on. Loopback by default: listening elsewhere is a choice.
    #[arg(long, default_value = "127.0.0.1:2222")]
    pub listen: SocketAddr,
    /// Port to listen on, on loopback (the same as --listen 127.0.0.1:PORT).
    #[arg(long, conflicts_with = "listen")]
    pub port: Option<u16>,
    /// The server's private key (OpenSSH format). Default: made once in the data directory.
    #[arg(long)]
    pub host_key: Option<PathBuf>,
    /// Let in only the public keys listed in this OpenSSH authorized_keys file.
    #[arg(long)]
    pub authorized_keys: Option<PathBuf>,
    /// Let anyone in (every login is logged); each session is its own player, whose game
    /// ends with the session.
    #[arg(long)]
    pub open: bool,
    /// Sessions at once, in all.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_sessions: u32,
    /// Sessions at once from one IP address, loopback included (a club behind one NAT
    /// shares an address: raise it for them).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_per_ip: u32,
    /// Connections waiting to authenticate, in all; past it the oldest waiting is dropped.
    /// They hold no session slot.
    #[arg(long, default_value_t = admission::MAX_UNAUTHENTICATED as u32, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_unauthenticated: u32,
    /// Connections waiting to authenticate from one address; past it that address's oldest
    /// waiting connection is dropped, so the newest (a member's) gets in.
    #[arg(long, default_value_t = admission::MAX_UNAUTHENTICATED_PER_IP as u32, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_unauthenticated_per_ip: u32,
    /// How long a connection may take to authenticate, and then to start its session
    /// (a passphrase typed included): 20s, 1m.
    #[arg(long, default_value = "20s", value_parser = parse_duration)]
    pub login_grace: Duration,
    /// Close a session after this long without a key press: 90s, 30m, 2h.
    #[arg(long, default_value = "30m", value_parser = parse_duration)]
    pub idle_timeout: Duration,
    /// Engine threads per session. Sessions share the server's cores, so each searches on
    /// one thread whatever is given here.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Transposition table size per session, in MB (the most one session's engine may use).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hash: u32,
    /// The search depth a session starts with (players change it with + and -).
    #[arg(long, default_value_t = crate::tui::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: u32,
    /// The club's database (SQLite): players, games, ratings. Default: `club.sqlite` in the
    /// server's data directory.
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Club games the engine analyses at once for their watchers (all who watch one game
    /// share its search; each search takes a core). 1 leaves a 2-core server's other core
    /// to the players' moves; 0 keeps the engine's panes shut for watchers.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=256))]
    pub analysis: u32,
    /// Searches at once over the whole server (playing the engine, hints, analysis, the
    /// lab, a review, a watched game's analysis); the others wait their turn, saying so.
    /// Default: the machine's cores less one, at least one.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub engine_threads: Option<u32>,
    /// Rooms at once, however made (by name, a seek or challenge accepted, an adjourned
    /// game resumed); past it a new room is refused, saying why.
    #[arg(long, default_value_t = crate::club::lobby::MAX_ROOMS as u32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub max_rooms: u32,
    /// A room whose two players have both been away this long closes: its game is
    /// adjourned (kept, unfinished) and goes on when a player comes back. 90s, 10m, 2h.
    #[arg(long, default_value = "10m", value_parser = parse_duration)]
    pub abandon_after: Duration,
    /// Seat the engine in the club at these calibrated levels (Elo, 800 to 2400, or a
    /// level's name): 1200,1600,2000 seats ox88-1200, ox88-1600 and ox88-2000, members
    /// marked [bot], rated like anyone, each with a 5+3 seek standing and a game for
    /// whoever challenges it. Their searches go before every other job in the server's
    /// engine budget.
    #[arg(long, value_name = "ELO,ELO,...", value_parser = parse_bots)]
    pub bots: Option<Bots>,
    /// Tournaments starting or running at once; past it `:tournament` is refused, saying
    /// why.
    #[arg(long, default_value_t = crate::club::lobby::MAX_TOURNAMENTS as u32, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub max_tournaments: u32,
    /// Players in one tournament at most; past it a join is refused, saying why.
    #[arg(long, default_value_t = crate::club::lobby::TOURNAMENT_PLAYERS as u32, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub tournament_players: u32,
    /// Studies one member may own; past it `:study NEW` is refused, saying why.
    #[arg(long, default_value_t = StudyLimits::default().per_member as u32, value_parser = clap::value_parser!(u32).range(0..=10_000))]
    pub studies_per_member: u32,
    /// Chapters in one study at most.
    #[arg(long, default_value_t = StudyLimits::default().chapters as u32, value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub study_chapters: u32,
    /// Moves in one chapter at most, variations included.
    #[arg(long, default_value_t = StudyLimits::default().moves as u32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub study_moves: u32,
    /// Characters in one comment of a study at most.
    #[arg(long, default_value_t = StudyLimits::default().comment as u32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub study_comment: u32,
    /// Members in one study at once at most.
    #[arg(long, default_value_t = StudyLimits::default().members as u32, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub study_members: u32,
}

/// The levels of `--bots`, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bots(pub Vec<u32>);

fn parse_bots(text: &str) -> Result<Bots, String> {
    crate::club::bots::parse_levels(text).map(Bots)
}

/// Who may log in.
#[derive(Clone, Debug)]
pub enum Access {
    /// Only these keys (from where their lines allow).
    Keys(AuthorizedKeys),
    /// Anyone.
    Open,
}

impl Access {
    /// Only these keys, from anywhere.
    pub fn keys(keys: Vec<PublicKey>) -> Access {
        Access::Keys(AuthorizedKeys::of(keys))
    }
}

/// Everything the server needs, resolved (files read, defaults applied).
#[derive(Clone, Debug)]
pub struct ServeConfig {
    pub listen: SocketAddr,
    pub host_key: PrivateKey,
    pub access: Access,
    pub max_sessions: usize,
    pub max_per_ip: usize,
    /// Connections not yet authenticated: how many, from one address, for how long.
    pub pre_auth: PreAuth,
    pub idle_timeout: Duration,
    pub hash_mb: usize,
    pub depth: u32,
    /// `serve/` inside the data directory: players' games live under it.
    pub data_dir: PathBuf,
    /// The club's SQLite database.
    pub db: PathBuf,
    /// Club games analysed at once for their watchers.
    pub analysis: usize,
    /// The club's rooms, challenges and how long it waits for absent players.
    pub club: Limits,
    /// The levels the engine is seated at as members (`--bots`); empty: none.
    pub bots: Vec<u32>,
}

impl ServeConfig {
    /// Resolves the command line: reads the authorized keys, loads or makes the host key.
    pub fn from_args(args: &ServeArgs, data_dir: &Path) -> anyhow::Result<ServeConfig> {
        let access = match (&args.authorized_keys, args.open) {
            (Some(path), false) => Access::Keys(AuthorizedKeys::read(path)?),
            (None, true) => Access::Open,
            _ => bail!("give either --authorized-keys FILE or --open"),
        };
        if args.threads > 1 {
            eprintln!(
                "ox88 serve: --threads {}: sessions share the server's cores, so each searches on one thread",
                args.threads
            );
        }
        let key_path = args
            .host_key
            .clone()
            .unwrap_or_else(|| data_dir.join("host_key_ed25519"));
        let host_key = load_or_make_host_key(&key_path)?;
        Ok(ServeConfig {
            listen: args
                .port
                .map_or(args.listen, |port| SocketAddr::new(args.listen.ip(), port)),
            host_key,
            access,
            max_sessions: args.max_sessions as usize,
            max_per_ip: args.max_per_ip as usize,
            pre_auth: PreAuth {
                max: args.max_unauthenticated as usize,
                per_ip: args.max_unauthenticated_per_ip as usize,
                grace: args.login_grace,
            },
            idle_timeout: args.idle_timeout,
            hash_mb: args.hash as usize,
            depth: args.depth,
            data_dir: data_dir.to_path_buf(),
            db: args
                .db
                .clone()
                .unwrap_or_else(|| data_dir.join("club.sqlite")),
            analysis: args.analysis as usize,
            club: Limits {
                max_rooms: args.max_rooms as usize,
                abandon_after: args.abandon_after,
                max_tournaments: args.max_tournaments as usize,
                tournament_players: args.tournament_players as usize,
                studies: StudyLimits {
                    per_member: args.studies_per_member as usize,
                    chapters: args.study_chapters as usize,
                    moves: args.study_moves as usize,
                    comment: args.study_comment as usize,
                    members: args.study_members as usize,
                },
                engine_threads: Some(
                    args.engine_threads
                        .map_or_else(Budget::default_shares, |n| n as usize),
                ),
                ..Limits::default()
            },
            bots: args.bots.clone().map(|b| b.0).unwrap_or_default(),
        })
    }
}

/// `90s`, `30m`, `2h`, or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{s}: not a duration (like 90s, 30m or 2h)"))?;
    let secs = match unit {
        "s" => n,
        "m" => n.saturating_mul(60),
        "h" => n.saturating_mul(3600),
        _ => return Err(format!("{s}: unknown unit {unit:?} (s, m or h)")),
    };
    if secs == 0 {
        return Err(format!("{s}: must be longer than zero"));
    }
    Ok(Duration::from_secs(secs))
}
