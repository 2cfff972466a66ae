//! The time budget for one move, from the clock or a fixed move time.

use std::time::Duration;

use crate::chess::types::Color;
use crate::engine::report::Limits;

/// The moves a clock without `movestogo` is planned for.
const MOVES_LEFT: u32 = 20;

/// Time budget for one move.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Budget {
    /// Don't start a new iteration after this much time (scaled by [`Stability`]). Only a
    /// game under a clock has one: a fixed move time is searched whole.
    pub soft: Option<Duration>,
    /// Abort the search at this much time.
    pub hard: Option<Duration>,
}

/// A fixed move time (`go movetime`, "search exactly x mseconds") is a hard limit only: the
/// search uses all of it, less the overhead, unless it proves a mate or has one legal move.
/// Under a clock: `time/movestogo (20 if unknown) + 3/4·increment`, never more than a third
/// of what is left (nine tenths with one move to go); the hard limit is four times the soft
/// one, same cap. The soft time is the move's target: the iteration loop scales it by how
/// settled the search looks ([`Stability::scale`]), as saving time pays only on a clock.
pub(crate) fn budget(limits: &Limits, side: Color, overhead: Duration) -> Budget {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        return Budget {
            soft: None,
            hard: Some(t),
        };
    }
    let (time, inc) = match side {
        Color::White => (limits.wtime, limits.winc),
        Color::Black => (limits.btime, limits.binc),
    };
    let Some(time) = time else {
        return Budget::default();
    };
    let inc = inc.unwrap_or_default();
    let usable = time.saturating_sub(overhead).max(Duration::from_millis(1));
    let moves_left = limits.movestogo.unwrap_or(MOVES_LEFT).clamp(1, 60);
    let base = usable / moves_left + inc * 3 / 4;
    // Never plan to use more than a fraction of what is left, so one move cannot flag.
    let cap = if limits.movestogo == Some(1) {
        usable * 9 / 10
    } else {
        usable / 3
    };
    let soft = base.min(cap);
    let hard = (soft * 4).min(cap).max(soft);
    Budget {
        soft: Some(soft),
        hard: Some(hard),
    }
}

/// How settled the search looks after an iteration, for spending the clock: a best move that
/// keeps changing, a score that falls or a best move that took few of the nodes ask for more
/// time; a best move that stays, holds its score and takes most of the nodes, for less.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stability {
    /// Iterations in a row that ended with the same best move (0: it just changed).
    pub same_best: u32,
    /// The previous iteration's score minus this one's, from the side to move (positive:
    /// the prospects fell).
    pub drop: i32,
    /// The share of this iteration's root nodes spent on its best move (0..=1), when known.
    pub best_share: Option<f64>,
}

impl Stability {
    /// The factor on the soft time before no new iteration starts: from 0.4 (a settled,
    /// one-sided search) to 2.5 (a best move that just changed in a falling position).
    pub(crate) fn scale(&self) -> f64 {
        let moves = match self.same_best {
            0 => 1.6,
            1 => 1.3,
            2 => 1.1,
            3 => 1.0,
            _ => 0.9,
        };
        let score = (1.0 + f64::from(self.drop) / 100.0).clamp(0.85, 1.6);
        let share = self.best_share.map_or(1.0, |s| (1.6 - s).clamp(0.7, 1.4));
        (moves * score * share).clamp(0.4, 2.5)
    }
}

/// Start another iteration after `elapsed` of a soft time `soft` scaled by `stability`? The
/// next iteration usually costs more than all the earlier ones together, so none starts
/// after six tenths of the scaled time.
pub(crate) fn another_iteration(elapsed: Duration, soft: Duration, stability: &Stability) -> bool {
    elapsed.as_secs_f64() < soft.as_secs_f64() * 0.6 * stability.scale()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_budget_never_plans_more_than_a_third_of_what_is_left() {
        let limits = Limits {
            wtime: Some(Duration::from_secs(3)),
            winc: Some(Duration::from_secs(10)),
            ..Limits::default()
        };
        let b = budget(&limits, Color::White, Duration::ZERO);
        assert_eq!(b.soft, Some(Duration::from_secs(1)));
        assert_eq!(b.hard, Some(Duration::from_secs(1)));
        let none = budget(&Limits::depth(3), Color::White, Duration::ZERO);
        assert!(none.soft.is_none() && none.hard.is_none());
    }

    #[test]
    fn a_fixed_move_time_has_no_soft_limit_to_stop_early_at() {
        let limits = Limits::movetime(Duration::from_millis(500));
        let b = budget(&limits, Color::Black, Duration::from_millis(30));
        assert_eq!(b.soft, None);
        assert_eq!(b.hard, Some(Duration::from_millis(470)));
    }

    #[test]
    fn an_unsettled_search_gets_more_time_than_a_settled_one() {
        let settled = Stability {
            same_best: 6,
            drop: -10,
            best_share: Some(0.95),
        };
        let changed = Stability {
            same_best: 0,
            drop: 0,
            best_share: Some(0.5),
        };
        let falling = Stability {
            drop: 60,
            ..changed
        };
        assert!(settled.scale() < 1.0, "{}", settled.scale());
        assert!(changed.scale() > 1.0, "{}", changed.scale());
        assert!(falling.scale() > changed.scale());
        let soft = Duration::from_millis(1000);
        let at = Duration::from_millis(500);
        assert!(!another_iteration(at, soft, &settled));
        assert!(another_iteration(at, soft, &changed));
        // Bounded both ways: never below 0.4 nor above 2.5 of the soft time.
        let worst = Stability {
            same_best: 0,
            drop: 1000,
            best_share: Some(0.0),
        };
        assert_eq!(worst.scale(), 2.5);
        assert!(
            Stability {
                same_best: 9,
                drop: -500,
                best_share: Some(1.0)
            }
            .scale()
                >= 0.4
        );
    }
}
