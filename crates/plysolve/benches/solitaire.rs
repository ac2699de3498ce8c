//! Number Solitaire benchmarks: the integer reader alone on 10^6 numbers (against the standard
//! library's split-and-parse), and the streaming solver on a 10^6-square board for a 6-sided and a
//! 100 000-sided die, against the seed's inner loop over the last K squares.
//!
//! Run: `cargo bench -p plysolve --bench solitaire`. Figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use plysolve::engine::util::halt::NEVER;
use plysolve::games::solitaire::{solve, PathMode, SolitaireQuery};
use plysolve::input::tokens::IntReader;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::hint::black_box;

fn board(n: usize) -> (Vec<i64>, String) {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
    let values: Vec<i64> = (0..n).map(|_| rng.random_range(-10_000..=10_000)).collect();
    let text = values
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join("\n");
    (values, text)
}

/// The seed's algorithm: for each square, the best of the K squares before it (O(N·K)).
fn seed_loop(a: &[i64], k: usize) -> i64 {
    let mut result = vec![i64::MIN; a.len()];
    result[0] = a[0];
    for i in 1..a.len() {
        for j in i.saturating_sub(k)..i {
            result[i] = result[i].max(result[j] + a[i]);
        }
    }
    result[a.len() - 1]
}

/// The sum of every integer `IntReader` reads from `text`.
fn read_all(text: &str) -> i64 {
    let mut reader = IntReader::new(text.as_bytes());
    let mut sum = 0i64;
    while let Some(v) = reader.next_int().unwrap() {
        sum = sum.wrapping_add(v);
    }
    sum
}

/// The same sum through the standard library: split on separators, `str::parse` each token.
fn std_parse(text: &str) -> i64 {
    text.split([',', ' ', '\t', '\n', '\r'])
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<i64>().unwrap())
        .fold(0i64, i64::wrapping_add)
}

fn reader(c: &mut Criterion) {
    let (values, text) = board(1_000_000);
    let sum = values.iter().sum::<i64>();
    assert_eq!((read_all(&text), std_parse(&text)), (sum, sum));
    let mut group = c.benchmark_group("read_1e6_integers");
    group.sample_size(20);
    group.throughput(criterion::Throughput::Bytes(text.len() as u64));
    group.bench_function("std_split_parse_baseline", |b| {
        b.iter(|| std_parse(black_box(&text)))
    });
    group.bench_function("int_reader", |b| b.iter(|| read_all(black_box(&text))));
    group.finish();
}

fn solitaire(c: &mut Criterion) {
    let (values, text) = board(1_000_000);
    let mut group = c.benchmark_group("solitaire_1e6");
    group.sample_size(20);
    group.bench_function("seed_loop_k6_baseline_parsed", |b| {
        b.iter(|| seed_loop(black_box(&values), 6))
    });
    group.bench_function("stream_k6_parse_and_solve", |b| {
        b.iter(|| {
            solve(
                black_box(text.as_bytes()),
                SolitaireQuery::best(6, PathMode::Never),
                &NEVER,
            )
            .unwrap()
        })
    });
    group.bench_function("stream_k100000_parse_and_solve", |b| {
        b.iter(|| {
            solve(
                black_box(text.as_bytes()),
                SolitaireQuery::best(100_000, PathMode::Never),
                &NEVER,
            )
            .unwrap()
        })
    });
    group.bench_function("path_k6_parse_and_solve", |b| {
        b.iter(|| {
            solve(
                black_box(text.as_bytes()),
                SolitaireQuery::best(6, PathMode::Always),
                &NEVER,
            )
            .unwrap()
        })
    });
    let mut expected = SolitaireQuery::best(6, PathMode::Never);
    expected.expected = true;
    group.bench_function("expected_k6_parse_and_solve", |b| {
        b.iter(|| solve(black_box(text.as_bytes()), expected, &NEVER).unwrap())
    });
    group.finish();
}

criterion_group!(benches, reader, solitaire);
criterion_main!(benches);
