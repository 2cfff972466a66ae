//! The engine seated in the club as members: one bot per calibrated level
//! (`ox88 serve --bots 1200,1600,2000`), named for its level (`ox88-1600`), rated like
//! anyone. This file holds what a bot is and how it plays one move, apart from the club's
//! state: its name and member id, the levels a server may seat, which games it takes, the
//! search limits its clock gives, when it takes a draw, and the search itself (run on a
//! thread of its own by the owner, see `lobby/bots.rs`).

use std::borrow::Cow;
use std::time::{Duration, Instant};

use super::Member;
use crate::chess::{Board, Color, Move};
use crate::engine::levels::{self, Rng};
use crate::engine::search::Searcher;
use crate::engine::strength::{self, Level, MIN_ELO};
use crate::engine::{Limits, Score, SearchOptions};
use crate::game::clock::TimeControl;

/// How every bot's name begins: no key account or open visitor may take a name like it.
pub const NAME_PREFIX: &str = "ox88-";

/// What follows a bot's name wherever a name is shown (lobby, seeks, games, rooms,
/// `:members`): plain ASCII, so it reads on any terminal at 80×24.
pub const MARK: &str = " [bot]";

/// Bots one server may seat.
pub const MOST: usize = 16;

/// The time control of the seek each bot keeps in the lobby, rated.
pub const SEEK: &str = "5+3";

/// A bot takes a draw offer when its last search scored its own side this much worse, or
/// more (centipawns): a lost position is better drawn; an even one it plays on.
pub const TAKES_DRAW_BELOW_CP: i32 = -150;

/// Kept off the clock's reading by every search: the time the move takes to reach the
/// room after the search (the owner's queue, the lag the room allows for).
const SAFETY: Duration = Duration::from_millis(300);

/// The transposition table of one bot's search, in MB: its node budgets are small.
const HASH_MB: usize = 4;

/// The name of the bot playing at `elo`.
pub fn name(elo: u32) -> String {
    format!("{NAME_PREFIX}{elo}")
}

/// The member the bot at `elo` is: no key, rated, its id `bot:<elo>`.
pub fn member(elo: u32) -> Member {
    Member {
        id: super::bot_id(elo),
        name: name(elo),
        rated: true,
    }
}

/// Is `name` a bot's (the prefix is reserved, so a name says it)? Compared without case.
pub fn is_bot_name(name: &str) -> bool {
    name.len() >= NAME_PREFIX.len()
        && name.as_bytes()[..NAME_PREFIX.len()].eq_ignore_ascii_case(NAME_PREFIX.as_bytes())
}

/// A name as the screens show it: a bot's with [`MARK`] after it, anyone else's as it is.
/// The one function every list of names goes through.
pub fn shown_name(name: &str) -> Cow<'_, str> {
    if is_bot_name(name) {
        Cow::Owned(format!("{name}{MARK}"))
    } else {
        Cow::Borrowed(name)
    }
}

/// The highest calibrated level: above it every level plays the top of the curve, so two
/// bots there would be one strength under two ratings.
pub fn top_level() -> u32 {
    strength::calibrated_top()
}

/// The levels of `--bots` (`1200,1600,2000`): each an Elo from [`MIN_ELO`] to
/// [`top_level`] (or a level's name: `club`), none twice, at most [`MOST`]. Refused with
/// what was wrong.
pub fn parse_levels(text: &str) -> Result<Vec<u32>, String> {
    let top = top_level();
    let mut levels = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let level: Level = part.parse().map_err(|e| format!("--bots {part:?}: {e}"))?;
        let Level::Elo(elo) = level else {
            return Err(format!(
                "--bots {part:?}: a bot plays at a calibrated level, an Elo from {MIN_ELO} \
                 to {top}, not at full strength"
            ));
        };
        if elo > top {
            return Err(format!(
                "--bots {elo}: levels are calibrated from {MIN_ELO} to {top} (above {top} \
                 every level plays as {top})"
            ));
        }
        if levels.contains(&elo) {
            return Err(format!("--bots {elo}: given twice (one bot a level)"));
        }
        levels.push(elo);
    }
    if levels.is_empty() {
        return Err("--bots: no level given (like --bots 1200,1600,2000)".into());
    }
    if levels.len() > MOST {
        return Err(format!("--bots: {} levels, at most {MOST}", levels.len()));
    }
    Ok(levels)
}

/// Does a bot take a game at `tc`? It plays only under a clock, so that a game against it
/// always ends (a player who walks away loses on time), and its think time comes from it.
pub fn takes(tc: Option<TimeControl>) -> Result<(), String> {
    match tc {
        None => Err(format!(
            "a bot plays only with a clock (try {SEEK}): a game without one could wait \
             forever"
        )),
        Some(_) => Ok(()),
    }
}

/// The limits of a bot's search as `side`, with `clocks` (White's, Black's) left and
/// `tc`'s increment: the clock less a margin for the move's way to the room, so a bot
/// never loses on time in normal play.
pub fn limits(clocks: Option<[Duration; 2]>, tc: Option<TimeControl>, side: Color) -> Limits {
    let Some(clocks) = clocks else {
        return Limits::default();
    };
    let inc = tc.map(|t| t.increment).unwrap_or_default();
    let left = |i: usize| {
        Some(
            clocks[i]
                .saturating_sub(SAFETY)
                .max(Duration::from_millis(10)),
        )
    };
    let mut limits = Limits {
        wtime: left(0),
        btime: left(1),
        winc: Some(inc),
        binc: Some(inc),
        ..Limits::default()
    };
    // Short of time: the level's think time and budget are capped by what is left.
    let mine = clocks[side.index()];
    if mine < Duration::from_secs(2) {
        limits.movetime = Some(mine / 10);
    }
    limits
}

/// A bot's move, weighed at its level.
#[derive(Clone, Debug)]
pub struct Thought {
    /// `None` only when the side to move has no legal move.
    pub mv: Option<Move>,
    /// The best candidate's score for the side to move, from the search.
    pub score: Option<Score>,
    /// What is left of the level's think time once the search is done: waited out before
    /// the move is played, so a bot seems to think as its level does (zero when the club
    /// plays bots at once, as in tests).
    pub wait: Duration,
}

/// Searches `board` as the bot at `elo` with `limits`; `seed` varies its choices.
pub fn think(board: &Board, elo: u32, limits: &Limits, seed: u64) -> Thought {
    let started = Instant::now();
    let mut searcher = Searcher::standalone();
    let options = SearchOptions {
        hash_mb: HASH_MB,
        own_book: false,
        ..SearchOptions::default()
    };
    let mut rng = Rng::new(seed | 1);
    let chosen = levels::think(
        &mut searcher,
        board,
        Level::Elo(elo),
        limits,
        &options,
        &mut rng,
    );
    let score = chosen.candidates.first().map(|c| c.score);
    Thought {
        mv: chosen.best(),
        score,
        wait: chosen.think.saturating_sub(started.elapsed()),
    }
}

/// Does a bot whose last search scored `score` (for its own side) take a draw offer?
pub fn takes_draw(score: Option<Score>) -> bool {
    match score {
        Some(Score::Cp(cp)) => cp <= TAKES_DRAW_BELOW_CP,
        Some(Score::Mate(n)) => n < 0,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_read_checked_and_refused_saying_why() {
        assert_eq!(parse_levels("1200, 1600,2000").unwrap(), [1200, 1600, 2000]);
        assert_eq!(parse_levels("club").unwrap(), [1600]);
        let refused = |text: &str, says: &str| {
            let e = parse_levels(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        };
        refused("", "no level given");
        refused("1600,1600", "given twice");
        refused("700", "out of range");
        refused("2600", "calibrated from 800 to 2400");
        refused("max", "not at full strength");
        refused("12oo", "unknown level");
        let many: Vec<String> = (0..=MOST).map(|i| (1000 + 10 * i).to_string()).collect();
        refused(&many.join(","), "at most");
    }

    #[test]
    fn a_bot_is_named_for_its_level_and_marked_wherever_shown() {
        let m = member(1600);
        assert_eq!(m.name, "ox88-1600");
        assert!(m.is_bot() && m.rated);
        assert_eq!(shown_name("ox88-1600"), "ox88-1600 [bot]");
        assert_eq!(shown_name("OX88-1600"), "OX88-1600 [bot]");
        assert_eq!(shown_name("alice"), "alice");
        assert_eq!(shown_name("ox88"), "ox88");
    }

    #[test]
    fn a_bot_takes_only_games_with_a_clock() {
        assert!(takes("1+0".parse().ok()).is_ok());
        assert!(takes(None).unwrap_err().contains("only with a clock"));
    }

    #[test]
    fn the_clock_less_a_margin_bounds_the_search() {
        let tc: Option<TimeControl> = "3+2".parse().ok();
        let l = limits(
            Some([Duration::from_secs(100), Duration::from_secs(50)]),
            tc,
            Color::Black,
        );
        assert_eq!(l.wtime, Some(Duration::from_millis(99_700)));
        assert_eq!(l.btime, Some(Duration::from_millis(49_700)));
        assert_eq!(l.binc, Some(Duration::from_secs(2)));
        assert_eq!(l.movetime, None);
        let short = limits(
            Some([Duration::from_secs(100), Duration::from_millis(500)]),
            tc,
            Color::Black,
        );
        assert_eq!(short.movetime, Some(Duration::from_millis(50)));
    }

    #[test]
    fn a_bot_finds_a_legal_move_and_takes_mate_in_one() {
        let board = Board::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").unwrap();
        let limits = limits(
            Some([Duration::from_secs(60), Duration::from_secs(60)]),
            None,
            Color::White,
        );
        let t = think(&board, 1200, &limits, 7);
        assert_eq!(t.mv.map(|m| m.to_string()).as_deref(), Some("a1a8"));
        assert!(matches!(t.score, Some(Score::Mate(n)) if n > 0), "{t:?}");
        assert!(!takes_draw(t.score));
        assert!(takes_draw(Some(Score::Cp(-400))));
        assert!(!takes_draw(Some(Score::Cp(0))));
        assert!(!takes_draw(None));
    }
}
