//! The chess engine on top of `crate::chess`: evaluation, move ordering, search, the
//! transposition table and the opening book. No I/O and no terminal here.

pub mod bench;
pub mod book;
pub mod eval;
pub mod jobs;
pub mod levels;
pub mod names;
pub mod order;
pub mod report;
pub mod score;
pub mod search;
pub mod stats;
pub mod strength;
pub mod tree;
pub mod tt;

pub use report::{IterationInfo, LevelReport, Limits, RootMoveRow, SearchEvent, SearchOptions};
pub use score::{Bound, Score};

mod facade;
pub use facade::Engine;
