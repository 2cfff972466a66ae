//! `ox88 selfplay`: self-play games for tuning data. Quiet positions of each game are
//! appended to a file, one `FEN [result]` a line, labelled with the game's result; a line
//! per game and the running score go to standard error.

use std::io::Write;

use anyhow::{Context, Result};
use ox88::tune::data;
use ox88::tune::selfplay::{self, SelfplayConfig};

use super::args::SelfplayArgs;

pub fn run(args: SelfplayArgs) -> Result<()> {
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
