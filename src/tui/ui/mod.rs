//! Drawing: a pure function of the app's state. One module per pane; this one lays them
//! out and handles the too-small terminal.
//!
//! ```text
//! ┌ Board ───────┐┌ Log ─────────────────────────┐
//! │ 8 ♜ ♞ ♝ ...  ││ 12:00:01 1. e4 (e2e4) E +0.30 │
//! │   ...        │└──────────────────────────────┘
//! │ White to move│┌ Sort ────────────────────────┐
//! │ Material =   ││ generator order │ sorted      │
//! └──────────────┘└──────────────────────────────┘
//! › input line
//! message line
//! status bar
//! ```

pub mod board;
pub mod chart;
pub mod eval;
pub mod help;
pub mod input;
pub mod lab;
pub mod log;
pub mod review;
pub mod sort;
pub mod status;
pub mod tree;

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::app::App;
use super::app::lab::View;

/// From this size on, the evaluation pane and the E chart have places of their own.
pub const WIDE_WIDTH: u16 = 120;
pub const TALL_HEIGHT: u16 = 40;

/// The smallest terminal the layout works in.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// A pane's frame: its title and border in the theme's style for its focus.
pub fn pane_block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
    Block::bordered()
        .title(ratatui::text::Span::styled(title, app.theme.title(focused)))
        .border_style(app.theme.border(focused))
}

/// Where each pane goes for a terminal of `area`'s size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub board: Rect,
    pub log: Rect,
    pub sort: Rect,
    pub input: Rect,
    pub message: Rect,
    pub status: Rect,
    pub scale: board::Scale,
    /// The whole right-hand side: a view other than the log takes it at small sizes.
    pub right: Rect,
    /// On large screens: the evaluation pane and the E chart (the lab view takes both).
    pub eval: Option<Rect>,
    pub chart: Option<Rect>,
}

pub fn layout(area: Rect) -> Areas {
    let [main, input, message, status] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let scale = board::Scale::fitting(main.width, main.height);
    let [left, right] =
        Layout::horizontal([Constraint::Length(scale.pane_width()), Constraint::Fill(1)])
            .areas(main);
    let large = area.width >= WIDE_WIDTH && area.height >= TALL_HEIGHT;
    let (log, sort, eval, chart) = if large {
        let [log, middle, sort] = Layout::vertical([
            Constraint::Percentage(30),
            Constraint::Length(19),
            Constraint::Fill(1),
        ])
        .areas(right);
        let [eval, chart] =
            Layout::horizontal([Constraint::Length(44), Constraint::Fill(1)]).areas(middle);
        (log, sort, Some(eval), Some(chart))
    } else {
        let [log, sort] =
            Layout::vertical([Constraint::Percentage(45), Constraint::Fill(1)]).areas(right);
        (log, sort, None, None)
    };
    Areas {
        board: left,
        log,
        sort,
        input,
        message,
        status,
        scale,
        right,
        eval,
        chart,
    }
}

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        too_small(frame, area, app);
        return;
    }
    let a = layout(area);
    board::draw(frame, a.board, a.scale, app);
    if app.explorer.is_open() {
        // The browser takes the whole right-hand side (its rows need the width).
        tree::draw(frame, a.right, app);
    } else {
        draw_right(frame, &a, app);
    }
    input::draw(frame, a.input, app);
    status::draw_message(frame, a.message, app);
    status::draw_status(frame, a.status, app);
    if app.help_visible {
        help::draw(frame, area, app);
    }
}

/// The right-hand side: log and sort pane, and the views that take their place.
fn draw_right(frame: &mut Frame, a: &Areas, app: &App) {
    match (a.eval, a.chart) {
        (Some(eval_area), Some(chart_area)) => {
            draw_log(frame, a.log, app);
            sort::draw(frame, a.sort, app);
            if app.view == View::Lab {
                lab::draw(frame, eval_area.union(chart_area), app);
            } else {
                eval::draw(frame, eval_area, app);
                chart::draw(frame, chart_area, app);
            }
        }
        _ => match app.view {
            View::Log => {
                draw_log(frame, a.log, app);
                sort::draw(frame, a.sort, app);
            }
            // The table needs the width: the lab takes the board's place too while open.
            View::Lab => lab::draw(frame, a.board.union(a.right), app),
            View::Eval => eval::draw(frame, a.right, app),
            View::Chart => chart::draw(frame, a.right, app),
        },
    }
}

/// Below the minimum the layout would be garbage; say so plainly instead.
fn too_small(frame: &mut Frame, area: Rect, app: &App) {
    let lines = vec![
        Line::from("terminal too small"),
        Line::from(format!(
            "{}×{}, need {MIN_WIDTH}×{MIN_HEIGHT}",
            area.width, area.height
        )),
        Line::from("(enlarge the window; Ctrl+C quits)"),
    ];
    let top = area.height.saturating_sub(lines.len() as u16) / 2;
    let rect = Rect {
        y: area.y + top,
        height: area.height - top,
        ..area
    };
    frame.render_widget(
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .style(app.theme.text())
            .wrap(Wrap { trim: true }),
        rect,
    );
}

/// The log pane, or the review view in its place while that is open.
fn draw_log(frame: &mut Frame, area: ratatui::layout::Rect, app: &App) {
    if app.review.visible {
        review::draw(frame, area, app);
    } else {
        log::draw(frame, area, app);
    }
}
