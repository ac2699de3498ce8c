//! The books shipped inside ply: built by `ply dots book build` (or imported from proofs of the
//! same search, `ply dots book import`), checked by a second proof in the other tie order (`ply
//! dots book verify`) — the [`CHECKED`] boards whole, the others as compute allows — kept in
//! `crates/plysolve/books/` and compiled into the library so that every surface — the CLI, the server,
//! `ply play`, Python — answers the boards people play at once, with no file to find.
//! BENCHMARKS.md records what each holds and took.

use super::store::BookFile;

/// The shipped books: (file name, bytes).
const SHIPPED: &[(&str, &[u8])] = &[
    (
        "shipped book boxes-3x4",
        include_bytes!("../../../../books/boxes-3x4.plybook"),
    ),
    (
        "shipped book boxes-4x4",
        include_bytes!("../../../../books/boxes-4x4.plybook"),
    ),
    (
        "shipped book triangles-4",
        include_bytes!("../../../../books/triangles-4.plybook"),
    ),
    (
        "shipped book triangles-5",
        include_bytes!("../../../../books/triangles-5.plybook"),
    ),
];

/// The boards whose shipped book is whole and checked, each entry proved again (in the other tie
/// order, or from its checked children): every position up to two moves (the 21-dot board: up to
/// one). BENCHMARKS.md says what each holds and what its proofs took.
pub const CHECKED: &[&str] = &["boxes-3x4", "boxes-4x4", "triangles-4", "triangles-5"];

/// The shipped books, opened (a damaged one — which the tests rule out — is left out).
pub fn files() -> Vec<BookFile> {
    opened().into_iter().filter_map(Result::ok).collect()
}

/// Each shipped book opened, or why it cannot be (for the tests).
pub fn opened() -> Vec<Result<BookFile, super::store::BookError>> {
    SHIPPED
        .iter()
        .map(|(name, bytes)| BookFile::from_bytes(name, bytes))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::dots::book::ops;

    #[test]
    fn every_shipped_book_opens_and_every_entry_is_exact_and_checked() {
        let mut whole = Vec::new();
        for book in opened() {
            let book = book.unwrap();
            for board in ops::stats(&book).unwrap() {
                assert!(board.positions > 0, "{}", board.board);
                assert_eq!(board.exact, board.positions, "{}", board.board);
                if CHECKED.contains(&board.board.as_str()) {
                    assert_eq!(board.checked, board.positions, "{}", board.board);
                    whole.push(board.board);
                }
            }
        }
        assert_eq!(whole, CHECKED);
        assert_eq!(files().len(), SHIPPED.len());
    }
}
