//! The review view (in place of the log pane after `:review`): each side's accuracy and
//! counts, then every move with its mark (`?!`, `?`, `??`, or `!` for the only move that
//! held), the evaluation after it (White's view), the winning chances it gave away and,
//! for a marked move, the engine's better move and its line. The chosen row is in reverse
//! video.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::pane_block;
use crate::chess::Color;
use crate::tui::app::App;

/// The view's rows as text, chosen row included (tests read these).
pub fn rows(app: &App) -> Vec<String> {
    let Some(review) = app.review().of_game(app.game().id()) else {
        return vec!["no review of this game yet (:review or F4)".to_string()];
    };
    let mut out = Vec::new();
    for (side, s) in [(Color::White, &review.white), (Color::Black, &review.black)] {
        out.push(format!(
            "{:<5} {:>5.1}%  ?! {}  ? {}  ?? {}",
            side.name(),
            s.accuracy,
            s.inaccuracies,
            s.mistakes,
            s.blunders
        ));
    }
    for m in &review.moves {
        let board = app.game().position_at(m.index);
        let san = |mv| {
            board
                .as_ref()
                .map_or_else(|| format!("{mv}"), |b| b.san(mv))
        };
        let numbered = app
            .game()
            .numbered_san(m.index)
            .unwrap_or_else(|| san(m.played));
        let mark = match (m.judgement, m.only_move) {
            (Some(j), _) => j.glyph(),
            (None, true) => "!",
            (None, false) => "",
        };
        let eval = m
            .eval_after
            .map_or_else(|| "mate".to_string(), |e| e.to_string());
        let mut row = format!(
            "{:<11} {eval:>6} {:>4.2}",
            format!("{numbered}{mark}"),
            m.chances_lost
        );
        if m.judgement.is_some()
            && let (Some(best), Some(b)) = (m.best, &board)
        {
            let line = b.san_line(&m.best_line);
            row.push_str(&format!("  better {}", b.san(best)));
            if line.len() > 1 {
                row.push_str(&format!(": {}", line.join(" ")));
            }
        }
        out.push(row);
    }
    out
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let all = rows(app);
    let header = all.len().min(2);
    let visible = area.height.saturating_sub(2) as usize;
    let selected = app.review().selected();
    let list_rows = visible.saturating_sub(header).max(1);
    // Keep the chosen move on screen.
    let first = selected.saturating_sub(list_rows.saturating_sub(1));
    let mut lines: Vec<Line> = all[..header]
        .iter()
        .map(|r| Line::from(Span::styled(r.clone(), t.title(false))))
        .collect();
    for (i, row) in all[header..].iter().enumerate().skip(first).take(list_rows) {
        let style = if i == selected {
            t.text().add_modifier(Modifier::REVERSED)
        } else if row.contains('?') {
            t.accent()
        } else {
            t.text()
        };
        lines.push(Line::from(Span::styled(row.clone(), style)));
    }
    let title = if app.review().browsing() {
        " Review — Esc: back to the game "
    } else {
        " Review — ↑↓ Enter Esc "
    };
    frame.render_widget(
        Paragraph::new(lines).block(pane_block(app, title, true)),
        area,
    );
}
