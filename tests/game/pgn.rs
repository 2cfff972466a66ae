//! PGN export and import (issue 7): round trips of games full of SAN subtleties, the PGN we
//! write read back by an independent reader (pgn-reader + shakmaty), 500 real openings,
//! malformed input answered with a line number, and no panic on any text.

use crate::common;
use common::Rng;

use std::io::Cursor;
use std::ops::ControlFlow;
use std::time::Duration;

use ox88::chess::{Board, Color, Move};
use ox88::engine::Score;
use ox88::game::{EngineNote, Game, GameEnd, Outcome, Termination};
use pgn_reader::{RawComment, RawTag, Reader, SanPlus, Visitor};
use proptest::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

// ---- helpers ------------------------------------------------------------------------------

/// Start points where castling, en passant, promotions and disambiguation come up often.
const SEEDS: &[&str] = &[
    Board::START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "7k/PPPP4/8/8/8/8/4pppp/K7 w - - 0 1",
    "r3k2r/8/2N1N3/8/8/2N1N3/8/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// A game of random play from a seed, preferring captures, promotions, castling and checks;
/// some moves are "engine" moves with a note, some have a clock reading, and the game may
/// end by the rules or by a declared result.
fn random_game(rng: &mut Rng, index: usize) -> Game {
    let mut game = Game::from_fen(SEEDS[index % SEEDS.len()]).unwrap();
    game.tags.white = format!("Player \"{index}\" \\ test");
    game.tags.black = "ox88".to_string();
    game.tags.round = index.to_string();
    let plies = 1 + rng.below(120);
    for _ in 0..plies {
        if game.is_over() {
            break;
        }
        let board = game.board().clone();
        let moves: Vec<Move> = board.legal_moves().iter().copied().collect();
        let spicy: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| m.is_tactical() || m.is_castle() || board.san(*m).ends_with(['+', '#']))
            .collect();
        let m = if !spicy.is_empty() && rng.below(10) < 6 {
            spicy[rng.below(spicy.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        if rng.below(3) == 0 {
            let score = if rng.below(10) == 0 {
                Score::Mate(rng.below(9) as i32 - 4)
            } else {
                Score::Cp(rng.below(2001) as i32 - 1000)
            };
            game.play_engine(
                m,
                EngineNote {
                    score,
                    depth: 1 + rng.below(30) as u32,
                },
            )
            .unwrap();
        } else {
            game.play(m).unwrap();
        }
        if rng.below(5) == 0 {
            game.set_last_clock(Duration::from_secs(rng.below(10_000) as u64));
        }
    }
    if !game.is_over() {
        let side = game.board().side_to_move();
        let _ = match rng.below(5) {
            0 => game.resign(side),
            1 => game.agree_draw(),
            2 => game.flag_fall(side),
            _ => Ok(GameEnd {
                outcome: Outcome::Draw,
                termination: Termination::Recorded,
            }),
        };
    }
    game
}

/// What the independent reader saw in one game.
#[derive(Default, Debug)]
struct Seen {
    fen: Option<String>,
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    comments: Vec<String>,
    outcome: String,
}

struct Collect;

impl Visitor for Collect {
    type Tags = Seen;
    type Movetext = Seen;
    type Output = Seen;

    fn begin_tags(&mut self) -> ControlFlow<Seen, Seen> {
        ControlFlow::Continue(Seen::default())
    }
    fn tag(&mut self, tags: &mut Seen, name: &[u8], value: RawTag<'_>) -> ControlFlow<Seen> {
        let name = String::from_utf8_lossy(name).to_string();
        let value = value.decode_utf8_lossy().to_string();
        if name == "FEN" {
            tags.fen = Some(value.clone());
        }
        tags.tags.push((name, value));
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Seen) -> ControlFlow<Seen, Seen> {
        ControlFlow::Continue(tags)
    }
    fn san(&mut self, seen: &mut Seen, san: SanPlus) -> ControlFlow<Seen> {
        seen.sans.push(san.to_string());
        ControlFlow::Continue(())
    }
    fn comment(&mut self, seen: &mut Seen, c: RawComment<'_>) -> ControlFlow<Seen> {
        seen.comments
            .push(String::from_utf8_lossy(c.as_bytes()).to_string());
        ControlFlow::Continue(())
    }
    fn outcome(&mut self, seen: &mut Seen, outcome: pgn_reader::Outcome) -> ControlFlow<Seen> {
        seen.outcome = outcome.to_string();
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, seen: Seen) -> Seen {
        seen
    }
}

fn independent_read(pgn: &str) -> Seen {
    Reader::new(Cursor::new(pgn.as_bytes()))
        .read_game(&mut Collect)
        .expect("reads")
        .expect("a game")
}

/// Replays SAN with shakmaty; the final position's FEN (pseudo-legal en-passant square, as
/// ours writes it).
fn shakmaty_replay(start_fen: Option<&str>, sans: &[String]) -> String {
    let mut pos: Chess = match start_fen {
        Some(f) => Fen::from_ascii(f.as_bytes())
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap(),
        None => Chess::default(),
    };
    for s in sans {
        let m = San::from_ascii(s.as_bytes())
            .unwrap_or_else(|e| panic!("{s}: {e}"))
            .to_move(&pos)
            .unwrap_or_else(|e| {
                panic!(
                    "shakmaty: {s} is not legal in {}: {e}",
                    Fen::from_position(&pos, EnPassantMode::PseudoLegal)
                )
            });
        pos.play_unchecked(m);
    }
    Fen::from_position(&pos, EnPassantMode::PseudoLegal).to_string()
}

fn final_board(game: &Game) -> Board {
    game.position_at(game.len()).unwrap()
}

// ---- round trips --------------------------------------------------------------------------

/// A game that shows every SAN subtlety at once, checked against the SAN a person writes.
#[test]
fn every_san_subtlety_round_trips() {
    let mut game = Game::from_fen("r3k2r/P5P1/8/8/3p4/2N5/4P3/R3K2R w KQkq - 0 1").unwrap();
    let line = [
        ("e2e4", "e4"),    // a double push beside the d4 pawn
        ("d4e3", "dxe3"),  // en passant
        ("e1g1", "O-O"),   // castling short
        ("e8c8", "O-O-O"), // castling long
        ("a7a8n", "a8=N"), // under-promotion
        ("c8b7", "Kb7"),
        ("g7h8r", "gxh8=R"), // under-promotion with capture
        ("d8h8", "Rxh8"),
        ("c3e4", "Ne4"),
        ("e3e2", "e2"),
        ("e4g5", "Ng5"),
        ("e2f1q", "exf1=Q+"), // promotion with capture and check
        ("g1f1", "Kxf1"),
    ];
    for (uci, san) in line {
        let m = game.board().parse_uci_move(uci).unwrap();
        assert_eq!(game.play(m).unwrap().san, san, "{uci}");
    }
    // Rank disambiguation: the rooks on a1 and a4 both reach a3.
    let mut r = Game::from_fen("7k/8/8/8/R7/8/8/R3K3 w - - 0 1").unwrap();
    assert_eq!(r.play_text("a1a3").unwrap().san, "R1a3");
    assert_eq!(r.play_text("h8g8").unwrap().san, "Kg8");
    // File disambiguation, then mate.
    let mut k = Game::from_fen("k7/8/1K6/8/8/8/8/3R3R w - - 0 1").unwrap();
    assert_eq!(k.play_text("h1e1").unwrap().san, "Rhe1");
    assert_eq!(k.play_text("a8b8").unwrap().san, "Kb8");
    assert_eq!(k.play_text("d1d8").unwrap().san, "Rd8#");
    for g in [&game, &r, &k] {
        let pgn = g.to_pgn();
        let back = Game::from_pgn(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
        assert_eq!(back.sans(), g.sans(), "{pgn}");
        assert_eq!(back.to_pgn(), pgn);
        let seen = independent_read(&pgn);
        assert_eq!(
            seen.sans,
            g.sans().iter().map(|s| s.to_string()).collect::<Vec<_>>()
        );
        assert_eq!(
            shakmaty_replay(seen.fen.as_deref(), &seen.sans),
            final_board(g).to_fen()
        );
    }
    assert_eq!(
        k.result().map(|r| r.to_string()).as_deref(),
        Some("1-0 (White mates)")
    );
    assert!(
        k.to_pgn().contains("[Result \"1-0\"]")
            && k.to_pgn().trim_end().ends_with("Rd8# {White mates} 1-0")
    );
}

#[test]
fn random_games_round_trip_and_an_independent_reader_agrees() {
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    let mut seen_marks = [0usize; 7]; // x, =, O-O-O, O-O, +, #, disambiguation
    for index in 0..400 {
        let game = random_game(&mut rng, index);
        let pgn = game.to_pgn();
        for line in pgn.lines() {
            assert!(
                line.len() < 80 || line.starts_with('['),
                "line too long: {line}"
            );
        }
        // Our reader: the same moves, notes, clocks, tags and result.
        let back = Game::from_pgn(&pgn).unwrap_or_else(|e| panic!("{e}\n{pgn}"));
        assert_eq!(back.moves(), game.moves(), "{pgn}");
        assert_eq!(back.start().to_fen(), game.start().to_fen());
        assert_eq!(back.final_result(), game.final_result(), "{pgn}");
        assert_eq!(back.tags.white, game.tags.white);
        assert_eq!(
            back.to_pgn(),
            pgn,
            "writing what we read gives the same text"
        );

        // The independent reader: same SAN list, same final position, same result.
        let seen = independent_read(&pgn);
        let ours: Vec<String> = game.sans().iter().map(|s| s.to_string()).collect();
        assert_eq!(seen.sans, ours, "{pgn}");
        assert_eq!(
            shakmaty_replay(seen.fen.as_deref(), &seen.sans),
            final_board(&game).to_fen(),
            "{pgn}"
        );
        assert_eq!(
            seen.outcome,
            game.final_result().map_or("*", |r| r.result())
        );
        let roster: Vec<&str> = seen.tags.iter().take(7).map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            roster,
            ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
        );
        assert!(
            seen.tags
                .contains(&("White".to_string(), game.tags.white.clone()))
        );
        let notes = game
            .moves()
            .iter()
            .filter(|m| m.engine.is_some() || m.clock.is_some())
            .count();
        let reason = game
            .final_result()
            .is_some_and(|r| r.termination != Termination::Recorded) as usize;
        assert_eq!(seen.comments.len(), notes + reason);

        for s in &ours {
            let marks = [
                s.contains('x'),
                s.contains('='),
                s.starts_with("O-O-O"),
                s.starts_with("O-O"),
                s.ends_with('+'),
                s.ends_with('#'),
            ];
            for (i, &hit) in marks.iter().enumerate() {
                seen_marks[i] += hit as usize;
            }
            let core: String = s.chars().filter(|c| !"x+#".contains(*c)).collect();
            seen_marks[6] += (s.starts_with(['N', 'B', 'R', 'Q']) && core.len() > 3) as usize;
        }
    }
    assert!(
        seen_marks.iter().all(|&n| n >= 10),
        "some SAN feature never came up: {seen_marks:?}"
    );
}

#[test]
fn five_hundred_openings_parse_and_reach_the_published_positions() {
    let pgn = include_str!("../data/openings500.pgn");
    let epd = include_str!("../data/openings500.epd");
    // Split before each "[Event": our reader takes the first game of a text.
    let starts: Vec<usize> = pgn.match_indices("[Event ").map(|(i, _)| i).collect();
    assert_eq!(starts.len(), 500);
    let expected: Vec<&str> = epd.lines().collect();
    for (n, &s) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(pgn.len());
        let game = Game::from_pgn(&pgn[s..end]).unwrap_or_else(|e| panic!("game {}: {e}", n + 1));
        assert_eq!(game.len(), 16, "game {}", n + 1);
        assert_eq!(game.final_result(), None, "'*' is an unfinished game");
        assert_eq!(game.tags.round, (n + 1).to_string());
        // The EPD gives placement, side, castling and en passant of the same position.
        let fen = game.fen();
        let ours: Vec<&str> = fen.split(' ').take(4).collect();
        let theirs: Vec<&str> = expected[n].split(' ').take(4).collect();
        assert_eq!(ours, theirs, "game {}", n + 1);
    }
    // The whole file read in one go is its first game.
    assert_eq!(Game::from_pgn(pgn).unwrap().len(), 16);
}

#[test]
fn comments_nags_variations_and_escapes_are_skipped() {
    let pgn = "% an escape line\n\
               [Event \"Skip test\"]\n\
               [White \"A \\\"quoted\\\" name\"]\n\
               \n\
               1. e4 {best by test} e5 $1 2. Nf3!? (2. f4 exf4 (2...d5 3. exd5) 3. Nf3) 2... Nc6 ; a rest-of-line comment\n\
               3.Bb5 a6 4. Ba4 (4. Bxc6 dxc6 {the exchange} (4...bxc6)) Nf6 5. O-O +- 5... Be7 1/2-1/2\n\
               [Event \"second game, not read\"]\n1. d4 *\n";
    let game = Game::from_pgn(&format!("{{a comment before the tags}}\n{pgn}")).unwrap();
    assert_eq!(
        game.sans(),
        [
            "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"
        ]
    );
    assert_eq!(game.tags.event, "Skip test");
    assert_eq!(game.tags.white, "A \"quoted\" name");
    assert_eq!(
        game.final_result().map(|r| (r.outcome, r.termination)),
        Some((Outcome::Draw, Termination::Recorded))
    );
    // A game without tags, with common sloppiness: 0-0, e8Q, missing check marks.
    let sloppy = Game::from_pgn("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Bc4 Nf6 5. Nf3 Bg4 6. 0-0 e6 7. h3 Bxf3 8. Qxf3 c6 9. d3 Nbd7").unwrap();
    assert_eq!(sloppy.sans()[10], "O-O");
    assert_eq!(sloppy.sans()[17], "Nbd7");
    // Engine comments come back as notes, with mate scores and clocks.
    let noted = Game::from_pgn("1. e4 {+0.29/12} e5 {-M3/20 [%clk 0:04:55]} *").unwrap();
    assert_eq!(
        noted.moves()[0].engine,
        Some(EngineNote {
            score: Score::Cp(29),
            depth: 12
        })
    );
    assert_eq!(
        noted.moves()[1].engine,
        Some(EngineNote {
            score: Score::Mate(-3),
            depth: 20
        })
    );
    assert_eq!(noted.moves()[1].clock, Some(Duration::from_secs(295)));
}

#[test]
fn declared_results_round_trip_with_their_reasons() {
    type End = fn(&mut Game) -> Result<GameEnd, ox88::game::GameError>;
    let cases: [(End, &str); 4] = [
        (|g| g.resign(Color::Black), "1-0 (Black resigns)"),
        (|g| g.resign(Color::White), "0-1 (White resigns)"),
        (|g| g.agree_draw(), "1/2-1/2 (draw agreed)"),
        (|g| g.flag_fall(Color::White), "0-1 (White's flag fell)"),
    ];
    for (end, shown) in cases {
        let mut g = Game::new();
        g.play_text("e4").unwrap();
        end(&mut g).unwrap();
        assert_eq!(g.result().map(|r| r.to_string()).as_deref(), Some(shown));
        let back = Game::from_pgn(&g.to_pgn()).unwrap();
        assert_eq!(back.result(), g.result(), "{}", g.to_pgn());
    }
    // Lichess writes time forfeits in a Termination tag.
    let lichess = "[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n\n1. e4 e5 1-0\n";
    let g = Game::from_pgn(lichess).unwrap();
    assert_eq!(
        g.result().map(|r| r.termination),
        Some(Termination::FlagFall {
            loser: Color::Black
        })
    );
}

#[test]
fn recorded_games_go_on_past_unclaimed_draws() {
    // The start position occurs a third time after 2...Ng8; nobody claimed, play went on.
    let pgn =
        "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 e5 6. Qh5 Nc6 7. Bc4 Nf6 8. Qxf7# 1-0";
    let g = Game::from_pgn(pgn).unwrap();
    assert_eq!(g.len(), 15);
    assert_eq!(
        g.result().map(|r| r.to_string()).as_deref(),
        Some("1-0 (White mates)")
    );
    // A recorded result stands over a draw nobody claimed.
    let resigned =
        Game::from_pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 {Black resigns} 1-0").unwrap();
    assert_eq!(
        resigned.result().map(|r| r.to_string()).as_deref(),
        Some("1-0 (Black resigns)")
    );
    let unknown = Game::from_pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *").unwrap();
    assert_eq!(
        unknown.result().map(|r| r.termination),
        Some(Termination::ThreefoldRepetition)
    );
    // A game played here ends at the repetition.
    let mut here = Game::from_pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *").unwrap();
    assert!(here.play_text("e4").is_err());
    // But mate is final even in a recorded game.
    let e = Game::from_pgn("1. f3 e5 2. g4 Qh4# 3. a3 0-1").unwrap_err();
    assert_eq!(e.line, 1);
    assert_eq!(
        e.message,
        "'a3' cannot follow: the game is over (after 2...Qh4#): 0-1 (Black mates)"
    );
}

#[test]
fn set_up_positions_and_black_to_move_are_numbered_right() {
    let mut g = Game::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 30").unwrap();
    g.play_text("Kd7").unwrap();
    g.play_text("e4").unwrap();
    let pgn = g.to_pgn();
    assert!(
        pgn.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("30... Kd7 31. e4 *"), "{pgn}");
    assert_eq!(Game::from_pgn(&pgn).unwrap().fen(), g.fen());
    assert_eq!(g.numbered_san(0).as_deref(), Some("30...Kd7"));
    assert_eq!(g.numbered_san(1).as_deref(), Some("31. e4"));
}

// ---- malformed input ----------------------------------------------------------------------

#[test]
fn malformed_pgn_names_the_line_and_what_was_expected() {
    let header = "[Event \"x\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n";
    let cases = [
        (
            format!("{header}1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6\n4. Nf9 Nf6 *\n"),
            11,
            "expected a move (SAN such as Nf3), a move number, a comment or a result, found 'Nf9' ('f9' is not a square)",
        ),
        (
            format!("{header}1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6\n4. Ke3 *\n"),
            11,
            "'Ke3' is not a legal move in this position (after 3...a6): no white king can go to e3",
        ),
        (
            format!("{header}1. d4 d5 2. Nf3 Nf6\n3. Nd2 *\n"),
            10,
            "'Nd2' is not a legal move in this position (after 2...Nf6): ambiguous: could be Nbd2 or Nfd2",
        ),
        (
            format!("{header}1. e4 {{ never closed\n e5 *\n"),
            9,
            "a comment opened here with '{' is never closed (expected '}')",
        ),
        (
            format!("{header}1. e4 e5 (1... c5\n2. Nf3 *\n"),
            9,
            "the variation opened here with '(' is never closed (expected ')')",
        ),
        (
            format!("{header}1. e4 e5 ) *\n"),
            9,
            "')' without an opening '('",
        ),
        (
            "[Event \"x\"\n1. e4 *".to_string(),
            1,
            "expected ']' to close the tag Event",
        ),
        (
            "[Event x]\n1. e4 *".to_string(),
            1,
            "expected a quoted value after the tag name Event",
        ),
        (
            "[Event \"x]\n1. e4 *".to_string(),
            1,
            "the value of tag Event is not closed (a '\"' is missing)",
        ),
        (
            "\n\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *".to_string(),
            3,
            "the FEN tag is not a position",
        ),
        ("".to_string(), 1, "no game found"),
        (
            "1. e4 e5 2. -- Nc6 *".to_string(),
            1,
            "'--' is a null move, which a game cannot contain",
        ),
        ("1. e4 $ e5 *".to_string(), 1, "expected a number after '$'"),
        (
            "1. e4 e5\n2. Nf3 [Nc6] *".to_string(),
            2,
            "'[' among the moves",
        ),
    ];
    for (text, line, message) in cases {
        let e = Game::from_pgn(&text).expect_err(&text);
        assert_eq!(e.line, line, "{e}\n{text}");
        assert!(e.message.contains(message), "{e}\nwanted: {message}");
        assert!(e.to_string().starts_with(&format!("line {line}: ")));
    }
}

// ---- never a panic ------------------------------------------------------------------------

fn sample_pgn() -> String {
    let mut rng = Rng(7);
    random_game(&mut rng, 5).to_pgn()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_text_is_a_game_or_an_error(text in any::<String>()) {
        if let Ok(g) = Game::from_pgn(&text) {
            prop_assert!(Game::from_pgn(&g.to_pgn()).is_ok());
        }
    }

    #[test]
    fn pgn_like_text_is_a_game_or_an_error(text in "[\\[\\]\"a-hKQRBNO0-9x=+#!?(){};$%. \n-]{0,200}") {
        if let Ok(g) = Game::from_pgn(&text) {
            let again = Game::from_pgn(&g.to_pgn()).unwrap();
            prop_assert_eq!(again.moves(), g.moves());
        }
    }

    #[test]
    fn mutated_pgn_is_a_game_or_an_error(edits in proptest::collection::vec((0usize..10_000, 0u8..3, any::<char>()), 1..6)) {
        let mut chars: Vec<char> = sample_pgn().chars().collect();
        for (at, kind, c) in edits {
            let i = at % (chars.len() + 1);
            match kind {
                0 => chars.insert(i, c),
                1 if i < chars.len() => { chars.remove(i); }
                _ if i < chars.len() => chars[i] = c,
                _ => {}
            }
        }
        let text: String = chars.into_iter().collect();
        match Game::from_pgn(&text) {
            Ok(g) => {
                // Whatever was accepted is a legal game that writes and reads back the same.
                let again = Game::from_pgn(&g.to_pgn()).unwrap();
                prop_assert_eq!(again.moves(), g.moves());
            }
            Err(e) => {
                let lines = text.lines().count().max(1);
                prop_assert!(e.line >= 1 && e.line <= lines + 1, "line {} of {}", e.line, lines);
            }
        }
    }
}

// ---- annotations kept (issue 13) ----------------------------------------------------------

#[test]
fn comments_nags_and_variations_are_kept_and_written_back() {
    let pgn = "[Event \"Annotated\"]\n\n\
               {Before the first move.} 1. e4 $1 {The king's pawn.} e5!? 2. Nf3 (2. f4 exf4 \
               (2... d5) 3. Nf3 {gambit}) (2. Qh5? Nc6) 2... Nc6 {+0.20/9 [%eval -0.15] [%clk 0:01:00] fine} \
               3. Bb5 $2 $18 a6 ?! 4. Ba4 (4. Zz9) Nf6 *\n";
    let game = Game::from_pgn(pgn).unwrap();
    let m = game.moves();
    assert_eq!(
        game.comment_before.as_deref(),
        Some("Before the first move.")
    );
    assert_eq!(m[0].annotations.nags, [1]);
    assert_eq!(
        m[0].annotations.comment.as_deref(),
        Some("The king's pawn.")
    );
    assert_eq!(m[1].annotations.nags, [5]);
    // Two variations on 2. Nf3; the nested one inside the first is skipped.
    let board = game.position_at(2).unwrap();
    let lines: Vec<Vec<String>> = m[2]
        .annotations
        .variations
        .iter()
        .map(|v| board.san_line(v))
        .collect();
    assert_eq!(lines, [vec!["f4", "exf4", "Nf3"], vec!["Qh5", "Nc6"]]);
    assert_eq!(m[3].engine.map(|n| n.score), Some(Score::Cp(20)));
    assert_eq!(m[3].annotations.eval, Some(Score::Cp(-15)));
    assert_eq!(m[3].clock, Some(Duration::from_secs(60)));
    assert_eq!(m[3].annotations.comment.as_deref(), Some("fine"));
    assert_eq!(m[4].annotations.nags, [2, 18]);
    assert_eq!(m[5].annotations.nags, [6]);
    // A variation with a move that does not read is dropped; the game reads on.
    assert!(m[6].annotations.variations.is_empty());
    assert_eq!(game.sans().last(), Some(&"Nf6"));

    let written = game.to_pgn();
    let flat = written.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("(2. f4 exf4 3. Nf3) (2. Qh5 Nc6) 2... Nc6"),
        "{written}"
    );
    assert!(flat.contains("3. Bb5 $2 $18 a6 $6"), "{written}");
    assert!(flat.contains("{+0.20/9 [%eval -0.15] [%clk 0:01:00] fine}"));
    let again = Game::from_pgn(&written).unwrap();
    assert_eq!(again.moves(), game.moves());
    assert_eq!(again.comment_before, game.comment_before);
    // The independent reader sees the same main line and our comments.
    let seen = independent_read(&written);
    assert_eq!(seen.sans, game.sans());
    assert!(seen.comments.iter().any(|c| c.contains("The king's pawn.")));
}

#[test]
fn the_reason_comment_is_not_taken_for_a_comment_on_the_last_move() {
    let mut game = Game::new();
    for m in ["f3", "e5", "g4", "Qh4#"] {
        game.play_text(m).unwrap();
    }
    let pgn = game.to_pgn();
    assert!(pgn.contains("{Black mates} 0-1"), "{pgn}");
    let back = Game::from_pgn(&pgn).unwrap();
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.moves()[3].annotations.comment, None);
    assert_eq!(
        Game::from_pgn(&back.to_pgn()).unwrap().moves(),
        game.moves()
    );
}

#[test]
fn several_games_in_a_file_are_picked_by_number() {
    let text = std::fs::read_to_string("tests/data/openings500.pgn").unwrap();
    let games = ox88::game::pgn::split_games(&text);
    assert_eq!(games.len(), 500);
    let third = Game::from_pgn_nth(&text, 3).unwrap();
    assert_eq!(third.tags.round, "3");
    assert_eq!(&third.sans()[..4], ["Nf3", "Nf6", "g3", "b5"]);
    for bad in [0, 501] {
        let e = Game::from_pgn_nth(&text, bad).unwrap_err();
        assert!(e.message.contains("the file has 500 games"), "{e}");
    }
    // An error in a later game names the line in the whole file.
    let two = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. e4 e4 *\n";
    assert_eq!(Game::from_pgn_nth(two, 1).unwrap().len(), 1);
    let e = Game::from_pgn_nth(two, 2).unwrap_err();
    assert_eq!(e.line, 7, "{e}");
}

/// A random game with random comments, NAGs and legal variations.
fn annotated_game(rng: &mut Rng, index: usize) -> Game {
    let mut game = random_game(rng, index);
    let words = [
        "good",
        "a {trap",
        "[%eval x]",
        "+0.5/3",
        "why?",
        "(sic)",
        ";",
    ];
    if rng.below(4) == 0 {
        game.comment_before = Some("opening notes".to_string());
    }
    for i in 0..game.len() {
        let before = game.position_at(i).unwrap();
        let mut pm = game.moves()[i].clone();
        if rng.below(3) == 0 {
            pm.annotations.nags = (0..1 + rng.below(2))
                .map(|_| rng.below(256) as u8)
                .collect();
        }
        if rng.below(3) == 0 {
            let text: Vec<&str> = (0..1 + rng.below(3)).map(|_| rng.pick(&words)).collect();
            pm.annotations.comment = Some(text.join(" ").replace('{', ""));
        }
        if rng.below(3) == 0 {
            pm.annotations.eval = Some(if rng.below(5) == 0 {
                Score::Mate(rng.below(11) as i32 - 5)
            } else {
                Score::Cp(rng.below(4001) as i32 - 2000)
            });
        }
        if rng.below(4) == 0 {
            // A legal line from the position before the move.
            let mut b = before.clone();
            let mut line = Vec::new();
            for _ in 0..1 + rng.below(4) {
                let moves: Vec<Move> = b.legal_moves().iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                let m = rng.pick(&moves);
                b.make(m);
                line.push(m);
            }
            if !line.is_empty() {
                pm.annotations.variations.push(line);
            }
        }
        game_set_move(&mut game, i, pm);
    }
    game
}

/// Sets the annotations of move `i` from `pm` (the same move, new annotations).
fn game_set_move(game: &mut Game, i: usize, pm: ox88::game::PlayedMove) {
    game.set_annotations(i, pm.annotations).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn annotated_games_round_trip_and_the_independent_reader_agrees(seed in 1u64..u64::MAX) {
        let mut rng = Rng(seed);
        let game = annotated_game(&mut rng, seed as usize % 7);
        let pgn = game.to_pgn();
        let back = Game::from_pgn(&pgn).unwrap();
        prop_assert_eq!(back.moves(), game.moves(), "{}", pgn);
        prop_assert_eq!(&back.comment_before, &game.comment_before);
        let seen = independent_read(&pgn);
        prop_assert_eq!(seen.sans, game.sans());
        prop_assert_eq!(shakmaty_replay(seen.fen.as_deref(), &game.sans().iter().map(|s| s.to_string()).collect::<Vec<_>>()), final_board(&game).to_fen());
    }
}

#[test]
fn a_claimed_threefold_reason_after_a_variation_is_not_read_as_a_move_comment() {
    let pgn = "[Event \"t\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 \
               {a comment} (4... Nc6) {threefold repetition} 1/2-1/2\n";
    let game = Game::from_pgn(pgn).expect("reads");
    let last = game.moves().last().expect("moves");
    assert_eq!(last.annotations.comment.as_deref(), Some("a comment"));
    let end = game.final_result().expect("a result");
    assert_eq!(end.termination, Termination::ThreefoldRepetition);
    // And what we write reads back the same.
    let again = Game::from_pgn(&game.to_pgn()).expect("reads back");
    assert_eq!(again.moves(), game.moves());
}

/// Mates in `[%eval]` are written as lichess and ChessBase write them, `#3` / `#-2` (moves
/// to mate from White's view), and read back as the same mates, through a second round.
#[test]
fn mate_evals_are_written_as_hash_n_and_read_back() {
    let pgn = "[Event \"Mates\"]\n\n1. f3 {[%eval #-3]} e5 {[%eval #-2]} 2. g4 {[%eval #-1]} \
               Qh4# {[%eval #0]} 0-1\n";
    let game = Game::from_pgn(pgn).unwrap();
    let evals: Vec<Option<Score>> = game.moves().iter().map(|m| m.annotations.eval).collect();
    let mates = [-3, -2, -1, 0].map(|n| Some(Score::Mate(n)));
    assert_eq!(evals, mates);
    let written = game.to_pgn();
    for text in ["[%eval #-3]", "[%eval #-2]", "[%eval #-1]", "[%eval #0]"] {
        assert!(written.contains(text), "{text}: {written}");
    }
    let back = Game::from_pgn(&written).unwrap();
    let evals: Vec<Option<Score>> = back.moves().iter().map(|m| m.annotations.eval).collect();
    assert_eq!(evals, mates);
    // White mating reads with no sign, as written.
    let game = Game::from_pgn("1. e4 {[%eval #3]} *\n").unwrap();
    assert_eq!(game.moves()[0].annotations.eval, Some(Score::Mate(3)));
    assert!(game.to_pgn().contains("{[%eval #3]}"), "{}", game.to_pgn());
}
