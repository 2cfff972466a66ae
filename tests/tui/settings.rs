//! Settings that stay: each setting changed through its own command or key is kept by
//! `:set save` and read back by a new app on the same file; a settings file that binds one
//! key to two actions is said at start, naming the key and both actions.

use crate::common;

use common::TempDir;
use common::app::{enter, log_texts, message, press, press_with};

use crossterm::event::{KeyCode, KeyModifiers};
use ox88::engine::levels::Level;
use ox88::tui::app::{App, MessageKind};
use ox88::tui::keys::Action;
use ox88::tui::settings::{Config, Key, Setting, Settings};
use ox88::tui::view::View;
use ox88::tui::{Mode, Options};

/// A new app on the settings file at `path`, as the program starts one: the file's
/// settings are the options, and the file is the one `:set` writes to.
fn start_on(path: &std::path::Path) -> App {
    let config = Config::load(path);
    let opts = Options {
        mode: Mode::HumanWhite,
        ..Options::of(config.settings().clone())
    };
    let (mut app, _) = common::app::app_of(&opts);
    app.use_config(config);
    app
}

/// Every key of the settings file: each setting and each action's keys.
fn every_key() -> Vec<Key> {
    <Setting as strum::VariantArray>::VARIANTS
        .iter()
        .map(|s| Key::Setting(*s))
        .chain(
            <Action as strum::VariantArray>::VARIANTS
                .iter()
                .map(|a| Key::Keys(*a)),
        )
        .collect()
}

#[test]
fn every_setting_changed_by_its_own_command_or_key_is_saved_and_read_back_at_the_next_start() {
    let dir = TempDir::new("settings-stay");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "# kept as written\ndepth = 4 # shallow\n").unwrap();
    let mut app = start_on(&path);
    let before = app.live_settings();

    // Each through its own command or key; the ones only the settings file has, through
    // :set (their only command).
    enter(&mut app, ":theme light");
    enter(&mut app, ":ascii on");
    enter(&mut app, ":level 1600");
    enter(&mut app, ":depth 6");
    press(&mut app, KeyCode::F(6));
    press(&mut app, KeyCode::F(6));
    press(&mut app, KeyCode::F(5));
    enter(&mut app, ":multipv 2");
    press(&mut app, KeyCode::F(3));
    enter(&mut app, ":eval material");
    enter(&mut app, ":order seed");
    enter(&mut app, ":view eval");
    press(&mut app, KeyCode::F(8));
    enter(&mut app, ":tc 5+3");
    enter(&mut app, ":set name Ada Lovelace");
    enter(&mut app, ":set offerdraws off");
    enter(&mut app, ":set resigns off");
    enter(&mut app, ":set ownbook off");
    enter(&mut app, ":set values seed");
    enter(&mut app, ":set color 256");
    enter(&mut app, ":set book openings.bin");
    enter(&mut app, ":set hash 32");
    enter(&mut app, ":set threads 2");
    enter(&mut app, ":set explorer off");
    enter(&mut app, ":set keys.flip Ctrl+K");
    let tables = common::syzygy_dir();
    if let Some(t) = &tables {
        enter(&mut app, &format!(":set syzygy {}", t.display()));
    }

    let now = app.live_settings();
    let want = Settings {
        theme: "light".into(),
        name: "Ada Lovelace".into(),
        level: Level::Elo(1600),
        offer_draws: false,
        resigns: false,
        depth: 7,
        multipv: 3,
        eval: "material".parse().unwrap(),
        order: "seed".parse().unwrap(),
        view: View::Chart,
        values: "seed".parse().unwrap(),
        color: "256".parse().unwrap(),
        ascii: true,
        book: Some("openings.bin".into()),
        own_book: false,
        tc: Some("5+3".into()),
        hash_mb: 32,
        explorer: false,
        threads: 2,
        syzygy: tables.clone(),
        keys: now.keys.clone(),
    };
    assert_eq!(now, want, "each command took effect");
    assert_eq!(now.value(Key::Keys(Action::Flip)), "Ctrl+K");
    // Every setting the file has was changed (the tables only where there are some).
    for key in every_key() {
        let unchanged = before.value(key) == now.value(key);
        let may_stay = matches!(key, Key::Setting(Setting::Syzygy) if tables.is_none())
            || (matches!(key, Key::Keys(a) if a != Action::Flip));
        assert!(!unchanged || may_stay, "{key} was not changed by the test");
    }

    enter(&mut app, ":set save");
    assert_eq!(message(&app).0, MessageKind::Info, "{:?}", message(&app));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("# kept as written\ndepth = 7 # shallow\n"),
        "{text}"
    );

    // A new start on the same file: every setting is as it was.
    let again = start_on(&path);
    assert!(
        !log_texts(&again).iter().any(|l| l.starts_with("settings:")),
        "{:?}",
        log_texts(&again)
    );
    let read = again.live_settings();
    for key in every_key() {
        assert_eq!(read.value(key), now.value(key), "{key}:\n{text}");
    }
    assert_eq!(read, now, "{text}");
    assert_eq!(again.screen().view(), View::Chart);
    assert_eq!(again.prefs().multipv(), 3);
    assert_eq!(
        again.game().time_control.map(|t| t.to_string()),
        Some("5+3".into())
    );
    // The keys act as saved.
    let mut again = again;
    press_with(&mut again, KeyCode::Char('k'), KeyModifiers::CONTROL);
    assert!(again.screen().flipped(), "Ctrl+K flips the board");
}

/// One key bound to two actions in the settings file: the app says so at start, naming
/// the key and both actions, and the first action keeps the key.
#[test]
fn a_key_bound_to_two_actions_in_the_file_is_said_at_start_naming_the_key_and_both_actions() {
    let dir = TempDir::new("settings-clash");
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "[keys]\nflip = \"Ctrl+K\"\nnew-game = \"Ctrl+K\"\n").unwrap();
    let app = start_on(&path);
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Error, "{text}");
    for part in ["Ctrl+K", "keys.new-game", "keys.flip", "config.toml:3"] {
        assert!(text.contains(part), "{part}: {text}");
    }
    assert!(
        log_texts(&app)
            .iter()
            .any(|l| l.contains("Ctrl+K is already keys.flip")),
        "{:?}",
        log_texts(&app)
    );
    assert_eq!(
        app.prefs().settings().value(Key::Keys(Action::Flip)),
        "Ctrl+K"
    );
    assert_eq!(
        app.prefs().settings().value(Key::Keys(Action::NewGame)),
        "Ctrl+N"
    );
}
