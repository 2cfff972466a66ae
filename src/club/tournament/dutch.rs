//! The pairing of a Swiss round by the FIDE Dutch system (FIDE Handbook C.04.3, the rules in
//! force since 2017, with the basic rules of C.04.1), written from the published rules.
//!
//! The players to pair are ranked by score, then pairing number (A.2), and split into
//! score groups. Each bracket — a score group plus the players moved down from above (MDPs)
//! — is paired in turn from the top. Within a bracket, candidate pairings are produced in
//! the order section D prescribes: the MDPs chosen for S1 (D.3 exchanges with the limbo), the
//! transpositions of S2 (D.1) that pair them, then for the remainder the exchanges between S1
//! and S2 (D.2) and their transpositions; S1's i-th player meets the i-th player of S2 and
//! the players left over float down. A candidate must meet the absolute criteria (C1 no
//! rematch, C2 no second pairing-allocated bye, C3 no two non-topscorers with the same
//! absolute colour preference) and the completion criterion C4 (the players still unpaired
//! can all be paired, with at most one eligible bye; checked by a maximum matching). Among
//! those, the best by the quality criteria taken in order wins, the first in D's order among
//! equals:
//!
//! - C5 most pairs; C6 smallest pairing score differences (PSD, largest first; a floater
//!   counts its score less one point below the bracket's lowest score);
//! - C7 most pairs in the next bracket for the players floated down;
//! - C8, C9 fewest topscorers (or their opponents) given a colour difference beyond ±2 or a
//!   third colour in a row (only topscorers may get these at all, by C3);
//! - C10 fewest players denied their colour preference; C11 fewest denied a strong one;
//! - C12–C15 fewest repeated floats (a downfloat after one in the previous round, an upfloat
//!   after one in the previous round, the same two rounds before);
//! - C16–C19 the smallest score differences among those repeated floats; a player left
//!   unpaired (floating on, or the bye: a downfloat too, A.4) counts with the difference C6
//!   gives him, so an MDP who downfloated last round meets the nearest score rather than
//!   float further.
//!
//! The search stops at the first candidate that reaches a lower bound on every criterion
//! (a "perfect" candidate in the rules' words) or after a fixed number of steps, keeping
//! the best found so far: enough for club-sized fields, and it never breaks C1–C4.
//!
//! Colours are then given by section E: both preferences (E.1), the stronger one (E.2),
//! alternation from the most recent game the two had different colours (E.3), the higher
//! ranked player's preference (E.4), and otherwise the initial colour to the higher ranked
//! player when his pairing number is odd (E.5).
//!
//! Points of reading the rules that programs differ on, and what this one does: a forfeited
//! game counts as not played (no colour, and the two may meet again); a round not played —
//! any bye, or a forfeit win — counts as a downfloat (A.4); the pairing-allocated bye is
//! refused to one who already had it, a full-point bye (`F`) or a forfeit win (C2).

use std::collections::HashMap;
use std::ops::ControlFlow;

use super::matching::max_matching;
use super::{ByeKind, RoundRecord, SwissState};
use crate::chess::Color;

/// One game of a round: pairing numbers of the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub white: u32,
    pub black: u32,
}

/// The pairing of one round: the boards in table order and the player given the
/// pairing-allocated bye, if the number of players to pair was odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub round: u32,
    pub boards: Vec<Board>,
    pub bye: Option<u32>,
}

/// Why a round could not be paired.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairError {
    #[error("the tournament's state is inconsistent: {0}")]
    BadState(String),
    #[error("all {0} rounds have been paired")]
    Finished(u32),
    #[error("nobody is left to pair")]
    NoPlayers,
    #[error(
        "round {0} cannot be paired: every pairing would repeat a game, give a second bye or \
         break an absolute colour preference"
    )]
    Impossible(u32),
}

/// Pairs the next round of `state`.
pub fn pair_round(state: &SwissState) -> Result<Pairing, PairError> {
    let round = state.next_round();
    check_state(state)?;
    if round > state.total_rounds {
        return Err(PairError::Finished(state.total_rounds));
    }
    let ctx = Context::new(state);
    let n = ctx.players.len();
    if n == 0 {
        return Err(PairError::NoPlayers);
    }
    let everyone: Vec<usize> = (0..n).collect();
    if !ctx.completable(&everyone) {
        return Err(PairError::Impossible(round));
    }
    let groups = ctx.score_groups();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut moved_down: Vec<usize> = Vec::new();
    for (g, residents) in groups.iter().enumerate() {
        let lower: Vec<usize> = groups[g + 1..].concat();
        let next = groups.get(g + 1).map(|v| v.as_slice());
        match pair_bracket(&ctx, &moved_down, residents, &lower, next, STEP_BUDGET) {
            Some(found) => {
                pairs.extend(found.pairs);
                moved_down = found.floaters;
            }
            None => {
                // The rest cannot be paired bracket by bracket (the moved-down players could
                // only meet each other): pair everyone left as one collapsed bracket (A.9).
                let mut rest: Vec<usize> = moved_down.iter().copied().chain(lower).collect();
                rest.extend(residents);
                rest.sort_unstable();
                let found = pair_bracket(&ctx, &[], &rest, &[], None, STEP_BUDGET)
                    .ok_or(PairError::Impossible(round))?;
                pairs.extend(found.pairs);
                moved_down = found.floaters;
                break;
            }
        }
    }
    if moved_down.len() > 1 {
        return Err(PairError::Impossible(round));
    }
    let mut boards: Vec<(usize, usize)> = pairs
        .iter()
        .map(|&(a, b)| {
            let (hi, lo) = (a.min(b), a.max(b));
            if ctx.colour_for_higher(hi, lo) == Color::White {
                (hi, lo)
            } else {
                (lo, hi)
            }
        })
        .collect();
    // Table order: the higher score on the board, then the sum, then the higher rank.
    boards.sort_by_key(|&(w, b)| {
        let (sw, sb) = (ctx.players[w].score, ctx.players[b].score);
        (
            std::cmp::Reverse(sw.max(sb)),
            std::cmp::Reverse(sw + sb),
            w.min(b),
        )
    });
    Ok(Pairing {
        round,
        boards: boards
            .into_iter()
            .map(|(w, b)| Board {
                white: ctx.players[w].number,
                black: ctx.players[b].number,
            })
            .collect(),
        bye: moved_down.first().map(|&i| ctx.players[i].number),
    })
}

fn check_state(state: &SwissState) -> Result<(), PairError> {
    let played = state.rounds_played();
    let mut numbers: Vec<u32> = state.players.iter().map(|p| p.number).collect();
    numbers.sort_unstable();
    if numbers.windows(2).any(|w| w[0] == w[1]) {
        return Err(PairError::BadState(
            "two players share a pairing number".into(),
        ));
    }
    for p in &state.players {
        for (r, record) in p.rounds.iter().enumerate() {
            if let RoundRecord::Game {
                opponent, colour, ..
            } = *record
            {
                let back = state
                    .player(opponent)
                    .and_then(|o| o.rounds.get(r))
                    .copied();
                let agrees = matches!(back, Some(RoundRecord::Game { opponent: me, colour: c, .. })
                    if me == p.number && c != colour);
                if !agrees {
                    return Err(PairError::BadState(format!(
                        "round {}: player {} meets {} but the records do not agree",
                        r + 1,
                        p.number,
                        opponent
                    )));
                }
            }
        }
        if p.rounds.len() != played {
            return Err(PairError::BadState(format!(
                "player {} has {} rounds recorded, others {}",
                p.number,
                p.rounds.len(),
                played
            )));
        }
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    Mild,
    Strong,
    Absolute,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Float {
    None,
    Down,
    Up,
}

/// What the rules ask of one player about to be paired.
struct Facts {
    number: u32,
    score: u32,
    /// Colours of the games played, in order.
    played: Vec<Color>,
    difference: i32,
    preference: Option<(Color, Strength)>,
    topscorer: bool,
    bye_eligible: bool,
    /// The float of the previous round and of the round before it.
    floats: [Float; 2],
}

struct Context {
    /// Players to pair, in ranking order (score, then pairing number).
    players: Vec<Facts>,
    compatible: Vec<Vec<bool>>,
    initial: Color,
}

impl Context {
    fn new(state: &SwissState) -> Context {
        let played_rounds = state.rounds_played();
        let last_round = state.next_round() == state.total_rounds;
        let mut players: Vec<Facts> = state
            .players
            .iter()
            .filter(|p| state.is_paired_next(p))
            .map(|p| {
                let played: Vec<Color> = p
                    .rounds
                    .iter()
                    .filter_map(|r| r.played().map(|(_, c)| c))
                    .collect();
                let difference = played
                    .iter()
                    .map(|&c| if c == Color::White { 1 } else { -1 })
                    .sum::<i32>();
                let score = p.score();
                let floats = [1, 2].map(|back| {
                    played_rounds
                        .checked_sub(back)
                        .map_or(Float::None, |r| float_in(state, p.number, r))
                });
                Facts {
                    number: p.number,
                    score,
                    preference: preference(&played, difference),
                    played,
                    difference,
                    topscorer: last_round && score > played_rounds as u32,
                    bye_eligible: !p.rounds.iter().any(|r| {
                        matches!(
                            r,
                            RoundRecord::Bye(ByeKind::Pairing | ByeKind::Full)
                                | RoundRecord::Game {
                                    result: super::GameResult::ForfeitWin,
                                    ..
                                }
                        )
                    }),
                    floats,
                }
            })
            .collect();
        players.sort_by_key(|f| (std::cmp::Reverse(f.score), f.number));
        let met: Vec<Vec<u32>> = players
            .iter()
            .map(|f| {
                state
                    .player(f.number)
                    .map(|p| {
                        p.rounds
                            .iter()
                            .filter_map(|r| r.played().map(|(o, _)| o))
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect();
        let n = players.len();
        let mut compatible = vec![vec![false; n]; n];
        for a in 0..n {
            for b in 0..n {
                if a == b || met[a].contains(&players[b].number) {
                    continue;
                }
                let (pa, pb) = (&players[a], &players[b]);
                let same_absolute = matches!((pa.preference, pb.preference),
                    (Some((ca, Strength::Absolute)), Some((cb, Strength::Absolute))) if ca == cb);
                compatible[a][b] = !(same_absolute && !pa.topscorer && !pb.topscorer);
            }
        }
        Context {
            players,
            compatible,
            initial: state.initial_colour,
        }
    }

    /// Indices of the players by score group, highest score first.
    fn score_groups(&self) -> Vec<Vec<usize>> {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if self.players[g[0]].score == p.score => g.push(i),
                _ => groups.push(vec![i]),
            }
        }
        groups
    }

    /// C4: can these players all be paired, with one bye to an eligible player if odd?
    fn completable(&self, set: &[usize]) -> bool {
        let odd = set.len() % 2 == 1;
        let size = set.len() + usize::from(odd);
        let mut adj = vec![Vec::new(); size];
        for (i, &a) in set.iter().enumerate() {
            for (j, &b) in set.iter().enumerate().skip(i + 1) {
                if self.compatible[a][b] {
                    adj[i].push(j);
                    adj[j].push(i);
                }
            }
            if odd && self.players[a].bye_eligible {
                adj[i].push(size - 1);
                adj[size - 1].push(i);
            }
        }
        max_matching(&adj) * 2 == size
    }

    /// Section E: the colour of `hi` (the higher ranked) against `lo`.
    fn colour_for_higher(&self, hi: usize, lo: usize) -> Color {
        let (a, b) = (&self.players[hi], &self.players[lo]);
        match (a.preference, b.preference) {
            (Some((ca, _)), None) => return ca,
            (None, Some((cb, _))) => return cb.flip(),
            (Some((ca, sa)), Some((cb, sb))) => {
                if ca != cb {
                    return ca; // E.1
                }
                if sa != sb {
                    return if sa > sb { ca } else { ca.flip() }; // E.2
                }
                if sa == Strength::Absolute && a.difference.abs() != b.difference.abs() {
                    return if a.difference.abs() > b.difference.abs() {
                        ca
                    } else {
                        ca.flip()
                    };
                }
                // E.3: alternate from the latest time one had white and the other black,
                // the games played by each compared from the last back (C.04.2.D.5: rounds
                // not played are left out).
                for (x, y) in a.played.iter().rev().zip(b.played.iter().rev()) {
                    if x != y {
                        return x.flip();
                    }
                }
                return ca; // E.4
            }
            (None, None) => {}
        }
        // E.5
        if a.number % 2 == 1 {
            self.initial
        } else {
            self.initial.flip()
        }
    }
}

/// A.6: the colour preference from the colours played.
fn preference(played: &[Color], difference: i32) -> Option<(Color, Strength)> {
    let last = *played.last()?;
    let repeated = played.len() >= 2 && played[played.len() - 2] == last;
    if !(-1..=1).contains(&difference) || repeated {
        let colour = if difference < -1 {
            Color::White
        } else if difference > 1 {
            Color::Black
        } else {
            last.flip()
        };
        Some((colour, Strength::Absolute))
    } else if difference != 0 {
        Some((
            if difference > 0 {
                Color::Black
            } else {
                Color::White
            },
            Strength::Strong,
        ))
    } else {
        Some((last.flip(), Strength::Mild))
    }
}

/// A.4: the float player `number` had in round index `r` (0-based).
fn float_in(state: &SwissState, number: u32, r: usize) -> Float {
    let Some(p) = state.player(number) else {
        return Float::None;
    };
    match p.rounds.get(r) {
        Some(RoundRecord::Game {
            opponent, result, ..
        }) => {
            if !result.was_played() {
                return if result.half_points() > 0 {
                    Float::Down
                } else {
                    Float::None
                };
            }
            let mine = p.score_after(r);
            let theirs = state.player(*opponent).map_or(mine, |o| o.score_after(r));
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => Float::Down,
                std::cmp::Ordering::Less => Float::Up,
                std::cmp::Ordering::Equal => Float::None,
            }
        }
        Some(RoundRecord::Bye(_)) => Float::Down,
        None => Float::None,
    }
}

/// How good a candidate is: the quality criteria C5–C19 in order, each a number to make as
/// small as possible (lists are score differences, largest first, compared in turn).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Quality {
    missing_pairs: u32,
    psd: Vec<u32>,
    next_unpaired: u32,
    next_psd: Vec<u32>,
    topscorer_difference: u32,
    topscorer_three: u32,
    preference_denied: u32,
    strong_denied: u32,
    repeat_down_1: u32,
    repeat_up_1: u32,
    repeat_down_2: u32,
    repeat_up_2: u32,
    repeat_down_1_sd: Vec<u32>,
    repeat_up_1_sd: Vec<u32>,
    repeat_down_2_sd: Vec<u32>,
    repeat_up_2_sd: Vec<u32>,
}

struct Candidate {
    pairs: Vec<(usize, usize)>,
    floaters: Vec<usize>,
    quality: Quality,
}

/// Steps (placements tried) one bracket's search may take before it settles for the best
/// candidate found.
const STEP_BUDGET: usize = 200_000;

struct Search<'a> {
    ctx: &'a Context,
    mdps: &'a [usize],
    residents: &'a [usize],
    lower: &'a [usize],
    next: Option<&'a [usize]>,
    max_pairs: u32,
    bound: Quality,
    best: Option<Candidate>,
    steps: usize,
    completion: HashMap<Vec<usize>, bool>,
    next_pairs: HashMap<Vec<usize>, (u32, Vec<u32>)>,
    /// Steps this search may take.
    budget: usize,
    /// The bracket's lowest score (half points): a player left unpaired counts, by A.8, as
    /// paired with one a point below it.
    lowest: u32,
    /// Searching for a candidate at the bound on every criterion only.
    perfect_only: bool,
}

fn pair_bracket(
    ctx: &Context,
    mdps: &[usize],
    residents: &[usize],
    lower: &[usize],
    next: Option<&[usize]>,
    budget: usize,
) -> Option<Candidate> {
    let bracket: Vec<usize> = mdps.iter().chain(residents).copied().collect();
    let lowest = residents
        .iter()
        .chain(mdps)
        .map(|&i| ctx.players[i].score)
        .min()
        .unwrap_or(0);
    let edges =
        |a: usize, b: usize| ctx.compatible[a][b] && !(mdps.contains(&a) && mdps.contains(&b));
    let max_pairs = matching_size(&bracket, &edges);
    let mdp_pairs = matching_size(&bracket, &|a, b| {
        edges(a, b) && (mdps.contains(&a) != mdps.contains(&b))
    });
    let mut search = Search {
        ctx,
        mdps,
        residents,
        lower,
        next,
        max_pairs,
        bound: Quality::default(),
        best: None,
        steps: 0,
        completion: HashMap::new(),
        next_pairs: HashMap::new(),
        budget,
        lowest,
        perfect_only: true,
    };
    search.bound = search.lower_bound(mdp_pairs);
    // First look for a perfect candidate alone (every criterion at its bound), which prunes
    // hard; only if there is none, for the best one.
    search.run(mdp_pairs);
    if search.best.is_none() {
        search.perfect_only = false;
        search.steps = 0;
        search.run(mdp_pairs);
    }
    search.best
}

impl Search<'_> {
    /// A.8: the score difference a player left unpaired (a floater, or the bye) adds to the
    /// PSD: his score less one point below the bracket's lowest score. Kept in whole
    /// numbers by adding the point rather than taking it from a score that may be zero.
    fn unpaired_psd(&self, score: u32) -> u32 {
        score + 2 - self.lowest.min(score)
    }

    fn run(&mut self, mdp_pairs: u32) {
        let (mdps, residents, max_pairs) = (self.mdps, self.residents, self.max_pairs);
        for m1 in (0..=mdp_pairs as usize).rev() {
            if self.best.as_ref().is_some_and(|b| {
                (m1 + (residents.len() - m1) / 2) < (max_pairs - b.quality.missing_pairs) as usize
            }) {
                break;
            }
            for s1 in exchanges(mdps, m1) {
                if self.mdp_stage(&s1).is_break() {
                    return;
                }
            }
        }
    }
}

fn matching_size(set: &[usize], edge: &dyn Fn(usize, usize) -> bool) -> u32 {
    let mut adj = vec![Vec::new(); set.len()];
    for (i, &a) in set.iter().enumerate() {
        for (j, &b) in set.iter().enumerate().skip(i + 1) {
            if edge(a, b) {
                adj[i].push(j);
                adj[j].push(i);
            }
        }
    }
    max_matching(&adj) as u32
}

impl Search<'_> {
    /// The best a candidate could possibly be; reaching it ends the search.
    fn lower_bound(&self, mdp_pairs: u32) -> Quality {
        let ctx = self.ctx;
        let n = (self.mdps.len() + self.residents.len()) as u32;
        let pairs = self.max_pairs;
        let floaters = n - 2 * pairs;
        let resident_score = self.residents.first().map_or(0, |&r| ctx.players[r].score);
        let mut psd: Vec<u32> = Vec::new();
        for (k, &m) in self.mdps.iter().enumerate() {
            let s = ctx.players[m].score;
            psd.push(if (k as u32) < mdp_pairs {
                s - resident_score
            } else {
                self.unpaired_psd(s)
            });
        }
        let resident_pairs = pairs.saturating_sub(mdp_pairs);
        let resident_floaters =
            (self.residents.len() as u32).saturating_sub(mdp_pairs + 2 * resident_pairs);
        psd.extend(std::iter::repeat_n(0, resident_pairs as usize));
        psd.extend(std::iter::repeat_n(
            self.unpaired_psd(resident_score),
            resident_floaters as usize,
        ));
        psd.sort_unstable_by(|a, b| b.cmp(a));
        let count = |pred: &dyn Fn(&Facts) -> bool| {
            self.mdps
                .iter()
                .chain(self.residents)
                .filter(|&&i| pred(&ctx.players[i]))
                .count() as u32
        };
        let excess = |colour: Color, strong: bool| {
            let wanting = count(&|f: &Facts| {
                f.preference
                    .is_some_and(|(c, s)| c == colour && (!strong || s >= Strength::Strong))
            });
            wanting.saturating_sub(pairs)
        };
        let not_down = |back: usize| {
            self.residents
                .iter()
                .filter(|&&i| ctx.players[i].floats[back] != Float::Down)
                .count() as u32
        };
        let not_up = |back: usize| {
            self.residents
                .iter()
                .filter(|&&i| ctx.players[i].floats[back] != Float::Up)
                .count() as u32
        };
        Quality {
            missing_pairs: 0,
            psd,
            next_unpaired: self
                .next
                .map_or(0, |next| (floaters + next.len() as u32) % 2),
            preference_denied: (excess(Color::White, false) + excess(Color::Black, false))
                .saturating_sub(floaters),
            strong_denied: (excess(Color::White, true) + excess(Color::Black, true))
                .saturating_sub(floaters),
            repeat_down_1: resident_floaters.saturating_sub(not_down(0)),
            repeat_down_2: resident_floaters.saturating_sub(not_down(1)),
            repeat_up_1: mdp_pairs.saturating_sub(not_up(0)),
            repeat_up_2: mdp_pairs.saturating_sub(not_up(1)),
            ..Quality::default()
        }
    }

    /// The PSD (C6) of a candidate pairing the MDPs of `s1` with residents, `pairs` pairs in
    /// the remainder, and floating the rest.
    fn psd_of(
        &self,
        s1: &[usize],
        limbo: &[usize],
        remainder_pairs: usize,
        rest: usize,
    ) -> Vec<u32> {
        let ctx = self.ctx;
        let resident_score = self.residents.first().map_or(0, |&r| ctx.players[r].score);
        let mut psd: Vec<u32> = s1
            .iter()
            .map(|&m| ctx.players[m].score - resident_score)
            .collect();
        psd.extend(
            limbo
                .iter()
                .map(|&m| self.unpaired_psd(ctx.players[m].score)),
        );
        psd.extend(std::iter::repeat_n(0, remainder_pairs));
        psd.extend(std::iter::repeat_n(
            self.unpaired_psd(resident_score),
            rest.saturating_sub(2 * remainder_pairs),
        ));
        psd.sort_unstable_by(|a, b| b.cmp(a));
        psd
    }

    /// Pairs the MDPs of `s1` with residents in the order of S2's transpositions, then the
    /// remainder of each.
    fn mdp_stage(&mut self, s1: &[usize]) -> ControlFlow<()> {
        let limbo: Vec<usize> = self
            .mdps
            .iter()
            .copied()
            .filter(|m| !s1.contains(m))
            .collect();
        let residents = self.residents;
        let rest = residents.len() - s1.len();
        let best_rest = (rest / 2).min((self.max_pairs as usize).saturating_sub(s1.len()));
        let base = Quality {
            missing_pairs: self.max_pairs.saturating_sub((s1.len() + best_rest) as u32),
            psd: self.psd_of(s1, &limbo, best_rest, rest),
            next_unpaired: self.bound.next_unpaired,
            ..Quality::default()
        };
        let frame = Frame {
            s1,
            s2: residents,
            fixed: 0,
            limbo: &limbo,
            base: &base,
            remainder: false,
        };
        let mut used = vec![false; residents.len()];
        self.arrange(&frame, &mut used, &mut Vec::new())
    }

    fn remainder_stage(
        &mut self,
        mdp_pairs: &[(usize, usize)],
        limbo: &[usize],
        rest: &[usize],
    ) -> ControlFlow<()> {
        let s1_mdps: Vec<usize> = mdp_pairs.iter().map(|&(m, _)| m).collect();
        for p in (0..=rest.len() / 2).rev() {
            let total = (mdp_pairs.len() + p) as u32;
            if total > self.max_pairs {
                continue;
            }
            let floaters = limbo.len() + rest.len() - 2 * p;
            let base = Quality {
                missing_pairs: self.max_pairs - total,
                psd: self.psd_of(&s1_mdps, limbo, p, rest.len()),
                next_unpaired: self
                    .next
                    .map_or(0, |next| ((floaters + next.len()) % 2) as u32),
                ..Quality::default()
            };
            if self.hopeless(&base, mdp_pairs) {
                return ControlFlow::Continue(());
            }
            let (s1, s2) = rest.split_at(p);
            for (x1, x2) in homogeneous_exchanges(s1, s2, STEP_BUDGET) {
                if self.out_of_steps() {
                    return ControlFlow::Break(());
                }
                let frame = Frame {
                    s1: &x1,
                    s2: &x2,
                    fixed: mdp_pairs.len(),
                    limbo,
                    base: &base,
                    remainder: true,
                };
                let mut used = vec![false; x2.len()];
                let mut pairs = mdp_pairs.to_vec();
                self.arrange(&frame, &mut used, &mut pairs)?;
            }
        }
        ControlFlow::Continue(())
    }

    /// D.1: gives each S1 player (in order) a distinct S2 opponent meeting C1–C3, in
    /// lexicographic order of S2's positions, leaving out branches that cannot beat the best
    /// candidate found.
    fn arrange(
        &mut self,
        frame: &Frame,
        used: &mut [bool],
        pairs: &mut Vec<(usize, usize)>,
    ) -> ControlFlow<()> {
        let i = pairs.len() - frame.fixed;
        if i == frame.s1.len() {
            let unused = frame
                .s2
                .iter()
                .zip(used.iter())
                .filter(|(_, u)| !**u)
                .map(|(&x, _)| x);
            if frame.remainder {
                let mut floaters: Vec<usize> = frame.limbo.iter().copied().chain(unused).collect();
                floaters.sort_unstable();
                return self.consider(pairs.clone(), floaters);
            }
            let rest: Vec<usize> = unused.collect();
            let fixed = pairs.clone();
            return self.remainder_stage(&fixed, frame.limbo, &rest);
        }
        if self.out_of_steps() {
            return ControlFlow::Break(());
        }
        let a = frame.s1[i];
        for j in 0..frame.s2.len() {
            if used[j] || !self.ctx.compatible[a][frame.s2[j]] {
                continue;
            }
            self.steps += 1;
            pairs.push((a, frame.s2[j]));
            let flow = if self.hopeless(frame.base, pairs) {
                ControlFlow::Continue(())
            } else {
                used[j] = true;
                let flow = self.arrange(frame, used, pairs);
                used[j] = false;
                flow
            };
            pairs.pop();
            flow?;
        }
        ControlFlow::Continue(())
    }

    /// Can no candidate with these pairs (and what `base` says of the rest) beat the best
    /// found? Every part of the quality only grows as pairs are added, so a partial
    /// pairing already no better than the best cannot become better.
    fn hopeless(&self, base: &Quality, pairs: &[(usize, usize)]) -> bool {
        if !self.perfect_only && self.best.is_none() {
            return false;
        }
        let mut q = base.clone();
        for &(a, b) in pairs {
            self.add_pair(&mut q, a, b, false);
        }
        q.sort_lists();
        match &self.best {
            _ if self.perfect_only => q.exceeds(&self.bound),
            Some(best) => q >= best.quality,
            None => false,
        }
    }

    fn consider(&mut self, pairs: Vec<(usize, usize)>, floaters: Vec<usize>) -> ControlFlow<()> {
        self.steps += 1;
        let quality = self.quality(&pairs, &floaters);
        if self.best.as_ref().is_some_and(|b| quality >= b.quality) {
            return self.keep_going();
        }
        if !self.completes(&floaters) {
            return self.keep_going();
        }
        let perfect = !quality.exceeds(&self.bound);
        if self.perfect_only && !perfect {
            return self.keep_going();
        }
        self.best = Some(Candidate {
            pairs,
            floaters,
            quality,
        });
        if perfect {
            ControlFlow::Break(())
        } else {
            self.keep_going()
        }
    }

    /// The step budget is spent and there is an answer (or only a perfect one was sought).
    fn out_of_steps(&self) -> bool {
        self.steps > self.budget && (self.perfect_only || self.best.is_some())
    }

    fn keep_going(&self) -> ControlFlow<()> {
        if self.out_of_steps() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// C4 for the players this candidate leaves unpaired.
    fn completes(&mut self, floaters: &[usize]) -> bool {
        if self.lower.is_empty() {
            return match floaters {
                [] => true,
                [one] => self.ctx.players[*one].bye_eligible,
                _ => false,
            };
        }
        if let Some(&known) = self.completion.get(floaters) {
            return known;
        }
        let mut set = floaters.to_vec();
        set.extend(self.lower);
        let ok = self.ctx.completable(&set);
        self.completion.insert(floaters.to_vec(), ok);
        ok
    }

    /// One pair's part of the quality (its PSD entry only when `with_psd`).
    fn add_pair(&self, q: &mut Quality, a: usize, b: usize, with_psd: bool) {
        let ctx = self.ctx;
        let score = |i: usize| ctx.players[i].score;
        let (hi, lo) = (a.min(b), a.max(b));
        let diff = score(hi).abs_diff(score(lo));
        if with_psd {
            q.psd.push(diff);
        }
        let white_hi = ctx.colour_for_higher(hi, lo) == Color::White;
        let top = ctx.players[hi].topscorer || ctx.players[lo].topscorer;
        for (i, white) in [(hi, white_hi), (lo, !white_hi)] {
            let colour = if white { Color::White } else { Color::Black };
            let f = &ctx.players[i];
            if let Some((want, strength)) = f.preference
                && want != colour
            {
                q.preference_denied += 1;
                if strength >= Strength::Strong {
                    q.strong_denied += 1;
                }
            }
            if top {
                let d = f.difference + if white { 1 } else { -1 };
                if d.abs() > 2 {
                    q.topscorer_difference += 1;
                }
                if f.played.len() >= 2 && f.played[f.played.len() - 2..] == [colour, colour] {
                    q.topscorer_three += 1;
                }
            }
        }
        if diff > 0 {
            let (down, up) = if score(hi) > score(lo) {
                (hi, lo)
            } else {
                (lo, hi)
            };
            if ctx.players[down].floats[0] == Float::Down {
                q.repeat_down_1_sd.push(diff);
            }
            if ctx.players[down].floats[1] == Float::Down {
                q.repeat_down_2_sd.push(diff);
            }
            if ctx.players[up].floats[0] == Float::Up {
                q.repeat_up_1 += 1;
                q.repeat_up_1_sd.push(diff);
            }
            if ctx.players[up].floats[1] == Float::Up {
                q.repeat_up_2 += 1;
                q.repeat_up_2_sd.push(diff);
            }
        }
    }

    fn quality(&mut self, pairs: &[(usize, usize)], floaters: &[usize]) -> Quality {
        let ctx = self.ctx;
        let mut q = Quality {
            missing_pairs: self.max_pairs.saturating_sub(pairs.len() as u32),
            ..Quality::default()
        };
        for &(a, b) in pairs {
            self.add_pair(&mut q, a, b, true);
        }
        for &f in floaters {
            let sd = self.unpaired_psd(ctx.players[f].score);
            q.psd.push(sd);
            // A player left unpaired floats down (or takes the bye, a downfloat too: A.4):
            // his score difference counts for C16/C18 as for C6, whether he is a resident or
            // an MDP floating on. The count (C12/C14) takes residents only: every MDP
            // downfloats whatever the candidate, so counting them would change nothing.
            let mdp = self.mdps.contains(&f);
            for (back, count, sds) in [
                (0, &mut q.repeat_down_1, &mut q.repeat_down_1_sd),
                (1, &mut q.repeat_down_2, &mut q.repeat_down_2_sd),
            ] {
                if ctx.players[f].floats[back] == Float::Down {
                    sds.push(sd);
                    if !mdp {
                        *count += 1;
                    }
                }
            }
        }
        q.sort_lists();
        if let Some(next) = self.next {
            (q.next_unpaired, q.next_psd) = self.next_outcome(floaters, next);
        }
        q
    }

    /// C7: how the next bracket pairs if these float into it (players left unpaired and
    /// its PSD), paired as it would be, completion criterion included.
    fn next_outcome(&mut self, floaters: &[usize], next: &[usize]) -> (u32, Vec<u32>) {
        if let Some(known) = self.next_pairs.get(floaters) {
            return known.clone();
        }
        let after: Vec<usize> = self
            .lower
            .iter()
            .copied()
            .filter(|i| !next.contains(i))
            .collect();
        let outcome = match pair_bracket(self.ctx, floaters, next, &after, None, STEP_BUDGET / 10) {
            Some(c) => {
                let unpaired = (floaters.len() + next.len() - 2 * c.pairs.len()) as u32;
                (unpaired, c.quality.psd)
            }
            None => ((floaters.len() + next.len()) as u32, Vec::new()),
        };
        self.next_pairs.insert(floaters.to_vec(), outcome.clone());
        outcome
    }
}

/// One level of the candidate search: S1 to be given opponents from S2, after `fixed` pairs
/// already made, with the MDPs left in the limbo and what is known of the quality beforehand.
struct Frame<'f> {
    s1: &'f [usize],
    s2: &'f [usize],
    fixed: usize,
    limbo: &'f [usize],
    base: &'f Quality,
    /// Pairing the remainder (complete candidates) rather than the MDPs.
    remainder: bool,
}

impl Quality {
    /// Is any criterion worse here than in `bound`? (The next bracket's PSD has no bound
    /// and is left out.)
    fn exceeds(&self, bound: &Quality) -> bool {
        self.missing_pairs > bound.missing_pairs
            || self.psd > bound.psd
            || self.next_unpaired > bound.next_unpaired
            || self.topscorer_difference > bound.topscorer_difference
            || self.topscorer_three > bound.topscorer_three
            || self.preference_denied > bound.preference_denied
            || self.strong_denied > bound.strong_denied
            || self.repeat_down_1 > bound.repeat_down_1
            || self.repeat_up_1 > bound.repeat_up_1
            || self.repeat_down_2 > bound.repeat_down_2
            || self.repeat_up_2 > bound.repeat_up_2
            || self.repeat_down_1_sd > bound.repeat_down_1_sd
            || self.repeat_up_1_sd > bound.repeat_up_1_sd
            || self.repeat_down_2_sd > bound.repeat_down_2_sd
            || self.repeat_up_2_sd > bound.repeat_up_2_sd
    }

    fn sort_lists(&mut self) {
        for list in [
            &mut self.psd,
            &mut self.repeat_down_1_sd,
            &mut self.repeat_up_1_sd,
            &mut self.repeat_down_2_sd,
            &mut self.repeat_up_2_sd,
        ] {
            list.sort_unstable_by(|a, b| b.cmp(a));
        }
    }
}

/// D.3: the choices of `m` MDPs for S1, in the rules' order: the fewest swapped with the
/// limbo, the smallest difference of the swapped positions' sums, then the highest position
/// leaving S1, then the lowest position entering it.
fn exchanges(mdps: &[usize], m: usize) -> Vec<Vec<usize>> {
    let (s1, limbo) = mdps.split_at(m.min(mdps.len()));
    homogeneous_exchanges(s1, limbo, STEP_BUDGET)
        .into_iter()
        .map(|(x1, _)| x1)
        .collect()
}

/// D.2: S1 and S2 after each exchange of equally many players between them, in the rules'
/// order (as in [`exchanges`]), each side sorted back into bracket order. At most `limit`.
fn homogeneous_exchanges(
    s1: &[usize],
    s2: &[usize],
    limit: usize,
) -> Vec<(Vec<usize>, Vec<usize>)> {
    let mut out = vec![(s1.to_vec(), s2.to_vec())];
    // Positions in the bracket (BSNs) are the indices into s1 ++ s2.
    for k in 1..=s1.len().min(s2.len()) {
        let outs = subsets(s1.len(), k);
        let ins = subsets(s2.len(), k);
        if outs.len().saturating_mul(ins.len()) > limit {
            break;
        }
        let mut batch: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for o in &outs {
            for i in &ins {
                batch.push((o.clone(), i.iter().map(|&x| x + s1.len()).collect()));
            }
        }
        batch.sort_by(|(oa, ia), (ob, ib)| {
            let diff = |o: &[usize], i: &[usize]| {
                i.iter().sum::<usize>() as i64 - o.iter().sum::<usize>() as i64
            };
            diff(oa, ia)
                .cmp(&diff(ob, ib))
                .then_with(|| {
                    let mut a: Vec<usize> = oa.clone();
                    let mut b: Vec<usize> = ob.clone();
                    a.sort_unstable_by(|x, y| y.cmp(x));
                    b.sort_unstable_by(|x, y| y.cmp(x));
                    b.cmp(&a)
                })
                .then_with(|| ia.cmp(ib))
        });
        let all: Vec<usize> = s1.iter().chain(s2).copied().collect();
        for (o, i) in batch {
            let mut new1: Vec<usize> = (0..s1.len())
                .filter(|x| !o.contains(x))
                .chain(i.iter().copied())
                .collect();
            let mut new2: Vec<usize> = (s1.len()..all.len())
                .filter(|x| !i.contains(x))
                .chain(o.iter().copied())
                .collect();
            new1.sort_unstable();
            new2.sort_unstable();
            out.push((
                new1.into_iter().map(|x| all[x]).collect(),
                new2.into_iter().map(|x| all[x]).collect(),
            ));
            if out.len() >= limit {
                return out;
            }
        }
    }
    out
}

/// The `k`-element subsets of `0..n`, each in increasing order.
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn walk(start: usize, n: usize, k: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for x in start..n {
            if n - x < k - cur.len() {
                break;
            }
            cur.push(x);
            walk(x + 1, n, k, cur, out);
            cur.pop();
        }
    }
    walk(0, n, k, &mut current, &mut out);
    out
}
