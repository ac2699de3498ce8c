//! Numbers as a request states them: one text, as a command line writes them (`"5,6 7"`), or a JSON
//! list (`[5,6,7]`). A game reads either with its own rule for one number (a heap size, a sum, a
//! square's value); the text's tokens go through [`number`](super::number) like any other input, and
//! a JSON number is taken as the integer it is, or refused with its own text as the token.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Number;
use std::fmt;

/// Numbers written as one text or given as a JSON list.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum NumberList {
    /// Numbers separated by white space or commas, as the command line takes them.
    Text(String),
    /// One JSON number per item.
    Numbers(Vec<Number>),
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

/// A JSON number as the integer it is; `None` for a number written with a fraction or an exponent
/// (JSON reads it as a float), whose text is then the token a message quotes.
pub fn json_integer(number: &Number) -> Option<i128> {
    number
        .as_i64()
        .map(i128::from)
        .or_else(|| number.as_u64().map(i128::from))
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
                while let Some(n) = seq.next_element::<Number>()? {
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
        let NumberList::Numbers(numbers) = &list else {
            panic!("{list:?}")
        };
        let integers: Vec<Option<i128>> = numbers.iter().map(json_integer).collect();
        assert_eq!(integers, [Some(5), Some(-6), None, Some(u64::MAX as i128)]);
        assert_eq!(numbers[2].to_string(), "1.5");
        assert!(read("[]").unwrap().is_empty_list());
        assert!(!NumberList::text("").is_empty_list());
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            "[5,-6,1.5,18446744073709551615]"
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
