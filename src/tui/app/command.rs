//! The `:` commands of the input line: one table of names, arguments and help, from which
//! the parser (text → typed `Command` or a `CommandError`), Tab completion and the help
//! overlay all read, so they cannot disagree.

use std::fmt;
use std::time::Duration;

use crate::engine::eval::EvalMode;
use crate::engine::levels::Level;
use crate::engine::order::Scheme;
use crate::game::TimeControl;
use strum::VariantArray;

use crate::tui::Mode;

/// One command as the help and the completion know it.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    pub name: &'static str,
    pub args: &'static str,
    pub help: &'static str,
}

/// Every command, in the order the help lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "new",
        args: "",
        help: "new game from the start position",
    },
    CommandSpec {
        name: "undo",
        args: "",
        help: "take back a move",
    },
    CommandSpec {
        name: "redo",
        args: "",
        help: "replay a taken-back move",
    },
    CommandSpec {
        name: "fen",
        args: "[FEN]",
        help: "show the position's FEN, or set one up",
    },
    CommandSpec {
        name: "depth",
        args: "N",
        help: "search depth in plies",
    },
    CommandSpec {
        name: "flip",
        args: "",
        help: "turn the board around",
    },
    CommandSpec {
        name: "eval",
        args: "material|center|full|net",
        help: "evaluation the engine uses",
    },
    CommandSpec {
        name: "order",
        args: "none|mvvlva|mvvlva100|seed|modern",
        help: "move ordering scheme",
    },
    CommandSpec {
        name: "mode",
        args: "white|black|human|engine|analysis",
        help: "who plays (you as White/Black, two humans, engine vs engine, analysis)",
    },
    CommandSpec {
        name: "go",
        args: "",
        help: "the engine moves now",
    },
    CommandSpec {
        name: "stop",
        args: "",
        help: "stop the engine without moving",
    },
    CommandSpec {
        name: "delay",
        args: "MS",
        help: "pause between moves in engine vs engine",
    },
    CommandSpec {
        name: "save",
        args: "FILE",
        help: "write the game as PGN",
    },
    CommandSpec {
        name: "load",
        args: "FILE",
        help: "read a game from PGN",
    },
    CommandSpec {
        name: "tc",
        args: "MIN+INC|off",
        help: "time control, e.g. 5+3",
    },
    CommandSpec {
        name: "resign",
        args: "",
        help: "resign the game",
    },
    CommandSpec {
        name: "draw",
        args: "",
        help: "offer a draw (the engine decides; a person accepts with :draw)",
    },
    CommandSpec {
        name: "theme",
        args: "NAME",
        help: "colour theme",
    },
    CommandSpec {
        name: "ascii",
        args: "[on|off]",
        help: "pieces as letters",
    },
    CommandSpec {
        name: "games",
        args: "N",
        help: "engine vs engine: play N games in a row",
    },
    CommandSpec {
        name: "level",
        args: "beginner|casual|club|expert|master|max|ELO",
        help: "how strongly the engine plays (800 to 2800, max: full strength)",
    },
    CommandSpec {
        name: "multipv",
        args: "N",
        help: "show the N best lines (1 to 8)",
    },
    CommandSpec {
        name: "hint",
        args: "",
        help: "the engine's best move here, marked on the board, not played",
    },
    CommandSpec {
        name: "review",
        args: "",
        help: "review the game in the background: marks, better moves, accuracy",
    },
    CommandSpec {
        name: "puzzle",
        args: "[THEME|RATING|mine|stats|show|off]",
        help: "solve a puzzle (Ctrl+O next, F2 shows the solution); off: back to the game",
    },
    CommandSpec {
        name: "set",
        args: "[KEY VALUE|save]",
        help: "list the settings, change one for this session, or save them to the file",
    },
    CommandSpec {
        name: "lab",
        args: "[DEPTH]",
        help: "ordering lab: this position under every scheme and profile (Esc stops)",
    },
    CommandSpec {
        name: "view",
        args: "log|eval|chart|lab",
        help: "what the right-hand side shows (F8 cycles)",
    },
    CommandSpec {
        name: "tree",
        args: "",
        help: "tree browser: the last complete iteration's search tree (F10; Esc closes)",
    },
    CommandSpec {
        name: "help",
        args: "",
        help: "show keys and commands",
    },
    CommandSpec {
        name: "quit",
        args: "",
        help: "leave (the game is saved)",
    },
];

/// A `:` command checked for syntax: the name resolved (a unique prefix is accepted) and
/// its argument turned into the type it stands for. What needs the game (is the FEN a
/// legal position? can the file be read?) is checked when the command runs.
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
    Resign,
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
    Review,
    Set(SetArg),
    /// The ordering lab to this depth (the search depth setting when `None`).
    Lab(Option<u32>),
    View(crate::tui::view::View),
    /// Open the tree browser.
    Tree,
    Help,
    Quit,
}

/// `:set` alone lists the settings, `:set save` writes them, `:set KEY VALUE` changes one.
#[derive(Clone, Debug, PartialEq)]
pub enum SetArg {
    List,
    Save,
    Value { key: String, value: String },
}

/// The most lines `:multipv` shows.
pub const MAX_MULTIPV: u32 = 8;

/// `:tc` without an argument shows the time control, `off` removes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TcArg {
    Show,
    Off,
    Set(TimeControl),
}

/// The deepest depth setting: the settings' one range.
pub const MAX_DEPTH: u32 = *crate::tui::settings::DEPTH_RANGE.end();
/// The longest engine-vs-engine pause, in milliseconds.
pub const MAX_DELAY_MS: u64 = 60_000;
/// The most games `:games` queues at once.
pub const MAX_GAMES: u32 = 100_000;

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
        usage: &'static str,
        reason: Option<String>,
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
        }
    }
}

impl std::error::Error for CommandError {}

impl CommandError {
    fn usage(command: &'static str, usage: &'static str) -> CommandError {
        CommandError::BadArgument {
            command,
            usage,
            reason: None,
        }
    }
}

/// Resolves a command word: the full name, or a unique prefix (`:und` is `:undo`), so
/// people need not type whole words.
pub fn resolve(word: &str) -> Result<&'static CommandSpec, CommandError> {
    if word.is_empty() {
        return Err(CommandError::Empty);
    }
    let word_lc = word.to_ascii_lowercase();
    if let Some(spec) = COMMANDS.iter().find(|c| c.name == word_lc) {
        return Ok(spec);
    }
    let matches: Vec<&'static CommandSpec> = COMMANDS
        .iter()
        .filter(|c| c.name.starts_with(&word_lc))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(CommandError::Unknown(word.to_string())),
        many => Err(CommandError::Ambiguous {
            word: word.to_string(),
            candidates: many.iter().map(|c| c.name).collect(),
        }),
    }
}

/// Parses `:name arg...` into a `Command`.
pub fn parse(text: &str) -> Result<Command, CommandError> {
    let body = text
        .trim()
        .strip_prefix(':')
        .unwrap_or(text.trim())
        .trim_start();
    let (word, arg) = match body.split_once(char::is_whitespace) {
        Some((w, a)) => (w, a.trim()),
        None => (body, ""),
    };
    let spec = resolve(word)?;
    let name = spec.name;
    let bad = || CommandError::usage(name, USAGE.iter().find(|u| u.0 == name).map_or("", |u| u.1));
    let no_arg = |cmd: Command| if arg.is_empty() { Ok(cmd) } else { Err(bad()) };
    let because = |reason: String| CommandError::BadArgument {
        command: name,
        usage: spec.args,
        reason: Some(reason),
    };
    match name {
        "new" => no_arg(Command::New),
        "undo" => no_arg(Command::Undo),
        "redo" => no_arg(Command::Redo),
        "flip" => no_arg(Command::Flip),
        "go" => no_arg(Command::Go),
        "stop" => no_arg(Command::Stop),
        "resign" => no_arg(Command::Resign),
        "draw" => no_arg(Command::Draw),
        "help" => no_arg(Command::Help),
        "hint" => no_arg(Command::Hint),
        "review" => no_arg(Command::Review),
        "puzzle" => Ok(Command::Puzzle(arg.to_string())),
        "tree" => no_arg(Command::Tree),
        "level" => arg
            .parse::<Level>()
            .map(Command::Level)
            .map_err(|e| because(e.to_string())),
        "multipv" => match arg.parse::<u32>() {
            Ok(n) if (1..=MAX_MULTIPV).contains(&n) => Ok(Command::MultiPv(n)),
            _ => Err(bad()),
        },
        "set" if arg.is_empty() => Ok(Command::Set(SetArg::List)),
        "set" if arg.eq_ignore_ascii_case("save") => Ok(Command::Set(SetArg::Save)),
        "set" => match arg.split_once(char::is_whitespace) {
            Some((key, value)) => Ok(Command::Set(SetArg::Value {
                key: key.to_string(),
                value: value.trim().to_string(),
            })),
            None => Err(bad()),
        },
        "quit" => no_arg(Command::Quit),
        "fen" => Ok(Command::Fen((!arg.is_empty()).then(|| arg.to_string()))),
        "depth" => match arg.parse::<u32>() {
            Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(Command::Depth(d)),
            _ => Err(bad()),
        },
        "eval" => arg.parse::<EvalMode>().map(Command::Eval).map_err(because),
        "order" => arg.parse::<Scheme>().map(Command::Order).map_err(because),
        "mode" => arg
            .parse::<Mode>()
            .map(Command::Mode)
            .map_err(|e| because(e.to_string())),
        "delay" => match arg.parse::<u64>() {
            Ok(ms) if ms <= MAX_DELAY_MS => Ok(Command::Delay(Duration::from_millis(ms))),
            _ => Err(bad()),
        },
        "games" => match arg.parse::<u32>() {
            Ok(n) if (1..=MAX_GAMES).contains(&n) => Ok(Command::Games(n)),
            _ => Err(bad()),
        },
        "lab" if arg.is_empty() => Ok(Command::Lab(None)),
        "lab" => match arg.parse::<u32>() {
            Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(Command::Lab(Some(d))),
            _ => Err(bad()),
        },
        "view" => crate::tui::view::View::parse(arg)
            .map(Command::View)
            .map_err(because),
        "save" if arg.is_empty() => Err(bad()),
        "save" => Ok(Command::Save(arg.to_string())),
        "load" if arg.is_empty() => Err(bad()),
        "load" => Ok(Command::Load(arg.to_string())),
        "tc" if arg.is_empty() => Ok(Command::Tc(TcArg::Show)),
        "tc" if arg.eq_ignore_ascii_case("off") => Ok(Command::Tc(TcArg::Off)),
        "tc" => arg
            .parse::<TimeControl>()
            .map(|tc| Command::Tc(TcArg::Set(tc)))
            .map_err(|e| because(e.to_string())),
        "theme" if arg.is_empty() => Ok(Command::Theme("default".to_string())),
        "theme" => Ok(Command::Theme(arg.to_string())),
        "ascii" => match arg.to_ascii_lowercase().as_str() {
            "" => Ok(Command::Ascii(None)),
            "on" => Ok(Command::Ascii(Some(true))),
            "off" => Ok(Command::Ascii(Some(false))),
            _ => Err(bad()),
        },
        _ => Err(CommandError::Unknown(word.to_string())),
    }
}

/// What a refused argument should have been, in the words people read on the status line.
const USAGE: &[(&str, &str)] = &[
    ("depth", ":depth needs a number from 1 to 127"),
    (
        "lab",
        ":lab takes a depth from 1 to 127, or none for the search depth",
    ),
    ("delay", ":delay needs milliseconds from 0 to 60000"),
    ("games", ":games needs a number of games from 1 to 100000"),
    ("save", ":save needs a file name, e.g. :save game.pgn"),
    ("load", ":load needs a file name, e.g. :load game.pgn"),
    ("ascii", ":ascii on, :ascii off, or :ascii to switch"),
    ("new", ":new takes no argument"),
    ("undo", ":undo takes no argument"),
    ("redo", ":redo takes no argument"),
    ("flip", ":flip takes no argument"),
    ("go", ":go takes no argument"),
    ("stop", ":stop takes no argument"),
    ("resign", ":resign takes no argument"),
    ("draw", ":draw takes no argument"),
    ("help", ":help takes no argument"),
    ("hint", ":hint takes no argument"),
    ("review", ":review takes no argument"),
    ("tree", ":tree takes no argument"),
    ("multipv", ":multipv needs a number of lines from 1 to 8"),
    (
        "set",
        ":set, :set save, or :set KEY VALUE (e.g. :set level club)",
    ),
    ("quit", ":quit takes no argument"),
];

/// The values an argument of `command` can take, when they come from a fixed list.
/// The arguments Tab offers after `command`: the listed words, and what `session` names
/// for it (the colour themes there are, the puzzle set's themes).
fn argument_choices(command: &str, session: &dyn Fn(&str) -> Vec<String>) -> Vec<String> {
    let mut listed: Vec<String> = match command {
        "eval" => EvalMode::ALL.iter().map(|m| m.name().to_string()).collect(),
        "order" => Scheme::ALL.iter().map(|s| s.name().to_string()).collect(),
        "mode" => Mode::VARIANTS.iter().map(Mode::to_string).collect(),
        "ascii" => vec!["on".into(), "off".into()],
        "tc" => vec!["off".into()],
        "level" => crate::engine::levels::NAMED
            .iter()
            .map(|(n, _)| n.to_string())
            .collect(),
        "set" => std::iter::once("save".to_string())
            .chain(
                <crate::tui::settings::Setting as strum::VariantArray>::VARIANTS
                    .iter()
                    .map(|k| k.to_string()),
            )
            .collect(),
        "view" => crate::tui::view::View::ALL
            .iter()
            .map(|v| v.name().to_string())
            .collect(),
        "puzzle" => ["mine", "stats", "show", "off"].map(String::from).to_vec(),
        _ => Vec::new(),
    };
    listed.extend(session(command));
    listed
}

/// The result of pressing Tab on the input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The new input text (unchanged when nothing could be added).
    pub text: String,
    /// The candidates, when more than one remains (shown on the status line).
    pub candidates: Vec<String>,
}

fn common_prefix(words: &[String]) -> String {
    let Some(first) = words.first() else {
        return String::new();
    };
    let mut len = first.len();
    for w in &words[1..] {
        len = len.min(
            first
                .bytes()
                .zip(w.bytes())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    first[..len].to_string()
}

/// Completes a command name (`:fl` → `:flip `) or a listed argument (`:eval ma` →
/// `:eval material`, `:puzzle fo` → `:puzzle fork`). A unique match gets a trailing space
/// after a name that takes arguments; several matches extend to their common prefix and are
/// listed. `session` gives the arguments only the session knows, by command name (`theme`:
/// the colour themes, `puzzle`: the puzzle set's themes); it is asked only for the command
/// being completed.
pub fn complete(text: &str, session: &dyn Fn(&str) -> Vec<String>) -> Completion {
    let unchanged = |candidates: Vec<String>| Completion {
        text: text.to_string(),
        candidates,
    };
    let Some(body) = text.strip_prefix(':') else {
        return unchanged(Vec::new());
    };
    match body.split_once(' ') {
        None => {
            let word = body.to_ascii_lowercase();
            let names: Vec<String> = COMMANDS
                .iter()
                .filter(|c| c.name.starts_with(&word))
                .map(|c| c.name.to_string())
                .collect();
            match names.as_slice() {
                [] => unchanged(Vec::new()),
                [one] => {
                    let takes_args = COMMANDS.iter().any(|c| c.name == one && !c.args.is_empty());
                    Completion {
                        text: format!(":{one}{}", if takes_args { " " } else { "" }),
                        candidates: Vec::new(),
                    }
                }
                many => Completion {
                    text: format!(":{}", common_prefix(many)),
                    candidates: many.iter().map(|n| format!(":{n}")).collect(),
                },
            }
        }
        Some((word, arg)) => {
            let Ok(cmd) = resolve(word) else {
                return unchanged(Vec::new());
            };
            let arg_lc = arg.trim_start().to_ascii_lowercase();
            let choices: Vec<String> = argument_choices(cmd.name, session)
                .into_iter()
                .filter(|c| c.to_ascii_lowercase().starts_with(&arg_lc))
                .collect();
            match choices.as_slice() {
                [] => unchanged(Vec::new()),
                [one] => Completion {
                    text: format!(":{} {one}", cmd.name),
                    candidates: Vec::new(),
                },
                many => Completion {
                    text: format!(":{} {}", cmd.name, common_prefix(many)),
                    candidates: many.to_vec(),
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        for c in COMMANDS {
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
    fn tab_completes_names_then_arguments() {
        let lists = |command: &str| match command {
            "theme" => vec!["default".to_string(), "dark-sea".to_string()],
            "puzzle" => vec!["fork".to_string(), "mateIn2".to_string()],
            _ => Vec::new(),
        };
        assert_eq!(complete(":fl", &lists).text, ":flip");
        assert_eq!(complete(":ev", &lists).text, ":eval ");
        let c = complete(":de", &lists);
        assert_eq!(c.text, ":de");
        assert_eq!(c.candidates, vec![":depth", ":delay"]);
        assert_eq!(complete(":eval ma", &lists).text, ":eval material");
        assert_eq!(complete(":order mvv", &lists).text, ":order mvvlva");
        assert_eq!(complete(":theme da", &lists).text, ":theme dark-sea");
        let c = complete(":theme d", &lists);
        assert_eq!(c.candidates.len(), 2);
        assert_eq!(complete("e2e4", &lists).text, "e2e4");
        assert_eq!(complete(":zz", &lists).text, ":zz");
    }

    #[test]
    fn view_and_puzzle_complete_their_arguments() {
        let lists = |command: &str| match command {
            "puzzle" => vec!["fork".to_string(), "mateIn2".to_string(), "mate".into()],
            _ => Vec::new(),
        };
        assert_eq!(complete(":view ch", &lists).text, ":view chart");
        assert_eq!(complete(":vi l", &lists).candidates, vec!["log", "lab"]);
        let all = complete(":view ", &lists).candidates;
        for v in crate::tui::view::View::ALL {
            assert!(all.contains(&v.name().to_string()), "{all:?}");
        }
        assert_eq!(complete(":puzzle mi", &lists).text, ":puzzle mine");
        assert_eq!(complete(":puzzle fo", &lists).text, ":puzzle fork");
        assert_eq!(complete(":puzzle MATEI", &lists).text, ":puzzle mateIn2");
        let c = complete(":puzzle s", &lists);
        assert_eq!(c.candidates, vec!["stats", "show"]);
    }
}
