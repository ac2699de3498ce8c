//! One module per game family: rules, notation (parse and format) and text pictures; each home's
//! `door` states what it offers ([`door`]), and [`registry`] lists the games once.

pub mod door;
pub mod registry;

/// Declares the game homes: each name a module of this folder whose `door::GAME` the registry
/// lists, in the page menu's order. Adding a game to the library is its folder and its name here.
macro_rules! homes {
    ($($home:ident),* $(,)?) => {
        $(pub mod $home;)*
        /// Every game's door, in the page menu's order (read through [`registry::games`]).
        static GAMES: &[door::Game] = &[$($home::door::GAME),*];
    };
}

homes![dots, solitaire, dice_race, magic_board, heaps];
