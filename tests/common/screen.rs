//! A VT100 screen fed with what a program writes to its terminal, read back as text: the
//! whole screen, one row, and the status bar and message line the TUI keeps at the bottom.

use std::num::NonZeroU16;

pub struct Screen {
    parser: vt100::Parser,
    rows: u16,
    cols: u16,
}

impl Screen {
    pub fn new(rows: u16, cols: u16) -> Screen {
        Screen {
            parser: vt100::Parser::new(nonzero(rows), nonzero(cols), 0),
            rows,
            cols,
        }
    }

    /// Takes in bytes the program wrote.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.parser.process(bytes);
    }

    pub fn resize(&mut self, rows: u16, cols: u16) {
        self.parser
            .screen_mut()
            .set_size(nonzero(rows), nonzero(cols));
        self.rows = rows;
        self.cols = cols;
    }

    /// The whole screen as text, a line a row (trailing blanks dropped).
    pub fn text(&self) -> String {
        self.parser.screen().contents()
    }

    pub fn rows(&self) -> Vec<String> {
        self.parser.screen().rows(0, self.cols).collect()
    }

    /// Row `n` from the top (empty past the bottom).
    pub fn row(&self, n: u16) -> String {
        self.parser
            .screen()
            .rows(0, self.cols)
            .nth(n.into())
            .unwrap_or_default()
    }

    /// The last row: the TUI's status bar.
    pub fn status(&self) -> String {
        self.row(self.rows - 1)
    }

    /// The row above the status bar: the TUI's message line.
    pub fn message(&self) -> String {
        self.row(self.rows - 2)
    }

    /// Whether the program is on the alternate screen (a full-screen TUI runs there).
    pub fn alternate_screen(&self) -> bool {
        self.parser.screen().alternate_screen()
    }
}

fn nonzero(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).expect("a screen of at least one row and column")
}
