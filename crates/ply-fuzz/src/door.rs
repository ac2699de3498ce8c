//! The registry's target: every question of every game (`plysolve::games::registry`) fed arbitrary
//! request bodies, as the server and Python feed them. A game added to the registry is fuzzed here
//! with no edit: the first byte picks the question, the rest is its body.

use plysolve::engine::MemoryBudget;
use plysolve::games::door::{Context, Cost, Fault, Grants, Question};
use plysolve::games::registry;
use plysolve::input::surface::Surface;
use std::time::Duration;

/// The memory one answer may take here: small, so a body asking for a big table is refused.
const MEMORY: u64 = 64 << 20;

/// The time one cheap answer may take here.
const TIME: Duration = Duration::from_millis(200);

/// The longest fault a front end shows: one short line (quotes of the caller's text are excerpts).
const LONGEST_FAULT: usize = 200;

/// Checks one body against the question its first byte picks: read and checked as the API and
/// Python read it, a fault is one short line; a body that checks and is cheap on a shared machine is
/// answered (or refused in one line) within a short time, its answer one line of JSON.
pub fn check_door(data: &[u8]) {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let questions: Vec<&'static dyn Question> = registry::questions().collect();
    check_body(questions[usize::from(pick) % questions.len()], body);
}

/// Checks `body` as the request of `question` (the property of [`check_door`], shared with the
/// targets that pick among fewer questions).
pub(crate) fn check_body(question: &dyn Question, body: &[u8]) {
    let grants = Grants {
        shared: true,
        limit: Some(TIME),
        ..Grants::new(MemoryBudget::new(MEMORY))
    };
    for surface in [Surface::Api, Surface::Python] {
        let checked = match question.check_json(body, surface) {
            Ok(checked) => checked,
            Err(fault) => {
                one_line(question, &fault);
                continue;
            }
        };
        if surface != Surface::Api || checked.cost(&grants) != Cost::Cheap {
            continue;
        }
        match checked.answer(&Context::new(grants.clone(), Some(TIME))) {
            Ok(answer) => {
                let line = answer
                    .text
                    .strip_suffix('\n')
                    .expect("an answer ends its line");
                assert!(
                    !line.contains('\n'),
                    "{}: an answer of two lines",
                    question.about().path
                );
                serde_json::from_str::<serde_json::Value>(line).expect("an answer is JSON");
            }
            Err(fault) => one_line(question, &fault),
        }
    }
}

/// Asserts that `fault` is one short line.
fn one_line(question: &dyn Question, fault: &Fault) {
    let path = question.about().path;
    assert!(
        !fault.message.contains('\n'),
        "{path}: a fault of two lines: {:?}",
        fault.message
    );
    assert!(!fault.message.is_empty(), "{path}: an empty fault");
    assert!(
        fault.message.chars().count() <= LONGEST_FAULT,
        "{path}: a fault of {} characters: {:?}",
        fault.message.chars().count(),
        fault.message
    );
}
