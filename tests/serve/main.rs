//! The integration tests of `ox88 serve`: the club's rules at its own API with a manual clock, and
//! what only SSH shows (a refusal on the OpenSSH client, a pty, two clients in a room), the log,
//! the database, and the load tests (ignored).
//!
//! One test binary for a group of modules, so that the crate and its dependencies link once per
//! group rather than once per file (each file under `tests/` would be a binary of its own).

// One copy of the shared helpers for every binary; each binary uses its own part of them.
#[allow(dead_code)]
#[path = "../common/mod.rs"]
mod common;

mod arena_load;
mod club;
mod club_identity;
mod club_load;
mod club_rules;
mod club_store;
mod club_study;
mod input;
mod load;
mod log;
mod serve;
mod ssh;
mod study_load;
