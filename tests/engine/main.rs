//! The engine's integration tests: rules and perft, notation, evaluation and its network, move
//! ordering, the search and its threads, tablebases, the book, the levels and the lab.
//!
//! One test binary for a group of modules, so that the crate and its dependencies link once per
//! group rather than once per file (each file under `tests/` would be a binary of its own).

// One copy of the shared helpers for every binary; each binary uses its own part of them.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;

mod book;
mod eval;
mod eval_cache;
mod fen_props;
mod known;
mod lab;
mod levels;
mod net;
mod nn_train;
mod notation;
mod order;
mod perft;
mod picker;
mod root_moves;
mod rules_oracle;
mod search;
mod syzygy;
mod syzygy_search;
mod threads;
mod tree;
mod tune;
