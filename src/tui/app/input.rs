//! The input line: the text being typed (a `tui_input::Input`), the history of submitted
//! lines (Up/Down recall them, the unsent draft comes back at the end) and Tab completion
//! of `:` commands from the command table. Text that was refused stays, marked, so it can
//! be corrected; typing a character replaces it instead of adding to it.

use crossterm::event::{Event as TermEvent, KeyEvent};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

use super::command;

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
        let changed = self.input.handle_event(&TermEvent::Key(key)).is_some();
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

    pub fn insert_char(&mut self, c: char) {
        if std::mem::take(&mut self.refused) {
            self.input.reset();
        }
        self.input.handle(tui_input::InputRequest::InsertChar(c));
    }

    pub fn clear(&mut self) {
        self.input.reset();
        self.history_pos = None;
        self.refused = false;
    }

    /// Keeps a submitted line for recall (a repeat of the last one is kept once).
    pub fn remember(&mut self, text: &str) {
        if self.history.last().map(String::as_str) != Some(text) {
            self.history.push(text.to_string());
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
