//! `ply triangle-war`: the UVa 751 contest format, every game answered from one table.

use crate::failure::Failure;
use crate::input::{memory_budget, open_input};
use clap::Args;
use plysolve::engine::Winner;
use plysolve::games::dots::tables::BoardTable;
use plysolve::games::dots::triangle_war::read_games;
use plysolve::games::dots::Geometry;
use std::fmt::Write;
use std::path::PathBuf;

/// `ply triangle-war [FILE]`
#[derive(Args)]
pub struct TriangleWarArgs {
    /// The games (stdin when absent or `-`): a count, then per game m and m lines `i j`.
    file: Option<PathBuf>,
}

/// Runs `ply triangle-war`: validates the whole input, then prints one line per game.
pub fn run(args: TriangleWarArgs) -> Result<String, Failure> {
    let input = open_input(args.file.as_deref())?;
    let built = Geometry::CLASSIC_TRIANGLES.build().map_err(Failure::bad)?;
    let positions = read_games(&built.board, input).map_err(Failure::bad)?;
    let table = BoardTable::build(&built, memory_budget(None)?, None)?;
    let mut out = String::with_capacity(positions.len() * 16);
    for (k, winner) in table.winners(&positions).into_iter().enumerate() {
        let _ = match winner {
            Winner::A => writeln!(out, "Game {}: A wins.", k + 1),
            Winner::B => writeln!(out, "Game {}: B wins.", k + 1),
            Winner::Tie => writeln!(out, "Game {}: tie.", k + 1),
        };
    }
    Ok(out)
}
