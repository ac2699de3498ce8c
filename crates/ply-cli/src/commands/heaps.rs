//! `ply heaps`: lowest-heap Nim — who wins, a winning move, remoteness and Grundy value; and the
//! Codeforces 1382B batch format.

use crate::failure::Failure;
use crate::input::{memory_budget, open_input};
use clap::Args;
use plysolve::engine::impartial::Convention;
use plysolve::games::heaps::request::HeapsRequest;
use plysolve::games::heaps::{read_batch, HeapsReport};
use plysolve::input::number_list::NumberList;
use std::fmt::Write;
use std::path::PathBuf;

/// `ply heaps SIZES… | --batch [FILE]`
#[derive(Args)]
pub struct HeapsArgs {
    /// Heap sizes from heap 1 (spaces or commas between them), each at least 1.
    #[arg(required_unless_present = "batch", allow_negative_numbers = true)]
    sizes: Vec<String>,
    /// Misère play: whoever takes the last counter loses.
    #[arg(long)]
    misere: bool,
    /// Also print the Grundy (nim) value, to add this game to other impartial games.
    #[arg(long)]
    grundy: bool,
    /// Print one JSON object.
    #[arg(long, conflicts_with = "batch")]
    json: bool,
    /// Read the Codeforces 1382B format (t, then n and n sizes per test) from FILE or stdin and print
    /// First or Second per test.
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "sizes")]
    batch: Option<Option<PathBuf>>,
}

/// Runs `ply heaps`: arguments → the request `POST /api/heaps` takes → report → text; or the batch.
pub fn run(args: HeapsArgs) -> Result<String, Failure> {
    if let Some(file) = &args.batch {
        let convention = if args.misere {
            Convention::Misere
        } else {
            Convention::Normal
        };
        let budget = memory_budget(None)?;
        let answers =
            read_batch(open_input(file.as_deref())?, convention, budget).map_err(Failure::bad)?;
        let mut out = String::with_capacity(answers.len() * 7);
        for first in answers {
            out.push_str(if first { "First\n" } else { "Second\n" });
        }
        return Ok(out);
    }
    let request = HeapsRequest {
        heaps: NumberList::text(args.sizes.join(" ")),
        misere: args.misere,
        grundy: args.grundy,
    };
    let position = request.validate().map_err(Failure::bad)?;
    let report = position.report();
    if args.json {
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    Ok(render(&report, &position.sizes, request.grundy))
}

fn render(r: &HeapsReport, sizes: &[u64], with_grundy: bool) -> String {
    let mut out = format!("{} player wins\n", r.winner);
    if let Some(mv) = r.winning_move {
        let all = if mv.take > 1 && sizes[mv.heap - 1] == mv.take {
            "all "
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "winning move: take {all}{} from heap {}",
            mv.take, mv.heap
        );
    }
    let moves = if r.remoteness == 1 { "move" } else { "moves" };
    let _ = writeln!(
        out,
        "remoteness: {} {moves} (the winner hurries, the loser delays)",
        r.remoteness
    );
    if with_grundy {
        match r.grundy {
            Some(g) => {
                let _ = writeln!(out, "grundy value: {g}");
            }
            None => out.push_str(
                "grundy value: none under misère play (only normal-play values add up)\n",
            ),
        }
    }
    out
}
