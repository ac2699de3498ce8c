//! Heap sizes given as arguments (`ply heaps 1 2 3`) and the Codeforces 1382B batch format.

use crate::text;
use plysolve::engine::impartial::{Convention, ImpartialSolver};
use plysolve::games::heaps::{analyse, parse_sizes, solve_batch, LowestHeapGame, Side};

/// Positions with at most this many heaps of at most this many counters are also solved by the
/// engine's generic impartial solver.
const SMALL: u64 = 6;

/// Checks heap sizes: written back separated by spaces they parse the same; the closed form answers
/// under both conventions, and on a small position agrees with the generic solver.
pub fn check_heaps_args(data: &[u8]) {
    let sizes = match parse_sizes(&text(data)) {
        Ok(sizes) => sizes,
        Err(fault) => return drop(fault.to_string()),
    };
    let written: Vec<String> = sizes.iter().map(u64::to_string).collect();
    let again = parse_sizes(&written.join(" ")).expect("written sizes parse again");
    assert_eq!(again, sizes, "parse → format → parse changed the sizes");
    for convention in [Convention::Normal, Convention::Misere] {
        let report = analyse(&sizes, convention);
        if let Some(mv) = report.winning_move {
            assert!(
                mv.heap == 1 && (1..=sizes[0]).contains(&mv.take),
                "{mv:?} is not a move of {sizes:?}"
            );
        }
        if sizes.len() as u64 <= SMALL && sizes.iter().all(|&s| s <= SMALL) {
            let game = LowestHeapGame {
                sizes: sizes.clone(),
            };
            let mut solver = ImpartialSolver::new(&game, convention);
            let proof = solver.outcome(&game.start());
            let context = format!("{sizes:?} {convention:?}");
            assert_eq!(report.winner == Side::First, proof.wins, "{context}");
            assert_eq!(report.remoteness, proof.remoteness, "{context}");
        }
    }
}

/// Checks a batch: a parsed batch answers every declared test, each as the heap-size reader and the
/// closed form answer that test's line of sizes alone.
pub fn check_heaps_batch(data: &[u8]) {
    let text = text(data);
    for convention in [Convention::Normal, Convention::Misere] {
        let answers = match solve_batch(&text, convention) {
            Ok(answers) => answers,
            Err(fault) => return drop(fault.to_string()),
        };
        // The records, as the format states them: t, then per test a line n and a line of n sizes.
        // Lines end as the reader ends them: at LF, CR LF or a lone CR.
        let lines: Vec<&str> = text
            .split(['\r', '\n'])
            .filter(|l| !l.trim().is_empty())
            .collect();
        let count = parse_sizes(lines[0]).expect("a batch starts with its count");
        assert_eq!(count.len(), 1, "a count line holds one number");
        let tests = count[0] as usize;
        assert_eq!(answers.len(), tests, "one answer per declared test");
        assert_eq!(
            lines.len(),
            1 + 2 * tests,
            "a parsed batch holds only its tests"
        );
        for (test, &first_wins) in answers.iter().enumerate() {
            let sizes = parse_sizes(lines[2 + 2 * test]).expect("a batch line of sizes parses");
            let alone = analyse(&sizes, convention).winner == Side::First;
            assert_eq!(first_wins, alone, "test {} of {text:?}", test + 1);
        }
    }
}
