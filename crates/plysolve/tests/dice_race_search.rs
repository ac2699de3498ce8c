//! The dice race's searches: the best list, the equilibrium of the pick game and the lists they go
//! through, checked against the independent reference of `reference/dice_race.rs` (every list listed
//! one by one, every race solved by its own recursion) and against known values.

use crate::reference;

use num_rational::BigRational;
use plysolve::games::dice_race::lists::{all_lists, multiset_count};
use plysolve::games::dice_race::search::{best, equilibrium, head_to_head};
use plysolve::games::dice_race::{Dice, PickList};
use reference::dice_race::{all_sums, assert_close, enumerate_dice, multisets, race, Outcome};
use std::cmp::Ordering;
use std::collections::BTreeSet;

// ---------------------------------------------------------------------------------------------
// Searches: the best list and the equilibrium.
// ---------------------------------------------------------------------------------------------

#[test]
fn the_seed_list_is_unbeaten_and_greedy_finds_it() {
    let dice = Dice::new(2, 6).unwrap();
    let r = best(&dice, 5).unwrap();
    assert_eq!(r.best.sums(), &[5, 6, 7, 8, 9]);
    assert!(r.unbeaten);
    let unbeaten: Vec<&[u32]> = r.all_unbeaten.iter().map(PickList::sums).collect();
    assert_eq!(unbeaten, [&[5, 6, 7, 8, 9]]);
    assert_eq!(r.greedy.sums(), &[5, 6, 7, 8, 9]);
    assert!(r.greedy_agrees);
    assert_eq!(r.multisets, 3003);
    // At least one race per list, at most every pair and every list alone.
    assert!(
        (3003..=3003 + 3003 * 3002).contains(&r.races),
        "{}",
        r.races
    );
    // Unbeaten for real: it beats every other list head to head, and the reference agrees.
    let (ways, total) = enumerate_dice(2, 6);
    for other in all_lists(&dice, 5).unwrap() {
        if other == r.best {
            continue;
        }
        let o: Outcome<f64> = race(&ways, total, r.best.sums(), other.sums());
        assert!(
            o.first - o.second > 1e-9,
            "[5,6,7,8,9] beats {other:?}: {o:?}"
        );
        assert_eq!(
            head_to_head(&dice, &r.best, &other).unwrap(),
            Ordering::Greater,
            "{other:?}"
        );
    }
}

#[test]
fn the_best_single_pick() {
    // Two dice: 7, the likeliest sum, beats every other sum.
    let r = best(&Dice::new(2, 6).unwrap(), 1).unwrap();
    let unbeaten: Vec<&[u32]> = r.all_unbeaten.iter().map(PickList::sums).collect();
    assert_eq!((r.best.sums(), r.greedy.sums()), (&[7][..], &[7][..]));
    assert_eq!(
        (r.unbeaten, unbeaten, r.greedy_agrees),
        (true, vec![&[7][..]], true)
    );
    assert_eq!(r.multisets, 11);
    // One die: every face is as likely as any other, so every single pick is unbeaten (the reference
    // calls every race even); the first is reported best, greedy ranks the largest first.
    let one_die = Dice::new(1, 6).unwrap();
    let r = best(&one_die, 1).unwrap();
    let unbeaten: Vec<&[u32]> = r.all_unbeaten.iter().map(PickList::sums).collect();
    assert_eq!(unbeaten, [[1], [2], [3], [4], [5], [6]]);
    assert_eq!((r.best.sums(), r.greedy.sums()), (&[1][..], &[6][..]));
    assert_eq!((r.unbeaten, r.greedy_agrees, r.multisets), (true, true, 6));
    let (ways, total) = enumerate_dice(1, 6);
    for a in 1..=6 {
        for b in 1..=6 {
            let o: Outcome<BigRational> = race(&ways, total, &[a], &[b]);
            assert_eq!(o.first, o.second, "[{a}] against [{b}]");
        }
    }
}

#[test]
fn no_list_of_six_picks_on_two_d3_is_unbeaten() {
    let dice = Dice::new(2, 3).unwrap();
    let r = best(&dice, 6).unwrap();
    assert!(!r.unbeaten && r.all_unbeaten.is_empty());
    assert_eq!((r.multisets, r.greedy_agrees), (210, false));
    assert_eq!(r.greedy.sums(), &[2, 3, 4, 4, 5, 6]);
    assert_eq!(r.best.sums().len(), 6);
    // Independently: every one of the 210 lists loses to some other list, and `best` (with no
    // unbeaten list) is a list that finishes fastest on its own.
    let (ways, total) = enumerate_dice(2, 3);
    let lists = multisets(&all_sums(2, 3), 6);
    assert_eq!(lists.len(), 210);
    for list in &lists {
        let beaten = lists.iter().any(|other| {
            let o: Outcome<f64> = race(&ways, total, other, list);
            o.first - o.second > 1e-9
        });
        assert!(beaten, "some list beats {list:?}");
    }
    let solo = |l: &[u32]| race::<f64>(&ways, total, l, l).rolls;
    let fastest = lists.iter().map(|l| solo(l)).fold(f64::INFINITY, f64::min);
    assert_close(
        solo(r.best.sums()),
        fastest,
        1e-9,
        "best finishes fastest alone",
    );
}

#[test]
fn the_equilibrium_is_pure_where_a_list_is_unbeaten() {
    for (picks, list, lists) in [(5, &[5, 6, 7, 8, 9][..], 3003), (1, &[7][..], 11)] {
        let e = equilibrium(&Dice::new(2, 6).unwrap(), picks).unwrap();
        assert!(e.pure, "{picks} picks");
        assert_eq!(e.multisets, lists);
        assert_eq!(e.support.len(), 1);
        assert_eq!(e.support[0].list.sums(), list);
        assert_close(e.support[0].weight, 1.0, 1e-12, "weight");
        assert_close(e.value, 0.0, 1e-9, "a symmetric game is worth 0");
    }
}

#[test]
fn mixed_equilibrium_when_no_list_is_unbeaten() {
    let dice = Dice::new(2, 3).unwrap();
    let e = equilibrium(&dice, 6).unwrap();
    assert!(!e.pure);
    assert_eq!(e.multisets, 210);
    assert_close(e.value, 0.0, 1e-9, "a symmetric game is worth 0");
    assert!(e.support.len() >= 2, "a mixed strategy: {:?}", e.support);
    let total: f64 = e.support.iter().map(|w| w.weight).sum();
    assert_close(total, 1.0, 1e-9, "weights");
    for w in &e.support {
        assert!(w.weight > 0.0 && w.weight < 1.0, "{w:?}");
        assert_eq!(w.list.sums().len(), 6);
    }
    // Heaviest first.
    assert!(e.support.windows(2).all(|p| p[0].weight >= p[1].weight));
    // Independently: the mix does at least as well as the value (0) against every list.
    let (ways, total) = enumerate_dice(2, 3);
    for column in multisets(&all_sums(2, 3), 6) {
        let against: f64 = e
            .support
            .iter()
            .map(|w| {
                let o: Outcome<f64> = race(&ways, total, w.list.sums(), &column);
                w.weight * (o.first - o.second)
            })
            .sum();
        assert!(against >= -1e-9, "the mix loses to {column:?}: {against}");
    }
}

// ---------------------------------------------------------------------------------------------
// The lists: counted without overflow, listed, and searched when many picks make few lists.
// ---------------------------------------------------------------------------------------------

/// Multisets of `picks` out of `sums` kinds by Pascal's rule, M(s, p) = M(s − 1, p) + M(s, p − 1),
/// saturating at `u128::MAX`: sums only, no products, unlike `multiset_count`.
fn pascal_multisets(sums: usize, picks: usize) -> u128 {
    let mut row = vec![1u128; picks + 1]; // one kind: one multiset of every size
    for _ in 1..sums {
        for p in 1..=picks {
            row[p] = row[p].saturating_add(row[p - 1]);
        }
    }
    row[picks]
}

#[test]
fn list_counts_do_not_overflow() {
    assert_eq!(multiset_count(2, 200), 201);
    assert_eq!(multiset_count(1, 140), 1);
    for sums in 1..=12 {
        for picks in [1, 2, 5, 9, 60, 127, 128, 140, 200, 500, 1000] {
            assert_eq!(
                multiset_count(sums, picks),
                pascal_multisets(sums as usize, picks as usize),
                "{sums} sums, {picks} picks"
            );
        }
    }
    // C(199, 100) is past 2^128 and saturates; C(119, 60), near 10^35, is exact.
    assert_eq!(multiset_count(100, 100), pascal_multisets(100, 100));
    assert_eq!(multiset_count(100, 100), u128::MAX);
    assert_eq!(multiset_count(60, 60), pascal_multisets(60, 60));
    assert!(multiset_count(60, 60) < u128::MAX);
    // 100 picks of the 11 sums of 2d6: C(110, 10); 10^7 picks are past 2^128.
    assert_eq!(multiset_count(11, 100), 46_897_636_623_981);
    assert_eq!(multiset_count(11, 10_000_000), u128::MAX);
}

#[test]
fn all_lists_are_the_multisets() {
    for (count, sides, picks) in [(2, 6, 5), (2, 4, 3), (2, 3, 6), (1, 6, 1), (3, 4, 2)] {
        let dice = Dice::new(count, sides).unwrap();
        let lists: BTreeSet<Vec<u32>> = all_lists(&dice, picks)
            .unwrap()
            .iter()
            .map(|l| l.sums().to_vec())
            .collect();
        let want: BTreeSet<Vec<u32>> = multisets(&all_sums(count, sides), picks as usize)
            .into_iter()
            .collect();
        assert_eq!(lists, want, "{picks} picks on {count}d{sides}");
        assert_eq!(
            multiset_count(sides * count - count + 1, picks),
            want.len() as u128
        );
    }
}

#[test]
fn many_picks_of_few_sums_are_searched() {
    // One die of one side, 140 picks: one list, unbeaten.
    let one_side = Dice::new(1, 1).unwrap();
    let r = best(&one_side, 140).unwrap();
    assert_eq!((r.multisets, r.best.sums()), (1, &[1u32; 140][..]));
    assert!(r.unbeaten);
    // A coin, 200 picks: 201 lists; by symmetry the one unbeaten list is half ones, half twos.
    let coin = Dice::new(1, 2).unwrap();
    let lists = all_lists(&coin, 200).unwrap();
    assert_eq!(lists.len(), 201);
    assert_eq!(lists[0].sums(), &[1u32; 200][..]);
    let r = best(&coin, 200).unwrap();
    let half: Vec<u32> = [vec![1; 100], vec![2; 100]].concat();
    assert_eq!((r.multisets, r.best.sums()), (201, &half[..]));
    assert_eq!((r.unbeaten, r.all_unbeaten.len()), (true, 1));
}
