//! The seed page's own take on exchange estimation (seed 000, "Dragsortering"): a matrix of
//! *positional attack values* (per square, which kinds of piece of each side attack it), a
//! matrix of *vector attack values* (per piece, in which directions it can move and still be
//! defended), and the `vfm` table that turns an attack value into the material result of the
//! exchange on that square.
//!
//! The page is frank that this is rough: four bits per side cannot count two attackers of a
//! kind, and the mover's own kind bit is assumed to be the mover. It only orders moves; the
//! search corrects it. We reproduce it faithfully (the `seed` scheme is the page's experiment),
//! and the `modern` scheme uses a real SEE instead.

use crate::chess::attacks::{
    A_SLIDERS, ATTACK_BY_DELTA, KING_STEPS, KNIGHT_STEPS, STEP_BY_DELTA, delta_index,
};
use crate::chess::board::Board;
use crate::chess::types::{Color, PieceKind, Square};

/// The four kinds of attacker the seed's attack value can tell apart. The king is not one of
/// them: the page's matrix has no bit for it (a king never takes part in an exchange it would
/// lose, and legal move generation already keeps it off attacked squares).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AttackClass {
    Pawn = 0,
    /// Knight or bishop: the page lumps them together.
    Minor = 1,
    Rook = 2,
    Queen = 3,
}

impl AttackClass {
    pub const ALL: [AttackClass; 4] = [
        AttackClass::Pawn,
        AttackClass::Minor,
        AttackClass::Rook,
        AttackClass::Queen,
    ];

    /// The material values of the page's table-building code (`mvl_cp`): 100, 300, 500,
    /// 1000, the seed's values with the minor class at the knight's 300.
    pub const VALUES: [i32; 4] = [
        PieceKind::Pawn.seed_value(),
        PieceKind::Knight.seed_value(),
        PieceKind::Rook.seed_value(),
        PieceKind::Queen.seed_value(),
    ];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// This class's bit in a side's nibble of the attack value.
    #[inline]
    pub const fn bit(self) -> u8 {
        1 << self as u8
    }

    #[inline]
    pub const fn value(self) -> i32 {
        Self::VALUES[self as usize]
    }

    /// `None` for the king.
    #[inline]
    pub const fn of(kind: PieceKind) -> Option<AttackClass> {
        match kind {
            PieceKind::Pawn => Some(AttackClass::Pawn),
            PieceKind::Knight | PieceKind::Bishop => Some(AttackClass::Minor),
            PieceKind::Rook => Some(AttackClass::Rook),
            PieceKind::Queen => Some(AttackClass::Queen),
            PieceKind::King => None,
        }
    }

    /// Class of a raw board code (colour and N bit ignored); `None` for the king or empty.
    #[inline]
    pub(crate) const fn of_code(code: u8) -> Option<AttackClass> {
        match PieceKind::from_code(code) {
            Some(kind) => AttackClass::of(kind),
            None => None,
        }
    }
}

/// Number of `vfm` entries: 16 white attacker sets × 16 black × 4 mover classes × 2 sides.
pub const VFM_LEN: usize = 2048;

/// One exchange as the page's `createAttackTable` plays it. The mover (class `mover`, side
/// `mover_side`) has just landed on the square; the opponent captures with its cheapest
/// attacker, the mover's side recaptures with its cheapest, and so on for at most three
/// rounds, stopping as soon as the side to capture has nothing left. Nobody ever declines a
/// capture: the page's table is "what happens if both sides fight it out", not a minimax.
/// The mover's own class bit is taken out of its side's set, because the page assumes the
/// attacker of that kind *is* the mover. Result in centipawns from the mover's side.
const fn play_exchange(white: u8, black: u8, mover: usize, mover_side: usize) -> i32 {
    let mover_bit = 1u8 << mover;
    let (mut own, mut opp) = if mover_side == 0 {
        (white, black)
    } else {
        (black, white)
    };
    own &= !mover_bit & 0x0F;
    opp &= 0x0F;
    let mut on_square = AttackClass::VALUES[mover];
    let mut result = 0;
    let mut round = 0;
    while round < 3 {
        if opp == 0 {
            break;
        }
        let c = opp.trailing_zeros() as usize;
        opp &= !(1 << c);
        result -= on_square;
        on_square = AttackClass::VALUES[c];
        if own == 0 {
            break;
        }
        let c = own.trailing_zeros() as usize;
        own &= !(1 << c);
        result += on_square;
        on_square = AttackClass::VALUES[c];
        round += 1;
    }
    result
}

const fn build_vfm() -> [i16; VFM_LEN] {
    let mut t = [0i16; VFM_LEN];
    let mut side = 0;
    while side < 2 {
        let mut mover = 0;
        while mover < 4 {
            let mut black = 0;
            while black < 16 {
                let mut white = 0;
                while white < 16 {
                    let v = play_exchange(white as u8, black as u8, mover, side);
                    t[white + black * 16 + mover * 256 + side * 1024] = v as i16;
                    white += 1;
                }
                black += 1;
            }
            mover += 1;
        }
        side += 1;
    }
    t
}

/// The page's `vfm` table, laid out as the page indexes it:
/// `attack_value + mover_class * 256 + side * 1024`, where `attack_value` is
/// `white_bits | black_bits << 4`. Built at compile time.
pub static VFM: [i16; VFM_LEN] = build_vfm();

/// `vfm[...]` for an attack value (`white | black << 4`), the moving piece's class and side:
/// the mover's material result of the exchange its arrival starts.
#[inline]
pub fn vfm(attack_value: u8, mover: AttackClass, side: Color) -> i32 {
    VFM[attack_value as usize + mover.index() * 256 + side.index() * 1024] as i32
}

/// Index in `KING_STEPS` of a unit step (0..8), as a bit position for the vector matrix.
#[inline]
const fn direction_index(step: i8) -> Option<u32> {
    match step {
        1 => Some(0),
        -1 => Some(1),
        16 => Some(2),
        -16 => Some(3),
        15 => Some(4),
        17 => Some(5),
        -15 => Some(6),
        -17 => Some(7),
        _ => None,
    }
}

/// The two matrices of the page, computed for one position (once per node, before the moves
/// are scored). Indexed by 0x88 square.
#[derive(Clone)]
pub struct AttackValues {
    /// Per square: low nibble the classes of white pieces attacking it, high nibble black's.
    positional: [u8; 128],
    /// Per occupied square: bit `i` set when the piece there, moving along `KING_STEPS[i]`,
    /// stays defended by a friendly slider standing behind it on that line.
    vector: [u8; 128],
}

impl AttackValues {
    /// Builds both matrices by walking every piece's attacks (the page fills them while the
    /// move generator runs; computing them in one pass per node is the same information).
    pub fn compute(board: &Board) -> AttackValues {
        let mut a = AttackValues {
            positional: [0; 128],
            vector: [0; 128],
        };
        for color in Color::BOTH {
            // The page's layout: White's classes in the low nibble, Black's in the high one;
            // the king has no bit.
            let shift = if color == Color::White { 0 } else { 4 };
            let positional = &mut a.positional;
            let vector = &mut a.vector;
            visit_attacks(
                board,
                color,
                |s, bit| {
                    if bit != KING_BIT {
                        positional[s as usize] |= bit << shift;
                    }
                },
                |s, dir| vector[s as usize] |= 1 << dir,
            );
        }
        a
    }

    /// The 8-bit positional attack value of a square (`white | black << 4`).
    #[inline]
    pub fn positional(&self, sq: Square) -> u8 {
        self.positional[sq.x88() as usize]
    }

    /// The 8-bit direction mask of the piece on a square (bit `i`: `KING_STEPS[i]`).
    #[inline]
    pub fn vector(&self, sq: Square) -> u8 {
        self.vector[sq.x88() as usize]
    }

    /// The attack value seen by a piece moving `from` → `to`: the positional value of `to`,
    /// plus the defender its vector value says follows it along the line it moves on (the
    /// page's example: a pawn advancing up a file with its own rook behind it).
    pub(crate) fn attack_value_for_move(&self, board: &Board, from: u8, to: u8, side: Color) -> u8 {
        let mut value = self.positional[(to & 0x7F) as usize];
        let d = delta_index(from, to);
        if ATTACK_BY_DELTA[d] & A_SLIDERS == 0 {
            return value;
        }
        let step = STEP_BY_DELTA[d];
        let Some(dir) = direction_index(step) else {
            return value;
        };
        if self.vector[(from & 0x7F) as usize] & (1 << dir) == 0 {
            return value;
        }
        // Walk back to the defender; its class bit joins the mover's side.
        let mut s = from.wrapping_sub(step as u8);
        while s & 0x88 == 0 {
            let code = board.code_at(s);
            if code != 0 {
                if let Some(class) = AttackClass::of_code(code) {
                    let shift = if side == Color::White { 0 } else { 4 };
                    value |= class.bit() << shift;
                }
                break;
            }
            s = s.wrapping_sub(step as u8);
        }
        value
    }
}

/// Calls `attack(square, bit)` for every square a piece of `color` attacks, with the
/// attacker's class bit (`AttackClass::bit`) or `KING_BIT`, and `own_blocker(square, dir)`
/// for each friendly piece a slider's ray runs into along `KING_STEPS[dir]` (the vector
/// values). A square attacked by two pieces is visited twice.
#[inline]
pub(crate) fn visit_attacks(
    board: &Board,
    color: Color,
    mut attack: impl FnMut(u8, u8),
    mut own_blocker: impl FnMut(u8, u32),
) {
    let own = color.bits();
    let pawn_caps: [i8; 2] = match color {
        Color::White => [15, 17],
        Color::Black => [-15, -17],
    };
    for &from in board.piece_squares(color) {
        if from & 0x88 != 0 {
            continue;
        }
        let code = board.code_at(from);
        let kind = code & 0x0F;
        let (steps, bit): (&[i8], u8) = match kind {
            0x1 => (&pawn_caps, AttackClass::Pawn.bit()),
            0x2 => (&KNIGHT_STEPS, AttackClass::Minor.bit()),
            0x3 => (&KING_STEPS, KING_BIT),
            _ => {
                let Some(class) = AttackClass::of_code(code) else {
                    continue;
                };
                for (i, &d) in KING_STEPS.iter().enumerate() {
                    let slides = if i < 4 {
                        kind & 0x4 != 0
                    } else {
                        kind & 0x8 != 0
                    };
                    if !slides {
                        continue;
                    }
                    let mut s = from.wrapping_add(d as u8);
                    while s & 0x88 == 0 {
                        attack(s, class.bit());
                        let c = board.code_at(s);
                        if c != 0 {
                            if c & own != 0 {
                                own_blocker(s, i as u32);
                            }
                            break;
                        }
                        s = s.wrapping_add(d as u8);
                    }
                }
                continue;
            }
        };
        for &d in steps {
            let s = from.wrapping_add(d as u8);
            if s & 0x88 == 0 {
                attack(s, bit);
            }
        }
    }
}

/// The king's bit beside the class bits (0..4) in one side's attack map.
pub(crate) const KING_BIT: u8 = 0x10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vfm_spot_checks_from_the_page_tables() {
        // The page's first table: a white pawn moving to a square a black piece attacks is
        // lost (-100) unless White can take back, e.g. with a knight: -100 + value of the
        // black capturer.
        let black_pawn = AttackClass::Pawn.bit() << 4;
        let black_knight = AttackClass::Minor.bit() << 4;
        let white_knight = AttackClass::Minor.bit();
        assert_eq!(vfm(black_pawn, AttackClass::Pawn, Color::White), -100);
        assert_eq!(
            vfm(black_knight | white_knight, AttackClass::Pawn, Color::White),
            200
        );
        // A white knight on a square a black pawn guards, defended by a white rook:
        // -300 + 100 = -200 (the page's second table).
        assert_eq!(
            vfm(
                black_pawn | AttackClass::Rook.bit(),
                AttackClass::Minor,
                Color::White
            ),
            -200
        );
        // Nothing attacks: nothing happens.
        for c in AttackClass::ALL {
            assert_eq!(vfm(0, c, Color::Black), 0);
        }
    }

    #[test]
    fn vector_values_follow_the_page_example() {
        // Black pawn d7 with its own rook on d8 behind it: moving down the file (-16) keeps it
        // defended.
        let b = Board::from_fen("3rk3/3p4/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        let a = AttackValues::compute(&b);
        let d7 = "d7".parse::<Square>().unwrap();
        assert_eq!(a.vector(d7), 1 << 3);
        // d5 is attacked by the white queen only; the pawn arriving there brings the rook.
        let d5: Square = "d5".parse().unwrap();
        assert_eq!(a.positional(d5), AttackClass::Queen.bit());
        let v = a.attack_value_for_move(&b, d7.x88(), d5.x88(), Color::Black);
        assert_eq!(v, AttackClass::Queen.bit() | AttackClass::Rook.bit() << 4);
        // Queen takes pawn, rook takes queen: the pawn's side ends +900.
        assert_eq!(vfm(v, AttackClass::Pawn, Color::Black), -100 + 1000);
    }
}
