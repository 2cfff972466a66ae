//! What the screen says, read as a newcomer reads it: messages whole (in the log when the
//! status line cuts them, never a server's paths over SSH), the sort pane naming the side
//! whose moves it lists and marking the move played, and the board's static E named so
//! beside the engine's own score. Drawn on ratatui's TestBackend; the engine is a recorder
//! fed with a real search's events, so nothing depends on timing.

mod common;

use common::app::{enter, log_texts, press};

use crossterm::event::KeyCode;
use ox88::chess::{Board, Move};
use ox88::engine::eval::evaluate_white;
use ox88::engine::search::Searcher;
use ox88::engine::{Bound, IterationInfo, Limits, SearchEvent, SearchOptions};
use ox88::tui::app::{App, LogKind, MessageKind, e_text};
use ox88::tui::settings::Settings;
use ox88::tui::theme::ColorDepth;
use ox88::tui::{Options, ui};

fn opts() -> Options {
    Options::of(Settings {
        ascii: true,
        depth: 5,
        ..Settings::default()
    })
}

fn app() -> App {
    common::app::app_of(&opts()).0
}

/// A real search of `board` to `depth` with `multipv` lines, its iterations tagged `id` as
/// if the app's engine had sent them.
fn real_search(board: &Board, id: u64, depth: u32, multipv: u32) -> Vec<SearchEvent> {
    let options = SearchOptions {
        own_book: false,
        hash_mb: 4,
        multipv,
        report_root_moves: true,
        ..SearchOptions::default()
    };
    let mut events = Vec::new();
    Searcher::standalone().search_sync(board, &Limits::depth(depth), &options, &mut |e| {
        if let SearchEvent::Iteration { info, .. } = e {
            events.push(SearchEvent::Iteration { id, info });
        }
    });
    events
}

/// The last exact report of line 1.
fn last_line(events: &[SearchEvent]) -> IterationInfo {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            SearchEvent::Iteration { info, .. }
                if info.multipv == 1 && info.bound == Bound::Exact =>
            {
                Some(info.clone())
            }
            _ => None,
        })
        .unwrap()
}

/// The engine (Black) answers `reply` after a real search of the position to `depth`.
fn engine_answers(app: &mut App, depth: u32, multipv: u32) -> IterationInfo {
    let id = app.session().search().expect("the engine thinks").id;
    let board = app.game().board().clone();
    let events = real_search(&board, id, depth, multipv);
    for e in &events {
        app.on_engine_event(e.clone());
    }
    let info = last_line(&events);
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: info.pv.first().copied(),
        ponder: None,
        book: None,
    });
    info
}

/// The sort pane's inner lines (between its borders).
fn sort_pane(lines: &[String]) -> Vec<String> {
    let top = lines.iter().position(|l| l.contains("┌ Sort ")).unwrap();
    let left = lines[top].chars().position(|c| c == '┌').unwrap();
    lines[top + 1..]
        .iter()
        .take_while(|l| l.chars().nth(left).is_none_or(|c| c != '└'))
        .map(|l| {
            let inner: String = l.chars().skip(left + 1).collect();
            inner.trim_end_matches('│').to_string()
        })
        .collect()
}

/// The board pane's lines under the squares (side to move, E, material, ...), trimmed.
fn board_info(lines: &[String], width: usize) -> Vec<String> {
    let files = lines
        .iter()
        .position(|l| {
            let inner: String = l.chars().skip(1).take(width).collect();
            inner
                .split_whitespace()
                .eq(["a", "b", "c", "d", "e", "f", "g", "h"])
        })
        .expect("the file letters");
    lines[files + 1..]
        .iter()
        .take_while(|l| !l.starts_with('└'))
        .map(|l| {
            let inner: String = l.chars().skip(1).take(width).collect();
            inner.trim_end().to_string()
        })
        .collect()
}

// ---- messages -----------------------------------------------------------------------------

#[test]
fn a_message_too_long_for_the_status_line_says_so_and_is_whole_in_the_log() {
    let mut app = app();
    enter(&mut app, ":fen r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    enter(&mut app, "O-O");
    let whole = app.message().expect("why O-O was refused").text.clone();
    assert!(whole.chars().count() > 80, "a long refusal: {whole}");
    let (lines, _) = common::render(&mut app, 80, 24);
    let line = lines[22].trim_end();
    assert!(line.ends_with("… (see log)"), "{line}");
    assert!(line.chars().count() <= 80);
    assert!(
        whole.starts_with(line.trim_end_matches("… (see log)")),
        "{line}"
    );
    let logged: Vec<_> = app
        .log_buffer()
        .lines()
        .filter(|l| l.text == whole)
        .collect();
    assert_eq!(logged.len(), 1, "once, whole, in the log");
    assert_eq!(logged[0].kind, LogKind::Error);
    // Redrawing does not log it again; a short message is shown whole and not logged.
    common::render(&mut app, 80, 24);
    let n = app.log_buffer().len();
    press(&mut app, KeyCode::F(6));
    let (lines, _) = common::render(&mut app, 80, 24);
    assert_eq!(lines[22].trim_end(), "depth 6");
    assert_eq!(app.log_buffer().len(), n);
}

#[test]
fn a_message_that_fits_until_the_screen_narrows_reaches_the_log_then() {
    let mut app = app();
    common::render(&mut app, 120, 40);
    let text = "x".repeat(100);
    app.info(text.clone());
    assert!(!log_texts(&app).contains(&text), "it fits at 120 columns");
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(lines[22].ends_with("… (see log)"), "{}", lines[22]);
    assert!(log_texts(&app).contains(&text));
}

#[test]
fn the_resume_question_shows_its_keys_at_80_and_at_60_columns() {
    let mut app = app();
    app.offer_resume(ox88::game::Game::new());
    let (lines, _) = common::render(&mut app, 80, 24);
    let question = app.message().unwrap().text.clone();
    assert_eq!(app.message().unwrap().kind, MessageKind::Question);
    assert_eq!(lines[22].trim_end(), question, "whole at 80 columns");
    assert!(
        question.contains("y resumes it, n sets it aside"),
        "{question}"
    );
    // A 60-column message line (drawn alone: the whole screen needs 80) still has the keys.
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(60, 1)).unwrap();
    term.draw(|f| ui::status::draw_message(f, f.area(), &app))
        .unwrap();
    let buf = term.backend().buffer().clone();
    let row: String = (0..60).map(|x| buf[(x, 0)].symbol().to_string()).collect();
    assert!(row.contains("y resumes it, n sets it aside"), "{row}");
    assert!(row.trim_end().ends_with("… (see log)"), "{row}");
}

#[test]
fn over_ssh_a_failed_load_is_logged_and_names_no_server_path() {
    let dir = common::TempDir::new("reading-paths");
    let root = dir.path().join("players").join("abc").join("saved");
    let store = ox88::game::autosave::Autosave::in_dir(dir.path().join("players").join("abc"));
    let (builder, _) = common::app::builder_with(&opts(), "default", ColorDepth::TrueColor);
    let mut app = builder
        .file_root(root.clone())
        .autosave(Some(store))
        .build();
    enter(&mut app, ":load /etc/hostname");
    let msg = app.message().expect("why the load failed").clone();
    assert_eq!(msg.kind, MessageKind::Error);
    assert!(msg.text.starts_with("hostname.pgn: "), "{}", msg.text);
    assert!(
        log_texts(&app).contains(&msg.text),
        "the failure is in the log"
    );
    enter(&mut app, "e2e4");
    enter(&mut app, ":save mine");
    assert_eq!(app.message().unwrap().text, "saved 1 move to mine.pgn");
    assert!(root.join("mine.pgn").is_file());
    // Nothing on screen or in the log names the server's directories.
    let (lines, _) = common::render(&mut app, 80, 24);
    let server = dir.path().display().to_string();
    for text in log_texts(&app).iter().chain(lines.iter()) {
        assert!(!text.contains(&server), "{text}");
    }
    // A path the app writes for the visitor's own directory is relative to it.
    app.error(format!(
        "autosave: {}: disk full",
        root.join("x.pgn").display()
    ));
    assert_eq!(
        app.message().unwrap().text,
        "autosave: saved/x.pgn: disk full"
    );
}

// ---- the sort pane ------------------------------------------------------------------------

#[test]
fn after_a_hint_the_sort_pane_names_the_side_whose_moves_it_lists() {
    let mut app = app();
    enter(&mut app, "e2e4");
    engine_answers(&mut app, 5, 1);
    assert_eq!(app.game().ply(), 2);
    // White to move; the pane still shows how the engine weighed Black's moves.
    press(&mut app, KeyCode::F(2));
    let id = app.session().search().expect("the hint's search").id;
    let board = app.game().board().clone();
    for e in real_search(&board, id, 5, 1) {
        app.on_engine_event(e);
    }
    let (lines, _) = common::render(&mut app, 80, 24);
    let pane = sort_pane(&lines);
    assert!(pane[0].starts_with("2. White  d5"), "{}", pane[0]);
    let legal: Vec<String> = board.legal_moves().iter().map(|m| m.to_string()).collect();
    let first_move = pane
        .iter()
        .find_map(|l| l.strip_prefix(" 1 "))
        .and_then(|l| l.split_whitespace().next())
        .expect("a first row");
    assert!(
        legal.contains(&first_move.to_string()),
        "the rows are White's moves: {first_move} {pane:?}"
    );
}

#[test]
fn with_two_lines_the_star_marks_the_move_the_engine_played() {
    let mut app = app();
    enter(&mut app, ":multipv 2");
    enter(&mut app, "e2e4");
    let info = engine_answers(&mut app, 6, 2);
    let played = info.pv[0];
    assert_eq!(app.game().moves()[1].mv, played);
    // The search's own rows mark its chosen move (line 1's), not line 2's.
    let best: Vec<Move> = info
        .root_rows
        .iter()
        .filter(|r| r.best)
        .map(|r| r.mv())
        .collect();
    assert_eq!(best, vec![played]);
    // The pane keeps the engine's rows after its move: `*` is on the move played.
    let kept: Vec<Move> = app
        .sort()
        .root_rows()
        .iter()
        .filter(|r| r.best)
        .map(|r| r.mv())
        .collect();
    assert_eq!(kept, vec![played]);
    let (lines, _) = common::render(&mut app, 120, 40);
    let starred: Vec<String> = sort_pane(&lines)
        .iter()
        .filter(|l| l.chars().nth(8) == Some('*'))
        .map(|l| {
            l.chars()
                .skip(3)
                .take(5)
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect();
    assert_eq!(starred, vec![played.to_string()], "{}", lines.join("\n"));
}

// ---- the board's E ------------------------------------------------------------------------

#[test]
fn the_board_names_its_e_static_beside_the_engines_score() {
    let mut app = app();
    let (lines, _) = common::render(&mut app, 80, 24);
    let e = e_text(evaluate_white(app.game().board(), &app.prefs().eval()));
    let info = board_info(&lines, 27);
    assert_eq!(info[0], "White to move");
    assert_eq!(info[1], format!("static E {e}"), "no engine score yet");
    assert!(info[2].starts_with("Material"), "{info:?}");

    enter(&mut app, "e2e4");
    // While the engine thinks, its newest score for this position stands beside E.
    let id = app.session().search().unwrap().id;
    let board = app.game().board().clone();
    let events = real_search(&board, id, 5, 1);
    for e in &events {
        app.on_engine_event(e.clone());
    }
    let reading = last_line(&events);
    let engine = format!("engine d5 {}", reading.score_white);
    let e = e_text(evaluate_white(&board, &app.prefs().eval()));
    let (lines, _) = common::render(&mut app, 80, 24);
    let info = board_info(&lines, 27);
    assert_eq!(
        info[1..3],
        [format!("static E {e}"), engine.clone()],
        "{info:?}"
    );
    // A wider board pane has room for both on one line.
    let (lines, _) = common::render(&mut app, 120, 40);
    let wide = board_info(&lines, 43);
    assert_eq!(wide[1], format!("static E {e} · {engine}"), "{wide:?}");

    // After the engine's move its note stays beside the new position's E.
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: reading.pv.first().copied(),
        ponder: None,
        book: None,
    });
    let e = e_text(evaluate_white(app.game().board(), &app.prefs().eval()));
    let (lines, _) = common::render(&mut app, 80, 24);
    let info = board_info(&lines, 27);
    assert_eq!(info[0], "White to move");
    assert_eq!(info[1..3], [format!("static E {e}"), engine], "{info:?}");
}
