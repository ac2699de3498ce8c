//! Memory budgets: work too big for the machine is refused before anything is allocated, and what is
//! allocated is asked of the system in a way that can fail (an error, never an abort).
//!
//! The budget is the least of what the caller gives and what the system allows: physical memory,
//! the memory available now, the control group's limit and the process's own limits (`ulimit -v`,
//! `ulimit -d`) less what it already maps. Figures derived from the system keep [`MemoryBudget::MARGIN`]
//! free for everything else (thread stacks, allocator arenas, the other programs).
//!
//! The parts: `budget.rs` (the figure, the limit that set it, the refusals naming both, [`Bytes`]),
//! `system.rs` (reading what the system allows: [`SystemMemory`]) and `allocation.rs` (allocating
//! within a budget without aborting: [`MemoryBudget::zeroed_bytes`], [`try_vec`], [`try_grow`]); `host.rs` (a table shared by the processes of one host in its
//! shared memory: [`HostWords`]). Every
//! item is used from here, `engine::util::memory`.

mod allocation;
mod budget;
mod host;
mod system;

pub use allocation::{try_grow, try_vec, zeroed_atomics, ZeroedBytes};
pub use budget::{Bytes, Limit, MemoryBudget, MemoryError};
pub use host::{
    remove_tables as remove_host_tables, valid_name as valid_host_table_name, HostWords,
};
pub use system::SystemMemory;
