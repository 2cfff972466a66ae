//! The labelled-position file the tuner reads and `ox88 selfplay` writes: one position a
//! line, a FEN (four to six fields) followed by the game's result from White's view in
//! brackets: `[1.0]` White won, `[0.5]` draw, `[0.0]` Black won. Any other number from 0 to 1
//! (`[0.73]`) is an expected score, for positions labelled by an evaluation rather than by a
//! game's result. Blank lines and lines starting with `#` are skipped.

use std::fmt;

use crate::chess::board::Board;

/// One position and the result of the game it came from (1 White won, 0.5, 0), or White's
/// expected score from 0 to 1.
#[derive(Clone, Debug)]
pub struct Labelled {
    pub board: Board,
    pub result: f64,
}

/// What was wrong with a line of a labelled-position file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// 1-based line number.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DataError {}

/// The result token as written in the file.
pub fn result_token(result: f64) -> &'static str {
    if result >= 0.75 {
        "[1.0]"
    } else if result <= 0.25 {
        "[0.0]"
    } else {
        "[0.5]"
    }
}

/// Reads one line (`line_no` is 1-based, for the message). `Ok(None)` for blank and comment
/// lines.
pub fn parse_line(text: &str, line_no: usize) -> Result<Option<Labelled>, DataError> {
    let err = |message: String| DataError {
        line: line_no,
        message,
    };
    let t = text.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    let open = t.rfind('[').ok_or_else(|| {
        err(format!(
            "no result in brackets ([1.0], [0.5] or [0.0]) in '{t}'"
        ))
    })?;
    let (fen, label) = (t[..open].trim(), t[open..].trim());
    let result = match label {
        "[1-0]" => 1.0,
        "[1/2-1/2]" => 0.5,
        "[0-1]" => 0.0,
        // `[1.0]`, `[0.5]`, `[0.0]` and any expected score in between
        other => match other[1..]
            .strip_suffix(']')
            .map(|x| x.trim().parse::<f64>())
        {
            Some(Ok(x)) if (0.0..=1.0).contains(&x) => x,
            _ => {
                return Err(err(format!(
                    "result '{other}' is not [1.0], [0.5], [0.0] or a score from 0 to 1"
                )));
            }
        },
    };
    let board = Board::from_fen(fen).map_err(|e| err(format!("bad FEN '{fen}': {e}")))?;
    Ok(Some(Labelled { board, result }))
}

/// Reads a whole file's text; the first bad line is the error.
pub fn parse(text: &str) -> Result<Vec<Labelled>, DataError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(p) = parse_line(line, i + 1)? {
            out.push(p);
        }
    }
    Ok(out)
}
