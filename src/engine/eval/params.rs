//! The numbers of the `full` evaluation: material, piece-square tables and the weights of
//! every term, each as a middlegame/endgame pair (`S`). They are our own design, set by
//! chess reasoning (what a piece wants in each phase) and checked in play; seed 002 gives
//! the idea (E = Σ Kᵢ·Fᵢ) but no weights beyond material.

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A middlegame/endgame score pair; the two are blended by the game phase at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct S {
    pub mg: i32,
    pub eg: i32,
}

pub(crate) const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}

// ---- material and phase ------------------------------------------------------------------

/// Material of the `full` evaluation, by dense kind index (pawn, knight, bishop, rook, queen,
/// king). Pawns and rooks gain in the endgame (pawns promote, rooks get open lines); the
/// knight loses a little as the board empties and long-range pieces dominate.
pub(crate) const MATERIAL: [S; 6] = [
    s(100, 125),
    s(320, 300),
    s(330, 325),
    s(500, 535),
    s(950, 990),
    s(0, 0),
];

/// The middlegame column of `MATERIAL`: what taking a piece is worth in the opening and
/// middlegame, for callers that need one number per kind (delta pruning's margins).
pub const MATERIAL_MG: [i32; 6] = {
    let mut t = [0; 6];
    let mut i = 0;
    while i < 6 {
        t[i] = MATERIAL[i].mg;
        i += 1;
    }
    t
};

/// Phase weight per kind: the phase is 24 with all minor and major pieces on the board
/// (4 minors × 1 + 4 rooks × 2 + 2 queens × 4) and 0 with none; pawns and kings do not count.
pub(crate) const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const PHASE_MAX: i32 = 24;

// ---- piece-square tables -------------------------------------------------------------------
//
// Written as a board diagram from White's side: the first row is rank 8, the last rank 1.
// Black uses the same table with the ranks flipped.

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     28,  32,  34,  38,  38,  34,  32,  28,
     10,  14,  20,  27,  27,  20,  14,  10,
      0,   4,  10,  21,  21,  10,   4,   0,
     -4,   0,   6,  17,  17,   6,   0,  -4,
     -4,  -2,   2,   6,   6,   0,  -2,  -4,
     -6,  -2,  -4, -14, -14,   4,   5,  -6,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     42,  40,  38,  36,  36,  38,  40,  42,
     24,  23,  21,  19,  19,  21,  23,  24,
     12,  11,  10,   8,   8,  10,  11,  12,
      4,   4,   3,   2,   2,   3,   4,   4,
      0,   0,   0,   0,   0,   0,   0,   0,
     -2,  -1,   0,   0,   0,   0,  -1,  -2,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -60, -35, -25, -20, -20, -25, -35, -60,
    -30, -15,   0,   6,   6,   0, -15, -30,
    -20,   5,  16,  22,  22,  16,   5, -20,
    -14,   8,  20,  27,  27,  20,   8, -14,
    -18,   2,  15,  21,  21,  15,   2, -18,
    -25,  -2,   9,  10,  10,   9,  -2, -25,
    -35, -20,  -5,   1,   1,  -5, -20, -35,
    -55, -30, -27, -22, -22, -27, -30, -55,
];

#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -45, -30, -20, -15, -15, -20, -30, -45,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -45, -30, -20, -15, -15, -20, -30, -45,
];

#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -12, -14, -14, -12, -10, -20,
    -10,   2,   0,   0,   0,   0,   2, -10,
     -6,   6,  10,   8,   8,  10,   6,  -6,
     -4,   8,   8,  14,  14,   8,   8,  -4,
     -4,   6,  12,  14,  14,  12,   6,  -4,
     -2,  10,  10,  10,  10,  10,  10,  -2,
     -4,  12,   6,   4,   4,   6,  12,  -4,
    -18,  -6, -12, -10, -10, -12,  -6, -18,
];

#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -18, -10,  -8,  -6,  -6,  -8, -10, -18,
    -10,  -4,   0,   0,   0,   0,  -4, -10,
     -8,   0,   4,   6,   6,   4,   0,  -8,
     -6,   0,   6,  10,  10,   6,   0,  -6,
     -6,   0,   6,  10,  10,   6,   0,  -6,
     -8,   0,   4,   6,   6,   4,   0,  -8,
    -10,  -4,   0,   0,   0,   0,  -4, -10,
    -18, -10,  -8,  -6,  -6,  -8, -10, -18,
];

#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
      4,   6,   8,  10,  10,   8,   6,   4,
     14,  18,  20,  22,  22,  20,  18,  14,
     -2,   2,   4,   6,   6,   4,   2,  -2,
     -6,  -2,   0,   2,   2,   0,  -2,  -6,
     -8,  -4,  -2,   0,   0,  -2,  -4,  -8,
    -10,  -6,  -4,  -2,  -2,  -4,  -6, -10,
    -12,  -6,  -4,  -2,  -2,  -4,  -6, -12,
     -6,  -2,   4,   8,   8,   6,  -2,  -6,
];

#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
      6,   6,   6,   6,   6,   6,   6,   6,
     10,  10,  10,  10,  10,  10,  10,  10,
      2,   2,   2,   2,   2,   2,   2,   2,
      0,   1,   2,   2,   2,   2,   1,   0,
     -1,   0,   1,   1,   1,   1,   0,  -1,
     -2,  -1,   0,   0,   0,   0,  -1,  -2,
     -3,  -2,  -1,  -1,  -1,  -1,  -2,  -3,
     -4,  -2,   0,   0,   0,   0,  -2,  -4,
];

#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -15, -10,  -8,  -4,  -4,  -8, -10, -15,
    -10,  -8,  -2,   0,   0,  -2,  -8, -10,
     -8,  -2,   2,   4,   4,   2,  -2,  -8,
     -6,   0,   4,   6,   6,   4,   0,  -6,
     -6,   0,   4,   6,   6,   4,   0,  -6,
     -8,   2,   4,   3,   3,   4,   2,  -8,
    -10,   0,   4,   2,   2,   2,   0, -10,
    -16,  -8,  -6,   0,  -4,  -8,  -8, -16,
];

#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -27, -15, -12,  -9,  -9, -12, -15, -27,
    -15,  -6,   0,   0,   0,   0,  -6, -15,
    -12,   0,   6,   9,   9,   6,   0, -12,
     -9,   0,   9,  15,  15,   9,   0,  -9,
     -9,   0,   9,  15,  15,   9,   0,  -9,
    -12,   0,   6,   9,   9,   6,   0, -12,
    -15,  -6,   0,   0,   0,   0,  -6, -15,
    -27, -15, -12,  -9,  -9, -12, -15, -27,
];

// The middlegame king hides behind its castled pawns; the endgame king walks to the centre.
#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -60, -65, -70, -80, -80, -70, -65, -60,
    -50, -55, -60, -70, -70, -60, -55, -50,
    -45, -50, -55, -65, -65, -55, -50, -45,
    -40, -45, -50, -60, -60, -50, -45, -40,
    -35, -40, -45, -55, -55, -45, -40, -35,
    -20, -25, -30, -40, -40, -30, -25, -20,
      5,   5, -10, -25, -25, -10,   5,   5,
     20,  30,  10, -10,   0, -10,  35,  25,
];

#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -28, -22, -22, -28, -35, -50,
    -30, -15,  -8,  -2,  -2,  -8, -15, -30,
    -25,  -5,  10,  16,  16,  10,  -5, -25,
    -22,  -2,  16,  24,  24,  16,  -2, -22,
    -22,  -4,  14,  22,  22,  14,  -4, -22,
    -25,  -8,   6,  12,  12,   6,  -8, -25,
    -32, -18,  -8,  -2,  -2,  -8, -18, -32,
    -50, -35, -26, -22, -22, -26, -35, -50,
];

const fn build_pst() -> [[[S; 128]; 6]; 2] {
    let tables: [(&[i32; 64], &[i32; 64]); 6] = [
        (&PAWN_MG, &PAWN_EG),
        (&KNIGHT_MG, &KNIGHT_EG),
        (&BISHOP_MG, &BISHOP_EG),
        (&ROOK_MG, &ROOK_EG),
        (&QUEEN_MG, &QUEEN_EG),
        (&KING_MG, &KING_EG),
    ];
    let mut t = [[[s(0, 0); 128]; 6]; 2];
    let mut kind = 0;
    while kind < 6 {
        let (mg, eg) = tables[kind];
        let mut sq = 0;
        while sq < 128 {
            if sq & 0x88 == 0 {
                let file = sq & 7;
                let rank = sq >> 4;
                let white = (7 - rank) * 8 + file;
                let black = rank * 8 + file;
                t[0][kind][sq] = s(mg[white], eg[white]);
                t[1][kind][sq] = s(mg[black], eg[black]);
            }
            sq += 1;
        }
        kind += 1;
    }
    t
}

/// Piece-square values by colour, dense kind index and 0x88 square.
pub(crate) static PST: [[[S; 128]; 6]; 2] = build_pst();

// ---- mobility ------------------------------------------------------------------------------

/// A saturating curve `top·n/(n+half) − offset`: the first few squares matter most (a piece
/// with two moves is nearly trapped, one with ten is free), further squares add less.
const fn mobility_curve<const N: usize>(mg: (i32, i32, i32), eg: (i32, i32, i32)) -> [S; N] {
    let mut t = [s(0, 0); N];
    let mut n = 0;
    while n < N {
        let k = n as i32;
        t[n] = s(mg.0 * k / (k + mg.1) - mg.2, eg.0 * k / (k + eg.1) - eg.2);
        n += 1;
    }
    t
}

pub(crate) static MOBILITY_KNIGHT: [S; 9] = mobility_curve((90, 4, 38), (100, 4, 45));
pub(crate) static MOBILITY_BISHOP: [S; 14] = mobility_curve((100, 6, 40), (120, 6, 50));
pub(crate) static MOBILITY_ROOK: [S; 15] = mobility_curve((70, 7, 25), (140, 7, 55));
pub(crate) static MOBILITY_QUEEN: [S; 28] = mobility_curve((80, 10, 25), (140, 10, 50));

// ---- king safety ---------------------------------------------------------------------------

/// Danger each attacking piece brings to the king zone (knight, bishop, rook, queen).
pub(crate) const KING_ATTACK_WEIGHT: [i32; 6] = [0, 25, 22, 35, 60, 0];
/// How much of the summed weight counts, in percent, by number of attackers: one piece alone
/// rarely mates, so its weight is mostly discounted.
pub(crate) const KING_ATTACKERS_PERCENT: [i32; 8] = [0, 30, 70, 90, 100, 105, 110, 115];
/// Danger per attacked square of the king zone.
pub(crate) const KING_ZONE_HIT: i32 = 9;
/// Danger of a check that the defender cannot simply capture (knight, bishop, rook, queen).
pub(crate) const SAFE_CHECK: [i32; 6] = [0, 45, 35, 50, 70, 0];
/// Danger removed when the attacker has no queen.
pub(crate) const NO_QUEEN_RELIEF: i32 = 60;
/// Quadratic danger → middlegame penalty divisor; linear endgame divisor; cap.
pub(crate) const DANGER_MG_DIV: i32 = 800;
pub(crate) const DANGER_EG_DIV: i32 = 10;
pub(crate) const DANGER_MG_CAP: i32 = 900;

/// Shelter: penalty by the relative rank of our nearest pawn in front of the king on each of
/// the three files around it (index 0 = no pawn in front).
pub(crate) const SHELTER_MISSING: [i32; 8] = [36, 0, 10, 24, 32, 32, 32, 32];
pub(crate) const SHELTER_OPEN_FILE: i32 = 12;
/// Storm: penalty by the relative rank (our view) of the enemy pawn nearest our king on those
/// files; halved when our own pawn blocks it.
pub(crate) const STORM: [i32; 8] = [0, 0, 30, 18, 8, 0, 0, 0];

// ---- pawn structure ------------------------------------------------------------------------

pub(crate) const DOUBLED: S = s(-10, -20);
pub(crate) const ISOLATED: S = s(-10, -14);
/// Extra for an isolated pawn on a file without enemy pawns: rooks attack it frontally.
pub(crate) const ISOLATED_OPEN: S = s(-8, -4);
pub(crate) const BACKWARD: S = s(-9, -11);
/// Defended by a pawn, by relative rank.
pub(crate) const SUPPORTED: [S; 8] = [
    s(0, 0),
    s(0, 0),
    s(8, 5),
    s(10, 8),
    s(16, 14),
    s(28, 26),
    s(45, 50),
    s(0, 0),
];
/// Side by side with a pawn on the same rank, by relative rank.
pub(crate) const PHALANX: [S; 8] = [
    s(0, 0),
    s(3, 2),
    s(6, 4),
    s(8, 7),
    s(14, 12),
    s(24, 22),
    s(40, 45),
    s(0, 0),
];

// ---- passed pawns --------------------------------------------------------------------------

/// By relative rank: the closer to promotion, the more it is worth, above all in the endgame.
pub(crate) const PASSED: [S; 8] = [
    s(0, 0),
    s(5, 10),
    s(8, 15),
    s(15, 28),
    s(30, 50),
    s(55, 85),
    s(85, 130),
    s(0, 0),
];
/// Endgame bonus per (rank weight × king distance) to the stop square: the enemy king far,
/// our king near.
pub(crate) const PASSED_ENEMY_KING_DIST: i32 = 5;
pub(crate) const PASSED_OWN_KING_DIST: i32 = 2;
/// Per rank weight: stop square occupied / stop square free and not attacked.
pub(crate) const PASSED_BLOCKED: S = s(-3, -8);
pub(crate) const PASSED_FREE: S = s(3, 6);
/// A passed pawn the bare enemy king cannot catch (rule of the square) and no piece can stop.
pub(crate) const UNSTOPPABLE: S = s(300, 450);

// ---- pieces --------------------------------------------------------------------------------

pub(crate) const BISHOP_PAIR: S = s(30, 50);
pub(crate) const ROOK_OPEN_FILE: S = s(30, 12);
pub(crate) const ROOK_HALF_OPEN_FILE: S = s(14, 8);
pub(crate) const ROOK_ON_SEVENTH: S = s(12, 24);
pub(crate) const KNIGHT_OUTPOST: S = s(24, 12);
pub(crate) const BISHOP_OUTPOST: S = s(10, 5);
/// Per own pawn on the bishop's square colour: they block its diagonals.
pub(crate) const BAD_BISHOP_PAWN: S = s(-2, -4);

// ---- threats -------------------------------------------------------------------------------

/// Attacking an enemy piece with a pawn, by the victim's kind.
pub(crate) const THREAT_BY_PAWN: [S; 6] =
    [s(0, 0), s(45, 35), s(45, 35), s(60, 40), s(70, 45), s(0, 0)];
/// Attacking a rook or queen with a knight or bishop.
pub(crate) const THREAT_BY_MINOR: [S; 6] =
    [s(0, 0), s(0, 0), s(0, 0), s(35, 30), s(45, 35), s(0, 0)];
/// Attacking a queen with a rook.
pub(crate) const THREAT_BY_ROOK: S = s(40, 30);
/// An attacked piece that nothing defends, by kind.
pub(crate) const HANGING: [S; 6] = [
    s(6, 12),
    s(30, 25),
    s(30, 25),
    s(35, 30),
    s(40, 35),
    s(0, 0),
];

// ---- side to move and endgames -------------------------------------------------------------

/// The side to move is worth a little: it acts first.
pub(crate) const TEMPO: S = s(16, 8);

/// Mating a bare king: per step of the lone king away from the centre (0..6) and per step the
/// kings come closer (0..6). Same in both phases: the position has no phase to speak of.
pub(crate) const MATING_EDGE: i32 = 24;
pub(crate) const MATING_CLOSE: i32 = 12;
/// King and bishop and knight: per step of the lone king nearer a corner of the bishop's
/// colour (the only corners where mate can be forced).
pub(crate) const MATING_BN_CORNER: i32 = 20;

/// Scale factors in 64ths.
pub(crate) const SCALE_NORMAL: i32 = 64;
