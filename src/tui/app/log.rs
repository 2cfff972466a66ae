//! The log buffer: the session's time-stamped lines, bounded, with each line wrapped once
//! per pane width and kept, so drawing a frame (20 a second while the engine thinks) costs
//! the rows on screen, not the length of the session.
//!
//! The scroll offset counts wrapped rows up from the bottom, so a reader who scrolled back
//! keeps their place while new lines arrive.

use std::collections::VecDeque;

/// How many lines the log keeps; older ones are dropped and counted in one note line.
pub const LOG_CAP: usize = 10_000;

/// The most bytes of one line's text: past it the line is cut (with `…`). Lines carry what
/// people type (chat, a refused move), so this bounds what one line of anyone's can cost.
pub const LOG_LINE_MAX: usize = 1024;

/// The most bytes of text the log keeps in all; past it the oldest lines are dropped too.
pub const LOG_BYTES: usize = 2 * 1024 * 1024;

/// The time stamp's columns on the first row of a line (`HH:MM:SS `); the continuation rows
/// are indented as far.
pub const STAMP_WIDTH: usize = 9;

/// What a log line is, for its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogKind {
    Info,
    Iteration,
    Move,
    Result,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// Local wall-clock time, `HH:MM:SS`.
    pub stamp: String,
    pub kind: LogKind,
    pub text: String,
}

/// The log's lines with their wrapped rows at one text width.
#[derive(Clone, Debug)]
pub struct LogBuffer {
    lines: VecDeque<LogLine>,
    cap: usize,
    /// Lines dropped from the front so far (shown as one note line on top).
    dropped: u64,
    /// The first line's stamp among the dropped, for the note.
    note_stamp: String,
    /// Wrapped rows of each line at `wrap_width` (0: no width known yet, nothing cached).
    wrapped: VecDeque<Vec<String>>,
    wrap_width: usize,
    /// Sum of `wrapped`'s row counts (the note's row not included).
    total_rows: usize,
    /// Wrapped rows up from the bottom (0: follow the newest line).
    scroll: usize,
    /// Bytes of text in `lines`.
    bytes: usize,
}

impl Default for LogBuffer {
    fn default() -> LogBuffer {
        LogBuffer::with_cap(LOG_CAP)
    }
}

impl LogBuffer {
    /// A buffer keeping at most `cap` lines (at least one).
    pub fn with_cap(cap: usize) -> LogBuffer {
        LogBuffer {
            lines: VecDeque::new(),
            cap: cap.max(1),
            dropped: 0,
            note_stamp: String::new(),
            wrapped: VecDeque::new(),
            wrap_width: 0,
            total_rows: 0,
            scroll: 0,
            bytes: 0,
        }
    }

    pub fn push(&mut self, mut line: LogLine) {
        cut_to(&mut line.text, LOG_LINE_MAX);
        if self.lines.len() == self.cap {
            self.drop_oldest();
        }
        while self.bytes + line.text.len() > LOG_BYTES && !self.lines.is_empty() {
            self.drop_oldest();
        }
        self.bytes += line.text.len();
        if self.wrap_width > 0 {
            let rows = wrap_text(&line.text, self.wrap_width);
            self.total_rows += rows.len();
            // A reader scrolled back keeps their place: the offset counts from the bottom.
            if self.scroll > 0 {
                self.scroll += rows.len();
            }
            self.wrapped.push_back(rows);
        } else if self.scroll > 0 {
            self.scroll += 1;
        }
        self.lines.push_back(line);
    }

    fn drop_oldest(&mut self) {
        if let Some(old) = self.lines.pop_front() {
            self.bytes -= old.text.len();
            if self.dropped == 0 {
                self.note_stamp = old.stamp;
            }
            self.dropped += 1;
        }
        if let Some(rows) = self.wrapped.pop_front() {
            self.total_rows -= rows.len();
        }
    }

    /// Bytes of text kept.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The lines kept (the note not included), oldest first.
    pub fn lines(&self) -> impl DoubleEndedIterator<Item = &LogLine> + ExactSizeIterator {
        self.lines.iter()
    }

    pub fn last(&self) -> Option<&LogLine> {
        self.lines.back()
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// How many older lines were dropped to keep the log within its cap.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The line standing for the dropped ones, shown above the oldest kept line.
    pub fn note(&self) -> Option<LogLine> {
        (self.dropped > 0).then(|| LogLine {
            stamp: self.note_stamp.clone(),
            kind: LogKind::Info,
            text: format!(
                "({} older line{} dropped: the log keeps {} lines, {} MB)",
                self.dropped,
                if self.dropped == 1 { "" } else { "s" },
                self.cap,
                LOG_BYTES / (1024 * 1024)
            ),
        })
    }

    /// Wraps every line at `text_width` columns, once: nothing happens when the width is
    /// the cached one, so calling this before every frame costs nothing after a resize.
    pub fn set_wrap_width(&mut self, text_width: usize) {
        let text_width = text_width.max(1);
        if text_width == self.wrap_width {
            return;
        }
        self.wrap_width = text_width;
        self.wrapped = self
            .lines
            .iter()
            .map(|l| wrap_text(&l.text, text_width))
            .collect();
        self.total_rows = self.wrapped.iter().map(Vec::len).sum();
        self.scroll = self.scroll.min(self.total_rows);
    }

    pub fn wrap_width(&self) -> usize {
        self.wrap_width
    }

    /// All wrapped rows at the cached width, the note's included.
    pub fn total_rows(&self) -> usize {
        self.total_rows + usize::from(self.dropped > 0)
    }

    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// Scrolls `by` rows up (older) or down, within the rows there are for a pane of
    /// `visible` rows.
    pub fn scroll_by(&mut self, by: usize, up: bool, visible: usize) {
        let max = self.max_scroll(visible);
        self.scroll = if up {
            (self.scroll + by).min(max)
        } else {
            self.scroll.min(max).saturating_sub(by)
        };
    }

    pub fn scroll_to(&mut self, top: bool, visible: usize) {
        self.scroll = if top { self.max_scroll(visible) } else { 0 };
    }

    pub fn max_scroll(&self, visible: usize) -> usize {
        self.total_rows().saturating_sub(visible)
    }

    /// The rows a pane of `visible` rows shows at the current scroll, oldest first, each as
    /// (its line, the row's index within the line, the row's text). Only the cached width
    /// is used; `None` when no width has been cached yet.
    pub fn visible_rows(&self, visible: usize) -> Option<Vec<(LogLine, usize, String)>> {
        if self.wrap_width == 0 {
            return None;
        }
        let offset = self.scroll.min(self.max_scroll(visible));
        let mut skip = offset;
        let mut out: Vec<(LogLine, usize, String)> = Vec::with_capacity(visible);
        'lines: for (line, rows) in self.lines.iter().zip(&self.wrapped).rev() {
            // Whole lines below the view are passed by their row count, not row by row.
            if skip >= rows.len() {
                skip -= rows.len();
                continue;
            }
            for (i, row) in rows.iter().enumerate().rev() {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                if out.len() == visible {
                    break 'lines;
                }
                out.push((line.clone(), i, row.clone()));
            }
        }
        if out.len() < visible
            && skip == 0
            && let Some(note) = self.note()
        {
            let text = note.text.chars().take(self.wrap_width).collect();
            out.push((note, 0, text));
        }
        out.reverse();
        Some(out)
    }
}

/// Cuts `text` to at most `max` bytes (between characters), ending it with `…` when cut.
fn cut_to(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push('…');
}

/// Splits `text` into rows of at most `width` characters at spaces; longer words are cut.
pub fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut rows = Vec::new();
    let mut cur = String::new();
    let mut cur_len = 0;
    for word in text.split(' ') {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let sep = usize::from(cur_len > 0);
            if cur_len + sep + word.len() <= width {
                if sep == 1 {
                    cur.push(' ');
                }
                cur.extend(word.iter());
                cur_len += sep + word.len();
                break;
            }
            if cur_len > 0 {
                rows.push(std::mem::take(&mut cur));
                cur_len = 0;
                continue;
            }
            // A word longer than the row: cut it.
            let rest = word.split_off(width);
            rows.push(word.iter().collect());
            word = rest;
        }
    }
    if cur_len > 0 || rows.is_empty() {
        rows.push(cur);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> LogLine {
        LogLine {
            stamp: "12:00:00".into(),
            kind: LogKind::Info,
            text: text.into(),
        }
    }

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        assert_eq!(wrap_text("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap_text("abcdefgh", 3), vec!["abc", "def", "gh"]);
        assert_eq!(wrap_text("", 4), vec![""]);
        assert_eq!(wrap_text("a bcdefg", 4), vec!["a", "bcde", "fg"]);
    }

    #[test]
    fn a_line_is_cut_to_its_bytes_and_the_log_to_its_budget() {
        let mut log = LogBuffer::default();
        log.set_wrap_width(80);
        log.push(line(&"é".repeat(LOG_LINE_MAX)));
        let first = &log.last().unwrap().text;
        assert!(first.len() <= LOG_LINE_MAX, "{}", first.len());
        assert!(first.ends_with('…'));
        let n = 3 * LOG_BYTES / LOG_LINE_MAX;
        for i in 0..n {
            log.push(line(&format!("{i} {}", "x".repeat(LOG_LINE_MAX))));
        }
        assert!(log.bytes() <= LOG_BYTES, "{}", log.bytes());
        let kept: usize = log.lines().map(|l| l.text.len()).sum();
        assert_eq!(kept, log.bytes());
        assert!(log.len() < LOG_CAP && log.dropped() > 0);
        assert!(log.last().unwrap().text.starts_with(&format!("{} ", n - 1)));
        let rows: usize = log.lines().map(|l| wrap_text(&l.text, 80).len()).sum();
        assert_eq!(
            log.total_rows(),
            rows + 1,
            "the wrapped rows follow, the note's too"
        );
    }

    #[test]
    fn the_log_keeps_its_cap_and_one_note_counts_the_dropped_lines() {
        let mut log = LogBuffer::default();
        for i in 0..LOG_CAP + 250 {
            log.push(line(&format!("line {i}")));
        }
        assert_eq!(log.len(), LOG_CAP);
        assert_eq!(log.dropped(), 250);
        assert_eq!(log.lines().next().unwrap().text, "line 250");
        assert_eq!(log.last().unwrap().text, format!("line {}", LOG_CAP + 249));
        assert_eq!(
            log.note().unwrap().text,
            "(250 older lines dropped: the log keeps 10000 lines, 2 MB)"
        );
    }

    #[test]
    fn scrolled_to_the_top_the_note_is_the_first_row() {
        let mut log = LogBuffer::with_cap(3);
        log.set_wrap_width(20);
        for i in 0..5 {
            log.push(line(&format!("line {i}")));
        }
        log.scroll_to(true, 2);
        let rows: Vec<String> = log
            .visible_rows(2)
            .unwrap()
            .into_iter()
            .map(|r| r.2)
            .collect();
        assert!(rows[0].starts_with("(2 older lines"), "{rows:?}");
        assert_eq!(rows[1], "line 2");
        let no_note = LogBuffer::with_cap(3);
        assert!(no_note.note().is_none());
    }

    #[test]
    fn wrapped_rows_follow_the_width_and_the_scroll_keeps_its_place() {
        let mut log = LogBuffer::with_cap(100);
        log.push(line("aa bb cc dd"));
        log.set_wrap_width(5);
        assert_eq!(log.total_rows(), 2);
        log.push(line("ee"));
        assert_eq!(log.total_rows(), 3);
        log.scroll_by(1, true, 1);
        assert_eq!(log.visible_rows(1).unwrap()[0].2, "cc dd");
        // A new line arrives: the reader still sees the same row.
        log.push(line("ff gg hh"));
        assert_eq!(log.visible_rows(1).unwrap()[0].2, "cc dd");
        log.set_wrap_width(20);
        assert_eq!(log.total_rows(), 3);
        assert_eq!(log.wrap_width(), 20);
        log.scroll_to(false, 1);
        assert_eq!(log.visible_rows(1).unwrap()[0].2, "ff gg hh");
    }
}
