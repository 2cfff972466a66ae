//! ox88: a chess program for the terminal on the seed pages' 0x88 board. It plays, and it
//! shows its thinking: the evaluation E, node counts and the order in which it tries moves.

pub mod chess;
pub mod club;

pub mod engine;
pub mod game;
pub mod puzzle;
pub mod serve;
pub mod tui;
pub mod tune;
pub mod uci;
