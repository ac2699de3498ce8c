//! Number Solitaire boards (`ply solitaire`), read by the streaming token reader.

use num_rational::BigRational;
use num_traits::{One, Zero};
use plysolve::engine::util::halt::NEVER;
use plysolve::games::solitaire::{
    solve, PathMode, SolitaireQuery, SolitaireReport, EXACT_LIMIT, EXPLAIN_LIMIT,
};
use plysolve::input::tokens::IntReader;

/// The die whose exact answers are checked: exact fractions are costly, so the other dice (and longer
/// boards) ask only for the best result, and for the expected result in floats on boards too long
/// for fractions.
const EXACT_FACES: u64 = 3;
/// Boards up to this many squares get the exact expected result (fractions grow with the board).
const EXACT_SQUARES: usize = 16;
/// Boards up to this many squares also get their distribution of results, checked exactly against
/// the expected result.
const DISTRIBUTION_SQUARES: usize = 8;

/// The integers of `data` as the token reader gives them, or `None` at the first bad token.
fn read_all(data: &[u8]) -> Option<Vec<i64>> {
    let mut reader = IntReader::new(data);
    let mut values = Vec::new();
    loop {
        match reader.next_int() {
            Ok(Some(value)) => values.push(value),
            Ok(None) => return Some(values),
            Err(fault) => {
                drop(fault.to_string());
                return None;
            }
        }
    }
}

/// Checks a board: the token reader reads back what it read, written with spaces; solving with dice of
/// 1, 3 and 6 faces succeeds exactly when the tokens read, and each answer is checked (see
/// `check_report`).
pub fn check_solitaire(data: &[u8]) {
    let values = read_all(data);
    if let Some(values) = &values {
        let written: Vec<String> = values.iter().map(i64::to_string).collect();
        let again = read_all(written.join(" ").as_bytes());
        assert_eq!(
            again.as_ref(),
            Some(values),
            "read → write → read changed the board"
        );
    }
    for faces in [1, EXACT_FACES, 6] {
        let n = values.as_ref().map_or(0, Vec::len);
        let options = SolitaireQuery {
            expected: (faces == EXACT_FACES && n <= EXACT_SQUARES) || n > EXACT_LIMIT,
            distribution: faces == EXACT_FACES && (1..=DISTRIBUTION_SQUARES).contains(&n),
            explain: n <= EXPLAIN_LIMIT,
            ..SolitaireQuery::best(faces, PathMode::Always)
        };
        match (solve(data, options, &NEVER), &values) {
            (Ok(report), Some(values)) => check_report(&report, values, faces),
            (Err(fault), _) => drop(fault.to_string()),
            (Ok(report), None) => panic!("solved a board whose tokens do not read: {report:?}"),
        }
    }
}

/// Checks a report on `values` with a die of `faces`: the best result is the plain dynamic
/// programme's, the path is legal and adds up to it, and the distribution of results sums to one and
/// averages to the exact expected result.
fn check_report(report: &SolitaireReport, values: &[i64], faces: u64) {
    assert!(!values.is_empty(), "an empty board solved");
    assert_eq!(report.n, values.len() as u64);
    assert_eq!(report.best, best_by_table(values, faces as usize));
    let path = report.path.as_ref().expect("the path was asked for");
    assert_eq!(path.first(), Some(&0), "a path starts on square 0");
    assert_eq!(path.last(), Some(&(report.n - 1)), "and ends on the last");
    let throws: Vec<u64> = path.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(report.throws.as_ref(), Some(&throws));
    assert!(throws.iter().all(|t| (1..=faces).contains(t)), "{throws:?}");
    let total: i128 = path.iter().map(|&s| i128::from(values[s as usize])).sum();
    assert_eq!(total, report.best, "the path adds up to the best result");
    let (Some(distribution), Some(expected)) = (&report.distribution, &report.expected_exact)
    else {
        return;
    };
    let fraction = |text: &str| {
        text.parse::<BigRational>()
            .expect("a printed fraction parses")
    };
    let mut sum = BigRational::zero();
    let mut mean = BigRational::zero();
    for row in distribution {
        let p = fraction(&row.probability);
        mean += BigRational::from_integer(row.result.into()) * &p;
        sum += p;
    }
    assert!(sum.is_one(), "the probabilities sum to {sum}");
    assert_eq!(
        mean,
        fraction(expected),
        "distribution and expectation disagree"
    );
}

/// The best result by the textbook table: the best total arriving on each square is its value plus
/// the best of the `faces` squares before it. O(n · faces).
fn best_by_table(values: &[i64], faces: usize) -> i128 {
    let mut best: Vec<i128> = Vec::with_capacity(values.len());
    for (j, &value) in values.iter().enumerate() {
        let before = best[j.saturating_sub(faces)..j].iter().max().copied();
        best.push(i128::from(value) + before.unwrap_or(0));
    }
    best[values.len() - 1]
}
