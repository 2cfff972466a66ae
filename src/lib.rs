//! ox88: a chess program for the terminal on the seed pages' 0x88 board.

pub mod engine;
