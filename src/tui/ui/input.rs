//! The input line: a prompt and the text being typed (tui-input keeps the text and cursor;
//! this scrolls it horizontally so the cursor stays visible).

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::tui::app::App;
use crate::tui::keys::Focus;

pub const PROMPT: &str = "› ";
pub const ASCII_PROMPT: &str = "> ";

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let focused = app.screen().focus() == Focus::INPUT;
    let prompt = if app.prefs().settings().ascii {
        ASCII_PROMPT
    } else {
        PROMPT
    };
    let prompt_w = prompt.chars().count() as u16;
    let width = area.width.saturating_sub(prompt_w + 1) as usize;
    let scroll = app.input().input().visual_scroll(width);
    let value: String = app
        .input()
        .value()
        .chars()
        .skip(scroll)
        .take(width)
        .collect();
    let mut spans = vec![Span::styled(
        prompt,
        if focused {
            t.accent().add_modifier(Modifier::BOLD)
        } else {
            t.dim()
        },
    )];
    if let (true, Some(premove)) = (value.is_empty(), app.play().assist().premove()) {
        // The move typed while the engine thinks, kept for when it has moved.
        spans.push(Span::styled(
            format!("premove {premove}: played after the engine's move (Esc cancels)"),
            t.accent(),
        ));
    } else if value.is_empty() && focused {
        spans.push(Span::styled(
            "move (e2e4, Nf3) or :command — F1 help",
            t.dim(),
        ));
    } else if app.input().is_refused() {
        // Refused text stays to be corrected, marked: a character typed replaces it.
        spans.push(Span::styled(
            value,
            t.error().add_modifier(Modifier::UNDERLINED),
        ));
    } else {
        spans.push(Span::styled(value, t.text()));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
    if focused && !app.screen().help_visible() {
        let x =
            area.x + prompt_w + (app.input().input().visual_cursor().saturating_sub(scroll)) as u16;
        frame.set_cursor_position(Position::new(x.min(area.right().saturating_sub(1)), area.y));
    }
}
