//! A game's clock and its record: the clock runs only while the game is in play (never
//! again once it has a result, whether it is reviewed, looked back on, taken back or
//! loaded, and never in analysis), and the saved headers name what the game was played
//! with (its players, level and time control at its first move), whatever the settings say
//! when the file is written. The recording engine answers only what a test feeds it; the
//! review test runs the real review.

use crate::common;

use common::TempDir;
use common::app::{Calls, ctrl, enter, message_text, options_in, press, test_settings};

use std::path::Path;
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ox88::chess::Color;
use ox88::engine::SearchEvent;
use ox88::game::Game;
use ox88::game::autosave::Autosave;
use ox88::tui::app::App;
use ox88::tui::settings::Settings;
use ox88::tui::theme::ColorDepth;
use ox88::tui::{Mode, Options};

/// An app in `mode` whose games are kept in `dir` (autosave) and whose `:save` and `:load`
/// files are in `dir/saved`; the player is Ada.
fn saving_app(mode: Mode, dir: &Path) -> (App, Calls) {
    let opts = Options {
        settings: Settings {
            name: "Ada".to_string(),
            ..test_settings()
        },
        ..options_in(mode)
    };
    let (builder, calls) = common::app::builder_with(&opts, "default", ColorDepth::TrueColor);
    let app = builder
        .autosave(Some(Autosave::in_dir(dir)))
        .file_root(dir.join("saved"))
        .build();
    (app, calls)
}

fn tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

fn saved(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join("saved").join(format!("{name}.pgn"))).unwrap()
}

/// The engine, asked for a move, answers `text`.
fn engine_plays(app: &mut App, text: &str) {
    let search = app.session().search().expect("the engine thinks");
    let id = search.id;
    let m = app.game().board().parse_move(text).unwrap();
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: Some(m),
        ponder: None,
        book: None,
    });
}

/// Each side's time left as the clock reads at `now`.
fn readings(app: &App, now: Instant) -> (Duration, Duration) {
    let c = app.play().clock().expect("a clock");
    (
        c.remaining(Color::White, now),
        c.remaining(Color::Black, now),
    )
}

/// The clock stands still: no side runs, and an hour later it reads as now.
fn assert_stopped(app: &App, what: &str) {
    let c = app.play().clock().expect("a clock");
    assert_eq!(c.running(), None, "{what}: a clock runs");
    let now = Instant::now();
    assert_eq!(
        readings(app, now),
        readings(app, now + Duration::from_secs(3600)),
        "{what}"
    );
}

/// Ticks the app until its review has ended (failing after two minutes).
fn wait_for_review(app: &mut App) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while app.review().is_running() {
        assert!(Instant::now() < deadline, "the review ends");
        std::thread::sleep(Duration::from_millis(20));
        app.on_tick(Instant::now());
    }
}

#[test]
fn a_finished_games_clock_never_runs_again() {
    let dir = TempDir::new("clocks-finished");
    let (mut app, _) = saving_app(Mode::HumanHuman, dir.path());
    enter(&mut app, ":tc 5+3");
    for m in ["f3", "e5", "g4", "Qh4#"] {
        enter(&mut app, m);
    }
    assert_eq!(app.game().result().map(|r| r.result()), Some("0-1"));
    assert_stopped(&app, "mate");
    let at_end = readings(&app, Instant::now());

    // Looking back with the arrows.
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    assert!(app.viewing().is_some());
    assert_stopped(&app, "looking back");
    press(&mut app, KeyCode::End);

    // Taking back within the finished game, and a tick an hour later: no flag falls.
    ctrl(&mut app, 'z');
    assert_eq!(app.game().ply(), 3);
    assert_stopped(&app, "a takeback in a finished game");
    app.on_tick(Instant::now() + Duration::from_secs(3600));
    assert_eq!(
        app.game().final_result().map(|r| r.result()),
        Some("0-1"),
        "no flag fell"
    );
    ctrl(&mut app, 'y');
    assert_eq!(app.game().ply(), 4);

    // The review, and a position of it on the board.
    enter(&mut app, ":review");
    wait_for_review(&mut app);
    assert!(app.review().visible());
    press(&mut app, KeyCode::Enter);
    assert!(app.review().browsing());
    assert!(app.game().ply() < 4);
    assert_stopped(&app, "a review's position");
    app.on_tick(Instant::now() + Duration::from_secs(3600));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.game().ply(), 4);
    assert_stopped(&app, "back from the review");
    assert_eq!(readings(&app, Instant::now()), at_end);
    let rows = common::app::screen(&mut app, 120, 40);
    assert!(
        rows[39].contains("0-1 │ W ") && !rows[39].contains('['),
        "{}",
        rows[39]
    );

    // Saved and loaded again: the clock reads the game's last times, stopped.
    enter(&mut app, ":save mate");
    ctrl(&mut app, 'n');
    enter(&mut app, ":load mate");
    assert_eq!(app.game().ply(), 4);
    assert_stopped(&app, "a finished game loaded");
    let loaded = Game::from_pgn(&saved(dir.path(), "mate")).unwrap();
    assert_eq!(
        app.play()
            .clock()
            .unwrap()
            .remaining(Color::White, Instant::now()),
        loaded.moves()[2].clock.unwrap(),
        "White's last [%clk]"
    );

    // A move at an earlier position goes on from there: the game is in play again, its
    // clock from the times that position had.
    ctrl(&mut app, 'z');
    ctrl(&mut app, 'z');
    assert_stopped(&app, "taken back, nothing played yet");
    enter(&mut app, "Nc3");
    assert_eq!(app.game().result(), None);
    let c = app.play().clock().unwrap();
    assert_eq!(c.running(), Some(Color::Black));
    let white = c.remaining(Color::White, Instant::now());
    let first = loaded.moves()[0].clock.unwrap();
    assert!(
        white > first && white <= first + Duration::from_secs(3),
        "White's time after f3, the increment added: {white:?} vs {first:?}"
    );
}

#[test]
fn a_game_lost_on_time_stays_lost_while_reviewed_at_an_earlier_position() {
    let dir = TempDir::new("clocks-flag");
    let (mut app, _) = saving_app(Mode::HumanHuman, dir.path());
    enter(&mut app, ":tc 0.05+0");
    enter(&mut app, "e4");
    enter(&mut app, "e5");
    app.on_tick(Instant::now() + Duration::from_secs(10));
    assert_eq!(app.game().result().map(|r| r.result()), Some("0-1"));
    ctrl(&mut app, 'z');
    assert_stopped(&app, "a takeback after the flag fell");
    app.on_tick(Instant::now() + Duration::from_secs(3600));
    assert!(
        !message_text(&app).contains("step forward"),
        "{}",
        message_text(&app)
    );
    assert_eq!(app.game().final_result().map(|r| r.result()), Some("0-1"));
}

#[test]
fn analysis_has_no_clock_and_no_loss_on_time() {
    let dir = TempDir::new("clocks-analysis");
    let (mut app, _) = saving_app(Mode::HumanWhite, dir.path());
    // Three seconds a side.
    enter(&mut app, ":tc 0.05+0");
    assert!(app.play().clock().is_some());
    enter(&mut app, ":mode analysis");
    assert!(app.play().clock().is_none(), "analysis has no clock");
    for m in ["e4", "e5", "Nf3"] {
        enter(&mut app, m);
    }
    app.on_tick(Instant::now() + Duration::from_secs(3600));
    assert_eq!(app.game().result(), None, "no loss on time");
    let rows = common::app::screen(&mut app, 120, 40);
    assert!(!rows[39].contains("W 0:0"), "{}", rows[39]);
    enter(&mut app, ":tc 5+3");
    assert!(
        message_text(&app).starts_with("analysis has no clock"),
        "{}",
        message_text(&app)
    );
    assert!(app.play().clock().is_none());
    // Nobody played this game: the headers claim no player, on either side.
    enter(&mut app, ":save look");
    let text = saved(dir.path(), "look");
    assert_eq!(tag(&text, "White"), Some("?"));
    assert_eq!(tag(&text, "Black"), Some("?"));
    assert_eq!(tag(&text, "Event"), Some("Analysis"));
    assert_eq!(tag(&text, "TimeControl"), Some("-"));
    assert!(!text.contains("%clk"), "{text}");

    // A game under way that turns to analysis: its clock stops and hides, no flag falls.
    let dir = TempDir::new("clocks-analysis-turned");
    let (mut app, _) = saving_app(Mode::HumanHuman, dir.path());
    enter(&mut app, ":tc 0.05+0");
    enter(&mut app, "e4");
    enter(&mut app, ":mode analysis");
    assert!(app.play().clock().is_none());
    enter(&mut app, "e5");
    app.on_tick(Instant::now() + Duration::from_secs(3600));
    assert_eq!(app.game().result(), None);
    enter(&mut app, ":save turned");
    let text = saved(dir.path(), "turned");
    assert_eq!(tag(&text, "White"), Some("Ada"), "who began the game");
    assert_eq!(
        tag(&text, "TimeControl"),
        Some("3"),
        "what it was played with"
    );
    assert!(
        text.contains("entered in analysis from this move"),
        "{text}"
    );
}

#[test]
fn headers_name_what_the_game_was_played_with_not_the_settings_at_saving() {
    let dir = TempDir::new("clocks-record");
    let (mut app, _) = saving_app(Mode::HumanWhite, dir.path());
    enter(&mut app, ":level club");
    enter(&mut app, ":tc 5+2");
    enter(&mut app, "e4");
    engine_plays(&mut app, "e5");
    // Mid-game: the time control waits for the next game; the level plays from the
    // engine's next move, which the game notes.
    enter(&mut app, ":tc 10+0");
    assert_eq!(
        message_text(&app),
        "time control 10+0 from the next game (this game keeps 5+2)"
    );
    assert_eq!(
        app.game().time_control.map(|tc| tc.to_string()).as_deref(),
        Some("5+2")
    );
    assert!(app.play().clock().unwrap().running() == Some(Color::White));
    enter(&mut app, ":level max");
    enter(&mut app, "Nf3");
    engine_plays(&mut app, "Nc6");
    enter(&mut app, ":save played");
    let autosaved = std::fs::read_to_string(dir.path().join("current.pgn")).unwrap();
    for text in [saved(dir.path(), "played"), autosaved] {
        assert_eq!(tag(&text, "White"), Some("Ada"));
        assert_eq!(tag(&text, "Black"), Some("ox88 (level club)"));
        assert_eq!(tag(&text, "TimeControl"), Some("300+2"));
        assert!(text.contains("ox88 plays Black from this move"), "{text}");
    }
    // The player takes the other side too mid-game: the move says so.
    enter(&mut app, ":mode human");
    enter(&mut app, "Bb5");
    enter(&mut app, "a6");
    enter(&mut app, ":mode white");
    enter(&mut app, ":save swapped");
    let text = saved(dir.path(), "swapped");
    assert_eq!(tag(&text, "White"), Some("Ada"));
    assert!(text.contains("Ada plays Black from this move"), "{text}");

    // The next game takes the settings in force.
    ctrl(&mut app, 'n');
    assert_eq!(
        app.game().time_control.map(|tc| tc.to_string()).as_deref(),
        Some("10+0")
    );
    enter(&mut app, "d4");
    enter(&mut app, ":save next");
    let text = saved(dir.path(), "next");
    assert_eq!(tag(&text, "Black"), Some("ox88"));
    assert_eq!(tag(&text, "TimeControl"), Some("600"));
}

#[test]
fn a_game_as_black_against_the_engine_names_the_sides() {
    let dir = TempDir::new("clocks-black");
    let (mut app, _) = saving_app(Mode::HumanBlack, dir.path());
    engine_plays(&mut app, "e4");
    enter(&mut app, "c5");
    // A setting changed after the first move changes nothing recorded.
    enter(&mut app, ":mode white");
    enter(&mut app, ":save black");
    let text = saved(dir.path(), "black");
    assert_eq!(tag(&text, "White"), Some("ox88"));
    assert_eq!(tag(&text, "Black"), Some("Ada"));
    assert_eq!(tag(&text, "TimeControl"), Some("-"));
}
