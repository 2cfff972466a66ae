//! What a peer types that the club keeps or shows to others: members' names, room names
//! and chat lines. Control characters, escape sequences, bidi overrides and zero-width
//! characters never reach another player's terminal or the database.

use super::{ClubError, Member};

/// The longest room name.
pub const ROOM_NAME_MAX: usize = 24;
/// The longest chat line, in characters.
pub const CHAT_MAX: usize = 200;
/// The longest member's name, in characters.
pub const MEMBER_NAME_MAX: usize = 20;

/// A room name from the ssh command or `:join`: letters, digits, `-` and `_`, at most
/// [`ROOM_NAME_MAX`]; anything else is refused with a message saying what was wrong.
pub fn room_name(text: &str) -> Result<String, ClubError> {
    let name = text.trim();
    if name.is_empty() {
        return Err(ClubError::new(
            "a room name cannot be empty: use letters, digits, '-' and '_'",
        ));
    }
    let count = name.chars().count();
    if count > ROOM_NAME_MAX {
        return Err(ClubError::new(format!(
            "a room name is at most {ROOM_NAME_MAX} characters (this one has {count})"
        )));
    }
    if let Some(bad) = name
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
    {
        // Escaped, so the refusal itself cannot carry an escape sequence to the terminal.
        return Err(ClubError::new(format!(
            "a room name may hold only letters, digits, '-' and '_', not '{}'",
            bad.escape_default()
        )));
    }
    Ok(name.to_string())
}

/// Characters that draw nothing yet change how a terminal shows what follows: the bidi
/// embeddings, overrides and isolates (a line that reads backwards, Trojan-Source style),
/// the directional marks, and the zero-width characters that hide text inside words.
fn is_invisible_format(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'                      // soft hyphen
            | '\u{061C}'                // Arabic letter mark
            | '\u{180E}'                // Mongolian vowel separator
            | '\u{200B}'..='\u{200F}'   // zero-width space, (non-)joiner, LRM, RLM
            | '\u{202A}'..='\u{202E}'   // bidi embeddings and overrides
            | '\u{2060}'..='\u{206F}'   // word joiner, invisible operators, bidi isolates
            | '\u{FEFF}' // zero-width no-break space (BOM)
    )
}

/// Whether `c` is one the club never passes on: a control character (escapes included) or
/// one of the invisible formatting characters.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || is_invisible_format(c)
}

/// Keeps the visible characters of `text`, a whitespace run made one space, without the
/// spaces at either end, stopping once more than `max` are kept: `(kept, how many)`.
fn visible(text: &str, max: usize) -> (String, usize) {
    let mut clean = String::with_capacity(text.len().min(4 * max));
    let mut kept = 0usize;
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            // Tabs and line breaks (controls themselves) become the one space of a run.
            pending_space = kept > 0;
            continue;
        }
        if is_hidden(c) {
            continue;
        }
        if pending_space {
            clean.push(' ');
            kept += 1;
            pending_space = false;
        }
        clean.push(c);
        kept += 1;
        // One past the limit is enough to know it must be cut; the rest is never read.
        if kept > max {
            break;
        }
    }
    (clean, kept)
}

/// The characters a name may hold besides ASCII letters and digits.
pub const NAME_MARKS: [char; 3] = ['-', '_', '.'];

/// A member's name (the ssh login name) as every screen and the database will show it.
/// First cleaned as chat is: controls, bidi overrides and isolates, directional marks and
/// zero-width characters go. What is left must be a name: ASCII letters, digits, `-`, `_`
/// and `.`, starting with a letter or digit, at most [`MEMBER_NAME_MAX`] characters, so no
/// two names can look alike (compared without case, see [`same_name`]). Anything else is
/// refused with a message saying what was wrong; the message never carries the character
/// itself, only its escape.
pub fn member_name(text: &str) -> Result<String, ClubError> {
    const HOW: &str = "log in as ssh NAME@HOST";
    let (clean, kept) = visible(text, MEMBER_NAME_MAX);
    if kept == 0 {
        return Err(ClubError::new(format!(
            "the login name has no visible character: {HOW}, NAME of letters or digits"
        )));
    }
    if kept > MEMBER_NAME_MAX {
        return Err(ClubError::new(format!(
            "a name is at most {MEMBER_NAME_MAX} characters: {HOW} with a shorter NAME"
        )));
    }
    if let Some(bad) = clean
        .chars()
        .find(|&c| !(c.is_ascii_alphanumeric() || NAME_MARKS.contains(&c)))
    {
        return Err(ClubError::new(format!(
            "a name holds only ASCII letters, digits, '-', '_' and '.', not '{}': {HOW}",
            bad.escape_default()
        )));
    }
    if !clean.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        return Err(ClubError::new(format!(
            "a name starts with a letter or a digit: {HOW}"
        )));
    }
    if super::bots::is_bot_name(&clean) {
        return Err(ClubError::new(format!(
            "names beginning {} are the engine's (the club's bots): {HOW} with a name of \
             your own",
            super::bots::NAME_PREFIX
        )));
    }
    Ok(clean)
}

/// Whether two members' names are the same name: compared without case, so `Sam` cannot
/// pass for `sam`.
pub fn same_name(a: &str, b: &str) -> bool {
    a.chars()
        .flat_map(char::to_lowercase)
        .eq(b.chars().flat_map(char::to_lowercase))
}

/// A chat line as others will see it: control characters (escapes included) removed,
/// whitespace runs made one space, at most [`CHAT_MAX`] characters (cut, with `…`); an
/// empty line is refused.
///
/// An escape sequence loses its ESC and is left as harmless text (`[2J`); bidi overrides
/// and zero-width characters go too.
pub fn chat_line(text: &str) -> Result<String, ClubError> {
    let (clean, kept) = visible(text, CHAT_MAX);
    if kept == 0 {
        return Err(ClubError::new("an empty chat line is not sent"));
    }
    if kept > CHAT_MAX {
        let mut cut: String = clean.chars().take(CHAT_MAX - 1).collect();
        cut.truncate(cut.trim_end().len());
        cut.push('…');
        return Ok(cut);
    }
    Ok(clean)
}

/// What marks an open visitor's name that had to differ from a member's or another
/// visitor's: never in an account's name, so a visitor never passes for a member.
pub const OPEN_MARK: char = '~';

/// The name `member` is shown under, cleaned again whoever made it: a name, an open
/// visitor's name with its mark, or `guest` when nothing of it is a name.
pub(super) fn clean_name(member: &Member) -> String {
    // A bot's name is the club's own, reserved for it.
    if member.is_bot() && super::bots::is_bot_name(&member.name) {
        return member.name.clone();
    }
    let (stem, marked) = match member.name.strip_suffix(OPEN_MARK) {
        Some(stem) if !member.rated => (stem, true),
        _ => (member.name.as_str(), false),
    };
    match member_name(stem) {
        Ok(name) if marked => format!("{name}{OPEN_MARK}"),
        Ok(name) => name,
        Err(_) => "guest".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn room_names_of_letters_digits_dash_underscore_pass_trimmed() {
        assert_eq!(room_name("  blitz-42_a \n").unwrap(), "blitz-42_a");
        assert_eq!(room_name(&"a".repeat(ROOM_NAME_MAX)).unwrap().len(), 24);
    }

    #[test]
    fn bad_room_names_are_refused_saying_why() {
        let err = |s: &str| room_name(s).unwrap_err().to_string();
        assert!(err("").contains("empty"));
        assert!(err("   \t").contains("empty"));
        let long = err(&"a".repeat(ROOM_NAME_MAX + 1));
        assert!(long.contains("at most 24"), "{long}");
        let esc = err("room\x1b[2J");
        assert!(esc.contains("not '\\u{1b}'"), "{esc}");
        assert!(!esc.contains('\x1b'));
        assert!(err("two words").contains("not ' '"));
        assert!(err("café").contains("not '\\u{e9}'"));
        assert!(err("a/b").contains("not '/'"));
        assert!(err(&"x\u{202E}".repeat(5000)).contains("at most"));
    }

    #[test]
    fn chat_lines_lose_escapes_controls_and_bidi() {
        assert_eq!(chat_line("\x1b[2Jhi").unwrap(), "[2Jhi");
        assert_eq!(
            chat_line("  good\t\tluck \r\n have\x07 fun  ").unwrap(),
            "good luck have fun"
        );
        assert_eq!(
            chat_line("a\u{202E}b\u{2066}c\u{200B}d\u{9b}e").unwrap(),
            "abcde"
        );
        assert_eq!(chat_line("\x1b]0;title\x07x").unwrap(), "]0;titlex");
        assert_eq!(chat_line("é ♞ 象棋").unwrap(), "é ♞ 象棋");
    }

    #[test]
    fn empty_chat_lines_are_refused() {
        for s in ["", "   ", "\x1b\x07\u{202E}", "\u{200B} \n"] {
            assert!(
                chat_line(s).unwrap_err().to_string().contains("empty"),
                "{s:?}"
            );
        }
    }

    #[test]
    fn long_chat_lines_are_cut_with_an_ellipsis() {
        let ten_kb = "x".repeat(10_000);
        let line = chat_line(&ten_kb).unwrap();
        assert_eq!(line.chars().count(), CHAT_MAX);
        assert!(line.ends_with('…'));
        let exact = "y".repeat(CHAT_MAX);
        assert_eq!(chat_line(&exact).unwrap(), exact);
        // The limit counts characters, not bytes.
        let wide = "♞".repeat(CHAT_MAX);
        assert_eq!(chat_line(&wide).unwrap(), wide);
    }

    #[test]
    fn member_names_lose_bidi_zero_width_and_controls() {
        assert_eq!(member_name("ev\u{202E}il\u{200B}").unwrap(), "evil");
        assert_eq!(
            member_name("\u{2066}a\u{2069}\u{200E}b\u{200F}c\u{061C}d\u{FEFF}e\u{2060}").unwrap(),
            "abcde"
        );
        assert_eq!(member_name("  sam.o_k-2 \t").unwrap(), "sam.o_k-2");
        let longest = "n".repeat(MEMBER_NAME_MAX);
        assert_eq!(member_name(&longest).unwrap(), longest);
    }

    #[test]
    fn names_that_could_pass_for_another_are_refused_saying_why() {
        let err = |s: &str| member_name(s).unwrap_err().to_string();
        // What an escape sequence leaves behind, a space, a letter from another script
        // (Cyrillic a looks like Latin a), an accent: each refused, its escape named.
        let esc = err("\x1b[31mred");
        assert!(esc.contains("not '['"), "{esc}");
        assert!(err("José Ruiz").contains("not '\\u{e9}'"));
        assert!(err("Jose Ruiz").contains("not ' '"));
        let cyrillic = err("\u{430}lice");
        assert!(cyrillic.contains("not '\\u{430}'"), "{cyrillic}");
        assert!(!cyrillic.contains('\u{430}'));
        assert!(err("alice+CODE").contains("not '+'"));
        assert!(err("-alice").contains("starts with a letter or a digit"));
        assert!(err(".").contains("starts with a letter or a digit"));
        let long = err(&"n".repeat(MEMBER_NAME_MAX + 1));
        assert!(long.contains("at most 20"), "{long}");
        assert!(err(&"x\u{202E}".repeat(5000)).contains("at most 20"));
        for e in [esc, cyrillic, long] {
            assert!(
                e.contains("ssh NAME@HOST"),
                "the refusal says what to do: {e}"
            );
        }
    }

    #[test]
    fn the_bots_names_are_reserved_for_them() {
        for name in ["ox88-1600", "OX88-2000", "Ox88-x"] {
            let e = member_name(name).unwrap_err().to_string();
            assert!(e.contains("names beginning ox88- are the engine's"), "{e}");
        }
        assert_eq!(member_name("ox88").as_deref(), Ok("ox88"));
        assert_eq!(member_name("ox88_fan").as_deref(), Ok("ox88_fan"));
        let visitor = Member {
            id: "open:1".into(),
            name: "ox88-1600".into(),
            rated: false,
        };
        assert_eq!(clean_name(&visitor), "guest");
        assert_eq!(clean_name(&crate::club::bots::member(1600)), "ox88-1600");
    }

    #[test]
    fn a_name_with_nothing_visible_is_refused_saying_why() {
        for s in [
            "",
            "   ",
            "\u{200B}",
            "\u{202E}\u{200D}\x07",
            "\u{FEFF} \u{2066}",
        ] {
            let err = member_name(s).unwrap_err().to_string();
            assert!(err.contains("no visible character"), "{s:?}: {err}");
        }
    }

    #[test]
    fn names_are_the_same_without_case() {
        assert!(same_name("Sam", "sAM"));
        assert!(same_name("ÉLODIE", "élodie"));
        assert!(!same_name("sam", "sam-2"));
        assert!(!same_name("sam", "sa"));
    }

    proptest! {
        #[test]
        fn member_names_are_short_ascii_and_clean(text in any::<String>()) {
            if let Ok(name) = member_name(&text) {
                prop_assert!(!name.is_empty() && name.chars().count() <= MEMBER_NAME_MAX);
                prop_assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || NAME_MARKS.contains(&c)));
                prop_assert!(name.starts_with(|c: char| c.is_ascii_alphanumeric()));
            }
        }

        #[test]
        fn hostile_member_names_come_out_clean(
            text in "[a-z\u{0}-\u{1f}\u{7f}-\u{9f}\u{200B}-\u{200F}\u{202A}-\u{202E}\u{2060}-\u{2069}\u{061C}\u{FEFF} ]{0,60}"
        ) {
            match member_name(&text) {
                Ok(name) => {
                    prop_assert!(name.chars().count() <= MEMBER_NAME_MAX);
                    prop_assert!(name.chars().all(|c| c.is_ascii_lowercase()));
                    // The name is the text's letters, nothing added or moved.
                    let letters: String = text.chars().filter(char::is_ascii_lowercase).collect();
                    prop_assert_eq!(name, letters);
                }
                Err(e) => {
                    let e = e.to_string();
                    prop_assert!(!e.chars().any(is_hidden), "{:?}", e);
                }
            }
        }

        #[test]
        fn cleaning_a_name_twice_changes_nothing(text in any::<String>()) {
            if let Ok(name) = member_name(&text) {
                prop_assert_eq!(member_name(&name).unwrap(), name);
            }
        }

        #[test]
        fn clean_ascii_names_pass_unchanged(name in "[A-Za-z0-9][A-Za-z0-9._-]{0,19}") {
            // (but the bots' names: refused, as tested above)
            prop_assume!(!crate::club::bots::is_bot_name(&name));
            prop_assert_eq!(member_name(&name).unwrap(), name);
        }

        #[test]
        fn chat_lines_are_short_and_free_of_controls(text in any::<String>()) {
            if let Ok(line) = chat_line(&text) {
                prop_assert!(line.chars().count() <= CHAT_MAX);
                prop_assert!(!line.is_empty());
                prop_assert!(!line.chars().any(|c| c.is_control() || is_invisible_format(c)));
                prop_assert!(!line.contains("  "));
            }
        }

        #[test]
        fn long_chat_lines_stay_within_the_limit(text in "[a \\x1b\u{202E}é]{150,400}") {
            if let Ok(line) = chat_line(&text) {
                prop_assert!(line.chars().count() <= CHAT_MAX);
            }
        }

        #[test]
        fn room_names_never_panic(text in any::<String>()) {
            if let Ok(name) = room_name(&text) {
                prop_assert!(name.len() <= ROOM_NAME_MAX);
                prop_assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
            }
        }
    }
}
