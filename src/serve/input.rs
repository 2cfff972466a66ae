//! Bytes from an SSH channel → key events. A local terminal has crossterm read and decode
//! the keyboard; over SSH the client's terminal sends its bytes as channel data and we decode
//! them here: the escape sequences of xterm, tmux/screen and the Linux console, control
//! characters, UTF-8 text and bracketed paste.
//!
//! The parser keeps what it cannot decode yet (an escape sequence cut by a packet boundary)
//! and decodes it when the rest arrives, so a stream split anywhere gives the same events as
//! the whole stream. An Esc key and the start of an escape sequence begin with the same byte:
//! a lone ESC stays pending until the caller, after a short quiet time (`ESC_TIMEOUT`), calls
//! `flush`, which turns it into the Esc key.

use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// How long a lone ESC waits for the rest of a sequence before it counts as the Esc key.
/// Terminals send a sequence in one write, so anything this late was typed by a person.
pub const ESC_TIMEOUT: Duration = Duration::from_millis(50);

/// Pasted text beyond this many bytes is dropped (the input line takes one short line).
pub const PASTE_LIMIT: usize = 64 * 1024;

/// A CSI sequence longer than this is noise, not a key: it is dropped.
const CSI_LIMIT: usize = 32;

const ESC: u8 = 0x1b;
const PASTE_END: &[u8] = b"\x1b[201~";

/// What the keyboard said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Key(KeyEvent),
    /// The text between the bracketed-paste markers (invalid UTF-8 replaced).
    Paste(String),
}

/// Decodes a byte stream; see the module comment.
#[derive(Debug, Default)]
pub struct Parser {
    pending: Vec<u8>,
    /// Inside a bracketed paste: the text so far and how many bytes of the end marker have
    /// been seen.
    paste: Option<(Vec<u8>, usize)>,
    /// The last byte decoded was CR, so an LF right after it is the same Enter.
    after_cr: bool,
    /// Inside a CSI sequence too long to be a key: its remaining bytes are skipped.
    skip_csi: bool,
}

/// The outcome of decoding at the front of the pending bytes.
enum Step {
    /// `n` bytes were used and gave this (or nothing: an unknown sequence).
    Done(usize, Option<Input>),
    /// A paste begins after `n` bytes.
    PasteStart(usize),
    /// `n` bytes of a CSI sequence too long to be a key; skip the rest of it.
    Overlong(usize),
    /// More bytes are needed to know.
    Incomplete,
}

impl Parser {
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Decodes what `bytes` completes; a trailing incomplete sequence waits for the next call.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Input> {
        let mut out = Vec::new();
        self.pending.extend_from_slice(bytes);
        self.decode(&mut out, false);
        out
    }

    /// Bytes held between calls: an unfinished sequence, and a paste's text so far (at
    /// most [`PASTE_LIMIT`]). Bounded whatever is fed.
    pub fn buffered(&self) -> usize {
        self.pending.len() + self.paste.as_ref().map_or(0, |(text, _)| text.len())
    }

    /// Whether bytes wait for more (the caller should `flush` after `ESC_TIMEOUT` of quiet).
    /// A paste in progress is not waiting: it ends with its marker.
    pub fn has_pending(&self) -> bool {
        self.paste.is_none() && !self.pending.is_empty()
    }

    /// The quiet time has passed: what waits is taken as typed. A lone ESC is the Esc key,
    /// ESC followed by an unfinished sequence is Esc and then those characters; a cut UTF-8
    /// character is dropped.
    pub fn flush(&mut self) -> Vec<Input> {
        let mut out = Vec::new();
        self.decode(&mut out, true);
        out
    }

    fn decode(&mut self, out: &mut Vec<Input>, final_: bool) {
        let mut pos = 0;
        loop {
            if self.paste.is_some() {
                pos += take_paste(&mut self.paste, &self.pending[pos..], out);
                if self.paste.is_some() {
                    break;
                }
                continue;
            }
            if pos >= self.pending.len() {
                break;
            }
            if self.skip_csi {
                let b = self.pending[pos];
                match b {
                    0x20..=0x3f => pos += 1,
                    0x40..=0x7e => {
                        pos += 1;
                        self.skip_csi = false;
                    }
                    _ => self.skip_csi = false,
                }
                continue;
            }
            match decode_one(&self.pending[pos..]) {
                Step::Done(n, input) => {
                    pos += n;
                    if let Some(input) = input {
                        self.push_key(input, out);
                    }
                }
                Step::Overlong(n) => {
                    pos += n;
                    self.skip_csi = true;
                }
                Step::PasteStart(n) => {
                    pos += n;
                    self.paste = Some((Vec::new(), 0));
                    self.after_cr = false;
                }
                Step::Incomplete if final_ => {
                    let rest = &self.pending[pos..];
                    if rest[0] == ESC {
                        self.push_key(key(KeyCode::Esc, KeyModifiers::NONE), out);
                        pos += 1;
                    } else {
                        // A UTF-8 character cut short: nothing to make of it.
                        pos = self.pending.len();
                    }
                }
                Step::Incomplete => break,
            }
        }
        self.pending.drain(..pos);
    }

    fn push_key(&mut self, input: Input, out: &mut Vec<Input>) {
        if let Input::Key(k) = &input {
            let lf = k.code == KeyCode::Enter && k.modifiers == KeyModifiers::CONTROL;
            if lf && self.after_cr {
                // CR LF is one Enter.
                self.after_cr = false;
                return;
            }
            let cr = k.code == KeyCode::Enter && k.modifiers == KeyModifiers::NONE;
            self.after_cr = cr;
            if lf {
                out.push(key(KeyCode::Enter, KeyModifiers::NONE));
                return;
            }
        } else {
            self.after_cr = false;
        }
        out.push(input);
    }
}

/// Feeds `bytes` to the paste in progress; returns how many were used (all of them, or
/// up to and including the end marker, after which the paste is emitted).
fn take_paste(paste: &mut Option<(Vec<u8>, usize)>, bytes: &[u8], out: &mut Vec<Input>) -> usize {
    let Some((text, matched)) = paste.as_mut() else {
        return 0;
    };
    for (i, &b) in bytes.iter().enumerate() {
        if b == PASTE_END[*matched] {
            *matched += 1;
            if *matched == PASTE_END.len() {
                let text = std::mem::take(text);
                *paste = None;
                out.push(Input::Paste(String::from_utf8_lossy(&text).into_owned()));
                return i + 1;
            }
            continue;
        }
        // A partial marker that did not go on was text. The marker's first byte (ESC)
        // occurs only at its start, so the current byte can only begin a new match.
        let partial = &PASTE_END[..*matched];
        push_capped(text, partial);
        *matched = 0;
        if b == PASTE_END[0] {
            *matched = 1;
        } else {
            push_capped(text, &[b]);
        }
    }
    bytes.len()
}

fn push_capped(text: &mut Vec<u8>, bytes: &[u8]) {
    let room = PASTE_LIMIT.saturating_sub(text.len());
    text.extend_from_slice(&bytes[..bytes.len().min(room)]);
}

fn key(code: KeyCode, modifiers: KeyModifiers) -> Input {
    Input::Key(KeyEvent::new(code, modifiers))
}

/// Decodes the front of `b` (never empty).
fn decode_one(b: &[u8]) -> Step {
    match b[0] {
        ESC => decode_escape(b),
        // LF is marked with CONTROL here so `push_key` can fold CR LF; it becomes Enter.
        b'\n' => Step::Done(1, Some(key(KeyCode::Enter, KeyModifiers::CONTROL))),
        _ => match decode_plain(b) {
            Some((n, input)) => Step::Done(n, input),
            None => Step::Incomplete,
        },
    }
}

/// A control character or a UTF-8 character; `None` when a character is cut short.
fn decode_plain(b: &[u8]) -> Option<(usize, Option<Input>)> {
    let none = KeyModifiers::NONE;
    let ctrl = KeyModifiers::CONTROL;
    let c = b[0];
    let one = |code, mods| Some((1, Some(key(code, mods))));
    match c {
        b'\r' => one(KeyCode::Enter, none),
        b'\t' => one(KeyCode::Tab, none),
        0x7f | 0x08 => one(KeyCode::Backspace, none),
        0x00 => one(KeyCode::Char(' '), ctrl),
        0x01..=0x1a => one(KeyCode::Char((b'a' + c - 1) as char), ctrl),
        0x1c..=0x1f => one(KeyCode::Char((b'4' + c - 0x1c) as char), ctrl),
        0x20..=0x7e => {
            let ch = c as char;
            let mods = if ch.is_ascii_uppercase() {
                KeyModifiers::SHIFT
            } else {
                none
            };
            one(KeyCode::Char(ch), mods)
        }
        _ => {
            let (n, ch) = decode_utf8(b)?;
            Some((n, ch.map(|ch| key(KeyCode::Char(ch), none))))
        }
    }
}

/// One UTF-8 character at the front of `b`: `Some((len, Some(char)))`, `Some((1, None))` for
/// a byte that cannot start one (skipped), `None` when the character is cut short.
fn decode_utf8(b: &[u8]) -> Option<(usize, Option<char>)> {
    let len = match b[0] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return Some((1, None)),
    };
    // Continuation bytes seen so far must be continuation bytes, else the lead was noise.
    for (i, &c) in b.iter().enumerate().take(len).skip(1) {
        if c & 0xc0 != 0x80 {
            return Some((i, None));
        }
    }
    if b.len() < len {
        return None;
    }
    match std::str::from_utf8(&b[..len]) {
        Ok(s) => Some((len, s.chars().next())),
        // Overlong forms and surrogates: valid-looking bytes that are not a character.
        Err(_) => Some((len, None)),
    }
}

/// ESC and what follows it: a CSI or SS3 sequence, Alt with a key, or (later) Esc itself.
fn decode_escape(b: &[u8]) -> Step {
    let Some(&next) = b.get(1) else {
        return Step::Incomplete;
    };
    match next {
        b'[' => decode_csi(b),
        b'O' => match b.get(2) {
            None => Step::Incomplete,
            Some(&f) => Step::Done(3, ss3_key(f, KeyModifiers::NONE)),
        },
        // ESC ESC: the first is the Esc key; the second starts over.
        ESC => Step::Done(1, Some(key(KeyCode::Esc, KeyModifiers::NONE))),
        _ => match decode_plain(&b[1..]) {
            None => Step::Incomplete,
            Some((n, Some(Input::Key(mut k)))) => {
                k.modifiers |= KeyModifiers::ALT;
                Step::Done(1 + n, Some(Input::Key(k)))
            }
            Some((n, other)) => Step::Done(1 + n, other),
        },
    }
}

/// Keys of the SS3 form (`ESC O x`, and `ESC [ 1 ; m x` with modifiers).
fn ss3_key(f: u8, mods: KeyModifiers) -> Option<Input> {
    let code = match f {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        b'H' => KeyCode::Home,
        b'F' => KeyCode::End,
        b'P' => KeyCode::F(1),
        b'Q' => KeyCode::F(2),
        b'R' => KeyCode::F(3),
        b'S' => KeyCode::F(4),
        b'M' => KeyCode::Enter,
        _ => return None,
    };
    Some(key(code, mods))
}

/// `ESC [` parameters intermediates final. Unknown sequences are consumed and give nothing;
/// a sequence broken by a byte that cannot be in one is dropped up to that byte.
fn decode_csi(b: &[u8]) -> Step {
    // The Linux console's F1–F5: ESC [ [ A … E.
    if b.get(2) == Some(&b'[') {
        return match b.get(3) {
            None => Step::Incomplete,
            Some(&f @ b'A'..=b'E') => Step::Done(4, Some(key(KeyCode::F(f - b'A' + 1), none()))),
            Some(_) => Step::Done(4, None),
        };
    }
    let mut i = 2;
    loop {
        if i >= CSI_LIMIT {
            return Step::Overlong(i);
        }
        let Some(&c) = b.get(i) else {
            return Step::Incomplete;
        };
        match c {
            0x20..=0x3f => i += 1,
            0x40..=0x7e => break,
            // A control byte or an overlong sequence: not a key. Drop what came before.
            _ => return Step::Done(i, None),
        }
    }
    let params = &b[2..i];
    let final_ = b[i];
    let used = i + 1;
    let nums = parse_params(params);
    let mods = nums.get(1).map_or(KeyModifiers::NONE, |&m| modifiers(m));
    let input = match final_ {
        b'~' => match nums.first().copied().unwrap_or(0) {
            200 => return Step::PasteStart(used),
            n => tilde_key(n).map(|code| key(code, mods)),
        },
        b'Z' => Some(key(KeyCode::BackTab, KeyModifiers::SHIFT)),
        f => ss3_key(f, mods),
    };
    Step::Done(used, input)
}

fn none() -> KeyModifiers {
    KeyModifiers::NONE
}

/// `ESC [ n ~` keys (xterm, VT220, rxvt and the Linux console's numbering).
fn tilde_key(n: u32) -> Option<KeyCode> {
    Some(match n {
        1 | 7 => KeyCode::Home,
        2 => KeyCode::Insert,
        3 => KeyCode::Delete,
        4 | 8 => KeyCode::End,
        5 => KeyCode::PageUp,
        6 => KeyCode::PageDown,
        11..=15 => KeyCode::F((n - 10) as u8),
        17..=21 => KeyCode::F((n - 11) as u8),
        23 | 24 => KeyCode::F((n - 12) as u8),
        _ => return None,
    })
}

/// Numbers separated by `;` (a missing or malformed one is 0, an absurd one saturates).
fn parse_params(params: &[u8]) -> Vec<u32> {
    params
        .split(|&c| c == b';')
        .map(|p| {
            p.iter()
                .take_while(|c| c.is_ascii_digit())
                .fold(0u32, |n, &d| {
                    n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
                })
        })
        .collect()
}

/// xterm's modifier parameter: 1 + a bit mask of Shift 1, Alt 2, Ctrl 4, Meta 8.
fn modifiers(m: u32) -> KeyModifiers {
    let bits = m.saturating_sub(1);
    let mut mods = KeyModifiers::NONE;
    if bits & 1 != 0 {
        mods |= KeyModifiers::SHIFT;
    }
    if bits & 2 != 0 {
        mods |= KeyModifiers::ALT;
    }
    if bits & 4 != 0 {
        mods |= KeyModifiers::CONTROL;
    }
    if bits & 8 != 0 {
        mods |= KeyModifiers::META;
    }
    mods
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode) -> Input {
        key(code, KeyModifiers::NONE)
    }

    fn km(code: KeyCode, mods: KeyModifiers) -> Input {
        key(code, mods)
    }

    fn all(bytes: &[u8]) -> Vec<Input> {
        let mut p = Parser::new();
        let mut out = p.feed(bytes);
        out.extend(p.flush());
        out
    }

    #[test]
    fn text_and_enter_become_characters_and_enter() {
        assert_eq!(
            all(b"e2e4\r"),
            vec![
                k(KeyCode::Char('e')),
                k(KeyCode::Char('2')),
                k(KeyCode::Char('e')),
                k(KeyCode::Char('4')),
                k(KeyCode::Enter)
            ]
        );
    }

    #[test]
    fn cr_lf_is_one_enter_and_a_lone_lf_is_enter() {
        assert_eq!(all(b"\r\n"), vec![k(KeyCode::Enter)]);
        assert_eq!(all(b"\n\n"), vec![k(KeyCode::Enter), k(KeyCode::Enter)]);
    }

    #[test]
    fn uppercase_letters_carry_shift_as_crossterm_reports_them() {
        assert_eq!(all(b"N"), vec![km(KeyCode::Char('N'), KeyModifiers::SHIFT)]);
    }

    #[test]
    fn control_letters_and_backspace() {
        let ctrl = KeyModifiers::CONTROL;
        assert_eq!(all(b"\x03"), vec![km(KeyCode::Char('c'), ctrl)]);
        assert_eq!(all(b"\x01"), vec![km(KeyCode::Char('a'), ctrl)]);
        assert_eq!(all(b"\x7f"), vec![k(KeyCode::Backspace)]);
        assert_eq!(all(b"\t"), vec![k(KeyCode::Tab)]);
    }

    #[test]
    fn arrows_of_xterm_in_both_cursor_modes() {
        assert_eq!(
            all(b"\x1b[A\x1bOB\x1b[C\x1bOD"),
            vec![
                k(KeyCode::Up),
                k(KeyCode::Down),
                k(KeyCode::Right),
                k(KeyCode::Left)
            ]
        );
    }

    #[test]
    fn modified_keys_decode_their_modifier_parameter() {
        assert_eq!(
            all(b"\x1b[1;5A"),
            vec![km(KeyCode::Up, KeyModifiers::CONTROL)]
        );
        assert_eq!(
            all(b"\x1b[1;2D"),
            vec![km(KeyCode::Left, KeyModifiers::SHIFT)]
        );
        assert_eq!(
            all(b"\x1b[3;3~"),
            vec![km(KeyCode::Delete, KeyModifiers::ALT)]
        );
    }

    #[test]
    fn home_end_page_insert_delete_in_xterm_screen_and_console_forms() {
        assert_eq!(
            all(b"\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[7~\x1b[8~\x1bOH\x1bOF"),
            vec![
                k(KeyCode::Home),
                k(KeyCode::End),
                k(KeyCode::Home),
                k(KeyCode::End),
                k(KeyCode::Home),
                k(KeyCode::End),
                k(KeyCode::Home),
                k(KeyCode::End)
            ]
        );
        assert_eq!(
            all(b"\x1b[5~\x1b[6~\x1b[2~\x1b[3~"),
            vec![
                k(KeyCode::PageUp),
                k(KeyCode::PageDown),
                k(KeyCode::Insert),
                k(KeyCode::Delete)
            ]
        );
    }

    #[test]
    fn function_keys_one_to_twelve() {
        let xterm = b"\x1bOP\x1bOQ\x1bOR\x1bOS\x1b[15~\x1b[17~\x1b[18~\x1b[19~\x1b[20~\x1b[21~\x1b[23~\x1b[24~";
        let want: Vec<Input> = (1..=12).map(|n| k(KeyCode::F(n))).collect();
        assert_eq!(all(xterm), want);
        let vt = b"\x1b[11~\x1b[12~\x1b[13~\x1b[14~";
        assert_eq!(all(vt), want[..4].to_vec());
        let console = b"\x1b[[A\x1b[[B\x1b[[C\x1b[[D\x1b[[E";
        assert_eq!(all(console), want[..5].to_vec());
    }

    #[test]
    fn utf8_text_is_decoded_even_when_split() {
        let mut p = Parser::new();
        let bytes = "é♞".as_bytes();
        let mut out = p.feed(&bytes[..1]);
        assert!(out.is_empty());
        assert!(p.has_pending());
        out.extend(p.feed(&bytes[1..4]));
        out.extend(p.feed(&bytes[4..]));
        assert_eq!(out, vec![k(KeyCode::Char('é')), k(KeyCode::Char('♞'))]);
    }

    #[test]
    fn bracketed_paste_is_one_event_with_its_text() {
        assert_eq!(
            all(b"a\x1b[200~e2e4\x1b[A\r\x1b[201~b"),
            vec![
                k(KeyCode::Char('a')),
                Input::Paste("e2e4\x1b[A\r".to_string()),
                k(KeyCode::Char('b'))
            ]
        );
    }

    #[test]
    fn a_lone_esc_waits_and_becomes_esc_on_flush() {
        let mut p = Parser::new();
        assert!(p.feed(b"\x1b").is_empty());
        assert!(p.has_pending());
        assert_eq!(p.flush(), vec![k(KeyCode::Esc)]);
        assert!(!p.has_pending());
    }

    #[test]
    fn esc_then_a_letter_in_one_write_is_alt_letter() {
        assert_eq!(
            all(b"\x1bx"),
            vec![km(KeyCode::Char('x'), KeyModifiers::ALT)]
        );
    }

    #[test]
    fn unknown_and_broken_sequences_give_nothing_and_do_not_eat_what_follows() {
        assert_eq!(all(b"\x1b[99~a"), vec![k(KeyCode::Char('a'))]);
        assert_eq!(
            all(b"\x1b[12\x03"),
            vec![km(KeyCode::Char('c'), KeyModifiers::CONTROL)]
        );
        // Too long to be a key: skipped to its final byte, and what follows is typed.
        let long: Vec<u8> = [b"\x1b[".as_slice(), &[b'1'; 100], b"~x"].concat();
        assert_eq!(all(&long), vec![k(KeyCode::Char('x'))]);
    }

    #[test]
    fn a_huge_paste_is_cut_at_the_limit() {
        let body = vec![b'a'; PASTE_LIMIT + 1000];
        let bytes = [b"\x1b[200~".as_slice(), &body, b"\x1b[201~"].concat();
        match all(&bytes).as_slice() {
            [Input::Paste(t)] => assert_eq!(t.len(), PASTE_LIMIT),
            other => panic!("expected one paste, got {} events", other.len()),
        }
    }
}
