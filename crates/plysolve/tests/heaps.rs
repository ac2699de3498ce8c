//! Lowest-heap Nim: the closed form proved against the engine's generic solver and against an
//! independent brute force (the explicit game tree of `reference/heaps.rs`) on every small
//! configuration, the batch reader against the same brute force, and the known values of the seed and
//! of Codeforces 1382B.

use crate::reference;

use plysolve::engine::conformance;
use plysolve::engine::impartial::{Convention, ImpartialSolver};
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::Player;
use plysolve::games::heaps::play::{Grade, HeapsGame};
use plysolve::games::heaps::request::HeapsQuery;
use plysolve::games::heaps::{analyse, solve_batch, LowestHeapGame, Side, Take};
use plysolve::input::number_list::NumberList;
use reference::heaps::{after, configurations, grundy, solve, start, winning_take, Solved, State};

/// The convention the brute force calls `misere`.
fn convention(misere: bool) -> Convention {
    if misere {
        Convention::Misere
    } else {
        Convention::Normal
    }
}

#[test]
fn reference_knows_the_small_cases() {
    // Normal play: one heap is taken at once; two single counters are taken in turn.
    let won = |r| Solved {
        wins: true,
        remoteness: r,
    };
    let lost = |r| Solved {
        wins: false,
        remoteness: r,
    };
    assert_eq!(solve(&[3], start(&[3]), false), won(1));
    assert_eq!(solve(&[1, 1], start(&[1, 1]), false), lost(2));
    assert_eq!(solve(&[2, 1], start(&[2, 1]), false), won(3));
    // Misère play: whoever takes the single last counter loses.
    assert_eq!(solve(&[1], start(&[1]), true), lost(1));
    assert_eq!(solve(&[3], start(&[3]), true), won(2));
    // [2, 1]: taking 1 leaves [1, 1], lost in 2; taking both leaves [1], won.
    assert_eq!(
        solve(&[2, 1], after(&[2, 1], start(&[2, 1]), 1), false),
        lost(2)
    );
    assert_eq!(winning_take(&[2, 1], false), Some(1));
    assert_eq!(winning_take(&[3], true), Some(2));
    assert_eq!(winning_take(&[1, 1], false), None);
    // Grundy: a lone heap is plain Nim; [1, 1] is 0; [2, 1] has options 0 ([1, 1]) and 1 ([1]).
    assert_eq!(grundy(&[5], start(&[5])), 5);
    assert_eq!(grundy(&[1, 1], start(&[1, 1])), 0);
    assert_eq!(grundy(&[2, 1], start(&[2, 1])), 2);
    assert_eq!(configurations(4, 4).len(), 4 + 16 + 64 + 256);
}

#[test]
fn closed_form_matches_the_generic_solver_on_every_small_configuration() {
    let configs = configurations(6, 5);
    assert_eq!(configs.len(), 5 + 25 + 125 + 625 + 3125 + 15625);
    for convention in [Convention::Normal, Convention::Misere] {
        for sizes in &configs {
            let game = LowestHeapGame {
                sizes: sizes.clone(),
            };
            let mut solver = ImpartialSolver::new(&game, convention);
            let start = game.start();
            assert_eq!(conformance::impartial(&game, &[start], 100), Ok(()));
            let proof = solver.outcome(&start);
            let report = analyse(sizes, convention);
            let context = format!("{sizes:?} {convention:?}");
            assert_eq!(report.winner == Side::First, proof.wins, "{context}");
            assert_eq!(report.remoteness, proof.remoteness, "{context}");
            let best: Vec<Take> = solver
                .best_moves(&start)
                .into_iter()
                .map(|(m, _)| m)
                .collect();
            match report.winning_move {
                Some(mv) => assert!(best.contains(&mv), "{context}: {mv:?} not among {best:?}"),
                None => assert!(best.is_empty(), "{context}"),
            }
            let grundy = (convention == Convention::Normal).then(|| solver.grundy(&start));
            assert_eq!(report.grundy, grundy, "{context}");
        }
    }
}

/// Every configuration of up to 4 heaps of up to 4 counters (340 of them), under both conventions:
/// the winner, the remoteness, the one best winning move and the Grundy value of [`analyse`] are the
/// brute force's.
#[test]
fn closed_form_matches_the_brute_force_on_every_small_configuration() {
    let mut first_wins = [0, 0];
    for misere in [false, true] {
        for sizes in configurations(4, 4) {
            let here = format!("{sizes:?}, misère {misere}");
            let truth = solve(&sizes, start(&sizes), misere);
            let report = analyse(&sizes, convention(misere));
            assert_eq!(report.winner, Side::winner(truth.wins), "{here}");
            assert_eq!(report.remoteness, truth.remoteness, "{here}");
            let take = winning_take(&sizes, misere);
            assert_eq!(
                report.winning_move,
                take.map(|take| Take { heap: 1, take }),
                "{here}"
            );
            assert_eq!(report.convention, convention(misere), "{here}");
            if misere {
                assert_eq!(report.grundy, None, "{here}");
            } else {
                let g = grundy(&sizes, start(&sizes));
                assert_eq!(report.grundy, Some(g), "{here}");
                assert_eq!(g == 0, !truth.wins, "Grundy 0 exactly when lost: {here}");
            }
            first_wins[misere as usize] += truth.wins as usize;
        }
    }
    // Both sides win somewhere under both conventions: the sweep is not one-sided.
    assert!(
        first_wins.iter().all(|&n| 0 < n && n < 340),
        "{first_wins:?}"
    );
}

/// The same 340 configurations as one Codeforces 1382B batch: [`solve_batch`] answers each test as the
/// brute force does.
#[test]
fn batch_matches_the_brute_force_on_every_small_configuration() {
    let all = configurations(4, 4);
    let mut input = format!("{}\n", all.len());
    for sizes in &all {
        let sizes_line: Vec<String> = sizes.iter().map(u64::to_string).collect();
        input.push_str(&format!("{}\n{}\n", sizes.len(), sizes_line.join(" ")));
    }
    for misere in [false, true] {
        let expected: Vec<bool> = all
            .iter()
            .map(|sizes| solve(sizes, start(sizes), misere).wins)
            .collect();
        assert_eq!(
            solve_batch(&input, convention(misere)).unwrap(),
            expected,
            "misère {misere}"
        );
    }
}

#[test]
fn seed_examples() {
    // Sizes, the winning take from heap 1 (none when the second player wins), remoteness.
    let cases: [(&[u64], Option<u64>, u64); 8] = [
        (&[1, 2, 2, 2, 1], None, 8),
        (&[1, 2, 3, 1, 2], None, 6),
        (&[2, 3], Some(1), 3),
        (&[1, 2], None, 2),
        (&[2, 1], Some(1), 3),
        (&[1, 2, 3, 1, 4], None, 6),
        (&[1, 1, 2, 3], Some(1), 5),
        (&[2, 1, 3, 4, 5], Some(2), 7),
    ];
    for (sizes, take, remoteness) in cases {
        let r = analyse(sizes, Convention::Normal);
        assert_eq!(r.winner, Side::winner(take.is_some()), "{sizes:?}");
        assert_eq!(r.winning_move, take.map(|take| Take { heap: 1, take }));
        assert_eq!(r.remoteness, remoteness, "{sizes:?}");
        // The brute force agrees.
        let truth = solve(sizes, start(sizes), false);
        assert_eq!((truth.wins, truth.remoteness), (take.is_some(), remoteness));
        assert_eq!(winning_take(sizes, false), take, "{sizes:?}");
    }
}

#[test]
fn grundy_values_beyond_the_sweep() {
    // Larger than the exhaustive sweep, still within the brute force's reach.
    for (sizes, g) in [
        (&[5][..], 5),
        (&[1, 1][..], 0),
        (&[2, 1][..], 2),
        (&[1, 1, 2, 3][..], 1),
        (&[5, 2, 7][..], 5),
        (&[6, 6, 1, 2][..], 5),
        (&[1, 4, 4][..], 0),
    ] {
        assert_eq!(grundy(sizes, start(sizes)), g, "{sizes:?}");
        assert_eq!(
            analyse(sizes, Convention::Normal).grundy,
            Some(g),
            "{sizes:?}"
        );
    }
}

#[test]
fn codeforces_1382b_sample() {
    let input = "7\n3\n2 5 4\n8\n1 1 1 1 1 1 1 1\n6\n1 2 3 4 5 6\n6\n1 1 2 1 2 2\n1\n1000000000\n5\n1 2 2 1 1\n3\n1 1 1\n";
    let answers = solve_batch(input, Convention::Normal).unwrap();
    assert_eq!(answers, vec![true, false, false, true, true, false, true]);
}

#[test]
fn huge_heaps_are_answered_in_closed_form() {
    let r = analyse(&[u64::MAX, 1, u64::MAX], Convention::Normal);
    assert_eq!(r.winner, Side::First);
    // The rest [1, MAX] is lost by whoever moves (the forced 1 hands over [MAX]): take heap 1 whole.
    assert_eq!(
        r.winning_move,
        Some(Take {
            heap: 1,
            take: u64::MAX
        })
    );
    assert_eq!(r.remoteness, 3);
    let r = analyse(&[u64::MAX, u64::MAX], Convention::Normal);
    // The rest [MAX] is won by whoever moves: leave one counter.
    assert_eq!(
        r.winning_move,
        Some(Take {
            heap: 1,
            take: u64::MAX - 1
        })
    );
    assert_eq!(r.remoteness, 3);
}

/// One batch test of `n` heaps: all 1 but those given as (0-based index, size).
fn one_test_of_ones(n: usize, others: &[(usize, u64)]) -> String {
    let mut sizes = vec!["1".to_string(); n];
    for &(i, s) in others {
        sizes[i] = s.to_string();
    }
    format!("1\n{n}\n{}\n", sizes.join(" "))
}

#[test]
fn a_hundred_thousand_heaps_in_one_test() {
    let first_wins = |input: &str, convention| solve_batch(input, convention).unwrap() == [true];
    // 100 000 single counters: taken in turn, the second player takes the last.
    assert!(!first_wins(
        &one_test_of_ones(100_000, &[]),
        Convention::Normal
    ));
    // 99 999 single counters then 2: the 99 999 forced moves hand the 2 to the second player, who
    // takes it all.
    let two_last = one_test_of_ones(100_000, &[(99_999, 2)]);
    assert!(!first_wins(&two_last, Convention::Normal));
    // 99 998 single counters then a 2 and a 1: the first player gets the 2 and leaves one.
    let two_then_one = one_test_of_ones(100_000, &[(99_998, 2)]);
    assert!(first_wins(&two_then_one, Convention::Normal));
    // A 2 first: the first player controls the game.
    let two_first = one_test_of_ones(100_000, &[(0, 2)]);
    assert!(first_wins(&two_first, Convention::Normal));
    // Under misère play the one who takes the 100 000th single counter loses.
    assert!(first_wins(
        &one_test_of_ones(100_000, &[]),
        Convention::Misere
    ));
}

/// Walks every position of `sizes` reachable from its start by every sequence of takes, once each
/// (the reference's state: lowest heap and counters left), calling `check` with the game there.
fn every_position(sizes: &[u64], misere: bool, check: &mut impl FnMut(&HeapsGame, State)) {
    let heaps = NumberList::Numbers(sizes.iter().map(u64::to_string).collect());
    let game = HeapsGame::new(&HeapsQuery::new(&heaps, misere).unwrap());
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(game, start(sizes))];
    while let Some((game, state)) = stack.pop() {
        if !seen.insert(state) {
            continue;
        }
        check(&game, state);
        if let Some((_, left)) = game.lowest() {
            for take in 1..=left {
                let mut next = game.clone();
                next.take(take).unwrap();
                stack.push((next, after(sizes, state, take)));
            }
        }
    }
}

/// The game record ([`HeapsGame`]) on every position of up to 4 heaps of up to 4 counters, under
/// both conventions: where it takes from, the value, every take's grade and the end are the brute
/// force's.
#[test]
fn the_game_record_grades_every_take_as_the_brute_force_values_it() {
    let mut grades = std::collections::HashMap::new();
    for misere in [false, true] {
        for sizes in configurations(4, 4) {
            every_position(&sizes, misere, &mut |game, state| {
                let here = format!("{sizes:?} at {state:?}, misère {misere}");
                let truth = solve(&sizes, state, misere);
                let outcome = game.outcome();
                assert_eq!(
                    (outcome.wins, outcome.remoteness),
                    (truth.wins, truth.remoteness),
                    "{here}"
                );
                if state.0 == sizes.len() {
                    assert!(game.is_over() && game.moves().is_empty(), "{here}");
                    // The last taker wins under normal play and loses under misère play.
                    let last = game.last_mover().unwrap();
                    assert_eq!(
                        game.winner(),
                        Some(if misere { last.other() } else { last }),
                        "{here}"
                    );
                    return;
                }
                assert_eq!(game.lowest(), Some((state.0 + 1, state.1)), "{here}");
                assert_eq!(game.winner(), None, "{here}");
                for take in 1..=state.1 {
                    let child = solve(&sizes, after(&sizes, state, take), misere);
                    let expected = match (truth.wins, child.wins) {
                        (false, _) => Grade::LostAnyway,
                        (true, true) => Grade::GivesTheWinAway,
                        (true, false) if child.remoteness + 1 == truth.remoteness => Grade::Best,
                        (true, false) => Grade::WinsMoreSlowly,
                    };
                    assert_eq!(game.grade(take), Ok(expected), "{here} take {take}");
                    *grades.entry(expected).or_insert(0) += 1;
                }
                assert!(
                    game.grade(state.1 + 1).is_err() && game.grade(0).is_err(),
                    "{here}"
                );
            });
        }
    }
    // Every grade the game can give occurs but "wins, more slowly": in lowest-heap Nim the winning
    // take is unique, so a take that keeps the win is the fastest.
    assert!(grades[&Grade::Best] > 0 && grades[&Grade::LostAnyway] > 0);
    assert!(grades[&Grade::GivesTheWinAway] > 0);
    assert_eq!(grades.get(&Grade::WinsMoreSlowly), None);
}

/// Two perfect players through the game record: the first wins exactly when the brute force says
/// so, in exactly the remoteness of the start, whatever the seed.
#[test]
fn perfect_play_through_the_game_record_ends_as_the_brute_force_says() {
    for misere in [false, true] {
        for sizes in configurations(3, 4) {
            let truth = solve(&sizes, start(&sizes), misere);
            for seed in 0..3 {
                let heaps = NumberList::Numbers(sizes.iter().map(u64::to_string).collect());
                let mut game = HeapsGame::new(&HeapsQuery::new(&heaps, misere).unwrap());
                let mut chooser = Chooser::new(seed);
                while let Some(choice) = game.perfect_take(&mut chooser) {
                    let grade = game.take(choice.take).unwrap().grade;
                    assert!(
                        matches!(grade, Grade::Best | Grade::LostAnyway),
                        "{grade:?}"
                    );
                }
                let here = format!("{sizes:?} misère {misere} seed {seed}");
                assert_eq!(game.winner() == Some(Player::A), truth.wins, "{here}");
                assert_eq!(game.played() as u64, truth.remoteness, "{here}");
            }
        }
    }
}
