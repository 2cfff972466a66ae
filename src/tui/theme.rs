//! Colour themes: read from TOML (the built-in ones in `themes/*.toml` are compiled in, user
//! ones live in `~/.config/ox88/themes/`), mapped down to what the terminal can show
//! (truecolor, 256, 16 colours or none), and handed to the widgets as styles by purpose.
//!
//! Highlights never rely on colour alone: the board adds bold and bracket markers, so a game
//! stays readable with `NO_COLOR` or on a monochrome terminal.

use std::fmt;
use std::path::{Path, PathBuf};

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use toml::Spanned;

/// The built-in themes, embedded so the binary works from any directory.
pub const BUILTIN: [(&str, &str); 4] = [
    ("default", include_str!("../../themes/default.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("mono", include_str!("../../themes/mono.toml")),
];

/// What the user asked for with `--color` (any case; `24bit`, `never` and `off` are
/// accepted too).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum ColorMode {
    /// Decide from `NO_COLOR`, `COLORTERM` and `TERM`.
    #[default]
    Auto,
    #[strum(to_string = "truecolor", serialize = "24bit")]
    TrueColor,
    #[strum(to_string = "256")]
    Ansi256,
    #[strum(to_string = "16")]
    Ansi16,
    #[strum(to_string = "none", serialize = "never", serialize = "off")]
    None,
}

/// How many colours the terminal shows (named as `--color` names them).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    strum::EnumString,
    strum::Display,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "lowercase", ascii_case_insensitive)]
pub enum ColorDepth {
    None,
    #[strum(to_string = "16")]
    Ansi16,
    #[strum(to_string = "256")]
    Ansi256,
    TrueColor,
}

impl ColorDepth {
    /// Resolves `--color` against the environment. An explicit mode wins over `NO_COLOR`
    /// (the no-color.org convention: the variable is a default a command-line flag overrides).
    /// `env` is a lookup so tests need not touch the process environment.
    pub fn detect(mode: ColorMode, env: impl Fn(&str) -> Option<String>) -> ColorDepth {
        match mode {
            ColorMode::TrueColor => return ColorDepth::TrueColor,
            ColorMode::Ansi256 => return ColorDepth::Ansi256,
            ColorMode::Ansi16 => return ColorDepth::Ansi16,
            ColorMode::None => return ColorDepth::None,
            ColorMode::Auto => {}
        }
        if env("NO_COLOR").is_some_and(|v| !v.is_empty()) {
            return ColorDepth::None;
        }
        // Only COLORTERM promises 24-bit colour; TERM names like xterm-256color do not.
        if let Some(ct) = env("COLORTERM") {
            let ct = ct.to_ascii_lowercase();
            if ct == "truecolor" || ct == "24bit" {
                return ColorDepth::TrueColor;
            }
        }
        let term = env("TERM").unwrap_or_default().to_ascii_lowercase();
        if term.is_empty() || term == "dumb" {
            ColorDepth::None
        } else if term.contains("256") {
            ColorDepth::Ansi256
        } else {
            ColorDepth::Ansi16
        }
    }

    pub fn name(self) -> &'static str {
        self.into()
    }
}

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceStyle {
    /// Solid glyphs for both sides, told apart by colour.
    Filled,
    /// White's pieces as outline glyphs, Black's solid (printed-diagram style).
    Outline,
    /// FEN letters: upper case White, lower case Black.
    Ascii,
}

/// A resolved theme: every colour already mapped to the terminal's colour depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Theme {
    pub name: String,
    pub pieces: PieceStyle,
    pub depth: ColorDepth,
    pub light: Color,
    pub dark: Color,
    pub white_piece: Color,
    pub black_piece: Color,
    pub label: Color,
    pub last_move: Color,
    pub check: Color,
    pub selected: Color,
    pub target: Color,
    pub text: Color,
    pub dim: Color,
    pub border: Color,
    pub border_focused: Color,
    pub title: Color,
    pub error: Color,
    pub ok: Color,
    pub accent: Color,
    pub status_fg: Color,
    pub status_bg: Color,
}

/// A theme file that could not be used: which file, where, which field, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThemeError {
    pub file: String,
    pub line: Option<usize>,
    pub field: Option<String>,
    pub message: String,
}

impl fmt::Display for ThemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "theme {}", self.file)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ThemeError {}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: Option<String>,
    base: Option<Spanned<String>>,
    pieces: Option<PieceStyle>,
    board: Option<BoardSection>,
    highlight: Option<HighlightSection>,
    ui: Option<UiSection>,
}

type ColorText = Option<Spanned<String>>;

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct BoardSection {
    light: ColorText,
    dark: ColorText,
    white_piece: ColorText,
    black_piece: ColorText,
    label: ColorText,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct HighlightSection {
    last_move: ColorText,
    check: ColorText,
    selected: ColorText,
    target: ColorText,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UiSection {
    text: ColorText,
    dim: ColorText,
    border: ColorText,
    border_focused: ColorText,
    title: ColorText,
    error: ColorText,
    ok: ColorText,
    accent: ColorText,
    status_fg: ColorText,
    status_bg: ColorText,
}

impl Default for Theme {
    /// The built-in default theme at full colour.
    fn default() -> Theme {
        Theme::builtin("default", ColorDepth::TrueColor).unwrap_or_else(|_| Theme::fallback())
    }
}

impl Theme {
    /// A theme that needs no file (used only if the embedded default failed to parse, which
    /// the tests rule out).
    fn fallback() -> Theme {
        Theme {
            name: "default".into(),
            pieces: PieceStyle::Outline,
            depth: ColorDepth::None,
            light: Color::Reset,
            dark: Color::Reset,
            white_piece: Color::Reset,
            black_piece: Color::Reset,
            label: Color::Reset,
            last_move: Color::Reset,
            check: Color::Reset,
            selected: Color::Reset,
            target: Color::Reset,
            text: Color::Reset,
            dim: Color::Reset,
            border: Color::Reset,
            border_focused: Color::Reset,
            title: Color::Reset,
            error: Color::Reset,
            ok: Color::Reset,
            accent: Color::Reset,
            status_fg: Color::Reset,
            status_bg: Color::Reset,
        }
    }

    /// One of the built-in themes, at the given colour depth.
    pub fn builtin(name: &str, depth: ColorDepth) -> Result<Theme, ThemeError> {
        let (file, text) = BUILTIN
            .iter()
            .find(|(n, _)| *n == name)
            .ok_or_else(|| ThemeError {
                file: name.to_string(),
                line: None,
                field: None,
                message: format!("no built-in theme of that name ({})", builtin_names()),
            })?;
        Theme::parse(text, &format!("themes/{file}.toml"), depth, 0)
    }

    /// Loads a theme by name: a user file `<dir>/<name>.toml` first (so a user can restyle
    /// even the built-in names), else the built-in one.
    pub fn load(
        name: &str,
        user_dir: Option<&Path>,
        depth: ColorDepth,
    ) -> Result<Theme, ThemeError> {
        if let Some(dir) = user_dir {
            let path = dir.join(format!("{name}.toml"));
            if path.is_file() {
                let file = path.display().to_string();
                let text = std::fs::read_to_string(&path).map_err(|e| ThemeError {
                    file: file.clone(),
                    line: None,
                    field: None,
                    message: e.to_string(),
                })?;
                return Theme::parse(&text, &file, depth, 0);
            }
        }
        if BUILTIN.iter().any(|(n, _)| *n == name) {
            return Theme::builtin(name, depth);
        }
        Err(ThemeError {
            file: name.to_string(),
            line: None,
            field: None,
            message: format!(
                "no such theme (built in: {}; user themes go in {})",
                builtin_names(),
                user_dir.map_or_else(
                    || "~/.config/ox88/themes".to_string(),
                    |d| d.display().to_string()
                )
            ),
        })
    }

    /// Like `load`, but never fails: a bad or missing theme gives the default theme and the
    /// error to show.
    pub fn load_or_default(
        name: &str,
        user_dir: Option<&Path>,
        depth: ColorDepth,
    ) -> (Theme, Option<ThemeError>) {
        match Theme::load(name, user_dir, depth) {
            Ok(t) => (t, None),
            Err(e) => (
                Theme::builtin("default", depth)
                    .unwrap_or_else(|_| Theme::fallback().with_depth(depth)),
                Some(e),
            ),
        }
    }

    /// Parses theme TOML. `file` names the file in errors; `nesting` guards `base` chains.
    pub fn parse(
        text: &str,
        file: &str,
        depth: ColorDepth,
        nesting: u32,
    ) -> Result<Theme, ThemeError> {
        let parsed: ThemeFile = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| line_of(text, s.start));
            let field = e.span().and_then(|s| field_at(text, s.start));
            ThemeError {
                file: file.to_string(),
                line,
                field,
                message: e.message().trim().to_string(),
            }
        })?;
        let base_name = parsed
            .base
            .as_ref()
            .map(|b| b.get_ref().as_str())
            .unwrap_or("default");
        let mut theme = if parsed.base.is_none() && file.starts_with("themes/default") {
            Theme::fallback()
        } else {
            if nesting > 2 || BUILTIN.iter().all(|(n, _)| *n != base_name) {
                let span = parsed.base.as_ref().map(|b| b.span().start).unwrap_or(0);
                return Err(ThemeError {
                    file: file.to_string(),
                    line: Some(line_of(text, span)),
                    field: Some("base".into()),
                    message: format!("{base_name}: not a built-in theme ({})", builtin_names()),
                });
            }
            let (_, base_text) = BUILTIN
                .iter()
                .find(|(n, _)| *n == base_name)
                .copied()
                .unwrap_or(BUILTIN[0]);
            Theme::parse(
                base_text,
                &format!("themes/{base_name}.toml"),
                ColorDepth::TrueColor,
                nesting + 1,
            )?
        };
        theme.name = parsed.name.clone().unwrap_or_else(|| file_stem(file));
        if let Some(p) = parsed.pieces {
            theme.pieces = p;
        }
        let set = |slot: &mut Color, value: &ColorText, field: &str| -> Result<(), ThemeError> {
            if let Some(v) = value {
                *slot = parse_color(v.get_ref()).map_err(|message| ThemeError {
                    file: file.to_string(),
                    line: Some(line_of(text, v.span().start)),
                    field: Some(field.to_string()),
                    message,
                })?;
            }
            Ok(())
        };
        let b = parsed.board.unwrap_or_default();
        set(&mut theme.light, &b.light, "board.light")?;
        set(&mut theme.dark, &b.dark, "board.dark")?;
        set(&mut theme.white_piece, &b.white_piece, "board.white_piece")?;
        set(&mut theme.black_piece, &b.black_piece, "board.black_piece")?;
        set(&mut theme.label, &b.label, "board.label")?;
        let h = parsed.highlight.unwrap_or_default();
        set(&mut theme.last_move, &h.last_move, "highlight.last_move")?;
        set(&mut theme.check, &h.check, "highlight.check")?;
        set(&mut theme.selected, &h.selected, "highlight.selected")?;
        set(&mut theme.target, &h.target, "highlight.target")?;
        let u = parsed.ui.unwrap_or_default();
        set(&mut theme.text, &u.text, "ui.text")?;
        set(&mut theme.dim, &u.dim, "ui.dim")?;
        set(&mut theme.border, &u.border, "ui.border")?;
        set(
            &mut theme.border_focused,
            &u.border_focused,
            "ui.border_focused",
        )?;
        set(&mut theme.title, &u.title, "ui.title")?;
        set(&mut theme.error, &u.error, "ui.error")?;
        set(&mut theme.ok, &u.ok, "ui.ok")?;
        set(&mut theme.accent, &u.accent, "ui.accent")?;
        set(&mut theme.status_fg, &u.status_fg, "ui.status_fg")?;
        set(&mut theme.status_bg, &u.status_bg, "ui.status_bg")?;
        Ok(theme.with_depth(depth))
    }

    /// Maps every colour down to `depth`.
    pub fn with_depth(mut self, depth: ColorDepth) -> Theme {
        self.depth = depth;
        for c in [
            &mut self.light,
            &mut self.dark,
            &mut self.white_piece,
            &mut self.black_piece,
            &mut self.label,
            &mut self.last_move,
            &mut self.check,
            &mut self.selected,
            &mut self.target,
            &mut self.text,
            &mut self.dim,
            &mut self.border,
            &mut self.border_focused,
            &mut self.title,
            &mut self.error,
            &mut self.ok,
            &mut self.accent,
            &mut self.status_fg,
            &mut self.status_bg,
        ] {
            *c = map_color(*c, depth);
        }
        self
    }

    /// Whether the board can tell squares apart by colour; if not, it marks them with
    /// characters instead.
    pub fn board_has_color(&self) -> bool {
        self.depth != ColorDepth::None && self.light != self.dark
    }

    pub fn text(&self) -> Style {
        Style::new().fg(self.text)
    }
    pub fn dim(&self) -> Style {
        if self.dim == self.text {
            Style::new().fg(self.dim).add_modifier(Modifier::DIM)
        } else {
            Style::new().fg(self.dim)
        }
    }
    pub fn accent(&self) -> Style {
        Style::new().fg(self.accent)
    }
    pub fn error(&self) -> Style {
        Style::new().fg(self.error).add_modifier(Modifier::BOLD)
    }
    pub fn ok(&self) -> Style {
        Style::new().fg(self.ok)
    }
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            Style::new()
                .fg(self.border_focused)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().fg(self.border)
        }
    }
    pub fn title(&self, focused: bool) -> Style {
        let s = Style::new().fg(self.title);
        if focused {
            s.add_modifier(Modifier::BOLD | Modifier::REVERSED)
        } else {
            s.add_modifier(Modifier::BOLD)
        }
    }
    pub fn status(&self) -> Style {
        let s = Style::new().fg(self.status_fg).bg(self.status_bg);
        if self.depth == ColorDepth::None || self.status_bg == self.status_fg {
            s.add_modifier(Modifier::REVERSED)
        } else {
            s
        }
    }
    pub fn label(&self) -> Style {
        Style::new().fg(self.label)
    }
}

/// The names of the built-in themes, for messages.
pub fn builtin_names() -> String {
    BUILTIN
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every theme name the user can pick: built-in ones and the user directory's `*.toml`.
pub fn available(user_dir: Option<&Path>) -> Vec<String> {
    let mut names: Vec<String> = BUILTIN.iter().map(|(n, _)| n.to_string()).collect();
    if let Some(dir) = user_dir
        && let Ok(rd) = std::fs::read_dir(dir)
    {
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "toml")
                && let Some(stem) = p.file_stem().and_then(|s| s.to_str())
                && !names.iter().any(|n| n == stem)
            {
                names.push(stem.to_string());
            }
        }
    }
    names
}

/// Where user themes live: `~/.config/ox88/themes/` on Linux.
pub fn user_theme_dir() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("ox88").join("themes"))
}

fn file_stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(file)
        .to_string()
}

/// 1-based line number of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The dotted field name (`board.light`) at byte `offset`: the last `[table]` header above it
/// and the key on its line. TOML's own errors give a position, not a field, and a person
/// wants the field.
fn field_at(text: &str, offset: usize) -> Option<String> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = text[line_start..line_end].trim();
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && l.ends_with(']'))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
    if line.starts_with('[') {
        return Some(
            line.trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string(),
        );
    }
    let key = line
        .split('=')
        .next()
        .map(str::trim)
        .filter(|k| !k.is_empty() && !k.starts_with('#'))?;
    Some(match table {
        Some(t) => format!("{t}.{key}"),
        None => key.to_string(),
    })
}

/// Parses a colour: `#rrggbb`, `#rgb`, an ANSI colour name, an index 0..=255, or `reset`.
pub fn parse_color(s: &str) -> Result<Color, String> {
    let t = s.trim().to_ascii_lowercase();
    if let Some(hex) = t.strip_prefix('#') {
        let digits: Option<Vec<u8>> = hex
            .chars()
            .map(|c| c.to_digit(16).map(|d| d as u8))
            .collect();
        return match digits.as_deref() {
            Some([r1, r0, g1, g0, b1, b0]) => {
                Ok(Color::Rgb(r1 * 16 + r0, g1 * 16 + g0, b1 * 16 + b0))
            }
            Some([r, g, b]) => Ok(Color::Rgb(r * 17, g * 17, b * 17)),
            _ => Err(format!(
                "{s:?} is not a colour: '#' needs 3 or 6 hex digits"
            )),
        };
    }
    if let Ok(i) = t.parse::<u16>() {
        return u8::try_from(i)
            .map(Color::Indexed)
            .map_err(|_| format!("{s:?} is not a colour: an index goes from 0 to 255"));
    }
    let name = t.replace(['-', '_', ' '], "");
    Ok(match name.as_str() {
        "reset" | "default" | "none" => Color::Reset,
        "black" => Color::Black,
        "red" => Color::Red,
        "green" => Color::Green,
        "yellow" => Color::Yellow,
        "blue" => Color::Blue,
        "magenta" => Color::Magenta,
        "cyan" => Color::Cyan,
        "gray" | "grey" => Color::Gray,
        "darkgray" | "darkgrey" => Color::DarkGray,
        "lightred" => Color::LightRed,
        "lightgreen" => Color::LightGreen,
        "lightyellow" => Color::LightYellow,
        "lightblue" => Color::LightBlue,
        "lightmagenta" => Color::LightMagenta,
        "lightcyan" => Color::LightCyan,
        "white" => Color::White,
        _ => {
            return Err(format!(
                "{s:?} is not a colour (use \"#rrggbb\", a name such as \"red\" or \"dark-gray\", 0-255, or \"reset\")"
            ));
        }
    })
}

/// The usual xterm values of the 16 ANSI colours, for mapping RGB down to them.
const ANSI16: [(Color, (u8, u8, u8)); 16] = [
    (Color::Black, (0, 0, 0)),
    (Color::Red, (205, 0, 0)),
    (Color::Green, (0, 205, 0)),
    (Color::Yellow, (205, 205, 0)),
    (Color::Blue, (0, 0, 238)),
    (Color::Magenta, (205, 0, 205)),
    (Color::Cyan, (0, 205, 205)),
    (Color::Gray, (229, 229, 229)),
    (Color::DarkGray, (127, 127, 127)),
    (Color::LightRed, (255, 0, 0)),
    (Color::LightGreen, (0, 255, 0)),
    (Color::LightYellow, (255, 255, 0)),
    (Color::LightBlue, (92, 92, 255)),
    (Color::LightMagenta, (255, 0, 255)),
    (Color::LightCyan, (0, 255, 255)),
    (Color::White, (255, 255, 255)),
];

/// The RGB value of a 256-colour palette index (xterm's cube and grey ramp).
fn indexed_rgb(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => ANSI16[i as usize].1,
        16..=231 => {
            let i = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + 40 * v };
            (level(i / 36), level(i / 6 % 6), level(i % 6))
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    }
}

fn dist2(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2) as u32;
    // Weighted towards green, which the eye resolves best.
    2 * d(a.0, b.0) + 4 * d(a.1, b.1) + 3 * d(a.2, b.2)
}

/// The nearest 256-palette index to an RGB colour (cube or grey ramp, whichever is closer).
fn rgb_to_256(rgb: (u8, u8, u8)) -> u8 {
    let step = |v: u8| -> u8 {
        if v < 48 {
            0
        } else if v < 115 {
            1
        } else {
            (v - 35) / 40
        }
    };
    let cube = 16 + 36 * step(rgb.0) + 6 * step(rgb.1) + step(rgb.2);
    let avg = (u16::from(rgb.0) + u16::from(rgb.1) + u16::from(rgb.2)) / 3;
    let grey = if avg < 8 {
        16
    } else if avg > 238 {
        231
    } else {
        232 + ((avg - 8) / 10).min(23) as u8
    };
    if dist2(indexed_rgb(grey), rgb) < dist2(indexed_rgb(cube), rgb) {
        grey
    } else {
        cube
    }
}

fn rgb_to_16(rgb: (u8, u8, u8)) -> Color {
    ANSI16
        .iter()
        .min_by_key(|(_, v)| dist2(*v, rgb))
        .map_or(Color::Reset, |(c, _)| *c)
}

/// Black or white, whichever stands out on `bg` (white on the terminal's own background,
/// whose colour is unknown).
pub fn contrasting(bg: Color) -> Color {
    let rgb = match bg {
        Color::Rgb(r, g, b) => Some((r, g, b)),
        Color::Indexed(i) => Some(indexed_rgb(i)),
        named => ANSI16.iter().find(|(c, _)| *c == named).map(|(_, v)| *v),
    };
    let luma = rgb.map_or(0, |(r, g, b)| {
        (299 * u32::from(r) + 587 * u32::from(g) + 114 * u32::from(b)) / 1000
    });
    if luma > 128 {
        Color::Black
    } else {
        Color::White
    }
}

/// Maps one colour to what `depth` can show.
pub fn map_color(c: Color, depth: ColorDepth) -> Color {
    match (depth, c) {
        (ColorDepth::None, _) => Color::Reset,
        (ColorDepth::TrueColor, c) => c,
        (ColorDepth::Ansi256, Color::Rgb(r, g, b)) => Color::Indexed(rgb_to_256((r, g, b))),
        (ColorDepth::Ansi16, Color::Rgb(r, g, b)) => rgb_to_16((r, g, b)),
        // The palette's first 16 are the named colours; naming them keeps the output to the
        // basic SGR codes (see `sgr16`).
        (ColorDepth::Ansi16, Color::Indexed(i)) if i < 16 => ANSI16[i as usize].0,
        (ColorDepth::Ansi16, Color::Indexed(i)) => rgb_to_16(indexed_rgb(i)),
        (_, c) => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_themes_parse_at_every_depth() {
        for (name, _) in BUILTIN {
            for depth in [
                ColorDepth::TrueColor,
                ColorDepth::Ansi256,
                ColorDepth::Ansi16,
                ColorDepth::None,
            ] {
                let t = Theme::builtin(name, depth).unwrap_or_else(|e| panic!("{e}"));
                assert_eq!(t.name, name);
                assert_eq!(t.depth, depth);
            }
        }
        let d = Theme::builtin("default", ColorDepth::TrueColor).unwrap();
        assert_eq!(d.light, Color::Rgb(0xb3, 0x95, 0x72));
        assert!(d.board_has_color());
        assert!(
            !Theme::builtin("mono", ColorDepth::TrueColor)
                .unwrap()
                .board_has_color()
        );
        assert!(
            !Theme::builtin("default", ColorDepth::None)
                .unwrap()
                .board_has_color()
        );
    }

    #[test]
    fn colours_map_down() {
        assert_eq!(
            map_color(Color::Rgb(255, 0, 0), ColorDepth::Ansi256),
            Color::Indexed(196)
        );
        assert_eq!(
            map_color(Color::Rgb(0x80, 0x80, 0x80), ColorDepth::Ansi256),
            Color::Indexed(244)
        );
        assert_eq!(
            map_color(Color::Rgb(250, 250, 250), ColorDepth::Ansi16),
            Color::White
        );
        assert_eq!(
            map_color(Color::Rgb(200, 10, 10), ColorDepth::Ansi16),
            Color::Red
        );
        assert_eq!(
            map_color(Color::Indexed(196), ColorDepth::Ansi16),
            Color::LightRed
        );
        assert_eq!(map_color(Color::Blue, ColorDepth::None), Color::Reset);
        assert_eq!(
            map_color(Color::Rgb(1, 2, 3), ColorDepth::TrueColor),
            Color::Rgb(1, 2, 3)
        );
    }

    #[test]
    fn depth_detection_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let auto = ColorMode::Auto;
        assert_eq!(
            ColorDepth::detect(auto, env(&[("COLORTERM", "truecolor"), ("TERM", "xterm")])),
            ColorDepth::TrueColor
        );
        assert_eq!(
            ColorDepth::detect(auto, env(&[("TERM", "xterm-256color")])),
            ColorDepth::Ansi256
        );
        assert_eq!(
            ColorDepth::detect(auto, env(&[("TERM", "screen")])),
            ColorDepth::Ansi16
        );
        assert_eq!(
            ColorDepth::detect(auto, env(&[("TERM", "dumb")])),
            ColorDepth::None
        );
        assert_eq!(
            ColorDepth::detect(auto, env(&[("NO_COLOR", "1"), ("COLORTERM", "truecolor")])),
            ColorDepth::None
        );
        // An empty NO_COLOR does not count (no-color.org).
        assert_eq!(
            ColorDepth::detect(auto, env(&[("NO_COLOR", ""), ("TERM", "xterm")])),
            ColorDepth::Ansi16
        );
        // An explicit --color wins over NO_COLOR.
        assert_eq!(
            ColorDepth::detect(ColorMode::Ansi256, env(&[("NO_COLOR", "1")])),
            ColorDepth::Ansi256
        );
        assert_eq!("256".parse::<ColorMode>(), Ok(ColorMode::Ansi256));
        assert!("lots".parse::<ColorMode>().is_err());
    }

    #[test]
    fn a_bad_colour_names_file_line_and_field() {
        let text = "name = \"mine\"\n[board]\nlight = \"#12345\"\n";
        let e = Theme::parse(text, "mine.toml", ColorDepth::TrueColor, 0).unwrap_err();
        assert_eq!(e.file, "mine.toml");
        assert_eq!(e.line, Some(3));
        assert_eq!(e.field.as_deref(), Some("board.light"));
        assert!(
            e.to_string()
                .starts_with("theme mine.toml:3: board.light: "),
            "{e}"
        );
    }

    #[test]
    fn a_wrong_type_or_unknown_key_names_the_field() {
        let text = "[ui]\ntext = \"#ffffff\"\nborder = 12345\n";
        let e = Theme::parse(text, "t.toml", ColorDepth::TrueColor, 0).unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(3), Some("ui.border")),
            "{e}"
        );
        let text = "[board]\nlite = \"#ffffff\"\n";
        let e = Theme::parse(text, "t.toml", ColorDepth::TrueColor, 0).unwrap_err();
        assert_eq!(
            (e.line, e.field.as_deref()),
            (Some(2), Some("board.lite")),
            "{e}"
        );
        assert!(e.message.contains("lite"), "{e}");
        let text = "base = \"sepia\"\n";
        let e = Theme::parse(text, "t.toml", ColorDepth::TrueColor, 0).unwrap_err();
        assert_eq!((e.line, e.field.as_deref()), (Some(1), Some("base")), "{e}");
    }

    #[test]
    fn a_partial_user_theme_patches_its_base() {
        let text = "base = \"light\"\n[board]\ndark = \"#123456\"\n";
        let t = Theme::parse(
            text,
            "/home/u/.config/ox88/themes/mine.toml",
            ColorDepth::TrueColor,
            0,
        )
        .unwrap();
        let light = Theme::builtin("light", ColorDepth::TrueColor).unwrap();
        assert_eq!(t.name, "mine");
        assert_eq!(t.dark, Color::Rgb(0x12, 0x34, 0x56));
        assert_eq!(t.light, light.light);
        assert_eq!(t.pieces, PieceStyle::Outline);
    }

    #[test]
    fn user_themes_load_and_bad_ones_fall_back_to_default() {
        let dir = std::env::temp_dir().join(format!("ox88-theme-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("sea.toml"), "[board]\nlight = \"cyan\"\n").unwrap();
        std::fs::write(dir.join("broken.toml"), "[board]\nlight = \"#zz0000\"\n").unwrap();
        let t = Theme::load("sea", Some(&dir), ColorDepth::Ansi16).unwrap();
        assert_eq!(t.light, Color::Cyan);
        let (t, err) = Theme::load_or_default("broken", Some(&dir), ColorDepth::TrueColor);
        assert_eq!(t.name, "default");
        let err = err.unwrap();
        assert!(
            err.file.ends_with("broken.toml") && err.line == Some(2),
            "{err}"
        );
        let (t, err) = Theme::load_or_default("nope", Some(&dir), ColorDepth::TrueColor);
        assert_eq!(t.name, "default");
        assert!(err.unwrap().message.contains("no such theme"));
        let names = available(Some(&dir));
        assert!(names.contains(&"sea".to_string()) && names.contains(&"mono".to_string()));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
