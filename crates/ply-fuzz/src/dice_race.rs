//! Dice-race pick lists (`ply dice-race compare 5,6,7 8,9`).

use crate::text;
use num_rational::BigRational;
use num_traits::One;
use plysolve::games::dice_race::{compare, parse_sums, Dice, PickList};

/// Lists of at most this many sums are also raced.
const RACED_PICKS: usize = 4;

/// Checks a list on two dice, one die of four sides and three dice of six: written back with commas it
/// parses the same; it is a valid pick list; a short list races against the list `7` (or the dice's
/// smallest sum) both ways round, and the two races agree with each other and sum to one.
pub fn check_dice_race(data: &[u8]) {
    let text = text(data);
    for (count, sides) in [(2, 6), (1, 4), (3, 6)] {
        let dice = Dice::new(count, sides).expect("small dice");
        let sums = match parse_sums(&text, &dice) {
            Ok(sums) => sums,
            Err(fault) => {
                drop(fault.to_string());
                continue;
            }
        };
        let written: Vec<String> = sums.iter().map(u32::to_string).collect();
        let again = parse_sums(&written.join(","), &dice).expect("written sums parse again");
        assert_eq!(again, sums, "parse → format → parse changed the sums");
        let list = PickList::new(sums.clone(), &dice).expect("parsed sums make a list");
        let mut sorted = sums;
        sorted.sort_unstable();
        assert_eq!(list.sums(), sorted, "a list keeps its sums, sorted");
        if list.sums().len() <= RACED_PICKS {
            let rival = PickList::new(vec![7.max(dice.min_sum()).min(dice.max_sum())], &dice)
                .expect("a possible sum");
            let ahead = compare(&dice, &list, &rival).expect("a short race solves");
            let behind = compare(&dice, &rival, &list).expect("a short race solves");
            assert_eq!(ahead.p_first, behind.p_second, "{list:?} against {rival:?}");
            assert_eq!(ahead.p_second, behind.p_first, "{list:?} against {rival:?}");
            assert_eq!(ahead.p_tie, behind.p_tie, "{list:?} against {rival:?}");
            assert_eq!(ahead.expected_rolls, behind.expected_rolls);
            let total: BigRational = ahead.p_first + ahead.p_second + ahead.p_tie;
            assert!(total.is_one(), "the outcomes of a race sum to {total}");
        }
    }
}
