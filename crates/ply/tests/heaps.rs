//! Lowest-heap Nim: the closed form proved against the engine's generic solver on every small
//! configuration, and the known values of the seed and of Codeforces 1382B.

use ply::engine::conformance;
use ply::engine::impartial::{Convention, ImpartialSolver};
use ply::games::heaps::{analyse, solve_batch, LowestHeapGame, Side, Take};

/// Every configuration of 1 to `heaps` heaps of 1 to `size` counters.
fn configurations(heaps: usize, size: u64) -> Vec<Vec<u64>> {
    let mut all = Vec::new();
    let mut layer: Vec<Vec<u64>> = vec![vec![]];
    for _ in 0..heaps {
        layer = layer
            .iter()
            .flat_map(|c| (1..=size).map(move |s| [c.clone(), vec![s]].concat()))
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
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

#[test]
fn seed_examples() {
    let cases: [(&[u64], &str); 8] = [
        (&[1, 2, 2, 2, 1], "second"),
        (&[1, 2, 3, 1, 2], "second"),
        (&[2, 3], "first"),
        (&[1, 2], "second"),
        (&[2, 1], "first"),
        (&[1, 2, 3, 1, 4], "second"),
        (&[1, 1, 2, 3], "first"),
        (&[2, 1, 3, 4, 5], "first"),
    ];
    for (sizes, winner) in cases {
        assert_eq!(
            analyse(sizes, Convention::Normal).winner.name(),
            winner,
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
    let many: Vec<u64> = vec![1; 100_000];
    assert_eq!(analyse(&many, Convention::Normal).winner, Side::Second);
    assert_eq!(analyse(&many, Convention::Misere).winner, Side::First);
}
