//! The `memory_size` fuzz target: the property check of `ply_fuzz::check_memory_size`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_memory_size(data));
