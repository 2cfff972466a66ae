//! The arena's rules with an injected clock: scoring (fire, berserk, short draws, games
//! running at the end), pairing (no immediate rematch, colours, the odd one out, the close of
//! pairings) and random arenas that must keep every rule.

use std::collections::HashSet;

use ox88::chess::Color;
use ox88::club::tournament::arena::{
    Arena, ArenaClock, ArenaError, ArenaPairing, ArenaResult, Millis, PlayerIdx,
};
use proptest::prelude::*;

const MIN: Millis = 60_000;
const CLOCK: ArenaClock = ArenaClock {
    base_ms: 3 * MIN,
    increment_ms: 2_000,
};

/// A 30-minute arena starting at 0 with `n` players rated 2000, 1990, ...
fn arena(n: usize) -> Arena {
    let mut a = Arena::new(0, 30 * MIN, CLOCK);
    for i in 0..n {
        a.join(
            &format!("m{i}"),
            &format!("Player {i}"),
            2000 - 10 * i as u32,
            false,
            0,
        )
        .unwrap();
    }
    a
}

/// Plays one game between `white` and `black` from `start` to `end`.
fn play(
    a: &mut Arena,
    white: PlayerIdx,
    black: PlayerIdx,
    result: ArenaResult,
    plies: u32,
    start: Millis,
    end: Millis,
) -> usize {
    let g = a.start_game(ArenaPairing { white, black }, start).unwrap();
    a.finish(g, result, plies, end).unwrap();
    g
}

use ArenaResult::{BlackWon, Drawn, WhiteWon};

#[test]
fn wins_draws_and_losses_score_two_one_and_nothing() {
    let mut a = arena(3);
    play(&mut a, 0, 1, WhiteWon, 40, 0, MIN);
    play(&mut a, 2, 0, Drawn, 40, 2 * MIN, 3 * MIN);
    play(&mut a, 1, 0, WhiteWon, 40, 4 * MIN, 5 * MIN);
    let s0 = a.sheet(0);
    assert_eq!(s0.to_string(), "012");
    assert_eq!(s0.total(), 3);
    assert_eq!(a.sheet(1).to_string(), "20");
    assert_eq!(a.sheet(2).to_string(), "1");
}

#[test]
fn fire_after_two_wins_doubles_until_a_game_that_is_not_a_win() {
    let mut a = arena(2);
    let mut t = 0;
    // Player 0: win, win, win (doubled), draw (doubled), win, loss.
    for (res, colour0) in [
        (WhiteWon, Color::White),
        (BlackWon, Color::Black),
        (WhiteWon, Color::White),
        (Drawn, Color::Black),
        (WhiteWon, Color::White),
        (WhiteWon, Color::Black),
    ] {
        let (w, b) = if colour0 == Color::White {
            (0, 1)
        } else {
            (1, 0)
        };
        play(&mut a, w, b, res, 40, t, t + MIN);
        t += 2 * MIN;
    }
    let sheet = a.sheet(0);
    // Oldest first: 2 2 4 2 2 0; shown most recent first.
    assert_eq!(sheet.to_string(), "022422");
    let doubled: Vec<bool> = sheet.entries().iter().map(|e| e.doubled).collect();
    assert_eq!(doubled, [false, false, true, true, false, false]);
    assert!(!sheet.on_fire());
    assert_eq!(sheet.total(), 12);
    // The example: win, draw, loss, win, win, win, win reads 4422012.
    let mut b = arena(2);
    let mut t = 0;
    for res in [
        WhiteWon, Drawn, BlackWon, WhiteWon, WhiteWon, WhiteWon, WhiteWon,
    ] {
        play(&mut b, 0, 1, res, 40, t, t + MIN);
        t += MIN;
    }
    assert_eq!(b.sheet(0).to_string(), "4422012");
    assert!(b.sheet(0).on_fire());
    assert!(!b.sheet(1).on_fire());
    let top = &b.standings()[0];
    assert_eq!((top.player, top.score, top.fire), (0, 15, true));
}

#[test]
fn berserk_earns_a_point_only_for_a_win_of_at_least_seven_moves() {
    let mut a = arena(2);
    // White berserks and wins in 7 of his own moves (13 plies): 2 + 1.
    let g = a
        .start_game(ArenaPairing { white: 0, black: 1 }, 0)
        .unwrap();
    let clock = a.berserk(g, Color::White).unwrap();
    assert_eq!(
        clock,
        ArenaClock {
            base_ms: 90_000,
            increment_ms: 0
        }
    );
    assert_eq!(a.clock_for(g, Color::White), Some(clock));
    assert_eq!(a.clock_for(g, Color::Black), Some(CLOCK));
    a.finish(g, WhiteWon, 13, MIN).unwrap();
    // White berserks and wins in 6 moves (11 plies): 2.
    let g = a
        .start_game(ArenaPairing { white: 0, black: 1 }, 2 * MIN)
        .unwrap();
    a.berserk(g, Color::White).unwrap();
    a.finish(g, WhiteWon, 11, 3 * MIN).unwrap();
    // Black berserks (after White's first move, before his own) and loses: 0.
    let g = a
        .start_game(ArenaPairing { white: 0, black: 1 }, 4 * MIN)
        .unwrap();
    a.set_plies(g, 1).unwrap();
    a.berserk(g, Color::Black).unwrap();
    assert_eq!(
        a.berserk(g, Color::White),
        Err(ArenaError::TooLateToBerserk)
    );
    a.finish(g, WhiteWon, 40, 5 * MIN).unwrap();
    let sheet = a.sheet(0);
    let bonus: Vec<bool> = sheet.entries().iter().map(|e| e.berserk_point).collect();
    assert_eq!(bonus, [true, false, false]);
    // Third game on fire: 4, no berserk point for White (he did not berserk).
    assert_eq!(sheet.to_string(), "423");
    assert_eq!(a.sheet(1).to_string(), "000");
}

#[test]
fn berserk_is_refused_after_ones_own_first_move() {
    let mut a = arena(2);
    let g = a
        .start_game(ArenaPairing { white: 0, black: 1 }, 0)
        .unwrap();
    a.set_plies(g, 2).unwrap();
    assert_eq!(
        a.berserk(g, Color::Black),
        Err(ArenaError::TooLateToBerserk)
    );
    assert_eq!(a.games()[g].berserk, [false, false]);
    assert_eq!(
        a.berserk(99, Color::Black),
        Err(ArenaError::UnknownGame(99))
    );
}

#[test]
fn a_draw_in_under_ten_moves_scores_nothing_and_ends_fire() {
    let mut a = arena(2);
    play(&mut a, 0, 1, WhiteWon, 40, 0, MIN);
    play(&mut a, 0, 1, WhiteWon, 40, MIN, 2 * MIN);
    play(&mut a, 0, 1, Drawn, 19, 2 * MIN, 3 * MIN); // 9½ moves
    play(&mut a, 0, 1, Drawn, 20, 3 * MIN, 4 * MIN); // 10 moves
    assert_eq!(a.sheet(0).to_string(), "1022");
    assert_eq!(a.sheet(1).to_string(), "1000");
}

#[test]
fn games_running_at_the_end_do_not_count() {
    let mut a = arena(2);
    play(&mut a, 0, 1, WhiteWon, 40, 0, MIN);
    let end = a.end();
    let g = a
        .start_game(ArenaPairing { white: 1, black: 0 }, end - 3 * MIN)
        .unwrap();
    // Still running: not counted.
    assert_eq!(a.standings()[0].games, 1);
    assert!(a.standings().iter().all(|s| s.games == 1 && s.playing));
    a.finish(g, WhiteWon, 40, end + 10_000).unwrap();
    assert_eq!(a.sheet(1).to_string(), "0");
    assert_eq!(a.sheet(0).to_string(), "2");
    let podium = a.podium();
    assert_eq!(podium.len(), 2);
    assert_eq!(
        (podium[0].player, podium[0].games, podium[0].wins),
        (0, 1, 1)
    );
    // One game against a 1990: 1990 + 500.
    assert_eq!(podium[0].performance, Some(2490));
    assert_eq!(podium[1].performance, Some(1500));
}

#[test]
fn standings_break_equal_scores_by_performance() {
    let mut a = arena(4);
    // 3 beats 0 (2000), 2 beats 1 (1990), both score 2: 3's performance is higher. Of the
    // losers, 1 lost to the higher rated (1980 against 1970): 1480 against 1470.
    play(&mut a, 3, 0, WhiteWon, 40, 0, MIN);
    play(&mut a, 2, 1, WhiteWon, 40, 0, MIN);
    let st = a.standings();
    let order: Vec<PlayerIdx> = st.iter().map(|s| s.player).collect();
    assert_eq!(order, [3, 2, 1, 0]);
    assert_eq!(st[0].performance, Some(2500));
    assert_eq!(st[1].performance, Some(2490));
    assert_eq!(st[2].performance, Some(1480));
}

#[test]
fn pairings_close_between_thirty_seconds_and_two_minutes_before_the_end() {
    let short = Arena::new(0, 3 * MIN, CLOCK);
    assert_eq!(short.pairings_close_at(), 3 * MIN - 30_000);
    let mid = Arena::new(0, 10 * MIN, CLOCK);
    assert_eq!(mid.pairings_close_at(), 9 * MIN);
    let long = Arena::new(0, 60 * MIN, CLOCK);
    assert_eq!(long.pairings_close_at(), 58 * MIN);
}

#[test]
fn nothing_is_paired_before_the_start_or_after_pairings_close() {
    let mut a = Arena::new(MIN, 10 * MIN, CLOCK);
    for i in 0..4 {
        a.join(&format!("m{i}"), "p", 1500, false, 0).unwrap();
    }
    assert!(a.pairings(MIN - 1).is_empty());
    assert_eq!(a.pairings(MIN).len(), 2);
    let close = a.pairings_close_at();
    assert_eq!(a.pairings(close - 1).len(), 2);
    assert!(a.pairings(close).is_empty());
    assert_eq!(
        a.start_game(ArenaPairing { white: 0, black: 1 }, close),
        Err(ArenaError::PairingsClosed)
    );
    assert_eq!(
        a.join("late", "Late", 1500, false, a.end()),
        Err(ArenaError::Finished)
    );
}

#[test]
fn no_immediate_rematch_when_someone_else_is_waiting() {
    let mut a = arena(3);
    play(&mut a, 0, 1, WhiteWon, 40, 0, MIN);
    // 0 and 1 just played; 2 waits since the start, so 2 is paired, with 0 or 1.
    let p = a.pairings(MIN);
    assert_eq!(p.len(), 1);
    let pair = [p[0].white, p[0].black];
    assert!(pair.contains(&2), "{p:?}");
}

#[test]
fn the_only_two_waiting_may_play_again() {
    let mut a = arena(2);
    play(&mut a, 0, 1, WhiteWon, 40, 0, MIN);
    let p = a.pairings(MIN);
    assert_eq!(p.len(), 1);
    // 0 had White, 1 Black: 1 gets White.
    assert_eq!(p[0], ArenaPairing { white: 1, black: 0 });
}

#[test]
fn two_pairs_that_just_played_swap_opponents() {
    let mut a = arena(4);
    play(&mut a, 0, 1, WhiteWon, 40, 0, MIN);
    play(&mut a, 2, 3, WhiteWon, 40, 0, MIN);
    let p = a.pairings(MIN);
    assert_eq!(p.len(), 2);
    for pair in &p {
        let set: HashSet<PlayerIdx> = [pair.white, pair.black].into();
        assert_ne!(set, HashSet::from([0, 1]));
        assert_ne!(set, HashSet::from([2, 3]));
    }
}

#[test]
fn colours_go_to_who_had_black_more_and_never_three_in_a_row_where_avoidable() {
    let mut a = arena(4);
    // 0 has had White twice, 3 Black twice.
    play(&mut a, 0, 1, Drawn, 40, 0, MIN);
    play(&mut a, 2, 3, Drawn, 40, 0, MIN);
    play(&mut a, 0, 3, Drawn, 40, MIN, 2 * MIN);
    for p in a.pairings(3 * MIN) {
        let players = [p.white, p.black];
        if players.contains(&0) {
            assert_eq!(p.black, 0, "{p:?}");
        }
        if players.contains(&3) {
            assert_eq!(p.white, 3, "{p:?}");
        }
    }
    // Two who both had White twice are not paired together while others can be.
    let mut b = arena(4);
    play(&mut b, 0, 2, Drawn, 40, 0, MIN);
    play(&mut b, 1, 3, Drawn, 40, 0, MIN);
    play(&mut b, 0, 3, Drawn, 40, MIN, 2 * MIN);
    play(&mut b, 1, 2, Drawn, 40, MIN, 2 * MIN);
    for p in b.pairings(3 * MIN) {
        assert_ne!(
            HashSet::from([p.white, p.black]),
            HashSet::from([0, 1]),
            "{p:?}"
        );
    }
}

#[test]
fn an_odd_one_out_waits_and_it_is_the_latest_to_arrive() {
    let mut a = arena(4);
    play(&mut a, 0, 1, WhiteWon, 40, 0, MIN);
    play(&mut a, 2, 3, WhiteWon, 40, 0, 2 * MIN);
    a.join("m4", "Player 4", 1960, false, 0).unwrap();
    // At 2 min: 0, 1 (free since 1 min), 2, 3 (just now) and 4 (since 0) wait: five players,
    // two pairs; the one left out is one of 2 and 3, who arrived last.
    let p = a.pairings(2 * MIN);
    assert_eq!(p.len(), 2);
    let paired: HashSet<PlayerIdx> = p.iter().flat_map(|x| [x.white, x.black]).collect();
    assert_eq!(paired.len(), 4);
    let out: Vec<PlayerIdx> = (0..5).filter(|i| !paired.contains(i)).collect();
    assert!(out == [2] || out == [3], "left out {out:?}");
}

#[test]
fn paused_players_are_not_paired_until_they_join_again() {
    let mut a = arena(3);
    a.pause("m1").unwrap();
    let p = a.pairings(0);
    assert_eq!(p.len(), 1);
    assert!(![p[0].white, p[0].black].contains(&1));
    assert_eq!(
        a.start_game(ArenaPairing { white: 1, black: 2 }, 0),
        Err(ArenaError::NotWaiting("m1".into()))
    );
    a.join("m1", "ignored", 0, false, 10).unwrap();
    assert_eq!(a.players()[1].name, "Player 1");
    assert_eq!(a.pairings(10).len(), 1);
    assert_eq!(a.waiting(10).len(), 3);
    assert_eq!(
        a.pause("nobody"),
        Err(ArenaError::UnknownPlayer("nobody".into()))
    );
}

#[test]
fn a_player_in_a_game_is_not_paired_again() {
    let mut a = arena(4);
    a.start_game(ArenaPairing { white: 0, black: 1 }, 0)
        .unwrap();
    let p = a.pairings(0);
    assert_eq!(p.len(), 1);
    assert_eq!(
        HashSet::from([p[0].white, p[0].black]),
        HashSet::from([2, 3])
    );
    assert_eq!(
        a.start_game(ArenaPairing { white: 0, black: 2 }, 0),
        Err(ArenaError::NotWaiting("m0".into()))
    );
}

#[test]
fn large_pools_are_paired_completely_without_rematches() {
    // 40 players, paired in pairs of neighbours, all finish together: the pool is 40.
    let mut a = arena(40);
    for i in (0..40).step_by(2) {
        play(&mut a, i, i + 1, WhiteWon, 40, 0, MIN);
    }
    let p = a.pairings(MIN);
    assert_eq!(p.len(), 20);
    let mut seen = HashSet::new();
    for pair in &p {
        assert!(seen.insert(pair.white) && seen.insert(pair.black));
        assert_ne!(pair.white / 2, pair.black / 2, "rematch {pair:?}");
    }
}

/// One step of a random arena: what happens next.
#[derive(Clone, Debug)]
enum Step {
    /// Time passes (seconds), then the caller pairs whoever is waiting.
    Wait(u16),
    /// The n-th running game ends (by index among running games) after this many plies.
    Finish(u8, u8, u8),
    /// A player pauses or comes back.
    Toggle(u8),
    /// The n-th running game's side to move berserks before moving.
    Berserk(u8, bool),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        (1u16..300).prop_map(Step::Wait),
        (any::<u8>(), 0u8..3, any::<u8>()).prop_map(|(g, r, p)| Step::Finish(g, r, p)),
        any::<u8>().prop_map(Step::Toggle),
        (any::<u8>(), any::<bool>()).prop_map(|(g, w)| Step::Berserk(g, w)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_arenas_keep_every_rule(
        n in 2usize..30,
        ratings in proptest::collection::vec(800u32..2800, 30),
        steps in proptest::collection::vec(step(), 1..160),
    ) {
        let mut a = Arena::new(0, 20 * MIN, CLOCK);
        for (i, &rating) in ratings.iter().enumerate().take(n) {
            a.join(&format!("m{i}"), &format!("P{i}"), rating, i % 5 == 0, 0).unwrap();
        }
        let mut now: Millis = 0;
        for s in steps {
            match s {
                Step::Wait(secs) => {
                    now += u64::from(secs) * 1000;
                    let pool = a.waiting(now);
                    let pairs = a.pairings(now);
                    if now >= a.pairings_close_at() {
                        prop_assert!(pairs.is_empty());
                    }
                    // Each waiting player at most once; nobody outside the pool.
                    let mut seen = HashSet::new();
                    for p in &pairs {
                        prop_assert!(pool.contains(&p.white) && pool.contains(&p.black));
                        prop_assert!(seen.insert(p.white) && seen.insert(p.black));
                        let rematch = a.last_opponent(p.white) == Some(p.black)
                            || a.last_opponent(p.black) == Some(p.white);
                        prop_assert!(!rematch || pool.len() == 2, "rematch {p:?} in {pool:?}");
                        // No third colour in a row where the other could take it.
                        let three = |who: PlayerIdx, c: Color| {
                            let h = a.colours(who);
                            h.len() >= 2 && h[h.len() - 2..].iter().all(|&x| x == c)
                        };
                        if three(p.white, Color::White) {
                            prop_assert!(three(p.black, Color::White), "{p:?}");
                        }
                        if three(p.black, Color::Black) {
                            prop_assert!(three(p.white, Color::Black), "{p:?}");
                        }
                    }
                    // Pairs as many as it can: an odd one out, or ones barred from meeting.
                    if pool.len() >= 2 && pairs.len() * 2 + 1 < pool.len() {
                        let left: Vec<PlayerIdx> =
                            pool.iter().copied().filter(|x| !seen.contains(x)).collect();
                        for (k, &x) in left.iter().enumerate() {
                            for &y in &left[k + 1..] {
                                prop_assert!(
                                    a.last_opponent(x) == Some(y) || a.last_opponent(y) == Some(x),
                                    "{x} and {y} both left out of {pairs:?}"
                                );
                            }
                        }
                    }
                    for p in pairs {
                        a.start_game(p, now).unwrap();
                    }
                }
                Step::Finish(g, r, plies) => {
                    let running: Vec<usize> =
                        (0..a.games().len()).filter(|&i| a.games()[i].is_running()).collect();
                    if !running.is_empty() {
                        let game = running[g as usize % running.len()];
                        let result = [WhiteWon, Drawn, BlackWon][r as usize];
                        now += 1000;
                        a.finish(game, result, u32::from(plies), now).unwrap();
                    }
                }
                Step::Toggle(p) => {
                    let i = p as usize % n;
                    let id = format!("m{i}");
                    if a.players()[i].paused {
                        if !a.is_over(now) {
                            a.join(&id, "", 0, false, now).unwrap();
                        }
                    } else {
                        a.pause(&id).unwrap();
                    }
                }
                Step::Berserk(g, white) => {
                    let running: Vec<usize> =
                        (0..a.games().len()).filter(|&i| a.games()[i].is_running()).collect();
                    if !running.is_empty() {
                        let game = running[g as usize % running.len()];
                        let colour = if white { Color::White } else { Color::Black };
                        prop_assert!(a.berserk(game, colour).is_ok());
                    }
                }
            }
            // Nobody is in two games at once.
            let mut busy = HashSet::new();
            for game in a.games().iter().filter(|g| g.is_running()) {
                prop_assert!(busy.insert(game.white) && busy.insert(game.black));
            }
        }
        // Scores equal the sum of the sheets; counted games ended by the end.
        let end = a.end();
        for s in a.standings() {
            prop_assert_eq!(s.score, s.sheet.total());
            prop_assert_eq!(s.games as usize, s.sheet.entries().len());
            let digits: u32 = s.sheet.to_string().chars().map(|c| c.to_digit(10).unwrap()).sum();
            prop_assert_eq!(digits, s.score);
            for e in s.sheet.entries() {
                prop_assert!(a.games()[e.game].end.unwrap() <= end);
            }
            prop_assert!(s.wins <= s.games);
        }
    }
}
