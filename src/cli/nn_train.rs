//! `ox88 nn-train`: the network evaluation trained on positions scored by a stronger
//! engine, from random weights or from an earlier network (widened or given output buckets
//! on the way), the integer network written after every epoch.

use anyhow::{Context, Result};
use ox88::tune::nn;

use super::args::{Act, NnTrainArgs};

fn load_scored(path: &std::path::Path, residual: Option<f32>) -> Result<Vec<nn::Sample>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let samples =
        nn::parse(&text, residual).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    anyhow::ensure!(!samples.is_empty(), "{}: no positions", path.display());
    Ok(samples)
}

pub fn run(args: NnTrainArgs) -> Result<()> {
    let hidden = args.hidden.unwrap_or(nn::TrainSettings::default().hidden);
    anyhow::ensure!(
        (1..=4096).contains(&hidden),
        "--hidden must be between 1 and 4096"
    );
    // The starting network is read before the (long) data, so a bad file is said at once.
    let init = match &args.init {
        Some(p) => {
            let bytes = std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?;
            let net = ox88::engine::eval::net::Network::from_bytes(&bytes)
                .map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
            let float = nn::FloatNet::from_network(&net);
            let float = match args.buckets {
                Some(b) if b as usize != net.buckets => {
                    anyhow::ensure!(
                        net.buckets == 1,
                        "--buckets {b}: {} has {} output buckets already; only a network of \
                         one output can be given buckets",
                        p.display(),
                        net.buckets
                    );
                    eprintln!("{b} output buckets, each a copy of the network's output");
                    float
                        .with_buckets(b as usize)
                        .expect("from one output to 2..=32 buckets")
                }
                _ => float,
            };
            match args.hidden {
                Some(h) if h < net.hidden => anyhow::bail!(
                    "--hidden {h} is fewer than the {} units of {}: a network can be widened, \
                     not narrowed",
                    net.hidden,
                    p.display()
                ),
                Some(h) if h > net.hidden => {
                    eprintln!(
                        "starting from {} ({} hidden units), widened to {h}",
                        p.display(),
                        net.hidden
                    );
                    float.widen(h, args.seed)
                }
                _ => {
                    eprintln!(
                        "starting from {} ({} hidden units)",
                        p.display(),
                        net.hidden
                    );
                    Some(float)
                }
            }
        }
        None => None,
    };
    let samples = load_scored(&args.data, args.residual)?;
    let valid = match &args.validate {
        Some(p) => load_scored(p, args.residual)?,
        None => Vec::new(),
    };
    eprintln!(
        "{} training positions, {} to validate",
        samples.len(),
        valid.len()
    );
    if let (true, Some(p)) = (args.compare_full, &args.validate) {
        let text = std::fs::read_to_string(p)?;
        let cfg = ox88::engine::eval::EvalConfig {
            mode: ox88::engine::eval::EvalMode::Full,
            ..Default::default()
        };
        let pairs: Vec<(f32, f32)> = text
            .lines()
            .filter_map(|l| {
                let (fen, cp) = l.rsplit_once(';')?;
                let b = ox88::chess::board::Board::from_fen(fen).ok()?;
                let cp: f32 = cp.trim().parse().ok()?;
                Some((
                    ox88::engine::eval::evaluate(&b, &cfg) as f32,
                    cp.clamp(-3000.0, 3000.0),
                ))
            })
            .collect();
        for k in [0.5f32, 0.6, 0.7, 0.8, 0.9, 1.0] {
            let err: f64 = pairs
                .iter()
                .map(|&(e, cp)| {
                    f64::from((nn::sigmoid(e * k / 400.0) - nn::sigmoid(cp / 400.0)).powi(2))
                })
                .sum::<f64>()
                / pairs.len().max(1) as f64;
            eprintln!("full evaluation x{k}: validation error {err:.6}");
        }
    }
    let settings = nn::TrainSettings {
        hidden,
        buckets: args.buckets.unwrap_or(1) as usize,
        kings: args.king_buckets,
        activation: match args.activation {
            Act::Crelu => ox88::engine::eval::net::Activation::Crelu,
            Act::Screlu => ox88::engine::eval::net::Activation::Screlu,
        },
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        seed: args.seed,
        threads: args.threads,
    };
    let start = match init {
        Some(net) => {
            if !valid.is_empty() {
                eprintln!(
                    "the starting network's validation error {:.6}",
                    net.error(&valid)
                );
            }
            net
        }
        // clap already keeps the bucket count to 1..=32.
        None => nn::FloatNet::fresh(&settings).ok_or_else(|| {
            anyhow::anyhow!(
                "--buckets {}: a network has at most {} output buckets",
                settings.buckets,
                ox88::engine::eval::net::MAX_BUCKETS
            )
        })?,
    };
    let mut write_err = None;
    // Written after every epoch, so a long fit stopped by hand leaves its latest network,
    // and once more at the end (with no epochs, the starting network).
    let net = nn::train_from(start, &samples, &settings, |epoch, err, net| {
        if valid.is_empty() {
            eprintln!("epoch {epoch}: training error {err:.6}");
        } else {
            let v = net.error(&valid);
            eprintln!("epoch {epoch}: training error {err:.6}, validation error {v:.6}");
        }
        if let Err(e) = std::fs::write(&args.out, net.quantise().to_bytes()) {
            write_err = Some(e);
        }
    });
    if let Some(e) = write_err {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    std::fs::write(&args.out, net.quantise().to_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    eprintln!("network written to {}", args.out.display());
    Ok(())
}
