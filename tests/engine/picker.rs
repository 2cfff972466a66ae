//! The sharper search (issue 15): the staged move picker hands out every legal move exactly
//! once and in the order the scores say, the quick legality check of hash moves agrees with
//! the generator, static exchange pruning never happens in check, and fixed-depth searches
//! stay deterministic.

use ox88::chess::Board;
use ox88::chess::types::Move;
use ox88::engine::order::{self, History, OrderContext, Picker, Scheme};
use ox88::engine::search::record::{Skip, TreeLimits, TreeNode};
use ox88::engine::search::{Profile, Searcher};
use ox88::engine::{Limits, SearchOptions};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions reached by random moves from the book's openings, checks and promotions among
/// them; each with the moves of its grandparent position (the same side to move: realistic
/// hash moves, legal here or not).
fn positions(count: usize, seed: u64) -> Vec<(Board, Vec<Move>)> {
    let fens: Vec<String> = include_str!("../data/openings500.epd")
        .lines()
        .map(|l| l.split_whitespace().take(4).collect::<Vec<_>>().join(" "))
        .collect();
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut b = Board::from_fen(&fens[rng.below(fens.len())]).unwrap();
        let mut parent_moves = Vec::new();
        let mut grandparent_moves = Vec::new();
        for _ in 0..rng.below(80) {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            let caps: Vec<Move> = moves.iter().copied().filter(|m| m.is_tactical()).collect();
            let m = if !caps.is_empty() && rng.below(2) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves.as_slice()[rng.below(moves.len())]
            };
            grandparent_moves = std::mem::take(&mut parent_moves);
            parent_moves = moves.iter().copied().collect();
            b.make(m);
        }
        out.push((b, grandparent_moves));
    }
    out
}

/// A history filled as a search would fill it, so quiet moves get varied scores.
fn trained_history(b: &Board, rng: &mut Rng) -> History {
    let mut h = History::default();
    let moves = b.legal_moves();
    if moves.is_empty() {
        return h;
    }
    for _ in 0..30 {
        let m = moves.as_slice()[rng.below(moves.len())];
        if rng.below(2) == 0 {
            h.reward(b.side_to_move(), m, 1 + rng.below(8) as u32);
        } else {
            h.penalize(b.side_to_move(), m, 1 + rng.below(8) as u32);
        }
    }
    h
}

/// Everything the picker hands out at `b`, with the context's hash move.
fn drain(b: &Board, ctx: &OrderContext, history: &History) -> (Vec<Move>, Picker) {
    let mut picker = Picker::staged(ctx.hash_move);
    let mut out = Vec::new();
    while let Some(m) = picker.next(b, Scheme::Modern, ctx, history) {
        out.push(m);
        assert!(out.len() <= 256, "the picker does not stop");
    }
    (out, picker)
}

#[test]
fn staged_picker_hands_out_every_legal_move_exactly_once() {
    let mut rng = Rng(0x5EED_0015);
    let mut in_check = 0;
    let mut hash_kinds = [0usize; 3];
    for (b, parent_moves) in positions(600, 0x15_0001) {
        let legal: Vec<Move> = b.legal_moves().iter().copied().collect();
        if b.in_check() {
            in_check += 1;
        }
        let any = |rng: &mut Rng, pool: &[Move]| {
            if pool.is_empty() || rng.below(4) == 0 {
                Move::NONE
            } else {
                pool[rng.below(pool.len())]
            }
        };
        // No hash move, a legal one, or one from two plies back (often illegal here).
        let which = rng.below(3);
        hash_kinds[which] += 1;
        let hash = match which {
            0 => Move::NONE,
            1 => any(&mut rng, &legal),
            _ => any(&mut rng, &parent_moves),
        };
        let ctx = OrderContext {
            pv_move: if rng.below(5) == 0 {
                any(&mut rng, &legal)
            } else {
                Move::NONE
            },
            hash_move: hash,
            killers: [any(&mut rng, &parent_moves), any(&mut rng, &legal)],
            counter: any(&mut rng, &legal),
            ..OrderContext::default()
        };
        let history = trained_history(&b, &mut rng);
        let (given, picker) = drain(&b, &ctx, &history);
        let mut sorted_given = given.clone();
        sorted_given.sort_by_key(|m| format!("{m:?}{}", m.key16()));
        let mut sorted_legal = legal.clone();
        sorted_legal.sort_by_key(|m| format!("{m:?}{}", m.key16()));
        assert_eq!(sorted_given, sorted_legal, "{} hash {hash}", b.to_fen());
        assert_eq!(picker.given(), legal.len());
        assert_eq!(picker.no_moves(), legal.is_empty(), "{}", b.to_fen());
    }
    assert!(in_check > 20, "too few positions in check: {in_check}");
    assert!(hash_kinds.iter().all(|&k| k > 100));
}

#[test]
fn staged_picker_follows_the_scores_the_sort_pane_shows() {
    let mut rng = Rng(0xC0FFEE);
    for (b, _) in positions(300, 0x15_0002) {
        let legal: Vec<Move> = b.legal_moves().iter().copied().collect();
        if legal.is_empty() {
            continue;
        }
        let pick = |rng: &mut Rng| legal[rng.below(legal.len())];
        let ctx = OrderContext {
            hash_move: pick(&mut rng),
            killers: [pick(&mut rng), pick(&mut rng)],
            counter: pick(&mut rng),
            ..OrderContext::default()
        };
        let history = trained_history(&b, &mut rng);
        let explained = order::explain(&b, Scheme::Modern, &ctx, &history);
        let score_of = |m: Move| explained.iter().find(|s| s.mv == m).unwrap().score;
        let (given, _) = drain(&b, &ctx, &history);
        let scores: Vec<i32> = given.iter().map(|&m| score_of(m)).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "{}: {:?}",
            b.to_fen(),
            given.iter().zip(&scores).collect::<Vec<_>>()
        );
        assert_eq!(given[0], ctx.hash_move);
    }
}

#[test]
fn quick_legality_check_agrees_with_the_generator() {
    let mut accepted = 0;
    for (b, parent_moves) in positions(800, 0x15_0003) {
        let legal = b.legal_moves();
        for &m in legal.iter() {
            // Every legal move but castling and en passant (left to the generator).
            let expected = !m.is_castle() && !m.is_en_passant();
            assert_eq!(order::is_legal_quick(&b, m), expected, "{} {m}", b.to_fen());
        }
        for &m in &parent_moves {
            if order::is_legal_quick(&b, m) {
                accepted += 1;
                assert!(legal.contains(m), "{} accepts illegal {m}", b.to_fen());
            }
        }
        assert!(!order::is_legal_quick(&b, Move::NONE));
    }
    // Moves from two plies back are often legal here too: the check was exercised on both
    // answers.
    assert!(accepted > 100, "{accepted}");
}

const TACTICAL: [&str; 4] = [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
];

const EVERYTHING: TreeLimits = TreeLimits {
    plies: 64,
    min_nodes: 1,
    cap: 400_000,
};

/// Counts the moves skipped by SEE pruning below `node` (at `board`), and fails if any of
/// them was skipped at a node in check.
fn see_skips(node: &TreeNode, board: &mut Board) -> usize {
    let mut count = 0;
    for child in &node.children {
        if child.skipped == Some(Skip::See) {
            assert!(
                !board.in_check(),
                "SEE-pruned {:?} in check at {}",
                child.mv,
                board.to_fen()
            );
            count += 1;
        }
        match child.mv {
            Some(m) if m.is_none() => {
                // A null move: its subtree is searched from the same squares, the other
                // side to move; the recorded tree does not say more, so stop here.
            }
            Some(m) => {
                board.make(m);
                count += see_skips(child, board);
                board.unmake();
            }
            None => {}
        }
    }
    count
}

#[test]
fn static_exchange_pruning_never_skips_a_move_in_check() {
    let mut total = 0;
    for fen in TACTICAL {
        let board = Board::from_fen(fen).unwrap();
        let options = SearchOptions {
            own_book: false,
            hash_mb: 4,
            ..SearchOptions::default()
        };
        let mut searcher = Searcher::standalone();
        let (_, tree) =
            searcher.search_tree(&board, &Limits::depth(6), &options, EVERYTHING, &mut |_| {});
        let tree = tree.expect("an iteration completed");
        total += see_skips(&tree, &mut board.clone());
    }
    // The pruning happened, so the check above looked at something.
    assert!(total > 0);
}

#[test]
fn fixed_depth_searches_on_fresh_engines_are_identical() {
    for fen in TACTICAL {
        let board = Board::from_fen(fen).unwrap();
        let options = SearchOptions {
            own_book: false,
            profile: Profile::Full,
            scheme: Scheme::Modern,
            ..SearchOptions::default()
        };
        let run = || {
            let mut s = Searcher::standalone();
            let r = s.search_sync(&board, &Limits::depth(7), &options, &mut |_| {});
            (
                r.stats.nodes,
                r.score,
                r.pv,
                r.stats.fail_high,
                r.stats.reduced,
            )
        };
        let a = run();
        assert_eq!(a, run(), "{fen}");
        assert!(a.0 > 1000);
    }
}
