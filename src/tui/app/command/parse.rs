//! A `:` command line → a typed `Command`, or a `CommandError` that says what was wrong:
//! the name resolved among the commands usable where it was typed (a unique prefix is
//! accepted), the row of the table picked, where it may be used checked, and its argument
//! turned into the type it stands for.

use std::fmt;
use std::time::Duration;

use super::table::{self, ALIASES, CommandSpec, Scope, Scopes};
use crate::chess::{Color, Square};
use crate::engine::eval::EvalMode;
use crate::engine::jobs::ReviewDepth;
use crate::engine::levels::Level;
use crate::engine::order::Scheme;
use crate::game::TimeControl;
use crate::game::study::{Glyph, Mark};
use crate::tui::Mode;
use crate::tui::view::View;

/// A `:` command checked for syntax and for where it was typed. What needs the game or the
/// club (is the FEN a legal position? can the file be read? is that seek still there?) is
/// checked when the command runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    New,
    Undo,
    Redo,
    Flip,
    /// Show the FEN (`None`) or set up the position from this text.
    Fen(Option<String>),
    Depth(u32),
    Eval(EvalMode),
    Order(Scheme),
    Mode(Mode),
    Go,
    Stop,
    /// Engine vs engine: the pause between moves.
    Delay(Duration),
    Save(String),
    Load(String),
    Tc(TcArg),
    /// Resign: the app's game, or in a room the room's.
    Resign,
    /// Offer or accept a draw: the app's game, or in a room the room's.
    Draw,
    /// `:puzzle [THEME|RATING|mine|stats|show|off]` (the argument as typed).
    Puzzle(String),
    /// A theme name (`default` when none was given).
    Theme(String),
    /// `Some(on)`, or `None` to switch.
    Ascii(Option<bool>),
    /// Engine vs engine: play this many more games, each starting when the last ends.
    Games(u32),
    Level(Level),
    MultiPv(u32),
    Hint,
    /// `:review [quick|deep]` (quick when not given).
    Review(ReviewDepth),
    Set(SetArg),
    /// The ordering lab to this depth (the search depth setting when `None`).
    Lab(Option<u32>),
    View(View),
    /// Open the tree browser.
    Tree,
    Help,
    Quit,
    // ---- the club's ----------------------------------------------------------------------
    /// To the lobby (out of a room, or from the engine game).
    Lobby,
    /// To the game against the engine.
    Play,
    /// Join or open a room by name.
    Join(String),
    /// Watch the lobby's game of this number.
    Watch(u32),
    Seek(SeekArgs),
    /// Take one's seek out of the lobby.
    SeekOff,
    Challenge {
        name: String,
        /// `None`: no clock.
        time_control: Option<TimeControl>,
        /// `None`: rated (the club's default for a challenge).
        rated: Option<bool>,
    },
    /// Withdraw one's challenge to this member.
    ChallengeOff(String),
    /// Accept the seek or challenge of this number.
    Accept(u32),
    /// Turn down the challenge of this number.
    Decline(u32),
    /// A chat line in the room.
    Say(String),
    /// Hide or show the chat.
    Mute,
    /// A watcher's engine panes, opened or closed.
    Engine,
    /// One's stored games, listed in the log.
    StoredGames,
    /// The PGN of one's stored game of this number (as `:games` lists them).
    Pgn(u32),
    /// One's stored game of this number on one's own board.
    Open(u32),
    /// The members by rating, or one member's rating history.
    Members(Option<String>),
    /// A one-time code that adds another key to one's account.
    KeyCode,
    Abort,
    Takeback,
    /// Turn down the opponent's offer.
    No,
    Rematch,
    /// Win when the opponent has been away long enough.
    Claim,
    /// One's colour in the room, before the opponent comes.
    Color(Color),
    /// Make a tournament: the words after `:tournament`, read by the club (which says
    /// what is wrong with them).
    TournamentCreate(String),
    /// Join tournament ID (the only one open when `None`), or come back after `:pause`.
    TournamentJoin(Option<u32>),
    /// Withdraw from one's tournament.
    TournamentLeave(Option<u32>),
    /// End one's tournament (its organiser).
    TournamentEnd(Option<u32>),
    /// A tournament's standings, pairings and podium into the log.
    Standings(Option<u32>),
    /// Out of the arena's pairing pool.
    Pause,
    /// Berserk in one's arena game.
    Berserk,
    /// Open or join a study by name (after a game: a study of it).
    Study(String),
    /// Give (`true`) or take the right to move in one's study to a member.
    Right {
        name: String,
        give: bool,
    },
    /// A comment on the study's move (empty: removed).
    Comment(String),
    Glyph(Glyph),
    /// A marked square, or an arrow (`to`), in a colour.
    Mark {
        from: Square,
        to: Option<Square>,
        mark: Mark,
    },
    Promote,
    Delete,
    /// A new chapter, or (a number) to that chapter.
    Chapter(ChapterArg),
    Chapters,
    /// Away from the study's cursor, or back.
    Follow,
    Private(bool),
}

/// What `:chapter` takes.
#[derive(Clone, Debug, PartialEq)]
pub enum ChapterArg {
    /// To chapter N (from 1).
    Go(usize),
    /// A new chapter of this name, from this source.
    New { name: String, from: ChapterFrom },
}

/// Where a new chapter starts.
#[derive(Clone, Debug, PartialEq)]
pub enum ChapterFrom {
    Start,
    Fen(String),
    /// A PGN file of the member's own (their saved games).
    File(String),
    /// Their stored club game N (as `:games` numbers them).
    Game(u32),
    /// The next line typed (or pasted) is the PGN.
    Paste,
    /// A PGN given on the line itself.
    Pgn(String),
}

/// `:set` alone lists the settings, `:set save` writes them, `:set KEY VALUE` changes one.
#[derive(Clone, Debug, PartialEq)]
pub enum SetArg {
    List,
    Save,
    Value { key: String, value: String },
}

/// `:tc` without an argument shows the time control, `off` removes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TcArg {
    Show,
    Off,
    Set(TimeControl),
}

/// A seek's words: its time control (`None`: no clock), the colour wanted, rated or not
/// (`None`: as the member's account decides).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeekArgs {
    pub time_control: Option<TimeControl>,
    pub color: Option<Color>,
    pub rated: Option<bool>,
}

/// The most lines `:multipv` shows: the settings' one range.
pub const MAX_MULTIPV: u32 = *crate::tui::settings::MULTIPV_RANGE.end();
/// The deepest depth setting: the settings' one range.
pub const MAX_DEPTH: u32 = *crate::tui::settings::DEPTH_RANGE.end();
/// The longest engine-vs-engine pause, in milliseconds.
pub const MAX_DELAY_MS: u64 = 60_000;
/// The most games `:games` queues at once.
pub const MAX_GAMES: u32 = 100_000;
/// A seek's or challenge's time control when none is given.
const DEFAULT_SEEK_TC: &str = "10+5";

/// Why a command line was refused. The text stays on the input line for editing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Only `:`.
    Empty,
    Unknown(String),
    /// A prefix several commands start with.
    Ambiguous {
        word: String,
        candidates: Vec<&'static str>,
    },
    /// The argument is missing or not what the command takes: `reason` says what was
    /// wrong with it when the argument's own parser knows, else `usage` what it takes.
    BadArgument {
        command: &'static str,
        usage: String,
        reason: Option<String>,
    },
    /// The command is not for where it was typed: `scopes` are where it is.
    NotHere {
        command: String,
        here: Scope,
        scopes: Scopes,
    },
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => f.write_str("a command after ':' (Tab lists them)"),
            CommandError::Unknown(w) => {
                write!(f, ":{w}: no such command (Tab completes; :help lists them)")
            }
            CommandError::Ambiguous { word, candidates } => {
                write!(f, ":{word}: which one?")?;
                for c in candidates {
                    write!(f, " :{c}")?;
                }
                Ok(())
            }
            CommandError::BadArgument {
                reason: Some(r), ..
            } => f.write_str(r),
            CommandError::BadArgument { usage, .. } => f.write_str(usage),
            CommandError::NotHere {
                command,
                here,
                scopes,
            } => f.write_str(&where_it_is(command, *here, *scopes)),
        }
    }
}

/// What a command used in the wrong place is told: where it is for, and how to get there.
fn where_it_is(command: &str, here: Scope, scopes: Scopes) -> String {
    if here == Scope::Playing && scopes.has(Scope::Watching) {
        return "you are playing: the engine stays out of sight until the game ends".into();
    }
    if here.in_room() && !scopes.meets(Scopes::ROOM) {
        return if scopes.has(Scope::Solo) {
            format!(
                "{command} is not for a room's game: moves, :draw, :resign, :takeback… (:lobby leaves)"
            )
        } else {
            format!("{command} is for the lobby: :lobby first")
        };
    }
    if here != Scope::Studying && scopes == Scopes::STUDY {
        return format!("{command} is for a study: :study NAME opens or joins one");
    }
    if !here.in_room() && scopes == Scopes::WATCHING.and(Scopes::STUDY) {
        return format!(
            "{command} is for watching a room's game or a study: :watch N, or :study NAME"
        );
    }
    if !here.in_room() && scopes == Scopes::WATCHING {
        return format!("{command} is for watching a room's game: :watch N from the lobby");
    }
    if !here.in_room() && !scopes.meets(Scopes::OWN_GAME) {
        return format!("{command} is for a room: :join ROOM, or :watch N from the lobby");
    }
    format!("{command} is not for here")
}

impl std::error::Error for CommandError {}

/// Resolves a command word among the commands known in `scope`: the full name (or an
/// alias), or a prefix. A prefix is resolved first among those usable there, so a
/// command of elsewhere never makes a prefix ambiguous, and outside the club the club's
/// commands are unknown.
pub fn resolve(word: &str, scope: Scope) -> Result<&'static str, CommandError> {
    if word.is_empty() {
        return Err(CommandError::Empty);
    }
    let word_lc = word.to_ascii_lowercase();
    if let Some((_, name)) = ALIASES.iter().find(|(alias, _)| *alias == word_lc) {
        return Ok(name);
    }
    for names in [table::names_in(scope), table::names_known_in(scope)] {
        if let Some(name) = names.iter().find(|n| **n == word_lc) {
            return Ok(name);
        }
        let matches: Vec<&'static str> = names
            .into_iter()
            .filter(|n| n.starts_with(&word_lc))
            .collect();
        match matches.as_slice() {
            [] => continue,
            [one] => return Ok(one),
            many => {
                return Err(CommandError::Ambiguous {
                    word: word.to_string(),
                    candidates: many.to_vec(),
                });
            }
        }
    }
    Err(CommandError::Unknown(word.to_string()))
}

/// The row of the table a resolved `name` stands for, given its argument: the sub-word
/// (`off`) picks its own row, then a row usable here that takes an argument when one is
/// given (and none when none is), then one that would take it elsewhere (to say where),
/// then one usable here (to say what it takes). The argument comes back without the
/// sub-word.
fn pick<'a>(
    name: &'static str,
    arg: &'a str,
    scope: Scope,
) -> Result<(&'static CommandSpec, &'a str), CommandError> {
    let (first, rest) = match arg.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (arg, ""),
    };
    let rows: Vec<&'static CommandSpec> = table::named(name, scope).collect();
    let sub_rows: Vec<&'static CommandSpec> = rows
        .iter()
        .copied()
        .filter(|c| c.sub.is_some_and(|s| s.eq_ignore_ascii_case(first)))
        .collect();
    let (rows, arg) = if sub_rows.is_empty() {
        let plain: Vec<_> = rows.iter().copied().filter(|c| c.sub.is_none()).collect();
        if plain.is_empty() {
            // Only variants by a sub-word (`:key code`), and none was given.
            let row = rows[0];
            return Err(CommandError::BadArgument {
                command: row.name,
                usage: usage(row),
                reason: None,
            });
        }
        (plain, arg)
    } else {
        (sub_rows, rest)
    };
    let with_arg = !arg.is_empty();
    let rank = |c: &CommandSpec| {
        let here = c.allowed(scope, with_arg);
        let exact = c.takes_args() == with_arg;
        let fits = c.takes_args() || !with_arg;
        match (here, exact, fits) {
            (true, true, _) => 0,
            (true, false, true) => 1,
            (false, _, true) => 2,
            (true, _, false) => 3,
            (false, _, false) => 4,
        }
    };
    let best = rows
        .iter()
        .copied()
        .min_by_key(|c| rank(c))
        .expect("a resolved name has a row");
    if !best.allowed(scope, with_arg) {
        return Err(CommandError::NotHere {
            command: best.full_name(),
            here: scope,
            scopes: if with_arg {
                best.arg_scopes
            } else {
                best.scopes
            },
        });
    }
    Ok((best, arg))
}

/// What a bad argument of `spec` is told when its parser gives no reason.
fn usage(spec: &CommandSpec) -> String {
    if !spec.usage.is_empty() {
        spec.usage.to_string()
    } else if spec.takes_args() {
        spec.args.to_string()
    } else {
        format!("{} takes no argument", spec.full_name())
    }
}

/// Parses `:name arg...` as typed outside the club.
pub fn parse(text: &str) -> Result<Command, CommandError> {
    parse_in(text, Scope::Solo)
}

/// Parses `:name arg...` as typed in `scope`.
pub fn parse_in(text: &str, scope: Scope) -> Result<Command, CommandError> {
    let body = text
        .trim()
        .strip_prefix(':')
        .unwrap_or(text.trim())
        .trim_start();
    let (word, arg) = match body.split_once(char::is_whitespace) {
        Some((w, a)) => (w, a.trim()),
        None => (body, ""),
    };
    let name = resolve(word, scope)?;
    let (spec, arg) = pick(name, arg, scope)?;
    match parse_club(spec, arg)? {
        Some(cmd) => Ok(cmd),
        None => parse_app(spec, arg),
    }
}

/// Builds the errors of one row's argument.
struct Arg<'a> {
    spec: &'static CommandSpec,
    text: &'a str,
}

impl Arg<'_> {
    fn bad(&self) -> CommandError {
        CommandError::BadArgument {
            command: self.spec.name,
            usage: usage(self.spec),
            reason: None,
        }
    }

    fn because(&self, reason: impl ToString) -> CommandError {
        CommandError::BadArgument {
            command: self.spec.name,
            usage: self.spec.args.to_string(),
            reason: Some(reason.to_string()),
        }
    }

    fn none(&self, cmd: Command) -> Result<Command, CommandError> {
        if self.text.is_empty() {
            Ok(cmd)
        } else {
            Err(self.bad())
        }
    }

    /// A tournament's id, or none.
    fn optional_id(&self) -> Result<Option<u32>, CommandError> {
        if self.text.is_empty() {
            return Ok(None);
        }
        self.text.parse::<u32>().map(Some).map_err(|_| self.bad())
    }

    fn number<T: std::str::FromStr + PartialOrd>(
        &self,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<T, CommandError> {
        match self.text.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(self.bad()),
        }
    }
}

/// The app's own commands.
fn parse_app(spec: &'static CommandSpec, arg: &str) -> Result<Command, CommandError> {
    let a = Arg { spec, text: arg };
    match spec.name {
        "new" => a.none(Command::New),
        "undo" => a.none(Command::Undo),
        "redo" => a.none(Command::Redo),
        "flip" => a.none(Command::Flip),
        "go" => a.none(Command::Go),
        "stop" => a.none(Command::Stop),
        "resign" => a.none(Command::Resign),
        "draw" => a.none(Command::Draw),
        "help" => a.none(Command::Help),
        "hint" => a.none(Command::Hint),
        "review" => match arg.to_ascii_lowercase().as_str() {
            "" | "quick" => Ok(Command::Review(ReviewDepth::Quick)),
            "deep" => Ok(Command::Review(ReviewDepth::Deep)),
            _ => Err(a.bad()),
        },
        "puzzle" => Ok(Command::Puzzle(arg.to_string())),
        "tree" => a.none(Command::Tree),
        "quit" => a.none(Command::Quit),
        "level" => arg
            .parse::<Level>()
            .map(Command::Level)
            .map_err(|e| a.because(e)),
        "multipv" => a.number(1..=MAX_MULTIPV).map(Command::MultiPv),
        "set" if arg.is_empty() => Ok(Command::Set(SetArg::List)),
        "set" if arg.eq_ignore_ascii_case("save") => Ok(Command::Set(SetArg::Save)),
        "set" => match arg.split_once(char::is_whitespace) {
            Some((key, value)) => Ok(Command::Set(SetArg::Value {
                key: key.to_string(),
                value: value.trim().to_string(),
            })),
            None => Err(a.bad()),
        },
        "fen" => Ok(Command::Fen((!arg.is_empty()).then(|| arg.to_string()))),
        "depth" => a.number(1..=MAX_DEPTH).map(Command::Depth),
        "eval" => arg
            .parse::<EvalMode>()
            .map(Command::Eval)
            .map_err(|e| a.because(e)),
        "order" => arg
            .parse::<Scheme>()
            .map(Command::Order)
            .map_err(|e| a.because(e)),
        "mode" => arg
            .parse::<Mode>()
            .map(Command::Mode)
            .map_err(|e| a.because(e)),
        "delay" => a
            .number(0..=MAX_DELAY_MS)
            .map(|ms| Command::Delay(Duration::from_millis(ms))),
        "games" => a.number(1..=MAX_GAMES).map(Command::Games),
        "lab" if arg.is_empty() => Ok(Command::Lab(None)),
        "lab" => a.number(1..=MAX_DEPTH).map(|d| Command::Lab(Some(d))),
        "view" => View::parse(arg)
            .map(Command::View)
            .map_err(|e| a.because(e)),
        "save" | "load" if arg.is_empty() => Err(a.bad()),
        "save" => Ok(Command::Save(arg.to_string())),
        "load" => Ok(Command::Load(arg.to_string())),
        "tc" if arg.is_empty() => Ok(Command::Tc(TcArg::Show)),
        "tc" if arg.eq_ignore_ascii_case("off") => Ok(Command::Tc(TcArg::Off)),
        "tc" => arg
            .parse::<TimeControl>()
            .map(|tc| Command::Tc(TcArg::Set(tc)))
            .map_err(|e| a.because(e)),
        "theme" if arg.is_empty() => Ok(Command::Theme("default".to_string())),
        "theme" => Ok(Command::Theme(arg.to_string())),
        "ascii" => match arg.to_ascii_lowercase().as_str() {
            "" => Ok(Command::Ascii(None)),
            "on" => Ok(Command::Ascii(Some(true))),
            "off" => Ok(Command::Ascii(Some(false))),
            _ => Err(a.bad()),
        },
        _ => Err(CommandError::Unknown(spec.name.to_string())),
    }
}

/// The club's commands; `None` for a row of the app's.
fn parse_club(spec: &'static CommandSpec, arg: &str) -> Result<Option<Command>, CommandError> {
    let a = Arg { spec, text: arg };
    let cmd = match (spec.name, spec.sub) {
        ("seek", Some(_)) => a.none(Command::SeekOff)?,
        ("challenge", Some(_)) if arg.is_empty() => return Err(a.bad()),
        ("challenge", Some(_)) => Command::ChallengeOff(arg.to_string()),
        ("key", Some(_)) => a.none(Command::KeyCode)?,
        ("tournament", Some("join")) => Command::TournamentJoin(a.optional_id()?),
        ("tournament", Some("leave")) => Command::TournamentLeave(a.optional_id()?),
        ("tournament", Some("end")) => Command::TournamentEnd(a.optional_id()?),
        _ if spec.scopes.has(Scope::Solo) => return Ok(None),
        ("lobby", _) => a.none(Command::Lobby)?,
        ("play", _) => a.none(Command::Play)?,
        ("join", _) if arg.is_empty() => return Err(a.bad()),
        ("join", _) => Command::Join(arg.to_string()),
        ("watch", _) => Command::Watch(arg.parse().map_err(|_| a.bad())?),
        ("seek", _) => Command::Seek(seek_args(arg).map_err(|e| a.because(e))?),
        ("challenge", _) => {
            let (name, terms) = match arg.split_once(char::is_whitespace) {
                Some((n, t)) => (n, t),
                None => (arg, ""),
            };
            if name.is_empty() {
                return Err(a.bad());
            }
            let terms = seek_args(terms).map_err(|e| a.because(e))?;
            Command::Challenge {
                name: name.to_string(),
                time_control: terms.time_control,
                rated: terms.rated,
            }
        }
        ("accept", _) => Command::Accept(arg.parse().map_err(|_| a.bad())?),
        ("decline", _) => Command::Decline(arg.parse().map_err(|_| a.bad())?),
        ("say", _) => Command::Say(arg.to_string()),
        ("draw", _) => a.none(Command::Draw)?,
        ("resign", _) => a.none(Command::Resign)?,
        ("abort", _) => a.none(Command::Abort)?,
        ("takeback", _) => a.none(Command::Takeback)?,
        ("no", _) => a.none(Command::No)?,
        ("rematch", _) => a.none(Command::Rematch)?,
        ("claim", _) => a.none(Command::Claim)?,
        ("color", _) => match arg.to_ascii_lowercase().as_str() {
            "white" | "w" => Command::Color(Color::White),
            "black" | "b" => Command::Color(Color::Black),
            _ => return Err(a.bad()),
        },
        ("mute", _) => a.none(Command::Mute)?,
        ("engine", _) => a.none(Command::Engine)?,
        ("games", _) => a.none(Command::StoredGames)?,
        ("pgn", _) => Command::Pgn(arg.parse().map_err(|_| a.bad())?),
        ("open", _) => Command::Open(arg.parse().map_err(|_| a.bad())?),
        ("members", _) => Command::Members((!arg.is_empty()).then(|| arg.to_string())),
        ("tournament", None) if arg.is_empty() => return Err(a.bad()),
        ("tournament", None) => Command::TournamentCreate(arg.to_string()),
        ("standings", _) => Command::Standings(a.optional_id()?),
        ("pause", _) => a.none(Command::Pause)?,
        ("berserk", _) => a.none(Command::Berserk)?,
        ("study", _) if arg.is_empty() => return Err(a.bad()),
        ("study", _) => Command::Study(arg.to_string()),
        ("give" | "take", _) if arg.is_empty() || arg.contains(char::is_whitespace) => {
            return Err(a.bad());
        }
        ("give" | "take", _) => Command::Right {
            name: arg.to_string(),
            give: spec.name == "give",
        },
        ("comment", _) => Command::Comment(arg.to_string()),
        ("glyph", _) => Command::Glyph(Glyph::from_text(arg).ok_or_else(|| a.bad())?),
        ("mark" | "arrow", _) => {
            let mut words = arg.split_whitespace();
            let at = words.next().ok_or_else(|| a.bad())?;
            let mark = match words.next() {
                None => Mark::Green,
                Some(w) => mark_colour(w).ok_or_else(|| a.bad())?,
            };
            if words.next().is_some() {
                return Err(a.bad());
            }
            let square = |t: &str| t.parse::<Square>().map_err(|_| a.bad());
            if spec.name == "mark" {
                Command::Mark {
                    from: square(at)?,
                    to: None,
                    mark,
                }
            } else {
                if at.len() != 4 || !at.is_ascii() {
                    return Err(a.bad());
                }
                Command::Mark {
                    from: square(&at[..2])?,
                    to: Some(square(&at[2..])?),
                    mark,
                }
            }
        }
        ("promote", _) => a.none(Command::Promote)?,
        ("delete", _) => a.none(Command::Delete)?,
        ("chapters", _) => a.none(Command::Chapters)?,
        ("chapter", _) => Command::Chapter(chapter_arg(arg).ok_or_else(|| a.bad())?),
        ("follow", _) => a.none(Command::Follow)?,
        ("private", _) => match arg.to_ascii_lowercase().as_str() {
            "on" => Command::Private(true),
            "off" => Command::Private(false),
            _ => return Err(a.bad()),
        },
        _ => return Ok(None),
    };
    Ok(Some(cmd))
}

/// A mark's colour as `:mark` and `:arrow` take it (its first letter will do).
fn mark_colour(word: &str) -> Option<Mark> {
    match word.to_ascii_lowercase().as_str() {
        "green" | "g" => Some(Mark::Green),
        "red" | "r" => Some(Mark::Red),
        "yellow" | "y" => Some(Mark::Yellow),
        "blue" | "b" => Some(Mark::Blue),
        _ => None,
    }
}

/// `:chapter`'s words: a number goes to that chapter; else a name, then where it starts (a
/// FEN, a `.pgn` file, `game N`, `paste`, or a PGN on the line).
fn chapter_arg(arg: &str) -> Option<ChapterArg> {
    if let Ok(n) = arg.parse::<usize>() {
        return (n >= 1).then_some(ChapterArg::Go(n));
    }
    let (name, rest) = match arg.split_once(char::is_whitespace) {
        Some((n, r)) => (n, r.trim()),
        None => (arg, ""),
    };
    if name.is_empty() {
        return None;
    }
    let from = if rest.is_empty() {
        ChapterFrom::Start
    } else if rest.eq_ignore_ascii_case("paste") {
        ChapterFrom::Paste
    } else if let Some(n) = rest
        .strip_prefix("game ")
        .and_then(|n| n.trim().parse::<u32>().ok())
    {
        ChapterFrom::Game(n)
    } else if rest.starts_with('[') || rest.starts_with("1.") {
        ChapterFrom::Pgn(rest.to_string())
    } else if rest.to_ascii_lowercase().ends_with(".pgn") && !rest.contains(char::is_whitespace) {
        ChapterFrom::File(rest.to_string())
    } else {
        ChapterFrom::Fen(rest.to_string())
    };
    Some(ChapterArg::New {
        name: name.to_string(),
        from,
    })
}

/// `:seek`'s and `:challenge`'s words after the name: a time control (`5+3`, or `none`),
/// a colour, `rated` or `casual`, in any order.
pub fn seek_args(arg: &str) -> Result<SeekArgs, String> {
    let mut tc = Some(
        DEFAULT_SEEK_TC
            .parse::<TimeControl>()
            .expect("a valid default"),
    );
    let (mut color, mut rated) = (None, None);
    for word in arg.split_whitespace() {
        match word.to_ascii_lowercase().as_str() {
            "white" | "w" => color = Some(Color::White),
            "black" | "b" => color = Some(Color::Black),
            "rated" => rated = Some(true),
            "casual" | "unrated" => rated = Some(false),
            "none" | "untimed" => tc = None,
            w => tc = Some(w.parse::<TimeControl>().map_err(|e| e.to_string())?),
        }
    }
    Ok(SeekArgs {
        time_control: tc,
        color,
        rated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::app::command::table::COMMANDS;

    #[test]
    fn names_and_unique_prefixes_parse_into_typed_commands() {
        assert_eq!(parse(":undo"), Ok(Command::Undo));
        assert_eq!(parse(":und"), Ok(Command::Undo));
        assert_eq!(
            parse(":fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Ok(Command::Fen(Some(
                "8/8/8/8/8/8/8/K6k w - - 0 1".to_string()
            )))
        );
        assert_eq!(parse(":fen"), Ok(Command::Fen(None)));
        assert_eq!(parse(":DEPTH 7"), Ok(Command::Depth(7)));
        assert_eq!(
            parse(":eval material"),
            Ok(Command::Eval(EvalMode::Material))
        );
        assert_eq!(parse(":mode engine"), Ok(Command::Mode(Mode::EngineEngine)));
        assert_eq!(
            parse(":delay 250"),
            Ok(Command::Delay(Duration::from_millis(250)))
        );
        assert_eq!(parse(":tc off"), Ok(Command::Tc(TcArg::Off)));
        assert!(matches!(parse(":tc 5+3"), Ok(Command::Tc(TcArg::Set(_)))));
        assert_eq!(parse(":ascii"), Ok(Command::Ascii(None)));
        assert_eq!(parse(":ascii OFF"), Ok(Command::Ascii(Some(false))));
        assert_eq!(parse(":games 20"), Ok(Command::Games(20)));
        assert_eq!(parse(":theme"), Ok(Command::Theme("default".to_string())));
    }

    #[test]
    fn bad_command_lines_say_what_was_wrong() {
        let ambiguous = parse(":d").unwrap_err();
        assert!(matches!(ambiguous, CommandError::Ambiguous { .. }));
        assert!(ambiguous.to_string().contains(":depth :delay :draw"));
        assert_eq!(parse(":xyzzy"), Err(CommandError::Unknown("xyzzy".into())));
        assert_eq!(parse(":"), Err(CommandError::Empty));
        assert_eq!(
            parse(":depth 0").unwrap_err().to_string(),
            ":depth needs a number from 1 to 127"
        );
        assert_eq!(
            parse(":delay 60001").unwrap_err().to_string(),
            ":delay needs milliseconds from 0 to 60000"
        );
        assert!(matches!(
            parse(":save"),
            Err(CommandError::BadArgument {
                command: "save",
                ..
            })
        ));
        assert!(
            parse(":eval nonsense")
                .unwrap_err()
                .to_string()
                .contains("nonsense")
        );
        assert!(parse(":tc 5+x").is_err());
        assert!(parse(":undo now").is_err());
        assert!(parse(":games 0").is_err());
        assert_eq!(parse(":lab").unwrap(), Command::Lab(None));
        assert_eq!(parse(":lab 7").unwrap(), Command::Lab(Some(7)));
        assert!(parse(":lab 0").is_err());
        assert!(
            parse(":view tree")
                .unwrap_err()
                .to_string()
                .contains("not a view")
        );
    }

    #[test]
    fn every_command_in_the_table_parses_with_a_sensible_argument() {
        for c in COMMANDS.iter().filter(|c| c.scopes.has(Scope::Solo)) {
            let arg = match c.name {
                "depth" | "delay" | "games" | "multipv" => "3",
                "level" => "club",
                "eval" => "full",
                "order" => "modern",
                "mode" => "white",
                "save" | "load" => "x.pgn",
                "tc" => "5+3",
                "view" => "eval",
                _ => "",
            };
            assert!(
                parse(&format!(":{} {arg}", c.name)).is_ok(),
                ":{} {arg}",
                c.name
            );
        }
    }

    #[test]
    fn every_club_command_parses_in_the_club() {
        let lobby = |t: &str| parse_in(t, Scope::Lobby);
        let room = |t: &str| parse_in(t, Scope::Watching);
        assert_eq!(lobby(":lobby"), Ok(Command::Lobby));
        assert_eq!(lobby(":play"), Ok(Command::Play));
        assert_eq!(lobby(":join den"), Ok(Command::Join("den".into())));
        assert_eq!(lobby(":watch 4"), Ok(Command::Watch(4)));
        assert_eq!(
            lobby(":seek 5+3 black casual"),
            Ok(Command::Seek(SeekArgs {
                time_control: "5+3".parse().ok(),
                color: Some(Color::Black),
                rated: Some(false),
            }))
        );
        assert_eq!(lobby(":seek off"), Ok(Command::SeekOff));
        assert_eq!(lobby(":seek OFF"), Ok(Command::SeekOff));
        assert_eq!(
            lobby(":challenge bob 3+2 rated"),
            Ok(Command::Challenge {
                name: "bob".into(),
                time_control: "3+2".parse().ok(),
                rated: Some(true),
            })
        );
        assert_eq!(
            lobby(":challenge off bob"),
            Ok(Command::ChallengeOff("bob".into()))
        );
        assert_eq!(lobby(":accept 3"), Ok(Command::Accept(3)));
        assert_eq!(lobby(":decline 3"), Ok(Command::Decline(3)));
        assert_eq!(lobby(":mute"), Ok(Command::Mute));
        assert_eq!(lobby(":games"), Ok(Command::StoredGames));
        assert_eq!(lobby(":games 5"), Ok(Command::Games(5)));
        assert_eq!(lobby(":key code"), Ok(Command::KeyCode));
        assert_eq!(lobby(":draw"), Ok(Command::Draw));
        assert_eq!(room(":say good luck"), Ok(Command::Say("good luck".into())));
        assert_eq!(room(":draw"), Ok(Command::Draw));
        assert_eq!(room(":resign"), Ok(Command::Resign));
        assert_eq!(room(":abort"), Ok(Command::Abort));
        assert_eq!(room(":takeback"), Ok(Command::Takeback));
        assert_eq!(room(":no"), Ok(Command::No));
        assert_eq!(room(":rematch"), Ok(Command::Rematch));
        assert_eq!(room(":claim"), Ok(Command::Claim));
        assert_eq!(room(":color w"), Ok(Command::Color(Color::White)));
        assert_eq!(room(":colour black"), Ok(Command::Color(Color::Black)));
        assert_eq!(room(":engine"), Ok(Command::Engine));
        assert_eq!(room(":games"), Ok(Command::StoredGames));
        assert_eq!(room(":fen"), Ok(Command::Fen(None)));
        assert_eq!(room(":flip"), Ok(Command::Flip));
    }

    #[test]
    fn club_commands_take_prefixes() {
        let lobby = |t: &str| parse_in(t, Scope::Lobby);
        assert_eq!(lobby(":acc 3"), Ok(Command::Accept(3)));
        assert_eq!(lobby(":dec 3"), Ok(Command::Decline(3)));
        assert_eq!(
            lobby(":chal bob"),
            Ok(Command::Challenge {
                name: "bob".into(),
                time_control: "10+5".parse().ok(),
                rated: None,
            })
        );
        assert_eq!(lobby(":lob"), Ok(Command::Lobby));
        assert_eq!(lobby(":und"), Ok(Command::Undo));
        assert_eq!(parse_in(":tak", Scope::Playing), Ok(Command::Takeback));
        assert_eq!(parse_in(":rem", Scope::Watching), Ok(Command::Rematch));
    }

    #[test]
    fn ambiguous_prefixes_list_what_is_usable_where_they_are_typed() {
        let which = |t: &str, scope| match parse_in(t, scope) {
            Err(CommandError::Ambiguous { candidates, .. }) => candidates,
            other => panic!("{t} in {scope:?}: {other:?}"),
        };
        // Outside the club its commands neither join a list nor are known at all.
        assert_eq!(which(":d", Scope::Solo), vec!["depth", "delay", "draw"]);
        assert_eq!(parse(":se"), Ok(Command::Set(SetArg::List)));
        assert_eq!(parse(":seek"), Err(CommandError::Unknown("seek".into())));
        assert_eq!(parse(":acc 3"), Err(CommandError::Unknown("acc".into())));
        assert_eq!(
            which(":d", Scope::Lobby),
            vec!["depth", "delay", "draw", "decline"]
        );
        assert_eq!(which(":se", Scope::Lobby), vec!["set", "seek"]);
        // A player's room has no hint, so `:h` is the help there.
        assert_eq!(which(":h", Scope::Solo), vec!["hint", "help"]);
        assert_eq!(parse_in(":h", Scope::Playing), Ok(Command::Help));
        assert_eq!(which(":h", Scope::Watching), vec!["hint", "help"]);
        // A command of elsewhere is still found by its prefix, to say where it is for.
        assert!(matches!(
            parse_in(":ne", Scope::Playing),
            Err(CommandError::NotHere { .. })
        ));
    }

    #[test]
    fn a_command_used_elsewhere_says_where_it_is_for() {
        let said = |t: &str, scope| parse_in(t, scope).unwrap_err().to_string();
        for scope in [Scope::Playing, Scope::Watching] {
            for t in [
                ":new",
                ":und",
                ":redo",
                ":mode white",
                ":go",
                ":load x.pgn",
                ":tc 5+3",
            ] {
                assert!(said(t, scope).contains("is not for a room's game"), "{t}");
            }
            assert_eq!(
                said(":puzzle", scope),
                ":puzzle is not for a room's game: moves, :draw, :resign, :takeback… (:lobby leaves)"
            );
            assert!(said(":games 5", scope).starts_with(":games is not for a room's game"));
            assert!(said(":fen 8/8/8/8/8/8/8/K6k w - - 0 1", scope).contains("room's game"));
            assert_eq!(said(":play", scope), ":play is for the lobby: :lobby first");
        }
        for t in [":hint", ":tree", ":lab", ":review", ":multipv 2", ":engine"] {
            assert_eq!(
                said(t, Scope::Playing),
                "you are playing: the engine stays out of sight until the game ends",
                "{t}"
            );
            if t != ":engine" {
                assert!(parse_in(t, Scope::Watching).is_ok(), "{t}");
            }
        }
        for scope in [Scope::Lobby, Scope::Engine] {
            for t in [
                ":say hi",
                ":abort",
                ":takeback",
                ":no",
                ":rematch",
                ":claim",
                ":color white",
            ] {
                assert!(
                    said(t, scope)
                        .ends_with("is for a room: :join ROOM, or :watch N from the lobby"),
                    "{t}"
                );
            }
            assert_eq!(
                said(":engine", scope),
                ":engine is for watching a room's game or a study: :watch N, or :study NAME"
            );
            for t in [":comment good", ":promote", ":give bob", ":follow"] {
                assert_eq!(
                    said(t, scope),
                    format!(
                        "{} is for a study: :study NAME opens or joins one",
                        t.split(' ').next().unwrap()
                    )
                );
            }
            assert!(parse_in(":new", scope).is_ok());
        }
        // A bad argument is told what the command takes, wherever it is.
        let lobby = |t: &str| said(t, Scope::Lobby);
        assert_eq!(
            lobby(":accept x"),
            ":accept N (the seek's or challenge's number)"
        );
        assert_eq!(
            lobby(":key"),
            ":key code: a one-time code that adds another key to your account"
        );
        assert_eq!(lobby(":challenge"), ":challenge NAME [10+0] [rated|casual]");
        assert_eq!(
            lobby(":challenge off"),
            ":challenge off NAME withdraws your challenge"
        );
        assert_eq!(lobby(":mute now"), ":mute takes no argument");
        assert_eq!(lobby(":seek off now"), ":seek off takes no argument");
        assert!(lobby(":seek soon").contains("soon"));
        assert_eq!(said(":color red", Scope::Watching), ":color white|black");
        assert_eq!(
            said(":draw now", Scope::Watching),
            ":draw takes no argument"
        );
    }

    #[test]
    fn the_study_commands_parse_and_bad_arguments_say_what_they_take() {
        let study = |t: &str| parse_in(t, Scope::Studying);
        let sq = |t: &str| t.parse::<Square>().unwrap();
        assert_eq!(study(":study ruy"), Ok(Command::Study("ruy".into())));
        assert_eq!(
            study(":give bob"),
            Ok(Command::Right {
                name: "bob".into(),
                give: true
            })
        );
        assert!(study(":take").is_err() && study(":give a b").is_err());
        assert_eq!(study(":glyph !?"), Ok(Command::Glyph(Glyph::Interesting)));
        assert!(study(":glyph !!!").is_err());
        assert_eq!(
            study(":mark e4 red"),
            Ok(Command::Mark {
                from: sq("e4"),
                to: None,
                mark: Mark::Red
            })
        );
        assert_eq!(
            study(":arrow g1f3"),
            Ok(Command::Mark {
                from: sq("g1"),
                to: Some(sq("f3")),
                mark: Mark::Green
            })
        );
        for bad in [
            ":mark e9",
            ":mark e4 pink",
            ":arrow e2",
            ":arrow é2e4",
            ":mark",
        ] {
            assert!(study(bad).is_err(), "{bad}");
        }
        assert_eq!(study(":chapter 3"), Ok(Command::Chapter(ChapterArg::Go(3))));
        assert!(study(":chapter 0").is_err() && study(":chapter").is_err());
        let new = |name: &str, from| {
            Ok(Command::Chapter(ChapterArg::New {
                name: name.into(),
                from,
            }))
        };
        assert_eq!(study(":chapter Basics"), new("Basics", ChapterFrom::Start));
        assert_eq!(
            study(":chapter Lucena 1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"),
            new(
                "Lucena",
                ChapterFrom::Fen("1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1".into())
            )
        );
        assert_eq!(
            study(":chapter Mine games/mine.pgn"),
            new("Mine", ChapterFrom::File("games/mine.pgn".into()))
        );
        assert_eq!(
            study(":chapter Last game 4"),
            new("Last", ChapterFrom::Game(4))
        );
        assert_eq!(study(":chapter P paste"), new("P", ChapterFrom::Paste));
        assert_eq!(
            study(":chapter P 1. e4 e5"),
            new("P", ChapterFrom::Pgn("1. e4 e5".into()))
        );
        assert_eq!(study(":private on"), Ok(Command::Private(true)));
        assert!(study(":private maybe").is_err());
        assert_eq!(study(":comment"), Ok(Command::Comment(String::new())));
    }

    proptest::proptest! {
        /// Whatever a peer types after a study's command, the parser answers without
        /// panicking.
        #[test]
        fn a_study_command_line_never_panics(cmd in proptest::sample::select(vec![
            "study", "give", "take", "comment", "glyph", "mark", "arrow", "chapter",
            "private", "promote", "delete", "follow", "chapters",
        ]), rest in "\\PC{0,40}") {
            let _ = parse_in(&format!(":{cmd} {rest}"), Scope::Studying);
        }
    }

    #[test]
    fn the_tournament_commands_parse_and_a_bad_id_says_what_they_take() {
        let lobby = |t: &str| parse_in(t, Scope::Lobby);
        assert_eq!(
            lobby(":tournament arena 3+0 30m bots"),
            Ok(Command::TournamentCreate("arena 3+0 30m bots".into()))
        );
        assert_eq!(lobby(":tournament join"), Ok(Command::TournamentJoin(None)));
        assert_eq!(
            lobby(":tournament JOIN 4"),
            Ok(Command::TournamentJoin(Some(4)))
        );
        assert_eq!(
            lobby(":tournament leave 2"),
            Ok(Command::TournamentLeave(Some(2)))
        );
        assert_eq!(lobby(":tournament end"), Ok(Command::TournamentEnd(None)));
        assert_eq!(lobby(":standings"), Ok(Command::Standings(None)));
        assert_eq!(lobby(":standings 3"), Ok(Command::Standings(Some(3))));
        assert_eq!(lobby(":pause"), Ok(Command::Pause));
        assert_eq!(parse_in(":berserk", Scope::Playing), Ok(Command::Berserk));
        assert!(lobby(":berserk").is_err(), "berserk is for a room");
        let err = lobby(":tournament join x").unwrap_err().to_string();
        assert!(err.contains(":tournament join [ID]"), "{err}");
        assert!(lobby(":tournament").is_err());
        assert!(
            parse(":tournament arena 3+0 30m").is_err(),
            "the club's only"
        );
    }

    proptest::proptest! {
        /// Whatever a peer types after `:tournament` or `:standings`, parsing never panics,
        /// and the words of a tournament reach the club as they were typed.
        #[test]
        fn any_tournament_line_parses_or_is_refused(text in "\\PC{0,40}") {
            for scope in [Scope::Lobby, Scope::Playing, Scope::Watching] {
                for head in [":tournament ", ":tournament join ", ":standings ", ":pause "] {
                    let line = format!("{head}{text}");
                    if let Ok(Command::TournamentCreate(words)) = parse_in(&line, scope) {
                        proptest::prop_assert_eq!(words, text.trim());
                    }
                }
            }
        }
    }

    #[test]
    fn seek_words_come_in_any_order_and_a_bad_one_says_why() {
        let seek = seek_args("black 5+3 casual").unwrap();
        assert_eq!(seek.time_control, "5+3".parse().ok());
        assert_eq!(seek.color, Some(Color::Black));
        assert_eq!(seek.rated, Some(false));
        assert_eq!(seek_args("").unwrap().time_control, "10+5".parse().ok());
        assert_eq!(seek_args("none").unwrap().time_control, None);
        assert!(seek_args("soon").unwrap_err().contains("soon"));
    }
}
