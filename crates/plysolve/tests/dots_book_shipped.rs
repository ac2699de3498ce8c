//! The books shipped inside ply: the books answering the positions they hold through the dots home
//! with `strategy` book, and the same values as a search without them. (Every entry of the size-4
//! triangles book is checked against the whole table of the board in `dots_search_random.rs`, which
//! builds that table anyway.)

use plysolve::engine::scored::Strategy;
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::answer::{answer, Hooks};
use plysolve::games::dots::book::Books;
use plysolve::games::dots::geometry::BuiltBoard;
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::notation::position_from_moves;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::report::DotsReport;
use plysolve::games::dots::request::{Detail, DotsQuery};
use plysolve::games::dots::{Geometry, Position};

/// The dots home's answer for the position after `moves` on `built`, with `kept`'s books.
fn report(
    built: &BuiltBoard,
    moves: &str,
    detail: Detail,
    policy: &Policy,
    kept: &Kept,
) -> DotsReport {
    let position: Position = position_from_moves(&built.board, moves).unwrap();
    answer(
        &DotsQuery::at(built, position, detail),
        policy,
        Some(kept),
        Hooks::default(),
    )
    .unwrap()
}

#[test]
fn the_shipped_books_answer_their_positions_at_once() {
    let built = Geometry::Triangles { size: 4 }.build().unwrap();
    let policy = Policy::new(MemoryBudget::new(1 << 30), None);
    let ask =
        |moves: &str, detail: Detail, kept: &Kept| report(&built, moves, detail, &policy, kept);
    let shipped = Kept::books_only(Books::shipped());
    let none = Kept::books_only(std::sync::Arc::new(Books::none()));
    // The empty board: -2 (B wins 9-7), every first move valued from the book.
    let from_book = ask("", Detail::Moves, &shipped);
    assert_eq!(from_book.strategy, Strategy::Book);
    assert_eq!(from_book.states_visited, 0);
    assert_eq!(from_book.value, Some(-2));
    assert_eq!(from_book.moves.len(), 30);
    let searched = ask("", Detail::Moves, &none);
    assert_ne!(searched.strategy, Strategy::Book);
    assert_eq!(searched.moves, from_book.moves);
    // One move in: the book holds every reply.
    let reply = ask("2-5", Detail::Moves, &shipped);
    assert_eq!(reply.strategy, Strategy::Book);
    assert_eq!(reply.moves, ask("2-5", Detail::Moves, &none).moves);
    // Three moves in, past the book: searched, with the same values as without it.
    let deeper = ask("2-5 7-8 9-10", Detail::Moves, &shipped);
    assert_ne!(deeper.strategy, Strategy::Book);
    assert_eq!(
        deeper.moves,
        ask("2-5 7-8 9-10", Detail::Moves, &none).moves
    );
}

#[test]
fn the_shipped_4x4_book_gives_the_first_moves_it_holds_at_once() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let policy = Policy::new(MemoryBudget::new(1 << 30), None);
    let kept = Kept::books_only(Books::shipped());
    // 1-2 (a corner's outer edge), 2-3 and 2-7, and their images under the board's symmetries and
    // twins: each worth 0 for B, the player to move (the empty board is a tie).
    for moves in [
        "1-2", "1-6", "20-25", "2-3", "3-4", "22-23", "10-15", "2-7", "19-24",
    ] {
        let report = report(&built, moves, Detail::Value, &policy, &kept);
        assert_eq!(report.strategy, Strategy::Book, "{moves}");
        assert_eq!(report.value, Some(0), "{moves}");
        assert_eq!(report.states_visited, 0);
    }
}

#[test]
fn after_every_first_move_every_reply_is_in_the_shipped_4x4_book() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let policy = Policy::new(MemoryBudget::new(1 << 30), None);
    let kept = Kept::books_only(Books::shipped());
    let start = report(&built, "", Detail::Moves, &policy, &kept);
    assert_eq!((start.value, start.states_visited), (Some(0), 0));
    assert_eq!(start.moves.len(), 40);
    for first in &start.moves {
        // Every first move keeps the tie; after it, every reply is valued by the book alone.
        assert_eq!(first.value, Some(0), "{}", first.mv);
        let after = report(&built, &first.mv, Detail::Moves, &policy, &kept);
        assert_eq!(after.strategy, Strategy::Book, "{}", first.mv);
        assert_eq!(
            (after.value, after.states_visited),
            (Some(0), 0),
            "{}",
            first.mv
        );
        assert_eq!(after.moves.len(), 39);
        assert!(
            after.moves.iter().all(|m| m.value.is_some()),
            "{}",
            first.mv
        );
        // The replies keeping the tie come first; the others give the opponent 2.
        assert!(
            after.moves.iter().all(|m| matches!(m.value, Some(0 | -2))),
            "{}",
            first.mv
        );
        assert_eq!(after.best_move.as_deref(), Some(after.moves[0].mv.as_str()));
    }
}

#[test]
fn a_position_the_book_holds_keeps_its_value_when_its_moves_are_not_all_proved() {
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    // Every move's value is asked, in 200 ms: two moves in, the book holds the position (0 for A,
    // best move 8-13) but none of its 38 replies, which are searched and not proved in time.
    let policy = Policy::new(
        MemoryBudget::new(1 << 30),
        Some(std::time::Duration::from_millis(200)),
    );
    let kept = Kept::books_only(Books::shipped());
    let report = report(&built, "1-2 1-6", Detail::Moves, &policy, &kept);
    // The position's own value is the book's, though the search stopped; its best move is the
    // book's, worth that value.
    assert_eq!(report.value, Some(0));
    assert_eq!(report.strategy, Strategy::Book);
    assert_eq!(report.moves.len(), 38);
    assert_eq!(report.best_move.as_deref(), Some("8-13"));
    assert_eq!(
        (report.moves[0].mv.as_str(), report.moves[0].value),
        ("8-13", Some(0))
    );
    assert!(report.estimate.is_none());
    for m in &report.moves {
        // No move is worth more than the position.
        assert!(m.range().upper <= 0, "{}: {:?}", m.mv, m.range());
    }
}

#[test]
fn the_player_moves_where_the_book_knows_the_position_but_not_its_moves() {
    use plysolve::games::door::{Context, Grants};
    use plysolve::games::registry;
    use plysolve::input::surface::Surface;
    // The book knows the position after 1-2 (0 for B) and its 39 replies; the player has 200 ms:
    // it plays one of the moves that keep the tie.
    let grants = Grants {
        kept: Some(std::sync::Arc::new(
            Kept::new(64 << 20, 1).with_books(Books::shipped()),
        )),
        ..Grants::new(MemoryBudget::new(1 << 30))
    };
    let play = |moves: &str| {
        let body = format!(
            r#"{{"game":"boxes","rows":4,"cols":4,"moves":"{moves}","seed":1,"time":0.2}}"#
        );
        let answer = registry::ask(
            "/api/play/dots",
            body.as_bytes(),
            Surface::Api,
            &Context::new(grants.clone(), None),
        )
        .unwrap_or_else(|f| panic!("{moves}: {}", f.message));
        let played: serde_json::Value = serde_json::from_str(&answer.text).unwrap();
        played["move"].as_str().unwrap().to_string()
    };
    // The replies the book proves 0 (read from it, not listed here).
    let built = Geometry::Boxes { rows: 4, cols: 4 }.build().unwrap();
    let book = Books::shipped().board(&built).unwrap();
    let keeping_the_tie: Vec<String> = (0..built.board.edge_count() as u8)
        .map(plysolve::games::dots::Edge)
        .map(|e| plysolve::games::dots::notation::format_edge(&built.board, e))
        .filter(|name| name != "1-2")
        .filter(|name| {
            let after = position_from_moves(&built.board, &format!("1-2 {name}")).unwrap();
            book.lookup(after.drawn())
                .is_some_and(|(range, _)| range.value() == Some(0))
        })
        .collect();
    assert!(keeping_the_tie.len() >= 5, "{keeping_the_tie:?}");
    assert!(keeping_the_tie.contains(&"1-6".to_string()));
    let mv = play("1-2");
    assert!(keeping_the_tie.contains(&mv), "{mv} of {keeping_the_tie:?}");
    // Two moves in the book knows the position and its best move, none of its replies: it plays
    // that move (a position whose value no move was proved to keep once panicked here).
    assert_eq!(play("1-2 1-6"), "8-13");
}

#[test]
fn the_shipped_21_dot_book_gives_the_empty_board_and_every_first_move_at_once() {
    let built = Geometry::Triangles { size: 5 }.build().unwrap();
    let policy = Policy::new(MemoryBudget::new(1 << 30), None);
    let kept = Kept::books_only(Books::shipped());
    let report = report(&built, "", Detail::Moves, &policy, &kept);
    // The empty board is +1 for A (13-12), and 1-2 — a corner's edge — and its images are the
    // only first moves that keep it: every other loses by 1.
    assert_eq!(report.strategy, Strategy::Book);
    assert_eq!(report.value, Some(1));
    assert_eq!(report.states_visited, 0);
    assert_eq!(report.moves.len(), 45);
    let best: Vec<&str> = report
        .moves
        .iter()
        .filter(|m| m.value == Some(1))
        .map(|m| m.mv.as_str())
        .collect();
    assert_eq!(best, ["1-2", "1-3", "11-16", "15-21", "16-17", "20-21"]);
    assert!(report
        .moves
        .iter()
        .all(|m| m.value == Some(1) || m.value == Some(-1)));
}

#[test]
fn a_position_one_move_past_the_book_is_bounded_by_its_parents() {
    use plysolve::engine::scored::ValueRange;
    let built = Geometry::Triangles { size: 4 }.build().unwrap();
    let policy = Policy::new(MemoryBudget::new(1 << 30), None);
    let book = Books::shipped().board(&built).unwrap();
    let implied = |moves: &str| {
        book.implied_by_parents(position_from_moves(&built.board, moves).unwrap().drawn())
    };
    let shipped = Kept::books_only(Books::shipped());
    let none = Kept::books_only(std::sync::Arc::new(Books::none()));
    let value =
        |moves: &str, kept: &Kept| report(&built, moves, Detail::Value, &policy, kept).value;
    // Three moves in, past the book (two moves deep). Its parents `2-4 5-8` (-2), `2-4 9-10` (+2)
    // and `5-8 9-10` (0) are in it, and no move scores: the last mover gained at most -2, +2, 0,
    // so the position is worth at least +2 to the player to move. It is worth +4.
    assert_eq!(
        implied("2-4 5-8 9-10"),
        ValueRange {
            lower: 2,
            upper: i32::MAX
        }
    );
    assert_eq!(value("2-4 5-8 9-10", &shipped), Some(4));
    assert_eq!(value("2-4 5-8 9-10", &none), Some(4));
    // Each move closing the triangle 1-2-3 scores 1 from a parent worth 0: the mover, moving
    // again, has at most -1 left. It is worth exactly -1.
    assert_eq!(
        implied("1-2 1-3 2-3"),
        ValueRange {
            lower: i32::MIN,
            upper: -1
        }
    );
    assert_eq!(value("1-2 1-3 2-3", &shipped), Some(-1));
    assert_eq!(value("1-2 1-3 2-3", &none), Some(-1));
    // Two moves past the book: nothing implied.
    assert_eq!(implied("2-4 5-8 9-10 1-2"), ValueRange::FULL);
}
