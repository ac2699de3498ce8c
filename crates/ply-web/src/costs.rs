//! Which lane of the gate each request takes ([`Cost`]), from its checked shape before any work:
//! cheap when it is sure to take well under a few milliseconds. Where a game states a cost model
//! (the dice race's races and searches, MagicBoard's searches) the lane is its estimate; elsewhere a
//! rough bound is enough (the refusal of work over the limits is the game's own); erring towards
//! expensive only costs a request a place in the shorter queue. A request that does not validate
//! is cheap: its refusal is.

use crate::gate::Cost;
use plysolve::engine::util::cost::Rate;
use plysolve::games::dice_race::cost::{best_work, equilibrium_work, SEARCH_RATE};
use plysolve::games::dice_race::dice::{Dice, DICE_RATE};
use plysolve::games::dice_race::lists::all_lists;
use plysolve::games::dice_race::race::{PickList, Race, EXACT_RATE};
use plysolve::games::dice_race::request::{CompareRequest, PicksQuery, PicksRequest};
use plysolve::games::magic_board::request::{GenerateRequest, MagicBoardRequest};
use plysolve::games::magic_board::{solve_work_for, SOLVE_RATE};
use plysolve::games::solitaire::request::SolitaireRequest;
use plysolve::input::number_list::NumberList;

/// Estimated work under this is cheap.
const CHEAP_SECONDS: f64 = 0.002;

/// Races of more states than this, or searches of more lists, are not costed here: their model's
/// own pass would not be cheap (and their work is not).
const COSTED_UP_TO: u128 = 10_000;

/// Whether `work` units of a model doing `rate` are cheap.
fn cheap(work: u128, rate: Rate) -> bool {
    rate.seconds(work) < CHEAP_SECONDS
}

/// Cheap when `sure` holds.
fn lane(sure: bool) -> Cost {
    if sure {
        Cost::Cheap
    } else {
        Cost::Expensive
    }
}

/// How many numbers a list holds (counted, not parsed).
fn count(list: &NumberList) -> usize {
    match list {
        NumberList::Text(text) => plysolve::input::number::items(text).count(),
        NumberList::Numbers(numbers) => numbers.len(),
    }
}

/// Number Solitaire: the best path is a few nanoseconds a square; the exact distribution grows
/// fast with the squares.
pub fn solitaire(r: &SolitaireRequest) -> Cost {
    let squares = count(&r.squares);
    lane(squares <= 100_000 && (!r.distribution || squares <= 24))
}

/// A dice race: cheap when counting the dice's sums and solving the race exactly are, by their
/// models ([`Dice::work`], [`Race::exact_work`]).
pub fn compare(r: &CompareRequest) -> Cost {
    if !cheap(Dice::work(r.dice, r.sides), DICE_RATE) {
        return Cost::Expensive;
    }
    let Ok(query) = r.validate() else {
        return Cost::Cheap;
    };
    match Race::new(&query.dice, &query.first.list, &query.second.list) {
        Ok(race) => {
            lane(race.states() as u128 <= COSTED_UP_TO && cheap(race.exact_work(), EXACT_RATE))
        }
        Err(_) => Cost::Cheap,
    }
}

/// The pick game of a request and its lists, or its lane when it is not worth costing further (its
/// dice or its lists too many: expensive; a fault: cheap).
fn picks(r: &PicksRequest) -> Result<(PicksQuery, Vec<PickList>), Cost> {
    if !cheap(Dice::work(r.dice, r.sides), DICE_RATE) {
        return Err(Cost::Expensive);
    }
    let Ok(query) = r.validate() else {
        return Err(Cost::Cheap);
    };
    if query.lists() > COSTED_UP_TO {
        return Err(Cost::Expensive);
    }
    match all_lists(&query.dice, query.picks) {
        Ok(lists) => Ok((query, lists)),
        Err(_) => Err(Cost::Cheap),
    }
}

/// The best list: cheap when its search is, by its model ([`best_work`]).
pub fn best(r: &PicksRequest) -> Cost {
    match picks(r) {
        Ok((query, lists)) => lane(
            best_work(&query.dice, &lists, query.picks).is_ok_and(|work| cheap(work, SEARCH_RATE)),
        ),
        Err(cost) => cost,
    }
}

/// The equilibrium: cheap when its search is, by its model ([`equilibrium_work`]).
pub fn equilibrium(r: &PicksRequest) -> Cost {
    match picks(r) {
        Ok((_, lists)) => lane(cheap(equilibrium_work(&lists), SEARCH_RATE)),
        Err(cost) => cost,
    }
}

/// A MagicBoard: cheap when its searches are, by their model ([`solve_work_for`]), for the most
/// states a board of this text can have (a square takes at least two bytes of text, and a row is
/// stored in the next power of two of squares: at most twice the squares).
pub fn magic_board(r: &MagicBoardRequest) -> Cost {
    let squares = r.board.len() / 2 + 1;
    let corners = if r.start.is_some() { 1 } else { 4 };
    lane(cheap(solve_work_for(2 * squares, corners), SOLVE_RATE))
}

/// A generated MagicBoard: drawing and solving, cheap for small sizes.
pub fn generate(r: &GenerateRequest) -> Cost {
    lane(r.size <= 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_follow_the_games_cost_models() {
        let race = |first: &str, second: &str, dice: u32| CompareRequest {
            first: NumberList::text(first.to_string()),
            second: NumberList::text(second.to_string()),
            dice,
            sides: 6,
        };
        assert_eq!(compare(&race("5,6,7,8,9", "5,6,7,8,7", 2)), Cost::Cheap);
        // 59 049 states, about a minute of exact work.
        let twice = "4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13";
        assert_eq!(compare(&race(twice, twice, 3)), Cost::Expensive);
        // A fault is answered at once.
        assert_eq!(compare(&race("13", "7", 1)), Cost::Cheap);
        let picks = |picks: u32| PicksRequest {
            picks,
            dice: 2,
            sides: 6,
        };
        // 97 827 units (1 ms), then 1.3·10^6 (13 ms); the equilibrium 35 055 (0.35 ms).
        assert_eq!(best(&picks(2)), Cost::Cheap);
        assert_eq!(best(&picks(3)), Cost::Expensive);
        assert_eq!(equilibrium(&picks(2)), Cost::Cheap);
        // 6 picks of 11 sums are 8008 lists: not costed here.
        assert_eq!(equilibrium(&picks(6)), Cost::Expensive);
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
        assert_eq!(magic_board(&board(5)), Cost::Cheap);
        assert_eq!(magic_board(&board(200)), Cost::Expensive);
    }
}
