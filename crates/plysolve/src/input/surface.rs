//! The front end a request came through, and how a fault names the request's options there.
//!
//! One request type serves every front end: its keys are the JSON API's keys, the Python package's
//! argument names and, with `-` for `_`, the command line's long options. So a fault names an
//! option by its key (and, when it suggests or quotes one, a [`Value`]), and [`Surface`] writes it
//! in the caller's own terms: `--strategy memo` on the command line, `"strategy": "memo"` in a
//! JSON body, `strategy="memo"` in Python. A fault that names options implements [`Worded`]; its
//! `Display` is the command line's wording.

use super::excerpt;

/// Where a request came from: the terms its faults are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Surface {
    /// The `ply` command line: `--no-path`, `--strategy memo`.
    Cli,
    /// The JSON API of `ply serve`: `"no_path"`, `"strategy": "memo"`.
    Api,
    /// The Python package: `no_path`, `strategy="memo"`.
    Python,
}

/// What an option is set to in a fault: a word the library suggests, a switch turned on, or what the
/// caller wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value<'a> {
    /// A word, as a JSON string holds it (`memo`).
    Word(&'a str),
    /// A switch turned on (`--explain`, `true`).
    On,
    /// A value as the caller wrote it (a number, a list), quoted at most [`QUOTED_CHARS`] characters
    /// long, escaped.
    ///
    /// [`QUOTED_CHARS`]: super::QUOTED_CHARS
    Written(&'a str),
}

impl Surface {
    /// The option `key` as this surface names it: `--no-path`, `"no_path"`, `no_path`.
    pub fn name(self, key: &str) -> String {
        match self {
            Surface::Cli => format!("--{}", key.replace('_', "-")),
            Surface::Api => format!("\"{key}\""),
            Surface::Python => key.to_string(),
        }
    }

    /// The option `key` set to `value`, as a caller on this surface writes it: `--strategy memo`,
    /// `"strategy": "memo"`, `strategy="memo"`; a switch `--explain`, `"explain": true`,
    /// `explain=True`.
    pub fn setting(self, key: &str, value: Value<'_>) -> String {
        let name = self.name(key);
        match (self, value) {
            (Surface::Cli, Value::On) => name,
            (Surface::Cli, Value::Word(word)) => format!("{name} {word}"),
            (Surface::Cli, Value::Written(text)) => format!("{name} {}", excerpt(text.as_bytes())),
            (Surface::Api, Value::On) => format!("{name}: true"),
            (Surface::Api, Value::Word(word)) => format!("{name}: \"{word}\""),
            (Surface::Api, Value::Written(text)) => format!("{name}: {}", excerpt(text.as_bytes())),
            (Surface::Python, Value::On) => format!("{name}=True"),
            (Surface::Python, Value::Word(word)) => format!("{name}=\"{word}\""),
            (Surface::Python, Value::Written(text)) => {
                format!("{name}={}", excerpt(text.as_bytes()))
            }
        }
    }
}

/// A fault that names a request's options: one message, written for the surface the request came
/// through.
pub trait Worded {
    /// The one-line message, options named as `surface` names them.
    fn worded(&self, surface: Surface) -> String;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_surface_names_an_option_its_own_way() {
        let all = [Surface::Cli, Surface::Api, Surface::Python];
        let names = all.map(|s| s.name("no_path"));
        assert_eq!(names, ["--no-path", "\"no_path\"", "no_path"]);
        let words = all.map(|s| s.setting("strategy", Value::Word("memo")));
        assert_eq!(
            words,
            [
                "--strategy memo",
                "\"strategy\": \"memo\"",
                "strategy=\"memo\""
            ]
        );
        let on = all.map(|s| s.setting("any_size", Value::On));
        assert_eq!(on, ["--any-size", "\"any_size\": true", "any_size=True"]);
        let long = "9".repeat(50);
        let written = all.map(|s| s.setting("rows", Value::Written(&long)));
        let cut = format!("{}…", "9".repeat(40));
        assert_eq!(
            written,
            [
                format!("--rows {cut}"),
                format!("\"rows\": {cut}"),
                format!("rows={cut}")
            ]
        );
    }
}
