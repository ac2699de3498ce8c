//! The library's layers, read from its sources: the engine imports nothing from the games or from
//! `input`; `input` nothing from the games; no game's home imports another's; the engine's `util`
//! nothing from the engine's game shapes (tests included: an engine test does not use a game); and
//! no two modules of one folder import each other, even through others (a `use` cycle; test modules
//! left out, which may use what uses their module). Checked on the real sources and, so that the check can be seen to
//! fail, on small sources made up here.
//!
//! What an import is, and what this reading cannot see, is in `uses/mod.rs` (textual: `use` trees
//! and `crate::`/`super::`/`self::` paths in code, inline test modules included; re-exports followed
//! one level; macros and glob re-exports not followed).

use crate::uses;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use uses::{named_paths, ModPath, Source};

/// The layers of a folder, lowest first; a module may import from its own layer and below. A
/// folder not listed has one layer.
fn rank(folder: &[String], child: &str) -> usize {
    let folder: Vec<&str> = folder.iter().map(String::as_str).collect();
    match folder.as_slice() {
        [] => match child {
            "engine" => 0,
            "input" => 1,
            "games" => 2,
            _ => 3,
        },
        ["engine"] => usize::from(child != "util"),
        // The door beneath every home; the registry, which lists them, above.
        ["games"] => match child {
            "door" => 0,
            "registry" => 2,
            _ => 1,
        },
        _ => 0,
    }
}

/// Whether `child` of `folder` is one of the independent children there, none importing another
/// (the game homes: not the door beneath them or the registry above).
fn independent(folder: &[String], child: &str) -> bool {
    folder == ["games"] && !matches!(child, "door" | "registry")
}

/// One import between two modules of one folder.
#[derive(Debug, Clone)]
struct Edge {
    from_module: ModPath,
    to_module: ModPath,
    folder: ModPath,
    from: String,
    to: String,
    file: PathBuf,
    line: usize,
    /// Whether the import is a test module's.
    test: bool,
}

/// The module a path names from `module` (inside its inline modules `inline`), and the rest of the
/// path after it; `None` for another crate's path.
fn absolute(
    path: &[String],
    module: &ModPath,
    inline: &[String],
    modules: &BTreeSet<ModPath>,
) -> Option<Vec<String>> {
    let here: Vec<String> = module.iter().chain(inline).cloned().collect();
    let mut segments = path.iter().peekable();
    let mut abs = match segments.peek()?.as_str() {
        "crate" => {
            segments.next();
            Vec::new()
        }
        "super" | "self" => {
            let mut base = here.clone();
            while let Some(s) = segments.peek() {
                match s.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segments.next();
            }
            base
        }
        first => {
            let mut child = here.clone();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None;
            }
            here.clone()
        }
    };
    abs.extend(segments.filter(|s| *s != "self").cloned());
    // What lies in the file's own inline modules is the file's own.
    if abs.starts_with(&here) && !inline.is_empty() {
        return Some(module.clone());
    }
    Some(abs)
}

/// The longest known module a path starts with, following a re-export of the next segment one
/// level (`games::dots::Edge` → `games::dots::board`).
fn module_of(
    abs: &[String],
    modules: &BTreeSet<ModPath>,
    exports: &BTreeMap<(ModPath, String), ModPath>,
) -> ModPath {
    let longest = |abs: &[String]| -> ModPath {
        (0..=abs.len())
            .rev()
            .map(|n| abs[..n].to_vec())
            .find(|p| modules.contains(p))
            .unwrap_or_default()
    };
    let found = longest(abs);
    match abs.get(found.len()) {
        Some(item) => exports
            .get(&(found.clone(), item.clone()))
            .cloned()
            .unwrap_or(found),
        None => found,
    }
}

/// Every import between two modules of one folder, in `sources` (one crate).
fn edges(sources: &[Source]) -> Vec<Edge> {
    let modules: BTreeSet<ModPath> = sources.iter().map(|s| s.module.clone()).collect();
    let roots = ["crate", "super", "self"];
    let named: Vec<_> = sources
        .iter()
        .map(|s| named_paths(&s.code, &roots))
        .collect();
    // A folder's re-exports: `pub use child::Item` lets others name `folder::Item`.
    let mut exports = BTreeMap::new();
    for (source, named) in sources.iter().zip(&named) {
        for n in named.iter().filter(|n| n.public && n.inline.is_empty()) {
            if let Some(abs) = absolute(&n.path, &source.module, &n.inline, &modules) {
                let target = module_of(&abs, &modules, &BTreeMap::new());
                if target.starts_with(&source.module) && target != source.module {
                    exports.insert((source.module.clone(), n.alias.clone()), target);
                }
            }
        }
    }
    let mut out = Vec::new();
    for (source, named) in sources.iter().zip(&named) {
        let from = &source.module;
        for n in named {
            let Some(abs) = absolute(&n.path, from, &n.inline, &modules) else {
                continue;
            };
            let to = module_of(&abs, &modules, &exports);
            // Itself, an ancestor (a folder's own items) or a descendant: no edge between siblings.
            if to.starts_with(from) || from.starts_with(&to) {
                continue;
            }
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            out.push(Edge {
                from_module: from.clone(),
                to_module: to.clone(),
                folder: from[..common].to_vec(),
                from: from[common].clone(),
                to: to[common].clone(),
                file: source.file.clone(),
                line: n.line,
                test: n.test,
            });
        }
    }
    out
}

/// Every fault of `sources`' layering, one line each.
fn faults(sources: &[Source]) -> Vec<String> {
    let edges = edges(sources);
    let mut out = Vec::new();
    let name = |folder: &ModPath, child: &str| {
        let mut p = folder.clone();
        p.push(child.to_string());
        p.join("::")
    };
    for e in &edges {
        let (from, to) = (name(&e.folder, &e.from), name(&e.folder, &e.to));
        let at = format!("{}:{}", e.file.display(), e.line);
        if rank(&e.folder, &e.from) < rank(&e.folder, &e.to) {
            out.push(format!(
                "{at}: {} imports {}: {to} is a layer above {from}",
                e.from_module.join("::"),
                e.to_module.join("::")
            ));
        }
        if independent(&e.folder, &e.from) && independent(&e.folder, &e.to) {
            out.push(format!("{at}: {from} imports {to}, another game's home"));
        }
    }
    // Cycles between the modules of each folder, as the product is built (a test module may use
    // what uses its module: it is no part of the module's design).
    let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for e in edges.iter().filter(|e| !e.test) {
        graphs
            .entry(e.folder.clone())
            .or_default()
            .entry(e.from.clone())
            .or_default()
            .insert(e.to.clone());
    }
    for (folder, graph) in &graphs {
        let mut reported = BTreeSet::new();
        for start in graph.keys() {
            if let Some(cycle) = cycle_through(graph, start) {
                let mut key = cycle.clone();
                key.sort();
                if reported.insert(key) {
                    let names: Vec<String> = cycle.iter().map(|c| name(folder, c)).collect();
                    out.push(format!("a use cycle: {} → {}", names.join(" → "), names[0]));
                }
            }
        }
    }
    out
}

/// A cycle of `graph` through `start`, if there is one: its modules in order from `start`.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        let at = path.last().expect("a path").clone();
        for next in graph.get(&at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(graph, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

/// The imports between the modules of folders with a cycle, for a failure's message.
fn imports_of_cycles(sources: &[Source]) -> String {
    let edges = edges(sources);
    let mut out = String::from("the imports between modules of one folder:\n");
    for e in &edges {
        let back = edges
            .iter()
            .any(|b| !b.test && b.folder == e.folder && b.from == e.to);
        if back && !e.test {
            out += &format!(
                "  {}:{}: {} → {}\n",
                e.file.display(),
                e.line,
                e.from_module.join("::"),
                e.to_module.join("::")
            );
        }
    }
    out
}

/// A made-up source.
fn source(module: &[&str], text: &str) -> Source {
    Source {
        module: module.iter().map(|s| s.to_string()).collect(),
        file: PathBuf::from(format!("{}.rs", module.join("/"))),
        code: uses::code_only(text),
    }
}

#[test]
fn the_library_has_its_layers_and_no_use_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = uses::sources(&src);
    let faults = faults(&sources);
    assert!(
        faults.is_empty(),
        "{}\n{}",
        faults.join("\n"),
        imports_of_cycles(&sources)
    );
    // The reading sees the imports there are: the games use the engine, the dots policy its kept
    // tables, a folder's re-export leads to the module it comes from.
    let edges = edges(&sources);
    let has = |folder: &[&str], from: &str, to: &str| {
        edges
            .iter()
            .any(|e| e.folder == folder && e.from == from && e.to == to)
    };
    assert!(has(&[], "games", "engine"));
    assert!(has(&[], "games", "input"));
    assert!(has(&["games", "dots"], "policy", "kept"));
    // dots/book/key.rs: `use crate::games::dots::board::…`, and `Edge` through dots' re-export.
    assert!(has(&["games", "dots"], "book", "board"));
    assert!(has(&["engine", "scored"], "choose", "table"));
    assert!(edges.len() > 300, "{}", edges.len());
}

#[test]
fn each_fault_is_found() {
    let sources = [
        source(&[], "pub mod engine; pub mod games; pub mod input;"),
        source(&["engine"], "pub mod util; pub mod shape;"),
        source(&["engine", "util"], "use super::shape::Game;"),
        source(
            &["engine", "shape"],
            "/// crate::games::dots in a comment is no import.\n\
             const S: &str = \"crate::games::x\";\n\
             pub fn f() { crate::input::read(); }",
        ),
        source(&["input"], "use crate::engine::util::Halt;"),
        source(&["games"], "pub mod dots; pub mod heaps;"),
        source(&["games", "dots"], "pub use board::Edge;\nuse crate::games::heaps::Nim;"),
        source(&["games", "dots", "board"], "use super::{kept::Kept, Edge as E};"),
        source(
            &["games", "dots", "kept"],
            "use super::position::Position;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::games::dots::geometry::G;\n}",
        ),
        source(&["games", "dots", "position"], "use crate::games::dots::Edge;"),
        source(&["games", "dots", "geometry"], "use super::kept::Kept;"),
        source(&["games", "heaps"], ""),
        source(
            &["engine", "other"],
            "#[cfg(test)]\nmod tests {\n    use crate::games::dots::Edge;\n}",
        ),
    ];
    let mut found = faults(&sources);
    found.sort();
    assert_eq!(
        found,
        [
            "a use cycle: engine → input → engine",
            "a use cycle: games::dots::board → games::dots::kept → games::dots::position → games::dots::board",
            "engine/other.rs:3: engine::other imports games::dots::board: games is a layer above engine",
            "engine/shape.rs:3: engine::shape imports input: input is a layer above engine",
            "engine/util.rs:1: engine::util imports engine::shape: engine::shape is a layer above engine::util",
            "games/dots.rs:2: games::dots imports games::heaps, another game's home",
        ]
    );
}

#[test]
fn use_trees_are_read_whole() {
    let tree = " crate::engine::{chance::{self, x as y}, MemoryBudget, util::*}";
    let paths: Vec<(String, String)> = uses::expand(tree)
        .into_iter()
        .map(|(p, alias)| (p.join("::"), alias))
        .collect();
    let expected = [
        ("crate::engine::chance::self", "self"),
        ("crate::engine::chance::x", "y"),
        ("crate::engine::MemoryBudget", "MemoryBudget"),
        ("crate::engine::util::*", "*"),
    ];
    assert_eq!(paths, expected.map(|(p, a)| (p.to_string(), a.to_string())));
}
