//! The learned estimate: a value in cells for the player to move, fitted to ply's own exact values
//! of thousands of positions (`tools/estimate/`: the data, the training script and the measures in
//! BENCHMARKS.md). Gradient-boosted trees over the [`features`](super::features) of dots theory, read from
//! `estimate-model.json` (compiled in, a few hundred kilobytes; no runtime beyond this file), with
//! the mean error measured on held-out positions per board and free-edge count, which reports give
//! beside the estimate. Simple loony endgames are valued exactly, as by the hand-made
//! [`super::estimate`]; nothing here is ever used in place of a proved value.

use super::features::{features_with, FEATURE_COUNT, FEATURE_NAMES};
use super::loony::simple_endgame_value;
use crate::engine::scored::{Completion, SubsetIndexed};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The model file as the training script writes it.
const MODEL_JSON: &str = include_str!("estimate-model.json");

/// How many free edges away a measured error still stands for a position's.
pub const ERROR_REACH: u32 = 2;

/// The layout of the model file this code reads.
const MODEL_VERSION: u32 = 1;

/// One regression tree: node `i` goes to `left[i]` when `x[feature[i]] <= threshold[i]`, else to
/// `right[i]`; a leaf (`left[i] == -1`) gives `value[i]`.
#[derive(Debug, Deserialize)]
struct Tree {
    feature: Vec<i64>,
    threshold: Vec<f64>,
    left: Vec<i64>,
    right: Vec<i64>,
    value: Vec<f64>,
}

impl Tree {
    /// Whether every node's links and feature are in range and the links go forward (no cycle).
    fn is_sound(&self) -> bool {
        let n = self.value.len();
        let same = [
            self.feature.len(),
            self.threshold.len(),
            self.left.len(),
            self.right.len(),
        ];
        same.iter().all(|&len| len == n)
            && n > 0
            && (0..n).all(|i| {
                let (l, r) = (self.left[i], self.right[i]);
                (l == -1 && r == -1)
                    || (l > i as i64
                        && r > i as i64
                        && (l as usize) < n
                        && (r as usize) < n
                        && (0..FEATURE_COUNT as i64).contains(&self.feature[i]))
            })
    }

    /// The tree's value at `x`, walked in the file's own layout: the reference [`Model::predict`]'s
    /// flat walk is tested against.
    #[cfg(test)]
    fn predict(&self, x: &[f64; FEATURE_COUNT]) -> f64 {
        let mut i = 0;
        while self.left[i] >= 0 {
            let goes_left = x[self.feature[i] as usize] <= self.threshold[i];
            i = if goes_left {
                self.left[i]
            } else {
                self.right[i]
            } as usize;
        }
        self.value[i]
    }
}

#[derive(Debug, Deserialize)]
struct ModelFile {
    version: u32,
    features: Vec<String>,
    init: f64,
    rate: f64,
    trees: Vec<Tree>,
    /// Board slug → free edges → mean absolute error on held-out positions.
    errors: BTreeMap<String, BTreeMap<u32, f64>>,
}

/// One node of the model's trees laid out in one array: a split (`x[feature] <= threshold` goes to
/// `left`, else `right`, both indices into the array) or a leaf (`left == LEAF`) giving `value`.
/// The anytime search asks for an estimate at every leaf of its tree, and walking 400 trees of five
/// separate arrays each was half of its time: one contiguous array walks them faster.
#[derive(Debug, Clone, Copy)]
struct Node {
    threshold: f64,
    value: f64,
    feature: u32,
    left: u32,
    right: u32,
}

/// [`Node::left`] of a leaf.
const LEAF: u32 = u32::MAX;

/// The learned estimate's model.
#[derive(Debug)]
pub struct Model {
    file: ModelFile,
    /// Every tree's nodes, one tree after another.
    nodes: Vec<Node>,
    /// Where each tree's root is in [`Self::nodes`].
    roots: Vec<u32>,
}

impl Model {
    /// The model in `json`, if it is one this code can use: its layout version, the same features
    /// in the same order as [`FEATURE_NAMES`], sound trees.
    fn parse(json: &str) -> Result<Model, String> {
        let mut file: ModelFile = serde_json::from_str(json).map_err(|e| e.to_string())?;
        if file.version != MODEL_VERSION {
            return Err(format!(
                "model version {}, not {MODEL_VERSION}",
                file.version
            ));
        }
        if file.features != FEATURE_NAMES {
            return Err("the model's features are not the code's".into());
        }
        if file.trees.is_empty() || !file.trees.iter().all(Tree::is_sound) {
            return Err("a tree of the model is not sound".into());
        }
        let (mut nodes, mut roots) = (Vec::new(), Vec::new());
        // The trees live on as the flat array alone.
        for tree in std::mem::take(&mut file.trees) {
            let start = nodes.len() as u32;
            roots.push(start);
            nodes.extend((0..tree.value.len()).map(|i| {
                let leaf = tree.left[i] < 0;
                Node {
                    threshold: tree.threshold[i],
                    value: tree.value[i],
                    // Sound trees: a split's feature and links are in range (checked above).
                    feature: if leaf { 0 } else { tree.feature[i] as u32 },
                    left: if leaf { LEAF } else { start + tree.left[i] as u32 },
                    right: if leaf { LEAF } else { start + tree.right[i] as u32 },
                }
            }));
        }
        Ok(Model { file, nodes, roots })
    }

    /// The estimated value (cells for the player to move) of a position with features `x`.
    pub fn predict(&self, x: &[f64; FEATURE_COUNT]) -> f64 {
        let sum: f64 = self
            .roots
            .iter()
            .map(|&root| {
                let mut node = self.nodes[root as usize];
                while node.left != LEAF {
                    let next = if x[node.feature as usize] <= node.threshold {
                        node.left
                    } else {
                        node.right
                    };
                    node = self.nodes[next as usize];
                }
                node.value
            })
            .sum();
        self.file.init + self.file.rate * sum
    }

    /// The mean error measured on held-out positions of the board `slug` (as
    /// [`Geometry::slug`](crate::games::dots::Geometry::slug) names it) with `free` free edges,
    /// or the nearest free-edge count measured on that board within [`ERROR_REACH`]; `None` where
    /// nothing like it was measured (a larger board, an earlier position): no figure is claimed.
    pub fn error(&self, slug: &str, free: u32) -> Option<f64> {
        let by_free = self.file.errors.get(slug)?;
        by_free
            .iter()
            .filter(|(&f, _)| f.abs_diff(free) <= ERROR_REACH)
            .min_by_key(|(&f, _)| (f.abs_diff(free), f))
            .map(|(_, &e)| e)
    }
}

/// The compiled-in model (`None` only if the file shipped is broken, which a test rules out).
pub fn model() -> Option<&'static Model> {
    static MODEL: OnceLock<Option<Model>> = OnceLock::new();
    MODEL.get_or_init(|| Model::parse(MODEL_JSON).ok()).as_ref()
}

/// The learned estimate of `drawn` (`free` its free elements) for the player to move, in whole
/// cells within what the open cells allow; simple loony endgames exactly; the hand-made estimate
/// if the model could not be read.
pub fn learned_estimate(rules: Completion<'_>, drawn: u64, free: u64) -> i32 {
    if let Some(value) = simple_endgame_value(rules, drawn, free) {
        return value;
    }
    let (reading, open) = model_reading(rules, drawn, free);
    (reading.round() as i32).clamp(-open, open)
}

/// The model's value of `drawn` before rounding (the hand-made estimate's if the model could not
/// be read), with the position's open cells.
fn model_reading(rules: Completion<'_>, drawn: u64, free: u64) -> (f64, i32) {
    let x = features_with(rules, drawn, free, None);
    let reading = match model() {
        Some(model) => model.predict(&x),
        None => super::estimate::estimate(rules, drawn, free) as f64,
    };
    (reading, x[1] as i32)
}

/// The learned estimate of `drawn` before rounding — exact on simple loony endgames, else the
/// model's — with the position's open cells: what [`learned_estimate`] rounds for the search and
/// the shown estimates move onto the values the open cells allow.
fn reading(rules: Completion<'_>, drawn: u64, free: u64) -> (f64, i32) {
    let (reading, open) = model_reading(rules, drawn, free);
    match simple_endgame_value(rules, drawn, free) {
        Some(value) => (value as f64, open),
        None => (reading, open),
    }
}

/// The value nearest `reading` that a position with `open` open cells can have: every open cell
/// goes to one player or the other, so the value for the player to move — their cells less the
/// opponent's — has the parity of `open` and lies within ±`open`. An estimate of the other
/// parity is wrong by at least a cell whatever the position; shown values never are (half a
/// cell closer to the exact values on the held-out positions, BENCHMARKS "the estimate shown on
/// the value's lattice").
pub fn on_lattice(reading: f64, open: i32) -> i32 {
    let open = open.max(0);
    // The values allowed are open, open − 2, …, −open: `open − 2k` nearest `reading`.
    let k = ((open as f64 - reading) / 2.0).round().clamp(0.0, open as f64) as i32;
    open - 2 * k
}

/// `value` (an estimate for the player to move in a position with `open` open cells) moved to the
/// lattice of values the position can have when it is off it, by a cell towards `lean` (the
/// model's reading of the position: the side the estimate leans to).
pub fn toward_lattice(value: i32, open: i32, lean: f64) -> i32 {
    if (value - open).rem_euclid(2) == 0 {
        return value;
    }
    let step = if lean > value as f64 { 1 } else { -1 };
    (value + step).clamp(-open.max(0), open.max(0))
}

/// Every element of `board` (as a mask) less `drawn`: the free ones.
fn free_of(board: &impl SubsetIndexed, drawn: u64) -> u64 {
    let all = if board.items() >= 64 {
        u64::MAX
    } else {
        (1u64 << board.items()) - 1
    };
    all & !drawn
}

/// The learned estimate of the position `drawn` of `board`, for the player to move, without
/// search (`None` for a board without completion rules, which no dots board is): what the
/// players of the levels rank moves by.
pub fn estimate_drawn(board: &impl SubsetIndexed, drawn: u64) -> Option<i32> {
    let rules = board.completion()?;
    Some(learned_estimate(rules, drawn, free_of(board, drawn)))
}

/// The learned estimate of the position `drawn` of `board` as reports show it: on the lattice of
/// values its open cells allow ([`on_lattice`]).
pub fn shown_estimate_drawn(board: &impl SubsetIndexed, drawn: u64) -> Option<i32> {
    let rules = board.completion()?;
    let (reading, open) = reading(rules, drawn, free_of(board, drawn));
    Some(on_lattice(reading, open))
}

/// A search's estimate `value` of the position `drawn` of `board` (its best move's, for the player
/// to move) as reports show it: moved onto the lattice of values the open cells allow, towards the
/// model's reading of the position when it is off it ([`toward_lattice`]).
pub fn shown_search_estimate(board: &impl SubsetIndexed, drawn: u64, value: i32) -> i32 {
    match board.completion() {
        Some(rules) => {
            let (reading, open) = reading(rules, drawn, free_of(board, drawn));
            toward_lattice(value, open, reading)
        }
        None => value,
    }
}

/// How a move's estimate reads its child: as the search and the levels' players do (rounded), or
/// as reports show it (on the values the child's open cells allow).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// [`estimate_drawn`].
    Search,
    /// [`shown_estimate_drawn`]: the move's value is then on the position's lattice (the points it
    /// scores and the child's open cells add up to the position's open cells).
    Shown,
}

/// The learned estimate of the move `edge` (scoring `points`) from the position `drawn` of
/// `board`, for the player making it, within `range` (what is proved of the move): the child's
/// estimate, read as `reading` says, carried back by Wilson's rule.
pub fn move_estimate(
    board: &impl SubsetIndexed,
    drawn: u64,
    edge: u32,
    points: u32,
    range: crate::engine::scored::ValueRange,
    reading: Reading,
) -> i32 {
    let child = drawn | 1 << edge;
    let child = match reading {
        Reading::Search => estimate_drawn(board, child),
        Reading::Shown => shown_estimate_drawn(board, child),
    };
    crate::engine::scored::move_value(points as i32, child.unwrap_or(0))
        .clamp(range.lower, range.upper)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scored::table::SubsetTable;
    use crate::engine::util::memory::MemoryBudget;
    use crate::engine::util::progress::Watch;
    use crate::games::dots::theory::features::features;
    use crate::games::dots::Geometry;

    #[test]
    fn the_shipped_model_reads_and_knows_its_boards() {
        let model = Model::parse(MODEL_JSON).expect("the shipped model");
        assert!(model.error("boxes-4x4", 24).is_some());
        assert!(model.error("boxes-9x9", 24).is_none());
        // Nothing like the empty 5×5 board (60 free edges) was measured.
        assert!(model.error("boxes-5x5", 60).is_none());
    }

    #[test]
    fn a_broken_model_is_refused() {
        let good: serde_json::Value = serde_json::from_str(MODEL_JSON).unwrap();
        let mut cycle = good.clone();
        cycle["trees"][0]["left"][0] = serde_json::json!(0);
        let mut features = good.clone();
        features["features"][0] = serde_json::json!("something else");
        let mut newer = good.clone();
        newer["version"] = serde_json::json!(2);
        for bad in [cycle, features, newer] {
            assert!(Model::parse(&bad.to_string()).is_err());
        }
        assert!(Model::parse("{}").is_err());
    }

    #[test]
    fn a_tree_goes_left_at_its_threshold() {
        let tree = Tree {
            feature: vec![0, -2, -2],
            threshold: vec![3.0, -2.0, -2.0],
            left: vec![1, -1, -1],
            right: vec![2, -1, -1],
            value: vec![0.0, -1.5, 2.5],
        };
        assert!(tree.is_sound());
        let mut x = [0.0; FEATURE_COUNT];
        x[0] = 3.0;
        assert_eq!(tree.predict(&x), -1.5);
        x[0] = 3.5;
        assert_eq!(tree.predict(&x), 2.5);
    }

    /// The flat walk of every tree at once gives what walking each tree in the file's layout gives,
    /// on the features of every state of the 2×3 board.
    #[test]
    fn the_flat_trees_predict_as_the_file_s_trees() {
        let board = Geometry::Boxes { rows: 2, cols: 3 }.build().unwrap().board;
        let rules = board.completion().unwrap();
        let full = (1u64 << board.items()) - 1;
        let model = model().unwrap();
        let file: ModelFile = serde_json::from_str(MODEL_JSON).unwrap();
        let mut differing = 0;
        for mask in 0..=full {
            let x = features(rules, mask, full & !mask);
            let sum: f64 = file.trees.iter().map(|t| t.predict(&x)).sum();
            let walked = model.file.init + model.file.rate * sum;
            differing += (walked != model.predict(&x)) as u32;
        }
        assert_eq!(differing, 0);
        assert_eq!(model.roots.len(), file.trees.len());
    }

    #[test]
    fn values_move_to_the_nearest_the_open_cells_allow() {
        assert_eq!(on_lattice(0.9, 16), 0);
        assert_eq!(on_lattice(1.1, 16), 2);
        assert_eq!(on_lattice(-1.2, 16), -2);
        assert_eq!(on_lattice(-0.4, 3), -1);
        assert_eq!(on_lattice(0.4, 3), 1);
        assert_eq!(on_lattice(9.0, 3), 3);
        assert_eq!(on_lattice(-9.0, 4), -4);
        assert_eq!(on_lattice(0.7, 0), 0);
        assert_eq!(toward_lattice(1, 16, 1.4), 2);
        assert_eq!(toward_lattice(1, 16, 0.6), 0);
        assert_eq!(toward_lattice(-3, 16, -3.5), -4);
        assert_eq!(toward_lattice(2, 16, -5.0), 2);
        assert_eq!(toward_lattice(4, 3, 9.0), 3);
    }

    /// Against the whole table of the 2×3 board: the shown estimate always has the exact value's
    /// parity, and is closer to the exact values than the rounded one the search uses.
    #[test]
    fn the_shown_estimate_is_a_value_the_position_can_have() {
        let board = Geometry::Boxes { rows: 2, cols: 3 }.build().unwrap().board;
        let table =
            SubsetTable::build(&board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
        let (mut shown_error, mut rounded_error, mut off) = (0u64, 0u64, 0u32);
        for mask in 0..(1u64 << board.items()) {
            let exact = table.value_of_mask(mask);
            let shown = shown_estimate_drawn(&board, mask).unwrap();
            off += ((shown - exact).rem_euclid(2) != 0) as u32;
            shown_error += exact.abs_diff(shown) as u64;
            rounded_error += exact.abs_diff(estimate_drawn(&board, mask).unwrap()) as u64;
            let searched = shown_search_estimate(&board, mask, exact + 1);
            assert_eq!(searched.abs_diff(exact + 1), 1, "{mask:#b}");
        }
        assert_eq!(off, 0);
        assert!(shown_error < rounded_error, "{shown_error} against {rounded_error}");
    }

    /// Against the whole table of the 2×3 board (a board it was not trained on): within the cells
    /// and exact on simple endgames everywhere; on the quiet states (nothing to capture: where the
    /// search asks for estimates, as it follows captures past its depth) closer to the values than
    /// the hand-made estimate.
    #[test]
    fn on_every_state_of_a_small_board_it_beats_the_hand_made_estimate() {
        let board = Geometry::Boxes { rows: 2, cols: 3 }.build().unwrap().board;
        let table =
            SubsetTable::build(&board, MemoryBudget::new(1 << 30), Watch::default()).unwrap();
        let rules = board.completion().unwrap();
        let full = (1u64 << board.items()) - 1;
        let (mut learned, mut hand_made) = (0u64, 0u64);
        for mask in 0..=full {
            let free = full & !mask;
            let exact = table.value_of_mask(mask);
            let guess = learned_estimate(rules, mask, free);
            let open = features(rules, mask, free)[1] as i32;
            assert!(
                guess.abs() <= open,
                "{mask:#b}: {guess} with {open} cells open"
            );
            if let Some(v) = simple_endgame_value(rules, mask, free) {
                assert_eq!(guess, v);
            }
            if features(rules, mask, free)[2] > 0.0 {
                continue;
            }
            learned += exact.abs_diff(guess) as u64;
            hand_made += exact.abs_diff(super::super::estimate::estimate(rules, mask, free)) as u64;
        }
        assert!(
            learned < hand_made,
            "learned {learned}, hand-made {hand_made}"
        );
    }
}
