//! Move ordering (issue 3, seeds 000 and 003): SEE on hand-built positions and against an
//! independent brute force, every `vfm` entry against an independent exchange, the seed
//! page's example position, Ifrit's two formulas, and the promise that the search's scores
//! and the sort pane's explanations are the same numbers.

use crate::common;
use common::Rng;

use ox88::chess::{Board, Color, Move, PieceKind, Square};
use ox88::engine::order::{
    self, AttackClass, HISTORY_MAX, History, OrderContext, ReasonKind, SEE_VALUES, Scheme,
    ScoredMove, VFM, VFM_LEN,
};

// ---- helpers ---------------------------------------------------------------------------

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn mv(b: &Board, uci: &str) -> Move {
    b.legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_string() == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal in {}", b.to_fen()))
}

fn see_of(fen: &str, uci: &str) -> i32 {
    let b = board(fen);
    order::see(&b, mv(&b, uci))
}

/// Start positions: the standard one and the 500 balanced openings (tests/data).
fn start_fens() -> Vec<String> {
    let mut fens = vec![Board::START_FEN.to_string()];
    for line in include_str!("../data/openings500.epd").lines() {
        let fields: Vec<&str> = line.split_whitespace().take(4).collect();
        if fields.len() == 4 {
            fens.push(fields.join(" "));
        }
    }
    fens
}

/// `count` positions reached by random legal moves from the start positions; the boards keep
/// their move history, so the last capture is known.
fn random_positions(count: usize, seed: u64) -> Vec<Board> {
    let fens = start_fens();
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut b = board(&fens[rng.below(fens.len())]);
        let plies = rng.below(90);
        for _ in 0..plies {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then, so exchanges and promotions are common.
            let caps: Vec<Move> = moves.iter().copied().filter(|m| m.is_tactical()).collect();
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves.as_slice()[rng.below(moves.len())]
            };
            b.make(m);
        }
        if !b.legal_moves().is_empty() {
            out.push(b);
        }
    }
    out
}

fn sorted(b: &Board, scheme: Scheme, ctx: &OrderContext) -> Vec<ScoredMove> {
    let mut list = order::explain(b, scheme, ctx, &History::default());
    order::sort_scored(&mut list);
    list
}

fn ucis(list: &[ScoredMove]) -> Vec<String> {
    list.iter().map(|s| s.mv.to_string()).collect()
}

// ---- SEE on hand-built positions -------------------------------------------------------

#[test]
fn see_simple_gains_and_losses() {
    // Rook takes an undefended knight.
    assert_eq!(see_of("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5"), 325);
    // Rook takes a pawn defended by a pawn: loses the exchange of rook for pawn.
    assert_eq!(
        see_of("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        100 - 500
    );
    // Knight for knight, the recapture by a pawn: even.
    assert_eq!(see_of("4k3/8/4p3/3n4/8/4N3/8/4K3 w - - 0 1", "e3d5"), 0);
    // Queen takes a pawn guarded by a pawn.
    assert_eq!(
        see_of("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"),
        100 - 975
    );
    // A quiet move that puts the queen where a pawn takes it.
    assert_eq!(see_of("4k3/8/8/3p4/8/8/8/2Q1K3 w - - 0 1", "c1c4"), -975);
    // A quiet move to a safe square.
    assert_eq!(see_of("4k3/8/8/3p4/8/8/8/2Q1K3 w - - 0 1", "c1c2"), 0);
    // Castling counts as nothing; no move at all, too.
    assert_eq!(see_of("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), 0);
    assert_eq!(order::see(&Board::startpos(), Move::NONE), 0);
}

#[test]
fn see_follows_x_rays_behind_rooks_queens_bishops_and_pawns() {
    // Rook battery on the d-file against a pawn guarded by one rook: the second rook makes
    // the recapture pointless (+100); alone, the rook is lost for a pawn.
    assert_eq!(see_of("3rk3/8/3p4/8/8/8/3R4/3RK3 w - - 0 1", "d2d6"), 100);
    assert_eq!(see_of("3rk3/8/3p4/8/8/8/3R4/4K3 w - - 0 1", "d2d6"), -400);
    // Queen in front, rook behind: Qxd6 Rxd6 Rxd6 nets pawn + rook - queen.
    assert_eq!(
        see_of("3rk3/8/3p4/8/8/8/3Q4/3RK3 w - - 0 1", "d2d6"),
        100 - 975 + 500
    );
    assert_eq!(
        see_of("3rk3/8/3p4/8/8/8/3Q4/4K3 w - - 0 1", "d2d6"),
        100 - 975
    );
    // Queen behind a bishop on a diagonal: Bxe5 Nxe5 would lose the bishop, but the queen
    // takes back, so Black does not recapture.
    assert_eq!(see_of("7k/5n2/8/4p3/8/2B5/1Q6/6K1 w - - 0 1", "c3e5"), 100);
    assert_eq!(
        see_of("7k/5n2/8/4p3/8/2B5/8/6K1 w - - 0 1", "c3e5"),
        100 - 325
    );
    // The same battery for Black.
    assert_eq!(see_of("6k1/1q6/2b5/8/4P3/8/5N2/7K b - - 0 1", "c6e4"), 100);
    assert_eq!(
        see_of("6k1/8/2b5/8/4P3/8/5N2/7K b - - 0 1", "c6e4"),
        100 - 325
    );
    // Bishop behind a pawn: cxd4 Rxd4 Bxd4 would cost Black the rook, so Black keeps still.
    assert_eq!(see_of("3rk3/8/8/8/3n4/2P5/1B6/4K3 w - - 0 1", "c3d4"), 325);
    assert_eq!(
        see_of("3rk3/8/8/8/3n4/2P5/8/4K3 w - - 0 1", "c3d4"),
        325 - 100
    );
}

#[test]
fn see_handles_en_passant() {
    // Undefended: a pawn up.
    assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
    // The queen on d8 takes back through the emptied d7.
    assert_eq!(see_of("3qk3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 0);
    // Taking en passant removes the d5 pawn, which opens the d-file for the rook on d1:
    // now the queen cannot take back without being lost.
    assert_eq!(see_of("3qk3/8/8/3pP3/8/8/8/3RK3 w - d6 0 1", "e5d6"), 100);
    // Black's en passant too.
    assert_eq!(see_of("4k3/8/8/8/4pP2/8/8/4K3 b - f3 0 1", "e4f3"), 100);
}

#[test]
fn see_counts_promotions() {
    // Promoting where the rook takes the new queen: a pawn lost.
    assert_eq!(see_of("r7/4P2k/8/8/8/8/8/4K3 w - - 0 1", "e7e8q"), -100);
    // With a rook behind the pawn (x-ray through the vacated e7): Rxe8 Rxe8.
    assert_eq!(
        see_of("r7/4P2k/8/8/8/8/8/4RK2 w - - 0 1", "e7e8q"),
        875 - 975 + 500
    );
    // Capture-promotions.
    assert_eq!(
        see_of("3r4/4P2k/8/8/8/8/8/4K3 w - - 0 1", "e7d8q"),
        500 + 875
    );
    assert_eq!(
        see_of("3r4/4P2k/8/8/8/8/8/4K3 w - - 0 1", "e7d8n"),
        500 + 225
    );
    // A pawn recapturing onto the last rank promotes inside the exchange.
    assert_eq!(
        see_of("8/8/8/8/7k/8/4p2K/R2n4 w - - 0 1", "a1d1"),
        325 - 500 - 875
    );
    assert_eq!(
        see_of("8/8/8/8/7k/8/2Q1p2K/R2n4 w - - 0 1", "a1d1"),
        325 - 500 - 875 + 975
    );
}

#[test]
fn see_king_takes_back_only_when_safe() {
    // Qxf7+: only the king guards f7, and the bishop covers it: the king cannot take.
    assert_eq!(see_of("4k3/5p2/8/8/2B5/8/8/4KQ2 w - - 0 1", "f1f7"), 100);
    // Without the bishop the king takes the queen.
    assert_eq!(
        see_of("4k3/5p2/8/8/8/8/8/4KQ2 w - - 0 1", "f1f7"),
        100 - 975
    );
}

#[test]
fn exchange_gain_sees_an_en_prise_piece() {
    // The black queen on d5 is attacked by the e4 pawn.
    let b = board("rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    let d5: Square = "d5".parse().unwrap();
    assert_eq!(order::exchange_gain(&b, d5, Color::White), 975);
    let e4: Square = "e4".parse().unwrap();
    assert_eq!(order::exchange_gain(&b, e4, Color::Black), 100);
    let e7: Square = "e7".parse().unwrap();
    assert_eq!(order::exchange_gain(&b, e7, Color::White), 0);
}

// ---- SEE against a brute force ---------------------------------------------------------

type Grid = [[Option<(Color, PieceKind)>; 8]; 8];

fn grid_of(b: &Board) -> Grid {
    let mut g: Grid = [[None; 8]; 8];
    for sq in Square::all() {
        if let Some(p) = b.piece_at(sq) {
            g[sq.file() as usize][sq.rank() as usize] = Some((p.color(), p.kind()));
        }
    }
    g
}

fn value(k: PieceKind) -> i32 {
    SEE_VALUES[k.index()]
}

/// Does the piece on (f, r) attack (tf, tr) on this grid? Written on file/rank coordinates,
/// independent of the engine's 0x88 tables.
fn attacks(g: &Grid, f: i32, r: i32, tf: i32, tr: i32) -> bool {
    let Some((c, k)) = g[f as usize][r as usize] else {
        return false;
    };
    let (df, dr) = (tf - f, tr - r);
    if df == 0 && dr == 0 {
        return false;
    }
    let clear = |sf: i32, sr: i32| {
        let (mut x, mut y) = (f + sf, r + sr);
        while (x, y) != (tf, tr) {
            if g[x as usize][y as usize].is_some() {
                return false;
            }
            x += sf;
            y += sr;
        }
        true
    };
    match k {
        PieceKind::Pawn => df.abs() == 1 && dr == if c == Color::White { 1 } else { -1 },
        PieceKind::Knight => (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1),
        PieceKind::King => df.abs() <= 1 && dr.abs() <= 1,
        PieceKind::Rook | PieceKind::Bishop | PieceKind::Queen => {
            let straight = df == 0 || dr == 0;
            let diagonal = df.abs() == dr.abs();
            let ok = match k {
                PieceKind::Rook => straight,
                PieceKind::Bishop => diagonal,
                _ => straight || diagonal,
            };
            ok && clear(df.signum(), dr.signum())
        }
    }
}

fn attackers_of(g: &Grid, tf: i32, tr: i32, side: Color) -> Vec<(i32, i32, PieceKind)> {
    let mut v = Vec::new();
    for f in 0..8 {
        for r in 0..8 {
            if let Some((c, k)) = g[f as usize][r as usize]
                && c == side
                && attacks(g, f, r, tf, tr)
            {
                v.push((f, r, k));
            }
        }
    }
    v
}

/// Best result (min, max over ties between equally valued attackers) for `side` of
/// optionally capturing on (tf, tr) with its least valuable attacker, and so on.
fn exchange(g: &Grid, tf: i32, tr: i32, side: Color) -> (i32, i32) {
    let atts = attackers_of(g, tf, tr, side);
    let Some(least) = atts.iter().map(|a| value(a.2)).min() else {
        return (0, 0);
    };
    let Some((_, victim)) = g[tf as usize][tr as usize] else {
        return (0, 0);
    };
    let (mut lo, mut hi) = (i32::MAX, i32::MIN);
    for &(f, r, k) in atts.iter().filter(|a| value(a.2) == least) {
        let mut next = *g;
        next[f as usize][r as usize] = None;
        let promotes = k == PieceKind::Pawn && (tr == 7 || tr == 0);
        let placed = if promotes { PieceKind::Queen } else { k };
        next[tf as usize][tr as usize] = Some((side, placed));
        if k == PieceKind::King && !attackers_of(&next, tf, tr, side.flip()).is_empty() {
            lo = lo.min(0);
            hi = hi.max(0);
            continue;
        }
        let won = value(victim)
            + if promotes {
                value(PieceKind::Queen) - value(PieceKind::Pawn)
            } else {
                0
            };
        let (rlo, rhi) = exchange(&next, tf, tr, side.flip());
        // Capturing is optional: stand still rather than lose.
        lo = lo.min((won - rhi).max(0));
        hi = hi.max((won - rlo).max(0));
    }
    (lo, hi)
}

/// SEE by brute force: play the move on the grid, then let the exchange run.
fn brute_see(b: &Board, m: Move) -> (i32, i32) {
    if m.is_castle() {
        return (0, 0);
    }
    let mut g = grid_of(b);
    let (ff, fr) = (m.from().file() as i32, m.from().rank() as i32);
    let (tf, tr) = (m.to().file() as i32, m.to().rank() as i32);
    let (us, kind) = g[ff as usize][fr as usize].expect("a piece moves");
    let mut won = 0;
    if m.is_en_passant() {
        g[tf as usize][fr as usize] = None;
        won += value(PieceKind::Pawn);
    } else if let Some((_, victim)) = g[tf as usize][tr as usize] {
        won += value(victim);
    }
    let placed = m.promotion().unwrap_or(kind);
    won += value(placed) - value(kind);
    g[ff as usize][fr as usize] = None;
    g[tf as usize][tr as usize] = Some((us, placed));
    let (lo, hi) = exchange(&g, tf, tr, us.flip());
    (won - hi, won - lo)
}

#[test]
fn see_matches_a_brute_force_exchange_in_random_positions() {
    let mut checked = 0;
    let mut exact = 0;
    for b in random_positions(1500, 0x5EE_0001) {
        for &m in b.legal_moves().iter() {
            let s = order::see(&b, m);
            let (lo, hi) = brute_see(&b, m);
            assert!(
                lo <= s && s <= hi,
                "{} {m}: see {s}, brute force {lo}..{hi}",
                b.to_fen()
            );
            checked += 1;
            exact += usize::from(lo == hi);
        }
    }
    assert!(checked > 20_000, "only {checked} moves checked");
    // Ties between equal attackers rarely leave any room.
    assert!(exact * 100 >= checked * 99, "{exact} of {checked} exact");
}

/// The threshold form answers exactly what comparing `see` would, for every threshold the
/// search uses and around every value `see` takes, also where its shortcut bounds decide.
#[test]
fn see_at_least_agrees_with_see() {
    let mut decided_by_bound = 0;
    let mut checked = 0;
    for b in random_positions(1500, 0x5EE_0002) {
        for &m in b.legal_moves().iter() {
            let s = order::see(&b, m);
            for t in [-600, -360, -300, -200, -120, -100, -60, 0, s - 1, s, s + 1] {
                assert_eq!(
                    order::see_at_least(&b, m, t),
                    s >= t,
                    "{} {m}: see {s}, threshold {t}",
                    b.to_fen()
                );
                checked += 1;
            }
            if m.is_capture() && s > 0 {
                decided_by_bound += 1;
            }
        }
    }
    assert!(checked > 200_000, "only {checked} comparisons");
    assert!(
        decided_by_bound > 1000,
        "only {decided_by_bound} winning captures"
    );
}

// ---- vfm -------------------------------------------------------------------------------

/// The page's exchange written independently: lists of attacker values, cheapest first;
/// `to_move` captures the piece on the square (worth `on_square`), then the other side, ...
/// Every side always captures if it can (the page's table is not a minimax), the opponent of
/// the mover at most three times. Returns the mover's material result.
fn fight(
    on_square: i32,
    to_move: &[i32],
    other: &[i32],
    opponent_moves: bool,
    rounds_left: u32,
) -> i32 {
    if to_move.is_empty() || (opponent_moves && rounds_left == 0) {
        return 0;
    }
    let gained = if opponent_moves {
        -on_square
    } else {
        on_square
    };
    let rounds = if opponent_moves {
        rounds_left - 1
    } else {
        rounds_left
    };
    gained + fight(to_move[0], other, &to_move[1..], !opponent_moves, rounds)
}

fn values_of(bits: u8, except: Option<usize>) -> Vec<i32> {
    let table = [100, 300, 500, 1000];
    (0..4)
        .filter(|&c| bits >> c & 1 == 1 && Some(c) != except)
        .map(|c| table[c])
        .collect()
}

#[test]
fn every_vfm_entry_matches_a_brute_force_exchange() {
    let mut nonzero = 0;
    for side in 0..2usize {
        for mover in AttackClass::ALL {
            for black in 0..16u8 {
                for white in 0..16u8 {
                    let (own_bits, opp_bits) = if side == 0 {
                        (white, black)
                    } else {
                        (black, white)
                    };
                    // The mover's own kind bit is the mover itself (the page's assumption).
                    let own = values_of(own_bits, Some(mover.index()));
                    let opp = values_of(opp_bits, None);
                    let expected = fight(mover.value(), &opp, &own, true, 3);
                    let idx =
                        white as usize + black as usize * 16 + mover.index() * 256 + side * 1024;
                    assert_eq!(
                        VFM[idx] as i32, expected,
                        "white {white:04b} black {black:04b} {mover:?} side {side}"
                    );
                    let color = if side == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    assert_eq!(order::vfm(white | black << 4, mover, color), expected);
                    nonzero += usize::from(expected != 0);
                }
            }
        }
    }
    assert_eq!(VFM.len(), VFM_LEN);
    assert!(
        nonzero > 1000,
        "the table is mostly non-trivial ({nonzero})"
    );
}

// ---- the seed page's example -----------------------------------------------------------

/// The seed page's position (000): White has played e4, Black's queen stands on d5 where the
/// pawn attacks it; the d7 pawn is gone ("helt overklig", as the page says).
const SEED_EXAMPLE: &str = "rnb1kbnr/ppp1pppp/8/3q4/4P3/8/PPPP1PPP/RNBQKBNR";

/// Queen moves after which the opponent can take the queen.
fn queen_hanging_moves(b: &Board, queen: Square) -> Vec<String> {
    let them = b.side_to_move().flip();
    let mut out = Vec::new();
    for &m in b.legal_moves().iter().filter(|m| m.from() == queen) {
        let mut after = b.clone();
        after.make(m);
        if after.is_attacked(m.to(), them) {
            out.push(m.to_string());
        }
    }
    out.sort();
    out
}

fn tail(list: &[ScoredMove], n: usize) -> Vec<String> {
    let mut t = ucis(&list[list.len() - n..]);
    t.sort();
    t
}

#[test]
fn seed_example_black_takes_first_and_hanging_queen_moves_sort_last() {
    let b = board(&format!("{SEED_EXAMPLE} b KQkq - 0 3"));
    let d5: Square = "d5".parse().unwrap();
    let hanging = queen_hanging_moves(&b, d5);
    // Qf5 Qh5 Qb5 Qd3 Qc4 Qb3 Qxd2 Qxa2: the page's orange moves.
    assert_eq!(hanging.len(), 8, "{hanging:?}");
    for scheme in [Scheme::Seed, Scheme::Modern] {
        let list = sorted(&b, scheme, &OrderContext::default());
        assert_eq!(
            list[0].mv.to_string(),
            "d5e4",
            "{scheme}: {:?}",
            ucis(&list)
        );
        assert_eq!(
            tail(&list, hanging.len()),
            hanging,
            "{scheme}: {:?}",
            ucis(&list)
        );
    }
    // The page's own sorted list for Black begins "Dxe4 h5 b5 a6": the pawn moves whose
    // squares the page's tables call defended (h5 by the rook behind the pawn, through the
    // vector values). The seed scheme reproduces that head of the list.
    let list = sorted(&b, Scheme::Seed, &OrderContext::default());
    let mut next3 = ucis(&list[1..4]);
    next3.sort();
    assert_eq!(next3, vec!["a7a6", "b7b5", "h7h5"], "{:?}", ucis(&list));
    // Modern also knows the queen is en prise where it stands: every safe queen move comes
    // before every move that leaves it on d5, and the losing captures come last of all.
    let list = sorted(&b, Scheme::Modern, &OrderContext::default());
    let pos = |uci: &str| list.iter().position(|s| s.mv.to_string() == uci).unwrap();
    let safe_queen: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, s)| s.mv.from() == d5 && !hanging.contains(&s.mv.to_string()))
        .map(|(i, _)| i)
        .collect();
    let others: Vec<usize> = list
        .iter()
        .enumerate()
        .filter(|(_, s)| s.mv.from() != d5)
        .map(|(i, _)| i)
        .collect();
    assert!(safe_queen.len() >= 8);
    assert!(
        safe_queen.iter().max() < others.iter().min(),
        "{:?}",
        ucis(&list)
    );
    let last_two = tail(&list, 2);
    assert_eq!(last_two, vec!["d5a2".to_string(), "d5d2".to_string()]);
    assert!(pos("d5e4") == 0);
}

#[test]
fn seed_example_white_pawn_takes_queen_first_and_queen_blunders_last() {
    let b = board(&format!("{SEED_EXAMPLE} w KQkq - 0 3"));
    let d1: Square = "d1".parse().unwrap();
    let hanging = queen_hanging_moves(&b, d1);
    assert_eq!(hanging, vec!["d1g4".to_string(), "d1h5".to_string()]);
    for scheme in [Scheme::Seed, Scheme::Modern] {
        let list = sorted(&b, scheme, &OrderContext::default());
        assert_eq!(
            list[0].mv.to_string(),
            "e4d5",
            "{scheme}: {:?}",
            ucis(&list)
        );
        assert_eq!(tail(&list, 2), hanging, "{scheme}: {:?}", ucis(&list));
    }
    // d2-d4 walks into the queen's attack, but the queen on d1 guards d4 once the pawn has
    // left d2 (the seed's vector attack values): neither scheme calls it a blunder.
    for scheme in [Scheme::Seed, Scheme::Modern] {
        let list = order::explain(&b, scheme, &OrderContext::default(), &History::default());
        let d4 = list.iter().find(|s| s.mv.to_string() == "d2d4").unwrap();
        assert!(d4.score >= 0, "{scheme}: {:?}", d4.reasons);
    }
    // `none` leaves the generator's order alone: the page's unsorted column.
    let none = order::explain(
        &b,
        Scheme::None,
        &OrderContext::default(),
        &History::default(),
    );
    assert!(none.iter().all(|s| s.score == 0 && s.reasons.is_empty()));
}

#[test]
fn seed_scheme_explains_with_the_pages_terms() {
    let b = board(&format!("{SEED_EXAMPLE} w KQkq - 0 3"));
    let list = order::explain(
        &b,
        Scheme::Seed,
        &OrderContext::default(),
        &History::default(),
    );
    let find = |uci: &str| list.iter().find(|s| s.mv.to_string() == uci).unwrap();
    // Pawn takes queen: a capture, MVV/LVA 1000 - 100, and nothing can take back, so vfm
    // refunds the pawn.
    let exd5 = find("e4d5");
    assert_eq!(exd5.score, 1000 + 900 + 100);
    assert!(
        exd5.reasons
            .iter()
            .any(|r| r.kind == ReasonKind::MvvLva && r.points == 900)
    );
    assert!(
        exd5.reasons
            .iter()
            .any(|r| r.kind == ReasonKind::Vfm && r.points == 100)
    );
    // Queen to g4, where the c8 bishop takes it: the attack values say -1000.
    let qg4 = find("d1g4");
    assert_eq!(
        qg4.reasons,
        vec![order::Reason {
            kind: ReasonKind::Attack,
            points: -1000
        }]
    );
}

// ---- Ifrit's formulas, recapture, PV and hash ------------------------------------------

#[test]
fn ifrit_formulas_rank_captures_differently() {
    // P×Q (5-1 = 4), N×R (4-2 = 2), R×Q (5-4 = 1) in Ifrit's example; with 100·victim -
    // attacker, R×Q (496) overtakes N×R (398).
    let b = board("4k3/8/8/3q2r1/4P3/5N2/8/3RK3 w - - 0 1");
    let ctx = OrderContext::default();
    let first3 = |scheme| ucis(&sorted(&b, scheme, &ctx)[..3]);
    assert_eq!(first3(Scheme::MvvLva), vec!["e4d5", "f3g5", "d1d5"]);
    assert_eq!(first3(Scheme::MvvLva100), vec!["e4d5", "d1d5", "f3g5"]);
    let list = order::explain(&b, Scheme::MvvLva, &ctx, &History::default());
    let exd5 = list.iter().find(|s| s.mv.to_string() == "e4d5").unwrap();
    assert!(exd5.reasons.contains(&order::Reason {
        kind: ReasonKind::MvvLva,
        points: 4
    }));
    let list = order::explain(&b, Scheme::MvvLva100, &ctx, &History::default());
    let rxd5 = list.iter().find(|s| s.mv.to_string() == "d1d5").unwrap();
    assert!(rxd5.reasons.contains(&order::Reason {
        kind: ReasonKind::MvvLva,
        points: 496
    }));
    // Quiet moves stay in generator order behind the captures.
    for scheme in [Scheme::MvvLva, Scheme::MvvLva100] {
        let list = sorted(&b, scheme, &ctx);
        assert!(list[3..].iter().all(|s| s.score == 0 && !s.mv.is_capture()));
    }
}

#[test]
fn seed_scheme_puts_the_recapture_before_other_captures() {
    // Black's bishop takes the knight on f3; White can take back with the queen or the
    // g-pawn: those recaptures lead the list.
    let mut b = board("rn1qkbnr/pb1ppppp/1p6/2p5/8/3PPN2/PPP2PPP/RNBQKB1R b KQkq - 0 4");
    b.make(mv(&b, "b7f3"));
    let f3: Square = "f3".parse().unwrap();
    assert_eq!(b.last_capture_square(), Some(f3));
    let list = sorted(&b, Scheme::Seed, &OrderContext::default());
    let recaptures: Vec<&ScoredMove> = list.iter().filter(|s| s.mv.to() == f3).collect();
    assert!(recaptures.len() >= 2);
    for s in &list {
        let has = s.reasons.iter().any(|r| r.kind == ReasonKind::Recapture);
        assert_eq!(has, s.mv.to() == f3, "{}", s.mv);
    }
    assert_eq!(list[0].mv.to(), f3);
    let best_other = list
        .iter()
        .filter(|s| s.mv.is_capture() && s.mv.to() != f3)
        .map(|s| s.score)
        .max();
    let worst_recapture = recaptures.iter().map(|s| s.score).min().unwrap();
    assert!(best_other.is_none_or(|o| o < worst_recapture));
}

#[test]
fn pv_then_hash_lead_in_every_scheme_but_none() {
    for b in random_positions(60, 0x0dd5) {
        let moves = b.legal_moves();
        if moves.len() < 3 {
            continue;
        }
        // The last two moves of the generator: usually quiet ones nobody would rank high.
        let pv = moves.as_slice()[moves.len() - 1];
        let hash = moves.as_slice()[moves.len() - 2];
        let ctx = OrderContext {
            pv_move: pv,
            hash_move: hash,
            killers: [moves.as_slice()[0], Move::NONE],
            ..OrderContext::default()
        };
        for scheme in Scheme::ALL {
            let list = sorted(&b, scheme, &ctx);
            if scheme == Scheme::None {
                assert!(list.iter().all(|s| s.score == 0));
                continue;
            }
            assert_eq!(list[0].mv, pv, "{scheme}");
            assert_eq!(
                list[0].reasons,
                vec![order::Reason {
                    kind: ReasonKind::Pv,
                    points: 10_000
                }]
            );
            assert_eq!(list[1].mv, hash, "{scheme}");
            assert_eq!(list[1].reasons[0].kind, ReasonKind::Hash);
            assert!(
                list[2..].iter().all(|s| s.score.abs() < order::HASH_SCORE),
                "{scheme}"
            );
        }
    }
}

#[test]
fn modern_tiers_good_captures_killers_quiets_losing_captures() {
    // Kiwipete: plenty of captures of both kinds.
    let b = board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let killer = mv(&b, "a1b1");
    let ctx = OrderContext {
        killers: [killer, Move::NONE],
        ..OrderContext::default()
    };
    let list = sorted(&b, Scheme::Modern, &ctx);
    let rank = |s: &ScoredMove| {
        if s.mv.is_capture() && order::see(&b, s.mv) >= 0 {
            0
        } else if s.mv == killer {
            1
        } else if !s.mv.is_capture() {
            2
        } else {
            3
        }
    };
    let ranks: Vec<i32> = list.iter().map(rank).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{:?}", ucis(&list));
    assert!(ranks.contains(&0) && ranks.contains(&3));
}

// ---- one path for scores and reasons ---------------------------------------------------

#[test]
fn explain_and_score_moves_agree_everywhere() {
    let mut rng = Rng(0xA6EE);
    let mut history = History::default();
    for (n, b) in random_positions(800, 0xE4_01A1).into_iter().enumerate() {
        let moves = b.legal_moves();
        let any = |rng: &mut Rng| {
            if rng.below(3) == 0 {
                Move::NONE
            } else {
                moves.as_slice()[rng.below(moves.len())]
            }
        };
        let ctx = OrderContext {
            pv_move: any(&mut rng),
            hash_move: any(&mut rng),
            killers: [any(&mut rng), any(&mut rng)],
            ..OrderContext::default()
        };
        // History fills up as a search would fill it.
        for _ in 0..rng.below(20) {
            let m = moves.as_slice()[rng.below(moves.len())];
            if rng.below(2) == 0 {
                history.reward(b.side_to_move(), m, rng.below(12) as u32);
            } else {
                history.penalize(b.side_to_move(), m, rng.below(12) as u32);
            }
        }
        for scheme in Scheme::ALL {
            let explained = order::explain(&b, scheme, &ctx, &history);
            let mut scores = [0i32; 256];
            order::score_moves(&b, &moves, scheme, &ctx, &history, &mut scores);
            assert_eq!(explained.len(), moves.len());
            for (i, s) in explained.iter().enumerate() {
                assert_eq!(s.mv, moves.as_slice()[i], "generator order");
                assert_eq!(s.score, scores[i], "{scheme} {} in {}", s.mv, b.to_fen());
                assert_eq!(s.reasons.iter().map(|r| r.points).sum::<i32>(), s.score);
                assert!(s.reasons.iter().all(|r| r.points != 0));
                if s.mv != ctx.pv_move && s.mv != ctx.hash_move {
                    assert!(
                        s.score.abs() < order::HASH_SCORE,
                        "{scheme} {} {:?}",
                        s.mv,
                        s.reasons
                    );
                }
            }
        }
        // The tactical list too (what quiescence scores).
        if n % 4 == 0 {
            let tactical = b.tactical_moves();
            let explained = order::explain_moves(&b, &tactical, Scheme::Modern, &ctx, &history);
            let mut scores = [0i32; 256];
            order::score_moves(&b, &tactical, Scheme::Modern, &ctx, &history, &mut scores);
            for (i, s) in explained.iter().enumerate() {
                assert_eq!(s.score, scores[i]);
            }
        }
    }
}

#[test]
fn pick_yields_scores_in_non_increasing_order() {
    let mut history = History::default();
    let mut rng = Rng(77);
    for b in random_positions(200, 0x91C4) {
        let mut moves = b.legal_moves();
        for _ in 0..10 {
            let m = moves.as_slice()[rng.below(moves.len())];
            history.reward(b.side_to_move(), m, 1 + rng.below(10) as u32);
        }
        for scheme in Scheme::ALL {
            let original: Vec<Move> = moves.iter().copied().collect();
            let mut scores = [0i32; 256];
            order::score_moves(
                &b,
                &moves,
                scheme,
                &OrderContext::default(),
                &history,
                &mut scores,
            );
            let mut picked = Vec::new();
            for i in 0..moves.len() {
                order::pick(&mut moves, &mut scores, i);
                picked.push(scores[i]);
            }
            assert!(
                picked.windows(2).all(|w| w[0] >= w[1]),
                "{scheme}: {picked:?}"
            );
            let mut a: Vec<String> = original.iter().map(|m| m.to_string()).collect();
            let mut p: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
            a.sort();
            p.sort();
            assert_eq!(a, p, "pick permutes");
        }
        // Out-of-range and short score slices are harmless.
        let mut short = [0i32; 2];
        order::pick(&mut moves, &mut short, 5);
        order::pick(&mut moves, &mut short, 0);
        order::score_moves(
            &b,
            &moves,
            Scheme::Modern,
            &OrderContext::default(),
            &history,
            &mut short,
        );
    }
}

// ---- history, names --------------------------------------------------------------------

#[test]
fn history_rewards_penalizes_and_stays_bounded() {
    let b = Board::startpos();
    let e4 = mv(&b, "e2e4");
    let d4 = mv(&b, "d2d4");
    let mut h = History::default();
    h.reward(Color::White, e4, 5);
    assert!(h.get(Color::White, e4) > 0);
    assert_eq!(h.get(Color::Black, e4), 0);
    h.penalize(Color::White, d4, 5);
    assert!(h.get(Color::White, d4) < 0);
    for _ in 0..10_000 {
        h.reward(Color::White, e4, 60);
        h.penalize(Color::White, d4, 60);
    }
    assert!(h.get(Color::White, e4) <= HISTORY_MAX && h.get(Color::White, e4) > HISTORY_MAX / 2);
    assert!(h.get(Color::White, d4) >= -HISTORY_MAX && h.get(Color::White, d4) < -HISTORY_MAX / 2);
    h.age();
    assert!(h.get(Color::White, e4) <= HISTORY_MAX / 2);
    h.clear();
    assert_eq!(h.get(Color::White, e4), 0);
}

#[test]
fn schemes_and_reasons_have_names() {
    for s in Scheme::ALL {
        assert_eq!(s.name().parse::<Scheme>(), Ok(s));
        assert!(!s.describe().is_empty());
    }
    assert_eq!("SEED".parse::<Scheme>(), Ok(Scheme::Seed));
    assert_eq!("MvvLva100".parse::<Scheme>(), Ok(Scheme::MvvLva100));
    assert_eq!(Scheme::MvvLva100.to_string(), "mvvlva100");
    let err = "mvv".parse::<Scheme>().unwrap_err();
    assert!(
        err.contains("none, mvvlva, mvvlva100, seed, modern"),
        "{err}"
    );
    let r = order::Reason {
        kind: ReasonKind::See,
        points: -650,
    };
    assert_eq!(r.to_string(), "SEE -650");
    assert_eq!(ReasonKind::Pv.label(), "PV");
    assert_eq!(ReasonKind::MvvLva.label(), "MVV/LVA");
}
