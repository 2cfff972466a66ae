//! The staged move picker of the `modern` scheme in profile `full`: hands out a node's moves
//! one at a time, best first, doing as little work as it can before the move that cuts off.
//!
//! It works in stages, as strong engines do: the hash move is tried before any move is
//! generated (after a check that it is legal here); then the moves are generated and only the
//! captures and promotions scored (SEE, MVV/LVA), and the good ones handed out; then the
//! killers and the counter-move, still without scoring any quiet move; then the quiet moves
//! are scored (history, continuation history, what the opponent's attacks do to them) and
//! handed out with the under-promotions, and the losing captures last. Scores come from the
//! same scoring path as [`super::explain`], and the tiers of the `modern` scheme do not
//! overlap, so the moves come in the order the sort pane shows (equal scores aside).
//!
//! Every other scheme, and profile `seed`, keep the search's plain way: generate, score all
//! moves at once with [`super::score_moves`], pick lazily with [`super::pick`].

use crate::chess::attacks::{piece_attacks, square_attacked_on};
use crate::chess::board::Board;
use crate::chess::types::{Color, Move, MoveList};

use super::{COUNTER_SCORE, Discard, History, KILLER_SCORES, Node, OrderContext, Scheme, pick};

/// Where the picker stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Staged: the hash move, before generation.
    Hash,
    /// Generate; score the tactical moves only.
    Generate,
    /// Staged: good captures and queen promotions, best first.
    GoodTactical,
    /// Staged: the killers and the counter-move, if they are among the quiet moves.
    Refutations,
    /// Staged: score the quiet moves.
    ScoreQuiets,
    /// Pick among everything left, best first.
    Rest,
    Done,
}

/// A node's moves, best first. See the module documentation.
pub struct Picker {
    stage: Stage,
    hash: Move,
    /// The hash move was handed out before generation (so it is dropped from the list).
    hash_given: bool,
    moves: MoveList,
    scores: super::Scores,
    /// Moves `..next` have been handed out.
    next: usize,
    /// Staged: the tactical moves are `next..quiet_start` before the quiet ones.
    quiet_start: usize,
    /// How many moves were handed out.
    given: usize,
    /// How many legal moves the position has (known once generated).
    generated: Option<usize>,
    /// The quiet moves were scored during the last call of `next` (see `take_rescored`).
    rescored: bool,
}

impl Picker {
    /// A picker for a node whose hash move (`Move::NONE` if none) is `hash`.
    pub fn staged(hash: Move) -> Picker {
        Picker {
            stage: Stage::Hash,
            hash,
            hash_given: false,
            moves: MoveList::new(),
            scores: super::Scores::new(),
            next: 0,
            quiet_start: 0,
            given: 0,
            generated: None,
            rescored: false,
        }
    }

    /// Whether the last call of [`Picker::next`] scored the quiet moves (once per node).
    /// Their history entries may have changed since the node began (the moves searched
    /// before them learnt), so a recorder that showed the node's ordering takes it again now
    /// to show the scores actually used.
    pub fn take_rescored(&mut self) -> bool {
        std::mem::take(&mut self.rescored)
    }

    /// How many moves were handed out so far.
    pub fn given(&self) -> usize {
        self.given
    }

    /// Whether the position turned out to have no legal move at all (checkmate or
    /// stalemate); known only once the picker has run dry.
    pub fn no_moves(&self) -> bool {
        self.generated == Some(0) && !self.hash_given
    }

    /// The next move, best first; `None` when every move was handed out. `board` must be
    /// the node's position each time (the search unmakes its move before asking again).
    pub fn next(
        &mut self,
        board: &Board,
        scheme: Scheme,
        ctx: &OrderContext,
        history: &History,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::Generate;
                    // The PV move, when there is another one, comes before the hash move.
                    let pv_first = !ctx.pv_move.is_none() && ctx.pv_move != self.hash;
                    if !pv_first && is_legal_quick(board, self.hash) {
                        self.hash_given = true;
                        self.given += 1;
                        return Some(self.hash);
                    }
                }
                Stage::Generate => {
                    self.generate(board, scheme, ctx, history);
                }
                Stage::GoodTactical => {
                    if self.next < self.quiet_start {
                        self.pick_in(self.quiet_start);
                        if self.scores[self.next] > FIRST_STAGE_FLOOR {
                            return Some(self.give());
                        }
                    }
                    self.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    // Killers, then the counter-move: their scores are fixed, so they can be
                    // found among the unscored quiet moves and handed out in score order.
                    let refutations = [ctx.killers[0], ctx.killers[1], ctx.counter];
                    let mut found = false;
                    for (slot, &r) in refutations.iter().enumerate() {
                        if r.is_none() || r == self.hash || refutations[..slot].contains(&r) {
                            continue;
                        }
                        let quiet = self.quiet_start..self.moves.len();
                        let Some(j) = quiet.clone().find(|&j| self.moves.as_slice()[j] == r) else {
                            continue;
                        };
                        // Bring it to the front of the quiet part, the tactical moves left
                        // (losing ones, under-promotions) moved up one.
                        self.moves.as_mut_slice()[self.next..=j].rotate_right(1);
                        self.scores[self.next..=j].rotate_right(1);
                        self.scores[self.next] = refutation_score(slot);
                        self.quiet_start += 1;
                        found = true;
                        break;
                    }
                    if found {
                        // It outranks what is left: the remaining tactical moves (losing
                        // captures, under-promotions) score below every refutation.
                        return Some(self.give());
                    }
                    self.stage = Stage::ScoreQuiets;
                }
                Stage::ScoreQuiets => {
                    let range = self.quiet_start..self.moves.len();
                    self.score_range(board, scheme, ctx, history, range);
                    self.rescored = true;
                    self.stage = Stage::Rest;
                }
                Stage::Rest => {
                    if self.next < self.moves.len() {
                        pick(&mut self.moves, &mut self.scores, self.next);
                        return Some(self.give());
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    fn generate(&mut self, board: &Board, scheme: Scheme, ctx: &OrderContext, history: &History) {
        let all = board.legal_moves();
        self.generated = Some(all.len());
        // The first part: tactical moves, and the PV and hash moves whatever they are (a hash
        // move not handed out yet failed the quick check: castling, en passant); the quiet
        // moves after them. Each part in generator order; the hash move dropped if it was
        // already handed out.
        let skip = if self.hash_given {
            self.hash
        } else {
            Move::NONE
        };
        let first = |m: Move| m.is_tactical() || m == ctx.pv_move || m == ctx.hash_move;
        for &m in all.iter().filter(|&&m| first(m) && m != skip) {
            self.moves.push(m);
        }
        self.quiet_start = self.moves.len();
        for &m in all.iter().filter(|&&m| !first(m)) {
            self.moves.push(m);
        }
        self.scores = super::zero_scores(self.moves.len());
        let range = 0..self.quiet_start;
        self.score_range(board, scheme, ctx, history, range);
        self.stage = Stage::GoodTactical;
    }

    fn score_range(
        &mut self,
        board: &Board,
        scheme: Scheme,
        ctx: &OrderContext,
        history: &History,
        range: std::ops::Range<usize>,
    ) {
        let mut node = Node::new(board, scheme, ctx, history);
        for j in range {
            self.scores[j] = node.score(self.moves.as_slice()[j], &mut Discard);
        }
    }

    /// Picks the best of `next..end` into `next`.
    fn pick_in(&mut self, end: usize) {
        let best = self.next + super::best_index(&self.scores[self.next..end]);
        self.moves.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
    }

    fn give(&mut self) -> Move {
        let m = self.moves.as_slice()[self.next];
        self.next += 1;
        self.given += 1;
        if self.next > self.quiet_start {
            self.quiet_start = self.next;
        }
        m
    }
}

/// The first stage hands out moves scoring above this: the PV and hash moves, good captures
/// and queen promotions (`GOOD_TACTICAL_TIER` and up, less MVV/LVA's tie-break of a few
/// points). Killers (4,000 at most), quiet moves and the rest score below.
const FIRST_STAGE_FLOOR: i32 = 5_000;

/// The fixed `modern` scores of the refutation slots: killer 1, killer 2, counter-move.
fn refutation_score(slot: usize) -> i32 {
    match slot {
        0 | 1 => KILLER_SCORES[slot],
        _ => COUNTER_SCORE,
    }
}

/// Is `m` one of the legal moves of `board`? A quick check without generating the moves, for
/// a hash move (which may come from another position sharing a table slot): the piece, the
/// target, the move's shape and flags, a clear path, and that our king is not left in
/// check. Castling and en passant answer `false` (rare as hash moves; the generator handles
/// them), so `true` means legal, and `false` means "not known legal".
pub fn is_legal_quick(board: &Board, m: Move) -> bool {
    if m.is_none() || m.is_castle() || m.is_en_passant() {
        return false;
    }
    let us = board.side_to_move();
    let them = us.flip();
    let from = m.from().x88();
    let to = m.to().x88();
    let cells = board.cells();
    let code = cells[from as usize];
    if code & us.bits() == 0 {
        return false;
    }
    let target = cells[to as usize];
    if m.is_capture() {
        // Never the king: a position where it could be taken is not reached.
        if target & them.bits() == 0 || target & 0x0F == 0x3 {
            return false;
        }
    } else if target != 0 {
        return false;
    }
    let pawn = code & 0x0F == 0x1;
    let last_rank = match us {
        Color::White => 7,
        Color::Black => 0,
    };
    if m.promotion().is_some() != (pawn && m.to().rank() == last_rank) {
        return false;
    }
    if pawn {
        let forward: i32 = match us {
            Color::White => 16,
            Color::Black => -16,
        };
        let diff = to as i32 - from as i32;
        let start_rank = match us {
            Color::White => 1,
            Color::Black => 6,
        };
        let shape_ok = if m.is_capture() {
            !m.is_double_push() && (diff == forward + 1 || diff == forward - 1)
        } else if m.is_double_push() {
            diff == 2 * forward
                && m.from().rank() == start_rank
                && cells[(from as i32 + forward) as usize] == 0
        } else {
            diff == forward
        };
        if !shape_ok {
            return false;
        }
    } else if m.is_double_push() || !piece_attacks(cells, code, from, to, 0x88) {
        return false;
    }
    // Make it on a copy of the cells; our king must not stand attacked.
    let mut after = *cells;
    after[to as usize] = code;
    after[from as usize] = 0;
    let king = if code & 0x0F == 0x3 {
        to
    } else {
        board.king_x88(us)
    };
    !square_attacked_on(&after, king, them.bits())
}
