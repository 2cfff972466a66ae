//! Endings whose result is known without a search: king and pawn against king (exactly, from
//! [`kpk`](super::kpk)), no mating material, the bishop of the wrong colour for a rook pawn,
//! and endings without pawns that the side ahead cannot win. The `full` and `net`
//! evaluations pass their value through [`adjust`], so the search and the E people read
//! both see the result.

use crate::chess::board::Board;
use crate::chess::types::{Color, KIND_INDEX_BY_CODE, PieceKind};

const PAWN: usize = PieceKind::Pawn.index();
const KNIGHT: usize = PieceKind::Knight.index();
const BISHOP: usize = PieceKind::Bishop.index();
const ROOK: usize = PieceKind::Rook.index();
const QUEEN: usize = PieceKind::Queen.index();

/// What a won king-and-pawn ending is worth before the pawn moves: well above any ordinary
/// advantage, but below what the evaluations give a queen or rook against a bare king, so
/// the search still promotes.
pub const KPK_WIN: i32 = 250;
/// What each rank the pawn has advanced adds to [`KPK_WIN`], so the search makes progress.
pub const KPK_PAWN_STEP: i32 = 25;

/// Why a value was replaced or scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// King and pawn against king, won for the pawn's side.
    KpkWin,
    /// King and pawn against king, drawn.
    KpkDraw,
    /// Neither side can ever mate.
    InsufficientMaterial,
    /// Bishop and rook pawns against a king in the corner the bishop cannot reach.
    WrongBishop,
    /// The side ahead has no pawns and at most a minor piece (or two knights against no
    /// pawns): it cannot force mate.
    CannotWin,
    /// No pawns on the board and the side ahead has at most a minor piece more.
    NoPawnsSmallEdge,
}

impl Reason {
    pub fn describe(self) -> &'static str {
        match self {
            Reason::KpkWin => "king and pawn against king: won",
            Reason::KpkDraw => "king and pawn against king: drawn",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::WrongBishop => "rook pawn with the wrong bishop: drawn",
            Reason::CannotWin => "no pawns, at most a minor piece: cannot win",
            Reason::NoPawnsSmallEdge => "no pawns, at most a minor piece ahead",
        }
    }
}

/// A known ending's value (centipawns, White's view) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Known {
    pub value: i32,
    pub reason: Reason,
}

/// Whether the evaluation's own drawish-ending scale already covers the cases without pawns
/// (the `full` mode has one), so only exact results are applied on top of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scaling {
    /// Apply every rule, exact results and scale factors alike.
    All,
    /// Apply only the exact results (king and pawn, no mating material, the wrong bishop).
    ExactOnly,
}

/// Out of 64, the share of an advantage kept in an ending without pawns in which the side
/// ahead has at most a minor piece more (rook against minor and the like: mostly drawn).
const SMALL_EDGE_SCALE: i32 = 16;

/// Rough piece values (pawn, knight, bishop, rook, queen), for telling which endings
/// without pawns are close to level.
const VALUE: [i32; 5] = [100, 300, 300, 500, 900];

/// The known value of `board` given the evaluation's own `value` (White's view), or `None`
/// when nothing is known and `value` stands. Cheap for positions with many men: the piece
/// counts are read first.
#[inline]
pub fn adjust(board: &Board, value: i32, scaling: Scaling) -> Option<Known> {
    let men = board.piece_count(Color::White) + board.piece_count(Color::Black);
    if men > 6 {
        return None;
    }
    known(board, value, scaling)
}

/// Whether `board` is an ending whose value is known exactly, whatever the evaluation says
/// (king and pawn against king, no mating material, the wrong bishop): nothing the search
/// learns about other positions should move it.
#[inline]
pub fn is_exact(board: &Board) -> bool {
    adjust(board, 0, Scaling::ExactOnly).is_some()
}

fn known(board: &Board, value: i32, scaling: Scaling) -> Option<Known> {
    let exact = |value, reason| Some(Known { value, reason });
    if board.insufficient_material() {
        return exact(0, Reason::InsufficientMaterial);
    }
    let n = [
        board.kind_counts(Color::White),
        board.kind_counts(Color::Black),
    ];
    let bare = |c: usize| n[c][..5].iter().all(|&k| k == 0);
    for (strong, s) in n.iter().enumerate() {
        if !bare(1 - strong) {
            continue;
        }
        if s[PAWN] == 1 && s[KNIGHT] + s[BISHOP] + s[ROOK] + s[QUEEN] == 0 {
            return Some(kpk(board, Color::from_index(strong)));
        }
        if s[PAWN] >= 1
            && s[BISHOP] == 1
            && s[KNIGHT] + s[ROOK] + s[QUEEN] == 0
            && wrong_bishop(board, Color::from_index(strong))
        {
            return exact(0, Reason::WrongBishop);
        }
    }
    if scaling == Scaling::ExactOnly || value == 0 {
        return None;
    }
    let strong = usize::from(value < 0);
    let weak = 1 - strong;
    let s = &n[strong];
    if s[PAWN] != 0 {
        return None;
    }
    let pieces = |c: usize| -> i32 { (1..5).map(|k| n[c][k] as i32 * VALUE[k]).sum() };
    let scaled = |factor: i32, reason| {
        Some(Known {
            // Truncation towards zero keeps a colour-mirrored position's value negated.
            value: value * factor / 64,
            reason,
        })
    };
    if s[ROOK] + s[QUEEN] == 0 && s[KNIGHT] + s[BISHOP] <= 1 {
        return scaled(0, Reason::CannotWin);
    }
    if s[KNIGHT] == 2 && s[BISHOP] + s[ROOK] + s[QUEEN] == 0 && n[weak][PAWN] == 0 {
        return scaled(0, Reason::CannotWin);
    }
    if n[weak][PAWN] == 0 && pieces(strong) - pieces(weak) <= VALUE[BISHOP] {
        return scaled(SMALL_EDGE_SCALE, Reason::NoPawnsSmallEdge);
    }
    None
}

/// 0..64 square (a1 = 0) of a 0x88 square, ranks turned round for Black so that side `c`
/// plays up the board.
fn square(x88: u8, c: Color) -> usize {
    let (file, rank) = ((x88 & 7) as usize, (x88 >> 4) as usize);
    let rank = if c == Color::White { rank } else { 7 - rank };
    rank * 8 + file
}

/// The squares of side `c`'s pieces other than its king, with their dense kind indices.
fn men(board: &Board, c: Color) -> impl Iterator<Item = (u8, usize)> + '_ {
    board.piece_squares(c)[1..].iter().map(move |&sq| {
        (
            sq,
            KIND_INDEX_BY_CODE[(board.code_at(sq) & 0x0F) as usize] as usize,
        )
    })
}

/// King and pawn against king, `strong` having the pawn.
fn kpk(board: &Board, strong: Color) -> Known {
    let pawn = men(board, strong)
        .find(|&(_, k)| k == PAWN)
        .map(|(sq, _)| sq)
        .expect("the pawn's side has a pawn");
    let wk = square(board.king_x88(strong), strong);
    let bk = square(board.king_x88(!strong), strong);
    let p = square(pawn, strong);
    let to_move = board.side_to_move() == strong;
    if super::kpk::table().won(to_move, wk, p, bk) {
        // p / 8 is the pawn's rank from its own side, 1..=6.
        let v = KPK_WIN + KPK_PAWN_STEP * (p as i32 / 8 - 1);
        Known {
            value: v * strong.sign(),
            reason: Reason::KpkWin,
        }
    } else {
        Known {
            value: 0,
            reason: Reason::KpkDraw,
        }
    }
}

/// Bishop and pawns against a bare king: drawn when the pawns are all rook pawns on one
/// file, the bishop cannot cover the promotion square and the defending king stands on it
/// or next to it.
fn wrong_bishop(board: &Board, strong: Color) -> bool {
    let mut file = None;
    let mut bishop_light = false;
    for (sq, k) in men(board, strong) {
        if k == PAWN {
            let f = sq & 7;
            if (f != 0 && f != 7) || file.is_some_and(|g| g != f) {
                return false;
            }
            file = Some(f);
        } else {
            bishop_light = ((sq >> 4) + (sq & 7)) & 1 == 1;
        }
    }
    let Some(f) = file else {
        return false;
    };
    // The promotion square, from the strong side's view (its eighth rank), and its colour
    // on the real board: a8 and h1 are light, h8 and a1 dark.
    let promotion = 56 + f as usize;
    let real_rank = if strong == Color::White { 7 } else { 0 };
    let promotion_light = (real_rank + f) & 1 == 1;
    if promotion_light == bishop_light {
        return false;
    }
    let defender = square(board.king_x88(!strong), strong);
    (file_of(defender) - file_of(promotion)).abs() <= 1
        && (rank_of(defender) - rank_of(promotion)).abs() <= 1
}

fn file_of(s: usize) -> i32 {
    (s % 8) as i32
}

fn rank_of(s: usize) -> i32 {
    (s / 8) as i32
}
