//! The Syzygy prober against answers found without it: a retrograde solver of our own for
//! the 3-man endings KQK, KRK and KPK (every position's result and distance computed from
//! the rules alone, with a move generator written here, not ox88's), published results of
//! 4-man positions, en passant, and damaged files.
//!
//! The tables come from `scripts/get-syzygy.sh` (which `.ci/run` calls): the directory in
//! `OX88_SYZYGY`, else `target/syzygy`. Without them each test prints a note and passes.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

use ox88::chess::Board;
use ox88::engine::syzygy::{Tablebases, Wdl};

fn open() -> Option<Tablebases> {
    Some(Tablebases::open(&common::syzygy_dir()?).expect("the tables directory opens"))
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).expect("test FEN is valid")
}

// ---- a retrograde solver for K + one piece against K -----------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Extra {
    Queen,
    Rook,
    Pawn,
}

fn file(s: usize) -> i32 {
    (s % 8) as i32
}

fn rank(s: usize) -> i32 {
    (s / 8) as i32
}

fn touching(a: usize, b: usize) -> bool {
    (file(a) - file(b)).abs() <= 1 && (rank(a) - rank(b)).abs() <= 1
}

fn neighbours(s: usize) -> impl Iterator<Item = usize> {
    (0..64).filter(move |&t| t != s && touching(s, t))
}

/// Whether the white piece on `x` attacks `target`, with the white king on `block` in the way.
fn attacks(kind: Extra, x: usize, target: usize, block: usize) -> bool {
    let (df, dr) = (file(target) - file(x), rank(target) - rank(x));
    if kind == Extra::Pawn {
        return dr == 1 && df.abs() == 1;
    }
    let straight = df == 0 || dr == 0;
    let diagonal = df.abs() == dr.abs();
    if (df, dr) == (0, 0) || !(straight || (kind == Extra::Queen && diagonal)) {
        return false;
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let (mut f, mut r) = (file(x) + sf, rank(x) + sr);
    while (f, r) != (file(target), rank(target)) {
        if (f + 8 * r) as usize == block {
            return false;
        }
        f += sf;
        r += sr;
    }
    true
}

/// A white move's result: a position with Black to move, the same men; or a promotion to a
/// queen or rook (the piece on `x`), or to a piece that cannot win.
#[derive(Clone, Copy)]
enum WhiteMove {
    Plain { wk: usize, x: usize, zeroing: bool },
    Promotion { kind: Extra, x: usize },
    DrawingPromotion,
}

fn white_moves(kind: Extra, wk: usize, x: usize, bk: usize) -> Vec<WhiteMove> {
    let mut out = Vec::new();
    for t in neighbours(wk) {
        if t != x && t != bk && !touching(t, bk) {
            out.push(WhiteMove::Plain {
                wk: t,
                x,
                zeroing: false,
            });
        }
    }
    match kind {
        Extra::Pawn => {
            let one = x + 8;
            if one != wk && one != bk {
                if rank(one) == 7 {
                    out.push(WhiteMove::Promotion {
                        kind: Extra::Queen,
                        x: one,
                    });
                    out.push(WhiteMove::Promotion {
                        kind: Extra::Rook,
                        x: one,
                    });
                    out.push(WhiteMove::DrawingPromotion);
                    out.push(WhiteMove::DrawingPromotion);
                } else {
                    out.push(WhiteMove::Plain {
                        wk,
                        x: one,
                        zeroing: true,
                    });
                    let two = x + 16;
                    if rank(x) == 1 && two != wk && two != bk {
                        out.push(WhiteMove::Plain {
                            wk,
                            x: two,
                            zeroing: true,
                        });
                    }
                }
            }
        }
        _ => {
            for t in 0..64 {
                if t != x && t != wk && t != bk && attacks(kind, x, t, wk) {
                    // `attacks` ignores the black king as a blocker; a ray through it stops.
                    if !attacks(kind, x, t, bk) {
                        continue;
                    }
                    out.push(WhiteMove::Plain {
                        wk,
                        x: t,
                        zeroing: false,
                    });
                }
            }
        }
    }
    out
}

/// Black's king moves: `Some(square)` to a square, `None` for taking the unprotected piece.
fn black_moves(kind: Extra, wk: usize, x: usize, bk: usize) -> Vec<Option<usize>> {
    neighbours(bk)
        .filter(|&t| t != wk && !touching(t, wk))
        .filter_map(|t| {
            if t == x {
                Some(None)
            } else if attacks(kind, x, t, wk) {
                None
            } else {
                Some(Some(t))
            }
        })
        .collect()
}

fn legal(kind: Extra, wk: usize, x: usize, bk: usize, white_to_move: bool) -> bool {
    let distinct = wk != x && x != bk && wk != bk;
    let pawn_ok = kind != Extra::Pawn || (1..=6).contains(&rank(x));
    distinct && pawn_ok && !touching(wk, bk) && !(white_to_move && attacks(kind, x, bk, wk))
}

fn at(wk: usize, x: usize, bk: usize) -> usize {
    (wk * 64 + x) * 64 + bk
}

/// Every position of one ending: whether White (to move) wins, whether Black (to move) is
/// lost, and the distance in plies to the next capture, pawn move or mate of the best line.
struct Solved {
    kind: Extra,
    white_wins: Vec<bool>,
    black_lost: Vec<bool>,
    white_dist: Vec<i32>,
    black_dist: Vec<i32>,
}

impl Solved {
    fn promoted_lost(
        queen: &Solved,
        rook: &Solved,
        kind: Extra,
        wk: usize,
        x: usize,
        bk: usize,
    ) -> bool {
        let s = if kind == Extra::Queen { queen } else { rook };
        legal(kind, wk, x, bk, false) && s.black_lost[at(wk, x, bk)]
    }

    fn solve(kind: Extra, promoted: Option<(&Solved, &Solved)>) -> Solved {
        const N: usize = 64 * 64 * 64;
        let mut s = Solved {
            kind,
            white_wins: vec![false; N],
            black_lost: vec![false; N],
            white_dist: vec![-1; N],
            black_dist: vec![-1; N],
        };
        let positions: Vec<(usize, usize, usize)> = (0..64)
            .flat_map(|wk| (0..64).flat_map(move |x| (0..64).map(move |bk| (wk, x, bk))))
            .collect();
        let wins_by = |s: &Solved, m: WhiteMove, bk: usize, wk0: usize| -> bool {
            match m {
                WhiteMove::Plain { wk, x, .. } => s.black_lost[at(wk, x, bk)],
                WhiteMove::Promotion { kind, x } => {
                    let (q, r) = promoted.expect("pawn endings know the promoted ones");
                    Solved::promoted_lost(q, r, kind, wk0, x, bk)
                }
                WhiteMove::DrawingPromotion => false,
            }
        };
        // Results: wins spread back from mates (and winning promotions) until nothing changes.
        for &(wk, x, bk) in &positions {
            if legal(kind, wk, x, bk, false)
                && black_moves(kind, wk, x, bk).is_empty()
                && attacks(kind, x, bk, wk)
            {
                s.black_lost[at(wk, x, bk)] = true;
            }
        }
        loop {
            let mut changed = false;
            for &(wk, x, bk) in &positions {
                let i = at(wk, x, bk);
                if legal(kind, wk, x, bk, true)
                    && !s.white_wins[i]
                    && white_moves(kind, wk, x, bk)
                        .into_iter()
                        .any(|m| wins_by(&s, m, bk, wk))
                {
                    s.white_wins[i] = true;
                    changed = true;
                }
            }
            for &(wk, x, bk) in &positions {
                let i = at(wk, x, bk);
                if !legal(kind, wk, x, bk, false) || s.black_lost[i] {
                    continue;
                }
                let moves = black_moves(kind, wk, x, bk);
                if !moves.is_empty()
                    && moves
                        .iter()
                        .all(|m| m.is_some_and(|t| s.white_wins[at(wk, x, t)]))
                {
                    s.black_lost[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Distances: a winning pawn move or promotion is 1; otherwise White takes the
        // shortest way on and Black the longest.
        for &(wk, x, bk) in &positions {
            let i = at(wk, x, bk);
            if s.black_lost[i] && black_moves(kind, wk, x, bk).is_empty() {
                s.black_dist[i] = 0;
            }
            if s.white_wins[i]
                && white_moves(kind, wk, x, bk).into_iter().any(|m| {
                    let zeroing = matches!(
                        m,
                        WhiteMove::Plain { zeroing: true, .. } | WhiteMove::Promotion { .. }
                    );
                    zeroing && wins_by(&s, m, bk, wk)
                })
            {
                s.white_dist[i] = 1;
            }
        }
        for d in 1..400 {
            let mut open = false;
            for &(wk, x, bk) in &positions {
                let i = at(wk, x, bk);
                if !s.white_wins[i] || s.white_dist[i] >= 0 {
                    continue;
                }
                open = true;
                let reaches = white_moves(kind, wk, x, bk).into_iter().any(|m| match m {
                    WhiteMove::Plain {
                        wk: k,
                        x: y,
                        zeroing: false,
                    } => s.black_dist[at(k, y, bk)] == d - 1,
                    _ => false,
                });
                if reaches {
                    s.white_dist[i] = d;
                }
            }
            for &(wk, x, bk) in &positions {
                let i = at(wk, x, bk);
                if !s.black_lost[i] || s.black_dist[i] >= 0 {
                    continue;
                }
                open = true;
                let dists: Vec<i32> = black_moves(kind, wk, x, bk)
                    .into_iter()
                    .map(|m| s.white_dist[at(wk, x, m.expect("a lost side cannot take"))])
                    .collect();
                if dists.iter().all(|&e| e >= 0 && e < d) && dists.iter().max() == Some(&(d - 1)) {
                    s.black_dist[i] = d;
                }
            }
            if !open {
                break;
            }
        }
        s
    }

    /// The FEN of a position, White having the piece, or with the colours swapped (and the
    /// board turned upside down, so pawns go the other way).
    fn fen(&self, wk: usize, x: usize, bk: usize, white_to_move: bool, swapped: bool) -> String {
        let letter = match self.kind {
            Extra::Queen => 'Q',
            Extra::Rook => 'R',
            Extra::Pawn => 'P',
        };
        let mut cells = [' '; 64];
        let turn = |s: usize| if swapped { s ^ 56 } else { s };
        let case = |c: char| if swapped { c.to_ascii_lowercase() } else { c };
        let other = |c: char| if swapped { c } else { c.to_ascii_lowercase() };
        cells[turn(wk)] = case('K');
        cells[turn(x)] = case(letter);
        cells[turn(bk)] = other('K');
        let mut fen = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match cells[r * 8 + f] {
                    ' ' => empty += 1,
                    c => {
                        if empty > 0 {
                            fen.push_str(&empty.to_string());
                            empty = 0;
                        }
                        fen.push(c);
                    }
                }
            }
            if empty > 0 {
                fen.push_str(&empty.to_string());
            }
            if r > 0 {
                fen.push('/');
            }
        }
        let stm = if white_to_move != swapped { 'w' } else { 'b' };
        format!("{fen} {stm} - - 0 1")
    }

    /// The solver's WDL and distance for the side to move.
    fn answer(&self, wk: usize, x: usize, bk: usize, white_to_move: bool) -> (Wdl, i32) {
        let i = at(wk, x, bk);
        if white_to_move && self.white_wins[i] {
            (Wdl::Win, self.white_dist[i])
        } else if !white_to_move && self.black_lost[i] {
            (Wdl::Loss, -self.black_dist[i])
        } else {
            (Wdl::Draw, 0)
        }
    }
}

/// Compares the prober with the solver on every `stride`-th legal position of the ending,
/// each also with the colours swapped. Returns the number of positions compared.
fn compare_with_solver(tb: &Tablebases, solved: &Solved, stride: usize) -> usize {
    let mut compared = 0;
    let mut n = 0usize;
    for wk in 0..64 {
        for x in 0..64 {
            for bk in 0..64 {
                for white_to_move in [true, false] {
                    if !legal(solved.kind, wk, x, bk, white_to_move) {
                        continue;
                    }
                    n += 1;
                    if !n.is_multiple_of(stride) {
                        continue;
                    }
                    let (wdl, dist) = solved.answer(wk, x, bk, white_to_move);
                    for swapped in [false, true] {
                        let fen = solved.fen(wk, x, bk, white_to_move, swapped);
                        let b = board(&fen);
                        let got_wdl = tb
                            .probe_wdl(&b)
                            .unwrap()
                            .expect("a 3-man position is covered");
                        assert_eq!(got_wdl, wdl, "WDL of {fen}");
                        let got_dtz = tb.probe_dtz(&b).unwrap().expect("covered");
                        // The files may store a distance one ply longer (moves, not plies); a
                        // mated side's DTZ is -1 by the tables' convention.
                        let ok = match wdl {
                            Wdl::Draw => got_dtz == 0,
                            _ if dist == 0 => got_dtz == -1,
                            _ => {
                                got_dtz.signum() == dist.signum()
                                    && (got_dtz.abs() - dist.abs()) <= 1
                                    && got_dtz.abs() >= dist.abs()
                            }
                        };
                        assert!(
                            ok,
                            "DTZ of {fen}: the tables say {got_dtz}, the solver {dist}"
                        );
                        compared += 1;
                    }
                }
            }
        }
    }
    compared
}

fn solved_pieces() -> (Solved, Solved) {
    (
        Solved::solve(Extra::Queen, None),
        Solved::solve(Extra::Rook, None),
    )
}

#[test]
fn kqk_and_krk_agree_with_a_retrograde_solver_on_every_ninth_position() {
    let Some(tb) = open() else { return };
    let (queen, rook) = solved_pieces();
    for solved in [&queen, &rook] {
        let compared = compare_with_solver(&tb, solved, 9);
        assert!(compared > 40_000, "{compared} positions compared");
    }
    // The solver itself: the longest KRK win is 16 moves to mate, KQK 10.
    let longest = |s: &Solved| s.black_dist.iter().copied().max().unwrap_or(0);
    assert_eq!(longest(&queen), 20);
    assert_eq!(longest(&rook), 32);
}

#[test]
fn kpk_agrees_with_a_retrograde_solver_on_every_fifth_position() {
    let Some(tb) = open() else { return };
    let (queen, rook) = solved_pieces();
    let pawn = Solved::solve(Extra::Pawn, Some((&queen, &rook)));
    let compared = compare_with_solver(&tb, &pawn, 5);
    assert!(compared > 100_000, "{compared} positions compared");
    let wins = pawn.white_wins.iter().filter(|&&w| w).count();
    let draws_white_to_move = (0..64 * 64 * 64)
        .filter(|&i| legal(Extra::Pawn, i / 4096, i / 64 % 64, i % 64, true) && !pawn.white_wins[i])
        .count();
    assert!(
        wins > 0 && draws_white_to_move > 0,
        "KPK has wins and draws"
    );
}

#[test]
fn every_legal_move_of_a_krk_position_gets_the_solvers_result_with_moves() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let rook = Solved::solve(Extra::Rook, None);
    // White: Kc3, Rh4; Black: Ke5 (a win in which some rook moves hang the rook).
    let (wk, x, bk) = (18, 31, 36);
    let fen = rook.fen(wk, x, bk, true, false);
    let out = Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args([
            "tb",
            "--syzygy",
            dir.to_str().unwrap(),
            "--fen",
            &fen,
            "--moves",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let (wdl, _) = rook.answer(wk, x, bk, true);
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with(&format!("wdl {} dtz ", wdl.value()))
    );
    let b = board(&fen);
    let legal_moves = b.legal_moves();
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), legal_moves.len(), "{text}");
    let mut saw_draw = false;
    for m in legal_moves.iter() {
        let uci = m.uci();
        let row = rows
            .iter()
            .find(|r| r.split(' ').next() == Some(uci.as_str()))
            .unwrap_or_else(|| panic!("{uci} missing in\n{text}"));
        let fields: Vec<&str> = row.split(' ').collect();
        assert_eq!(fields[1], b.san(*m), "{row}");
        // The solver's answer after the move, from the mover's view.
        let (nwk, nx) = {
            let from = m.from().index64();
            let to = m.to().index64();
            if from == wk { (to, x) } else { (wk, to) }
        };
        let expected = if !legal(Extra::Rook, nwk, nx, bk, false) {
            Wdl::Draw
        } else {
            rook.answer(nwk, nx, bk, false).0.flip()
        };
        let expected = if black_moves(Extra::Rook, nwk, nx, bk).contains(&None)
            && !rook.black_lost[at(nwk, nx, bk)]
        {
            Wdl::Draw
        } else {
            expected
        };
        assert_eq!(fields[3], expected.value().to_string(), "{row}");
        saw_draw |= expected == Wdl::Draw;
        let dtz: i32 = fields[5].parse().unwrap();
        if expected == Wdl::Win {
            let reply = rook.black_dist[at(nwk, nx, bk)];
            assert!(
                dtz == reply + 1 || dtz == reply + 2 || (reply == 0 && dtz == 1),
                "{row}: reply distance {reply}"
            );
        } else {
            assert_eq!(dtz, 0, "{row}");
        }
    }
    assert!(saw_draw, "some move hangs the rook: {text}");
    // Best first: the first move listed wins by the shortest way.
    let first_dtz: i32 = rows[0].split(' ').nth(5).unwrap().parse().unwrap();
    assert!(rows.iter().all(|r| {
        let f: Vec<&str> = r.split(' ').collect();
        f[3] != "2" || f[5].parse::<i32>().unwrap() >= first_dtz
    }));
}

// ---- published positions -------------------------------------------------------------

/// Results published with python-chess (its documentation and its test data,
/// `data/endgame.epd`, checked there against another prober of the same files).
const PUBLISHED: &[(&str, i32, i32)] = &[
    // KBN v K, the lone king to move: lost, 53 plies to the mate's first zeroing move.
    ("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1", -2, -53),
    // KN v KP, Black to move: d2xe1=Q takes the knight while promoting.
    ("8/2K5/8/8/8/8/3p4/1k2N3 b - - 0 1", 2, 1),
    // KQ v KN: Qxb6 wins the knight at once.
    ("8/8/1n6/8/7K/8/3k4/1Q6 w - - 0 1", 2, 1),
    // KR v KR: Rxe7 takes the undefended rook.
    ("8/4r3/8/K7/4R3/8/8/5k2 w - - 0 1", 2, 1),
    // KP v KN: held.
    ("2K5/8/8/8/6P1/8/2n5/1k6 w - - 0 1", 0, 0),
    // K v KQP: the bare king to move is lost, a zeroing move two plies away.
    ("8/1K6/4q3/8/8/6p1/8/2k5 w - - 0 1", -2, -2),
];

#[test]
fn published_four_man_results_are_reproduced() {
    let Some(tb) = open() else { return };
    for &(fen, wdl, dtz) in PUBLISHED {
        let b = board(fen);
        assert_eq!(
            tb.probe_wdl(&b).unwrap().map(Wdl::value),
            Some(wdl),
            "WDL of {fen}"
        );
        assert_eq!(tb.probe_dtz(&b).unwrap(), Some(dtz), "DTZ of {fen}");
    }
}

#[test]
fn an_en_passant_capture_changes_the_result_and_the_tables_alone_do_not_know_it() {
    let Some(tb) = open() else { return };
    // White wins only by d5xe6 en passant; the same men without the right are a draw.
    let with_ep = board("8/8/8/k2Pp3/8/8/8/4K3 w - e6 0 2");
    let without = board("8/8/8/k2Pp3/8/8/8/4K3 w - - 0 2");
    assert_eq!(tb.probe_wdl(&with_ep).unwrap(), Some(Wdl::Win));
    assert_eq!(tb.probe_dtz(&with_ep).unwrap(), Some(1));
    assert_eq!(tb.probe_wdl(&without).unwrap(), Some(Wdl::Draw));
    // Black to move: c4xd3 en passant wins; without it Black is lost.
    let black_ep = board("8/8/8/8/2pP4/2K5/4k3/8 b - d3 0 1");
    assert_eq!(tb.probe_wdl(&black_ep).unwrap(), Some(Wdl::Win));
    assert_eq!(tb.probe_dtz(&black_ep).unwrap(), Some(1));
    assert_eq!(
        tb.probe_dtz(&board("8/8/8/8/2pP4/2K5/4k3/8 b - - 0 1"))
            .unwrap(),
        Some(-1)
    );
    let root = tb.probe_root(&with_ep).unwrap().unwrap();
    assert_eq!(root[0].mv.uci(), "d5e6");
    assert_eq!(root[0].wdl, Wdl::Win);
}

#[test]
fn no_three_or_four_man_ending_has_a_cursed_win_but_the_tables_know_every_result_class() {
    let Some(tb) = open() else { return };
    assert_eq!(tb.max_men(), 4);
    let names: Vec<String> = std::fs::read_dir(common::syzygy_dir().unwrap())
        .unwrap()
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .strip_suffix(".rtbw")
                .map(String::from)
        })
        .collect();
    assert_eq!(names.len(), 35);
    for name in &names {
        let values = tb.wdl_values_in(name).unwrap().unwrap();
        assert!(
            values.iter().all(|v| [-2, 0, 2].contains(v)),
            "{name}: {values:?}"
        );
    }
    // The symbol tables are read for real: KQvK holds wins, losses and draws; KNvK only draws.
    assert_eq!(tb.wdl_values_in("KQvK").unwrap().unwrap(), vec![-2, 0, 2]);
    assert_eq!(tb.wdl_values_in("KNvK").unwrap().unwrap(), vec![0]);
}

#[test]
fn positions_the_tables_do_not_cover_get_none() {
    let Some(tb) = open() else { return };
    assert_eq!(tb.probe_wdl(&Board::startpos()).unwrap(), None);
    assert_eq!(
        tb.probe_wdl(&board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"))
            .unwrap(),
        None
    );
    assert_eq!(
        tb.probe_dtz(&board("4k3/8/8/8/8/8/8/RR2K1R1 w - - 0 1"))
            .unwrap(),
        None
    );
    assert_eq!(
        tb.probe_wdl(&board("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
            .unwrap(),
        Some(Wdl::Draw)
    );
}

// ---- damaged files -------------------------------------------------------------------

/// A fresh directory holding a copy of the KRvK tables, the WDL file changed by `damage`.
fn damaged_copy(tag: &str, damage: impl FnOnce(&mut Vec<u8>)) -> Option<PathBuf> {
    let src = common::syzygy_dir()?;
    let dir = std::env::temp_dir().join(format!("ox88-syzygy-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut wdl = std::fs::read(src.join("KRvK.rtbw")).unwrap();
    damage(&mut wdl);
    std::fs::write(dir.join("KRvK.rtbw"), wdl).unwrap();
    std::fs::copy(src.join("KRvK.rtbz"), dir.join("KRvK.rtbz")).unwrap();
    Some(dir)
}

const KRK: &str = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";

#[test]
fn a_truncated_file_is_refused_by_name() {
    let Some(dir) = damaged_copy("short", |b| b.truncate(b.len() / 2)) else {
        return;
    };
    let tb = Tablebases::open(&dir).unwrap();
    let err = tb.probe_wdl(&board(KRK)).unwrap_err().to_string();
    assert!(
        err.contains("KRvK.rtbw") && err.contains("truncated"),
        "{err}"
    );
    // The same through the command line: a message naming the file, no panic.
    let out = Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(["tb", "--syzygy", dir.to_str().unwrap(), "--fen", KRK])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("KRvK.rtbw") && !stderr.contains("panicked"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_file_with_wrong_magic_bytes_is_refused_by_name() {
    let Some(dir) = damaged_copy("magic", |b| b[0] ^= 0xFF) else {
        return;
    };
    let tb = Tablebases::open(&dir).unwrap();
    let err = tb.probe_wdl(&board(KRK)).unwrap_err().to_string();
    assert!(
        err.contains("KRvK.rtbw") && err.contains("not a Syzygy WDL table"),
        "{err}"
    );
    assert!(tb.check_all().is_err());
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn garbage_in_a_files_header_or_data_gives_errors_or_values_never_a_panic() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let rook = Solved::solve(Extra::Rook, None);
    let mut errors = 0;
    for round in 0..12 {
        let mut noise: Vec<u8> = (0..4096).map(|_| next() as u8).collect();
        let from = if round % 2 == 0 { 5 } else { 200 };
        let Some(dir) = damaged_copy(&format!("noise{round}"), |b| {
            let end = (from + 64 + round * 40).min(b.len());
            noise.truncate(end - from);
            b[from..end].copy_from_slice(&noise);
        }) else {
            return;
        };
        let tb = Tablebases::open(&dir).unwrap();
        for (n, i) in (0..64 * 64 * 64).step_by(97).enumerate() {
            let (wk, x, bk) = (i / 4096, i / 64 % 64, i % 64);
            if !legal(Extra::Rook, wk, x, bk, n % 2 == 0) {
                continue;
            }
            let b = board(&rook.fen(wk, x, bk, n % 2 == 0, false));
            if let Err(e) = tb.probe_wdl(&b) {
                assert!(e.to_string().contains("KRvK.rtbw"), "{e}");
                errors += 1;
            }
        }
        std::fs::remove_dir_all(dir).ok();
    }
    assert!(errors > 0, "some damage is noticed");
}

// ---- the command line ------------------------------------------------------------------

fn tb_command(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ox88"))
        .arg("tb")
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn ox88_tb_prints_wdl_and_dtz_and_refuses_bad_input_with_status_2() {
    let Some(dir) = common::syzygy_dir() else {
        return;
    };
    let dir = dir.to_str().unwrap();
    let out = tb_command(&[
        "--syzygy",
        dir,
        "--fen",
        "8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1",
    ]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "wdl -2 dtz -53\n");
    for (args, says) in [
        (vec!["--syzygy", dir, "--fen", "not a fen"], "bad --fen"),
        (vec!["--syzygy", dir, "--fen", Board::START_FEN], "castling"),
        (
            vec![
                "--syzygy",
                dir,
                "--fen",
                "4k3/8/8/8/8/8/8/RR2K1R1 w - - 0 1",
            ],
            "5 men",
        ),
        (
            vec!["--syzygy", "/nonexistent/ox88", "--fen", KRK],
            "/nonexistent/ox88",
        ),
    ] {
        let out = tb_command(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
