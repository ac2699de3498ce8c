//! What the system allows ([`SystemMemory`]): physical memory and the memory available now
//! (`/proc/meminfo`), the control group's limit less its use (cgroup v2, else v1), and the process's
//! resource limits (`RLIMIT_AS`, `RLIMIT_DATA`) less what it already uses; a budget is the least of
//! them, less [`MemoryBudget::MARGIN`].

use super::budget::{Limit, MemoryBudget, MemoryError};

/// What the system allows, each figure in bytes and `None` where it cannot be read or is unlimited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SystemMemory {
    /// Physical memory (`MemTotal`).
    pub physical: Option<u64>,
    /// Memory available now (`MemAvailable`).
    pub available: Option<u64>,
    /// The control group's limit less its current use (cgroup v2 or v1).
    pub control_group: Option<u64>,
    /// The control group's limit alone, whatever is in use.
    pub control_group_limit: Option<u64>,
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
        // The group's limit and use: cgroup v2, else v1.
        let group = [
            ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
            (
                "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                "/sys/fs/cgroup/memory/memory.usage_in_bytes",
            ),
        ]
        .into_iter()
        .find_map(|(limit, usage)| Some((number(limit)?, number(usage).unwrap_or(0))));
        let headroom = |resource, field| {
            let limit = soft_limit(resource)?;
            Some(limit.saturating_sub(kb_field(&status, field).unwrap_or(0)))
        };
        SystemMemory {
            physical: kb_field(&meminfo, "MemTotal:"),
            available: kb_field(&meminfo, "MemAvailable:"),
            control_group: group.map(|(limit, used)| limit.saturating_sub(used)),
            control_group_limit: group.map(|(limit, _)| limit),
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

    /// The budget of the machine whatever runs on it now: the least of `given`, physical memory
    /// and the control group's limit, less [`MemoryBudget::MARGIN`] — the same figure in every
    /// process of the machine at every moment, for what several processes must agree on (the
    /// size of a table they share), where [`SystemMemory::budget`] follows the memory free at
    /// the moment. What is free is still checked when the memory is taken.
    pub fn steady(&self, given: Option<u64>) -> Result<MemoryBudget, MemoryError> {
        SystemMemory {
            available: None,
            control_group: self.control_group_limit,
            address_space: None,
            data: None,
            ..*self
        }
        .budget(given)
    }
}

impl MemoryBudget {
    /// What the machine allows whatever runs on it now: see [`SystemMemory::steady`].
    pub fn of_machine(given: Option<u64>) -> Result<Self, MemoryError> {
        SystemMemory::read().steady(given)
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
            control_group_limit: None,
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
    fn the_steady_budget_ignores_what_is_in_use() {
        let m = MemoryBudget::MARGIN;
        let busy = SystemMemory {
            available: Some(GIB),
            control_group: Some(GIB),
            address_space: Some(GIB),
            data: Some(GIB),
            ..machine()
        };
        let b = busy.steady(None).unwrap();
        assert_eq!((b.bytes(), b.limit()), (24 * GIB - m, Limit::Physical));
        let b = busy.steady(Some(16 * GIB)).unwrap();
        assert_eq!((b.bytes(), b.limit()), (16 * GIB, Limit::Given));
        let grouped = SystemMemory {
            control_group_limit: Some(8 * GIB),
            ..busy
        };
        let b = grouped.steady(None).unwrap();
        assert_eq!((b.bytes(), b.limit()), (8 * GIB - m, Limit::ControlGroup));
        assert!(busy.steady(Some(64 << 40)).is_err());
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
}
