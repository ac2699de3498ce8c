//! A search table in the host's shared memory (`SearchMemory::on_host`): two memories opened under
//! one name are one table, as two processes of one machine would open it. A search in the second
//! gives the value a search alone gives, on random 3×4 positions of 20–24 free edges, and — the
//! first having searched the position — in a few nodes; two searches at once, one in each, give
//! their own values; a search of another board is refused the table, and so is a second table of
//! another size under the name.

use crate::shared_bounds::random_positions;
use plysolve::engine::scored::search::{SearchMemory, SearchOptions, SearchSolver};
use plysolve::engine::scored::{SolveError, Solver};
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::{DotsBoard, EdgeSet, Geometry};
use std::sync::Arc;

/// Bytes of the tables.
const TABLE: u64 = 16 << 20;

fn budget() -> MemoryBudget {
    MemoryBudget::new(1 << 30)
}

/// A name no other test (or run of this one) uses at once.
fn name(test: &str) -> String {
    format!("t-{test}-{}", std::process::id())
}

/// The value of `drawn` by a search in `memory` (a table of its own when `None`), and its nodes.
fn value(
    board: &DotsBoard,
    drawn: u64,
    memory: Option<&Arc<SearchMemory>>,
) -> Result<(i32, u64), SolveError> {
    let options = SearchOptions {
        endgame: 7,
        ..SearchOptions::plain(TABLE, budget(), &NEVER)
    };
    let mut solver = match memory {
        Some(memory) => SearchSolver::with_memory(board, options, memory.clone())?,
        None => SearchSolver::new(board, options)?,
    };
    let value = solver.value(&EdgeSet(drawn))?;
    Ok((value, solver.states_visited()))
}

fn host_memory(name: &str) -> Arc<SearchMemory> {
    Arc::new(SearchMemory::on_host(name, TABLE, budget()).unwrap())
}

#[test]
fn a_search_in_a_table_another_opening_filled_gives_the_value_at_once() {
    let board = Geometry::Boxes { rows: 3, cols: 4 }.build().unwrap().board;
    let name = name("second");
    let (first, second) = (host_memory(&name), host_memory(&name));
    for drawn in random_positions(&board, 12, 31) {
        let (alone, alone_nodes) = value(&board, drawn, None).unwrap();
        let (filled, _) = value(&board, drawn, Some(&first)).unwrap();
        let (shared, shared_nodes) = value(&board, drawn, Some(&second)).unwrap();
        assert_eq!((filled, shared), (alone, alone), "{drawn:#x}");
        assert!(
            shared_nodes * 20 <= alone_nodes,
            "{drawn:#x}: {shared_nodes} nodes in the shared table, {alone_nodes} alone"
        );
    }
}

#[test]
fn two_searches_at_once_in_one_host_table_give_their_own_values() {
    let board = Geometry::Boxes { rows: 3, cols: 4 }.build().unwrap().board;
    let name = name("at-once");
    let (first, second) = (host_memory(&name), host_memory(&name));
    let all = random_positions(&board, 16, 32);
    let (left, right) = all.split_at(8);
    let expected: Vec<i32> = all
        .iter()
        .map(|&d| value(&board, d, None).unwrap().0)
        .collect();
    let found: Vec<i32> = std::thread::scope(|scope| {
        let run = |part: &'static [u64], memory: Arc<SearchMemory>| {
            let board = &board;
            scope.spawn(move || {
                part.iter()
                    .map(|&d| value(board, d, Some(&memory)).unwrap().0)
                    .collect::<Vec<_>>()
            })
        };
        let left = run(Box::leak(left.to_vec().into_boxed_slice()), first);
        let right = run(Box::leak(right.to_vec().into_boxed_slice()), second);
        let mut found = left.join().unwrap();
        found.extend(right.join().unwrap());
        found
    });
    assert_eq!(found, expected);
}

#[test]
fn another_board_and_another_size_are_refused_the_name() {
    let name = name("refused");
    let boxes = Geometry::Boxes { rows: 3, cols: 4 }.build().unwrap().board;
    let triangles = Geometry::Triangles { size: 4 }.build().unwrap().board;
    let (first, second) = (host_memory(&name), host_memory(&name));
    assert!(value(&boxes, 0b1011, Some(&first)).is_ok());
    for memory in [&second, &first] {
        assert_eq!(
            value(&triangles, 0b1011, Some(memory))
                .unwrap_err()
                .to_string(),
            "the search solver cannot handle a search memory kept for another game or key scheme"
        );
    }
    // The second opening, refused the triangles, still serves the board its table holds.
    assert!(value(&boxes, 0b1011, Some(&second)).is_ok());
    let err = SearchMemory::on_host(&name, TABLE * 2, budget())
        .err()
        .unwrap();
    assert_eq!(
        err.to_string(),
        format!(
            "a search table of 2097152 entries cannot be shared on this host: \
             `/dev/shm/ply-table-{name}` holds 16781312 bytes, not the 33558528 asked for (its \
             workers asked another size)"
        )
    );
}
