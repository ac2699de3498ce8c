//! The budget: how many bytes a solve may allocate, which limit set that figure, and the refusals
//! that name both ([`MemoryError`]), with byte counts written the way people read them ([`Bytes`]).
//!
//! A budget given by the caller is made here ([`MemoryBudget::new`]); one derived from the system in
//! `system.rs` ([`MemoryBudget::with_system`]); allocating within it in `allocation.rs`
//! ([`MemoryBudget::zeroed_bytes`]).

use std::fmt;
use thiserror::Error;

/// How many bytes a solve may allocate for its tables, and which limit set that figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryBudget {
    // Seen by `system.rs`, which derives budgets from the system's figures.
    pub(super) bytes: u64,
    pub(super) limit: Limit,
}

/// Where a budget's figure comes from; named in refusals, so the user knows what to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Given by the caller (`--memory`).
    Given,
    /// The machine's physical memory (`MemTotal`), less the margin.
    Physical,
    /// The memory available now (`MemAvailable`), less the margin.
    Available,
    /// The control group's limit less its use, less the margin.
    ControlGroup,
    /// The address-space limit (`RLIMIT_AS`, `ulimit -v`) less what the process maps, less the margin.
    AddressSpace,
    /// The data limit (`RLIMIT_DATA`, `ulimit -d`) less the process's data, less the margin.
    Data,
    /// Nothing could be read: a cautious default.
    Default,
}

impl Limit {
    /// Words appended to a budget's figure saying where it comes from (empty when it was given);
    /// 512 MiB is [`MemoryBudget::MARGIN`].
    pub fn explanation(self) -> &'static str {
        match self {
            Limit::Given => "",
            Limit::Physical => ": physical memory less 512 MiB",
            Limit::Available => ": free memory less 512 MiB",
            Limit::ControlGroup => ": the cgroup's free memory less 512 MiB",
            Limit::AddressSpace => ": ulimit -v less what is mapped and 512 MiB",
            Limit::Data => ": ulimit -d less the data in use and 512 MiB",
            Limit::Default => ": a default, as the system's memory is unknown",
        }
    }
}

/// A request that does not fit the budget, or memory the system refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MemoryError {
    /// The work needs more than the budget allows; nothing was allocated.
    #[error("{what} needs {} but the memory budget is {}{}", Bytes(*needed), Bytes(*budget as u128), limit.explanation())]
    OverBudget {
        /// What was to be allocated, e.g. "a table of 2^45 states".
        what: String,
        /// Bytes it would need.
        needed: u128,
        /// Bytes allowed.
        budget: u64,
        /// Which limit set the budget.
        limit: Limit,
    },
    /// The allocation fitted the budget but the system refused it.
    #[error("{what} needs {} but the system refused that much memory ({reason})", Bytes(*needed))]
    Refused {
        /// What was to be allocated.
        what: String,
        /// Bytes it needed.
        needed: u128,
        /// The system's reason.
        reason: String,
    },
    /// A table to be shared by the processes of this host could not be (a bad name, a file of
    /// another size or version, no room in the host's shared memory).
    #[error("{what} cannot be shared on this host: {reason}")]
    Unshared {
        /// What was to be shared.
        what: String,
        /// Why not.
        reason: String,
    },
    /// The budget asked for is more than the machine has: it could only be over-promised.
    #[error("a memory budget of {} is more than this machine's {} of memory", Bytes(*given as u128), Bytes(*physical as u128))]
    MoreThanMachine {
        /// Bytes asked for.
        given: u64,
        /// The machine's physical memory.
        physical: u64,
    },
}

impl MemoryError {
    /// Whether a larger budget given by the caller could help: only when the caller's own figure
    /// was the limit.
    pub fn caller_limited(&self) -> bool {
        matches!(
            self,
            MemoryError::OverBudget {
                limit: Limit::Given,
                ..
            }
        )
    }
}

impl MemoryBudget {
    /// Bytes kept free for the rest of the process and the system when the budget is derived from
    /// the system: thread stacks, allocator arenas, the program itself and the other programs.
    pub const MARGIN: u64 = 512 << 20;

    /// The budget when no system figure can be read: 4 GiB, cautious rather than unlimited.
    pub const DEFAULT: u64 = 4 << 30;

    /// A budget of exactly `bytes`, as given by the caller.
    pub fn new(bytes: u64) -> Self {
        MemoryBudget {
            bytes,
            limit: Limit::Given,
        }
    }

    /// Bytes allowed.
    pub fn bytes(self) -> u64 {
        self.bytes
    }

    /// Which limit set the budget.
    pub fn limit(self) -> Limit {
        self.limit
    }

    /// The same limit over `bytes` (e.g. a share of the budget for one of several searches).
    pub fn share(self, bytes: u64) -> Self {
        MemoryBudget {
            bytes: bytes.min(self.bytes),
            limit: self.limit,
        }
    }

    /// `Ok` when `needed` bytes fit, else [`MemoryError::OverBudget`] naming `what`.
    pub fn check(self, needed: u128, what: impl FnOnce() -> String) -> Result<(), MemoryError> {
        if needed <= self.bytes as u128 {
            Ok(())
        } else {
            Err(MemoryError::OverBudget {
                what: what(),
                needed,
                budget: self.bytes,
                limit: self.limit,
            })
        }
    }
}

/// A byte count shown the way people read it: `1.0 GiB (1073741824 bytes)`; with `{:#}`, the
/// short form `1.0 GiB` (for progress lines).
#[derive(Debug, Clone, Copy)]
pub struct Bytes(pub u128);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        if unit == 0 {
            write!(f, "{} B", self.0)
        } else if f.alternate() {
            write!(f, "{value:.1} {}", UNITS[unit])
        } else {
            write!(f, "{value:.1} {} ({} bytes)", UNITS[unit], self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_and_shares() {
        let budget = MemoryBudget::new(1000);
        assert_eq!(budget.check(1000, || "x".into()), Ok(()));
        let err = budget.check(1001, || "a table".into()).unwrap_err();
        assert!(err.caller_limited());
        assert_eq!(
            err.to_string(),
            "a table needs 1001 B but the memory budget is 1000 B"
        );
        assert_eq!(budget.share(10).bytes(), 10);
        assert_eq!(budget.share(5000).bytes(), 1000);
        assert_eq!(budget.share(10).limit(), Limit::Given);
    }

    #[test]
    fn writes_bytes() {
        assert_eq!(Bytes(1023).to_string(), "1023 B");
        assert_eq!(Bytes(1024).to_string(), "1.0 KiB (1024 bytes)");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB (1610612736 bytes)");
        assert_eq!(format!("{:#}", Bytes(3 << 29)), "1.5 GiB");
        assert_eq!(format!("{:#}", Bytes(100)), "100 B");
        assert_eq!(
            Bytes(u128::MAX).to_string(),
            format!(
                "{:.1} EiB ({} bytes)",
                u128::MAX as f64 / 2f64.powi(60),
                u128::MAX
            )
        );
    }
}
