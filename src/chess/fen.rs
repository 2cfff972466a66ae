//! FEN ⇄ `Board`. Parsing is two-stage in spirit: each field is read as syntax first, then
//! the whole placement is checked for being a position that chess can have. Every error
//! names the field and the reason; nothing panics on any input.

use super::board::{Board, CastlingRights, NO_SQ};
use super::types::{Color, Piece, PieceKind, Square};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("FEN is empty")]
    Empty,
    #[error(
        "FEN has {0} fields; expected 4 to 6 (placement, side, castling, en passant, halfmove, fullmove)"
    )]
    FieldCount(usize),
    #[error("piece placement (field 1): {0}")]
    Placement(String),
    #[error("side to move (field 2): expected 'w' or 'b', found '{0}'")]
    Side(String),
    #[error("castling rights (field 3): {0}")]
    Castling(String),
    #[error("en-passant square (field 4): {0}")]
    EnPassant(String),
    #[error("halfmove clock (field 5): '{0}' is not a number from 0 to 10000")]
    Halfmove(String),
    #[error("fullmove number (field 6): '{0}' is not a number from 1 to 10000")]
    Fullmove(String),
    #[error("impossible position: {0}")]
    Impossible(String),
}

fn shorten(s: &str) -> String {
    if s.chars().count() > 24 {
        format!("{}…", s.chars().take(24).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Field 2, the side to move: `w` or `b` (either case).
fn read_side(field: &str) -> Result<Color, FenError> {
    match field {
        "w" | "W" => Ok(Color::White),
        "b" | "B" => Ok(Color::Black),
        other => Err(FenError::Side(shorten(other))),
    }
}

/// Field 3, the castling rights as the four Polyglot bits: `-` for none, else each of
/// `KQkq` at most once.
fn read_castling(field: &str) -> Result<u8, FenError> {
    let mut castling = 0u8;
    if field != "-" {
        for ch in field.chars() {
            let bit = match ch {
                'K' => CastlingRights::WHITE_SHORT,
                'Q' => CastlingRights::WHITE_LONG,
                'k' => CastlingRights::BLACK_SHORT,
                'q' => CastlingRights::BLACK_LONG,
                _ => {
                    return Err(FenError::Castling(format!(
                        "'{ch}' is not one of K, Q, k, q (or '-' for none)"
                    )));
                }
            };
            if castling & bit != 0 {
                return Err(FenError::Castling(format!("'{ch}' appears twice")));
            }
            castling |= bit;
        }
    }
    Ok(castling)
}

/// Field 4, the en-passant square as syntax: `-` or a square (whether it can be one is
/// checked once the position stands).
fn read_en_passant(field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    field
        .parse::<Square>()
        .map(Some)
        .map_err(|_| FenError::EnPassant(format!("'{}' is not a square or '-'", shorten(field))))
}

/// Fields 5 and 6, a clock: a number from 0 to 10000.
fn read_clock(field: &str) -> Option<u16> {
    field.parse::<u16>().ok().filter(|&n| n <= 10000)
}

impl Board {
    /// Reads a FEN (the clocks may be omitted, as in EPD). Refuses text that does not parse
    /// and placements that no game can reach, saying which field and why.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() < 4 || fields.len() > 6 {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut b = Board::empty();
        // Each field as syntax, in order (the placement also refuses what no game can have:
        // more than 16 pieces a side, a pawn on the first or last rank).
        b.read_placement(fields[0])?;
        b.side = read_side(fields[1])?;
        b.castling = read_castling(fields[2])?;
        // En passant as syntax here, its plausibility once the position stands.
        let ep_square = read_en_passant(fields[3])?;
        if let Some(h) = fields.get(4) {
            b.halfmove = read_clock(h).ok_or_else(|| FenError::Halfmove(shorten(h)))?;
        }
        if let Some(f) = fields.get(5) {
            let n = read_clock(f).ok_or_else(|| FenError::Fullmove(shorten(f)))?;
            b.fullmove = n.max(1);
        }
        // Then the position as a whole.
        b.check_pieces()?;
        b.check_castling()?;
        b.check_en_passant(ep_square)?;
        b.mark_unmoved();
        b.check_not_in_check()?;
        b.hash = b.compute_hash();
        b.pawn_hash = b.compute_pawn_hash();
        Ok(b)
    }

    /// Field 1, the piece placement (rank 8 first), put on the board. Besides the syntax it
    /// refuses more than 16 pieces a side and a pawn on the first or last rank.
    fn read_placement(&mut self, field: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::Placement(format!(
                "{} ranks, expected 8 separated by '/'",
                ranks.len()
            )));
        }
        let mut per_side = [0usize; 2];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file: u8 = 0;
            for ch in rank_text.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(FenError::Placement(format!(
                            "'{ch}' in rank {} is not an empty-square count 1-8",
                            rank + 1
                        )));
                    }
                    file += d as u8;
                } else if let Some(p) = Piece::from_fen_char(ch) {
                    if file >= 8 {
                        return Err(FenError::Placement(format!(
                            "rank {} has more than 8 squares",
                            rank + 1
                        )));
                    }
                    let ci = p.color().index();
                    per_side[ci] += 1;
                    if per_side[ci] > 16 {
                        return Err(FenError::Impossible(format!(
                            "{} has more than 16 pieces",
                            p.color().name()
                        )));
                    }
                    if p.kind() == PieceKind::Pawn && (rank == 0 || rank == 7) {
                        return Err(FenError::Impossible(format!(
                            "a pawn stands on {} (pawns never stand on the first or last rank)",
                            Square::new(file, rank)
                        )));
                    }
                    self.put(Square::new(file, rank), p);
                    file += 1;
                } else {
                    return Err(FenError::Placement(format!(
                        "'{ch}' in rank {} is not a piece letter (PNBRQK/pnbrqk) or a digit",
                        rank + 1
                    )));
                }
                if file > 8 {
                    return Err(FenError::Placement(format!(
                        "rank {} has more than 8 squares",
                        rank + 1
                    )));
                }
            }
            if file != 8 {
                return Err(FenError::Placement(format!(
                    "rank {} has {file} squares, expected 8",
                    rank + 1
                )));
            }
        }
        Ok(())
    }

    /// Exactly one king a side, then the piece lists and material set up from the cells, and
    /// no more than 8 pawns a side.
    fn check_pieces(&mut self) -> Result<(), FenError> {
        for c in Color::BOTH {
            let kings = self
                .pieces(c)
                .filter(|(_, p)| p.kind() == PieceKind::King)
                .count();
            if kings != 1 {
                return Err(FenError::Impossible(format!(
                    "{} has {kings} kings, expected exactly one",
                    c.name()
                )));
            }
        }
        self.finish_setup();
        for c in Color::BOTH {
            if self.kind_counts(c)[PieceKind::Pawn.index()] > 8 {
                return Err(FenError::Impossible(format!(
                    "{} has more than 8 pawns",
                    c.name()
                )));
            }
        }
        Ok(())
    }

    /// Every castling right needs its king and rook on their starting squares.
    fn check_castling(&self) -> Result<(), FenError> {
        let cells_have = |sq: u8, code: u8| self.cells[sq as usize] & 0x3F == code;
        for (bit, king_sq, rook_sq, color, letter) in [
            (
                CastlingRights::WHITE_SHORT,
                0x04u8,
                0x07u8,
                Color::White,
                'K',
            ),
            (CastlingRights::WHITE_LONG, 0x04, 0x00, Color::White, 'Q'),
            (CastlingRights::BLACK_SHORT, 0x74, 0x77, Color::Black, 'k'),
            (CastlingRights::BLACK_LONG, 0x74, 0x70, Color::Black, 'q'),
        ] {
            if self.castling & bit == 0 {
                continue;
            }
            if !cells_have(king_sq, color.bits() | 0x3) {
                return Err(FenError::Castling(format!(
                    "'{letter}' needs the {} king on {}",
                    color.name().to_lowercase(),
                    Square::from_0x88(king_sq).expect("board square")
                )));
            }
            if !cells_have(rook_sq, color.bits() | 0x4) {
                return Err(FenError::Castling(format!(
                    "'{letter}' needs a {} rook on {}",
                    color.name().to_lowercase(),
                    Square::from_0x88(rook_sq).expect("board square")
                )));
            }
        }
        Ok(())
    }

    /// The en-passant square read from field 4, checked against the position: on the right
    /// rank for the side to move, behind an enemy pawn that just moved two squares. It is
    /// kept only when a pawn can take there.
    fn check_en_passant(&mut self, ep_square: Option<Square>) -> Result<(), FenError> {
        let Some(ep) = ep_square else {
            self.ep = NO_SQ;
            return Ok(());
        };
        let (want_rank, from_step, pawn_step) = match self.side {
            Color::White => (5, 16i8, -16i8),
            Color::Black => (2, -16, 16),
        };
        if ep.rank() != want_rank {
            return Err(FenError::EnPassant(format!(
                "{ep} cannot be an en-passant square with {} to move (it must be on rank {})",
                self.side.name(),
                want_rank + 1
            )));
        }
        let pawn = ep.offset(pawn_step).expect("rank 3 or 6 has neighbours");
        let origin = ep.offset(from_step).expect("rank 3 or 6 has neighbours");
        let their_pawn = Piece::new(self.side.flip(), PieceKind::Pawn);
        if self.piece_at(pawn).map(|p| p.with_not_moved(false)) != Some(their_pawn)
            || self.piece_at(ep).is_some()
            || self.piece_at(origin).is_some()
        {
            return Err(FenError::EnPassant(format!(
                "{ep} needs a {} pawn on {pawn} that just moved two squares (with {ep} and {origin} empty)",
                self.side.flip().name().to_lowercase()
            )));
        }
        if self.ep_capturable(ep.x88(), self.side) {
            self.ep = ep.x88();
        }
        Ok(())
    }

    /// The seed's N bit: set where nothing says the piece has moved (a pawn on its second
    /// rank, a king or rook with a castling right, a minor piece or queen on its home square).
    fn mark_unmoved(&mut self) {
        let castling = self.castling;
        for sq in Square::all() {
            let code = self.cells[sq.x88() as usize];
            let Some(p) = Piece::from_code(code) else {
                continue;
            };
            let home_rank = match p.color() {
                Color::White => 0,
                Color::Black => 7,
            };
            let unmoved = match p.kind() {
                PieceKind::Pawn => sq.rank() == if p.color() == Color::White { 1 } else { 6 },
                PieceKind::King => {
                    castling & (CastlingRights::short(p.color()) | CastlingRights::long(p.color()))
                        != 0
                }
                PieceKind::Rook => {
                    (sq.file() == 7 && castling & CastlingRights::short(p.color()) != 0)
                        || (sq.file() == 0 && castling & CastlingRights::long(p.color()) != 0)
                }
                PieceKind::Knight => sq.rank() == home_rank && (sq.file() == 1 || sq.file() == 6),
                PieceKind::Bishop => sq.rank() == home_rank && (sq.file() == 2 || sq.file() == 5),
                PieceKind::Queen => sq.rank() == home_rank && sq.file() == 3,
            };
            if unmoved {
                self.cells[sq.x88() as usize] = code | Piece::NOT_MOVED;
            }
        }
    }

    /// The side that just moved cannot be in check.
    fn check_not_in_check(&self) -> Result<(), FenError> {
        let them = self.side.flip();
        if self.is_attacked(self.king_square(them), self.side) {
            return Err(FenError::Impossible(format!(
                "{} is in check but it is {}'s move",
                them.name(),
                self.side.name()
            )));
        }
        Ok(())
    }

    /// The position as FEN. The en-passant field is written only when a pawn can take there
    /// (the modern convention, and the Polyglot hash's).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_at(Square::new(file, rank)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::White { 'w' } else { 'b' });
        s.push(' ');
        s.push_str(&self.castling_rights().fen());
        s.push(' ');
        match self.ep_square() {
            Some(sq) => s.push_str(&sq.to_string()),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trips() {
        let b = Board::startpos();
        assert_eq!(b.to_fen(), Board::START_FEN);
        assert_eq!(
            b.hash(),
            0x463b96181691fc9c,
            "Polyglot's published start key"
        );
    }

    #[test]
    fn errors_name_the_field() {
        let cases = [
            ("", "FEN is empty"),
            ("8/8/8/8/8/8/8/8 w", "fields"),
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                "empty-square count",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                "side to move",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1",
                "castling",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                "en-passant",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1",
                "needs a black pawn",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
                "rank 6",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
                "halfmove",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3",
                "fullmove",
            ),
            (
                "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",
                "0 kings",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1",
                "2 kings",
            ),
            (
                "rnbqkbnp/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Q - 0 1",
                "pawn stands on h8",
            ),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "needs a white rook on h1"),
            (
                "4k3/8/8/8/8/8/8/R5K1 w Q - 0 1",
                "needs the white king on e1",
            ),
            (
                "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
                "Black is in check but it is White's move",
            ),
            ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "more than 8 pawns"),
        ];
        for (fen, want) in cases {
            let err = Board::from_fen(fen).expect_err(fen).to_string();
            assert!(err.contains(want), "{fen}: got '{err}', wanted '{want}'");
        }
    }

    #[test]
    fn ep_square_kept_only_when_capturable() {
        let b =
            Board::from_fen("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2").unwrap();
        assert_eq!(b.ep_square(), None);
        let b = Board::from_fen("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3")
            .unwrap();
        assert_eq!(b.ep_square(), Some("d6".parse().unwrap()));
        assert!(b.to_fen().contains(" d6 "));
    }

    #[test]
    fn clocks_may_be_omitted() {
        let b = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
        assert_eq!(b.halfmove_clock(), 0);
        assert_eq!(b.fullmove_number(), 1);
    }
}
