//! A game: the start position, the moves played (with their SAN and, for engine moves, the
//! evaluation E and depth that chose them), a cursor to step back and forward, the result and
//! why, PGN read/write, clocks, and the autosave that keeps an unfinished game safe.
//! No terminal code here: the TUI and the tests drive it the same way.
//!
//! The move list is one line with a cursor. `undo` and `redo` only move the cursor, so
//! stepping back to look at an earlier position loses nothing; playing a move where the
//! cursor stands replaces the moves after it (the same move as the next one just steps
//! forward, keeping the rest).

pub mod annotate;
pub mod autosave;
pub mod clock;
pub mod glicko;
pub mod pgn;
pub mod study;

use std::fmt;
use std::time::Duration;

use crate::chess::notation::MoveParseError;
use crate::chess::{Board, Color, FenError, Move};
use crate::engine::Score;

pub use clock::{Clock, TimeControl, TimeControlError};
pub use pgn::PgnError;

/// Who won, as the PGN result token says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Outcome {
    pub fn win_for(c: Color) -> Outcome {
        match c {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// The PGN result token: `1-0`, `0-1`, `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    pub fn from_pgn(token: &str) -> Option<Outcome> {
        match token {
            "1-0" => Some(Outcome::WhiteWins),
            "0-1" => Some(Outcome::BlackWins),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            Outcome::WhiteWins => Some(Color::White),
            Outcome::BlackWins => Some(Color::Black),
            Outcome::Draw => None,
        }
    }
}

/// Why a game ended. The first five are the rules' verdict on a position (FIDE Laws 5.1,
/// 5.2, 9.2, 9.3, 9.6 — the fifty-move rule and threefold repetition are treated as ending
/// the game at once, as most programs do, rather than waiting for a claim); the rest are set
/// from outside.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    FiftyMoveRule,
    ThreefoldRepetition,
    InsufficientMaterial,
    Resignation {
        loser: Color,
    },
    DrawAgreed,
    /// A clock ran out. When the other side cannot possibly mate, the game is drawn
    /// (FIDE 6.9).
    FlagFall {
        loser: Color,
    },
    /// The opponent of `loser` claimed the game after `loser` had been away (disconnected)
    /// long enough: a game between people over the network.
    Abandoned {
        loser: Color,
    },
    /// The result came from a PGN file that does not say why.
    Recorded,
}

impl Termination {
    /// A draw a player may claim but the game may also go on past: threefold repetition
    /// and the fifty-move rule (FIDE 9.2, 9.3). The game ends at once on them here, but a
    /// recorded game may continue, and its recorded result stands.
    pub fn is_claimable(self) -> bool {
        matches!(
            self,
            Termination::ThreefoldRepetition | Termination::FiftyMoveRule
        )
    }
}

/// How a game ended: the outcome and the reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    pub outcome: Outcome,
    pub termination: Termination,
}

impl GameEnd {
    /// The PGN result token.
    pub fn result(&self) -> &'static str {
        self.outcome.pgn()
    }

    /// The reason in words, as the log and the status bar show it ("Black mates",
    /// "threefold repetition", "White's flag fell").
    pub fn reason(&self) -> String {
        match self.termination {
            Termination::Checkmate => match self.outcome.winner() {
                Some(w) => format!("{} mates", w.name()),
                None => "checkmate".to_string(),
            },
            Termination::Stalemate => "stalemate".to_string(),
            Termination::FiftyMoveRule => "fifty-move rule".to_string(),
            Termination::ThreefoldRepetition => "threefold repetition".to_string(),
            Termination::InsufficientMaterial => "insufficient material".to_string(),
            Termination::Resignation { loser } => format!("{} resigns", loser.name()),
            Termination::DrawAgreed => "draw agreed".to_string(),
            Termination::FlagFall { loser } if self.outcome == Outcome::Draw => format!(
                "{}'s flag fell, but {} cannot mate",
                loser.name(),
                loser.flip().name()
            ),
            Termination::FlagFall { loser } => format!("{}'s flag fell", loser.name()),
            Termination::Abandoned { loser } => format!("{} left the game", loser.name()),
            Termination::Recorded => "result as recorded".to_string(),
        }
    }
}

impl fmt::Display for GameEnd {
    /// `1-0 (Black resigns)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result(), self.reason())
    }
}

/// What the engine thought of the move it chose: E from White's point of view (the seed's
/// convention) and the depth of the iteration that chose it. Written as a PGN comment
/// `{+0.29/12}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineNote {
    pub score: Score,
    pub depth: u32,
}

/// One move of the game, as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub mv: Move,
    pub san: String,
    /// Set for engine moves.
    pub engine: Option<EngineNote>,
    /// The mover's time left after the move, when a clock was running (PGN `[%clk]`).
    pub clock: Option<Duration>,
    /// What a reader or a review wrote about the move.
    pub annotations: Annotations,
}

/// Annotations on a move: what PGN carries besides the move, the engine note and the clock.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotations {
    /// An analysis evaluation after the move, White's view (PGN `[%eval 0.35]`, `[%eval #-2]`),
    /// as a review writes it.
    pub eval: Option<Score>,
    /// Numeric annotation glyphs after the move, in order (`$2` is `?`, `$6` is `?!`).
    pub nags: Vec<u8>,
    /// The text of the comments after the move, without the engine note, `[%clk]` and
    /// `[%eval]` (they have their own fields); several comments are joined with a space.
    pub comment: Option<String>,
    /// Alternatives to this move, each a line from the position before it (only the main
    /// line of each variation is kept).
    pub variations: Vec<Vec<Move>>,
}

/// The PGN tags a game carries. The Seven Tag Roster has its own fields; `Result`,
/// `SetUp` and `FEN` are derived from the game when writing, and other tags are kept in
/// order in `other`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tags {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`, with `??` for unknown parts (PGN standard 8.1.1.3).
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub other: Vec<(String, String)>,
}

impl Default for Tags {
    /// A casual game played today on this machine.
    fn default() -> Tags {
        Tags {
            event: "Casual game".to_string(),
            site: "?".to_string(),
            date: chrono::Local::now().format("%Y.%m.%d").to_string(),
            round: "-".to_string(),
            white: "?".to_string(),
            black: "?".to_string(),
            other: Vec::new(),
        }
    }
}

impl Tags {
    /// The value of a tag by name, the roster ones included.
    pub fn get(&self, name: &str) -> Option<&str> {
        match name {
            "Event" => Some(&self.event),
            "Site" => Some(&self.site),
            "Date" => Some(&self.date),
            "Round" => Some(&self.round),
            "White" => Some(&self.white),
            "Black" => Some(&self.black),
            _ => self
                .other
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.as_str()),
        }
    }

    /// Sets a tag by name (replacing an earlier value).
    pub fn set(&mut self, name: &str, value: &str) {
        let v = value.to_string();
        match name {
            "Event" => self.event = v,
            "Site" => self.site = v,
            "Date" => self.date = v,
            "Round" => self.round = v,
            "White" => self.white = v,
            "Black" => self.black = v,
            _ => match self.other.iter_mut().find(|(k, _)| k == name) {
                Some(slot) => slot.1 = v,
                None => self.other.push((name.to_string(), v)),
            },
        }
    }
}

/// Why a game refused an action. The game is unchanged after any error.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over: {0}")]
    Over(GameEnd),
    #[error("{0}: not a legal move in this position")]
    Illegal(Move),
    #[error(transparent)]
    Parse(#[from] MoveParseError),
    #[error("step forward to the last move first (the game is shown at move {shown} of {total})")]
    NotAtEnd { shown: usize, total: usize },
}

/// Why annotations could not be set on a move. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnnotationError {
    #[error("there is no move {index} (0-based) in a line of {len}")]
    NoSuchMove { index: usize, len: usize },
    #[error("move {ply} of variation {variation} ({mv}) is not legal there")]
    IllegalVariation {
        variation: usize,
        ply: usize,
        mv: Move,
    },
}

/// A game of chess from a start position, with a cursor into its move list.
#[derive(Clone, Debug)]
pub struct Game {
    start: Board,
    /// The position at the cursor, with the moves before it in its history (repetitions).
    board: Board,
    moves: Vec<PlayedMove>,
    cursor: usize,
    /// A result set from outside (resignation, agreed draw, flag, PGN); it belongs to the
    /// end of the line and is dropped when the line changes.
    declared: Option<GameEnd>,
    pub tags: Tags,
    pub time_control: Option<TimeControl>,
    /// A comment before the first move (PGN), kept to be written back.
    pub comment_before: Option<String>,
    /// Tells this game's autosave file from another game's (a new game must not overwrite
    /// an unfinished one without setting it aside).
    id: String,
}

/// A fresh id: time, process and a counter, unique enough for one machine's data directory.
fn new_game_id() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{nanos:x}-{:x}-{n}", std::process::id())
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A new game from the standard start position.
    pub fn new() -> Game {
        Game::from_board(Board::startpos())
    }

    /// A new game from any position (its history is forgotten: earlier positions do not
    /// count for repetition).
    pub fn from_board(mut board: Board) -> Game {
        board.clear_history();
        Game {
            start: board.clone(),
            board,
            moves: Vec::new(),
            cursor: 0,
            declared: None,
            tags: Tags::default(),
            time_control: None,
            comment_before: None,
            id: new_game_id(),
        }
    }

    /// The id the autosave uses to recognise this game.
    pub fn id(&self) -> &str {
        &self.id
    }

    pub fn from_fen(fen: &str) -> Result<Game, FenError> {
        Ok(Game::from_board(Board::from_fen(fen)?))
    }

    /// The position the game started from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// Did the game start from the standard position?
    pub fn is_standard_start(&self) -> bool {
        self.start == Board::startpos()
    }

    /// The position at the cursor (the one shown and played on).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// FEN of the position at the cursor.
    pub fn fen(&self) -> String {
        self.board.to_fen()
    }

    /// The whole line, including moves after the cursor.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// SAN of the whole line.
    pub fn sans(&self) -> Vec<&str> {
        self.moves.iter().map(|m| m.san.as_str()).collect()
    }

    /// How many moves are in effect (the cursor, 0 = the start position).
    pub fn ply(&self) -> usize {
        self.cursor
    }

    /// Moves in the whole line.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Is the cursor after the last move?
    pub fn at_end(&self) -> bool {
        self.cursor == self.moves.len()
    }

    /// The position after `ply` moves of the line (`None` beyond its end).
    pub fn position_at(&self, ply: usize) -> Option<Board> {
        if ply > self.moves.len() {
            return None;
        }
        let mut b = self.start.clone();
        for pm in &self.moves[..ply] {
            b.make(pm.mv);
        }
        Some(b)
    }

    /// Which side made move `index` (0-based) of the line, and its move number.
    pub fn move_number(&self, index: usize) -> (Color, u32) {
        let offset = match self.start.side_to_move() {
            Color::White => 0,
            Color::Black => 1,
        };
        let half = index + offset;
        let side = if half.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let number = self.start.fullmove_number() as usize + half / 2;
        (side, number.min(u32::MAX as usize) as u32)
    }

    /// Move `index` with its number as a reader writes it: `14. Nf3` or `14...Qd7`.
    pub fn numbered_san(&self, index: usize) -> Option<String> {
        let pm = self.moves.get(index)?;
        let (side, n) = self.move_number(index);
        Some(match side {
            Color::White => format!("{n}. {}", pm.san),
            Color::Black => format!("{n}...{}", pm.san),
        })
    }

    /// Plays a legal move of the position at the cursor (a human's move).
    pub fn play(&mut self, m: Move) -> Result<&PlayedMove, GameError> {
        self.play_noted(m, None)
    }

    /// Plays the engine's move and records E (White's view) and depth for the PGN.
    pub fn play_engine(&mut self, m: Move, note: EngineNote) -> Result<&PlayedMove, GameError> {
        self.play_noted(m, Some(note))
    }

    /// Parses a move in either notation (`e2e4`, `Nf3`) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<&PlayedMove, GameError> {
        let m = self.board.parse_move(text)?;
        self.play(m)
    }

    fn play_noted(
        &mut self,
        m: Move,
        engine: Option<EngineNote>,
    ) -> Result<&PlayedMove, GameError> {
        if let Some(end) = self.result() {
            return Err(GameError::Over(end));
        }
        self.push_move(m, engine)
    }

    /// Plays a move even after a draw that the rules only allow a player to *claim*
    /// (threefold repetition, fifty moves: FIDE 9.2, 9.3). Recorded games go on past
    /// unclaimed draws, and reading them must follow.
    pub(crate) fn play_past_claimable_draw(&mut self, m: Move) -> Result<&PlayedMove, GameError> {
        if let Some(end) = self.result()
            && !end.termination.is_claimable()
        {
            return Err(GameError::Over(end));
        }
        self.push_move(m, None)
    }

    fn push_move(&mut self, m: Move, engine: Option<EngineNote>) -> Result<&PlayedMove, GameError> {
        if !self.board.legal_moves().contains(m) {
            return Err(GameError::Illegal(m));
        }
        let same_as_next = self.moves.get(self.cursor).is_some_and(|pm| pm.mv == m);
        if same_as_next {
            // Replaying the next move of the line: step forward and keep the rest.
            self.board.make(m);
            if engine.is_some() {
                self.moves[self.cursor].engine = engine;
            }
            self.cursor += 1;
        } else {
            let san = self.board.san(m);
            self.moves.truncate(self.cursor);
            self.declared = None;
            self.moves.push(PlayedMove {
                mv: m,
                san,
                engine,
                clock: None,
                annotations: Annotations::default(),
            });
            self.board.make(m);
            self.cursor += 1;
        }
        Ok(&self.moves[self.cursor - 1])
    }

    /// Records the mover's time left after the last move in effect (PGN `[%clk]`).
    pub fn set_last_clock(&mut self, remaining: Duration) {
        if let Some(i) = self.cursor.checked_sub(1) {
            self.moves[i].clock = Some(remaining);
        }
    }

    /// Replaces the annotations of move `index` of the line. Every variation must be legal
    /// from the position before the move; otherwise nothing changes.
    pub fn set_annotations(
        &mut self,
        index: usize,
        annotations: Annotations,
    ) -> Result<(), AnnotationError> {
        let mut before = self
            .position_at(index)
            .filter(|_| index < self.moves.len())
            .ok_or(AnnotationError::NoSuchMove {
                index,
                len: self.moves.len(),
            })?;
        before.clear_history();
        for (v, line) in annotations.variations.iter().enumerate() {
            let mut b = before.clone();
            for (ply, &m) in line.iter().enumerate() {
                if !b.legal_moves().contains(m) {
                    return Err(AnnotationError::IllegalVariation {
                        variation: v + 1,
                        ply: ply + 1,
                        mv: m,
                    });
                }
                b.make(m);
            }
        }
        self.moves[index].annotations = annotations;
        Ok(())
    }

    /// Steps back one move (it stays in the line for `redo`).
    pub fn undo(&mut self) -> Option<Move> {
        let i = self.cursor.checked_sub(1)?;
        self.board.unmake();
        self.cursor = i;
        Some(self.moves[i].mv)
    }

    /// Steps forward one move along the line.
    pub fn redo(&mut self) -> Option<Move> {
        let m = self.moves.get(self.cursor)?.mv;
        self.board.make(m);
        self.cursor += 1;
        Some(m)
    }

    /// Moves the cursor to `ply` (clamped to the line).
    pub fn goto(&mut self, ply: usize) {
        let ply = ply.min(self.moves.len());
        while self.cursor > ply {
            self.undo();
        }
        while self.cursor < ply {
            self.redo();
        }
    }

    /// The game as the board shows it: the moves up to the cursor, without those taken
    /// back and kept for `redo`. What `:save` and the autosave write, so a file never
    /// records as played a move the board no longer shows.
    pub fn as_shown(&self) -> Game {
        let mut shown = self.clone();
        shown.truncate();
        shown
    }

    /// Drops the moves after the cursor (a takeback that is not to be redone).
    pub fn truncate(&mut self) {
        if self.cursor < self.moves.len() {
            self.moves.truncate(self.cursor);
            self.declared = None;
        }
    }

    /// The game's state at the cursor: the rules' verdict on the position, or at the end of
    /// the line a result declared from outside.
    pub fn result(&self) -> Option<GameEnd> {
        if self.at_end()
            && let Some(end) = self.declared
        {
            return Some(end);
        }
        rules_verdict(&self.board)
    }

    /// The result of the whole line (what the PGN records), wherever the cursor is.
    pub fn final_result(&self) -> Option<GameEnd> {
        if self.at_end() {
            return self.result();
        }
        self.declared.or_else(|| {
            let end = self.position_at(self.moves.len())?;
            rules_verdict(&end)
        })
    }

    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// `loser` resigns.
    pub fn resign(&mut self, loser: Color) -> Result<GameEnd, GameError> {
        self.declare(GameEnd {
            outcome: Outcome::win_for(loser.flip()),
            termination: Termination::Resignation { loser },
        })
    }

    /// Both players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<GameEnd, GameError> {
        self.declare(GameEnd {
            outcome: Outcome::Draw,
            termination: Termination::DrawAgreed,
        })
    }

    /// `loser`'s clock ran out. A draw when the opponent has no way to mate (FIDE 6.9):
    /// approximated as the opponent having a bare king, or neither side having mating
    /// material.
    pub fn flag_fall(&mut self, loser: Color) -> Result<GameEnd, GameError> {
        let opponent = loser.flip();
        let b = &self.board;
        let opponent_bare = b.pieces(opponent).count() == 1;
        let outcome = if opponent_bare || b.insufficient_material() {
            Outcome::Draw
        } else {
            Outcome::win_for(opponent)
        };
        self.declare(GameEnd {
            outcome,
            termination: Termination::FlagFall { loser },
        })
    }

    /// Sets a result from outside (a PGN's recorded result, an adjudication).
    pub fn declare(&mut self, end: GameEnd) -> Result<GameEnd, GameError> {
        if !self.at_end() {
            return Err(GameError::NotAtEnd {
                shown: self.cursor,
                total: self.moves.len(),
            });
        }
        if let Some(existing) = self.result() {
            return Err(GameError::Over(existing));
        }
        self.declared = Some(end);
        Ok(end)
    }

    /// Removes a declared result (e.g. a resignation taken back).
    pub fn clear_declared(&mut self) {
        self.declared = None;
    }
}

/// The rules' verdict on a position: checkmate, stalemate, then the draws. Mate on the move
/// that completes the fifty moves still wins (FIDE 9.3), hence mate is looked at first.
pub fn rules_verdict(b: &Board) -> Option<GameEnd> {
    let end = |outcome, termination| {
        Some(GameEnd {
            outcome,
            termination,
        })
    };
    if !b.has_legal_move() {
        return if b.in_check() {
            end(
                Outcome::win_for(b.side_to_move().flip()),
                Termination::Checkmate,
            )
        } else {
            end(Outcome::Draw, Termination::Stalemate)
        };
    }
    if b.insufficient_material() {
        return end(Outcome::Draw, Termination::InsufficientMaterial);
    }
    if b.halfmove_clock() >= 100 {
        return end(Outcome::Draw, Termination::FiftyMoveRule);
    }
    if b.repetitions() >= 2 {
        return end(Outcome::Draw, Termination::ThreefoldRepetition);
    }
    None
}
