//! The `ply` binary's end-to-end tests, one binary.
//!
//! One test binary for the crate (`autotests = false`, this file the only `[[test]]`): every
//! `tests/*.rs` is a module of it, so the library is linked and its generic code instantiated once,
//! not once per file. Run one file's tests with `cargo test -p ply-cli --test all <file>::`; the
//! test at the end fails when a file of `tests/` is not listed here.

mod common;
#[path = "../../plysolve/tests/uses/mod.rs"]
mod uses;

mod bad_inputs;
mod book_cli;
mod cli;
mod dice_race_cli;
mod dots_search_cli;
mod front_door;
mod heaps_cli;
mod input_cli;
mod magic_board_cli;
mod memory_cli;
mod play_cli;
mod readme_examples;
mod registry;
mod serve_api;
mod serve_hostile;
mod solitaire_cli;

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
