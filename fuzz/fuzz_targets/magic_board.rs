//! The `magic_board` fuzz target: the property check of `ply_fuzz::check_magic_board`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_magic_board(data));
