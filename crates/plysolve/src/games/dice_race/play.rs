//! The race played roll by roll: the lists as written, crossed off by the race's rules
//! ([`super::rules`]), the dice thrown from a seed, and the exact chances from the lists left.
//! `ply play dice-race` keeps one [`RaceGame`] and prints it; `POST /api/dice-race/game`
//! ([`RaceGameRequest`]) plays the rolls the page asks for from its seed, so its answer is a pure
//! function of the body and the page states no rule.

use super::dice::{Dice, Throw};
use super::race::{PickList, RaceError};
use super::report::CompareReport;
use super::request::{CompareQuery, DiceRaceFault, WrittenList, DEFAULT_DICE, DEFAULT_SIDES};
use super::rules::{Crossed, Finish, Standing};
use crate::engine::util::chooser::Chooser;
use crate::engine::util::cost::WorkLimit;
use crate::engine::util::halt::Halt;
use crate::input::number_list::NumberList;
use serde::{Deserialize, Serialize};
use std::time::Duration;

pub use super::request::MAX_ROLLS;

/// The time the exact chances after the last roll may take in a [`RaceGameRequest`]'s answer:
/// longer races are answered without them (`POST /api/dice-race/compare` is the place to ask).
pub const CHANCES_WITHIN: Duration = Duration::from_millis(50);

/// One sum of a list as written, and whether it is crossed off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CardSum {
    /// The sum.
    pub sum: u32,
    /// Whether it is crossed off.
    pub crossed: bool,
}

/// The two lists as written, crossed off roll by roll: the earliest occurrence of a sum written is
/// the first crossed off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RaceCards {
    written: [Vec<u32>; 2],
    standing: Standing,
}

impl RaceCards {
    /// The cards of a checked race, nothing crossed off.
    pub fn new(first: &WrittenList, second: &WrittenList) -> Self {
        RaceCards {
            written: [first.written.clone(), second.written.clone()],
            standing: Standing::new(&first.list, &second.list),
        }
    }

    /// A roll of `sum`: one occurrence crossed off each list that has it left.
    pub fn cross(&mut self, sum: u32) -> Crossed {
        self.standing.cross(sum)
    }

    /// How the race ended, or `None` while it goes on.
    pub fn finish(&self) -> Option<Finish> {
        self.standing.finish()
    }

    /// List `side` (0: first, 1: second) as written, each sum marked crossed off or not.
    pub fn card(&self, side: usize) -> Vec<CardSum> {
        let sums = self.standing.sums();
        let mut seen = vec![0u32; sums.len()];
        self.written[side]
            .iter()
            .map(|&sum| {
                let index = sums.binary_search(&sum).expect("a written sum is listed");
                seen[index] += 1;
                CardSum {
                    sum,
                    crossed: seen[index] <= self.standing.crossed_at(side, index),
                }
            })
            .collect()
    }

    /// The sums still to cross off list `side`, in the order written.
    pub fn left(&self, side: usize) -> Vec<u32> {
        self.card(side)
            .into_iter()
            .filter(|c| !c.crossed)
            .map(|c| c.sum)
            .collect()
    }
}

/// One roll of a race: the throw and what it crossed off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RaceRoll {
    /// Each die's face.
    pub faces: Vec<u32>,
    /// Their sum.
    pub sum: u32,
    /// Which lists it crossed the sum off.
    pub crossed: Crossed,
}

/// A race played roll by roll from a seed.
pub struct RaceGame {
    dice: Dice,
    cards: RaceCards,
    chooser: Chooser,
    rolls: u64,
}

impl RaceGame {
    /// The race of a checked query, its dice thrown by a chooser started from `seed`.
    pub fn new(query: &CompareQuery, seed: u64) -> Self {
        RaceGame {
            dice: query.dice.clone(),
            cards: RaceCards::new(&query.first, &query.second),
            chooser: Chooser::new(seed),
            rolls: 0,
        }
    }

    /// The cards as they stand.
    pub fn cards(&self) -> &RaceCards {
        &self.cards
    }

    /// Rolls played.
    pub fn rolls(&self) -> u64 {
        self.rolls
    }

    /// Throws the dice and crosses the sum off; `None` once the race is over.
    pub fn roll(&mut self) -> Option<RaceRoll> {
        if self.cards.finish().is_some() {
            return None;
        }
        let Throw { faces, sum } = self.dice.throw(&mut self.chooser);
        self.rolls += 1;
        Some(RaceRoll {
            crossed: self.cards.cross(sum),
            faces,
            sum,
        })
    }

    /// The exact chances of the race from the lists left, refused over `limit` (or when the race is
    /// over), stopped when `halt` comes.
    pub fn chances_within(
        &self,
        limit: WorkLimit,
        halt: &Halt,
    ) -> Result<CompareReport, RaceError> {
        let list = |side| -> Result<WrittenList, RaceError> {
            let written = self.cards.left(side);
            Ok(WrittenList {
                list: PickList::new(written.clone(), &self.dice)?,
                written,
            })
        };
        let query = CompareQuery {
            dice: self.dice.clone(),
            first: list(0)?,
            second: list(1)?,
        };
        Ok(query.compare_within(limit, halt)?.0)
    }
}

fn default_dice() -> u32 {
    DEFAULT_DICE
}

fn default_sides() -> u32 {
    DEFAULT_SIDES
}

fn default_seed() -> u64 {
    1
}

/// A race rolled for the page, unchecked: the lists and dice of `ply play dice-race FIRST SECOND
/// [--dice N --sides K] --seed SEED`, and how many rolls to play from the start.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RaceGameRequest {
    /// The first list, as for [`super::request::CompareRequest::first`].
    pub first: NumberList,
    /// The second list.
    pub second: NumberList,
    /// Number of dice (default 2).
    #[serde(default = "default_dice")]
    pub dice: u32,
    /// Sides of each die (default 6).
    #[serde(default = "default_sides")]
    pub sides: u32,
    /// Seed of the dice (default 1): the same seed throws the same rolls.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Rolls to play from the start, at most [`MAX_ROLLS`] (fewer when the race ends first).
    #[serde(default)]
    pub rolls: u64,
}

/// A race rolled, as `POST /api/dice-race/game` answers it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RaceGameReport {
    /// Number of dice.
    pub dice: u32,
    /// Sides of each die.
    pub sides: u32,
    /// The seed of the dice.
    pub seed: u64,
    /// Every roll played, in order.
    pub rolls: Vec<RaceRoll>,
    /// The first list as written, each sum marked crossed off or not.
    pub first: Vec<CardSum>,
    /// The second list.
    pub second: Vec<CardSum>,
    /// The sums left on the first list, in the order written.
    pub first_left: Vec<u32>,
    /// The sums left on the second list.
    pub second_left: Vec<u32>,
    /// How the race ended, once over.
    pub finish: Option<Finish>,
    /// The end in words ([`Finish::words`]), once over.
    pub ending: Option<&'static str>,
    /// The exact chances from the lists left, while the race goes on and when they take less than
    /// [`CHANCES_WITHIN`].
    pub chances: Option<CompareReport>,
}

impl RaceGameRequest {
    /// Checks the dice, the lists and the rolls asked for.
    pub fn validate(&self) -> Result<RaceGameQuery, DiceRaceFault> {
        if self.rolls > MAX_ROLLS {
            return Err(DiceRaceFault::TooManyRolls(self.rolls));
        }
        Ok(RaceGameQuery {
            race: CompareQuery::new((self.dice, self.sides), &self.first, &self.second)?,
            dice: self.dice,
            sides: self.sides,
            seed: self.seed,
            rolls: self.rolls,
        })
    }

    /// Checks the request, then plays it ([`RaceGameQuery::answer_until`]).
    pub fn answer_until(&self, halt: &Halt) -> Result<RaceGameReport, DiceRaceFault> {
        Ok(self.validate()?.answer_until(halt))
    }
}

/// A race for the page, checked: the race, its dice as asked, the seed and the rolls to play.
#[derive(Debug, Clone)]
pub struct RaceGameQuery {
    race: CompareQuery,
    dice: u32,
    sides: u32,
    seed: u64,
    rolls: u64,
}

impl RaceGameQuery {
    /// Plays the rolls from the seed; the chances after them as long as `halt` and
    /// [`CHANCES_WITHIN`] allow.
    pub fn answer_until(&self, halt: &Halt) -> RaceGameReport {
        let mut game = RaceGame::new(&self.race, self.seed);
        let rolls: Vec<RaceRoll> = (0..self.rolls).map_while(|_| game.roll()).collect();
        let finish = game.cards().finish();
        let chances = match finish {
            Some(_) => None,
            None => game
                .chances_within(WorkLimit::of(CHANCES_WITHIN).within(halt), halt)
                .ok(),
        };
        let cards = game.cards();
        RaceGameReport {
            dice: self.dice,
            sides: self.sides,
            seed: self.seed,
            rolls,
            first: cards.card(0),
            second: cards.card(1),
            first_left: cards.left(0),
            second_left: cards.left(1),
            finish,
            ending: finish.map(Finish::words),
            chances,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::halt::NEVER;
    use crate::input::surface::{Surface, Worded};

    fn answer(json: &str) -> Result<RaceGameReport, String> {
        let request: RaceGameRequest = serde_json::from_str(json).map_err(|e| e.to_string())?;
        request.answer_until(&NEVER).map_err(|e| e.to_string())
    }

    #[test]
    fn cards_cross_off_the_earliest_occurrence_written() {
        let dice = Dice::new(2, 6).unwrap();
        let read = |text: &str| WrittenList::read(&NumberList::text(text), &dice).unwrap();
        let mut cards = RaceCards::new(&read("7,5,7"), &read("8,7"));
        cards.cross(7);
        let marks: Vec<bool> = cards.card(0).iter().map(|c| c.crossed).collect();
        assert_eq!(marks, vec![true, false, false]);
        assert_eq!((cards.left(0), cards.left(1)), (vec![5, 7], vec![8]));
        cards.cross(7);
        cards.cross(5);
        assert_eq!(cards.finish(), Some(Finish::First));
    }

    #[test]
    fn the_page_request_is_a_pure_function_of_its_body() {
        let two = answer(r#"{"first":"5,6,7","second":"7,8","seed":3,"rolls":2}"#).unwrap();
        let three = answer(r#"{"first":"5,6,7","second":"7,8","seed":3,"rolls":3}"#).unwrap();
        assert_eq!(two.rolls.len(), 2);
        assert_eq!(three.rolls[..2], two.rolls[..]);
        for roll in &three.rolls {
            assert_eq!(roll.faces.len(), 2);
            assert_eq!(roll.faces.iter().sum::<u32>(), roll.sum);
        }
        // A race of 7 against 7 ends on the first 7, in a tie.
        let tie = answer(r#"{"first":[7],"second":[7],"rolls":10000}"#).unwrap();
        assert_eq!(tie.rolls.last().unwrap().sum, 7);
        assert!(tie.rolls[..tie.rolls.len() - 1].iter().all(|r| r.sum != 7));
        assert_eq!((tie.finish, tie.chances), (Some(Finish::Tie), None));
        assert_eq!(tie.first_left, Vec::<u32>::new());
        // Before any roll the chances are the compare's.
        let start = answer(r#"{"first":[7],"second":[6]}"#).unwrap();
        assert_eq!(start.chances.unwrap().exact.p_first, "6/11");
        let many: RaceGameRequest =
            serde_json::from_str(r#"{"first":[7],"second":[6],"rolls":10001}"#).unwrap();
        assert_eq!(
            many.validate().unwrap_err().worded(Surface::Api),
            "\"rolls\" must be at most 10000, not 10001"
        );
    }
}
