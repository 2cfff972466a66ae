//! `ox88 club`: the operator's look at the club's database, with or without a server
//! running (SQLite in WAL mode lets a reader in beside the server's writer).

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use std::path::PathBuf;

use ox88::club::{SqliteStore, Store, game_date};
use ox88::game::autosave::Autosave;

#[derive(Args, Debug)]
pub struct ClubArgs {
    /// The club's database (default: `serve/club.sqlite` in the data directory).
    #[arg(long, global = true)]
    pub db: Option<PathBuf>,
    #[command(subcommand)]
    pub what: ClubCommand,
}

#[derive(Subcommand, Debug)]
pub enum ClubCommand {
    /// A member's finished games, newest first: one line each, or (--pgn) their PGN.
    Games {
        /// The member's name (without case).
        name: String,
        /// Print each game's PGN, ready to copy or to give another program.
        #[arg(long)]
        pgn: bool,
        /// How many games, newest first.
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
}

pub fn run(args: ClubArgs) -> Result<()> {
    let db = match args.db {
        Some(db) => db,
        None => Autosave::from_env()
            .map(|a| a.dir().join("serve").join("club.sqlite"))
            .context("no data directory (set OX88_DATA_DIR or HOME, or give --db)")?,
    };
    if !db.exists() {
        bail!("no club database at {} (--db PATH names one)", db.display());
    }
    let store = SqliteStore::open(&db)?;
    match args.what {
        ClubCommand::Games { name, pgn, limit } => {
            let Some(account) = store.account_named(&name)? else {
                bail!("no member of the club is named {name:?}");
            };
            let games = store.games_of(&account.id, limit)?;
            if games.is_empty() {
                println!("{} has no stored games", account.name);
            }
            for (i, g) in games.iter().enumerate() {
                if pgn {
                    println!("{}\n", g.pgn.trim_end());
                } else {
                    println!(
                        "{:>3}  {}  {}  {} – {}  {}  {}",
                        i + 1,
                        game_date(g).unwrap_or("????.??.??"),
                        g.room,
                        g.white_name,
                        g.black_name,
                        g.result.as_deref().unwrap_or("*"),
                        g.time_control.as_deref().unwrap_or("")
                    );
                }
            }
        }
    }
    Ok(())
}
