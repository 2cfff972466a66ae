//! `ox88 tune`: the Texel tuner. The `full` evaluation's weights fitted to labelled
//! positions (a game result or an expected score each), the error before and after on
//! held-out positions, and the fitted weights written as Rust source.

use anyhow::{Context, Result};
use ox88::engine::eval::trace;
use ox88::tune::data;
use ox88::tune::fit::{self, Settings};

use super::args::TuneArgs;

/// The labelled positions of `path`, or an error naming the file: unreadable, a bad line, or
/// none at all.
fn load_positions(path: &std::path::Path) -> Result<Vec<data::Labelled>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let positions = data::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    anyhow::ensure!(!positions.is_empty(), "{}: no positions", path.display());
    Ok(positions)
}

pub fn run(args: TuneArgs) -> Result<()> {
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
