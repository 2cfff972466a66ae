//! The log pane: the whole session, time-stamped, newest at the bottom, wrapped to the pane
//! and scrollable (the scroll offset counts wrapped rows up from the bottom, so a reader who
//! scrolled back keeps their place while new lines arrive).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::{App, LogKind, Pane};

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

fn kind_style(app: &App, kind: LogKind) -> Style {
    let t = &app.theme;
    match kind {
        LogKind::Info => t.dim(),
        LogKind::Iteration => t.text(),
        LogKind::Move => t.accent().add_modifier(Modifier::BOLD),
        LogKind::Result => t.title(false),
        LogKind::Error => t.error(),
    }
}

/// Log lines as wrapped rows, the stamp on the first row, the continuation indented; only
/// the newest lines, enough for `need` rows (`usize::MAX`: all of them). A long session
/// has tens of thousands of lines, and the screen redraws 20 times a second while the
/// engine thinks.
pub fn rows(app: &App, width: usize, need: usize) -> Vec<Line<'static>> {
    const STAMP: usize = 9; // "HH:MM:SS "
    let text_width = width.saturating_sub(STAMP).max(8);
    let mut newest_first: Vec<Vec<Line<'static>>> = Vec::new();
    let mut count = 0;
    for line in app.log.iter().rev() {
        if count >= need {
            break;
        }
        let style = kind_style(app, line.kind);
        let wrapped: Vec<Line<'static>> = wrap_text(&line.text, text_width)
            .into_iter()
            .enumerate()
            .map(|(i, part)| {
                let lead = if i == 0 {
                    Span::styled(format!("{} ", line.stamp), app.theme.dim())
                } else {
                    Span::raw(" ".repeat(STAMP))
                };
                Line::from(vec![lead, Span::styled(part, style)])
            })
            .collect();
        count += wrapped.len();
        newest_first.push(wrapped);
    }
    newest_first.into_iter().rev().flatten().collect()
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let focused = app.focus == Pane::Log;
    let theme = &app.theme;
    let inner_w = area.width.saturating_sub(2) as usize;
    let visible = area.height.saturating_sub(2) as usize;
    // Following the newest line needs only the tail; scrolling back needs the whole count.
    let following = app.log_scroll == 0;
    let all = rows(app, inner_w, if following { visible } else { usize::MAX });
    let max_scroll = if following {
        // Unknown without wrapping everything; the first scroll up finds out.
        usize::MAX
    } else {
        all.len().saturating_sub(visible)
    };
    let offset = app.log_scroll.min(all.len().saturating_sub(visible));
    app.log_view_rows.set(visible);
    app.log_max_scroll.set(max_scroll);
    let end = all.len() - offset;
    let start = end.saturating_sub(visible);
    let mut block = super::pane_block(app, " Log ", focused);
    if offset > 0 {
        block = block.title(Span::styled(
            format!(" {offset} newer rows below (PgDn) "),
            theme.dim(),
        ));
    }
    let lines: Vec<Line> = all.into_iter().skip(start).take(end - start).collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

#[cfg(test)]
mod tests {
    use super::wrap_text;

    #[test]
    fn wraps_at_spaces_and_cuts_long_words() {
        assert_eq!(wrap_text("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap_text("abcdefgh", 3), vec!["abc", "def", "gh"]);
        assert_eq!(wrap_text("", 4), vec![""]);
        assert_eq!(wrap_text("a bcdefg", 4), vec!["a", "bcde", "fg"]);
    }
}
