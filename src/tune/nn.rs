//! Training the network of [`crate::engine::eval::net`]: positions scored by a
//! stronger engine (`FEN;cp`, the score from the side to move's view, as
//! `scripts/nn_data.py` writes them), a logistic of the network's output fitted to a
//! logistic of the score by least squares, Adam, mini-batches, a fixed seed.
//!
//! Training is in floating point; [`FloatNet::quantise`] turns the result into the integer
//! network the engine reads.

use crate::chess::board::Board;
use crate::chess::types::Color;
use crate::engine::eval::net::{self, Activation, KingLayout, Network, QA, QB, SCALE};

/// One training position: its pieces as `color * 384 + kind * 64 + square`, the side to
/// move, and the target (a logistic of the label).
#[derive(Clone, Debug)]
pub struct Sample {
    pieces: [u16; 32],
    n: u8,
    stm: u8,
    /// The kings' squares (White's, Black's), for input buckets.
    kings: [u8; 2],
    pub target: f32,
    /// What the network adds to (raw units, side to move's view): 0, or the `full`
    /// evaluation times a factor when the network learns its residual.
    pub base: f32,
}

/// A line that is not `FEN;cp`.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {why}")]
pub struct DataError {
    pub line: usize,
    pub why: String,
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Sample {
    pub fn new(board: &Board, cp: i32) -> Option<Sample> {
        let mut pieces = [0u16; 32];
        let mut n = 0usize;
        let kings = Color::BOTH.map(|c| board.king_square(c).index64() as u8);
        for color in Color::BOTH {
            for (sq, piece) in board.pieces(color) {
                if n == 32 {
                    return None;
                }
                pieces[n] = (color.index() * 384 + piece.kind().index() * 64 + sq.index64()) as u16;
                n += 1;
            }
        }
        Some(Sample {
            pieces,
            n: n as u8,
            stm: board.side_to_move().index() as u8,
            kings,
            target: sigmoid(cp as f32 / SCALE as f32),
            base: 0.0,
        })
    }

    /// The pieces on the board, kings included (they choose the output bucket).
    pub fn pieces(&self) -> usize {
        self.n as usize
    }

    /// The inputs of each perspective (White's, Black's) under the king layout `kings`.
    fn features<'a>(&'a self, kings: &KingLayout) -> impl Iterator<Item = (usize, usize)> + 'a {
        let [vw, vb] =
            [Color::White, Color::Black].map(|c| kings.view(c, usize::from(self.kings[c.index()])));
        self.pieces[..self.n as usize].iter().map(move |&p| {
            let p = p as usize;
            let color = Color::from_index(p / 384);
            let (kind, sq) = ((p / 64) % 6, p % 64);
            (
                net::feature_in(vw, Color::White, color, kind, sq),
                net::feature_in(vb, Color::Black, color, kind, sq),
            )
        })
    }
}

/// Reads `FEN;cp` lines; blank lines and lines starting with `#` are skipped.
pub fn parse(text: &str, residual: Option<f32>) -> Result<Vec<Sample>, DataError> {
    // The residual is `full`'s, whichever mode is the default.
    let cfg = crate::engine::eval::EvalConfig {
        mode: crate::engine::eval::EvalMode::Full,
        ..Default::default()
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |why: String| DataError { line: i + 1, why };
        let (fen, cp) = line
            .rsplit_once(';')
            .ok_or_else(|| err("expected `FEN;score`".into()))?;
        let cp: i32 = cp.trim().parse().map_err(|_| {
            err(format!(
                "`{}` is not a whole number of centipawns",
                cp.trim()
            ))
        })?;
        let board = Board::from_fen(fen.trim()).map_err(|e| err(e.to_string()))?;
        let mut sample = Sample::new(&board, cp.clamp(-3000, 3000))
            .ok_or_else(|| err("more than 32 pieces".into()))?;
        if let Some(k) = residual {
            sample.base = crate::engine::eval::evaluate(&board, &cfg) as f32 * k / SCALE as f32;
        }
        out.push(sample);
    }
    Ok(out)
}

/// What a hidden unit passes on of its sum.
#[inline]
fn activate(activation: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match activation {
        Activation::Crelu => c,
        Activation::Screlu => c * c,
    }
}

/// A network in floating point, as training sees it.
#[derive(Clone, Debug)]
pub struct FloatNet {
    pub activation: Activation,
    pub hidden: usize,
    pub buckets: usize,
    /// Input buckets by the kings' squares, and the mirror.
    pub kings: KingLayout,
    pub ft_w: Vec<f32>,
    pub ft_b: Vec<f32>,
    /// `buckets × 2 × hidden`, as [`Network::out_w`].
    pub out_w: Vec<f32>,
    pub out_b: Vec<f32>,
}

/// Weights are held within this bound so that the integer network cannot overflow.
const CLIP: f32 = 1.98;

/// One part of a batch for a training thread: its gradient, its error, its samples.
type Job<'a> = (&'a mut Vec<f32>, &'a mut f64, &'a [u32]);

/// The parts each batch's gradient is computed in (see [`train`]).
const CHUNKS: usize = 8;

/// A small deterministic generator (splitmix64) for the initial weights and the order of
/// the samples.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn uniform(&mut self, a: f32) -> f32 {
        ((self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a
    }
}

impl FloatNet {
    pub fn new(hidden: usize, activation: Activation, seed: u64) -> FloatNet {
        FloatNet::with_kings(hidden, activation, KingLayout::none(), seed)
    }

    /// Random weights for a network of input buckets `kings` (one output).
    pub fn with_kings(
        hidden: usize,
        activation: Activation,
        kings: KingLayout,
        seed: u64,
    ) -> FloatNet {
        let mut rng = Rng(seed);
        FloatNet {
            activation,
            hidden,
            buckets: 1,
            ft_w: (0..kings.inputs() * hidden)
                .map(|_| rng.uniform(0.15))
                .collect(),
            kings,
            ft_b: (0..hidden).map(|_| 0.25 + rng.uniform(0.05)).collect(),
            out_w: (0..2 * hidden)
                .map(|_| rng.uniform(1.0 / (2.0 * hidden as f32).sqrt()))
                .collect(),
            out_b: vec![0.0],
        }
    }

    /// The floating-point network an integer one stands for, to train further from: each
    /// weight is the integer over its scale, so [`FloatNet::quantise`] gives the same bits
    /// back.
    pub fn from_network(net: &Network) -> FloatNet {
        let f = |v: i16, s: i32| f32::from(v) / s as f32;
        FloatNet {
            activation: net.activation,
            hidden: net.hidden,
            buckets: net.buckets,
            kings: net.kings.clone(),
            ft_w: net.ft_w.iter().map(|&v| f(v, QA)).collect(),
            ft_b: net.ft_b.iter().map(|&v| f(v, QA)).collect(),
            out_w: net.out_w.iter().map(|&v| f(v, QB)).collect(),
            out_b: net
                .out_b
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    /// The same network with `hidden` units a side instead of its own: the units it has keep
    /// their weights, and each new one starts with random input weights and an output weight
    /// of 0, so the widened network computes exactly what this one did until training gives
    /// the new units a say. `None` if `hidden` is not more than the network has.
    pub fn widen(&self, hidden: usize, seed: u64) -> Option<FloatNet> {
        let h = self.hidden;
        if hidden <= h {
            return None;
        }
        let fresh = FloatNet::with_kings(hidden - h, self.activation, self.kings.clone(), seed);
        let n = hidden - h;
        let inputs = self.kings.inputs();
        let mut ft_w = Vec::with_capacity(inputs * hidden);
        for f in 0..inputs {
            ft_w.extend_from_slice(&self.ft_w[f * h..(f + 1) * h]);
            ft_w.extend_from_slice(&fresh.ft_w[f * n..(f + 1) * n]);
        }
        let mut ft_b = self.ft_b.clone();
        ft_b.extend_from_slice(&fresh.ft_b);
        let mut out_w = Vec::with_capacity(self.buckets * 2 * hidden);
        for half in self.out_w.chunks_exact(h) {
            out_w.extend_from_slice(half);
            out_w.extend(std::iter::repeat_n(0.0, n));
        }
        Some(FloatNet {
            activation: self.activation,
            hidden,
            buckets: self.buckets,
            kings: self.kings.clone(),
            ft_w,
            ft_b,
            out_w,
            out_b: self.out_b.clone(),
        })
    }

    /// The untrained network `cfg` describes: random weights from its seed, its units, its
    /// activation, its output buckets (0 or 1: one output) and its king buckets. `None` when
    /// the buckets are more than [`net::MAX_BUCKETS`] (the file format's limit), or the king
    /// buckets not a count [`KingLayout::standard`] has, rather than quietly one.
    pub fn fresh(cfg: &TrainSettings) -> Option<FloatNet> {
        let kings = match cfg.kings {
            0 | 1 => KingLayout::none(),
            n => KingLayout::standard(n)?,
        };
        let net = FloatNet::with_kings(cfg.hidden, cfg.activation, kings, cfg.seed);
        match cfg.buckets {
            0 | 1 => Some(net),
            b => net.with_buckets(b),
        }
    }

    /// The same network with `buckets` output layers, each a copy of its one: it computes
    /// exactly what it did until training sets the buckets apart. `None` unless the network
    /// has one output and `buckets` is from 2 to [`net::MAX_BUCKETS`].
    pub fn with_buckets(&self, buckets: usize) -> Option<FloatNet> {
        if self.buckets != 1 || !(2..=net::MAX_BUCKETS).contains(&buckets) {
            return None;
        }
        Some(FloatNet {
            buckets,
            out_w: self.out_w.repeat(buckets),
            out_b: self.out_b.repeat(buckets),
            ..self.clone()
        })
    }

    /// The output layer `s` is read through: its weights and the index of its bias.
    fn out_layer(&self, s: &Sample) -> (usize, usize) {
        let b = net::bucket(s.pieces(), self.buckets);
        (b * 2 * self.hidden, b)
    }

    fn params(&self) -> usize {
        self.ft_w.len() + self.ft_b.len() + self.out_w.len() + self.out_b.len()
    }

    /// The two perspectives' sums before the activation (White's, Black's).
    fn accumulate(&self, s: &Sample, acc: &mut [Vec<f32>; 2]) {
        let h = self.hidden;
        acc[0].copy_from_slice(&self.ft_b);
        acc[1].copy_from_slice(&self.ft_b);
        for (fw, fb) in s.features(&self.kings) {
            for (a, w) in acc[0].iter_mut().zip(&self.ft_w[fw * h..(fw + 1) * h]) {
                *a += w;
            }
            for (a, w) in acc[1].iter_mut().zip(&self.ft_w[fb * h..(fb + 1) * h]) {
                *a += w;
            }
        }
    }

    /// The raw output (centipawns / [`SCALE`]) from the side to move's view.
    pub fn output(&self, s: &Sample) -> f32 {
        let mut acc = [vec![0.0; self.hidden], vec![0.0; self.hidden]];
        self.accumulate(s, &mut acc);
        self.output_of(s, &acc)
    }

    fn output_of(&self, s: &Sample, acc: &[Vec<f32>; 2]) -> f32 {
        let h = self.hidden;
        let stm = s.stm as usize;
        let (at, b) = self.out_layer(s);
        let mut out = self.out_b[b] + s.base;
        for (half, a) in [&acc[stm], &acc[1 - stm]].into_iter().enumerate() {
            for (v, w) in a
                .iter()
                .zip(&self.out_w[at + half * h..at + (half + 1) * h])
            {
                out += activate(self.activation, *v) * w;
            }
        }
        out
    }

    /// Adds one sample's gradient of the squared error to `grad` (laid out as
    /// [`FloatNet::params`]: first-layer weights, biases, output weights, output bias) and
    /// returns its error.
    fn backprop(&self, s: &Sample, acc: &mut [Vec<f32>; 2], grad: &mut [f32]) -> f32 {
        let h = self.hidden;
        self.accumulate(s, acc);
        let out = self.output_of(s, acc);
        let p = sigmoid(out);
        let diff = p - s.target;
        let g = 2.0 * diff * p * (1.0 - p);
        let (g_ftw, rest) = grad.split_at_mut(self.kings.inputs() * h);
        let (g_ftb, rest) = rest.split_at_mut(h);
        let (g_out, g_outb) = rest.split_at_mut(self.buckets * 2 * h);
        let (at, b) = self.out_layer(s);
        g_outb[b] += g;
        let stm = s.stm as usize;
        // The gradient at each perspective's sum, reusing `acc` for it.
        for (half, persp) in [stm, 1 - stm].into_iter().enumerate() {
            let w = &self.out_w[at + half * h..at + (half + 1) * h];
            let go = &mut g_out[at + half * h..at + (half + 1) * h];
            for ((a, w), go) in acc[persp].iter_mut().zip(w).zip(go) {
                let slope = match self.activation {
                    _ if *a <= 0.0 || *a >= 1.0 => 0.0,
                    Activation::Crelu => 1.0,
                    Activation::Screlu => 2.0 * *a,
                };
                *go += g * activate(self.activation, *a);
                *a = g * w * slope;
            }
        }
        for (a, b) in g_ftb.iter_mut().zip(acc[0].iter().zip(&acc[1])) {
            *a += b.0 + b.1;
        }
        for (fw, fb) in s.features(&self.kings) {
            for (gw, d) in g_ftw[fw * h..(fw + 1) * h].iter_mut().zip(&acc[0]) {
                *gw += d;
            }
            for (gw, d) in g_ftw[fb * h..(fb + 1) * h].iter_mut().zip(&acc[1]) {
                *gw += d;
            }
        }
        diff * diff
    }

    /// The mean squared error of the logistic of the output against the targets.
    pub fn error(&self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let total: f64 = samples
            .iter()
            .map(|s| f64::from((sigmoid(self.output(s)) - s.target).powi(2)))
            .sum();
        total / samples.len() as f64
    }

    /// The integer network: the first layer times [`QA`], the output weights times [`QB`],
    /// the output bias times both.
    pub fn quantise(&self) -> Network {
        let q = |v: f32, s: i32| (v * s as f32).round() as i16;
        Network {
            activation: self.activation,
            hidden: self.hidden,
            buckets: self.buckets,
            kings: self.kings.clone(),
            ft_w: self.ft_w.iter().map(|&v| q(v, QA)).collect(),
            ft_b: self.ft_b.iter().map(|&v| q(v, QA)).collect(),
            out_w: self.out_w.iter().map(|&v| q(v, QB)).collect(),
            out_b: self
                .out_b
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
        }
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub hidden: usize,
    /// Output buckets (1: one output layer).
    pub buckets: usize,
    /// Input buckets by the kings' squares, with the mirror (1: none; 2, 4 or 8:
    /// [`KingLayout::standard`]).
    pub kings: usize,
    pub activation: Activation,
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    pub seed: u64,
    pub threads: usize,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            hidden: 128,
            buckets: 1,
            kings: 1,
            activation: Activation::Crelu,
            epochs: 10,
            batch: 8192,
            lr: 0.002,
            seed: 1,
            threads: 1,
        }
    }
}

/// Trains a network from scratch; `report` hears each epoch's number, its mean training
/// error and the network so far. The result depends only on the samples and the settings
/// (the threads split each batch in a fixed way and their gradients are summed in order).
/// `None` when the settings name more output buckets than a network can have.
pub fn train(
    samples: &[Sample],
    cfg: &TrainSettings,
    report: impl FnMut(usize, f64, &FloatNet),
) -> Option<FloatNet> {
    Some(train_from(FloatNet::fresh(cfg)?, samples, cfg, report))
}

/// Trains on from `net` (a network trained before, on other positions) instead of random
/// weights; `cfg.hidden`, `cfg.buckets` and `cfg.activation` are not used, the network's
/// own are.
pub fn train_from(
    mut net: FloatNet,
    samples: &[Sample],
    cfg: &TrainSettings,
    mut report: impl FnMut(usize, f64, &FloatNet),
) -> FloatNet {
    let n = net.params();
    let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
    let mut order: Vec<u32> = (0..samples.len() as u32).collect();
    let mut rng = Rng(cfg.seed ^ 0x5EED);
    let threads = cfg.threads.max(1);
    // Each batch is cut into CHUNKS parts whose gradients are summed in order, whatever the
    // number of threads: the result is the same bits for one thread or many.
    let mut grads = vec![vec![0.0f32; n]; CHUNKS];
    let mut step = 0i32;
    for epoch in 0..cfg.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
        }
        // Full rate for the first 70% of the epochs, then a tenth.
        let lr = if epoch * 10 < cfg.epochs * 7 {
            cfg.lr
        } else {
            cfg.lr * 0.1
        };
        let mut total = 0.0f64;
        for batch in order.chunks(cfg.batch.max(1)) {
            let per = batch.len().div_ceil(CHUNKS).max(1);
            let parts: Vec<&[u32]> = batch.chunks(per).collect();
            let used = parts.len();
            let mut errors = vec![0.0f64; used];
            std::thread::scope(|scope| {
                let net = &net;
                // Thread t takes parts t, t + threads, ...
                let mut work: Vec<Vec<Job>> = (0..threads).map(|_| Vec::new()).collect();
                for (i, ((grad, err), part)) in grads
                    .iter_mut()
                    .zip(errors.iter_mut())
                    .zip(&parts)
                    .enumerate()
                {
                    work[i % threads].push((grad, err, part));
                }
                for jobs in work {
                    scope.spawn(move || {
                        let mut acc = [vec![0.0; net.hidden], vec![0.0; net.hidden]];
                        for (grad, err, part) in jobs {
                            grad.fill(0.0);
                            *err = part
                                .iter()
                                .map(|&i| {
                                    f64::from(net.backprop(&samples[i as usize], &mut acc, grad))
                                })
                                .sum::<f64>();
                        }
                    });
                }
            });
            total += errors.iter().sum::<f64>();
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                for (a, b) in first[0].iter_mut().zip(other.iter()) {
                    *a += b;
                }
            }
            step += 1;
            adam(&mut net, &first[0], &mut m, &mut v, lr, step, batch.len());
        }
        report(epoch + 1, total / samples.len().max(1) as f64, &net);
    }
    net
}

fn adam(
    net: &mut FloatNet,
    grad: &[f32],
    m: &mut [f32],
    v: &mut [f32],
    lr: f32,
    step: i32,
    batch: usize,
) {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    let c1 = 1.0 - B1.powi(step);
    let c2 = 1.0 - B2.powi(step);
    let scale = 1.0 / batch as f32;
    let weights = net
        .ft_w
        .iter_mut()
        .chain(net.ft_b.iter_mut())
        .chain(net.out_w.iter_mut())
        .map(|p| (p, true));
    // The output biases are not clipped: they are 32-bit in the integer network.
    let params = weights.chain(net.out_b.iter_mut().map(|p| (p, false)));
    for (i, (p, clip)) in params.enumerate() {
        let g = grad[i] * scale;
        m[i] = B1 * m[i] + (1.0 - B1) * g;
        v[i] = B2 * v[i] + (1.0 - B2) * g * g;
        let stepped = *p - lr * (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
        *p = if clip {
            stepped.clamp(-CLIP, CLIP)
        } else {
            stepped
        };
    }
}
