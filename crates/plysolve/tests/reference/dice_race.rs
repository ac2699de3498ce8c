//! A reference for the dice race, written without the product's code: the dice counted by going
//! through every roll, a race solved by recursion over the sums each player still has to cross off
//! (exactly in `BigRational`, or in `f64` for the searches over thousands of lists), the lists of a
//! pick game listed one by one, and the Wilson interval from its formula. The library's answers are
//! checked against it, so that each one is found twice by different methods.
//!
//! Each of the dice race's test files uses some of it (and compiles it on its own).
#![allow(dead_code)]

use num_bigint::BigInt;
use num_rational::BigRational;
use std::collections::BTreeSet;
use std::ops::{Add, Div, Mul};

/// Numbers a reference race is solved in.
pub trait Number: Clone + Add<Output = Self> + Mul<Output = Self> + Div<Output = Self> {
    /// The whole number `n`.
    fn count(n: u128) -> Self;
}

impl Number for BigRational {
    fn count(n: u128) -> Self {
        BigRational::from_integer(BigInt::from(n))
    }
}

impl Number for f64 {
    fn count(n: u128) -> Self {
        n as f64
    }
}

/// Ways to roll each sum (indexed by the sum itself) and the number of outcomes, by going through
/// all `sides^dice` rolls one by one.
pub fn enumerate_dice(dice: u32, sides: u32) -> (Vec<u128>, u128) {
    let mut ways = vec![0u128; (dice * sides + 1) as usize];
    let mut faces = vec![1u32; dice as usize];
    let mut total = 0u128;
    loop {
        ways[faces.iter().sum::<u32>() as usize] += 1;
        total += 1;
        let mut i = 0;
        loop {
            if i == faces.len() {
                return (ways, total);
            }
            if faces[i] < sides {
                faces[i] += 1;
                break;
            }
            faces[i] = 1;
            i += 1;
        }
    }
}

/// What happens in one race: the chance of each end and the expected number of rolls.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome<T> {
    /// P(the first list is crossed off first).
    pub first: T,
    /// P(the second list is crossed off first).
    pub second: T,
    /// P(both are crossed off on the same roll).
    pub tie: T,
    /// Expected rolls until the race ends.
    pub rolls: T,
}

/// One race, solved by recursion over (sums the first still needs, sums the second still needs),
/// memoised densely: state `(left_a, left_b)` is a mixed-radix number, one digit pair per sum.
struct Reference<T> {
    /// Ways of each sum that is on either list.
    ways: Vec<u128>,
    total: u128,
    need_b: Vec<u32>,
    strides: Vec<usize>,
    memo: Vec<Option<Outcome<T>>>,
}

impl<T: Number> Reference<T> {
    fn index(&self, left_a: &[u32], left_b: &[u32]) -> usize {
        (0..left_a.len())
            .map(|j| (left_a[j] * (self.need_b[j] + 1) + left_b[j]) as usize * self.strides[j])
            .sum()
    }

    fn solve(&mut self, left_a: &mut [u32], left_b: &mut [u32]) -> Outcome<T> {
        let zero = T::count(0);
        let one = T::count(1);
        let a_done = left_a.iter().all(|&c| c == 0);
        let b_done = left_b.iter().all(|&c| c == 0);
        let end = |first, second, tie| Outcome {
            first,
            second,
            tie,
            rolls: T::count(0),
        };
        match (a_done, b_done) {
            (true, true) => return end(zero.clone(), zero, one),
            (true, false) => return end(one, zero.clone(), zero),
            (false, true) => return end(zero.clone(), one, zero),
            (false, false) => {}
        }
        let key = self.index(left_a, left_b);
        if let Some(known) = &self.memo[key] {
            return known.clone();
        }
        // Only rolls of a sum someone still needs change anything: the others are a geometric series,
        // which divides the moving rolls' chances by their total and adds total / weight rolls.
        let live: Vec<usize> = (0..left_a.len())
            .filter(|&j| left_a[j] > 0 || left_b[j] > 0)
            .collect();
        let weight: u128 = live.iter().map(|&j| self.ways[j]).sum();
        let mut acc = Outcome {
            first: zero.clone(),
            second: zero.clone(),
            tie: zero,
            rolls: T::count(self.total) / T::count(weight),
        };
        for j in live {
            let (took_a, took_b) = (left_a[j] > 0, left_b[j] > 0);
            if took_a {
                left_a[j] -= 1;
            }
            if took_b {
                left_b[j] -= 1;
            }
            let child = self.solve(left_a, left_b);
            if took_a {
                left_a[j] += 1;
            }
            if took_b {
                left_b[j] += 1;
            }
            let p = T::count(self.ways[j]) / T::count(weight);
            acc.first = acc.first + p.clone() * child.first;
            acc.second = acc.second + p.clone() * child.second;
            acc.tie = acc.tie + p.clone() * child.tie;
            acc.rolls = acc.rolls + p * child.rolls;
        }
        self.memo[key] = Some(acc.clone());
        acc
    }
}

/// The race of list `a` against list `b` (in any order, repeats allowed) with dice whose sums have
/// `ways` (indexed by sum, as [`enumerate_dice`] counts them) out of `total`.
pub fn race<T: Number>(ways: &[u128], total: u128, a: &[u32], b: &[u32]) -> Outcome<T> {
    let sums: BTreeSet<u32> = a.iter().chain(b).copied().collect();
    let sums: Vec<u32> = sums.into_iter().collect();
    let count = |list: &[u32], s: u32| list.iter().filter(|&&x| x == s).count() as u32;
    let need_a: Vec<u32> = sums.iter().map(|&s| count(a, s)).collect();
    let need_b: Vec<u32> = sums.iter().map(|&s| count(b, s)).collect();
    for &s in &sums {
        assert!(ways[s as usize] > 0, "the dice make {s}");
    }
    let mut strides = Vec::new();
    let mut size = 1usize;
    for j in 0..sums.len() {
        strides.push(size);
        size *= ((need_a[j] + 1) * (need_b[j] + 1)) as usize;
    }
    let mut reference = Reference {
        ways: sums.iter().map(|&s| ways[s as usize]).collect(),
        total,
        need_b: need_b.clone(),
        strides,
        memo: vec![None; size],
    };
    let (mut left_a, mut left_b) = (need_a, need_b);
    reference.solve(&mut left_a, &mut left_b)
}

/// The exact race of `a` against `b` on `dice` dice of `sides` sides.
pub fn exact_race(dice: u32, sides: u32, a: &[u32], b: &[u32]) -> Outcome<BigRational> {
    let (ways, total) = enumerate_dice(dice, sides);
    race(&ways, total, a, b)
}

/// A fraction written `a/b` in lowest terms, or `a` when whole: how the reports write them.
pub fn fraction(q: &BigRational) -> String {
    if *q.denom() == BigInt::from(1) {
        q.numer().to_string()
    } else {
        format!("{}/{}", q.numer(), q.denom())
    }
}

/// Every multiset of `picks` sums from `sums`, each sorted, in lexicographic order.
pub fn multisets(sums: &[u32], picks: usize) -> Vec<Vec<u32>> {
    fn extend(sums: &[u32], from: usize, left: usize, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
        if left == 0 {
            out.push(cur.clone());
            return;
        }
        for i in from..sums.len() {
            cur.push(sums[i]);
            extend(sums, i, left - 1, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    extend(sums, 0, picks, &mut Vec::new(), &mut out);
    out
}

/// The sums `dice` dice of `sides` sides make.
pub fn all_sums(dice: u32, sides: u32) -> Vec<u32> {
    (dice..=dice * sides).collect()
}

/// The 95 % Wilson score interval of `hits` in `n`: (p, low, high), clamped to [0, 1].
pub fn wilson(hits: u64, n: u64) -> (f64, f64, f64) {
    let z: f64 = 1.959_963_984_540_054;
    let (h, n) = (hits as f64, n as f64);
    let p = h / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (p, (centre - half).max(0.0), (centre + half).min(1.0))
}

// ---------------------------------------------------------------------------------------------
// Known values and helpers the dice race's test files share.
// ---------------------------------------------------------------------------------------------

/// The seed's comparison on 2d6, [5,6,7,8,9] against [5,6,7,8,7], exactly: P(first), P(second),
/// P(tie) and the expected rolls (the reference reproduces them: `seed_comparison_and_one_pick`).
pub const SEED_FIRST: &str = "1138029621/3424590400";
/// See [`SEED_FIRST`].
pub const SEED_SECOND: &str = "82426243/413922600";
/// See [`SEED_FIRST`].
pub const SEED_TIE: &str = "187739007919/400677076800";
/// See [`SEED_FIRST`].
pub const SEED_ROLLS: &str = "621703609/38915800";

/// The fraction `n/d`.
pub fn ratio(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// `|a - b| <= tolerance`, with a message.
pub fn assert_close(a: f64, b: f64, tolerance: f64, what: &str) {
    assert!(
        (a - b).abs() <= tolerance,
        "{what}: {a} and {b} differ by more than {tolerance}"
    );
}

/// The two lists left after a roll: the first, the second.
pub type ListsLeft = (Vec<u32>, Vec<u32>);

/// The race's rules played by hand on lists as written: each sum rolled is removed once (its first
/// occurrence) from each list that has it; returns the lists left after each roll and, once a list is
/// empty, the end: `0` the first list won, `1` the second, `2` a tie. Rolls after the end are not played.
pub fn cross_off(a: &[u32], b: &[u32], rolls: &[u32]) -> (Vec<ListsLeft>, Option<usize>) {
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    let mut after = Vec::new();
    for &sum in rolls {
        for list in [&mut a, &mut b] {
            if let Some(i) = list.iter().position(|&s| s == sum) {
                list.remove(i);
            }
        }
        after.push((a.clone(), b.clone()));
        match (a.is_empty(), b.is_empty()) {
            (true, true) => return (after, Some(2)),
            (true, false) => return (after, Some(0)),
            (false, true) => return (after, Some(1)),
            (false, false) => {}
        }
    }
    (after, None)
}
