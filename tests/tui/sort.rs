//! The sort pane's root-move table and iteration statistics, drawn at 80×24 and 120×40 from
//! a real search's reports (the engine is a recorder here; the events come from a search
//! run beside it, so nothing depends on timing).

use crate::common;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ox88::engine::search::Searcher;
use ox88::engine::{Bound, IterationInfo, Limits, SearchEvent, SearchOptions};
use ox88::tui::Options;
use ox88::tui::app::App;
use ox88::tui::pane::sort::draw::{compact, root_row_text, stats_text};
use ox88::tui::settings::Settings;

/// An app where White played e2e4 and the engine (Black) thinks; the events of a real
/// depth-`depth` search of that position, retagged with the app's search id.
fn thinking(depth: u32) -> (App, Vec<SearchEvent>) {
    let opts = Options {
        settings: Settings {
            ascii: true,
            depth: 5,
            ..Settings::default()
        },
        ..Options::default()
    };
    // The engine answers nothing by itself: the test feeds it a real search's events.
    let (mut app, _) = common::app::app_of(&opts);
    for c in "e2e4".chars() {
        app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    }
    app.handle_key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
    let id = app.session().search().expect("the engine thinks").id;
    let board = app.game().board().clone();
    let options = SearchOptions {
        own_book: false,
        hash_mb: 4,
        report_root_moves: true,
        ..SearchOptions::default()
    };
    let mut events = Vec::new();
    Searcher::standalone().search_sync(&board, &Limits::depth(depth), &options, &mut |e| {
        if let SearchEvent::Iteration { info, .. } = e {
            events.push(SearchEvent::Iteration { id, info });
        }
    });
    (app, events)
}

fn last_info(events: &[SearchEvent]) -> IterationInfo {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            SearchEvent::Iteration { info, .. } if info.bound == Bound::Exact => Some(info.clone()),
            _ => None,
        })
        .unwrap()
}

/// The sort pane's inner lines (between its borders).
fn sort_pane(lines: &[String]) -> Vec<String> {
    let top = lines.iter().position(|l| l.contains("┌ Sort ")).unwrap();
    let left = lines[top].chars().position(|c| c == '┌').unwrap();
    lines[top + 1..]
        .iter()
        .take_while(|l| l.chars().nth(left).is_none_or(|c| c != '└'))
        .map(|l| {
            let inner: String = l.chars().skip(left + 1).collect();
            inner.trim_end_matches('│').to_string()
        })
        .collect()
}

#[test]
fn the_sort_pane_shows_the_searchs_root_moves_at_80x24() {
    let (mut app, events) = thinking(6);
    for e in &events {
        app.on_engine_event(e.clone());
    }
    let info = last_info(&events);
    // The log's iteration line ends with the iteration's own figures.
    let s = &info.stats;
    let figures = format!(
        "[1st {:.0}% ebf {:.1} tt {:.0}%]",
        s.first_move_cutoff() * 100.0,
        info.branching,
        s.tt_hit_rate() * 100.0
    );
    let logged = &app.log_buffer().last().unwrap().text;
    assert!(logged.ends_with(&figures), "{logged} / {figures}");
    let (lines, _) = common::render(&mut app, 80, 24);
    let pane = sort_pane(&lines);
    let width = pane[0].chars().count();
    assert!(width < 70, "the narrow table at 80 columns ({width})");
    assert!(
        pane[0].contains("d6") && pane[0].contains("1st-cut"),
        "{pane:#?}"
    );
    assert_eq!(
        pane[1].trim_end(),
        stats_text(&info.stats, width).trim_end()
    );
    assert!(pane[1].starts_with("cut@ "), "abbreviated: {}", pane[1]);
    assert!(pane[2].starts_with("PV "), "{}", pane[2]);
    assert!(pane[3].starts_with(" # move     order  nodes   score refuted by"));
    // The rows are the search's, in its order, with its numbers.
    let shown = pane.len() - 4;
    assert!(shown >= 3, "{pane:#?}");
    for (i, r) in info.root_rows.iter().take(shown).enumerate() {
        let line = &pane[4 + i];
        assert_eq!(line, &root_row_text(i + 1, r, width), "row {i}");
        assert!(line.contains(&r.mv().to_string()));
        assert!(line.contains(&compact(r.nodes)));
    }
    let best = &pane[4];
    assert!(info.root_rows[0].best == best.contains('*'), "{best}");
    // Some row shows its refutation as `reply @index`.
    let refuted = info
        .root_rows
        .iter()
        .take(shown)
        .position(|r| r.refutation_index.is_some());
    if let Some(i) = refuted {
        let r = &info.root_rows[i];
        let text = format!("{} @{}", r.refutation.unwrap(), r.refutation_index.unwrap());
        assert!(pane[4 + i].contains(&text), "{}", pane[4 + i]);
        assert!(
            pane[4 + i].contains('≤'),
            "a refuted move is an upper bound"
        );
    }
}

#[test]
fn the_sort_pane_at_120x40_adds_all_iterations_nodes_and_reasons() {
    let (mut app, events) = thinking(6);
    for e in &events {
        app.on_engine_event(e.clone());
    }
    let info = last_info(&events);
    let (lines, _) = common::render(&mut app, 120, 40);
    let pane = sort_pane(&lines);
    let width = pane[0].chars().count();
    assert!(width >= 70, "the wide table ({width})");
    assert!(pane[1].starts_with("cut index "), "{}", pane[1]);
    assert!(pane[1].contains("TT hits") && pane[1].contains("qsearch"));
    assert_eq!(
        pane[1].trim_end(),
        stats_text(&info.stats, width).trim_end()
    );
    assert!(pane[3].starts_with(" # move     order  nodes  total   score refuted by  reasons"));
    let first = &info.root_rows[0];
    assert_eq!(pane[4], root_row_text(1, first, width));
    assert!(pane[4].contains(&compact(first.nodes_total)));
    assert!(
        pane[4].contains("PV+"),
        "the first move's reasons: {}",
        pane[4]
    );
}

/// A refutation the table gave (no move was tried at that node) says so, `@tt`, instead of
/// leaving its place out without a word; one found by search keeps its `@index`.
#[test]
fn a_refutation_from_the_table_says_where_it_came_from() {
    let (_, events) = thinking(5);
    let info = last_info(&events);
    let mut row = info.root_rows[0].clone();
    let reply =
        ox88::chess::Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap()
            .parse_uci_move("e7e5")
            .unwrap();
    row.score = Some(ox88::engine::Score::Cp(-40));
    row.bound = ox88::engine::Bound::Upper;
    row.refutation = Some(reply);
    row.refutation_index = None;
    // The sort pane's inner widths at 80×24 and 120×40.
    for width in [49, 73] {
        let text = root_row_text(1, &row, width);
        assert!(text.contains("e7e5 @tt"), "{width}: {text}");
    }
    row.refutation_index = Some(3);
    assert!(root_row_text(1, &row, 80).contains("e7e5 @3"));
}

#[test]
fn rows_of_a_running_iteration_say_so_and_show_unsearched_moves_blank() {
    let (mut app, events) = thinking(5);
    for e in &events {
        app.on_engine_event(e.clone());
    }
    let info = last_info(&events);
    // Half-way through the next iteration: the first moves searched, the rest not yet.
    let mut rows = info.root_rows.clone();
    for r in rows.iter_mut().skip(2) {
        r.score = None;
        r.refutation = None;
        r.refutation_index = None;
        r.best = false;
        r.nodes = 0;
    }
    let id = app.session().search().unwrap().id;
    app.on_engine_event(SearchEvent::RootMoves { id, depth: 6, rows });
    let (lines, _) = common::render(&mut app, 80, 24);
    let pane = sort_pane(&lines);
    assert!(pane[3].trim_end().ends_with("(d6 so far)"), "{}", pane[3]);
    let third = &pane[6];
    assert!(
        third.contains(" - ") || third.trim_end().ends_with('-'),
        "{third}"
    );
    // A stale search's rows change nothing.
    let before = lines.clone();
    app.on_engine_event(SearchEvent::RootMoves {
        id: id + 7,
        depth: 9,
        rows: Vec::new(),
    });
    assert_eq!(common::render(&mut app, 80, 24).0, before);
}
