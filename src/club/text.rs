//! What a peer types that the club keeps or shows to others: room names and chat lines.
//! Control characters and escape sequences never reach another player's terminal.

use super::ClubError;

/// The longest room name.
pub const ROOM_NAME_MAX: usize = 24;
/// The longest chat line, in characters.
pub const CHAT_MAX: usize = 200;

/// A room name from the ssh command or `:join`: letters, digits, `-` and `_`, at most
/// [`ROOM_NAME_MAX`]; anything else is refused with a message saying what was wrong.
pub fn room_name(text: &str) -> Result<String, ClubError> {
    let _ = text;
    todo!()
}

/// A chat line as others will see it: control characters (escapes included) removed,
/// whitespace runs made one space, at most [`CHAT_MAX`] characters (cut, with `…`); an
/// empty line is refused.
pub fn chat_line(text: &str) -> Result<String, ClubError> {
    let _ = text;
    todo!()
}
