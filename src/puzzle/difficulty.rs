//! How hard a puzzle is: the ladder of ox88's levels that try it, and the calibration that
//! turns what the ladder and the position say into a rating on lichess's scale.
//!
//! The ladder alone ([`rate_by_levels`]) measures the search a solution needs. A level sees
//! tactics that players of its strength miss, so on 1,499 rated lichess puzzles the ladder
//! ran some 200 points below the players' ratings and squeezed them together (mean error
//! 307). [`rate`] adds what a player has to find ([`Features`]): how many moves, whether
//! the first one checks, how many checks and captures tempt at the first move, whether it
//! ends in mate. The weights are a least-squares fit to those lichess ratings (mean error
//! 229 on held-out puzzles), and the fitted score is mapped onto the ratings by matching
//! quantiles, so the spread of players' ratings is kept (mean error 238).
//! `scripts/puzzle_calibrate.py` makes both tables; docs/puzzles.md says how.

use super::{Checked, Puzzle};
use crate::engine::search::Searcher;
use crate::engine::{Limits, SearchOptions};

/// What a player has to find in a puzzle, besides what the ladder measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// The solver's moves.
    pub solver_moves: usize,
    /// The solution ends in checkmate.
    pub mate: bool,
    /// The first answer gives check.
    pub check: bool,
    /// The legal moves at the first answer that give check, the answer's among them.
    pub checks: usize,
    /// The legal moves at the first answer that capture, the answer's among them.
    pub captures: usize,
}

impl Features {
    pub fn of(c: &Checked) -> Features {
        let start = c.solver_start();
        let gives_check = |m| {
            let mut after = start.clone();
            after.make(m);
            after.in_check()
        };
        let legal = start.legal_moves();
        let mut end = start.clone();
        for &m in &c.moves[1..] {
            end.make(m);
        }
        Features {
            solver_moves: c.moves.len() / 2,
            mate: end.in_check() && !end.has_legal_move(),
            check: gives_check(c.moves[1]),
            checks: legal.iter().filter(|&&m| gives_check(m)).count(),
            captures: legal.iter().filter(|m| m.is_capture()).count(),
        }
    }
}

/// The weights of the difficulty score, fitted to lichess players' ratings.
struct Weights {
    base: f64,
    ladder: f64,
    solver_moves: f64,
    mate: f64,
    check: f64,
    checks: f64,
    captures: f64,
}

const WEIGHTS: Weights = Weights {
    base: 401.2,
    ladder: 0.544,
    solver_moves: 120.575,
    mate: -191.035,
    check: -172.540,
    checks: 64.532,
    captures: 37.323,
};

/// Quantiles of the difficulty score beside the same quantiles of the players' ratings
/// (0.5%, 1%, 2.5%, 5%, 10%, 20% … 90%, 95%, 97.5%, 99%, 99.5%): a score between two
/// knots is rated between them; below the first or above the last, at that end.
const RATING_MAP: [(f64, f64); 17] = [
    (576.2, 400.5),
    (586.4, 417.0),
    (618.1, 462.4),
    (650.9, 510.0),
    (705.3, 578.0),
    (779.6, 701.2),
    (837.5, 808.0),
    (907.8, 899.0),
    (982.1, 955.0),
    (1060.4, 1041.8),
    (1162.3, 1141.6),
    (1307.5, 1293.8),
    (1503.5, 1670.6),
    (1636.9, 1922.6),
    (1745.7, 2191.0),
    (1854.4, 2397.5),
    (1972.3, 2538.1),
];

/// The difficulty score: the fitted estimate of lichess players' rating.
fn score(ladder: u32, f: &Features) -> f64 {
    let w = &WEIGHTS;
    w.base
        + w.ladder * f64::from(ladder)
        + w.solver_moves * f.solver_moves as f64
        + w.mate * f64::from(u8::from(f.mate))
        + w.check * f64::from(u8::from(f.check))
        + w.checks * f.checks as f64
        + w.captures * f.captures as f64
}

/// The rating of a puzzle the ladder put at `ladder`, on lichess's scale.
pub fn calibrated(ladder: u32, f: &Features) -> u32 {
    let s = score(ladder, f);
    let (first, last) = (RATING_MAP[0], RATING_MAP[RATING_MAP.len() - 1]);
    let rating = if s <= first.0 {
        first.1
    } else if s >= last.0 {
        last.1
    } else {
        let i = RATING_MAP.partition_point(|&(k, _)| k <= s);
        let ((s0, r0), (s1, r1)) = (RATING_MAP[i - 1], RATING_MAP[i]);
        r0 + (s - s0) / (s1 - s0) * (r1 - r0)
    };
    rating.round() as u32
}

/// A puzzle's first rating, as a Glicko rating means it for a player: an even chance for a
/// player of that rating. The ladder ([`rate_by_levels`]) with the position's
/// [`Features`], [`calibrated`] to lichess players' ratings. Players' results refine it.
pub fn rate(searcher: &mut Searcher, checked: &Checked, seed: u64) -> u32 {
    calibrated(
        rate_by_levels(searcher, checked, seed),
        &Features::of(checked),
    )
}

/// A quick first rating (for the player's own puzzles, rated as the review ends) from how
/// hard the solution was to find: the depth at which the engine
/// settled on the first move, the number of moves to find, a quiet first move (no capture,
/// check or promotion) and a sacrifice each make it harder. Players' results refine it.
pub fn estimate_rating(p: &Puzzle, settled_depth: u32) -> u32 {
    let mut r = 400 + 100 * settled_depth.min(14) as i32;
    r += 150 * (p.solver_moves() as i32 - 1);
    if let Ok(c) = p.check() {
        let start = c.solver_start();
        let first = c.moves[1];
        let mut after = start.clone();
        after.make(first);
        if !first.is_capture() && first.promotion().is_none() && !after.in_check() {
            r += 200;
        }
    }
    if p.has_theme("sacrifice") {
        r += 150;
    }
    r.clamp(600, 2400) as u32
}

/// The levels' calibration the ladder plays by (asked-for Elo, internal strength): the
/// one the weights and the rating map above were fitted with, kept here so that a new
/// calibration of the playing levels (docs/levels.md) leaves every puzzle's rating as it
/// was. Each rung plays the curves' parameters at its internal strength by this table.
const LADDER_CALIBRATION: [(u32, f64); 4] =
    [(800, 800.0), (1400, 1600.0), (1800, 2020.0), (2200, 2800.0)];

/// The levels a puzzle is tried at, weakest first, with the tries at each: the weak levels
/// choose with noise and need more tries to measure; from 2200 up a level plays the top of
/// its curve without noise.
const RATING_LADDER: [(u32, u64); 8] = [
    (800, 8),
    (1000, 8),
    (1200, 8),
    (1400, 8),
    (1600, 6),
    (1800, 4),
    (2000, 2),
    (2200, 1),
];

/// The ladder: the Elo at which ox88's levels (calibrated against Stockfish's `UCI_Elo`,
/// docs/levels.md) play the whole solution half the time, interpolated between the rungs
/// of [`RATING_LADDER`] where the share of tries solved crosses one half. A puzzle the
/// weakest level solves every time is at 600; one no level solves, at 2400. It measures the
/// search a solution needs; [`rate`] turns it into a rating for players.
pub fn rate_by_levels(searcher: &mut Searcher, checked: &Checked, seed: u64) -> u32 {
    let mut below: Option<(u32, f64)> = None;
    for (elo, tries) in RATING_LADDER {
        let solved = (0..tries)
            .filter(|t| solves_at(searcher, checked, elo, seed.wrapping_add(*t)))
            .count();
        let share = solved as f64 / tries as f64;
        if share >= 0.5 {
            let rating = match below {
                None => f64::from(elo) - 400.0 * (share - 0.5),
                Some((e0, s0)) => f64::from(e0) + (0.5 - s0) / (share - s0) * f64::from(elo - e0),
            };
            return (rating.round() as u32).clamp(600, 2400);
        }
        below = Some((elo, share));
    }
    2400
}

/// The seed of a puzzle's tries on the rating ladder, from its id: the same puzzle gets the
/// same rating wherever it is rated.
pub fn rating_seed(id: &str) -> u64 {
    id.bytes()
        .fold(0u64, |h, b| h.wrapping_mul(131) ^ u64::from(b))
}

/// Whether level `elo` plays every solver move of the puzzle (any mating move counts where
/// the solution mates), with the puzzle's replies between. Each try starts on an empty table.
fn solves_at(searcher: &mut Searcher, checked: &Checked, elo: u32, seed: u64) -> bool {
    use crate::engine::levels::{self, Level, Play, Rng, internal_elo_on};
    let play = Play::on_curve(
        internal_elo_on(&LADDER_CALIBRATION, elo),
        elo > levels::MIN_ELO,
    );
    let options = SearchOptions {
        own_book: false,
        hash_mb: 16,
        ..SearchOptions::default()
    };
    searcher.new_game();
    let mut rng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut b = checked.solver_start();
    for (i, &expected) in checked.moves[1..].iter().enumerate() {
        if i % 2 == 0 {
            let chosen = levels::think_with(
                searcher,
                &b,
                (Level::Elo(elo), play),
                &Limits::default(),
                &options,
                &mut rng,
            );
            let Some(mv) = chosen.best() else {
                return false;
            };
            if mv != expected {
                let mut after = b.clone();
                after.make(mv);
                return after.in_check() && !after.has_legal_move();
            }
        }
        b.make(expected);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::test_puzzle;

    fn checked(fen: &str, moves: &str) -> Checked {
        test_puzzle(fen, moves).check().expect("a legal puzzle")
    }

    #[test]
    fn a_queen_taken_back_rates_lower_than_a_sacrifice_that_wins_the_rook() {
        let mut s = Searcher::standalone();
        // The opponent takes a defended queen with the queen: take it back.
        let easy = checked(
            "2rk4/1p3B1p/1q4r1/2Q5/p7/3N1N1P/PP3K2/1R2R3 b - - 0 29",
            "b6c5 d3c5",
        );
        // Qh4 is met by a knight sacrifice on g3 and the queen takes the rook on h1.
        let hard = checked(
            "rnbq1rk1/pp3ppp/8/2pp4/3Pn3/P1NBP3/1P3PPP/R1BQK2R w KQ - 1 10",
            "f2f3 d8h4 g2g3 e4g3 h2g3 h4h1",
        );
        let (e, h) = (
            rate_by_levels(&mut s, &easy, 1),
            rate_by_levels(&mut s, &hard, 1),
        );
        assert!((600..=2400).contains(&e) && (600..=2400).contains(&h));
        assert!(e < h, "easy {e}, hard {h}");
        assert!(e <= 800, "the weakest levels take back a queen: {e}");
        // The same puzzle and seed rate the same.
        assert_eq!(rate_by_levels(&mut s, &easy, 1), e);
    }

    #[test]
    fn features_count_what_the_solver_sees() {
        // Figures checked against python-chess.
        let c = checked(
            "rnbq1rk1/pp3ppp/8/2pp4/3Pn3/P1NBP3/1P3PPP/R1BQK2R w KQ - 1 10",
            "f2f3 d8h4 g2g3 e4g3 h2g3 h4h1",
        );
        let f = Features::of(&c);
        assert_eq!(
            f,
            Features {
                solver_moves: 3,
                mate: false,
                check: true,
                checks: 1,
                captures: 2,
            }
        );
        let back_rank = checked("6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", "g8h8 a1a8");
        let f = Features::of(&back_rank);
        assert!(f.mate && f.check && f.solver_moves == 1);
        assert_eq!((f.checks, f.captures), (1, 0));
    }

    #[test]
    fn the_rating_grows_with_the_ladder_and_the_moves_to_find() {
        let quiet = Features {
            solver_moves: 1,
            mate: false,
            check: false,
            checks: 1,
            captures: 3,
        };
        let mut last = 0;
        for ladder in (600..=2400).step_by(100) {
            let r = calibrated(ladder, &quiet);
            assert!(r >= last, "{ladder}: {r} after {last}");
            last = r;
        }
        let longer = Features {
            solver_moves: 3,
            ..quiet
        };
        let mating_check = Features {
            mate: true,
            check: true,
            ..quiet
        };
        assert!(calibrated(1400, &longer) > calibrated(1400, &quiet));
        assert!(calibrated(1400, &mating_check) < calibrated(1400, &quiet));
        // The ends of the map hold the sample's extremes.
        let (lo, hi) = (RATING_MAP[0].1, RATING_MAP[RATING_MAP.len() - 1].1);
        let mate_in_one = Features {
            captures: 0,
            ..mating_check
        };
        assert_eq!(f64::from(calibrated(600, &mate_in_one)), lo.round());
        let hardest = Features {
            solver_moves: 6,
            checks: 8,
            captures: 8,
            ..quiet
        };
        assert_eq!(f64::from(calibrated(2400, &hardest)), hi.round());
    }

    #[test]
    fn the_ladder_plays_the_budgets_its_weights_were_fitted_with() {
        use crate::engine::levels::{Level, Play, internal_elo_on};
        // The rungs keep the node budgets of the calibration the weights were fitted with
        // (docs/puzzles.md), whatever the playing levels' calibration says now.
        let nodes = |elo| Play::on_curve(internal_elo_on(&LADDER_CALIBRATION, elo), true).nodes;
        assert_eq!(nodes(1400), Some(11_943));
        assert_eq!(nodes(1600), Some(31_414));
        assert_eq!(nodes(2200), Some(3_000_000));
        // The playing level 1600 searches less since it measured too strong.
        assert!(Level::Elo(1600).play().nodes < nodes(1600));
    }

    #[test]
    fn the_rating_map_rises_in_both_columns() {
        for w in RATING_MAP.windows(2) {
            assert!(w[0].0 < w[1].0 && w[0].1 < w[1].1, "{w:?}");
        }
    }
}
