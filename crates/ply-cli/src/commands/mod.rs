//! One module per `ply` command: arguments, the library call, and rendering as text or JSON.

pub mod bench;
pub mod bench_costs;
pub mod bench_player;
pub mod bench_series;
pub mod dice_race;
pub mod dots;
pub mod heaps;
pub mod magic_board;
pub mod play;
pub mod serve;
pub mod solitaire;
pub mod triangle_war;
