//! The rules of chess on the seed pages' 0x88 board, and nothing else: squares, pieces and
//! moves; the board with make/unmake and Polyglot Zobrist keys; attack tables; legal move
//! generation; FEN; coordinate and SAN notation; perft. Evaluation, ordering and search live
//! in `crate::engine` and use only this module's public API.

pub mod attacks;
pub mod board;
pub mod fen;
pub mod movegen;
pub mod notation;
pub mod perft;
mod polyglot_keys;
pub mod types;

pub use board::{Board, CastlingRights, IllegalMove};
pub use fen::FenError;
pub use movegen::GenKind;
pub use types::{ByColor, Color, Move, MoveList, Piece, PieceKind, Square};
