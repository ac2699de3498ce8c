//! The `book_import` fuzz target: the property check of `ply_fuzz::check_book_import`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ply_fuzz::check_book_import(data));
