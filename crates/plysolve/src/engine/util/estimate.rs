//! Estimates from samples: a frequency with its 95 % confidence interval.

use serde::Serialize;

/// An estimated probability with its 95 % Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The observed frequency.
    pub p: f64,
    /// Lower end of the interval.
    pub low: f64,
    /// Upper end of the interval.
    pub high: f64,
}

impl Estimate {
    /// The Wilson score interval of `hits` in `n` at 95 %.
    pub fn wilson(hits: u64, n: u64) -> Estimate {
        let z = 1.959_963_984_540_054;
        let (h, n) = (hits as f64, n as f64);
        let p = h / n;
        let denom = 1.0 + z * z / n;
        let centre = (p + z * z / (2.0 * n)) / denom;
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
        // At 0 or n hits the interval reaches 0 or 1 exactly (rounding would leave a residue).
        Estimate {
            p,
            low: if hits == 0 {
                0.0
            } else {
                (centre - half).max(0.0)
            },
            high: if hits as f64 == n {
                1.0
            } else {
                (centre + half).min(1.0)
            },
        }
    }

    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let e = Estimate::wilson(50, 100);
        assert_eq!(e.p, 0.5);
        assert!(
            (e.low - 0.4038).abs() < 1e-4 && (e.high - 0.5962).abs() < 1e-4,
            "{e:?}"
        );
        let none = Estimate::wilson(0, 500);
        assert_eq!(none.low, 0.0);
        assert_eq!(Estimate::wilson(25_000, 25_000).high, 1.0);
        assert!(none.contains(0.0) && !none.contains(0.5));
    }
}
