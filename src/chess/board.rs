//! The 0x88 board (seed 001): 128 cells holding the seed's piece codes, piece lists so no
//! loop scans 128 cells, an incremental Polyglot-layout Zobrist hash and incremental material
//! (the seed's "difference machine", seed 002). `make`/`unmake` restore everything exactly.

use super::attacks;
use super::polyglot_keys::POLYGLOT_RANDOM;
use super::types::{
    ByColor, Color, CoordinateMove, KIND_INDEX_BY_CODE, Move, Piece, PieceKind, SEED_VALUES, Square,
};

/// Sentinel for "no square" in the packed fields (off the 0x88 board).
pub(super) const NO_SQ: u8 = 0x80;

/// Castling rights as the four Polyglot bits: white short, white long, black short, black long.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    pub const WHITE_SHORT: u8 = 1;
    pub const WHITE_LONG: u8 = 2;
    pub const BLACK_SHORT: u8 = 4;
    pub const BLACK_LONG: u8 = 8;
    pub const ALL: CastlingRights = CastlingRights(15);
    pub const NONE: CastlingRights = CastlingRights(0);

    pub const fn bits(self) -> u8 {
        self.0
    }
    pub const fn from_bits(b: u8) -> CastlingRights {
        CastlingRights(b & 15)
    }
    pub const fn short(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_SHORT,
            Color::Black => Self::BLACK_SHORT,
        }
    }
    pub const fn long(color: Color) -> u8 {
        match color {
            Color::White => Self::WHITE_LONG,
            Color::Black => Self::BLACK_LONG,
        }
    }
    pub const fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    /// FEN field (`KQkq`, or `-`).
    pub fn fen(self) -> String {
        let mut s = String::new();
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.0 & bit != 0 {
                s.push(c);
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

/// Which rights survive a move touching a square (king and rook home squares).
const fn castle_mask() -> [u8; 128] {
    let mut m = [15u8; 128];
    m[0x04] = 15 & !(1 | 2);
    m[0x07] = 15 & !1;
    m[0x00] = 15 & !2;
    m[0x74] = 15 & !(4 | 8);
    m[0x77] = 15 & !4;
    m[0x70] = 15 & !8;
    m
}
const CASTLE_MASK: [u8; 128] = castle_mask();

/// Polyglot piece index for a cell code: black pawn 0, white pawn 1, black knight 2, ...
/// Polyglot orders kinds as our dense index does (pawn, knight, bishop, rook, queen, king).
const fn key_kind() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut c = 0;
    while c < 64 {
        let kind = KIND_INDEX_BY_CODE[c & 0x0F];
        let kind_order = if kind < 6 { kind } else { 0 };
        let white = if c & 0x10 != 0 { 1 } else { 0 };
        t[c] = kind_order * 2 + white;
        c += 1;
    }
    t
}
const KEY_KIND: [u8; 64] = key_kind();

#[inline]
fn index64(sq: u8) -> usize {
    ((sq as usize) + (sq as usize & 7)) >> 1
}

#[inline]
fn piece_key(code: u8, sq: u8) -> u64 {
    POLYGLOT_RANDOM[64 * KEY_KIND[(code & 0x3F) as usize] as usize + index64(sq)]
}

const fn castle_keys() -> [u64; 16] {
    let mut t = [0u64; 16];
    let mut b = 0;
    while b < 16 {
        let mut k = 0u64;
        let mut i = 0;
        while i < 4 {
            if b & (1 << i) != 0 {
                k ^= POLYGLOT_RANDOM[768 + i];
            }
            i += 1;
        }
        t[b] = k;
        b += 1;
    }
    t
}
const CASTLE_KEYS: [u64; 16] = castle_keys();
const SIDE_KEY: u64 = POLYGLOT_RANDOM[780];

#[inline]
fn ep_key(sq: u8) -> u64 {
    POLYGLOT_RANDOM[772 + (sq & 7) as usize]
}

/// What `make` needs to put back.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    /// The moving piece's code before the move (with its N bit).
    moved: u8,
    /// The captured piece's code, 0 if none.
    captured: u8,
    /// Where the captured piece stood in its side's piece list.
    captured_index: u8,
    castling: u8,
    ep: u8,
    halfmove: u16,
    hash: u64,
    pawn_hash: u64,
    null: bool,
}

/// Why [`Board::play`] refused a move. The board it was offered to is exactly as it was.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// `Move::NONE` (`0000`): passing is not a move in a game.
    #[error("0000: the null move is not a move in a game")]
    Null,
    /// The squares name a legal move here, but the move was generated for another position
    /// (a capture flag where nothing stands now, say): playing it would corrupt the board.
    #[error("{mv}: made for another position (here the same squares play {legal} differently)")]
    OtherPosition { mv: Move, legal: Move },
    /// Not legal here, with the reason in a player's words ("the king is in check from the
    /// queen on h4"), the same words the notation parser gives.
    #[error("{mv}: {reason}")]
    NotLegal { mv: Move, reason: String },
}

/// One piece put on (`added`) or taken off a square by a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceChange {
    pub color: Color,
    pub kind: PieceKind,
    pub square: Square,
    pub added: bool,
}

/// The pieces one move put on and took off: at most four (castling: king and rook; a
/// capture that promotes: pawn off, captured piece off, new piece on).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveChanges {
    items: [Option<PieceChange>; 4],
}

impl MoveChanges {
    fn push(&mut self, color: Color, kind: PieceKind, square: Square, added: bool) {
        if let Some(slot) = self.items.iter_mut().find(|s| s.is_none()) {
            *slot = Some(PieceChange {
                color,
                kind,
                square,
                added,
            });
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = PieceChange> + '_ {
        self.items.iter().map_while(|c| *c)
    }
}

/// A chess position on the seed's 0x88 board, with its own move history so that repetition
/// and the last capture are always known.
///
/// The fields are private to the rules layer (`movegen`, `fen` and `notation` are this
/// type's own `impl` blocks in other files); the engine reads a position only through the
/// methods below, the hot ones `#[inline]` views of the arrays.
#[derive(Clone)]
pub struct Board {
    pub(super) cells: [u8; 128],
    /// Piece lists: squares of each side's pieces; index 0 is always the king.
    pub(super) list: [[u8; 16]; 2],
    pub(super) count: [u8; 2],
    /// For an occupied square, its position in its side's piece list.
    index: [u8; 128],
    pub(super) side: Color,
    pub(super) castling: u8,
    /// En-passant target square, set only when a pawn of the side to move stands beside the
    /// pawn that just made a double step (the Polyglot rule, so equal positions hash equal).
    pub(super) ep: u8,
    pub(super) halfmove: u16,
    pub(super) fullmove: u16,
    pub(super) hash: u64,
    /// The pawns' share of the Zobrist key (pawns of both sides, nothing else): the key of
    /// the pawn structure, for tables that learn by it (the search's correction history).
    pub(super) pawn_hash: u64,
    /// Piece counts per side and kind (dense kind index): the incremental material record.
    counts: [[u8; 6]; 2],
    /// Material in the seed's values (pawn 100 ... queen 1000), per side, updated on captures
    /// and promotions only.
    material: [i32; 2],
    history: Vec<Undo>,
}

/// Dense kind index of a board code that holds a piece (the one code → kind table).
#[inline]
fn kind_index(code: u8) -> usize {
    KIND_INDEX_BY_CODE[(code & 0x0F) as usize] as usize
}

#[inline]
fn color_index(code: u8) -> usize {
    ((code >> 5) & 1) as usize
}

/// A piece's share of the material record: its seed value, the king's left out.
#[inline]
fn material_value(code: u8) -> i32 {
    let k = kind_index(code);
    if k == PieceKind::King.index() {
        0
    } else {
        SEED_VALUES[k]
    }
}

impl Default for Board {
    fn default() -> Self {
        Board::startpos()
    }
}

impl PartialEq for Board {
    /// Positions are equal when everything FEN describes is equal (history aside).
    fn eq(&self, other: &Board) -> bool {
        Square::all().all(|s| self.piece_at(s) == other.piece_at(s))
            && self.side == other.side
            && self.castling == other.castling
            && self.ep == other.ep
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl Board {
    pub const START_FEN: &'static str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    pub fn startpos() -> Board {
        Board::from_fen(Board::START_FEN).expect("start position FEN is valid")
    }

    /// An empty board; `fen.rs` fills it and then calls `finish_setup`.
    pub(super) fn empty() -> Board {
        Board {
            cells: [0; 128],
            list: [[NO_SQ; 16]; 2],
            count: [0; 2],
            index: [0; 128],
            side: Color::White,
            castling: 0,
            ep: NO_SQ,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            pawn_hash: 0,
            counts: [[0; 6]; 2],
            material: [0; 2],
            history: Vec::with_capacity(256),
        }
    }

    /// Places a piece during setup (kings are moved to list index 0 by `finish_setup`).
    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        let s = sq.x88();
        let c = piece.color().index();
        let n = self.count[c] as usize;
        self.cells[s as usize] = piece.code();
        self.list[c][n] = s;
        self.index[s as usize] = n as u8;
        self.count[c] += 1;
    }

    /// Puts kings first in their lists and derives hash and material from scratch.
    pub(super) fn finish_setup(&mut self) {
        for c in 0..2 {
            let n = self.count[c] as usize;
            if let Some(k) = (0..n).find(|&i| self.cells[self.list[c][i] as usize] & 0x0F == 0x3) {
                self.list[c].swap(0, k);
                for i in 0..n {
                    self.index[self.list[c][i] as usize] = i as u8;
                }
            }
        }
        self.counts = [[0; 6]; 2];
        self.material = [0; 2];
        for c in 0..2 {
            for i in 0..self.count[c] as usize {
                let code = self.cells[self.list[c][i] as usize];
                self.counts[c][kind_index(code)] += 1;
                self.material[c] += material_value(code);
            }
        }
        self.hash = self.compute_hash();
        self.pawn_hash = self.compute_pawn_hash();
    }

    // ---- queries -------------------------------------------------------------------

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.cells[sq.x88() as usize])
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        CastlingRights::from_bits(self.castling)
    }

    /// The en-passant target square, if a capture there is possible for a pawn beside it.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        Square::from_0x88(self.ep)
    }

    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove as u32
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove as u32
    }

    /// The Zobrist key, Polyglot layout: equal positions hash equal, and a Polyglot book can
    /// be probed with it.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The key of the pawn structure: the Zobrist keys of both sides' pawns only.
    #[inline]
    pub fn pawn_hash(&self) -> u64 {
        self.pawn_hash
    }

    #[inline]
    pub fn king_square(&self, c: Color) -> Square {
        Square::from_0x88(self.list[c.index()][0]).expect("every position has both kings")
    }

    /// Number of pieces of a kind and side.
    #[inline]
    pub fn count(&self, c: Color, kind: PieceKind) -> u32 {
        self.counts[c.index()][kind.index()] as u32
    }

    /// Material in the seed's values for one side (incremental, never recounted).
    #[inline]
    pub fn material(&self, c: Color) -> i32 {
        self.material[c.index()]
    }

    /// Total material per side, by side, for the UI.
    pub fn material_by_color(&self) -> ByColor<i32> {
        ByColor::new(self.material[0], self.material[1])
    }

    /// The 128 cells by 0x88 index, in the seed's codes: colour nibble (`Color::bits`) |
    /// kind nibble (`PieceKind::code`) | `Piece::NOT_MOVED`; 0 for an empty square. A
    /// read-only view for the engine's hot loops, where decoding a `Piece` per step costs.
    #[inline]
    pub fn cells(&self) -> &[u8; 128] {
        &self.cells
    }

    /// The raw code on a 0x88 index (masked onto the array, so never out of bounds).
    #[inline]
    pub fn code_at(&self, sq: u8) -> u8 {
        self.cells[(sq & 0x7F) as usize]
    }

    /// The 0x88 squares of one side's pieces, king first (the piece list).
    #[inline]
    pub fn piece_squares(&self, c: Color) -> &[u8] {
        let ci = c.index();
        &self.list[ci][..self.count[ci] as usize]
    }

    /// The king's 0x88 square (the first entry of the piece list).
    #[inline]
    pub fn king_x88(&self, c: Color) -> u8 {
        self.list[c.index()][0]
    }

    /// Number of pieces (king included) of one side.
    #[inline]
    pub fn piece_count(&self, c: Color) -> usize {
        self.count[c.index()] as usize
    }

    /// Piece counts of one side by dense kind index (`PieceKind::index`): the incremental
    /// record `count` reads one entry of.
    #[inline]
    pub fn kind_counts(&self, c: Color) -> &[u8; 6] {
        &self.counts[c.index()]
    }

    /// Non-pawn, non-king material count of a side (for null-move safety, phases).
    pub fn has_non_pawn_material(&self, c: Color) -> bool {
        let n = &self.counts[c.index()];
        n[1] + n[2] + n[3] + n[4] > 0
    }

    /// All pieces of one side with their squares, in piece-list order (king first).
    pub fn pieces(&self, c: Color) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let ci = c.index();
        (0..self.count[ci] as usize).map(move |i| {
            let s = self.list[ci][i];
            let sq = Square::from_0x88(s).expect("piece lists hold board squares");
            let p =
                Piece::from_code(self.cells[s as usize]).expect("piece list square holds a piece");
            (sq, p)
        })
    }

    /// Number of plies made on this board since it was set up.
    #[inline]
    pub fn ply_count(&self) -> usize {
        self.history.len()
    }

    /// The last move made on this board, if any (`None` after a null move too).
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().filter(|u| !u.null).map(|u| u.mv)
    }

    /// Was the last thing done on this board a null move (`make_null`)?
    #[inline]
    pub fn last_was_null(&self) -> bool {
        self.history.last().is_some_and(|u| u.null)
    }

    /// Hashes of the earlier positions on this board, newest first (the position before the
    /// last move comes first). Lets the book name an opening after the game has left it.
    pub fn history_hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.history.iter().rev().map(|u| u.hash)
    }

    /// Where the last capture happened, if the last move was a capture: the square whose
    /// recapture the seed's ordering (seed 000) puts before other captures.
    #[inline]
    pub fn last_capture_square(&self) -> Option<Square> {
        let u = self.history.last()?;
        if u.null || u.captured == 0 {
            return None;
        }
        Some(u.mv.to())
    }

    /// The piece captured by the last move, if any.
    #[inline]
    pub fn last_captured_piece(&self) -> Option<Piece> {
        let u = self.history.last()?;
        if u.null {
            None
        } else {
            Piece::from_code(u.captured)
        }
    }

    /// What the move `back` moves before the last (0: the last one made) put on and took
    /// off the board, with the hash of the position it was made in; `None` when the history
    /// is shorter. A null move changes no piece. This is what an evaluation that keeps a
    /// running sum over the pieces (the network's first layer) needs to follow a move
    /// without looking at the whole board again.
    pub fn move_changes(&self, back: usize) -> Option<(u64, MoveChanges)> {
        let n = self.history.len();
        let u = self.history.get(n.checked_sub(back + 1)?)?;
        let mut ch = MoveChanges::default();
        if u.null {
            return Some((u.hash, ch));
        }
        let m = u.mv;
        let (from, to) = (m.from(), m.to());
        let us = Color::from_index(color_index(u.moved));
        let moved = PieceKind::ALL[kind_index(u.moved)];
        ch.push(us, moved, from, false);
        ch.push(us, m.promotion().unwrap_or(moved), to, true);
        if u.captured != 0 {
            let sq = if m.is_en_passant() {
                match us {
                    Color::White => to.x88().wrapping_sub(16),
                    Color::Black => to.x88().wrapping_add(16),
                }
            } else {
                to.x88()
            };
            let kind = PieceKind::ALL[kind_index(u.captured)];
            if let Some(sq) = Square::from_0x88(sq) {
                ch.push(us.flip(), kind, sq, false);
            }
        }
        if m.is_castle() {
            let (f, t) = (from.x88(), to.x88());
            let (rf, rt) = if t > f {
                (f + 3, f + 1)
            } else {
                (f - 4, f - 1)
            };
            if let (Some(rf), Some(rt)) = (Square::from_0x88(rf), Square::from_0x88(rt)) {
                ch.push(us, PieceKind::Rook, rf, false);
                ch.push(us, PieceKind::Rook, rt, true);
            }
        }
        Some((u.hash, ch))
    }

    /// Is `sq` attacked by any piece of `by`? (piece lists and the 0x88 difference table)
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attacked_ignoring(sq.x88(), by, NO_SQ)
    }

    /// As `is_attacked`, with the piece on `ignore` treated as absent (a king stepping along
    /// a slider's ray must not shield itself).
    #[inline]
    pub(super) fn attacked_ignoring(&self, sq: u8, by: Color, ignore: u8) -> bool {
        let ci = by.index();
        let list = &self.list[ci];
        for &from in &list[..self.count[ci] as usize] {
            let code = self.cells[(from & 0x7F) as usize];
            if attacks::piece_attacks(&self.cells, code, from, sq, ignore) {
                return true;
            }
        }
        false
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        let us = self.side;
        self.attacked_ignoring(self.list[us.index()][0], us.flip(), NO_SQ)
    }

    /// Squares of the pieces of `by` that attack `sq`.
    pub fn attackers(&self, sq: Square, by: Color) -> Vec<Square> {
        self.pieces(by)
            .filter(|(from, p)| {
                attacks::piece_attacks(&self.cells, p.code(), from.x88(), sq.x88(), NO_SQ)
            })
            .map(|(from, _)| from)
            .collect()
    }

    /// The full hash computed from scratch (tests compare it with the incremental one).
    pub fn compute_hash(&self) -> u64 {
        let mut h = self.pieces_key(|_| true);
        h ^= CASTLE_KEYS[self.castling as usize];
        if self.ep != NO_SQ {
            h ^= ep_key(self.ep);
        }
        if self.side == Color::White {
            h ^= SIDE_KEY;
        }
        h
    }

    /// The pawn key computed from scratch (tests compare it with the incremental one).
    pub fn compute_pawn_hash(&self) -> u64 {
        self.pieces_key(|code| code & 0x0F == 0x1)
    }

    /// The Zobrist keys of the pieces whose codes `keep` accepts, both sides.
    fn pieces_key(&self, keep: impl Fn(u8) -> bool) -> u64 {
        let mut h = 0u64;
        for c in 0..2 {
            for &s in &self.list[c][..self.count[c] as usize] {
                let code = self.cells[s as usize];
                if keep(code) {
                    h ^= piece_key(code, s);
                }
            }
        }
        h
    }

    /// Material recounted from the board (tests compare it with the incremental record).
    pub fn recount_material(&self) -> [i32; 2] {
        let mut m = [0; 2];
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                m[p.color().index()] += material_value(p.code());
            }
        }
        m
    }

    /// Piece counts recounted from the board.
    pub fn recount_counts(&self) -> [[u8; 6]; 2] {
        let mut n = [[0; 6]; 2];
        for sq in Square::all() {
            if let Some(p) = self.piece_at(sq) {
                n[p.color().index()][p.kind().index()] += 1;
            }
        }
        n
    }

    /// Would a pawn of `side` be able to capture on `ep` (one stands beside the pawn that
    /// made the double step)? The Polyglot condition for keeping an en-passant square.
    pub(super) fn ep_capturable(&self, ep: u8, side: Color) -> bool {
        // The double-stepped pawn stands one rank behind the target, seen from `side`.
        let pawn_sq = match side {
            Color::White => ep.wrapping_sub(16),
            Color::Black => ep.wrapping_add(16),
        };
        let our_pawn = side.bits() | 0x1;
        [pawn_sq.wrapping_sub(1), pawn_sq.wrapping_add(1)]
            .iter()
            .any(|&s| s & 0x88 == 0 && self.cells[s as usize] & 0x3F == our_pawn)
    }

    // ---- make / unmake ---------------------------------------------------------------

    #[inline]
    fn remove_from_list(&mut self, sq: u8) -> u8 {
        let c = color_index(self.cells[sq as usize]);
        let i = self.index[sq as usize];
        let last = self.count[c] - 1;
        let last_sq = self.list[c][last as usize];
        self.list[c][i as usize] = last_sq;
        self.index[last_sq as usize] = i;
        self.list[c][last as usize] = NO_SQ;
        self.count[c] = last;
        i
    }

    #[inline]
    fn restore_to_list(&mut self, c: usize, sq: u8, i: u8) {
        // Undo `remove_from_list` exactly: the piece that was swapped into slot i goes back
        // to the end, and the restored piece takes slot i again.
        let n = self.count[c];
        let moved_sq = self.list[c][i as usize];
        if i != n {
            self.list[c][n as usize] = moved_sq;
            self.index[moved_sq as usize] = n;
        }
        self.list[c][i as usize] = sq;
        self.index[sq as usize] = i;
        self.count[c] = n + 1;
    }

    #[inline]
    fn move_in_list(&mut self, from: u8, to: u8) {
        let c = color_index(self.cells[from as usize]);
        let i = self.index[from as usize];
        self.list[c][i as usize] = to;
        self.index[to as usize] = i;
    }

    /// Plays `mv` if it is legal in this position; otherwise says why and leaves the board
    /// untouched. The entry point for moves that come from outside the search (a person, a
    /// GUI, a file, a move kept from another position).
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if mv.is_none() {
            return Err(IllegalMove::Null);
        }
        if self.legal_moves().contains(mv) {
            self.make(mv);
            return Ok(());
        }
        let squares = CoordinateMove {
            from: mv.from(),
            to: mv.to(),
            promotion: mv.promotion(),
        };
        Err(match self.coordinate_verdict(squares) {
            Ok(legal) => IllegalMove::OtherPosition { mv, legal },
            Err(reason) => IllegalMove::NotLegal { mv, reason },
        })
    }

    /// Plays a move **unchecked**: `m` must come from this position's move generator (the
    /// search's own moves). Anything else silently corrupts the board; use [`Board::play`]
    /// for moves from outside. Undone exactly by [`Board::unmake`].
    pub fn make(&mut self, m: Move) {
        let from = m.from().x88();
        let to = m.to().x88();
        let moved = self.cells[from as usize];
        let us = self.side;
        let them = us.flip();
        let mut captured_sq = to;
        if m.is_en_passant() {
            captured_sq = match us {
                Color::White => to.wrapping_sub(16),
                Color::Black => to.wrapping_add(16),
            };
        }
        let captured = self.cells[captured_sq as usize];
        let mut undo = Undo {
            mv: m,
            moved,
            captured,
            captured_index: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            pawn_hash: self.pawn_hash,
            null: false,
        };

        let mut h = self.hash;
        let mut ph = self.pawn_hash;
        if self.ep != NO_SQ {
            h ^= ep_key(self.ep);
            self.ep = NO_SQ;
        }

        if captured != 0 {
            undo.captured_index = self.remove_from_list(captured_sq);
            self.cells[captured_sq as usize] = 0;
            h ^= piece_key(captured, captured_sq);
            if captured & 0x0F == 0x1 {
                ph ^= piece_key(captured, captured_sq);
            }
            let tc = them.index();
            self.counts[tc][kind_index(captured)] -= 1;
            self.material[tc] -= material_value(captured);
        }

        // Move the piece; it loses the seed's N bit.
        self.move_in_list(from, to);
        self.cells[from as usize] = 0;
        let mut placed = moved & !Piece::NOT_MOVED;
        h ^= piece_key(moved, from);
        if let Some(p) = m.promotion() {
            placed = us.bits() | p.code();
            let ui = us.index();
            self.counts[ui][0] -= 1;
            self.counts[ui][kind_index(placed)] += 1;
            self.material[ui] += material_value(placed) - material_value(moved);
        }
        self.cells[to as usize] = placed;
        h ^= piece_key(placed, to);
        if moved & 0x0F == 0x1 {
            ph ^= piece_key(moved, from);
            if placed & 0x0F == 0x1 {
                ph ^= piece_key(placed, to);
            }
        }

        if m.is_castle() {
            let (rf, rt) = if to > from {
                (from + 3, from + 1)
            } else {
                (from - 4, from - 1)
            };
            let rook = self.cells[rf as usize];
            self.move_in_list(rf, rt);
            self.cells[rf as usize] = 0;
            let rook_placed = rook & !Piece::NOT_MOVED;
            self.cells[rt as usize] = rook_placed;
            h ^= piece_key(rook, rf) ^ piece_key(rook_placed, rt);
        }

        let new_castling = self.castling & CASTLE_MASK[from as usize] & CASTLE_MASK[to as usize];
        if new_castling != self.castling {
            h ^= CASTLE_KEYS[self.castling as usize] ^ CASTLE_KEYS[new_castling as usize];
            self.castling = new_castling;
        }

        if m.is_double_push() {
            let ep = (from + to) / 2;
            if self.ep_capturable(ep, them) {
                self.ep = ep;
                h ^= ep_key(ep);
            }
        }

        if moved & 0x0F == 0x1 || captured != 0 {
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        h ^= SIDE_KEY;
        self.hash = h;
        self.pawn_hash = ph;
        self.history.push(undo);
    }

    /// Takes back the last `make`, `play` or `make_null`, restoring every field exactly.
    /// Unchecked: panics when nothing was played on this board (a bug in the caller).
    pub fn unmake(&mut self) {
        let undo = self.history.pop().expect("unmake without a move");
        if undo.null {
            self.side = self.side.flip();
            self.ep = undo.ep;
            self.hash = undo.hash;
            return;
        }
        let m = undo.mv;
        let from = m.from().x88();
        let to = m.to().x88();
        let them = self.side;
        let us = them.flip();
        self.side = us;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        self.halfmove = undo.halfmove;
        self.castling = undo.castling;
        self.ep = undo.ep;
        self.hash = undo.hash;
        self.pawn_hash = undo.pawn_hash;

        if m.is_castle() {
            let (rf, rt) = if to > from {
                (from + 3, from + 1)
            } else {
                (from - 4, from - 1)
            };
            let rook = self.cells[rt as usize];
            self.move_in_list(rt, rf);
            self.cells[rt as usize] = 0;
            // A rook that castles had not moved before.
            self.cells[rf as usize] = rook | Piece::NOT_MOVED;
        }

        let placed = self.cells[to as usize];
        self.move_in_list(to, from);
        self.cells[to as usize] = 0;
        self.cells[from as usize] = undo.moved;
        if m.promotion().is_some() {
            let ui = us.index();
            self.counts[ui][0] += 1;
            self.counts[ui][kind_index(placed)] -= 1;
            self.material[ui] -= material_value(placed) - material_value(undo.moved);
        }

        if undo.captured != 0 {
            let captured_sq = if m.is_en_passant() {
                match us {
                    Color::White => to.wrapping_sub(16),
                    Color::Black => to.wrapping_add(16),
                }
            } else {
                to
            };
            self.cells[captured_sq as usize] = undo.captured;
            let tc = them.index();
            self.restore_to_list(tc, captured_sq, undo.captured_index);
            self.counts[tc][kind_index(undo.captured)] += 1;
            self.material[tc] += material_value(undo.captured);
        }
    }

    /// Passes the move (null-move pruning). Must not be called in check.
    pub fn make_null(&mut self) {
        let undo = Undo {
            mv: Move::NONE,
            moved: 0,
            captured: 0,
            captured_index: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            pawn_hash: self.pawn_hash,
            null: true,
        };
        let mut h = self.hash;
        if self.ep != NO_SQ {
            h ^= ep_key(self.ep);
            self.ep = NO_SQ;
        }
        h ^= SIDE_KEY;
        self.hash = h;
        self.side = self.side.flip();
        self.history.push(undo);
    }

    /// Forgets the move history (keeps the position). Used when a position becomes a new
    /// root whose past must not count, e.g. a FEN set by the user.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    // ---- game state --------------------------------------------------------------------

    /// How many earlier positions in the reversible part of the history equal this one.
    pub fn repetitions(&self) -> usize {
        let n = self.history.len();
        let limit = (self.halfmove as usize).min(n);
        let mut count = 0;
        let mut back = 2;
        while back <= limit {
            // A null move in between means the earlier position was not really reached.
            if self.history[n - back + 1].null || self.history[n - back].null {
                break;
            }
            if self.history[n - back].hash == self.hash {
                count += 1;
            }
            back += 2;
        }
        count
    }

    /// Neither side can ever mate: K v K, K+minor v K, or only bishops all on one colour.
    pub fn insufficient_material(&self) -> bool {
        for c in 0..2 {
            let n = &self.counts[c];
            if n[0] + n[3] + n[4] > 0 {
                return false;
            }
        }
        let minors: u8 = (0..2).map(|c| self.counts[c][1] + self.counts[c][2]).sum();
        if minors <= 1 {
            return true;
        }
        let knights = self.counts[0][1] + self.counts[1][1];
        if knights > 0 {
            return false;
        }
        // Only bishops: dead if they all stand on squares of one colour.
        let mut shades = [false; 2];
        for c in 0..2 {
            for i in 0..self.count[c] as usize {
                let s = self.list[c][i];
                if self.cells[s as usize] & 0x0F == 0x8 {
                    shades[((s >> 4) + (s & 7)) as usize & 1] = true;
                }
            }
        }
        !(shades[0] && shades[1])
    }
}
