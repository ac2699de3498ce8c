//! The front ends go through the library's front door: no source of the command line (nor of the
//! server or the Python package) imports the engine's whole tables, their files or its chance walks
//! (`plysolve::engine::scored::table`, `…::table_file`, `plysolve::engine::chance`) — tables are
//! built, read and kept through the dots home (`games::dots::tables`), the distribution's cost
//! through the solitaire home. Read as text (`plysolve/tests/uses`: `use` trees and `plysolve::`
//! paths in code; what it cannot see is said there).

use crate::uses;

use std::path::Path;

/// The engine's modules a front end must not import.
const INTERNALS: [&str; 3] = [
    "plysolve::engine::scored::table",
    "plysolve::engine::scored::table_file",
    "plysolve::engine::chance",
];

/// Every import of `INTERNALS` in `code` (from `uses::code_only`), as `line: path`.
fn reaches_in(code: &str) -> Vec<String> {
    uses::named_paths(code, &["plysolve"])
        .into_iter()
        .map(|n| (n.line, n.path.join("::")))
        .filter(|(_, path)| {
            INTERNALS
                .iter()
                .any(|i| path == i || path.starts_with(&format!("{i}::")))
        })
        .map(|(line, path)| format!("{line}: {path}"))
        .collect()
}

#[test]
fn no_front_end_imports_the_engines_tables_or_chance() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    let mut files = 0;
    for front_end in ["ply-cli", "ply-web", "ply-py"] {
        for source in uses::sources(&crates.join(front_end).join("src")) {
            files += 1;
            for reach in reaches_in(&source.code) {
                found.push(format!("{}:{reach}", source.file.display()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The sources were read: the command line alone has dozens of files.
    assert!(files > 30, "{files}");
}

#[test]
fn each_way_of_reaching_in_is_seen() {
    let code = uses::code_only(
        "use plysolve::engine::scored::table::SubsetTable;\n\
         use plysolve::engine::{chance::{distribution_work}, MemoryBudget};\n\
         // plysolve::engine::chance in a comment is no import\n\
         fn f() { plysolve::engine::scored::table_file::load(); }\n\
         use plysolve::engine::scored::tables_of_mine::X;\n\
         use plysolve::games::dots::tables::BoardTable;\n",
    );
    assert_eq!(
        reaches_in(&code),
        [
            "1: plysolve::engine::scored::table::SubsetTable",
            "2: plysolve::engine::chance::distribution_work",
            "4: plysolve::engine::scored::table_file::load",
        ]
    );
}
