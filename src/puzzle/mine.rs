//! The miner: finds puzzles in games, the way a strong player would notice them.
//!
//! Every position of a game gets a short search. Where the opponent's move turned a roughly
//! level (or worse) position into a clearly winning one for the side to move, a multi-PV
//! search asks whether exactly one move wins: a mate, or a gain of at least [`WIN`]
//! centipawns while every other move stays at [`OTHERS_AT_MOST`] or below, or short of
//! winning and so far below that it keeps at least [`CHANCES_GAP`] less of the winning
//! chances (a queen left hanging leaves the other moves a pawn up, not level), and never
//! within [`MARGIN`] of it. The solution goes on while the solver's move stays the only
//! winning one, with the engine's best reply between, and ends on a mate or a won position.
//! Each puzzle is then searched again, position by position, by a fresh engine with several
//! times the budget; a solution that is not the only winning move there is dropped.
//!
//! A mate is a puzzle whoever stood better before: where the opponent's move lets in a mate
//! in two or more that the first look did not see before it (once a game, as a won game
//! holds many), the solution is
//! asked only to be the only mating move at each of the solver's positions, lichess's rule
//! for mates; the last move may be any mate.

use super::difficulty::{self, estimate_rating, rating_seed};
use super::themes::{self, Ending};
use super::{Puzzle, puzzle_id};
use crate::chess::Color;
use crate::chess::{Board, Move};
use crate::engine::book::Book;
use crate::engine::search::Searcher;
use crate::engine::{Bound, Limits, Score, SearchEvent, SearchOptions};
use crate::game::Game;
use crate::game::annotate::{Judgement, Review};

/// A winning move scores at least this (centipawns, the solver's view), or mates.
pub const WIN: i32 = 200;
/// Every other move scores at most this: without the solution the solver is not winning.
pub const OTHERS_AT_MOST: i32 = 50;
/// The least gap between the solution and the next best move.
pub const MARGIN: i32 = 150;
/// Or: the next best move keeps this much less of the winning chances (see [`win_chances`]).
pub const CHANCES_GAP: f64 = 0.4;
/// Before the opponent's mistake the solver stood no better than this.
pub const LEVEL_AT_MOST: i32 = 100;
/// Where the solution mates, the next best move may still win, but by no more than this.
const MATE_OTHERS_AT_MOST: i32 = 200;

/// What the miner spends.
#[derive(Clone, Debug, PartialEq)]
pub struct MineSettings {
    /// Nodes for each multi-PV search that looks for a solution.
    pub nodes: u64,
    /// The verifying search gets this many times `nodes`.
    pub verify_factor: u64,
    /// A solution stops after this many of the solver's moves.
    pub max_solver_moves: usize,
    pub hash_mb: usize,
    /// Nodes for the first look at every position (`None`: a quarter of `nodes`).
    pub look_nodes: Option<u64>,
    /// Rate each puzzle by the levels that solve it, calibrated to players' ratings
    /// ([`difficulty::rate`]); without it, the quick estimate from the search that found it
    /// ([`estimate_rating`]).
    pub rate_by_levels: bool,
    /// A puzzle with fewer of the solver's moves is dropped before it is verified and rated.
    pub min_solver_moves: usize,
}

impl Default for MineSettings {
    fn default() -> MineSettings {
        MineSettings {
            nodes: 200_000,
            verify_factor: 8,
            max_solver_moves: 6,
            hash_mb: 32,
            look_nodes: None,
            rate_by_levels: true,
            min_solver_moves: 1,
        }
    }
}

/// What the miner did, for its report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MineStats {
    pub games: u64,
    pub positions: u64,
    /// Positions where the opponent's move swung the score (looked at with multi-PV).
    pub candidates: u64,
    /// Puzzles found before verification.
    pub found: u64,
    /// Of those, dropped because the deeper search did not keep the solution unique.
    pub dropped: u64,
    /// Of those, dropped as shorter than [`MineSettings::min_solver_moves`].
    pub short: u64,
}

/// One line of a multi-PV search.
#[derive(Clone, Debug)]
struct Line {
    mv: Move,
    score: Score,
}

/// A multi-PV search's answer: the lines of its deepest complete iteration, and how deep
/// the search had to go before its final best move became and stayed the best.
#[derive(Clone, Debug)]
struct Analysis {
    lines: Vec<Line>,
    settled_depth: u32,
}

/// Finds puzzles. One finder and one verifier engine, each with its own table, serve all
/// the games given to it.
pub struct Miner {
    settings: MineSettings,
    finder: Searcher,
    verifier: Searcher,
    book: Book,
    stats: MineStats,
}

impl Miner {
    pub fn new(settings: MineSettings) -> Miner {
        Miner {
            settings,
            finder: Searcher::standalone(),
            verifier: Searcher::standalone(),
            book: Book::builtin(),
            stats: MineStats::default(),
        }
    }

    pub fn stats(&self) -> MineStats {
        self.stats
    }

    /// The verified puzzles of one game; `source` becomes each puzzle's `GameUrl`.
    pub fn mine_game(&mut self, game: &Game, source: &str) -> Vec<Puzzle> {
        self.stats.games += 1;
        self.finder.new_game();
        let mut boards = vec![game.start().clone()];
        for played in game.moves() {
            let mut b = boards.last().expect("the start is there").clone();
            b.make(played.mv);
            boards.push(b);
        }
        self.stats.positions += boards.len() as u64;
        // The first look: each position's score for its side to move.
        let first_look = self
            .settings
            .look_nodes
            .unwrap_or(self.settings.nodes / 4)
            .max(1);
        let scores: Vec<Option<Score>> = boards
            .iter()
            .map(|b| analyze(&mut self.finder, b, first_look, 1, self.settings.hash_mb))
            .map(|a| a.map(|a| a.lines[0].score))
            .collect();
        let mut puzzles = Vec::new();
        // Moves before this ply belong to a puzzle already found.
        let mut covered = 0;
        let mut won_mate_found = false;
        for i in 1..boards.len() {
            let (Some(before), Some(after)) = (scores[i - 1], scores[i]) else {
                continue;
            };
            let solver_before = before.negate();
            let swing = is_winning(after, WIN - OTHERS_AT_MOST)
                && !is_winning(solver_before, LEVEL_AT_MOST + 1);
            // A mate in two or more that the opponent's move let in, though the solver
            // stood well before: lichess's mates.
            let won_mate = !swing
                && !won_mate_found
                && matches!(after, Score::Mate(n) if n >= 2)
                && matches!(solver_before, Score::Cp(_));
            if !(swing || won_mate) || i - 1 < covered {
                continue;
            }
            let judge: Judge = if swing { only_winner } else { only_mate };
            self.stats.candidates += 1;
            // The puzzle as it will be served: from its FEN, without the game's earlier
            // positions (which a search would count for repetitions).
            let opponent = game.moves()[i - 1].mv;
            let Ok(mut start) = Board::from_fen(&boards[i - 1].to_fen()) else {
                continue;
            };
            start.make(opponent);
            let Some(line) = self.solve(&start, judge) else {
                continue;
            };
            if won_mate && !ends_in_mate(&start, &line.moves) {
                continue;
            }
            self.stats.found += 1;
            if line.moves.len().div_ceil(2) < self.settings.min_solver_moves {
                self.stats.short += 1;
                continue;
            }
            if !self.verify_by(&start, &line.moves, judge) {
                self.stats.dropped += 1;
                continue;
            }
            won_mate_found |= won_mate;
            covered = i + line.moves.len();
            puzzles.push(self.puzzle(&boards[i - 1], opponent, &line, game, source));
        }
        puzzles
    }

    /// The solution from the solver's first position, or `None` when no move is the only
    /// winning one there (`judge` names it). After the first move, a mate at once ends the
    /// line whether or not another move mates too.
    fn solve(&mut self, start: &Board, judge: Judge) -> Option<Solution> {
        let (nodes, hash) = (self.settings.nodes, self.settings.hash_mb);
        let mut b = start.clone();
        let mut moves: Vec<Move> = Vec::new();
        let mut settled_depth = 0;
        let mut ending = Ending::Cp(0);
        for k in 0..self.settings.max_solver_moves {
            let a = analyze(&mut self.finder, &b, nodes, 2, hash)?;
            let mate_now = k > 0 && a.lines[0].score == Score::Mate(1);
            let Some(mv) = judge(&a).or(mate_now.then_some(a.lines[0].mv)) else {
                break;
            };
            if k == 0 {
                settled_depth = a.settled_depth;
            }
            ending = match a.lines[0].score {
                Score::Mate(_) => Ending::Mate,
                Score::Cp(cp) => Ending::Cp(cp),
            };
            moves.push(mv);
            b.make(mv);
            if !b.has_legal_move() {
                break;
            }
            if k + 1 == self.settings.max_solver_moves {
                break;
            }
            // The opponent answers with the engine's best; a later solver move that is not
            // unique ends the line before this reply (trimmed below).
            let reply = analyze(&mut self.finder, &b, nodes, 1, hash)?.lines[0].mv;
            moves.push(reply);
            b.make(reply);
        }
        if moves.len().is_multiple_of(2) {
            moves.pop();
        }
        if moves.is_empty() {
            return None;
        }
        Some(Solution {
            moves,
            settled_depth,
            ending,
        })
    }

    /// Searches each of the solver's positions on the fresh verifier at `nodes ×
    /// verify_factor`; `judge` names the one right answer of each analysis, if any. A last
    /// move that mates at once needs no search: any mate solves it.
    fn verify_by(&mut self, start: &Board, moves: &[Move], judge: Judge) -> bool {
        self.verifier.new_game();
        let nodes = self.settings.nodes * self.settings.verify_factor.max(1);
        let mut b = start.clone();
        for (k, &m) in moves.iter().enumerate() {
            if k % 2 == 0 && !(k + 1 == moves.len() && k > 0 && mates(&b, m)) {
                let Some(a) = analyze(&mut self.verifier, &b, nodes, 2, self.settings.hash_mb)
                else {
                    return false;
                };
                if judge(&a) != Some(m) {
                    return false;
                }
            }
            b.make(m);
        }
        true
    }

    /// Checks a puzzle (from any file) the way a mined one is verified: on the fresh
    /// verifier at `nodes × verify_factor`, every answer must be the only winning move (in
    /// a solution that ends in mate, the only winning or the only mating one).
    pub fn verify_puzzle(&mut self, p: &Puzzle) -> Result<bool, super::PuzzleError> {
        let c = p.check()?;
        let start = c.solver_start();
        let mut end = start.clone();
        for &m in &c.moves[1..] {
            end.make(m);
        }
        let judge: Judge = if end.in_check() && !end.has_legal_move() {
            winner_or_mate
        } else {
            only_winner
        };
        Ok(self.verify_by(&start, &c.moves[1..], judge))
    }

    /// Whether a puzzle's solution is still unique on the fresh verifier at `nodes ×
    /// verify_factor`: at each of the solver's positions the solution is the best move and
    /// every other move scores at least [`MARGIN`] less (or the solution mates and no other
    /// move does). This is the question a judge asks of a finished puzzle (and the one
    /// `scripts/puzzle_soundness.py` asks Stockfish); it does not ask again whether the
    /// position was level without the solution, which [`Miner::verify_puzzle`] does.
    pub fn still_unique(&mut self, p: &Puzzle) -> Result<bool, super::PuzzleError> {
        let c = p.check()?;
        Ok(self.verify_by(&c.solver_start(), &c.moves[1..], stands_alone))
    }

    /// A puzzle's rating ([`difficulty::rate`]), its seed taken from the puzzle's id.
    pub fn rate(&mut self, p: &Puzzle) -> Result<u32, super::PuzzleError> {
        let c = p.check()?;
        Ok(difficulty::rate(&mut self.verifier, &c, rating_seed(&p.id)))
    }

    /// Where a puzzle stands on the ladder of levels alone ([`difficulty::rate_by_levels`]),
    /// before the calibration to players' ratings.
    pub fn ladder(&mut self, p: &Puzzle) -> Result<u32, super::PuzzleError> {
        let c = p.check()?;
        Ok(difficulty::rate_by_levels(
            &mut self.verifier,
            &c,
            rating_seed(&p.id),
        ))
    }

    /// The player's own mistakes (`?` and `??`) in a reviewed game as one-move puzzles: the
    /// position before the opponent's previous move, that move, then the better move the
    /// review found, kept only where a multi-PV search shows it clearly better than every
    /// other move (a mate, [`MARGIN`] centipawns or [`OWN_CHANCES_GAP`] of the winning
    /// chances ahead of the next best).
    pub fn own_puzzles(
        &mut self,
        game: &Game,
        review: &Review,
        player: Color,
        source: &str,
    ) -> Vec<Puzzle> {
        let mut out = Vec::new();
        for rm in &review.moves {
            let Some(best) = rm.best else { continue };
            if rm.mover != player
                || rm.index == 0
                || best == rm.played
                || rm.judgement < Some(Judgement::Mistake)
            {
                continue;
            }
            let (Some(before), Some(at)) =
                (game.position_at(rm.index - 1), game.position_at(rm.index))
            else {
                continue;
            };
            let Some(a) = analyze(
                &mut self.finder,
                &at,
                self.settings.nodes,
                2,
                self.settings.hash_mb,
            ) else {
                continue;
            };
            if clearly_best(&a) != Some(best) {
                continue;
            }
            let line = Solution {
                moves: vec![best],
                settled_depth: a.settled_depth,
                ending: match a.lines[0].score {
                    Score::Mate(_) => Ending::Mate,
                    Score::Cp(cp) => Ending::Cp(cp),
                },
            };
            let opponent = game.moves()[rm.index - 1].mv;
            out.push(self.puzzle(&before, opponent, &line, game, source));
        }
        out
    }

    fn puzzle(
        &mut self,
        before: &Board,
        opponent: Move,
        line: &Solution,
        game: &Game,
        source: &str,
    ) -> Puzzle {
        let fen = before.to_fen();
        let moves: Vec<String> = std::iter::once(opponent)
            .chain(line.moves.iter().copied())
            .map(Move::uci)
            .collect();
        let mut p = Puzzle {
            id: puzzle_id(&fen, &moves),
            fen,
            moves,
            rating: 1500,
            rating_deviation: 300,
            popularity: 0,
            plays: 0,
            themes: Vec::new(),
            game_url: source.to_string(),
            opening_tags: Vec::new(),
        };
        p.rating = estimate_rating(&p, line.settled_depth);
        if let Ok(checked) = p.check() {
            p.themes = themes::themes(&checked, line.ending);
            if self.settings.rate_by_levels {
                p.rating = difficulty::rate(&mut self.verifier, &checked, rating_seed(&p.id));
            }
        }
        if game.is_standard_start()
            && let Some(name) = self.book.opening_name(before)
        {
            p.opening_tags = opening_tags(&name);
        }
        p
    }
}

/// The solver's moves and the replies between them, with what the first search said.
struct Solution {
    moves: Vec<Move>,
    settled_depth: u32,
    ending: Ending,
}

/// A score that wins for the side it belongs to: a mate, or at least `cp`.
fn is_winning(s: Score, cp: i32) -> bool {
    match s {
        Score::Mate(n) => n > 0,
        Score::Cp(c) => c >= cp,
    }
}

/// A judge of a two-line analysis: the one right answer, if there is one.
type Judge = fn(&Analysis) -> Option<Move>;

/// Whether the moves from `start` end in checkmate.
fn ends_in_mate(start: &Board, moves: &[Move]) -> bool {
    let mut b = start.clone();
    for &m in moves {
        b.make(m);
    }
    b.in_check() && !b.has_legal_move()
}

/// Whether `mv` checkmates at once on `board`.
fn mates(board: &Board, mv: Move) -> bool {
    let mut after = board.clone();
    after.make(mv);
    after.in_check() && !after.has_legal_move()
}

/// The one mating move of a two-line analysis: the best mates and the next does not,
/// however much it wins (lichess's rule for a mate's moves).
fn only_mate(a: &Analysis) -> Option<Move> {
    let best = a.lines.first()?;
    let second = a.lines.get(1)?;
    let alone = matches!(best.score, Score::Mate(n) if n > 0)
        && !matches!(second.score, Score::Mate(m) if m > 0);
    alone.then_some(best.mv)
}

/// [`only_winner`], or else [`only_mate`]: the judge of a finished puzzle that mates.
fn winner_or_mate(a: &Analysis) -> Option<Move> {
    only_winner(a).or_else(|| only_mate(a))
}

/// The one winning move of a two-line analysis, if there is exactly one.
fn only_winner(a: &Analysis) -> Option<Move> {
    let best = a.lines.first()?;
    // A single legal move is forced, not found.
    let second = a.lines.get(1)?;
    let unique = match (best.score, second.score) {
        (Score::Mate(n), _) if n <= 0 => false,
        (Score::Mate(_), Score::Mate(m)) => m < 0,
        (Score::Mate(_), Score::Cp(c)) => c <= MATE_OTHERS_AT_MOST,
        (Score::Cp(b), Score::Cp(c)) => {
            b >= WIN
                && b - c >= MARGIN
                && (c <= OTHERS_AT_MOST
                    || (c < WIN && win_chances(b) - win_chances(c) >= CHANCES_GAP))
        }
        (Score::Cp(b), Score::Mate(m)) => b >= WIN && m < 0,
    };
    unique.then_some(best.mv)
}

/// The best move of a two-line analysis when no other move comes within [`MARGIN`] of it:
/// a mate no other move matches, or a score at least [`MARGIN`] above the next.
fn stands_alone(a: &Analysis) -> Option<Move> {
    let best = a.lines.first()?;
    let second = a.lines.get(1)?;
    let alone = match (best.score, second.score) {
        (Score::Mate(n), _) if n <= 0 => false,
        (Score::Mate(_), Score::Mate(m)) => m < 0,
        (Score::Mate(_), Score::Cp(_)) => true,
        (Score::Cp(_), Score::Mate(m)) => m < 0,
        (Score::Cp(b), Score::Cp(c)) => b - c >= MARGIN,
    };
    alone.then_some(best.mv)
}

/// The gap in winning chances that makes a better move of the player's own "clearly best".
pub const OWN_CHANCES_GAP: f64 = 0.3;

/// The best move of a two-line analysis when it stands clearly above the next: a mate the
/// next does not match, or [`MARGIN`] centipawns or [`OWN_CHANCES_GAP`] ahead. Unlike
/// [`only_winner`] the best move need not win: a mistake may have thrown away a draw.
fn clearly_best(a: &Analysis) -> Option<Move> {
    let best = a.lines.first()?;
    let second = a.lines.get(1)?;
    let clear = match (best.score, second.score) {
        (Score::Mate(n), Score::Mate(m)) => n > 0 && m < 0,
        (Score::Mate(n), Score::Cp(_)) => n > 0,
        (Score::Cp(_), Score::Mate(m)) => m < 0,
        (Score::Cp(b), Score::Cp(c)) => {
            b - c >= MARGIN || win_chances(b) - win_chances(c) >= OWN_CHANCES_GAP
        }
    };
    clear.then_some(best.mv)
}

/// Winning chances from −1 (lost) to 1 (won) for a score in centipawns: the logistic curve
/// lichess fitted to its players' results, `2 / (1 + e^(−0.00368208·cp)) − 1`.
pub fn win_chances(cp: i32) -> f64 {
    2.0 / (1.0 + (-0.003_682_08 * f64::from(cp)).exp()) - 1.0
}

/// A fixed-node multi-PV search of `board`; `None` when it has no legal move.
fn analyze(
    searcher: &mut Searcher,
    board: &Board,
    nodes: u64,
    multipv: u32,
    hash_mb: usize,
) -> Option<Analysis> {
    if !board.has_legal_move() {
        return None;
    }
    let wanted = (multipv as usize).min(board.legal_moves().len());
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    let options = SearchOptions {
        own_book: false,
        hash_mb,
        multipv,
        move_overhead: std::time::Duration::ZERO,
        ..SearchOptions::default()
    };
    // (depth, line number, move, score, exact)
    let mut seen: Vec<(u32, u32, Move, Score, bool)> = Vec::new();
    searcher.search_sync(board, &limits, &options, &mut |event| {
        if let SearchEvent::Iteration { info, .. } = event
            && let Some(&mv) = info.pv.first()
        {
            seen.push((
                info.depth,
                info.multipv,
                mv,
                info.score,
                info.bound == Bound::Exact,
            ));
        }
    });
    // The deepest iteration with every line exact.
    let complete = |d: u32| {
        let lines: Vec<_> = seen.iter().filter(|s| s.0 == d).collect();
        lines.len() >= wanted && lines.iter().all(|s| s.4)
    };
    let depth = seen.iter().map(|s| s.0).filter(|&d| complete(d)).max()?;
    let mut lines: Vec<Line> = seen
        .iter()
        .filter(|s| s.0 == depth)
        .map(|s| Line {
            mv: s.2,
            score: s.3,
        })
        .collect();
    lines.sort_by_key(|l| std::cmp::Reverse(l.score.as_ordinal()));
    let best = lines[0].mv;
    // The shallowest depth from which every complete iteration's best move is the final one.
    let mut settled_depth = depth;
    for d in (1..=depth).rev() {
        let first = seen.iter().find(|s| s.0 == d && s.1 == 1);
        match first {
            Some(s) if s.2 == best => settled_depth = d,
            Some(_) => break,
            None => {}
        }
    }
    Some(Analysis {
        lines,
        settled_depth,
    })
}

/// Lichess-style opening tags from an opening's name: the family, then the full name, with
/// words joined by `_` (`Sicilian Defense: Najdorf` → `Sicilian_Defense
/// Sicilian_Defense_Najdorf`).
pub fn opening_tags(name: &str) -> Vec<String> {
    let tag = |s: &str| {
        s.replace('\'', "")
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_")
    };
    let family = tag(name.split(':').next().unwrap_or(name));
    let full = tag(name);
    let mut tags = vec![family.clone()];
    if full != family {
        tags.push(full);
    }
    tags.retain(|t| !t.is_empty());
    tags
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(mv: &str, b: &Board, score: Score) -> Line {
        Line {
            mv: b.parse_uci_move(mv).unwrap(),
            score,
        }
    }

    /// A two-line analysis of the start position: e2e4 scored `best`, d2d4 `second`.
    fn two_lines(best: Score, second: Score) -> Analysis {
        let b = Board::startpos();
        Analysis {
            lines: vec![line("e2e4", &b, best), line("d2d4", &b, second)],
            settled_depth: 3,
        }
    }

    #[test]
    fn only_one_winning_move_counts() {
        let b = Board::startpos();
        let a = two_lines;
        assert!(only_winner(&a(Score::Cp(350), Score::Cp(20))).is_some());
        assert!(only_winner(&a(Score::Cp(350), Score::Cp(120))).is_none());
        // A hung queen: the other moves keep a pawn's edge, far from the queen's.
        assert!(only_winner(&a(Score::Cp(710), Score::Cp(123))).is_some());
        assert!(only_winner(&a(Score::Cp(900), Score::Cp(320))).is_none());
        assert!(only_winner(&a(Score::Cp(180), Score::Cp(-200))).is_none());
        assert!(only_winner(&a(Score::Mate(2), Score::Cp(150))).is_some());
        assert!(only_winner(&a(Score::Mate(2), Score::Mate(4))).is_none());
        assert!(only_winner(&a(Score::Mate(2), Score::Cp(900))).is_none());
        assert!(only_winner(&a(Score::Mate(-2), Score::Mate(-1))).is_none());
        let forced = Analysis {
            lines: vec![line("e2e4", &b, Score::Mate(1))],
            settled_depth: 1,
        };
        assert!(only_winner(&forced).is_none());
        assert!(stands_alone(&forced).is_none());
    }

    #[test]
    fn a_mate_is_the_only_mate_however_much_the_other_moves_win() {
        let a = two_lines;
        // Lichess's rule for a mate's moves: no other move mates, whatever else it wins.
        assert!(only_mate(&a(Score::Mate(2), Score::Cp(900))).is_some());
        assert!(only_winner(&a(Score::Mate(2), Score::Cp(900))).is_none());
        assert!(only_mate(&a(Score::Mate(2), Score::Mate(9))).is_none());
        assert!(only_mate(&a(Score::Mate(3), Score::Mate(-4))).is_some());
        assert!(only_mate(&a(Score::Cp(900), Score::Cp(0))).is_none());
        // A finished puzzle that mates passes either way.
        assert!(winner_or_mate(&a(Score::Mate(2), Score::Cp(900))).is_some());
        assert!(winner_or_mate(&a(Score::Cp(350), Score::Cp(20))).is_some());
        assert!(winner_or_mate(&a(Score::Cp(350), Score::Cp(300))).is_none());
    }

    #[test]
    fn a_last_move_that_mates_may_be_any_mate() {
        // Two rooks: Ra8# and Rb8# both mate. As the last move of a longer solution the
        // listed one needs no search (the verifier skips it); as the first it is judged.
        let b = Board::from_fen("6k1/8/6K1/8/8/8/R7/1R6 w - - 0 1").unwrap();
        let ra8 = b.parse_uci_move("a2a8").unwrap();
        assert!(mates(&b, ra8));
        assert!(ends_in_mate(&b, &[ra8]));
        assert!(!mates(&b, b.parse_uci_move("a2a7").unwrap()));
        let mut miner = Miner::new(MineSettings {
            nodes: 2_000,
            verify_factor: 1,
            ..MineSettings::default()
        });
        // As a first move it must be the only winner: a two-mate position is no puzzle.
        assert!(!miner.verify_by(&b, &[ra8], only_mate));
    }

    #[test]
    fn a_solution_stands_alone_when_nothing_comes_within_the_margin() {
        let a = two_lines;
        // Still winning without the solution, but far less: unique, not the miner's puzzle.
        assert!(stands_alone(&a(Score::Cp(540), Score::Cp(211))).is_some());
        assert!(only_winner(&a(Score::Cp(540), Score::Cp(211))).is_none());
        assert!(stands_alone(&a(Score::Cp(299), Score::Cp(167))).is_none());
        assert!(stands_alone(&a(Score::Mate(2), Score::Cp(596))).is_some());
        assert!(stands_alone(&a(Score::Mate(2), Score::Mate(5))).is_none());
        assert!(stands_alone(&a(Score::Cp(300), Score::Mate(-3))).is_some());
        assert!(stands_alone(&a(Score::Mate(-1), Score::Mate(-1))).is_none());
    }

    #[test]
    fn opening_tags_follow_lichess_spelling() {
        assert_eq!(
            opening_tags("Sicilian Defense: Najdorf Variation"),
            ["Sicilian_Defense", "Sicilian_Defense_Najdorf_Variation"]
        );
        assert_eq!(opening_tags("King's Pawn Game"), ["Kings_Pawn_Game"]);
    }
}
