//! Puzzles in the TUI: `:puzzle` sets the game aside and shows the puzzle turned to the
//! solver; a wrong answer is refused with the engine's refutation and may be retried; a
//! right one brings the reply; F2 shows the solution; the rating moves and is kept beside
//! the games; `:puzzle off` gives the game back; a review turns the player's mistakes into
//! their own puzzles.

use crate::common;

use common::app::{enter, message, options_in, press, press_with};

use std::time::{Duration, Instant};

use common::TempDir;
use common::app::app_of;
use crossterm::event::{KeyCode, KeyModifiers};
use ox88::game::autosave::Autosave;
use ox88::puzzle::progress::{FILE_NAME, Progress};
use ox88::tui::app::MessageKind;
use ox88::tui::{Mode, Options};

/// A knight fork in two moves (Nc7+ Kd7 Nxa8), a mate in one, and a hung queen.
const PUZZLES: &str = "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
Fork1,r3k3/pp3ppp/8/1N6/8/8/PPP2PPP/4K3 b - - 0 20,h7h6 b5c7 e8d7 c7a8,1500,80,0,0,fork short,,
Mate1,r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3,g8f6 h5f7,900,80,0,0,mate mateIn1,,
";

fn options(dir: &TempDir) -> Options {
    let file = dir.path().join("puzzles.csv");
    std::fs::write(&file, PUZZLES).unwrap();
    Options {
        puzzles: Some(file),
        ..options_in(Mode::HumanHuman)
    }
}

#[test]
fn a_puzzle_is_solved_with_a_miss_retried_and_the_game_comes_back() {
    let dir = TempDir::new("tui-puzzle");
    let (mut app, _) = app_of(&options(&dir));
    for m in ["e4", "e5", "Nf3"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":puzzle fork");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Info, "{text}");
    assert!(
        text.contains("puzzle Fork1") && text.contains("White to play and win"),
        "{text}"
    );
    // The opponent's move is played and shown; the board is the solver's.
    assert_eq!(
        app.game().board().to_fen(),
        "r3k3/pp3pp1/7p/1N6/8/8/PPP2PPP/4K3 w - - 0 21"
    );
    let before = app.game().board().to_fen();
    // A wrong answer: refused with the engine's answer, the board as it was.
    enter(&mut app, "a3");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Error);
    assert!(
        text.contains("✗ a3 is not it") && text.contains("Black answers"),
        "{text}"
    );
    assert_eq!(app.game().board().to_fen(), before);
    assert_eq!(
        app.input().value(),
        "a3",
        "the refused answer stays, marked"
    );
    // Retry: the right answers bring the reply, then the puzzle is solved.
    enter(&mut app, "Nc7+");
    let (_, text) = message(&app);
    assert!(
        text.contains("✓ Nc7+") && text.contains("Kd7 was the reply"),
        "{text}"
    );
    enter(&mut app, "Nxa8");
    let (_, text) = message(&app);
    assert!(
        text.starts_with("solved after a miss: puzzle rating"),
        "{text}"
    );
    assert!(
        text.contains("fork"),
        "themes are shown once solved: {text}"
    );
    // Back to the game, exactly as it was.
    enter(&mut app, ":puzzle off");
    assert_eq!(app.game().sans(), ["e4", "e5", "Nf3"]);
    assert_eq!(app.message().unwrap().text, "back to your game");
}

#[test]
fn a_clean_solve_raises_the_rating_and_the_record_is_kept_beside_the_games() {
    let dir = TempDir::new("tui-puzzle-record");
    let data = dir.path().join("data");
    let (builder, _) = common::app::builder_with(
        &options(&dir),
        "default",
        ox88::tui::theme::ColorDepth::TrueColor,
    );
    let mut app = builder.autosave(Some(Autosave::in_dir(&data))).build();
    enter(&mut app, ":puzzle mateIn1");
    enter(&mut app, "Qxf7#");
    let (_, text) = message(&app);
    assert!(text.starts_with("✓ solved: puzzle rating"), "{text}");
    let record = Progress::load(&data.join(FILE_NAME)).unwrap();
    assert_eq!(record.history.len(), 1);
    assert!(record.history[0].solved);
    assert!(record.rating.rating > 1500.0);
    assert_eq!(record.streak, 1);
    // The game in progress was not touched by the puzzle.
    assert!(
        !data.join("current.pgn").exists() || {
            let text = std::fs::read_to_string(data.join("current.pgn")).unwrap();
            !text.contains("Qxf7")
        }
    );
    // A new app reads the record: stats show it.
    let (builder, _) = common::app::builder_with(
        &options(&dir),
        "default",
        ox88::tui::theme::ColorDepth::TrueColor,
    );
    let mut app = builder.autosave(Some(Autosave::in_dir(&data))).build();
    enter(&mut app, ":puzzle stats");
    let (_, text) = message(&app);
    assert!(text.starts_with("puzzle rating 1"), "{text}");
}

#[test]
fn f2_shows_the_solution_and_ctrl_o_serves_the_next() {
    let dir = TempDir::new("tui-puzzle-show");
    let (mut app, _) = app_of(&options(&dir));
    enter(&mut app, ":puzzle fork");
    assert!(
        message(&app).1.contains("puzzle Fork1"),
        "{:?}",
        message(&app)
    );
    press(&mut app, KeyCode::F(2));
    let (_, text) = message(&app);
    assert!(text.starts_with("solution shown"), "{text}");
    assert_eq!(
        app.game()
            .board()
            .piece_at("a8".parse().unwrap())
            .map(|p| p.fen_char()),
        Some('N'),
        "the solution is played out on the board"
    );
    // Answers after the end are refused.
    enter(&mut app, "Ke2");
    assert_eq!(message(&app).0, MessageKind::Error);
    press(&mut app, KeyCode::Esc);
    press_with(&mut app, KeyCode::Char('o'), KeyModifiers::CONTROL);
    let (_, text) = message(&app);
    assert!(text.starts_with("puzzle "), "{text}");
    enter(&mut app, ":puzzle zugzwang");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Error);
    assert!(
        text.contains("no puzzle has the theme 'zugzwang'"),
        "{text}"
    );
}

#[test]
fn a_reviewed_mistake_becomes_the_players_own_puzzle() {
    let dir = TempDir::new("tui-puzzle-own");
    let opts = Options {
        mode: Mode::HumanWhite,
        ..options(&dir)
    };
    let (mut app, _) = app_of(&opts);
    // White (the player) misses Qxf7# with 4.d3; the recording engine plays nothing, so
    // Black's moves are entered as a second player would.
    enter(&mut app, ":mode human");
    for m in ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "d3", "Be7"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":mode white");
    enter(&mut app, ":review");
    let deadline = Instant::now() + Duration::from_secs(120);
    while app.review().is_running() {
        assert!(Instant::now() < deadline, "the review ends");
        std::thread::sleep(Duration::from_millis(20));
        app.on_tick(Instant::now());
    }
    enter(&mut app, ":puzzle mine");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Info, "{text}");
    assert_eq!(
        app.game().board().to_fen(),
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"
    );
    enter(&mut app, "Qxf7#");
    assert!(
        message(&app).1.starts_with("✓ solved"),
        "{:?}",
        message(&app)
    );
}

/// Tab at `:puzzle` offers its words and the themes of the puzzles there are, and the
/// completed command serves a puzzle of that theme.
#[test]
fn tab_completes_a_puzzle_theme_and_the_completed_command_serves_it() {
    let dir = TempDir::new("tui-puzzle-tab");
    let (mut app, _) = app_of(&options(&dir));
    common::app::type_text(&mut app, ":puzzle ");
    press(&mut app, KeyCode::Tab);
    let (_, offered) = message(&app);
    for word in ["mine", "stats", "fork", "mateIn1", "short"] {
        assert!(
            offered.split_whitespace().any(|w| w == word),
            "{word}: {offered}"
        );
    }
    common::app::type_text(&mut app, "fo");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.input().value(), ":puzzle fork");
    press(&mut app, KeyCode::Enter);
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Info, "{text}");
    assert!(text.contains("puzzle Fork1"), "{text}");
}

/// Ticks the app until its review has ended (failing after two minutes).
fn wait_for_review(app: &mut ox88::tui::app::App) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while app.review().is_running() {
        assert!(Instant::now() < deadline, "the review ends");
        std::thread::sleep(Duration::from_millis(20));
        app.on_tick(Instant::now());
    }
}

/// Black to move; after 1...Nc3 White mates with Re8#, and 2.h3 misses it (2...h6 ends
/// the chance).
const BACK_RANK: &str = "6k1/p4ppp/8/8/8/8/n4PPP/4R1K1 b - - 0 1";

#[test]
fn a_missed_mate_in_a_game_begun_with_fen_becomes_the_players_own_puzzle() {
    let dir = TempDir::new("tui-puzzle-own-fen");
    let opts = Options {
        mode: Mode::HumanWhite,
        ..options(&dir)
    };
    let (mut app, _) = app_of(&opts);
    enter(&mut app, &format!(":fen {BACK_RANK}"));
    // The recording engine plays nothing: Black's moves are entered as a second player's.
    enter(&mut app, ":mode human");
    for m in ["Nc3", "h3", "h6"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":mode white");
    enter(&mut app, ":review");
    wait_for_review(&mut app);
    enter(&mut app, ":puzzle mine");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Info, "{text}");
    assert_eq!(
        app.game().board().to_fen(),
        "6k1/p4ppp/8/8/8/2n5/5PPP/4R1K1 w - - 1 2"
    );
    enter(&mut app, "Re8#");
    assert!(
        message(&app).1.starts_with("✓ solved"),
        "{:?}",
        message(&app)
    );
}

#[test]
fn a_loaded_game_that_names_the_player_gives_their_mistakes_and_no_one_elses() {
    let dir = TempDir::new("tui-puzzle-own-loaded");
    let me = ox88::tui::settings::Settings::default().name;
    let pgn = dir.path().join("mine.pgn");
    // White (someone else) hangs the queen with 3.Qxe5+; Black (the player) misses 3...Nxe5.
    let game = |white: &str, black: &str| {
        format!(
            "[White \"{white}\"]\n[Black \"{black}\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Be7 4. Qg3 Nf6 *\n"
        )
    };
    std::fs::write(&pgn, game("Someone Else", &me)).unwrap();
    // The mode says White, but a game that names its players is the player's by name.
    let opts = Options {
        mode: Mode::HumanWhite,
        ..options(&dir)
    };
    let (mut app, _) = app_of(&opts);
    enter(&mut app, &format!(":load {}", pgn.display()));
    enter(&mut app, ":review");
    wait_for_review(&mut app);
    enter(&mut app, ":puzzle mine");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Info, "{text}");
    // Black's turn after 3.Qxe5+: the answer is 3...Nxe5.
    assert_eq!(app.game().board().side_to_move(), ox88::chess::Color::Black);
    enter(&mut app, "Nxe5");
    assert!(
        message(&app).1.starts_with("✓ solved"),
        "{:?}",
        message(&app)
    );

    // The same game naming two others: nothing is the player's, and `:puzzle mine` says so.
    let dir = TempDir::new("tui-puzzle-own-others");
    let pgn = dir.path().join("theirs.pgn");
    std::fs::write(&pgn, game("Someone Else", "Another One")).unwrap();
    let (mut app, _) = app_of(&Options {
        mode: Mode::HumanWhite,
        ..options(&dir)
    });
    enter(&mut app, &format!(":load {}", pgn.display()));
    enter(&mut app, ":review");
    wait_for_review(&mut app);
    enter(&mut app, ":puzzle mine");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Error);
    assert!(text.contains("not one you played"), "{text}");
}

#[test]
fn puzzle_mine_says_why_a_reviewed_game_gave_none() {
    let dir = TempDir::new("tui-puzzle-own-none");
    let (mut app, _) = app_of(&Options {
        mode: Mode::HumanWhite,
        ..options(&dir)
    });
    // The book's Ruy Lopez: no mistake of White's.
    enter(&mut app, ":mode human");
    for m in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"] {
        enter(&mut app, m);
    }
    enter(&mut app, ":mode white");
    enter(&mut app, ":review");
    wait_for_review(&mut app);
    enter(&mut app, ":puzzle mine");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Error);
    assert!(text.contains("no mistake (? or ??) of yours"), "{text}");
}

/// While a puzzle is being solved the sort pane gives nothing away: no scores or reasons
/// (the mate, Qxf7#, is a capture the ordering would put first with its exchange's gain),
/// a note instead, and the moves in the order of their coordinates; once the puzzle is
/// over the ordering is back.
#[test]
fn the_sort_pane_hides_the_ordering_until_the_puzzle_is_over() {
    use ox88::tui::pane::sort::draw::HIDDEN_NOTE;
    let dir = TempDir::new("tui-puzzle-sort");
    let (mut app, _) = app_of(&options(&dir));
    // The same position outside a puzzle: the ordering sorts the mate first, with reasons.
    enter(
        &mut app,
        ":fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    );
    let open = common::app::screen(&mut app, 80, 24).join("\n");
    assert!(open.contains("h5f7") && open.contains("sorted"), "{open}");
    assert!(!open.contains(HIDDEN_NOTE), "{open}");
    enter(&mut app, ":puzzle mateIn1");
    for (w, h) in [(80, 24), (120, 40)] {
        let lines = common::app::screen(&mut app, w, h);
        let screen = lines.join("\n");
        let pane = common::screen_pane(&lines, "┌ Sort ").expect("the sort pane");
        let text = pane.inner.join("\n");
        assert!(pane.inner[0].starts_with(HIDDEN_NOTE), "{w}×{h}\n{screen}");
        for giveaway in ["SEE", "MVV", "capture", "sorted", "search order", "10000"] {
            assert!(!text.contains(giveaway), "{w}×{h}: {giveaway}\n{text}");
        }
        // The moves in coordinates' order: a2a3 first, the mate somewhere among them.
        assert!(pane.inner[1].trim_start().starts_with("1 a2a3"), "{text}");
        assert!(text.contains("h5f7"), "{text}");
    }
    enter(&mut app, "Qxf7#");
    assert!(app.puzzle_status().unwrap().ends_with("over"));
    let lines = common::app::screen(&mut app, 80, 24);
    let pane = common::screen_pane(&lines, "┌ Sort ").unwrap();
    assert!(
        !pane.inner.join("\n").contains(HIDDEN_NOTE),
        "{pane:?}",
        pane = pane.inner
    );
}

/// A wrong answer's refutation gives its score from White's view, labelled, when Black
/// solves too: White's rook against the knight reads plus, not the solver's minus.
#[test]
fn a_refutation_for_a_black_solver_gives_the_score_from_whites_view() {
    let dir = TempDir::new("tui-puzzle-black");
    let file = dir.path().join("puzzles.csv");
    let fork_for_black = "ForkB,4k3/ppp2ppp/8/8/1n6/8/PP3PPP/R3K3 w - - 0 20,h2h3 b4c2 e1d2 c2a1,1500,80,0,0,fork short,,\n";
    let header = PUZZLES.lines().next().unwrap();
    std::fs::write(&file, format!("{header}\n{fork_for_black}")).unwrap();
    let opts = Options {
        puzzles: Some(file),
        ..options_in(Mode::HumanHuman)
    };
    let (mut app, _) = app_of(&opts);
    enter(&mut app, ":puzzle fork");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Info, "{text}");
    assert!(text.contains("Black to play"), "{text}");
    enter(&mut app, "a6");
    let (kind, text) = message(&app);
    assert_eq!(kind, MessageKind::Error, "{text}");
    assert!(text.contains("White answers"), "{text}");
    assert!(text.contains("(search +"), "White is better: {text}");
    assert!(text.contains(", White's view)"), "{text}");
}
