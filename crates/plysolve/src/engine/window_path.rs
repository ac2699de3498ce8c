//! One player, best total over a window DAG: nodes 0..n in order, each node reached from any of the
//! `window` nodes before it, the total of a path being the sum of its nodes' weights.
//!
//! Streaming: weights arrive one at a time and only a monotonic deque of at most `window + 1` entries
//! is kept (a sliding-window maximum), so the best total costs O(n) time and O(window) memory whatever
//! the window. The deque is a ring whose length is a power of two, so that its indices wrap with a
//! mask (this loop is most of `ply solitaire`'s time once the input is parsed). Ties between equal
//! totals go to the path with fewer steps. Recording one `u32` per node (the step taken into it) gives
//! the path itself.

/// The best way into one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrival {
    /// Best total of a path from node 0 to this node, its weight included.
    pub best: i128,
    /// Steps of that path (fewest among the best).
    pub steps: u64,
    /// The node it comes from (`None` for node 0).
    pub from: Option<u64>,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    node: u64,
    best: i128,
    steps: u64,
}

impl Entry {
    /// At least as good as `other`: a higher total, or the same total in no more steps.
    fn at_least(&self, other: &Entry) -> bool {
        (self.best, std::cmp::Reverse(self.steps)) >= (other.best, std::cmp::Reverse(other.steps))
    }
}

/// A ring slot not in use.
const EMPTY: Entry = Entry {
    node: 0,
    best: 0,
    steps: 0,
};

/// The best path through a window DAG, fed one weight at a time.
#[derive(Debug, Clone)]
pub struct WindowPath {
    window: u64,
    next: u64,
    /// The deque's ring: a power of two long, its entries `head .. head + len` (wrapping); the back
    /// is the last node pushed.
    ring: Vec<Entry>,
    head: usize,
    len: usize,
    steps_into: Option<Vec<u32>>,
}

/// The finished answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestPath {
    /// Best total from node 0 to the last node.
    pub best: i128,
    /// Steps of the best path with the fewest steps.
    pub steps: u64,
    /// The nodes of that path, if they were recorded.
    pub path: Option<Vec<u64>>,
}

impl WindowPath {
    /// An empty DAG where each node is reached from the `window` nodes before it (`window >= 1`,
    /// at most `u32::MAX`); `record` keeps what is needed to give the path (4 bytes per node).
    pub fn new(window: u64, record: bool) -> Self {
        assert!(
            (1..=u32::MAX as u64).contains(&window),
            "window out of range"
        );
        WindowPath {
            window,
            next: 0,
            ring: vec![EMPTY; (window + 1).min(1 << 16).next_power_of_two() as usize],
            head: 0,
            len: 0,
            steps_into: record.then(Vec::new),
        }
    }

    /// Stops recording and frees the record: the path will not be given, memory stays O(window).
    pub fn stop_recording(&mut self) {
        self.steps_into = None;
    }

    /// Whether the path is still being recorded.
    pub fn recording(&self) -> bool {
        self.steps_into.is_some()
    }

    /// Adds the next node with `weight` and returns the best way into it.
    #[inline(always)]
    pub fn push(&mut self, weight: i64) -> Arrival {
        let node = self.next;
        self.next += 1;
        // One node leaves the window at each step, at most.
        if self.len > 0 && self.at(0).node + self.window < node {
            self.head = (self.head + 1) & (self.ring.len() - 1);
            self.len -= 1;
        }
        let front = (self.len > 0).then(|| *self.at(0));
        let (entry, from) = match front {
            None => (
                Entry {
                    node,
                    best: weight as i128,
                    steps: 0,
                },
                None,
            ),
            Some(best) => (
                Entry {
                    node,
                    best: best.best + weight as i128,
                    steps: best.steps + 1,
                },
                Some(best.node),
            ),
        };
        if let Some(record) = &mut self.steps_into {
            record.push(from.map_or(0, |f| (node - f) as u32));
        }
        while self.len > 0 && entry.at_least(self.at(self.len - 1)) {
            self.len -= 1;
        }
        if self.len == self.ring.len() {
            self.grow();
        }
        self.len += 1;
        *self.at_mut(self.len - 1) = entry;
        Arrival {
            best: entry.best,
            steps: entry.steps,
            from,
        }
    }

    /// Doubles the ring, its entries moved to the start in order (a window longer than the first
    /// ring, whose deque filled it).
    #[cold]
    fn grow(&mut self) {
        let mut ring = vec![EMPTY; 2 * self.ring.len()];
        for (i, slot) in ring.iter_mut().take(self.len).enumerate() {
            *slot = *self.at(i);
        }
        self.ring = ring;
        self.head = 0;
    }

    /// The deque's entry `i` places from its front.
    #[inline(always)]
    fn at(&self, i: usize) -> &Entry {
        &self.ring[(self.head + i) & (self.ring.len() - 1)]
    }

    /// [`Self::at`], to write.
    #[inline(always)]
    fn at_mut(&mut self, i: usize) -> &mut Entry {
        let mask = self.ring.len() - 1;
        &mut self.ring[(self.head + i) & mask]
    }

    /// Nodes pushed so far.
    pub fn len(&self) -> u64 {
        self.next
    }

    /// Whether no node was pushed.
    pub fn is_empty(&self) -> bool {
        self.next == 0
    }

    /// The best path to the last node pushed, `None` if there is none.
    pub fn finish(self) -> Option<BestPath> {
        if self.len == 0 {
            return None;
        }
        let last = *self.at(self.len - 1);
        let path = self.steps_into.map(|record| {
            let mut nodes = vec![last.node];
            let mut node = last.node;
            while node > 0 {
                node -= record[node as usize] as u64;
                nodes.push(node);
            }
            nodes.reverse();
            nodes
        });
        Some(BestPath {
            best: last.best,
            steps: last.steps,
            path,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(weights: &[i64], window: u64) -> BestPath {
        let mut dag = WindowPath::new(window, true);
        for &w in weights {
            dag.push(w);
        }
        dag.finish().unwrap()
    }

    #[test]
    fn seed_example_takes_the_fewest_steps() {
        let best = solve(&[1, -2, 0, 9, -1, -2], 6);
        assert_eq!(best.best, 8);
        assert_eq!(best.path, Some(vec![0, 3, 5]));
        assert_eq!(best.steps, 2);
    }

    /// The same DAG by a second method: the window's best kept in an ordered multiset.
    fn by_ordered_window(weights: &[i64], window: usize) -> (i128, u64) {
        use std::cmp::Reverse;
        use std::collections::BTreeMap;
        let mut in_window: BTreeMap<(i128, Reverse<u64>), usize> = BTreeMap::new();
        let mut arrivals: Vec<(i128, u64)> = Vec::with_capacity(weights.len());
        for (i, &w) in weights.iter().enumerate() {
            if i > window {
                let (best, steps) = arrivals[i - window - 1];
                let key = (best, Reverse(steps));
                match in_window.get_mut(&key) {
                    Some(count) if *count > 1 => *count -= 1,
                    _ => {
                        in_window.remove(&key);
                    }
                }
            }
            let arrival = match in_window.keys().next_back() {
                None => (w as i128, 0),
                Some(&(best, Reverse(steps))) => (best + w as i128, steps + 1),
            };
            arrivals.push(arrival);
            *in_window
                .entry((arrival.0, Reverse(arrival.1)))
                .or_default() += 1;
        }
        *arrivals.last().unwrap()
    }

    #[test]
    fn a_deque_longer_than_the_first_ring_grows_it() {
        // Falling weights keep every node of the window in the deque: 100 001 entries, past the
        // first ring of 2^16; then mixed weights let it shrink and wrap.
        let window = 100_000;
        let weights: Vec<i64> = (0..150_000i64)
            .map(|i| -i)
            .chain((0..100_000i64).map(|i| (i * 7919) % 2001 - 1000))
            .collect();
        let got = solve(&weights, window as u64);
        assert_eq!((got.best, got.steps), by_ordered_window(&weights, window));
        let path = got.path.unwrap();
        assert_eq!(path.first(), Some(&0));
        assert_eq!(path.last(), Some(&(weights.len() as u64 - 1)));
        assert!(path
            .windows(2)
            .all(|p| p[0] < p[1] && p[1] - p[0] <= window as u64));
        let total: i128 = path.iter().map(|&n| weights[n as usize] as i128).sum();
        assert_eq!(total, got.best);
        assert_eq!(path.len() as u64 - 1, got.steps);
    }

    #[test]
    fn small_windows_agree_with_the_ordered_window() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12345);
        for window in 1..=9 {
            let weights: Vec<i64> = (0..3000).map(|_| rng.random_range(-16..16)).collect();
            let got = solve(&weights, window as u64);
            assert_eq!((got.best, got.steps), by_ordered_window(&weights, window));
        }
    }

    #[test]
    fn stopping_the_record_keeps_the_total() {
        let mut dag = WindowPath::new(2, true);
        for w in [1, -1, -2, 4, -7, 3] {
            dag.push(w);
        }
        dag.stop_recording();
        assert_eq!(
            dag.finish().unwrap(),
            BestPath {
                best: 7,
                steps: 3,
                path: None
            }
        );
        assert!(WindowPath::new(1, false).finish().is_none());
    }
}
