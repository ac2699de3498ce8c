//! What the dice race's searches cost before they start: `best` and `equilibrium` race lists
//! against lists, so their cost is the races they will run times what each race costs — the states
//! of the two lists' race (each sum's larger count plus one, multiplied), and for ties, which are
//! decided again exactly, the exact race's work ([`Race::exact_work`]).
//!
//! How many races a search runs depends on the answer, which is not known up front. What is known
//! is where the answer can lie: a permutation of the sums that keeps each sum's number of ways
//! maps a race to one of equal chances, so every list of an *orbit* (the lists one such permutation
//! makes of another) is as strong as the others, and two of them tie. The unbeaten lists are such
//! an orbit (on one die, every list of the same shape; on 2d6, a list and its mirror), and each is
//! raced against every list, tying — and so racing exactly — with the others of its orbit. The
//! estimate takes the orbit of the list that picks each sum in proportion to its chance as the
//! unbeaten one ([`likely_orbit`]); every other list is taken as beaten within [`BEATEN_WITHIN`]
//! races by the strongest lists. The searches also count what they spend as they go and stop,
//! refused, at the limit: a search that would outrun its estimate (an equilibrium whose mix grows
//! past two lists, a best list of another orbit) never runs past the limit.

use super::dice::Dice;
use super::race::{PickList, Race, RaceError, EXACT_RATE, FAST_RATE};
use crate::engine::util::cost::Rate;

/// Search units a second: float-race units (one sum looked at in one state of a race, plus
/// [`RACE_OVERHEAD`] a race), exact work counted at its speed relative to floats. Measured on the
/// hardest searches found (release build, a busy 2-core machine, the searches racing on both
/// cores): 1 die of 12 sides with 4 picks (an orbit of 495 unbeaten lists), 2d3 with 20 picks
/// (10 626 lists of big races); see BENCHMARKS.md.
pub const SEARCH_RATE: Rate = Rate::per_second(100_000_000);

/// What building one race costs in float-race units (its sums and counts): about a microsecond.
pub const RACE_OVERHEAD: u128 = 100;

/// Races a list that some list beats is taken to run before it meets one (each list is raced
/// against the strongest first; measured: about 3 races a list on 2d6).
pub const BEATEN_WITHIN: u128 = 4;

/// What `best` is called in its refusal.
pub const BEST_WHAT: &str = "searching every list for the unbeaten one";

/// What `equilibrium` is called in its refusal.
pub const EQUILIBRIUM_WHAT: &str = "searching every list for the optimal mix";

/// `exact` units of exact work ([`Race::exact_work`]) in float-race units.
pub fn exact_in_float_units(exact: u128) -> u128 {
    exact.saturating_mul(FAST_RATE.per_second as u128) / EXACT_RATE.per_second.max(1) as u128
}

/// A float race's cost from the two lists alone (no race built): its states (each sum's larger
/// count plus one, multiplied) times the sums looked at in each (twice each sum, plus one), plus
/// [`RACE_OVERHEAD`]. Saturates.
pub fn float_race_units(a: &PickList, b: &PickList) -> u128 {
    let (a, b) = (a.sums(), b.sums());
    let (mut i, mut j) = (0, 0);
    let (mut states, mut sums) = (1u128, 0u128);
    while i < a.len() || j < b.len() {
        let sum = match (a.get(i), b.get(j)) {
            (Some(&x), Some(&y)) => x.min(y),
            (Some(&x), None) => x,
            (None, Some(&y)) => y,
            (None, None) => break,
        };
        let (mut ca, mut cb) = (0u128, 0u128);
        while a.get(i) == Some(&sum) {
            ca += 1;
            i += 1;
        }
        while b.get(j) == Some(&sum) {
            cb += 1;
            j += 1;
        }
        states = states.saturating_mul(ca.max(cb) + 1);
        sums += 1;
    }
    states
        .saturating_mul(2 * sums + 1)
        .saturating_add(RACE_OVERHEAD)
}

/// A list's orbit (see the module): the counts it picks of sums of each number of ways, sorted.
fn orbit_key(dice: &Dice, sums: &[u32]) -> Vec<(u128, u32)> {
    let mut key: Vec<(u128, u32)> = Vec::new();
    let mut k = 0;
    while k < sums.len() {
        let run = sums[k..].iter().take_while(|&&s| s == sums[k]).count();
        key.push((dice.ways(sums[k]), run as u32));
        k += run;
    }
    key.sort_unstable();
    key
}

/// The lists of the orbit taken as unbeaten (see the module): indices into `lists`, in their order.
/// It is the orbit of the list that picks each sum in proportion to its chance (`picks · ways /
/// outcomes`, rounded down, the picks left going to the largest remainders, then to the sums of
/// more ways, then to the larger sums) — the shape of the strongest lists found (on 2d6 the 5 sums
/// 5 to 9, alone of its orbit; on one die, every list of distinct sums).
pub fn likely_orbit(dice: &Dice, lists: &[PickList], picks: u32) -> Vec<usize> {
    let total = dice.total() as f64;
    let mut shares: Vec<(u32, u32, f64)> = dice
        .sums()
        .map(|s| {
            let quota = picks as f64 * dice.ways(s) as f64 / total;
            (s, quota.floor() as u32, quota - quota.floor())
        })
        .collect();
    let left = picks.saturating_sub(shares.iter().map(|&(_, c, _)| c).sum());
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&i, &j| {
        let (si, _, ri) = shares[i];
        let (sj, _, rj) = shares[j];
        rj.total_cmp(&ri)
            .then(dice.ways(sj).cmp(&dice.ways(si)))
            .then(sj.cmp(&si))
    });
    for &i in order.iter().take(left as usize) {
        shares[i].1 += 1;
    }
    let likely: Vec<u32> = shares
        .iter()
        .flat_map(|&(s, count, _)| std::iter::repeat_n(s, count as usize))
        .collect();
    let key = orbit_key(dice, &likely);
    (0..lists.len())
        .filter(|&i| orbit_key(dice, lists[i].sums()) == key)
        .collect()
}

/// Σ over `lists` of `f(list)`, saturating.
fn total(lists: &[PickList], f: impl Fn(&PickList) -> u128) -> u128 {
    lists.iter().fold(0u128, |t, l| t.saturating_add(f(l)))
}

/// The estimate of [`best`](super::search::best) over `lists` (every list of `picks` sums of
/// `dice`), in search units: every list raced against itself (its time alone); every list raced
/// [`BEATEN_WITHIN`] times against a list of the likely orbit; each list of that orbit raced against
/// every list, exactly against the others of its orbit; and the greedy substitution (`picks` positions,
/// each tried against at most `picks` better sums). Refused, as the search would be, if a race of
/// the orbit has too many states.
pub fn best_work(dice: &Dice, lists: &[PickList], picks: u32) -> Result<u128, RaceError> {
    let orbit = likely_orbit(dice, lists, picks);
    let Some(&first) = orbit.first() else {
        return Ok(0);
    };
    let o = &lists[first];
    let solo = total(lists, |l| float_race_units(l, l));
    let beaten = total(lists, |l| float_race_units(l, o)).saturating_mul(BEATEN_WITHIN);
    let size = orbit.len() as u128;
    let unbeaten = total(lists, |l| float_race_units(o, l)).saturating_mul(size);
    let last = &lists[*orbit.last().expect("a first, so a last")];
    let ties = if size > 1 {
        let exact = Race::new(dice, o, last)?.exact_work();
        exact_in_float_units(exact).saturating_mul(size * (size - 1))
    } else {
        0
    };
    let sums = (dice.max_sum() - dice.min_sum() + 1) as u128;
    let greedy = (picks as u128)
        .saturating_mul(sums.min(picks as u128))
        .saturating_mul(float_race_units(o, o).saturating_mul(2));
    Ok([solo, beaten, unbeaten, ties, greedy]
        .into_iter()
        .fold(0u128, u128::saturating_add))
}

/// The estimate of [`equilibrium`](super::search::equilibrium) over `lists`, in search units: every
/// list raced against itself, and two rounds of the double oracle (the best reply to the first
/// list, and the check that none does better), each racing every list against the list of the most
/// states. A mix that grows further is stopped by the search at the limit.
pub fn equilibrium_work(lists: &[PickList]) -> u128 {
    let solo = total(lists, |l| float_race_units(l, l));
    let Some(biggest) = lists.iter().max_by_key(|l| float_race_units(l, l)) else {
        return 0;
    };
    let round = total(lists, |l| float_race_units(biggest, l));
    solo.saturating_add(round.saturating_mul(2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dice_race::lists::all_lists;

    #[test]
    fn a_float_race_costs_its_states_and_sums() {
        let dice = Dice::new(2, 6).unwrap();
        let list = |t: &str| PickList::parse(t, &dice).unwrap();
        // 6 (count 1), 7 (count 2 against 1), 8: 2 · 3 · 2 states, 3 sums.
        let units = float_race_units(&list("6,7,7"), &list("7,8"));
        assert_eq!(units, 12 * 7 + RACE_OVERHEAD);
        let race = Race::new(&dice, &list("6,7,7"), &list("7,8")).unwrap();
        assert_eq!(units, race.fast_work() + RACE_OVERHEAD);
    }

    #[test]
    fn the_likely_orbit_picks_sums_by_their_chances() {
        // One die: every list of distinct sums is of one orbit.
        let die = Dice::new(1, 6).unwrap();
        let lists = all_lists(&die, 1).unwrap();
        assert_eq!(likely_orbit(&die, &lists, 1).len(), 6);
        let lists = all_lists(&die, 2).unwrap();
        assert_eq!(likely_orbit(&die, &lists, 2).len(), 15);
        // 2d6: 7 alone, then 5 to 9 (alone of their orbit).
        let dice = Dice::new(2, 6).unwrap();
        let lists = all_lists(&dice, 1).unwrap();
        assert_eq!(likely_orbit(&dice, &lists, 1), vec![5]);
        let lists = all_lists(&dice, 5).unwrap();
        let orbit = likely_orbit(&dice, &lists, 5);
        assert_eq!(orbit.len(), 1);
        assert_eq!(lists[orbit[0]].sums(), &[5, 6, 7, 8, 9]);
    }
}
