//! Exact fractions as text: the one formatter behind every printed probability and expectation.

use num_bigint::BigInt;
use num_rational::BigRational;

/// A fraction as `a/b` in lowest terms, or `a` when whole.
pub fn format_fraction(x: &BigRational) -> String {
    if x.is_integer() {
        x.numer().to_string()
    } else {
        format!("{}/{}", x.numer(), x.denom())
    }
}

/// `numerator / denominator` as [`format_fraction`] writes it (reduced); `denominator` must not be 0.
pub fn format_ratio(numerator: u128, denominator: u128) -> String {
    format_fraction(&BigRational::new(
        BigInt::from(numerator),
        BigInt::from(denominator),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_and_reduced() {
        assert_eq!(format_ratio(6, 36), "1/6");
        assert_eq!(format_ratio(36, 36), "1");
        assert_eq!(format_ratio(0, 7), "0");
        assert_eq!(
            format_fraction(&BigRational::new(BigInt::from(-4), BigInt::from(6))),
            "-2/3"
        );
    }
}
