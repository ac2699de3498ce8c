//! The report of `ply magic-board generate --json` (and of `POST /api/magic-board/generate`).

use super::{generate, GenerateError, SizeRule, Wanted};
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

/// Generates a board as [`generate`] does and reports it.
pub fn generated(
    size: usize,
    seed: u64,
    wanted: Wanted,
    rule: SizeRule,
) -> Result<GeneratedBoard, GenerateError> {
    let board = generate(size, seed, wanted, rule)?;
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
