//! MagicBoard through the [door](crate::games::door): a board solved from its corners, a board
//! generated, and statistics of solvability; each costed by the home's models ([`solve_work`],
//! [`check_stats`](super::check_stats)) and, on a shared machine, bounded in size and memory.

use super::generated::GeneratedBoard;
use super::request::{
    GenerateQuery, GenerateRequest, MagicBoardFault, MagicBoardQuery, MagicBoardRequest,
    StatsQuery, StatsRequest,
};
use super::{solve_work, BoardReport, SizeRule, StatsReport, SOLVE_RATE};
use crate::engine::util::cost::WorkLimit;
use crate::engine::util::memory::MemoryBudget;
use crate::games::door::{
    About, Ask, Context, Cost, Door, Game, Grants, Page, Plain, Refusal, Refused,
};

impl Refusal for MagicBoardFault {
    fn over_budget(&self) -> bool {
        self.is_over_budget()
    }
}

/// Largest board side a shared machine solves or generates ([`Grants::shared`]).
pub const SHARED_MAX_SIZE: usize = 200;

/// Memory one MagicBoard search may take on a shared machine.
pub const SHARED_MEMORY: u64 = 64 << 20;

/// Sizes up to which generating a board (drawing and solving it) is cheap.
const CHEAP_GENERATE_SIZE: usize = 32;

/// A board solved from every corner (or the one asked).
pub struct Solve;

impl Ask for Solve {
    type Request = MagicBoardRequest;
    type Checked = MagicBoardQuery;
    type Report = BoardReport;
    const ABOUT: About = About {
        game: "magic-board",
        name: "solve",
        path: "/api/magic-board",
        python: "magic_board",
        summary: "each corner's verdict and shortest path to the goal",
        example: r#"{"board": "4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n"}"#,
        streams: false,
    };

    fn check(request: MagicBoardRequest) -> Result<MagicBoardQuery, Refused> {
        Ok(request.validate()?)
    }

    /// Cheap when its searches are, by their model.
    fn cost(query: &MagicBoardQuery, _: &Grants) -> Cost {
        let corners = if query.start.is_some() { 1 } else { 4 };
        Cost::of_work(solve_work(&query.board, corners), SOLVE_RATE)
    }

    fn answer(query: MagicBoardQuery, context: &Context<'_>) -> Result<BoardReport, Refused> {
        let mut memory = context.grants.memory;
        if context.grants.shared {
            let size = query.board.size();
            if size > SHARED_MAX_SIZE {
                return Err(Plain::over_bound(format!(
                    "the server solves boards up to {SHARED_MAX_SIZE}×{SHARED_MAX_SIZE}; this one is {size}×{size}"
                ))
                .into());
            }
            memory = MemoryBudget::new(SHARED_MEMORY);
        }
        Ok(query.answer_until(memory, &context.halt())?)
    }
}

/// A random legal board, reproducible from its seed.
pub struct Generate;

impl Ask for Generate {
    type Request = GenerateRequest;
    type Checked = GenerateQuery;
    type Report = GeneratedBoard;
    const ABOUT: About = About {
        game: "magic-board",
        name: "generate",
        path: "/api/magic-board/generate",
        python: "magic_board_generate",
        summary: "a random legal board from the seed, solvable or not as asked",
        example: r#"{"size": 6, "seed": 3, "solvable": true}"#,
        streams: false,
    };

    fn check(request: GenerateRequest) -> Result<GenerateQuery, Refused> {
        Ok(request.validate()?)
    }

    fn cost(query: &GenerateQuery, _: &Grants) -> Cost {
        Cost::cheap_if(query.size <= CHEAP_GENERATE_SIZE)
    }

    fn answer(query: GenerateQuery, context: &Context<'_>) -> Result<GeneratedBoard, Refused> {
        // The original program's rule refuses larger sizes itself, in its own words.
        if context.grants.shared && query.size > SHARED_MAX_SIZE && query.rule == SizeRule::Any {
            return Err(Plain::over_bound(format!(
                "the server generates boards up to {SHARED_MAX_SIZE}×{SHARED_MAX_SIZE}; asked for {0}×{0}",
                query.size
            ))
            .into());
        }
        Ok(query.answer_until(&context.halt())?)
    }
}

/// How many random legal boards are solvable, per corner and from at least one.
pub struct Statistics;

impl Ask for Statistics {
    type Request = StatsRequest;
    type Checked = StatsQuery;
    type Report = StatsReport;
    const ABOUT: About = About {
        game: "magic-board",
        name: "stats",
        path: "/api/magic-board/stats",
        python: "magic_board_stats",
        summary: "how many random legal boards are solvable, per corner and from some corner",
        example: r#"{"size": 5, "boards": 100, "seed": 1}"#,
        streams: false,
    };

    fn check(request: StatsRequest) -> Result<StatsQuery, Refused> {
        Ok(request.validate()?)
    }

    /// Boards are drawn and searched by the thousand: never cheap.
    fn cost(_: &StatsQuery, _: &Grants) -> Cost {
        Cost::Expensive
    }

    /// Refused up front over the time the context leaves (the draws are not halted once started).
    fn answer(query: StatsQuery, context: &Context<'_>) -> Result<StatsReport, Refused> {
        let limit = WorkLimit::DEFAULT.within(&context.halt());
        Ok(query.answer_within(limit, None)?)
    }
}

/// MagicBoard as the registry lists it.
pub const GAME: Game = Game {
    name: "magic-board",
    title: "MagicBoard",
    source: "MagicBoard Solver",
    pages: &[Page {
        id: "magic-board",
        title: "MagicBoard",
        scripts: &["magic-board.js"],
        entry: "magicGame",
    }],
    questions: &[
        &Door::<Solve>::new(),
        &Door::<Generate>::new(),
        &Door::<Statistics>::new(),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_is_costed_by_its_searches() {
        let grants = Grants::new(MemoryBudget::new(1 << 20));
        let board = |d: usize| MagicBoardRequest {
            board: (0..d)
                .map(|r| {
                    let row: Vec<&str> =
                        (0..d).map(|c| if r + c == 0 { "0" } else { "1" }).collect();
                    row.join(" ") + "\n"
                })
                .collect(),
            ..MagicBoardRequest::default()
        };
        let cost = |d| Solve::cost(&Solve::check(board(d)).ok().unwrap(), &grants);
        assert_eq!(cost(5), Cost::Cheap);
        assert_eq!(cost(20), Cost::Cheap);
        let any = MagicBoardRequest {
            any_size: true,
            ..board(200)
        };
        assert_eq!(
            Solve::cost(&Solve::check(any).ok().unwrap(), &grants),
            Cost::Expensive
        );
    }
}
