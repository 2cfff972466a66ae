//! Time controls and a chess clock. The clock never reads the system time itself: every call
//! takes the `Instant` it happens at, so tests drive it without sleeping and the TUI passes
//! `Instant::now()`.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use crate::chess::{ByColor, Color};
use crate::engine::Limits;

/// A time control: a base time, a Fischer increment added after each of a player's moves,
/// and optionally a number of moves after which the base time is added again (`40/90+30`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
    /// Moves per period; `None` for sudden death (plus increment).
    pub moves: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TimeControlError(pub String);

/// The longest base time accepted (a day): more is surely a typo, and it keeps every sum
/// far from `Duration` overflow.
const MAX_BASE: Duration = Duration::from_secs(24 * 3600);
const MAX_INCREMENT: Duration = Duration::from_secs(3600);

fn parse_amount(
    text: &str,
    unit: f64,
    what: &str,
    whole: &str,
) -> Result<Duration, TimeControlError> {
    let bad = || {
        TimeControlError(format!(
            "{whole}: the {what} '{text}' is not a number (write a time control as MIN+INC, e.g. 5+3, or MOVES/MIN+INC, e.g. 40/90+30)"
        ))
    };
    if text.is_empty() || !text.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(bad());
    }
    let v: f64 = text.parse().map_err(|_| bad())?;
    let secs = v * unit;
    if !secs.is_finite() || secs > MAX_BASE.as_secs_f64() {
        return Err(TimeControlError(format!("{whole}: the {what} is too long")));
    }
    // Millisecond precision is all a clock shows.
    Ok(Duration::from_millis((secs * 1000.0).round() as u64))
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `5+3` (minutes + seconds of increment), `90+30`, `5` (no increment), `40/90+30`
    /// (40 moves in 90 minutes, again and again, plus 30 s a move). Minutes may have a
    /// fraction (`0.5+1`).
    fn from_str(s: &str) -> Result<TimeControl, TimeControlError> {
        let whole = s.trim();
        let (moves, rest) = match whole.split_once('/') {
            Some((m, rest)) => {
                let n: u32 = m.trim().parse().map_err(|_| {
                    TimeControlError(format!("{whole}: '{}' is not a number of moves", m.trim()))
                })?;
                if n == 0 {
                    return Err(TimeControlError(format!(
                        "{whole}: a period needs at least one move"
                    )));
                }
                (Some(n), rest)
            }
            None => (None, whole),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b.trim(), Some(i.trim())),
            None => (rest.trim(), None),
        };
        let base = parse_amount(base, 60.0, "base time in minutes", whole)?;
        let increment = match inc {
            Some(i) => parse_amount(i, 1.0, "increment in seconds", whole)?,
            None => Duration::ZERO,
        };
        if increment > MAX_INCREMENT {
            return Err(TimeControlError(format!(
                "{whole}: the increment is too long"
            )));
        }
        if base.is_zero() && increment.is_zero() {
            return Err(TimeControlError(format!(
                "{whole}: a time control needs some time"
            )));
        }
        Ok(TimeControl {
            base,
            increment,
            moves,
        })
    }
}

/// Minutes as the user typed them: `5`, `0.5`.
fn minutes_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(60_000) {
        format!("{}", ms / 60_000)
    } else {
        let m = format!("{:.3}", ms as f64 / 60_000.0);
        m.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn seconds_text(d: Duration) -> String {
    let ms = d.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

impl fmt::Display for TimeControl {
    /// The form `from_str` reads: `5+3`, `1+0`, `40/90+30`, `40/90`. Sudden death always
    /// says its increment, `+0` included: a bare `1` reads as a count, not a time control.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.moves {
            write!(f, "{n}/")?;
        }
        write!(f, "{}", minutes_text(self.base))?;
        if self.moves.is_none() || !self.increment.is_zero() {
            write!(f, "+{}", seconds_text(self.increment))?;
        }
        Ok(())
    }
}

impl TimeControl {
    /// Each side's time before the first move: the base time, or, with no base time
    /// (`0+2`), one increment. The increment is paid after a move, so a clock that started
    /// at zero would flag at the first move it runs for; giving the increment before the
    /// first flag check (as Fischer's own rule for a zero base and the common servers do)
    /// lets every move have at least its increment to be made in.
    pub fn start_time(&self) -> Duration {
        if self.base.is_zero() {
            self.increment
        } else {
            self.base
        }
    }

    /// The PGN `TimeControl` tag (standard 9.6.1): seconds, `300+3`, `40/5400+30`.
    pub fn pgn_tag(&self) -> String {
        let mut s = String::new();
        if let Some(n) = self.moves {
            s.push_str(&format!("{n}/"));
        }
        s.push_str(&seconds_text(self.base));
        if !self.increment.is_zero() {
            s.push('+');
            s.push_str(&seconds_text(self.increment));
        }
        s
    }

    /// Reads the PGN `TimeControl` tag's simple forms (`300+3`, `40/5400+30`, `600`);
    /// `None` for `?`, `-` and the forms a clock here cannot model.
    pub fn from_pgn_tag(tag: &str) -> Option<TimeControl> {
        let (moves, rest) = match tag.split_once('/') {
            Some((m, rest)) => (Some(m.parse::<u32>().ok().filter(|&n| n > 0)?), rest),
            None => (None, tag),
        };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let base = parse_amount(base, 1.0, "base", tag).ok()?;
        let increment = parse_amount(inc, 1.0, "increment", tag).ok()?;
        if increment > MAX_INCREMENT || base.is_zero() && increment.is_zero() {
            return None;
        }
        Some(TimeControl {
            base,
            increment,
            moves,
        })
    }
}

/// A two-sided chess clock. At most one side runs at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Time left as of the last start/stop/switch (the running side's live time is this
    /// minus the time since it started).
    remaining: ByColor<Duration>,
    /// Moves completed by each side, for the `moves` period.
    moves_done: ByColor<u32>,
    running: Option<(Color, Instant)>,
    flagged: Option<Color>,
}

impl Clock {
    /// Both sides with their start time ([`TimeControl::start_time`]), stopped.
    pub fn new(tc: TimeControl) -> Clock {
        let start = tc.start_time();
        Clock {
            tc,
            remaining: ByColor::new(start, start),
            moves_done: ByColor::default(),
            running: None,
            flagged: None,
        }
    }

    pub fn time_control(&self) -> TimeControl {
        self.tc
    }

    /// Which side's clock is running.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// `side`'s time left at `now` (zero once it has run out).
    pub fn remaining(&self, side: Color, now: Instant) -> Duration {
        let stored = *self.remaining.get(side);
        match self.running {
            Some((c, since)) if c == side => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Sets `side`'s time left (resuming a saved game). Stops nothing.
    pub fn set_remaining(&mut self, side: Color, left: Duration) {
        *self.remaining.get_mut(side) = left;
    }

    /// The side whose time has run out by `now`, if any. A flag, once fallen, stays.
    pub fn flag(&self, now: Instant) -> Option<Color> {
        if self.flagged.is_some() {
            return self.flagged;
        }
        let (c, _) = self.running?;
        self.remaining(c, now).is_zero().then_some(c)
    }

    /// Starts `side`'s clock (stopping the other one first if it was running).
    pub fn start(&mut self, side: Color, now: Instant) {
        self.stop(now);
        if self.flagged.is_none() {
            self.running = Some((side, now));
        }
    }

    /// Stops the running clock, charging it the time it ran.
    pub fn stop(&mut self, now: Instant) {
        if let Some((c, _)) = self.running {
            let left = self.remaining(c, now);
            *self.remaining.get_mut(c) = left;
            if left.is_zero() {
                self.flagged = Some(c);
            }
            self.running = None;
        }
    }

    /// The running side has completed a move at `now`: its time is charged, the increment
    /// (and at the end of a period the base time again) is added, and the other side's clock
    /// starts. If the mover had run out before moving, its flag falls instead and both
    /// clocks stop; the flagged side is returned.
    pub fn switch(&mut self, now: Instant) -> Option<Color> {
        let (mover, _) = self.running?;
        self.stop(now);
        if self.flagged.is_some() {
            return self.flagged;
        }
        let done = self.moves_done.get_mut(mover);
        *done += 1;
        let done = *done;
        let mut bonus = self.tc.increment;
        if let Some(n) = self.tc.moves
            && done.is_multiple_of(n)
        {
            bonus += self.tc.base;
        }
        let left = self.remaining.get_mut(mover);
        *left = left.saturating_add(bonus);
        self.running = Some((mover.flip(), now));
        None
    }

    /// Moves `side` still has to make in this period (`None` in sudden death).
    pub fn moves_to_go(&self, side: Color) -> Option<u32> {
        let n = self.tc.moves?;
        Some(n - self.moves_done.get(side) % n)
    }

    /// Fills the clock fields of search limits (UCI `wtime`, `btime`, `winc`, `binc`,
    /// `movestogo`) as of `now`, for the engine to manage its own time.
    pub fn fill_limits(&self, limits: &mut Limits, side: Color, now: Instant) {
        limits.wtime = Some(self.remaining(Color::White, now));
        limits.btime = Some(self.remaining(Color::Black, now));
        limits.winc = Some(self.tc.increment);
        limits.binc = Some(self.tc.increment);
        limits.movestogo = self.moves_to_go(side);
    }
}

/// A clock reading for a status bar: `1:02:03`, `4:59`, and tenths under ten seconds
/// (`9.8`) when every tenth matters.
pub fn format_clock(d: Duration) -> String {
    let ms = d.as_millis();
    if ms < 10_000 {
        return format!("{}.{}", ms / 1000, (ms % 1000) / 100);
    }
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn parses_the_usual_forms() {
        assert_eq!(
            tc("5+3"),
            TimeControl {
                base: Duration::from_secs(300),
                increment: Duration::from_secs(3),
                moves: None
            }
        );
        assert_eq!(tc(" 90+30 ").base, Duration::from_secs(5400));
        assert_eq!(tc("40/90+30").moves, Some(40));
        assert_eq!(tc("0.5+1").base, Duration::from_secs(30));
        assert_eq!(tc("3").increment, Duration::ZERO);
        for s in ["5+3", "90+30", "40/90+30", "0.5+1", "3+0", "1+0.5", "40/90"] {
            assert_eq!(tc(s).to_string(), s);
            assert_eq!(TimeControl::from_pgn_tag(&tc(s).pgn_tag()), Some(tc(s)));
        }
        // Sudden death without an increment says `+0`, however it was written.
        assert_eq!(tc("1").to_string(), "1+0");
        assert_eq!(tc("1+0").to_string(), "1+0");
        assert_eq!(tc("40/90+30").pgn_tag(), "40/5400+30");
    }

    #[test]
    fn rejects_nonsense_with_a_reason() {
        for (s, why) in [
            ("", "not a number"),
            ("5+x", "increment in seconds 'x' is not a number"),
            ("abc", "base time in minutes 'abc' is not a number"),
            ("0/5+3", "at least one move"),
            ("x/5", "'x' is not a number of moves"),
            ("0+0", "needs some time"),
            ("99999999+1", "too long"),
            ("-5+3", "not a number"),
            ("1e9+0", "not a number"),
        ] {
            let e = s.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains(why), "{s}: {e}");
        }
    }

    #[test]
    fn a_clock_with_no_base_time_starts_with_one_increment() {
        let t0 = Instant::now();
        assert_eq!(tc("5+3").start_time(), Duration::from_secs(300));
        assert_eq!(tc("0+3").start_time(), Duration::from_secs(3));
        let mut c = Clock::new(tc("0+3"));
        assert_eq!(c.remaining(Color::White, t0), Duration::from_secs(3));
        c.start(Color::White, t0);
        // A move in 1 s: 3 - 1 + 3; no flag.
        assert_eq!(c.switch(t0 + Duration::from_secs(1)), None);
        assert_eq!(
            c.remaining(Color::White, t0 + Duration::from_secs(1)),
            Duration::from_secs(5)
        );
        assert_eq!(c.flag(t0 + Duration::from_secs(3)), None);
        assert_eq!(c.flag(t0 + Duration::from_secs(4)), Some(Color::Black));
    }

    #[test]
    fn clock_charges_time_adds_increment_and_switches() {
        let t0 = Instant::now();
        let mut c = Clock::new(tc("5+3"));
        c.start(Color::White, t0);
        assert_eq!(
            c.remaining(Color::White, t0 + Duration::from_secs(10)),
            Duration::from_secs(290)
        );
        assert_eq!(c.switch(t0 + Duration::from_secs(10)), None);
        assert_eq!(
            c.remaining(Color::White, t0 + Duration::from_secs(50)),
            Duration::from_secs(293)
        );
        assert_eq!(c.running(), Some(Color::Black));
        assert_eq!(
            c.remaining(Color::Black, t0 + Duration::from_secs(70)),
            Duration::from_secs(240)
        );
        c.stop(t0 + Duration::from_secs(70));
        assert_eq!(
            c.remaining(Color::Black, t0 + Duration::from_secs(500)),
            Duration::from_secs(240)
        );
        assert_eq!(c.flag(t0 + Duration::from_secs(500)), None);
    }

    #[test]
    fn flag_falls_when_time_runs_out() {
        let t0 = Instant::now();
        let mut c = Clock::new(tc("1+0"));
        c.start(Color::White, t0);
        assert_eq!(c.flag(t0 + Duration::from_millis(59_999)), None);
        assert_eq!(c.flag(t0 + Duration::from_secs(60)), Some(Color::White));
        // Moving after the flag fell does not save White, and adds no increment.
        assert_eq!(c.switch(t0 + Duration::from_secs(61)), Some(Color::White));
        assert_eq!(c.running(), None);
        assert_eq!(
            c.remaining(Color::White, t0 + Duration::from_secs(61)),
            Duration::ZERO
        );
        c.start(Color::Black, t0 + Duration::from_secs(62));
        assert_eq!(c.running(), None, "a fallen flag stops the game clock");
    }

    #[test]
    fn periods_add_the_base_again() {
        let t0 = Instant::now();
        let mut c = Clock::new(tc("2/1"));
        c.start(Color::White, t0);
        let mut now = t0;
        for _ in 0..2 {
            now += Duration::from_secs(10);
            assert_eq!(c.switch(now), None); // White moves
            now += Duration::from_secs(1);
            assert_eq!(c.switch(now), None); // Black moves
        }
        // White used 20 s of 60 and got 60 more after the second move.
        assert_eq!(c.remaining(Color::White, now), Duration::from_secs(100));
        assert_eq!(c.moves_to_go(Color::White), Some(2));
        let mut limits = Limits::default();
        c.fill_limits(&mut limits, Color::White, now + Duration::from_secs(5));
        assert_eq!(limits.wtime, Some(Duration::from_secs(95)));
        assert_eq!(limits.btime, Some(Duration::from_secs(118)));
        assert_eq!(limits.movestogo, Some(2));
    }

    #[test]
    fn formats_readings() {
        assert_eq!(format_clock(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(format_clock(Duration::from_secs(299)), "4:59");
        assert_eq!(format_clock(Duration::from_millis(9_870)), "9.8");
        assert_eq!(format_clock(Duration::ZERO), "0.0");
    }
}
