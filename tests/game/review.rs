//! Game review: known blunders found with the right better move, a quiet game
//! left unmarked, accuracy that ranks the sides, the annotated PGN read back by our reader,
//! by pgn-reader (variations replayed with shakmaty) and by the review itself, input
//! annotations kept, a cancelled review that keeps its first half, and the command line.
//! Small fixed depths keep it fast and reproducible.

use crate::common;

use std::io::Cursor;
use std::ops::ControlFlow;
use std::process::Command;

use ox88::chess::{Board, Color};
use ox88::engine::Score;
use ox88::engine::jobs::review::analyse;
use ox88::engine::jobs::{CancelHandle, PositionAnalysis, ReviewJob, ReviewSettings, Verdict};
use ox88::engine::syzygy::Tablebases;
use ox88::game::Game;
use ox88::game::annotate::{
    Judgement, Review, judge, review_positions, second_look_for, would_mark,
};
use pgn_reader::{Nag, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const DEPTH: u32 = 6;

fn review(pgn: &str) -> (Game, Review) {
    let game = Game::from_pgn(pgn).unwrap();
    let outcome = analyse(
        &review_positions(&game),
        &ReviewSettings::depth(DEPTH),
        &CancelHandle::new(),
        &mut |_| {},
    );
    assert!(outcome.is_complete() && !outcome.cancelled);
    let review = Review::from_analysis(&game, &outcome.positions);
    (game, review)
}

/// The SAN of the engine's better move for move `index`.
fn better_san(game: &Game, review: &Review, index: usize) -> String {
    let board = game.position_at(index).unwrap();
    board.san(review.moves[index].best.unwrap())
}

fn judgements(review: &Review) -> Vec<(usize, Judgement)> {
    review
        .moves
        .iter()
        .filter_map(|m| m.judgement.map(|j| (m.index, j)))
        .collect()
}

/// A queen left en prise, then a reply that does not take it.
const HANGING_QUEEN: &str = "1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Be7 4. Qg3 Nf6 *";
/// Scholar's mate set up, Black allows it, White misses it.
const MISSED_MATE: &str = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qf3 Bc5 *";
/// A queen given away, and the other side taking it: only White errs.
const ONE_SIDED: &str = "1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *";
/// The Closed Ruy Lopez, as played for a century.
const QUIET: &str =
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 *";

#[test]
fn a_hanging_queen_and_the_missed_capture_are_blunders_with_the_capture_as_the_better_move() {
    let (game, review) = review(HANGING_QUEEN);
    let marked = judgements(&review);
    // 3. Qxe5+ (index 4) hangs the queen; 3...Be7 (index 5) lets it go.
    assert!(marked.contains(&(4, Judgement::Blunder)), "{marked:?}");
    assert!(marked.contains(&(5, Judgement::Blunder)), "{marked:?}");
    assert_eq!(better_san(&game, &review, 5), "Nxe5");
    assert_ne!(better_san(&game, &review, 4), "Qxe5+");
}

#[test]
fn a_missed_mate_in_one_is_a_blunder_with_the_mate_as_the_better_move() {
    let (game, review) = review(MISSED_MATE);
    let marked = judgements(&review);
    // 3...Nf6 (index 5) walks into mate; 4. Qf3 (index 6) misses 4. Qxf7#.
    assert!(marked.contains(&(5, Judgement::Blunder)), "{marked:?}");
    assert!(marked.contains(&(6, Judgement::Blunder)), "{marked:?}");
    assert_eq!(better_san(&game, &review, 6), "Qxf7#");
    let pgn = review.annotate(&game, "test").to_pgn();
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("4. Qf3 $4 {[%eval"), "{pgn}");
    assert!(flat.contains("(4. Qxf7#)"), "{pgn}");
}

#[test]
fn a_quiet_book_line_gets_no_blunder() {
    let (_, review) = review(QUIET);
    assert!(
        review
            .moves
            .iter()
            .all(|m| m.judgement != Some(Judgement::Blunder)),
        "{:?}",
        judgements(&review)
    );
    assert_eq!(review.white.blunders + review.black.blunders, 0);
    for side in [Color::White, Color::Black] {
        let s = review.side(side);
        assert!(s.accuracy > 70.0 && s.accuracy <= 100.0, "{side:?} {s:?}");
    }
}

#[test]
fn accuracy_is_a_percentage_and_higher_for_the_side_without_mistakes() {
    let (_, review) = review(ONE_SIDED);
    let (w, b) = (review.white, review.black);
    for s in [w, b] {
        assert!((0.0..=100.0).contains(&s.accuracy), "{s:?}");
    }
    assert_eq!(w.blunders, 1, "{w:?}");
    assert_eq!(b.inaccuracies + b.mistakes + b.blunders, 0, "{b:?}");
    assert!(b.accuracy > w.accuracy, "white {w:?} black {b:?}");
    assert!(w.acpl > b.acpl, "white {w:?} black {b:?}");
}

// ---- the second look, the book, the better line ------------------------------------------

/// A review whose marks get a second look, at `depth` for the first.
fn review_checked(game: &Game, depth: u32) -> Review {
    let outcome = analyse(
        &review_positions(game),
        &ReviewSettings::depth(depth).with_second_look(would_mark),
        &CancelHandle::new(),
        &mut |_| {},
    );
    assert!(outcome.is_complete());
    Review::from_analysis(game, &outcome.positions)
}

/// The Giuoco Piano: 3...Bc5 is the book's own move.
const ITALIAN: &str = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 *";

#[test]
fn a_move_the_book_plays_is_never_marked() {
    let game = Game::from_pgn(ITALIAN).unwrap();
    let bc5 = 5;
    let review = review_checked(&game, DEPTH);
    assert_eq!(
        review.moves[bc5].judgement,
        None,
        "{:?}",
        judgements(&review)
    );
    // Even where the search says it throws a piece away, with another move as its best.
    let mut scores = vec![Score::Cp(20); game.len() + 1];
    scores[bc5] = Score::Cp(0);
    scores[bc5 + 1] = Score::Cp(400);
    let analysis = made_up_analysis(&game, &scores, true);
    let review = Review::from_analysis(&game, &analysis);
    assert_eq!(review.moves[bc5].judgement, None);
    // The same scores mark a move the book does not play: 3...Qh4 in its place.
    let off_book = Game::from_pgn("1. e4 e5 2. Nf3 Nc6 3. Bc4 Qh4 *").unwrap();
    let analysis = made_up_analysis(&off_book, &scores, true);
    let review = Review::from_analysis(&off_book, &analysis);
    assert_eq!(review.moves[bc5].judgement, Some(Judgement::Blunder));
}

#[test]
fn a_better_line_never_begins_with_the_move_played() {
    // The search's best move is the move played, yet the scores drop (the search
    // disagreeing with itself a ply later): no mark, and no better move to show.
    let game = Game::from_pgn(HANGING_QUEEN).unwrap();
    let mut scores = vec![Score::Cp(0); game.len() + 1];
    scores[5] = Score::Cp(-50);
    scores[6] = Score::Cp(600);
    let made_up = Review::from_analysis(&game, &made_up_analysis(&game, &scores, false));
    assert_eq!(made_up.moves[5].judgement, None);
    assert_eq!(made_up.moves[5].best, None);
    assert!(made_up.moves[5].best_line.is_empty());
    // Real reviews, with and without the second look.
    let selfplay = std::fs::read_to_string("tests/data/selfplay40.pgn").unwrap();
    for pgn in [
        HANGING_QUEEN,
        MISSED_MATE,
        ONE_SIDED,
        QUIET,
        selfplay.as_str(),
    ] {
        let game = Game::from_pgn(pgn).unwrap();
        let (_, first_look) = review(pgn);
        for reviewed in [first_look, review_checked(&game, DEPTH)] {
            for m in &reviewed.moves {
                assert_ne!(m.best, Some(m.played), "move {}", m.index);
                assert_ne!(m.best_line.first(), Some(&m.played), "move {}", m.index);
                assert_eq!(m.best_line.first().copied(), m.best, "move {}", m.index);
            }
            let annotated = reviewed.annotate(&game, "t");
            for (i, pm) in annotated.moves().iter().enumerate() {
                for v in &pm.annotations.variations {
                    assert_ne!(v.first(), Some(&game.moves()[i].mv), "move {i}: {v:?}");
                }
            }
        }
    }
}

/// Legal's trap: 5.Nxe5! gives the queen, and 5...Bxd1 6.Bxf7+ Ke7 7.Nd5# follows.
const LEGAL: &str = "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 *";

#[test]
fn the_second_look_takes_back_a_mark_the_first_look_gave() {
    let game = Game::from_pgn(LEGAL).unwrap();
    let nxe5 = 8;
    // Two plies see the queen taken, not the mate that follows.
    let shallow = 2;
    let outcome = analyse(
        &review_positions(&game),
        &ReviewSettings::depth(shallow),
        &CancelHandle::new(),
        &mut |_| {},
    );
    let first_look = Review::from_analysis(&game, &outcome.positions);
    assert!(
        first_look.moves[nxe5].judgement.is_some(),
        "{:?}",
        judgements(&first_look)
    );
    let checked = review_checked(&game, shallow);
    assert_eq!(
        checked.moves[nxe5].judgement,
        None,
        "{:?}",
        judgements(&checked)
    );
}

#[test]
fn every_mark_after_a_second_look_is_the_second_looks_verdict() {
    for pgn in [HANGING_QUEEN, MISSED_MATE, ONE_SIDED] {
        let game = Game::from_pgn(pgn).unwrap();
        let outcome = analyse(
            &review_positions(&game),
            &ReviewSettings::depth(DEPTH).with_second_look(would_mark),
            &CancelHandle::new(),
            &mut |_| {},
        );
        let review = Review::from_analysis(&game, &outcome.positions);
        assert!(review.moves.iter().any(|m| m.judgement.is_some()), "{pgn}");
        for m in review.moves.iter().filter(|m| m.judgement.is_some()) {
            let check = outcome.positions[m.index]
                .check
                .as_ref()
                .unwrap_or_else(|| panic!("{pgn}: move {} marked unchecked", m.index));
            assert_eq!(check.played, m.played);
            assert!(check.other_is_better());
            // The loss recorded is the second look's, and it holds the mark's threshold.
            assert_eq!((m.before, m.after), (check.other_score, check.played_score));
            assert_eq!(judge(m.before, m.after), m.judgement);
            assert!(m.chances_lost >= 0.1, "{pgn}: move {} {m:?}", m.index);
        }
    }
}

// ---- the annotated PGN read back ----------------------------------------------------------

/// What pgn-reader sees: main-line SAN, NAGs, comments, and every variation replayed with
/// shakmaty from the position it branches from (a panic if a move is not legal there).
#[derive(Default)]
struct Seen {
    sans: Vec<String>,
    nags: Vec<u8>,
    comments: Vec<String>,
    variations: usize,
    tags: Vec<(String, String)>,
}

struct Movetext {
    seen: Seen,
    /// Position stack: the main line, then one entry per open variation.
    stack: Vec<(Chess, Chess)>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = Seen;
    type Movetext = Movetext;
    type Output = Seen;

    fn begin_tags(&mut self) -> ControlFlow<Seen, Seen> {
        ControlFlow::Continue(Seen::default())
    }
    fn tag(&mut self, seen: &mut Seen, name: &[u8], value: RawTag<'_>) -> ControlFlow<Seen> {
        seen.tags.push((
            String::from_utf8_lossy(name).to_string(),
            value.decode_utf8_lossy().to_string(),
        ));
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, seen: Seen) -> ControlFlow<Seen, Movetext> {
        let pos = match seen.tags.iter().find(|(n, _)| n == "FEN") {
            Some((_, f)) => Fen::from_ascii(f.as_bytes())
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap(),
            None => Chess::default(),
        };
        ControlFlow::Continue(Movetext {
            seen,
            stack: vec![(pos.clone(), pos)],
        })
    }
    fn san(&mut self, mt: &mut Movetext, san: SanPlus) -> ControlFlow<Seen> {
        let depth = mt.stack.len();
        let (before, now) = mt.stack.last_mut().unwrap();
        let m = san
            .san
            .to_move(now)
            .unwrap_or_else(|e| panic!("{san} is not legal here: {e}"));
        *before = now.clone();
        now.play_unchecked(m);
        if depth == 1 {
            mt.seen.sans.push(san.to_string());
        }
        ControlFlow::Continue(())
    }
    fn nag(&mut self, mt: &mut Movetext, nag: Nag) -> ControlFlow<Seen> {
        mt.seen.nags.push(nag.0);
        ControlFlow::Continue(())
    }
    fn comment(&mut self, mt: &mut Movetext, c: RawComment<'_>) -> ControlFlow<Seen> {
        mt.seen
            .comments
            .push(String::from_utf8_lossy(c.as_bytes()).to_string());
        ControlFlow::Continue(())
    }
    fn begin_variation(&mut self, mt: &mut Movetext) -> ControlFlow<Seen, Skip> {
        // A variation replaces the last move: it starts from the position before it.
        let before = mt.stack.last().unwrap().0.clone();
        mt.stack.push((before.clone(), before));
        mt.seen.variations += 1;
        ControlFlow::Continue(Skip(false))
    }
    fn end_variation(&mut self, mt: &mut Movetext) -> ControlFlow<Seen> {
        mt.stack.pop();
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, mt: Movetext) -> Seen {
        mt.seen
    }
}

fn independent_read(pgn: &str) -> Seen {
    Reader::new(Cursor::new(pgn.as_bytes()))
        .read_game(&mut Collect)
        .expect("reads")
        .expect("a game")
}

#[test]
fn the_annotated_pgn_reads_back_here_in_pgn_reader_and_in_a_second_review() {
    let (game, review) = review(MISSED_MATE);
    let annotated = review.annotate(&game, "ox88 test");
    let pgn = annotated.to_pgn();

    // Our reader: the same moves with the same annotations, and the tags.
    let back = Game::from_pgn(&pgn).unwrap();
    assert_eq!(back.moves(), annotated.moves());
    let accuracy = |g: &Game, tag: &str| g.tags.get(tag).map(|v| v.parse::<f64>().unwrap());
    assert_eq!(
        accuracy(&back, "WhiteAccuracy"),
        Some((review.white.accuracy * 10.0).round() / 10.0)
    );
    assert!(accuracy(&back, "BlackAccuracy").is_some());
    assert_eq!(back.tags.get("Annotator"), Some("ox88 test"));
    assert!(back.moves().iter().all(|m| m.annotations.eval.is_some()));

    // pgn-reader: the main line, our NAGs, an eval comment per move, legal variations.
    let seen = independent_read(&pgn);
    assert_eq!(seen.sans, game.sans());
    let nags: Vec<u8> = review
        .moves
        .iter()
        .filter_map(|m| m.judgement.map(|j| j.nag()))
        .collect();
    assert_eq!(seen.nags, nags);
    assert_eq!(seen.variations, nags.len());
    assert_eq!(
        seen.comments
            .iter()
            .filter(|c| c.contains("[%eval "))
            .count(),
        game.len()
    );

    // Reviewing the review gives the same file: marks and lines are replaced, not doubled.
    let (again_game, again) = review_of(&pgn);
    assert_eq!(again.annotate(&again_game, "ox88 test").to_pgn(), pgn);
}

fn review_of(pgn: &str) -> (Game, Review) {
    review(pgn)
}

#[test]
fn comments_and_nags_of_the_input_are_kept() {
    let pgn = "[Event \"Kept\"]\n\n1. e4 {the usual} e5 2. Qh5 $14 Nc6 3. Qxe5+ !! {a bold idea} (3. Kd1 a6) Nxe5 *";
    let (game, review) = review(pgn);
    let annotated = review.annotate(&game, "t");
    let m = annotated.moves();
    assert_eq!(m[0].annotations.comment.as_deref(), Some("the usual"));
    // The input's $14 stays (the engine may add its own mark to 2. Qh5 before it).
    assert_eq!(m[2].annotations.nags.last(), Some(&14));
    // The blunder mark replaces the "!!"; the comment and the old variation stay, after
    // the engine's line.
    assert_eq!(m[4].annotations.nags, [Judgement::Blunder.nag()]);
    assert_eq!(m[4].annotations.comment.as_deref(), Some("a bold idea"));
    let lines = &m[4].annotations.variations;
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0][0], review.moves[4].best.unwrap());
    let text = annotated.to_pgn();
    assert!(Game::from_pgn(&text).unwrap().moves() == m, "{text}");
}

// ---- the job ------------------------------------------------------------------------------

#[test]
fn a_review_cancelled_halfway_keeps_the_first_half() {
    let game = Game::from_pgn(QUIET).unwrap();
    let positions = review_positions(&game);
    let total = positions.len();
    let half = total / 2;
    let full = analyse(
        &positions,
        &ReviewSettings::depth(DEPTH),
        &CancelHandle::new(),
        &mut |_| {},
    );

    let (tx, rx) = std::sync::mpsc::channel();
    let cancel = CancelHandle::new();
    let in_job = cancel.clone();
    let job =
        ReviewJob::start_with_cancel(positions, ReviewSettings::depth(DEPTH), cancel, move |p| {
            tx.send((p.done, p.total, p.latest.index)).unwrap();
            if p.done == half {
                in_job.cancel();
            }
        })
        .unwrap();
    let outcome = job.wait();
    assert!(outcome.cancelled);
    assert_eq!(outcome.total, total);
    assert_eq!(outcome.positions.len(), half);
    // The same searches as an uncancelled run (all but the time they took).
    let strip = |ps: &[ox88::engine::jobs::PositionAnalysis]| {
        ps.iter()
            .map(|p| (p.index, p.verdict.clone(), p.nodes))
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&outcome.positions), strip(&full.positions[..half]));
    let progress: Vec<(usize, usize, usize)> = rx.iter().collect();
    assert_eq!(
        progress,
        (1..=half).map(|d| (d, total, d - 1)).collect::<Vec<_>>()
    );

    // The half that was analysed is reviewed; the rest of the game is left as it was.
    let review = Review::from_analysis(&game, &outcome.positions);
    assert_eq!(review.moves.len(), half - 1);
    assert!(!review.is_complete());
    let annotated = review.annotate(&game, "t");
    assert!(annotated.moves()[half - 2].annotations.eval.is_some());
    assert!(annotated.moves()[half - 1].annotations.eval.is_none());
}

#[test]
fn a_mate_on_the_board_is_not_searched_and_gets_no_eval() {
    let (game, review) = review("1. f3 e5 2. g4 Qh4# 0-1");
    let last = review.moves.last().unwrap();
    assert_eq!(last.eval_after, None);
    assert_eq!(last.judgement, None);
    assert!(
        review.moves[2].judgement == Some(Judgement::Blunder),
        "{:?}",
        judgements(&review)
    );
    let pgn = review.annotate(&game, "t").to_pgn();
    assert!(pgn.contains("[%eval #-1]"), "{pgn}");
    // Read back, the review's mate is a mate again.
    let back = Game::from_pgn(&pgn).unwrap();
    assert!(
        back.moves()
            .iter()
            .any(|m| m.annotations.eval == Some(Score::Mate(-1))),
        "{pgn}"
    );
    let start = Board::startpos();
    assert_eq!(start.san(review.moves[0].played), "f3");
}

// ---- the command line ---------------------------------------------------------------------

fn ox88(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_review_command_picks_a_game_writes_pgn_and_reports_progress() {
    let dir = std::env::temp_dir().join(format!("ox88-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.pgn");
    std::fs::write(
        &file,
        format!("[Event \"one\"]\n\n{QUIET}\n\n[Event \"two\"]\n\n{ONE_SIDED}\n"),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = ox88(&["review", path, "--game", "2", "--depth", "4"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pgn = String::from_utf8(out.stdout).unwrap();
    let game = Game::from_pgn(&pgn).unwrap();
    assert_eq!(game.tags.event, "two");
    assert!(game.tags.get("WhiteAccuracy").is_some());
    assert_eq!(game.moves()[4].annotations.nags, [4]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("7/7 positions"), "{err}");
    assert!(err.contains("left"), "{err}");

    let to_file = dir.join("out.pgn");
    let out = ox88(&[
        "review",
        path,
        "--depth",
        "3",
        "--out",
        to_file.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        Game::from_pgn(&std::fs::read_to_string(&to_file).unwrap())
            .unwrap()
            .tags
            .event,
        "one"
    );

    let out = ox88(&["review", path, "--game", "3"]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("there is no game 3: the file has 2 games"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--movetime` is a fixed time per position, searched whole (a lower bound: a busy machine
/// takes longer, never less); the opening's positions settle early, where a clock's early
/// stop would end each search long before it.
#[test]
fn a_review_by_movetime_searches_each_position_for_the_whole_time() {
    let game = Game::from_pgn("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *").unwrap();
    let per = std::time::Duration::from_millis(250);
    let outcome = analyse(
        &review_positions(&game),
        &ReviewSettings::movetime(per),
        &CancelHandle::new(),
        &mut |_| {},
    );
    assert!(outcome.is_complete());
    for p in &outcome.positions {
        assert!(
            p.time >= per,
            "position {} searched for {:?} of {per:?}",
            p.index,
            p.time
        );
    }
}

/// Writes `tests/data/selfplay40.pgn`, the 40-move game the review is timed on (the
/// first opening of openings500.pgn, then the engine against itself at depth 5). Run with
/// `cargo test --release --test game review:: -- --ignored`.
#[test]
#[ignore]
fn write_the_self_played_game_for_timing() {
    use ox88::engine::search::Searcher;
    use ox88::engine::{Limits, SearchOptions};
    let text = std::fs::read_to_string("tests/data/openings500.pgn").unwrap();
    let mut game = Game::from_pgn(&text).unwrap();
    let options = SearchOptions {
        own_book: false,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::standalone();
    while game.len() < 80 && !game.is_over() {
        let r = searcher.search_sync(game.board(), &Limits::depth(5), &options, &mut |_| {});
        game.play(r.best.unwrap()).unwrap();
    }
    game.tags.event = "ox88 self-play for review timing".to_string();
    game.tags.white = "ox88 depth 5".to_string();
    game.tags.black = "ox88 depth 5".to_string();
    std::fs::write("tests/data/selfplay40.pgn", game.to_pgn()).unwrap();
}

// ---- Syzygy tables ------------------------------------------------------------------------

/// An analysis of `game`'s positions that says what the test wants the search to have
/// said: `scores[k]` for the side to move after `k` moves; the move played as the best, or
/// with `other_best` another legal move.
fn made_up_analysis(game: &Game, scores: &[Score], other_best: bool) -> Vec<PositionAnalysis> {
    let positions = review_positions(game);
    positions
        .iter()
        .enumerate()
        .map(|(k, board)| {
            let verdict = match (game.moves().get(k), board.legal_moves().is_empty()) {
                (_, true) if board.in_check() => Verdict::Checkmated,
                (_, true) => Verdict::Stalemate,
                (Some(pm), false) => {
                    let best = match other_best {
                        true => board
                            .legal_moves()
                            .iter()
                            .copied()
                            .find(|&m| m != pm.mv)
                            .unwrap_or(pm.mv),
                        false => pm.mv,
                    };
                    Verdict::Searched {
                        score: scores[k],
                        depth: 1,
                        best,
                        pv: vec![best],
                    }
                }
                (None, false) => Verdict::Searched {
                    score: scores[k],
                    depth: 1,
                    best: *board.legal_moves().iter().next().unwrap(),
                    pv: vec![],
                },
            };
            PositionAnalysis {
                index: k,
                verdict,
                nodes: 1,
                time: std::time::Duration::ZERO,
                check: None,
            }
        })
        .collect()
}

const KQK: &str = "[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n\n";

#[test]
fn the_tables_judge_endgame_moves_whatever_the_search_says() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let tables = Tablebases::open(&dir).unwrap();
    // Qf7 stalemates: a won KQK thrown into a draw. The made-up search calls it its own
    // best move at an even score, so without the tables it is not judged at all.
    let game = Game::from_pgn(&format!("{KQK}1. Qf7 1/2-1/2\n")).unwrap();
    let analysis = made_up_analysis(&game, &[Score::Cp(0), Score::Cp(0)], false);
    let by_search = Review::from_analysis(&game, &analysis);
    assert_eq!(by_search.moves[0].judgement, None);
    let by_tables = Review::from_analysis_with_tables(&game, &analysis, Some(&tables));
    assert_eq!(by_tables.moves[0].judgement, Some(Judgement::Blunder));
    assert_eq!(by_tables.white.blunders, 1);
    // Qf2 keeps the win: not judged, though the made-up search says it walks into a mate.
    let game = Game::from_pgn(&format!("{KQK}1. Qf2 Kg8 *\n")).unwrap();
    let analysis = made_up_analysis(&game, &[Score::Mate(2), Score::Mate(3), Score::Cp(0)], true);
    let by_search = Review::from_analysis(&game, &analysis);
    assert_eq!(by_search.moves[0].judgement, Some(Judgement::Blunder));
    let by_tables = Review::from_analysis_with_tables(&game, &analysis, Some(&tables));
    assert_eq!(by_tables.moves[0].judgement, None);
    // Black's only moves in a lost position lose nothing either.
    assert_eq!(by_tables.moves[1].judgement, None);
}

#[test]
fn review_with_syzygy_marks_a_hung_queen_and_refuses_a_directory_without_tables() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("ox88-review-tb-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let file = tmp.join("kqk.pgn");
    // Qd5+?? Kxd5: the queen hung, a bare-kings draw.
    std::fs::write(
        &file,
        "[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/3QK3 w - - 0 1\"]\n\n1. Qd5+ Kxd5 1/2-1/2\n",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let out = ox88(&[
        "review",
        path,
        "--depth",
        "3",
        "--syzygy",
        dir.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let game = Game::from_pgn(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(game.moves()[0].annotations.nags, [4]);
    assert!(game.moves()[1].annotations.nags.is_empty());

    let out = ox88(&["review", path, "--syzygy", tmp.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no Syzygy tables"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}

// ---- quick and deep -----------------------------------------------------------------------

/// The two budgets: quick is the standard 40000 nodes a position, deep several times more,
/// and both give a move about to be marked a second look (deep also the near misses).
#[test]
fn quick_is_the_standard_budget_and_deep_searches_more() {
    use ox88::engine::jobs::ReviewDepth;
    use ox88::engine::jobs::review::{DEEP_NODES, STANDARD_NODES};
    let quick = ReviewSettings::of_depth(ReviewDepth::Quick);
    let deep = ReviewSettings::of_depth(ReviewDepth::Deep);
    assert_eq!(quick.limits.nodes, Some(STANDARD_NODES));
    assert_eq!(STANDARD_NODES, 40_000);
    assert_eq!(deep.limits.nodes, Some(DEEP_NODES));
    const { assert!(DEEP_NODES >= 5 * STANDARD_NODES) };
    assert_eq!(ReviewDepth::default(), ReviewDepth::Quick);
    // A drop of 0.08 (a third of a pawn from equality): no mark, but deep looks again.
    let (before, after) = (Score::Cp(0), Score::Cp(-45));
    assert!(judge(before, after).is_none());
    assert!(!second_look_for(ReviewDepth::Quick)(before, after));
    assert!(second_look_for(ReviewDepth::Deep)(before, after));
    // A time per game is spread over the positions, with room kept for the second looks.
    let timed = ReviewSettings::game_time(std::time::Duration::from_secs(60), 81);
    let per = timed.limits.movetime.unwrap();
    assert!(per * 81 < std::time::Duration::from_secs(60));
    assert!(per * 81 > std::time::Duration::from_secs(30));
}

/// The review's false mark in the Game of the Century (Byrne–Fischer, New York 1956):
/// 16...Rfe8+, Stockfish's best move, was marked `??` at the quick budget, a search horizon
/// seen from the position after it. A deep review leaves it unmarked.
#[test]
fn a_deep_review_does_not_mark_fischers_sixteenth_move() {
    use ox88::engine::jobs::ReviewDepth;
    let text = std::fs::read_to_string("tests/data/byrne-fischer-1956.pgn").unwrap();
    let full = Game::from_pgn(&text).unwrap();
    // 16...Rfe8+ is the game's 32nd move (index 31); the review of the two moves from there
    // (17.Kf1 answers) judges it as the whole game's review does: the positions before and
    // after it, and the second look from the first.
    let before = review_positions(&full)[31].clone();
    let mut game = Game::from_board(before);
    game.play_text("Rfe8+").unwrap();
    game.play_text("Kf1").unwrap();
    let settings = ReviewSettings::of_depth(ReviewDepth::Deep)
        .with_second_look(second_look_for(ReviewDepth::Deep));
    let outcome = analyse(
        &review_positions(&game),
        &settings,
        &CancelHandle::new(),
        &mut |_| {},
    );
    let review = Review::from_analysis(&game, &outcome.positions);
    let rfe8 = &review.moves[0];
    assert_eq!(rfe8.mover, Color::Black);
    assert_eq!(
        rfe8.judgement, None,
        "16...Rfe8+ marked: before {:?}, after {:?}",
        rfe8.before, rfe8.after
    );
}

/// `--quick` (the default) and `--deep` on the command line: the PGN on standard output
/// with the budget named in the Annotator tag, the progress on standard error, a hung
/// queen a blunder either way; the two cannot be asked for together.
#[test]
fn the_review_command_takes_quick_or_deep() {
    let dir = std::env::temp_dir().join(format!("ox88-review-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one.pgn");
    std::fs::write(&file, format!("[Event \"one\"]\n\n{ONE_SIDED}\n")).unwrap();
    let path = file.to_str().unwrap();
    for (args, budget) in [
        (vec![], "quick, 40000 nodes"),
        (vec!["--quick"], "quick, 40000 nodes"),
        (vec!["--deep"], "deep, "),
    ] {
        let out = ox88(&[&["review", path][..], &args[..]].concat());
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let game = Game::from_pgn(&String::from_utf8(out.stdout).unwrap()).unwrap();
        let annotator = game.tags.get("Annotator").unwrap_or("").to_string();
        assert!(annotator.contains(budget), "{args:?}: {annotator}");
        assert_eq!(game.moves()[4].annotations.nags, [4], "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("7/7 positions"), "{args:?}: {err}");
    }
    let out = ox88(&["review", path, "--quick", "--deep"]);
    assert!(!out.status.success());
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---- the only move, the table -------------------------------------------------------------

/// `made_up_analysis` with the move at `index` compared with the best other move, as a deep
/// review's look at the engine's own choice does (`played`, `other`: the mover's scores).
fn with_check(game: &Game, index: usize, played: Score, other: Score) -> Review {
    use ox88::engine::jobs::MoveCheck;
    let mut scores = vec![Score::Cp(0); game.len() + 1];
    scores[index] = played;
    scores[index + 1] = played.negate();
    let mut analysis = made_up_analysis(game, &scores, false);
    let board = &review_positions(game)[index];
    let mv = game.moves()[index].mv;
    let alt = board
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| m != mv)
        .unwrap();
    analysis[index].check = Some(MoveCheck {
        played: mv,
        played_score: played,
        other: alt,
        other_score: other,
        other_line: vec![alt],
        depth: 1,
        nodes: 1,
    });
    Review::from_analysis(game, &analysis)
}

/// `!` is for the only move that held: every other move a blunder's worth worse, the mover
/// not lost after it, and not a capture that anyone would play (one that wins material or
/// takes back). It is written as `$1` in the PGN and shown in the table.
#[test]
fn the_only_move_that_holds_gets_an_exclamation_mark() {
    use ox88::game::annotate::only_move;
    // 3. Nc3 in a line no book plays: a quiet move with many others.
    let game = Game::from_pgn("1. a3 h6 2. h3 a6 3. Nc3 Nf6 *").unwrap();
    let nc3 = 4;
    let review = with_check(&game, nc3, Score::Cp(30), Score::Cp(-400));
    assert!(review.moves[nc3].only_move, "{:?}", review.moves[nc3]);
    assert_eq!(review.moves[nc3].judgement, None);
    assert_eq!(review.moves.iter().filter(|m| m.only_move).count(), 1);
    let pgn = review.annotate(&game, "test").to_pgn();
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("3. Nc3 $1 {[%eval"), "{pgn}");
    let table = review.table(&game);
    let row = table.lines().find(|l| l.starts_with("3. Nc3")).unwrap();
    assert!(
        row.contains(" ! ") && row.contains("every other move loses"),
        "{table}"
    );
    // Others only a little worse: no mark.
    let review = with_check(&game, nc3, Score::Cp(30), Score::Cp(-60));
    assert!(!review.moves[nc3].only_move);
    // Lost after it anyway: it held nothing.
    let review = with_check(&game, nc3, Score::Cp(-450), Score::Cp(-2000));
    assert!(!review.moves[nc3].only_move);
    assert!(only_move(Score::Cp(30), Score::Cp(-400)));
    assert!(!only_move(Score::Cp(-450), Score::Mate(-3)));
    // Taking a pawn that was offered: what anyone plays, however the others score.
    let game = Game::from_pgn("1. a3 d5 2. e4 h6 3. exd5 *").unwrap();
    let review = with_check(&game, 4, Score::Cp(30), Score::Cp(-400));
    assert!(!review.moves[4].only_move);
}

/// A deep review finds Fischer's 17...Be6, the queen sacrifice, to be the only move that
/// held (every other move loses); a quick review never asks.
#[test]
fn a_deep_review_calls_fischers_queen_sacrifice_the_only_move() {
    use ox88::engine::jobs::ReviewDepth;
    let text = std::fs::read_to_string("tests/data/byrne-fischer-1956.pgn").unwrap();
    let full = Game::from_pgn(&text).unwrap();
    // 17...Be6 is the game's 34th move (index 33); 18. Bxb6 answers.
    let mut game = Game::from_board(review_positions(&full)[33].clone());
    game.play_text("Be6").unwrap();
    game.play_text("Bxb6").unwrap();
    for depth in [ReviewDepth::Quick, ReviewDepth::Deep] {
        let settings = ReviewSettings::of_depth(depth).with_second_look(second_look_for(depth));
        assert_eq!(settings.only_move.is_some(), depth == ReviewDepth::Deep);
        let outcome = analyse(
            &review_positions(&game),
            &settings,
            &CancelHandle::new(),
            &mut |_| {},
        );
        let review = Review::from_analysis(&game, &outcome.positions);
        let be6 = &review.moves[0];
        assert_eq!(be6.judgement, None, "{depth:?}: {be6:?}");
        assert_eq!(
            be6.only_move,
            depth == ReviewDepth::Deep,
            "{depth:?}: {be6:?}"
        );
    }
}

/// `--table`: every move with its evaluation and loss on standard output, a mark and the
/// better move where there is one; the PGN goes to `--out`.
#[test]
fn the_review_table_lists_every_move_with_its_eval_and_loss() {
    let dir = std::env::temp_dir().join(format!("ox88-review-table-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("one.pgn");
    let out_pgn = dir.join("out.pgn");
    std::fs::write(&file, format!("[Event \"one\"]\n\n{ONE_SIDED}\n")).unwrap();
    let out = ox88(&[
        "review",
        file.to_str().unwrap(),
        "--table",
        "--out",
        out_pgn.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("move") && lines[0].contains("eval") && lines[0].contains("loss"));
    // A row for each of the six moves.
    assert_eq!(lines.len(), 7, "{table}");
    // 3. Qxe5+ gives the queen away: a blunder, with its loss and the better move.
    let qxe5 = lines.iter().find(|l| l.starts_with("3. Qxe5+")).unwrap();
    let cols: Vec<&str> = qxe5.split_whitespace().collect();
    let loss: f64 = cols[3].parse().unwrap();
    assert!(loss >= 0.3, "{qxe5}");
    assert_eq!(cols[4], "??", "{qxe5}");
    assert!(
        cols[2].starts_with('-'),
        "White's view after the blunder: {qxe5}"
    );
    let game = Game::from_pgn(&std::fs::read_to_string(&out_pgn).unwrap()).unwrap();
    assert_eq!(game.moves()[4].annotations.nags, [4]);
    std::fs::remove_dir_all(&dir).unwrap();
}
