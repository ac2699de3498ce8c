//! Random opening positions: edges drawn at random with no cell one edge short of complete, so no
//! cell can be taken yet. They are the positions of the speed series over free edges
//! (`ply bench dots-free`): reproducible from a seed on any board.

use super::board::{DotsBoard, Edge, EdgeSet};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// A position of `board` with `drawn` edges, taken in a random order (from `seed`) and each kept
/// only if no cell then lacks just one edge; `None` when the board has no room for that many.
pub fn random_opening(board: &DotsBoard, drawn: u32, seed: u64) -> Option<EdgeSet> {
    let mut order: Vec<Edge> = (0..board.edge_count() as u8).map(Edge).collect();
    order.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
    let mut set = EdgeSet::default();
    for edge in order {
        if set.len() == drawn {
            break;
        }
        let next = set.with(edge);
        let safe = (0..board.cell_count()).all(|cell| {
            let sides = board.cell_edges(cell);
            let missing = sides.iter().filter(|&&e| !next.contains(e)).count();
            missing >= 2
        });
        if safe {
            set = next;
        }
    }
    (set.len() == drawn).then_some(set)
}

/// A position of `board` with `drawn` edges for a speed series on any board: the random opening
/// when there is one ([`random_opening`]); otherwise, once no edge can be added without leaving a cell
/// one edge short (triangle boards run out early), the rest drawn in the same random order, as a
/// game goes on past its opening. `None` only when `drawn` is more than the board's edges.
pub fn random_position(board: &DotsBoard, drawn: u32, seed: u64) -> Option<EdgeSet> {
    if drawn as usize > board.edge_count() {
        return None;
    }
    if let Some(set) = random_opening(board, drawn, seed) {
        return Some(set);
    }
    let mut order: Vec<Edge> = (0..board.edge_count() as u8).map(Edge).collect();
    order.shuffle(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
    let mut set = random_opening(board, 0, seed).unwrap_or_default();
    // The longest opening first, then any edges in order.
    for n in (0..drawn).rev() {
        if let Some(opening) = random_opening(board, n, seed) {
            set = opening;
            break;
        }
    }
    for edge in order {
        if set.len() == drawn {
            break;
        }
        set = set.with(edge);
    }
    Some(set)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::Geometry;

    fn boxes(rows: u32, cols: u32) -> DotsBoard {
        Geometry::Boxes { rows, cols }.build().unwrap().board
    }

    #[test]
    fn positions_go_on_past_the_opening() {
        let triangles = Geometry::Triangles { size: 5 }.build().unwrap().board;
        assert_eq!(random_opening(&triangles, 25, 1), None);
        let set = random_position(&triangles, 25, 1).unwrap();
        assert_eq!(set.len(), 25);
        assert_eq!(random_position(&triangles, 25, 1), Some(set));
        assert_eq!(random_position(&triangles, 46, 1), None);
        // Where an opening exists, it is the position.
        let board = boxes(4, 4);
        assert_eq!(
            random_position(&board, 10, 3),
            random_opening(&board, 10, 3)
        );
    }

    #[test]
    fn openings_have_the_edges_asked_and_no_cell_to_take() {
        let board = boxes(4, 4);
        for drawn in 0..=20 {
            let set = random_opening(&board, drawn, 7).unwrap();
            assert_eq!(set.len(), drawn);
            for cell in 0..board.cell_count() {
                let sides = board.cell_edges(cell);
                assert!(sides.iter().filter(|&&e| set.contains(e)).count() <= 2);
            }
        }
        // The same seed, the same position; a prefix of the same order for fewer edges.
        assert_eq!(random_opening(&board, 12, 7), random_opening(&board, 12, 7));
        let fewer = random_opening(&board, 8, 7).unwrap();
        let more = random_opening(&board, 12, 7).unwrap();
        assert_eq!(fewer.0 & !more.0, 0);
        assert_ne!(random_opening(&board, 12, 8), random_opening(&board, 12, 7));
    }

    #[test]
    fn a_full_board_has_no_room() {
        // 1×1 boxes: two of the four sides at most.
        let board = boxes(1, 1);
        assert_eq!(random_opening(&board, 2, 3).unwrap().len(), 2);
        assert_eq!(random_opening(&board, 3, 3), None);
        let triangles = Geometry::Triangles { size: 1 }.build().unwrap().board;
        assert_eq!(random_opening(&triangles, 1, 0).unwrap().len(), 1);
        assert_eq!(random_opening(&triangles, 2, 0), None);
    }
}
