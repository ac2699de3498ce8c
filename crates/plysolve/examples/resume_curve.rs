//! How much of a stopped search a resumed one saves, by how many of its proved states are kept
//! (BENCHMARKS, "what a resumed proof saves"): searches a 4×4 position to the end, then again
//! stopped after SHARE of those states, then — for each choice of how deep and how many states
//! to keep ([`SearchMemory::proved`]) — again in a new table seeded with them, printing the
//! states each search visited.
//!
//! `cargo run --release -p plysolve --example resume_curve -- "6-7 7-8 17-18 18-19 9-10" 0.8`

use plysolve::engine::scored::search::{SearchMemory, SearchOptions, SearchSolver};
use plysolve::engine::scored::{Solver, SubsetIndexed};
use plysolve::engine::util::halt::Halt;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::notation::position_from_moves;
use plysolve::games::dots::Geometry;
use std::sync::Arc;

/// The search's table.
const TABLE_BYTES: u64 = 2 << 30;

/// Each keep tried: states of at most so many fewer free edges than the position, at most so many.
const KEEPS: [(u32, usize); 6] = [
    (14, 2_000_000),
    (14, 8_000_000),
    (20, 8_000_000),
    (20, 32_000_000),
    (40, 32_000_000),
    (40, usize::MAX),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(moves), Some(share)) = (args.get(1), args.get(2).and_then(|s| s.parse::<f64>().ok()))
    else {
        eprintln!("usage: resume_curve MOVES SHARE (a 4×4 position, the share of its states before the stop)");
        std::process::exit(2);
    };
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let drawn = match position_from_moves(&built.board, moves) {
        Ok(position) => position.drawn(),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let items = built.board.items();
    let free = items - drawn.0.count_ones();
    let budget = MemoryBudget::new(8 << 30);
    let halt = Halt::never();
    let options = |node_limit| SearchOptions {
        node_limit,
        ..SearchOptions::plain(TABLE_BYTES, budget, &halt)
    };
    let memory = || Arc::new(SearchMemory::new(TABLE_BYTES, budget).unwrap());
    // Searches in `memory` (seeded with `seed`), giving up after `limit` states.
    let run = |memory: &Arc<SearchMemory>, limit, seed: &[_]| {
        let mut solver =
            SearchSolver::with_memory(&built.board, options(limit), memory.clone()).unwrap();
        solver.seed(seed);
        let started = std::time::Instant::now();
        let found = solver.range(&drawn).ok();
        let seconds = started.elapsed().as_secs_f64();
        (found, solver.states_visited(), seconds)
    };
    let (value, states, seconds) = run(&memory(), None, &[]);
    println!("fresh: {value:?}, {states} states, {seconds:.1} s");
    let stopped = memory();
    let (value, states, seconds) = run(&stopped, Some((states as f64 * share) as u64), &[]);
    println!("stopped: {value:?}, {states} states, {seconds:.1} s");
    for (below, most) in KEEPS {
        let kept = stopped.proved(items, free.saturating_sub(below), most);
        let (value, states, seconds) = run(&memory(), None, &kept);
        println!(
            "kept {} states (up to {below} fewer free, at most {most}; the fewest free {:?}): \
             resumed {value:?}, {states} states, {seconds:.1} s",
            kept.len(),
            kept.last().map(|p| p.free)
        );
    }
}
