//! The sort pane's root-move table and iteration statistics, drawn at 80×24 and 120×40 from
//! a real search's reports (the engine is a recorder here; the events come from a search
//! run beside it, so nothing depends on timing).

use crate::common;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ox88::engine::search::Searcher;
use ox88::engine::{Bound, IterationInfo, Limits, SearchEvent, SearchOptions};
use ox88::tui::Options;
use ox88::tui::app::App;
use ox88::tui::pane::sort::draw::{compact, root_head, root_row_text, stats_words};
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
    common::screen_pane(lines, "┌ Sort ").unwrap().inner
}

/// The sort pane's frame lines: the top one (its summary) and the bottom one (PV, counters).
fn sort_frame(lines: &[String]) -> (String, String) {
    let p = common::screen_pane(lines, "┌ Sort ").unwrap();
    (p.top, p.bottom)
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
    let (top, bottom) = sort_frame(&lines);
    let width = pane[0].chars().count();
    assert!(width < 70, "the narrow table at 80 columns ({width})");
    // The summary is the frame's: position, depth, scheme, first-move cutoffs on top; the
    // PV and the first counters below, whole words only.
    assert!(
        top.contains("1... Black") && top.contains("d6") && top.contains("1st "),
        "{top}"
    );
    assert!(
        bottom.contains(" PV ") && bottom.contains("cut@ "),
        "{bottom}"
    );
    let words = stats_words(&info.stats);
    assert!(bottom.contains(&words[0]), "{bottom}");
    // One line of column heads, then the rows.
    // Black is to move: the scores are Black's view, and the head says so.
    assert_eq!(pane[0], root_head(width, ox88::chess::Color::Black));
    assert!(pane[0].starts_with(" # move     order  nodes  B view refuted by"));
    // The rows are the search's, in its order, with its numbers.
    let shown = pane.len() - 1;
    assert!(shown >= 8, "{pane:#?}");
    for (i, r) in info.root_rows.iter().take(shown).enumerate() {
        let line = &pane[1 + i];
        assert_eq!(line, &root_row_text(i + 1, r, width), "row {i}");
        assert!(line.contains(&r.mv().to_string()));
        assert!(line.contains(&compact(r.nodes)));
    }
    let best = &pane[1];
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
        assert!(pane[1 + i].contains(&text), "{}", pane[1 + i]);
        assert!(
            pane[1 + i].contains('≤'),
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
    let (_, bottom) = sort_frame(&lines);
    let width = pane[0].chars().count();
    assert!(width >= 70, "the wide table ({width})");
    // Every counter fits the frame's bottom line at this width.
    let words = stats_words(&info.stats).join(" ");
    assert!(bottom.contains(&words), "{bottom} / {words}");
    assert!(
        pane[0].starts_with(" # move     order  nodes  total  ")
            && pane[0].contains(" view refuted by reasons"),
        "{}",
        pane[0]
    );
    let first = &info.root_rows[0];
    assert_eq!(pane[1], root_row_text(1, first, width));
    assert!(pane[1].contains(&compact(first.nodes_total)));
    assert!(
        pane[1].contains("PV+"),
        "the first move's reasons: {}",
        pane[1]
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
    assert!(pane[0].trim_end().ends_with("(d6 so far)"), "{}", pane[0]);
    let third = &pane[3];
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

/// Whether `line` (a sort pane row) begins with `n` and then a move in coordinates.
fn numbered_move(line: &str, n: usize) -> bool {
    let Some(rest) = line.strip_prefix(&format!("{n:>2} ")) else {
        return false;
    };
    let m: Vec<char> = rest.chars().take(4).collect();
    m.len() == 4
        && ('a'..='h').contains(&m[0])
        && ('1'..='8').contains(&m[1])
        && ('a'..='h').contains(&m[2])
        && ('1'..='8').contains(&m[3])
}

/// The sort pane's rows numbered 1, 2, … each with its move, from the top.
fn numbered_rows(pane: &[String]) -> usize {
    pane.iter()
        .skip(1)
        .enumerate()
        .take_while(|(i, l)| numbered_move(l, i + 1))
        .count()
}

/// The pane the program is named for keeps the root moves on screen: at least 15 at
/// 120×40 and larger, 8 at 80×24, each row begun by its number and move, while the board
/// keeps all eight ranks and its full height and the log its rows (as many as before the
/// sort pane took more room: 6 at 80×24, 9 at 120×40, 12 at 160×50).
#[test]
fn the_sort_pane_shows_most_root_moves_and_the_board_and_log_keep_their_rows() {
    let (mut app, events) = thinking(6);
    for e in &events {
        app.on_engine_event(e.clone());
    }
    let info = last_info(&events);
    assert!(info.root_rows.len() >= 20, "1.e4: Black has 20 moves");
    for (w, h, moves, log_rows) in [(80, 24, 8, 6), (120, 40, 15, 9), (160, 50, 15, 12)] {
        let (lines, _) = common::render(&mut app, w, h);
        let screen = lines.join("\n");
        let pane = sort_pane(&lines);
        let shown = numbered_rows(&pane);
        assert!(shown >= moves, "{w}×{h}: {shown} moves\n{screen}");
        for (i, r) in info.root_rows.iter().take(shown).enumerate() {
            assert!(
                pane[1 + i].contains(&r.mv().to_string()),
                "{w}×{h}: row {i}: {}",
                pane[1 + i]
            );
        }
        let board = common::screen_pane(&lines, "┌ Board ").unwrap();
        assert_eq!(
            board.inner.len(),
            usize::from(h) - 5,
            "{w}×{h}: board\n{screen}"
        );
        for rank in 1..=8 {
            let label = format!("{rank} ");
            assert!(
                board.inner.iter().any(|l| l.starts_with(&label)),
                "{w}×{h}: rank {rank}\n{screen}"
            );
        }
        let log = common::screen_pane(&lines, "┌ Log ").unwrap();
        assert!(
            log.inner.len() >= log_rows,
            "{w}×{h}: log {} rows\n{screen}",
            log.inner.len()
        );
        // Nothing else is left out at these sizes: the evaluation pane and the chart.
        if w >= 120 {
            assert!(screen.contains("┌ Eval"), "{w}×{h}\n{screen}");
            assert!(screen.contains("E over the game"), "{w}×{h}\n{screen}");
        }
    }
}

/// The reasons are cut at whole words: where the points do not fit, the names alone, and
/// where those do not, the first names and `…`.
#[test]
fn reasons_are_fitted_whole() {
    use ox88::engine::order::{Reason, ReasonKind, ScoredMove};
    use ox88::tui::pane::sort::draw::{entry_text, reasons_fitted};
    let board = ox88::chess::Board::startpos();
    let m = ScoredMove {
        mv: board.parse_uci_move("e2e4").unwrap(),
        score: 10_404,
        reasons: vec![
            Reason {
                kind: ReasonKind::Pv,
                points: 10_000,
            },
            Reason {
                kind: ReasonKind::MvvLva,
                points: 400,
            },
            Reason {
                kind: ReasonKind::History,
                points: 4,
            },
        ],
    };
    assert_eq!(reasons_fitted(&m, 40), "PV+10000 MVV/LVA+400 history+4");
    assert_eq!(reasons_fitted(&m, 20), "PV MVV/LVA history");
    assert_eq!(reasons_fitted(&m, 13), "PV MVV/LVA …");
    assert_eq!(reasons_fitted(&m, 4), "PV …");
    assert_eq!(reasons_fitted(&m, 1), "…");
    // The two columns before a search at 80×24 (24 characters each).
    let entry = entry_text(1, &m, 24);
    assert_eq!(entry.chars().count(), 24);
    assert!(entry.starts_with(" 1 e2e4   10404 PV"), "{entry}");
    assert!(!entry.contains("MVV/L "), "{entry}");
}

/// In the real program at 120×40, after the engine searched its reply: the sort pane shows
/// its root moves numbered, fifteen or more.
#[test]
fn the_real_program_shows_fifteen_root_moves_at_120x40_and_eight_at_80x24() {
    for (rows, cols, least) in [(40, 120, 15), (24, 80, 8)] {
        let dir = common::TempDir::new("pty-sort");
        let mut cmd = portable_pty::CommandBuilder::new(env!("CARGO_BIN_EXE_ox88"));
        cmd.env("OX88_DATA_DIR", dir.path());
        cmd.env("HOME", dir.path());
        cmd.env("TERM", "xterm-256color");
        let mut s = common::pty::Pty::spawn(cmd, rows, cols);
        s.wait_for("the start screen", |s| {
            s.status().starts_with("White to move")
        });
        // Out of the book the engine searches: its root moves stay on show after its move.
        for (m, after) in [("e2e4", "1.e4 "), ("a2a3", "2.a3 ")] {
            s.send(&format!("{m}\r"));
            s.wait_for("the engine's reply", |s| {
                s.status().starts_with("White to move") && s.text().contains(after)
            });
        }
        s.wait_for(&format!("{least} root moves at {cols}×{rows}"), |s| {
            let rows = s.rows();
            common::screen_pane(&rows, "┌ Sort ").is_some_and(|p| numbered_rows(&p.inner) >= least)
        });
        s.send("\x03");
    }
}
