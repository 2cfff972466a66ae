//! Playing levels: weaker play that feels like a weaker player, not like a strong engine that
//! throws a random move in now and then.
//!
//! A [`Level`] is a name (`beginner` … `master`, `max`) or an Elo number. It maps to [`Play`]
//! parameters: a node and depth budget that grows with the level (a weak player sees less),
//! noise on the candidates' scores (a weak player misjudges), and a choice among the MultiPV
//! candidates weighted by how much worse each one is (a weak player picks a decent move, and
//! rarely a bad one; the spread narrows as the level rises). A natural think time goes with
//! the move so a low level never answers instantly. `max` is the engine at full strength.
//!
//! [`choose`] is pure: given the candidates and a seeded [`Rng`] it always picks the same
//! move, and never one outside the candidates. [`think`] runs a level's search on a board
//! and returns the choice with everything it weighed, for the panes to show.
//!
//! `Level`, its parameters (`Play`, the calibration) and `Reason` are the vocabulary of
//! levels and live in `strength.rs`, below the reports that name them; they are re-exported
//! here.

use std::time::{Duration, Instant};

use super::report::{Limits, Score, SearchEvent, SearchOptions};
use super::score::Bound;
use super::search::Searcher;
pub use super::strength::{
    Level, LevelError, MAX_ELO, MIN_ELO, NAMED, Play, Reason, internal_elo, internal_elo_on,
};
use crate::chess::{Board, Color, Move};

/// A tiny seeded generator (SplitMix64): the same seed gives the same moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `-r..=r`.
    pub fn symmetric(&mut self, r: i32) -> i32 {
        if r <= 0 {
            return 0;
        }
        let width = 2 * r as u64 + 1;
        (self.next_u64() % width) as i32 - r
    }
}

/// One MultiPV line as the chooser sees it: the first move and its score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub mv: Move,
    pub score: Score,
}

/// A candidate after weighing: its value with noise and its chance of being picked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighed {
    pub candidate: Candidate,
    /// The value weighed, in centipawns (mates as `±mate_cp`), noise included.
    pub value_cp: i32,
    pub probability: f64,
}

/// The chooser's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    /// Index into the candidates.
    pub index: usize,
    pub mv: Move,
    pub reason: Reason,
    pub weighed: Vec<Weighed>,
}

fn base_value(score: Score, mate_cp: i32) -> i32 {
    match score {
        Score::Cp(c) => c,
        // Shorter mates are better, longer defences less bad.
        Score::Mate(n) if n > 0 => mate_cp - n,
        Score::Mate(n) => -mate_cp - n,
    }
}

/// Picks one of `candidates` for `play`; `None` only when there are none. Deterministic for a
/// given RNG state; consumes one draw per candidate (noise) and one for the pick.
pub fn choose(play: &Play, candidates: &[Candidate], rng: &mut Rng) -> Option<Choice> {
    if candidates.is_empty() {
        return None;
    }
    let full_strength = play.spread_cp <= 0.0 && play.noise_cp == 0;
    let values: Vec<i32> = candidates
        .iter()
        .map(|c| {
            if full_strength {
                c.score.as_ordinal()
            } else {
                base_value(c.score, play.mate_cp) + rng.symmetric(play.noise_cp)
            }
        })
        .collect();
    let best_value = *values.iter().max().expect("non-empty");
    let weights: Vec<f64> = if full_strength {
        let first = values.iter().position(|v| *v == best_value).unwrap_or(0);
        (0..values.len())
            .map(|i| if i == first { 1.0 } else { 0.0 })
            .collect()
    } else {
        values
            .iter()
            .map(|v| (-((best_value - v) as f64) / play.spread_cp).exp())
            .collect()
    };
    let total: f64 = weights.iter().sum();
    let weighed: Vec<Weighed> = candidates
        .iter()
        .zip(&values)
        .zip(&weights)
        .map(|((c, v), w)| Weighed {
            candidate: *c,
            value_cp: *v,
            probability: w / total,
        })
        .collect();
    let mate_in_one = play
        .takes_mate_in_one
        .then(|| candidates.iter().position(|c| c.score == Score::Mate(1)))
        .flatten();
    let (index, reason) = if let Some(i) = mate_in_one {
        (i, Reason::MateInOne)
    } else if full_strength {
        (
            weights.iter().position(|w| *w > 0.0).unwrap_or(0),
            Reason::Best,
        )
    } else {
        let mut draw = rng.unit() * total;
        let mut pick = weights.len() - 1;
        for (i, w) in weights.iter().enumerate() {
            if draw < *w {
                pick = i;
                break;
            }
            draw -= w;
        }
        (pick, Reason::Weighted)
    };
    Some(Choice {
        index,
        mv: candidates[index].mv,
        reason,
        weighed,
    })
}

/// How long the move should seem to take in all: the level's mean varied from half to one
/// and a half times, never more than the clock allows (a fortieth of what is left plus most
/// of the increment, or the movetime). Zero at full strength.
pub fn think_time(play: &Play, limits: &Limits, side: Color, rng: &mut Rng) -> Duration {
    if play.think_ms == 0 {
        return Duration::ZERO;
    }
    let wanted = Duration::from_millis((play.think_ms as f64 * (0.5 + rng.unit())) as u64);
    let (time, inc) = match side {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let mut cap = limits.movetime;
    if let Some(left) = time {
        let moves_left = limits.movestogo.unwrap_or(40).clamp(1, 40);
        let clock_cap = left / moves_left + inc.unwrap_or_default() * 3 / 4;
        cap = Some(cap.map_or(clock_cap, |c| c.min(clock_cap)));
    }
    cap.map_or(wanted, |c| wanted.min(c))
}

/// A level's move and everything weighed to find it.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelMove {
    pub level: Level,
    pub play: Play,
    /// The limits the search ran with (the level's budget within the caller's).
    pub limits: Limits,
    pub nodes: u64,
    /// Depth of the iteration the candidates come from.
    pub depth: u32,
    pub candidates: Vec<Candidate>,
    /// `None` only when the side to move has no legal move.
    pub choice: Option<Choice>,
    /// How long the move should seem to take in all; the front end waits what the search
    /// did not use (`think.saturating_sub(searched)`).
    pub think: Duration,
    pub searched: Duration,
}

impl LevelMove {
    pub fn best(&self) -> Option<Move> {
        self.choice.as_ref().map(|c| c.mv)
    }
}

/// The limits a level searches with: its budget inside the caller's (clock, movetime, depth).
/// With nothing to stop it (no budget, no clock) the search stops at depth 10.
pub fn level_limits(play: &Play, caller: &Limits) -> Limits {
    let mut limits = caller.clone();
    limits.infinite = false;
    limits.ponder = false;
    if let Some(n) = play.nodes {
        limits.nodes = Some(limits.nodes.map_or(n, |c| c.min(n)));
    }
    if let Some(d) = play.depth {
        limits.depth = Some(limits.depth.map_or(d, |c| c.min(d)));
    }
    let bounded = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || limits.wtime.is_some()
        || limits.btime.is_some()
        || limits.mate.is_some();
    if !bounded {
        limits.depth = Some(10);
    }
    limits
}

/// Runs `level`'s search on `board` and picks its move. `caller` carries the clock (or a
/// movetime or depth) and `options` the evaluation and ordering; the level sets MultiPV and
/// turns the book off. Does not sleep: the caller waits out `think` if it wants to.
pub fn think(
    searcher: &mut Searcher,
    board: &Board,
    level: Level,
    caller: &Limits,
    options: &SearchOptions,
    rng: &mut Rng,
) -> LevelMove {
    think_as(
        searcher,
        None,
        board,
        level,
        caller,
        options,
        rng,
        &mut |_| {},
    )
}

/// As [`think`], for the facade: the searches run under the facade's search id `id` (so its
/// stop and a newer `go` reach them) and every iteration they finish goes to `emit` as it
/// comes, so the panes show the weakened search as it really ran. `None` takes a new id.
#[allow(clippy::too_many_arguments)]
pub fn think_as(
    searcher: &mut Searcher,
    id: Option<u64>,
    board: &Board,
    level: Level,
    caller: &Limits,
    options: &SearchOptions,
    rng: &mut Rng,
    emit: &mut dyn FnMut(SearchEvent),
) -> LevelMove {
    let play = level.play();
    think_inner(
        searcher,
        id,
        board,
        (level, play),
        caller,
        options,
        rng,
        emit,
    )
}

/// As [`think`], with `play`'s parameters in place of `level`'s own (the puzzle ladder
/// plays fixed points of the curves, whatever the levels' calibration).
pub fn think_with(
    searcher: &mut Searcher,
    board: &Board,
    (level, play): (Level, Play),
    caller: &Limits,
    options: &SearchOptions,
    rng: &mut Rng,
) -> LevelMove {
    let emit = &mut |_| {};
    think_inner(
        searcher,
        None,
        board,
        (level, play),
        caller,
        options,
        rng,
        emit,
    )
}

#[allow(clippy::too_many_arguments)]
fn think_inner(
    searcher: &mut Searcher,
    id: Option<u64>,
    board: &Board,
    (level, play): (Level, Play),
    caller: &Limits,
    options: &SearchOptions,
    rng: &mut Rng,
    emit: &mut dyn FnMut(SearchEvent),
) -> LevelMove {
    let limits = level_limits(&play, caller);
    let options = SearchOptions {
        multipv: play.multipv,
        own_book: false,
        report_root_moves: false,
        ..options.clone()
    };
    let started = Instant::now();
    let (mut candidates, mut depth, mut nodes) =
        search_candidates(searcher, id, board, &limits, &options, emit);
    if candidates.is_empty() && !board.legal_moves().is_empty() {
        // The budget ran out inside the first iteration: one cheap complete ply instead, so
        // the choice is still among scored candidates.
        let (c, d, n) = search_candidates(searcher, id, board, &Limits::depth(1), &options, emit);
        candidates = c;
        depth = d;
        nodes += n;
    }
    let searched = started.elapsed();
    let choice = choose(&play, &candidates, rng);
    let think = think_time(&play, caller, board.side_to_move(), rng);
    LevelMove {
        level,
        play,
        limits,
        nodes,
        depth,
        candidates,
        choice,
        think,
        searched,
    }
}

/// The lines of the last complete iteration, its depth and the nodes searched. An iteration
/// the budget stopped reports only the lines it finished (and a bound for the one it was
/// in): it counts only if it finished them all, so a stop cannot shrink the list.
fn search_candidates(
    searcher: &mut Searcher,
    id: Option<u64>,
    board: &Board,
    limits: &Limits,
    options: &SearchOptions,
    emit: &mut dyn FnMut(SearchEvent),
) -> (Vec<Candidate>, u32, u64) {
    let wanted = (options.multipv.max(1) as usize).min(board.legal_moves().len());
    // (depth, exact lines of that depth), deepest last.
    let mut iterations: Vec<(u32, Vec<Candidate>)> = Vec::new();
    let mut collect = |ev: SearchEvent| {
        let SearchEvent::Iteration { info, .. } = &ev else {
            // The search's own answer is not the level's: the caller sends that.
            return;
        };
        if info.bound == Bound::Exact
            && let Some(&mv) = info.pv.first()
        {
            if iterations.last().is_none_or(|(d, _)| *d != info.depth) {
                iterations.push((info.depth, Vec::new()));
            }
            if let Some((_, lines)) = iterations.last_mut() {
                lines.push(Candidate {
                    mv,
                    score: info.score,
                });
            }
        }
        emit(ev);
    };
    let result = match id {
        Some(id) => searcher.run(id, board.clone(), limits, options, &mut collect),
        None => searcher.search_sync(board, limits, options, &mut collect),
    };
    let best = iterations
        .iter()
        .rev()
        .find(|(_, lines)| lines.len() >= wanted)
        .or_else(|| iterations.iter().max_by_key(|(_, lines)| lines.len()));
    let (depth, lines) = best.cloned().unwrap_or_default();
    (lines, depth, result.stats.nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_move_the_right_way_as_the_level_rises() {
        let levels: Vec<Play> = NAMED
            .iter()
            .map(|(_, e)| e.map_or(Level::Max, Level::Elo).play())
            .collect();
        for pair in levels[..5].windows(2) {
            assert!(pair[0].nodes < pair[1].nodes);
            assert!(pair[0].noise_cp >= pair[1].noise_cp);
            assert!(pair[0].spread_cp > pair[1].spread_cp);
            assert!(pair[0].multipv >= pair[1].multipv);
        }
        assert_eq!(levels[5].nodes, None);
        assert_eq!(levels[5].spread_cp, 0.0);
    }

    #[test]
    fn symmetric_draws_stay_in_range() {
        let mut rng = Rng::new(7);
        for _ in 0..1000 {
            let v = rng.symmetric(3);
            assert!((-3..=3).contains(&v));
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
