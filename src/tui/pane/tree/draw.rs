//! Drawing the tree browser: one node of a recorded iteration tree — its path from the root,
//! window, static evaluation and result — and its children in the order the search tried
//! them, each with its ordering score, nodes, result and what happened to it (the cutoff,
//! a reduction, why it was skipped). It takes the whole right-hand side while open.
//!
//! Scores are the side to move's at the node shown: a child's result is turned round to
//! that side's view, so the child that cut off reads `≥ β`. `E` is White's view.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::chess::Color;
use crate::engine::search::record::TreeNode;
use crate::tui::app::explorer::{
    Explorer, bound_text, bounded, child_value, empty_reason, score_at, white_bound,
};
use crate::tui::app::thousands;
use crate::tui::pane::{DrawCtx, block, titled};

/// From this inner width on, each row also shows its ordering reasons.
const WIDE: u16 = 70;

/// What happened to a child, in words that fit a row: `cut`, `R2`, `futility`.
pub fn child_flags(node: &TreeNode, index: usize) -> String {
    let c = &node.children[index];
    let mut flags = Vec::new();
    if node.cut_index == Some(index) {
        flags.push("✂cut".to_string());
    }
    if c.reduction > 0 {
        flags.push(format!("R{}", c.reduction));
    }
    if let Some(k) = c.skipped {
        flags.push(k.name().to_string());
    }
    if c.quiescence {
        flags.push("q".to_string());
    }
    if earlier_pass(node, c) {
        flags.push(format!("pass {}", c.pass));
    }
    flags.join(" ")
}

/// Whether child `c` was made in an earlier pass of `node` than its last (a search the node
/// repeated: a wider window or no reduction).
fn earlier_pass(node: &TreeNode, c: &TreeNode) -> bool {
    node.passes.len() > 1 && c.pass < node.passes.len()
}

/// `PV+10000 history+20`
fn reasons(c: &TreeNode) -> String {
    c.reasons
        .iter()
        .map(|(k, p)| format!("{k}{p:+}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A child's result as the node's side to move sees it, and as E (White's view).
fn child_scores(ex: &Explorer, node: &TreeNode, c: &TreeNode) -> (String, String) {
    let side = ex.board().side_to_move();
    match child_value(c) {
        Some((v, b)) => (
            bounded(v, b, node.ply),
            bounded(
                if side == Color::White { v } else { -v },
                white_bound(b, side),
                node.ply,
            ),
        ),
        None => ("—".to_string(), "—".to_string()),
    }
}

/// A child's row: number (from 1), move, ordering score, nodes, result, what happened;
/// wide rows add the ordering reasons (the selected child's are in full below the list).
pub fn child_row(ex: &Explorer, node: &TreeNode, index: usize, wide: bool) -> String {
    let c = &node.children[index];
    let san = ex.child_san().get(index).cloned().unwrap_or_default();
    let ord = c.order_score.map(|o| o.to_string()).unwrap_or_default();
    let (score, _) = child_scores(ex, node, c);
    let mut row = format!(
        "{:>3} {san:<7} {ord:>6} {:>8} {score:>8}",
        index + 1,
        thousands(c.nodes)
    );
    let flags = child_flags(node, index);
    if !flags.is_empty() {
        row.push(' ');
        row.push_str(&flags);
    }
    if wide && !c.reasons.is_empty() {
        row.push_str("  ");
        row.push_str(&reasons(c));
    }
    row
}

/// The node's result: `≥+0.35 (E -0.35)`, or why it was not searched.
fn result_text(node: &TreeNode, side: Color) -> String {
    match (node.score, node.bound()) {
        (Some(v), Some(b)) => {
            let white = if side == Color::White { v } else { -v };
            format!(
                "{} (E {})",
                bounded(v, b, node.ply),
                bounded(white, white_bound(b, side), node.ply)
            )
        }
        _ => "—".to_string(),
    }
}

fn fit(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

/// The path from the root, cut at the front when it does not fit: `root › e4 › e5`.
fn path_text(ex: &Explorer, width: usize) -> String {
    let mut parts = vec!["root".to_string()];
    parts.extend(ex.path_san().iter().cloned());
    let full = parts.join(" › ");
    let n = full.chars().count();
    if n <= width {
        full
    } else {
        let tail: String = full.chars().skip(n + 1 - width).collect();
        format!("…{tail}")
    }
}

pub fn draw(frame: &mut Frame, area: Rect, ex: &Explorer, ctx: &DrawCtx) {
    let t = ctx.theme;
    let Some(tree) = ex.shown() else {
        return;
    };
    let Some(node) = ex.node() else {
        return;
    };
    let newer = ctx.latest_tree.filter(|_| ex.is_newer(ctx.latest_tree));
    let title = titled(&format!(" Tree d{} ", tree.depth), ctx.focused);
    let block = block(t, &title, ctx.focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = inner.width as usize;
    let wide = inner.width >= WIDE;
    let board = ex.board();
    let side = board.side_to_move();
    let bold = t.text().add_modifier(Modifier::BOLD);

    let mut lines = vec![Line::from(Span::styled(path_text(ex, w), bold))];
    let mut about = vec![Span::styled(format!("{} to move", side.name()), t.text())];
    if let Some((a, b)) = node.window {
        about.push(Span::styled(
            format!(
                "  α {} β {}",
                bound_text(a, node.ply),
                bound_text(b, node.ply)
            ),
            t.text(),
        ));
    }
    if let Some(e) = node.static_eval {
        about.push(Span::styled(
            format!("  search eval {}", score_at(e, node.ply)),
            t.dim(),
        ));
    }
    if node.quiescence {
        about.push(Span::styled("  quiescence", t.dim()));
    }
    lines.push(Line::from(about));
    let mut result = vec![
        Span::styled("= ", t.dim()),
        Span::styled(result_text(node, side), t.accent()),
        Span::styled(format!("  {} nodes", thousands(node.nodes)), t.text()),
    ];
    if let Some(i) = node.cut_index {
        result.push(Span::styled(format!("  cut at #{}", i + 1), t.accent()));
    }
    if node.reduction > 0 {
        result.push(Span::styled(format!("  R{}", node.reduction), t.text()));
    }
    if let Some(k) = node.skipped {
        result.push(Span::styled(format!("  [{}]", k.name()), t.error()));
    }
    lines.push(Line::from(result));
    let mut head = format!(
        "{:>3} {:<7} {:>6} {:>8} {:>8}",
        "#", "move", "order", "nodes", "score"
    );
    head.push_str(" what");
    lines.push(Line::from(Span::styled(
        fit(&head, w),
        t.dim().add_modifier(Modifier::UNDERLINED),
    )));

    let rows = super::list_rows(area);
    let n = node.children.len();
    // The selected row stays on screen after a resize too (drawing changes no state).
    let selected = ex.selected();
    let scroll = ex
        .scroll()
        .min(selected)
        .max((selected + 1).saturating_sub(rows))
        .min(n.saturating_sub(rows));
    if n == 0 {
        lines.push(Line::from(Span::styled(
            fit(&empty_reason(node), w),
            t.dim(),
        )));
    }
    for i in scroll..n.min(scroll + rows) {
        let c = &node.children[i];
        let mut style: Style = if node.cut_index == Some(i) {
            t.accent()
        } else if c.window.is_none() || earlier_pass(node, c) {
            t.dim()
        } else {
            t.text()
        };
        if i == ex.selected() {
            style = style.add_modifier(Modifier::REVERSED);
        }
        lines.push(Line::from(Span::styled(
            fit(&child_row(ex, node, i, wide), w),
            style,
        )));
    }
    // The footer sits on the last two lines; the selected child's detail takes the rows the
    // list leaves empty above it too, when it needs them.
    let used = lines.len();
    let foot_at = (inner.height as usize).saturating_sub(super::FOOT as usize);
    let room = foot_at.saturating_sub(used) + 1;
    let detail = detail_rows(&selected_detail(ex, node), w, room);
    lines.extend((used..(foot_at + 1).saturating_sub(detail.len())).map(|_| Line::from("")));
    lines.extend(
        detail
            .into_iter()
            .map(|row| Line::from(Span::styled(row, t.dim()))),
    );
    let notice = match (newer, ctx.searching) {
        (Some(l), _) if l.search_id == tree.search_id => {
            format!("depth {} ready — r reloads", l.depth)
        }
        (Some(l), _) => format!("a newer search's tree (depth {}) — r loads it", l.depth),
        (None, true) => format!("the engine searches past depth {}", tree.depth),
        (None, false) => "Enter into · Backspace back · Esc closes".to_string(),
    };
    lines.push(Line::from(Span::styled(
        fit(&notice, w),
        if newer.is_some() { t.accent() } else { t.dim() },
    )));
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The detail's parts (`a · b · c`) in at most `room` rows of `width`: a part goes whole on
/// the row it starts on (one wider than a row is cut); what does not fit in the rows is
/// left out, the last row saying so with `…`.
pub fn detail_rows(detail: &str, width: usize, room: usize) -> Vec<String> {
    const SEP: &str = " · ";
    let len = |s: &str| s.chars().count();
    let mut rows: Vec<String> = Vec::new();
    let mut row = String::new();
    let mut dropped = false;
    for part in detail.split(SEP).filter(|p| !p.is_empty()) {
        if row.is_empty() {
            row = fit(part, width);
        } else if len(&row) + len(SEP) + len(part) <= width {
            row.push_str(SEP);
            row.push_str(part);
        } else if rows.len() + 1 < room.max(1) {
            rows.push(std::mem::take(&mut row));
            row = fit(part, width);
        } else {
            dropped = true;
            break;
        }
    }
    if dropped {
        while !row.is_empty() && len(&row) + 2 > width {
            row = match row.rfind(SEP) {
                Some(at) => row[..at].to_string(),
                None => fit(&row, width.saturating_sub(2)),
            };
        }
        row.push_str(" …");
    }
    rows.push(row);
    rows
}

/// The selected child in full: its ordering reasons, window and what happened to it.
fn selected_detail(ex: &Explorer, node: &TreeNode) -> String {
    let i = ex.selected();
    let Some(c) = node.children.get(i) else {
        return String::new();
    };
    let (score, e) = child_scores(ex, node, c);
    let mut parts = vec![format!(
        "#{} {} {score} E {e}",
        i + 1,
        ex.child_san().get(i).map_or("", String::as_str)
    )];
    if !c.reasons.is_empty() {
        parts.push(reasons(c));
    }
    if let Some((a, b)) = c.window {
        // The child's window turned round to this node's side, as the scores are.
        parts.push(format!(
            "searched in ({}, {})",
            bound_text(-b, node.ply),
            bound_text(-a, node.ply)
        ));
    }
    if c.reduction > 0 {
        parts.push(format!("reduced by {}", c.reduction));
    }
    if let Some(k) = c.skipped {
        parts.push(if c.window.is_none() {
            format!("skipped: {}", k.name())
        } else {
            format!("ended: {}", k.name())
        });
    }
    if c.children.is_empty() && c.window.is_some() {
        parts.push(match (c.children_complete, c.quiescence) {
            (false, _) => "children not recorded".to_string(),
            (true, true) => "quiescence leaf".to_string(),
            (true, false) => "leaf".to_string(),
        });
    }
    if node.passes.len() > 1 {
        parts.push(format!("in pass {} of {}", c.pass, node.passes.len()));
    }
    if c.passes.len() > 1 {
        let passes: Vec<String> = c
            .passes
            .iter()
            .map(|p| {
                let r = if p.reduction > 0 {
                    format!(" R{}", p.reduction)
                } else {
                    String::new()
                };
                format!(
                    "({}, {}){r}",
                    bound_text(-p.beta, node.ply),
                    bound_text(-p.alpha, node.ply)
                )
            })
            .collect();
        parts.push(format!(
            "searched {} times: {}",
            c.passes.len(),
            passes.join(" then ")
        ));
    }
    parts.join(" · ")
}

#[cfg(test)]
mod tests {
    use super::detail_rows;

    #[test]
    fn the_detail_wraps_at_its_parts_within_its_rows_and_says_what_it_left_out() {
        let detail = "#1 e5 +0.20 E +0.10 · pv+1000 · searched in (-∞, +∞) · leaf";
        assert_eq!(detail_rows(detail, 80, 1), [detail]);
        assert_eq!(
            detail_rows(detail, 40, 2),
            [
                "#1 e5 +0.20 E +0.10 · pv+1000",
                "searched in (-∞, +∞) · leaf"
            ]
        );
        assert_eq!(
            detail_rows(detail, 40, 1),
            ["#1 e5 +0.20 E +0.10 · pv+1000 …"]
        );
        for (w, room) in [(12, 1), (20, 2), (33, 3)] {
            let rows = detail_rows(detail, w, room);
            assert!(rows.len() <= room, "{rows:?}");
            assert!(rows.iter().all(|r| r.chars().count() <= w), "{w}: {rows:?}");
        }
    }
}
