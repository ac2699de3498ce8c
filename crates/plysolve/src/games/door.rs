//! The door through which a game's home states what it offers, so that every front end can be
//! generic over the games ([`super::registry`] lists them).
//!
//! A home answers questions. Each question is a type implementing [`Ask`]: its request (read from
//! JSON, the keys being the `ply` command's long option names), checked once into its checked form
//! ([`Ask::check`]), costed by the home's own model before any work ([`Ask::cost`]: the lane a
//! server gates it in) and answered under what the front end grants ([`Ask::answer`]: its memory,
//! its time limit, its cancel flag, and for dots the tables it keeps). [`Door`] erases the types: a
//! [`Question`] reads a JSON body, checks it and hands back a [`Checked`] whose cost and answer
//! are JSON-level, faults worded for the surface the request came through ([`Surface`]). A
//! [`Game`] is a home's name, title, pages and questions.
//!
//! The door knows no game and names no home: what a front end keeps for one game (the dots tables
//! kept between answers) travels in the grants by type ([`Grants::kept_of`]).

use crate::engine::util::cost::Rate;
use crate::engine::util::halt::{GiveWay, Halt};
use crate::engine::util::memory::MemoryBudget;
use crate::input::json::JsonFault;
use crate::input::surface::{Surface, Worded};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::any::Any;
use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a question is expected to cost, estimated from its checked form before it runs: the lane
/// a server answers it in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Cost {
    /// Well under a few milliseconds: answered at once where it arrives.
    Cheap,
    /// Anything more: a solver's turn, in the solvers' pool.
    Expensive,
}

/// Most moves (a race's rolls, a game's takes) one request replays of a game the page plays: each
/// adds a position to the answer, so more would let a small request ask for a large answer.
pub const MAX_REPLAYED_MOVES: u64 = 10_000;

/// Estimated work under this many seconds is cheap.
pub const CHEAP_SECONDS: f64 = 0.002;

impl Cost {
    /// Cheap when `sure` holds, else expensive (erring towards expensive only costs a request a
    /// place in the shorter queue).
    pub fn cheap_if(sure: bool) -> Cost {
        if sure {
            Cost::Cheap
        } else {
            Cost::Expensive
        }
    }

    /// The lane of `work` units of a model doing `rate`: cheap under [`CHEAP_SECONDS`].
    pub fn of_work(work: u128, rate: Rate) -> Cost {
        Cost::cheap_if(Self::is_cheap(work, rate))
    }

    /// Whether `work` units at `rate` take under [`CHEAP_SECONDS`].
    pub fn is_cheap(work: u128, rate: Rate) -> bool {
        rate.seconds(work) < CHEAP_SECONDS
    }
}

/// What a front end grants every answer, fixed for its life: memory, a time limit, a player's time
/// to think, the dots tables and search memories it keeps, and whether it answers for others on a
/// shared machine (a server), where each home's bounds for shared machines apply.
#[derive(Clone)]
pub struct Grants {
    /// Memory the tables of one answer may take.
    pub memory: MemoryBudget,
    /// The longest one answer may take, as the user knows it (named when it comes); `None`: none.
    pub limit: Option<Duration>,
    /// Time a player thinks per move unless a request asks less.
    pub think: Duration,
    /// What the front end keeps between answers (for dots its books, tables and search memories,
    /// `games::dots::kept::Kept`; read with [`Grants::kept_of`]); `None`: nothing kept.
    pub kept: Option<Arc<dyn Any + Send + Sync>>,
    /// Whether the answers are for others on a shared machine (`ply serve`): then each home also
    /// applies its bounds for shared machines (the longest dice-race list, the largest MagicBoard).
    pub shared: bool,
}

/// Time a player thinks per move unless a front end or a request says otherwise.
pub const THINK: Duration = Duration::from_secs(3);

impl Grants {
    /// What the front end keeps for answers of the home whose keeping is a `T` (for dots,
    /// `games::dots::kept::Kept`): held by type, so that the door names no home.
    pub fn kept_of<T: Any>(&self) -> Option<&T> {
        self.kept.as_deref()?.downcast_ref()
    }

    /// `memory` for each answer, no time limit, [`THINK`] a move, nothing kept, not shared: a
    /// front end answering its own user's one question.
    pub fn new(memory: MemoryBudget) -> Self {
        Grants {
            memory,
            limit: None,
            think: THINK,
            kept: None,
            shared: false,
        }
    }
}

/// A live report of an answer under way, for the questions that stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveReport {
    /// The report, one line of JSON.
    pub json: String,
    /// Whether it must be told (it names something just proved); others may be dropped when they
    /// come thick and fast.
    pub news: bool,
}

/// Where an answer under way tells its live reports.
pub type Live<'a> = &'a (dyn Fn(LiveReport) + Sync);

/// What one answer runs under: the front end's [`Grants`], when it started and the time it has
/// left, the flag raised when nobody waits for it any more, when to give way to the front end's
/// other work, and where to tell its live reports.
#[derive(Clone)]
pub struct Context<'a> {
    /// The front end's grants.
    pub grants: Grants,
    /// The moment the answer started.
    pub started: Instant,
    /// Time left from `started` (a server's request may have waited for a solver); `None`: the
    /// grants' limit, or none.
    pub left: Option<Duration>,
    /// Raised to stop at once (a client that left).
    pub cancel: Option<Arc<AtomicBool>>,
    /// When to pause for the front end's other work (a server's cheap requests).
    pub give_way: Option<GiveWay>,
    /// Told the answer's live reports, for a question that streams them.
    pub live: Option<Live<'a>>,
}

impl<'a> Context<'a> {
    /// An answer under `grants` starting now, with the time left `left` (`None`: the grants' limit).
    pub fn new(grants: Grants, left: Option<Duration>) -> Self {
        Context {
            grants,
            started: Instant::now(),
            left,
            cancel: None,
            give_way: None,
            live: None,
        }
    }

    /// The time this answer has left from its start: its own, else the grants' limit.
    pub fn time_left(&self) -> Option<Duration> {
        self.left.or(self.grants.limit)
    }

    /// The moment the answer must end by, if any.
    pub fn until(&self) -> Option<Instant> {
        let left = self.time_left()?;
        Some(self.started + left)
    }

    /// The halt of this answer: its time left (named, when it comes, as the grants' limit, the
    /// one the user knows), its cancel flag and its give-way.
    pub fn halt(&self) -> Halt {
        let mut halt = match (self.until(), self.grants.limit) {
            (Some(until), whole) => {
                let left = until.saturating_duration_since(Instant::now());
                Halt::after_part(left, whole.unwrap_or(left))
            }
            (None, _) => Halt::never(),
        };
        if let Some(cancel) = &self.cancel {
            halt = halt.with_flag(cancel.clone());
        }
        if let Some(give_way) = &self.give_way {
            halt = halt.with_give_way(give_way.clone());
        }
        halt
    }
}

/// A home's fault, worded for the surface the request came through, and whether it refuses work
/// over a limit or stopped (a server's 422) rather than a bad request (400).
pub trait Refusal: Worded {
    /// Whether the request was refused for the work or time it would take, was halted, or could
    /// not be answered from what the front end holds (a damaged book): 422, not a bad request.
    fn over_budget(&self) -> bool;
}

/// Any home's refusal, as [`Ask`]'s methods return it (`?` turns a home's fault into one).
pub type Refused = Box<dyn Refusal + Send + Sync>;

impl<E: Refusal + Send + Sync + 'static> From<E> for Refused {
    fn from(e: E) -> Self {
        Box::new(e)
    }
}

/// A refusal that reads the same on every surface: `over_budget` when it is a shared machine's
/// bound or a limit of work, else a bad request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plain {
    /// The one line.
    pub message: String,
    /// Whether it refuses work (a server's 422).
    pub over_budget: bool,
}

impl Plain {
    /// A bad request, `message` saying why.
    pub fn bad(message: impl Into<String>) -> Self {
        Plain {
            message: message.into(),
            over_budget: false,
        }
    }

    /// Work over a bound, `message` saying which.
    pub fn over_bound(message: impl Into<String>) -> Self {
        Plain {
            message: message.into(),
            over_budget: true,
        }
    }
}

impl Worded for Plain {
    fn worded(&self, _: Surface) -> String {
        self.message.clone()
    }
}

impl Refusal for Plain {
    fn over_budget(&self) -> bool {
        self.over_budget
    }
}

/// What a question is, as every front end lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct About {
    /// The game's name (its CLI subcommand): `dice-race`.
    pub game: &'static str,
    /// The question's name within its game: `best`.
    pub name: &'static str,
    /// The server's path: `POST /api/dice-race/best`.
    pub path: &'static str,
    /// The Python function: `dice_race_best`.
    pub python: &'static str,
    /// What it answers, in one line.
    pub summary: &'static str,
    /// A valid request body, which also documents the keys.
    pub example: &'static str,
    /// Whether the server streams its live reports as server-sent events, the answer last.
    pub streams: bool,
}

/// A request as a JSON body states it: by the library's JSON reader ([`crate::input::json::read`])
/// for every request that deserializes, by its own reading for one whose body holds more than
/// its request (the dots player's `seed` and `level` beside the position).
pub trait Body: Sized {
    /// The request `json` states.
    fn read(json: &[u8]) -> Result<Self, JsonFault>;
}

impl<T: DeserializeOwned> Body for T {
    fn read(json: &[u8]) -> Result<Self, JsonFault> {
        crate::input::json::read(json)
    }
}

/// One question a home answers, typed: its request, checked once, costed by the home's model and
/// answered under a front end's [`Context`].
pub trait Ask: 'static {
    /// The request as a front end states it (the keys: the command's long option names).
    type Request: Body;
    /// The request checked: what the answer can trust.
    type Checked: Send + 'static;
    /// The answer, as `ply … --json` prints it.
    type Report: Serialize;
    /// What the question is.
    const ABOUT: About;

    /// Checks the request once.
    fn check(request: Self::Request) -> Result<Self::Checked, Refused>;

    /// The lane of the checked request under `grants`, by the home's cost model.
    fn cost(checked: &Self::Checked, grants: &Grants) -> Cost;

    /// The answer under `context`.
    fn answer(checked: Self::Checked, context: &Context<'_>) -> Result<Self::Report, Refused>;

    /// Whether the answer may be kept for an identical request (one cut short by the time limit
    /// is not: asked again, the front end may prove more).
    fn keeps(_report: &Self::Report) -> bool {
        true
    }
}

/// What went wrong with a question, worded for its surface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// The one line, options named as the surface names them.
    pub message: String,
    /// Whose fault it is.
    pub kind: FaultKind,
}

/// Whose fault a [`Fault`] is: what a server's status says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultKind {
    /// The request is not what the question reads (not JSON, a key unknown, a value of the wrong
    /// kind): 400.
    Unreadable,
    /// The request is read but refused for what it asks: 400.
    Bad,
    /// Work over a limit, or halted: 422.
    OverBudget,
    /// The answer could not be written: 500.
    Internal,
}

impl Fault {
    /// `refused` as `surface` words it.
    fn refused(refused: &Refused, surface: Surface) -> Self {
        Fault {
            message: refused.worded(surface).replace('\n', " "),
            kind: if refused.over_budget() {
                FaultKind::OverBudget
            } else {
                FaultKind::Bad
            },
        }
    }
}

/// An answer as a front end hands it on: the `--json` line (with its newline), and whether it may
/// be kept for an identical request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// One line of JSON and a newline.
    pub text: String,
    /// Whether it may be kept.
    pub keep: bool,
}

/// A question, erased: what every front end is generic over.
pub trait Question: Send + Sync {
    /// What it is: its game, name, path, Python name, an example.
    fn about(&self) -> &About;

    /// Reads and checks `body`, faults worded for `surface`.
    fn check_json(&self, body: &[u8], surface: Surface) -> Result<Box<dyn Checked>, Fault>;
}

/// A checked question, erased: its cost, then its answer.
pub trait Checked: Send {
    /// The lane it takes under `grants`.
    fn cost(&self, grants: &Grants) -> Cost;

    /// The answer's JSON under `context`.
    fn answer(self: Box<Self>, context: &Context<'_>) -> Result<Answer, Fault>;
}

/// The erased [`Question`] of an [`Ask`].
pub struct Door<A>(PhantomData<fn() -> A>);

impl<A> Door<A> {
    /// The door of `A` (a `const fn`, so that a game's questions are a constant).
    pub const fn new() -> Self {
        Door(PhantomData)
    }
}

impl<A> Default for Door<A> {
    fn default() -> Self {
        Door::new()
    }
}

/// A checked request of `A`, with the surface its faults are worded for.
struct CheckedOf<A: Ask> {
    checked: A::Checked,
    surface: Surface,
}

impl<A: Ask> Question for Door<A> {
    fn about(&self) -> &About {
        &A::ABOUT
    }

    fn check_json(&self, body: &[u8], surface: Surface) -> Result<Box<dyn Checked>, Fault> {
        let request = A::Request::read(body).map_err(|e| Fault {
            message: e.worded(surface),
            kind: FaultKind::Unreadable,
        })?;
        let checked = A::check(request).map_err(|e| Fault::refused(&e, surface))?;
        Ok(Box::new(CheckedOf::<A> { checked, surface }))
    }
}

impl<A: Ask> Checked for CheckedOf<A> {
    fn cost(&self, grants: &Grants) -> Cost {
        A::cost(&self.checked, grants)
    }

    fn answer(self: Box<Self>, context: &Context<'_>) -> Result<Answer, Fault> {
        let surface = self.surface;
        let report = A::answer(self.checked, context).map_err(|e| Fault::refused(&e, surface))?;
        let text = serde_json::to_string(&report).map_err(|e| Fault {
            message: format!("cannot write JSON: {e}"),
            kind: FaultKind::Internal,
        })?;
        Ok(Answer {
            text: text + "\n",
            keep: A::keeps(&report),
        })
    }
}

/// A page of the web page's game menu: its id (the address's `game=`), its title, and the scripts
/// that draw it, in order, the last defining its entry function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Page {
    /// The id: `triangles`.
    pub id: &'static str,
    /// The menu's title: `Dots and Triangles`.
    pub title: &'static str,
    /// The page's scripts (paths under `/`), in the order they load.
    pub scripts: &'static [&'static str],
    /// The function the page opens it with, given the address's parameters.
    pub entry: &'static str,
}

/// A game as the registry lists it: its home's name, title, source, pages and questions.
pub struct Game {
    /// Its name: the CLI's subcommand, the questions' `game`.
    pub name: &'static str,
    /// Its title.
    pub title: &'static str,
    /// The original statement its rules come from (the seed document's heading).
    pub source: &'static str,
    /// Its pages in the web page's menu.
    pub pages: &'static [Page],
    /// The questions its home answers.
    pub questions: &'static [&'static dyn Question],
}

/// A game as `GET /api/games` lists it.
#[derive(Serialize)]
pub struct GameListing {
    /// [`Game::name`].
    pub name: &'static str,
    /// [`Game::title`].
    pub title: &'static str,
    /// [`Game::source`].
    pub source: &'static str,
    /// [`Game::pages`].
    pub pages: &'static [Page],
    /// What each question is.
    pub questions: Vec<About>,
}

impl Game {
    /// The game as it is listed.
    pub fn listing(&self) -> GameListing {
        GameListing {
            name: self.name,
            title: self.title,
            source: self.source,
            pages: self.pages,
            questions: self.questions.iter().map(|q| *q.about()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_context_halts_at_its_time_left_naming_the_limit() {
        let grants = Grants {
            limit: Some(Duration::from_secs(10)),
            ..Grants::new(MemoryBudget::new(1 << 20))
        };
        let context = Context::new(grants.clone(), Some(Duration::ZERO));
        assert_eq!(
            context.halt().check().map(|h| h.to_string()),
            Some(crate::engine::util::halt::Halted::TimeLimit { millis: 10_000 }.to_string())
        );
        let unlimited = Grants::new(MemoryBudget::new(1 << 20));
        assert!(!Context::new(unlimited, None).halt().can_halt());
        assert_eq!(
            Context::new(grants, None).time_left(),
            Some(Duration::from_secs(10))
        );
    }

    #[test]
    fn work_is_cheap_under_two_milliseconds() {
        let rate = Rate::per_second(1_000_000);
        assert_eq!(Cost::of_work(1_999, rate), Cost::Cheap);
        assert_eq!(Cost::of_work(2_000, rate), Cost::Expensive);
    }
}
