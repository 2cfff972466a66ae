//! End to end in a pseudo-terminal: the real binary, driven by keystrokes, its screen read
//! back through a VT100 emulator. Every wait is bounded; a failure prints the screen.

use crate::common;

use common::TempDir;
use common::pty::Pty;
use common::screen::Screen;
use portable_pty::CommandBuilder;

const ROWS: u16 = 24;
const COLS: u16 = 80;

/// Starts ox88 with `args` in an 80×24 pty, keeping its data (autosave) in `dir`, not $HOME.
fn start(dir: &TempDir, args: &[&str]) -> Pty {
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_ox88"));
    cmd.args(args);
    cmd.env("OX88_DATA_DIR", dir.path());
    cmd.env("HOME", dir.path());
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("COLORTERM");
    cmd.env_remove("NO_COLOR");
    Pty::spawn(cmd, ROWS, COLS)
}

/// The eight rank rows of the board pane (80×24 layout: rows 1..=8, columns 1..28).
fn board(s: &Screen) -> Vec<String> {
    s.rows()[1..9]
        .iter()
        .map(|r| r.chars().skip(1).take(27).collect())
        .collect()
}

/// A log line of a finished iteration: `d7/12 0:00.1 12,345 n 123,456 n/s E +0.29 ...`.
fn has_iteration_line(screen: &str) -> bool {
    screen.lines().any(|l| {
        l.split_whitespace()
            .collect::<Vec<_>>()
            .windows(4)
            .any(|w| {
                w[0].starts_with('d')
                    && w[0][1..].split('/').all(|n| n.parse::<u32>().is_ok())
                    && w[2].replace(',', "").parse::<u64>().is_ok()
                    && w[3] == "n"
            })
    })
}

#[test]
fn play_a_move_change_depth_refuse_an_illegal_move_and_quit() {
    let dir = TempDir::new("pty-play");
    let mut s = start(&dir, &[]);
    s.wait_for("the start screen", |s| {
        s.status()
            .starts_with("White to move │ you: White │ depth ")
    });
    assert!(
        s.screen().alternate_screen(),
        "the TUI runs on the alternate screen"
    );
    let depth: u32 = s
        .screen()
        .status()
        .split("depth ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap();

    s.send("e2e4\r");
    // The engine's reply (from the book or a search) appears on the board and in the log.
    s.wait_for("the engine's reply", |s| {
        s.status().starts_with("White to move") && s.text().contains("1.e4 ")
    });
    let after_reply = board(s.screen());
    // Black's two home ranks are no longer as they started: a pawn or a piece moved.
    assert_ne!(
        [after_reply[0].as_str(), after_reply[1].as_str()],
        ["8  ♜  ♞  ♝  ♛  ♚  ♝  ♞  ♜  ", "7  ♟  ♟  ♟  ♟  ♟  ♟  ♟  ♟  "],
        "Black moved a pawn or a piece:\n{}",
        s.screen().text()
    );
    assert!(
        after_reply[4].contains('♟'),
        "e4 has White's pawn:\n{}",
        s.screen().text()
    );

    // Out of the book the engine searches: a log line with depth and nodes.
    s.send("a2a3\r");
    s.wait_for("an iteration line and the reply", |s| {
        has_iteration_line(&s.text())
            && s.status().starts_with("White to move")
            && s.text().contains("2.a3 ")
    });

    // The depth key (empty input).
    s.send("+");
    let want = format!("│ depth {} │", depth + 1);
    s.wait_for("the depth to change", |s| s.status().contains(&want));

    // An illegal move: error with the reason, text kept, board unchanged.
    s.wait_for("the engine to be idle", |s| s.status().contains("idle"));
    let before = board(s.screen());
    s.send("e2e5\r");
    s.wait_for("the error message", |s| s.message().starts_with("e2e5"));
    assert!(
        s.screen().message().contains("no piece on e2"),
        "{}",
        s.screen().message()
    );
    assert!(
        s.screen().rows()[ROWS as usize - 3].contains("e2e5"),
        "the text stays in the input"
    );
    assert_eq!(board(s.screen()), before, "the board is unchanged");

    // Quit: the terminal leaves the alternate screen.
    s.send("\x03");
    let status = s.wait_exit();
    assert!(status.success(), "{status:?}");
    assert!(!s.screen().alternate_screen(), "back on the main screen");
    assert!(
        s.raw().windows(8).any(|w| w == b"\x1b[?1049l"),
        "left the alternate screen"
    );
}

#[test]
fn sigterm_restores_the_terminal() {
    let dir = TempDir::new("pty-term");
    let mut s = start(&dir, &[]);
    s.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    });
    s.signal("TERM");
    let status = s.wait_exit();
    assert!(
        status.success(),
        "a SIGTERM ends the program normally: {status:?}"
    );
    assert!(!s.screen().alternate_screen(), "back on the main screen");
}

#[test]
fn a_short_game_to_mate_against_the_engine() {
    let dir = TempDir::new("pty-mate");
    let mut s = start(&dir, &[]);
    s.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    });
    // 1.Kg6 Kg8 (Black's only move) 2.Ra8#.
    s.send(":fen 7k/8/5K2/8/8/8/8/R7 w - - 0 1\r");
    s.wait_for("the position", |s| {
        board(s)[0].contains('♚') && board(s)[7].contains('♜')
    });
    s.send("f6g6\r");
    s.wait_for("the engine's only move", |s| s.text().contains("1...Kg8"));
    s.send("a1a8\r");
    s.wait_for("the mate announced", |s| s.status().starts_with("1-0 │"));
    let screen = s.screen().text();
    assert!(screen.contains("1-0 White mates"), "{screen}");
    assert!(
        s.screen()
            .message()
            .starts_with("game over: 1-0 White mates"),
        "{}",
        s.screen().message()
    );
    s.send("h2h4\r");
    s.wait_for("a refusal", |s| s.message().contains("game is over"));
    s.send("\x03");
    assert!(s.wait_exit().success());
}

#[test]
fn engine_against_engine_plays_on_by_itself() {
    let dir = TempDir::new("pty-ee");
    let mut s = start(&dir, &[]);
    s.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    });
    s.send(":delay 0\r");
    s.wait_for("the delay set", |s| {
        s.message().contains("0 ms between moves")
    });
    s.send(":depth 3\r");
    s.send(":mode engine\r");
    s.wait_for("a few moves", |s| s.text().contains(" 3."));
    s.send("\x1b");
    s.wait_for("the pause", |s| s.status().contains("paused"));
    assert!(
        s.screen().status().contains("engine–engine"),
        "{}",
        s.screen().status()
    );
    s.send("\x03");
    assert!(s.wait_exit().success());
}

#[test]
fn a_killed_game_is_offered_again_with_every_move() {
    let dir = TempDir::new("pty-kill");
    let mut s = start(&dir, &[]);
    s.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    });
    s.send(":mode human\r");
    s.wait_for("two players", |s| s.status().contains("human–human"));
    for (i, m) in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"].iter().enumerate() {
        s.send(&format!("{m}\r"));
        let side = if i % 2 == 0 {
            "Black to move"
        } else {
            "White to move"
        };
        s.wait_for("the move", |s| s.status().starts_with(side));
    }
    s.wait_for("the move list", |s| {
        s.text().contains("1.e4 e5 2.Nf3 Nc6 3.Bb5")
    });
    // No goodbye: SIGKILL, as a crash or the OOM killer would.
    s.signal("KILL");
    let _ = s.wait_exit();
    drop(s);

    let mut s = start(&dir, &[]);
    s.wait_for("the resume question", |s| {
        s.message()
            .contains("Unfinished game: y resumes it, n sets it aside (3 moves")
    });
    s.send("y");
    s.wait_for("the resumed game", |s| {
        s.text().contains("1.e4 e5 2.Nf3 Nc6 3.Bb5")
    });
    // Black to move: the engine (Black, in the default mode) takes it from here, at once
    // (often from the book), so wait for its answer rather than catch the moment before.
    s.wait_for("the engine's answer to 3.Bb5", |s| {
        s.status().starts_with("White to move") && s.text().contains("3.Bb5 ")
    });
    s.send("\x03");
    assert!(s.wait_exit().success());
}

#[test]
fn color_16_writes_only_basic_colour_codes_to_the_terminal() {
    let dir = TempDir::new("pty-c16");
    let mut s = start(&dir, &["--color", "16", "--mode", "human"]);
    s.wait_for("the start screen", |s| s.status().contains("White to move"));
    s.send("e2e4\r");
    s.wait_for("the move in the log", |s| s.text().contains("1. e4"));
    s.send("\x03");
    s.wait_exit();
    let raw = String::from_utf8_lossy(s.raw()).to_string();
    for banned in ["38;5;", "48;5;", "38;2;", "48;2;"] {
        assert!(!raw.contains(banned), "{banned} written at --color 16");
    }
    // Colour is still written, in the basic codes (parameters of `ESC[...m` sequences).
    let basic = raw
        .split("\x1b[")
        .filter_map(|seq| seq.split_once('m').map(|(p, _)| p))
        .filter(|p| p.chars().all(|c| c.is_ascii_digit() || c == ';'))
        .flat_map(|p| {
            p.split(';')
                .filter_map(|n| n.parse::<u32>().ok())
                .collect::<Vec<_>>()
        })
        .any(|n| (30..=37).contains(&n) || (90..=97).contains(&n));
    assert!(basic, "no basic colour code written");
}

#[test]
fn review_after_a_few_moves_marks_the_blunder_and_esc_goes_back() {
    let dir = TempDir::new("pty-review");
    let mut s = start(&dir, &["--mode", "human"]);
    s.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    });
    for m in ["e4\r", "d5\r", "Qg4\r"] {
        s.send(m);
    }
    s.wait_for("three moves", |s| s.status().starts_with("Black to move"));
    s.send(":review\r");
    let marked = |s: &common::screen::Screen| {
        s.text()
            .lines()
            .any(|l| l.contains("2. Qg4??") && l.contains("better"))
    };
    s.wait_for("the review view", marked);
    assert!(
        s.screen().text().contains("Review"),
        "{}",
        s.screen().text()
    );
    s.send("\x1b");
    s.wait_for("the log again", |s| !marked(s));
    s.send("\x03");
    assert!(s.wait_exit().success());
}

#[test]
fn the_lab_runs_in_the_background_and_shows_its_table() {
    let dir = TempDir::new("pty-lab");
    let mut s = start(&dir, &[]);
    s.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    });
    s.send(":lab 3\r");
    // The whole table, up to its last row (output may arrive in pieces).
    s.wait_for("the lab's table", |s| {
        let screen = s.text();
        screen.contains("done: 10 runs") && screen.contains("modern    full")
    });
    let screen = s.screen().text();
    assert!(screen.contains("Lab: depth 3, 10 runs"), "{screen}");
    for scheme in ["none", "mvvlva100", "modern"] {
        assert!(screen.contains(scheme), "{scheme}:\n{screen}");
    }
    assert!(screen.contains('★'), "the best run is marked:\n{screen}");
    // Back to the board and the log: the game goes on.
    s.send(":view log\r");
    s.wait_for("the board", |s| s.text().contains("Board"));
    s.send("e2e4\r");
    s.wait_for("the move", |s| s.text().contains("1.e4"));
    s.send("\x03");
    assert!(s.wait_exit().success());
}

#[test]
fn the_tree_browser_opens_after_an_engine_move_goes_down_two_levels_and_back() {
    let dir = TempDir::new("pty-tree");
    // Out of the book with Black to move: the engine searches at once.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 5 4";
    let mut s = start(&dir, &["--fen", fen, "--depth", "4"]);
    s.wait_for("the engine's move", |s| {
        s.status().starts_with("White to move") && s.status().contains("idle")
    });
    let before = board(s.screen());
    // The path is the first line of the pane: `root › Nxe4 › …`.
    let path = |s: &Screen| {
        s.rows()[1]
            .split('│')
            .nth(3)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    s.send("\x1b[21~"); // F10
    s.wait_for("the tree", |s| s.text().contains(" Tree d4 "));
    assert_eq!(path(s.screen()), "root", "{}", s.screen().text());
    s.send("\r");
    s.wait_for("one level down", |s| path(s).matches(" › ").count() == 1);
    let one = board(s.screen());
    assert_ne!(one, before, "the board shows the child's position");
    s.send("\r");
    s.wait_for("two levels down", |s| path(s).matches(" › ").count() == 2);
    assert_ne!(board(s.screen()), one, "and the grandchild's");
    s.send("\x7f"); // Backspace
    s.wait_for("one level up", |s| path(s).matches(" › ").count() == 1);
    assert_eq!(board(s.screen()), one);
    s.send("\x7f");
    s.wait_for("the root", |s| path(s) == "root");
    s.send("\x1b");
    s.wait_for("the log again", |s| s.text().contains(" Log "));
    assert_eq!(board(s.screen()), before, "the game's position again");
    s.send("\x03");
    assert!(s.wait_exit().success());
}

#[test]
fn a_bad_fen_or_pgn_and_a_dumb_terminal_stop_it_with_a_message_and_status_2() {
    let dir = TempDir::new("pty-refuse");
    let bad_pgn = dir.path().join("bad.pgn");
    std::fs::write(&bad_pgn, "[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n").unwrap();
    let pgn_arg = bad_pgn.to_string_lossy().to_string();
    for (args, says) in [
        (vec!["--fen", "8/8/8 w - - 0 1"], "--fen:"),
        (vec!["--pgn", pgn_arg.as_str()], "--pgn "),
        (
            vec!["--pgn", "/nonexistent/game.pgn"],
            "--pgn /nonexistent/game.pgn",
        ),
    ] {
        let mut p = start(&dir, &args);
        let status = p.wait_exit();
        assert_eq!(status.exit_code(), 2, "{args:?}");
        let text = p.screen().text();
        assert!(text.contains(says), "{args:?}: {text}");
    }
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_ox88"));
    cmd.env("OX88_DATA_DIR", dir.path());
    cmd.env("HOME", dir.path());
    cmd.env("TERM", "dumb");
    let mut p = Pty::spawn(cmd, ROWS, COLS);
    let status = p.wait_exit();
    assert_eq!(status.exit_code(), 2);
    let text = p.screen().text();
    assert!(
        text.contains("TERM=dumb") && text.contains("ox88 uci"),
        "{text}"
    );
}

#[test]
fn a_puzzle_is_answered_wrong_then_right_and_its_solution_shown() {
    let dir = TempDir::new("pty-puzzle");
    let file = dir.path().join("p.csv");
    std::fs::write(
        &file,
        "PuzzleId,FEN,Moves,Rating\nFork1,r3k3/pp3ppp/8/1N6/8/8/PPP2PPP/4K3 b - - 0 20,h7h6 b5c7 e8d7 c7a8,1500\n",
    )
    .unwrap();
    let mut s = start(
        &dir,
        &["--mode", "human", "--puzzles", file.to_str().unwrap()],
    );
    s.wait_for("the start screen", |s| {
        s.status().starts_with("White to move")
    });
    s.send(":puzzle\r");
    s.wait_for("the puzzle", |s| s.message().contains("puzzle Fork1"));
    s.send("a3\r");
    s.wait_for("a wrong answer refused", |s| {
        s.message().contains("a3 is not it")
    });
    // Typing replaces the refused answer; the right one brings the reply.
    s.send("Nc7+\r");
    s.wait_for("the reply", |s| s.message().contains("Kd7 was the reply"));
    s.send("\x1bOQ"); // F2: the rest of the solution
    s.wait_for("the solution", |s| s.message().contains("solution shown"));
    s.send(":puzzle off\r");
    s.wait_for("the game again", |s| {
        s.message().contains("back to your game")
    });
    s.send("\x03");
    assert!(s.wait_exit().success());
}
