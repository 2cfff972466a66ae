//! The Texel fit: find the weights that minimise the mean squared error between
//! sigmoid(K·E) and the game results of quiet positions, where E is the `full` evaluation
//! from White's view. K is fitted first, with the evaluation's current weights, and then
//! held; the weights follow by Adam on the full data set (every step sees every position,
//! so the fit is deterministic: the same data and settings give the same weights).
//!
//! E is linear in the weights through the evaluation's trace (see `eval::trace`):
//! E = f · (Σᵢ dᵢ · (mgᵢ·ρ + egᵢ·(1−ρ)) + F), with dᵢ White's count of weight i minus
//! Black's, ρ the phase (1 = all pieces on), f the drawish-ending scale factor and F the
//! part that no tunable weight makes (king safety, mating). The fit works in floating point
//! and ignores the evaluation's integer rounding.

use super::data::Labelled;
use crate::engine::eval::trace::{self, N_WEIGHTS};
use crate::engine::eval::{PHASE_MAX, S};

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
    result: f64,
}

/// Positions as traces: per position the weights that count and how often (White − Black).
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    rows: Vec<Row>,
    terms: Vec<(u32, f64)>,
}

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

    /// E of row `r` with weights `w` (mg and eg interleaved: `w[2i]`, `w[2i+1]`).
    fn eval(&self, r: &Row, w: &[f64]) -> f64 {
        let mut e = r.fixed;
        for &(i, d) in &self.terms[r.start as usize..r.end as usize] {
            let i = i as usize;
            e += d * (w[2 * i] * r.rho + w[2 * i + 1] * (1.0 - r.rho));
        }
        e * r.scale
    }

    /// Mean squared error of sigmoid(K·E) against the results.
    pub fn error(&self, w: &[f64], k: f64) -> f64 {
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

    /// The error's gradient with respect to every weight (interleaved as `w`).
    fn gradient(&self, w: &[f64], k: f64, grad: &mut [f64]) {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let n = self.rows.len().max(1) as f64;
        for r in &self.rows {
            let p = sigmoid(k * self.eval(r, w));
            // d(r − p)²/dE = −2 (r − p) · p (1 − p) · K
            let de = 2.0 * (p - r.result) * p * (1.0 - p) * k / n * r.scale;
            for &(i, d) in &self.terms[r.start as usize..r.end as usize] {
                let i = i as usize;
                grad[2 * i] += de * d * r.rho;
                grad[2 * i + 1] += de * d * (1.0 - r.rho);
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

/// Rounded back to whole centipawns.
pub fn to_weights(w: &[f64]) -> Vec<S> {
    w.chunks(2)
        .map(|p| S {
            mg: p[0].round() as i32,
            eg: p[1].round() as i32,
        })
        .collect()
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
    /// Groups (by their name in `weights.rs`, e.g. `MATERIAL`) the fit leaves alone. With
    /// the material fixed, the evaluation keeps its scale (a pawn stays worth about 100),
    /// which the search's margins are set for.
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
    /// With the fitted weights as floats.
    pub error_after: f64,
    /// With the fitted weights rounded to whole centipawns (what the evaluation uses).
    pub error_rounded: f64,
    pub weights: Vec<S>,
    /// On the held-out positions, if any: before and after (rounded weights).
    pub validation: Option<(f64, f64)>,
}

/// Which of the flat weights `frozen` names, or the first unknown name.
pub fn frozen_mask(frozen: &[String]) -> Result<Vec<bool>, String> {
    let mut mask = vec![false; N_WEIGHTS];
    for name in frozen {
        let i = trace::GROUPS
            .iter()
            .position(|g| g.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("no weight group is called '{name}'"))?;
        let at = trace::offset(i);
        mask[at..at + trace::GROUPS[i].len].fill(true);
    }
    Ok(mask)
}

/// Fits K to `initial`, then the weights by Adam (see [`Settings`]). `progress` hears
/// (step, error) every 50 steps. An unknown frozen group is an error.
pub fn fit(
    ds: &Dataset,
    held_out: Option<&Dataset>,
    initial: &[S],
    settings: &Settings,
    mut progress: impl FnMut(usize, f64),
) -> Result<Fitted, String> {
    if initial.len() != N_WEIGHTS {
        return Err(format!(
            "{} starting weights; the evaluation has {N_WEIGHTS}",
            initial.len()
        ));
    }
    let frozen = frozen_mask(&settings.frozen)?;
    let w0 = to_floats(initial);
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
            grad[i] = if frozen[i / 2] {
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
    let error_rounded = ds.error(&to_floats(&weights), k);
    let validation = held_out.map(|v| (v.error(&w0, k), v.error(&to_floats(&weights), k)));
    Ok(Fitted {
        validation,
        k,
        error_before,
        error_after,
        error_rounded,
        weights,
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
