//! The log pane: the session's lines, time-stamped, newest at the bottom, wrapped to the
//! pane and scrollable. The wrapping is the log buffer's (once per width, cached); this
//! only styles the rows on screen.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub use crate::tui::app::log::wrap_text;
use crate::tui::app::log::{LogLine, STAMP_WIDTH};
use crate::tui::app::{App, LogKind, Pane};
use crate::tui::layout;

fn kind_style(app: &App, kind: LogKind) -> Style {
    let t = &app.theme();
    match kind {
        LogKind::Info => t.dim(),
        LogKind::Iteration => t.text(),
        LogKind::Move => t.accent().add_modifier(Modifier::BOLD),
        LogKind::Result => t.title(false),
        LogKind::Error => t.error(),
    }
}

fn styled_row(app: &App, line: &LogLine, index: usize, text: String) -> Line<'static> {
    let lead = if index == 0 {
        Span::styled(format!("{} ", line.stamp), app.theme().dim())
    } else {
        Span::raw(" ".repeat(STAMP_WIDTH))
    };
    Line::from(vec![lead, Span::styled(text, kind_style(app, line.kind))])
}

/// The newest lines wrapped now, for a width the buffer has not cached (a frame drawn
/// without `App::resize`): only enough for `need` rows.
fn tail_rows(app: &App, width: usize, need: usize) -> Vec<Line<'static>> {
    let mut newest_first: Vec<Vec<Line<'static>>> = Vec::new();
    let mut count = 0;
    for line in app.log_buffer().lines().rev() {
        if count >= need {
            break;
        }
        let wrapped: Vec<Line<'static>> = wrap_text(&line.text, width)
            .into_iter()
            .enumerate()
            .map(|(i, part)| styled_row(app, line, i, part))
            .collect();
        count += wrapped.len();
        newest_first.push(wrapped);
    }
    let mut rows: Vec<Line<'static>> = newest_first.into_iter().rev().flatten().collect();
    let extra = rows.len().saturating_sub(need);
    rows.drain(..extra);
    rows
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let focused = app.screen().focus() == Pane::Log;
    let theme = &app.theme();
    let width = layout::log_text_width(area);
    let visible = layout::log_rows(area);
    let cached = (app.log_buffer().wrap_width() == width)
        .then(|| app.log_buffer().visible_rows(visible))
        .flatten();
    let (lines, offset) = match cached {
        Some(rows) => (
            rows.into_iter()
                .map(|(line, i, text)| styled_row(app, &line, i, text))
                .collect(),
            app.log_buffer()
                .scroll()
                .min(app.log_buffer().max_scroll(visible)),
        ),
        None => (tail_rows(app, width, visible), 0),
    };
    let title = super::legend::titled(" Log ", focused);
    let mut block = super::pane_block(app, &title, focused);
    if offset > 0 {
        block = block.title(Span::styled(
            format!(" {offset} newer rows below (PgDn) "),
            theme.dim(),
        ));
    }
    let lines: Vec<Line> = lines;
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
