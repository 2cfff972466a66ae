//! UCI front end: the text protocol chess GUIs and match runners speak, over any reader and
//! writer (stdin/stdout in `run`). It only connects `engine::Engine` to text: commands become
//! `Engine::go`/`stop`/`ponderhit`, and the engine's `SearchEvent`s become `info` and
//! `bestmove` lines, written from the search thread through one shared, line-flushed writer.
//!
//! Bad input never stops the engine: every malformed line is answered with
//! `info string error: …` and the previous state is kept whole.

mod command;
mod options;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::chess::{Board, Move, Square};
use crate::chess::{Color, perft};
use crate::engine::bench;
use crate::engine::eval;
use crate::engine::{Bound, Engine, IterationInfo, Score, SearchEvent};

use command::{Command, GoCommand, Parsed, PositionBase, parse_line};
use options::{Effect, Settings, UciOption, declared as declared_options};

/// Input lines longer than this are refused whole (and never held in memory). A game of a
/// thousand moves in `position startpos moves …` is about 5 KB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// `currmove` lines start after this much search time: a GUI needs them only for long
/// thinks, and early ones would flood the pipe (the common engines' habit).
const CURRMOVE_AFTER: Duration = Duration::from_secs(1);

/// Runs the protocol on standard input and output until `quit` or end of input.
pub fn run() -> anyhow::Result<()> {
    run_with(io::stdin().lock(), io::stdout())
}

/// Runs the protocol on `input` and `output` until `quit` or end of input. At end of input a
/// running search is stopped and answered before returning `Ok`.
pub fn run_with(
    mut input: impl BufRead,
    output: impl Write + Send + 'static,
) -> anyhow::Result<()> {
    let shared = Arc::new(Shared {
        out: Mutex::new(Box::new(output)),
        broken: AtomicBool::new(false),
        search: Mutex::new(SearchState::default()),
    });
    let engine = {
        let shared = Arc::clone(&shared);
        Engine::new(move |event| shared.on_event(event))
    };
    let mut session = Session {
        shared,
        engine,
        board: Board::startpos(),
        settings: Settings::default(),
        debug: false,
    };
    let mut buf = Vec::new();
    let result = loop {
        match read_line_bounded(&mut input, &mut buf, MAX_LINE_BYTES) {
            Ok(LineRead::Eof) => break Ok(()),
            Ok(LineRead::TooLong(n)) => session.error(&format!(
                "line too long ({n} bytes; at most {MAX_LINE_BYTES}); ignored"
            )),
            Ok(LineRead::Line) => {
                let line = String::from_utf8_lossy(&buf);
                if session.handle_line(&line) == Flow::Quit {
                    break Ok(());
                }
            }
            Err(e) => break Err(anyhow::Error::new(e).context("reading UCI input")),
        }
        // The GUI is gone (its end of our output is closed): nobody is left to answer.
        if session.shared.broken.load(Ordering::SeqCst) {
            break Ok(());
        }
    };
    session.end_search();
    result
}

/// What reading one line gave.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// `buf` holds the line, without its line ending.
    Line,
    /// The line had at least this many bytes; it was skipped up to its end.
    TooLong(usize),
    Eof,
}

/// Reads one line into `buf`, keeping at most `max` bytes in memory: a longer line is read to
/// its end and dropped. A last line without a newline still counts.
fn read_line_bounded(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    buf.clear();
    let mut total = 0usize;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        total = total.saturating_add(part.len());
        if total <= max {
            buf.extend_from_slice(part);
        }
        let used = done.unwrap_or(part.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !any {
        return Ok(LineRead::Eof);
    }
    if total > max {
        buf.clear();
        return Ok(LineRead::TooLong(total));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(LineRead::Line)
}

/// What the search thread and the input loop share.
struct Shared {
    out: Mutex<Box<dyn Write + Send>>,
    /// Set when writing failed: the reader of our output is gone.
    broken: AtomicBool,
    search: Mutex<SearchState>,
}

/// The protocol's view of the current `go`.
#[derive(Default)]
struct SearchState {
    /// A `go` was sent and its `bestmove` is not printed yet.
    pending: bool,
    /// `go infinite` or `go ponder`: the UCI page forbids `bestmove` before `stop` (or
    /// `ponderhit`), even when the search ends by itself (a mate found, the depth cap).
    hold: bool,
    /// The search is a `go ponder` not yet turned into a normal one by `ponderhit`.
    pondering: bool,
    /// The answer of a search that ended while `hold` was set, waiting to be printed.
    held: Vec<String>,
    started: Option<Instant>,
}

/// Locks a mutex even if a thread panicked while holding it: the data here (a writer, a few
/// flags) stays usable, and the protocol must keep answering.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Shared {
    fn write_lines(&self, lines: &[String]) {
        let mut out = lock(&self.out);
        for line in lines {
            // One flush per line: GUIs read line by line and wait for `bestmove`.
            let ok = writeln!(out, "{line}").and_then(|()| out.flush());
            if ok.is_err() {
                self.broken.store(true, Ordering::SeqCst);
                return;
            }
        }
    }

    fn write(&self, line: impl Into<String>) {
        self.write_lines(&[line.into()]);
    }

    /// Called on the search thread for every event.
    fn on_event(&self, event: SearchEvent) {
        match event {
            SearchEvent::Iteration { info, .. } => {
                // Root rows come only with `UCI_ShowRefutations` on.
                let mut lines = vec![format_iteration(&info)];
                lines.extend(format_refutations(&info));
                self.write_lines(&lines);
            }
            SearchEvent::CurrentMove {
                depth, mv, number, ..
            } => {
                let late = lock(&self.search)
                    .started
                    .is_some_and(|t| t.elapsed() >= CURRMOVE_AFTER);
                if late {
                    self.write(format!(
                        "info depth {depth} currmove {mv} currmovenumber {number}"
                    ));
                }
            }
            SearchEvent::Message { text, .. } => self.write(info_string(&text)),
            SearchEvent::LevelReport { report, .. } => {
                let lines: Vec<String> = report.lines().iter().map(|l| info_string(l)).collect();
                self.write_lines(&lines);
            }
            // UCI never asks for the tree (`record_tree` stays `None`).
            SearchEvent::Tree { .. } => {}
            // The final rows come with the iteration (`UCI_ShowRefutations`).
            SearchEvent::RootMoves { .. } => {}
            SearchEvent::BestMove {
                best, ponder, book, ..
            } => {
                let mut lines = Vec::new();
                if let Some(name) = book {
                    lines.push(info_string(&format!("book: {name}")));
                }
                lines.push(format_bestmove(best, ponder));
                // Decide and print under the state lock, so `stop` cannot slip between.
                let mut state = lock(&self.search);
                if state.hold {
                    state.held = lines;
                } else {
                    state.pending = false;
                    self.write_lines(&lines);
                }
            }
        }
    }

    /// Lifts the hold of `go infinite`/`go ponder`: a held answer is printed now, a later one
    /// as soon as it comes.
    fn release(&self) {
        let mut state = lock(&self.search);
        state.hold = false;
        state.pondering = false;
        if !state.held.is_empty() {
            let lines = std::mem::take(&mut state.held);
            state.pending = false;
            self.write_lines(&lines);
        }
    }
}

/// `info string …` on one line whatever the text holds (a newline would break the protocol).
fn info_string(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    format!("info string {flat}")
}

fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// `info refutation <move> <reply>` for each root move the iteration refuted, and
/// `info refutation <best> <its PV…>` for the best move (the UCI page: "move <move1> is
/// refuted by the line <move2> …"); nothing unless the iteration carries root rows.
pub fn format_refutations(info: &IterationInfo) -> Vec<String> {
    info.root_rows
        .iter()
        .filter_map(|r| {
            let line: Vec<String> = if r.best && info.pv.first() == Some(&r.mv()) {
                info.pv.iter().map(ToString::to_string).collect()
            } else {
                vec![r.mv().to_string(), r.refutation?.to_string()]
            };
            Some(format!("info refutation {}", line.join(" ")))
        })
        .collect()
}

/// `info depth … seldepth … multipv … score … nodes … nps … hashfull … [tbhits …] time … pv …`
pub fn format_iteration(info: &IterationInfo) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        format_score(info.score)
    );
    match info.bound {
        Bound::Exact => {}
        Bound::Lower => s.push_str(" lowerbound"),
        Bound::Upper => s.push_str(" upperbound"),
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {}",
        info.nodes, info.nps, info.hashfull
    ));
    // Only a search with tables can hit them; without, the line stays as it was.
    if info.stats.tb_hits > 0 {
        s.push_str(&format!(" tbhits {}", info.stats.tb_hits));
    }
    s.push_str(&format!(" time {}", info.time.as_millis()));
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push_str(&format!(" {m}"));
        }
    }
    s
}

/// `bestmove m [ponder p]`; `bestmove 0000` when there is no legal move (the UCI null move).
pub fn format_bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (Some(b), Some(p)) if !b.is_none() && !p.is_none() => format!("bestmove {b} ponder {p}"),
        (Some(b), _) if !b.is_none() => format!("bestmove {b}"),
        _ => "bestmove 0000".to_string(),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The input side: the position, the options, and the engine.
struct Session {
    shared: Arc<Shared>,
    engine: Engine,
    board: Board,
    settings: Settings,
    debug: bool,
}

impl Session {
    fn write(&self, line: impl Into<String>) {
        self.shared.write(line);
    }

    fn error(&self, what: &str) {
        self.write(info_string(&format!("error: {what}")));
    }

    fn search_pending(&self) -> bool {
        lock(&self.shared.search).pending
    }

    /// Stops any search and waits until its `bestmove` is out: what `go` does to a running
    /// search before starting the next, and what end of input does before exiting.
    fn end_search(&self) {
        self.shared.release();
        self.engine.stop();
        self.engine.wait_idle();
    }

    fn handle_line(&mut self, line: &str) -> Flow {
        let Parsed { unknown, command } = parse_line(line);
        if !unknown.is_empty() {
            let words = unknown.join(" ");
            if command.is_some() {
                self.error(&format!("unknown command '{words}' skipped"));
            } else {
                self.error(&format!("unknown command '{words}'"));
            }
        }
        match command {
            None => Flow::Continue,
            Some(Err(e)) => {
                self.error(&e);
                Flow::Continue
            }
            Some(Ok(cmd)) => self.execute(cmd),
        }
    }

    fn execute(&mut self, cmd: Command) -> Flow {
        match cmd {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.write("readyok"),
            Command::Register => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.end_search();
                self.engine.new_game();
                self.board = Board::startpos();
            }
            Command::Position { base, moves } => self.position(&base, &moves),
            Command::Go(go) => self.go(go),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => {
                if self.search_pending() {
                    self.shared.release();
                    self.engine.stop();
                } else {
                    self.error("stop: no search is running");
                }
            }
            Command::PonderHit => {
                if lock(&self.shared.search).pondering {
                    self.engine.ponderhit();
                    self.shared.release();
                } else {
                    self.error("ponderhit: not pondering");
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Display => self.display(),
            Command::Eval => self.eval(),
            Command::Bench(depth) => {
                self.end_search();
                let (scheme, profile) = (self.settings.search.scheme, self.settings.search.profile);
                bench::report(depth, scheme, profile, |line| self.write(line));
            }
        }
        Flow::Continue
    }

    fn uci(&self) {
        let mut lines = vec![
            format!("id name ox88 {}", env!("CARGO_PKG_VERSION")),
            "id author the ox88 developers".to_string(),
        ];
        lines.extend(declared_options().iter().map(UciOption::declaration));
        lines.push("uciok".to_string());
        self.shared.write_lines(&lines);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        // The UCI page allows `setoption` only while the engine waits; changing the hash or
        // the evaluation under a running search would make its answer meaningless.
        if self.search_pending() {
            self.error("setoption: not while searching (send 'stop' first)");
            return;
        }
        match self.settings.apply(name, value) {
            Ok(Effect::ClearHash) => self.engine.new_game(),
            Ok(Effect::None) => {}
            Err(e) => self.error(&e),
        }
    }

    /// Builds the new position on the side and replaces the current one only when every
    /// move was legal: a GUI that sent a bad move must not find half a game applied.
    fn position(&mut self, base: &PositionBase, moves: &[String]) {
        let mut board = match base {
            PositionBase::StartPos => Board::startpos(),
            PositionBase::Fen(fen) => match Board::from_fen(fen) {
                Ok(b) => b,
                Err(e) => {
                    self.error(&format!("position fen: {e}"));
                    return;
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match board.parse_uci_move(text) {
                Ok(m) => board.make(m),
                Err(e) => {
                    self.error(&format!(
                        "position: move {} '{}': {e}; position unchanged",
                        i + 1,
                        command::shorten(text)
                    ));
                    return;
                }
            }
        }
        self.board = board;
    }

    fn go(&mut self, go: GoCommand) {
        let GoCommand {
            mut limits,
            searchmoves,
        } = go;
        for text in &searchmoves {
            match self.board.parse_uci_move(text) {
                Ok(m) if !limits.searchmoves.contains(&m) => limits.searchmoves.push(m),
                Ok(_) => {}
                Err(e) => {
                    self.error(&format!(
                        "go searchmoves: '{}': {e}",
                        command::shorten(text)
                    ));
                    return;
                }
            }
        }
        // A clock for the other side only would leave this search without any time limit:
        // it would never answer, which a GUI counting our time cannot tell from a hang.
        let (mine, name) = match self.board.side_to_move() {
            Color::White => (limits.wtime, "wtime"),
            Color::Black => (limits.btime, "btime"),
        };
        let clock_given = limits.wtime.is_some()
            || limits.btime.is_some()
            || limits.winc.is_some()
            || limits.binc.is_some()
            || limits.movestogo.is_some();
        if clock_given && mine.is_none() {
            self.error(&format!(
                "go: {name} is missing, and it is {} to move",
                self.board.side_to_move().name()
            ));
            return;
        }
        // A `go` during a search stops that search and answers it first.
        self.end_search();
        if self.debug {
            self.write(info_string(&format!(
                "debug: go {limits:?} on {}",
                self.board.to_fen()
            )));
        }
        {
            let mut state = lock(&self.shared.search);
            *state = SearchState {
                pending: true,
                hold: limits.infinite || limits.ponder,
                pondering: limits.ponder,
                held: Vec::new(),
                started: Some(Instant::now()),
            };
        }
        self.engine.go(&self.board, limits, &self.settings.search);
    }

    fn perft(&mut self, depth: u32) {
        self.end_search();
        let start = Instant::now();
        let mut board = self.board.clone();
        let split = perft::divide(&mut board, depth);
        let total: u64 = split.iter().map(|(_, n)| n).sum();
        let mut lines: Vec<String> = split.iter().map(|(m, n)| format!("{m}: {n}")).collect();
        lines.push(String::new());
        lines.push(format!("Nodes searched: {total}"));
        if self.debug {
            lines.push(info_string(&format!(
                "perft time {} ms",
                start.elapsed().as_millis()
            )));
        }
        self.shared.write_lines(&lines);
    }

    fn display(&self) {
        let b = &self.board;
        let mut lines = board_diagram(b);
        lines.push(String::new());
        lines.push(format!("Fen: {}", b.to_fen()));
        lines.push(format!("Key: {:016X}", b.hash()));
        let us = b.side_to_move();
        let checkers: Vec<String> = b
            .attackers(b.king_square(us), us.flip())
            .iter()
            .map(Square::to_string)
            .collect();
        lines.push(format!(
            "Checkers:{}",
            checkers.iter().map(|c| format!(" {c}")).collect::<String>()
        ));
        let e = eval::settled_white(b, &self.settings.search.eval);
        lines.push(format!(
            "E: {} (eval {}, captures in flight settled, White's point of view)",
            Score::Cp(e),
            self.settings.search.eval.mode
        ));
        if !self.settings.opponent.is_empty() {
            lines.push(format!("Opponent: {}", self.settings.opponent));
        }
        self.shared.write_lines(&lines);
    }

    fn eval(&self) {
        // The term table; its last line is `E: N` (centipawns, White's point of view).
        let table = eval::explain(&self.board, &self.settings.search.eval).to_string();
        let lines: Vec<String> = table.lines().map(str::to_string).collect();
        self.shared.write_lines(&lines);
    }
}

/// The board as text, White at the bottom, in the common engines' `d` style.
fn board_diagram(b: &Board) -> Vec<String> {
    let rule = " +---+---+---+---+---+---+---+---+".to_string();
    let mut lines = vec![rule.clone()];
    for rank in (0..8u8).rev() {
        let mut row = String::from(" |");
        for file in 0..8u8 {
            let c = b
                .piece_at(Square::new(file, rank))
                .map_or(' ', |p| p.fen_char());
            row.push_str(&format!(" {c} |"));
        }
        row.push_str(&format!(" {}", rank + 1));
        lines.push(row);
        lines.push(rule.clone());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_string());
    let side = match b.side_to_move() {
        Color::White => "white",
        Color::Black => "black",
    };
    lines.push(format!("Side to move: {side}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_reader_splits_lines_and_drops_long_ones() {
        let data = b"uci\r\nisready\n".to_vec();
        let mut long = vec![b'a'; 100];
        long.push(b'\n');
        let mut all = data;
        all.extend_from_slice(&long);
        all.extend_from_slice(b"quit");
        let mut input = io::BufReader::with_capacity(7, &all[..]);
        let mut buf = Vec::new();
        assert_eq!(
            read_line_bounded(&mut input, &mut buf, 50).unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"uci");
        assert_eq!(
            read_line_bounded(&mut input, &mut buf, 50).unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"isready");
        assert_eq!(
            read_line_bounded(&mut input, &mut buf, 50).unwrap(),
            LineRead::TooLong(100)
        );
        assert_eq!(
            read_line_bounded(&mut input, &mut buf, 50).unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"quit");
        assert_eq!(
            read_line_bounded(&mut input, &mut buf, 50).unwrap(),
            LineRead::Eof
        );
    }

    #[test]
    fn bestmove_forms() {
        let b = Board::startpos();
        let moves = b.legal_moves();
        let (m, p) = (moves.as_slice()[0], moves.as_slice()[1]);
        assert_eq!(format_bestmove(Some(m), None), format!("bestmove {m}"));
        assert_eq!(
            format_bestmove(Some(m), Some(p)),
            format!("bestmove {m} ponder {p}")
        );
        assert_eq!(format_bestmove(None, None), "bestmove 0000");
    }

    #[test]
    fn iteration_line_shape() {
        let b = Board::startpos();
        let m = b.legal_moves().as_slice()[0];
        let info = IterationInfo {
            depth: 3,
            seldepth: 5,
            multipv: 1,
            score: Score::Mate(-2),
            score_white: Score::Mate(-2),
            bound: Bound::Upper,
            nodes: 1000,
            nps: 50_000,
            time: Duration::from_millis(20),
            pv: vec![m],
            hashfull: 7,
            root_moves: Vec::new(),
            first_move_cutoff: 0.9,
            branching: 3.0,
            stats: Default::default(),
            root_rows: Vec::new(),
        };
        assert_eq!(
            format_iteration(&info),
            format!(
                "info depth 3 seldepth 5 multipv 1 score mate -2 upperbound nodes 1000 nps 50000 \
                 hashfull 7 time 20 pv {m}"
            )
        );
    }

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            lock(&self.0).extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn shared_with(sink: &Sink) -> Shared {
        Shared {
            out: Mutex::new(Box::new(sink.clone())),
            broken: AtomicBool::new(false),
            search: Mutex::new(SearchState::default()),
        }
    }

    fn text(sink: &Sink) -> String {
        String::from_utf8(lock(&sink.0).clone()).unwrap()
    }

    /// The real search itself waits for `stop` in infinite mode, so the spawned-binary tests
    /// cannot tell whether this layer holds a `bestmove` that comes early; this test can.
    #[test]
    fn bestmove_is_held_in_infinite_mode_until_released() {
        let sink = Sink::default();
        let shared = shared_with(&sink);
        *lock(&shared.search) = SearchState {
            pending: true,
            hold: true,
            pondering: false,
            held: Vec::new(),
            started: Some(Instant::now()),
        };
        let m = Board::startpos().legal_moves().as_slice()[0];
        shared.on_event(SearchEvent::BestMove {
            id: 1,
            best: Some(m),
            ponder: None,
            book: Some("Some Opening".into()),
        });
        assert_eq!(text(&sink), "");
        assert!(lock(&shared.search).pending);
        shared.release();
        assert_eq!(
            text(&sink),
            format!("info string book: Some Opening\nbestmove {m}\n")
        );
        assert!(!lock(&shared.search).pending);
        // Released before the answer: it is printed as soon as it comes.
        lock(&shared.search).pending = true;
        shared.on_event(SearchEvent::BestMove {
            id: 2,
            best: None,
            ponder: None,
            book: None,
        });
        assert!(text(&sink).ends_with("bestmove 0000\n"));
        assert!(!lock(&shared.search).pending);
    }

    #[test]
    fn currmove_waits_for_the_first_second() {
        let sink = Sink::default();
        let shared = shared_with(&sink);
        let m = Board::startpos().legal_moves().as_slice()[0];
        let event = SearchEvent::CurrentMove {
            id: 1,
            depth: 9,
            mv: m,
            number: 4,
        };
        lock(&shared.search).started = Some(Instant::now());
        shared.on_event(event.clone());
        assert_eq!(text(&sink), "");
        lock(&shared.search).started = Instant::now().checked_sub(CURRMOVE_AFTER);
        shared.on_event(event);
        assert_eq!(
            text(&sink),
            format!("info depth 9 currmove {m} currmovenumber 4\n")
        );
    }

    #[test]
    fn a_closed_output_is_noticed() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let shared = Shared {
            out: Mutex::new(Box::new(Closed)),
            broken: AtomicBool::new(false),
            search: Mutex::new(SearchState::default()),
        };
        shared.write("readyok");
        assert!(shared.broken.load(Ordering::SeqCst));
    }

    #[test]
    fn info_strings_stay_on_one_line() {
        assert_eq!(info_string("a\nb\rc"), "info string a b c");
    }
}
