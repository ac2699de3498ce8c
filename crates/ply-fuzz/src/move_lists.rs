//! Imported move lists: the moves a shared link (`moves=4-7 8-9`, `heaps=3,4,5&moves=2,1`), a game
//! record the page imports or a command names, as the server reads them — the JSON requests of the
//! questions that replay a game's moves.

use plysolve::engine::MemoryBudget;
use plysolve::games::door::{Context, Cost, Grants};
use plysolve::games::registry;
use plysolve::input::surface::Surface;
use std::time::Duration;

/// The questions that read a list of moves, picked by the input's first byte.
const QUESTIONS: [&str; 6] = [
    "/api/dots/review",
    "/api/dots/board",
    "/api/dots",
    "/api/heaps/game",
    "/api/dice-race/game",
    "/api/play/heaps",
];

/// A fault is one line, not empty.
fn one_line(message: &str) {
    assert!(!message.is_empty(), "an empty message");
    assert!(
        !message.contains('\n'),
        "a message of several lines: {message:?}"
    );
}

/// Checks a request body (the bytes after the first, which picks the question) as a server reads
/// it: reading and checking never panic and a fault is one line; a request checked as cheap on a
/// shared machine is answered (in at most half a second, within 64 MiB) without a panic, its answer
/// one line of a JSON object, or its fault one line.
pub fn check_move_lists(data: &[u8]) {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let name = QUESTIONS[usize::from(pick) % QUESTIONS.len()];
    let question = registry::question(name).expect("a question of the registry");
    let checked = match question.check_json(body, Surface::Api) {
        Ok(checked) => checked,
        Err(fault) => return one_line(&fault.message),
    };
    let grants = Grants {
        limit: Some(Duration::from_millis(500)),
        shared: true,
        ..Grants::new(MemoryBudget::new(64 << 20))
    };
    if checked.cost(&grants) != Cost::Cheap {
        return;
    }
    match checked.answer(&Context::new(grants, None)) {
        Ok(answer) => {
            let json: serde_json::Value = serde_json::from_str(&answer.text)
                .unwrap_or_else(|e| panic!("{name}: the answer is not JSON ({e})"));
            assert!(json.is_object(), "{name}: {json}");
            assert_eq!(answer.text.trim_end().lines().count(), 1, "{name}: {json}");
        }
        Err(fault) => one_line(&fault.message),
    }
}
