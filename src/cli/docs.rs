//! `ox88 completions` and `ox88 man`: the shell completion scripts and the manual page,
//! both generated from the clap definitions so they never disagree with `--help`.

use anyhow::Result;

use super::args::{self, CompletionsArgs};

pub fn completions(args: CompletionsArgs) -> Result<()> {
    clap_complete::generate(
        args.shell,
        &mut args::command(),
        "ox88",
        &mut std::io::stdout(),
    );
    Ok(())
}

pub fn man() -> Result<()> {
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(args::command()).render(&mut out)?;
    use std::io::Write;
    for (title, paragraphs) in MAN_SECTIONS {
        writeln!(out, ".SH \"{title}\"")?;
        for p in *paragraphs {
            writeln!(out, ".PP")?;
            writeln!(out, "{}", roff_text(p))?;
        }
    }
    Ok(())
}

/// Plain text as roff: backslashes escaped, and a line that would start with a control
/// character guarded.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e");
    match escaped.chars().next() {
        Some('.' | '\'') => format!("\\&{escaped}"),
        _ => escaped,
    }
}

/// The manual's own sections after those clap writes: what `ox88 serve` offers and keeps.
const MAN_SECTIONS: &[(&str, &[&str])] = &[(
    "SERVING OVER SSH",
    &[
        "ox88 serve lets people play with nothing installed but ssh. It listens on loopback \
         (127.0.0.1:2222) unless --listen says otherwise, and lets in the keys of \
         --authorized-keys, or anyone with --open.",
        "Rooms: ssh -t -p PORT NAME@HOST ROOM joins or opens room ROOM (letters, digits, - \
         and _, up to 24). The first two to come play, the first White unless they chose with \
         :color black; everyone after watches. The command is never run: a command that is \
         not a room name is refused with a message.",
        "The lobby: with no room, the lobby is shown beside the board: who is online and \
         where, seeks (:seek 5+3 [white|black] [rated|casual]), challenges (:challenge NAME \
         10+0, answered with :accept N or :decline N; 5 out at most), rooms where someone \
         waits for an opponent, and the games being played (:watch N). Up, Down and Enter \
         pick a row and accept, join or watch it; :join ROOM opens a room; a move typed plays \
         the engine as without the club.",
        "Games between people run on the server's clocks (Fischer increment; 200 ms of \
         network lag credited a move; a flag ends the game, drawn when the other side cannot \
         mate): :draw, :takeback, :no, :resign, :abort (before one's first move), :rematch \
         (colours swapped), :claim (the opponent away 60 s). A player whose connection drops \
         keeps the seat while the clock runs; the same key logging in again is seated again. \
         A room whose two players are both away --abandon-after (10m) closes, its game \
         adjourned; --max-rooms (1000) caps the rooms.",
        "Watching: watchers see the board and clocks live; Ctrl+V opens the engine's panes \
         on the game's position. Players never see the engine during their game. A chat \
         line per room: 'TEXT or :say TEXT (cleaned of control characters, at most 200 \
         characters, 5 lines in 10 s); Ctrl+R hides it. After the game, :review, :save NAME \
         and :games.",
        "Ratings: with --authorized-keys a player is their key (named by the SSH login name, \
         cleaned and unique among those online); games between two keys are rated by \
         Glicko-2 unless casual. --open visitors play casually, never rated.",
        "What is kept: the club's SQLite database (serve/club.sqlite in the data directory, \
         or --db PATH) holds players (key fingerprint, name, first and last seen), games \
         (PGN with names, ratings, time control, clocks, result and termination), games going \
         on (with their clocks; after a restart a game waits, clocks stopped, for both \
         players, and nobody loses it by absence until it has gone on with both there: \
         :claim then adjourns it, unrated), ratings \
         and their history, and each key's puzzle record. Games against the engine are kept \
         per key under serve/players/. Nothing else is exposed: no shell, no subsystems, no \
         forwarding, no file named by a client.",
    ],
)];
