//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): a rating, its
//! deviation (how sure the rating is) and its volatility (how erratic the player is). Used
//! for players' game ratings over SSH and for puzzle ratings, where the puzzle is rated too.
//!
//! The formulas work on the Glicko-2 scale (μ = (r − 1500) / 173.7178, φ = RD / 173.7178);
//! a [`Rating`] is kept on the familiar Glicko scale. One call to [`Rating::update`] is one
//! rating period: all the games of the period at once, or a single game when each game is
//! rated as it ends (as online servers do).

/// The factor between the Glicko and the Glicko-2 scales.
const SCALE: f64 = 173.7178;
/// The rating every new player and puzzle starts from.
pub const DEFAULT_RATING: f64 = 1500.0;
/// A new player's deviation: nothing is known yet.
pub const DEFAULT_DEVIATION: f64 = 350.0;
/// A new player's volatility (the paper's suggested start).
pub const DEFAULT_VOLATILITY: f64 = 0.06;
/// τ, how much the volatility may change in a period; the paper suggests 0.3 to 1.2.
pub const DEFAULT_TAU: f64 = 0.5;
/// The convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;
/// A deviation never grows past a newcomer's, however long the player is away.
const MAX_DEVIATION: f64 = DEFAULT_DEVIATION;
/// A deviation never shrinks below this, so a rating can always still move.
const MIN_DEVIATION: f64 = 30.0;

/// One player's (or one puzzle's) rating.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Rating {
    /// The rating on the Glicko scale (1500 to start).
    pub rating: f64,
    /// The rating deviation: about 95% of the time the true strength is within two of these.
    pub deviation: f64,
    /// The volatility σ: the expected fluctuation of the rating.
    pub volatility: f64,
}

/// The result of one game from the rated player's side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// The opponent's rating as it stood before the period.
    pub opponent: Rating,
    /// 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: DEFAULT_RATING,
            deviation: DEFAULT_DEVIATION,
            volatility: DEFAULT_VOLATILITY,
        }
    }
}

/// g(φ): how much an opponent's uncertainty damps what a game against them says.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// E(μ, μj, φj): the expected score against an opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// A rating with the given values.
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    fn mu(&self) -> f64 {
        (self.rating - DEFAULT_RATING) / SCALE
    }

    fn phi(&self) -> f64 {
        self.deviation / SCALE
    }

    /// The expected score of this player against `opponent` (0 to 1).
    pub fn expected_score(&self, opponent: &Rating) -> f64 {
        expected(self.mu(), opponent.mu(), opponent.phi())
    }

    /// A period without games: the deviation grows (the rating is less sure), up to a
    /// newcomer's. `periods` may be fractional (time away measured in rating periods).
    pub fn decayed(&self, periods: f64) -> Rating {
        let phi = self.phi();
        let grown = (phi * phi + self.volatility * self.volatility * periods.max(0.0)).sqrt();
        Rating {
            deviation: (grown * SCALE).min(MAX_DEVIATION),
            ..*self
        }
    }

    /// The rating after one period with these games, by the paper's steps 2 to 8 with the
    /// system constant `tau`. With no games only the deviation grows (step 6 alone).
    pub fn update_with_tau(&self, games: &[Outcome], tau: f64) -> Rating {
        let games: Vec<&Outcome> = games
            .iter()
            .filter(|o| o.score.is_finite() && o.opponent.rating.is_finite())
            .collect();
        if games.is_empty() {
            return self.decayed(1.0);
        }
        let (mu, phi, sigma) = (self.mu(), self.phi(), self.volatility);
        // Step 3: the estimated variance v of the rating from the games alone.
        // Step 4: the estimated improvement Δ.
        let mut v_inv = 0.0;
        let mut delta_sum = 0.0;
        for o in &games {
            let (mu_j, phi_j) = (o.opponent.mu(), o.opponent.phi());
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            v_inv += gj * gj * e * (1.0 - e);
            delta_sum += gj * (o.score.clamp(0.0, 1.0) - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * delta_sum;
        // Step 5: the new volatility, by the Illinois algorithm on f(x) = 0.
        let sigma_new = new_volatility(delta, phi, v, sigma, tau);
        // Step 6: the pre-period deviation; step 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * delta_sum;
        // Step 8: back to the Glicko scale.
        Rating {
            rating: SCALE * mu_new + DEFAULT_RATING,
            deviation: (SCALE * phi_new).clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: sigma_new,
        }
    }

    /// [`Rating::update_with_tau`] with τ = 0.5.
    pub fn update(&self, games: &[Outcome]) -> Rating {
        self.update_with_tau(games, DEFAULT_TAU)
    }
}

/// Step 5 of the paper: σ' as the root of
/// f(x) = e^x (Δ² − φ² − v − e^x) / (2 (φ² + v + e^x)²) − (x − ln σ²) / τ²,
/// found by the Illinois (regula falsi) iteration the paper gives.
fn new_volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut steps = 0;
    while (big_b - big_a).abs() > EPSILON && steps < 200 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
        steps += 1;
    }
    let sigma_new = (big_a / 2.0).exp();
    if sigma_new.is_finite() {
        sigma_new
    } else {
        sigma
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of Glickman's paper: a 1500 player (RD 200, σ 0.06, τ 0.5) beats
    /// a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300); the paper's answer
    /// is r' = 1464.06, RD' = 151.52, σ' = 0.05999.
    #[test]
    fn reproduces_the_worked_example_of_the_paper() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let games = [
            Outcome {
                opponent: Rating::new(1400.0, 30.0, 0.06),
                score: 1.0,
            },
            Outcome {
                opponent: Rating::new(1550.0, 100.0, 0.06),
                score: 0.0,
            },
            Outcome {
                opponent: Rating::new(1700.0, 300.0, 0.06),
                score: 0.0,
            },
        ];
        let after = player.update_with_tau(&games, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_a_period_away_widens() {
        let me = Rating::default();
        let rival = Rating::new(1600.0, 80.0, 0.06);
        let won = me.update(&[Outcome {
            opponent: rival,
            score: 1.0,
        }]);
        let lost = me.update(&[Outcome {
            opponent: rival,
            score: 0.0,
        }]);
        assert!(won.rating > me.rating && lost.rating < me.rating);
        assert!(won.deviation < me.deviation);
        let sure = Rating::new(1800.0, 60.0, 0.06);
        assert!(sure.decayed(10.0).deviation > sure.deviation);
        assert_eq!(sure.decayed(1e9).deviation, MAX_DEVIATION);
        assert_eq!(me.update(&[]).rating, me.rating);
    }

    #[test]
    fn expected_score_is_symmetric_for_equal_deviations() {
        let a = Rating::new(1700.0, 100.0, 0.06);
        let b = Rating::new(1500.0, 100.0, 0.06);
        let sum = a.expected_score(&b) + b.expected_score(&a);
        assert!((sum - 1.0).abs() < 1e-12);
        assert!(a.expected_score(&b) > 0.5);
    }

    #[test]
    fn bad_scores_are_ignored_rather_than_poisoning_the_rating() {
        let me = Rating::default();
        let after = me.update(&[Outcome {
            opponent: Rating::new(f64::NAN, 50.0, 0.06),
            score: 1.0,
        }]);
        assert!(after.rating.is_finite() && after.deviation.is_finite());
    }
}
