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
//! Import reads the first game's main line. Comments (`{}` and `;`), escape lines (`%`),
//! NAGs (`$1`), annotation glyphs (`!?`) and variations (`( ... )`, nested) are skipped.
//! Anything else that is not a move, a move number or a result is an error naming the line
//! and what was expected. Reading builds a new `Game`, so a failure leaves the caller's game
//! as it was.

use std::fmt;
use std::time::Duration;

use super::{EngineNote, Game, GameEnd, Outcome, Tags, Termination, TimeControl};
use crate::chess::notation::MoveParseError;
use crate::chess::{Board, Color};
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
fn escape_tag(value: &str) -> String {
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

/// E as the comment writes it: `+0.29`, `-1.50`, or `+M3` / `-M2` for mates (the form
/// common GUIs read).
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(_) => score.to_string(),
        Score::Mate(n) if n >= 0 => format!("+M{n}"),
        Score::Mate(n) => format!("-M{}", n.unsigned_abs()),
    }
}

fn clk_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// Reads `+0.29/12` (or `+M3/12`) at the start of a comment.
fn parse_engine_note(comment: &str) -> Option<EngineNote> {
    let first = comment.split_whitespace().next()?;
    let (score, depth) = first.split_once('/')?;
    let depth: u32 = depth.parse().ok()?;
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

/// Reads `[%clk 0:04:55]` anywhere in a comment.
fn parse_clk(comment: &str) -> Option<Duration> {
    let rest = &comment[comment.find("[%clk")? + 5..];
    let value = rest.trim_start().split(']').next()?.trim();
    let mut secs: u64 = 0;
    for part in value.split(':') {
        let whole = part.split('.').next()?;
        secs = secs.checked_mul(60)?.checked_add(whole.parse().ok()?)?;
    }
    Some(Duration::from_secs(secs))
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
        _ => {
            if let Some(who) = c.strip_suffix(" resigns") {
                Termination::Resignation { loser: side(who)? }
            } else if let Some((who, _)) = c.split_once("'s flag fell") {
                Termination::FlagFall { loser: side(who)? }
            } else {
                return None;
            }
        }
    };
    // Only believe a reason that agrees with the result token.
    let fits = match t {
        Termination::Resignation { loser } => outcome == Outcome::win_for(loser.flip()),
        Termination::DrawAgreed => outcome == Outcome::Draw,
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
        let mut after_comment = false;
        for (i, pm) in self.moves().iter().enumerate() {
            // A move number stays on the line of its move.
            let (side, number) = self.move_number(i);
            tokens.push(match side {
                Color::White => format!("{number}. {}", pm.san),
                Color::Black if i == 0 || after_comment => format!("{number}... {}", pm.san),
                Color::Black => pm.san.clone(),
            });
            let mut comment = Vec::new();
            if let Some(note) = pm.engine {
                comment.push(format!("{}/{}", score_text(note.score), note.depth));
            }
            if let Some(clk) = pm.clock {
                comment.push(format!("[%clk {}]", clk_text(clk)));
            }
            after_comment = !comment.is_empty();
            if after_comment {
                tokens.push(format!("{{{}}}", comment.join(" ")));
            }
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
}

/// A symbol, comment or bracket in PGN movetext, with the line it starts on.
#[derive(Debug)]
enum Token {
    Symbol(String),
    Comment(String),
    Open,
    Close,
    Nag,
    TagStart,
    End,
}

/// Reads from the text in place (byte offsets), so a large file costs nothing beyond its
/// first game.
struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Reader<'a> {
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

    fn peek(&self) -> Option<char> {
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
    fn skip_space(&mut self) {
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
    fn tag(&mut self) -> Result<(String, String, usize), PgnError> {
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
    fn token(&mut self) -> Result<(Token, usize), PgnError> {
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
                let mut digits = 0;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.bump();
                    digits += 1;
                }
                if digits == 0 {
                    return self.err(line, "expected a number after '$' (a NAG such as $1)");
                }
                Ok((Token::Nag, line))
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
        loop {
            self.skip_space();
            match self.peek() {
                Some('[') => tags.push(self.tag()?),
                // A comment before or between the tags (some exporters write one).
                Some('{') => {
                    self.token()?;
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
        let mut variation_lines: Vec<usize> = Vec::new();
        let mut result_token: Option<String> = None;
        let mut last_comment: Option<String> = None;
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
                    variation_lines.push(line);
                }
                Token::Close => {
                    if variation_lines.pop().is_none() {
                        return self.err(line, "')' without an opening '('");
                    }
                }
                Token::Nag => {}
                Token::Comment(text) => {
                    if variation_lines.is_empty() {
                        if let Some(i) = game.ply().checked_sub(1) {
                            let pm = &mut game.moves[i];
                            if pm.engine.is_none() {
                                pm.engine = parse_engine_note(&text);
                            }
                            if pm.clock.is_none() {
                                pm.clock = parse_clk(&text);
                            }
                        }
                        last_comment = Some(text);
                    }
                }
                Token::Symbol(sym) => {
                    if !variation_lines.is_empty() {
                        continue;
                    }
                    if let Some(r) = result_of(&sym) {
                        result_token = Some(r.to_string());
                        break;
                    }
                    let san = strip_move_number(&sym);
                    if san.is_empty() || is_annotation(san) {
                        continue;
                    }
                    if san == "--" || san == "Z0" {
                        return self.err(
                            line,
                            format!("'{sym}' is a null move, which a game cannot contain"),
                        );
                    }
                    moves_seen = true;
                    last_comment = None;
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
            let termination = last_comment
                .as_deref()
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
        Ok(game)
    }
}

fn result_of(sym: &str) -> Option<&'static str> {
    match sym {
        "1-0" => Some("1-0"),
        "0-1" => Some("0-1"),
        "1/2-1/2" | "½-½" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

/// `12.`, `12...`, `12.e4` → the part after the number (empty for a bare number).
fn strip_move_number(sym: &str) -> &str {
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
fn is_annotation(sym: &str) -> bool {
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
            ("+M3/12", Score::Mate(3)),
            ("-M2/9 [%clk 0:01:00]", Score::Mate(-2)),
        ] {
            let note = parse_engine_note(text).unwrap();
            assert_eq!(note.score, score, "{text}");
            let back = format!("{}/{}", score_text(note.score), note.depth);
            assert_eq!(back, text.split_whitespace().next().unwrap());
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
        assert_eq!(parse_clk("[%clk 1:02:03]"), Some(Duration::from_secs(3723)));
        assert_eq!(
            parse_clk("+0.10/3 [%clk 0:00:09.5]"),
            Some(Duration::from_secs(9))
        );
        assert_eq!(parse_clk("[%clk x]"), None);
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
