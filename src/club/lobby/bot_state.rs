//! What the club's owner keeps of its bots: who is seated at which level, the searches
//! asked for and not yet played, and how soon a move is played. The state alone; what the
//! bots do with it is `bots.rs`.

use std::collections::HashMap;
use std::sync::mpsc::SyncSender;

use super::Command;
use crate::club::Member;
use crate::engine::Score;

/// How soon a bot plays its move once the search is done.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pace {
    /// After the level's think time (what the search did not use of it): a bot seems to
    /// think as its level does. The server's.
    #[default]
    Level,
    /// At once (tests, where only the moves matter).
    AtOnce,
}

/// One bot seated: its viewer number, level and member.
#[derive(Clone, Debug)]
pub(super) struct Seated {
    pub(super) viewer: u64,
    pub(super) elo: u32,
    pub(super) member: Member,
}

/// A bot's search asked for: the game and ply it is for, and whether it runs yet.
#[derive(Clone, Debug)]
pub(super) struct Job {
    pub(super) room: String,
    pub(super) game: String,
    pub(super) ply: usize,
    pub(super) bot: usize,
    pub(super) started: bool,
}

/// The bots the owner keeps, and their searches under way.
#[derive(Default)]
pub(in crate::club) struct Bots {
    pub(super) seated: Vec<Seated>,
    /// By job number (a number of the owner's, as a viewer's: the budget's key).
    pub(super) jobs: HashMap<u64, Job>,
    /// Where a search sends its move: the owner's own queue (set when bots are seated).
    pub(super) inbox: Option<SyncSender<Command>>,
    pub(super) pace: Pace,
    /// Each room's bot's last score (for its side), with the game it was for: what a draw
    /// offer is answered by.
    pub(super) scores: HashMap<String, (String, Score)>,
}
