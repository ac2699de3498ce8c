//! The dice race through the [door](crate::games::door): two lists raced (`compare`), the pick
//! game's best list and optimal mix (`best`, `equilibrium`), the dice's sums, and the original
//! program's simulation beside the exact answer; each costed by the home's models ([`Dice::work`],
//! [`Race::exact_work`], [`best_work`], [`equilibrium_work`]) and refused over them.

use super::cost::{best_work, equilibrium_work, SEARCH_RATE};
use super::dice::{Dice, SumChance, DICE_RATE};
use super::lists::all_lists;
use super::play::{RaceGameQuery, RaceGameReport, RaceGameRequest};
use super::race::{Race, EXACT_RATE};
use super::report::{CompareReport, SimulateReport};
use super::request::{
    CompareQuery, CompareRequest, DiceRaceFault, PicksQuery, PicksRequest, SimulateQuery,
    SimulateRequest, SumsRequest,
};
use super::search::{BestReport, Equilibrium};
use crate::engine::util::cost::WorkLimit;
use crate::games::door::{
    About, Ask, Context, Cost, Door, Game, Grants, Page, Plain, Refusal, Refused,
};

impl Refusal for DiceRaceFault {
    fn over_budget(&self) -> bool {
        self.is_over_budget()
    }
}

/// Most sums in one list a shared machine races ([`Grants::shared`]).
pub const SHARED_MAX_PICKS: usize = 40;

/// Most lists a `best` or `equilibrium` search on a shared machine goes through.
pub const SHARED_MAX_LISTS: u128 = 5_000;

/// Races of more states than this, or searches of more lists, are not costed: their model's own
/// pass would not be cheap (and their work is not).
const COSTED_UP_TO: u128 = 10_000;

/// Whether counting the sums of `count` dice of `sides` sides is cheap.
fn cheap_dice(count: u32, sides: u32) -> bool {
    Cost::is_cheap(Dice::work(count, sides), DICE_RATE)
}

/// The race of `query`, refused on a shared machine when a list is over [`SHARED_MAX_PICKS`].
fn shared_race(query: &CompareQuery, grants: &Grants) -> Result<(), Refused> {
    if grants.shared && query.longest() > SHARED_MAX_PICKS {
        return Err(Plain::over_bound(format!(
            "the server races lists of up to {SHARED_MAX_PICKS} sums; one has {}",
            query.longest()
        ))
        .into());
    }
    Ok(())
}

/// A race's lane: cheap when solving it exactly is, by its model.
fn race_cost(query: &CompareQuery) -> Cost {
    match Race::new(&query.dice, &query.first.list, &query.second.list) {
        Ok(race) => Cost::cheap_if(
            race.states() as u128 <= COSTED_UP_TO && Cost::is_cheap(race.exact_work(), EXACT_RATE),
        ),
        // Refused at once.
        Err(_) => Cost::Cheap,
    }
}

/// Two lists raced exactly.
pub struct Compare;

impl Ask for Compare {
    type Request = CompareRequest;
    type Checked = CompareQuery;
    type Report = CompareReport;
    const ABOUT: About = About {
        game: "dice-race",
        name: "compare",
        path: "/api/dice-race/compare",
        python: "dice_race_compare",
        summary: "two lists raced: each side's exact chance to win, and of a tie",
        example: r#"{"first": [5, 6, 7, 8, 9], "second": [5, 6, 7, 8, 7], "dice": 2, "sides": 6}"#,
        streams: false,
    };

    /// The dice (their sums counted: a fraction of a second at most, by [`Dice::new`]'s bounds)
    /// and both lists.
    fn check(request: CompareRequest) -> Result<CompareQuery, Refused> {
        Ok(request.validate()?)
    }

    fn cost(query: &CompareQuery, _: &Grants) -> Cost {
        race_cost(query)
    }

    fn answer(query: CompareQuery, context: &Context<'_>) -> Result<CompareReport, Refused> {
        shared_race(&query, &context.grants)?;
        let halt = context.halt();
        let (report, _) = query
            .compare_within(WorkLimit::DEFAULT.within(&halt), &halt)
            .map_err(DiceRaceFault::from)?;
        Ok(report)
    }
}

/// A pick game checked: its dice and picks.
fn check_picks(request: &PicksRequest) -> Result<PicksQuery, Refused> {
    Ok(request.validate()?)
}

/// A pick game's lane by `model` over its lists, when they are few enough to cost.
fn picks_cost(query: &PicksQuery, model: impl Fn(&[super::race::PickList]) -> Cost) -> Cost {
    if query.lists() > COSTED_UP_TO {
        return Cost::Expensive;
    }
    match all_lists(&query.dice, query.picks) {
        Ok(lists) => model(&lists),
        Err(_) => Cost::Cheap,
    }
}

/// A pick game refused on a shared machine when it has more than [`SHARED_MAX_LISTS`] lists.
fn shared_picks(query: &PicksQuery, grants: &Grants) -> Result<(), Refused> {
    let lists = query.lists();
    if grants.shared && lists > SHARED_MAX_LISTS {
        return Err(Plain::over_bound(format!(
            "{} picks make {lists} lists; the server searches at most {SHARED_MAX_LISTS} (run `ply dice-race` on your machine)",
            query.picks
        ))
        .into());
    }
    Ok(())
}

/// The list no other list beats.
pub struct Best;

impl Ask for Best {
    type Request = PicksRequest;
    type Checked = PicksQuery;
    type Report = BestReport;
    const ABOUT: About = About {
        game: "dice-race",
        name: "best",
        path: "/api/dice-race/best",
        python: "dice_race_best",
        summary: "the list of the given number of sums that no other list beats",
        example: r#"{"picks": 2, "dice": 2, "sides": 6}"#,
        streams: false,
    };

    fn check(request: PicksRequest) -> Result<PicksQuery, Refused> {
        check_picks(&request)
    }

    fn cost(query: &PicksQuery, _: &Grants) -> Cost {
        picks_cost(query, |lists| {
            Cost::cheap_if(
                best_work(&query.dice, lists, query.picks)
                    .is_ok_and(|work| Cost::is_cheap(work, SEARCH_RATE)),
            )
        })
    }

    fn answer(query: PicksQuery, context: &Context<'_>) -> Result<BestReport, Refused> {
        shared_picks(&query, &context.grants)?;
        Ok(query.best_until(&context.halt())?)
    }
}

/// The pick game's optimal mix.
pub struct EquilibriumOf;

impl Ask for EquilibriumOf {
    type Request = PicksRequest;
    type Checked = PicksQuery;
    type Report = Equilibrium;
    const ABOUT: About = About {
        game: "dice-race",
        name: "equilibrium",
        path: "/api/dice-race/equilibrium",
        python: "dice_race_equilibrium",
        summary: "the pick game's optimal mix of lists and its value",
        example: r#"{"picks": 2, "dice": 2, "sides": 6}"#,
        streams: false,
    };

    fn check(request: PicksRequest) -> Result<PicksQuery, Refused> {
        check_picks(&request)
    }

    fn cost(query: &PicksQuery, _: &Grants) -> Cost {
        picks_cost(query, |lists| {
            Cost::of_work(equilibrium_work(lists), SEARCH_RATE)
        })
    }

    fn answer(query: PicksQuery, context: &Context<'_>) -> Result<Equilibrium, Refused> {
        shared_picks(&query, &context.grants)?;
        Ok(query.equilibrium_until(&context.halt())?)
    }
}

/// Every sum of the dice with its chance.
pub struct Sums;

impl Ask for Sums {
    type Request = SumsRequest;
    type Checked = SumsRequest;
    type Report = Vec<SumChance>;
    const ABOUT: About = About {
        game: "dice-race",
        name: "sums",
        path: "/api/dice-race/sums",
        python: "dice_race_sums",
        summary: "every sum of the dice with its number of ways and its chance",
        example: r#"{"dice": 2, "sides": 6}"#,
        streams: false,
    };

    /// The dice are checked with their cost, as the sums are counted.
    fn check(request: SumsRequest) -> Result<SumsRequest, Refused> {
        Ok(request)
    }

    fn cost(request: &SumsRequest, _: &Grants) -> Cost {
        Cost::cheap_if(cheap_dice(request.dice, request.sides))
    }

    fn answer(request: SumsRequest, context: &Context<'_>) -> Result<Vec<SumChance>, Refused> {
        Ok(request.answer_until(&context.halt())?)
    }
}

/// A race rolled for the page from its seed: each roll's faces, the lists left, the end and the
/// winner, and the exact chances when they are quick.
pub struct Rolled;

impl Ask for Rolled {
    type Request = RaceGameRequest;
    type Checked = RaceGameQuery;
    type Report = RaceGameReport;
    const ABOUT: About = About {
        game: "dice-race",
        name: "game",
        path: "/api/dice-race/game",
        python: "dice_race_game",
        summary: "a race rolled from its seed: the faces, the lists left, the end and the winner",
        example: r#"{"first": [7, 6], "second": [8, 6], "seed": 10, "rolls": 2}"#,
        streams: false,
    };

    fn check(request: RaceGameRequest) -> Result<RaceGameQuery, Refused> {
        Ok(request.validate()?)
    }

    /// At most [`super::request::MAX_ROLLS`] rolls, and the chances only within
    /// [`super::play::CHANCES_WITHIN`].
    fn cost(_: &RaceGameQuery, _: &Grants) -> Cost {
        Cost::Cheap
    }

    fn answer(query: RaceGameQuery, context: &Context<'_>) -> Result<RaceGameReport, Refused> {
        Ok(query.answer_until(&context.halt()))
    }
}

/// The original program's Monte Carlo run beside the exact answer.
pub struct Simulate;

impl Ask for Simulate {
    type Request = SimulateRequest;
    type Checked = SimulateQuery;
    type Report = SimulateReport;
    const ABOUT: About = About {
        game: "dice-race",
        name: "simulate",
        path: "/api/dice-race/simulate",
        python: "dice_race_simulate",
        summary: "the original program's Monte Carlo games beside the exact answer",
        example: r#"{"first": [7], "second": [6], "games": 1000, "max_games": 1000, "seed": 3}"#,
        streams: false,
    };

    fn check(request: SimulateRequest) -> Result<SimulateQuery, Refused> {
        Ok(request.validate()?)
    }

    /// Games are drawn by the thousand: never cheap.
    fn cost(_: &SimulateQuery, _: &Grants) -> Cost {
        Cost::Expensive
    }

    fn answer(query: SimulateQuery, context: &Context<'_>) -> Result<SimulateReport, Refused> {
        shared_race(&query.race, &context.grants)?;
        Ok(query.answer_until(None, &context.halt())?)
    }
}

/// The dice race as the registry lists it.
pub const GAME: Game = Game {
    name: "dice-race",
    title: "Dice race",
    source: "Dice Game Solution Algorithm",
    pages: &[Page {
        id: "dice-race",
        title: "Dice race",
        scripts: &["dice-race.js"],
        entry: "diceGame",
    }],
    questions: &[
        &Door::<Compare>::new(),
        &Door::<Best>::new(),
        &Door::<EquilibriumOf>::new(),
        &Door::<Sums>::new(),
        &Door::<Simulate>::new(),
        &Door::<Rolled>::new(),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::number_list::NumberList;

    #[test]
    fn lanes_follow_the_games_cost_models() {
        let grants = Grants::new(crate::engine::MemoryBudget::new(1 << 20));
        let race = |first: &str, second: &str, dice: u32| {
            let request = CompareRequest {
                first: NumberList::text(first.to_string()),
                second: NumberList::text(second.to_string()),
                dice,
                sides: 6,
            };
            Compare::cost(&Compare::check(request).ok().unwrap(), &grants)
        };
        assert_eq!(race("5,6,7,8,9", "5,6,7,8,7", 2), Cost::Cheap);
        // 59 049 states, about a minute of exact work.
        let twice = "4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13";
        assert_eq!(race(twice, twice, 3), Cost::Expensive);
        let picks = |picks: u32| {
            check_picks(&PicksRequest {
                picks,
                dice: 2,
                sides: 6,
            })
            .ok()
            .unwrap()
        };
        // 97 827 units (1 ms), then 1.3·10^6 (13 ms); the equilibrium 35 055 (0.35 ms).
        assert_eq!(Best::cost(&picks(2), &grants), Cost::Cheap);
        assert_eq!(Best::cost(&picks(3), &grants), Cost::Expensive);
        assert_eq!(EquilibriumOf::cost(&picks(2), &grants), Cost::Cheap);
        // 6 picks of 11 sums are 8008 lists: not costed.
        assert_eq!(EquilibriumOf::cost(&picks(6), &grants), Cost::Expensive);
    }
}
