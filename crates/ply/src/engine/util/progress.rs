//! Progress reports from long solves: the library never prints, it calls back.

/// A callback told, now and then, how many states a solver has visited so far.
///
/// Front ends turn it into a progress line on stderr; tests and library users may ignore it.
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// How many visited states pass between two calls of a [`Progress`] callback.
pub const PROGRESS_EVERY: u64 = 1 << 20;
