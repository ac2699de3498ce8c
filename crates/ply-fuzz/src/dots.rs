//! Dots move lists (`ply dots --moves`) and the Triangle War contest format.

use crate::text;
use plysolve::engine::scored::memo::{HashStore, MemoSolver};
use plysolve::engine::scored::table::SubsetTable;
use plysolve::engine::scored::Solver;
use plysolve::engine::util::progress::Watch;
use plysolve::engine::{final_margin_a, MemoryBudget, Winner};
use plysolve::games::dots::notation::{format_edge, parse_moves, position_from_moves};
use plysolve::games::dots::triangle_war::{parse_games, verdicts};
use plysolve::games::dots::{DotsBoard, Geometry, Position};
use std::sync::OnceLock;

/// Positions with at most this many free edges are also solved by a memo search (at most 512
/// states), which must agree with the table.
const MEMO_FREE_EDGES: u32 = 9;

/// A board and its solved table: the first method of every value checked here.
struct Solved {
    board: DotsBoard,
    table: SubsetTable,
}

impl Solved {
    fn new(geometry: Geometry) -> Solved {
        let board = geometry.build().expect("a small board builds").board;
        let table = SubsetTable::build(&board, MemoryBudget::new(64 << 20), Watch::default())
            .expect("a small table fits 64 MiB");
        Solved { board, table }
    }
}

/// The classic Triangle War board (18 edges), solved once per process.
fn classic() -> &'static Solved {
    static CLASSIC: OnceLock<Solved> = OnceLock::new();
    CLASSIC.get_or_init(|| Solved::new(Geometry::CLASSIC_TRIANGLES))
}

/// Small boards of both shapes besides the classic one, solved once per process.
fn small_boards() -> &'static [Solved] {
    static SMALL: OnceLock<Vec<Solved>> = OnceLock::new();
    SMALL.get_or_init(|| {
        vec![
            Solved::new(Geometry::Triangles { size: 2 }),
            Solved::new(Geometry::Boxes { rows: 2, cols: 2 }),
        ]
    })
}

/// Checks a move list: the notation reads back what it formats, and on each of three boards
/// (triangles of size 2 and 3, 2×2 boxes) a list that plays is replayed from its formatted history
/// and its position is solved (see `check_position`).
pub fn check_dots_moves(data: &[u8]) {
    let text = text(data);
    if let Ok(moves) = parse_moves(&text) {
        let pairs: Vec<(i128, i128)> = moves.iter().map(|m| (m.a, m.b)).collect();
        let written: Vec<String> = pairs.iter().map(|(a, b)| format!("{a}-{b}")).collect();
        let again = parse_moves(&written.join(" ")).expect("formatted moves parse again");
        let again: Vec<(i128, i128)> = again.iter().map(|m| (m.a, m.b)).collect();
        assert_eq!(pairs, again, "parse → format → parse changed the moves");
    }
    for solved in std::iter::once(classic()).chain(small_boards()) {
        match position_from_moves(&solved.board, &text) {
            Ok(position) => {
                let history: Vec<String> = position
                    .history()
                    .iter()
                    .map(|&edge| format_edge(&solved.board, edge))
                    .collect();
                let replayed = position_from_moves(&solved.board, &history.join(" "))
                    .expect("a formatted history plays again");
                assert_eq!(
                    replayed, position,
                    "the formatted history plays differently"
                );
                check_position(solved, &position);
            }
            Err(fault) => drop(fault.to_string()),
        }
    }
}

/// Checks one Triangle War input on the classic board: a parsed input, written back in the format,
/// parses to the same games; every verdict is given, and agrees with a memo search.
pub fn check_triangle_war(data: &[u8]) {
    let text = text(data);
    let solved = classic();
    let positions = match parse_games(&solved.board, &text) {
        Ok(positions) => positions,
        Err(fault) => return drop(fault.to_string()),
    };
    let mut written = format!("{}\n", positions.len());
    for position in &positions {
        written.push_str(&format!("{}\n", position.history().len()));
        for &edge in position.history() {
            let (a, b) = solved.board.endpoints(edge);
            written.push_str(&format!("{} {}\n", a + 1, b + 1));
        }
    }
    let again = parse_games(&solved.board, &written).expect("a written input parses again");
    assert_eq!(again, positions, "parse → format → parse changed the games");
    let winners = verdicts(&solved.table, &positions);
    assert_eq!(winners.len(), positions.len(), "one verdict per game");
    // A few games suffice (those with at most 9 edges free are also solved by a memo search).
    for (position, &winner) in positions.iter().zip(&winners).take(4) {
        let value = check_position(solved, position);
        let margin = final_margin_a(position.score(), position.to_move(), value);
        assert_eq!(
            winner,
            Winner::from_margin_a(margin),
            "verdict of {position:?}"
        );
    }
}

/// Solves `position` from the table and checks the value: no more than the open cells, and equal to
/// a memo search's when few edges are free. Returns the value for the player to move.
fn check_position(solved: &Solved, position: &Position) -> i32 {
    let board = &solved.board;
    let drawn = position.drawn();
    let value = solved.table.value_of_mask(drawn.0);
    let [a, b] = position.score();
    let open = board.cell_count() as i64 - i64::from(a) - i64::from(b);
    assert!(
        open >= 0,
        "more cells scored than the board has: {position:?}"
    );
    assert!(
        i64::from(value).abs() <= open,
        "value {value} with {open} open cells: {position:?}"
    );
    let free = board.edge_count() as u32 - drawn.len();
    if free <= MEMO_FREE_EDGES {
        let store = HashStore::new(MemoryBudget::new(64 << 20));
        let mut memo = MemoSolver::new(board, store).expect("memo solves dots");
        let by_memo = memo.value(&drawn).expect("a small memo fits 64 MiB");
        assert_eq!(by_memo, value, "memo and table disagree on {position:?}");
    }
    value
}
