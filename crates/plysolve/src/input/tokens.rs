//! Streaming integer tokens: reads integers separated by white space or commas from any reader,
//! without holding the input in memory, and says where a bad token is. A token is read only until it
//! cannot be a number any more (a byte that is no digit, or digits past the 64-bit range), plus the
//! few bytes its message quotes: `/dev/zero` is refused after 164 bytes.

use super::number::{is_separator, IntFault, IntParser};
use super::{quote_bytes, QUOTED_CHARS};
use std::io::{self, Read};
use thiserror::Error;

/// Where a token stands in the input: 1-based token number and line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenPlace {
    /// 1-based position among all tokens.
    pub token: u64,
    /// 1-based line.
    pub line: u64,
}

/// A token that is not an integer of the accepted range, or a read that failed.
#[derive(Debug, Error)]
pub enum TokenError {
    /// Not an integer.
    #[error("token {} (line {}) {text} is not an integer", .place.token, .place.line)]
    NotAnInteger {
        /// Where.
        place: TokenPlace,
        /// The token, quoted as messages show input (see [`quote_bytes`]).
        text: String,
    },
    /// Two commas with nothing between them, or one first or last (the rule of
    /// [`items`](super::number::items)).
    #[error("token {} (line {}) is empty", .0.token, .0.line)]
    Empty(TokenPlace),
    /// An integer outside `i64`.
    #[error("token {} (line {}) {text} is outside the 64-bit integer range", .place.token, .place.line)]
    OutOfRange {
        /// Where.
        place: TokenPlace,
        /// The token, quoted as messages show input (see [`quote_bytes`]).
        text: String,
    },
    /// The reader failed.
    #[error("cannot read the input: {0}")]
    Io(#[from] io::Error),
}

/// Reads integer tokens one at a time from `R`, buffering 128 KiB at most.
pub struct IntReader<R> {
    source: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    tokens: u64,
    line: u64,
    /// Whether a comma came since the last token.
    after_comma: bool,
}

/// The read buffer: small enough to stay in the core's cache between the kernel's copy into it and
/// the parse (1 MiB was 9 % slower on 10^7 numbers; 32 to 128 KiB all alike, see BENCHMARKS.md).
const BUFFER: usize = 1 << 17;

impl<R: Read> IntReader<R> {
    /// A reader over `source`.
    pub fn new(source: R) -> Self {
        IntReader {
            source,
            buf: vec![0; BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            tokens: 0,
            line: 1,
            after_comma: false,
        }
    }

    fn refill(&mut self) -> io::Result<bool> {
        self.start = 0;
        self.end = loop {
            match self.source.read(&mut self.buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        Ok(self.end > 0)
    }

    /// The next integer, `None` at the end of the input. A UTF-8 byte-order mark at the very start
    /// is skipped. After an error the reader stops where the error was found: read no further.
    #[inline(always)]
    pub fn next_int(&mut self) -> Result<Option<i64>, TokenError> {
        // The common case, kept small so that it inlines into the caller's loop: a short number
        // right here, its end in the buffer.
        if let Some((value, len)) = whole_number(&self.buf[self.start..self.end]) {
            self.tokens += 1;
            self.take_number(len);
            return Ok(Some(value));
        }
        self.next_int_general()
    }

    /// Moves past a number of `len` bytes and the separator after it (usually the only one before
    /// the next number), counting the line it may end and the comma it may be.
    #[inline(always)]
    fn take_number(&mut self, len: usize) {
        let separator = self.buf[self.start + len];
        if separator == b'\n' {
            self.line += 1;
        }
        self.after_comma = separator == b',';
        self.start += len + 1;
    }

    /// Where the next token stands.
    fn next_place(&self) -> TokenPlace {
        TokenPlace {
            token: self.tokens + 1,
            line: self.line,
        }
    }

    /// [`Self::next_int`] in every case: separators to skip, a buffer to refill (and a number
    /// across its end), the byte-order mark, long and bad tokens. Out of line, so that the loop
    /// that calls `next_int` stays small.
    #[inline(never)]
    fn next_int_general(&mut self) -> Result<Option<i64>, TokenError> {
        let at_start = self.end == 0 && self.tokens == 0 && self.line == 1 && self.start == 0;
        if at_start && self.refill()? && self.buf[..self.end].starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.start = 3;
        }
        // Skip separators, counting lines; a comma first or after a comma is an empty token.
        loop {
            if self.start == self.end && !self.refill()? {
                return match self.after_comma {
                    true => Err(TokenError::Empty(self.next_place())),
                    false => Ok(None),
                };
            }
            let b = self.buf[self.start];
            if !is_separator(b) {
                break;
            }
            if b == b',' {
                if self.after_comma || self.tokens == 0 {
                    return Err(TokenError::Empty(self.next_place()));
                }
                self.after_comma = true;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.start += 1;
        }
        self.tokens += 1;
        self.after_comma = false;
        // After separators or a refill: a short number is still parsed straight from its bytes.
        if let Some((value, len)) = whole_number(&self.buf[self.start..self.end]) {
            self.take_number(len);
            return Ok(Some(value));
        }
        let place = TokenPlace {
            token: self.tokens,
            line: self.line,
        };
        let mut parser = IntParser::new(i64::MIN.into(), i64::MAX.into(), SHOWN);
        loop {
            let rest = &self.buf[self.start..self.end];
            let len = rest.iter().position(|&b| is_separator(b));
            let piece = &rest[..len.unwrap_or(rest.len())];
            let used = parser.feed(piece);
            if used < piece.len() {
                // The token cannot be a number: stop here.
                self.start += used;
                break;
            }
            match len {
                Some(len) => {
                    self.start += len;
                    break;
                }
                None => {
                    self.start = self.end;
                    if !self.refill()? {
                        break;
                    }
                }
            }
        }
        token_result(&parser, place).map(Some)
    }
}

/// The number at the start of `bytes` and its length, when it is an optionally signed run of 1 to 7
/// digits followed by a separator. `None` sends every other case (a token that runs
/// past the buffer, a long one, a bad one) to [`IntParser`], which says what is wrong.
#[inline(always)]
fn whole_number(bytes: &[u8]) -> Option<(i64, usize)> {
    let (negative, sign) = match bytes.first()? {
        b'-' => (true, 1),
        b'+' => (false, 1),
        _ => (false, 0),
    };
    let (value, at) = match bytes.get(sign..sign + 8) {
        Some(eight) => eight_digits(eight.try_into().ok()?)?,
        None => few_digits(&bytes[sign..])?,
    };
    let at = sign + at;
    if !is_separator(*bytes.get(at)?) {
        return None;
    }
    // At most 7 digits: far inside the range either way.
    let value = value as i64;
    Some((if negative { -value } else { value }, at))
}

/// The digits at the start of eight bytes, read at once (SWAR): their value and count, `None` when
/// there are none or all eight are digits (a long number, left to [`IntParser`]).
#[inline(always)]
fn eight_digits(eight: [u8; 8]) -> Option<(u64, usize)> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let word = u64::from_le_bytes(eight);
    // Each byte minus b'0', as if no byte borrowed from the next: a digit byte becomes 0..=9.
    let shifted = word ^ (ONES * u64::from(b'0'));
    // High bit of each byte that is not a digit: 10 or more after the xor, or over 0x7f.
    let not_digit = (((shifted & (ONES * 0x7f)) + ONES * 0x76) | shifted) & (ONES * 0x80);
    let count = (not_digit.trailing_zeros() / 8) as usize;
    if count == 0 || count == 8 {
        return None;
    }
    // The digits moved to the top bytes (leading zeros below them), then combined in pairs,
    // fours and eights (Lemire's eight-digit parse).
    let digits = (shifted << (8 * (8 - count))) & (ONES * 0x0f);
    let pairs = (digits.wrapping_mul(2561) >> 8) & 0x00ff_00ff_00ff_00ff;
    let fours = (pairs.wrapping_mul(6_553_601) >> 16) & 0x0000_ffff_0000_ffff;
    Some((fours.wrapping_mul(42_949_672_960_001) >> 32, count))
}

/// The digits at the start of `bytes` (fewer than eight bytes), one at a time.
#[inline(always)]
fn few_digits(bytes: &[u8]) -> Option<(u64, usize)> {
    let count = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let value = bytes[..count]
        .iter()
        .fold(0, |v, &b| v * 10 + u64::from(b - b'0'));
    (count > 0).then_some((value, count))
}

/// Bytes of a bad token kept for its message: enough for [`QUOTED_CHARS`] characters and one more.
const SHOWN: usize = 4 * (QUOTED_CHARS + 1);

/// The reader's result for a token the fast path left to `parser`.
fn token_result(parser: &IntParser, place: TokenPlace) -> Result<i64, TokenError> {
    let text = || quote_bytes(parser.shown());
    match parser.finish() {
        Ok(value) => Ok(value as i64),
        Err(IntFault::NotANumber) => Err(TokenError::NotAnInteger {
            place,
            text: text(),
        }),
        Err(IntFault::OutOfRange) => Err(TokenError::OutOfRange {
            place,
            text: text(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> Result<Vec<i64>, String> {
        let mut reader = IntReader::new(text.as_bytes());
        let mut out = Vec::new();
        while let Some(v) = reader.next_int().map_err(|e| e.to_string())? {
            out.push(v);
        }
        Ok(out)
    }

    #[test]
    fn separators_signs_and_limits() {
        assert_eq!(
            all("1, -2\n0\t+9 ,\n-1 -2\r\n"),
            Ok(vec![1, -2, 0, 9, -1, -2])
        );
        assert_eq!(
            all("9223372036854775807 -9223372036854775808"),
            Ok(vec![i64::MAX, i64::MIN])
        );
        assert_eq!(all(""), Ok(vec![]));
        assert_eq!(
            all("1 2\n3 9223372036854775808"),
            Err(
                "token 4 (line 2) `9223372036854775808` is outside the 64-bit integer range".into()
            )
        );
        assert_eq!(
            all("1\n\n 1.5"),
            Err("token 2 (line 3) `1.5` is not an integer".into())
        );
        assert_eq!(
            all("- 3"),
            Err("token 1 (line 1) `-` is not an integer".into())
        );
    }

    #[test]
    fn bad_tokens_stop_the_reading() {
        // An endless token of NUL bytes: refused after the bytes its message shows.
        let mut reader = IntReader::new(std::io::repeat(0));
        assert_eq!(
            reader.next_int().unwrap_err().to_string(),
            format!("token 1 (line 1) `{}…` is not an integer", "\\0".repeat(20))
        );
        // An endless number: refused once past the 64-bit range.
        let mut reader = IntReader::new(std::io::repeat(b'9'));
        assert_eq!(
            reader.next_int().unwrap_err().to_string(),
            format!(
                "token 1 (line 1) `{}…` is outside the 64-bit integer range",
                "9".repeat(40)
            )
        );
        // Leading zeros are a number however many there are.
        let zeros = format!("-{}7 1", "0".repeat(5000));
        assert_eq!(all(&zeros), Ok(vec![-7, 1]));
        assert_eq!(
            all("1 \u{1b}[2J 3"),
            Err("token 2 (line 1) `\\x1b[2J` is not an integer".into())
        );
    }

    #[test]
    fn the_fast_path_agrees_with_the_standard_parser() {
        // Every length of number, signed or not, before every kind of byte, at every offset from
        // the end of the buffer; what the fast path does not take is left to the full parser.
        for digits in 1..=12 {
            for first in ['1', '9', '0'] {
                let number: String = std::iter::once(first)
                    .chain("8070605040302".chars())
                    .take(digits)
                    .collect();
                for sign in ["", "-", "+"] {
                    for after in ["", " ", ",", "\n", "x", ".5", "\u{e9}", "-"] {
                        let token = format!("{sign}{number}{after}");
                        let expected: Option<i64> = token
                            .split([' ', ',', '\n'])
                            .next()
                            .and_then(|t| t.parse().ok());
                        for pad in 0..9 {
                            let text = format!("{token}{}", " ".repeat(pad));
                            let fast = whole_number(text.as_bytes());
                            if let Some((value, len)) = fast {
                                assert_eq!(Some(value), expected, "{text:?}");
                                assert_eq!(len, sign.len() + digits, "{text:?}");
                            }
                            // A comma last is an empty token: one more number after it.
                            let whole = match after {
                                "," => format!("{text}0"),
                                _ => text.clone(),
                            };
                            let full = all(&whole).ok().and_then(|v| v.first().copied());
                            assert_eq!(full, expected, "{text:?}");
                        }
                        assert!(
                            digits > 7 || expected.is_none() || after.is_empty() || {
                                let text = format!("{token}        ");
                                whole_number(text.as_bytes()).is_some()
                            },
                            "{token:?} takes the fast path"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn an_empty_token_is_refused_where_it_is() {
        assert_eq!(all("1,,2"), Err("token 2 (line 1) is empty".into()));
        assert_eq!(all("1,\n ,2"), Err("token 2 (line 2) is empty".into()));
        assert_eq!(all(",1"), Err("token 1 (line 1) is empty".into()));
        assert_eq!(all("1 22,"), Err("token 3 (line 1) is empty".into()));
        assert_eq!(
            all("1 123456789, \n"),
            Err("token 3 (line 2) is empty".into())
        );
        assert_eq!(all("123456789,,"), Err("token 2 (line 1) is empty".into()));
        // The same rule as a text's items.
        for text in ["1,,2", "1,\n ,2", ",1", "1 22,", "1,2 3", " 1 , 2 "] {
            let stream = all(text).map(|v| v.len());
            let text_items = super::super::number::items(text).collect::<Result<Vec<_>, _>>();
            assert_eq!(stream.is_ok(), text_items.is_ok(), "{text:?}");
        }
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        assert_eq!(all("\u{feff}1 -2"), Ok(vec![1, -2]));
    }

    #[test]
    fn long_tokens_across_the_buffer() {
        let mut text = "0 ".repeat((BUFFER - 80) / 2);
        text.push_str(&format!("-{}5 1", "0".repeat(98)));
        let values = all(&text).unwrap();
        assert_eq!(values.len(), (BUFFER - 80) / 2 + 2);
        assert_eq!(&values[values.len() - 2..], &[-5, 1]);
    }

    #[test]
    fn tokens_across_buffer_boundaries() {
        let text: String = (0..300_000).map(|i| format!("{} ", i * 7 - 1000)).collect();
        let values = all(&text).unwrap();
        assert_eq!(values.len(), 300_000);
        assert!(values
            .iter()
            .enumerate()
            .all(|(i, &v)| v == i as i64 * 7 - 1000));
    }
}
