//! The club's panes under `ox88 serve`: the lobby (who is online, challenges, seeks, games
//! being played) and a room (the players with their ratings, clocks and connections, the
//! standing offer, the result, the moves, the watchers and the chat).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::pane_block;
use crate::chess::Color;
use crate::club::bots::shown_name;
use crate::club::room::{Offer, SeatView};
use crate::club::{Role, RoomView};
use crate::game::clock::format_clock;
use crate::tui::app::App;
use crate::tui::app::club::LobbyRow;

fn rated(r: Option<u32>) -> String {
    r.map_or(String::new(), |r| format!(" ({r})"))
}

fn tc_text(tc: Option<crate::game::TimeControl>) -> String {
    tc.map_or("no clock".to_string(), |t| t.to_string())
}

/// The standings rows the lobby shows of one's own tournament (one's own row besides).
const TOURNAMENT_ROWS: usize = 8;

/// The lobby, in `area`.
pub fn draw_lobby(frame: &mut Frame, area: Rect, app: &App) {
    let club = app.club();
    let l = club.lobby();
    let theme = app.theme();
    let title = format!(" Lobby — {}{} ", l.me, rated(l.my_rating));
    let rows = club.lobby_rows();
    let picked = rows.get(club.picked());
    let mark = |row: LobbyRow| {
        if picked == Some(&row) {
            Span::styled("▶ ", theme.accent())
        } else {
            Span::raw("  ")
        }
    };
    let head = |t: &str| Line::from(Span::styled(t.to_string(), theme.label()));
    let mut lines = Vec::new();
    // One's own tournament first, live: what it is and the time left, the standings (the
    // top, and one's own line), the games going on.
    if let Some(t) = club.my_tournament(std::time::Instant::now()) {
        let text = t.to_string();
        let mut rows = text.lines();
        if let Some(head) = rows.next() {
            lines.push(Line::from(Span::styled(
                head.trim_start_matches("tournament ").to_string(),
                theme.accent(),
            )));
        }
        let me = &l.me;
        for (i, row) in rows.enumerate() {
            let mine = row.contains(&format!(" {me} ")) || row.contains(&format!(" {me}*"));
            // The pairings (`a – b in room …`) and the podium (`1. a  7 points, …`) always.
            let pairing_or_podium = row.contains(" – ") || row.contains(" points, ");
            if i <= TOURNAMENT_ROWS || mine || pairing_or_podium {
                let style = if mine { theme.ok() } else { Style::default() };
                lines.push(Line::from(Span::styled(row.to_string(), style)));
            }
        }
        lines.push(Line::default());
    }
    lines.push(Line::from(vec![
        Span::styled(format!("Online ({}): ", l.online.len()), theme.label()),
        Span::raw(
            l.online
                .iter()
                .map(|o| {
                    format!(
                        "{}{}{}",
                        shown_name(&o.name),
                        rated(o.rating),
                        o.room.as_ref().map_or(String::new(), |r| format!(" [{r}]"))
                    )
                })
                .collect::<Vec<_>>()
                .join(", "),
        ),
    ]));
    let mine: Vec<_> = l.challenges.iter().filter(|c| c.to == l.me).collect();
    let sent: Vec<_> = l.challenges.iter().filter(|c| c.from == l.me).collect();
    if !mine.is_empty() || !sent.is_empty() {
        lines.push(head("Challenges"));
        for c in mine {
            lines.push(Line::from(vec![
                mark(LobbyRow::Challenge(c.number)),
                Span::raw(format!(
                    "{:>3}  {} challenges you: {} {}  (:accept {} / :decline {})",
                    c.number,
                    shown_name(&c.from),
                    tc_text(c.time_control),
                    if c.rated { "rated" } else { "casual" },
                    c.number,
                    c.number
                )),
            ]));
        }
        for c in sent {
            lines.push(Line::from(Span::styled(
                format!(
                    "  {:>3}  you challenged {}: {} (waiting)",
                    c.number,
                    shown_name(&c.to),
                    tc_text(c.time_control)
                ),
                theme.dim(),
            )));
        }
    }
    lines.push(head("Seeks"));
    if l.seeks.is_empty() {
        lines.push(Line::from(Span::styled(
            "    none — :seek 5+3 waits for an opponent",
            theme.dim(),
        )));
    }
    for s in &l.seeks {
        lines.push(Line::from(vec![
            mark(LobbyRow::Seek(s.number)),
            Span::raw(format!(
                "{:>3}  {}{}  {}  {}  {}",
                s.number,
                shown_name(&s.name),
                rated(s.rating),
                tc_text(s.time_control),
                s.color.map_or("any colour", Color::name),
                if s.rated { "rated" } else { "casual" }
            )),
        ]));
    }
    if !l.waiting.is_empty() {
        lines.push(head("Waiting for an opponent"));
    }
    for w in &l.waiting {
        lines.push(Line::from(vec![
            mark(LobbyRow::Waiting(w.room.clone())),
            Span::raw(format!(
                "     {}: {}{} ({})  {}  {}  (:join {})",
                w.room,
                shown_name(&w.name),
                rated(w.rating),
                w.color.name(),
                tc_text(w.time_control),
                if w.rated { "rated" } else { "casual" },
                w.room
            )),
        ]));
    }
    if !l.tournaments.is_empty() {
        lines.push(head("Tournaments"));
    }
    for t in &l.tournaments {
        use crate::club::lobby::Phase;
        let when = match (t.phase, t.until) {
            (Phase::Starting, Some(u)) => format!("starts in {}", format_clock(u)),
            (Phase::Running, Some(u)) => format!("running, {} left", format_clock(u)),
            (phase, _) => phase.to_string(),
        };
        let text = format!(
            "{:>3}  {} by {}  {} players  {when}  (:standings {})",
            t.id, t.spec, t.organiser, t.players, t.id
        );
        if t.phase == Phase::Finished {
            lines.push(Line::from(Span::styled(format!("  {text}"), theme.dim())));
        } else {
            lines.push(Line::from(vec![
                mark(LobbyRow::Tournament(t.id)),
                Span::raw(text),
            ]));
        }
    }
    lines.push(head("Games"));
    if l.games.is_empty() {
        lines.push(Line::from(Span::styled(
            "    none being played",
            theme.dim(),
        )));
    }
    for g in &l.games {
        let clocks = g.clocks.map_or(String::new(), |[w, b]| {
            format!("  {} – {}", format_clock(w), format_clock(b))
        });
        lines.push(Line::from(vec![
            mark(LobbyRow::Game(g.number)),
            Span::raw(format!(
                "{:>3}  {}: {} – {}{clocks}  move {}{}",
                g.number,
                g.room,
                shown_name(&g.white),
                shown_name(&g.black),
                g.move_number,
                if g.watchers > 0 {
                    format!("  ({} watching)", g.watchers)
                } else {
                    String::new()
                }
            )),
        ]));
    }
    if !l.studies.is_empty() {
        lines.push(head("Studies"));
    }
    for st in &l.studies {
        lines.push(Line::from(vec![
            mark(LobbyRow::Study(st.name.clone())),
            Span::raw(format!(
                "{} by {} · {} chapter{}{}{}{}",
                st.name,
                shown_name(&st.owner),
                st.chapters,
                if st.chapters == 1 { "" } else { "s" },
                if st.present > 0 {
                    format!(" · {} in it", st.present)
                } else {
                    String::new()
                },
                if st.private { " · private" } else { "" },
                if st.mine { " · you move" } else { "" },
            )),
        ]));
    }
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "↑↓ Enter accepts, joins or watches · :seek 5+3 · :challenge NAME 10+0 · :watch N · \
         :join ROOM · :tournament arena 3+0 30m · :study NAME · :play (the engine)",
        theme.dim(),
    )));
    let scroll = lobby_scroll(&lines, area);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(pane_block(app, &title, true)),
        area,
    );
}

/// How many rows the lobby scrolls so the picked row (the line marked `▶`) is on the
/// pane, with the row after it: a long lobby (many seeks, many games) scrolls with ↑ ↓.
fn lobby_scroll(lines: &[Line<'_>], area: Rect) -> u16 {
    let width = usize::from(area.width.saturating_sub(2)).max(1);
    let height = usize::from(area.height.saturating_sub(2));
    let rows = |l: &Line<'_>| l.width().max(1).div_ceil(width);
    let Some(picked) = lines
        .iter()
        .position(|l| l.spans.first().is_some_and(|s| s.content == "▶ "))
    else {
        return 0;
    };
    let bottom = lines[..=picked].iter().map(rows).sum::<usize>() + 1;
    u16::try_from(bottom.saturating_sub(height)).unwrap_or(u16::MAX)
}

fn seat_line<'a>(app: &App, v: &RoomView, color: Color, seat: Option<&'a SeatView>) -> Line<'a> {
    let theme = app.theme();
    let i = color.index();
    let clock = v
        .clocks
        .map_or(String::new(), |c| format!("{:>8}", format_clock(c[i])));
    let running = v.running == Some(color);
    let name = seat.map_or("(free seat)".to_string(), |s| {
        format!("{}{}", shown_name(&s.name), rated(s.rating))
    });
    let mut spans = vec![
        Span::styled(format!("{:<6}", color.name()), theme.label()),
        Span::raw(format!("{name:<24}")),
        Span::styled(
            clock,
            if running {
                theme.accent().add_modifier(Modifier::BOLD)
            } else {
                theme.text()
            },
        ),
    ];
    if running {
        spans.push(Span::styled(" ◀", theme.accent()));
    }
    if let Some(s) = seat
        && !s.connected
        && !s.resumed
    {
        // A player of a restored game: away, and not to be claimed against.
        spans.push(Span::styled(
            "  away (the game has not resumed)",
            theme.error(),
        ));
    } else if let Some(s) = seat
        && !s.connected
    {
        let away = s.away.map_or(0, |d| d.as_secs());
        spans.push(Span::styled(
            format!("  disconnected ({}:{:02})", away / 60, away % 60),
            theme.error(),
        ));
    }
    Line::from(spans)
}

/// The room, in `area`.
pub fn draw_room(frame: &mut Frame, area: Rect, app: &App) {
    let club = app.club();
    let Some((v, role)) = club.room() else {
        return;
    };
    let theme = app.theme();
    let title = format!(
        " Room {} · {} · {} ",
        v.name,
        if v.rated { "rated" } else { "casual" },
        tc_text(v.time_control)
    );
    // The player's own side at the bottom, as the board shows it.
    let order = if *role == Role::Player(Color::Black) {
        [Color::White, Color::Black]
    } else {
        [Color::Black, Color::White]
    };
    let mut lines: Vec<Line> = order
        .iter()
        .map(|&c| seat_line(app, v, c, v.seats[c.index()].as_ref()))
        .collect();
    let status = if v.aborted {
        Some((
            "the game was aborted (:rematch plays again)".to_string(),
            theme.dim(),
        ))
    } else if let Some(end) = v.result {
        Some((
            format!(
                "{} {} (:rematch, :review, :study NAME, :save NAME)",
                end.result(),
                end.reason()
            ),
            theme.ok(),
        ))
    } else if v.waiting {
        let absent: Vec<_> = v
            .seats
            .iter()
            .flatten()
            .filter(|s| !s.connected)
            .map(|s| shown_name(&s.name))
            .collect();
        Some((
            format!(
                "the game waits for {} to come back: clocks stopped",
                absent.join(" and ")
            ),
            theme.accent(),
        ))
    } else if v.seats.iter().any(Option::is_none) {
        Some((
            "waiting for an opponent (:color white|black picks yours)".to_string(),
            theme.dim(),
        ))
    } else {
        None
    };
    if let Some((text, style)) = status {
        lines.push(Line::from(Span::styled(text, style)));
    }
    if let Some(offer) = v.offer {
        let (what, by) = match offer {
            Offer::Draw(c) => ("offers a draw", c),
            Offer::Takeback(c) => ("asks to take back", c),
            Offer::Rematch(c) => ("offers a rematch", c),
        };
        let who = v.seats[by.index()]
            .as_ref()
            .map_or(by.name().to_string(), |s| shown_name(&s.name).into_owned());
        let answer = match (role, offer) {
            (Role::Player(me), _) if *me == by => " (waiting for the answer)".to_string(),
            (Role::Player(_), Offer::Draw(_)) => " — :draw accepts, :no declines".to_string(),
            (Role::Player(_), Offer::Takeback(_)) => {
                " — :takeback accepts, :no declines".to_string()
            }
            (Role::Player(_), Offer::Rematch(_)) => " — :rematch accepts".to_string(),
            _ => String::new(),
        };
        lines.push(Line::from(Span::styled(
            format!("{who} {what}{answer}"),
            theme.accent(),
        )));
    }
    let sans = v.game.sans();
    if !sans.is_empty() {
        let moves: Vec<String> = sans
            .chunks(2)
            .enumerate()
            .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
            .collect();
        let shown = moves.len().saturating_sub(6);
        lines.push(Line::from(Span::styled(
            format!(
                "{}{}",
                if shown > 0 { "… " } else { "" },
                moves[shown..].join(" ")
            ),
            theme.text(),
        )));
    }
    if !v.watchers.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("watching: {}", v.watchers.join(", ")),
            theme.dim(),
        )));
    }
    let engine_note = match role {
        Role::Player(_) if club.playing() => "the engine is out of sight until the game ends",
        Role::Watcher if club.engine_open() => "Ctrl+V closes the engine's panes",
        Role::Watcher => "Ctrl+V: the engine's panes",
        Role::Player(_) => "",
    };
    // The engine's line first: it must be read whole, however narrow the pane.
    let mut footer = Vec::new();
    if !engine_note.is_empty() {
        footer.push(Line::from(Span::styled(engine_note, theme.accent())));
    }
    footer.push(Line::from(Span::styled(
        format!(
            "'TEXT chats · Ctrl+R {} the chat · :lobby",
            if club.muted() { "shows" } else { "hides" },
        ),
        theme.dim(),
    )));
    // The chat fills what is left, newest at the bottom.
    let inner_rows = area.height.saturating_sub(2) as usize;
    let room_for_chat = inner_rows.saturating_sub(lines.len() + 1 + footer.len());
    lines.push(Line::from(Span::styled("chat", theme.label())));
    if club.muted() {
        lines.push(Line::from(Span::styled(
            "(hidden: Ctrl+R shows it)",
            theme.dim(),
        )));
    } else {
        let start = v.chat.len().saturating_sub(room_for_chat);
        for l in &v.chat[start..] {
            lines.push(Line::from(vec![
                Span::styled(format!("{}: ", l.from), theme.label()),
                Span::styled(l.text.clone(), Style::default()),
            ]));
        }
    }
    while lines.len() < inner_rows.saturating_sub(footer.len()) {
        lines.push(Line::default());
    }
    lines.extend(footer);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(pane_block(app, &title, true)),
        area,
    );
}

/// A study, in `area`: its chapter, who owns it and who may move, who is in it, this
/// screen's place (following or away), the moves around the position shown with the
/// variations that leave it, and what is written on the move: glyph, comment, marks,
/// arrows and the evaluation kept.
pub fn draw_study(frame: &mut Frame, area: Rect, app: &App) {
    let club = app.club();
    let (Some(s), Some((chapter, node))) = (club.study(), club.study_at()) else {
        return;
    };
    let theme = app.theme();
    let ch = &s.chapters()[chapter];
    let title = format!(
        " Study {} · chapter {}/{}: {} ",
        s.name(),
        chapter + 1,
        s.chapters().len(),
        ch.name()
    );
    let label = |t: &str| Span::styled(t.to_string(), theme.label());
    let mut movers = vec![shown_name(s.owner_name()).into_owned()];
    movers.extend(s.contributors().map(|c| shown_name(c).into_owned()));
    let mut lines = vec![
        Line::from(vec![
            label("Moves: "),
            Span::raw(movers.join(", ")),
            Span::styled(if s.is_private() { " · private" } else { "" }, theme.dim()),
        ]),
        Line::from(vec![
            label(&format!("In it ({}): ", s.present().len())),
            Span::raw(s.present().join(", ")),
        ]),
    ];
    if let Some(status) = app.study_status() {
        let style = if club.is_away() {
            theme.accent()
        } else {
            theme.dim()
        };
        lines.push(Line::from(Span::styled(status, style)));
    }
    let tree = ch.tree();
    // The line to the position shown, then the main line on from it: the move shown
    // stands out, the room's cursor is underlined when this screen is away from it.
    let mut line_nodes = tree.path(node);
    let mut at = node;
    while let Some(n) = tree.next(at) {
        line_nodes.push(n);
        at = n;
    }
    let cursor = (chapter == s.current().0).then(|| ch.cursor());
    let mut spans = vec![label("Line: ")];
    let mut board = tree.start().clone();
    for (i, &n) in line_nodes.iter().enumerate() {
        let Some(mv) = tree.mv(n) else { break };
        let number = if board.side_to_move() == Color::White {
            format!("{}. ", board.fullmove_number())
        } else if i == 0 {
            format!("{}... ", board.fullmove_number())
        } else {
            String::new()
        };
        let glyph = tree.notes(n).and_then(|x| x.glyph).map_or("", |g| g.text());
        let text = format!("{number}{}{glyph} ", board.san(mv));
        let mut style = Style::default();
        if n == node {
            style = theme.accent().add_modifier(Modifier::REVERSED);
        } else if Some(n) == cursor && club.is_away() {
            style = style.add_modifier(Modifier::UNDERLINED);
        }
        spans.push(Span::styled(text, style));
        if board.play(mv).is_err() {
            break;
        }
    }
    if line_nodes.is_empty() {
        spans.push(Span::styled("(no moves yet)", theme.dim()));
    }
    lines.push(Line::from(spans));
    // The other moves from the position shown: variations one could go into.
    if let Ok(here) = tree.board_at(node) {
        let others: Vec<String> = tree
            .children(node)
            .iter()
            .skip(1)
            .filter_map(|&c| tree.mv(c).map(|m| here.san(m)))
            .collect();
        if !others.is_empty() {
            lines.push(Line::from(vec![
                label("Variations here: "),
                Span::raw(others.join(", ")),
            ]));
        }
    }
    if let Some(notes) = tree.notes(node) {
        if let Some(c) = &notes.comment {
            lines.push(Line::from(vec![label("Comment: "), Span::raw(c.clone())]));
        }
        let mut drawn = Vec::new();
        for (sq, m) in &notes.squares {
            drawn.push(format!("{sq} ({})", mark_name(*m)));
        }
        for a in &notes.arrows {
            drawn.push(format!("{}→{} ({})", a.from, a.to, mark_name(a.mark)));
        }
        if !drawn.is_empty() {
            lines.push(Line::from(vec![
                label("On the board: "),
                Span::raw(drawn.join(", ")),
            ]));
        }
        if let Some(e) = notes.eval {
            lines.push(Line::from(vec![
                label("Kept evaluation: "),
                Span::raw(format!("{e} (White's view)")),
            ]));
        }
    }
    lines.push(Line::from(Span::styled(
        if club.may_move() {
            "moves and ← → for everyone; :comment :glyph :mark :arrow :chapter; PgUp/PgDn chapters"
        } else {
            "Ctrl+B browses on your own; :lobby leaves"
        },
        theme.dim(),
    )));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(pane_block(app, &title, false)),
        area,
    );
}

fn mark_name(m: crate::game::study::Mark) -> &'static str {
    use crate::game::study::Mark;
    match m {
        Mark::Green => "green",
        Mark::Red => "red",
        Mark::Yellow => "yellow",
        Mark::Blue => "blue",
    }
}
