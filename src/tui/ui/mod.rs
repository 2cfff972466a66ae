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
pub mod club;
pub mod eval;
pub mod help;
pub mod input;
pub mod lab;
pub mod legend;
pub mod log;
pub mod review;
pub mod sort;
pub mod status;
pub mod tree;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::app::App;
use super::app::lab::View;
use super::layout::{Areas, MIN_HEIGHT, MIN_WIDTH, layout};

/// A pane's frame: its title and border in the theme's style for its focus.
pub fn pane_block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
    Block::bordered()
        .title(ratatui::text::Span::styled(
            title,
            app.theme().title(focused),
        ))
        .border_style(app.theme().border(focused))
}

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if super::layout::too_small(area) {
        too_small(frame, area, app);
        return;
    }
    let a = layout(area);
    board::draw(frame, a.board, a.scale, app);
    if draw_club(frame, &a, app) {
        // The club's pane took the right-hand side.
    } else if app.explorer().is_open() {
        // The browser takes the whole right-hand side (its rows need the width).
        tree::draw(frame, a.right, app);
    } else {
        draw_right(frame, &a, app);
    }
    input::draw(frame, a.input, app);
    status::draw_message(frame, a.message, app);
    status::draw_status(frame, a.status, app);
    legend::draw(frame, app);
    if app.screen().help_visible() {
        help::draw(frame, area, app);
    }
}

/// The club's panes on the right-hand side: the lobby, or a room (a watcher who opened the
/// engine's panes gets them above the room). False when the app is not in the club's
/// lobby or a room.
fn draw_club(frame: &mut Frame, a: &Areas, app: &App) -> bool {
    use crate::tui::app::club::Place;
    let club = app.club();
    if !club.is_on() {
        return false;
    }
    match club.place() {
        Place::Lobby => {
            club::draw_lobby(frame, a.right, app);
            true
        }
        Place::Room if club.in_room() => {
            if club.engine_open() && !club.playing() {
                let [top, bottom] = ratatui::layout::Layout::vertical([
                    ratatui::layout::Constraint::Percentage(60),
                    ratatui::layout::Constraint::Percentage(40),
                ])
                .areas(a.right);
                if app.explorer().is_open() {
                    tree::draw(frame, top, app);
                } else {
                    let [log, sort] = ratatui::layout::Layout::vertical([
                        ratatui::layout::Constraint::Percentage(50),
                        ratatui::layout::Constraint::Percentage(50),
                    ])
                    .areas(top);
                    draw_log(frame, log, app);
                    sort::draw(frame, sort, app);
                }
                club::draw_room(frame, bottom, app);
            } else {
                club::draw_room(frame, a.right, app);
            }
            true
        }
        _ => false,
    }
}

/// The right-hand side: log and sort pane, and the views that take their place.
fn draw_right(frame: &mut Frame, a: &Areas, app: &App) {
    match (a.eval, a.chart) {
        (Some(eval_area), Some(chart_area)) => {
            draw_log(frame, a.log, app);
            sort::draw(frame, a.sort, app);
            if app.screen().view() == View::Lab {
                lab::draw(frame, eval_area.union(chart_area), app);
            } else {
                eval::draw(frame, eval_area, app);
                chart::draw(frame, chart_area, app);
            }
        }
        _ => match app.screen().view() {
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
            .style(app.theme().text())
            .wrap(Wrap { trim: true }),
        rect,
    );
}

/// The log pane, or the review view in its place while that is open.
fn draw_log(frame: &mut Frame, area: ratatui::layout::Rect, app: &App) {
    if app.review().visible() {
        review::draw(frame, area, app);
    } else {
        log::draw(frame, area, app);
    }
}
