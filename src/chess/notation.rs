//! Coordinate (`e2e4`, `e7e8q`) and SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) moves ⇄ `Move`.
//!
//! Text becomes a move in two stages, as shakmaty does it (STYLE.md): first the text is read
//! as *syntax* with no position in mind (`z9: not a square`), then the parsed squares are
//! checked against the position. A move that is not legal is explained in the words a player
//! would use: no piece there, wrong colour, the piece does not move that way (and where it
//! can go), castling blocked and why, or the king left in check and by what.
//!
//! Every `Move` handed out here is one the move generator produced for this position, so a
//! caller can `make` it without further checks.

use super::attacks;
use super::board::{Board, CastlingRights, NO_SQ};
pub use super::types::CoordinateMove;
use super::types::{Color, Move, MoveList, Piece, PieceKind, Square};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveParseError {
    /// The text is not a move at all (`z9: not a square`).
    #[error("{0}")]
    Syntax(String),
    /// The text is a move, but not legal here (`e2e5: not a legal move for the pawn on e2`).
    #[error("{0}")]
    Illegal(String),
}

/// Parses coordinate notation (`e2e4`, `e7e8q`) as syntax. Upper case and a trailing check or
/// mate mark (`E2E4+`) are tolerated because people type them; the squares are not checked
/// against any position here.
pub fn parse_coordinate(text: &str) -> Result<CoordinateMove, MoveParseError> {
    let t = text.trim();
    let body = t.trim_end_matches(['+', '#']);
    let chars: Vec<char> = body.chars().map(|c| c.to_ascii_lowercase()).collect();
    if chars.is_empty() {
        return Err(MoveParseError::Syntax(
            "empty move: type one like e2e4, e7e8q or Nf3".to_string(),
        ));
    }
    if body == "0000" {
        return Err(MoveParseError::Syntax(
            "0000: the null move is not a move in a game".to_string(),
        ));
    }
    let square_at = |i: usize| -> Result<Square, MoveParseError> {
        let s: String = chars.iter().skip(i).take(2).collect();
        s.parse::<Square>()
            .map_err(|_| MoveParseError::Syntax(format!("{s}: not a square")))
    };
    let from = square_at(0)?;
    if chars.len() == 2 {
        return Err(MoveParseError::Syntax(format!(
            "{body}: a move needs a from and a to square"
        )));
    }
    let to = square_at(2)?;
    let promotion = match chars.get(4) {
        None => None,
        Some(&c) => match PieceKind::from_letter(c) {
            Some(k) if PieceKind::PROMOTIONS.contains(&k) => Some(k),
            _ => {
                return Err(MoveParseError::Syntax(format!(
                    "{body}: '{c}' is not a promotion piece (q, r, b, n)"
                )));
            }
        },
    };
    if chars.len() > 5 {
        let rest: String = chars[5..].iter().collect();
        return Err(MoveParseError::Syntax(format!(
            "{body}: unexpected '{rest}' after the move"
        )));
    }
    if from == to {
        return Err(MoveParseError::Syntax(format!(
            "{body}: the from and to squares are the same"
        )));
    }
    Ok(CoordinateMove {
        from,
        to,
        promotion,
    })
}

/// "the pawn on e2"
fn describe(piece: Piece, sq: Square) -> String {
    format!("the {} on {sq}", piece.kind().name())
}

/// "e3 or e4", "e3, e4 or d3"
fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn san_letter(kind: PieceKind) -> char {
    kind.letter().to_ascii_uppercase()
}

/// A SAN move read as syntax only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SanSyntax {
    Castle {
        long: bool,
    },
    Normal {
        kind: PieceKind,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        to: Square,
        promotion: Option<PieceKind>,
    },
}

/// Reads SAN and the variants people and programs write: `0-0`, `O-O-O`, `e8Q`, `e8=Q`,
/// `e8(Q)`, `exd6 e.p.`, extra or missing `+`/`#`, annotations (`!?`), long algebraic
/// (`Ng1-f3`, `Qh4xe1`) and full disambiguation.
fn parse_san_syntax(text: &str) -> Result<SanSyntax, MoveParseError> {
    let t = text.trim();
    let syntax = |why: &str| MoveParseError::Syntax(format!("{t}: {why}"));
    let mut body = t;
    loop {
        let before = body.len();
        body = body.trim_end_matches(['+', '#', '!', '?']).trim_end();
        for suffix in ["e.p.", "ep"] {
            if let Some(stripped) = body.strip_suffix(suffix)
                && stripped.ends_with(|c: char| c.is_ascii_digit() || c == ' ')
            {
                body = stripped.trim_end();
            }
        }
        if body.len() == before {
            break;
        }
    }
    if body.is_empty() {
        return Err(MoveParseError::Syntax(
            "empty move: type one like e2e4, Nf3, exd5 or O-O".to_string(),
        ));
    }
    if let Some(bad) = body.chars().find(|c| !c.is_ascii_graphic()) {
        return Err(syntax(&format!("'{bad}' is not part of a chess move")));
    }
    let castle = body.replace('0', "O").to_ascii_uppercase();
    match castle.as_str() {
        "O-O" | "OO" => return Ok(SanSyntax::Castle { long: false }),
        "O-O-O" | "OOO" => return Ok(SanSyntax::Castle { long: true }),
        _ => {}
    }
    let mut c: Vec<u8> = body.bytes().collect();
    // The piece letter. Lower-case letters that are no file (k, q, r, n) are taken as pieces
    // too, since people type `nf3`; a lower-case `b` stays a file (`bxc3`).
    let kind = match c[0] {
        b'K' | b'k' => Some(PieceKind::King),
        b'Q' | b'q' => Some(PieceKind::Queen),
        b'R' | b'r' => Some(PieceKind::Rook),
        b'B' => Some(PieceKind::Bishop),
        b'N' | b'n' => Some(PieceKind::Knight),
        b'P' => Some(PieceKind::Pawn),
        _ => None,
    };
    let kind = match kind {
        Some(k) => {
            c.remove(0);
            k
        }
        None => PieceKind::Pawn,
    };
    // The promotion, at the end: `=Q`, `Q`, `(Q)` or `/Q` after the target square.
    let mut promotion = None;
    if c.len() >= 4 && c[c.len() - 1] == b')' && c[c.len() - 3] == b'(' {
        let p = c[c.len() - 2];
        c.truncate(c.len() - 3);
        promotion = Some(p);
    } else if c.len() >= 3 && c[c.len() - 1].is_ascii_alphabetic() {
        let before = c[c.len() - 2];
        if before.is_ascii_digit() || before == b'=' || before == b'/' {
            promotion = c.pop();
            if matches!(c.last(), Some(b'=') | Some(b'/')) {
                c.pop();
            }
        }
    }
    let promotion = match promotion {
        None => None,
        Some(p) => match PieceKind::from_letter(p as char) {
            Some(k) if PieceKind::PROMOTIONS.contains(&k) => Some(k),
            _ => {
                return Err(syntax(&format!(
                    "'{}' is not a promotion piece (Q, R, B, N)",
                    p as char
                )));
            }
        },
    };
    if promotion.is_some() && kind != PieceKind::Pawn {
        return Err(syntax("only a pawn can promote"));
    }
    if c.len() < 2 {
        return Err(syntax("not a move (try e2e4, Nf3, exd5, O-O or e8=Q)"));
    }
    let to_text = String::from_utf8_lossy(&c[c.len() - 2..]).to_string();
    let to = to_text
        .parse::<Square>()
        .map_err(|_| syntax(&format!("'{to_text}' is not a square")))?;
    c.truncate(c.len() - 2);
    if matches!(c.last(), Some(b'x') | Some(b':') | Some(b'-') | Some(b'X')) {
        c.pop();
    }
    let (mut from_file, mut from_rank) = (None, None);
    let mut rest = c.as_slice();
    if let Some((&f, tail)) = rest.split_first()
        && (b'a'..=b'h').contains(&f)
    {
        from_file = Some(f - b'a');
        rest = tail;
    }
    if let Some((&r, tail)) = rest.split_first()
        && (b'1'..=b'8').contains(&r)
    {
        from_rank = Some(r - b'1');
        rest = tail;
    }
    if !rest.is_empty() {
        return Err(syntax("not a move (try e2e4, Nf3, exd5, O-O or e8=Q)"));
    }
    Ok(SanSyntax::Normal {
        kind,
        from_file,
        from_rank,
        to,
        promotion,
    })
}

/// Does the text look like an attempt at coordinate notation (two square-like pairs)? Used
/// to pick which syntax error to show when neither notation reads it.
fn looks_like_coordinates(text: &str) -> bool {
    let b: Vec<char> = text.trim().chars().collect();
    b.len() >= 4
        && b[0].is_ascii_alphabetic()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_alphabetic()
        && b[3].is_ascii_digit()
        || b.len() <= 2
}

impl Board {
    /// Parses coordinate notation and checks it against this position. A king moving onto
    /// its own rook (`e1h1`, as some GUIs send castling) is read as castling.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let cm = parse_coordinate(text)?;
        let t = text.trim();
        self.check_coordinate(cm, t)
    }

    /// Parses SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`) and its common variants and checks it
    /// against this position. An ambiguous move is an error that lists the candidates.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let syntax = parse_san_syntax(text)?;
        self.check_san(syntax, text.trim())
    }

    /// Either notation: coordinates first (`e2e4`), then SAN (`e4`, `Nf3`). Upper-case
    /// coordinates are tolerated, except that `B4e6` (a capital B, then lower case) is the
    /// SAN bishop move it looks like, not the coordinate move `b4e6`.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        let bishop_san = t.starts_with('B') && t.chars().any(|c| c.is_ascii_lowercase());
        let coordinate = if bishop_san {
            Err(MoveParseError::Syntax(String::new()))
        } else {
            parse_coordinate(text)
        };
        if let Ok(cm) = coordinate {
            return self.check_coordinate(cm, text.trim());
        }
        match parse_san_syntax(text) {
            Ok(s) => self.check_san(s, text.trim()),
            Err(san_err) => match coordinate {
                Err(coord_err) if !bishop_san && looks_like_coordinates(text) => Err(coord_err),
                _ => Err(san_err),
            },
        }
    }

    /// The legal moves of the piece on `from` (empty when it is not the side to move's).
    pub fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        self.legal_moves()
            .iter()
            .copied()
            .filter(|m| m.from() == from)
            .collect()
    }

    /// The squares the piece on `from` may legally go to, each once (the four promotions
    /// share a square), nearest first and then in board order, so a Black pawn reads
    /// "e6 or e5" as a White one reads "e3 or e4".
    pub fn legal_targets(&self, from: Square) -> Vec<Square> {
        let mut targets: Vec<Square> = self.legal_moves_from(from).iter().map(|m| m.to()).collect();
        let distance = |s: &Square| {
            let df = (s.file() as i32 - from.file() as i32).abs();
            let dr = (s.rank() as i32 - from.rank() as i32).abs();
            df.max(dr)
        };
        targets.sort_by_key(|s| (distance(s), s.index64()));
        targets.dedup();
        targets
    }

    /// A sentence a front end can show next to a rejected move: "the pawn on e2 can go to e3
    /// or e4", "the knight on d2 cannot move". `None` when `from` holds no piece of the side
    /// to move.
    pub fn move_hint(&self, from: Square) -> Option<String> {
        let piece = self.piece_at(from)?;
        if piece.color() != self.side_to_move() {
            return None;
        }
        Some(format!(
            "{} {}",
            describe(piece, from),
            self.targets_phrase(from)
        ))
    }

    /// Standard Algebraic Notation of a legal move of this position: piece letter,
    /// disambiguation (file, then rank, then both), `x` for captures, `=Q` for promotions,
    /// `O-O`/`O-O-O`, and `+` or `#` (the PGN standard's export format).
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let mut after = self.clone();
        after.make(m);
        if after.in_check() {
            s.push(if after.has_legal_move() { '+' } else { '#' });
        }
        s
    }

    /// SAN of a line of moves played from this position, e.g. a principal variation. Stops
    /// at the first move that is not legal where it stands (a stale PV after a takeback).
    pub fn san_line(&self, moves: &[Move]) -> Vec<String> {
        let mut b = self.clone();
        let mut out = Vec::with_capacity(moves.len());
        for &m in moves {
            if !b.legal_moves().contains(m) {
                break;
            }
            out.push(b.san(m));
            b.make(m);
        }
        out
    }

    fn san_without_suffix(&self, m: Move) -> String {
        if m.is_castle() {
            return if m.to().file() > m.from().file() {
                "O-O".to_string()
            } else {
                "O-O-O".to_string()
            };
        }
        let kind = self
            .piece_at(m.from())
            .map_or(PieceKind::Pawn, |p| p.kind());
        let mut s = String::with_capacity(8);
        if kind == PieceKind::Pawn {
            if m.is_capture() {
                s.push(m.from().file_char());
            }
        } else {
            s.push(san_letter(kind));
            // Other pieces of the same kind that can also reach the target.
            let rivals: Vec<Square> = self
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.to() == m.to()
                        && o.from() != m.from()
                        && self.piece_at(o.from()).map(|p| p.kind()) == Some(kind)
                })
                .map(|o| o.from())
                .collect();
            if !rivals.is_empty() {
                let file_unique = rivals.iter().all(|r| r.file() != m.from().file());
                let rank_unique = rivals.iter().all(|r| r.rank() != m.from().rank());
                if file_unique {
                    s.push(m.from().file_char());
                } else if rank_unique {
                    s.push(m.from().rank_char());
                } else {
                    s.push(m.from().file_char());
                    s.push(m.from().rank_char());
                }
            }
        }
        if m.is_capture() {
            s.push('x');
        }
        s.push_str(&m.to().to_string());
        if let Some(p) = m.promotion() {
            s.push('=');
            s.push(san_letter(p));
        }
        s
    }

    // ---- checking parsed syntax against the position ------------------------------------

    fn check_coordinate(&self, cm: CoordinateMove, t: &str) -> Result<Move, MoveParseError> {
        self.coordinate_verdict(cm)
            .map_err(|why| MoveParseError::Illegal(format!("{t}: {why}")))
    }

    /// The legal move these squares (and promotion) name here, or why there is none, in a
    /// player's words ("there is no piece on e3"). `Board::play` gives the same reasons.
    pub(super) fn coordinate_verdict(&self, cm: CoordinateMove) -> Result<Move, String> {
        let illegal = Err;
        let us = self.side_to_move();
        let Some(piece) = self.piece_at(cm.from) else {
            return illegal(format!("there is no piece on {}", cm.from));
        };
        if piece.color() != us {
            return illegal(format!(
                "{} is {}'s, and it is {}'s move",
                describe(piece, cm.from),
                piece.color().name(),
                us.name()
            ));
        }
        let legal = self.legal_moves();
        if let Some(&m) = legal
            .iter()
            .find(|m| m.from() == cm.from && m.to() == cm.to && m.promotion() == cm.promotion)
        {
            return Ok(m);
        }
        let same_squares: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.from() == cm.from && m.to() == cm.to)
            .collect();
        if cm.promotion.is_none() && same_squares.iter().any(|m| m.promotion().is_some()) {
            let base = format!("{}{}", cm.from, cm.to);
            return illegal(format!(
                "a promotion needs a piece: {base}q, {base}r, {base}b or {base}n"
            ));
        }
        if cm.promotion.is_some() && same_squares.iter().any(|m| m.promotion().is_none()) {
            return illegal(format!(
                "only a pawn reaching the last rank promotes (play {}{})",
                cm.from, cm.to
            ));
        }
        if piece.kind() == PieceKind::King
            && let Some(long) = self.castling_intent(cm.from, cm.to)
        {
            return self.castle(&legal, long).or_else(illegal);
        }
        if let Some(target) = self.piece_at(cm.to)
            && target.color() == us
        {
            return illegal(format!(
                "{} cannot take {}'s own {} on {}{}",
                describe(piece, cm.from),
                us.name(),
                target.kind().name(),
                cm.to,
                self.hint_suffix(cm.from)
            ));
        }
        if cm.promotion.is_some() && piece.kind() != PieceKind::Pawn {
            return illegal(format!(
                "only a pawn can promote, and {} is a {}",
                describe(piece, cm.from),
                piece.kind().name()
            ));
        }
        if let Some(pseudo) = self.pseudo_move(cm.from, cm.to, cm.promotion) {
            if let Some(why) = self.check_left_by(pseudo) {
                return illegal(format!("{why}{}", self.hint_suffix(cm.from)));
            }
            if cm.promotion.is_some() {
                return illegal(format!(
                    "only a pawn reaching the last rank promotes{}",
                    self.hint_suffix(cm.from)
                ));
            }
        }
        illegal(format!(
            "not a legal move for {}{}",
            describe(piece, cm.from),
            self.hint_suffix(cm.from)
        ))
    }

    /// "can go to e3 or e4" / "cannot move"
    fn targets_phrase(&self, from: Square) -> String {
        let targets: Vec<String> = self
            .legal_targets(from)
            .iter()
            .map(|s| s.to_string())
            .collect();
        if targets.is_empty() {
            "cannot move".to_string()
        } else {
            format!("can go to {}", join_or(&targets))
        }
    }

    /// " (it can go to e3 or e4)" / " (it cannot move)"
    fn hint_suffix(&self, from: Square) -> String {
        format!(" (it {})", self.targets_phrase(from))
    }

    /// Is a king move from `from` to `to` an attempt to castle? `Some(long)` when the king
    /// stands on its home square and goes two files along the back rank or onto its own
    /// rook in the corner (the way Chess960-aware GUIs send castling).
    fn castling_intent(&self, from: Square, to: Square) -> Option<bool> {
        let us = self.side_to_move();
        let home_rank = match us {
            Color::White => 0,
            Color::Black => 7,
        };
        if from != Square::new(4, home_rank) || to.rank() != home_rank {
            return None;
        }
        match to.file() {
            6 => Some(false),
            2 => Some(true),
            7 | 0 => {
                let p = self.piece_at(to)?;
                (p.color() == us && p.kind() == PieceKind::Rook).then_some(to.file() == 0)
            }
            _ => None,
        }
    }

    /// Why castling to one side is not legal, in the order the rules are usually stated
    /// (seed 001's castling rule and FIDE 3.8.2): the right, check, the path, the attacks.
    fn castling_obstacle(&self, long: bool) -> String {
        let us = self.side_to_move();
        let them = us.flip();
        let side = if long { "queenside" } else { "kingside" };
        let rank = match us {
            Color::White => 0,
            Color::Black => 7,
        };
        let bit = if long {
            CastlingRights::long(us)
        } else {
            CastlingRights::short(us)
        };
        let rook_sq = Square::new(if long { 0 } else { 7 }, rank);
        if !self.castling_rights().has(bit) {
            return format!(
                "{} has lost the right to castle {side}: the king or the {rook_sq} rook has moved or been taken",
                us.name()
            );
        }
        if self.in_check() {
            return format!("the king is in check{}", self.checkers_phrase());
        }
        let between: &[u8] = if long { &[3, 2, 1] } else { &[5, 6] };
        let blocked: Vec<String> = between
            .iter()
            .map(|&f| Square::new(f, rank))
            .filter(|&s| self.piece_at(s).is_some())
            .map(|s| s.to_string())
            .collect();
        if !blocked.is_empty() {
            return format!(
                "the squares between the king and the rook must be empty: {} {} occupied",
                join_or(&blocked).replace(" or ", " and "),
                if blocked.len() == 1 { "is" } else { "are" }
            );
        }
        let (pass, land) = if long {
            (Square::new(3, rank), Square::new(2, rank))
        } else {
            (Square::new(5, rank), Square::new(6, rank))
        };
        for (sq, verb) in [(pass, "pass through"), (land, "land on")] {
            if let Some(&a) = self.attackers(sq, them).first()
                && let Some(p) = self.piece_at(a)
            {
                return format!(
                    "the king would {verb} {sq}, which {} attacks",
                    describe(p, a)
                );
            }
        }
        "the rules do not allow it".to_string()
    }

    /// " from the queen on h4" (or "from the rook on e8 and the knight on f3").
    fn checkers_phrase(&self) -> String {
        let us = self.side_to_move();
        let king = self.king_square(us);
        let names: Vec<String> = self
            .attackers(king, us.flip())
            .into_iter()
            .filter_map(|s| self.piece_at(s).map(|p| describe(p, s)))
            .collect();
        if names.is_empty() {
            String::new()
        } else {
            format!(" from {}", names.join(" and "))
        }
    }

    /// The move from `from` to `to` if the piece there moves that way, ignoring whether
    /// it would leave its own king in check (a pseudo-legal move). Castling is left to
    /// `castling_intent`.
    fn pseudo_move(&self, from: Square, to: Square, promotion: Option<PieceKind>) -> Option<Move> {
        let piece = self.piece_at(from)?;
        let us = piece.color();
        let target = self.piece_at(to);
        if target.is_some_and(|t| t.color() == us || t.kind() == PieceKind::King) {
            return None;
        }
        let capture_flag = if target.is_some() {
            Move::FLAG_CAPTURE
        } else {
            0
        };
        if piece.kind() != PieceKind::Pawn {
            if promotion.is_some()
                || !attacks::piece_attacks(&self.cells, piece.code(), from.x88(), to.x88(), NO_SQ)
            {
                return None;
            }
            return Some(Move::with_flags(from.x88(), to.x88(), 0, capture_flag));
        }
        let (fwd, start_rank, last_rank) = match us {
            Color::White => (16i8, 1u8, 7u8),
            Color::Black => (-16, 6, 0),
        };
        let promo_code = if to.rank() == last_rank {
            promotion.unwrap_or(PieceKind::Queen).code()
        } else if promotion.is_some() {
            return None;
        } else {
            0
        };
        let one = from.offset(fwd);
        if target.is_none() && one == Some(to) {
            return Some(Move::with_flags(from.x88(), to.x88(), promo_code, 0));
        }
        if target.is_none()
            && from.rank() == start_rank
            && one.is_some_and(|s| self.piece_at(s).is_none())
            && one.and_then(|s| s.offset(fwd)) == Some(to)
        {
            return Some(Move::with_flags(
                from.x88(),
                to.x88(),
                0,
                Move::FLAG_DOUBLE_PUSH,
            ));
        }
        let diagonal = [fwd - 1, fwd + 1]
            .iter()
            .any(|&d| from.offset(d) == Some(to));
        if !diagonal {
            return None;
        }
        if target.is_some() {
            return Some(Move::with_flags(
                from.x88(),
                to.x88(),
                promo_code,
                Move::FLAG_CAPTURE,
            ));
        }
        if self.ep_square() == Some(to) {
            return Some(Move::with_flags(
                from.x88(),
                to.x88(),
                0,
                Move::FLAG_EN_PASSANT,
            ));
        }
        None
    }

    /// If the pseudo-legal `m` leaves the mover's king attacked: "leaves the king in check
    /// from the bishop on b4".
    fn check_left_by(&self, m: Move) -> Option<String> {
        let us = self.side_to_move();
        let mut after = self.clone();
        after.make(m);
        let king = after.king_square(us);
        let checkers: Vec<String> = after
            .attackers(king, us.flip())
            .into_iter()
            .filter_map(|s| after.piece_at(s).map(|p| describe(p, s)))
            .collect();
        if checkers.is_empty() {
            None
        } else {
            Some(format!(
                "leaves the king in check from {}",
                checkers.join(" and ")
            ))
        }
    }

    /// The legal castling move to one side, or why there is none.
    fn castle(&self, legal: &MoveList, long: bool) -> Result<Move, String> {
        legal
            .iter()
            .copied()
            .find(|m| m.is_castle() && (m.to().file() < m.from().file()) == long)
            .ok_or_else(|| {
                format!(
                    "castling is not legal here ({})",
                    self.castling_obstacle(long)
                )
            })
    }

    fn check_san(&self, syntax: SanSyntax, t: &str) -> Result<Move, MoveParseError> {
        let illegal = |why: String| Err(MoveParseError::Illegal(format!("{t}: {why}")));
        let us = self.side_to_move();
        let legal = self.legal_moves();
        let (kind, from_file, from_rank, to, promotion) = match syntax {
            SanSyntax::Castle { long } => return self.castle(&legal, long).or_else(illegal),
            SanSyntax::Normal {
                kind,
                from_file,
                from_rank,
                to,
                promotion,
            } => (kind, from_file, from_rank, to, promotion),
        };
        // A pawn move without a from file is a push: standard SAN always names the file a
        // pawn captures from, so `d6` must not match `cxd6`.
        let from_file = match (kind, from_file) {
            (PieceKind::Pawn, None) => Some(to.file()),
            (_, f) => f,
        };
        let matches_from = |from: Square| {
            from_file.is_none_or(|f| from.file() == f) && from_rank.is_none_or(|r| from.rank() == r)
        };
        let shape: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.to() == to
                    && matches_from(m.from())
                    && self.piece_at(m.from()).map(|p| p.kind()) == Some(kind)
            })
            .collect();
        let candidates: Vec<Move> = shape
            .iter()
            .copied()
            .filter(|m| promotion.is_none() || m.promotion() == promotion)
            .collect();
        match candidates.as_slice() {
            [m] => return Ok(*m),
            [] => {}
            many => {
                if promotion.is_none() && many.iter().all(|m| m.promotion().is_some()) {
                    let base = self.san_without_suffix(many[0]);
                    let base = base.trim_end_matches(|c: char| c.is_ascii_uppercase());
                    return illegal(format!(
                        "a promotion needs a piece: {base}Q, {base}R, {base}B or {base}N"
                    ));
                }
                let mut names: Vec<String> = many.iter().map(|&m| self.san(m)).collect();
                names.sort();
                return illegal(format!("ambiguous: could be {}", join_or(&names)));
            }
        }
        if promotion.is_some() && !shape.is_empty() {
            return illegal("only a pawn reaching the last rank promotes".to_string());
        }
        // No legal move fits: say why, from the pieces that would fit the text.
        let colour = us.name().to_ascii_lowercase();
        let ours: Vec<Square> = self
            .pieces(us)
            .filter(|(s, p)| p.kind() == kind && matches_from(*s))
            .map(|(s, _)| s)
            .collect();
        if self.count(us, kind) == 0 {
            return illegal(format!("{} has no {}", us.name(), kind.name()));
        }
        for &from in &ours {
            let pseudo = self
                .pseudo_move(from, to, promotion)
                .or_else(|| self.pseudo_move(from, to, None));
            if let Some(m) = pseudo
                && let Some(why) = self.check_left_by(m)
            {
                return illegal(why);
            }
        }
        if let Some(target) = self.piece_at(to)
            && target.color() == us
        {
            return illegal(format!(
                "{to} holds {}'s own {}",
                us.name(),
                target.kind().name()
            ));
        }
        let hint = match ours.as_slice() {
            [one] => format!(
                " ({} {})",
                describe(Piece::new(us, kind), *one),
                self.targets_phrase(*one)
            ),
            _ => String::new(),
        };
        illegal(format!("no {colour} {} can go to {to}{hint}", kind.name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(fen: &str) -> Board {
        Board::from_fen(fen).unwrap()
    }

    fn err(board: &Board, text: &str) -> String {
        board.parse_move(text).unwrap_err().to_string()
    }

    #[test]
    fn coordinate_syntax_errors() {
        assert_eq!(
            parse_coordinate("z9").unwrap_err().to_string(),
            "z9: not a square"
        );
        assert_eq!(
            parse_coordinate("e2").unwrap_err().to_string(),
            "e2: a move needs a from and a to square"
        );
        assert_eq!(
            parse_coordinate("e7e8x").unwrap_err().to_string(),
            "e7e8x: 'x' is not a promotion piece (q, r, b, n)"
        );
        assert_eq!(
            parse_coordinate("e2z4").unwrap_err().to_string(),
            "z4: not a square"
        );
        assert!(matches!(
            parse_coordinate(""),
            Err(MoveParseError::Syntax(_))
        ));
        assert!(matches!(
            parse_coordinate("e2e4e5"),
            Err(MoveParseError::Syntax(_))
        ));
        assert!(matches!(
            parse_coordinate("é2e4"),
            Err(MoveParseError::Syntax(_))
        ));
        let ok = parse_coordinate("E7E8Q+").unwrap();
        assert_eq!(ok.from.to_string(), "e7");
        assert_eq!(ok.to.to_string(), "e8");
        assert_eq!(ok.promotion, Some(PieceKind::Queen));
    }

    #[test]
    fn coordinate_illegal_reasons() {
        let start = Board::startpos();
        assert_eq!(
            err(&start, "e2e5"),
            "e2e5: not a legal move for the pawn on e2 (it can go to e3 or e4)"
        );
        assert_eq!(err(&start, "e3e4"), "e3e4: there is no piece on e3");
        assert_eq!(
            err(&start, "e7e5"),
            "e7e5: the pawn on e7 is Black's, and it is White's move"
        );
        assert_eq!(
            err(&start, "e1g1"),
            "e1g1: castling is not legal here (the squares between the king and the rook \
             must be empty: f1 and g1 are occupied)"
        );
        assert!(err(&start, "d1d2").contains("cannot take White's own pawn on d2"));
        assert!(err(&start, "e2e4q").contains("only a pawn reaching the last rank promotes"));
        let promo = b("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        assert_eq!(
            err(&promo, "e7e8"),
            "e7e8: a promotion needs a piece: e7e8q, e7e8r, e7e8b or e7e8n"
        );
        assert_eq!(
            promo.parse_uci_move("e7e8n").unwrap().promotion(),
            Some(PieceKind::Knight)
        );
    }

    #[test]
    fn castling_reasons() {
        // Bishop on c4 covers f1: the king would pass through an attacked square.
        let through = b("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1");
        assert_eq!(
            err(&through, "e1g1"),
            "e1g1: castling is not legal here (the king would pass through f1, which the \
             bishop on c4 attacks)"
        );
        let in_check = b("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1");
        assert!(err(&in_check, "O-O").contains("the king is in check from the rook on e2"));
        let no_rights = b("4k3/8/8/8/8/8/8/R3K2R w K - 0 1");
        assert!(err(&no_rights, "e1c1").contains("White has lost the right to castle queenside"));
        assert!(no_rights.parse_move("e1g1").unwrap().is_castle());
        // King onto its own rook is read as castling.
        assert!(no_rights.parse_uci_move("e1h1").unwrap().is_castle());
    }

    #[test]
    fn pins_and_checks_are_explained() {
        // The knight on d2 is pinned by the bishop on b4.
        let pinned = b("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1");
        assert_eq!(
            err(&pinned, "d2f3"),
            "d2f3: leaves the king in check from the bishop on b4 (it cannot move)"
        );
        let check = b("4k3/8/8/8/7q/8/3P4/4K3 w - - 0 1");
        assert!(err(&check, "d2d3").contains("leaves the king in check from the queen on h4"));
        assert!(err(&check, "Kf2").contains("leaves the king in check from the queen on h4"));
    }

    #[test]
    fn san_output() {
        let start = Board::startpos();
        let m = start.parse_move("g1f3").unwrap();
        assert_eq!(start.san(m), "Nf3");
        // Knights on b1 and f3 both reach d2: file disambiguation.
        let p = b("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(p.san(p.parse_uci_move("b1d2").unwrap()), "Nbd2");
        // Rooks on a1 and a5 both reach a3: rank disambiguation.
        let r = b("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
        assert_eq!(r.san(r.parse_uci_move("a1a3").unwrap()), "R1a3");
        // Three queens: file and rank both needed.
        let q = b("1k6/8/8/8/4Q2Q/8/K7/7Q w - - 0 1");
        assert_eq!(q.san(q.parse_uci_move("h4e1").unwrap()), "Qh4e1");
        assert_eq!(q.parse_move("Qh4e1").unwrap().from().to_string(), "h4");
        assert!(
            q.parse_move("Qhe1")
                .unwrap_err()
                .to_string()
                .contains("could be Q1e1 or Qh4e1")
        );
        let mate = b("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        assert_eq!(mate.san(mate.parse_uci_move("h1h8").unwrap()), "Rh8#");
        let promo = b("1r5k/P7/8/8/8/8/8/K7 w - - 0 1");
        assert_eq!(promo.san(promo.parse_uci_move("a7b8q").unwrap()), "axb8=Q+");
        assert_eq!(promo.san(promo.parse_uci_move("a7a8n").unwrap()), "a8=N");
    }

    #[test]
    fn san_input_variants() {
        let castle = b("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for t in ["O-O", "0-0", "o-o", "O-O+", "e1g1"] {
            let m = castle.parse_move(t).unwrap();
            assert!(m.is_castle() && m.to().file() == 6, "{t}");
        }
        for t in ["O-O-O", "0-0-0", "e1c1"] {
            let m = castle.parse_move(t).unwrap();
            assert!(m.is_castle() && m.to().file() == 2, "{t}");
        }
        let promo = b("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        for t in ["a8=Q", "a8Q", "a8q", "a8(Q)", "a8=Q+", "a8=Q!?", "a7a8q"] {
            assert_eq!(
                promo.parse_move(t).unwrap().promotion(),
                Some(PieceKind::Queen),
                "{t}"
            );
        }
        assert!(
            promo
                .parse_move("a8")
                .unwrap_err()
                .to_string()
                .contains("a8=Q, a8=R, a8=B or a8=N")
        );
        let ep = b("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        for t in ["exd6", "exd6 e.p.", "exd6ep", "ed6", "e5d6"] {
            assert!(ep.parse_move(t).unwrap().is_en_passant(), "{t}");
        }
        let knights = b("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
        assert_eq!(knights.parse_move("Nbd2").unwrap().from().to_string(), "b1");
        assert_eq!(
            knights.parse_move("Nf3d2").unwrap().from().to_string(),
            "f3"
        );
        assert_eq!(
            knights.parse_move("Nf3-d2").unwrap().from().to_string(),
            "f3"
        );
        assert_eq!(
            knights.parse_move("Nd2").unwrap_err().to_string(),
            "Nd2: ambiguous: could be Nbd2 or Nfd2"
        );
        let start = Board::startpos();
        assert_eq!(start.parse_move("nf3").unwrap().to().to_string(), "f3");
        assert_eq!(start.parse_move("Nf3!").unwrap().to().to_string(), "f3");
        assert_eq!(start.parse_move("e4").unwrap().to().to_string(), "e4");
        assert!(matches!(
            start.parse_move("Nf9"),
            Err(MoveParseError::Syntax(_))
        ));
        assert!(matches!(
            start.parse_move("Ke8=Q"),
            Err(MoveParseError::Syntax(_))
        ));
        assert_eq!(
            start.parse_move("Nd4").unwrap_err().to_string(),
            "Nd4: no white knight can go to d4"
        );
        assert_eq!(
            start.parse_move("Qh5").unwrap_err().to_string(),
            "Qh5: no white queen can go to h5 (the queen on d1 cannot move)"
        );
        assert_eq!(
            start.parse_move("e5").unwrap_err().to_string(),
            "e5: no white pawn can go to e5 (the pawn on e2 can go to e3 or e4)"
        );
        assert_eq!(
            b("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
                .parse_move("Nf3")
                .unwrap_err()
                .to_string(),
            "Nf3: White has no knight"
        );
    }
}
