//! Streaming integer tokens: reads integers separated by white space or commas from any reader,
//! without holding the input in memory, and says where a bad token is.

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
    #[error("token {} (line {}) `{text}` is not an integer", .place.token, .place.line)]
    NotAnInteger {
        /// Where.
        place: TokenPlace,
        /// The token (cut to 40 characters).
        text: String,
    },
    /// An integer outside `i64`.
    #[error("token {} (line {}) `{text}` is outside the 64-bit integer range", .place.token, .place.line)]
    OutOfRange {
        /// Where.
        place: TokenPlace,
        /// The token (cut to 40 characters).
        text: String,
    },
    /// The reader failed.
    #[error("cannot read the input: {0}")]
    Io(#[from] io::Error),
}

/// Reads integer tokens one at a time from `R`, buffering 1 MiB at most.
pub struct IntReader<R> {
    source: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    scratch: Vec<u8>,
    tokens: u64,
    line: u64,
}

const BUFFER: usize = 1 << 20;

fn is_separator(b: u8) -> bool {
    b == b',' || b.is_ascii_whitespace()
}

impl<R: Read> IntReader<R> {
    /// A reader over `source`.
    pub fn new(source: R) -> Self {
        IntReader {
            source,
            buf: vec![0; BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            scratch: Vec::new(),
            tokens: 0,
            line: 1,
        }
    }

    /// How many tokens have been read so far.
    pub fn tokens_read(&self) -> u64 {
        self.tokens
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

    /// The next integer, `None` at the end of the input.
    pub fn next_int(&mut self) -> Result<Option<i64>, TokenError> {
        // Skip separators, counting lines.
        loop {
            if self.start == self.end && !self.refill()? {
                return Ok(None);
            }
            let b = self.buf[self.start];
            if !is_separator(b) {
                break;
            }
            if b == b'\n' {
                self.line += 1;
            }
            self.start += 1;
        }
        self.tokens += 1;
        let place = TokenPlace {
            token: self.tokens,
            line: self.line,
        };
        // Fast path: the token ends inside the buffer.
        let rest = &self.buf[self.start..self.end];
        if let Some(len) = rest.iter().position(|&b| is_separator(b)) {
            let token = &self.buf[self.start..self.start + len];
            self.start += len;
            return parse_int(token, place).map(Some);
        }
        // Slow path: the token runs past the buffer.
        self.scratch.clear();
        loop {
            let rest = &self.buf[self.start..self.end];
            match rest.iter().position(|&b| is_separator(b)) {
                Some(len) => {
                    self.scratch.extend_from_slice(&rest[..len]);
                    self.start += len;
                    break;
                }
                None => {
                    self.scratch.extend_from_slice(rest);
                    self.start = self.end;
                    if self.scratch.len() > 64 || !self.refill()? {
                        break;
                    }
                }
            }
        }
        parse_int(&self.scratch, place).map(Some)
    }
}

/// Parses an optionally signed decimal integer.
fn parse_int(token: &[u8], place: TokenPlace) -> Result<i64, TokenError> {
    let text = || String::from_utf8_lossy(&token[..token.len().min(40)]).into_owned();
    let (negative, digits) = match token.first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err(TokenError::NotAnInteger {
            place,
            text: text(),
        });
    }
    let mut value: i64 = 0;
    for &d in digits {
        let digit = (d - b'0') as i64;
        value = value
            .checked_mul(10)
            .and_then(|v| {
                if negative {
                    v.checked_sub(digit)
                } else {
                    v.checked_add(digit)
                }
            })
            .ok_or_else(|| TokenError::OutOfRange {
                place,
                text: text(),
            })?;
    }
    Ok(value)
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
            all("1, -2\n0\t+9,,-1 -2\r\n"),
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
