//! The engine's nouns: `Color`, `PieceKind`, `Piece` (the seed's 8-bit codes), `Square`
//! (a 0x88 index), `Move` and `CoordinateMove` (a move's squares read as syntax). Nothing
//! outside the engine handles the raw integers.

use std::fmt;
use std::str::FromStr;

/// A side. `bits()` is the seed's colour nibble: white `0x10`, black `0x20`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side with `index() == i` (0 White, anything else Black): for loops over sides.
    #[inline]
    pub const fn from_index(i: usize) -> Color {
        if i == 0 { Color::White } else { Color::Black }
    }

    /// The seed page's colour bits (section 001).
    #[inline]
    pub const fn bits(self) -> u8 {
        match self {
            Color::White => 0x10,
            Color::Black => 0x20,
        }
    }

    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// +1 for White, -1 for Black: turns a side-to-move score into White's view.
    #[inline]
    pub const fn sign(self) -> i32 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.flip()
    }
}

/// Per-side data, indexed by `Color` rather than by a bare integer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    pub fn new(white: T, black: T) -> Self {
        ByColor { white, black }
    }
    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

/// Piece kinds with the seed's type codes. Rook (4) and bishop (8) are single bits and the
/// queen is both (0xC), so "slides along lines/diagonals" is one bit test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceKind {
    Pawn = 0x1,
    Knight = 0x2,
    King = 0x3,
    Rook = 0x4,
    Bishop = 0x8,
    Queen = 0xC,
}

impl PieceKind {
    /// In the order a user thinks of them (and the order of material tables).
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];
    pub const PROMOTIONS: [PieceKind; 4] = [
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
    ];

    #[inline]
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// The kind a board code holds (colour and N bits ignored); `None` for an empty cell.
    #[inline]
    pub const fn from_code(code: u8) -> Option<PieceKind> {
        match KIND_INDEX_BY_CODE[(code & 0x0F) as usize] {
            NO_KIND => None,
            i => Some(PieceKind::ALL[i as usize]),
        }
    }

    /// Dense index of the kind a board code holds, `None` for an empty cell: the hot-loop
    /// form of `from_code(code).map(PieceKind::index)`.
    #[inline]
    pub const fn index_of_code(code: u8) -> Option<usize> {
        match KIND_INDEX_BY_CODE[(code & 0x0F) as usize] {
            NO_KIND => None,
            i => Some(i as usize),
        }
    }

    /// Dense 0..6 index (pawn, knight, bishop, rook, queen, king: the order of `ALL`) for
    /// tables.
    #[inline]
    pub const fn index(self) -> usize {
        KIND_INDEX_BY_CODE[self as usize] as usize
    }

    /// The seed's value of this kind (seed 002): see [`SEED_VALUES`].
    #[inline]
    pub const fn seed_value(self) -> i32 {
        SEED_VALUES[self.index()]
    }

    pub const fn from_index(i: usize) -> PieceKind {
        PieceKind::ALL[i]
    }

    /// Lower-case English letter (`p n b r q k`), as in FEN and coordinate promotions.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    pub fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_lowercase() {
            'p' => Some(PieceKind::Pawn),
            'n' => Some(PieceKind::Knight),
            'b' => Some(PieceKind::Bishop),
            'r' => Some(PieceKind::Rook),
            'q' => Some(PieceKind::Queen),
            'k' => Some(PieceKind::King),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Knight => "knight",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Queen => "queen",
            PieceKind::King => "king",
        }
    }
}

/// Marks a code nibble that is no piece kind in [`KIND_INDEX_BY_CODE`].
pub const NO_KIND: u8 = 0xFF;

/// Piece code → kind, the one table: the dense kind index (`PieceKind::index`, the order of
/// `PieceKind::ALL`) by a board code's low nibble, `NO_KIND` where no kind has that code
/// (0 is an empty cell). Built from the enum's own codes, so it cannot drift from them.
pub const KIND_INDEX_BY_CODE: [u8; 16] = {
    let mut t = [NO_KIND; 16];
    let mut i = 0;
    while i < PieceKind::ALL.len() {
        t[PieceKind::ALL[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The seed program's piece values (seed 002) by dense kind index: pawn 100, knight 300,
/// bishop 450, rook 500, queen 1000, king 9999. The board's incremental material counts in
/// them; the king is never captured, so it never enters a material sum.
pub const SEED_VALUES: [i32; 6] = [100, 300, 450, 500, 1000, 9999];

/// A piece as the seed codes it: colour nibble | kind nibble, plus the "not moved" bit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    /// The seed's N bit ("not moved"); 0x40 clashes with neither colour nor kind bits.
    pub const NOT_MOVED: u8 = 0x40;

    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece(color.bits() | kind.code())
    }

    /// Decodes a board cell; `None` for an empty cell or an invalid code.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        if code & 0x30 == 0 || code & 0x30 == 0x30 || PieceKind::from_code(code).is_none() {
            return None;
        }
        if code & !(0x30 | 0x0F | Piece::NOT_MOVED) != 0 {
            return None;
        }
        Some(Piece(code))
    }

    #[inline]
    pub const fn code(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn color(self) -> Color {
        if self.0 & 0x10 != 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline]
    pub const fn kind(self) -> PieceKind {
        match PieceKind::from_code(self.0) {
            Some(k) => k,
            None => PieceKind::Pawn, // unreachable: constructors validate
        }
    }

    /// True while the piece has not moved (the seed's N bit).
    #[inline]
    pub const fn not_moved(self) -> bool {
        self.0 & Piece::NOT_MOVED != 0
    }

    pub const fn with_not_moved(self, not_moved: bool) -> Piece {
        if not_moved {
            Piece(self.0 | Piece::NOT_MOVED)
        } else {
            Piece(self.0 & !Piece::NOT_MOVED)
        }
    }

    /// FEN letter: upper case for White.
    pub fn fen_char(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }

    /// Unicode chess glyph.
    pub fn glyph(self) -> char {
        let idx = self.kind().index();
        let white = ['♙', '♘', '♗', '♖', '♕', '♔'];
        let black = ['♟', '♞', '♝', '♜', '♛', '♚'];
        match self.color() {
            Color::White => white[idx],
            Color::Black => black[idx],
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Piece({}, {:#04x})", self.fen_char(), self.0)
    }
}

/// A square as a 0x88 index: `rank * 16 + file`. Only valid (on-board) squares exist as
/// values of this type; the board's off-board half never escapes the engine.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 16 + file)
    }

    /// From a raw 0x88 index; `None` when `idx & 0x88 != 0` (off the board).
    #[inline]
    pub const fn from_0x88(idx: u8) -> Option<Square> {
        if idx & 0x88 == 0 {
            Some(Square(idx))
        } else {
            None
        }
    }

    /// Index in 0..64, a1 = 0, h8 = 63.
    #[inline]
    pub const fn index64(self) -> usize {
        ((self.0 >> 4) * 8 + (self.0 & 7)) as usize
    }

    pub const fn from_index64(i: usize) -> Square {
        Square::new((i % 8) as u8, (i / 8) as u8)
    }

    #[inline]
    pub const fn x88(self) -> u8 {
        self.0
    }

    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// The same square seen from the other side (a1 ⇄ a8).
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 0x70)
    }

    /// Step by a 0x88 offset; `None` off the board.
    #[inline]
    pub const fn offset(self, d: i8) -> Option<Square> {
        Square::from_0x88(self.0.wrapping_add(d as u8))
    }

    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square::from_index64)
    }

    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }

    pub fn rank_char(self) -> char {
        (b'1' + self.rank()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}: not a square")]
pub struct SquareParseError(pub String);

impl FromStr for Square {
    type Err = SquareParseError;
    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let b = s.as_bytes();
        if b.len() == 2 && (b'a'..=b'h').contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
            Ok(Square::new(b[0] - b'a', b[1] - b'1'))
        } else {
            Err(SquareParseError(s.to_string()))
        }
    }
}

/// A coordinate move read as syntax only: two squares and perhaps a promotion piece.
/// Nothing about it is known to be legal until `Board::parse_uci_move` checks it
/// (`notation` reads it from text; `Board::play` names a refused move's squares with it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoordinateMove {
    pub from: Square,
    pub to: Square,
    pub promotion: Option<PieceKind>,
}

/// A move: from, to, promotion kind and flags packed in 32 bits. Built only by the move
/// generator (or by matching text against its output), so every `Move` a caller holds was
/// legal in some position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

impl Move {
    pub const NONE: Move = Move(0);
    pub const FLAG_CAPTURE: u32 = 1;
    pub const FLAG_EN_PASSANT: u32 = 2;
    pub const FLAG_CASTLE: u32 = 4;
    pub const FLAG_DOUBLE_PUSH: u32 = 8;

    #[inline]
    pub(crate) const fn with_flags(from: u8, to: u8, promo: u8, flags: u32) -> Move {
        Move(from as u32 | (to as u32) << 8 | (promo as u32) << 16 | flags << 20 | 1 << 31)
    }

    /// The packed bits, for compact tables (the TT stores moves this way).
    #[inline]
    pub(crate) const fn raw(self) -> u32 {
        self.0
    }

    #[inline]
    pub(crate) const fn from_raw(raw: u32) -> Move {
        Move(raw)
    }

    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square((self.0 & 0x7F) as u8)
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square(((self.0 >> 8) & 0x7F) as u8)
    }

    #[inline]
    pub const fn promotion(self) -> Option<PieceKind> {
        let p = ((self.0 >> 16) & 0xF) as u8;
        if p == 0 {
            None
        } else {
            PieceKind::from_code(p)
        }
    }

    #[inline]
    pub(crate) const fn flags(self) -> u32 {
        (self.0 >> 20) & 0xF
    }

    #[inline]
    pub const fn is_capture(self) -> bool {
        self.flags() & (Move::FLAG_CAPTURE | Move::FLAG_EN_PASSANT) != 0
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flags() & Move::FLAG_EN_PASSANT != 0
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.flags() & Move::FLAG_CASTLE != 0
    }

    #[inline]
    pub const fn is_double_push(self) -> bool {
        self.flags() & Move::FLAG_DOUBLE_PUSH != 0
    }

    /// Captures and promotions: what quiescence searches.
    #[inline]
    pub const fn is_tactical(self) -> bool {
        self.is_capture() || self.promotion().is_some()
    }

    /// A compact 16-bit key (from, to, promotion) for tables such as the TT.
    #[inline]
    pub const fn key16(self) -> u16 {
        let promo = match self.promotion() {
            Some(PieceKind::Knight) => 1,
            Some(PieceKind::Bishop) => 2,
            Some(PieceKind::Rook) => 3,
            Some(PieceKind::Queen) => 4,
            _ => 0,
        };
        (self.from().index64() | self.to().index64() << 6 | promo << 12) as u16
    }

    /// Coordinate notation as the seed and UCI use it: `e2e4`, `e7e8q`; `0000` for none.
    pub fn uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_none() {
            return write!(f, "0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "{}", p.letter())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A fixed-capacity move list on the stack (no position has more than 218 legal moves). Its
/// slots are not written until used: the search makes one or two of these per node.
#[derive(Clone)]
pub struct MoveList {
    moves: arrayvec::ArrayVec<Move, 256>,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: arrayvec::ArrayVec::new_const(),
        }
    }
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves.push(m);
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
    pub fn clear(&mut self) {
        self.moves.clear();
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_round_trips_every_square() {
        for sq in Square::all() {
            let s = sq.to_string();
            assert_eq!(s.parse::<Square>().unwrap(), sq);
            assert_eq!(Square::from_index64(sq.index64()), sq);
            assert_eq!(Square::from_0x88(sq.x88()), Some(sq));
        }
        assert!("z9".parse::<Square>().is_err());
        assert_eq!(
            "i1".parse::<Square>().unwrap_err().to_string(),
            "i1: not a square"
        );
    }

    #[test]
    fn piece_codes_are_the_seeds() {
        assert_eq!(Piece::new(Color::White, PieceKind::Pawn).code(), 0x11);
        assert_eq!(Piece::new(Color::Black, PieceKind::Queen).code(), 0x2C);
        assert_eq!(
            PieceKind::Queen.code(),
            PieceKind::Rook.code() | PieceKind::Bishop.code()
        );
        for c in Color::BOTH {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k).with_not_moved(true);
                assert_eq!(Piece::from_code(p.code()), Some(p));
                assert_eq!(p.color(), c);
                assert_eq!(p.kind(), k);
                assert!(p.not_moved());
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(Piece::new(c, k)));
            }
        }
        assert_eq!(Piece::from_code(0), None);
        assert_eq!(Piece::from_code(0x35), None);
        assert_eq!(Piece::from_code(0x15), None);
    }

    #[test]
    fn one_code_to_kind_table_serves_every_view() {
        for (i, k) in PieceKind::ALL.into_iter().enumerate() {
            assert_eq!(k.index(), i);
            assert_eq!(PieceKind::from_index(i), k);
            for c in Color::BOTH {
                let code = Piece::new(c, k).with_not_moved(true).code();
                assert_eq!(PieceKind::from_code(code), Some(k));
                assert_eq!(PieceKind::index_of_code(code), Some(i));
            }
        }
        let kinds = KIND_INDEX_BY_CODE.iter().filter(|&&i| i != NO_KIND).count();
        assert_eq!(kinds, 6, "six kinds, one code each");
        assert_eq!(PieceKind::from_code(0), None);
        assert_eq!(PieceKind::index_of_code(0x25), None);
        assert_eq!(PieceKind::Bishop.seed_value(), 450);
    }

    #[test]
    fn move_packing() {
        let m = Move::with_flags(0x14, 0x34, 0, Move::FLAG_DOUBLE_PUSH);
        assert_eq!(m.to_string(), "e2e4");
        assert!(m.is_double_push() && !m.is_capture());
        let p = Move::with_flags(0x64, 0x75, PieceKind::Knight.code(), Move::FLAG_CAPTURE);
        assert_eq!(p.to_string(), "e7f8n");
        assert!(p.is_capture() && p.is_tactical());
        assert_eq!(Move::NONE.to_string(), "0000");
    }
}
