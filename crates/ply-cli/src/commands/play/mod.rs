//! `ply play`: a game against the perfect player (or two perfect players watched), in the terminal or
//! driven through a pipe. Output is written as the game goes (it is a conversation), each answer on
//! its own lines; a bad command gets a one-line hint and the game goes on; end of input ends it.

mod ponder;
mod session;

use clap::{Args, ValueEnum};

/// Declares the games played in the terminal: for each line `Variant(module::Args)`, the module, the
/// variant of [`PlayCommand`] (attributes and doc comment passed to clap) and its dispatch to
/// `module::run`. Playing a game in the terminal is its module and one line here.
macro_rules! play_commands {
    ($($(#[$meta:meta])* $variant:ident($module:ident::$args:ident),)*) => {
        $(mod $module;)*

        /// `ply play <game> …`
        #[derive(clap::Subcommand)]
        pub enum PlayCommand {
            $($(#[$meta])* $variant($module::$args),)*
        }

        /// Runs `ply play`: the game is written to stdout as it goes, so the returned text is empty.
        pub fn run(command: PlayCommand) -> Result<String, crate::failure::Failure> {
            match command {
                $(PlayCommand::$variant(args) => $module::run(args),)*
            }
            .map(|()| String::new())
        }
    };
}

play_commands! {
    /// Dots and Triangles, Dots and Boxes.
    #[command(flatten)]
    Dots(dots::DotsPlayCommand),
    /// Lowest-heap Nim: take counters from the lowest non-empty heap.
    Heaps(heaps::HeapsPlayArgs),
    /// The dice race, roll by roll, with the exact chances after every roll.
    DiceRace(dice_race::RacePlayArgs),
}

pub use dots::game_memory;

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
