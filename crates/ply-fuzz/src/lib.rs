//! Property checks for every parser of ply, one `check_*` function per fuzz target.
//!
//! Each check feeds arbitrary bytes to one parser and asserts what must hold whatever the bytes: it
//! never panics on its own account, and when the input parses, a property of the result holds (parse →
//! format → parse is the identity where a formatter exists; a small parsed position solves, and agrees
//! with a second method). A check panics only on a real violation.
//!
//! The same functions run in two places: the cargo-fuzz targets in `fuzz/fuzz_targets/` (nightly
//! features, enabled on stable with `RUSTC_BOOTSTRAP=1`; see `fuzz/run.sh`), and `tests/replay.rs`,
//! which replays every committed corpus on stable as part of `cargo test --workspace`.

use std::borrow::Cow;

mod book;
mod dice_race;
mod door;
mod dots;
mod heaps;
mod json_request;
mod magic_board;
mod memory_size;
mod move_lists;
mod solitaire;
mod table_file;

pub use book::{check_book_file, check_book_import};
pub use dice_race::check_dice_race;
pub use door::check_door;
pub use dots::{check_dots_moves, check_triangle_war};
pub use heaps::{check_heaps_args, check_heaps_batch};
pub use json_request::check_json_request;
pub use magic_board::check_magic_board;
pub use memory_size::check_memory_size;
pub use move_lists::check_move_lists;
pub use solitaire::check_solitaire;
pub use table_file::check_table_file;

/// A property check over arbitrary bytes.
pub type Check = fn(&[u8]);

/// Every target: its name (the fuzz target, and its corpus directory `fuzz/corpus/<name>`) and its
/// check. The replay test walks this list, so a target missing here is a target never replayed.
pub const TARGETS: &[(&str, Check)] = &[
    ("dots_moves", check_dots_moves),
    ("triangle_war", check_triangle_war),
    ("heaps_args", check_heaps_args),
    ("heaps_batch", check_heaps_batch),
    ("magic_board", check_magic_board),
    ("solitaire", check_solitaire),
    ("dice_race", check_dice_race),
    ("table_file", check_table_file),
    ("memory_size", check_memory_size),
    ("door", check_door),
    ("book_file", check_book_file),
    ("book_import", check_book_import),
    ("move_lists", check_move_lists),
    ("json_request", check_json_request),
];

/// The input as the text readers see it: the text parsers take `&str`, so invalid UTF-8 is replaced
/// (U+FFFD) rather than skipped, and the bytes around it still reach the parser.
fn text(data: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(data)
}
