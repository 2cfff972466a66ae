//! The help overlay, generated from the key table and the command table so it cannot drift
//! from what the keys and commands do.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::tui::app::App;
pub use crate::tui::help::help_rows;
use crate::tui::layout;

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let rect = layout::help_overlay(area);
    frame.render_widget(Clear, rect);
    let block = super::pane_block(
        app,
        " Keys and commands (any key closes, Up/Down scroll) ",
        true,
    );
    let inner = block.inner(rect);
    let lines: Vec<Line> = crate::tui::help::help_lines(inner.width, app.club().is_on())
        .into_iter()
        .map(|(lead, part)| {
            Line::from(vec![
                Span::styled(lead, t.accent().add_modifier(Modifier::BOLD)),
                Span::styled(part, t.text()),
            ])
        })
        .collect();
    let scroll = app
        .screen()
        .help_scroll()
        .min(crate::tui::help::help_max_scroll(area, app.club().is_on()));
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((scroll as u16, 0))
            .style(t.text()),
        rect,
    );
}
