//! Book files (`ply dots book …`, `--book FILE`: SQLite files of proved positions) and their JSON
//! lines (`ply dots book import`).

use crate::text;
use plysolve::games::dots::book::ops::{export, import, parse_lines, stats, ExportLine};
use plysolve::games::dots::book::BookFile;

/// A refusal is one line naming what it refuses, with no control character (what it quotes of the
/// input is escaped).
fn one_line(fault: impl std::fmt::Display) {
    let message = fault.to_string();
    assert!(!message.is_empty(), "an empty message");
    assert!(
        !message.chars().any(char::is_control),
        "a control character in the message: {message:?}"
    );
}

/// What a book holds as JSON lines, sorted, or the fault (one line).
fn lines_of(book: &BookFile) -> Option<Vec<String>> {
    match export(book) {
        Ok(lines) => {
            let mut lines: Vec<String> = lines.iter().map(json_line).collect();
            lines.sort();
            Some(lines)
        }
        Err(fault) => {
            one_line(fault);
            None
        }
    }
}

fn json_line(line: &ExportLine) -> String {
    serde_json::to_string(line).expect("an entry serialises")
}

/// Checks a book file made of `data`, opened as the CLI opens a file (read-only, from a path) and as
/// ply opens its shipped books (from bytes): neither panics, a refusal is one line, and a book that
/// opens gives its statistics, and its entries, imported into a new book, export the same.
pub fn check_book_file(data: &[u8]) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("fuzzed.plybook");
    std::fs::write(&path, data).expect("the temporary file is written");
    let from_path = BookFile::open(&path, false, false);
    let from_bytes = BookFile::from_bytes("fuzzed", data);
    for book in [from_path, from_bytes] {
        let book = match book {
            Ok(book) => book,
            Err(fault) => {
                one_line(fault);
                continue;
            }
        };
        if let Err(fault) = stats(&book) {
            one_line(fault);
        }
        let Some(lines) = lines_of(&book) else {
            continue;
        };
        let text = lines.join("\n");
        let parsed = parse_lines(&text).unwrap_or_else(|e| panic!("an export reads back: {e}"));
        let copy_path = dir.path().join("copy.plybook");
        let _ = std::fs::remove_file(&copy_path);
        let copy = BookFile::open(&copy_path, true, true).expect("a new book");
        import(&copy, &parsed).unwrap_or_else(|e| panic!("an export imports: {e}"));
        assert_eq!(lines_of(&copy), Some(lines), "exported again");
    }
}

/// Checks JSON lines as `ply dots book import` reads them: parsing never panics, a refusal is one
/// line naming its line, and the entries that parse go into a new book (or are refused there in one
/// line), which then holds each of them within the bounds the line gave.
pub fn check_book_import(data: &[u8]) {
    let parsed = match parse_lines(&text(data)) {
        Ok(parsed) => parsed,
        Err(fault) => {
            assert!(fault.line >= 1, "{fault}");
            return one_line(fault);
        }
    };
    if parsed.is_empty() {
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary directory");
    let book = BookFile::open(&dir.path().join("b.plybook"), true, true).expect("a new book");
    if let Err(fault) = import(&book, &parsed) {
        return one_line(fault);
    }
    for (line, built, entry) in &parsed {
        let kept = book
            .get(&entry.board, entry.key)
            .unwrap_or_else(|e| panic!("line {line}: {e}"))
            .unwrap_or_else(|| panic!("line {line}: not in the book"));
        assert_eq!(kept.board, built.geometry.slug(), "line {line}");
        assert!(
            entry.lower <= kept.lower && kept.upper <= entry.upper,
            "line {line}: {}..{} kept for {}..{}",
            kept.lower,
            kept.upper,
            entry.lower,
            entry.upper
        );
    }
}
