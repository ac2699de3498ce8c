//! Bounded input and printable messages, end to end: every whole-input reader stops at the first
//! byte or line that no valid input holds (`/dev/zero`, random bytes, endless lines and blank lines,
//! invalid UTF-8 with its line and byte offset), every message quotes at most 40 characters of the
//! input with control bytes escaped and stays within 300 bytes, and a negative value given to any
//! option is refused naming the option and the value.

use crate::common;

use common::{ply, stdout_of, TempFile};

/// Runs `ply args` with `stdin` (bytes) and asserts exit status 2, nothing on stdout and exactly the
/// line `expected` on stderr.
fn bad(args: &[&str], stdin: &[u8], expected: &str) {
    assert!(expected.starts_with("ply: ") && !expected.contains('\n'));
    assert!(
        expected.len() <= 300,
        "{} bytes: {expected}",
        expected.len()
    );
    ply()
        .args(args)
        .write_stdin(stdin)
        .assert()
        .failure()
        .code(2)
        .stdout("")
        .stderr(format!("{expected}\n"));
}

/// Every whole-input reader: the command line that reads `FILE`.
const READERS: [&[&str]; 6] = [
    &["triangle-war", "FILE"],
    &["heaps", "--batch", "FILE"],
    &["magic-board", "FILE"],
    &["dots", "triangles", "--moves-file", "FILE"],
    &["bench", "dots", "--games", "FILE"],
    &["solitaire", "--input", "FILE"],
];

fn with_file<'a>(reader: &[&'a str], file: &'a str) -> Vec<&'a str> {
    reader
        .iter()
        .map(|&a| if a == "FILE" { file } else { a })
        .collect()
}

/// The line readers' message for a NUL byte at `offset` on `line`.
fn nul_at(line: usize, offset: u64) -> String {
    format!("ply: line {line}: byte {offset} of the input is `\\0`, which no valid input holds")
}

const SOLITAIRE_NULS: &str = "ply: token 1 (line 1) `\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0…` is not an integer";

#[test]
fn dev_zero_is_refused_at_its_first_byte() {
    for reader in READERS {
        let expected = if reader[0] == "solitaire" {
            SOLITAIRE_NULS.to_string()
        } else {
            nul_at(1, 0)
        };
        bad(&with_file(reader, "/dev/zero"), b"", &expected);
        // The same from stdin.
        bad(&with_file(reader, "-"), &[0; 100_000], &expected);
    }
}

/// Deterministic bytes that look random (xorshift64*).
fn random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8
        })
        .collect()
}

#[test]
fn random_bytes_are_refused_at_the_first_impossible_byte() {
    let bytes = random_bytes(1 << 20, 7);
    // Invalid UTF-8 at once (0xd1 needs a continuation byte), then a control byte.
    assert_eq!(&bytes[..3], &[0xd1, 0xed, 0x16]);
    let file = TempFile::new("random.bin", &bytes);
    for reader in READERS {
        let expected = if reader[0] == "solitaire" {
            // The first token runs to the first space, byte 14.
            "ply: token 1 (line 1) `\\xd1\\xed\\x16\\x1b_h\\xda+]ʭ\\xba\\xa6\\xe6` is not an integer".to_string()
        } else {
            "ply: line 1: byte 0 of the input starts invalid UTF-8 (`\\xd1`)".to_string()
        };
        bad(&with_file(reader, file.arg()), b"", &expected);
    }
}

#[test]
fn invalid_utf8_is_named_with_its_line_and_offset() {
    let text = b"1\r\n6\n2 4\n4 \xff5\n";
    let file = TempFile::new("utf8.txt", text);
    bad(
        &["triangle-war", file.arg()],
        b"",
        "ply: game 1, line 4: byte 11 of the input starts invalid UTF-8 (`\\xff`)",
    );
    bad(
        &["heaps", "--batch"],
        b"2\r\n1\n4\n1\n\xff\n",
        "ply: test 2, line 5: byte 9 of the input starts invalid UTF-8 (`\\xff`)",
    );
    bad(
        &["magic-board", "-"],
        b"1 1 1 1 1\n1 1 1 1 1\n1 \xe2\x82 1 0 1\n",
        "ply: line 3: byte 22 of the input starts invalid UTF-8 (`\\xe2\\x82`)",
    );
    bad(
        &["dots", "triangles", "--moves-file", "-"],
        b"2-4\n\xc0\xaf-5\n",
        "ply: line 2: byte 4 of the input starts invalid UTF-8 (`\\xc0`)",
    );
}

#[test]
fn a_nul_byte_anywhere_stops_the_reading() {
    bad(
        &["triangle-war"],
        b"1\n6\n2 4\n4 5\0",
        "ply: game 1, line 4: byte 11 of the input is `\\0`, which no valid input holds",
    );
    bad(
        &["heaps", "--batch"],
        b"1\n3\n1 2\x003\n",
        "ply: test 1, line 3: byte 7 of the input is `\\0`, which no valid input holds",
    );
    bad(
        &["solitaire", "--input", "-"],
        b"1 2 3\x00",
        "ply: token 3 (line 1) `3\\0` is not an integer",
    );
}

/// A few megabytes on one line: far past any valid line, refused after its first few kilobytes.
#[test]
fn endless_lines_are_refused() {
    let long = "1".repeat(4 << 20);
    let war_limit = "the line is longer than 4160 bytes (with any blank lines before it); no valid line is that long";
    bad(
        &["triangle-war"],
        long.as_bytes(),
        &format!("ply: line 1: {war_limit}"),
    );
    bad(
        &["bench", "dots", "--games", "-"],
        long.as_bytes(),
        &format!("ply: line 1: {war_limit}"),
    );
    let batch = format!("1\n5\n{long}");
    bad(
        &["heaps", "--batch"],
        batch.as_bytes(),
        "ply: test 1, line 3: the line is longer than 4416 bytes (with any blank lines before it); no valid line is that long",
    );
    // A board row: 64 bytes a number and 4 KiB; the first row may be as wide as the widest board.
    bad(
        &["magic-board", "--any-size"],
        long.as_bytes(),
        "ply: line 1: the line is longer than 266240 bytes (with any blank lines before it); no valid line is that long",
    );
    let board = format!("1 1 1 1 1\n{long}");
    bad(
        &["magic-board"],
        board.as_bytes(),
        "ply: line 2: the line is longer than 4416 bytes (with any blank lines before it); no valid line is that long",
    );
    // A move list holds at most one move per edge: 18 edges, 128 bytes each, and 4 KiB.
    bad(
        &["dots", "triangles", "--moves-file", "-"],
        long.as_bytes(),
        "ply: line 1: the input goes on past 6400 bytes; no valid input is that long",
    );
    let spaced = "2-4 ".to_string() + &" ".repeat(7000) + "\n";
    bad(
        &["dots", "triangles", "--moves-file", "-"],
        spaced.as_bytes(),
        "ply: line 1: the input goes on past 6400 bytes; no valid input is that long",
    );
}

#[test]
fn endless_blank_lines_are_refused() {
    let blank = "\n".repeat(1 << 20);
    bad(
        &["triangle-war"],
        blank.as_bytes(),
        "ply: line 4161: the line is longer than 4160 bytes (with any blank lines before it); no valid line is that long",
    );
    // Blank lines within the bound are fine.
    let sample = "\n".repeat(4000) + "1\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n";
    assert_eq!(
        stdout_of(&["triangle-war"], Some(&sample)),
        "Game 1: B wins.\n"
    );
}

#[test]
fn a_directory_is_named_by_every_reader() {
    let dir = std::env::temp_dir();
    let dir = dir.to_str().expect("the temp path is UTF-8");
    for reader in READERS {
        bad(
            &with_file(reader, dir),
            b"",
            &format!("ply: cannot read {dir}: is a directory"),
        );
    }
}

#[test]
fn magic_boards_with_commas_and_any_line_ending() {
    let board = "4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n";
    let expected = stdout_of(&["magic-board"], Some(board));
    assert!(expected.starts_with("5×5 board, goal at (2,0)\n"));
    for variant in [
        board.replace(' ', ","),
        board.replace(' ', ", "),
        board.replace('\n', "\r"),
        board.replace('\n', "\r\n"),
    ] {
        assert_eq!(stdout_of(&["magic-board"], Some(&variant)), expected);
    }
    bad(&["magic-board"], &[0; 30], &nul_at(1, 0));
    bad(
        &["magic-board"],
        b"\n\n\0\0\0",
        "ply: line 3: byte 2 of the input is `\\0`, which no valid input holds",
    );
    let tall = board.to_string() + &"1 1 1 1 1\n".repeat(1000);
    bad(
        &["magic-board"],
        tall.as_bytes(),
        "ply: the board is not square: more than 10 rows of 5 numbers",
    );
}

#[test]
fn long_and_binary_tokens_are_quoted_short_and_escaped() {
    let junk = "x".repeat(100_000);
    let short_junk = &junk[..1000];
    let cut = format!("`{}…`", "x".repeat(40));
    bad(
        &["dots", "triangles", "--moves", &junk],
        b"",
        &format!("ply: move 1: {cut} is not a dot number"),
    );
    bad(
        &["dice-race", "compare", &format!("5,{junk}"), "7"],
        b"",
        &format!("ply: the first list: {cut} is not a whole number"),
    );
    bad(
        &["heaps", "1", "\u{1b}[2J\u{7}"],
        b"",
        "ply: heap 2: `\\x1b[2J\\x07` is not a whole number",
    );
    bad(
        &["triangle-war"],
        format!("1\n6\n2 4\n4 5\n5 9\n3 6\n2 5\n3 5\n{short_junk}\u{202e}\n").as_bytes(),
        &format!("ply: line 9: unexpected {cut} after the last game (1 declared)"),
    );
    bad(
        &["heaps", "--batch"],
        "1\n1\n1\n\u{202e}\u{85}x\n".as_bytes(),
        "ply: line 4: unexpected `\\u{202e}\\u{85}x` after the last test (1 declared)",
    );
    bad(
        &["magic-board"],
        format!("4 4 4 1 1\n2 {short_junk} 1 4 3\n").as_bytes(),
        &format!("ply: row 1, column 1: {cut} is not a whole number"),
    );
    bad(
        &["magic-board"],
        format!("4 4 4 1 1\n2 {} 1 4 3\n", "9".repeat(1000)).as_bytes(),
        &format!(
            "ply: row 1, column 1: {}… is outside 0 to 4 (values must be below the size 5)",
            "9".repeat(40)
        ),
    );
    bad(
        &["solitaire", &format!("1 {junk}")],
        b"",
        &format!("ply: token 2 (line 1) {cut} is not an integer"),
    );
    // Options' values are quoted the same way, by our parsers and by clap's own.
    bad(
        &["dots", "triangles", "--size", &"9".repeat(5000)],
        b"",
        &format!("ply: --size: `{}…` is not in 1..=6", "9".repeat(40)),
    );
    bad(
        &["dots", "triangles", "--size", "\u{1b}[31mred\u{7}"],
        b"",
        "ply: --size: `\\x1b[31mred\\x07` is not a whole number",
    );
    bad(
        &["dots", "boxes", "--rows", "\u{1b}[31mred\u{7}"],
        b"",
        "ply: --rows: `\\x1b[31mred\\x07` is not a whole number",
    );
    bad(
        &["magic-board", "--start", &junk],
        b"",
        &format!("ply: --start: {cut} is not ROW,COL"),
    );
}

#[test]
fn negative_values_name_the_option_and_the_value() {
    let cases: [(&[&str], &str); 12] = [
        (
            &["dots", "triangles", "--size", "-1"],
            "ply: --size: `-1` is not in 1..=6",
        ),
        (
            &["dots", "boxes", "--rows", "-3"],
            "ply: --rows: `-3` must not be negative",
        ),
        (
            &["dots", "boxes", "--json", "--cols", "-3"],
            "ply: --cols: `-3` must not be negative",
        ),
        (
            &["dots", "triangles", "--memory", "-1"],
            "ply: --memory: `-1` must not be negative: give a size like 1G",
        ),
        (
            &["dots", "triangles", "--moves", "-1-2"],
            "ply: move 1: `-1-2` is not a move (write two dots: 2-4, 2 4 or 2,4)",
        ),
        (
            &["dots", "solve", "--memory", "-1", "triangles"],
            "ply: --memory: `-1` must not be negative: give a size like 1G",
        ),
        (
            &["magic-board", "generate", "--size", "-1"],
            "ply: --size: `-1` must not be negative",
        ),
        (
            &["magic-board", "stats", "--size", "5", "--seed", "-1"],
            "ply: --seed: `-1` must not be negative",
        ),
        (
            &["magic-board", "stats", "--sizes", "-5..20"],
            "ply: --sizes: `-5..20` is not a range like 5..20",
        ),
        (
            &["dice-race", "simulate", "7", "7", "--games", "-10"],
            "ply: --games: `-10` must not be negative",
        ),
        (
            &["dice-race", "best", "--picks", "-2"],
            "ply: --picks: `-2` must not be negative",
        ),
        (
            &["solitaire", "--die", "-6", "1", "2"],
            "ply: --die: `-6` must not be negative",
        ),
    ];
    for (args, expected) in cases {
        bad(args, b"", expected);
    }
    // Negative positional values are values too.
    bad(
        &["dice-race", "compare", "-1", "7"],
        b"",
        "ply: the first list: `-1` is not a whole number",
    );
    assert_eq!(
        stdout_of(&["solitaire", "-1", "-2", "5"], None),
        "4\npath: 0 -> 2\nthrows: 2\n"
    );
}
