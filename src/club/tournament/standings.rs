//! The standings of a Swiss tournament: score, then three tie-breaks (FIDE Handbook C.07
//! definitions), then the pairing number.
//!
//! - **Buchholz cut-1**: the sum of the opponents' scores, leaving out the lowest one.
//! - **Sonneborn-Berger**: the sum, over the rounds, of the opponent's score times the points
//!   scored against them (a win counts the whole score, a draw half of it).
//! - **Direct encounter**: among players still level on score and both tie-breaks above, the
//!   points scored in the games between them — counted only when each of them has met every
//!   other (otherwise it does not separate them and is shown as 0).
//!
//! An unplayed round (a bye of any kind, a forfeit either way, a round missed) has no real
//! opponent: it counts as an opponent with the player's own score (FIDE's "dummy opponent"
//! of the 2023 tie-break rules), scored with the points the round gave. Scores are in half
//! points and Sonneborn-Berger in quarter points, so that no ordering depends on rounding.

use super::{RoundRecord, SwissState};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// 1-based place (players level on everything share the pairing number's order).
    pub rank: u32,
    pub number: u32,
    pub name: String,
    pub rating: u32,
    /// Half points.
    pub score: u32,
    /// Half points.
    pub buchholz_cut1: u32,
    /// Quarter points.
    pub sonneborn_berger: u32,
    /// Half points scored against the others level with this player (0 when it does not
    /// apply).
    pub direct_encounter: u32,
    pub withdrawn: bool,
}

/// The standings of `state`, best first.
pub fn standings(state: &SwissState) -> Vec<Standing> {
    let score_of = |n: u32| state.player(n).map_or(0, |p| p.score());
    let mut lines: Vec<Standing> = state
        .players
        .iter()
        .map(|p| {
            let own = p.score();
            // (opponent's score, points this round) per round.
            let rounds: Vec<(u32, u32)> = p
                .rounds
                .iter()
                .map(|r| match r.played() {
                    Some((opponent, _)) => (score_of(opponent), r.half_points()),
                    None => (own, r.half_points()),
                })
                .collect();
            let mut opponents: Vec<u32> = rounds.iter().map(|&(s, _)| s).collect();
            opponents.sort_unstable();
            let buchholz_cut1 = opponents.iter().skip(1).sum();
            let sonneborn_berger = rounds.iter().map(|&(s, pts)| s * pts).sum();
            Standing {
                rank: 0,
                number: p.number,
                name: p.name.clone(),
                rating: p.rating,
                score: own,
                buchholz_cut1,
                sonneborn_berger,
                direct_encounter: 0,
                withdrawn: p.withdrawn,
            }
        })
        .collect();
    let key = |s: &Standing| (s.score, s.buchholz_cut1, s.sonneborn_berger);
    // Direct encounter within each group level on the first three keys.
    let mut i = 0;
    while i < lines.len() {
        let group: Vec<usize> = (0..lines.len())
            .filter(|&j| key(&lines[j]) == key(&lines[i]))
            .collect();
        if group[0] == i && group.len() > 1 {
            let numbers: Vec<u32> = group.iter().map(|&j| lines[j].number).collect();
            let points: Option<Vec<u32>> = numbers
                .iter()
                .map(|&n| encounter_points(state, n, &numbers))
                .collect();
            if let Some(points) = points {
                for (&j, pts) in group.iter().zip(points) {
                    lines[j].direct_encounter = pts;
                }
            }
        }
        i += 1;
    }
    lines.sort_by(|a, b| {
        key(b)
            .cmp(&key(a))
            .then(b.direct_encounter.cmp(&a.direct_encounter))
            .then(a.number.cmp(&b.number))
    });
    for (place, line) in lines.iter_mut().enumerate() {
        line.rank = place as u32 + 1;
    }
    lines
}

/// Half points `number` scored in played games against the others of `group`, or `None` if
/// they have not met every one of them.
fn encounter_points(state: &SwissState, number: u32, group: &[u32]) -> Option<u32> {
    let player = state.player(number)?;
    let mut total = 0;
    for &other in group.iter().filter(|&&o| o != number) {
        let games: Vec<&RoundRecord> = player
            .rounds
            .iter()
            .filter(|r| r.played().is_some_and(|(o, _)| o == other))
            .collect();
        if games.is_empty() {
            return None;
        }
        total += games.iter().map(|r| r.half_points()).sum::<u32>();
    }
    Some(total)
}

/// A score in half points as people write it: `3½` style with a plain `.5` (`3.5`, `4`).
pub fn points_text(half_points: u32) -> String {
    if half_points.is_multiple_of(2) {
        format!("{}", half_points / 2)
    } else {
        format!("{}.5", half_points / 2)
    }
}
