//! The tunable weights of the `full` evaluation as one flat list, and the trace that records
//! how often each weight counts in a position (issue 15, the Texel tuner).
//!
//! The evaluation reads its weights from the generated `const` tables in `weights.rs`, as
//! fast as hand-written constants. Every place that adds a weight also tells a [`Tracer`]
//! "weight `i` counts `n` times for side `c`"; the search's tracer does nothing (and is
//! compiled away), the tuner's [`Trace`] keeps the counts. E is then a linear function of
//! the weights, apart from the king's danger from attacking pieces, which is quadratic
//! and which the trace keeps as its raw features per side ([`Danger`]; its parameters,
//! whole numbers, are the [`DANGER_GROUPS`]), the mating bonus against a bare king, which
//! it keeps as a plain value, and the drawish-ending scale factor, which it keeps as a
//! multiplier.

use std::fmt::Write as _;

use super::params::{S, SCALE_NORMAL, danger_penalty};
use super::{Acc, Scale, TERM_COUNT, Term, blend, weights};
use crate::chess::board::Board;

/// A group of weights: one constant or one table of `weights.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// The constant's name in `weights.rs`.
    pub name: &'static str,
    /// 1 for a single `S`, else the table's length.
    pub len: usize,
    /// Whether it is written as a table (`[S; len]`) even when `len` is 1.
    pub table: bool,
    /// The breakdown line the group's values are added to.
    pub term: Term,
}

const fn g(name: &'static str, len: usize, term: Term) -> Group {
    Group {
        name,
        len,
        table: len > 1,
        term,
    }
}

/// Every tunable weight group, in the order of the flat list.
pub const GROUPS: [Group; 62] = [
    g("MATERIAL", 6, Term::Material),
    g("PST_PAWN", 64, Term::PieceSquare),
    g("PST_KNIGHT", 64, Term::PieceSquare),
    g("PST_BISHOP", 64, Term::PieceSquare),
    g("PST_ROOK", 64, Term::PieceSquare),
    g("PST_QUEEN", 64, Term::PieceSquare),
    g("PST_KING", 64, Term::PieceSquare),
    g("MOBILITY_KNIGHT", 9, Term::Mobility),
    g("MOBILITY_BISHOP", 14, Term::Mobility),
    g("MOBILITY_ROOK", 15, Term::Mobility),
    g("MOBILITY_QUEEN", 28, Term::Mobility),
    g("DOUBLED", 1, Term::PawnStructure),
    g("ISOLATED", 1, Term::PawnStructure),
    g("ISOLATED_OPEN", 1, Term::PawnStructure),
    g("BACKWARD", 1, Term::PawnStructure),
    g("SUPPORTED", 8, Term::PawnStructure),
    g("PHALANX", 8, Term::PawnStructure),
    g("PASSED", 8, Term::PassedPawns),
    g("PASSED_ENEMY_KING_DIST", 1, Term::PassedPawns),
    g("PASSED_OWN_KING_DIST", 1, Term::PassedPawns),
    g("PASSED_BLOCKED", 1, Term::PassedPawns),
    g("PASSED_FREE", 1, Term::PassedPawns),
    g("UNSTOPPABLE", 1, Term::PassedPawns),
    g("BISHOP_PAIR", 1, Term::BishopPair),
    g("ROOK_OPEN_FILE", 1, Term::Rooks),
    g("ROOK_HALF_OPEN_FILE", 1, Term::Rooks),
    g("ROOK_ON_SEVENTH", 1, Term::Rooks),
    g("KNIGHT_OUTPOST", 1, Term::MinorPieces),
    g("BISHOP_OUTPOST", 1, Term::MinorPieces),
    g("BAD_BISHOP_PAWN", 1, Term::MinorPieces),
    g("THREAT_BY_PAWN", 6, Term::Threats),
    g("THREAT_BY_MINOR", 6, Term::Threats),
    g("THREAT_BY_ROOK", 1, Term::Threats),
    g("HANGING", 6, Term::Threats),
    g("TEMPO", 1, Term::Tempo),
    g("SHELTER_MISSING", 8, Term::KingSafety),
    g("SHELTER_OPEN_FILE", 1, Term::KingSafety),
    g("STORM", 8, Term::KingSafety),
    g("STORM_BLOCKED", 8, Term::KingSafety),
    g("ROOK_BEHIND_PASSER", 2, Term::PassedPawns),
    g("MINOR_BEHIND_PAWN", 1, Term::MinorPieces),
    g("KNIGHT_PAWNS", 1, Term::Material),
    g("ROOK_PAWNS", 1, Term::Material),
    g("PASSED_CONNECTED", 8, Term::PassedPawns),
    g("SPACE", 1, Term::PawnStructure),
    g("KING_PAWN_DISTANCE", 1, Term::PawnStructure),
    g("WEAK_KING_RING", 1, Term::KingSafety),
    g("ROOK_ON_KING_FILE", 1, Term::Rooks),
    g("PINNED", 6, Term::KingSafety),
    g("THREAT_BY_KING", 1, Term::Threats),
    g("THREAT_ON_MOVE", 1, Term::Threats),
    g("PASSED_SAFE_PATH", 1, Term::PassedPawns),
    g("PASSED_STOP_DEFENDED", 1, Term::PassedPawns),
    g("BACKWARD_OPEN", 1, Term::PawnStructure),
    g("PAWNLESS_FLANK", 1, Term::KingSafety),
    g("TRAPPED_ROOK", 1, Term::Rooks),
    g("BISHOP_LONG_DIAGONAL", 1, Term::MinorPieces),
    g("THREAT_PAWN_PUSH", 1, Term::Threats),
    g("RESTRICTED", 1, Term::Threats),
    g("WEAK_QUEEN_DEFENCE", 1, Term::Threats),
    g("KNIGHT_ON_QUEEN", 1, Term::Threats),
    g("SLIDER_ON_QUEEN", 1, Term::Threats),
];

/// Where group `i` starts in the flat list.
pub const fn offset(i: usize) -> usize {
    let mut o = 0;
    let mut k = 0;
    while k < i {
        o += GROUPS[k].len;
        k += 1;
    }
    o
}

/// How many weights the tuner can change.
pub const N_WEIGHTS: usize = offset(GROUPS.len());

// Offsets of the groups the evaluation indexes, by name.
pub(crate) const MATERIAL_AT: usize = offset(0);
pub(crate) const PST_AT: usize = offset(1);
pub(crate) const MOBILITY_AT: [usize; 4] = [offset(7), offset(8), offset(9), offset(10)];
pub(crate) const DOUBLED_AT: usize = offset(11);
pub(crate) const ISOLATED_AT: usize = offset(12);
pub(crate) const ISOLATED_OPEN_AT: usize = offset(13);
pub(crate) const BACKWARD_AT: usize = offset(14);
pub(crate) const SUPPORTED_AT: usize = offset(15);
pub(crate) const PHALANX_AT: usize = offset(16);
pub(crate) const PASSED_AT: usize = offset(17);
pub(crate) const PASSED_ENEMY_KING_DIST_AT: usize = offset(18);
pub(crate) const PASSED_OWN_KING_DIST_AT: usize = offset(19);
pub(crate) const PASSED_BLOCKED_AT: usize = offset(20);
pub(crate) const PASSED_FREE_AT: usize = offset(21);
pub(crate) const UNSTOPPABLE_AT: usize = offset(22);
pub(crate) const BISHOP_PAIR_AT: usize = offset(23);
pub(crate) const ROOK_OPEN_FILE_AT: usize = offset(24);
pub(crate) const ROOK_HALF_OPEN_FILE_AT: usize = offset(25);
pub(crate) const ROOK_ON_SEVENTH_AT: usize = offset(26);
pub(crate) const KNIGHT_OUTPOST_AT: usize = offset(27);
pub(crate) const BISHOP_OUTPOST_AT: usize = offset(28);
pub(crate) const BAD_BISHOP_PAWN_AT: usize = offset(29);
pub(crate) const THREAT_BY_PAWN_AT: usize = offset(30);
pub(crate) const THREAT_BY_MINOR_AT: usize = offset(31);
pub(crate) const THREAT_BY_ROOK_AT: usize = offset(32);
pub(crate) const HANGING_AT: usize = offset(33);
pub(crate) const TEMPO_AT: usize = offset(34);
pub(crate) const SHELTER_MISSING_AT: usize = offset(35);
pub(crate) const SHELTER_OPEN_FILE_AT: usize = offset(36);
pub(crate) const STORM_AT: usize = offset(37);
pub(crate) const STORM_BLOCKED_AT: usize = offset(38);
pub(crate) const ROOK_BEHIND_PASSER_AT: usize = offset(39);
pub(crate) const MINOR_BEHIND_PAWN_AT: usize = offset(40);
pub(crate) const KNIGHT_PAWNS_AT: usize = offset(41);
pub(crate) const ROOK_PAWNS_AT: usize = offset(42);
pub(crate) const PASSED_CONNECTED_AT: usize = offset(43);
pub(crate) const SPACE_AT: usize = offset(44);
pub(crate) const KING_PAWN_DISTANCE_AT: usize = offset(45);
pub(crate) const WEAK_KING_RING_AT: usize = offset(46);
pub(crate) const ROOK_ON_KING_FILE_AT: usize = offset(47);
pub(crate) const PINNED_AT: usize = offset(48);
pub(crate) const THREAT_BY_KING_AT: usize = offset(49);
pub(crate) const THREAT_ON_MOVE_AT: usize = offset(50);
pub(crate) const PASSED_SAFE_PATH_AT: usize = offset(51);
pub(crate) const PASSED_STOP_DEFENDED_AT: usize = offset(52);
pub(crate) const BACKWARD_OPEN_AT: usize = offset(53);
pub(crate) const PAWNLESS_FLANK_AT: usize = offset(54);
pub(crate) const TRAPPED_ROOK_AT: usize = offset(55);
pub(crate) const BISHOP_LONG_DIAGONAL_AT: usize = offset(56);
pub(crate) const THREAT_PAWN_PUSH_AT: usize = offset(57);
pub(crate) const RESTRICTED_AT: usize = offset(58);
pub(crate) const WEAK_QUEEN_DEFENCE_AT: usize = offset(59);
pub(crate) const KNIGHT_ON_QUEEN_AT: usize = offset(60);
pub(crate) const SLIDER_ON_QUEEN_AT: usize = offset(61);

/// A group of the king-danger parameters: whole numbers (not middlegame/endgame pairs),
/// one constant or one table of `weights.rs`. The danger they make is squared (see
/// `full.rs::king_safety`), so the tuner fits them through the square, not through the
/// linear trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DangerGroup {
    /// The constant's name in `weights.rs`.
    pub name: &'static str,
    /// 1 for a single number, else the table's length (a table whenever above 1).
    pub len: usize,
    /// Entries the tuner never moves: those no position uses (a pawn or a king is no
    /// attacker, nobody has 0 attackers with a weight) and the attacker-count table's
    /// anchor (4 attackers = 100%, since the table multiplies the attack weights and only
    /// their product is determined by the data).
    pub pinned: &'static [usize],
}

/// Every king-danger parameter group, in the order of the flat danger list.
pub const DANGER_GROUPS: [DangerGroup; 8] = [
    DangerGroup {
        name: "KING_ATTACK_WEIGHT",
        len: 6,
        pinned: &[0, 5],
    },
    DangerGroup {
        name: "KING_ATTACKERS_PERCENT",
        len: 8,
        pinned: &[0, 4],
    },
    DangerGroup {
        name: "KING_ZONE_HIT",
        len: 1,
        pinned: &[],
    },
    DangerGroup {
        name: "SAFE_CHECK",
        len: 6,
        pinned: &[0, 5],
    },
    DangerGroup {
        name: "NO_QUEEN_RELIEF",
        len: 1,
        pinned: &[],
    },
    DangerGroup {
        name: "UNSAFE_CHECK",
        len: 1,
        pinned: &[],
    },
    DangerGroup {
        name: "KING_BLOCKERS",
        len: 1,
        pinned: &[],
    },
    DangerGroup {
        name: "KING_DEFENDERS",
        len: 1,
        pinned: &[],
    },
];

/// Where danger group `i` starts in the flat danger list.
pub const fn danger_offset(i: usize) -> usize {
    let mut o = 0;
    let mut k = 0;
    while k < i {
        o += DANGER_GROUPS[k].len;
        k += 1;
    }
    o
}

/// How many king-danger parameters there are (pinned ones included).
pub const N_DANGER: usize = danger_offset(DANGER_GROUPS.len());

// Offsets of the danger groups in the flat danger list.
pub const KING_ATTACK_WEIGHT_AT: usize = danger_offset(0);
pub const KING_ATTACKERS_PERCENT_AT: usize = danger_offset(1);
pub const KING_ZONE_HIT_AT: usize = danger_offset(2);
pub const SAFE_CHECK_AT: usize = danger_offset(3);
pub const NO_QUEEN_RELIEF_AT: usize = danger_offset(4);
pub const UNSAFE_CHECK_AT: usize = danger_offset(5);
pub const KING_BLOCKERS_AT: usize = danger_offset(6);
pub const KING_DEFENDERS_AT: usize = danger_offset(7);

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

/// The raw features of the danger to one side's king from the other side's pieces: what
/// the tuner needs to compute the danger (and its gradient) with any parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Danger {
    /// Enemy pieces reaching the king zone, by dense kind (knight 1 … queen 4).
    pub attackers: [i32; 6],
    /// Attacked squares of the king zone, summed over those pieces.
    pub hits: i32,
    /// 1 for each kind (knight … queen) that has a safe check, else 0.
    pub checks: [i32; 6],
    /// Whether the attacking side has no queen.
    pub no_queen: bool,
    /// Kinds (knight … queen) whose only checks land on squares we defend.
    pub unsafe_checks: i32,
    /// Our pieces pinned to our king.
    pub blockers: i32,
    /// Our knights and bishops in our king's zone.
    pub defenders: i32,
}

impl Danger {
    /// How many enemy pieces reach the zone.
    pub fn attacker_count(&self) -> i32 {
        self.attackers.iter().sum()
    }

    /// The danger with the parameters `d` (flat, as [`current_danger`]), in the
    /// evaluation's integer arithmetic.
    pub fn value(&self, d: &[i32]) -> i32 {
        let weight: i32 = (0..6)
            .map(|k| self.attackers[k] * d[KING_ATTACK_WEIGHT_AT + k])
            .sum();
        let percent = d[KING_ATTACKERS_PERCENT_AT + self.attacker_count().min(7) as usize];
        let checks: i32 = (0..6).map(|k| self.checks[k] * d[SAFE_CHECK_AT + k]).sum();
        let mut danger = weight * percent / 100
            + d[KING_ZONE_HIT_AT] * self.hits
            + checks
            + d[UNSAFE_CHECK_AT] * self.unsafe_checks
            + d[KING_BLOCKERS_AT] * self.blockers
            + d[KING_DEFENDERS_AT] * self.defenders;
        if self.no_queen {
            danger -= d[NO_QUEEN_RELIEF_AT];
        }
        danger
    }
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

/// Hears which weights count in a position. The evaluation calls it at every weight it adds.
pub(crate) trait Tracer {
    /// Whether this tracer listens (the tuner's does; the search's does not, and then the
    /// evaluation may serve values from its tables instead of recounting the features).
    const ACTIVE: bool = true;
    /// Weight `index` counts `n` times for side `side` (0 White, 1 Black).
    fn add(&mut self, index: usize, side: usize, n: i32);
    /// A value of a term that is not linear in any tunable weight.
    fn fixed(&mut self, term: Term, side: usize, v: S);
    /// A piece of kind `kind` reaches the zone of side `king_side`'s king.
    fn king_attacker(&mut self, king_side: usize, kind: usize);
    /// The rest of the danger to side `king_side`'s king: every feature of `rest` but the
    /// attackers (which `king_attacker` counted).
    fn king_danger(&mut self, king_side: usize, rest: &Danger);
}

/// The search's tracer: does nothing, costs nothing.
pub(crate) struct NoTrace;

impl Tracer for NoTrace {
    const ACTIVE: bool = false;
    #[inline(always)]
    fn add(&mut self, _: usize, _: usize, _: i32) {}
    #[inline(always)]
    fn fixed(&mut self, _: Term, _: usize, _: S) {}
    #[inline(always)]
    fn king_attacker(&mut self, _: usize, _: usize) {}
    #[inline(always)]
    fn king_danger(&mut self, _: usize, _: &Danger) {}
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
    let eval = match scale {
        Some(Scale { factor, .. }) => unscaled * factor / SCALE_NORMAL,
        None => unscaled,
    };
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
    }
}

impl Trace {
    /// E rebuilt from the trace with `weights` and the danger parameters `danger`, with the
    /// evaluation's own integer rounding: per term and side Σ weight × count plus the fixed
    /// part plus (king safety) the penalty for the danger computed from its features,
    /// blended by the phase, summed, then scaled. With the evaluation's weights it is
    /// exactly [`Trace::eval`].
    pub fn rebuild(&self, weights: &[S], danger: &[i32]) -> i32 {
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
