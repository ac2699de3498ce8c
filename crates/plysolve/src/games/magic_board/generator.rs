//! Random legal boards, reproducible from a seed, optionally solvable from every corner or from none.

use super::board::{stride_shift, Board};
use super::parse::{ParseBoardError, SizeFault, SizeRule};
use crate::engine::reach::Verdicts;
use crate::engine::util::cost::{Meter, Rate, WorkLimit};
use crate::engine::util::halt::{Halt, Halted, NEVER};
use crate::engine::util::memory::{try_vec, MemoryError};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use thiserror::Error;

/// What a generated board must satisfy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// Any legal board.
    Any,
    /// Solvable from every corner that is not the goal.
    Solvable,
    /// Solvable from no corner.
    Unsolvable,
}

/// Attempts `generate` makes before giving up, at most (fewer where the work limit allows fewer).
pub const MAX_ATTEMPTS: u64 = 1_000_000;

/// What drawing one random board of size `d` and searching its corners costs, in squares: its d²
/// squares plus [`BOARD_OVERHEAD`] for drawing the goal and counting — the unit of [`DRAW_RATE`],
/// shared by [`generate_within`] and [`super::statistics::stats`].
pub fn board_work(d: usize) -> u128 {
    (d as u128) * (d as u128) + BOARD_OVERHEAD
}

/// A board's cost beyond its squares, in squares (see [`board_work`]). Measured (CPU time, release
/// build): 0.67 µs per 5×5 board, 1.9 µs per 20×20, 94 µs per 200×200, 42 ms per 2000×2000: 5.4,
/// 3.8, 2.3 and 10.6 ns per square so counted.
pub const BOARD_OVERHEAD: u128 = 100;

/// Squares of [`board_work`] drawn and searched in a second on one core of this machine class, the
/// slowest rate measured (2000×2000 boards). A statistics run uses every core, so on more than one
/// its estimate is the time on one core: an upper bound.
pub const DRAW_RATE: Rate = Rate::per_second(100_000_000);

/// Draws uniform values in `1..d` four at a time from 64-bit words (Lemire's multiply-shift on 16-bit
/// pieces, rejecting the few pieces that would bias it).
struct ValueSampler {
    range: u32,
    reject_below: u32,
}

impl ValueSampler {
    fn new(d: usize) -> Self {
        let range = d as u32 - 1;
        ValueSampler {
            range,
            reject_below: (1u32 << 16) % range,
        }
    }

    fn fill(&self, rng: &mut Xoshiro256PlusPlus, out: &mut [u16]) {
        let mut i = 0;
        while i < out.len() {
            let mut word = rng.next_u64();
            for _ in 0..4 {
                let m = (word & 0xFFFF) as u32 * self.range;
                word >>= 16;
                if (m & 0xFFFF) >= self.reject_below && i < out.len() {
                    out[i] = (m >> 16) as u16 + 1;
                    i += 1;
                }
            }
        }
    }
}

/// A random legal board: the goal on a uniformly chosen square, every other square uniform in 1..d−1.
/// `values` is the room for it (from [`scratch`] or the previous board), zero on padding squares.
pub(super) fn random_board(d: usize, rng: &mut Xoshiro256PlusPlus, mut values: Vec<u16>) -> Board {
    let shift = stride_shift(d);
    let sampler = ValueSampler::new(d);
    debug_assert_eq!(values.len(), d << shift);
    // Padding squares stay 0; every real square is drawn afresh.
    for row in values.chunks_mut(1 << shift) {
        sampler.fill(rng, &mut row[..d]);
    }
    let (r, c) = (rng.random_range(0..d), rng.random_range(0..d));
    let goal = r << shift | c;
    values[goal] = 0;
    Board {
        d,
        shift,
        values,
        goal,
    }
}

/// The room one thread needs to draw and search boards of size `d`, allocated up front so that a
/// refusal by the system is an error, not an abort: a search's scratch space and a board's values.
pub(super) fn scratch(d: usize) -> Result<(Verdicts, Vec<u16>), MemoryError> {
    let squares = d << stride_shift(d);
    let what = || format!("a search over {squares} states");
    let mut verdicts = Verdicts::default();
    verdicts.reserve(squares)?;
    let values = try_vec(squares, 0, what)?;
    Ok((verdicts, values))
}

/// Why no board was generated.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GenerateError {
    /// A bad size.
    #[error(transparent)]
    Board(#[from] ParseBoardError),
    /// No board with the wanted property in the tries allowed ([`MAX_ATTEMPTS`], or what the work
    /// limit leaves).
    #[error("no such board of size {d} in {attempts} random boards")]
    NotFound {
        /// The size.
        d: usize,
        /// The boards drawn.
        attempts: u64,
    },
    /// The halt came before a board was found.
    #[error(transparent)]
    Halted(#[from] Halted),
}

/// A random legal board of size `d` from `seed` (the same seed gives the same board), drawing at
/// most [`MAX_ATTEMPTS`] boards or what [`WorkLimit::DEFAULT`] allows.
pub fn generate(
    d: usize,
    seed: u64,
    wanted: Wanted,
    rule: SizeRule,
) -> Result<Board, GenerateError> {
    generate_within(d, seed, wanted, rule, WorkLimit::DEFAULT, &NEVER)
}

/// The boards [`generate_within`] may draw of size `d` under `limit`: [`MAX_ATTEMPTS`], or fewer
/// when their [`board_work`] would pass the limit (at least one: a single board of an allowed size
/// is always drawn).
pub fn attempts_within(d: usize, limit: WorkLimit) -> u64 {
    let allowed = limit.units(DRAW_RATE) / board_work(d);
    allowed.clamp(1, MAX_ATTEMPTS as u128) as u64
}

/// [`generate`] under `limit` (the tries it allows: [`attempts_within`]) and `halt` (checked as the
/// boards are drawn), so that a board with a rare property cannot hold a front end for long.
pub fn generate_within(
    d: usize,
    seed: u64,
    wanted: Wanted,
    rule: SizeRule,
    limit: WorkLimit,
    halt: &Halt,
) -> Result<Board, GenerateError> {
    rule.check(d)?;
    let attempts = attempts_within(d, limit);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let (mut verdicts, mut values) = scratch(d).map_err(ParseBoardError::from)?;
    let mut meter = Meter::new(halt, 1 << 20);
    meter.check()?;
    for _ in 0..attempts {
        meter.spend(board_work(d).min(u64::MAX as u128) as u64)?;
        let board = random_board(d, &mut rng, values);
        let goal = board.goal;
        let ok = match wanted {
            Wanted::Any => true,
            _ => {
                let starts: Vec<usize> = board
                    .corners()
                    .iter()
                    .map(|&(r, c)| board.square(r, c))
                    .filter(|&s| s != goal)
                    .collect();
                let reach = verdicts.reach_with_predecessors(&board, &starts, goal);
                if wanted == Wanted::Solvable {
                    reach.iter().all(|&x| x)
                } else {
                    reach.iter().all(|&x| !x)
                }
            }
        };
        if ok {
            return Ok(board);
        }
        values = board.values;
    }
    Err(GenerateError::NotFound { d, attempts })
}

impl GenerateError {
    /// The size fault, if that is what this is.
    pub fn size_fault(&self) -> Option<&SizeFault> {
        match self {
            GenerateError::Board(e) => e.size_fault(),
            GenerateError::NotFound { .. } | GenerateError::Halted(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::util::memory::MemoryBudget;
    use crate::games::magic_board::{solve, Board};
    #[test]
    fn generated_boards_are_legal_and_reproducible() {
        for d in [5, 12, 20] {
            let a = generate(d, 7, Wanted::Any, SizeRule::Seed).unwrap();
            assert_eq!(a, generate(d, 7, Wanted::Any, SizeRule::Seed).unwrap());
            assert_eq!(Board::parse(&a.to_text(), SizeRule::Seed).unwrap(), a);
            let s = generate(d, 7, Wanted::Solvable, SizeRule::Seed).unwrap();
            let r = solve(&s, None, MemoryBudget::new(1 << 30)).unwrap();
            assert!(r.corners.iter().all(|c| c.solvable || c.is_goal));
            let u = generate(d, 7, Wanted::Unsolvable, SizeRule::Seed).unwrap();
            let r = solve(&u, None, MemoryBudget::new(1 << 30)).unwrap();
            assert!(r.corners.iter().all(|c| !c.solvable));
        }
    }

    #[test]
    fn the_tries_are_bounded_by_the_work_limit_and_the_halt() {
        // A 2×2 board is never unsolvable from every corner: a million tries by default, fewer
        // under a smaller limit.
        assert_eq!(attempts_within(2, WorkLimit::DEFAULT), MAX_ATTEMPTS);
        let tenth = WorkLimit::of(std::time::Duration::from_millis(100));
        assert_eq!(attempts_within(2, tenth), 10_000_000 / 104);
        assert_eq!(attempts_within(4096, tenth), 1);
        assert_eq!(
            generate_within(2, 1, Wanted::Unsolvable, SizeRule::Any, tenth, &NEVER),
            Err(GenerateError::NotFound {
                d: 2,
                attempts: 96_153
            })
        );
        let past = Halt::after(std::time::Duration::ZERO);
        assert_eq!(
            generate_within(64, 1, Wanted::Any, SizeRule::Any, WorkLimit::DEFAULT, &past),
            Err(GenerateError::Halted(Halted::TimeLimit { millis: 0 }))
        );
    }
}
