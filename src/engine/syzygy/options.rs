//! How the search uses a set of tables: the options UCI names `SyzygyPath`,
//! `SyzygyProbeDepth`, `SyzygyProbeLimit` and `Syzygy50MoveRule` (Stockfish's names and
//! defaults), carried in `SearchOptions` to every search thread.

use std::fmt;
use std::sync::Arc;

use super::Tablebases;

/// The deepest `SyzygyProbeDepth` one may ask for.
pub const PROBE_DEPTH_MAX: u32 = 100;
/// The most men `SyzygyProbeLimit` may allow (the largest Syzygy tables hold seven).
pub const PROBE_LIMIT_MAX: u32 = 7;

/// The tables the search probes, and when.
#[derive(Clone)]
pub struct SyzygyOptions {
    /// The tables, shared by every search thread; `None`: no probing at all.
    pub tables: Option<Arc<Tablebases>>,
    /// Nodes with fewer plies left than this are not probed (a probe costs more than a
    /// shallow search of a position the tables will settle higher up anyway).
    pub probe_depth: u32,
    /// Positions with more men than this are not probed, whatever the tables hold.
    pub probe_limit: u32,
    /// Wins that need more than fifty moves without a capture or pawn move (cursed wins,
    /// and blessed losses) count as draws, as the fifty-move rule makes them; otherwise
    /// as wins and losses.
    pub fifty_move_rule: bool,
}

impl Default for SyzygyOptions {
    fn default() -> Self {
        SyzygyOptions {
            tables: None,
            probe_depth: 1,
            probe_limit: PROBE_LIMIT_MAX,
            fifty_move_rule: true,
        }
    }
}

impl SyzygyOptions {
    /// The most men a position may have to be probed: the smaller of the limit and the
    /// largest table's; 0 without tables.
    pub fn probe_men(&self) -> usize {
        self.tables
            .as_ref()
            .map_or(0, |t| t.max_men().min(self.probe_limit as usize))
    }
}

/// Two settings are the same when they name the same opened set of tables (not merely
/// equal files) with the same limits.
impl PartialEq for SyzygyOptions {
    fn eq(&self, other: &Self) -> bool {
        let same_tables = match (&self.tables, &other.tables) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        same_tables
            && self.probe_depth == other.probe_depth
            && self.probe_limit == other.probe_limit
            && self.fifty_move_rule == other.fifty_move_rule
    }
}

impl fmt::Debug for SyzygyOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyzygyOptions")
            .field(
                "tables",
                &self.tables.as_ref().map(|t| (t.file_counts(), t.max_men())),
            )
            .field("probe_depth", &self.probe_depth)
            .field("probe_limit", &self.probe_limit)
            .field("fifty_move_rule", &self.fifty_move_rule)
            .finish()
    }
}
