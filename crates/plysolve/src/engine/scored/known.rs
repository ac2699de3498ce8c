//! What is already proved of some states — a book of positions proved once and kept — consulted
//! before any solver searches: exact values are answered at once, bounds narrow what the solver
//! proves, and the search meets them wherever it reaches a known state
//! ([`SearchOptions::known`](super::search::SearchOptions::known)).

use super::restrict::FreeElements;
use super::{Contradiction, ScoredGame, SolveError, Solver, Strategy, SubsetIndexed, ValueRange};
use crate::engine::util::halt::Halted;

/// States whose values (or bounds) are known, by their element masks. Shared by a search's threads.
pub trait KnownValues: Sync {
    /// What is proved of the state with elements `mask`, if anything.
    fn range(&self, mask: u64) -> Option<ValueRange>;
    /// What the state's own entry claims, without what other states' entries imply of it: what a
    /// proof of the state is checked against (by default all that is known of it).
    fn claim(&self, mask: u64) -> Option<ValueRange> {
        self.range(mask)
    }
    /// The contradiction `proved` (of the state `mask`) makes with another state's claim that
    /// bounds it (a parent's, say), if any: a fault named where the wrong claim is.
    fn blame(&self, mask: u64, proved: ValueRange) -> Option<Contradiction> {
        let _ = (mask, proved);
        None
    }
    /// The fewest free elements of any known state: a search looks up only states with at least
    /// as many (`u32::MAX` when nothing is known).
    fn fewest_free(&self) -> u32;
    /// A move proved to keep the value of the state `mask` when that value is known exactly: the
    /// element it adds, in the state's own frame. A report then gives that move the state's value
    /// though its own subtree was not searched (`None`: no such move known).
    fn best(&self, mask: u64) -> Option<u32> {
        let _ = mask;
        None
    }
}

/// Nothing known.
pub struct NothingKnown;

impl KnownValues for NothingKnown {
    fn range(&self, _: u64) -> Option<ValueRange> {
        None
    }
    fn fewest_free(&self) -> u32 {
        u32::MAX
    }
}

/// A solver that answers from `known` first: a state known exactly is answered at once; any other
/// goes to the inner solver, its answer met with the known bounds (bounds that leave no value
/// between them are a [`SolveError::Contradiction`]: the known values are wrong). Without an inner solver, a state
/// not known exactly gets its known bounds, or those its open cells allow.
pub struct Informed<'a, 's, G: SubsetIndexed> {
    game: &'a G,
    known: &'a dyn KnownValues,
    inner: Option<&'s mut dyn Solver<G>>,
    /// Whether the inner solver was asked anything.
    searched: bool,
}

impl<'a, 's, G: SubsetIndexed> Informed<'a, 's, G> {
    /// Answers from `known`, then from `inner`.
    pub fn new(
        game: &'a G,
        known: &'a dyn KnownValues,
        inner: Option<&'s mut dyn Solver<G>>,
    ) -> Self {
        Informed {
            game,
            known,
            inner,
            searched: false,
        }
    }

    /// What is known of `state`, at least the bounds its open cells allow.
    fn bounds(&self, state: &G::State) -> ValueRange {
        let mask = self.game.mask(state);
        let open = match self.game.completion() {
            Some(rules) => FreeElements::new(rules, self.game.items(), mask).max_points() as i32,
            None => i32::MAX / 2,
        };
        let cells = ValueRange {
            lower: -open,
            upper: open,
        };
        self.known.range(mask).map_or(cells, |r| r.meet(cells))
    }

    /// `proved` (by the inner solver) of `state` met with `bounds` (what is known of it): a
    /// [`SolveError::Contradiction`] when the known values claim something of `state` that leaves
    /// no value with `proved` (bounds past the cells open are the inner solver's own fault, which
    /// the report refuses as such).
    fn met(
        &self,
        state: &G::State,
        proved: ValueRange,
        bounds: ValueRange,
    ) -> Result<ValueRange, SolveError> {
        let mask = self.game.mask(state);
        if let Some(claim) = self.known.claim(mask) {
            proved.meet_known(claim, mask, false)?;
        }
        if let Some(elsewhere) = self.known.blame(mask, proved) {
            return Err(SolveError::Contradiction(elsewhere));
        }
        Ok(proved.meet(bounds))
    }
}

impl<G: SubsetIndexed> Solver<G> for Informed<'_, '_, G> {
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError> {
        let known = self.bounds(state);
        if let Some(v) = known.value() {
            return Ok(v);
        }
        match self.inner.as_deref_mut() {
            Some(inner) => {
                self.searched = true;
                inner.value(state)
            }
            None => Err(SolveError::Halted(Halted::Cancelled)),
        }
    }

    fn states_visited(&self) -> u64 {
        self.inner.as_ref().map_or(0, |s| s.states_visited())
    }

    fn range(&mut self, state: &G::State) -> Result<ValueRange, SolveError> {
        self.range_within(state, ValueRange::FULL)
    }

    fn range_within(
        &mut self,
        state: &G::State,
        window: ValueRange,
    ) -> Result<ValueRange, SolveError> {
        let known = self.bounds(state);
        if known.value().is_some() {
            return Ok(known);
        }
        match self.inner.as_deref_mut() {
            Some(inner) => {
                self.searched = true;
                let proved = inner.range_within(state, window)?;
                self.met(state, proved, known)
            }
            None => Ok(known),
        }
    }

    fn ranges(&mut self, states: &[G::State]) -> Result<Vec<ValueRange>, SolveError> {
        let mut found: Vec<ValueRange> = states.iter().map(|s| self.bounds(s)).collect();
        let open: Vec<usize> = (0..states.len())
            .filter(|&i| found[i].value().is_none())
            .collect();
        if let (Some(inner), false) = (self.inner.as_deref_mut(), open.is_empty()) {
            self.searched = true;
            let asked: Vec<G::State> = open.iter().map(|&i| states[i]).collect();
            for (&i, range) in open.iter().zip(inner.ranges(&asked)?) {
                found[i] = self.met(&states[i], range, found[i])?;
            }
        }
        Ok(found)
    }

    fn values(&mut self, states: &[G::State]) -> Result<Vec<i32>, SolveError> {
        let ranges = self.ranges(states)?;
        ranges
            .into_iter()
            .map(|r| r.value().ok_or(SolveError::Halted(Halted::Cancelled)))
            .collect()
    }

    fn halted(&self) -> Option<Halted> {
        self.inner.as_ref().and_then(|s| s.halted())
    }

    fn answered_by(&self) -> Option<Strategy> {
        match &self.inner {
            Some(inner) if self.searched => inner.answered_by(),
            _ => Some(Strategy::Book),
        }
    }

    fn known(&self, state: &G::State) -> Option<ValueRange> {
        self.known.claim(self.game.mask(state))
    }

    fn known_best(&self, state: &G::State) -> Option<u32> {
        self.known.best(self.game.mask(state))
    }
}
