//! The chess engine on top of `crate::chess`: evaluation, move ordering, search, the
//! transposition table and the opening book. No I/O and no terminal here.

pub mod bench;
pub mod book;
pub mod eval;
pub mod jobs;
pub mod levels;
pub mod names;
pub mod order;
pub mod priority;
pub mod report;
pub mod score;
pub mod search;
pub mod stats;
pub mod strength;
pub mod syzygy;
pub mod tree;
pub mod tt;

pub use report::{IterationInfo, LevelReport, Limits, RootMoveRow, SearchEvent, SearchOptions};
pub use score::{Bound, Score};

/// The deepest search one may ask for, in plies (`go depth`, the TUI's depth setting and
/// flag): past it no search finishes in a lifetime, and the bound keeps absurd numbers out
/// of the search's ply arithmetic (the search stack holds 128 plies).
pub const MAX_DEPTH: u32 = 127;

/// The largest transposition table one may ask for, in MB (UCI's `Hash`, `--hash`, `:set
/// hash`).
pub const HASH_MAX_MB: usize = 65_536;

mod facade;
pub use facade::Engine;
