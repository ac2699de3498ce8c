//! `ply triangle-war`: the UVa 751 contest format, every game answered from one table.

use crate::failure::Failure;
use crate::input::{memory_budget, open_input};
use clap::Args;
use plysolve::games::dots::triangle_war::{classic_board, judge, read_games};
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
    let built = classic_board().map_err(Failure::bad)?;
    let budget = memory_budget(None)?;
    let positions = read_games(&built.board, input, budget).map_err(Failure::bad)?;
    Ok(judge(&built, &positions, None, budget)?.text())
}
