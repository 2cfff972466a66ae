//! A small network for E (issue 15: "an evaluation of another kind"): 768 inputs (a piece
//! of a kind and side on a square, seen from each side) into one hidden layer of
//! `hidden` clipped-linear units per side, the side to move's half first, then one output
//! (or one of a few, chosen by how many pieces are on the board: output buckets).
//!
//! The weights are integers (the first layer scaled by [`QA`], the output by [`QB`]), so the
//! value of a position is exact and the same however it is reached. The weights are trained
//! by `ox88 nn-train` ([`crate::tune::nn`]) on positions scored by a stronger engine; the file
//! format is [`Network::from_bytes`]'s.

use crate::chess::board::{Board, PieceChange};
use crate::chess::types::{Color, PieceKind, Square};

/// The network ox88 plays with in the `net` mode (see docs/strength.md for how it was made).
static EMBEDDED: &[u8] = include_bytes!("ox88.nnue");

/// The `net` mode's network: the embedded one, or the file `OX88_EVALFILE` names (for
/// measuring a newly trained network in games; a file that does not load is reported once
/// on standard error and the embedded network is used).
pub fn network() -> &'static Network {
    static NET: std::sync::LazyLock<Network> = std::sync::LazyLock::new(|| {
        if let Some(path) = std::env::var_os("OX88_EVALFILE") {
            let loaded = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|b| Network::from_bytes(&b).map_err(|e| e.to_string()));
            match loaded {
                Ok(n) => return n,
                Err(e) => eprintln!(
                    "OX88_EVALFILE {}: {e}; using the built-in network",
                    std::path::Path::new(&path).display()
                ),
            }
        }
        Network::from_bytes(EMBEDDED).expect("the embedded network is checked by a test")
    });
    &NET
}

/// Inputs: (own or other side) × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The first layer's scale: a weight of 1.0 is stored as 255.
pub const QA: i32 = 255;
/// The output layer's scale.
pub const QB: i32 = 64;
/// The output in centipawns for a raw output of 1.0 (the logistic scale of the labels).
pub const SCALE: i32 = 400;
/// |E| is held below this, far from the search's mate scores, whatever the weights.
const LIMIT: i64 = 10_000;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 32;

/// The file's first eight bytes: a clipped-linear hidden layer, or a squared one; with one
/// output, or (the second pair) with output buckets.
const MAGIC_CRELU: &[u8; 8] = b"OX88NET1";
const MAGIC_SCRELU: &[u8; 8] = b"OX88NET2";
const MAGIC_CRELU_BUCKETS: &[u8; 8] = b"OX88NET3";
const MAGIC_SCRELU_BUCKETS: &[u8; 8] = b"OX88NET4";

/// What a hidden unit passes on of its sum `x`: `clamp(x, 0, 1)`, or its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Activation {
    #[default]
    Crelu,
    Screlu,
}

/// The input a piece makes for a perspective: own pieces first, and Black's view flipped so
/// that each side sees itself moving up the board.
#[inline]
pub fn feature(persp: Color, color: Color, kind: usize, sq64: usize) -> usize {
    let other = usize::from(color != persp);
    let sq = if persp == Color::White {
        sq64
    } else {
        sq64 ^ 56
    };
    (other * 6 + kind) * 64 + sq
}

/// The output bucket of a position with `pieces` pieces (kings included) among `buckets`:
/// equal shares of 2..=32 pieces, the fewest first.
#[inline]
pub fn bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.saturating_sub(2) * buckets / 31).min(buckets - 1)
}

/// A network's integer weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    pub activation: Activation,
    pub hidden: usize,
    /// Output buckets: one output layer per share of the material on the board.
    pub buckets: usize,
    /// `INPUTS × hidden`, row by input.
    pub ft_w: Vec<i16>,
    pub ft_b: Vec<i16>,
    /// `buckets × 2 × hidden`: per bucket, the side to move's half, then the other's.
    pub out_w: Vec<i16>,
    /// One per bucket.
    pub out_b: Vec<i32>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not an ox88 network file (it does not start with OX88NET1 to OX88NET4)")]
    Magic,
    #[error("the hidden layer size {0} is not between 1 and 4096")]
    Hidden(u32),
    #[error("the number of output buckets {0} is not between 1 and 32")]
    Buckets(u32),
    #[error(
        "the file holds {got} bytes; a network of {hidden} hidden units and {buckets} output \
         buckets needs {want}"
    )]
    Length {
        hidden: usize,
        buckets: usize,
        got: usize,
        want: usize,
    },
}

impl Network {
    /// The bytes a network of `hidden` units and `buckets` outputs takes: magic, `hidden`
    /// (u32), with buckets their number (u32), then the first layer's weights and biases,
    /// the output weights (all i16) and the output biases (i32), little-endian. A network
    /// of one bucket is written as the files before buckets were (no count).
    pub fn byte_len(hidden: usize, buckets: usize) -> usize {
        let count = if buckets > 1 { 4 } else { 0 };
        8 + 4 + count + 2 * (INPUTS * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let (activation, bucketed) = match bytes.get(..8) {
            Some(m) if m == MAGIC_CRELU => (Activation::Crelu, false),
            Some(m) if m == MAGIC_SCRELU => (Activation::Screlu, false),
            Some(m) if m == MAGIC_CRELU_BUCKETS => (Activation::Crelu, true),
            Some(m) if m == MAGIC_SCRELU_BUCKETS => (Activation::Screlu, true),
            _ => return Err(NetError::Magic),
        };
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let h = word(8).ok_or(NetError::Magic)?;
        if !(1..=4096).contains(&h) {
            return Err(NetError::Hidden(h));
        }
        let hidden = h as usize;
        let (buckets, mut at) = if bucketed {
            let b = word(12).ok_or(NetError::Magic)?;
            if !(2..=MAX_BUCKETS as u32).contains(&b) {
                return Err(NetError::Buckets(b));
            }
            (b as usize, 16)
        } else {
            (1, 12)
        };
        let want = Network::byte_len(hidden, buckets);
        if bytes.len() != want {
            return Err(NetError::Length {
                hidden,
                buckets,
                got: bytes.len(),
                want,
            });
        }
        let mut words = |n: usize| {
            let v: Vec<i16> = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_w = words(INPUTS * hidden);
        let ft_b = words(hidden);
        let out_w = words(buckets * 2 * hidden);
        let out_b = bytes[at..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network {
            activation,
            hidden,
            buckets,
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::byte_len(self.hidden, self.buckets));
        let bucketed = self.buckets > 1;
        out.extend_from_slice(match (self.activation, bucketed) {
            (Activation::Crelu, false) => MAGIC_CRELU,
            (Activation::Screlu, false) => MAGIC_SCRELU,
            (Activation::Crelu, true) => MAGIC_CRELU_BUCKETS,
            (Activation::Screlu, true) => MAGIC_SCRELU_BUCKETS,
        });
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        if bucketed {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
        }
        for w in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_b {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// The first layer's sums for a position from scratch: White's perspective in the
    /// first `hidden` values, Black's in the next.
    pub fn refresh(&self, board: &Board, acc: &mut [i16]) {
        let h = self.hidden;
        acc[..h].copy_from_slice(&self.ft_b);
        acc[h..2 * h].copy_from_slice(&self.ft_b);
        for color in Color::BOTH {
            for &x in board.piece_squares(color) {
                let Some(kind) = PieceKind::index_of_code(board.code_at(x)) else {
                    continue;
                };
                let sq = Square::from_0x88(x).map_or(0, Square::index64);
                self.add(acc, color, kind, sq, true);
            }
        }
    }

    /// Follows one piece put on or taken off.
    #[inline]
    pub fn apply(&self, acc: &mut [i16], c: PieceChange) {
        self.add(acc, c.color, c.kind.index(), c.square.index64(), c.added);
    }

    #[inline]
    fn add(&self, acc: &mut [i16], color: Color, kind: usize, sq: usize, on: bool) {
        let h = self.hidden;
        let (white, black) = acc.split_at_mut(h);
        for (a, persp) in [white, &mut black[..h]].into_iter().zip(Color::BOTH) {
            let f = feature(persp, color, kind, sq);
            let row = &self.ft_w[f * h..(f + 1) * h];
            if on {
                for (v, w) in a.iter_mut().zip(row) {
                    *v = v.wrapping_add(*w);
                }
            } else {
                for (v, w) in a.iter_mut().zip(row) {
                    *v = v.wrapping_sub(*w);
                }
            }
        }
    }

    /// E in centipawns from `stm`'s view, from the first layer's sums, with `pieces` pieces
    /// on the board (kings included; it picks the output bucket).
    pub fn output(&self, acc: &[i16], stm: Color, pieces: usize) -> i32 {
        let h = self.hidden;
        let (white, black) = acc.split_at(h);
        let halves = match stm {
            Color::White => [white, &black[..h]],
            Color::Black => [&black[..h], white],
        };
        let b = bucket(pieces, self.buckets);
        let out_w = &self.out_w[b * 2 * h..(b + 1) * 2 * h];
        let mut sum = i64::from(self.out_b[b]);
        for (half, a) in halves.into_iter().enumerate() {
            let w = &out_w[half * h..(half + 1) * h];
            sum += match self.activation {
                // Summed in 32 bits 128 units at a time (at most 128 · 255 · 32767, which
                // fits whatever the weights of a loaded file), then in 64.
                Activation::Crelu => a
                    .chunks(128)
                    .zip(w.chunks(128))
                    .map(|(a, w)| {
                        i64::from(
                            a.iter()
                                .zip(w)
                                .map(|(&v, &w)| i32::from(v.clamp(0, QA as i16)) * i32::from(w))
                                .sum::<i32>(),
                        )
                    })
                    .sum::<i64>(),
                // c·w·c fits in 32 bits for any 16-bit weight (255 · 255 · 32767); the sum
                // is divided by QA to come back to the clipped-linear scale.
                Activation::Screlu => {
                    a.iter()
                        .zip(w)
                        .map(|(&v, &w)| {
                            let c = i32::from(v.clamp(0, QA as i16));
                            i64::from(c * i32::from(w) * c)
                        })
                        .sum::<i64>()
                        / i64::from(QA)
                }
            };
        }
        (sum * i64::from(SCALE) / i64::from(QA * QB)).clamp(-LIMIT, LIMIT) as i32
    }

    /// E in centipawns from the side to move's view, computed from scratch.
    pub fn evaluate(&self, board: &Board) -> i32 {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh(board, &mut acc);
        self.output(&acc, board.side_to_move(), pieces(board))
    }

    /// Exactly [`Network::evaluate`], but the first layer's sums are kept in `stack` by the
    /// board's ply count and carried over from the position a few moves back when that one
    /// was evaluated (a move changes two to four inputs, not thirty).
    pub fn evaluate_incremental(&self, board: &Board, stack: &mut NetStack) -> i32 {
        let h2 = 2 * self.hidden;
        let n = board.ply_count();
        let key = board.hash();
        if stack.width != h2 {
            stack.entries.clear();
            stack.width = h2;
        }
        while stack.entries.len() <= n {
            stack.entries.push(Entry {
                key: 0,
                valid: false,
                acc: vec![0; h2],
            });
        }
        if !(stack.entries[n].valid && stack.entries[n].key == key) {
            let mut from = None;
            for k in 1..=n.min(MAX_BACK) {
                let Some((hash, _)) = board.move_changes(k - 1) else {
                    break;
                };
                let e = &stack.entries[n - k];
                if e.valid && e.key == hash {
                    from = Some(k);
                    break;
                }
            }
            let (below, above) = stack.entries.split_at_mut(n);
            let target = &mut above[0];
            match from {
                Some(k) => {
                    target.acc.copy_from_slice(&below[n - k].acc);
                    for j in 0..k {
                        if let Some((_, changes)) = board.move_changes(j) {
                            for c in changes.iter() {
                                self.apply(&mut target.acc, c);
                            }
                        }
                    }
                }
                None => self.refresh(board, &mut target.acc),
            }
            target.key = key;
            target.valid = true;
        }
        self.output(&stack.entries[n].acc, board.side_to_move(), pieces(board))
    }
}

/// The pieces on the board, kings included.
#[inline]
fn pieces(board: &Board) -> usize {
    Color::BOTH
        .iter()
        .map(|&c| board.piece_squares(c).len())
        .sum()
}

/// How many moves back [`Network::evaluate_incremental`] looks for sums to start from.
const MAX_BACK: usize = 8;

struct Entry {
    key: u64,
    valid: bool,
    acc: Vec<i16>,
}

/// The first layer's sums of the positions on the way to the current one, for
/// [`Network::evaluate_incremental`]; one per searcher.
#[derive(Default)]
pub struct NetStack {
    width: usize,
    entries: Vec<Entry>,
}

impl NetStack {
    /// Forgets every sum (a new network, or a new game).
    pub fn clear(&mut self) {
        for e in &mut self.entries {
            e.valid = false;
        }
    }
}
