//! The `full` evaluation's first two passes: piece-square values and the pawn and king
//! attacks, then each piece's attacks, mobility and pressure on the enemy king, and the rook
//! and minor-piece terms that need only the pawn files.

use super::Ctx;
use super::geometry::*;
use super::king::KING_ZONE;
use crate::chess::attacks::{KING_STEPS, KNIGHT_STEPS, delta_index};
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::{self as tr, Tracer};
use crate::engine::eval::{Acc, Term};

impl<T: Tracer> Ctx<'_, T> {
    /// Pass 1: piece-square values of every piece; pawn files and pawn and king attacks.
    pub(super) fn pawns_and_kings(&mut self, acc: &mut Acc, c: usize) {
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
    pub(super) fn pieces(&mut self, acc: &mut Acc, c: usize) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn piece_square_tables_mirror_between_colours() {
        for (white, black) in PST[0].iter().zip(PST[1].iter()) {
            for sq in (0u8..128).filter(|s| s & 0x88 == 0) {
                assert_eq!(white[ix(sq)], black[(sq ^ 0x70) as usize]);
            }
        }
    }
}
