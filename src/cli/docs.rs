//! `ox88 completions` and `ox88 man`: the shell completion scripts and the manual page,
//! both generated from the clap definitions so they never disagree with `--help`.

use anyhow::Result;

use super::args::{self, CompletionsArgs};

pub fn completions(args: CompletionsArgs) -> Result<()> {
    clap_complete::generate(
        args.shell,
        &mut args::command(),
        "ox88",
        &mut std::io::stdout(),
    );
    Ok(())
}

pub fn man() -> Result<()> {
    clap_mangen::Man::new(args::command()).render(&mut std::io::stdout())?;
    Ok(())
}
