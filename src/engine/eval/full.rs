//! The `full` evaluation: tapered material and piece-square tables, mobility, king safety,
//! pawn structure, passed pawns, piece terms, threats, tempo and endgame knowledge.
//!
//! Seed 002 names the features (material, mobility, king safety, centre control, pawn
//! structure, threatened pieces) and leaves the rest to us. Everything is computed from the
//! piece lists: one pass for pawns and kings (pawn files and pawn attacks), one for the
//! pieces (their attacks, mobility and pressure on the enemy king), and a last one that
//! reads the finished attack maps (pawn structure, threats, king danger). No heap, no scan of
//! the 128 cells.

use super::params::*;
use super::tracer::{self as tr, Tracer};
use super::{Acc, Scale, ScaleReason, Term};
use crate::chess::attacks::{
    A_DIAG, A_ORTH, ATTACK_BY_DELTA, KING_STEPS, KNIGHT_STEPS, STEP_BY_DELTA, delta_index,
};
use crate::chess::board::Board;
use crate::chess::types::{Color, KIND_INDEX_BY_CODE, PieceKind};

// Dense kind indices (the board's `counts` layout).
const PAWN: usize = PieceKind::Pawn.index();
const KNIGHT: usize = PieceKind::Knight.index();
const BISHOP: usize = PieceKind::Bishop.index();
const ROOK: usize = PieceKind::Rook.index();
const QUEEN: usize = PieceKind::Queen.index();
const KING: usize = PieceKind::King.index();

// Attack-map bits: which kinds of a side attack a square (the seed's "positional attack
// values", seed 000, with one bit per kind).
const P_BIT: u8 = 1;
const N_BIT: u8 = 2;
const B_BIT: u8 = 4;
const R_BIT: u8 = 8;
const Q_BIT: u8 = 16;
const K_BIT: u8 = 32;
const KIND_BIT: [u8; 6] = [P_BIT, N_BIT, B_BIT, R_BIT, Q_BIT, K_BIT];

/// Dense kind index of a piece-list square's code (the one code → kind table; the passes
/// only ask about squares that hold a piece).
#[inline]
fn kind_of(code: u8) -> usize {
    KIND_INDEX_BY_CODE[(code & 0x0F) as usize] as usize
}

/// The side with index `c` (0 White, 1 Black): the passes loop over side indices.
#[inline]
fn side(c: usize) -> Color {
    Color::from_index(c)
}

/// Colour bits of side index `c` (White 0x10, Black 0x20), as in the cells.
#[inline]
fn color_bits(c: usize) -> u8 {
    0x10 << c
}

/// A board index the compiler can see is below 128 (no bounds check in the hot loops).
#[inline]
fn ix(sq: u8) -> usize {
    (sq & 0x7F) as usize
}

#[inline]
fn on_board(sq: u8) -> bool {
    sq & 0x88 == 0
}

#[inline]
fn step(sq: u8, d: i8) -> u8 {
    sq.wrapping_add(d as u8)
}

/// Rank as seen from side `c` (0 = its back rank).
#[inline]
fn rel_rank(c: usize, sq: u8) -> i32 {
    let r = (sq >> 4) as i32;
    if c == 0 { r } else { 7 - r }
}

/// Where 0x88 square `sq` of side `c` is in a piece-square diagram (rank 8 first, from
/// White's side; Black's ranks flipped).
#[inline]
fn diagram_index(c: usize, sq: u8) -> usize {
    let (file, rank) = ((sq & 7) as usize, (sq >> 4) as usize);
    if c == 0 {
        (7 - rank) * 8 + file
    } else {
        rank * 8 + file
    }
}

/// King-move distance between two squares.
#[inline]
fn distance(a: u8, b: u8) -> i32 {
    let df = ((a & 7) as i32 - (b & 7) as i32).abs();
    let dr = ((a >> 4) as i32 - (b >> 4) as i32).abs();
    df.max(dr)
}

/// 0 on the four centre squares, 6 in a corner.
#[inline]
fn centre_distance(sq: u8) -> i32 {
    let f = (sq & 7) as i32;
    let r = (sq >> 4) as i32;
    ((2 * f - 7).abs() + (2 * r - 7).abs()) / 2 - 1
}

#[inline]
fn is_light(sq: u8) -> bool {
    ((sq >> 4) + (sq & 7)) & 1 == 1
}

/// The king zone: the king's square, its neighbours, and the three squares two ranks in
/// front of it (where attackers prepare mates), as a table by square difference.
const fn king_zone(forward: i32) -> [bool; 256] {
    let mut t = [false; 256];
    t[119] = true;
    let mut i = 0;
    while i < 8 {
        t[(119 + KING_STEPS[i] as i32) as usize] = true;
        i += 1;
    }
    t[(119 + 2 * forward - 1) as usize] = true;
    t[(119 + 2 * forward) as usize] = true;
    t[(119 + 2 * forward + 1) as usize] = true;
    t
}
/// 256 entries (239 used) so that a masked index needs no bounds check.
static KING_ZONE: [[bool; 256]; 2] = [king_zone(16), king_zone(-16)];

const PAWN_CAPTURES: [[i8; 2]; 2] = [[15, 17], [-15, -17]];

/// The files of the king's wing, by the king's file: a–d, c–f or e–h.
const KING_FLANK: [u8; 8] = [0x0F, 0x0F, 0x0F, 0x3C, 0x3C, 0xF0, 0xF0, 0xF0];
const FORWARD: [i8; 2] = [16, -16];

/// Per side, per file: where the pawns are.
struct PawnFiles {
    /// Lowest absolute rank of a pawn on the file, 8 when none.
    min_rank: [[i8; 8]; 2],
    /// Highest absolute rank, -1 when none.
    max_rank: [[i8; 8]; 2],
    /// Bit f set when the side has a pawn on file f.
    files: [u8; 2],
    /// Pawns on light squares.
    light: [i32; 2],
    /// Pawns still on their second rank (relative rank 1).
    home: [i32; 2],
}

impl PawnFiles {
    /// The least advanced pawn of `c` on `file`, as a relative rank (0 when none).
    #[inline]
    fn rearmost(&self, c: usize, file: usize) -> i32 {
        if c == 0 {
            let r = self.min_rank[0][file];
            if r == 8 { 0 } else { r as i32 }
        } else {
            let r = self.max_rank[1][file];
            if r < 0 { 0 } else { 7 - r as i32 }
        }
    }

    /// The pawn of `c`'s opponent on `file` closest to `c`'s back rank, as a relative rank
    /// seen from `c` (0 when none).
    #[inline]
    fn nearest_enemy(&self, c: usize, file: usize) -> i32 {
        if c == 0 {
            let r = self.min_rank[1][file];
            if r == 8 { 0 } else { r as i32 }
        } else {
            let r = self.max_rank[0][file];
            if r < 0 { 0 } else { 7 - r as i32 }
        }
    }

    /// Does `side` have a pawn on `file` further up the board (from `ahead_of`'s view) than
    /// absolute rank `rank`? `ahead_of` says whose "forward" is meant.
    #[inline]
    fn pawn_ahead(&self, side: usize, ahead_of: usize, file: usize, rank: i8) -> bool {
        if ahead_of == 0 {
            self.max_rank[side][file] > rank
        } else {
            self.min_rank[side][file] < rank
        }
    }

    /// Can an enemy pawn on an adjacent file (or, with `own_file`, this file too) still meet
    /// a pawn of `c` on `file`, `rank` as it advances?
    #[inline]
    fn enemy_in_front(&self, c: usize, file: usize, rank: i8, own_file: bool) -> bool {
        let e = 1 - c;
        (file > 0 && self.pawn_ahead(e, c, file - 1, rank))
            || (file < 7 && self.pawn_ahead(e, c, file + 1, rank))
            || (own_file && self.pawn_ahead(e, c, file, rank))
    }
}

/// Can a piece give check on a square that the defender reaches with `ours` and the
/// attacker with `theirs` (attack maps' kind bits) and stay there? When nothing defends the
/// square, and when only the king does while a second kind of attacker also covers it (the
/// king cannot take back: the mating checks next to it).
#[inline]
fn safe_for_checker(ours: u8, theirs: u8) -> bool {
    ours == 0 || (ours == K_BIT && theirs.count_ones() >= 2)
}

#[inline]
fn adjacent_files(file: usize) -> u8 {
    let f = 1u8 << file;
    (f << 1) | (f >> 1)
}

struct Ctx<'a, T> {
    b: &'a Board,
    /// Hears every weight added (the tuner's trace; nothing for the search).
    tr: &'a mut T,
    /// Attack maps: for each side and square, the kinds that attack it.
    att: [[u8; 128]; 2],
    pawns: PawnFiles,
    king: [u8; 2],
    /// Pressure on the enemy king, by attacking side: pieces reaching the zone, their summed
    /// weights, and attacked zone squares.
    king_attackers: [i32; 2],
    king_attack_weight: [i32; 2],
    king_zone_hits: [i32; 2],
    /// Each king's distance to the nearest pawn of either side (`NO_PAWN` when none).
    nearest_pawn: [i32; 2],
}

/// What the pawns alone are worth for each side (the [`PAWN_TABLE`]'s entries).
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    /// The pawn key these values belong to.
    key: u64,
    /// Doubled, isolated, backward, supported, phalanx and space terms.
    structure: [S; 2],
    /// The passed pawns' bonuses by rank and for being connected.
    passed: [S; 2],
    /// The passed pawns, a bit per square (rank × 8 + file).
    passers: [u64; 2],
}

/// Slots of the pawn table, per thread: 4,096 entries of 64 bytes (256 KiB).
const PAWN_SLOTS: usize = 1 << 12;

thread_local! {
    /// The pawn table: pawn key → [`PawnEntry`], one per thread (each search thread and
    /// each test has its own; nothing shared, no locks). The values are a pure function of
    /// the pawns, so a hit gives exactly what computing them would.
    static PAWN_TABLE: std::cell::RefCell<Vec<Option<PawnEntry>>> =
        std::cell::RefCell::new(vec![None; PAWN_SLOTS]);
}

/// `Ctx::nearest_pawn` before any pawn is seen.
const NO_PAWN: i32 = i32::MAX;

/// Writes every `full` term into `acc`; returns the game phase (0..=PHASE_MAX).
pub(super) fn evaluate<T: Tracer>(b: &Board, acc: &mut Acc, tracer: &mut T) -> i32 {
    let mut cx = Ctx {
        b,
        tr: tracer,
        att: [[0; 128]; 2],
        pawns: PawnFiles {
            min_rank: [[8; 8]; 2],
            max_rank: [[-1; 8]; 2],
            files: [0; 2],
            light: [0; 2],
            home: [0; 2],
        },
        king: [b.king_x88(Color::White), b.king_x88(Color::Black)],
        king_attackers: [0; 2],
        king_attack_weight: [0; 2],
        king_zone_hits: [0; 2],
        nearest_pawn: [NO_PAWN; 2],
    };
    for c in 0..2 {
        cx.material(acc, c);
        cx.pawns_and_kings(acc, c);
    }
    for c in 0..2 {
        cx.pieces(acc, c);
    }
    let pawns = cx.pawn_entry();
    for c in 0..2 {
        cx.pawn_structure(acc, c, &pawns);
        cx.threats(acc, c);
        cx.king_safety(acc, c);
        cx.mating(acc, c);
    }
    acc.add(Term::Tempo, b.side_to_move().index(), TEMPO);
    cx.tr.add(tr::TEMPO_AT, b.side_to_move().index(), 1);
    phase(b)
}

/// The game phase from the incremental piece counts: 24 with every piece on, 0 without any.
fn phase(b: &Board) -> i32 {
    let p: i32 = (0..2)
        .map(|c| {
            (0..6)
                .map(|k| b.kind_counts(side(c))[k] as i32 * PHASE_WEIGHT[k])
                .sum::<i32>()
        })
        .sum();
    p.min(PHASE_MAX)
}

/// Non-pawn material of a side in middlegame values.
fn piece_material(b: &Board, c: usize) -> i32 {
    (KNIGHT..=QUEEN)
        .map(|k| b.kind_counts(side(c))[k] as i32 * MATERIAL[k].mg)
        .sum()
}

impl<T: Tracer> Ctx<'_, T> {
    /// Material from the board's incremental piece counts (never a recount).
    fn material(&mut self, acc: &mut Acc, c: usize) {
        let mut m = S::default();
        for (k, value) in MATERIAL.iter().enumerate().take(QUEEN + 1) {
            let n = self.b.kind_counts(side(c))[k] as i32;
            m += *value * n;
            self.tr.add(tr::MATERIAL_AT + k, c, n);
        }
        // A knight gains with pawns on the board (outposts, closed lines), a rook loses
        // (fewer open files): per piece, per own pawn above or below five.
        let counts = self.b.kind_counts(side(c));
        let pawns_over_five = counts[PAWN] as i32 - 5;
        let knights = counts[KNIGHT] as i32 * pawns_over_five;
        let rooks = counts[ROOK] as i32 * pawns_over_five;
        m += KNIGHT_PAWNS * knights + ROOK_PAWNS * rooks;
        self.tr.add(tr::KNIGHT_PAWNS_AT, c, knights);
        self.tr.add(tr::ROOK_PAWNS_AT, c, rooks);
        acc.add(Term::Material, c, m);
        if self.b.kind_counts(side(c))[BISHOP] >= 2 {
            acc.add(Term::BishopPair, c, BISHOP_PAIR);
            self.tr.add(tr::BISHOP_PAIR_AT, c, 1);
        }
    }

    /// Pass 1: piece-square values of every piece; pawn files and pawn and king attacks.
    fn pawns_and_kings(&mut self, acc: &mut Acc, c: usize) {
        let b = self.b;
        let mut pst = S::default();
        for &sq in b.piece_squares(side(c)) {
            let kind = kind_of(b.code_at(sq));
            pst += PST[c][kind][ix(sq)];
            self.tr
                .add(tr::PST_AT + 64 * kind + diagram_index(c, sq), c, 1);
            if kind == PAWN {
                let file = (sq & 7) as usize;
                let rank = (sq >> 4) as i8;
                let p = &mut self.pawns;
                p.min_rank[c][file] = p.min_rank[c][file].min(rank);
                p.max_rank[c][file] = p.max_rank[c][file].max(rank);
                p.files[c] |= 1 << file;
                p.light[c] += is_light(sq) as i32;
                p.home[c] += (rel_rank(c, sq) == 1) as i32;
                for (near, &k) in self.nearest_pawn.iter_mut().zip(&self.king) {
                    *near = (*near).min(distance(k, sq));
                }
                for d in PAWN_CAPTURES[c] {
                    let t = step(sq, d);
                    if on_board(t) {
                        self.att[c][ix(t)] |= P_BIT;
                    }
                }
            } else if kind == KING {
                for d in KING_STEPS {
                    let t = step(sq, d);
                    if on_board(t) {
                        self.att[c][ix(t)] |= K_BIT;
                    }
                }
            }
        }
        acc.add(Term::PieceSquare, c, pst);
    }

    /// Pass 2: knights, bishops, rooks and queens: attacks, mobility, pressure on the enemy
    /// king, and the terms that need only pawn files (open files, outposts, bad bishops).
    fn pieces(&mut self, acc: &mut Acc, c: usize) {
        let b = self.b;
        let e = 1 - c;
        let own = color_bits(c);
        let enemy_king = self.king[e];
        let zone = &KING_ZONE[e];
        let mut mobility = S::default();
        let mut rooks = S::default();
        let mut minors = S::default();
        for &sq in &b.piece_squares(side(c))[1..] {
            let kind = kind_of(b.code_at(sq));
            if kind == PAWN {
                continue;
            }
            let bit = KIND_BIT[kind];
            let mut moves = 0usize;
            let mut hits = 0;
            // A square counts for mobility unless our own pawn or king stands there or an
            // enemy pawn guards it: a piece that can only go where a pawn takes it is stuck.
            let mut visit = |t: u8, att: &mut [[u8; 128]; 2]| {
                att[c][ix(t)] |= bit;
                let code = b.code_at(t) & 0x3F;
                let own_blocker = code == own | 0x1 || code == own | 0x3;
                if !own_blocker && att[e][ix(t)] & P_BIT == 0 {
                    moves += 1;
                }
                if zone[delta_index(enemy_king, t) & 0xFF] {
                    hits += 1;
                }
            };
            match kind {
                KNIGHT => {
                    for d in KNIGHT_STEPS {
                        let t = step(sq, d);
                        if on_board(t) {
                            visit(t, &mut self.att);
                        }
                    }
                }
                _ => {
                    // Rook: the four orthogonal steps; bishop: the four diagonal; queen: all.
                    let dirs: &[i8] = match kind {
                        ROOK => &KING_STEPS[..4],
                        BISHOP => &KING_STEPS[4..],
                        _ => &KING_STEPS,
                    };
                    for &d in dirs {
                        let mut t = step(sq, d);
                        while on_board(t) {
                            visit(t, &mut self.att);
                            if b.code_at(t) != 0 {
                                break;
                            }
                            t = step(t, d);
                        }
                    }
                }
            }
            let (table, at): (&[S], usize) = match kind {
                KNIGHT => (&MOBILITY_KNIGHT, tr::MOBILITY_AT[0]),
                BISHOP => (&MOBILITY_BISHOP, tr::MOBILITY_AT[1]),
                ROOK => (&MOBILITY_ROOK, tr::MOBILITY_AT[2]),
                _ => (&MOBILITY_QUEEN, tr::MOBILITY_AT[3]),
            };
            let n = moves.min(table.len() - 1);
            mobility += table[n];
            self.tr.add(at + n, c, 1);
            if hits > 0 {
                self.king_attackers[c] += 1;
                self.king_attack_weight[c] += KING_ATTACK_WEIGHT[kind];
                self.king_zone_hits[c] += hits;
                self.tr.king_attacker(e, kind);
            }

            let file = (sq & 7) as usize;
            let rr = rel_rank(c, sq);
            match kind {
                ROOK => {
                    if self.pawns.files[c] & (1 << file) == 0 {
                        if self.pawns.files[e] & (1 << file) == 0 {
                            rooks += ROOK_OPEN_FILE;
                            self.tr.add(tr::ROOK_OPEN_FILE_AT, c, 1);
                        } else {
                            rooks += ROOK_HALF_OPEN_FILE;
                            self.tr.add(tr::ROOK_HALF_OPEN_FILE_AT, c, 1);
                        }
                    }
                    // On the enemy king's file, with none of our pawns in the way.
                    if file == (enemy_king & 7) as usize && self.pawns.files[c] & (1 << file) == 0 {
                        rooks += ROOK_ON_KING_FILE;
                        self.tr.add(tr::ROOK_ON_KING_FILE_AT, c, 1);
                    }
                    // Shut in beside its own uncastled king on the back rank: the king
                    // stands between it and the rest of the board.
                    let k = self.king[c];
                    let kf = (k & 7) as usize;
                    if rr == 0
                        && rel_rank(c, k) == 0
                        && moves <= 3
                        && ((kf >= 4 && file > kf) || (kf < 4 && file < kf))
                    {
                        rooks += TRAPPED_ROOK;
                        self.tr.add(tr::TRAPPED_ROOK_AT, c, 1);
                    }
                    // The 7th rank matters when it holds enemy pawns or cuts off the king.
                    if rr == 6 && (self.pawns.home[e] > 0 || rel_rank(c, enemy_king) == 7) {
                        rooks += ROOK_ON_SEVENTH;
                        self.tr.add(tr::ROOK_ON_SEVENTH_AT, c, 1);
                    }
                }
                KNIGHT | BISHOP => {
                    // A pawn just in front shields the piece from attacks along the file
                    // and keeps the file closed in front of it.
                    let ahead = step(sq, FORWARD[c]);
                    if on_board(ahead) && b.code_at(ahead) != 0 && kind_of(b.code_at(ahead)) == PAWN
                    {
                        minors += MINOR_BEHIND_PAWN;
                        self.tr.add(tr::MINOR_BEHIND_PAWN_AT, c, 1);
                    }
                    // An outpost: in the enemy half, defended by a pawn, and no enemy pawn
                    // can ever chase the piece away.
                    if (3..=5).contains(&rr)
                        && self.att[c][ix(sq)] & P_BIT != 0
                        && !self.pawns.enemy_in_front(c, file, (sq >> 4) as i8, false)
                    {
                        if kind == KNIGHT {
                            minors += KNIGHT_OUTPOST;
                            self.tr.add(tr::KNIGHT_OUTPOST_AT, c, 1);
                        } else {
                            minors += BISHOP_OUTPOST;
                            self.tr.add(tr::BISHOP_OUTPOST_AT, c, 1);
                        }
                    }
                    if kind == BISHOP && self.long_diagonal(sq) {
                        minors += BISHOP_LONG_DIAGONAL;
                        self.tr.add(tr::BISHOP_LONG_DIAGONAL_AT, c, 1);
                    }
                    if kind == BISHOP {
                        let same_colour = if is_light(sq) {
                            self.pawns.light[c]
                        } else {
                            b.kind_counts(side(c))[PAWN] as i32 - self.pawns.light[c]
                        };
                        minors += BAD_BISHOP_PAWN * same_colour;
                        self.tr.add(tr::BAD_BISHOP_PAWN_AT, c, same_colour);
                    }
                }
                _ => {}
            }
        }
        acc.add(Term::Mobility, c, mobility);
        acc.add(Term::Rooks, c, rooks);
        acc.add(Term::MinorPieces, c, minors);
    }

    /// The part of both sides' pawn structure that depends on the pawns alone, from the
    /// pawn table when the search evaluates (the same values, computed once per pawn
    /// structure), computed afresh when the tuner traces the features.
    fn pawn_entry(&mut self) -> PawnEntry {
        if T::ACTIVE {
            return self.compute_pawn_entry();
        }
        let key = self.b.pawn_hash();
        let slot = key as usize & (PAWN_SLOTS - 1);
        if let Some(e) = PAWN_TABLE.with_borrow(|t| t[slot].filter(|e| e.key == key)) {
            return e;
        }
        let e = self.compute_pawn_entry();
        PAWN_TABLE.with_borrow_mut(|t| t[slot] = Some(e));
        e
    }

    /// Doubled, isolated, backward, supported and phalanx pawns, the passed pawns with their
    /// base and connected bonuses, and space, for both sides.
    fn compute_pawn_entry(&mut self) -> PawnEntry {
        let mut entry = PawnEntry {
            key: self.b.pawn_hash(),
            ..PawnEntry::default()
        };
        for c in 0..2 {
            let (structure, passed, passers) = self.pawns_alone(c);
            entry.structure[c] = structure;
            entry.passed[c] = passed;
            entry.passers[c] = passers;
        }
        entry
    }

    /// Side `c`'s share of [`Ctx::compute_pawn_entry`]: the structure, the passed pawns'
    /// base bonuses, and the passed pawns (a bit per square, rank × 8 + file).
    fn pawns_alone(&mut self, c: usize) -> (S, S, u64) {
        let b = self.b;
        let e = 1 - c;
        let own_pawn = color_bits(c) | 0x1;
        let mut structure = S::default();
        let mut passed = S::default();
        let mut passers = 0u64;
        for &sq in &b.piece_squares(side(c))[1..] {
            if kind_of(b.code_at(sq)) != PAWN {
                continue;
            }
            let file = (sq & 7) as usize;
            let rank = (sq >> 4) as i8;
            let rr = rel_rank(c, sq);
            let stop = step(sq, FORWARD[c]);
            if !on_board(stop) {
                continue; // cannot happen: a pawn never stands on its last rank
            }
            let isolated = self.pawns.files[c] & adjacent_files(file) == 0;
            let doubled = self.pawns.pawn_ahead(c, c, file, rank);
            if doubled {
                structure += DOUBLED;
                self.tr.add(tr::DOUBLED_AT, c, 1);
            }
            if isolated {
                structure += ISOLATED;
                self.tr.add(tr::ISOLATED_AT, c, 1);
                if self.pawns.files[e] & (1 << file) == 0 {
                    structure += ISOLATED_OPEN;
                    self.tr.add(tr::ISOLATED_OPEN_AT, c, 1);
                }
            } else {
                // Backward: every neighbour has already advanced past it, so no pawn can
                // ever defend it, and an enemy pawn stops it from catching up.
                let neighbours_ahead = (file == 0
                    || self.pawns.rearmost(c, file - 1) == 0
                    || self.pawns.rearmost(c, file - 1) > rr)
                    && (file == 7
                        || self.pawns.rearmost(c, file + 1) == 0
                        || self.pawns.rearmost(c, file + 1) > rr);
                if neighbours_ahead && self.att[e][ix(stop)] & P_BIT != 0 {
                    structure += BACKWARD;
                    self.tr.add(tr::BACKWARD_AT, c, 1);
                    // No enemy pawn in front on its file: the weakness lies open to rooks.
                    if self.pawns.files[e] & (1 << file) == 0 {
                        structure += BACKWARD_OPEN;
                        self.tr.add(tr::BACKWARD_OPEN_AT, c, 1);
                    }
                }
            }
            let supported = self.att[c][ix(sq)] & P_BIT != 0;
            let phalanx = (file > 0 && b.code_at(sq - 1) & 0x3F == own_pawn)
                || (file < 7 && b.code_at(sq + 1) & 0x3F == own_pawn);
            if supported {
                structure += SUPPORTED[rr as usize];
                self.tr.add(tr::SUPPORTED_AT + rr as usize, c, 1);
            } else if phalanx {
                structure += PHALANX[rr as usize];
                self.tr.add(tr::PHALANX_AT + rr as usize, c, 1);
            }

            if doubled || self.pawns.enemy_in_front(c, file, rank, true) {
                continue;
            }
            passers |= 1 << (((sq >> 4) << 3) | (sq & 7));
            passed += PASSED[rr as usize];
            self.tr.add(tr::PASSED_AT + rr as usize, c, 1);
            // Connected: a pawn beside it or behind it on the next file carries it on.
            if supported || phalanx {
                passed += PASSED_CONNECTED[rr as usize];
                self.tr.add(tr::PASSED_CONNECTED_AT + rr as usize, c, 1);
            }
        }
        // Space: the centre files' squares on our 2nd to 4th ranks that no enemy pawn
        // guards and no pawn of ours stands on: room to bring the pieces behind the pawns.
        let mut space = 0;
        for rr in 1..=3 {
            let rank = if c == 0 { rr } else { 7 - rr };
            for file in 2..=5u8 {
                let sq = (rank << 4) | file;
                if b.code_at(sq) & 0x3F != own_pawn && self.att[e][ix(sq)] & P_BIT == 0 {
                    space += 1;
                }
            }
        }
        structure += SPACE * space;
        self.tr.add(tr::SPACE_AT, c, space);
        (structure, passed, passers)
    }

    /// Pass 3: side `c`'s pawn structure (`pawns`, the pawns-only part) and what its passed
    /// pawns are worth with the pieces and kings where they stand.
    fn pawn_structure(&mut self, acc: &mut Acc, c: usize, pawns: &PawnEntry) {
        let b = self.b;
        let e = 1 - c;
        let enemy_has_pieces = piece_material(b, e) > 0;
        let mut structure = pawns.structure[c];
        let mut passed = pawns.passed[c];
        let mut unstoppable = false;
        let mut passers = pawns.passers[c];
        while passers != 0 {
            let i = passers.trailing_zeros() as u8;
            passers &= passers - 1;
            let sq = ((i >> 3) << 4) | (i & 7);
            let rr = rel_rank(c, sq);
            let stop = step(sq, FORWARD[c]);
            let mut bonus = S::default();
            // A rook behind a passed pawn: ours pushes it on, theirs holds it back from
            // behind (it gains scope as the pawn advances).
            let mut t = step(sq, -FORWARD[c]);
            while on_board(t) && b.code_at(t) == 0 {
                t = step(t, -FORWARD[c]);
            }
            if on_board(t) && kind_of(b.code_at(t)) == ROOK {
                let theirs = usize::from(b.code_at(t) & 0x30 != color_bits(c));
                bonus += ROOK_BEHIND_PASSER[theirs];
                self.tr.add(tr::ROOK_BEHIND_PASSER_AT + theirs, c, 1);
            }
            if rr >= 3 {
                // The further it has come, the more the kings' distances to its path matter.
                let w = rr - 2;
                let theirs = distance(self.king[e], stop).min(5);
                let ours = distance(self.king[c], stop).min(5);
                bonus += PASSED_ENEMY_KING_DIST * (w * theirs) + PASSED_OWN_KING_DIST * (w * ours);
                self.tr.add(tr::PASSED_ENEMY_KING_DIST_AT, c, w * theirs);
                self.tr.add(tr::PASSED_OWN_KING_DIST_AT, c, w * ours);
                if b.code_at(stop) != 0 {
                    bonus += PASSED_BLOCKED * w;
                    self.tr.add(tr::PASSED_BLOCKED_AT, c, w);
                } else if self.att[e][ix(stop)] == 0 {
                    bonus += PASSED_FREE * w;
                    self.tr.add(tr::PASSED_FREE_AT, c, w);
                }
                // The whole way to the last rank empty and out of the enemy's reach.
                if self.path_is_safe(c, stop) {
                    bonus += PASSED_SAFE_PATH * w;
                    self.tr.add(tr::PASSED_SAFE_PATH_AT, c, w);
                }
                // Our own pieces or pawns cover the next square.
                if self.att[c][ix(stop)] != 0 {
                    bonus += PASSED_STOP_DEFENDED * w;
                    self.tr.add(tr::PASSED_STOP_DEFENDED_AT, c, w);
                }
            }
            passed += bonus;
            if !enemy_has_pieces && !unstoppable {
                unstoppable = self.outruns_king(c, sq);
            }
        }
        if unstoppable {
            passed += UNSTOPPABLE;
            self.tr.add(tr::UNSTOPPABLE_AT, c, 1);
        }
        // The king's distance to the nearest pawn (either side's): in the ending it must
        // go where the pawns are.
        let near = match self.nearest_pawn[c] {
            NO_PAWN => 0,
            n => n,
        };
        structure += KING_PAWN_DISTANCE * near;
        self.tr.add(tr::KING_PAWN_DISTANCE_AT, c, near);
        acc.add(Term::PawnStructure, c, structure);
        acc.add(Term::PassedPawns, c, passed);
    }

    /// The rule of the square: against a bare king (pawns aside), does the pawn on `sq`
    /// promote before the king can reach its promotion square, with its path empty?
    fn outruns_king(&self, c: usize, sq: u8) -> bool {
        let b = self.b;
        let rr = rel_rank(c, sq);
        let mut t = step(sq, FORWARD[c]);
        let mut last = t;
        while on_board(t) {
            if b.code_at(t) != 0 {
                return false;
            }
            last = t;
            t = step(t, FORWARD[c]);
        }
        // From its second rank a pawn may step twice at once.
        let moves = if rr == 1 { 5 } else { 7 - rr };
        let tempo = (b.side_to_move().index() == 1 - c) as i32;
        distance(self.king[1 - c], last) - tempo > moves
    }

    /// Pieces of side `c` that the other side attacks: by a pawn, by a lesser piece, or not
    /// defended at all. Scored for the attacker (seed 002: "threatened pieces").
    fn threats(&mut self, acc: &mut Acc, c: usize) {
        let b = self.b;
        let e = 1 - c;
        let mut t = S::default();
        let mut threatened = 0;
        for &sq in &b.piece_squares(side(c))[1..] {
            let a = self.att[e][ix(sq)];
            if a == 0 {
                continue;
            }
            let defended = self.att[c][ix(sq)] != 0;
            let kind = kind_of(b.code_at(sq));
            let mut threat = true;
            if kind != PAWN && a & P_BIT != 0 {
                t += THREAT_BY_PAWN[kind];
                self.tr.add(tr::THREAT_BY_PAWN_AT + kind, e, 1);
            } else if (kind == ROOK || kind == QUEEN) && a & (N_BIT | B_BIT) != 0 {
                t += THREAT_BY_MINOR[kind];
                self.tr.add(tr::THREAT_BY_MINOR_AT + kind, e, 1);
            } else if kind == QUEEN && a & R_BIT != 0 {
                t += THREAT_BY_ROOK;
                self.tr.add(tr::THREAT_BY_ROOK_AT, e, 1);
            } else {
                threat = !defended;
            }
            if !defended {
                t += HANGING[kind];
                self.tr.add(tr::HANGING_AT + kind, e, 1);
                if a & K_BIT != 0 {
                    t += THREAT_BY_KING;
                    self.tr.add(tr::THREAT_BY_KING_AT, e, 1);
                }
            } else if self.att[c][ix(sq)] == Q_BIT {
                // Guarded by the queen alone: taking it costs the queen a tempo or her post.
                t += WEAK_QUEEN_DEFENCE;
                self.tr.add(tr::WEAK_QUEEN_DEFENCE_AT, e, 1);
            }
            threatened += i32::from(threat);
        }
        let pushes = self.pawn_push_threats(e);
        t += THREAT_PAWN_PUSH * pushes;
        self.tr.add(tr::THREAT_PAWN_PUSH_AT, e, pushes);
        // Squares both sides reach where no pawn of ours guards: where our pieces cannot go
        // without being taken on the way.
        // Over all 128 entries of the 0x88 maps at once (the off-board ones stay empty): a
        // straight loop the compiler can vectorise (−0.8% instructions at bench depth 8).
        let restricted = self.att[c]
            .iter()
            .zip(&self.att[e])
            .map(|(&ours, &theirs)| i32::from(theirs != 0 && ours != 0 && ours & P_BIT == 0))
            .sum::<i32>();
        t += RESTRICTED * restricted;
        self.tr.add(tr::RESTRICTED_AT, e, restricted);
        if self.b.kind_counts(side(c))[QUEEN] == 1 {
            let (knights, sliders) = self.queen_harassment(c);
            t += KNIGHT_ON_QUEEN * knights + SLIDER_ON_QUEEN * sliders;
            self.tr.add(tr::KNIGHT_ON_QUEEN_AT, e, knights);
            self.tr.add(tr::SLIDER_ON_QUEEN_AT, e, sliders);
        }
        // A threat is worth more to the side that can carry it out at once.
        if b.side_to_move().index() == e {
            t += THREAT_ON_MOVE * threatened;
            self.tr.add(tr::THREAT_ON_MOVE_AT, e, threatened);
        }
        acc.add(Term::Threats, e, t);
    }

    /// Pawn pushes of side `e` that would attack a piece: a pawn's square one step ahead (or
    /// two, from its second rank, over an empty square), empty, short of the last rank (a
    /// promotion is more than a threat) and safe (no enemy pawn guards it, and the enemy
    /// does not reach it or we do too), from which it would attack an enemy knight, bishop,
    /// rook or queen that none of our pawns attacks yet.
    fn pawn_push_threats(&self, e: usize) -> i32 {
        let b = self.b;
        let c = 1 - e;
        let theirs = color_bits(c);
        let mut n = 0;
        for &sq in &b.piece_squares(side(e))[1..] {
            if kind_of(b.code_at(sq)) != PAWN {
                continue;
            }
            let mut to = step(sq, FORWARD[e]);
            for double in [false, true] {
                if double && rel_rank(e, sq) != 1 {
                    break;
                }
                if !on_board(to) || b.code_at(to) != 0 || rel_rank(e, to) == 7 {
                    break;
                }
                let (ours, them) = (self.att[e][ix(to)], self.att[c][ix(to)]);
                if them & P_BIT == 0 && (ours != 0 || them == 0) {
                    for d in PAWN_CAPTURES[e] {
                        let t = step(to, d);
                        if !on_board(t) {
                            continue;
                        }
                        let code = b.code_at(t);
                        if code & theirs != 0 && self.att[e][ix(t)] & P_BIT == 0 {
                            let kind = kind_of(code);
                            n += i32::from(kind != PAWN && kind != KING);
                        }
                    }
                }
                to = step(to, FORWARD[e]);
            }
        }
        n
    }

    /// Squares from which the other side's pieces could attack `c`'s queen next move: its
    /// knights' squares a knight's move from her, and its bishops' and rooks' squares on her
    /// open lines that a second kind of its pieces also reaches. Only squares none of `c`'s
    /// pawns guards and the attacker's own pieces do not hold.
    fn queen_harassment(&self, c: usize) -> (i32, i32) {
        let b = self.b;
        let e = 1 - c;
        let own_e = color_bits(e);
        let Some(&q) = b.piece_squares(side(c))[1..]
            .iter()
            .find(|&&sq| kind_of(b.code_at(sq)) == QUEEN)
        else {
            return (0, 0);
        };
        let safe = |t: u8| b.code_at(t) & own_e == 0 && self.att[c][ix(t)] & P_BIT == 0;
        let mut knights = 0;
        for d in KNIGHT_STEPS {
            let t = step(q, d);
            if on_board(t) && self.att[e][ix(t)] & N_BIT != 0 && safe(t) {
                knights += 1;
            }
        }
        let mut sliders = 0;
        for (i, &d) in KING_STEPS.iter().enumerate() {
            // The first four steps are orthogonal (rooks), the last four diagonal (bishops).
            let bit = if i < 4 { R_BIT } else { B_BIT };
            let mut t = step(q, d);
            while on_board(t) && b.code_at(t) == 0 {
                let a = self.att[e][ix(t)];
                if a & bit != 0 && a & !bit != 0 && safe(t) {
                    sliders += 1;
                }
                t = step(t, d);
            }
        }
        (knights, sliders)
    }

    /// Shelter and storm in front of `c`'s king, and the danger from the other side's
    /// pieces around it.
    fn king_safety(&mut self, acc: &mut Acc, c: usize) {
        let b = self.b;
        let e = 1 - c;
        let k = self.king[c];
        let kr = rel_rank(c, k);
        let centre = ((k & 7) as usize).clamp(1, 6);
        let mut safety = S::default();
        for file in centre - 1..=centre + 1 {
            let own = self.pawns.rearmost(c, file);
            let own_in_front = own > kr;
            let at = if own_in_front { own as usize } else { 0 };
            safety += SHELTER_MISSING[at];
            self.tr.add(tr::SHELTER_MISSING_AT + at, c, 1);
            if !own_in_front && self.pawns.files[e] & (1 << file) == 0 {
                safety += SHELTER_OPEN_FILE;
                self.tr.add(tr::SHELTER_OPEN_FILE_AT, c, 1);
            }
            let storm = self.pawns.nearest_enemy(c, file);
            if storm > kr {
                // Our pawn just in front of it blocks it: it cannot open the file.
                let storm = storm as usize;
                if own_in_front && own as usize == storm - 1 {
                    safety += STORM_BLOCKED[storm];
                    self.tr.add(tr::STORM_BLOCKED_AT + storm, c, 1);
                } else {
                    safety += STORM[storm];
                    self.tr.add(tr::STORM_AT + storm, c, 1);
                }
            }
        }

        // The squares around the king that the enemy attacks and nothing but the king
        // (or the queen) defends.
        let mut weak = 0;
        for d in KING_STEPS {
            let t = step(k, d);
            if on_board(t) && self.att[e][ix(t)] != 0 && self.att[c][ix(t)] & !(K_BIT | Q_BIT) == 0
            {
                weak += 1;
            }
        }
        safety += WEAK_KING_RING * weak;
        self.tr.add(tr::WEAK_KING_RING_AT, c, weak);
        // Our pieces pinned to the king by an enemy slider, by kind.
        let mut blockers = 0;
        for &sq in &b.piece_squares(side(e))[1..] {
            if let Some(kind) = self.pinned_by(c, sq) {
                safety += PINNED[kind];
                self.tr.add(tr::PINNED_AT + kind, c, 1);
                blockers += 1;
            }
        }
        // Our knights and bishops in our own king's zone: defenders.
        let zone = &KING_ZONE[c];
        let defenders = b.piece_squares(side(c))[1..]
            .iter()
            .filter(|&&sq| {
                matches!(kind_of(b.code_at(sq)), KNIGHT | BISHOP) && zone[delta_index(k, sq) & 0xFF]
            })
            .count() as i32;
        // A king on a wing with no pawn of either side: open to the enemy's pieces.
        let flank = KING_FLANK[(k & 7) as usize];
        if (self.pawns.files[0] | self.pawns.files[1]) & flank == 0 {
            safety += PAWNLESS_FLANK;
            self.tr.add(tr::PAWNLESS_FLANK_AT, c, 1);
        }
        let attackers = self.king_attackers[e];
        let (checks, unsafe_checks) = self.checks(c);
        let no_queen = b.kind_counts(side(e))[QUEEN] == 0;
        let mut danger =
            self.king_attack_weight[e] * KING_ATTACKERS_PERCENT[attackers.min(7) as usize] / 100
                + KING_ZONE_HIT * self.king_zone_hits[e]
                + (KNIGHT..=QUEEN)
                    .map(|k| checks[k] * SAFE_CHECK[k])
                    .sum::<i32>()
                + UNSAFE_CHECK * unsafe_checks
                + KING_BLOCKERS * blockers
                + KING_DEFENDERS * defenders;
        if no_queen {
            danger -= NO_QUEEN_RELIEF;
        }
        // Quadratic, so not in the tuner's linear trace: the trace keeps its features, from
        // which the tuner computes it with any parameters (`trace::Danger`).
        self.tr.king_danger(
            c,
            &tr::Danger {
                hits: self.king_zone_hits[e],
                checks,
                no_queen,
                unsafe_checks,
                blockers,
                defenders,
                ..tr::Danger::default()
            },
        );
        safety += danger_penalty(danger);
        acc.add(Term::KingSafety, c, safety);
    }

    /// The kind of `c`'s piece that the enemy piece on `from` pins to `c`'s king, if it is
    /// a rook, bishop or queen on a line to the king with just that piece between.
    fn pinned_by(&self, c: usize, from: u8) -> Option<usize> {
        let b = self.b;
        let code = b.code_at(from);
        let k = self.king[c];
        let delta = delta_index(from, k);
        let line = ATTACK_BY_DELTA[delta];
        // Rook and queen codes have bit 0x4, bishop and queen 0x8.
        let slides =
            (line & A_ORTH != 0 && code & 0x4 != 0) || (line & A_DIAG != 0 && code & 0x8 != 0);
        if !slides {
            return None;
        }
        let d = STEP_BY_DELTA[delta];
        let mut t = step(from, d);
        let mut pinned = None;
        while t != k {
            let between = b.code_at(t);
            if between != 0 {
                if pinned.is_some() || between & 0x30 != color_bits(c) {
                    return None;
                }
                pinned = Some(kind_of(between));
            }
            t = step(t, d);
        }
        pinned
    }

    /// Is every square from `stop` to the last rank empty and unattacked by the enemy of
    /// `c` (whose passed pawn stands behind `stop`)?
    fn path_is_safe(&self, c: usize, stop: u8) -> bool {
        let mut t = stop;
        while on_board(t) {
            if self.b.code_at(t) != 0 || self.att[1 - c][ix(t)] != 0 {
                return false;
            }
            t = step(t, FORWARD[c]);
        }
        true
    }

    /// Does the bishop on `sq` stand on a long diagonal and see both of its centre squares,
    /// no pawn in the way (pieces move; pawns stay)?
    fn long_diagonal(&self, sq: u8) -> bool {
        let (f, r) = ((sq & 7) as i32, (sq >> 4) as i32);
        let centre: [u8; 2] = if f == r {
            [0x33, 0x44]
        } else if f + r == 7 {
            [0x34, 0x43]
        } else {
            return false;
        };
        centre.iter().all(|&target| {
            let d: i8 = if f == r { 17 } else { 15 };
            let d = if target > sq { d } else { -d };
            let mut t = sq;
            while t != target {
                t = step(t, d);
                if t != target && kind_of(self.b.code_at(t)) == PAWN && self.b.code_at(t) != 0 {
                    return false;
                }
            }
            true
        })
    }

    /// Checks the other side could give: 1 for each kind (dense index, knight … queen) that
    /// has one where the checking piece cannot be taken, else 0; and how many kinds have a
    /// check only on squares we defend (unsafe checks, still a threat to reckon with).
    fn checks(&self, c: usize) -> ([i32; 6], i32) {
        let b = self.b;
        let e = 1 - c;
        let k = self.king[c];
        let theirs = &self.att[e];
        let ours = &self.att[c];
        let e_bits = color_bits(e);
        let mut kinds = 0u8;
        let mut defended = 0u8;
        for d in KNIGHT_STEPS {
            let t = step(k, d);
            if on_board(t) && b.code_at(t) & 0x30 != e_bits {
                if safe_for_checker(ours[ix(t)], theirs[ix(t)]) {
                    kinds |= theirs[ix(t)] & N_BIT;
                } else {
                    defended |= theirs[ix(t)] & N_BIT;
                }
            }
        }
        for (i, d) in KING_STEPS.into_iter().enumerate() {
            let line = if i < 4 { R_BIT | Q_BIT } else { B_BIT | Q_BIT };
            let mut t = step(k, d);
            while on_board(t) {
                let code = b.code_at(t);
                if code & 0x30 == e_bits {
                    break;
                }
                if safe_for_checker(ours[ix(t)], theirs[ix(t)]) {
                    kinds |= theirs[ix(t)] & line;
                } else {
                    defended |= theirs[ix(t)] & line;
                }
                if code != 0 {
                    break;
                }
                t = step(t, d);
            }
        }
        let mut by_kind = [0; 6];
        for kind in KNIGHT..=QUEEN {
            by_kind[kind] = i32::from(kinds & KIND_BIT[kind] != 0);
        }
        (by_kind, (defended & !kinds).count_ones() as i32)
    }

    /// Against a bare king, mating material is not enough: the lone king must be driven to
    /// the edge (to a corner of the bishop's colour with bishop and knight) and our king must
    /// come close to help.
    fn mating(&mut self, acc: &mut Acc, c: usize) {
        let b = self.b;
        let e = 1 - c;
        if b.piece_count(side(e)) != 1 {
            return;
        }
        let n = b.kind_counts(side(c));
        let can_mate =
            n[QUEEN] > 0 || n[ROOK] > 0 || (n[BISHOP] > 0 && n[KNIGHT] > 0) || n[BISHOP] >= 2;
        if !can_mate {
            return;
        }
        let lone = self.king[e];
        let mut bonus = MATING_CLOSE * (7 - distance(lone, self.king[c]));
        let bishop_and_knight =
            n[QUEEN] == 0 && n[ROOK] == 0 && n[BISHOP] == 1 && n[KNIGHT] == 1 && n[PAWN] == 0;
        let bishop = b.piece_squares(side(c))[1..]
            .iter()
            .copied()
            .find(|&sq| kind_of(b.code_at(sq)) == BISHOP);
        match bishop {
            Some(bsq) if bishop_and_knight => {
                // a1/h8 are dark, a8/h1 light.
                let corners: [u8; 2] = if is_light(bsq) {
                    [0x70, 0x07]
                } else {
                    [0x00, 0x77]
                };
                let near = distance(lone, corners[0]).min(distance(lone, corners[1]));
                bonus += MATING_BN_CORNER * (7 - near) + MATING_EDGE * centre_distance(lone) / 2;
            }
            _ => bonus += MATING_EDGE * centre_distance(lone),
        }
        acc.add(Term::Mating, c, s(bonus, bonus));
        self.tr.fixed(Term::Mating, c, s(bonus, bonus));
    }
}

/// The square colour of side `c`'s only bishop.
fn bishop_colour(b: &Board, c: usize) -> Option<bool> {
    b.piece_squares(side(c))[1..]
        .iter()
        .copied()
        .find(|&sq| kind_of(b.code_at(sq)) == BISHOP)
        .map(is_light)
}

/// Drawish endings: how much of `unscaled` the side ahead can hope to keep (x/64), or `None`
/// for a normal position.
pub(super) fn scale(b: &Board, unscaled: i32) -> Option<Scale> {
    if unscaled == 0 {
        return None;
    }
    let strong = if unscaled > 0 { 0 } else { 1 };
    let weak = 1 - strong;
    let sc = |factor, reason| Some(Scale { factor, reason });
    if b.insufficient_material() {
        return sc(0, ScaleReason::InsufficientMaterial);
    }
    let strong_pieces = piece_material(b, strong);
    let weak_pieces = piece_material(b, weak);
    let n = [b.kind_counts(Color::White), b.kind_counts(Color::Black)];
    if n[strong][PAWN] == 0 {
        if strong_pieces < MATERIAL[ROOK].mg {
            return sc(0, ScaleReason::CannotWin);
        }
        if strong_pieces == 2 * MATERIAL[KNIGHT].mg && n[strong][KNIGHT] == 2 {
            return sc(
                if n[weak][PAWN] == 0 { 0 } else { 8 },
                ScaleReason::TwoKnights,
            );
        }
        if strong_pieces - weak_pieces <= MATERIAL[BISHOP].mg {
            return sc(16, ScaleReason::NoPawnsSmallEdge);
        }
    }
    if n[0][BISHOP] == 1 && n[1][BISHOP] == 1 && bishop_colour(b, 0) != bishop_colour(b, 1) {
        let only_bishops =
            strong_pieces == MATERIAL[BISHOP].mg && weak_pieces == MATERIAL[BISHOP].mg;
        if only_bishops {
            // Even two extra pawns are often not enough; each further pawn helps.
            let extra = (n[strong][PAWN] as i32 - n[weak][PAWN] as i32 - 1).max(0);
            return sc((16 + 8 * extra).min(48), ScaleReason::OppositeBishops);
        }
        return sc(48, ScaleReason::OppositeBishopsWithPieces);
    }
    if n[strong][PAWN] == 1 && weak_pieces > 0 && strong_pieces - weak_pieces <= MATERIAL[BISHOP].mg
    {
        return sc(40, ScaleReason::LastPawn);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_runs_from_all_pieces_to_none() {
        assert_eq!(phase(&Board::startpos()), PHASE_MAX);
        let kings_and_pawns =
            Board::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1").unwrap();
        assert_eq!(phase(&kings_and_pawns), 0);
        let rooks = Board::from_fen("r3k3/8/8/8/8/8/8/4K2R w - - 0 1").unwrap();
        assert_eq!(phase(&rooks), 4);
    }

    #[test]
    fn more_mobility_is_better() {
        // The fitted tables are not strictly monotone (neighbouring counts share little
        // data), but a trapped piece is the worst case and freedom pays on the whole.
        fn rises(t: &[S]) -> bool {
            let half = t.len() / 2;
            let mean = |part: &[S], f: fn(&S) -> i32| {
                part.iter().map(f).sum::<i32>() as f64 / part.len() as f64
            };
            t.iter().all(|v| v.mg >= t[0].mg && v.eg >= t[0].eg)
                && mean(&t[half..], |v| v.mg) > mean(&t[..half], |v| v.mg)
                && mean(&t[half..], |v| v.eg) > mean(&t[..half], |v| v.eg)
        }
        assert!(rises(&MOBILITY_KNIGHT));
        assert!(rises(&MOBILITY_BISHOP));
        assert!(rises(&MOBILITY_ROOK));
        assert!(rises(&MOBILITY_QUEEN));
        // A trapped piece is a liability, a free one an asset.
        assert!(MOBILITY_KNIGHT[0].mg < 0 && MOBILITY_KNIGHT[8].mg > 0);
    }

    #[test]
    fn king_zones_have_twelve_squares_facing_the_enemy() {
        for (c, forward) in [(0, 16i32), (1, -16)] {
            assert_eq!(KING_ZONE[c].iter().filter(|&&z| z).count(), 12);
            assert!(KING_ZONE[c][(119 + 2 * forward) as usize]);
            assert!(!KING_ZONE[c][(119 - 2 * forward) as usize]);
        }
    }

    #[test]
    fn centre_distance_and_square_colours() {
        assert_eq!(centre_distance(0x00), 6); // a1
        assert_eq!(centre_distance(0x77), 6); // h8
        assert_eq!(centre_distance(0x33), 0); // d4
        assert_eq!(centre_distance(0x44), 0); // e5
        assert!(!is_light(0x00)); // a1 is dark
        assert!(is_light(0x07)); // h1 is light
        assert_eq!(distance(0x00, 0x77), 7);
    }

    #[test]
    fn piece_square_tables_mirror_between_colours() {
        for (white, black) in PST[0].iter().zip(PST[1].iter()) {
            for sq in (0u8..128).filter(|s| s & 0x88 == 0) {
                assert_eq!(white[ix(sq)], black[(sq ^ 0x70) as usize]);
            }
        }
    }
}
