//! Drawing the sort pane (seed 000): the moves of a position in generator order beside the order the
//! search tries them, each with its ordering score and the reasons that make it up. At the
//! root while the engine thinks, the lists are the search's own (updated every iteration);
//! stepping along the PV (←/→ with the pane focused) shows the ordering at deeper plies.
//! Once the search reports its root moves, the root shows them as one table instead: per
//! move in the order searched, its ordering score, the nodes it took, its score and bound,
//! and the reply that refuted it (wider panes add all iterations' nodes and the reasons).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::SortView;
use crate::engine::order::ScoredMove;
use crate::engine::search::SearchStats;
use crate::engine::{Bound, RootMoveRow};
use crate::tui::pane::{DrawCtx, block, titled};

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
    fit(&s, width)
}

/// The iteration's counters worth a line (a real search's, not an empty placeholder).
fn stats_of(view: &SortView) -> Option<&SearchStats> {
    view.shown_stats()
}

/// The iteration's statistics beside the first-move cutoff rate (average index of the move
/// that cut, table hits per probe, null moves that cut per try, reduced moves searched
/// again, quiescence nodes per node): abbreviated under `width` 70.
pub fn stats_text(s: &SearchStats, width: usize) -> String {
    let pct = |x: f64| format!("{:.0}%", x * 100.0);
    if width >= 70 {
        format!(
            "cut index {:.2}  TT hits {}  null cuts {}  re-search {}  qsearch {}",
            s.avg_cut_index(),
            pct(s.tt_hit_rate()),
            pct(s.null_cutoff_rate()),
            pct(s.research_rate()),
            pct(s.qnode_share())
        )
    } else {
        format!(
            "cut@ {:.2} tt {} null {} re {} q {}",
            s.avg_cut_index(),
            pct(s.tt_hit_rate()),
            pct(s.null_cutoff_rate()),
            pct(s.research_rate()),
            pct(s.qnode_share())
        )
    }
}

/// `950`, `12.3k`, `4.56M`: node counts in a narrow column.
pub fn compact(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..100_000 => format!("{:.1}k", n as f64 / 1e3),
        100_000..1_000_000 => format!("{}k", n / 1000),
        1_000_000..100_000_000 => format!("{:.2}M", n as f64 / 1e6),
        _ => format!("{}M", n / 1_000_000),
    }
}

/// Whether the root table has room for the all-iterations column and the reasons.
fn wide_table(width: usize) -> bool {
    width >= 70
}

/// The root table's column heads for a pane `width` wide.
pub fn root_head(width: usize) -> String {
    let s = if wide_table(width) {
        " # move     order  nodes  total   score refuted by  reasons"
    } else {
        " # move     order  nodes   score refuted by"
    };
    fit(s, width)
}

/// One root move as a table row `width` wide: number, move, marks (`*` the best so far,
/// `!` it took the best move from an earlier one), ordering score, nodes this iteration
/// (and in all, when wide), score with its bound (`≤` refuted, `≥` failed high; side to
/// move's view) and the refuting reply with the index it was tried at (`@tt`: the table's
/// move, where the table or a null move settled the reply's node).
pub fn root_row_text(n: usize, r: &RootMoveRow, width: usize) -> String {
    let marks = format!(
        "{}{}",
        if r.best { '*' } else { ' ' },
        if r.new_best { '!' } else { ' ' }
    );
    let score = match (r.score, r.bound) {
        (None, _) => "-".to_string(),
        (Some(s), Bound::Exact) => s.to_string(),
        (Some(s), Bound::Upper) => format!("≤{s}"),
        (Some(s), Bound::Lower) => format!("≥{s}"),
    };
    let refuted = match (r.refutation, r.refutation_index) {
        (Some(m), Some(i)) => format!("{m} @{i}"),
        // The node was settled by the table or a null move: the table's move stands for
        // the reply, with no place in an order of moves tried.
        (Some(m), None) => format!("{m} @tt"),
        _ => String::new(),
    };
    let s = if wide_table(width) {
        let reasons = reasons_text(&r.order);
        format!(
            "{n:>2} {:<5}{marks} {:>6} {:>6} {:>6} {score:>7} {refuted:<11} {reasons}",
            r.mv().to_string(),
            r.order.score,
            compact(r.nodes),
            compact(r.nodes_total),
        )
    } else {
        format!(
            "{n:>2} {:<5}{marks} {:>6} {:>6} {score:>7} {refuted}",
            r.mv().to_string(),
            r.order.score,
            compact(r.nodes),
        )
    };
    fit(&s, width)
}

/// `s` cut or padded to exactly `width` characters.
fn fit(s: &str, width: usize) -> String {
    let mut s: String = s.chars().take(width).collect();
    let len = s.chars().count();
    s.extend(std::iter::repeat_n(' ', width - len));
    s
}

fn header_lines(v: &SortView, ctx: &DrawCtx, width: usize) -> Vec<Line<'static>> {
    let t = ctx.theme;
    let mut stats = vec![Span::styled(
        v.ply_label().to_string(),
        t.text().add_modifier(Modifier::BOLD),
    )];
    match v.depth() {
        Some(d) => stats.push(Span::styled(format!("  d{d}"), t.text())),
        None => stats.push(Span::styled("  no search yet", t.dim())),
    }
    if let Some(c) = v.first_move_cutoff() {
        stats.push(Span::styled(
            format!("  1st-cut {:.0}%", c * 100.0),
            t.accent(),
        ));
    }
    if let Some(b) = v.branching().filter(|b| *b > 0.0) {
        stats.push(Span::styled(format!("  branch {b:.1}"), t.accent()));
    }
    stats.push(Span::styled(format!("  {}", ctx.order), t.dim()));
    let mut lines = vec![Line::from(stats)];
    if let Some(s) = stats_of(v) {
        lines.push(Line::from(Span::styled(stats_text(s, width), t.accent())));
    }
    if !v.pv().is_empty() {
        let mut pv = vec![Span::styled("PV ", t.dim())];
        for (i, m) in v.pv().iter().enumerate() {
            let text = format!("{m} ");
            pv.push(if i == v.step() {
                Span::styled(
                    text,
                    t.accent()
                        .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                )
            } else if i < v.step() {
                Span::styled(text, t.dim())
            } else {
                Span::styled(text, t.text())
            });
        }
        if v.step() == v.pv().len() {
            pv.push(Span::styled("(end)", t.accent()));
        }
        lines.push(Line::from(pv));
    }
    lines
}

pub fn draw(frame: &mut Frame, area: Rect, v: &SortView, ctx: &DrawCtx) {
    let t = ctx.theme;
    let title = titled(" Sort ", ctx.focused);
    let block = block(t, &title, ctx.focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let mut lines = header_lines(v, ctx, inner.width as usize);
    if v.shows_root_rows() {
        draw_root_rows(frame, inner, v, ctx, lines);
        return;
    }
    let col = (inner.width.saturating_sub(1) / 2) as usize;
    let searched = v.depth().is_some() && v.step() == 0;
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
    let rows = v.generated().len().max(v.sorted().len());
    let visible = (inner.height as usize).saturating_sub(lines.len());
    let max_scroll = rows.saturating_sub(visible);
    let scroll = v.scroll().min(max_scroll);
    let style_for = |m: &ScoredMove| -> Style {
        if Some(m.mv) == v.best() {
            t.accent().add_modifier(Modifier::BOLD)
        } else {
            t.text()
        }
    };
    if rows == 0 {
        lines.push(Line::from(Span::styled("no legal moves", t.dim())));
    }
    for i in scroll..rows.min(scroll + visible) {
        let left = v.generated().get(i).map_or_else(
            || Span::raw(" ".repeat(col)),
            |m| Span::styled(entry_text(i + 1, m, col), style_for(m)),
        );
        let right = v.sorted().get(i).map_or_else(
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

/// The root table: one row per root move of the iteration in progress or the last one.
fn draw_root_rows(
    frame: &mut Frame,
    inner: Rect,
    v: &SortView,
    ctx: &DrawCtx,
    mut lines: Vec<Line<'static>>,
) {
    let t = ctx.theme;
    let width = inner.width as usize;
    let mut head = root_head(width);
    if let Some(d) = v.rows_depth().filter(|&d| Some(d) != v.depth()) {
        // The rows of an iteration still running: say which.
        let note = format!(" (d{d} so far)");
        let keep = width.saturating_sub(note.chars().count());
        head = head.chars().take(keep).collect::<String>() + &note;
    }
    lines.push(Line::from(Span::styled(
        head,
        t.dim().add_modifier(Modifier::UNDERLINED),
    )));
    let rows = v.root_rows().len();
    let visible = (inner.height as usize).saturating_sub(lines.len());
    let scroll = v.scroll().min(rows.saturating_sub(visible));
    for (i, r) in v.root_rows().iter().enumerate().skip(scroll).take(visible) {
        let style = if r.best {
            t.accent().add_modifier(Modifier::BOLD)
        } else if r.score.is_none() {
            t.dim()
        } else {
            t.text()
        };
        lines.push(Line::from(Span::styled(
            root_row_text(i + 1, r, width),
            style,
        )));
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
