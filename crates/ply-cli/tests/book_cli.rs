//! `ply dots book` and `ply dots … --book FILE` end to end, through the binary: the exact output and
//! exit status of build, stats, show, export, import, merge and verify on small books; the values a
//! book gives against the same answer searched with no book (`--no-book --strategy search`) and
//! against the known values of empty boards; entries forged through `import` found by `verify` and
//! refused by `merge`; bad book files (a directory, garbage, a newer format, another application's
//! SQLite file, a missing file) refused with one line on stderr, nothing on stdout, exit 2; and
//! `--book` keeping what an answer proved (positions of at least 24 free edges).

use crate::common;

use common::ply;
use predicates::prelude::*;
use serde_json::Value;
use std::path::Path;

/// A directory of its own; commands run in it, so messages name books by short relative paths.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// Runs `ply args` in `dir`: (exit status, stdout, stderr).
fn run_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    let mut cmd = ply();
    cmd.current_dir(dir).args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let output = cmd.output().expect("ply runs");
    (
        output.status.code().expect("ply exits"),
        String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    )
}

/// Runs `ply args` in `dir`, asserting success with nothing on stderr; gives stdout.
fn ok_in(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = run_in(dir, args, None);
    assert_eq!((code, err.as_str()), (0, ""), "ply {args:?}: {out}");
    out
}

/// Runs `ply args` in `dir`, asserting exit 2, nothing on stdout and exactly `line` on stderr.
fn refused_in(dir: &Path, args: &[&str], line: &str) {
    let (code, out, err) = run_in(dir, args, None);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (2, "", format!("{line}\n").as_str()),
        "ply {args:?}"
    );
}

/// Imports the one JSON `line` into `new.book` in `dir`, asserting exit 2, nothing on stdout and
/// exactly `message` on stderr.
fn import_refused(dir: &Path, line: &str, message: &str) {
    let (code, out, err) = run_in(
        dir,
        &["dots", "book", "import", "new.book", "-"],
        Some(&format!("{line}\n")),
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (2, "", format!("{message}\n").as_str())
    );
}

/// The names of the files in `dir`, sorted.
fn files_in(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|f| f.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    files
}

/// Whether `text` matches `pattern` whole.
fn matches(pattern: &str, text: &str) -> bool {
    predicate::str::is_match(format!("^{pattern}$"))
        .unwrap()
        .eval(text)
}

/// A book of every position up to one move on the size-3 triangles board, `b.book` in `dir`.
fn triangles_book(dir: &Path) {
    let out = ok_in(
        dir,
        &[
            "dots",
            "book",
            "build",
            "b.book",
            "triangles",
            "--size",
            "3",
            "--depth",
            "1",
        ],
    );
    assert_eq!(
        out,
        "`b.book`: 5 positions of 5 in Dots and Triangles, size 3 (5 exact)\n\
         Start: -3, best move 1-2 (in the key's frame)\n"
    );
}

/// The lines `export` writes for `book` in `dir`.
fn export(dir: &Path, book: &str) -> String {
    ok_in(dir, &["dots", "book", "export", book])
}

/// `lines` with the entry of `position` given the value `value`, written to `name` in `dir`.
fn forged(dir: &Path, name: &str, lines: &str, forgeries: &[(&str, i32)]) {
    let mut out = String::new();
    for line in lines.lines() {
        let mut entry: Value = serde_json::from_str(line).unwrap();
        for &(position, value) in forgeries {
            if entry["position"] == position {
                entry["lower"] = value.into();
                entry["upper"] = value.into();
            }
        }
        out.push_str(&entry.to_string());
        out.push('\n');
    }
    std::fs::write(dir.join(name), out).unwrap();
}

/// The (move, value) pairs of a JSON answer.
fn move_values(answer: &Value) -> Vec<(String, i64)> {
    answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_string(),
                m["value"].as_i64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn build_stats_and_show_of_a_small_book() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    // Built again: every position found, the same summary.
    triangles_book(dir);
    let stats = ok_in(dir, &["dots", "book", "stats", "b.book"]);
    assert!(
        matches(
            "triangles-3: 5 positions \\(5 exact, 0 checked by a second proof\\), 17–18 free \
             edges, [1-9][0-9]* nodes, [0-9]+\\.[0-9] s\n",
            &stats
        ),
        "{stats}"
    );
    let json: Value =
        serde_json::from_str(&ok_in(dir, &["dots", "book", "stats", "b.book", "--json"])).unwrap();
    // Reading a book leaves nothing beside it (SQLite's WAL files are removed as it closes).
    ok_in(dir, &["dots", "book", "export", "b.book"]);
    ok_in(
        dir,
        &["dots", "triangles", "--size", "3", "--book", "b.book"],
    );
    let files: Vec<String> = files_in(dir)
        .into_iter()
        .filter(|f| f.starts_with("b.book"))
        .collect();
    assert_eq!(files, ["b.book"]);
    let board = &json["boards"][0];
    assert_eq!(json["boards"].as_array().unwrap().len(), 1);
    assert_eq!(
        (
            &board["board"],
            &board["positions"],
            &board["exact"],
            &board["checked"],
            &board["fewest_free"],
            &board["most_free"]
        ),
        (
            &Value::from("triangles-3"),
            &Value::from(5),
            &Value::from(5),
            &Value::from(0),
            &Value::from(17),
            &Value::from(18)
        )
    );
    assert!(board["nodes"].as_u64().unwrap() > 0 && board["seconds"].as_f64().unwrap() >= 0.0);
    // The empty board: its value, a best move, and its children's values, which are the negated
    // values of the moves as the search with no book gives them (no first move scores).
    let show = ok_in(
        dir,
        &["dots", "book", "show", "b.book", "triangles", "--size", "3"],
    );
    let searched: Value = serde_json::from_str(&ok_in(
        dir,
        &[
            "dots",
            "triangles",
            "--size",
            "3",
            "--no-book",
            "--strategy",
            "search",
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(searched["value"], -3);
    let mut children = String::new();
    let mut moves = move_values(&searched);
    moves.sort_by_key(|(name, _)| {
        let (a, b) = name.split_once('-').unwrap();
        (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap())
    });
    for (name, value) in &moves {
        children.push_str(&format!("  {name:>7}  child {:+}\n", -value));
    }
    let lines: Vec<&str> = show.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "Dots and Triangles, size 3, key 0x0",
            "Value: -3, best move 1-2"
        ]
    );
    assert!(
        matches(
            "In `b.book`: proved by ply 0\\.1\\.0 children \\([0-9]+ nodes, [0-9]+\\.[0-9] s\\)",
            lines[2]
        ),
        "{show}"
    );
    assert_eq!(
        lines[3..].join("\n") + "\n",
        format!("Moves whose position is in the books: 18 of 18\n{children}")
    );
    // The best move is one: worth the value.
    assert!(moves.contains(&("1-2".to_string(), -3)));
    // A position one move in, and one two moves in (not in the book).
    let show = ok_in(
        dir,
        &[
            "dots",
            "book",
            "show",
            "b.book",
            "triangles",
            "--size",
            "3",
            "--moves",
            "1-2",
        ],
    );
    assert!(
        matches(
            "Dots and Triangles, size 3, key 0x1\nValue: \\+3, best move 2-4\nIn `b.book`: proved \
             by ply 0\\.1\\.0 search low-first \\([0-9]+ nodes, [0-9]+\\.[0-9] s\\)\nMoves whose \
             position is in the books: 0 of 17\n",
            &show
        ),
        "{show}"
    );
    let after: Value = serde_json::from_str(&ok_in(
        dir,
        &[
            "dots",
            "triangles",
            "--size",
            "3",
            "--moves",
            "1-2",
            "--no-book",
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(after["value"], 3);
    assert!(move_values(&after).contains(&("2-4".to_string(), 3)));
    assert_eq!(
        ok_in(
            dir,
            &[
                "dots",
                "book",
                "show",
                "b.book",
                "triangles",
                "--size",
                "3",
                "--moves",
                "1-2 2-3",
            ],
        ),
        "Dots and Triangles, size 3, key 0x5\nNot in the books.\n\
         Moves whose position is in the books: 0 of 16\n"
    );
}

#[test]
fn export_then_import_round_trips() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    let lines = export(dir, "b.book");
    assert_eq!(lines.lines().count(), 5);
    let first: Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    assert_eq!(
        (
            &first["board"],
            &first["key"],
            &first["free"],
            &first["lower"],
            &first["upper"],
            &first["best"],
            &first["position"],
            &first["proved_by"],
            &first["checked_by"]
        ),
        (
            &Value::from("triangles-3"),
            &Value::from(0),
            &Value::from(18),
            &Value::from(-3),
            &Value::from(-3),
            &Value::from("1-2"),
            &Value::from(""),
            &Value::from("ply 0.1.0 children"),
            &Value::Null
        )
    );
    std::fs::write(dir.join("b.jsonl"), &lines).unwrap();
    assert_eq!(
        ok_in(dir, &["dots", "book", "import", "c.book", "b.jsonl"]),
        "`c.book`: 5 entries imported\n"
    );
    assert_eq!(export(dir, "c.book"), lines);
    // From stdin, into a book that has them: met, unchanged.
    let (code, out, err) = run_in(
        dir,
        &["dots", "book", "import", "c.book", "-"],
        Some(&lines),
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "`c.book`: 5 entries imported\n", "")
    );
    assert_eq!(export(dir, "c.book"), lines);
    // An entry that cannot be right: refused, naming the line and the fault; nothing imported.
    let first_line = lines.lines().next().unwrap();
    std::fs::write(
        dir.join("wide.jsonl"),
        first_line.replace("\"lower\":-3,\"upper\":-3", "\"lower\":-30,\"upper\":3"),
    )
    .unwrap();
    let (code, out, err) = run_in(
        dir,
        &["dots", "book", "import", "w.book", "wide.jsonl"],
        None,
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "ply: line 1: position triangles-3 0x0: bounds -30..3 (at most ±9 here)\n"
        )
    );
    // Nothing imported, and no book made.
    assert!(!dir.join("w.book").exists());
    // A line that is no entry: refused, naming the line.
    std::fs::write(dir.join("bad.jsonl"), format!("{lines}{{\"board\": 1}}\n")).unwrap();
    let (code, out, err) = run_in(
        dir,
        &["dots", "book", "import", "d.book", "bad.jsonl"],
        None,
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "ply: line 6: not a book entry: \"board\" must be a string, not `1`\n"
        )
    );
}

#[test]
fn merge_adds_entries_and_refuses_a_conflict_naming_the_position() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    assert_eq!(
        ok_in(dir, &["dots", "book", "merge", "d.book", "b.book"]),
        "`d.book`: 5 entries merged from `b.book`\n"
    );
    assert_eq!(export(dir, "d.book"), export(dir, "b.book"));
    // Merged again: the same entries met, nothing changes.
    assert_eq!(
        ok_in(dir, &["dots", "book", "merge", "d.book", "b.book"]),
        "`d.book`: 5 entries merged from `b.book`\n"
    );
    assert_eq!(export(dir, "d.book"), export(dir, "b.book"));
    // A book saying the position after 1-2 is worth +1 (it is +3).
    let lines = export(dir, "b.book");
    let one: String = lines
        .lines()
        .filter(|l| l.contains("\"position\":\"1-2\""))
        .map(|l| format!("{l}\n"))
        .collect();
    forged(dir, "e.jsonl", &one, &[("1-2", 1)]);
    assert_eq!(
        ok_in(dir, &["dots", "book", "import", "e.book", "e.jsonl"]),
        "`e.book`: 1 entry imported\n"
    );
    let conflict =
        "`d.book`: position triangles-3 0x1 (`1-2`) is proved +3 there and +1 here: one \
                    of the proofs is wrong";
    refused_in(
        dir,
        &["dots", "book", "merge", "d.book", "e.book"],
        &format!("ply: {conflict}"),
    );
    assert_eq!(export(dir, "d.book"), lines, "nothing written");
    refused_in(
        dir,
        &["dots", "book", "import", "d.book", "e.jsonl"],
        &format!("ply: line 1: {conflict}"),
    );
    assert_eq!(export(dir, "d.book"), lines, "nothing written");
}

#[test]
fn verify_agrees_with_a_built_book_and_reports_forged_entries() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    let lines = export(dir, "b.book");
    assert_eq!(
        ok_in(dir, &["dots", "book", "verify", "b.book"]),
        "triangles-3: 5 verified, 5 agree (1 from their checked children), 0 checked before, \
         0 not settled in the time, 0 disagree\n"
    );
    let stats = ok_in(dir, &["dots", "book", "stats", "b.book"]);
    assert!(
        stats.starts_with("triangles-3: 5 positions (5 exact, 5 checked by a second proof)"),
        "{stats}"
    );
    for line in export(dir, "b.book").lines() {
        let entry: Value = serde_json::from_str(line).unwrap();
        let by = if entry["position"] == "" {
            "ply 0.1.0 children"
        } else {
            "ply 0.1.0 search high-first"
        };
        assert_eq!(entry["checked_by"], by, "{line}");
    }
    assert_eq!(
        ok_in(
            dir,
            &["dots", "book", "verify", "b.book", "--sample", "2", "--seed", "3"]
        ),
        "triangles-3: 2 verified, 2 agree (0 from their checked children), 0 checked before, \
         0 not settled in the time, 0 disagree\n"
    );
    // Resumed, a verify proves nothing checked before.
    assert_eq!(
        ok_in(dir, &["dots", "book", "verify", "b.book", "--resume"]),
        "triangles-3: 5 verified, 0 agree (0 from their checked children), 5 checked before, \
         0 not settled in the time, 0 disagree\n"
    );
    // Two forged values: the empty board (-3) said +1, the position after 1-2 (+3) said +1.
    forged(dir, "g.jsonl", &lines, &[("", 1), ("1-2", 1)]);
    ok_in(dir, &["dots", "book", "import", "g.book", "g.jsonl"]);
    let (code, out, err) = run_in(dir, &["dots", "book", "verify", "g.book"], None);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            1,
            "triangles-3: 5 verified, 3 agree (0 from their checked children), 0 checked before, \
             0 not settled in the time, 2 disagree\n  \
             disagreement: 1-2 (key 0x1): book +1, second proof +3\n  \
             disagreement: the empty board (key 0x0): book +1, second proof -3\n",
            "ply: 2 entries disagree with their second proofs\n"
        )
    );
}

/// Bytes 60..64 (the format, SQLite's user version) or 68..72 (the application id) of the book at
/// `path` set to `value`: the SQLite file header, big-endian.
fn patch_header(path: &Path, offset: usize, value: u32) {
    let mut bytes = std::fs::read(path).unwrap();
    bytes[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn bad_book_files_are_refused_in_one_line() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    std::fs::create_dir(dir.join("adir")).unwrap();
    std::fs::write(dir.join("junk.book"), "garbage, not a book\n".repeat(50)).unwrap();
    std::fs::copy(dir.join("b.book"), dir.join("newer.book")).unwrap();
    patch_header(&dir.join("newer.book"), 60, 2);
    std::fs::copy(dir.join("b.book"), dir.join("other.db")).unwrap();
    patch_header(&dir.join("other.db"), 68, 0x1234_5678);
    let cases = [
        ("adir", "`adir`: is a directory"),
        (
            "junk.book",
            "`junk.book`: not a ply book (not an SQLite file)",
        ),
        (
            "newer.book",
            "`newer.book`: a ply book of format 2, newer than this ply reads (1); update ply",
        ),
        (
            "other.db",
            "`other.db`: not a ply book (application id 0x12345678)",
        ),
    ];
    for (file, fault) in cases {
        let line = format!("ply: {fault}");
        let before = std::fs::metadata(dir.join(file))
            .map(|m| m.is_dir() || m.len() > 0)
            .unwrap();
        assert!(before);
        for args in [
            vec!["dots", "book", "stats", file],
            vec!["dots", "book", "stats", file, "--json"],
            vec!["dots", "book", "show", file, "triangles", "--size", "3"],
            vec!["dots", "book", "export", file],
            vec!["dots", "book", "verify", file],
            vec!["dots", "book", "merge", "into.book", file],
            vec!["dots", "book", "merge", file, "b.book"],
            vec!["dots", "book", "import", file, "-"],
            vec!["dots", "book", "build", file, "triangles", "--size", "2"],
            vec!["dots", "triangles", "--size", "2", "--book", file],
            vec!["dots", "triangles", "--size", "2", "--book", file, "--json"],
        ] {
            refused_in(dir, &args, &line);
        }
    }
    // A file that is not there: read, refused; written, made.
    for args in [
        vec!["dots", "book", "stats", "none.book"],
        vec![
            "dots",
            "book",
            "show",
            "none.book",
            "triangles",
            "--size",
            "3",
        ],
        vec!["dots", "book", "export", "none.book"],
        vec!["dots", "book", "verify", "none.book"],
        vec!["dots", "book", "merge", "into.book", "none.book"],
    ] {
        refused_in(dir, &args, "ply: `none.book`: no such book");
    }
    assert!(!dir.join("none.book").exists());
    // The bad files are left as they were.
    assert_eq!(
        std::fs::read_to_string(dir.join("junk.book")).unwrap(),
        "garbage, not a book\n".repeat(50)
    );
}

#[test]
fn ply_dots_answers_from_a_book_with_the_values_of_the_search() {
    let dir = scratch();
    let dir = dir.path();
    assert_eq!(
        ok_in(
            dir,
            &[
                "dots",
                "book",
                "build",
                "t4.book",
                "triangles",
                "--size",
                "4",
                "--depth",
                "1"
            ],
        ),
        "`t4.book`: 7 positions of 7 in Dots and Triangles, size 4 (7 exact)\n\
         Start: -2, best move 1-2 (in the key's frame)\n"
    );
    let lines = export(dir, "t4.book");
    let booked: Value = serde_json::from_str(&ok_in(
        dir,
        &[
            "dots",
            "triangles",
            "--size",
            "4",
            "--book",
            "t4.book",
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(booked["strategy"], "book");
    assert_eq!(booked["value"], -2);
    assert_eq!(booked["exact"], true);
    assert_eq!(booked["states_visited"], 0);
    let searched: Value = serde_json::from_str(&ok_in(
        dir,
        &[
            "dots",
            "triangles",
            "--size",
            "4",
            "--no-book",
            "--strategy",
            "search",
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(searched["strategy"], "search");
    assert_eq!(searched["value"], -2);
    assert_eq!(move_values(&booked), move_values(&searched));
    assert_eq!(move_values(&booked).len(), 30);
    let best = booked["best_move"].as_str().unwrap();
    assert!(move_values(&searched).contains(&(best.to_string(), -2)));
    // Answered from the book: nothing written into it.
    assert_eq!(export(dir, "t4.book"), lines);
    // The text answer says where its values came from, and names no time limit.
    let text = ok_in(
        dir,
        &["dots", "triangles", "--size", "4", "--book", "t4.book"],
    );
    assert!(text.contains("Value: -2 for A"), "{text}");
}

#[test]
fn ply_dots_book_keeps_a_proved_position_with_24_free_edges() {
    let dir = scratch();
    let dir = dir.path();
    let moves = "1-2 2-3 3-4 4-5 16-17 17-18 18-19";
    let args = [
        "dots", "boxes", "--rows", "3", "--cols", "4", "--moves", moves, "--book", "new.book",
        "--json",
    ];
    let first: Value = serde_json::from_str(&ok_in(dir, &args)).unwrap();
    assert_eq!(first["exact"], true);
    assert_ne!(first["strategy"], "book");
    let value = first["value"].as_i64().unwrap();
    assert_eq!(value, 4);
    // The position with its best move, and each move's child (23 free edges: twins merged).
    let stats = ok_in(dir, &["dots", "book", "stats", "new.book"]);
    assert!(
        matches(
            "boxes-3x4: 24 positions \\(24 exact, 0 checked by a second proof\\), 23–24 free \
             edges, [1-9][0-9]* nodes, [0-9]+\\.[0-9] s\n",
            &stats
        ),
        "{stats}"
    );
    let root: Value = export(dir, "new.book")
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|e| e["free"] == 24)
        .unwrap();
    assert_eq!(
        (&root["lower"], &root["upper"]),
        (&Value::from(4), &Value::from(4))
    );
    assert!(root["best"].is_string());
    // Asked again: answered from the book, the same values.
    let again: Value = serde_json::from_str(&ok_in(dir, &args)).unwrap();
    assert_eq!(again["strategy"], "book");
    assert_eq!(again["value"], 4);
    assert_eq!(move_values(&again), move_values(&first));
    // Searched with no book: the same.
    let searched: Value = serde_json::from_str(&ok_in(
        dir,
        &[
            "dots",
            "boxes",
            "--rows",
            "3",
            "--cols",
            "4",
            "--moves",
            moves,
            "--no-book",
            "--strategy",
            "search",
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(searched["value"], 4);
    assert_eq!(move_values(&searched), move_values(&first));
    // One more edge drawn (23 free): proved, not kept; the book is made all the same.
    let fewer = format!("{moves} 6-7");
    ok_in(
        dir,
        &[
            "dots",
            "boxes",
            "--rows",
            "3",
            "--cols",
            "4",
            "--moves",
            &fewer,
            "--book",
            "few.book",
            "--value-only",
        ],
    );
    assert_eq!(
        ok_in(dir, &["dots", "book", "stats", "few.book"]),
        "`few.book`: no positions\n"
    );
    assert_eq!(
        ok_in(dir, &["dots", "book", "stats", "few.book", "--json"]),
        "{\"boards\":[]}\n"
    );
}

/// A proof's time that no proof took (found by the `book_file` fuzz target: a row whose seconds are
/// -inf opened, and its export, `"seconds":null`, was refused by import): refused in one line, in a
/// book file and in an imported line.
#[test]
fn a_time_no_proof_took_is_refused() {
    let dir = scratch();
    let dir = dir.path();
    let crash = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/crashes/book_file/row-seconds-infinite");
    std::fs::copy(crash, dir.join("inf.book")).unwrap();
    refused_in(
        dir,
        &["dots", "book", "stats", "inf.book"],
        "ply: `inf.book`: damaged book: position triangles-2 0x0: -inf seconds is no time a proof took",
    );
    let line = r#"{"board":"triangles-2","key":0,"free":9,"lower":-2,"upper":-2,"best":"1-2","nodes":0,"seconds":-1.0,"proved_by":"ply 0.1.0 children","checked_by":null,"position":""}"#;
    import_refused(
        dir,
        line,
        "ply: line 1: position triangles-2 0x0: -1 seconds is no time a proof took",
    );
}

/// A field named with control characters (found by the `book_import` fuzz target: serde_json's
/// message echoed the name as written, line breaks and escapes included): named escaped, on one line.
#[test]
fn an_imported_line_is_quoted_escaped() {
    let dir = scratch();
    let line = r#"{"board":"triangles-2","key":0,"free":9,"lower":-2,"upper":-2,"best":"1-2","nodes":0,"seconds":0.0,"proved_by":"p","checked_by":null,"position":"","x\u001b[31my\nz":1}"#;
    import_refused(
        dir.path(),
        line,
        "ply: line 1: not a book entry: unknown key \"x\\\\x1b[31my\\\\nz\" (the keys are \"board\", \"key\", \"free\", \"lower\", \"upper\", \"best\", \"nodes\", \"seconds\", \"proved_by\", \"checked_by\", \"position\")",
    );
}

/// The probe's book (issue 30): the size-3 triangles book of one move with the entry of `position`
/// given `value` (imported as one would a line of JSON: each entry alone can be right), `name` in
/// `dir`. The start's best move is left out: with it, the start and its best move's entry would
/// contradict each other as the book is read (`a_best_move_its_entry_contradicts_is_refused_…`),
/// before any of the contradictions these books are made for could be met.
fn wrong_book(dir: &Path, name: &str, position: &str, value: i32) {
    if !dir.join("b.book").exists() {
        triangles_book(dir);
    }
    let lines: String = export(dir, "b.book")
        .lines()
        .map(|line| {
            let mut entry: Value = serde_json::from_str(line).unwrap();
            if entry["position"] == "" {
                entry["best"] = Value::Null;
            }
            entry.to_string() + "\n"
        })
        .collect();
    forged(dir, "wrong.jsonl", &lines, &[(position, value)]);
    ok_in(dir, &["dots", "book", "import", name, "wrong.jsonl"]);
}

/// A book whose entry of a position and of its best move's position disagree (the probe's lie:
/// 1-2 made +9 on size-3 triangles, whose start is -3 with best move 1-2) is refused whatever is
/// asked of the board — the lie's own position with `--value-only` too, where no search meets it.
#[test]
fn a_best_move_its_entry_contradicts_is_refused_whatever_is_asked() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    let lines = export(dir, "b.book");
    forged(dir, "lie.jsonl", &lines, &[("1-2", 9)]);
    ok_in(dir, &["dots", "book", "import", "lie.book", "lie.jsonl"]);
    let line = "ply: the book `lie.book` contradicts itself at the start: -3 there with best move \
                1-2, but that move is worth -9 by its entry of 1-2; the book is damaged (ply dots \
                book verify)";
    let base = ["dots", "triangles", "--size", "3", "--book", "lie.book"];
    for more in [
        &["--moves", "1-2", "--value-only", "--json"][..],
        &[],
        &["--moves", "2-3 4-5"],
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(more);
        refused_in(dir, &args, line);
    }
    // The honest book answers.
    let out = ok_in(
        dir,
        &[
            "dots",
            "triangles",
            "--size",
            "3",
            "--book",
            "b.book",
            "--moves",
            "1-2",
            "--value-only",
            "--json",
        ],
    );
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["value"], 3);
}

/// An import line's position must be the one its key stands for: a line edited by hand in one
/// place and not the other is refused, naming both.
#[test]
fn an_imported_position_that_is_not_its_key_s_is_refused() {
    let dir = scratch();
    let line = r#"{"board":"triangles-2","key":0,"free":9,"lower":-2,"upper":-2,"best":"1-2","nodes":0,"seconds":0.0,"proved_by":"p","checked_by":null,"position":"1-2"}"#;
    import_refused(
        dir.path(),
        line,
        "ply: line 1: position `1-2` is not the one key 0 stands for (``)",
    );
    assert!(!dir.path().join("new.book").exists(), "nothing made");
}

/// `ply play` reading an endless line of bytes no one types (`< /dev/zero`) ends at once with one
/// line, instead of passing over the line for ever.
#[test]
fn play_ends_on_an_endless_line_of_nul_bytes() {
    let dir = scratch();
    let mut cmd = ply();
    cmd.current_dir(dir.path())
        .args(["play", "triangles", "--size", "3", "--seed", "1"])
        .write_stdin(vec![0u8; 3 << 20]);
    let output = cmd.output().expect("ply runs");
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(output.stderr).unwrap(),
        "ply: line 1: the line is longer than 1048576 bytes (with any blank lines before it); no \
         valid line is that long\n"
    );
}

/// After `ply play --book` ends, the book file alone holds what the game proved (a copy of the
/// `.plybook` without its `-wal` misses nothing): the game checkpoints after each answer it keeps.
#[test]
fn a_book_kept_by_play_is_whole_in_its_file() {
    let dir = scratch();
    let dir = dir.path();
    let (code, _, err) = run_in(
        dir,
        &[
            "play",
            "boxes",
            "--rows",
            "3",
            "--cols",
            "4",
            // 25 free edges: the reply at 24 (KEEP_FREE, the fewest a book keeps) is proved in a
            // fraction of a second on a quiet machine, so the game keeps what it proved. A turn
            // ends when its position is proved: the long think time costs nothing then, and keeps
            // the proof within the turn on a machine so loaded that 2 s of think proved nothing.
            "--moves",
            "1-2 2-3 3-4 4-5 16-17 17-18",
            "--book",
            "p.book",
            "--seed",
            "1",
            "--think",
            "60s",
        ],
        Some("18-19\nquit\n"),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    // The game over, its analysis's thread has ended with it: the book closed, no SQLite file
    // (`-wal`, `-shm`) beside it.
    let files = files_in(dir);
    assert_eq!(files, ["p.book"]);
    std::fs::copy(dir.join("p.book"), dir.join("copy.book")).unwrap();
    let stats = ok_in(dir, &["dots", "book", "stats", "copy.book"]);
    assert!(
        matches(
            "boxes-3x4: [1-9][0-9]* positions \\([1-9][0-9]* exact, .*\n",
            &stats
        ),
        "{stats}"
    );
    assert_eq!(stats, ok_in(dir, &["dots", "book", "stats", "p.book"]));
}

/// A book whose entries contradict each other or the search never crashes `ply dots` or `ply
/// play`: one line naming the book and the position, exit 2 — the value wrong at a child (1-2 is
/// +3, not +1 or -9) and at the start (-3, not -1), asked at the start and at the child.
#[test]
fn a_book_that_contradicts_itself_or_the_search_is_refused_naming_it() {
    let dir = scratch();
    let dir = dir.path();
    let damaged = "; the book is damaged (ply dots book verify)";
    let cases = [
        ("1-2", 1, "", format!("ply: the book `w.book` contradicts itself at the start: -3 there, but -1 by its entries after each move{damaged}")),
        ("1-2", 1, "1-2", format!("ply: the book `w.book` contradicts the search at 1-2: +1 there, but the search proves +3{damaged}")),
        ("1-2", -9, "", format!("ply: the book `w.book` contradicts itself at the start: -3 there, but +9 by its entries after each move{damaged}")),
        ("1-2", -9, "1-2", format!("ply: the book `w.book` contradicts the search at 1-2: -9 there, but the search proves +3{damaged}")),
        ("", -1, "", format!("ply: the book `w.book` contradicts itself at the start: -1 there, but -3 by its entries after each move{damaged}")),
    ];
    for (position, value, moves, line) in cases {
        let _ = std::fs::remove_file(dir.join("w.book"));
        wrong_book(dir, "w.book", position, value);
        let base = ["dots", "triangles", "--size", "3", "--book", "w.book"];
        let with_moves = |more: &[&'static str]| {
            let mut args = base.to_vec();
            args.extend_from_slice(more);
            if !moves.is_empty() {
                args.extend(["--moves", moves]);
            }
            args
        };
        // (`--value-only` is the book's value alone: nothing is met that could contradict it.)
        for more in [&[][..], &["--json"]] {
            refused_in(dir, &with_moves(more), &line);
        }
        // `ply play` (piped): the user's first move is graded from the analysis that fails.
        if moves.is_empty() {
            let (code, out, err) = run_in(
                dir,
                &["play", "triangles", "--size", "3", "--book", "w.book"],
                Some("1-2\n"),
            );
            assert_eq!((code, err), (2, format!("{line}\n")), "{out}");
            assert!(!out.contains("type a move"), "{out}");
        }
    }
    // The answer of the search at 1-2 without the book is +3 (what the book contradicts).
    let out = ok_in(
        dir,
        &[
            "dots",
            "triangles",
            "--size",
            "3",
            "--moves",
            "1-2",
            "--no-book",
            "--json",
        ],
    );
    let answer: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["value"], 3);
}

/// The server answers a request that meets a contradicting book with 422 and the same line, on
/// every dots question; the analysis stream ends with it as its error event.
#[test]
fn the_server_refuses_what_a_contradicting_book_answers_with_422() {
    let dir = scratch();
    let dir = dir.path();
    wrong_book(dir, "w.book", "1-2", 1);
    let book = dir.join("w.book");
    let book = book.to_str().unwrap();
    let server = common::server::Server::start_with(&["--book", book]);
    let damaged = "; the book is damaged (ply dots book verify)";
    let at_child = format!("the book `{book}` contradicts the search at 1-2: +1 there, but the search proves +3{damaged}");
    let at_start = format!("the book `{book}` contradicts itself at the start: -3 there, but -1 by its entries after each move{damaged}");
    let body = |text: &str| serde_json::json!({ "error": text }).to_string();
    let child = r#"{"game":"triangles","moves":"1-2"}"#;
    for path in ["/api/dots", "/api/play/dots"] {
        assert_eq!(server.post(path, child), (422, body(&at_child)), "{path}");
        assert_eq!(
            server.post(path, r#"{"game":"triangles"}"#),
            (422, body(&at_start)),
            "{path}"
        );
    }
    // A review goes through the game from its start.
    assert_eq!(
        server.post("/api/dots/review", child),
        (422, body(&at_start))
    );
    // Found before the analysis's first event: refused as /api/dots refuses it.
    assert_eq!(
        server.post("/api/dots/analyse", child),
        (422, body(&at_child))
    );
}

/// Cheap checks when a book is read, each refused in one line in the book's terms: an exact value
/// of the wrong parity, bounds of the wrong parity tightened, a board the boards table does not
/// name, a board ply does not make, no file or no folder; `verify` of an empty SQLite file.
#[test]
fn a_book_read_is_checked_in_its_own_terms() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    let lines = export(dir, "b.book");
    // +2 with 9 cells open: refused on import.
    forged(dir, "parity.jsonl", &lines, &[("1-2", 2)]);
    refused_in(
        dir,
        &["dots", "book", "import", "p.book", "parity.jsonl"],
        "ply: line 2: position triangles-3 0x1: the value +2 cannot be: with 9 cells open it is odd",
    );
    assert!(!dir.join("p.book").exists());
    // Bounds 2..4 with 9 cells open prove 3..3: kept tightened.
    let second = lines.lines().nth(1).unwrap();
    let tightened = second.replace("\"lower\":3,\"upper\":3", "\"lower\":2,\"upper\":4");
    assert_ne!(tightened, second);
    let (code, _, err) = run_in(
        dir,
        &["dots", "book", "import", "t.book", "-"],
        Some(&tightened),
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(export(dir, "t.book").contains("\"lower\":3,\"upper\":3"));
    // What proved an entry is shown to users: a control character there is damage, not output.
    let escaped = second.replace("\"proved_by\":\"", "\"proved_by\":\"\\u001b[2J");
    assert_ne!(escaped, second);
    let (code, out, err) = run_in(
        dir,
        &["dots", "book", "import", "e.book", "-"],
        Some(&escaped),
    );
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        matches(
            r"ply: line 1: position triangles-3 0x1: proved_by holds `\\x1b\[2Jply [^`]*`, not a note of what proved it\n",
            &err
        ),
        "{err}"
    );
    assert!(!dir.join("e.book").exists());
    // No such file, no such folder, no file at all.
    refused_in(
        dir,
        &["dots", "triangles", "--book", "nodir/x.book"],
        "ply: `nodir/x.book`: the folder `nodir` does not exist",
    );
    refused_in(
        dir,
        &["dots", "triangles", "--book", "/dev/null"],
        "ply: `/dev/null`: is not a file",
    );
    refused_in(
        dir,
        &["dots", "triangles", "--book", "b.book", "--no-book"],
        "ply: the argument '--book <FILE>' cannot be used with '--no-book'",
    );
    // An SQLite file of no table (one page of 512 bytes: the header, an empty schema): verify
    // writes only into a book, and makes none.
    let mut page = vec![0u8; 512];
    page[..16].copy_from_slice(b"SQLite format 3\0");
    page[16..24].copy_from_slice(&[2, 0, 1, 1, 0, 64, 32, 32]);
    for (offset, value) in [
        (24, 1u32),
        (28, 1),
        (44, 4),
        (56, 1),
        (92, 1),
        (96, 3_045_000),
    ] {
        page[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
    }
    page[100..108].copy_from_slice(&[0x0d, 0, 0, 0, 0, 2, 0, 0]);
    std::fs::write(dir.join("empty.book"), &page).unwrap();
    refused_in(
        dir,
        &["dots", "book", "verify", "empty.book"],
        "ply: `empty.book`: not a ply book (empty)",
    );
}

/// Writers check what they write into: a damaged INTO is refused before anything is written, a
/// damaged FROM before INTO is made, and one book merged into itself (by another path, or a link)
/// is refused.
#[test]
fn writers_refuse_a_damaged_book_and_a_book_merged_into_itself() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    let lines = export(dir, "b.book");
    std::fs::write(dir.join("b.jsonl"), &lines).unwrap();
    let damaged = "ply: `bad.book`: damaged book: position triangles-3 0x0: nodes -5 is no count a proof took";
    std::fs::copy(dir.join("b.book"), dir.join("bad.book")).unwrap();
    let (code, _, err) = run_in(
        dir,
        &[
            "dots",
            "book",
            "show",
            "bad.book",
            "triangles",
            "--size",
            "3",
        ],
        None,
    );
    assert_eq!((code, err.as_str()), (0, ""));
    // The start's entry given nodes -5 (what no proof took), as another program could write it.
    rusqlite::Connection::open(dir.join("bad.book"))
        .unwrap()
        .execute_batch("UPDATE positions SET nodes = -5 WHERE key = 0")
        .unwrap();
    let before = std::fs::read(dir.join("bad.book")).unwrap();
    for args in [
        vec!["dots", "book", "merge", "bad.book", "b.book"],
        vec!["dots", "book", "import", "bad.book", "b.jsonl"],
        vec![
            "dots",
            "book",
            "build",
            "bad.book",
            "triangles",
            "--size",
            "3",
            "--depth",
            "1",
        ],
        vec!["dots", "book", "merge", "into.book", "bad.book"],
    ] {
        refused_in(dir, &args, damaged);
    }
    assert_eq!(std::fs::read(dir.join("bad.book")).unwrap(), before);
    assert!(!dir.join("into.book").exists());
    std::os::unix::fs::symlink("b.book", dir.join("link.book")).unwrap();
    for (into, from) in [("b.book", "b.book"), ("link.book", "./b.book")] {
        refused_in(
            dir,
            &["dots", "book", "merge", into, from],
            &format!("ply: `{into}`: the same book as `{from}`: a book is not merged into itself"),
        );
    }
}

/// A build of millions of positions lists them for seconds before it proves any: the listing
/// shows its count and stops at Ctrl-C, the book untouched (not even made).
#[test]
fn a_long_listing_shows_progress_and_stops_at_an_interrupt() {
    let dir = scratch();
    let cache = scratch();
    // Eight moves into 4×4 boxes: some 6.2 million positions, seconds to list.
    let args = [
        "dots",
        "book",
        "--progress",
        "build",
        "b.book",
        "--depth",
        "8",
        "--memory",
        "4G",
        "boxes",
        "--rows",
        "4",
        "--cols",
        "4",
    ];
    let (first, rest, output) = interrupted_after_first_line(
        dir.path(),
        cache.path(),
        &args,
        std::time::Duration::ZERO,
        "-INT",
    );
    assert_eq!(first, "ply: 16384 positions listed\n");
    assert_eq!(output.status.code(), Some(130), "{rest}");
    assert_eq!(output.stdout, b"");
    assert_eq!(
        rest.lines().last(),
        Some("ply: interrupted while listing the positions: `b.book` untouched"),
        "{rest}"
    );
    assert!(!dir.path().join("b.book").exists());
}

/// Runs ply with `args` in `dir`, reads its first line on stderr, waits `pause` and sends it
/// `signal` (`-INT`): gives the first line, the rest of stderr and how ply ended.
fn interrupted_after_first_line(
    dir: &std::path::Path,
    cache: &std::path::Path,
    args: &[&str],
    pause: std::time::Duration,
    signal: &str,
) -> (String, String, std::process::Output) {
    signalled_when(dir, cache, args, &|| std::thread::sleep(pause), signal)
}

/// Runs ply with `args` in `dir`, reads its first line on stderr, waits as `wait` does and sends
/// it `signal`: gives the first line, the rest of stderr and how ply ended.
fn signalled_when(
    dir: &std::path::Path,
    cache: &std::path::Path,
    args: &[&str],
    wait: &dyn Fn(),
    signal: &str,
) -> (String, String, std::process::Output) {
    use std::io::BufRead;
    let mut child = common::ply_process(cache)
        .current_dir(dir)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("ply runs");
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    assert!(
        stderr.read_line(&mut first).unwrap() > 0,
        "ply said nothing"
    );
    wait();
    let killed = std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    (first, rest, child.wait_with_output().unwrap())
}

/// Ctrl-C (SIGINT) or SIGTERM a second into a build's proof: the build stops at once, keeping
/// what its search proved of the position (the book's unfinished work), says so in one line,
/// writes nothing on stdout and exits 130; the same command then finishes it, with the value a
/// build never stopped gives.
#[test]
fn an_interrupted_build_keeps_its_proved_part_and_resumes() {
    let dir = scratch();
    let cache = scratch();
    // A 4×4 position of 32 free edges: +2, some 8 million states (seconds of search).
    let args = build_args("17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21");
    for signal in ["-INT", "-TERM"] {
        // The build's first line, then a second of its search.
        let (_, rest, output) = interrupted_after_first_line(
            dir.path(),
            cache.path(),
            &args,
            std::time::Duration::from_secs(1),
            signal,
        );
        assert_eq!(output.status.code(), Some(130), "{signal}: {rest}");
        assert_eq!(output.stdout, b"");
        let last = rest.lines().last().unwrap_or_default();
        assert_eq!(
            last,
            "ply: interrupted: 0 of 1 positions settled in `b.book`, with what the search proved \
             of the one it was proving; the same command resumes",
            "{signal}"
        );
        assert!(
            rest.contains("ply: interrupted: stopping, keeping what is proved"),
            "{rest}"
        );
        let kept = kept_of(&dir.path().join("b.book"), "build");
        assert!(kept > 1_000, "{signal}: {kept} states kept");
    }
    let (code, out, _) = run_in(dir.path(), &args, None);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "`b.book`: 1 positions of 1 in Dots and Boxes, 4×4 (1 exact)\nStart: +2, best move 14-19 (in the key's frame)\n"
    );
}

/// `ply dots book --progress build b.book boxes --rows 4 --cols 4 --moves MOVES`.
fn build_args(moves: &str) -> [&str; 12] {
    [
        "dots",
        "book",
        "--progress",
        "build",
        "b.book",
        "boxes",
        "--rows",
        "4",
        "--cols",
        "4",
        "--moves",
        moves,
    ]
}

/// The rows of `table` in the book at `path` (0 when it has no such table).
fn rows_of(path: &Path, table: &str) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap_or(0)
}

/// The states the 4×4 book at `path` keeps as the part `part` of its unfinished work (`build`,
/// `check`), as the library counts them (its tests count them from the file).
fn kept_of(path: &Path, part: &str) -> u64 {
    use plysolve::games::dots::book::unfinished::Unfinished;
    let part = match part {
        "build" => Unfinished::Build,
        _ => Unfinished::Check,
    };
    plysolve::games::dots::book::BookFile::open(path, false, false)
        .and_then(|book| book.unfinished_count("boxes-4x4", part))
        .unwrap_or(0)
}

/// A build killed outright (SIGKILL: no handler runs) in the middle of a long proof, once it has
/// kept its work (`--keep-every`), still leaves what its search had proved then, and an intact book
/// the same command resumes from.
#[test]
fn a_build_killed_outright_leaves_what_it_last_kept() {
    let dir = scratch();
    let cache = scratch();
    // A 4×4 position of 35 free edges: −2, some 80 million states (many seconds of search).
    let mut args = build_args("6-7 7-8 17-18 18-19 9-10").to_vec();
    args.extend(["--memory", "512M", "--keep-every", "1s"]);
    let book = dir.path().join("b.book");
    // Killed once a keep is in the book (up to two minutes on a loaded machine).
    let kept_once = || {
        for _ in 0..1200 {
            if kept_of(&book, "build") > 0 {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("nothing kept in two minutes");
    };
    let (_, rest, output) = signalled_when(dir.path(), cache.path(), &args, &kept_once, "-KILL");
    assert_eq!(output.status.code(), None, "{rest}");
    assert_eq!(rows_of(&book, "positions"), 0);
    let kept = kept_of(&book, "build");
    assert!(kept > 1_000, "{kept} states kept");
    assert_eq!(kept_of(&book, "check"), 0);
    let (code, out, err) = run_in(dir.path(), &["dots", "book", "stats", "b.book"], None);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            format!(
                "boxes-4x4: no positions yet; unfinished proofs kept {kept} states for a build to \
                 start from\n"
            )
            .as_str(),
            ""
        )
    );
}

/// Ctrl-C a second into a verification's second proof: it stops at once, keeping what the
/// second proof had proved apart from a build's (part `check`), says so in one line, writes
/// nothing on stdout and exits 130; `--resume` then checks the entry, agreeing.
#[test]
fn an_interrupted_verification_keeps_its_proved_part_and_resumes() {
    let dir = scratch();
    let cache = scratch();
    // A 4×4 position of 32 free edges: +2, some 8 million states.
    let shape = ["boxes", "--rows", "4", "--cols", "4"];
    let moves = ["--moves", "17-18 8-13 2-3 14-19 18-19 9-14 12-17 16-21"];
    let mut build = vec!["dots", "book", "build", "b.book"];
    build.extend(shape);
    build.extend(moves);
    let (code, _, err) = run_in(dir.path(), &build, None);
    assert_eq!(code, 0, "{err}");
    let book = dir.path().join("b.book");
    let built_kept = kept_of(&book, "build");
    let (_, rest, output) = interrupted_after_first_line(
        dir.path(),
        cache.path(),
        &["dots", "book", "--progress", "verify", "b.book"],
        std::time::Duration::from_secs(1),
        "-INT",
    );
    assert_eq!(output.status.code(), Some(130), "{rest}");
    assert_eq!(output.stdout, b"");
    assert_eq!(
        rest.lines().last(),
        Some(
            "ply: interrupted: 0 entries checked in `b.book`, with what the second proof under \
             way had proved; the same command with --resume goes on"
        ),
        "{rest}"
    );
    let kept = kept_of(&book, "check");
    assert!(kept > 1_000, "{kept} states kept");
    assert_eq!(kept_of(&book, "build"), built_kept);
    let (code, stats, _) = run_in(dir.path(), &["dots", "book", "stats", "b.book"], None);
    assert_eq!(code, 0);
    assert!(
        stats.ends_with(&format!(
            " s; unfinished proofs kept {kept} states for a verify --resume to start from\n"
        )) || stats.ends_with(&format!(
            " s; unfinished proofs kept {built_kept} states for a build to start from, {kept} \
             states for a verify --resume to start from\n"
        )),
        "{stats}"
    );
    let (code, out, err) = run_in(
        dir.path(),
        &["dots", "book", "verify", "b.book", "--resume"],
        None,
    );
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            0,
            "boxes-4x4: 1 verified, 1 agree (0 from their checked children), 0 checked before, \
             0 not settled in the time, 0 disagree\n",
            ""
        )
    );
}

/// A build whose list of positions is more than half its memory holds (4×4 boxes, ten moves, in
/// 256 MiB: some 10^11 positions) is refused in one line as its list reaches that many, naming the
/// figures, with no book file left behind — not aborted by the allocator minutes later.
#[test]
fn a_build_too_big_for_its_memory_is_refused_and_leaves_no_file() {
    let dir = scratch();
    refused_in(
        dir.path(),
        &[
            "dots", "book", "build", "big.book", "boxes", "--rows", "4", "--cols", "4", "--depth",
            "10", "--memory", "256M",
        ],
        "ply: a build of 10 moves lists more than 419430 positions here (over 128.0 MiB \
         (134217600 bytes)), more than half the memory budget of 256.0 MiB (268435456 bytes) \
         allows: build fewer moves, or allow more memory",
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A line read from a book goes on past the book's last position to the end of the game where
/// what is left is small (2×2 boxes, a book of two moves: all 12 moves, worth the value the book
/// gives, +2; the shipped size-4 triangles book: all 30 of the empty board's, the same as with no
/// book), and where it is not (the shipped 4×4 book leaves 38 free edges) it ends where the book
/// does, saying so.
#[test]
fn a_line_from_a_book_goes_on_to_the_end_where_the_rest_is_small() {
    let dir = scratch();
    let dir = dir.path();
    ok_in(
        dir,
        &[
            "dots", "book", "build", "x.book", "boxes", "--rows", "2", "--cols", "2", "--depth",
            "2",
        ],
    );
    let json: Value = serde_json::from_str(&ok_in(
        dir,
        &[
            "dots", "boxes", "--rows", "2", "--cols", "2", "--book", "x.book", "--line", "--json",
        ],
    ))
    .unwrap();
    assert_eq!(json["strategy"], "book");
    let line: Vec<&str> = json["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(
        (line.len(), json["line_steps"].as_array().unwrap().len()),
        (12, 12)
    );
    // Played out, the line ends with A ahead by the value (the empty 2×2 board: +2 for A).
    let end: Value = serde_json::from_str(&ok_in(
        dir,
        &[
            "dots",
            "boxes",
            "--rows",
            "2",
            "--cols",
            "2",
            "--moves",
            &line.join(" "),
            "--json",
        ],
    ))
    .unwrap();
    assert_eq!(json["value"], 2);
    assert_eq!(
        (
            end["over"].as_bool(),
            end["score"]["A"].as_i64(),
            end["score"]["B"].as_i64()
        ),
        (Some(true), Some(3), Some(1))
    );
    let shipped = ok_in(dir, &["dots", "triangles", "--size", "4", "--line"]);
    let searched = ok_in(
        dir,
        &["dots", "triangles", "--size", "4", "--line", "--no-book"],
    );
    let best_line = |text: &str| text.lines().last().unwrap().to_string();
    assert!(
        best_line(&shipped).starts_with("Best line: A 1-2, B 4-7, A 2-4"),
        "{shipped}"
    );
    assert_eq!(best_line(&shipped).matches(", ").count(), 29);
    assert_eq!(best_line(&shipped), best_line(&searched));
    let four = ok_in(
        dir,
        &["dots", "boxes", "--rows", "4", "--cols", "4", "--line"],
    );
    assert_eq!(
        best_line(&four),
        "Best line (as far as it is proved): A 1-2, B 1-6"
    );
}

/// A book named by a hard link is the same book: a merge of it into itself through one is refused
/// as through its own name (nothing written, no file left beside it); a book's name that is not
/// UTF-8 is shown with its bytes escaped, never as `�`.
#[test]
fn a_hard_link_is_the_same_book_and_names_are_shown_escaped() {
    let dir = scratch();
    let dir = dir.path();
    triangles_book(dir);
    std::fs::hard_link(dir.join("b.book"), dir.join("h.book")).unwrap();
    refused_in(
        dir,
        &["dots", "book", "merge", "b.book", "h.book"],
        "ply: `b.book`: the same book as `h.book`: a book is not merged into itself",
    );
    let files = files_in(dir);
    assert_eq!(files, ["b.book", "h.book"]);
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(b"no\xffsuch.book");
        let output = common::ply()
            .current_dir(dir)
            .args(["dots", "book", "stats"])
            .arg(name)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert_eq!(
            String::from_utf8(output.stderr).unwrap(),
            "ply: `no\\xffsuch.book`: no such book\n"
        );
    }
}
