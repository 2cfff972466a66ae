//! A tournament as the club's owner holds it: what it is, who entered, the games it paired
//! (by room and game id), its arena or Swiss state, and what it shows — the lobby's row, the
//! standings, the pairings, the podium, and the record the store keeps. The owner's side
//! (commands, the tick, seating games) is `tournaments.rs`.

use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

use crate::club::Member;
use crate::club::store::TournamentRecord;
use crate::club::tournament::arena::{Arena, GameIdx, Millis};
use crate::club::tournament::spec::{Kind, Spec};
use crate::club::tournament::standings::points_text;
use crate::club::tournament::{
    ByeKind, GameResult, RoundRecord, SwissPlayer, SwissState, standings, trf,
};

/// Tournaments starting or running at once, by default (`--max-tournaments`).
pub const MAX_TOURNAMENTS: usize = 10;
/// Players in one tournament at most, by default (`--tournament-players`).
pub const TOURNAMENT_PLAYERS: usize = 200;
/// A Swiss player who has not made their first move this long after their game could
/// start loses it by forfeit.
pub const FORFEIT_AFTER: Duration = Duration::from_secs(60);
/// Forfeits after which a Swiss player is withdrawn.
pub const FORFEITS_WITHDRAWN: u32 = 2;
/// A Swiss that reaches its start with fewer than two players waits this much longer.
pub const FIRST_ROUND_WAIT: Duration = Duration::from_secs(60);

/// Where a tournament stands: the words `ox88 club tournaments` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Phase {
    Starting,
    Running,
    Finished,
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Phase::Starting => "starting",
            Phase::Running => "running",
            Phase::Finished => "finished",
        })
    }
}

/// A tournament as the lobby lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    pub id: u32,
    /// What it is, as its organiser asked (`arena 3+0 30m rated`).
    pub spec: String,
    pub organiser: String,
    pub players: usize,
    pub phase: Phase,
    /// Time to the start, the end (arena) or none (a Swiss runs until its last round ends).
    pub until: Option<Duration>,
}

/// One line of a tournament's standings.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingRow {
    pub rank: u32,
    pub name: String,
    pub rating: u32,
    /// Points as people write them (`12` for an arena, `3.5` for a Swiss).
    pub score: String,
    /// On fire (arena): the next win scores double.
    pub fire: bool,
    /// An arena's score sheet, most recent game first (`4422012`); a Swiss's rounds
    /// (`1 0 = 1`).
    pub sheet: String,
    /// A Swiss's tie-breaks: Buchholz cut-1, Sonneborn-Berger, direct encounter.
    pub tiebreaks: Option<[String; 3]>,
    pub playing: bool,
    /// Paused (arena) or withdrawn: not paired.
    pub out: bool,
}

/// A game of the current pairings: who plays whom, and the room to `:watch` it in.
#[derive(Clone, Debug, PartialEq)]
pub struct PairingRow {
    pub white: String,
    pub black: String,
    pub room: String,
    /// `1-0`, `½-½`, `0-1`, a forfeit (`+ -`), or none while it goes on.
    pub result: Option<String>,
}

/// One of the top three at the end.
#[derive(Clone, Debug, PartialEq)]
pub struct PodiumRow {
    pub place: u32,
    pub name: String,
    pub score: String,
    pub games: u32,
    pub wins: u32,
    pub performance: Option<u32>,
}

/// A tournament as its standings pane draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentView {
    pub row: TournamentRow,
    /// A Swiss's round being played (or last played) and how many there are.
    pub round: Option<(u32, u32)>,
    pub standings: Vec<StandingRow>,
    pub pairings: Vec<PairingRow>,
    /// The top three once it is finished.
    pub podium: Vec<PodiumRow>,
}

/// The standings as lines of text (the log's `:standings`): a heading with what it is and
/// the time left, a line per player, the pairings with their rooms, the podium.
impl fmt::Display for TournamentView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.row;
        write!(
            f,
            "tournament {}: {} by {}, {}",
            r.id, r.spec, r.organiser, r.phase
        )?;
        if let Some((round, of)) = self.round {
            write!(f, ", round {round} of {of}")?;
        }
        match (r.phase, r.until) {
            (Phase::Starting, Some(u)) => write!(f, ", starts in {}", clock_text(u))?,
            (Phase::Running, Some(u)) if self.round.is_some() => {
                write!(f, ", next round in {}", clock_text(u))?
            }
            (Phase::Running, Some(u)) => write!(f, ", ends in {}", clock_text(u))?,
            _ => {}
        }
        writeln!(f)?;
        let swiss = self.round.is_some();
        if swiss {
            writeln!(
                f,
                "  #  name              rating  score  BH    SB     DE   rounds"
            )?;
        } else {
            writeln!(f, "  #  name              rating  score  fire  sheet")?;
        }
        for s in &self.standings {
            let name = format!(
                "{}{}",
                s.name,
                if s.out {
                    " (out)"
                } else if s.playing {
                    " *"
                } else {
                    ""
                }
            );
            write!(
                f,
                "{:>3}  {:<16}  {:>6}  {:>5}  ",
                s.rank, name, s.rating, s.score
            )?;
            match &s.tiebreaks {
                Some([bh, sb, de]) => writeln!(f, "{bh:<5} {sb:<6} {de:<4} {}", s.sheet)?,
                None => writeln!(f, "{:<4}  {}", if s.fire { "fire" } else { "" }, s.sheet)?,
            }
        }
        for p in &self.pairings {
            match &p.result {
                Some(res) => writeln!(f, "  {} – {}  {res}", p.white, p.black)?,
                None => writeln!(
                    f,
                    "  {} – {} in room {} (:join {})",
                    p.white, p.black, p.room, p.room
                )?,
            }
        }
        for p in &self.podium {
            write!(
                f,
                "  {}. {}  {} points, {} games, {} wins",
                p.place, p.name, p.score, p.games, p.wins
            )?;
            match p.performance {
                Some(perf) => writeln!(f, ", performance {perf}")?,
                None => writeln!(f)?,
            }
        }
        Ok(())
    }
}

/// A time left as `m:ss` (or `h:mm:ss`).
fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// A game the tournament paired.
#[derive(Clone, Debug)]
pub(super) struct Paired {
    pub(super) room: String,
    pub(super) game_id: String,
    pub(super) white: String,
    pub(super) black: String,
    pub(super) started: Instant,
    /// When White's first move was seen (Black's forfeit counts from it).
    pub(super) first_move: Option<Instant>,
    /// The arena's own index of the game.
    pub(super) arena: Option<GameIdx>,
    /// The result from White's side once known (a Swiss's; an arena keeps its own).
    pub(super) result: Option<GameResult>,
    /// Both players lost by forfeit (neither came).
    pub(super) double_forfeit: bool,
    pub(super) done: bool,
}

/// A Swiss between and during rounds.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(super) struct Swiss {
    pub(super) state: SwissState,
    /// The games of the round being played (indexes into [`Tournament::games`]) and who
    /// has its pairing-allocated bye, by member id: pairing numbers move when a late
    /// entrant comes in, member ids do not.
    pub(super) round: Option<(Vec<usize>, Option<String>)>,
    pub(super) forfeits: HashMap<String, u32>,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(super) enum Run {
    Arena(Box<Arena>),
    Swiss(Box<Swiss>),
}

/// One tournament the club runs.
#[derive(Clone, Debug)]
pub(super) struct Tournament {
    pub(super) id: u32,
    pub(super) spec: Spec,
    pub(super) organiser: String,
    pub(super) organiser_name: String,
    /// The arena's milliseconds count from here.
    pub(super) epoch: Instant,
    pub(super) starts: Instant,
    pub(super) phase: Phase,
    pub(super) run: Run,
    /// Who entered, by member id, as the club last saw them.
    pub(super) entrants: Vec<Member>,
    pub(super) games: Vec<Paired>,
    /// What the store was last given of it (written again only when it changes).
    pub(super) saved: Option<TournamentRecord>,
    /// What the saved record was made from, in brief: the record is made again (standings,
    /// TRF) only when this changes, not on every tick.
    pub(super) saved_from: Option<Fingerprint>,
}

/// A tournament as the database keeps it for a restart: everything the runner holds, its
/// times counted in milliseconds of the tournament's own clock from its creation (`at`:
/// that clock when saved).
#[derive(serde::Serialize, serde::Deserialize)]
struct Snapshot {
    id: u32,
    spec: Spec,
    organiser: String,
    organiser_name: String,
    at: Millis,
    starts: Millis,
    phase: Phase,
    run: Run,
    entrants: Vec<Member>,
    games: Vec<SavedGame>,
}

/// A [`Paired`] game in a [`Snapshot`].
#[derive(serde::Serialize, serde::Deserialize)]
struct SavedGame {
    room: String,
    game_id: String,
    white: String,
    black: String,
    started: Millis,
    first_move: Option<Millis>,
    arena: Option<GameIdx>,
    result: Option<GameResult>,
    double_forfeit: bool,
    done: bool,
}

/// What a tournament's stored record depends on: its phase, entrants, games paired and
/// over, and who is out of the pairing (paused or withdrawn).
pub(super) type Fingerprint = (Phase, usize, usize, usize, usize, usize);

/// Every tournament of this run of the server, and the next id to give.
#[derive(Default)]
pub(super) struct Tournaments {
    pub(super) list: Vec<Tournament>,
    pub(super) next_id: u32,
}

impl Tournament {
    /// See [`Fingerprint`].
    pub(super) fn fingerprint(&self) -> Fingerprint {
        let out = match &self.run {
            Run::Arena(a) => a
                .players()
                .iter()
                .filter(|p| p.paused || p.withdrawn)
                .count(),
            Run::Swiss(s) => s.state.players.iter().filter(|p| p.withdrawn).count(),
        };
        let rounds = match &self.run {
            Run::Arena(_) => 0,
            Run::Swiss(s) => s.state.rounds_played(),
        };
        (
            self.phase,
            self.entrants.len(),
            self.games.len(),
            self.games.iter().filter(|g| g.done).count(),
            out,
            rounds,
        )
    }

    /// The tournament as the store keeps it (the standings without the time left, which
    /// changes every second).
    pub(super) fn record(&self, now: Instant) -> TournamentRecord {
        let mut view = self.view(now);
        view.row.until = None;
        let (kind, trf) = match &self.run {
            Run::Arena(_) => ("arena", None),
            Run::Swiss(s) => (
                "swiss",
                Some(trf::write(
                    &s.state,
                    &format!("ox88 club tournament {}", self.id),
                )),
            ),
        };
        TournamentRecord {
            id: self.id,
            kind: kind.to_string(),
            spec: self.spec.to_string(),
            clock: self.spec.time_control.to_string(),
            organiser: self.organiser_name.clone(),
            players: self.entrants.len() as u32,
            state: self.phase.to_string(),
            trf,
            standings: view.to_string(),
            games: self
                .games
                .iter()
                .filter(|g| !g.game_id.is_empty())
                .map(|g| g.game_id.clone())
                .collect(),
            runner: self.is_open().then(|| self.snapshot(now)),
        }
    }

    /// What a restart needs to go on with it, as JSON (see [`Snapshot`]).
    pub(super) fn snapshot(&self, now: Instant) -> String {
        let ms = |t: Instant| t.saturating_duration_since(self.epoch).as_millis() as Millis;
        let snapshot = Snapshot {
            id: self.id,
            spec: self.spec,
            organiser: self.organiser.clone(),
            organiser_name: self.organiser_name.clone(),
            at: self.ms(now),
            starts: ms(self.starts),
            phase: self.phase,
            run: self.run.clone(),
            entrants: self.entrants.clone(),
            games: self
                .games
                .iter()
                .map(|g| SavedGame {
                    room: g.room.clone(),
                    game_id: g.game_id.clone(),
                    white: g.white.clone(),
                    black: g.black.clone(),
                    started: ms(g.started),
                    first_move: g.first_move.map(ms),
                    arena: g.arena,
                    result: g.result,
                    double_forfeit: g.double_forfeit,
                    done: g.done,
                })
                .collect(),
        };
        serde_json::to_string(&snapshot).unwrap_or_default()
    }

    /// The tournament a [`Tournament::snapshot`] kept, going on at `now` from where it
    /// stood when saved: its clock resumes there, so the time the server was down is given
    /// back (an arena's end moves by it, a no-show's minute does not run meanwhile). None
    /// when the text is not a snapshot, or `now` is too early on this machine's clock to
    /// count back to the tournament's start (a restart soon after the machine's own).
    pub(super) fn restore(text: &str, now: Instant) -> Option<Tournament> {
        let s: Snapshot = serde_json::from_str(text).ok()?;
        let epoch = now.checked_sub(Duration::from_millis(s.at))?;
        let at = |ms: Millis| epoch + Duration::from_millis(ms);
        Some(Tournament {
            id: s.id,
            spec: s.spec,
            organiser: s.organiser,
            organiser_name: s.organiser_name,
            epoch,
            starts: at(s.starts),
            phase: s.phase,
            run: s.run,
            entrants: s.entrants,
            games: s
                .games
                .into_iter()
                .map(|g| Paired {
                    room: g.room,
                    game_id: g.game_id,
                    white: g.white,
                    black: g.black,
                    started: at(g.started),
                    first_move: g.first_move.map(at),
                    arena: g.arena,
                    result: g.result,
                    double_forfeit: g.double_forfeit,
                    done: g.done,
                })
                .collect(),
            saved: None,
            saved_from: None,
        })
    }

    pub(super) fn ms(&self, now: Instant) -> Millis {
        now.saturating_duration_since(self.epoch).as_millis() as Millis
    }

    pub(super) fn is_open(&self) -> bool {
        self.phase != Phase::Finished
    }

    pub(super) fn entered(&self, member: &str) -> bool {
        self.entrants.iter().any(|m| m.id == member)
    }

    pub(super) fn name_of(&self, member: &str) -> String {
        self.entrants
            .iter()
            .find(|m| m.id == member)
            .map_or_else(|| member.to_string(), |m| m.name.clone())
    }

    pub(super) fn game_by_room(&self, room: &str) -> Option<usize> {
        self.games.iter().rposition(|g| g.room == room && !g.done)
    }

    /// When a scheduled Swiss's next round is due (`swiss … every 20m`): round N no sooner
    /// than (N − 1) intervals after the first began. `None` while a round is being played,
    /// for the first round, or without a schedule.
    pub(super) fn next_round_at(&self) -> Option<Instant> {
        let (
            Kind::Swiss {
                every: Some(every), ..
            },
            Run::Swiss(s),
        ) = (self.spec.kind, &self.run)
        else {
            return None;
        };
        let played = s.state.rounds_played() as u32;
        (s.round.is_none() && played >= 1 && self.phase == Phase::Running)
            .then(|| self.starts + every * played)
    }

    pub(super) fn row(&self, now: Instant) -> TournamentRow {
        let until = match (self.phase, &self.run) {
            (Phase::Starting, _) => Some(self.starts.saturating_duration_since(now)),
            (Phase::Running, Run::Arena(a)) => {
                Some(Duration::from_millis(a.end().saturating_sub(self.ms(now))))
            }
            (Phase::Running, Run::Swiss(_)) => self
                .next_round_at()
                .map(|at| at.saturating_duration_since(now)),
            _ => None,
        };
        TournamentRow {
            id: self.id,
            spec: self.spec.to_string(),
            organiser: self.organiser_name.clone(),
            players: self.entrants.len(),
            phase: self.phase,
            until,
        }
    }

    pub(super) fn view(&self, now: Instant) -> TournamentView {
        let pairings_of = |games: &mut dyn Iterator<Item = &Paired>| -> Vec<PairingRow> {
            games
                .map(|g| PairingRow {
                    white: self.name_of(&g.white),
                    black: self.name_of(&g.black),
                    room: g.room.clone(),
                    result: g.result.map(result_text),
                })
                .collect()
        };
        match &self.run {
            Run::Arena(a) => {
                let all = a.standings();
                let standings = all
                    .iter()
                    .map(|s| StandingRow {
                        rank: s.rank,
                        name: s.name.clone(),
                        rating: s.rating,
                        score: s.score.to_string(),
                        fire: s.fire,
                        sheet: s.sheet.to_string(),
                        tiebreaks: None,
                        playing: s.playing,
                        out: s.paused || s.withdrawn,
                    })
                    .collect();
                let podium = if self.phase == Phase::Finished {
                    a.podium()
                        .into_iter()
                        .map(|s| PodiumRow {
                            place: s.rank,
                            name: s.name,
                            score: s.score.to_string(),
                            games: s.games,
                            wins: s.wins,
                            performance: s.performance,
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                TournamentView {
                    row: self.row(now),
                    round: None,
                    standings,
                    pairings: pairings_of(&mut self.games.iter().filter(|g| !g.done)),
                    podium,
                }
            }
            Run::Swiss(s) => {
                let lines = standings(&s.state);
                let playing = |id: &str| {
                    self.games
                        .iter()
                        .any(|g| !g.done && (g.white == id || g.black == id))
                };
                let rows: Vec<StandingRow> = lines
                    .iter()
                    .map(|l| {
                        let p = s.state.player(l.number);
                        let id = p.map(|p| p.id.as_str()).unwrap_or_default();
                        StandingRow {
                            rank: l.rank,
                            name: l.name.clone(),
                            rating: l.rating,
                            score: points_text(l.score),
                            fire: false,
                            sheet: p.map(round_sheet).unwrap_or_default(),
                            tiebreaks: Some([
                                points_text(l.buchholz_cut1),
                                quarter_text(l.sonneborn_berger),
                                points_text(l.direct_encounter),
                            ]),
                            playing: playing(id),
                            out: l.withdrawn,
                        }
                    })
                    .collect();
                let podium = if self.phase == Phase::Finished {
                    lines
                        .iter()
                        .take(3)
                        .filter_map(|l| {
                            let p = s.state.player(l.number)?;
                            Some(swiss_podium(&s.state, p, l.rank))
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let round = s.state.rounds_played() as u32 + u32::from(s.round.is_some());
                let current: Vec<usize> = s.round.as_ref().map(|r| r.0.clone()).unwrap_or_default();
                TournamentView {
                    row: self.row(now),
                    round: Some((round.max(1), s.state.total_rounds)),
                    standings: rows,
                    pairings: pairings_of(&mut current.iter().map(|&i| &self.games[i])),
                    podium,
                }
            }
        }
    }
}

/// A result from White's side as the pairings show it.
fn result_text(r: GameResult) -> String {
    match r {
        GameResult::Win => "1-0",
        GameResult::Draw => "½-½",
        GameResult::Loss => "0-1",
        GameResult::ForfeitWin => "+ -",
        GameResult::ForfeitLoss => "- +",
    }
    .to_string()
}

/// Quarter points as people write them (Sonneborn-Berger).
fn quarter_text(q: u32) -> String {
    let frac = match q % 4 {
        1 => ".25",
        2 => ".5",
        3 => ".75",
        _ => "",
    };
    format!("{}{frac}", q / 4)
}

/// A Swiss player's rounds, oldest first: `1`, `=`, `0`, a forfeit `+`/`-`, a bye `½`/`U`.
fn round_sheet(p: &SwissPlayer) -> String {
    p.rounds
        .iter()
        .map(|r| match r {
            RoundRecord::Game { result, .. } => match result {
                GameResult::Win => "1",
                GameResult::Draw => "=",
                GameResult::Loss => "0",
                GameResult::ForfeitWin => "+",
                GameResult::ForfeitLoss => "-",
            },
            RoundRecord::Bye(ByeKind::Pairing | ByeKind::Full) => "U",
            RoundRecord::Bye(ByeKind::Half) => "½",
            RoundRecord::Bye(_) => "·",
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A Swiss player on the podium: games played over the board, wins, and the performance
/// rating (the opponents' average, ±400 for each win or loss beyond an even score).
fn swiss_podium(state: &SwissState, p: &SwissPlayer, place: u32) -> PodiumRow {
    let (mut games, mut wins, mut sum, mut margin) = (0u32, 0u32, 0i64, 0i64);
    for r in &p.rounds {
        if let RoundRecord::Game {
            opponent, result, ..
        } = *r
            && result.was_played()
        {
            games += 1;
            sum += state.player(opponent).map_or(0, |o| o.rating) as i64;
            match result {
                GameResult::Win => {
                    wins += 1;
                    margin += 1;
                }
                GameResult::Loss => margin -= 1,
                _ => {}
            }
        }
    }
    let performance = (games > 0).then(|| ((sum + 400 * margin) / games as i64).max(0) as u32);
    PodiumRow {
        place,
        name: p.name.clone(),
        score: points_text(p.score()),
        games,
        wins,
        performance,
    }
}
