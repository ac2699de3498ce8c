//! Reading untrusted text, boundedly: lines read with a cap on their length, bytes that no valid
//! input holds refused where they stand (with their line and byte offset), and input quoted in
//! messages at a bounded length with control and non-UTF-8 bytes escaped.
//!
//! Every whole-input reader goes through [`Lines`], so `/dev/zero`, `/dev/urandom` or a file of one
//! endless line is refused after at most one line's worth of bytes, in memory bounded by that line.
//! Over it: [`lines`], contest formats (a count, then records of lines of numbers); beside it,
//! [`tokens`], the streaming integer reader of long inputs; under both, [`number`], the one rule for
//! separators and the one integer parser; [`number_list`], numbers as a request states them (one text
//! or a JSON list) and [`json`], a request read from JSON with its faults in the caller's terms; apart, [`memory_size`], sizes like `8G` (`--memory`); and [`surface`], how a fault
//! names a request's options for the front end it came through (`--strategy memo`, `"strategy":
//! "memo"`, `strategy="memo"`).

pub mod duration;
pub mod json;
pub mod lines;
pub mod memory_size;
pub mod number;
pub mod number_list;
pub mod surface;
pub mod tokens;

use std::io::{self, BufRead};
use thiserror::Error;

pub use crate::engine::util::excerpt::{
    excerpt, excerpt_within, path_excerpt, quote_path, QUOTED_CHARS,
};

/// `text` as messages show it: between backticks, at most [`QUOTED_CHARS`] characters, control
/// characters escaped, `…` when cut. One helper for every message that echoes input.
pub fn quote(text: &str) -> String {
    quote_bytes(text.as_bytes())
}

/// Raw bytes as messages show them: like [`quote`], with bytes that are not UTF-8 written `\xff`.
pub fn quote_bytes(bytes: &[u8]) -> String {
    format!("`{}`", excerpt(bytes))
}

/// Whether `b` can occur in a text of numbers at all: every byte but the ASCII control bytes other
/// than tab, form feed and the line ends (a NUL or an escape is never part of valid input).
pub fn is_text_byte(b: u8) -> bool {
    !b.is_ascii_control() || matches!(b, b'\t' | b'\n' | b'\r' | 0x0c)
}

/// What is wrong with the bytes of the input, found while reading it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ReadFault {
    /// A byte no valid input holds.
    #[error("byte {offset} of the input is {}, which no valid input holds", quote_bytes(&[*.byte]))]
    Byte {
        /// 0-based offset in the input.
        offset: u64,
        /// The byte.
        byte: u8,
    },
    /// Bytes that are not UTF-8.
    #[error("byte {offset} of the input starts invalid UTF-8 ({})", quote_bytes(.bytes))]
    Utf8 {
        /// 0-based offset in the input of the first bad byte.
        offset: u64,
        /// The bad sequence (at most 4 bytes).
        bytes: Vec<u8>,
    },
    /// A line longer than any valid line.
    #[error("the line is longer than {limit} bytes (with any blank lines before it); no valid line is that long")]
    LineTooLong {
        /// The most a line may hold.
        limit: usize,
    },
    /// More input than any valid input holds.
    #[error("the input goes on past {limit} bytes; no valid input is that long")]
    InputTooLong {
        /// The most the input may hold.
        limit: usize,
    },
    /// The reader failed.
    #[error("cannot read the input: {0}")]
    Io(String),
}

/// A [`ReadFault`] with the 1-based line it is on.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {fault}")]
pub struct ReadError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub fault: ReadFault,
}

/// Reads lines of text from a [`BufRead`], one line in memory at a time. A line ends at `\n`,
/// `\r\n` or a lone `\r`; a UTF-8 byte-order mark at the very start is skipped. Each byte is checked
/// as it arrives ([`is_text_byte`], UTF-8), so a bad input is refused at its first bad byte.
pub struct Lines<R> {
    source: R,
    line: Vec<u8>,
    /// Number of the last line read (0 before the first).
    number: usize,
    /// Bytes consumed so far.
    offset: u64,
    /// The last line ended with `\r`: a `\n` right after it belongs to that line ending.
    after_cr: bool,
    /// The input has ended.
    done: bool,
    /// The last line read stopped at a fault before its ending: [`Lines::skip_line`] passes over the
    /// rest.
    unfinished: bool,
}

impl<R: BufRead> Lines<R> {
    /// A reader over `source`.
    pub fn new(source: R) -> Self {
        Lines {
            source,
            line: Vec::new(),
            number: 0,
            offset: 0,
            after_cr: false,
            done: false,
            unfinished: false,
        }
    }

    /// The number of the last line read (1-based; 0 before the first).
    pub fn line_number(&self) -> usize {
        self.number
    }

    /// The last line [`next_line`](Self::next_line) returned (empty before the first).
    pub fn current(&self) -> &str {
        std::str::from_utf8(&self.line).unwrap_or_default()
    }

    /// The next line without its ending, `None` at the end of the input. A line of more than `limit`
    /// bytes is refused as soon as its byte `limit + 1` arrives.
    pub fn next_line(&mut self, limit: usize) -> Result<Option<&str>, ReadError> {
        if self.done {
            return Ok(None);
        }
        self.line.clear();
        self.number += 1;
        self.unfinished = true;
        let start = self.offset;
        // Where the line's bytes start: past a `\n` left over from a `\r\n`, if any.
        let mut line_start = start;
        // Bytes of `self.line` known to be valid UTF-8.
        let mut checked = 0;
        let mut ended = false;
        while !ended {
            let buf = match self.source.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.error(ReadFault::Io(e.to_string()))),
            };
            if buf.is_empty() {
                self.done = true;
                self.unfinished = false;
                if self.line.is_empty() && self.offset == start {
                    return Ok(None);
                }
                break;
            }
            let mut skip = 0;
            if std::mem::take(&mut self.after_cr) && buf[0] == b'\n' {
                skip = 1;
                line_start += 1;
            }
            let rest = &buf[skip..];
            let end = rest.iter().position(|&b| b == b'\n' || b == b'\r');
            let body = &rest[..end.unwrap_or(rest.len())];
            let bad = body.iter().position(|&b| !is_text_byte(b));
            let room = limit.saturating_sub(self.line.len());
            let take = body.len().min(room).min(bad.unwrap_or(usize::MAX));
            self.line.extend_from_slice(&body[..take]);
            let body_offset = self.offset + skip as u64;
            if let Some(at) = bad.filter(|&at| at <= room) {
                let (byte, offset) = (body[at], body_offset + at as u64);
                // The reader stands at the bad byte (for skip_line).
                self.consume(skip + at);
                // Invalid UTF-8 before the bad byte comes first (a sequence it cuts short included).
                self.check_utf8(checked, line_start, true)?;
                return Err(self.error(ReadFault::Byte { offset, byte }));
            }
            if take < body.len() {
                self.consume(skip + take);
                return Err(self.error(ReadFault::LineTooLong { limit }));
            }
            let mut used = skip + take;
            if let Some(end) = end {
                ended = true;
                self.unfinished = false;
                self.after_cr = rest[end] == b'\r';
                used += 1;
            }
            self.consume(used);
            checked = self.check_utf8(checked, line_start, ended || self.done)?;
        }
        self.check_utf8(checked, line_start, true)?;
        if self.number == 1 && self.line.starts_with(&[0xEF, 0xBB, 0xBF]) {
            self.line.drain(..3);
        }
        match std::str::from_utf8(&self.line) {
            Ok(text) => Ok(Some(text)),
            // Checked above; kept as a fault rather than a panic.
            Err(e) => Err(ReadError {
                line: self.number,
                fault: ReadFault::Utf8 {
                    offset: line_start + e.valid_up_to() as u64,
                    bytes: Vec::new(),
                },
            }),
        }
    }

    /// After a fault in a line, passes over the rest of it and its ending without keeping a byte, so
    /// the next [`next_line`](Self::next_line) reads the line after: a reader that answers a bad line
    /// and goes on (`ply play`) stays in bounded memory however long the line is. Does nothing when
    /// the last line was read to its ending. A line that goes on past `most` bytes without an end
    /// is [`ReadFault::LineTooLong`]: no one types that (`< /dev/zero` would be read for ever).
    pub fn skip_line(&mut self, most: u64) -> Result<(), ReadError> {
        if !self.unfinished {
            return Ok(());
        }
        let start = self.offset;
        while !self.done {
            if self.offset - start > most {
                return Err(self.error(ReadFault::LineTooLong {
                    limit: most as usize,
                }));
            }
            let buf = match self.source.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(self.error(ReadFault::Io(e.to_string()))),
            };
            if buf.is_empty() {
                self.done = true;
                break;
            }
            // next_line has passed over a `\n` ending the line before (after_cr) already.
            match buf.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(end) => {
                    self.after_cr = buf[end] == b'\r';
                    self.consume(end + 1);
                    break;
                }
                None => {
                    let all = buf.len();
                    self.consume(all);
                }
            }
        }
        self.unfinished = false;
        Ok(())
    }

    /// Marks `count` bytes of the source's buffer read.
    fn consume(&mut self, count: usize) {
        self.source.consume(count);
        self.offset += count as u64;
    }

    /// Checks the UTF-8 of `self.line` from `checked` on; an incomplete sequence at its end is an
    /// error only when the line is complete. Returns the new checked length. `line_start` is the
    /// offset of the line's first byte.
    fn check_utf8(
        &self,
        checked: usize,
        line_start: u64,
        complete: bool,
    ) -> Result<usize, ReadError> {
        match std::str::from_utf8(&self.line[checked..]) {
            Ok(_) => Ok(self.line.len()),
            Err(e) if e.error_len().is_none() && !complete => Ok(checked + e.valid_up_to()),
            Err(e) => {
                let at = checked + e.valid_up_to();
                let len = e.error_len().unwrap_or(self.line.len() - at);
                Err(self.error(ReadFault::Utf8 {
                    offset: line_start + at as u64,
                    bytes: self.line[at..at + len.min(4)].to_vec(),
                }))
            }
        }
    }

    fn error(&self, fault: ReadFault) -> ReadError {
        ReadError {
            line: self.number.max(1),
            fault,
        }
    }

    /// The rest of the input, lines joined by `\n`, refused once it passes `limit` bytes.
    pub fn rest(&mut self, limit: usize) -> Result<String, ReadError> {
        let mut text = String::new();
        let too_long = |line| ReadError {
            line,
            fault: ReadFault::InputTooLong { limit },
        };
        loop {
            let room = limit.saturating_sub(text.len());
            match self.next_line(room) {
                Ok(Some(line)) => {
                    text.push_str(line);
                    text.push('\n');
                }
                Ok(None) => return Ok(text),
                Err(ReadError {
                    line,
                    fault: ReadFault::LineTooLong { .. },
                }) => return Err(too_long(line)),
                Err(e) => return Err(e),
            }
            if text.len() > limit {
                return Err(too_long(self.number));
            }
        }
    }
}

/// The whole of `source` as text, lines joined by `\n`, checked as [`Lines`] checks it and refused
/// past `limit` bytes (the most any valid input of its format can hold).
pub fn read_bounded<R: BufRead>(source: R, limit: usize) -> Result<String, ReadError> {
    Lines::new(source).rest(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_show_their_end_escaped() {
        use std::path::Path;
        assert_eq!(path_excerpt(Path::new("a/b.book")), "a/b.book");
        assert_eq!(path_excerpt(Path::new("x\ny\u{1b}z")), "x\\ny\\x1bz");
        let long = format!("/{}/name.table", "d".repeat(100));
        let shown = path_excerpt(Path::new(&long));
        assert_eq!(shown.chars().count(), QUOTED_CHARS);
        assert!(
            shown.starts_with('…') && shown.ends_with("dd/name.table"),
            "{shown}"
        );
    }

    fn lines(input: &[u8], limit: usize) -> Result<Vec<String>, String> {
        let mut reader = Lines::new(input);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line(limit).map_err(|e| e.to_string())? {
            out.push(line.to_string());
        }
        Ok(out)
    }

    #[test]
    fn quotes_are_short_and_printable() {
        assert_eq!(quote("x"), "`x`");
        assert_eq!(quote(""), "``");
        assert_eq!(
            quote_bytes(b"a\0b\x7f\xff\tc\\"),
            "`a\\0b\\x7f\\xff\\tc\\\\`"
        );
        assert_eq!(quote("é\u{202e}\u{200b}"), "`é\\u{202e}\\u{200b}`");
        let long = "9".repeat(41);
        assert_eq!(quote(&long), format!("`{}…`", "9".repeat(40)));
        assert_eq!(quote(&long[..40]), format!("`{}`", "9".repeat(40)));
        // Escapes count as the characters they show: a quote is never longer than 40 of them.
        assert_eq!(excerpt(&[0; 100]), format!("{}…", "\\0".repeat(20)));
        assert_eq!(
            quote(&"\u{202e}".repeat(50)),
            format!("`{}…`", "\\u{202e}".repeat(5))
        );
    }

    #[test]
    fn every_line_ending() {
        let expected: Vec<String> = ["1 2", "", "3", "4", "5"].map(String::from).into();
        assert_eq!(lines(b"1 2\n\n3\r\n4\r5", 10), Ok(expected.clone()));
        assert_eq!(lines(b"1 2\r\r3\r4\n5\n", 10), Ok(expected));
        assert_eq!(lines(b"\xEF\xBB\xBF7\n", 10), Ok(vec!["7".to_string()]));
        assert_eq!(lines(b"", 10), Ok(vec![]));
        assert_eq!(lines(b"\n", 10), Ok(vec![String::new()]));
    }

    #[test]
    fn bad_bytes_stop_the_reading_where_they_are() {
        // Each input's first fault, named by line and byte; the first fault wins over later ones.
        let cases: [(&[u8], &str); 7] = [
            (b"1\n2 \x003", "line 2: byte 4 of the input is `\\0`, which no valid input holds"),
            (b"1\r\n22\r\n3 \xff 4\n", "line 3: byte 9 of the input starts invalid UTF-8 (`\\xff`)"),
            // A sequence cut by the end of its line.
            (b"1\n\xe2\x82\n", "line 2: byte 2 of the input starts invalid UTF-8 (`\\xe2\\x82`)"),
            (
                b"12345678901\n",
                "line 1: the line is longer than 10 bytes (with any blank lines before it); no valid line is that long",
            ),
            (b"\xd1\xed\x16", "line 1: byte 0 of the input starts invalid UTF-8 (`\\xd1`)"),
            (b"1\xe2\x82\0", "line 1: byte 1 of the input starts invalid UTF-8 (`\\xe2\\x82`)"),
            (b"\xe2\x82\xac\0", "line 1: byte 3 of the input is `\\0`, which no valid input holds"),
        ];
        for (input, expected) in cases {
            assert_eq!(lines(input, 10), Err(expected.to_string()), "{input:?}");
        }
        assert_eq!(lines(b"1234567890\n", 10).unwrap().len(), 1);
        assert_eq!(
            read_bounded(&b"1\n2\n3\n"[..], 4),
            Err(ReadError {
                line: 3,
                fault: ReadFault::InputTooLong { limit: 4 }
            })
        );
        assert_eq!(read_bounded(&b"1\r2\r"[..], 4), Ok("1\n2\n".to_string()));
    }

    #[test]
    fn multibyte_characters_split_across_reads() {
        // A reader that hands out one byte at a time.
        let text = "é 1\n€\n".as_bytes();
        let one_by_one = std::io::BufReader::with_capacity(1, text);
        let mut reader = Lines::new(one_by_one);
        assert_eq!(reader.next_line(10).unwrap(), Some("é 1"));
        assert_eq!(reader.next_line(10).unwrap(), Some("€"));
        assert_eq!(reader.next_line(10).unwrap(), None);
    }

    #[test]
    fn a_bad_line_is_skipped_and_the_next_one_read() {
        // A line too long, one with a control byte, one not UTF-8, each followed by a good line, with
        // every line ending; a reader of one byte at a time and one of the whole input.
        let input: &[u8] = b"123456789012345\r\n7\n1\x1b2\r\n8\r\xff\xfe\r9\n\n10";
        for capacity in [1, 3, 64] {
            let mut reader = Lines::new(std::io::BufReader::with_capacity(capacity, input));
            let mut seen = Vec::new();
            loop {
                match reader.next_line(10) {
                    Ok(Some(line)) => seen.push(line.to_string()),
                    Ok(None) => break,
                    Err(e) => {
                        seen.push(format!("fault {}", e.line));
                        reader.skip_line(u64::MAX).unwrap();
                    }
                }
            }
            assert_eq!(
                seen,
                ["fault 1", "7", "fault 3", "8", "fault 5", "9", "", "10"],
                "{capacity}"
            );
        }
        // An endless line is passed over in bounded memory, and the end of the input ends it.
        let endless = io::Read::chain(io::Read::take(io::repeat(b'1'), 10 << 20), &b"\n2"[..]);
        let mut reader = Lines::new(std::io::BufReader::new(endless));
        assert!(reader.next_line(4096).is_err());
        reader.skip_line(u64::MAX).unwrap();
        assert_eq!(reader.next_line(4096).unwrap(), Some("2"));
        reader.skip_line(u64::MAX).unwrap();
        assert_eq!(reader.next_line(4096).unwrap(), None);
    }

    #[test]
    fn endless_inputs_stop_early() {
        let zeros = std::io::repeat(0);
        let mut reader = Lines::new(std::io::BufReader::new(zeros));
        assert_eq!(
            reader.next_line(4096).unwrap_err().to_string(),
            "line 1: byte 0 of the input is `\\0`, which no valid input holds"
        );
        let ones = std::io::BufReader::new(std::io::repeat(b'1'));
        assert_eq!(
            Lines::new(ones).next_line(4096).unwrap_err().fault,
            ReadFault::LineTooLong { limit: 4096 }
        );
    }
}
