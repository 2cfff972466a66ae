//! The message line (the last message: why a move was refused, what a command did) and the
//! status bar (side to move, mode, depth, eval mode, ordering scheme, engine state).

use crate::engine::levels::Level;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::chess::Color;
use crate::game::clock::format_clock;
use crate::tui::app::text::fit_message;
use crate::tui::app::{App, EngineState, MessageKind, clock_time};

/// The message, or as much as the line's width shows followed by `… (see log)` (the app
/// puts a message it cannot show whole into the log).
pub fn draw_message(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let shown = |text: &str| fit_message(text, usize::from(area.width));
    let line = match &app.message() {
        Some(m) if m.kind == MessageKind::Error => {
            Line::from(Span::styled(shown(&m.text), t.error()))
        }
        Some(m) if m.kind == MessageKind::Question => Line::from(Span::styled(
            shown(&m.text),
            t.accent().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        )),
        Some(m) => Line::from(Span::styled(shown(&m.text), t.ok())),
        None => Line::from(Span::styled("", t.dim())),
    };
    frame.render_widget(Paragraph::new(line), area);
}

/// The engine's state in a few words: `idle`, `book`, `thinking d7 1.2s 3:g1f3`. `brief`
/// leaves out the root move being searched.
pub fn engine_text(app: &App, brief: bool) -> String {
    match (app.session().search(), app.session().state()) {
        (Some(s), _) => {
            let mut text = if s.analysis {
                "analysing".to_string()
            } else {
                "thinking".to_string()
            };
            if let Some(info) = &s.last {
                text.push_str(&format!(" d{}", info.depth));
            }
            text.push(' ');
            text.push_str(&clock_time(s.started.elapsed()));
            if let Some((_, mv, n)) = s.current.filter(|_| !brief) {
                text.push_str(&format!(" {n}:{mv}"));
            }
            text
        }
        (None, EngineState::Book(_)) => "book".into(),
        (None, _)
            if app.play().series().next_engine_start().is_some()
                || app.play().series().next_game_start().is_some() =>
        {
            "waiting".into()
        }
        (None, _) if app.play().series().is_paused() => "paused".into(),
        (None, _) => "idle".into(),
    }
}

/// A clock reading: whole seconds rounded up, like a chess clock (a clock that has just
/// started still shows 5:00), tenths below ten seconds.
pub fn clock_text(left: std::time::Duration) -> String {
    if left.as_secs() >= 10 {
        let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
        format_clock(std::time::Duration::from_secs(secs))
    } else {
        format_clock(left)
    }
}

/// The most shortening [`status_fields`] knows: past it, fields are left out.
const SHORTEST: u8 = 5;

/// The status bar's fields, longest form first; each `level` up to [`SHORTEST`] shortens
/// them to fit 80 columns: 1 names the side alone and shortens the tables' verdict, 2 leaves
/// out the root move being searched, 3 the ordering scheme, 4 the evaluation, 5 writes the
/// depth `d8`. The engine's state is always the last field.
fn status_fields(app: &App, level: u8) -> Vec<String> {
    let side = match app.game().result() {
        Some(end) => end.result().to_string(),
        None if level == 0 => format!("{} to move", app.side_to_move().name()),
        None => app.side_to_move().name().to_string(),
    };
    let mut fields = vec![side];
    if let Some(c) = app.play().clock() {
        let now = std::time::Instant::now();
        let show = |side: Color, letter: &str| {
            let t = clock_text(c.remaining(side, now));
            if c.running() == Some(side) {
                format!("[{letter} {t}]")
            } else {
                format!("{letter} {t}")
            }
        };
        fields.push(format!(
            "{} {}",
            show(Color::White, "W"),
            show(Color::Black, "B")
        ));
    }
    if let Some(p) = app.review().progress_text() {
        fields.push(p);
    }
    if let Some(h) = app.current_hint() {
        fields.push(format!("hint {}", h.san));
    }
    if let Some(tb) = app.tablebase_text() {
        fields.push(match level {
            0 => tb,
            _ => tb.replacen("tablebase: ", "TB ", 1),
        });
    }
    let club = app.club();
    match club.room() {
        Some((room, role)) if club.in_room() => fields.push(format!(
            "room {} · ply {} · {}",
            room.name,
            room.game.len(),
            match role {
                crate::club::Role::Player(c) => format!("you: {}", c.name()),
                crate::club::Role::Watcher => "watching".to_string(),
            }
        )),
        _ => match app.study_status() {
            Some(text) => fields.push(text),
            None => fields.push(app.play().mode().short().to_string()),
        },
    }
    if app.prefs().settings().level != Level::Max {
        // Full strength is the default and says nothing; a weaker level is always shown,
        // in place of the depth: the level decides how deep the engine's moves look.
        fields.push(format!("level {}", app.prefs().settings().level));
    } else {
        let depth = app.prefs().settings().depth;
        fields.push(if level >= 5 {
            format!("d{depth}")
        } else {
            format!("depth {depth}")
        });
    }
    if level < 4 {
        fields.push(format!("eval {}", app.prefs().settings().eval));
    }
    if level < 3 {
        fields.push(format!("order {}", app.prefs().settings().order));
    }
    fields.push(engine_text(app, level >= 2));
    fields
}

/// The columns `fields` take joined by `sep`.
fn joined_width(fields: &[String], sep: &str) -> usize {
    fields.iter().map(|s| s.chars().count()).sum::<usize>()
        + sep.chars().count() * fields.len().saturating_sub(1)
}

/// The fields that fit `width` columns beside the help key: as long a form as fits, then,
/// when even the shortest does not, fields from the middle left out (the nearest the
/// engine's state first), so the first field and the engine's state are always there.
fn fitting_fields(app: &App, width: usize, sep: &str) -> Vec<String> {
    let mut level = 0;
    let mut fields = status_fields(app, 0);
    while joined_width(&fields, sep) > width && level < SHORTEST {
        level += 1;
        fields = status_fields(app, level);
    }
    while joined_width(&fields, sep) > width && fields.len() > 2 {
        fields.remove(fields.len() - 2);
    }
    fields
}

/// The help key's note at the right end of the status bar: always shown, so a newcomer
/// at any width finds the help.
const HELP_NOTE: &str = " F1 help ";

pub fn draw_status(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme();
    let base = t.status();
    const SEP: &str = " │ ";
    let width = area.width as usize;
    let room = width.saturating_sub(HELP_NOTE.len());
    let fields = fitting_fields(app, room, SEP);
    let mut spans = Vec::new();
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(SEP, base));
        }
        let style = if i == 0 || i == fields.len() - 1 {
            base.add_modifier(Modifier::BOLD)
        } else {
            base
        };
        spans.push(Span::styled(f.clone(), style));
    }
    let used = joined_width(&fields, SEP);
    spans.push(Span::styled(" ".repeat(room.saturating_sub(used)), base));
    spans.push(Span::styled(HELP_NOTE, base.add_modifier(Modifier::DIM)));
    frame.render_widget(Paragraph::new(Line::from(spans)).style(base), area);
}
