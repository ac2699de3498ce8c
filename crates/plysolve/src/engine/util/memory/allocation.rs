//! Allocating within a budget without aborting: the budget is checked first, and a refusal by the
//! system or the allocator is a [`MemoryError::Refused`] naming what the memory was for.
//! [`MemoryBudget::zeroed_bytes`] maps zeroed pages that cost nothing until written (the tables);
//! [`try_vec`] and [`try_grow`] make room in a `Vec`.

use super::budget::{MemoryBudget, MemoryError};
use std::ops::{Deref, DerefMut};

impl MemoryBudget {
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

/// `len` atomic words, all 0, refused (not aborted) when the system has no room. The memory is
/// asked for zeroed, so the system gives pages that cost nothing until first written: a large
/// search table is ready at once, its pages faulted in as the search reaches them.
#[allow(unsafe_code)]
pub fn zeroed_atomics(
    len: usize,
    needed: u128,
    what: impl Fn() -> String,
) -> Result<Vec<std::sync::atomic::AtomicU64>, MemoryError> {
    use std::alloc::{alloc_zeroed, Layout};
    use std::sync::atomic::AtomicU64;
    let refused = |reason: &str| MemoryError::Refused {
        what: what(),
        needed,
        reason: reason.to_string(),
    };
    if len == 0 {
        return Ok(Vec::new());
    }
    let layout =
        Layout::array::<AtomicU64>(len).map_err(|_| refused("beyond the address space"))?;
    // SAFETY: the layout has a non-zero size (len > 0). All-zero bytes are a valid AtomicU64 (it has
    // the size, alignment and bit validity of u64), the pointer was allocated by the global
    // allocator with exactly the layout `Vec<AtomicU64>` of capacity `len` frees with, and all
    // `len` elements are initialised (zeroed).
    unsafe {
        let ptr = alloc_zeroed(layout) as *mut AtomicU64;
        if ptr.is_null() {
            return Err(refused("out of memory"));
        }
        Ok(Vec::from_raw_parts(ptr, len, len))
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
