//! A player's puzzle record: their Glicko-2 puzzle rating, streak and history, the ratings
//! of the puzzles as their results moved them, and their own mistakes kept as puzzles.
//! Kept as JSON (`puzzles.json` in the data directory, or per key on a server), written
//! atomically after every puzzle.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Puzzle;
use crate::game::glicko::{Outcome, Rating};

/// The file name in the data directory.
pub const FILE_NAME: &str = "puzzles.json";
/// Attempts kept in the history (the oldest go first).
const HISTORY_CAP: usize = 2_000;
/// A puzzle played within this many attempts is not served again while others are left.
const RECENT: usize = 500;
/// An own puzzle is served until it has been solved this many times.
pub const OWN_SOLVES: u32 = 2;

/// One puzzle played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub id: String,
    /// Solved at the first try, without a look at the solution.
    pub solved: bool,
    /// The player's rating after it.
    pub rating: f64,
    /// The puzzle's rating when it was played.
    pub puzzle_rating: f64,
    /// `YYYY-MM-DD`.
    pub date: String,
}

/// A mistake of the player's own, kept as a puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OwnPuzzle {
    pub puzzle: Puzzle,
    /// Times solved cleanly; served until [`OWN_SOLVES`].
    pub solved: u32,
    pub added: String,
}

/// Which puzzle to serve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Near the player's rating.
    Any,
    /// With this theme, near the player's rating.
    Theme(String),
    /// Near this rating.
    Rating(u32),
    /// The player's own mistakes, oldest first.
    Own,
}

/// A player's puzzle record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    pub rating: Rating,
    pub streak: u32,
    pub best_streak: u32,
    pub history: Vec<Attempt>,
    /// The puzzles' ratings as this player's results moved them (by puzzle id).
    pub puzzle_ratings: BTreeMap<String, Rating>,
    pub own: Vec<OwnPuzzle>,
}

/// A rating before and after a puzzle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub before: f64,
    pub after: f64,
}

/// Why the record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProgressError {
    #[error("{}: {source}", path.display())]
    Io {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a puzzle record ({source}); it was left as it is", path.display())]
    Format {
        path: std::path::PathBuf,
        source: serde_json::Error,
    },
}

impl Progress {
    /// Reads the record; a missing file is a new player. A file that does not read is
    /// an error and is left untouched (the caller plays on without saving over it).
    pub fn load(path: &Path) -> Result<Progress, ProgressError> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Progress::default()),
            Err(source) => {
                return Err(ProgressError::Io {
                    path: path.to_path_buf(),
                    source,
                });
            }
        };
        serde_json::from_str(&text).map_err(|source| ProgressError::Format {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Writes the record atomically.
    pub fn save(&self, path: &Path) -> Result<(), ProgressError> {
        let io = |source| ProgressError::Io {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let text = serde_json::to_string_pretty(self).expect("a record always serialises");
        crate::game::autosave::write_atomic(path, text.as_bytes()).map_err(io)
    }

    /// The puzzle's rating as this player knows it.
    pub fn puzzle_rating(&self, p: &Puzzle) -> Rating {
        self.puzzle_ratings
            .get(&p.id)
            .copied()
            .unwrap_or(Rating::new(
                f64::from(p.rating),
                f64::from(p.rating_deviation.clamp(50, 350)),
                crate::game::glicko::DEFAULT_VOLATILITY,
            ))
    }

    /// Counts a puzzle played: the player's rating and the puzzle's move (Glicko-2, one
    /// game each), the streak and the history; an own puzzle solved counts towards its
    /// retirement.
    pub fn record(&mut self, p: &Puzzle, solved: bool, date: &str) -> Change {
        let before = self.rating;
        let theirs = self.puzzle_rating(p);
        let score = if solved { 1.0 } else { 0.0 };
        self.rating = before.update(&[Outcome {
            opponent: theirs,
            score,
        }]);
        let moved = theirs.update(&[Outcome {
            opponent: before,
            score: 1.0 - score,
        }]);
        self.puzzle_ratings.insert(p.id.clone(), moved);
        if solved {
            self.streak += 1;
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
        self.history.push(Attempt {
            id: p.id.clone(),
            solved,
            rating: self.rating.rating,
            puzzle_rating: theirs.rating,
            date: date.to_string(),
        });
        if self.history.len() > HISTORY_CAP {
            let extra = self.history.len() - HISTORY_CAP;
            self.history.drain(..extra);
        }
        if solved && let Some(own) = self.own.iter_mut().find(|o| o.puzzle.id == p.id) {
            own.solved += 1;
        }
        Change {
            before: before.rating,
            after: self.rating.rating,
        }
    }

    /// Keeps a mistake as a puzzle (once per position and answer).
    pub fn add_own(&mut self, puzzle: Puzzle, date: &str) -> bool {
        if self.own.iter().any(|o| o.puzzle.id == puzzle.id) {
            return false;
        }
        self.own.push(OwnPuzzle {
            puzzle,
            solved: 0,
            added: date.to_string(),
        });
        true
    }

    /// Own puzzles still to be solved.
    pub fn own_pending(&self) -> usize {
        self.own.iter().filter(|o| o.solved < OWN_SOLVES).count()
    }

    /// The next puzzle to serve from `set` for `choice`; `seed` varies the pick among the
    /// puzzles closest in rating. `None` when nothing matches.
    pub fn pick(&self, set: &[Puzzle], choice: &Choice, seed: u64) -> Option<Puzzle> {
        if *choice == Choice::Own {
            return self
                .own
                .iter()
                .find(|o| o.solved < OWN_SOLVES)
                .map(|o| o.puzzle.clone());
        }
        let target = match choice {
            Choice::Rating(r) => f64::from(*r),
            _ => self.rating.rating,
        };
        let themed: Vec<&Puzzle> = set
            .iter()
            .filter(|p| match choice {
                Choice::Theme(t) => p.has_theme(t),
                _ => true,
            })
            .collect();
        let recent: HashSet<&str> = self
            .history
            .iter()
            .rev()
            .take(RECENT)
            .map(|a| a.id.as_str())
            .collect();
        let fresh: Vec<&Puzzle> = themed
            .iter()
            .copied()
            .filter(|p| !recent.contains(p.id.as_str()))
            .collect();
        let mut pool = if fresh.is_empty() { themed } else { fresh };
        if pool.is_empty() {
            return None;
        }
        pool.sort_by(|a, b| {
            let da = (self.puzzle_rating(a).rating - target).abs();
            let db = (self.puzzle_rating(b).rating - target).abs();
            da.total_cmp(&db).then_with(|| a.id.cmp(&b.id))
        });
        let nearest = pool.len().min(12);
        let i = (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 33) as usize % nearest;
        Some(pool[i].clone())
    }

    /// What `:puzzle stats` shows, a line each.
    pub fn summary(&self) -> Vec<String> {
        let played = self.history.len();
        let solved = self.history.iter().filter(|a| a.solved).count();
        let last: String = self
            .history
            .iter()
            .rev()
            .take(20)
            .rev()
            .map(|a| if a.solved { '✓' } else { '✗' })
            .collect();
        let mut lines = vec![
            format!(
                "puzzle rating {:.0} ± {:.0}",
                self.rating.rating,
                2.0 * self.rating.deviation
            ),
            format!(
                "{played} played, {solved} solved at the first try ({:.0}%)",
                if played > 0 {
                    100.0 * solved as f64 / played as f64
                } else {
                    0.0
                }
            ),
            format!("streak {} (best {})", self.streak, self.best_streak),
        ];
        if !last.is_empty() {
            lines.push(format!("last {}: {last}", last.chars().count()));
        }
        lines.push(format!(
            "own mistakes to solve: {} (each until solved {OWN_SOLVES} times)",
            self.own_pending()
        ));
        lines
    }
}

/// Reads what follows `:puzzle`: nothing (near the player's rating), a rating, `mine` (the
/// player's own mistakes) or a theme that some puzzle of `set` has.
pub fn parse_choice(arg: &str, set: &[Puzzle]) -> Result<Choice, String> {
    let arg = arg.trim();
    if arg.is_empty() {
        return Ok(Choice::Any);
    }
    if arg.eq_ignore_ascii_case("mine") {
        return Ok(Choice::Own);
    }
    if let Ok(r) = arg.parse::<u32>() {
        if (400..=3200).contains(&r) {
            return Ok(Choice::Rating(r));
        }
        return Err(format!("a puzzle rating is 400 to 3200, not {r}"));
    }
    if let Some(theme) = set
        .iter()
        .flat_map(|p| p.themes.iter())
        .find(|t| t.eq_ignore_ascii_case(arg))
    {
        return Ok(Choice::Theme(theme.clone()));
    }
    let mut themes: Vec<&str> = set
        .iter()
        .flat_map(|p| p.themes.iter().map(String::as_str))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    themes.truncate(40);
    Err(format!(
        "no puzzle has the theme '{arg}'; themes: {}",
        themes.join(" ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{puzzle_id, test_puzzle};

    fn puzzle(n: u32, rating: u32, themes: &[&str]) -> Puzzle {
        let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
        let p = test_puzzle(fen, &format!("a1a{} c1c2", 2 + n % 6));
        Puzzle {
            id: puzzle_id(&format!("{fen}{n}"), &p.moves),
            rating,
            rating_deviation: 80,
            themes: themes.iter().map(|t| t.to_string()).collect(),
            ..p
        }
    }

    #[test]
    fn solving_raises_failing_lowers_and_the_puzzle_moves_the_other_way() {
        let mut me = Progress::default();
        let p = puzzle(1, 1500, &["fork"]);
        let up = me.record(&p, true, "2026-11-27");
        assert!(up.after > up.before);
        assert!(me.puzzle_rating(&p).rating < 1500.0);
        assert_eq!(me.streak, 1);
        let q = puzzle(2, 1500, &["pin"]);
        let down = me.record(&q, false, "2026-11-27");
        assert!(down.after < down.before);
        assert!(me.puzzle_rating(&q).rating > 1500.0);
        assert_eq!((me.streak, me.best_streak), (0, 1));
        assert_eq!(me.history.len(), 2);
    }

    #[test]
    fn picks_near_the_rating_with_the_theme_and_not_again_soon() {
        let set: Vec<Puzzle> = (0..40)
            .map(|n| {
                puzzle(
                    n,
                    600 + 50 * n,
                    if n % 2 == 0 { &["fork"] } else { &["pin"] },
                )
            })
            .collect();
        let me = Progress::default();
        let p = me.pick(&set, &Choice::Rating(2000), 3).unwrap();
        assert!((p.rating as i32 - 2000).abs() <= 300, "{}", p.rating);
        let p = me.pick(&set, &Choice::Theme("pin".into()), 5).unwrap();
        assert!(p.has_theme("pin"));
        let mut me = Progress::default();
        let first = me.pick(&set, &Choice::Any, 1).unwrap();
        me.record(&first, true, "d");
        for seed in 0..50 {
            assert_ne!(me.pick(&set, &Choice::Any, seed).unwrap().id, first.id);
        }
        assert!(me.pick(&set, &Choice::Theme("skewer".into()), 1).is_none());
    }

    #[test]
    fn own_puzzles_are_served_oldest_first_until_solved_twice() {
        let mut me = Progress::default();
        let (a, b) = (puzzle(1, 1200, &[]), puzzle(2, 1300, &[]));
        assert!(me.add_own(a.clone(), "2026-11-01"));
        assert!(!me.add_own(a.clone(), "2026-11-02"), "once per puzzle");
        me.add_own(b.clone(), "2026-11-03");
        assert_eq!(me.pick(&[], &Choice::Own, 0).unwrap().id, a.id);
        me.record(&a, true, "d");
        assert_eq!(me.pick(&[], &Choice::Own, 0).unwrap().id, a.id);
        me.record(&a, false, "d");
        me.record(&a, true, "d");
        assert_eq!(me.pick(&[], &Choice::Own, 0).unwrap().id, b.id);
        assert_eq!(me.own_pending(), 1);
    }

    #[test]
    fn the_record_survives_a_save_and_a_bad_file_is_left_alone() {
        let dir = std::env::temp_dir().join(format!("ox88-progress-{}", std::process::id()));
        let path = dir.join(FILE_NAME);
        let mut me = Progress::default();
        me.record(&puzzle(1, 1500, &[]), true, "2026-11-27");
        me.save(&path).unwrap();
        assert_eq!(Progress::load(&path).unwrap(), me);
        std::fs::write(&path, "{ not json").unwrap();
        let e = Progress::load(&path).unwrap_err().to_string();
        assert!(e.contains("not a puzzle record"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "{ not json");
        assert_eq!(
            Progress::load(&dir.join("none.json")).unwrap(),
            Progress::default()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_choice_is_a_rating_a_theme_or_mine() {
        let set = vec![puzzle(1, 1500, &["mateIn2", "fork"])];
        assert_eq!(parse_choice("", &set), Ok(Choice::Any));
        assert_eq!(parse_choice("1800", &set), Ok(Choice::Rating(1800)));
        assert_eq!(parse_choice("MINE", &set), Ok(Choice::Own));
        assert_eq!(
            parse_choice("matein2", &set),
            Ok(Choice::Theme("mateIn2".into()))
        );
        let e = parse_choice("zwischenzug", &set).unwrap_err();
        assert!(e.contains("fork mateIn2"), "{e}");
        assert!(parse_choice("99999", &set).is_err());
    }
}
