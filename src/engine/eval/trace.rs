//! The tuner's view of the `full` evaluation: the tunable weights as one flat list, the
//! trace that records how often each weight counts in a position (for the Texel tuner), and
//! the writer of `weights.rs`.
//!
//! The evaluation reads its weights from the generated `const` tables in `weights.rs`, as
//! fast as hand-written constants. Every place that adds a weight also tells a [`Tracer`]
//! "weight `i` counts `n` times for side `c`"; the search's tracer does nothing (and is
//! compiled away), the tuner's [`Trace`] keeps the counts. E is then a linear function of
//! the weights, apart from the king's danger from attacking pieces, which is quadratic
//! and which the trace keeps as its raw features per side ([`Danger`]; its parameters,
//! whole numbers, are the [`DANGER_GROUPS`]), the mating bonus against a bare king, which
//! it keeps as a plain value, and the drawish-ending scale factor, which it keeps as a
//! multiplier. The flat list's layout and the [`Tracer`] live in `tracer.rs` (below the
//! evaluation) and are re-exported here.

use std::fmt::Write as _;

use super::params::{S, SCALE_NORMAL, danger_penalty};
use super::tracer::Tracer;
pub use super::tracer::{
    DANGER_GROUPS, Danger, DangerGroup, GROUPS, Group, KING_ATTACK_WEIGHT_AT,
    KING_ATTACKERS_PERCENT_AT, KING_BLOCKERS_AT, KING_DEFENDERS_AT, KING_ZONE_HIT_AT, N_DANGER,
    N_WEIGHTS, NO_QUEEN_RELIEF_AT, SAFE_CHECK_AT, UNSAFE_CHECK_AT, danger_offset, offset,
};
use super::{Acc, Scale, TERM_COUNT, Term, blend, weights};
use crate::chess::board::Board;

/// Which entries of the flat danger list the tuner never moves.
pub fn danger_pinned() -> Vec<bool> {
    let mut mask = vec![false; N_DANGER];
    for (i, gr) in DANGER_GROUPS.iter().enumerate() {
        for &p in gr.pinned {
            mask[danger_offset(i) + p] = true;
        }
    }
    mask
}

/// The king-danger parameters the evaluation uses now (those of `weights.rs`), flat.
pub fn current_danger() -> Vec<i32> {
    let d = weights::flat_danger();
    debug_assert_eq!(d.len(), N_DANGER);
    d
}

/// The group a flat index belongs to, and the index within it.
pub fn group_of(index: usize) -> Option<(usize, usize)> {
    let mut start = 0;
    for (i, gr) in GROUPS.iter().enumerate() {
        if index < start + gr.len {
            return Some((i, index - start));
        }
        start += gr.len;
    }
    None
}

/// The weights the evaluation uses now (those of `weights.rs`), as a flat list.
pub fn current() -> Vec<S> {
    let w = weights::flat();
    debug_assert_eq!(w.len(), N_WEIGHTS);
    w
}

/// What the `full` evaluation of one position is made of: per weight and side, how often
/// the weight counts; the king danger's features per side; the fixed (non-tunable) part per
/// term and side; the phase and scale.
#[derive(Clone, Debug)]
pub struct Trace {
    /// `(index, [white count, black count])` for every weight that counts at all.
    pub coefs: Vec<(usize, [i32; 2])>,
    /// Per side: the danger to that side's king from the other side's pieces. It counts
    /// for the side whose king it is (a penalty in its `KingSafety` term).
    pub danger: [Danger; 2],
    /// Per term and side: the part not made of tunable weights.
    pub fixed: [[S; 2]; TERM_COUNT],
    /// 0..=PHASE_MAX.
    pub phase: i32,
    /// The drawish-ending scale factor in 64ths (64 when none applied).
    pub scale: i32,
    /// E as the evaluation computed it (White's view).
    pub eval: i32,
    /// The value of a known ending ([`super::known`]), which replaces the weighted sum
    /// whatever the weights: the fit still sees the terms as they are.
    pub known: Option<i32>,
}

#[derive(Default)]
struct Recorder {
    counts: Vec<[i32; 2]>,
    danger: [Danger; 2],
    fixed: [[S; 2]; TERM_COUNT],
}

impl Tracer for Recorder {
    fn add(&mut self, index: usize, side: usize, n: i32) {
        self.counts[index][side] += n;
    }
    fn fixed(&mut self, term: Term, side: usize, v: S) {
        self.fixed[term as usize][side] += v;
    }
    fn king_attacker(&mut self, king_side: usize, kind: usize) {
        self.danger[king_side].attackers[kind] += 1;
    }
    fn king_danger(&mut self, king_side: usize, rest: &Danger) {
        let d = &mut self.danger[king_side];
        *d = Danger {
            attackers: d.attackers,
            ..*rest
        };
    }
}

/// Evaluates `board` with the `full` evaluation and records its trace.
pub fn trace(board: &Board) -> Trace {
    let mut rec = Recorder {
        counts: vec![[0; 2]; N_WEIGHTS],
        ..Recorder::default()
    };
    let mut acc = Acc::default();
    let phase = super::full::evaluate(board, &mut acc, &mut rec);
    let unscaled = super::Outcome::unscaled(&acc, Some(phase));
    let scale = super::full::scale(board, unscaled);
    let scaled = match scale {
        Some(Scale { factor, .. }) => unscaled * factor / SCALE_NORMAL,
        None => unscaled,
    };
    let known =
        super::known::adjust(board, scaled, super::known::Scaling::ExactOnly).map(|k| k.value);
    let eval = known.unwrap_or(scaled);
    Trace {
        coefs: rec
            .counts
            .iter()
            .enumerate()
            .filter(|(_, c)| c[0] != 0 || c[1] != 0)
            .map(|(i, &c)| (i, c))
            .collect(),
        danger: rec.danger,
        fixed: rec.fixed,
        phase,
        scale: scale.map_or(SCALE_NORMAL, |s| s.factor),
        eval,
        known,
    }
}

impl Trace {
    /// E rebuilt from the trace with `weights` and the danger parameters `danger`, with the
    /// evaluation's own integer rounding: per term and side Σ weight × count plus the fixed
    /// part plus (king safety) the penalty for the danger computed from its features,
    /// blended by the phase, summed, then scaled; a known ending's value instead when there
    /// is one. With the evaluation's weights it is exactly [`Trace::eval`].
    pub fn rebuild(&self, weights: &[S], danger: &[i32]) -> i32 {
        if let Some(v) = self.known {
            return v;
        }
        let mut per_term = self.fixed;
        for (c, d) in self.danger.iter().enumerate() {
            per_term[Term::KingSafety as usize][c] += danger_penalty(d.value(danger));
        }
        for &(i, [w, b]) in &self.coefs {
            let t = GROUPS[group_of(i).expect("trace indices are in range").0].term as usize;
            per_term[t][0] += weights[i] * w;
            per_term[t][1] += weights[i] * b;
        }
        let unscaled: i32 = per_term
            .iter()
            .map(|t| blend(t[0], Some(self.phase)) - blend(t[1], Some(self.phase)))
            .sum();
        unscaled * self.scale / SCALE_NORMAL
    }
}

/// `weights` and the king-danger parameters `danger` as the Rust source of `weights.rs`
/// (what the tuner writes and we commit).
pub fn write_weights(weights: &[S], danger: &[i32], header: &str) -> String {
    let mut out = String::new();
    out.push_str(
        "//! The weights of the `full` evaluation: generated by `ox88 tune` (src/tune/), do not\n",
    );
    out.push_str("//! edit by hand. Each is a middlegame/endgame pair. Piece-square tables are board diagrams\n");
    out.push_str("//! from White's side, rank 8 first; Black reads them with the ranks flipped.\n");
    for line in header.lines() {
        let _ = writeln!(out, "//! {line}");
    }
    out.push_str("\nuse super::pair::{S, s};\n");
    let mut at = 0;
    for gr in GROUPS.iter().filter(|g| g.len > 0) {
        let vals = &weights[at..at + gr.len];
        at += gr.len;
        out.push('\n');
        if !gr.table {
            let v = vals[0];
            let _ = writeln!(
                out,
                "pub(crate) const {}: S = s({}, {});",
                gr.name, v.mg, v.eg
            );
            continue;
        }
        let _ = writeln!(out, "pub(crate) const {}: [S; {}] = [", gr.name, gr.len);
        for row in vals.chunks(8) {
            let cells: Vec<String> = row
                .iter()
                .map(|v| format!("s({:>4}, {:>4}),", v.mg, v.eg))
                .collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
        out.push_str("];\n");
    }
    out.push_str("\n// King danger from attacking pieces: whole numbers, not pairs. The danger they add up to\n// is squared for the middlegame penalty (`full.rs::king_safety`, `params::danger_penalty`).\n");
    let mut at = 0;
    for gr in &DANGER_GROUPS {
        let vals = &danger[at..at + gr.len];
        at += gr.len;
        out.push('\n');
        if gr.len == 1 {
            let _ = writeln!(out, "pub(crate) const {}: i32 = {};", gr.name, vals[0]);
            continue;
        }
        let _ = writeln!(out, "pub(crate) const {}: [i32; {}] = [", gr.name, gr.len);
        for row in vals.chunks(8) {
            let cells: Vec<String> = row.iter().map(|v| format!("{v:>4},")).collect();
            let _ = writeln!(out, "    {}", cells.join(" "));
        }
        out.push_str("];\n");
    }
    out.push_str("\n/// Every weight above in the order of `trace::GROUPS`.\npub(crate) fn flat() -> Vec<S> {\n    let mut v = Vec::new();\n");
    for gr in GROUPS.iter().filter(|g| g.len > 0) {
        if gr.table {
            let _ = writeln!(out, "    v.extend_from_slice(&{});", gr.name);
        } else {
            let _ = writeln!(out, "    v.push({});", gr.name);
        }
    }
    out.push_str("    v\n}\n");
    out.push_str("\n/// Every king-danger parameter above in the order of `trace::DANGER_GROUPS`.\npub(crate) fn flat_danger() -> Vec<i32> {\n    let mut v = Vec::new();\n");
    for gr in &DANGER_GROUPS {
        if gr.len > 1 {
            let _ = writeln!(out, "    v.extend_from_slice(&{});", gr.name);
        } else {
            let _ = writeln!(out, "    v.push({});", gr.name);
        }
    }
    out.push_str("    v\n}\n");
    out
}
