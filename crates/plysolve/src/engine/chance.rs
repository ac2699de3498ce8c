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

use crate::engine::util::cost::{Meter, Rate};
use crate::engine::util::halt::{Halt, Halted};
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

/// Why [`exact_distribution`] gave no distribution.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DistributionFault {
    /// More distinct totals than the limit.
    #[error(transparent)]
    TooManyTotals(#[from] TooManyTotals),
    /// The halt came first.
    #[error(transparent)]
    Halted(#[from] Halted),
}

/// The speed of [`exact_distribution`] in the units of [`distribution_work`] (a total carried from
/// a node into its parent: a big-integer multiply-and-add and a map insert), measured on its
/// hardest shapes (60 squares, a die of 60 faces, ~10^5 totals; `ply bench costs`).
pub const DISTRIBUTION_RATE: Rate = Rate::per_second(10_000_000);

/// How often the distribution checks its halt, in units (a few milliseconds).
const CHECK_EVERY: u64 = 1 << 15;

/// The work [`exact_distribution`] does on `weights` with this `window`, at most: one unit per
/// total each node takes from each of its children. A node's distinct totals are bounded three
/// ways — by its walks to the end (compositions of the rest into steps of at most `window`), by the
/// span of the weights after it (`Σ |w_k|` + 1 values), and by `limit` (past it the work stops) —
/// so the estimate grows with the board, the die and the weights' size, and never undercounts.
pub fn distribution_work(weights: &[i64], window: usize, limit: usize) -> u128 {
    let n = weights.len();
    let cap = limit as u128 + 1;
    // totals[j]: node j's distinct totals, at most.
    let mut totals = vec![0u128; n];
    let mut walks = vec![0u128; n];
    let mut span: u128 = 0;
    let mut work: u128 = 0;
    for j in (0..n).rev() {
        let m = window.min(n - 1 - j);
        walks[j] = if m == 0 {
            1
        } else {
            walks[j + 1..=j + m]
                .iter()
                .fold(0u128, |s, &w| s.saturating_add(w))
                .min(cap)
        };
        totals[j] = walks[j].min(span.saturating_add(1)).min(cap);
        work = work.saturating_add(m as u128);
        work = totals[j + 1..=j + m]
            .iter()
            .fold(work, |s, &t| s.saturating_add(t));
        span = span.saturating_add(weights[j].unsigned_abs() as u128);
    }
    work
}

/// The exact probability of each total, backward (`D_i` = `D_{i+1..=i+m_i}` mixed equally, shifted by
/// `w_i`), refusing once any node has more than `limit` distinct totals, and stopping when `halt`
/// comes (its work is [`distribution_work`]: a front end refuses it over its limit first).
///
/// Each node's probabilities share one denominator `Q_i = m_i · lcm(Q_{i+1}, …, Q_{i+m_i})` and are
/// kept as integer numerators over it, so mixing the children is integer multiply-and-add; each
/// fraction is reduced once, at the end (rationals added one by one would take a gcd at every step).
pub fn exact_distribution(
    weights: &[i64],
    window: usize,
    limit: usize,
    halt: &Halt,
) -> Result<Vec<(i128, BigRational)>, DistributionFault> {
    /// A node's distribution: numerators over one denominator.
    #[derive(Clone, Default)]
    struct Shares {
        denominator: BigInt,
        numerators: BTreeMap<i128, BigInt>,
    }
    let mut meter = Meter::new(halt, CHECK_EVERY);
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
                    return Err(TooManyTotals { limit }.into());
                }
                meter.spend(child.numerators.len() as u64 + 1)?;
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
    use crate::engine::util::halt::NEVER;

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
        let dist = exact_distribution(&[1, 10, 100], 6, 100, &NEVER).unwrap();
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
                let dist = exact_distribution(&weights, window, 10_000, &NEVER).unwrap();
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
        let dist = exact_distribution(&weights[..12], 3, 10_000, &NEVER).unwrap();
        let total: BigRational = dist.iter().map(|(_, p)| p.clone()).sum();
        assert_eq!(total, BigRational::from_integer(1.into()));
        assert_eq!(
            exact_distribution(&weights, 6, 10, &NEVER),
            Err(DistributionFault::TooManyTotals(TooManyTotals {
                limit: 10
            }))
        );
    }

    #[test]
    fn the_model_counts_the_work_by_hand() {
        // Node 1 takes node 2's one total; node 0 takes one total from each of nodes 1 and 2; one
        // unit more per child for the mixing.
        assert_eq!(distribution_work(&[1, 10, 100], 6, 100), 6);
        assert_eq!(distribution_work(&[7], 6, 100), 0);
        // Weights all zero: one total everywhere, whatever the walks.
        assert_eq!(distribution_work(&[0; 5], 6, 100), 2 * (1 + 2 + 3 + 4));
    }

    #[test]
    fn the_model_bounds_the_work_done() {
        // The work done: every node takes each child's distinct totals (the distribution of the
        // board from that child on), plus one per child.
        for n in 1..=12usize {
            for window in 1..=5 {
                for scale in [0i64, 1, 3, 100] {
                    let weights: Vec<i64> =
                        (0..n as i64).map(|i| scale * ((i * 37 % 11) - 5)).collect();
                    let totals: Vec<u128> = (0..n)
                        .map(|j| {
                            exact_distribution(&weights[j..], window, 10_000, &NEVER)
                                .unwrap()
                                .len() as u128
                        })
                        .collect();
                    let done: u128 = (0..n)
                        .map(|i| {
                            let m = window.min(n - 1 - i);
                            (i + 1..=i + m).map(|c| totals[c] + 1).sum::<u128>()
                        })
                        .sum();
                    let estimate = distribution_work(&weights, window, 10_000);
                    assert!(
                        done <= estimate,
                        "{n} {window} {scale}: {done} > {estimate}"
                    );
                    // Tight where nothing merges: distinct weights far apart, a window of 1 or 2.
                    if scale == 100 && window == 1 {
                        assert_eq!(done, estimate, "{n}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_halt_stops_the_distribution() {
        let weights: Vec<i64> = (0..60).map(|i| (i * 7919 % 2001) - 1000).collect();
        let past = Halt::after(std::time::Duration::ZERO);
        assert_eq!(
            exact_distribution(&weights, 60, 100_000, &past),
            Err(DistributionFault::Halted(Halted::TimeLimit { millis: 0 }))
        );
    }
}
