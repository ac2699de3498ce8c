//! `ply play dice-race`: the race roll by roll, the lists crossed off, and the exact chances of each
//! outcome from the current state after every roll.

use super::session::{cut, read_command, say};
use crate::failure::Failure;
use plysolve::engine::util::chooser::Chooser;
use plysolve::engine::util::fraction::format_fraction;
use plysolve::games::dice_race::request::CompareRequest;
use plysolve::games::dice_race::{compare, Dice, PickList};
use plysolve::input::number_list::NumberList;
use std::fmt::Write;

/// One player's list: each sum and whether it is crossed off.
struct Card {
    sums: Vec<(u32, bool)>,
}

impl Card {
    fn new(sums: &[u32]) -> Self {
        Card {
            sums: sums.iter().map(|&s| (s, false)).collect(),
        }
    }

    /// Crosses off one occurrence of `sum`; whether there was one.
    fn cross(&mut self, sum: u32) -> bool {
        match self.sums.iter_mut().find(|(s, done)| *s == sum && !done) {
            Some(entry) => {
                entry.1 = true;
                true
            }
            None => false,
        }
    }

    fn left(&self) -> Vec<u32> {
        self.sums
            .iter()
            .filter(|(_, done)| !done)
            .map(|&(s, _)| s)
            .collect()
    }

    fn done(&self) -> bool {
        self.sums.iter().all(|&(_, done)| done)
    }

    /// `5 ~6~ 7`: crossed-off sums between tildes.
    fn show(&self) -> String {
        let items: Vec<String> = self
            .sums
            .iter()
            .map(|&(s, done)| {
                if done {
                    format!("~{s}~")
                } else {
                    s.to_string()
                }
            })
            .collect();
        items.join(" ")
    }
}

/// The exact chances from the cards as they stand.
fn chances(dice: &Dice, first: &Card, second: &Card) -> Result<String, Failure> {
    let a = PickList::new(first.left(), dice).map_err(Failure::bad)?;
    let b = PickList::new(second.left(), dice).map_err(Failure::bad)?;
    let exact = compare(dice, &a, &b).map_err(Failure::bad)?;
    let f = exact.to_floats();
    let mut out = String::new();
    for (name, x, approx) in [
        ("P(first wins) ", &exact.p_first, f.p_first),
        ("P(second wins)", &exact.p_second, f.p_second),
        ("P(tie)        ", &exact.p_tie, f.p_tie),
    ] {
        let _ = writeln!(out, "  {name} = {} ≈ {approx:.6}", format_fraction(x));
    }
    Ok(out)
}

/// Runs the race of the lists written as `first` and `second`, read as `ply dice-race compare` and
/// `POST /api/dice-race/compare` read them.
pub fn play(
    first: &str,
    second: &str,
    count: u32,
    sides: u32,
    auto: bool,
    seed: u64,
) -> Result<(), Failure> {
    let race = CompareRequest {
        first: NumberList::text(first),
        second: NumberList::text(second),
        dice: count,
        sides,
    }
    .validate()
    .map_err(Failure::bad)?;
    let dice = race.dice;
    let (mut first, mut second) = (
        Card::new(&race.first.written),
        Card::new(&race.second.written),
    );
    let mut chooser = Chooser::new(seed);
    let mut input = std::io::stdin().lock();
    say(&format!(
        "Dice race with {count} dice of {sides} sides (seed {seed}). {}\n\
         first  {}\nsecond {}\n{}",
        if auto {
            "Rolling to the end."
        } else {
            "Press Enter to roll, or type quit."
        },
        first.show(),
        second.show(),
        chances(&dice, &first, &second)?
    ))?;
    let mut rolls = 0u64;
    loop {
        if !auto {
            say("> ")?;
            match read_command(&mut input)? {
                None => return say("\nEnd of input: the race is left unfinished.\n"),
                Some(c) if c.is_empty() || c == "roll" || c == "r" => {}
                Some(c) if c == "quit" || c == "q" || c == "exit" => {
                    return say("You left the race.\n")
                }
                Some(c) => {
                    say(&format!(
                        "`{}` is not a command: press Enter to roll, or type quit\n",
                        cut(&c)
                    ))?;
                    continue;
                }
            }
        }
        rolls += 1;
        let sum = dice.roll(&mut chooser);
        let crossed = match (first.cross(sum), second.cross(sum)) {
            (true, true) => "both cross it off",
            (true, false) => "first crosses it off",
            (false, true) => "second crosses it off",
            (false, false) => "nobody has it left",
        };
        let mut out = format!(
            "roll {rolls}: {sum} ({crossed})\nfirst  {}\nsecond {}\n",
            first.show(),
            second.show()
        );
        let verdict = match (first.done(), second.done()) {
            (true, true) => Some("a tie: both lists are crossed off on the same roll"),
            (true, false) => Some("the first list wins"),
            (false, true) => Some("the second list wins"),
            (false, false) => None,
        };
        match verdict {
            Some(v) => {
                out.push_str(&format!("Race over after {rolls} rolls: {v}.\n"));
                return say(&out);
            }
            None => out.push_str(&chances(&dice, &first, &second)?),
        }
        say(&out)?;
    }
}
