//! Numbers as a request states them: one text, as a command line writes them (`"5,6 7"`), or a JSON
//! list (`[5,6,7]`). A game reads either with its own rule for one number (a heap size, a sum, a
//! square's value); the text's tokens go through [`number`](super::number) like any other input, and
//! so does each JSON number, as the text it was written as (read by [`json`](super::json); serde_json
//! alone gives its value's text), so `[18446744073709551616]` is a number too large, not a float.

use super::json::NUMBER_TEXT;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::fmt;

/// Numbers written as one text or given as a JSON list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NumberList {
    /// Numbers separated by white space or commas, as the command line takes them.
    Text(String),
    /// One JSON number per item, as written (`1.5`, `18446744073709551616`).
    Numbers(Vec<String>),
}

impl Default for NumberList {
    /// No numbers: an empty list.
    fn default() -> Self {
        NumberList::Numbers(Vec::new())
    }
}

impl NumberList {
    /// The numbers of a text.
    pub fn text(text: impl Into<String>) -> Self {
        NumberList::Text(text.into())
    }

    /// Whether this is a list with no item (a text, even blank, is not: it is read, and says what it
    /// holds).
    pub fn is_empty_list(&self) -> bool {
        matches!(self, NumberList::Numbers(n) if n.is_empty())
    }
}

impl Serialize for NumberList {
    /// A text as a string; a list as JSON numbers (each as its value: a text no JSON number has is
    /// written as a string).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            NumberList::Text(text) => serializer.serialize_str(text),
            NumberList::Numbers(numbers) => serializer.collect_seq(numbers.iter().map(|n| {
                n.parse::<serde_json::Number>()
                    .map_or_else(|_| serde_json::Value::from(n.as_str()), Into::into)
            })),
        }
    }
}

/// One number of a list, as written.
struct Written(String);

impl<'de> Deserialize<'de> for Written {
    /// The text as written from [`json`](super::json)'s reader; from another, the value's text.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct WrittenVisitor;

        impl<'de> Visitor<'de> for WrittenVisitor {
            type Value = Written;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number")
            }

            fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Written, D::Error> {
                d.deserialize_any(self)
            }

            fn visit_bytes<E: de::Error>(self, text: &[u8]) -> Result<Written, E> {
                Ok(Written(String::from_utf8_lossy(text).into_owned()))
            }

            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Written, E> {
                Ok(Written(n.to_string()))
            }

            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Written, E> {
                Ok(Written(n.to_string()))
            }

            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Written, E> {
                Ok(Written(
                    serde_json::Number::from_f64(n)
                        .map_or_else(|| n.to_string(), |n| n.to_string()),
                ))
            }
        }

        deserializer.deserialize_newtype_struct(NUMBER_TEXT, WrittenVisitor)
    }
}

impl<'de> Deserialize<'de> for NumberList {
    /// A string or a list of numbers; anything else is refused with what was expected (an item that
    /// is no number, with serde's own message for it).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ListVisitor;

        impl<'de> Visitor<'de> for ListVisitor {
            type Value = NumberList;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of numbers or a text of numbers")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<NumberList, E> {
                Ok(NumberList::Text(text.to_string()))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<NumberList, A::Error> {
                let mut numbers = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1 << 16));
                while let Some(Written(n)) = seq.next_element()? {
                    numbers.push(n);
                }
                Ok(NumberList::Numbers(numbers))
            }
        }

        deserializer.deserialize_any(ListVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<NumberList, String> {
        serde_json::from_str(json).map_err(|e| e.to_string())
    }

    #[test]
    fn a_text_or_a_list() {
        assert_eq!(read(r#""5, 6 7""#), Ok(NumberList::text("5, 6 7")));
        let list = read("[5, -6, 1.5, 18446744073709551615]").unwrap();
        assert_eq!(
            list,
            NumberList::Numbers(
                ["5", "-6", "1.5", "18446744073709551615"]
                    .map(String::from)
                    .to_vec()
            )
        );
        assert!(read("[]").unwrap().is_empty_list());
        assert!(!NumberList::text("").is_empty_list());
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            "[5,-6,1.5,18446744073709551615]"
        );
    }

    #[test]
    fn numbers_keep_the_text_they_were_written_as() {
        #[derive(Deserialize)]
        struct Heaps {
            heaps: NumberList,
        }
        let read = super::super::json::read::<Heaps>;
        let list = read(br#"{"heaps":[18446744073709551616, 1e3, 1.50, -0]}"#).unwrap();
        let written = ["18446744073709551616", "1e3", "1.50", "-0"].map(String::from);
        assert_eq!(list.heaps, NumberList::Numbers(written.to_vec()));
        let e = read(br#"{"heaps":[1, "2"]}"#).err().unwrap();
        assert_eq!(
            e.to_string(),
            "\"heaps\" item 2 must be a number, not `\"2\"`"
        );
    }

    #[test]
    fn anything_else_is_refused() {
        let e = read("true").unwrap_err();
        assert!(
            e.starts_with("invalid type: boolean `true`, expected a list of numbers or a text"),
            "{e}"
        );
        let e = read(r#"[1, "2"]"#).unwrap_err();
        assert!(e.starts_with("invalid type: string \"2\""), "{e}");
    }
}
