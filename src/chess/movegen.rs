//! Legal move generation on the 0x88 board. Checks and pins are found first by walking the
//! eight rays out of the king, so every move produced is legal without make/test: a pinned
//! piece may only move along its pin ray, and in check every move must land on the checker
//! or between it and the king. Squares are collected in `u128` masks indexed by the 0x88
//! index itself (bits 0..127).

use super::attacks::{DIAGONAL, KING_STEPS, KNIGHT_STEPS, ORTHOGONAL, square_attacked_on};
use super::board::{Board, NO_SQ};
use super::types::{Color, Move, MoveList, PieceKind};

#[inline(always)]
const fn bit(sq: u8) -> u128 {
    1u128 << sq
}

/// Which moves to produce.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenKind {
    /// Every legal move.
    All,
    /// Captures and promotions only (quiescence). In check the search asks for `All`.
    Tactical,
}

struct Restrictions {
    /// Squares a non-king move may land on (all ones unless in check).
    check_mask: u128,
    checkers: u32,
    pinned: u128,
    pins: [(u8, u128); 8],
    npins: usize,
}

impl Restrictions {
    #[inline]
    fn allowed(&self, from: u8) -> u128 {
        if self.pinned & bit(from) == 0 {
            return self.check_mask;
        }
        for &(sq, ray) in &self.pins[..self.npins] {
            if sq == from {
                return self.check_mask & ray;
            }
        }
        self.check_mask
    }
}

impl Board {
    /// All legal moves, in generator order (piece-list order, then direction order).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, GenKind::All);
        list
    }

    /// Legal captures and promotions.
    pub fn tactical_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list, GenKind::Tactical);
        list
    }

    /// Does the side to move have any legal move? (cheaper than counting them)
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.generate(&mut list, GenKind::All);
        !list.is_empty()
    }

    /// What a position without a legal move is, in the words shown in place of a static
    /// evaluation (which means nothing there): `checkmate, Black wins` or `stalemate`.
    /// `None` while the side to move has a move.
    pub fn no_move_text(&self) -> Option<String> {
        if self.has_legal_move() {
            return None;
        }
        Some(if self.in_check() {
            format!("checkmate, {} wins", (!self.side_to_move()).name())
        } else {
            "stalemate".to_string()
        })
    }

    fn restrictions(&self) -> Restrictions {
        let us = self.side;
        let ub = us.bits();
        let ksq = self.list[us.index()][0];
        let mut r = Restrictions {
            check_mask: !0,
            checkers: 0,
            pinned: 0,
            pins: [(NO_SQ, 0); 8],
            npins: 0,
        };
        for (i, &d) in KING_STEPS.iter().enumerate() {
            let slider_bit: u8 = if i < 4 { 0x4 } else { 0x8 };
            let mut s = ksq.wrapping_add(d as u8);
            let mut ray = 0u128;
            let mut own = NO_SQ;
            while s & 0x88 == 0 {
                ray |= bit(s);
                let c = self.cells[s as usize];
                if c != 0 {
                    if c & ub != 0 {
                        if own != NO_SQ {
                            break;
                        }
                        own = s;
                    } else {
                        let kind = c & 0x0F;
                        if kind & slider_bit != 0 && kind & 0x3 == 0 {
                            if own == NO_SQ {
                                r.checkers += 1;
                                r.check_mask = if r.checkers == 1 { ray } else { 0 };
                            } else {
                                r.pinned |= bit(own);
                                r.pins[r.npins] = (own, ray);
                                r.npins += 1;
                            }
                        }
                        break;
                    }
                }
                s = s.wrapping_add(d as u8);
            }
        }
        let them_bits = us.flip().bits();
        for &d in &KNIGHT_STEPS {
            let s = ksq.wrapping_add(d as u8);
            if s & 0x88 == 0 && self.cells[s as usize] & 0x3F == them_bits | 0x2 {
                r.checkers += 1;
                r.check_mask = if r.checkers == 1 { bit(s) } else { 0 };
            }
        }
        let pawn_dirs: [i8; 2] = match us {
            Color::White => [15, 17],
            Color::Black => [-15, -17],
        };
        for d in pawn_dirs {
            let s = ksq.wrapping_add(d as u8);
            if s & 0x88 == 0 && self.cells[s as usize] & 0x3F == them_bits | 0x1 {
                r.checkers += 1;
                r.check_mask = if r.checkers == 1 { bit(s) } else { 0 };
            }
        }
        r
    }

    /// Fills `list` with the legal moves of the side to move.
    pub fn generate(&self, list: &mut MoveList, kind: GenKind) {
        let us = self.side;
        let ui = us.index();
        let ub = us.bits();
        let tb = us.flip().bits();
        let ksq = self.list[ui][0];
        let r = self.restrictions();
        let tactical = kind == GenKind::Tactical;

        if r.checkers < 2 {
            for i in 1..self.count[ui] as usize {
                let from = self.list[ui][i];
                let allowed = r.allowed(from);
                if allowed == 0 {
                    continue;
                }
                let code = self.cells[from as usize];
                match code & 0x0F {
                    0x1 => self.pawn_moves(list, from, allowed, tactical),
                    0x2 => {
                        for &d in &KNIGHT_STEPS {
                            let to = from.wrapping_add(d as u8);
                            if to & 0x88 != 0 || allowed & bit(to) == 0 {
                                continue;
                            }
                            let t = self.cells[to as usize];
                            if t == 0 {
                                if !tactical {
                                    list.push(Move::with_flags(from, to, 0, 0));
                                }
                            } else if t & tb != 0 {
                                list.push(Move::with_flags(from, to, 0, Move::FLAG_CAPTURE));
                            }
                        }
                    }
                    k => {
                        if k & 0x4 != 0 {
                            self.slider_moves(list, from, &ORTHOGONAL, allowed, tb, tactical);
                        }
                        if k & 0x8 != 0 {
                            self.slider_moves(list, from, &DIAGONAL, allowed, tb, tactical);
                        }
                    }
                }
            }
        }

        // King steps: the target must not be attacked with the king lifted off its square.
        let them = us.flip();
        for &d in &KING_STEPS {
            let to = ksq.wrapping_add(d as u8);
            if to & 0x88 != 0 {
                continue;
            }
            let t = self.cells[to as usize];
            if t & ub != 0 || (tactical && t == 0) {
                continue;
            }
            if self.attacked_ignoring(to, them, ksq) {
                continue;
            }
            let flags = if t != 0 { Move::FLAG_CAPTURE } else { 0 };
            list.push(Move::with_flags(ksq, to, 0, flags));
        }

        if !tactical && r.checkers == 0 {
            self.castling_moves(list, ksq);
        }
    }

    #[inline]
    fn slider_moves(
        &self,
        list: &mut MoveList,
        from: u8,
        dirs: &[i8; 4],
        allowed: u128,
        tb: u8,
        tactical: bool,
    ) {
        for &d in dirs {
            let mut to = from.wrapping_add(d as u8);
            while to & 0x88 == 0 {
                let t = self.cells[to as usize];
                if t == 0 {
                    if !tactical && allowed & bit(to) != 0 {
                        list.push(Move::with_flags(from, to, 0, 0));
                    }
                } else {
                    if t & tb != 0 && allowed & bit(to) != 0 {
                        list.push(Move::with_flags(from, to, 0, Move::FLAG_CAPTURE));
                    }
                    break;
                }
                to = to.wrapping_add(d as u8);
            }
        }
    }

    #[inline]
    fn push_pawn_move(list: &mut MoveList, from: u8, to: u8, flags: u32, promote: bool) {
        if promote {
            for p in PieceKind::PROMOTIONS {
                list.push(Move::with_flags(from, to, p.code(), flags));
            }
        } else {
            list.push(Move::with_flags(from, to, 0, flags));
        }
    }

    fn pawn_moves(&self, list: &mut MoveList, from: u8, allowed: u128, tactical: bool) {
        let us = self.side;
        let (fwd, start_rank, promo_rank, caps): (i8, u8, u8, [i8; 2]) = match us {
            Color::White => (16, 1, 7, [15, 17]),
            Color::Black => (-16, 6, 0, [-15, -17]),
        };
        let tb = us.flip().bits();
        let one = from.wrapping_add(fwd as u8);
        let promote = one >> 4 == promo_rank;
        // Pushes (quiet, except promotions which quiescence wants).
        if self.cells[one as usize] == 0 {
            if allowed & bit(one) != 0 && (!tactical || promote) {
                Self::push_pawn_move(list, from, one, 0, promote);
            }
            if !tactical && from >> 4 == start_rank {
                let two = one.wrapping_add(fwd as u8);
                if self.cells[two as usize] == 0 && allowed & bit(two) != 0 {
                    list.push(Move::with_flags(from, two, 0, Move::FLAG_DOUBLE_PUSH));
                }
            }
        }
        for d in caps {
            let to = from.wrapping_add(d as u8);
            if to & 0x88 != 0 {
                continue;
            }
            let t = self.cells[to as usize];
            if t & tb != 0 {
                if allowed & bit(to) != 0 {
                    Self::push_pawn_move(list, from, to, Move::FLAG_CAPTURE, promote);
                }
            } else if to == self.ep && self.ep_is_legal(from, to) {
                list.push(Move::with_flags(from, to, 0, Move::FLAG_EN_PASSANT));
            }
        }
    }

    /// En passant removes two pawns from one rank and can expose the king along it (or a
    /// diagonal); play it on a copy of the cells and look.
    fn ep_is_legal(&self, from: u8, to: u8) -> bool {
        let us = self.side;
        let captured = match us {
            Color::White => to.wrapping_sub(16),
            Color::Black => to.wrapping_add(16),
        };
        let mut cells = self.cells;
        cells[to as usize] = cells[from as usize];
        cells[from as usize] = 0;
        cells[captured as usize] = 0;
        !square_attacked_on(&cells, self.list[us.index()][0], us.flip().bits())
    }

    fn castling_moves(&self, list: &mut MoveList, ksq: u8) {
        let us = self.side;
        let them = us.flip();
        let (short, long) = match us {
            Color::White => (1u8, 2u8),
            Color::Black => (4, 8),
        };
        let c = &self.cells;
        if self.castling & short != 0
            && c[ksq as usize + 1] == 0
            && c[ksq as usize + 2] == 0
            && !self.attacked_ignoring(ksq + 1, them, NO_SQ)
            && !self.attacked_ignoring(ksq + 2, them, NO_SQ)
        {
            list.push(Move::with_flags(ksq, ksq + 2, 0, Move::FLAG_CASTLE));
        }
        if self.castling & long != 0
            && c[ksq as usize - 1] == 0
            && c[ksq as usize - 2] == 0
            && c[ksq as usize - 3] == 0
            && !self.attacked_ignoring(ksq - 1, them, NO_SQ)
            && !self.attacked_ignoring(ksq - 2, them, NO_SQ)
        {
            list.push(Move::with_flags(ksq, ksq - 2, 0, Move::FLAG_CASTLE));
        }
    }
}
