//! Scores and bounds: the leaf every engine module may use (search, table, reports, front
//! ends), so none of them has to import another for these.

use std::fmt;

use crate::chess::types::Color;

/// Internal score bound for mates: a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this magnitude are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Internal score of a tablebase win: a position the tables call won, `ply` plies from the
/// root, scores `TB_WIN - ply` (a loss the negative), so that of two wins the one reached
/// sooner scores higher; far above any evaluation, below every mate, so that a mate the
/// search finds is still preferred and a tablebase win is never reported as one.
pub const TB_WIN: i32 = 20_000;
/// Scores of this magnitude or more are decided: tablebase wins and losses (up to
/// [`MATE_BOUND`]) or mates. The band below `TB_WIN` is as wide as the deepest search
/// (128 plies, `search::MAX_PLY`).
pub const TB_BOUND: i32 = TB_WIN - 128;

/// A score from one side's point of view: centipawns, or mate in N moves (N > 0: this side
/// mates; N < 0: this side is mated). A win or loss the Syzygy tables proved is a `Cp`
/// score in the band from [`TB_BOUND`] to [`TB_WIN`] (UCI says `cp 19998`), which
/// [`Score::tablebase`] recognises and `Display` shows as `+TB` / `-TB`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// From the search's internal integer (side-to-move view).
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-((MATE + v + 1) / 2))
        } else {
            Score::Cp(v)
        }
    }

    /// The same score seen by the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(-c),
            Score::Mate(n) => Score::Mate(-n),
        }
    }

    /// The seed's E: from White's point of view, given who the score was for.
    pub fn for_white(self, side: Color) -> Score {
        match side {
            Color::White => self,
            Color::Black => self.negate(),
        }
    }

    /// `Some(true)` for a tablebase win, `Some(false)` for a tablebase loss, `None` for any
    /// other score (a mate is not a tablebase result: the search proved it itself).
    pub fn tablebase(self) -> Option<bool> {
        match self {
            Score::Cp(c) if c >= TB_BOUND => Some(true),
            Score::Cp(c) if c <= -TB_BOUND => Some(false),
            _ => None,
        }
    }

    /// A number for comparisons and plots: mates map to ±(100000 - N).
    pub fn as_ordinal(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(n) if n > 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

impl fmt::Display for Score {
    /// Pawn units with a sign (`+0.29`, `-1.50`), `#3` / `#-2` for mates (mate in
    /// moves, the mated side's sign after the `#`, as PGN's `[%eval]` writes it), `+TB` / `-TB`
    /// for wins and losses the tablebases proved.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(_) if self.tablebase() == Some(true) => f.write_str("+TB"),
            Score::Cp(_) if self.tablebase() == Some(false) => f.write_str("-TB"),
            Score::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                write!(f, "{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
            }
            Score::Mate(n) if n >= 0 => write!(f, "#{n}"),
            Score::Mate(n) => write!(f, "#-{}", -n),
        }
    }
}

/// Whether a score is exact or only a bound: in the table, a result that failed low or
/// high; in a report, an iteration whose aspiration window failed or that was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (failed high).
    Lower,
    /// The true score is at most this (failed low).
    Upper,
}

impl Bound {
    /// What a search result says about the true score, given the window it was found in.
    pub fn of(score: i32, original_alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Does a stored score with this bound decide the node for the window `alpha..beta`?
    pub fn settles(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_convert() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(Score::from_internal(29), Score::Cp(29));
        assert_eq!(Score::Cp(29).to_string(), "+0.29");
        assert_eq!(Score::Cp(-150).to_string(), "-1.50");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Mate(3).to_string(), "#3");
        assert_eq!(Score::Mate(-2).to_string(), "#-2");
        assert_eq!(Score::Mate(-2).for_white(Color::Black), Score::Mate(2));
    }

    #[test]
    fn tablebase_wins_are_centipawns_in_their_own_band_below_the_mates() {
        let win = Score::from_internal(TB_WIN - 3);
        assert_eq!(win, Score::Cp(TB_WIN - 3));
        assert_eq!(win.tablebase(), Some(true));
        assert_eq!(win.negate().tablebase(), Some(false));
        assert_eq!(win.to_string(), "+TB");
        assert_eq!(win.negate().to_string(), "-TB");
        assert_eq!(Score::from_internal(TB_BOUND - 1).tablebase(), None);
        assert_eq!(Score::Mate(5).tablebase(), None);
        assert_eq!(Score::Cp(900).tablebase(), None);
        assert!(win.as_ordinal() < Score::Mate(60).as_ordinal());
        const { assert!(TB_WIN < MATE_BOUND) };
    }
}
