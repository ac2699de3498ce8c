//! `ply solitaire`: Number Solitaire — the best result, an optimal path, and the game under fair throws.

use crate::failure::Failure;
use crate::input::open_input;
use clap::Args;
use plysolve::games::solitaire::request::{SolitaireRequest, DEFAULT_DIE};
use plysolve::games::solitaire::{SolitaireReport, PATH_LIMIT};
use plysolve::input::number_list::NumberList;
use std::fmt::Write;
use std::path::PathBuf;

/// `ply solitaire [VALUES]… | --input FILE`
#[derive(Args)]
pub struct SolitaireArgs {
    /// The numbers on the squares, from square 0 (spaces or commas between them).
    #[arg(allow_negative_numbers = true, conflicts_with = "input")]
    values: Vec<String>,
    /// Read the numbers from a file (`-` for stdin), separated by any white space or commas.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// Faces of the die, 1 to 1000000.
    #[arg(long, default_value_t = DEFAULT_DIE, value_name = "K")]
    die: u64,
    /// Give the best result alone, in memory independent of the board's length.
    #[arg(long, conflicts_with = "path")]
    no_path: bool,
    /// Give the path even for boards over 1 000 000 squares (about 40 bytes a square: 10^7 squares
    /// take some 375 MB).
    #[arg(long)]
    path: bool,
    /// Also the expected result when every throw is fair (as a fraction for boards up to 60 squares).
    #[arg(long)]
    expected: bool,
    /// Also the probability of each result under fair throws (boards up to 60 squares).
    #[arg(long)]
    distribution: bool,
    /// Also the table of best totals square by square, as in the original program (boards up to 40
    /// squares).
    #[arg(long)]
    explain: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `ply solitaire`: arguments → the request `POST /api/solitaire` takes → report → text.
pub fn run(args: SolitaireArgs) -> Result<String, Failure> {
    let request = SolitaireRequest {
        // The arguments as one text, read by the same reader as a file; none at all is no board.
        squares: match args.values.is_empty() {
            true => NumberList::default(),
            false => NumberList::text(args.values.join(" ")),
        },
        die: args.die,
        no_path: args.no_path,
        path: args.path,
        expected: args.expected,
        distribution: args.distribution,
        explain: args.explain,
    };
    let report = match &args.input {
        Some(path) => request.answer_from(open_input(Some(path))?),
        None => request.answer(),
    }
    .map_err(Failure::bad)?;
    if args.json {
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    Ok(render(&report, !args.no_path))
}

fn join(items: &[u64], separator: &str) -> String {
    let mut text = String::with_capacity(items.len() * (separator.len() + 8));
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            text.push_str(separator);
        }
        let _ = write!(text, "{item}");
    }
    text
}

/// The text form; `explain_missing_path` says why a path the user did not refuse is not shown.
fn render(r: &SolitaireReport, explain_missing_path: bool) -> String {
    let mut out = format!("{}\n", r.best);
    match (&r.path, &r.throws) {
        (Some(path), Some(throws)) => {
            let _ = writeln!(out, "path: {}", join(path, " -> "));
            let throws = if throws.is_empty() {
                "none".to_string()
            } else {
                join(throws, ", ")
            };
            let _ = writeln!(out, "throws: {throws}");
        }
        _ if explain_missing_path && r.n > PATH_LIMIT => {
            let _ = writeln!(
                out,
                "path: not kept for {} squares (over {PATH_LIMIT}); use --path",
                r.n
            );
        }
        // A board within the limit whose path memory could not keep (a tight `ulimit -v`).
        _ if explain_missing_path => {
            let _ = writeln!(
                out,
                "path: not kept for {} squares (over the memory budget); --path says what it needs",
                r.n
            );
        }
        _ => {}
    }
    if let Some(expected) = r.expected {
        let exact = match &r.expected_exact {
            Some(x) if x.contains('/') => format!("{x} = "),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "expected result with a fair {}-sided die (overshooting throws thrown again): {exact}{expected}",
            r.die
        );
    }
    if let Some(distribution) = &r.distribution {
        let _ = writeln!(out, "\n{:>12}  {:<24} as decimal", "result", "probability");
        for d in distribution {
            let _ = writeln!(out, "{:>12}  {:<24} {:.6}", d.result, d.probability, d.p);
        }
    }
    if let Some(rows) = &r.explain {
        let _ = writeln!(
            out,
            "\n{:>6} {:>8} {:>10} {:>6}",
            "square", "value", "best", "from"
        );
        for row in rows {
            let from = row.from.map_or("-".to_string(), |f| f.to_string());
            let _ = writeln!(
                out,
                "{:>6} {:>8} {:>10} {:>6}",
                row.square, row.value, row.best, from
            );
        }
    }
    out
}
