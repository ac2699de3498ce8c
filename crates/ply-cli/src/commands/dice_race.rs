//! `ply dice-race`: the dice race of the original program 003 — exact probabilities, the best list,
//! the equilibrium, the original's simulation beside the exact answer, and the distribution of the sum.
//! Each subcommand builds the dice race home's request from its arguments (the one `POST
//! /api/dice-race/…` reads from JSON), and prints its report as text or JSON.

use crate::failure::Failure;
use crate::progress::StatesProgress;
use clap::{Args, Subcommand};
use plysolve::engine::util::fraction::format_fraction;
use plysolve::games::dice_race::report::SimulateReport;
use plysolve::games::dice_race::request::{
    CompareRequest, PicksRequest, SimulateQuery, SimulateRequest, SumsRequest, DEFAULT_DICE,
    DEFAULT_GAMES, DEFAULT_MAX_GAMES, DEFAULT_SEED, DEFAULT_SIDES,
};
use plysolve::games::dice_race::simulate::Stop;
use plysolve::games::dice_race::Dice;
use plysolve::input::number_list::NumberList;
use std::fmt::Write;
use std::sync::Mutex;
use std::time::Instant;

/// `ply dice-race …`
#[derive(Subcommand)]
pub enum DiceRaceCommand {
    /// Exact probabilities that each list wins or that they tie, and the expected number of rolls.
    Compare {
        /// The first list, e.g. 5,6,7,8,9.
        first: String,
        /// The second list.
        second: String,
        #[command(flatten)]
        dice: DiceArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The list no other list beats, by exhaustive search, and the original program's greedy
    /// substitution.
    Best {
        #[command(flatten)]
        picks: PicksArgs,
    },
    /// The optimal (possibly mixed) strategy of the pick game, and its value.
    Equilibrium {
        #[command(flatten)]
        picks: PicksArgs,
    },
    /// The original program's Monte Carlo method with its sequential stopping rule, beside the exact
    /// answer.
    Simulate {
        /// The first list.
        first: String,
        /// The second list.
        second: String,
        /// Games to start with (then ten times as many in all, until one side has 60 % of decisive
        /// games or decisive games are shown rarer than 1 in 100 000), at most --max-games. At most
        /// 4·10^9 rolls in all.
        #[arg(long, default_value_t = DEFAULT_GAMES)]
        games: u64,
        /// Most games to play (lowered to what 4·10^9 rolls allow).
        #[arg(long, default_value_t = DEFAULT_MAX_GAMES)]
        max_games: u64,
        /// Seed of the random generator (the same seed gives the same run).
        #[arg(long, default_value_t = DEFAULT_SEED)]
        seed: u64,
        #[command(flatten)]
        dice: DiceArgs,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
    /// The exact distribution of the sum of the dice, with a bar chart.
    Sums {
        #[command(flatten)]
        dice: DiceArgs,
        /// Print JSON: an array of sums.
        #[arg(long)]
        json: bool,
    },
}

/// Which dice are rolled.
#[derive(Args)]
pub struct DiceArgs {
    /// Number of dice.
    #[arg(long, default_value_t = DEFAULT_DICE)]
    dice: u32,
    /// Sides of each die.
    #[arg(long, default_value_t = DEFAULT_SIDES)]
    sides: u32,
}

/// The size of the pick game.
#[derive(Args)]
pub struct PicksArgs {
    /// Sums each player picks.
    #[arg(long)]
    picks: u32,
    #[command(flatten)]
    dice: DiceArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Runs `ply dice-race`.
pub fn run(command: DiceRaceCommand) -> Result<String, Failure> {
    match command {
        DiceRaceCommand::Compare {
            first,
            second,
            dice,
            json,
        } => run_compare(
            CompareRequest {
                first: NumberList::text(first),
                second: NumberList::text(second),
                dice: dice.dice,
                sides: dice.sides,
            },
            json,
        ),
        DiceRaceCommand::Best { picks } => run_best(&picks),
        DiceRaceCommand::Equilibrium { picks } => run_equilibrium(&picks),
        DiceRaceCommand::Simulate {
            first,
            second,
            games,
            max_games,
            seed,
            dice,
            json,
        } => run_simulate(
            SimulateRequest {
                first: NumberList::text(first),
                second: NumberList::text(second),
                games,
                max_games,
                seed,
                dice: dice.dice,
                sides: dice.sides,
            },
            json,
        ),
        DiceRaceCommand::Sums { dice, json } => run_sums(
            SumsRequest {
                dice: dice.dice,
                sides: dice.sides,
            },
            json,
        ),
    }
}

impl PicksArgs {
    /// The request `POST /api/dice-race/best` and `/equilibrium` read from JSON.
    fn request(&self) -> PicksRequest {
        PicksRequest {
            picks: self.picks,
            dice: self.dice.dice,
            sides: self.dice.sides,
        }
    }
}

fn describe(dice: &Dice) -> String {
    let plural = if dice.count() == 1 { "die" } else { "dice" };
    let sides = if dice.sides() == 1 { "side" } else { "sides" };
    format!("{} {plural} of {} {sides}", dice.count(), dice.sides())
}

fn run_compare(request: CompareRequest, json: bool) -> Result<String, Failure> {
    let query = request.validate().map_err(Failure::bad)?;
    let (report, exact) = query.compare().map_err(Failure::bad)?;
    if json {
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    let mut out = String::new();
    let _ = writeln!(out, "{}", describe(&query.dice));
    let (a_written, b_written) = (&report.first, &report.second);
    let _ = writeln!(out, "first  {a_written:?}\nsecond {b_written:?}");
    let rows = [
        ("P(first wins) ", &exact.p_first, report.p_first),
        ("P(second wins)", &exact.p_second, report.p_second),
        ("P(tie)        ", &exact.p_tie, report.p_tie),
        (
            "expected rolls",
            &exact.expected_rolls,
            report.expected_rolls,
        ),
    ];
    for (name, x, approx) in rows {
        let _ = writeln!(out, "{name} = {} ≈ {approx:.6}", format_fraction(x));
    }
    let verdict = match exact.p_first.cmp(&exact.p_second) {
        std::cmp::Ordering::Greater => "the first list wins more often than it loses",
        std::cmp::Ordering::Less => "the second list wins more often than it loses",
        std::cmp::Ordering::Equal => "neither list wins more often than the other",
    };
    let _ = writeln!(out, "verdict: {verdict}");
    Ok(out)
}

fn run_best(args: &PicksArgs) -> Result<String, Failure> {
    let query = args.request().validate().map_err(Failure::bad)?;
    let dice = &query.dice;
    let start = Instant::now();
    let r = query.best().map_err(Failure::bad)?;
    if args.json {
        return Ok(serde_json::to_string(&r)? + "\n");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}, {} picks: {} lists, {} exact races, {:.2} s",
        describe(dice),
        args.picks,
        r.multisets,
        r.races,
        start.elapsed().as_secs_f64()
    );
    if r.unbeaten {
        let _ = writeln!(
            out,
            "best: {:?} (no list beats it head to head)",
            r.best.sums()
        );
        if r.all_unbeaten.len() > 1 {
            let others: Vec<&[u32]> = r.all_unbeaten.iter().map(|l| l.sums()).collect();
            let _ = writeln!(out, "unbeaten lists: {others:?}");
        }
    } else {
        let _ = writeln!(
            out,
            "no list is unbeaten: every list loses head to head to some other (see `equilibrium`)"
        );
    }
    let agrees = match (r.unbeaten, r.greedy_agrees) {
        (false, _) => "not unbeaten either",
        (true, true) if r.greedy == r.best => "the same list",
        (true, true) => "another unbeaten list",
        (true, false) => "a list that some list beats",
    };
    let _ = writeln!(
        out,
        "greedy substitution (the original program's method): {:?}, {agrees}",
        r.greedy.sums()
    );
    Ok(out)
}

fn run_equilibrium(args: &PicksArgs) -> Result<String, Failure> {
    let query = args.request().validate().map_err(Failure::bad)?;
    let e = query.equilibrium().map_err(Failure::bad)?;
    if args.json {
        return Ok(serde_json::to_string(&e)? + "\n");
    }
    let mut out = String::new();
    let kind = if e.pure { "pure" } else { "mixed" };
    let _ = writeln!(
        out,
        "{}, {} picks: {} lists; optimal strategy ({kind}), value {:.6}",
        describe(&query.dice),
        args.picks,
        e.multisets,
        e.value
    );
    for w in &e.support {
        let _ = writeln!(out, "  {:>8.6}  {:?}", w.weight, w.list.sums());
    }
    Ok(out)
}

fn run_simulate(request: SimulateRequest, json: bool) -> Result<String, Failure> {
    let query = request.validate().map_err(Failure::bad)?;
    let report = simulate_with_progress(&query)?;
    if json {
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    let (dice, seed) = (&query.race.dice, query.seed);
    let simulated_seconds = report.simulation_seconds;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {:?} against {:?}",
        describe(dice),
        report.first,
        report.second
    );
    let stop = match report.stopped {
        Stop::Verdict => "one side reached 60 % of decisive games",
        Stop::Tie => "decisive games are rarer than 1 in 100000: a tie",
        Stop::Cap => "the cap was reached",
        Stop::WorkLimit => "the next round would pass the limit of 4·10^9 rolls",
    };
    let _ = writeln!(
        out,
        "simulated {} games (seed {seed}) in {simulated_seconds:.3} s: {stop}",
        report.games
    );
    let _ = writeln!(
        out,
        "{:<15} {:>10} {:>23}   exact",
        "", "simulated", "95 % interval"
    );
    let rows = [
        ("P(first wins) ", &report.p_first),
        ("P(second wins)", &report.p_second),
        ("P(tie)        ", &report.p_tie),
    ];
    for (name, r) in rows {
        let _ = writeln!(
            out,
            "{name}  {:>10.6}  [{:.6}, {:.6}]   {:.6} = {}{}",
            r.estimate.p,
            r.estimate.low,
            r.estimate.high,
            r.exact_value,
            r.exact,
            if r.inside {
                ""
            } else {
                "  (outside the interval)"
            }
        );
    }
    let _ = writeln!(
        out,
        "exact answer computed in {:.6} s",
        report.exact_seconds
    );
    Ok(out)
}

/// The simulation with a progress bar per round (on a terminal), games toward the round's target.
fn simulate_with_progress(query: &SimulateQuery) -> Result<SimulateReport, Failure> {
    let round: Mutex<Option<(u64, StatesProgress)>> = Mutex::new(None);
    let report = |done: u64, target: u64| {
        let mut round = round.lock().unwrap_or_else(|e| e.into_inner());
        if round.as_ref().is_none_or(|(t, _)| *t != target) {
            // Drop the finished round's bar before the next one starts.
            *round = None;
            *round = Some((
                target,
                StatesProgress::with_total("games simulated", target),
            ));
        }
        if let Some((_, bar)) = round.as_ref() {
            bar.update(done);
        }
    };
    let answer = query.answer(Some(&report)).map_err(Failure::bad);
    drop(round.into_inner().unwrap_or_else(|e| e.into_inner()));
    answer
}

fn run_sums(request: SumsRequest, json: bool) -> Result<String, Failure> {
    let dice = request.validate().map_err(Failure::bad)?;
    let chances = dice.chances();
    if json {
        return Ok(serde_json::to_string(&chances)? + "\n");
    }
    let top = chances.iter().map(|c| c.p).fold(0.0, f64::max);
    let mut out = format!("{}: {} outcomes\n", describe(&dice), dice.total());
    let _ = writeln!(
        out,
        "{:>5} {:>12} {:>14} {:>9}",
        "sum", "ways", "probability", "decimal"
    );
    for c in &chances {
        let bar = "#".repeat(((c.p / top) * 40.0).round() as usize);
        let _ = writeln!(
            out,
            "{:>5} {:>12} {:>14} {:>9.6} {bar}",
            c.sum, c.ways, c.probability, c.p
        );
    }
    Ok(out)
}
