//! `ply dice-race`: the dice race of seed 003 — exact probabilities, the best list, the equilibrium,
//! the seed's simulation beside the exact answer, and the distribution of the sum.

use crate::failure::Failure;
use crate::progress::StatesProgress;
use clap::{Args, Subcommand};
use ply::engine::util::fraction::format_fraction;
use ply::games::dice_race::report::{CompareReport, SimulateReport};
use ply::games::dice_race::search::{best, equilibrium, SearchError};
use ply::games::dice_race::simulate::{simulate, Simulation, Stop};
use ply::games::dice_race::{compare, parse_sums, Dice, PickList};
use ply::option_hints;
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
    /// The list no other list beats, by exhaustive search, and the seed's greedy substitution.
    Best {
        #[command(flatten)]
        picks: PicksArgs,
    },
    /// The optimal (possibly mixed) strategy of the pick game, and its value.
    Equilibrium {
        #[command(flatten)]
        picks: PicksArgs,
    },
    /// The seed's Monte Carlo method with its sequential stopping rule, beside the exact answer.
    Simulate {
        /// The first list.
        first: String,
        /// The second list.
        second: String,
        /// Games to start with (then ten times as many in all, until one side has 60 % of decisive
        /// games or decisive games are shown rarer than 1 in 100 000). At most 4·10^9 rolls in all.
        #[arg(long, default_value_t = 10_000)]
        games: u64,
        /// Most games to play (lowered to what 4·10^9 rolls allow).
        #[arg(long, default_value_t = 10_000_000)]
        max_games: u64,
        /// Seed of the random generator (the same seed gives the same run).
        #[arg(long, default_value_t = 1)]
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
    #[arg(long, default_value_t = 2)]
    dice: u32,
    /// Sides of each die.
    #[arg(long, default_value_t = 6)]
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

impl DiceArgs {
    fn build(&self) -> Result<Dice, Failure> {
        Dice::new(self.dice, self.sides).map_err(Failure::bad)
    }
}

/// A list as written and as solved.
fn list(text: &str, dice: &Dice) -> Result<(Vec<u32>, PickList), Failure> {
    let written = parse_sums(text, dice).map_err(Failure::bad)?;
    let list = PickList::new(written.clone(), dice).map_err(Failure::bad)?;
    Ok((written, list))
}

/// Runs `ply dice-race`.
pub fn run(command: DiceRaceCommand) -> Result<String, Failure> {
    match command {
        DiceRaceCommand::Compare {
            first,
            second,
            dice,
            json,
        } => run_compare(&first, &second, &dice, json),
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
        } => run_simulate(&first, &second, (games, max_games, seed), &dice, json),
        DiceRaceCommand::Sums { dice, json } => run_sums(&dice, json),
    }
}

fn describe(dice: &Dice) -> String {
    let plural = if dice.count() == 1 { "die" } else { "dice" };
    let sides = if dice.sides() == 1 { "side" } else { "sides" };
    format!("{} {plural} of {} {sides}", dice.count(), dice.sides())
}

fn run_compare(first: &str, second: &str, args: &DiceArgs, json: bool) -> Result<String, Failure> {
    let dice = args.build()?;
    let (a_written, a) = list(first, &dice)?;
    let (b_written, b) = list(second, &dice)?;
    let exact = compare(&dice, &a, &b).map_err(Failure::bad)?;
    let f = exact.to_floats();
    if json {
        let report = CompareReport::new(&dice, a_written, b_written, &exact);
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    let mut out = String::new();
    let _ = writeln!(out, "{}", describe(&dice));
    let _ = writeln!(out, "first  {a_written:?}\nsecond {b_written:?}");
    let rows = [
        ("P(first wins) ", &exact.p_first, f.p_first),
        ("P(second wins)", &exact.p_second, f.p_second),
        ("P(tie)        ", &exact.p_tie, f.p_tie),
        ("expected rolls", &exact.expected_rolls, f.expected_rolls),
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

/// A search's fault, naming the option at fault where there is one.
fn search_fault(e: SearchError) -> Failure {
    Failure::BadInput(option_hints::pick_search(&e))
}

fn run_best(args: &PicksArgs) -> Result<String, Failure> {
    let dice = args.dice.build()?;
    let start = Instant::now();
    let r = best(&dice, args.picks).map_err(search_fault)?;
    if args.json {
        return Ok(serde_json::to_string(&r)? + "\n");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}, {} picks: {} lists, {} exact races, {:.2} s",
        describe(&dice),
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
        "greedy substitution (the seed's method): {:?}, {agrees}",
        r.greedy.sums()
    );
    Ok(out)
}

fn run_equilibrium(args: &PicksArgs) -> Result<String, Failure> {
    let dice = args.dice.build()?;
    let e = equilibrium(&dice, args.picks).map_err(search_fault)?;
    if args.json {
        return Ok(serde_json::to_string(&e)? + "\n");
    }
    let mut out = String::new();
    let kind = if e.pure { "pure" } else { "mixed" };
    let _ = writeln!(
        out,
        "{}, {} picks: {} lists; optimal strategy ({kind}), value {:.6}",
        describe(&dice),
        args.picks,
        e.multisets,
        e.value
    );
    for w in &e.support {
        let _ = writeln!(out, "  {:>8.6}  {:?}", w.weight, w.list.sums());
    }
    Ok(out)
}

fn run_simulate(
    first: &str,
    second: &str,
    (games, max_games, seed): (u64, u64, u64),
    args: &DiceArgs,
    json: bool,
) -> Result<String, Failure> {
    if games == 0 || max_games == 0 {
        return Err(Failure::BadInput(
            "--games and --max-games must be at least 1".into(),
        ));
    }
    let dice = args.build()?;
    let (a_written, a) = list(first, &dice)?;
    let (b_written, b) = list(second, &dice)?;
    // The exact answer first: a race too slow to solve is refused before any game is played.
    let started = Instant::now();
    let exact = compare(&dice, &a, &b).map_err(Failure::bad)?;
    let exact_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    let sim = simulate_with_progress(&dice, &a, &b, games, max_games, seed)?;
    let simulated_seconds = started.elapsed().as_secs_f64();
    let report = SimulateReport::new(
        (a_written, b_written),
        seed,
        &sim,
        &exact,
        (simulated_seconds, exact_seconds),
    );
    if json {
        return Ok(serde_json::to_string(&report)? + "\n");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {:?} against {:?}",
        describe(&dice),
        report.first,
        report.second
    );
    let stop = match sim.stopped {
        Stop::Verdict => "one side reached 60 % of decisive games",
        Stop::Tie => "decisive games are rarer than 1 in 100000: a tie",
        Stop::Cap => "the cap was reached",
        Stop::WorkLimit => "the next round would pass the limit of 4·10^9 rolls",
    };
    let _ = writeln!(
        out,
        "simulated {} games (seed {seed}) in {simulated_seconds:.3} s: {stop}",
        sim.games
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
    let _ = writeln!(out, "exact answer computed in {exact_seconds:.6} s");
    Ok(out)
}

/// [`simulate`] with a progress bar per round (on a terminal), games toward the round's target.
fn simulate_with_progress(
    dice: &Dice,
    a: &PickList,
    b: &PickList,
    games: u64,
    max_games: u64,
    seed: u64,
) -> Result<Simulation, Failure> {
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
    let sim = simulate(dice, a, b, games, max_games, seed, Some(&report)).map_err(Failure::bad);
    drop(round.into_inner().unwrap_or_else(|e| e.into_inner()));
    sim
}

fn run_sums(args: &DiceArgs, json: bool) -> Result<String, Failure> {
    let dice = args.build()?;
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
