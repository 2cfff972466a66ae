//! Settings that stay: reading, checking, overriding and saving `config.toml`.

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyModifiers};
use ox88::engine::eval::EvalMode;
use ox88::engine::levels::Level;
use ox88::tui::ColorMode;
use ox88::tui::keys::{Action, Focus, action_for};
use ox88::tui::pane::key_table;
use ox88::tui::settings::{Config, ConfigError, Key, KeyName, Setting, Settings};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ox88-config-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const HAND_WRITTEN: &str = "\
# My ox88 settings
theme = \"light\"   # easier on the eyes
depth = 8

# how strong the engine plays
level = \"club\"
future_setting = { a = 1 }

[keys]
# I quit with F10
quit = \"F10\"
";

#[test]
fn a_missing_file_gives_the_defaults_and_no_problem() {
    let dir = temp_dir("missing");
    let c = Config::load(&dir.join("config.toml"));
    assert_eq!(c.settings(), &Settings::default());
    assert!(c.problems().is_empty());
}

#[test]
fn a_hand_written_file_is_read() {
    let c = Config::from_text(Path::new("config.toml"), HAND_WRITTEN);
    let s = c.settings();
    assert_eq!(s.theme, "light");
    assert_eq!(s.depth, 8);
    assert_eq!(s.level, Level::Elo(1600));
    assert_eq!(
        s.keys,
        vec![(
            Action::Quit,
            vec![KeyName {
                code: KeyCode::F(10),
                mods: KeyModifiers::NONE
            }]
        )]
    );
    // The unknown key is reported (a typo is likelier than a newer version) but kept.
    assert_eq!(c.problems().len(), 1);
    let text = c.problems()[0].to_string();
    assert!(
        text.contains("config.toml:7") && text.contains("future_setting"),
        "{text}"
    );
}

#[test]
fn saving_keeps_comments_unknown_keys_and_layout() {
    let dir = temp_dir("keep");
    let path = dir.join("config.toml");
    std::fs::write(&path, HAND_WRITTEN).unwrap();
    let mut c = Config::load(&path);
    c.set("depth", "12").unwrap();
    c.set("eval", "material").unwrap();
    c.set("keys.flip", "Ctrl+R, F3").unwrap();
    c.save().unwrap();
    let written = std::fs::read_to_string(&path).unwrap();
    assert!(written.starts_with("# My ox88 settings\ntheme = \"light\"   # easier on the eyes\n"));
    assert!(written.contains("depth = 12\n"), "{written}");
    assert!(written.contains("# how strong the engine plays\nlevel = \"club\"\n"));
    assert!(written.contains("future_setting = { a = 1 }"));
    assert!(written.contains("# I quit with F10\nquit = \"F10\""));
    assert!(written.contains("eval = \"material\""));
    assert!(written.contains("flip = [\"Ctrl+R\", \"F3\"]"), "{written}");
    // No temporary file is left behind.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
}

#[test]
fn settings_round_trip_through_the_file() {
    let dir = temp_dir("round");
    let path = dir.join("sub").join("config.toml");
    let mut c = Config::load(&path);
    for (k, v) in [
        ("theme", "high-contrast"),
        ("level", "1750"),
        ("depth", "6"),
        ("eval", "center"),
        ("order", "mvvlva"),
        ("color", "256"),
        ("ascii", "true"),
        ("book", "/tmp/book.bin"),
        ("tc", "5+3"),
        ("hash", "128"),
        ("threads", "4"),
        ("keys.quit", "Ctrl+Q"),
        ("keys.engine-move", "Alt+M, F9"),
    ] {
        c.set(k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
    }
    c.save().unwrap();
    let again = Config::load(&path);
    assert!(again.problems().is_empty(), "{:?}", again.problems());
    assert_eq!(again.settings(), c.settings());
    assert_eq!(again.get("level").unwrap(), "1750");
    assert_eq!(again.get("color").unwrap(), "256");
    assert_eq!(again.get("keys.engine-move").unwrap(), "Alt+m, F9");
    assert_eq!(again.get("keys.undo").unwrap(), "Ctrl+Z");
    assert_eq!(again.settings().color, ColorMode::Ansi256);
    assert_eq!(again.settings().hash_mb, 128);
    assert_eq!(again.settings().threads, 4);
}

#[test]
fn set_rejects_unknown_keys_and_bad_values_and_changes_nothing() {
    let mut c = Config::default();
    let before = c.settings().clone();
    assert_eq!(
        c.set("dpeth", "5"),
        Err(ConfigError::UnknownKey {
            key: "dpeth".into()
        })
    );
    // One depth range for the settings, the flags, the TUI and UCI's `go depth`.
    assert!(c.clone().set("depth", "127").is_ok());
    let err = c.set("depth", "128").unwrap_err();
    assert!(
        matches!(&err, ConfigError::BadValue { key, value, .. } if key == "depth" && value == "128")
    );
    assert!(err.to_string().contains("1 to 127"), "{err}");
    let err = c.set("eval", "deep").unwrap_err().to_string();
    assert!(err.contains("material, center, full"), "{err}");
    let err = c.set("level", "grandmaster").unwrap_err().to_string();
    assert!(err.contains("beginner") && err.contains("2800"), "{err}");
    assert!(c.set("tc", "5+x").is_err());
    assert!(c.set("hash", "0").is_err());
    let err = c.set("threads", "0").unwrap_err().to_string();
    assert!(err.contains("1 to 64"), "{err}");
    assert!(c.set("threads", "65").is_err());
    assert!(c.set("ascii", "maybe").is_err());
    let err = c.set("keys.quit", "Hyper+Q").unwrap_err().to_string();
    assert!(err.contains("not a key"), "{err}");
    let err = c.set("keys.explode", "F2").unwrap_err().to_string();
    assert!(err.contains("quit") && err.contains("flip"), "{err}");
    assert_eq!(c.settings(), &before);
    assert_eq!(c.to_text().unwrap(), "");
}

#[test]
fn bad_lines_name_the_file_the_line_and_the_key_and_keep_the_defaults() {
    let text = "theme = \"mono\"\ndepth = 500\neval = \"fancy\"\n\n[keys]\nflip = \"Ctrl+Hyper\"\n";
    let c = Config::from_text(Path::new("/home/me/.config/ox88/config.toml"), text);
    let s = c.settings();
    assert_eq!(s.theme, "mono");
    assert_eq!(s.depth, Settings::default().depth);
    assert_eq!(s.eval, EvalMode::default());
    assert!(s.keys.is_empty());
    let lines: Vec<(usize, String)> = c
        .problems()
        .iter()
        .map(|p| match p {
            ConfigError::InFile { line, key, .. } => (*line, key.clone()),
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            (2, "depth".to_string()),
            (3, "eval".to_string()),
            (6, "keys.flip".to_string())
        ]
    );
    let shown = c.problems()[0].to_string();
    assert!(
        shown.starts_with("/home/me/.config/ox88/config.toml:2: bad value '500' for depth"),
        "{shown}"
    );
    assert!(shown.contains("using the default"), "{shown}");
}

#[test]
fn a_file_that_is_not_toml_is_reported_and_never_overwritten() {
    let dir = temp_dir("syntax");
    let path = dir.join("config.toml");
    let text = "depth = 5\ntheme = \"light\n";
    std::fs::write(&path, text).unwrap();
    let mut c = Config::load(&path);
    assert_eq!(c.settings().depth, 5, "the good line still counts");
    assert_eq!(c.settings().theme, Settings::default().theme);
    assert!(
        matches!(c.problems(), [ConfigError::Syntax { line: 2, .. }]),
        "{:?}",
        c.problems()
    );
    c.set("depth", "7").unwrap();
    assert_eq!(c.settings().depth, 7);
    assert!(matches!(c.save(), Err(ConfigError::WouldLoseFile { .. })));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn a_syntax_error_costs_only_its_own_line() {
    let text = "\
theme = \"light\"
ascii = yes
depth = 7
level = \"club
[keys]
quit = \"Ctrl+G\"
flip = [\"F10\"
[oops
help = \"F1\"
[keys]
review = \"F8\"
";
    let c = Config::from_text(Path::new("/home/me/.config/ox88/config.toml"), text);
    let s = c.settings();
    assert_eq!(s.theme, "light", "a valid line before the bad one");
    assert_eq!(s.depth, 7, "a valid line after it");
    assert_eq!(s.ascii, Settings::default().ascii);
    assert_eq!(s.level, Settings::default().level);
    assert_eq!(
        c.settings()
            .value(ox88::tui::settings::Key::Keys(Action::Quit)),
        "Ctrl+G",
        "a good line of a table"
    );
    let bad: Vec<(usize, Option<String>)> = c
        .problems()
        .iter()
        .map(|p| match p {
            ConfigError::Syntax { line, key, .. } => (*line, key.clone()),
            other => panic!("{other}"),
        })
        .collect();
    assert_eq!(
        bad,
        vec![
            (2, Some("ascii".to_string())),
            (4, Some("level".to_string())),
            (7, Some("keys.flip".to_string())),
            (8, None),
            (9, None),
            (10, None),
        ],
        "{:?}",
        c.problems()
    );
    let shown = c.problems()[0].to_string();
    assert!(
        shown.starts_with("/home/me/.config/ox88/config.toml:2: not valid TOML: ")
            && shown.ends_with("(line skipped; using the default for ascii)"),
        "{shown}"
    );
    assert!(
        c.problems()[4].to_string().contains("header of line 8"),
        "{}",
        c.problems()[4]
    );
    // Nothing saves over a file that keeps bad lines.
    assert!(c.to_text().is_none());
}

#[test]
fn a_syntax_error_is_named_by_ox88_config_and_the_rest_of_the_file_read() {
    let dir = temp_dir("syntax-cli");
    let path = dir.join("config.toml");
    std::fs::write(&path, "ascii = yes\ntheme = \"light\"\n").unwrap();
    let file = path.to_str().unwrap();
    let (out, err, ok) = ox88(&["--config", file, "config"]);
    assert!(ok, "{err}");
    assert!(out.contains("theme = \"light\"\n"), "{out}");
    // The file named after the subcommand is read the same.
    let (after, err_after, ok) = ox88(&["config", "--config", file]);
    assert!(ok, "{err_after}");
    assert_eq!(after, out);
    assert_eq!(err_after, err);
    assert!(
        err.contains(&format!("{file}:1: not valid TOML"))
            && err.contains("using the default for ascii"),
        "{err}"
    );
}

#[test]
fn flags_override_the_file_and_absent_flags_do_not() {
    let c = Config::from_text(
        Path::new("c.toml"),
        "depth = 8\nascii = true\ntheme = \"light\"\n",
    );
    let s = c
        .settings()
        .with_flags(&[
            (Setting::Depth, "3".to_string()),
            (Setting::Ascii, "false".to_string()),
        ])
        .unwrap();
    assert_eq!(s.depth, 3);
    assert!(!s.ascii);
    assert_eq!(s.theme, "light");
    assert_eq!(c.settings().with_flags(&[]).unwrap(), *c.settings());
}

#[test]
fn key_overrides_replace_an_actions_keys_and_win_over_other_actions() {
    let c = Config::from_text(
        Path::new("c.toml"),
        "[keys]\nquit = \"Ctrl+G\"\nflip = \"r\"\nnew-game = \"N\"\npv-forward = \"End\"\n",
    );
    let table = c.settings().key_table(&key_table());
    let press = |code, mods, empty| {
        action_for(
            &table,
            &crossterm::event::KeyEvent::new(code, mods),
            empty,
            Focus::INPUT,
        )
    };
    assert_eq!(
        press(KeyCode::Char('g'), KeyModifiers::CONTROL, false),
        Some(Action::Quit)
    );
    assert_eq!(
        press(KeyCode::Char('c'), KeyModifiers::CONTROL, false),
        None
    );
    assert_eq!(
        press(KeyCode::F(9), KeyModifiers::NONE, false),
        Some(Action::EngineMove)
    );
    // A plain character acts only on an empty input line, so it can still be typed.
    assert_eq!(
        press(KeyCode::Char('r'), KeyModifiers::NONE, true),
        Some(Action::Flip)
    );
    assert_eq!(press(KeyCode::Char('r'), KeyModifiers::NONE, false), None);
    // Shifted characters match with or without the Shift flag.
    assert_eq!(
        press(KeyCode::Char('N'), KeyModifiers::SHIFT, true),
        Some(Action::NewGame)
    );
    assert_eq!(
        press(KeyCode::Char('N'), KeyModifiers::NONE, true),
        Some(Action::NewGame)
    );
    // End keeps its condition from the table: the input line still gets it.
    assert_eq!(press(KeyCode::End, KeyModifiers::NONE, false), None);
    let in_sort = action_for(
        &table,
        &crossterm::event::KeyEvent::new(KeyCode::End, KeyModifiers::NONE),
        true,
        ox88::tui::pane::sort::FOCUS,
    );
    assert_eq!(in_sort, Some(Action::PvForward));
}

/// Two actions on one key in the file: the second is refused with a problem that names the
/// key and both actions, and the first keeps the key; `:set` refuses the same way and
/// changes nothing.
#[test]
fn one_key_bound_to_two_actions_is_refused_naming_both() {
    let mut c = Config::from_text(
        Path::new("c.toml"),
        "[keys]\nflip = \"Ctrl+K\"\nnew-game = \"Ctrl+K\"\n",
    );
    let problems: Vec<String> = c.problems().iter().map(|p| p.to_string()).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("keys.new-game") && p.contains("Ctrl+K is already keys.flip")),
        "{problems:?}"
    );
    assert_eq!(c.get("keys.flip").unwrap(), "Ctrl+K");
    assert_eq!(c.get("keys.new-game").unwrap(), "Ctrl+N");
    let refused = c.set("keys.undo", "Ctrl+K").unwrap_err().to_string();
    assert!(refused.contains("Ctrl+K is already keys.flip"), "{refused}");
    assert_eq!(c.get("keys.undo").unwrap(), "Ctrl+Z");
    // The same action given its own key again is no conflict.
    c.set("keys.flip", "Ctrl+K, F11").unwrap();
}

/// Every setting's value as it is shown (`:set` lists it so, `:set save` writes it so) is
/// one the file takes back, so saving what is in force never fails on a value's form.
#[test]
fn every_settings_value_as_shown_is_taken_back_by_the_file() {
    let shown = Settings::default();
    let mut c = Config::from_text(Path::new("c.toml"), "");
    for setting in <Setting as strum::VariantArray>::VARIANTS {
        let key = Key::Setting(*setting);
        let value = shown.value(key);
        c.set(&key.to_string(), &value)
            .unwrap_or_else(|e| panic!("{setting} = {value:?}: {e}"));
        assert_eq!(c.settings().value(key), value, "{setting}");
    }
}

#[test]
fn every_action_of_the_key_table_has_a_name_in_the_file() {
    for b in key_table() {
        let name = ox88::tui::settings::action_name(b.action);
        assert_ne!(name, "?", "{:?} has no [keys] name", b.action);
        assert_eq!(ox88::tui::settings::action_named(name), Some(b.action));
    }
}

#[test]
fn key_names_parse_as_the_help_writes_them() {
    for (text, code, mods) in [
        ("Ctrl+G", KeyCode::Char('g'), KeyModifiers::CONTROL),
        ("ctrl-g", KeyCode::Char('g'), KeyModifiers::CONTROL),
        ("F6", KeyCode::F(6), KeyModifiers::NONE),
        ("Alt+Left", KeyCode::Left, KeyModifiers::ALT),
        ("Shift+Tab", KeyCode::BackTab, KeyModifiers::NONE),
        ("+", KeyCode::Char('+'), KeyModifiers::NONE),
        ("Ctrl++", KeyCode::Char('+'), KeyModifiers::CONTROL),
        ("PgUp", KeyCode::PageUp, KeyModifiers::NONE),
        ("Esc", KeyCode::Esc, KeyModifiers::NONE),
    ] {
        assert_eq!(
            text.parse::<KeyName>(),
            Ok(KeyName { code, mods }),
            "{text}"
        );
    }
    for bad in ["", "F13", "Shift+a", "Ctrl+", "Hyper+Q", "ab"] {
        assert!(bad.parse::<KeyName>().is_err(), "{bad}");
    }
}

// The command line: completions, man page, version, and flags over the file.

fn ox88(args: &[&str]) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(args)
        // An empty place: the tests must not read the settings of whoever runs them.
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join(format!("ox88-config-{}-xdg", std::process::id())),
        )
        .output()
        .expect("ox88 runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn completions_mention_the_subcommands_and_flags() {
    for shell in ["bash", "zsh", "fish"] {
        let (out, err, ok) = ox88(&["completions", shell]);
        assert!(ok, "{shell}: {err}");
        for word in ["perft", "bench", "completions", "man", "level", "theme"] {
            assert!(out.contains(word), "{shell} completions lack {word}");
        }
        // The flags that take one of a few names offer those names as the values to complete
        // (not only in their description).
        for (flag, names) in [
            ("mode", "white black human engine analysis"),
            ("color", "auto truecolor 256 16 none"),
        ] {
            let first = names.split(' ').next().unwrap();
            let offered = match shell {
                "bash" => out.contains(&format!("compgen -W \"{names}\"")),
                "zsh" => out.contains(&format!(":{}:({names})", flag.to_uppercase())),
                _ => out.lines().any(|l| {
                    l.contains(&format!("-l {flag} ")) && l.contains(&format!("-a \"{first}"))
                }),
            };
            assert!(
                offered,
                "{shell} completions do not offer --{flag}'s values"
            );
        }
    }
    let (_, err, ok) = ox88(&["completions", "tcsh"]);
    assert!(!ok && err.contains("tcsh"), "{err}");
}

#[test]
fn the_man_page_comes_from_the_same_definition() {
    let (out, _, ok) = ox88(&["man"]);
    assert!(ok);
    assert!(out.contains(".SH NAME") && out.contains(".SH SYNOPSIS"));
    assert!(out.contains("\\-\\-level") && out.contains("completions"));
    assert!(out.contains("config.toml"));
    // The club: rooms, the lobby, watching, ratings, what is kept and what is exposed.
    let serving = out
        .split(".SH \"SERVING OVER SSH\"")
        .nth(1)
        .expect("a section on serving");
    for word in [
        "ROOM",
        "lobby",
        "Ctrl+V",
        "Glicko-2",
        "club.sqlite",
        "no shell",
    ] {
        assert!(serving.contains(word), "{word} missing from:\n{serving}");
    }
}

#[test]
fn the_version_starts_with_the_package_version() {
    let (out, _, ok) = ox88(&["--version"]);
    assert!(ok);
    assert!(
        out.starts_with(&format!("ox88 {}", env!("CARGO_PKG_VERSION"))),
        "{out}"
    );
}

#[test]
fn the_help_shows_where_the_settings_file_is() {
    let (out, _, ok) = ox88(&["--help"]);
    assert!(ok);
    assert!(out.contains("ox88-config-"), "{out}");
    assert!(out.contains("config.toml"));
}

#[test]
fn flags_given_on_the_command_line_win_over_the_file() {
    let dir = temp_dir("flags");
    let path = dir.join("config.toml");
    std::fs::write(
        &path,
        "depth = 8\ntheme = \"light\"\nlevel = \"club\"\neval = \"fancy\"\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let (out, err, ok) = ox88(&[
        "--config", file, "--depth", "3", "--level", "1900", "config",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("depth = 3\n"), "{out}");
    assert!(out.contains("level = 1900\n"), "{out}");
    assert!(out.contains("theme = \"light\"\n"), "{out}");
    // The bad value is reported and the default kept.
    let default = format!("eval = \"{}\"\n", ox88::engine::eval::EvalMode::default());
    assert!(out.contains(&default), "{out}");
    assert!(err.contains(":4: bad value 'fancy' for eval"), "{err}");
    // `--ascii` alone turns it on and takes no following word; `--ascii=false` turns a
    // saved setting off.
    let (out, _, ok) = ox88(&["--config", file, "--ascii", "config"]);
    assert!(ok && out.contains("ascii = true\n"), "{out}");
    std::fs::write(&path, "ascii = true\n").unwrap();
    let (out, _, ok) = ox88(&["--config", file, "--ascii=false", "config"]);
    assert!(ok && out.contains("ascii = false\n"), "{out}");
    let (_, err, ok) = ox88(&["--level", "5000", "config"]);
    assert!(!ok && err.contains("800 to 2800"), "{err}");
}

#[test]
fn the_help_lists_every_setting_with_what_it_takes() {
    use strum::VariantArray;
    let rows = ox88::tui::ui::help::help_rows();
    for setting in Setting::VARIANTS {
        let row = rows
            .iter()
            .find(|(k, _)| *k == format!(":set {setting}"))
            .unwrap_or_else(|| panic!("no help row for {setting}"));
        assert_eq!(row.1, setting.allowed());
    }
    // A bad value's error says the same words as the help.
    for (setting, bad) in [
        (Setting::Depth, "0"),
        (Setting::Hash, "0"),
        (Setting::Threads, "0"),
        (Setting::Ascii, "maybe"),
        (Setting::Color, "red"),
    ] {
        let err = Config::default().set(setting.name(), bad).unwrap_err();
        assert!(err.to_string().contains(&setting.allowed()), "{err}");
    }
}

#[test]
fn the_syzygy_directory_comes_from_the_file_or_the_flag_and_config_shows_it() {
    let dir = temp_dir("syzygy");
    let path = dir.join("config.toml");
    std::fs::write(&path, "syzygy = \"/tables/from/file\"\n").unwrap();
    let file = path.to_str().unwrap();
    let (out, err, ok) = ox88(&["--config", file, "config"]);
    assert!(ok, "{err}");
    assert!(out.contains("syzygy = \"/tables/from/file\"\n"), "{out}");
    let (out, err, ok) = ox88(&["--config", file, "--syzygy", "/tables/flag", "config"]);
    assert!(ok, "{err}");
    assert!(out.contains("syzygy = \"/tables/flag\"\n"), "{out}");
    // None by default.
    std::fs::write(&path, "").unwrap();
    let (out, _, ok) = ox88(&["--config", file, "config"]);
    assert!(ok && out.contains("syzygy = \"\"\n"), "{out}");
    // `:set` checks and writes it like any other setting.
    let mut s = Settings::default();
    s.set_value(Key::Setting(Setting::Syzygy), " /t ").unwrap();
    assert_eq!(s.syzygy.as_deref(), Some(std::path::Path::new("/t")));
    assert_eq!(s.get("syzygy").unwrap(), "/t");
    s.set_value(Key::Setting(Setting::Syzygy), "").unwrap();
    assert_eq!(s.syzygy, None);
}

#[test]
fn a_bad_time_control_flag_is_refused_like_every_other_bad_flag() {
    for tc in ["5+x", "x+3", "40/x+30", "5+3+1"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
            .args(["--tc", tc])
            .env(
                "XDG_CONFIG_HOME",
                std::env::temp_dir().join(format!("ox88-config-{}-xdg", std::process::id())),
            )
            .stdin(std::process::Stdio::null())
            .output()
            .expect("ox88 runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--tc {tc}: {err}");
        assert!(err.starts_with("ox88: "), "--tc {tc}: {err}");
        assert!(err.contains(tc) && err.contains("tc"), "--tc {tc}: {err}");
        assert!(!err.contains("backtrace"), "--tc {tc}: {err}");
        let hints = err.matches("e.g. 5+3").count() + err.matches("like 5+3").count();
        assert_eq!(hints, 1, "says once how to write one: {err}");
        assert!(out.stdout.is_empty(), "nothing on standard output");
    }
}

#[test]
fn ox88_config_prints_a_settings_file_that_reads_back_to_the_same_settings() {
    let dir = temp_dir("config-toml");
    let first = dir.join("first.toml");
    std::fs::write(
        &first,
        "depth = 12\ntc = \"5+3\"\nlevel = \"club\"\nname = \"Ada \\\"the\\\" Fox\"\n\
         [keys]\nquit = \"Ctrl+Q\"\nflip = [\"Ctrl+R\", \"F10\"]\n",
    )
    .unwrap();
    let (out, err, ok) = ox88(&["--config", first.to_str().unwrap(), "--ascii", "config"]);
    assert!(ok && err.is_empty(), "{err}");
    // The whole output is TOML (its comments included) and holds every setting.
    let table: toml::Table = out.parse().unwrap_or_else(|e| panic!("{e}\n{out}"));
    for setting in <Setting as strum::VariantArray>::VARIANTS {
        assert!(table.contains_key(setting.name()), "{setting}: {out}");
    }
    assert_eq!(table["depth"].as_integer(), Some(12), "{out}");
    assert_eq!(
        table["ascii"].as_bool(),
        Some(true),
        "the flag counts: {out}"
    );
    assert_eq!(table["name"].as_str(), Some("Ada \"the\" Fox"), "{out}");
    assert!(
        table["keys"].get("flip").is_some_and(|v| v.is_array()),
        "{out}"
    );
    // Saved as it is and read again, it gives the same settings.
    let second = dir.join("second.toml");
    std::fs::write(&second, &out).unwrap();
    let (again, err, ok) = ox88(&["--config", second.to_str().unwrap(), "config"]);
    assert!(ok && err.is_empty(), "{err}");
    let body = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&again), body(&out));
}

#[test]
fn a_problem_names_its_own_line_after_a_line_that_was_skipped() {
    let text = "ascii = yes\ntheme = \"light\"\n\n# a comment\ndepth = 0\neval = \"fancy\"\n\
                [keys]\nflip = what ever\nquit = \"Hyper+Q\"\n";
    let line_with = |needle: &str| {
        text.lines()
            .position(|l| l.contains(needle))
            .map(|i| i + 1)
            .unwrap()
    };
    let c = Config::from_text(Path::new("c.toml"), text);
    let lines: Vec<(usize, String)> = c
        .problems()
        .iter()
        .map(|p| match p {
            ConfigError::InFile { line, key, .. } => (*line, key.clone()),
            ConfigError::Syntax { line, key, .. } => (*line, key.clone().unwrap_or_default()),
            other => panic!("{other}"),
        })
        .collect();
    for (needle, key) in [
        ("ascii = yes", "ascii"),
        ("depth = 0", "depth"),
        ("eval = ", "eval"),
        ("flip = what", "keys.flip"),
        ("Hyper+Q", "keys.quit"),
    ] {
        assert!(
            lines.contains(&(line_with(needle), key.to_string())),
            "{key} on line {}: {lines:?}",
            line_with(needle)
        );
    }
    assert_eq!(
        c.settings().theme,
        "light",
        "the readable lines still count"
    );
}
