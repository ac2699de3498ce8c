//! End-to-end tests of `ply magic-board` (MagicBoard, issue 6): exact stdout, exit status and stderr
//! of the `ply` binary, with every verdict, move count and path checked against the library's answer
//! (whose solver is proved against an independent breadth-first search in
//! `crates/plysolve/tests/magic_board.rs`).
//!
//! The path rule: among the shortest paths, read backward from the goal, every step goes to the
//! smallest square (row-major order) that is one move closer to the start.

use crate::common;
use common::*;
use plysolve::engine::MemoryBudget;
use plysolve::games::magic_board::{solve, Board, SizeRule};
use predicates::prelude::*;
use serde_json::{json, Value};

include!("../../plysolve/tests/fixtures/magic_boards.rs");

/// The issue's `--json` answer for the example, the other three corners added (checked below
/// against the reference search).
const EXAMPLE_JSON: &str = concat!(
    r#"{"d":5,"goal":[2,0],"corners":["#,
    r#"{"start":[0,0],"solvable":true,"moves":4,"path":[[0,0],[4,0],[4,3],[2,3],[2,0]]},"#,
    r#"{"start":[0,4],"solvable":true,"moves":5,"path":[[0,4],[1,4],[4,4],[4,3],[2,3],[2,0]]},"#,
    r#"{"start":[4,0],"solvable":true,"moves":3,"path":[[4,0],[4,3],[2,3],[2,0]]},"#,
    r#"{"start":[4,4],"solvable":true,"moves":3,"path":[[4,4],[4,3],[2,3],[2,0]]}]}"#,
    "\n"
);

/// The text answer for the example.
const EXAMPLE_TEXT: &str = "5×5 board, goal at (2,0)\n\
(0,0): solvable in 4 moves: (0,0) (4,0) (4,3) (2,3) (2,0)\n\
(0,4): solvable in 5 moves: (0,4) (1,4) (4,4) (4,3) (2,3) (2,0)\n\
(4,0): solvable in 3 moves: (4,0) (4,3) (2,3) (2,0)\n\
(4,4): solvable in 3 moves: (4,4) (4,3) (2,3) (2,0)\n";

/// The `--draw` answer for the example.
const EXAMPLE_DRAW: &str = "5×5 board, goal at (2,0)
(0,0): solvable in 4 moves: (0,0) (4,0) (4,3) (2,3) (2,0)
(0)  4   4   1   1
 2   4   1   4   3
(4)  2   1  (3)  2
 3   2   3   2   3
(1)  4   2  (2)  1

(0,4): solvable in 5 moves: (0,4) (1,4) (4,4) (4,3) (2,3) (2,0)
 4   4   4   1  (0)
 2   4   1   4  (1)
(5)  2   1  (4)  2
 3   2   3   2   3
 3   4   2  (3) (2)

(4,0): solvable in 3 moves: (4,0) (4,3) (2,3) (2,0)
 4   4   4   1   1
 2   4   1   4   3
(3)  2   1  (2)  2
 3   2   3   2   3
(0)  4   2  (1)  1

(4,4): solvable in 3 moves: (4,4) (4,3) (2,3) (2,0)
 4   4   4   1   1
 2   4   1   4   3
(3)  2   1  (2)  2
 3   2   3   2   3
 3   4   2  (1) (0)

";

/// A 4×4 board of ones (legal only with `--any-size`): many ties everywhere.
const ONES_4: &str = "1 1 1 1 / 1 1 1 1 / 1 1 0 1 / 1 1 1 1";

/// `ply magic-board <args>` reading the board `text` from stdin, asserted successful; its stdout.
fn magic(args: &[&str], text: &str) -> String {
    let mut all = vec!["magic-board"];
    all.extend_from_slice(args);
    stdout_of(&all, Some(text))
}

/// `ply magic-board --json <args>` on the board `text` (stdin), parsed.
fn magic_json(args: &[&str], text: &str) -> Value {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    parse_json(&magic(&all, text))
}

/// `ply magic-board generate <args>`, asserted successful; the board text.
fn generate(args: &[&str]) -> String {
    let mut all = vec!["magic-board", "generate"];
    all.extend_from_slice(args);
    stdout_of(&all, None)
}

/// `ply magic-board stats <args>`, asserted successful; its stdout.
fn stats(args: &[&str]) -> String {
    let mut all = vec!["magic-board", "stats"];
    all.extend_from_slice(args);
    stdout_of(&all, None)
}

/// `ply magic-board <extra> [FILE]` reading `board` must fail with `expected`, whether the board
/// comes from stdin (no FILE and `-`) or from a file.
fn assert_bad_board(extra: &[&str], board: &str, expected: &str) {
    let mut args = vec!["magic-board"];
    args.extend_from_slice(extra);
    assert_bad_input(&args, Some(board), expected);
    let mut dash = args.clone();
    dash.push("-");
    assert_bad_input(&dash, Some(board), expected);
    let file = TempFile::new("bad-board.txt", board.as_bytes());
    let mut with_file = args.clone();
    with_file.push(file.arg());
    assert_bad_input(&with_file, None, expected);
}

/// A board written with slashes between rows, as board text (one line per row).
fn rows(slashed: &str) -> String {
    slashed
        .split('/')
        .map(|row| row.trim().to_string() + "\n")
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The expected answers: the board read here, the library's paths (proved against the reference in
// crates/plysolve/tests/magic_board.rs), written out as the command line must write them.
// ---------------------------------------------------------------------------------------------

/// A square, (row, column).
type Sq = (usize, usize);

/// A board as numbers, read here by the test's own rules.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Grid {
    d: usize,
    cells: Vec<Vec<usize>>,
}

impl Grid {
    /// `d` non-blank lines of `d` whitespace-separated numbers, one of them 0 (asserted).
    fn parse(text: &str) -> Grid {
        let cells: Vec<Vec<usize>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                l.split_whitespace()
                    .map(|t| t.parse().expect("a number"))
                    .collect()
            })
            .collect();
        let d = cells.len();
        assert!(d >= 2, "a board");
        for row in &cells {
            assert_eq!(row.len(), d, "square");
            assert!(row.iter().all(|&v| v < d), "values below {d}");
        }
        let zeros = cells.iter().flatten().filter(|&&v| v == 0).count();
        assert_eq!(zeros, 1, "exactly one goal");
        Grid { d, cells }
    }

    fn from_rows(slashed: &str) -> Grid {
        Grid::parse(&rows(slashed))
    }

    fn value(&self, (r, c): Sq) -> usize {
        self.cells[r][c]
    }

    fn goal(&self) -> Sq {
        (0..self.d)
            .flat_map(|r| (0..self.d).map(move |c| (r, c)))
            .find(|&s| self.value(s) == 0)
            .expect("a goal")
    }

    /// The corners in the product's order: (0,0), (0,d−1), (d−1,0), (d−1,d−1).
    fn corners(&self) -> [Sq; 4] {
        let e = self.d - 1;
        [(0, 0), (0, e), (e, 0), (e, e)]
    }

    /// The library's shortest path from the corner `start` to the goal by the tie rule (`None`: not
    /// solvable): what the command line must say.
    fn library_path(&self, start: Sq) -> Option<Vec<Sq>> {
        let text: String = self
            .cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(usize::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        let board = Board::parse(&text, SizeRule::Any).expect("a board the library reads");
        let answer = solve(&board, None, MemoryBudget::new(1 << 30)).expect("solved");
        let corner = answer
            .corners
            .into_iter()
            .find(|c| c.start == [start.0, start.1])
            .expect("a corner");
        corner
            .path
            .map(|p| p.into_iter().map(|[r, c]| (r, c)).collect())
    }

    /// The exact `--json` answer for `starts`.
    fn expected_json(&self, starts: &[Sq]) -> Value {
        let goal = self.goal();
        let corners: Vec<Value> = starts
            .iter()
            .map(|&s| {
                if s == goal {
                    return json!({"start": [s.0, s.1], "solvable": false, "is_goal": true,
                                  "moves": null, "path": null});
                }
                match self.library_path(s) {
                    Some(p) => json!({"start": [s.0, s.1], "solvable": true,
                                      "moves": p.len() - 1,
                                      "path": p.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>()}),
                    None => json!({"start": [s.0, s.1], "solvable": false,
                                   "moves": null, "path": null}),
                }
            })
            .collect();
        json!({"d": self.d, "goal": [goal.0, goal.1], "corners": corners})
    }

    /// The board with `path` marked: visited squares show their step in parentheses, right-aligned
    /// in cells wide enough for the largest value and the number of squares, plus two.
    fn drawing(&self, path: &[Sq]) -> String {
        let width = (self.d - 1)
            .to_string()
            .len()
            .max(path.len().to_string().len())
            + 2;
        let mut out = String::new();
        for r in 0..self.d {
            let cells: Vec<String> = (0..self.d)
                .map(|c| match path.iter().position(|&s| s == (r, c)) {
                    Some(i) => format!("{:>width$}", format!("({i})")),
                    None => format!("{:>width$}", format!("{} ", self.cells[r][c])),
                })
                .collect();
            out.push_str(cells.join(" ").trim_end());
            out.push('\n');
        }
        out
    }

    /// The exact text answer for `starts` (with the drawings when `draw`).
    fn expected_text(&self, starts: &[Sq], draw: bool) -> String {
        let goal = self.goal();
        let mut out = format!("{0}×{0} board, goal at ({1},{2})\n", self.d, goal.0, goal.1);
        for &s in starts {
            let name = format!("({},{})", s.0, s.1);
            if s == goal {
                out += &format!("{name}: is the goal\n");
                continue;
            }
            match self.library_path(s) {
                None => out += &format!("{name}: not solvable\n"),
                Some(p) => {
                    let moves = p.len() - 1;
                    let unit = if moves == 1 { "move" } else { "moves" };
                    let squares: Vec<String> =
                        p.iter().map(|(r, c)| format!("({r},{c})")).collect();
                    out += &format!(
                        "{name}: solvable in {moves} {unit}: {}\n",
                        squares.join(" ")
                    );
                    if draw {
                        out += &self.drawing(&p);
                        out += "\n";
                    }
                }
            }
        }
        out
    }
}

/// Checks the whole `--json` answer of the binary for `grid` against the library's answer.
fn check_against_library(grid: &Grid, answer: &Value) {
    assert_eq!(*answer, grid.expected_json(&grid.corners()), "{grid:?}");
}

// ---------------------------------------------------------------------------------------------
// 1. The issue's example.
// ---------------------------------------------------------------------------------------------

#[test]
fn example_json_is_exact() {
    let board = rows(EXAMPLE);
    assert_eq!(magic(&["--json"], &board), EXAMPLE_JSON);
    let grid = Grid::from_rows(EXAMPLE);
    check_against_library(&grid, &parse_json(EXAMPLE_JSON));
}

#[test]
fn example_text_is_exact() {
    assert_eq!(magic(&[], &rows(EXAMPLE)), EXAMPLE_TEXT);
    let grid = Grid::from_rows(EXAMPLE);
    assert_eq!(grid.expected_text(&grid.corners(), false), EXAMPLE_TEXT);
}

#[test]
fn example_draw_is_exact() {
    assert_eq!(magic(&["--draw"], &rows(EXAMPLE)), EXAMPLE_DRAW);
    let grid = Grid::from_rows(EXAMPLE);
    assert_eq!(grid.expected_text(&grid.corners(), true), EXAMPLE_DRAW);
}

#[test]
fn draw_with_two_digit_steps() {
    let expected = "5×5 board, goal at (2,1)
(0,0): solvable in 12 moves: (0,0) (3,0) (1,0) (1,4) (3,4) (3,1) (1,1) (4,1) (4,4) (4,3) (2,3) (2,2) (2,1)
 (0)   3    3    3    3
 (2)  (6)   4    2   (3)
  3  (12) (11) (10)   1
 (1)  (5)   3    3   (4)
  2   (7)   1   (9)  (8)

";
    assert_eq!(
        magic(&["--draw", "--start", "0,0"], &rows(LONG_PATH)),
        expected
    );
    let grid = Grid::from_rows(LONG_PATH);
    assert_eq!(grid.expected_text(&[(0, 0)], true), expected);
    assert_eq!(
        magic(&["--draw"], &rows(LONG_PATH)),
        grid.expected_text(&grid.corners(), true)
    );
}

#[test]
fn example_from_a_file_from_dash_and_from_stdin() {
    let board = rows(EXAMPLE);
    let file = TempFile::new("example.txt", board.as_bytes());
    for (args, expected) in [(vec![], EXAMPLE_TEXT), (vec!["--json"], EXAMPLE_JSON)] {
        let mut with_file = vec!["magic-board"];
        with_file.extend_from_slice(&args);
        with_file.push(file.arg());
        assert_eq!(stdout_of(&with_file, None), expected);
        let mut with_dash = vec!["magic-board"];
        with_dash.extend_from_slice(&args);
        with_dash.push("-");
        assert_eq!(stdout_of(&with_dash, Some(&board)), expected);
        let mut no_file = vec!["magic-board"];
        no_file.extend_from_slice(&args);
        assert_eq!(stdout_of(&no_file, Some(&board)), expected);
    }
    // A file named before the options works as well.
    assert_eq!(
        stdout_of(&["magic-board", file.arg(), "--json"], None),
        EXAMPLE_JSON
    );
}

#[test]
fn tabs_blank_lines_crlf_and_extra_spaces_are_accepted() {
    let variants = [
        // Tabs only.
        "4\t4\t4\t1\t1\n2\t4\t1\t4\t3\n0\t2\t1\t3\t2\n3\t2\t3\t2\t3\n3\t4\t2\t2\t1\n".to_string(),
        // Tabs and spaces mixed, leading and trailing blanks on a line.
        "  4 \t4  4\t\t1 1  \n\t2 4 1 4 3\t\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1".to_string(),
        // Blank lines before, between and after the rows (some holding only blanks).
        "\n\n4 4 4 1 1\n\n2 4 1 4 3\n \t \n0 2 1 3 2\n3 2 3 2 3\n\n3 4 2 2 1\n\n\n".to_string(),
        // Windows line ends.
        rows(EXAMPLE).replace('\n', "\r\n"),
    ];
    for board in &variants {
        assert_eq!(magic(&[], board), EXAMPLE_TEXT, "{board:?}");
        assert_eq!(magic(&["--json"], board), EXAMPLE_JSON, "{board:?}");
        let file = TempFile::new("variant.txt", board.as_bytes());
        assert_eq!(
            stdout_of(&["magic-board", "--json", file.arg()], None),
            EXAMPLE_JSON
        );
    }
}

// ---------------------------------------------------------------------------------------------
// 2. --start, and the goal on a corner.
// ---------------------------------------------------------------------------------------------

#[test]
fn start_asks_about_one_corner_in_text_and_json() {
    let board = rows(EXAMPLE);
    let all = parse_json(EXAMPLE_JSON);
    let lines: Vec<&str> = EXAMPLE_TEXT.lines().collect();
    for (i, start) in ["0,0", "0,4", "4,0", "4,4"].into_iter().enumerate() {
        let v = magic_json(&["--start", start], &board);
        assert_eq!(
            v,
            json!({"d": 5, "goal": [2, 0], "corners": [all["corners"][i].clone()]}),
            "--start {start}"
        );
        assert_eq!(
            magic(&["--start", start], &board),
            format!("{}\n{}\n", lines[0], lines[i + 1]),
            "--start {start}"
        );
    }
    // Blanks around the numbers are allowed.
    assert_eq!(
        magic(&["--start", " 4 , 4 "], &board),
        "5×5 board, goal at (2,0)\n(4,4): solvable in 3 moves: (4,4) (4,3) (2,3) (2,0)\n"
    );
    // With --draw, only the one corner is drawn.
    let drawn = magic(&["--start", "4,0", "--draw"], &board);
    let grid = Grid::from_rows(EXAMPLE);
    assert_eq!(drawn, grid.expected_text(&[(4, 0)], true));
    // The same block as in the drawing of all four corners.
    let (_, block) = drawn.split_once('\n').expect("a header line");
    assert!(EXAMPLE_DRAW.contains(block), "{drawn}");
}

#[test]
fn start_that_is_not_a_corner_is_refused() {
    let board = rows(EXAMPLE);
    let starts = "the starts are (0,0), (0,4), (4,0) and (4,4)";
    for (start, square) in [("1,1", "(1,1)"), ("0,2", "(0,2)"), ("9,9", "(9,9)")] {
        assert_bad_board(
            &["--start", start],
            &board,
            &format!("ply: {square} is not a corner; {starts}"),
        );
    }
    // The goal of the example is (2,0): not a corner, so that is the complaint.
    assert_bad_board(
        &["--start", "2,0"],
        &board,
        &format!("ply: (2,0) is not a corner; {starts}"),
    );
}

#[test]
fn start_on_the_goal_corner_is_refused() {
    let board = rows(GOAL_ON_CORNER);
    assert_bad_board(
        &["--start", "0,0"],
        &board,
        "ply: (0,0) is the goal; start from another corner",
    );
    assert_bad_board(
        &["--json", "--start", "0,0"],
        &board,
        "ply: (0,0) is the goal; start from another corner",
    );
}

#[test]
fn goal_on_a_corner_is_reported_and_the_other_corners_answered() {
    let board = rows(GOAL_ON_CORNER);
    let text = "5×5 board, goal at (0,0)\n\
(0,0): is the goal\n\
(0,4): solvable in 7 moves: (0,4) (0,3) (0,2) (4,2) (4,0) (1,0) (3,0) (0,0)\n\
(4,0): solvable in 3 moves: (4,0) (1,0) (3,0) (0,0)\n\
(4,4): solvable in 5 moves: (4,4) (4,3) (2,3) (2,0) (3,0) (0,0)\n";
    assert_eq!(magic(&[], &board), text);
    let json_text = concat!(
        r#"{"d":5,"goal":[0,0],"corners":["#,
        r#"{"start":[0,0],"solvable":false,"is_goal":true,"moves":null,"path":null},"#,
        r#"{"start":[0,4],"solvable":true,"moves":7,"path":[[0,4],[0,3],[0,2],[4,2],[4,0],[1,0],[3,0],[0,0]]},"#,
        r#"{"start":[4,0],"solvable":true,"moves":3,"path":[[4,0],[1,0],[3,0],[0,0]]},"#,
        r#"{"start":[4,4],"solvable":true,"moves":5,"path":[[4,4],[4,3],[2,3],[2,0],[3,0],[0,0]]}]}"#,
        "\n"
    );
    assert_eq!(magic(&["--json"], &board), json_text);
    let grid = Grid::from_rows(GOAL_ON_CORNER);
    assert_eq!(grid.expected_text(&grid.corners(), false), text);
    check_against_library(&grid, &parse_json(json_text));
    // The drawing skips the goal corner.
    assert_eq!(
        magic(&["--draw"], &board),
        grid.expected_text(&grid.corners(), true)
    );
    // The other corners one at a time.
    assert_eq!(
        magic(&["--start", "4,0"], &board),
        "5×5 board, goal at (0,0)\n(4,0): solvable in 3 moves: (4,0) (1,0) (3,0) (0,0)\n"
    );
    // The goal on each of the other corners too.
    for goal in [(0, 4), (4, 0), (4, 4)] {
        let mut g = Grid::from_rows(EXAMPLE);
        g.cells[2][0] = 2;
        g.cells[goal.0][goal.1] = 0;
        let text = g
            .cells
            .iter()
            .map(|r| r.iter().map(usize::to_string).collect::<Vec<_>>().join(" ") + "\n")
            .collect::<String>();
        let v = magic_json(&[], &text);
        check_against_library(&g, &v);
        let i = g.corners().iter().position(|&c| c == goal).unwrap();
        assert_eq!(v["corners"][i]["is_goal"], true);
        assert_eq!(
            magic(&[], &text).lines().nth(i + 1).unwrap(),
            format!("({},{}): is the goal", goal.0, goal.1)
        );
    }
}

#[test]
fn two_by_two_board_with_any_size_always_has_the_goal_on_a_corner() {
    let board = "1 0\n1 1\n";
    assert_eq!(
        magic(&["--any-size"], board),
        "2×2 board, goal at (0,1)\n\
(0,0): solvable in 1 move: (0,0) (0,1)\n\
(0,1): is the goal\n\
(1,0): solvable in 2 moves: (1,0) (0,0) (0,1)\n\
(1,1): solvable in 1 move: (1,1) (0,1)\n"
    );
    check_against_library(&Grid::parse(board), &magic_json(&["--any-size"], board));
}

// ---------------------------------------------------------------------------------------------
// 3. Hand-made boards.
// ---------------------------------------------------------------------------------------------

#[test]
fn unsolvable_from_every_corner() {
    let board = rows(NOWHERE);
    assert_eq!(
        magic(&[], &board),
        "5×5 board, goal at (3,2)\n(0,0): not solvable\n(0,4): not solvable\n\
(4,0): not solvable\n(4,4): not solvable\n"
    );
    assert_eq!(
        magic(&["--json"], &board),
        concat!(
            r#"{"d":5,"goal":[3,2],"corners":["#,
            r#"{"start":[0,0],"solvable":false,"moves":null,"path":null},"#,
            r#"{"start":[0,4],"solvable":false,"moves":null,"path":null},"#,
            r#"{"start":[4,0],"solvable":false,"moves":null,"path":null},"#,
            r#"{"start":[4,4],"solvable":false,"moves":null,"path":null}]}"#,
            "\n"
        )
    );
    // Nothing to draw.
    assert_eq!(magic(&["--draw"], &board), magic(&[], &board));
    check_against_library(&Grid::from_rows(NOWHERE), &magic_json(&[], &board));
    assert_eq!(
        magic(&["--start", "4,4"], &board),
        "5×5 board, goal at (3,2)\n(4,4): not solvable\n"
    );
}

#[test]
fn solvable_from_some_corners_only() {
    let board = rows(SOME_CORNERS);
    assert_eq!(
        magic(&[], &board),
        "5×5 board, goal at (2,0)\n\
(0,0): solvable in 3 moves: (0,0) (3,0) (1,0) (2,0)\n\
(0,4): not solvable\n\
(4,0): solvable in 2 moves: (4,0) (1,0) (2,0)\n\
(4,4): not solvable\n"
    );
    assert_eq!(
        magic(&["--json"], &board),
        concat!(
            r#"{"d":5,"goal":[2,0],"corners":["#,
            r#"{"start":[0,0],"solvable":true,"moves":3,"path":[[0,0],[3,0],[1,0],[2,0]]},"#,
            r#"{"start":[0,4],"solvable":false,"moves":null,"path":null},"#,
            r#"{"start":[4,0],"solvable":true,"moves":2,"path":[[4,0],[1,0],[2,0]]},"#,
            r#"{"start":[4,4],"solvable":false,"moves":null,"path":null}]}"#,
            "\n"
        )
    );
    check_against_library(&Grid::from_rows(SOME_CORNERS), &magic_json(&[], &board));
}

#[test]
fn goal_one_move_away() {
    let board = rows(ONE_MOVE);
    assert_eq!(
        magic(&[], &board),
        "5×5 board, goal at (4,1)\n\
(0,0): not solvable\n\
(0,4): solvable in 4 moves: (0,4) (2,4) (1,4) (1,1) (4,1)\n\
(4,0): solvable in 2 moves: (4,0) (4,4) (4,1)\n\
(4,4): solvable in 1 move: (4,4) (4,1)\n"
    );
    assert_eq!(
        magic(&["--json", "--start", "4,4"], &board),
        "{\"d\":5,\"goal\":[4,1],\"corners\":[{\"start\":[4,4],\"solvable\":true,\"moves\":1,\
\"path\":[[4,4],[4,1]]}]}\n"
    );
    assert_eq!(
        magic(&["--draw", "--start", "4,4"], &board),
        "5×5 board, goal at (4,1)\n\
(4,4): solvable in 1 move: (4,4) (4,1)
 3   4   3   3   2
 4   3   3   2   3
 1   3   1   4   1
 3   4   4   3   2
 4  (1)  4   1  (0)

"
    );
    check_against_library(&Grid::from_rows(ONE_MOVE), &magic_json(&[], &board));
}

#[test]
fn tie_break_takes_the_smaller_predecessor() {
    let board = rows(TWO_PATHS);
    let grid = Grid::from_rows(TWO_PATHS);
    assert_eq!(
        magic(&[], &board),
        "5×5 board, goal at (2,2)\n\
(0,0): solvable in 2 moves: (0,0) (0,2) (2,2)\n\
(0,4): not solvable\n\
(4,0): not solvable\n\
(4,4): not solvable\n"
    );
    check_against_library(&grid, &magic_json(&[], &board));
}

#[test]
fn tie_break_is_read_backward_from_the_goal() {
    let board = rows(BACKWARD_RULE);
    let grid = Grid::from_rows(BACKWARD_RULE);
    assert_eq!(
        magic(&[], &board),
        "5×5 board, goal at (3,2)\n\
(0,0): solvable in 6 moves: (0,0) (1,0) (1,1) (4,1) (4,2) (2,2) (3,2)\n\
(0,4): solvable in 5 moves: (0,4) (0,2) (1,2) (4,2) (2,2) (3,2)\n\
(4,0): solvable in 4 moves: (4,0) (4,1) (4,2) (2,2) (3,2)\n\
(4,4): solvable in 5 moves: (4,4) (4,0) (4,1) (4,2) (2,2) (3,2)\n"
    );
    check_against_library(&grid, &magic_json(&[], &board));
}

#[test]
fn any_size_four_by_four_of_ones_breaks_every_tie_the_same_way() {
    let board = rows(ONES_4);
    assert_eq!(
        magic(&["--any-size"], &board),
        "4×4 board, goal at (2,2)\n\
(0,0): solvable in 4 moves: (0,0) (0,1) (0,2) (1,2) (2,2)\n\
(0,3): solvable in 3 moves: (0,3) (0,2) (1,2) (2,2)\n\
(3,0): solvable in 3 moves: (3,0) (2,0) (2,1) (2,2)\n\
(3,3): solvable in 2 moves: (3,3) (2,3) (2,2)\n"
    );
    let grid = Grid::from_rows(ONES_4);
    check_against_library(&grid, &magic_json(&["--any-size"], &board));
}

// ---------------------------------------------------------------------------------------------
// 4. generate.
// ---------------------------------------------------------------------------------------------

/// Asserts `text` is a legal board of size `d` in the output format: `d` lines of `d` numbers, one
/// space apart, in 0..d−1, exactly one 0. Returns it as a grid.
fn assert_board_format(text: &str, d: usize) -> Grid {
    assert!(text.ends_with('\n'), "ends with a newline");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), d, "{d} lines");
    let mut zeros = 0;
    for line in &lines {
        let numbers: Vec<&str> = line.split(' ').collect();
        assert_eq!(numbers.len(), d, "{d} numbers one space apart: {line:?}");
        for n in numbers {
            let v: usize = n.parse().expect("a number");
            assert_eq!(v.to_string(), n, "plain decimal");
            assert!(v < d, "{v} below {d}");
            zeros += usize::from(v == 0);
        }
    }
    assert_eq!(zeros, 1, "exactly one 0");
    Grid::parse(text)
}

#[test]
fn generate_is_reproducible_and_legal() {
    for d in [5, 12, 20] {
        let size = d.to_string();
        let mut boards = Vec::new();
        for seed in ["1", "2", "77"] {
            let a = generate(&["--size", &size, "--seed", seed]);
            assert_eq!(a, generate(&["--size", &size, "--seed", seed]), "d {d}");
            let grid = assert_board_format(&a, d);
            // The binary reads it back, and answers as the reference does.
            let v = magic_json(&[], &a);
            check_against_library(&grid, &v);
            assert_eq!(magic(&[], &a), grid.expected_text(&grid.corners(), false));
            boards.push(a);
        }
        assert!(
            boards[0] != boards[1] && boards[1] != boards[2],
            "seeds differ"
        );
    }
    // The seed defaults to 1.
    assert_eq!(
        generate(&["--size", "9"]),
        generate(&["--size", "9", "--seed", "1"])
    );
}

#[test]
fn generate_solvable_and_unsolvable() {
    for d in [5, 12, 20] {
        let size = d.to_string();
        for seed in ["1", "2", "3", "4"] {
            let text = generate(&["--size", &size, "--seed", seed, "--solvable"]);
            assert_eq!(
                text,
                generate(&["--size", &size, "--seed", seed, "--solvable"])
            );
            let grid = assert_board_format(&text, d);
            let v = magic_json(&[], &text);
            check_against_library(&grid, &v);
            for c in v["corners"].as_array().unwrap() {
                assert!(
                    c["solvable"] == true || c["is_goal"] == true,
                    "--solvable d {d} seed {seed}: {c}"
                );
            }

            let text = generate(&["--size", &size, "--seed", seed, "--unsolvable"]);
            let grid = assert_board_format(&text, d);
            let v = magic_json(&[], &text);
            check_against_library(&grid, &v);
            for c in v["corners"].as_array().unwrap() {
                assert_eq!(c["solvable"], false, "--unsolvable d {d} seed {seed}: {c}");
            }
        }
    }
}

#[test]
fn generated_boards_of_every_seed_size_match_the_reference() {
    for d in 5..=20 {
        let size = d.to_string();
        for seed in ["5", "6"] {
            for wanted in [None, Some("--solvable"), Some("--unsolvable")] {
                let mut args = vec!["--size", size.as_str(), "--seed", seed];
                args.extend(wanted);
                let text = generate(&args);
                let grid = assert_board_format(&text, d);
                check_against_library(&grid, &magic_json(&[], &text));
                let verdicts: Vec<bool> = grid
                    .corners()
                    .iter()
                    .filter(|&&s| s != grid.goal())
                    .map(|&s| grid.library_path(s).is_some())
                    .collect();
                match wanted {
                    Some("--solvable") => assert!(verdicts.iter().all(|&x| x), "{args:?}"),
                    Some(_) => assert!(verdicts.iter().all(|&x| !x), "{args:?}"),
                    None => {}
                }
            }
        }
    }
}

#[test]
fn generated_boards_draw_as_the_reference_does() {
    for (d, seed) in [(5, "3"), (10, "4"), (20, "5")] {
        let text = generate(&["--size", &d.to_string(), "--seed", seed, "--solvable"]);
        let grid = Grid::parse(&text);
        assert_eq!(
            magic(&["--draw"], &text),
            grid.expected_text(&grid.corners(), true),
            "d {d}"
        );
    }
}

#[test]
fn generate_size_rule() {
    let seed_rule = |d: usize| {
        format!(
            "ply: a board of size {d} breaks the size rule (5 to 20; --any-size allows 2 to 4096)"
        )
    };
    assert_bad_input(
        &["magic-board", "generate", "--size", "4"],
        None,
        &seed_rule(4),
    );
    assert_bad_input(
        &["magic-board", "generate", "--size", "21"],
        None,
        &seed_rule(21),
    );
    assert_bad_input(
        &["magic-board", "generate", "--size", "4", "--solvable"],
        None,
        &seed_rule(4),
    );
    assert_bad_input(
        &["magic-board", "generate", "--any-size", "--size", "1"],
        None,
        "ply: a board of size 1 breaks the size rule (2 to 4096)",
    );
    assert_bad_input(
        &["magic-board", "generate", "--any-size", "--size", "4097"],
        None,
        "ply: a board of size 4097 breaks the size rule (2 to 4096)",
    );
    // --any-size lifts the rule.
    let four = generate(&["--any-size", "--size", "4", "--seed", "2"]);
    let grid = assert_board_format(&four, 4);
    check_against_library(&grid, &magic_json(&["--any-size"], &four));
    let big = generate(&["--any-size", "--size", "300", "--seed", "2"]);
    assert_eq!(
        big,
        generate(&["--any-size", "--size", "300", "--seed", "2"])
    );
    let grid = assert_board_format(&big, 300);
    check_against_library(&grid, &magic_json(&["--any-size"], &big));
}

#[test]
fn generate_refuses_both_wishes_and_impossible_wishes() {
    assert_bad_input(
        &[
            "magic-board",
            "generate",
            "--size",
            "5",
            "--solvable",
            "--unsolvable",
        ],
        None,
        "ply: the argument '--solvable' cannot be used with '--unsolvable'",
    );
    // On a 2×2 board every square holds 1 but the goal, so every corner reaches it.
    assert_bad_input(
        &[
            "magic-board",
            "generate",
            "--any-size",
            "--size",
            "2",
            "--unsolvable",
        ],
        None,
        "ply: no such board of size 2 in 1000000 random boards",
    );
}

// ---------------------------------------------------------------------------------------------
// 5. stats.
// ---------------------------------------------------------------------------------------------

/// The 95 % Wilson score interval of `hits` in `n`.
fn wilson(hits: u64, n: u64) -> (f64, f64) {
    let z: f64 = 1.959_963_984_540_054;
    let (h, n) = (hits as f64, n as f64);
    let p = h / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    (centre - half, centre + half)
}

/// Checks one size entry of `stats --json`; returns the counts `[starts, solvable]` of the four
/// corners and of "some corner".
fn check_size_entry(entry: &Value, d: u64, boards: u64) -> Vec<[u64; 2]> {
    let obj = entry.as_object().expect("an object");
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["any_corner", "boards", "corners", "d"]);
    assert_eq!(entry["d"], d);
    assert_eq!(entry["boards"], boards);
    let corners = entry["corners"].as_array().expect("corners");
    assert_eq!(corners.len(), 4);
    let mut counts = Vec::new();
    for c in corners.iter().chain([&entry["any_corner"]]) {
        let starts = c["starts"].as_u64().expect("starts");
        let solvable = c["solvable"].as_u64().expect("solvable");
        assert!(starts <= boards, "{c}");
        assert!(solvable <= starts, "{c}");
        assert!(starts > 0, "{c}");
        let e = &c["estimate"];
        let (p, low, high) = (
            e["p"].as_f64().unwrap(),
            e["low"].as_f64().unwrap(),
            e["high"].as_f64().unwrap(),
        );
        assert_eq!(p, solvable as f64 / starts as f64, "{c}");
        assert!(0.0 <= low && low <= p && p <= high && high <= 1.0, "{c}");
        let (wl, wh) = wilson(solvable, starts);
        assert!((low - wl.max(0.0)).abs() < 1e-12, "{c}: {wl}");
        assert!((high - wh.min(1.0)).abs() < 1e-12, "{c}: {wh}");
        counts.push([starts, solvable]);
    }
    let any = counts[4];
    assert_eq!(any[0], boards, "every board counts for some corner");
    let most = counts[..4].iter().map(|c| c[1]).max().unwrap();
    assert!(any[1] >= most, "solvable from some corner ≥ from any one");
    assert!(any[1] <= counts[..4].iter().map(|c| c[1]).sum::<u64>());
    // A board's goal sits on at most one corner.
    let goal_on_corner: u64 = counts[..4].iter().map(|c| boards - c[0]).sum();
    assert!(goal_on_corner <= boards);
    counts
}

/// A `stats --json` answer without its timing fields (checked to be positive numbers).
fn without_timing(mut v: Value) -> Value {
    let obj = v.as_object_mut().expect("an object");
    for key in ["seconds", "boards_per_second"] {
        let x = obj.remove(key).expect(key).as_f64().expect("a number");
        assert!(x > 0.0, "{key} {x}");
    }
    v
}

#[test]
fn stats_json_is_reproducible_and_consistent() {
    let args = ["--size", "8", "--boards", "20000", "--seed", "3", "--json"];
    let first = without_timing(parse_json(&stats(&args)));
    let second = without_timing(parse_json(&stats(&args)));
    assert_eq!(first, second);
    let obj = first.as_object().unwrap();
    let mut keys: Vec<&str> = obj.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["seed", "sizes"]);
    assert_eq!(first["seed"], 3);
    let sizes = first["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 1);
    let counts = check_size_entry(&sizes[0], 8, 20_000);
    // About 4 boards in 64 have the goal on a corner; far from none and far from all.
    let goal_on_corner: u64 = counts[..4].iter().map(|c| 20_000 - c[0]).sum();
    assert!((500..=2000).contains(&goal_on_corner), "{goal_on_corner}");
    // Another seed gives other counts.
    let other = without_timing(parse_json(&stats(&[
        "--size", "8", "--boards", "20000", "--seed", "4", "--json",
    ])));
    assert_ne!(other["sizes"], first["sizes"]);
}

#[test]
fn stats_over_a_range_of_sizes() {
    let range = without_timing(parse_json(&stats(&[
        "--sizes", "5..7", "--boards", "3000", "--seed", "9", "--json",
    ])));
    let sizes = range["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 3);
    for (entry, d) in sizes.iter().zip(5..) {
        check_size_entry(entry, d, 3000);
        // Each size's boards depend only on the seed and the size.
        let alone = without_timing(parse_json(&stats(&[
            "--size",
            &d.to_string(),
            "--boards",
            "3000",
            "--seed",
            "9",
            "--json",
        ])));
        assert_eq!(alone["sizes"][0], *entry, "size {d}");
    }
    // An inclusive range written with `..=` is the same range.
    let inclusive = without_timing(parse_json(&stats(&[
        "--sizes", "5..=7", "--boards", "3000", "--seed", "9", "--json",
    ])));
    assert_eq!(inclusive, range);
}

#[test]
fn stats_table_matches_the_json() {
    let json = without_timing(parse_json(&stats(&[
        "--sizes", "5..7", "--boards", "500", "--seed", "2", "--json",
    ])));
    let text = stats(&["--sizes", "5..7", "--boards", "500", "--seed", "2"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    assert!(
        lines[0].starts_with("1500 random legal boards (500 per size, seed 2) in ")
            && lines[0].ends_with(" boards/s"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "fraction solvable, with 95 % intervals");
    assert_eq!(
        lines[2],
        format!(
            "{:>5}  {:>24}  {:>24}  {:>24}  {:>24}  {:>24}",
            "size",
            "from (0,0)",
            "from (0,d-1)",
            "from (d-1,0)",
            "from (d-1,d-1)",
            "from some corner"
        )
    );
    let cell = |c: &Value| {
        let e = &c["estimate"];
        format!(
            "{:>24}",
            format!(
                "{:.4} [{:.4},{:.4}]",
                e["p"].as_f64().unwrap(),
                e["low"].as_f64().unwrap(),
                e["high"].as_f64().unwrap()
            )
        )
    };
    for (line, entry) in lines[3..].iter().zip(json["sizes"].as_array().unwrap()) {
        let mut expected = format!("{:>5}", entry["d"].as_u64().unwrap());
        for c in entry["corners"]
            .as_array()
            .unwrap()
            .iter()
            .chain([&entry["any_corner"]])
        {
            expected += "  ";
            expected += &cell(c);
        }
        assert_eq!(*line, expected);
    }
}

#[test]
fn stats_refuses_bad_requests() {
    let bad = |args: &[&str], expected: &str| {
        let mut all = vec!["magic-board", "stats"];
        all.extend_from_slice(args);
        assert_bad_input(&all, None, expected);
    };
    bad(
        &["--size", "8", "--boards", "0"],
        "ply: --boards must be at least 1",
    );
    bad(
        &["--sizes", "7..5", "--boards", "10"],
        "ply: --sizes: `7..5` is an empty range",
    );
    bad(
        &["--sizes", "5-7", "--boards", "10"],
        "ply: --sizes: `5-7` is not a range like 5..20",
    );
    bad(
        &["--sizes", "5..x", "--boards", "10"],
        "ply: --sizes: `5..x` is not a range like 5..20",
    );
    bad(
        &["--sizes", "1..3", "--boards", "10", "--any-size"],
        "ply: a board of size 1 breaks the size rule (2 to 4096)",
    );
    bad(
        &["--boards", "10"],
        "ply: the following required arguments were not provided: --size <SIZE>",
    );
    bad(
        &["--size", "5", "--sizes", "5..6"],
        "ply: the argument '--size <SIZE>' cannot be used with '--sizes <SIZES>'",
    );
}

#[test]
fn stats_follows_the_size_rule() {
    let msg = "ply: a board of size 4 breaks the size rule (5 to 20; --any-size allows 2 to 4096)";
    assert_bad_input(
        &["magic-board", "stats", "--size", "4", "--boards", "10"],
        None,
        msg,
    );
    assert_bad_input(
        &["magic-board", "stats", "--sizes", "4..6", "--boards", "10"],
        None,
        msg,
    );
}

#[test]
fn stats_checks_every_size_and_the_work_before_any_board() {
    // 21 is refused at once, not after sizes 5 to 20 (10^12 boards of those would be refused too).
    assert_bad_input(
        &["magic-board", "stats", "--sizes", "5..21"],
        None,
        "ply: a board of size 21 breaks the size rule (5 to 20; --any-size allows 2 to 4096)",
    );
    // Work: boards × (d² + 100) squares, refused over a minute at 10^8 a second (6·10^9).
    let work = |boards: u128, sizes: std::ops::RangeInclusive<u128>| -> u128 {
        sizes.map(|d| boards * (d * d + 100)).sum()
    };
    assert_eq!(work(1_000_000_000_000_000_000, 20..=20), 5 * 10u128.pow(20));
    assert_bad_input(
        &[
            "magic-board",
            "stats",
            "--size",
            "20",
            "--boards",
            "1000000000000000000",
        ],
        None,
        "ply: drawing and searching 1000000000000000000 boards of size 20 would take over a \
         century here (5·10^20 units of work; the limit is 6·10^9, about 60 s)",
    );
    assert_eq!(work(100_000, 4096..=4096), 1_677_731_600_000);
    assert_bad_input(
        &["magic-board", "stats", "--size", "4096", "--any-size"],
        None,
        "ply: drawing and searching 100000 boards of size 4096 would take about 5 hours here \
         (1.7·10^12 units of work; the limit is 6·10^9, about 60 s)",
    );
    assert_eq!(work(100_000_000, 5..=20), 444_000_000_000);
    assert_bad_input(
        &[
            "magic-board",
            "stats",
            "--sizes",
            "5..20",
            "--boards",
            "100000000",
        ],
        None,
        "ply: drawing and searching 100000000 boards of sizes 5 to 20 would take about 74 minutes \
         here (4.4·10^11 units of work; the limit is 6·10^9, about 60 s)",
    );
}

#[test]
fn the_memory_budget_is_split_over_the_corners() {
    // Four corner searches of 200 B each; a budget of 1 B gives each 0 B.
    assert_bad_board(
        &["--memory", "1"],
        &rows(EXAMPLE),
        "ply: a search over 40 states needs 200 B but the memory budget is 0 B (the 1 B budget is \
         split over 4 corners, one search each)",
    );
    assert_bad_board(
        &["--memory", "799"],
        &rows(EXAMPLE),
        "ply: a search over 40 states needs 200 B but the memory budget is 199 B (the 799 B budget \
         is split over 4 corners, one search each)",
    );
    assert_eq!(
        magic(&["--memory", "800"], &rows(EXAMPLE)).lines().count(),
        5
    );
}

// ---------------------------------------------------------------------------------------------
// 6. Bad input.
// ---------------------------------------------------------------------------------------------

#[test]
fn not_square_boards_are_refused() {
    let example = rows(EXAMPLE);
    // One row too many.
    assert_bad_board(
        &[],
        &(example.clone() + "1 1 1 1 1\n"),
        "ply: the board is not square: 6 rows of 5 numbers",
    );
    // Two too many.
    assert_bad_board(
        &[],
        &(example.clone() + "1 1 1 1 1\n1 1 1 1 1\n"),
        "ply: the board is not square: 7 rows of 5 numbers",
    );
    // One row too few.
    let short: String = example
        .lines()
        .take(4)
        .map(|l| l.to_string() + "\n")
        .collect();
    assert_bad_board(
        &[],
        &short,
        "ply: the board is not square: 4 rows of 5 numbers",
    );
}

#[test]
fn ragged_rows_are_refused() {
    let example = rows(EXAMPLE);
    assert_bad_board(
        &[],
        &example.replace("0 2 1 3 2", "0 2 1 3"),
        "ply: row 2 has 4 numbers but row 0 has 5 (rows must be equally long)",
    );
    assert_bad_board(
        &[],
        &example.replace("3 2 3 2 3", "3 2 3 2 3 1"),
        "ply: row 3 has 6 numbers but row 0 has 5 (rows must be equally long)",
    );
}

#[test]
fn values_outside_the_range_are_refused() {
    let example = rows(EXAMPLE);
    assert_bad_board(
        &[],
        &example.replace("0 2 1 3 2", "0 2 1 3 5"),
        "ply: row 2, column 4: 5 is outside 0 to 4 (values must be below the size 5)",
    );
    assert_bad_board(
        &[],
        &example.replace("4 4 4 1 1", "4 4 9 1 1"),
        "ply: row 0, column 2: 9 is outside 0 to 4 (values must be below the size 5)",
    );
    assert_bad_board(
        &[],
        &example.replace("3 4 2 2 1", "3 4 2 2 99999999999999999999999"),
        "ply: row 4, column 4: 99999999999999999999999 is outside 0 to 4 (values must be below the size 5)",
    );
    // A negative number is no whole number.
    assert_bad_board(
        &[],
        &example.replace("3 2 3 2 3", "3 2 -3 2 3"),
        "ply: row 3, column 2: `-3` is not a whole number",
    );
    // The row numbers count only rows, not blank lines.
    assert_bad_board(
        &[],
        &("\n\n".to_string() + &example.replace("0 2 1 3 2", "0 2 1 3 7")),
        "ply: row 2, column 4: 7 is outside 0 to 4 (values must be below the size 5)",
    );
}

#[test]
fn the_goal_must_be_one_zero() {
    let example = rows(EXAMPLE);
    assert_bad_board(
        &[],
        &example.replace("0 2 1 3 2", "1 2 1 3 2"),
        "ply: no square holds 0: the board needs exactly one goal",
    );
    assert_bad_board(
        &[],
        &example.replace("3 2 3 2 3", "3 2 0 2 3"),
        "ply: row 3, column 2 holds a second 0 (the first is at row 2, column 0): the board needs exactly one goal",
    );
}

#[test]
fn sizes_outside_the_seed_rule() {
    let seed_rule = |d: usize| {
        format!(
            "ply: a board of size {d} breaks the size rule (5 to 20; --any-size allows 2 to 4096)"
        )
    };
    // d = 4.
    let four = rows(ONES_4);
    assert_bad_board(&[], &four, &seed_rule(4));
    assert!(magic(&["--any-size"], &four).starts_with("4×4 board, goal at (2,2)\n"));
    // d = 21, made by the generator.
    let big = generate(&["--any-size", "--size", "21", "--seed", "8"]);
    assert_bad_board(&[], &big, &seed_rule(21));
    let grid = assert_board_format(&big, 21);
    check_against_library(&grid, &magic_json(&["--any-size"], &big));
    // Below 2 or above 4096 even with --any-size (the first row sets the size).
    assert_bad_board(
        &["--any-size"],
        "0\n",
        "ply: a board of size 1 breaks the size rule (2 to 4096)",
    );
    let wide = vec!["1"; 4097].join(" ") + "\n";
    assert_bad_board(
        &["--any-size"],
        &wide,
        "ply: a board of size 4097 breaks the size rule (2 to 4096)",
    );
}

#[test]
fn non_numbers_and_empty_input_are_refused() {
    let example = rows(EXAMPLE);
    assert_bad_board(
        &[],
        &example.replace("3 2 3 2 3", "3 2 x 2 3"),
        "ply: row 3, column 2: `x` is not a whole number",
    );
    assert_bad_board(
        &[],
        &example.replace("4 4 4 1 1", "4 4 4 1.5 1"),
        "ply: row 0, column 3: `1.5` is not a whole number",
    );
    assert_bad_board(&[], "", "ply: the board is empty");
    assert_bad_board(&[], "\n \n\t\n", "ply: the board is empty");
}

#[test]
fn a_missing_file_is_refused() {
    let path = unique_path("missing.txt");
    let path = path.to_str().unwrap();
    assert_bad_input(
        &["magic-board", path],
        None,
        &format!("ply: cannot read {path}: No such file or directory (os error 2)"),
    );
}

#[test]
fn bad_start_arguments_are_refused() {
    let board = rows(EXAMPLE);
    assert_bad_board(
        &["--start", "1,1"],
        &board,
        "ply: (1,1) is not a corner; the starts are (0,0), (0,4), (4,0) and (4,4)",
    );
    assert_bad_board(
        &["--start", "x"],
        &board,
        "ply: --start: `x` is not ROW,COL",
    );
    assert_bad_board(
        &["--start", "4"],
        &board,
        "ply: --start: `4` is not ROW,COL",
    );
    assert_bad_board(
        &["--start", "0,y"],
        &board,
        "ply: --start: `0,y` is not ROW,COL",
    );
}

#[test]
fn a_negative_start_is_quoted_as_typed() {
    assert_bad_board(
        &["--start", "-1,0"],
        &rows(EXAMPLE),
        "ply: --start: `-1,0` is not ROW,COL",
    );
}

#[test]
fn draw_is_refused_above_100_and_works_at_100() {
    let big = generate(&["--any-size", "--size", "101", "--seed", "1"]);
    assert_board_format(&big, 101);
    assert_bad_board(
        &["--any-size", "--draw"],
        &big,
        "ply: --draw is for boards up to 100×100; this one is 101×101",
    );
    // Without --draw the same board is answered.
    let grid = Grid::parse(&big);
    assert_eq!(
        magic(&["--any-size"], &big),
        grid.expected_text(&grid.corners(), false)
    );
    let hundred = generate(&["--any-size", "--size", "100", "--seed", "1", "--solvable"]);
    let grid = Grid::parse(&hundred);
    assert_eq!(
        magic(&["--any-size", "--draw"], &hundred),
        grid.expected_text(&grid.corners(), true)
    );
}

#[test]
fn too_little_memory_is_refused() {
    // 5 rows of 8 squares (rows padded to a power of two), 5 bytes each: 200 bytes per search.
    assert_bad_board(
        &["--memory", "160", "--start", "0,0"],
        &rows(EXAMPLE),
        "ply: a search over 40 states needs 200 B but the memory budget is 160 B",
    );
    assert_eq!(
        magic(&["--memory", "200", "--start", "0,0"], &rows(EXAMPLE)),
        "5×5 board, goal at (2,0)\n(0,0): solvable in 4 moves: (0,0) (4,0) (4,3) (2,3) (2,0)\n"
    );
}

// ---------------------------------------------------------------------------------------------
// 7. A large board.
// ---------------------------------------------------------------------------------------------

#[test]
fn a_thousand_by_thousand_board() {
    let text = generate(&["--any-size", "--size", "1000", "--seed", "1"]);
    assert_eq!(
        text,
        generate(&["--any-size", "--size", "1000", "--seed", "1"])
    );
    let grid = assert_board_format(&text, 1000);
    let file = TempFile::new("thousand.txt", text.as_bytes());
    let v = parse_json(&stdout_of(
        &["magic-board", "--any-size", "--json", file.arg()],
        None,
    ));
    let goal = grid.goal();
    assert_eq!(v["d"], 1000);
    assert_eq!(v["goal"], json!([goal.0, goal.1]));
    check_against_library(&grid, &v);
    let corners = v["corners"].as_array().unwrap();
    let solvable = corners.iter().filter(|c| c["solvable"] == true).count();
    assert!(solvable > 0, "seed 1 has solvable corners");
    // The same answer from stdin, and with --start for one corner.
    assert_eq!(magic_json(&["--any-size"], &text), v);
    let one = parse_json(&stdout_of(
        &[
            "magic-board",
            "--any-size",
            "--json",
            "--start",
            "999,999",
            file.arg(),
        ],
        None,
    ));
    assert_eq!(one["corners"][0], corners[3]);
    // Without --any-size the board is refused, naming the size.
    ply()
        .args(["magic-board", file.arg()])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("size 1000"));
}
