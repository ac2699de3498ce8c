//! One player, best total over a window DAG: nodes 0..n in order, each node reached from any of the
//! `window` nodes before it, the total of a path being the sum of its nodes' weights.
//!
//! Streaming: weights arrive one at a time and only a monotonic deque of at most `window` entries is
//! kept (a sliding-window maximum), so the best total costs O(n) time and O(window) memory whatever the
//! window. Ties between equal totals go to the path with fewer steps. Recording one `u32` per node
//! (the step taken into it) gives the path itself.

use std::collections::VecDeque;

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

/// The best path through a window DAG, fed one weight at a time.
#[derive(Debug, Clone)]
pub struct WindowPath {
    window: u64,
    next: u64,
    /// Its back is the last node pushed.
    deque: VecDeque<Entry>,
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
            deque: VecDeque::with_capacity(window.min(1 << 16) as usize),
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
        if self
            .deque
            .front()
            .is_some_and(|e| e.node + self.window < node)
        {
            self.deque.pop_front();
        }
        let (entry, from) = match self.deque.front() {
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
        while self.deque.back().is_some_and(|e| entry.at_least(e)) {
            self.deque.pop_back();
        }
        self.deque.push_back(entry);
        Arrival {
            best: entry.best,
            steps: entry.steps,
            from,
        }
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
        let last = *self.deque.back()?;
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
