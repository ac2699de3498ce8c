//! The board as text with a path marked.

use super::Board;

/// Largest board `--draw` prints.
pub const MAX_DRAWN: usize = 100;

/// The board with a path marked: visited squares show their step number in parentheses.
pub fn draw(board: &Board, path: &[[usize; 2]]) -> String {
    let d = board.d;
    let mut step = vec![None; d * d];
    for (i, &[r, c]) in path.iter().enumerate() {
        step[r * d + c] = Some(i);
    }
    let width = (d - 1).to_string().len().max(path.len().to_string().len()) + 2;
    let mut out = String::new();
    for r in 0..d {
        let cells: Vec<String> = (0..d)
            .map(|c| match step[r * d + c] {
                Some(i) => format!("{:>width$}", format!("({i})")),
                None => format!("{:>width$}", format!("{} ", board.value(r, c))),
            })
            .collect();
        out.push_str(cells.join(" ").trim_end());
        out.push('\n');
    }
    out
}
