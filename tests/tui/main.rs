//! The terminal interface's integration tests: panes and keys drawn on ratatui's TestBackend with a
//! recording engine, and the real binary in a pseudo-terminal.
//!
//! One test binary for a group of modules, so that the crate and its dependencies link once per
//! group rather than once per file (each file under `tests/` would be a binary of its own).

// One copy of the shared helpers for every binary; each binary uses its own part of them.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;

mod board_keys;
mod clocks;
mod explorer;
mod lab;
mod play;
mod pty;
mod puzzles;
mod reading;
mod render;
mod settings;
mod sort;
mod syzygy;
mod turns;
