//! What the `full` evaluation tells a listener as it adds its weights: the layout of the
//! tunable weights as one flat list (groups, offsets, the king danger's parameter groups),
//! the raw features of the king danger ([`Danger`]), and the [`Tracer`] the evaluation calls
//! at every weight it adds. The search's [`NoTrace`] does nothing and is compiled away; the
//! tuner's recorder (`trace.rs`) keeps the counts. A leaf below both `full/` and
//! `trace.rs`: it knows the evaluation's terms and the score pair, nothing else.

use super::Term;
use super::pair::S;

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
/// `full/king.rs`, `king_safety`), so the tuner fits them through the square, not through the
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
