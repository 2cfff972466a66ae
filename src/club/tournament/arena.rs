//! An arena tournament as pure data: who entered, the games they played, and the rules that
//! score them, rank them and pair whoever is waiting. Nothing here reads a clock: every call
//! that depends on time takes `now`, milliseconds on the caller's clock (the club passes its
//! own, a test passes whatever it likes), so the club's owner thread drives an [`Arena`] and
//! a test replays one exactly.
//!
//! The rules are lichess's published arena rules, written here from their description:
//! - a win scores 2, a draw 1, a loss 0;
//! - after two wins in a row a player is *on fire*: every game scores double until one that is
//!   not a win (that game already scores single);
//! - berserk, taken before one's own first move, halves one's clock and drops the increment,
//!   and a berserk win of at least [`BERSERK_MIN_MOVES`] of one's own moves earns one point
//!   more (not doubled);
//! - a draw in fewer than [`SHORT_DRAW_MOVES`] moves (full moves, both sides) scores 0;
//! - a game still running when the arena ends finishes, but does not count;
//! - pairings close a little before the end ([`Arena::pairings_close_at`]);
//! - the standings rank by score, then by performance rating.
//!
//! Pairing ([`Arena::pairings`]) is a pure function of the state and `now`: the caller asks
//! whenever someone is waiting (a player who finishes a game is paired again within
//! seconds), starts the games it returns, and asks again later for those left waiting. See
//! [`Arena::pairings`] for how a pool is matched.

use std::fmt;

use crate::chess::Color;

/// Milliseconds on the caller's clock.
pub type Millis = u64;

/// Points for a win (before fire doubles it).
pub const WIN_POINTS: u32 = 2;
/// Points for a draw (before fire doubles it).
pub const DRAW_POINTS: u32 = 1;
/// A berserk winner's own moves needed for the berserk point.
pub const BERSERK_MIN_MOVES: u32 = 7;
/// A draw shorter than this many full moves scores nothing.
pub const SHORT_DRAW_MOVES: u32 = 10;
/// Pairings close at least this long before the end...
pub const CLOSE_MIN_MS: Millis = 30_000;
/// ...and at most this long before it; in between, a tenth of the arena's length.
pub const CLOSE_MAX_MS: Millis = 120_000;
/// Pools up to this size are matched exactly (a dynamic programme over subsets); larger pools
/// by a greedy matching improved by local exchanges (see [`Arena::pairings`]).
pub const EXACT_POOL: usize = 18;

/// Index of a player in [`Arena::players`] (stable: players are never removed).
pub type PlayerIdx = usize;
/// Index of a game in [`Arena::games`] (stable: games are never removed).
pub type GameIdx = usize;

/// An arena's time control: the base time and the increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ArenaClock {
    pub base_ms: Millis,
    pub increment_ms: Millis,
}

impl ArenaClock {
    /// The clock of a player who went berserk: half the base time and no increment.
    pub fn berserk(self) -> ArenaClock {
        ArenaClock {
            base_ms: self.base_ms / 2,
            increment_ms: 0,
        }
    }
}

/// How a game ended, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ArenaResult {
    WhiteWon,
    Drawn,
    BlackWon,
}

impl ArenaResult {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            ArenaResult::WhiteWon => Some(Color::White),
            ArenaResult::BlackWon => Some(Color::Black),
            ArenaResult::Drawn => None,
        }
    }
}

/// Why an arena refused a call. Every refusal says what was wrong and changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArenaError {
    /// No player with this member id has entered.
    UnknownPlayer(String),
    /// No game with this index.
    UnknownGame(GameIdx),
    /// The arena is over: nobody joins and nothing is paired.
    Finished,
    /// Pairings have closed (the arena ends soon).
    PairingsClosed,
    /// The arena has not started yet.
    NotStarted,
    /// This player cannot be paired now (in a game, paused, withdrawn, or paired twice).
    NotWaiting(String),
    /// A player cannot play himself.
    SamePlayer,
    /// The game has already ended.
    GameOver(GameIdx),
    /// Berserk is only allowed before one's own first move.
    TooLateToBerserk,
    /// A result given with a time before the game's start.
    BadTime,
}

impl fmt::Display for ArenaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArenaError::UnknownPlayer(id) => write!(f, "no player {id} in this arena"),
            ArenaError::UnknownGame(g) => write!(f, "no game {g} in this arena"),
            ArenaError::Finished => write!(f, "the arena is over"),
            ArenaError::PairingsClosed => write!(f, "pairings have closed: the arena ends soon"),
            ArenaError::NotStarted => write!(f, "the arena has not started yet"),
            ArenaError::NotWaiting(id) => write!(f, "{id} is not waiting for a pairing"),
            ArenaError::SamePlayer => write!(f, "a player cannot be paired with himself"),
            ArenaError::GameOver(g) => write!(f, "game {g} has already ended"),
            ArenaError::TooLateToBerserk => {
                write!(f, "berserk is only allowed before your first move")
            }
            ArenaError::BadTime => write!(f, "a game cannot end before it starts"),
        }
    }
}

impl std::error::Error for ArenaError {}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArenaPlayer {
    /// Who this is for the caller (the club's member id).
    pub id: String,
    pub name: String,
    /// The rating on entry (ranks the initial pool and weighs the pairing).
    pub rating: u32,
    pub is_bot: bool,
    /// Out of the pairing pool (`:pause`, or disconnected) until joining again.
    pub paused: bool,
    /// Left the arena; joining again brings the player back with the score kept.
    pub withdrawn: bool,
    /// When the player first entered.
    pub joined_at: Millis,
    /// When the player last joined or came back from a pause (waiting since then).
    pub available_since: Millis,
}

/// One game between two entrants.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArenaGame {
    pub white: PlayerIdx,
    pub black: PlayerIdx,
    pub start: Millis,
    /// When it ended; `None` while it runs.
    pub end: Option<Millis>,
    pub result: Option<ArenaResult>,
    /// Who went berserk, by colour (index 0 White, 1 Black).
    pub berserk: [bool; 2],
    /// Half-moves played (the caller keeps it current through [`Arena::set_plies`] or at
    /// the end through [`Arena::finish`]).
    pub plies: u32,
}

impl ArenaGame {
    pub fn is_running(&self) -> bool {
        self.end.is_none()
    }

    /// The colour `player` has in this game, if he plays in it.
    pub fn colour_of(&self, player: PlayerIdx) -> Option<Color> {
        if self.white == player {
            Some(Color::White)
        } else if self.black == player {
            Some(Color::Black)
        } else {
            None
        }
    }

    pub fn player(&self, colour: Color) -> PlayerIdx {
        match colour {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// Moves made by one side so far (White moves on the odd plies).
    pub fn moves_by(&self, colour: Color) -> u32 {
        match colour {
            Color::White => self.plies.div_ceil(2),
            Color::Black => self.plies / 2,
        }
    }
}

/// One game on a player's score sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetEntry {
    /// Points this game earned, fire and berserk included.
    pub points: u32,
    /// Scored double (the player was on fire).
    pub doubled: bool,
    /// Earned the berserk point.
    pub berserk_point: bool,
    /// The game, for a caller that shows it.
    pub game: GameIdx,
}

/// A player's counted games in the order they ended, with the points of each. Its
/// `Display` is lichess's sheet: the points of each game, most recent first (`4422012`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    entries: Vec<SheetEntry>,
    on_fire: bool,
}

impl Sheet {
    /// The games oldest first.
    pub fn entries(&self) -> &[SheetEntry] {
        &self.entries
    }

    pub fn total(&self) -> u32 {
        self.entries.iter().map(|e| e.points).sum()
    }

    /// On fire: the last two counted games were wins, so the next one scores double.
    pub fn on_fire(&self) -> bool {
        self.on_fire
    }
}

impl fmt::Display for Sheet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in self.entries.iter().rev() {
            write!(f, "{}", e.points)?;
        }
        Ok(())
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaStanding {
    /// 1-based; equal scores and performances share no rank (the order is total).
    pub rank: u32,
    pub player: PlayerIdx,
    pub id: String,
    pub name: String,
    pub rating: u32,
    pub is_bot: bool,
    pub score: u32,
    /// Counted games (ended before the arena's end).
    pub games: u32,
    pub wins: u32,
    /// Performance rating over the counted games; `None` before the first.
    pub performance: Option<u32>,
    pub sheet: Sheet,
    pub fire: bool,
    pub playing: bool,
    pub paused: bool,
    pub withdrawn: bool,
}

/// A pairing the caller is asked to start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArenaPairing {
    pub white: PlayerIdx,
    pub black: PlayerIdx,
}

/// An arena: its schedule, clock, entrants and games.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Arena {
    start: Millis,
    duration: Millis,
    clock: ArenaClock,
    players: Vec<ArenaPlayer>,
    games: Vec<ArenaGame>,
}

impl Arena {
    /// An arena starting at `start` and lasting `duration` milliseconds.
    pub fn new(start: Millis, duration: Millis, clock: ArenaClock) -> Arena {
        Arena {
            start,
            duration,
            clock,
            players: Vec::new(),
            games: Vec::new(),
        }
    }

    pub fn start(&self) -> Millis {
        self.start
    }

    pub fn duration(&self) -> Millis {
        self.duration
    }

    pub fn end(&self) -> Millis {
        self.start.saturating_add(self.duration)
    }

    pub fn clock(&self) -> ArenaClock {
        self.clock
    }

    /// How long before the end pairings close: a tenth of the arena, but at least 30 s and
    /// at most 2 min (a player paired at the close still has time for a game).
    pub fn close_margin(&self) -> Millis {
        (self.duration / 10).clamp(CLOSE_MIN_MS, CLOSE_MAX_MS)
    }

    /// From this moment nothing is paired.
    pub fn pairings_close_at(&self) -> Millis {
        self.end().saturating_sub(self.close_margin())
    }

    pub fn is_over(&self, now: Millis) -> bool {
        now >= self.end()
    }

    /// Adds time to the arena (the time a restart lost is given back).
    pub fn extend(&mut self, by: Millis) {
        self.duration = self.duration.saturating_add(by);
    }

    /// Ends the arena at `at` instead (its organiser ends it early): games running then
    /// finish but do not count. Never makes it longer.
    pub fn end_at(&mut self, at: Millis) {
        self.duration = self.duration.min(at.saturating_sub(self.start));
    }

    pub fn players(&self) -> &[ArenaPlayer] {
        &self.players
    }

    pub fn games(&self) -> &[ArenaGame] {
        &self.games
    }

    pub fn player_index(&self, id: &str) -> Option<PlayerIdx> {
        self.players.iter().position(|p| p.id == id)
    }

    fn index_of(&self, id: &str) -> Result<PlayerIdx, ArenaError> {
        self.player_index(id)
            .ok_or_else(|| ArenaError::UnknownPlayer(id.to_string()))
    }

    /// Enters a player, or brings back one who paused or withdrew (score kept; name and
    /// rating as first entered). Refused once the arena is over.
    pub fn join(
        &mut self,
        id: &str,
        name: &str,
        rating: u32,
        is_bot: bool,
        now: Millis,
    ) -> Result<PlayerIdx, ArenaError> {
        if self.is_over(now) {
            return Err(ArenaError::Finished);
        }
        if let Some(i) = self.player_index(id) {
            let p = &mut self.players[i];
            if p.paused || p.withdrawn {
                p.available_since = now;
            }
            p.paused = false;
            p.withdrawn = false;
            return Ok(i);
        }
        self.players.push(ArenaPlayer {
            id: id.to_string(),
            name: name.to_string(),
            rating,
            is_bot,
            paused: false,
            withdrawn: false,
            joined_at: now,
            available_since: now,
        });
        Ok(self.players.len() - 1)
    }

    /// Takes a player out of the pairing pool (`:pause`, or a lost connection). A game he
    /// is playing goes on; he is not paired again until he joins again.
    pub fn pause(&mut self, id: &str) -> Result<(), ArenaError> {
        let i = self.index_of(id)?;
        self.players[i].paused = true;
        Ok(())
    }

    /// The player leaves the arena; his games stay counted.
    pub fn withdraw(&mut self, id: &str) -> Result<(), ArenaError> {
        let i = self.index_of(id)?;
        self.players[i].withdrawn = true;
        Ok(())
    }

    /// The game this player is playing now, if any.
    pub fn current_game(&self, player: PlayerIdx) -> Option<GameIdx> {
        self.games
            .iter()
            .rposition(|g| g.is_running() && g.colour_of(player).is_some())
    }

    /// Is this player in the pairing pool at `now`?
    pub fn is_waiting(&self, player: PlayerIdx, now: Millis) -> bool {
        let Some(p) = self.players.get(player) else {
            return false;
        };
        !p.paused
            && !p.withdrawn
            && now >= self.start
            && now < self.pairings_close_at()
            && self.current_game(player).is_none()
    }

    /// Everyone in the pairing pool at `now`, in player order.
    pub fn waiting(&self, now: Millis) -> Vec<PlayerIdx> {
        (0..self.players.len())
            .filter(|&p| self.is_waiting(p, now))
            .collect()
    }

    /// Starts a game between two waiting players.
    pub fn start_game(
        &mut self,
        pairing: ArenaPairing,
        now: Millis,
    ) -> Result<GameIdx, ArenaError> {
        if self.is_over(now) {
            return Err(ArenaError::Finished);
        }
        if now < self.start {
            return Err(ArenaError::NotStarted);
        }
        if now >= self.pairings_close_at() {
            return Err(ArenaError::PairingsClosed);
        }
        if pairing.white == pairing.black {
            return Err(ArenaError::SamePlayer);
        }
        for p in [pairing.white, pairing.black] {
            match self.players.get(p) {
                None => return Err(ArenaError::UnknownPlayer(format!("#{p}"))),
                Some(player) if !self.is_waiting(p, now) => {
                    return Err(ArenaError::NotWaiting(player.id.clone()));
                }
                Some(_) => {}
            }
        }
        self.games.push(ArenaGame {
            white: pairing.white,
            black: pairing.black,
            start: now,
            end: None,
            result: None,
            berserk: [false; 2],
            plies: 0,
        });
        Ok(self.games.len() - 1)
    }

    fn running_game_mut(&mut self, game: GameIdx) -> Result<&mut ArenaGame, ArenaError> {
        let g = self
            .games
            .get_mut(game)
            .ok_or(ArenaError::UnknownGame(game))?;
        if !g.is_running() {
            return Err(ArenaError::GameOver(game));
        }
        Ok(g)
    }

    /// Keeps the game's half-move count current (berserk looks at it).
    pub fn set_plies(&mut self, game: GameIdx, plies: u32) -> Result<(), ArenaError> {
        self.running_game_mut(game)?.plies = plies;
        Ok(())
    }

    /// `colour` goes berserk in `game`: allowed before that side's first move. Returns the
    /// clock that side now plays with.
    pub fn berserk(&mut self, game: GameIdx, colour: Color) -> Result<ArenaClock, ArenaError> {
        let clock = self.clock;
        let g = self.running_game_mut(game)?;
        if g.moves_by(colour) > 0 {
            return Err(ArenaError::TooLateToBerserk);
        }
        g.berserk[colour.index()] = true;
        Ok(clock.berserk())
    }

    /// The clock a side plays with in `game` (halved after berserk).
    pub fn clock_for(&self, game: GameIdx, colour: Color) -> Option<ArenaClock> {
        let g = self.games.get(game)?;
        Some(if g.berserk[colour.index()] {
            self.clock.berserk()
        } else {
            self.clock
        })
    }

    /// Records the end of a game: its result and the half-moves played.
    pub fn finish(
        &mut self,
        game: GameIdx,
        result: ArenaResult,
        plies: u32,
        now: Millis,
    ) -> Result<(), ArenaError> {
        let g = self.running_game_mut(game)?;
        if now < g.start {
            return Err(ArenaError::BadTime);
        }
        g.end = Some(now);
        g.result = Some(result);
        g.plies = plies;
        Ok(())
    }

    /// Ends a game without a result (it was called off: neither player came, or the server
    /// lost it); it never counts, and both are free to be paired again.
    pub fn cancel(&mut self, game: GameIdx, now: Millis) -> Result<(), ArenaError> {
        let g = self.running_game_mut(game)?;
        g.end = Some(now.max(g.start));
        Ok(())
    }

    /// Does this game count for the standings? It must have ended, and by the arena's end.
    pub fn counts(&self, game: &ArenaGame) -> bool {
        matches!(game.end, Some(end) if end <= self.end()) && game.result.is_some()
    }

    /// The player's counted games, in the order they ended.
    fn counted_games(&self, player: PlayerIdx) -> Vec<GameIdx> {
        let mut list: Vec<GameIdx> = (0..self.games.len())
            .filter(|&g| self.counts(&self.games[g]) && self.games[g].colour_of(player).is_some())
            .collect();
        list.sort_by_key(|&g| (self.games[g].end, g));
        list
    }

    /// The player's score sheet (fire and berserk applied).
    pub fn sheet(&self, player: PlayerIdx) -> Sheet {
        let mut entries = Vec::new();
        let mut streak = 0u32;
        for g in self.counted_games(player) {
            let game = &self.games[g];
            let Some((colour, result)) = game.colour_of(player).zip(game.result) else {
                continue;
            };
            let doubled = streak >= 2;
            let factor = if doubled { 2 } else { 1 };
            let (points, berserk_point) = match result.winner() {
                Some(w) if w == colour => {
                    streak += 1;
                    let bonus =
                        game.berserk[colour.index()] && game.moves_by(colour) >= BERSERK_MIN_MOVES;
                    (WIN_POINTS * factor + u32::from(bonus), bonus)
                }
                Some(_) => {
                    streak = 0;
                    (0, false)
                }
                None => {
                    streak = 0;
                    if game.plies < 2 * SHORT_DRAW_MOVES {
                        (0, false)
                    } else {
                        (DRAW_POINTS * factor, false)
                    }
                }
            };
            entries.push(SheetEntry {
                points,
                doubled,
                berserk_point,
                game: g,
            });
        }
        Sheet {
            entries,
            on_fire: streak >= 2,
        }
    }

    /// Performance over the counted games: the opponents' average rating plus 500 times
    /// (wins − losses) per game, the linear form lichess uses for its arena tie-break.
    pub fn performance(&self, player: PlayerIdx) -> Option<u32> {
        let games = self.counted_games(player);
        if games.is_empty() {
            return None;
        }
        let mut total: i64 = 0;
        for &g in &games {
            let game = &self.games[g];
            let colour = game.colour_of(player)?;
            let opponent = game.player(!colour);
            total += i64::from(self.players.get(opponent).map_or(0, |p| p.rating));
            match game.result.and_then(|r| r.winner()) {
                Some(w) if w == colour => total += 500,
                Some(_) => total -= 500,
                None => {}
            }
        }
        let perf = total / games.len() as i64;
        Some(perf.max(0) as u32)
    }

    /// The standings: by score, then performance, then rating on entry, then entry order.
    pub fn standings(&self) -> Vec<ArenaStanding> {
        let mut rows: Vec<ArenaStanding> = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let sheet = self.sheet(i);
                let wins = sheet
                    .entries()
                    .iter()
                    .filter(|e| {
                        let g = &self.games[e.game];
                        g.result.and_then(|r| r.winner()) == g.colour_of(i)
                    })
                    .count() as u32;
                ArenaStanding {
                    rank: 0,
                    player: i,
                    id: p.id.clone(),
                    name: p.name.clone(),
                    rating: p.rating,
                    is_bot: p.is_bot,
                    score: sheet.total(),
                    games: sheet.entries().len() as u32,
                    wins,
                    performance: self.performance(i),
                    fire: sheet.on_fire(),
                    sheet,
                    playing: self.current_game(i).is_some(),
                    paused: p.paused,
                    withdrawn: p.withdrawn,
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.score
                .cmp(&a.score)
                .then(b.performance.cmp(&a.performance))
                .then(b.rating.cmp(&a.rating))
                .then(a.player.cmp(&b.player))
        });
        for (r, row) in rows.iter_mut().enumerate() {
            row.rank = r as u32 + 1;
        }
        rows
    }

    /// The top three of the standings among those who played a counted game.
    pub fn podium(&self) -> Vec<ArenaStanding> {
        self.standings()
            .into_iter()
            .filter(|s| s.games > 0)
            .take(3)
            .collect()
    }

    /// The opponent of this player's most recent game (by start), if any.
    pub fn last_opponent(&self, player: PlayerIdx) -> Option<PlayerIdx> {
        let g = self
            .games
            .iter()
            .rev()
            .find(|g| g.colour_of(player).is_some())?;
        let colour = g.colour_of(player)?;
        Some(g.player(!colour))
    }

    /// The colours this player had, oldest first.
    pub fn colours(&self, player: PlayerIdx) -> Vec<Color> {
        self.games
            .iter()
            .filter_map(|g| g.colour_of(player))
            .collect()
    }

    /// The pairings for everyone waiting at `now` (nothing before the start or once pairings
    /// have closed). Pure: the caller starts the games with [`Arena::start_game`].
    ///
    /// The pool is matched at minimum cost, with as many pairs as the pool allows:
    /// - two players cost `100·|rank difference| + |rating difference|`, plus 1,000 when
    ///   both have had the same colour twice in a row (one of them would get it a third time);
    /// - two who played each other in their last game cannot meet, unless they are the only
    ///   two waiting;
    /// - one left out costs more the longer he has waited, so an odd one out is the one who
    ///   came back last.
    ///
    /// Pools of up to [`EXACT_POOL`] players are solved exactly by a dynamic programme over
    /// subsets (the lowest unpaired player is paired or left out: 2ⁿ states, n choices).
    /// Larger pools (an arena's pool is rarely so large, the players being mostly in games)
    /// start from a greedy matching and improve it by exchanges between two pairs or a pair
    /// and an unpaired player until none lowers the cost: not always optimal, but every pair
    /// still obeys the rematch rule and the cardinality is maximal among what exchanges reach.
    pub fn pairings(&self, now: Millis) -> Vec<ArenaPairing> {
        let pool = self.waiting(now);
        if pool.len() < 2 {
            return Vec::new();
        }
        let costs = PoolCosts::new(self, &pool, now);
        let mates = if pool.len() <= EXACT_POOL {
            exact_matching(&costs)
        } else {
            improved_matching(&costs)
        };
        let mut out = Vec::new();
        for (i, mate) in mates.iter().enumerate() {
            if let Some(j) = *mate
                && i < j
                && costs.allowed(i, j)
            {
                out.push(self.colour_pair(pool[i], pool[j]));
            }
        }
        out
    }

    /// Gives White to the one who needs it: a player who had one colour in his last two
    /// games gets the other; otherwise the one who had Black more often, then the one whose
    /// last game was Black, then the higher ranked (the first given).
    fn colour_pair(&self, a: PlayerIdx, b: PlayerIdx) -> ArenaPairing {
        let (ca, cb) = (self.colours(a), self.colours(b));
        let must = |c: &[Color]| match c {
            [.., x, y] if x == y => Some(!*y),
            _ => None,
        };
        let balance = |c: &[Color]| {
            c.iter()
                .map(|&x| if x == Color::Black { 1i32 } else { -1 })
                .sum::<i32>()
        };
        let a_white =
            match (must(&ca), must(&cb)) {
                (Some(x), Some(y)) if x != y => x == Color::White,
                (Some(x), None) => x == Color::White,
                (None, Some(y)) => y == Color::Black,
                _ => {
                    let (ba, bb) = (balance(&ca), balance(&cb));
                    if ba != bb {
                        ba > bb
                    } else {
                        match (ca.last(), cb.last()) {
                            (Some(Color::Black), Some(Color::White))
                            | (Some(Color::Black), None) => true,
                            (Some(Color::White), Some(Color::Black))
                            | (None, Some(Color::Black)) => false,
                            _ => true,
                        }
                    }
                }
            };
        if a_white {
            ArenaPairing { white: a, black: b }
        } else {
            ArenaPairing { white: b, black: a }
        }
    }
}

/// Cost of leaving one player out: above any pair's cost, so the matching pairs as many as
/// it can; plus [`WAIT_WEIGHT`] per second he has waited (capped at a day), so the longest
/// waiting are paired first.
const LEAVE_OUT: u64 = 10_000_000;
/// Ten per second: a minute's wait outweighs six places of rank.
const WAIT_WEIGHT: u64 = 10;
/// A pair that must not meet (immediate rematch): more than leaving both out.
const FORBIDDEN: u64 = 1_000_000_000;
const SAME_COLOUR_THIRD: u64 = 1_000;

/// The cost of each pair of a pool and of leaving each one out, by pool position.
struct PoolCosts {
    n: usize,
    pair: Vec<u64>,
    leave: Vec<u64>,
}

impl PoolCosts {
    fn new(arena: &Arena, pool: &[PlayerIdx], now: Millis) -> PoolCosts {
        let standings = arena.standings();
        let mut rank = vec![0u64; arena.players.len()];
        for s in &standings {
            rank[s.player] = u64::from(s.rank);
        }
        let n = pool.len();
        let last: Vec<Option<PlayerIdx>> = pool.iter().map(|&p| arena.last_opponent(p)).collect();
        let twice: Vec<Option<Color>> = pool
            .iter()
            .map(|&p| match arena.colours(p).as_slice() {
                [.., x, y] if x == y => Some(*y),
                _ => None,
            })
            .collect();
        let mut pair = vec![0u64; n * n];
        for i in 0..n {
            for j in 0..n {
                let (a, b) = (pool[i], pool[j]);
                let rematch = last[i] == Some(b) || last[j] == Some(a);
                pair[i * n + j] = if i == j || (rematch && n > 2) {
                    FORBIDDEN
                } else {
                    let (ra, rb) = (&arena.players[a], &arena.players[b]);
                    let mut c =
                        100 * rank[a].abs_diff(rank[b]) + u64::from(ra.rating.abs_diff(rb.rating));
                    if twice[i].is_some() && twice[i] == twice[j] {
                        c += SAME_COLOUR_THIRD;
                    }
                    c
                };
            }
        }
        let leave = pool
            .iter()
            .map(|&p| {
                let since = arena.waiting_since(p);
                LEAVE_OUT + WAIT_WEIGHT * (now.saturating_sub(since) / 1000).min(86_400)
            })
            .collect();
        PoolCosts { n, pair, leave }
    }

    fn cost(&self, i: usize, j: usize) -> u64 {
        self.pair[i * self.n + j]
    }

    fn allowed(&self, i: usize, j: usize) -> bool {
        self.cost(i, j) < FORBIDDEN
    }

    /// Total cost of a matching given as each position's mate.
    fn total(&self, mates: &[Option<usize>]) -> u64 {
        let mut t = 0;
        for (i, m) in mates.iter().enumerate() {
            match m {
                Some(j) if i < *j => t += self.cost(i, *j),
                Some(_) => {}
                None => t += self.leave[i],
            }
        }
        t
    }
}

impl Arena {
    /// When this player became free to be paired: his last game's end, or his joining.
    fn waiting_since(&self, player: PlayerIdx) -> Millis {
        let last_end = self
            .games
            .iter()
            .filter(|g| g.colour_of(player).is_some())
            .filter_map(|g| g.end)
            .max()
            .unwrap_or(0);
        let joined = self.players.get(player).map_or(0, |p| p.available_since);
        last_end.max(joined)
    }
}

/// Minimum-cost matching by a dynamic programme over the subsets still to place.
fn exact_matching(c: &PoolCosts) -> Vec<Option<usize>> {
    let n = c.n;
    let full = (1usize << n) - 1;
    // best[mask]: least cost to place the players not in `mask`; choice: the mate (or none)
    // of the lowest such player.
    let mut best = vec![u64::MAX; 1 << n];
    let mut choice = vec![usize::MAX; 1 << n];
    best[full] = 0;
    for mask in (0..full).rev() {
        let i = (!mask).trailing_zeros() as usize;
        let with_i = mask | (1 << i);
        let mut b = best[with_i].saturating_add(c.leave[i]);
        let mut ch = usize::MAX;
        for j in i + 1..n {
            if mask & (1 << j) == 0 && c.allowed(i, j) {
                let v = best[with_i | (1 << j)].saturating_add(c.cost(i, j));
                if v < b {
                    b = v;
                    ch = j;
                }
            }
        }
        best[mask] = b;
        choice[mask] = ch;
    }
    let mut mates = vec![None; n];
    let mut mask = 0usize;
    while mask != full {
        let i = (!mask).trailing_zeros() as usize;
        let j = choice[mask];
        mask |= 1 << i;
        if j != usize::MAX {
            mates[i] = Some(j);
            mates[j] = Some(i);
            mask |= 1 << j;
        }
    }
    mates
}

/// A greedy matching (cheapest allowed pairs first), then exchanges while one lowers the
/// cost: two pairs swap partners, a pair takes in an unpaired player, or two unpaired ones
/// pair up.
fn improved_matching(c: &PoolCosts) -> Vec<Option<usize>> {
    let n = c.n;
    let mut edges: Vec<(u64, usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .filter(|&(i, j)| c.allowed(i, j))
        .map(|(i, j)| (c.cost(i, j), i, j))
        .collect();
    edges.sort_unstable();
    let mut mates: Vec<Option<usize>> = vec![None; n];
    for (_, i, j) in edges {
        if mates[i].is_none() && mates[j].is_none() {
            mates[i] = Some(j);
            mates[j] = Some(i);
        }
    }
    let mut current = c.total(&mates);
    loop {
        let mut improved = false;
        for x in 0..n {
            for y in x + 1..n {
                if mates[x] == Some(y) {
                    continue;
                }
                for candidate in exchanges(c, &mates, x, y) {
                    if candidate.iter().enumerate().any(|(i, m)| match m {
                        Some(j) => !c.allowed(i, *j),
                        None => false,
                    }) {
                        continue;
                    }
                    let t = c.total(&candidate);
                    if t < current {
                        current = t;
                        mates = candidate;
                        improved = true;
                        break;
                    }
                }
            }
        }
        if !improved {
            return mates;
        }
    }
}

/// The matchings one exchange away that pair `x` with `y`: their former mates freed, paired
/// with each other, or each paired with a player left out (a short augmenting path, which
/// is how an exchange can add a pair).
fn exchanges(
    c: &PoolCosts,
    mates: &[Option<usize>],
    x: usize,
    y: usize,
) -> Vec<Vec<Option<usize>>> {
    let mut out = Vec::new();
    let mut m = mates.to_vec();
    let (a, b) = (mates[x], mates[y]);
    if let Some(a) = a {
        m[a] = None;
    }
    if let Some(b) = b {
        m[b] = None;
    }
    m[x] = Some(y);
    m[y] = Some(x);
    out.push(m.clone());
    if let (Some(a), Some(b)) = (a, b) {
        let mut both = m.clone();
        both[a] = Some(b);
        both[b] = Some(a);
        out.push(both);
    }
    let mut refilled = m;
    for freed in [a, b].into_iter().flatten() {
        let best = (0..c.n)
            .filter(|&u| u != freed && refilled[u].is_none() && refilled[freed].is_none())
            .filter(|&u| c.allowed(freed, u))
            .min_by_key(|&u| c.cost(freed, u));
        if let Some(u) = best {
            refilled[freed] = Some(u);
            refilled[u] = Some(freed);
        }
    }
    out.push(refilled);
    out
}
