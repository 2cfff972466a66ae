//! The help overlay, generated from the key table and the command table so it cannot drift
//! from what the keys and commands do.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::tui::app::App;
use crate::tui::app::command::COMMANDS;
use crate::tui::keys;

/// The help text as plain rows (keys, then commands), for the overlay and the README.
pub fn help_rows() -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = keys::help_rows(keys::DEFAULT_KEYS)
        .into_iter()
        .map(|(k, d)| (k, d.to_string()))
        .collect();
    rows.push((String::new(), String::new()));
    for c in COMMANDS {
        let name = if c.args.is_empty() {
            format!(":{}", c.name)
        } else {
            format!(":{} {}", c.name, c.args)
        };
        rows.push((name, c.help.to_string()));
    }
    rows.push((String::new(), String::new()));
    rows.extend(
        TREE_NOTES
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string())),
    );
    rows
}

/// How to read the tree browser (F10), under the commands.
const TREE_NOTES: [(&str, &str); 4] = [
    (
        "tree scores",
        "the side to move's at the node shown: a child's result is turned round, so the child that cut off reads ≥ β; E is White's view; mates (#3, -#3) count from the node",
    ),
    (
        "tree marks",
        "✂cut: the child that reached β (cut at #N); R2: searched 2 plies shallower first; tt, null-move, multi-cut, razor, reverse-futility, futility, lmp, see, stand-pat, delta, …: why a move was skipped or a node ended early; — not searched",
    ),
    (
        "tree updates",
        "the browser keeps its tree: a newer iteration, a new search or the engine's move never replaces it; its last line says when a newer one is ready and r loads it (at the same moves when it has them); a move you play closes the browser",
    ),
    (
        "tree recording",
        "searches at level max (and analysis and hints at any level) record 4 plies of each iteration; levels below max record none; :set explorer off stops recording",
    ),
];

/// Where the overlay goes on a screen of `area`.
fn overlay(area: Rect) -> Rect {
    let w = area.width.saturating_sub(4).min(100);
    let h = area.height.saturating_sub(2);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// The overlay's inside (within its border).
fn inner(area: Rect) -> Rect {
    let rect = overlay(area);
    Rect::new(
        rect.x + 1,
        rect.y + 1,
        rect.width.saturating_sub(2),
        rect.height.saturating_sub(2),
    )
}

/// The help rows laid out for an overlay inside of `width` columns: (key column, one row
/// of its description); descriptions wrap beneath their key.
fn laid_out(width: u16) -> Vec<(String, String)> {
    let rows = help_rows();
    // Keys and commands each get their own column width.
    let split = rows
        .iter()
        .position(|(k, _)| k.is_empty())
        .unwrap_or(rows.len());
    let width_of = |part: &[(String, String)]| {
        part.iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0)
            .min(width as usize / 2)
    };
    let widths = [width_of(&rows[..split]), width_of(&rows[split..])];
    let mut out = Vec::new();
    for (i, (k, d)) in rows.iter().enumerate() {
        let key_w = widths[usize::from(i >= split)];
        let desc_w = (width as usize).saturating_sub(key_w + 2).max(10);
        let k: String = k.chars().take(key_w).collect();
        for (j, part) in super::log::wrap_text(d, desc_w).into_iter().enumerate() {
            let lead = if j == 0 {
                format!("{k:<key_w$}  ")
            } else {
                " ".repeat(key_w + 2)
            };
            out.push((lead, part));
        }
    }
    out
}

/// How far the overlay scrolls on a screen of `area`.
pub fn max_scroll(area: Rect) -> usize {
    let inner = inner(area);
    laid_out(inner.width)
        .len()
        .saturating_sub(inner.height as usize)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let rect = overlay(area);
    frame.render_widget(Clear, rect);
    let block = super::pane_block(
        app,
        " Keys and commands (any key closes, Up/Down scroll) ",
        true,
    );
    let inner = block.inner(rect);
    let lines: Vec<Line> = laid_out(inner.width)
        .into_iter()
        .map(|(lead, part)| {
            Line::from(vec![
                Span::styled(lead, t.accent().add_modifier(Modifier::BOLD)),
                Span::styled(part, t.text()),
            ])
        })
        .collect();
    let scroll = app.help_scroll.min(max_scroll(area));
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .scroll((scroll as u16, 0))
            .style(t.text()),
        rect,
    );
}
