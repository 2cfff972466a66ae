//! What a member asks for when creating a tournament, read from the words they typed after
//! `:tournament`: `arena 3+0 30m [bots] [rated|casual] [in 10m]` or
//! `swiss 5+3 5 rounds [every 20m] [bots] [rated|casual] [in 10m]`. Anything a peer types is read here,
//! so every refusal says which word was wrong and nothing panics.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::game::clock::TimeControl;

/// The shortest arena.
pub const ARENA_MIN: Duration = Duration::from_secs(2 * 60);
/// The longest arena.
pub const ARENA_MAX: Duration = Duration::from_secs(6 * 3600);
/// Rounds of a Swiss at most.
pub const SWISS_ROUNDS_MAX: u32 = 15;
/// The shortest and longest time between a Swiss's scheduled rounds.
pub const ROUND_EVERY_MIN: Duration = Duration::from_secs(60);
pub const ROUND_EVERY_MAX: Duration = Duration::from_secs(6 * 3600);
/// The latest start one may ask for (`in …`).
pub const START_MAX: Duration = Duration::from_secs(24 * 3600);

/// The two kinds of tournament and what each needs beyond the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    /// Play as many games as one can for `duration`.
    Arena { duration: Duration },
    /// A fixed number of rounds, paired by the FIDE Dutch system; with `every`, round N
    /// starts no sooner than (N − 1) × `every` after the first (else as soon as the round
    /// before it is over).
    Swiss {
        rounds: u32,
        #[serde(default)]
        every: Option<Duration>,
    },
}

/// A tournament as its organiser asked for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Spec {
    pub kind: Kind,
    pub time_control: TimeControl,
    /// Every bot of the server entered at once.
    pub bots: bool,
    /// Games rated (between rated members); the default.
    pub rated: bool,
    /// How long after creation it starts (zero: at once).
    pub starts_in: Duration,
}

/// Why the words do not make a tournament.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

fn bad(text: impl Into<String>) -> SpecError {
    SpecError(text.into())
}

/// A length such as `30m`, `90s`, `2h` or `1h30m`.
pub fn parse_duration(word: &str) -> Option<Duration> {
    let word = word.to_ascii_lowercase();
    if word.is_empty() || word.len() > 12 {
        return None;
    }
    let mut total: u64 = 0;
    let mut digits = String::new();
    for c in word.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        let unit = match c {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            _ => return None,
        };
        let n: u64 = digits.parse().ok()?;
        total = total.checked_add(n.checked_mul(unit)?)?;
        digits.clear();
    }
    if !digits.is_empty() {
        return None;
    }
    Some(Duration::from_secs(total))
}

/// A length as this module reads it back (`1h30m`, `45m`, `30s`).
pub fn duration_text(d: Duration) -> String {
    let s = d.as_secs();
    let (h, m, sec) = (s / 3600, s % 3600 / 60, s % 60);
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}h"));
    }
    if m > 0 {
        out.push_str(&format!("{m}m"));
    }
    if sec > 0 || out.is_empty() {
        out.push_str(&format!("{sec}s"));
    }
    out
}

/// A word shown in a refusal: short and printable, whatever was typed.
fn shown(word: &str) -> String {
    word.chars()
        .filter(|c| !c.is_control())
        .take(16)
        .collect::<String>()
}

impl FromStr for Spec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Spec, SpecError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some((&kind, rest)) = words.split_first() else {
            return Err(bad(
                "say arena or swiss: `arena 3+0 30m` or `swiss 5+3 5 rounds`",
            ));
        };
        let arena = match kind.to_ascii_lowercase().as_str() {
            "arena" => true,
            "swiss" => false,
            _ => {
                return Err(bad(format!(
                    "{:?} is not a kind of tournament: arena or swiss",
                    shown(kind)
                )));
            }
        };
        let (mut tc, mut length, mut rounds, mut every) = (None, None, None, None);
        let (mut bots, mut rated, mut starts_in) = (false, true, Duration::ZERO);
        let mut i = 0;
        while i < rest.len() {
            let word = rest[i];
            let lower = word.to_ascii_lowercase();
            let next = rest.get(i + 1).map(|w| w.to_ascii_lowercase());
            match lower.as_str() {
                "bots" => bots = true,
                "rated" => rated = true,
                "casual" | "unrated" => rated = false,
                "in" => {
                    let d = next
                        .as_deref()
                        .and_then(parse_duration)
                        .ok_or_else(|| bad("`in` wants a length: `in 10m`, `in 1h`".to_string()))?;
                    if d > START_MAX {
                        return Err(bad(format!(
                            "a tournament starts within {} at the latest",
                            duration_text(START_MAX)
                        )));
                    }
                    starts_in = d;
                    i += 1;
                }
                "every" if !arena => {
                    let d = next.as_deref().and_then(parse_duration).ok_or_else(|| {
                        bad("`every` wants a length: `every 20m`, `every 1h`".to_string())
                    })?;
                    if !(ROUND_EVERY_MIN..=ROUND_EVERY_MAX).contains(&d) {
                        return Err(bad(format!(
                            "rounds start every {} to {}",
                            duration_text(ROUND_EVERY_MIN),
                            duration_text(ROUND_EVERY_MAX)
                        )));
                    }
                    every = Some(d);
                    i += 1;
                }
                _ if lower.contains('+') => {
                    let t: TimeControl = word.parse().map_err(|_| {
                        bad(format!(
                            "{:?} is not a clock: minutes+increment, like 3+0",
                            shown(word)
                        ))
                    })?;
                    if t.moves.is_some() || t.base.is_zero() && t.increment.is_zero() {
                        return Err(bad(format!(
                            "{:?}: a tournament's clock is minutes+increment, like 3+2",
                            shown(word)
                        )));
                    }
                    tc = Some(t);
                }
                _ if !arena
                    && lower.bytes().all(|b| b.is_ascii_digit())
                    && matches!(next.as_deref(), Some("rounds" | "round")) =>
                {
                    let n: u32 = lower.parse().unwrap_or(0);
                    if !(1..=SWISS_ROUNDS_MAX).contains(&n) {
                        return Err(bad(format!("a Swiss has 1 to {SWISS_ROUNDS_MAX} rounds")));
                    }
                    rounds = Some(n);
                    i += 1;
                }
                _ if arena && parse_duration(&lower).is_some() => {
                    length = parse_duration(&lower);
                }
                _ => {
                    return Err(bad(format!(
                        "{:?} is not understood here: {}",
                        shown(word),
                        if arena {
                            "arena CLOCK LENGTH [bots] [rated|casual] [in WHEN]"
                        } else {
                            "swiss CLOCK N rounds [every LENGTH] [bots] [rated|casual] [in WHEN]"
                        }
                    )));
                }
            }
            i += 1;
        }
        let time_control = tc.ok_or_else(|| bad("say the clock: 3+0, 5+3…"))?;
        let kind = if arena {
            let duration = length.ok_or_else(|| bad("say how long the arena lasts: 30m, 1h"))?;
            if !(ARENA_MIN..=ARENA_MAX).contains(&duration) {
                return Err(bad(format!(
                    "an arena lasts from {} to {}",
                    duration_text(ARENA_MIN),
                    duration_text(ARENA_MAX)
                )));
            }
            Kind::Arena { duration }
        } else {
            let rounds = rounds.ok_or_else(|| bad("say how many rounds: `5 rounds`"))?;
            Kind::Swiss { rounds, every }
        };
        Ok(Spec {
            kind,
            time_control,
            bots,
            rated,
            starts_in,
        })
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Arena { duration } => {
                write!(f, "arena {} {}", self.time_control, duration_text(duration))?
            }
            Kind::Swiss { rounds, every } => {
                write!(f, "swiss {} {rounds} rounds", self.time_control)?;
                if let Some(e) = every {
                    write!(f, " every {}", duration_text(e))?;
                }
            }
        }
        if self.bots {
            f.write_str(" bots")?;
        }
        f.write_str(if self.rated { " rated" } else { " casual" })?;
        if !self.starts_in.is_zero() {
            write!(f, " in {}", duration_text(self.starts_in))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_two_kinds_read_with_their_options_in_any_order() {
        let a: Spec = "arena 3+0 30m".parse().unwrap();
        assert_eq!(
            a.kind,
            Kind::Arena {
                duration: Duration::from_secs(1800)
            }
        );
        assert!(a.rated && !a.bots && a.starts_in.is_zero());
        let a: Spec = "ARENA casual 1h bots 1+0 in 10m".parse().unwrap();
        assert!(!a.rated && a.bots);
        assert_eq!(a.starts_in, Duration::from_secs(600));
        assert_eq!(a.time_control.to_string(), "1+0");
        let s: Spec = "swiss 5+3 5 rounds bots in 1h30m".parse().unwrap();
        assert_eq!(
            s.kind,
            Kind::Swiss {
                rounds: 5,
                every: None
            }
        );
        let every: Spec = "swiss 3+2 4 rounds every 20m".parse().unwrap();
        assert_eq!(
            every.kind,
            Kind::Swiss {
                rounds: 4,
                every: Some(Duration::from_secs(1200))
            }
        );
        assert_eq!(every.to_string(), "swiss 3+2 4 rounds every 20m rated");
        assert_eq!(s.starts_in, Duration::from_secs(5400));
        assert_eq!(s.to_string(), "swiss 5+3 5 rounds bots rated in 1h30m");
        assert_eq!(s.to_string().parse::<Spec>().unwrap(), s);
    }

    #[test]
    fn each_refusal_says_what_was_wrong() {
        let err = |t: &str| t.parse::<Spec>().unwrap_err().0;
        assert!(err("").contains("arena or swiss"));
        assert!(err("league 3+0").contains("not a kind"));
        assert!(err("arena 30m").contains("clock"));
        assert!(err("arena 3+0").contains("how long"));
        assert!(err("arena 3+0 1m").contains("from 2m"));
        assert!(err("swiss 3+0").contains("how many rounds"));
        assert!(err("swiss 3+0 0 rounds").contains("1 to 15"));
        assert!(err("swiss 3+0 5 rounds in").contains("`in` wants"));
        assert!(err("swiss 3+0 5 rounds every").contains("`every` wants"));
        assert!(err("swiss 3+0 5 rounds every 10s").contains("every 1m to 6h"));
        assert!(err("arena 3+0 30m every 5m").contains("not understood"));
        assert!(err("swiss 3+0 5 rounds in 48h").contains("within 24h"));
        assert!(err("arena 3+0 30m soon").contains("\"soon\" is not understood"));
        assert!(err("arena x+y 30m").contains("not a clock"));
        assert!(err("arena 0+0 30m").contains("minutes+increment"));
    }

    proptest! {
        /// Whatever a peer types, reading it never panics, and what reads back as a
        /// tournament writes out as words that read back the same.
        #[test]
        fn any_text_is_read_or_refused_without_panic(text in "\\PC{0,60}") {
            if let Ok(spec) = text.parse::<Spec>() {
                prop_assert_eq!(spec.to_string().parse::<Spec>(), Ok(spec));
            }
        }

        #[test]
        fn words_of_the_grammar_in_any_mix_never_panic(
            words in proptest::collection::vec(
                prop_oneof![
                    Just("arena".to_string()), Just("swiss".to_string()),
                    Just("bots".to_string()), Just("rated".to_string()),
                    Just("casual".to_string()), Just("in".to_string()),
                    Just("rounds".to_string()), "[0-9]{1,12}", "[0-9]{1,4}[smh]",
                    "[0-9]{1,3}\\+[0-9]{1,3}", "[0-9]{1,20}h[0-9]{1,20}m",
                ],
                0..8,
            )
        ) {
            let text = words.join(" ");
            if let Ok(spec) = text.parse::<Spec>() {
                prop_assert_eq!(spec.to_string().parse::<Spec>(), Ok(spec));
            }
        }
    }
}
