//! A search that gives way to the table of the free elements when it runs long. For a position
//! with few free elements the table is cheap and its cost known (2^free states, a fifth of a second
//! at 24), while the search, usually a hundred times faster, can on rare positions visit many times
//! as many nodes as there are states (a 24-free 5×5 position worth +23: 1.2·10^9 nodes and 41 s,
//! against the table's 0.23 s). The automatic choice searches such positions this way: at most
//! [`nodes_before_table`] nodes, then the table — never much worse than the better of the two.

use super::restrict::FreeTable;
use super::search::SearchSolver;
use super::{SolveError, Solver, Strategy, SubsetIndexed, ValueRange};
use crate::engine::util::halt::Halted;
use crate::engine::util::memory::MemoryBudget;
use crate::engine::util::progress::Watch;

/// Nodes the search may visit before the table of a position with `free` free elements takes
/// over: an eighth of its states (a node costs about what three of the table's states do, so the
/// search gives up within about 40% of the table's own time).
pub fn nodes_before_table(free: u32) -> u64 {
    1u64.checked_shl(free).unwrap_or(u64::MAX) / 8
}

/// The search of `root` and what follows it, and once it gives up at its node limit, the table of
/// `root`'s free elements.
pub struct SearchOrTable<'a, G: SubsetIndexed> {
    game: &'a G,
    root: G::State,
    search: SearchSolver<'a, G>,
    table: Option<FreeTable>,
    budget: MemoryBudget,
    watch: Watch<'a>,
}

impl<'a, G: SubsetIndexed> SearchOrTable<'a, G> {
    /// `search` (set up with a node limit), and the table of `root`'s free elements within `budget`
    /// (built, watched by `watch`, only if the search gives up).
    pub fn new(
        game: &'a G,
        root: G::State,
        search: SearchSolver<'a, G>,
        budget: MemoryBudget,
        watch: Watch<'a>,
    ) -> Self {
        SearchOrTable {
            game,
            root,
            search,
            table: None,
            budget,
            watch,
        }
    }

    /// `ask` of the search while it still answers; of the table (built now if it is not yet) once
    /// the search gave up, this time or before.
    fn answer<T>(
        &mut self,
        ask: impl Fn(&mut dyn Solver<G>) -> Result<T, SolveError>,
    ) -> Result<T, SolveError> {
        if self.searching() {
            let found = ask(&mut self.search);
            if self.searching() {
                return found;
            }
        }
        if self.table.is_none() {
            let table = FreeTable::build(self.game, &self.root, self.budget, self.watch)?;
            self.table = Some(table);
        }
        let table = self.table.as_ref().expect("built above");
        ask(&mut table.solver(self.game))
    }

    /// Whether the search still answers (it has not given up).
    fn searching(&self) -> bool {
        self.table.is_none() && !self.search.gave_up()
    }
}

impl<G: SubsetIndexed> Solver<G> for SearchOrTable<'_, G> {
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        self.answer(|solver| solver.value(state))
    }

    fn values(&mut self, states: &[G::State]) -> Result<Vec<i32>, SolveError> {
        self.answer(|solver| solver.values(states))
    }

    fn range(&mut self, state: &G::State) -> Result<ValueRange, SolveError> {
        self.answer(|solver| solver.range(state))
    }

    fn range_within(
        &mut self,
        state: &G::State,
        window: ValueRange,
    ) -> Result<ValueRange, SolveError> {
        self.answer(|solver| solver.range_within(state, window))
    }

    fn ranges(&mut self, states: &[G::State]) -> Result<Vec<ValueRange>, SolveError> {
        self.answer(|solver| solver.ranges(states))
    }

    /// The search's nodes, and the table's states once it was built.
    fn states_visited(&self) -> u64 {
        let table = self.table.as_ref().map_or(0, |t| t.len() as u64);
        self.search.states_visited() + table
    }

    fn halted(&self) -> Option<Halted> {
        if self.table.is_some() {
            None
        } else {
            self.search.halted()
        }
    }

    fn answered_by(&self) -> Option<Strategy> {
        self.table.is_some().then_some(Strategy::FreeTable)
    }
}
