//! Move ordering with reasons (seeds 000 and 003).
//!
//! Alpha-beta cuts earliest when the best move is tried first; the seed page on move ordering
//! (000) shows a move list before and after sorting and argues for its priorities, and the
//! Russian page (003) gives Ifrit's MVV/LVA formulas. Every scheme here scores each move as a
//! sum of *reasons* (PV move, hash move, recapture, MVV/LVA, attack values, `vfm`, SEE,
//! killer, history, promotion...), so the sort pane can show why a move sits where it does.
//!
//! There is one scoring path, generic over where the reasons go: the search's
//! [`score_moves`] drops them (no allocation, nothing but the arithmetic), [`explain`] keeps
//! them. The two cannot disagree.
//!
//! Score bands (every scheme but `none`): the PV move 10000 (the seed's figure) and the hash
//! move 9000 come first and carry no other reason, so nothing can outrank them. Everything
//! else stays within ±8999.

mod history;
mod picker;
mod see;
pub mod seed;

use std::fmt;

use crate::chess::board::Board;
use crate::chess::types::{Color, Move, MoveList, PieceKind};
use crate::engine::names::{self, not_one_of};

pub use history::{HISTORY_MAX, History, PieceTo};
pub use picker::{Picker, is_legal_quick};
pub use see::{SEE_VALUES, exchange_gain, see, see_at_least};
pub use seed::{AttackClass, AttackValues, VFM, VFM_LEN, vfm};

use crate::chess::attacks::{A_ORTH, A_SLIDERS, ATTACK_BY_DELTA, STEP_BY_DELTA, delta_index};

/// Ordering schemes, selectable by name (`none`, `mvvlva`, `mvvlva100`, `seed`, `modern`;
/// any case).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(
    serialize_all = "lowercase",
    ascii_case_insensitive,
    parse_err_ty = String,
    parse_err_fn = not_a_scheme
)]
pub enum Scheme {
    /// Generator order.
    None,
    /// victim − attacker (Ifrit's first formula).
    MvvLva,
    /// 100·victim − attacker (Ifrit's second formula).
    MvvLva100,
    /// What the seed page builds: PV, last-capture, MVV/LVA corrected by attack tables and vfm.
    Seed,
    /// Hash move, SEE-ranked good captures, killers, history, losing captures last.
    #[default]
    Modern,
}

fn not_a_scheme(text: &str) -> String {
    not_one_of::<Scheme>(text, "an ordering scheme")
}

impl Scheme {
    /// Every scheme, in the order menus list them.
    pub const ALL: [Scheme; 5] = names::all(<Scheme as strum::VariantArray>::VARIANTS);

    pub fn name(self) -> &'static str {
        self.into()
    }

    /// One line for help screens and the UCI option description.
    pub fn describe(self) -> &'static str {
        match self {
            Scheme::None => "generator order, no sorting",
            Scheme::MvvLva => "PV and hash move, then captures by victim - attacker (Ifrit)",
            Scheme::MvvLva100 => "PV and hash move, then captures by 100*victim - attacker (Ifrit)",
            Scheme::Seed => {
                "the seed page: PV, recapture, MVV/LVA corrected by attack values and vfm"
            }
            Scheme::Modern => {
                "hash move, good captures by SEE, killers, history, losing captures last"
            }
        }
    }
}

/// Why a move got (part of) its ordering score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReasonKind {
    /// The previous iteration's principal-variation move at this ply (seed 000: 10000 points).
    Pv,
    /// The transposition table's best move for this position.
    Hash,
    /// Takes back on the square where the last capture happened (seed 000, priority 2).
    Recapture,
    /// Victim against attacker: Ifrit's formulas (seed 003), or the seed's victim − attacker.
    MvvLva,
    /// The seed's positional/vector attack values turned into material by `vfm` for a quiet
    /// move; in `modern`, a quiet move that hangs the piece or rescues a threatened one.
    Attack,
    /// The seed's `vfm` exchange correction of a capture.
    Vfm,
    /// Static exchange evaluation.
    See,
    /// A quiet move that caused a cutoff at this ply in a sibling node.
    Killer,
    /// Butterfly history of quiet moves.
    History,
    /// `modern`, profile `full`: the quiet move that last refuted the opponent's previous
    /// move (the counter-move table).
    Counter,
    /// `modern`, profile `full`: continuation history, how often this piece going to this
    /// square refuted positions after the moves one and two plies earlier.
    Continuation,
    /// A promotion (or the tier promotions share with captures).
    Promotion,
    /// The tier of captures that lose material by SEE (tried last).
    LosingCapture,
    /// The tier that puts captures before quiet moves (MVV/LVA schemes; good SEE captures).
    Capture,
}

impl ReasonKind {
    /// Short label for the sort pane.
    pub fn label(self) -> &'static str {
        match self {
            ReasonKind::Pv => "PV",
            ReasonKind::Hash => "hash",
            ReasonKind::Recapture => "recapture",
            ReasonKind::MvvLva => "MVV/LVA",
            ReasonKind::Attack => "attack",
            ReasonKind::Vfm => "vfm",
            ReasonKind::See => "SEE",
            ReasonKind::Killer => "killer",
            ReasonKind::History => "history",
            ReasonKind::Counter => "counter",
            ReasonKind::Continuation => "cont",
            ReasonKind::Promotion => "promo",
            ReasonKind::LosingCapture => "losing",
            ReasonKind::Capture => "capture",
        }
    }

    /// One sentence for a help overlay or legend.
    pub fn describe(self) -> &'static str {
        match self {
            ReasonKind::Pv => {
                "the move of the previous iteration's principal variation at this ply"
            }
            ReasonKind::Hash => "the best move stored in the transposition table for this position",
            ReasonKind::Recapture => "takes the piece that just captured (finishes the exchange)",
            ReasonKind::MvvLva => "most valuable victim, least valuable attacker",
            ReasonKind::Attack => "what the attackers of the squares do to the moving piece",
            ReasonKind::Vfm => "the seed's vfm table: the exchange on the target square",
            ReasonKind::See => "static exchange evaluation of the move, in centipawns",
            ReasonKind::Killer => "a quiet move that refuted a sibling position at this ply",
            ReasonKind::History => "how often this quiet move caused cutoffs before",
            ReasonKind::Counter => "the quiet move that last refuted the opponent's last move",
            ReasonKind::Continuation => {
                "how often this piece going there refuted the last two moves' follow-ups"
            }
            ReasonKind::Promotion => "promotes a pawn",
            ReasonKind::LosingCapture => "a capture or promotion that loses material: tried last",
            ReasonKind::Capture => "captures are tried before quiet moves",
        }
    }
}

impl fmt::Display for ReasonKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reason {
    pub kind: ReasonKind,
    pub points: i32,
}

impl Reason {
    pub fn label(&self) -> &'static str {
        self.kind.label()
    }
}

impl fmt::Display for Reason {
    /// `MVV/LVA +4`, `SEE -650`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:+}", self.kind.label(), self.points)
    }
}

/// A move with its ordering score and the reasons that make up the score (they add up to it).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredMove {
    pub mv: Move,
    pub score: i32,
    pub reasons: Vec<Reason>,
}

/// What the search knows at a node that ordering can use.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderContext {
    /// The previous iteration's PV move at this ply (the seed's 10000 points).
    pub pv_move: Move,
    pub hash_move: Move,
    pub killers: [Move; 2],
    /// `modern`: the counter-move of the previous move (`Move::NONE` outside the `full`
    /// profile's search).
    pub counter: Move,
    /// `modern`: the piece-to keys of the moves one and two plies back, for continuation
    /// history (`None` outside the `full` profile's search, at the root, after a null move).
    pub follow: [Option<PieceTo>; 2],
}

// ---- score bands -----------------------------------------------------------------------

/// The PV move's score (seed 000: "Jag ger draget 10.000 poäng").
pub const PV_SCORE: i32 = 10_000;
/// The hash move's score: right after the PV move.
pub const HASH_SCORE: i32 = 9_000;
/// `mvvlva`/`mvvlva100`/`seed`: captures (and, in the MVV/LVA schemes, promotions) before
/// quiet moves.
pub const CAPTURE_TIER: i32 = 1_000;
/// `seed`: a recapture on the last capture square outranks every other capture.
pub const RECAPTURE_BONUS: i32 = 4_000;
/// `modern`: captures and queen promotions that do not lose material (SEE ≥ 0).
pub const GOOD_TACTICAL_TIER: i32 = 6_000;
/// `modern`: captures and promotions that lose material; below every quiet move.
pub const LOSING_TIER: i32 = -6_000;
/// `modern`: the two killer slots.
pub const KILLER_SCORES: [i32; 2] = [4_000, 3_900];
/// `modern`: the counter-move, right after the killers.
pub const COUNTER_SCORE: i32 = 3_800;
/// `modern`: under-promotions are almost never best; among the worst quiet moves.
pub const UNDERPROMOTION_SCORE: i32 = -3_000;
/// `modern`: history entries (±`HISTORY_MAX`) divided by this stay within ±1024.
const HISTORY_DIVISOR: i32 = HISTORY_MAX / 1024;
/// `modern`: each of the two continuation entries divided by this stays within ±512, so a
/// quiet move's history, continuation and attack points together (−5,000..3,100) stay
/// between the losing captures and the counter-move.
const CONT_DIVISOR: i32 = HISTORY_MAX / 512;
/// `modern`: SEE inside a tier is clamped so tiers never overlap.
const SEE_CLAMP: i32 = 2_500;
/// `modern`: a quiet move that puts its piece where it is lost scores −(HANG_BASE + 2·loss).
const HANG_BASE: i32 = 1_000;
/// `modern`: a quiet move taking a threatened piece to a safe square scores
/// ESCAPE_BASE + threat/2 (what the piece stood to lose where it was).
const ESCAPE_BASE: i32 = 500;

// ---- one scoring path, two sinks -------------------------------------------------------

/// Where reasons go: nowhere for the search, into a vector for `explain`.
trait ReasonSink {
    fn push(&mut self, reason: Reason);
}

/// The search's sink: reasons vanish, only the arithmetic stays.
struct Discard;

impl ReasonSink for Discard {
    #[inline(always)]
    fn push(&mut self, _: Reason) {}
}

impl ReasonSink for Vec<Reason> {
    #[inline]
    fn push(&mut self, reason: Reason) {
        Vec::push(self, reason);
    }
}

/// Adds points to a score and reports them as a reason, in one step, so the score is by
/// construction the sum of the reasons.
struct Tally<'s, S: ReasonSink> {
    total: i32,
    sink: &'s mut S,
}

impl<S: ReasonSink> Tally<'_, S> {
    #[inline(always)]
    fn add(&mut self, kind: ReasonKind, points: i32) {
        if points != 0 {
            self.total += points;
            self.sink.push(Reason { kind, points });
        }
    }
}

/// Everything scoring needs at one node, with the per-node tables computed at most once.
struct Node<'a> {
    board: &'a Board,
    scheme: Scheme,
    ctx: &'a OrderContext,
    history: &'a History,
    us: Color,
    /// 0x88 square of the last capture, or an off-board value.
    last_capture: u8,
    seed: Option<AttackValues>,
    threats: Option<Threats>,
}

/// Ifrit's values (seed 003): pawn 1, knight 2, bishop 3, rook 4, queen 5, king 6.
#[inline]
fn ifrit_value(kind_idx: usize) -> i32 {
    kind_idx as i32 + 1
}

impl<'a> Node<'a> {
    fn new(
        board: &'a Board,
        scheme: Scheme,
        ctx: &'a OrderContext,
        history: &'a History,
    ) -> Node<'a> {
        Node {
            board,
            scheme,
            ctx,
            history,
            us: board.side_to_move(),
            // Only the seed scheme asks (reading the move history costs a cache miss).
            last_capture: match scheme {
                Scheme::Seed => board.last_capture_square().map_or(0x88, |s| s.x88()),
                _ => 0x88,
            },
            seed: None,
            threats: None,
        }
    }

    /// Dense kind index of the piece a move moves, and of the piece it captures (a pawn for
    /// en passant; `None` for a non-capture).
    #[inline]
    fn kinds(&self, mv: Move) -> (Option<usize>, Option<usize>) {
        let cells = self.board.cells();
        let mover = PieceKind::index_of_code(cells[mv.from().x88() as usize]);
        let victim = if mv.is_en_passant() {
            Some(0)
        } else if mv.is_capture() {
            PieceKind::index_of_code(cells[mv.to().x88() as usize])
        } else {
            None
        };
        (mover, victim)
    }

    fn score<S: ReasonSink>(&mut self, mv: Move, sink: &mut S) -> i32 {
        let mut t = Tally { total: 0, sink };
        if self.scheme == Scheme::None || mv.is_none() {
            return 0;
        }
        // PV first, as the seed's 10000 points guarantee; then the hash move. Neither takes
        // other points, so nothing can overtake them.
        if mv == self.ctx.pv_move {
            t.add(ReasonKind::Pv, PV_SCORE);
            return t.total;
        }
        if mv == self.ctx.hash_move {
            t.add(ReasonKind::Hash, HASH_SCORE);
            return t.total;
        }
        match self.scheme {
            Scheme::None => {}
            Scheme::MvvLva => self.mvvlva(mv, 1, &mut t),
            Scheme::MvvLva100 => self.mvvlva(mv, 100, &mut t),
            Scheme::Seed => self.seed(mv, &mut t),
            Scheme::Modern => self.modern(mv, &mut t),
        }
        t.total
    }

    /// Ifrit (seed 003): captures before quiet moves, ranked by `scale`·victim − attacker.
    /// Promotions join the captures' tier, counted as winning the promoted piece minus the
    /// pawn; quiet moves keep generator order.
    fn mvvlva<S: ReasonSink>(&self, mv: Move, scale: i32, t: &mut Tally<'_, S>) {
        let (mover, victim) = self.kinds(mv);
        let Some(mover) = mover else { return };
        let mut tiered = false;
        if let Some(victim) = victim {
            t.add(ReasonKind::Capture, CAPTURE_TIER);
            t.add(
                ReasonKind::MvvLva,
                scale * ifrit_value(victim) - ifrit_value(mover),
            );
            tiered = true;
        }
        if let Some(p) = mv.promotion() {
            let gain = scale * (ifrit_value(p.index()) - ifrit_value(0));
            t.add(
                ReasonKind::Promotion,
                gain + if tiered { 0 } else { CAPTURE_TIER },
            );
        }
    }

    /// The seed page (000): captures first (its priority 3 before 4), ranked by MVV/LVA
    /// (victim − attacker in the page's values) corrected by the exchange its attack tables
    /// predict; a recapture on the last capture square outranks the other captures (priority
    /// 2); quiet moves are moved up or down by the same tables.
    ///
    /// `vfm` gives the mover's result *after* it lands (it is taken, or avenged...). MVV/LVA
    /// has already charged the full value of the piece at risk, so the `vfm` reason is
    /// `vfm + that value`: a safe capture gets the attacker back, a guarded piece taken by a
    /// bigger one does not. A capture whose exchange loses material is "corrected sharply
    /// down" (the page's words) out of the captures' tier, which is how the page's example
    /// ends with its losing queen captures at the very bottom.
    /// The page skips pawns (`if (cp>0)`) although its table and its worked examples include
    /// them; we apply the table to pawns too.
    fn seed<S: ReasonSink>(&mut self, mv: Move, t: &mut Tally<'_, S>) {
        let board = self.board;
        let us = self.us;
        let tables = self
            .seed
            .get_or_insert_with(|| AttackValues::compute(board));
        let from = mv.from().x88();
        let to = mv.to().x88();
        let moved = board.code_at(from);
        // The piece that will stand on the target: the promoted one if any.
        let landing = match mv.promotion() {
            Some(p) => AttackClass::of(p),
            None => AttackClass::of_code(moved),
        };
        let at_risk = landing.map_or(0, AttackClass::value);
        let exchange =
            landing.map(|c| vfm(tables.attack_value_for_move(board, from, to, us), c, us));
        let promotion_gain = mv
            .promotion()
            .and_then(AttackClass::of)
            .map_or(0, |c| c.value() - AttackClass::Pawn.value());
        if mv.is_capture() {
            let victim = if mv.is_en_passant() {
                AttackClass::Pawn.value()
            } else {
                AttackClass::of_code(board.code_at(to)).map_or(0, AttackClass::value)
            };
            t.add(ReasonKind::Capture, CAPTURE_TIER);
            t.add(ReasonKind::MvvLva, victim - at_risk);
            // The king (no class) is never taken back after a legal capture: no correction
            // needed, MVV/LVA charged nothing for it.
            if let Some(x) = exchange {
                t.add(ReasonKind::Vfm, x + at_risk);
            }
            if victim + exchange.unwrap_or(0) + promotion_gain < 0 {
                t.add(ReasonKind::LosingCapture, -CAPTURE_TIER);
            }
            if to == self.last_capture {
                t.add(ReasonKind::Recapture, RECAPTURE_BONUS);
            }
        } else if let Some(x) = exchange {
            t.add(ReasonKind::Attack, x);
        }
        t.add(ReasonKind::Promotion, promotion_gain);
    }

    /// Today's common practice: good captures and queen promotions by SEE, then killers,
    /// quiet moves by history (and by what the opponent's attacks do to them), losing
    /// captures last.
    fn modern<S: ReasonSink>(&mut self, mv: Move, t: &mut Tally<'_, S>) {
        let board = self.board;
        let (mover, victim) = self.kinds(mv);
        let Some(mover) = mover else { return };
        if mv.is_tactical() {
            if let Some(p) = mv.promotion()
                && p != PieceKind::Queen
            {
                t.add(ReasonKind::Promotion, UNDERPROMOTION_SCORE);
                return;
            }
            let s = see(board, mv);
            if s >= 0 {
                let tier = if victim.is_some() {
                    ReasonKind::Capture
                } else {
                    ReasonKind::Promotion
                };
                t.add(tier, GOOD_TACTICAL_TIER);
                t.add(ReasonKind::See, s.min(SEE_CLAMP));
                // Equal SEE: bigger victim, then smaller attacker. Spans −5..16, less than
                // the 25 cp step between SEE values, so it never overrides SEE.
                if let Some(v) = victim {
                    t.add(ReasonKind::MvvLva, 4 * v as i32 - mover as i32);
                }
            } else {
                t.add(ReasonKind::LosingCapture, LOSING_TIER);
                t.add(ReasonKind::See, s.max(-SEE_CLAMP));
            }
            return;
        }
        for (slot, &k) in self.ctx.killers.iter().enumerate() {
            if mv == k {
                t.add(ReasonKind::Killer, KILLER_SCORES[slot]);
                return;
            }
        }
        if mv == self.ctx.counter {
            t.add(ReasonKind::Counter, COUNTER_SCORE);
            return;
        }
        t.add(
            ReasonKind::History,
            self.history.get(self.us, mv) / HISTORY_DIVISOR,
        );
        if self.ctx.follow != [None, None] {
            let cur = PieceTo::new(self.us.index(), mover, mv);
            let [one, two] = self.ctx.follow;
            t.add(
                ReasonKind::Continuation,
                (self.history.cont(one, cur) + self.history.cont(two, cur)) / CONT_DIVISOR,
            );
        }
        let Some((loss, threat)) = self.quiet_safety(mv, mover) else {
            return;
        };
        if loss > 0 {
            t.add(ReasonKind::Attack, -(HANG_BASE + 2 * loss));
        } else if threat > 0 {
            t.add(ReasonKind::Attack, ESCAPE_BASE + threat / 2);
        }
    }

    /// For a quiet move of a piece other than the king: what it stands to lose on its
    /// destination, and what it stood to lose where it was. From attack maps rather than a
    /// SEE per move (the maps cost two passes over the pieces per node; a SEE per quiet move
    /// cost four times as much): a piece is lost when a cheaper enemy piece attacks it (the
    /// difference, or all of it if undefended), or when any enemy piece attacks it and none
    /// of ours defends it. Like the seed's tables it cannot count, so two attackers against
    /// one defender pass as safe; the search sorts that out.
    fn quiet_safety(&mut self, mv: Move, mover: usize) -> Option<(i32, i32)> {
        if mover == KING || mv.is_castle() {
            return None;
        }
        let board = self.board;
        let us = self.us;
        let maps = self
            .threats
            .get_or_insert_with(|| Threats::compute(board, us));
        let from = mv.from().x88();
        let to = mv.to().x88();
        let value = SEE_VALUES[mover];
        let enemy_to = maps.enemy[to as usize];
        let mut loss = 0;
        if enemy_to != 0 {
            // A knight or a slider guards the square it moves to (it is counted there); a
            // pawn push does not.
            let self_guard = u8::from(mover != PAWN);
            let defended =
                maps.defenders[to as usize] > self_guard || xray_defender(board, from, to);
            loss = loss_to(enemy_to, value, defended);
        }
        let threat = loss_to(
            maps.enemy[from as usize],
            value,
            maps.defenders[from as usize] > 0,
        );
        Some((loss, threat))
    }
}

const PAWN: usize = PieceKind::Pawn.index();
const KING: usize = PieceKind::King.index();

/// The modern scheme's maps of one node, computed on its first quiet move.
struct Threats {
    /// Class bits (and `KING_BIT`) of the opponent's pieces attacking each square.
    enemy: [u8; 128],
    /// How many of our pieces attack (guard) each square.
    defenders: [u8; 128],
}

impl Threats {
    fn compute(board: &Board, us: Color) -> Threats {
        let mut enemy = [0u8; 128];
        let mut defenders = [0u8; 128];
        seed::visit_attacks(
            board,
            us.flip(),
            |s, bit| enemy[s as usize] |= bit,
            |_, _| {},
        );
        seed::visit_attacks(
            board,
            us,
            |s, _| defenders[s as usize] = defenders[s as usize].saturating_add(1),
            |_, _| {},
        );
        Threats { enemy, defenders }
    }
}

/// What a piece worth `value` loses on a square the opponent's `attackers` (class bits,
/// `KING_BIT`) attack: all of it if undefended, the difference to a cheaper attacker if
/// defended, nothing if only equal or dearer pieces attack a defended square.
#[inline]
fn loss_to(attackers: u8, value: i32, defended: bool) -> i32 {
    if attackers == 0 {
        return 0;
    }
    let cheapest = match attackers.trailing_zeros() {
        0 => SEE_VALUES[0],
        1 => SEE_VALUES[1],
        2 => SEE_VALUES[3],
        3 => SEE_VALUES[4],
        _ => SEE_VALUES[KING],
    };
    match (cheapest < value, defended) {
        (true, true) => value - cheapest,
        (_, false) => value,
        (false, true) => 0,
    }
}

/// Does a friendly slider stand behind `from` on the line of a move `from` → `to`, so that it
/// guards `to` once the piece has moved (the seed's vector attack values, seed 000)?
#[inline]
fn xray_defender(board: &Board, from: u8, to: u8) -> bool {
    let d = delta_index(from, to);
    if ATTACK_BY_DELTA[d] & A_SLIDERS == 0 {
        return false;
    }
    let step = STEP_BY_DELTA[d];
    let slider_bit = if ATTACK_BY_DELTA[d] & A_ORTH != 0 {
        0x4
    } else {
        0x8
    };
    let own = board.code_at(from) & 0x30;
    let mut s = from.wrapping_sub(step as u8);
    while s & 0x88 == 0 {
        let c = board.code_at(s);
        if c != 0 {
            return c & own != 0 && c & slider_bit != 0 && c & 0x3 == 0;
        }
        s = s.wrapping_sub(step as u8);
    }
    false
}

/// Ordering scores of a node's moves, index for index: made empty and filled as needed, so
/// the search does not zero 256 slots per node.
pub type Scores = arrayvec::ArrayVec<i32, 256>;

/// `n` zero scores.
#[inline]
pub fn zero_scores(n: usize) -> Scores {
    let mut s = Scores::new();
    s.extend(std::iter::repeat_n(0, n.min(256)));
    s
}

/// Scores every move of `moves` into `scores` (same indices) for the search's lazy picker.
/// Allocation-free; per-node tables (the seed's attack matrix, the modern threat map) are
/// computed at most once per call. If `scores` is shorter than `moves`, the extra moves are
/// left unscored.
pub fn score_moves(
    board: &Board,
    moves: &MoveList,
    scheme: Scheme,
    ctx: &OrderContext,
    history: &History,
    scores: &mut [i32],
) {
    let mut node = Node::new(board, scheme, ctx, history);
    for (score, &mv) in scores.iter_mut().zip(moves.iter()) {
        *score = node.score(mv, &mut Discard);
    }
}

/// Lazy selection: swaps the best-scored move among `i..` into slot `i` (the first of equal
/// scores wins). Does nothing when `i` is out of range.
#[inline]
pub fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) {
    let n = moves.len().min(scores.len());
    if i >= n {
        return;
    }
    let best = i + best_index(&scores[i..n]);
    if best != i {
        moves.as_mut_slice().swap(i, best);
        scores.swap(i, best);
    }
}

/// Index of the first highest score of a slice (0 for an empty one): one pass that keeps the
/// best value in a register (no reload, no bounds check per step), so the first of equal
/// scores wins.
#[inline]
pub(crate) fn best_index(scores: &[i32]) -> usize {
    let Some((&first, rest)) = scores.split_first() else {
        return 0;
    };
    let (mut best, mut best_score) = (0, first);
    for (j, &s) in rest.iter().enumerate() {
        if s > best_score {
            best_score = s;
            best = j + 1;
        }
    }
    best
}

/// Every legal move of the position with score and reasons, in generator order (sort a copy
/// with [`sort_scored`] for the sorted view; ties keep generator order).
pub fn explain(
    board: &Board,
    scheme: Scheme,
    ctx: &OrderContext,
    history: &History,
) -> Vec<ScoredMove> {
    explain_moves(board, &board.legal_moves(), scheme, ctx, history)
}

/// As [`explain`] for a given list of moves of this position (e.g. the captures only).
pub fn explain_moves(
    board: &Board,
    moves: &MoveList,
    scheme: Scheme,
    ctx: &OrderContext,
    history: &History,
) -> Vec<ScoredMove> {
    let mut node = Node::new(board, scheme, ctx, history);
    moves
        .iter()
        .map(|&mv| {
            let mut reasons = Vec::new();
            let score = node.score(mv, &mut reasons);
            ScoredMove { mv, score, reasons }
        })
        .collect()
}

/// Sorts scored moves best first; equal scores keep their order (stable).
pub fn sort_scored(moves: &mut [ScoredMove]) {
    moves.sort_by_key(|s| std::cmp::Reverse(s.score));
}

#[cfg(test)]
mod tests {
    use super::best_index;

    /// The index the search's selection used before `best_index`: the first strictly
    /// greater score wins, so the first of equal highest scores.
    fn first_highest(scores: &[i32]) -> usize {
        let mut best = 0;
        for (j, &s) in scores.iter().enumerate() {
            if s > scores[best] {
                best = j;
            }
        }
        best
    }

    #[test]
    fn best_index_is_the_first_highest_score() {
        assert_eq!(best_index(&[]), 0);
        assert_eq!(best_index(&[5]), 0);
        assert_eq!(best_index(&[1, 7, 3, 7]), 1);
        assert_eq!(best_index(&[-3, -1, -1, -2]), 1);
        // Small value ranges make ties common, which is where the two could differ.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for len in 0..300 {
            let scores: Vec<i32> = (0..len % 70)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 9) as i32 - 4
                })
                .collect();
            assert_eq!(best_index(&scores), first_highest(&scores), "{scores:?}");
        }
    }
}
