//! King safety: pawn shelter and storm, weak squares around the king, pins, defenders, and
//! the danger from attacking pieces and the checks they could give.

use super::Ctx;
use super::geometry::*;
use crate::chess::attacks::{
    A_DIAG, A_ORTH, ATTACK_BY_DELTA, KING_STEPS, KNIGHT_STEPS, STEP_BY_DELTA, delta_index,
};
use crate::engine::eval::params::*;
use crate::engine::eval::tracer::{self as tr, Tracer};
use crate::engine::eval::{Acc, Term};

/// The king zone: the king's square, its neighbours, and the three squares two ranks in
/// front of it (where attackers prepare mates), as a table by square difference.
pub(super) const fn king_zone(forward: i32) -> [bool; 256] {
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
pub(super) static KING_ZONE: [[bool; 256]; 2] = [king_zone(16), king_zone(-16)];

/// The files of the king's wing, by the king's file: a–d, c–f or e–h.
const KING_FLANK: [u8; 8] = [0x0F, 0x0F, 0x0F, 0x3C, 0x3C, 0xF0, 0xF0, 0xF0];

/// Can a piece give check on a square that the defender reaches with `ours` and the
/// attacker with `theirs` (attack maps' kind bits) and stay there? When nothing defends the
/// square, and when only the king does while a second kind of attacker also covers it (the
/// king cannot take back: the mating checks next to it).
#[inline]
fn safe_for_checker(ours: u8, theirs: u8) -> bool {
    ours == 0 || (ours == K_BIT && theirs.count_ones() >= 2)
}

impl<T: Tracer> Ctx<'_, T> {
    /// Shelter and storm in front of `c`'s king, and the danger from the other side's
    /// pieces around it.
    pub(super) fn king_safety(&mut self, acc: &mut Acc, c: usize) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_zones_have_twelve_squares_facing_the_enemy() {
        for (c, forward) in [(0, 16i32), (1, -16)] {
            assert_eq!(KING_ZONE[c].iter().filter(|&&z| z).count(), 12);
            assert!(KING_ZONE[c][(119 + 2 * forward) as usize]);
            assert!(!KING_ZONE[c][(119 - 2 * forward) as usize]);
        }
    }
}
