//! Tables over the free elements of one position.
//!
//! A position of a completion game with `f` free elements is itself a completion game on `f`
//! elements: each cell becomes the subset of its elements that are still free (a cell with no free
//! element is done and plays no further part), and a move scores the cells whose free elements it
//! completes. [`FreeElements`] is that smaller game; its whole [`SubsetTable`] (`2^f` bytes, filled by the
//! same parallel layers and lane path as any table) values the position and every state that follows
//! from it: the value of a state is the restricted game's value at the state's free elements.
//!
//! A 28-free position of a 40-edge board thus needs 256 MiB instead of the whole board's 1 TiB.

use super::table::SubsetTable;
use super::{move_value, Completion, ScoredGame, SolveError, Solver, SubsetIndexed};
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::Watch;
use crate::engine::Capabilities;
use std::ops::ControlFlow;

/// The completion game left on the free elements of one position of a larger completion game.
///
/// Element `i` of this game is the `i`-th free element of the position (in increasing order); a state
/// is the bitmask of the free elements drawn since the position.
#[derive(Debug, Clone)]
pub struct FreeElements {
    /// The elements drawn in the position.
    base: u64,
    /// The elements free in the position.
    free: u64,
    /// Per element of this game, the other free elements of each of its cells, in this game's numbering
    /// (a missing cell is the element itself, as in [`Completion`]).
    others: Vec<[u64; 2]>,
    /// The cells that still have a free element.
    cells: u32,
}

impl FreeElements {
    /// The game left after `base` in a game played by the completion `rules` over `items` elements.
    pub fn new(rules: Completion<'_>, items: u32, base: u64) -> Self {
        let all = if items == 0 {
            0
        } else {
            u64::MAX >> (64 - items)
        };
        let free = all & !base;
        let mut cells = Vec::new();
        let others = elements_of(free)
            .map(|e| {
                rules.others[e as usize].map(|other| {
                    if other == 1 << e {
                        // No cell on this side: the element itself, never complete while it is free.
                        return gather(1 << e, free);
                    }
                    let cell = other | 1 << e;
                    if !cells.contains(&cell) {
                        cells.push(cell);
                    }
                    gather(other & free, free)
                })
            })
            .collect();
        FreeElements {
            base,
            free,
            others,
            cells: cells.len() as u32,
        }
    }

    /// The restricted game of `state` in `game`, or `None` if the game states no completion rules.
    pub fn of<G: SubsetIndexed>(game: &G, state: &G::State) -> Option<Self> {
        let rules = game.completion()?;
        Some(Self::new(rules, game.items(), game.mask(state)))
    }

    /// Number of free elements: the restricted game has `2^free_count()` states.
    pub fn free_count(&self) -> u32 {
        self.free.count_ones()
    }

    /// The restricted state of a state of the original game (given as its bitmask), or `None` if that
    /// state does not follow from the position (it lacks one of the position's drawn elements).
    pub fn restrict(&self, mask: u64) -> Option<u64> {
        (mask & self.base == self.base).then(|| gather(mask, self.free))
    }

    /// The original element behind element `i` of the restricted game.
    pub fn original(&self, i: u32) -> u32 {
        elements_of(self.free)
            .nth(i as usize)
            .expect("an element of the restricted game")
    }
}

/// The elements of a bitmask, in increasing order.
fn elements_of(mask: u64) -> impl Iterator<Item = u32> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let e = rest.trailing_zeros();
            rest &= rest - 1;
            e
        })
    })
}

/// The bits of `mask` at the positions of `select`'s elements, packed together (`pext`).
fn gather(mask: u64, select: u64) -> u64 {
    elements_of(select)
        .enumerate()
        .fold(0, |packed, (i, e)| packed | (mask >> e & 1) << i)
}

impl ScoredGame for FreeElements {
    type State = u64;
    type Move = u32;

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            chance: false,
            cycles: false,
        }
    }

    fn max_points(&self) -> u32 {
        self.cells
    }

    #[inline]
    fn for_each_move<B, F>(&self, state: &u64, mut visit: F) -> ControlFlow<B>
    where
        F: FnMut(u32, u64, u32) -> ControlFlow<B>,
    {
        let rules = Completion {
            others: &self.others,
        };
        for e in elements_of(self.full() & !state) {
            visit(e, state | 1 << e, rules.points(*state, e))?;
        }
        ControlFlow::Continue(())
    }

    fn play(&self, state: &u64, mv: u32) -> Option<(u64, u32)> {
        let legal = mv < self.items() && state >> mv & 1 == 0;
        let rules = Completion {
            others: &self.others,
        };
        legal.then(|| (state | 1 << mv, rules.points(*state, mv)))
    }
}

impl FreeElements {
    fn full(&self) -> u64 {
        (1u64 << self.items()) - 1
    }

    /// The value of the position (the restricted game's empty state), by filling the `2^f` states
    /// one thread, one state at a time, in `scratch` (reused between calls): for the small endgames
    /// of a search, where setting up a parallel [`SubsetTable`] costs more than filling it. Every
    /// child has more elements, so a pass from the full state down finds every child filled.
    pub fn value_by_serial_fill(&self, scratch: &mut Vec<i8>) -> i32 {
        let rules = Completion {
            others: &self.others,
        };
        let full = self.full();
        scratch.clear();
        scratch.resize(1 << self.items(), 0);
        for state in (0..full).rev() {
            let mut best = i32::MIN;
            for e in elements_of(full & !state) {
                let child = scratch[(state | 1 << e) as usize] as i32;
                best = best.max(move_value(rules.points(state, e) as i32, child));
            }
            scratch[state as usize] = best as i8;
        }
        scratch[0] as i32
    }
}

impl SubsetIndexed for FreeElements {
    fn items(&self) -> u32 {
        self.others.len() as u32
    }

    fn mask(&self, state: &u64) -> u64 {
        *state
    }

    fn state(&self, mask: u64) -> u64 {
        mask
    }

    fn completion(&self) -> Option<Completion<'_>> {
        Some(Completion {
            others: &self.others,
        })
    }
}

/// The table of one position's free elements: values that position and every state following from it.
pub struct FreeTable {
    game: FreeElements,
    table: SubsetTable,
}

impl FreeTable {
    /// Bytes the table of a position with `free` free elements needs.
    pub fn bytes_needed(free: u32) -> u128 {
        SubsetTable::bytes_needed(free)
    }

    /// Builds the table of `state`'s free elements in `game`, refusing before any allocation when
    /// `2^free` bytes exceed `budget`. Games without completion rules are refused as unsupported.
    pub fn build<G: SubsetIndexed>(
        game: &G,
        state: &G::State,
        budget: MemoryBudget,
        watch: Watch<'_>,
    ) -> Result<Self, SolveError> {
        let restricted = FreeElements::of(game, state).ok_or(SolveError::Unsupported {
            solver: "free-table",
            feature: "moves not stated as completion rules",
        })?;
        let table = SubsetTable::build(&restricted, budget, watch)?;
        Ok(FreeTable {
            game: restricted,
            table,
        })
    }

    /// The value of the state with bitmask `mask` of the original game, or `None` if it does not
    /// follow from the position the table was built for.
    pub fn value_of_mask(&self, mask: u64) -> Option<i32> {
        self.game
            .restrict(mask)
            .map(|r| self.table.value_of_mask(r))
    }

    /// Number of states in the table.
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Always false: a table holds at least the position itself.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// A solver answering from this table for the states of `game` that follow from its position.
    pub fn solver<'a, G: SubsetIndexed>(&'a self, game: &'a G) -> FreeTableSolver<'a, G> {
        FreeTableSolver { game, table: self }
    }
}

/// Answers values from a [`FreeTable`].
pub struct FreeTableSolver<'a, G> {
    game: &'a G,
    table: &'a FreeTable,
}

impl<G: SubsetIndexed> Solver<G> for FreeTableSolver<'_, G> {
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        self.table
            .value_of_mask(self.game.mask(state))
            .ok_or(SolveError::NotFollowing)
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
    fn gathers_selected_bits() {
        assert_eq!(gather(0b1010_1100, 0b1111_0000), 0b1010);
        assert_eq!(gather(0b1010_1100, 0b0101_0101), 0b0010);
        assert_eq!(gather(u64::MAX, 0), 0);
    }

    #[test]
    fn cells_shrink_to_their_free_elements() {
        // Two cells {0,1,2} and {2,3,4}; elements 0 and 3 drawn: free are 1, 2, 4 (new 0, 1, 2).
        let others = [
            [0b00110, 0b00001],
            [0b00101, 0b00010],
            [0b00011, 0b11000],
            [0b10100, 0b01000],
            [0b01100, 0b10000],
        ];
        let game = FreeElements::new(Completion { others: &others }, 5, 0b01001);
        assert_eq!(game.items(), 3);
        assert_eq!(game.max_points(), 2);
        // New 0 (old 1): its cell {0,1,2} needs old 2 (new 1); no second cell.
        assert_eq!(game.others[0], [0b010, 0b001]);
        // New 1 (old 2): cells need new 0, and old 4 (new 2).
        assert_eq!(game.others[1], [0b001, 0b100]);
        assert_eq!(game.restrict(0b11011), Some(0b101));
        assert_eq!(game.restrict(0b10011), None);
        assert_eq!(game.original(2), 4);
        // Drawing old 2 when old 1 and old 4 are drawn scores both cells.
        assert_eq!(game.play(&0b101, 1), Some((0b111, 2)));
        // Whoever draws first hands both cells over: -2, as the parallel table says.
        let table =
            SubsetTable::build(&game, MemoryBudget::new(1 << 20), Watch::default()).unwrap();
        assert_eq!(table.value_of_mask(0), -2);
        assert_eq!(game.value_by_serial_fill(&mut Vec::new()), -2);
    }
}
