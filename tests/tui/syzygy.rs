//! Syzygy tables for people in the TUI: the `syzygy` setting opens them for the searches,
//! the eval pane and the status line show their verdict on a covered position ("tablebase:
//! White wins, DTZ 23", the sides named), and a directory without tables is said and play
//! goes on without them. Drawn on ratatui's TestBackend with a recording engine.
//!
//! The tables come from `scripts/get-syzygy.sh` (which `.ci/run` calls): the directory in
//! `OX88_SYZYGY`, else `target/syzygy`. Without them each test prints a note and passes.

use crate::common;

use std::path::{Path, PathBuf};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ox88::chess::Board;
use ox88::engine::syzygy::Tablebases;
use ox88::tui::app::{App, MessageKind};
use ox88::tui::settings::Settings;
use ox88::tui::{Mode, Options};

fn app_at(fen: &str, syzygy: Option<PathBuf>, mode: Mode) -> (App, common::app::Calls) {
    let opts = Options {
        fen: Some(fen.to_string()),
        mode,
        ..Options::of(Settings {
            ascii: true,
            depth: 3,
            syzygy,
            ..Settings::default()
        })
    };
    common::app::app_of(&opts)
}

fn enter(app: &mut App, text: &str) {
    for c in text.chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
}

/// The DTZ's size for `fen` as the prober gives it (what `ox88 tb` prints).
fn dtz(dir: &Path, fen: &str) -> u32 {
    let tables = Tablebases::open(dir).unwrap();
    let board = Board::from_fen(fen).unwrap();
    tables.probe_dtz(&board).unwrap().unwrap().unsigned_abs()
}

/// The screen's lines that carry `text`: the status line (the one with the depth setting)
/// and the others.
fn lines_with(app: &mut App, text: &str) -> (Vec<String>, Vec<String>) {
    let (lines, _) = common::render(app, 160, 40);
    lines
        .into_iter()
        .filter(|l| l.contains(text))
        .partition(|l| l.contains("depth 3"))
}

#[test]
fn a_covered_position_shows_the_tables_verdict_in_the_eval_pane_and_the_status_line() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    // KRK with either side to move: White wins, and the DTZ is the prober's.
    for fen in [
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",
    ] {
        let n = dtz(&dir, fen);
        assert!(n > 0, "{fen}");
        let (mut app, _) = app_at(fen, Some(dir.clone()), Mode::HumanWhite);
        let text = format!("tablebase: White wins, DTZ {n}");
        let (status, pane) = lines_with(&mut app, &text);
        assert_eq!(status.len(), 1, "{fen}: the status line says {text}");
        assert_eq!(pane.len(), 1, "{fen}: the eval pane says {text}");
    }
    // Black's rook: Black wins; a lone knight: a draw.
    let fen = "r3k3/8/8/8/4K3/8/8/8 w - - 0 1";
    let n = dtz(&dir, fen);
    let (mut app, _) = app_at(fen, Some(dir.clone()), Mode::HumanWhite);
    let (status, pane) = lines_with(&mut app, &format!("tablebase: Black wins, DTZ {n}"));
    assert_eq!((status.len(), pane.len()), (1, 1));
    let (mut app, _) = app_at(
        "8/8/8/4k3/8/8/8/N3K3 w - - 0 1",
        Some(dir),
        Mode::HumanWhite,
    );
    let (status, pane) = lines_with(&mut app, "tablebase: draw");
    assert_eq!((status.len(), pane.len()), (1, 1));
    // The same rook ending after 95 plies without a capture or pawn move: the win comes
    // too late for the fifty-move rule.
    let (mut app, _) = app_at(
        "8/8/8/4k3/8/8/8/R3K3 w - - 95 60",
        common::syzygy_dir(),
        Mode::HumanWhite,
    );
    let (status, pane) = lines_with(&mut app, "cursed win for White");
    assert_eq!((status.len(), pane.len()), (1, 1));
}

#[test]
fn the_verdict_follows_the_moves_and_is_absent_where_the_tables_do_not_reach() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let (mut app, _) = app_at(fen, Some(dir.clone()), Mode::HumanHuman);
    enter(&mut app, "Ra5+");
    let after = app.board().to_fen();
    let n = dtz(&dir, &after);
    let (status, pane) = lines_with(&mut app, &format!("tablebase: White wins, DTZ {n}"));
    assert_eq!((status.len(), pane.len()), (1, 1), "after Ra5+: {after}");
    // The opening position has 32 men: no verdict.
    let (mut app, _) = app_at(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        Some(dir),
        Mode::HumanWhite,
    );
    let (status, pane) = lines_with(&mut app, "tablebase");
    assert!(status.is_empty() && pane.is_empty(), "{status:?} {pane:?}");
}

#[test]
fn the_searches_carry_the_tables_and_a_directory_without_them_is_said() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let (_, calls) = app_at(fen, Some(dir.clone()), Mode::Analysis);
    let go = calls.last_go().expect("analysis searches at once");
    assert!(go.options.syzygy.tables.is_some());

    // A directory that is not there: a message, and the searches go on without tables.
    let (mut app, calls) = app_at(
        fen,
        Some(PathBuf::from("/no/such/syzygy/dir")),
        Mode::Analysis,
    );
    let m = app.message().expect("a message").clone();
    assert_eq!(m.kind, MessageKind::Error);
    assert!(m.text.contains("/no/such/syzygy/dir"), "{}", m.text);
    assert!(m.text.contains("without tables"), "{}", m.text);
    assert!(calls.last_go().unwrap().options.syzygy.tables.is_none());
    let (status, pane) = lines_with(&mut app, "tablebase:");
    assert!(status.is_empty() && pane.is_empty());

    // A directory without table files: said so.
    let empty = std::env::temp_dir().join(format!("ox88-no-tables-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (app, _) = app_at(fen, Some(empty.clone()), Mode::HumanWhite);
    let m = app.message().expect("a message");
    assert!(m.text.contains("no Syzygy tables"), "{}", m.text);

    // `:set syzygy DIR` opens them at once; a bad directory is refused and changes nothing.
    let (mut app, _) = app_at(fen, None, Mode::HumanWhite);
    assert!(lines_with(&mut app, "tablebase:").0.is_empty());
    enter(&mut app, &format!(":set syzygy {}", empty.display()));
    assert_eq!(app.message().unwrap().kind, MessageKind::Error);
    assert_eq!(app.prefs().settings().syzygy, None);
    enter(&mut app, &format!(":set syzygy {}", dir.display()));
    assert_eq!(
        app.prefs().settings().syzygy.as_deref(),
        Some(dir.as_path())
    );
    let n = dtz(&dir, fen);
    let (status, _) = lines_with(&mut app, &format!("tablebase: White wins, DTZ {n}"));
    assert_eq!(status.len(), 1);
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn a_player_of_the_ssh_server_cannot_name_a_directory_of_the_server() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let opts = Options::of(Settings {
        ascii: true,
        ..Settings::default()
    });
    let (builder, _) =
        common::app::builder_with(&opts, "default", ox88::tui::theme::ColorDepth::TrueColor);
    let root = std::env::temp_dir().join(format!("ox88-tb-root-{}", std::process::id()));
    let mut app = builder.file_root(root).build();
    enter(&mut app, &format!(":set syzygy {}", dir.display()));
    let m = app.message().unwrap();
    assert_eq!(m.kind, MessageKind::Error);
    assert!(m.text.contains("the server sets the tables"), "{}", m.text);
    assert_eq!(app.prefs().settings().syzygy, None);
}

/// After mate or stalemate the game is over and the board says how: no tablebase verdict
/// in the eval pane or the status line, though the tables cover the position; the eval
/// pane says checkmate or stalemate instead.
#[test]
fn a_mated_or_stalemated_position_gets_no_tablebase_verdict() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    for (fen, said) in [
        ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "checkmate, White wins"),
        ("k7/8/1Q6/8/8/8/8/K7 b - - 0 1", "stalemate"),
    ] {
        let (mut app, _) = app_at(fen, Some(dir.clone()), Mode::HumanWhite);
        let (status, pane) = lines_with(&mut app, "tablebase");
        assert!(
            status.is_empty() && pane.is_empty(),
            "{fen}: {status:?} {pane:?}"
        );
        let (_, pane) = lines_with(&mut app, said);
        assert!(!pane.is_empty(), "{fen}: the eval pane says {said}");
    }
}
