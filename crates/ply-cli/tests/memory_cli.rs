//! End-to-end tests of the memory budget: the `ply` binary run under a lowered address-space limit
//! (`RLIMIT_AS`, what `ulimit -v` and `prlimit --as` set), or given a `--memory` it cannot have, must
//! refuse with exit status 2 and one line naming the bytes — never abort with exit status 134.

use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};

const GIB: u64 = 1 << 30;

/// Runs `ply args` with `stdin` under an address-space limit of `limit` bytes (none if `None`), with
/// a cache directory of its own.
fn run(args: &[&str], limit: Option<u64>, stdin: &str) -> Output {
    let cache = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("memory-cli-cache-{}", args.join("-")));
    let mut command = Command::new(env!("CARGO_BIN_EXE_ply"));
    command
        .args(args)
        .env("XDG_CACHE_HOME", &cache)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(limit) = limit {
        // SAFETY: the closure runs in the child between fork and exec and only calls `setrlimit`,
        // which is async-signal-safe.
        unsafe {
            command.pre_exec(move || {
                let rlimit = libc::rlimit {
                    rlim_cur: limit as libc::rlim_t,
                    rlim_max: limit as libc::rlim_t,
                };
                match libc::setrlimit(libc::RLIMIT_AS, &rlimit) {
                    0 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                }
            });
        }
    }
    let mut child = command.spawn().expect("ply starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    std::io::Write::write_all(&mut input, stdin.as_bytes()).expect("stdin is written");
    drop(input);
    child.wait_with_output().expect("ply finishes")
}

/// Asserts that `output` is a refusal: status 2, nothing on stdout, one line on stderr starting with
/// `start`; returns the line.
fn refusal(output: Output, start: &str) -> String {
    let stderr = String::from_utf8(output.stderr).expect("stderr is UTF-8");
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(stderr.starts_with(start), "{stderr}");
    assert!(
        stderr.ends_with('\n') && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(stderr.len() <= 300, "{stderr}");
    stderr.trim_end().to_string()
}

#[test]
fn a_table_over_the_address_space_limit_is_refused() {
    let args = [
        "dots",
        "boxes",
        "--rows",
        "3",
        "--cols",
        "4",
        "--strategy",
        "table",
    ];
    let line = refusal(
        run(&args, Some(GIB), ""),
        "ply: a table of 2^31 states (one byte each) needs 2.0 GiB (2147483648 bytes) but the \
         memory budget is ",
    );
    assert!(
        line.ends_with(": ulimit -v less what is mapped and 512 MiB; try --strategy memo"),
        "{line}"
    );
}

#[test]
fn a_solve_over_the_address_space_limit_is_refused() {
    let args = [
        "dots",
        "solve",
        "boxes",
        "--rows",
        "1",
        "--cols",
        "11",
        "--no-cache",
    ];
    let line = refusal(
        run(&args, Some(8 * GIB), ""),
        "ply: a table of 2^34 states (one byte each) needs 16.0 GiB, over the memory budget of ",
    );
    assert!(
        line.ends_with(
            ": ulimit -v less what is mapped and 512 MiB; `ply dots --strategy memo` asks its \
             positions one at a time"
        ),
        "{line}"
    );
}

#[test]
fn a_memory_option_above_the_machine_is_refused() {
    let args = ["dots", "triangles", "--memory", "64T"];
    let line = refusal(
        run(&args, None, ""),
        "ply: --memory 64.0 TiB (70368744177664 bytes) is more than this machine's ",
    );
    assert!(line.ends_with(" bytes) of memory"), "{line}");
}

/// A memo solve of the 21-dot board two moves in: past the shipped book, which answers the empty
/// board and every first move.
const MEMO_PAST_THE_BOOK: [&str; 8] = [
    "dots",
    "triangles",
    "--size",
    "5",
    "--moves",
    "1-2 2-3",
    "--strategy",
    "memo",
];

#[test]
fn memo_stops_at_the_given_budget() {
    let args = [MEMO_PAST_THE_BOOK.as_slice(), &["--memory", "2M"]].concat();
    let line = refusal(run(&args, None, ""), "ply: a memo map growing past ");
    // 57344 entries fill 65536 buckets (8 for every 7 entries); growing keeps those and 131072 new
    // ones, each an entry of 16 bytes and a control byte: 3 × 65536 × 17 bytes.
    assert_eq!(
        line,
        "ply: a memo map growing past 57344 states needs 3.2 MiB (3342336 bytes) but the memory \
         budget is 2.0 MiB (2097152 bytes); try a larger --memory"
    );
}

#[test]
fn memo_stops_at_the_address_space_limit() {
    // A budget of a few tens of MiB: the map stops growing before a million states are visited.
    let args = MEMO_PAST_THE_BOOK;
    let line = refusal(
        run(&args, Some(560 << 20), ""),
        "ply: a memo map growing past ",
    );
    assert!(
        line.ends_with(": ulimit -v less what is mapped and 512 MiB"),
        "{line}"
    );
}

#[test]
fn search_space_the_system_refuses_is_an_error() {
    // The 256 MiB a search over a 4096×4096 board needs is asked of the system, which refuses it.
    let args = ["magic-board", "generate", "--size", "4096", "--any-size"];
    let line = refusal(run(&args, Some(200 << 20), ""), "ply: ");
    assert_eq!(
        line,
        "ply: a search over 16777216 states needs 256.0 MiB (268435456 bytes) but the system \
         refused that much memory (out of memory)"
    );
}

/// A declared count is checked against the budget before a record is read, and nothing is
/// allocated for it up front: under 64 MiB of address space (a budget of nothing) a billion games
/// are refused with the figure they need; a count that is small change is read until the input ends.
#[test]
fn a_large_declared_count_is_refused_before_a_record_is_read() {
    let output = run(&["triangle-war"], Some(64 << 20), "1000000000\n");
    let line = refusal(
        output,
        "ply: line 1: keeping the answers of 1000000000 games needs 173.2 GiB (186000000000 bytes) \
         but the memory budget is ",
    );
    assert!(
        line.ends_with("ulimit -v less what is mapped and 512 MiB"),
        "{line}"
    );
    let output = run(&["triangle-war"], Some(64 << 20), "100\n");
    let line = refusal(output, "ply: game 1");
    assert_eq!(
        line,
        "ply: game 1: the input ends before the move count of game 1 of 100 (after line 1)"
    );
}

/// `ply ask` checks a long request against `--memory` before reading it (reading takes up to 64
/// times its bytes): a 100 000-byte list of heaps under `--memory 1M` is refused with the figure; a
/// short one is read within any budget, and the long one within a budget that holds it.
#[test]
fn a_long_request_to_ask_is_checked_against_the_budget_before_it_is_read() {
    let heaps = vec!["1"; 50_000].join(",");
    let request = format!(r#"{{"heaps": [{heaps}]}}"#);
    let length = request.len();
    let line = refusal(
        run(
            &["ask", "heaps", "report", "-", "--memory", "1M"],
            None,
            &request,
        ),
        "ply: ",
    );
    assert_eq!(
        line,
        format!(
            "ply: reading a request of {length} bytes needs 6.1 MiB ({} bytes) but the memory \
             budget is 1.0 MiB (1048576 bytes)",
            length * 64
        )
    );
    let answered = run(
        &["ask", "heaps", "report", "-", "--memory", "64M"],
        None,
        &request,
    );
    assert_eq!(answered.status.code(), Some(0));
    let short = run(
        &["ask", "heaps", "report", "-", "--memory", "1K"],
        None,
        r#"{"heaps": [1, 2]}"#,
    );
    assert_eq!(
        String::from_utf8(short.stdout).unwrap(),
        // Heaps 1, 2: the first must take the 1, the second takes the 2.
        "{\"winner\":\"second\",\"move\":null,\"remoteness\":2,\"grundy\":0,\"convention\":\"normal\"}\n"
    );
}

/// `ply dots book import` checks long lines against the budget before it parses them or makes the
/// book: under 64 MiB of address space (a budget of nothing) 100 000 bytes of lines are refused with
/// the figure, and no book is left behind.
#[test]
fn a_long_import_is_checked_against_the_budget_before_the_book_is_made() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("new.plybook");
    let lines = dir.path().join("lines.jsonl");
    std::fs::write(&lines, "{}\n".repeat(33_334)).unwrap();
    let args = [
        "dots",
        "book",
        "import",
        book.to_str().unwrap(),
        lines.to_str().unwrap(),
    ];
    let line = refusal(run(&args, Some(64 << 20), ""), "ply: ");
    assert!(
        line.starts_with(
            "ply: importing 100002 bytes of lines needs 781.3 KiB (800016 bytes) but the memory \
             budget is 0 B"
        ),
        "{line}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
