//! The chess engine on top of `crate::chess`: evaluation, move ordering, search, the
//! transposition table and the opening book. No I/O and no terminal here.

pub mod bench;
pub mod book;
pub mod eval;
pub mod levels;
pub mod order;
pub mod report;
pub mod search;
pub mod tt;

pub use report::{Bound, IterationInfo, Limits, Score, SearchEvent, SearchOptions};

mod facade;
pub use facade::Engine;
