//! The bots at the owner's table: the engine seated as members (`ox88 serve --bots`),
//! answering what the club asks of them as soon as a command is done.
//!
//! After every command the owner looks at what is left for the bots ([`Owner::bots_answer`]):
//! a challenge to a bot is accepted (or declined, saying why) at once; each bot keeps a
//! seek in the lobby; and in every room where a bot holds a seat (however it was seated: a
//! challenge, a seek, a tournament's pairing through the owner's usual way of opening a
//! room) it answers an offer, comes back to a restored game, and when it is its move a
//! search is asked for. The search takes a share of the server's engine budget ahead of
//! every other job ([`JobKind::Bot`]) and runs on a thread of its own; the owner's thread
//! only receives the move, as a command like any other, and plays it if the game is still
//! where the search found it. So one bot plays any number of games at once, and the owner
//! never waits for a search.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::SyncSender;

use super::Command;
use super::bot_state::{Job, Pace, Seated};
use super::owner::Owner;
use crate::chess::Color;
use crate::club::bots::{self, Thought};
use crate::club::budget::{JobKind, Turn};
use crate::club::room::{Action, Offer, Role};
use crate::club::{ClubError, Member};
use crate::game::glicko::Rating;

/// What a room asks of a bot seated there, found in one look over the rooms.
enum Due {
    /// A restored game: the bot comes back to its seat.
    Return(String, usize),
    /// The game is over: the bot gets up, so that the room closes once its player goes.
    Leave(String, usize),
    /// The opponent's offer to answer.
    Answer(String, usize, Action),
    /// Its move, in game `game` at ply `ply`.
    Move {
        room: String,
        bot: usize,
        game: String,
        ply: usize,
    },
}

impl Owner {
    /// Seats the bots `(level, rating)` as members (after any seated before), and
    /// plays them at `pace`; `inbox` is the owner's own queue, where their searches send
    /// their moves. Their members.
    pub(super) fn seat_bots(
        &mut self,
        levels: Vec<(u32, Rating)>,
        pace: Pace,
        inbox: SyncSender<Command>,
    ) -> Vec<Member> {
        self.bots.inbox = Some(inbox);
        self.bots.pace = pace;
        for (elo, rating) in levels {
            if self.bots.seated.iter().any(|b| b.elo == elo) {
                continue;
            }
            let member = bots::member(elo);
            let viewer = self.seat_member(member.clone(), rating);
            self.bots.seated.push(Seated {
                viewer,
                elo,
                member,
            });
        }
        self.bots_resume_between_themselves();
        self.bot_members()
    }

    /// The games between two bots adjourned when the server stopped go on at once (no
    /// person is awaited in them), while the server has rooms for them; each bot comes back
    /// to its seat as soon as the owner looks at the rooms.
    fn bots_resume_between_themselves(&mut self) {
        let seated: Vec<&str> = self
            .bots
            .seated
            .iter()
            .map(|b| b.member.id.as_str())
            .collect();
        let between: Vec<(String, String)> = self
            .adjourned
            .iter()
            .filter(|a| seated.contains(&a.record.white.as_str()))
            .filter(|a| seated.contains(&a.record.black.as_str()))
            .map(|a| (a.record.white.clone(), a.record.room.clone()))
            .collect();
        for (white, room) in between {
            if self.room_for_one_more().is_err() {
                return;
            }
            self.reopen(&white, Some(&room));
        }
    }

    /// The bots seated on this server, as members (the lowest level first): what a
    /// tournament enters when it is created with bots.
    pub(in crate::club) fn bot_members(&self) -> Vec<Member> {
        let mut members: Vec<(u32, Member)> = self
            .bots
            .seated
            .iter()
            .map(|b| (b.elo, b.member.clone()))
            .collect();
        members.sort_by_key(|(elo, _)| *elo);
        members.into_iter().map(|(_, m)| m).collect()
    }

    /// What the command just done left the bots to do, done: challenges answered, seeks
    /// kept, offers answered, seats taken back, searches asked for and started.
    pub(super) fn bots_answer(&mut self) {
        if self.bots.seated.is_empty() {
            return;
        }
        self.bots_take_challenges();
        self.bots_keep_seeks();
        for due in self.bots_due() {
            match due {
                Due::Return(room, bot) => self.bot_returns(&room, bot),
                Due::Leave(room, bot) => self.bot_leaves(&room, bot),
                Due::Answer(room, bot, action) => {
                    let id = self.bots.seated[bot].member.id.clone();
                    if let Err(e) = self.act_in(&room, &id, action) {
                        eprintln!("ox88 serve: {id} in room {room}: {e}");
                    }
                }
                Due::Move {
                    room,
                    bot,
                    game,
                    ply,
                } => self.bot_asks(room, bot, game, ply),
            }
        }
        self.bots_start();
        let rooms = &self.rooms;
        self.bots.scores.retain(|room, _| rooms.contains_key(room));
        for b in self.bots.seated.clone() {
            self.take_notices(b.viewer);
        }
    }

    /// Challenges to a bot: accepted at once when it can play them, else declined with the
    /// reason told to the challenger.
    fn bots_take_challenges(&mut self) {
        let to_bots: Vec<(u32, u64, u64)> = self
            .challenges
            .iter()
            .filter(|c| self.bots.seated.iter().any(|b| b.viewer == c.to))
            .map(|c| (c.number, c.from, c.to))
            .collect();
        for (number, from, to) in to_bots {
            let tc = self
                .challenges
                .iter()
                .find(|c| c.number == number)
                .and_then(|c| c.time_control);
            let answer = bots::takes(tc)
                .map_err(ClubError::new)
                .and_then(|()| self.accept(to, number));
            if let Err(why) = answer {
                self.challenges.retain(|c| c.number != number);
                let text = format!("{} declined challenge {number}: {why}", self.name_of(to));
                self.notice(from, text);
                self.lobby_changed();
            }
        }
    }

    /// Each bot keeps one seek in the lobby, rated, at [`bots::SEEK`]: a member alone in
    /// the club always has a game.
    fn bots_keep_seeks(&mut self) {
        let tc = bots::SEEK.parse().ok();
        for b in self.bots.seated.clone() {
            if !self.seeks.iter().any(|s| s.viewer == b.viewer)
                && let Err(e) = self.seek(b.viewer, tc, None, true)
            {
                eprintln!("ox88 serve: {}'s seek: {e}", b.member.name);
            }
        }
    }

    /// One look over the rooms: what each bot seated in one is to do there.
    fn bots_due(&self) -> Vec<Due> {
        let mut due = Vec::new();
        for (name, r) in &self.rooms {
            for (i, b) in self.bots.seated.iter().enumerate() {
                let Some(Role::Player(side)) = r.role(&b.member.id) else {
                    continue;
                };
                let present = r.is_present(&b.member.id);
                let rematch = matches!(r.offer(), Some(Offer::Rematch(by)) if by != side);
                if !r.plays_here(&b.member.id) && !rematch {
                    if present && r.has_begun() {
                        due.push(Due::Leave(name.clone(), i));
                    }
                    continue;
                }
                if !present {
                    due.push(Due::Return(name.clone(), i));
                }
                if let Some(action) = self.bot_answer(name, r.game_id(), r.offer(), side) {
                    due.push(Due::Answer(name.clone(), i, action));
                }
                let game = r.game_id().to_string();
                let ply = r.plies();
                let asked = self
                    .bots
                    .jobs
                    .values()
                    .any(|j| &j.room == name && j.game == game && j.ply == ply);
                if !asked && r.to_move().is_some_and(|m| m.id == b.member.id) {
                    due.push(Due::Move {
                        room: name.clone(),
                        bot: i,
                        game,
                        ply,
                    });
                }
            }
        }
        due
    }

    /// How the bot playing `side` in room `room` answers the opponent's standing offer: a
    /// draw taken only when its last search found it worse ([`bots::takes_draw`]), a
    /// takeback declined (a bot's moves stand, as a clock's), a rematch taken.
    fn bot_answer(
        &self,
        room: &str,
        game: &str,
        offer: Option<Offer>,
        side: Color,
    ) -> Option<Action> {
        match offer? {
            Offer::Draw(by) if by != side => {
                let score = self
                    .bots
                    .scores
                    .get(room)
                    .filter(|(g, _)| g == game)
                    .map(|(_, s)| *s);
                Some(if bots::takes_draw(score) {
                    Action::Draw
                } else {
                    Action::Decline
                })
            }
            Offer::Takeback(by) if by != side => Some(Action::Decline),
            Offer::Rematch(by) if by != side => Some(Action::Rematch),
            _ => None,
        }
    }

    /// A bot back in its seat of a restored game (its clock waits for both players).
    fn bot_returns(&mut self, room: &str, bot: usize) {
        let Some(b) = self.bots.seated.get(bot).cloned() else {
            return;
        };
        let rating = self.viewers.get(&b.viewer).map(|e| e.rating);
        let now = self.now();
        if let Some(r) = self.rooms.get_mut(room) {
            r.join(&b.member, rating, now);
            let notes = r.take_notes();
            self.tell(notes);
            self.room_changed(room);
        }
    }

    /// A bot gets up from the game over in `room` (a rematch asked brings it back).
    fn bot_leaves(&mut self, room: &str, bot: usize) {
        let Some(id) = self.bots.seated.get(bot).map(|b| b.member.id.clone()) else {
            return;
        };
        let now = self.now();
        if let Some(r) = self.rooms.get_mut(room) {
            r.leave(&id, now);
            self.room_changed(room);
            self.close_if_idle(room, now);
        }
    }

    /// A search for bot `bot`'s move in `room`, asked of the engine budget ahead of
    /// every other job.
    fn bot_asks(&mut self, room: String, bot: usize, game: String, ply: usize) {
        let job = self.number();
        if let Some(budget) = &mut self.budget {
            let (_, changed) = budget.ask(job, JobKind::Bot);
            self.wake_all(changed);
        }
        self.bots.jobs.insert(
            job,
            Job {
                room,
                game,
                ply,
                bot,
                started: false,
            },
        );
    }

    /// The bots' searches that hold a share of the budget (all, without one) and have not
    /// started, started: each on a thread of its own.
    fn bots_start(&mut self) {
        let ready: Vec<u64> = self
            .bots
            .jobs
            .iter()
            .filter(|(_, j)| !j.started)
            .map(|(&n, _)| n)
            .filter(|&n| self.engine_turn(n) == Turn::Running)
            .collect();
        for n in ready {
            self.bot_search(n);
        }
    }

    /// Starts search `n`: the position and clocks as they stand, the level's search on a
    /// thread; the move comes back to [`Owner::bot_moved`].
    fn bot_search(&mut self, n: u64) {
        let Some(job) = self.bots.jobs.get_mut(&n) else {
            return;
        };
        job.started = true;
        let job = job.clone();
        let now = self.now();
        let (Some(r), Some(b), Some(inbox)) = (
            self.rooms.get(&job.room),
            self.bots.seated.get(job.bot),
            self.bots.inbox.clone(),
        ) else {
            self.bot_forget(n);
            return;
        };
        let view = r.view(now);
        let board = view.game.board().clone();
        let side = board.side_to_move();
        let limits = bots::limits(view.clocks, view.time_control, side);
        let (elo, pace) = (b.elo, self.bots.pace);
        let seed = n ^ (u64::from(elo) << 32);
        let spawned = std::thread::Builder::new()
            .name(format!("bot-{elo}"))
            .spawn(move || {
                let thought =
                    catch_unwind(AssertUnwindSafe(|| bots::think(&board, elo, &limits, seed)))
                        .unwrap_or_else(|_| {
                            // A search that fails still answers: the first legal move, so the
                            // game goes on.
                            eprintln!("ox88 serve: ox88-{elo}'s search failed; it plays on");
                            Thought {
                                mv: board.legal_moves().iter().next().copied(),
                                score: None,
                                wait: std::time::Duration::ZERO,
                            }
                        });
                // The share goes back as soon as the search is done.
                let _ = inbox.send(Box::new(move |o: &mut Owner| o.engine_done(n)));
                if pace == Pace::Level && !thought.wait.is_zero() {
                    std::thread::sleep(thought.wait);
                }
                let _ = inbox.send(Box::new(move |o: &mut Owner| o.bot_moved(n, thought)));
            });
        if let Err(e) = spawned {
            eprintln!("ox88 serve: cannot start a bot's search: {e}");
            self.bot_forget(n);
        }
    }

    /// Search `n` is over, or cannot be: its share of the budget goes to the next.
    fn bot_forget(&mut self, n: u64) {
        self.bots.jobs.remove(&n);
        self.engine_done(n);
    }

    /// Search `n`'s move: played when the game is still where the search found it (the
    /// opponent may have resigned, flagged or left meanwhile: then it is dropped).
    pub(super) fn bot_moved(&mut self, n: u64, thought: Thought) {
        let Some(job) = self.bots.jobs.get(&n).cloned() else {
            return;
        };
        self.bot_forget(n);
        let Some(b) = self.bots.seated.get(job.bot).cloned() else {
            return;
        };
        let Some(r) = self.rooms.get(&job.room) else {
            return;
        };
        let still = r.game_id() == job.game
            && r.plies() == job.ply
            && r.to_move().is_some_and(|m| m.id == b.member.id);
        if !still {
            return;
        }
        if let Some(score) = thought.score {
            self.bots
                .scores
                .insert(job.room.clone(), (job.game.clone(), score));
        }
        let Some(mv) = thought.mv else {
            return;
        };
        if let Err(e) = self.act_in(&job.room, &b.member.id, Action::Move(mv.to_string())) {
            eprintln!("ox88 serve: {} in room {}: {e}", b.member.name, job.room);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::club::identity::Login;
    use crate::club::lobby::{Clock, Club, Limits, Viewer};
    use crate::club::store::{SqliteStore, Store};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant};

    fn member(id: &str) -> Member {
        Member {
            id: id.into(),
            name: id.into(),
            rated: true,
        }
    }

    /// A club with a clock moved by hand and the bot ox88-1200 seated, playing at once.
    fn club_with_bot(limits: Limits) -> (Arc<Club>, impl Fn(Duration)) {
        let now = Arc::new(Mutex::new(Instant::now()));
        let read = Arc::clone(&now);
        let clock: Clock = Arc::new(move || *read.lock().unwrap());
        let store = Arc::new(SqliteStore::in_memory().expect("a database"));
        let club = Club::with_clock(store, limits, clock).expect("a club");
        let seated = club.seat_bots(&[1200], Pace::AtOnce).unwrap();
        assert_eq!(seated, [bots::member(1200)]);
        (club, move |d: Duration| *now.lock().unwrap() += d)
    }

    /// Waits (a few seconds at most, the bot searching on its own thread) until `done`.
    fn until(done: impl Fn() -> bool) -> bool {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if done() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    fn plies(v: &Viewer) -> usize {
        v.room(v.club.now()).map_or(0, |(view, _)| view.game.len())
    }

    /// `v` plays a legal move of its position (the first its board lists).
    fn any_move(v: &Viewer) {
        let (view, _) = v.room(v.club.now()).unwrap();
        let mv = view
            .game
            .board()
            .legal_moves()
            .iter()
            .next()
            .copied()
            .unwrap();
        v.act(Action::Move(mv.to_string())).unwrap();
    }

    /// `v` (White) and the bot play `moves` moves each, the bot answering every one.
    fn play_moves(v: &Viewer, moves: usize) {
        for n in 1..=moves {
            any_move(v);
            assert!(until(|| plies(v) == 2 * n), "the bot answers move {n}");
        }
    }

    #[test]
    fn a_challenged_bot_accepts_at_once_plays_legal_moves_and_gains_by_a_win() {
        let (club, _) = club_with_bot(Limits::default());
        let alice = club.connect(member("alice"), Arc::new(|| {}));
        let lobby = alice.lobby(club.now());
        assert!(lobby.online.iter().any(|o| o.name == "ox88-1200"));
        let n = alice
            .challenge("OX88-1200", "5+0".parse().ok(), true)
            .unwrap();
        let room = alice
            .room_name()
            .expect("accepted at once: alice is in the room");
        assert!(
            alice
                .take_notices()
                .iter()
                .any(|t| t.contains(&format!("ox88-1200 accepted: the game is in room {room}")))
        );
        assert!(
            alice
                .lobby(club.now())
                .challenges
                .iter()
                .all(|c| c.number != n)
        );
        let (view, role) = alice.room(club.now()).unwrap();
        assert_eq!(
            role,
            Role::Player(Color::White),
            "the challenger plays White"
        );
        assert_eq!(view.seats[1].as_ref().unwrap().name, "ox88-1200");
        assert!(view.rated);
        play_moves(&alice, 4);
        // Every move the room took was legal: the game replays from its PGN.
        let (view, _) = alice.room(club.now()).unwrap();
        let again = crate::game::Game::from_pgn(&view.game.to_pgn()).unwrap();
        assert_eq!(again.len(), 8);
        alice.act(Action::Resign).unwrap();
        let (view, _) = alice.room(club.now()).unwrap();
        assert_eq!(view.result.map(|r| r.result()), Some("0-1"));
        // Rated like anyone: the bot's own row moved up, alice's down.
        assert!(club.flush(Duration::from_secs(10)));
        let bot = club.store().rating(&crate::club::bot_id(1200)).unwrap();
        assert!(bot.rating > 1500.0, "{bot:?}");
        assert!(club.store().rating("alice").unwrap().rating < 1500.0);
        let games = alice.games(5).unwrap();
        assert_eq!(games[0].black, crate::club::bot_id(1200));
        // The room closes once alice goes: the bot does not keep it open.
        alice.leave_room();
        assert!(!club.has_room(&room));
    }

    #[test]
    fn a_bot_plays_two_games_at_once_and_keeps_its_seek() {
        let (club, _) = club_with_bot(Limits::default());
        let alice = club.connect(member("alice"), Arc::new(|| {}));
        let bob = club.connect(member("bob"), Arc::new(|| {}));
        let seek = alice.lobby(club.now()).seeks[0].number;
        alice
            .challenge("ox88-1200", "3+2".parse().ok(), true)
            .unwrap();
        // The seek the bot stood stays as it was while it plays alice.
        assert_eq!(alice.lobby(club.now()).seeks[0].number, seek);
        // bob takes the bot's standing seek: the seeker (the bot) plays White.
        let seeks = bob.lobby(club.now()).seeks;
        assert_eq!(seeks.len(), 1);
        assert_eq!(seeks[0].name, "ox88-1200");
        assert_eq!(seeks[0].time_control, bots::SEEK.parse().ok());
        assert!(seeks[0].rated);
        let room = bob.accept(seeks[0].number).unwrap();
        assert_ne!(alice.room_name(), Some(room.clone()));
        let (_, role) = bob.room(club.now()).unwrap();
        assert_eq!(role, Role::Player(Color::Black));
        assert!(until(|| plies(&bob) == 1), "the bot opens bob's game");
        // The bot stands a new seek for the next comer.
        assert_eq!(bob.lobby(club.now()).seeks.len(), 1);
        assert_eq!(bob.lobby(club.now()).games.len(), 2);
        for n in 1..=3 {
            any_move(&alice);
            any_move(&bob);
            assert!(until(|| plies(&alice) == 2 * n && plies(&bob) == 2 * n + 1));
        }
    }

    #[test]
    fn a_bot_declines_what_it_cannot_play_and_a_draw_it_need_not_take() {
        let (club, _) = club_with_bot(Limits::default());
        let alice = club.connect(member("alice"), Arc::new(|| {}));
        let n = alice.challenge("ox88-1200", None, true).unwrap();
        assert_eq!(alice.room_name(), None);
        let told = alice.take_notices();
        assert!(
            told.iter().any(|t| t.contains(&format!(
                "ox88-1200 declined challenge {n}: a bot plays only with a clock"
            ))),
            "{told:?}"
        );
        assert!(alice.lobby(club.now()).challenges.is_empty());
        alice
            .challenge("ox88-1200", "5+0".parse().ok(), true)
            .unwrap();
        alice.take_notices();
        any_move(&alice);
        assert!(until(|| plies(&alice) == 2));
        // An even position: the bot plays on.
        alice.act(Action::Draw).unwrap();
        assert!(until(|| alice
            .take_notices()
            .iter()
            .any(|t| t == "ox88-1200 declined your draw offer")));
        let (view, _) = alice.room(club.now()).unwrap();
        assert!(view.result.is_none() && view.offer.is_none());
        // A takeback asked is declined too: a bot's moves stand.
        alice.act(Action::Takeback).unwrap();
        let (view, _) = alice.room(club.now()).unwrap();
        assert_eq!((view.offer, view.game.len()), (None, 2));
    }

    #[test]
    fn a_member_who_lets_the_clock_run_against_a_bot_loses_on_time() {
        let (club, advance) = club_with_bot(Limits::default());
        let alice = club.connect(member("alice"), Arc::new(|| {}));
        alice
            .challenge("ox88-1200", "1+0".parse().ok(), true)
            .unwrap();
        any_move(&alice);
        assert!(until(|| plies(&alice) == 2));
        // alice thinks past her minute: her flag falls, and the bot wins on time.
        advance(Duration::from_secs(61));
        club.tick(club.now());
        let (view, _) = alice.room(club.now()).unwrap();
        assert_eq!(view.result.map(|r| r.result()), Some("0-1"));
    }

    #[test]
    fn a_bots_move_goes_before_an_analysis_holding_the_only_share() {
        let limits = Limits {
            engine_threads: Some(1),
            ..Limits::default()
        };
        let (club, _) = club_with_bot(limits);
        let carol = club.connect(member("carol"), Arc::new(|| {}));
        assert_eq!(carol.engine_ask(JobKind::RunsOn).unwrap(), Turn::Running);
        let bob = club.connect(member("bob"), Arc::new(|| {}));
        let seek = bob.lobby(club.now()).seeks[0].number;
        bob.accept(seek).unwrap();
        // The bot (White) moves although carol's analysis held the one share and never
        // gave it back; her analysis resumes once the bot's search is done.
        assert!(until(|| plies(&bob) == 1));
        assert!(until(|| carol.engine_turn() == Turn::Running));
        // A member's own job that ends still waits behind a running one, as before.
        let dave = club.connect(member("dave"), Arc::new(|| {}));
        assert!(matches!(
            dave.engine_ask(JobKind::RunsOn).unwrap(),
            Turn::Queued { .. }
        ));
    }

    #[test]
    fn a_game_with_a_bot_goes_on_after_a_restart_once_its_member_is_back() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().expect("a database"));
        let club = Club::new(Arc::clone(&store)).unwrap();
        club.seat_bots(&[1200], Pace::AtOnce).unwrap();
        let alice = club.connect(member("alice"), Arc::new(|| {}));
        alice
            .challenge("ox88-1200", "5+0".parse().ok(), true)
            .unwrap();
        play_moves(&alice, 1);
        assert!(club.save_all(club.now(), Duration::from_secs(10)));
        drop(alice);
        drop(club);
        let club = Club::new(Arc::clone(&store)).unwrap();
        club.seat_bots(&[1200], Pace::AtOnce).unwrap();
        let alice = club.connect(member("alice"), Arc::new(|| {}));
        assert!(alice.room_name().is_some(), "back in the game's room");
        assert_eq!(plies(&alice), 2);
        // The bot is back in its seat: the game goes on from alice's move.
        any_move(&alice);
        assert!(until(|| plies(&alice) == 4), "the bot plays on");
    }

    /// The bots at `levels` seated in a room `name` opened by the owner itself, as a
    /// tournament's pairing opens one: the first White.
    fn bots_paired(club: &Arc<Club>, levels: [u32; 2], name: &str) {
        let name = name.to_string();
        club.ask(move |o| {
            let tc = "5+0".parse().ok();
            o.open_room(crate::club::room::Room::new(&name, tc, true));
            let now = o.now();
            for elo in levels {
                let id = crate::club::bot_id(elo);
                let viewer = o
                    .bots
                    .seated
                    .iter()
                    .find(|b| b.member.id == id)
                    .unwrap()
                    .viewer;
                o.enter(viewer, &name, None, now);
            }
        })
        .unwrap();
    }

    /// The plies played in room `name`, as the lobby lists its game (`None`: not listed).
    fn listed_plies(club: &Arc<Club>, name: &str) -> Option<u32> {
        let name = name.to_string();
        club.ask(move |o| o.rooms.get(&name).map(|r| r.plies() as u32))
            .flatten()
    }

    #[test]
    fn bots_seated_by_the_owner_play_each_other_and_go_on_after_a_restart() {
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().expect("a database"));
        let club = Club::new(Arc::clone(&store)).unwrap();
        // At the levels' own pace, so that the game is surely still on when saved.
        club.seat_bots(&[1200, 1400], Pace::Level).unwrap();
        bots_paired(&club, [1200, 1400], "duel");
        assert!(until(|| listed_plies(&club, "duel").is_some_and(|n| n >= 2)));
        assert!(club.save_all(club.now(), Duration::from_secs(10)));
        drop(club);
        let club = Club::new(Arc::clone(&store)).unwrap();
        let saved = store.unfinished().unwrap();
        let kept = saved
            .iter()
            .find(|g| g.room == "duel")
            .map(|g| g.pgn.clone());
        assert!(kept.is_some(), "saved unfinished");
        club.seat_bots(&[1200, 1400], Pace::AtOnce).unwrap();
        // Nobody is awaited: the two bots sit down again and play on by themselves.
        let before = listed_plies(&club, "duel").expect("the room is made again");
        assert!(until(
            || listed_plies(&club, "duel").is_some_and(|n| n >= before + 4)
        ));
    }

    #[test]
    fn no_key_account_or_visitor_takes_a_bots_name() {
        let (club, _) = club_with_bot(Limits::default());
        for login in ["ox88-1200", "OX88-2000", "ox88-x"] {
            for who in [
                Login::Key { key: "k1", login },
                Login::Open {
                    visitor: "open:1",
                    login,
                },
            ] {
                let e = club.sign_in(who).unwrap_err().to_string();
                assert!(e.contains("are the engine's"), "{login}: {e}");
            }
        }
        // A member made by hand under that name is shown as a guest, never as the bot.
        let v = club.connect(member("ox88-1200"), Arc::new(|| {}));
        assert_eq!(v.name(), "guest");
        let bots = club.bots();
        assert_eq!(bots.len(), 1);
        assert!(bots[0].is_bot());
        // Listed among the members, with its rating row.
        let listed = club.store().members(10).unwrap();
        assert!(listed.iter().any(|m| m.name == "ox88-1200"));
    }
}
