//! One player, reachability on a graph with cycles: can a start reach the goal, and by which shortest
//! path. The game states only its moves ([`Puzzle::successors`]); nothing here knows a board.
//!
//! Two methods:
//! - [`shortest_path`]: breadth-first search forward from the start, one layer at a time, the layers
//!   kept as bitsets and visited in state order. Each state's parent is the first state of the previous
//!   layer (in state order) that reaches it, so the path is canonical: read backward from the goal,
//!   every step goes to the smallest-numbered state one move closer to the start. Each layer also
//!   keeps the list of its words that hold a state, so a layer costs the states in it, not the whole
//!   bitset: the search is O(states + moves) however many layers the path has
//!   ([`shortest_path_work`]), and it obeys a halt ([`shortest_path_until`]).
//! - [`Verdicts`]: depth-first searches forward from each start that share what they learn (states that
//!   reach the goal, states that cannot), for millions of small puzzles a second.

use super::util::cost::Meter;
use super::util::halt::{Halt, Halted, NEVER};
use super::util::memory::{try_grow, try_vec, MemoryBudget, MemoryError};

/// A one-player puzzle on states `0..states()`, moves given by their successors.
pub trait Puzzle: Sync {
    /// Number of states.
    fn states(&self) -> usize;
    /// Calls `visit` for each state one move away from `state` (repeats allowed).
    fn successors(&self, state: usize, visit: impl FnMut(usize));
}

/// An optional accelerator, present exactly when implemented: the moves read backward.
/// [`Verdicts::reach_with_predecessors`] (which only a puzzle with this trait can call) then searches
/// backward from the goal a little first. There is no default: a puzzle without it is searched
/// forward only, never with an empty backward list.
///
/// ```compile_fail
/// use plysolve::engine::reach::{Puzzle, Verdicts};
/// struct Line;
/// impl Puzzle for Line {
///     fn states(&self) -> usize { 2 }
///     fn successors(&self, s: usize, mut visit: impl FnMut(usize)) { if s == 0 { visit(1) } }
/// }
/// // Line does not list predecessors, so the backward search is not there to call.
/// Verdicts::default().reach_with_predecessors(&Line, &[0], 1);
/// ```
pub trait Predecessors: Puzzle {
    /// Calls `visit` for each state one move before `state`: exactly the `s` with `state` among
    /// [`Puzzle::successors`]`(s)` (repeats allowed).
    fn predecessors(&self, state: usize, visit: impl FnMut(usize));
}

/// Bytes per state one [`shortest_path`] search needs: a 4-byte parent, three bits of layers, and
/// the lists of the words of two layers that hold a state (4 bytes a word of 64 states: a bit a
/// state) — 36 bits, counted as 40.
pub const BYTES_PER_STATE: u128 = 5;

/// The work of one [`shortest_path`] search on a puzzle of `states` states with at most `moves`
/// moves a state, in state-visits: each state cleared and visited at most once, each move looked
/// at once. Its speed is the puzzle's to measure.
pub fn shortest_path_work(states: usize, moves: u32) -> u128 {
    states as u128 * (2 + moves as u128)
}

/// Why a search gave no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchStop {
    /// Over the memory budget, or refused by the system.
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// The halt came first.
    #[error(transparent)]
    Halted(#[from] Halted),
}

/// The canonical shortest path from `start` to `goal` (both included), or `None` if the goal cannot
/// be reached. Refuses first if the search would exceed `budget`.
pub fn shortest_path<P: Puzzle>(
    puzzle: &P,
    start: usize,
    goal: usize,
    budget: MemoryBudget,
) -> Result<Option<Vec<usize>>, MemoryError> {
    shortest_path_until(puzzle, start, goal, budget, &NEVER).map_err(|e| match e {
        SearchStop::Memory(e) => e,
        SearchStop::Halted(_) => unreachable!("a search without a halt is never halted"),
    })
}

/// States visited between two checks of the halt: well under a millisecond.
const STATES_PER_CHECK: u64 = 1 << 14;

/// [`shortest_path`], stopped when `halt` comes (checked every few thousand states).
pub fn shortest_path_until<P: Puzzle>(
    puzzle: &P,
    start: usize,
    goal: usize,
    budget: MemoryBudget,
    halt: &Halt,
) -> Result<Option<Vec<usize>>, SearchStop> {
    let n = puzzle.states();
    let what = || format!("a search over {n} states");
    budget.check(n as u128 * BYTES_PER_STATE, what)?;
    let words = n.div_ceil(64);
    let mut seen = try_vec(words, 0u64, what)?;
    let mut layer = try_vec(words, 0u64, what)?;
    let mut next = try_vec(words, 0u64, what)?;
    let mut parent = try_vec(n, 0u32, what)?;
    // The words of `layer` and `next` that hold a state (room for every word, asked for up front).
    let mut layer_words = try_vec(words, 0u32, what)?;
    let mut next_words = try_vec(words, 0u32, what)?;
    layer_words.clear();
    next_words.clear();
    let mark = |set: &mut [u64], s: usize| set[s >> 6] |= 1 << (s & 63);
    mark(&mut seen, start);
    mark(&mut layer, start);
    layer_words.push((start >> 6) as u32);
    let mut meter = Meter::new(halt, STATES_PER_CHECK);
    let mut found = start == goal;
    while !found && !layer_words.is_empty() {
        'scan: for &w in &layer_words {
            let w = w as usize;
            let mut bits = layer[w];
            while bits != 0 {
                let s = w << 6 | bits.trailing_zeros() as usize;
                bits &= bits - 1;
                puzzle.successors(s, |t| {
                    if seen[t >> 6] >> (t & 63) & 1 == 0 {
                        mark(&mut seen, t);
                        if next[t >> 6] == 0 {
                            next_words.push((t >> 6) as u32);
                        }
                        mark(&mut next, t);
                        parent[t] = s as u32;
                        found |= t == goal;
                    }
                });
                if found {
                    break 'scan;
                }
                meter.spend(1)?;
            }
        }
        for &w in &layer_words {
            layer[w as usize] = 0;
        }
        std::mem::swap(&mut layer, &mut next);
        std::mem::swap(&mut layer_words, &mut next_words);
        next_words.clear();
        // In state order, so that a state's parent is the first state before it that reaches it.
        layer_words.sort_unstable();
    }
    if !found {
        return Ok(None);
    }
    let mut path = vec![goal];
    let mut at = goal;
    while at != start {
        at = parent[at] as usize;
        path.push(at);
    }
    path.reverse();
    Ok(Some(path))
}

/// Reusable scratch space for fast yes/no answers on many small puzzles.
///
/// Marks are stamped with a per-call base, so nothing is cleared between puzzles: a mark below the base
/// is stale. Above it: `GOOD` (reaches the goal), `BAD` (cannot), or `SEEN + i` (seen by the search
/// from the i-th start).
#[derive(Debug, Default, Clone)]
pub struct Verdicts {
    marks: Vec<u32>,
    base: u32,
    stack: Vec<u32>,
    trail: Vec<u32>,
    parent: Vec<u32>,
}

const GOOD: u32 = 0;
const BAD: u32 = 1;
const SEEN: u32 = 2;

/// States the backward search from the goal may collect before the forward searches take over.
const BACKWARD_LIMIT: usize = 24;

/// Bytes per state [`Verdicts`] may need: a mark, a parent, and a place on the stack and the trail.
pub const VERDICT_BYTES_PER_STATE: u128 = 16;

impl Verdicts {
    /// Makes room for puzzles of up to `states` states, so that [`Self::reach`] allocates nothing;
    /// reports an allocator failure instead of aborting.
    pub fn reserve(&mut self, states: usize) -> Result<(), MemoryError> {
        let needed = states as u128 * VERDICT_BYTES_PER_STATE;
        let what = || format!("a search over {states} states");
        for list in [
            &mut self.marks,
            &mut self.stack,
            &mut self.trail,
            &mut self.parent,
        ] {
            let more = states.saturating_sub(list.len());
            try_grow(list, more as u128, needed, what)?;
        }
        Ok(())
    }

    /// Whether each of `starts` can reach `goal`, by forward searches only: searches from later
    /// starts stop at states an earlier search showed to reach the goal, and skip states it showed
    /// cannot.
    pub fn reach<P: Puzzle>(&mut self, puzzle: &P, starts: &[usize], goal: usize) -> Vec<bool> {
        self.begin(puzzle, starts, goal);
        self.forward(puzzle, starts)
    }

    /// Whether each of `starts` can reach `goal`, for puzzles that list predecessors: the states
    /// that reach the goal are first collected backward, up to `BACKWARD_LIMIT` (24); if there are no
    /// more, the answer is read off, otherwise they are targets for the forward searches of
    /// [`Self::reach`].
    pub fn reach_with_predecessors<P: Predecessors>(
        &mut self,
        puzzle: &P,
        starts: &[usize],
        goal: usize,
    ) -> Vec<bool> {
        self.begin(puzzle, starts, goal);
        if self.backward(puzzle, goal) {
            let good = self.base + GOOD;
            return starts.iter().map(|&s| self.marks[s] == good).collect();
        }
        self.forward(puzzle, starts)
    }

    /// Stamps a fresh base for one puzzle and marks its goal good.
    fn begin<P: Puzzle>(&mut self, puzzle: &P, starts: &[usize], goal: usize) {
        let n = puzzle.states();
        let span = SEEN + starts.len() as u32 + 1;
        if self.marks.len() < n || self.base.checked_add(2 * span).is_none() {
            self.marks.clear();
            self.marks.resize(n, 0);
            self.base = 0;
        }
        self.base += span;
        self.parent.resize(n, 0);
        self.marks[goal] = self.base + GOOD;
    }

    /// The forward search from each start in turn.
    fn forward<P: Puzzle>(&mut self, puzzle: &P, starts: &[usize]) -> Vec<bool> {
        (0..starts.len())
            .map(|i| self.search(puzzle, starts[i], i as u32))
            .collect()
    }

    /// Marks good the states that reach `goal`, breadth-first backward, stopping after
    /// `BACKWARD_LIMIT` states. Returns whether it found them all.
    fn backward<P: Predecessors>(&mut self, puzzle: &P, goal: usize) -> bool {
        let good = self.base + GOOD;
        self.stack.clear();
        self.stack.push(goal as u32);
        let mut head = 0;
        while head < self.stack.len() {
            if self.stack.len() > BACKWARD_LIMIT {
                return false;
            }
            let t = self.stack[head] as usize;
            head += 1;
            let (marks, stack) = (&mut self.marks, &mut self.stack);
            puzzle.predecessors(t, |s| {
                if marks[s] != good {
                    marks[s] = good;
                    stack.push(s as u32);
                }
            });
        }
        true
    }

    /// Depth-first search from `start`. On success the states of the path found become good; on
    /// failure every state seen becomes bad (all it reaches was seen or already bad).
    fn search<P: Puzzle>(&mut self, puzzle: &P, start: usize, index: u32) -> bool {
        let (base, seen) = (self.base, self.base + SEEN + index);
        match self.marks[start] {
            m if m == base + GOOD => return true,
            m if m == base + BAD => return false,
            _ => {}
        }
        self.stack.clear();
        self.trail.clear();
        self.stack.push(start as u32);
        self.marks[start] = seen;
        while let Some(s) = self.stack.pop() {
            self.trail.push(s);
            let mut hit = false;
            let (marks, stack, parent) = (&mut self.marks, &mut self.stack, &mut self.parent);
            puzzle.successors(s as usize, |t| {
                let m = marks[t];
                if hit || m == seen || m == base + BAD {
                    return;
                }
                if m == base + GOOD {
                    hit = true;
                    return;
                }
                marks[t] = seen;
                parent[t] = s;
                stack.push(t as u32);
            });
            if hit {
                let mut at = s as usize;
                loop {
                    self.marks[at] = base + GOOD;
                    if at == start {
                        return true;
                    }
                    at = self.parent[at] as usize;
                }
            }
        }
        for &s in &self.trail {
            self.marks[s as usize] = base + BAD;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States 0..6: 0→1→2→3 (goal 3), 4→4 (a loop), 5→0, 2→0 (a cycle).
    struct Toy;

    impl Puzzle for Toy {
        fn states(&self) -> usize {
            6
        }
        fn successors(&self, s: usize, mut visit: impl FnMut(usize)) {
            match s {
                0 => visit(1),
                1 => visit(2),
                2 => {
                    visit(0);
                    visit(3)
                }
                4 => visit(4),
                5 => visit(0),
                _ => {}
            }
        }
    }

    #[test]
    fn paths_and_verdicts() {
        let budget = MemoryBudget::new(1 << 20);
        assert_eq!(
            shortest_path(&Toy, 5, 3, budget),
            Ok(Some(vec![5, 0, 1, 2, 3]))
        );
        assert_eq!(shortest_path(&Toy, 4, 3, budget), Ok(None));
        assert_eq!(shortest_path(&Toy, 3, 3, budget), Ok(Some(vec![3])));
        let mut v = Verdicts::default();
        assert_eq!(
            v.reach(&Toy, &[4, 5, 0, 3], 3),
            vec![false, true, true, true]
        );
        assert!(shortest_path(&Toy, 5, 3, MemoryBudget::new(10)).is_err());
    }

    /// A line of a million states: as many layers as states, each of one state.
    struct LongLine;

    impl Puzzle for LongLine {
        fn states(&self) -> usize {
            1_000_000
        }
        fn successors(&self, s: usize, mut visit: impl FnMut(usize)) {
            // Forward one, and back to the start from the odd states (a second way in, later).
            if s + 1 < self.states() {
                visit(s + 1);
            }
            if s % 2 == 1 {
                visit(0);
            }
        }
    }

    #[test]
    fn a_path_of_a_million_layers() {
        // The whole bitset scanned for each layer would be 10^6 · 15 625 words; the layers' own
        // words are one each.
        let budget = MemoryBudget::new(1 << 30);
        let path = shortest_path(&LongLine, 0, 999_999, budget)
            .unwrap()
            .unwrap();
        assert_eq!(path.len(), 1_000_000);
        assert!(path.iter().enumerate().all(|(i, &s)| i == s));
        let past = Halt::after(std::time::Duration::ZERO);
        assert_eq!(
            shortest_path_until(&LongLine, 0, 999_999, budget, &past),
            Err(SearchStop::Halted(Halted::TimeLimit { millis: 0 }))
        );
    }

    /// The line 0→1→2 (goal 2). Before predecessors became a trait of their own, a puzzle could
    /// claim them (a flag) yet keep a do-nothing default list, and then both starts were called
    /// unreachable; now the backward search needs the list itself.
    struct Line;

    impl Puzzle for Line {
        fn states(&self) -> usize {
            3
        }
        fn successors(&self, s: usize, mut visit: impl FnMut(usize)) {
            if s < 2 {
                visit(s + 1)
            }
        }
    }

    impl Predecessors for Line {
        fn predecessors(&self, s: usize, mut visit: impl FnMut(usize)) {
            if s > 0 {
                visit(s - 1)
            }
        }
    }

    #[test]
    fn a_line_reaches_its_end() {
        let mut v = Verdicts::default();
        assert_eq!(v.reach(&Line, &[0, 1], 2), vec![true, true]);
        assert_eq!(
            v.reach_with_predecessors(&Line, &[0, 1], 2),
            vec![true, true]
        );
        assert_eq!(
            v.reach_with_predecessors(&Line, &[0, 2], 1),
            vec![true, false]
        );
    }
}
