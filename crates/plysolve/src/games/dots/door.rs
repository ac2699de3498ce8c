//! Dots (boxes and triangles) through the [door](crate::games::door): a position's report, the
//! same streamed as it is proved, the player's move, a game's review, and where the board is
//! drawn. Every answer runs under the front end's [`Grants`]: its memory and time limit make the
//! [`Policy`], and the books, tables and search memories it keeps ([`Kept`]) answer first; the
//! lanes are this home's cost model ([`lane`]).

use super::answer::{answer, fault, Hooks, SearchStatus};
use super::kept::Kept;
use super::level::Level;
use super::live::LiveStatus;
use super::player::{think_at_level, Choice, PlayerMove};
use super::policy::Policy;
use super::position::Position;
use super::report::DotsReport;
use super::request::{DotsFault, DotsQuery, DotsRequest};
use super::review::{review_promising, Review};
use super::triangle_war::{
    classic_board, judge, parse_games, TriangleWarReport, TriangleWarRequest, WarError,
};
use super::view::{view, BoardView};
use crate::engine::scored::{SolveError, Strategy};
use crate::engine::util::chooser::Chooser;
use crate::games::door::{
    About, Ask, Body, Context, Cost, Door, Game, Grants, LiveReport, Page, Plain, Refusal, Refused,
};
use crate::input::json::JsonFault;
use crate::input::surface::{Surface, Worded};
use serde::Deserialize;
use std::time::Duration;

impl Refusal for DotsFault {
    fn over_budget(&self) -> bool {
        false
    }
}

/// A solve that failed, with the strategy it used (its fault suggests another).
#[derive(Debug)]
pub struct Unsolved {
    /// What failed.
    pub error: SolveError,
    /// The strategy that failed.
    pub strategy: Strategy,
}

impl Worded for Unsolved {
    fn worded(&self, surface: Surface) -> String {
        fault(&self.error, self.strategy, surface)
    }
}

impl Refusal for Unsolved {
    /// Memory refused, or a book the front end reads that cannot answer (damaged, or
    /// contradicting itself or the search): the request is fine, the work cannot be done (422).
    fn over_budget(&self) -> bool {
        matches!(self.error, SolveError::Memory(_) | SolveError::Book(_))
    }
}

/// The policy of a front end's grants: its memory for one answer, its time limit.
fn policy(grants: &Grants) -> Policy {
    Policy::new(grants.memory, grants.limit)
}

/// The policy for an answer that must come within the time `context` leaves.
fn policy_within(context: &Context<'_>, asked: Option<Duration>) -> Policy {
    let base = policy(&context.grants);
    let left = match (context.time_left(), asked) {
        (Some(left), Some(asked)) => left.min(asked),
        (left, asked) => match left.or(asked) {
            Some(left) => left,
            None => return base,
        },
    };
    Policy {
        time: Some(base.time.map_or(left, |t| t.min(left))),
        ..base
    }
}

/// The hooks of an answer under `context`: its cancel flag, give-way and deadline.
fn hooks<'a>(context: &'a Context<'_>) -> Hooks<'a> {
    Hooks {
        cancel: context.cancel.as_ref(),
        give_way: context.give_way.as_ref(),
        until: context.until(),
        ..Hooks::default()
    }
}

/// The failure of a solve under `policy`, naming its strategy.
fn unsolved(error: SolveError, policy: &Policy, query: &DotsQuery, kept: Option<&Kept>) -> Refused {
    let strategy = policy.strategy(query, kept);
    Unsolved { error, strategy }.into()
}

/// Which lane `query` takes under `grants`: cheap when the board's table is at hand (or small),
/// the book answers, or the position is a few edges from its end; expensive otherwise (a search, a
/// player thinking). `report` is the lane of a position's report, else of a player's move or a
/// review.
pub fn lane(query: &DotsQuery, grants: &Grants, report: bool) -> Cost {
    let kept = grants.kept_of::<Kept>();
    let edges = query.built.board.edge_count() as u32;
    let small_board = edges <= 18 || kept.is_some_and(|k| k.has_table(&query.built));
    let free = query.free();
    let cheap = if report {
        match policy(grants).plan(query, kept).strategy {
            Strategy::Table => small_board,
            Strategy::FreeTable => free <= 20,
            Strategy::Search => free <= 14,
            Strategy::Memo | Strategy::Recursion => free <= 10,
            // A plan names the strategy it chose; `Auto` never comes back from one.
            Strategy::Book | Strategy::Auto => true,
        }
    } else {
        small_board || free <= 12 || kept.is_some_and(|k| k.book_answers(query))
    };
    Cost::cheap_if(cheap)
}

/// The report of `query` under `context`, `context.live` told what the search proves as it goes.
fn report(query: DotsQuery, context: &Context<'_>) -> Result<DotsReport, Refused> {
    let policy = policy(&context.grants);
    let kept = context.grants.kept_of::<Kept>();
    let board = &query.built.board;
    // Once the position's moves are counted, the single-state searches that follow (the best
    // line's) would report no moves and no bounds: what the front end shows stays as it was.
    let moves_counted = std::sync::atomic::AtomicBool::new(false);
    let status = context.live.map(|live| {
        let moves_counted = &moves_counted;
        move |s: &SearchStatus| {
            let status = LiveStatus::of(board, s);
            if status.moves > 0 {
                moves_counted.store(true, std::sync::atomic::Ordering::Relaxed);
            } else if moves_counted.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            if let Ok(json) = serde_json::to_string(&status) {
                let news = !status.proved.is_empty();
                live(LiveReport { json, news });
            }
        }
    });
    let hooks = Hooks {
        status: status
            .as_ref()
            .map(|s| s as &(dyn Fn(&SearchStatus) + Sync)),
        ..hooks(context)
    };
    answer(&query, &policy, kept, hooks).map_err(|e| unsolved(e, &policy, &query, kept))
}

/// The value of a position and of its moves, and a best line.
pub struct Report;

impl Ask for Report {
    type Request = DotsRequest;
    type Checked = DotsQuery;
    type Report = DotsReport;
    const ABOUT: About = About {
        game: "dots",
        name: "report",
        path: "/api/dots",
        python: "dots",
        summary: "a position's value, each move's value and a best line (what was proved, in time)",
        example: r#"{"game": "triangles", "size": 2, "moves": "1-2 2-3"}"#,
        streams: false,
    };

    fn check(request: DotsRequest) -> Result<DotsQuery, Refused> {
        Ok(request.validate()?)
    }

    fn cost(query: &DotsQuery, grants: &Grants) -> Cost {
        lane(query, grants, true)
    }

    fn answer(query: DotsQuery, context: &Context<'_>) -> Result<DotsReport, Refused> {
        report(query, context)
    }

    fn keeps(report: &DotsReport) -> bool {
        report.exact
    }
}

/// The report of [`Report`], streamed: the search's bounds and each move proved as they come.
pub struct Analyse;

impl Ask for Analyse {
    type Request = DotsRequest;
    type Checked = DotsQuery;
    type Report = DotsReport;
    const ABOUT: About = About {
        game: "dots",
        name: "analyse",
        path: "/api/dots/analyse",
        python: "dots_analyse",
        summary: "the report, with the search's bounds and moves proved streamed as they come",
        example: r#"{"game": "triangles", "size": 2, "moves": "1-2 2-3"}"#,
        streams: true,
    };

    fn check(request: DotsRequest) -> Result<DotsQuery, Refused> {
        Report::check(request)
    }

    fn cost(query: &DotsQuery, grants: &Grants) -> Cost {
        Report::cost(query, grants)
    }

    fn answer(query: DotsQuery, context: &Context<'_>) -> Result<DotsReport, Refused> {
        report(query, context)
    }

    fn keeps(report: &DotsReport) -> bool {
        report.exact
    }
}

/// `POST /api/play/dots`: a position as for `/api/dots`, the seed that breaks ties between equal
/// moves (default 1), as `ply play … --seed SEED` takes it, and the level (1 to 8, default 8: the
/// perfect player), as `--level`; its `time` is the time to think (default: the front end's).
/// Unknown keys are refused, as for `/api/dots`.
pub struct PlayDotsRequest {
    /// The position.
    pub position: DotsRequest,
    /// The seed of the player's ties.
    pub seed: u64,
    /// The player's level.
    pub level: Level,
}

/// The keys of `/api/play/dots` beside the position's.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Player {
    #[serde(default = "first_seed")]
    seed: u64,
    #[serde(default = "perfect")]
    level: Level,
}

fn first_seed() -> u64 {
    1
}

fn perfect() -> Level {
    Level::PERFECT
}

impl Body for PlayDotsRequest {
    /// The position as for `/api/dots`, and `seed` and `level` beside it.
    fn read(json: &[u8]) -> Result<PlayDotsRequest, JsonFault> {
        let (position, player): (DotsRequest, Player) =
            crate::input::json::read_beside(json, &["seed", "level"])?;
        Ok(PlayDotsRequest {
            position,
            seed: player.seed,
            level: player.level,
        })
    }
}

/// A checked position to play in, with the seed and level.
pub struct PlayQuery {
    query: DotsQuery,
    seed: u64,
    level: Level,
}

/// The player's move.
pub struct Play;

impl Ask for Play {
    type Request = PlayDotsRequest;
    type Checked = PlayQuery;
    type Report = PlayerMove;
    const ABOUT: About = About {
        game: "dots",
        name: "play",
        path: "/api/play/dots",
        python: "play_dots",
        summary: "the player's move at its level, ties broken by the seed",
        example: r#"{"game": "triangles", "size": 2, "moves": "1-2", "seed": 2, "level": 8}"#,
        streams: false,
    };

    fn check(request: PlayDotsRequest) -> Result<PlayQuery, Refused> {
        Ok(PlayQuery {
            query: request.position.validate()?,
            seed: request.seed,
            level: request.level,
        })
    }

    fn cost(play: &PlayQuery, grants: &Grants) -> Cost {
        lane(&play.query, grants, false)
    }

    /// The move `ply play --seed SEED` makes when first to choose in this position; refused when
    /// the game is over.
    fn answer(play: PlayQuery, context: &Context<'_>) -> Result<PlayerMove, Refused> {
        let mut query = play.query;
        let think = query.time.unwrap_or(context.grants.think);
        query.time = Some(context.time_left().map_or(think, |left| think.min(left)));
        let policy = policy_within(context, None);
        let kept = context.grants.kept_of::<Kept>();
        let played = think_at_level(
            &query,
            &policy,
            kept,
            &mut Chooser::new(play.seed),
            play.seed,
            hooks(context),
            play.level,
        )
        .map_err(|e| unsolved(e, &policy, &query, kept))?;
        let (played, _) = played.ok_or_else(|| {
            Plain::bad("the game is over: every edge is drawn, there is no move to make")
        })?;
        Ok(played)
    }

    fn keeps(played: &PlayerMove) -> bool {
        played.choice == Choice::Exact
    }
}

/// Every move of a game graded.
pub struct ReviewOf;

impl Ask for ReviewOf {
    type Request = DotsRequest;
    type Checked = DotsQuery;
    type Report = Review;
    const ABOUT: About = About {
        game: "dots",
        name: "review",
        path: "/api/dots/review",
        python: "dots_review",
        summary: "every move of a game graded, and A's final margin before each",
        example: r#"{"game": "triangles", "size": 2, "moves": "1-2 1-3 2-4"}"#,
        streams: false,
    };

    fn check(request: DotsRequest) -> Result<DotsQuery, Refused> {
        Ok(request.validate()?)
    }

    fn cost(query: &DotsQuery, grants: &Grants) -> Cost {
        lane(query, grants, false)
    }

    /// The time is shared by the positions, the last first, those the limits promise exact (the
    /// front end's `exact_free`) before the others, so that a page's note is true of the review.
    fn answer(query: DotsQuery, context: &Context<'_>) -> Result<Review, Refused> {
        let policy = policy_within(context, query.time);
        let promised = self::policy(&context.grants).exact_free();
        let kept = context.grants.kept_of::<Kept>();
        review_promising(&query, &policy, promised, kept, hooks(context))
            .map_err(|e| unsolved(e, &policy, &query, kept))
    }

    fn keeps(review: &Review) -> bool {
        review.exact
    }
}

/// Where the board's dots, edges and cells are drawn.
pub struct Board;

impl Ask for Board {
    type Request = DotsRequest;
    type Checked = DotsQuery;
    type Report = BoardView;
    const ABOUT: About = About {
        game: "dots",
        name: "board",
        path: "/api/dots/board",
        python: "dots_board",
        summary: "where the board's dots, edges and cells are drawn (the moves are checked only)",
        example: r#"{"game": "boxes", "rows": 2, "cols": 2}"#,
        streams: false,
    };

    fn check(request: DotsRequest) -> Result<DotsQuery, Refused> {
        Ok(request.validate()?)
    }

    fn cost(_: &DotsQuery, _: &Grants) -> Cost {
        Cost::Cheap
    }

    fn answer(query: DotsQuery, _: &Context<'_>) -> Result<BoardView, Refused> {
        Ok(view(&query.built))
    }
}

/// The Triangle War contest (UVa 751): many games on the classic board, each game's winner.
pub struct TriangleWar;

impl Refusal for WarError {
    fn over_budget(&self) -> bool {
        false
    }
}

impl Ask for TriangleWar {
    type Request = TriangleWarRequest;
    type Checked = Vec<Position>;
    type Report = TriangleWarReport;
    const ABOUT: About = About {
        game: "dots",
        name: "triangle-war",
        path: "/api/triangle-war",
        python: "triangle_war",
        summary: "the Triangle War contest format: each game's winner under perfect play",
        example: r#"{"games": "1\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n"}"#,
        streams: false,
    };

    fn check(request: TriangleWarRequest) -> Result<Vec<Position>, Refused> {
        let built = classic_board().map_err(DotsFault::from)?;
        Ok(parse_games(&built.board, &request.games)?)
    }

    /// The classic board's table is small (18 edges): cheap, as a small board's report.
    fn cost(_: &Vec<Position>, _: &Grants) -> Cost {
        Cost::Cheap
    }

    fn answer(games: Vec<Position>, context: &Context<'_>) -> Result<TriangleWarReport, Refused> {
        let built = classic_board().map_err(DotsFault::from)?;
        let kept = context.grants.kept_of::<Kept>();
        judge(&built, &games, kept, context.grants.memory).map_err(|error| {
            Unsolved {
                error,
                strategy: Strategy::Table,
            }
            .into()
        })
    }
}

/// Dots as the registry lists it: boxes and triangles, one home.
pub const GAME: Game = Game {
    name: "dots",
    title: "Dots and Boxes, Dots and Triangles",
    source: "Dots and Triangles",
    pages: &[
        Page {
            id: "triangles",
            title: "Dots and Triangles",
            scripts: DOTS_SCRIPTS,
            entry: "dotsGame",
        },
        Page {
            id: "boxes",
            title: "Dots and Boxes",
            scripts: DOTS_SCRIPTS,
            entry: "dotsGame",
        },
    ],
    questions: &[
        &Door::<Report>::new(),
        &Door::<Analyse>::new(),
        &Door::<Play>::new(),
        &Door::<ReviewOf>::new(),
        &Door::<Board>::new(),
        &Door::<TriangleWar>::new(),
    ],
};

/// The dots page's scripts, in the order they load.
const DOTS_SCRIPTS: &[&str] = &[
    "move-tree.js",
    "dots-draw.js",
    "dots-record.js",
    "dots-layout.js",
    "dots.js",
];
