//! `ox88 serve`: the TUI over SSH, for players with nothing installed but `ssh` (issue 16).

pub mod input;
