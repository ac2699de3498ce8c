//! Twin elements of a completion game: elements lying in exactly the same cells.
//!
//! Swapping two such elements maps every cell onto itself, so it maps the rules onto themselves: a
//! state and its image have the same value, and in a state where both are free, drawing one is worth
//! what drawing the other is. On a dots board the two outer edges of a corner box are twins (Barker
//! and Korf's corner symmetry), whatever the rest of the board holds. Unlike the board's symmetries
//! these act on each group of twins alone, so every state has one *normal* form: in each group, the
//! drawn elements moved to the group's lowest.

use super::Completion;

/// The groups of twin elements of one game (groups of two or more).
#[derive(Debug, Clone, Default)]
pub struct Twins {
    /// Each group, as a mask of its elements.
    groups: Vec<u64>,
    /// Per element, the mask of its group (0 when it has no twin).
    group_of: Vec<u64>,
}

impl Twins {
    /// The twins of the completion game `rules` on `items` elements.
    pub fn new(rules: Completion<'_>, items: u32) -> Self {
        // An element's cells, each as its whole mask (0 for a missing cell), in a fixed order.
        let cells = |e: usize| {
            let mut both =
                rules.others[e].map(|other| if other == 1 << e { 0 } else { other | 1 << e });
            both.sort_unstable();
            both
        };
        let mut group_of = vec![0u64; items as usize];
        for e in 0..items as usize {
            if group_of[e] != 0 {
                continue;
            }
            let group = (e..items as usize)
                .filter(|&f| cells(f) == cells(e))
                .fold(0u64, |g, f| g | 1 << f);
            if group.count_ones() >= 2 {
                for f in elements(group) {
                    group_of[f as usize] = group;
                }
            }
        }
        let mut groups: Vec<u64> = group_of.iter().copied().filter(|&g| g != 0).collect();
        groups.sort_unstable();
        groups.dedup();
        Twins { groups, group_of }
    }

    /// Whether the game has no twins (every method is then the identity).
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The normal form of `drawn`: in each group the same number of elements drawn, the lowest.
    #[inline]
    pub fn normal(&self, mut drawn: u64) -> u64 {
        for &group in &self.groups {
            let inside = drawn & group;
            if inside != 0 && inside != group {
                drawn = drawn & !group | lowest(group, inside.count_ones());
            }
        }
        drawn
    }

    /// `moves` (free elements of some state) less every twin of a lower one: the moves worth
    /// searching, one per group.
    #[inline]
    pub fn distinct_moves(&self, mut moves: u64) -> u64 {
        for &group in &self.groups {
            let inside = moves & group;
            moves &= !(inside & inside.wrapping_sub(1));
        }
        moves
    }

    /// A free element of `drawn` worth what `e` is: `e` itself when it is free, otherwise its
    /// lowest free twin (which exists when `drawn` has as many free elements in `e`'s group as a
    /// state in which `e` is free; else `e`).
    #[inline]
    pub fn free_twin(&self, e: u32, drawn: u64) -> u32 {
        let group = self.group_of.get(e as usize).copied().unwrap_or(0);
        if drawn >> e & 1 == 0 || group & !drawn == 0 {
            return e;
        }
        (group & !drawn).trailing_zeros()
    }
}

/// The `n` lowest elements of `group`.
fn lowest(group: u64, n: u32) -> u64 {
    let mut rest = group;
    let mut taken = 0;
    for _ in 0..n {
        let bit = rest & rest.wrapping_neg();
        taken |= bit;
        rest ^= bit;
    }
    taken
}

/// The elements of a mask, lowest first.
fn elements(mut mask: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let e = mask.trailing_zeros();
            mask &= mask - 1;
            e
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One cell {0, 1, 2} with 0 and 1 on the border, and a second cell {2, 3, 4, 5} sharing 2:
    /// 0 and 1 are twins, and so are 3, 4 and 5.
    fn rules() -> Vec<[u64; 2]> {
        vec![
            [0b110, 0b1],
            [0b101, 0b10],
            [0b011, 0b111000],
            [0b110100, 0b1000],
            [0b101100, 0b10000],
            [0b011100, 0b100000],
        ]
    }

    #[test]
    fn corner_like_twins_are_found_and_normalised() {
        let others = rules();
        let twins = Twins::new(Completion { others: &others }, 6);
        assert_eq!(twins.groups, vec![0b11, 0b111000]);
        assert_eq!(twins.normal(0b10), 0b01);
        assert_eq!(twins.normal(0b11), 0b11);
        assert_eq!(twins.normal(0b110_000), 0b011_000);
        assert_eq!(twins.normal(0b100_110), 0b001_101);
        assert_eq!(twins.distinct_moves(0b111_111), 0b001_101);
        assert_eq!(twins.distinct_moves(0b110_100), 0b010_100);
        assert_eq!(twins.free_twin(0, 0b01), 1);
        assert_eq!(twins.free_twin(1, 0b01), 1);
        assert_eq!(twins.free_twin(4, 0b011_000), 5);
        assert_eq!(twins.free_twin(2, 0b100), 2);
    }
}
