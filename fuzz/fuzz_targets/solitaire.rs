//! The `solitaire` fuzz target: the property check of `ply_fuzz::check_solitaire`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_solitaire(data));
