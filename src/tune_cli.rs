//! `ox88 selfplay` and `ox88 tune`: the command-line side of the Texel tuner (issue 15).

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use ox88::engine::eval::trace;
use ox88::tune::data;
use ox88::tune::fit::{self, Settings};
use ox88::tune::nn;
use ox88::tune::selfplay::{self, SelfplayConfig};

/// Self-play games for tuning data: quiet positions labelled with the game's result.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// Where to write the positions (appends; one `FEN [result]` a line).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes per move (each move draws from N to 2N-1).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The first game's number (to continue a run in pieces: games are numbered and
    /// seeded by this index).
    #[arg(long, default_value_t = 0)]
    pub first: usize,
    /// Start positions (EPD).
    #[arg(long, default_value = "tests/data/openings500.epd")]
    pub openings: PathBuf,
}

pub fn selfplay(args: SelfplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.openings)
        .with_context(|| format!("cannot read {}", args.openings.display()))?;
    let mut openings = selfplay::openings(&text)
        .map_err(|e| anyhow::anyhow!("{}: {e}", args.openings.display()))?;
    let shift = args.first % openings.len();
    openings.rotate_left(shift);
    let cfg = SelfplayConfig {
        games: args.games,
        nodes: args.nodes,
        seed: args.seed.wrapping_add(args.first as u64),
        ..SelfplayConfig::default()
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("cannot open {}", args.out.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let mut score = [0usize; 3];
    let n = selfplay::run(&openings, &cfg, &mut out, |g, result, kept| {
        score[(result * 2.0) as usize] += 1;
        eprintln!(
            "game {g}: {} ({kept} positions); White wins {} draws {} Black wins {}",
            data::result_token(result),
            score[2],
            score[1],
            score[0]
        );
    })?;
    out.flush()?;
    eprintln!("{n} positions written to {}", args.out.display());
    Ok(())
}

/// Fit the `full` evaluation's weights to labelled positions (the Texel method).
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Labelled positions (`FEN [result]` a line, as `ox88 selfplay` writes; or an expected
    /// score from 0 to 1, `FEN [0.73]`, as `scripts/sf_labels.py mix` writes).
    pub data: PathBuf,
    /// Adam steps over the whole data set.
    #[arg(long, default_value_t = Settings::default().iterations)]
    pub iterations: usize,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = Settings::default().rate)]
    pub rate: f64,
    /// Pull towards the starting weights (lambda · Σ (w − w₀)², w in centipawns).
    #[arg(long, default_value_t = Settings::default().lambda)]
    pub lambda: f64,
    /// Weight groups to leave as they are, by name in weights.rs (MATERIAL,PST_KING,...;
    /// the king-danger groups too, e.g. KING_ATTACKERS_PERCENT).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
    /// Hold out this share of the positions (the file's tail: other games) and report the
    /// error on them before and after.
    #[arg(long, default_value_t = 0.0)]
    pub hold_out: f64,
    /// Report the error before and after on the positions of this file instead (other
    /// games that the fit never sees, e.g. a later self-play run); excludes --hold-out.
    #[arg(long, conflicts_with = "hold_out")]
    pub validate: Option<PathBuf>,
    /// Write the fitted weights here as Rust source (src/engine/eval/weights.rs to adopt
    /// them); without it, only the errors are printed.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The labelled positions of `path`, or an error naming the file: unreadable, a bad line, or
/// none at all.
fn load_positions(path: &std::path::Path) -> Result<Vec<data::Labelled>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let positions = data::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    anyhow::ensure!(!positions.is_empty(), "{}: no positions", path.display());
    Ok(positions)
}

pub fn tune(args: TuneArgs) -> Result<()> {
    let positions = load_positions(&args.data)?;
    let settings = Settings {
        iterations: args.iterations,
        rate: args.rate,
        lambda: args.lambda,
        frozen: args.freeze,
    };
    anyhow::ensure!(
        (0.0..1.0).contains(&args.hold_out),
        "--hold-out must be at least 0 and below 1"
    );
    let cut = positions.len() - (positions.len() as f64 * args.hold_out) as usize;
    let held = match &args.validate {
        Some(path) => Some(fit::Dataset::new(&load_positions(path)?)),
        None => (cut < positions.len()).then(|| fit::Dataset::new(&positions[cut..])),
    };
    let positions = &positions[..cut];
    let ds = fit::Dataset::new(positions);
    eprintln!("{} positions traced", ds.len());
    let fitted = fit::fit(
        &ds,
        held.as_ref(),
        &trace::current(),
        &trace::current_danger(),
        &settings,
        |step, err| eprintln!("step {step}: error {err:.8}"),
    )
    .map_err(anyhow::Error::msg)?;
    let name = args.data.file_name().map_or_else(
        || args.data.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    let header = fit::header(&fitted, &name, ds.len(), &settings);
    println!("{header}");
    if let Some(out) = &args.out {
        std::fs::write(
            out,
            trace::write_weights(&fitted.weights, &fitted.danger, &header),
        )
        .with_context(|| format!("cannot write {}", out.display()))?;
        println!("weights written to {}", out.display());
    }
    Ok(())
}

/// Train the network evaluation on positions scored by a stronger engine.
#[derive(clap::Args, Debug)]
pub struct NnTrainArgs {
    /// Scored positions, `FEN;cp` a line (the score from the side to move's view), as
    /// `scripts/nn_data.py` writes them.
    pub data: PathBuf,
    /// Report the error on these positions after every epoch (other games).
    #[arg(long)]
    pub validate: Option<PathBuf>,
    /// Hidden units per side (128 if not given). With `--init`, more than the starting
    /// network has widens it: its units are kept and the new ones start with no say.
    #[arg(long)]
    pub hidden: Option<usize>,
    /// Output buckets, by the number of pieces on the board (1 if not given). With `--init`
    /// from a network of one output, each bucket starts as a copy of it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=32))]
    pub buckets: Option<u32>,
    /// Input buckets by where each side's own king stands (1, 2, 4 or 8), with the board
    /// seen mirrored by a king on the e- to h-files: the pieces' inputs differ with the
    /// king's place. Not with `--init` (the starting network's are kept).
    #[arg(long, default_value_t = 1, value_parser = king_buckets, conflicts_with = "init")]
    pub king_buckets: usize,
    /// The hidden units' activation: clamp(x, 0, 1), or its square.
    #[arg(long, value_enum, default_value_t = Act::Crelu)]
    pub activation: Act,
    #[arg(long, default_value_t = nn::TrainSettings::default().epochs)]
    pub epochs: usize,
    #[arg(long, default_value_t = nn::TrainSettings::default().batch)]
    pub batch: usize,
    /// Adam's step size (a tenth of it for the last 30% of the epochs).
    #[arg(long, default_value_t = nn::TrainSettings::default().lr)]
    pub lr: f32,
    #[arg(long, default_value_t = nn::TrainSettings::default().seed)]
    pub seed: u64,
    /// Threads to split each batch over (the result does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Also report how well the `full` evaluation predicts the validation scores.
    #[arg(long)]
    pub compare_full: bool,
    /// Learn what the `full` evaluation, times this factor, misses (the network's output
    /// is added to it) instead of the whole score.
    #[arg(long)]
    pub residual: Option<f32>,
    /// Start from this network file's weights instead of random ones (its activation, and
    /// its hidden units unless `--hidden` asks for more): a network trained on earlier data
    /// learns from new positions without those data being kept.
    #[arg(long, conflicts_with_all = ["activation", "residual"])]
    pub init: Option<PathBuf>,
    /// Where to write the integer network (after every epoch).
    #[arg(long)]
    pub out: PathBuf,
}

fn king_buckets(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n @ (1 | 2 | 4 | 8)) => Ok(n),
        _ => Err(format!("`{s}` is not 1, 2, 4 or 8")),
    }
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum Act {
    Crelu,
    Screlu,
}

fn load_scored(path: &std::path::Path, residual: Option<f32>) -> Result<Vec<nn::Sample>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let samples =
        nn::parse(&text, residual).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    anyhow::ensure!(!samples.is_empty(), "{}: no positions", path.display());
    Ok(samples)
}

pub fn nn_train(args: NnTrainArgs) -> Result<()> {
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
