//! A Swiss tournament as a FIDE TRF-16 file (Tournament Report File, the format FIDE's
//! rating server and pairing programs read), written and read back.
//!
//! What is written: `012` the tournament's name, `XXR` the number of rounds, `XXC` the
//! initial colour (`white1`/`black1`: the colour pairing number 1 had in round 1), and one
//! `001` line per player, numbered by pairing number, in TRF's fixed columns: name from
//! column 15, rating 49–52, points 81–84, rank 86–89, then from column 92 ten columns a
//! round — the opponent's pairing number (4 digits, `0000` for none), the colour (`w`, `b`
//! or `-`) and the result: `1` `=` `0` for games played, `+` `-` for forfeits, and for a
//! round without an opponent `U` (the pairing-allocated bye), `F` (full-point bye), `H`
//! (half-point bye), `Z` (zero-point bye) or `-` (not paired).
//!
//! Reading accepts what is written here and what other programs commonly write (`W` `D` `L`
//! for unrated games, blank rounds). A round is taken as paired when some player has a game
//! or a `U` bye in it; byes written in the round after the last paired one say who sits out
//! the next round, so a file can ask for the next round's pairing.

use super::standings::standings;
use super::{ByeKind, GameResult, RoundRecord, SwissPlayer, SwissState};
use crate::chess::Color;

/// Why a TRF text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("TRF line {line}: {reason}")]
pub struct TrfError {
    pub line: usize,
    pub reason: String,
}

/// Column (0-based) where round 1's block begins on a `001` line.
const FIRST_ROUND: usize = 91;
const ROUND_WIDTH: usize = 10;

/// Writes `state` as TRF-16 under the tournament name `name`.
pub fn write(state: &SwissState, name: &str) -> String {
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", clean(name)));
    out.push_str(&format!("XXR {}\n", state.total_rounds));
    let initial = if state.initial_colour == Color::White {
        "white1"
    } else {
        "black1"
    };
    out.push_str(&format!("XXC {initial}\n"));
    let ranks = standings(state);
    let mut players: Vec<&SwissPlayer> = state.players.iter().collect();
    players.sort_by_key(|p| p.number);
    for p in players {
        let rank = ranks
            .iter()
            .find(|s| s.number == p.number)
            .map_or(0, |s| s.rank);
        let mut cols = vec![' '; 89];
        let mut put = |at: usize, text: &str| {
            for (k, c) in text.chars().enumerate() {
                if let Some(slot) = cols.get_mut(at + k) {
                    *slot = c;
                }
            }
        };
        put(0, "001");
        put(4, &format!("{:>4}", p.number));
        put(14, &clean(&p.name).chars().take(33).collect::<String>());
        put(48, &format!("{:>4}", p.rating.min(9999)));
        // Points with one decimal, as TRF writes them (" 2.5", " 3.0").
        put(
            80,
            &format!(
                "{:>4}",
                format!("{}.{}", p.score() / 2, (p.score() % 2) * 5)
            ),
        );
        put(85, &format!("{rank:>4}"));
        let mut line: String = cols.into_iter().collect();
        for record in &p.rounds {
            line.push_str("  ");
            line.push_str(&round_block(*record));
        }
        let sitting = state.sitting_out.iter().find(|&&(n, _)| n == p.number);
        if let Some(&(_, kind)) = sitting {
            line.push_str("  ");
            line.push_str(&round_block(RoundRecord::Bye(kind)));
        } else if p.withdrawn {
            line.push_str("  ");
            line.push_str(&round_block(RoundRecord::Bye(ByeKind::Absent)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn round_block(record: RoundRecord) -> String {
    match record {
        RoundRecord::Game {
            opponent,
            colour,
            result,
        } => {
            let c = if colour == Color::White { 'w' } else { 'b' };
            let r = match result {
                GameResult::Win => '1',
                GameResult::Draw => '=',
                GameResult::Loss => '0',
                GameResult::ForfeitWin => '+',
                GameResult::ForfeitLoss => '-',
            };
            format!("{opponent:>4} {c} {r}")
        }
        RoundRecord::Bye(kind) => {
            let r = match kind {
                ByeKind::Pairing => 'U',
                ByeKind::Full => 'F',
                ByeKind::Half => 'H',
                ByeKind::Zero => 'Z',
                ByeKind::Absent => '-',
            };
            format!("0000 - {r}")
        }
    }
}

/// Reads a TRF-16 text: the tournament's name and its state. Players whose round after the
/// last paired one holds a bye sit out the next round with it.
pub fn read(text: &str) -> Result<(String, SwissState), TrfError> {
    let mut name = String::new();
    let mut total_rounds: Option<u32> = None;
    let mut initial = Color::White;
    let mut rows: Vec<(usize, SwissPlayer, Vec<Option<Block>>)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end_matches('\r');
        let err = |reason: String| TrfError {
            line: line_no,
            reason,
        };
        let code = line.get(..3).unwrap_or(line);
        match code {
            "012" => name = line.get(4..).unwrap_or("").trim().to_string(),
            "XXR" => {
                let v = line.get(3..).unwrap_or("").trim();
                total_rounds = Some(
                    v.parse()
                        .map_err(|_| err(format!("XXR wants a number of rounds, not {v:?}")))?,
                );
            }
            "XXC" => {
                let v = line.get(3..).unwrap_or("").trim().to_ascii_lowercase();
                initial = if v.starts_with("black") {
                    Color::Black
                } else {
                    Color::White
                };
            }
            "001" => {
                let (player, blocks) = read_player(line).map_err(err)?;
                rows.push((line_no, player, blocks));
            }
            _ => {}
        }
    }
    let err = |line: usize, reason: String| TrfError { line, reason };
    let width = rows.iter().map(|(_, _, b)| b.len()).max().unwrap_or(0);
    let paired = (0..width)
        .filter(|&r| {
            rows.iter().any(|(_, _, b)| {
                matches!(
                    b.get(r),
                    Some(Some(Block::Game { .. } | Block::Bye(ByeKind::Pairing)))
                )
            })
        })
        .max()
        .map_or(0, |r| r + 1);
    let total_rounds = total_rounds.unwrap_or(paired as u32).max(paired as u32);
    let mut state = SwissState::new(total_rounds);
    state.initial_colour = initial;
    for (line, mut player, blocks) in rows {
        if state.player(player.number).is_some() {
            return Err(err(
                line,
                format!("pairing number {} appears twice", player.number),
            ));
        }
        for r in 0..paired {
            player.rounds.push(match blocks.get(r).copied().flatten() {
                Some(Block::Game {
                    opponent,
                    colour,
                    result,
                }) => RoundRecord::Game {
                    opponent,
                    colour,
                    result,
                },
                Some(Block::Bye(kind)) => RoundRecord::Bye(kind),
                None => RoundRecord::Bye(ByeKind::Absent),
            });
        }
        if let Some(Some(Block::Bye(kind))) = blocks.get(paired) {
            state.sitting_out.push((player.number, *kind));
        }
        state.players.push(player);
    }
    // Every game must be seen from both sides.
    for p in &state.players {
        for (r, record) in p.rounds.iter().enumerate() {
            if let RoundRecord::Game {
                opponent,
                colour,
                result,
            } = *record
            {
                let back = state
                    .player(opponent)
                    .and_then(|o| o.rounds.get(r))
                    .copied();
                let agrees = matches!(back, Some(RoundRecord::Game { opponent: me, colour: c, result: res })
                    if me == p.number && c != colour && res == result.reversed());
                if !agrees {
                    return Err(err(
                        0,
                        format!(
                            "round {}: player {} meets {}, whose line does not say the same",
                            r + 1,
                            p.number,
                            opponent
                        ),
                    ));
                }
            }
        }
    }
    Ok((name, state))
}

#[derive(Clone, Copy, Debug)]
enum Block {
    Game {
        opponent: u32,
        colour: Color,
        result: GameResult,
    },
    Bye(ByeKind),
}

fn read_player(line: &str) -> Result<(SwissPlayer, Vec<Option<Block>>), String> {
    let chars: Vec<char> = line.chars().collect();
    let text = |from: usize, to: usize| -> String {
        chars
            .get(from.min(chars.len())..to.min(chars.len()))
            .unwrap_or(&[])
            .iter()
            .collect()
    };
    let field = |from: usize, to: usize| text(from, to).trim().to_string();
    let number: u32 = field(4, 8)
        .parse()
        .map_err(|_| format!("the pairing number {:?} is not a number", field(4, 8)))?;
    if number == 0 {
        return Err("pairing numbers start at 1".into());
    }
    let name = field(14, 47);
    let rating: u32 = match field(48, 52).as_str() {
        "" => 0,
        r => r
            .parse()
            .map_err(|_| format!("the rating {r:?} is not a number"))?,
    };
    let mut blocks = Vec::new();
    let mut at = FIRST_ROUND;
    while at < chars.len() {
        blocks.push(read_block(&text(at, at + 8), number)?);
        at += ROUND_WIDTH;
    }
    Ok((SwissPlayer::new(number, name, rating), blocks))
}

fn read_block(chunk: &str, me: u32) -> Result<Option<Block>, String> {
    let chars: Vec<char> = chunk.chars().collect();
    let opponent_text: String = chars.iter().take(4).collect();
    let colour = chars.get(5).copied().unwrap_or(' ');
    let result = chars.get(7).copied().unwrap_or(' ');
    let opponent: u32 = match opponent_text.trim() {
        "" => 0,
        t => t
            .parse()
            .map_err(|_| format!("the opponent {t:?} is not a pairing number"))?,
    };
    if opponent == 0 {
        let kind = match result {
            'U' | 'u' => ByeKind::Pairing,
            'F' | 'f' | '+' | '1' | 'W' => ByeKind::Full,
            'H' | 'h' | '=' | 'D' => ByeKind::Half,
            'Z' | 'z' | '0' | 'L' => ByeKind::Zero,
            '-' => ByeKind::Absent,
            ' ' => return Ok(None),
            other => {
                return Err(format!(
                    "{other:?} is not a result for a round without a game"
                ));
            }
        };
        return Ok(Some(Block::Bye(kind)));
    }
    if opponent == me {
        return Err(format!("player {me} is paired against themself"));
    }
    let colour = match colour {
        'w' | 'W' => Color::White,
        'b' | 'B' => Color::Black,
        other => return Err(format!("{other:?} is not a colour (w or b)")),
    };
    let result = match result {
        '1' | 'W' => GameResult::Win,
        '=' | 'D' => GameResult::Draw,
        '0' | 'L' => GameResult::Loss,
        '+' => GameResult::ForfeitWin,
        '-' => GameResult::ForfeitLoss,
        other => return Err(format!("{other:?} is not a game's result")),
    };
    Ok(Some(Block::Game {
        opponent,
        colour,
        result,
    }))
}
