//! The evaluation pane: every term of the full (hand-made) evaluation for White, for Black
//! and net (they add up to its sum exactly: the rows come from the evaluation's own
//! accumulator), then the E the board and the log show (the mode in force, captures in
//! flight settled; one row with the sum when they are the same number), E in each mode, and,
//! toggled, the terms and E at the end of the engine's PV beside the current ones with the
//! difference.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::pane_block;
use crate::engine::eval::{Breakdown, EvalMode, Term, TermRow};
use crate::tui::app::App;
use crate::tui::app::evalview::EvalReport;
use crate::tui::app::text::e_text;
use crate::tui::theme::Theme;

/// Centipawns as pawns with a sign, `+0.25`.
fn pawns(cp: i32) -> String {
    e_text(cp)
}

/// Whether a term's row is shown: the two that adjust the sum in some endings only (the
/// drawish-ending scale and a known ending) are left out where they do nothing, so that
/// the rest fit the pane.
pub fn applies(r: &TermRow) -> bool {
    !(matches!(r.term, Term::Scaling | Term::Known) && r.white == 0 && r.black == 0)
}

/// The term rows the pane lists, in the table's order: those that apply now or, beside the
/// PV's end (`end`), at either end.
fn shown_rows<'a>(report: &'a EvalReport, end: Option<&Breakdown>) -> Vec<&'a TermRow> {
    report
        .now
        .rows
        .iter()
        .filter(|r| applies(r) || end.and_then(|e| e.row(r.term)).is_some_and(applies))
        .collect()
}

/// The row of the full terms' sum, when it is not the E shown.
const SUM: &str = "sum (full)";

/// Whether the terms' sum is the E shown (the full mode, nothing in flight): one row then.
fn one_e(report: &EvalReport) -> bool {
    report.mode == EvalMode::Full
        && report.e == report.now.total
        && report
            .pv_end
            .as_ref()
            .is_none_or(|(end, e, _)| end.total == *e)
}

/// The E row's label: `E` with the mode it is from when that is not the terms' own.
fn e_label(report: &EvalReport) -> String {
    if report.mode == EvalMode::Full {
        "E".to_string()
    } else {
        format!("E ({})", report.mode)
    }
}

/// The pane's lines for `report`.
pub fn lines(report: &EvalReport, theme: &Theme, show_pv_end: bool) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let now = &report.now;
    let head = theme.text().add_modifier(Modifier::BOLD);
    match (&report.pv_end, show_pv_end) {
        (Some((end, end_e, _)), true) => {
            out.push(Line::styled(
                format!("{:<15}{:>7}{:>8}{:>7}", "term", "now", "PV end", "diff"),
                head,
            ));
            for r in shown_rows(report, Some(end)) {
                let e = end.row(r.term).map_or(0, |x| x.net);
                out.push(Line::styled(
                    format!(
                        "{:<15}{:>7}{:>8}{:>7}",
                        r.term.name(),
                        pawns(r.net),
                        pawns(e),
                        pawns(e - r.net)
                    ),
                    if e != r.net {
                        theme.accent()
                    } else {
                        theme.text()
                    },
                ));
            }
            if !one_e(report) {
                out.push(Line::styled(
                    format!(
                        "{:<15}{:>7}{:>8}{:>7}",
                        SUM,
                        pawns(now.total),
                        pawns(end.total),
                        pawns(end.total - now.total)
                    ),
                    theme.dim(),
                ));
            }
            out.push(Line::styled(
                format!(
                    "{:<15}{:>7}{:>8}{:>7}",
                    e_label(report),
                    pawns(report.e),
                    pawns(*end_e),
                    pawns(end_e - report.e)
                ),
                head,
            ));
        }
        (None, true) => {
            out.push(Line::styled(
                "no engine line from this position yet",
                theme.dim(),
            ));
        }
        _ => {
            out.push(Line::styled(
                format!("{:<15}{:>7}{:>7}{:>7}", "term", "white", "black", "net"),
                head,
            ));
            for r in shown_rows(report, None) {
                out.push(Line::styled(
                    format!(
                        "{:<15}{:>7}{:>7}{:>7}",
                        r.term.name(),
                        pawns(r.white),
                        pawns(r.black),
                        pawns(r.net)
                    ),
                    if r.net != 0 {
                        theme.text()
                    } else {
                        theme.dim()
                    },
                ));
            }
            if !one_e(report) {
                out.push(Line::styled(
                    format!("{:<15}{:>21}", SUM, pawns(now.total)),
                    theme.dim(),
                ));
            }
            out.push(Line::styled(
                format!("{:<15}{:>21}", e_label(report), pawns(report.e)),
                head,
            ));
        }
    }
    // E in each mode, two modes a line after a label, so that all four fit the pane's
    // width at 80 columns and its height at 120 × 40.
    const LABEL: &str = "E by mode  ";
    for (i, pair) in report.modes.chunks(2).enumerate() {
        let label = if i == 0 {
            LABEL.to_string()
        } else {
            " ".repeat(LABEL.len())
        };
        let mut spans = vec![Span::styled(label, theme.dim())];
        spans.extend(
            pair.iter()
                .map(|(mode, e)| Span::styled(format!("{mode} {}  ", pawns(*e)), theme.text())),
        );
        out.push(Line::from(spans));
    }
    out
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let report = app
        .screen()
        .evalview()
        .report(app.shown_board(), &app.prefs().eval());
    let title = match &report.pv_end {
        Some((_, _, plies)) if app.screen().evalview().show_pv_end => {
            format!(" Eval: now vs PV end, {plies} plies ahead (F7) ")
        }
        _ => " Eval (F7: PV end) ".to_string(),
    };
    let block = pane_block(app, &title, false);
    let mut shown = lines(&report, app.theme(), app.screen().evalview().show_pv_end);
    // The terms' rows as `lines` lists them (beside the PV's end, a term that does
    // something at either end).
    let end = report
        .pv_end
        .as_ref()
        .filter(|_| app.screen().evalview().show_pv_end)
        .map(|(end, _, _)| end);
    let nets: Vec<i32> = shown_rows(&report, end).iter().map(|r| r.net).collect();
    let table = shown.len();
    // The tables' verdict, when they cover the position, above the terms: exact where E
    // only estimates.
    // A verdict wider than the pane goes on two lines at its comma (the terms' lines are
    // never wrapped: their columns would break).
    // A mated or stalemated position says so above the terms, which mean nothing there
    // (the tables' verdict is left out then: the game is over).
    if let Some(end) = app.shown_board().no_move_text() {
        shown.insert(0, Line::styled(end, app.theme().accent()));
    } else if let Some(tb) = app.tablebase_text() {
        let width = usize::from(area.width.saturating_sub(2));
        let parts: Vec<String> = match tb.split_once(", ") {
            Some((a, b)) if tb.chars().count() > width => vec![a.to_string(), b.to_string()],
            _ => vec![tb],
        };
        for (i, part) in parts.into_iter().enumerate() {
            shown.insert(i, Line::styled(part, app.theme().accent()));
        }
    }
    let room = usize::from(area.height.saturating_sub(2));
    let verdict = shown.len() - table;
    let e_rows = if one_e(&report) { 1 } else { 2 };
    let shown = fold(shown, verdict, &nets, e_rows, room);
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

/// The pane's lines in `room` rows: all of them where they fit; a row short, all but the
/// column head (the legend, `?`, says what the columns are); in a shorter pane still (a
/// large screen gives it the rows the sort pane leaves) the verdict lines, the head and
/// E's `e_rows` rows, and between them the terms that weigh most (by their net, in the
/// table's order), leaving out E in each mode. `lines` is the verdict's `verdict` lines,
/// the head, one line per term of `nets`, E's rows and the modes' lines.
fn fold(
    mut lines: Vec<Line<'static>>,
    verdict: usize,
    nets: &[i32],
    e_rows: usize,
    room: usize,
) -> Vec<Line<'static>> {
    let terms = verdict + 1..verdict + 1 + nets.len();
    if lines.len() <= room || lines.len() < terms.end + e_rows {
        return lines;
    }
    if lines.len() == room + 1 {
        lines.remove(verdict);
        return lines;
    }
    let keep = room.saturating_sub(verdict + 1 + e_rows);
    let mut by_weight: Vec<usize> = (0..nets.len()).collect();
    by_weight.sort_by_key(|&i| std::cmp::Reverse(nets[i].abs()));
    by_weight.truncate(keep);
    by_weight.sort_unstable();
    let mut out: Vec<Line<'static>> = lines[..terms.start].to_vec();
    out.extend(by_weight.iter().map(|&i| lines[terms.start + i].clone()));
    out.extend_from_slice(&lines[terms.end..terms.end + e_rows]);
    out
}
