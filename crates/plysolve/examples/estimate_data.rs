//! Training and test data for the learned estimate: positions reached by play of the kind people
//! play (captures taken, safe moves while there are any — now and then any move), each labelled
//! with its exact value by ply's own solvers, and described by the features the estimate reads
//! (`plysolve::games::dots::theory::features`). One CSV row per position, to stdout.
//!
//! ```text
//! cargo run --release -p plysolve --example estimate_data -- BOARD FREE_FROM FREE_TO COUNT SEED [SECONDS]
//! ```
//!
//! BOARD is `boxes:RxC` or `triangles:N`; each position has FREE_FROM..=FREE_TO free edges; SEED
//! makes the run reproducible; a position not proved within SECONDS (default: no limit) is left
//! out, and counted on stderr. `tools/estimate/make_data.sh` runs the sets the model is trained
//! and measured on.

use plysolve::engine::scored::SubsetIndexed;
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::answer::{answer, Hooks};
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::notation::format_edge;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::position::Position;
use plysolve::games::dots::request::{Detail, DotsQuery};
use plysolve::games::dots::theory::estimate::is_safe;
use plysolve::games::dots::theory::features::{features, FEATURE_NAMES};
use plysolve::games::dots::{Edge, Geometry};
use std::collections::HashSet;
use std::time::{Duration, Instant};

fn geometry(text: &str) -> Result<Geometry, String> {
    let bad = || format!("a board is boxes:RxC or triangles:N, not {text:?}");
    let (shape, size) = text.split_once(':').ok_or_else(bad)?;
    match shape {
        "triangles" => Ok(Geometry::Triangles {
            size: size.parse().map_err(|_| bad())?,
        }),
        "boxes" => {
            let (rows, cols) = size.split_once('x').ok_or_else(bad)?;
            Ok(Geometry::Boxes {
                rows: rows.parse().map_err(|_| bad())?,
                cols: cols.parse().map_err(|_| bad())?,
            })
        }
        _ => Err(bad()),
    }
}

/// One of `mask`'s elements, picked by `rng`.
fn pick(rng: &mut Chooser, mask: u64) -> u32 {
    let k = rng.below(mask.count_ones() as u128) as u32;
    let mut m = mask;
    for _ in 0..k {
        m &= m - 1;
    }
    m.trailing_zeros()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        return Err("usage: estimate_data BOARD FREE_FROM FREE_TO COUNT SEED [SECONDS]".into());
    }
    let number = |i: usize| -> Result<u64, String> {
        args[i]
            .parse()
            .map_err(|_| format!("{:?} is not a number", args[i]))
    };
    let geometry = geometry(&args[0])?;
    let (from, to, count, seed) = (number(1)?, number(2)?, number(3)?, number(4)?);
    let limit = args.get(5).map(|s| s.parse::<f64>()).transpose();
    let limit = limit.map_err(|_| "SECONDS is a number".to_string())?;
    let built = geometry.build().map_err(|e| e.to_string())?;
    let board = &built.board;
    let rules = board
        .completion()
        .ok_or("a dots board has completion rules")?;
    let all = (1u64 << board.items()) - 1;
    let policy = Policy::new(MemoryBudget::new(4 << 30), None);
    let kept = Kept::new(4 << 30, 1);
    let mut rng = Chooser::new(seed);
    let mut seen = HashSet::new();
    let (mut written, mut unproved) = (0, 0);
    println!(
        "board,free,moves,quiet,value,nodes,seconds,{}",
        FEATURE_NAMES.join(",")
    );
    while written < count {
        let target = rng.between(from, to) as u32;
        let mut position = Position::new(board);
        let mut drawn = 0u64;
        while (all & !drawn).count_ones() > target {
            let free = all & !drawn;
            let captures: u64 = (0..board.items() as u32)
                .filter(|&e| free >> e & 1 == 1 && rules.points(drawn, e) > 0)
                .fold(0, |m, e| m | 1 << e);
            let safe: u64 = (0..board.items() as u32)
                .filter(|&e| free >> e & 1 == 1 && is_safe(rules, drawn, e))
                .fold(0, |m, e| m | 1 << e);
            let roll = rng.below(100);
            let e = if captures != 0 && roll < 90 {
                pick(&mut rng, captures)
            } else if safe != 0 && roll < 95 {
                pick(&mut rng, safe)
            } else {
                pick(&mut rng, free)
            };
            position
                .play(board, Edge(e as u8))
                .map_err(|e| e.to_string())?;
            drawn |= 1 << e;
        }
        if !seen.insert(drawn) {
            continue;
        }
        let free = all & !drawn;
        let quiet =
            (0..board.items() as u32).all(|e| free >> e & 1 == 0 || rules.points(drawn, e) == 0);
        let mut query = DotsQuery::at(&built, position.clone(), Detail::Value);
        query.time = limit.map(Duration::from_secs_f64);
        let started = Instant::now();
        let report =
            answer(&query, &policy, Some(&kept), Hooks::default()).map_err(|e| e.to_string())?;
        let Some(value) = report.value else {
            unproved += 1;
            continue;
        };
        let moves: Vec<String> = position
            .history()
            .iter()
            .map(|&e| format_edge(board, e))
            .collect();
        let f = features(rules, drawn, free);
        let f: Vec<String> = f.iter().map(|x| x.to_string()).collect();
        println!(
            "{},{},{},{},{},{},{:.3},{}",
            args[0],
            free.count_ones(),
            moves.join(" "),
            quiet as u8,
            value,
            report.states_visited,
            started.elapsed().as_secs_f64(),
            f.join(",")
        );
        written += 1;
    }
    eprintln!(
        "{}: {written} positions written, {unproved} not proved in the time given",
        args[0]
    );
    Ok(())
}
