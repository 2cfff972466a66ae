//! The explorer's recorded tree: node counts add up, cutoffs are where the search cut, the
//! children come in the order searched, and under profile `seed` the tree is textbook
//! alpha-beta. Small depths keep it fast.

use crate::common;
use common::search::{no_book, search_to_depth};

use std::collections::BTreeMap;

use ox88::chess::Board;
use ox88::chess::types::Move;
use ox88::engine::order::Scheme;
use ox88::engine::score::MATE;
use ox88::engine::search::Profile;
use ox88::engine::search::record::{Skip, TreeLimits, TreeNode};
use ox88::engine::{Bound, Limits, SearchEvent, SearchOptions};

const POSITIONS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r1bqkb1r/pp2pppp/2np1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 2 6",
];

const EVERYTHING: TreeLimits = TreeLimits {
    plies: 64,
    min_nodes: 1,
    cap: 200_000,
};

/// The tree of the last iteration and the nodes that iteration searched (from the reports).
fn record(fen: &str, depth: u32, scheme: Scheme, profile: Profile) -> (TreeNode, u64) {
    let options = SearchOptions {
        scheme,
        profile,
        ..no_book()
    };
    let searched = search_to_depth(fen, depth, &options, Some(EVERYTHING));
    let last = searched.iteration_nodes(depth);
    (searched.tree.expect("an iteration completed"), last)
}

/// Checks the invariants below `node` at `board`; returns how many nodes were checked.
fn check(node: &TreeNode, board: &mut Board) -> usize {
    let mut checked = 1;
    let sum: u64 = node.children.iter().map(|c| c.nodes).sum();
    if node.skipped.is_some() && node.passes.is_empty() {
        // A move the search decided not to make: no node, nothing below.
        assert_eq!(node.nodes, 0);
        assert!(node.children.is_empty());
    } else if node.children_complete {
        // Every node made counts once, the root and a null move included.
        assert_eq!(
            node.nodes,
            1 + sum,
            "nodes = 1 + the children's at {} ({:?})",
            board.to_fen(),
            node.mv
        );
    } else {
        assert!(
            node.nodes > sum,
            "a node counts itself at {}",
            board.to_fen()
        );
    }
    if !node.passes.is_empty() {
        let last = node.passes.last().unwrap();
        assert_eq!(
            node.window,
            Some((last.alpha, last.beta)),
            "window = last pass's"
        );
        assert_eq!(node.score, last.score, "score = last pass's");
        assert_eq!(node.reduction, node.passes[0].reduction);
    }
    // Children in the order searched: by pass, each pass's in falling ordering score.
    let passes: Vec<usize> = node.children.iter().map(|c| c.pass).collect();
    assert!(
        passes.windows(2).all(|w| w[0] <= w[1]),
        "children grouped by pass at {}: {passes:?}",
        board.to_fen()
    );
    assert!(
        node.children
            .iter()
            .all(|c| c.pass >= 1 && c.pass <= node.passes.len()),
        "a child's pass is one of its parent's"
    );
    for pass in 1..=node.passes.len() {
        let ordered: Vec<i32> = node
            .children
            .iter()
            .filter(|c| c.pass == pass && c.mv != Some(Move::NONE))
            .filter_map(|c| c.order_score)
            .collect();
        assert!(
            ordered.windows(2).all(|w| w[0] >= w[1]),
            "pass {pass}'s children in ordering order at {}: {ordered:?}",
            board.to_fen()
        );
        // Each move is made at most once per pass.
        let mut moves: Vec<Option<Move>> = node
            .children
            .iter()
            .filter(|c| c.pass == pass)
            .map(|c| c.mv)
            .collect();
        let n = moves.len();
        moves.sort_by_key(|m| m.map(|m| m.to_string()));
        moves.dedup();
        assert_eq!(moves.len(), n, "a move once per pass at {}", board.to_fen());
    }
    if let Some(i) = node.cut_index {
        let (_, beta) = node.window.expect("a cut node was searched");
        let cut = &node.children[i];
        assert!(-cut.score.unwrap() >= beta, "the cut child reached beta");
        assert_eq!(cut.pass, node.passes.len(), "the cut is in the last pass");
        assert_eq!(node.bound(), Some(Bound::Lower));
        assert_eq!(i + 1, node.children.len(), "nothing searched after the cut");
    }
    for c in &node.children {
        let mv = c.mv.unwrap();
        if c.score.is_none() {
            assert!(
                c.skipped.is_some(),
                "a move without a score says why it was skipped"
            );
        }
        if mv.is_none() {
            board.make_null();
        } else {
            assert!(board.legal_moves().contains(mv), "{mv} is legal");
            board.make(mv);
        }
        checked += check(c, board);
        board.unmake();
    }
    checked
}

#[test]
fn recorded_trees_add_up_under_every_scheme_and_profile() {
    let mut passes_seen = 0;
    for profile in [Profile::Seed, Profile::Full] {
        for scheme in Scheme::ALL {
            // Plain alpha-beta without ordering explodes in quiescence on the sharp ones.
            let quiet = [POSITIONS[0], POSITIONS[2], POSITIONS[4], POSITIONS[5]];
            let fens: &[&str] = if profile == Profile::Full {
                &POSITIONS
            } else {
                &quiet
            };
            for &fen in fens {
                let depth = if profile == Profile::Full { 5 } else { 3 };
                let (tree, searched) = record(fen, depth, scheme, profile);
                assert_eq!(tree.nodes, searched, "root nodes = the iteration's ({fen})");
                let mut board = Board::from_fen(fen).unwrap();
                let n = check(&tree, &mut board);
                assert_eq!(n, tree.recorded());
                passes_seen += count_repasses(&tree);
                // Recording changes nothing the search does.
                let options = SearchOptions {
                    scheme,
                    profile,
                    ..no_book()
                };
                let plain = search_to_depth(fen, depth, &options, None).result;
                let recorded = search_to_depth(fen, depth, &options, Some(EVERYTHING)).result;
                assert_eq!(plain.stats, recorded.stats, "{fen}");
                assert_eq!(plain.best, recorded.best, "{fen}");
                assert_eq!(plain.score, recorded.score, "{fen}");
            }
        }
    }
    assert!(passes_seen > 0, "some node was searched in several passes");
}

/// Nodes searched more than once (re-searches).
fn count_repasses(n: &TreeNode) -> usize {
    usize::from(n.passes.len() > 1) + n.children.iter().map(count_repasses).sum::<usize>()
}

/// A null move is a child of its own: made once, counted once, searched in a null window
/// at the reduced depth.
#[test]
fn a_null_move_is_a_node_of_its_own() {
    let mut found = 0;
    fn walk(n: &TreeNode, found: &mut usize) {
        for c in &n.children {
            if c.mv == Some(Move::NONE) {
                *found += 1;
                assert!(c.nodes >= 1);
                assert_eq!(c.passes.len(), 1);
                let p = c.passes[0];
                assert_eq!(p.beta, p.alpha + 1, "a null window");
                assert!(p.reduction >= 3);
            }
            walk(c, found);
        }
    }
    for fen in POSITIONS {
        let (tree, _) = record(fen, 6, Scheme::Modern, Profile::Full);
        walk(&tree, &mut found);
    }
    assert!(found > 0, "null moves recorded");
}

/// Textbook alpha-beta (fail-soft, negamax): each child is searched in (−β, −α) with α the
/// best so far; quiescence starts from the stand-pat score; the node's score is the best.
fn textbook(node: &TreeNode, board: &mut Board) {
    let (alpha0, beta) = node.window.unwrap();
    let searched: Vec<&TreeNode> = node
        .children
        .iter()
        .filter(|c| c.skipped.is_none() || c.score.is_some())
        .collect();
    if node.skipped.is_none() && node.children_complete {
        let (mut alpha, mut best) = match (node.quiescence, node.static_eval) {
            (true, Some(e)) => (alpha0.max(e), e),
            _ => (alpha0, i32::MIN),
        };
        for (i, c) in searched.iter().enumerate() {
            // Mate-distance pruning narrows the window of a full-width node first.
            let expected = if c.quiescence {
                (-beta, -alpha)
            } else {
                let ply = c.ply as i32;
                ((-beta).max(-MATE + ply), (-alpha).min(MATE - ply - 1))
            };
            assert_eq!(
                c.window,
                Some(expected),
                "child {i} window at {}",
                board.to_fen()
            );
            let v = -c.score.unwrap();
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                }
            }
            if v >= beta {
                assert_eq!(i + 1, searched.len(), "cut at {}", board.to_fen());
            }
        }
        if !searched.is_empty() {
            assert_eq!(
                node.score,
                Some(best),
                "score is the best at {}",
                board.to_fen()
            );
        }
        if !node.quiescence && node.cut_index.is_none() && node.ply > 0 {
            assert_eq!(
                searched.len(),
                board.legal_moves().len(),
                "all moves at {}",
                board.to_fen()
            );
        }
    }
    for c in &searched {
        board.make(c.mv.unwrap());
        textbook(c, board);
        board.unmake();
    }
}

#[test]
fn under_profile_seed_the_tree_is_textbook_alpha_beta() {
    for scheme in [Scheme::Seed, Scheme::MvvLva, Scheme::None] {
        for fen in [POSITIONS[0], POSITIONS[2], POSITIONS[4], POSITIONS[5]] {
            let (tree, _) = record(fen, 3, scheme, Profile::Seed);
            let mut board = Board::from_fen(fen).unwrap();
            assert!(
                tree.children
                    .iter()
                    .all(|c| c.skipped != Some(Skip::NullMove))
            );
            textbook(&tree, &mut board);
        }
    }
}

#[test]
fn the_full_profile_records_its_pruning() {
    let mut kinds = std::collections::BTreeSet::new();
    fn walk(
        n: &TreeNode,
        kinds: &mut std::collections::BTreeSet<&'static str>,
        reduced: &mut bool,
    ) {
        if let Some(k) = n.skipped {
            kinds.insert(k.name());
        }
        *reduced |= n.reduction > 0;
        n.children.iter().for_each(|c| walk(c, kinds, reduced));
    }
    let mut reduced = false;
    for fen in POSITIONS {
        let (tree, _) = record(fen, 6, Scheme::Modern, Profile::Full);
        walk(&tree, &mut kinds, &mut reduced);
    }
    assert!(reduced, "late-move reductions are recorded");
    for k in ["tt", "null-move", "stand-pat"] {
        assert!(kinds.contains(k), "{k} recorded: {kinds:?}");
    }
}

#[test]
fn probcut_and_history_pruning_are_recorded_and_their_trees_add_up() {
    // Deep enough for ProbCut (5 plies left at a non-PV node) and the history to have
    // learnt which quiet moves fail.
    let mut kinds = std::collections::BTreeSet::new();
    fn walk(n: &TreeNode, kinds: &mut std::collections::BTreeSet<&'static str>) {
        if let Some(k) = n.skipped {
            kinds.insert(k.name());
        }
        n.children.iter().for_each(|c| walk(c, kinds));
    }
    for fen in POSITIONS {
        let (tree, searched) = record(fen, 10, Scheme::Modern, Profile::Full);
        assert_eq!(tree.nodes, searched, "root nodes = the iteration's ({fen})");
        let mut board = Board::from_fen(fen).unwrap();
        assert_eq!(check(&tree, &mut board), tree.recorded());
        walk(&tree, &mut kinds);
    }
    for k in ["prob-cut", "history"] {
        assert!(kinds.contains(k), "{k} recorded: {kinds:?}");
    }
}

#[test]
fn limits_bound_the_recording_and_nodes_stay_counted() {
    let fen = POSITIONS[1];
    let limits = TreeLimits {
        plies: 2,
        min_nodes: 50,
        cap: 500,
    };
    let recorded = search_to_depth(fen, 5, &no_book(), Some(limits));
    let tree = recorded.tree.unwrap();
    assert!(tree.recorded() <= 500);
    fn deepest(n: &TreeNode) -> usize {
        n.children.iter().map(deepest).max().unwrap_or(n.ply)
    }
    assert!(deepest(&tree) <= 2);
    fn small_have_no_children(n: &TreeNode) {
        if n.ply > 0 && n.nodes < 50 {
            assert!(n.children.is_empty());
        }
        n.children.iter().for_each(small_have_no_children);
    }
    small_have_no_children(&tree);
    // Recording does not change the search.
    let plain = search_to_depth(fen, 5, &no_book(), None).result;
    assert_eq!(plain.stats, recorded.result.stats);
    assert_eq!(plain.best, recorded.result.best);
}

#[test]
fn ox88_tree_json_is_one_object_whose_root_counts_the_iteration() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(["tree", "--depth", "3", "--plies", "2", "--json"])
        .args(["--moves", "e2e4", "e7e5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(v["move"].is_null());
    assert_eq!(v["ply"], 0);
    let children = v["children"].as_array().unwrap();
    let sum: u64 = children.iter().map(|c| c["nodes"].as_u64().unwrap()).sum();
    assert_eq!(
        v["nodes"].as_u64().unwrap(),
        1 + sum,
        "the root counts itself"
    );
    let first = &children[0];
    assert_eq!(first["pass"], 1);
    let passes = first["passes"].as_array().unwrap();
    assert!(!passes.is_empty());
    assert_eq!(passes.last().unwrap()["score"], first["score"]);
    assert!(first.get("visits").is_none() && first.get("earlier_pass_only").is_none());
    assert!(
        children
            .iter()
            .all(|c| c["move"].as_str().unwrap().len() >= 4)
    );
}

#[test]
fn ox88_tree_names_a_bad_move_and_fails() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ox88"))
        .args(["tree", "--depth", "2", "--moves", "e2e5"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad move 'e2e5'"), "{err}");
    assert!(out.stdout.is_empty());
}

/// With `record_tree` set, the engine sends each complete iteration's tree before that
/// iteration's report, and its root counts exactly the nodes that iteration searched.
#[test]
fn the_engine_sends_each_iterations_tree_before_its_report() {
    use std::sync::mpsc;
    let (tx, rx) = mpsc::channel();
    let engine = ox88::engine::Engine::new(move |ev| {
        let _ = tx.send(ev);
    });
    let board = Board::from_fen(POSITIONS[1]).unwrap();
    let options = SearchOptions {
        record_tree: Some(EVERYTHING),
        ..no_book()
    };
    let id = engine.go(&board, Limits::depth(5), &options);
    let mut trees: BTreeMap<u32, u64> = BTreeMap::new();
    let mut before = 0u64;
    let mut pending: Option<(u32, u64)> = None;
    loop {
        let ev = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the search answers");
        match ev {
            SearchEvent::Tree {
                id: got,
                depth,
                tree,
            } if got == id => {
                assert_eq!(tree.mv, None, "a tree starts at the root");
                pending = Some((depth, tree.nodes));
            }
            SearchEvent::Iteration { id: got, info } if got == id && info.multipv == 1 => {
                if info.bound != Bound::Exact {
                    continue; // an aspiration window that failed: the same iteration goes on
                }
                let (depth, nodes) = pending.take().expect("the tree comes first");
                assert_eq!(depth, info.depth);
                assert_eq!(nodes, info.nodes - before, "root nodes = the iteration's");
                before = info.nodes;
                trees.insert(depth, nodes);
            }
            SearchEvent::BestMove { id: got, .. } if got == id => break,
            _ => {}
        }
    }
    assert_eq!(
        trees.keys().copied().collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
}
