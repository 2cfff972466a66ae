//! PGN (Portable Game Notation) export and import.
//!
//! Export follows the standard's export format: the Seven Tag Roster in its order, `SetUp`
//! and `FEN` for a game that did not start from the standard position, SAN with move
//! numbers (`14...` before a Black move that follows a comment), lines of at most 79
//! characters, and the result. Engine moves carry a comment `{+0.29/12}`: the seed's E
//! (White's view, pawns) and the search depth; a clock reading is added as `[%clk 0:04:55]`.
//! A finished game ends with the reason as a comment (`{Black resigns}`), which the reader
//! turns back into the termination.
//!
//! Moves also carry their annotations: NAGs (`$2`), a review's `[%eval 0.35]`, the free text
//! of their comments, and variations (`(2. f4 exf4)`, numbered, after the move's comment).
//!
//! Import reads the first game (or game N of a file, `Game::from_pgn_nth`) and keeps what it
//! can write back: after a move, its NAGs (glyphs such as `!?` become `$5`), its comments
//! (the engine note, `[%clk]` and `[%eval]` into their fields, the rest as text) and the main
//! line of each variation that follows it, when that line is legal (otherwise the variation
//! is dropped and the game still reads). Nested variations and annotations inside
//! variations are skipped, as are `;` comments and `%` escape lines. Anything else that is
//! not a move, a move number or a result is an error naming the line and what was expected.
//! Reading builds a new `Game`, so a failure leaves the caller's game as it was.

use std::fmt;
use std::time::Duration;

use super::{EngineNote, Game, GameEnd, Outcome, PlayedMove, Tags, Termination, TimeControl};
use crate::chess::notation::MoveParseError;
use crate::chess::{Board, Color, Move};
use crate::engine::Score;

/// Export lines stay below 80 columns (PGN standard 8.2.6).
const MAX_LINE: usize = 79;

/// A PGN that could not be read: the line (1-based) and what was wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PgnError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// `"` and `\` are escaped with a backslash inside tag values (PGN 8.1.1).
pub(super) fn escape_tag(value: &str) -> String {
    let mut s = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            // A tag value is one line; control characters would break the file.
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// E as the comment writes it: `+0.29`, `-1.50`, or `#3` / `#-2` for mates, as the screen
/// and `[%eval]` write them (`+M3` / `-M2`, which some GUIs write, is still read).
fn score_text(score: Score) -> String {
    score.to_string()
}

/// `[%eval]` as lichess and most GUIs write it: pawns with two decimals from White's view
/// (`0.35`, `-1.20`), or `#3` / `#-2` for mates.
pub(super) fn eval_text(score: Score) -> String {
    match score {
        Score::Cp(c) => {
            let sign = if c < 0 { "-" } else { "" };
            format!(
                "{sign}{}.{:02}",
                c.unsigned_abs() / 100,
                c.unsigned_abs() % 100
            )
        }
        Score::Mate(n) => format!("#{n}"),
    }
}

/// Reads the value of `[%eval ...]`: `0.35`, `-1.2`, `+3`, `#3`, `#-2`.
pub(super) fn parse_eval_value(value: &str) -> Option<Score> {
    if let Some(n) = value.strip_prefix('#') {
        let n: i32 = n.strip_prefix('+').unwrap_or(n).parse().ok()?;
        return (n.unsigned_abs() < 1000).then_some(Score::Mate(n));
    }
    let (sign, body) = match value.as_bytes().first()? {
        b'-' => (-1, &value[1..]),
        b'+' => (1, &value[1..]),
        _ => (1, value),
    };
    let (whole, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 5 || !digits(whole) || !digits(frac) {
        return None;
    }
    // Centipawns, rounded half away from zero from the first three decimals.
    let mut hundredths = [0u8; 3];
    for (slot, b) in hundredths.iter_mut().zip(frac.bytes()) {
        *slot = b - b'0';
    }
    let mut cp =
        whole.parse::<i32>().ok()? * 100 + hundredths[0] as i32 * 10 + hundredths[1] as i32;
    if hundredths[2] >= 5 {
        cp += 1;
    }
    Some(Score::Cp(sign * cp))
}

/// Finds `[%name value]` in a comment: the value and the byte range of the whole command.
pub(super) fn find_command<'c>(
    comment: &'c str,
    name: &str,
) -> Option<(&'c str, std::ops::Range<usize>)> {
    let open = format!("[%{name}");
    let start = comment.find(&open)?;
    let rest = &comment[start + open.len()..];
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let close = rest.find(']')?;
    let end = start + open.len() + close + 1;
    Some((rest[..close].trim(), start..end))
}

/// The numbered tokens of a variation played from `before`, in brackets:
/// `(12. Nf3 Nc6)` or `(12... Nc6 13. d4)`.
fn variation_tokens(before: &Board, line: &[Move]) -> Vec<String> {
    let sans = before.san_line(line);
    if sans.is_empty() {
        return Vec::new();
    }
    let mut number = before.fullmove_number();
    let mut side = before.side_to_move();
    let mut tokens = Vec::with_capacity(sans.len());
    for (i, san) in sans.iter().enumerate() {
        tokens.push(match side {
            Color::White => format!("{number}. {san}"),
            Color::Black if i == 0 => format!("{number}... {san}"),
            Color::Black => san.clone(),
        });
        if side == Color::Black {
            number += 1;
        }
        side = side.flip();
    }
    tokens[0].insert(0, '(');
    if let Some(last) = tokens.last_mut() {
        last.push(')');
    }
    tokens
}

fn clk_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// Reads `+0.29/12` (or `#3/12`, `#-3/12`, and the older `+M3/12`) at the start of a
/// comment.
fn parse_engine_note(comment: &str) -> Option<EngineNote> {
    let first = comment.split_whitespace().next()?;
    let (score, depth) = first.split_once('/')?;
    let depth: u32 = depth.parse().ok()?;
    if let Some(n) = score.strip_prefix('#') {
        let n: i32 = n.parse().ok()?;
        return Some(EngineNote {
            score: Score::Mate(n),
            depth,
        });
    }
    let (sign, body) = match score.as_bytes().first()? {
        b'+' => (1, &score[1..]),
        b'-' => (-1, &score[1..]),
        _ => (1, score),
    };
    let score = if let Some(n) = body.strip_prefix('M') {
        Score::Mate(sign * n.parse::<i32>().ok()?)
    } else {
        let (whole, frac) = body.split_once('.')?;
        if frac.len() != 2 || !whole.bytes().all(|b| b.is_ascii_digit()) || whole.is_empty() {
            return None;
        }
        let whole: i32 = whole.parse().ok()?;
        let frac: i32 = frac.parse().ok()?;
        Score::Cp(sign * whole.checked_mul(100)?.checked_add(frac)?)
    };
    Some(EngineNote { score, depth })
}

/// Reads a `[%clk]` value: `0:04:55` (fractions of a second dropped).
fn parse_clk_value(value: &str) -> Option<Duration> {
    let mut secs: u64 = 0;
    for part in value.split(':') {
        let whole = part.split('.').next()?;
        secs = secs.checked_mul(60)?.checked_add(whole.parse().ok()?)?;
    }
    Some(Duration::from_secs(secs))
}

/// Takes what a comment after a move says into the move: `[%clk]` and `[%eval]` commands
/// and a leading engine note fill their fields (unless already set); the rest, with its
/// white space collapsed, is added to the move's comment text.
fn absorb_comment(pm: &mut PlayedMove, text: &str) {
    let mut rest = text.to_string();
    if pm.clock.is_none()
        && let Some((value, range)) = find_command(&rest, "clk")
        && let Some(clk) = parse_clk_value(value)
    {
        pm.clock = Some(clk);
        rest.replace_range(range, " ");
    }
    if pm.annotations.eval.is_none()
        && let Some((value, range)) = find_command(&rest, "eval")
        && let Some(eval) = parse_eval_value(value)
    {
        pm.annotations.eval = Some(eval);
        rest.replace_range(range, " ");
    }
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    if pm.engine.is_none()
        && let Some(note) = words.first().and_then(|w| parse_engine_note(w))
    {
        pm.engine = Some(note);
        words.remove(0);
    }
    if !words.is_empty() {
        let free = words.join(" ");
        pm.annotations.comment = Some(match pm.annotations.comment.take() {
            Some(before) => format!("{before} {free}"),
            None => free,
        });
    }
}

/// Turns the reason comment the writer puts before the result back into a termination.
fn parse_reason(comment: &str, outcome: Outcome) -> Option<Termination> {
    let c = comment.trim();
    let side = |name: &str| match name {
        "White" => Some(Color::White),
        "Black" => Some(Color::Black),
        _ => None,
    };
    let t = match c {
        "draw agreed" => Termination::DrawAgreed,
        "result as recorded" => Termination::Recorded,
        // Claimed draws: the position allows the claim, the comment says it was made.
        "threefold repetition" => Termination::ThreefoldRepetition,
        "fifty-move rule" => Termination::FiftyMoveRule,
        _ => {
            if let Some(who) = c.strip_suffix(" resigns") {
                Termination::Resignation { loser: side(who)? }
            } else if let Some(who) = c.strip_suffix(" left the game") {
                Termination::Abandoned { loser: side(who)? }
            } else if let Some((who, _)) = c.split_once("'s flag fell") {
                Termination::FlagFall { loser: side(who)? }
            } else {
                return None;
            }
        }
    };
    // Only believe a reason that agrees with the result token.
    let fits = match t {
        Termination::Resignation { loser } | Termination::Abandoned { loser } => {
            outcome == Outcome::win_for(loser.flip())
        }
        Termination::DrawAgreed | Termination::ThreefoldRepetition | Termination::FiftyMoveRule => {
            outcome == Outcome::Draw
        }
        Termination::FlagFall { loser } => outcome != Outcome::win_for(loser),
        _ => true,
    };
    fits.then_some(t)
}

impl Game {
    /// The game as PGN (export format), the whole line whatever the cursor.
    pub fn to_pgn(&self) -> String {
        let result = self.final_result();
        let result_token = result.map_or("*", |r| r.result());
        let mut out = String::new();
        let t = &self.tags;
        for (name, value) in [
            ("Event", &t.event),
            ("Site", &t.site),
            ("Date", &t.date),
            ("Round", &t.round),
            ("White", &t.white),
            ("Black", &t.black),
        ] {
            out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
        }
        out.push_str(&format!("[Result \"{result_token}\"]\n"));
        if !self.is_standard_start() {
            out.push_str("[SetUp \"1\"]\n");
            out.push_str(&format!("[FEN \"{}\"]\n", self.start().to_fen()));
        }
        if let Some(tc) = self.time_control {
            out.push_str(&format!("[TimeControl \"{}\"]\n", tc.pgn_tag()));
        }
        for (name, value) in &t.other {
            let derived = ["Result", "SetUp", "FEN"].contains(&name.as_str())
                || name == "TimeControl" && self.time_control.is_some();
            let valid_name =
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !derived && valid_name {
                out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(value)));
            }
        }
        out.push('\n');

        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.comment_before {
            tokens.push(format!("{{{c}}}"));
        }
        // After a comment or a variation, a Black move is numbered again (`14...`).
        let mut interrupted = true;
        let mut before = self.start().clone();
        for (i, pm) in self.moves().iter().enumerate() {
            // A move number stays on the line of its move.
            let (side, number) = self.move_number(i);
            tokens.push(match side {
                Color::White => format!("{number}. {}", pm.san),
                Color::Black if interrupted => format!("{number}... {}", pm.san),
                Color::Black => pm.san.clone(),
            });
            tokens.extend(pm.annotations.nags.iter().map(|n| format!("${n}")));
            let mut comment = Vec::new();
            if let Some(note) = pm.engine {
                comment.push(format!("{}/{}", score_text(note.score), note.depth));
            }
            if let Some(eval) = pm.annotations.eval {
                comment.push(format!("[%eval {}]", eval_text(eval)));
            }
            if let Some(clk) = pm.clock {
                comment.push(format!("[%clk {}]", clk_text(clk)));
            }
            if let Some(c) = &pm.annotations.comment {
                comment.push(c.clone());
            }
            interrupted = !comment.is_empty() || !pm.annotations.variations.is_empty();
            if !comment.is_empty() {
                tokens.push(format!("{{{}}}", comment.join(" ")));
            }
            for line in &pm.annotations.variations {
                tokens.extend(variation_tokens(&before, line));
            }
            before.make(pm.mv);
        }
        if let Some(end) = result
            && end.termination != Termination::Recorded
        {
            // Say why the game ended: the reader turns this back into the termination.
            tokens.push(format!("{{{}}}", end.reason()));
        }
        tokens.push(result_token.to_string());

        let mut line = String::new();
        for tok in tokens {
            if !line.is_empty() && line.len() + 1 + tok.len() > MAX_LINE {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&tok);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// Reads the first game of a PGN text: its tags, its main line (comments, NAGs and
    /// variations skipped) and its result. Errors name the line and what was expected.
    pub fn from_pgn(text: &str) -> Result<Game, PgnError> {
        Reader::new(text).read()
    }

    /// Reads game `number` (1-based) of a PGN file with several games. Errors name the
    /// line in the whole file; a number out of range says how many games there are.
    pub fn from_pgn_nth(text: &str, number: usize) -> Result<Game, PgnError> {
        let games = split_games(text);
        let Some(&(first_line, chunk)) = number.checked_sub(1).and_then(|i| games.get(i)) else {
            let count = match games.len() {
                1 => "1 game".to_string(),
                n => format!("{n} games"),
            };
            return Err(PgnError {
                line: 1,
                message: format!("there is no game {number}: the file has {count}"),
            });
        };
        Game::from_pgn(chunk).map_err(|e| PgnError {
            line: e.line + first_line - 1,
            message: e.message,
        })
    }
}

/// The games of a PGN file, each with the line (1-based) it starts on. A game starts at a
/// tag line (`[` first on the line) that follows movetext, as the reader ends a game there.
/// A comment that starts a line does not count as movetext.
pub fn split_games(text: &str) -> Vec<(usize, &str)> {
    let mut games = Vec::new();
    let mut start = 0;
    let mut start_line = 1;
    let mut in_movetext = false;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim_start_matches('\u{feff}').trim();
        if t.starts_with('[') {
            if in_movetext {
                games.push((start_line, &text[start..offset]));
                start = offset;
                start_line = i + 1;
                in_movetext = false;
            }
        } else if !t.is_empty() && !t.starts_with(['%', ';', '{']) {
            // (A line that opens with a comment may stand before the tags.)
            in_movetext = true;
        }
        offset += line.len();
    }
    if !text[start..].trim().is_empty() {
        games.push((start_line, &text[start..]));
    }
    games
}

/// A symbol, comment or bracket in PGN movetext, with the line it starts on.
#[derive(Debug)]
pub(super) enum Token {
    Symbol(String),
    Comment(String),
    Open,
    Close,
    Nag(u8),
    TagStart,
    End,
}

/// Reads from the text in place (byte offsets), so a large file costs nothing beyond its
/// first game.
pub(super) struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Reader<'a> {
    pub(super) fn new(text: &'a str) -> Reader<'a> {
        Reader {
            text: text.trim_start_matches('\u{feff}'),
            pos: 0,
            line: 1,
        }
    }

    fn err<T>(&self, line: usize, message: impl Into<String>) -> Result<T, PgnError> {
        Err(PgnError {
            line,
            message: message.into(),
        })
    }

    pub(super) fn peek(&self) -> Option<char> {
        self.text.get(self.pos..)?.chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text.as_bytes().get(self.pos - 1) == Some(&b'\n')
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    /// Skips white space, `;` comments and `%` escape lines.
    pub(super) fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == ';' || c == '%' && self.at_line_start() {
                self.skip_line();
            } else {
                break;
            }
        }
    }

    /// `[Name "value"]`, the `[` already seen by the caller (not consumed).
    pub(super) fn tag(&mut self) -> Result<(String, String, usize), PgnError> {
        let line = self.line;
        self.bump(); // '['
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        let mut name = String::new();
        while let Some(c) = self
            .peek()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            name.push(c);
            self.bump();
        }
        if name.is_empty() {
            return self.err(line, "expected a tag name after '[' (like [Event \"...\"])");
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return self.err(
                line,
                format!("expected a quoted value after the tag name {name}"),
            );
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return self.err(
                        line,
                        format!("the value of tag {name} is not closed (a '\"' is missing)"),
                    );
                }
                Some('\\') => match self.bump() {
                    Some(c @ ('"' | '\\')) => value.push(c),
                    Some('\n') | None => {
                        return self.err(
                            line,
                            format!("the value of tag {name} is not closed (a '\"' is missing)"),
                        );
                    }
                    Some(c) => {
                        value.push('\\');
                        value.push(c);
                    }
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.bump();
        }
        if self.peek() != Some(']') {
            return self.err(line, format!("expected ']' to close the tag {name}"));
        }
        self.bump();
        Ok((name, value, line))
    }

    /// The next movetext token and the line it starts on.
    pub(super) fn token(&mut self) -> Result<(Token, usize), PgnError> {
        self.skip_space();
        let line = self.line;
        let Some(c) = self.peek() else {
            return Ok((Token::End, line));
        };
        match c {
            '{' => {
                self.bump();
                let mut text = String::new();
                loop {
                    match self.bump() {
                        None => {
                            return self.err(
                                line,
                                "a comment opened here with '{' is never closed (expected '}')",
                            );
                        }
                        Some('}') => break,
                        Some(c) => text.push(c),
                    }
                }
                Ok((Token::Comment(text), line))
            }
            '(' => {
                self.bump();
                Ok((Token::Open, line))
            }
            ')' => {
                self.bump();
                Ok((Token::Close, line))
            }
            '[' => {
                // A tag section starts a line; anywhere else a '[' is a mistake.
                let before = self.text.get(..self.pos).unwrap_or("");
                let line_start = before
                    .rsplit('\n')
                    .next()
                    .is_none_or(|l| l.trim().is_empty());
                if line_start {
                    Ok((Token::TagStart, line))
                } else {
                    self.err(
                        line,
                        "'[' among the moves (tags such as [Event \"...\"] start a line before the moves)",
                    )
                }
            }
            '$' => {
                self.bump();
                let mut digits = String::new();
                while let Some(c) = self.peek().filter(|c| c.is_ascii_digit()) {
                    self.bump();
                    digits.push(c);
                }
                if digits.is_empty() {
                    return self.err(line, "expected a number after '$' (a NAG such as $1)");
                }
                match digits.parse::<u8>() {
                    Ok(n) => Ok((Token::Nag(n), line)),
                    Err(_) => self.err(
                        line,
                        format!("${digits} is not a NAG (they are numbered 0 to 255)"),
                    ),
                }
            }
            '}' | ']' => {
                self.bump();
                self.err(line, format!("'{c}' without a matching opening bracket"))
            }
            _ => {
                let mut s = String::new();
                while let Some(c) = self.peek() {
                    if c.is_whitespace() || "{}()[];$".contains(c) {
                        break;
                    }
                    s.push(c);
                    self.bump();
                }
                Ok((Token::Symbol(s), line))
            }
        }
    }

    fn read(mut self) -> Result<Game, PgnError> {
        // --- tags ---
        let mut tags: Vec<(String, String, usize)> = Vec::new();
        // Comments since the last move of the main line: they belong to it (or before the
        // first move, to the game), unless the last one is the reason the game ended.
        let mut pending: Vec<String> = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some('[') => tags.push(self.tag()?),
                // A comment before or between the tags (some exporters write one); one
                // after the tags is about the game.
                Some('{') => {
                    if let (Token::Comment(text), _) = self.token()?
                        && !tags.is_empty()
                    {
                        pending.push(text);
                    }
                }
                Some(_) | None => break,
            }
        }
        let movetext_line = self.line;
        if tags.is_empty() && self.peek().is_none() {
            return self.err(
                movetext_line,
                "no game found (expected tags such as [Event \"...\"] or moves such as 1. e4)",
            );
        }

        let tag = |name: &str| tags.iter().rev().find(|(n, _, _)| n == name);
        let mut game = match tag("FEN") {
            Some((_, fen, line)) => match Board::from_fen(fen) {
                Ok(b) => Game::from_board(b),
                Err(e) => return self.err(*line, format!("the FEN tag is not a position: {e}")),
            },
            None => Game::new(),
        };
        if let Some((_, v, line)) = tag("Variant") {
            let v = v.to_ascii_lowercase();
            if !["standard", "chess", "normal", "from position", ""].contains(&v.as_str()) {
                return self.err(
                    *line,
                    format!("the variant '{v}' is not supported (only standard chess)"),
                );
            }
        }
        game.tags = Tags {
            event: "?".to_string(),
            site: "?".to_string(),
            date: "????.??.??".to_string(),
            round: "?".to_string(),
            white: "?".to_string(),
            black: "?".to_string(),
            other: Vec::new(),
        };
        for (name, value, _) in &tags {
            match name.as_str() {
                "Result" | "SetUp" | "FEN" => {}
                "TimeControl" if TimeControl::from_pgn_tag(value).is_some() => {
                    game.time_control = TimeControl::from_pgn_tag(value);
                }
                _ => game.tags.set(name, value),
            }
        }

        // --- movetext ---
        // Open variations: the line each starts on, and for one that follows a move of the
        // main line, its moves so far on its own board (`None` once a move does not read:
        // the variation is dropped, the game still reads).
        let mut variation_lines: Vec<usize> = Vec::new();
        let mut variation: Option<(Board, Vec<Move>)> = None;
        let mut result_token: Option<String> = None;
        let mut moves_seen = false;
        loop {
            let (tok, line) = self.token()?;
            match tok {
                Token::End | Token::TagStart => {
                    if let Some(&open) = variation_lines.last() {
                        return self.err(
                            open,
                            "the variation opened here with '(' is never closed (expected ')')",
                        );
                    }
                    break;
                }
                Token::Open => {
                    if !moves_seen {
                        return self.err(line, "a variation '(' must follow a move");
                    }
                    if variation_lines.is_empty() {
                        let mut before = game.board().clone();
                        before.unmake();
                        variation = Some((before, Vec::new()));
                    }
                    variation_lines.push(line);
                }
                Token::Close => {
                    if variation_lines.pop().is_none() {
                        return self.err(line, "')' without an opening '('");
                    }
                    if variation_lines.is_empty()
                        && let Some((_, moves)) = variation.take()
                        && !moves.is_empty()
                        && let Some(pm) = game.moves.last_mut()
                    {
                        pm.annotations.variations.push(moves);
                    }
                }
                Token::Nag(n) => {
                    if variation_lines.is_empty()
                        && let Some(pm) = game.moves.last_mut()
                    {
                        pm.annotations.nags.push(n);
                    }
                }
                Token::Comment(text) => {
                    if variation_lines.is_empty() {
                        pending.push(text);
                    }
                }
                Token::Symbol(sym) => {
                    if !variation_lines.is_empty() {
                        // Only the main line of a variation that follows the main line is
                        // kept; deeper ones, and annotations inside, are skipped.
                        let san = strip_move_number(&sym);
                        if variation_lines.len() > 1
                            || san.is_empty()
                            || is_annotation(san)
                            || result_of(&sym).is_some()
                        {
                            continue;
                        }
                        let (san, _) = split_glyph(san);
                        if let Some((board, moves)) = &mut variation {
                            match board.parse_san(san) {
                                Ok(m) => {
                                    board.make(m);
                                    moves.push(m);
                                }
                                Err(_) => variation = None,
                            }
                        }
                        continue;
                    }
                    if let Some(r) = result_of(&sym) {
                        result_token = Some(r.to_string());
                        break;
                    }
                    let san = strip_move_number(&sym);
                    if san.is_empty() {
                        continue;
                    }
                    if is_annotation(san) {
                        if let Some(pm) = game.moves.last_mut() {
                            pm.annotations.nags.extend(glyph_nag(san));
                        }
                        continue;
                    }
                    if san == "--" || san == "Z0" {
                        return self.err(
                            line,
                            format!("'{sym}' is a null move, which a game cannot contain"),
                        );
                    }
                    let (san, glyph) = split_glyph(san);
                    moves_seen = true;
                    flush_comments(&mut game, &mut pending);
                    let context = match game.ply().checked_sub(1) {
                        Some(i) => format!(
                            "after {}",
                            game.numbered_san(i).unwrap_or_default().replace(". ", ".")
                        ),
                        None => "at the start".to_string(),
                    };
                    if let Some(end) = game.result().filter(|r| !r.termination.is_claimable()) {
                        return self.err(
                            line,
                            format!("'{san}' cannot follow: the game is over ({context}): {end}"),
                        );
                    }
                    let mv = match game.board().parse_san(san) {
                        Ok(m) => m,
                        Err(e) => {
                            // Both kinds say "<san>: why"; the PGN error names the move itself.
                            let text = e.to_string();
                            let why = text.strip_prefix(&format!("{san}: ")).unwrap_or(&text);
                            let message = match e {
                                MoveParseError::Syntax(_) => format!(
                                    "expected a move (SAN such as Nf3), a move number, a comment or a result, found '{sym}' ({why})"
                                ),
                                MoveParseError::Illegal(_) => format!(
                                    "'{san}' is not a legal move in this position ({context}): {why}"
                                ),
                            };
                            return self.err(line, message);
                        }
                    };
                    if let Err(e) = game.play_past_claimable_draw(mv) {
                        return self
                            .err(line, format!("'{san}' cannot be played ({context}): {e}"));
                    }
                    if let Some(pm) = game.moves.last_mut() {
                        pm.annotations.nags.extend(glyph.and_then(glyph_nag));
                    }
                }
            }
        }

        // --- result ---
        let recorded = result_token
            .as_deref()
            .or_else(|| tag("Result").map(|(_, v, _)| v.as_str()))
            .and_then(Outcome::from_pgn);
        // The recorded result stands unless the position itself ended the game (mate,
        // stalemate, dead position); an unclaimed repetition or fifty-move draw does not.
        if let Some(outcome) = recorded
            && game.result().is_none_or(|r| r.termination.is_claimable())
        {
            let time_forfeit =
                tag("Termination").is_some_and(|(_, v, _)| v.eq_ignore_ascii_case("time forfeit"));
            let termination = pending
                .last()
                .and_then(|c| parse_reason(c, outcome))
                .or_else(|| match (time_forfeit, outcome.winner()) {
                    (true, Some(w)) => Some(Termination::FlagFall { loser: w.flip() }),
                    _ => None,
                })
                .unwrap_or(Termination::Recorded);
            game.declared = Some(GameEnd {
                outcome,
                termination,
            });
        }
        // The reason the writer puts before the result is not a comment on the last move.
        if let Some(end) = game.final_result()
            && pending.last().is_some_and(|c| c.trim() == end.reason())
        {
            pending.pop();
        }
        flush_comments(&mut game, &mut pending);
        Ok(game)
    }
}

/// Gives the comments read since the last move to it (or, before the first move, to the
/// game).
fn flush_comments(game: &mut Game, pending: &mut Vec<String>) {
    for text in pending.drain(..) {
        match game.moves.last_mut() {
            Some(pm) => absorb_comment(pm, &text),
            None => {
                let words: Vec<&str> = text.split_whitespace().collect();
                if !words.is_empty() {
                    let free = words.join(" ");
                    game.comment_before = Some(match game.comment_before.take() {
                        Some(before) => format!("{before} {free}"),
                        None => free,
                    });
                }
            }
        }
    }
}

/// The NAG of a move or position glyph written as text (`!?` is $5, `+-` is $18); `None`
/// for glyphs without one here.
pub(super) fn glyph_nag(glyph: &str) -> Option<u8> {
    Some(match glyph {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        "=" => 10,
        "∞" => 13,
        "+=" | "⩲" => 14,
        "=+" | "⩱" => 15,
        "±" => 16,
        "∓" => 17,
        "+-" => 18,
        "-+" => 19,
        _ => return None,
    })
}

/// `Nf3!?` → (`Nf3`, `Some("!?")`): a move glyph written onto the move.
pub(super) fn split_glyph(san: &str) -> (&str, Option<&str>) {
    let body = san.trim_end_matches(['!', '?']);
    if body.len() == san.len() || body.is_empty() {
        (san, None)
    } else {
        (body, Some(&san[body.len()..]))
    }
}

pub(super) fn result_of(sym: &str) -> Option<&'static str> {
    match sym {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "½-½" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

/// `12.`, `12...`, `12.e4` → the part after the number (empty for a bare number).
pub(super) fn strip_move_number(sym: &str) -> &str {
    let rest = sym.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() == sym.len() {
        return sym.trim_start_matches(['.', '…']);
    }
    if rest.is_empty() {
        return rest;
    }
    if rest.starts_with(['.', '…']) {
        rest.trim_start_matches(['.', '…'])
    } else {
        sym
    }
}

/// Annotation glyphs written as their own token: `!?`, `+-`, `=`, `±`...
pub(super) fn is_annotation(sym: &str) -> bool {
    sym != "--" && sym.chars().all(|c| "!?+-=±∓∞⩲⩱□⨀⟳→↑⇆∆⌓".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_notes_read_back() {
        for (text, score) in [
            ("+0.29/12", Score::Cp(29)),
            ("-1.50/7", Score::Cp(-150)),
            ("+0.00/1", Score::Cp(0)),
            ("#3/12", Score::Mate(3)),
            ("#-2/9 [%clk 0:01:00]", Score::Mate(-2)),
        ] {
            let note = parse_engine_note(text).unwrap();
            assert_eq!(note.score, score, "{text}");
            let back = format!("{}/{}", score_text(note.score), note.depth);
            assert_eq!(back, text.split_whitespace().next().unwrap());
        }
        // The form some GUIs write is read as the same mate.
        for (text, score) in [("+M3/12", Score::Mate(3)), ("-M2/9", Score::Mate(-2))] {
            assert_eq!(parse_engine_note(text).unwrap().score, score, "{text}");
        }
        for junk in [
            "sf10 +20cp (white)",
            "+0.2/3",
            "/",
            "+/5",
            "book",
            "+1.00/x",
        ] {
            assert_eq!(parse_engine_note(junk), None, "{junk}");
        }
        let read = |text: &str| {
            let mut g = Game::from_pgn("1. e4 *").unwrap();
            absorb_comment(&mut g.moves[0], text);
            g.moves[0].clone()
        };
        assert_eq!(
            read("[%clk 1:02:03]").clock,
            Some(Duration::from_secs(3723))
        );
        let pm = read("+0.10/3 [%clk 0:00:09.5]  well  played");
        assert_eq!(pm.clock, Some(Duration::from_secs(9)));
        assert_eq!(pm.engine.map(|n| n.depth), Some(3));
        assert_eq!(pm.annotations.comment.as_deref(), Some("well played"));
        let pm = read("[%clk x]");
        assert_eq!(
            (pm.clock, pm.annotations.comment.as_deref()),
            (None, Some("[%clk x]"))
        );
        for (text, score) in [
            ("[%eval 0.35]", Score::Cp(35)),
            ("[%eval -1.2]", Score::Cp(-120)),
            ("[%eval +3]", Score::Cp(300)),
            ("[%eval 0.125]", Score::Cp(13)),
            ("[%eval #3]", Score::Mate(3)),
            ("[%eval #-2]", Score::Mate(-2)),
        ] {
            let pm = read(text);
            assert_eq!(
                (pm.annotations.eval, pm.annotations.comment),
                (Some(score), None),
                "{text}"
            );
        }
        for junk in ["[%eval inf]", "[%eval 1e5]", "[%eval #x]", "[%eval]"] {
            assert_eq!(read(junk).annotations.eval, None, "{junk}");
        }
        assert_eq!(eval_text(Score::Cp(-120)), "-1.20");
        assert_eq!(eval_text(Score::Cp(-5)), "-0.05");
        assert_eq!(eval_text(Score::Cp(35)), "0.35");
        assert_eq!(eval_text(Score::Mate(-2)), "#-2");
    }

    #[test]
    fn move_numbers_are_stripped() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("12"), "");
        assert_eq!(strip_move_number("1.e4"), "e4");
        assert_eq!(strip_move_number("3...Nf6"), "Nf6");
        assert_eq!(strip_move_number("..."), "");
        assert_eq!(strip_move_number("Nf3"), "Nf3");
        assert_eq!(strip_move_number("0-0"), "0-0");
    }
}
