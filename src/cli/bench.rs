//! `ox88 bench`: the fixed list of positions searched to a fixed depth, one line each and a
//! total of nodes and speed (the node total is the search's signature: a change that should
//! not alter the search must not alter it).

use anyhow::Result;
use ox88::engine::bench;

use super::args::BenchArgs;

pub fn run(args: BenchArgs) -> Result<()> {
    let BenchArgs {
        depth,
        threads,
        eval,
        how,
    } = args;
    bench::report_threads(depth, how.order, how.profile, threads, eval, |line| {
        println!("{line}")
    });
    Ok(())
}
