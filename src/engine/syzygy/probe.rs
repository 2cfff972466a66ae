//! The rules around the stored values. The files leave out what a one-move look settles:
//! captures (including en passant, which no file's entry can show) are played here and the
//! smaller table probed after them; a DTZ file stores one side to move, and the other side's
//! DTZ is found from its moves. Results follow the files' meaning: WDL as if the fifty-move
//! counter were zero, DTZ in plies to the next capture or pawn move of the best line.

use crate::chess::{Board, Color, Move, PieceKind};

use super::table::{Kind, name_part};
use super::{TableError, Tablebases, TbVerdict, Wdl};

/// Why a probe gives no answer: the position is not in the tables, or a file is bad.
enum Miss {
    Uncovered,
    Bad(TableError),
}

impl From<TableError> for Miss {
    fn from(e: TableError) -> Miss {
        Miss::Bad(e)
    }
}

type Probed<T> = Result<T, Miss>;

/// The answer, `None` for a position the tables do not cover.
fn settle<T>(r: Probed<T>) -> Result<Option<T>, TableError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(Miss::Uncovered) => Ok(None),
        Err(Miss::Bad(e)) => Err(e),
    }
}

/// One legal move's result by the tables, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveResult {
    pub mv: Move,
    /// The result after the move.
    pub wdl: Wdl,
    /// The position's DTZ when this move is played: 1 for a mate, ±1 or ±101 for a capture
    /// or pawn move (by the result it keeps), otherwise one ply more than the reply's.
    pub dtz: i32,
}

/// The DTZ of a position whose best move captures or moves a pawn, by its result.
fn before_zeroing(wdl: i8) -> i32 {
    match wdl {
        2 => 1,
        1 => 101,
        -1 => -101,
        -2 => -1,
        _ => 0,
    }
}

/// The DTZ of a stored distance of `plies` for a position of result `wdl`: one ply more (the
/// zeroing move itself), and 100 more for the results the fifty-move rule turns, with the
/// sign of the result.
fn signed_dtz(plies: u32, wdl: i8) -> i32 {
    let plies =
        i32::try_from(plies).unwrap_or(i32::MAX - 101) + 1 + if wdl.abs() == 1 { 100 } else { 0 };
    plies * i32::from(wdl.signum())
}

fn is_zeroing(board: &Board, mv: Move) -> bool {
    mv.is_capture()
        || board
            .piece_at(mv.from())
            .is_some_and(|p| p.kind() == PieceKind::Pawn)
}

fn is_mate(board: &Board) -> bool {
    board.in_check() && !board.has_legal_move()
}

/// The men as the tables code them, and the name parts of White's and Black's.
fn men_of(board: &Board) -> (Vec<(u8, u8)>, String, String) {
    let mut men = Vec::with_capacity(8);
    for color in Color::BOTH {
        for (sq, piece) in board.pieces(color) {
            let code = match piece.kind() {
                PieceKind::Pawn => 1,
                PieceKind::Knight => 2,
                PieceKind::Bishop => 3,
                PieceKind::Rook => 4,
                PieceKind::Queen => 5,
                PieceKind::King => 6,
            };
            let colour = if color == Color::Black { 8 } else { 0 };
            men.push((code | colour, sq.index64() as u8));
        }
    }
    men.sort_unstable();
    let white = name_part(men.iter().filter(|(c, _)| c & 8 == 0).map(|(c, _)| *c));
    let black = name_part(men.iter().filter(|(c, _)| c & 8 != 0).map(|(c, _)| *c));
    (men, white, black)
}

fn men_count(board: &Board) -> usize {
    board.piece_count(Color::White) + board.piece_count(Color::Black)
}

impl Tablebases {
    /// Whether the tables can answer for this position at all: no castling rights, and no
    /// more men than the largest table holds.
    pub fn covers(&self, board: &Board) -> bool {
        board.castling_rights().bits() == 0 && men_count(board) <= self.max_men
    }

    /// The position's WDL (the side to move's view, as if the fifty-move counter were
    /// zero); `None` when the tables do not cover it.
    pub fn probe_wdl(&self, board: &Board) -> Result<Option<Wdl>, TableError> {
        if !self.covers(board) {
            return Ok(None);
        }
        let mut b = board.clone();
        settle(self.wdl_search(&mut b, false).map(|(v, _)| wdl_of(v)))
    }

    /// The position's DTZ as the tables define it: plies to the next capture or pawn move
    /// of the best line, positive when the side to move wins (above 100 for a cursed win),
    /// negative when it loses (below −100 for a blessed loss), 0 for a draw. May be one ply
    /// more than the shortest where the file rounds; never so where that would change the
    /// result. `None` when the tables do not cover the position.
    pub fn probe_dtz(&self, board: &Board) -> Result<Option<i32>, TableError> {
        if !self.covers(board) {
            return Ok(None);
        }
        let mut b = board.clone();
        settle(self.dtz_search(&mut b))
    }

    /// The position's result from White's side and the DTZ's size, for people; `None`
    /// when the tables do not cover it. Unlike the tables' own values it counts the
    /// board's fifty-move counter: a win whose next capture or pawn move would come after
    /// the hundredth ply without one is a cursed win (a loss so, a blessed loss).
    pub fn verdict(&self, board: &Board) -> Result<Option<TbVerdict>, TableError> {
        let (Some(wdl), Some(dtz)) = (self.probe_wdl(board)?, self.probe_dtz(board)?) else {
            return Ok(None);
        };
        let late = dtz.unsigned_abs() + board.halfmove_clock() > 100;
        let wdl = match wdl {
            Wdl::Win if late => Wdl::CursedWin,
            Wdl::Loss if late => Wdl::BlessedLoss,
            w => w,
        };
        let white = match board.side_to_move() {
            Color::White => wdl,
            Color::Black => wdl.flip(),
        };
        Ok(Some(TbVerdict {
            white,
            dtz: dtz.unsigned_abs(),
        }))
    }

    /// Every legal move's result, best first (wins by the shortest DTZ, then draws, then
    /// losses by the longest); `None` when the tables do not cover the position.
    pub fn probe_root(&self, board: &Board) -> Result<Option<Vec<MoveResult>>, TableError> {
        if !self.covers(board) {
            return Ok(None);
        }
        let mut b = board.clone();
        settle(self.root_moves(&mut b))
    }

    fn root_moves(&self, board: &mut Board) -> Probed<Vec<MoveResult>> {
        let mut out = Vec::new();
        for &mv in board.legal_moves().iter() {
            let zeroing = is_zeroing(board, mv);
            board.make(mv);
            let result = self.move_result(board, zeroing);
            let mate = is_mate(board);
            board.unmake();
            let (wdl, mut dtz) = result?;
            if mate {
                dtz = 1;
            }
            out.push(MoveResult {
                mv,
                wdl: wdl_of(wdl),
                dtz,
            });
        }
        out.sort_by_key(|r| (-r.wdl.value(), r.dtz));
        Ok(out)
    }

    /// The mover's WDL and DTZ after a move, from the position after it.
    fn move_result(&self, board: &mut Board, zeroing: bool) -> Probed<(i8, i32)> {
        let wdl = -self.wdl_search(board, false)?.0;
        let dtz = if zeroing {
            before_zeroing(wdl)
        } else {
            let reply = -self.dtz_search(board)?;
            reply + reply.signum()
        };
        Ok((wdl, dtz))
    }

    /// The WDL stored for the position itself (its captures not looked at); bare kings are
    /// a draw without a file.
    fn stored_wdl(&self, board: &Board) -> Probed<i8> {
        let (men, white, black) = men_of(board);
        if men.len() == 2 {
            return Ok(0);
        }
        if men.len() > self.max_men {
            return Err(Miss::Uncovered);
        }
        let slot = self
            .table_for(Kind::Wdl, &white, &black)
            .ok_or(Miss::Uncovered)?;
        Ok(slot
            .table()?
            .wdl(&men, &white, board.side_to_move() == Color::Black)?)
    }

    /// The position's WDL with its captures played out (and its pawn moves, when
    /// `pawn_moves`), and whether the best move found is such a move, in which case the
    /// DTZ file holds no useful value for the position.
    fn wdl_search(&self, board: &mut Board, pawn_moves: bool) -> Probed<(i8, bool)> {
        let moves = board.legal_moves();
        let mut best = -2i8;
        let mut tried = 0;
        for &mv in moves.iter() {
            let pawn = board
                .piece_at(mv.from())
                .is_some_and(|p| p.kind() == PieceKind::Pawn);
            if !(mv.is_capture() || (pawn_moves && pawn)) {
                continue;
            }
            tried += 1;
            board.make(mv);
            let child = self.wdl_search(board, false);
            board.unmake();
            let v = -child?.0;
            if v > best {
                best = v;
                if v == 2 {
                    return Ok((2, true));
                }
            }
        }
        // When every legal move was tried, the stored value is not needed (and may be wrong:
        // the files do not know en passant).
        let all_tried = tried > 0 && tried == moves.len();
        let stored = if all_tried {
            best
        } else {
            self.stored_wdl(board)?
        };
        if best >= stored && (tried > 0) {
            return Ok((best, best > 0 || all_tried));
        }
        Ok((stored, false))
    }

    fn dtz_search(&self, board: &mut Board) -> Probed<i32> {
        let (wdl, zeroing_best) = self.wdl_search(board, true)?;
        if wdl == 0 {
            return Ok(0);
        }
        if zeroing_best {
            return Ok(before_zeroing(wdl));
        }
        let (men, white, black) = men_of(board);
        let slot = self
            .table_for(Kind::Dtz, &white, &black)
            .ok_or(Miss::Uncovered)?;
        let black_to_move = board.side_to_move() == Color::Black;
        if let Some(plies) = slot.table()?.dtz(&men, &white, black_to_move, wdl)? {
            return Ok(signed_dtz(plies, wdl));
        }
        // The file stores the other side to move: the best of the moves, one ply more.
        let mut best: Option<i32> = None;
        for &mv in board.legal_moves().iter() {
            let zeroing = is_zeroing(board, mv);
            board.make(mv);
            let result = if zeroing {
                self.wdl_search(board, false)
                    .map(|(v, _)| -before_zeroing(v))
            } else {
                self.dtz_search(board).map(|v| -v)
            };
            let mate = is_mate(board);
            board.unmake();
            let mut d = result?;
            if mate {
                best = Some(1);
                continue;
            }
            if !zeroing {
                d += d.signum();
            }
            if d.signum() == i32::from(wdl.signum()) && best.is_none_or(|b| d < b) {
                best = Some(d);
            }
        }
        Ok(best.unwrap_or(-1))
    }
}

fn wdl_of(v: i8) -> Wdl {
    Wdl::from_value(i32::from(v)).unwrap_or(Wdl::Draw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursed_wins_and_blessed_losses_lie_beyond_a_hundred_plies() {
        assert_eq!(signed_dtz(0, 2), 1);
        assert_eq!(signed_dtz(12, 2), 13);
        assert_eq!(signed_dtz(12, -2), -13);
        assert_eq!(signed_dtz(12, 1), 113);
        assert_eq!(signed_dtz(12, -1), -113);
        assert_eq!(before_zeroing(1), 101);
        assert_eq!(before_zeroing(-1), -101);
        assert_eq!(before_zeroing(2), 1);
        assert_eq!(before_zeroing(0), 0);
    }
}
