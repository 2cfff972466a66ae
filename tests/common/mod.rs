//! Helpers shared by the integration tests.

pub mod app;
pub mod search;
pub mod uci;

/// A small deterministic generator (xorshift64*): reproducible randomness without a crate,
/// so a failing random test replays exactly.
pub struct Rng(pub u64);

#[allow(dead_code)] // each test crate uses its own subset
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Draws `app` on a `w`×`h` test terminal as a driver would (resize, then draw) and returns
/// the screen's lines and its buffer (for styles).
#[allow(dead_code)] // only the TUI test crates draw
pub fn render(app: &mut ox88::tui::App, w: u16, h: u16) -> (Vec<String>, ratatui::buffer::Buffer) {
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        app.resize(f.area());
        ox88::tui::ui::draw(f, app)
    })
    .unwrap();
    let buf = term.backend().buffer().clone();
    let lines = (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect();
    (lines, buf)
}
