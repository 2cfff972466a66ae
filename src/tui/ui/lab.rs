//! The lab view: the ordering lab's table (one row per scheme and profile) with a bar of
//! nodes on a log scale in each row, the best run marked, and a progress bar while it runs.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Gauge, Paragraph};

use super::pane_block;
use crate::engine::jobs::lab::{LabRun, table_row};
use crate::tui::app::App;
use crate::tui::app::lab::LabView;
use crate::tui::theme::Theme;

/// Columns in the order they are dropped last: (header, cell index of `table_row`, width).
const COLUMNS: [(&str, usize, usize); 10] = [
    ("scheme", 0, 9),
    ("prof", 1, 4),
    ("nodes", 2, 10),
    ("best", 8, 5),
    ("score", 9, 6),
    ("1stcut", 5, 6),
    ("EBF", 7, 5),
    ("idx", 6, 5),
    ("time", 3, 6),
    ("n/s", 4, 6),
];

/// The columns that fit in `width`, keeping room for a bar of at least 4 cells.
fn fitting(width: usize) -> Vec<(&'static str, usize, usize)> {
    let mut used = 0;
    let mut cols = Vec::new();
    for c in COLUMNS {
        if used + c.2 + 1 + 4 > width && cols.len() >= 3 {
            break;
        }
        used += c.2 + 1;
        cols.push(c);
    }
    // Table order: the row's own order (scheme, profile, nodes, time, ...).
    cols.sort_by_key(|c| c.1);
    cols
}

fn cell(text: &str, width: usize, left: bool) -> String {
    let t: String = text.chars().take(width).collect();
    if left {
        format!("{t:<width$}")
    } else {
        format!("{t:>width$}")
    }
}

/// The bar for `nodes` over `width` cells on a log scale that starts one decade below the
/// fewest nodes of the table (`min`) and ends at the most (`max`), so a factor of ten shows
/// as the same length anywhere and the smallest run still has a bar.
pub fn bar(nodes: u64, min: u64, max: u64, width: usize) -> String {
    if nodes == 0 || width == 0 {
        return String::new();
    }
    let base = (min.max(1) as f64).log10() - 1.0;
    let span = (max.max(1) as f64).log10() - base;
    let f = ((nodes as f64).log10() - base) / span;
    let n = ((f * width as f64).round() as usize).clamp(1, width);
    "█".repeat(n)
}

/// The table's lines for `runs` in `width` columns.
pub fn table_lines(
    runs: &[LabRun],
    best: Option<usize>,
    max_nodes: u64,
    width: usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let cols = fitting(width);
    let used: usize = cols.iter().map(|c| c.2 + 1).sum();
    let bar_width = width.saturating_sub(used + 2);
    let mut head = String::new();
    for (name, idx, w) in &cols {
        head.push_str(&cell(name, *w, *idx <= 1 || *idx == 8));
        head.push(' ');
    }
    head.push_str(&cell("log", bar_width + 2, true));
    let mut out = vec![Line::styled(
        head,
        theme.text().add_modifier(Modifier::BOLD),
    )];
    let max = runs.iter().map(|r| r.nodes).max().unwrap_or(1);
    let min = runs.iter().map(|r| r.nodes).min().unwrap_or(1);
    for (i, r) in runs.iter().enumerate() {
        let mut cells = table_row(r, max_nodes);
        // Narrower than the command line's: `10.1s`, `1.14M`.
        cells[3] = format!("{:.1}s", r.time.as_secs_f64());
        cells[4] = short_rate(r.nps());
        let mut text = String::new();
        for (_, idx, w) in &cols {
            text.push_str(&cell(&cells[*idx], *w, *idx <= 1 || *idx == 8));
            text.push(' ');
        }
        let is_best = Some(i) == best;
        let style = if is_best {
            theme.ok().add_modifier(Modifier::BOLD)
        } else if r.capped {
            theme.dim()
        } else {
            theme.text()
        };
        let mark = if is_best { " ★" } else { "" };
        out.push(Line::from(vec![
            Span::styled(text, style),
            Span::styled(bar(r.nodes, min, max, bar_width), theme.accent()),
            Span::styled(mark, style),
        ]));
    }
    out
}

/// Nodes per second in at most 6 characters: `1.14M`, `830k`, `999`.
fn short_rate(n: u64) -> String {
    match n {
        n if n >= 1_000_000 => format!("{:.2}M", n as f64 / 1e6),
        n if n >= 1_000 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

/// `50M`, `20k`, `999`.
fn short_count(n: u64) -> String {
    match n {
        n if n >= 1_000_000 && n % 1_000_000 == 0 => format!("{}M", n / 1_000_000),
        n if n >= 1_000 && n % 1_000 == 0 => format!("{}k", n / 1_000),
        n => n.to_string(),
    }
}

fn title(view: &LabView) -> String {
    match view.settings() {
        Some(s) => format!(
            " Lab: depth {}, {} runs, cap {} (Esc stops) ",
            s.depth,
            s.runs().len(),
            short_count(s.max_nodes)
        ),
        None => " Lab ".to_string(),
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let view = &app.lab();
    let title = title(view);
    let block = pane_block(app, &title, true);
    let inner = block.inner(area);
    // At small sizes the lab covers the board drawn before it.
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    let Some(settings) = view.settings() else {
        frame.render_widget(
            Paragraph::new(vec![
                Line::styled("the ordering lab: :lab [DEPTH]", app.theme().text()),
                Line::styled(
                    "searches this position under every ordering scheme and profile",
                    app.theme().dim(),
                ),
            ]),
            inner,
        );
        return;
    };
    let [gauge_area, table_area] =
        Layout::vertical([Constraint::Length(1), Constraint::Fill(1)]).areas(inner);
    let label = match (view.current(), view.outcome()) {
        (Some(c), _) => format!("{:.0}%  {c}", view.fraction() * 100.0),
        (None, Some(o)) if o.cancelled => format!("cancelled: {}/{} runs", o.runs.len(), o.total),
        (None, Some(o)) => format!(
            "done: {} runs in {:.1} s",
            o.runs.len(),
            o.elapsed.as_secs_f64()
        ),
        (None, None) => format!("{:.0}%", view.fraction() * 100.0),
    };
    frame.render_widget(
        Gauge::default()
            .ratio(view.fraction().clamp(0.0, 1.0))
            .label(label)
            .gauge_style(app.theme().accent()),
        gauge_area,
    );
    let lines = table_lines(
        view.runs(),
        view.best_index(),
        settings.max_nodes,
        table_area.width as usize,
        app.theme(),
    );
    frame.render_widget(Paragraph::new(lines), table_area);
}
