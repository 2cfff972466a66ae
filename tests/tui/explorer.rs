//! The tree browser (issue 11) driven through the app's own entry points (keys, commands and
//! engine events) and drawn on ratatui's TestBackend at 80×24 and 120×40. Trees come from
//! real searches at small depths; what the screen shows is checked against the recorded
//! `TreeNode`s and positions worked out here, independently of the pane's code.

use crate::common;

use common::app::{enter, press, screen};

use std::path::Path;
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use common::app::Calls;
use crossterm::event::KeyCode;
use ox88::chess::{Board, Square};
use ox88::engine::search::record::{TreeLimits, TreeNode};
use ox88::engine::search::{Profile, Searcher};
use ox88::engine::{Bound, Engine, Limits, Score, SearchEvent, SearchOptions};
use ox88::tui::app::command::Command;
use ox88::tui::app::explorer::TUI_LIMITS;
use ox88::tui::app::{App, Focus, MessageKind, thousands};
use ox88::tui::layout;
use ox88::tui::settings::{Config, Settings};
use ox88::tui::theme::{ColorDepth, Theme};
use ox88::tui::{Mode, Options};
use ratatui::layout::Rect;

/// Out of the opening book, Black to move: the engine searches at once.
const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4";

fn options(depth: u32) -> Options {
    Options {
        fen: Some(FEN.to_string()),
        mode: Mode::HumanWhite,
        ..Options::of(Settings {
            ascii: true,
            depth,
            hash_mb: 1,
            ..Settings::default()
        })
    }
}

fn theme() -> Theme {
    Theme::builtin("default", ColorDepth::TrueColor).unwrap()
}

/// An app on the real engine whose search has answered (the engine played Black's move).
fn after_engine_move(depth: u32, profile: Profile) -> App {
    let (tx, rx) = mpsc::channel();
    let engine = Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    let opts = Options {
        mode: Mode::HumanHuman,
        ..options(depth)
    };
    let mut app = App::builder(&opts, Box::new(engine))
        .theme(theme(), ColorDepth::TrueColor)
        .wall_clock(common::app::fixed_clock)
        .user_theme_dir(None)
        .profile(profile)
        .build();
    // The engine takes Black, to move: it searches at once.
    app.execute(Command::Mode(Mode::HumanWhite)).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while app.game().ply() < 1 {
        let ev = rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("the engine answers");
        app.on_engine_event(ev);
    }
    app
}

/// An app whose engine answers nothing by itself: the test sends its events.
fn silent_app() -> (App, Calls) {
    common::app::app_of(&options(4))
}

fn error_text(app: &App) -> String {
    let m = app.message().cloned().expect("a message");
    assert_eq!(m.kind, MessageKind::Error, "{}", m.text);
    m.text
}

/// The piece letter drawn on `sq` (ascii pieces, board not flipped), or ' '.
fn drawn(lines: &[String], w: u16, h: u16, sq: Square) -> char {
    let a = layout::layout(Rect::new(0, 0, w, h));
    let (sw, sh) = (a.scale.w, a.scale.h);
    let x = a.board.x + 1 + 2 + u16::from(sq.file()) * sw + sw / 2;
    let y = a.board.y + 1 + u16::from(7 - sq.rank()) * sh + sh / 2;
    lines[y as usize].chars().nth(x as usize).unwrap()
}

/// Every square of the board pane shows `board`'s piece (an empty square may carry the
/// dot that marks the selected child's target).
fn assert_board_shows(lines: &[String], w: u16, h: u16, board: &Board) {
    for i in 0..64u8 {
        let sq = Square::new(i % 8, i / 8);
        let want = board.piece_at(sq).map_or(' ', |p| p.fen_char());
        let got = drawn(lines, w, h, sq);
        assert_eq!(
            if got == '.' { ' ' } else { got },
            want,
            "{sq} of {}:\n{}",
            board.to_fen(),
            lines.join("\n")
        );
    }
}

/// The screen row listing child `i` (numbered from 1) with its move, order score, nodes and
/// result from the side to move's view (the child's own score turned round), written here
/// from the recorded node.
fn child_row_start(board: &Board, node: &TreeNode, i: usize) -> String {
    let c = &node.children[i];
    let m = c.mv.unwrap();
    let san = if m.is_none() {
        "null".to_string()
    } else {
        board.san(m)
    };
    let ord = c.order_score.map(|o| o.to_string()).unwrap_or_default();
    let score = match (c.score, c.bound()) {
        (Some(v), Some(b)) => {
            assert!(v.abs() < 20_000, "no mates in these positions");
            let mark = match b {
                Bound::Lower => "≤",
                Bound::Upper => "≥",
                Bound::Exact => "",
            };
            format!("{mark}{}", Score::Cp(-v))
        }
        _ => "—".to_string(),
    };
    format!(
        "{:>3} {san:<7} {ord:>6} {:>8} {score:>8}",
        i + 1,
        thousands(c.nodes)
    )
}

fn row_of<'a>(lines: &'a [String], start: &str) -> Option<&'a String> {
    lines.iter().find(|l| l.contains(start))
}

#[test]
fn opening_the_tree_shows_the_root_with_its_children_in_order_and_enter_backspace_esc_walk_it() {
    let mut app = after_engine_move(4, Profile::Full);
    let game_board = app.game().board().clone();
    for (w, h) in [(80u16, 24u16), (120, 40)] {
        press(&mut app, KeyCode::F(10));
        assert!(app.explorer().is_open(), "F10 opens at {w}×{h}");
        assert_eq!(app.screen().focus(), ox88::tui::pane::tree::FOCUS);
        let shown = app.explorer().shown().unwrap().clone();
        assert_eq!(shown.root.to_fen(), FEN, "the tree is the engine's search");
        assert_eq!(shown.depth, 4, "the last complete iteration");
        let root: &TreeNode = &shown.tree;
        assert!(root.children.len() >= 2);
        let lines = screen(&mut app, w, h);
        let all = lines.join("\n");
        assert!(all.contains(" Tree d4 "), "{all}");
        assert!(all.contains("root"), "the path starts at the root:\n{all}");
        assert_board_shows(&lines, w, h, &shown.root);
        // The rows on screen, in the order tried, with the recorded numbers.
        let rows = ox88::tui::pane::tree::list_rows(layout::layout(Rect::new(0, 0, w, h)).right);
        let visible = root.children.len().min(rows);
        let mut at = Vec::new();
        for i in 0..visible {
            let start = child_row_start(&shown.root, root, i);
            let y = lines.iter().position(|l| l.contains(&start));
            assert!(y.is_some(), "child {} at {w}×{h}: {start:?}\n{all}", i + 1);
            at.push(y.unwrap());
        }
        assert!(at.windows(2).all(|p| p[0] < p[1]), "in order: {at:?}");
        if w >= 120 {
            // Wide: the ordering reasons in full on the first child's row.
            let first = &root.children[0];
            let (k, p) = first.reasons[0];
            let row = row_of(&lines, &child_row_start(&shown.root, root, 0)).unwrap();
            assert!(row.contains(&format!("{k}{p:+}")), "{row}");
        }

        // Reopening the same tree returns to the same place (the second child, below).
        assert_eq!(app.explorer().selected(), if w == 80 { 0 } else { 1 });
        press(&mut app, KeyCode::End);
        let last = root.children.len() - 1;
        assert_eq!(app.explorer().selected(), last);
        // Drawn smaller than the selection was made for, the selected row stays on screen.
        let small = screen(&mut app, 80, 24);
        let start = child_row_start(&shown.root, root, last);
        assert!(
            row_of(&small, &start).is_some(),
            "{start:?}\n{}",
            small.join("\n")
        );
        press(&mut app, KeyCode::Home);
        assert_eq!(app.explorer().selected(), 0);
        // Into the second child: its position on the board, its move in the path.
        press(&mut app, KeyCode::Down);
        assert_eq!(app.explorer().selected(), 1);
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.explorer().path(), &[1]);
        let child = &root.children[1];
        let mut child_board = shown.root.clone();
        let san = child_board.san(child.mv.unwrap());
        child_board.play(child.mv.unwrap()).unwrap();
        let lines = screen(&mut app, w, h);
        assert_board_shows(&lines, w, h, &child_board);
        let all = lines.join("\n");
        assert!(all.contains(&format!("root › {san}")), "the path:\n{all}");
        if let Some(grandchild) = child.children.first() {
            let start = child_row_start(&child_board, child, 0);
            assert!(row_of(&lines, &start).is_some(), "{start:?}\n{all}");
            assert!(grandchild.nodes >= 1);
        }

        // Backspace: the root again, the child we came from selected.
        press(&mut app, KeyCode::Backspace);
        assert!(app.explorer().path().is_empty());
        assert_eq!(app.explorer().selected(), 1);
        press(&mut app, KeyCode::Backspace);
        assert!(
            error_text(&app).contains("root"),
            "Backspace at the root says so"
        );

        // Esc closes: the game's board and the log again.
        press(&mut app, KeyCode::Esc);
        assert!(!app.explorer().is_open());
        assert_eq!(app.screen().focus(), Focus::INPUT);
        let lines = screen(&mut app, w, h);
        assert_board_shows(&lines, w, h, &game_board);
        assert!(lines.join("\n").contains(" Log "));
    }
    assert_eq!(
        app.game().board().to_fen(),
        game_board.to_fen(),
        "the game is untouched"
    );
    // A move the player types closes the browser: the game's board is wanted again.
    press(&mut app, KeyCode::F(10));
    assert!(app.explorer().is_open());
    let m = game_board.legal_moves().as_slice()[0];
    enter(&mut app, &m.to_string());
    assert_eq!(app.game().ply(), 2);
    assert!(!app.explorer().is_open());
    assert_eq!(app.screen().focus(), Focus::INPUT);
}

#[test]
fn with_no_tree_yet_the_keys_do_nothing_and_say_why() {
    let (mut app, calls) = silent_app();
    assert_eq!(
        calls.searches()[0].options.record_tree,
        Some(TUI_LIMITS),
        "the TUI's searches record trees"
    );
    let before = app.game().board().to_fen();
    press(&mut app, KeyCode::F(10));
    assert!(!app.explorer().is_open());
    assert!(error_text(&app).contains("no search tree yet"));
    enter(&mut app, ":tree");
    assert!(!app.explorer().is_open());
    assert!(error_text(&app).contains("no search tree yet"));
    // Enter and Backspace keep their usual meaning on the input line.
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().board().to_fen(), before);
    assert_eq!(app.screen().focus(), Focus::INPUT);
    for (w, h) in [(80, 24), (120, 40)] {
        let all = screen(&mut app, w, h).join("\n");
        assert!(!all.contains(" Tree "), "{all}");
    }
    // Off: the next search records nothing, and the browser says recording is off.
    enter(&mut app, ":set explorer off");
    assert!(!app.explorer().recording());
    enter(&mut app, ":tree");
    assert!(error_text(&app).contains("recording is off"));
    let searches = calls.searches().len();
    enter(&mut app, ":mode analysis");
    assert_eq!(calls.searches().len(), searches + 1);
    assert_eq!(calls.last_go().unwrap().options.record_tree, None);
    enter(&mut app, ":tree now");
    assert!(error_text(&app).contains(":tree takes no argument"));
}

#[test]
fn below_level_max_the_browser_says_the_level_driver_records_no_tree() {
    let (mut app, _) = silent_app();
    enter(&mut app, ":level club");
    press(&mut app, KeyCode::F(10));
    assert!(!app.explorer().is_open());
    let said = error_text(&app);
    assert!(said.contains("level driver"), "{said}");
}

#[test]
fn explorer_false_in_the_settings_file_turns_recording_off() {
    let (mut app, calls) = silent_app();
    let config = Config::from_text(Path::new("c.toml"), "explorer = false\n");
    assert!(config.problems().is_empty());
    app.use_config(config);
    assert!(!app.explorer().recording());
    enter(&mut app, ":mode analysis");
    assert_eq!(calls.last_go().unwrap().options.record_tree, None);
    let bad = Config::from_text(Path::new("c.toml"), "explorer = \"maybe\"\n");
    assert!(
        bad.problems()
            .iter()
            .any(|p| p.to_string().contains("explorer")),
        "a bad value names the key"
    );
}

/// A real tree of `depth` for the test position (Black to move).
fn real_tree(depth: u32) -> Arc<TreeNode> {
    let board = Board::from_fen(FEN).unwrap();
    let options = SearchOptions {
        hash_mb: 1,
        ..SearchOptions::default()
    };
    let limits = TreeLimits {
        plies: 3,
        ..TUI_LIMITS
    };
    let (_, tree) = Searcher::standalone().search_tree(
        &board,
        &Limits::depth(depth),
        &options,
        limits,
        &mut |_| {},
    );
    Arc::new(tree.unwrap())
}

#[test]
fn a_newer_tree_waits_for_r_and_r_keeps_the_place() {
    let (mut app, _) = silent_app();
    let (t2, t3) = (real_tree(2), real_tree(3));
    app.on_engine_event(SearchEvent::Tree {
        id: 1,
        depth: 2,
        tree: Arc::clone(&t2),
    });
    enter(&mut app, ":tree");
    assert!(app.explorer().is_open());
    assert_eq!(app.screen().focus(), ox88::tui::pane::tree::FOCUS);
    let said = app.message().cloned().unwrap().text;
    assert!(
        said.contains("depth 2") && said.contains("last complete"),
        "opening while the engine searches names the depth shown: {said}"
    );
    // Down to the child the depth-3 tree also has first... any child both trees have.
    let mv = t2.children[0].mv;
    press(&mut app, KeyCode::Enter);
    app.on_engine_event(SearchEvent::Tree {
        id: 1,
        depth: 3,
        tree: Arc::clone(&t3),
    });
    let all = screen(&mut app, 80, 24).join("\n");
    assert!(
        all.contains(" Tree d2 "),
        "still the tree being read:\n{all}"
    );
    assert!(all.contains("depth 3 ready — r reloads"), "{all}");
    assert_eq!(app.explorer().path(), &[0]);
    press(&mut app, KeyCode::Char('r'));
    let all = screen(&mut app, 80, 24).join("\n");
    assert!(all.contains(" Tree d3 "), "{all}");
    let i = t3.children.iter().position(|c| c.mv == mv).unwrap();
    assert_eq!(app.explorer().path(), &[i], "the same move in the new tree");
    press(&mut app, KeyCode::Char('r'));
    assert!(error_text(&app).contains("newest"));
    // The engine's move keeps the browser where it is.
    let best = t3.children[0].mv;
    app.on_engine_event(SearchEvent::BestMove {
        id: 1,
        best,
        ponder: None,
        book: None,
    });
    assert_eq!(app.game().ply(), 1, "the engine moved");
    assert!(app.explorer().is_open());
    assert_eq!(app.explorer().path(), &[i]);
    assert!(screen(&mut app, 80, 24).join("\n").contains(" Tree d3 "));
    // Typing gives the keys back to the input line: 'r' is a letter again.
    press(&mut app, KeyCode::Char(':'));
    assert_eq!(app.screen().focus(), Focus::INPUT);
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(app.input().value(), ":r");
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Esc);
    assert!(
        !app.explorer().is_open(),
        "Esc clears the input, then closes"
    );
}

/// The first node below the root (depth first) that cut off, with the child indices to it.
fn find_cut(node: &TreeNode, path: &mut Vec<usize>) -> bool {
    if node.ply > 0 && node.cut_index.is_some() && node.children_complete {
        return true;
    }
    for (i, c) in node.children.iter().enumerate() {
        path.push(i);
        if find_cut(c, path) {
            return true;
        }
        path.pop();
    }
    false
}

#[test]
fn under_profile_seed_the_browser_shows_the_textbook_cut() {
    let mut app = after_engine_move(3, Profile::Seed);
    press(&mut app, KeyCode::F(10));
    let shown = app.explorer().shown().unwrap().clone();
    let mut path = Vec::new();
    assert!(find_cut(&shown.tree, &mut path), "a cut below the root");
    let mut board = shown.root.clone();
    let mut node: &TreeNode = &shown.tree;
    for &i in &path {
        for _ in 0..i {
            press(&mut app, KeyCode::Down);
        }
        press(&mut app, KeyCode::Enter);
        node = &node.children[i];
        board.play(node.mv.unwrap()).unwrap();
    }
    assert_eq!(app.explorer().path(), path.as_slice());
    let cut = node.cut_index.unwrap();
    // Textbook alpha-beta: nothing is tried after the move that cut off.
    assert_eq!(node.children.len(), cut + 1);
    for (w, h) in [(80, 24), (120, 40)] {
        let lines = screen(&mut app, w, h);
        let all = lines.join("\n");
        assert!(all.contains(&format!("cut at #{}", cut + 1)), "{all}");
        let row = row_of(&lines, &child_row_start(&board, node, cut)).expect("the cut row");
        assert!(row.contains("✂cut"), "{row}");
        assert_board_shows(&lines, w, h, &board);
        let after = format!("{:>3} ", cut + 2);
        let rows_after = lines
            .iter()
            .skip_while(|l| !l.contains("✂cut"))
            .skip(1)
            .filter(|l| l.contains(&after))
            .count();
        assert_eq!(rows_after, 0, "no child after the cut:\n{all}");
    }
}

/// The selected child's detail rows in the tree pane drawn at `w`×`h`: the rows above the
/// pane's last line (its notice) from the one that starts `#N` (N the child's number).
fn detail_shown(app: &mut App, w: u16, h: u16, number: usize) -> Vec<String> {
    let lines = screen(app, w, h);
    let right = layout::layout(Rect::new(0, 0, w, h)).right;
    let inner = |y: u16| -> String {
        lines[y as usize]
            .chars()
            .skip(right.x as usize + 1)
            .take(right.width.saturating_sub(2) as usize)
            .collect::<String>()
            .trim_end()
            .to_string()
    };
    let notice = right.y + right.height - 2;
    let mut rows = Vec::new();
    for y in (right.y + 1..notice).rev() {
        let row = inner(y);
        let first = row.starts_with(&format!("#{number} "));
        rows.insert(0, row);
        if first {
            return rows;
        }
    }
    panic!(
        "no detail of child {number} at {w}×{h}:\n{}",
        lines.join("\n")
    );
}

/// The selected child's detail is never cut in the middle: at 80×24 and 120×40 it shows
/// whole, in as many rows as the pane has free, or leaves its last parts out saying `…`.
#[test]
fn the_selected_childs_detail_fits_the_pane_at_both_sizes() {
    let mut app = after_engine_move(4, Profile::Full);
    press(&mut app, KeyCode::F(10));
    let children = app.explorer().shown().unwrap().tree.children.len();
    for i in 0..children.min(6) {
        let full = detail_shown(&mut app, 240, 60, i + 1);
        assert_eq!(full.len(), 1, "{full:?}");
        let full = &full[0];
        for (w, h) in [(80u16, 24u16), (120, 40)] {
            let rows = detail_shown(&mut app, w, h, i + 1);
            let width = layout::layout(Rect::new(0, 0, w, h)).right.width as usize - 2;
            assert!(rows.iter().all(|r| r.chars().count() <= width));
            let joined = rows.join(" · ");
            match joined.strip_suffix(" …") {
                Some(kept) => assert!(
                    full.starts_with(&format!("{kept} · ")),
                    "{w}×{h}: {rows:?} against {full}"
                ),
                None => assert_eq!(&joined, full, "{w}×{h}: {rows:?}"),
            }
        }
        press(&mut app, KeyCode::Down);
    }
}
