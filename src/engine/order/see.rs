//! Static exchange evaluation: the swap algorithm on the 0x88 board.
//!
//! The seed page (000) admits it could not find a firm definition of SEE and invents its own
//! attack-value scheme (see `seed.rs`). This is the textbook one: both sides capture on one
//! square, always with their least valuable attacker, each free to stop when continuing would
//! lose; the result is what the first move wins or loses with best play on that square.
//!
//! Attackers are found by walking the eight rays out of the target square once; each ray
//! keeps its nearest piece (its "front"). When a front piece joins the exchange it is lifted
//! off the board and its ray is walked further, so a rook behind a rook, a queen behind a
//! bishop or a bishop behind a pawn (x-rays) join in their turn. Pins are ignored, as in every
//! SEE: this orders moves, the search proves them.

use super::super::attacks::{KING_STEPS, KNIGHT_STEPS};
use super::super::board::{Board, NO_SQ};
use super::super::types::{Color, Move};

/// Exchange values by dense kind index (pawn, knight, bishop, rook, queen, king). Knight and
/// bishop are equal so that a bishop-for-knight trade counts as even, not as losing (with the
/// seed's bishop at 450 every BxN would look like a blunder). The king's value only has to
/// exceed everything else; it is never actually won.
pub const SEE_VALUES: [i32; 6] = [100, 325, 325, 500, 975, 20_000];

const PAWN: usize = 0;
const QUEEN: usize = 4;
const KING: usize = 5;

/// Dense kind index of a board code (pawn 0 ... king 5); `None` when empty or invalid.
#[inline]
pub(crate) const fn kind_index(code: u8) -> Option<usize> {
    match code & 0x0F {
        0x1 => Some(0),
        0x2 => Some(1),
        0x8 => Some(2),
        0x4 => Some(3),
        0xC => Some(4),
        0x3 => Some(5),
        _ => None,
    }
}

#[inline]
const fn bit(sq: u8) -> u128 {
    1u128 << (sq & 0x7F)
}

/// The attackers of one square during an exchange.
struct Exchange<'a> {
    cells: &'a [u8; 128],
    target: u8,
    /// Squares whose pieces have left for the target (or were captured en passant).
    gone: u128,
    /// Nearest occupied square on each of the eight rays (`KING_STEPS` order), or `NO_SQ`.
    fronts: [u8; 8],
    /// Knights of either colour a knight's jump away, still on their squares.
    knights: [u8; 8],
    nknights: usize,
}

/// Where an attacker was found, so it can be lifted off.
#[derive(Clone, Copy)]
enum Slot {
    Ray(usize),
    Knight(usize),
}

impl<'a> Exchange<'a> {
    fn new(cells: &'a [u8; 128], target: u8, gone: u128) -> Exchange<'a> {
        let mut ex = Exchange {
            cells,
            target,
            gone,
            fronts: [NO_SQ; 8],
            knights: [NO_SQ; 8],
            nknights: 0,
        };
        for i in 0..8 {
            ex.fronts[i] = ex.walk(target, KING_STEPS[i]);
        }
        for d in KNIGHT_STEPS {
            let s = target.wrapping_add(d as u8);
            if s & 0x88 == 0 && ex.occupied(s) && cells[s as usize] & 0x0F == 0x2 {
                ex.knights[ex.nknights] = s;
                ex.nknights += 1;
            }
        }
        ex
    }

    #[inline]
    fn occupied(&self, s: u8) -> bool {
        self.cells[s as usize] != 0 && self.gone & bit(s) == 0
    }

    /// The first occupied square beyond `from` along `step`, or `NO_SQ`.
    #[inline]
    fn walk(&self, from: u8, step: i8) -> u8 {
        let mut s = from.wrapping_add(step as u8);
        while s & 0x88 == 0 {
            if self.occupied(s) {
                return s;
            }
            s = s.wrapping_add(step as u8);
        }
        NO_SQ
    }

    /// Does the front piece of ray `i` attack the target?
    #[inline]
    fn ray_attacks(&self, i: usize, s: u8) -> bool {
        let code = self.cells[s as usize];
        let kind = code & 0x0F;
        let slider_bit = if i < 4 { 0x4 } else { 0x8 };
        if kind & slider_bit != 0 {
            return true;
        }
        let step = KING_STEPS[i];
        if s != self.target.wrapping_add(step as u8) {
            return false;
        }
        match kind {
            0x3 => true,
            // A pawn attacks diagonally forward: a white pawn stands below its target.
            0x1 if i >= 4 => {
                let below = step == -15 || step == -17;
                (code & 0x10 != 0) == below
            }
            _ => false,
        }
    }

    /// The least valuable attacker of side `color` still in play: (slot, square, kind index).
    fn least(&self, color: Color) -> Option<(Slot, u8, usize)> {
        let bits = color.bits();
        let mut best: Option<(Slot, u8, usize)> = None;
        for (j, &s) in self.knights[..self.nknights].iter().enumerate() {
            if self.cells[s as usize] & bits != 0 {
                // Knights rank right after pawns; any knight will do.
                best = Some((Slot::Knight(j), s, 1));
                break;
            }
        }
        for i in 0..8 {
            let s = self.fronts[i];
            if s == NO_SQ {
                continue;
            }
            let code = self.cells[s as usize];
            if code & bits == 0 || !self.ray_attacks(i, s) {
                continue;
            }
            let Some(k) = kind_index(code) else { continue };
            if best.is_none_or(|(_, _, bk)| k < bk) {
                best = Some((Slot::Ray(i), s, k));
                if k == PAWN {
                    break;
                }
            }
        }
        best
    }

    /// Lifts an attacker off its square; a ray looks further, past it (x-rays).
    fn remove(&mut self, slot: Slot, s: u8) {
        self.gone |= bit(s);
        match slot {
            Slot::Ray(i) => self.fronts[i] = self.walk(s, KING_STEPS[i]),
            Slot::Knight(j) => {
                self.nknights -= 1;
                self.knights[j] = self.knights[self.nknights];
            }
        }
    }

    /// Plays the exchange on out from a first capture that gained `first_gain` and left a
    /// piece worth `on_square` on the target; `side` captures next. Returns the first
    /// capturer's result with best play (each side may stop instead of recapturing).
    fn resolve(&mut self, first_gain: i32, mut on_square: i32, mut side: Color) -> i32 {
        // At most 32 pieces, so at most 32 captures.
        let mut gain = [0i32; 34];
        gain[0] = first_gain;
        let mut d = 0;
        let last_rank = |c: Color| match c {
            Color::White => 7,
            Color::Black => 0,
        };
        while d + 1 < gain.len() {
            let Some((slot, s, k)) = self.least(side) else {
                break;
            };
            self.remove(slot, s);
            // A king may only take when nothing can take it back.
            if k == KING && self.least(side.flip()).is_some() {
                break;
            }
            d += 1;
            let promotes = k == PAWN && self.target >> 4 == last_rank(side);
            gain[d] = on_square - gain[d - 1];
            on_square = SEE_VALUES[k];
            if promotes {
                gain[d] += SEE_VALUES[QUEEN] - SEE_VALUES[PAWN];
                on_square = SEE_VALUES[QUEEN];
            }
            // Neither continuing nor stopping can change the sign any more: cut it short.
            if (-gain[d - 1]).max(gain[d]) < 0 {
                break;
            }
            side = side.flip();
        }
        while d > 0 {
            gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
            d -= 1;
        }
        gain[0]
    }
}

/// Static exchange evaluation of `mv` in centipawns for the side making it: what the move
/// wins (captured piece, promotion) minus what the exchange it starts on the target square
/// costs, with both sides capturing least valuable first and free to stop. Works for quiet
/// moves too (negative when the piece just hangs). Castling counts as 0. A move whose
/// from-square holds no piece gives 0; nothing here panics on any input.
pub fn see(board: &Board, mv: Move) -> i32 {
    if mv.is_none() || mv.is_castle() {
        return 0;
    }
    let cells = &board.cells;
    let from = mv.from().x88();
    let to = mv.to().x88();
    let moved = cells[from as usize];
    let Some(moved_kind) = kind_index(moved) else {
        return 0;
    };
    if moved & 0x30 == 0 || moved & 0x30 == 0x30 {
        return 0;
    }
    let us = if moved & 0x10 != 0 {
        Color::White
    } else {
        Color::Black
    };
    let mut gone = bit(from);
    let mut gain = 0;
    if mv.is_en_passant() {
        let captured_sq = match us {
            Color::White => to.wrapping_sub(16),
            Color::Black => to.wrapping_add(16),
        };
        if captured_sq & 0x88 == 0 {
            gone |= bit(captured_sq);
        }
        gain += SEE_VALUES[PAWN];
    } else {
        let victim = cells[to as usize];
        if victim != 0 {
            if victim & us.bits() != 0 {
                return 0;
            }
            gain += kind_index(victim).map_or(0, |k| SEE_VALUES[k]);
        }
    }
    let mut on_square = SEE_VALUES[moved_kind];
    if let Some(p) = mv.promotion() {
        let pv = SEE_VALUES[p.index()];
        gain += pv - SEE_VALUES[PAWN];
        on_square = pv;
    }
    let mut ex = Exchange::new(cells, to, gone);
    ex.resolve(gain, on_square, us.flip())
}

/// What side `by` can win by starting an exchange on `sq` (0 when it had better not, or the
/// square is empty or holds its own piece). The modern scheme asks this of a piece's square
/// to know whether the piece is en prise and should get out of the way.
pub fn exchange_gain(board: &Board, sq: crate::engine::types::Square, by: Color) -> i32 {
    let target = sq.x88();
    let cells = &board.cells;
    let victim = cells[target as usize];
    let Some(victim_kind) = kind_index(victim) else {
        return 0;
    };
    if victim & by.bits() != 0 || victim_kind == KING {
        return 0;
    }
    let mut ex = Exchange::new(cells, target, 0);
    let Some((slot, s, k)) = ex.least(by) else {
        return 0;
    };
    ex.remove(slot, s);
    if k == KING && ex.least(by.flip()).is_some() {
        return 0;
    }
    let mut first = SEE_VALUES[victim_kind];
    let mut on_square = SEE_VALUES[k];
    if k == PAWN && target >> 4 == if by == Color::White { 7 } else { 0 } {
        first += SEE_VALUES[QUEEN] - SEE_VALUES[PAWN];
        on_square = SEE_VALUES[QUEEN];
    }
    ex.resolve(first, on_square, by.flip()).max(0)
}
