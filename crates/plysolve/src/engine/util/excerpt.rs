//! Input echoed in messages, escaped and bounded: what every fault line that quotes a request, a
//! line or a file's path shows of it (re-exported by [`crate::input`], whose quotes add backticks).
//! Here, below every layer that words a fault, so that the engine's own messages (a table file's
//! path) are bounded the same way.

use std::fmt::Write as _;

/// Most characters of the input a message quotes; more are cut and marked `…`.
pub const QUOTED_CHARS: usize = 40;

/// A file's path as messages show it: escaped as [`excerpt`] does, and when longer than
/// [`QUOTED_CHARS`] characters its end (where the file's name is) after `…`.
pub fn path_excerpt(path: &std::path::Path) -> String {
    let whole = excerpt_within(path.as_os_str().as_encoded_bytes(), usize::MAX);
    let count = whole.chars().count();
    if count <= QUOTED_CHARS {
        return whole;
    }
    let tail: String = whole.chars().skip(count - (QUOTED_CHARS - 1)).collect();
    format!("…{tail}")
}

/// A path as messages show it: between backticks, its bytes escaped as [`excerpt`] writes them
/// (`\xff` for a byte that is not UTF-8, never `�`), its end kept when it is long
/// ([`path_excerpt`]).
pub fn quote_path(path: &std::path::Path) -> String {
    format!("`{}`", path_excerpt(path))
}

/// The inside of a quote, for messages that echo input without backticks (a long number): the
/// input escaped (`\0`, `\t`, `\x7f`, `\xff` for a byte that is not UTF-8, `\u{202e}` for an
/// invisible character, `\\` for a backslash), at most [`QUOTED_CHARS`] characters as shown (an
/// escape counts as the characters it shows, so a line of invisible characters is no longer than a
/// line of letters), then `…` if there were more.
pub fn excerpt(bytes: &[u8]) -> String {
    excerpt_within(bytes, QUOTED_CHARS)
}

/// Like [`excerpt`], at most `chars` characters: for a message of another library that may echo
/// input in it (serde_json's, naming a field as written), shown escaped and bounded.
pub fn excerpt_within(bytes: &[u8], chars: usize) -> String {
    let mut out = String::new();
    let mut shown = 0;
    let mut escaped = String::new();
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().chars().map(Ok);
        let invalid = chunk.invalid().iter().map(|&b| Err(b));
        for item in valid.chain(invalid) {
            escaped.clear();
            match item {
                Ok(c) => escape_char(c, &mut escaped),
                Err(b) => {
                    let _ = write!(escaped, "\\x{b:02x}");
                }
            }
            let width = escaped.chars().count();
            if shown + width > chars {
                out.push('…');
                return out;
            }
            shown += width;
            out.push_str(&escaped);
        }
    }
    out
}

/// Writes `c` so that the terminal shows exactly one visible, unambiguous form of it.
fn escape_char(c: char, out: &mut String) {
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\\' => out.push_str("\\\\"),
        c if c.is_ascii_control() => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if c.is_ascii() => out.push(c),
        // Non-ASCII: printable characters stay, the rest (C1 controls, direction overrides, zero
        // widths, combining marks on nothing) become `\u{…}`.
        c => out.extend(c.escape_debug()),
    }
}
