//! The lab view, the evaluation pane and the E chart on ratatui's TestBackend at 80×24 and
//! 120×40, driven through the app's own entry points, with an engine that answers nothing
//! (the lab runs its own searches on its own thread; the test waits for it).

use crate::common;

use common::app::{enter, options_in, press, screen};

use crossterm::event::KeyCode;
use ox88::chess::{Board, Move};
use ox88::engine::eval::{EvalConfig, EvalMode, evaluate_white, explain, settled_white};
use ox88::engine::order::Scheme;
use ox88::engine::search::{Profile, Searcher};
use ox88::engine::{IterationInfo, Limits, Score, SearchEvent, SearchOptions};
use ox88::game::Game;
use ox88::tui::Mode;
use ox88::tui::app::App;
use ox88::tui::app::text::e_text;
use ox88::tui::ui::chart::{EChart, Mark};
use ox88::tui::view::View;

fn app() -> App {
    common::app::app_of(&options_in(Mode::HumanHuman)).0
}

fn nodes_of(scheme: Scheme, profile: Profile, depth: u32) -> u64 {
    let options = SearchOptions {
        scheme,
        profile,
        own_book: false,
        ..SearchOptions::default()
    };
    Searcher::standalone()
        .search_sync(
            &Board::startpos(),
            &Limits::depth(depth),
            &options,
            &mut |_| {},
        )
        .stats
        .nodes
}

/// The `full` evaluation, whose terms the evaluation pane and the chart show whatever mode
/// the engine plays.
fn full_cfg() -> EvalConfig {
    EvalConfig {
        mode: EvalMode::Full,
        ..EvalConfig::default()
    }
}

#[test]
fn the_lab_table_shows_every_run_with_the_searches_own_node_counts() {
    let modern_full = nodes_of(Scheme::Modern, Profile::Full, 3).to_string();
    let none_seed = nodes_of(Scheme::None, Profile::Seed, 3).to_string();
    for (w, h) in [(80, 24), (120, 40)] {
        let mut app = app();
        enter(&mut app, ":lab 3");
        assert_eq!(app.screen().view(), View::Lab);
        app.wait_for_lab();
        let lines = screen(&mut app, w, h);
        let text = lines.join("\n");
        assert!(text.contains("Lab: depth 3, 10 runs"), "{text}");
        assert!(text.contains("done: 10 runs"), "{text}");
        let row = |scheme: &str, profile: &str| {
            lines
                .iter()
                .find(|l| {
                    let words: Vec<&str> = l.split_whitespace().collect();
                    words
                        .windows(2)
                        .any(|p| p[0].ends_with(scheme) && p[1] == profile)
                })
                .cloned()
                .unwrap_or_else(|| panic!("no {scheme} {profile} row:\n{text}"))
        };
        assert!(row("modern", "full").contains(&modern_full), "{text}");
        assert!(row("none", "seed").contains(&none_seed), "{text}");
        // The bar chart in the rows, and one run marked best.
        assert!(row("none", "seed").contains('█'), "{text}");
        assert_eq!(text.matches('★').count(), 1, "{text}");
        if w == 80 {
            // The lab takes the board's place: nothing of the board shows through.
            assert!(!text.contains("Board"), "{text}");
            assert!(lines[16].trim_matches(['│', ' ']).is_empty(), "{text}");
        }
    }
}

#[test]
fn esc_stops_a_running_lab_and_keeps_the_board() {
    let mut app = app();
    enter(&mut app, ":lab 40");
    assert!(app.lab().is_running());
    press(&mut app, KeyCode::Esc);
    app.wait_for_lab();
    assert!(!app.lab().is_running());
    assert!(app.lab().outcome().unwrap().cancelled);
    assert_eq!(app.game().board(), &Board::startpos());
    // A bad depth is refused with the reason; nothing starts.
    enter(&mut app, ":lab 0");
    assert!(!app.lab().is_running());
    assert!(app.message().unwrap().text.contains("depth"));
}

#[test]
fn the_breakdown_adds_up_to_e_in_every_mode() {
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        "8/8/4k3/8/8/2B5/4K3/1b6 w - - 0 1",
    ];
    for fen in fens {
        let board = Board::from_fen(fen).unwrap();
        for mode in EvalMode::ALL {
            let cfg = EvalConfig {
                mode,
                ..EvalConfig::default()
            };
            let b = explain(&board, &cfg);
            let sum: i32 = b.rows.iter().map(|r| r.net).sum();
            assert_eq!(sum, b.total, "{fen} {mode}");
            assert_eq!(b.total, evaluate_white(&board, &cfg), "{fen} {mode}");
            for r in &b.rows {
                assert_eq!(r.net, r.white - r.black, "{fen} {mode} {}", r.term);
            }
        }
    }
}

#[test]
fn the_evaluation_pane_lists_every_term_and_e_in_each_mode() {
    let mut app = app();
    enter(&mut app, "e4");
    enter(&mut app, "d5");
    let board = app.game().board().clone();
    let full = explain(&board, &full_cfg());
    // At 80×24 and 120×40 the view shows it in full (at 120×40 the sort pane's rows leave
    // it its weightiest terms otherwise); from 160×50 it stands beside the sort pane.
    for (w, h, open) in [(80, 24, true), (120, 40, true), (160, 50, false)] {
        if open {
            enter(&mut app, ":view eval");
        } else {
            enter(&mut app, ":view log");
        }
        let lines = screen(&mut app, w, h);
        let text = lines.join("\n");
        // Every term that does something here (the scale and a known ending only in
        // some endings).
        for r in full.rows.iter().filter(|r| ox88::tui::ui::eval::applies(r)) {
            let line = lines
                .iter()
                .find(|l| l.contains(r.term.name()))
                .unwrap_or_else(|| panic!("no {} row:\n{text}", r.term));
            assert!(line.contains(&e_text(r.net)), "{line}");
        }
        // The full terms add up to their sum; the E shown is the net's, the board's number.
        let sum_line = lines
            .iter()
            .find(|l| l.contains("│sum (full)  "))
            .unwrap_or_else(|| panic!("no sum line:\n{text}"));
        assert!(sum_line.contains(&e_text(full.total)), "{sum_line}");
        let shown = settled_white(&board, &EvalConfig::default());
        let e_line = lines
            .iter()
            .find(|l| l.contains("│E (net)  "))
            .unwrap_or_else(|| panic!("no E line:\n{text}"));
        assert!(e_line.contains(&e_text(shown)), "{e_line}");
        assert!(
            text.contains(&format!("E {} ", e_text(shown))),
            "the board shows the same E:\n{text}"
        );
        for mode in EvalMode::ALL {
            let e = settled_white(
                &board,
                &EvalConfig {
                    mode,
                    ..EvalConfig::default()
                },
            );
            assert!(text.contains(&format!("{mode} {}", e_text(e))), "{text}");
        }
        if w >= 120 {
            // From 120×40 the log stays on screen beside the evaluation.
            assert!(text.contains("Log"), "{text}");
        }
    }
    // At 120×40 under the log view the pane keeps its head, E and the terms that weigh most.
    enter(&mut app, ":view log");
    let lines = screen(&mut app, 120, 40);
    let text = lines.join("\n");
    let e_line = lines
        .iter()
        .find(|l| l.contains("││E (net)  "))
        .unwrap_or_else(|| panic!("no E line:\n{text}"));
    assert!(
        e_line.contains(&e_text(settled_white(&board, &EvalConfig::default()))),
        "{e_line}"
    );
    let heaviest = full.rows.iter().max_by_key(|r| r.net.abs()).unwrap();
    assert!(text.contains(heaviest.term.name()), "{text}");
    // Undo: the pane follows the position.
    enter(&mut app, ":undo");
    enter(&mut app, ":view eval");
    let text = screen(&mut app, 80, 24).join("\n");
    let e = settled_white(app.game().board(), &full_cfg());
    assert!(text.contains(&format!("full {}", e_text(e))), "{text}");
}

#[test]
fn the_pv_end_toggle_shows_the_difference_to_the_current_position() {
    let mut app = app();
    enter(&mut app, ":mode analysis");
    let board = app.game().board().clone();
    let pv: Vec<Move> = ["e2e4", "e7e5", "g1f3"]
        .iter()
        .scan(board.clone(), |b, m| {
            let mv = b.parse_uci_move(m).unwrap();
            b.make(mv);
            Some(mv)
        })
        .collect();
    let id = app.session().search().map(|s| s.id).expect("analysis runs");
    app.on_engine_event(SearchEvent::Iteration {
        id,
        info: IterationInfo {
            nodes: 100,
            nps: 1000,
            time: std::time::Duration::from_millis(1),
            ..common::iteration(3, Score::Cp(40), pv.clone())
        },
    });
    enter(&mut app, ":view eval");
    press(&mut app, KeyCode::F(7));
    let text = screen(&mut app, 80, 24).join("\n");
    let mut end = board.clone();
    for m in &pv {
        end.make(*m);
    }
    assert!(text.contains("PV end"), "{text}");
    assert!(text.contains("3 plies ahead"), "{text}");
    // The full terms' sums, then the E shown (the net's), each now, at the end and the change.
    let find = |start: &str| {
        text.lines()
            .find(|l| l.contains(&format!("│{start}  ")))
            .unwrap_or_else(|| panic!("no {start} line:\n{text}"))
    };
    let (now_sum, end_sum) = (
        evaluate_white(&board, &full_cfg()),
        evaluate_white(&end, &full_cfg()),
    );
    let (now_e, end_e) = (
        settled_white(&board, &EvalConfig::default()),
        settled_white(&end, &EvalConfig::default()),
    );
    for (line, values) in [
        (find("sum (full)"), [now_sum, end_sum, end_sum - now_sum]),
        (find("E (net)"), [now_e, end_e, end_e - now_e]),
    ] {
        for v in values {
            assert!(line.contains(&e_text(v)), "{line}");
        }
    }
}

#[test]
fn the_chart_plots_every_ply_marks_mates_and_review_marks() {
    let pgn = "[Event \"t\"]\n\n1. e4 {[%eval #3]} e5 $2 2. Nf3 $4 Nc6 *\n";
    let game = Game::from_pgn_nth(pgn, 1).unwrap();
    let chart = EChart::from_game(&game, &EvalConfig::default());
    assert_eq!(chart.e.len(), 5);
    assert_eq!(chart.plies, 4);
    assert_eq!(
        chart.mates,
        vec![(1.0, 5.0)],
        "a mate sits on the clipped edge"
    );
    assert_eq!(chart.marks, vec![(2, Mark::Mistake), (3, Mark::Blunder)]);
    let mut b = Board::startpos();
    for (ply, m) in ["e2e4", "e7e5", "g1f3", "b8c6"].iter().enumerate() {
        b.make(b.parse_uci_move(m).unwrap());
        // The same E the board and the log show for that position, in the mode in force.
        let e = (settled_white(&b, &EvalConfig::default()) as f64 / 100.0).clamp(-5.0, 5.0);
        assert_eq!(chart.e[ply + 1], ((ply + 1) as f64, e));
    }
    // The marks row puts each mark under its ply: ply 2 of 4 at the middle of the plot.
    let row = ox88::tui::ui::chart::marks_row(&chart, 43);
    assert_eq!(row.find('?'), Some(3 + 20), "{row:?}");
    assert!(row.contains("??"), "{row:?}");
    let fed = chart.clone().with_marks(vec![(1, Mark::Dubious)]);
    assert_eq!(fed.marks, vec![(1, Mark::Dubious)]);
    assert_eq!(ox88::tui::ui::chart::marks_row(&fed, 43).trim(), "?!");
}

#[test]
fn the_chart_opens_as_a_view_at_80x24_and_stays_on_screen_at_120x40() {
    let mut app = app();
    for m in ["e4", "e5", "Nf3", "Nc6"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":undo");
    let big = screen(&mut app, 120, 40).join("\n");
    assert!(big.contains("E over the game  ply 3/4"), "{big}");
    // The chart's key, as long a form as fits (`the_chart_key_fits_whole_…` checks it).
    assert!(big.contains("• search"), "{big}");
    assert!(big.contains("Eval"), "{big}");
    assert!(big.contains("Log"), "{big}");
    let small = screen(&mut app, 80, 24).join("\n");
    assert!(!small.contains("E over the game"), "{small}");
    press(&mut app, KeyCode::F(8)); // log → eval
    press(&mut app, KeyCode::F(8)); // eval → chart
    assert_eq!(app.screen().view(), View::Chart);
    let small = screen(&mut app, 80, 24).join("\n");
    assert!(small.contains("E over the game  ply 3/4"), "{small}");
    assert!(small.contains("• search"), "{small}");
}
