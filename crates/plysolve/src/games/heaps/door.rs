//! Lowest-heap Nim through the [door](crate::games::door): the position's report (`ply heaps`,
//! `POST /api/heaps`) and the perfect player's move (`ply play heaps`, `POST /api/play/heaps`),
//! both by the closed form, so always cheap.

use super::play::{too_many_takes, HeapsGameError, HeapsGameReport, HeapsGameRequest};
use super::player::HeapReply;
use super::request::{HeapsQuery, HeapsRequest, PlayHeapsRequest};
use super::{HeapsFault, HeapsReport};
use crate::games::door::{About, Ask, Context, Cost, Door, Game, Grants, Page, Refusal, Refused};
use crate::input::surface::{Surface, Worded};

impl Worded for HeapsFault {
    /// A heap fault names the heap (`heap 2 holds 0`), the same on every surface; an empty item
    /// names the list as the caller wrote it: `heaps` on the command line (positional words),
    /// `"heaps"` in a JSON body, `heaps` in Python.
    fn worded(&self, surface: Surface) -> String {
        match self {
            HeapsFault::EmptyItem(item) if surface == Surface::Api => {
                format!("{}: {item}", surface.name("heaps"))
            }
            _ => self.to_string(),
        }
    }
}

impl Refusal for HeapsFault {
    fn over_budget(&self) -> bool {
        false
    }
}

/// Who wins a position, a winning move, its remoteness and Grundy value.
pub struct Report;

impl Ask for Report {
    type Request = HeapsRequest;
    type Checked = HeapsQuery;
    type Report = HeapsReport;
    const ABOUT: About = About {
        game: "heaps",
        name: "report",
        path: "/api/heaps",
        python: "heaps",
        summary: "who wins, a winning move, the remoteness and the Grundy value",
        example: r#"{"heaps": [3, 4, 5], "misere": false}"#,
        streams: false,
    };

    fn check(request: HeapsRequest) -> Result<HeapsQuery, Refused> {
        Ok(request.validate()?)
    }

    fn cost(_: &HeapsQuery, _: &Grants) -> Cost {
        Cost::Cheap
    }

    fn answer(position: HeapsQuery, _: &Context<'_>) -> Result<HeapsReport, Refused> {
        Ok(position.report())
    }
}

/// The perfect player's move.
pub struct Play;

/// A position to play in, and the seed breaking its ties.
pub struct PlayChecked {
    position: HeapsQuery,
    seed: u64,
}

impl Ask for Play {
    type Request = PlayHeapsRequest;
    type Checked = PlayChecked;
    type Report = HeapReply;
    const ABOUT: About = About {
        game: "heaps",
        name: "play",
        path: "/api/play/heaps",
        python: "play_heaps",
        summary: "the perfect player's move, ties broken by the seed",
        example: r#"{"heaps": [2, 3], "seed": 1}"#,
        streams: false,
    };

    fn check(request: PlayHeapsRequest) -> Result<PlayChecked, Refused> {
        Ok(PlayChecked {
            position: request.validate()?,
            seed: request.seed,
        })
    }

    fn cost(_: &PlayChecked, _: &Grants) -> Cost {
        Cost::Cheap
    }

    fn answer(checked: PlayChecked, _: &Context<'_>) -> Result<HeapReply, Refused> {
        Ok(checked.position.reply(checked.seed))
    }
}

impl Worded for HeapsGameError {
    /// A game's fault names the move and the heaps, the same on every surface; too many takes and
    /// an empty item in the takes name the option, the heaps' faults are worded as theirs.
    fn worded(&self, surface: Surface) -> String {
        match self {
            HeapsGameError::TooManyTakes(takes) => too_many_takes(surface, *takes),
            HeapsGameError::EmptyItem(item) => format!("{}: {item}", surface.name("moves")),
            HeapsGameError::Heaps(fault) => fault.worded(surface),
            HeapsGameError::Take { .. } => self.to_string(),
        }
    }
}

impl Refusal for HeapsGameError {
    fn over_budget(&self) -> bool {
        false
    }
}

/// A game replayed from its heaps and takes: every position valued, every take graded, the end,
/// the winner, and the perfect player's reply when a seed is given.
pub struct Replay;

impl Ask for Replay {
    type Request = HeapsGameRequest;
    /// The replay is the check (a take the game does not allow is the request's fault) and, linear
    /// in the heaps and takes, is the whole answer.
    type Checked = HeapsGameReport;
    type Report = HeapsGameReport;
    const ABOUT: About = About {
        game: "heaps",
        name: "game",
        path: "/api/heaps/game",
        python: "heaps_game",
        summary: "a game replayed from its takes: each position's value, each take graded, the end",
        example: r#"{"heaps": [3, 4, 5], "moves": [2, 1], "seed": 1}"#,
        streams: false,
    };

    fn check(request: HeapsGameRequest) -> Result<HeapsGameReport, Refused> {
        Ok(request.answer()?)
    }

    fn cost(_: &HeapsGameReport, _: &Grants) -> Cost {
        Cost::Cheap
    }

    fn answer(report: HeapsGameReport, _: &Context<'_>) -> Result<HeapsGameReport, Refused> {
        Ok(report)
    }
}

/// Lowest-heap Nim as the registry lists it.
pub const GAME: Game = Game {
    name: "heaps",
    title: "Lowest-heap Nim",
    source: "A combinatorial game problem",
    pages: &[Page {
        id: "heaps",
        title: "Lowest-heap Nim",
        scripts: &["heaps.js"],
        entry: "heapsGame",
    }],
    questions: &[
        &Door::<Report>::new(),
        &Door::<Play>::new(),
        &Door::<Replay>::new(),
    ],
};
