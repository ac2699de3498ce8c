//! The `door` fuzz target: the property check of `ply_fuzz::check_door` (every question of the
//! registry).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_door(data));
