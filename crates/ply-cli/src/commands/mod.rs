//! One module per `ply` command: arguments, the library call, and rendering as text or JSON.
//!
//! The games' commands are declared once, in `game_commands!`: each line is a module of this folder,
//! its `ply <game>` subcommand (the line's doc comment is its help) and its dispatch, so adding a
//! game's command is its module and one line there.

pub mod ask;
pub mod bench;
pub mod bench_costs;
pub mod bench_player;
pub mod bench_series;
pub mod play;
pub mod serve;

use crate::failure::Failure;

/// Declares the games' commands: for each line `Variant(module::Args)`, the module, the variant of
/// [`GameCommand`] (attributes and doc comment passed to clap) and its dispatch to `module::run`.
macro_rules! game_commands {
    ($($(#[$meta:meta])* $variant:ident($module:ident::$args:ident),)*) => {
        $(pub mod $module;)*

        /// `ply <game> …`: one subcommand per game (and Triangle War's contest format).
        #[derive(clap::Subcommand)]
        pub enum GameCommand {
            $($(#[$meta])* $variant($module::$args),)*
        }

        impl GameCommand {
            /// Runs the game's command: its whole output, or the fault.
            pub fn run(self) -> Result<String, Failure> {
                match self {
                    $(GameCommand::$variant(args) => $module::run(args),)*
                }
            }
        }
    };
}

game_commands! {
    /// Dots games: the value of a position, every move's value and the best line.
    Dots(dots::DotsArgs),
    /// The Triangle War contest format (UVa 751): one verdict per game.
    TriangleWar(triangle_war::TriangleWarArgs),
    /// The dice race: exact probabilities, the best pick list, the equilibrium.
    #[command(subcommand)]
    DiceRace(dice_race::DiceRaceCommand),
    /// Lowest-heap Nim: who wins, a winning move, remoteness and Grundy value.
    Heaps(heaps::HeapsArgs),
    /// MagicBoard: verdicts and shortest paths from the corners, random boards, statistics.
    MagicBoard(magic_board::MagicBoardArgs),
    /// Number Solitaire: the best result, an optimal path, and the game under fair throws.
    Solitaire(solitaire::SolitaireArgs),
}
