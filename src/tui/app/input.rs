//! The input line: the text being typed (a `tui_input::Input`), the history of submitted
//! lines (Up/Down recall them, the unsent draft comes back at the end) and Tab completion
//! of `:` commands from the command table. Text that was refused stays, marked, so it can
//! be corrected; typing a character replaces it instead of adding to it.
//!
//! Both are bounded, whatever is typed or pasted (over SSH, by anyone): the line holds at
//! most [`LINE_MAX`] bytes, the history [`HISTORY_MAX`] lines; a paste goes in at once.

use crossterm::event::{Event as TermEvent, KeyEvent};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

use super::command;

/// The most bytes the line holds: longer than any move or command, short enough that a
/// paste or a stuck key costs nothing.
pub const LINE_MAX: usize = 4096;

/// The most submitted lines kept for recall; older ones are forgotten.
pub const HISTORY_MAX: usize = 200;

#[derive(Clone, Debug, Default)]
pub struct InputLine {
    input: Input,
    history: Vec<String>,
    /// Which history entry is shown (`None`: the draft being typed).
    history_pos: Option<usize>,
    draft: String,
    /// The text was refused (a move or command that failed): it is shown marked, and the
    /// next character typed starts a new text.
    refused: bool,
}

impl InputLine {
    pub fn value(&self) -> &str {
        self.input.value()
    }

    pub fn is_empty(&self) -> bool {
        self.input.value().is_empty()
    }

    /// The tui-input state, for drawing the cursor and the visible part.
    pub fn input(&self) -> &Input {
        &self.input
    }

    /// Was the text on the line refused?
    pub fn is_refused(&self) -> bool {
        self.refused
    }

    /// Marks the text as refused: it stays for correcting, and a character typed next
    /// replaces it.
    pub fn mark_refused(&mut self) {
        self.refused = !self.input.value().is_empty();
    }

    /// Edits the text with a key; true when the text or the cursor changed. On refused text
    /// a character starts a new text; any other edit (Backspace, arrows) corrects it.
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        if self.refused && Self::types_a_character(&key) {
            self.input.reset();
        }
        self.refused = false;
        // An edit that would make the line too long (a character, a yank) is not made.
        let before = self.input.clone();
        let mut changed = self.input.handle_event(&TermEvent::Key(key)).is_some();
        if self.input.value().len() > LINE_MAX {
            self.input = before;
            changed = false;
        }
        if changed {
            self.history_pos = None;
        }
        changed
    }

    fn types_a_character(key: &KeyEvent) -> bool {
        use crossterm::event::{KeyCode, KeyModifiers};
        matches!(key.code, KeyCode::Char(_))
            && !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    }

    /// Types `c` at the cursor; false (and nothing typed) when the line is full.
    pub fn insert_char(&mut self, c: char) -> bool {
        if std::mem::take(&mut self.refused) {
            self.input.reset();
        }
        if self.input.value().len() + c.len_utf8() > LINE_MAX {
            return false;
        }
        self.input.handle(tui_input::InputRequest::InsertChar(c));
        true
    }

    /// Puts `text` in at the cursor at once (a paste), as much of it as the line has room
    /// for; returns how many characters did not fit.
    pub fn insert_text(&mut self, text: &str) -> usize {
        if std::mem::take(&mut self.refused) {
            self.input.reset();
        }
        let value = self.input.value();
        let room = LINE_MAX.saturating_sub(value.len());
        let mut fits = text.len().min(room);
        while !text.is_char_boundary(fits) {
            fits -= 1;
        }
        let (taken, left) = text.split_at(fits);
        let cursor = self.input.cursor();
        let at = value
            .char_indices()
            .nth(cursor)
            .map_or(value.len(), |(i, _)| i);
        let mut line = String::with_capacity(value.len() + taken.len());
        line.push_str(&value[..at]);
        line.push_str(taken);
        line.push_str(&value[at..]);
        self.input = Input::new(line).with_cursor(cursor + taken.chars().count());
        self.history_pos = None;
        left.chars().count()
    }

    /// Lines kept for recall.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    pub fn clear(&mut self) {
        self.input.reset();
        self.history_pos = None;
        self.refused = false;
    }

    /// Keeps a submitted line for recall (a repeat of the last one is kept once).
    pub fn remember(&mut self, text: &str) {
        if self.history.last().map(String::as_str) != Some(text) {
            if self.history.len() >= HISTORY_MAX {
                self.history.remove(0);
            }
            self.history.push(text.chars().take(LINE_MAX).collect());
        }
        self.history_pos = None;
    }

    /// Up (`older`) and Down through the history.
    pub fn recall(&mut self, older: bool) {
        if self.history.is_empty() {
            return;
        }
        let pos = match (self.history_pos, older) {
            (None, true) => {
                self.draft = self.input.value().to_string();
                Some(self.history.len() - 1)
            }
            (None, false) => return,
            (Some(p), true) => Some(p.saturating_sub(1)),
            (Some(p), false) if p + 1 < self.history.len() => Some(p + 1),
            (Some(_), false) => None,
        };
        self.history_pos = pos;
        self.refused = false;
        let text = match pos {
            Some(p) => self.history[p].clone(),
            None => std::mem::take(&mut self.draft),
        };
        self.input = Input::new(text);
    }

    /// Tab: completes a command name usable in `scope` or a word of its argument, in
    /// place; returns the candidates when several remain. `session` gives the words only
    /// the session knows (see [`command::complete`]).
    pub fn complete(
        &mut self,
        scope: command::Scope,
        session: &mut dyn FnMut(command::Words) -> Vec<String>,
    ) -> Vec<String> {
        let c = command::complete(self.input.value(), scope, session);
        if c.text != self.input.value() {
            self.input = Input::new(c.text);
            self.refused = false;
        }
        c.candidates
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(text: &str) -> InputLine {
        let mut line = InputLine::default();
        for c in text.chars() {
            line.insert_char(c);
        }
        line
    }

    #[test]
    fn history_recalls_older_lines_and_gives_the_draft_back() {
        let mut line = InputLine::default();
        line.remember("e2e4");
        line.remember(":depth 5");
        line.remember(":depth 5");
        for c in "Nf".chars() {
            line.insert_char(c);
        }
        line.recall(true);
        assert_eq!(line.value(), ":depth 5");
        line.recall(true);
        assert_eq!(line.value(), "e2e4");
        line.recall(true);
        assert_eq!(line.value(), "e2e4");
        line.recall(false);
        assert_eq!(line.value(), ":depth 5");
        line.recall(false);
        assert_eq!(line.value(), "Nf");
    }

    #[test]
    fn the_line_and_its_history_are_bounded() {
        let mut line = InputLine::default();
        for _ in 0..LINE_MAX + 10 {
            line.insert_char('x');
        }
        assert_eq!(line.value().len(), LINE_MAX);
        assert!(!line.insert_char('y'), "a full line takes nothing more");
        let key = KeyEvent::from(crossterm::event::KeyCode::Char('z'));
        assert!(!line.handle_key(key), "a typed key neither");
        assert_eq!(line.value().len(), LINE_MAX);
        for n in 0..HISTORY_MAX + 50 {
            line.remember(&format!("e2e4 {n}"));
        }
        assert_eq!(line.history_len(), HISTORY_MAX);
        line.recall(true);
        assert_eq!(line.value(), format!("e2e4 {}", HISTORY_MAX + 49));
    }

    #[test]
    fn a_paste_goes_in_at_the_cursor_at_once_and_up_to_the_cap() {
        let mut line = typed("e4");
        line.input = line.input.clone().with_cursor(1);
        assert_eq!(line.insert_text("♞x"), 0);
        assert_eq!(line.value(), "e♞x4");
        assert_eq!(line.input().cursor(), 3);
        let mut line = InputLine::default();
        let long = "é".repeat(LINE_MAX);
        let dropped = line.insert_text(&long);
        assert!(line.value().len() <= LINE_MAX);
        assert_eq!(line.value().chars().count() + dropped, LINE_MAX);
        assert!(
            line.value().chars().all(|c| c == 'é'),
            "cut between characters"
        );
    }

    #[test]
    fn tab_completes_from_the_command_table() {
        let solo = command::Scope::Solo;
        let mut line = typed(":ga");
        assert!(line.complete(solo, &mut |_| Vec::new()).is_empty());
        assert_eq!(line.value(), ":games ");
        let mut line = typed(":d");
        let candidates = line.complete(solo, &mut |_| Vec::new());
        assert_eq!(candidates, vec![":depth", ":delay", ":draw"]);
        // In the club's lobby its own commands join in, and their arguments complete.
        let lobby = command::Scope::Lobby;
        let mut line = typed(":acc");
        line.complete(lobby, &mut |_| Vec::new());
        assert_eq!(line.value(), ":accept ");
        let mut line = typed(":chal b");
        line.complete(lobby, &mut |_| vec!["bob".to_string(), "carol".to_string()]);
        assert_eq!(line.value(), ":challenge bob");
    }
}
