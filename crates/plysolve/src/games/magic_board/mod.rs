//! MagicBoard (the original program 002): a d×d board of integers 0..d−1 with exactly one 0, the
//! goal. From a square holding n the player moves exactly n squares north, south, east or west, never
//! off the board. The starts are the four corners; a board is solvable from a corner when the goal
//! can be reached.
//!
//! The board only states its moves ([`Puzzle`](crate::engine::reach::Puzzle)); reachability, shortest
//! paths and fast verdicts are the engine's ([`crate::engine::reach`]). The parts: [`parse`] (text →
//! board, the size rule), [`board`] (the puzzle), [`corners`] (start checks and the report per
//! corner), [`drawing`], [`generator`] (random boards; [`generated`] its report), [`statistics`]
//! (solvability of random boards) and [`request`] (the questions as every front end asks them).

pub mod board;
pub mod corners;
pub mod door;
pub mod drawing;
pub mod generated;
pub mod generator;
pub mod parse;
pub mod request;
pub mod statistics;

pub use board::Board;
pub use corners::{
    solve, solve_within, solve_work, solve_work_for, BoardReport, CornerReport, SolveBoardError,
    StartError, SOLVE_RATE,
};
pub use drawing::{draw, MAX_DRAWN};
pub use generator::{
    attempts_within, board_work, generate, generate_within, GenerateError, Wanted, BOARD_OVERHEAD,
    DRAW_RATE, MAX_ATTEMPTS,
};
pub use parse::{ParseBoardError, SizeFault, SizeRule, ANY_SIZES, SEED_SIZES};
pub use statistics::{check_stats, stats, CornerStats, SizeStats, StatsError, StatsReport};
