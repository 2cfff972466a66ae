//! `ox88 puzzles`: mine puzzles from games, print the shipped set, and check a puzzle file
//! (every row legal; with `--verify`, every solution still the only winning line on a fresh
//! engine).

use std::io::Write;

use anyhow::{Context, Result, bail};
use ox88::game::Game;
use ox88::game::pgn::split_games;
use ox88::puzzle::mine::{MineSettings, Miner};
use ox88::puzzle::{self, Puzzle, file};

use super::args::{
    PuzzlesArgs, PuzzlesCheckArgs, PuzzlesCommand, PuzzlesGamesArgs, PuzzlesMineArgs,
    PuzzlesRateArgs,
};

pub fn run(args: PuzzlesArgs) -> Result<()> {
    match args.command {
        PuzzlesCommand::Mine(a) => mine(a),
        PuzzlesCommand::Games(a) => games(a),
        PuzzlesCommand::Export => {
            let out = std::io::stdout().lock();
            file::write(out, &puzzle::shipped()).context("cannot write the puzzles")
        }
        PuzzlesCommand::Check(a) => check(a),
        PuzzlesCommand::Rate(a) => rate(a),
    }
}

fn mine(args: PuzzlesMineArgs) -> Result<()> {
    let settings = MineSettings {
        nodes: args.nodes,
        verify_factor: args.verify_factor,
        max_solver_moves: args.max_moves as usize,
        look_nodes: args.look,
        min_solver_moves: args.min_moves as usize,
        ..MineSettings::default()
    };
    // Read every file first: a bad file is reported before hours of mining.
    let mut sources = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        sources.push((path.clone(), text));
    }
    let out = output(args.out.as_deref())?;
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(file::HEADER)?;
    let mut miner = Miner::new(settings);
    let mut seen = std::collections::HashSet::new();
    let mut kept = 0usize;
    let mut unreadable = 0usize;
    for (path, text) in &sources {
        let games = split_games(text);
        for (n, (line, pgn)) in games.iter().enumerate() {
            let source = format!("{}#{}", path.display(), n + 1);
            let game = match Game::from_pgn(pgn) {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("{}:{line}: skipped, not a game: {e}", path.display());
                    unreadable += 1;
                    continue;
                }
            };
            let found = miner.mine_game(&game, &source);
            for p in found {
                if seen.insert(p.id.clone()) {
                    csv.write_record(file::record(&p))?;
                    kept += 1;
                }
            }
            csv.flush()?;
            eprintln!("{source}: {kept} puzzles so far");
        }
    }
    let s = miner.stats();
    let verified = s.found - s.short;
    let dropped = if verified > 0 {
        100.0 * s.dropped as f64 / verified as f64
    } else {
        0.0
    };
    let short = if s.short > 0 {
        format!(", {} shorter than --min-moves", s.short)
    } else {
        String::new()
    };
    eprintln!(
        "mined {kept} puzzles from {} games ({} positions, {} candidates, {} found{short}, {} \
         dropped at verification: {dropped:.1}%){}",
        s.games,
        s.positions,
        s.candidates,
        s.found,
        s.dropped,
        if unreadable > 0 {
            format!("; {unreadable} games could not be read")
        } else {
            String::new()
        }
    );
    Ok(())
}

/// Plays level games on `jobs` threads, each with its own engine, and appends each game to
/// the file as it ends (in the order they end; each is numbered by its `Round`).
fn games(args: PuzzlesGamesArgs) -> Result<()> {
    use ox88::puzzle::games::LevelGames;
    use std::sync::atomic::{AtomicU64, Ordering};
    let text = std::fs::read_to_string(&args.openings)
        .with_context(|| format!("cannot read {}", args.openings.display()))?;
    let mut openings = Vec::new();
    for (line, pgn) in split_games(&text) {
        let game = Game::from_pgn(pgn)
            .map_err(|e| anyhow::anyhow!("{}:{line}: {e}", args.openings.display()))?;
        openings.push(game);
    }
    if openings.is_empty() {
        bail!("{} holds no games to start from", args.openings.display());
    }
    for &elo in &args.elos {
        ox88::engine::levels::Level::elo(elo).map_err(|e| anyhow::anyhow!("--elos: {e}"))?;
    }
    let settings = LevelGames {
        elos: args.elos.clone(),
        max_plies: args.max_plies,
        seed: args.seed,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("cannot open {}", args.out.display()))?;
    let out = std::sync::Mutex::new((std::io::BufWriter::new(file), 0u64));
    let next = AtomicU64::new(args.first);
    let end = args.first + args.games;
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..args.jobs)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    let mut searcher = ox88::engine::search::Searcher::standalone();
                    loop {
                        let n = next.fetch_add(1, Ordering::Relaxed);
                        if n >= end {
                            return Ok(());
                        }
                        let opening = &openings[(n % openings.len() as u64) as usize];
                        let game = settings.play(&mut searcher, opening, n);
                        let mut guard = out.lock().expect("no writer panics holding it");
                        let (w, done) = &mut *guard;
                        writeln!(w, "{}", game.to_pgn())?;
                        w.flush()?;
                        *done += 1;
                        eprintln!(
                            "game {n}: {} {} in {} plies ({done}/{} games)",
                            game.tags.get("White").unwrap_or("?"),
                            game.final_result().map_or("*", |r| r.result()),
                            game.len(),
                            args.games
                        );
                    }
                })
            })
            .collect();
        for w in workers {
            w.join().expect("a game thread panicked")?;
        }
        Ok(())
    })
}

/// Where a command's CSV goes: the file at `path`, created before any work is done, or
/// standard output.
fn output(path: Option<&std::path::Path>) -> Result<Box<dyn Write>> {
    Ok(match path {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    })
}

/// The puzzles of `file` (the shipped set when `None`) and the name to report them by.
fn load(file: Option<&std::path::Path>) -> Result<(String, Vec<Puzzle>)> {
    Ok(match file {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let p = file::read(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            (path.display().to_string(), p)
        }
        None => ("the shipped set".to_string(), puzzle::shipped()),
    })
}

fn rate(args: PuzzlesRateArgs) -> Result<()> {
    let (name, mut puzzles) = load(args.file.as_deref())?;
    let out = output(args.out.as_deref())?;
    let ratings = on_threads(&puzzles, args.jobs as usize, 1, |miner, p| {
        if args.ladder {
            miner.ladder(p).ok()
        } else {
            miner.rate(p).ok()
        }
    });
    let mut unrated = 0;
    for (p, r) in puzzles.iter_mut().zip(ratings) {
        match r {
            Some(r) => p.rating = r,
            None => unrated += 1,
        }
    }
    file::write(out, &puzzles).context("cannot write the puzzles")?;
    eprintln!(
        "{name}: rated {} puzzles ({unrated} with illegal moves kept as they were)",
        puzzles.len() - unrated
    );
    Ok(())
}

fn check(args: PuzzlesCheckArgs) -> Result<()> {
    let (name, puzzles) = load(args.file.as_deref())?;
    let mut bad = 0;
    for p in &puzzles {
        if let Err(e) = p.check() {
            eprintln!("{e}");
            bad += 1;
        }
    }
    println!(
        "{name}: {} puzzles, {bad} with illegal moves",
        puzzles.len()
    );
    if let Some(nodes) = args.verify {
        let sample = sample(&puzzles, args.sample, args.seed);
        let failed = if args.strict {
            "not the only winning line"
        } else {
            "another move comes within 1.5 pawns"
        };
        let held = verify_all(&sample, nodes, args.jobs as usize, args.strict);
        for (p, &ok) in sample.iter().zip(&held) {
            if !ok {
                println!("{}: {failed} at {nodes} nodes", p.id);
            }
        }
        let unique = held.iter().filter(|&&ok| ok).count();
        println!(
            "verified {} at {nodes} nodes on a fresh engine: {unique} still unique ({:.1}%)",
            sample.len(),
            100.0 * unique as f64 / sample.len().max(1) as f64
        );
        match &args.keep {
            Some(path) => {
                let kept: std::collections::HashSet<&str> = sample
                    .iter()
                    .zip(&held)
                    .filter(|(_, ok)| **ok)
                    .map(|(p, _)| p.id.as_str())
                    .collect();
                let kept: Vec<Puzzle> = puzzles
                    .iter()
                    .filter(|p| kept.contains(p.id.as_str()))
                    .cloned()
                    .collect();
                let out = std::fs::File::create(path)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                file::write(out, &kept)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                println!("kept {} puzzles in {}", kept.len(), path.display());
            }
            None if unique < sample.len() => {
                bail!("{} puzzles are no longer unique", sample.len() - unique);
            }
            None => {}
        }
    }
    if bad > 0 {
        bail!("{bad} puzzles have illegal moves");
    }
    Ok(())
}

/// Whether each puzzle's solution is still unique at `nodes` per position (with `strict`,
/// still the only winning line by the miner's own test), each on a fresh engine. A puzzle
/// that does not parse does not hold.
fn verify_all(puzzles: &[Puzzle], nodes: u64, jobs: usize, strict: bool) -> Vec<bool> {
    on_threads(puzzles, jobs, nodes, |miner, p| {
        let judged = if strict {
            miner.verify_puzzle(p)
        } else {
            miner.still_unique(p)
        };
        matches!(judged, Ok(true))
    })
}

/// `work` applied to every puzzle, in the puzzles' order: `jobs` threads, each with its own
/// miner (searching `nodes` a position), take the puzzles in turn.
fn on_threads<T: Send + Default>(
    puzzles: &[Puzzle],
    jobs: usize,
    nodes: u64,
    work: impl Fn(&mut Miner, &Puzzle) -> T + Sync,
) -> Vec<T> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let results: Vec<Mutex<T>> = puzzles.iter().map(|_| Mutex::new(T::default())).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let mut miner = Miner::new(MineSettings {
                    nodes,
                    verify_factor: 1,
                    ..MineSettings::default()
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(p) = puzzles.get(i) else { return };
                    let value = work(&mut miner, p);
                    *results[i].lock().unwrap_or_else(|e| e.into_inner()) = value;
                }
            });
        }
    });
    results
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect()
}

/// Up to `n` puzzles picked evenly by a seeded shuffle (all of them when `n` is 0).
fn sample(puzzles: &[Puzzle], n: usize, seed: u64) -> Vec<Puzzle> {
    if n == 0 || n >= puzzles.len() {
        return puzzles.to_vec();
    }
    let mut order: Vec<usize> = (0..puzzles.len()).collect();
    let mut state = seed | 1;
    for i in (1..order.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        order.swap(i, (state % (i as u64 + 1)) as usize);
    }
    order[..n].iter().map(|&i| puzzles[i].clone()).collect()
}
