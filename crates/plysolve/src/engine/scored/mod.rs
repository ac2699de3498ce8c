//! Two-player scored games with extra turns (the dots family), and the solvers that value them.
//!
//! The value of a state is the net number of points the player to move will still gain over the
//! opponent under perfect play, counting only what is still to come. It depends on the state alone,
//! so one table answers every game that passes through it; the score so far is kept beside the state by
//! the caller.
//!
//! Three strategies compute the same value (the lesson of the original Dots and Triangles program): [`recursion`] (plain negamax, the
//! reference), [`memo`] (negamax with a transposition store) and [`table`] (bottom-up over the whole
//! indexed state space, layer by layer in parallel). [`analysis`] turns any of them into the value of
//! every move and the best line of play.

pub mod analysis;
pub mod bounds;
pub mod choose;
pub mod fallback;
pub mod heuristic;
pub mod known;
pub mod memo;
pub mod recursion;
pub mod restrict;
pub mod search;
pub mod shared;
pub mod symmetry;
pub mod table;
pub mod table_file;
pub mod twins;

use super::util::halt::Halted;
use super::{Capabilities, MemoryError};
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

use std::convert::Infallible;
use std::hash::Hash;
use std::ops::{Add, ControlFlow, Neg};
use thiserror::Error;

/// Whether a move that scores `points` leaves its mover to move again — the extra-turn rule, stated
/// once for everything that follows turns (the analysis's line, a game's own record of play);
/// [`move_value`] is the same rule for values.
#[inline(always)]
pub fn keeps_turn(points: u32) -> bool {
    points > 0
}

/// Value of a move under Wilson's rule — the one place the extra-turn rule meets values.
///
/// A move that completes `scored > 0` cells earns them and the mover moves again, so it is worth
/// `scored + v(child)`; any other move hands the turn over, so it is worth `-v(child)`.
///
/// Generic over the integer type so that the table can apply it to many narrow lanes at once;
/// written as a select, not a branch, because whether a move scores cannot be predicted.
#[inline(always)]
pub fn move_value<V>(scored: V, child_value: V) -> V
where
    V: Copy + PartialOrd + Default + Add<Output = V> + Neg<Output = V>,
{
    let again = scored > V::default();
    let gained = scored + child_value;
    let handed_over = -child_value;
    if again {
        gained
    } else {
        handed_over
    }
}

/// One negamax step, shared by every solver that visits moves: the best [`move_value`] over the
/// children of `state`, each valued by `child_value`; 0 when the game is over. The first failure of
/// `child_value` stops the visit and is returned.
#[inline(always)]
pub fn negamax_step<G: ScoredGame, E>(
    game: &G,
    state: &G::State,
    mut child_value: impl FnMut(&G::State) -> Result<i32, E>,
) -> Result<i32, E> {
    let mut best = i32::MIN;
    let visit = game.for_each_move(state, |_, child, points| match child_value(&child) {
        Ok(value) => {
            best = best.max(move_value(points as i32, value));
            ControlFlow::Continue(())
        }
        Err(e) => ControlFlow::Break(e),
    });
    match visit {
        ControlFlow::Break(e) => Err(e),
        ControlFlow::Continue(()) if best == i32::MIN => Ok(0),
        ControlFlow::Continue(()) => Ok(best),
    }
}

/// Every move of `state` with its child and points, in the game's move order.
pub fn children<G: ScoredGame>(game: &G, state: &G::State) -> Vec<(G::Move, G::State, u32)> {
    let mut out = Vec::new();
    let _ = game.for_each_move::<Infallible, _>(state, |mv, child, points| {
        out.push((mv, child, points));
        ControlFlow::Continue(())
    });
    out
}

/// A two-player game where each move may score points, and scoring grants another move.
///
/// This is the required core: the moves of a state with their results. A game that also gives a dense
/// index ([`SubsetIndexed`]) can be solved by the [`table`] strategy.
pub trait ScoredGame: Sync {
    /// A position as far as the future is concerned (no scores, no history).
    type State: Copy + Eq + Hash + Debug + Send + Sync;
    /// A move.
    type Move: Copy + Eq + Debug;

    /// What kind of game this is; the solvers here need no chance and no cycles.
    fn capabilities(&self) -> Capabilities;

    /// An upper bound on the points still to be won from any state (the number of cells).
    fn max_points(&self) -> u32;

    /// Calls `visit(move, child, points)` for every legal move of `state`, in a fixed order, until
    /// `visit` breaks (a cut-off, a failure), and returns that break. No moves means the game is over.
    /// Implementations should not allocate: this is the solvers' hot loop.
    fn for_each_move<B, F>(&self, state: &Self::State, visit: F) -> ControlFlow<B>
    where
        F: FnMut(Self::Move, Self::State, u32) -> ControlFlow<B>;

    /// The child of one move and the points it scores, or `None` if the move is not legal in `state`.
    fn play(&self, state: &Self::State, mv: Self::Move) -> Option<(Self::State, u32)>;
}

/// An optional accelerator: states are subsets of `items()` elements (dots: the drawn edges) and every
/// move adds at least one element, so children have strictly more elements than their parent.
///
/// This gives a dense index (the subset's bitmask) in which every child comes after its parent, which
/// is what a bottom-up table needs.
pub trait SubsetIndexed: ScoredGame {
    /// Number of elements; the state space has `2^items()` states. At most 63.
    fn items(&self) -> u32;
    /// The state's bitmask.
    fn mask(&self, state: &Self::State) -> u64;
    /// The state with this bitmask.
    fn state(&self, mask: u64) -> Self::State;

    /// A further optional accelerator: the game is a *completion game*, which lets the table fill
    /// many states at once. `None` (the default) keeps the table on the general path.
    fn completion(&self) -> Option<Completion<'_>> {
        None
    }

    /// A further optional accelerator: permutations of the elements that map the rules onto
    /// themselves. Memo stores then keep one entry per class of symmetric states.
    fn symmetries(&self) -> Option<&symmetry::Symmetries> {
        None
    }

    /// A further optional accelerator: a rank for each element (lower first) that a search tries
    /// first among moves it otherwise holds equal — the dots boards rank their edges from the
    /// centre out. `None` (the default): the elements' own order.
    fn move_ranks(&self) -> Option<&[u8]> {
        None
    }

    /// A further optional accelerator for completion games: what the game knows beyond its rules
    /// ([`Theory`]), which a search may use to leave moves unsearched and value states without
    /// search. `None` (the default) searches every move of every state.
    fn theory(&self) -> Option<&dyn Theory> {
        None
    }
}

/// Knowledge of a completion game beyond its rules, stated by the game (the dots boards:
/// `games::dots::theory`) and used by the search. Each answer must be a theorem about the game: a
/// game's tests check its theory against the whole table on every state of its small boards.
pub trait Theory: Sync {
    /// The free elements of `drawn` among which an optimal move lies, or `None` when every move
    /// must be searched; `free` is the mask of free elements of `drawn`. Never empty when `Some`.
    fn candidates(&self, rules: Completion<'_>, drawn: u64, free: u64) -> Option<u64>;

    /// The exact value of `drawn` for the player to move, when the theory knows it without search.
    fn endgame_value(&self, rules: Completion<'_>, drawn: u64, free: u64) -> Option<i32>;

    /// An estimate of `drawn`'s value for the player to move, for positions past exact reach (the
    /// anytime player's evaluation, [`heuristic`]): a guess, never taken for a proof. It should be
    /// exact where [`Self::endgame_value`] is, and within the cells still open.
    fn estimate(&self, rules: Completion<'_>, drawn: u64, free: u64) -> i32;
}

/// The rules of a *completion game*, stated as data: every element not yet in the state is a legal
/// move, which adds exactly that element and scores one point for each *cell* (a set of elements) it
/// completes; each element lies in at most two cells. (Dots games are completion games; the engine
/// knows only the abstract shape.) A game returning this must play exactly by these rules: the table
/// then fills its states from this data without asking [`ScoredGame::for_each_move`].
///
/// `others[e]` holds, for each of the (up to two) cells containing element `e`, the mask of that
/// cell's other elements; a missing cell is `1 << e` (never complete while `e` is free). So a move `e`
/// from state `s` scores `(s & others[e][0] == others[e][0]) + (s & others[e][1] == others[e][1])`.
#[derive(Debug, Clone, Copy)]
pub struct Completion<'a> {
    /// Per element, the other elements of its cells.
    pub others: &'a [[u64; 2]],
}

impl Completion<'_> {
    /// Points scored by adding element `e` to the state `drawn`.
    #[inline(always)]
    pub fn points(&self, drawn: u64, e: u32) -> u32 {
        let [a, b] = self.others[e as usize];
        (drawn & a == a) as u32 + (drawn & b == b) as u32
    }
}

/// What is proved of a state's value: `lower <= value <= upper`. Exact when the two meet; a solve
/// stopped by its halt gives the bounds it reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ValueRange {
    /// A proved lower bound.
    pub lower: i32,
    /// A proved upper bound.
    pub upper: i32,
}

impl ValueRange {
    /// Every value: as a window ([`Solver::range_within`]), the question of the exact value.
    pub const FULL: ValueRange = ValueRange {
        lower: i32::MIN,
        upper: i32::MAX,
    };

    /// The range of a value known exactly.
    pub fn exact(value: i32) -> Self {
        ValueRange {
            lower: value,
            upper: value,
        }
    }

    /// The value, when the bounds meet.
    pub fn value(self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }

    /// What both ranges say (each is proved, so the value lies in both).
    pub fn meet(self, other: ValueRange) -> Self {
        ValueRange {
            lower: self.lower.max(other.lower),
            upper: self.upper.min(other.upper),
        }
    }

    /// The range of a move's value for its mover when the child's value lies in `self` and the move
    /// scores `points` (Wilson's rule, [`move_value`], on both bounds).
    pub fn after_move(self, points: u32) -> Self {
        let p = points as i32;
        if keeps_turn(points) {
            ValueRange {
                lower: p + self.lower,
                upper: p + self.upper,
            }
        } else {
            ValueRange {
                lower: -self.upper,
                upper: -self.lower,
            }
        }
    }

    /// The window a child's value must be decided in for the value of the move to it, scoring
    /// `points`, to be decided in the window `self`: the inverse of [`Self::after_move`] (a scoring
    /// move's window shifted by its points, another's negated).
    pub fn before_move(self, points: u32) -> Self {
        let p = points as i32;
        if keeps_turn(points) {
            ValueRange {
                lower: self.lower.saturating_sub(p),
                upper: self.upper.saturating_sub(p),
            }
        } else {
            ValueRange {
                lower: self.upper.saturating_neg(),
                upper: self.lower.saturating_neg(),
            }
        }
    }

    /// The next null-window test (MTD(f), Plaat et al.) to make on a value proved to lie in `self`,
    /// asked about in `window`: `Some(beta)` asks whether the value reaches `beta`; `None` when
    /// nothing is left to ask — the value is exact, or lies at or below `window.lower`, or at or
    /// above `window.upper` ([`Solver::range_within`]). The test is `guess` brought into the part of
    /// `self` the window still asks about. A value has the parity of the cells still open (they are
    /// split between the players), and so must the bounds in `self` (they start at ± the cells
    /// open): each test is at a value of that parity, so each narrows `self` by at least 2.
    pub fn next_test(self, window: ValueRange, guess: i32) -> Option<i32> {
        if self.lower >= self.upper || self.upper <= window.lower || self.lower >= window.upper {
            return None;
        }
        // The smallest value of the bounds' parity at or above `x` (`x` is above `self.lower`).
        let parity = |x: i32| x + ((x - self.lower) & 1);
        let low = (self.lower + 2).max(parity(window.lower.max(self.lower) + 1));
        let high = self.upper.min(parity(window.upper.min(self.upper)));
        Some(guess.clamp(low, high))
    }
}

/// Something that knows, or can compute, the value of any state of one game.
pub trait Solver<G: ScoredGame> {
    /// The value of `state` for the player to move.
    fn value(&mut self, state: &G::State) -> Result<i32, SolveError>;
    /// How many states this solver has evaluated so far (a recursion counts every node it visits).
    fn states_visited(&self) -> u64;
    /// The values of several states (e.g. every child of a position): one by one unless the solver
    /// can do better (the search values them in parallel).
    fn values(&mut self, states: &[G::State]) -> Result<Vec<i32>, SolveError> {
        states.iter().map(|s| self.value(s)).collect()
    }
    /// What is proved of `state`'s value: exact from a solver that finished; the bounds it reached
    /// from one that can stop part way (the search) when its halt came. A solver that cannot give
    /// bounds answers [`SolveError::Halted`] instead.
    fn range(&mut self, state: &G::State) -> Result<ValueRange, SolveError> {
        self.value(state).map(ValueRange::exact)
    }
    /// What is proved of `state`'s value when only `window` is asked about: exact where it lies
    /// strictly inside the window; otherwise possibly only a bound showing it at or below
    /// `window.lower` or at or above `window.upper` (so `t - 1..t` is the null-window test "does
    /// the value reach `t`?", and [`ValueRange::FULL`] asks for the exact value, as
    /// [`Self::range`]). The search proves no more than that (one null-window test for a null
    /// window); the other solvers give the exact value (the default). A halted search gives the
    /// bounds it reached, which may not decide the window.
    fn range_within(
        &mut self,
        state: &G::State,
        window: ValueRange,
    ) -> Result<ValueRange, SolveError> {
        let _ = window;
        self.range(state)
    }
    /// Why the solver stopped before its answers, once its halt came (only a solver that gives
    /// bounds, the search, stops without failing).
    fn halted(&self) -> Option<Halted> {
        None
    }
    /// The strategy that gave the answers when it is not the one the solver was built as (the
    /// search that gave way to the table, [`fallback`]); `None` otherwise.
    fn answered_by(&self) -> Option<Strategy> {
        None
    }
    /// [`Self::range`] for several states (e.g. every child of a position).
    fn ranges(&mut self, states: &[G::State]) -> Result<Vec<ValueRange>, SolveError> {
        let values = self.values(states)?;
        Ok(values.into_iter().map(ValueRange::exact).collect())
    }
    /// What is already known of `state` without searching (a book's entry), if anything: a report
    /// whose moves were not all proved in time still shows the position's own known value.
    fn known(&self, state: &G::State) -> Option<ValueRange> {
        let _ = state;
        None
    }
    /// A move already proved to keep `state`'s known exact value (a book's best move): the element
    /// it adds, for games of elements. A report gives it the state's value (`None`: none known).
    fn known_best(&self, state: &G::State) -> Option<u32> {
        let _ = state;
        None
    }
}

/// How values are computed: the one list every front end maps its words to (`--strategy`, the API's
/// and Python's `strategy`, in [`Strategy::name`]'s words) and the solver a report says answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// The game's policy picks one of the others for the position (the engine's rule with the
    /// game's crossovers: [`Strategy::auto`]); no solver of its own.
    #[default]
    Auto,
    /// Plain negamax: the reference, simple and slow.
    Recursion,
    /// Negamax with a transposition store.
    Memo,
    /// Bottom-up table over every state.
    Table,
    /// Bottom-up table over the states that follow from the asked position (its free elements).
    FreeTable,
    /// Alpha-beta search with a table of bounds.
    Search,
    /// Nothing computed: every value read from a book of positions proved before
    /// ([`known::Informed`]). Never asked for; named by [`Solver::answered_by`].
    #[serde(skip_deserializing)]
    Book,
}

impl Strategy {
    /// Every strategy, in the order front ends list them.
    pub const ALL: [Strategy; 7] = [
        Strategy::Auto,
        Strategy::Recursion,
        Strategy::Memo,
        Strategy::Table,
        Strategy::FreeTable,
        Strategy::Search,
        Strategy::Book,
    ];

    /// The original program's three strategies, in its order (slowest first).
    pub const ORIGINAL: [Strategy; 3] = [Strategy::Recursion, Strategy::Memo, Strategy::Table];

    /// The name users type.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Auto => "auto",
            Strategy::Recursion => "recursion",
            Strategy::Memo => "memo",
            Strategy::Table => "table",
            Strategy::FreeTable => "free-table",
            Strategy::Search => "search",
            Strategy::Book => "book",
        }
    }

    /// What it does, in a line of a front end's help.
    pub fn about(self) -> &'static str {
        match self {
            Strategy::Auto => "The fastest that fits: whole table, free-edge table or search",
            Strategy::Recursion => "Plain negamax (the original program's first technique)",
            Strategy::Memo => "Negamax with a transposition store (the original program's second)",
            Strategy::Table => {
                "Bottom-up table over every state (the original program's third), in parallel"
            }
            Strategy::FreeTable => {
                "Bottom-up table over the position's free edges only (2^free bytes), in parallel"
            }
            Strategy::Search => {
                "Alpha-beta search with a table of bounds, for positions too large for any table"
            }
            Strategy::Book => "Read from a book of positions proved before (never asked for)",
        }
    }

    /// Whether a caller may ask for it: every strategy but [`Strategy::Book`], which only names
    /// what answered.
    pub fn is_askable(self) -> bool {
        self != Strategy::Book
    }
}

/// Why a solve could not give a value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The work does not fit the memory budget (or the system refused the memory).
    #[error(transparent)]
    Memory(#[from] MemoryError),
    /// The game has a feature this solver cannot handle.
    #[error("the {solver} solver cannot handle {feature}")]
    Unsupported {
        /// Which solver refused.
        solver: &'static str,
        /// Which declared capability it cannot handle.
        feature: &'static str,
    },
    /// A solver gave a value no position can have: more net points than are left to win (only a
    /// forged table can do this; reports refuse it rather than print impossible scores).
    #[error("the solver gave the value {value} where only {left} points are left to win; its table is corrupt")]
    ImpossibleValue {
        /// The value given.
        value: i32,
        /// Points still to be won in the position.
        left: u32,
    },
    /// A solver built for one position was asked about a state that does not follow from it.
    #[error("the state asked does not follow from the position the solver was built for")]
    NotFollowing,
    /// The solve stopped before its answer (its time ran out, or it was cancelled).
    #[error(transparent)]
    Halted(#[from] Halted),
    /// The game's values do not fit the table's one-byte cells.
    #[error("values up to {max_points} points do not fit one signed byte per state")]
    ValuesTooLarge {
        /// The game's [`ScoredGame::max_points`].
        max_points: u32,
    },
    /// A book of proved positions could not be read (its one-line fault).
    #[error("{0}")]
    Book(String),
    /// What is known of a state (a book's claim) and what was proved of it leave no value between
    /// them: the known values are wrong (a front end names the book and the position).
    #[error(transparent)]
    Contradiction(#[from] Contradiction),
}

/// Known bounds of a state (a book's) that contradict what was proved of it: no value lies in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error(
    "what is known of the state {state:#x} ({}..{}) contradicts what was proved of it ({}..{})",
    .known.lower, .known.upper, .proved.lower, .proved.upper
)]
pub struct Contradiction {
    /// The state's element mask.
    pub state: u64,
    /// What the known values say of it.
    pub known: ValueRange,
    /// What was proved of it otherwise.
    pub proved: ValueRange,
    /// Whether `proved` came from known values alone (the values of its moves, all known): the
    /// known values then contradict themselves; otherwise a search proved it.
    pub by_known: bool,
}

impl ValueRange {
    /// `self` met with the `known` bounds of the state `state`, or the [`Contradiction`] when they
    /// leave no value (`by_known`: `self` came from known values alone).
    pub fn meet_known(
        self,
        known: ValueRange,
        state: u64,
        by_known: bool,
    ) -> Result<ValueRange, Contradiction> {
        let met = self.meet(known);
        if met.lower > met.upper {
            return Err(Contradiction {
                state,
                known,
                proved: self,
                by_known,
            });
        }
        Ok(met)
    }
}

/// Refuses games whose values may not fit one signed byte, the unit of every store and table.
pub(crate) fn check_values_fit<G: ScoredGame>(game: &G) -> Result<(), SolveError> {
    match game.max_points() {
        0..=127 => Ok(()),
        max_points => Err(SolveError::ValuesTooLarge { max_points }),
    }
}

/// Refuses games with chance or cycles, which negamax over a DAG would answer wrongly.
pub(crate) fn require_acyclic_deterministic<G: ScoredGame>(
    game: &G,
    solver: &'static str,
) -> Result<(), SolveError> {
    let caps = game.capabilities();
    if caps.chance {
        return Err(SolveError::Unsupported {
            solver,
            feature: "chance moves",
        });
    }
    if caps.cycles {
        return Err(SolveError::Unsupported {
            solver,
            feature: "repeating positions",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One move from 0 to 1 scoring a point; declares chance or cycles as asked.
    struct Declared(Capabilities);

    impl ScoredGame for Declared {
        type State = u8;
        type Move = ();
        fn capabilities(&self) -> Capabilities {
            self.0
        }
        fn max_points(&self) -> u32 {
            1
        }
        fn for_each_move<B, F>(&self, state: &u8, mut visit: F) -> ControlFlow<B>
        where
            F: FnMut((), u8, u32) -> ControlFlow<B>,
        {
            if *state == 0 {
                visit((), 1, 1)?
            }
            ControlFlow::Continue(())
        }
        fn play(&self, state: &u8, _: ()) -> Option<(u8, u32)> {
            (*state == 0).then_some((1, 1))
        }
    }

    #[test]
    fn tests_stay_in_the_window_and_keep_the_bounds_parity() {
        let range = |lower, upper| ValueRange { lower, upper };
        let (cells5, cells4) = (range(-5, 5), range(-4, 4));
        // The exact value asked: the guess itself, or the nearest bound's next value.
        assert_eq!(cells5.next_test(ValueRange::FULL, 1), Some(1));
        assert_eq!(range(1, 5).next_test(ValueRange::FULL, 1), Some(3));
        assert_eq!(range(-5, 1).next_test(ValueRange::FULL, 1), Some(1));
        assert_eq!(range(3, 3).next_test(ValueRange::FULL, 1), None);
        // A null window asks one test, at its upper end brought to the bounds' parity.
        assert_eq!(cells5.next_test(range(1, 2), 1), Some(3));
        assert_eq!(cells4.next_test(range(1, 2), 0), Some(2));
        assert_eq!(cells4.next_test(range(-3, -2), 4), Some(-2));
        // Decided: at or above the upper end, at or below the lower end.
        assert_eq!(range(2, 4).next_test(range(1, 2), 0), None);
        assert_eq!(range(-4, 0).next_test(range(1, 2), 0), None);
        assert_eq!(range(-4, 0).next_test(range(0, 3), 0), None);
        // A window past the bounds asks nothing more than they allow.
        assert_eq!(cells4.next_test(range(-100, 100), -7), Some(-2));
        assert_eq!(cells4.next_test(range(4, 100), 0), None);
        // The child's window of a move: shifted for a capture, negated otherwise.
        assert_eq!(range(1, 2).before_move(2), range(-1, 0));
        assert_eq!(range(1, 2).before_move(0), range(-2, -1));
        assert_eq!(range(-1, 0).after_move(2), range(1, 2));
        assert_eq!(ValueRange::FULL.before_move(0).lower, -i32::MAX);
    }

    #[test]
    fn chance_and_cycles_are_refused() {
        use super::memo::{HashStore, MemoSolver};
        use super::recursion::RecursionSolver;
        let budget = crate::engine::util::memory::MemoryBudget::new(1 << 20);
        let plain = Declared(Capabilities {
            chance: false,
            cycles: false,
        });
        assert_eq!(RecursionSolver::new(&plain).unwrap().value(&0), Ok(1));
        let dice = Declared(Capabilities {
            chance: true,
            cycles: false,
        });
        let refused = |feature| SolveError::Unsupported {
            solver: "recursion",
            feature,
        };
        assert_eq!(
            RecursionSolver::new(&dice).err(),
            Some(refused("chance moves"))
        );
        let loops = Declared(Capabilities {
            chance: false,
            cycles: true,
        });
        assert_eq!(
            RecursionSolver::new(&loops).err(),
            Some(refused("repeating positions"))
        );
        let memo = MemoSolver::new(&dice, HashStore::new(budget)).err();
        assert_eq!(
            memo,
            Some(SolveError::Unsupported {
                solver: "memo",
                feature: "chance moves"
            })
        );
    }

    #[test]
    fn wilson_rule() {
        assert_eq!(move_value(0, 3), -3);
        assert_eq!(move_value(0, -2), 2);
        assert_eq!(move_value(1, 3), 4);
        assert_eq!(move_value(2i16, -5), -3);
    }
}
