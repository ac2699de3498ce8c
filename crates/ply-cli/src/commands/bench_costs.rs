//! `ply bench costs`: the cost models measured — for a few hard shapes of each model, its estimate
//! (units, and seconds at its rate) beside the time the work really takes here, so that the rates in
//! the library can be checked on any machine (and the ratios recorded in BENCHMARKS.md).

use crate::failure::Failure;
use plysolve::engine::util::cost::{Rate, WorkLimit};
use plysolve::engine::util::halt::NEVER;
use plysolve::engine::MemoryBudget;
use plysolve::games::dice_race::cost::{best_work, equilibrium_work, SEARCH_RATE};
use plysolve::games::dice_race::dice::DICE_RATE;
use plysolve::games::dice_race::lists::all_lists;
use plysolve::games::dice_race::race::{Race, EXACT_RATE};
use plysolve::games::dice_race::search::{best_within, equilibrium_within};
use plysolve::games::dice_race::{compare_within, Dice, PickList};
use plysolve::games::magic_board::{
    check_stats, generate, solve_within, solve_work, stats, SizeRule, Wanted, DRAW_RATE, SOLVE_RATE,
};
use plysolve::games::solitaire::{
    distribution_work, exact_distribution_of, DISTRIBUTION_RATE, EXACT_LIMIT,
};
use std::fmt::Write;
use std::time::{Duration, Instant};

/// No limit to speak of: the shapes measured are run whatever their estimate.
const NO_LIMIT: WorkLimit = WorkLimit::of(Duration::from_secs(86_400));

/// One shape measured.
struct Row {
    model: &'static str,
    shape: String,
    units: u128,
    rate: Rate,
    seconds: f64,
}

impl Row {
    /// Runs `work` once (a fault fails the benchmark) and measures it against its estimate: `units`
    /// of a model doing `rate`.
    fn measure<T, E: std::fmt::Display>(
        model: &'static str,
        shape: String,
        units: u128,
        rate: Rate,
        work: impl FnOnce() -> Result<T, E>,
    ) -> Result<Row, Failure> {
        let started = Instant::now();
        work().map_err(Failure::bad)?;
        Ok(Row {
            model,
            shape,
            units,
            rate,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

/// A list of sums written `text`, on `dice`.
fn list(text: &str, dice: &Dice) -> Result<PickList, Failure> {
    PickList::parse(text, dice).map_err(Failure::bad)
}

/// Runs `ply bench costs`: each shape once, a table of estimate against measure.
pub fn run() -> Result<String, Failure> {
    let mut rows = Vec::new();
    // Counting sums.
    for (count, sides) in [(2, 5000), (10, 1000)] {
        rows.push(Row::measure(
            "dice",
            format!("{count}d{sides}"),
            Dice::work(count, sides),
            DICE_RATE,
            || Dice::new(count, sides),
        )?);
    }
    // Exact races.
    let two = Dice::new(2, 6).map_err(Failure::bad)?;
    let three = Dice::new(3, 6).map_err(Failure::bad)?;
    let sevens = vec!["7"; 3000].join(",");
    let twice = "5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12";
    for (name, dice, a, b) in [
        ("2d6 3000 sevens / 6", &two, sevens.as_str(), "6"),
        ("2d6 300 sevens / 6", &two, &sevens[..599], "6"),
        ("3d6 5..12 twice / same", &three, twice, twice),
    ] {
        let (a, b) = (list(a, dice)?, list(b, dice)?);
        let units = Race::new(dice, &a, &b).map_err(Failure::bad)?.exact_work();
        rows.push(Row::measure(
            "exact race",
            name.to_string(),
            units,
            EXACT_RATE,
            || compare_within(dice, &a, &b, NO_LIMIT, &NEVER),
        )?);
    }
    // Searches.
    for (count, sides, picks) in [(2, 6, 3), (2, 6, 4), (3, 6, 3), (1, 8, 3)] {
        let dice = Dice::new(count, sides).map_err(Failure::bad)?;
        let lists = all_lists(&dice, picks).map_err(Failure::bad)?;
        let units = best_work(&dice, &lists, picks).map_err(Failure::bad)?;
        rows.push(Row::measure(
            "best",
            format!("{count}d{sides} {picks} picks"),
            units,
            SEARCH_RATE,
            || best_within(&dice, picks, NO_LIMIT, &NEVER),
        )?);
    }
    for (count, sides, picks) in [(2, 3, 12), (2, 4, 8), (2, 6, 4)] {
        let dice = Dice::new(count, sides).map_err(Failure::bad)?;
        let lists = all_lists(&dice, picks).map_err(Failure::bad)?;
        let units = equilibrium_work(&lists);
        rows.push(Row::measure(
            "equilibrium",
            format!("{count}d{sides} {picks} picks"),
            units,
            SEARCH_RATE,
            || equilibrium_within(&dice, picks, NO_LIMIT, &NEVER),
        )?);
    }
    // MagicBoard, every corner.
    for d in [1000, 4096] {
        let board =
            generate(d, 1, Wanted::Any, SizeRule::Any).map_err(|e| Failure::bad(e.to_string()))?;
        let budget = MemoryBudget::new(1 << 30);
        rows.push(Row::measure(
            "magic board",
            format!("{d}×{d}, 4 corners"),
            solve_work(&board, 4),
            SOLVE_RATE,
            || solve_within(&board, None, budget, NO_LIMIT, &NEVER),
        )?);
    }
    // MagicBoard statistics: random boards drawn and searched, on every core.
    for (d, boards) in [(20, 100_000), (200, 1_000), (2000, 10)] {
        let units = check_stats(d..=d, boards, SizeRule::Any, NO_LIMIT).map_err(Failure::bad)?;
        rows.push(Row::measure(
            "board stats",
            format!("{boards} boards of {d}×{d}"),
            units,
            DRAW_RATE,
            || stats(d, boards, 1, SizeRule::Any, None),
        )?);
    }
    // Number Solitaire's exact distribution: the longest board it is given for, weights spread so
    // that the totals come near the limit (the hardest shape), and smaller dice and weights.
    for (faces, spread) in [(60u64, 1600), (60, 100), (6, 1600), (60, 3000)] {
        let weights: Vec<i64> = (0..EXACT_LIMIT as i64)
            .map(|i| (i * 7919 + 13) % (spread + 1))
            .collect();
        rows.push(Row::measure(
            "distribution",
            format!("60 squares 0..{spread}, d{faces}"),
            distribution_work(&weights, faces),
            DISTRIBUTION_RATE,
            || exact_distribution_of(&weights, faces, &NEVER),
        )?);
    }
    let mut out = format!(
        "{:<12} {:<24} {:>10} {:>10} {:>10} {:>8} {:>12}\n",
        "model", "shape", "units", "estimate", "measured", "ratio", "units/s"
    );
    for r in &rows {
        let _ = writeln!(
            out,
            "{:<12} {:<24} {:>10.2e} {:>9.3}s {:>9.3}s {:>8.2} {:>12.2e}",
            r.model,
            r.shape,
            r.units as f64,
            r.rate.seconds(r.units),
            r.seconds,
            r.rate.seconds(r.units) / r.seconds.max(1e-9),
            r.units as f64 / r.seconds.max(1e-9)
        );
    }
    Ok(out)
}
