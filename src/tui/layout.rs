//! Where everything goes on the screen: the places for a terminal's size and what shares
//! the right-hand side, and the board's square size. The app pages and scrolls each pane
//! by the rows of the rectangle computed here and `ui` draws it into the same rectangle, so
//! both agree without either asking the other.

use ratatui::layout::{Constraint, Layout, Rect};

use super::view::View;

/// From this size on, the evaluation pane and the E chart have places of their own.
pub const WIDE_WIDTH: u16 = 120;
pub const TALL_HEIGHT: u16 = 40;

/// The smallest terminal the layout works in.
pub const MIN_WIDTH: u16 = 80;
pub const MIN_HEIGHT: u16 = 24;

/// A terminal of `area`'s size is too small for the layout (the screen says so and keys
/// other than quitting do nothing).
pub fn too_small(area: Rect) -> bool {
    area.width < MIN_WIDTH || area.height < MIN_HEIGHT
}

/// What shares the right-hand side besides the terminal's size: the tree browser, the
/// view chosen, the club's lobby or room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shape {
    /// A pane that takes the whole engine area is open (the tree browser).
    pub whole: bool,
    pub view: View,
    pub club: ClubShape,
}

/// Where a club viewer is, as far as the layout cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClubShape {
    /// Not in the club, or playing the engine there: the usual panes.
    #[default]
    Off,
    /// The lobby's list takes the right-hand side.
    Lobby,
    /// A room takes the right-hand side.
    Room,
    /// A watcher with the engine's panes open: they go above the room.
    RoomWithEngine,
}

/// Where each pane goes for a terminal of `area`'s size and a screen of `shape`. The app
/// pages and scrolls a pane by the rows of the rectangle given here, and `ui` draws it in
/// the same rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub board: Rect,
    pub input: Rect,
    pub message: Rect,
    pub status: Rect,
    pub scale: Scale,
    /// The whole right-hand side: a view other than the log takes it at small sizes.
    pub right: Rect,
    /// The engine panes' places, where shown: the upper one (the log's), the lower one (the
    /// sort pane's), or the whole engine area (a pane that takes it, the tree browser).
    pub upper: Option<Rect>,
    pub lower: Option<Rect>,
    pub whole: Option<Rect>,
    /// The evaluation pane, the E chart and the lab view, where shown.
    pub eval: Option<Rect>,
    pub chart: Option<Rect>,
    pub lab: Option<Rect>,
    /// The club's lobby or room, where shown.
    pub club: Option<Rect>,
    /// The large layout: the evaluation pane and the chart have places of their own.
    pub large: bool,
}

/// A place for a pane on the right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The upper part of the engine area (the log's).
    Upper,
    /// The lower part (the sort pane's).
    Lower,
    /// The whole engine area, while the pane is open (the tree browser's).
    Whole,
}

impl Areas {
    /// The rectangle of a place, if it is on screen.
    pub fn slot(&self, slot: Slot) -> Option<Rect> {
        match slot {
            Slot::Upper => self.upper,
            Slot::Lower => self.lower,
            Slot::Whole => self.whole,
        }
    }
}

/// The layout of a screen without the tree browser, a view or the club (the panes' usual
/// places).
pub fn layout(area: Rect) -> Areas {
    layout_for(area, Shape::default())
}

/// Where each pane goes on a screen of `area` and `shape`.
pub fn layout_for(area: Rect, shape: Shape) -> Areas {
    let [main, input, message, status] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let scale = Scale::fitting(main.width, main.height);
    let [left, right] =
        Layout::horizontal([Constraint::Length(scale.pane_width()), Constraint::Fill(1)])
            .areas(main);
    let large = area.width >= WIDE_WIDTH && area.height >= TALL_HEIGHT;
    let mut a = Areas {
        board: left,
        input,
        message,
        status,
        scale,
        right,
        upper: None,
        lower: None,
        whole: None,
        eval: None,
        chart: None,
        lab: None,
        club: None,
        large,
    };
    // The part of the right-hand side the engine's panes have.
    let engine = match shape.club {
        ClubShape::Lobby | ClubShape::Room => {
            a.club = Some(right);
            return a;
        }
        ClubShape::RoomWithEngine => {
            let [top, bottom] =
                Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)])
                    .areas(right);
            a.club = Some(bottom);
            if shape.whole {
                a.whole = Some(top);
            } else {
                let [upper, lower] =
                    Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)])
                        .areas(top);
                a.upper = Some(upper);
                a.lower = Some(lower);
            }
            return a;
        }
        ClubShape::Off => right,
    };
    if shape.whole {
        // The browser takes the whole right-hand side (its rows need the width).
        a.whole = Some(engine);
        return a;
    }
    if large {
        large_engine(&mut a, engine, shape.view);
        return a;
    }
    match shape.view {
        View::Log => {
            let [log, sort] =
                Layout::vertical([Constraint::Percentage(45), Constraint::Fill(1)]).areas(engine);
            a.upper = Some(log);
            a.lower = Some(sort);
        }
        // The table needs the width: the lab takes the board's place too while open.
        View::Lab => a.lab = Some(left.union(engine)),
        View::Eval => a.eval = Some(engine),
        View::Chart => a.chart = Some(engine),
    }
    a
}

/// The sort pane's height for [`SORT_MOVES`] moves: its borders and its one header line.
pub const SORT_HEIGHT: u16 = 2 + 1 + SORT_MOVES;

/// The root moves the sort pane keeps on screen at 120×40 and larger (a middlegame has
/// 30 to 40 of them, the start position 20): the pane the program is named for.
pub const SORT_MOVES: u16 = 15;

/// The evaluation pane's full height (its terms, E and E in each mode) and its width.
pub const EVAL_HEIGHT: u16 = 19;
pub const EVAL_WIDTH: u16 = 44;

/// The narrowest sort pane beside the evaluation column: the root table's moves, ordering
/// scores, nodes, scores and refutations (the reasons go first when narrower).
const SORT_BESIDE_WIDTH: u16 = 50;

/// The chart's fewest rows under the evaluation pane (a plot of 3 rows, its axis and key).
const CHART_BESIDE_HEIGHT: u16 = 8;

/// The large layout of the engine area: the log on top keeps its 30%; below it the sort pane
/// keeps [`SORT_MOVES`] moves on screen. Where the area is wide enough the evaluation pane
/// and the chart stand in a column beside the sort pane; otherwise they share a strip
/// above it with what the sort pane leaves (the evaluation pane shows its weightiest terms
/// there). A view other than the log's gives the strip the evaluation pane's full height,
/// the sort pane the rest: the evaluation and the chart in full, or the lab, whose table
/// needs the width.
fn large_engine(a: &mut Areas, engine: Rect, view: View) {
    let [log, lower] =
        Layout::vertical([Constraint::Percentage(30), Constraint::Fill(1)]).areas(engine);
    a.upper = Some(log);
    let beside = lower.width >= EVAL_WIDTH + SORT_BESIDE_WIDTH
        && lower.height >= EVAL_HEIGHT + CHART_BESIDE_HEIGHT;
    if beside && view != View::Lab {
        let [sort, column] =
            Layout::horizontal([Constraint::Fill(1), Constraint::Length(EVAL_WIDTH)]).areas(lower);
        let [eval, chart] =
            Layout::vertical([Constraint::Length(EVAL_HEIGHT), Constraint::Fill(1)]).areas(column);
        a.lower = Some(sort);
        a.eval = Some(eval);
        a.chart = Some(chart);
        return;
    }
    let strip = if view != View::Log {
        EVAL_HEIGHT
    } else {
        lower.height.saturating_sub(SORT_HEIGHT).min(EVAL_HEIGHT)
    };
    let [middle, sort] =
        Layout::vertical([Constraint::Length(strip), Constraint::Fill(1)]).areas(lower);
    a.lower = Some(sort);
    if view == View::Lab {
        a.lab = Some(middle);
    } else {
        let [eval, chart] =
            Layout::horizontal([Constraint::Length(EVAL_WIDTH), Constraint::Fill(1)]).areas(middle);
        a.eval = Some(eval);
        a.chart = Some(chart);
    }
}

/// Columns and rows of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    pub w: u16,
    pub h: u16,
}

/// Info lines under the board (side to move, E, material, opening) before the move
/// list.
const INFO_LINES: u16 = 4;

impl Scale {
    const ALL: [Scale; 3] = [
        Scale { w: 7, h: 3 },
        Scale { w: 5, h: 2 },
        Scale { w: 3, h: 1 },
    ];

    /// The largest square size whose pane takes at most half the width and fits the height
    /// with the info lines and at least one line of moves.
    pub fn fitting(width: u16, height: u16) -> Scale {
        Scale::ALL
            .into_iter()
            .find(|s| s.pane_width() <= width / 2 && s.pane_height_min() <= height)
            .unwrap_or(Scale { w: 3, h: 1 })
    }

    /// Borders, rank labels, eight squares and a spare column.
    pub fn pane_width(self) -> u16 {
        2 + 2 + 8 * self.w + 1
    }

    fn pane_height_min(self) -> u16 {
        2 + 8 * self.h + 1 + INFO_LINES + 1
    }
}

/// Where the overlay goes on a screen of `area`.
pub fn help_overlay(area: Rect) -> Rect {
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
pub fn help_inner(area: Rect) -> Rect {
    let rect = help_overlay(area);
    Rect::new(
        rect.x + 1,
        rect.y + 1,
        rect.width.saturating_sub(2),
        rect.height.saturating_sub(2),
    )
}
