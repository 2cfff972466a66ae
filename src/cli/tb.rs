//! `ox88 tb`: one position looked up in Syzygy tablebases by our own prober: `wdl W dtz D`
//! for the side to move and, with `--moves`, every legal move's result, best first.
//! Input the tables cannot answer (a bad FEN, a directory without tables, a position with
//! castling rights or more men than the tables hold) ends with a message and status 2; a
//! damaged table file is named in the error.

use anyhow::Result;
use ox88::chess::Board;
use ox88::engine::syzygy::Tablebases;

use super::args::TbArgs;

pub fn run(args: TbArgs) -> Result<()> {
    let TbArgs { syzygy, fen, moves } = args;
    let board =
        Board::from_fen(&fen).unwrap_or_else(|e| refuse(&format!("bad --fen '{fen}': {e}")));
    let tables = Tablebases::open_paths(&syzygy).unwrap_or_else(|e| refuse(&e.to_string()));
    if tables.max_men() == 0 {
        refuse(&format!("no Syzygy WDL files (*.rtbw) in '{syzygy}'"));
    }
    if board.castling_rights().bits() != 0 {
        refuse("the position has castling rights; the tables hold none (give '-' in the FEN)");
    }
    let men =
        board.piece_count(ox88::chess::Color::White) + board.piece_count(ox88::chess::Color::Black);
    if men > tables.max_men() {
        refuse(&format!(
            "the position has {men} men; the tables in '{syzygy}' hold up to {}",
            tables.max_men()
        ));
    }
    let missing = || -> ! {
        refuse(&format!(
            "the tables in '{syzygy}' lack a file this position needs"
        ))
    };
    let wdl = tables.probe_wdl(&board)?.unwrap_or_else(|| missing());
    let dtz = tables.probe_dtz(&board)?.unwrap_or_else(|| missing());
    println!("wdl {} dtz {dtz}", wdl.value());
    if moves {
        for r in tables.probe_root(&board)?.unwrap_or_else(|| missing()) {
            println!(
                "{} {} wdl {} dtz {}",
                r.mv.uci(),
                board.san(r.mv),
                r.wdl.value(),
                r.dtz
            );
        }
    }
    Ok(())
}

/// Says why the position cannot be looked up and exits with status 2 (a usage error).
fn refuse(why: &str) -> ! {
    eprintln!("ox88 tb: {why}");
    std::process::exit(2)
}
