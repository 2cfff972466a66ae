//! A study's chapter as PGN, written and read back: the whole tree, variations inside
//! variations to any depth, glyphs as NAGs (`$1` to `$6`), comments, and in each comment the
//! commands lichess writes for what is drawn on the board — `[%csl Gd4,Re5]` (marked
//! squares), `[%cal Ge2e4]` (arrows), `[%eval 0.35]` (an evaluation, White's view).
//!
//! Writing follows the export format of the standard (the Seven Tag Roster first, `SetUp`
//! and `FEN` for another start, move numbers again after a comment or a variation, lines
//! under 80 columns). Reading takes any such game: glyphs written on the move (`Nf3!?`) or as
//! NAGs, comments before the first move (the chapter's own), several comments on one move
//! (joined), and other NAGs and `[%...]` commands are dropped. Errors name the line.

use super::{Arrow, Glyph, Mark, NodeId, Notes, ROOT, StudyTree};
use crate::chess::{Board, Square};
use crate::game::pgn::{
    PgnError, Reader, Token, escape_tag, eval_text, find_command, glyph_nag, is_annotation,
    parse_eval_value, result_of, split_glyph, strip_move_number,
};

/// Export lines stay below 80 columns.
const MAX_LINE: usize = 79;

/// The Seven Tag Roster, in its order, with the value written when a tag is not given.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// The chapter as one PGN game. `tags` are written after the roster's (whose values they
/// give when named there); `SetUp` and `FEN` are the tree's own.
pub fn write(tree: &StudyTree, tags: &[(String, String)]) -> String {
    let value = |name: &str| {
        tags.iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let mut out = String::new();
    for (name, default) in ROSTER {
        let v = value(name).unwrap_or(default);
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(v)));
    }
    let start_fen = tree.start().to_fen();
    if start_fen != Board::startpos().to_fen() {
        out.push_str("[SetUp \"1\"]\n");
        out.push_str(&format!("[FEN \"{}\"]\n", escape_tag(&start_fen)));
    }
    for (name, v) in tags {
        if ROSTER.iter().any(|(r, _)| r == name) || name == "SetUp" || name == "FEN" {
            continue;
        }
        out.push_str(&format!("[{name} \"{}\"]\n", escape_tag(v)));
    }
    out.push('\n');
    let mut tokens = Vec::new();
    if let Some(c) = comment_text(tree.notes(ROOT).expect("the root is always there")) {
        tokens.push(c);
    }
    write_line(tree, ROOT, tree.start().clone(), true, &mut tokens);
    tokens.push(value("Result").unwrap_or("*").to_string());
    wrap(&tokens, &mut out);
    out.push('\n');
    out
}

/// The moves from `at` on, main line first, each alternative in brackets after the move it
/// replaces. `number` says the next move needs its number even if it is Black's.
fn write_line(
    tree: &StudyTree,
    mut at: NodeId,
    mut board: Board,
    mut number: bool,
    tokens: &mut Vec<String>,
) {
    while let Some(&main) = tree.children(at).first() {
        number = write_move(tree, main, &board, number, tokens);
        for &alt in &tree.children(at)[1..] {
            let first = tokens.len();
            let after = write_move(tree, alt, &board, true, tokens);
            let mut line_board = board.clone();
            if let Some(mv) = tree.mv(alt) {
                line_board.make(mv);
            }
            write_line(tree, alt, line_board, after, tokens);
            tokens[first].insert(0, '(');
            if let Some(last) = tokens.last_mut() {
                last.push(')');
            }
            number = true;
        }
        if let Some(mv) = tree.mv(main) {
            board.make(mv);
        }
        at = main;
    }
}

/// One move with its number (when White's, or when `number`), glyph and comment. Returns
/// whether the next move needs its number (after a comment).
fn write_move(
    tree: &StudyTree,
    id: NodeId,
    board: &Board,
    number: bool,
    tokens: &mut Vec<String>,
) -> bool {
    let Some(mv) = tree.mv(id) else {
        return number;
    };
    let n = board.fullmove_number();
    let white = board.side_to_move() == crate::chess::Color::White;
    let san = board.san(mv);
    tokens.push(match (white, number) {
        (true, _) => format!("{n}. {san}"),
        (false, true) => format!("{n}... {san}"),
        (false, false) => san,
    });
    let notes = tree.notes(id).expect("a node of the tree");
    if let Some(g) = notes.glyph {
        tokens.push(format!("${}", g.nag()));
    }
    match comment_text(notes) {
        Some(c) => {
            tokens.push(c);
            true
        }
        None => false,
    }
}

/// The comment for a node's notes, commands first (`{[%csl Gd4][%cal Ge2e4][%eval 0.35]
/// text}`); none when there is nothing to say. Braces in the text would end the comment:
/// they are written as round brackets, and `[%` as `[ %` (it would be read as a command).
fn comment_text(notes: &Notes) -> Option<String> {
    let mut c = String::new();
    if !notes.squares.is_empty() {
        let list: Vec<String> = notes
            .squares
            .iter()
            .map(|(sq, m)| format!("{}{sq}", m.letter()))
            .collect();
        c.push_str(&format!("[%csl {}]", list.join(",")));
    }
    if !notes.arrows.is_empty() {
        let list: Vec<String> = notes
            .arrows
            .iter()
            .map(|a| format!("{}{}{}", a.mark.letter(), a.from, a.to))
            .collect();
        c.push_str(&format!("[%cal {}]", list.join(",")));
    }
    if let Some(e) = notes.eval {
        c.push_str(&format!("[%eval {}]", eval_text(e)));
    }
    if let Some(text) = &notes.comment {
        if !c.is_empty() {
            c.push(' ');
        }
        // A `[%` in what someone typed would be read back as a command.
        let text = text.replace("[%", "[ %");
        c.extend(text.chars().map(|ch| match ch {
            '{' => '(',
            '}' => ')',
            ch if ch.is_control() => ' ',
            ch => ch,
        }));
    }
    (!c.is_empty()).then(|| format!("{{{c}}}"))
}

/// Lines of at most [`MAX_LINE`] characters (a longer word stands alone). A comment may be
/// broken between its words, never inside a `[%...]` command.
fn wrap(tokens: &[String], out: &mut String) {
    let mut width = 0;
    for t in tokens.iter().flat_map(|t| words(t)) {
        let len = t.chars().count();
        if width > 0 && width + 1 + len > MAX_LINE {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(t);
        width += len;
    }
}

/// `t` split at its spaces, except those inside `[%...]`.
fn words(t: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut in_command) = (0, false);
    for (i, c) in t.char_indices() {
        match c {
            '%' if t[..i].ends_with('[') => in_command = true,
            ']' => in_command = false,
            ' ' if !in_command => {
                out.push(&t[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&t[start..]);
    out
}

/// Reads the first game of `text` as a chapter of at most `cap` moves. Returns the tree and
/// the tags as written (`SetUp` and `FEN` included).
pub fn read(text: &str, cap: usize) -> Result<(StudyTree, Vec<(String, String)>), PgnError> {
    let mut r = Reader::new(text);
    let mut tags = Vec::new();
    let mut root_comments = Vec::new();
    loop {
        r.skip_space();
        match r.peek() {
            Some('[') => tags.push(r.tag()?),
            Some('{') => {
                if let (Token::Comment(c), _) = r.token()? {
                    root_comments.push(c);
                }
            }
            _ => break,
        }
    }
    let start = match tags.iter().rev().find(|(n, _, _)| n == "FEN") {
        Some((_, fen, line)) => Board::from_fen(fen).map_err(|e| PgnError {
            line: *line,
            message: format!("the FEN tag is not a position: {e}"),
        })?,
        None => Board::startpos(),
    };
    let mut tree = StudyTree::new(start, cap);
    for c in root_comments {
        absorb(&mut tree, ROOT, &c);
    }
    // Where the next move is played from, and the node before the last move (a variation
    // replaces that move); one pair saved for each open bracket.
    let (mut at, mut before) = (ROOT, ROOT);
    let mut open: Vec<(NodeId, NodeId, usize)> = Vec::new();
    loop {
        let (token, line) = r.token()?;
        let err = |message: String| PgnError { line, message };
        match token {
            Token::End | Token::TagStart => {
                if let Some((_, _, opened)) = open.last() {
                    return Err(err(format!(
                        "the variation opened on line {opened} is never closed (expected ')')"
                    )));
                }
                break;
            }
            Token::Symbol(s) if result_of(&s).is_some() => {
                if open.is_empty() {
                    break;
                }
                return Err(err(format!("a result ({s}) inside a variation")));
            }
            Token::Symbol(s) => {
                let body = strip_move_number(&s);
                if body.is_empty() {
                    continue;
                }
                if is_annotation(body) {
                    set_glyph(&mut tree, at, glyph_nag(body));
                    continue;
                }
                let (san, glyph) = split_glyph(body);
                let board = tree.board_at(at).map_err(|e| err(e.to_string()))?;
                let mv = board
                    .parse_san(san)
                    .map_err(|e| err(format!("{san}: {e}")))?;
                let node = tree.play(at, mv).map_err(|e| err(format!("{san}: {e}")))?;
                (before, at) = (at, node);
                set_glyph(&mut tree, at, glyph.and_then(glyph_nag));
            }
            Token::Nag(n) => set_glyph(&mut tree, at, Some(n)),
            Token::Comment(c) => absorb(&mut tree, at, &c),
            Token::Open => {
                if at == ROOT {
                    return Err(err("a variation before any move (expected a move)".into()));
                }
                open.push((at, before, line));
                at = before;
                before = tree.parent(at).unwrap_or(ROOT);
            }
            Token::Close => {
                let Some((a, b, _)) = open.pop() else {
                    return Err(err("')' without a variation to close".into()));
                };
                (at, before) = (a, b);
            }
        }
    }
    let tags = tags.into_iter().map(|(n, v, _)| (n, v)).collect();
    Ok((tree, tags))
}

/// A move glyph from a NAG, on a move (other NAGs, and any at the start, are dropped).
fn set_glyph(tree: &mut StudyTree, at: NodeId, nag: Option<u8>) {
    if let Some(g) = nag.and_then(Glyph::from_nag)
        && at != ROOT
    {
        let _ = tree.edit(at, |n| n.glyph = Some(g));
    }
}

/// Takes a comment into a node's notes: `[%csl]`, `[%cal]` and `[%eval]` into their fields,
/// other `[%...]` commands dropped, the rest added to the comment's text.
fn absorb(tree: &mut StudyTree, at: NodeId, comment: &str) {
    let mut text = comment.to_string();
    let mut squares = Vec::new();
    let mut arrows = Vec::new();
    let mut eval = None;
    if let Some((v, range)) = find_command(&text, "csl") {
        squares = v.split(',').filter_map(square_mark).collect();
        text.replace_range(range, " ");
    }
    if let Some((v, range)) = find_command(&text, "cal") {
        arrows = v.split(',').filter_map(arrow).collect();
        text.replace_range(range, " ");
    }
    if let Some((v, range)) = find_command(&text, "eval") {
        eval = parse_eval_value(v.split(',').next().unwrap_or(""));
        text.replace_range(range, " ");
    }
    // Other commands (`[%clk]`, `[%emt]`...) are not a study's.
    while let Some(start) = text.find("[%") {
        let end = text[start..]
            .find(']')
            .map_or(text.len(), |e| start + e + 1);
        text.replace_range(start..end, " ");
    }
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let _ = tree.edit(at, |n| {
        for (sq, m) in squares {
            if !n.squares.iter().any(|&(s, _)| s == sq) {
                n.squares.push((sq, m));
            }
        }
        for a in arrows {
            if !n.arrows.iter().any(|b| b.from == a.from && b.to == a.to) {
                n.arrows.push(a);
            }
        }
        if eval.is_some() {
            n.eval = eval;
        }
        if !words.is_empty() {
            n.comment = Some(match n.comment.take() {
                Some(before) => format!("{before} {words}"),
                None => words,
            });
        }
    });
}

/// `Gd4` → (d4, green).
fn square_mark(s: &str) -> Option<(Square, Mark)> {
    let s = s.trim();
    let mark = Mark::from_letter(s.chars().next()?)?;
    Some((s.get(1..)?.parse().ok()?, mark))
}

/// `Ge2e4` → an arrow.
fn arrow(s: &str) -> Option<Arrow> {
    let s = s.trim();
    let mark = Mark::from_letter(s.chars().next()?)?;
    let from = s.get(1..3)?.parse().ok()?;
    let to = s.get(3..5)?.parse().ok()?;
    (s.len() == 5 && from != to).then_some(Arrow { from, to, mark })
}

#[cfg(test)]
mod tests {
    use super::super::tests::line;
    use super::*;
    use crate::engine::Score;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    /// Every node's move, notes and children, in PGN order: two trees are the same chapter
    /// when these are equal.
    fn shape(tree: &StudyTree) -> Vec<(Option<String>, Notes, usize)> {
        tree.nodes()
            .into_iter()
            .map(|n| {
                (
                    tree.mv(n).map(|m| m.uci()),
                    tree.notes(n).unwrap().clone(),
                    tree.children(n).len(),
                )
            })
            .collect()
    }

    fn sample() -> StudyTree {
        let mut tree = StudyTree::new(Board::startpos(), 200);
        let nf3 = line(&mut tree, ROOT, "e2e4 e7e5 g1f3 b8c6 f1b5");
        let path = tree.path(nf3);
        let (e4, e5) = (path[0], path[1]);
        let d6 = line(&mut tree, e4, "c7c5 g1f3 d7d6");
        let c5 = tree.path(d6)[1];
        let _open = line(&mut tree, c5, "d2d4 c5d4");
        let _french = line(&mut tree, e4, "e7e6 d2d4 d7d5");
        let _kg = line(&mut tree, e5, "f2f4 e5f4");
        tree.set_comment(ROOT, Some("Open games".into())).unwrap();
        tree.toggle_glyph(e4, Glyph::Good).unwrap();
        tree.set_comment(e4, Some("best by test (Fischer)".into()))
            .unwrap();
        tree.toggle_square(e4, sq("d5"), Mark::Red).unwrap();
        tree.toggle_square(e4, sq("e4"), Mark::Green).unwrap();
        tree.toggle_arrow(
            e5,
            Arrow {
                from: sq("g1"),
                to: sq("f3"),
                mark: Mark::Green,
            },
        )
        .unwrap();
        tree.toggle_glyph(c5, Glyph::Interesting).unwrap();
        tree.edit(c5, |n| n.eval = Some(Score::Cp(-35))).unwrap();
        tree
    }

    #[test]
    fn a_chapter_is_written_with_its_variations_and_notes_and_read_back_the_same() {
        let tree = sample();
        let tags = vec![
            ("Event".to_string(), "Openings".to_string()),
            ("Annotator".to_string(), "alice".to_string()),
        ];
        let text = write(&tree, &tags);
        assert!(
            text.starts_with("[Event \"Openings\"]\n[Site \"?\"]"),
            "{text}"
        );
        assert!(text.contains("[Annotator \"alice\"]"));
        assert!(
            text.contains("{Open games} 1. e4 $1 {[%csl Rd5,Ge4] best by test (Fischer)}"),
            "{text}"
        );
        assert!(
            text.contains("(1... c5 $5 {[%eval -0.35]} 2. Nf3 (2. d4 cxd4) 2... d6)"),
            "{text}"
        );
        assert!(text.contains("[%cal Gg1f3]"), "{text}");
        assert!(
            text.lines().all(|l| l.chars().count() <= MAX_LINE),
            "{text}"
        );
        let (back, tags_back) = read(&text, 200).unwrap();
        assert_eq!(shape(&back), shape(&tree), "{text}");
        assert!(tags_back.contains(&("Annotator".to_string(), "alice".to_string())));
        // Written again: the same text.
        assert_eq!(write(&back, &tags), text);
        // What someone typed cannot end the comment or pass for a command.
        let mut typed = StudyTree::new(Board::startpos(), 5);
        typed
            .set_comment(ROOT, Some("a {b} [%cal Ge2e4]".into()))
            .unwrap();
        let text = write(&typed, &[]);
        assert!(text.contains("{a (b) [ %cal Ge2e4]}"), "{text}");
        let (back, _) = read(&text, 5).unwrap();
        assert_eq!(back.notes(ROOT).unwrap().arrows, []);
    }

    #[test]
    fn a_chapter_from_a_position_keeps_it() {
        let fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
        let mut tree = StudyTree::new(Board::from_fen(fen).unwrap(), 10);
        let kd4 = line(&mut tree, ROOT, "e1d2 e5d4");
        let kd2 = tree.parent(kd4).unwrap();
        line(&mut tree, kd2, "e5e4");
        let text = write(&tree, &[]);
        assert!(text.contains("[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\"]"));
        let (back, _) = read(&text, 10).unwrap();
        assert_eq!(back.start().to_fen(), fen);
        assert_eq!(shape(&back), shape(&tree));
    }

    #[test]
    fn games_written_by_others_are_read_with_their_variations() {
        // Nested variations, a glyph on the move, NAGs, a clock to drop, two comments on
        // one move, and a variation on Black's first move.
        let text = "[Event \"x\"]\n\n1. e4!? {[%clk 0:05:00]} e5 (1... c5 2. Nf3 (2. c3 d5) \
                    2... d6 $2 {a} {b}) 2. Nf3 $14 Nc6 *\n";
        let (tree, _) = read(text, 50).unwrap();
        let main: Vec<String> = tree
            .main_line()
            .into_iter()
            .map(|n| tree.mv(n).unwrap().uci())
            .collect();
        assert_eq!(main, ["e2e4", "e7e5", "g1f3", "b8c6"]);
        let e4 = tree.main_line()[0];
        assert_eq!(tree.notes(e4).unwrap().glyph, Some(Glyph::Interesting));
        assert_eq!(
            tree.notes(e4).unwrap().comment,
            None,
            "the clock is dropped"
        );
        let c5 = tree.children(e4)[1];
        let nf3 = tree.children(c5)[0];
        assert_eq!(tree.children(c5).len(), 2, "2. Nf3 and 2. c3");
        let d6 = tree.next(nf3).unwrap();
        assert_eq!(tree.notes(d6).unwrap().glyph, Some(Glyph::Mistake));
        assert_eq!(tree.notes(d6).unwrap().comment.as_deref(), Some("a b"));
        assert_eq!(tree.len(), 9);
    }

    #[test]
    fn broken_pgn_is_refused_with_the_line() {
        for (text, line, says) in [
            ("1. e4 (", 1, "never closed"),
            ("1. e4 e5)\n", 1, "without a variation"),
            ("(1. e4)", 1, "before any move"),
            ("1. e4\n2. Ke3", 2, "Ke3"),
            ("1. e4 (1. d4 1-0) *", 1, "result"),
            ("[FEN \"nonsense\"]\n\n1. e4", 1, "FEN"),
        ] {
            let e = read(text, 50)
                .err()
                .unwrap_or_else(|| panic!("{text} read"));
            assert_eq!(e.line, line, "{text}: {e}");
            assert!(e.message.contains(says), "{text}: {e}");
        }
        let e = read("1. e4 e5 2. Nf3", 2).err().unwrap();
        assert!(e.message.contains("2 moves"), "{e}");
    }

    mod prop {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(64))]

            /// Any tree of legal moves with any notes comes back the same from its PGN.
            #[test]
            fn any_chapter_comes_back_from_its_pgn(
                steps in proptest::collection::vec((0usize..1000, 0usize..1000, 0u8..12), 1..60),
                words in proptest::collection::vec("[a-z{}()\\[\\]% ]{0,12}", 60),
            ) {
                let mut tree = StudyTree::new(Board::startpos(), 500);
                let mut nodes = vec![ROOT];
                for (i, (at, pick, note)) in steps.into_iter().enumerate() {
                    let at = nodes[at % nodes.len()];
                    let board = tree.board_at(at).unwrap();
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        continue;
                    }
                    let mv = moves.as_slice()[pick % moves.len()];
                    let n = tree.play(at, mv).unwrap();
                    nodes.push(n);
                    match note {
                        0 => tree.toggle_glyph(n, Glyph::ALL[pick % 6]).unwrap(),
                        1 => tree.set_comment(n, Some(words[i % words.len()].clone())).unwrap(),
                        2 => tree.toggle_square(n, Square::from_index64(pick % 64), Mark::ALL[pick % 4]).unwrap(),
                        3 => tree.toggle_arrow(n, Arrow {
                            from: Square::from_index64(pick % 64),
                            to: Square::from_index64((pick + 9) % 64),
                            mark: Mark::ALL[at % 4],
                        }).unwrap(),
                        4 => tree.edit(n, |x| x.eval = Some(Score::Cp(pick as i32 - 500))).unwrap(),
                        _ => {}
                    }
                }
                let text = write(&tree, &[]);
                let (back, _) = read(&text, 500).unwrap();
                // Comments come back with brackets made round and spaces collapsed.
                let clean = |t: &StudyTree| -> Vec<_> {
                    shape(t).into_iter().map(|(m, mut n, k)| {
                        n.comment = n.comment.map(|c| c.replace("[%", "[ %").replace('{', "(").replace('}', ")"))
                            .map(|c| c.split_whitespace().collect::<Vec<_>>().join(" "))
                            .filter(|c| !c.is_empty());
                        (m, n, k)
                    }).collect()
                };
                prop_assert_eq!(clean(&back), clean(&tree), "{}", text);
            }

            /// Whatever text is read, the reader answers (a chapter or an error), never panics.
            #[test]
            fn any_text_is_read_or_refused(text in "[\\[\\]{}()$!?0-9a-hKQRBNOx+#=. \\n-]{0,200}") {
                let _ = read(&text, 50);
            }
        }
    }
}
