//! The one table of `:` commands, the app's and the club's: each command's name, what it
//! takes, its help, where it may be used and what Tab offers for its arguments. The parser,
//! Tab completion and the help overlay all read it, so they cannot disagree.

/// Where a command is typed: alone (no club), or somewhere in the club.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The app without a club (the terminal, or `ox88 serve` without one).
    Solo,
    /// The club's lobby.
    Lobby,
    /// In the club, playing the engine (`:play`).
    Engine,
    /// In a room, a player of a game that goes on: the engine stays out of sight.
    Playing,
    /// In a room with no game of one's own going on: watching, waiting for an opponent,
    /// or after the game.
    Watching,
    /// In a study.
    Studying,
}

impl Scope {
    const fn bit(self) -> u8 {
        1 << self as u8
    }

    pub fn in_room(self) -> bool {
        Scopes::ROOM.has(self)
    }
}

/// A set of scopes: where a command may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scopes(u8);

impl Scopes {
    pub const SOLO: Scopes = Scopes(Scope::Solo.bit());
    pub const LOBBY: Scopes = Scopes(Scope::Lobby.bit());
    pub const ENGINE: Scopes = Scopes(Scope::Engine.bit());
    pub const PLAYING: Scopes = Scopes(Scope::Playing.bit());
    pub const WATCHING: Scopes = Scopes(Scope::Watching.bit());
    pub const STUDY: Scopes = Scopes(Scope::Studying.bit());
    /// In a room, playing or not.
    pub const ROOM: Scopes = Scopes::PLAYING.and(Scopes::WATCHING);
    /// Anywhere in the club.
    pub const CLUB: Scopes = Scopes::LOBBY
        .and(Scopes::ENGINE)
        .and(Scopes::ROOM)
        .and(Scopes::STUDY);
    /// Anywhere.
    pub const ANY: Scopes = Scopes::SOLO.and(Scopes::CLUB);
    /// Wherever the board shows the app's own game (not a room's).
    pub const OWN_GAME: Scopes = Scopes::SOLO.and(Scopes::LOBBY).and(Scopes::ENGINE);
    /// Wherever the engine may be seen: all but a player's room while the game goes on.
    pub const ENGINE_SEEN: Scopes = Scopes::OWN_GAME.and(Scopes::WATCHING).and(Scopes::STUDY);

    pub const fn and(self, other: Scopes) -> Scopes {
        Scopes(self.0 | other.0)
    }

    pub const fn has(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    pub const fn meets(self, other: Scopes) -> bool {
        self.0 & other.0 != 0
    }
}

/// What Tab offers for one word of a command's arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Words {
    /// Nothing to offer (a number, a file name, free text).
    Nothing,
    /// These words.
    Fixed(&'static [&'static str]),
    /// The evaluations, the ordering schemes, the modes, the named levels, the settings
    /// `:set` takes (and `save`), the right-hand views: lists the program knows.
    Eval,
    Order,
    Mode,
    Level,
    Setting,
    View,
    /// The colour themes there are (read from their folder).
    Theme,
    /// `:puzzle`'s words and the puzzle set's themes.
    Puzzle,
    /// Members online, other than oneself.
    Member,
    /// Members one has a challenge out to.
    Challenged,
    /// Rooms the lobby lists (waiting for an opponent, or with a game going on).
    Room,
    /// Numbers of the seeks and of the challenges to oneself (`:accept`).
    Offer,
    /// Numbers of the challenges to oneself (`:decline`).
    ChallengeToMe,
    /// Numbers of the games going on (`:watch`).
    Game,
    /// Studies the lobby lists.
    Study,
}

impl Words {
    /// True for the words only the session knows (the club's lobby, the theme folder, the
    /// puzzle set); the others are lists of the program's own.
    pub fn from_session(self) -> bool {
        matches!(
            self,
            Words::Theme
                | Words::Puzzle
                | Words::Member
                | Words::Challenged
                | Words::Room
                | Words::Offer
                | Words::ChallengeToMe
                | Words::Game
                | Words::Study
        )
    }
}

/// A seek's or challenge's words after the name, in any order.
const SEEK_WORDS: Words = Words::Fixed(&["white", "black", "rated", "casual", "none"]);
const TERMS: Words = Words::Fixed(&["rated", "casual", "none"]);

/// One command as the parser, the completion and the help know it.
#[derive(Clone, Copy, Debug)]
pub struct CommandSpec {
    pub name: &'static str,
    /// A word that names a variant of the command with its own row (`:seek off`).
    pub sub: Option<&'static str>,
    /// What it takes, as the help shows it.
    pub args: &'static str,
    pub help: &'static str,
    /// Where it may be used.
    pub scopes: Scopes,
    /// Where it may be given an argument, when that is narrower (`:fen` shows the
    /// position anywhere, but sets one up only on the app's own board).
    pub arg_scopes: Scopes,
    /// What Tab offers for the argument's words, by position.
    pub words: &'static [Words],
    /// What a bad or missing argument is told (the spec's args when empty; "takes no
    /// argument" for a command that takes none).
    pub usage: &'static str,
}

impl CommandSpec {
    /// A command of the app's, usable anywhere, taking no argument.
    const fn new(name: &'static str, help: &'static str) -> CommandSpec {
        CommandSpec {
            name,
            sub: None,
            args: "",
            help,
            scopes: Scopes::ANY,
            arg_scopes: Scopes::ANY,
            words: &[],
            usage: "",
        }
    }

    const fn args(mut self, args: &'static str, words: &'static [Words]) -> CommandSpec {
        self.args = args;
        self.words = words;
        self
    }

    const fn usage(mut self, usage: &'static str) -> CommandSpec {
        self.usage = usage;
        self
    }

    const fn only(mut self, scopes: Scopes) -> CommandSpec {
        self.scopes = scopes;
        self.arg_scopes = scopes;
        self
    }

    const fn arg_only(mut self, scopes: Scopes) -> CommandSpec {
        self.arg_scopes = scopes;
        self
    }

    /// A command of the club's.
    const fn club(name: &'static str, help: &'static str) -> CommandSpec {
        CommandSpec::new(name, help).only(Scopes::CLUB)
    }

    const fn sub(mut self, sub: &'static str) -> CommandSpec {
        self.sub = Some(sub);
        self
    }

    pub fn takes_args(&self) -> bool {
        !self.args.is_empty()
    }

    /// The command as the help writes it: `:challenge off NAME`.
    pub fn written(&self) -> String {
        let mut s = format!(":{}", self.name);
        for part in [self.sub.unwrap_or(""), self.args] {
            if !part.is_empty() {
                s.push(' ');
                s.push_str(part);
            }
        }
        s
    }

    /// The command's name as messages write it: `:seek off`.
    pub fn full_name(&self) -> String {
        match self.sub {
            Some(sub) => format!(":{} {sub}", self.name),
            None => format!(":{}", self.name),
        }
    }

    /// May it be used in `scope` (with an argument when `with_arg`)?
    pub fn allowed(&self, scope: Scope, with_arg: bool) -> bool {
        self.scopes.has(scope) && (!with_arg || self.arg_scopes.has(scope))
    }

    /// Is it known in `scope` at all? Outside the club, the club's commands are not.
    pub fn known(&self, scope: Scope) -> bool {
        scope != Scope::Solo || self.scopes.has(Scope::Solo)
    }
}

/// The app's commands that change the game on the board: not for a room's game.
const OWN: Scopes = Scopes::OWN_GAME;

/// Every command, in the order the help lists them: the app's, then the club's.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec::new("new", "new game from the start position").only(OWN),
    CommandSpec::new("undo", "take back a move").only(OWN),
    CommandSpec::new("redo", "replay a taken-back move").only(OWN),
    CommandSpec::new("fen", "show the position's FEN, or set one up")
        .args("[FEN]", &[])
        .arg_only(OWN),
    CommandSpec::new("depth", "search depth in plies")
        .args("N", &[])
        .usage(":depth needs a number from 1 to 127"),
    CommandSpec::new("flip", "turn the board around"),
    CommandSpec::new("eval", "evaluation the engine uses")
        .args("material|center|full|net", &[Words::Eval]),
    CommandSpec::new("order", "move ordering scheme")
        .args("none|mvvlva|mvvlva100|seed|modern", &[Words::Order]),
    CommandSpec::new(
        "mode",
        "who plays (you as White/Black, two humans, engine vs engine, analysis)",
    )
    .args("white|black|human|engine|analysis", &[Words::Mode])
    .only(OWN),
    CommandSpec::new("go", "the engine moves now").only(OWN),
    CommandSpec::new("stop", "stop the engine without moving"),
    CommandSpec::new("delay", "pause between moves in engine vs engine")
        .args("MS", &[])
        .usage(":delay needs milliseconds from 0 to 60000"),
    CommandSpec::new("save", "write the game as PGN")
        .args("FILE", &[])
        .usage(":save needs a file name, e.g. :save game.pgn"),
    CommandSpec::new("load", "read a game from PGN")
        .args("FILE", &[])
        .usage(":load needs a file name, e.g. :load game.pgn")
        .only(OWN),
    CommandSpec::new("tc", "time control, e.g. 5+3")
        .args("MIN+INC|off", &[Words::Fixed(&["off"])])
        .only(OWN),
    CommandSpec::new("resign", "resign the game").only(OWN),
    CommandSpec::new(
        "draw",
        "offer a draw (the engine decides; a person accepts with :draw)",
    )
    .only(OWN),
    CommandSpec::new("theme", "colour theme").args("NAME", &[Words::Theme]),
    CommandSpec::new("ascii", "pieces as letters")
        .args("[on|off]", &[Words::Fixed(&["on", "off"])])
        .usage(":ascii on, :ascii off, or :ascii to switch"),
    CommandSpec::new("games", "engine vs engine: play N games in a row")
        .args("N", &[])
        .usage(":games needs a number of games from 1 to 100000")
        .only(OWN),
    CommandSpec::new(
        "level",
        "how strongly the engine plays (800 to 2800, max: full strength)",
    )
    .args(
        "beginner|casual|club|expert|master|max|ELO",
        &[Words::Level],
    ),
    CommandSpec::new("multipv", "show the N best lines (1 to 8)")
        .args("N", &[])
        .usage(":multipv needs a number of lines from 1 to 8")
        .only(Scopes::ENGINE_SEEN),
    CommandSpec::new(
        "hint",
        "the engine's best move here, marked on the board, not played",
    )
    .only(Scopes::ENGINE_SEEN),
    CommandSpec::new(
        "review",
        "review the game in the background: marks, better moves, accuracy; deep: six times \
         the search, marks that agree more with a strong engine (a minute a game, not seconds)",
    )
    .args("[quick|deep]", &[])
    .usage(":review takes quick (the default) or deep")
    .only(Scopes::ENGINE_SEEN),
    CommandSpec::new(
        "puzzle",
        "solve a puzzle (Ctrl+O next, F2 shows the solution); off: back to the game",
    )
    .args("[THEME|RATING|mine|stats|show|off]", &[Words::Puzzle])
    .only(OWN),
    CommandSpec::new(
        "set",
        "list the settings, change one for this session, or save them to the file",
    )
    .args("[KEY VALUE|save]", &[Words::Setting])
    .usage(":set, :set save, or :set KEY VALUE (e.g. :set level club)"),
    CommandSpec::new(
        "lab",
        "ordering lab: this position under every scheme and profile (Esc stops)",
    )
    .args("[DEPTH]", &[])
    .usage(":lab takes a depth from 1 to 127, or none for the search depth")
    .only(Scopes::ENGINE_SEEN),
    CommandSpec::new("view", "what the right-hand side shows (F8 cycles)")
        .args("log|eval|chart|lab", &[Words::View]),
    CommandSpec::new(
        "tree",
        "tree browser: the last complete iteration's search tree (F10; Esc closes)",
    )
    .only(Scopes::ENGINE_SEEN),
    CommandSpec::new("help", "show keys and commands"),
    CommandSpec::new("quit", "leave (the game is saved)"),
    // ---- the club's (under `ox88 serve`) -------------------------------------------------
    CommandSpec::club(
        "lobby",
        "the lobby: who is online, seeks, challenges, games",
    ),
    CommandSpec::club("play", "play the engine (your seat in a room is kept)")
        .only(Scopes::LOBBY.and(Scopes::ENGINE)),
    CommandSpec::club("join", "join or open a room by name")
        .args("ROOM", &[Words::Room])
        .usage(":join ROOM (letters, digits, - and _)"),
    CommandSpec::club("watch", "watch game N of the lobby")
        .args("N", &[Words::Game])
        .usage(":watch N (the game's number in the lobby)"),
    CommandSpec::club("seek", "wait in the lobby for an opponent").args(
        "[5+3] [white|black] [rated|casual]",
        &[SEEK_WORDS, SEEK_WORDS, SEEK_WORDS],
    ),
    CommandSpec::club("seek", "take your seek out of the lobby").sub("off"),
    CommandSpec::club(
        "challenge",
        "challenge someone online (one each, 5 out at most)",
    )
    .args("NAME [10+0] [rated|casual]", &[Words::Member, TERMS, TERMS])
    .usage(":challenge NAME [10+0] [rated|casual]"),
    CommandSpec::club("challenge", "withdraw your challenge to NAME")
        .sub("off")
        .args("NAME", &[Words::Challenged])
        .usage(":challenge off NAME withdraws your challenge"),
    CommandSpec::club(
        "accept",
        "accept seek or challenge N (Enter on its lobby row)",
    )
    .args("N", &[Words::Offer])
    .usage(":accept N (the seek's or challenge's number)"),
    CommandSpec::club("decline", "turn down challenge N")
        .args("N", &[Words::ChallengeToMe])
        .usage(":decline N"),
    CommandSpec::club("say", "chat in the room ('TEXT does the same)")
        .args("TEXT", &[])
        .only(Scopes::ROOM),
    CommandSpec::club("draw", "offer a draw, or accept the offer").only(Scopes::ROOM),
    CommandSpec::club("resign", "resign the game").only(Scopes::ROOM),
    CommandSpec::club("abort", "end the game unplayed, before your first move").only(Scopes::ROOM),
    CommandSpec::club("takeback", "ask to take back, or accept the request").only(Scopes::ROOM),
    CommandSpec::club("no", "turn down the opponent's offer").only(Scopes::ROOM),
    CommandSpec::club("rematch", "after the game: offer or accept a rematch").only(Scopes::ROOM),
    CommandSpec::club(
        "claim",
        "win when the opponent has been away 60 s (adjourns if they were not back since a restart)",
    )
    .only(Scopes::ROOM),
    CommandSpec::club("color", "your colour, before the opponent comes")
        .args("white|black", &[Words::Fixed(&["white", "black"])])
        .usage(":color white|black")
        .only(Scopes::ROOM),
    CommandSpec::club("mute", "hide or show the chat (Ctrl+R)"),
    CommandSpec::club(
        "engine",
        "watching or in a study: the engine's panes on the board (Ctrl+V)",
    )
    .only(Scopes::WATCHING.and(Scopes::STUDY)),
    CommandSpec::club(
        "games",
        "your stored games, numbered, newest first (:pgn N shows one, :open N opens it)",
    ),
    CommandSpec::club(
        "members",
        "the club's members by rating; with a NAME, their rating history",
    )
    .args("[NAME]", &[])
    .usage(":members [NAME]"),
    CommandSpec::club("pgn", "the PGN of your stored game N, to copy")
        .args("N", &[])
        .usage(":pgn N (the number :games gives it)"),
    CommandSpec::club(
        "open",
        "your stored game N on your own board: step through it, :review it",
    )
    .args("N", &[])
    .usage(":open N (the number :games gives it)"),
    CommandSpec::club(
        "key",
        "a one-time code: log in with a new key as NAME+CODE to add it",
    )
    .sub("code")
    .usage(":key code: a one-time code that adds another key to your account"),
    CommandSpec::club(
        "tournament",
        "make a tournament (members): an arena of LENGTH, or a Swiss of N rounds; it starts at \
         once unless `in 10m`; bots enters the server's bots; you play after :tournament join",
    )
    .args(
        "arena|swiss 3+0 30m|N rounds [bots] [rated|casual] [in 10m]",
        &[
            Words::Fixed(&["arena", "swiss"]),
            TOURNAMENT_WORDS,
            TOURNAMENT_WORDS,
            TOURNAMENT_WORDS,
            TOURNAMENT_WORDS,
        ],
    )
    .usage(":tournament arena 3+0 30m [bots] [rated|casual] [in 10m], or :tournament swiss 5+3 5 rounds [every 20m] …"),
    CommandSpec::club(
        "tournament",
        "join tournament ID (Enter on its lobby row); in an arena, back after :pause",
    )
    .sub("join")
    .args("[ID]", &[])
    .usage(":tournament join [ID] (the lobby lists the ids)"),
    CommandSpec::club(
        "tournament",
        "withdraw from your tournament (the games played stay counted)",
    )
    .sub("leave")
    .args("[ID]", &[])
    .usage(":tournament leave [ID]"),
    CommandSpec::club("tournament", "end your tournament now (its organiser only)")
        .sub("end")
        .args("[ID]", &[])
        .usage(":tournament end [ID]"),
    CommandSpec::club(
        "standings",
        "a tournament's standings (Swiss: BH SB DE), its pairings with their rooms to :join, \
         the time left, and the podium at the end",
    )
    .args("[ID]", &[])
    .usage(":standings [ID] (your tournament's when none is said)"),
    CommandSpec::club(
        "pause",
        "arena: out of the pairing pool (your game goes on); :tournament join comes back",
    ),
    CommandSpec::club(
        "berserk",
        "arena: before your first move, half your clock and no increment; a win of 7 moves \
         or more earns a point more",
    )
    .only(Scopes::ROOM),
    CommandSpec::club(
        "study",
        "open your study NAME, or join one (everyone follows its cursor); after a game, a \
         study of it with the chat kept",
    )
    .args("NAME", &[Words::Study])
    .usage(":study NAME (letters, digits, - and _)"),
    CommandSpec::club("give", "study: let member NAME move too (its owner)")
        .args("NAME", &[Words::Member])
        .usage(":give NAME")
        .only(Scopes::STUDY),
    CommandSpec::club("take", "study: take back NAME's right to move (its owner)")
        .args("NAME", &[Words::Member])
        .usage(":take NAME")
        .only(Scopes::STUDY),
    CommandSpec::club("comment", "study: a comment on the move (none removes it)")
        .args("[TEXT]", &[])
        .only(Scopes::STUDY),
    CommandSpec::club("glyph", "study: mark the move ! ? !! ?? !? ?! (again takes it off)")
        .args("!|?|!!|??|!?|?!", &[Words::Fixed(&["!", "?", "!!", "??", "!?", "?!"])])
        .usage(":glyph takes ! ? !! ?? !? or ?!")
        .only(Scopes::STUDY),
    CommandSpec::club("mark", "study: mark a square on the board (again takes it off)")
        .args("SQUARE [green|red|yellow|blue]", &[Words::Nothing, MARK_COLOURS])
        .usage(":mark e4 [green|red|yellow|blue]")
        .only(Scopes::STUDY),
    CommandSpec::club("arrow", "study: an arrow on the board (again takes it off)")
        .args("FROMTO [green|red|yellow|blue]", &[Words::Nothing, MARK_COLOURS])
        .usage(":arrow e2e4 [green|red|yellow|blue]")
        .only(Scopes::STUDY),
    CommandSpec::club("promote", "study: this variation becomes the main line").only(Scopes::STUDY),
    CommandSpec::club("delete", "study: delete this move and all after it").only(Scopes::STUDY),
    CommandSpec::club(
        "chapter",
        "study: a new chapter from the start, a FEN, a PGN file of yours, club game N \
         (:games numbers them) or a pasted PGN; with a number, go to that chapter (PgUp/PgDn)",
    )
    .args(
        "NAME [FEN | FILE.pgn | game N | paste] | N",
        &[Words::Nothing, Words::Fixed(&["game", "paste"])],
    )
    .usage(":chapter NAME [FEN | FILE.pgn | game N | paste], or :chapter N")
    .only(Scopes::STUDY),
    CommandSpec::club("chapters", "study: its chapters, in the log").only(Scopes::STUDY),
    CommandSpec::club(
        "follow",
        "study: browse on your own, or back to the room's cursor (Ctrl+B)",
    )
    .only(Scopes::STUDY),
    CommandSpec::club("private", "study: only you and those given the right come in")
        .args("on|off", &[Words::Fixed(&["on", "off"])])
        .usage(":private on|off")
        .only(Scopes::STUDY),
];

/// A mark's colours, as `:mark` and `:arrow` take them.
const MARK_COLOURS: Words = Words::Fixed(&["green", "red", "yellow", "blue"]);

/// A tournament's words after its kind, in any order.
const TOURNAMENT_WORDS: Words = Words::Fixed(&["rounds", "every", "bots", "rated", "casual", "in"]);

/// What each of a Swiss's tie-breaks means, for the club's help (in the order they count).
pub const TIEBREAKS: [(&str, &str); 3] = [
    (
        "BH",
        "Swiss tie-break 1, Buchholz cut-1: your opponents' scores added up, less the lowest",
    ),
    (
        "SB",
        "tie-break 2, Sonneborn-Berger: the scores of those you beat, and half of those you drew",
    ),
    (
        "DE",
        "tie-break 3, direct encounter: your points in the games between the players level with you",
    ),
];

/// Other spellings of a command's name, taken as typed in full.
pub const ALIASES: &[(&str, &str)] = &[("colour", "color")];

/// The help's rows of commands: outside the club the app's, in it (`club`) the club's
/// own (the app's follow them there under their own heading).
pub fn help_rows(club: bool) -> impl Iterator<Item = (String, String)> {
    COMMANDS
        .iter()
        .filter(move |c| c.scopes.has(Scope::Solo) != club)
        .map(|c| (c.written(), c.help.to_string()))
}

/// The commands named `name` that are known in `scope`.
pub fn named(name: &str, scope: Scope) -> impl Iterator<Item = &'static CommandSpec> + '_ {
    COMMANDS
        .iter()
        .filter(move |c| c.name == name && c.known(scope))
}

/// The names usable in `scope` (once each, in the table's order).
pub fn names_in(scope: Scope) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for c in COMMANDS.iter().filter(|c| c.scopes.has(scope)) {
        if !names.contains(&c.name) {
            names.push(c.name);
        }
    }
    names
}

/// The names known in `scope`, usable there or not (once each, in the table's order).
pub fn names_known_in(scope: Scope) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for c in COMMANDS.iter().filter(|c| c.known(scope)) {
        if !names.contains(&c.name) {
            names.push(c.name);
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Scope; 6] = [
        Scope::Solo,
        Scope::Lobby,
        Scope::Engine,
        Scope::Playing,
        Scope::Watching,
        Scope::Studying,
    ];

    #[test]
    fn a_name_has_one_command_per_place_and_argument() {
        // Two rows of one name are told apart by where they are used, by their sub-word,
        // or (`:games` in the club) by whether an argument is given.
        for (i, a) in COMMANDS.iter().enumerate() {
            for b in &COMMANDS[i + 1..] {
                if a.name != b.name || a.sub != b.sub {
                    continue;
                }
                for scope in ALL {
                    let both = a.scopes.has(scope) && b.scopes.has(scope);
                    assert!(
                        !both || a.takes_args() != b.takes_args(),
                        "{} twice in {scope:?}",
                        a.written()
                    );
                }
            }
        }
    }

    #[test]
    fn the_club_help_lists_every_club_command_once_and_the_app_help_none() {
        let club: Vec<String> = help_rows(true).map(|(k, _)| k).collect();
        for want in [
            ":lobby",
            ":play",
            ":join ROOM",
            ":watch N",
            ":seek [5+3] [white|black] [rated|casual]",
            ":seek off",
            ":challenge NAME [10+0] [rated|casual]",
            ":challenge off NAME",
            ":accept N",
            ":decline N",
            ":say TEXT",
            ":draw",
            ":resign",
            ":abort",
            ":takeback",
            ":no",
            ":rematch",
            ":claim",
            ":color white|black",
            ":mute",
            ":engine",
            ":games",
            ":pgn N",
            ":open N",
            ":members [NAME]",
            ":key code",
            ":tournament arena|swiss 3+0 30m|N rounds [bots] [rated|casual] [in 10m]",
            ":tournament join [ID]",
            ":tournament leave [ID]",
            ":tournament end [ID]",
            ":standings [ID]",
            ":pause",
            ":berserk",
            ":study NAME",
            ":give NAME",
            ":take NAME",
            ":comment [TEXT]",
            ":glyph !|?|!!|??|!?|?!",
            ":mark SQUARE [green|red|yellow|blue]",
            ":arrow FROMTO [green|red|yellow|blue]",
            ":promote",
            ":delete",
            ":chapter NAME [FEN | FILE.pgn | game N | paste] | N",
            ":chapters",
            ":follow",
            ":private on|off",
        ] {
            assert_eq!(
                club.iter().filter(|k| *k == want).count(),
                1,
                "{want} in {club:?}"
            );
        }
        assert_eq!(club.len(), 46, "{club:?}");
        let solo: Vec<String> = help_rows(false).map(|(k, _)| k).collect();
        assert!(solo.iter().all(|k| !k.starts_with(":seek")), "{solo:?}");
        assert!(solo.contains(&":games N".to_string()));
        assert_eq!(solo.iter().filter(|k| *k == ":draw").count(), 1);
    }

    #[test]
    fn scopes_are_sets() {
        assert!(Scopes::ROOM.has(Scope::Playing) && Scopes::ROOM.has(Scope::Watching));
        assert!(!Scopes::OWN_GAME.meets(Scopes::ROOM));
        assert!(Scopes::ENGINE_SEEN.has(Scope::Watching));
        assert!(!Scopes::ENGINE_SEEN.has(Scope::Playing));
        assert!(Scope::Watching.in_room() && !Scope::Lobby.in_room());
        for scope in ALL {
            assert!(Scopes::ANY.has(scope));
            assert_eq!(Scopes::CLUB.has(scope), scope != Scope::Solo);
        }
    }
}
