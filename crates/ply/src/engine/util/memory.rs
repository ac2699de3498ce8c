//! Memory budgets: work too big for the machine is refused before anything is allocated, and what is
//! allocated is asked of the system in a way that can fail (an error, never an abort).
//!
//! The budget is the least of what the caller gives and what the system allows: physical memory,
//! the memory available now, the control group's limit and the process's own limits (`ulimit -v`,
//! `ulimit -d`) less what it already maps. Figures derived from the system keep [`MemoryBudget::MARGIN`]
//! free for everything else (thread stacks, allocator arenas, the other programs).

use std::fmt;
use std::ops::{Deref, DerefMut};
use thiserror::Error;

/// How many bytes a solve may allocate for its tables, and which limit set that figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryBudget {
    bytes: u64,
    limit: Limit,
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
    fn explanation(self) -> &'static str {
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

/// What the system allows, each figure in bytes and `None` where it cannot be read or is unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SystemMemory {
    /// Physical memory (`MemTotal`).
    pub physical: Option<u64>,
    /// Memory available now (`MemAvailable`).
    pub available: Option<u64>,
    /// The control group's limit less its current use (cgroup v2 or v1).
    pub control_group: Option<u64>,
    /// `RLIMIT_AS` less the process's mapped size (`VmSize`).
    pub address_space: Option<u64>,
    /// `RLIMIT_DATA` less the process's data size (`VmData`).
    pub data: Option<u64>,
}

impl SystemMemory {
    /// Reads the figures from `/proc`, `/sys/fs/cgroup` and the process's resource limits.
    pub fn read() -> Self {
        let read = |path: &str| std::fs::read_to_string(path).ok();
        let meminfo = read("/proc/meminfo").unwrap_or_default();
        let status = read("/proc/self/status").unwrap_or_default();
        let number = |path: &str| read(path).and_then(|t| t.trim().parse::<u64>().ok());
        let group = |limit: &str, usage: &str| {
            number(limit).map(|max| max.saturating_sub(number(usage).unwrap_or(0)))
        };
        let control_group = group("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current")
            .or_else(|| {
                group(
                    "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                    "/sys/fs/cgroup/memory/memory.usage_in_bytes",
                )
            });
        let headroom = |resource, field| {
            let limit = soft_limit(resource)?;
            Some(limit.saturating_sub(kb_field(&status, field).unwrap_or(0)))
        };
        SystemMemory {
            physical: kb_field(&meminfo, "MemTotal:"),
            available: kb_field(&meminfo, "MemAvailable:"),
            control_group,
            address_space: headroom(Resource::AddressSpace, "VmSize:"),
            data: headroom(Resource::Data, "VmData:"),
        }
    }

    /// The budget: the least of `given` and of every figure read less [`MemoryBudget::MARGIN`].
    /// A `given` budget above physical memory is refused: it would promise what cannot be had.
    pub fn budget(&self, given: Option<u64>) -> Result<MemoryBudget, MemoryError> {
        if let (Some(given), Some(physical)) = (given, self.physical) {
            if given > physical {
                return Err(MemoryError::MoreThanMachine { given, physical });
            }
        }
        let derived = [
            (self.physical, Limit::Physical),
            (self.available, Limit::Available),
            (self.control_group, Limit::ControlGroup),
            (self.address_space, Limit::AddressSpace),
            (self.data, Limit::Data),
        ]
        .into_iter()
        .filter_map(|(bytes, limit)| {
            Some(MemoryBudget {
                bytes: bytes?.saturating_sub(MemoryBudget::MARGIN),
                limit,
            })
        });
        let fallback = match given {
            Some(bytes) => MemoryBudget::new(bytes),
            None if self.physical.is_none() && self.available.is_none() => MemoryBudget {
                bytes: MemoryBudget::DEFAULT,
                limit: Limit::Default,
            },
            None => MemoryBudget {
                bytes: u64::MAX,
                limit: Limit::Default,
            },
        };
        // The caller's figure wins ties, so a refusal names it when it is the limit.
        Ok(derived.fold(
            fallback,
            |least, b| {
                if b.bytes < least.bytes {
                    b
                } else {
                    least
                }
            },
        ))
    }
}

/// The resource limits the budget reads.
enum Resource {
    AddressSpace,
    Data,
}

/// The soft limit of `resource`, or `None` when unlimited or unreadable.
#[cfg(unix)]
fn soft_limit(resource: Resource) -> Option<u64> {
    let resource = match resource {
        Resource::AddressSpace => libc::RLIMIT_AS,
        Resource::Data => libc::RLIMIT_DATA,
    };
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: `getrlimit` only writes the `rlimit` it is given, which lives for the whole call.
    #[allow(unsafe_code)]
    let status = unsafe { libc::getrlimit(resource, &mut limit) };
    // `rlim_t` is not `u64` on every Unix.
    #[allow(clippy::unnecessary_cast)]
    let soft = limit.rlim_cur as u64;
    (status == 0 && limit.rlim_cur != libc::RLIM_INFINITY).then_some(soft)
}

/// No resource limits are read off Unix.
#[cfg(not(unix))]
fn soft_limit(_: Resource) -> Option<u64> {
    None
}

/// Reads a `Name:  N kB` line of `/proc/meminfo` or `/proc/self/status`, as bytes.
fn kb_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    let kb: u64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    kb.checked_mul(1024)
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

    /// What the system allows now: see [`SystemMemory::budget`].
    pub fn from_system() -> Self {
        SystemMemory::read()
            .budget(None)
            .expect("without a given budget nothing is refused")
    }

    /// The least of `given` (if any) and what the system allows now; refuses a `given` budget
    /// above the machine's physical memory.
    pub fn with_system(given: Option<u64>) -> Result<Self, MemoryError> {
        SystemMemory::read().budget(given)
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

    /// Maps `len` zeroed bytes once the budget allows it, refusing otherwise, and reporting a
    /// refusal by the system as [`MemoryError::Refused`]. The pages come zeroed from the system
    /// and take memory only once touched.
    pub fn zeroed_bytes(
        self,
        len: u128,
        what: impl Fn() -> String,
    ) -> Result<ZeroedBytes, MemoryError> {
        self.check(len, &what)?;
        let refused = |reason: String| MemoryError::Refused {
            what: what(),
            needed: len,
            reason,
        };
        let size = usize::try_from(len).map_err(|_| refused("beyond the address space".into()))?;
        memmap2::MmapMut::map_anon(size)
            .map(ZeroedBytes)
            .map_err(|e| refused(e.to_string()))
    }
}

/// `len` copies of `fill`, like `vec![fill; len]`, reporting an allocator failure as
/// [`MemoryError::Refused`] (naming `what`) instead of aborting.
pub fn try_vec<T: Clone>(
    len: usize,
    fill: T,
    what: impl Fn() -> String,
) -> Result<Vec<T>, MemoryError> {
    let mut vec = Vec::new();
    let needed = len as u128 * std::mem::size_of::<T>() as u128;
    try_grow(&mut vec, len as u128, needed, what)?;
    vec.resize(len, fill);
    Ok(vec)
}

/// Makes room in `vec` for `additional` more items (`needed` bytes, for the message), reporting an
/// allocator failure as [`MemoryError::Refused`] instead of aborting.
pub fn try_grow<T>(
    vec: &mut Vec<T>,
    additional: u128,
    needed: u128,
    what: impl Fn() -> String,
) -> Result<(), MemoryError> {
    let refused = |reason: String| MemoryError::Refused {
        what: what(),
        needed,
        reason,
    };
    let additional =
        usize::try_from(additional).map_err(|_| refused("beyond the address space".into()))?;
    // The error's own text is long and says no more than this.
    vec.try_reserve_exact(additional)
        .map_err(|_| refused("out of memory".into()))
}

/// Zeroed memory mapped from the system: a byte slice whose pages cost nothing until written.
#[derive(Debug)]
pub struct ZeroedBytes(memmap2::MmapMut);

impl Deref for ZeroedBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl DerefMut for ZeroedBytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.0
    }
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

    const GIB: u64 = 1 << 30;

    #[test]
    fn reads_kb_fields() {
        let meminfo = "MemTotal: 100 kB\nMemAvailable:    2048 kB\n";
        assert_eq!(kb_field(meminfo, "MemAvailable:"), Some(2048 * 1024));
        assert_eq!(kb_field(meminfo, "MemTotal:"), Some(100 * 1024));
        assert_eq!(kb_field("MemTotal: 1 kB\n", "MemAvailable:"), None);
        let status =
            "Name:\tply\nVmPeak:\t  30000 kB\nVmSize:\t   20480 kB\nVmData:\t    4096 kB\n";
        assert_eq!(kb_field(status, "VmSize:"), Some(20 << 20));
        assert_eq!(kb_field(status, "VmData:"), Some(4 << 20));
        assert_eq!(kb_field("VmSize:\tlots kB\n", "VmSize:"), None);
    }

    #[test]
    fn reads_this_process() {
        let system = SystemMemory::read();
        if cfg!(target_os = "linux") {
            assert!(system.physical.unwrap() >= system.available.unwrap());
        }
        let budget = system.budget(None).unwrap();
        assert!(budget.bytes() < system.physical.unwrap_or(u64::MAX));
    }

    fn machine() -> SystemMemory {
        SystemMemory {
            physical: Some(24 * GIB),
            available: Some(20 * GIB),
            control_group: None,
            address_space: None,
            data: None,
        }
    }

    #[test]
    fn the_least_limit_wins_less_the_margin() {
        let m = MemoryBudget::MARGIN;
        let budget = |system: SystemMemory, given| system.budget(given).unwrap();
        let b = budget(machine(), None);
        assert_eq!((b.bytes(), b.limit()), (20 * GIB - m, Limit::Available));
        let b = budget(machine(), Some(GIB));
        assert_eq!((b.bytes(), b.limit()), (GIB, Limit::Given));
        let b = budget(machine(), Some(22 * GIB));
        assert_eq!((b.bytes(), b.limit()), (20 * GIB - m, Limit::Available));
        let limited = SystemMemory {
            control_group: Some(8 * GIB),
            address_space: Some(3 * GIB),
            data: Some(6 * GIB),
            ..machine()
        };
        let b = budget(limited, Some(4 * GIB));
        assert_eq!((b.bytes(), b.limit()), (3 * GIB - m, Limit::AddressSpace));
        let b = budget(
            SystemMemory {
                address_space: None,
                ..limited
            },
            None,
        );
        assert_eq!((b.bytes(), b.limit()), (6 * GIB - m, Limit::Data));
        let b = budget(
            SystemMemory {
                address_space: Some(m / 2),
                ..limited
            },
            None,
        );
        assert_eq!((b.bytes(), b.limit()), (0, Limit::AddressSpace));
        let b = budget(SystemMemory::default(), None);
        assert_eq!(
            (b.bytes(), b.limit()),
            (MemoryBudget::DEFAULT, Limit::Default)
        );
        let b = budget(SystemMemory::default(), Some(64 << 40));
        assert_eq!((b.bytes(), b.limit()), (64 << 40, Limit::Given));
    }

    #[test]
    fn refuses_more_than_the_machine() {
        let err = machine().budget(Some(64 << 40)).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a memory budget of 64.0 TiB (70368744177664 bytes) is more than this machine's \
             24.0 GiB (25769803776 bytes) of memory"
        );
        assert!(machine().budget(Some(24 * GIB)).is_ok());
    }

    #[test]
    fn refusals_name_the_limit() {
        let limited = SystemMemory {
            address_space: Some(GIB),
            ..machine()
        };
        let err = limited
            .budget(None)
            .unwrap()
            .check(2 * GIB as u128, || "a table".into())
            .unwrap_err();
        assert!(!err.caller_limited());
        assert_eq!(
            err.to_string(),
            "a table needs 2.0 GiB (2147483648 bytes) but the memory budget is 512.0 MiB \
             (536870912 bytes): ulimit -v less what is mapped and 512 MiB"
        );
    }

    #[test]
    fn refuses_over_budget_before_allocating() {
        let budget = MemoryBudget::new(1000);
        let err = budget
            .zeroed_bytes(1 << 45, || "a table".into())
            .unwrap_err();
        assert!(err.caller_limited());
        assert_eq!(
            err.to_string(),
            "a table needs 32.0 TiB (35184372088832 bytes) but the memory budget is 1000 B"
        );
        let bytes = budget.zeroed_bytes(1000, || "x".into()).unwrap();
        assert_eq!(bytes.len(), 1000);
        assert!(bytes.iter().all(|&b| b == 0));
        assert_eq!(budget.share(10).bytes(), 10);
        assert_eq!(budget.share(5000).bytes(), 1000);
    }

    #[test]
    fn system_refusals_are_errors() {
        let budget = MemoryBudget::new(u64::MAX);
        let err = budget
            .zeroed_bytes(1 << 62, || "a huge table".into())
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("a huge table needs 4.0 EiB (4611686018427387904 bytes) but the system refused that much memory ("),
            "{err}"
        );
        assert_eq!(try_vec(3, 7u16, || "x".into()), Ok(vec![7, 7, 7]));
        let err = try_vec(usize::MAX / 2, 0u32, || "a list".into()).unwrap_err();
        assert!(
            err.to_string().starts_with("a list needs 32.0 EiB"),
            "{err}"
        );
    }
}
