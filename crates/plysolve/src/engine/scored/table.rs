//! Bottom-up table over a subset-indexed state space, one signed byte per state, filled in parallel.
//!
//! Every child has strictly more elements than its parent, so states can be filled from the full set
//! down to the empty one. To fill in parallel, the bitmask is split into a *high* part (the top
//! `high_bits` elements) and a *low* part. All states sharing a high part form a *block*. A block depends
//! only on itself and on blocks whose high part is a strict superset, so blocks whose high parts have the
//! same number of elements form a *layer* of independent blocks. Blocks are stored layer after layer
//! (the full high part first), so the finished layers are one contiguous slice that the current layer
//! reads while its blocks are written in parallel — no locks, no atomics, no unsafe code.

use super::{
    check_values_fit, move_value, negamax_step, require_acyclic_deterministic, Completion,
    SolveError, Solver, SubsetIndexed,
};
use crate::engine::util::halt::Halted;
use crate::engine::util::memory::{MemoryBudget, ZeroedBytes};
use crate::engine::util::progress::Watch;
use multiversion::multiversion;
use rayon::prelude::*;
use std::convert::Infallible;
use std::ops::Range;

/// Blocks hold `2^BLOCK_BITS` states at most (16 KiB): small enough to stay in cache while filled.
const BLOCK_BITS: u32 = 14;
/// At most `2^MAX_HIGH_BITS` blocks: enough independent work for any machine, a small lookup array.
const MAX_HIGH_BITS: u32 = 12;

/// Where each state lives in the table.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub(super) items: u32,
    pub(super) low_bits: u32,
    /// For each high part, the index of its block in storage order.
    block_of_high: Vec<u32>,
    /// For each block in storage order, its high part.
    high_of_block: Vec<u64>,
    /// The layers, as ranges of blocks in storage order, in filling order.
    layers: Vec<Range<usize>>,
}

impl Layout {
    pub(super) fn new(items: u32) -> Self {
        let low_bits = items.min(BLOCK_BITS.max(items.saturating_sub(MAX_HIGH_BITS)));
        let high_bits = items - low_bits;
        let mut high_of_block: Vec<u64> = (0..1u64 << high_bits).collect();
        // Most elements first; ties in numeric order, so the layout is deterministic.
        high_of_block.sort_by_key(|&h| (std::cmp::Reverse(h.count_ones()), h));
        let mut block_of_high = vec![0u32; high_of_block.len()];
        for (block, &high) in high_of_block.iter().enumerate() {
            block_of_high[high as usize] = block as u32;
        }
        let mut layers = Vec::new();
        let mut start = 0;
        while start < high_of_block.len() {
            let ones = high_of_block[start].count_ones();
            let len = high_of_block[start..]
                .iter()
                .take_while(|h| h.count_ones() == ones)
                .count();
            layers.push(start..start + len);
            start += len;
        }
        Layout {
            items,
            low_bits,
            block_of_high,
            high_of_block,
            layers,
        }
    }

    #[inline(always)]
    fn position(&self, mask: u64) -> usize {
        let block = self.block_of_high[(mask >> self.low_bits) as usize] as usize;
        (block << self.low_bits) | (mask & ((1u64 << self.low_bits) - 1)) as usize
    }
}

/// The value of every state of a [`SubsetIndexed`] game, computed once, then looked up — built here,
/// or read whole from a file ([`super::table_file`]), always in memory of the process's own: no file
/// can change a table once it is made.
#[derive(Debug)]
pub struct SubsetTable {
    pub(super) layout: Layout,
    /// Values as the bit patterns of `i8`, in layout order.
    pub(super) values: ZeroedBytes,
}

impl SubsetTable {
    /// Bytes a table for a game of `items` elements needs.
    pub fn bytes_needed(items: u32) -> u128 {
        1u128 << items
    }

    /// Solves every state of `game`, refusing before any allocation if `2^items` bytes exceed `budget`.
    /// `watch`'s progress is told the number of states filled after each layer of blocks; its halt
    /// is checked before each block (a halted build gives [`SolveError::Halted`] and no table).
    pub fn build<G: SubsetIndexed>(
        game: &G,
        budget: MemoryBudget,
        watch: Watch<'_>,
    ) -> Result<Self, SolveError> {
        let (layout, mut values) = Self::allocate(game, budget)?;
        let items = game.items();
        match game.completion() {
            Some(rules) if items >= LANE_BITS => {
                let lanes = LaneRules::new(rules, game.items());
                fill_layers(&layout, &mut values, watch, |high, block, done| {
                    fill_block_in_lanes(&lanes, &layout, high, block, done)
                })?;
            }
            _ => fill_layers(&layout, &mut values, watch, |high, block, done| {
                fill_block(game, &layout, high, block, done)
            })?,
        }
        Ok(SubsetTable { layout, values })
    }

    /// Like [`Self::build`] but always on the general path (one state and one move at a time through
    /// [`ScoredGame::for_each_move`](super::ScoredGame::for_each_move)): the reference that the
    /// completion path is tested against.
    pub fn build_general<G: SubsetIndexed>(
        game: &G,
        budget: MemoryBudget,
    ) -> Result<Self, SolveError> {
        let (layout, mut values) = Self::allocate(game, budget)?;
        fill_layers(
            &layout,
            &mut values,
            Watch::default(),
            |high, block, done| fill_block(game, &layout, high, block, done),
        )?;
        Ok(SubsetTable { layout, values })
    }

    /// Checks the game and allocates its zeroed table, refusing before allocating if over `budget`.
    fn allocate<G: SubsetIndexed>(
        game: &G,
        budget: MemoryBudget,
    ) -> Result<(Layout, ZeroedBytes), SolveError> {
        require_acyclic_deterministic(game, "table")?;
        check_values_fit(game)?;
        let items = game.items();
        let values = budget.zeroed_bytes(Self::bytes_needed(items), || {
            format!("a table of 2^{items} states (one byte each)")
        })?;
        Ok((Layout::new(items), values))
    }

    /// The value of the state with bitmask `mask`.
    #[inline]
    pub fn value_of_mask(&self, mask: u64) -> i32 {
        self.values[self.layout.position(mask)] as i8 as i32
    }

    /// Number of states in the table.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Always false: a table holds at least the empty state.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Elements of the game (the table has `2^items` states).
    pub fn items(&self) -> u32 {
        self.layout.items
    }

    /// A solver that answers from this table.
    pub fn solver<'a, G: SubsetIndexed>(&'a self, game: &'a G) -> TableSolver<'a, G> {
        TableSolver { game, table: self }
    }
}

/// Fills the layers in order, the blocks of each layer in parallel with `fill(high, block, done)`,
/// until `watch`'s halt comes.
fn fill_layers(
    layout: &Layout,
    values: &mut [u8],
    watch: Watch<'_>,
    fill: impl Fn(u64, &mut [u8], &[u8]) + Sync,
) -> Result<(), Halted> {
    let block_len = 1usize << layout.low_bits;
    for layer in &layout.layers {
        let (done, rest) = values.split_at_mut(layer.start * block_len);
        let current = &mut rest[..layer.len() * block_len];
        current
            .par_chunks_mut(block_len)
            .zip(&layout.high_of_block[layer.clone()])
            .try_for_each(|(block, &high)| {
                watch.halt.check().map_or(Ok(()), Err)?;
                fill(high, block, done);
                Ok(())
            })?;
        if let Some(progress) = watch.progress {
            progress((layer.end * block_len) as u64);
        }
    }
    Ok(())
}

/// States handled together by the completion path: all values of the lowest `LANE_BITS` elements.
const LANE_BITS: u32 = 4;
const LANES: usize = 1 << LANE_BITS;

/// A completion game's rules prepared for lanes: for each element and each of its cells, which of
/// the `LANES` low patterns hold the cell's other low elements.
struct LaneRules<'a> {
    rules: Completion<'a>,
    lanes: Vec<[u16; 2]>,
    full: u64,
}

impl<'a> LaneRules<'a> {
    fn new(rules: Completion<'a>, items: u32) -> Self {
        let low = (LANES - 1) as u64;
        let lanes = rules
            .others
            .iter()
            .map(|cells| {
                cells.map(|others| {
                    (0..LANES as u64)
                        .filter(|lane| lane & others & low == others & low)
                        .fold(0u16, |m, lane| m | 1 << lane)
                })
            })
            .collect();
        LaneRules {
            rules,
            lanes,
            full: u64::MAX >> (64 - items),
        }
    }
}

/// Fills one block of a completion game, `LANES` states at a time. For a group of states that differ
/// only in the lowest `LANE_BITS` elements, a move on any other element leads to `LANES` consecutive
/// children, so all lanes are valued together (the compiler turns the lane loop into vector code).
/// Moves on the low elements stay inside the group and are done one state at a time, from the last.
/// Compiled for AVX2 (with BMI) too, chosen at run time where the processor has it.
#[multiversion(targets("x86_64+avx2+bmi1+bmi2+popcnt+lzcnt", "x86_64+sse4.1+popcnt"))]
fn fill_block_in_lanes(
    rules: &LaneRules,
    layout: &Layout,
    high: u64,
    block: &mut [u8],
    done: &[u8],
) {
    let low_bits = layout.low_bits;
    let low_mask = (1u64 << low_bits) - 1;
    let lane_mask = (LANES - 1) as u64;
    for group in (0..block.len() / LANES).rev() {
        let outer = (high << low_bits) | (group * LANES) as u64;
        let mut best = [i16::MIN; LANES];
        let mut free = rules.full & !outer & !lane_mask;
        while free != 0 {
            let e = free.trailing_zeros();
            free &= free - 1;
            let child = outer | 1 << e;
            let start = if child >> low_bits == high {
                (child & low_mask) as usize
            } else {
                layout.position(child)
            };
            let values: &[u8] = if child >> low_bits == high {
                block
            } else {
                done
            };
            let values: &[u8; LANES] = values[start..start + LANES]
                .try_into()
                .expect("a full group");
            let [a, b] = rules.rules.others[e as usize];
            let [lanes_a, lanes_b] = rules.lanes[e as usize];
            let lanes_a = if outer & a & !lane_mask == a & !lane_mask {
                lanes_a
            } else {
                0
            };
            let lanes_b = if outer & b & !lane_mask == b & !lane_mask {
                lanes_b
            } else {
                0
            };
            for lane in 0..LANES {
                let points = (lanes_a >> lane & 1) as i16 + (lanes_b >> lane & 1) as i16;
                let value = move_value(points, values[lane] as i8 as i16);
                best[lane] = best[lane].max(value);
            }
        }
        let base = group * LANES;
        for lane in (0..LANES).rev() {
            let state = outer | lane as u64;
            let mut value = best[lane] as i32;
            let mut free = rules.full & !state & lane_mask;
            while free != 0 {
                let e = free.trailing_zeros();
                free &= free - 1;
                let child = block[base + (lane | 1 << e)] as i8 as i32;
                value = value.max(move_value(rules.rules.points(state, e) as i32, child));
            }
            block[base + lane] = if value == i16::MIN as i32 {
                0
            } else {
                value as i8 as u8
            };
        }
    }
}

/// Fills one block: states with high part `high`, low parts from all-ones down to zero.
/// Children in the same block were filled earlier in this loop; the others are in `done`.
fn fill_block<G: SubsetIndexed>(
    game: &G,
    layout: &Layout,
    high: u64,
    block: &mut [u8],
    done: &[u8],
) {
    let low_bits = layout.low_bits;
    let low_mask = (1u64 << low_bits) - 1;
    for low in (0..block.len()).rev() {
        let mask = (high << low_bits) | low as u64;
        let Ok(best) = negamax_step(game, &game.state(mask), |child| {
            let child = game.mask(child);
            debug_assert!(
                child & mask == mask && child != mask,
                "a move must add elements"
            );
            let child_value = if child >> low_bits == high {
                block[(child & low_mask) as usize]
            } else {
                done[layout.position(child)]
            };
            Ok::<_, Infallible>(child_value as i8 as i32)
        });
        block[low] = best as i8 as u8;
    }
}

/// Answers values from a finished [`SubsetTable`].
pub struct TableSolver<'a, G> {
    game: &'a G,
    table: &'a SubsetTable,
}

impl<G: SubsetIndexed> Solver<G> for TableSolver<'_, G> {
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        Ok(self.table.value_of_mask(self.game.mask(state)))
    }

    /// Every state of the table was evaluated when it was built.
    fn states_visited(&self) -> u64 {
        self.table.len() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_orders_blocks_by_decreasing_high_weight() {
        let layout = Layout::new(18);
        assert_eq!(layout.low_bits, 14);
        assert_eq!(layout.high_of_block[0], 0b1111);
        assert_eq!(*layout.high_of_block.last().unwrap(), 0);
        let sizes: Vec<usize> = layout.layers.iter().map(|l| l.len()).collect();
        assert_eq!(sizes, vec![1, 4, 6, 4, 1]);
        // Every mask has its own position.
        let mut seen = vec![false; 1 << 18];
        for mask in 0..1u64 << 18 {
            let p = layout.position(mask);
            assert!(!seen[p]);
            seen[p] = true;
        }
    }

    #[test]
    fn small_spaces_are_one_block() {
        let layout = Layout::new(5);
        assert_eq!(layout.low_bits, 5);
        assert_eq!(layout.layers, vec![0..1]);
        let big = Layout::new(40);
        assert_eq!(big.low_bits, 28);
        assert_eq!(big.layers.len(), 13);
    }
}
