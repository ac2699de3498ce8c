//! Chance over a window DAG: a walk over nodes 0..n that, from node i, moves to one of the next
//! `m_i = min(window, n - 1 - i)` nodes, each equally likely, until it stands on the last node.
//! The walk collects the weight of every node it visits.
//!
//! Two independent methods:
//! - [`WindowWalk`] streams the weights forward, computing each node's probability of being visited
//!   (`P_j = Σ P_i / m_i` over the `window` nodes before `j`) with compensated f64 sums, in O(n) time
//!   and O(window) memory, and returns the expected total `Σ w_j P_j`.
//! - [`exact_expectation`] and [`exact_distribution`] work backward with exact rationals
//!   (`E_i = w_i + (E_{i+1} + … + E_{i+m_i}) / m_i`), for small n.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use std::collections::{BTreeMap, VecDeque};
use thiserror::Error;

/// Neumaier's compensated sum: the error of adding n terms stays near one rounding, not n.
#[derive(Debug, Clone, Copy, Default)]
struct CompensatedSum {
    sum: f64,
    carry: f64,
}

impl CompensatedSum {
    fn add(&mut self, x: f64) {
        let t = self.sum + x;
        if self.sum.abs() >= x.abs() {
            self.carry += (self.sum - t) + x;
        } else {
            self.carry += (x - t) + self.sum;
        }
        self.sum = t;
    }

    fn value(&self) -> f64 {
        self.sum + self.carry
    }
}

/// The expected total of the walk, fed one weight at a time.
#[derive(Debug, Clone)]
pub struct WindowWalk {
    window: usize,
    /// Weights of nodes whose probability is not known yet (at most `window + 1`).
    pending: VecDeque<i64>,
    /// Index of the first pending node.
    first_pending: u64,
    /// `P_i / m_i` of the last `window` settled nodes.
    shares: VecDeque<f64>,
    /// Their sum: the probability of the next node.
    share_sum: CompensatedSum,
    expected: CompensatedSum,
}

impl WindowWalk {
    /// A walk whose steps go up to `window` nodes ahead (`window >= 1`).
    pub fn new(window: usize) -> Self {
        assert!(window >= 1, "window must be at least 1");
        WindowWalk {
            window,
            pending: VecDeque::new(),
            first_pending: 0,
            shares: VecDeque::with_capacity(window.min(1 << 16)),
            share_sum: CompensatedSum::default(),
            expected: CompensatedSum::default(),
        }
    }

    /// Adds the next node's weight.
    pub fn push(&mut self, weight: i64) {
        self.pending.push_back(weight);
        // The first pending node has `window` nodes after it: it moves to any of them.
        if self.pending.len() > self.window {
            self.settle(self.window);
        }
    }

    /// Settles the first pending node, which moves to one of `choices` next nodes.
    fn settle(&mut self, choices: usize) {
        let weight = self.pending.pop_front().expect("a pending node");
        let p = if self.first_pending == 0 {
            1.0
        } else {
            self.share_sum.value()
        };
        self.first_pending += 1;
        self.expected.add(weight as f64 * p);
        if choices == 0 {
            return;
        }
        let share = p / choices as f64;
        self.shares.push_back(share);
        self.share_sum.add(share);
        if self.shares.len() > self.window {
            let old = self.shares.pop_front().expect("a share");
            self.share_sum.add(-old);
        }
    }

    /// The expected total once every weight has been pushed (`None` for an empty walk).
    pub fn finish(mut self) -> Option<f64> {
        if self.first_pending == 0 && self.pending.is_empty() {
            return None;
        }
        while !self.pending.is_empty() {
            let after = self.pending.len() - 1;
            self.settle(after.min(self.window));
        }
        Some(self.expected.value())
    }
}

/// The exact expected total, backward: `E_last = w_last`, `E_i = w_i + mean(E_{i+1..=i+m_i})`.
pub fn exact_expectation(weights: &[i64], window: usize) -> Option<BigRational> {
    let n = weights.len();
    let mut e: Vec<BigRational> = Vec::with_capacity(n);
    e.resize(n, BigRational::from_integer(BigInt::from(0)));
    for i in (0..n).rev() {
        let m = window.min(n - 1 - i);
        let w = BigRational::from_integer(BigInt::from(weights[i]));
        e[i] = if m == 0 {
            w
        } else {
            let sum = e[i + 1..=i + m]
                .iter()
                .fold(BigRational::from_integer(0.into()), |s, x| s + x);
            w + sum / BigRational::from_integer(BigInt::from(m))
        };
    }
    e.into_iter().next()
}

/// A distribution with more distinct totals than asked for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the walk has more than {limit} distinct totals")]
pub struct TooManyTotals {
    /// The limit that was passed.
    pub limit: usize,
}

/// The exact probability of each total, backward (`D_i` = `D_{i+1..=i+m_i}` mixed equally, shifted by
/// `w_i`), refusing once any node has more than `limit` distinct totals.
///
/// Each node's probabilities share one denominator `Q_i = m_i · lcm(Q_{i+1}, …, Q_{i+m_i})` and are
/// kept as integer numerators over it, so mixing the children is integer multiply-and-add; each
/// fraction is reduced once, at the end (rationals added one by one would take a gcd at every step).
pub fn exact_distribution(
    weights: &[i64],
    window: usize,
    limit: usize,
) -> Result<Vec<(i128, BigRational)>, TooManyTotals> {
    /// A node's distribution: numerators over one denominator.
    #[derive(Clone, Default)]
    struct Shares {
        denominator: BigInt,
        numerators: BTreeMap<i128, BigInt>,
    }
    let n = weights.len();
    let mut dist: Vec<Shares> = vec![Shares::default(); n];
    for i in (0..n).rev() {
        let m = window.min(n - 1 - i);
        let w = weights[i] as i128;
        let mut here = Shares::default();
        if m == 0 {
            here.denominator = BigInt::from(1);
            here.numerators.insert(w, BigInt::from(1));
        } else {
            let children = &dist[i + 1..=i + m];
            let lcm = children
                .iter()
                .fold(BigInt::from(1), |l, c| l.lcm(&c.denominator));
            for child in children {
                let factor = &lcm / &child.denominator;
                for (total, p) in &child.numerators {
                    *here.numerators.entry(total + w).or_default() += p * &factor;
                }
                if here.numerators.len() > limit {
                    return Err(TooManyTotals { limit });
                }
            }
            here.denominator = lcm * BigInt::from(m);
        }
        dist[i] = here;
        // Nodes more than a window ahead are no longer needed.
        if i + window + 1 < n {
            dist[i + window + 1] = Shares::default();
        }
    }
    Ok(dist
        .into_iter()
        .next()
        .map(|d| {
            d.numerators
                .into_iter()
                .map(|(total, p)| (total, BigRational::new(p, d.denominator.clone())))
                .collect()
        })
        .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(weights: &[i64], window: usize) -> f64 {
        let mut w = WindowWalk::new(window);
        weights.iter().for_each(|&x| w.push(x));
        w.finish().unwrap()
    }

    #[test]
    fn two_squares_and_one() {
        assert_eq!(walk(&[1, -2], 6), -1.0);
        assert_eq!(walk(&[5], 6), 5.0);
        assert_eq!(
            exact_expectation(&[5], 6),
            Some(BigRational::from_integer(5.into()))
        );
        assert!(WindowWalk::new(3).finish().is_none());
    }

    #[test]
    fn three_squares_by_hand() {
        // From 0: to 1 or 2 with 1/2 each; from 1: to 2. E = (1 + 10 + 100 + 1 + 100) / 2 = 106.
        assert_eq!(walk(&[1, 10, 100], 6), 106.0);
        let exact = exact_expectation(&[1, 10, 100], 6).unwrap();
        assert_eq!(exact, BigRational::from_integer(106.into()));
        let dist = exact_distribution(&[1, 10, 100], 6, 100).unwrap();
        let half = BigRational::new(1.into(), 2.into());
        assert_eq!(dist, vec![(101, half.clone()), (111, half)]);
    }

    /// Every walk from `node` to the last, one at a time, each with its probability.
    fn every_walk(
        weights: &[i64],
        window: usize,
        node: usize,
        total: i128,
        p: BigRational,
        out: &mut BTreeMap<i128, BigRational>,
    ) {
        let total = total + weights[node] as i128;
        let m = window.min(weights.len() - 1 - node);
        if m == 0 {
            *out.entry(total)
                .or_insert_with(|| BigRational::from_integer(0.into())) += p;
            return;
        }
        let share = p / BigRational::from_integer(BigInt::from(m));
        for next in node + 1..=node + m {
            every_walk(weights, window, next, total, share.clone(), out);
        }
    }

    #[test]
    fn the_distribution_is_every_walk_counted() {
        for n in 1..=13 {
            let weights: Vec<i64> = (0..n).map(|i| (i * 37 % 11) - 5).collect();
            for window in 1..=6 {
                let mut walks = BTreeMap::new();
                let one = BigRational::from_integer(1.into());
                every_walk(&weights, window, 0, 0, one, &mut walks);
                let dist = exact_distribution(&weights, window, 10_000).unwrap();
                assert_eq!(dist, walks.into_iter().collect::<Vec<_>>(), "{n} {window}");
            }
        }
    }

    #[test]
    fn forward_and_backward_agree() {
        let weights: Vec<i64> = (0..50).map(|i| (i * 7919 % 201) - 100).collect();
        for window in 1..=8 {
            let exact = exact_expectation(&weights, window).unwrap();
            let approx = walk(&weights, window);
            let exact_f = num_traits::ToPrimitive::to_f64(&exact).unwrap();
            assert!(
                (exact_f - approx).abs() < 1e-9,
                "window {window}: {exact_f} vs {approx}"
            );
        }
        let dist = exact_distribution(&weights[..12], 3, 10_000).unwrap();
        let total: BigRational = dist.iter().map(|(_, p)| p.clone()).sum();
        assert_eq!(total, BigRational::from_integer(1.into()));
        assert_eq!(
            exact_distribution(&weights, 6, 10),
            Err(TooManyTotals { limit: 10 })
        );
    }
}
