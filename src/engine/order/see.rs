//! Static exchange evaluation: the swap algorithm on the 0x88 board.
//!
//! The seed page (000) admits it could not find a firm definition of SEE and invents its own
//! attack-value scheme (see `seed.rs`). This is the textbook one: both sides capture on one
//! square, always with their least valuable attacker, each free to stop when continuing would
//! lose; the result is what the first move wins or loses with best play on that square.
//!
//! Attackers are found once, from the piece lists: the 0x88 difference table says in one
//! lookup whether a piece could attack the target at all, so most pieces cost one test.
//! Sliders on a line with the target are kept even when something stands between (x-ray
//! candidates); a slider may take part once its line is empty, so a rook behind a rook, a
//! queen behind a bishop or a bishop behind a pawn join in their turn as the pieces in front
//! leave. Pins are ignored, as in every SEE: this orders moves, the search proves them.

use crate::chess::attacks::{
    A_SLIDERS, ATTACK_BITS_BY_CODE, ATTACK_BY_DELTA, STEP_BY_DELTA, delta_index,
};
use crate::chess::board::Board;
use crate::chess::types::{Color, KIND_INDEX_BY_CODE, Move, PieceKind};

/// Exchange values by dense kind index (pawn, knight, bishop, rook, queen, king). Knight and
/// bishop are equal so that a bishop-for-knight trade counts as even, not as losing (with the
/// seed's bishop at 450 every BxN would look like a blunder). The king's value only has to
/// exceed everything else; it is never actually won.
pub const SEE_VALUES: [i32; 6] = [100, 325, 325, 500, 975, 20_000];

const PAWN: usize = PieceKind::Pawn.index();
const QUEEN: usize = PieceKind::Queen.index();
const KING: usize = PieceKind::King.index();

/// Dense kind index of a board code (pawn 0 ... king 5); `None` when empty.
#[inline]
const fn kind_index(code: u8) -> Option<usize> {
    PieceKind::index_of_code(code)
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
    /// Per side: pieces that attack the target along an empty line or could once the line
    /// clears (sliders aligned with it: x-rays), found from the piece lists with the 0x88
    /// difference table.
    sides: [Candidates; 2],
}

#[derive(Clone, Copy)]
struct Candidates {
    square: [u8; 16],
    kind: [u8; 16],
    /// Unit step from the piece towards the target for sliders; 0 for pawns, knights and
    /// kings, which need no clear line.
    step: [i8; 16],
    len: usize,
}

impl Candidates {
    /// The pieces of side `color` that attack `target` or could once a line clears
    /// (pieces on squares in `gone` have left).
    fn collect(board: &Board, color: Color, target: u8, gone: u128) -> Candidates {
        let cells = board.cells();
        let mut side = Candidates {
            square: [0; 16],
            kind: [0; 16],
            step: [0; 16],
            len: 0,
        };
        // Piece lists hold board squares only (the masks just spare bounds checks).
        for &s in board.piece_squares(color) {
            let code = cells[(s & 0x7F) as usize];
            let d = delta_index(s, target);
            let bits = ATTACK_BY_DELTA[d] & ATTACK_BITS_BY_CODE[code as usize];
            // Most pieces are not on a line with the target at all: that test comes first,
            // the rarer departed piece second.
            if bits == 0 || gone & bit(s) != 0 {
                continue;
            }
            // Non-zero attack bits mean a real piece code, so the kind is a valid index.
            let k = KIND_INDEX_BY_CODE[(code & 0x0F) as usize];
            let n = side.len & 15;
            side.square[n] = s;
            side.kind[n] = k;
            side.step[n] = if bits & A_SLIDERS != 0 {
                STEP_BY_DELTA[d]
            } else {
                0
            };
            side.len += 1;
        }
        side
    }
}

impl<'a> Exchange<'a> {
    fn new(board: &'a Board, target: u8, gone: u128) -> Exchange<'a> {
        let white = Candidates::collect(board, Color::White, target, gone);
        let black = Candidates::collect(board, Color::Black, target, gone);
        Exchange::with(board, target, gone, white, black)
    }

    fn with(
        board: &'a Board,
        target: u8,
        gone: u128,
        white: Candidates,
        black: Candidates,
    ) -> Exchange<'a> {
        Exchange {
            cells: board.cells(),
            target,
            gone,
            sides: [white, black],
        }
    }

    /// Is the line from `from` (exclusive) to the target (exclusive) empty now?
    #[inline]
    fn clear(&self, from: u8, step: i8) -> bool {
        let mut s = from.wrapping_add(step as u8);
        while s != self.target {
            if s & 0x88 != 0 {
                return false;
            }
            if self.cells[s as usize] != 0 && self.gone & bit(s) == 0 {
                return false;
            }
            s = s.wrapping_add(step as u8);
        }
        true
    }

    /// The least valuable attacker of side `color` that can reach the target now:
    /// (index among the side's candidates, kind index).
    fn least(&self, color: Color) -> Option<(usize, usize)> {
        let side = &self.sides[color.index()];
        let mut best: Option<(usize, usize)> = None;
        for j in 0..side.len {
            let k = side.kind[j] as usize;
            if best.is_some_and(|(_, bk)| bk <= k) {
                continue;
            }
            if side.step[j] != 0 && !self.clear(side.square[j], side.step[j]) {
                continue;
            }
            best = Some((j, k));
            if k == PAWN {
                break;
            }
        }
        best
    }

    /// Lifts an attacker off its square, which may open a line for a piece behind it.
    fn remove(&mut self, color: Color, j: usize) {
        let side = &mut self.sides[color.index()];
        self.gone |= bit(side.square[j]);
        let last = side.len - 1;
        side.square[j] = side.square[last];
        side.kind[j] = side.kind[last];
        side.step[j] = side.step[last];
        side.len = last;
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
            let Some((j, k)) = self.least(side) else {
                break;
            };
            self.remove(side, j);
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
    let cells = board.cells();
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
    // Most moves land where nothing of the opponent's can ever reach: then nothing is
    // exchanged and the first move's gain is the answer, without looking at our own pieces.
    let theirs = Candidates::collect(board, us.flip(), to, gone);
    if theirs.len == 0 {
        return gain;
    }
    let ours = Candidates::collect(board, us, to, gone);
    let (white, black) = match us {
        Color::White => (ours, theirs),
        Color::Black => (theirs, ours),
    };
    let mut ex = Exchange::with(board, to, gone, white, black);
    ex.resolve(gain, on_square, us.flip())
}

/// Is `see(board, mv) >= threshold`? The same answer, often without playing the exchange
/// out: a capture never does worse than its victim minus the capturing piece (the capturer
/// is lost at worst, and the side that captured can always stop), and a quiet move never
/// worse than the moving piece — unless a pawn takes back on the last rank and promotes,
/// so moves to the first and last ranks always play it out.
pub fn see_at_least(board: &Board, mv: Move, threshold: i32) -> bool {
    let back_rank = matches!(mv.to().x88() >> 4, 0 | 7);
    if !back_rank && mv.promotion().is_none() && !mv.is_en_passant() && !mv.is_castle() {
        let cells = board.cells();
        if let Some(mover) = kind_index(cells[mv.from().x88() as usize]) {
            let victim = kind_index(cells[mv.to().x88() as usize]).map_or(0, |k| SEE_VALUES[k]);
            if victim - SEE_VALUES[mover] >= threshold {
                return true;
            }
        }
    }
    see(board, mv) >= threshold
}

/// What side `by` can win by starting an exchange on `sq` (0 when it had better not, or the
/// square is empty or holds its own piece): whether, and how badly, the piece there is en
/// prise. The king is never "won".
pub fn exchange_gain(board: &Board, sq: crate::chess::types::Square, by: Color) -> i32 {
    let target = sq.x88();
    let cells = board.cells();
    let victim = cells[target as usize];
    let Some(victim_kind) = kind_index(victim) else {
        return 0;
    };
    if victim & by.bits() != 0 || victim_kind == KING {
        return 0;
    }
    let mut ex = Exchange::new(board, target, 0);
    let Some((j, k)) = ex.least(by) else {
        return 0;
    };
    ex.remove(by, j);
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
