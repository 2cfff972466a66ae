//! The integration tests of games and their formats: games and PGN, review, puzzles, the
//! configuration file, the command line's output, the UCI conversation and tournaments (arena
//! scoring and pairing; Swiss pairing, standings, TRF).
//!
//! One test binary for a group of modules, so that the crate and its dependencies link once per
//! group rather than once per file (each file under `tests/` would be a binary of its own).

// One copy of the shared helpers for every binary; each binary uses its own part of them.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;

mod arena;
mod cli_output;
mod config;
mod game;
mod pgn;
mod puzzles;
mod review;
mod swiss;
mod uci;
