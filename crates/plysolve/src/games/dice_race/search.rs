//! The pick game over all lists: the list no other list beats, the original program's greedy
//! substitution, and the equilibrium of the symmetric zero-sum game whose payoff is P(win) − P(lose).
//!
//! Decisions use floats and fall back on exact rationals when a margin is too small to trust. Each
//! search is costed first ([`super::cost`]) and refused over its limit; as it runs it counts what its
//! races cost, stops (refused) when that passes the limit, and obeys its halt.

use super::cost::{
    best_work, equilibrium_work, exact_in_float_units, BEST_WHAT, EQUILIBRIUM_WHAT, RACE_OVERHEAD,
    SEARCH_RATE,
};
use super::dice::Dice;
use super::lists::{all_lists, ListsError};
use super::race::{solve_exact, solve_fast, Comparison, PickList, Race, RaceError};
use crate::engine::matrix_game::{double_oracle, MatrixGameError};
use crate::engine::util::cost::{OverLimit, WorkLimit};
use crate::engine::util::halt::{Halt, NEVER};
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use thiserror::Error;

/// Float margins smaller than this are decided again exactly.
const EXACT_BELOW: f64 = 1e-9;

/// Searches refused or failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SearchError {
    /// No lists to go through: no picks, or too many lists.
    #[error(transparent)]
    Lists(#[from] ListsError),
    /// A race failed.
    #[error(transparent)]
    Race(#[from] RaceError),
    /// The linear program failed.
    #[error("the linear program could not be solved: {0}")]
    Lp(String),
}

/// Head to head: `Greater` when `a` wins more often than it loses against `b`. Exact when close.
pub fn head_to_head(dice: &Dice, a: &PickList, b: &PickList) -> Result<Ordering, RaceError> {
    let spending = Spending::new("racing two lists", WorkLimit::DEFAULT, &NEVER);
    spending.head_to_head(dice, a, b).map_err(|e| match e {
        SearchError::Race(e) => e,
        e => unreachable!("a race fails only as a race: {e}"),
    })
}

/// What a search spends as it goes, in [`SEARCH_RATE`] units, against its limit, and the halt it
/// obeys: shared by the threads racing for it.
struct Spending<'a> {
    what: &'static str,
    limit: u128,
    spent: AtomicU64,
    halt: &'a Halt,
}

impl<'a> Spending<'a> {
    /// Nothing spent yet of `limit`, for the search `what`.
    fn new(what: &'static str, limit: WorkLimit, halt: &'a Halt) -> Self {
        Spending {
            what,
            limit: limit.units(SEARCH_RATE),
            spent: AtomicU64::new(0),
            halt,
        }
    }

    /// Counts `units` more: refused once past the limit, stopped when the halt has come.
    fn spend(&self, units: u128) -> Result<(), SearchError> {
        let units = units.min(self.limit + 1) as u64;
        let spent = self.spent.fetch_add(units, AtomicOrdering::Relaxed) as u128 + units as u128;
        if spent > self.limit {
            return Err(RaceError::TooSlow(OverLimit {
                what: self.what.into(),
                work: spent,
                limit: self.limit,
                rate: SEARCH_RATE,
            })
            .into());
        }
        match self.halt.check() {
            Some(why) => Err(RaceError::Halted(why).into()),
            None => Ok(()),
        }
    }

    /// A race in floats, counted.
    fn race_fast(
        &self,
        dice: &Dice,
        a: &PickList,
        b: &PickList,
    ) -> Result<Comparison, SearchError> {
        let race = Race::new(dice, a, b)?;
        self.spend(race.fast_work() + RACE_OVERHEAD)?;
        Ok(solve_fast(&race, self.halt)?)
    }

    /// [`head_to_head`], each race counted.
    fn head_to_head(
        &self,
        dice: &Dice,
        a: &PickList,
        b: &PickList,
    ) -> Result<Ordering, SearchError> {
        let fast = self.race_fast(dice, a, b)?;
        let margin = fast.p_first - fast.p_second;
        if margin.abs() > EXACT_BELOW {
            return Ok(margin.partial_cmp(&0.0).unwrap_or(Ordering::Equal));
        }
        let race = Race::new(dice, a, b)?;
        self.spend(exact_in_float_units(race.exact_work()))?;
        let exact = solve_exact(&race, self.halt)?;
        Ok(exact.p_first.cmp(&exact.p_second))
    }

    /// A list's strength for ordering the search: its expected number of rolls to finish alone.
    fn solo_time(&self, dice: &Dice, list: &PickList) -> Result<f64, SearchError> {
        // Raced against itself, both finish together: the race's length is the list's own.
        Ok(self.race_fast(dice, list, list)?.expected_rolls)
    }
}

/// The answer of the exhaustive search.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BestReport {
    /// The unbeaten list (the first in sorted order, if several); if none, the list that finishes
    /// fastest on its own.
    pub best: PickList,
    /// Whether `best` is beaten by no list at all.
    pub unbeaten: bool,
    /// Every unbeaten list.
    pub all_unbeaten: Vec<PickList>,
    /// The list the original program's greedy substitution reaches.
    pub greedy: PickList,
    /// Whether the greedy list is unbeaten (the best list, or one of equally good ones).
    pub greedy_agrees: bool,
    /// Lists searched.
    pub multisets: usize,
    /// Races solved.
    pub races: u64,
}

/// Finds the lists no other list beats, going through all lists of `picks` sums; refused over
/// [`WorkLimit::DEFAULT`].
pub fn best(dice: &Dice, picks: u32) -> Result<BestReport, SearchError> {
    best_within(dice, picks, WorkLimit::DEFAULT, &NEVER)
}

/// [`best`], refused first when its estimate ([`best_work`]) passes `limit`, refused when what it
/// spends passes it, stopped when `halt` comes.
///
/// Each list is raced first against the strongest lists (by time to finish alone), so that most are
/// shown beaten in a few races; a list that survives is raced against every other list.
pub fn best_within(
    dice: &Dice,
    picks: u32,
    limit: WorkLimit,
    halt: &Halt,
) -> Result<BestReport, SearchError> {
    let lists = all_lists(dice, picks)?;
    limit
        .check(|| BEST_WHAT, best_work(dice, &lists, picks)?, SEARCH_RATE)
        .map_err(RaceError::from)?;
    best_spending(dice, picks, &lists, &Spending::new(BEST_WHAT, limit, halt))
}

/// [`best_within`] over `lists` once costed, its races counted by `spending`.
fn best_spending(
    dice: &Dice,
    picks: u32,
    lists: &[PickList],
    spending: &Spending,
) -> Result<BestReport, SearchError> {
    let times: Vec<f64> = lists
        .par_iter()
        .map(|l| spending.solo_time(dice, l))
        .collect::<Result<_, _>>()?;
    let mut order: Vec<usize> = (0..lists.len()).collect();
    order.sort_by(|&i, &j| times[i].total_cmp(&times[j]).then(i.cmp(&j)));
    let races = AtomicU64::new(lists.len() as u64);
    let beaten_by = |i: usize| -> Result<usize, SearchError> {
        let mut beaten = 0;
        for &j in &order {
            if j == i {
                continue;
            }
            races.fetch_add(1, AtomicOrdering::Relaxed);
            if spending.head_to_head(dice, &lists[j], &lists[i])? == Ordering::Greater {
                beaten += 1;
                return Ok(beaten);
            }
        }
        Ok(beaten)
    };
    let survivors: Vec<usize> = order
        .par_iter()
        .map(|&i| beaten_by(i).map(|b| (i, b)))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|&(_, beaten)| beaten == 0)
        .map(|(i, _)| i)
        .collect();
    let mut all_unbeaten: Vec<PickList> = survivors.iter().map(|&i| lists[i].clone()).collect();
    all_unbeaten.sort();
    let best = all_unbeaten
        .first()
        .cloned()
        .unwrap_or_else(|| lists[order[0]].clone());
    let greedy = greedy_spending(dice, picks, spending)?;
    Ok(BestReport {
        unbeaten: !all_unbeaten.is_empty(),
        greedy_agrees: all_unbeaten.contains(&greedy),
        best,
        all_unbeaten,
        greedy,
        multisets: lists.len(),
        races: races.into_inner(),
    })
}

/// The original program's greedy substitution. Sums are ranked by probability (ties: larger sum first) and the
/// list starts as the `picks` best-ranked sums. From the last position to the first, the sum there is
/// replaced in turn by each better-ranked sum; a replacement is kept when the new list beats the current
/// one head to head. The search stops at the first position where no replacement is kept.
pub fn greedy(dice: &Dice, picks: u32) -> Result<PickList, SearchError> {
    let spending = Spending::new("the greedy substitution", WorkLimit::DEFAULT, &NEVER);
    greedy_spending(dice, picks, &spending)
}

/// [`greedy`], its races counted by `spending`.
fn greedy_spending(dice: &Dice, picks: u32, spending: &Spending) -> Result<PickList, SearchError> {
    if picks == 0 {
        return Err(ListsError::NoPicks.into());
    }
    let mut ranked: Vec<u32> = dice.sums().collect();
    ranked.sort_by(|&a, &b| dice.ways(b).cmp(&dice.ways(a)).then(b.cmp(&a)));
    let mut list: Vec<usize> = (0..picks as usize)
        .map(|i| i.min(ranked.len() - 1))
        .collect();
    let as_list = |ranks: &[usize]| PickList::new(ranks.iter().map(|&r| ranked[r]).collect(), dice);
    for pos in (0..list.len()).rev() {
        let mut kept = false;
        for candidate in 0..list[pos] {
            let mut trial = list.clone();
            trial[pos] = candidate;
            let better = spending.head_to_head(dice, &as_list(&trial)?, &as_list(&list)?)?;
            if better == Ordering::Greater {
                list = trial;
                kept = true;
            }
        }
        if !kept {
            break;
        }
    }
    Ok(as_list(&list)?)
}

/// One list of an optimal mixed strategy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Weighted {
    /// The list.
    pub list: PickList,
    /// Its probability in the mix.
    pub weight: f64,
}

/// The pick game's optimal strategy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Equilibrium {
    /// Lists played with positive probability.
    pub support: Vec<Weighted>,
    /// The game's value for the row player (0 for a symmetric game, up to rounding).
    pub value: f64,
    /// Whether one list alone is optimal.
    pub pure: bool,
    /// Lists in the game.
    pub multisets: usize,
    /// Races solved.
    pub races: u64,
}

/// The equilibrium of the pick game: the engine's double oracle
/// ([`double_oracle`]) on the lists, the payoff of two lists being the first's
/// winning probability less the second's, starting from the list that finishes fastest alone.
/// Refused over [`WorkLimit::DEFAULT`].
pub fn equilibrium(dice: &Dice, picks: u32) -> Result<Equilibrium, SearchError> {
    equilibrium_within(dice, picks, WorkLimit::DEFAULT, &NEVER)
}

/// [`equilibrium`], refused first when its estimate ([`equilibrium_work`]) passes `limit`, refused
/// when what it spends passes it (a mix that keeps growing), stopped when `halt` comes.
pub fn equilibrium_within(
    dice: &Dice,
    picks: u32,
    limit: WorkLimit,
    halt: &Halt,
) -> Result<Equilibrium, SearchError> {
    let lists = all_lists(dice, picks)?;
    limit
        .check(|| EQUILIBRIUM_WHAT, equilibrium_work(&lists), SEARCH_RATE)
        .map_err(RaceError::from)?;
    equilibrium_spending(dice, &lists, &Spending::new(EQUILIBRIUM_WHAT, limit, halt))
}

/// [`equilibrium_within`] over `lists` once costed, its races counted by `spending`.
fn equilibrium_spending(
    dice: &Dice,
    lists: &[PickList],
    spending: &Spending,
) -> Result<Equilibrium, SearchError> {
    let mut cache: HashMap<(usize, usize), f64> = HashMap::new();
    let mut races = 0u64;
    let payoff = |i: usize, j: usize| -> Result<f64, SearchError> {
        if i == j {
            return Ok(0.0);
        }
        let key = (i.min(j), i.max(j));
        let v = match cache.get(&key) {
            Some(&v) => v,
            None => {
                let r = spending.race_fast(dice, &lists[key.0], &lists[key.1])?;
                races += 1;
                let v = r.p_first - r.p_second;
                cache.insert(key, v);
                v
            }
        };
        Ok(if i == key.0 { v } else { -v })
    };
    // Start from the strongest list alone.
    let times: Vec<f64> = lists
        .par_iter()
        .map(|l| spending.solo_time(dice, l))
        .collect::<Result<_, _>>()?;
    let start = (0..lists.len())
        .min_by(|&a, &b| times[a].total_cmp(&times[b]))
        .expect("at least one list");
    let mix = double_oracle(lists.len(), start, payoff).map_err(|e| match e {
        MatrixGameError::Payoff(e) => e,
        MatrixGameError::Lp(e) => SearchError::Lp(e),
    })?;
    let mut support: Vec<Weighted> = mix
        .weights
        .iter()
        .filter(|(_, w)| *w > 1e-9)
        .map(|&(i, weight)| Weighted {
            list: lists[i].clone(),
            weight,
        })
        .collect();
    support.sort_by(|a, b| b.weight.total_cmp(&a.weight).then(a.list.cmp(&b.list)));
    Ok(Equilibrium {
        pure: support.len() == 1,
        support,
        value: mix.value,
        multisets: lists.len(),
        races,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::halt::Halted;

    /// What a search estimated and what it spent, in search units.
    fn estimated_and_spent(dice: &Dice, picks: u32, equilibrium: bool) -> (u128, u128) {
        let lists = all_lists(dice, picks).unwrap();
        let spending = Spending::new("a test", WorkLimit::DEFAULT, &NEVER);
        let estimate = if equilibrium {
            equilibrium_spending(dice, &lists, &spending).unwrap();
            equilibrium_work(&lists)
        } else {
            best_spending(dice, picks, &lists, &spending).unwrap();
            best_work(dice, &lists, picks).unwrap()
        };
        (estimate, spending.spent.into_inner() as u128)
    }

    #[test]
    fn estimates_are_near_the_work_spent() {
        for (count, sides, picks, equilibrium) in [
            (2, 6, 1, false),
            (2, 6, 2, false),
            (2, 6, 3, false),
            (1, 6, 2, false),
            (1, 8, 3, false),
            (2, 3, 4, false),
            (2, 3, 6, false),
            (2, 6, 2, true),
            (2, 3, 6, true),
            (1, 6, 3, true),
        ] {
            let dice = Dice::new(count, sides).unwrap();
            let (estimate, spent) = estimated_and_spent(&dice, picks, equilibrium);
            let ratio = estimate as f64 / spent as f64;
            // Measured 0.28 (a mixed equilibrium, whose oracle runs more rounds than the two
            // estimated; its spending stops it at the limit) to 3.7 (2d3, 4 picks).
            assert!(
                (0.25..=4.0).contains(&ratio),
                "{count}d{sides}, {picks} picks, equilibrium {equilibrium}: {estimate} estimated, \
                 {spent} spent"
            );
        }
    }

    #[test]
    fn searches_over_their_limit_are_refused_and_halts_stop_them() {
        let dice = Dice::new(2, 6).unwrap();
        let lists = all_lists(&dice, 2).unwrap();
        assert_eq!(best_work(&dice, &lists, 2).unwrap(), 97_827);
        // Half a millisecond is 5·10^4 search units.
        let limit = WorkLimit::of(std::time::Duration::from_micros(500));
        assert_eq!(
            best_within(&dice, 2, limit, &NEVER)
                .unwrap_err()
                .to_string(),
            "searching every list for the unbeaten one would take under a second here (9.8·10^4 \
             units of work; the limit is 5·10^4, under a second)"
        );
        assert_eq!(equilibrium_work(&lists), 35_055);
        let limit = WorkLimit::of(std::time::Duration::from_micros(100));
        assert_eq!(
            equilibrium_within(&dice, 2, limit, &NEVER)
                .unwrap_err()
                .to_string(),
            "searching every list for the optimal mix would take under a second here (3.5·10^4 \
             units of work; the limit is 1·10^4, under a second)"
        );
        // Under the limit, a past deadline stops both at their first race.
        let past = Halt::after(std::time::Duration::ZERO);
        let halted = SearchError::Race(RaceError::Halted(Halted::TimeLimit { millis: 0 }));
        assert_eq!(
            best_within(&dice, 2, WorkLimit::DEFAULT, &past).unwrap_err(),
            halted
        );
        assert_eq!(
            equilibrium_within(&dice, 2, WorkLimit::DEFAULT, &past).unwrap_err(),
            halted
        );
    }

    #[test]
    fn a_search_that_outruns_its_limit_is_stopped() {
        // The mixed equilibrium of 2d3 with 6 picks spends about 2.4·10^6 units, 3.6 times its
        // estimate: a limit between the two lets it start and stops it, refused.
        let dice = Dice::new(2, 3).unwrap();
        let limit = WorkLimit::of(std::time::Duration::from_millis(10));
        let e = equilibrium_within(&dice, 6, limit, &NEVER).unwrap_err();
        assert!(
            matches!(&e, SearchError::Race(RaceError::TooSlow(over)) if over.limit == 1_000_000),
            "{e}"
        );
    }

    #[test]
    fn one_pick_on_two_dice() {
        let dice = Dice::new(2, 6).unwrap();
        let r = best(&dice, 1).unwrap();
        assert_eq!(r.best.sums(), &[7]);
        assert!(r.unbeaten);
        assert_eq!(r.greedy.sums(), &[7]);
        let e = equilibrium(&dice, 1).unwrap();
        assert!(e.pure);
        assert_eq!(e.support[0].list.sums(), &[7]);
    }
}
