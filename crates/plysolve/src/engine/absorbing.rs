//! Chance games without choices, as absorbing chains on a DAG: each step draws one of `total` equally
//! likely outcomes; some move the chain to a later node, the rest leave it where it is; some nodes end
//! the game in one of several outcome classes. Computes, for the start node, the probability of each
//! class and the expected number of steps — exactly (rationals) or fast (f64), by the same code.
//!
//! Outcomes that change nothing are conditioned away: from a node whose moving outcomes weigh `w` of
//! `total`, the next move goes to a child with probability `weight / w`, after `total / w` steps on
//! average.
//!
//! [`absorb_until`] obeys a [`Halt`]: it checks it every few moves (every move for exact rationals,
//! whose moves grow with the size of their fractions), so a long exact solve stops within
//! milliseconds of its deadline or its cancel flag.

use super::util::halt::{Halt, Halted, NEVER};
use num_bigint::BigInt;
use num_rational::BigRational;
use std::ops::{Add, Div, Mul};

/// The number types the chain can be solved in: exact rationals, or f64 for speed.
pub trait Probability:
    Clone + Add<Output = Self> + Mul<Output = Self> + Div<Output = Self> + Sized
{
    /// The value of a non-negative integer.
    fn from_count(count: u128) -> Self;
    /// Moves between two checks of a halt: a few microseconds of work at most.
    const MOVES_PER_CHECK: u64;
}

impl Probability for f64 {
    /// A float move is a few nanoseconds.
    const MOVES_PER_CHECK: u64 = 1024;

    fn from_count(count: u128) -> Self {
        count as f64
    }
}

impl Probability for BigRational {
    /// An exact move takes a microsecond or much more: the clock read is nothing beside it.
    const MOVES_PER_CHECK: u64 = 1;

    fn from_count(count: u128) -> Self {
        BigRational::from_integer(BigInt::from(count))
    }
}

/// An absorbing chain on a DAG: nodes `0..len()`, node 0 the start, every move to a larger index.
pub trait AbsorbingDag {
    /// Number of nodes.
    fn nodes(&self) -> usize;
    /// Number of outcome classes.
    fn classes(&self) -> usize;
    /// The class a node ends the game in, or `None` if play goes on.
    fn absorbed(&self, node: usize) -> Option<usize>;
    /// Calls `visit(child, weight)` for every outcome of one step that moves `node` (a live node) on,
    /// grouped by child; `weight` counts equally likely outcomes out of [`AbsorbingDag::total`].
    fn for_each_move(&self, node: usize, visit: impl FnMut(usize, u128));
    /// The number of equally likely outcomes of one step.
    fn total(&self) -> u128;
}

/// What happens from the start node.
#[derive(Debug, Clone, PartialEq)]
pub struct Absorption<T> {
    /// Probability of ending in each class.
    pub classes: Vec<T>,
    /// Expected number of steps until the end.
    pub expected_steps: T,
}

/// Why a chain cannot be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// A live node from which no outcome moves: the game would never end.
    #[error("node {0} is live but no outcome moves it on; the game would never end")]
    Stuck(usize),
    /// The halt came before the answer.
    #[error(transparent)]
    Halted(#[from] Halted),
}

/// Solves the chain backward from the last node, in the number type `T`.
pub fn absorb<T: Probability, D: AbsorbingDag>(dag: &D) -> Result<Absorption<T>, ChainError> {
    absorb_until(dag, &NEVER)
}

/// [`absorb`], stopped with [`ChainError::Halted`] when `halt` comes (checked every
/// [`Probability::MOVES_PER_CHECK`] moves).
pub fn absorb_until<T: Probability, D: AbsorbingDag>(
    dag: &D,
    halt: &Halt,
) -> Result<Absorption<T>, ChainError> {
    let watched = halt.can_halt();
    let mut moves_left = T::MOVES_PER_CHECK;
    let mut halted: Option<Halted> = None;
    let zero = || T::from_count(0);
    let total = T::from_count(dag.total());
    let mut values: Vec<Option<Absorption<T>>> = vec![None; dag.nodes()];
    for node in (0..dag.nodes()).rev() {
        let value = match dag.absorbed(node) {
            Some(class) => Absorption {
                classes: (0..dag.classes())
                    .map(|c| T::from_count((c == class) as u128))
                    .collect(),
                expected_steps: zero(),
            },
            None => {
                let mut moving: u128 = 0;
                let mut classes: Vec<T> = vec![zero(); dag.classes()];
                let mut steps = zero();
                dag.for_each_move(node, |child, weight| {
                    if halted.is_some() {
                        return;
                    }
                    if watched {
                        moves_left -= 1;
                        if moves_left == 0 {
                            moves_left = T::MOVES_PER_CHECK;
                            halted = halt.check();
                        }
                    }
                    moving += weight;
                    let child = values[child]
                        .as_ref()
                        .expect("children come after their parent");
                    let w = T::from_count(weight);
                    for (sum, p) in classes.iter_mut().zip(&child.classes) {
                        *sum = sum.clone() + w.clone() * p.clone();
                    }
                    steps = steps.clone() + w * child.expected_steps.clone();
                });
                if let Some(why) = halted {
                    return Err(ChainError::Halted(why));
                }
                if moving == 0 {
                    return Err(ChainError::Stuck(node));
                }
                let w = T::from_count(moving);
                Absorption {
                    classes: classes.into_iter().map(|c| c / w.clone()).collect(),
                    expected_steps: (total.clone() + steps) / w,
                }
            }
        };
        values[node] = Some(value);
    }
    Ok(values.swap_remove(0).expect("the start node is solved"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A coin tossed until heads (node 0 → node 1), tails changing nothing.
    struct Coin;

    impl AbsorbingDag for Coin {
        fn nodes(&self) -> usize {
            2
        }
        fn classes(&self) -> usize {
            1
        }
        fn absorbed(&self, node: usize) -> Option<usize> {
            (node == 1).then_some(0)
        }
        fn for_each_move(&self, _: usize, mut visit: impl FnMut(usize, u128)) {
            visit(1, 1);
        }
        fn total(&self) -> u128 {
            2
        }
    }

    #[test]
    fn geometric_waiting() {
        let exact: Absorption<BigRational> = absorb(&Coin).unwrap();
        assert_eq!(exact.expected_steps, BigRational::from_integer(2.into()));
        let fast: Absorption<f64> = absorb(&Coin).unwrap();
        assert_eq!(fast.classes, vec![1.0]);
    }

    #[test]
    fn a_halt_stops_the_solve() {
        let past = Halt::after(std::time::Duration::ZERO);
        let exact = absorb_until::<BigRational, _>(&Coin, &past);
        assert_eq!(
            exact,
            Err(ChainError::Halted(Halted::TimeLimit { millis: 0 }))
        );
        // Floats check every 1024 moves: the coin's one move finishes first.
        assert!(absorb_until::<f64, _>(&Coin, &past).is_ok());
    }
}
