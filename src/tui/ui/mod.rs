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
pub mod review;
pub mod status;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Wrap};

use super::app::App;
use super::layout::{Areas, MIN_HEIGHT, MIN_WIDTH};
use super::pane::DrawCtx;
use crate::tui::pane;

/// A pane's frame: its title and border in the theme's style for its focus.
pub fn pane_block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
    super::pane::block(app.theme(), title, focused)
}

pub fn draw(frame: &mut Frame, app: &App) {
    let area = frame.area();
    if super::layout::too_small(area) {
        too_small(frame, area, app);
        return;
    }
    let a = app.areas_in(area);
    board::draw(frame, a.board, a.scale, app);
    if let Some(rect) = a.club {
        if app.club().place() == crate::tui::app::club::Place::Lobby {
            club::draw_lobby(frame, rect, app);
        } else if app.club().in_study() {
            club::draw_study(frame, rect, app);
        } else {
            club::draw_room(frame, rect, app);
        }
    }
    draw_panes(frame, &a, app);
    if let Some(rect) = a.eval {
        eval::draw(frame, rect, app);
    }
    if let Some(rect) = a.chart {
        chart::draw(frame, rect, app);
    }
    if let Some(rect) = a.lab {
        lab::draw(frame, rect, app);
    }
    input::draw(frame, a.input, app);
    status::draw_message(frame, a.message, app);
    status::draw_status(frame, a.status, app);
    legend::draw(frame, app);
    if app.screen().help_visible() {
        help::draw(frame, area, app);
    }
}

/// Each pane on screen draws itself in the rectangle the layout gave it (the review takes
/// the log's place while it is open).
fn draw_panes(frame: &mut Frame, a: &Areas, app: &App) {
    for pane in app.panes().all() {
        let focus = pane.focus();
        let Some(rect) = app.panes().rect(focus, a) else {
            continue;
        };
        if focus == pane::log::FOCUS && app.review().visible() {
            review::draw(frame, rect, app);
            continue;
        }
        let ctx = DrawCtx {
            theme: app.theme(),
            focused: app.screen().focus() == focus,
            order: app.prefs().settings().order,
            searching: app.session().is_searching(),
            latest_tree: app.session().last_tree(),
            hide_order: app.puzzle_unsolved(),
        };
        pane.draw(frame, rect, &ctx);
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
