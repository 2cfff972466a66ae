//! The focused pane's legend, drawn over the right-hand side where the pane is: each entry's
//! name in bold, then what it is.

use ratatui::Frame;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::tui::app::App;
use crate::tui::legend;

pub fn draw(frame: &mut Frame, app: &App) {
    let (Some(scroll), Some((which, rect))) = (app.screen().legend_scroll(), app.legend()) else {
        return;
    };
    let t = &app.theme();
    let title = format!(
        " {}: the numbers (↑↓ scroll, any key closes) ",
        which.name()
    );
    let block = super::pane_block(app, &title, true);
    let inner = block.inner(rect);
    let lines: Vec<Line> = legend::rows(which, inner.width as usize)
        .into_iter()
        .skip(scroll)
        .take(inner.height as usize)
        .map(|row| {
            let name: String = row.text.chars().take(row.name).collect();
            let rest: String = row.text.chars().skip(row.name).collect();
            Line::from(vec![
                Span::styled(name, t.accent().add_modifier(Modifier::BOLD)),
                Span::styled(rest, t.text()),
            ])
        })
        .collect();
    frame.render_widget(Clear, rect);
    frame.render_widget(Paragraph::new(lines).block(block).style(t.text()), rect);
}
