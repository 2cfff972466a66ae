//! A small network for E, learned where `full` is written by hand: 768 inputs (a piece
//! of a kind and side on a square, seen from each side) into one hidden layer of
//! `hidden` clipped-linear units per side, the side to move's half first, then one output
//! (or one of a few, chosen by how many pieces are on the board: output buckets).
//! Optionally the inputs are bucketed by where each side's own king stands, and a king on
//! the e- to h-files sees the board mirrored ([`KingLayout`]).
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
/// With input buckets by the kings' squares (and the mirror): [`Network::to_bytes`].
const MAGIC_KINGS: &[u8; 8] = b"OX88NET5";

/// What a hidden unit passes on of its sum `x`: `clamp(x, 0, 1)`, or its square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Activation {
    #[default]
    Crelu,
    Screlu,
}

/// Where each side's king stands picks the copy of the first layer its view's inputs go
/// to (input buckets), and with `mirror` a king on the e- to h-files sees the board
/// mirrored (a-file for h-file), so that every bucket is a king on the a- to d-files.
/// One bucket and no mirror is the plain network of 768 inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KingLayout {
    /// The bucket of a king on each square, from its own side's view (rank 1 its back
    /// rank). With the mirror a king on the e- to h-files reads its own square's entry too;
    /// [`KingLayout::standard`] gives a square and its mirror image the same bucket.
    pub map: [u8; 64],
    pub mirror: bool,
}

impl Default for KingLayout {
    fn default() -> Self {
        KingLayout::none()
    }
}

/// One side's view of the inputs: the offset of its bucket's inputs and what its squares
/// are XORed with (56 for Black's view, 7 more when mirrored).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct View {
    base: usize,
    flip: usize,
}

impl View {
    /// The input bucket this view reads.
    pub fn bucket(&self) -> usize {
        self.base / INPUTS
    }

    /// Is the board seen mirrored (a-file for h-file)?
    pub fn is_mirrored(&self) -> bool {
        self.flip & 7 != 0
    }
}

impl KingLayout {
    /// One bucket, no mirror: 768 inputs.
    pub const fn none() -> KingLayout {
        KingLayout {
            map: [0; 64],
            mirror: false,
        }
    }

    /// A king-bucket layout with the mirror, of `n` buckets (2, 4 or 8); `None` for other
    /// counts. From the king's own side, after the mirror (files a–d):
    /// - 2: the back rank; any other rank.
    /// - 4: back rank a–c (castled); back rank d (the king's own file or next to it, the
    ///   centre); the second rank; further up.
    /// - 8: back rank a–b, c, d; second rank a–b, c–d; third rank; fourth; fifth to eighth.
    pub fn standard(n: usize) -> Option<KingLayout> {
        let bucket: fn(usize, usize) -> u8 = match n {
            2 => |rank, _| u8::from(rank > 0),
            4 => |rank, file| match (rank, file) {
                (0, 0..=2) => 0,
                (0, _) => 1,
                (1, _) => 2,
                _ => 3,
            },
            8 => |rank, file| match (rank, file) {
                (0, 0..=1) => 0,
                (0, 2) => 1,
                (0, _) => 2,
                (1, 0..=1) => 3,
                (1, _) => 4,
                (2, _) => 5,
                (3, _) => 6,
                _ => 7,
            },
            _ => return None,
        };
        let mut map = [0u8; 64];
        for (sq, b) in map.iter_mut().enumerate() {
            let file = sq % 8;
            *b = bucket(sq / 8, file.min(7 - file));
        }
        Some(KingLayout { map, mirror: true })
    }

    /// How many input buckets: one more than the largest in the map.
    pub fn buckets(&self) -> usize {
        usize::from(self.map.iter().copied().max().unwrap_or(0)) + 1
    }

    /// The first layer's inputs: 768 per bucket.
    pub fn inputs(&self) -> usize {
        self.buckets() * INPUTS
    }

    /// `persp`'s view with its king on `king` (a square 0..64, a1 = 0).
    #[inline]
    pub fn view(&self, persp: Color, king: usize) -> View {
        let mut flip = if persp == Color::White { 0 } else { 56 };
        let own = king ^ flip;
        if self.mirror && own % 8 >= 4 {
            flip ^= 7;
        }
        View {
            base: usize::from(self.map[own]) * INPUTS,
            flip,
        }
    }

    /// Does this layout reduce to the plain 768 inputs?
    pub fn is_none(&self) -> bool {
        !self.mirror && self.buckets() == 1
    }
}

/// The input a piece makes for a perspective seen through its view: own pieces first, then
/// the other side's, within the view's bucket, with the squares flipped so that each side
/// sees itself moving up the board (and mirrored where the view says).
#[inline]
pub fn feature_in(view: View, persp: Color, color: Color, kind: usize, sq64: usize) -> usize {
    let other = usize::from(color != persp);
    view.base + (other * 6 + kind) * 64 + (sq64 ^ view.flip)
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
    /// Input buckets by the kings' squares, and the mirror.
    pub kings: KingLayout,
    /// `kings.inputs() × hidden`, row by input.
    pub ft_w: Vec<i16>,
    pub ft_b: Vec<i16>,
    /// `buckets × 2 × hidden`: per bucket, the side to move's half, then the other's.
    pub out_w: Vec<i16>,
    /// One per bucket.
    pub out_b: Vec<i32>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum NetError {
    #[error("not an ox88 network file (it does not start with OX88NET1 to OX88NET5)")]
    Magic,
    #[error("the king-bucket map names bucket {0}; a map has at most 32 buckets")]
    KingMap(u8),
    #[error("unknown flags {0:#x} in the network file's header")]
    Flags(u32),
    #[error("an OX88NET5 file with one king bucket and no mirror (that is an OX88NET1 to 4)")]
    NoKings,
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
    /// The bytes a network of `hidden` units, `buckets` outputs and `kings` input buckets
    /// takes. The first four kinds: magic, `hidden` (u32), with output buckets their number
    /// (u32), then the first layer's weights and biases, the output weights (all i16) and
    /// the output biases (i32), little-endian; a network of one bucket is written as the
    /// files before buckets were (no count). With king buckets or the mirror (OX88NET5):
    /// magic, `hidden`, the output buckets, flags (1: squared activation, 2: mirror), the
    /// 64 bytes of the king map, then the weights as before.
    pub fn byte_len(hidden: usize, buckets: usize) -> usize {
        Network::byte_len_with(hidden, buckets, &KingLayout::none())
    }

    pub fn byte_len_with(hidden: usize, buckets: usize, kings: &KingLayout) -> usize {
        let header = if !kings.is_none() {
            8 + 4 + 4 + 4 + 64
        } else if buckets > 1 {
            8 + 4 + 4
        } else {
            8 + 4
        };
        header + 2 * (kings.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let magic = bytes.get(..8).ok_or(NetError::Magic)?;
        let known = [
            MAGIC_CRELU,
            MAGIC_SCRELU,
            MAGIC_CRELU_BUCKETS,
            MAGIC_SCRELU_BUCKETS,
            MAGIC_KINGS,
        ];
        if !known.iter().any(|m| magic == *m) {
            return Err(NetError::Magic);
        }
        let h = word(8).ok_or(NetError::Magic)?;
        if !(1..=4096).contains(&h) {
            return Err(NetError::Hidden(h));
        }
        let hidden = h as usize;
        let output_buckets = |b: u32, least: u32| {
            if (least..=MAX_BUCKETS as u32).contains(&b) {
                Ok(b as usize)
            } else {
                Err(NetError::Buckets(b))
            }
        };
        let (activation, buckets, kings, mut at) = if magic == MAGIC_KINGS {
            let buckets = output_buckets(word(12).ok_or(NetError::Magic)?, 1)?;
            let flags = word(16).ok_or(NetError::Magic)?;
            if flags & !3 != 0 {
                return Err(NetError::Flags(flags));
            }
            let activation = if flags & 1 != 0 {
                Activation::Screlu
            } else {
                Activation::Crelu
            };
            let raw = bytes.get(20..84).ok_or(NetError::Magic)?;
            let mut map = [0u8; 64];
            map.copy_from_slice(raw);
            if let Some(&b) = map.iter().find(|&&b| usize::from(b) >= MAX_BUCKETS) {
                return Err(NetError::KingMap(b));
            }
            let kings = KingLayout {
                map,
                mirror: flags & 2 != 0,
            };
            if kings.is_none() {
                // Such a network is written as the plain kinds (OX88NET1 to 4).
                return Err(NetError::NoKings);
            }
            (activation, buckets, kings, 84)
        } else {
            let (activation, bucketed) = match magic {
                m if m == MAGIC_CRELU => (Activation::Crelu, false),
                m if m == MAGIC_SCRELU => (Activation::Screlu, false),
                m if m == MAGIC_CRELU_BUCKETS => (Activation::Crelu, true),
                m if m == MAGIC_SCRELU_BUCKETS => (Activation::Screlu, true),
                _ => return Err(NetError::Magic),
            };
            if bucketed {
                let b = output_buckets(word(12).ok_or(NetError::Magic)?, 2)?;
                (activation, b, KingLayout::none(), 16)
            } else {
                (activation, 1, KingLayout::none(), 12)
            }
        };
        let want = Network::byte_len_with(hidden, buckets, &kings);
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
        let ft_w = words(kings.inputs() * hidden);
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
            kings,
            ft_w,
            ft_b,
            out_w,
            out_b,
        })
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(Network::byte_len_with(
            self.hidden,
            self.buckets,
            &self.kings,
        ));
        if self.kings.is_none() {
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
        } else {
            out.extend_from_slice(MAGIC_KINGS);
            out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
            let flags = u32::from(self.activation == Activation::Screlu)
                | (u32::from(self.kings.mirror) << 1);
            out.extend_from_slice(&flags.to_le_bytes());
            out.extend_from_slice(&self.kings.map);
        }
        for w in self.ft_w.iter().chain(&self.ft_b).chain(&self.out_w) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &self.out_b {
            out.extend_from_slice(&b.to_le_bytes());
        }
        out
    }

    /// Each side's view of `board`: White's, Black's.
    #[inline]
    fn views(&self, board: &Board) -> [View; 2] {
        Color::BOTH.map(|c| self.kings.view(c, board.king_square(c).index64()))
    }

    /// The first layer's sums for a position from scratch: White's perspective in the
    /// first `hidden` values, Black's in the next.
    pub fn refresh(&self, board: &Board, acc: &mut [i16]) {
        let h = self.hidden;
        let views = self.views(board);
        let (white, black) = acc.split_at_mut(h);
        for (half, (persp, view)) in [white, &mut black[..h]]
            .into_iter()
            .zip(Color::BOTH.into_iter().zip(views))
        {
            self.refresh_half(board, half, persp, view);
        }
    }

    /// One perspective's sums from scratch.
    fn refresh_half(&self, board: &Board, half: &mut [i16], persp: Color, view: View) {
        half.copy_from_slice(&self.ft_b);
        for color in Color::BOTH {
            for &x in board.piece_squares(color) {
                let Some(kind) = PieceKind::index_of_code(board.code_at(x)) else {
                    continue;
                };
                let sq = Square::from_0x88(x).map_or(0, Square::index64);
                let f = feature_in(view, persp, color, kind, sq);
                for (v, w) in half.iter_mut().zip(&self.ft_w[f * self.hidden..]) {
                    *v = v.wrapping_add(*w);
                }
            }
        }
    }

    /// Follows one piece put on (`on`) or taken off, in one perspective's sums seen through
    /// `view`.
    #[inline]
    fn apply_half(&self, half: &mut [i16], persp: Color, view: View, c: PieceChange, on: bool) {
        let h = self.hidden;
        let f = feature_in(view, persp, c.color, c.kind.index(), c.square.index64());
        let row = &self.ft_w[f * h..(f + 1) * h];
        if on {
            for (v, w) in half.iter_mut().zip(row) {
                *v = v.wrapping_add(*w);
            }
        } else {
            for (v, w) in half.iter_mut().zip(row) {
                *v = v.wrapping_sub(*w);
            }
        }
    }

    /// Follows one change in both perspectives' sums: forward as the move made it, or back.
    #[inline]
    fn apply_both(&self, acc: &mut [i16], views: [View; 2], c: PieceChange, forward: bool) {
        let h = self.hidden;
        let (white, black) = acc.split_at_mut(h);
        let on = c.added == forward;
        self.apply_half(white, Color::White, views[0], c, on);
        self.apply_half(black, Color::Black, views[1], c, on);
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

    /// The position's E in centipawns from White's view whoever is to move: the mean of the
    /// network's output with White to move and (negated) with Black to move, from the same
    /// first-layer sums. The network scores the side to move higher than the same position
    /// with the other side to move, by about a pawn on average over quiet opening positions
    /// and by nearly three in some (it learned search scores of positions seen with one side
    /// to move); the mean takes that bonus out, so a person reading E sees the position, not
    /// whose turn it is. Swapping the colours negates it exactly (the
    /// division truncates towards zero).
    pub fn evaluate_even(&self, board: &Board) -> i32 {
        let mut acc = vec![0i16; 2 * self.hidden];
        self.refresh(board, &mut acc);
        let n = pieces(board);
        (self.output(&acc, Color::White, n) - self.output(&acc, Color::Black, n)) / 2
    }

    /// Exactly [`Network::evaluate`], but the first layer's sums are kept in `stack` by the
    /// board's ply count and carried over from the position a few moves back when that one
    /// was evaluated (a move changes two to four inputs, not thirty).
    ///
    /// With `even` the value is [`Network::evaluate_even`]'s from the side to move's view:
    /// the mean of both sides' outputs, without the bonus for having the move.
    pub fn evaluate_incremental(&self, board: &Board, stack: &mut NetStack, even: bool) -> i32 {
        let h = self.hidden;
        let h2 = 2 * h;
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
                views: [View::default(); 2],
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
            let views = self.views(board);
            // The last `k` moves left each side's view as it is: with one view (no king
            // buckets, no mirror), or when no king moved.
            let same_views = |k: usize| {
                self.kings.is_none()
                    || (0..k).all(|j| {
                        board
                            .move_changes(j)
                            .is_some_and(|(_, ch)| ch.iter().all(|c| c.kind != PieceKind::King))
                    })
            };
            match from {
                Some(k) if stack.entries[n - k].views == views && same_views(k) => {
                    // Each position between keeps its sums too, so that the next position
                    // searched from one of them (a sibling) is one move away.
                    for step in (0..k).rev() {
                        let (_, changes) = board.move_changes(step).unwrap_or_default();
                        let dst = n - step;
                        let (below, above) = stack.entries.split_at_mut(dst);
                        let e = &mut above[0];
                        e.acc.copy_from_slice(&below[dst - 1].acc);
                        for c in changes.iter() {
                            self.apply_both(&mut e.acc, views, c, true);
                        }
                        e.key = match step {
                            0 => key,
                            _ => board.move_changes(step - 1).map_or(0, |(hash, _)| hash),
                        };
                        e.views = views;
                        e.valid = true;
                    }
                }
                _ => {
                    let (below, above) = stack.entries.split_at_mut(n);
                    let target = &mut above[0];
                    let (white, black) = target.acc.split_at_mut(h);
                    for (i, (half, persp)) in
                        [white, black].into_iter().zip(Color::BOTH).enumerate()
                    {
                        let view = views[i];
                        // A perspective whose king changed bucket or side since the sums
                        // were kept starts from scratch; the other follows the changes.
                        match from.filter(|&k| below[n - k].views[i] == view) {
                            Some(k) => {
                                half.copy_from_slice(&below[n - k].acc[i * h..(i + 1) * h]);
                                for j in 0..k {
                                    if let Some((_, changes)) = board.move_changes(j) {
                                        for c in changes.iter() {
                                            self.apply_half(half, persp, view, c, c.added);
                                        }
                                    }
                                }
                            }
                            None => self.refresh_half(board, half, persp, view),
                        }
                    }
                    target.views = views;
                    target.key = key;
                    target.valid = true;
                    // Computed from scratch: the position before the last move is one move
                    // back from it, so its sums are kept too (its other moves, searched
                    // next, then start from them rather than from scratch again).
                    if from.is_none()
                        && n > 0
                        && same_views(1)
                        && let Some((hash, changes)) = board.move_changes(0)
                    {
                        let parent = &mut below[n - 1];
                        parent.acc.copy_from_slice(&above[0].acc);
                        for c in changes.iter() {
                            self.apply_both(&mut parent.acc, views, c, false);
                        }
                        parent.key = hash;
                        parent.views = views;
                        parent.valid = true;
                    }
                }
            }
        }
        let acc = &stack.entries[n].acc;
        let (stm, n) = (board.side_to_move(), pieces(board));
        if even {
            (self.output(acc, stm, n) - self.output(acc, stm.flip(), n)) / 2
        } else {
            self.output(acc, stm, n)
        }
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
    /// The views the sums were made in.
    views: [View; 2],
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
