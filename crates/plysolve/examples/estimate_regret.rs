//! How well each estimate *plays*: on positions whose every move ply values exactly, the cells a
//! move chosen by the estimate's depth-limited search gives away against the best move (its
//! regret), at fixed depths, so the figure does not depend on the machine's load.
//!
//! ```text
//! cargo run --release -p plysolve --example estimate_regret -- CSV MAX_POSITIONS DEPTH...
//! ```
//!
//! CSV is a file of `tools/estimate/data/` (its `board` and `moves` columns are read; the first
//! MAX_POSITIONS rows). Prints, per estimate and depth, the mean regret in cells and the share of
//! positions where the chosen move is a best one, and the nodes and seconds the searches took.
//! With `PLY_REGRET_SPEED_ONLY=1` the moves are not valued (for positions past exact reach): the
//! nodes and seconds alone.

use plysolve::engine::scored::heuristic::best_estimate;
use plysolve::engine::scored::SubsetIndexed;
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::answer::{answer, Hooks};
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::notation::{format_edge, position_from_moves};
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::{Detail, DotsQuery};
use plysolve::games::dots::theory::Leaf;
use plysolve::games::dots::Geometry;
use std::collections::HashMap;

/// What one estimate at one depth did: (regret summed, best moves chosen, positions, nodes,
/// seconds).
type Totals = (i64, u32, u32, u64, f64);

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        return Err("usage: estimate_regret CSV MAX_POSITIONS DEPTH...".into());
    }
    let text = std::fs::read_to_string(&args[0]).map_err(|e| e.to_string())?;
    let most: usize = args[1].parse().map_err(|_| "MAX_POSITIONS is a number")?;
    let depths: Vec<u32> = args[2..]
        .iter()
        .map(|d| d.parse().map_err(|_| format!("{d:?} is not a depth")))
        .collect::<Result<_, _>>()?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("an empty CSV")?.split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|&h| h == name)
            .ok_or(format!("no {name} column"))
    };
    let (board_column, moves_column) = (column("board")?, column("moves")?);
    let rows: Vec<Vec<&str>> = lines.take(most).map(|l| l.split(',').collect()).collect();
    let slug = rows
        .first()
        .and_then(|r| r.get(board_column))
        .ok_or("no positions")?
        .replace(':', "-");
    let geometry = Geometry::from_slug(&slug).ok_or(format!("no board {slug:?}"))?;
    let built = geometry.build().map_err(|e| e.to_string())?;
    let board = &built.board;
    let leaves = [("learned", Leaf::Learned), ("hand-made", Leaf::HandMade)];
    let boards: Vec<_> = leaves
        .iter()
        .map(|&(_, leaf)| board.clone().with_leaf(leaf))
        .collect();
    let policy = Policy::new(MemoryBudget::new(4 << 30), None);
    let kept = Kept::new(4 << 30, 1);
    let all = (1u64 << board.items()) - 1;
    let speed_only = std::env::var_os("PLY_REGRET_SPEED_ONLY").is_some();
    let mut totals: HashMap<(usize, u32), Totals> = HashMap::new();
    for row in &rows {
        let moves = row.get(moves_column).ok_or("a short row")?;
        let position = position_from_moves(board, moves).map_err(|e| e.to_string())?;
        let drawn = position.drawn().0;
        let mut value_of: HashMap<String, i32> = HashMap::new();
        let mut best = 0;
        if !speed_only {
            let query = DotsQuery::at(&built, position, Detail::Moves);
            let report = answer(&query, &policy, Some(&kept), Hooks::default())
                .map_err(|e| e.to_string())?;
            best = report.value.ok_or("unproved")?;
            for m in &report.moves {
                let v = m
                    .value
                    .or_else(|| {
                        m.symmetric_to
                            .as_ref()
                            .and_then(|s| value_of.get(s).copied())
                    })
                    .ok_or("a move without a value")?;
                value_of.insert(m.mv.clone(), v);
            }
        }
        for (i, b) in boards.iter().enumerate() {
            for &depth in &depths {
                let started = std::time::Instant::now();
                let found =
                    best_estimate(b, drawn, all & !drawn, &NEVER, depth).ok_or("no estimate")?;
                let seconds = started.elapsed().as_secs_f64();
                let edge = format_edge(board, plysolve::games::dots::Edge(found.element as u8));
                let chosen = value_of.get(&edge).copied().unwrap_or(best);
                let t = totals.entry((i, depth)).or_default();
                t.0 += (best - chosen) as i64;
                t.1 += (chosen == best) as u32;
                t.2 += 1;
                t.3 += found.nodes;
                t.4 += seconds;
            }
        }
    }
    println!("| estimate | depth | positions | mean regret (cells) | best move chosen | nodes | seconds |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (i, (name, _)) in leaves.iter().enumerate() {
        for &depth in &depths {
            let (sum, hits, n, nodes, seconds) = totals[&(i, depth)];
            println!(
                "| {name} | {depth} | {n} | {:.2} | {:.0} % | {nodes} | {seconds:.2} |",
                sum as f64 / n as f64,
                100.0 * hits as f64 / n as f64
            );
        }
    }
    Ok(())
}
