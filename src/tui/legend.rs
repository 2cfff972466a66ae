//! What each number on the screen is, said once: the help lists every entry, and each pane's
//! legend (`?` with the pane focused) shows the entries for what that pane shows, so the two
//! cannot say different things.

/// One number or column: the name it goes by on screen, and what it is.
pub type Entry = (&'static str, &'static str);

/// Every entry, in the order the help lists them.
pub const NUMBERS: &[Entry] = &[
    (
        "E",
        "the evaluation's verdict on the position, one number wherever it is shown (board, log, chart, eval pane): White's view in pawns (+0.35: White about a third of a pawn better). Captures in flight are played out first (a recapture still to come is counted), so E moves with the position, not with whoever just moved; nothing else is looked ahead at. The eval setting picks the evaluation: net (the default) weighs the network's view three parts to one with the search's own value; full is the sum of the terms the eval pane lists; material and center count the seed page's piece values. A mated or stalemated position says so instead",
    ),
    (
        "search",
        "the engine's score after searching, White's view in pawns at the depth named (d12): what E becomes when the engine looks ahead. #3: White mates in 3 moves, #-3: Black does; ≥ or ≤: the search proved only a bound; +TB/-TB: the tablebases' win. The board shows it as engine d12 +0.35; on a move's log line (E +0.12 · search +0.35 d12) it is the score of the position after the move, as the saved PGN's [%eval] writes it",
    ),
    (
        "d7/12 … E",
        "a log line per finished iteration: depth 7 (plies searched in full), 12 the deepest ply reached, time, nodes, n/s, the search's score (E there is the seed's name for it) and the principal variation (pv); [1st …% ebf … tt …%] as in the sort pane; with several lines (:multipv) each begins pv1, pv2, …",
    ),
    (
        "Material",
        "under the board: the material difference in pawns, White's view, counted with the piece values the line names (standard by default: P1 N3 B3 R5 Q9; :set values seed counts the seed page's P1 N3 B4.5 R5 Q10), and the pieces each side has more of",
    ),
    (
        "eval pane",
        "each term of the full (hand-made) evaluation for White, for Black and net (White − Black), adding up to sum (full) below them; then E, the number the board and the log show (E (net) when the net evaluation is in force); F7: the same beside the position at the PV's end; E by mode: this position's E in each eval mode",
    ),
    (
        "chart",
        "E over the game: ⣀ E after each move (the board's E), • the search's score where the engine searched or a review scored the move, both White's view clipped to ±5 pawns; █ marks a mate (on the edge), a review mark and the move shown",
    ),
    (
        "level",
        "a level below max logs each move it weighed: budget, the nodes and depth it may search (the clock: its time alone); searched depth, nodes and lines: what the search reached and how many candidate lines (MultiPV) it gave; think, the seconds the move is made to take in all; then a line per candidate, → the one played: its search score, weighed, the value the level judged it by with its noise added (centipawns), and p, the chance the level gave it of being picked; scores and weighed values are White's view",
    ),
    (
        "status line",
        "the side to move (or the result); W and B the clocks, the one running in [ ]; review [███░░] 12/40 ~30s left: a review's positions done of all and the time it still needs; the mode; the level, or the search depth (d10: plies) at full strength; eval and order: the evaluation and ordering settings; the engine: thinking or analysing, d7 the depth it has finished, the time it has searched, and 3:g1f3 the root move it is searching now and its place in the order",
    ),
    (
        "nodes, n/s",
        "positions the search visited (k: thousands, M: millions); n/s: nodes per second",
    ),
    (
        "1st, 1st-cut, 1stcut",
        "of the nodes that cut off (a move good enough that the rest need no search), the share where the first move tried did it: the better the ordering, the higher",
    ),
    (
        "ebf, branch, EBF",
        "effective branching factor: nodes through this depth ÷ nodes through the one before (never below 1); the better the ordering and pruning, the lower",
    ),
    (
        "cut@, cut index, idx",
        "the average place of the move that cut off among the moves tried (0: always the first)",
    ),
    (
        "tt, TT hits",
        "the share of transposition-table probes that found the position",
    ),
    (
        "null, null cuts",
        "the share of null-move tries (passing a move to see if the position still holds) that cut off",
    ),
    (
        "re, re-search",
        "the share of reduced moves (searched shallower for being late in the order) searched again in full",
    ),
    (
        "q, qsearch",
        "the share of nodes in the quiescence search (captures at the horizon, so no exchange is cut in half)",
    ),
    (
        "order",
        "a move's ordering score: the sum of its reasons (PV, hash move, MVV/LVA, killer, history …), shown beside it; the higher, the earlier the search tries it. The status line's order is the ordering scheme",
    ),
    (
        "sort columns",
        "generator order: the moves as the move generator makes them; sorted or search order: as the search tries them (← → step along the PV)",
    ),
    (
        "root table",
        "per root move of the iteration: order, nodes spent on it (total: in all iterations), W view or B view: the side to move's score (≤: refuted, at most this; ≥: failed high), the reply that refuted it @ the place it was tried (@tt: the table or a null move settled the reply's node, and the table's move is shown); * the best so far, ! it became best this iteration",
    ),
    (
        "lab columns",
        "each ordering scheme and profile (prof) searched to one depth: nodes, best move and score, 1stcut, EBF, idx, time, n/s and the nodes as a bar on a log scale; ★ the fewest nodes",
    ),
    (
        "review",
        "each side's accuracy (how near its moves came to the engine's best) and its marks: ?! inaccuracy, ? mistake, ?? blunder, each with the engine's better move, ! the only move that held (deep review); each move's eval after it (White's view) and the winning chances it gave away (0.1 ?!, 0.2 ?, 0.3 ??)",
    ),
];

/// What a pane (or view) explains in place: its name in the legend's title, the names of
/// the [`NUMBERS`] entries it shows, and notes on reading it that come first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legend {
    name: &'static str,
    names: &'static [&'static str],
    notes: &'static [Entry],
}

impl Legend {
    pub const REVIEW: Legend = Legend::of("Review", &["review", "search"]);
    pub const EVAL: Legend = Legend::of("Eval", &["eval pane", "E", "Material"]);
    pub const CHART: Legend = Legend::of("E chart", &["chart", "E", "search"]);
    pub const LAB: Legend = Legend::of(
        "Lab",
        &[
            "lab columns",
            "nodes, n/s",
            "1st, 1st-cut, 1stcut",
            "ebf, branch, EBF",
            "cut@, cut index, idx",
        ],
    );

    /// The legends of the views that take a pane's place (each pane has its own).
    pub const VIEWS: [Legend; 4] = [Legend::REVIEW, Legend::EVAL, Legend::CHART, Legend::LAB];

    /// A legend of the entries named `names`, without notes.
    pub const fn of(name: &'static str, names: &'static [&'static str]) -> Legend {
        Legend {
            name,
            names,
            notes: &[],
        }
    }

    /// The pane's name in the legend's title.
    pub fn name(self) -> &'static str {
        self.name
    }

    /// A legend whose entries begin with `notes` on reading the pane.
    pub const fn with_notes(self, notes: &'static [Entry]) -> Legend {
        Legend { notes, ..self }
    }

    /// The names of the [`NUMBERS`] entries this pane shows.
    pub fn names(self) -> &'static [&'static str] {
        self.names
    }

    /// The entries this pane shows (the tree's begin with the help's notes on reading it).
    pub fn entries(self) -> Vec<Entry> {
        let named = self
            .names()
            .iter()
            .filter_map(|name| NUMBERS.iter().copied().find(|(n, _)| n == name));
        self.notes.iter().copied().chain(named).collect()
    }
}

/// A legend's rows at `width` columns: each entry's name, two spaces and what it is, the
/// rows after an entry's first indented by two. The name's columns of a first row are
/// `name.len()` characters, for drawing it apart.
pub fn rows(legend: Legend, width: usize) -> Vec<LegendRow> {
    let width = width.max(12);
    let mut out = Vec::new();
    for (name, text) in legend.entries() {
        let wrapped = super::app::log::wrap_text(&format!("{name}  {text}"), width - 2);
        for (i, row) in wrapped.into_iter().enumerate() {
            out.push(if i == 0 {
                LegendRow {
                    name: name.chars().count().min(row.chars().count()),
                    text: row,
                }
            } else {
                LegendRow {
                    name: 0,
                    text: format!("  {row}"),
                }
            });
        }
    }
    out
}

/// One row of a legend: its text, of which the first `name` characters are an entry's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendRow {
    pub name: usize,
    pub text: String,
}

/// How to read the tree browser (F10), under the commands.
pub const TREE_NOTES: [(&str, &str); 4] = [
    (
        "tree scores",
        "the side to move's at the node shown: a child's result is turned round, so the child that cut off reads ≥ β; E is White's view; mates (#3, #-3) count from the node; search eval: the static value the search itself used at the node, the side to move's view with its bonus for having the move (not the E the board shows)",
    ),
    (
        "tree marks",
        "✂cut: the child that reached β (cut at #N); R2: searched 2 plies shallower first; tt, null-move, multi-cut, razor, reverse-futility, futility, lmp, see, stand-pat, delta, …: why a move was skipped or a node ended early; — not searched",
    ),
    (
        "tree updates",
        "the browser keeps its tree: a newer iteration, a new search or the engine's move never replaces it; its last line says when a newer one is ready and r loads it (at the same moves when it has them); a move you play closes the browser",
    ),
    (
        "tree recording",
        "searches at level max (and analysis and hints at any level) record 4 plies of each iteration; levels below max record none; :set explorer off stops recording",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legend_wraps_within_its_width_and_names_start_their_entries() {
        let legend = Legend::of(
            "Test",
            &["sort columns", "order", "root table", "tt, TT hits"],
        );
        for width in [30, 49, 73] {
            let rows = rows(legend, width);
            assert!(
                rows.iter().all(|r| r.text.chars().count() <= width),
                "{width}"
            );
            let named: Vec<String> = rows
                .iter()
                .filter(|r| r.name > 0)
                .map(|r| r.text.chars().take(r.name).collect())
                .collect();
            let names: Vec<&str> = legend.entries().iter().map(|e| e.0).collect();
            assert_eq!(named, names, "{width}");
        }
    }
}
