//! The `net` evaluation mode (issue 15): the embedded network loads, the file format rejects
//! what is not a network without panicking, the running sums the search keeps give exactly
//! the value computed from scratch, and a move's piece changes are exactly the difference
//! between the positions before and after it.

use ox88::chess::board::Board;
use ox88::chess::types::Color;
use ox88::engine::eval::known::{self, Scaling};
use ox88::engine::eval::net::{self, KingLayout, NetError, NetStack, Network};
use ox88::engine::eval::{
    EvalCache, EvalConfig, EvalMode, NET_TEMPO, ValuePreset, evaluate, explain,
};
use ox88::tune::nn::{FloatNet, TrainSettings};
use proptest::prelude::*;

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn net_cfg() -> EvalConfig {
    EvalConfig {
        mode: EvalMode::Net,
        preset: ValuePreset::Seed,
    }
}

/// The pieces on the board as (colour, kind index, square index), sorted.
fn piece_set(b: &Board) -> Vec<(usize, usize, usize)> {
    let mut v: Vec<_> = Color::BOTH
        .into_iter()
        .flat_map(|c| {
            b.pieces(c)
                .map(move |(sq, p)| (c.index(), p.kind().index(), sq.index64()))
        })
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn the_embedded_network_loads_and_its_bytes_round_trip() {
    let n = net::network();
    assert!(n.hidden >= 1);
    assert_eq!(n.ft_w.len(), n.kings.inputs() * n.hidden);
    let bytes = n.to_bytes();
    assert_eq!(
        bytes.len(),
        Network::byte_len_with(n.hidden, n.buckets, &n.kings)
    );
    assert_eq!(&Network::from_bytes(&bytes).unwrap(), n);
}

#[test]
fn a_network_with_output_buckets_round_trips_and_reads_its_bucket() {
    // The embedded network cut to one output (its first bucket's), then given four buckets:
    // the same bytes back, and each bucket used for its share of the material.
    let mut one = net::network().clone();
    one.out_w.truncate(2 * one.hidden);
    one.out_b.truncate(1);
    one.buckets = 1;
    let one = &one;
    assert_eq!(&one.to_bytes()[..8], b"OX88NET1");
    let mut four = one.clone();
    four.buckets = 4;
    four.out_w = one.out_w.repeat(4);
    four.out_b = vec![one.out_b[0]; 4];
    let h = one.hidden;
    // Bucket 3 (the most material) adds 100 to its bias; the others are copies.
    four.out_b[3] += 100 * net::QA * net::QB / net::SCALE;
    let bytes = four.to_bytes();
    assert_eq!(&bytes[..8], b"OX88NET3");
    assert_eq!(bytes.len(), Network::byte_len(h, 4));
    assert_eq!(Network::from_bytes(&bytes).unwrap(), four);
    let start = Board::startpos();
    assert_eq!(four.evaluate(&start), one.evaluate(&start) + 100);
    let ending = Board::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    assert_eq!(four.evaluate(&ending), one.evaluate(&ending));
    // The buckets split 2..=32 pieces in order, each one used.
    for b in [1, 4, 8] {
        let all: Vec<usize> = (2..=32).map(|p| net::bucket(p, b)).collect();
        assert!(all.windows(2).all(|w| w[0] <= w[1]), "{all:?}");
        assert_eq!((all[0], all[30]), (0, b - 1));
        assert!((0..b).all(|i| all.contains(&i)), "{b}: {all:?}");
    }
    // A bucket count out of range is refused by name.
    let mut bad = bytes.clone();
    bad[12..16].copy_from_slice(&40u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Buckets(40)));
}

#[test]
fn files_that_are_not_networks_are_refused_with_the_reason() {
    let good = net::network().to_bytes();
    assert_eq!(Network::from_bytes(b"hello"), Err(NetError::Magic));
    assert_eq!(Network::from_bytes(&[]), Err(NetError::Magic));
    let mut other = good.clone();
    other[0] = b'X';
    assert_eq!(Network::from_bytes(&other), Err(NetError::Magic));
    let short = &good[..good.len() - 1];
    assert!(matches!(
        Network::from_bytes(short),
        Err(NetError::Length { got, .. }) if got == good.len() - 1
    ));
    let mut zero = good[..12].to_vec();
    zero[8..12].copy_from_slice(&0u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&zero), Err(NetError::Hidden(0)));
    let msg = Network::from_bytes(short).unwrap_err().to_string();
    assert!(msg.contains("bytes"), "{msg}");
}

proptest! {
    #[test]
    fn any_bytes_load_or_are_refused_without_a_panic(
        head in prop::sample::select(vec![
            b"OX88NET1".to_vec(),
            b"OX88NET2".to_vec(),
            b"OX88NET3".to_vec(),
            b"OX88NET4".to_vec(),
            b"OX88NET5".to_vec(),
            Vec::new(),
        ]),
        hidden in 0u32..6,
        buckets in 0u32..5,
        tail in prop::collection::vec(any::<u8>(), 0..8000),
    ) {
        let mut bytes = head.clone();
        if !head.is_empty() {
            bytes.extend_from_slice(&hidden.to_le_bytes());
        }
        if head == b"OX88NET3" || head == b"OX88NET4" || head == b"OX88NET5" {
            bytes.extend_from_slice(&buckets.to_le_bytes());
        }
        bytes.extend_from_slice(&tail);
        match Network::from_bytes(&bytes) {
            Ok(n) => {
                prop_assert_eq!(bytes.len(), Network::byte_len_with(n.hidden, n.buckets, &n.kings));
                prop_assert_eq!(n.to_bytes(), bytes);
                // Any weights at all evaluate without overflow panics.
                let _ = n.evaluate(&Board::startpos());
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

/// Random games with moves taken back and null moves, the way a search walks: at every
/// position the running sums give exactly the value from scratch, and the mode's value,
/// breakdown and cache agree with the network.
#[test]
fn running_sums_equal_the_value_from_scratch_along_random_walks() {
    walk(net::network(), true);
}

/// A network of four king buckets with the mirror (random weights): each side's sums are
/// started again when its king changes bucket or crosses to the other half of the board,
/// and still give exactly the value from scratch.
#[test]
fn running_sums_follow_king_buckets_and_the_mirror() {
    let kings = KingLayout::standard(4).unwrap();
    assert!(KingLayout::standard(3).is_none());
    let n = random_net(32, 4, 4, 11);
    assert_eq!(n.kings, kings);
    walk(&n, false);
}

/// A walk of random games for [`running_sums_equal_the_value_from_scratch_along_random_walks`];
/// `mode`: also check the `net` mode's value, breakdown and cache (the embedded network).
fn walk(n: &Network, mode: bool) {
    let mut stack = NetStack::default();
    let mut cache = EvalCache::default();
    let mut rng = Rng(0x5EED_0015);
    let mut checked = 0;
    for game in 0..40 {
        let mut b = Board::startpos();
        let mut depth = 0;
        for _ in 0..300 {
            let moves = b.legal_moves();
            if moves.is_empty() || b.halfmove_clock() >= 100 {
                break;
            }
            let roll = rng.below(10);
            if roll == 0 && depth > 0 {
                b.unmake();
                depth -= 1;
            } else if roll == 1 && !b.in_check() && !b.last_was_null() {
                b.make_null();
                depth += 1;
            } else {
                let captures: Vec<_> = moves.iter().copied().filter(|m| m.is_capture()).collect();
                let m = if !captures.is_empty() && rng.below(2) == 0 {
                    captures[rng.below(captures.len())]
                } else {
                    moves.as_slice()[rng.below(moves.len())]
                };
                b.make(m);
                depth += 1;
            }
            // Skip some positions, as a search skips evaluating some nodes.
            if rng.below(4) == 0 && game % 2 == 0 {
                continue;
            }
            let scratch = n.evaluate(&b);
            assert_eq!(
                n.evaluate_incremental(&b, &mut stack, false),
                scratch,
                "{}",
                b.to_fen()
            );
            // The even value through the running sums is the shown E from the side to
            // move's view, exactly.
            let mut even_stack = NetStack::default();
            assert_eq!(
                n.evaluate_incremental(&b, &mut even_stack, true),
                n.evaluate_even(&b) * b.side_to_move().sign(),
                "{}",
                b.to_fen()
            );
            checked += 1;
            if !mode {
                continue;
            }
            // The search's E is the network's output less the side to move's trim, however
            // it is reached; the E shown (the breakdown's) is the network's view whoever is
            // to move. Both pass through what is known about the ending.
            let sign = b.side_to_move().sign();
            let known = |v: i32| known::adjust(&b, v, Scaling::All).map_or(v, |k| k.value);
            let e = known((scratch - NET_TEMPO) * sign) * sign;
            assert_eq!(evaluate(&b, &net_cfg()), e);
            assert_eq!(cache.evaluate(&b, &net_cfg()), e);
            let bd = explain(&b, &net_cfg());
            assert_eq!((bd.total, bd.search), (known(n.evaluate_even(&b)), Some(e)));
        }
    }
    assert!(checked > 5000, "only {checked} positions");
}

#[test]
fn a_moves_changes_are_the_difference_between_the_positions() {
    let mut rng = Rng(0x0C4A_96E5);
    let mut kinds = [false; 4]; // castle, en passant, promotion, capture seen
    for _ in 0..60 {
        let mut b = Board::startpos();
        for _ in 0..250 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            let special: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| m.is_castle() || m.is_en_passant() || m.promotion().is_some())
                .collect();
            let m = if !special.is_empty() && rng.below(2) == 0 {
                special[rng.below(special.len())]
            } else {
                moves.as_slice()[rng.below(moves.len())]
            };
            kinds[0] |= m.is_castle();
            kinds[1] |= m.is_en_passant();
            kinds[2] |= m.promotion().is_some();
            kinds[3] |= m.is_capture();
            let before = piece_set(&b);
            let hash = b.hash();
            b.make(m);
            let (h, changes) = b.move_changes(0).expect("a move was made");
            assert_eq!(h, hash);
            let mut set = before;
            for c in changes.iter() {
                let item = (c.color.index(), c.kind.index(), c.square.index64());
                if c.added {
                    set.push(item);
                } else {
                    let i = set
                        .iter()
                        .position(|&x| x == item)
                        .expect("taken off a piece that was there");
                    set.remove(i);
                }
            }
            set.sort_unstable();
            assert_eq!(set, piece_set(&b), "{m} in {}", b.to_fen());
        }
    }
    assert_eq!(kinds, [true; 4], "the walks met every kind of move");
    let mut b = Board::startpos();
    assert!(b.move_changes(0).is_none());
    b.make_null();
    assert_eq!(b.move_changes(0).map(|(_, c)| c.iter().count()), Some(0));
    assert!(b.move_changes(1).is_none());
}

#[test]
fn the_network_is_colour_symmetric_and_sees_material() {
    // The same position with colours swapped and ranks flipped, the other side to move.
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let mirrored = "rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4";
    let n = net::network();
    let a = Board::from_fen(fen).unwrap();
    let m = Board::from_fen(mirrored).unwrap();
    assert_eq!(n.evaluate(&a), n.evaluate(&m));
    let queen_up =
        Board::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    assert!(n.evaluate(&queen_up) > 500, "{}", n.evaluate(&queen_up));
}

/// `OX88_EVALFILE` naming a file that is not a network: the reason on standard error, and
/// the built-in network's E, never a panic.
#[test]
fn an_evalfile_that_does_not_load_is_reported_and_the_builtin_network_used() {
    let exe = env!("CARGO_BIN_EXE_ox88");
    let dir = std::env::temp_dir().join(format!("ox88-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.nnue");
    std::fs::write(&bad, b"not a network").unwrap();
    // Not a symmetric position: every network's shown E of one is 0.
    let italian = "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let run = |file: Option<&std::path::Path>| {
        let mut cmd = std::process::Command::new(exe);
        cmd.args(["eval", "--mode", "net", "--fen", italian]);
        cmd.env_remove("OX88_EVALFILE");
        if let Some(f) = file {
            cmd.env("OX88_EVALFILE", f);
        }
        let out = cmd.output().expect("ox88 runs");
        assert!(out.status.success(), "{out:?}");
        (
            String::from_utf8_lossy(&out.stdout)
                .lines()
                .last()
                .unwrap_or("")
                .to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (builtin, quiet) = run(None);
    assert_eq!(
        builtin,
        format!(
            "E: {}",
            ox88::engine::eval::settled_white(
                &Board::from_fen(italian).unwrap(),
                &ox88::engine::eval::EvalConfig::default()
            )
        )
    );
    assert!(quiet.is_empty(), "{quiet}");
    for file in [bad.clone(), dir.join("missing.nnue")] {
        let (e, err) = run(Some(&file));
        assert_eq!(e, builtin);
        assert!(
            err.contains("OX88_EVALFILE") && err.contains("built-in"),
            "{err}"
        );
    }
    let (e, err) = run(Some(&bad));
    assert!(err.contains("not an ox88 network file"), "{err}");
    assert_eq!(e, builtin);
    // A good file is used as it is.
    let good = dir.join("good.nnue");
    std::fs::write(&good, net::network().to_bytes()).unwrap();
    let (e, err) = run(Some(&good));
    assert_eq!((e, err.is_empty()), (builtin, true));
    std::fs::remove_dir_all(&dir).ok();
}

/// An untrained integer network: random weights from `seed`, `hidden` units, `buckets`
/// outputs and `kings` input buckets ([`KingLayout::standard`], or 1: none).
fn random_net(hidden: usize, buckets: usize, kings: usize, seed: u64) -> Network {
    FloatNet::fresh(&TrainSettings {
        hidden,
        buckets,
        kings,
        seed,
        ..TrainSettings::default()
    })
    .expect("a layout and bucket count that exist")
    .quantise()
}

/// A position's mirror image (a-file for h-file), for one without castling rights.
fn mirrored(b: &Board) -> Board {
    let fen = b.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    let ranks: Vec<String> = fields[0]
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    let ep: String = fields[3]
        .chars()
        .map(|c| match c {
            'a'..='h' => (b'h' - (c as u8 - b'a')) as char,
            c => c,
        })
        .collect();
    let fen = format!(
        "{} {} - {} {} {}",
        ranks.join("/"),
        fields[1],
        ep,
        fields[4],
        fields[5]
    );
    Board::from_fen(&fen).unwrap()
}

/// With the mirror, a position and its mirror image are the same to each side (its king on
/// the same half, its pieces seen from there), so any weights give them the same value; a
/// king on g1 and one on b1 share a bucket, and one on e1 sees the board mirrored.
#[test]
fn the_mirror_gives_a_position_and_its_mirror_image_the_same_value() {
    let n = random_net(24, 2, 8, 5);
    let plain = random_net(24, 1, 1, 5);
    let mut rng = Rng(0x3141_5926);
    let (mut same, mut differ) = (0, 0);
    for _ in 0..30 {
        let mut b =
            Board::from_fen("r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w - - 0 1")
                .unwrap();
        for _ in 0..40 {
            let moves = b.legal_moves();
            if moves.is_empty() {
                break;
            }
            b.make(moves.as_slice()[rng.below(moves.len())]);
            let m = mirrored(&b);
            assert_eq!(n.evaluate(&b), n.evaluate(&m), "{}", b.to_fen());
            same += 1;
            // Without the mirror the weights tell the two apart (the test can fail).
            differ += usize::from(plain.evaluate(&b) != plain.evaluate(&m));
        }
    }
    assert!(
        same > 500 && differ > same / 2,
        "{same} checked, {differ} told apart unmirrored"
    );
    let kings = KingLayout::standard(8).unwrap();
    let g1 = kings.view(Color::White, 6);
    let b1 = kings.view(Color::White, 1);
    let g8 = kings.view(Color::Black, 62);
    let e1 = kings.view(Color::White, 4);
    assert_eq!(g1.bucket(), b1.bucket());
    assert_eq!(g8.bucket(), g1.bucket());
    assert!(g1.is_mirrored() && g8.is_mirrored() && !b1.is_mirrored());
    assert!(e1.is_mirrored() && !kings.view(Color::White, 3).is_mirrored());
    assert_ne!(
        e1.bucket(),
        g1.bucket(),
        "a king in the centre is not a castled one"
    );
    // The file keeps the layout; a bad map, unknown flags or a layout that is no layout are
    // refused by name.
    let bytes = n.to_bytes();
    assert_eq!(&bytes[..8], b"OX88NET5");
    assert_eq!(Network::from_bytes(&bytes).unwrap(), n);
    let mut bad = bytes.clone();
    bad[20 + 6] = 40;
    assert_eq!(Network::from_bytes(&bad), Err(NetError::KingMap(40)));
    let mut bad = bytes.clone();
    bad[16..20].copy_from_slice(&4u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&bad), Err(NetError::Flags(4)));
    let mut none = bytes.clone();
    none[16..20].copy_from_slice(&0u32.to_le_bytes());
    none[20..84].fill(0);
    assert_eq!(Network::from_bytes(&none), Err(NetError::NoKings));
}

/// The `net` mode's shown E is the mean of the search's two views of the position, White to
/// move and Black to move, from White's view: the side to move's bonus and [`NET_TEMPO`]
/// cancel, so it is the same whoever is to move, and it is what `ox88 eval` prints.
#[test]
fn the_shown_e_is_the_mean_of_the_searchs_two_views() {
    let fens = [
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R",
        "rn1q1rk1/pp2bppp/4pn2/2p5/6b1/1P2PN2/PBP1BPPP/RN1Q1RK1",
        "3r2k1/5ppp/8/8/8/8/3RPPPP/6K1",
        "8/5pk1/6p1/8/8/6P1/5PKP/8",
    ];
    for placement in fens {
        let w = Board::from_fen(&format!("{placement} w - - 0 1")).unwrap();
        let b = Board::from_fen(&format!("{placement} b - - 0 1")).unwrap();
        let mean = (evaluate(&w, &net_cfg()) - evaluate(&b, &net_cfg())) / 2;
        for board in [&w, &b] {
            assert_eq!(net::network().evaluate_even(board), mean, "{placement}");
            assert_eq!(explain(board, &net_cfg()).total, mean, "{placement}");
        }
    }
}
