//! Rendering tests on ratatui's TestBackend: the whole screen at 80×24 and 120×40 and each
//! pane, driven through the app's own entry points (keys and engine events), with a
//! recording engine so nothing depends on a search's timing.

use crate::common;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use common::app::{Call, Calls, enter, options_in, press, type_text};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ox88::chess::{Board, Move};
use ox88::engine::eval::{EvalConfig, settled_white};
use ox88::engine::order::{Reason, ReasonKind, ScoredMove};
use ox88::engine::{Bound, IterationInfo, Limits, Score, SearchEvent};
use ox88::tui::app::{App, Focus, MessageKind};
use ox88::tui::settings::Settings;
use ox88::tui::theme::{ColorDepth, Theme};
use ox88::tui::{Mode, Options, ui};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::{Color, Modifier};

fn app_with(opts: Options, theme: &str, depth: ColorDepth) -> (App, Calls) {
    let (builder, calls) = common::app::builder_with(&opts, theme, depth);
    (builder.build(), calls)
}

fn app() -> (App, Calls) {
    app_with(
        options_in(Mode::HumanWhite),
        "default",
        ColorDepth::TrueColor,
    )
}

/// Draws the app as the event loop does (the app learns the size, then draws, reading only).
fn screen(app: &mut App, w: u16, h: u16) -> (Vec<String>, ratatui::buffer::Buffer) {
    common::render(app, w, h)
}

fn mv(board: &Board, uci: &str) -> Move {
    board.parse_uci_move(uci).unwrap()
}

fn scored(mv: Move, score: i32, reasons: &[(ReasonKind, i32)]) -> ScoredMove {
    ScoredMove {
        mv,
        score,
        reasons: reasons
            .iter()
            .map(|&(kind, points)| Reason { kind, points })
            .collect(),
    }
}

/// The rows of the board pane's squares at the smallest scale (x 3.., 3 columns a square).
/// E of a position as the app shows it (the evaluation is another module's; these tests
/// check that it is shown, not its value).
fn e_of(board: &Board) -> String {
    ox88::tui::app::e_text(settled_white(board, &EvalConfig::default()))
}

fn board_rows(lines: &[String]) -> Vec<String> {
    lines[1..9]
        .iter()
        .map(|l| l.chars().skip(1).take(27).collect::<String>())
        .collect()
}

#[test]
fn start_screen_at_80x24() {
    let (mut app, calls) = app();
    let (lines, _) = screen(&mut app, 80, 24);
    assert_eq!(
        board_rows(&lines),
        vec![
            "8  r  n  b  q  k  b  n  r  ",
            "7  p  p  p  p  p  p  p  p  ",
            "6                          ",
            "5                          ",
            "4                          ",
            "3                          ",
            "2  P  P  P  P  P  P  P  P  ",
            "1  R  N  B  Q  K  B  N  R  ",
        ]
    );
    assert!(
        lines[9].starts_with("│   a  b  c  d  e  f  g  h"),
        "{}",
        lines[9]
    );
    let e = e_of(&Board::startpos());
    assert!(lines[10].starts_with("│White to move "), "{}", lines[10]);
    assert!(lines[11].starts_with(&format!("│E {e} ")), "{}", lines[11]);
    assert!(lines[12].starts_with("│Material ="), "{}", lines[12]);
    assert!(lines[0].starts_with("┌ Board ─"), "{}", lines[0]);
    assert!(
        lines[0][lines[0].find("┐").unwrap()..].contains("┌ Log "),
        "{}",
        lines[0]
    );
    // Input prompt, empty message line, status bar.
    assert!(
        lines[21].starts_with("> move (e2e4, Nf3) or :command"),
        "{}",
        lines[21]
    );
    assert_eq!(lines[22].trim(), "");
    assert!(
        lines[23]
            .starts_with("White to move │ you: White │ depth 5 │ eval net │ order modern │ idle"),
        "{}",
        lines[23]
    );
    // Human plays White: the engine was not started.
    assert!(calls.searches().is_empty());
}

#[test]
fn a_move_redraws_the_board_logs_it_and_starts_the_engine() {
    let (mut app, calls) = app();
    enter(&mut app, "e2e4");
    let (lines, _) = screen(&mut app, 80, 24);
    let rows = board_rows(&lines);
    assert_eq!(rows[4], "4              P           ");
    assert_eq!(rows[6], "2  P  P  P  P     P  P  P  ");
    assert!(lines[10].starts_with("│Black to move"), "{}", lines[10]);
    assert!(
        lines.iter().any(|l| l.contains("1.e4")),
        "move list shows 1.e4"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("│12:00:00 1. e4 (e2e4)  E ")),
        "log shows the move with a stamp:\n{}",
        lines.join("\n")
    );
    assert_eq!(app.input().value(), "", "a played move clears the input");
    let go = calls.searches().first().cloned().unwrap();
    assert_eq!(
        (go.fen, go.limits, go.options.report_root_moves),
        (app.game().board().to_fen(), Limits::depth(5), true)
    );
    assert!(lines[23].contains("│ thinking"), "{}", lines[23]);
}

fn iteration(board: &Board, id: u64, depth: u32) -> SearchEvent {
    let e7e5 = mv(board, "e7e5");
    let g8f6 = mv(board, "g8f6");
    let b8c6 = mv(board, "b8c6");
    let mut after = board.clone();
    after.make(e7e5);
    let g1f3 = mv(&after, "g1f3");
    SearchEvent::Iteration {
        id,
        info: IterationInfo {
            seldepth: depth + 5,
            score: Score::Cp(-29),
            nodes: 1_234_567,
            nps: 812_345,
            time: Duration::from_millis(1520),
            hashfull: 12,
            root_moves: vec![
                scored(e7e5, 10_000, &[(ReasonKind::Pv, 10_000)]),
                scored(g8f6, 120, &[(ReasonKind::History, 120)]),
                scored(b8c6, 40, &[(ReasonKind::History, 40)]),
            ],
            first_move_cutoff: 0.913,
            branching: 3.24,
            ..common::iteration(depth, Score::Cp(29), vec![e7e5, g1f3])
        },
    }
}

#[test]
fn engine_events_fill_log_and_sort_pane_then_its_move_is_played() {
    let (mut app, _calls) = app();
    enter(&mut app, "e2e4");
    let board = app.game().board().clone();
    let id = app.session().search().unwrap().id;
    app.on_engine_event(iteration(&board, id, 7));
    let (lines, _) = screen(&mut app, 80, 24);
    let all = lines.join("\n");
    assert_eq!(
        app.log_buffer().last().unwrap().text,
        "d7/12 1.520s 1,234,567 n 812,345 n/s E +0.29 pv e7e5 g1f3"
    );
    // At 80 columns the log line wraps under its time stamp.
    assert!(
        all.contains("│12:00:00 d7/12 1.520s 1,234,567 n 812,345 n/s E  │"),
        "{all}"
    );
    assert!(all.contains("│         +0.29 pv e7e5 g1f3 "), "{all}");
    // The sort pane: the summary and the PV in its frame, one line of column heads, and
    // the search's order on the right.
    assert!(
        all.contains("┌ Sort 1... Black d7 modern 1st 91% ebf 3.2 "),
        "{all}"
    );
    let sort_top = lines.iter().position(|l| l.contains("┌ Sort ")).unwrap();
    let frame = common::screen_pane(&lines, "┌ Sort ").unwrap();
    assert!(
        frame.bottom.starts_with(" PV e7e5 g1f3 "),
        "{}",
        frame.bottom
    );
    assert!(
        lines[sort_top + 1].contains("generator order")
            && lines[sort_top + 1].contains("search order")
    );
    let first = &lines[sort_top + 2];
    assert!(first.ends_with("│ 1 e7e5   10000 PV+10000│"), "{first}");
    // Generator order lists all 20 replies; the searched scores are carried over.
    assert_eq!(app.panes().sort().generated().len(), 20);
    assert_eq!(
        app.panes()
            .sort()
            .generated()
            .iter()
            .find(|m| m.mv == mv(&board, "g8f6"))
            .unwrap()
            .score,
        120
    );
    // Status shows the depth reached.
    assert!(lines[23].contains("thinking d7"), "{}", lines[23]);

    // A stale id is ignored; the right one plays.
    app.on_engine_event(SearchEvent::BestMove {
        id: id + 100,
        best: Some(mv(&board, "b8c6")),
        ponder: None,
        book: None,
    });
    assert_eq!(app.game().ply(), 1);
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: Some(mv(&board, "e7e5")),
        ponder: None,
        book: None,
    });
    let (lines, _) = screen(&mut app, 80, 24);
    assert_eq!(board_rows(&lines)[3], "5              p           ");
    let e = e_of(app.game().board());
    assert!(
        lines
            .join("\n")
            .contains(&format!("1...e5 (e7e5)  E {e} · search +0.29 d7"))
    );
    assert!(
        lines[23].ends_with("idle │ F1 help ") || lines[23].contains("│ idle"),
        "{}",
        lines[23]
    );
    assert!(app.session().search().is_none());
}

#[test]
fn book_moves_are_logged_with_the_opening_name() {
    let (mut app, _) = app();
    enter(&mut app, "e2e4");
    let id = app.session().search().unwrap().id;
    let board = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: Some(mv(&board, "c7c5")),
        ponder: None,
        book: Some("Sicilian Defence".into()),
    });
    let (lines, _) = screen(&mut app, 120, 40);
    let e = e_of(app.game().board());
    assert!(
        lines
            .join("\n")
            .contains(&format!("1...c5 (c7c5)  E {e}  book: Sicilian Defence"))
    );
    assert!(lines[39].contains("│ book"), "{}", lines[39]);
}

#[test]
fn an_illegal_move_keeps_the_text_and_the_board_and_says_why() {
    let (mut app, calls) = app();
    let (before, _) = screen(&mut app, 80, 24);
    enter(&mut app, "e2e5");
    let (lines, buf) = screen(&mut app, 80, 24);
    assert_eq!(*app.game().board(), Board::startpos(), "position unchanged");
    // The kept text still marks e2's legal targets (the suggestion, on the board).
    let pieces_only = |rows: Vec<String>| {
        rows.into_iter()
            .map(|r| r.replace('.', " "))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        pieces_only(board_rows(&lines)),
        board_rows(&before),
        "pieces unchanged"
    );
    assert_eq!(board_rows(&lines)[4], "4              .           ");
    assert!(
        lines[21].starts_with("> e2e5 "),
        "input keeps the text: {}",
        lines[21]
    );
    let msg = lines[22].trim_end();
    assert!(msg.starts_with("e2e5"), "{msg}");
    assert!(
        msg.contains("e3") && msg.contains("e4"),
        "suggests the pawn's moves: {msg}"
    );
    assert_eq!(app.message().unwrap().kind, MessageKind::Error);
    assert_eq!(buf[(0, 22)].fg, app.theme().error);
    assert!(buf[(0, 22)].modifier.contains(Modifier::BOLD));
    assert!(calls.all().is_empty());
    // Editing the kept text and entering again works.
    press(&mut app, KeyCode::Backspace);
    enter(&mut app, "4");
    assert_eq!(app.game().ply(), 1);
    // Garbage is a syntax error, also kept.
    let (mut app, _) = self::app();
    enter(&mut app, "z9z9");
    assert_eq!(app.input().value(), "z9z9");
    assert!(app.message().unwrap().text.contains("z9"));
}

#[test]
fn san_input_is_accepted() {
    let (mut app, _) = app_with(
        Options {
            settings: Settings {
                ascii: true,
                ..Settings::default()
            },
            mode: Mode::HumanHuman,
            ..Options::default()
        },
        "default",
        ColorDepth::TrueColor,
    );
    for m in ["Nf3", "d5", "g3", "Nc6", "Bg2", "e5", "O-O"] {
        enter(&mut app, m);
        assert_eq!(app.input().value(), "", "{m}: {:?}", app.message());
    }
    let (lines, _) = screen(&mut app, 80, 24);
    assert_eq!(board_rows(&lines)[7], "1  R  N  B  Q     R  K     ");
    let all = lines.join("\n");
    assert!(all.contains("1.Nf3 d5 2.g3 Nc6 3.Bg2 e5"), "{all}");
    assert!(all.contains("4.O-O"), "{all}");
}

#[test]
fn depth_keys_change_the_status_bar() {
    let (mut app, _) = app();
    type_text(&mut app, "+");
    assert_eq!(
        app.prefs().settings().depth,
        6,
        "'+' on an empty input raises the depth"
    );
    assert_eq!(app.input().value(), "");
    app.handle_key(KeyEvent::new(KeyCode::Up, KeyModifiers::CONTROL));
    let (lines, _) = screen(&mut app, 80, 24);
    assert!(lines[23].contains("│ depth 7 │"), "{}", lines[23]);
    assert!(lines[22].starts_with("depth 7"), "{}", lines[22]);
    // With text in the input '-' is typed, F5 still works.
    type_text(&mut app, "e2-");
    assert_eq!(app.input().value(), "e2-");
    press(&mut app, KeyCode::F(5));
    assert_eq!(app.prefs().settings().depth, 6);
    press(&mut app, KeyCode::Esc);
    enter(&mut app, ":depth 12");
    assert_eq!(app.prefs().settings().depth, 12, "{:?}", app.message());
}

#[test]
fn typing_a_from_square_marks_it_and_its_targets() {
    let (mut app, _) = app_with(Options::default(), "default", ColorDepth::TrueColor);
    type_text(&mut app, "g1");
    let (lines, buf) = screen(&mut app, 80, 24);
    // g1 is file 6 of rank 1 (row 8 on screen), its centre at x = 3 + 6*3 + 1.
    let t = app.theme().clone();
    assert_eq!(buf[(22, 8)].bg, t.selected, "g1 selected");
    // f3 and h3: empty targets get a dot in the target colour.
    assert_eq!(buf[(19, 6)].symbol(), "·");
    assert_eq!(buf[(25, 6)].symbol(), "·");
    assert_eq!(buf[(19, 6)].bg, t.target);
    assert_eq!(buf[(18, 6)].bg, t.target, "the whole target square");
    // e3 is not a knight target.
    assert_eq!(buf[(16, 6)].symbol(), " ");
    assert!(lines[21].starts_with("› g1"), "{}", lines[21]);
    // SAN: a piece letter marks every piece of that kind that can move, and where.
    press(&mut app, KeyCode::Esc);
    type_text(&mut app, "N");
    let (_, buf) = screen(&mut app, 80, 24);
    for x in [7, 22] {
        assert_eq!(buf[(x, 8)].bg, t.selected, "b1 and g1 knights");
    }
    for x in [4, 10, 19, 25] {
        assert_eq!(buf[(x, 6)].bg, t.target, "a3, c3, f3, h3");
    }
    // A complete SAN move marks just its two squares.
    type_text(&mut app, "c3");
    let (_, buf) = screen(&mut app, 80, 24);
    assert_eq!(buf[(7, 8)].bg, t.selected);
    assert_eq!(
        buf[(22, 8)].bg,
        app.theme().dark,
        "g1 (dark) no longer marked"
    );
    assert_eq!(buf[(10, 6)].bg, t.target);
    assert_eq!(
        buf[(19, 6)].bg,
        app.theme().light,
        "f3 (light) no longer marked"
    );
}

#[test]
fn last_move_and_check_are_highlighted() {
    let (mut app, _) = app_with(
        Options {
            mode: Mode::HumanHuman,
            ..Options::default()
        },
        "default",
        ColorDepth::TrueColor,
    );
    for m in ["e2e4", "f7f6", "d2d4", "g7g5", "d1h5"] {
        enter(&mut app, m);
    }
    let (lines, buf) = screen(&mut app, 80, 24);
    let t = &app.theme();
    // h5 (file 7, rank 5 → row 4) holds the queen that just moved; e8 king in check.
    assert_eq!(buf[(25, 4)].bg, t.last_move);
    assert_eq!(
        buf[(25, 4)].symbol(),
        "♛",
        "filled glyphs for both sides with colour"
    );
    assert_eq!(buf[(25, 4)].fg, t.white_piece);
    assert_eq!(buf[(16, 1)].bg, t.check);
    assert_eq!(buf[(16, 1)].symbol(), "♚");
    // 3.Qh5 is mate (the fool's mate with colours reversed): announced under the board,
    // in the log and on the status bar.
    assert!(lines[10].starts_with("│1-0 White mates"), "{}", lines[10]);
    assert!(lines.join("\n").contains("12:00:00 1-0 White mates"));
    assert!(lines[23].starts_with("1-0 │"), "{}", lines[23]);
    enter(&mut app, "a7a6");
    assert!(app.message().unwrap().text.contains("game is over"));
}

#[test]
fn without_colour_marks_use_brackets_and_reverse_video() {
    let (mut app, _) = app_with(
        Options {
            mode: Mode::HumanHuman,
            ..Options::default()
        },
        "default",
        ColorDepth::None,
    );
    enter(&mut app, "e2e4");
    let (lines, buf) = screen(&mut app, 80, 24);
    // e4 (file 4) on row 5: "(♙)" — outline glyph for White without colour.
    let row: String = lines[5].chars().skip(3).take(24).collect();
    assert_eq!(row, "            (♙)         ");
    let row: String = lines[7].chars().skip(3).take(24).collect();
    assert_eq!(row, " ♙  ♙  ♙  ♙ ( ) ♙  ♙  ♙ ");
    // a1 is dark: reverse video; b1 light: not.
    assert!(buf[(4, 8)].modifier.contains(Modifier::REVERSED));
    assert!(!buf[(7, 8)].modifier.contains(Modifier::REVERSED));
    for y in 0..24 {
        for x in 0..80 {
            let c = &buf[(x, y)];
            assert!(
                c.fg == Color::Reset && c.bg == Color::Reset,
                "colour at {x},{y}"
            );
        }
    }
}

#[test]
fn flip_turns_the_board() {
    let (mut app, _) = app();
    app.handle_key(KeyEvent::new(KeyCode::Char('f'), KeyModifiers::CONTROL));
    let (lines, _) = screen(&mut app, 80, 24);
    assert_eq!(board_rows(&lines)[0], "1  R  N  B  K  Q  B  N  R  ");
    assert!(
        lines[9].starts_with("│   h  g  f  e  d  c  b  a"),
        "{}",
        lines[9]
    );
}

#[test]
fn whole_screen_at_120x40_scales_the_board_up() {
    let (mut app, _) = app();
    enter(&mut app, "d2d4");
    let (lines, _) = screen(&mut app, 120, 40);
    // Squares are 5×2: rank 8 spans rows 1-2, its label on the second row.
    assert_eq!(
        lines[2].chars().skip(1).take(43).collect::<String>(),
        "8   r    n    b    q    k    b    n    r   "
    );
    assert_eq!(
        lines[1].chars().skip(1).take(43).collect::<String>(),
        "                                           "
    );
    assert_eq!(
        lines[14].chars().skip(1).take(43).collect::<String>(),
        "2   P    P    P         P    P    P    P   "
    );
    assert_eq!(
        lines[10].chars().skip(1).take(43).collect::<String>(),
        "4                  P                       "
    );
    assert!(
        lines[17].starts_with("│    a    b    c    d    e    f    g    h"),
        "{}",
        lines[17]
    );
    assert!(lines[18].starts_with("│Black to move"), "{}", lines[18]);
    assert!(
        lines[39].starts_with("Black to move │ you: White │ depth 5 │"),
        "{}",
        lines[39]
    );
    assert!(lines[39].trim_end().ends_with("F1 help"), "{}", lines[39]);
    assert!(lines.join("\n").contains("1. d4 (d2d4)"));
}

#[test]
fn too_small_a_terminal_says_so() {
    let (mut app, _) = app();
    let (lines, _) = screen(&mut app, 60, 20);
    let all = lines.join("\n");
    assert!(all.contains("terminal too small"), "{all}");
    assert!(all.contains("60×20, need 80×24"), "{all}");
    let (lines, _) = screen(&mut app, 80, 23);
    assert!(lines.join("\n").contains("80×23, need 80×24"));
}

#[test]
fn help_overlay_lists_the_key_table() {
    let (mut app, _) = app();
    type_text(&mut app, "?");
    assert!(app.screen().help_visible());
    let (lines, _) = screen(&mut app, 120, 40);
    let all = lines.join("\n");
    assert!(all.contains("Keys and commands"), "{all}");
    assert!(
        all.contains("F6, Ctrl+↑, + (empty input)") && all.contains("search one ply deeper"),
        "{all}"
    );
    // The last rows (quit among them) are a scroll away at this size.
    let mut all = all;
    for _ in 0..40 {
        if all.contains("Ctrl+C") {
            break;
        }
        press(&mut app, KeyCode::Down);
        all = screen(&mut app, 120, 40).0.join("\n");
    }
    assert!(all.contains("Ctrl+C") && all.contains("quit"), "{all}");
    press(&mut app, KeyCode::Esc);
    assert!(!app.screen().help_visible());
}

#[test]
fn log_scrolls_and_keeps_the_whole_session() {
    let (mut app, _) = app_with(
        Options {
            settings: Settings {
                ascii: true,
                ..Settings::default()
            },
            mode: Mode::HumanHuman,
            ..Options::default()
        },
        "default",
        ColorDepth::TrueColor,
    );
    let moves = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for _ in 0..3 {
        for m in moves {
            enter(&mut app, m);
        }
        if app.game().result().is_some() {
            break;
        }
    }
    // Threefold repetition ends the game after two cycles (the start position thrice).
    assert_eq!(app.game().result().map(|r| r.result()), Some("1/2-1/2"));
    assert!(
        app.log_buffer()
            .lines()
            .any(|l| l.text.contains("threefold repetition"))
    );
    let (lines, _) = screen(&mut app, 80, 24);
    let log_bottom: Vec<&String> = lines.iter().filter(|l| l.contains("12:00:00")).collect();
    assert!(
        log_bottom
            .last()
            .unwrap()
            .contains("1/2-1/2 threefold repetition")
    );
    // Scroll to the top of the log: the greeting appears, the result line does not.
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.screen().focus(), ox88::tui::pane::log::FOCUS);
    for _ in 0..10 {
        press(&mut app, KeyCode::PageUp);
        let _ = screen(&mut app, 80, 24);
    }
    let (lines, _) = screen(&mut app, 80, 24);
    let log_pane: Vec<String> = lines[..10]
        .iter()
        .map(|l| l.chars().skip(29).collect())
        .collect();
    let all = log_pane.join("\n");
    assert!(all.contains("12:00:00 ox88"), "{all}");
    assert!(all.contains("newer rows"), "{all}");
    assert!(!all.contains("threefold"), "{all}");
    // End follows the newest line again; Home goes straight back to the top.
    press(&mut app, KeyCode::End);
    let (lines, _) = screen(&mut app, 80, 24);
    let log_pane: Vec<String> = lines[..10]
        .iter()
        .map(|l| l.chars().skip(29).collect())
        .collect();
    assert!(log_pane.join("\n").contains("threefold"));
    press(&mut app, KeyCode::Home);
    let _ = screen(&mut app, 80, 24);
    let (lines, _) = screen(&mut app, 80, 24);
    let log_pane: Vec<String> = lines[..10]
        .iter()
        .map(|l| l.chars().skip(29).collect())
        .collect();
    assert!(log_pane.join("\n").contains("12:00:00 ox88"));
}

#[test]
fn commands_complete_and_run() {
    let (mut app, _) = app();
    type_text(&mut app, ":ev");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.input().value(), ":eval ");
    type_text(&mut app, "mat");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.input().value(), ":eval material");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.prefs().settings().eval.to_string(), "material");
    enter(&mut app, ":order seed");
    let (lines, _) = screen(&mut app, 80, 24);
    assert!(
        lines[23].contains("│ eval material │ order seed │"),
        "{}",
        lines[23]
    );
    enter(&mut app, ":bogus");
    assert_eq!(app.input().value(), ":bogus");
    assert!(
        app.message()
            .as_ref()
            .unwrap()
            .text
            .contains("no such command")
    );
    press(&mut app, KeyCode::Esc);
    enter(&mut app, ":fen 8/8/8/4k3/8/8/8/4K2R w K - 0 1");
    assert_eq!(
        app.game().board().to_fen(),
        "8/8/8/4k3/8/8/8/4K2R w K - 0 1"
    );
    enter(&mut app, ":fen");
    assert_eq!(
        app.message().unwrap().text,
        "8/8/8/4k3/8/8/8/4K2R w K - 0 1"
    );
    enter(&mut app, ":fen not a fen");
    assert_eq!(app.message().unwrap().kind, MessageKind::Error);
    assert_eq!(
        app.game().board().to_fen(),
        "8/8/8/4k3/8/8/8/4K2R w K - 0 1"
    );
    // Up recalls earlier input.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.input().value(), ":fen not a fen");
    press(&mut app, KeyCode::Up);
    assert_eq!(app.input().value(), ":fen");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.input().value(), "");
}

#[test]
fn undo_against_the_engine_takes_back_both_moves_and_drops_the_stale_search() {
    let (mut app, calls) = app();
    enter(&mut app, "e2e4");
    let id = app.session().search().unwrap().id;
    let board = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: Some(mv(&board, "e7e5")),
        ponder: None,
        book: None,
    });
    enter(&mut app, "g1f3");
    let id2 = app.session().search().unwrap().id;
    app.handle_key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    // The engine was thinking on move 2: only the human's g1f3 goes; White to move again.
    assert_eq!(app.game().ply(), 2);
    assert_eq!(
        app.message().unwrap().text,
        "took back 2. Nf3 (Ctrl+Y replays)",
        "the move as a person writes it"
    );
    assert!(calls.contains(&Call::Stop));
    let b = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id: id2,
        best: Some(Move::NONE),
        ponder: None,
        book: None,
    });
    assert_eq!(
        *app.game().board(),
        b,
        "the stopped search's answer is dropped"
    );
    app.handle_key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    assert_eq!(app.game().ply(), 0, "e5 and e4 taken back together");
    assert_eq!(
        app.message().unwrap().text,
        "took back 1. e4 e5 (Ctrl+Y replays)"
    );
    app.handle_key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::CONTROL));
    assert_eq!(app.message().unwrap().text, "replayed 1. e4 e5");
    app.handle_key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    let (lines, _) = screen(&mut app, 80, 24);
    assert_eq!(board_rows(&lines)[6], "2  P  P  P  P  P  P  P  P  ");
}

#[test]
fn mono_theme_and_sixteen_colours_render() {
    let (mut app, _) = app_with(Options::default(), "mono", ColorDepth::TrueColor);
    let (lines, buf) = screen(&mut app, 80, 24);
    assert_eq!(
        lines[1].chars().skip(3).take(24).collect::<String>(),
        " ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜ "
    );
    assert_eq!(
        lines[8].chars().skip(3).take(24).collect::<String>(),
        " ♖  ♘  ♗  ♕  ♔  ♗  ♘  ♖ "
    );
    assert!(buf[(4, 8)].modifier.contains(Modifier::REVERSED), "a1 dark");
    let (mut app, _) = app_with(Options::default(), "light", ColorDepth::Ansi16);
    let (_, buf) = screen(&mut app, 80, 24);
    let is16 = |c: Color| !matches!(c, Color::Rgb(..) | Color::Indexed(_));
    for y in 0..24 {
        for x in 0..80 {
            assert!(
                is16(buf[(x, y)].fg) && is16(buf[(x, y)].bg),
                "16 colours only at {x},{y}"
            );
        }
    }
}

/// What a terminal shows of a cell's colours: after reverse video, with the terminal's own
/// foreground and background (`Reset`) kept apart from the colours a theme names.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shown {
    TerminalFg,
    TerminalBg,
    Named(Color),
}

/// (foreground, background) as shown.
fn shown(cell: &ratatui::buffer::Cell) -> (Shown, Shown) {
    let fg = match cell.fg {
        Color::Reset => Shown::TerminalFg,
        c => Shown::Named(c),
    };
    let bg = match cell.bg {
        Color::Reset => Shown::TerminalBg,
        c => Shown::Named(c),
    };
    if cell.modifier.contains(Modifier::REVERSED) {
        (bg, fg)
    } else {
        (fg, bg)
    }
}

/// Sure to stand apart on any terminal: the terminal's own pair, or two different named
/// colours. A named colour on the terminal's own colour is not (black pieces on a dark
/// terminal's background vanish).
fn stands_apart(fg: Shown, bg: Shown) -> bool {
    match (fg, bg) {
        (Shown::Named(a), Shown::Named(b)) => a != b,
        (Shown::Named(_), _) | (_, Shown::Named(_)) => false,
        (a, b) => a != b,
    }
}

/// Every piece on the 80×24 board (squares 3 columns wide, one row high) in a colour that
/// differs from its square's, highlights included.
fn assert_pieces_stand_apart(app: &mut App, what: &str) {
    let (lines, buf) = screen(app, 80, 24);
    let board = app.game().board().clone();
    for rank in 0..8u8 {
        for file in 0..8u8 {
            let Some(piece) = board.piece_at(ox88::chess::Square::new(file, rank)) else {
                continue;
            };
            let (x, y) = (4 + 3 * u16::from(file), 8 - u16::from(rank));
            let cell = &buf[(x, y)];
            assert_ne!(
                cell.symbol(),
                " ",
                "{what}: no piece drawn at {x},{y}:\n{}",
                lines.join("\n")
            );
            let (fg, bg) = shown(cell);
            assert!(
                stands_apart(fg, bg),
                "{what}: {piece:?} on file {file} rank {rank} shows {fg:?} on {bg:?}"
            );
        }
    }
}

#[test]
fn in_every_colour_mode_and_theme_a_piece_differs_from_its_square() {
    use strum::VariantArray;
    // A user theme whose white pieces have the light squares' colour.
    let same = "base = \"default\"\n[board]\nwhite_piece = \"#b39572\"\n";
    for depth in ColorDepth::VARIANTS.iter().copied() {
        let mut themes: Vec<(String, Theme)> = ["default", "light", "high-contrast", "mono"]
            .iter()
            .map(|n| (n.to_string(), Theme::builtin(n, depth).unwrap()))
            .collect();
        themes.push((
            "user".into(),
            Theme::parse(same, "same.toml", depth, 0).unwrap(),
        ));
        for (name, theme) in themes {
            for ascii in [false, true] {
                let opts = Options {
                    mode: Mode::HumanHuman,
                    settings: Settings {
                        ascii,
                        ..Settings::default()
                    },
                    ..Options::default()
                };
                let (builder, _) = common::app::builder_with(&opts, "default", depth);
                let mut app = builder.theme(theme.clone(), depth).build();
                let what = format!("{name} at {depth} colours, ascii {ascii}");
                assert_pieces_stand_apart(&mut app, &what);
                // The last move's squares, and a typed move's piece and the piece it takes.
                enter(&mut app, "e2e4");
                enter(&mut app, "d7d5");
                type_text(&mut app, "e4");
                assert_pieces_stand_apart(&mut app, &format!("{what}, e4 typed"));
                press(&mut app, KeyCode::Esc);
                // Check: 1.e4 d5 2.Bb5+.
                enter(&mut app, "f1b5");
                assert_pieces_stand_apart(&mut app, &format!("{what}, in check"));
            }
        }
    }
}

/// Not a check: prints both screens after a few moves (`cargo test --test tui render:: -- --ignored --nocapture`).
#[test]
#[ignore]
fn print_screens() {
    let (mut app, _) = app_with(Options::default(), "default", ColorDepth::TrueColor);
    enter(&mut app, "e2e4");
    let board = app.game().board().clone();
    let id = app.session().search().unwrap().id;
    app.on_engine_event(iteration(&board, id, 7));
    for (w, h) in [(80, 24), (120, 40)] {
        let (lines, _) = screen(&mut app, w, h);
        println!("{}", lines.join("\n"));
    }
    for (k, d) in ui::help::help_rows() {
        println!("| {k} | {d} |");
    }
}

// ---- games: modes, clocks, PGN, autosave ---------------------------------------------------

fn human_human() -> (App, Calls) {
    app_with(
        Options {
            settings: Settings {
                ascii: true,
                ..Settings::default()
            },
            mode: Mode::HumanHuman,
            ..Options::default()
        },
        "default",
        ColorDepth::TrueColor,
    )
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("ox88-tui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn gos(calls: &Calls) -> Vec<Limits> {
    calls.searches().into_iter().map(|go| go.limits).collect()
}

#[test]
fn every_move_is_autosaved_and_offered_for_resuming() {
    use ox88::game::autosave::Autosave;
    let dir = temp_dir("resume");
    let saving_app = || {
        let opts = Options {
            settings: Settings {
                ascii: true,
                ..Settings::default()
            },
            mode: Mode::HumanHuman,
            ..Options::default()
        };
        let (builder, _) = common::app::builder_with(&opts, "default", ColorDepth::TrueColor);
        builder.autosave(Some(Autosave::in_dir(&dir))).build()
    };
    let mut app = saving_app();
    for m in ["e2e4", "c7c5", "Nf3"] {
        enter(&mut app, m);
    }
    let saved = Autosave::in_dir(&dir)
        .load_unfinished()
        .unwrap()
        .expect("an unfinished game");
    assert_eq!(saved.sans(), vec!["e4", "c5", "Nf3"]);

    // A new session finds it and asks; 'y' resumes it.
    let mut next = saving_app();
    next.offer_resume(saved.clone());
    let (lines, _) = screen(&mut next, 80, 24);
    assert!(
        lines[22].starts_with("Unfinished game: y resumes it, n sets it aside (2 moves"),
        "{}",
        lines[22]
    );
    type_text(&mut next, "x");
    assert!(
        next.play().prompt().is_some(),
        "other keys leave the question open"
    );
    type_text(&mut next, "y");
    assert_eq!(next.game().sans(), vec!["e4", "c5", "Nf3"]);
    assert_eq!(next.side_to_move(), ox88::chess::Color::Black);

    // Another session declines: the game is set aside in games/, not lost.
    let mut third = saving_app();
    third.offer_resume(saved);
    type_text(&mut third, "n");
    assert!(Autosave::in_dir(&dir).load_unfinished().unwrap().is_none());
    let archived: Vec<_> = std::fs::read_dir(dir.join("games")).unwrap().collect();
    assert_eq!(archived.len(), 1);
    assert!(third.message().unwrap().text.contains("kept in"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_and_load_pgn_and_a_bad_file_keeps_the_game() {
    let dir = temp_dir("pgn");
    let file = dir.join("g.pgn");
    let (mut app, _) = human_human();
    for m in ["d4", "d5", "c4", "e6", "Nc3", "Nf6"] {
        enter(&mut app, m);
    }
    enter(&mut app, &format!(":save {}", file.display()));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("1. d4 d5 2. c4 e6 3. Nc3 Nf6"), "{text}");
    assert!(text.contains("[Result \"*\"]"), "{text}");
    enter(&mut app, ":new");
    assert_eq!(app.game().ply(), 0);
    enter(&mut app, &format!(":load {}", file.display()));
    assert_eq!(
        app.game().sans(),
        vec!["d4", "d5", "c4", "e6", "Nc3", "Nf6"]
    );
    assert_eq!(app.input().value(), "");

    std::fs::write(&file, "[Event \"x\"]\n\n1. e4 e5 2. Qxf7 *\n").unwrap();
    enter(&mut app, &format!(":load {}", file.display()));
    let msg = app.message().unwrap();
    assert_eq!(msg.kind, MessageKind::Error);
    assert!(
        msg.text.contains("line 3") && msg.text.contains("current game is kept"),
        "{}",
        msg.text
    );
    assert_eq!(app.game().ply(), 6, "the game is untouched");
    assert!(
        app.input().value().starts_with(":load"),
        "the command stays for editing"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_time_control_shows_clocks_and_reaches_the_engine() {
    let (mut app, calls) = app();
    enter(&mut app, ":tc 5+3");
    let (lines, _) = screen(&mut app, 120, 40);
    // White's clock runs (bracketed).
    assert!(lines[39].contains("│ [W 5:00] B 5:00 │"), "{}", lines[39]);
    enter(&mut app, "e2e4");
    let limits = gos(&calls).pop().unwrap();
    assert_eq!(limits.depth, Some(5));
    assert_eq!(limits.winc, Some(Duration::from_secs(3)));
    let b = limits.btime.unwrap();
    assert!(
        b > Duration::from_secs(299) && b <= Duration::from_secs(300),
        "Black's clock just started: {b:?}"
    );
    let w = limits.wtime.unwrap();
    assert!(
        w > Duration::from_secs(300) && w <= Duration::from_secs(303),
        "White's increment: {w:?}"
    );
    let (lines, _) = screen(&mut app, 120, 40);
    assert!(lines[39].contains("│ W 5:03 [B 5:00] │"), "{}", lines[39]);
    // The clock reading goes into the game for the PGN.
    assert!(app.game().moves()[0].clock.is_some());
    enter(&mut app, ":tc nonsense");
    assert_eq!(app.message().unwrap().kind, MessageKind::Error);
}

#[test]
fn analysis_thinks_without_end_and_moves_restart_it() {
    let (mut app, calls) = app();
    enter(&mut app, ":mode analysis");
    assert_eq!(gos(&calls).last().unwrap(), &Limits::infinite());
    let id = app.session().search().unwrap().id;
    enter(&mut app, "e2e4");
    assert_eq!(
        app.game().ply(),
        1,
        "moves can be entered while the engine analyses"
    );
    assert_eq!(gos(&calls).len(), 2);
    assert!(app.session().search().unwrap().id != id);
    // Stepping back analyses the earlier position.
    app.handle_key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    assert_eq!(app.game().ply(), 0);
    assert_eq!(gos(&calls).len(), 3);
    let (lines, _) = screen(&mut app, 80, 24);
    assert!(lines[23].contains("analysing"), "{}", lines[23]);
}

#[test]
fn engine_against_engine_waits_its_delay_and_can_be_paused() {
    let (mut app, calls) = app();
    enter(&mut app, ":delay 500");
    enter(&mut app, ":mode engine");
    let id = app
        .session()
        .search()
        .expect("White's engine thinks at once")
        .id;
    let board = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: Some(mv(&board, "d2d4")),
        ponder: None,
        book: None,
    });
    assert!(
        app.session().search().is_none(),
        "waits before Black's search"
    );
    let due = app
        .play()
        .series()
        .next_engine_start()
        .expect("a pending start");
    let now = std::time::Instant::now();
    assert!(app.next_wakeup(now).unwrap() <= due);
    app.on_tick(due + Duration::from_millis(1));
    assert!(
        app.session().search().is_some(),
        "Black's engine thinks after the delay"
    );
    assert_eq!(gos(&calls).len(), 2);
    // Esc stops and pauses: its answer is not played.
    press(&mut app, KeyCode::Esc);
    let id = gos(&calls).len() as u64;
    let b = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: Some(mv(&b, "d7d5")),
        ponder: None,
        book: None,
    });
    assert_eq!(app.game().ply(), 1);
    let (lines, _) = screen(&mut app, 80, 24);
    assert!(lines[23].contains("paused"), "{}", lines[23]);
}

#[test]
fn move_now_lets_the_engine_take_over_the_side_to_move() {
    let (mut app, calls) = app();
    app.handle_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::CONTROL));
    assert_eq!(app.play().mode(), Mode::HumanBlack);
    assert!(app.screen().flipped(), "Black at the bottom for the human");
    assert_eq!(gos(&calls).len(), 1);
    assert!(
        app.message()
            .as_ref()
            .unwrap()
            .text
            .contains("you now play Black")
    );
    // While it thinks, Ctrl+G again stops it and plays its best move so far.
    app.handle_key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::CONTROL));
    assert!(calls.contains(&Call::Stop));
    let board = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id: 1,
        best: Some(mv(&board, "g1f3")),
        ponder: None,
        book: None,
    });
    assert_eq!(app.game().sans(), vec!["Nf3"]);
}

#[test]
fn resigning_ends_the_game() {
    let (mut app, _) = app();
    enter(&mut app, ":resign");
    assert_eq!(app.game().result().map(|r| r.result()), Some("0-1"));
    let (lines, _) = screen(&mut app, 80, 24);
    assert!(lines[10].starts_with("│0-1 White resigns"), "{}", lines[10]);
    enter(&mut app, ":draw");
    assert_eq!(app.message().unwrap().kind, MessageKind::Error);
}

/// Not a check: how long one frame takes with a long session's log (`cargo test --release
/// --test tui render:: -- --ignored --nocapture frame_cost`).
#[test]
#[ignore]
fn frame_cost() {
    let (mut app, _) = human_human();
    for i in 0..5000 {
        app.log_line(ox88::tui::app::LogKind::Iteration, format!("d{i}/20 0.012s 16,392 n 531,996 n/s E -0.04 pv g8f6 f1b5 f6e4 d2d3 e4c5 b5c6 d7c6 f3e5"));
    }
    let mut term = Terminal::new(TestBackend::new(120, 40)).unwrap();
    app.resize(ratatui::layout::Rect::new(0, 0, 120, 40));
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.screen().focus(), ox88::tui::pane::log::FOCUS);
    for scrolled in [false, true] {
        // Scrolled back to the oldest line: the most rows to walk past.
        press(
            &mut app,
            if scrolled {
                KeyCode::Home
            } else {
                KeyCode::End
            },
        );
        let t = std::time::Instant::now();
        for _ in 0..200 {
            term.draw(|f| {
                app.resize(f.area());
                ui::draw(f, &app)
            })
            .unwrap();
        }
        println!(
            "120x40, 5000 log lines, scrolled back {scrolled}: {:?} a frame",
            t.elapsed() / 200
        );
    }
}

// ---- the UI never waits on the engine ------------------------------------------------------

#[test]
fn keys_act_at_once_while_a_slow_engine_stops_and_its_late_events_are_ignored() {
    // The recording engine never answers by itself: a stopped search goes on "running"
    // and its events are delivered by the test afterwards, as a slow search thread would
    // send them. Nothing here blocks; the test checks the app never needs it to.
    let (mut app, calls) = app_with(
        Options {
            settings: Settings {
                ascii: true,
                ..Settings::default()
            },
            ..Options::default()
        },
        "default",
        ColorDepth::TrueColor,
    );
    enter(&mut app, "e2e4");
    let first = calls.last_go().unwrap().id;
    let after_e4 = app.game().board().clone();
    // The engine still thinks (its stop will take effect late); the user takes back and
    // plays another move at once: each key is handled before any event arrives.
    app.handle_key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
    assert_eq!(app.game().ply(), 0, "the takeback happened at once");
    assert_eq!(calls.stops(), 1, "the engine was asked to stop");
    enter(&mut app, "d2d4");
    assert_eq!(app.game().sans(), vec!["d4"]);
    let second = app.session().search().expect("a new search").id;
    assert_ne!(first, second);
    let log_len = app.log_buffer().len();
    // Now the first search's events come in, late.
    app.on_engine_event(iteration(&after_e4, first, 9));
    app.on_engine_event(SearchEvent::BestMove {
        id: first,
        best: Some(mv(&after_e4, "e7e5")),
        ponder: None,
        book: None,
    });
    assert_eq!(
        app.game().sans(),
        vec!["d4"],
        "a stale best move is never played"
    );
    assert_eq!(
        app.log_buffer().len(),
        log_len,
        "a stale iteration is not logged"
    );
    assert_eq!(app.session().stale_dropped(), 2);
    assert_eq!(app.session().search().map(|s| s.id), Some(second));
    // The current search's answer is played.
    let board = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id: second,
        best: Some(mv(&board, "d7d5")),
        ponder: None,
        book: None,
    });
    assert_eq!(app.game().sans(), vec!["d4", "d5"]);
}

#[test]
fn a_failed_aspiration_window_is_logged_as_a_bound() {
    let (mut app, _) = app();
    enter(&mut app, "e2e4");
    let board = app.game().board().clone();
    let id = app.session().search().unwrap().id;
    let SearchEvent::Iteration { mut info, .. } = iteration(&board, id, 7) else {
        unreachable!()
    };
    // Black searched and failed high: at least -0.29 for Black is at most +0.29 for White.
    info.bound = Bound::Lower;
    app.on_engine_event(SearchEvent::Iteration { id, info });
    assert_eq!(
        app.log_buffer().last().unwrap().text,
        "d7/12 1.520s 1,234,567 n 812,345 n/s E ≤ +0.29 pv e7e5 g1f3"
    );
}

#[test]
fn games_in_a_row_start_a_new_game_after_each_end() {
    let (mut app, calls) = app();
    enter(&mut app, ":delay 0");
    enter(&mut app, ":games 2");
    assert_eq!(app.play().mode(), Mode::EngineEngine);
    // Fool's mate, played by "the engine" through its events.
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let id = app.session().search().expect("the engine thinks").id;
        let board = app.game().board().clone();
        app.on_engine_event(SearchEvent::BestMove {
            id,
            best: Some(mv(&board, m)),
            ponder: None,
            book: None,
        });
    }
    assert_eq!(app.game().result().map(|r| r.result()), Some("0-1"));
    let due = app
        .play()
        .series()
        .next_game_start()
        .expect("the next game is due");
    app.on_tick(due);
    assert_eq!(app.game().ply(), 0, "a new game started");
    assert!(app.session().search().is_some(), "and the engine plays it");
    assert!(calls.contains(&Call::NewGame));
    // The second game ends by resignation: the series is over, nothing more starts.
    enter(&mut app, ":resign");
    assert!(app.play().series().next_game_start().is_none());
    assert_eq!(app.play().series().games_to_play(), 0);
    assert!(
        app.log_buffer()
            .lines()
            .any(|l| l.text == "the series of games is over")
    );
}

#[test]
fn the_log_shows_a_note_for_the_lines_it_dropped() {
    let (mut app, _) = human_human();
    for i in 0..ox88::tui::app::LOG_CAP + 5 {
        app.log_line(ox88::tui::app::LogKind::Info, format!("line {i}"));
    }
    assert_eq!(app.log_buffer().len(), ox88::tui::app::LOG_CAP);
    // Scroll to the very top of the log: the note is its first row.
    app.resize(ratatui::layout::Rect::new(0, 0, 120, 40));
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Home);
    let (lines, _) = screen(&mut app, 120, 40);
    let all = lines.join("\n");
    assert!(
        all.contains("(6 older lines dropped: the log keeps 10000 lines, 2 MB)"),
        "{all}"
    );
    assert!(all.contains("line 5 "), "{all}");
}

// ---- reproducibility through the TUI ---------------------------------------------------------

/// An app on the real engine whose events come back through a channel the test drains.
fn real_engine_app(eval: &str) -> (App, std::sync::mpsc::Receiver<SearchEvent>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let engine = ox88::engine::Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    let opts = Options {
        settings: Settings {
            ascii: true,
            depth: 6,
            ..Settings::default()
        },
        mode: Mode::HumanHuman,
        // Out of the book, so the engine searches.
        fen: Some("r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 11".into()),
        ..Options::default()
    };
    let mut app = App::builder(&opts, Box::new(engine))
        .theme(
            Theme::builtin("default", ColorDepth::TrueColor).unwrap(),
            ColorDepth::TrueColor,
        )
        .wall_clock(common::app::fixed_clock)
        .build();
    enter(&mut app, &format!(":eval {eval}"));
    (app, rx)
}

/// `:go`, then feeds the engine's events to the app until its move is played; returns the
/// deepest iteration's (nodes, score, PV).
fn search_once(
    app: &mut App,
    rx: &std::sync::mpsc::Receiver<SearchEvent>,
) -> (u64, Score, Vec<Move>) {
    enter(app, ":go");
    let mut last = None;
    loop {
        let ev = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the engine answers");
        let done = matches!(ev, SearchEvent::BestMove { .. });
        if let SearchEvent::Iteration { info, .. } = &ev {
            last = Some((info.nodes, info.score, info.pv.clone()));
        }
        app.on_engine_event(ev);
        if done && app.session().search().is_none() {
            break;
        }
    }
    let (lines, _) = screen(app, 120, 40);
    assert!(
        lines.join("\n").contains("d6/"),
        "the depth-6 line is on screen"
    );
    last.expect("an iteration")
}

#[test]
fn a_search_after_switching_eval_matches_a_fresh_session() {
    let (mut switched, rx) = real_engine_app("material");
    search_once(&mut switched, &rx);
    enter(&mut switched, ":undo");
    enter(&mut switched, ":eval full");
    let again = search_once(&mut switched, &rx);
    let (mut fresh, rx2) = real_engine_app("full");
    let first = search_once(&mut fresh, &rx2);
    assert_eq!(again, first, "nodes, score and PV as in a fresh session");
}

/// A writer whose bytes the test can read after the terminal has drawn.
#[derive(Clone, Default)]
struct SharedBuf(Rc<RefCell<Vec<u8>>>);

impl std::io::Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn sixteen_colours_write_only_basic_sgr_codes() {
    for theme in ["default", "light", "high-contrast", "mono"] {
        let (mut app, _) = app_with(Options::default(), theme, ColorDepth::Ansi16);
        enter(&mut app, "e2e4");
        let written = SharedBuf::default();
        let backend = ox88::tui::backend(written.clone(), ColorDepth::Ansi16);
        let mut term = Terminal::new(backend).unwrap();
        term.draw(|f| {
            app.resize(f.area());
            ui::draw(f, &app)
        })
        .unwrap();
        let out = String::from_utf8_lossy(&written.0.borrow()).to_string();
        for banned in ["38;5;", "48;5;", "38;2;", "48;2;"] {
            assert!(!out.contains(banned), "{theme}: {banned} written");
        }
        // Colour is still there, in the basic codes.
        let params: Vec<u32> = out
            .split("\x1b[")
            .skip(1)
            .filter_map(|seq| seq.split_once('m').map(|(p, _)| p))
            .filter(|p| p.chars().all(|c| c.is_ascii_digit() || c == ';'))
            .flat_map(|p| {
                p.split(';')
                    .filter_map(|n| n.parse().ok())
                    .collect::<Vec<u32>>()
            })
            .collect();
        assert!(
            theme == "mono"
                || params
                    .iter()
                    .any(|&n| (30..=37).contains(&n) || (90..=97).contains(&n)),
            "{theme}: no basic colour code written"
        );
        if theme == "default" {
            // The premise: crossterm alone writes even named colours as palette codes.
            let plain = SharedBuf::default();
            let mut term =
                Terminal::new(ratatui::backend::CrosstermBackend::new(plain.clone())).unwrap();
            term.draw(|f| ui::draw(f, &app)).unwrap();
            assert!(String::from_utf8_lossy(&plain.0.borrow()).contains("38;5;"));
        }
    }
}

#[test]
fn a_refused_entry_stays_marked_and_the_next_one_replaces_it() {
    let (mut app, _) = human_human();
    enter(&mut app, "e1e3");
    assert_eq!(app.message().unwrap().kind, MessageKind::Error);
    assert_eq!(
        app.input().value(),
        "e1e3",
        "the refused text stays to be corrected"
    );
    assert!(app.input().is_refused());
    // It is drawn marked, in the error style.
    let (lines, buf) = screen(&mut app, 80, 24);
    let row = lines.iter().position(|l| l.contains("e1e3")).unwrap() as u16;
    let x = lines[row as usize].find("e1e3").unwrap() as u16;
    let x = lines[row as usize][..x as usize].chars().count() as u16;
    assert_eq!(buf[(x, row)].style().fg, app.theme().error().fg);
    // Typing starts a new entry instead of adding to the refused one.
    enter(&mut app, "Qh5");
    assert_ne!(
        app.message().map(|m| m.text.as_str()),
        Some("e1e3Qh5: unexpected 'h5'")
    );
    assert_eq!(app.input().value(), "Qh5", "Qh5 is refused on its own");
    // Backspace corrects the refused text instead.
    press(&mut app, KeyCode::Backspace);
    assert_eq!(app.input().value(), "Qh");
    assert!(!app.input().is_refused());
    press(&mut app, KeyCode::Esc);
    // Up still recalls the refused line.
    press(&mut app, KeyCode::Up);
    assert_eq!(app.input().value(), "Qh5");
    press(&mut app, KeyCode::Esc);
    // A failed command does not eat the next one.
    enter(&mut app, ":resign now please");
    assert!(app.input().is_refused());
    enter(&mut app, ":new");
    assert_eq!(app.input().value(), "", ":new ran: {:?}", app.message());
}

#[test]
fn a_terminal_too_small_takes_no_key_but_quit() {
    let (mut app, _) = human_human();
    let mut saved = ox88::game::Game::new();
    saved.play_text("e4").unwrap();
    app.offer_resume(saved);
    let (lines, _) = screen(&mut app, 60, 20);
    let text = lines.join("\n");
    assert!(text.contains("terminal too small"), "{text}");
    assert!(text.contains("60×20, need 80×24"), "{text}");
    // The hidden question is not answered, and no move is played.
    type_text(&mut app, "n");
    assert!(
        app.play().prompt().is_some(),
        "the resume question is still open"
    );
    enter(&mut app, "d4");
    app.handle_paste("d4");
    assert_eq!(app.game().ply(), 0);
    assert_eq!(app.input().value(), "");
    // Back at a size that fits, the question is still there to answer.
    let _ = screen(&mut app, 80, 24);
    type_text(&mut app, "y");
    assert_eq!(app.game().sans(), vec!["e4"]);
    // Too small again: quitting still works.
    let _ = screen(&mut app, 60, 20);
    app.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit_requested());
}

#[test]
fn the_log_follows_again_after_end_or_a_new_game() {
    let (mut app, _) = human_human();
    for i in 0..60 {
        app.log_line(ox88::tui::app::LogKind::Info, format!("line {i}"));
    }
    let _ = screen(&mut app, 80, 24);
    // Scrolled back from the log pane, then back on the input line.
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::PageUp);
    assert!(app.log_buffer().scroll() > 0);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.screen().focus(), Focus::INPUT);
    // End on the empty input line: the log follows again.
    press(&mut app, KeyCode::End);
    assert_eq!(app.log_buffer().scroll(), 0);
    // Scrolled back, then a new game: the log follows the new game.
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::PageUp);
    assert!(app.log_buffer().scroll() > 0);
    press(&mut app, KeyCode::Esc);
    app.handle_key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL));
    assert_eq!(app.log_buffer().scroll(), 0);
    let (lines, _) = screen(&mut app, 80, 24);
    assert!(
        lines.iter().any(|l| l.contains("new game")),
        "{}",
        lines.join("\n")
    );
}

/// The E chart's key fits its pane whole at 80×24 (the chart view) and 120×40 (its own
/// pane): a shorter key where the long one would be cut.
#[test]
fn the_chart_key_fits_whole_at_80x24_and_120x40() {
    let (mut app, _) = app_with(
        options_in(Mode::HumanHuman),
        "default",
        ColorDepth::TrueColor,
    );
    for m in ["e4", "e5", "Nf3", "Nc6"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":view chart");
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        let (lines, _) = common::render(&mut app, w, h);
        let row = lines
            .iter()
            .find(|l| l.contains("⣀ ") && l.contains(" • "))
            .unwrap_or_else(|| panic!("the chart's key at {w}×{h}:\n{}", lines.join("\n")));
        let key: String = row
            .chars()
            .collect::<String>()
            .split("⣀ ")
            .last()
            .unwrap()
            .chars()
            .take_while(|c| *c != '│')
            .collect();
        let key = key.trim_end();
        assert!(
            ["(green)", "now", "mate", "search"]
                .iter()
                .any(|end| key.ends_with(end)),
            "{w}×{h}: {key:?}"
        );
        assert!(key.contains("E") && key.contains("search"), "{key}");
    }
}
