//! The `triangle_war` fuzz target: the property check of `ply_fuzz::check_triangle_war`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_triangle_war(data));
