//! Negamax with a transposition store: each state is evaluated once.

use super::symmetry::Symmetries;
use super::{
    check_values_fit, negamax_step, require_acyclic_deterministic, ScoredGame, SolveError, Solver,
    SubsetIndexed,
};
use crate::engine::util::memory::{MemoryBudget, MemoryError, ZeroedBytes};
use crate::engine::util::progress::Watch;
use rustc_hash::FxHashMap;

/// Where a memo solver keeps the values it has computed.
pub trait MemoStore<G: ScoredGame> {
    /// The stored value of `state`, if any.
    fn get(&self, state: &G::State) -> Option<i32>;
    /// Stores the value of `state`; fails when the store would outgrow its budget.
    fn insert(&mut self, state: G::State, value: i32) -> Result<(), MemoryError>;
}

/// A dense array over the subset index: one byte per state, 0 = not yet known.
/// Best when the game is [`SubsetIndexed`] and `2^items` bytes fit comfortably.
pub struct DenseStore<'a, G> {
    game: &'a G,
    cells: ZeroedBytes,
}

/// Dense stores larger than this are not worth it for a memo, which touches few of their pages.
pub const DENSE_MEMO_LIMIT: u128 = 1 << 30;

impl<'a, G: SubsetIndexed> DenseStore<'a, G> {
    /// A zeroed array of `2^items` bytes, refused if over `budget`.
    pub fn new(game: &'a G, budget: MemoryBudget) -> Result<Self, SolveError> {
        let items = game.items();
        let cells = budget.zeroed_bytes(1u128 << items, || {
            format!("a memo array of 2^{items} states")
        })?;
        Ok(DenseStore { game, cells })
    }
}

impl<G: SubsetIndexed> MemoStore<G> for DenseStore<'_, G> {
    #[inline]
    fn get(&self, state: &G::State) -> Option<i32> {
        match self.cells[self.game.mask(state) as usize] {
            0 => None,
            stored => Some(stored as i32 - 128),
        }
    }

    #[inline]
    fn insert(&mut self, state: G::State, value: i32) -> Result<(), MemoryError> {
        self.cells[self.game.mask(&state) as usize] = (value + 128) as u8;
        Ok(())
    }
}

/// A hash map from state to value, for any game; checks its own growth against the budget.
pub struct HashStore<G: ScoredGame> {
    map: FxHashMap<G::State, i8>,
    budget: MemoryBudget,
}

impl<G: ScoredGame> HashStore<G> {
    /// An empty map that refuses to grow past `budget` (estimated per entry, with the map's overhead).
    pub fn new(budget: MemoryBudget) -> Self {
        HashStore {
            map: FxHashMap::default(),
            budget,
        }
    }

    /// Bytes the map holds while it grows past `len` entries: its old buckets and twice as many new
    /// ones, each bucket an entry and a control byte; a map has 8 buckets for every 7 entries,
    /// rounded up to a power of two.
    fn bytes_when_growing(len: usize) -> u128 {
        let buckets = (len as u128 * 8).div_ceil(7).max(4).next_power_of_two();
        3 * buckets * (std::mem::size_of::<(G::State, i8)>() as u128 + 1)
    }
}

impl<G: ScoredGame> MemoStore<G> for HashStore<G> {
    fn get(&self, state: &G::State) -> Option<i32> {
        self.map.get(state).map(|&v| v as i32)
    }

    fn insert(&mut self, state: G::State, value: i32) -> Result<(), MemoryError> {
        if self.map.len() == self.map.capacity() {
            let len = self.map.len();
            let needed = Self::bytes_when_growing(len);
            let what = || format!("a memo map growing past {len} states");
            self.budget.check(needed, what)?;
            self.map.try_reserve(1).map_err(|e| MemoryError::Refused {
                what: what(),
                needed,
                reason: e.to_string(),
            })?;
        }
        self.map.insert(state, value as i8);
        Ok(())
    }
}

/// A store keyed by canonical forms: symmetric states share one entry.
pub struct CanonicalStore<'a, G, S> {
    game: &'a G,
    symmetries: &'a Symmetries,
    inner: S,
}

impl<'a, G: SubsetIndexed, S: MemoStore<G>> CanonicalStore<'a, G, S> {
    /// Wraps `inner`, keying it by the canonical forms of `symmetries`.
    pub fn new(game: &'a G, symmetries: &'a Symmetries, inner: S) -> Self {
        CanonicalStore {
            game,
            symmetries,
            inner,
        }
    }

    fn canonical(&self, state: &G::State) -> G::State {
        self.game
            .state(self.symmetries.canonical(self.game.mask(state)))
    }
}

impl<G: SubsetIndexed, S: MemoStore<G>> MemoStore<G> for CanonicalStore<'_, G, S> {
    fn get(&self, state: &G::State) -> Option<i32> {
        self.inner.get(&self.canonical(state))
    }

    fn insert(&mut self, state: G::State, value: i32) -> Result<(), MemoryError> {
        let key = self.canonical(&state);
        self.inner.insert(key, value)
    }
}

/// Negamax that remembers every value it computes in a [`MemoStore`].
pub struct MemoSolver<'a, G: ScoredGame, S> {
    game: &'a G,
    store: S,
    visited: u64,
    watch: Watch<'a>,
}

impl<'a, G: ScoredGame, S: MemoStore<G>> MemoSolver<'a, G, S> {
    /// A solver for `game` keeping its values in `store` (one byte each); refuses games with chance
    /// or cycles, or whose values may not fit a byte.
    pub fn new(game: &'a G, store: S) -> Result<Self, SolveError> {
        require_acyclic_deterministic(game, "memo")?;
        check_values_fit(game)?;
        Ok(MemoSolver {
            game,
            store,
            visited: 0,
            watch: Watch::default(),
        })
    }

    /// Reports the evaluated states and stops at the halt, as `watch` says.
    pub fn with_watch(mut self, watch: Watch<'a>) -> Self {
        self.watch = watch;
        self
    }

    fn negamax(&mut self, state: &G::State) -> Result<i32, SolveError> {
        if let Some(value) = self.store.get(state) {
            return Ok(value);
        }
        self.visited += 1;
        self.watch.tick(self.visited)?;
        let game = self.game;
        let value = negamax_step(game, state, |child| self.negamax(child))?;
        self.store.insert(*state, value)?;
        Ok(value)
    }
}

impl<G: ScoredGame, S: MemoStore<G>> Solver<G> for MemoSolver<'_, G, S> {
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        self.negamax(state)
    }

    fn states_visited(&self) -> u64 {
        self.visited
    }
}
