//! The counters a search keeps ([`SearchStats`]: nodes, cutoffs, table hits, null moves,
//! reductions, extensions) and the shares derived from them, as the bench, the sort pane and
//! each iteration's report show them. A leaf: the search fills them in, the reports carry
//! them.

/// Counters of one search (or one bench position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub nodes: u64,
    /// Nodes (main search) that failed high, and those that did so on their first move.
    pub fail_high: u64,
    pub fail_high_first: u64,
    /// Over the nodes that failed high, the sum of the 0-based index (among the moves
    /// searched there) of the move that cut.
    pub cut_index_sum: u64,
    /// Transposition-table probes and the probes that found an entry.
    pub tt_probes: u64,
    pub tt_hits: u64,
    /// Null moves tried and those that cut off.
    pub null_tries: u64,
    pub null_cutoffs: u64,
    /// Moves searched with a late-move reduction, and those re-searched at full depth.
    pub reduced: u64,
    pub researched: u64,
    /// Nodes made in quiescence (part of `nodes`).
    pub qnodes: u64,
    /// Hash moves found singular and searched deeper (one ply or two), those of them
    /// searched two plies deeper, and hash moves searched a ply shallower because another
    /// move also came close.
    pub singular: u64,
    pub doubled: u64,
    pub shortened: u64,
    /// Tablebase probes that gave a result (the root's moves ranked count one each). Unlike
    /// the others, [`SearchStats::since`] keeps the search's total here: UCI's `tbhits`
    /// counts the whole search.
    pub tb_hits: u64,
}

impl SearchStats {
    pub fn first_move_cutoff(&self) -> f64 {
        if self.fail_high == 0 {
            0.0
        } else {
            self.fail_high_first as f64 / self.fail_high as f64
        }
    }

    /// The share of table probes that found an entry.
    pub fn tt_hit_rate(&self) -> f64 {
        ratio(self.tt_hits, self.tt_probes)
    }

    /// The share of null-move tries that cut off.
    pub fn null_cutoff_rate(&self) -> f64 {
        ratio(self.null_cutoffs, self.null_tries)
    }

    /// The share of reduced moves that had to be searched again at full depth.
    pub fn research_rate(&self) -> f64 {
        ratio(self.researched, self.reduced)
    }

    /// The share of nodes made in quiescence.
    pub fn qnode_share(&self) -> f64 {
        ratio(self.qnodes, self.nodes)
    }

    /// Adds another search's counters (bench totals).
    pub fn add(&mut self, o: &SearchStats) {
        self.nodes += o.nodes;
        self.fail_high += o.fail_high;
        self.fail_high_first += o.fail_high_first;
        self.cut_index_sum += o.cut_index_sum;
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.null_tries += o.null_tries;
        self.null_cutoffs += o.null_cutoffs;
        self.reduced += o.reduced;
        self.researched += o.researched;
        self.qnodes += o.qnodes;
        self.singular += o.singular;
        self.doubled += o.doubled;
        self.shortened += o.shortened;
        self.tb_hits += o.tb_hits;
    }

    /// The counters since `before` (one iteration's, from the cumulative ones).
    pub fn since(&self, before: &SearchStats) -> SearchStats {
        SearchStats {
            nodes: self.nodes - before.nodes,
            fail_high: self.fail_high - before.fail_high,
            fail_high_first: self.fail_high_first - before.fail_high_first,
            cut_index_sum: self.cut_index_sum - before.cut_index_sum,
            tt_probes: self.tt_probes - before.tt_probes,
            tt_hits: self.tt_hits - before.tt_hits,
            null_tries: self.null_tries - before.null_tries,
            null_cutoffs: self.null_cutoffs - before.null_cutoffs,
            reduced: self.reduced - before.reduced,
            researched: self.researched - before.researched,
            qnodes: self.qnodes - before.qnodes,
            singular: self.singular - before.singular,
            doubled: self.doubled - before.doubled,
            shortened: self.shortened - before.shortened,
            tb_hits: self.tb_hits,
        }
    }

    /// The average 0-based index of the move that cut off (0 = always the first).
    pub fn avg_cut_index(&self) -> f64 {
        if self.fail_high == 0 {
            0.0
        } else {
            self.cut_index_sum as f64 / self.fail_high as f64
        }
    }
}

fn ratio(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
