//! The time budget for one move, from the clock or a fixed move time.

use std::time::Duration;

use crate::chess::types::Color;
use crate::engine::report::Limits;

/// Time budget for one move.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Budget {
    /// Don't start a new iteration after this much time.
    pub soft: Option<Duration>,
    /// Abort the search at this much time.
    pub hard: Option<Duration>,
}

/// `time/movestogo (30 if unknown) + 3/4·increment`, never more than a third of what is left
/// (nine tenths with one move to go); the hard limit is four times the soft one, same cap.
pub(crate) fn budget(limits: &Limits, side: Color, overhead: Duration) -> Budget {
    if let Some(mt) = limits.movetime {
        let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
        return Budget {
            soft: Some(t),
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
    let moves_left = limits.movestogo.unwrap_or(30).clamp(1, 60);
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
}
