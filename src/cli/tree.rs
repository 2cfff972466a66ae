//! `ox88 tree`: one position searched on a fresh engine, and the tree its last iteration
//! searched printed one node a line, indented, or as one JSON object (`--json`), down to
//! `--plies` from the root and pruned below `--min-nodes`.

use std::io::Write;

use anyhow::{Context, Result};
use ox88::engine::Limits;
use ox88::engine::search::Searcher;
use ox88::engine::search::record::{TreeLimits, tree_json, tree_text};

use super::args::TreeArgs;

pub fn run(args: TreeArgs) -> Result<()> {
    let TreeArgs {
        position,
        depth,
        plies,
        min_nodes,
        engine,
        json,
    } = args;
    let board = position.board()?;
    let options = engine.options();
    let limits = TreeLimits {
        plies,
        min_nodes,
        ..TreeLimits::default()
    };
    let mut searcher = Searcher::standalone();
    let (_, tree) =
        searcher.search_tree(&board, &Limits::depth(depth), &options, limits, &mut |_| {});
    let tree = tree.context("no iteration completed (no legal move?)")?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if json {
        writeln!(out, "{}", tree_json(&tree))
    } else {
        tree_text(&tree, &mut out)
    }
    .and_then(|_| out.flush());
    match written {
        // A reader that stops early (`| head`) is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
