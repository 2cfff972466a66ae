//! Levels, MultiPV lines, hints and `:set` in the TUI, driven through the app's own entry
//! points (keys, commands and engine events) and drawn on ratatui's TestBackend at 80×24
//! and 120×40. A recording engine answers nothing by itself, so no test depends on a
//! search's timing; one test plays against the real engine at a low level.

use crate::common;

use common::app::{enter, log_texts, message, options_in, press, screen, test_settings};

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;
use ox88::chess::{Board, Move, Square};
use ox88::engine::levels::{Level, Reason};
use ox88::engine::report::{LevelChoice, LevelReport, WeighedLine};
use ox88::engine::{Engine, IterationInfo, Score, SearchEvent};
use ox88::tui::app::{App, JobEvent, MessageKind};
use ox88::tui::settings::Config;
use ox88::tui::settings::Settings;
use ox88::tui::theme::{ColorDepth, Theme};
use ox88::tui::view::View;
use ox88::tui::{Mode, Options};

use common::app::Calls;

fn options() -> Options {
    options_in(Mode::HumanWhite)
}

fn app_with(opts: Options) -> (App, Calls) {
    common::app::app_of(&opts)
}

/// A command that must be refused: the text stays for editing, so Esc clears it after.
fn enter_refused(app: &mut App, text: &str) {
    enter(app, text);
    assert_eq!(
        app.message().map(|m| m.kind),
        Some(MessageKind::Error),
        "{text}"
    );
    assert_eq!(app.input().value(), text, "the text stays for editing");
    press(app, KeyCode::Esc);
}

fn line(board: &Board, multipv: u32, depth: u32, cp: i32, pv: &[&str]) -> IterationInfo {
    let mut b = board.clone();
    let pv: Vec<Move> = pv
        .iter()
        .map(|t| {
            let m = b.parse_uci_move(t).unwrap();
            b.make(m);
            m
        })
        .collect();
    IterationInfo {
        multipv,
        nodes: 1000 * u64::from(multipv),
        ..common::iteration(depth, Score::Cp(cp), pv)
    }
}

/// A directory of its own under the system's temporary directory (never ~/.config).
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ox88-tui-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_level_goes_to_the_engine_with_each_move_and_the_status_bar_names_it() {
    let (mut app, calls) = app_with(options());
    enter(&mut app, ":level club");
    assert_eq!(app.prefs().settings().level, Level::Elo(1600));
    assert_eq!(message(&app).1, "level club: about 1600 Elo");
    enter(&mut app, "e4");
    let go = calls.last_go().expect("the engine was asked");
    assert_eq!(go.options.level, Level::Elo(1600));
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = screen(&mut app, w, h);
        assert!(
            rows.iter().any(|r| r.contains("level club")),
            "{w}×{h}:\n{}",
            rows.join("\n")
        );
        // The depth does not decide a level's moves: the status line does not show it.
        let status = rows.last().unwrap();
        assert!(
            !status.contains("depth ") && !status.contains(" d10 "),
            "{w}×{h}: {status}"
        );
    }
    // The depth keys say what the depth does under a level instead of seeming to do nothing.
    app.handle_key(crossterm::event::KeyEvent::new(
        KeyCode::F(6),
        crossterm::event::KeyModifiers::NONE,
    ));
    assert!(
        message(&app).1.contains("at level club the level decides"),
        "{}",
        message(&app).1
    );
    // The level's report is information, not an error: every line of it goes to the log.
    let board = Board::from_fen(&go.fen).unwrap();
    let e5 = board.parse_uci_move("e7e5").unwrap();
    let report = LevelReport {
        level: Level::Elo(1600),
        side: board.side_to_move(),
        budget_nodes: Some(30_000),
        budget_depth: Some(9),
        depth: 7,
        nodes: 29_500,
        lines: 1,
        think: Duration::from_millis(1500),
        choice: Some(LevelChoice {
            weighed: vec![WeighedLine {
                mv: e5,
                san: board.san(e5),
                score: Score::Cp(-20),
                value_cp: -15,
                probability: 1.0,
            }],
            index: 0,
            reason: Reason::Weighted,
        }),
    };
    app.on_engine_event(SearchEvent::LevelReport { id: go.id, report });
    let log = log_texts(&app);
    assert!(log.contains(&"level club plays e5 (drawn by the weights)".to_string()));
    assert!(log.contains(
        &"level club: budget 30000 nodes, depth 9; searched depth 7, 29500 nodes, 1 lines; think 1.5 s; scores White's view"
            .to_string()
    ));
    // Black's candidate at -0.20 for Black reads +0.20, White's view, as every score does.
    assert!(
        log.contains(&"→ e5        +0.20  weighed   +15  p 100.0%".to_string()),
        "{log:?}"
    );
    assert_ne!(app.message().map(|m| m.kind), Some(MessageKind::Error));

    // A bad level names what was wrong and changes nothing.
    enter_refused(&mut app, ":level 3000");
    assert_eq!(app.prefs().settings().level, Level::Elo(1600));
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Error);
    assert!(text.contains("3000 is out of range"), "{text}");

    // Analysis shows the real search whatever the level.
    enter(&mut app, ":mode analysis");
    let go = calls.last_go().unwrap();
    assert!(go.limits.infinite);
    assert_eq!(go.options.level, Level::Max);
}

#[test]
fn a_level_below_max_plays_a_legal_move_against_the_real_engine() {
    let (tx, rx) = mpsc::channel();
    let engine = Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    let opts = Options {
        settings: Settings {
            level: Level::Elo(800),
            hash_mb: 1,
            // The level's own choice, not a book move (the book plays in games too).
            own_book: false,
            ..options().settings
        },
        ..options()
    };
    let theme = Theme::builtin("default", ColorDepth::TrueColor).unwrap();
    let mut app = App::new(&opts, Box::new(engine), theme, ColorDepth::TrueColor);
    enter(&mut app, "d4");
    let deadline = Instant::now() + Duration::from_secs(60);
    while app.game().ply() < 2 {
        let ev = rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the engine answers");
        app.on_engine_event(ev);
    }
    let board = app.game().position_at(1).unwrap();
    let reply = app.game().moves()[1].mv;
    assert!(board.legal_moves().contains(reply));
    let log = log_texts(&app);
    let san = board.san(reply);
    assert!(
        log.iter()
            .any(|l| l.starts_with("level beginner plays ") && l.contains(&format!(" {san} "))),
        "{log:?}"
    );
    assert!(
        log.iter().any(|l| l.starts_with("level beginner: budget ")),
        "{log:?}"
    );
}

#[test]
fn multipv_three_shows_three_lines_in_the_log() {
    let (mut app, calls) = app_with(Options {
        mode: Mode::Analysis,
        ..options()
    });
    enter(&mut app, ":multipv 3");
    let go = calls.last_go().unwrap();
    assert_eq!(go.options.multipv, 3, "analysis restarts with three lines");
    let board = Board::startpos();
    for (k, (cp, pv)) in [
        (30, ["e2e4", "e7e5"]),
        (25, ["d2d4", "d7d5"]),
        (20, ["g1f3", "g8f6"]),
    ]
    .iter()
    .enumerate()
    {
        app.on_engine_event(SearchEvent::Iteration {
            id: go.id,
            info: line(&board, k as u32 + 1, 6, *cp, pv),
        });
    }
    assert_eq!(app.screen().pv_lines().len(), 3);
    let log = log_texts(&app);
    for (k, first) in [(1, "pv e2e4"), (2, "pv d2d4"), (3, "pv g1f3")] {
        assert!(
            log.iter()
                .any(|l| l.starts_with(&format!("pv{k} ")) && l.contains(first)),
            "line {k}: {log:?}"
        );
    }
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = screen(&mut app, w, h).join("\n");
        for k in 1..=3 {
            assert!(rows.contains(&format!("pv{k} ")), "{w}×{h}:\n{rows}");
            assert!(
                !rows.contains(&format!("#{k} d")),
                "a line is not labelled as a mate: {w}×{h}:\n{rows}"
            );
        }
    }
    // F3 cycles 1, 2, 3, 4 lines.
    press(&mut app, KeyCode::F(3));
    assert_eq!(app.prefs().multipv(), 4);
    press(&mut app, KeyCode::F(3));
    assert_eq!(app.prefs().multipv(), 1);
    enter_refused(&mut app, ":multipv 9");
    assert_eq!(app.prefs().multipv(), 1);
}

#[test]
fn a_hint_marks_two_squares_changes_nothing_and_is_noted_on_the_move_played() {
    let (mut app, calls) = app_with(options());
    press(&mut app, KeyCode::F(2));
    let go = calls.last_go().expect("a hint search");
    assert_eq!(go.fen, Board::startpos().to_fen());
    assert_eq!(go.options.level, Level::Max);
    assert!(go.limits.movetime.is_some(), "a short search");
    let board = Board::startpos();
    app.on_engine_event(SearchEvent::BestMove {
        id: go.id,
        best: Some(board.parse_uci_move("g1f3").unwrap()),
        ponder: None,
        book: None,
    });
    assert_eq!(app.game().ply(), 0, "the hint is not played");
    let (from, to) = app.typed_squares().expect("the hint's squares");
    assert_eq!(from, vec!["g1".parse::<Square>().unwrap()]);
    assert_eq!(to, vec!["f3".parse::<Square>().unwrap()]);
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = screen(&mut app, w, h).join("\n");
        assert!(
            rows.contains("hint Nf3") || rows.contains("hint: Nf3"),
            "{w}×{h}:\n{rows}"
        );
    }
    enter(&mut app, "e4");
    assert_eq!(app.game().ply(), 1);
    let pgn = app.game().to_pgn();
    assert!(pgn.contains("1. e4 {hint: Nf3}"), "{pgn}");
    // The hint belonged to the old position: nothing is marked now.
    assert!(app.typed_squares().is_none());
}

#[test]
fn set_changes_a_setting_at_once_and_set_save_round_trips_through_the_file() {
    let dir = temp_dir("set");
    let path = dir.join("config.toml");
    std::fs::write(&path, "# my settings\ndepth = 4 # shallow\n").unwrap();
    let (mut app, calls) = app_with(options());
    app.use_config(Config::load(&path));

    enter(&mut app, ":set depth 7");
    assert_eq!(app.prefs().settings().depth, 7);
    enter(&mut app, ":set level expert");
    assert_eq!(app.prefs().settings().level, Level::Elo(2000));
    enter(&mut app, ":set eval material");
    enter(&mut app, "e4");
    let go = calls.last_go().unwrap();
    assert_eq!(go.limits.depth, Some(7));
    assert_eq!(go.options.level, Level::Elo(2000));
    assert_eq!(go.options.eval.mode.to_string(), "material");

    // A bad value names what was wrong and changes nothing.
    enter_refused(&mut app, ":set depth 0");
    assert_eq!(message(&app).0, MessageKind::Error);
    assert_eq!(app.prefs().settings().depth, 7);
    enter_refused(&mut app, ":set colour red");
    assert!(message(&app).1.contains("colour"), "{:?}", message(&app));

    // Nothing is written before :set save.
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "# my settings\ndepth = 4 # shallow\n"
    );
    enter(&mut app, ":set save");
    assert_eq!(message(&app).0, MessageKind::Info, "{:?}", message(&app));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# my settings\n"), "{text}");
    assert!(text.contains("depth = 7"), "{text}");
    let again = Config::load(&path);
    assert!(again.problems().is_empty());
    assert_eq!(again.settings().depth, 7);
    assert_eq!(again.settings().level, Level::Elo(2000));

    // Settings changed by their own commands are in force, and :set save keeps them too.
    enter(&mut app, ":level 1600");
    enter(&mut app, ":theme light");
    enter(&mut app, ":ascii on");
    enter(&mut app, ":eval full");
    enter(&mut app, ":order seed");
    app.handle_key(crossterm::event::KeyEvent::new(
        KeyCode::F(6),
        crossterm::event::KeyModifiers::NONE,
    ));
    let depth = app.prefs().settings().depth;
    enter(&mut app, ":set save");
    assert_eq!(message(&app).0, MessageKind::Info, "{:?}", message(&app));
    let again = Config::load(&path);
    assert!(again.problems().is_empty(), "{:?}", again.problems());
    let kept = again.settings();
    assert_eq!(kept.level, Level::Elo(1600));
    assert_eq!(kept.theme, "light");
    assert!(kept.ascii);
    assert_eq!(kept.eval.to_string(), "full");
    assert_eq!(kept.order.to_string(), "seed");
    assert_eq!(kept.depth, depth);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("# my settings\n"), "{text}");
    enter(&mut app, ":level max");

    // :set alone lists what is in force.
    enter(&mut app, ":set");
    let log = log_texts(&app);
    assert!(log.contains(&format!("  depth = {depth}")), "{log:?}");
    assert!(log.contains(&"  level = max".to_string()), "{log:?}");
    for (w, h) in [(80, 24), (120, 40)] {
        let rows = screen(&mut app, w, h).join("\n");
        assert!(rows.contains("hash = 64"), "{w}×{h}:\n{rows}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn set_threads_goes_to_the_engine_and_a_count_out_of_range_changes_nothing() {
    let (mut app, calls) = app_with(options());
    app.use_config(Config::default());
    enter(&mut app, ":set threads 2");
    assert_eq!(app.prefs().settings().threads, 2);
    for bad in [":set threads 0", ":set threads 65", ":set threads two"] {
        enter_refused(&mut app, bad);
        assert_eq!(message(&app).0, MessageKind::Error, "{bad}");
        assert!(message(&app).1.contains("threads"), "{:?}", message(&app));
        assert_eq!(app.prefs().settings().threads, 2, "{bad}");
    }
    enter(&mut app, "e4");
    let go = calls.last_go().unwrap();
    assert_eq!(go.options.threads, 2);
}

#[test]
fn problems_in_the_settings_file_are_shown_in_the_log_at_start() {
    let dir = temp_dir("problems");
    let path = dir.join("config.toml");
    std::fs::write(&path, "depth = \"deep\"\n").unwrap();
    let (mut app, _) = app_with(options());
    app.use_config(Config::load(&path));
    let log = log_texts(&app);
    assert!(
        log.iter()
            .any(|l| l.starts_with("settings: ") && l.contains("depth")),
        "{log:?}"
    );
    assert_eq!(message(&app).0, MessageKind::Error);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn review_marks_a_hanging_queen_and_shows_the_better_move() {
    // The hand-made evaluation, which marks only the queen's move in this game (the network
    // also finds fault with 1... d5).
    let (mut app, _) = app_with(Options {
        settings: Settings {
            eval: ox88::engine::eval::EvalMode::Full,
            ..options().settings
        },
        mode: Mode::HumanHuman,
        ..options()
    });
    for m in ["e4", "d5", "Qg4"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":review");
    assert!(app.review().is_running());
    let rows = screen(&mut app, 120, 40).join("\n");
    assert!(
        rows.contains("review ["),
        "progress on the status line:\n{rows}"
    );
    wait_for_review(&mut app);
    assert!(app.review().visible());
    // Three plies are two moves, as a player counts them.
    let log = log_texts(&app);
    assert!(log.iter().any(|l| l == "review of 2 moves done"), "{log:?}");
    let rows = ox88::tui::ui::review::rows(&app);
    let queen = rows
        .iter()
        .find(|r| r.starts_with("2. Qg4"))
        .unwrap_or_else(|| panic!("{rows:?}"));
    // The move, its mark, the eval after it (White's view), the chances it gave away.
    let cols: Vec<&str> = queen.split_whitespace().collect();
    assert_eq!(cols[..2], ["2.", "Qg4??"], "{queen}");
    assert!(cols[2].starts_with('-'), "{queen}");
    assert!(cols[3].parse::<f64>().unwrap() >= 0.3, "{queen}");
    assert_eq!(cols[4], "better", "{queen}");
    assert!(
        rows[0].starts_with("White ") && rows[0].contains("?? 1"),
        "{rows:?}"
    );
    for (w, h) in [(80, 24), (120, 40)] {
        let screen = screen(&mut app, w, h).join("\n");
        assert!(
            screen
                .lines()
                .any(|l| l.contains("2. Qg4??") && l.contains(cols[3])),
            "{w}×{h}:\n{screen}"
        );
    }
    // The marks are in the game's PGN.
    let pgn = app.game().to_pgn();
    assert!(pgn.contains("Qg4 $4") || pgn.contains("Qg4??"), "{pgn}");

    // Enter shows the position before the chosen move; Esc goes back to the end.
    assert_eq!(
        app.review().selected(),
        2,
        "the first marked move is chosen"
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().ply(), 2);
    assert!(app.review().browsing());
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.game().ply(), 3);
    assert!(!app.review().visible());
}

#[test]
fn a_review_reports_through_the_drivers_channel_and_ends_there() {
    // As the terminal and each SSH channel run it: the job's reports arrive as events on
    // the one channel, and the app's ticks have nothing of their own to collect.
    let (tx, rx) = std::sync::mpsc::channel();
    let opts = Options {
        mode: Mode::HumanHuman,
        ..options()
    };
    let (builder, _) = common::app::builder_with(&opts, "default", ColorDepth::TrueColor);
    let mut app = builder
        .jobs(std::sync::Arc::new(move |ev| {
            let _ = tx.send(ev);
        }))
        .build();
    for m in ["e4", "d5", "Qg4"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":review");
    assert!(app.review().is_running());
    let (mut reports, mut total) = (0, 0);
    loop {
        let ev = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the review reports and ends");
        let ended = matches!(ev, JobEvent::ReviewEnded { .. });
        if let JobEvent::Review { progress, .. } = &ev {
            reports += 1;
            total = progress.total;
            assert_eq!(progress.done, reports, "every report arrives, in order");
        }
        // Ticks alone never finish it: only the channel's events do.
        app.on_tick(Instant::now());
        assert!(app.review().is_running(), "a tick ended the review");
        app.on_job_event(ev);
        if ended {
            break;
        }
    }
    assert!(total > 0);
    assert_eq!(reports, total, "one report a position");
    assert!(!app.review().is_running());
    assert!(
        app.review().visible(),
        "the review view opens when the job ends"
    );
}

#[test]
fn a_depth_no_clock_bounds_says_how_to_make_the_engine_move() {
    let (mut app, _) = app_with(options());
    enter(&mut app, ":set depth 99");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Info);
    assert!(text.contains("Ctrl+G") && text.contains(":tc"), "{text}");
    assert!(log_texts(&app).iter().any(|l| l.contains("Ctrl+G")));
    // A clock bounds every search: nothing to warn of.
    enter(&mut app, ":tc 5+3");
    enter(&mut app, ":depth 98");
    let (_, text) = message(&app);
    assert!(!text.contains("Ctrl+G"), "{text}");
    // Without one again, a modest depth is no reason to warn.
    enter(&mut app, ":tc off");
    enter(&mut app, ":depth 12");
    let (_, text) = message(&app);
    assert!(!text.contains("Ctrl+G"), "{text}");
    // A settings file's depth is said at the start.
    let (app, _) = app_with(Options {
        settings: Settings {
            depth: 60,
            ..test_settings()
        },
        ..options()
    });
    let (_, text) = message(&app);
    assert!(
        text.contains("depth 60") && text.contains("Ctrl+G"),
        "{text}"
    );
}

#[test]
fn a_finished_review_shows_itself_even_when_the_evaluation_view_was_on() {
    let (mut app, _) = app_with(Options {
        mode: Mode::HumanHuman,
        ..options()
    });
    for m in ["e4", "d5", "Qg4"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":view eval");
    assert_eq!(app.screen().view(), View::Eval);
    enter(&mut app, ":review");
    wait_for_review(&mut app);
    assert!(app.review().visible());
    assert_eq!(
        app.screen().view(),
        View::Log,
        "the review's pane is on screen"
    );
    let screen = screen(&mut app, 80, 24).join("\n");
    assert!(screen.contains("2. Qg4"), "{screen}");
}

/// A mate the search finds reads `#-1` (White's view, in moves) in the log's iteration line;
/// the mating move's line says checkmate where E would be, with no search score
/// after it (no position is left to score), and so does the board pane. The game's PGN
/// keeps the mate in its engine note, and no `[%eval]` after the mate.
#[test]
fn a_mate_found_reads_as_moves_to_mate_and_the_mated_position_says_checkmate() {
    let fen = "r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1";
    let (mut app, calls) = app_with(Options {
        fen: Some(fen.to_string()),
        ..options()
    });
    let go = calls.last_go().expect("the engine, Black, searches");
    let board = Board::from_fen(fen).unwrap();
    let mut info = line(&board, 1, 5, 0, &["a8a1"]);
    info.score = Score::Mate(1);
    info.score_white = Score::Mate(-1);
    app.on_engine_event(SearchEvent::Iteration {
        id: go.id,
        info: info.clone(),
    });
    app.on_engine_event(SearchEvent::BestMove {
        id: go.id,
        best: Some(board.parse_uci_move("a8a1").unwrap()),
        ponder: None,
        book: None,
    });
    let log = log_texts(&app);
    assert!(
        log.iter()
            .any(|l| l.starts_with("d5/5 ") && l.contains(" E #-1 pv a8a1")),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l == "1...Ra1# (a8a1)  checkmate, Black wins"),
        "{log:?}"
    );
    assert!(
        !log.iter().any(|l| l.contains("32,0") || l.contains("+3")),
        "{log:?}"
    );
    // The eval pane says it above its terms.
    let rows = screen(&mut app, 120, 40);
    assert!(
        rows.iter()
            .any(|r| r.contains("checkmate, Black wins") && !r.contains("Ra1#")),
        "{}",
        rows.join("\n")
    );
    let pgn = app.game().to_pgn();
    assert!(pgn.contains("Ra1# {#-1/5}"), "{pgn}");
}

/// The engine's move into a mate in two: its line and its `[%eval]` count the mate from the
/// position after the move (one move nearer), as PGN readers count it.
#[test]
fn a_mate_on_the_way_is_counted_from_the_position_after_the_move() {
    let fen = "6k1/5ppp/8/8/8/1r6/r7/6K1 b - - 0 1";
    let (mut app, calls) = app_with(Options {
        fen: Some(fen.to_string()),
        ..options()
    });
    let go = calls.last_go().expect("the engine, Black, searches");
    let board = Board::from_fen(fen).unwrap();
    let mut info = line(&board, 1, 6, 0, &["a2a1", "g1h2"]);
    info.score = Score::Mate(2);
    info.score_white = Score::Mate(-2);
    app.on_engine_event(SearchEvent::Iteration {
        id: go.id,
        info: info.clone(),
    });
    app.on_engine_event(SearchEvent::BestMove {
        id: go.id,
        best: Some(board.parse_uci_move("a2a1").unwrap()),
        ponder: None,
        book: None,
    });
    let log = log_texts(&app);
    assert!(
        log.iter()
            .any(|l| l.starts_with("1...Ra1+ (a2a1)  E ") && l.ends_with(" · search #-1 d6")),
        "{log:?}"
    );
    let pgn = app.game().to_pgn();
    assert!(pgn.contains("Ra1+ {#-2/6 [%eval #-1]}"), "{pgn}");
}

/// A stalemating move's log line says stalemate, not an E.
#[test]
fn a_stalemating_move_says_stalemate_in_the_log() {
    let (mut app, _) = app_with(Options {
        fen: Some("k7/8/8/1Q6/8/8/8/K7 w - - 0 1".to_string()),
        ..options()
    });
    enter(&mut app, "Qb6");
    let log = log_texts(&app);
    assert!(
        log.iter()
            .any(|l| l.starts_with("1. Qb6 (b5b6)  stalemate")),
        "{log:?}"
    );
    let rows = screen(&mut app, 120, 40).join("\n");
    assert!(rows.contains("stalemate"), "{rows}");
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
