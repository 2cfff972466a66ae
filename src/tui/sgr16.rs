//! A writer for 16-colour terminals. crossterm writes even the 16 named colours as 256-palette
//! codes (`ESC[38;5;9m`), which a terminal that has only 16 colours may show wrongly or not
//! at all. `--color 16` draws through this writer, which turns those codes into the basic SGR
//! ones (30–37 and 90–97 for the foreground, 40–47 and 100–107 for the background) and, as a
//! last guard, maps any 256-palette or RGB colour that still got through to the nearest of
//! the 16. It holds a frame's bytes until `flush`, so an escape sequence split over several
//! writes is rewritten whole; ratatui flushes after every frame.

use std::io::{self, Write};

use ratatui::style::Color;

use super::theme::{ColorDepth, map_color};

pub struct Sgr16<W: Write> {
    inner: W,
    /// Rewrite (16-colour depth) or pass bytes through unchanged.
    active: bool,
    pending: Vec<u8>,
}

impl<W: Write> Sgr16<W> {
    /// `active`: rewrite colour codes; otherwise a plain pass-through.
    pub fn new(inner: W, active: bool) -> Sgr16<W> {
        Sgr16 {
            inner,
            active,
            pending: Vec::new(),
        }
    }

    pub fn get_ref(&self) -> &W {
        &self.inner
    }
}

impl<W: Write> Write for Sgr16<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.active {
            self.pending.extend_from_slice(buf);
            Ok(buf.len())
        } else {
            self.inner.write(buf)
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.pending.is_empty() {
            let out = rewrite(&self.pending);
            self.pending.clear();
            self.inner.write_all(&out)?;
        }
        self.inner.flush()
    }
}

/// The basic SGR code of a named colour: 30–37/90–97, plus 10 for the background.
fn basic_code(i: u8, background: bool) -> u16 {
    let base = if i < 8 {
        30 + u16::from(i)
    } else {
        82 + u16::from(i)
    };
    base + if background { 10 } else { 0 }
}

/// The named colour (0–15) nearest to a 256-palette index or RGB colour.
fn nearest_named(c: Color) -> u8 {
    match map_color(c, ColorDepth::Ansi16) {
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        _ => 15,
    }
}

/// Rewrites the parameters of one SGR sequence (`38;5;N` → `3x`/`9x`, `48;2;R;G;B` →
/// `4x`/`10x`); everything else is kept as it was.
fn rewrite_params(params: &str) -> String {
    let parts: Vec<&str> = params.split(';').collect();
    let mut out: Vec<String> = Vec::with_capacity(parts.len());
    let mut i = 0;
    while i < parts.len() {
        let p = parts[i];
        let num = |k: usize| parts.get(i + k).and_then(|s| s.parse::<u8>().ok());
        if p == "38" || p == "48" {
            let background = p == "48";
            match parts.get(i + 1).copied() {
                Some("5") if let Some(n) = num(2) => {
                    let named = if n < 16 {
                        n
                    } else {
                        nearest_named(Color::Indexed(n))
                    };
                    out.push(basic_code(named, background).to_string());
                    i += 3;
                    continue;
                }
                Some("2") if let (Some(r), Some(g), Some(b)) = (num(2), num(3), num(4)) => {
                    let named = nearest_named(Color::Rgb(r, g, b));
                    out.push(basic_code(named, background).to_string());
                    i += 5;
                    continue;
                }
                _ => {}
            }
        }
        out.push(p.to_string());
        i += 1;
    }
    out.join(";")
}

/// Rewrites every SGR sequence (`ESC [ params m`) in `bytes`.
fn rewrite(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == 0x1b && bytes.get(i + 1) == Some(&b'[') {
            // Parameters are digits and ';'; the final byte ends the sequence.
            let start = i + 2;
            let mut j = start;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b';') {
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b'm' {
                let params = std::str::from_utf8(&bytes[start..j]).unwrap_or("");
                out.extend_from_slice(b"\x1b[");
                out.extend_from_slice(rewrite_params(params).as_bytes());
                out.push(b'm');
                i = j + 1;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_and_rgb_codes_become_basic_ones() {
        assert_eq!(rewrite(b"\x1b[38;5;1mx"), b"\x1b[31mx");
        assert_eq!(rewrite(b"\x1b[38;5;9m"), b"\x1b[91m");
        assert_eq!(rewrite(b"\x1b[48;5;0m"), b"\x1b[40m");
        assert_eq!(rewrite(b"\x1b[48;5;15m"), b"\x1b[107m");
        assert_eq!(rewrite(b"\x1b[38;2;255;0;0m"), b"\x1b[91m");
        assert_eq!(rewrite(b"\x1b[1;38;5;2;48;5;4m"), b"\x1b[1;32;44m");
        // A grey from the ramp goes to a grey.
        assert_eq!(rewrite(b"\x1b[38;5;244m"), b"\x1b[90m");
        // Other sequences pass untouched.
        assert_eq!(
            rewrite(b"\x1b[2J\x1b[1;1H\x1b[0m"),
            b"\x1b[2J\x1b[1;1H\x1b[0m"
        );
    }

    #[test]
    fn a_sequence_split_over_writes_is_rewritten_whole() {
        let mut w = Sgr16::new(Vec::new(), true);
        w.write_all(b"a\x1b[38;").unwrap();
        w.write_all(b"5;12mb").unwrap();
        w.flush().unwrap();
        assert_eq!(w.get_ref().as_slice(), b"a\x1b[94mb");
        let mut off = Sgr16::new(Vec::new(), false);
        off.write_all(b"\x1b[38;5;12m").unwrap();
        off.flush().unwrap();
        assert_eq!(off.get_ref().as_slice(), b"\x1b[38;5;12m");
    }
}
