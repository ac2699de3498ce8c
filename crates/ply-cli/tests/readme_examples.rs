//! The README's examples, run: what README.md shows `ply` printing is what it prints.
//!
//! The convention (stated in the README's "Development" section):
//! - A fenced block whose info string is `console` is a transcript this test runs. A line starting
//!   with `$ ` is a command; the lines after it, up to the next command or the end of the block, are
//!   what it prints (stdout and stderr together, as a terminal shows them).
//! - A fenced block right after the line `<!-- file NAME -->` is a file the examples read: it is
//!   written to `NAME` before any command runs.
//! - Examples whose output is not the same from run to run (timings, a server, Python) are shown
//!   in blocks of another kind (```` ``` ````, ```` ```sh ````), which this test does not read.
//!
//! Each command runs in `sh -c`, as a reader would type it (pipes, quotes and `# comments` work),
//! in one temporary directory shared by the whole README (in the README's order), with the `ply`
//! built for this test first on the `PATH`, a cache directory of its own, `PLY_PROGRESS` unset and
//! stdin empty. The comparison is exact but for one normalisation: white space at the end of a line,
//! and empty lines at the end of the output, are dropped (editors strip them from the README).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One command of a transcript and what it should print.
struct Example {
    /// The README's line number of the command (1-based).
    line: usize,
    command: String,
    expected: String,
}

/// A file the examples read.
struct ExampleFile {
    line: usize,
    name: String,
    contents: String,
}

/// What the README holds for this test, in its order.
#[derive(Default)]
struct Examples {
    files: Vec<ExampleFile>,
    commands: Vec<Example>,
}

fn readme_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md")
}

/// The marker naming the file the next fenced block holds.
fn file_marker(line: &str) -> Option<&str> {
    let name = line
        .trim()
        .strip_prefix("<!-- file ")?
        .strip_suffix("-->")?
        .trim();
    Some(name)
}

/// Reads the transcripts and files out of `text` (a README); a malformed one is an error naming
/// its line.
fn parse(text: &str) -> Result<Examples, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut examples = Examples::default();
    let mut pending_file: Option<(usize, String)> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(name) = file_marker(line) {
            if let Some((at, _)) = pending_file {
                return Err(format!("line {at}: a file marker with no block after it"));
            }
            if name.is_empty() || name.contains('/') || name.starts_with('.') {
                return Err(format!(
                    "line {}: `{name}` is no plain file name (no directory, no leading dot)",
                    i + 1
                ));
            }
            pending_file = Some((i + 1, name.to_string()));
            i += 1;
            continue;
        }
        let Some(fence_info) = line.trim_start().strip_prefix("```") else {
            if !line.trim().is_empty() {
                if let Some((at, _)) = pending_file {
                    return Err(format!("line {at}: a file marker with no block after it"));
                }
            }
            i += 1;
            continue;
        };
        // A fenced block: its body runs to the next fence, and loses the fence's indentation (a
        // block inside a list item is indented with it).
        let info = fence_info.trim();
        let indent = line.len() - line.trim_start().len();
        let start = i + 1;
        let Some(length) = lines[start..]
            .iter()
            .position(|l| l.trim_start().starts_with("```"))
        else {
            return Err(format!("line {}: a fenced block that never ends", i + 1));
        };
        let body: Vec<&str> = lines[start..start + length]
            .iter()
            .map(|l| without_indent(l, indent))
            .collect();
        if let Some((at, name)) = pending_file.take() {
            let mut contents = body.join("\n");
            contents.push('\n');
            examples.files.push(ExampleFile {
                line: at,
                name,
                contents,
            });
        } else if info == "console" {
            parse_transcript(start, &body, &mut examples.commands)?;
        }
        i = start + length + 1;
    }
    if let Some((at, _)) = pending_file {
        return Err(format!("line {at}: a file marker with no block after it"));
    }
    Ok(examples)
}

/// `line` without the first `indent` spaces (as many as it has, if fewer).
fn without_indent(line: &str, indent: usize) -> &str {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(indent)..]
}

/// The commands of one `console` block whose first line is README line `start + 1`.
fn parse_transcript(start: usize, body: &[&str], out: &mut Vec<Example>) -> Result<(), String> {
    if !body.first().is_some_and(|l| l.starts_with("$ ")) {
        return Err(format!(
            "line {}: a console block must start with a command (`$ ply …`)",
            start + 1
        ));
    }
    for (offset, line) in body.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Example {
                line: start + offset + 1,
                command: command.to_string(),
                expected: String::new(),
            });
        } else {
            let example = out.last_mut().expect("a command came first");
            example.expected.push_str(line);
            example.expected.push('\n');
        }
    }
    Ok(())
}

/// Output as the comparison sees it: no white space at line ends, no empty lines at the end.
fn normalised(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

/// Runs `command` in `sh -c` from `dir`, with `bin` first on the PATH: stdout and stderr together.
fn run(command: &str, dir: &Path, bin: &Path, cache: &Path) -> String {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", std::env::join_paths(paths).expect("a PATH"))
        .env("XDG_CACHE_HOME", cache)
        .env_remove("PLY_PROGRESS")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Every README example prints what the README shows.
#[test]
fn every_readme_example_prints_what_the_readme_shows() {
    let readme = std::fs::read_to_string(readme_path()).expect("README.md is read");
    let examples = parse(&readme).unwrap_or_else(|e| panic!("README.md, {e}"));
    assert!(
        examples.commands.len() >= 10,
        "README.md has only {} checked examples: are the console blocks still there?",
        examples.commands.len()
    );

    let work = tempfile::tempdir().expect("a working directory");
    let bin = work.path().join("bin");
    let cache = work.path().join("cache");
    let dir = work.path().join("examples");
    for d in [&bin, &cache, &dir] {
        std::fs::create_dir(d).expect("a directory");
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_ply"), bin.join("ply")).expect("ply is linked");
    for file in &examples.files {
        let path = dir.join(&file.name);
        assert!(
            !path.exists(),
            "README.md line {}: the file {} is given twice",
            file.line,
            file.name
        );
        std::fs::write(&path, &file.contents).expect("the example's file is written");
    }

    let mut failures = Vec::new();
    for example in &examples.commands {
        let printed = run(&example.command, &dir, &bin, &cache);
        let (expected, printed) = (normalised(&example.expected), normalised(&printed));
        if expected != printed {
            failures.push(format!(
                "README.md line {}: $ {}\n--- the README shows:\n{expected}\n--- ply printed:\n{printed}\n",
                example.line, example.command
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} README examples print something else:\n\n{}",
        failures.len(),
        examples.commands.len(),
        failures.join("\n")
    );
}

/// The parser reads commands, their output and files, and refuses what it cannot read.
#[test]
fn the_parser_reads_the_convention() {
    let text = "Text.\n\n<!-- file in.txt -->\n```\n1 2\n3\n```\n\n```console\n$ ply a\nout 1\n\nout 2\n$ ply b # c\n```\n\n```\n$ not run\n```\n- item\n\n  ```console\n  $ ply c\n   out 3\n  ```\n";
    let examples = parse(text).expect("a README");
    assert_eq!(examples.files.len(), 1);
    assert_eq!(examples.files[0].name, "in.txt");
    assert_eq!(examples.files[0].contents, "1 2\n3\n");
    assert_eq!(examples.files[0].line, 3);
    let commands: Vec<(usize, &str, &str)> = examples
        .commands
        .iter()
        .map(|e| (e.line, e.command.as_str(), e.expected.as_str()))
        .collect();
    assert_eq!(
        commands,
        [
            (10, "ply a", "out 1\n\nout 2\n"),
            (14, "ply b # c", ""),
            (23, "ply c", " out 3\n")
        ]
    );

    for (bad, fault) in [
        (
            "```console\nout\n```\n",
            "line 2: a console block must start",
        ),
        (
            "```console\n$ ply\n",
            "line 1: a fenced block that never ends",
        ),
        (
            "<!-- file a -->\ntext\n",
            "line 1: a file marker with no block",
        ),
        ("<!-- file a -->\n", "line 1: a file marker with no block"),
        (
            "<!-- file ../a -->\n```\n```\n",
            "line 1: `../a` is no plain",
        ),
    ] {
        let error = parse(bad)
            .err()
            .unwrap_or_else(|| panic!("{bad:?} is refused"));
        assert!(error.starts_with(fault), "{bad:?}: {error}");
    }
    assert_eq!(normalised("a  \nb\n\n \n"), "a\nb");
}
