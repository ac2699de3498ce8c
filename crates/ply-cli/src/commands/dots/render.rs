//! The text of a dots report: the board, the score, the value (or its bounds), every move's value
//! best first, and the best line. `ply dots` prints it whole; `ply play` prints its move list.

use plysolve::engine::scored::ValueRange;
use plysolve::engine::Winner;
use plysolve::games::dots::report::{DotsReport, Estimated, MoveReport};
use std::fmt::Write;

/// `+3`, `0`, `-2`.
pub fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

/// An estimate as people read it: `+2 (± 1.4)`, the error left out where it was not measured.
pub fn about(e: &Estimated) -> String {
    match e.error {
        Some(error) => format!("{} (± {error:.1})", signed(e.value.into())),
        None => signed(e.value.into()),
    }
}

/// A value as proved: `+3`, or its bounds `-1..+5` when not proved.
pub fn range_text(range: ValueRange) -> String {
    match range.value() {
        Some(v) => signed(v.into()),
        None => format!(
            "{}..{}",
            signed(range.lower.into()),
            signed(range.upper.into())
        ),
    }
}

/// What is proved of a move's value as text: `+3`, its bounds `-1..+5`, or `not proved yet` when
/// they are all the cells left allow (no result to show).
pub fn move_value_text(r: &DotsReport, m: &MoveReport) -> String {
    if r.proves_nothing_of(m) {
        NOT_PROVED.to_string()
    } else {
        range_text(m.range())
    }
}

/// What the text says of a value of which nothing is proved.
pub const NOT_PROVED: &str = "not proved yet";

/// One line of a move list of `r`: the move, its value (or bounds), what it scores, and its
/// symmetric twin.
pub fn move_line(r: &DotsReport, m: &MoveReport) -> String {
    let scores = if m.points > 0 {
        format!("  (scores {})", m.points)
    } else {
        String::new()
    };
    let same = m
        .symmetric_to
        .as_ref()
        .map_or(String::new(), |other| format!("  (symmetric to {other})"));
    format!("  {:>6}  {:>4}{scores}{same}", m.mv, move_value_text(r, m))
}

/// The text form of a report.
pub fn report(r: &DotsReport, cells: usize, with_line: bool) -> String {
    let mut out = String::new();
    let (one, many) = r.geometry.cell_names();
    let noun = if cells == 1 { one } else { many };
    let _ = writeln!(out, "{} ({cells} {noun})", r.geometry.title());
    if !r.played.is_empty() {
        let _ = writeln!(out, "Played: {}", r.played.join(" "));
    }
    let _ = writeln!(out);
    out.push_str(&r.picture);
    let _ = writeln!(out);
    let over = r.over;
    let _ = writeln!(
        out,
        "Score: A {}, B {}. {}",
        r.score.a,
        r.score.b,
        if over {
            "Game over.".to_string()
        } else {
            format!("{} to move.", r.to_move)
        }
    );
    if !over {
        let how = match &r.reason {
            None => format!("by {}", r.strategy.name()),
            Some(why) => format!("not proved: {why}; by {}", r.strategy.name()),
        };
        if r.proves_nothing() {
            let why = r.reason.as_deref().unwrap_or("not finished");
            let _ = writeln!(
                out,
                "Value for {}: {NOT_PROVED} ({why}; by {})",
                r.to_move,
                r.strategy.name()
            );
        } else {
            let _ = writeln!(
                out,
                "Value: {} for {} (net {many} still to gain under perfect play, {how})",
                range_text(r.range()),
                r.to_move,
            );
        }
    }
    match (r.winner, r.final_margin_a, r.final_score) {
        (Some(winner), Some(margin), Some(score)) => {
            let verdict = match winner {
                Winner::A => format!("A wins by {margin}"),
                Winner::B => format!("B wins by {}", -margin),
                Winner::Tie => "a tie".to_string(),
            };
            let _ = writeln!(
                out,
                "Result with perfect play: {verdict}, {}-{} (final margin for A: {})",
                score.a,
                score.b,
                signed(margin)
            );
        }
        _ => {
            let _ = writeln!(out, "Result with perfect play: not proved yet");
        }
    }
    if r.value_only {
        let _ = writeln!(out, "\n(The moves were not valued: --value-only.)");
    } else if !over {
        let shown = if r.moves.iter().all(|m| m.value.is_some()) {
            "best first"
        } else {
            "best first; a range where the value is not proved, or \"not proved yet\" where \
             nothing is"
        };
        let _ = writeln!(out, "\nMoves for {}, {shown}:", r.to_move);
        for m in &r.moves {
            let _ = writeln!(out, "{}", move_line(r, m));
        }
        match (r.exact, &r.best_move, &r.estimate) {
            (false, Some(best), Some(e)) => {
                let _ = writeln!(
                    out,
                    "\nBest move found: {best}, value about {} (not proved; estimated {} turns \
                     ahead)",
                    about(e),
                    e.depth
                );
            }
            (false, Some(best), None) => {
                let _ = writeln!(
                    out,
                    "\nBest move found: {best} (the greatest proved lower bound)"
                );
            }
            _ => {}
        }
    }
    if !r.lines.is_empty() {
        let _ = writeln!(out, "\nTop {} lines for {}:", r.lines.len(), r.to_move);
        for (i, top) in r.lines.iter().enumerate() {
            let value = match (top.value, top.bounds, top.estimate) {
                (Some(v), _, _) => signed(v.into()),
                (None, Some(b), Some(e)) => {
                    format!("about {} ({})", signed(e.into()), range_text(b))
                }
                (None, Some(b), None) => range_text(b),
                (None, None, _) => "not proved yet".to_string(),
            };
            let _ = writeln!(
                out,
                "{:>3}. {:<6} {value:<16} {}",
                i + 1,
                top.mv,
                top.line.join(" ")
            );
        }
    }
    if with_line && !r.line_steps.is_empty() {
        let steps: Vec<String> = r
            .line_steps
            .iter()
            .map(|s| {
                let who = s.player;
                if s.points > 0 {
                    format!("{who} {} (+{})", s.mv, s.points)
                } else {
                    format!("{who} {}", s.mv)
                }
            })
            .collect();
        // Every free edge is one of the moves: a line with fewer steps stops before the end.
        let so_far = if r.line_steps.len() < r.moves.len() {
            " (as far as it is proved)"
        } else {
            ""
        };
        let _ = writeln!(out, "\nBest line{so_far}: {}", steps.join(", "));
    }
    out
}
