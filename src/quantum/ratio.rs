//! Exact non-negative fractions over `u128`, always reduced (probabilities are
//! never floats, so they can be compared and summed exactly).

use std::fmt;

/// A reduced fraction `num / den` with `den > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    num: u128,
    den: u128,
}

/// Arithmetic left `u128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("fraction arithmetic overflowed u128")]
pub struct Overflow;

const fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { num: 0, den: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { num: 1, den: 1 };

    /// `num / den` reduced; `None` if `den == 0`.
    pub const fn new(num: u128, den: u128) -> Option<Ratio> {
        if den == 0 {
            return None;
        }
        let g = gcd(num, den);
        Some(Ratio {
            num: num / g,
            den: den / g,
        })
    }
    /// Numerator (reduced).
    pub const fn numer(self) -> u128 {
        self.num
    }
    /// Denominator (reduced, positive).
    pub const fn denom(self) -> u128 {
        self.den
    }

    /// Exact sum.
    ///
    /// # Errors
    /// [`Overflow`] if an intermediate product does not fit `u128`.
    pub fn checked_add(self, o: Ratio) -> Result<Ratio, Overflow> {
        let g = gcd(self.den, o.den);
        let (a, b) = (self.den / g, o.den / g);
        let num = self
            .num
            .checked_mul(b)
            .and_then(|x| o.num.checked_mul(a).and_then(|y| x.checked_add(y)));
        let den = self.den.checked_mul(b);
        match (num, den) {
            (Some(n), Some(d)) => Ratio::new(n, d).ok_or(Overflow),
            _ => Err(Overflow),
        }
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// Exact comparison by cross-multiplication in 256 bits (two `u128` halves).
impl Ord for Ratio {
    fn cmp(&self, o: &Ratio) -> std::cmp::Ordering {
        mul_wide(self.num, o.den).cmp(&mul_wide(o.num, self.den))
    }
}

/// Full 256-bit product as (high, low).
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    let (a1, a0) = (a >> 64, a & u64::MAX as u128);
    let (b1, b0) = (b >> 64, b & u64::MAX as u128);
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 64) + (p01 & u64::MAX as u128) + (p10 & u64::MAX as u128);
    let lo = (p00 & u64::MAX as u128) | (mid << 64);
    let hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    (hi, lo)
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    #[test]
    fn reduces_and_adds() {
        assert_eq!(Ratio::new(6, 8).unwrap().to_string(), "3/4");
        assert_eq!(Ratio::new(0, 5), Some(Ratio::ZERO));
        assert_eq!(Ratio::new(1, 0), None);
        let third = Ratio::new(1, 3).unwrap();
        assert_eq!(
            third.checked_add(third).unwrap().checked_add(third),
            Ok(Ratio::ONE)
        );
        assert!(Ratio::new(1, 3).unwrap() < Ratio::new(1, 2).unwrap());
        assert_eq!(
            Ratio::new(u128::MAX, 1).unwrap().checked_add(Ratio::ONE),
            Err(Overflow)
        );
    }

    quickcheck! {
        fn order_matches_u64_cross_products(a: u64, b: u64, c: u64, d: u64) -> bool {
            let (b, d) = (b.max(1), d.max(1));
            let x = Ratio::new(a as u128, b as u128).unwrap();
            let y = Ratio::new(c as u128, d as u128).unwrap();
            x.cmp(&y) == (a as u128 * d as u128).cmp(&(c as u128 * b as u128))
        }
        fn wide_product_matches_split(a: u128, b: u64) -> bool {
            // (a * b) computed by 64-bit limbs of a.
            let (hi, lo) = mul_wide(a, b as u128);
            let lo_part = (a & u64::MAX as u128) * b as u128;
            let hi_part = (a >> 64) * b as u128;
            let expect_lo = lo_part.wrapping_add(hi_part << 64);
            let carry = (lo_part.checked_add(hi_part << 64).is_none()) as u128;
            lo == expect_lo && hi == (hi_part >> 64) + carry
        }
    }
}
