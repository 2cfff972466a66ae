//! Themes read from a solution's own geometry: what the solver's moves attack, uncover,
//! capture and leave behind, with lichess's theme names so a file ox88 writes sorts the
//! same way in other tools. Only what the moves show is named: a theme that would need a
//! judgement about intentions (deflection, attraction, quiet move) is left out.

use super::Checked;
use crate::chess::attacks::piece_attacks;
use crate::chess::{Board, Color, Move, PieceKind, Square};

/// An off-board 0x88 index: "ignore no square" for [`piece_attacks`].
const NO_SQUARE: u8 = 0x88;

/// How the solution ends, from the solver's side: mate, or the engine's score in
/// centipawns after the last move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Mate,
    Cp(i32),
}

/// The usual values in pawns, the king above all (for "worth more than").
fn value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Knight | PieceKind::Bishop => 3,
        PieceKind::Rook => 5,
        PieceKind::Queen => 9,
        PieceKind::King => 100,
    }
}

/// Material from `side`'s point of view, kings left out.
fn balance(b: &Board, side: Color) -> i32 {
    let of = |c: Color| -> i32 {
        b.pieces(c)
            .filter(|(_, p)| p.kind() != PieceKind::King)
            .map(|(_, p)| value(p.kind()))
            .sum()
    };
    of(side) - of(side.flip())
}

fn attacks(b: &Board, from: Square, to: Square) -> bool {
    piece_attacks(
        b.cells(),
        b.code_at(from.x88()),
        from.x88(),
        to.x88(),
        NO_SQUARE,
    )
}

fn is_mate(b: &Board) -> bool {
    b.in_check() && !b.has_legal_move()
}

fn is_slider(kind: PieceKind) -> bool {
    matches!(kind, PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen)
}

/// The positions and moves of a solution, walked once.
struct Walk {
    solver: Color,
    /// `boards[i]` is the position before `moves[i]`.
    boards: Vec<Board>,
    moves: Vec<Move>,
}

impl Walk {
    fn new(c: &Checked) -> Walk {
        let mut b = c.board.clone();
        let mut boards = Vec::with_capacity(c.moves.len() + 1);
        for &m in &c.moves {
            boards.push(b.clone());
            b.make(m);
        }
        boards.push(b);
        Walk {
            solver: c.board.side_to_move().flip(),
            boards,
            moves: c.moves.clone(),
        }
    }

    /// Indices (into `moves`) of the solver's moves.
    fn solver_plies(&self) -> impl Iterator<Item = usize> + '_ {
        (1..self.moves.len()).step_by(2)
    }

    fn last(&self) -> &Board {
        self.boards.last().expect("a walk has a final position")
    }

    /// Does a solver move after ply `i` capture on `sq`?
    fn later_capture_on(&self, i: usize, sq: Square) -> bool {
        self.solver_plies()
            .filter(|&j| j > i)
            .any(|j| self.moves[j].is_capture() && self.moves[j].to() == sq)
    }

    /// The opponent's pieces the piece on `at` attacks after ply `i` (on `boards[i + 1]`).
    fn targets(&self, i: usize, at: Square) -> Vec<(Square, PieceKind)> {
        let b = &self.boards[i + 1];
        b.pieces(self.solver.flip())
            .filter(|&(sq, _)| attacks(b, at, sq))
            .map(|(sq, p)| (sq, p.kind()))
            .collect()
    }
}

/// The themes of a checked puzzle, given how it ends.
pub fn themes(c: &Checked, ending: Ending) -> Vec<String> {
    let w = Walk::new(c);
    let mut t: Vec<&str> = Vec::new();
    let n = c.moves.len() / 2;
    let mated = is_mate(w.last());
    if mated || ending == Ending::Mate {
        t.push("mate");
        if mated && n <= 5 {
            t.push(["mateIn1", "mateIn2", "mateIn3", "mateIn4", "mateIn5"][n - 1]);
        }
    } else if let Ending::Cp(cp) = ending {
        t.push(if cp >= 600 { "crushing" } else { "advantage" });
    }
    if mated {
        t.extend(mate_patterns(&w));
    }
    t.push(match n {
        1 => "oneMove",
        2 => "short",
        3 => "long",
        _ => "veryLong",
    });
    t.extend(phase(&w.boards[1]));
    if w.solver_plies().any(|i| w.moves[i].promotion().is_some()) {
        t.push("promotion");
        if w.solver_plies()
            .any(|i| matches!(w.moves[i].promotion(), Some(k) if k != PieceKind::Queen))
        {
            t.push("underPromotion");
        }
    }
    if w.solver_plies().any(|i| w.moves[i].is_en_passant()) {
        t.push("enPassant");
    }
    if w.solver_plies().any(|i| w.moves[i].is_castle()) {
        t.push("castling");
    }
    if sacrifice(&w) {
        t.push("sacrifice");
    }
    if !mated && hanging_piece(&w) {
        t.push("hangingPiece");
    }
    if fork(&w) {
        t.push("fork");
    }
    if pin(&w) {
        t.push("pin");
    }
    if skewer(&w) {
        t.push("skewer");
    }
    if discovered_attack(&w) {
        t.push("discoveredAttack");
    }
    if w.solver_plies().any(|i| {
        let b = &w.boards[i + 1];
        b.in_check() && b.attackers(b.king_square(w.solver.flip()), w.solver).len() >= 2
    }) {
        t.push("doubleCheck");
    }
    t.into_iter().map(str::to_string).collect()
}

/// Opening (the first moves), endgame (little material left) or middlegame, and the kind
/// of endgame, from the position the solver first sees.
fn phase(b: &Board) -> Vec<&'static str> {
    let pieces = |c: Color| -> Vec<PieceKind> {
        b.pieces(c)
            .map(|(_, p)| p.kind())
            .filter(|k| !matches!(k, PieceKind::King | PieceKind::Pawn))
            .collect()
    };
    let (white, black) = (pieces(Color::White), pieces(Color::Black));
    let weight = |v: &[PieceKind]| v.iter().map(|&k| value(k)).sum::<i32>();
    if weight(&white) > 13 || weight(&black) > 13 {
        return vec![if b.fullmove_number() <= 12 {
            "opening"
        } else {
            "middlegame"
        }];
    }
    let mut t = vec!["endgame"];
    let all: Vec<PieceKind> = white.iter().chain(&black).copied().collect();
    let only = |kinds: &[PieceKind]| all.iter().all(|k| kinds.contains(k));
    let has = |k: PieceKind| all.contains(&k);
    if all.is_empty() {
        t.push("pawnEndgame");
    } else if only(&[PieceKind::Rook]) {
        t.push("rookEndgame");
    } else if only(&[PieceKind::Queen]) {
        t.push("queenEndgame");
    } else if only(&[PieceKind::Bishop]) {
        t.push("bishopEndgame");
    } else if only(&[PieceKind::Knight]) {
        t.push("knightEndgame");
    } else if only(&[PieceKind::Queen, PieceKind::Rook])
        && has(PieceKind::Queen)
        && has(PieceKind::Rook)
    {
        t.push("queenRookEndgame");
    }
    t
}

/// Back-rank and smothered mates, read from the final position.
fn mate_patterns(w: &Walk) -> Vec<&'static str> {
    let b = w.last();
    let loser = w.solver.flip();
    let king = b.king_square(loser);
    let last = *w.moves.last().expect("a puzzle has moves");
    let mater = b.piece_at(last.to()).map(|p| p.kind());
    let own_or_edge =
        |sq: Option<Square>| sq.is_none_or(|s| b.piece_at(s).is_some_and(|p| p.color() == loser));
    let mut t = Vec::new();
    let back = if loser == Color::White { 0 } else { 7 };
    let forward: i8 = if loser == Color::White { 16 } else { -16 };
    if king.rank() == back
        && matches!(mater, Some(PieceKind::Rook | PieceKind::Queen))
        && last.to().rank() == back
        && [forward - 1, forward, forward + 1]
            .iter()
            .all(|&d| own_or_edge(king.offset(d)))
    {
        t.push("backRankMate");
    }
    let around = [-17i8, -16, -15, -1, 1, 15, 16, 17];
    if mater == Some(PieceKind::Knight) && around.iter().all(|&d| own_or_edge(king.offset(d))) {
        t.push("smotheredMate");
    }
    t
}

/// The solver gives up at least two pawns' worth, counted after the opponent's replies,
/// below where the solution began.
fn sacrifice(w: &Walk) -> bool {
    let start = balance(&w.boards[1], w.solver);
    (3..w.boards.len())
        .step_by(2)
        .any(|i| balance(&w.boards[i], w.solver) <= start - 2)
}

/// The first answer takes a piece that nothing defended, or one worth more than the taker,
/// in a short solution.
fn hanging_piece(w: &Walk) -> bool {
    let (b, m) = (&w.boards[1], w.moves[1]);
    if !m.is_capture() || m.is_en_passant() || w.moves.len() > 4 {
        return false;
    }
    let (Some(taken), Some(taker)) = (b.piece_at(m.to()), b.piece_at(m.from())) else {
        return false;
    };
    taken.kind() != PieceKind::Pawn
        && (!b.is_attacked(m.to(), w.solver.flip()) || value(taken.kind()) > value(taker.kind()))
}

/// A solver's move after which the moved piece attacks two of the opponent's pieces worth
/// more than it (or the king), and a later answer by that piece takes one of them.
fn fork(w: &Walk) -> bool {
    w.solver_plies().any(|i| {
        let m = w.moves[i];
        let b = &w.boards[i + 1];
        let Some(piece) = b.piece_at(m.to()) else {
            return false;
        };
        let targets: Vec<Square> = w
            .targets(i, m.to())
            .into_iter()
            .filter(|&(sq, k)| {
                k == PieceKind::King
                    || value(k) > value(piece.kind())
                    || (k != PieceKind::Pawn && !b.is_attacked(sq, w.solver.flip()))
            })
            .map(|(sq, _)| sq)
            .collect();
        targets.len() >= 2
            && w.solver_plies().any(|j| {
                j > i && w.moves[j].from() == m.to() && w.moves[j].is_capture() && {
                    let prey = w.boards[j].piece_at(w.moves[j].to());
                    prey.is_some_and(|p| p.kind() != PieceKind::Pawn)
                }
            })
    })
}

/// The squares on the line from `from` in direction `d`, up to and including the second
/// piece met: (first piece's square, second piece's square).
fn two_on_line(b: &Board, from: Square, d: i8) -> Option<(Square, Square)> {
    let mut first = None;
    let mut s = from.offset(d);
    while let Some(sq) = s {
        if b.piece_at(sq).is_some() {
            match first {
                None => first = Some(sq),
                Some(f) => return Some((f, sq)),
            }
        }
        s = sq.offset(d);
    }
    None
}

/// The directions a slider of `kind` moves along.
fn directions(kind: PieceKind) -> &'static [i8] {
    match kind {
        PieceKind::Rook => &[-16, -1, 1, 16],
        PieceKind::Bishop => &[-17, -15, 15, 17],
        _ => &[-17, -16, -15, -1, 1, 15, 16, 17],
    }
}

/// A solver's slider move that pins an opponent's piece to a more valuable one (or the
/// king) behind it, and a later answer takes the pinned piece.
fn pin(w: &Walk) -> bool {
    lines_after_slider_moves(w, |i, front, _, fk, bk| {
        fk != PieceKind::King
            && (bk == PieceKind::King || value(bk) > value(fk))
            && w.later_capture_on(i, front)
    })
}

/// A solver's slider move that attacks the king or a queen with a lesser piece behind it;
/// the front piece steps aside and a later answer takes the one behind.
fn skewer(w: &Walk) -> bool {
    lines_after_slider_moves(w, |i, _, back, fk, bk| {
        matches!(fk, PieceKind::King | PieceKind::Queen)
            && value(bk) < value(fk)
            && bk != PieceKind::Pawn
            && w.later_capture_on(i, back)
    })
}

/// Calls `test(ply, front, back, front_kind, back_kind)` for each line from a slider the
/// solver just moved that meets two opponent's pieces in a row.
fn lines_after_slider_moves(
    w: &Walk,
    test: impl Fn(usize, Square, Square, PieceKind, PieceKind) -> bool,
) -> bool {
    w.solver_plies().any(|i| {
        let b = &w.boards[i + 1];
        let at = w.moves[i].to();
        let Some(piece) = b.piece_at(at).filter(|p| is_slider(p.kind())) else {
            return false;
        };
        directions(piece.kind()).iter().any(|&d| {
            let Some((front, back)) = two_on_line(b, at, d) else {
                return false;
            };
            let (Some(f), Some(k)) = (b.piece_at(front), b.piece_at(back)) else {
                return false;
            };
            f.color() != w.solver
                && k.color() != w.solver
                && test(i, front, back, f.kind(), k.kind())
        })
    })
}

/// A solver's move that uncovers an attack by another of the solver's pieces on the king
/// (a discovered check) or on a piece that a later answer takes.
fn discovered_attack(w: &Walk) -> bool {
    w.solver_plies().any(|i| {
        let m = w.moves[i];
        let (before, after) = (&w.boards[i], &w.boards[i + 1]);
        after
            .pieces(w.solver)
            .filter(|&(sq, p)| sq != m.to() && is_slider(p.kind()))
            .any(|(slider, _)| {
                after
                    .pieces(w.solver.flip())
                    .filter(|&(_, p)| p.kind() != PieceKind::Pawn)
                    .any(|(target, p)| {
                        attacks(after, slider, target)
                            && !attacks(before, slider, target)
                            && (p.kind() == PieceKind::King || w.later_capture_on(i, target))
                    })
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::test_puzzle;

    fn themes_of(fen: &str, moves: &str, ending: Ending) -> Vec<String> {
        themes(&test_puzzle(fen, moves).check().unwrap(), ending)
    }

    fn has(t: &[String], name: &str) -> bool {
        t.iter().any(|x| x == name)
    }

    #[test]
    fn a_back_rank_mate_in_one() {
        // Black's king is shut in by its own pawns; White's rook mates on the back rank.
        let t = themes_of(
            "6k1/5ppp/8/8/8/8/r4PPP/3R2K1 b - - 0 30",
            "a2a3 d1d8",
            Ending::Mate,
        );
        for name in [
            "mate",
            "mateIn1",
            "backRankMate",
            "oneMove",
            "endgame",
            "rookEndgame",
        ] {
            assert!(has(&t, name), "{name} missing from {t:?}");
        }
        assert!(!has(&t, "fork"), "{t:?}");
    }

    #[test]
    fn a_knight_fork_of_king_and_rook() {
        // Nc7+ attacks the king on e8 and the rook on a8; the rook falls next move.
        let t = themes_of(
            "r3k3/pp3ppp/8/1N6/8/8/PPP2PPP/4K3 b - - 0 20",
            "h7h6 b5c7 e8d7 c7a8",
            Ending::Cp(500),
        );
        for name in ["fork", "short", "advantage", "endgame"] {
            assert!(has(&t, name), "{name} missing from {t:?}");
        }
        assert!(!has(&t, "pin") && !has(&t, "skewer"), "{t:?}");
    }

    #[test]
    fn a_hanging_queen_taken() {
        let t = themes_of(
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "d8h4 f3h4",
            Ending::Cp(900),
        );
        for name in ["hangingPiece", "crushing", "opening", "oneMove"] {
            assert!(has(&t, name), "{name} missing from {t:?}");
        }
        assert!(!has(&t, "sacrifice") && !has(&t, "fork"), "{t:?}");
    }

    #[test]
    fn a_skewer_of_king_and_rook() {
        // Be4+ hits the king on c6 with the rook on a8 behind it on the same diagonal.
        let t = themes_of(
            "r7/8/8/2k5/8/8/2B5/6K1 b - - 0 40",
            "c5c6 c2e4 c6d6 e4a8",
            Ending::Cp(700),
        );
        assert!(has(&t, "skewer"), "{t:?}");
        assert!(!has(&t, "pin") && !has(&t, "fork"), "{t:?}");
    }

    #[test]
    fn a_pin_on_the_file_and_the_pinned_knight_taken() {
        // Re1 pins the knight on e5 to the king; the pawn on d4 takes it.
        let t = themes_of(
            "5k2/8/8/4n3/3P4/8/8/R5K1 b - - 0 30",
            "f8e8 a1e1 e8e7 d4e5",
            Ending::Cp(500),
        );
        assert!(has(&t, "pin"), "{t:?}");
        assert!(!has(&t, "skewer"), "{t:?}");
    }

    #[test]
    fn a_discovered_check_that_takes_the_queen() {
        // The knight takes on d5 and uncovers the rook's check on the e-file.
        let t = themes_of(
            "4k3/8/8/q7/8/4N3/8/4RK2 b - - 0 30",
            "a5d5 e3d5",
            Ending::Cp(900),
        );
        assert!(
            has(&t, "discoveredAttack") && has(&t, "hangingPiece"),
            "{t:?}"
        );
        // The same capture with nothing behind the knight uncovers nothing.
        let t = themes_of(
            "4k3/8/8/q7/8/4N3/8/5K2 b - - 0 30",
            "a5d5 e3d5",
            Ending::Cp(900),
        );
        assert!(!has(&t, "discoveredAttack"), "{t:?}");
    }

    #[test]
    fn a_sacrifice_is_material_given_for_the_attack() {
        // Rxh7 takes a pawn, the king takes the rook, and the queen checks on h5.
        let t = themes_of(
            "r5k1/5ppp/8/8/8/7R/5PPP/3Q2K1 b - - 0 20",
            "a8a7 h3h7 g8h7 d1h5",
            Ending::Cp(300),
        );
        assert!(has(&t, "sacrifice") && has(&t, "short"), "{t:?}");
    }
}
