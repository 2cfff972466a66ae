//! What the screen says, read as a newcomer reads it: messages whole (in the log when the
//! status line cuts them, never a server's paths over SSH), the sort pane naming the side
//! whose moves it lists and marking the move played, and the board's E beside the engine's score
//! beside the engine's own score. Drawn on ratatui's TestBackend; the engine is a recorder
//! fed with a real search's events, so nothing depends on timing.

use crate::common;

use common::app::{enter, log_texts, press};

use crossterm::event::KeyCode;
use ox88::chess::{Board, Color, Move};
use ox88::engine::eval::settled_white;
use ox88::engine::search::Searcher;
use ox88::engine::{Bound, IterationInfo, Limits, Score, SearchEvent, SearchOptions};
use ox88::tui::app::{App, LogKind, MessageKind, e_text};
use ox88::tui::settings::Settings;
use ox88::tui::theme::ColorDepth;
use ox88::tui::{Mode, Options, ui};

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
    common::screen_pane(lines, "┌ Sort ").unwrap().inner
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
    let top = common::screen_pane(&lines, "┌ Sort ").unwrap().top;
    assert!(top.starts_with(" Sort 2. White d5 "), "{top}");
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
        .panes()
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
fn the_board_names_its_e_beside_the_engines_score() {
    let mut app = app();
    let (lines, _) = common::render(&mut app, 80, 24);
    let e = e_text(settled_white(app.game().board(), &app.prefs().eval()));
    let info = board_info(&lines, 27);
    assert_eq!(info[0], "White to move");
    assert_eq!(info[1], format!("E {e}"), "no engine score yet");
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
    let e = e_text(settled_white(&board, &app.prefs().eval()));
    let (lines, _) = common::render(&mut app, 80, 24);
    let info = board_info(&lines, 27);
    assert_eq!(info[1], format!("E {e} · {engine}"), "{info:?}");
    // A wider board pane has them on one line too.
    let (lines, _) = common::render(&mut app, 120, 40);
    let wide = board_info(&lines, 43);
    assert_eq!(wide[1], format!("E {e} · {engine}"), "{wide:?}");

    // After the engine's move its note stays beside the new position's E.
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: reading.pv.first().copied(),
        ponder: None,
        book: None,
    });
    let e = e_text(settled_white(app.game().board(), &app.prefs().eval()));
    let (lines, _) = common::render(&mut app, 80, 24);
    let info = board_info(&lines, 27);
    assert_eq!(info[0], "White to move");
    assert_eq!(info[1], format!("E {e} · {engine}"), "{info:?}");
}

// ---- the numbers' words -------------------------------------------------------------------

/// The last report of line 1 (exact or a bound): what the app keeps as the search's last.
fn last_report(events: &[SearchEvent]) -> IterationInfo {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            SearchEvent::Iteration { info, .. } if info.multipv == 1 => Some(info.clone()),
            _ => None,
        })
        .unwrap()
}

/// A score from White's view with its bound as a move's log line writes it; `bound` is the
/// mover's, so with Black moving it turns round.
fn note(score_white: Score, bound: Bound, mover: Color, depth: u32) -> String {
    let sign = match (bound, mover) {
        (Bound::Exact, _) => "",
        (Bound::Lower, Color::White) | (Bound::Upper, Color::Black) => "≥ ",
        _ => "≤ ",
    };
    format!(" · search {sign}{score_white} d{depth}")
}

/// The engine's move: its line says the E of the position reached and, labelled
/// apart, the search's score; the saved PGN carries that score as the move's `[%eval]`.
#[test]
fn the_engines_move_is_logged_with_e_and_its_search_score_apart_and_saved_with_its_eval() {
    let mut app = app();
    enter(&mut app, "e2e4");
    let info = engine_answers(&mut app, 5, 1);
    let reply = info.pv[0];
    let e = e_text(settled_white(app.game().board(), &app.prefs().eval()));
    let san = app.game().numbered_san(1).unwrap();
    let expected = format!(
        "{san} ({reply})  E {e}{}",
        note(info.score_white, Bound::Exact, Color::Black, info.depth)
    );
    let log = log_texts(&app);
    assert!(log.contains(&expected), "{expected} in {log:?}");
    // The human's move had no search of its position: E alone.
    assert!(
        log.iter()
            .any(|l| l.starts_with("1. e4 (e2e4)  E ") && !l.contains("search")),
        "{log:?}"
    );
    let dir = common::TempDir::new("tui-eval-save");
    let file = dir.path().join("g.pgn");
    enter(&mut app, &format!(":save {}", file.display()));
    let text = std::fs::read_to_string(&file).unwrap();
    let back = ox88::game::Game::from_pgn(&text).unwrap();
    assert_eq!(
        back.moves()[1].annotations.eval,
        Some(info.score_white),
        "{text}"
    );
    assert_eq!(back.moves()[0].annotations.eval, None, "{text}");
    assert!(text.contains("[%eval "), "{text}");
}

/// In analysis, a move the search scored carries that score: the main line's when it was
/// the best move, its own row's bound when it was refuted (logged, never saved as an
/// evaluation: a bound is not one).
#[test]
fn in_analysis_a_move_the_search_scored_carries_its_score_or_its_bound() {
    let mut app = common::app::app_of(&Options {
        mode: Mode::Analysis,
        ..opts()
    })
    .0;
    let analyse = |app: &mut App| {
        let id = app.session().search().expect("the engine analyses").id;
        let board = app.game().board().clone();
        let events = real_search(&board, id, 5, 1);
        for e in &events {
            app.on_engine_event(e.clone());
        }
        last_report(&events)
    };
    let info = analyse(&mut app);
    let best = info.pv[0];
    enter(&mut app, &best.to_string());
    let e = e_text(settled_white(app.game().board(), &app.prefs().eval()));
    let san = app.game().numbered_san(0).unwrap();
    let expected = format!(
        "{san} ({best})  E {e}{}",
        note(info.score_white, info.bound, Color::White, info.depth)
    );
    assert!(log_texts(&app).contains(&expected), "{expected}");
    let eval = app.game().moves()[0].annotations.eval;
    if info.bound == Bound::Exact {
        assert_eq!(eval, Some(info.score_white));
    }

    // Black's turn: a move the search refuted reads as the bound its row proved.
    let info = analyse(&mut app);
    let refuted = info
        .root_rows
        .iter()
        .find(|r| !r.best && r.bound == Bound::Upper && r.score.is_some())
        .expect("a refuted root move");
    let m = refuted.mv();
    let score = refuted.score.unwrap().for_white(Color::Black);
    enter(&mut app, &m.to_string());
    let line = log_texts(&app)
        .into_iter()
        .rev()
        .find(|l| l.contains(&format!("({m})")))
        .unwrap();
    assert!(
        line.ends_with(&note(score, Bound::Upper, Color::Black, info.depth)),
        "{line}"
    );
    assert!(
        line.contains(" · search ≥ "),
        "White's view of Black's refuted move: {line}"
    );
    assert_eq!(app.game().moves()[1].annotations.eval, None);
}

/// At 80 columns the status line keeps the help key and the engine's state, shortening
/// the rest (a clock and a level make it long); a wide one says all.
#[test]
fn the_status_line_at_80_columns_keeps_f1_help_and_the_engines_state() {
    let mut app = app();
    enter(&mut app, ":tc 5+3");
    enter(&mut app, ":level club");
    enter(&mut app, "e2e4");
    let id = app.session().search().unwrap().id;
    let board = app.game().board().clone();
    for e in real_search(&board, id, 4, 1) {
        app.on_engine_event(e);
    }
    let (lines, _) = common::render(&mut app, 80, 24);
    let status = &lines[23];
    assert!(status.trim_end().ends_with("F1 help"), "{status}");
    assert!(status.contains("thinking d4"), "{status}");
    assert!(status.starts_with("Black"), "{status}");
    assert!(status.contains("level"), "{status}");
    let (lines, _) = common::render(&mut app, 160, 40);
    let status = &lines[39];
    for part in ["Black to move", "eval ", "order ", "thinking d4", "F1 help"] {
        assert!(status.contains(part), "{part}: {status}");
    }
}

/// The Material line counts the standard piece values by default and says so, named as the
/// width allows; the seed page's values (a bishop 4.5) are counted when chosen.
#[test]
fn the_material_line_counts_the_standard_values_unless_the_seed_values_are_chosen() {
    let mut app = app();
    let (lines, _) = common::render(&mut app, 80, 24);
    let info = board_info(&lines, 27);
    assert_eq!(info[2], "Material =  standard values", "{info:?}");
    let (lines, _) = common::render(&mut app, 120, 40);
    let info = board_info(&lines, 43);
    assert_eq!(
        info[2], "Material =  standard values P1 N3 B3 R5 Q9",
        "{info:?}"
    );
    // A bishop against a knight: level by the standard values, 1.50 up by the seed's.
    enter(&mut app, ":fen 1n2k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    let (lines, _) = common::render(&mut app, 120, 40);
    let info = board_info(&lines, 43);
    assert!(info[2].starts_with("Material = W:"), "{info:?}");
    assert!(info[2].contains("standard"), "{info:?}");
    enter(&mut app, ":set values seed");
    assert_eq!(app.prefs().settings().values.name(), "seed");
    let (lines, _) = common::render(&mut app, 120, 40);
    let info = board_info(&lines, 43);
    assert!(info[2].starts_with("Material +1.50 W:"), "{info:?}");
    assert!(info[2].contains("seed"), "{info:?}");
}

/// `?` with the sort pane focused shows what its numbers are in place, over the right-hand
/// side at 80×24 (the board stays); any key closes it. F1's help lists the same entries.
#[test]
fn a_focused_pane_explains_its_numbers_in_place_and_the_help_lists_them_all() {
    let mut app = app();
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(
        lines.iter().any(|l| l.contains("┌ Sort · ? legend ")),
        "the focused pane names its key:\n{}",
        lines.join("\n")
    );
    press(&mut app, KeyCode::Char('?'));
    assert!(!app.screen().help_visible(), "not the whole help");
    let (lines, _) = common::render(&mut app, 80, 24);
    let screen = lines.join("\n");
    assert!(screen.contains("Sort: the numbers"), "{screen}");
    for name in ["generator order", "order", "root table", "1st, 1st-cut"] {
        assert!(screen.contains(name), "{name}:\n{screen}");
    }
    assert!(lines[1].starts_with("│8"), "the board stays:\n{screen}");
    // ↓ scrolls to the later entries (cut@, q), another key closes.
    for _ in 0..40 {
        press(&mut app, KeyCode::Down);
    }
    let (lines, _) = common::render(&mut app, 80, 24);
    let screen = lines.join("\n");
    assert!(
        screen.contains("cut@") && screen.contains("q, qsearch"),
        "{screen}"
    );
    press(&mut app, KeyCode::Char('x'));
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(!lines.join("\n").contains("Sort: the numbers"));
    assert_eq!(app.input().value(), "", "the closing key typed nothing");

    let help: Vec<String> = ui::help::help_rows().into_iter().map(|(k, _)| k).collect();
    for name in ["E", "search", "chart", "cut@, cut index, idx", "q, qsearch"] {
        assert!(help.iter().any(|k| k == name), "{name}");
    }
    let full = ui::help::help_rows()
        .into_iter()
        .find(|(k, _)| k == "E")
        .unwrap()
        .1;
    assert!(
        full.contains("full") && full.contains("Captures in flight"),
        "{full}"
    );
}

#[test]
fn an_error_no_frame_has_shown_is_not_covered_by_information() {
    let mut app = app();
    app.error("the room is full");
    app.info("welcome back");
    assert_eq!(
        app.screen().message().map(|m| (m.kind, m.text.as_str())),
        Some((MessageKind::Error, "the room is full"))
    );
    assert!(
        log_texts(&app).iter().any(|l| l == "welcome back"),
        "the information is kept in the log: {:?}",
        log_texts(&app)
    );
    // Once drawn, the next message takes the line as usual.
    app.frame_drawn();
    app.info("your move");
    assert_eq!(
        app.screen().message().map(|m| m.text.as_str()),
        Some("your move")
    );
}

/// The log's legend (`?` on the log pane) says what a level's report is made of: its
/// budget, the value weighed and p; F1's help says what the status line's numbers are.
#[test]
fn the_log_legend_explains_the_levels_budget_weighed_and_p_and_the_help_the_status_line() {
    let mut app = app();
    common::render(&mut app, 120, 40);
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Char('?'));
    let (legend, _) = app.legend().expect("the log pane's legend");
    assert_eq!(legend.name(), "Log");
    let level = legend
        .entries()
        .into_iter()
        .find(|(name, _)| *name == "level")
        .expect("a level entry in the log's legend")
        .1;
    for part in [
        "budget",
        "weighed",
        "p, the chance",
        "think",
        "→",
        "White's view",
    ] {
        assert!(level.contains(part), "{part}: {level}");
    }
    // Scrolled down, the legend on screen shows the entry.
    let mut seen = false;
    for _ in 0..80 {
        press(&mut app, KeyCode::Down);
        let (lines, _) = common::render(&mut app, 120, 40);
        seen |= lines.join("\n").contains("level  a level below max");
    }
    assert!(seen, "the level entry on screen");
    press(&mut app, KeyCode::Esc);

    let status = ui::help::help_rows()
        .into_iter()
        .find(|(k, _)| k == "status line")
        .expect("the help explains the status line")
        .1;
    for part in ["W and B", "d10", "d7", "3:g1f3", "review"] {
        assert!(status.contains(part), "{part}: {status}");
    }
}
