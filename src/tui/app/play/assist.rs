//! What helps the player move: the engine's last hint (shown while its position is on the
//! board, named in the next move's comment) and a premove (typed while the engine thinks,
//! played when it has moved, if legal then).

use crate::chess::Move;

/// The engine's suggestion for the position `hash`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub hash: u64,
    pub mv: Move,
    pub san: String,
}

/// The hint and the premove.
#[derive(Clone, Debug, Default)]
pub struct Assist {
    hint: Option<Hint>,
    premove: Option<String>,
}

impl Assist {
    /// The last hint (shown while its position is on the board).
    pub fn hint(&self) -> Option<&Hint> {
        self.hint.as_ref()
    }

    pub fn set_hint(&mut self, hint: Hint) {
        self.hint = Some(hint);
    }

    /// The last hint, once: the next human move's comment names it.
    pub fn take_hint(&mut self) -> Option<Hint> {
        self.hint.take()
    }

    /// A move typed while the engine thinks.
    pub fn premove(&self) -> Option<&str> {
        self.premove.as_deref()
    }

    /// Keeps `text` to play when the engine has moved; returns the premove it replaced.
    pub fn set_premove(&mut self, text: String) -> Option<String> {
        self.premove.replace(text)
    }

    pub fn take_premove(&mut self) -> Option<String> {
        self.premove.take()
    }
}
