//! The network trainer (`ox88 nn-train`, issue 15): its data parser refuses bad lines with
//! the line and the reason and never panics; training is reproducible to the bit whatever
//! the number of threads; it learns (the held-out error falls); and the integer network it
//! writes gives what the floating-point one computed, and reads back to the same bits for
//! training to go on from it.

use ox88::chess::board::Board;
use ox88::engine::eval::net::{Activation, Network};
use ox88::tune::nn::{self, FloatNet, TrainSettings};
use proptest::prelude::*;

const SAMPLE: &str = include_str!("../data/nn_sample.txt");

fn settings(threads: usize, activation: Activation) -> TrainSettings {
    TrainSettings {
        hidden: 16,
        buckets: 1,
        kings: 1,
        activation,
        epochs: 4,
        batch: 256,
        lr: 0.005,
        seed: 7,
        threads,
    }
}

/// `nn::train` with settings every test keeps within the limits.
fn fit(
    samples: &[nn::Sample],
    cfg: &TrainSettings,
    report: impl FnMut(usize, f64, &FloatNet),
) -> FloatNet {
    nn::train(samples, cfg, report).expect("the settings are within the limits")
}

/// How far apart, in centipawns on average, the integer network's E and the float one's
/// output are over the data lines `lines`.
fn mean_gap<'a>(float: &FloatNet, int: &Network, lines: impl Iterator<Item = &'a str>) -> f32 {
    let (mut total, mut n) = (0.0f32, 0);
    for line in lines {
        let board = Board::from_fen(line.rsplit_once(';').unwrap().0).unwrap();
        let sample = nn::parse(line, None).unwrap().remove(0);
        let want = float.output(&sample) * ox88::engine::eval::net::SCALE as f32;
        total += (int.evaluate(&board) as f32 - want).abs();
        n += 1;
    }
    total / n.max(1) as f32
}

fn split() -> (Vec<nn::Sample>, Vec<nn::Sample>) {
    let all = nn::parse(SAMPLE, None).expect("the sample parses");
    assert_eq!(all.len(), SAMPLE.lines().count());
    let (train, valid) = all.split_at(all.len() * 4 / 5);
    (train.to_vec(), valid.to_vec())
}

#[test]
fn bad_lines_are_refused_with_their_line_number() {
    let good = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1;-30";
    assert_eq!(nn::parse(good, None).unwrap().len(), 1);
    let text = format!("# a comment\n\n{good}\n{good};x\n");
    let e = nn::parse(&text, None).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.why.contains("whole number"), "{}", e.why);
    let e = nn::parse("no score here", None).unwrap_err();
    assert_eq!(e.line, 1);
    let e = nn::parse("8/8/8/8/8/8/8/8 w - - 0 1;5", None).unwrap_err();
    assert_eq!(e.line, 1);
}

proptest! {
    #[test]
    fn the_parser_never_panics(text in "[ -~\n;]{0,300}") {
        let _ = nn::parse(&text, None);
    }

    #[test]
    fn mangled_sample_lines_never_panic(cut in 0usize..80, insert in "[ -~]{0,6}") {
        let line = SAMPLE.lines().next().unwrap();
        let at = cut.min(line.len());
        let mangled = format!("{}{}{}", &line[..at], insert, &line[at..]);
        // A line that now starts with `#` is a comment: read, and no position.
        let comment = mangled.trim_start().starts_with('#');
        match nn::parse(&mangled, None) {
            Ok(v) => prop_assert_eq!(v.len(), usize::from(!comment)),
            Err(e) => prop_assert_eq!(e.line, 1),
        }
    }
}

#[test]
fn training_is_the_same_bits_for_one_thread_or_three() {
    for act in [Activation::Crelu, Activation::Screlu] {
        let (train, _) = split();
        let one = fit(&train, &settings(1, act), |_, _, _| {});
        let three = fit(&train, &settings(3, act), |_, _, _| {});
        assert_eq!(one.quantise().to_bytes(), three.quantise().to_bytes());
        let again = fit(&train, &settings(1, act), |_, _, _| {});
        assert_eq!(one.ft_w, again.ft_w);
    }
}

#[test]
fn training_lowers_the_error_on_positions_it_never_saw() {
    for act in [Activation::Crelu, Activation::Screlu] {
        let (train, valid) = split();
        let untrained = FloatNet::new(16, act, 7).error(&valid);
        let mut errors = Vec::new();
        let net = fit(&train, &settings(2, act), |_, e, _| errors.push(e));
        let trained = net.error(&valid);
        assert!(
            trained < untrained * 0.8,
            "{act:?}: held-out error {trained} after training, {untrained} before"
        );
        assert!(errors.last() < errors.first(), "training error {errors:?}");
    }
}

#[test]
fn the_integer_network_gives_what_the_float_one_computed() {
    for act in [Activation::Crelu, Activation::Screlu] {
        let (train, _) = split();
        let float = fit(&train, &settings(2, act), |_, _, _| {});
        let int = float.quantise();
        let (mut worst, mut total, mut n) = (0.0f32, 0.0f32, 0);
        for line in SAMPLE.lines().take(300) {
            let (fen, _) = line.rsplit_once(';').unwrap();
            let board = Board::from_fen(fen).unwrap();
            let sample = nn::parse(line, None).unwrap().remove(0);
            let want = float.output(&sample) * ox88::engine::eval::net::SCALE as f32;
            let diff = (int.evaluate(&board) as f32 - want).abs();
            worst = worst.max(diff);
            total += diff;
            n += 1;
        }
        // Rounding the output weights to 1/64 moves E by a few centipawns at most.
        let mean = total / n as f32;
        assert!(
            mean <= 4.0 && worst <= 20.0,
            "{act:?}: integer and float differ by {mean:.1} cp on average, {worst:.1} at most"
        );
    }
}

#[test]
fn a_network_read_back_for_training_gives_the_same_bits() {
    for act in [Activation::Crelu, Activation::Screlu] {
        let (train, _) = split();
        let int = fit(&train, &settings(2, act), |_, _, _| {}).quantise();
        let back = FloatNet::from_network(&int);
        assert_eq!(back.activation, act);
        assert_eq!(back.quantise().to_bytes(), int.to_bytes());
        // And it predicts what the integer network evaluates, so training goes on from it.
        for line in SAMPLE.lines().skip(train.len()).take(50) {
            let board = Board::from_fen(line.rsplit_once(';').unwrap().0).unwrap();
            let sample = nn::parse(line, None).unwrap().remove(0);
            let want = back.output(&sample) * ox88::engine::eval::net::SCALE as f32;
            assert!((int.evaluate(&board) as f32 - want).abs() <= 20.0, "{line}");
        }
    }
}

#[test]
fn training_on_from_a_network_keeps_what_it_learned_from_other_positions() {
    // Two halves of the training positions, as two sessions' data: a network trained on the
    // first and then on the second does better on held-out positions than one trained on the
    // second alone, though the first half is not given to the second fit.
    let (train, valid) = split();
    let (first, second) = train.split_at(train.len() / 2);
    let cfg = settings(2, Activation::Crelu);
    let earlier = fit(first, &cfg, |_, _, _| {}).quantise();
    let on = nn::train_from(FloatNet::from_network(&earlier), second, &cfg, |_, _, _| {});
    let alone = fit(second, &cfg, |_, _, _| {});
    let (on, alone) = (on.error(&valid), alone.error(&valid));
    assert!(
        on < alone,
        "held-out error {on} trained on, {alone} from scratch"
    );
}

#[test]
fn a_widened_network_computes_what_it_did_and_then_learns_more() {
    let (train, valid) = split();
    let (first, second) = train.split_at(train.len() / 2);
    let cfg = settings(2, Activation::Crelu);
    let narrow = fit(first, &cfg, |_, _, _| {});
    assert!(narrow.widen(16, 3).is_none(), "not wider than it is");
    assert!(narrow.widen(8, 3).is_none(), "never narrower");
    let wide = narrow.widen(40, 3).expect("wider");
    assert_eq!(wide.hidden, 40);
    // The new units have no say yet: the same outputs, and the same integer evaluations.
    for s in &valid {
        assert_eq!(wide.output(s), narrow.output(s));
    }
    let (ni, wi) = (narrow.quantise(), wide.quantise());
    for line in SAMPLE.lines().take(200) {
        let board = Board::from_fen(line.rsplit_once(';').unwrap().0).unwrap();
        assert_eq!(wi.evaluate(&board), ni.evaluate(&board), "{line}");
    }
    // Trained on, the new units take part: their output weights move off 0.
    let trained = nn::train_from(wide, second, &cfg, |_, _, _| {});
    let new_units = |half: usize| &trained.out_w[half * 40 + 16..(half + 1) * 40];
    assert!(new_units(0).iter().chain(new_units(1)).any(|&w| w != 0.0));
}

#[test]
fn output_buckets_start_as_copies_and_learn_apart() {
    let (train, valid) = split();
    let (first, second) = train.split_at(train.len() / 2);
    let cfg = settings(2, Activation::Crelu);
    let one = fit(first, &cfg, |_, _, _| {});
    assert!(one.with_buckets(1).is_none() && one.with_buckets(33).is_none());
    let four = one.with_buckets(4).expect("from one output");
    assert!(
        four.with_buckets(8).is_none(),
        "only a network of one output"
    );
    for s in &valid {
        assert_eq!(four.output(s), one.output(s));
    }
    let trained = nn::train_from(four, second, &cfg, |_, _, _| {});
    let h2 = 2 * trained.hidden;
    let layers: Vec<&[f32]> = trained.out_w.chunks(h2).collect();
    assert_eq!(layers.len(), 4);
    assert!(
        layers.iter().any(|l| *l != layers[0]),
        "the buckets moved apart"
    );
    // The integer network reads each position through its own bucket, as the float one does.
    let int = trained.quantise();
    assert_eq!(int.buckets, 4);
    assert_eq!(Network::from_bytes(&int.to_bytes()).unwrap(), int);
    let gap = mean_gap(&trained, &int, SAMPLE.lines().skip(train.len()));
    assert!(gap <= 4.0, "{gap} cp apart on average");
    // From scratch, the settings' buckets are used.
    let fresh = fit(
        second,
        &TrainSettings {
            buckets: 3,
            epochs: 1,
            ..cfg
        },
        |_, _, _| {},
    );
    assert_eq!(
        (fresh.buckets, fresh.out_w.len(), fresh.out_b.len()),
        (3, 3 * 32, 3)
    );
    // More buckets than the file format holds: refused, not quietly one output.
    let too_many = TrainSettings {
        buckets: ox88::engine::eval::net::MAX_BUCKETS + 1,
        ..cfg
    };
    assert!(FloatNet::fresh(&too_many).is_none());
    assert!(nn::train(second, &too_many, |_, _, _| {}).is_none());
    let most = TrainSettings {
        buckets: ox88::engine::eval::net::MAX_BUCKETS,
        ..cfg
    };
    assert_eq!(
        FloatNet::fresh(&most).map(|n| n.buckets),
        Some(ox88::engine::eval::net::MAX_BUCKETS)
    );
}

/// A scratch directory for a test of the command (`tag` tells the tests apart) holding
/// `data.txt`, the sample's first `lines` lines; returns the directory and that file.
fn data_dir(tag: &str, lines: usize) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("ox88-nn-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    let text = SAMPLE.lines().take(lines).collect::<Vec<_>>().join("\n");
    std::fs::write(&data, text).unwrap();
    (dir, data)
}

#[test]
fn the_command_trains_king_buckets_and_refuses_a_count_it_has_no_layout_for() {
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_ox88");
    let (dir, data) = data_dir("kings", 200);
    let out = dir.join("out.bin");
    let run = |kings: &str| {
        Command::new(exe)
            .arg("nn-train")
            .arg(&data)
            .args([
                "--hidden",
                "8",
                "--epochs",
                "1",
                "--king-buckets",
                kings,
                "--out",
            ])
            .arg(&out)
            .env("RUST_BACKTRACE", "0")
            .output()
            .unwrap()
    };
    let r = run("4");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let net = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(
        net.kings,
        ox88::engine::eval::net::KingLayout::standard(4).unwrap()
    );
    assert_eq!(net.ft_w.len(), 4 * 768 * 8);
    let written = std::fs::read(&out).unwrap();
    // A count without a layout is refused by name, and the output is left alone.
    let r = run("3");
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("not 1, 2, 4 or 8"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), written);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_command_trains_on_from_a_network_file_and_refuses_one_that_is_not() {
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_ox88");
    let (dir, data) = data_dir("init", 400);
    let start = dir.join("start.bin");
    let out = dir.join("out.bin");
    let (train, _) = split();
    let net = fit(&train, &settings(1, Activation::Screlu), |_, _, _| {}).quantise();
    std::fs::write(&start, net.to_bytes()).unwrap();
    let run = |init: &std::path::Path, epochs: &str| {
        Command::new(exe)
            .arg("nn-train")
            .arg(&data)
            .arg("--init")
            .arg(init)
            .args(["--epochs", epochs, "--out"])
            .arg(&out)
            .env("RUST_BACKTRACE", "0")
            .output()
            .unwrap()
    };
    // No epochs: the starting network is written as it was.
    let r = run(&start, "0");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), net.to_bytes());
    // One epoch: a network of the same shape and activation, moved by the training.
    let r = run(&start, "1");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let trained = std::fs::read(&out).unwrap();
    let back = Network::from_bytes(&trained).unwrap();
    assert_eq!((back.hidden, back.activation), (16, Activation::Screlu));
    assert_ne!(trained, net.to_bytes());
    // A file that is not a network is refused by name, and the output is left alone.
    let r = run(&data, "1");
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("not an ox88 network file"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), trained);
    let with_hidden = |hidden: &str| {
        Command::new(exe)
            .arg("nn-train")
            .arg(&data)
            .arg("--init")
            .arg(&start)
            .args(["--epochs", "0", "--hidden", hidden, "--out"])
            .arg(&out)
            .output()
            .unwrap()
    };
    // Fewer units than the starting network has is refused before any work.
    let r = with_hidden("8");
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("not narrowed"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), trained);
    // More widens it: 24 units that evaluate every position as the 16 did.
    let r = with_hidden("24");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let wide = Network::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!((wide.hidden, wide.activation), (24, Activation::Screlu));
    for line in SAMPLE.lines().take(100) {
        let board = Board::from_fen(line.rsplit_once(';').unwrap().0).unwrap();
        assert_eq!(wide.evaluate(&board), net.evaluate(&board), "{line}");
    }
    // Buckets: each a copy of the one output, so again the same evaluations.
    let with_buckets = |init: &std::path::Path, buckets: &str| {
        Command::new(exe)
            .arg("nn-train")
            .arg(&data)
            .arg("--init")
            .arg(init)
            .args(["--epochs", "0", "--buckets", buckets, "--out"])
            .arg(&out)
            .output()
            .unwrap()
    };
    let r = with_buckets(&start, "4");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let bucketed = std::fs::read(&out).unwrap();
    let four = Network::from_bytes(&bucketed).unwrap();
    assert_eq!((four.hidden, four.buckets), (16, 4));
    for line in SAMPLE.lines().take(100) {
        let board = Board::from_fen(line.rsplit_once(';').unwrap().0).unwrap();
        assert_eq!(four.evaluate(&board), net.evaluate(&board), "{line}");
    }
    // A network that has buckets is not given others; the output is left alone.
    let four_file = dir.join("four.bin");
    std::fs::write(&four_file, &bucketed).unwrap();
    let r = with_buckets(&four_file, "2");
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(err.contains("has 4 output buckets already"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), bucketed);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn king_buckets_learn_and_the_integer_network_reads_each_kings_view() {
    let (train, valid) = split();
    let cfg = TrainSettings {
        kings: 4,
        buckets: 2,
        ..settings(2, Activation::Crelu)
    };
    let untrained = FloatNet::fresh(&cfg).expect("four king buckets exist");
    assert_eq!(untrained.ft_w.len(), 4 * 768 * 16);
    let before = untrained.error(&valid);
    let float = fit(&train, &cfg, |_, _, _| {});
    let after = float.error(&valid);
    assert!(
        after < before * 0.8,
        "held-out error {after} after training, {before} before"
    );
    // The integer network reads each side's pieces through its own king's bucket, as the
    // float one does, and its file says so.
    let int = float.quantise();
    assert_eq!(int.kings.buckets(), 4);
    let bytes = int.to_bytes();
    assert_eq!(&bytes[..8], b"OX88NET5");
    assert_eq!(Network::from_bytes(&bytes).unwrap(), int);
    let gap = mean_gap(&float, &int, SAMPLE.lines().take(300));
    assert!(gap <= 4.0, "{gap} cp apart on average");
    // Read back for training, the same bits; a count with no layout is refused.
    assert_eq!(FloatNet::from_network(&int).quantise(), int);
    for kings in [3, 5, 16] {
        assert!(
            FloatNet::fresh(&TrainSettings { kings, ..cfg }).is_none(),
            "{kings}"
        );
    }
}
