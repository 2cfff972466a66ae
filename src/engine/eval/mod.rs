//! Evaluation E (seed 002): a static score in centipawns, from White's point of view as the
//! seed defines it (the search negates it for Black through [`evaluate`]).
//!
//! Four modes: the seed's `material` sum, `center` (material plus the seed's `areaCtrl`
//! table), `full`, the strong evaluation we play with, and `net`, a learned one ([`net`])
//! whose one number is its one term. Every mode writes its terms into
//! one fixed-size accumulator ([`Acc`]); [`evaluate_white`] sums it and [`explain`] turns the
//! same accumulator into a [`Breakdown`] table, so the number the search uses and the table
//! the user reads can never disagree.

mod cache;
mod full;
pub mod known;
mod kpk;
pub mod net;
mod pair;
mod params;
mod settle;
pub mod trace;
mod tracer;
#[rustfmt::skip]
mod weights;

use std::fmt;

use crate::chess::board::Board;
use crate::chess::types::{Color, PieceKind, SEED_VALUES};
use crate::engine::names::{self, not_one_of};
pub use cache::EvalCache;
pub use params::S;
pub(crate) use params::{DANGER_EG_DIV, DANGER_MG_CAP, DANGER_MG_DIV};
pub use params::{MATERIAL_MG, PHASE_MAX};
pub use settle::{Settled, settled, settled_white};

/// Which evaluation to use, by name (`material`, `center`, `full`; any case).
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
    parse_err_fn = not_a_mode
)]
pub enum EvalMode {
    /// The seed's material sum.
    Material,
    /// Material plus the seed's `areaCtrl` centre table.
    Center,
    /// The strongest hand-made evaluation: every term named and shown.
    Full,
    /// A network trained on positions Stockfish scored (docs/strength.md): one number, not
    /// a sum of named terms. The evaluation ox88 plays with unless told otherwise.
    #[default]
    Net,
}

fn not_a_mode(text: &str) -> String {
    not_one_of::<EvalMode>(text, "an evaluation mode")
}

impl EvalMode {
    /// Every mode, in the order menus list them.
    pub const ALL: [EvalMode; 4] = names::all(<EvalMode as strum::VariantArray>::VARIANTS);

    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The terms this mode computes, in the order the breakdown lists them.
    pub fn terms(self) -> &'static [Term] {
        match self {
            EvalMode::Material => &[Term::Material],
            EvalMode::Center => &[Term::Material, Term::Center],
            EvalMode::Full => &FULL_TERMS,
            EvalMode::Net => &[Term::Network, Term::Known],
        }
    }
}

/// Piece-value presets from the seed's table (seed 002), for `material` and `center`, by
/// name (`seed`, `standard`, ... `euwe-kramer`, ...; any case; Euwe & Kramer also as
/// `euwe_kramer`, `euwekramer`, `euwe&kramer` or `euwe kramer`).
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
    parse_err_fn = not_a_preset
)]
pub enum ValuePreset {
    #[default]
    Seed,
    Standard,
    Fischer,
    Kaufman,
    #[strum(
        to_string = "euwe-kramer",
        serialize = "euwe_kramer",
        serialize = "euwekramer",
        serialize = "euwe&kramer",
        serialize = "euwe kramer"
    )]
    EuweKramer,
    Evans,
    Staunton,
    Bilguer,
    Gik,
}

fn not_a_preset(text: &str) -> String {
    not_one_of::<ValuePreset>(text, "a piece-value preset")
}

impl ValuePreset {
    /// Every preset, in the seed table's order.
    pub const ALL: [ValuePreset; 9] = names::all(<ValuePreset as strum::VariantArray>::VARIANTS);

    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Centipawn values by dense kind index (pawn, knight, bishop, rook, queen, king), scaled
    /// so that a pawn is 100. The seed's table (seed 002) gives them in pawns; Bilguer's pawn
    /// is 1.5, so his values are divided by 1.5 and rounded. The king's 9999 is nominal: both
    /// sides always have one, so it never enters a material difference.
    pub const fn values(self) -> [i32; 6] {
        match self {
            ValuePreset::Seed => SEED_VALUES,
            ValuePreset::Standard => [100, 300, 300, 500, 900, 9999],
            ValuePreset::Fischer => [100, 300, 325, 500, 900, 9999],
            ValuePreset::Kaufman => [100, 325, 325, 500, 975, 9999],
            ValuePreset::EuweKramer => [100, 350, 350, 550, 1000, 9999],
            ValuePreset::Evans => [100, 350, 375, 500, 1000, 9999],
            ValuePreset::Staunton => [100, 300, 350, 550, 1000, 9999],
            // 1.5 / 5.3 / 5.3 / 8.6 / 15.5 pawns, divided by 1.5.
            ValuePreset::Bilguer => [100, 353, 353, 573, 1033, 9999],
            ValuePreset::Gik => [100, 240, 400, 640, 1040, 9999],
        }
    }

    /// The value of one piece kind under this preset.
    pub const fn value(self, kind: PieceKind) -> i32 {
        self.values()[kind.index()]
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EvalConfig {
    pub mode: EvalMode,
    /// Piece values for `material` and `center`; `full` has its own tapered values.
    pub preset: ValuePreset,
}

/// One line of the evaluation: E = Σ terms (seed 002's Σ Kᵢ·Fᵢ, feature by feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Material,
    /// The seed's `areaCtrl` table (`center` mode only).
    Center,
    PieceSquare,
    Mobility,
    KingSafety,
    PawnStructure,
    PassedPawns,
    BishopPair,
    Rooks,
    MinorPieces,
    Threats,
    Tempo,
    /// Driving a bare king to the edge and bringing the kings together.
    Mating,
    /// The correction that pulls a drawish ending towards 0 (scale factor × sum − sum).
    Scaling,
    /// The `net` mode's whole E.
    Network,
    /// An ending whose result is known ([`known`]): the known value less the other terms.
    Known,
}

pub(crate) const TERM_COUNT: usize = 16;

const FULL_TERMS: [Term; 14] = [
    Term::Material,
    Term::PieceSquare,
    Term::Mobility,
    Term::KingSafety,
    Term::PawnStructure,
    Term::PassedPawns,
    Term::BishopPair,
    Term::Rooks,
    Term::MinorPieces,
    Term::Threats,
    Term::Tempo,
    Term::Mating,
    Term::Scaling,
    Term::Known,
];

impl Term {
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Center => "center",
            Term::PieceSquare => "piece-square",
            Term::Mobility => "mobility",
            Term::KingSafety => "king safety",
            Term::PawnStructure => "pawn structure",
            Term::PassedPawns => "passed pawns",
            Term::BishopPair => "bishop pair",
            Term::Rooks => "rooks",
            Term::MinorPieces => "minor pieces",
            Term::Threats => "threats",
            Term::Tempo => "tempo",
            Term::Mating => "mating",
            Term::Scaling => "scaling",
            Term::Network => "network",
            Term::Known => "known ending",
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the `full` evaluation pulled a score towards a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScaleReason {
    /// Neither side can ever mate (K v K, K+minor v K, same-coloured bishops).
    InsufficientMaterial,
    /// The side ahead has no pawns and at most a minor piece: it cannot win.
    CannotWin,
    /// Two knights cannot force mate.
    TwoKnights,
    /// No pawns and less than a rook's worth of extra pieces (KR v KB, KRB v KR, ...).
    NoPawnsSmallEdge,
    /// Bishops of opposite colours and nothing else but pawns.
    OppositeBishops,
    /// Bishops of opposite colours among other pieces.
    OppositeBishopsWithPieces,
    /// The side ahead has one pawn left, which the defender can give a piece for.
    LastPawn,
}

impl ScaleReason {
    pub fn describe(self) -> &'static str {
        match self {
            ScaleReason::InsufficientMaterial => "insufficient material",
            ScaleReason::CannotWin => "no pawns, at most a minor piece: cannot win",
            ScaleReason::TwoKnights => "two knights cannot force mate",
            ScaleReason::NoPawnsSmallEdge => "no pawns, less than a rook ahead",
            ScaleReason::OppositeBishops => "opposite-coloured bishops",
            ScaleReason::OppositeBishopsWithPieces => "opposite-coloured bishops with pieces",
            ScaleReason::LastPawn => "last pawn against pieces",
        }
    }
}

/// A drawish-ending scale factor applied to the sum of the other terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Scale {
    /// Out of 64.
    pub factor: i32,
    pub reason: ScaleReason,
}

/// The per-term, per-side accumulator every mode writes into: no heap, a few hundred bytes on
/// the stack. `mg`/`eg` are the two halves of a tapered term; untapered modes write the same
/// value to both and are read with no phase.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Acc {
    terms: [[S; 2]; TERM_COUNT],
}

impl Acc {
    #[inline]
    pub(crate) fn add(&mut self, term: Term, side: usize, v: S) {
        self.terms[term as usize][side] += v;
    }
}

/// What an evaluation produced: the accumulator plus the phase and scaling that turn it into
/// one number. Summing and explaining both start from here.
struct Outcome {
    acc: Acc,
    /// `Some(phase)` (0..=PHASE_MAX) for the tapered `full` mode.
    phase: Option<i32>,
    scale: Option<Scale>,
    /// Σ of the terms before scaling (computed once: the scaling needs it too).
    unscaled: i32,
    /// The scaling row: scaled sum − unscaled sum.
    scale_adjust: i32,
    /// A known ending's value, when one applied; the known-ending row is its difference
    /// from the scaled sum.
    known: Option<known::Known>,
}

#[inline]
fn blend(v: S, phase: Option<i32>) -> i32 {
    match phase {
        // Each side's value is blended on its own (integer division truncates the same way
        // for both sides), so a mirrored position gives exactly the negated score.
        Some(p) => (v.mg * p + v.eg * (PHASE_MAX - p)) / PHASE_MAX,
        None => v.mg,
    }
}

impl Outcome {
    /// The outcome of a mode without phase or scaling (`material`, `center`, `net`).
    fn untapered(acc: Acc) -> Outcome {
        Outcome {
            unscaled: Outcome::unscaled(&acc, None),
            acc,
            phase: None,
            scale: None,
            scale_adjust: 0,
            known: None,
        }
    }

    /// Σ over the accumulated terms of (White's blended value − Black's), before scaling.
    #[inline]
    fn unscaled(acc: &Acc, phase: Option<i32>) -> i32 {
        acc.terms
            .iter()
            .map(|t| blend(t[0], phase) - blend(t[1], phase))
            .sum()
    }

    /// The sum before the known ending's correction.
    #[inline]
    fn scaled(&self) -> i32 {
        self.unscaled + self.scale_adjust
    }

    #[inline]
    fn total(&self) -> i32 {
        self.known.map_or(self.scaled(), |k| k.value)
    }

    /// The row of the known ending: what it adds to the scaled sum.
    fn known_adjust(&self) -> i32 {
        self.total() - self.scaled()
    }

    /// Passes the value through what is known about the ending.
    fn with_known(mut self, board: &Board, scaling: known::Scaling) -> Outcome {
        self.known = known::adjust(board, self.scaled(), scaling);
        self
    }
}

fn compute(board: &Board, cfg: &EvalConfig) -> Outcome {
    let mut acc = Acc::default();
    match cfg.mode {
        EvalMode::Material => {
            material_term(board, cfg.preset, &mut acc);
            Outcome::untapered(acc)
        }
        EvalMode::Center => {
            material_term(board, cfg.preset, &mut acc);
            center_term(board, &mut acc);
            Outcome::untapered(acc)
        }
        EvalMode::Net => {
            // One number from White's view, the same whoever is to move (the search's own
            // value, from the side to move's view with its bonus, is `evaluate`'s); shown on
            // the side it favours.
            let v = net::network().evaluate_even(board);
            acc.add(Term::Network, 0, params::s(v.max(0), v.max(0)));
            acc.add(Term::Network, 1, params::s((-v).max(0), (-v).max(0)));
            Outcome::untapered(acc).with_known(board, known::Scaling::All)
        }
        EvalMode::Full => {
            let phase = full::evaluate(board, &mut acc, &mut tracer::NoTrace);
            let unscaled = Outcome::unscaled(&acc, Some(phase));
            let scale = full::scale(board, unscaled);
            let scale_adjust = match scale {
                // Truncation towards zero keeps the scaled value mirror-symmetric.
                Some(sc) => unscaled * sc.factor / params::SCALE_NORMAL - unscaled,
                None => 0,
            };
            Outcome {
                acc,
                phase: Some(phase),
                scale,
                unscaled,
                scale_adjust,
                known: None,
            }
            .with_known(board, known::Scaling::ExactOnly)
        }
    }
}

/// The seed's material sum (seed 002), from the board's incremental record: with the seed's
/// own values it is `Board::material` itself (the "difference machine"); with another preset
/// it is the incremental piece counts times that preset's values. Never a board scan.
fn material_term(board: &Board, preset: ValuePreset, acc: &mut Acc) {
    for c in Color::BOTH {
        let v = if preset == ValuePreset::Seed {
            board.material(c)
        } else {
            let values = preset.values();
            board.kind_counts(c)[..5]
                .iter()
                .zip(values)
                .map(|(&n, v)| n as i32 * v)
                .sum()
        };
        acc.add(Term::Material, c.index(), params::s(v, v));
    }
}

/// The seed's `areaCtrl` table: 2 on d4 e4 d5 e5, 1 on the 12 squares of the ring c3–f3–f6–c6,
/// 0 elsewhere (seed 002), by 0x88 index.
const fn area_ctrl() -> [i32; 128] {
    let mut t = [0; 128];
    let mut sq = 0;
    while sq < 128 {
        let (file, rank) = (sq & 7, sq >> 4);
        if sq & 0x88 == 0 && file >= 2 && file <= 5 && rank >= 2 && rank <= 5 {
            t[sq] = if file >= 3 && file <= 4 && rank >= 3 && rank <= 4 {
                2
            } else {
                1
            };
        }
        sq += 1;
    }
    t
}

/// The seed's `areaCtrl` centre table by 0x88 square.
pub const AREA_CTRL: [i32; 128] = area_ctrl();

/// Every piece on a centre square adds the table's value for its side (seed 002).
fn center_term(board: &Board, acc: &mut Acc) {
    for c in Color::BOTH {
        let v: i32 = board
            .piece_squares(c)
            .iter()
            .map(|&sq| AREA_CTRL[(sq & 0x7F) as usize])
            .sum();
        acc.add(Term::Center, c.index(), params::s(v, v));
    }
}

/// What the `net` mode takes off the network's output, from the side to move's view: part of
/// the bonus the network learned for having the move (about 54 cp on average over held-out
/// positions, and up to 1.2 pawns in the opening). A side that passes hands that bonus to its
/// opponent, so with it the null move seldom cut; with 40 off it cuts more often and the
/// search scored +64 Elo against itself at a fixed node count (20 and 60 did worse):
/// docs/strength.md, "The side to move's bonus", has the games.
pub const NET_TEMPO: i32 = 40;

/// Whether the search takes the network's even value (the mean of both sides' views, as E
/// is shown, without [`NET_TEMPO`]) in place of the side to move's output less the tempo.
/// A diagnostic for measuring the search on an evaluation that does not flatter the side
/// to move: set by `OX88_SEARCH_EVAL=even` in the environment, read once; off by default.
fn search_eval_even() -> bool {
    static EVEN: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
        std::env::var("OX88_SEARCH_EVAL").is_ok_and(|v| v.eq_ignore_ascii_case("even"))
    });
    *EVEN
}

/// The `net` mode's E from the side to move's view: the network's output less [`NET_TEMPO`]
/// (or the even value, see [`search_eval_even`]).
#[inline]
fn net_evaluate(board: &Board) -> i32 {
    let net = net::network();
    let v = if search_eval_even() {
        net.evaluate_even(board) * board.side_to_move().sign()
    } else {
        net.evaluate(board) - NET_TEMPO
    };
    net_known(board, v)
}

/// The `net` mode's value `v` (side to move's view) passed through what is known about
/// the ending: a known value replaces it, the bonus for having the move included.
#[inline]
pub(super) fn net_known(board: &Board, v: i32) -> i32 {
    let sign = board.side_to_move().sign();
    known::adjust(board, v * sign, known::Scaling::All).map_or(v, |k| k.value * sign)
}

/// Static evaluation in centipawns from the side to move's point of view (what negamax wants).
#[inline]
pub fn evaluate(board: &Board, cfg: &EvalConfig) -> i32 {
    if cfg.mode == EvalMode::Net {
        return net_evaluate(board);
    }
    evaluate_white(board, cfg) * board.side_to_move().sign()
}

/// [`evaluate`] for the `net` mode through the network's running sums (`None` for the
/// other modes): the same value, carried over from the positions before.
#[inline]
pub(crate) fn evaluate_net_incremental(
    board: &Board,
    cfg: &EvalConfig,
    stack: &mut net::NetStack,
) -> Option<i32> {
    (cfg.mode == EvalMode::Net).then(|| {
        let even = search_eval_even();
        let tempo = if even { 0 } else { NET_TEMPO };
        net_known(
            board,
            net::network().evaluate_incremental(board, stack, even) - tempo,
        )
    })
}

/// The seed's static E: centipawns from White's point of view, the terms' sum. The E people
/// are shown plays out the captures in flight first ([`settled_white`]). A static value:
/// mate and draw by rule are the search's business. In the `net` mode it is
/// the network's view of the position whoever is to move ([`net::Network::evaluate_even`]),
/// not [`evaluate`]'s value turned round: the network scores the side to move higher, and
/// the search keeps that (less [`NET_TEMPO`]), but shown move after move it made E jump
/// with the turn. The other modes do not look at the side to move. |E| stays far below the search's mate scores: about
/// 10,000 with nine queens, two rooks and two bishops against a bare king.
#[inline]
pub fn evaluate_white(board: &Board, cfg: &EvalConfig) -> i32 {
    compute(board, cfg).total()
}

/// One row of the breakdown: a term's blended value per side, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermRow {
    pub term: Term,
    pub white: i32,
    pub black: i32,
    /// `white − black`: what this term adds to E.
    pub net: i32,
    /// For tapered terms (`full` mode): the net middlegame and endgame values before blending.
    pub mg: Option<i32>,
    pub eg: Option<i32>,
}

/// Every term of an evaluation per side, and E. `rows` add up to `total` exactly, and `total`
/// is exactly what [`evaluate_white`] returns for the same position and configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    pub mode: EvalMode,
    /// The piece values used (`material` and `center`; `None` for `full`).
    pub preset: Option<ValuePreset>,
    pub side_to_move: Color,
    /// Game phase for the tapered `full` mode: `PHASE_MAX` = all pieces on, 0 = pawn ending.
    pub phase: Option<i32>,
    /// A drawish-ending scale factor, when one applied.
    pub scale: Option<Scale>,
    /// A known ending's value and why, when one applied.
    pub known: Option<known::Known>,
    pub rows: Vec<TermRow>,
    /// The terms' sum in centipawns, White's point of view: the static evaluation, before
    /// the captures in flight are settled ([`Breakdown::shown`] is the E people read).
    pub total: i32,
    /// The `net` mode only: what the search itself takes for this position, [`evaluate`]'s
    /// value from the side to move's view. It keeps the network's bonus for the side to move
    /// (less [`NET_TEMPO`]), which `total` leaves out.
    pub search: Option<i32>,
    /// The E a player reads ([`settled`]): the captures in flight played out first.
    pub shown: Settled,
}

impl Breakdown {
    /// The row of one term, if this mode has it.
    pub fn row(&self, term: Term) -> Option<&TermRow> {
        self.rows.iter().find(|r| r.term == term)
    }
}

/// The evaluation of `board`, term by term. Computed by the same code as [`evaluate_white`].
pub fn explain(board: &Board, cfg: &EvalConfig) -> Breakdown {
    let out = compute(board, cfg);
    let rows = cfg
        .mode
        .terms()
        .iter()
        .map(|&term| {
            if matches!(term, Term::Scaling | Term::Known) {
                let adj = if term == Term::Scaling {
                    out.scale_adjust
                } else {
                    out.known_adjust()
                };
                return TermRow {
                    term,
                    white: adj.max(0),
                    black: (-adj).max(0),
                    net: adj,
                    mg: None,
                    eg: None,
                };
            }
            let [w, b] = out.acc.terms[term as usize];
            let (white, black) = (blend(w, out.phase), blend(b, out.phase));
            let tapered = out.phase.is_some();
            TermRow {
                term,
                white,
                black,
                net: white - black,
                mg: tapered.then_some(w.mg - b.mg),
                eg: tapered.then_some(w.eg - b.eg),
            }
        })
        .collect();
    Breakdown {
        mode: cfg.mode,
        preset: matches!(cfg.mode, EvalMode::Material | EvalMode::Center).then_some(cfg.preset),
        side_to_move: board.side_to_move(),
        phase: out.phase,
        scale: out.scale,
        known: out.known,
        rows,
        total: out.total(),
        search: (cfg.mode == EvalMode::Net).then(|| net_evaluate(board)),
        shown: settled(board, cfg),
    }
}

impl fmt::Display for Breakdown {
    /// A table: a header naming mode, values or phase; one row per term; in the `net` mode
    /// the search's own value and how E weighs it; the captures E settles first, if any; last
    /// line `E: N`, the E shown everywhere.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Evaluation: mode {}", self.mode)?;
        if let Some(p) = self.preset {
            let v = p.values();
            write!(
                f,
                ", values {p} (P {} N {} B {} R {} Q {})",
                v[0], v[1], v[2], v[3], v[4]
            )?;
        }
        if self.mode == EvalMode::Net {
            let n = net::network();
            write!(f, ", a 768-{}x2-1 network", n.hidden)?;
            if n.buckets > 1 {
                write!(f, " with {} output buckets", n.buckets)?;
            }
        }
        if let Some(ph) = self.phase {
            let mg = ph * 100 / PHASE_MAX;
            write!(
                f,
                ", phase {ph}/{PHASE_MAX} (middlegame {mg}%, endgame {}%)",
                100 - mg
            )?;
        }
        writeln!(f, ", {} to move", self.side_to_move.name())?;
        let tapered = self.phase.is_some();
        write!(f, "{:<16}{:>8}{:>8}{:>8}", "term", "white", "black", "net")?;
        if tapered {
            write!(f, "{:>8}{:>8}", "mg", "eg")?;
        }
        writeln!(f)?;
        for r in &self.rows {
            write!(
                f,
                "{:<16}{:>8}{:>8}{:>8}",
                r.term.name(),
                r.white,
                r.black,
                r.net
            )?;
            match (r.mg, r.eg) {
                (Some(mg), Some(eg)) => write!(f, "{mg:>8}{eg:>8}")?,
                _ if r.term == Term::Scaling => match self.scale {
                    Some(sc) => write!(f, "  x{}/64 {}", sc.factor, sc.reason.describe())?,
                    None => write!(f, "  none")?,
                },
                _ if r.term == Term::Known => match self.known {
                    Some(k) => write!(f, "  {}", k.reason.describe())?,
                    None => write!(f, "  none")?,
                },
                _ => {}
            }
            writeln!(f)?;
        }
        if let Some(v) = self.search {
            writeln!(
                f,
                "search's own E: {v} ({} to move's view, with the bonus for having the move)",
                self.side_to_move.name()
            )?;
        }
        if self.mode == EvalMode::Net {
            writeln!(
                f,
                "E weighs the network three parts to one with the search's own E, turned to White's view"
            )?;
        }
        if !self.shown.line_san.is_empty() {
            writeln!(
                f,
                "captures in flight: {} (E scores the position after them)",
                self.shown.line_san.join(" ")
            )?;
        }
        write!(f, "E: {}", self.shown.white)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn area_ctrl_is_the_seeds_table() {
        assert_eq!(AREA_CTRL.iter().filter(|&&v| v == 1).count(), 12);
        assert_eq!(AREA_CTRL.iter().filter(|&&v| v == 2).count(), 4);
        for sq in ["d4", "e4", "d5", "e5"] {
            let s: crate::chess::Square = sq.parse().unwrap();
            assert_eq!(AREA_CTRL[s.x88() as usize], 2, "{sq}");
        }
        for sq in ["c3", "f3", "f6", "c6", "d3", "c5"] {
            let s: crate::chess::Square = sq.parse().unwrap();
            assert_eq!(AREA_CTRL[s.x88() as usize], 1, "{sq}");
        }
    }

    #[test]
    fn blending_is_exact_at_the_ends_of_the_phase() {
        let v = params::s(120, -40);
        assert_eq!(blend(v, Some(PHASE_MAX)), 120);
        assert_eq!(blend(v, Some(0)), -40);
        assert_eq!(blend(v, Some(PHASE_MAX / 2)), 40);
        assert_eq!(blend(v, None), 120);
    }

    #[test]
    fn every_mode_lists_its_terms_once() {
        for m in EvalMode::ALL {
            let t = m.terms();
            let first = if m == EvalMode::Net {
                Term::Network
            } else {
                Term::Material
            };
            assert_eq!(t[0], first);
            for (i, a) in t.iter().enumerate() {
                assert!(!t[i + 1..].contains(a), "{m}: {a} twice");
            }
        }
    }
}
