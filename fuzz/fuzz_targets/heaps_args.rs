//! The `heaps_args` fuzz target: the property check of `ply_fuzz::check_heaps_args`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_heaps_args(data));
