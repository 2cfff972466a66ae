//! The opening book (seed 004): every built-in line legal, hits by move and by transposition,
//! the opening's name kept after leaving book, weighted-random choice, Polyglot files.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

use ox88::chess::{Board, Move};
use ox88::engine::book::{BUILTIN_LINES, Book, BookError};

/// Plays space-separated coordinate moves from the start position.
fn play(moves: &str) -> Board {
    let mut b = Board::startpos();
    for text in moves.split_whitespace() {
        let m = find(&b, text);
        b.make(m);
    }
    b
}

fn find(b: &Board, text: &str) -> Move {
    b.legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", b.to_fen()))
}

fn book_moves(book: &Book, b: &Board) -> Vec<String> {
    book.moves(b).iter().map(|w| w.mv.to_string()).collect()
}

/// One row of the built-in book split the seed's way.
struct Row {
    number: usize,
    /// Each move with `false` when it carries the `?` mark.
    moves: Vec<(String, bool)>,
    name: String,
}

fn rows() -> Vec<Row> {
    let mut out = Vec::new();
    for (i, raw) in BUILTIN_LINES.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let (token, name) = t
            .split_once(char::is_whitespace)
            .expect("moves, then a name");
        let mut moves = Vec::new();
        let chars: Vec<char> = token.chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let mv: String = chars[k..(k + 4).min(chars.len())].iter().collect();
            k += 4;
            let played = chars.get(k) != Some(&'?');
            if !played {
                k += 1;
            }
            moves.push((mv, played));
        }
        out.push(Row {
            number: i + 1,
            moves,
            name: name.trim().to_string(),
        });
    }
    out
}

#[test]
fn every_builtin_line_is_legal() {
    let rows = rows();
    assert!(rows.len() >= 300, "only {} lines", rows.len());
    let mut failures = Vec::new();
    for Row {
        number: row,
        moves,
        name,
    } in &rows
    {
        let mut b = Board::startpos();
        for (ply, (text, _)) in moves.iter().enumerate() {
            let legal = b.legal_moves();
            match legal.iter().copied().find(|m| &m.to_string() == text) {
                Some(m) => b.make(m),
                None => {
                    failures.push(format!(
                        "row {row} '{name}', ply {}: {text} is not legal in {}",
                        ply + 1,
                        b.to_fen()
                    ));
                    break;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "illegal book lines:\n{}",
        failures.join("\n")
    );
    // The book's own parser agrees: no row is rejected, and no two lines ending in one
    // position give it different names.
    let book = Book::from_lines(BUILTIN_LINES).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.line_count(), rows.len());
    assert_eq!(Book::builtin().line_count(), rows.len());
}

#[test]
fn the_seeds_lines_are_there_with_their_names() {
    // Seed 004's library, names translated from the Swedish.
    let seed = [
        ("e2e4e7e5", "Open Game"),
        ("e2e4e7e5g1f3b8c6f1b5", "Ruy Lopez"),
        ("e2e4e7e5g1f3b8c6c2c3", "Ponziani Opening"),
        ("e2e4e7e5g1f3b8c6d2d4", "Scotch Game"),
        ("e2e4e7e5g1f3b8c6f1c4", "Italian Game"),
        ("e2e4e7e5g1f3b8c6f1c4f8c5", "Giuoco Piano"),
        ("e2e4e7e5g1f3b8c6f1c4f8c5b2b4", "Evans Gambit"),
        ("e2e4e7e5g1f3b8c6f1c4g8f6", "Two Knights Defence"),
        ("e2e4e7e5g1f3b8c6f1c4f8e7", "Hungarian Defence"),
        ("e2e4e7e5g1f3b8c6b1c3g8f6", "Four Knights Game"),
        ("e2e4d7d6d2d4g8f6b1c3g7g6", "Pirc Defence"),
        ("d2d4d7d5b1c3g8f6c1g5", "Richter–Veresov Attack"),
        ("d2d4g8f6c2c4d7d6", "Old Indian Defence"),
        ("d2d4g8f6c2c4e7e5", "Budapest Gambit"),
        ("d2d4g8f6c2c4e7e6g1f3f8b4", "Bogo-Indian Defence"),
        ("d2d4e7e6c2c4b7b6", "English Defence"),
    ];
    let book = Book::builtin();
    for (line, name) in seed {
        let spaced: Vec<String> = line
            .as_bytes()
            .chunks(4)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        let mut b = Board::startpos();
        for (ply, text) in spaced.iter().enumerate() {
            // The seed's rule: the book continues each of its lines, move by move.
            assert!(
                book_moves(&book, &b).contains(text),
                "{name}: the book does not offer {text} at ply {}",
                ply + 1
            );
            b.make(find(&b, text));
        }
        assert_eq!(book.opening_name(&b).as_deref(), Some(name), "{line}");
    }
}

#[test]
fn a_book_hit_returns_the_lines_move_and_the_openings_name() {
    let book = Book::builtin();
    let b = play("e2e4 e7e5 g1f3 b8c6");
    let offered = book_moves(&book, &b);
    for m in ["f1b5", "f1c4", "d2d4", "b1c3", "c2c3"] {
        assert!(
            offered.contains(&m.to_string()),
            "{m} missing from {offered:?}"
        );
    }
    let weights: Vec<u32> = book.moves(&b).iter().map(|w| w.weight).collect();
    assert!(
        weights.windows(2).all(|w| w[0] >= w[1]),
        "best first: {weights:?}"
    );
    assert!(weights.iter().all(|&w| w > 0));

    let best = book.probe(&b, None).expect("a book position");
    assert_eq!(best.mv, book.moves(&b)[0].mv);
    let mut after = b.clone();
    after.make(best.mv);
    assert_eq!(Some(best.name.clone()), book.opening_name(&after));

    let ruy = play("e2e4 e7e5 g1f3 b8c6 f1b5");
    assert_eq!(book.opening_name(&ruy).as_deref(), Some("Ruy Lopez"));
    // Black's replies in the Ruy Lopez are book moves, named after where they lead.
    let reply = book
        .probe(&ruy, None)
        .expect("the book answers the Ruy Lopez");
    assert!(book_moves(&book, &ruy).contains(&reply.mv.to_string()));
    assert!(reply.name.starts_with("Ruy Lopez"), "{}", reply.name);
}

#[test]
fn transpositions_hit_by_position() {
    let book = Book::builtin();
    // 1.c4 e6 2.Nc3 Nf6 3.d4 Bb4: no line is written in this order, yet it is the
    // Nimzo-Indian (1.d4 Nf6 2.c4 e6 3.Nc3 Bb4).
    let order = "c2c4e7e6b1c3g8f6d2d4f8b4";
    assert!(
        rows().iter().all(|row| {
            let s: String = row.moves.iter().map(|(m, _)| m.as_str()).collect();
            !s.starts_with(order)
        }),
        "the test needs a move order the book does not spell out"
    );
    let nimzo = play("c2c4 e7e6 b1c3 g8f6 d2d4 f8b4");
    assert_eq!(
        book.opening_name(&nimzo).as_deref(),
        Some("Nimzo-Indian Defence")
    );
    let direct = play("d2d4 g8f6 c2c4 e7e6 b1c3 f8b4");
    assert_eq!(nimzo.hash(), direct.hash());
    let offered = book_moves(&book, &nimzo);
    for m in ["e2e3", "d1c2", "a2a3"] {
        assert!(
            offered.contains(&m.to_string()),
            "{m} missing from {offered:?}"
        );
    }
    assert_eq!(offered, book_moves(&book, &direct));

    // A position set up from FEN has no history: found by its key alone.
    let fen = Board::from_fen(&play("e2e4 e7e5 g1f3 b8c6 f1b5").to_fen()).unwrap();
    assert_eq!(book.opening_name(&fen).as_deref(), Some("Ruy Lopez"));
}

#[test]
fn the_name_stays_known_after_leaving_book() {
    let book = Book::builtin();
    let mut b = play("e2e4 e7e5 g1f3 b8c6 f1b5");
    // 3...h6 is in no line: out of book, still a Ruy Lopez.
    for m in ["h7h6", "h2h3", "h8h7", "h1h2"] {
        b.make(find(&b, m));
        assert!(book.moves(&b).is_empty(), "{m} should have left the book");
        assert_eq!(book.probe(&b, None), None);
        assert_eq!(
            book.opening_name(&b).as_deref(),
            Some("Ruy Lopez"),
            "after {m}"
        );
    }
    // A more specific name met later wins over the earlier one.
    let najdorf = play("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 h2h4");
    assert_eq!(
        book.opening_name(&najdorf).as_deref(),
        Some("Sicilian Defence: Najdorf Variation")
    );
    // Before any move there is no opening to name.
    assert_eq!(book.opening_name(&Board::startpos()), None);
}

#[test]
fn marked_moves_are_answered_but_never_chosen() {
    let book = Book::builtin();
    // 2...f5 (Latvian Gambit) is marked '?': named, never played by the book.
    let before = play("e2e4 e7e5 g1f3");
    assert!(!book_moves(&book, &before).contains(&"f7f5".to_string()));
    for seed in 0..500 {
        assert_ne!(
            book.probe(&before, Some(seed)).unwrap().mv.to_string(),
            "f7f5"
        );
    }
    let latvian = play("e2e4 e7e5 g1f3 f7f5");
    assert_eq!(
        book.opening_name(&latvian).as_deref(),
        Some("Latvian Gambit")
    );
    assert!(book_moves(&book, &latvian).contains(&"f3e5".to_string()));
    // 1.f4 is never chosen from the start, but the book answers it.
    assert!(!book_moves(&book, &Board::startpos()).contains(&"f2f4".to_string()));
    assert!(book.probe(&play("f2f4"), None).is_some());
}

#[test]
fn random_choice_is_a_book_move_and_deterministic() {
    let book = Book::builtin();
    for line in ["", "e2e4", "e2e4 c7c5 g1f3", "d2d4 g8f6 c2c4", "c2c4 e7e5"] {
        let b = play(line);
        let moves = book.moves(&b);
        assert!(moves.len() >= 2, "{line}: {moves:?}");
        let mut seen = std::collections::HashSet::new();
        for seed in 0..2000u64 {
            let pick = book.probe(&b, Some(seed)).expect("a book position");
            assert!(
                moves.iter().any(|w| w.mv == pick.mv),
                "{line}: {} is not a book move",
                pick.mv
            );
            assert_eq!(
                book.probe(&b, Some(seed)),
                Some(pick.clone()),
                "seed {seed} must repeat"
            );
            seen.insert(pick.mv);
        }
        // Weighted, not fixed: every move carrying at least a tenth of the weight shows up.
        let total: u32 = moves.iter().map(|w| w.weight).sum();
        for w in moves.iter().filter(|w| w.weight * 10 >= total) {
            assert!(
                seen.contains(&w.mv),
                "{line}: {} (weight {}/{total}) never drawn",
                w.mv,
                w.weight
            );
        }
        assert!(seen.len() >= 2, "{line}: always the same move");
    }
}

#[test]
fn from_lines_reports_bad_rows() {
    let err = Book::from_lines("e2e4e7e5g1f3b8c6f1b6 Broken Lopez").unwrap_err();
    assert!(
        matches!(&err, BookError::Line { row: 1, ply: 5, name, .. } if name == "Broken Lopez"),
        "{err:?}"
    );
    assert!(err.to_string().contains("f1b6"), "{err}");
    let err = Book::from_lines("# c\ne2e4e7e5").unwrap_err();
    assert!(matches!(err, BookError::Row { row: 2, .. }), "{err:?}");
    let err = Book::from_lines("e2e4e7 Short").unwrap_err();
    assert!(matches!(err, BookError::Line { ply: 2, .. }), "{err:?}");
    let err = Book::from_lines("e2e4é7e5 Accent").unwrap_err();
    assert!(matches!(err, BookError::Line { ply: 2, .. }), "{err:?}");
    let conflict = "g1f3g8f6c2c4 A\nc2c4g8f6g1f3 B\n";
    let err = Book::from_lines(conflict).unwrap_err();
    assert!(
        matches!(&err, BookError::NameConflict { row: 2, other_row: 1, other, .. } if other == "A"),
        "{err:?}"
    );
    let ok = Book::from_lines("g1f3g8f6c2c4 A\nc2c4g8f6g1f3 A\n").unwrap();
    assert_eq!(ok.line_count(), 2);
    // Both orders lead to one position: its move list merges, its name is shared.
    assert_eq!(book_moves(&ok, &play("g1f3")), vec!["g8f6"]);
    assert_eq!(
        ok.opening_name(&play("c2c4 g8f6 g1f3")).as_deref(),
        Some("A")
    );
}

// ---- Polyglot files -------------------------------------------------------------------------

static FILE_NUMBER: AtomicU32 = AtomicU32::new(0);

/// A fresh path in the temp dir, removed when dropped.
struct TempBook(PathBuf);

impl TempBook {
    fn new(bytes: &[u8]) -> TempBook {
        let n = FILE_NUMBER.fetch_add(1, Ordering::SeqCst);
        let path =
            std::env::temp_dir().join(format!("ox88-book-test-{}-{n}.bin", std::process::id()));
        std::fs::write(&path, bytes).expect("temp dir is writable");
        TempBook(path)
    }
}

impl Drop for TempBook {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Polyglot's move word for `e2e4`, `a7a8q`: to in bits 0-5, from in 6-11, promotion 12-14.
fn word(text: &str) -> u16 {
    let b = text.as_bytes();
    let sq = |f: u8, r: u8| u16::from(f - b'a') + 8 * u16::from(r - b'1');
    let promo = match b.get(4) {
        Some(b'n') => 1,
        Some(b'b') => 2,
        Some(b'r') => 3,
        Some(b'q') => 4,
        _ => 0,
    };
    promo << 12 | sq(b[0], b[1]) << 6 | sq(b[2], b[3])
}

fn entries(list: &[(u64, u16, u16)]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(key, mv, weight) in list {
        out.extend_from_slice(&key.to_be_bytes());
        out.extend_from_slice(&mv.to_be_bytes());
        out.extend_from_slice(&weight.to_be_bytes());
        out.extend_from_slice(&0u32.to_be_bytes());
    }
    out
}

#[test]
fn polyglot_entries_are_decoded_and_weighted() {
    let start = Board::startpos();
    // The published Polyglot key of the start position: our hash is that layout.
    assert_eq!(start.hash(), 0x463b_9618_1691_fc9c);
    let after_e4 = play("e2e4");
    let mut list = vec![
        (start.hash(), word("e2e4"), 10),
        (start.hash(), word("d2d4"), 30),
        (start.hash(), word("g1f3"), 0),  // weight 0: never offered
        (start.hash(), word("e2e5"), 99), // not legal: never offered
        (start.hash(), word("e2e4"), 5),  // a second entry for e2e4: weights add up
        (after_e4.hash(), word("c7c5"), 7),
    ];
    list.sort_by_key(|e| e.0);
    let file = TempBook::new(&entries(&list));
    let book = Book::with_polyglot(&file.0).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(book.polyglot_path(), Some(file.0.as_path()));

    let moves: Vec<(String, u32)> = book
        .moves(&start)
        .iter()
        .map(|w| (w.mv.to_string(), w.weight))
        .collect();
    assert_eq!(
        moves,
        vec![("d2d4".to_string(), 30), ("e2e4".to_string(), 15)]
    );
    let best = book.probe(&start, None).unwrap();
    assert_eq!(best.mv.to_string(), "d2d4");
    assert_eq!(
        best.name, "Queen's Pawn Game",
        "names come from the built-in lines"
    );
    let mut drawn = std::collections::HashSet::new();
    for seed in 0..300 {
        let m = book.probe(&start, Some(seed)).unwrap().mv.to_string();
        assert!(m == "d2d4" || m == "e2e4", "{m}");
        drawn.insert(m);
    }
    assert_eq!(drawn.len(), 2);
    assert_eq!(book_moves(&book, &after_e4), vec!["c7c5"]);
    // Where the file has nothing, the built-in lines answer.
    let e4e5 = play("e2e4 e7e5");
    assert_eq!(
        book_moves(&book, &e4e5),
        book_moves(&Book::builtin(), &e4e5)
    );
    // A Polyglot-only book has nothing there.
    let only = Book::default().and_polyglot(&file.0).unwrap();
    assert!(only.moves(&e4e5).is_empty());
    assert_eq!(book_moves(&only, &after_e4), vec!["c7c5"]);
}

#[test]
fn polyglot_castling_and_promotions_map_to_our_moves() {
    let white = Board::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1").unwrap();
    let black = Board::from_fen("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1").unwrap();
    let promo = Board::from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
    let mut list = vec![
        (white.hash(), word("e1h1"), 2),
        (white.hash(), word("e1a1"), 1),
        (black.hash(), word("e8h8"), 1),
        (black.hash(), word("e8a8"), 2),
        (promo.hash(), word("a7a8q"), 3),
        (promo.hash(), word("a7a8n"), 1),
    ];
    list.sort_by_key(|e| e.0);
    let file = TempBook::new(&entries(&list));
    let book = Book::default().and_polyglot(&file.0).unwrap();
    let w = book.moves(&white);
    assert_eq!(
        w.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(),
        ["e1g1", "e1c1"]
    );
    assert!(w.iter().all(|m| m.mv.is_castle()));
    let b = book.moves(&black);
    assert_eq!(
        b.iter().map(|m| m.mv.to_string()).collect::<Vec<_>>(),
        ["e8c8", "e8g8"]
    );
    assert!(b.iter().all(|m| m.mv.is_castle()));
    assert_eq!(book_moves(&book, &promo), ["a7a8q", "a7a8n"]);
}

#[test]
fn bad_polyglot_files_are_clear_errors() {
    let key = Board::startpos().hash();
    let good = entries(&[(key, word("e2e4"), 1)]);

    let missing =
        std::env::temp_dir().join(format!("ox88-no-such-book-{}.bin", std::process::id()));
    let err = Book::with_polyglot(&missing).unwrap_err();
    assert!(matches!(err, BookError::Io { .. }), "{err:?}");
    assert!(
        err.to_string().contains(&missing.display().to_string()),
        "{err}"
    );

    let empty = TempBook::new(&[]);
    let err = Book::with_polyglot(&empty.0).unwrap_err();
    assert!(matches!(err, BookError::Empty { .. }), "{err:?}");

    let mut cut = good.clone();
    cut.extend_from_slice(&good[..7]);
    let truncated = TempBook::new(&cut);
    let err = Book::with_polyglot(&truncated.0).unwrap_err();
    assert!(
        matches!(err, BookError::Truncated { len: 23, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string().contains(&truncated.0.display().to_string()),
        "{err}"
    );

    let unsorted = TempBook::new(&entries(&[
        (key, word("e2e4"), 1),
        (key - 1, word("d2d4"), 1),
    ]));
    let err = Book::with_polyglot(&unsorted.0).unwrap_err();
    assert!(
        matches!(err, BookError::Unsorted { index: 1, .. }),
        "{err:?}"
    );

    let bad_move = TempBook::new(&entries(&[
        (key, word("e2e4"), 1),
        (key, 7 << 12 | word("a7a8"), 1),
    ]));
    let err = Book::with_polyglot(&bad_move.0).unwrap_err();
    assert!(
        matches!(err, BookError::BadMove { index: 1, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("entry 1"), "{err}");

    let dir = Book::with_polyglot(std::env::temp_dir()).unwrap_err();
    assert!(
        matches!(
            dir,
            BookError::Io { .. } | BookError::Truncated { .. } | BookError::Empty { .. }
        ),
        "{dir:?}"
    );

    // Whatever failed, the built-in book still works.
    assert!(Book::builtin().probe(&Board::startpos(), None).is_some());
}

#[test]
fn garbage_polyglot_files_never_yield_an_illegal_move() {
    // Deterministic pseudo-random files, keyed so that some entries hit real positions.
    let positions = [Board::startpos(), play("e2e4"), play("e2e4 e7e5 g1f3")];
    let mut state = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..50 {
        let mut list: Vec<(u64, u16, u16)> = (0..40)
            .map(|i| {
                let b = &positions[i % positions.len()];
                // Half real moves of the position, half any well-formed move word.
                let legal = b.legal_moves();
                let mv = if next() % 2 == 0 {
                    word(&legal.as_slice()[next() as usize % legal.len()].to_string())
                } else {
                    let from = (next() % 64) as u16;
                    let to = (from + 1 + (next() % 63) as u16) % 64;
                    from << 6 | to
                };
                (b.hash(), mv, (next() % 5) as u16)
            })
            .collect();
        list.sort_by_key(|e| e.0);
        let file = TempBook::new(&entries(&list));
        let book = Book::default()
            .and_polyglot(&file.0)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut offered = 0;
        for b in &positions {
            let legal = b.legal_moves();
            for w in book.moves(b) {
                assert!(legal.contains(w.mv), "round {round}: {} is not legal", w.mv);
                offered += 1;
            }
            if let Some(p) = book.probe(b, Some(round)) {
                assert!(legal.contains(p.mv));
            }
        }
        assert!(
            offered > 0,
            "round {round}: the real moves in the file were not found"
        );
    }
}
