//! A brute-force reference for lowest-heap Nim: the explicit game tree, searched without memo and
//! written without anything from the product (not its closed form, not its `LowestHeapGame`, not the
//! engine's solver), so that the library's answers are checked by a second, independent method.
//!
//! Every state is searched in full, so the reference is meant for small configurations only (a few
//! heaps of a few counters: the tree doubles with every counter).

/// A state: the 0-based index of the lowest non-empty heap (`sizes.len()` once all are empty) and
/// the counters left in it; the heaps above it are untouched.
pub type State = (usize, u64);

/// Who wins a state (the player to move or not) and in how many moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Solved {
    /// Whether the player to move wins.
    pub wins: bool,
    /// Moves left when the winner hurries and the loser delays.
    pub remoteness: u64,
}

/// The starting state of `sizes`.
pub fn start(sizes: &[u64]) -> State {
    (0, sizes[0])
}

/// The state after taking `take` counters from the lowest non-empty heap of `state`.
pub fn after(sizes: &[u64], (heap, left): State, take: u64) -> State {
    assert!(heap < sizes.len() && (1..=left).contains(&take));
    if take < left {
        (heap, left - take)
    } else {
        (heap + 1, sizes.get(heap + 1).copied().unwrap_or(0))
    }
}

/// Every state one move away.
fn children(sizes: &[u64], state: State) -> Vec<State> {
    if state.0 == sizes.len() {
        return Vec::new();
    }
    (1..=state.1)
        .map(|take| after(sizes, state, take))
        .collect()
}

/// Win/lose and remoteness: at the end the player to move has lost under normal play and won under
/// misère play; a win is one more than its fastest losing child, a loss one more than its slowest
/// child.
pub fn solve(sizes: &[u64], state: State, misere: bool) -> Solved {
    let kids = children(sizes, state);
    if kids.is_empty() {
        return Solved {
            wins: misere,
            remoteness: 0,
        };
    }
    let solved: Vec<Solved> = kids.iter().map(|&c| solve(sizes, c, misere)).collect();
    match solved
        .iter()
        .filter(|s| !s.wins)
        .map(|s| s.remoteness)
        .min()
    {
        Some(fastest) => Solved {
            wins: true,
            remoteness: fastest + 1,
        },
        None => Solved {
            wins: false,
            remoteness: solved.iter().map(|s| s.remoteness).max().unwrap() + 1,
        },
    }
}

/// The Grundy value under normal play: the least value no move reaches.
pub fn grundy(sizes: &[u64], state: State) -> u64 {
    let seen: Vec<u64> = children(sizes, state)
        .into_iter()
        .map(|c| grundy(sizes, c))
        .collect();
    (0..).find(|g| !seen.contains(g)).unwrap()
}

/// The take from heap 1 that wins fastest (it leaves a loss one move shorter), if the first player
/// wins. Asserts that there is exactly one: in this game the best winning move is unique, so the
/// library's move can be compared with `==`.
pub fn winning_take(sizes: &[u64], misere: bool) -> Option<u64> {
    let truth = solve(sizes, start(sizes), misere);
    if !truth.wins {
        return None;
    }
    let takes: Vec<u64> = (1..=sizes[0])
        .filter(|&t| {
            let child = solve(sizes, after(sizes, start(sizes), t), misere);
            !child.wins && child.remoteness + 1 == truth.remoteness
        })
        .collect();
    assert_eq!(takes.len(), 1, "one best winning take in {sizes:?}");
    Some(takes[0])
}

/// Every configuration of 1 to `heaps` heaps, each of 1 to `size` counters: `size + size² + … +
/// size^heaps` of them, shortest first.
pub fn configurations(heaps: usize, size: u64) -> Vec<Vec<u64>> {
    let mut all: Vec<Vec<u64>> = Vec::new();
    let mut layer: Vec<Vec<u64>> = vec![Vec::new()];
    for _ in 0..heaps {
        layer = layer
            .iter()
            .flat_map(|prefix| {
                (1..=size).map(move |s| {
                    let mut next = prefix.clone();
                    next.push(s);
                    next
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}
