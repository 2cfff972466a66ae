//! The chess engine: the seed's 0x88 board, every rule of chess, evaluation, move ordering,
//! search and the opening book. No I/O and no terminal here.

pub mod attacks;
pub mod bench;
pub mod board;
pub mod book;
pub mod eval;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod order;
pub mod perft;
mod polyglot_keys;
pub mod report;
pub mod search;
pub mod tt;
pub mod types;

pub use board::{Board, CastlingRights};
pub use fen::FenError;
pub use movegen::GenKind;
pub use report::{Bound, IterationInfo, Limits, Score, SearchEvent, SearchOptions};
pub use types::{ByColor, Color, Move, MoveList, Piece, PieceKind, Square};

mod facade;
pub use facade::Engine;
