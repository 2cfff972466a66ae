//! Threats: pieces the other side attacks by a pawn, by a lesser piece or undefended, pawn
//! pushes that would attack a piece, restricted squares and squares that harass the queen.

use super::Ctx;
use super::geometry::*;
use crate::chess::attacks::{KING_STEPS, KNIGHT_STEPS};
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::{self as tr, Tracer};
use crate::engine::eval::{Acc, Term};

impl<T: Tracer> Ctx<'_, T> {
    /// Pieces of side `c` that the other side attacks: by a pawn, by a lesser piece, or not
    /// defended at all. Scored for the attacker (seed 002: "threatened pieces").
    pub(super) fn threats(&mut self, acc: &mut Acc, c: usize) {
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
}
