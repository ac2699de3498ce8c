//! How many random legal boards are solvable, per corner and from at least one corner, costed
//! before any board is drawn.

use super::generator::{board_work, random_board, scratch, DRAW_RATE};
use super::parse::{ParseBoardError, SizeFault, SizeRule};
use crate::engine::util::cost::{OverLimit, WorkLimit};
use crate::engine::util::estimate::Estimate;
use crate::engine::util::memory::MemoryError;
use crate::engine::util::progress::Progress;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use serde::Serialize;
use std::ops::RangeInclusive;
use thiserror::Error;

/// Solvability counts for one corner (or for "at least one corner").
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CornerStats {
    /// Boards where this corner was a start (not the goal).
    pub starts: u64,
    /// Of those, boards solvable from it.
    pub solvable: u64,
    /// The fraction with its 95 % interval.
    pub estimate: Estimate,
}

/// Statistics for one size.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SizeStats {
    /// The size.
    pub d: usize,
    /// Boards generated.
    pub boards: u64,
    /// Per corner, in the order (0,0), (0,d−1), (d−1,0), (d−1,d−1).
    pub corners: Vec<CornerStats>,
    /// Solvable from at least one corner.
    pub any_corner: CornerStats,
}

/// What `ply magic-board stats` reports: every size's statistics and the speed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StatsReport {
    /// The seed of the random generator.
    pub seed: u64,
    /// One entry per size, smallest first.
    pub sizes: Vec<SizeStats>,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// Boards drawn and searched per second.
    pub boards_per_second: f64,
}

impl StatsReport {
    /// The report of `sizes` drawn from `seed` in `seconds`.
    pub fn new(seed: u64, sizes: Vec<SizeStats>, seconds: f64) -> Self {
        let boards: u64 = sizes.iter().map(|s| s.boards).sum();
        StatsReport {
            seed,
            sizes,
            seconds,
            boards_per_second: boards as f64 / seconds,
        }
    }
}

/// Boards per parallel task: each task draws from its own stream, so results do not depend on threads.
const CHUNK: u64 = 4096;

/// A `stats` request refused before any board is drawn.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StatsError {
    /// A size outside the rule.
    #[error(transparent)]
    Size(#[from] ParseBoardError),
    /// Too much work: its estimate over the limit.
    #[error(transparent)]
    TooSlow(#[from] OverLimit),
}

impl StatsError {
    /// The size fault, if that is what this is.
    pub fn size_fault(&self) -> Option<&SizeFault> {
        match self {
            StatsError::Size(e) => e.size_fault(),
            StatsError::TooSlow(_) => None,
        }
    }
}

/// `size 20` or `sizes 5 to 20`, for messages.
fn size_text(sizes: &RangeInclusive<usize>) -> String {
    match sizes.start() == sizes.end() {
        true => format!("size {}", sizes.start()),
        false => format!("sizes {} to {}", sizes.start(), sizes.end()),
    }
}

/// Checks a whole `stats` request before any work: every size against `rule` (the smallest and the
/// largest, the range being whole), and the work (`boards` × [`board_work`] over the sizes, at
/// [`DRAW_RATE`]) against `limit`. Returns the work.
pub fn check_stats(
    sizes: RangeInclusive<usize>,
    boards: u64,
    rule: SizeRule,
    limit: WorkLimit,
) -> Result<u128, StatsError> {
    rule.check(*sizes.start())?;
    rule.check(*sizes.end())?;
    let work: u128 = sizes
        .clone()
        .map(|d| (boards as u128).saturating_mul(board_work(d)))
        .fold(0, u128::saturating_add);
    Ok(limit.check(
        || {
            format!(
                "drawing and searching {boards} boards of {}",
                size_text(&sizes)
            )
        },
        work,
        DRAW_RATE,
    )?)
}

/// Generates `boards` random legal boards of size `d` (checked against `rule`) from `seed` and counts
/// which corners solve them, telling `progress` the boards done so far now and then. Callers check the
/// work first with [`check_stats`].
pub fn stats(
    d: usize,
    boards: u64,
    seed: u64,
    rule: SizeRule,
    progress: Option<Progress<'_>>,
) -> Result<SizeStats, ParseBoardError> {
    rule.check(d)?;
    let chunks = boards.div_ceil(CHUNK);
    let done = std::sync::atomic::AtomicU64::new(0);
    let report = |boards: u64| {
        let finished = done.fetch_add(boards, std::sync::atomic::Ordering::Relaxed) + boards;
        if let Some(progress) = progress {
            progress(finished);
        }
    };
    let counts = (0..chunks)
        .into_par_iter()
        .map(|chunk| {
            let stream = seed
                ^ (d as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                ^ chunk.wrapping_mul(0xD1B5_4A32_D192_ED03);
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(stream);
            let (mut verdicts, mut values) = scratch(d)?;
            let mut counts = [[0u64; 2]; 5];
            // Progress is told every 2^20 squares or so, so that big boards show it too.
            let report_every = (1u64 << 20).div_ceil((d * d) as u64);
            let mut unreported = 0u64;
            for _ in 0..CHUNK.min(boards - chunk * CHUNK) {
                let board = random_board(d, &mut rng, values);
                let goal = board.goal;
                let corners = board.corners().map(|(r, c)| board.square(r, c));
                let reach = verdicts.reach_with_predecessors(&board, &corners, goal);
                let mut any = false;
                for (i, (&s, &ok)) in corners.iter().zip(&reach).enumerate() {
                    if s != goal {
                        counts[i][0] += 1;
                        counts[i][1] += ok as u64;
                        any |= ok;
                    }
                }
                counts[4][0] += 1;
                counts[4][1] += any as u64;
                values = board.values;
                unreported += 1;
                if unreported == report_every {
                    report(unreported);
                    unreported = 0;
                }
            }
            report(unreported);
            Ok::<_, MemoryError>(counts)
        })
        .try_reduce(
            || [[0u64; 2]; 5],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x[0] += y[0];
                    x[1] += y[1];
                }
                Ok(a)
            },
        )?;
    let stat = |[starts, solvable]: [u64; 2]| CornerStats {
        starts,
        solvable,
        estimate: Estimate::wilson(solvable, starts.max(1)),
    };
    Ok(SizeStats {
        d,
        boards,
        corners: counts[..4].iter().map(|&c| stat(c)).collect(),
        any_corner: stat(counts[4]),
    })
}
