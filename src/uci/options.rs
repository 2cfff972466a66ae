//! The UCI options ox88 declares, and `setoption` applied onto `SearchOptions`.
//!
//! One table drives both the `option name …` lines sent after `uci` and the checking of
//! `setoption`, so a declared range and the accepted range cannot drift apart. Option names
//! are matched without regard to case, as the UCI page asks.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::command::shorten;
use crate::engine::SearchOptions;
use crate::engine::eval::EvalMode;
use crate::engine::levels::{Level, MAX_ELO, MIN_ELO};
use crate::engine::order::Scheme;
use crate::engine::search::{MAX_THREADS, Profile};
use crate::engine::syzygy::{PROBE_DEPTH_MAX, PROBE_LIMIT_MAX, Tablebases};

/// The type of a UCI option, with what the `option` line declares.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Spin { default: i64, min: i64, max: i64 },
    Check { default: bool },
    Combo { default: String, vars: Vec<String> },
    Button,
    Str { default: String },
}

/// One declared option.
#[derive(Clone, Debug, PartialEq)]
pub struct UciOption {
    pub name: &'static str,
    pub kind: Kind,
}

impl UciOption {
    /// The `option name … type …` line of the UCI handshake.
    pub fn declaration(&self) -> String {
        let name = self.name;
        match &self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Combo { default, vars } => {
                let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            Kind::Button => format!("option name {name} type button"),
            Kind::Str { default } => {
                // The UCI page's spelling of an empty string default.
                let d = if default.is_empty() {
                    "<empty>"
                } else {
                    default
                };
                format!("option name {name} type string default {d}")
            }
        }
    }
}

pub const HASH_MAX_MB: i64 = crate::engine::HASH_MAX_MB as i64;
pub const MULTI_PV_MAX: i64 = 256;
pub const MOVE_OVERHEAD_MAX_MS: i64 = 5_000;
/// Lazy SMP's cap (`engine::search::MAX_THREADS`, fixed so `uci` says the same everywhere).
pub const THREADS_MAX: i64 = MAX_THREADS as i64;

/// What a GUI can read about the engine (`UCI_EngineAbout`).
pub fn engine_about() -> String {
    format!(
        "ox88 {} by the ox88 developers: a 0x88 chess engine that shows its thinking",
        env!("CARGO_PKG_VERSION")
    )
}

fn names<T: std::fmt::Display>(all: &[T]) -> Vec<String> {
    all.iter().map(|v| v.to_string()).collect()
}

/// The options as declared, defaults taken from `SearchOptions::default()` so that what the
/// GUI is told is what the engine does without any `setoption`.
pub fn declared() -> Vec<UciOption> {
    let d = SearchOptions::default();
    let spin = |default: i64, min: i64, max: i64| Kind::Spin { default, min, max };
    vec![
        UciOption {
            name: "Hash",
            kind: spin(d.hash_mb as i64, 1, HASH_MAX_MB),
        },
        UciOption {
            name: "Clear Hash",
            kind: Kind::Button,
        },
        UciOption {
            name: "Threads",
            kind: spin(i64::from(d.threads), 1, THREADS_MAX),
        },
        UciOption {
            name: "MultiPV",
            kind: spin(i64::from(d.multipv), 1, MULTI_PV_MAX),
        },
        UciOption {
            name: "Move Overhead",
            kind: spin(d.move_overhead.as_millis() as i64, 0, MOVE_OVERHEAD_MAX_MS),
        },
        // The UCI page: an engine that can ponder declares `Ponder` so the GUI knows; the
        // value only tells the engine that pondering may happen (nothing to change here).
        UciOption {
            name: "Ponder",
            kind: Kind::Check { default: false },
        },
        // The UCI page's `UCI_ShowRefutations`: after each iteration, `info refutation` for
        // each root move that was refuted (and the best move with its PV).
        UciOption {
            name: "UCI_ShowRefutations",
            kind: Kind::Check {
                default: d.report_root_moves,
            },
        },
        UciOption {
            name: "OwnBook",
            kind: Kind::Check {
                default: d.own_book,
            },
        },
        UciOption {
            name: "BookFile",
            kind: Kind::Str {
                default: d
                    .book_file
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
            },
        },
        UciOption {
            name: "Eval",
            kind: Kind::Combo {
                default: d.eval.mode.to_string(),
                vars: names(&EvalMode::ALL),
            },
        },
        UciOption {
            name: "Ordering",
            kind: Kind::Combo {
                default: d.scheme.to_string(),
                vars: names(&Scheme::ALL),
            },
        },
        UciOption {
            name: "Profile",
            kind: Kind::Combo {
                default: d.profile.to_string(),
                vars: names(<Profile as strum::VariantArray>::VARIANTS),
            },
        },
        // The UCI page's standard pair for playing below full strength: off by default
        // (full strength), and the Elo the level driver aims at when on (docs/levels.md).
        // Stockfish's names and defaults for Syzygy tables: the directories
        // (`:`-separated); the least depth left and the most men at which the search probes
        // WDL inside its tree; whether cursed wins count as draws. On a position the tables
        // cover, a `go` searches only the moves that keep the best result by the best DTZ
        // (`engine/search/tablebase.rs`).
        UciOption {
            name: "SyzygyPath",
            kind: Kind::Str {
                default: String::new(),
            },
        },
        UciOption {
            name: "SyzygyProbeDepth",
            kind: spin(
                i64::from(d.syzygy.probe_depth),
                1,
                i64::from(PROBE_DEPTH_MAX),
            ),
        },
        UciOption {
            name: "Syzygy50MoveRule",
            kind: Kind::Check {
                default: d.syzygy.fifty_move_rule,
            },
        },
        UciOption {
            name: "SyzygyProbeLimit",
            kind: spin(
                i64::from(d.syzygy.probe_limit),
                0,
                i64::from(PROBE_LIMIT_MAX),
            ),
        },
        UciOption {
            name: "UCI_LimitStrength",
            kind: Kind::Check { default: false },
        },
        UciOption {
            name: "UCI_Elo",
            kind: spin(i64::from(MAX_ELO), i64::from(MIN_ELO), i64::from(MAX_ELO)),
        },
        UciOption {
            name: "UCI_Opponent",
            kind: Kind::Str {
                default: String::new(),
            },
        },
        UciOption {
            name: "UCI_EngineAbout",
            kind: Kind::Str {
                default: engine_about(),
            },
        },
    ]
}

/// Everything `setoption` can change: the search's options plus what only the protocol
/// layer keeps.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub search: SearchOptions,
    pub ponder: bool,
    /// What the GUI told us about the opponent (`UCI_Opponent`), shown by `d`.
    pub opponent: String,
    /// `UCI_LimitStrength` and `UCI_Elo`: `search.level` follows them.
    pub limit_strength: bool,
    pub elo: u32,
    /// `SyzygyPath`: the tables' directories as given (empty: none).
    pub syzygy_path: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            search: SearchOptions::default(),
            ponder: false,
            opponent: String::new(),
            limit_strength: false,
            elo: MAX_ELO,
            syzygy_path: String::new(),
        }
    }
}

/// What applying an option asks the session to do beyond changing `Settings`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    ClearHash,
}

fn parse_spin(name: &str, kind: &Kind, value: &str) -> Result<i64, String> {
    let Kind::Spin { min, max, .. } = *kind else {
        return Err(format!("{name}: not a spin option"));
    };
    match value.trim().parse::<i64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        Ok(v) => Err(format!("{name}: {v} is out of range ({min} to {max})")),
        Err(_) => Err(format!(
            "{name}: '{}' is not a whole number ({min} to {max})",
            shorten(value)
        )),
    }
}

fn parse_check(name: &str, value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "{name}: expected 'true' or 'false', found '{}'",
            shorten(value)
        )),
    }
}

/// The UCI string `<empty>` (and nothing at all) mean an empty string.
fn string_value(value: &str) -> &str {
    let v = value.trim();
    if v == "<empty>" { "" } else { v }
}

impl Settings {
    /// The level `go` plays at: `UCI_Elo` when `UCI_LimitStrength` is on, else full strength.
    pub fn level(&self) -> Level {
        if self.limit_strength {
            Level::elo(self.elo).unwrap_or(Level::Max)
        } else {
            Level::Max
        }
    }

    /// Applies `setoption name <name> [value <value>]`. On error nothing changes.
    pub fn apply(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let options = declared();
        let Some(option) = options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
        else {
            return Err(format!("setoption: no option named '{}'", shorten(name)));
        };
        let name = option.name;
        if option.kind == Kind::Button {
            // A value after a button means nothing; pressing it is what counts.
            return Ok(match name {
                "Clear Hash" => Effect::ClearHash,
                _ => Effect::None,
            });
        }
        let Some(value) = value else {
            return Err(format!("setoption: {name} needs a value"));
        };
        match name {
            "Hash" => self.search.hash_mb = parse_spin(name, &option.kind, value)? as usize,
            "Threads" => self.search.threads = parse_spin(name, &option.kind, value)? as u32,
            "MultiPV" => self.search.multipv = parse_spin(name, &option.kind, value)? as u32,
            "Move Overhead" => {
                let ms = parse_spin(name, &option.kind, value)?;
                self.search.move_overhead = Duration::from_millis(ms as u64);
            }
            "Ponder" => self.ponder = parse_check(name, value)?,
            "OwnBook" => self.search.own_book = parse_check(name, value)?,
            "UCI_ShowRefutations" => {
                self.search.report_root_moves = parse_check(name, value)?;
            }
            "BookFile" => {
                let path = string_value(value);
                self.search.book_file = if path.is_empty() {
                    None
                } else {
                    // Refuse a path we cannot read now, while the GUI still shows the option,
                    // rather than fail quietly at the first search.
                    match std::fs::metadata(path) {
                        Ok(m) if m.is_file() => Some(PathBuf::from(path)),
                        Ok(_) => {
                            return Err(format!("BookFile: '{}' is not a file", shorten(path)));
                        }
                        Err(e) => return Err(format!("BookFile: '{}': {e}", shorten(path))),
                    }
                };
            }
            "Eval" => {
                self.search.eval.mode = value
                    .parse::<EvalMode>()
                    .map_err(|e| format!("Eval: {e}"))?
            }
            "Ordering" => {
                self.search.scheme = value
                    .parse::<Scheme>()
                    .map_err(|e| format!("Ordering: {e}"))?
            }
            "Profile" => {
                self.search.profile = Profile::parse(value).map_err(|e| format!("Profile: {e}"))?
            }
            "UCI_LimitStrength" => {
                self.limit_strength = parse_check(name, value)?;
                self.search.level = self.level();
            }
            "UCI_Elo" => {
                self.elo = parse_spin(name, &option.kind, value)? as u32;
                self.search.level = self.level();
            }
            "UCI_Opponent" => self.opponent = string_value(value).to_string(),
            "SyzygyPath" => {
                let path = string_value(value);
                // Refused now, while the GUI still shows the option, if a directory cannot
                // be read; the files themselves are opened when first needed.
                self.search.syzygy.tables = if path.is_empty() {
                    None
                } else {
                    let tables =
                        Tablebases::open_paths(path).map_err(|e| format!("SyzygyPath: {e}"))?;
                    Some(Arc::new(tables))
                };
                self.syzygy_path = path.to_string();
            }
            "SyzygyProbeDepth" => {
                self.search.syzygy.probe_depth = parse_spin(name, &option.kind, value)? as u32;
            }
            "Syzygy50MoveRule" => self.search.syzygy.fifty_move_rule = parse_check(name, value)?,
            "SyzygyProbeLimit" => {
                self.search.syzygy.probe_limit = parse_spin(name, &option.kind, value)? as u32;
            }
            // Informational: GUIs that echo every option back may set it; nothing to change.
            "UCI_EngineAbout" => {}
            _ => return Err(format!("setoption: {name} cannot be set")),
        }
        Ok(Effect::None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_follow_the_uci_grammar() {
        let lines: Vec<String> = declared().iter().map(UciOption::declaration).collect();
        assert!(
            lines.contains(&"option name Hash type spin default 64 min 1 max 65536".to_string())
        );
        assert!(lines.contains(&"option name Clear Hash type button".to_string()));
        assert!(
            lines.contains(&"option name Threads type spin default 1 min 1 max 64".to_string())
        );
        assert!(lines.contains(&"option name BookFile type string default <empty>".to_string()));
        assert!(
            lines.contains(
                &"option name Eval type combo default net var material var center var full var net"
                    .to_string()
            )
        );
        assert!(lines.contains(
            &"option name Profile type combo default full var seed var full".to_string()
        ));
    }

    #[test]
    fn every_declared_option_accepts_its_own_default() {
        for o in declared() {
            let mut s = Settings::default();
            let value = match &o.kind {
                Kind::Spin { default, .. } => Some(default.to_string()),
                Kind::Check { default } => Some(default.to_string()),
                Kind::Combo { default, .. } => Some(default.clone()),
                Kind::Button => None,
                Kind::Str { default } => Some(if default.is_empty() {
                    "<empty>".into()
                } else {
                    default.clone()
                }),
            };
            assert!(s.apply(o.name, value.as_deref()).is_ok(), "{}", o.name);
            assert_eq!(
                s,
                Settings::default(),
                "{}: the default changed something",
                o.name
            );
        }
    }

    #[test]
    fn options_map_onto_search_options() {
        let mut s = Settings::default();
        assert_eq!(s.apply("hash", Some("128")), Ok(Effect::None));
        assert_eq!(s.search.hash_mb, 128);
        assert_eq!(s.apply("CLEAR HASH", None), Ok(Effect::ClearHash));
        s.apply("threads", Some("2")).unwrap();
        assert_eq!(s.search.threads, 2);
        s.apply("multipv", Some("3")).unwrap();
        assert_eq!(s.search.multipv, 3);
        s.apply("Move Overhead", Some("100")).unwrap();
        assert_eq!(s.search.move_overhead, Duration::from_millis(100));
        s.apply("OwnBook", Some("false")).unwrap();
        assert!(!s.search.own_book);
        s.apply("Eval", Some("Material")).unwrap();
        assert_eq!(s.search.eval.mode, EvalMode::Material);
        s.apply("Ordering", Some("mvvlva100")).unwrap();
        assert_eq!(s.search.scheme, Scheme::MvvLva100);
        s.apply("Profile", Some("seed")).unwrap();
        assert_eq!(s.search.profile, Profile::Seed);
        s.apply("UCI_Opponent", Some("GM 2800 human Some Body"))
            .unwrap();
        assert_eq!(s.opponent, "GM 2800 human Some Body");
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        for (name, value) in [
            ("Hash", Some("0")),
            ("Hash", Some("65537")),
            ("Hash", Some("lots")),
            ("Hash", None),
            ("Threads", Some("0")),
            ("Threads", Some("65")),
            ("MultiPV", Some("257")),
            ("Move Overhead", Some("-1")),
            ("OwnBook", Some("yes")),
            ("Eval", Some("psychic")),
            ("Ordering", Some("random")),
            ("Profile", Some("turbo")),
            ("BookFile", Some("/definitely/not/here.bin")),
            ("SyzygyPath", Some("/definitely/not/a/table/directory")),
            ("SyzygyProbeDepth", Some("0")),
            ("SyzygyProbeDepth", Some("101")),
            ("SyzygyProbeDepth", Some("deep")),
            ("SyzygyProbeLimit", Some("-1")),
            ("SyzygyProbeLimit", Some("8")),
            ("Syzygy50MoveRule", Some("maybe")),
            ("Nonsense", Some("1")),
        ] {
            assert!(s.apply(name, value).is_err(), "{name} {value:?}");
            assert_eq!(
                s,
                Settings::default(),
                "{name} {value:?} changed the settings"
            );
        }
    }
}
