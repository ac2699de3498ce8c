//! Imported move lists: the moves a shared link (`moves=4-7 8-9`, `heaps=3,4,5&moves=2,1`), a game
//! record the page imports or a command names, as the server reads them — the JSON requests of the
//! questions that replay a game's moves.

use crate::door::check_body;
use plysolve::games::registry;

/// The questions that read a list of moves, picked by the input's first byte.
const QUESTIONS: [&str; 6] = [
    "/api/dots/review",
    "/api/dots/board",
    "/api/dots",
    "/api/heaps/game",
    "/api/dice-race/game",
    "/api/play/heaps",
];

/// Checks a request body (the bytes after the first, which picks the question) as a server reads
/// it, with the registry target's property (`door::check_body`): reading and checking never panic and a
/// fault is one short line; a request checked as cheap on a shared machine is answered, its answer
/// one line of JSON, or its fault one line.
pub fn check_move_lists(data: &[u8]) {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let name = QUESTIONS[usize::from(pick) % QUESTIONS.len()];
    check_body(
        registry::question(name).expect("a question of the registry"),
        body,
    );
}
