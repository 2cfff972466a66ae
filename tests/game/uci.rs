//! The UCI front end, tested the way GUIs use it: the real binary is spawned with `uci` and
//! talked to through pipes. Every wait has a timeout (a reader thread feeds a channel), so a
//! hang fails the test instead of freezing it. Moves are checked for legality with shakmaty,
//! an independent move generator; no test asserts which move or score the search prefers.

use crate::common;
use common::Rng;
use common::uci::{ANSWER, Uci};

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// How long `stop` may take before we call it a hang.
const STOP_ANSWER: Duration = Duration::from_secs(5);

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// The position after `fen` (or the start) and `moves`, by shakmaty.
fn position(fen: Option<&str>, moves: &[&str]) -> Chess {
    let mut pos: Chess = match fen {
        Some(f) => f
            .parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Standard)
            .expect("test position"),
        None => Chess::default(),
    };
    for m in moves {
        let mv = m
            .parse::<UciMove>()
            .expect("test move")
            .to_move(&pos)
            .expect("legal test move");
        pos.play_unchecked(mv);
    }
    pos
}

fn assert_legal(pos: &Chess, text: &str, context: &str) -> shakmaty::Move {
    let parsed = text
        .parse::<UciMove>()
        .unwrap_or_else(|e| panic!("{context}: '{text}' is not a UCI move: {e}"));
    parsed
        .to_move(pos)
        .unwrap_or_else(|e| panic!("{context}: '{text}' is not legal in {}: {e}", fen_of(pos)))
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// Checks an `info` line's grammar, and that its PV is a legal line from `pos`.
fn check_info(pos: &Chess, line: &str) {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(tokens.first(), Some(&"info"), "{line}");
    if tokens.get(1) == Some(&"string") {
        return;
    }
    let number = |i: usize| -> i64 {
        tokens
            .get(i)
            .and_then(|t| t.parse::<i64>().ok())
            .unwrap_or_else(|| panic!("{line}: a number expected after '{}'", tokens[i - 1]))
    };
    let mut i = 1;
    while i < tokens.len() {
        match tokens[i] {
            "depth" | "seldepth" | "nodes" | "nps" | "time" | "currmovenumber" | "tbhits" => {
                assert!(number(i + 1) >= 0, "{line}");
                i += 2;
            }
            "multipv" => {
                assert!(number(i + 1) >= 1, "{line}");
                i += 2;
            }
            "hashfull" => {
                assert!((0..=1000).contains(&number(i + 1)), "{line}");
                i += 2;
            }
            "score" => {
                assert!(
                    matches!(tokens.get(i + 1), Some(&"cp") | Some(&"mate")),
                    "{line}"
                );
                number(i + 2);
                i += 3;
                if matches!(tokens.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
            }
            "currmove" => {
                assert_legal(pos, tokens.get(i + 1).unwrap_or(&""), line);
                i += 2;
            }
            "pv" | "refutation" => {
                let mut p = pos.clone();
                for m in &tokens[i + 1..] {
                    let mv = assert_legal(&p, m, line);
                    p.play_unchecked(mv);
                }
                i = tokens.len();
            }
            other => panic!("{line}: unexpected token '{other}'"),
        }
    }
}

/// Runs `go …` on `fen`+`moves` and checks the whole answer: info grammar, legal PVs, a
/// legal best move and ponder move.
fn search(uci: &mut Uci, fen: Option<&str>, moves: &[&str], go: &str) -> String {
    let pos = position(fen, moves);
    let base = match fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".to_string(),
    };
    let cmd = if moves.is_empty() {
        base
    } else {
        format!("{base} moves {}", moves.join(" "))
    };
    uci.expect_ok(&cmd);
    uci.send(go);
    let mut lines = uci.until(ANSWER, "bestmove", |l| l.starts_with("bestmove"));
    let last = lines.pop().unwrap_or_default();
    for l in &lines {
        if l.starts_with("info") {
            check_info(&pos, l);
        }
    }
    let words: Vec<&str> = last.split_whitespace().collect();
    assert!(
        words.len() == 2 || (words.len() == 4 && words[2] == "ponder"),
        "bad bestmove line '{last}'"
    );
    let best = words[1].to_string();
    let mv = assert_legal(&pos, &best, go);
    if let Some(p) = words.get(3) {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        assert_legal(&after, p, &format!("{go} (ponder move)"));
    }
    best
}

#[test]
fn handshake_names_the_engine_and_declares_the_options() {
    let mut uci = Uci::start();
    let lines = uci.handshake();
    assert!(
        lines.iter().any(|l| l.starts_with("id name ox88 ")),
        "{lines:?}"
    );
    assert!(lines.contains(&"id author the ox88 developers".to_string()));
    for name in [
        "Hash",
        "Clear Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "OwnBook",
        "BookFile",
        "Eval",
        "Ordering",
        "Profile",
        "UCI_Opponent",
        "UCI_EngineAbout",
        "UCI_ShowRefutations",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "option {name} not declared: {lines:?}"
        );
    }
    // Every option line follows the UCI grammar for its type.
    for l in lines.iter().filter(|l| l.starts_with("option ")) {
        let ty = l
            .split(" type ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next());
        match ty {
            Some("spin") => assert!(
                l.contains(" default ") && l.contains(" min ") && l.contains(" max "),
                "{l}"
            ),
            Some("check") => assert!(
                l.ends_with(" default true") || l.ends_with(" default false"),
                "{l}"
            ),
            Some("combo") => assert!(l.contains(" default ") && l.contains(" var "), "{l}"),
            Some("string") => assert!(l.contains(" default "), "{l}"),
            Some("button") => {}
            _ => panic!("bad option line {l}"),
        }
    }
    assert!(uci.sync().is_empty());
    uci.send("quit");
    assert!(uci.wait_exit(ANSWER).success());
}

#[test]
fn show_refutations_names_a_legal_reply_for_each_refuted_root_move() {
    let fen = "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6";
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("setoption name OwnBook value false");
    uci.expect_ok(&format!("position fen {fen}"));
    uci.send("go depth 4");
    let (lines, _) = uci.bestmove(ANSWER);
    assert!(
        !lines.iter().any(|l| l.starts_with("info refutation")),
        "off by default"
    );
    uci.expect_ok("setoption name uci_showrefutations value true");
    uci.expect_ok("ucinewgame");
    uci.expect_ok(&format!("position fen {fen}"));
    uci.send("go depth 6");
    let (lines, best) = uci.bestmove(ANSWER);
    let pos = position(Some(fen), &[]);
    // The last iteration: its info line, then its refutations.
    let last_info = lines
        .iter()
        .rposition(|l| l.starts_with("info depth 6 ") && !l.contains("bound"))
        .expect("depth 6 reported");
    let pv = lines[last_info].split(" pv ").nth(1).unwrap().to_string();
    let refutations: Vec<&String> = lines[last_info + 1..]
        .iter()
        .filter(|l| l.starts_with("info refutation "))
        .collect();
    assert!(refutations.len() >= 2, "{lines:?}");
    let mut moves = Vec::new();
    for l in &refutations {
        check_info(&pos, l); // a legal move, then a legal line after it
        let words: Vec<&str> = l.split_whitespace().skip(2).collect();
        moves.push(words[0].to_string());
        if words[0] == best {
            assert_eq!(words.join(" "), pv, "the best move's line is its PV");
        } else {
            assert_eq!(words.len(), 2, "a refuted move and its reply: {l}");
        }
    }
    assert!(
        moves.contains(&best),
        "the best move is listed: {refutations:?}"
    );
    let n = moves.len();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), n, "each root move once: {refutations:?}");
    uci.send("setoption name UCI_ShowRefutations value maybe");
    let err = uci.sync();
    assert!(
        err.iter()
            .any(|l| l.contains("UCI_ShowRefutations: expected 'true' or 'false'")),
        "{err:?}"
    );
}

#[test]
fn no_arguments_and_a_pipe_for_input_means_uci() {
    // GUIs start engines without arguments and speak first.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ox88"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn ox88");
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(b"uci\nisready\nquit\n").expect("write");
    drop(stdin);
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let lines: Vec<String> = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .collect();
        let _ = tx.send(lines);
    });
    let lines = rx
        .recv_timeout(ANSWER)
        .expect("ox88 answered and closed its output");
    let deadline = Instant::now() + ANSWER;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ox88 did not exit after quit");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(lines.contains(&"uciok".to_string()), "{lines:?}");
    assert_eq!(
        lines.last().map(String::as_str),
        Some("readyok"),
        "{lines:?}"
    );
    assert!(status.success());
}

#[test]
fn every_limit_kind_ends_with_a_legal_bestmove() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("ucinewgame");
    search(&mut uci, None, &[], "go depth 3");
    search(&mut uci, None, &["e2e4", "e7e5"], "go nodes 5000");
    search(&mut uci, Some(KIWIPETE), &[], "go movetime 200");
    search(
        &mut uci,
        None,
        &["d2d4", "g8f6", "c2c4"],
        "go wtime 3000 btime 3000 winc 50 binc 50",
    );
    search(
        &mut uci,
        None,
        &["e2e4", "c7c5", "g1f3"],
        "go wtime 5000 btime 4000 movestogo 20",
    );
    // Sudden death with almost nothing left: must still answer, and in time.
    search(&mut uci, None, &["g1f3"], "go wtime 50 btime 50");
    // Mate in one on the back rank (Rd8#), asked as mate in 2.
    search(
        &mut uci,
        Some("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
        &[],
        "go mate 2",
    );
    search(&mut uci, None, &[], "go depth 2 nodes 100000 movetime 2000");
}

/// "search exactly x mseconds": `go movetime N` is used whole, so `bestmove` comes no sooner
/// than N less the move overhead (here none). A lower bound only: a busy machine makes the
/// answer later, never sooner. The positions are quiet openings whose best move settles
/// early, where a clock's early stop would answer long before N.
#[test]
fn go_movetime_searches_the_whole_time() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("setoption name OwnBook value false");
    uci.expect_ok("setoption name Move Overhead value 0");
    let movetime = Duration::from_millis(400);
    for fen in [
        "rnb2rk1/ppp1nppp/3b4/3p4/3P4/3B1N2/PPP1KPPP/RNB1R3 w - - 0 9",
        "rn1qk2r/pb1pbppp/4pn2/8/PpPp4/5NP1/1P2PPBP/RNBQ1RK1 w kq - 0 9",
        "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 11",
        "rn1qk2r/pb1pbppp/4pn2/2p5/Q1P5/5NP1/PP1PPPBP/RNB2RK1 w kq - 0 9",
        "rn2kb1r/1bqp1ppp/p3pn2/1p6/3NPP2/3Q4/PPP1B1PP/RNB2RK1 w kq - 0 9",
        "r2qkb1r/pb1n1ppp/2p1pn2/1p4B1/3PP3/1Q3N2/PP3PPP/RN2KB1R w KQkq - 0 9",
    ] {
        uci.send(&format!("position fen {fen}"));
        let sent = Instant::now();
        uci.send(&format!("go movetime {}", movetime.as_millis()));
        let (_, mv) = uci.bestmove(ANSWER);
        let took = sent.elapsed();
        assert_legal(&position(Some(fen), &[]), &mv, fen);
        assert!(
            took >= movetime,
            "{fen}: bestmove after {took:?} of a {movetime:?} move time; transcript:\n{}",
            uci.transcript()
        );
    }
}

/// The exceptions to a whole move time: a proven mate and a single legal move answer at
/// once, well inside a move time of a minute.
#[test]
fn go_movetime_answers_a_proven_mate_or_a_single_legal_move_at_once() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("setoption name OwnBook value false");
    for (fen, only) in [
        ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "d1d8"),
        ("7k/8/8/8/8/8/6Q1/K7 b - - 0 1", "h8h7"),
    ] {
        uci.send(&format!("position fen {fen}"));
        uci.send("go movetime 60000");
        let (_, mv) = uci.bestmove(ANSWER);
        assert_eq!(mv, only, "{fen}");
    }
}

#[test]
fn searchmoves_restricts_the_answer() {
    let mut uci = Uci::start();
    uci.handshake();
    for allowed in [
        vec!["a2a3", "h2h3"],
        vec!["g1h3"],
        vec!["b2b4", "g2g4", "f2f3"],
    ] {
        let best = search(
            &mut uci,
            None,
            &[],
            &format!("go depth 3 searchmoves {}", allowed.join(" ")),
        );
        assert!(
            allowed.contains(&best.as_str()),
            "{best} not in {allowed:?}"
        );
    }
    // From the side to move's point of view after 1.e4: Black restricted to knight moves.
    let best = search(
        &mut uci,
        None,
        &["e2e4"],
        "go movetime 300 searchmoves b8a6 g8h6",
    );
    assert!(["b8a6", "g8h6"].contains(&best.as_str()), "{best}");
}

#[test]
fn no_legal_move_answers_the_null_move() {
    let mut uci = Uci::start();
    uci.handshake();
    // Fool's mate: White is checkmated. And a stalemate with Black to move.
    for (setup, go) in [
        ("position startpos moves f2f3 e7e5 g2g4 d8h4", "go depth 3"),
        (
            "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "go movetime 100",
        ),
        (
            "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
            "go wtime 1000 btime 1000",
        ),
    ] {
        uci.expect_ok(setup);
        uci.send(go);
        let (_, mv) = uci.bestmove(ANSWER);
        assert_eq!(mv, "0000", "{setup}");
    }
}

#[test]
fn infinite_search_holds_bestmove_until_stop() {
    let mut uci = Uci::start();
    uci.handshake();
    let pos = position(None, &["e2e4"]);
    uci.expect_ok("position startpos moves e2e4");
    uci.send("go infinite");
    // The UCI page: no bestmove before stop in infinite mode, however the search went.
    uci.searching_past(300);
    assert!(uci.sync().iter().all(|l| !l.starts_with("bestmove")));
    uci.send("stop");
    let (_, mv) = uci.bestmove(STOP_ANSWER);
    assert_legal(&pos, &mv, "go infinite + stop");

    // Also when the search cannot go anywhere: a position with a single legal move.
    let one = "7k/8/8/8/8/8/6q1/7K w - - 0 1";
    uci.expect_ok(&format!("position fen {one}"));
    uci.send("go infinite");
    // Its search ends at once (after the one move it is a draw by material) and sends no
    // line that shows it: this one wait is for nothing to happen.
    uci.quiet_for(Duration::from_millis(300), "bestmove");
    uci.send("stop");
    let (_, mv) = uci.bestmove(STOP_ANSWER);
    assert_legal(&position(Some(one), &[]), &mv, "single-move infinite");
    // The answer came once: a second stop finds no search.
    let e = uci.expect_error("stop");
    assert!(e.contains("no search"), "{e}");
}

#[test]
fn ponder_then_ponderhit_or_stop() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("setoption name Ponder value true");
    let pos = position(None, &["e2e4", "e7e5"]);
    uci.expect_ok("position startpos moves e2e4 e7e5");
    uci.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    // Past what two seconds on the clock would give a move, and still pondering.
    uci.searching_past(300);
    uci.send("ponderhit");
    let (_, mv) = uci.bestmove(ANSWER);
    assert_legal(&pos, &mv, "ponderhit");

    uci.send("go ponder movetime 100");
    uci.searching_past(200);
    uci.send("stop");
    let (_, mv) = uci.bestmove(STOP_ANSWER);
    assert_legal(&pos, &mv, "ponder + stop");
    uci.expect_error("ponderhit");
}

#[test]
fn go_while_searching_answers_the_old_search_first() {
    let mut uci = Uci::start();
    uci.handshake();
    let start = position(None, &[]);
    uci.send("go infinite");
    uci.searching_past(0);
    uci.send("go depth 2");
    let (_, first) = uci.bestmove(STOP_ANSWER);
    assert_legal(&start, &first, "the interrupted infinite search");
    let (_, second) = uci.bestmove(ANSWER);
    assert_legal(&start, &second, "the depth-2 search");
    // Each go got exactly one answer.
    assert!(uci.sync().iter().all(|l| !l.starts_with("bestmove")));
}

#[test]
fn malformed_input_is_refused_and_the_engine_still_plays() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("position startpos moves e2e4");
    let fen_after_e4 = uci.fen();
    assert_eq!(
        fen_after_e4,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let bad_lines: Vec<String> = vec![
        "xyzzy".into(),
        "position".into(),
        "position startpos e2e4".into(),
        "position midgame".into(),
        "position fen".into(),
        "position fen not/a/fen w - - 0 1".into(),
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1".into(),
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1".into(),
        // An illegal move deep in the list must not leave half the moves applied.
        "position startpos moves e2e4 e7e5 g1f3 e8e6".into(),
        "position startpos moves e2e4 e7e5 zz".into(),
        "position startpos moves e2e5".into(),
        "go depth".into(),
        "go depth x".into(),
        "go depth 0".into(),
        "go depth 1000".into(),
        "go nodes -5".into(),
        "go movetime 99999999999999999999999".into(),
        "go movestogo 0".into(),
        // Black is to move: White's clock alone gives this search no time limit.
        "go wtime 1000 winc 10".into(),
        "go movestogo 5".into(),
        "go warp 9".into(),
        "go searchmoves".into(),
        "go searchmoves e2e4".into(),
        "go searchmoves a1a1".into(),
        "go perft".into(),
        "go perft 0".into(),
        "go perft 99".into(),
        "setoption".into(),
        "setoption name".into(),
        "setoption name Nonsense value 1".into(),
        "setoption name Hash".into(),
        "setoption name Hash value 0".into(),
        "setoption name Hash value 65537".into(),
        "setoption name Hash value lots".into(),
        "setoption name Threads value 0".into(),
        "setoption name MultiPV value 0".into(),
        "setoption name MultiPV value 257".into(),
        "setoption name Move Overhead value -1".into(),
        "setoption name OwnBook value perhaps".into(),
        "setoption name Eval value psychic".into(),
        "setoption name Ordering value random".into(),
        "setoption name Profile value turbo".into(),
        "setoption name BookFile value /no/such/dir/book.bin".into(),
        "debug sideways".into(),
        "isready please".into(),
        "stop".into(),
        "ponderhit".into(),
        "\u{0}\u{7}\u{1b}[2J".into(),
        "gö dèpth 3 ♞".into(),
        "x".repeat(100_000),
    ];
    for line in &bad_lines {
        uci.expect_error(line);
    }
    // The position is still the one before all that.
    assert_eq!(uci.fen(), fen_after_e4);
    // Bytes that are not UTF-8, and a line longer than the engine keeps.
    uci.send_bytes(b"\xff\xfe go depth \xc3\x28\n");
    uci.sync();
    uci.send_bytes(&[b'a'; 3 << 20]);
    uci.send_bytes(b"\n");
    let e = uci.sync();
    assert!(
        e.iter().any(|l| l.starts_with("info string error")),
        "{e:?}"
    );
    assert_eq!(uci.fen(), fen_after_e4);
    // And it still plays.
    search(&mut uci, None, &["e2e4"], "go depth 2");
    search(&mut uci, None, &["e2e4", "c7c5"], "go movetime 100");
}

#[test]
fn unknown_words_before_a_command_are_reported_and_skipped() {
    let mut uci = Uci::start();
    uci.send("joho isready");
    let lines = uci.until(ANSWER, "readyok", |l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
}

#[test]
fn options_are_accepted_case_insensitively() {
    let mut uci = Uci::start();
    uci.handshake();
    for line in [
        "setoption name hash value 16",
        "setoption name Clear Hash",
        "setoption name THREADS value 1",
        "setoption name MultiPV value 3",
        "setoption name move overhead value 50",
        "setoption name OwnBook value false",
        "setoption name BookFile value <empty>",
        "setoption name Eval value center",
        "setoption name Ordering value MVVLVA",
        "setoption name Profile value seed",
        "setoption name UCI_Opponent value GM 2800 human Some Body",
        "setoption name UCI_EngineAbout value whatever",
    ] {
        uci.expect_ok(line);
    }
    let best = search(&mut uci, None, &["e2e4"], "go depth 3");
    assert!(!best.is_empty());
    uci.expect_ok("setoption name Profile value full");
    uci.expect_ok("setoption name Eval value full");
    uci.expect_ok("setoption name MultiPV value 1");
    search(&mut uci, None, &["e2e4", "e7e5"], "go depth 3");
    // Not while searching.
    uci.send("go infinite");
    uci.expect_error("setoption name Hash value 32");
    uci.send("stop");
    uci.bestmove(STOP_ANSWER);
}

#[test]
fn go_perft_matches_the_published_counts() {
    let mut uci = Uci::start();
    uci.handshake();
    let cases: [(Option<&str>, &[u64]); 3] = [
        (None, &[20, 400, 8902, 197_281]),
        (Some(KIWIPETE), &[48, 2039, 97_862]),
        (
            Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
            &[14, 191, 2812, 43_238],
        ),
    ];
    for (fen, counts) in cases {
        match fen {
            Some(f) => uci.expect_ok(&format!("position fen {f}")),
            None => uci.expect_ok("position startpos"),
        };
        let pos = position(fen, &[]);
        for (d, &expected) in counts.iter().enumerate() {
            uci.send(&format!("go perft {}", d + 1));
            let lines = uci.until(ANSWER, "Nodes searched", |l| {
                l.starts_with("Nodes searched: ")
            });
            let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
                .parse()
                .unwrap();
            assert_eq!(total, expected, "{fen:?} depth {}", d + 1);
            // One `move: count` line per legal root move, a blank line, then the total.
            let split = &lines[..lines.len() - 2];
            assert_eq!(lines[lines.len() - 2], "");
            assert_eq!(split.len(), pos.legal_moves().len());
            let mut sum = 0;
            for l in split {
                let (mv, n) = l
                    .split_once(": ")
                    .unwrap_or_else(|| panic!("bad line '{l}'"));
                assert_legal(&pos, mv, "perft divide");
                sum += n.parse::<u64>().unwrap();
            }
            assert_eq!(sum, total);
        }
    }
}

#[test]
fn d_shows_the_position_and_its_polyglot_key() {
    let mut uci = Uci::start();
    uci.send("d");
    let lines = uci.until(ANSWER, "E line", |l| l.starts_with("E: "));
    assert!(lines.contains(&format!(
        "Fen: {}",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    )));
    // Published Polyglot keys (the Polyglot book format's own examples).
    assert!(
        lines.contains(&"Key: 463B96181691FC9C".to_string()),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" r | n | b | q | k | b | n | r "))
    );
    uci.expect_ok("position startpos moves e2e4");
    uci.send("d");
    let lines = uci.until(ANSWER, "E line", |l| l.starts_with("E: "));
    assert!(
        lines.contains(&"Key: 823C9B50FD114196".to_string()),
        "{lines:?}"
    );
}

#[test]
fn a_book_move_names_its_opening_just_before_bestmove() {
    // Chosen through the library's own book, so the test follows the book's contents.
    let mut board = ox88::chess::Board::startpos();
    let e4 = board.parse_uci_move("e2e4").expect("legal");
    board.make(e4);
    let book = ox88::engine::book::Book::builtin().probe(&board, None);
    assert!(book.is_some(), "1.e4 is in the built-in book");
    let pos = position(None, &["e2e4"]);
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("position startpos moves e2e4");
    uci.send("go wtime 10000 btime 10000");
    let lines = uci.until(ANSWER, "bestmove", |l| l.starts_with("bestmove"));
    let n = lines.len();
    assert!(n >= 2, "{lines:?}");
    let name = lines[n - 2].strip_prefix("info string book: ");
    assert!(name.is_some_and(|s| !s.trim().is_empty()), "{lines:?}");
    let mv = lines[n - 1].split_whitespace().nth(1).unwrap_or_default();
    assert_legal(&pos, mv, "book move");
    // Without the book the same request is searched, and no book line appears.
    uci.expect_ok("setoption name OwnBook value false");
    uci.send("go wtime 10000 btime 10000");
    let lines = uci.until(ANSWER, "bestmove", |l| l.starts_with("bestmove"));
    assert!(
        !lines.iter().any(|l| l.starts_with("info string book")),
        "{lines:?}"
    );
}

#[test]
fn eval_prints_the_term_table_and_bench_runs() {
    let mut uci = Uci::start();
    // The default, the network: one row, and E.
    uci.send("eval");
    let lines = uci.until(ANSWER, "E line", |l| l.starts_with("E: "));
    assert!(lines[0].starts_with("Evaluation: mode net"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("network ")), "{lines:?}");
    // `full`: a row per term.
    uci.expect_ok("setoption name Eval value full");
    uci.send("eval");
    let lines = uci.until(ANSWER, "E line", |l| l.starts_with("E: "));
    assert!(lines.len() > 10, "{lines:?}");
    assert!(lines[0].starts_with("Evaluation: mode full"), "{lines:?}");
    uci.send("bench 1");
    let lines = uci.until(ANSWER, "bench total", |l| l.starts_with("Nodes/second: "));
    let nodes = lines
        .iter()
        .find_map(|l| l.strip_prefix("Nodes searched: "))
        .and_then(|n| n.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("no node total: {lines:?}"));
    assert!(nodes > 0);
    uci.expect_error("bench 0");
}

#[test]
fn end_of_input_mid_search_answers_and_exits_cleanly() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("position startpos moves d2d4");
    uci.send("go infinite");
    uci.searching_past(0);
    uci.close_stdin();
    let (_, mv) = uci.bestmove(STOP_ANSWER);
    assert_legal(&position(None, &["d2d4"]), &mv, "end of input");
    assert!(uci.wait_exit(STOP_ANSWER).success());
}

#[test]
fn quit_mid_search_exits_cleanly() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.send("go infinite");
    uci.searching_past(0);
    uci.send("quit");
    assert!(uci.wait_exit(STOP_ANSWER).success());
}

/// A writer the in-process run can share with the test.
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A plausible command line: mostly well-formed, with moves from the real position list.
fn random_command(rng: &mut Rng) -> String {
    const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        "4k3/P7/8/8/8/8/7p/4K3 w - - 0 1",
    ];
    const MOVES: [&str; 16] = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "d2d4", "d7d5", "e1g1", "a7a8q", "h2h1n",
        "e5d4", "c2c4", "0000", "e1e2", "g8f6",
    ];
    const GO: [&str; 14] = [
        "depth 1",
        "depth 2",
        "nodes 500",
        "nodes 1",
        "movetime 5",
        "movetime 20",
        "wtime 100 btime 100",
        "wtime 30 btime 30 winc 5 binc 5 movestogo 3",
        "infinite",
        "ponder movetime 10",
        "mate 1",
        "searchmoves e2e4 d2d4 depth 2",
        "perft 2",
        "",
    ];
    match rng.below(14) {
        0 | 1 => {
            let n = rng.below(8);
            let moves: Vec<&str> = (0..n).map(|_| rng.pick(&MOVES)).collect();
            if rng.below(2) == 0 {
                format!("position startpos moves {}", moves.join(" "))
            } else {
                format!("position fen {} moves {}", rng.pick(&FENS), moves.join(" "))
            }
        }
        2 => "position startpos moves e2e4 e7e5 g1f3".to_string(),
        3..=5 => format!("go {}", rng.pick(&GO)),
        6 => "stop".into(),
        7 => "isready".into(),
        8 => rng
            .pick(&[
                "setoption name Hash value 1",
                "setoption name Hash value 4",
                "setoption name Clear Hash",
                "setoption name MultiPV value 2",
                "setoption name Eval value material",
                "setoption name Ordering value seed",
                "setoption name Profile value seed",
                "setoption name OwnBook value true",
                "setoption name Move Overhead value 0",
            ])
            .to_string(),
        9 => rng
            .pick(&[
                "ponderhit",
                "ucinewgame",
                "d",
                "eval",
                "uci",
                "debug on",
                "debug off",
            ])
            .to_string(),
        10 => {
            // Pure noise: random bytes decoded lossily, like a broken pipe might deliver.
            let n = rng.below(60);
            let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            String::from_utf8_lossy(&bytes).replace('\n', " ")
        }
        _ => {
            let mut words: Vec<String> = random_command_base(rng)
                .split(' ')
                .map(String::from)
                .collect();
            // Mutations: drop, duplicate, swap or corrupt words; splice in numbers.
            for _ in 0..1 + rng.below(3) {
                if words.is_empty() {
                    break;
                }
                let i = rng.below(words.len());
                match rng.below(6) {
                    0 => {
                        words.remove(i);
                    }
                    1 => {
                        let w = words[i].clone();
                        words.insert(i, w);
                    }
                    2 => {
                        let j = rng.below(words.len());
                        words.swap(i, j);
                    }
                    3 => {
                        words[i] = rng
                            .pick(&["-1", "0", "4294967296", "99999999999999999999", "1e3", ""])
                            .into()
                    }
                    4 => words[i] = words[i].chars().rev().collect(),
                    _ => words.insert(
                        i,
                        rng.pick(&["moves", "fen", "value", "name", "go", "startpos"])
                            .into(),
                    ),
                }
            }
            words.join(" ")
        }
    }
}

fn random_command_base(rng: &mut Rng) -> &'static str {
    rng.pick(&[
        "position startpos moves e2e4 e7e5",
        "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 moves b4b1",
        "go depth 2 nodes 1000",
        "go wtime 100 btime 100 winc 1 binc 1",
        "go movetime 10 searchmoves e2e4",
        "setoption name MultiPV value 2",
        "setoption name Move Overhead value 10",
        "go perft 1",
        "go mate 1 movetime 10",
    ])
}

/// Lines that could make a single command legitimately slow (deep perft, huge hash,
/// benchmarks) are kept out: the test is about robustness, not about waiting.
fn bounded(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let slow_perft = words
        .windows(2)
        .any(|w| w[0] == "perft" && w[1].parse::<u32>().is_ok_and(|d| d > 3));
    let big_number_option = words.iter().any(|w| w.eq_ignore_ascii_case("hash"))
        && words.iter().any(|w| w.parse::<u64>().is_ok_and(|n| n > 16));
    !slow_perft && !big_number_option && !words.contains(&"bench")
}

#[test]
fn thousands_of_random_and_mutated_lines_never_break_it() {
    let mut rng = Rng(0x0088_C0FF_EE12_3457);
    let mut script = String::new();
    let mut isready = 0;
    let mut count = 0;
    while count < 4000 {
        let line = random_command(&mut rng);
        if !bounded(&line) {
            continue;
        }
        if line == "isready" {
            isready += 1;
        }
        script.push_str(&line);
        script.push('\n');
        count += 1;
    }
    // A known ending: whatever happened before, this search must be answered legally.
    script.push_str("stop\nposition startpos moves e2e4 c7c5\ngo depth 2\n");
    let out = SharedBuf::default();
    let (tx, rx) = mpsc::channel();
    {
        let out = out.clone();
        let script = script.clone();
        std::thread::spawn(move || {
            let r = ox88::uci::run_with(std::io::Cursor::new(script.into_bytes()), out);
            let _ = tx.send(r.map_err(|e| e.to_string()));
        });
    }
    let result = rx
        .recv_timeout(Duration::from_secs(300))
        .expect("run_with finished (no panic, no hang)");
    assert!(result.is_ok(), "{result:?}");
    let text = String::from_utf8(out.0.lock().unwrap().clone()).expect("output is UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    let readyok = lines.iter().filter(|l| **l == "readyok").count();
    assert!(
        readyok >= isready,
        "{readyok} readyok for {isready} isready"
    );
    let last = lines.last().copied().unwrap_or_default();
    let mv = last
        .strip_prefix("bestmove ")
        .expect("ends with a bestmove");
    let mv = mv.split_whitespace().next().unwrap_or_default();
    assert_legal(
        &position(None, &["e2e4", "c7c5"]),
        mv,
        "after the random input",
    );
    // Every bestmove line is well-formed.
    for l in lines.iter().filter(|l| l.starts_with("bestmove")) {
        let w: Vec<&str> = l.split_whitespace().collect();
        assert!(w.len() == 2 || (w.len() == 4 && w[2] == "ponder"), "{l}");
        assert!(w[1] == "0000" || w[1].parse::<UciMove>().is_ok(), "{l}");
    }
}

/// The last `info depth` line's nodes, score and PV (what must repeat; time and speed need not).
fn final_numbers(lines: &[String]) -> String {
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth") && l.contains(" score "))
        .expect("an info depth line with a score");
    let words: Vec<&str> = last.split_whitespace().collect();
    let at = |key: &str| words.iter().position(|w| *w == key).expect(key);
    let nodes = words[at("nodes") + 1];
    let score = words[at("score") + 1..at("score") + 3].join(" ");
    let pv = words[at("pv") + 1..].join(" ");
    format!("nodes {nodes} score {score} pv {pv}")
}

#[test]
fn setoption_between_searches_gives_what_a_fresh_process_gives() {
    const SICILIAN: &str = "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6";
    for (name, value) in [
        ("Ordering", "mvvlva"),
        ("Profile", "seed"),
        ("Eval", "material"),
        ("Hash", "8"),
    ] {
        let setting = format!("setoption name {name} value {value}");
        let mut used = Uci::start();
        used.handshake();
        used.expect_ok("setoption name OwnBook value false");
        used.expect_ok(&format!("position fen {SICILIAN}"));
        used.send("go depth 5");
        used.bestmove(ANSWER);
        used.expect_ok(&setting);
        used.send("go depth 4");
        let (after_switch, _) = used.bestmove(ANSWER);

        let mut fresh = Uci::start();
        fresh.handshake();
        fresh.expect_ok("setoption name OwnBook value false");
        fresh.expect_ok(&setting);
        fresh.expect_ok(&format!("position fen {SICILIAN}"));
        fresh.send("go depth 4");
        let (fresh_lines, _) = fresh.bestmove(ANSWER);
        assert_eq!(
            final_numbers(&after_switch),
            final_numbers(&fresh_lines),
            "{setting}"
        );
    }
}

#[test]
fn a_failed_aspiration_window_prints_a_bound_before_the_exact_score() {
    // Kiwipete: tactics everywhere, so a window fails within a few plies whatever the
    // evaluation's weights (a quiet Sicilian stopped failing with the fifth fit).
    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let is_bound = |l: &str| {
        l.starts_with("info depth ")
            && l.contains(" score ")
            && (l.contains(" lowerbound ") || l.contains(" upperbound "))
    };
    let start = || {
        let mut uci = Uci::start();
        uci.handshake();
        uci.expect_ok("setoption name OwnBook value false");
        uci.expect_ok(&format!("position fen {KIWIPETE}"));
        uci
    };
    // Where the first window fails, from the engine's own lines: searched until one does.
    let mut probe = start();
    probe.send("go infinite");
    let lines = probe.until(ANSWER, "failed aspiration window", is_bound);
    probe.send("stop");
    probe.bestmove(STOP_ANSWER);
    let depth: u32 = lines.last().unwrap()["info depth ".len()..]
        .split(' ')
        .next()
        .and_then(|d| d.parse().ok())
        .expect("a depth in the bound line");
    // A fresh engine searching to that depth fails there too, and says so before the score.
    let mut uci = start();
    uci.send(&format!("go depth {depth}"));
    let (lines, _) = uci.bestmove(ANSWER);
    let prefix = format!("info depth {depth} ");
    let at_depth: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with(&prefix) && l.contains(" score "))
        .collect();
    let bound = at_depth
        .iter()
        .position(|l| is_bound(l))
        .unwrap_or_else(|| panic!("no bound at depth {depth}: {at_depth:?}"));
    let exact = at_depth
        .iter()
        .rposition(|l| !l.contains("bound "))
        .unwrap_or_else(|| panic!("no exact depth {depth} line: {at_depth:?}"));
    assert!(bound < exact, "{at_depth:?}");
}

#[test]
fn go_depth_in_a_book_position_searches_and_reports() {
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok("position startpos");
    uci.send("go depth 6");
    let (lines, _) = uci.bestmove(ANSWER);
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" score "))
        .collect();
    assert!(depths.len() >= 6, "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("book:")), "{lines:?}");
}

#[test]
fn limit_strength_plays_through_the_level_driver_and_a_bad_elo_keeps_the_old_one() {
    let mut uci = Uci::start();
    let lines = uci.handshake();
    assert!(lines.contains(&"option name UCI_LimitStrength type check default false".to_string()));
    assert!(
        lines.contains(&"option name UCI_Elo type spin default 2800 min 800 max 2800".to_string())
    );
    uci.expect_ok("setoption name OwnBook value false");
    // Off: the real search, no level report.
    uci.expect_ok("position startpos");
    uci.send("go depth 3");
    let (lines, _) = uci.bestmove(ANSWER);
    assert!(!lines.iter().any(|l| l.contains("level ")), "{lines:?}");

    uci.expect_ok("setoption name UCI_LimitStrength value true");
    uci.expect_ok("setoption name UCI_Elo value 1500");
    let error = uci.expect_error("setoption name UCI_Elo value 3000");
    assert_eq!(
        error,
        "info string error: UCI_Elo: 3000 is out of range (800 to 2800)"
    );
    let pos = position(None, &["e2e4"]);
    for _ in 0..2 {
        uci.expect_ok("position startpos moves e2e4");
        uci.send("go movetime 100");
        let (lines, best) = uci.bestmove(ANSWER);
        for l in &lines {
            check_info(&pos, l);
        }
        // The report names the level still in force (1500, not the refused 3000) and the
        // move it chose, which is the move answered.
        let played = lines
            .iter()
            .find(|l| l.starts_with("info string level 1500 plays "))
            .unwrap_or_else(|| panic!("no level report: {lines:?}"));
        let mv = assert_legal(&pos, &best, "level");
        let san = shakmaty::san::San::from_move(&pos, mv).to_string();
        assert!(
            played.contains(&format!(" plays {san} (")),
            "{played} vs {best}"
        );
    }
    uci.send("quit");
    assert!(uci.wait_exit(ANSWER).success());
}

#[test]
fn tui_flags_without_a_terminal_say_one_is_needed_instead_of_speaking_uci() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(["--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1", "--depth", "5"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--fen") && err.contains("--depth"), "{err}");
    assert!(err.contains("ox88 uci"), "{err}");
    assert!(out.stdout.is_empty(), "no UCI was spoken");
}

#[test]
fn with_syzygy_path_a_covered_position_plays_a_move_of_the_shortest_tablebase_win() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    // KR v K with White to move: every rook move away from e1's file wins, but only a few
    // make the most progress; a 1-ply search does not know which.
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let tables = ox88::engine::syzygy::Tablebases::open(&dir).unwrap();
    let board = ox88::chess::Board::from_fen(fen).unwrap();
    let rows = tables.probe_root(&board).unwrap().unwrap();
    let shortest = rows[0].dtz;
    let best: Vec<String> = rows
        .iter()
        .filter(|r| r.wdl == rows[0].wdl && r.dtz == shortest)
        .map(|r| r.mv.uci())
        .collect();
    assert!(best.len() < rows.len());

    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    uci.expect_ok(&format!("position fen {fen}"));
    uci.send("go depth 1");
    let (lines, mv) = uci.bestmove(ANSWER);
    assert!(best.contains(&mv), "{mv} is not one of {best:?}: {lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string tablebase: win")
                && l.contains(&format!("DTZ {shortest}"))),
        "{lines:?}"
    );
    // A directory that cannot be read is refused by name; the tables in use stay.
    let err = uci.expect_error("setoption name SyzygyPath value /nonexistent/ox88-tables");
    assert!(err.contains("/nonexistent/ox88-tables"), "{err}");
}

#[test]
fn the_syzygy_options_are_declared_with_stockfishs_defaults_and_bad_values_are_refused() {
    let mut uci = Uci::start();
    let lines = uci.handshake();
    for declared in [
        "option name SyzygyPath type string default <empty>",
        "option name SyzygyProbeDepth type spin default 1 min 1 max 100",
        "option name Syzygy50MoveRule type check default true",
        "option name SyzygyProbeLimit type spin default 7 min 0 max 7",
    ] {
        assert!(lines.iter().any(|l| l == declared), "{declared}: {lines:?}");
    }
    for (line, says) in [
        ("setoption name SyzygyProbeDepth value 0", "out of range"),
        ("setoption name SyzygyProbeDepth value 101", "out of range"),
        (
            "setoption name SyzygyProbeDepth value deep",
            "not a whole number",
        ),
        ("setoption name SyzygyProbeLimit value 8", "out of range"),
        ("setoption name SyzygyProbeLimit value -1", "out of range"),
        (
            "setoption name Syzygy50MoveRule value maybe",
            "'true' or 'false'",
        ),
    ] {
        let err = uci.expect_error(line);
        let name = line.split_whitespace().nth(2).unwrap();
        assert!(err.contains(name) && err.contains(says), "{line}: {err}");
    }
    for line in [
        "setoption name SyzygyProbeDepth value 4",
        "setoption name SyzygyProbeLimit value 0",
        "setoption name Syzygy50MoveRule value false",
    ] {
        uci.expect_ok(line);
    }
}

/// Five men (the tables hold four): only the tree is probed. Rd1xd4 reaches a won
/// king-and-two-rooks ending.
const KRR_V_KN: &str = "7k/8/8/8/3n4/8/8/3RR1K1 w - - 0 1";

#[test]
fn with_tables_info_lines_count_tbhits_and_a_tablebase_win_prints_as_centipawns() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let score_of = |line: &str| -> Option<(String, i64)> {
        let t: Vec<&str> = line.split_whitespace().collect();
        let i = t.iter().position(|w| *w == "score")?;
        Some((t[i + 1].to_string(), t[i + 2].parse().ok()?))
    };
    // The whole answer to `go depth 4`, its info lines checked.
    let answer_of = |uci: &mut Uci| -> String {
        uci.expect_ok(&format!("position fen {KRR_V_KN}"));
        uci.send("go depth 4");
        let lines = uci.until(ANSWER, "bestmove", |l| l.starts_with("bestmove"));
        let pos = position(Some(KRR_V_KN), &[]);
        for l in lines.iter().filter(|l| l.starts_with("info")) {
            check_info(&pos, l);
        }
        lines.join("\n")
    };
    let mut uci = Uci::start();
    uci.handshake();
    uci.expect_ok(&format!(
        "setoption name SyzygyPath value {}",
        dir.display()
    ));
    let answer = answer_of(&mut uci);
    let lines: Vec<&str> = answer.lines().filter(|l| l.contains(" score ")).collect();
    assert!(
        lines.iter().any(|l| l.contains(" tbhits ")),
        "no tbhits: {answer}"
    );
    let last = score_of(lines.last().unwrap()).unwrap();
    assert_eq!(last.0, "cp", "{answer}");
    assert!(last.1 >= 19_872 && last.1 < 20_000, "{answer}");
    assert!(!answer.contains("score mate"), "{answer}");

    // Without tables: the same search reports no tablebase hits and no tablebase score.
    let mut plain = Uci::start();
    plain.handshake();
    let answer = answer_of(&mut plain);
    assert!(!answer.contains("tbhits"), "{answer}");
    let last = answer
        .lines()
        .filter_map(score_of)
        .next_back()
        .expect("a scored line");
    assert!(last.1 < 19_872, "{answer}");
}
