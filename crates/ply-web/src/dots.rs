//! The dots endpoints: JSON → the dots home's [`DotsRequest`] → the same report, reply and board
//! view as `ply dots --json` and `ply play` give, and the same game review; nothing is re-derived
//! here. The server's policy is its
//! memory and time limit; the tables of small boards and the search memories of larger ones are
//! kept between requests ([`Kept`]), so later questions start from what earlier ones proved.

use crate::error::ApiError;
use crate::gate::{Control, Cost};
use plysolve::engine::scored::SolveError;
use plysolve::engine::scored::Strategy;
use plysolve::engine::util::chooser::Chooser;
use plysolve::games::dots::answer::{answer, fault, Hooks, SearchStatus};
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::level::Level;
use plysolve::games::dots::live::LiveStatus;
use plysolve::games::dots::player::think_at_level;
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::request::{DotsRequest, Query, RequestError};
use plysolve::games::dots::review::review_promising;
use plysolve::games::dots::view::view;
use plysolve::input::json::JsonFault;
use plysolve::input::surface::Surface;
use serde::Deserialize;
use std::time::{Duration, Instant};

/// `POST /api/play/dots`: a position as for `/api/dots`, the seed that breaks ties between equal
/// moves (default 1), as `ply play … --seed SEED` takes it, and the level (1 to 8, default 8: the
/// perfect player), as `--level`; its `time` is the time to think (default: the server's). Unknown
/// keys are refused, as for `/api/dots`.
pub struct PlayDotsRequest {
    position: DotsRequest,
    seed: u64,
    level: Level,
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

impl crate::Body for PlayDotsRequest {
    /// The position as for `/api/dots`, and `seed` and `level` beside it.
    fn read(json: &[u8]) -> Result<Self, JsonFault> {
        let (position, player): (DotsRequest, Player) =
            plysolve::input::json::read_beside(json, &["seed", "level"])?;
        Ok(PlayDotsRequest {
            position,
            seed: player.seed,
            level: player.level,
        })
    }
}

/// A body that states a dots position: what its cost is estimated from.
pub trait DotsBody {
    /// The position's request.
    fn dots(&self) -> &DotsRequest;
}

impl DotsBody for DotsRequest {
    fn dots(&self) -> &DotsRequest {
        self
    }
}

impl DotsBody for PlayDotsRequest {
    fn dots(&self) -> &DotsRequest {
        &self.position
    }
}

/// An answer as served: its JSON, and whether it may be kept for an identical request (an answer cut
/// short by the time limit is not: asked again, the server may prove more).
pub struct Served {
    /// The JSON text.
    pub text: String,
    /// Whether to keep it.
    pub keep: bool,
}

/// The server's dots: its policy, its time to think per move, and what it keeps.
pub struct DotsService {
    policy: Policy,
    think: Duration,
    kept: Kept,
}

/// The dots home's hooks under a request's control: its cancel flag, the gate's give-way and the
/// request's deadline (the time left from now).
fn hooks(control: &Control) -> Hooks<'_> {
    Hooks {
        cancel: Some(&control.cancel),
        give_way: control.give_way.as_ref(),
        until: Some(Instant::now() + control.left),
        ..Hooks::default()
    }
}

fn bad_request(e: RequestError) -> ApiError {
    ApiError::worded(&e, false)
}

fn solve_error(e: SolveError, strategy: Strategy) -> ApiError {
    let over_budget = matches!(e, SolveError::Memory(_));
    ApiError::refused(fault(&e, strategy, Surface::Api), over_budget)
}

impl DotsService {
    /// Answers under `policy` (the server's memory per answer and time limit), players thinking
    /// `think` per move unless a request says less, keeping `kept`.
    pub fn new(policy: Policy, think: Duration, kept: Kept) -> Self {
        DotsService {
            policy,
            think,
            kept,
        }
    }

    /// Which lane of the gate `request` to the endpoint `method` (`answer`, `reply`, `review`)
    /// takes: cheap when the board's table is at hand (or small) or the position is a few edges
    /// from its end; expensive otherwise (a search, a player thinking). A request that does not
    /// validate is cheap: it is refused at once.
    pub fn cost(&self, method: &str, request: &DotsRequest) -> Cost {
        let Ok(query) = request.validate() else {
            return Cost::Cheap;
        };
        let edges = query.built.board.edge_count() as u32;
        let small_board = edges <= 18 || self.kept.has_table(&query.built);
        let cheap = match method {
            "answer" => match self.policy.plan(&query, Some(&self.kept)).strategy {
                Strategy::Table => small_board,
                Strategy::FreeTable => query.free() <= 20,
                Strategy::Search => query.free() <= 14,
                Strategy::Memo | Strategy::Recursion => query.free() <= 10,
                Strategy::Book | Strategy::Auto => true,
            },
            // A reply the book gives: every move of the position is in it.
            _ => small_board || query.free() <= 12 || self.kept.book_answers(&query),
        };
        if cheap {
            Cost::Cheap
        } else {
            Cost::Expensive
        }
    }

    /// The policy for an answer that must come within `left`.
    fn policy_within(&self, left: Duration) -> Policy {
        Policy {
            time: Some(self.policy.time.map_or(left, |t| t.min(left))),
            ..self.policy
        }
    }

    /// `POST /api/dots`: the report of the request's position, exact within the time left or what
    /// was proved by then.
    pub fn answer(&self, request: &DotsRequest, control: &Control) -> Result<Served, ApiError> {
        self.answer_telling(request, control, None)
    }

    /// `POST /api/dots/analyse`: the answer of [`answer`](Self::answer), `live` told what the
    /// search has proved as it goes (the bounds, each move's value as it is proved).
    pub fn analyse(
        &self,
        request: &DotsRequest,
        control: &Control,
        live: &(dyn Fn(LiveStatus) + Sync),
    ) -> Result<Served, ApiError> {
        self.answer_telling(request, control, Some(live))
    }

    fn answer_telling(
        &self,
        request: &DotsRequest,
        control: &Control,
        live: Option<&(dyn Fn(LiveStatus) + Sync)>,
    ) -> Result<Served, ApiError> {
        let query = request.validate().map_err(bad_request)?;
        // The server's limit, named if it is reached; the request's deadline is in the hooks.
        let policy = self.policy;
        let board = &query.built.board;
        let status = live.map(|live| move |s: &SearchStatus| live(LiveStatus::of(board, s)));
        let hooks = Hooks {
            status: status
                .as_ref()
                .map(|s| s as &(dyn Fn(&SearchStatus) + Sync)),
            ..hooks(control)
        };
        let report = answer(&query, &policy, Some(&self.kept), hooks)
            .map_err(|e| solve_error(e, policy.strategy(&query, Some(&self.kept))))?;
        Ok(Served {
            text: crate::api::json(&report)?,
            keep: report.exact,
        })
    }

    /// `POST /api/play/dots`: the player's move, as `ply play --seed SEED` makes it when first to
    /// choose in this position; 400 when the game is over.
    pub fn reply(&self, request: &PlayDotsRequest, control: &Control) -> Result<Served, ApiError> {
        let mut query: Query = request.position.validate().map_err(bad_request)?;
        query.time = Some(query.time.unwrap_or(self.think).min(control.left));
        let policy = self.policy_within(control.left);
        let seed = request.seed;
        let played = think_at_level(
            &query,
            &policy,
            Some(&self.kept),
            &mut Chooser::new(seed),
            seed,
            hooks(control),
            request.level,
        )
        .map_err(|e| solve_error(e, policy.strategy(&query, Some(&self.kept))))?;
        let (played, _) = played.ok_or_else(|| {
            ApiError::bad("the game is over: every edge is drawn, there is no move to make")
        })?;
        let exact = played.choice == plysolve::games::dots::player::Choice::Exact;
        Ok(Served {
            text: crate::api::json(&played)?,
            keep: exact,
        })
    }

    /// `POST /api/dots/review`: every move of the request's game graded, and A's final margin
    /// before each (the value chart); the time limit is shared by the positions, the last first,
    /// those the limits promise exact before the others.
    pub fn review(&self, request: &DotsRequest, control: &Control) -> Result<Served, ApiError> {
        let query = request.validate().map_err(bad_request)?;
        let left = control.left;
        let policy = self.policy_within(left.min(query.time.unwrap_or(left)));
        // The positions the limits promise exact (`dots_exact_free`, from the server's policy)
        // get the review's time first, so that the page's note is true of the review.
        let promised = self.policy.exact_free();
        let reviewed =
            review_promising(&query, &policy, promised, Some(&self.kept), hooks(control))
                .map_err(|e| solve_error(e, policy.strategy(&query, Some(&self.kept))))?;
        Ok(Served {
            text: crate::api::json(&reviewed)?,
            keep: reviewed.exact,
        })
    }

    /// `POST /api/dots/board`: where the board's dots, edges and cells are drawn (the request's
    /// moves are checked but play no part).
    pub fn board(&self, request: &DotsRequest) -> Result<Served, ApiError> {
        let query = request.validate().map_err(bad_request)?;
        Ok(Served {
            text: crate::api::json(&view(&query.built))?,
            keep: true,
        })
    }
}
