//! `ox88 lab`: the ordering lab on the command line. One position searched to the same
//! depth under each ordering scheme and search profile, each on a fresh engine, in the
//! background with a progress line on standard error (Ctrl-C stops and prints what
//! finished, exit status 130); then the table or the JSON array.

use std::io::IsTerminal;

use anyhow::Result;
use ox88::engine::jobs::lab::{LabJob, LabSettings, parse_list};
use ox88::engine::order::Scheme;
use ox88::engine::search::Profile;

use super::args::LabArgs;

pub fn run(args: LabArgs) -> Result<()> {
    let LabArgs {
        position,
        depth,
        schemes,
        profiles,
        max_nodes,
        json,
    } = args;
    let board = position.board()?;
    let mut settings = LabSettings::new(depth);
    settings.max_nodes = max_nodes;
    if let Some(s) = schemes.as_deref() {
        settings.schemes =
            parse_list(s, "scheme", |t| t.parse::<Scheme>()).map_err(anyhow::Error::msg)?;
    }
    if let Some(p) = profiles.as_deref() {
        settings.profiles = parse_list(p, "profile", Profile::parse).map_err(anyhow::Error::msg)?;
    }
    let tty = std::io::stderr().is_terminal();
    let job = LabJob::start(board, settings, move |p| {
        if let Some(run) = &p.finished {
            let line = format!(
                "lab: {}/{} {} {} {} nodes",
                p.done, p.total, run.scheme, run.profile, run.nodes
            );
            if tty {
                eprint!("\r{line}\x1b[K");
            } else {
                eprintln!("{line}");
            }
        }
    })?;
    super::wait_cancelling_on_ctrl_c(|| job.is_finished(), || job.cancel())?;
    let outcome = job.wait();
    if tty {
        eprintln!();
    }
    if let Some(e) = &outcome.error {
        eprintln!("lab: {e}");
    }
    if json {
        println!("{}", outcome.to_json());
    } else {
        for line in outcome.table() {
            println!("{line}");
        }
    }
    if outcome.cancelled {
        eprintln!(
            "lab: stopped after {} of {} runs",
            outcome.runs.len(),
            outcome.total
        );
        std::process::exit(130);
    }
    Ok(())
}
