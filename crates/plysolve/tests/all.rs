//! The library's integration tests, one binary.
//!
//! One test binary for the crate (`autotests = false`, this file the only `[[test]]`): every
//! `tests/*.rs` is a module of it, so the library is linked and its generic code instantiated once,
//! not once per file. Run one file's tests with `cargo test -p plysolve --test all <file>::`; the
//! test at the end fails when a file of `tests/` is not listed here.

mod reference {
    pub mod dice_race;
    pub mod heaps;
    pub mod magic_board;
    pub mod solitaire;
}
mod uses;

mod dice_race;
mod dice_race_search;
mod dice_race_simulate;
mod dots_book;
mod dots_book_shipped;
mod dots_book_unfinished;
mod dots_chain_rules;
mod dots_estimate_search;
mod dots_free_and_search;
mod dots_jobs;
mod dots_player;
mod dots_search_random;
mod dots_strategies;
mod dots_top_lines;
mod heaps;
mod host_table;
mod json_requests;
mod layering;
mod magic_board;
mod shared_bounds;
mod solitaire;
mod table_file;

/// Every `tests/*.rs` is a module of this binary: a test file added without its line here would
/// never run.
#[test]
fn every_test_file_is_a_module_of_this_binary() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    assert_eq!(
        uses::files_not_declared(&dir, include_str!("all.rs")),
        Vec::<String>::new()
    );
}
