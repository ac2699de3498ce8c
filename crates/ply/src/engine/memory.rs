//! Memory budgets: work too big for the machine is refused before anything is allocated.

use std::fmt;
use thiserror::Error;

/// How many bytes a solve may allocate for its tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryBudget {
    bytes: u64,
}

/// A request that does not fit the budget.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MemoryError {
    /// The work needs more than the budget allows; nothing was allocated.
    #[error("{what} needs {} but the memory budget is {}", Bytes(*needed), Bytes(*budget as u128))]
    OverBudget {
        /// What was to be allocated, e.g. "a table of 2^45 states".
        what: String,
        /// Bytes it would need.
        needed: u128,
        /// Bytes allowed.
        budget: u64,
    },
}

impl MemoryBudget {
    /// Bytes kept free for the rest of the system when the budget is derived from available memory.
    pub const MARGIN: u64 = 512 << 20;

    /// A budget of exactly `bytes`.
    pub fn new(bytes: u64) -> Self {
        MemoryBudget { bytes }
    }

    /// The memory the system reports available now (Linux `MemAvailable`, and no more than the
    /// control group's `memory.max` less its `memory.current`, so a limited container refuses work
    /// instead of being killed), minus [`Self::MARGIN`]. Where nothing can be read, 4 GiB: a cautious
    /// default rather than no limit at all.
    pub fn from_system() -> Self {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let available = read("/proc/meminfo")
            .and_then(|text| parse_mem_available(&text))
            .unwrap_or(4 << 30);
        let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
        let group = number(read("/sys/fs/cgroup/memory.max")).map(|max| {
            max.saturating_sub(number(read("/sys/fs/cgroup/memory.current")).unwrap_or(0))
        });
        let available = group.map_or(available, |g| g.min(available));
        MemoryBudget::new(available.saturating_sub(Self::MARGIN))
    }

    /// Bytes allowed.
    pub fn bytes(self) -> u64 {
        self.bytes
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
            })
        }
    }

    /// Allocates `len` zeroed bytes once the budget allows it, refusing otherwise. The memory comes
    /// zeroed from the system and is only touched where it is used.
    pub fn zeroed_bytes(
        self,
        len: u128,
        what: impl Fn() -> String,
    ) -> Result<Vec<u8>, MemoryError> {
        self.check(len, &what)?;
        let len = usize::try_from(len).map_err(|_| MemoryError::OverBudget {
            what: what(),
            needed: len,
            budget: self.bytes,
        })?;
        Ok(vec![0; len])
    }
}

/// Reads `MemAvailable` (in kB) from the text of `/proc/meminfo`, as bytes.
fn parse_mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

/// A byte count shown the way people read it: `1.0 GiB (1073741824 bytes)`.
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
        } else {
            write!(f, "{value:.1} {} ({} bytes)", UNITS[unit], self.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mem_available() {
        let text = "MemTotal: 100 kB\nMemAvailable:    2048 kB\n";
        assert_eq!(parse_mem_available(text), Some(2048 * 1024));
        assert_eq!(parse_mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn refuses_over_budget_before_allocating() {
        let budget = MemoryBudget::new(1000);
        let err = budget
            .zeroed_bytes(1 << 45, || "a table".into())
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "a table needs 32.0 TiB (35184372088832 bytes) but the memory budget is 1000 B"
        );
        assert_eq!(
            budget.zeroed_bytes(1000, || "x".into()).unwrap().len(),
            1000
        );
    }
}
