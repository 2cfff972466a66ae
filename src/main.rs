//! ox88: play chess in the terminal (the TUI), or speak UCI to a GUI, or measure the engine.
//!
//! The command line and each subcommand's work are in `cli`; this parses and hands over.

mod cli;

use anyhow::Result;
use cli::args::Command;

fn main() -> Result<()> {
    let cli = cli::args::parse();
    // Output read by another program (`ox88 man | head -1`, `ox88 perft 5 --divide | less`)
    // ends the process quietly when the reader goes away, instead of failing on every write.
    // The server keeps writes that fail: a client's closed connection must not end it.
    if !matches!(cli.command, Some(Command::Serve(_))) {
        sigpipe::reset();
    }
    match cli.command {
        Some(Command::Serve(args)) => ox88::serve::run(args),
        Some(Command::Club(args)) => cli::club::run(args),
        Some(Command::Uci) => ox88::uci::run(),
        Some(Command::Perft(args)) => cli::perft::run(args),
        Some(Command::Bench(args)) => cli::bench::run(args),
        Some(Command::Search(args)) => cli::search::run(args),
        Some(Command::Lab(args)) => cli::lab::run(args),
        Some(Command::Tree(args)) => cli::tree::run(args),
        Some(Command::Eval(args)) => cli::eval::run(args),
        Some(Command::Review(args)) => cli::review::run(args),
        Some(Command::Selfplay(args)) => cli::selfplay::run(args),
        Some(Command::Puzzles(args)) => cli::puzzles::run(args),
        Some(Command::Tune(args)) => cli::tune::run(args),
        Some(Command::NnTrain(args)) => cli::nn_train::run(args),
        Some(Command::Tb(args)) => cli::tb::run(args),
        Some(Command::Completions(args)) => cli::docs::completions(args),
        Some(Command::Man) => cli::docs::man(),
        Some(Command::Config(args)) => cli::config::run(&cli.play, &args),
        Some(Command::SwissPair(args)) => cli::swiss::run(args),
        None => cli::play::run(cli.play),
    }
}
