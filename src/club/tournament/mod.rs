//! Swiss tournaments as pure data: who entered, what happened in each round, and the
//! functions that pair the next round, rank the standings and write or read the result as a
//! FIDE TRF-16 file. Nothing here knows of the server, a clock or a database: the club keeps
//! a [`SwissState`], records each round's games in it, and asks [`pair_round`] for the next.
//!
//! - `arena.rs` an arena: lichess's scoring (fire, berserk), standings and the pairing of
//!   whoever is waiting, by a minimum-cost matching on rank and rating
//! - `dutch.rs` the pairing of a round by the FIDE Dutch system (Handbook C.04.3)
//! - `matching.rs` maximum matching in a general graph, which answers "can the rest of the
//!   round still be paired?" (the Dutch system's completion criterion)
//! - `spec.rs` what a member asks for when creating one (`arena 3+0 30m`, `swiss 5+3 5 rounds`)
//! - `standings.rs` scores and tie-breaks: Buchholz cut-1, Sonneborn-Berger, direct encounter
//! - `trf.rs` the FIDE TRF-16 text of a tournament, written and read back
//!
//! Scores are counted in half points (`u32`) so that no comparison depends on floating
//! point: a win is 2, a draw 1.

pub mod arena;
pub mod dutch;
mod matching;
pub mod spec;
pub mod standings;
pub mod trf;

pub use dutch::{Board, PairError, Pairing, pair_round};
pub use standings::{Standing, standings};

use crate::chess::Color;

/// How a game between two paired players ended, from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GameResult {
    Win,
    Draw,
    Loss,
    /// Won because the opponent did not play (the game counts as not played).
    ForfeitWin,
    /// Lost by not playing (the game counts as not played).
    ForfeitLoss,
}

impl GameResult {
    /// Half points earned.
    pub fn half_points(self) -> u32 {
        match self {
            GameResult::Win | GameResult::ForfeitWin => 2,
            GameResult::Draw => 1,
            GameResult::Loss | GameResult::ForfeitLoss => 0,
        }
    }

    /// Was the game actually played over the board? Forfeits were not: they give no colour
    /// and do not stop the two from being paired again (C.04.1, as the endorsed programs read it).
    pub fn was_played(self) -> bool {
        matches!(self, GameResult::Win | GameResult::Draw | GameResult::Loss)
    }

    /// The same game from the opponent's side.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Loss => GameResult::Win,
            GameResult::Draw => GameResult::Draw,
            GameResult::ForfeitWin => GameResult::ForfeitLoss,
            GameResult::ForfeitLoss => GameResult::ForfeitWin,
        }
    }
}

/// A round without an opponent, by its TRF letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ByeKind {
    /// `U`: the pairing-allocated bye of an odd round (a win's points; at most one each).
    Pairing,
    /// `F`: a full point given without a game.
    Full,
    /// `H`: a half point for a round missed on request (or joined late).
    Half,
    /// `Z`: no points for a round missed on request.
    Zero,
    /// `-`: not paired and no points (withdrawn, or not yet entered and given nothing).
    Absent,
}

impl ByeKind {
    pub fn half_points(self) -> u32 {
        match self {
            ByeKind::Pairing | ByeKind::Full => 2,
            ByeKind::Half => 1,
            ByeKind::Zero | ByeKind::Absent => 0,
        }
    }
}

/// One player's round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RoundRecord {
    Game {
        /// The opponent's pairing number.
        opponent: u32,
        colour: Color,
        result: GameResult,
    },
    Bye(ByeKind),
}

impl RoundRecord {
    pub fn half_points(self) -> u32 {
        match self {
            RoundRecord::Game { result, .. } => result.half_points(),
            RoundRecord::Bye(kind) => kind.half_points(),
        }
    }

    /// The opponent and colour of a game played over the board.
    pub fn played(self) -> Option<(u32, Color)> {
        match self {
            RoundRecord::Game {
                opponent,
                colour,
                result,
            } if result.was_played() => Some((opponent, colour)),
            _ => None,
        }
    }
}

/// One entrant and their rounds so far.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SwissPlayer {
    /// Who this is for the caller (the club's member id); a TRF file has none and uses the
    /// name.
    pub id: String,
    /// The pairing number: 1-based, the place in the initial ranking by rating (C.04.2.B).
    /// A late entrant takes the place its rating gives and those below move down one.
    pub number: u32,
    pub name: String,
    pub rating: u32,
    /// Withdrawn players are never paired again; their rounds stay in the record.
    pub withdrawn: bool,
    /// One record per round already paired, in order (round 1 first).
    pub rounds: Vec<RoundRecord>,
}

impl SwissPlayer {
    pub fn new(number: u32, name: impl Into<String>, rating: u32) -> SwissPlayer {
        let name = name.into();
        SwissPlayer {
            id: name.clone(),
            number,
            name,
            rating,
            withdrawn: false,
            rounds: Vec::new(),
        }
    }

    /// Score in half points.
    pub fn score(&self) -> u32 {
        self.rounds.iter().map(|r| r.half_points()).sum()
    }

    /// Score after the first `rounds` rounds, in half points.
    pub fn score_after(&self, rounds: usize) -> u32 {
        self.rounds
            .iter()
            .take(rounds)
            .map(|r| r.half_points())
            .sum()
    }
}

/// A Swiss tournament between rounds: the entrants with their records, the planned number
/// of rounds, who sits out the next round (and with what bye), and the colour that pairing
/// number 1 had in round 1 (FIDE's "initial colour", drawn before the event; white unless
/// chosen otherwise).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SwissState {
    pub players: Vec<SwissPlayer>,
    pub total_rounds: u32,
    pub initial_colour: Color,
    /// Players who will not be paired in the next round, with the bye each gets
    /// (`Half`, `Zero`, `Full` or `Absent`), beside withdrawn players.
    pub sitting_out: Vec<(u32, ByeKind)>,
}

impl SwissState {
    pub fn new(total_rounds: u32) -> SwissState {
        SwissState {
            players: Vec::new(),
            total_rounds,
            initial_colour: Color::White,
            sitting_out: Vec::new(),
        }
    }

    /// Rounds already paired (the longest record; every record is as long once a round is
    /// recorded through [`SwissState::record_round`]).
    pub fn rounds_played(&self) -> usize {
        self.players
            .iter()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0)
    }

    /// The round the next pairing is for (1-based).
    pub fn next_round(&self) -> u32 {
        self.rounds_played() as u32 + 1
    }

    pub fn player(&self, number: u32) -> Option<&SwissPlayer> {
        self.players.iter().find(|p| p.number == number)
    }

    /// Adds an entrant named `name` (also its id); see [`SwissState::enter_member`].
    pub fn enter(&mut self, name: impl Into<String>, rating: u32, missed: ByeKind) -> u32 {
        let name = name.into();
        self.enter_member(name.clone(), name, rating, missed)
    }

    /// Adds an entrant and returns its pairing number. Pairing numbers follow the initial
    /// ranking by rating (C.04.2.B): the entrant takes the place after everyone rated as
    /// high or higher, and those below move down one number (their records follow). One
    /// who joins after round 1 gets `missed` for each round already played (the club gives
    /// a half-point bye).
    pub fn enter_member(
        &mut self,
        id: impl Into<String>,
        name: impl Into<String>,
        rating: u32,
        missed: ByeKind,
    ) -> u32 {
        let number = 1 + self.players.iter().filter(|p| p.rating >= rating).count() as u32;
        let shift = |n: &mut u32| {
            if *n >= number {
                *n += 1;
            }
        };
        for p in &mut self.players {
            shift(&mut p.number);
            for r in &mut p.rounds {
                if let RoundRecord::Game { opponent, .. } = r {
                    shift(opponent);
                }
            }
        }
        for (n, _) in &mut self.sitting_out {
            shift(n);
        }
        let mut player = SwissPlayer::new(number, name, rating);
        player.id = id.into();
        player.rounds = vec![RoundRecord::Bye(missed); self.rounds_played()];
        self.players.push(player);
        self.players.sort_by_key(|p| p.number);
        number
    }

    /// The pairing number of the entrant with this id.
    pub fn number_of(&self, id: &str) -> Option<u32> {
        self.players.iter().find(|p| p.id == id).map(|p| p.number)
    }

    /// Will this player be paired in the next round?
    pub fn is_paired_next(&self, player: &SwissPlayer) -> bool {
        !player.withdrawn && !self.sitting_out.iter().any(|&(n, _)| n == player.number)
    }

    /// Records a round: each board's result (from White's side), the pairing-allocated bye,
    /// and the byes of those sitting out (who are then cleared). Players in none of these
    /// (withdrawn) get [`ByeKind::Absent`].
    pub fn record_round(
        &mut self,
        pairing: &Pairing,
        results: &[GameResult],
    ) -> Result<(), PairError> {
        if results.len() != pairing.boards.len() {
            return Err(PairError::BadState(format!(
                "{} results for {} boards",
                results.len(),
                pairing.boards.len()
            )));
        }
        let round = self.rounds_played();
        let mut records: Vec<(u32, RoundRecord)> = Vec::new();
        for (board, &result) in pairing.boards.iter().zip(results) {
            records.push((
                board.white,
                RoundRecord::Game {
                    opponent: board.black,
                    colour: Color::White,
                    result,
                },
            ));
            records.push((
                board.black,
                RoundRecord::Game {
                    opponent: board.white,
                    colour: Color::Black,
                    result: result.reversed(),
                },
            ));
        }
        if let Some(bye) = pairing.bye {
            records.push((bye, RoundRecord::Bye(ByeKind::Pairing)));
        }
        for &(n, kind) in &self.sitting_out {
            records.push((n, RoundRecord::Bye(kind)));
        }
        for (n, _) in &records {
            if self.player(*n).is_none() {
                return Err(PairError::BadState(format!("no player numbered {n}")));
            }
        }
        for player in &mut self.players {
            let record = records
                .iter()
                .find(|(n, _)| *n == player.number)
                .map(|&(_, r)| r)
                .unwrap_or(RoundRecord::Bye(ByeKind::Absent));
            player.rounds.truncate(round);
            while player.rounds.len() < round {
                player.rounds.push(RoundRecord::Bye(ByeKind::Absent));
            }
            player.rounds.push(record);
        }
        self.sitting_out.clear();
        Ok(())
    }
}
