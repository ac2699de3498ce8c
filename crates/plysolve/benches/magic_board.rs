//! MagicBoard benchmarks: statistics over random 20×20 boards (generation and four verdicts each), and
//! the four corners of a 1000×1000 board with their shortest paths.
//!
//! Run: `cargo bench -p plysolve --bench magic_board`. Figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use plysolve::engine::MemoryBudget;
use plysolve::games::magic_board::{generate, solve, stats, SizeRule, Wanted};
use std::hint::black_box;

fn magic_board(c: &mut Criterion) {
    let mut group = c.benchmark_group("magic_board");
    group.sample_size(10);
    group.bench_function("stats_d20_100k_boards", |b| {
        b.iter(|| stats(20, black_box(100_000), 1, SizeRule::Seed, None).unwrap())
    });
    let big = generate(1000, 1, Wanted::Any, SizeRule::Any).unwrap();
    let budget = MemoryBudget::new(1 << 32);
    group.bench_function("solve_d1000_four_corners", |b| {
        b.iter(|| solve(black_box(&big), None, budget).unwrap())
    });
    group.finish();
}

criterion_group!(benches, magic_board);
criterion_main!(benches);
