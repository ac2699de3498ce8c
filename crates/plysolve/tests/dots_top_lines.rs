//! `--lines K`, the multi-line view: the K best moves, each with its value and a line of perfect
//! play that — replayed on the board — nets exactly that value; bounds and an estimate within them
//! where nothing is proved; and requests for impossible numbers of lines refused in one line.

use plysolve::engine::MemoryBudget;
use plysolve::games::dots::answer::{answer, Hooks};
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::notation::position_from_moves;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::{Detail, DotsRequest};
use plysolve::games::dots::Geometry;
use plysolve::input::surface::{Surface, Worded};
use std::time::Duration;

fn asked(geometry: Geometry, moves: &str, lines: u32) -> DotsRequest {
    DotsRequest {
        lines: Some(lines),
        ..DotsRequest::new(geometry, moves)
    }
}

/// What replaying `line` after `moves` nets the player to move after `moves`.
fn netted(geometry: Geometry, moves: &str, line: &[String]) -> i64 {
    let board = geometry.build().unwrap().board;
    let before = position_from_moves(&board, moves).unwrap();
    let mover = before.to_move();
    let after = position_from_moves(&board, &format!("{moves} {}", line.join(" "))).unwrap();
    let margin = |p: &plysolve::games::dots::position::Position| {
        let s = p.score();
        s[mover.index()] as i64 - s[mover.other().index()] as i64
    };
    margin(&after) - margin(&before)
}

#[test]
fn each_top_line_nets_its_value_to_the_end_of_the_game() {
    for (geometry, moves) in [
        (Geometry::CLASSIC_TRIANGLES, ""),
        (Geometry::CLASSIC_TRIANGLES, "2-3 4-5"),
        (Geometry::Boxes { rows: 2, cols: 3 }, "1-2"),
        (Geometry::Boxes { rows: 3, cols: 3 }, "1-2 2-3 5-6"),
    ] {
        let query = asked(geometry, moves, 4).validate().unwrap();
        let policy = Policy::new(MemoryBudget::new(1 << 28), None);
        let report = answer(&query, &policy, None, Hooks::default()).unwrap();
        assert!(report.exact);
        assert_eq!(report.lines.len(), 4.min(report.moves.len()));
        // The first is the best line; values never rise down the list.
        assert_eq!(report.lines[0].line, report.line, "{moves}");
        assert_eq!(report.lines[0].value, report.value);
        let free = query.free() as usize;
        for (top, next) in report.lines.iter().zip(report.lines.iter().skip(1)) {
            assert!(top.value >= next.value, "{moves}: {top:?} then {next:?}");
        }
        for top in &report.lines {
            let value = top
                .value
                .expect("every move of a solved position is proved");
            let listed = report.moves.iter().find(|m| m.mv == top.mv).unwrap();
            assert_eq!(listed.value, Some(value));
            assert_eq!(top.line[0], top.mv);
            assert_eq!(top.line.len(), free, "{moves}: {top:?} goes to the end");
            assert_eq!(
                netted(geometry, moves, &top.line),
                value as i64,
                "{moves}: {top:?}"
            );
            assert_eq!((top.bounds, top.estimate), (None, None));
        }
    }
}

#[test]
fn more_lines_than_moves_gives_every_move() {
    // 2×2 boxes with ten of twelve edges drawn: two moves left.
    let moves = "1-2 2-3 4-5 5-6 7-8 8-9 1-4 4-7 3-6 6-9";
    let query = asked(Geometry::Boxes { rows: 2, cols: 2 }, moves, 64)
        .validate()
        .unwrap();
    let policy = Policy::new(MemoryBudget::new(1 << 26), None);
    let report = answer(&query, &policy, None, Hooks::default()).unwrap();
    assert_eq!(report.lines.len(), 2);
    assert_eq!(report.moves.len(), 2);
}

#[test]
fn unproved_moves_come_with_their_bounds_and_an_estimate_within_them() {
    // 5×5 boxes in a millisecond, no book: nothing proved.
    let query = DotsRequest {
        time: Some(plysolve::games::dots::request::TimeText::Text("1ms".into())),
        ..asked(Geometry::Boxes { rows: 5, cols: 5 }, "1-2", 5)
    }
    .validate()
    .unwrap();
    let policy = Policy::new(MemoryBudget::new(1 << 26), Some(Duration::from_millis(1)));
    let books = std::sync::Arc::new(plysolve::games::dots::book::Books::none());
    let kept = Kept::new(1 << 26, 1).with_books(books);
    let report = answer(&query, &policy, Some(&kept), Hooks::default()).unwrap();
    assert!(!report.exact);
    assert_eq!(report.lines.len(), 5);
    // The first line is the best move found, with the estimate the report gives it: the lines and
    // the best move agree.
    assert_eq!(Some(&report.lines[0].mv), report.best_move.as_ref());
    assert_eq!(
        report.lines[0].estimate,
        report.estimate.as_ref().map(|e| e.value)
    );
    for top in &report.lines {
        let bounds = top.bounds.expect("bounds where not proved");
        if let Some(estimate) = top.estimate {
            assert!(
                bounds.lower <= estimate && estimate <= bounds.upper,
                "{top:?}"
            );
        }
        assert_eq!(top.line, vec![top.mv.clone()]);
    }
    // 58 free edges of 5×5: the model's error was never measured there, so the other moves' static
    // estimates are not shown (they only rank the moves).
    assert!(report.lines[1..].iter().all(|t| t.estimate.is_none()));
}

#[test]
fn impossible_numbers_of_lines_are_refused_in_one_line() {
    let classic = Geometry::CLASSIC_TRIANGLES;
    for (request, message) in [
        (asked(classic, "", 0), "\"lines\": 1 to 64 top lines, not 0"),
        (asked(classic, "", 65), "\"lines\": 1 to 64 top lines, not 65"),
        (
            DotsRequest {
                detail: Detail::Value,
                ..asked(classic, "", 3)
            },
            "\"lines\" are shown with \"detail\": \"line\" (the default), not \"detail\": \"value\"",
        ),
    ] {
        let fault = request.validate().unwrap_err();
        assert_eq!(fault.worded(Surface::Api), message);
    }
    // The command line names its option as a flag.
    let zero = asked(classic, "", 0).validate().unwrap_err();
    assert_eq!(zero.to_string(), "--lines: 1 to 64 top lines, not 0");
    // One line is the best line, with any detail.
    let one = DotsRequest {
        detail: Detail::Moves,
        ..asked(classic, "", 1)
    };
    assert!(one.validate().is_ok());
    // From JSON, as the API and Python send it.
    let json: DotsRequest = serde_json::from_str(r#"{"game":"triangles","lines":3}"#).unwrap();
    assert_eq!(json.validate().unwrap().lines, 3);
}
