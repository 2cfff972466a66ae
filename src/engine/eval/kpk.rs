//! King and pawn against king, known exactly: a table of every position, won or drawn,
//! solved from the rules by retrograde analysis the first time it is asked for.
//!
//! The pawn's side is called White here and the pawn kept on files a–d (the board is turned
//! round and mirrored into that frame by the caller and by [`won`]). A position is won when
//! White can force a promotion to a queen or rook that Black can neither take nor answer
//! with stalemate; from there the ending with a queen or rook is a win. Starting from those
//! promotions (and the rare mate with the pawn), a position with White to move is won when
//! some move reaches a won position, one with Black to move when every Black move does;
//! working backwards until nothing more is won leaves every other position drawn.

use std::sync::OnceLock;

/// Pawn squares in the table: files a–d, ranks 2–7.
const PAWN_SQUARES: usize = 24;
/// Side to move × pawn × White king × Black king.
const SIZE: usize = 2 * PAWN_SQUARES * 64 * 64;

/// Squares are 0..64, a1 = 0, h8 = 63.
fn file(s: usize) -> i32 {
    (s % 8) as i32
}

fn rank(s: usize) -> i32 {
    (s / 8) as i32
}

/// Within one king step of each other (or the same square).
fn touching(a: usize, b: usize) -> bool {
    (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1
}

/// Whether a White pawn on `p` attacks `t`.
fn pawn_attacks(p: usize, t: usize) -> bool {
    rank(t) == rank(p) + 1 && (file(t) - file(p)).abs() == 1
}

/// For each square, the squares a king there steps to (the first `count` of eight).
struct Steps {
    to: [[u8; 8]; 64],
    count: [u8; 64],
}

const STEPS: Steps = {
    let mut to = [[0u8; 8]; 64];
    let mut count = [0u8; 64];
    let mut s = 0;
    while s < 64 {
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        let mut d = 0;
        while d < 9 {
            let (tf, tr) = (f + d % 3 - 1, r + d / 3 - 1);
            if d != 4 && tf >= 0 && tf < 8 && tr >= 0 && tr < 8 {
                to[s][count[s] as usize] = (tr * 8 + tf) as u8;
                count[s] += 1;
            }
            d += 1;
        }
        s += 1;
    }
    Steps { to, count }
};

/// The squares a king on `s` steps to.
fn king_steps(s: usize) -> impl Iterator<Item = usize> {
    STEPS.to[s][..STEPS.count[s] as usize]
        .iter()
        .map(|&t| t as usize)
}

/// Whether a White queen (`diagonal`) or rook on `x` attacks `t`, the White king on `block`
/// the only piece that can stand in the way (the Black king moving along the line does
/// not shield the squares behind it).
fn slider_attacks(x: usize, t: usize, block: usize, diagonal: bool) -> bool {
    let (df, dr) = (file(t) - file(x), rank(t) - rank(x));
    let straight = (df == 0) != (dr == 0);
    let slanted = df != 0 && df.abs() == dr.abs();
    if !(straight || (diagonal && slanted)) {
        return false;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let (mut f, mut r) = (file(x) + sf, rank(x) + sr);
    while (f, r) != (file(t), rank(t)) {
        if (r * 8 + f) as usize == block {
            return false;
        }
        f += sf;
        r += sr;
    }
    true
}

/// Whether a new queen (`diagonal`) or rook on `q` leaves Black, to move, without a move and
/// not in check. Black can never take it here (the caller checks that).
fn stalemates(wk: usize, q: usize, bk: usize, diagonal: bool) -> bool {
    !slider_attacks(q, bk, wk, diagonal)
        && king_steps(bk).all(|t| t == q || touching(t, wk) || slider_attacks(q, t, wk, diagonal))
}

/// Whether White, to move with the pawn on the seventh rank, wins by promoting it.
fn promotion_wins(wk: usize, p: usize, bk: usize) -> bool {
    let q = p + 8;
    if q == wk || q == bk || (touching(bk, q) && !touching(wk, q)) {
        return false;
    }
    !stalemates(wk, q, bk, true) || !stalemates(wk, q, bk, false)
}

fn index(white_to_move: bool, p: usize, wk: usize, bk: usize) -> usize {
    let pi = (rank(p) as usize - 1) * 4 + file(p) as usize;
    ((usize::from(!white_to_move) * PAWN_SQUARES + pi) * 64 + wk) * 64 + bk
}

/// The entry a position starts the analysis with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Not (yet) known to be won.
    Open,
    Won,
    /// Drawn for good (Black takes the pawn, stalemate) or not a position at all.
    Settled,
}

/// Every position's entry, one bit each: won for the pawn's side or not.
pub struct Kpk {
    won: Vec<u64>,
}

impl Kpk {
    /// Solves the ending (a few milliseconds). Backwards from the won positions: a position
    /// with Black to move counts its moves not yet known to lose, and is won when none is
    /// left; a position with White to move is won as soon as one of its moves reaches a
    /// won position. Each position is taken from the queue once.
    pub fn build() -> Kpk {
        let mut state = vec![State::Settled; SIZE];
        // Black to move: the moves not yet known to reach a won position.
        let mut left = vec![0u8; SIZE];
        let mut queue = Vec::new();
        for white_to_move in [true, false] {
            for p in (8..56).filter(|&s| file(s) < 4) {
                for wk in 0..64 {
                    for bk in 0..64 {
                        let i = index(white_to_move, p, wk, bk);
                        state[i] = first_state(white_to_move, p, wk, bk);
                        match state[i] {
                            State::Won => queue.push((white_to_move, p, wk, bk)),
                            State::Open if !white_to_move => {
                                left[i] = black_moves(p, wk, bk).count() as u8;
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        while let Some((white_to_move, p, wk, bk)) = queue.pop() {
            if white_to_move {
                // Black's king came from a neighbouring square.
                for from in king_steps(bk) {
                    let i = index(false, p, wk, from);
                    if state[i] == State::Open {
                        left[i] -= 1;
                        if left[i] == 0 {
                            state[i] = State::Won;
                            queue.push((false, p, wk, from));
                        }
                    }
                }
            } else {
                // White's king came from a neighbouring square, or the pawn from behind.
                let kings = king_steps(wk).map(|from| (p, from));
                let one = p.checked_sub(8).filter(|&q| q >= 8 && q != wk && q != bk);
                let two = one
                    .filter(|_| rank(p) == 3)
                    .map(|q| q - 8)
                    .filter(|&q| q != wk && q != bk);
                let pawns = one.into_iter().chain(two).map(|q| (q, wk));
                for (from_p, from_k) in kings.chain(pawns) {
                    let i = index(true, from_p, from_k, bk);
                    if state[i] == State::Open {
                        state[i] = State::Won;
                        queue.push((true, from_p, from_k, bk));
                    }
                }
            }
        }
        let mut won = vec![0u64; SIZE.div_ceil(64)];
        for (i, s) in state.iter().enumerate() {
            if *s == State::Won {
                won[i / 64] |= 1 << (i % 64);
            }
        }
        Kpk { won }
    }

    /// Whether the pawn's side wins. Squares 0..64 (a1 = 0) with the pawn's side as White:
    /// its king `wk`, its pawn `p` (ranks 2–7, any file), the other king `bk`. The position
    /// must be legal.
    pub fn won(&self, white_to_move: bool, wk: usize, p: usize, bk: usize) -> bool {
        let (wk, p, bk) = if file(p) >= 4 {
            (wk ^ 7, p ^ 7, bk ^ 7)
        } else {
            (wk, p, bk)
        };
        let i = index(white_to_move, p, wk, bk);
        self.won[i / 64] >> (i % 64) & 1 == 1
    }
}

/// What a position is before any move is looked at.
fn first_state(white_to_move: bool, p: usize, wk: usize, bk: usize) -> State {
    if wk == bk || wk == p || bk == p || touching(wk, bk) {
        return State::Settled;
    }
    if white_to_move {
        if pawn_attacks(p, bk) {
            // Black's king in check with White to move: not a position.
            return State::Settled;
        }
        if rank(p) == 6 && promotion_wins(wk, p, bk) {
            return State::Won;
        }
        return State::Open;
    }
    if touching(bk, p) && !touching(wk, p) {
        // Black takes the pawn.
        return State::Settled;
    }
    if black_moves(p, wk, bk).next().is_none() {
        return if pawn_attacks(p, bk) {
            State::Won
        } else {
            State::Settled
        };
    }
    State::Open
}

/// Black's king moves that do not take the pawn (when it can take the pawn safely the
/// position is drawn before any of these is looked at).
fn black_moves(p: usize, wk: usize, bk: usize) -> impl Iterator<Item = usize> {
    king_steps(bk).filter(move |&t| t != p && !touching(t, wk) && !pawn_attacks(p, t))
}

/// The table, solved on first use.
pub fn table() -> &'static Kpk {
    static TABLE: OnceLock<Kpk> = OnceLock::new();
    TABLE.get_or_init(Kpk::build)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        let b = name.as_bytes();
        (b[1] - b'1') as usize * 8 + (b[0] - b'a') as usize
    }

    #[test]
    fn textbook_positions() {
        let t = table();
        // King on the sixth in front of its pawn: won whoever moves.
        assert!(t.won(true, sq("e6"), sq("e5"), sq("e8")));
        assert!(t.won(false, sq("e6"), sq("e5"), sq("e8")));
        // The defender's king in front of the pawn, White's behind it: drawn.
        assert!(!t.won(true, sq("e1"), sq("e2"), sq("e4")));
        assert!(!t.won(false, sq("e1"), sq("e2"), sq("e4")));
        // A rook pawn with the defender in the corner: drawn.
        assert!(!t.won(true, sq("b6"), sq("a6"), sq("a8")));
        // A pawn the defender cannot catch: won.
        assert!(t.won(true, sq("h1"), sq("a5"), sq("h8")));
        // Mirrored files give the same answer.
        assert_eq!(
            t.won(true, sq("d6"), sq("d5"), sq("d8")),
            t.won(true, sq("e6"), sq("e5"), sq("e8"))
        );
    }
}
