//! Tournaments run by the club's owner: created, joined, paused and left by members, their
//! games seated in rooms made the way every game's room is made ([`Owner::open_room`], the
//! players entered as a challenge's are), scored from the room's own end of the game (the
//! same place that saves it and rates it), and advanced on the club's tick.
//!
//! The rules themselves are pure and live in `club::tournament`: an [`Arena`] says who is
//! waiting and whom to pair, a [`SwissState`] is paired by the FIDE Dutch system. This file
//! is the glue: time as the club reads it (an arena counts milliseconds from the moment it
//! was created), members online or not, rooms opened and called off.
//!
//! - Arena: whoever is waiting is paired on the next tick (the server ticks ten times a
//!   second, so a player who finishes is paired again at once); a player whose last session
//!   goes is paused; games running at the end finish and do not count.
//! - Swiss: a round is paired when the last game of the one before ends; a player who has
//!   not made their first move within [`FORFEIT_AFTER`] of the game's start (Black: of
//!   White's first move) loses by forfeit, and is withdrawn after [`FORFEITS_WITHDRAWN`];
//!   one who joins late has a half-point bye for each round missed, until half the rounds
//!   have started.

use std::collections::HashMap;
use std::time::Instant;

use super::owner::Owner;
use super::shown;
use super::tournament_state::{
    FIRST_ROUND_WAIT, FORFEIT_AFTER, FORFEITS_WITHDRAWN, Paired, Phase, Run, Swiss, Tournament,
    TournamentRow, TournamentView,
};
use crate::chess::Color;
use crate::club::room::{Finished, Room};
use crate::club::tournament::arena::{Arena, ArenaClock, ArenaResult, Millis};
use crate::club::tournament::spec::{Kind, Spec};
use crate::club::tournament::{Board, ByeKind, GameResult, Pairing, SwissState, pair_round};
use crate::club::{ClubError, Member};

impl Owner {
    /// Tournament ids go on after `last` (the highest the store keeps): an id is never
    /// given twice, across restarts too.
    pub(super) fn tournaments_after(&mut self, last: u32) {
        self.tournaments.next_id = self.tournaments.next_id.max(last);
    }

    /// Tournaments a restart goes on with (see `Club::with_clock`).
    pub(super) fn tournaments_restored(&mut self, list: Vec<Tournament>) {
        self.tournaments.list.extend(list);
    }

    /// Every open tournament as it stands now goes to the writer (the server is stopping:
    /// a restart goes on from here, with the time it was down given back).
    pub(super) fn save_open_tournaments(&mut self, now: Instant) {
        let records: Vec<_> = self
            .tournaments
            .list
            .iter()
            .filter(|t| t.is_open())
            .map(|t| t.record(now))
            .collect();
        for record in records {
            self.writer.post(move |store| {
                if let Err(e) = store.save_tournament(&record) {
                    eprintln!("ox88 serve: {e}");
                }
            });
        }
    }

    /// Each tournament that changed since it was last saved goes to the writer.
    fn save_tournaments(&mut self, now: Instant) {
        let mut writes = Vec::new();
        for t in &mut self.tournaments.list {
            let print = t.fingerprint();
            if t.saved_from == Some(print) {
                continue;
            }
            t.saved_from = Some(print);
            let record = t.record(now);
            if t.saved.as_ref() != Some(&record) {
                t.saved = Some(record.clone());
                writes.push(record);
            }
        }
        for record in writes {
            self.writer.post(move |store| {
                if let Err(e) = store.save_tournament(&record) {
                    eprintln!("ox88 serve: {e}");
                }
            });
        }
    }

    // ---- what members ask ---------------------------------------------------------------

    /// Viewer `id` creates a tournament: it starts at once or when the spec says. The
    /// organiser plays only after joining; `bots` enters every bot online.
    pub(super) fn tournament_create(&mut self, id: u64, spec: Spec) -> Result<u32, ClubError> {
        let Some(e) = self.viewers.get(&id) else {
            return Err(ClubError::new("you have left the club"));
        };
        if !e.member.rated {
            return Err(ClubError::new(
                "tournaments are made by members with a key: an open visitor may join one",
            ));
        }
        let organiser = e.member.clone();
        let open = self.tournaments.list.iter().filter(|t| t.is_open()).count();
        if open >= self.limits.max_tournaments {
            return Err(ClubError::new(format!(
                "the club runs as many tournaments as it may ({}): join one, or try again \
                 when one ends",
                self.limits.max_tournaments
            )));
        }
        let now = self.now();
        self.tournaments.next_id += 1;
        let tid = self.tournaments.next_id;
        let tc = spec.time_control;
        let run = match spec.kind {
            Kind::Arena { duration } => Run::Arena(Box::new(Arena::new(
                spec.starts_in.as_millis() as Millis,
                duration.as_millis() as Millis,
                ArenaClock {
                    base_ms: tc.base.as_millis() as Millis,
                    increment_ms: tc.increment.as_millis() as Millis,
                },
            ))),
            Kind::Swiss { rounds, .. } => Run::Swiss(Box::new(Swiss {
                state: SwissState::new(rounds),
                round: None,
                forfeits: HashMap::new(),
            })),
        };
        self.tournaments.list.push(Tournament {
            id: tid,
            spec,
            organiser: organiser.id.clone(),
            organiser_name: organiser.name.clone(),
            epoch: now,
            starts: now + spec.starts_in,
            phase: Phase::Starting,
            run,
            entrants: Vec::new(),
            games: Vec::new(),
            saved: None,
            saved_from: None,
        });
        if spec.bots {
            let mut bots: Vec<u64> = self
                .viewers
                .iter()
                .filter(|(_, e)| e.member.is_bot())
                .map(|(&v, _)| v)
                .collect();
            bots.sort_unstable();
            for bot in bots {
                // A bot with two sessions is entered once; a full tournament stops here.
                let _ = self.tournament_join(bot, Some(tid));
            }
        }
        self.lobby_changed();
        self.tournaments_tick(now);
        Ok(tid)
    }

    /// The tournament `asked`, or the only one open when none is said.
    fn tournament_index(&self, asked: Option<u32>) -> Result<usize, ClubError> {
        if let Some(tid) = asked {
            return self
                .tournaments
                .list
                .iter()
                .position(|t| t.id == tid)
                .ok_or_else(|| ClubError::new(format!("there is no tournament {tid}")));
        }
        let open: Vec<usize> = (0..self.tournaments.list.len())
            .filter(|&i| self.tournaments.list[i].is_open())
            .collect();
        match open.as_slice() {
            [i] => Ok(*i),
            [] => Err(ClubError::new(
                "no tournament is open: `:tournament arena 3+0 30m` makes one",
            )),
            _ => Err(ClubError::new(format!(
                "say which tournament: {}",
                open.iter()
                    .map(|&i| self.tournaments.list[i].id.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }

    /// The tournament `asked` that viewer `id`'s member has entered, or the only open one
    /// they have.
    fn my_tournament(&self, id: u64, asked: Option<u32>) -> Result<(usize, Member), ClubError> {
        let Some(e) = self.viewers.get(&id) else {
            return Err(ClubError::new("you have left the club"));
        };
        let member = e.member.clone();
        if asked.is_some() {
            let i = self.tournament_index(asked)?;
            if !self.tournaments.list[i].entered(&member.id) {
                return Err(ClubError::new("you have not joined that tournament"));
            }
            return Ok((i, member));
        }
        let mine: Vec<usize> = (0..self.tournaments.list.len())
            .filter(|&i| {
                let t = &self.tournaments.list[i];
                t.is_open() && t.entered(&member.id)
            })
            .collect();
        match mine.as_slice() {
            [i] => Ok((*i, member)),
            [] => Err(ClubError::new("you are in no tournament that is open")),
            _ => Err(ClubError::new("you are in several tournaments: say which")),
        }
    }

    /// Viewer `id` joins tournament `asked` (or the only one open), or comes back to an
    /// arena after `:pause`.
    pub(super) fn tournament_join(
        &mut self,
        id: u64,
        asked: Option<u32>,
    ) -> Result<u32, ClubError> {
        let i = self.tournament_index(asked)?;
        let Some(e) = self.viewers.get(&id) else {
            return Err(ClubError::new("you have left the club"));
        };
        let member = e.member.clone();
        let rating = if member.rated { shown(&e.rating) } else { 1500 };
        let cap = self.limits.tournament_players;
        let now = self.now();
        let t = &mut self.tournaments.list[i];
        let tid = t.id;
        if !t.is_open() {
            return Err(ClubError::new(format!("tournament {tid} is finished")));
        }
        let returning = t.entered(&member.id);
        if !returning && t.entrants.len() >= cap {
            return Err(ClubError::new(format!(
                "tournament {tid} has as many players as it may ({cap})"
            )));
        }
        let ms = t.ms(now);
        let said = match &mut t.run {
            Run::Arena(a) => {
                a.join(&member.id, &member.name, rating, member.is_bot(), ms)
                    .map_err(|e| ClubError::new(e.to_string()))?;
                if returning {
                    format!("back in tournament {tid}: you are paired as soon as you can be")
                } else {
                    format!("you joined tournament {tid}")
                }
            }
            Run::Swiss(s) => {
                if returning {
                    return Err(ClubError::new(format!(
                        "you are already in tournament {tid} (a Swiss player who withdrew \
                         does not come back)"
                    )));
                }
                let started = s.state.rounds_played() as u32 + u32::from(s.round.is_some());
                if started * 2 > s.state.total_rounds {
                    return Err(ClubError::new(format!(
                        "tournament {tid} is past half its rounds: too late to join"
                    )));
                }
                let number = s
                    .state
                    .enter_member(&member.id, &member.name, rating, ByeKind::Half);
                if s.round.is_some() {
                    // The round being played is missed too: half a point for it.
                    s.state.sitting_out.push((number, ByeKind::Half));
                }
                if started > 0 {
                    format!(
                        "you joined tournament {tid}: half a point for each round missed, \
                         paired from the next"
                    )
                } else {
                    format!("you joined tournament {tid}")
                }
            }
        };
        if !returning {
            t.entrants.push(member);
        }
        self.lobby_changed();
        self.notice(id, said);
        self.save_tournaments(now);
        Ok(tid)
    }

    /// Viewer `id` pauses in their arena: not paired until `:tournament join`.
    pub(super) fn tournament_pause(&mut self, id: u64) -> Result<u32, ClubError> {
        let (i, member) = self.my_tournament(id, None)?;
        let t = &mut self.tournaments.list[i];
        let Run::Arena(a) = &mut t.run else {
            return Err(ClubError::new(
                "a Swiss has no pause: `:tournament leave` withdraws",
            ));
        };
        a.pause(&member.id)
            .map_err(|e| ClubError::new(e.to_string()))?;
        let tid = t.id;
        self.lobby_changed();
        Ok(tid)
    }

    /// Viewer `id` withdraws from tournament `asked` (or their only one). Games already
    /// played stay counted; a game going on is played out.
    pub(super) fn tournament_leave(
        &mut self,
        id: u64,
        asked: Option<u32>,
    ) -> Result<u32, ClubError> {
        let (i, member) = self.my_tournament(id, asked)?;
        let t = &mut self.tournaments.list[i];
        match &mut t.run {
            Run::Arena(a) => a
                .withdraw(&member.id)
                .map_err(|e| ClubError::new(e.to_string()))?,
            Run::Swiss(s) => {
                if let Some(p) = s.state.players.iter_mut().find(|p| p.id == member.id) {
                    p.withdrawn = true;
                }
            }
        }
        let tid = t.id;
        self.lobby_changed();
        let now = self.now();
        self.save_tournaments(now);
        Ok(tid)
    }

    /// The organiser ends tournament `asked` (or the only one open) now.
    pub(super) fn tournament_end(&mut self, id: u64, asked: Option<u32>) -> Result<u32, ClubError> {
        let i = self.tournament_index(asked)?;
        let member = self
            .viewers
            .get(&id)
            .map(|e| e.member.id.clone())
            .unwrap_or_default();
        let t = &self.tournaments.list[i];
        if t.organiser != member {
            return Err(ClubError::new(format!(
                "only its organiser, {}, ends tournament {}",
                t.organiser_name, t.id
            )));
        }
        if !t.is_open() {
            return Err(ClubError::new(format!("tournament {} is finished", t.id)));
        }
        let now = self.now();
        let tid = t.id;
        let mut t = self.tournaments.list.remove(i);
        self.finish_tournament(&mut t, now, "its organiser ended it");
        self.tournaments.list.insert(i, t);
        self.save_tournaments(now);
        Ok(tid)
    }

    /// Viewer `id` goes berserk in their arena game: half the clock, no increment, one
    /// point more for a win of at least seven moves. Before their first move only.
    pub(super) fn tournament_berserk(&mut self, id: u64) -> Result<String, ClubError> {
        let Some(room) = self.room_name(id) else {
            return Err(ClubError::new(
                "berserk is for an arena game: you are in the lobby",
            ));
        };
        let member = self.viewers[&id].member.id.clone();
        let found = self.tournaments.list.iter().enumerate().find_map(|(i, t)| {
            let g = t.game_by_room(&room)?;
            matches!(t.run, Run::Arena(_)).then_some((i, g))
        });
        let Some((i, g)) = found else {
            return Err(ClubError::new(
                "berserk is for an arena game, and this is none",
            ));
        };
        let r = self
            .rooms
            .get_mut(&room)
            .ok_or_else(|| ClubError::new("the room is gone"))?;
        let plies = r.plies() as u32;
        // The room checks first (is it a player, before their move?): it refuses alike.
        let colour = r.berserk(&member)?;
        let t = &mut self.tournaments.list[i];
        if let (Run::Arena(a), Some(ag)) = (&mut t.run, t.games[g].arena) {
            let _ = a.set_plies(ag, plies);
            let _ = a.berserk(ag, colour);
        }
        let name = self.name_of(id);
        let text = format!("{name} goes berserk: half the clock, no increment");
        let inside: Vec<u64> = self
            .viewers
            .iter()
            .filter(|(_, e)| e.room.as_deref() == Some(room.as_str()))
            .map(|(&v, _)| v)
            .collect();
        for v in inside {
            if v != id {
                self.notice(v, text.clone());
            }
        }
        self.room_changed(&room);
        Ok(
            "berserk: half your clock, no increment; a win of 7 moves or more earns a point more"
                .to_string(),
        )
    }

    /// The tournaments as the lobby lists them, newest first.
    pub(super) fn tournament_rows(&self, now: Instant) -> Vec<TournamentRow> {
        let mut rows: Vec<TournamentRow> =
            self.tournaments.list.iter().map(|t| t.row(now)).collect();
        rows.reverse();
        rows
    }

    /// Tournament `asked` (or the viewer's own, or the only open one) as its standings
    /// pane draws it.
    pub(super) fn tournament_view(
        &self,
        id: u64,
        asked: Option<u32>,
        now: Instant,
    ) -> Result<TournamentView, ClubError> {
        let i = match asked {
            Some(_) => self.tournament_index(asked)?,
            None => self
                .my_tournament(id, None)
                .map(|(i, _)| i)
                .or_else(|_| self.tournament_index(None))?,
        };
        Ok(self.tournaments.list[i].view(now))
    }

    // ---- what the club's own events do ----------------------------------------------------

    /// A game ended in its room (the place that saves and rates it): a tournament's game is
    /// scored. Its players are paired again on the next tick.
    pub(super) fn tournament_game_over(&mut self, f: &Finished) {
        let now = self.now();
        let plies = self
            .rooms
            .get(&f.record.room)
            .map_or(0, |r| r.plies() as u32);
        let result = if f.white_score > 0.75 {
            GameResult::Win
        } else if f.white_score < 0.25 {
            GameResult::Loss
        } else {
            GameResult::Draw
        };
        for t in &mut self.tournaments.list {
            let Some(g) = t
                .games
                .iter()
                .position(|g| g.game_id == f.record.id && !g.done)
            else {
                continue;
            };
            let ms = t.ms(now);
            let game = &mut t.games[g];
            game.done = true;
            game.result = Some(result);
            if let (Run::Arena(a), Some(ag)) = (&mut t.run, game.arena) {
                let r = match result {
                    GameResult::Win => ArenaResult::WhiteWon,
                    GameResult::Loss => ArenaResult::BlackWon,
                    _ => ArenaResult::Drawn,
                };
                let _ = a.finish(ag, r, plies, ms);
            }
            self.lobby_changed();
            return;
        }
    }

    /// The last session of `member` went: paused in every arena they are in (never paired
    /// while away).
    pub(super) fn tournament_member_gone(&mut self, member: &str) {
        if self.viewers.values().any(|e| e.member.id == member) {
            return;
        }
        for t in &mut self.tournaments.list {
            if let (true, Run::Arena(a)) = (t.is_open(), &mut t.run)
                && a.player_index(member).is_some()
            {
                let _ = a.pause(member);
            }
        }
    }

    /// Is `member` in a tournament that is open, waiting for a game (the idle timeout
    /// leaves such a session alone)?
    pub(super) fn tournament_waits_for(&self, member: &str) -> bool {
        self.tournaments
            .list
            .iter()
            .any(|t| t.is_open() && t.entered(member))
    }

    /// Time passes for every tournament: one starts, an arena pairs whoever waits and ends,
    /// a Swiss scores its forfeits and pairs its next round.
    pub(super) fn tournaments_tick(&mut self, now: Instant) {
        let mut list = std::mem::take(&mut self.tournaments.list);
        for t in list.iter_mut().filter(|t| t.is_open()) {
            if t.phase == Phase::Starting {
                if now < t.starts {
                    continue;
                }
                t.phase = Phase::Running;
                self.lobby_changed();
            }
            self.games_gone(t, now);
            match t.run {
                Run::Arena(_) => self.arena_step(t, now),
                Run::Swiss(_) => self.swiss_step(t, now),
            }
        }
        // A tournament made during this tick (none is) would be kept too.
        list.append(&mut self.tournaments.list);
        self.tournaments.list = list;
        self.save_tournaments(now);
    }

    /// Games whose room went without a result (the server could not keep them, both
    /// players away too long): an arena does not count them; in a Swiss the side to move
    /// loses by forfeit (its clock was the one running).
    fn games_gone(&mut self, t: &mut Tournament, now: Instant) {
        let ms = t.ms(now);
        for g in t.games.iter_mut().filter(|g| !g.done) {
            let over = match self.rooms.get_mut(&g.room) {
                // Kept adjourned (both away, or the server restarted): it goes on when a
                // player is back.
                None => !self.adjourned.iter().any(|a| a.record.id == g.game_id),
                Some(r) => {
                    let gone = r.game_id() != g.game_id || r.is_aborted();
                    if !gone {
                        // Resumed after a restart as a plain room: the tournament's again.
                        r.mark_tournament();
                    }
                    gone
                }
            };
            if !over {
                continue;
            }
            g.done = true;
            match (&mut t.run, g.arena) {
                (Run::Arena(a), Some(ag)) => {
                    let _ = a.cancel(ag, ms);
                }
                _ => {
                    let white_to_move = g.first_move.is_none();
                    g.result = Some(if white_to_move {
                        GameResult::ForfeitLoss
                    } else {
                        GameResult::ForfeitWin
                    });
                }
            }
            self.lobby_changed();
        }
    }

    /// An arena's tick: over at its end; else whoever waits is paired.
    fn arena_step(&mut self, t: &mut Tournament, now: Instant) {
        self.arena_no_shows(t, now);
        let ms = t.ms(now);
        let Run::Arena(a) = &t.run else {
            return;
        };
        if a.is_over(ms) {
            self.finish_tournament(t, now, "its time is up");
            return;
        }
        let everyone_left = !a.players().is_empty() && a.players().iter().all(|p| p.withdrawn);
        if everyone_left && t.games.iter().all(|g| g.done) {
            self.finish_tournament(t, now, "nobody is left in it");
            return;
        }
        // Only those online and with no other game of their own are paired.
        let busy: Vec<usize> = (0..a.players().len())
            .filter(|&p| {
                let id = &a.players()[p].id;
                let online = self.viewers.values().any(|e| &e.member.id == id);
                !online || self.game_of(id).is_some()
            })
            .collect();
        let pairings = a.pairings(ms);
        for pairing in pairings {
            if busy.contains(&pairing.white) || busy.contains(&pairing.black) {
                continue;
            }
            let Run::Arena(a) = &t.run else {
                return;
            };
            let (w, b) = (
                a.players()[pairing.white].id.clone(),
                a.players()[pairing.black].id.clone(),
            );
            let Some(mut paired) = self.seat_pairing(t, &w, &b, now) else {
                // No room for another game just now: tried again on the next tick.
                return;
            };
            let Run::Arena(a) = &mut t.run else {
                return;
            };
            match a.start_game(pairing, ms) {
                Ok(ag) => {
                    paired.arena = Some(ag);
                    t.games.push(paired);
                }
                Err(_) => {
                    // The arena refused what it proposed (it cannot): the room is called off.
                    self.call_off(&paired.room, now, "the pairing was withdrawn");
                }
            }
        }
    }

    /// An arena game whose side to move has not made its first move within
    /// [`FORFEIT_AFTER`] (White from the pairing, Black from White's first move) is lost by
    /// that side, and the room closed: the opponent is free to be paired again at once, and
    /// the one who did not move is paused until `:tournament join`.
    fn arena_no_shows(&mut self, t: &mut Tournament, now: Instant) {
        let ms = t.ms(now);
        let mut lost: Vec<(String, String)> = Vec::new();
        for g in t.games.iter_mut().filter(|g| !g.done) {
            let Some(r) = self.rooms.get(&g.room) else {
                continue;
            };
            let plies = r.plies() as u32;
            if plies >= 1 && g.first_move.is_none() {
                g.first_move = Some(now);
            }
            let late = |since: Instant| now.saturating_duration_since(since) >= FORFEIT_AFTER;
            let (result, loser) = match (plies, g.first_move) {
                (0, _) if late(g.started) => (ArenaResult::BlackWon, g.white.clone()),
                (1, Some(first)) if late(first) => (ArenaResult::WhiteWon, g.black.clone()),
                _ => continue,
            };
            if let (Run::Arena(a), Some(ag)) = (&mut t.run, g.arena) {
                let _ = a.finish(ag, result, plies, ms);
                let _ = a.pause(&loser);
            }
            g.done = true;
            g.result = Some(if result == ArenaResult::WhiteWon {
                GameResult::Win
            } else {
                GameResult::Loss
            });
            lost.push((g.room.clone(), loser));
        }
        for (room, loser) in lost {
            let why = format!(
                "tournament {}: {} did not move within {} s and lost the game",
                t.id,
                t.name_of(&loser),
                FORFEIT_AFTER.as_secs()
            );
            self.call_off(&room, now, &why);
            let text = format!(
                "tournament {}: paused for not moving (:tournament join {} comes back)",
                t.id, t.id
            );
            self.tell(vec![(loser, text)]);
            self.lobby_changed();
        }
    }

    /// A Swiss's tick: forfeits scored; a round all of whose games are over recorded; the
    /// next round paired, or the tournament finished.
    fn swiss_step(&mut self, t: &mut Tournament, now: Instant) {
        self.swiss_forfeits(t, now);
        let Run::Swiss(s) = &mut t.run else {
            return;
        };
        let round_over = s
            .round
            .as_ref()
            .map(|(games, _)| games.iter().all(|&g| t.games[g].done));
        if round_over == Some(false) {
            return;
        }
        if round_over == Some(true) {
            let (games, bye) = s.round.take().unwrap_or_default();
            let number = |id: &str| s.state.number_of(id);
            let mut pairing = Pairing {
                round: s.state.next_round(),
                boards: Vec::new(),
                bye: bye.as_deref().and_then(number),
            };
            let mut results = Vec::new();
            let mut zero = Vec::new();
            for &g in &games {
                let game = &t.games[g];
                let (Some(w), Some(b)) = (number(&game.white), number(&game.black)) else {
                    continue;
                };
                if game.double_forfeit {
                    zero.extend([w, b]);
                    continue;
                }
                pairing.boards.push(Board { white: w, black: b });
                results.push(game.result.unwrap_or(GameResult::Draw));
            }
            for n in zero {
                s.state.sitting_out.push((n, ByeKind::Zero));
            }
            if let Err(e) = s.state.record_round(&pairing, &results) {
                eprintln!("ox88 serve: tournament {}: {e}", t.id);
            }
            self.lobby_changed();
        }
        let Run::Swiss(s) = &mut t.run else {
            return;
        };
        let left = s.state.players.iter().filter(|p| !p.withdrawn).count();
        if s.state.rounds_played() as u32 >= s.state.total_rounds {
            self.finish_tournament(t, now, "its last round is over");
            return;
        }
        if left < 2 && s.state.rounds_played() == 0 {
            // Nobody to pair yet: the first round waits a minute more for players.
            t.starts = now + FIRST_ROUND_WAIT;
            t.phase = Phase::Starting;
            let text = format!(
                "tournament {}: waiting for players; the first round is paired when two have \
                 joined (:tournament join {})",
                t.id, t.id
            );
            self.tell(vec![(t.organiser.clone(), text)]);
            self.lobby_changed();
            return;
        }
        if left < 2 {
            self.finish_tournament(t, now, "nobody is left to pair");
            return;
        }
        if t.next_round_at().is_some_and(|at| now < at) {
            // A scheduled round waits for its time (the lobby counts down to it).
            return;
        }
        let Run::Swiss(s) = &mut t.run else {
            return;
        };
        let pairing = match pair_round(&s.state) {
            Ok(p) => p,
            Err(e) => {
                let why = e.to_string();
                self.finish_tournament(t, now, &why);
                return;
            }
        };
        let id_of = |n: u32| s.state.player(n).map(|p| p.id.clone()).unwrap_or_default();
        let boards: Vec<(String, String)> = pairing
            .boards
            .iter()
            .map(|b| (id_of(b.white), id_of(b.black)))
            .collect();
        let bye = pairing.bye.map(id_of);
        let round = pairing.round;
        if self.rooms.len() + boards.len() > self.limits.max_rooms {
            // The round is paired once the server has a room for every game of it.
            return;
        }
        let mut games = Vec::new();
        for (w, b) in boards {
            if let Some(paired) = self.seat_pairing(t, &w, &b, now) {
                t.games.push(paired);
                games.push(t.games.len() - 1);
            }
        }
        if let Some(bye) = &bye {
            let text = format!(
                "tournament {}: round {round}, you have the bye (a point, no game)",
                t.id
            );
            self.tell(vec![(bye.clone(), text)]);
        }
        if let Run::Swiss(s) = &mut t.run {
            s.round = Some((games, bye));
        }
        self.lobby_changed();
    }

    /// A Swiss player who has not made their first move within [`FORFEIT_AFTER`] loses by
    /// forfeit (both, when neither came); a second forfeit withdraws them.
    fn swiss_forfeits(&mut self, t: &mut Tournament, now: Instant) {
        let Run::Swiss(s) = &mut t.run else {
            return;
        };
        let Some((games, _)) = &s.round else {
            return;
        };
        let mut forfeited: Vec<String> = Vec::new();
        let mut called_off: Vec<String> = Vec::new();
        for &g in games {
            let game = &mut t.games[g];
            if game.done {
                continue;
            }
            let Some(r) = self.rooms.get(&game.room) else {
                continue;
            };
            let plies = r.plies() as u32;
            if plies >= 1 && game.first_move.is_none() {
                game.first_move = Some(now);
            }
            let late = |since: Instant| now.saturating_duration_since(since) >= FORFEIT_AFTER;
            let white_absent = !r.is_here(Color::White);
            let black_absent = !r.is_here(Color::Black);
            let result = match (plies, game.first_move) {
                (0, _) if late(game.started) => {
                    if black_absent && white_absent {
                        game.double_forfeit = true;
                        forfeited.extend([game.white.clone(), game.black.clone()]);
                        GameResult::ForfeitLoss
                    } else {
                        forfeited.push(game.white.clone());
                        GameResult::ForfeitLoss
                    }
                }
                (1, Some(first)) if late(first) => {
                    forfeited.push(game.black.clone());
                    GameResult::ForfeitWin
                }
                _ => continue,
            };
            game.result = Some(result);
            game.done = true;
            called_off.push(game.room.clone());
        }
        for room in called_off {
            self.call_off(
                &room,
                now,
                &format!(
                    "tournament {}: a player did not move within {} s; the game is lost by \
                     forfeit",
                    t.id,
                    FORFEIT_AFTER.as_secs()
                ),
            );
        }
        let Run::Swiss(s) = &mut t.run else {
            return;
        };
        for member in forfeited {
            let count = s.forfeits.entry(member.clone()).or_default();
            *count += 1;
            let text = if *count >= FORFEITS_WITHDRAWN {
                if let Some(p) = s.state.players.iter_mut().find(|p| p.id == member) {
                    p.withdrawn = true;
                }
                format!(
                    "tournament {}: you lost a game by forfeit, your second: you are \
                     withdrawn",
                    t.id
                )
            } else {
                format!(
                    "tournament {}: you lost a game by forfeit (not moving within {} s)",
                    t.id,
                    FORFEIT_AFTER.as_secs()
                )
            };
            self.tell(vec![(member, text)]);
            self.lobby_changed();
        }
    }

    /// A room the tournament made is called off and closed; whoever was in it is told why.
    fn call_off(&mut self, room: &str, now: Instant, why: &str) {
        if let Some(r) = self.rooms.get_mut(room) {
            r.call_off(now);
        }
        self.close_room(room, Some(why));
    }

    /// A room for a game the tournament paired, White's and Black's seats given; each
    /// player online is brought in (out of any room they were in). `None` when the server
    /// holds as many rooms as it may.
    fn seat_pairing(
        &mut self,
        t: &Tournament,
        white: &str,
        black: &str,
        now: Instant,
    ) -> Option<Paired> {
        self.room_for_one_more().ok()?;
        let member = |id: &str| {
            t.entrants
                .iter()
                .find(|m| m.id == id)
                .cloned()
                .unwrap_or_else(|| Member {
                    id: id.to_string(),
                    name: id.to_string(),
                    rated: false,
                })
        };
        let (w, b) = (member(white), member(black));
        let name = self.new_room_name();
        let room = Room::for_pairing(&name, Some(t.spec.time_control), t.spec.rated, &w, &b);
        let game_id = room.game_id().to_string();
        self.open_room(room);
        for (me, them, colour) in [(&w, &b, "White"), (&b, &w, "Black")] {
            let mut sessions: Vec<u64> = self
                .viewers
                .iter()
                .filter(|(_, e)| e.member.id == me.id)
                .map(|(&v, _)| v)
                .collect();
            sessions.sort_unstable();
            if let Some(&v) = sessions.first() {
                if let Some(old) = self.room_name(v) {
                    self.leave_seat(v, &old);
                }
                self.enter(v, &name, None, now);
                let text = format!(
                    "tournament {}: you play {colour} against {} in room {name}",
                    t.id, them.name
                );
                self.notice(v, text);
            }
        }
        Some(Paired {
            room: name,
            game_id,
            white: white.to_string(),
            black: black.to_string(),
            started: now,
            first_move: None,
            arena: None,
            result: None,
            double_forfeit: false,
            done: false,
        })
    }

    /// The tournament is over: its players told the podium.
    fn finish_tournament(&mut self, t: &mut Tournament, now: Instant, why: &str) {
        if let Run::Arena(a) = &mut t.run {
            let ms = t.epoch;
            let at = now.saturating_duration_since(ms).as_millis() as Millis;
            a.end_at(at);
        }
        t.phase = Phase::Finished;
        let view = t.view(now);
        let podium: Vec<String> = view
            .podium
            .iter()
            .map(|p| format!("{}. {} ({})", p.place, p.name, p.score))
            .collect();
        let text = format!(
            "tournament {} is over ({why}){}{}",
            t.id,
            if podium.is_empty() { "" } else { ": " },
            podium.join(", ")
        );
        let mut told: Vec<String> = t.entrants.iter().map(|m| m.id.clone()).collect();
        if !told.contains(&t.organiser) {
            told.push(t.organiser.clone());
        }
        self.tell(told.into_iter().map(|m| (m, text.clone())).collect());
        self.lobby_changed();
    }
}
