//! Number Solitaire benchmarks: the streaming solver on a 10^6-square board for a 6-sided and a
//! 100 000-sided die, against the seed's inner loop over the last K squares.
//!
//! Run: `cargo bench -p ply --bench solitaire`. Figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use ply::games::solitaire::{solve, PathMode, SolitaireOptions};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;

fn board(n: usize) -> (Vec<i64>, String) {
    let mut rng = StdRng::seed_from_u64(1);
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
                SolitaireOptions::best(6, PathMode::Never),
            )
            .unwrap()
        })
    });
    group.bench_function("stream_k100000_parse_and_solve", |b| {
        b.iter(|| {
            solve(
                black_box(text.as_bytes()),
                SolitaireOptions::best(100_000, PathMode::Never),
            )
            .unwrap()
        })
    });
    group.bench_function("path_k6_parse_and_solve", |b| {
        b.iter(|| {
            solve(
                black_box(text.as_bytes()),
                SolitaireOptions::best(6, PathMode::Always),
            )
            .unwrap()
        })
    });
    let mut expected = SolitaireOptions::best(6, PathMode::Never);
    expected.expected = true;
    group.bench_function("expected_k6_parse_and_solve", |b| {
        b.iter(|| solve(black_box(text.as_bytes()), expected).unwrap())
    });
    group.finish();
}

criterion_group!(benches, solitaire);
criterion_main!(benches);
