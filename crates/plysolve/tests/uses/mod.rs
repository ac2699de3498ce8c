//! What a crate's sources import, read as text: shared by the layering test of the library
//! (`layering.rs`) and the front-door test of the command line (`ply-cli/tests/front_door.rs`).
//!
//! Read: every `use` tree (`a::{b, c::d as e}` → `a::b`, `a::c::d`; a glob kept as `*`), and every
//! path written in code that starts with one of the roots asked for (`crate`, `super`, `self`, a
//! crate's name); comments, string and character literals are blanked first, so paths and braces
//! in them are not read; inline modules (`mod tests { … }`) are tracked, so `super` inside one means
//! the file's own module, and a path in a `#[cfg(test)]` one is marked as a test's.
//!
//! Limits: paths a macro builds, `#[path]` attributes, fully qualified paths inside generic brackets
//! split over lines are not seen as one; a re-export is followed one level (a folder's `pub use
//! child::Item`), a glob re-export not at all (the path then stops at the module that re-exports);
//! a first segment that is neither a root nor a child module of the file is taken for another
//! crate.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A module's path from the crate root (`["games", "dots", "kept"]`; the root's is empty).
pub type ModPath = Vec<String>;

/// One source file: its module and its code, comments and literals blanked.
pub struct Source {
    /// The module the file is.
    pub module: ModPath,
    /// The file, for messages.
    pub file: PathBuf,
    /// The code, comments and literals blanked (lines kept).
    pub code: String,
}

/// One path a source names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    /// The path as written, its `use` tree expanded.
    pub path: Vec<String>,
    /// The name it is known by here (its last segment, or its `as` name).
    pub alias: String,
    /// The inline modules it lies in, outermost first.
    pub inline: Vec<String>,
    /// Whether it lies in a test module (`#[cfg(test)] mod … { … }`).
    pub test: bool,
    /// Its line, from 1.
    pub line: usize,
    /// Whether it is a `pub use` (a re-export).
    pub public: bool,
}

/// Every `.rs` file under `src` (a crate's `src` folder) with its module path: `lib.rs`, `main.rs`
/// and a folder's `mod.rs` are the folder's module.
pub fn sources(src: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let relative = path.strip_prefix(src).expect("under src");
                let mut module: ModPath = relative
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect();
                let file = module.pop().expect("a file name");
                if !["lib.rs", "main.rs", "mod.rs"].contains(&file.as_str()) {
                    module.push(file.trim_end_matches(".rs").to_string());
                }
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.push(Source {
                    module,
                    file: path,
                    code: code_only(&text),
                });
            }
        }
    }
    out
}

/// `text` with comments, string literals (raw ones too) and character literals replaced by spaces,
/// newlines kept; lifetimes are left alone.
pub fn code_only(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"') || next == Some('#'))
            && !is_ident(chars.get(i.wrapping_sub(1)).copied())
        {
            // A raw string: r"…", r#"…"#, …
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            j += 1;
            loop {
                match chars.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    _ => j += 1,
                }
            }
            out.extend(chars[i..j.min(chars.len())].iter().map(|&c| blank(c)));
            i = j;
        } else if c == '"' {
            let mut j = i + 1;
            while j < chars.len() && chars[j] != '"' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(chars.len());
            out.extend(chars[i..end].iter().map(|&c| blank(c)));
            i = end;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), or a lifetime ('a) left as it is.
            let end = if next == Some('\\') {
                (i + 2..chars.len()).find(|&j| chars[j] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match end {
                Some(end) => {
                    out.extend(chars[i..=end].iter().map(|&c| blank(c)));
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_ident(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Every path `code` (from [`code_only`]) names: its `use` trees, and the paths in code that start
/// with one of `roots`.
pub fn named_paths(code: &str, roots: &[&str]) -> Vec<Named> {
    let chars: Vec<char> = code.chars().collect();
    let line_of = |at: usize| chars[..at].iter().filter(|&&c| c == '\n').count() + 1;
    let inline = inline_modules(&chars);
    let inline_at = |at: usize| -> Vec<String> {
        inline
            .iter()
            .filter(|(start, end, _, _)| (*start..*end).contains(&at))
            .map(|(_, _, name, _)| name.clone())
            .collect()
    };
    let test_at = |at: usize| {
        inline
            .iter()
            .any(|(start, end, _, test)| *test && (*start..*end).contains(&at))
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !is_ident(chars.get(i.wrapping_sub(1)).copied()) && is_ident(Some(chars[i])) {
            let word_end = (i..chars.len())
                .find(|&j| !is_ident(Some(chars[j])))
                .unwrap_or(chars.len());
            let word: String = chars[i..word_end].iter().collect();
            if word == "use" && chars.get(word_end).is_some_and(|c| c.is_whitespace()) {
                let end = (word_end..chars.len())
                    .find(|&j| chars[j] == ';')
                    .unwrap_or(chars.len());
                let tree: String = chars[word_end..end].iter().collect();
                let before: String = chars[..i].iter().collect();
                let public = before
                    .trim_end()
                    .rsplit([';', '}', '{', ']'])
                    .next()
                    .is_some_and(|s| s.trim_start().starts_with("pub"));
                for (path, alias) in expand(&tree) {
                    out.push(Named {
                        path,
                        alias,
                        inline: inline_at(i),
                        test: test_at(i),
                        line: line_of(i),
                        public,
                    });
                }
                i = end;
                continue;
            }
            let after_colons =
                chars.get(word_end) == Some(&':') && chars.get(word_end + 1) == Some(&':');
            let preceded_by_colons = i >= 2 && chars[i - 1] == ':' && chars[i - 2] == ':';
            if roots.contains(&word.as_str()) && after_colons && !preceded_by_colons {
                let mut path = vec![word];
                let mut j = word_end;
                while chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                    let start = j + 2;
                    let end = (start..chars.len())
                        .find(|&k| !is_ident(Some(chars[k])))
                        .unwrap_or(chars.len());
                    if end == start {
                        break;
                    }
                    path.push(chars[start..end].iter().collect());
                    j = end;
                }
                out.push(Named {
                    alias: path.last().cloned().unwrap_or_default(),
                    path,
                    inline: inline_at(i),
                    test: test_at(i),
                    line: line_of(i),
                    public: false,
                });
                i = j;
                continue;
            }
            i = word_end;
        } else {
            i += 1;
        }
    }
    out
}

/// The inline modules of `chars`: (start, end, name, whether under `#[cfg(test)]`) of each
/// `mod name { … }`.
fn inline_modules(chars: &[char]) -> Vec<(usize, usize, String, bool)> {
    let text: String = chars.iter().collect();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(found) = text[from..].find("mod ") {
        let at = from + found;
        from = at + 4;
        if is_ident(text[..at].chars().last()) {
            continue;
        }
        let rest = &text[at + 4..];
        let name: String = rest
            .trim_start()
            .chars()
            .take_while(|&c| is_ident(Some(c)))
            .collect();
        let after = rest.trim_start()[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = text.len() - after.len();
        let mut depth = 0;
        let mut end = text.len();
        for (k, c) in text[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k;
                        break;
                    }
                }
                _ => {}
            }
        }
        // Byte offsets to char offsets.
        let to_chars = |b: usize| text[..b].chars().count();
        let before = text[..at].trim_end();
        let before = before.strip_suffix("pub").unwrap_or(before).trim_end();
        let test = before.ends_with("#[cfg(test)]");
        out.push((to_chars(at), to_chars(end), name, test));
    }
    out
}

/// The paths of a `use` tree and the name each is known by.
pub fn expand(tree: &str) -> Vec<(Vec<String>, String)> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = tree.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == ':' {
            i += 2;
            tokens.push("::".to_string());
        } else if "{},*".contains(c) {
            tokens.push(c.to_string());
            i += 1;
        } else {
            let end = (i..chars.len())
                .find(|&j| !is_ident(Some(chars[j])))
                .unwrap_or(chars.len())
                .max(i + 1);
            tokens.push(chars[i..end].iter().collect());
            i = end;
        }
    }
    let mut out = Vec::new();
    let mut at = 0;
    tree_at(&tokens, &mut at, Vec::new(), &mut out);
    out
}

/// Reads one tree from `tokens[*at..]` under `prefix` into `out`.
fn tree_at(
    tokens: &[String],
    at: &mut usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    // A leading `::` (an extern crate's absolute path) is dropped.
    if tokens.get(*at).is_some_and(|t| t == "::") {
        *at += 1;
    }
    while let Some(token) = tokens.get(*at) {
        match token.as_str() {
            "{" => {
                *at += 1;
                while tokens.get(*at).is_some_and(|t| t != "}") {
                    tree_at(tokens, at, prefix.clone(), out);
                    if tokens.get(*at).is_some_and(|t| t == ",") {
                        *at += 1;
                    }
                }
                *at += 1;
                return;
            }
            "*" => {
                *at += 1;
                prefix.push("*".into());
                out.push((prefix, "*".into()));
                return;
            }
            _ => {
                prefix.push(token.clone());
                *at += 1;
                match tokens.get(*at).map(String::as_str) {
                    Some("::") => *at += 1,
                    Some("as") => {
                        let alias = tokens.get(*at + 1).cloned().unwrap_or_default();
                        *at += 2;
                        out.push((prefix, alias));
                        return;
                    }
                    _ => {
                        let alias = prefix.last().cloned().unwrap_or_default();
                        out.push((prefix, alias));
                        return;
                    }
                }
            }
        }
    }
}

/// The `*.rs` files of `dir` (a crate's `tests/`) other than `all.rs` that the text `listed` (that
/// folder's `all.rs`) does not declare as a module (`mod name;` on a line of its own): the test
/// files a crate's one test binary would leave out.
pub fn files_not_declared(dir: &Path, listed: &str) -> Vec<String> {
    let mut missing: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/ reads")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|name| name != "all.rs")
        .filter(|name| {
            name.strip_suffix(".rs")
                .is_some_and(|stem| !listed.contains(&format!("\nmod {stem};\n")))
        })
        .collect();
    missing.sort();
    missing
}
