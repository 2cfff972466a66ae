//! The puzzle file: CSV with the lichess puzzle database's columns (`PuzzleId, FEN, Moves,
//! Rating, RatingDeviation, Popularity, NbPlays, Themes, GameUrl, OpeningTags`), so a file
//! ox88 writes opens in other tools and a file downloaded from lichess plays in ox88.
//! Columns are found by the header's names; columns ox88 does not know are ignored.

use super::{Puzzle, puzzle_id};

/// The header ox88 writes, in lichess's order.
pub const HEADER: [&str; 10] = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
];

/// The columns a file must have to be played.
const REQUIRED: [&str; 2] = ["FEN", "Moves"];

/// What was wrong with a puzzle file, with the line it was found on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    #[error("the puzzle file has no header line (expected {})", HEADER.join(","))]
    NoHeader,
    #[error("the puzzle file's header has no {0} column")]
    MissingColumn(&'static str),
    #[error("line {line}: {why}")]
    Line { line: u64, why: String },
}

/// Reads every puzzle of a file. Rows that are not puzzles (a bad number, no moves) stop
/// the reading with the line's number: a file is read whole or refused.
pub fn read(text: &str) -> Result<Vec<Puzzle>, FileError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| FileError::Line {
            line: 1,
            why: e.to_string(),
        })?
        .clone();
    if headers.is_empty() || headers.iter().all(|h| h.trim().is_empty()) {
        return Err(FileError::NoHeader);
    }
    let column = |name: &str| headers.iter().position(|h| h.trim() == name);
    for name in REQUIRED {
        if column(name).is_none() {
            return Err(FileError::MissingColumn(name));
        }
    }
    let cols: Vec<Option<usize>> = HEADER.iter().map(|n| column(n)).collect();
    let mut puzzles = Vec::new();
    for row in reader.records() {
        let row = row.map_err(|e| FileError::Line {
            line: e.position().map_or(0, |p| p.line()),
            why: e.to_string(),
        })?;
        let line = row.position().map_or(0, |p| p.line());
        let field = |i: usize| cols[i].and_then(|c| row.get(c)).unwrap_or("").trim();
        let bad = |why: String| FileError::Line { line, why };
        let number = |i: usize, default: i64| -> Result<i64, FileError> {
            let text = field(i);
            if text.is_empty() {
                return Ok(default);
            }
            text.parse::<i64>()
                .map_err(|_| bad(format!("{} is not a whole number: {text:?}", HEADER[i])))
        };
        let fen = field(1).to_string();
        if fen.is_empty() {
            return Err(bad("the FEN is empty".into()));
        }
        let moves: Vec<String> = field(2).split_whitespace().map(str::to_string).collect();
        if moves.is_empty() {
            return Err(bad("the puzzle has no moves".into()));
        }
        let rating = number(3, 1500)?;
        let deviation = number(4, 350)?;
        let id = match field(0) {
            "" => puzzle_id(&fen, &moves),
            id => id.to_string(),
        };
        puzzles.push(Puzzle {
            id,
            fen,
            moves,
            rating: rating.clamp(0, 4000) as u32,
            rating_deviation: deviation.clamp(0, 1000) as u32,
            popularity: number(5, 0)?.clamp(-100, 100) as i32,
            plays: number(6, 0)?.clamp(0, u32::MAX as i64) as u32,
            themes: field(7).split_whitespace().map(str::to_string).collect(),
            game_url: field(8).to_string(),
            opening_tags: field(9).split_whitespace().map(str::to_string).collect(),
        });
    }
    Ok(puzzles)
}

/// One puzzle as the file's fields, in [`HEADER`]'s order.
pub fn record(p: &Puzzle) -> [String; 10] {
    [
        p.id.clone(),
        p.fen.clone(),
        p.moves.join(" "),
        p.rating.to_string(),
        p.rating_deviation.to_string(),
        p.popularity.to_string(),
        p.plays.to_string(),
        p.themes.join(" "),
        p.game_url.clone(),
        p.opening_tags.join(" "),
    ]
}

/// Writes puzzles with the header, one row each.
pub fn write(out: impl std::io::Write, puzzles: &[Puzzle]) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(HEADER)?;
    for p in puzzles {
        w.write_record(record(p))?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row as lichess publishes them (the first row of its database's documentation).
    const LICHESS: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n\
00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game Italian_Game_Classical_Variation\n";

    #[test]
    fn reads_a_lichess_row_and_writes_it_back_the_same() {
        let puzzles = read(LICHESS).unwrap();
        assert_eq!(puzzles.len(), 1);
        let p = &puzzles[0];
        assert_eq!(p.id, "00sHx");
        assert_eq!(p.moves, ["e8d7", "a2e6", "d7d8", "f7f8"]);
        assert_eq!(p.rating, 1760);
        assert!(p.has_theme("mateIn2"));
        assert_eq!(p.opening_tags.len(), 2);
        p.check().unwrap();
        let mut out = Vec::new();
        write(&mut out, &puzzles).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), LICHESS);
    }

    #[test]
    fn columns_are_found_by_name_and_missing_ones_take_defaults() {
        let text = "Moves,FEN,Extra\ne2e4 e7e5,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,x\n";
        let p = &read(text).unwrap()[0];
        assert_eq!(p.moves, ["e2e4", "e7e5"]);
        assert_eq!(p.rating, 1500);
        assert_eq!(p.id.len(), 5);
    }

    #[test]
    fn a_bad_row_is_refused_with_its_line() {
        let text = "PuzzleId,FEN,Moves,Rating\nA,8/8/8/8/8/8/8/K1k5 w - - 0 1,a1a2 c1c2,1500\nB,8/8/8/8/8/8/8/K1k5 w - - 0 1,a1a2 c1c2,strong\n";
        let e = read(text).unwrap_err().to_string();
        assert!(e.starts_with("line 3:") && e.contains("Rating"), "{e}");
        assert_eq!(
            read("PuzzleId,Moves\nA,e2e4\n").unwrap_err(),
            FileError::MissingColumn("FEN")
        );
        assert!(read("").is_err());
    }
}
