//! The rules as the search reads them: the completion data, the table key of a state (its normal form
//! under twins and, while many elements are free, the board's symmetries), the frames moves are kept
//! in, and the order moves are tried in.

use super::super::symmetry::Symmetries;
use super::super::twins::Twins;
use super::super::{Completion, Theory};
use super::TieOrder;

/// States with fewer free elements are keyed without the board's symmetries (twins only): a
/// symmetric transposition deeper down is reached only through one higher up, which the table
/// already merged, and the images cost a quarter of the time at every node.
const SYMMETRY_FREE: u32 = 30;

/// The rules as the search reads them.
pub(in crate::engine::scored) struct Rules<'a> {
    pub(in crate::engine::scored) rules: Completion<'a>,
    pub(super) items: u32,
    pub(in crate::engine::scored) full: u64,
    /// Per element, how many cells it lies in (interior elements are tried first).
    cells_of: Vec<u8>,
    /// The symmetries, as element permutations, with their inverses.
    symmetries: Option<&'a Symmetries>,
    perms: Vec<Vec<u8>>,
    inverses: Vec<Vec<u8>>,
    /// Twin elements (same cells): keys are in their normal form, and one move per group is
    /// searched. None when symmetries are not used.
    pub(super) twins: Twins,
    /// What the game knows beyond its rules (capture rules, endgames), when the search uses it.
    pub(in crate::engine::scored) theory: Option<&'a dyn Theory>,
    /// Per element, its rank among moves of equal priority (the game's `move_ranks`, else 0).
    ranks: Vec<u8>,
}

impl<'a> Rules<'a> {
    /// The rules of a completion game on `items` elements, keyed under `symmetries` (if any) and
    /// twins (if `use_twins`), with the game's `theory` if the search uses it and its move `ranks`.
    pub(in crate::engine::scored) fn new(
        rules: Completion<'a>,
        items: u32,
        symmetries: Option<&'a Symmetries>,
        use_twins: bool,
        theory: Option<&'a dyn Theory>,
        ranks: Option<&[u8]>,
    ) -> Self {
        let cells_of = (0..items as usize)
            .map(|e| rules.others[e].iter().filter(|&&o| o != 1 << e).count() as u8)
            .collect();
        let perms: Vec<Vec<u8>> = symmetries.map_or(Vec::new(), |s| {
            (0..s.order() - 1)
                .map(|i| {
                    (0..items)
                        .map(|e| s.image(i, 1 << e).trailing_zeros() as u8)
                        .collect()
                })
                .collect()
        });
        let inverses = perms
            .iter()
            .map(|p| {
                let mut inv = vec![0u8; p.len()];
                for (e, &image) in p.iter().enumerate() {
                    inv[image as usize] = e as u8;
                }
                inv
            })
            .collect();
        Rules {
            rules,
            items,
            full: if items == 0 {
                0
            } else {
                u64::MAX >> (64 - items)
            },
            cells_of,
            symmetries,
            perms,
            inverses,
            twins: if use_twins {
                Twins::new(rules, items)
            } else {
                Twins::default()
            },
            theory,
            ranks: ranks.map_or_else(|| vec![0; items as usize], <[u8]>::to_vec),
        }
    }

    /// The table key of `drawn` and the symmetry that gives it (`None`: the identity): the smallest
    /// normal form (twins lowest) of its images.
    #[inline]
    pub(super) fn key(&self, drawn: u64) -> (u64, Option<usize>) {
        let mut best = (self.twins.normal(drawn), None);
        if (self.full & !drawn).count_ones() < SYMMETRY_FREE {
            return best;
        }
        if let Some(s) = self.symmetries {
            for i in 0..self.perms.len() {
                let image = self.twins.normal(s.image(i, drawn));
                if image < best.0 {
                    best = (image, Some(i));
                }
            }
        }
        best
    }

    /// A move in the frame of `key`, from a move of the state (`perm` as returned by [`Self::key`]).
    pub(super) fn move_to_key_frame(&self, e: u32, perm: Option<usize>, key: u64) -> u32 {
        let image = perm.map_or(e, |p| self.perms[p][e as usize] as u32);
        self.twins.free_twin(image, key)
    }

    /// A move of the state `drawn`, from a move in its key's frame.
    pub(super) fn move_from_key_frame(&self, m: u32, perm: Option<usize>, drawn: u64) -> u32 {
        let e = perm.map_or(m, |p| self.inverses[p][m as usize] as u32);
        self.twins.free_twin(e, drawn)
    }

    /// The order of a move: higher is tried first.
    #[inline]
    pub(super) fn priority(&self, drawn: u64, e: u32, points: u32) -> u32 {
        if points > 0 {
            return 8 + points;
        }
        let after = drawn | 1 << e;
        let gives = self.rules.others[e as usize]
            .iter()
            .any(|&o| o != 1 << e && (o & !after).count_ones() == 1);
        if gives {
            0
        } else {
            1 + self.cells_of[e as usize] as u32
        }
    }

    /// The moves of `drawn` to search, best first, as (priority, element, points): all free
    /// elements, or those the theory keeps (a safe capture; captures and their double-deals), one per
    /// group of twins; `hint` (the table's best move) first, then by priority, then by the game's
    /// rank (the centre out), ties in `tie_order`.
    pub(in crate::engine::scored) fn ordered_moves(
        &self,
        drawn: u64,
        hint: Option<u32>,
        tie_order: TieOrder,
    ) -> ([(u32, u32, u32); 64], usize) {
        let mut moves = [(0u32, 0u32, 0u32); 64];
        let mut count = 0;
        let mut free = self.full & !drawn;
        if let Some(kept) = self
            .theory
            .and_then(|t| t.candidates(self.rules, drawn, free))
        {
            free = kept;
        }
        free = self.twins.distinct_moves(free);
        while free != 0 {
            let e = free.trailing_zeros();
            free &= free - 1;
            let points = self.rules.points(drawn, e);
            let priority = if Some(e) == hint {
                u32::MAX
            } else {
                self.priority(drawn, e, points)
            };
            moves[count] = (priority, e, points);
            count += 1;
        }
        let ties = match tie_order {
            TieOrder::LowFirst => |a: u32, b: u32| a.cmp(&b),
            TieOrder::HighFirst => |a: u32, b: u32| b.cmp(&a),
        };
        let rank = |e: u32| self.ranks[e as usize];
        moves[..count].sort_unstable_by(|a, b| {
            b.0.cmp(&a.0)
                .then(rank(a.1).cmp(&rank(b.1)))
                .then(ties(a.1, b.1))
        });
        (moves, count)
    }
}
