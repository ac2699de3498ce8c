//! Dice race benchmarks: the exhaustive best-list search on 2d6 with 5 picks, and the seed's Monte
//! Carlo verdict against the exact comparison for [5,6,7,8,9] vs [5,6,7,8,7].
//!
//! Run: `cargo bench -p plysolve --bench dice_race`. Figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use plysolve::games::dice_race::search::{best, equilibrium};
use plysolve::games::dice_race::simulate::simulate;
use plysolve::games::dice_race::{compare, compare_fast, Dice, PickList};
use std::hint::black_box;

fn dice_race(c: &mut Criterion) {
    let dice = Dice::new(2, 6).unwrap();
    let a = PickList::parse("5,6,7,8,9", &dice).unwrap();
    let b = PickList::parse("5,6,7,8,7", &dice).unwrap();
    let mut group = c.benchmark_group("dice_race");
    group.sample_size(10);
    group.bench_function("simulate_seed_method_to_verdict", |bench| {
        bench.iter(|| {
            simulate(
                &dice,
                black_box(&a),
                black_box(&b),
                10_000,
                10_000_000,
                1,
                None,
            )
            .unwrap()
        })
    });
    group.bench_function("compare_exact_rationals", |bench| {
        bench.iter(|| compare(&dice, black_box(&a), black_box(&b)).unwrap())
    });
    group.bench_function("compare_f64", |bench| {
        bench.iter(|| compare_fast(&dice, black_box(&a), black_box(&b)).unwrap())
    });
    group.bench_function("best_picks5_2d6", |bench| {
        bench.iter(|| best(&dice, black_box(5)).unwrap())
    });
    group.bench_function("equilibrium_picks5_2d6", |bench| {
        bench.iter(|| equilibrium(&dice, black_box(5)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, dice_race);
criterion_main!(benches);
