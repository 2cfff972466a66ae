//! The Texel fit: find the weights that minimise the mean squared error between
//! sigmoid(K·E) and the game results of quiet positions, where E is the `full` evaluation
//! from White's view. K is fitted first, with the evaluation's current weights, and then
//! held; the weights follow by Adam on the full data set (every step sees every position,
//! so the fit is deterministic: the same data and settings give the same weights).
//!
//! E is linear in the weights through the evaluation's trace (see `eval::trace`), apart
//! from the king danger from attacking pieces, which is squared:
//! E = f · (Σᵢ dᵢ · (mgᵢ·ρ + egᵢ·(1−ρ)) + D₀ − D₁ + F), with dᵢ White's count of weight i
//! minus Black's, ρ the phase (1 = all pieces on), f the drawish-ending scale factor, F the
//! part that no tunable weight makes (mating), and D_c the blended penalty for the danger
//! to side c's king, computed from the trace's features with the danger parameters θ:
//! δ = (Σₖ aₖ·Wₖ)·P[min(n,7)]/100 + Z·h + Σₖ sₖ·Cₖ − R·q, and when δ > 0,
//! D = −min(δ²/DIV, CAP)·ρ − δ/EG_DIV·(1−ρ) (else 0). Its gradient goes through the square
//! (nothing past the cap, nothing where δ ≤ 0). The fit works in floating point and
//! ignores the evaluation's integer rounding.
//!
//! The fit's parameter vector is the weights as interleaved middlegame/endgame floats
//! (`2·N_WEIGHTS`), then the `N_DANGER` danger parameters.

use super::data::Labelled;
use crate::engine::eval::trace::{
    self, Danger, KING_ATTACK_WEIGHT_AT, KING_ATTACKERS_PERCENT_AT, KING_BLOCKERS_AT,
    KING_DEFENDERS_AT, KING_ZONE_HIT_AT, N_DANGER, N_WEIGHTS, NO_QUEEN_RELIEF_AT, SAFE_CHECK_AT,
    UNSAFE_CHECK_AT,
};
use crate::engine::eval::{DANGER_EG_DIV, DANGER_MG_CAP, DANGER_MG_DIV, PHASE_MAX, S};

/// Where the danger parameters start in the fit's parameter vector.
const DANGER_FROM: usize = 2 * N_WEIGHTS;

/// The danger's features for one side, compact: attackers by kind (knight … queen), their
/// number, attacked zone squares, safe checks as bits (knight … queen), no queen.
#[derive(Clone, Copy, Debug, Default)]
struct DangerRow {
    attackers: [u8; 4],
    count: u8,
    hits: u8,
    checks: u8,
    no_queen: bool,
    unsafe_checks: u8,
    blockers: u8,
    defenders: u8,
}

impl DangerRow {
    fn new(d: &Danger) -> DangerRow {
        let small = |n: i32| n.clamp(0, 255) as u8;
        let mut checks = 0;
        for k in 0..4 {
            checks |= u8::from(d.checks[k + 1] != 0) << k;
        }
        DangerRow {
            attackers: [1, 2, 3, 4].map(|k| small(d.attackers[k])),
            count: small(d.attacker_count()),
            hits: small(d.hits),
            checks,
            no_queen: d.no_queen,
            unsafe_checks: small(d.unsafe_checks),
            blockers: small(d.blockers),
            defenders: small(d.defenders),
        }
    }

    /// Nothing can make a danger here whatever the parameters.
    fn is_empty(&self) -> bool {
        self.count == 0
            && self.hits == 0
            && self.checks == 0
            && !self.no_queen
            && self.unsafe_checks == 0
            && self.blockers == 0
            && self.defenders == 0
    }

    /// The danger with the parameters `th` (the danger part of the parameter vector), in
    /// floating point, and the summed attack weight (which the percentage multiplies).
    fn danger(&self, th: &[f64]) -> (f64, f64) {
        let mut weight = 0.0;
        for k in 0..4 {
            weight += self.attackers[k] as f64 * th[KING_ATTACK_WEIGHT_AT + 1 + k];
        }
        let percent = th[KING_ATTACKERS_PERCENT_AT + self.count.min(7) as usize];
        let mut d = weight * percent / 100.0 + th[KING_ZONE_HIT_AT] * self.hits as f64;
        for k in 0..4 {
            if self.checks & (1 << k) != 0 {
                d += th[SAFE_CHECK_AT + 1 + k];
            }
        }
        if self.no_queen {
            d -= th[NO_QUEEN_RELIEF_AT];
        }
        d += th[UNSAFE_CHECK_AT] * self.unsafe_checks as f64
            + th[KING_BLOCKERS_AT] * self.blockers as f64
            + th[KING_DEFENDERS_AT] * self.defenders as f64;
        (d, weight)
    }

    /// The blended penalty (≤ 0) for the danger with `th`, at phase `rho`, and its
    /// derivative with respect to the danger; also the attack weight (the gradient of the
    /// share table needs it).
    fn penalty(&self, th: &[f64], rho: f64) -> Penalty {
        let (d, weight) = self.danger(th);
        if d <= 0.0 {
            return Penalty {
                value: 0.0,
                slope: 0.0,
                weight,
            };
        }
        let sq = d * d / DANGER_MG_DIV as f64;
        let cap = DANGER_MG_CAP as f64;
        let (mg, mg_slope) = if sq < cap {
            (-sq, -2.0 * d / DANGER_MG_DIV as f64)
        } else {
            (-cap, 0.0)
        };
        let eg_div = DANGER_EG_DIV as f64;
        Penalty {
            value: mg * rho - d / eg_div * (1.0 - rho),
            slope: mg_slope * rho - (1.0 - rho) / eg_div,
            weight,
        }
    }

    /// Adds `de` × ∂(penalty)/∂θ to `grad` (the danger part), given the penalty's slope.
    fn add_gradient(&self, th: &[f64], p: &Penalty, de: f64, grad: &mut [f64]) {
        let g = de * p.slope;
        if g == 0.0 {
            return;
        }
        let m = self.count.min(7) as usize;
        let percent = th[KING_ATTACKERS_PERCENT_AT + m];
        for k in 0..4 {
            grad[KING_ATTACK_WEIGHT_AT + 1 + k] += g * self.attackers[k] as f64 * percent / 100.0;
        }
        grad[KING_ATTACKERS_PERCENT_AT + m] += g * p.weight / 100.0;
        grad[KING_ZONE_HIT_AT] += g * self.hits as f64;
        for k in 0..4 {
            if self.checks & (1 << k) != 0 {
                grad[SAFE_CHECK_AT + 1 + k] += g;
            }
        }
        if self.no_queen {
            grad[NO_QUEEN_RELIEF_AT] -= g;
        }
        grad[UNSAFE_CHECK_AT] += g * self.unsafe_checks as f64;
        grad[KING_BLOCKERS_AT] += g * self.blockers as f64;
        grad[KING_DEFENDERS_AT] += g * self.defenders as f64;
    }
}

/// A side's danger penalty, blended, with its derivative by the danger.
struct Penalty {
    value: f64,
    slope: f64,
    weight: f64,
}

/// One position, ready for fitting.
#[derive(Clone, Debug)]
struct Row {
    /// Range into `Dataset::terms`.
    start: u32,
    end: u32,
    /// Phase as a fraction: 1 with all pieces on, 0 with none.
    rho: f64,
    /// The scale factor as a fraction (1 = none).
    scale: f64,
    /// The fixed part of E (before scaling), in centipawns.
    fixed: f64,
    /// The danger to White's king and to Black's.
    danger: [DangerRow; 2],
    result: f64,
}

/// Positions as traces: per position the weights that count and how often (White − Black),
/// and the king danger's features.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    rows: Vec<Row>,
    terms: Vec<(u32, f64)>,
}

/// The length of the fit's parameter vector: interleaved weights, then danger parameters.
pub const N_PARAMS: usize = 2 * N_WEIGHTS + N_DANGER;

impl Dataset {
    /// Traces every position with the `full` evaluation.
    pub fn new(positions: &[Labelled]) -> Dataset {
        let mut ds = Dataset::default();
        for p in positions {
            let t = trace::trace(&p.board);
            let start = ds.terms.len() as u32;
            for &(i, [w, b]) in &t.coefs {
                if w != b {
                    ds.terms.push((i as u32, (w - b) as f64));
                }
            }
            let rho = t.phase as f64 / PHASE_MAX as f64;
            let fixed: f64 = t
                .fixed
                .iter()
                .map(|side| {
                    let blend = |v: S| v.mg as f64 * rho + v.eg as f64 * (1.0 - rho);
                    blend(side[0]) - blend(side[1])
                })
                .sum();
            ds.rows.push(Row {
                start,
                end: ds.terms.len() as u32,
                rho,
                scale: t.scale as f64 / 64.0,
                fixed,
                danger: [DangerRow::new(&t.danger[0]), DangerRow::new(&t.danger[1])],
                result: p.result,
            });
        }
        ds
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// E of row `r` with parameters `w` (see [`N_PARAMS`]).
    fn eval(&self, r: &Row, w: &[f64]) -> f64 {
        let mut e = r.fixed;
        for &(i, d) in &self.terms[r.start as usize..r.end as usize] {
            let i = i as usize;
            e += d * (w[2 * i] * r.rho + w[2 * i + 1] * (1.0 - r.rho));
        }
        let th = &w[DANGER_FROM..];
        for (c, d) in r.danger.iter().enumerate() {
            if !d.is_empty() {
                let v = d.penalty(th, r.rho).value;
                e += if c == 0 { v } else { -v };
            }
        }
        e * r.scale
    }

    /// E (White's view, floating point) of position `i` with parameters `w` (interleaved
    /// weights, then danger parameters: [`to_params`]).
    pub fn evaluation(&self, i: usize, w: &[f64]) -> f64 {
        self.eval(&self.rows[i], w)
    }

    /// Mean squared error of sigmoid(K·E) against the results.
    pub fn error(&self, w: &[f64], k: f64) -> f64 {
        assert_eq!(
            w.len(),
            N_PARAMS,
            "weights and danger parameters (to_params)"
        );
        if self.rows.is_empty() {
            return 0.0;
        }
        let sum: f64 = self
            .rows
            .iter()
            .map(|r| {
                let d = r.result - sigmoid(k * self.eval(r, w));
                d * d
            })
            .sum();
        sum / self.rows.len() as f64
    }

    /// The error's gradient with respect to every parameter (laid out as `w`), the danger
    /// parameters' through the square.
    pub fn gradient(&self, w: &[f64], k: f64, grad: &mut [f64]) {
        assert_eq!(
            w.len(),
            N_PARAMS,
            "weights and danger parameters (to_params)"
        );
        assert_eq!(grad.len(), N_PARAMS);
        grad.iter_mut().for_each(|g| *g = 0.0);
        let n = self.rows.len().max(1) as f64;
        let th = &w[DANGER_FROM..];
        let (grad_w, grad_th) = grad.split_at_mut(DANGER_FROM);
        for r in &self.rows {
            // E once, keeping the danger penalties for their gradient.
            let mut e = r.fixed;
            for &(i, d) in &self.terms[r.start as usize..r.end as usize] {
                let i = i as usize;
                e += d * (w[2 * i] * r.rho + w[2 * i + 1] * (1.0 - r.rho));
            }
            let pens = r
                .danger
                .map(|d| (!d.is_empty()).then(|| d.penalty(th, r.rho)));
            for (c, p) in pens.iter().enumerate() {
                if let Some(p) = p {
                    e += if c == 0 { p.value } else { -p.value };
                }
            }
            let p = sigmoid(k * e * r.scale);
            // d(r − p)²/dE = −2 (r − p) · p (1 − p) · K
            let de = 2.0 * (p - r.result) * p * (1.0 - p) * k / n * r.scale;
            for &(i, d) in &self.terms[r.start as usize..r.end as usize] {
                let i = i as usize;
                grad_w[2 * i] += de * d * r.rho;
                grad_w[2 * i + 1] += de * d * (1.0 - r.rho);
            }
            for (c, pen) in pens.iter().enumerate() {
                if let Some(pen) = pen {
                    let sign = if c == 0 { 1.0 } else { -1.0 };
                    r.danger[c].add_gradient(th, pen, de * sign, grad_th);
                }
            }
        }
    }
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The weights as the interleaved floats the fit works on.
pub fn to_floats(weights: &[S]) -> Vec<f64> {
    weights
        .iter()
        .flat_map(|v| [v.mg as f64, v.eg as f64])
        .collect()
}

/// The fit's whole parameter vector: the weights interleaved, then the danger parameters.
pub fn to_params(weights: &[S], danger: &[i32]) -> Vec<f64> {
    let mut w = to_floats(weights);
    w.extend(danger.iter().map(|&d| d as f64));
    w
}

/// The weights' part of a parameter vector (or a weights-only vector) rounded back to whole
/// centipawns.
pub fn to_weights(w: &[f64]) -> Vec<S> {
    w[..(2 * N_WEIGHTS).min(w.len())]
        .chunks(2)
        .map(|p| S {
            mg: p[0].round() as i32,
            eg: p[1].round() as i32,
        })
        .collect()
}

/// The danger parameters of a parameter vector, rounded to whole numbers.
pub fn to_danger(w: &[f64]) -> Vec<i32> {
    w[DANGER_FROM..].iter().map(|v| v.round() as i32).collect()
}

/// The K that minimises the error with weights `w`: a golden-section search over
/// 0.0001..0.05 (the error is unimodal in K), a fixed number of steps.
pub fn fit_k(ds: &Dataset, w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.0001f64, 0.05f64);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = hi - phi * (hi - lo);
    let mut b = lo + phi * (hi - lo);
    let (mut fa, mut fb) = (ds.error(w, a), ds.error(w, b));
    for _ in 0..60 {
        if fa < fb {
            hi = b;
            b = a;
            fb = fa;
            a = hi - phi * (hi - lo);
            fa = ds.error(w, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + phi * (hi - lo);
            fb = ds.error(w, b);
        }
    }
    (lo + hi) / 2.0
}

/// How to fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Adam steps over the whole data set.
    pub iterations: usize,
    /// Adam's step size, in centipawns.
    pub rate: f64,
    /// Weight of the pull towards the starting weights: `lambda · Σ (w − w₀)²` (w in
    /// centipawns) is added to the error, so that a weight the data says little about
    /// stays where chess reasoning put it instead of fitting noise.
    pub lambda: f64,
    /// Groups (by their name in `weights.rs`, e.g. `MATERIAL` or `KING_ATTACKERS_PERCENT`)
    /// the fit leaves alone. With the material fixed, the evaluation keeps its scale (a
    /// pawn stays worth about 100), which the search's margins are set for.
    pub frozen: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            iterations: 400,
            rate: 1.0,
            lambda: 1e-6,
            frozen: Vec::new(),
        }
    }
}

/// What a fit found.
#[derive(Clone, Debug)]
pub struct Fitted {
    pub k: f64,
    pub error_before: f64,
    /// With the fitted parameters as floats.
    pub error_after: f64,
    /// With the fitted parameters rounded to whole numbers (what the evaluation uses).
    pub error_rounded: f64,
    pub weights: Vec<S>,
    /// The king-danger parameters (flat, as `trace::current_danger`).
    pub danger: Vec<i32>,
    /// On the held-out positions, if any: before and after (rounded parameters).
    pub validation: Option<(f64, f64)>,
}

/// Which entries of the parameter vector (see [`N_PARAMS`]) stay where they are: those of
/// the groups `frozen` names (weight groups and danger groups alike) and the danger
/// parameters that are always pinned; or the first unknown name.
pub fn frozen_mask(frozen: &[String]) -> Result<Vec<bool>, String> {
    let mut mask = vec![false; N_PARAMS];
    for (i, &p) in trace::danger_pinned().iter().enumerate() {
        mask[DANGER_FROM + i] = p;
    }
    for name in frozen {
        if let Some(i) = trace::GROUPS
            .iter()
            .position(|g| g.name.eq_ignore_ascii_case(name))
        {
            let at = 2 * trace::offset(i);
            mask[at..at + 2 * trace::GROUPS[i].len].fill(true);
        } else if let Some(i) = trace::DANGER_GROUPS
            .iter()
            .position(|g| g.name.eq_ignore_ascii_case(name))
        {
            let at = DANGER_FROM + trace::danger_offset(i);
            mask[at..at + trace::DANGER_GROUPS[i].len].fill(true);
        } else {
            return Err(format!("no weight group is called '{name}'"));
        }
    }
    Ok(mask)
}

/// Fits K to the starting weights `initial` and danger parameters `initial_danger`, then
/// all of them by Adam (see [`Settings`]). `progress` hears (step, error) every 50 steps.
/// An unknown frozen group is an error.
pub fn fit(
    ds: &Dataset,
    held_out: Option<&Dataset>,
    initial: &[S],
    initial_danger: &[i32],
    settings: &Settings,
    mut progress: impl FnMut(usize, f64),
) -> Result<Fitted, String> {
    if initial.len() != N_WEIGHTS {
        return Err(format!(
            "{} starting weights; the evaluation has {N_WEIGHTS}",
            initial.len()
        ));
    }
    if initial_danger.len() != N_DANGER {
        return Err(format!(
            "{} starting danger parameters; the evaluation has {N_DANGER}",
            initial_danger.len()
        ));
    }
    let frozen = frozen_mask(&settings.frozen)?;
    let w0 = to_params(initial, initial_danger);
    let mut w = w0.clone();
    let k = fit_k(ds, &w);
    let error_before = ds.error(&w, k);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut grad = vec![0.0; w.len()];
    for step in 1..=settings.iterations {
        ds.gradient(&w, k, &mut grad);
        for i in 0..w.len() {
            grad[i] = if frozen[i] {
                0.0
            } else {
                grad[i] + 2.0 * settings.lambda * (w[i] - w0[i])
            };
        }
        let c1 = 1.0 - b1.powi(step as i32);
        let c2 = 1.0 - b2.powi(step as i32);
        for i in 0..w.len() {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            w[i] -= settings.rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        if step % 50 == 0 {
            progress(step, ds.error(&w, k));
        }
    }
    let error_after = ds.error(&w, k);
    let weights = to_weights(&w);
    let danger = to_danger(&w);
    let rounded = to_params(&weights, &danger);
    let error_rounded = ds.error(&rounded, k);
    let validation = held_out.map(|v| (v.error(&w0, k), v.error(&rounded, k)));
    Ok(Fitted {
        validation,
        k,
        error_before,
        error_after,
        error_rounded,
        weights,
        danger,
    })
}

/// The header the weights file carries: where its numbers came from.
pub fn header(f: &Fitted, data: &str, positions: usize, settings: &Settings) -> String {
    format!(
        "Fitted to {positions} positions of {data}: {} Adam steps of {} cp, lambda {:e}{};\n\
         K = {:.8}; mean squared error {:.8} before, {:.8} after ({:.8} rounded).{}",
        settings.iterations,
        settings.rate,
        settings.lambda,
        if settings.frozen.is_empty() {
            String::new()
        } else {
            format!(", {} fixed", settings.frozen.join(" "))
        },
        f.k,
        f.error_before,
        f.error_after,
        f.error_rounded,
        match f.validation {
            Some((a, b)) => format!("\nHeld-out positions: error {a:.8} before, {b:.8} after."),
            None => String::new(),
        }
    )
}
