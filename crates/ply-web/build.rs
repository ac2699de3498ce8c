//! Embeds every file of `static/` in the binary: `page.rs` includes the list this writes, so a new
//! page module is served by being in the folder (the page loads it as the registry says).

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir =
        Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("static");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("static/ is readable")
        .map(|entry| entry.expect("static/ lists").path())
        .collect();
    files.sort();
    let mut list = String::from("&[\n");
    for path in files {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a UTF-8 name");
        let kind = match path.extension().and_then(|e| e.to_str()) {
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            _ => panic!("static/{name}: only .html, .css and .js files are served"),
        };
        let at = if name == "index.html" {
            "/".to_string()
        } else {
            format!("/{name}")
        };
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            list,
            "    ({at:?}, {kind:?}, include_str!({:?})),",
            path.display().to_string()
        );
    }
    list.push(']');
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets it")).join("page_files.rs");
    std::fs::write(out, list).expect("OUT_DIR is writable");
}
