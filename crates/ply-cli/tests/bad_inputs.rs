//! The bad-input table of `RELIABILITY.md`, run row by row through the binary.
//!
//! Every row of the table is one [`Case`] below: the command, its input, the exit status and the exact
//! line on stderr (or its fixed beginning, where the rest is a figure of the machine, such as its free
//! memory). The test runs every case and then renders the table and compares it with the one in
//! `RELIABILITY.md`, so the document never claims a row that is not tested. `PLY_BLESS=1 cargo test
//! --test all bad_inputs::` rewrites the document's table after the cases changed.

use crate::common;

use common::{ply, ply_after_shell};
use std::path::{Path, PathBuf};

/// What a case feeds the command.
enum Input {
    /// Nothing (stdin is empty).
    Nothing,
    /// These bytes on stdin.
    Stdin(&'static [u8]),
    /// These bytes in a temporary file, whose path replaces `{file}` in the arguments.
    File(&'static [u8]),
    /// A temporary directory, whose path replaces `{dir}` in the arguments.
    Dir,
    /// A FIFO at `{file}`.
    Fifo,
    /// A symbolic link at `{file}` to a file that does not exist.
    DanglingLink,
}

/// What a case must print on stderr (one line, exit status 2, nothing on stdout).
enum Expect {
    /// Exactly this line.
    Line(&'static str),
    /// A line that begins so; the rest names a figure of the machine.
    Starts(&'static str),
}

/// One row of the table.
struct Case {
    /// The class of fault (the issue's classes and our own).
    class: &'static str,
    /// The arguments after `ply`.
    args: &'static [&'static str],
    /// What the command reads.
    input: Input,
    /// An address-space limit (bytes) the command runs under, through the shell's `ulimit -v`.
    limit_as: Option<u64>,
    /// The message.
    expect: Expect,
}

const fn case(class: &'static str, args: &'static [&'static str], expect: Expect) -> Case {
    Case {
        class,
        args,
        input: Input::Nothing,
        limit_as: None,
        expect,
    }
}

const fn with_input(
    class: &'static str,
    args: &'static [&'static str],
    input: Input,
    expect: Expect,
) -> Case {
    Case {
        class,
        args,
        input,
        limit_as: None,
        expect,
    }
}

use Expect::{Line, Starts};
use Input::{Dir, File, Stdin};

/// Every bad input of the table, by class.
const CASES: &[Case] = &[
    // Arguments: out of range, unknown, missing, clashing.
    case("arguments", &["dots", "triangles", "--size", "9"], Line("ply: triangle boards have size 1 to 6 (size 6 has 63 edges, the most a state holds); got 9")),
    case("arguments", &["dots", "triangles", "--size", "0"], Line("ply: triangle boards have size 1 to 6 (size 6 has 63 edges, the most a state holds); got 0")),
    case("arguments", &["dots", "solve", "triangles", "--size", "7"], Line("ply: triangle boards have size 1 to 6 (size 6 has 63 edges, the most a state holds); got 7")),
    case("arguments", &["dots", "boxes", "--rows", "0", "--cols", "3"], Line("ply: a board of 0×3 boxes has 3 edges; boards need at least one box and at most 63 edges")),
    case("arguments", &["dots", "boxes", "--rows", "9", "--cols", "9"], Line("ply: a board of 9×9 boxes has 180 edges; boards need at least one box and at most 63 edges")),
    case("arguments", &["dots", "triangles", "--strategy", "magic"], Line("ply: invalid value 'magic' for '--strategy <STRATEGY>' [possible values: auto, recursion, memo, table, free-table, search]")),
    case("arguments", &["dots", "solve"], Line("ply: `ply dots solve` needs a subcommand: triangles, boxes (see `ply dots solve --help`)")),
    case("arguments", &["dots", "frob"], Line("ply: unrecognized subcommand 'frob'")),
    case("arguments", &["--frob"], Line("ply: unexpected argument '--frob' found")),
    case("arguments", &["dots", "triangles", "--moves", "2-3", "--moves-file", "x"], Line("ply: the argument '--moves <MOVES>' cannot be used with '--moves-file <FILE>'")),
    case("arguments", &["heaps"], Line("ply: the following required arguments were not provided: <SIZES>...")),
    case("arguments", &["heaps", "1", "2", "--batch", "x"], Line("ply: the argument '[SIZES]...' cannot be used with '--batch [<FILE>]'")),
    case("arguments", &["dice-race", "compare", "7"], Line("ply: the following required arguments were not provided: <SECOND>")),
    case("arguments", &["magic-board", "generate", "--size", "8", "--solvable", "--unsolvable"], Line("ply: the argument '--solvable' cannot be used with '--unsolvable'")),
    case("arguments", &["magic-board", "generate", "--size", "3"], Line("ply: a board of size 3 breaks the size rule (5 to 20; --any-size allows 2 to 4096)")),
    case("arguments", &["magic-board", "stats", "--sizes", "9..5"], Line("ply: --sizes: `9..5` is an empty range")),
    case("arguments", &["magic-board", "stats", "--sizes", "x"], Line("ply: --sizes: `x` is not a range like 5..20")),
    case("arguments", &["magic-board", "stats", "--size", "5", "--boards", "0"], Line("ply: --boards must be at least 1")),
    case("arguments", &["solitaire"], Line("ply: no board: give the numbers as arguments or with --input FILE")),
    case("arguments", &["solitaire", "1", "2", "3", "--die", "0"], Line("ply: the die must have 1 to 1000000 faces, not 0")),
    case("arguments", &["solitaire", "1", "2", "3", "--die", "2000000"], Line("ply: the die must have 1 to 1000000 faces, not 2000000")),
    case("arguments", &["dice-race", "best", "--picks", "0"], Line("ply: --picks must be at least 1")),
    case("arguments", &["dice-race", "sums", "--dice", "0"], Line("ply: the number of dice must be at least 1")),
    case("arguments", &["dice-race", "sums", "--sides", "0"], Line("ply: dice must have at least 1 side")),
    case("arguments", &["dice-race", "simulate", "7", "6", "--games", "0"], Line("ply: --games and --max-games must be at least 1")),
    // A negative number given to an option: the option and the value are named.
    case("negative value", &["dots", "triangles", "--size", "-1"], Line("ply: --size: `-1` is not in 1..=6")),
    // One rule for every count option: no white space around the number, no sign on 0.
    case("negative value", &["dots", "triangles", "--size", "-0"], Line("ply: --size: `-0` is not in 1..=6")),
    case("negative value", &["bench", "dots-free", "--seed", "-0"], Line("ply: --seed: `-0` has a minus sign, which no count takes")),
    case("negative value", &["bench", "dots-free", "--seed", " -0"], Line("ply: --seed: ` -0` is not a whole number")),
    case("numbers", &["dots", "triangles", "--size", " 1"], Line("ply: --size: ` 1` is not a whole number")),
    case("numbers", &["dots", "boxes", "--rows", " 1"], Line("ply: --rows: ` 1` is not a whole number")),
    case("numbers", &["play", "boxes", "--level", "3 "], Line("ply: --level: `3 ` is not a level (1 to 8)")),
    case("negative value", &["dots", "triangles", "--lines", "-1"], Line("ply: --lines: `-1` is not in 1..=64")),
    case("negative value", &["play", "triangles", "--size", "-1"], Line("ply: --size: `-1` is not in 1..=6")),
    case("message", &["play", "triangles", "--level", "9"], Line("ply: --level: `9` is not a level (1 to 8)")),
    case("message", &["play", "triangles", "--level", "a\nb\x07c"], Line("ply: --level: `a\\nb\\x07c` is not a level (1 to 8)")),
    case("message", &["bench", "dots-player", "--opponent-level", "99999999999999999999999999999999999999999999999"], Line("ply: --opponent-level: `9999999999999999999999999999999999999999…` is not a level (1 to 8)")),
    case("message", &["dots", "triangles", "--time", "18446744073709551615h"], Line("ply: --time: `18446744073709551615h` is over the longest time accepted, 24 h")),
    case("message", &["dots", "book", "build", "b.plybook", "boxes", "--rows", "1", "--cols", "1", "--keep-every", "100ms"], Line("ply: --keep-every: `100ms` is under a second: a keep takes seconds")),
    case("negative value", &["dots", "book", "verify", "b.plybook", "--keep-every", "-10m"], Line("ply: --keep-every: `-10m` is no time at all; give more than 0 s")),
    case("message", &["dots", "triangles", "--memory", "18446744073709551615"], Line("ply: --memory: `18446744073709551615` is not a memory size like 8G or 512M (more than 18 digits)")),
    case("negative value", &["dots", "boxes", "--rows", "-2", "--cols", "3"], Line("ply: --rows: `-2` must not be negative")),
    case("negative value", &["dots", "triangles", "--memory", "-1"], Line("ply: --memory: `-1` must not be negative: give a size like 1G")),
    case("negative value", &["dots", "triangles", "--moves", "-1-2"], Line("ply: move 1: `-1-2` is not a move (write two dots: 2-4, 2 4 or 2,4)")),
    case("negative value", &["dice-race", "simulate", "7", "6", "--seed", "-1"], Line("ply: --seed: `-1` must not be negative")),
    case("negative value", &["dice-race", "equilibrium", "--picks", "-3"], Line("ply: --picks: `-3` must not be negative")),
    case("negative value", &["dice-race", "compare", "7", "7", "--sides", "-6"], Line("ply: --sides: `-6` must not be negative")),
    case("negative value", &["magic-board", "generate", "--size", "-2"], Line("ply: --size: `-2` must not be negative")),
    case("negative value", &["solitaire", "1", "2", "--die", "-3"], Line("ply: --die: `-3` must not be negative")),
    case("negative value", &["heaps", "-5"], Line("ply: heap 1 holds -5; every heap must hold at least 1 counter")),
    // Memory: never an abort, never over-promised.
    case("memory", &["dots", "triangles", "--memory", "64T"], Starts("ply: --memory 64.0 TiB (70368744177664 bytes) is more than this machine's")),
    case("memory", &["dots", "triangles", "--memory", "12Q"], Line("ply: --memory: `12Q` is not a memory size like 8G or 512M (invalid digit found in string)")),
    case("memory", &["dots", "triangles", "--memory", ""], Line("ply: --memory: `` is not a memory size like 8G or 512M (cannot parse integer from empty string)")),
    case("memory", &["dots", "triangles", "--memory", "0"], Line("ply: --memory: `0` is no memory at all: give a size like 1G")),
    case("memory", &["dots", "triangles", "--memory", "1Gb"], Line("ply: --memory: `1Gb` is not a memory size like 8G or 512M (a small b after a capital unit is bits: write B, or the unit alone)")),
    case("memory", &["dots", "boxes", "--rows", "3", "--cols", "3", "--memory", "1K", "--strategy", "table"], Line("ply: a table of 2^24 states (one byte each) needs 16.0 MiB (16777216 bytes) but the memory budget is 1.0 KiB (1024 bytes); try --strategy memo, or a larger --memory")),
    case("memory", &["dots", "triangles", "--size", "5", "--strategy", "table", "--memory", "1G"], Line("ply: a table of 2^45 states (one byte each) needs 32.0 TiB (35184372088832 bytes) but the memory budget is 1.0 GiB (1073741824 bytes); try --strategy memo, or a larger --memory")),
    case("memory", &["dots", "triangles", "--size", "5", "--strategy", "free-table", "--memory", "1K"], Line("ply: a table of 2^45 states (one byte each) needs 32.0 TiB (35184372088832 bytes) but the memory budget is 1.0 KiB (1024 bytes); try --strategy search, or a larger --memory")),
    // Two moves in: past the shipped book, which answers the empty board and every first move.
    case("memory", &["dots", "triangles", "--size", "5", "--moves", "1-2 2-3", "--strategy", "memo", "--memory", "200M"], Line("ply: a memo map growing past 3670016 states needs 204.0 MiB (213909504 bytes) but the memory budget is 200.0 MiB (209715200 bytes); try a larger --memory")),
    case("memory", &["dots", "solve", "boxes", "--rows", "1", "--cols", "11", "--memory", "8G"], Line("ply: a table of 2^34 states (one byte each) needs 16.0 GiB, over the memory budget of 8.0 GiB; `ply dots --strategy memo` asks its positions one at a time")),
    Case { class: "memory", args: &["dots", "boxes", "--rows", "3", "--cols", "4", "--strategy", "table"], input: Input::Nothing, limit_as: Some(1 << 30), expect: Starts("ply: a table of 2^31 states (one byte each) needs 2.0 GiB (2147483648 bytes) but the memory budget is") },
    Case { class: "memory", args: &["dots", "solve", "boxes", "--rows", "1", "--cols", "11"], input: Input::Nothing, limit_as: Some(8 << 30), expect: Starts("ply: a table of 2^34 states (one byte each) needs 16.0 GiB, over the memory budget of") },
    with_input("memory", &["magic-board", "--memory", "1", "{file}"], File(b"4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n"), Line("ply: a search over 40 states needs 200 B but the memory budget is 0 B (the 1 B budget is split over 4 corners, one search each)")),
    // A declared count whose records (or a line whose numbers) memory cannot hold: refused before it is read.
    with_input("memory", &["triangle-war"], Stdin(b"18446744073709551615\n6\n"), Starts("ply: line 1: keeping the answers of 18446744073709551615 games needs 2976.0 EiB (3431094397709976600390 bytes) but the memory budget is")),
    with_input("memory", &["bench", "dots", "--games", "-"], Stdin(b"100000000000000\n6\n"), Starts("ply: line 1: keeping the answers of 100000000000000 games needs 16.5 PiB (18600000000000000 bytes) but the memory budget is")),
    with_input("memory", &["heaps", "--batch"], Stdin(b"1000000000000\n1\n1\n"), Starts("ply: line 1: keeping the answers of 1000000000000 tests needs 8.2 TiB (9000000000000 bytes) but the memory budget is")),
    with_input("memory", &["heaps", "--batch"], Stdin(b"1\n1000000000000\n1 2\n"), Starts("ply: test 1: a line of 1000000000000 numbers needs 16.4 TiB (18000000000000 bytes) but the memory budget is")),
    // Bounded input: the first impossible byte or line ends the read.
    with_input("bounded input", &["triangle-war", "/dev/zero"], Input::Nothing, Line("ply: line 1: byte 0 of the input is `\\0`, which no valid input holds")),
    with_input("bounded input", &["heaps", "--batch", "/dev/zero"], Input::Nothing, Line("ply: line 1: byte 0 of the input is `\\0`, which no valid input holds")),
    with_input("bounded input", &["magic-board", "/dev/zero"], Input::Nothing, Line("ply: line 1: byte 0 of the input is `\\0`, which no valid input holds")),
    with_input("bounded input", &["bench", "dots", "--games", "/dev/zero"], Input::Nothing, Line("ply: line 1: byte 0 of the input is `\\0`, which no valid input holds")),
    with_input("bounded input", &["solitaire", "--input", "/dev/zero"], Input::Nothing, Line("ply: token 1 (line 1) `\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0…` is not an integer")),
    with_input("bounded input", &["dots", "triangles", "--moves-file", "/dev/zero"], Input::Nothing, Line("ply: line 1: byte 0 of the input is `\\0`, which no valid input holds")),
    with_input("bounded input", &["triangle-war"], Stdin(b"1\n6\n1 2\n1 3\n2 3\n"), Line("ply: game 1: the input ends before move 4 of 6 (after line 5)")),
    with_input("bounded input", &["triangle-war", "{file}"], File(b"2\n\x01\n"), Line("ply: game 1, line 2: byte 2 of the input is `\\x01`, which no valid input holds")),
    with_input("bounded input", &["heaps", "--batch"], Stdin(b"1\n3\n1 2 3 4\n"), Line("ply: test 1, line 3: expected 3 heap sizes, found 4 items")),
    with_input("bounded input", &["magic-board", "{file}"], File(b"4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n1 1 1 1 1\n"), Line("ply: the board is not square: 6 rows of 5 numbers")),
    with_input("bounded input", &["magic-board", "{file}"], File(b"4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n"), Line("ply: the board is not square: 4 rows of 5 numbers")),
    // Encoding: bytes that are not UTF-8 are named by line and offset.
    with_input("encoding", &["solitaire", "--input", "{file}"], File(b"1 2 \xff 3\n"), Line("ply: token 3 (line 1) `\\xff` is not an integer")),
    with_input("encoding", &["triangle-war"], Stdin(b"1\n6\n1 2\xc3\n"), Line("ply: game 1, line 3: byte 7 of the input starts invalid UTF-8 (`\\xc3`)")),
    with_input("encoding", &["heaps", "--batch", "{file}"], File(b"1\n3\n1 \xfe 3\n"), Line("ply: test 1, line 3: byte 6 of the input starts invalid UTF-8 (`\\xfe`)")),
    with_input("encoding", &["magic-board"], Stdin(b"4 4 4 1 1\n2 4 \xe2\x82 4 3\n"), Line("ply: line 2: byte 14 of the input starts invalid UTF-8 (`\\xe2\\x82`)")),
    with_input("encoding", &["dots", "triangles", "--moves-file", "-"], Stdin(b"2-3 \xff-4\n"), Line("ply: line 1: byte 4 of the input starts invalid UTF-8 (`\\xff`)")),
    // Messages quote at most 40 characters, escaped.
    case("message", &["dots", "triangles", "--moves", "2-3\x1b[31m"], Line("ply: move 1 `2-3\\x1b[31m`: `3\\x1b[31m` is not a dot number")),
    case("message", &["dots", "triangles", "--moves", "99999999999999999999999999999999999999999999999-2"], Line("ply: move 1: `9999999999999999999999999999999999999999…` is not a dot number")),
    case("message", &["heaps", "99999999999999999999999999999999999999999999999999999999"], Line("ply: heap 1 holds 9999999999999999999999999999999999999999…, more than the largest size (18446744073709551615)")),
    case("message", &["heaps", "1", "x\u{202e}y", "3"], Line("ply: heap 2: `x\\u{202e}y` is not a whole number")),
    case("message", &["fo\no"], Line("ply: unrecognized subcommand 'fo\\no'")),
    case("message", &["dots", "boxes", "--x\ny"], Line("ply: unexpected argument '--x\\ny' found")),
    case("message", &["dice-race", "compare", "7", "x\ty"], Line("ply: the second list: `x` is not a whole number")),
    with_input("message", &["triangle-war"], Stdin(b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"), Line("ply: line 1: `xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…` is not a whole number")),
    // Dots moves.
    case("moves", &["dots", "triangles", "--moves", "1-1"], Line("ply: move 1 `1-1`: dots 1 and 1 are not joined by an edge")),
    case("moves", &["dots", "triangles", "--moves", "1-9"], Line("ply: move 1 `1-9`: dots 1 and 9 are not joined by an edge")),
    case("moves", &["dots", "triangles", "--moves", "0-1"], Line("ply: move 1 `0-1`: dot 0 does not exist (this board has dots 1 to 10)")),
    case("moves", &["dots", "triangles", "--moves", "2-3 2-3"], Line("ply: move 2 `2-3`: edge 2-3 is already drawn (by move 1)")),
    case("moves", &["dots", "triangles", "--moves", "2-x"], Line("ply: move 1 `2-x`: `x` is not a dot number")),
    case("moves", &["dots", "triangles", "--moves", "2--3"], Line("ply: move 1: `2--3` is not a move (write two dots: 2-4, 2 4 or 2,4)")),
    case("moves", &["dots", "triangles", "--moves", "2-3-4"], Line("ply: move 1: `2-3-4` is not a move (write two dots: 2-4, 2 4 or 2,4)")),
    case("moves", &["dots", "boxes", "--rows", "3", "--cols", "3", "--moves", "1-6"], Line("ply: move 1 `1-6`: dots 1 and 6 are not joined by an edge")),
    // Contest formats.
    with_input("contest format", &["triangle-war"], Stdin(b"1\n2\n1 2\n3 4\n"), Line("ply: game 1, line 2: the number of moves must be 6 to 18, got 2")),
    with_input("contest format", &["triangle-war"], Stdin(b"x\n"), Line("ply: line 1: `x` is not a whole number")),
    with_input("contest format", &["heaps", "--batch"], Stdin(b"2\n3\n1 2 3\n"), Line("ply: test 2: the input ends before the heap count of test 2 of 2 (after line 3)")),
    // Heaps and lists.
    case("numbers", &["heaps", "1", "x", "3"], Line("ply: heap 2: `x` is not a whole number")),
    case("numbers", &["heaps", "0"], Line("ply: heap 1 holds 0; every heap must hold at least 1 counter")),
    case("numbers", &["heaps", "1e3"], Line("ply: heap 1: `1e3` is not a whole number")),
    case("numbers", &["dice-race", "compare", "7", "x"], Line("ply: the second list: `x` is not a whole number")),
    case("numbers", &["dice-race", "compare", "7", ""], Line("ply: the second list needs at least one sum")),
    case("numbers", &["dice-race", "compare", "1", "7"], Line("ply: the first list: sum 1 cannot be made by 2 dice of 6 sides (the sums are 2 to 12)")),
    case("numbers", &["heaps", "1,,2"], Line("ply: heaps: item 2 is empty")),
    case("numbers", &["heaps", ",1"], Line("ply: heaps: item 1 is empty")),
    case("numbers", &["solitaire", "1,,2"], Line("ply: token 2 (line 1) is empty")),
    case("numbers", &["dice-race", "compare", "7,,8", "7"], Line("ply: the first list: item 2 is empty")),
    case("numbers", &["dice-race", "simulate", "7", "6", "--games", "10", "--max-games", "5"], Line("ply: --games 10 is more than --max-games 5")),
    case("numbers", &["solitaire", "1", "2", "x"], Line("ply: token 3 (line 1) `x` is not an integer")),
    case("numbers", &["solitaire", "1", "2", "99999999999999999999999"], Line("ply: token 3 (line 1) `99999999999999999999999` is outside the 64-bit integer range")),
    // MagicBoard boards.
    with_input("board", &["magic-board", "{file}"], File(b"4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 0\n3 2 3 2 3\n3 4 2 2 1\n"), Line("ply: row 2, column 4 holds a second 0 (the first is at row 2, column 0): the board needs exactly one goal")),
    with_input("board", &["magic-board", "{file}"], File(b"4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 9 3\n3 4 2 2 1\n"), Line("ply: row 3, column 3: 9 is outside 0 to 4 (values must be below the size 5)")),
    with_input("board", &["magic-board", "{file}", "--start", "9,9"], File(b"4 4 4 1 1\n2 4 1 4 3\n0 2 1 3 2\n3 2 3 2 3\n3 4 2 2 1\n"), Line("ply: (9,9) is not a corner; the starts are (0,0), (0,4), (4,0) and (4,4)")),
    with_input("board", &["magic-board", "{file}", "--start", "x"], File(b""), Line("ply: --start: `x` is not ROW,COL")),
    with_input("board", &["magic-board", "{file}", "--start", "99999999999999999999,0"], File(b""), Line("ply: --start: `99999999999999999999` is too big for a row or column")),
    with_input("board", &["magic-board", "{file}"], File(b""), Line("ply: the board is empty")),
    // Files: directories, missing files, tables that are not tables.
    with_input("file", &["dots", "triangles", "--table", "{dir}"], Dir, Line("ply: {dir} is a directory, not a table file")),
    with_input("file", &["dots", "triangles", "--table", "/dev/null"], Input::Nothing, Line("ply: /dev/null is not a ply table file")),
    with_input("file", &["dots", "triangles", "--table", "{file}"], File(b"PLYTABLE but not really a table"), Line("ply: {file} is a table of format version 1953849888; this ply reads version 1")),
    with_input("file", &["dots", "triangles", "--table", "/nonexistent/x"], Input::Nothing, Line("ply: /nonexistent/x: No such file or directory (os error 2)")),
    with_input("file", &["dots", "solve", "triangles", "--size", "2", "--save", "{dir}"], Dir, Line("ply: --save: `{dir}` is a directory")),
    with_input("file", &["dots", "solve", "triangles", "--size", "2", "--save", "{file}"], Input::Fifo, Line("ply: --save: `{file}` is not a regular file")),
    with_input("file", &["dots", "solve", "triangles", "--size", "2", "--save", "{file}"], Input::DanglingLink, Line("ply: --save: `{file}` is not a regular file")),
    with_input("file", &["dots", "solve", "triangles", "--size", "2", "--save", "{file}"], File(b"my notes\n"), Line("ply: --save: `{file}` holds something else, not a ply table: a save replaces only a ply table; remove it first or name another file")),
    with_input("file", &["dots", "solve", "triangles", "--size", "2", "--save", "{file}"], File(b"SQLite format 3\0 (a book)"), Line("ply: --save: `{file}` is a SQLite file (a ply book?), not a ply table: a save replaces only a ply table; remove it first or name another file")),
    with_input("file", &["dots", "triangles", "--moves-file", "{dir}"], Dir, Line("ply: cannot read {dir}: is a directory")),
    with_input("file", &["triangle-war", "{dir}"], Dir, Line("ply: cannot read {dir}: is a directory")),
    with_input("file", &["solitaire", "--input", "{dir}"], Dir, Line("ply: cannot read {dir}: is a directory")),
    with_input("file", &["heaps", "--batch", "{dir}"], Dir, Line("ply: cannot read {dir}: is a directory")),
    with_input("file", &["magic-board", "{dir}"], Dir, Line("ply: cannot read {dir}: is a directory")),
    with_input("file", &["triangle-war", "/nonexistent"], Input::Nothing, Line("ply: cannot read /nonexistent: No such file or directory (os error 2)")),
    with_input("file", &["bench", "dots", "--games", "/nonexistent"], Input::Nothing, Line("ply: cannot read /nonexistent: No such file or directory (os error 2)")),
    // Long jobs: refused up front with the estimate.
    case("long job", &["dice-race", "best", "--picks", "9"], Line("ply: 9 picks of 11 sums make 92378 lists; the exhaustive search is limited to 20000 lists (up to 4266801253 exact races, about 12 hours)")),
    case("long job", &["dice-race", "equilibrium", "--picks", "30"], Line("ply: 30 picks of 11 sums make 847660528 lists; the exhaustive search is limited to 20000 lists (up to 359264184940789128 exact races, over a century)")),
    case("long job", &["dice-race", "sums", "--dice", "200"], Line("ply: 200 dice of 6 sides are too many: at most 10000 dice, 10000 sums and 2^128 outcomes")),
    case("long job", &["dice-race", "sums", "--dice", "2", "--sides", "4294967295"], Line("ply: 2 dice of 4294967295 sides are too many: at most 10000 dice, 10000 sums and 2^128 outcomes")),
    case("long job", &["magic-board", "stats", "--sizes", "5..21"], Line("ply: a board of size 21 breaks the size rule (5 to 20; --any-size allows 2 to 4096)")),
    case("long job", &["magic-board", "stats", "--size", "20", "--boards", "1000000000000000000"], Line("ply: drawing and searching 1000000000000000000 boards of size 20 would take over a century here (5·10^20 units of work; the limit is 6·10^9, about 60 s)")),
    case("long job", &["dots", "book", "build", "big.plybook", "boxes", "--rows", "4", "--cols", "4", "--depth", "10", "--memory", "256M"], Line("ply: a build of 10 moves lists more than 419430 positions here (over 128.0 MiB (134217600 bytes)), more than half the memory budget of 256.0 MiB (268435456 bytes) allows: build fewer moves, or allow more memory")),
    case("numbers", &["serve", "--port", "0", "--body-bytes", "1"], Line("ply: --body-bytes: 1 B is less than one body of the largest size the server takes (1 MiB): give at least 1M")),
    case("numbers", &["serve", "--port", "0", "--body-bytes", "1M", "--body-bytes-per-client", "2M"], Line("ply: --body-bytes-per-client: 2097152 B is more than --body-bytes allows all clients (1048576 B)")),
    case("numbers", &["bench", "dots-player", "--size", "2", "--games", "0"], Line("ply: --games: `0` is not in 1..=4294967295")),
    case("long job", &["magic-board", "stats", "--size", "4096", "--any-size"], Line("ply: drawing and searching 100000 boards of size 4096 would take about 5 hours here (1.7·10^12 units of work; the limit is 6·10^9, about 60 s)")),
];

/// Runs one case; `Err` says how its result differs from what the row claims.
fn run(case: &Case, scratch: &Path) -> Result<(), String> {
    let file = scratch.join("input");
    let args: Vec<String> = case
        .args
        .iter()
        .map(|a| {
            a.replace("{file}", file.to_str().expect("UTF-8 temp path"))
                .replace("{dir}", scratch.to_str().expect("UTF-8 temp path"))
        })
        .collect();
    let mut cmd = match case.limit_as {
        Some(bytes) => ply_after_shell(&format!("ulimit -v {}", bytes >> 10)),
        None => ply(),
    };
    cmd.args(&args);
    match case.input {
        Input::Stdin(bytes) => {
            cmd.write_stdin(bytes);
        }
        Input::File(bytes) => {
            std::fs::write(&file, bytes).map_err(|e| e.to_string())?;
            cmd.write_stdin("");
        }
        Input::Fifo => {
            let made = std::process::Command::new("mkfifo").arg(&file).status();
            made.map_err(|e| e.to_string())?;
            cmd.write_stdin("");
        }
        Input::DanglingLink => {
            std::os::unix::fs::symlink(scratch.join("nowhere"), &file)
                .map_err(|e| e.to_string())?;
            cmd.write_stdin("");
        }
        Input::Nothing | Input::Dir => {
            cmd.write_stdin("");
        }
    }
    let output = cmd.output().map_err(|e| e.to_string())?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    let line = stderr.strip_suffix('\n').unwrap_or(&stderr);
    let placed = |text: &str| {
        text.replace("{file}", file.to_str().expect("UTF-8 temp path"))
            .replace("{dir}", scratch.to_str().expect("UTF-8 temp path"))
    };
    let fine = output.status.code() == Some(2)
        && output.stdout.is_empty()
        && stderr.ends_with('\n')
        && !line.contains('\n')
        && line.len() <= 300
        && match case.expect {
            Expect::Line(text) => line == placed(text),
            Expect::Starts(text) => line.starts_with(&placed(text)),
        };
    if fine {
        Ok(())
    } else {
        Err(format!(
            "status {:?}, stdout {} bytes, stderr {:?}",
            output.status.code(),
            output.stdout.len(),
            stderr
        ))
    }
}

/// A code span that holds `text` whatever backticks it contains, with `|` escaped for a table cell.
fn code(text: &str) -> String {
    let text = text.replace('|', "\\|");
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// Quotes an argument as a shell would need it; control and invisible characters are written as
/// bash's `$'…'` escapes, so the table holds no raw control bytes.
fn shell_word(arg: &str) -> String {
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.,/:=+{}".contains(c))
    {
        arg.to_string()
    } else if arg.chars().all(|c| c.is_ascii_graphic() || c == ' ') {
        format!("'{}'", arg.replace('\'', r"'\''"))
    } else {
        let escaped: String = arg
            .chars()
            .map(|c| match c {
                '\'' => "\\'".to_string(),
                '\\' => "\\\\".to_string(),
                c if c.is_ascii_graphic() || c == ' ' => c.to_string(),
                c if (c as u32) < 0x80 => format!("\\x{:02x}", c as u32),
                c => format!("\\u{:04x}", c as u32),
            })
            .collect();
        format!("$'{escaped}'")
    }
}

/// Bytes shown as an escaped string, cut at 40 characters.
fn shown(bytes: &[u8]) -> String {
    let text: String = bytes.escape_ascii().to_string();
    if text.chars().count() > 40 {
        format!(
            "{}… ({} bytes)",
            text.chars().take(40).collect::<String>(),
            bytes.len()
        )
    } else {
        text
    }
}

/// The markdown table of every case.
fn table() -> String {
    let mut out =
        String::from("| # | class | command | input | message (exit 2) |\n|---|---|---|---|---|\n");
    for (i, case) in CASES.iter().enumerate() {
        let mut command = String::new();
        if let Some(bytes) = case.limit_as {
            command.push_str(&format!("ulimit -v {}; ", bytes >> 10));
        }
        command.push_str("ply");
        for arg in case.args {
            command.push(' ');
            command.push_str(&shell_word(arg));
        }
        let input = match case.input {
            Input::Nothing => String::new(),
            Input::Stdin(bytes) => format!("stdin {}", code(&shown(bytes))),
            Input::File(bytes) => format!("`{{file}}` holds {}", code(&shown(bytes))),
            Input::Dir => "`{dir}` is a directory".to_string(),
            Input::Fifo => "`{file}` is a FIFO".to_string(),
            Input::DanglingLink => "`{file}` is a link to no file".to_string(),
        };
        let message = match case.expect {
            Expect::Line(text) => code(text),
            Expect::Starts(text) => format!("{} …", code(text)),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            i + 1,
            case.class,
            code(&command),
            input,
            message
        ));
    }
    out
}

const START: &str = "<!-- bad-inputs:start -->\n";
const END: &str = "<!-- bad-inputs:end -->";

fn reliability_md() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../RELIABILITY.md")
}

#[test]
fn every_bad_input_of_the_table_fails_as_it_says() {
    let scratch = tempfile::tempdir().expect("a temp dir");
    // The cases are separate processes in directories of their own: a few run at once, since
    // each waits on its process more than it computes (the longest test of the binary else).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut failures: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| {
                scope.spawn(|| {
                    let mut failed = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(case) = CASES.get(i) else {
                            return failed;
                        };
                        let dir = scratch.path().join(format!("case{}", i + 1));
                        std::fs::create_dir_all(&dir).expect("a case dir");
                        if let Err(e) = run(case, &dir) {
                            failed.push((i, format!("row {} ({:?}): {e}", i + 1, case.args)));
                        }
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a case runner"))
            .collect()
    });
    failures.sort();
    let failures: Vec<String> = failures.into_iter().map(|(_, f)| f).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn reliability_md_lists_exactly_these_cases() {
    let path = reliability_md();
    let text = std::fs::read_to_string(&path).expect("RELIABILITY.md is readable");
    let start = text
        .find(START)
        .expect("RELIABILITY.md has the start marker")
        + START.len();
    let end = text.find(END).expect("RELIABILITY.md has the end marker");
    let expected = table();
    if std::env::var_os("PLY_BLESS").is_some() {
        let blessed = format!("{}{}{}", &text[..start], expected, &text[end..]);
        std::fs::write(&path, blessed).expect("RELIABILITY.md is written");
        return;
    }
    assert_eq!(
        &text[start..end],
        expected,
        "the table in RELIABILITY.md differs from the cases (PLY_BLESS=1 rewrites it)"
    );
    assert!(CASES.len() >= 80, "at least 80 bad inputs: {}", CASES.len());
}
