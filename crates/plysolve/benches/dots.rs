//! Dots benchmarks: the classic board's full table against the seed's bottom-up loop, memoized
//! recursion from the empty board, and a Triangle War input of 100 000 games.
//!
//! Run: `cargo bench -p plysolve --bench dots`. Figures go to BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use plysolve::engine::scored::memo::{DenseStore, MemoSolver};
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::Solver;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::triangle_war::{parse_games, verdicts};
use plysolve::games::dots::{DotsBoard, Edge, EdgeSet, Geometry};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::fmt::Write;
use std::hint::black_box;

fn classic() -> DotsBoard {
    Geometry::CLASSIC_TRIANGLES.build().unwrap().board
}

/// The seed's third program (dottri4): one array of 2^18 values, filled from the full board down,
/// trying every edge and counting completed triangles from a list — single-threaded, no layout.
fn seed_bottom_up(board: &DotsBoard) -> Vec<i8> {
    let edges = board.edge_count();
    let triangles: Vec<u64> = (0..board.cell_count())
        .map(|c| board.cell_edges(c).iter().fold(0, |m, e| m | 1 << e.0))
        .collect();
    let mut dp = vec![0i8; 1 << edges];
    for state in (0..1u64 << edges).rev() {
        let mut best = i32::MIN;
        for e in 0..edges {
            if state >> e & 1 == 1 {
                continue;
            }
            let child = state | 1 << e;
            let made = triangles
                .iter()
                .filter(|&&t| t >> e & 1 == 1 && child & t == t)
                .count() as i32;
            let v = dp[child as usize] as i32;
            best = best.max(if made > 0 { made + v } else { -v });
        }
        dp[state as usize] = if best == i32::MIN { 0 } else { best as i8 };
    }
    dp
}

/// `games` random Triangle War games (6 to 18 legal moves each) in the contest format.
pub fn war_input(games: usize, seed: u64) -> String {
    let board = classic();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut edges: Vec<u8> = (0..18).collect();
    let mut text = format!("{games}\n");
    for _ in 0..games {
        edges.shuffle(&mut rng);
        let m = rng.random_range(6..=18);
        let _ = writeln!(text, "{m}");
        for &e in &edges[..m] {
            let (a, b) = board.endpoints(Edge(e));
            let _ = writeln!(text, "{} {}", a + 1, b + 1);
        }
    }
    text
}

fn tables(c: &mut Criterion) {
    let board = classic();
    let budget = MemoryBudget::new(1 << 30);
    let mut group = c.benchmark_group("classic_table");
    group.bench_function("seed_bottom_up_baseline", |b| {
        b.iter(|| seed_bottom_up(black_box(&board)))
    });
    group.bench_function("ply_table_general_path", |b| {
        b.iter(|| SubsetTable::build_general(black_box(&board), budget).unwrap())
    });
    group.bench_function("ply_table", |b| {
        b.iter(|| SubsetTable::build(black_box(&board), budget, Watch::default()).unwrap())
    });
    group.bench_function("ply_memo_from_empty", |b| {
        b.iter(|| {
            let store = DenseStore::new(&board, budget).unwrap();
            MemoSolver::new(&board, store)
                .unwrap()
                .value(&EdgeSet(0))
                .unwrap()
        })
    });
    group.finish();
}

/// Memoized recursion on the size-4 board from a position with 22 free edges, with and without
/// keying the store by the board's six symmetries.
fn symmetry(c: &mut Criterion) {
    use plysolve::engine::scored::memo::{CanonicalStore, HashStore};
    use plysolve::engine::scored::SubsetIndexed;
    let board = Geometry::Triangles { size: 4 }.build().unwrap().board;
    // Eight edges drawn symmetrically around the centre: 1-2, 1-3 and the bottom row.
    let drawn = [
        (0, 1),
        (0, 2),
        (10, 11),
        (11, 12),
        (12, 13),
        (13, 14),
        (6, 7),
        (8, 9),
    ]
    .iter()
    .fold(0u64, |m, &(a, b)| {
        m | 1 << board.edge_between(a, b).unwrap().0
    });
    let budget = MemoryBudget::new(8 << 30);
    let mut group = c.benchmark_group("memo_symmetry");
    group.sample_size(10);
    let mut visited = (0, 0);
    group.bench_function("size4_22_free_plain", |b| {
        b.iter(|| {
            let mut memo = MemoSolver::new(&board, HashStore::new(budget)).unwrap();
            let v = memo.value(&EdgeSet(drawn)).unwrap();
            visited.0 = memo.states_visited();
            v
        })
    });
    let symmetries = board.symmetries().unwrap();
    group.bench_function("size4_22_free_canonical", |b| {
        b.iter(|| {
            let store = CanonicalStore::new(&board, symmetries, HashStore::new(budget));
            let mut memo = MemoSolver::new(&board, store).unwrap();
            let v = memo.value(&EdgeSet(drawn)).unwrap();
            visited.1 = memo.states_visited();
            v
        })
    });
    group.finish();
    println!(
        "states visited: plain {}, canonical {}",
        visited.0, visited.1
    );
}

/// Would a table over canonical states only pay for itself? It holds one value per class of symmetric
/// states, but a lookup must compute the canonical form and find its rank. Measured on the classic
/// board: direct lookups against canonical form + binary search over the sorted classes.
fn canonical_table(c: &mut Criterion) {
    use plysolve::engine::scored::SubsetIndexed;
    let board = classic();
    let symmetries = board.symmetries().unwrap();
    let table = SubsetTable::build(&board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
    let mut classes: Vec<u64> = (0..1u64 << 18).map(|m| symmetries.canonical(m)).collect();
    classes.sort_unstable();
    classes.dedup();
    println!(
        "classic board: {} states, {} canonical classes",
        1u64 << 18,
        classes.len()
    );
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let masks: Vec<u64> = (0..4096).map(|_| rng.random_range(0..1u64 << 18)).collect();
    let mut group = c.benchmark_group("canonical_table_lookup");
    group.bench_function("direct_4096_lookups", |b| {
        b.iter(|| masks.iter().map(|&m| table.value_of_mask(m)).sum::<i32>())
    });
    group.bench_function("canonical_rank_4096_lookups", |b| {
        b.iter(|| {
            masks
                .iter()
                .map(|&m| classes.binary_search(&symmetries.canonical(m)).unwrap_or(0) as i32)
                .sum::<i32>()
        })
    });
    group.finish();
}

fn triangle_war(c: &mut Criterion) {
    let board = classic();
    let input = war_input(100_000, 1);
    let mut group = c.benchmark_group("triangle_war");
    group.sample_size(20);
    group.bench_function("100k_games_parse_solve", |b| {
        b.iter(|| {
            let positions = parse_games(&board, black_box(&input)).unwrap();
            let table =
                SubsetTable::build(&board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
            verdicts(&table, &positions)
        })
    });
    group.finish();
}

criterion_group!(benches, tables, symmetry, canonical_table, triangle_war);
criterion_main!(benches);
