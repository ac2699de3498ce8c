//! The `json_request` fuzz target: the property check of `ply_fuzz::check_json_request`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_json_request(data));
