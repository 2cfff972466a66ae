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
use ratatui::widgets::{Block, Paragraph};

use super::SortView;
use crate::chess::Color;
use crate::engine::order::ScoredMove;
use crate::engine::search::SearchStats;
use crate::engine::{Bound, RootMoveRow};
use crate::tui::pane::{DrawCtx, titled};

/// `PV+10000 MVV/LVA+4`
pub fn reasons_text(m: &ScoredMove) -> String {
    m.reasons
        .iter()
        .map(|r| format!("{}{:+}", r.kind.label(), r.points))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The reasons of `m` in at most `width` characters, whole words only: each with its
/// points (`PV+10000 MVV/LVA+4`); where that is too wide, the names alone (the points add
/// up to the score beside them); where even that is too wide, the first names that fit and
/// `…` for the rest.
pub fn reasons_fitted(m: &ScoredMove, width: usize) -> String {
    let full = reasons_text(m);
    if full.chars().count() <= width {
        return full;
    }
    let names: Vec<&str> = m.reasons.iter().map(|r| r.kind.label()).collect();
    let bare = names.join(" ");
    if bare.chars().count() <= width {
        return bare;
    }
    let mut out = String::new();
    for name in names {
        let sep = usize::from(!out.is_empty());
        // Room for this name and the closing `…`.
        if out.chars().count() + sep + name.chars().count() + 2 > width {
            break;
        }
        if sep == 1 {
            out.push(' ');
        }
        out.push_str(name);
    }
    if width > out.chars().count() {
        if !out.is_empty() && width > out.chars().count() + 1 {
            out.push(' ');
        }
        out.push('…');
    }
    out
}

/// One column entry, exactly `width` characters: number, move, score, reasons (fitted
/// whole: see [`reasons_fitted`]).
pub fn entry_text(n: usize, m: &ScoredMove, width: usize) -> String {
    let head = format!("{n:>2} {:<5} {:>6} ", m.mv.to_string(), m.score);
    let room = width.saturating_sub(head.chars().count());
    fit(&format!("{head}{}", reasons_fitted(m, room)), width)
}

/// The iteration's counters worth a line (a real search's, not an empty placeholder).
fn stats_of(view: &SortView) -> Option<&SearchStats> {
    view.shown_stats()
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

/// Whether the root table has room for the all-iterations column: the least telling one,
/// so the first to go.
fn wide_table(width: usize) -> bool {
    width >= 70
}

/// The root table's columns before the reasons, with and without the all-iterations one.
const ROOT_HEAD_WIDE: &str = " # move     order  nodes  total   score refuted by";
const ROOT_HEAD: &str = " # move     order  nodes   score refuted by";

/// The widest refutation (`e7e8q @12`, `e7e5 @tt`) and the column before the reasons.
const REFUTED_WIDTH: usize = 10;

/// Where the reasons start in a row `width` wide, if any room is left for them.
fn reasons_at(width: usize) -> Option<usize> {
    let head = if wide_table(width) {
        ROOT_HEAD_WIDE
    } else {
        ROOT_HEAD
    };
    // The heads end at "refuted by"'s start: the refutation's column follows.
    let at = head.len() - "refuted by".len() + REFUTED_WIDTH + 1;
    (width >= at + 8).then_some(at)
}

/// The root table's column heads for a pane `width` wide, with `side` to move at the root.
/// The scores are the search's, from the side to move's view (a refuted move reads `≤`, as
/// the search proved it), so their head names the side: `W view` or `B view`.
pub fn root_head(width: usize, side: Color) -> String {
    let view = if side == Color::White {
        " W view"
    } else {
        " B view"
    };
    let mut s = if wide_table(width) {
        ROOT_HEAD_WIDE
    } else {
        ROOT_HEAD
    }
    .replace("  score", view);
    if let Some(at) = reasons_at(width) {
        s = format!("{s:<at$}reasons");
    }
    fit(&s, width)
}

/// One root move as a table row `width` wide: number, move, marks (`*` the best so far,
/// `!` it took the best move from an earlier one), ordering score, nodes this iteration
/// (and in all, from 70 columns), score with its bound (`≤` refuted, `≥` failed high; side
/// to move's view), the refuting reply with the index it was tried at (`@tt`: the table's
/// move, where the table or a null move settled the reply's node) and, in the room left,
/// the ordering's reasons, fitted whole ([`reasons_fitted`]).
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
    let total = if wide_table(width) {
        format!(" {:>6}", compact(r.nodes_total))
    } else {
        String::new()
    };
    let mut s = format!(
        "{n:>2} {:<5}{marks} {:>6} {:>6}{total} {score:>7} {refuted:<w$}",
        r.mv().to_string(),
        r.order.score,
        compact(r.nodes),
        w = REFUTED_WIDTH,
    );
    if let Some(at) = reasons_at(width) {
        let s_len = s.chars().count();
        let at = at.max(s_len + 1);
        s = format!(
            "{s:<at$}{}",
            reasons_fitted(&r.order, width.saturating_sub(at))
        );
    }
    fit(&s, width)
}

/// `s` cut or padded to exactly `width` characters.
fn fit(s: &str, width: usize) -> String {
    let mut s: String = s.chars().take(width).collect();
    let len = s.chars().count();
    s.extend(std::iter::repeat_n(' ', width - len));
    s
}

/// Spans that fit `width` characters, in order, each whole: the first that does not fit
/// ends the line with `…` (where there is room for it).
fn fit_spans(spans: Vec<Span<'static>>, width: usize, dim: Style) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut used = 0;
    for span in spans {
        let n = span.content.chars().count();
        if used + n > width {
            if used < width {
                out.push(Span::styled("…", dim));
            }
            break;
        }
        used += n;
        out.push(span);
    }
    out
}

/// The frame's top line: the pane's name, the position shown (`12... Black`), the search's
/// depth, the ordering scheme and the iteration's first-move cutoff rate and branching
/// factor, as many whole as fit `width`.
fn top_title(v: &SortView, ctx: &DrawCtx, width: usize) -> Line<'static> {
    let t = ctx.theme;
    let name = titled(" Sort", ctx.focused);
    let mut spans = vec![Span::styled(
        format!("{} ", name.trim_end()),
        t.title(ctx.focused),
    )];
    spans.push(Span::styled(
        format!("{} ", v.ply_label()),
        t.text().add_modifier(Modifier::BOLD),
    ));
    match v.depth() {
        Some(d) => spans.push(Span::styled(format!("d{d} "), t.text())),
        None => spans.push(Span::styled("no search yet ", t.dim())),
    }
    spans.push(Span::styled(format!("{} ", ctx.order), t.dim()));
    if let Some(c) = v.first_move_cutoff() {
        spans.push(Span::styled(format!("1st {:.0}% ", c * 100.0), t.accent()));
    }
    if let Some(b) = v.branching().filter(|b| *b > 0.0) {
        spans.push(Span::styled(format!("ebf {b:.1} "), t.accent()));
    }
    Line::from(fit_spans(spans, width, t.dim()))
}

/// The frame's bottom line: the PV to step along (the shown step underlined) and the
/// iteration's other counters (see [`stats_words`]), as many whole as fit `width`.
fn bottom_title(v: &SortView, ctx: &DrawCtx, width: usize) -> Line<'static> {
    let t = ctx.theme;
    let mut spans = Vec::new();
    if !v.pv().is_empty() {
        spans.push(Span::styled(" PV ", t.dim()));
        for (i, m) in v.pv().iter().enumerate() {
            let text = format!("{m} ");
            spans.push(if i == v.step() {
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
            spans.push(Span::styled("(end) ", t.accent()));
        }
    }
    if let Some(s) = stats_of(v) {
        if spans.is_empty() {
            spans.push(Span::raw(" "));
        }
        spans.push(Span::styled("· ", t.dim()));
        for word in stats_words(s) {
            spans.push(Span::styled(format!("{word} "), t.accent()));
        }
    }
    Line::from(fit_spans(spans, width, t.dim()))
}

/// The iteration's counters as whole words for the frame: the average index of the move
/// that cut (`cut@ 0.18`), table hits per probe (`tt 17%`), null moves that cut per try,
/// reduced moves searched again and quiescence nodes per node.
pub fn stats_words(s: &SearchStats) -> Vec<String> {
    let pct = |x: f64| format!("{:.0}%", x * 100.0);
    vec![
        format!("cut@ {:.2}", s.avg_cut_index()),
        format!("tt {}", pct(s.tt_hit_rate())),
        format!("null {}", pct(s.null_cutoff_rate())),
        format!("re {}", pct(s.research_rate())),
        format!("q {}", pct(s.qnode_share())),
    ]
}

/// The sort pane: its frame carries the summary (position, depth, scheme and counters on
/// top; the PV and more counters below) so that inside it one line of column heads stands
/// above the moves, each row begun by its number and move.
pub fn draw(frame: &mut Frame, area: Rect, v: &SortView, ctx: &DrawCtx) {
    let t = ctx.theme;
    let room = area.width.saturating_sub(2) as usize;
    let block = Block::bordered()
        .border_style(t.border(ctx.focused))
        .title(top_title(v, ctx, room))
        .title_bottom(bottom_title(v, ctx, room));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if ctx.hide_order {
        draw_hidden(frame, inner, v, ctx);
        return;
    }
    let mut lines = Vec::new();
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

/// The note that stands for the ordering while a puzzle is being solved.
pub const HIDDEN_NOTE: &str = "ordering hidden until the puzzle is over";

/// While a puzzle is being solved: the note, then the moves in the order of their
/// coordinates, without scores or reasons (the ordering would give the solution away: a
/// winning capture sorts first, with its exchange's gain).
fn draw_hidden(frame: &mut Frame, inner: Rect, v: &SortView, ctx: &DrawCtx) {
    let t = ctx.theme;
    let mut lines = vec![Line::from(Span::styled(
        fit(HIDDEN_NOTE, inner.width as usize),
        t.dim().add_modifier(Modifier::UNDERLINED),
    ))];
    let mut moves: Vec<String> = v.generated().iter().map(|m| m.mv.to_string()).collect();
    moves.sort();
    // As many columns of `nn move` as the width holds, read down each column.
    let cell = 9;
    let cols = (inner.width as usize / cell).max(1);
    let rows = (inner.height as usize).saturating_sub(1).max(1);
    let per_col = moves.len().div_ceil(cols).max(1);
    for r in 0..per_col.min(rows) {
        let mut text = String::new();
        for c in 0..cols {
            if let Some(m) = moves.get(c * per_col + r) {
                text.push_str(&format!("{:>2} {m:<6}", c * per_col + r + 1));
            }
        }
        lines.push(Line::from(Span::styled(text, t.text())));
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
    let mut head = root_head(width, v.side());
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
