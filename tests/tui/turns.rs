//! Around the moves of a TUI game: draw offers (the engine's judgement, two people's
//! agreement), the engine's resignation, premoves, what `:save` and the autosave write after
//! a takeback, the PGN headers, where Ctrl+N puts the previous game, the autosave's lock
//! (two instances, two processes, two SSH sessions) and the opening book in games. The
//! recording engine answers only what a test feeds it, so no test depends on a search's
//! timing; the book test asks the real engine.

use crate::common;

use common::app::{ctrl, enter, message_text, options_in, press, test_settings};

use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use crossterm::event::KeyCode;
use ox88::chess::{Board, Color, Move};
use ox88::engine::levels::Level;
use ox88::engine::{Engine, IterationInfo, Score, SearchEvent};
use ox88::game::Game;
use ox88::game::autosave::{Autosave, AutosaveError};
use ox88::tui::app::{App, MessageKind, Play};
use ox88::tui::settings::{Settings, login_name};
use ox88::tui::theme::ColorDepth;
use ox88::tui::{Mode, Options};

use common::TempDir;
use common::app::Calls;

fn options(mode: Mode) -> Options {
    Options {
        settings: Settings {
            name: "Ada".to_string(),
            ..test_settings()
        },
        ..options_in(mode)
    }
}

fn app(mode: Mode) -> (App, Calls) {
    common::app::app_of(&options(mode))
}

/// An app whose games are kept in `dir` (autosave) and whose `:save` files go there too.
fn saving_app(mode: Mode, dir: &Path) -> (App, Calls) {
    let (builder, calls) =
        common::app::builder_with(&options(mode), "default", ColorDepth::TrueColor);
    let app = builder
        .autosave(Some(Autosave::in_dir(dir)))
        .file_root(dir.join("saved"))
        .build();
    (app, calls)
}

fn log_has(app: &App, text: &str) -> bool {
    app.log_buffer().lines().any(|l| l.text.contains(text))
}

fn info(depth: u32, score_white: Score, pv: Vec<Move>) -> IterationInfo {
    common::iteration(depth, score_white, pv)
}

/// The engine's search for the position it was last asked about reports one iteration
/// with `score_white` (White's view) and, when `answer`, ends with its first legal move
/// (or `mv` when given). Returns the move it played (or would play).
fn engine_search(
    app: &mut App,
    calls: &Calls,
    score_white: Score,
    mv: Option<&str>,
    answer: bool,
) -> Move {
    let go = calls.last_go().expect("the engine was asked");
    let board = Board::from_fen(&go.fen).unwrap();
    let m = match mv {
        Some(text) => board.parse_move(text).unwrap(),
        None => board.legal_moves().as_slice()[0],
    };
    app.on_engine_event(SearchEvent::Iteration {
        id: go.id,
        info: info(8, score_white, vec![m]),
    });
    if answer {
        app.on_engine_event(SearchEvent::BestMove {
            id: go.id,
            best: Some(m),
            ponder: None,
            book: None,
        });
    }
    m
}

// ---- draws and resignation -------------------------------------------------------------

#[test]
fn the_engine_declines_a_draw_when_it_stands_better_and_says_why() {
    let (mut app, calls) = app(Mode::HumanWhite);
    enter(&mut app, ":fen 3qk3/8/8/8/8/8/8/4K3 w - - 0 1");
    enter(&mut app, "Kf2");
    // Black (the engine) is a queen up: -6.53 from White's view while it thinks, and the
    // reason says the same number the search shows, labelled.
    engine_search(&mut app, &calls, Score::Cp(-653), None, false);
    enter(&mut app, ":draw");
    assert_eq!(app.game().result(), None, "no draw agreed");
    let why = "ox88 declines: as Black it stands better (search -6.53, White's view)";
    assert_eq!(message_text(&app), why);
    assert!(log_has(&app, why));
    assert!(
        !log_has(&app, "+6.53"),
        "no number of the engine's own view"
    );
    assert_ne!(app.message().map(|m| m.kind), Some(MessageKind::Error));
}

#[test]
fn the_engine_accepts_a_draw_only_when_level_or_worse_and_not_in_the_first_moves() {
    // Level, but early in the game: declined, and it says so.
    let (mut app, calls) = app(Mode::HumanWhite);
    enter(&mut app, "e4");
    engine_search(&mut app, &calls, Score::Cp(-10), Some("e5"), true);
    enter(&mut app, ":draw");
    assert_eq!(app.game().result(), None);
    assert!(
        message_text(&app).starts_with("ox88 declines: too early"),
        "{}",
        message_text(&app)
    );

    // No search to judge by yet (a book move, say): declined, saying so.
    let (mut app, calls) = app_from(Mode::HumanWhite, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 30");
    enter(&mut app, "Kd2");
    let go = calls.last_go().unwrap();
    let board = Board::from_fen(&go.fen).unwrap();
    app.on_engine_event(SearchEvent::BestMove {
        id: go.id,
        best: Some(board.parse_move("Kd7").unwrap()),
        ponder: None,
        book: Some("a line".to_string()),
    });
    enter(&mut app, ":draw");
    assert_eq!(app.game().result(), None);
    assert!(
        message_text(&app).contains("no search"),
        "{}",
        message_text(&app)
    );

    // Move 30, the engine's last search says it stands worse: accepted.
    enter(&mut app, "Ke3");
    engine_search(&mut app, &calls, Score::Cp(40), Some("Ke6"), true);
    enter(&mut app, ":draw");
    let end = app.game().result().expect("a draw");
    assert_eq!(end.to_string(), "1/2-1/2 (draw agreed)");
    assert!(log_has(
        &app,
        "ox88 accepts the draw (search +0.40, White's view)"
    ));
}

fn app_from(mode: Mode, fen: &str) -> (App, Calls) {
    let opts = Options {
        fen: Some(fen.to_string()),
        ..options(mode)
    };
    common::app::app_of(&opts)
}

/// A king move of the side to move (coordinates) after which the game goes on and the
/// position is new: the test's side walks its king while the engine answers.
fn king_walk(app: &App) -> String {
    let board = app.board();
    board
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| {
            let mut after = board.clone();
            after.make(m);
            board
                .piece_at(m.from())
                .is_some_and(|p| p.kind() == ox88::chess::PieceKind::King)
                && after.repetitions() == 0
                && ox88::game::rules_verdict(&after).is_none()
        })
        .expect("a king move")
        .to_string()
}

#[test]
fn the_engine_offers_a_draw_in_a_dead_level_position_late_in_the_game() {
    // A bare-kings-and-rooks ending at move 50; the engine (Black) calls it dead level.
    let fen = "r3k3/8/8/8/8/8/8/4K2R w - - 0 50";
    let (mut app, calls) = app_from(Mode::HumanWhite, fen);
    let mut offered_at = None;
    for (i, m) in ["Kd1", "Kc2", "Kd3", "Ke3", "Kf3", "Kg3"]
        .iter()
        .enumerate()
    {
        enter(&mut app, m);
        assert_eq!(app.game().result(), None, "{}", message_text(&app));
        engine_search(
            &mut app,
            &calls,
            Score::Cp(-3),
            Some(["Kd8", "Kc8", "Kb8", "Kc7", "Kd7", "Ke7"][i]),
            true,
        );
        if app.play().draws().offer().is_some() {
            offered_at = Some(i + 1);
            break;
        }
    }
    assert_eq!(
        offered_at,
        Some(5),
        "the offer comes after five level moves"
    );
    assert_eq!(app.play().draws().offer(), Some(Color::Black));
    assert!(
        message_text(&app).starts_with("ox88 offers a draw (search -0.03, White's view)"),
        "{}",
        message_text(&app)
    );
    assert!(message_text(&app).contains(":draw accepts, your next move declines"));
    enter(&mut app, ":draw");
    assert_eq!(
        app.game().result().map(|e| e.to_string()).as_deref(),
        Some("1/2-1/2 (draw agreed)")
    );

    // A move declines the offer instead.
    let (mut app, calls) = app_from(Mode::HumanWhite, fen);
    for (i, m) in ["Kd1", "Kc2", "Kd3", "Ke3", "Kf3"].iter().enumerate() {
        enter(&mut app, m);
        engine_search(
            &mut app,
            &calls,
            Score::Cp(-5),
            Some(["Kd8", "Kc8", "Kb8", "Kc7", "Kd7"][i]),
            true,
        );
    }
    assert_eq!(app.play().draws().offer(), Some(Color::Black));
    enter(&mut app, "Kg3");
    assert_eq!(app.play().draws().offer(), None);
    assert!(log_has(&app, "ox88's draw offer declined"));
    assert_eq!(app.game().result(), None);

    // Off by the setting: no offer.
    let (mut app, calls) = app_from(Mode::HumanWhite, fen);
    enter(&mut app, ":set offerdraws off");
    for (i, m) in ["Kd1", "Kc2", "Kd3", "Ke3", "Kf3", "Kg3"]
        .iter()
        .enumerate()
    {
        enter(&mut app, m);
        engine_search(
            &mut app,
            &calls,
            Score::Cp(0),
            Some(["Kd8", "Kc8", "Kb8", "Kc7", "Kd7", "Ke7"][i]),
            true,
        );
    }
    assert_eq!(app.play().draws().offer(), None);
}

#[test]
fn the_engine_resigns_a_hopeless_position_unless_told_not_to() {
    // Black (the engine) has a bare king against king and queen.
    let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 30";
    let (mut app, calls) = app_from(Mode::HumanWhite, fen);
    for i in 0..2 {
        let m = king_walk(&app);
        enter(&mut app, &m);
        let reply = engine_search(&mut app, &calls, Score::Cp(1250), None, true);
        assert_eq!(app.game().ply(), 2 * (i + 1), "move {i}: {reply}");
    }
    let m = king_walk(&app);
    enter(&mut app, &m);
    engine_search(&mut app, &calls, Score::Mate(4), None, true);
    assert_eq!(
        app.game().result().map(|e| e.to_string()).as_deref(),
        Some("1-0 (Black resigns)"),
        "{}",
        message_text(&app)
    );
    assert_eq!(app.game().ply(), 5, "it resigns in place of its third move");
    assert!(log_has(&app, "ox88 resigns (search #4, White's view)"));

    let (mut app, calls) = app_from(Mode::HumanWhite, fen);
    enter(&mut app, ":set resigns off");
    for _ in 0..4 {
        let m = king_walk(&app);
        enter(&mut app, &m);
        engine_search(&mut app, &calls, Score::Cp(1250), None, true);
    }
    assert_eq!(app.game().result(), None);
    assert_eq!(app.game().ply(), 8);
}

#[test]
fn between_two_people_a_draw_needs_both() {
    let (mut app, _) = app(Mode::HumanHuman);
    enter(&mut app, "e4");
    // Black offers, then moves; White's move declines.
    enter(&mut app, ":draw");
    assert_eq!(app.game().result(), None, "an offer, not a draw");
    assert!(
        message_text(&app).starts_with("Black offers a draw"),
        "{}",
        message_text(&app)
    );
    enter(&mut app, "e5");
    assert_eq!(
        app.play().draws().offer(),
        Some(Color::Black),
        "the offer stands after Black's own move"
    );
    enter(&mut app, "Nf3");
    assert_eq!(app.play().draws().offer(), None);
    assert!(log_has(&app, "Black's draw offer declined"));
    // Black offers again, moves; White accepts.
    enter(&mut app, ":draw");
    enter(&mut app, "Nc6");
    enter(&mut app, ":draw");
    assert_eq!(
        app.game().result().map(|e| e.to_string()).as_deref(),
        Some("1/2-1/2 (draw agreed)")
    );
}

// ---- the premove -----------------------------------------------------------------------

#[test]
fn a_move_typed_while_the_engine_thinks_is_played_after_its_move() {
    let (mut app, calls) = app(Mode::HumanWhite);
    enter(&mut app, "e4");
    let asked = calls.searches().len();
    enter(&mut app, "Nf3");
    assert_eq!(app.input().value(), "", "the premove is taken");
    assert_eq!(app.play().assist().premove(), Some("Nf3"));
    assert_eq!(app.game().sans(), vec!["e4"], "not played yet");
    for (w, h) in [(80, 24), (120, 40)] {
        let (rows, _) = common::render(&mut app, w, h);
        assert!(
            rows.iter().any(|r| r.contains("premove Nf3")),
            "{w}×{h}:\n{}",
            rows.join("\n")
        );
    }
    engine_search(&mut app, &calls, Score::Cp(-20), Some("e5"), true);
    assert_eq!(app.game().sans(), vec!["e4", "e5", "Nf3"]);
    assert_eq!(app.play().assist().premove(), None);
    assert_eq!(message_text(&app), "premove Nf3 played");
    assert_eq!(
        calls.searches().len(),
        asked + 1,
        "the engine thinks about its reply"
    );

    // Not legal after the engine's move (its bishop stands on b4): dropped, with the reason.
    enter(&mut app, "b4");
    assert_eq!(app.play().assist().premove(), Some("b4"));
    engine_search(&mut app, &calls, Score::Cp(-20), Some("Bb4"), true);
    assert_eq!(app.game().sans(), vec!["e4", "e5", "Nf3", "Bb4"]);
    assert!(
        message_text(&app).starts_with("premove b4 dropped"),
        "{}",
        message_text(&app)
    );
    assert_eq!(app.play().assist().premove(), None);

    // Esc cancels it.
    enter(&mut app, "Bc4");
    enter(&mut app, "d3");
    enter(&mut app, "d4");
    assert_eq!(
        app.play().assist().premove(),
        Some("d4"),
        "a later premove replaces one"
    );
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.play().assist().premove(), None);
    assert_eq!(message_text(&app), "premove d4 cancelled");
    engine_search(&mut app, &calls, Score::Cp(-20), Some("Nf6"), true);
    assert_eq!(app.game().sans().len(), 6, "nothing played for White");

    // A move no reply could make legal is refused at once (and kept for editing).
    enter(&mut app, "d3");
    enter(&mut app, "Ke3");
    assert_eq!(app.message().map(|m| m.kind), Some(MessageKind::Error));
    assert_eq!(app.input().value(), "Ke3");
}

// ---- :save and the autosave after a takeback ---------------------------------------------

#[test]
fn save_and_autosave_after_a_takeback_write_what_the_board_shows() {
    let dir = TempDir::new("turns-takeback");
    let (mut app, _) = saving_app(Mode::HumanHuman, dir.path());
    for m in ["e4", "e5", "Nf3", "Nc6"] {
        enter(&mut app, m);
    }
    ctrl(&mut app, 'z');
    ctrl(&mut app, 'z');
    assert_eq!(app.game().ply(), 2);
    enter(&mut app, ":save after");
    assert!(
        // Two plies: White's first move and Black's answer, one move of the game.
        message_text(&app).starts_with("saved 1 move to"),
        "{}",
        message_text(&app)
    );
    let saved = std::fs::read_to_string(dir.path().join("saved").join("after.pgn")).unwrap();
    assert_eq!(Game::from_pgn(&saved).unwrap().sans(), vec!["e4", "e5"]);
    let kept = Autosave::in_dir(dir.path())
        .load_unfinished()
        .unwrap()
        .unwrap();
    assert_eq!(kept.sans(), vec!["e4", "e5"], "the autosave too");
    // The moves to replay stay in memory.
    ctrl(&mut app, 'y');
    assert_eq!(app.game().sans(), vec!["e4", "e5", "Nf3", "Nc6"]);
    assert_eq!(app.game().ply(), 3);
    let kept = Autosave::in_dir(dir.path())
        .load_unfinished()
        .unwrap()
        .unwrap();
    assert_eq!(kept.sans(), vec!["e4", "e5", "Nf3"]);
}

// ---- PGN headers -----------------------------------------------------------------------

fn tag<'a>(pgn: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("[{name} \"");
    pgn.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .and_then(|rest| rest.strip_suffix("\"]"))
}

#[test]
fn pgn_headers_name_the_players_the_time_control_and_the_termination() {
    let dir = TempDir::new("turns-headers");
    let (mut app, _) = saving_app(Mode::HumanWhite, dir.path());
    enter(&mut app, ":level club");
    enter(&mut app, "e4");
    let text = std::fs::read_to_string(dir.path().join("current.pgn")).unwrap();
    assert_eq!(tag(&text, "White"), Some("Ada"));
    assert_eq!(tag(&text, "Black"), Some("ox88 (level club)"));
    assert_eq!(tag(&text, "TimeControl"), Some("-"));
    assert_eq!(tag(&text, "Termination"), Some("unterminated"));

    // Settings changed after the game's first move are not what it was played with: the
    // headers keep its record.
    enter(&mut app, ":level max");
    enter(&mut app, ":tc 5+2");
    enter(&mut app, ":mode black");
    enter(&mut app, ":save headers");
    let text = std::fs::read_to_string(dir.path().join("saved").join("headers.pgn")).unwrap();
    assert_eq!(tag(&text, "White"), Some("Ada"));
    assert_eq!(tag(&text, "Black"), Some("ox88 (level club)"));
    assert_eq!(tag(&text, "TimeControl"), Some("-"));
    for name in ["White", "Black", "TimeControl", "Termination"] {
        assert_ne!(tag(&text, name), Some("?"), "{name}");
    }
    enter(&mut app, ":resign");
    let archived = app.play().last_saved().expect("archived").to_path_buf();
    let text = std::fs::read_to_string(archived).unwrap();
    assert_eq!(tag(&text, "Termination"), Some("normal"));

    // A flag fall is a time forfeit; two people are both the player.
    let mut play = Play::new(Mode::HumanHuman, Duration::ZERO);
    play.game_mut().play_text("e4").unwrap();
    play.game_mut().flag_fall(Color::Black).unwrap();
    play.stamp_tags("Ada", Level::Max);
    let text = play.game().to_pgn();
    assert_eq!(tag(&text, "Termination"), Some("time forfeit"));
    assert_eq!(
        (tag(&text, "White"), tag(&text, "Black")),
        (Some("Ada"), Some("Ada"))
    );

    // A loaded game that names its players keeps them.
    let pgn = "[White \"Kasparov\"]\n[Black \"Topalov\"]\n\n1. e4 d6 *\n";
    std::fs::write(dir.path().join("saved").join("k.pgn"), pgn).unwrap();
    enter(&mut app, ":load k");
    enter(&mut app, ":save k2");
    let text = std::fs::read_to_string(dir.path().join("saved").join("k2.pgn")).unwrap();
    assert_eq!(tag(&text, "White"), Some("Kasparov"));
}

#[test]
fn the_name_setting_defaults_to_the_login_name() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    assert_eq!(login_name(env(&[("USER", "ada"), ("LOGNAME", "x")])), "ada");
    assert_eq!(login_name(env(&[("LOGNAME", "grace")])), "grace");
    assert_eq!(login_name(env(&[("USER", "  ")])), "Player");
    assert_eq!(login_name(env(&[])), "Player");
    let (mut app, _) = app(Mode::HumanWhite);
    enter(&mut app, ":set name Bobby Fischer");
    assert_eq!(app.prefs().settings().name, "Bobby Fischer");
    enter(&mut app, ":set name  ");
    assert_eq!(app.message().map(|m| m.kind), Some(MessageKind::Error));
    assert_eq!(app.prefs().settings().name, "Bobby Fischer");
}

// ---- Ctrl+N and the autosave's lock ------------------------------------------------------

#[test]
fn a_new_game_says_where_the_previous_one_went() {
    let dir = TempDir::new("turns-ctrl-n");
    let (mut app, _) = saving_app(Mode::HumanHuman, dir.path());
    enter(&mut app, "e4");
    enter(&mut app, "c5");
    ctrl(&mut app, 'n');
    let text = message_text(&app);
    let kept = text
        .split("previous game kept in ")
        .nth(1)
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        kept.starts_with("games/"),
        "relative to the data directory: {kept}"
    );
    let file = std::fs::read_to_string(dir.path().join(kept)).unwrap();
    assert_eq!(Game::from_pgn(&file).unwrap().sans(), vec!["e4", "c5"]);
    assert_eq!(tag(&file, "Termination"), Some("abandoned"));
    assert!(app.game().is_empty());
    // A finished game: where it was archived.
    enter(&mut app, "d4");
    enter(&mut app, ":resign");
    ctrl(&mut app, 'n');
    assert!(
        message_text(&app).contains("previous game kept in games/"),
        "{}",
        message_text(&app)
    );
}

#[test]
fn two_autosaves_of_one_directory_cannot_both_hold_it() {
    let dir = TempDir::new("turns-lock");
    let mut first = Autosave::in_dir(dir.path());
    let mut second = Autosave::in_dir(dir.path());
    first.lock().unwrap();
    let err = second.lock().unwrap_err();
    assert!(matches!(err, AutosaveError::Locked { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains(&format!("process {}", std::process::id()))
            && text.contains("cannot autosave"),
        "{text}"
    );
    assert!(!second.is_locked());
    drop(first);
    second.lock().expect("free once the first is gone");
}

#[test]
fn a_second_ox88_process_plays_on_without_autosave() {
    use common::pty::Pty;
    use portable_pty::CommandBuilder;
    let dir = TempDir::new("turns-two-processes");
    let start = || {
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_ox88"));
        cmd.args([
            "--config",
            &dir.path().join("none.toml").display().to_string(),
        ]);
        cmd.env("OX88_DATA_DIR", dir.path());
        cmd.env("HOME", dir.path());
        cmd.env("TERM", "xterm-256color");
        Pty::spawn(cmd, 24, 80)
    };
    let mut first = start();
    first.wait_for("the first screen", |s| {
        s.status().starts_with("White to move")
    });
    let mut second = start();
    second.wait_for("the second one's message", |s| {
        s.text().contains("another ox88 (process")
    });
    // The first one keeps its game; the second plays on without writing there.
    second.send("e2e4\r");
    second.wait_for("the second one's move", |s| s.text().contains("1.e4 "));
    assert!(
        !dir.path().join("current.pgn").exists(),
        "the second one wrote nothing"
    );
    first.send("d2d4\r");
    first.wait_for("the first one's move", |s| s.text().contains("1.d4 "));
    let kept = Autosave::in_dir(dir.path())
        .load_unfinished()
        .unwrap()
        .unwrap();
    assert_eq!(kept.sans()[0], "d4");
    for p in [&mut first, &mut second] {
        p.send("\x03");
        p.wait_exit();
    }
}

// ---- the opening book in games ------------------------------------------------------------

#[test]
fn the_book_plays_in_tui_games_varied_by_weight() {
    let (mut app, calls) = app(Mode::HumanBlack);
    let go = calls.last_go().expect("the engine moves first");
    assert!(go.options.own_book && go.options.book_random && go.options.book_without_clock);
    // Its book move is played and the opening named, as over UCI.
    let board = Board::from_fen(&go.fen).unwrap();
    app.on_engine_event(SearchEvent::BestMove {
        id: go.id,
        best: Some(board.parse_move("e4").unwrap()),
        ponder: None,
        book: Some("King's Pawn".to_string()),
    });
    assert_eq!(app.game().sans(), vec!["e4"]);
    assert!(log_has(&app, "book: King's Pawn"));
    // Analysis always searches.
    enter(&mut app, ":mode analysis");
    assert!(!calls.last_go().unwrap().options.own_book);
    // `ownbook = false`: the engine searches every move.
    enter(&mut app, ":set ownbook off");
    enter(&mut app, ":mode white");
    let go_black = calls.last_go().unwrap();
    assert!(go_black.fen.contains(" b "), "the engine plays Black now");
    assert!(!go_black.options.own_book);

    // The real engine, asked as the TUI asks (a depth, no clock), answers from the book and
    // not always with the same move.
    let (tx, rx) = mpsc::channel();
    let engine = Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    let start = Board::from_fen(&go.fen).unwrap();
    let mut firsts = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let id = engine.go(&start, go.limits.clone(), &go.options);
        loop {
            match rx.recv_timeout(common::WAIT).expect("an answer") {
                SearchEvent::BestMove {
                    id: got,
                    best,
                    book,
                    ..
                } if got == id => {
                    assert!(book.is_some(), "a book move at the start");
                    firsts.insert(best.unwrap().to_string());
                    break;
                }
                _ => {}
            }
        }
    }
    assert!(firsts.len() >= 2, "always {firsts:?}");
}

#[test]
fn ox88_config_names_the_book_in_effect() {
    let dir = TempDir::new("turns-config");
    let file = dir.path().join("config.toml");
    let run = |text: &str| {
        std::fs::write(&file, text).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
            .args(["--config", &file.display().to_string(), "config"])
            .env("HOME", dir.path())
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let out = run("");
    assert!(out.contains("ownbook = true\n"), "{out}");
    let line = out
        .lines()
        .find(|l| l.starts_with("# book in effect: "))
        .expect(&out);
    assert!(
        line.contains("named lines") && line.contains("varied by weight"),
        "{line}"
    );
    let out = run("ownbook = false\n");
    assert!(out.contains("# book in effect: none"), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_ssh_the_login_name_plays_and_a_second_session_does_not_autosave() {
    use common::ssh::{SshClient, TestServer, config, new_key};
    let dir = TempDir::new("turns-ssh");
    let key = new_key();
    let server = TestServer::start(config(
        dir.path(),
        ox88::serve::Access::keys(vec![key.public_key().clone()]),
    ))
    .await;
    let login = async || {
        let mut c = SshClient::connect(server.addr()).await.unwrap();
        assert!(c.auth("ada", &key).await.unwrap(), "the key is let in");
        c.open_shell(80, 24).await.unwrap();
        c
    };
    let mut first = login().await;
    first
        .wait_for("the start screen", |s| {
            s.status().starts_with("White to move")
        })
        .await;
    let mut second = login().await;
    second
        .wait_for("the second session's message", |s| {
            s.text().contains("another session of yours")
        })
        .await;
    first.send("e2e4\r").await;
    first
        .wait_for("the engine's reply", |s| {
            s.status().starts_with("White to move") && s.text().contains("1.e4 ")
        })
        .await;
    let player_dir = std::fs::read_dir(dir.path().join("players"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let text = std::fs::read_to_string(player_dir.join("current.pgn")).unwrap();
    assert_eq!(tag(&text, "White"), Some("ada"), "{text}");
    assert_eq!(tag(&text, "Black"), Some("ox88"), "{text}");
    // The second session plays on; the first one's game stays the one kept.
    second.send("d2d4\r").await;
    second
        .wait_for("its reply", |s| {
            s.status().starts_with("White to move") && s.text().contains("1.d4 ")
        })
        .await;
    let kept = Autosave::in_dir(&player_dir)
        .load_unfinished()
        .unwrap()
        .unwrap();
    assert_eq!(kept.sans()[0], "e4");
    first.disconnect().await;
    second.disconnect().await;
    server.stop().await;
}
