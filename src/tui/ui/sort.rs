//! The sort pane (seed 000): the moves of a position in generator order beside the order the
//! search tries them, each with its ordering score and the reasons that make it up. At the
//! root while the engine thinks, the lists are the search's own (updated every iteration);
//! stepping along the PV (←/→ with the pane focused) shows the ordering at deeper plies.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::engine::order::ScoredMove;
use crate::tui::app::{App, Pane, SortView};

/// The list rows a sort pane of `area` shows for `view` (the header lines take the rest).
pub fn list_rows(view: &SortView, area: Rect) -> usize {
    let header = 2 + usize::from(!view.pv.is_empty());
    (area.height.saturating_sub(2) as usize).saturating_sub(header)
}

/// `PV+10000 MVV/LVA+4`
pub fn reasons_text(m: &ScoredMove) -> String {
    m.reasons
        .iter()
        .map(|r| format!("{}{:+}", r.kind.label(), r.points))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One column entry, exactly `width` characters: number, move, score, reasons.
pub fn entry_text(n: usize, m: &ScoredMove, width: usize) -> String {
    let s = format!(
        "{n:>2} {:<5} {:>6} {}",
        m.mv.to_string(),
        m.score,
        reasons_text(m)
    );
    let mut s: String = s.chars().take(width).collect();
    let len = s.chars().count();
    s.extend(std::iter::repeat_n(' ', width - len));
    s
}

fn header_lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme;
    let v = &app.sort;
    let mut stats = vec![Span::styled(
        v.ply_label.clone(),
        t.text().add_modifier(Modifier::BOLD),
    )];
    match v.depth {
        Some(d) => stats.push(Span::styled(format!("  d{d}"), t.text())),
        None => stats.push(Span::styled("  no search yet", t.dim())),
    }
    if let Some(c) = v.first_move_cutoff {
        stats.push(Span::styled(
            format!("  1st-cut {:.0}%", c * 100.0),
            t.accent(),
        ));
    }
    if let Some(b) = v.branching.filter(|b| *b > 0.0) {
        stats.push(Span::styled(format!("  branch {b:.1}"), t.accent()));
    }
    stats.push(Span::styled(format!("  {}", app.scheme), t.dim()));
    let mut lines = vec![Line::from(stats)];
    if !v.pv.is_empty() {
        let mut pv = vec![Span::styled("PV ", t.dim())];
        for (i, m) in v.pv.iter().enumerate() {
            let text = format!("{m} ");
            pv.push(if i == v.step {
                Span::styled(
                    text,
                    t.accent()
                        .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                )
            } else if i < v.step {
                Span::styled(text, t.dim())
            } else {
                Span::styled(text, t.text())
            });
        }
        if v.step == v.pv.len() {
            pv.push(Span::styled("(end)", t.accent()));
        }
        lines.push(Line::from(pv));
    }
    lines
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let focused = app.focus == Pane::Sort;
    let t = &app.theme;
    let block = super::pane_block(app, " Sort ", focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = header_lines(app);
    let col = (inner.width.saturating_sub(1) / 2) as usize;
    let searched = app.sort.depth.is_some() && app.sort.step == 0;
    let right_title = if searched { "search order" } else { "sorted" };
    let head = |s: &str| {
        let mut s: String = s.chars().take(col).collect();
        let n = s.chars().count();
        s.extend(std::iter::repeat_n(' ', col - n));
        s
    };
    lines.push(Line::from(vec![
        Span::styled(
            head("generator order"),
            t.dim().add_modifier(Modifier::UNDERLINED),
        ),
        Span::styled("│", t.border(false)),
        Span::styled(
            head(right_title),
            t.dim().add_modifier(Modifier::UNDERLINED),
        ),
    ]));
    let v = &app.sort;
    let rows = v.generated.len().max(v.sorted.len());
    let visible = (inner.height as usize).saturating_sub(lines.len());
    let max_scroll = rows.saturating_sub(visible);
    let scroll = app.sort.scroll.min(max_scroll);
    let style_for = |m: &ScoredMove| -> Style {
        if Some(m.mv) == v.best {
            t.accent().add_modifier(Modifier::BOLD)
        } else {
            t.text()
        }
    };
    if rows == 0 {
        lines.push(Line::from(Span::styled("no legal moves", t.dim())));
    }
    for i in scroll..rows.min(scroll + visible) {
        let left = v.generated.get(i).map_or_else(
            || Span::raw(" ".repeat(col)),
            |m| Span::styled(entry_text(i + 1, m, col), style_for(m)),
        );
        let right = v.sorted.get(i).map_or_else(
            || Span::raw(" ".repeat(col)),
            |m| Span::styled(entry_text(i + 1, m, col), style_for(m)),
        );
        lines.push(Line::from(vec![
            left,
            Span::styled("│", t.border(false)),
            right,
        ]));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
