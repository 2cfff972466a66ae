//! One table maps keys to actions; the help overlay is generated from the same table, so
//! what it says is what the keys do. Keys that are ordinary characters (`+`, `-`, `?`) only
//! act when the input line is empty, so they never get in the way of typing a move or a
//! command; each such action also has a key that always works.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Everything a key can ask for. The names are what the settings file's `[keys]` table
/// and `:set keys.NAME` take (`depth-up`, `multipv`).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[strum(serialize_all = "kebab-case")]
pub enum Action {
    Quit,
    Help,
    /// The focused pane's legend: what each of its numbers is.
    Legend,
    DepthUp,
    DepthDown,
    /// The engine moves now: stops a running search and plays its best move so far, or
    /// starts one for the side to move.
    EngineMove,
    /// Stops the engine without playing anything.
    Stop,
    NewGame,
    Undo,
    Redo,
    Flip,
    /// Tab: completes a `:command`, otherwise moves focus to the next pane.
    Tab,
    FocusPrev,
    /// Up/Down: earlier input on the input line, a line of scrolling in a pane.
    Up,
    Down,
    PageUp,
    PageDown,
    /// Home/End in the log or sort pane: to the top or the bottom.
    Top,
    Bottom,
    /// Left/Right in the sort pane: step along the principal variation.
    PvBack,
    PvForward,
    /// Enter: play the move or run the command.
    Submit,
    /// Esc: close the help, clear the input, or stop the engine.
    Cancel,
    /// The engine's best move here, shown and not played.
    Hint,
    /// Show 1, 2, 3, 4 lines in turn (MultiPV).
    #[strum(serialize = "multipv")]
    CycleMultiPv,
    /// Review the game (`:review`).
    Review,
    /// The next puzzle (`:puzzle`), chosen as the last one was.
    Puzzle,
    /// Cycle what the right-hand side shows: log, evaluation, E chart, lab.
    View,
    /// The evaluation pane: show the position at the end of the engine's PV beside this one.
    EvalPvEnd,
    /// Open (or close) the tree browser on the last completed iteration's tree.
    Tree,
    /// Tree browser: into the selected child.
    TreeInto,
    /// Tree browser: back up to the parent.
    TreeBack,
    /// Tree browser: show the newest tree (keeping the place when its moves are there).
    TreeReload,
    /// The board shows the position a move earlier (the game itself is not touched).
    StepBack,
    /// The board shows the position a move later, up to the game's own.
    StepForward,
    /// Turn the board cursor on or off: moves chosen with the arrows and Enter.
    BoardCursor,
}

impl Action {
    /// What the help overlay says about the action.
    pub fn describe(self) -> &'static str {
        match self {
            Action::Quit => "quit (the game is saved)",
            Action::Help => "show or hide this help",
            Action::Legend => {
                "what the focused pane's numbers are, in place (↑/↓ scroll, any other key closes)"
            }
            Action::DepthUp => "search one ply deeper",
            Action::DepthDown => "search one ply shallower",
            Action::EngineMove => "engine moves now (takes over the side to move)",
            Action::Stop => "stop the engine without moving",
            Action::NewGame => "new game",
            Action::Undo => "take back a move (yours and the engine's reply)",
            Action::Redo => "replay a taken-back move",
            Action::Flip => "turn the board around",
            Action::Tab => "complete a :command, else focus the next pane",
            Action::FocusPrev => "focus the previous pane",
            Action::Up => "input: earlier entry; pane: scroll up; tree: select the child above",
            Action::Down => "input: later entry; pane: scroll down; tree: the child below",
            Action::PageUp => "scroll the focused pane (log if input) a page up",
            Action::PageDown => "scroll the focused pane (log if input) a page down",
            Action::Top => "log or sort pane: to the top; tree: the first child",
            Action::Bottom => {
                "log or sort pane: to the bottom (the log follows new lines); tree: the last child"
            }
            Action::PvBack => "sort pane: one ply back along the PV",
            Action::PvForward => "sort pane: one ply further along the PV",
            Action::Submit => "play the move / run the :command",
            Action::Hint => {
                "hint: the engine's best move, marked, not played (in a puzzle: the solution)"
            }
            Action::CycleMultiPv => "show 1, 2, 3 or 4 best lines in turn (:multipv N)",
            Action::Review => "review the game: marks, better moves, accuracy (Esc cancels)",
            Action::Puzzle => "the next puzzle (:puzzle THEME or RATING chooses)",
            Action::Cancel => {
                "close help, clear input, cancel a premove, close the tree browser, stop the lab or the engine"
            }
            Action::View => "show the log, evaluation, E chart or lab view in turn",
            Action::EvalPvEnd => "evaluation: compare with the end of the engine's PV",
            Action::Tree => {
                "tree browser: the last iteration's search tree (↑/↓ select, Esc closes)"
            }
            Action::TreeInto => "tree browser: into the selected child (its position on the board)",
            Action::TreeBack => "tree browser: back up to the parent",
            Action::TreeReload => {
                "tree browser: load the newest tree (it never replaces yours by itself)"
            }
            Action::StepBack => {
                "look a move back in the game, moves kept (End or Esc: back to the game; typing too)"
            }
            Action::StepForward => "look a move further, up to the game's position",
            Action::BoardCursor => {
                "board cursor: arrows move it, Enter/Space picks a piece then its square, Esc leaves"
            }
        }
    }
}

/// When a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    Always,
    /// Only while the input line is empty (the key is also a character one could type).
    InputEmpty,
    /// Only while a pane (not the input line) has the focus.
    PaneFocused,
    /// Only while this pane has the focus: a pane's own keys (typing a character gives the
    /// focus to the input line, so these never fight a move or a command being typed).
    Focused(Focus),
    /// Only while the input line has the focus and is empty (a focused pane keeps its own
    /// meaning for the key: ← and → step the sort pane's PV, and the tree browser).
    InputIdle,
}

/// Which part of the screen has the keyboard: the input line, or a pane by its name. Each
/// pane names its own (`pane::sort::FOCUS` is `sort pane`), so a new pane needs no entry
/// here; the help writes a pane's own keys with its name (`← (sort pane)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Focus(&'static str);

impl Focus {
    /// The input line.
    pub const INPUT: Focus = Focus("input line");

    /// A pane's focus, by the name the help calls it.
    pub const fn named(name: &'static str) -> Focus {
        Focus(name)
    }

    pub fn name(self) -> &'static str {
        self.0
    }
}

/// One key (code plus exact modifiers) bound to an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    pub code: KeyCode,
    pub mods: KeyModifiers,
    pub when: When,
    pub action: Action,
}

pub const fn bind(code: KeyCode, mods: KeyModifiers, when: When, action: Action) -> Binding {
    Binding {
        code,
        mods,
        when,
        action,
    }
}

pub const NONE: KeyModifiers = KeyModifiers::NONE;
pub const CTRL: KeyModifiers = KeyModifiers::CONTROL;
pub const SHIFT: KeyModifiers = KeyModifiers::SHIFT;
pub const ALT: KeyModifiers = KeyModifiers::ALT;

/// The key table of the whole screen; each pane adds its own keys (`pane::key_table` puts
/// them first, so that they win over a key's usual meaning while the pane is focused).
/// Order matters only for the help overlay (first key of an action first).
/// Ctrl keys are chosen to avoid the terminal's and tmux/screen's own (Ctrl-B, Ctrl-A) and
/// flow control (Ctrl-S, Ctrl-Q).
pub const DEFAULT_KEYS: &[Binding] = &[
    bind(KeyCode::Enter, NONE, When::Always, Action::Submit),
    bind(KeyCode::F(1), NONE, When::Always, Action::Help),
    bind(KeyCode::Char('?'), NONE, When::PaneFocused, Action::Legend),
    bind(KeyCode::Char('?'), SHIFT, When::PaneFocused, Action::Legend),
    bind(KeyCode::Char('?'), NONE, When::InputEmpty, Action::Help),
    bind(KeyCode::Char('?'), SHIFT, When::InputEmpty, Action::Help),
    bind(KeyCode::F(6), NONE, When::Always, Action::DepthUp),
    bind(KeyCode::Up, CTRL, When::Always, Action::DepthUp),
    bind(KeyCode::Char('+'), NONE, When::InputEmpty, Action::DepthUp),
    bind(KeyCode::Char('+'), SHIFT, When::InputEmpty, Action::DepthUp),
    bind(KeyCode::F(5), NONE, When::Always, Action::DepthDown),
    bind(KeyCode::Down, CTRL, When::Always, Action::DepthDown),
    bind(
        KeyCode::Char('-'),
        NONE,
        When::InputEmpty,
        Action::DepthDown,
    ),
    bind(KeyCode::Char('g'), CTRL, When::Always, Action::EngineMove),
    bind(KeyCode::F(9), NONE, When::Always, Action::EngineMove),
    bind(KeyCode::Char('x'), CTRL, When::Always, Action::Stop),
    bind(KeyCode::Esc, NONE, When::Always, Action::Cancel),
    bind(KeyCode::Char('n'), CTRL, When::Always, Action::NewGame),
    bind(KeyCode::Char('z'), CTRL, When::Always, Action::Undo),
    bind(KeyCode::Char('y'), CTRL, When::Always, Action::Redo),
    bind(KeyCode::Char('f'), CTRL, When::Always, Action::Flip),
    bind(KeyCode::Tab, NONE, When::Always, Action::Tab),
    bind(KeyCode::BackTab, SHIFT, When::Always, Action::FocusPrev),
    bind(KeyCode::BackTab, NONE, When::Always, Action::FocusPrev),
    bind(KeyCode::Up, NONE, When::Always, Action::Up),
    bind(KeyCode::Down, NONE, When::Always, Action::Down),
    bind(KeyCode::PageUp, NONE, When::Always, Action::PageUp),
    bind(KeyCode::PageDown, NONE, When::Always, Action::PageDown),
    bind(KeyCode::Home, NONE, When::PaneFocused, Action::Top),
    bind(KeyCode::End, NONE, When::PaneFocused, Action::Bottom),
    bind(KeyCode::Left, ALT, When::Always, Action::PvBack),
    bind(KeyCode::Right, ALT, When::Always, Action::PvForward),
    bind(KeyCode::Left, NONE, When::InputIdle, Action::StepBack),
    bind(KeyCode::Right, NONE, When::InputIdle, Action::StepForward),
    bind(KeyCode::Char('p'), CTRL, When::Always, Action::BoardCursor),
    bind(KeyCode::F(2), NONE, When::Always, Action::Hint),
    bind(KeyCode::F(3), NONE, When::Always, Action::CycleMultiPv),
    bind(KeyCode::F(4), NONE, When::Always, Action::Review),
    bind(KeyCode::Char('o'), CTRL, When::Always, Action::Puzzle),
    bind(KeyCode::F(12), NONE, When::Always, Action::Puzzle),
    bind(KeyCode::F(8), NONE, When::Always, Action::View),
    bind(KeyCode::F(7), NONE, When::Always, Action::EvalPvEnd),
    bind(KeyCode::F(10), NONE, When::Always, Action::Tree),
    bind(KeyCode::Char('t'), CTRL, When::Always, Action::Tree),
    bind(KeyCode::Char('c'), CTRL, When::Always, Action::Quit),
    bind(KeyCode::Char('d'), CTRL, When::InputEmpty, Action::Quit),
];

/// The action for a key press, if any. Release and repeat-free terminals send only presses;
/// terminals with the kitty protocol also send releases, which must not act twice.
pub fn action_for(
    table: &[Binding],
    key: &KeyEvent,
    input_empty: bool,
    focus: Focus,
) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    // Terminals disagree on whether Shift is reported with shifted characters ('?', '+');
    // the table lists both forms where it matters.
    table
        .iter()
        .find(|b| {
            b.code == key.code
                && b.mods == key.modifiers
                && match b.when {
                    When::Always => true,
                    When::InputEmpty => input_empty,
                    When::PaneFocused => focus != Focus::INPUT,
                    When::Focused(pane) => focus == pane,
                    When::InputIdle => input_empty && focus == Focus::INPUT,
                }
        })
        .map(|b| b.action)
}

/// How a key is written in the help: `Ctrl+G`, `F6`, `Ctrl+↑`.
pub fn key_name(code: KeyCode, mods: KeyModifiers) -> String {
    let base = match code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) if mods.contains(CTRL) => c.to_ascii_uppercase().to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift+Tab".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::Backspace => "Backspace".into(),
        other => format!("{other:?}"),
    };
    let mut s = String::new();
    if mods.contains(CTRL) {
        s.push_str("Ctrl+");
    }
    if mods.contains(ALT) {
        s.push_str("Alt+");
    }
    s + &base
}

/// One help row per action: the action's keys (with a note for the conditional ones) and
/// its description, in the order of the action's first key that is not a pane's own; the
/// actions only a pane has come last (the panes' keys come first in the table only so that
/// they win over a key's usual meaning).
pub fn help_rows(table: &[Binding]) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(Action, Vec<String>)> = Vec::new();
    for b in table {
        // Shifted duplicates ('?' with and without Shift) are one key to a person.
        if b.mods == SHIFT && matches!(b.code, KeyCode::Char(_) | KeyCode::BackTab) {
            continue;
        }
        let mut name = key_name(b.code, b.mods);
        match b.when {
            When::InputEmpty => name.push_str(" (empty input)"),
            When::Focused(pane) => name.push_str(&format!(" ({})", pane.name())),
            When::PaneFocused => name.push_str(" (log/sort/tree)"),
            When::InputIdle => name.push_str(" (empty input)"),
            When::Always => {}
        }
        match rows.iter_mut().find(|(a, _)| *a == b.action) {
            Some((_, keys)) => keys.push(name),
            None => rows.push((b.action, vec![name])),
        }
    }
    let shared_at = |a: Action| {
        table
            .iter()
            .filter(|b| !matches!(b.when, When::Focused(_)))
            .position(|b| b.action == a)
            .unwrap_or(usize::MAX)
    };
    rows.sort_by_key(|(a, _)| shared_at(*a));
    rows.into_iter()
        .map(|(a, keys)| (keys.join(", "), a.describe()))
        .collect()
}
