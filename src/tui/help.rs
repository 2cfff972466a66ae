//! The help overlay's text (F1): the keys (from the key table, the panes' own keys named by
//! their pane), what each number on the screen is, the `:` commands and the settings, each
//! from the one table that defines it, so the help cannot say other than what is true.

use ratatui::layout::Rect;

use super::app::command;
use super::app::log::wrap_text;
use super::layout::help_inner;
use super::settings::Setting;
use super::{keys, legend, pane};

/// The help text as plain rows (keys, commands, settings), for the overlay and the tests.
pub fn help_rows() -> Vec<(String, String)> {
    let mut rows: Vec<(String, String)> = keys::help_rows(&pane::key_table())
        .into_iter()
        .map(|(k, d)| (k, d.to_string()))
        .collect();
    // What each number on the screen is (each pane's legend, `?`, shows its own).
    rows.push((String::new(), String::new()));
    rows.extend(
        legend::NUMBERS
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
        legend::TREE_NOTES
            .iter()
            .map(|(k, d)| (k.to_string(), d.to_string())),
    );
    rows
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
        rows.extend(
            command::TIEBREAKS
                .iter()
                .map(|(k, d)| (k.to_string(), d.to_string())),
        );
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
    fn the_club_help_says_what_each_swiss_tie_break_means() {
        let club = help_lines(200, true);
        for (key, what) in [
            ("BH", "Buchholz cut-1"),
            ("SB", "Sonneborn-Berger"),
            ("DE", "direct encounter"),
        ] {
            assert!(
                club.iter()
                    .any(|(k, d)| k.trim() == key && d.contains(what)),
                "{key} {what}"
            );
        }
        let plain = help_lines(200, false);
        assert!(!plain.iter().any(|(_, d)| d.contains("Buchholz")));
        assert!(club.iter().any(|(k, _)| k.trim() == ":berserk"));
    }

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
