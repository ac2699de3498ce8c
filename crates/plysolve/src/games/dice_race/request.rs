//! Dice race questions as every front end asks them, one request type per question — `compare`
//! ([`CompareRequest`]), `best` and `equilibrium` ([`PicksRequest`]), `sums` ([`SumsRequest`]),
//! `simulate` ([`SimulateRequest`]) — whose keys are the `ply dice-race` long option names (and
//! `first`, `second`, the lists). `ply dice-race` builds them from its arguments and `POST
//! /api/dice-race/…` reads them from JSON; each is checked once (`validate`) into what the race and
//! the searches take, and its faults name the option that asked, in the caller's terms ([`Worded`]:
//! `--picks must be at least 1`, `"picks" must be at least 1`, `picks must be at least 1`).
//!
//! Every answer is costed before it starts and refused over a [`WorkLimit`] (`*_within`), and obeys
//! a [`Halt`] as it runs; `*_until(halt)` is the front ends' call: the default limit, or less when
//! the halt's deadline leaves less time ([`WorkLimit::within`]).

use super::dice::{Dice, DiceError, SumChance, DICE_RATE, DICE_WHAT};
use super::lists::{multiset_count, ListsError};
use super::race::{
    checked_sums, compare_within, parse_sums, ExactComparison, PickList, Race, RaceError,
    EXACT_RATE,
};
use super::report::{CompareReport, SimulateReport};
use super::search::{best_within, equilibrium_within, BestReport, Equilibrium, SearchError};
use super::simulate::{simulate_within, Run, SimulateError, SimulationProgress};
use crate::engine::util::cost::{OverLimit, WorkLimit};
use crate::engine::util::halt::{Halt, NEVER};
use crate::input::number_list::NumberList;
use crate::input::surface::{Surface, Value, Worded};
use serde::{Deserialize, Serialize};
use std::time::Instant;
use thiserror::Error;

/// Most rolls one request for the page's race plays: the rule of every replayed game.
pub const MAX_ROLLS: u64 = crate::games::door::MAX_REPLAYED_MOVES;

/// Dice rolled when a request names no number (`--dice`).
pub const DEFAULT_DICE: u32 = 2;
/// Sides of each die when a request names none (`--sides`).
pub const DEFAULT_SIDES: u32 = 6;
/// Games a simulation starts with unless asked otherwise (`--games`).
pub const DEFAULT_GAMES: u64 = 10_000;
/// Most games a simulation plays unless asked otherwise (`--max-games`).
pub const DEFAULT_MAX_GAMES: u64 = 10_000_000;
/// The simulation's random seed unless asked otherwise (`--seed`).
pub const DEFAULT_SEED: u64 = 1;

fn default_dice() -> u32 {
    DEFAULT_DICE
}

fn default_sides() -> u32 {
    DEFAULT_SIDES
}

fn default_games() -> u64 {
    DEFAULT_GAMES
}

fn default_max_games() -> u64 {
    DEFAULT_MAX_GAMES
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

/// Two lists raced: `ply dice-race compare FIRST SECOND [--dice N --sides K]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    /// The first list: a JSON list of sums, or one text as the command line writes it (`"5,6,7"`).
    pub first: NumberList,
    /// The second list.
    pub second: NumberList,
    /// Number of dice (default 2).
    #[serde(default = "default_dice")]
    pub dice: u32,
    /// Sides of each die (default 6).
    #[serde(default = "default_sides")]
    pub sides: u32,
}

/// The pick game searched: `ply dice-race best|equilibrium --picks M [--dice N --sides K]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PicksRequest {
    /// Sums each player picks.
    pub picks: u32,
    /// Number of dice (default 2).
    #[serde(default = "default_dice")]
    pub dice: u32,
    /// Sides of each die (default 6).
    #[serde(default = "default_sides")]
    pub sides: u32,
}

/// The distribution of the sum: `ply dice-race sums [--dice N --sides K]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SumsRequest {
    /// Number of dice (default 2).
    #[serde(default = "default_dice")]
    pub dice: u32,
    /// Sides of each die (default 6).
    #[serde(default = "default_sides")]
    pub sides: u32,
}

/// The original program's Monte Carlo run beside the exact answer: `ply dice-race simulate FIRST
/// SECOND [--games G --max-games CAP --seed S --dice N --sides K]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulateRequest {
    /// The first list, as for [`CompareRequest::first`].
    pub first: NumberList,
    /// The second list.
    pub second: NumberList,
    /// Games of the first round (default 10 000), at most `max_games`.
    #[serde(default = "default_games")]
    pub games: u64,
    /// Most games in all (default 10^7).
    #[serde(default = "default_max_games")]
    pub max_games: u64,
    /// Seed of the random generator (default 1).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Number of dice (default 2).
    #[serde(default = "default_dice")]
    pub dice: u32,
    /// Sides of each die (default 6).
    #[serde(default = "default_sides")]
    pub sides: u32,
}

/// Why a request is not answered. Its messages name the request's options as the surface the
/// request came through names them ([`Worded`]); `Display` is the command line's wording.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}", self.worded(Surface::Cli))]
pub enum DiceRaceFault {
    /// Dice that cannot be rolled.
    Dice(#[from] DiceError),
    /// A list that cannot be raced, or a race refused.
    Race(#[from] RaceError),
    /// One of a request's two lists cannot be raced: the fault named with the list
    /// (`the second list: sum 13 cannot be made …`).
    List {
        /// Which list: [`FIRST`] or [`SECOND`], the request's own name for it.
        which: &'static str,
        /// What is wrong with it.
        fault: RaceError,
    },
    /// A search refused or failed.
    Search(#[from] SearchError),
    /// A simulation refused.
    Simulate(#[from] SimulateError),
    /// A simulation of no games.
    NoGames,
    /// A first round of more games than the most a simulation plays.
    GamesOverCap {
        /// Games of the first round asked for.
        games: u64,
        /// The most games in all.
        max_games: u64,
    },
    /// Dice whose sums would take too long to count.
    TooSlow(#[from] OverLimit),
    /// More rolls asked for than one request plays ([`MAX_ROLLS`]).
    TooManyRolls(u64),
}

impl Worded for DiceRaceFault {
    /// A fault worded with the option at fault, where there is one: `--picks must be at least 1`,
    /// `"picks" must be at least 1`, `picks must be at least 1`.
    fn worded(&self, surface: Surface) -> String {
        match self {
            DiceRaceFault::Search(SearchError::Lists(ListsError::NoPicks)) => {
                format!("{} must be at least 1", surface.name("picks"))
            }
            DiceRaceFault::NoGames => format!(
                "{} and {} must be at least 1",
                surface.name("games"),
                surface.name("max_games")
            ),
            DiceRaceFault::GamesOverCap { games, max_games } => format!(
                "{} is more than {}",
                surface.setting("games", Value::Written(&games.to_string())),
                surface.setting("max_games", Value::Written(&max_games.to_string()))
            ),
            DiceRaceFault::TooManyRolls(rolls) => format!(
                "{} must be at most {}, not {rolls}",
                surface.name("rolls"),
                MAX_ROLLS
            ),
            DiceRaceFault::Dice(e) => e.to_string(),
            DiceRaceFault::Race(e) => e.to_string(),
            // A list is a positional argument on the command line (`ply dice-race compare FIRST
            // SECOND`), an option elsewhere.
            DiceRaceFault::List { which, fault } => {
                let list = match surface {
                    Surface::Cli => format!("the {which} list"),
                    Surface::Api | Surface::Python => surface.name(which),
                };
                match fault {
                    RaceError::Empty => format!("{list} needs at least one sum"),
                    RaceError::EmptyItem(item) => format!("{list}: {item}"),
                    _ => format!("{list}: {fault}"),
                }
            }
            DiceRaceFault::Search(e) => e.to_string(),
            DiceRaceFault::Simulate(e) => e.to_string(),
            DiceRaceFault::TooSlow(e) => e.to_string(),
        }
    }
}

impl DiceRaceFault {
    /// Whether this is work refused over its limit or stopped by its halt (a server's 422), rather
    /// than a bad request.
    pub fn is_over_budget(&self) -> bool {
        matches!(
            self,
            DiceRaceFault::TooSlow(_)
                | DiceRaceFault::Race(RaceError::TooBig { .. } | RaceError::TooSlow(_))
                | DiceRaceFault::Race(RaceError::Halted(_))
                | DiceRaceFault::Search(
                    SearchError::Lists(ListsError::TooMany { .. })
                        | SearchError::Race(
                            RaceError::TooBig { .. } | RaceError::TooSlow(_) | RaceError::Halted(_)
                        )
                )
                | DiceRaceFault::Simulate(
                    SimulateError::TooLong(_)
                        | SimulateError::Halted(_)
                        | SimulateError::Race(
                            RaceError::TooBig { .. } | RaceError::TooSlow(_) | RaceError::Halted(_)
                        )
                )
        )
    }
}

/// The first list's name in a request (the JSON key, the Python argument).
pub const FIRST: &str = "first";
/// The second list's name.
pub const SECOND: &str = "second";

/// A list as written (its sums in the order given) and as raced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenList {
    /// The sums in the order written.
    pub written: Vec<u32>,
    /// The same, sorted, for the race.
    pub list: PickList,
}

impl WrittenList {
    /// Reads `list` for `dice` by the one rule for a list's sums: a JSON number is the token it was
    /// written as, read as the same token on a command line would be.
    pub fn read(list: &NumberList, dice: &Dice) -> Result<Self, RaceError> {
        let written = match list {
            NumberList::Text(text) => parse_sums(text, dice)?,
            NumberList::Numbers(numbers) => checked_sums(numbers.iter().map(|n| Ok(n.as_str())), dice)?,
        };
        let list = PickList::new(written.clone(), dice)?;
        Ok(WrittenList { written, list })
    }
}

/// Two checked lists on checked dice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompareQuery {
    /// The dice.
    pub dice: Dice,
    /// The first list.
    pub first: WrittenList,
    /// The second list.
    pub second: WrittenList,
}

impl CompareQuery {
    /// Checks the dice, then each list against them.
    pub fn new(
        (count, sides): (u32, u32),
        first: &NumberList,
        second: &NumberList,
    ) -> Result<Self, DiceRaceFault> {
        let dice = Dice::new(count, sides)?;
        let read = |which, list| {
            WrittenList::read(list, &dice).map_err(|fault| DiceRaceFault::List { which, fault })
        };
        let first = read(FIRST, first)?;
        let second = read(SECOND, second)?;
        Ok(CompareQuery {
            dice,
            first,
            second,
        })
    }

    /// Sums on the longer list.
    pub fn longest(&self) -> usize {
        self.first.written.len().max(self.second.written.len())
    }

    /// The race solved exactly: its report, and the fractions themselves; refused over
    /// [`WorkLimit::DEFAULT`].
    pub fn compare(&self) -> Result<(CompareReport, ExactComparison), RaceError> {
        self.compare_within(WorkLimit::DEFAULT, &NEVER)
    }

    /// [`CompareQuery::compare`], refused first over `limit` ([`Race::exact_work`]), stopped when `halt`
    /// comes.
    pub fn compare_within(
        &self,
        limit: WorkLimit,
        halt: &Halt,
    ) -> Result<(CompareReport, ExactComparison), RaceError> {
        let exact = compare_within(&self.dice, &self.first.list, &self.second.list, limit, halt)?;
        let report = CompareReport::new(
            &self.dice,
            self.first.written.clone(),
            self.second.written.clone(),
            &exact,
        );
        Ok((report, exact))
    }
}

impl CompareRequest {
    /// Checks the dice and both lists.
    pub fn validate(&self) -> Result<CompareQuery, DiceRaceFault> {
        CompareQuery::new((self.dice, self.sides), &self.first, &self.second)
    }

    /// The report: what `ply dice-race compare --json` prints.
    pub fn answer(&self) -> Result<CompareReport, DiceRaceFault> {
        self.answer_until(&NEVER)
    }

    /// [`CompareRequest::answer`] under `halt`: refused over the default limit, or what the halt's
    /// deadline leaves.
    pub fn answer_until(&self, halt: &Halt) -> Result<CompareReport, DiceRaceFault> {
        let limit = WorkLimit::DEFAULT.within(halt);
        Ok(self.validate()?.compare_within(limit, halt)?.0)
    }
}

/// A checked pick game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PicksQuery {
    /// The dice.
    pub dice: Dice,
    /// Sums each player picks (the searches refuse 0: `--picks must be at least 1`).
    pub picks: u32,
}

impl PicksQuery {
    /// Lists of `picks` sums there are to search ([`multiset_count`]).
    pub fn lists(&self) -> u128 {
        multiset_count(self.dice.max_sum() - self.dice.min_sum() + 1, self.picks)
    }

    /// The list no other list beats, by exhaustive search, and the greedy substitution.
    pub fn best(&self) -> Result<BestReport, DiceRaceFault> {
        self.best_until(&NEVER)
    }

    /// [`PicksQuery::best`] under `halt`: refused over the default limit, or what the halt's
    /// deadline leaves ([`super::cost::best_work`]), stopped when it comes.
    pub fn best_until(&self, halt: &Halt) -> Result<BestReport, DiceRaceFault> {
        let limit = WorkLimit::DEFAULT.within(halt);
        Ok(best_within(&self.dice, self.picks, limit, halt)?)
    }

    /// The pick game's optimal strategy.
    pub fn equilibrium(&self) -> Result<Equilibrium, DiceRaceFault> {
        self.equilibrium_until(&NEVER)
    }

    /// [`PicksQuery::equilibrium`] under `halt`, as [`PicksQuery::best_until`].
    pub fn equilibrium_until(&self, halt: &Halt) -> Result<Equilibrium, DiceRaceFault> {
        let limit = WorkLimit::DEFAULT.within(halt);
        Ok(equilibrium_within(&self.dice, self.picks, limit, halt)?)
    }
}

impl PicksRequest {
    /// Checks the dice.
    pub fn validate(&self) -> Result<PicksQuery, DiceRaceFault> {
        Ok(PicksQuery {
            dice: Dice::new(self.dice, self.sides)?,
            picks: self.picks,
        })
    }
}

impl SumsRequest {
    /// Checks the dice.
    pub fn validate(&self) -> Result<Dice, DiceRaceFault> {
        Ok(Dice::new(self.dice, self.sides)?)
    }

    /// Every sum with its chances: what `ply dice-race sums --json` prints.
    pub fn answer(&self) -> Result<Vec<SumChance>, DiceRaceFault> {
        self.answer_until(&NEVER)
    }

    /// [`SumsRequest::answer`], its cost ([`Dice::work`]) checked first against the default limit
    /// or what `halt`'s deadline leaves. (Counting the sums is a fraction of a second at most:
    /// the dice are bounded by their sums and outcomes.)
    pub fn answer_until(&self, halt: &Halt) -> Result<Vec<SumChance>, DiceRaceFault> {
        let limit = WorkLimit::DEFAULT.within(halt);
        limit.check(|| DICE_WHAT, Dice::work(self.dice, self.sides), DICE_RATE)?;
        Ok(self.validate()?.chances())
    }
}

/// A checked simulation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimulateQuery {
    /// The race.
    pub race: CompareQuery,
    /// Games of the first round, at least 1.
    pub games: u64,
    /// Most games in all, at least 1.
    pub max_games: u64,
    /// Seed of the random generator.
    pub seed: u64,
}

impl SimulateQuery {
    /// The exact answer first (a race too slow to solve is refused before any game is played), then
    /// the simulation, telling `progress` the games of each round; each timed. Refused over
    /// [`WorkLimit::DEFAULT`].
    pub fn answer(
        &self,
        progress: Option<SimulationProgress<'_>>,
    ) -> Result<SimulateReport, DiceRaceFault> {
        self.answer_until(progress, &NEVER)
    }

    /// [`SimulateQuery::answer`] under `halt`: the exact race refused over the default limit (or what
    /// the halt's deadline leaves), the simulation's rolls limited to what the limit leaves after the
    /// exact race; stopped when the halt comes.
    pub fn answer_until(
        &self,
        progress: Option<SimulationProgress<'_>>,
        halt: &Halt,
    ) -> Result<SimulateReport, DiceRaceFault> {
        let CompareQuery {
            dice,
            first,
            second,
        } = &self.race;
        let limit = WorkLimit::DEFAULT.within(halt);
        let exact_time =
            EXACT_RATE.seconds(Race::new(dice, &first.list, &second.list)?.exact_work());
        let started = Instant::now();
        let exact = compare_within(dice, &first.list, &second.list, limit, halt)?;
        let exact_seconds = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let exact_time = std::time::Duration::try_from_secs_f64(exact_time).unwrap_or(limit.time());
        let left = limit.time().saturating_sub(exact_time);
        let run = Run {
            start: self.games,
            cap: self.max_games,
            seed: self.seed,
            limit: WorkLimit::of(left),
        };
        let sim = simulate_within(dice, (&first.list, &second.list), run, progress, halt)?;
        let simulated_seconds = started.elapsed().as_secs_f64();
        Ok(SimulateReport::new(
            (first.written.clone(), second.written.clone()),
            self.seed,
            &sim,
            &exact,
            (simulated_seconds, exact_seconds),
        ))
    }
}

impl SimulateRequest {
    /// Checks the numbers of games, the dice and both lists.
    pub fn validate(&self) -> Result<SimulateQuery, DiceRaceFault> {
        if self.games == 0 || self.max_games == 0 {
            return Err(DiceRaceFault::NoGames);
        }
        if self.games > self.max_games {
            return Err(DiceRaceFault::GamesOverCap {
                games: self.games,
                max_games: self.max_games,
            });
        }
        Ok(SimulateQuery {
            race: CompareQuery::new((self.dice, self.sides), &self.first, &self.second)?,
            games: self.games,
            max_games: self.max_games,
            seed: self.seed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare_json(json: &str) -> Result<CompareReport, String> {
        let request: CompareRequest = serde_json::from_str(json).map_err(|e| e.to_string())?;
        request.answer().map_err(|e| e.to_string())
    }

    #[test]
    fn json_lists_and_text_lists_are_one_list() {
        let numbers = compare_json(r#"{"first":[5,6,7,8,9],"second":[5,6,7,8,7]}"#).unwrap();
        let text = compare_json(r#"{"first":"5,6,7,8,9","second":"5 6 7 8 7"}"#).unwrap();
        assert_eq!(numbers, text);
        assert_eq!(numbers.second, vec![5, 6, 7, 8, 7]);
        assert_eq!((numbers.dice, numbers.sides), (2, 6));
        assert_eq!(numbers.exact.p_first, "1138029621/3424590400");
    }

    #[test]
    fn faults_are_the_lists_and_the_options() {
        for (json, text) in [
            (
                r#"{"first":[5,13],"second":"7"}"#,
                "the first list: sum 13 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)",
            ),
            (
                r#"{"first":[5,-6],"second":"7"}"#,
                "the first list: `-6` is not a whole number",
            ),
            (
                r#"{"first":[5,6.5],"second":"7"}"#,
                "the first list: `6.5` is not a whole number",
            ),
            (
                r#"{"first":"7","second":"5,x"}"#,
                "the second list: `x` is not a whole number",
            ),
            (
                r#"{"first":[],"second":"7"}"#,
                "the first list needs at least one sum",
            ),
            (
                r#"{"first":[7],"second":[7],"dice":0}"#,
                "the number of dice must be at least 1",
            ),
        ] {
            assert_eq!(compare_json(json).unwrap_err(), text, "{json}");
        }
        let picks: PicksRequest = serde_json::from_str(r#"{"picks":0}"#).unwrap();
        let query = picks.validate().unwrap();
        assert_eq!(query.lists(), 1);
        assert_eq!(
            query.best().unwrap_err().to_string(),
            "--picks must be at least 1"
        );
        let five: PicksRequest = serde_json::from_str(r#"{"picks":5}"#).unwrap();
        assert_eq!(five.validate().unwrap().lists(), 3003);
        let e = serde_json::from_str::<SumsRequest>(r#"{"dice":2,"faces":6}"#).unwrap_err();
        assert!(e.to_string().starts_with("unknown field `faces`"), "{e}");
        let none: SimulateRequest =
            serde_json::from_str(r#"{"first":"7","second":"7","games":0}"#).unwrap();
        assert_eq!(
            none.validate().unwrap_err().to_string(),
            "--games and --max-games must be at least 1"
        );
    }

    #[test]
    fn a_simulation_beside_the_exact_answer() {
        let request: SimulateRequest = serde_json::from_str(
            r#"{"first":[7],"second":[6],"games":100,"max_games":100,"seed":3}"#,
        )
        .unwrap();
        let report = request.validate().unwrap().answer(None).unwrap();
        assert_eq!((report.games, report.seed), (100, 3));
        assert_eq!(report.first_wins + report.second_wins + report.ties, 100);
        assert_eq!(report.p_first.exact, "6/11");
    }

    #[test]
    fn faults_name_options_in_the_callers_terms() {
        let picks: PicksRequest = serde_json::from_str(r#"{"picks":0}"#).unwrap();
        let e = picks.validate().unwrap().best().unwrap_err();
        assert_eq!(
            [Surface::Cli, Surface::Api, Surface::Python].map(|s| e.worded(s)),
            [
                "--picks must be at least 1",
                "\"picks\" must be at least 1",
                "picks must be at least 1"
            ]
        );
        // A number too large for any die is a sum no die makes, as written (not a float).
        let huge: CompareRequest =
            crate::input::json::read(br#"{"first":[18446744073709551616],"second":[7]}"#).unwrap();
        assert_eq!(
            huge.answer().unwrap_err().to_string(),
            "the first list: sum 18446744073709551616 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)"
        );
    }
}
