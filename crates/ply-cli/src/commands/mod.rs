//! One module per `ply` command: arguments, the library call, and rendering as text or JSON.

pub mod bench;
pub mod dots;
pub mod triangle_war;
