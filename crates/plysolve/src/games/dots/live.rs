//! What an analysis still running has proved, as data for front ends that show it as it comes (the
//! page's "Analyse longer", a terminal's progress lines): the nodes searched, the bounds of the
//! position's value for the player to move, and each move's value as it is proved — in the terms of
//! the final [`DotsReport`](super::report::DotsReport), so a front end renders both alike.

use super::board::{DotsBoard, Edge};
use super::notation::format_edge;
use crate::engine::scored::search::status::SearchStatus;
use crate::engine::scored::ValueRange;
use serde::Serialize;

/// A search's state at one moment, as a front end shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LiveStatus {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Share of the search's table in use (0.0 to 1.0).
    pub table_fill: f64,
    /// What is known of the position's value for the player to move (left out of the JSON while the
    /// search values a single state, which has no moves to count).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub bounds: Option<ValueRange>,
    /// How many of the position's moves have a proved value.
    pub moves_proved: usize,
    /// How many moves the position has (0 while the search values a single state).
    pub moves: usize,
    /// How many moves are known to be worth no more than the lower bound (proved or bounded so):
    /// what counts down when only the value is asked for.
    pub moves_at_most_lower: usize,
    /// The moves proved since the last status, with their values for the player making them (as
    /// [`MoveReport::value`](super::report::MoveReport::value)); empty in the reports made every
    /// so many nodes.
    pub proved: Vec<ProvedMove>,
}

/// One move proved while the analysis runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProvedMove {
    /// The edge, `2-5`.
    #[serde(rename = "move")]
    pub mv: String,
    /// Net future cells for the mover after this move under perfect play.
    pub value: i32,
}

impl LiveStatus {
    /// The search's `status` on `board`, moves named as the board names its edges.
    pub fn of(board: &DotsBoard, status: &SearchStatus) -> Self {
        LiveStatus {
            nodes: status.nodes,
            table_fill: status.table_fill,
            bounds: status
                .root
                .map(|(lower, upper)| ValueRange { lower, upper }),
            moves_proved: status.moves_proved,
            moves: status.moves,
            moves_at_most_lower: status.moves_at_most_lower,
            proved: status
                .proved
                .iter()
                .map(|&(edge, value)| ProvedMove {
                    mv: format_edge(board, Edge(edge as u8)),
                    value,
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::geometry::Geometry;

    #[test]
    fn a_status_names_its_moves_as_the_board_does_and_flattens_its_bounds() {
        let built = Geometry::Boxes { rows: 2, cols: 2 }.build().unwrap();
        let status = SearchStatus {
            nodes: 1234,
            table_fill: 0.5,
            moves_proved: 1,
            moves: 12,
            moves_at_most_lower: 3,
            root: Some((-1, 2)),
            proved: vec![(0, -1)],
        };
        let live = LiveStatus::of(&built.board, &status);
        assert_eq!(live.proved[0].mv, "1-2");
        let json = serde_json::to_string(&live).unwrap();
        assert_eq!(
            json,
            r#"{"nodes":1234,"table_fill":0.5,"lower":-1,"upper":2,"moves_proved":1,"moves":12,"moves_at_most_lower":3,"proved":[{"move":"1-2","value":-1}]}"#
        );
        let single = SearchStatus {
            root: None,
            proved: vec![],
            moves: 0,
            moves_proved: 0,
            ..status
        };
        let json = serde_json::to_string(&LiveStatus::of(&built.board, &single)).unwrap();
        assert!(!json.contains(r#""lower""#), "{json}");
    }
}
