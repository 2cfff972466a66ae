//! The `:` commands of the input line: their names, arguments and help, parsing, and Tab
//! completion of names and of arguments that come from a fixed list.

use crate::engine::eval::EvalMode;
use crate::engine::order::Scheme;

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
        args: "material|center|full",
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
        help: "agree a draw",
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

/// Game modes by their command names.
pub const MODE_NAMES: [&str; 5] = ["white", "black", "human", "engine", "analysis"];

/// A parsed command line: the command (full name) and the rest of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    pub name: &'static str,
    pub arg: String,
}

/// Parses `:name arg...`. A unique prefix of a name is accepted (`:und` is `:undo`), so
/// people need not type whole words.
pub fn parse(text: &str) -> Result<CommandLine, String> {
    let body = text
        .trim()
        .strip_prefix(':')
        .unwrap_or(text.trim())
        .trim_start();
    let (word, arg) = match body.split_once(char::is_whitespace) {
        Some((w, a)) => (w, a.trim()),
        None => (body, ""),
    };
    if word.is_empty() {
        return Err("a command after ':' (Tab lists them)".to_string());
    }
    let word_lc = word.to_ascii_lowercase();
    if let Some(spec) = COMMANDS.iter().find(|c| c.name == word_lc) {
        return Ok(CommandLine {
            name: spec.name,
            arg: arg.to_string(),
        });
    }
    let matches: Vec<&CommandSpec> = COMMANDS
        .iter()
        .filter(|c| c.name.starts_with(&word_lc))
        .collect();
    match matches.as_slice() {
        [one] => Ok(CommandLine {
            name: one.name,
            arg: arg.to_string(),
        }),
        [] => Err(format!(
            ":{word}: no such command (Tab completes; :help lists them)"
        )),
        many => Err(format!(
            ":{word}: which one? {}",
            many.iter()
                .map(|c| format!(":{}", c.name))
                .collect::<Vec<_>>()
                .join(" ")
        )),
    }
}

/// The values an argument of `command` can take, when they come from a fixed list.
fn argument_choices(command: &str, themes: &[String]) -> Vec<String> {
    match command {
        "eval" => EvalMode::ALL.iter().map(|m| m.name().to_string()).collect(),
        "order" => Scheme::ALL.iter().map(|s| s.name().to_string()).collect(),
        "mode" => MODE_NAMES.iter().map(|s| s.to_string()).collect(),
        "theme" => themes.to_vec(),
        "ascii" => vec!["on".into(), "off".into()],
        "tc" => vec!["off".into()],
        _ => Vec::new(),
    }
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
/// `:eval material`). A unique match gets a trailing space after a name that takes
/// arguments; several matches extend to their common prefix and are listed.
pub fn complete(text: &str, themes: &[String]) -> Completion {
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
            let Ok(cmd) = parse(&format!(":{word}")) else {
                return unchanged(Vec::new());
            };
            let arg_lc = arg.trim_start().to_ascii_lowercase();
            let choices: Vec<String> = argument_choices(cmd.name, themes)
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
    fn names_and_unique_prefixes_parse() {
        assert_eq!(parse(":undo").unwrap().name, "undo");
        assert_eq!(parse(":und").unwrap().name, "undo");
        let c = parse(":fen 8/8/8/8/8/8/8/K6k w - - 0 1").unwrap();
        assert_eq!(
            (c.name, c.arg.as_str()),
            ("fen", "8/8/8/8/8/8/8/K6k w - - 0 1")
        );
        assert_eq!(parse(":DEPTH 7").unwrap().arg, "7");
        assert!(parse(":d").unwrap_err().contains(":depth :delay :draw"));
        assert!(parse(":xyzzy").unwrap_err().contains("no such command"));
        assert!(parse(":").is_err());
    }

    #[test]
    fn tab_completes_names_then_arguments() {
        let themes = vec!["default".to_string(), "dark-sea".to_string()];
        assert_eq!(complete(":fl", &themes).text, ":flip");
        assert_eq!(complete(":ev", &themes).text, ":eval ");
        let c = complete(":de", &themes);
        assert_eq!(c.text, ":de");
        assert_eq!(c.candidates, vec![":depth", ":delay"]);
        assert_eq!(complete(":eval ma", &themes).text, ":eval material");
        assert_eq!(complete(":order mvv", &themes).text, ":order mvvlva");
        assert_eq!(complete(":theme da", &themes).text, ":theme dark-sea");
        let c = complete(":theme d", &themes);
        assert_eq!(c.candidates.len(), 2);
        assert_eq!(complete("e2e4", &themes).text, "e2e4");
        assert_eq!(complete(":zz", &themes).text, ":zz");
    }
}
