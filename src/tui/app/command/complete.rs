//! Tab on the input line: a command name among those usable where it is typed, then the
//! argument's words the table says it takes (a listed word, a theme, a member online, a
//! room, a lobby number).

use strum::VariantArray;

use super::parse::resolve;
use super::table::{self, CommandSpec, Scope, Words};
use crate::club::LobbyView;
use crate::engine::eval::EvalMode;
use crate::engine::order::Scheme;
use crate::tui::Mode;
use crate::tui::view::View;

/// The result of pressing Tab on the input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    /// The new input text (unchanged when nothing could be added).
    pub text: String,
    /// The candidates, when more than one remains (shown on the status line).
    pub candidates: Vec<String>,
}

/// Completes a command name (`:fl` → `:flip `) or a word of its argument (`:eval ma` →
/// `:eval material`, `:challenge b` → `:challenge bob`), in place. A unique name gets a
/// trailing space when it takes arguments; several matches extend to their common prefix
/// and are listed. `session` gives the words only the session knows (see
/// [`Words::from_session`]); it is asked only for the word being completed.
pub fn complete(
    text: &str,
    scope: Scope,
    session: &mut dyn FnMut(Words) -> Vec<String>,
) -> Completion {
    let unchanged = |candidates: Vec<String>| Completion {
        text: text.to_string(),
        candidates,
    };
    let Some(body) = text.strip_prefix(':') else {
        return unchanged(Vec::new());
    };
    let Some((word, rest)) = body.split_once(' ') else {
        return complete_name(body, scope).unwrap_or_else(|| unchanged(Vec::new()));
    };
    let Ok(name) = resolve(word, scope) else {
        return unchanged(Vec::new());
    };
    let rows: Vec<&CommandSpec> = table::named(name, scope)
        .filter(|c| c.scopes.has(scope))
        .collect();
    let rest = rest.trim_start();
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    let current = if rest.is_empty() || rest.ends_with(char::is_whitespace) {
        ""
    } else {
        words.pop().unwrap_or("")
    };
    let current_lc = current.to_ascii_lowercase();
    let choices: Vec<String> = choices(&rows, &words, session)
        .into_iter()
        .filter(|c| c.to_ascii_lowercase().starts_with(&current_lc))
        .collect();
    let mut lead = format!(":{name} ");
    for w in &words {
        lead.push_str(w);
        lead.push(' ');
    }
    match choices.as_slice() {
        [] => unchanged(Vec::new()),
        [one] => Completion {
            text: format!("{lead}{one}"),
            candidates: Vec::new(),
        },
        many => Completion {
            text: format!("{lead}{}", common_prefix(many)),
            candidates: many.to_vec(),
        },
    }
}

/// A command name among those usable in `scope`; `None` when none starts so.
fn complete_name(word: &str, scope: Scope) -> Option<Completion> {
    let word = word.to_ascii_lowercase();
    let names: Vec<&str> = table::names_in(scope)
        .into_iter()
        .filter(|n| n.starts_with(&word))
        .collect();
    match names.as_slice() {
        [] => None,
        [one] => {
            let takes_args = table::named(one, scope)
                .any(|c| c.scopes.has(scope) && (c.takes_args() || c.sub.is_some()));
            Some(Completion {
                text: format!(":{one}{}", if takes_args { " " } else { "" }),
                candidates: Vec::new(),
            })
        }
        many => {
            let many: Vec<String> = many.iter().map(|n| n.to_string()).collect();
            Some(Completion {
                text: format!(":{}", common_prefix(&many)),
                candidates: many.iter().map(|n| format!(":{n}")).collect(),
            })
        }
    }
}

/// The words Tab may offer after `done` words of a command of `rows` (the rows of one
/// name usable here): first the sub-words (`off`) and the first word of the plain rows,
/// then the words of the row `done` chose.
fn choices(
    rows: &[&CommandSpec],
    done: &[&str],
    session: &mut dyn FnMut(Words) -> Vec<String>,
) -> Vec<String> {
    let mut kinds: Vec<Words> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    let sub_row = done
        .first()
        .and_then(|w| {
            rows.iter()
                .find(|c| c.sub.is_some_and(|s| s.eq_ignore_ascii_case(w)))
        })
        .copied();
    match sub_row {
        Some(row) => kinds.extend(row.words.get(done.len() - 1)),
        None => {
            for row in rows {
                match row.sub {
                    Some(sub) if done.is_empty() => out.push(sub.to_string()),
                    Some(_) => {}
                    None => kinds.extend(row.words.get(done.len())),
                }
            }
        }
    }
    for kind in kinds {
        for w in words_of(kind, session) {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// The words of one kind: the program's own lists, and the session's.
fn words_of(kind: Words, session: &mut dyn FnMut(Words) -> Vec<String>) -> Vec<String> {
    let mut listed: Vec<String> = match kind {
        Words::Fixed(words) => words.iter().map(|w| w.to_string()).collect(),
        Words::Eval => EvalMode::ALL.iter().map(|m| m.name().to_string()).collect(),
        Words::Order => Scheme::ALL.iter().map(|s| s.name().to_string()).collect(),
        Words::Mode => Mode::VARIANTS.iter().map(Mode::to_string).collect(),
        Words::Level => crate::engine::levels::NAMED
            .iter()
            .map(|(n, _)| n.to_string())
            .collect(),
        Words::Setting => std::iter::once("save".to_string())
            .chain(
                <crate::tui::settings::Setting as VariantArray>::VARIANTS
                    .iter()
                    .map(|k| k.to_string()),
            )
            .collect(),
        Words::View => View::ALL.iter().map(|v| v.name().to_string()).collect(),
        Words::Puzzle => ["mine", "stats", "show", "off"].map(String::from).to_vec(),
        _ => Vec::new(),
    };
    if kind.from_session() {
        listed.extend(session(kind));
    }
    listed
}

/// The words of one kind the club's lobby gives: members online, rooms, numbers.
pub fn lobby_words(kind: Words, lobby: &LobbyView) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |w: String| {
        if !out.contains(&w) {
            out.push(w);
        }
    };
    let me = lobby.me.as_str();
    match kind {
        Words::Member => lobby
            .online
            .iter()
            .filter(|o| o.name != me)
            .for_each(|o| add(o.name.clone())),
        Words::Challenged => lobby
            .challenges
            .iter()
            .filter(|c| c.from == me)
            .for_each(|c| add(c.to.clone())),
        Words::Room => {
            lobby.waiting.iter().for_each(|w| add(w.room.clone()));
            lobby.games.iter().for_each(|g| add(g.room.clone()));
            lobby
                .online
                .iter()
                .filter_map(|o| o.room.clone())
                .for_each(&mut add);
        }
        Words::Offer => {
            lobby
                .challenges
                .iter()
                .filter(|c| c.to == me)
                .for_each(|c| add(c.number.to_string()));
            lobby
                .seeks
                .iter()
                .filter(|s| s.name != me)
                .for_each(|s| add(s.number.to_string()));
        }
        Words::ChallengeToMe => lobby
            .challenges
            .iter()
            .filter(|c| c.to == me)
            .for_each(|c| add(c.number.to_string())),
        Words::Game => lobby.games.iter().for_each(|g| add(g.number.to_string())),
        Words::Study => lobby.studies.iter().for_each(|s| add(s.name.clone())),
        _ => {}
    }
    out
}

/// The longest start all `words` share (by characters, so a name in any script is cut
/// whole).
fn common_prefix(words: &[String]) -> String {
    let Some(first) = words.first() else {
        return String::new();
    };
    let mut len = first.chars().count();
    for w in &words[1..] {
        len = len.min(
            first
                .chars()
                .zip(w.chars())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    first.chars().take(len).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Color;
    use crate::club::lobby::{ChallengeView, GameView, OnlineView, SeekView, WaitingView};

    fn solo(text: &str, lists: &dyn Fn(Words) -> Vec<String>) -> Completion {
        complete(text, Scope::Solo, &mut |w| lists(w))
    }

    #[test]
    fn tab_completes_names_then_arguments() {
        let lists = |kind: Words| match kind {
            Words::Theme => vec!["default".to_string(), "dark-sea".to_string()],
            Words::Puzzle => vec!["fork".to_string(), "mateIn2".to_string()],
            _ => Vec::new(),
        };
        assert_eq!(solo(":fl", &lists).text, ":flip");
        assert_eq!(solo(":ev", &lists).text, ":eval ");
        let c = solo(":de", &lists);
        assert_eq!(c.text, ":de");
        assert_eq!(c.candidates, vec![":depth", ":delay"]);
        assert_eq!(solo(":eval ma", &lists).text, ":eval material");
        assert_eq!(solo(":order mvv", &lists).text, ":order mvvlva");
        assert_eq!(solo(":theme da", &lists).text, ":theme dark-sea");
        let c = solo(":theme d", &lists);
        assert_eq!(c.candidates.len(), 2);
        assert_eq!(solo("e2e4", &lists).text, "e2e4");
        assert_eq!(solo(":zz", &lists).text, ":zz");
        // Past the words a command takes, nothing is offered.
        assert_eq!(solo(":set level cl", &lists).text, ":set level cl");
        // Outside the club its commands are not offered.
        assert_eq!(solo(":acc", &lists).text, ":acc");
        assert_eq!(solo(":se", &lists).text, ":set ");
    }

    #[test]
    fn view_and_puzzle_complete_their_arguments() {
        let lists = |kind: Words| match kind {
            Words::Puzzle => vec!["fork".to_string(), "mateIn2".to_string(), "mate".into()],
            _ => Vec::new(),
        };
        assert_eq!(solo(":view ch", &lists).text, ":view chart");
        assert_eq!(solo(":vi l", &lists).candidates, vec!["log", "lab"]);
        let all = solo(":view ", &lists).candidates;
        for v in View::ALL {
            assert!(all.contains(&v.name().to_string()), "{all:?}");
        }
        assert_eq!(solo(":puzzle mi", &lists).text, ":puzzle mine");
        assert_eq!(solo(":puzzle fo", &lists).text, ":puzzle fork");
        assert_eq!(solo(":puzzle MATEI", &lists).text, ":puzzle mateIn2");
        let c = solo(":puzzle s", &lists);
        assert_eq!(c.candidates, vec!["stats", "show"]);
    }

    /// A lobby as alice sees it: bob and carol online (carol in den, where a game goes
    /// on), a seek of bob's, a challenge from carol to alice and one from alice to bob,
    /// dan waiting in room "nook".
    fn lobby() -> LobbyView {
        let online = |name: &str, room: Option<&str>| OnlineView {
            name: name.into(),
            rating: None,
            room: room.map(String::from),
        };
        let challenge = |number, from: &str, to: &str| ChallengeView {
            number,
            from: from.into(),
            to: to.into(),
            time_control: None,
            rated: false,
        };
        LobbyView {
            online: vec![
                online("alice", None),
                online("bob", None),
                online("carol", Some("den")),
                online("dan", Some("nook")),
            ],
            seeks: vec![SeekView {
                number: 3,
                name: "bob".into(),
                rating: None,
                time_control: None,
                color: None,
                rated: false,
            }],
            challenges: vec![challenge(7, "carol", "alice"), challenge(8, "alice", "bob")],
            studies: vec![crate::club::lobby::StudyRow {
                name: "najdorf".into(),
                owner: "carol".into(),
                chapters: 2,
                present: 1,
                private: false,
                mine: false,
            }],
            games: vec![GameView {
                number: 12,
                room: "den".into(),
                white: "carol".into(),
                black: "erin".into(),
                clocks: None,
                move_number: 4,
                watchers: 0,
            }],
            waiting: vec![WaitingView {
                room: "nook".into(),
                name: "dan".into(),
                rating: None,
                time_control: None,
                color: Color::White,
                rated: false,
            }],
            tournaments: Vec::new(),
            me: "alice".into(),
            my_rating: None,
        }
    }

    #[test]
    fn the_lobby_gives_names_rooms_and_numbers() {
        let l = lobby();
        assert_eq!(lobby_words(Words::Member, &l), vec!["bob", "carol", "dan"]);
        assert_eq!(lobby_words(Words::Challenged, &l), vec!["bob"]);
        assert_eq!(lobby_words(Words::Room, &l), vec!["nook", "den"]);
        assert_eq!(lobby_words(Words::Offer, &l), vec!["7", "3"]);
        assert_eq!(lobby_words(Words::ChallengeToMe, &l), vec!["7"]);
        assert_eq!(lobby_words(Words::Game, &l), vec!["12"]);
        assert_eq!(lobby_words(Words::Study, &l), vec!["najdorf"]);
        assert!(lobby_words(Words::Eval, &l).is_empty());
    }

    #[test]
    fn club_commands_complete_their_names_and_arguments() {
        let l = lobby();
        let lists = |kind: Words| lobby_words(kind, &l);
        let club = |text: &str| complete(text, Scope::Lobby, &mut |w| lists(w));
        assert_eq!(club(":chal").text, ":challenge ");
        assert_eq!(club(":acc").text, ":accept ");
        assert_eq!(club(":key").text, ":key ");
        assert_eq!(club(":key ").text, ":key code");
        assert_eq!(club(":challenge b").text, ":challenge bob");
        assert_eq!(club(":chal c").text, ":challenge carol");
        let c = club(":challenge ");
        assert_eq!(c.candidates, vec!["off", "bob", "carol", "dan"]);
        assert_eq!(club(":challenge off ").text, ":challenge off bob");
        assert_eq!(club(":challenge bob ra").text, ":challenge bob rated");
        assert_eq!(club(":join n").text, ":join nook");
        assert_eq!(club(":join ").candidates, vec!["nook", "den"]);
        assert_eq!(club(":accept ").candidates, vec!["7", "3"]);
        assert_eq!(club(":decline ").text, ":decline 7");
        assert_eq!(club(":watch ").text, ":watch 12");
        assert_eq!(club(":seek o").text, ":seek off");
        assert_eq!(club(":seek 5+3 bl").text, ":seek 5+3 black");
        let c = club(":d");
        assert_eq!(c.candidates, vec![":depth", ":delay", ":draw", ":decline"]);
        // In a room, the room's commands; what is not for a room is not offered.
        let room = |text: &str| complete(text, Scope::Playing, &mut |w| lists(w));
        assert_eq!(room(":tak").text, ":takeback");
        assert_eq!(room(":col").text, ":color ");
        assert_eq!(room(":color b").text, ":color black");
        assert_eq!(room(":ne").text, ":ne");
        assert_eq!(room(":hi").text, ":hi");
    }
}
