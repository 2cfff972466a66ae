//! The club as one viewer's app sees it (under `ox88 serve`): `view.rs` the part (the
//! viewer's hold on the club, where they are, the copy of the club drawing reads, their own
//! choices), `room.rs` the hub's side of a room (in and out, its game copied in, moves and
//! chat sent, keys refused there), `study.rs` the hub's side of a study (in and out, the
//! position followed or browsed, its commands and keys, the analysis's scores kept),
//! `keys.rs` the club's own keys. Its `:` commands are the
//! one command table's (`command/`).

mod keys;
mod room;
mod study;
mod view;

pub use view::{ClubView, EngineJob, LobbyRow, Place};
