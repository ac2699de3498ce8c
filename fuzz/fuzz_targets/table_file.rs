//! The `table_file` fuzz target: the property check of `ply_fuzz::check_table_file`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_table_file(data));
