//! The game model (issue 7): the move line and its cursor, game end by the rules and from
//! outside, and the autosave that loses nothing.

use crate::common::TempDir;
use std::fs;

use ox88::chess::{Board, Color};
use ox88::engine::Score;
use ox88::game::autosave::{self, Autosave};
use ox88::game::{EngineNote, Game, GameError, Outcome, Termination};
use proptest::prelude::*;

fn game_after(moves: &str) -> Game {
    let mut g = Game::new();
    for m in moves.split_whitespace() {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

#[test]
fn undo_redo_and_branching() {
    let mut g = game_after("e4 e5 Nf3");
    assert_eq!((g.ply(), g.len()), (3, 3));
    assert_eq!(g.undo().map(|m| m.to_string()).as_deref(), Some("g1f3"));
    assert_eq!(g.undo().map(|m| m.to_string()).as_deref(), Some("e7e5"));
    assert_eq!((g.ply(), g.len()), (1, 3));
    assert_eq!(
        g.fen(),
        Game::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap()
            .fen()
    );
    // Replaying the next move of the line steps forward and keeps the rest.
    g.play_text("e5").unwrap();
    assert_eq!((g.ply(), g.len()), (2, 3));
    assert_eq!(g.redo().map(|m| m.to_string()).as_deref(), Some("g1f3"));
    assert_eq!(g.redo(), None);
    // A different move replaces the rest of the line.
    g.goto(2);
    g.play_text("Nc3").unwrap();
    assert_eq!(g.sans(), ["e4", "e5", "Nc3"]);
    assert_eq!(g.redo(), None);
    g.goto(0);
    assert_eq!(g.undo(), None);
    assert_eq!(g.board().to_fen(), Board::START_FEN);
    g.goto(99);
    assert_eq!(g.ply(), 3);
    // Taking back for good.
    g.goto(1);
    g.truncate();
    assert_eq!(g.sans(), ["e4"]);
}

#[test]
fn engine_notes_and_numbering() {
    let mut g = Game::new();
    let m = g.board().parse_move("d4").unwrap();
    let note = EngineNote {
        score: Score::Cp(29),
        depth: 12,
    };
    assert_eq!(g.play_engine(m, note).unwrap().engine, Some(note));
    g.play_text("Nf6").unwrap();
    assert_eq!(g.numbered_san(0).as_deref(), Some("1. d4"));
    assert_eq!(g.numbered_san(1).as_deref(), Some("1...Nf6"));
    assert_eq!(g.numbered_san(2), None);
    assert!(
        g.to_pgn().contains("1. d4 {+0.29/12} 1... Nf6 *"),
        "{}",
        g.to_pgn()
    );
}

#[test]
fn the_rules_end_the_game() {
    let mate = game_after("f3 e5 g4 Qh4#");
    let end = mate.result().unwrap();
    assert_eq!(
        (end.outcome, end.termination),
        (Outcome::BlackWins, Termination::Checkmate)
    );
    assert_eq!(end.to_string(), "0-1 (Black mates)");
    let mut over = mate.clone();
    assert!(matches!(
        over.play_text("a3"),
        Err(GameError::Parse(_)) | Err(GameError::Over(_))
    ));
    let any = Board::startpos()
        .legal_moves()
        .iter()
        .next()
        .copied()
        .unwrap();
    assert_eq!(over.play(any), Err(GameError::Over(end)));

    let mut stale = Game::from_fen("k7/8/8/1Q6/8/8/8/7K w - - 0 1").unwrap();
    stale.play_text("Qb6").unwrap();
    assert_eq!(
        stale.result().map(|e| e.termination),
        Some(Termination::Stalemate)
    );

    let mut fifty = Game::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
    assert_eq!(fifty.result(), None);
    fifty.play_text("Ra2").unwrap();
    assert_eq!(
        fifty.result().map(|e| e.reason()).as_deref(),
        Some("fifty-move rule")
    );
    // Mate on the hundredth half-move still wins (FIDE 9.3).
    let mut mate_at_fifty = Game::from_fen("k7/8/1K6/8/8/8/8/7R w - - 99 80").unwrap();
    mate_at_fifty.play_text("Rh8").unwrap();
    assert_eq!(
        mate_at_fifty.result().map(|e| e.termination),
        Some(Termination::Checkmate)
    );

    let mut rep = game_after("Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1");
    assert_eq!(rep.result(), None);
    rep.play_text("Ng8").unwrap();
    assert_eq!(
        rep.result().map(|e| e.termination),
        Some(Termination::ThreefoldRepetition)
    );
    // Stepping back un-ends it; the line's result is still the repetition.
    rep.undo();
    assert_eq!(rep.result(), None);
    assert_eq!(
        rep.final_result().map(|e| e.termination),
        Some(Termination::ThreefoldRepetition)
    );

    let mut bare = Game::from_fen("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1").unwrap();
    bare.play_text("Nxd5").unwrap();
    assert_eq!(
        bare.result().map(|e| e.termination),
        Some(Termination::InsufficientMaterial)
    );
}

#[test]
fn results_from_outside() {
    let mut g = game_after("e4 e5");
    let end = g.resign(Color::White).unwrap();
    assert_eq!(end.to_string(), "0-1 (White resigns)");
    assert!(matches!(g.agree_draw(), Err(GameError::Over(_))));
    assert!(matches!(g.play_text("Nf3"), Err(GameError::Over(_))));
    // Looking back: the earlier position is not over, and no result can be declared there.
    g.undo();
    assert_eq!(g.result(), None);
    assert!(matches!(
        g.agree_draw(),
        Err(GameError::NotAtEnd { shown: 1, total: 2 })
    ));
    assert_eq!(g.final_result(), Some(end));
    g.redo();
    assert_eq!(g.result(), Some(end));
    // Playing on from an earlier position is a new line: the resignation goes with the old.
    g.undo();
    g.play_text("c5").unwrap();
    assert_eq!(g.result(), None);
    assert_eq!(g.agree_draw().unwrap().to_string(), "1/2-1/2 (draw agreed)");

    // A flag fall loses, unless the other side has nothing to mate with (FIDE 6.9).
    let mut pawn = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    assert_eq!(
        pawn.clone().flag_fall(Color::Black).unwrap().outcome,
        Outcome::WhiteWins
    );
    assert_eq!(
        pawn.flag_fall(Color::White).unwrap().to_string(),
        "1/2-1/2 (White's flag fell, but Black cannot mate)"
    );
}

#[test]
fn refused_moves_leave_the_game_alone() {
    let mut g = game_after("e4");
    let before = g.to_pgn();
    let from_elsewhere = Board::startpos().parse_move("d4").unwrap();
    assert_eq!(
        g.play(from_elsewhere),
        Err(GameError::Illegal(from_elsewhere))
    );
    assert_eq!(
        g.play_text("e7e4").unwrap_err().to_string(),
        "e7e4: not a legal move for the pawn on e7 (it can go to e6 or e5)"
    );
    assert_eq!(g.to_pgn(), before);
    assert_eq!(g.ply(), 1);
}

proptest! {
    /// Whatever mix of moves, undos, redos and jumps: the position at the cursor is the
    /// start position with the line's first `ply` moves played, and the line stays legal.
    #[test]
    fn the_cursor_position_is_always_the_replayed_line(ops in proptest::collection::vec((0u8..5, 0usize..1000), 1..80)) {
        let mut g = Game::new();
        for (op, n) in ops {
            match op {
                0 | 1 => {
                    let moves = g.board().legal_moves();
                    if !g.is_over() && !moves.is_empty() {
                        let m = moves.as_slice()[n % moves.len()];
                        g.play(m).unwrap();
                    }
                }
                2 => { g.undo(); }
                3 => { g.redo(); }
                _ => g.goto(n % (g.len() + 1)),
            }
            prop_assert!(g.ply() <= g.len());
            prop_assert_eq!(g.board().to_fen(), g.position_at(g.ply()).unwrap().to_fen());
            prop_assert_eq!(g.board().repetitions(), g.position_at(g.ply()).unwrap().repetitions());
        }
        let back = Game::from_pgn(&g.to_pgn()).unwrap();
        prop_assert_eq!(back.moves(), g.moves());
    }
}

// ---- autosave ------------------------------------------------------------------------------

/// A fresh directory under the system temp dir, removed on drop.
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().to_string())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn autosave_keeps_every_move_and_resumes() {
    let tmp = TempDir::new("autosave");
    let store = Autosave::in_dir(tmp.path().join("data"));
    assert!(store.load_unfinished().unwrap().is_none());
    let mut g = Game::new();
    assert_eq!(
        store.save(&g).unwrap(),
        None,
        "an empty game is not worth a file"
    );
    for m in ["e4", "c5", "Nf3", "d6", "d4", "cxd4"] {
        g.play_text(m).unwrap();
        let note = EngineNote {
            score: Score::Cp(-12),
            depth: 9,
        };
        if m == "d6" {
            g.undo();
            g.play_engine(g.board().parse_move(m).unwrap(), note)
                .unwrap();
        }
        assert_eq!(store.save(&g).unwrap(), Some(store.current_path()));
        let back = store
            .load_unfinished()
            .unwrap()
            .expect("an unfinished game");
        assert_eq!(back.moves(), g.moves());
        assert_eq!(
            back.id(),
            g.id(),
            "the resumed game keeps its autosave file"
        );
        assert_eq!(back.ply(), g.len());
    }
    // Only the current game and no temporary files.
    assert_eq!(files_in(store.dir()), ["current.pgn"]);
    let text = fs::read_to_string(store.current_path()).unwrap();
    assert!(text.starts_with("% ox88 autosave "), "{text}");
    assert!(text.contains("[Result \"*\"]"));

    // A new game does not overwrite the unfinished one: that is set aside first.
    let mut other = Game::new();
    other.play_text("d4").unwrap();
    store.save(&other).unwrap();
    let archived = files_in(&store.archive_dir());
    assert_eq!(archived.len(), 1);
    assert!(archived[0].ends_with("_unfinished.pgn"), "{archived:?}");
    let set_aside =
        Game::from_pgn(&fs::read_to_string(store.archive_dir().join(&archived[0])).unwrap())
            .unwrap();
    assert_eq!(set_aside.moves(), g.moves());
    assert_eq!(store.load_unfinished().unwrap().unwrap().sans(), ["d4"]);

    // A finished game is archived (once, however often it is saved) and the marker cleared.
    other.resign(Color::Black).unwrap();
    let path = store.save(&other).unwrap().unwrap();
    assert_eq!(store.save(&other).unwrap(), Some(path.clone()));
    assert!(!store.current_path().exists());
    assert!(store.load_unfinished().unwrap().is_none());
    assert_eq!(files_in(&store.archive_dir()).len(), 2);
    let finished = Game::from_pgn(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        finished.result().map(|r| r.to_string()).as_deref(),
        Some("1-0 (Black resigns)")
    );
}

#[test]
fn a_damaged_autosave_is_reported_and_never_overwritten() {
    let tmp = TempDir::new("damaged");
    let store = Autosave::in_dir(tmp.path());
    fs::write(store.current_path(), "[Event \"x\"]\n\n1. e4 e5 2. Ke4 *\n").unwrap();
    let e = store.load_unfinished().unwrap_err().to_string();
    assert!(
        e.contains("current.pgn") && e.contains("line 3: 'Ke4' is not a legal move"),
        "{e}"
    );
    let mut g = Game::new();
    g.play_text("e4").unwrap();
    store.save(&g).unwrap();
    let archived = files_in(&store.archive_dir());
    assert_eq!(archived.len(), 1, "the damaged file is kept");
    assert!(
        fs::read_to_string(store.archive_dir().join(&archived[0]))
            .unwrap()
            .contains("Ke4")
    );
    assert_eq!(store.load_unfinished().unwrap().unwrap().sans(), ["e4"]);
    // The user declines to resume: the game goes to the archive, nothing is deleted.
    let moved = store.set_aside().unwrap().unwrap();
    assert!(moved.exists() && !store.current_path().exists());
    assert_eq!(store.set_aside().unwrap(), None);
}

#[test]
fn write_atomic_replaces_whole_files() {
    let tmp = TempDir::new("atomic");
    let p = tmp.path().join("game.pgn");
    autosave::write_atomic(&p, b"first").unwrap();
    autosave::write_atomic(&p, b"second, longer").unwrap();
    assert_eq!(fs::read_to_string(&p).unwrap(), "second, longer");
    assert_eq!(files_in(tmp.path()), ["game.pgn"]);
    assert!(autosave::write_atomic(&tmp.path().join("no/such/dir/x.pgn"), b"x").is_err());
    assert_eq!(files_in(tmp.path()), ["game.pgn"]);
}

/// Run as a child process by `the_data_directory_comes_from_the_environment` with
/// `OX88_DATA_DIR` set (setting the variable in this process would need `unsafe`).
#[test]
#[ignore]
fn child_saves_through_the_environment() {
    if std::env::var_os(autosave::DATA_DIR_ENV).is_none() {
        return;
    }
    autosave::save(&game_after("e4 e5 Nf3")).unwrap();
    assert_eq!(
        autosave::load_unfinished().unwrap().unwrap().sans(),
        ["e4", "e5", "Nf3"]
    );
}

#[test]
fn the_data_directory_comes_from_the_environment() {
    let tmp = TempDir::new("env");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--ignored",
            "--exact",
            "game::child_saves_through_the_environment",
            "--quiet",
        ])
        .env(autosave::DATA_DIR_ENV, tmp.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let text = fs::read_to_string(tmp.path().join("current.pgn")).unwrap();
    assert!(text.contains("1. e4 e5 2. Nf3 *"), "{text}");
}

#[test]
fn annotations_are_set_only_with_legal_variations() {
    use ox88::game::{AnnotationError, Annotations};
    let mut game = Game::new();
    for m in ["e4", "e5", "Nf3"] {
        game.play_text(m).unwrap();
    }
    let before = game.position_at(2).unwrap();
    let nc3 = before.parse_san("Nc3").unwrap();
    let nc6 = {
        let mut b = before.clone();
        b.make(nc3);
        b.parse_san("Nc6").unwrap()
    };
    let good = Annotations {
        eval: Some(Score::Cp(30)),
        nags: vec![1],
        comment: Some("develops".to_string()),
        variations: vec![vec![nc3, nc6]],
    };
    game.set_annotations(2, good.clone()).unwrap();
    assert_eq!(game.moves()[2].annotations, good);
    // A line that is not legal from the position before the move: refused, nothing changes.
    let bad = Annotations {
        variations: vec![vec![nc3, nc3]],
        ..Annotations::default()
    };
    assert_eq!(
        game.set_annotations(2, bad),
        Err(AnnotationError::IllegalVariation {
            variation: 1,
            ply: 2,
            mv: nc3
        })
    );
    assert_eq!(game.moves()[2].annotations, good);
    let e = game.set_annotations(3, Annotations::default()).unwrap_err();
    assert_eq!(e.to_string(), "there is no move 3 (0-based) in a line of 3");
    // Annotations follow the move: playing a different move there drops them.
    game.undo();
    game.play_text("Nc3").unwrap();
    assert_eq!(game.moves()[2].annotations, Annotations::default());
}

#[test]
fn an_archived_game_without_a_date_is_named_by_today_never_by_dashes() {
    let dir = std::env::temp_dir().join(format!("ox88-nodate-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    let store = Autosave::in_dir(&dir);
    let mut g = Game::from_pgn("[Event \"?\"]\n[Date \"????.??.??\"]\n\n1. e4 e5 *\n").unwrap();
    assert_eq!(g.tags.date, "????.??.??");
    g.resign(Color::White).unwrap();
    let path = store.save(&g).unwrap().expect("archived");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let today = chrono::Local::now().format("%Y-%m-%d").to_string();
    assert!(name.starts_with(&format!("{today}_")), "{name}");
    assert!(!name.starts_with('-'));
    // A game with a date keeps it.
    let mut dated = Game::from_pgn("[Date \"2024.03.09\"]\n\n1. d4 *\n").unwrap();
    dated.resign(Color::Black).unwrap();
    let path = store.save(&dated).unwrap().expect("archived");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    assert!(name.starts_with("2024-03-09_"), "{name}");
    fs::remove_dir_all(&dir).unwrap();
}
