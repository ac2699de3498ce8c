//! The `dots_moves` fuzz target: the property check of `ply_fuzz::check_dots_moves`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_dots_moves(data));
