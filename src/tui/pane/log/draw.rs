//! Drawing the log pane. The wrapping is the log buffer's (once per width, cached); this
//! only styles the rows on screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::log::{LogBuffer, LogKind, LogLine, STAMP_WIDTH, wrap_text};
use crate::tui::pane::{DrawCtx, block, titled};
use crate::tui::theme::Theme;

fn kind_style(t: &Theme, kind: LogKind) -> Style {
    match kind {
        LogKind::Info => t.dim(),
        LogKind::Iteration => t.text(),
        LogKind::Move => t.accent().add_modifier(Modifier::BOLD),
        LogKind::Result => t.title(false),
        LogKind::Error => t.error(),
    }
}

fn styled_row(t: &Theme, line: &LogLine, index: usize, text: String) -> Line<'static> {
    let lead = if index == 0 {
        Span::styled(format!("{} ", line.stamp), t.dim())
    } else {
        Span::raw(" ".repeat(STAMP_WIDTH))
    };
    Line::from(vec![lead, Span::styled(text, kind_style(t, line.kind))])
}

/// The newest lines wrapped now, for a width the buffer has not cached (a frame drawn
/// without `App::resize`): only enough for `need` rows.
fn tail_rows(log: &LogBuffer, t: &Theme, width: usize, need: usize) -> Vec<Line<'static>> {
    let mut newest_first: Vec<Vec<Line<'static>>> = Vec::new();
    let mut count = 0;
    for line in log.lines().rev() {
        if count >= need {
            break;
        }
        let wrapped: Vec<Line<'static>> = wrap_text(&line.text, width)
            .into_iter()
            .enumerate()
            .map(|(i, part)| styled_row(t, line, i, part))
            .collect();
        count += wrapped.len();
        newest_first.push(wrapped);
    }
    let mut rows: Vec<Line<'static>> = newest_first.into_iter().rev().flatten().collect();
    let extra = rows.len().saturating_sub(need);
    rows.drain(..extra);
    rows
}

pub fn draw(frame: &mut Frame, area: Rect, log: &LogBuffer, ctx: &DrawCtx) {
    let theme = ctx.theme;
    let width = super::text_width(area);
    let visible = super::rows(area);
    let cached = (log.wrap_width() == width)
        .then(|| log.visible_rows(visible))
        .flatten();
    let (lines, offset) = match cached {
        Some(rows) => (
            rows.into_iter()
                .map(|(line, i, text)| styled_row(theme, &line, i, text))
                .collect(),
            log.scroll().min(log.max_scroll(visible)),
        ),
        None => (tail_rows(log, theme, width, visible), 0),
    };
    let title = titled(" Log ", ctx.focused);
    let mut block = block(theme, &title, ctx.focused);
    if offset > 0 {
        block = block.title(Span::styled(
            format!(" {offset} newer rows below (PgDn) "),
            theme.dim(),
        ));
    }
    let lines: Vec<Line> = lines;
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
