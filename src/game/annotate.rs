//! Game review: each move judged by the winning chances it gave away, per-side accuracy,
//! and the annotated game (NAGs, `[%eval]` on every move, the better line as a variation,
//! accuracy tags).
//!
//! The analysis comes from `crate::engine::jobs::review` (one search per position, the
//! same budget each); this module only reads it, so the numbers here are pure functions of
//! the scores and can be tested without a search.
//!
//! How a move is judged (the mover's point of view throughout):
//! - `before` is the score of the position before the move (the engine's best play) and
//!   `after` minus the score of the position after it (a mate given scores as won, a draw
//!   by the rules as 0);
//! - each is turned into centipawns for the curves: clipped to ±1000, and a mate in any
//!   number of moves counts as ±1000 (lichess does the same);
//! - winning chances on lichess's published logistic, `c = 2 / (1 + e^(−0.00368208·cp)) − 1`
//!   (−1 lost, +1 won). A drop of `c` by 0.14 or more is an inaccuracy (`?!`, `$6`), by
//!   0.2 a mistake (`?`, `$2`), by 0.3 a blunder (`??`, `$4`). Lichess marks an
//!   inaccuracy from 0.1 of its judge's (Stockfish's) drop; ours starts higher because our
//!   search's drop differs from Stockfish's by a few hundredths either way, and most of the
//!   moves we found lost 0.10 to 0.14 Stockfish finds lost under 0.1 (tuned on the
//!   grandmaster games of docs/strength.md, reported on the others);
//! - mates are judged on their own as well, and the harsher verdict stands: a move that
//!   lets a forced mate go (before: mate for the mover, after: none) is a blunder unless
//!   the mover is still winning big (after ≥ +7 pawns a mistake, ≥ +10 no mark: the
//!   winning chances have not moved); a move that walks into a forced mate is a blunder
//!   unless the game was already lost (before ≤ −7 pawns a mistake, ≤ −10 no mark). A mate
//!   that merely takes longer is not judged;
//! - the engine's own choice is never judged: a drop there is the search disagreeing with
//!   itself one ply later; nor is a move the built-in opening book plays;
//! - a move the first look would mark gets a second look when the analysis has one
//!   (`engine::jobs::review`): the move played and the best other move searched deeper
//!   from the same position, to the same depth. Then `before` is the better of the two and
//!   `after` the move's own score, the mark is whatever these give (often none), and the
//!   better line is the other move's, so it never begins with the move played;
//! - with Syzygy tables, a move whose positions before and after both have a table result
//!   is judged by the tables alone, whatever the search says: one that turns a win into a
//!   draw or a loss, or a draw into a loss, is a blunder; one that keeps the result is
//!   not judged. Results are counted under the fifty-move rule (a cursed win and a blessed
//!   loss are draws) and, as the tables give them, from a fifty-move counter of zero.
//!
//! Accuracy is lichess's published per-move formula on win% (`50 + 50·c`):
//! `accuracy = 103.1668 · e^(−0.04354 · (win%before − win%after)) − 3.1669`, clamped to
//! 0..100 (a move that loses nothing scores 100). A side's accuracy for the game is
//! lichess's published game formula ([`game_accuracy`]): the mean of a volatility-weighted
//! mean and the harmonic mean of its moves' accuracies, so that one blunder in a sharp
//! position weighs more than a plain average would let it. The average centipawn loss uses
//! the same clipped centipawns: `max(0, before − after)` averaged.

use crate::chess::{Board, Color, Move};
use crate::engine::Score;
use crate::engine::book::Book;
use crate::engine::jobs::{PositionAnalysis, ReviewDepth, Verdict, WouldMark, only_move_candidate};
use crate::engine::syzygy::{Tablebases, Wdl};

use super::{Game, Outcome, rules_verdict};

/// The drops in winning chances (−1..1 scale) from which a move is an inaccuracy, a
/// mistake, a blunder (see the module comment for why the first is above lichess's 0.1).
pub const INACCURACY_DROP: f64 = 0.14;
pub const MISTAKE_DROP: f64 = 0.2;
pub const BLUNDER_DROP: f64 = 0.3;

/// The drop from which a review looks again at a move (lichess's inaccuracy): the second
/// look can find a move the first look put just below [`INACCURACY_DROP`] lost more.
pub const LOOK_DROP: f64 = 0.1;

/// Centipawns beyond which the curves see no difference; mates count as this much.
pub const CP_CEILING: i32 = 1000;
/// How many plies of the engine's line a variation shows (the better move and its answer
/// and a little more).
pub const VARIATION_PLIES: usize = 6;

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Judgement {
    /// The numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??).
    pub const fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    pub const fn glyph(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The verdict for a drop in winning chances (`c`, −1..1), if it is one.
    pub fn from_drop(drop: f64) -> Option<Judgement> {
        if drop >= BLUNDER_DROP {
            Some(Judgement::Blunder)
        } else if drop >= MISTAKE_DROP {
            Some(Judgement::Mistake)
        } else if drop >= INACCURACY_DROP {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }
}

/// A score as the curves see it: centipawns clipped to ±1000, mates as ±1000.
pub fn curve_cp(score: Score) -> i32 {
    match score {
        Score::Cp(c) => c.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(n) if n > 0 => CP_CEILING,
        Score::Mate(_) => -CP_CEILING,
    }
}

/// Winning chances in −1..1 for the side whose score it is (lichess's logistic).
pub fn winning_chances(score: Score) -> f64 {
    let cp = curve_cp(score) as f64;
    2.0 / (1.0 + (-0.003_682_08 * cp).exp()) - 1.0
}

/// Lichess's per-move accuracy in percent from win% (0..100) before and after the move.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    let drop = (win_before - win_after).max(0.0);
    (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0)
}

fn win_percent(score: Score) -> f64 {
    50.0 + 50.0 * winning_chances(score)
}

/// Lichess's game accuracy for each side, from White's win% (0..100) at every position of
/// the game (the start, then after each move: one more than the moves) and each move's
/// accuracy (percent, in game order; the first move is `first_mover`'s). Returns White's
/// and Black's, 0 for a side without a move.
///
/// - Each move is weighted by how volatile the game is around it: the standard deviation
///   (over the window, not the sample) of the win% in a window of positions, clamped to
///   0.5..12. The window holds `moves / 10` positions, clamped to 2..8; the first
///   `window − 2` moves use the first window, then the window slides one position a move
///   (the move from position `k` to `k + 1` gets the window ending at `k + 1` or later).
/// - A side's accuracy is the mean of the weighted mean of its moves' accuracies and their
///   harmonic mean (each accuracy taken as at least 1, so that one 0 does not make it 0).
pub fn game_accuracy(win_white: &[f64], accuracies: &[f64], first_mover: Color) -> (f64, f64) {
    let moves = accuracies.len();
    if moves == 0 {
        return (0.0, 0.0);
    }
    let size = (moves / 10).clamp(2, 8).min(win_white.len().max(1));
    let spread = |w: &[f64]| {
        let mean = w.iter().sum::<f64>() / w.len() as f64;
        let var = w.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / w.len() as f64;
        var.sqrt().clamp(0.5, 12.0)
    };
    let first = spread(&win_white[..size]);
    let mut weights: Vec<f64> = std::iter::repeat_n(first, size.saturating_sub(2))
        .chain(win_white.windows(size).map(spread))
        .collect();
    // A series shorter than the moves (never from a review) weighs the rest evenly.
    weights.resize(moves, 0.5);
    let side = |c: Color| {
        let (mut wsum, mut w, mut inv, mut n) = (0.0, 0.0, 0.0, 0usize);
        for (i, (&a, &weight)) in accuracies.iter().zip(&weights).enumerate() {
            let mover = if i % 2 == 0 {
                first_mover
            } else {
                first_mover.flip()
            };
            if mover == c {
                wsum += a * weight;
                w += weight;
                inv += 1.0 / a.max(1.0);
                n += 1;
            }
        }
        if n == 0 {
            0.0
        } else {
            (wsum / w + n as f64 / inv) / 2.0
        }
    };
    (side(Color::White), side(Color::Black))
}

/// The verdict on mates alone (see the module comment), mover's view.
fn mate_judgement(before: Score, after: Score) -> Option<Judgement> {
    let mate_for = |s: Score| matches!(s, Score::Mate(n) if n > 0);
    let mated = |s: Score| matches!(s, Score::Mate(n) if n <= 0);
    // Still ten pawns up (or down) either way, the winning chances have not moved: no mark.
    let graded = |cp: i32| {
        if cp >= CP_CEILING {
            None
        } else if cp >= 700 {
            Some(Judgement::Mistake)
        } else {
            Some(Judgement::Blunder)
        }
    };
    if mate_for(before) && !mate_for(after) {
        return if mated(after) {
            Some(Judgement::Blunder)
        } else {
            graded(curve_cp(after))
        };
    }
    if !mated(before) && mated(after) {
        return graded(-curve_cp(before));
    }
    None
}

/// The judgement of a move from the mover's scores before and after it.
pub fn judge(before: Score, after: Score) -> Option<Judgement> {
    let drop = winning_chances(before) - winning_chances(after);
    Judgement::from_drop(drop).max(mate_judgement(before, after))
}

/// Whether scores before and after a move would mark it, or nearly ([`LOOK_DROP`]): the
/// review job's test for a second look (`ReviewSettings::with_second_look(would_mark)`).
pub fn would_mark(before: Score, after: Score) -> bool {
    winning_chances(before) - winning_chances(after) >= LOOK_DROP || judge(before, after).is_some()
}

/// The drop in winning chances from which a deep review looks again at a move, below
/// [`LOOK_DROP`]: a first look at a position and the next can understate a loss that a
/// search of both moves from the same position shows, and those are the misses a deep
/// review is for.
pub const DEEP_LOOK_DROP: f64 = 0.07;

/// Whether a deep review looks again at a move: what `would_mark` picks and the near misses
/// (a drop of [`DEEP_LOOK_DROP`] or more).
pub fn might_mark(before: Score, after: Score) -> bool {
    winning_chances(before) - winning_chances(after) >= DEEP_LOOK_DROP || would_mark(before, after)
}

/// How far below the move played the best other move must score, in winning chances, for
/// the move to be the only one that held (`!`): a blunder's worth, so that every other
/// move would have been marked `??`.
pub const ONLY_MOVE_DROP: f64 = 0.3;

/// The winning chances the mover must keep after the only move for it to have held: not
/// lost (about a pawn and a half down on the curve).
pub const ONLY_MOVE_HOLDS: f64 = -0.5;

/// Whether a move searched beside the best of the others (the mover's scores, same depth)
/// was the only move that held: every other move loses a blunder's worth more, and the
/// mover is not lost after it.
pub fn only_move(played: Score, other: Score) -> bool {
    let kept = winning_chances(played);
    kept > ONLY_MOVE_HOLDS && kept - winning_chances(other) >= ONLY_MOVE_DROP
}

/// Which moves a review of this depth looks at again: quick, the ones the first look would
/// mark; deep, those and the near misses.
pub fn second_look_for(depth: ReviewDepth) -> WouldMark {
    match depth {
        ReviewDepth::Quick => would_mark,
        ReviewDepth::Deep => might_mark,
    }
}

/// Whether the built-in opening book plays `mv` in `board` (such a move is never marked).
pub fn book_move(board: &Board, mv: Move) -> bool {
    Book::builtin().moves(board).iter().any(|w| w.mv == mv)
}

/// A result as the fifty-move rule leaves it: 1 won, 0 drawn (cursed wins and blessed
/// losses included), −1 lost.
fn fifty_move_result(w: Wdl) -> i32 {
    match w {
        Wdl::Win => 1,
        Wdl::Loss => -1,
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => 0,
    }
}

/// The tables' judgement of the move from `before` to `after`: `Some(Some(Blunder))` when it
/// throws a win or a draw away, `Some(None)` when it keeps the result, `None` when the
/// tables cover only one of the positions (or a file cannot be read): the search judges.
/// A position drawn by the rules (repetition, the fifty-move rule, bare kings) counts as a
/// draw whatever the tables say.
pub fn table_judgement(
    tables: &Tablebases,
    before: &Board,
    after: &Board,
) -> Option<Option<Judgement>> {
    let was = fifty_move_result(tables.probe_wdl(before).ok()??);
    let is = if rules_verdict(after).is_some_and(|e| e.outcome == Outcome::Draw) {
        0
    } else {
        // The tables speak for the side to move after the move: the mover's opponent.
        fifty_move_result(tables.probe_wdl(after).ok()??.flip())
    };
    Some((is < was).then_some(Judgement::Blunder))
}

/// One move of the game, reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewedMove {
    /// Index of the move in the game's line (0-based).
    pub index: usize,
    pub mover: Color,
    pub played: Move,
    /// The mover's score with the engine's best play, and after the move played.
    pub before: Score,
    pub after: Score,
    /// How much the move lowered the mover's winning chances (−1..1 scale, ≥ 0).
    pub chances_lost: f64,
    /// Centipawns lost (clipped scores, ≥ 0).
    pub cp_loss: i32,
    /// Lichess's per-move accuracy, percent.
    pub accuracy: f64,
    pub judgement: Option<Judgement>,
    /// The only move that held (`!`, [`only_move`]): found where the review compared the
    /// move with the others (a deep review does for the engine's own choices).
    pub only_move: bool,
    /// The engine's better move in the position before the move and its line (starting
    /// with it); `None` and empty where the engine chose the move played.
    pub best: Option<Move>,
    pub best_line: Vec<Move>,
    /// The evaluation after the move, White's view; `None` after a mating move.
    pub eval_after: Option<Score>,
}

/// One side's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideSummary {
    pub moves: u32,
    /// Lichess's game accuracy over the side's moves ([`game_accuracy`]), percent (0 when
    /// the side has no reviewed move).
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Average centipawn loss.
    pub acpl: f64,
}

impl std::fmt::Display for SideSummary {
    /// `accuracy  87.3%  inaccuracies 1  mistakes 0  blunders 0  ACPL 23`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "accuracy {:>5.1}%  inaccuracies {}  mistakes {}  blunders {}  ACPL {:.0}",
            self.accuracy, self.inaccuracies, self.mistakes, self.blunders, self.acpl
        )
    }
}

/// A game reviewed: its moves judged (all of them, or the first ones when the analysis was
/// cut short) and each side's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    pub moves: Vec<ReviewedMove>,
    pub white: SideSummary,
    pub black: SideSummary,
    /// Moves in the game (more than `moves.len()` when the analysis was cut short).
    pub game_moves: usize,
}

/// The positions a review analyses: the start and the one after each move, each with the
/// game's history (repetitions count).
pub fn review_positions(game: &Game) -> Vec<Board> {
    let mut b = game.start().clone();
    let mut out = Vec::with_capacity(game.len() + 1);
    out.push(b.clone());
    for pm in game.moves() {
        b.make(pm.mv);
        out.push(b.clone());
    }
    out
}

impl Review {
    /// Judges the moves of `game` from the analysis of its positions (`analysis[k]` is the
    /// position after `k` moves; a prefix is fine: moves whose two positions are both
    /// analysed are judged).
    pub fn from_analysis(game: &Game, analysis: &[PositionAnalysis]) -> Review {
        Review::from_analysis_with_tables(game, analysis, None)
    }

    /// As `from_analysis`, and where `tables` cover a move's positions, the tables judge it
    /// instead of the search (see the module comment).
    pub fn from_analysis_with_tables(
        game: &Game,
        analysis: &[PositionAnalysis],
        tables: Option<&Tablebases>,
    ) -> Review {
        let positions = review_positions(game);
        let mut moves = Vec::new();
        for (i, pm) in game.moves().iter().enumerate() {
            let (Some(a_before), Some(a_after)) = (analysis.get(i), analysis.get(i + 1)) else {
                break;
            };
            let mover = positions[i].side_to_move();
            let after_board = &positions[i + 1];
            let mated = a_after.verdict == Verdict::Checkmated;
            let drawn = rules_verdict(after_board).is_some_and(|e| e.outcome == Outcome::Draw);
            let check = a_before.check.as_ref().filter(|c| c.played == pm.mv);
            let (before, after, best, line) = match check {
                // The second look: both moves searched from this position.
                Some(c) if c.other_is_better() => (
                    c.other_score,
                    c.played_score,
                    Some(c.other),
                    c.other_line.as_slice(),
                ),
                Some(c) => (c.played_score, c.played_score, None, &[][..]),
                None => {
                    let after = if mated {
                        Score::Mate(1)
                    } else if drawn {
                        Score::Cp(0)
                    } else {
                        a_after.score().negate()
                    };
                    let best = a_before.best().filter(|&b| b != pm.mv);
                    let line = if best.is_some() { a_before.pv() } else { &[] };
                    (a_before.score(), after, best, line)
                }
            };
            let by_tables = tables.and_then(|t| table_judgement(t, &positions[i], after_board));
            let book = book_move(&positions[i], pm.mv);
            let judgement = match by_tables {
                Some(j) => j,
                None if best.is_none() || book => None,
                None => judge(before, after),
            };
            let only = by_tables.is_none()
                && !book
                && check.is_some_and(|c| {
                    !c.other_is_better() && only_move(c.played_score, c.other_score)
                })
                && only_move_candidate(&positions[i], pm.mv);
            let chances_lost = (winning_chances(before) - winning_chances(after)).max(0.0);
            let eval_after = (!mated).then(|| after.for_white(mover));
            moves.push(ReviewedMove {
                index: i,
                mover,
                played: pm.mv,
                before,
                after,
                chances_lost,
                cp_loss: (curve_cp(before) - curve_cp(after)).max(0),
                accuracy: move_accuracy(win_percent(before), win_percent(after)),
                judgement,
                only_move: only,
                best,
                best_line: line.iter().take(VARIATION_PLIES).copied().collect(),
                eval_after,
            });
        }
        let series: Vec<f64> = moves
            .first()
            .map(|m| win_percent(m.before.for_white(m.mover)))
            .into_iter()
            .chain(
                moves
                    .iter()
                    .map(|m| win_percent(m.after.for_white(m.mover))),
            )
            .collect();
        let accuracies: Vec<f64> = moves.iter().map(|m| m.accuracy).collect();
        let first_mover = positions[0].side_to_move();
        let (white_accuracy, black_accuracy) = game_accuracy(&series, &accuracies, first_mover);
        let summary = |side: Color| {
            let mine: Vec<&ReviewedMove> = moves.iter().filter(|m| m.mover == side).collect();
            let n = mine.len();
            let count =
                |j: Judgement| mine.iter().filter(|m| m.judgement == Some(j)).count() as u32;
            let mean = |f: &dyn Fn(&ReviewedMove) -> f64| {
                if n == 0 {
                    0.0
                } else {
                    mine.iter().map(|m| f(m)).sum::<f64>() / n as f64
                }
            };
            SideSummary {
                moves: n as u32,
                accuracy: match side {
                    Color::White => white_accuracy,
                    Color::Black => black_accuracy,
                },
                inaccuracies: count(Judgement::Inaccuracy),
                mistakes: count(Judgement::Mistake),
                blunders: count(Judgement::Blunder),
                acpl: mean(&|m| m.cp_loss as f64),
            }
        };
        Review {
            white: summary(Color::White),
            black: summary(Color::Black),
            moves,
            game_moves: game.len(),
        }
    }

    pub fn side(&self, side: Color) -> &SideSummary {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn is_complete(&self) -> bool {
        self.moves.len() == self.game_moves
    }

    /// Every reviewed move as a line of text, for a player to read beside the game: the
    /// move, the evaluation after it (White's view, as `[%eval]`), the winning chances it
    /// gave away (on the −1..1 scale the marks' thresholds use), its mark (`?!` `?` `??`, or
    /// `!` for the only move that held), and for a marked move the engine's better move
    /// with the evaluation it keeps and its line. A header names the columns.
    pub fn table(&self, game: &Game) -> String {
        let mut out = String::from("move          eval   loss  mark  better\n");
        for rm in &self.moves {
            let board = game.position_at(rm.index);
            let san = |mv: Move| board.as_ref().map_or_else(|| mv.to_string(), |b| b.san(mv));
            let numbered = game
                .numbered_san(rm.index)
                .unwrap_or_else(|| san(rm.played));
            let eval = rm
                .eval_after
                .map_or_else(|| "mate".to_string(), |e| e.to_string());
            let mark = match (rm.judgement, rm.only_move) {
                (Some(j), _) => j.glyph(),
                (None, true) => "!",
                (None, false) => "",
            };
            let note = match (&rm.best, &board) {
                (Some(best), Some(b)) if rm.judgement.is_some() => {
                    let line = b.san_line(&rm.best_line);
                    let mut t = format!("{} {}", b.san(*best), rm.before.for_white(rm.mover));
                    if line.len() > 1 {
                        t.push_str(&format!(": {}", line.join(" ")));
                    }
                    t
                }
                _ if rm.only_move => "every other move loses".to_string(),
                (None, _) => "engine's choice".to_string(),
                _ if board.as_ref().is_some_and(|b| book_move(b, rm.played)) => "book".to_string(),
                _ => String::new(),
            };
            let row = format!(
                "{numbered:<12} {eval:>6}  {:>5.2}  {mark:<4}  {note}",
                rm.chances_lost
            );
            out.push_str(row.trim_end());
            out.push('\n');
        }
        out
    }

    /// The game with the review written into it: every reviewed move gets its `[%eval]`;
    /// a judged move gets its NAG (replacing any move-quality NAG `$1`–`$6` it had) and the
    /// engine's better line as the first variation (replacing one that starts with the
    /// same move); the tags `WhiteAccuracy`, `BlackAccuracy` and `Annotator` are set.
    /// Comments, other NAGs and variations stay as they were.
    pub fn annotate(&self, game: &Game, annotator: &str) -> Game {
        let mut out = game.clone();
        for rm in &self.moves {
            let mut notes = out.moves()[rm.index].annotations.clone();
            if rm.eval_after.is_some() {
                notes.eval = rm.eval_after;
            }
            if rm.only_move {
                notes.nags.retain(|n| !(1..=6).contains(n));
                notes.nags.insert(0, 1);
            }
            if let Some(j) = rm.judgement {
                notes.nags.retain(|n| !(1..=6).contains(n));
                notes.nags.insert(0, j.nag());
                if let Some(&first) = rm.best_line.first() {
                    notes.variations.retain(|v| v.first() != Some(&first));
                    notes.variations.insert(0, rm.best_line.clone());
                }
            }
            // The analysis came from this game's positions, so its lines are legal there;
            // should one not be, the move keeps its old annotations.
            let _ = out.set_annotations(rm.index, notes);
        }
        for side in [Color::White, Color::Black] {
            let s = self.side(side);
            if s.moves > 0 {
                out.tags.set(
                    &format!("{}Accuracy", side.name()),
                    &format!("{:.1}", s.accuracy),
                );
            }
        }
        out.tags.set("Annotator", annotator);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_and_the_thresholds() {
        assert!(winning_chances(Score::Cp(0)).abs() < 1e-12);
        // c(100) = 2 / (1 + e^-0.368208) - 1 ≈ 0.1820
        assert!((winning_chances(Score::Cp(100)) - 0.1820).abs() < 1e-3);
        assert_eq!(
            winning_chances(Score::Cp(5000)),
            winning_chances(Score::Mate(7))
        );
        assert_eq!(judge(Score::Cp(0), Score::Cp(-20)), None);
        // A drop of 0.12: lichess's judge would call it an inaccuracy, ours does not (too
        // near our search's own disagreement with Stockfish), but it gets a second look.
        let near = winning_chances(Score::Cp(0)) - winning_chances(Score::Cp(-65));
        assert!((LOOK_DROP..INACCURACY_DROP).contains(&near), "{near}");
        assert_eq!(judge(Score::Cp(0), Score::Cp(-65)), None);
        assert!(would_mark(Score::Cp(0), Score::Cp(-65)));
        assert!(!would_mark(Score::Cp(0), Score::Cp(-40)));
        // A pawn from equality: c drops by 0.182 → inaccuracy; a minor piece → blunder.
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(-100)),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(-150)),
            Some(Judgement::Mistake)
        );
        assert_eq!(
            judge(Score::Cp(0), Score::Cp(-300)),
            Some(Judgement::Blunder)
        );
        // Far ahead, a pawn more or less changes nothing.
        assert_eq!(judge(Score::Cp(900), Score::Cp(800)), None);
        // Mates: losing one, walking into one, delaying one.
        assert_eq!(
            judge(Score::Mate(1), Score::Cp(500)),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(Score::Mate(2), Score::Cp(800)),
            Some(Judgement::Mistake)
        );
        // Letting a mate go ten pawns up, or walking into one ten pawns down, loses none
        // of the winning chances: no mark.
        assert_eq!(judge(Score::Mate(2), Score::Cp(1500)), None);
        assert_eq!(
            judge(Score::Cp(50), Score::Mate(-3)),
            Some(Judgement::Blunder)
        );
        assert_eq!(judge(Score::Cp(-1200), Score::Mate(-3)), None);
        assert_eq!(judge(Score::Mate(2), Score::Mate(4)), None);
        assert_eq!(judge(Score::Mate(-5), Score::Mate(-2)), None);
    }

    #[test]
    fn game_accuracy_by_hand() {
        // Four moves; White's win% 50, 50, 50, 30, 30: White's second move drops 20 points
        // (accuracy 103.1668·e^(−0.04354·20) − 3.1669 = 40.0204), every other move none
        // (99.9999). Window: 4 / 10 → 2 positions; no copies of the first window; the
        // windows (50,50) (50,50) (50,30) (30,30) have deviations 0, 0, 10, 0, so the
        // weights are 0.5, 0.5, 10, 0.5.
        // White: weighted (99.9999·0.5 + 40.0204·10) / 10.5 = 42.8766, harmonic
        // 2 / (1/99.9999 + 1/40.0204) = 57.1637, game (42.8766 + 57.1637) / 2 = 50.0201.
        // Black: 99.9999 both ways. A plain average would give White 70.0.
        let win = [50.0, 50.0, 50.0, 30.0, 30.0];
        let acc: Vec<f64> = win
            .windows(2)
            .enumerate()
            .map(|(i, w)| {
                let (before, after) = if i % 2 == 0 {
                    (w[0], w[1])
                } else {
                    (100.0 - w[0], 100.0 - w[1])
                };
                move_accuracy(before, after)
            })
            .collect();
        assert!((acc[2] - 40.0204).abs() < 1e-3, "{acc:?}");
        let (white, black) = game_accuracy(&win, &acc, Color::White);
        assert!((white - 50.0201).abs() < 1e-3, "{white}");
        assert!((black - 99.9999).abs() < 1e-3, "{black}");
        // Black to move first: the same moves belong to the other side.
        let (white, black) = game_accuracy(&win, &acc, Color::Black);
        assert!((black - 50.0201).abs() < 1e-3 && (white - 99.9999).abs() < 1e-3);
        assert_eq!(game_accuracy(&[50.0], &[], Color::White), (0.0, 0.0));
    }

    #[test]
    fn accuracy_is_a_percentage_that_falls_with_the_drop() {
        assert!((move_accuracy(60.0, 60.0) - 100.0).abs() < 1e-3);
        assert!((move_accuracy(40.0, 60.0) - 100.0).abs() < 1e-3);
        let small = move_accuracy(60.0, 55.0);
        let big = move_accuracy(60.0, 20.0);
        assert!(small > big && big >= 0.0 && small < 100.0);
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }
}
