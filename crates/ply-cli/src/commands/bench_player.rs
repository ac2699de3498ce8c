//! `ply bench dots-player`: ply's player (thinking up to `--think` a move) against a random and a
//! greedy opponent over seeded games from the empty board, seats alternating — wins, draws, losses,
//! the margin, how many of ply's moves were proved, and its longest think.

use crate::failure::Failure;
use crate::progress::StatesProgress;
use clap::{Args, ValueEnum};
use plysolve::engine::MemoryBudget;
use plysolve::games::dots::kept::Kept;
use plysolve::games::dots::level::Level;
use plysolve::games::dots::opponents::{play_match, MatchResult, Opponent};
use plysolve::games::dots::policy::Policy;
use plysolve::games::dots::Geometry;
use serde::Serialize;
use std::fmt::Write;
use std::time::Duration;

/// Options of `ply bench dots-player`.
#[derive(Args)]
pub struct BenchPlayerArgs {
    /// Rows of boxes.
    #[arg(long, default_value_t = 5, conflicts_with = "size")]
    rows: u32,
    /// Columns of boxes.
    #[arg(long, default_value_t = 5, conflicts_with = "size")]
    cols: u32,
    /// Play Dots and Triangles of this size instead of boxes.
    #[arg(long)]
    size: Option<u32>,
    /// Games against each opponent (ply moves first in half of them), at least one.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// The opponents.
    #[arg(long, value_enum, default_value_t = OpponentArg::Both)]
    opponent: OpponentArg,
    /// ply's level, 1 (weakest) to 8 (perfect).
    #[arg(long, default_value_t = 8, value_parser = parse_level)]
    level: u8,
    /// The opponent's level with `--opponent level` (ply's own player, weakened).
    #[arg(long, default_value_t = 8, value_parser = parse_level)]
    opponent_level: u8,
    /// The most time ply thinks per move (e.g. 200ms, 1s).
    #[arg(long, value_name = "TIME", default_value = "200ms", value_parser = crate::input::parse_time)]
    think: Duration,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Which opponents to play.
#[derive(Clone, Copy, ValueEnum)]
pub enum OpponentArg {
    /// Random moves.
    Random,
    /// Greedy moves.
    Greedy,
    /// Both, one after the other.
    Both,
    /// ply's player at --opponent-level.
    Level,
}

/// Reads `--level` and `--opponent-level` as the level's number.
fn parse_level(text: &str) -> Result<u8, String> {
    crate::args::level(text).map(Level::number)
}

/// What ply did against one opponent.
#[derive(Serialize)]
struct Tally {
    opponent: String,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    win_rate: f64,
    mean_margin: f64,
    ply_moves: u32,
    exact_moves: u32,
    longest_think: f64,
}

impl Tally {
    fn of(opponent: Opponent, results: &[MatchResult]) -> Self {
        let count = |f: fn(&MatchResult) -> bool| results.iter().filter(|r| f(r)).count() as u32;
        let games = results.len() as u32;
        let wins = count(|r| r.margin > 0);
        Tally {
            opponent: opponent.name(),
            games,
            wins,
            draws: count(|r| r.margin == 0),
            losses: count(|r| r.margin < 0),
            win_rate: wins as f64 / games.max(1) as f64,
            mean_margin: results.iter().map(|r| r.margin as f64).sum::<f64>() / games.max(1) as f64,
            ply_moves: results.iter().map(|r| r.ply_moves).sum(),
            exact_moves: results.iter().map(|r| r.exact_moves).sum(),
            longest_think: results.iter().map(|r| r.longest_think).fold(0.0, f64::max),
        }
    }
}

/// Runs `ply bench dots-player`.
pub fn run(args: BenchPlayerArgs) -> Result<String, Failure> {
    let geometry = match args.size {
        Some(size) => Geometry::Triangles { size },
        None => Geometry::Boxes {
            rows: args.rows,
            cols: args.cols,
        },
    };
    let built = geometry.build().map_err(Failure::bad)?;
    let budget = MemoryBudget::from_system();
    let policy = Policy::new(budget, Some(args.think));
    let level = |n: u8| Level::new(n.into()).expect("checked by the parser");
    let opponents: &[Opponent] = match args.opponent {
        OpponentArg::Random => &[Opponent::Random],
        OpponentArg::Greedy => &[Opponent::Greedy],
        OpponentArg::Both => &[Opponent::Random, Opponent::Greedy],
        OpponentArg::Level => &[Opponent::Level(level(args.opponent_level))],
    };
    let progress =
        StatesProgress::with_total("games played", args.games as u64 * opponents.len() as u64);
    let mut tallies = Vec::new();
    let mut played = 0;
    for &opponent in opponents {
        // One memory for the series, as `ply play` keeps one for a game.
        let kept = Kept::new(super::play::game_memory(args.think, budget), 1);
        let mut results = Vec::new();
        for i in 0..args.games {
            let seed = args.seed + i as u64;
            let ply = level(args.level);
            let result = play_match(&built, &policy, &kept, ply, opponent, i % 2 == 0, seed)
                .map_err(|e| Failure::solve(e, plysolve::engine::scored::Strategy::Search))?;
            results.push(result);
            played += 1;
            progress.update(played);
        }
        tallies.push(Tally::of(opponent, &results));
    }
    drop(progress);
    if args.json {
        return Ok(serde_json::to_string(&tallies)? + "\n");
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: ply at level {} (up to {} s a move) against each opponent, {} games from the empty \
         board, seats alternating, seeds {}..{}",
        geometry.title(),
        args.level,
        args.think.as_secs_f64(),
        args.games,
        args.seed,
        args.seed + args.games as u64 - 1
    );
    let _ = writeln!(
        out,
        "{:<9} {:>6} {:>5} {:>6} {:>7} {:>9} {:>12} {:>15} {:>10}",
        "opponent",
        "games",
        "wins",
        "draws",
        "losses",
        "win rate",
        "mean margin",
        "proved moves",
        "longest"
    );
    for t in &tallies {
        let _ = writeln!(
            out,
            "{:<9} {:>6} {:>5} {:>6} {:>7} {:>8.1}% {:>+12.2} {:>7}/{:<7} {:>8.2} s",
            t.opponent,
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.win_rate * 100.0,
            t.mean_margin,
            t.exact_moves,
            t.ply_moves,
            t.longest_think
        );
    }
    Ok(out)
}
