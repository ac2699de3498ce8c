//! `ply play`: a game against the perfect player (or two perfect players watched), in the terminal or
//! driven through a pipe. Output is written as the game goes (it is a conversation), each answer on
//! its own lines; a bad command gets a one-line hint and the game goes on; end of input ends it.

mod dice_race;
mod dots;

pub use dots::game_memory;
mod heaps;
mod ponder;
mod session;

use crate::failure::Failure;
use clap::{Args, Subcommand, ValueEnum};
use plysolve::games::dice_race::request::{DEFAULT_DICE, DEFAULT_SIDES};
use plysolve::games::dots::level::Level;
use std::time::Duration;

/// `ply play <game> …`
#[derive(Subcommand)]
pub enum PlayCommand {
    /// Dots and Triangles on a triangle of --size rows (3 = the classic 10-dot board).
    Triangles {
        /// Rows of triangles, 1 to 6.
        #[arg(long, default_value_t = 3)]
        size: u32,
        #[command(flatten)]
        dots: DotsPlay,
        #[command(flatten)]
        players: Players,
    },
    /// Dots and Boxes on --rows × --cols boxes.
    Boxes {
        /// Rows of boxes.
        #[arg(long, default_value_t = 3)]
        rows: u32,
        /// Columns of boxes.
        #[arg(long, default_value_t = 3)]
        cols: u32,
        #[command(flatten)]
        dots: DotsPlay,
        #[command(flatten)]
        players: Players,
    },
    /// Lowest-heap Nim: take counters from the lowest non-empty heap.
    Heaps {
        /// Heap sizes from heap 1 (spaces or commas between them), each at least 1.
        #[arg(required = true)]
        sizes: Vec<String>,
        /// Misère play: whoever takes the last counter loses.
        #[arg(long)]
        misere: bool,
        #[command(flatten)]
        players: Players,
    },
    /// The dice race, roll by roll, with the exact chances after every roll.
    DiceRace {
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
    },
}

/// How a dots game starts and how long ply thinks.
#[derive(Args)]
pub struct DotsPlay {
    /// Start from the position after these moves (as `ply dots --moves` takes them), A first.
    #[arg(long, default_value = "")]
    moves: String,
    /// The most time ply thinks per move, e.g. 3s or 500ms: it plays exactly when it proves the
    /// position in that time, and its best estimate otherwise.
    #[arg(long, value_name = "TIME", default_value = "3s", value_parser = parse_think)]
    think: Duration,
    /// How well ply plays, 1 (weakest: often at random or greedily) to 8 (perfect, the default);
    /// levels in between make mistakes of a few cells by design.
    #[arg(long, default_value = "8", value_parser = parse_level)]
    level: Level,
    #[command(flatten)]
    book: crate::commands::dots::BookArg,
}

/// Reads `--level`.
fn parse_level(text: &str) -> Result<Level, String> {
    let n: u64 = text
        .parse()
        .map_err(|_| format!("{text:?} is not a level (1 to 8)"))?;
    Level::new(n).map_err(|e| e.to_string())
}

/// Reads `--think`.
fn parse_think(text: &str) -> Result<Duration, String> {
    plysolve::input::duration::parse_time(text).map_err(|e| e.to_string())
}

/// Who plays.
#[derive(Args)]
pub struct Players {
    /// Who moves first.
    #[arg(long, value_enum, default_value_t = First::Me)]
    first: First,
    /// Watch ply play both sides instead of playing.
    #[arg(long)]
    watch: bool,
    /// Seed for breaking ties between equally good moves (default: from the clock).
    #[arg(long)]
    seed: Option<u64>,
}

/// Who moves first.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// You.
    Me,
    /// The perfect player.
    Ply,
}

/// A seed from the clock when none was given (shown, so the game can be replayed).
fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000)
    })
}

/// Runs `ply play`: the game is written to stdout as it goes, so the returned text is empty.
pub fn run(command: PlayCommand) -> Result<String, Failure> {
    match command {
        PlayCommand::Triangles {
            size,
            dots: start,
            players,
        } => dots::play(
            plysolve::games::dots::Geometry::Triangles { size },
            &start.moves,
            start.think,
            start.level,
            start.book.books()?,
            &players,
        ),
        PlayCommand::Boxes {
            rows,
            cols,
            dots: start,
            players,
        } => dots::play(
            plysolve::games::dots::Geometry::Boxes { rows, cols },
            &start.moves,
            start.think,
            start.level,
            start.book.books()?,
            &players,
        ),
        PlayCommand::Heaps {
            sizes,
            misere,
            players,
        } => heaps::play(&sizes.join(" "), misere, &players),
        PlayCommand::DiceRace {
            first,
            second,
            dice,
            sides,
            auto,
            seed,
        } => dice_race::play(&first, &second, dice, sides, auto, seed_or_clock(seed)),
    }
    .map(|()| String::new())
}
