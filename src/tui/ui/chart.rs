//! E over the game: a chart of E after every move (White's view: the E the board and the log
//! show, in the evaluation mode in force, captures in flight settled) and
//! the engine's search score where it searched (the game's engine notes), the current move
//! marked, mate scores clipped to the chart's edge and marked, and review marks (?!, ?, ??)
//! when the game carries them (as NAGs, or fed in through `EChart::marks`).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::layout::{Constraint, Layout};
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph};

use crate::engine::Score;
use crate::engine::eval::{EvalConfig, settled_white};
use crate::game::Game;
use crate::tui::app::App;
use crate::tui::theme::Theme;

/// Scores are clipped to ± this many pawns (mates sit on the edge).
pub const CLIP_PAWNS: f64 = 5.0;

/// A review's judgement of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Dubious,
    Mistake,
    Blunder,
}

impl Mark {
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// From a PGN NAG ($6 ?!, $2 ?, $4 ??).
    pub fn from_nag(nag: u8) -> Option<Mark> {
        match nag {
            6 => Some(Mark::Dubious),
            2 => Some(Mark::Mistake),
            4 => Some(Mark::Blunder),
            _ => None,
        }
    }
}

/// What the chart plots, by ply (1 = after the first move; 0 = the start position).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EChart {
    /// E (pawns, White's view, clipped) after each ply, the start included.
    pub e: Vec<(f64, f64)>,
    /// The engine's search score where it searched (pawns, White's view, clipped).
    pub search: Vec<(f64, f64)>,
    /// Search scores that were mates (also in `search`, at the clipped edge).
    pub mates: Vec<(f64, f64)>,
    /// The ply shown on the board.
    pub current: usize,
    /// Review marks by ply. Feed a review's judgements here (`with_marks`); NAGs already in
    /// the game are read by `from_game`.
    pub marks: Vec<(usize, Mark)>,
    pub plies: usize,
}

fn clip(pawns: f64) -> f64 {
    pawns.clamp(-CLIP_PAWNS, CLIP_PAWNS)
}

/// A score in pawns, clipped; mates at the edge. `true` when it was a mate.
pub fn plotted(score: Score) -> (f64, bool) {
    match score {
        Score::Cp(c) => (clip(c as f64 / 100.0), false),
        Score::Mate(n) if n > 0 => (CLIP_PAWNS, true),
        Score::Mate(_) => (-CLIP_PAWNS, true),
    }
}

impl EChart {
    /// The chart of `game`'s whole line (moves after the cursor too), E under `cfg`.
    pub fn from_game(game: &Game, cfg: &EvalConfig) -> EChart {
        let mut board = game.start().clone();
        let mut chart = EChart {
            current: game.ply(),
            plies: game.len(),
            ..EChart::default()
        };
        chart
            .e
            .push((0.0, clip(settled_white(&board, cfg) as f64 / 100.0)));
        for (i, pm) in game.moves().iter().enumerate() {
            board.make(pm.mv);
            let x = (i + 1) as f64;
            chart
                .e
                .push((x, clip(settled_white(&board, cfg) as f64 / 100.0)));
            if let Some(note) = pm.engine.as_ref() {
                let (y, mate) = plotted(note.score);
                chart.search.push((x, y));
                if mate {
                    chart.mates.push((x, y));
                }
            } else if let Some(eval) = pm.annotations.eval {
                let (y, mate) = plotted(eval);
                chart.search.push((x, y));
                if mate {
                    chart.mates.push((x, y));
                }
            }
            for &nag in &pm.annotations.nags {
                if let Some(m) = Mark::from_nag(nag) {
                    chart.marks.push((i + 1, m));
                }
            }
        }
        chart
    }

    /// Replaces the review marks (ply, mark), e.g. from a review's judgements.
    pub fn with_marks(mut self, marks: Vec<(usize, Mark)>) -> EChart {
        self.marks = marks;
        self
    }

    fn at(&self, ply: usize) -> f64 {
        self.e.get(ply).map_or(0.0, |p| p.1)
    }
}

/// Draws `chart` into `area` with a border titled `E over the game`: the plot, a row with
/// the review marks under their plies (when there are any), and a key.
pub fn render(frame: &mut Frame, area: Rect, chart: &EChart, theme: &Theme, focused: bool) {
    let block = ratatui::widgets::Block::bordered()
        .title(Span::styled(
            format!(" E over the game  ply {}/{} ", chart.current, chart.plies),
            theme.title(focused),
        ))
        .border_style(theme.border(focused));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if chart.plies == 0 {
        frame.render_widget(
            Paragraph::new(Line::styled(
                "no moves yet: the chart grows as the game goes",
                theme.dim(),
            )),
            inner,
        );
        return;
    }
    let marks_rows = u16::from(!chart.marks.is_empty());
    let [plot_area, marks_area, key_area] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(marks_rows),
        Constraint::Length(1),
    ])
    .areas(inner);
    let current = [(chart.current as f64, chart.at(chart.current))];
    let marked: Vec<(f64, f64)> = chart
        .marks
        .iter()
        .map(|(p, _)| (*p as f64, chart.at(*p)))
        .collect();
    let mut datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.text())
            .data(&chart.e),
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(theme.accent())
            .data(&chart.search),
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(theme.error())
            .data(&chart.mates),
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(theme.error())
            .data(&marked),
    ];
    datasets.push(
        Dataset::default()
            .marker(Marker::Block)
            .graph_type(GraphType::Scatter)
            .style(theme.ok().add_modifier(Modifier::BOLD))
            .data(&current),
    );
    let x_max = chart.plies.max(1) as f64;
    let labels_x = vec![
        Span::raw("0"),
        Span::raw(format!("{}", chart.plies / 2)),
        Span::raw(format!("{}", chart.plies)),
    ];
    let labels_y = vec![
        Span::raw(format!("-{CLIP_PAWNS:.0}")),
        Span::raw(" 0"),
        Span::raw(format!("+{CLIP_PAWNS:.0}")),
    ];
    let widget = Chart::new(datasets)
        .style(theme.text())
        .x_axis(
            Axis::default()
                .bounds([0.0, x_max])
                .labels(labels_x)
                .style(theme.dim()),
        )
        .y_axis(
            Axis::default()
                .bounds([-CLIP_PAWNS, CLIP_PAWNS])
                .labels(labels_y)
                .style(theme.dim()),
        );
    frame.render_widget(widget, plot_area);
    if marks_rows > 0 {
        frame.render_widget(
            Paragraph::new(Line::styled(
                marks_row(chart, marks_area.width as usize),
                theme.error(),
            )),
            marks_area,
        );
    }
    frame.render_widget(
        Paragraph::new(Line::styled(key_text(key_area.width as usize), theme.dim())),
        key_area,
    );
}

/// The chart's key, as much of it as fits `width` columns: shorter words before fewer
/// symbols, E's and the search's marks kept longest.
pub fn key_text(width: usize) -> &'static str {
    const KEYS: [&str; 5] = [
        "⣀ E  • search  █ mate, mark, now (green)",
        "⣀ E • search █ mate, mark, now",
        "⣀ E • search █ mate/mark/now",
        "⣀ E • search █ mate",
        "⣀ E • search",
    ];
    KEYS.into_iter()
        .find(|k| k.chars().count() <= width)
        .unwrap_or("")
}

/// The review marks as text under the plies they belong to (the plot starts after the
/// y axis' labels and line, 3 columns).
pub fn marks_row(chart: &EChart, width: usize) -> String {
    let mut row = vec![' '; width];
    let graph = width.saturating_sub(3);
    if graph < 2 {
        return String::new();
    }
    for (ply, mark) in &chart.marks {
        let col =
            3 + (*ply as f64 / chart.plies.max(1) as f64 * (graph - 1) as f64).round() as usize;
        for (i, c) in mark.symbol().chars().enumerate() {
            if let Some(cell) = row.get_mut(col + i) {
                *cell = c;
            }
        }
    }
    row.into_iter().collect::<String>().trim_end().to_string()
}

/// The chart of the app's game.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let chart = EChart::from_game(app.game(), &app.prefs().eval());
    render(frame, area, &chart, app.theme(), false);
}
