//! The `:` commands of the input line, the app's and the club's, in one place:
//! `table.rs` the one table (names, arguments, help, where each may be used, what Tab
//! offers), `parse.rs` text → typed `Command` or a `CommandError` that says what was wrong
//! (or where the command is for), `complete.rs` Tab, `run.rs` the app's commands carried
//! out, `run_club.rs` the club's.

mod complete;
mod parse;
pub(super) mod run;
mod run_club;
mod table;

pub use complete::{Completion, complete, lobby_words};
pub use parse::{
    ChapterArg, ChapterFrom, Command, CommandError, MAX_DELAY_MS, MAX_DEPTH, MAX_GAMES,
    MAX_MULTIPV, SeekArgs, SetArg, TcArg, parse, parse_in, resolve, seek_args,
};
pub use table::{ALIASES, COMMANDS, CommandSpec, Scope, Scopes, TIEBREAKS, Words, help_rows};
