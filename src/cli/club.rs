//! `ox88 club`: the operator's look at the club's database, and their orders, with or
//! without a server running (SQLite in WAL mode lets this process in beside the server's
//! writer). A ban or a kick is a row in the database; a running server reads the orders
//! every second and closes the sessions they name, so they take effect within a second.

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
    /// The club's tournaments, one a line: id, kind, clock, players, and whether it is
    /// starting, running or finished.
    Tournaments,
    /// One tournament: its standings, or (--trf) a Swiss as a FIDE TRF-16 file, or (--pgn)
    /// all its games in the order they were paired.
    Tournament {
        /// The tournament's id (`ox88 club tournaments` lists them).
        id: u32,
        /// Write a Swiss as FIDE TRF-16 (XXR, XXC, a 001 line per pairing number).
        #[arg(long, conflicts_with = "pgn")]
        trf: bool,
        /// Write every game's PGN, in the order played.
        #[arg(long)]
        pgn: bool,
    },
    /// The club's studies, one a line: name, owner, chapters, moves in all chapters
    /// (variations included), and whether it is private or open to every member.
    Studies,
    /// One study: its chapters with their moves, and its contributors; or (--pgn) every
    /// chapter as a PGN game, with variations, comments, glyphs, arrows, marked squares and
    /// evaluations.
    Study {
        /// The study's name (without case; `ox88 club studies` lists them).
        name: String,
        /// Write every chapter as PGN, in order.
        #[arg(long)]
        pgn: bool,
    },
    /// Bans a member: their sessions close within a second on a running server, and no key
    /// of their account logs in until `unban`.
    Ban {
        /// The member's name (without case).
        name: String,
    },
    /// Lifts a member's ban.
    Unban {
        /// The member's name (without case).
        name: String,
    },
    /// Closes a member's sessions on the running server within a second (a game of theirs
    /// waits as after a dropped connection); they may log in again.
    Kick {
        /// The member's name (without case).
        name: String,
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
    let member = |name: &str| -> Result<ox88::club::Account> {
        store
            .account_named(name)?
            .with_context(|| format!("no member of the club is named {name:?}"))
    };
    // A bot never logs in: a ban or kick would do nothing, so neither is taken.
    let person = |name: &str| -> Result<ox88::club::Account> {
        let account = member(name)?;
        if ox88::club::is_bot_id(&account.id) {
            bail!(
                "{} is the engine seated as a member (a bot): it has no key or session; \
                 start the server without its level in --bots to take it out of the club",
                account.name
            );
        }
        Ok(account)
    };
    match args.what {
        ClubCommand::Ban { name } => {
            let account = person(&name)?;
            if store.ban(&account.id)? {
                println!(
                    "{} is banned: a running server closes their sessions within a second and \
                     refuses their keys (ox88 club unban {} lifts it)",
                    account.name, account.name
                );
            } else {
                println!("{} is banned already", account.name);
            }
        }
        ClubCommand::Unban { name } => {
            let account = member(&name)?;
            if store.unban(&account.id)? {
                println!("{} may log in again", account.name);
            } else {
                println!("{} was not banned", account.name);
            }
        }
        ClubCommand::Kick { name } => {
            let account = person(&name)?;
            store.kick(&account.id)?;
            println!(
                "{}'s sessions close within a second on a running server (they may log in \
                 again; ox88 club ban keeps them out)",
                account.name
            );
        }
        ClubCommand::Tournaments => {
            let all = store.tournaments()?;
            if all.is_empty() {
                println!("the club has had no tournament yet");
            }
            for t in all {
                println!(
                    "{:>3}  {}  {}  {} players  {}",
                    t.id, t.kind, t.clock, t.players, t.state
                );
            }
        }
        ClubCommand::Tournament { id, trf, pgn } => {
            let Some(t) = store.tournament(id)? else {
                bail!("the club has no tournament {id} (ox88 club tournaments lists them)");
            };
            if trf {
                let Some(text) = t.trf else {
                    bail!(
                        "tournament {id} is an arena: TRF-16 is FIDE's file of a Swiss \
                         (--pgn gives its games)"
                    );
                };
                print!("{text}");
            } else if pgn {
                for game in &t.games {
                    // A game forfeited before any move was never kept.
                    if let Some(g) = store.game(game)? {
                        println!("{}\n", g.pgn.trim_end());
                    }
                }
            } else {
                print!("{}", t.standings);
            }
        }
        ClubCommand::Studies => {
            let all = store.studies()?;
            if all.is_empty() {
                println!("the club has no study yet");
            }
            for s in all {
                let moves: Option<usize> = s
                    .chapters
                    .iter()
                    .map(|ch| chapter_moves(&ch.pgn).ok().map(|(all, _)| all))
                    .sum();
                println!(
                    "{}  {}  {}  {}  {}",
                    s.name,
                    s.owner_name,
                    counted(s.chapters.len(), "chapter"),
                    moves.map_or("? moves".to_string(), |m| counted(m, "move")),
                    if s.private { "private" } else { "open" }
                );
            }
        }
        ClubCommand::Study { name, pgn } => {
            let Some(s) = store.study(&name)? else {
                bail!("the club has no study named {name:?} (ox88 club studies lists them)");
            };
            if pgn {
                let text = s
                    .pgn()
                    .map_err(|e| anyhow::anyhow!("study {}: {e}", s.name))?;
                print!("{text}");
            } else {
                println!(
                    "study {} by {}, {}",
                    s.name,
                    s.owner_name,
                    if s.private { "private" } else { "open" }
                );
                let contributors: Vec<&str> =
                    s.contributors.iter().map(|(_, n)| n.as_str()).collect();
                if contributors.is_empty() {
                    println!("contributors: none (only {} moves)", s.owner_name);
                } else {
                    println!("contributors: {}", contributors.join(", "));
                }
                for (i, ch) in s.chapters.iter().enumerate() {
                    let moves = match chapter_moves(&ch.pgn) {
                        Ok((all, main)) => {
                            format!("{} ({} in the main line)", counted(all, "move"), main)
                        }
                        Err(e) => format!("cannot be read: {e}"),
                    };
                    let here = if i == s.current {
                        "  (the cursor is here)"
                    } else {
                        ""
                    };
                    println!("{:>3}. {}  {moves}{here}", i + 1, ch.name);
                }
            }
        }
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

/// A chapter's moves (variations included) and those of its main line.
fn chapter_moves(pgn: &str) -> Result<(usize, usize), ox88::game::PgnError> {
    let (tree, _) = ox88::game::study::pgn::read(pgn, usize::MAX)?;
    Ok((tree.len(), tree.main_line().len()))
}

/// `n` things, `thing` in the plural unless one.
fn counted(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}
