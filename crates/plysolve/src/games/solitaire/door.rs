//! Number Solitaire through the [door](crate::games::door): the best path, and on request the
//! expected result and its distribution (`ply solitaire`, `POST /api/solitaire`).

use super::request::{SolitaireFault, SolitaireRequest};
use super::SolitaireReport;
use crate::games::door::{About, Ask, Context, Cost, Door, Game, Grants, Page, Refusal, Refused};
use crate::input::number_list::NumberList;

impl Refusal for SolitaireFault {
    fn over_budget(&self) -> bool {
        self.is_over_budget()
    }
}

/// Squares up to which the best path is cheap (a few nanoseconds a square).
const CHEAP_SQUARES: usize = 100_000;

/// Squares up to which the exact distribution is cheap (it grows fast with the squares).
const CHEAP_DISTRIBUTION_SQUARES: usize = 24;

/// How many numbers a list holds (counted, not parsed).
fn count(list: &NumberList) -> usize {
    match list {
        NumberList::Text(text) => crate::input::number::items(text).count(),
        NumberList::Numbers(numbers) => numbers.len(),
    }
}

/// The best result and path, and what else the request asks for.
pub struct Solve;

impl Ask for Solve {
    /// The request's options checked; its squares are read as the solver goes (a board may be
    /// long).
    type Request = SolitaireRequest;
    type Checked = SolitaireRequest;
    type Report = SolitaireReport;
    const ABOUT: About = About {
        game: "solitaire",
        name: "solve",
        path: "/api/solitaire",
        python: "solitaire",
        summary: "the best result and path; the expected result and its distribution on request",
        example: r#"{"squares": [1, -2, 0, 9, -1, -2], "die": 6, "expected": true}"#,
        streams: false,
    };

    fn check(request: SolitaireRequest) -> Result<SolitaireRequest, Refused> {
        if request.squares.is_empty_list() {
            return Err(SolitaireFault::NoBoard.into());
        }
        request.validate()?;
        Ok(request)
    }

    fn cost(request: &SolitaireRequest, _: &Grants) -> Cost {
        let squares = count(&request.squares);
        Cost::cheap_if(
            squares <= CHEAP_SQUARES
                && (!request.distribution || squares <= CHEAP_DISTRIBUTION_SQUARES),
        )
    }

    fn answer(
        request: SolitaireRequest,
        context: &Context<'_>,
    ) -> Result<SolitaireReport, Refused> {
        Ok(request.answer_until(&context.halt())?)
    }
}

/// Number Solitaire as the registry lists it.
pub const GAME: Game = Game {
    name: "solitaire",
    title: "Number Solitaire",
    source: "Number Solitaire",
    pages: &[Page {
        id: "solitaire",
        title: "Number Solitaire",
        scripts: &["solitaire.js"],
        entry: "solitaireGame",
    }],
    questions: &[&Door::<Solve>::new()],
};
