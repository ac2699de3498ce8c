//! Dots games (Dots and Triangles, Dots and Boxes): draw edges; completing cells scores them
//! and the same player moves again.
//!
//! A board is only an incidence: a set of edges between dots and a set of cells, each cell a set of
//! edges. [`geometry`] builds it for a shape (triangles of size N); nothing else here knows the shape.

pub mod answer;
pub mod board;
pub mod book;
pub mod door;
pub mod geometry;
pub mod jobs;
pub mod kept;
pub mod level;
pub mod live;
pub mod measured;
pub mod naive;
pub mod notation;
pub mod openings;
pub mod opponents;
pub mod picture;
pub mod player;
pub mod policy;
pub mod position;
pub mod report;
pub mod request;
pub mod review;
pub mod tables;
pub mod theory;
pub mod triangle_war;
pub mod view;

pub use board::{BoardError, DotsBoard, Edge, EdgeSet};
pub use geometry::Geometry;
pub use position::Position;
