//! Two-player zero-sum matrix games, symmetric (both players choose among the same strategies and
//! `payoff(j, i) = -payoff(i, j)`), given only `payoff(i, j)`: an optimal mixed strategy by double
//! oracle. Nothing here knows what a strategy is; the game supplies the payoff and a first strategy.

use microlp::{ComparisonOp, OptimizationDirection, Problem};

/// An optimal mixed strategy: the strategies of the restricted game with their weights, in the
/// order they were added (weights may be 0), and the value of the game for the row player.
#[derive(Debug, Clone, PartialEq)]
pub struct MixedStrategy {
    /// (strategy, weight) for each strategy of the final restricted game.
    pub weights: Vec<(usize, f64)>,
    /// The value for the row player (0 for a symmetric game, up to rounding).
    pub value: f64,
}

/// Why a matrix game could not be solved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatrixGameError<E> {
    /// The payoff could not be computed.
    #[error(transparent)]
    Payoff(E),
    /// The linear program failed.
    #[error("the linear program could not be solved: {0}")]
    Lp(String),
}

/// The equilibrium of a symmetric zero-sum game on `strategies` strategies by double oracle: solve
/// the game restricted to a few strategies (a linear program), find the best reply among all
/// strategies to its mix, add it, until no strategy does better against the mix than the restricted
/// value. Starts from `start`. The result is optimal in the whole game.
pub fn double_oracle<E>(
    strategies: usize,
    start: usize,
    mut payoff: impl FnMut(usize, usize) -> Result<f64, E>,
) -> Result<MixedStrategy, MatrixGameError<E>> {
    let mut support = vec![start];
    loop {
        let (weights, value) = solve_restricted(&support, &mut payoff)?;
        // The best reply: the column that does worst against the mix.
        let mut worst = (f64::INFINITY, 0);
        for j in 0..strategies {
            let mut against = 0.0;
            for (&i, &w) in support.iter().zip(&weights) {
                if w > 0.0 {
                    against += w * payoff(i, j).map_err(MatrixGameError::Payoff)?;
                }
            }
            if against < worst.0 {
                worst = (against, j);
            }
        }
        if worst.0 >= value - 1e-12 || support.contains(&worst.1) {
            return Ok(MixedStrategy {
                weights: support.into_iter().zip(weights).collect(),
                value,
            });
        }
        support.push(worst.1);
    }
}

/// Maximises v subject to Σ_i x_i A(i, j) ≥ v for every j of `support`, Σ x = 1, x ≥ 0.
fn solve_restricted<E>(
    support: &[usize],
    payoff: &mut impl FnMut(usize, usize) -> Result<f64, E>,
) -> Result<(Vec<f64>, f64), MatrixGameError<E>> {
    let mut problem = Problem::new(OptimizationDirection::Maximize);
    let xs: Vec<_> = support
        .iter()
        .map(|_| problem.add_var(0.0, (0.0, 1.0)))
        .collect();
    let v = problem.add_var(1.0, (f64::NEG_INFINITY, f64::INFINITY));
    for &j in support {
        let mut row = Vec::with_capacity(support.len() + 1);
        for (&i, &x) in support.iter().zip(&xs) {
            row.push((x, payoff(i, j).map_err(MatrixGameError::Payoff)?));
        }
        row.push((v, -1.0));
        problem.add_constraint(&row, ComparisonOp::Ge, 0.0);
    }
    let ones: Vec<_> = xs.iter().map(|&x| (x, 1.0)).collect();
    problem.add_constraint(&ones, ComparisonOp::Eq, 1.0);
    let solution = match problem
        .solve()
        .map_err(|e| MatrixGameError::Lp(e.to_string()))?
    {
        microlp::SolveOutcome::Solution(solution) => solution,
        microlp::SolveOutcome::Interrupted(_) => {
            return Err(MatrixGameError::Lp("interrupted".into()))
        }
    };
    let weights = xs.iter().map(|&x| solution[x].max(0.0)).collect();
    Ok((weights, solution[v]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::convert::Infallible;

    /// Rock, paper, scissors: the mix is a third each, the value 0; a pure start grows to all three.
    #[test]
    fn rock_paper_scissors() {
        let beats = |i: usize, j: usize| Ok::<_, Infallible>([0.0, -1.0, 1.0][(3 + j - i) % 3]);
        let Ok(mix) = double_oracle(3, 0, beats) else {
            panic!("an LP this small is solved")
        };
        let mut weights = mix.weights.clone();
        weights.sort_by_key(|&(s, _)| s);
        assert_eq!(weights.len(), 3);
        for (_, w) in weights {
            assert!((w - 1.0 / 3.0).abs() < 1e-9, "{mix:?}");
        }
        assert!(mix.value.abs() < 1e-9);
    }

    /// A dominant strategy (1 beats everything) is found alone from any start.
    #[test]
    fn a_dominant_strategy_is_pure() {
        let payoff = |i: usize, j: usize| {
            Ok::<_, Infallible>((i == 1) as i32 as f64 - (j == 1) as i32 as f64)
        };
        let Ok(mix) = double_oracle(4, 3, payoff) else {
            panic!("an LP this small is solved")
        };
        let played: Vec<usize> = mix
            .weights
            .iter()
            .filter(|w| w.1 > 1e-9)
            .map(|w| w.0)
            .collect();
        assert_eq!(played, vec![1]);
    }

    #[test]
    fn payoff_failures_stop_the_search() {
        let failing = |_: usize, _: usize| Err::<f64, _>("no payoff");
        assert_eq!(
            double_oracle(2, 0, failing),
            Err(MatrixGameError::Payoff("no payoff"))
        );
    }
}
