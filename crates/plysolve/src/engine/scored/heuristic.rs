//! A search that estimates where no proof is in reach: iterative deepening alpha-beta over the net
//! score to a depth of turns, with the game's [`Theory`](super::Theory) valuing the leaves
//! ([`Theory::estimate`](super::Theory::estimate)), its exact endgames and capture rules applied as in the exact search, and
//! captures followed past the depth (a move that scores keeps the turn and costs no depth). It runs
//! until its halt and gives the best move of the deepest iteration it finished.
//!
//! Its scores are guesses. The anytime player asks it only where the exact search proved nothing
//! better, and only among the moves the proof allows.

use super::search::rules::Rules;
use super::search::TieOrder;
use super::SubsetIndexed;
use crate::engine::util::halt::Halt;
use rustc_hash::FxHashMap;

/// Nodes between two checks of the halt: an interior node with its leaves takes tens of µs (a dots
/// leaf's estimate 1–5 µs), so at most a few milliseconds (a front end that asks the solve to give
/// way is heard at once).
const CHECK_EVERY: u64 = 1 << 8;

/// Beyond every value (values are at most 64 cells): the open window's ends.
const INFINITY: i32 = 1 << 12;

/// Best moves remembered between iterations (for move ordering), and estimates made, at most.
const MAX_REMEMBERED: usize = 1 << 20;

/// What the deepest finished iteration found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// The element of the best move.
    pub element: u32,
    /// Its estimated value for the mover.
    pub score: i32,
    /// Turns searched ahead (captures not counted).
    pub depth: u32,
    /// Nodes searched in all iterations.
    pub nodes: u64,
}

/// The best of `candidates` (a mask of free elements of `drawn`) by iterative deepening until
/// `halt` (the first iteration always finishes), at most `max_depth` turns deep. `None` when the
/// game has no completion rules or no theory, or `candidates` is empty.
pub fn best_estimate<G: SubsetIndexed>(
    game: &G,
    drawn: u64,
    candidates: u64,
    halt: &Halt,
    max_depth: u32,
) -> Option<Estimate> {
    let completion = game.completion()?;
    let theory = game.theory()?;
    if candidates == 0 {
        return None;
    }
    let mut search = Deepening {
        rules: Rules::new(
            completion,
            game.items(),
            None,
            false,
            Some(theory),
            game.move_ranks(),
        ),
        halt,
        nodes: 0,
        stopped: false,
        check: false,
        best_moves: FxHashMap::default(),
        leaves: FxHashMap::default(),
    };
    let mut found: Option<Estimate> = None;
    for depth in 1..=max_depth.max(1) {
        search.check = depth > 1;
        match search.root(drawn, candidates, depth, found.map(|f| f.element)) {
            Some((element, score)) => {
                found = Some(Estimate {
                    element,
                    score,
                    depth,
                    nodes: search.nodes,
                });
            }
            None => break,
        }
        // Nothing deeper to see once every line ends within the depth.
        if depth >= (search.rules.full & !drawn).count_ones() {
            break;
        }
    }
    found.map(|f| Estimate {
        nodes: search.nodes,
        ..f
    })
}

/// One iterative deepening.
struct Deepening<'a> {
    rules: Rules<'a>,
    halt: &'a Halt,
    nodes: u64,
    /// Set when the halt came: the iteration's result means nothing.
    stopped: bool,
    /// Whether to check the halt (not in the first iteration, which always finishes).
    check: bool,
    /// The best move found at each state in an earlier iteration, tried first.
    best_moves: FxHashMap<u64, u8>,
    /// The estimates already made, by state: a state is reached by many orders of the same moves,
    /// and its estimate (the costly part of a node) is the same each time.
    leaves: FxHashMap<u64, i32>,
}

impl Deepening<'_> {
    /// The best of `candidates` at `depth` turns and its score, `None` if the halt came first.
    fn root(
        &mut self,
        drawn: u64,
        candidates: u64,
        depth: u32,
        first: Option<u32>,
    ) -> Option<(u32, i32)> {
        let (moves, count) = self.rules.ordered_moves(drawn, first, TieOrder::LowFirst);
        let mut listed: Vec<(u32, u32)> = moves[..count]
            .iter()
            .filter(|&&(_, e, _)| candidates >> e & 1 == 1)
            .map(|&(_, e, points)| (e, points))
            .collect();
        // Moves the theory leaves out are still played if they are all that is asked about.
        if listed.is_empty() {
            let mut rest = candidates;
            while rest != 0 {
                let e = rest.trailing_zeros();
                rest &= rest - 1;
                listed.push((e, self.rules.rules.points(drawn, e)));
            }
        }
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best = None;
        for (e, points) in listed {
            let value = self.move_value(drawn, e, points, depth as i32, alpha, beta);
            if self.stopped {
                return None;
            }
            if best.is_none_or(|(_, b)| value > b) {
                best = Some((e, value));
                alpha = alpha.max(value);
            }
        }
        if let Some((e, _)) = best {
            self.remember(drawn, e);
        }
        best
    }

    /// The value for the mover of drawing `e` (scoring `points`) in `drawn`, `depth` turns left.
    fn move_value(
        &mut self,
        drawn: u64,
        e: u32,
        points: u32,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let child = drawn | 1 << e;
        let p = points as i32;
        if p > 0 {
            p + self.search(child, depth, alpha - p, beta - p)
        } else if depth <= 1 {
            -self.leaf(child)
        } else {
            -self.search(child, depth - 1, -beta, -alpha)
        }
    }

    /// The estimate of `drawn` for the player to move, exact where the theory knows it.
    fn leaf(&mut self, drawn: u64) -> i32 {
        self.nodes += 1;
        if let Some(&value) = self.leaves.get(&drawn) {
            return value;
        }
        let theory = self.rules.theory.expect("a deepening has a theory");
        let free = self.rules.full & !drawn;
        let value = theory.estimate(self.rules.rules, drawn, free);
        if self.leaves.len() >= MAX_REMEMBERED {
            self.leaves.clear();
        }
        self.leaves.insert(drawn, value);
        value
    }

    /// Alpha-beta (fail-soft) over `drawn` with `depth` (at least 1) turns left: a move handing the
    /// turn over on the last turn is valued by the estimate of its child.
    fn search(&mut self, drawn: u64, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.check && self.nodes % CHECK_EVERY == 0 && self.halt.check().is_some() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let rules = self.rules.rules;
        let free = self.rules.full & !drawn;
        if free == 0 {
            return 0;
        }
        let theory = self.rules.theory.expect("a deepening has a theory");
        if let Some(value) = theory.endgame_value(rules, drawn, free) {
            return value;
        }
        let hint = self.best_moves.get(&drawn).map(|&e| e as u32);
        let (moves, count) = self.rules.ordered_moves(drawn, hint, TieOrder::LowFirst);
        let mut best = i32::MIN;
        let mut best_move = None;
        for &(_, e, points) in &moves[..count] {
            let value = self.move_value(drawn, e, points, depth, alpha, beta);
            if self.stopped {
                return 0;
            }
            if value > best {
                best = value;
                best_move = Some(e);
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        if let Some(e) = best_move {
            self.remember(drawn, e);
        }
        best
    }

    fn remember(&mut self, drawn: u64, e: u32) {
        if self.best_moves.len() >= MAX_REMEMBERED {
            self.best_moves.clear();
        }
        self.best_moves.insert(drawn, e as u8);
    }
}
