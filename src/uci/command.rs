//! One line of UCI input → a typed `Command`, or a message saying what is wrong with it.
//!
//! Parsing is pure (no board, no engine), so every malformed shape is unit-tested here; the
//! session then checks what needs the position (moves, FEN, `searchmoves`) and the options.

use std::time::Duration;

use crate::engine::Limits;

/// Deepest `go depth` and `go mate` accepted: the engine's one depth bound.
pub use crate::engine::MAX_DEPTH;
/// Deepest `go perft` accepted. Perft runs on the input thread like in the common engines, so
/// an absurd depth would make the engine deaf; depth 10 already takes hours from the start.
pub const MAX_PERFT_DEPTH: u32 = 10;
/// `bench` without a depth searches as deep as `ox88 bench` does by default.
pub const BENCH_DEFAULT_DEPTH: u32 = 10;
/// Like perft, the bench runs on the input thread; beyond this it would not end today.
pub const MAX_BENCH_DEPTH: u32 = 30;
/// `movestogo` larger than any time control has.
pub const MAX_MOVES_TO_GO: u32 = 10_000;

/// Where `position` starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionBase {
    StartPos,
    /// The FEN text as given (its fields joined by single spaces).
    Fen(String),
}

/// `go` with its limits. `searchmoves` stay text until the session checks them against the
/// position; `limits.searchmoves` is left empty here.
#[derive(Clone, Debug, PartialEq)]
pub struct GoCommand {
    pub limits: Limits,
    pub searchmoves: Vec<String>,
}

/// Everything the engine understands: the UCI commands and the common engines' extensions.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    Position {
        base: PositionBase,
        moves: Vec<String>,
    },
    Go(GoCommand),
    /// `go perft N`: the move-generator check in the common engines' format.
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: board diagram, FEN, hash key, E.
    Display,
    /// `eval`: the evaluation's term table.
    Eval,
    /// `bench [depth]`: the fixed search benchmark `ox88 bench` runs.
    Bench(u32),
}

/// What one input line turned into. The UCI page asks engines to skip unknown tokens and
/// "try to parse the rest of the string" (`joho debug on` switches debug on); the issue asks
/// us to say what was wrong. So both: `unknown` holds the skipped words (reported as an error)
/// and `command` whatever known command followed them.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub unknown: Vec<String>,
    pub command: Option<Result<Command, String>>,
}

const COMMAND_WORDS: [&str; 16] = [
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
    "perft",
    "exit",
];

/// A whitespace-separated word and where it starts in the line (so `setoption … value` can
/// keep a value's inner spacing, which matters for file names).
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    start: usize,
}

fn tokenize(line: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push(Token {
                    text: &line[s..i],
                    start: s,
                });
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Token {
            text: &line[s..],
            start: s,
        });
    }
    out
}

/// Cuts user text to a readable length for error messages (a 1 MB token must not be echoed).
pub fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() > MAX {
        format!("{}…", s.chars().take(MAX).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Parses one line (without its line ending).
pub fn parse_line(line: &str) -> Parsed {
    let tokens = tokenize(line);
    let first_known = tokens.iter().position(|t| COMMAND_WORDS.contains(&t.text));
    let skipped = first_known.unwrap_or(tokens.len());
    let unknown = tokens[..skipped].iter().map(|t| shorten(t.text)).collect();
    let command = first_known.map(|i| parse_command(line, &tokens[i..]));
    Parsed { unknown, command }
}

fn parse_command(line: &str, tokens: &[Token<'_>]) -> Result<Command, String> {
    let args = &tokens[1..];
    let no_args = |cmd: Command| -> Result<Command, String> {
        match args.first() {
            None => Ok(cmd),
            Some(t) => Err(format!(
                "{}: takes no arguments, found '{}'",
                tokens[0].text,
                shorten(t.text)
            )),
        }
    };
    match tokens[0].text {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" | "exit" => Ok(Command::Quit),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        // Registration is for engines that ask for it; ox88 never does, so any form is fine.
        "register" => Ok(Command::Register),
        "debug" => match args.iter().map(|t| t.text).collect::<Vec<_>>().as_slice() {
            ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => Err("debug: expected 'debug on' or 'debug off'".to_string()),
        },
        "setoption" => parse_setoption(line, args),
        "position" => parse_position(args),
        "go" => parse_go(args),
        "perft" => parse_perft_depth(args).map(Command::Perft),
        "bench" => match args {
            [] => Ok(Command::Bench(BENCH_DEFAULT_DEPTH)),
            [d] => parse_u32("bench", d.text, 1, MAX_BENCH_DEPTH).map(Command::Bench),
            [_, extra, ..] => Err(format!(
                "bench: unexpected '{}' after the depth",
                shorten(extra.text)
            )),
        },
        other => Err(format!("unknown command '{}'", shorten(other))),
    }
}

fn parse_setoption(line: &str, args: &[Token<'_>]) -> Result<Command, String> {
    match args.first() {
        Some(t) if t.text == "name" => {}
        Some(t) => {
            return Err(format!(
                "setoption: expected 'name', found '{}'",
                shorten(t.text)
            ));
        }
        None => return Err("setoption: expected 'setoption name <id> [value <x>]'".into()),
    }
    let rest = &args[1..];
    let value_at = rest.iter().position(|t| t.text == "value");
    let name_tokens = &rest[..value_at.unwrap_or(rest.len())];
    if name_tokens.is_empty() {
        return Err("setoption: the option name is missing".into());
    }
    let name = name_tokens
        .iter()
        .map(|t| t.text)
        .collect::<Vec<_>>()
        .join(" ");
    let value = value_at.map(|i| match rest.get(i + 1) {
        // Everything after `value`, inner spacing kept (a file name may contain spaces).
        Some(first) => line[first.start..].trim_end().to_string(),
        None => String::new(),
    });
    Ok(Command::SetOption { name, value })
}

fn parse_position(args: &[Token<'_>]) -> Result<Command, String> {
    let moves_at = args.iter().position(|t| t.text == "moves");
    let head = &args[..moves_at.unwrap_or(args.len())];
    let moves = match moves_at {
        Some(i) => args[i + 1..].iter().map(|t| t.text.to_string()).collect(),
        None => Vec::new(),
    };
    let base = match head.first().map(|t| t.text) {
        Some("startpos") => {
            if let Some(extra) = head.get(1) {
                return Err(format!(
                    "position: expected 'moves' after 'startpos', found '{}'",
                    shorten(extra.text)
                ));
            }
            PositionBase::StartPos
        }
        Some("fen") => {
            let fields: Vec<&str> = head[1..].iter().map(|t| t.text).collect();
            if fields.is_empty() {
                return Err("position fen: the FEN is missing".into());
            }
            PositionBase::Fen(fields.join(" "))
        }
        Some(other) => {
            return Err(format!(
                "position: expected 'startpos' or 'fen', found '{}'",
                shorten(other)
            ));
        }
        None => return Err("position: expected 'startpos' or 'fen <FEN>'".into()),
    };
    Ok(Command::Position { base, moves })
}

const GO_WORDS: [&str; 13] = [
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(args: &[Token<'_>]) -> Result<Command, String> {
    if args.first().map(|t| t.text) == Some("perft") {
        return parse_perft_depth(&args[1..]).map(Command::Perft);
    }
    let mut go = GoCommand {
        limits: Limits::default(),
        searchmoves: Vec::new(),
    };
    let mut seen: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let word = args[i].text;
        if !GO_WORDS.contains(&word) {
            return Err(format!("go: unknown parameter '{}'", shorten(word)));
        }
        if seen.contains(&word) {
            return Err(format!("go: '{word}' given twice"));
        }
        seen.push(word);
        i += 1;
        let value = args.get(i).map(|t| t.text);
        let mut take = || -> Result<&str, String> {
            match value {
                Some(v) if !GO_WORDS.contains(&v) => {
                    i += 1;
                    Ok(v)
                }
                _ => Err(format!("go: '{word}' needs a value")),
            }
        };
        let l = &mut go.limits;
        match word {
            "infinite" => l.infinite = true,
            "ponder" => l.ponder = true,
            "depth" => l.depth = Some(parse_u32(word, take()?, 1, MAX_DEPTH)?),
            "mate" => l.mate = Some(parse_u32(word, take()?, 1, MAX_DEPTH)?),
            "movestogo" => l.movestogo = Some(parse_u32(word, take()?, 1, MAX_MOVES_TO_GO)?),
            "nodes" => l.nodes = Some(parse_u64(word, take()?, 1, u64::MAX)?),
            "movetime" => l.movetime = Some(parse_millis(word, take()?, false)?),
            "wtime" => l.wtime = Some(parse_millis(word, take()?, true)?),
            "btime" => l.btime = Some(parse_millis(word, take()?, true)?),
            "winc" => l.winc = Some(parse_millis(word, take()?, true)?),
            "binc" => l.binc = Some(parse_millis(word, take()?, true)?),
            "searchmoves" => {
                while let Some(t) = args.get(i).filter(|t| !GO_WORDS.contains(&t.text)) {
                    go.searchmoves.push(t.text.to_string());
                    i += 1;
                }
                if go.searchmoves.is_empty() {
                    return Err("go: 'searchmoves' needs at least one move".into());
                }
            }
            // `perft` anywhere but first: mixed with search limits, which means nothing.
            _ => return Err("go: 'perft' takes no other parameters ('go perft N')".into()),
        }
    }
    Ok(Command::Go(go))
}

fn parse_perft_depth(args: &[Token<'_>]) -> Result<u32, String> {
    match args {
        [d] => parse_u32("perft", d.text, 1, MAX_PERFT_DEPTH),
        [] => Err("perft: the depth is missing ('go perft N')".into()),
        [_, extra, ..] => Err(format!(
            "perft: unexpected '{}' after the depth",
            shorten(extra.text)
        )),
    }
}

fn parse_u64(what: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        // Negative, or too large for 64 bits: a number, but not one we can take.
        _ if integer => Err(format!(
            "{what}: {} is out of range ({min} to {max})",
            shorten(text)
        )),
        _ => Err(format!("{what}: '{}' is not a number", shorten(text))),
    }
}

fn parse_u32(what: &str, text: &str, min: u32, max: u32) -> Result<u32, String> {
    parse_u64(what, text, u64::from(min), u64::from(max)).map(|v| v as u32)
}

/// Milliseconds. Clocks may be negative: some GUIs send the clock as it stands when the
/// engine has overstepped, and the only sensible reading is "no time left", so `clock`
/// values clamp to zero instead of refusing the move request.
fn parse_millis(what: &str, text: &str, clock: bool) -> Result<Duration, String> {
    // A day in milliseconds times 1000: longer than any game, small enough for any arithmetic.
    const MAX_MS: i64 = 86_400_000_000;
    match text.parse::<i64>() {
        Ok(v) if v < 0 && clock => Ok(Duration::ZERO),
        Ok(v) if (0..=MAX_MS).contains(&v) => Ok(Duration::from_millis(v as u64)),
        Ok(_) => Err(format!("{what}: {text} is out of range (0 to {MAX_MS} ms)")),
        Err(_) => parse_u64(what, text, 0, MAX_MS as u64).map(Duration::from_millis),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(line: &str) -> Result<Command, String> {
        let p = parse_line(line);
        assert!(p.unknown.is_empty(), "{line}: unknown {:?}", p.unknown);
        p.command.expect("a command")
    }

    fn go(line: &str) -> GoCommand {
        match cmd(line) {
            Ok(Command::Go(g)) => g,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(cmd("uci"), Ok(Command::Uci));
        assert_eq!(cmd("  isready \r"), Ok(Command::IsReady));
        assert_eq!(cmd("debug on"), Ok(Command::Debug(true)));
        assert!(cmd("debug maybe").is_err());
        assert!(cmd("isready now").is_err());
        assert_eq!(parse_line("").command, None);
        assert_eq!(parse_line("   \t ").command, None);
    }

    #[test]
    fn unknown_words_are_skipped_then_the_rest_is_parsed() {
        // The UCI page's own example.
        let p = parse_line("joho debug on");
        assert_eq!(p.unknown, vec!["joho".to_string()]);
        assert_eq!(p.command, Some(Ok(Command::Debug(true))));
        let p = parse_line("hello world");
        assert_eq!(p.unknown.len(), 2);
        assert_eq!(p.command, None);
    }

    #[test]
    fn setoption_keeps_names_with_spaces_and_value_spacing() {
        assert_eq!(
            cmd("setoption name Clear Hash"),
            Ok(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert_eq!(
            cmd("setoption name BookFile value /tmp/my  book.bin  "),
            Ok(Command::SetOption {
                name: "BookFile".into(),
                value: Some("/tmp/my  book.bin".into())
            })
        );
        assert_eq!(
            cmd("setoption name UCI_Opponent value"),
            Ok(Command::SetOption {
                name: "UCI_Opponent".into(),
                value: Some(String::new())
            })
        );
        assert!(cmd("setoption").is_err());
        assert!(cmd("setoption Hash value 3").is_err());
        assert!(cmd("setoption name value 3").is_err());
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            cmd("position startpos"),
            Ok(Command::Position {
                base: PositionBase::StartPos,
                moves: vec![]
            })
        );
        assert_eq!(
            cmd("position startpos moves e2e4 e7e5"),
            Ok(Command::Position {
                base: PositionBase::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()]
            })
        );
        assert_eq!(
            cmd("position fen 8/8/8/8/8/8/8/K6k w - - 0 1 moves a1a2"),
            Ok(Command::Position {
                base: PositionBase::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec!["a1a2".into()]
            })
        );
        assert!(cmd("position").is_err());
        assert!(cmd("position fen").is_err());
        assert!(cmd("position fen moves e2e4").is_err());
        assert!(cmd("position startpos e2e4").is_err());
        assert!(cmd("position midgame").is_err());
    }

    #[test]
    fn go_limits() {
        let g = go("go wtime 1000 btime -50 winc 10 binc 0 movestogo 12");
        assert_eq!(g.limits.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(g.limits.btime, Some(Duration::ZERO));
        assert_eq!(g.limits.winc, Some(Duration::from_millis(10)));
        assert_eq!(g.limits.binc, Some(Duration::ZERO));
        assert_eq!(g.limits.movestogo, Some(12));
        let g = go("go depth 7 nodes 1000 mate 3 movetime 250 ponder infinite");
        assert_eq!(g.limits.depth, Some(7));
        assert_eq!(g.limits.nodes, Some(1000));
        assert_eq!(g.limits.mate, Some(3));
        assert_eq!(g.limits.movetime, Some(Duration::from_millis(250)));
        assert!(g.limits.ponder && g.limits.infinite);
        let g = go("go searchmoves e2e4 d2d4 depth 3");
        assert_eq!(g.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert_eq!(g.limits.depth, Some(3));
        assert_eq!(go("go").limits, Limits::default());
    }

    #[test]
    fn go_errors() {
        for bad in [
            "go depth",
            "go depth x",
            "go depth 0",
            "go depth 128",
            "go depth -1",
            "go depth 99999999999999999999999",
            "go nodes 0",
            "go movetime -5",
            "go movestogo 0",
            "go depth 3 depth 4",
            "go searchmoves",
            "go searchmoves depth 3",
            "go wtime",
            "go wtime btime 100",
            "go fast",
            "go depth 3 perft 2",
        ] {
            assert!(cmd(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn perft_forms() {
        assert_eq!(cmd("go perft 4"), Ok(Command::Perft(4)));
        assert_eq!(cmd("perft 2"), Ok(Command::Perft(2)));
        assert!(cmd("go perft").is_err());
        assert!(cmd("go perft 0").is_err());
        assert!(cmd("go perft 11").is_err());
        assert!(cmd("go perft 3 4").is_err());
    }

    #[test]
    fn bench_forms() {
        assert_eq!(cmd("bench"), Ok(Command::Bench(BENCH_DEFAULT_DEPTH)));
        assert_eq!(cmd("bench 4"), Ok(Command::Bench(4)));
        assert!(cmd("bench 0").is_err());
        assert!(cmd("bench deep").is_err());
        assert!(cmd("bench 4 5").is_err());
    }

    #[test]
    fn number_errors_say_what_was_wrong() {
        for (line, says) in [
            ("go depth 0", "out of range"),
            ("go depth -3", "out of range"),
            ("go nodes 99999999999999999999999", "out of range"),
            ("go depth three", "not a number"),
            ("go depth 3.5", "not a number"),
            ("go depth -", "not a number"),
        ] {
            let e = cmd(line).unwrap_err();
            assert!(e.contains(says), "{line}: {e}");
        }
    }

    #[test]
    fn long_tokens_are_shortened_in_messages() {
        let long = "x".repeat(10_000);
        let err = cmd(&format!("go depth {long}")).unwrap_err();
        assert!(err.len() < 200, "{err}");
    }
}
