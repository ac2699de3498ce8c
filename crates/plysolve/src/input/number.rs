//! The one rule for numbers in text: what separates them ([`is_separator`], [`items`]) and how a
//! whole number is read ([`IntParser`], [`parse_int`]). Every reader of numbers goes through it: the
//! streaming token reader, contest lines, MagicBoard rows, heap sizes, pick lists, dot numbers.

/// Whether `b` separates numbers: ASCII white space (space, tab, line feed, form feed, carriage
/// return) or a comma.
#[inline(always)]
pub fn is_separator(b: u8) -> bool {
    b == b',' || b.is_ascii_whitespace()
}

/// An item of a list with nothing in it: a comma first, last, or after another comma with only white
/// space between (`1,,2`, `,1`, `1,`). White space alone never makes one: runs of it are one
/// separator, and a blank text is a list of no items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("item {0} is empty")]
pub struct EmptyItem(pub usize);

/// The items of `text`: the runs between [`is_separator`] bytes, in order, each `Ok`; an empty item
/// ([`EmptyItem`], numbered among the items) ends them with an `Err`.
pub fn items(text: &str) -> Items<'_> {
    Items {
        rest: Some(text),
        count: 0,
        after_comma: false,
    }
}

/// The iterator of [`items`].
#[derive(Debug, Clone)]
pub struct Items<'a> {
    /// The text not read yet; `None` once the items are over (or an empty one was met).
    rest: Option<&'a str>,
    /// Items given so far.
    count: usize,
    /// Whether a comma came since the last item (or the text starts with one).
    after_comma: bool,
}

impl<'a> Iterator for Items<'a> {
    type Item = Result<&'a str, EmptyItem>;

    fn next(&mut self) -> Option<Self::Item> {
        let rest = self.rest?;
        let start = rest.bytes().position(|b| !is_white(b));
        let Some(start) = start else {
            self.rest = None;
            return self.after_comma.then(|| Err(EmptyItem(self.count + 1)));
        };
        let rest = &rest[start..];
        if let Some(after) = rest.strip_prefix(',') {
            if self.after_comma || self.count == 0 {
                self.rest = None;
                return Some(Err(EmptyItem(self.count + 1)));
            }
            self.after_comma = true;
            self.rest = Some(after);
            return self.next();
        }
        let end = rest.bytes().position(is_separator).unwrap_or(rest.len());
        self.count += 1;
        self.after_comma = false;
        self.rest = Some(&rest[end..]);
        Some(Ok(&rest[..end]))
    }
}

/// Whether `b` is a separator other than a comma: ASCII white space.
fn is_white(b: u8) -> bool {
    b != b',' && is_separator(b)
}

/// Why a token is not a whole number in range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntFault {
    /// Something other than an optional sign followed by digits.
    NotANumber,
    /// Digits, but a number outside the range asked for.
    OutOfRange,
}

/// Parses an optionally signed decimal integer (`-` or `+`, then digits) fed in pieces, in constant
/// memory however long it is, within a range of `i128`.
#[derive(Debug, Clone)]
pub struct IntParser {
    /// The first bytes, for messages (at most `keep`).
    shown: Vec<u8>,
    keep: usize,
    /// Whether every byte is taken (a whole token), rather than stopping once the token is bad.
    whole: bool,
    min: i128,
    max: i128,
    len: usize,
    negative: bool,
    digits: usize,
    value: i128,
    not_digit: bool,
    overflow: bool,
}

impl IntParser {
    /// A parser of numbers in `min..=max` that keeps the first `keep` bytes of the token for its
    /// message, and stops taking bytes once the token is known bad and `keep` bytes are kept.
    pub fn new(min: i128, max: i128, keep: usize) -> Self {
        IntParser {
            shown: Vec::new(),
            keep,
            whole: false,
            min,
            max,
            len: 0,
            negative: false,
            digits: 0,
            value: 0,
            not_digit: false,
            overflow: false,
        }
    }

    /// Feeds the next bytes of the token; returns how many were taken, fewer than all once the
    /// token cannot be a number and enough of it is kept for the message.
    pub fn feed(&mut self, bytes: &[u8]) -> usize {
        let room = self.keep.saturating_sub(self.shown.len());
        self.shown
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
        for (i, &b) in bytes.iter().enumerate() {
            if !self.whole && (self.not_digit || self.overflow) && self.len >= self.keep {
                return i;
            }
            let first = self.len == 0;
            self.len += 1;
            match b {
                b'-' if first => self.negative = true,
                b'+' if first => {}
                b'0'..=b'9' => {
                    self.digits += 1;
                    let digit = (b - b'0') as i128;
                    let next = self
                        .value
                        .checked_mul(10)
                        .and_then(|v| {
                            if self.negative {
                                v.checked_sub(digit)
                            } else {
                                v.checked_add(digit)
                            }
                        })
                        .filter(|v| (self.min..=self.max).contains(v));
                    match next {
                        Some(v) => self.value = v,
                        None => self.overflow = true,
                    }
                }
                _ => self.not_digit = true,
            }
        }
        bytes.len()
    }

    /// The first bytes of the token, as kept for its message.
    pub fn shown(&self) -> &[u8] {
        &self.shown
    }

    /// The number, or why the token is not one.
    pub fn finish(&self) -> Result<i128, IntFault> {
        if self.not_digit || self.digits == 0 {
            Err(IntFault::NotANumber)
        } else if self.overflow {
            Err(IntFault::OutOfRange)
        } else {
            Ok(self.value)
        }
    }
}

/// A whole token as an `i128`: `OutOfRange` for digits beyond 128 bits, `NotANumber` for anything
/// but an optional sign and digits.
pub fn parse_int(token: &str) -> Result<i128, IntFault> {
    let mut parser = IntParser {
        whole: true,
        ..IntParser::new(i128::MIN, i128::MAX, 0)
    };
    parser.feed(token.as_bytes());
    parser.finish()
}

/// A whole token as a number that cannot be negative (`+` allowed, `-` never, not even `-0`).
pub fn parse_unsigned(token: &str) -> Result<u128, IntFault> {
    if token.starts_with('-') {
        return Err(IntFault::NotANumber);
    }
    parse_int(token).map(|v| v as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_parser_agrees() {
        let long = "9".repeat(200);
        let long_bad = format!("{long}x");
        for token in [
            "0",
            "+7",
            "-7",
            "-0",
            "+",
            "-",
            "",
            "1.5",
            "--1",
            "+-1",
            "12a",
            "a12",
            "\u{e9}1",
            "170141183460469231731687303715884105727",
            "-170141183460469231731687303715884105728",
            "170141183460469231731687303715884105728",
            &long,
            &long_bad,
        ] {
            let expected = match token.parse::<i128>() {
                Ok(v) => Ok(v),
                Err(_) => {
                    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
                    match !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                        true => Err(IntFault::OutOfRange),
                        false => Err(IntFault::NotANumber),
                    }
                }
            };
            assert_eq!(parse_int(token), expected, "{token:?}");
        }
        assert_eq!(parse_unsigned("+12"), Ok(12));
        assert_eq!(parse_unsigned("-0"), Err(IntFault::NotANumber));
    }

    #[test]
    fn one_separator_rule() {
        let found: Vec<_> = items(" 1,2\t3\r\n4\u{c}5 ,\n\u{a0}6 ").collect();
        assert_eq!(found, ["1", "2", "3", "4", "5", "\u{a0}6"].map(Ok));
        assert_eq!(items(" \t\n").count(), 0);
        assert_eq!(items("").count(), 0);
    }

    #[test]
    fn an_empty_item_ends_the_list() {
        let read = |text| items(text).collect::<Vec<_>>();
        assert_eq!(read("1,,2"), [Ok("1"), Err(EmptyItem(2))]);
        assert_eq!(read("1, \t ,2"), [Ok("1"), Err(EmptyItem(2))]);
        assert_eq!(read(",1"), [Err(EmptyItem(1))]);
        assert_eq!(read(" , 1"), [Err(EmptyItem(1))]);
        assert_eq!(read("1 2,"), [Ok("1"), Ok("2"), Err(EmptyItem(3))]);
        assert_eq!(read("1 2, "), [Ok("1"), Ok("2"), Err(EmptyItem(3))]);
        assert_eq!(read(","), [Err(EmptyItem(1))]);
        assert_eq!(EmptyItem(2).to_string(), "item 2 is empty");
        assert!(is_separator(b',') && is_separator(b' ') && !is_separator(0x0b));
    }
}
