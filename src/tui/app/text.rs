//! How the TUI writes numbers, times and scores: the seed's engine log line and its parts.

use std::time::Duration;

use crate::chess::{Board, Color, Move};
use crate::engine::eval::{self, EvalConfig};
use crate::engine::{Bound, IterationInfo, Score};

/// `1,234,567`
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A game's length in words: full moves, not plies ("10 moves" for 20 plies, "1 move" for
/// White's first alone).
pub fn moves_text(plies: usize) -> String {
    let moves = plies.div_ceil(2);
    format!("{moves} move{}", if moves == 1 { "" } else { "s" })
}

/// The moves of `game` from ply `from` up to `to` (not included) as a person reads them:
/// SAN, numbered at White's moves and at the first (`12...Bg7 13.a3`). Moves past the
/// game's cursor (taken back, kept for replaying) count too.
pub fn plies_text(game: &crate::game::Game, from: usize, to: usize) -> String {
    let sans = game.sans();
    (from..to.min(sans.len()))
        .map(|i| {
            let (side, _) = game.move_number(i);
            if i == from || side == crate::chess::Color::White {
                game.numbered_san(i).unwrap_or_else(|| sans[i].to_string())
            } else {
                sans[i].to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position after `plies` of `game` in words: "the start", or "after 2...Nc6".
pub fn position_text(game: &crate::game::Game, plies: usize) -> String {
    match plies.checked_sub(1).and_then(|i| game.numbered_san(i)) {
        Some(san) => format!("after {san}"),
        None => "the start".to_string(),
    }
}

/// `m:ss.t`, the seed's engine log writes times as `0:45` and `4:41`.
pub fn clock_time(d: Duration) -> String {
    let tenths = d.as_millis() / 100;
    format!("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10)
}

/// A search's time for the log: milliseconds matter in the first minute (early iterations
/// take a few), then `m:ss.t` as the seed's log writes `0:45` and `4:41`.
pub fn search_time(d: Duration) -> String {
    if d < Duration::from_secs(60) {
        format!("{}.{:03}s", d.as_secs(), d.subsec_millis())
    } else {
        clock_time(d)
    }
}

/// E in pawns from White's view, the seed's sign convention: `+0.29`.
pub fn e_text(centipawns: i32) -> String {
    Score::Cp(centipawns).to_string()
}

/// E of `board` as the log and the board pane show it, `E +0.35` ([`eval::settled_white`]:
/// the evaluation once the captures in flight are played out, White's view); in a
/// position without a legal move what it is instead (`checkmate, Black wins`, `stalemate`),
/// where a number from the evaluation would mean nothing.
pub fn shown_e_text(board: &Board, cfg: &EvalConfig) -> String {
    match board.no_move_text() {
        Some(end) => end,
        None => format!("E {}", e_text(eval::settled_white(board, cfg))),
    }
}

/// A score from White's view with its bound, as the log writes it: ` +0.35` when exact,
/// ` ≥ +0.35` when the search only proved White at least this well off (its aspiration
/// window failed), ` ≤ +0.35` at most. The engine's bound is the side to move's (as UCI's
/// `lowerbound`), so with Black to move it turns round beside White's score.
pub fn bounded_score(bound: Bound, score_white: Score, side_to_move: Color) -> String {
    let bound = match (bound, side_to_move) {
        (Bound::Lower, Color::Black) => Bound::Upper,
        (Bound::Upper, Color::Black) => Bound::Lower,
        (b, _) => b,
    };
    match bound {
        Bound::Exact => format!(" {score_white}"),
        Bound::Lower => format!(" ≥ {score_white}"),
        Bound::Upper => format!(" ≤ {score_white}"),
    }
}

/// The search's score of the position after a move, from White's view, given the score
/// the search gave that move at its root (White's view): the same centipawns, and a mate
/// one move nearer when the mating side made the move, as PGN's `[%eval]` counts it from
/// the position after the move. `None` when the move mated: no position is left to score.
pub fn score_after_move(root_white: Score, mover: Color) -> Option<Score> {
    let Score::Mate(n) = root_white else {
        return Some(root_white);
    };
    let mating_side_moved = match mover {
        Color::White => n > 0,
        Color::Black => n < 0,
    };
    let n = if mating_side_moved { n - n.signum() } else { n };
    (n != 0).then_some(Score::Mate(n))
}

/// The search's score of a move as its log line writes it, apart from its E:
/// ` · search +0.35 d12`, with ` ≥ `/` ≤ ` when the search only bounded it. `bound` is the
/// mover's, as the engine reports it at its root.
pub fn search_note(after_white: Score, bound: Bound, depth: u32, mover: Color) -> String {
    format!(
        " · search{} d{depth}",
        bounded_score(bound, after_white, mover)
    )
}

/// What the status line puts after a message it cannot show whole (the log has it all).
pub const SEE_LOG: &str = "… (see log)";

/// The columns `text` takes on a terminal.
pub fn text_width(text: &str) -> usize {
    ratatui::text::Span::raw(text).width()
}

/// `text` on a line of `width` columns: whole when it fits, else as much as fits (cut after
/// a word when one ends near the edge) and `… (see log)`.
pub fn fit_message(text: &str, width: usize) -> String {
    if text_width(text) <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(text_width(SEE_LOG));
    // Too narrow for the note: as much of the text as fits.
    let limit = if room == 0 { width } else { room };
    let mut cut = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = text_width(c.encode_utf8(&mut [0; 4]));
        if used + w > limit {
            break;
        }
        cut.push(c);
        used += w;
    }
    if room == 0 {
        return cut;
    }
    let word_ends = text[cut.len()..].starts_with(' ');
    if !word_ends && let Some(i) = cut.rfind(' ').filter(|&i| i >= room * 2 / 3) {
        cut.truncate(i);
    }
    format!("{}{SEE_LOG}", cut.trim_end())
}

/// The seed's engine log line (seed 003: depth, time, nodes, n/s, score, PV), with the
/// selective depth and E from White's view; a failed aspiration window shows its bound.
/// The iteration's own figures follow the PV in brackets (when the search counted them):
/// first-move cutoffs, effective branching factor and table hits; the sort pane shows all.
pub fn iteration_line(info: &IterationInfo, side_to_move: Color) -> String {
    let pv: Vec<String> = info.pv.iter().map(Move::to_string).collect();
    let mut line = format!(
        "d{}/{} {} {} n {} n/s E{} pv {}",
        info.depth,
        info.seldepth,
        search_time(info.time),
        thousands(info.nodes),
        thousands(info.nps),
        bounded_score(info.bound, info.score_white, side_to_move),
        pv.join(" ")
    );
    if info.stats.nodes > 0 {
        let s = &info.stats;
        line.push_str(&format!(" [1st {:.0}%", s.first_move_cutoff() * 100.0));
        if info.branching > 0.0 {
            line.push_str(&format!(" ebf {:.1}", info.branching));
        }
        line.push_str(&format!(" tt {:.0}%]", s.tt_hit_rate() * 100.0));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_games_length_is_counted_in_moves_and_a_position_named_by_its_last_move() {
        for (plies, words) in [(0, "0 moves"), (1, "1 move"), (2, "1 move"), (3, "2 moves")] {
            assert_eq!(moves_text(plies), words);
        }
        assert_eq!(moves_text(20), "10 moves");
        let mut game = crate::game::Game::new();
        for san in ["e4", "e5", "Nf3", "Nc6"] {
            game.play_text(san).unwrap();
        }
        assert_eq!(position_text(&game, 0), "the start");
        assert_eq!(position_text(&game, 3), "after 2. Nf3");
        assert_eq!(position_text(&game, 4), "after 2...Nc6");
    }

    #[test]
    fn numbers_and_times_read_like_the_seed_log() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(25_499_252), "25,499,252");
        assert_eq!(search_time(Duration::from_millis(12)), "0.012s");
        assert_eq!(search_time(Duration::from_millis(45_300)), "45.300s");
        assert_eq!(search_time(Duration::from_secs(281)), "4:41.0");
        assert_eq!(clock_time(Duration::from_millis(1_520)), "0:01.5");
        assert_eq!(e_text(29), "+0.29");
        assert_eq!(e_text(-150), "-1.50");
    }

    #[test]
    fn a_message_too_long_for_its_line_is_cut_and_sends_the_reader_to_the_log() {
        assert_eq!(fit_message("depth 5", 80), "depth 5");
        let long =
            "O-O: White has lost the right to castle kingside: the king or the h1 rook has moved";
        let cut = fit_message(long, 40);
        assert_eq!(cut, "O-O: White has lost the right… (see log)");
        assert_eq!(
            fit_message(long, 38),
            "O-O: White has lost the… (see log)",
            "cut after a whole word"
        );
        assert!(text_width(&cut) <= 40, "{cut}");
        for width in 0..long.len() {
            assert!(text_width(&fit_message(long, width)) <= width, "{width}");
        }
    }

    #[test]
    fn a_bound_reads_from_whites_side_beside_whites_score() {
        let s = Score::Cp(35);
        assert_eq!(bounded_score(Bound::Exact, s, Color::White), " +0.35");
        assert_eq!(bounded_score(Bound::Lower, s, Color::White), " ≥ +0.35");
        assert_eq!(bounded_score(Bound::Upper, s, Color::White), " ≤ +0.35");
        // Black to move failed high: at least this good for Black, at most for White.
        assert_eq!(bounded_score(Bound::Lower, s, Color::Black), " ≤ +0.35");
        assert_eq!(bounded_score(Bound::Upper, s, Color::Black), " ≥ +0.35");
    }

    #[test]
    fn a_mate_is_one_move_nearer_after_the_mating_sides_move_and_gone_after_mate() {
        let w = Color::White;
        let b = Color::Black;
        assert_eq!(score_after_move(Score::Cp(-40), w), Some(Score::Cp(-40)));
        // White mates in 3: after White's move, in 2; after Black's, still in 3.
        assert_eq!(score_after_move(Score::Mate(3), w), Some(Score::Mate(2)));
        assert_eq!(score_after_move(Score::Mate(3), b), Some(Score::Mate(3)));
        assert_eq!(score_after_move(Score::Mate(-2), b), Some(Score::Mate(-1)));
        assert_eq!(score_after_move(Score::Mate(-2), w), Some(Score::Mate(-2)));
        assert_eq!(score_after_move(Score::Mate(1), w), None, "the move mated");
        assert_eq!(score_after_move(Score::Mate(-1), b), None);
        assert_eq!(
            search_note(Score::Cp(35), Bound::Exact, 12, w),
            " · search +0.35 d12"
        );
        assert_eq!(
            search_note(Score::Mate(2), Bound::Lower, 9, b),
            " · search ≤ #2 d9"
        );
    }
}
