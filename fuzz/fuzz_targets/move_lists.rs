//! The `move_lists` fuzz target: the property check of `ply_fuzz::check_move_lists`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_move_lists(data));
