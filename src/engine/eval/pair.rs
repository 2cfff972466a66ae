//! `S`, a middlegame/endgame score pair: the unit every weight of the `full` evaluation is
//! written in (the hand-set ones in `params.rs`, the tuned ones in the generated
//! `weights.rs`). A leaf: it imports nothing of the evaluation.

use std::ops::{Add, AddAssign, Mul, Neg, Sub};

/// A middlegame/endgame score pair; the two are blended by the game phase at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S {
    pub mg: i32,
    pub eg: i32,
}

pub const fn s(mg: i32, eg: i32) -> S {
    S { mg, eg }
}

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        s(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        s(self.mg * k, self.eg * k)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        s(-self.mg, -self.eg)
    }
}
