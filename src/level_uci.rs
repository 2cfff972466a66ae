//! `ox88 level-uci`: a small UCI engine that plays at a level, for calibration matches
//! (scripts/levels_match.py) until the main UCI front end gets `UCI_LimitStrength` and
//! `UCI_Elo`. It understands uci, isready, ucinewgame, setoption (UCI_LimitStrength,
//! UCI_Elo), position, go (clock, movetime, depth, nodes) and quit; `go` answers
//! synchronously after the level's think time, which respects the clock.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::Result;
use ox88::chess::Board;
use ox88::engine::levels::{self, Level, MAX_ELO, MIN_ELO, Rng};
use ox88::engine::search::Searcher;
use ox88::engine::{Limits, SearchOptions};

/// Runs the loop on standard input and output until `quit` or end of input.
pub fn run(level: Level, seed: u64) -> Result<()> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut state = State {
        level,
        limit_strength: level != Level::Max,
        elo: match level {
            Level::Elo(e) => e,
            Level::Max => MAX_ELO,
        },
        board: Board::startpos(),
        searcher: Searcher::standalone(),
        rng: Rng::new(seed),
    };
    for line in stdin.lock().lines() {
        let line = line?;
        if !state.handle(line.trim(), &mut out)? {
            break;
        }
        out.flush()?;
    }
    Ok(())
}

struct State {
    level: Level,
    limit_strength: bool,
    elo: u32,
    board: Board,
    searcher: Searcher,
    rng: Rng,
}

impl State {
    fn handle(&mut self, line: &str, out: &mut impl Write) -> Result<bool> {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("uci") => {
                writeln!(
                    out,
                    "id name ox88 {} level {}",
                    env!("CARGO_PKG_VERSION"),
                    self.level
                )?;
                writeln!(out, "id author the ox88 authors")?;
                writeln!(
                    out,
                    "option name UCI_LimitStrength type check default {}",
                    self.limit_strength
                )?;
                writeln!(
                    out,
                    "option name UCI_Elo type spin default {} min {MIN_ELO} max {MAX_ELO}",
                    self.elo
                )?;
                writeln!(out, "uciok")?;
            }
            Some("isready") => writeln!(out, "readyok")?,
            Some("ucinewgame") => self.searcher.new_game(),
            Some("setoption") => self.setoption(line, out)?,
            Some("position") => {
                if let Err(e) = self.position(line) {
                    writeln!(out, "info string {e}; position unchanged")?;
                }
            }
            Some("go") => self.go(line, out)?,
            Some("quit") => return Ok(false),
            Some(other) => writeln!(out, "info string unknown command '{other}'")?,
            None => {}
        }
        Ok(true)
    }

    fn setoption(&mut self, line: &str, out: &mut impl Write) -> Result<()> {
        let rest = line.strip_prefix("setoption").unwrap_or("").trim();
        let rest = rest.strip_prefix("name").unwrap_or(rest).trim();
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest, ""),
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_limitstrength" => self.limit_strength = value.eq_ignore_ascii_case("true"),
            "uci_elo" => match value.parse::<u32>().ok().map(Level::elo) {
                Some(Ok(Level::Elo(e))) => self.elo = e,
                _ => writeln!(
                    out,
                    "info string UCI_Elo '{value}' is not a number from {MIN_ELO} to {MAX_ELO}; kept {}",
                    self.elo
                )?,
            },
            _ => writeln!(out, "info string no option '{name}'")?,
        }
        self.level = if self.limit_strength {
            Level::Elo(self.elo)
        } else {
            Level::Max
        };
        Ok(())
    }

    fn position(&mut self, line: &str) -> Result<(), String> {
        let rest = line.strip_prefix("position").unwrap_or("").trim();
        let (setup, moves) = match rest.split_once("moves") {
            Some((s, m)) => (s.trim(), m),
            None => (rest, ""),
        };
        let mut board = if setup == "startpos" {
            Board::startpos()
        } else if let Some(fen) = setup.strip_prefix("fen") {
            Board::from_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?
        } else {
            return Err(format!("expected startpos or fen, got '{setup}'"));
        };
        for m in moves.split_whitespace() {
            let mv = board
                .parse_uci_move(m)
                .map_err(|e| format!("move {m}: {e}"))?;
            board.make(mv);
        }
        self.board = board;
        Ok(())
    }

    fn go(&mut self, line: &str, out: &mut impl Write) -> Result<()> {
        let limits = parse_go(line);
        let started = Instant::now();
        let r = levels::think(
            &mut self.searcher,
            &self.board,
            self.level,
            &limits,
            &SearchOptions::default(),
            &mut self.rng,
        );
        if let Some(c) = &r.choice {
            let w = &c.weighed[c.index];
            writeln!(
                out,
                "info depth {} nodes {} score cp {} pv {} string level {} picked {} of {} candidates ({:.0}%)",
                r.depth.max(1),
                r.nodes,
                w.value_cp,
                c.mv,
                r.level,
                c.index + 1,
                r.candidates.len(),
                w.probability * 100.0
            )?;
        }
        // Wait out the level's think time, leaving room for the pipe.
        let wait = r
            .think
            .saturating_sub(started.elapsed() + Duration::from_millis(20));
        std::thread::sleep(wait);
        let best = r.best().map(|m| m.to_string());
        writeln!(out, "bestmove {}", best.as_deref().unwrap_or("0000"))?;
        Ok(())
    }
}

fn parse_go(line: &str) -> Limits {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut limits = Limits::default();
    let ms = |s: &str| {
        s.parse::<i64>()
            .ok()
            .map(|v| Duration::from_millis(v.max(0) as u64))
    };
    for pair in words.windows(2) {
        match pair[0] {
            "wtime" => limits.wtime = ms(pair[1]),
            "btime" => limits.btime = ms(pair[1]),
            "winc" => limits.winc = ms(pair[1]),
            "binc" => limits.binc = ms(pair[1]),
            "movetime" => limits.movetime = ms(pair[1]),
            "movestogo" => limits.movestogo = pair[1].parse().ok(),
            "depth" => limits.depth = pair[1].parse().ok(),
            "nodes" => limits.nodes = pair[1].parse().ok(),
            _ => {}
        }
    }
    limits
}
