//! The report of `ply magic-board generate --json` (and of `POST /api/magic-board/generate`).

use super::{generate_within, GenerateError, SizeRule, Wanted};
use crate::engine::util::cost::WorkLimit;
use crate::engine::util::halt::Halt;
use serde::Serialize;

/// A generated board: how it was asked for, its squares and its text form (what `ply magic-board`
/// reads back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeneratedBoard {
    /// The size d.
    pub size: usize,
    /// The seed it was drawn from.
    pub seed: u64,
    /// The goal square, `[row, col]`.
    pub goal: [usize; 2],
    /// The values row by row.
    pub rows: Vec<Vec<u16>>,
    /// The board as text, d lines of d numbers.
    pub text: String,
}

/// Generates a board as [`generate_within`] does, under the default limit or what `halt`'s deadline
/// leaves, and reports it.
pub fn generated(
    size: usize,
    seed: u64,
    wanted: Wanted,
    rule: SizeRule,
    halt: &Halt,
) -> Result<GeneratedBoard, GenerateError> {
    let limit = WorkLimit::DEFAULT.within(halt);
    let board = generate_within(size, seed, wanted, rule, limit, halt)?;
    let (r, c) = board.goal();
    Ok(GeneratedBoard {
        size,
        seed,
        goal: [r, c],
        rows: (0..size)
            .map(|row| (0..size).map(|col| board.value(row, col)).collect())
            .collect(),
        text: board.to_text(),
    })
}
