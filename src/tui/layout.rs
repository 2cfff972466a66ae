//! Where everything goes on the screen: the panes' rectangles for a terminal's size, the
//! board's square size, and the rows each scrolling list shows. The app pages and scrolls
//! by these numbers and `ui` draws into the same rectangles, so both agree without either
//! asking the other.

use ratatui::layout::{Constraint, Layout, Rect};

use super::app::command;
use super::app::log::{STAMP_WIDTH, wrap_text};
use super::keys;
use super::settings::Setting;

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

/// Where each pane goes for a terminal of `area`'s size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Areas {
    pub board: Rect,
    pub log: Rect,
    pub sort: Rect,
    pub input: Rect,
    pub message: Rect,
    pub status: Rect,
    pub scale: Scale,
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
    let scale = Scale::fitting(main.width, main.height);
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

/// Columns and rows of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    pub w: u16,
    pub h: u16,
}

/// Info lines under the board (side to move, static E, material, opening) before the move
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

/// The columns a log line's text wraps at in a pane of `area` (the stamp takes the rest).
pub fn log_text_width(area: Rect) -> usize {
    (area.width.saturating_sub(2) as usize)
        .saturating_sub(STAMP_WIDTH)
        .max(8)
}

/// The rows of text a log pane of `area` shows.
pub fn log_rows(area: Rect) -> usize {
    area.height.saturating_sub(2) as usize
}

/// The list rows a sort pane of `area` shows under `header` lines.
pub fn sort_list_rows(area: Rect, header: usize) -> usize {
    (area.height.saturating_sub(2) as usize).saturating_sub(header)
}

/// Lines above the tree browser's child list (path, node, result, column heads) and below
/// it (the selected child's details, the newer-tree notice).
pub const TREE_HEAD: u16 = 4;
pub const TREE_FOOT: u16 = 2;

/// Rows of the tree browser's child list in a pane of `area`.
pub fn tree_list_rows(area: Rect) -> usize {
    area.height.saturating_sub(2 + TREE_HEAD + TREE_FOOT).max(1) as usize
}

/// The help text as plain rows (keys, commands, settings), for the overlay and the README.
pub fn help_rows() -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = keys::help_rows(keys::DEFAULT_KEYS)
        .into_iter()
        .map(|(k, d)| (k, d.to_string()))
        .collect();
    // What each number on the screen is (each pane's legend, `?`, shows its own).
    rows.push((String::new(), String::new()));
    rows.extend(
        super::legend::NUMBERS
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string())),
    );
    rows.push((String::new(), String::new()));
    rows.extend(command::help_rows(false));
    // The settings `:set` takes, with what each allows (the same words as its errors).
    rows.push((String::new(), String::new()));
    for setting in <Setting as strum::VariantArray>::VARIANTS {
        rows.push((format!(":set {setting}"), setting.allowed()));
    }
    rows.push((String::new(), String::new()));
    rows.extend(
        super::legend::TREE_NOTES
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string())),
    );
    rows
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

/// The help rows laid out for an overlay inside of `width` columns: (key column, one row
/// of its description); descriptions wrap beneath their key.
pub fn help_lines(width: u16, club: bool) -> Vec<(String, String)> {
    // In the club its own keys and commands come first: they are what a visitor needs,
    // and the engine's help runs to a hundred rows.
    let mut rows = Vec::new();
    if club {
        rows.push(("Ctrl+R".into(), "club: hide or show the chat".into()));
        rows.push((
            "Ctrl+V".into(),
            "club: the engine's panes while watching".into(),
        ));
        rows.push(("'TEXT".into(), "club: chat in the room".into()));
        rows.extend(command::help_rows(true));
        rows.push((String::new(), String::new()));
    }
    rows.extend(help_rows());
    // The club's rows, the keys and the commands each get their own column width.
    let mut splits: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, (k, _))| k.is_empty())
        .map(|(i, _)| i)
        .take(1 + usize::from(club))
        .collect();
    splits.push(rows.len());
    let width_of = |part: &[(String, String)]| {
        part.iter()
            .map(|(k, _)| k.chars().count())
            .max()
            .unwrap_or(0)
            .min(width as usize / 2)
    };
    let mut start = 0;
    let widths: Vec<usize> = splits
        .iter()
        .map(|&end| {
            let w = width_of(&rows[start..end]);
            start = end;
            w
        })
        .collect();
    let mut out = Vec::new();
    for (i, (k, d)) in rows.iter().enumerate() {
        let key_w = widths[splits.iter().filter(|&&end| i >= end).count()];
        let desc_w = (width as usize).saturating_sub(key_w + 2).max(10);
        let k: String = k.chars().take(key_w).collect();
        for (j, part) in wrap_text(d, desc_w).into_iter().enumerate() {
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
pub fn help_max_scroll(area: Rect, club: bool) -> usize {
    let inner = help_inner(area);
    help_lines(inner.width, club)
        .len()
        .saturating_sub(inner.height as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_the_club_its_commands_open_the_help() {
        let at = |lines: &[(String, String)], what: &str| {
            lines
                .iter()
                .position(|(k, d)| k.contains(what) || d.contains(what))
        };
        let club = help_lines(96, true);
        assert!(club[0].0.starts_with("Ctrl+R"), "{:?}", club[0]);
        let seek_off = at(&club, ":seek off").expect(":seek off is in the help");
        let deeper = at(&club, "search one ply deeper").expect("the engine's keys too");
        assert!(seek_off < deeper, "{seek_off} {deeper}");
        // The club's column is as wide as its own keys, not the engine's.
        let seek = &club[at(&club, ":seek off").unwrap()].0;
        assert!(seek.starts_with(":seek off "), "{seek:?}");
        let plain = help_lines(96, false);
        assert_eq!(at(&plain, ":seek"), None);
        assert!(plain[0].0.trim_end().len() < 40, "{:?}", plain[0]);
    }
}
