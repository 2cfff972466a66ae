//! Level games for the miner: ox88 against itself at strengths below its full one, from the
//! balanced openings. A level misjudges by the noise of its strength and now and then picks
//! a move it scored lower, so its games hold the mistakes people make (a piece left hanging,
//! a mate missed), which is what puzzles are made of.
//!
//! Each game starts after one opening's moves (so the game keeps its opening's name for the
//! puzzles' `OpeningTags`) and pairs two strengths drawn from a list by a seeded generator:
//! the same settings play the same games. The engine plays in this process, without the
//! UCI round trips that a match runner costs per move.

use crate::engine::levels::{self, Level, Rng};
use crate::engine::search::Searcher;
use crate::engine::{Limits, SearchOptions};
use crate::game::{Game, rules_verdict};

/// What games to play.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelGames {
    /// The strengths (Elo) that are paired at random, each side drawn on its own.
    pub elos: Vec<u32>,
    /// A game still going after this many plies is cut off (`*`): nothing is lost for
    /// puzzles, and long endings of a lopsided game hold none.
    pub max_plies: usize,
    pub seed: u64,
}

impl Default for LevelGames {
    fn default() -> LevelGames {
        LevelGames {
            elos: vec![800, 1000, 1200, 1500, 1800, 2100],
            max_plies: 200,
            seed: 1,
        }
    }
}

impl LevelGames {
    /// The two strengths of game `number` (White's, Black's): a function of the seed and
    /// the number only, so games can be played in any order or in pieces.
    pub fn pairing(&self, number: u64) -> (u32, u32) {
        let mut rng = Rng::new(self.seed ^ number.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let n = self.elos.len().max(1) as u64;
        let pick = |r: &mut Rng| self.elos[(r.next_u64() % n) as usize];
        (pick(&mut rng), pick(&mut rng))
    }

    /// Plays game `number` on from `opening`'s moves. The game's tags name the levels.
    pub fn play(&self, searcher: &mut Searcher, opening: &Game, number: u64) -> Game {
        let (white, black) = self.pairing(number);
        let mut rng = Rng::new(self.seed.wrapping_add(number).wrapping_mul(31) | 1);
        let mut game = opening.clone();
        game.tags = Default::default();
        game.tags.set("Event", "ox88 level games for puzzles");
        game.tags.set("Site", "?");
        game.tags.set("Round", &number.to_string());
        game.tags.set("White", &format!("ox88 {white}"));
        game.tags.set("Black", &format!("ox88 {black}"));
        let options = SearchOptions {
            own_book: false,
            hash_mb: 16,
            ..SearchOptions::default()
        };
        searcher.new_game();
        while game.len() < self.max_plies && rules_verdict(game.board()).is_none() {
            let elo = if game.board().side_to_move().index() == 0 {
                white
            } else {
                black
            };
            let chosen = levels::think(
                searcher,
                game.board(),
                Level::Elo(elo),
                &Limits::default(),
                &options,
                &mut rng,
            );
            let Some(mv) = chosen.best() else {
                break;
            };
            if game.play(mv).is_err() {
                break;
            }
        }
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_game_is_legal_ends_by_the_rules_or_the_cap_and_names_its_levels() {
        let settings = LevelGames {
            elos: vec![800],
            max_plies: 30,
            seed: 7,
        };
        let opening = Game::from_pgn("1. e4 e5 2. Nf3 Nc6 *").expect("a game");
        let mut searcher = Searcher::standalone();
        let game = settings.play(&mut searcher, &opening, 3);
        assert_eq!(game.sans()[..4], ["e4", "e5", "Nf3", "Nc6"]);
        assert!(game.len() == 30 || rules_verdict(game.board()).is_some());
        assert_eq!(game.tags.get("White"), Some("ox88 800"));
        assert_eq!(game.tags.get("Round"), Some("3"));
        let again = Game::from_pgn(&game.to_pgn()).expect("its PGN reads back");
        assert_eq!(again.sans(), game.sans());
    }

    #[test]
    fn pairings_depend_on_the_seed_and_number_only_and_cover_the_list() {
        let settings = LevelGames::default();
        let pairs: Vec<_> = (0..200).map(|n| settings.pairing(n)).collect();
        assert_eq!(
            pairs,
            (0..200).map(|n| settings.pairing(n)).collect::<Vec<_>>()
        );
        for elo in &settings.elos {
            assert!(
                pairs.iter().any(|(w, b)| w == elo || b == elo),
                "{elo} never plays"
            );
        }
    }
}
