//! The one rule for numbers in text: what separates them ([`is_separator`], [`items`]) and how a
//! whole number is read ([`IntParser`], [`parse_int`]). Every reader of numbers goes through it: the
//! streaming token reader, contest lines, MagicBoard rows, heap sizes, pick lists, dot numbers.

/// Whether `b` separates numbers: ASCII white space (space, tab, line feed, form feed, carriage
/// return) or a comma.
#[inline(always)]
pub fn is_separator(b: u8) -> bool {
    b == b',' || b.is_ascii_whitespace()
}

/// The items of `text`: the runs between [`is_separator`] bytes.
pub fn items(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_ascii() && is_separator(c as u8))
        .filter(|t| !t.is_empty())
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
        let found: Vec<&str> = items(" 1,2\t3\r\n4\u{c}5,,\u{a0}6 ").collect();
        assert_eq!(found, ["1", "2", "3", "4", "5", "\u{a0}6"]);
        assert!(is_separator(b',') && is_separator(b' ') && !is_separator(0x0b));
    }
}
