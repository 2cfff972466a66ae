//! How the TUI writes numbers, times and scores: the seed's engine log line and its parts.

use std::time::Duration;

use crate::chess::{Color, Move};
use crate::engine::{Bound, IterationInfo, Score};

/// `1,234,567`
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `m:ss.t`, the seed's engine log writes times as `0:45` and `4:41`.
pub fn clock_time(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

/// A search's time for the log: milliseconds matter in the first minute (early iterations
/// take a few), then `m:ss.t` as the seed's log writes `0:45` and `4:41`.
pub fn search_time(d: Duration) -> String {
    if d < Duration::from_secs(60) {
        format!("{}.{:03}s", d.as_secs(), d.subsec_millis())
    } else {
        clock_time(d)
    }
}

/// E in pawns from White's view, the seed's sign convention: `+0.29`.
pub fn e_text(centipawns: i32) -> String {
    Score::Cp(centipawns).to_string()
}

/// A score from White's view with its bound, as the log writes it: ` +0.35` when exact,
/// ` ≥ +0.35` when the search only proved White at least this well off (its aspiration
/// window failed), ` ≤ +0.35` at most. The engine's bound is the side to move's (as UCI's
/// `lowerbound`), so with Black to move it turns round beside White's score.
pub fn bounded_score(bound: Bound, score_white: Score, side_to_move: Color) -> String {
    let bound = match (bound, side_to_move) {
        (Bound::Lower, Color::Black) => Bound::Upper,
        (Bound::Upper, Color::Black) => Bound::Lower,
        (b, _) => b,
    };
    match bound {
        Bound::Exact => format!(" {score_white}"),
        Bound::Lower => format!(" ≥ {score_white}"),
        Bound::Upper => format!(" ≤ {score_white}"),
    }
}

/// The seed's engine log line (seed 003: depth, time, nodes, n/s, score, PV), with the
/// selective depth and E from White's view; a failed aspiration window shows its bound.
/// The iteration's own figures follow the PV in brackets (when the search counted them):
/// first-move cutoffs, effective branching factor and table hits; the sort pane shows all.
pub fn iteration_line(info: &IterationInfo, side_to_move: Color) -> String {
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    let mut line = format!(
        "d{}/{} {} {} n {} n/s E{} pv {}",
        info.depth,
        info.seldepth,
        search_time(info.time),
        thousands(info.nodes),
        thousands(info.nps),
        bounded_score(info.bound, info.score_white, side_to_move),
        pv.join(" ")
    );
    if info.stats.nodes > 0 {
        let s = &info.stats;
        line.push_str(&format!(" [1st {:.0}%", s.first_move_cutoff() * 100.0));
        if info.branching > 0.0 {
            line.push_str(&format!(" ebf {:.1}", info.branching));
        }
        line.push_str(&format!(" tt {:.0}%]", s.tt_hit_rate() * 100.0));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_times_read_like_the_seed_log() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(25_499_252), "25,499,252");
        assert_eq!(search_time(Duration::from_millis(12)), "0.012s");
        assert_eq!(search_time(Duration::from_millis(45_300)), "45.300s");
        assert_eq!(search_time(Duration::from_secs(281)), "4:41.0");
        assert_eq!(clock_time(Duration::from_millis(1_520)), "0:01.5");
        assert_eq!(e_text(29), "+0.29");
        assert_eq!(e_text(-150), "-1.50");
    }

    #[test]
    fn a_bound_reads_from_whites_side_beside_whites_score() {
        let s = Score::Cp(35);
        assert_eq!(bounded_score(Bound::Exact, s, Color::White), " +0.35");
        assert_eq!(bounded_score(Bound::Lower, s, Color::White), " ≥ +0.35");
        assert_eq!(bounded_score(Bound::Upper, s, Color::White), " ≤ +0.35");
        // Black to move failed high: at least this good for Black, at most for White.
        assert_eq!(bounded_score(Bound::Lower, s, Color::Black), " ≤ +0.35");
        assert_eq!(bounded_score(Bound::Upper, s, Color::Black), " ≥ +0.35");
    }
}
