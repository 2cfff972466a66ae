//! Keys that act on the board itself: ← and → look back through the game without taking
//! moves back, and the board cursor (Ctrl+P) plays a move with the arrows and Enter, no
//! coordinates needed. Drawn on ratatui's TestBackend with a recording engine.

use crate::common;

use common::app::{ctrl, enter, message_text, options_in, press};

use common::app::Calls;
use crossterm::event::KeyCode;
use ox88::chess::Board;
use ox88::engine::SearchEvent;
use ox88::engine::eval::settled_white;
use ox88::serve::input::{Input, Parser};
use ox88::tui::app::{App, Focus, MessageKind, e_text};
use ox88::tui::{Mode, Options};

fn app_in(mode: Mode, fen: Option<&str>) -> (App, Calls) {
    let opts = Options {
        fen: fen.map(str::to_string),
        ..options_in(mode)
    };
    common::app::app_of(&opts)
}

/// The board's eight rows of squares at 80×24 (3 columns a square), rank 8 first.
fn board_rows(lines: &[String]) -> Vec<String> {
    lines[1..9]
        .iter()
        .map(|l| l.chars().skip(1).take(27).collect::<String>())
        .collect()
}

/// The board pane's title row.
fn title(lines: &[String]) -> String {
    lines[0].chars().take(29).collect()
}

/// What the square `sq` shows at 80×24: its three columns.
fn square(lines: &[String], sq: &str) -> String {
    let b = sq.as_bytes();
    let (file, rank) = (usize::from(b[0] - b'a'), usize::from(b[1] - b'1'));
    lines[8 - rank].chars().skip(3 + 3 * file).take(3).collect()
}

/// What the board pane's title says about looking back (`None`: the game's position).
fn viewing(app: &mut App) -> Option<String> {
    let (lines, _) = common::render(app, 80, 24);
    let t = title(&lines);
    t.find("viewing ").map(|i| {
        t[i..]
            .split(" ─")
            .next()
            .unwrap_or_default()
            .trim()
            .to_string()
    })
}

// ---- looking back through the game ---------------------------------------------------------

#[test]
fn arrows_on_an_empty_input_look_back_through_the_game_and_end_returns() {
    let (mut app, _) = app_in(Mode::HumanHuman, None);
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        enter(&mut app, m);
    }
    let live = app.game().board().clone();
    let (lines, _) = common::render(&mut app, 80, 24);
    assert_eq!(square(&lines, "b5"), " B ");

    press(&mut app, KeyCode::Left);
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(
        title(&lines).contains(" viewing after 2...Nc6 "),
        "{}",
        lines[0]
    );
    assert_eq!(square(&lines, "b5"), "   ", "the bishop is back on f1");
    assert_eq!(square(&lines, "f1"), " B ");
    assert_eq!(app.game().ply(), 5, "no move was taken back");
    assert!(app.game().board() == &live);
    // E, the move list and the sort pane follow the position on show.
    let viewed = app.game().position_at(4).unwrap();
    let e = e_text(settled_white(&viewed, &app.prefs().eval()));
    let all = lines.join("\n");
    assert!(all.contains(&format!("│E {e}")), "{all}");
    assert!(all.contains("│1.e4 e5 2.Nf3 Nc6"), "{all}");
    assert!(all.contains("│(+1 played)"), "{all}");
    assert!(all.contains("┌ Sort 3. White no search yet "), "{all}");

    for _ in 0..4 {
        press(&mut app, KeyCode::Left);
    }
    let (lines, _) = common::render(&mut app, 80, 24);
    assert_eq!(board_rows(&lines), board_rows(&start_lines()));
    press(&mut app, KeyCode::Left);
    assert!(
        message_text(&app).contains("first position"),
        "{}",
        message_text(&app)
    );
    press(&mut app, KeyCode::Right);
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(
        title(&lines).contains("viewing after 1. e4 "),
        "{}",
        lines[0]
    );
    assert_eq!(square(&lines, "e4"), " P ");
    assert_eq!(square(&lines, "e5"), "   ");

    // End returns to the game; so do Esc and the last step forward.
    press(&mut app, KeyCode::End);
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(title(&lines).starts_with("┌ Board "), "{}", lines[0]);
    assert_eq!(square(&lines, "b5"), " B ");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Esc);
    assert_eq!(viewing(&mut app), None);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Right);
    assert_eq!(viewing(&mut app), None);
    assert_eq!(app.game().ply(), 5);
}

fn start_lines() -> Vec<String> {
    let (mut app, _) = app_in(Mode::HumanHuman, None);
    common::render(&mut app, 80, 24).0
}

#[test]
fn a_move_typed_while_looking_back_is_played_in_the_game_on_the_board_again() {
    let (mut app, _) = app_in(Mode::HumanHuman, None);
    for m in ["e4", "e5", "Nf3"] {
        enter(&mut app, m);
    }
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    assert_eq!(viewing(&mut app).as_deref(), Some("viewing after 1. e4"));
    // Typing returns to the game first: the move is checked against its position.
    enter(&mut app, "Nc6");
    assert_eq!(viewing(&mut app), None);
    assert_eq!(app.game().sans(), vec!["e4", "e5", "Nf3", "Nc6"]);
    // So does recalling an earlier entry.
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Up);
    assert_eq!(viewing(&mut app), None);
    assert_eq!(app.input().value(), "Nc6");
}

#[test]
fn a_focused_pane_keeps_its_arrows_and_a_takeback_below_the_view_ends_it() {
    let (mut app, calls) = app_in(Mode::HumanWhite, None);
    enter(&mut app, "e2e4");
    // The engine's reply arrives while the player looks back: the view stays.
    press(&mut app, KeyCode::Left);
    assert_eq!(viewing(&mut app).as_deref(), Some("viewing the start"));
    let id = calls.last_go().unwrap().id;
    let board = app.game().board().clone();
    app.on_engine_event(SearchEvent::BestMove {
        id,
        best: Some(board.parse_uci_move("e7e5").unwrap()),
        ponder: None,
        book: None,
    });
    assert_eq!(app.game().ply(), 2);
    assert_eq!(viewing(&mut app).as_deref(), Some("viewing the start"));
    press(&mut app, KeyCode::End);
    // With the sort pane focused, ← steps its PV (there is none yet), not the game.
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.screen().focus(), ox88::tui::pane::sort::FOCUS);
    press(&mut app, KeyCode::Left);
    assert_eq!(viewing(&mut app), None);
    assert!(
        message_text(&app).contains("principal variation"),
        "{}",
        message_text(&app)
    );
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.screen().focus(), Focus::INPUT);
    press(&mut app, KeyCode::Left);
    assert_eq!(viewing(&mut app).as_deref(), Some("viewing after 1. e4"));
    // Taking both moves back leaves nothing before the position on show: back to the game.
    ctrl(&mut app, 'z');
    assert_eq!(app.game().ply(), 0);
    assert_eq!(viewing(&mut app), None);
}

// ---- the board cursor ---------------------------------------------------------------------

#[test]
fn the_board_cursor_picks_a_piece_and_plays_it_with_arrows_and_enter() {
    let (mut app, calls) = app_in(Mode::HumanWhite, None);
    ctrl(&mut app, 'p');
    let (lines, _) = common::render(&mut app, 80, 24);
    assert_eq!(square(&lines, "e1"), ">K<", "the cursor starts on the king");
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    assert!(
        message_text(&app).contains("e3 or e4"),
        "{}",
        message_text(&app)
    );
    let (lines, buf) = common::render(&mut app, 80, 24);
    assert_eq!(square(&lines, "e2"), ">P<");
    // The targets are marked (the theme's target colour behind them).
    let theme = app.theme().clone();
    for sq in ["e3", "e4"] {
        let rank = usize::from(sq.as_bytes()[1] - b'1');
        let cell = &buf[(4 + 3 * 4, (8 - rank) as u16)];
        assert_eq!(cell.bg, theme.target, "{sq}");
    }
    // A square it cannot reach is refused and the piece stays picked.
    for _ in 0..3 {
        press(&mut app, KeyCode::Up);
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.message().unwrap().kind, MessageKind::Error);
    assert!(
        message_text(&app).starts_with("not to e5: "),
        "{}",
        message_text(&app)
    );
    assert!(app.game().is_empty());
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(app.game().sans(), vec!["e4"], "Space chooses too");
    assert_eq!(
        calls.last_go().map(|g| g.fen),
        Some(app.game().board().to_fen()),
        "the engine answers as after a typed move"
    );
    // Esc leaves the cursor; the board has no cursor any more.
    press(&mut app, KeyCode::Esc);
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(!board_rows(&lines).concat().contains('>'));
}

#[test]
fn a_pawn_reaching_the_last_rank_asks_for_its_piece() {
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let (mut app, _) = app_in(Mode::HumanHuman, Some(fen));
    ctrl(&mut app, 'p');
    for _ in 0..4 {
        press(&mut app, KeyCode::Left);
    }
    for _ in 0..6 {
        press(&mut app, KeyCode::Up);
    }
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    assert!(
        message_text(&app).starts_with("promote to?"),
        "{}",
        message_text(&app)
    );
    assert!(app.game().is_empty(), "nothing played before the answer");
    press(&mut app, KeyCode::Char('x'));
    assert!(app.game().is_empty(), "another key asks again");
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.game().sans(), vec!["a8=N"]);
    // Flipped, Up still goes away from the player: Black's king walks to its seventh.
    let (mut app, _) = app_in(Mode::HumanHuman, Some("4k3/8/8/8/8/8/p7/4K3 b - - 0 1"));
    ctrl(&mut app, 'f');
    ctrl(&mut app, 'p');
    for _ in 0..4 {
        press(&mut app, KeyCode::Right);
    }
    for _ in 0..6 {
        press(&mut app, KeyCode::Up);
    }
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().sans(), vec!["a1=Q+"], "Enter takes a queen");
}

#[test]
fn the_board_cursor_works_from_the_bytes_an_ssh_client_sends() {
    let (mut app, _) = app_in(Mode::HumanWhite, None);
    // Ctrl+P, ↑ (xterm's and the application-mode form), Enter (CR), ↑ ↑, Space, then Esc.
    let bytes = b"\x10\x1b[A\r\x1bOA\x1b[A \x1b";
    let mut parser = Parser::new();
    let mut keys = parser.feed(bytes);
    keys.extend(parser.flush());
    for input in keys {
        match input {
            Input::Key(k) => app.handle_key(k),
            Input::Paste(p) => app.handle_paste(&p),
        }
    }
    assert_eq!(app.game().sans(), vec!["e4"]);
    let (lines, _) = common::render(&mut app, 80, 24);
    assert!(
        !board_rows(&lines).concat().contains('>'),
        "Esc left the cursor"
    );
    assert!(Board::startpos() != *app.game().board());
}
