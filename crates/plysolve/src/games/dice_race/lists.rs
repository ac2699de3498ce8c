//! Every pick list of a dice race: how many there are (multisets of sums, counted without
//! overflow), the lists themselves for an exhaustive search, and the words a refusal uses for counts
//! too large to go through.

use super::dice::Dice;
use super::race::{PickList, RaceError};
use crate::engine::util::cost::duration_text;
use thiserror::Error;

/// Most lists an exhaustive search goes through.
pub const MAX_MULTISETS: u128 = 20_000;

/// Why the lists of a pick game cannot be gone through.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ListsError {
    /// No picks.
    #[error("each list must pick at least 1 sum")]
    NoPicks,
    /// Too many lists to go through.
    #[error(
        "{picks} picks of {sums} sums make {} lists; the exhaustive search is limited to \
         {MAX_MULTISETS} lists (up to {} exact races, {})",
        count_text(*multisets),
        count_text(races(*multisets)),
        duration(races(*multisets))
    )]
    TooMany {
        /// Picks per list.
        picks: u32,
        /// Possible sums.
        sums: u32,
        /// Lists there would be.
        multisets: u128,
    },
    /// A list the dice cannot roll.
    #[error(transparent)]
    Race(#[from] RaceError),
}

/// Races an exhaustive search over `lists` lists may need at worst: every pair, `u128::MAX` when that
/// does not fit (or `lists` itself did not).
fn races(lists: u128) -> u128 {
    if lists == u128::MAX {
        return u128::MAX;
    }
    // One of lists and lists − 1 is even: halve it before multiplying.
    let (a, b) = match lists % 2 {
        0 => (lists / 2, lists.saturating_sub(1)),
        _ => (lists, (lists - 1) / 2),
    };
    a.saturating_mul(b)
}

/// A rough time for `races` races at 20 µs each on 2 cores, for refusals: "about 12 hours".
fn duration(races: u128) -> String {
    duration_text(races as f64 * 10e-6)
}

/// Number of multisets of `picks` out of `sums` kinds: C(sums + picks − 1, picks), or `u128::MAX` when
/// it does not fit in 128 bits.
///
/// C(n, k) = C(n, n − k), so the product runs over the smaller of `picks` and `sums − 1`, and each step
/// C(n, i + 1) = C(n, i) · (n − i) / (i + 1) divides before it multiplies: an intermediate overflows only
/// when the answer does. Many picks of few sums (140 picks of 1 sum: 1 list) are counted exactly.
pub fn multiset_count(sums: u32, picks: u32) -> u128 {
    if sums == 0 {
        return (picks == 0) as u128;
    }
    let n = sums as u128 + picks as u128 - 1;
    let k = (picks as u128).min(sums as u128 - 1);
    let mut c: u128 = 1;
    for i in 0..k {
        // c · (n − i) is divisible by i + 1; split i + 1 between the two factors.
        let g = gcd(c, i + 1);
        let factor = (n - i) / ((i + 1) / g);
        c = match (c / g).checked_mul(factor) {
            Some(x) => x,
            None => return u128::MAX,
        };
    }
    c
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A count of lists for messages: the number, or "over 10^38" when it does not fit in 128 bits.
fn count_text(count: u128) -> String {
    if count == u128::MAX {
        "over 10^38".into()
    } else {
        count.to_string()
    }
}

/// Every list of `picks` sums of `dice`, refused over [`MAX_MULTISETS`].
pub fn all_lists(dice: &Dice, picks: u32) -> Result<Vec<PickList>, ListsError> {
    if picks == 0 {
        return Err(ListsError::NoPicks);
    }
    let sums: Vec<u32> = dice.sums().collect();
    let multisets = multiset_count(sums.len() as u32, picks);
    if multisets > MAX_MULTISETS {
        return Err(ListsError::TooMany {
            picks,
            sums: sums.len() as u32,
            multisets,
        });
    }
    let mut lists = Vec::with_capacity(multisets as usize);
    let mut current = Vec::with_capacity(picks as usize);
    fn extend(
        sums: &[u32],
        from: usize,
        left: u32,
        current: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
    ) {
        if left == 0 {
            out.push(current.clone());
            return;
        }
        for i in from..sums.len() {
            current.push(sums[i]);
            extend(sums, i, left - 1, current, out);
            current.pop();
        }
    }
    let mut raw = Vec::new();
    extend(&sums, 0, picks, &mut current, &mut raw);
    for sums in raw {
        lists.push(PickList::new(sums, dice)?);
    }
    Ok(lists)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_multisets() {
        assert_eq!(multiset_count(11, 5), 3003);
        assert_eq!(multiset_count(7, 1), 7);
        let dice = Dice::new(2, 6).unwrap();
        assert_eq!(all_lists(&dice, 2).unwrap().len(), 66);
        assert!(matches!(
            all_lists(&dice, 9),
            Err(ListsError::TooMany {
                multisets: 92378,
                ..
            })
        ));
        assert_eq!(all_lists(&dice, 0), Err(ListsError::NoPicks));
    }
}
