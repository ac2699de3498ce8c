//! `ply play dice-race`: the race roll by roll, the lists crossed off, and the exact chances of each
//! outcome from the current state after every roll; the rolls and the rules are the home's
//! [`RaceGame`], this module only reads commands and prints.

use super::session::{cut, say, Typed, Typing};
use crate::failure::Failure;
use plysolve::engine::util::cost::WorkLimit;
use plysolve::engine::util::halt::NEVER;
use plysolve::games::dice_race::play::{CardSum, RaceGame};
use plysolve::games::dice_race::request::{CompareRequest, DEFAULT_DICE, DEFAULT_SIDES};
use plysolve::input::number_list::NumberList;
use std::fmt::Write;

/// A list as written, crossed-off sums between tildes: `5 ~6~ 7`.
fn show(card: &[CardSum]) -> String {
    let items: Vec<String> = card
        .iter()
        .map(|c| {
            if c.crossed {
                format!("~{}~", c.sum)
            } else {
                c.sum.to_string()
            }
        })
        .collect();
    items.join(" ")
}

/// The lists as they stand.
fn cards(game: &RaceGame) -> String {
    let cards = game.cards();
    format!(
        "first  {}\nsecond {}\n",
        show(&cards.card(0)),
        show(&cards.card(1))
    )
}

/// The exact chances from the lists left.
fn chances(game: &RaceGame) -> Result<String, Failure> {
    let r = game
        .chances_within(WorkLimit::DEFAULT, &NEVER)
        .map_err(Failure::bad)?;
    let mut out = String::new();
    for (name, x, approx) in [
        ("P(first wins) ", &r.exact.p_first, r.p_first),
        ("P(second wins)", &r.exact.p_second, r.p_second),
        ("P(tie)        ", &r.exact.p_tie, r.p_tie),
    ] {
        let _ = writeln!(out, "  {name} = {x} ≈ {approx:.6}");
    }
    Ok(out)
}

/// `ply play dice-race …`
#[derive(clap::Args)]
pub struct RacePlayArgs {
    /// The first list, e.g. 5,6,7,8,9.
    first: String,
    /// The second list.
    second: String,
    /// Number of dice.
    #[arg(long, default_value_t = DEFAULT_DICE)]
    dice: u32,
    /// Sides of each die.
    #[arg(long, default_value_t = DEFAULT_SIDES)]
    sides: u32,
    /// Roll to the end without waiting for Enter.
    #[arg(long)]
    auto: bool,
    /// Seed of the dice (the same seed gives the same rolls; default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

/// Runs `ply play dice-race`.
pub fn run(args: RacePlayArgs) -> Result<(), Failure> {
    play(
        &args.first,
        &args.second,
        args.dice,
        args.sides,
        args.auto,
        super::seed_or_clock(args.seed),
    )
}

/// Runs the race of the lists written as `first` and `second`, read as `ply dice-race compare` and
/// `POST /api/dice-race/compare` read them.
fn play(
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
    let mut game = RaceGame::new(&race, seed);
    let mut input = Typing::new(std::io::stdin().lock());
    say(&format!(
        "Dice race with {count} dice of {sides} sides (seed {seed}). {}\n{}{}",
        if auto {
            "Rolling to the end."
        } else {
            "Press Enter to roll, or type quit."
        },
        cards(&game),
        chances(&game)?
    ))?;
    loop {
        if !auto {
            say("> ")?;
            match input.next()? {
                None => return say("\nEnd of input: the race is left unfinished.\n"),
                Some(Typed::Line(c)) if c.is_empty() || c == "roll" || c == "r" => {}
                Some(Typed::Line(c)) if c == "quit" || c == "q" || c == "exit" => {
                    return say("You left the race.\n")
                }
                Some(Typed::Unreadable(hint)) => {
                    say(&format!("{hint}: press Enter to roll, or type quit\n"))?;
                    continue;
                }
                Some(Typed::Line(c)) => {
                    say(&format!(
                        "`{}` is not a command: press Enter to roll, or type quit\n",
                        cut(&c)
                    ))?;
                    continue;
                }
            }
        }
        let roll = game.roll().expect("a race not over rolls");
        let crossed = match (roll.crossed.first, roll.crossed.second) {
            (true, true) => "both cross it off",
            (true, false) => "first crosses it off",
            (false, true) => "second crosses it off",
            (false, false) => "nobody has it left",
        };
        let mut out = format!(
            "roll {}: {} ({crossed})\n{}",
            game.rolls(),
            roll.sum,
            cards(&game)
        );
        match game.cards().finish() {
            Some(finish) => {
                out.push_str(&format!(
                    "Race over after {} rolls: {}.\n",
                    game.rolls(),
                    finish.words()
                ));
                return say(&out);
            }
            None => out.push_str(&chances(&game)?),
        }
        say(&out)?;
    }
}
