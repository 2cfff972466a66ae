//! The board pane: the position with rank and file labels, squares kept square-looking
//! (terminal cells are about twice as tall as wide, so a square is about twice as many
//! columns as rows) and scaled up on large terminals; the last move, check and a partly
//! typed move highlighted; below it the side to move with E, material, the opening and the
//! moves of the game.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::chess::{Color, Piece, PieceKind, Square};
use crate::engine::eval::{self, ValuePreset};
use crate::tui::app::{App, e_text, position_text};
use crate::tui::layout::Scale;
use crate::tui::theme::{PieceStyle, Theme, contrasting};

/// The character for a piece. Solid glyphs for both sides need colour to tell them apart;
/// without it White's pieces are drawn as outlines.
pub fn glyph(piece: Piece, style: PieceStyle, ascii: bool, colour: bool) -> char {
    if ascii || style == PieceStyle::Ascii {
        return piece.fen_char();
    }
    if style == PieceStyle::Filled && colour {
        Piece::new(Color::Black, piece.kind()).glyph()
    } else {
        piece.glyph()
    }
}

/// How one square is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    None,
    LastMove,
    Target,
    Selected,
    Check,
    /// A square a study marked (or an arrow's end), in its colour.
    Noted(crate::game::study::Mark),
}

impl Mark {
    /// Bracket characters around the piece when colour cannot show the mark.
    fn brackets(self) -> Option<(char, char)> {
        match self {
            Mark::None | Mark::Target => None,
            Mark::Noted(_) => Some(('{', '}')),
            Mark::LastMove => Some(('(', ')')),
            Mark::Selected => Some(('[', ']')),
            Mark::Check => Some(('!', '!')),
        }
    }
}

pub fn draw(frame: &mut Frame, area: Rect, scale: Scale, app: &App) {
    let theme = &app.theme();
    // Looking back through the game: the title says where (End or Esc returns).
    let title = match app.viewing() {
        Some(ply) => format!(" viewing {} ", position_text(app.game(), ply)),
        None => " Board ".to_string(),
    };
    let block = super::pane_block(app, &title, false);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.width < 2 + 8 * scale.w || inner.height < 8 * scale.h + 1 {
        return;
    }
    // The tree browser's node while it is open, else the game.
    let board = app.shown_board();
    let colour = theme.board_has_color();
    let last = board
        .last_move()
        .filter(|_| app.game().ply() > 0 || app.explorer().is_open());
    let check = board
        .in_check()
        .then(|| board.king_square(board.side_to_move()));
    // The board cursor's picked piece and its targets, else what is typed (nothing is
    // typed while an earlier position is on show, and a hint is for the game's).
    let typed = if app.viewing().is_some() {
        None
    } else {
        app.cursor_squares().or_else(|| app.typed_squares())
    };
    let cursor = app.cursor_square().filter(|_| !app.explorer().is_open());
    let noted = if app.viewing().is_none() {
        app.study_marks()
    } else {
        Vec::new()
    };
    let x0 = inner.x + 2;
    let y0 = inner.y;
    let buf = frame.buffer_mut();
    for row in 0..8u8 {
        for col in 0..8u8 {
            let sq = if app.screen().flipped() {
                Square::new(7 - col, row)
            } else {
                Square::new(col, 7 - row)
            };
            let mark = if check == Some(sq) {
                Mark::Check
            } else if typed.as_ref().is_some_and(|(from, _)| from.contains(&sq)) {
                Mark::Selected
            } else if typed.as_ref().is_some_and(|(_, t)| t.contains(&sq)) {
                Mark::Target
            } else if let Some(&(_, m)) = noted.iter().find(|(s, _)| *s == sq) {
                Mark::Noted(m)
            } else if last.is_some_and(|m| m.from() == sq || m.to() == sq) {
                Mark::LastMove
            } else {
                Mark::None
            };
            let x = x0 + u16::from(col) * scale.w;
            let y = y0 + u16::from(row) * scale.h;
            draw_square(
                buf,
                Rect::new(x, y, scale.w, scale.h),
                sq,
                board.piece_at(sq),
                mark,
                theme,
                app.prefs().settings().ascii,
                colour,
            );
            if cursor == Some(sq) {
                draw_cursor(buf, Rect::new(x, y, scale.w, scale.h), theme);
            }
        }
        // Rank label beside the middle row of the rank.
        let rank = if app.screen().flipped() { row } else { 7 - row };
        let ly = y0 + u16::from(row) * scale.h + scale.h / 2;
        buf.set_string(
            inner.x,
            ly,
            ((b'1' + rank) as char).to_string(),
            theme.label(),
        );
    }
    for col in 0..8u8 {
        let file = if app.screen().flipped() { 7 - col } else { col };
        let lx = x0 + u16::from(col) * scale.w + scale.w / 2;
        buf.set_string(
            lx,
            y0 + 8 * scale.h,
            ((b'a' + file) as char).to_string(),
            theme.label(),
        );
    }

    let info_y = y0 + 8 * scale.h + 1;
    let info = Rect::new(
        inner.x,
        info_y,
        inner.width,
        inner.bottom().saturating_sub(info_y),
    );
    frame.render_widget(
        Paragraph::new(info_lines(app, info.width, info.height)),
        info,
    );
}

/// A study's mark on a square, in the colour lichess draws it.
fn noted_colour(m: crate::game::study::Mark) -> ratatui::style::Color {
    use crate::game::study::Mark as M;
    use ratatui::style::Color as C;
    match m {
        M::Green => C::Rgb(21, 120, 27),
        M::Red => C::Rgb(136, 32, 32),
        M::Yellow => C::Rgb(170, 140, 0),
        M::Blue => C::Rgb(0, 48, 136),
    }
}

/// The board cursor: `>` and `<` either side of the square's middle, in any colour mode.
fn draw_cursor(buf: &mut ratatui::buffer::Buffer, r: Rect, theme: &Theme) {
    let cx = r.x + r.width / 2;
    let cy = r.y + r.height / 2;
    for (x, c) in [(cx.saturating_sub(1), '>'), (cx + 1, '<')] {
        if let Some(cell) = buf.cell_mut((x, cy)) {
            cell.set_char(c)
                .set_style(theme.accent().add_modifier(Modifier::BOLD));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn draw_square(
    buf: &mut ratatui::buffer::Buffer,
    r: Rect,
    sq: Square,
    piece: Option<Piece>,
    mark: Mark,
    theme: &Theme,
    ascii: bool,
    colour: bool,
) {
    let light = (sq.file() + sq.rank()) % 2 == 1;
    let mut style = Style::new();
    if colour {
        let bg = match mark {
            Mark::Check => theme.check,
            Mark::Selected => theme.selected,
            Mark::Target => theme.target,
            Mark::LastMove => theme.last_move,
            Mark::Noted(m) => noted_colour(m),
            _ if light => theme.light,
            _ => theme.dark,
        };
        style = style.bg(bg);
    } else if !light {
        // No colour: reverse video still draws a checkerboard on any terminal.
        style = style.add_modifier(Modifier::REVERSED);
    }
    for y in r.top()..r.bottom() {
        for x in r.left()..r.right() {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.set_char(' ').set_style(style);
            }
        }
    }
    let cx = r.x + r.width / 2;
    let cy = r.y + r.height / 2;
    match piece {
        Some(p) => {
            let fg = if !colour {
                // Squares in the terminal's own colours (reverse video for the dark ones):
                // only the terminal's own foreground is sure to show on both. The glyphs
                // tell the sides apart.
                ratatui::style::Color::Reset
            } else if p.color() == Color::White {
                theme.white_piece
            } else {
                theme.black_piece
            };
            // A piece never takes its square's colour (a theme's piece colour may be one of
            // its square or highlight colours, or become one at fewer colours).
            let fg = match style.bg {
                Some(bg) if colour && bg == fg => contrasting(bg),
                _ => fg,
            };
            let mut s = style.fg(fg).add_modifier(Modifier::BOLD);
            if !colour && mark == Mark::Check {
                s = s.add_modifier(Modifier::UNDERLINED);
            }
            buf.set_string(cx, cy, glyph(p, theme.pieces, ascii, colour).to_string(), s);
        }
        None if mark == Mark::Target => {
            let dot = if ascii { "." } else { "·" };
            let s = if colour {
                style.fg(theme.white_piece).add_modifier(Modifier::BOLD)
            } else {
                style.add_modifier(Modifier::BOLD)
            };
            buf.set_string(cx, cy, dot, s);
        }
        None => {}
    }
    let brackets = match mark {
        Mark::Target if piece.is_some() => Some(('*', '*')),
        m => m.brackets(),
    };
    if !colour && let Some((l, rb)) = brackets {
        buf.set_string(
            cx - 1,
            cy,
            l.to_string(),
            style.add_modifier(Modifier::BOLD),
        );
        buf.set_string(
            cx + 1,
            cy,
            rb.to_string(),
            style.add_modifier(Modifier::BOLD),
        );
    }
}

/// Side to move with E (or the result), material, opening, then as many of the game's moves
/// (in SAN, newest last) as fit.
fn info_lines(app: &App, width: u16, height: u16) -> Vec<Line<'static>> {
    let theme = &app.theme();
    let board = app.shown_board();
    let mut lines = Vec::new();
    let side = board.side_to_move();
    let at_game = !app.explorer().is_open() && app.viewing().is_none();
    match app.game().result().filter(|_| at_game) {
        Some(end) => lines.push(Line::from(Span::styled(
            format!("{} {}", end.result(), end.reason()),
            theme.title(false),
        ))),
        None => {
            let mut spans = vec![Span::styled(
                format!("{} to move", side.name()),
                theme.text().add_modifier(Modifier::BOLD),
            )];
            if board.in_check() {
                spans.push(Span::styled("  check", theme.error()));
            }
            lines.push(Line::from(spans));
            // A player of a club game sees no evaluation until the game ends.
            if !app.club().playing() {
                lines.extend(eval_lines(app, board, width as usize));
            }
        }
    }
    lines.push(Line::from(Span::styled(
        material_text(app, width as usize),
        theme.text(),
    )));
    lines.push(Line::from(vec![
        Span::styled("Opening ", theme.dim()),
        Span::styled(
            app.play().opening().unwrap_or("—").to_string(),
            theme.text(),
        ),
    ]));
    let room = height.saturating_sub(lines.len() as u16) as usize;
    if room > 0 {
        let rows = wrap_tokens(&move_tokens(app), width as usize);
        let skip = rows.len().saturating_sub(room);
        for r in rows.into_iter().skip(skip) {
            lines.push(Line::from(Span::styled(r, theme.text())));
        }
    }
    lines
}

/// E (the evaluation's verdict once the captures in flight are settled), beside the engine's
/// newest score for the same position (the two often disagree: E does not look ahead past
/// the exchanges): one line where it fits, else two.
fn eval_lines(app: &App, board: &crate::chess::Board, width: usize) -> Vec<Line<'static>> {
    let theme = &app.theme();
    // A mated or stalemated position says so instead of a number.
    let stat = match board.no_move_text() {
        Some(end) => end,
        None => format!(
            "E {}",
            e_text(eval::settled_white(board, &app.prefs().eval()))
        ),
    };
    let stat = Span::styled(stat, theme.accent());
    let Some(reading) = app.engine_reading() else {
        return vec![Line::from(stat)];
    };
    let engine = Span::styled(format!("engine {reading}"), theme.text());
    const SEP: &str = " · ";
    if stat.width() + SEP.chars().count() + engine.width() <= width {
        vec![Line::from(vec![
            stat,
            Span::styled(SEP, theme.dim()),
            engine,
        ])]
    } else {
        vec![Line::from(stat), Line::from(engine)]
    }
}

/// Material from White's view in pawns, counted with the piece values the `values` setting
/// names (standard by default: a bishop is 3; the seed page's 4.5 when chosen), and which
/// pieces each side has more of, with as much of the values' name as fits `width`:
/// `Material +1.00 W:♘ B:♟♟  standard values P1 N3 B3 R5 Q9`.
fn material_text(app: &App, width: usize) -> String {
    let preset = app.prefs().settings().values;
    let text = material_count(app, preset);
    let name = preset.name();
    [
        format!("{text}  {name} values {}", values_text(preset)),
        format!("{text}  {name} values"),
        format!("{text} ({name})"),
    ]
    .into_iter()
    .find(|t| t.chars().count() <= width)
    .unwrap_or(text)
}

/// The kinds the material line counts, in the order it names their values.
const MATERIAL_KINDS: [PieceKind; 5] = [
    PieceKind::Pawn,
    PieceKind::Knight,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::Queen,
];

/// A preset's piece values in pawns: `P1 N3 B4.5 R5 Q10`.
pub fn values_text(preset: ValuePreset) -> String {
    MATERIAL_KINDS
        .iter()
        .map(|k| {
            let v = preset.value(*k);
            let pawns = if v % 100 == 0 {
                (v / 100).to_string()
            } else {
                format!("{}", f64::from(v) / 100.0)
            };
            format!("{}{pawns}", k.letter().to_ascii_uppercase())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `Material +1.00 W:♘ B:♟♟`: the material difference under `preset` and each side's
/// surplus.
fn material_count(app: &App, preset: ValuePreset) -> String {
    let b = app.shown_board();
    let diff: i32 = MATERIAL_KINDS
        .iter()
        .map(|&k| {
            (b.count(Color::White, k) as i32 - b.count(Color::Black, k) as i32) * preset.value(k)
        })
        .sum();
    let mut text = if diff == 0 {
        "Material =".to_string()
    } else {
        format!("Material {}", e_text(diff))
    };
    let colour = app.theme().board_has_color();
    let mut surplus = [String::new(), String::new()];
    for kind in [
        PieceKind::Queen,
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Knight,
        PieceKind::Pawn,
    ] {
        let d = b.count(Color::White, kind) as i32 - b.count(Color::Black, kind) as i32;
        let (side, n) = if d > 0 {
            (Color::White, d)
        } else {
            (Color::Black, -d)
        };
        let g = glyph(
            Piece::new(side, kind),
            app.theme().pieces,
            app.prefs().settings().ascii,
            colour,
        );
        for _ in 0..n {
            surplus[side.index()].push(g);
        }
    }
    if !surplus[0].is_empty() {
        text.push_str(&format!(" W:{}", surplus[0]));
    }
    if !surplus[1].is_empty() {
        text.push_str(&format!(" B:{}", surplus[1]));
    }
    text
}

/// `1.e4 e5 2.Nf3` as separate tokens, up to the move shown (a game from a FEN with Black to
/// move starts `5...e5`); moves taken back but still replayable are counted at the end.
fn move_tokens(app: &App) -> Vec<String> {
    let game = &app.game();
    let shown = app.viewing().unwrap_or(game.ply());
    let mut tokens: Vec<String> = game.moves()[..shown]
        .iter()
        .enumerate()
        .map(|(i, pm)| {
            let (side, number) = game.move_number(i);
            match side {
                Color::White => format!("{number}.{}", pm.san),
                Color::Black if i == 0 => format!("{number}...{}", pm.san),
                Color::Black => pm.san.clone(),
            }
        })
        .collect();
    let later = game.ply() - shown;
    if later > 0 {
        tokens.push(format!("(+{later} played)"));
    }
    let ahead = game.len() - game.ply();
    if ahead > 0 {
        tokens.push(format!("(+{ahead} to replay)"));
    }
    tokens
}

/// Greedy word wrap of tokens into rows of at most `width` columns.
pub fn wrap_tokens(tokens: &[String], width: usize) -> Vec<String> {
    let mut rows: Vec<String> = Vec::new();
    let mut cur = String::new();
    for t in tokens {
        let need = if cur.is_empty() {
            t.chars().count()
        } else {
            cur.chars().count() + 1 + t.chars().count()
        };
        if need > width && !cur.is_empty() {
            rows.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(t);
    }
    if !cur.is_empty() {
        rows.push(cur);
    }
    rows
}
