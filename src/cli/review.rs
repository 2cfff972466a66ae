//! `ox88 review`: a game of a PGN file reviewed by the review job (every position searched
//! with a fixed budget, each move judged by the winning chances it gave away, a move about
//! to be marked searched again deeper before it is), written
//! back as an annotated PGN. A progress line goes to standard error, and a summary per
//! side at the end. With `--syzygy DIR`, moves in positions the tables cover are judged by
//! the tables (a win or draw thrown away is a blunder). Ctrl-C keeps what was reviewed and exits with status 130.

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use anyhow::{Context, Result};
use ox88::engine::jobs::{CancelHandle, ReviewDepth, ReviewJob, ReviewSettings, WouldMark};
use ox88::engine::syzygy::Tablebases;
use ox88::game::Game;
use ox88::game::annotate::{Review, review_positions, second_look_for, would_mark};

use super::args::ReviewArgs;

pub fn run(args: ReviewArgs) -> Result<()> {
    let ReviewArgs {
        file,
        game: number,
        quick: _,
        deep,
        game_time,
        nodes,
        movetime,
        depth,
        out,
        table,
        syzygy,
    } = args;
    let tables = match &syzygy {
        Some(dir) => {
            let t = Tablebases::open_paths(&dir.to_string_lossy())
                .map_err(|e| anyhow::anyhow!("--syzygy {}: {}", dir.display(), e.what))?;
            if t.max_men() == 0 {
                anyhow::bail!(
                    "--syzygy {}: no Syzygy tables (*.rtbw) there",
                    dir.display()
                );
            }
            Some(Arc::new(t))
        }
        None => None,
    };
    let text = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let game = Game::from_pgn_nth(&text, number)
        .with_context(|| format!("{}: cannot read game {number}", file.display()))?;
    let positions = review_positions(&game);
    let (settings, name, look): (ReviewSettings, Option<String>, WouldMark) =
        match (depth, movetime, nodes, game_time) {
            (Some(d), ..) => (ReviewSettings::depth(d), None, would_mark),
            (None, Some(ms), ..) => (
                ReviewSettings::movetime(std::time::Duration::from_millis(ms.max(1))),
                None,
                would_mark,
            ),
            (None, None, Some(n), _) => (ReviewSettings::nodes(n), None, would_mark),
            (None, None, None, Some(secs)) => (
                ReviewSettings::game_time(std::time::Duration::from_secs(secs), positions.len()),
                Some(format!("{secs} s a game")),
                would_mark,
            ),
            (None, None, None, None) => {
                let d = if deep {
                    ReviewDepth::Deep
                } else {
                    ReviewDepth::Quick
                };
                (
                    ReviewSettings::of_depth(d),
                    Some(d.name().to_string()),
                    second_look_for(d),
                )
            }
        };
    // A move the first look would mark (under --deep, or nearly mark) is looked at again,
    // deeper, before it is marked.
    let mut settings = settings.with_second_look(look);
    let budget = match name {
        Some(name) => format!("{name}, {}", settings.budget()),
        None => settings.budget(),
    };
    // The searches probe the tables too, so their lines in covered positions are exact.
    settings.options.syzygy.tables = tables.clone();
    let tty = std::io::stderr().is_terminal();
    let job = ReviewJob::start(positions, settings, move |p| {
        let line = format!("review: {p}");
        if tty {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    })
    .context("cannot start the review")?;
    // Ctrl-C stops the review after the current position and keeps what was done; a
    // second Ctrl-C ends the program at once.
    let cancel: CancelHandle = job.cancel_handle();
    let interrupted = super::wait_cancelling_on_ctrl_c(|| job.is_finished(), || cancel.cancel())?;
    let outcome = job.wait();
    if tty {
        eprintln!();
    }
    if let Some(e) = &outcome.error {
        eprintln!("review: {e}");
    }
    let review = Review::from_analysis_with_tables(&game, &outcome.positions, tables.as_deref());
    if !review.is_complete() {
        eprintln!(
            "review: stopped after {} of {} moves; writing what was reviewed",
            review.moves.len(),
            review.game_moves
        );
    }
    for side in [ox88::chess::Color::White, ox88::chess::Color::Black] {
        eprintln!("{:<5}  {}", side.name(), review.side(side));
    }
    let nodes: u64 = outcome
        .positions
        .iter()
        .map(|p| p.nodes + p.check.as_ref().map_or(0, |c| c.nodes))
        .sum();
    let looks = outcome
        .positions
        .iter()
        .filter(|p| p.check.is_some())
        .count();
    let secs = outcome.elapsed.as_secs_f64();
    eprintln!(
        "review: {secs:.1} s, {nodes} nodes ({:.0} n/s), {looks} second looks",
        nodes as f64 / secs.max(1e-3)
    );
    let annotator = format!("ox88 {} ({budget})", env!("CARGO_PKG_VERSION"));
    let pgn = review.annotate(&game, &annotator).to_pgn();
    if let Some(path) = &out {
        std::fs::write(path, &pgn).with_context(|| format!("cannot write {}", path.display()))?;
    }
    if table {
        std::io::stdout().write_all(review.table(&game).as_bytes())?;
    } else if out.is_none() {
        std::io::stdout().write_all(pgn.as_bytes())?;
    }
    if interrupted {
        // Interrupted: what was reviewed is written, but the exit status says it is partial.
        std::process::exit(130);
    }
    Ok(())
}
