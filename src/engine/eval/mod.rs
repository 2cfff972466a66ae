//! Evaluation E (seed 002). STUB: interface agreed with the search; bodies to be written.

use std::fmt;
use std::str::FromStr;

use super::board::Board;
use super::types::Color;

/// Which evaluation to use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalMode {
    /// The seed's material sum.
    Material,
    /// Material plus the seed's `areaCtrl` centre table.
    Center,
    /// The strong evaluation we play with.
    #[default]
    Full,
}

impl EvalMode {
    pub const ALL: [EvalMode; 3] = [EvalMode::Material, EvalMode::Center, EvalMode::Full];
    pub fn name(self) -> &'static str {
        match self {
            EvalMode::Material => "material",
            EvalMode::Center => "center",
            EvalMode::Full => "full",
        }
    }
}

impl fmt::Display for EvalMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for EvalMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        EvalMode::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("{s}: not an evaluation mode (material, center, full)"))
    }
}

/// Piece-value presets from the seed's table, for `material` and `center`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ValuePreset {
    #[default]
    Seed,
    Standard,
    Fischer,
    Kaufman,
    EuweKramer,
    Evans,
    Staunton,
    Bilguer,
    Gik,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EvalConfig {
    pub mode: EvalMode,
    pub preset: ValuePreset,
}

/// Static evaluation in centipawns from the side to move's point of view (what negamax wants).
pub fn evaluate(board: &Board, cfg: &EvalConfig) -> i32 {
    evaluate_white(board, cfg) * board.side_to_move().sign()
}

/// The seed's E: centipawns from White's point of view.
pub fn evaluate_white(board: &Board, _cfg: &EvalConfig) -> i32 {
    board.material(Color::White) - board.material(Color::Black)
}
