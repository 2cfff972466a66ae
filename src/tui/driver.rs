//! The one event loop behind every screen: the terminal (`tui::run`) and each SSH channel
//! (`serve`) drive an `App` through it. A loop turn draws, waits for the next event or the
//! next moment something is due (the app's ticks, the front end's own timers), handles that
//! event and whatever else is already queued — but no longer than a frame, so the screen
//! keeps up with a burst of engine events — then ticks the app. Idle, it blocks in `recv`
//! and costs no CPU.
//!
//! What differs between front ends sits behind [`Front`]: how a frame reaches the screen,
//! what an event means (a key, SSH bytes, a resize, the engine), and why the loop ends.

use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Instant;

use super::app::{App, FRAME};

/// A front end's side of the loop.
pub trait Front {
    /// What arrives on the front end's channel.
    type Event;
    /// Why the loop ended.
    type End;

    /// Draws the app. `Ok(Some(t))`: draw again at `t` even if nothing happens (a frame the
    /// client could not take yet); `Err(end)` ends the loop.
    fn draw(&mut self, app: &mut App) -> Result<Option<Instant>, Self::End>;

    /// A moment of the front end's own to wake at (an escape key's timeout, an idle limit).
    fn wake_at(&self) -> Option<Instant> {
        None
    }

    /// One event; `Some(end)` ends the loop.
    fn handle(&mut self, app: &mut App, ev: Self::Event) -> Option<Self::End>;

    /// After a frame's events, before the app's tick; `Some(end)` ends the loop.
    fn tick(&mut self, _app: &mut App, _now: Instant) -> Option<Self::End> {
        None
    }

    /// The end when the app asks to quit.
    fn quit(&mut self) -> Self::End;

    /// The end when every sender of the channel is gone.
    fn disconnected(&mut self) -> Self::End;
}

/// Runs `app` on the events of `rx` until the front end or the app ends it.
pub fn run<F: Front>(app: &mut App, rx: &Receiver<F::Event>, front: &mut F) -> F::End {
    loop {
        let redraw_at = match front.draw(app) {
            Ok(t) => t,
            Err(end) => return end,
        };
        app.frame_drawn();
        let now = Instant::now();
        let wake = [app.next_wakeup(now), front.wake_at(), redraw_at]
            .into_iter()
            .flatten()
            .min();
        let first = match wake {
            Some(t) => match rx.recv_timeout(t.saturating_duration_since(now)) {
                Ok(ev) => Some(ev),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return front.disconnected(),
            },
            None => match rx.recv() {
                Ok(ev) => Some(ev),
                Err(_) => return front.disconnected(),
            },
        };
        // Take what else is waiting (a burst of engine events) before drawing again, but
        // not forever: the screen must keep up.
        let frame_end = Instant::now() + FRAME;
        let mut next = first;
        while let Some(ev) = next.take() {
            if let Some(end) = front.handle(app, ev) {
                return end;
            }
            if app.quit_requested() || Instant::now() >= frame_end {
                break;
            }
            next = rx.try_recv().ok();
        }
        let now = Instant::now();
        if let Some(end) = front.tick(app, now) {
            return end;
        }
        app.on_tick(now);
        if app.quit_requested() {
            return front.quit();
        }
    }
}
