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
    let mut lines = vec![Line::from(vec![
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
    ])];
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
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        "↑↓ Enter accepts, joins or watches · :seek 5+3 · :challenge NAME 10+0 · :watch N · \
         :join ROOM · :tournament arena 3+0 30m · :play (the engine)",
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
                "{} {} (:rematch, :review, :save NAME)",
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
