//! `ox88 swiss-pair TRF` (hidden plumbing): the next round of a Swiss tournament read from a
//! FIDE TRF-16 file, paired by our FIDE Dutch system, so that an independent pairing program
//! can be compared with it (scripts/swiss_oracle.py). A file that cannot be read or a round
//! that cannot be paired ends with a message and status 2.

use std::io::Read;

use anyhow::Result;
use ox88::club::tournament::{pair_round, trf};

use super::args::SwissPairArgs;

pub fn run(args: SwissPairArgs) -> Result<()> {
    let mut text = String::new();
    let read = if args.trf == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(&args.trf).map(|t| text = t)
    };
    if let Err(e) = read {
        refuse(&format!("cannot read '{}': {e}", args.trf));
    }
    let (_, state) = trf::read(&text).unwrap_or_else(|e| refuse(&e.to_string()));
    let pairing = pair_round(&state).unwrap_or_else(|e| refuse(&e.to_string()));
    for board in &pairing.boards {
        println!("{} {}", board.white, board.black);
    }
    if let Some(bye) = pairing.bye {
        println!("bye {bye}");
    }
    Ok(())
}

fn refuse(message: &str) -> ! {
    eprintln!("ox88 swiss-pair: {message}");
    std::process::exit(2)
}
